/* verdict.h - how every oracle fills its verdict (private to oracles/). */
#ifndef MALFORM_ORACLES_VERDICT_H
#define MALFORM_ORACLES_VERDICT_H

#include <string.h>
#include "malform/oracles.h"

/* Mark v as run and passing, with an empty detail. */
static inline void start(mf_verdict *v)
{
    v->ran = true;
    v->failed = false;
    v->detail[0] = '\0';
}

/* The oracle failed when it wrote a detail; returns 1 then, else 0. */
static inline int finish(mf_verdict *v)
{
    v->failed = v->detail[0] != '\0';
    return v->failed;
}

/* True when some warning of r comes from rule. */
static inline bool rule_fired(const mf_result *r, const char *rule)
{
    for (size_t i = 0; i < r->warnings.count; i++)
        if (r->warnings.items[i].rule && !strcmp(r->warnings.items[i].rule, rule))
            return true;
    return false;
}

#endif
