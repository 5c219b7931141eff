/* lc_nightly.h - the nightly campaign, from build to report: what
 * `malform nightly` runs (the CLI parses its options and prints the lines
 * this reports). */
#ifndef MALFORM_LC_NIGHTLY_H
#define MALFORM_LC_NIGHTLY_H

#include <stdbool.h>

typedef struct {
    double budget_minutes;
    const char *engines;          /* comma-separated: libfuzzer, afl (default both) */
    const char *targets;          /* comma-separated (default structured,raw) */
    int jobs;                     /* per engine run (default 2) */
    const char *workdir;          /* default ROOT/fuzz-out/nightly */
    const char *regression;       /* default ROOT/corpus/regression */
    int min_free_mb;              /* stop below this much free space in MB (0: never) */
    bool no_build;
    const char *fuzz_cmd;         /* run this instead of `malform fuzz` (no build, union merge) */
    const char *malform;          /* the binary run as `malform fuzz` / `malform report` (NULL: this one) */
    /* Each line of progress (one per phase, per engine run, live progress
     * every few seconds, the closing summary); error lines have error set. */
    void (*say)(void *ctx, bool error, const char *line);
    void *ctx;
} mf_lc_nightly_opts;

/* Run the campaign. Returns its exit code: 0 no new signature, 1 new
 * reproducible signature(s), 2 bad options or nothing could run, 3 stopped
 * by a full disk, 128 + signal when interrupted (see mf_lc_nightly_signal). */
int mf_lc_nightly_run(const mf_lc_nightly_opts *o);
/* For a SIGINT/SIGTERM handler: the first signal stops the campaign (the
 * running child is ended, the corpus kept, a partial report written); a
 * second one exits at once. Async-signal-safe. */
void mf_lc_nightly_signal(int sig);

#endif
