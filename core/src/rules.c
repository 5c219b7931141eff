/* rules.c - the rule registry: rules.def as a table, in its stable order. */
#include <stdbool.h>
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

/* A byte loop, not strcmp: under libFuzzer every failed strcmp of the
 * lookup feeds its compare hooks, and the oracles look up every warning. */
static bool same_id(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

const mf_rule *mf_rules_find(const char *id)
{
    for (size_t i = 0; id && i < MF_RULE_COUNT; i++)
        if (mf_rules[i].id == id)
            return &mf_rules[i];
    for (size_t i = 0; id && i < MF_RULE_COUNT; i++)
        if (same_id(mf_rules[i].id, id))
            return &mf_rules[i];
    return NULL;
}

/* The rules outside the normalization stages that rewrite strictly valid
 * text (each has a fixture showing it). */
static const char *const valid_text_rules[] = {
    MF_RULE_ID(CAND_LEADING_PROSE), MF_RULE_ID(CAND_TRAILING_PROSE), MF_RULE_ID(YAML_NESTED_CHILDREN),
    MF_RULE_ID(YAML_COLON_SPACE),   MF_RULE_ID(YAML_DASH_SPACE),     MF_RULE_ID(YAML_ITEM_COLON),
    MF_RULE_ID(YAML_QUOTED_HASH),
};

bool mf_rule_reads_valid_text(const char *id)
{
    if (!id)
        return false;
    if (!strncmp(id, "norm.", 5) || !strncmp(id, "schema.", 7))
        return true;
    for (size_t i = 0; i < sizeof valid_text_rules / sizeof *valid_text_rules; i++)
        if (same_id(valid_text_rules[i], id))
            return true;
    return false;
}
