/* alloc.c - the allocation hook of core/: every malloc, calloc and realloc
 * in core (internal.h maps them here) and every allocation jansson makes
 * (json_set_alloc_funcs, chained to whatever the host application installed)
 * notes a failure in a per-thread count. mf_repair compares the count before
 * and after, so an allocation failure anywhere during a repair ends as an
 * OUT_OF_MEMORY rejection, whatever the failing code made of it. libyaml
 * reports its own failures (YAML_MEMORY_ERROR), which its callers note.
 * This file does not include internal.h: it calls the real allocator. */
#include <pthread.h>
#include <stdlib.h>
#include <jansson.h>

int mf_oom(void);
size_t mf_oom_count(void);
void mf_oom_hook_jansson(void);
void *mf_malloc(size_t n);
void *mf_calloc(size_t n, size_t size);
void *mf_realloc(void *p, size_t n);

static _Thread_local size_t oom_count;
static json_malloc_t next_malloc;
static json_free_t next_free;

int mf_oom(void)
{
    oom_count++;
    return -1;
}

size_t mf_oom_count(void) { return oom_count; }

void *mf_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        mf_oom();
    return p;
}

void *mf_calloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p && n && size)
        mf_oom();
    return p;
}

void *mf_realloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q && n)
        mf_oom();
    return q;
}

static void *hooked_malloc(size_t n)
{
    void *p = next_malloc ? next_malloc(n) : malloc(n);
    if (!p)
        mf_oom();
    return p;
}

static void hooked_free(void *p)
{
    if (next_free)
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
