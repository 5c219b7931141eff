/* rules.c - the rule registry: rules.def as a table, in its stable order. */
#include <string.h>
#include "internal.h"

#define RULE(cname, id, section, description) const char mf_rule_id_##cname[] = id;
#include "rules.def"
#undef RULE

const mf_rule mf_rules[MF_RULE_COUNT] = {
#define RULE(cname, id, section, description) [MF_RULE_##cname] = {mf_rule_id_##cname, section, description},
#include "rules.def"
#undef RULE
};

size_t mf_rules_count(void)
{
    return MF_RULE_COUNT;
}

const mf_rule *mf_rules_at(size_t i)
{
    return i < MF_RULE_COUNT ? &mf_rules[i] : NULL;
}

const mf_rule *mf_rules_find(const char *id)
{
    for (size_t i = 0; id && i < MF_RULE_COUNT; i++)
        if (strcmp(mf_rules[i].id, id) == 0)
            return &mf_rules[i];
    return NULL;
}
