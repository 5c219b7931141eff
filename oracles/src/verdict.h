/* verdict.h - how every oracle fills its verdict (private to oracles/). */
#ifndef MALFORM_ORACLES_VERDICT_H
#define MALFORM_ORACLES_VERDICT_H

#include <stdio.h>
#include <stdlib.h>
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

/* The first differing path of got against want, for one-line details. */
static inline void first_diff(const json_t *got, const json_t *want, char *out, size_t n)
{
    char *d = mf_value_diff(got, want, 1);
    size_t l = d ? strlen(d) : 0;
    while (l && (d[l - 1] == '\n'))
        d[--l] = '\0';
    snprintf(out, n, "%s", d && *d ? d + 2 : "values differ");
    free(d);
}

#endif
