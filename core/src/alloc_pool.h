/* alloc_pool.h - jansson's small allocations from a size-class pool in
 * ASan builds (the fuzz targets): ASan's allocator, its quarantine and
 * libFuzzer's malloc hooks cost a fifth of a structured exec, and jansson
 * makes a third of the allocations. Blocks are poisoned by hand (header,
 * tail, whole block once freed, a FIFO quarantine before reuse), so
 * overflows, use-after-free and double frees are still reported; a leak of
 * pool blocks is reported by the caller from mf_alloc_pool_live. Without
 * ASan every call is a no-op and jansson uses malloc. */
#ifndef MALFORM_ALLOC_POOL_H
#define MALFORM_ALLOC_POOL_H

#include <stdbool.h>
#include <stddef.h>

/* Route this thread's jansson allocations to the pool from now on; false
 * when the build has no ASan (nothing changes). */
bool mf_alloc_pool_enable(void);
/* Pool blocks allocated outside a kept scope and not yet freed: equal
 * before and after a self-contained call unless it leaked. */
size_t mf_alloc_pool_live(void);
/* on: blocks allocated from now on belong to a cache that outlives the
 * call (not counted by mf_alloc_pool_live). Returns the previous setting. */
bool mf_alloc_pool_keep(bool on);

/* off: allocations go to malloc again until resumed (json_dumps, whose
 * callers free its string with free()). Returns whether the pool was on. */
bool mf_alloc_pool_resume(bool on);

#endif
