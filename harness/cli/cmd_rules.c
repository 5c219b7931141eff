/* cmd_rules.c - `malform rules`: the repair-rule registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

int cmd_rules(int argc, char **argv)
{
    int json = argc > 1 && !strcmp(argv[1], "--json");
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const mf_rule *r = mf_rules_at(i);
        if (json)
            json_array_append_new(arr, json_pack("{s:s,s:s,s:s}", "id", r->id, "section", r->section,
                                                 "description", r->description));
        else
            printf("%-32s %-48s %s\n", r->id, r->section, r->description);
    }
    if (json) {
        char *s = json_dumps(arr, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(arr);
    }
    return 0;
}
