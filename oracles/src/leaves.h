/* leaves.h - walk the scalars of a value with their JSON-pointer paths (private to oracles/). */
#ifndef MALFORM_ORACLES_LEAVES_H
#define MALFORM_ORACLES_LEAVES_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <jansson.h>

/* Judge one scalar at path; true stops the walk (a finding). */
typedef bool (*mf_leaf_fn)(const json_t *leaf, const char *path, void *ctx);

/* Call fn on every scalar of v (at most 64 levels down), path[] growing with each
 * key or index from its current end; true when fn stopped the walk, path then
 * naming the leaf, else path back as it was. */
static inline bool mf_walk_leaves(const json_t *v, char *path, size_t plen, int depth, mf_leaf_fn fn, void *ctx)
{
    if (depth > 64)
        return false;
    size_t pl = strlen(path);
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            snprintf(path + pl, plen - pl, "/%s", k);
            if (mf_walk_leaves(x, path, plen, depth + 1, fn, ctx))
                return true;
        }
        path[pl] = '\0';
        return false;
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path + pl, plen - pl, "/%zu", i);
            if (mf_walk_leaves(json_array_get(v, i), path, plen, depth + 1, fn, ctx))
                return true;
        }
        path[pl] = '\0';
        return false;
    }
    return fn(v, path, ctx);
}

#endif
