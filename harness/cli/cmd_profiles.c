/* cmd_profiles.c - `malform profiles`: the built-in artifact profiles. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"

static const struct option options[] = {{"json", no_argument, NULL, 'j'}, {0}};
static const cli_cmd cmd = {"profiles", "[--json]", "The built-in artifact profiles: name, format, description.\n", "",
                            options};

int cmd_profiles(int argc, char **argv)
{
    bool json;
    int rc = cli_json_flag_only(&cmd, argc, argv, &json);
    if (rc >= 0)
        return rc;
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
    return json ? cli_print_json(arr) : 0;
}
