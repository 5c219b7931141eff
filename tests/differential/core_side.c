/* core_side.c - the differential suite's core side: reads "PROFILE<TAB>PATH"
 * lines on stdin and prints one JSON line per input, in order:
 * {"ok": true, "value": V, "rules": [ids]} or {"ok": false, "error": TEXT}.
 * Runs the whole pipeline (mf_repair) with the named profile. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/malform.h"
#include "malform/input.h"

/* The whole file (NUL-terminated; the input cap as mf_repair's); NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    char *s = NULL;
    if (mf_input_read(path, MF_DEFAULT_MAX_INPUT, &s, len) != MF_INPUT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

static void print_record(json_t *rec)
{
    char *s = json_dumps(rec, JSON_COMPACT | JSON_ENCODE_ANY);
    puts(s ? s : "{\"ok\": false, \"error\": \"out of memory\"}");
    free(s);
    json_decref(rec);
}

int main(void)
{
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *tab = strchr(line, '\t');
        if (!tab) {
            print_record(json_pack("{s:b, s:s}", "ok", 0, "error", "bad manifest line"));
            continue;
        }
        *tab = '\0';
        const mf_profile *p = mf_profiles_get(line);
        size_t len = 0;
        char *text = p ? slurp(tab + 1, &len) : NULL;
        if (!text) {
            print_record(json_pack("{s:b, s:s}", "ok", 0, "error", p ? "cannot read input" : "unknown profile"));
            continue;
        }
        mf_options o = {0};
        mf_result *r = mf_repair(p, text, len, &o);
        json_t *rules = json_array();
        for (size_t k = 0; r && k < r->warnings.count; k++)
            json_array_append_new(rules, json_string(r->warnings.items[k].rule));
        if (r && r->status == MF_ACCEPTED)
            print_record(json_pack("{s:b, s:O, s:o}", "ok", 1, "value", r->value, "rules", rules));
        else
            print_record(json_pack("{s:b, s:s, s:o}", "ok", 0, "error",
                                   r ? r->error.message : "out of memory", "rules", rules));
        mf_result_free(r);
        free(text);
    }
    return 0;
}
