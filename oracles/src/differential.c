/* differential.c - several pipelines on one input, no ground truth: the
 * strict majority of their outcomes (the same accepted value, or all
 * rejected) stands for the truth, and a pipeline that disagrees with it is a
 * finding of its own kind (differential). */
#include <stdlib.h>
#include "malform/oracles.h"

static bool same(const json_t *a, const json_t *b)
{
    return (!a && !b) || (a && b && json_equal((json_t *)a, (json_t *)b));
}

int mf_oracle_differential(const json_t *const *values, size_t n, bool *dissent)
{
    int major = -1;
    for (size_t i = 0; i < n && major < 0; i++) {
        size_t votes = 0;
        for (size_t j = 0; j < n; j++)
            votes += same(values[i], values[j]);
        if (votes * 2 > n)
            major = (int)i;
    }
    for (size_t i = 0; i < n; i++)
        dissent[i] = major >= 0 && !same(values[i], values[major]);
    return major;
}
