/* pl_finding.h - a pipeline's failures as lifecycle outcomes, findings and
 * regression entries (`pipeline:` header line, corpus/regression/<pipeline>/). */
#ifndef MALFORM_PL_FINDING_H
#define MALFORM_PL_FINDING_H

#include "lifecycle.h"
#include "pl_check.h"

/* Context of mf_pl_judge: the worker, its pipeline name, the profile of raw inputs. */
typedef struct {
    mf_pl_worker *worker;
    const char *pipeline;
    const mf_profile *profile;
} mf_pl_judge_ctx;

/* mf_lc_runner.judge for a pipeline: check data on the worker, fill o. */
int mf_pl_judge(const void *data, size_t len, void *ctx, mf_lc_outcome *o);
/* The lifecycle outcome of a check (kind, signature, oracle, profile, ids, detail). */
void mf_pl_outcome(const mf_pl_check *c, const char *pipeline, mf_lc_outcome *o);
/* "oracle", "crash", "timeout", "protocol" or "oom". */
const char *mf_pl_finding_kind(const mf_lc_outcome *o);
/* The entry text of e with `pipeline: <name>` after the signature line. Caller frees. */
char *mf_pl_entry_text(const mf_lc_entry *e, const char *pipeline, size_t *len);
/* Write e into dir as <slug>.case|.raw, never overwriting (mf_lc_write_new):
 * 1 written, 0 already there, -1 error. The path goes to path_out. */
int mf_pl_entry_create(const char *dir, const mf_lc_entry *e, const char *pipeline, char *path_out, size_t n);
/* The `pipeline:` header value of an entry's text, or NULL (core). Caller frees. */
char *mf_pl_entry_pipeline(const char *text, size_t len);
/* corpus/regression for core, corpus/regression/<pipeline> otherwise. */
void mf_pl_regression_dir(const char *pipeline, char *out, size_t n);
/* The signatures dir holds as `status: open` (a JSON object used as a set). */
json_t *mf_pl_open_signatures(const char *dir);

#endif
