/* cmd_ops.c - `malform ops [--json]`: the malformation op registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "malform/mutators.h"

static const char *formats(unsigned f)
{
    return f == MF_OP_ANY ? "any" : f == MF_OP_YAML ? "yaml" : "json";
}

static const struct option options[] = {{"json", no_argument, NULL, 'j'}, {0}};
static const cli_cmd cmd = {"ops", "[--json]",
                            "Every malformation op: id, contract, formats, kind, expected rules, description.\n", "",
                            options};

int cmd_ops(int argc, char **argv)
{
    int json = 0, c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        if (c == CLI_EXIT)
            return rc;
        json = 1;
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    json_t *arr = json ? json_array() : NULL;
    for (size_t i = 0; i < mf_ops_count(); i++) {
        const mf_op *o = mf_ops_at(i);
        if (json)
            json_array_append_new(arr, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "id", o->id, "section", o->section,
                                                 "description", o->description, "rules", o->rules, "contract",
                                                 mf_contract_name(o->contract), "formats", formats(o->formats),
                                                 "kind", o->kind == MF_OP_VALUE ? "value" : "text"));
        else
            printf("%-30s %-6s %-4s %-5s %-44s %s\n", o->id, mf_contract_name(o->contract), formats(o->formats),
                   o->kind == MF_OP_VALUE ? "value" : "text", *o->rules ? o->rules : "-", o->description);
    }
    if (json) {
        char *s = json_dumps(arr, JSON_INDENT(2));
        puts(s);
        free(s);
        json_decref(arr);
    }
    return 0;
}
