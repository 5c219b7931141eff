/* afl_custom_mutator.c - AFL++ custom mutator .so over structured cases,
 * sharing mf_case_mutate / mf_case_crossover with the libFuzzer target.
 * Load with AFL_CUSTOM_MUTATOR_LIBRARY=/abs/path/libmalform_afl_mutator.so.
 * The AFL state is taken as void * (Debian ships no afl-fuzz.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/mutators.h"

typedef struct {
    uint64_t rng;
    uint8_t *out;
    size_t out_cap;
    char desc[128];
} mf_afl;

void *afl_custom_init(void *afl, unsigned int seed);
size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size);
const char *afl_custom_describe(void *data, size_t max_description_len);
void afl_custom_deinit(void *data);

static uint64_t *g_rng;

/* A small byte mutator for the artifact (AFL's own havoc runs separately). */
static size_t bytes(uint8_t *d, size_t size, size_t max)
{
    static const char *const tokens[] = {": ", "- ", "\"", "'", "`", "#", "\n", "  ", "{", "}", "[", "]", ",", "\\",
                                         "|-", "${", "@", "null", "true", "\x1b[0m", "```"};
    uint64_t r = mf_rng_next(g_rng);
    size_t at = size ? (size_t)(r >> 8) % size : 0;
    switch (r % 3) {
    case 0:
        if (size)
            d[at] ^= (uint8_t)(1u << ((r >> 40) % 8));
        return size;
    case 1:
        if (size) {
            size_t n = 1 + (r >> 32) % 8;
            if (at + n > size)
                n = size - at;
            memmove(d + at, d + at + n, size - at - n);
            return size - n;
        }
        return size;
    default: {
        const char *t = tokens[(r >> 24) % (sizeof tokens / sizeof *tokens)];
        size_t n = strlen(t);
        if (size + n > max)
            return size;
        memmove(d + at + n, d + at, size - at);
        memcpy(d + at, t, n);
        return size + n;
    }
    }
}

void *afl_custom_init(void *afl, unsigned int seed)
{
    (void)afl;
    mf_afl *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->rng = seed;
    return m;
}

size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf, uint8_t *add_buf,
                       size_t add_buf_size, size_t max_size)
{
    mf_afl *m = data;
    char err[8];
    g_rng = &m->rng;
    mf_case *c = mf_case_decode((const char *)buf, buf_size, err, sizeof err);
    if (!c)
        c = mf_case_default(&m->rng);
    mf_case *other = add_buf ? mf_case_decode((const char *)add_buf, add_buf_size, err, sizeof err) : NULL;
    if (c && other && mf_rng_next(&m->rng) % 4 == 0) {
        mf_case *x = mf_case_crossover(c, other, &m->rng);
        if (x) {
            mf_case_free(c);
            c = x;
        }
    }
    mf_case_free(other);
    size_t len = 0;
    char *t = NULL;
    if (c) {
        mf_case_mutate(c, &m->rng, bytes, c->artifact_len + 64);
        snprintf(m->desc, sizeof m->desc, "malform-%zu-ops", c->nops);
        t = mf_case_encode(c, &len);
        mf_case_free(c);
    }
    if (!t || len == 0 || len > max_size) {
        free(t);
        /* AFL++ needs a non-empty buffer: hand back the input unchanged */
        len = buf_size ? buf_size : 1;
        t = malloc(len);
        if (!t)
            return 0;
        if (buf_size)
            memcpy(t, buf, buf_size);
        else
            t[0] = '\n';
    }
    free(m->out);
    m->out = (uint8_t *)t;
    *out_buf = m->out;
    return len;
}

const char *afl_custom_describe(void *data, size_t max_description_len)
{
    mf_afl *m = data;
    if (max_description_len < sizeof m->desc)
        m->desc[max_description_len ? max_description_len - 1 : 0] = '\0';
    return m->desc;
}

void afl_custom_deinit(void *data)
{
    mf_afl *m = data;
    if (m)
        free(m->out);
    free(m);
}
