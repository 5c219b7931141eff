/* pl_blackbox.h - malform's own fuzzing engine for pipelines it cannot
 * instrument: it drives the structured mutator itself and keeps a case when
 * it shows new behaviour (AFL's bitmap idea over (ops, status, error type,
 * warning rules, value shape, oracle verdicts) features), plus, when the
 * worker reports it, new coverage ids. Findings are minimized in-process
 * with the lifecycle's structure-aware minimizer and written to
 * WORKDIR/findings/ (COORD.md format); WORKDIR/stats.json like the other engines. */
#ifndef MALFORM_PL_BLACKBOX_H
#define MALFORM_PL_BLACKBOX_H

#include "pl_finding.h"

typedef struct mf_pl_bb_opts_s {
    const char *workdir;
    double seconds;           /* wall-clock budget */
    long max_execs;           /* stop after this many checks (0: none) */
    uint64_t seed;
    bool behaviour;           /* behavioural features as feedback (default on) */
    bool coverage;            /* the worker's coverage ids as feedback (start it with coverage) */
    bool measure_coverage;    /* count coverage ids without using them as feedback (comparisons) */
    const char *seeds_dir;    /* clean artifacts per profile (default ROOT/corpus/seeds) */
    const char *regression_dir; /* open signatures there are known, not findings (default per pipeline) */
    int min_runs;             /* minimization budget per finding (default 200 checks) */
    bool quiet;
} mf_pl_bb_opts;

typedef struct {
    long execs, kept, features, edges, findings, known, unchecked;
    long same_cause;          /* generic pipelines: same oracle and text ops already found (other profile or values) */
    int restarts;
    double seconds;
} mf_pl_bb_stats;

/* Fuzz pipeline `name` running in w. 0, or -1 when it cannot start (no seed
 * the pipeline handles, unwritable workdir: message on stderr). */
int mf_pl_blackbox(mf_pl_worker *w, const char *name, const mf_pl_bb_opts *o, mf_pl_bb_stats *st);

#endif
