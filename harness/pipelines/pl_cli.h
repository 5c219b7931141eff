/* pl_cli.h - what the `malform` commands share to run a pipeline by name. */
#ifndef MALFORM_PL_CLI_H
#define MALFORM_PL_CLI_H

#include <stdbool.h>
#include <stdio.h>
#include "pipeline.h"

/* Exit status of a command whose pipeline is not installed here (ctest's
 * SKIP_RETURN_CODE in the pipeline tests). */
#define MF_PL_EXIT_MISSING 77

/* Find pipeline `name`, check that what it needs is installed and start it.
 * On failure prints "<who>: ..." to stderr, frees def and returns NULL with
 * *exit_code MF_PL_EXIT_MISSING (not installed) or 2 (unknown, broken). */
mf_pl_worker *mf_pl_cli_start(const char *name, mf_pl_def *def, bool coverage, const char *who, int *exit_code);
/* `malform check --pipeline NAME`: check one input (text of path; raw input
 * under profile p and options opts) on the pipeline and explain it to f.
 * Exit status: 0 pass, 1 failed, 2 error, MF_PL_EXIT_MISSING not installed. */
int mf_pl_check_explain(const char *pipeline, const char *path, const char *text, size_t len, const mf_profile *p,
                        const json_t *opts, FILE *f);

/* `malform replay --pipeline NAME [PATH...]`: the pipeline's regression
 * entries (default corpus/regression/NAME/). 0 all as recorded, 1 a failure,
 * 2 error, MF_PL_EXIT_MISSING not installed. */
int mf_pl_replay(const char *pipeline, char **paths, int n, bool verbose);

/* `malform triage --pipeline NAME WORKDIR`: WORKDIR/findings/ of NAME,
 * reproduced `repeats` times, into regression_dir (NULL: corpus/regression/NAME/)
 * as open entries. 0, 2 error, MF_PL_EXIT_MISSING not installed. */
int mf_pl_triage(const char *pipeline, const char *workdir, const char *regression_dir, int repeats, bool dry_run);

/* `malform ingest --pipeline NAME`: judge the stored input (path) under
 * profile on NAME; a failure is minimized and written to
 * corpus/regression/NAME/ (or regression_dir/NAME/). 0 pass, 1 failure,
 * 2 error, MF_PL_EXIT_MISSING not installed. */
int mf_pl_ingest(const char *pipeline, const char *path, const char *profile, const char *regression_dir);

/* The pipelines' part of `malform nightly --pipelines A,B`: each (core
 * excepted) fuzzed seconds_each under the black-box engine in
 * WORKDIR/pipelines/NAME/, findings triaged into regression_dir/NAME/
 * (NULL: corpus/regression/NAME/). 0 nothing new, 1 findings, 2 a pipeline
 * could not run; one not installed here is skipped. */
int mf_pl_nightly(const char *names, double seconds_each, const char *workdir, const char *regression_dir);

struct mf_pl_bb_opts_s;
/* `malform fuzz --engine blackbox --pipeline NAME`: start it, run the engine
 * with o (pl_blackbox.h), print the summary. Exit status: 0 no finding,
 * 1 findings, 2 error, MF_PL_EXIT_MISSING not installed. */
int mf_pl_fuzz_run(const char *pipeline, const struct mf_pl_bb_opts_s *o);

#endif
