/* metamorph.h - ground truth for raw inputs without ground truth: when a
 * pipeline accepts a raw input, core's canonical output of that value (which
 * core must read clean: mf_oracle_clean) is malformed by one op whose
 * contract is exact and whose rule promises the repair, and the pipeline
 * must repair that text to the same value (mf_oracle_metamorphic judges it).
 * The op and its seed are a function of the canonical text, so a finding
 * replays from the saved raw input (and survives a minimization that keeps
 * the value). */
#ifndef MALFORM_METAMORPH_H
#define MALFORM_METAMORPH_H

#include <stdint.h>
#include "malform/malform.h"
#include "malform/mutators.h"
#include "malform/oracles.h"

/* The pipeline under test: its repair of text (mf_repair's contract). */
typedef mf_result *(*mf_repair_fn)(void *ctx, const mf_profile *p, const char *text, size_t len,
                                   const mf_options *opt);

typedef struct {
    mf_oracle_variant v;   /* what mf_oracle_metamorphic judges; points into the fields below */
    char *raw;             /* the malformed canonical output */
    json_t *expected;
    mf_result *result;
    char *ops;             /* applied op ids */
    char *rules;           /* rules fired on the variant, comma-separated, or "-" */
} mf_metamorph;

/* Build and repair the variant of value (the accepted value of a raw input
 * for profile p under opt; repair NULL: mf_repair). Tries up to 8 ops in
 * the order their ids hash with the canonical text (rendezvous hashing: a
 * new op changes the choice only for the texts it ranks first on). 1 built
 * (m->v is set), 0 none (value is no object or array, the canonical output
 * is not read clean, or no promised op found a site), -1 out of memory.
 * Free m with mf_metamorph_free in every case. */
int mf_metamorph_build(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const json_t *value,
                       mf_repair_fn repair, void *ctx);
/* The same with the given op and seed (tests: every op on every artifact). */
int mf_metamorph_build_op(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const json_t *value,
                          const mf_op *op, uint64_t seed, mf_repair_fn repair, void *ctx);
/* Does a metamorphic variant use op (a text op, exact, with a rule that
 * repairs it, for p's format)? */
bool mf_metamorph_eligible(const mf_op *op, const mf_profile *p);
void mf_metamorph_free(mf_metamorph *m);

#endif
