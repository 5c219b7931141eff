/* alloc_pool.c - the pool of alloc_pool.h. Blocks of 32 to 512 bytes (a
 * 16-byte header included) in size classes of 16, carved from 1 MB chunks
 * of one reserved region, so a pointer is the pool's iff it lies in it.
 * A live block has its header and the bytes past the request poisoned; a
 * freed one is poisoned whole and waits in a FIFO quarantine of
 * POOL_QUARANTINE blocks before its class may hand it out again. Chunks
 * are LSan root regions: malloc'd memory reachable only from pool blocks
 * (a long jansson string) is not reported as leaked.
 * Not thread-safe: only the thread that enabled it allocates from it. */
#define _DEFAULT_SOURCE  /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "alloc_pool.h"
#include <stdint.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MF_POOL_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define MF_POOL_ASAN 1
#endif

bool mf_alloc_pool_on(void);
bool mf_alloc_pool_owns(const void *p);
void *mf_alloc_pool_get(size_t n);
void mf_alloc_pool_put(void *p);
size_t mf_alloc_pool_usable(const void *p);

#ifndef MF_POOL_ASAN
bool mf_alloc_pool_enable(void) { return false; }
size_t mf_alloc_pool_live(void) { return 0; }
bool mf_alloc_pool_keep(bool on) { (void)on; return false; }
bool mf_alloc_pool_resume(bool o) { (void)o; return false; }
bool mf_alloc_pool_on(void) { return false; }
bool mf_alloc_pool_owns(const void *p) { (void)p; return false; }
void *mf_alloc_pool_get(size_t n) { (void)n; return NULL; }
void mf_alloc_pool_put(void *p) { (void)p; }
size_t mf_alloc_pool_usable(const void *p) { (void)p; return 0; }
#else
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>

#define POOL_HDR 16u
#define POOL_MAX 512u                     /* largest block, header included */
#define POOL_CLASSES (POOL_MAX / 16u + 1u)
#define POOL_CHUNK ((size_t)1 << 20)
#define POOL_REGION ((size_t)1 << 31)      /* address space only (MAP_NORESERVE) */
#define POOL_QUARANTINE 65536u
#define LIVE 0x6c697665u
#define FREED 0x66726565u

typedef struct block {
    uint32_t state;          /* LIVE or FREED */
    uint16_t cls;            /* block size / 16 */
    uint16_t kept;           /* allocated in a kept scope */
    struct block *next;      /* free list link while FREED */
} block;

static _Thread_local bool on;
static bool kept;
static char *region, *cur, *end;  /* reserved region; carving cursor within the current chunk */
static char *region_end;
static block *free_list[POOL_CLASSES];
static block *quarantine[POOL_QUARANTINE];
static size_t q_head, q_len, live;

bool mf_alloc_pool_enable(void)
{
    if (!region) {
        void *r = mmap(NULL, POOL_REGION, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (r == MAP_FAILED)
            return false;
        region = cur = end = r;
        region_end = region + POOL_REGION;
    }
    on = true;
    return true;
}

bool mf_alloc_pool_on(void) { return on; }

bool mf_alloc_pool_resume(bool o)
{
    bool was = on;
    on = o && region;
    return was;
}

size_t mf_alloc_pool_live(void) { return live; }

bool mf_alloc_pool_keep(bool k)
{
    bool was = kept;
    kept = k;
    return was;
}

bool mf_alloc_pool_owns(const void *p)
{
    return region && (const char *)p >= region && (const char *)p < region_end;
}

static void die(const char *what, const void *p)
{
    fprintf(stderr, "malform pool: %s of %p (jansson value)\n", what, p);
    abort();
}

/* A new block of class cls from the current chunk (a new chunk when it is used up); NULL when the region is. */
static block *carve(size_t cls)
{
    size_t size = cls * 16u;
    if ((size_t)(end - cur) < size) {
        if ((size_t)(region_end - end) < POOL_CHUNK)
            return NULL;
        cur = end;
        end += POOL_CHUNK;
        ASAN_POISON_MEMORY_REGION(cur, POOL_CHUNK);
        __lsan_register_root_region(cur, POOL_CHUNK);
    }
    block *b = (block *)cur;
    cur += size;
    return b;
}

void *mf_alloc_pool_get(size_t n)
{
    if (n > POOL_MAX - POOL_HDR)
        return NULL;
    size_t cls = (n + POOL_HDR + 15u) / 16u;
    block *b = free_list[cls];
    if (b) {
        ASAN_UNPOISON_MEMORY_REGION(b, POOL_HDR);
        free_list[cls] = b->next;
    } else if ((b = carve(cls))) {
        ASAN_UNPOISON_MEMORY_REGION(b, POOL_HDR);
    } else {
        return NULL;
    }
    *b = (block){LIVE, (uint16_t)cls, kept, NULL};
    live += !kept;
    ASAN_POISON_MEMORY_REGION(b, POOL_HDR);
    char *p = (char *)b + POOL_HDR;
    ASAN_UNPOISON_MEMORY_REGION(p, n);
    return p;
}

size_t mf_alloc_pool_usable(const void *p)
{
    block *b = (block *)((char *)p - POOL_HDR);
    ASAN_UNPOISON_MEMORY_REGION(b, POOL_HDR);
    size_t n = b->cls * 16u - POOL_HDR;
    ASAN_POISON_MEMORY_REGION(b, POOL_HDR);
    return n;
}

void mf_alloc_pool_put(void *p)
{
    if (((uintptr_t)p & 15u) != POOL_HDR % 16u)
        die("free of a pointer inside a block", p);
    block *b = (block *)((char *)p - POOL_HDR);
    ASAN_UNPOISON_MEMORY_REGION(b, POOL_HDR);
    if (b->state != LIVE)
        die(b->state == FREED ? "double free" : "free of a pointer the pool did not hand out", p);
    b->state = FREED;
    live -= !b->kept;
    ASAN_POISON_MEMORY_REGION(b, b->cls * 16u);
    if (q_len == POOL_QUARANTINE) {  /* the oldest freed block may be handed out again */
        block *old = quarantine[q_head];
        ASAN_UNPOISON_MEMORY_REGION(old, POOL_HDR);
        old->next = free_list[old->cls];
        free_list[old->cls] = old;
        ASAN_POISON_MEMORY_REGION(old, POOL_HDR);
        q_len--;
        q_head = (q_head + 1) % POOL_QUARANTINE;
    }
    quarantine[(q_head + q_len++) % POOL_QUARANTINE] = b;
}
#endif
