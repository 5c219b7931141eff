/* alloc.c - the allocation hook of core/: every malloc, calloc, realloc and
 * free in core (internal.h maps them here) and every allocation jansson
 * makes (json_set_alloc_funcs, chained to whatever the host application
 * installed) goes through here, which does two things per thread:
 * - notes each failure in a count. mf_repair compares the count before and
 *   after, so an allocation failure anywhere during a repair ends as an
 *   OUT_OF_MEMORY rejection, whatever the failing code made of it. libyaml
 *   reports its own failures (YAML_MEMORY_ERROR), which its callers note.
 * - keeps the live bytes of jansson's values (malloc_usable_size, glibc) and
 *   refuses an allocation that would pass the budget mf_repair sets (16x the
 *   input plus a constant), counting the refusal apart, so the memory cap
 *   names itself (MEMORY_LIMIT). The value tree is what grows with the
 *   shape of the input (jansson spends 50 to 150 bytes on a node that can
 *   take 2 to 4 input bytes); core's own buffers are linear in the text.
 * Once a fuzz target enables it (alloc_pool.h, ASan builds), jansson's small
 * blocks come from the poisoned pool instead of malloc.
 * This file does not include internal.h: it calls the real allocator. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <jansson.h>
#if defined(__GLIBC__)
#include <malloc.h>
#define USABLE(p) malloc_usable_size(p)
#else
#define USABLE(p) ((size_t)0)
#endif

int mf_oom(void);
size_t mf_oom_count(void);
void mf_oom_hook_jansson(void);
void *mf_malloc(size_t n);
void *mf_calloc(size_t n, size_t size);
void *mf_realloc(void *p, size_t n);
bool mf_alloc_pool_on(void);
bool mf_alloc_pool_owns(const void *p);
void *mf_alloc_pool_get(size_t n);
void mf_alloc_pool_put(void *p);
size_t mf_alloc_pool_usable(const void *p);
size_t mf_mem_budget_set(size_t extra);
void mf_mem_budget_restore(size_t saved);
size_t mf_mem_refused(void);

static _Thread_local size_t oom_count, refused, live, limit; /* limit 0: no budget */
static json_malloc_t next_malloc;
static json_free_t next_free;

int mf_oom(void)
{
    oom_count++;
    return -1;
}

size_t mf_oom_count(void) { return oom_count; }

size_t mf_mem_refused(void) { return refused; }

size_t mf_mem_budget_set(size_t extra)
{
    size_t saved = limit;
    size_t want = live + extra > live ? live + extra : (size_t)-1;
    if (!limit || want < limit)
        limit = want; /* an outer, tighter budget stays */
    return saved;
}

void mf_mem_budget_restore(size_t saved) { limit = saved; }

/* May n more bytes be allocated? A refusal is counted as an allocation failure too. */
static bool within_budget(size_t n)
{
    if (!limit || live + n <= limit)
        return true;
    refused++;
    oom_count++;
    return false;
}

static void *noted(void *p)
{
    if (!p)
        mf_oom();
    return p;
}

void *mf_malloc(size_t n) { return noted(malloc(n)); }

void *mf_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    return n && size ? noted(p) : p;
}

void *mf_realloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    return n ? noted(q) : q;
}

static void *hooked_malloc(size_t n)
{
    if (!within_budget(n))
        return NULL;
    void *p = mf_alloc_pool_on() ? mf_alloc_pool_get(n) : NULL;  /* the fuzz targets install no allocator of their own */
    if (p) {
        live += mf_alloc_pool_usable(p);
        return p;
    }
    p = noted(next_malloc ? next_malloc(n) : malloc(n));
    if (p)
        live += USABLE(p);
    return p;
}

static void hooked_free(void *p)
{
    bool pooled = p && mf_alloc_pool_owns(p);
    size_t n = !p ? 0 : pooled ? mf_alloc_pool_usable(p) : USABLE(p);
    live = live > n ? live - n : 0;
    if (pooled)
        mf_alloc_pool_put(p);
    else if (next_free)
        next_free(p);
    else
        free(p);
}

static void install_hook(void)
{
    json_get_alloc_funcs(&next_malloc, &next_free);
    json_set_alloc_funcs(hooked_malloc, hooked_free);
}

void mf_oom_hook_jansson(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_hook);
}
