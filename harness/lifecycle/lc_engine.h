/* lc_engine.h - driving a fuzzing engine on one target for a time budget:
 * what `malform fuzz` does (the CLI only parses and prints). */
#ifndef MALFORM_LC_ENGINE_H
#define MALFORM_LC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/* Where a run stands, reported every few seconds while the engine runs. */
typedef struct {
    double seconds;               /* since the engine started */
    unsigned long long execs;
    long edges;                   /* libFuzzer "cov", AFL++ edges_found */
    int findings;                 /* failing inputs the engine saved so far */
} mf_lc_engine_progress;

typedef struct {
    const char *engine;           /* "libfuzzer" or "afl" */
    const char *target;           /* "structured" or "raw" */
    const char *workdir;          /* stats.json, logs, artifacts */
    const char *corpus;           /* working corpus (NULL: WORKDIR/corpus) */
    const char *build;            /* build tree of the targets (NULL: ROOT/build/fuzz or ROOT/build/afl) */
    const char *root;             /* source root (NULL: mf_lc_root()) */
    int seconds, jobs;
    double progress_every;        /* seconds between progress reports (0: 5) */
    void (*on_progress)(void *ctx, const mf_lc_engine_progress *p);
    bool (*stop)(void *ctx);      /* polled: true ends the engine early */
    void *ctx;
} mf_lc_engine_opts;

/* Run the engine as o says and write WORKDIR/stats.json (execs, coverage,
 * timeline, rules fired, ops applied, oracle verdicts, and every distinct
 * failure with the lifecycle's signature). On success *stats (when given)
 * gets that document (caller decrefs) and 0 is returned; -1 with err filled
 * when the run could not be set up or its stats not written. */
int mf_lc_engine_run(const mf_lc_engine_opts *o, json_t **stats, char *err, size_t errlen);
/* The path of engine's binary for target in build (BUILD/fuzz_T or BUILD/afl_T). -1 when too long. */
int mf_lc_engine_binary(const char *build, const char *engine, const char *target, char *out, size_t n);
/* The CMake preset that builds engine's targets: "fuzz" or "afl". */
const char *mf_lc_engine_preset(const char *engine);
/* A progress report as one line ("12s, 34567 execs (2880/s), 123 edges, 0 findings"). */
void mf_lc_engine_progress_format(const mf_lc_engine_progress *p, char *out, size_t n);
/* Parse a line that contains a formatted progress report; false when it does not. */
bool mf_lc_engine_progress_parse(const char *line, mf_lc_engine_progress *p);

#endif
