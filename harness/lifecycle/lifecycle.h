/* lifecycle.h - the corpus lifecycle: from a saved fuzzer input to a
 * minimized regression entry that every test run replays.
 *
 * find -> run (in a child, with a timeout, several times) -> classify the
 * child's exit and stderr into an outcome with a signature -> dedupe against
 * corpus/regression -> minimize while the signature holds -> write the entry
 * atomically. The same runner replays entries and triages field failures.
 *
 * Ownership: strings returned by mf_lc_* functions are malloc'd and belong to
 * the caller; structs filled by mf_lc_* are released with the matching
 * *_free (or need no release when they hold only fixed arrays). */
#ifndef MALFORM_LIFECYCLE_H
#define MALFORM_LIFECYCLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- outcome of one run and its signature (lc_outcome.c) ---- */
typedef enum {
    MF_LC_PASS = 0,   /* exit 0, no report */
    MF_LC_ORACLE,     /* a `malform-oracle:` line (the oracle aborted) */
    MF_LC_CRASH,      /* sanitizer report or fatal signal */
    MF_LC_TIMEOUT,    /* killed by our timeout or libFuzzer's */
    MF_LC_OOM,        /* libFuzzer out-of-memory or allocation-size-too-big */
    MF_LC_LEAK,       /* LeakSanitizer */
    MF_LC_ERROR       /* the runner itself failed (cannot exec, bad input file) */
} mf_lc_kind;

typedef struct {
    mf_lc_kind kind;
    char sig[720];       /* the signature; "" when kind is PASS */
    char oracle[64];     /* oracle name (ORACLE) */
    char profile[64];    /* profile (ORACLE) */
    char ops[256];       /* op ids, sorted, comma-separated, "-" when none (ORACLE) */
    char rules[256];     /* rule ids, sorted, comma-separated, "-" when none (ORACLE) */
    char crash[64];      /* sanitizer error kind or signal name (CRASH/TIMEOUT/OOM/LEAK) */
    char frames[160 * 3 + 4]; /* top 3 project frames joined by " < " (crash kinds) */
    char detail[512];    /* one line: the oracle's detail or the sanitizer summary */
    int wstatus;         /* raw wait status of the child */
} mf_lc_outcome;

/* Short name of a kind: "pass", "oracle", "crash", "timeout", "oom", "leak", "error". */
const char *mf_lc_kind_name(mf_lc_kind k);
/* Parse a kind name; -1 when unknown. */
int mf_lc_kind_parse(const char *s);
/* Classify a finished child from its captured output (stderr + stdout), its
 * wait status and whether our timeout killed it; fills o including o->sig. */
void mf_lc_classify(const char *log, size_t len, int wstatus, bool timed_out, mf_lc_outcome *o);
/* True when a and b are the same failure (same non-empty signature). */
bool mf_lc_same(const mf_lc_outcome *a, const mf_lc_outcome *b);
/* The relaxed predicate minimization keeps: same kind; for oracle failures
 * same oracle and profile with cur's rule ids a subset of orig's (dropping ops
 * changes the op ids); for crashes the same kind and frames. */
bool mf_lc_still_fails(const mf_lc_outcome *orig, const mf_lc_outcome *cur);
/* File-name slug of a signature: [a-z0-9.-], at most ~100 chars, plus an
 * 8-hex-digit hash of the full signature. Writes into out (size >= 128). */
void mf_lc_slug(const char *sig, char *out, size_t n);

/* ---- running an input in a child (lc_run.c) ---- */
/* An in-process evaluation run in a forked child: return 0 on pass; print a
 * report and abort() (or crash) on failure, exactly like a fuzz target. */
typedef int (*mf_lc_fn)(const uint8_t *data, size_t len, void *ctx);

typedef struct {
    char **argv;         /* program + fixed args (NULL-terminated); the input path is appended */
    mf_lc_fn fn;         /* or: in-process function (used when argv is NULL) */
    void *ctx;
    /* or: judge in this process, no fork (used when set): fills o, returns
     * 0. For pipelines under test, whose worker process is the isolation. */
    int (*judge)(const void *data, size_t len, void *ctx, mf_lc_outcome *o);
    int timeout_sec;     /* wall-clock limit per run (default 10) */
    const char *tmpdir;  /* where input files for argv runners go (default /tmp) */
    size_t max_log;      /* bytes of output kept (default 64 KiB) */
    bool afl_env;        /* sanitizer options AFL++ tools demand (abort_on_error=1, symbolize=0) */
} mf_lc_runner;

/* Run data once through r; fill o. *log (may be NULL) gets the captured
 * output (caller frees). Returns 0, or -1 when the child could not be run
 * or ended without a classifiable result (o->kind = MF_LC_ERROR, reason in
 * o->detail). */
