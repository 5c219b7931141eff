/* cmd_profiles.c - `malform profiles`: the built-in artifact profiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

int cmd_profiles(int argc, char **argv)
{
    int json = argc > 1 && !strcmp(argv[1], "--json");
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < mf_profiles_count(); i++) {
        const mf_profile *p = mf_profiles_at(i);
        const char *fmt = p->format == MF_FORMAT_JSON ? "json" : "yaml";
        if (json)
            json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:b}", "name", p->name, "format", fmt,
                                                 "description", p->description ? p->description : "",
                                                 "schema", p->schema != NULL));
        else
            printf("%-20s %-5s %s\n", p->name, fmt, p->description ? p->description : "");
    }
    if (json) {
        char *s = json_dumps(arr, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(arr);
    }
    return 0;
}
