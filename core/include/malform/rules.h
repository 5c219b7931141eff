/* rules.h - the registry of repair rules: stable id, seed section, description. */
#ifndef MALFORM_RULES_H
#define MALFORM_RULES_H

#include <stddef.h>

typedef struct {
    const char *id;          /* stable id, e.g. "yaml.colon-space" */
    const char *section;     /* seed section it implements, e.g. "000 YAML Structural Repairs #3" */
    const char *description; /* one line */
} mf_rule;

/* Number of registered rules. */
size_t mf_rules_count(void);
/* The i-th rule (0 <= i < mf_rules_count()), in a stable order. */
const mf_rule *mf_rules_at(size_t i);
/* Look a rule up by id; NULL when unknown. */
const mf_rule *mf_rules_find(const char *id);

#endif
