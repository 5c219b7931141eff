/* cmd_ops.c - `malform ops [--json]`: the malformation op registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
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
    bool json;
    int rc = cli_json_flag_only(&cmd, argc, argv, &json);
    if (rc >= 0)
        return rc;
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
    return json ? cli_print_json(arr) : 0;
}
