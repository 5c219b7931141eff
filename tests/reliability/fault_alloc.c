/* fault_alloc.c - see fault_alloc.h. Sizes come from malloc_usable_size, so
 * memory allocated before the wrap (or by libc itself) frees correctly. */
#include <malloc.h>
#include <string.h>
#include "fault_alloc.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t m);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);

static size_t calls, fail_at, live, peak;
static bool fired;

void fault_arm(size_t nth)
{
    fail_at = nth;
    calls = 0;
    fired = false;
}

size_t fault_calls(void) { return calls; }
bool fault_fired(void) { return fired; }
size_t fault_live(void) { return live; }
size_t fault_peak(void) { return peak; }
void fault_peak_reset(void) { peak = live; }

static bool fail_now(void)
{
    if (++calls == fail_at && fail_at) {
        fired = true;
        return true;
    }
    return false;
}

static void *track(void *p)
{
    if (p) {
        live += malloc_usable_size(p);
        if (live > peak)
            peak = live;
    }
    return p;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : track(__real_malloc(n)); }
void *__wrap_calloc(size_t n, size_t m) { return fail_now() ? NULL : track(__real_calloc(n, m)); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : track(__real_strdup(s)); }
char *__wrap_strndup(const char *s, size_t n) { return fail_now() ? NULL : track(__real_strndup(s, n)); }

void __wrap_free(void *p)
{
    if (p) {
        size_t n = malloc_usable_size(p);
        live = live > n ? live - n : 0;
    }
    __real_free(p);
}

void *__wrap_realloc(void *p, size_t n)
{
    if (fail_now())
        return NULL;
    size_t old = p ? malloc_usable_size(p) : 0;
    void *q = __real_realloc(p, n);
    if (q || n == 0)
        live = live > old ? live - old : 0;
    return q ? track(q) : NULL;
}