int mf_lc_run(const mf_lc_runner *r, const void *data, size_t len, mf_lc_outcome *o, char **log);
/* Run a file (an existing path) once through an argv runner; path NULL
 * runs argv as it is (it names the input itself). */
int mf_lc_run_path(const mf_lc_runner *r, const char *path, mf_lc_outcome *o, char **log);
/* Sanitizer environment for reproducible signatures (dedup tokens, abort on
 * error, symbolized frames). Called by the runner in the child; exported so
 * engines started by nightly get the same settings. */
void mf_lc_sanitizer_env(void);

/* ---- regression entries (lc_entry.c) ---- */
#define MF_LC_ENTRY_MAGIC "malform-regression 1"

typedef struct {
    char *signature, *kind, *oracle, *profile, *target, *engine;
    char *first_seen, *status, *reproduce, *original_signature, *detail;
    char *source;        /* where triage found it (file name) */
    long original_size, minimized_size;
    uint8_t *payload;    /* the exact bytes the target consumed */
    size_t payload_len;
    char *path;          /* file it was read from (read only) */
    bool raw;            /* .raw (bytes) versus .case (structured case) */
} mf_lc_entry;

/* Parse an entry file's text. 0, or -1 with err filled. */
int mf_lc_entry_parse(const char *text, size_t len, mf_lc_entry *e, char *err, size_t errlen);
/* Read and parse an entry file. 0, or -1 with err filled. */
int mf_lc_entry_read(const char *path, mf_lc_entry *e, char *err, size_t errlen);
/* The text form of an entry (header, `---`, payload). Caller frees. */
char *mf_lc_entry_format(const mf_lc_entry *e, size_t *len);
/* Release what e owns (the struct may be reused). */
void mf_lc_entry_free(mf_lc_entry *e);
/* Create dir/<slug>.case|.raw from e, never overwriting: the bytes go to a
 * temp file in dir (fsync'd) which is link()ed to the final name, so a
 * concurrent writer of the same name loses cleanly. Returns 1 written,
 * 0 already there, -1 I/O error (errno kept, message in err). The chosen
 * path is copied into path_out (size n) either way. */
int mf_lc_entry_create(const char *dir, const char *slug, const mf_lc_entry *e,
                       char *path_out, size_t n, char *err, size_t errlen);

/* Every entry file (*.case, *.raw) in dir, sorted by name; NULL-terminated
 * array of malloc'd paths (empty when dir is missing). Caller frees with
 * mf_lc_paths_free. */
char **mf_lc_entry_list(const char *dir, size_t *count);
void mf_lc_paths_free(char **paths);

/* ---- small file helpers (lc_file.c) ---- */
/* Write bytes to path atomically (temp file in the same dir, fsync, rename).
 * 0, or -1 with errno set (the old file, if any, is untouched). */
int mf_lc_write_atomic(const char *path, const void *data, size_t len);
/* Create path with the bytes only when it does not exist (temp + link).
 * 1 written, 0 existed, -1 error (errno). */
int mf_lc_write_new(const char *path, const void *data, size_t len);
/* Write an entry made of a payload and its metadata so that a kill at any
 * instant leaves either no entry or both files: both go to fsync'd temp
 * files, the payload is renamed into place, then the metadata is linked in
 * last (create-only). An entry exists when its metadata does; a payload
 * without metadata is a torn write and is replaced. 1 written, 0 the
 * metadata existed already, -1 error (errno; no new file is left behind). */
int mf_lc_write_pair(const char *payload_path, const void *payload, size_t payload_len,
                     const char *meta_path, const void *meta, size_t meta_len);
/* Read a whole file (NUL-terminated); NULL on error (errno). */
char *mf_lc_read(const char *path, size_t *len);
/* snprintf for file paths: -1 (and ENAMETOOLONG) when the result did not fit. */
int mf_lc_pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* mkdir -p. 0 or -1 (errno). */
int mf_lc_mkdirs(const char *path);
/* rm -rf (symlinks removed, not followed); a missing path is fine. */
void mf_lc_rm_rf(const char *path);
/* CLOCK_MONOTONIC now, in seconds (the clock deadlines are given in). */
double mf_lc_clock(void);
/* UTC time now as 2026-01-31T12:00:00Z into out (size >= 21). */
void mf_lc_now(char *out, size_t n);
/* Hex SHA-256 of data into out (size >= 65). */
void mf_lc_sha256_hex(const void *data, size_t len, char *out);

/* ---- minimization (lc_minimize.c) ---- */
typedef struct {
    const mf_lc_runner *runner;
    const mf_lc_outcome *orig;   /* the failure to preserve */
    int max_runs;                /* budget of runs (default 2000) */
    double deadline;             /* CLOCK_MONOTONIC seconds to stop at (0: none) */
    int runs;                    /* out: runs spent */
    mf_lc_outcome last;          /* out: outcome of the accepted minimal input */
} mf_lc_minctx;

