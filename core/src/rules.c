/* rules.c - the rule registry: every module's rule table, in one stable order. */
#include <string.h>
#include "internal.h"

static const mf_rule *const tables[] = { mf_rules_cand, mf_rules_yaml, mf_rules_json, mf_rules_norm };

size_t mf_rules_count(void)
{
    size_t n = 0;
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const mf_rule *r = tables[t]; r->id; r++)
            n++;
    return n;
}

const mf_rule *mf_rules_at(size_t i)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const mf_rule *r = tables[t]; r->id; r++)
            if (i-- == 0)
                return r;
    return NULL;
}

const mf_rule *mf_rules_find(const char *id)
{
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++)
        for (const mf_rule *r = tables[t]; r->id; r++)
            if (strcmp(r->id, id) == 0)
                return r;
    return NULL;
}
