/* fuzz_structured.c - the structure-aware target: the input is a structured
 * case (mutators.h). The custom mutator edits the op program and the
 * artifact instead of raw bytes, so every input renders to a realistic
 * malformed model output with its own ground truth; every oracle runs on it.
 * A violation is recorded in $MALFORM_FINDINGS_DIR and fuzzing goes on; with
 * the variable unset it aborts with one "malform-oracle:" line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "alloc_pool.h"
#include "harness.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    mf_stats_init("structured");
    mf_check_cache(true);
    mf_profiles_count();   /* the built-in profiles live for the process: parsed before the pool counts */
    if (!getenv("MALFORM_NO_POOL"))   /* A/B measurement: jansson on ASan's allocator */
        mf_alloc_pool_enable();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_stats_init("structured");
    mf_check_cache(true);
    if (size > MF_FUZZ_MAX_INPUT)
        return 0;
    if (mf_fuzz_spliced_case(data, size)) /* run 58: 600 of 620 findings came from one such input */
        return 0;
    size_t pooled = mf_alloc_pool_live();
    mf_check k;
    int rc = mf_check_run(&k, (const char *)data, size, NULL, false, mf_fuzz_determinism_due());
    if (rc == 0) {
        mf_stats_record(&k);
        if (k.failed)
            mf_fuzz_finding(&k, data, size);
    }
    mf_check_free(&k);
    if (mf_alloc_pool_live() != pooled) {  /* LSan does not see the pool: its leak report */
        fprintf(stderr, "malform pool: this input leaked %zu jansson blocks\n", mf_alloc_pool_live() - pooled);
        abort();
    }
    mf_stats_maybe_dump();
    return 0;
}

#ifdef MF_LIBFUZZER
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed);

static mf_case *load(const uint8_t *data, size_t size, uint64_t *rng)
{
    char err[8];
    mf_case *c = mf_case_decode((const char *)data, size, err, sizeof err);
    return c ? c : mf_case_default(rng);
}

/* Encode c into out (max bytes); 0 when it does not fit. */
static size_t store(const mf_case *c, uint8_t *out, size_t max)
{
    size_t len;
    char *t = mf_case_encode(c, &len);
    if (!t || len > max) {
        free(t);
        return 0;
    }
    memcpy(out, t, len);
    free(t);
    return len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    uint64_t rng = seed;
    mf_case *c = load(data, size, &rng);
    if (!c)
        return size;
    size_t budget = max_size > MF_FUZZ_MAX_INPUT ? MF_FUZZ_MAX_INPUT : max_size;
    size_t edits = 1 + mf_rng_next(&rng) % 3;
    for (size_t i = 0; i < edits; i++)
        mf_case_mutate(c, &rng, LLVMFuzzerMutate, budget / 2);
    size_t n = store(c, data, max_size);
    while (!n && c->nops) {
        free(c->ops[c->nops - 1].params);
        c->nops--;
        n = store(c, data, max_size);
    }
    mf_case_free(c);
    return n ? n : size;
}

size_t LLVMFuzzerCustomCrossOver(const uint8_t *d1, size_t s1, const uint8_t *d2, size_t s2, uint8_t *out,
                                 size_t max_out, unsigned int seed)
{
    uint64_t rng = seed;
    mf_case *a = load(d1, s1, &rng), *b = load(d2, s2, &rng);
    mf_case *c = a && b ? mf_case_crossover(a, b, &rng) : NULL;
    size_t n = c ? store(c, out, max_out) : 0;
    mf_case_free(a);
    mf_case_free(b);
    mf_case_free(c);
    return n;
}
#endif
