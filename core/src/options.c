/* options.c - runtime options from their JSON form (CLI, fixtures, cases). */
#include <string.h>
#include "internal.h"

void mf_options_from_json(const json_t *obj, mf_options *o)
{
    memset(o, 0, sizeof *o);
    if (!json_is_object(obj))
        return;
    o->ticket_id = json_string_value(json_object_get(obj, "ticket_id"));
    o->interview_sha256 = json_string_value(json_object_get(obj, "interview_sha256"));
    o->story_id = json_string_value(json_object_get(obj, "story_id"));
    o->roster = json_object_get(obj, "roster");
    o->approved_interview = json_object_get(obj, "approved_interview");
    o->expected_files = json_object_get(obj, "expected_files");
    o->sample_paths = json_object_get(obj, "sample_paths");
}
