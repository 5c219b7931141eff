/* pl_check.h - one check of one input against any pipeline: core's mf_check
 * for core, and for a worker the same decode -> render -> ground truth (core
 * judges the clean artifact: the case carries its own truth) -> the worker's
 * reply -> the oracles on the returned value. An oracle that needs what the
 * pipeline did not declare (warnings, the profile's schema) is not
 * applicable: v[i].ran is false and na[i] says why. */
#ifndef MALFORM_PL_CHECK_H
#define MALFORM_PL_CHECK_H

#include "harness.h"
#include "pipeline.h"

typedef struct {
    mf_check k;                          /* input, truth, result, verdicts (k.result is the worker's) */
    mf_pl_reply reply;                   /* the worker's reply; reply.fail != MF_PL_OK: a worker failure */
    char na[MF_ORACLE_COUNT][120];       /* why an oracle is not applicable ("" when it ran or passed) */
    char *sent;                          /* the input as sent (UTF-8 cleaned) */
} mf_pl_check;

/* Check one input (structured case or raw text for profile) on worker w.
 * Returns 0 checked (c->k.failed oracles, or c->reply.fail a worker
 * failure), -1 not checkable (c->k.error). Free with mf_pl_check_free. */
int mf_pl_check_run(mf_pl_check *c, mf_pl_worker *w, const char *data, size_t len, const mf_profile *profile,
                    const json_t *opts, bool determinism);
void mf_pl_check_free(mf_pl_check *c);
/* True when the pipeline is failing on this input: worker failure or an oracle. */
bool mf_pl_check_failed(const mf_pl_check *c);
/* The finding signature: worker failures as mf_pl_signature, oracle failures
 * exactly the lifecycle's "oracle <o> profile=<p> rules=<ids> ops=<ids>" (ids
 * sorted; the pipeline is a header field and a directory, not part of it). */
void mf_pl_check_signature(const mf_pl_check *c, const char *pipeline, char *out, size_t n);
/* Index of the first failed oracle, or -1. */
int mf_pl_check_first_failed(const mf_pl_check *c);

/* True when op can be judged on pipeline w for profile p: a pipeline that
 * does not declare p (a generic repairer) owes nothing for ops whose repair
 * needs profile knowledge (norm.*, schema.*, echo.*, the profile's tag). */
bool mf_pl_op_fits(const mf_pl_worker *w, const mf_profile *p, const mf_op *op);
/* Drop the ops of c that do not fit w (mf_pl_op_fits). */
void mf_pl_case_restrict(mf_case *c, const mf_pl_worker *w);

#endif
