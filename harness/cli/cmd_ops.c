/* cmd_ops.c - `malform ops [--json]`: the malformation op registry. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/mutators.h"

static const char *formats(unsigned f)
{
    return f == MF_OP_ANY ? "any" : f == MF_OP_YAML ? "yaml" : "json";
}

int cmd_ops(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json"))
            json = 1;
        else {
            fprintf(stderr, "usage: malform ops [--json]\n");
            return 2;
        }
    }
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
