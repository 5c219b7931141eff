/* cmd_rules.c - `malform rules`: the repair-rule registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"

static const struct option options[] = {{"json", no_argument, NULL, 'j'}, {0}};
static const cli_cmd cmd = {"rules", "[--json]", "Every repair rule: id, seed section, description.\n", "", options};

int cmd_rules(int argc, char **argv)
{
    bool json;
    int rc = cli_json_flag_only(&cmd, argc, argv, &json);
    if (rc >= 0)
        return rc;
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const mf_rule *r = mf_rules_at(i);
        if (json)
            json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "id", r->id, "section", r->section,
                                                 "description", r->description));
        else
            printf("%-32s %-48s %s\n", r->id, r->section, r->description);
    }
    return json ? cli_print_json(arr) : 0;
}
