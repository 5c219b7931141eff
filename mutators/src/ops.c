/* ops.c - the op registry: ops.def as a table, in its stable order. */
#include <string.h>
#include "mut_internal.h"

static const mf_op ops[] = {
#define OP(fn, id, contract, formats, kind, rules, section, description) \
    {id, section, description, rules, contract, formats, kind, fn},
#include "ops.def"
#undef OP
};

size_t mf_ops_count(void)
{
    return sizeof ops / sizeof *ops;
}

const mf_op *mf_ops_at(size_t i)
{
    return i < mf_ops_count() ? &ops[i] : NULL;
}

/* A byte loop, not strcmp: every case decode looks its ops up, and under
 * libFuzzer each failed strcmp feeds the compare hooks (5% of an exec). */
static bool same_id(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

const mf_op *mf_ops_find(const char *id)
{
    for (size_t i = 0; id && i < mf_ops_count(); i++)
        if (same_id(ops[i].id, id))
            return &ops[i];
    return NULL;
}