/* Structure-aware minimization of a structured case (text form): drop ops,
 * drop artifact entries (YAML line blocks, JSON keys and elements), shorten
 * scalars, each step kept only when mf_lc_still_fails. Returns a new
 * malloc'd buffer (length *out_len); the input itself when nothing shrank is
 * returned as a copy. NULL on OOM or when text is not a structured case. */
uint8_t *mf_lc_minimize_case(mf_lc_minctx *m, const uint8_t *text, size_t len, size_t *out_len);
/* Byte-level delta debugging (chunks of lines, then of bytes) for raw
 * inputs, same predicate. Returns a new buffer (NULL on OOM). */
uint8_t *mf_lc_minimize_bytes(mf_lc_minctx *m, const uint8_t *data, size_t len, size_t *out_len);

/* ---- finding the program that reproduces a target's inputs (lc_runner.c) ---- */
/* Source root: $MALFORM_ROOT, else derived from the running executable
 * (ROOT/build/<preset>/harness/malform), else the current directory. */
const char *mf_lc_root(void);
/* A runner argv (NULL-terminated, malloc'd; free with mf_lc_paths_free) for
 * fuzz target `target` ("structured", "raw", ...): the libFuzzer build
 * (ASan+UBSan, best stacks) first, then the sanitize, default and afl
 * builds (BUILD/fuzz_<target>, BUILD/replay_<target>). NULL when none is built. *libfuzzer tells whether it is a
 * libFuzzer binary (so -minimize_crash works). */
char **mf_lc_find_runner(const char *root, const char *target, bool *libfuzzer);
/* Split a command line on spaces into a runner argv (mf_lc_paths_free). */
char **mf_lc_argv_split(const char *cmd);

/* ---- triage (lc_triage.c) ---- */
typedef struct {
    const char *regression_dir;  /* default corpus/regression under the root */
    const char *out_dir;         /* originals, minimized inputs, triage.json (default WORKDIR/triage) */
    char **runner_argv;          /* explicit runner for every input (NULL: per target) */
    const char *target;          /* force the target name (NULL: from stats.json or content);
                                  * "field": raw model output judged in-process under profile */
    const char *profile;         /* profile of raw/field inputs (NULL: detect) */
    const char *engine;          /* engine recorded for inputs given directly (default "manual") */
    int repeats;                 /* runs per input to tell reproducible from flaky (default 3) */
    int timeout_sec;             /* per run (default 10) */
    int min_runs;                /* minimization budget per signature (default 400) */
    bool no_minimize, dry_run;   /* dry_run: classify and minimize, write no entry */
    double deadline;             /* CLOCK_MONOTONIC seconds: past it, inputs are listed as
                                  * "skipped" and minimization stops early (0: none) */
    bool quiet;
} mf_lc_triage_opts;

typedef struct {
    int found, reproducible, flaky, not_reproduced, errors, skipped;
    int new_sigs, duplicates;
    double seconds;
    void *items;                 /* json_t array of per-input records (see triage.json) */
    void *causes;                /* json_t array: the new signatures grouped by likely cause */
} mf_lc_triage_report;

/* Triage every crash/timeout/oom/oracle failure saved under workdir (libFuzzer
 * crash-/timeout-/oom-/leak- files, AFL++ crashes/ and hangs/ of every
 * instance). Originals and minimized inputs go to workdir/triage/, the
 * summary to workdir/triage/triage.json, new signatures to the regression
 * dir. Returns 0, or -1 on an I/O error that stopped it (rep filled so far). */
int mf_lc_triage(const char *workdir, const mf_lc_triage_opts *o, mf_lc_triage_report *rep);
/* Triage one input file (not a work dir), e.g. a field failure; the work
 * files go to workdir/triage/. Same return and report as mf_lc_triage (the
 * summary is not written). */
int mf_lc_triage_input(const char *path, const char *workdir, const mf_lc_triage_opts *o,
                       mf_lc_triage_report *rep);
/* Release rep->items and rep->causes. */
void mf_lc_triage_report_free(mf_lc_triage_report *rep);
/* Group the new and regressed records of items (a json_t array) by likely cause:
 * same kind and oracle, one's ops (or rules, without ops) a subset of the other's.
 * Sets "cause" on each such record; returns [{cause, signatures, entries}] (lc_causes.c). */
void *mf_lc_triage_causes(void *items);
/* Set by a signal handler: triage stops between inputs, minimization stops,
 * and a running child is killed (its outcome: error "interrupted"). */
extern volatile int mf_lc_stop;

#endif
