/* pipeline.h - the pipeline under test as a plug-in (PROTOCOL.md).
 *
 * A pipeline is defined by data (harness/pipelines/<name>.yaml): a command
 * that starts a worker speaking the JSON-lines protocol. `core` is built in
 * and runs in-process through the same interface. A worker that crashes,
 * hangs, answers garbage or grows past its RSS limit yields a reply with a
 * failure kind and its stderr tail, and is restarted on the next request:
 * nothing a worker does can crash or hang the caller.
 *
 * Ownership: mf_pl_* constructors return objects freed by the matching
 * mf_pl_*_free / mf_pl_stop; replies are released with mf_pl_reply_free. */
#ifndef MALFORM_PIPELINE_H
#define MALFORM_PIPELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "malform/malform.h"

#define MF_PL_PROTOCOL_VERSION 1
#define MF_PL_CORE "core"

/* Format bits of a pipeline (1 << mf_format). */
#define MF_PL_YAML (1u << MF_FORMAT_YAML)
#define MF_PL_JSON (1u << MF_FORMAT_JSON)

/* ---- definitions (pl_def.c) ---- */
typedef struct {
    char *name, *description, *command, *install;
    char *workdir;           /* absolute */
    char *path;              /* the definition file ("" for core) */
    char **requires;         /* programs needed on PATH (NULL-terminated) */
    char **needs;            /* files needed, absolute (NULL-terminated) */
    unsigned formats;        /* MF_PL_YAML | MF_PL_JSON */
    json_t *profiles;        /* array of profile names; "*" = any (generic repairer) */
    int timeout_ms, start_timeout_ms;
    long rss_limit_kb;
    bool builtin;            /* core: in-process */
} mf_pl_def;

/* Directory of the built-in definitions (MF_SOURCE_ROOT/harness/pipelines
 * or $MALFORM_ROOT/harness/pipelines). */
const char *mf_pl_dir(void);
/* Parse a definition file. 0, or -1 with "path: message" in err. */
int mf_pl_def_load(const char *path, mf_pl_def *d, char *err, size_t n);
/* The definition called name: "core", then $MALFORM_PIPELINES_DIR/<name>.yaml,
 * then mf_pl_dir()/<name>.yaml. 0, or -1 with a message in err. */
int mf_pl_def_find(const char *name, mf_pl_def *d, char *err, size_t n);
/* Names of every known pipeline, core first, then definition files sorted
 * (NULL-terminated; free with mf_pl_names_free). */
char **mf_pl_names(void);
void mf_pl_names_free(char **names);
/* What the pipeline lacks to run (a program, a file), or NULL when nothing. */
const char *mf_pl_def_missing(const mf_pl_def *d, char *buf, size_t n);
void mf_pl_def_free(mf_pl_def *d);

/* ---- workers (pl_worker.c) ---- */
typedef struct {
    char *name, *version;
    unsigned formats;
    json_t *profiles;        /* array; "*" = any */
    bool warnings, coverage;
} mf_pl_hello;

typedef enum {
    MF_PL_OK = 0,            /* a response: accepted or rejected */
    MF_PL_CRASH,             /* died, or answered status "crashed" */
    MF_PL_TIMEOUT,
    MF_PL_PROTOCOL,
    MF_PL_OOM,
    MF_PL_ERROR              /* could not start or handshake (no finding: the pipeline is unusable) */
} mf_pl_fail;

typedef struct {
    mf_pl_fail fail;
    char what[160];          /* failure detail for the signature: "exit 3", "SIGSEGV", "exception TypeError", "garbage", "wrong-id" */
    char message[512];       /* one line for humans */
    char *stderr_tail;       /* last bytes of the worker's stderr ("" when none) */
    mf_result *result;       /* MF_PL_OK: the response as a core result (warnings, error) */
    uint32_t *coverage;      /* response's coverage ids (may be NULL) */
    size_t ncoverage;
} mf_pl_reply;

typedef struct mf_pl_worker mf_pl_worker;

/* Start a pipeline (fork/exec in its own process group, dies with us) and
 * read its handshake; core needs no process. coverage: ask the worker for
 * coverage (MALFORM_COVERAGE=1). NULL with a message in err. */
mf_pl_worker *mf_pl_start(const mf_pl_def *d, bool coverage, char *err, size_t n);
/* The worker's handshake (core: formats of every profile, warnings true). */
const mf_pl_hello *mf_pl_hello_of(const mf_pl_worker *w);
/* Send one input, wait for its reply (timeout, RSS limit). A failed worker is
 * killed; the next request restarts it. profile may be NULL (auto-detect,
 * core only; workers get "generic_<format>"). Returns r->fail. */
mf_pl_fail mf_pl_request(mf_pl_worker *w, const mf_profile *profile, const char *input, size_t len,
                         const json_t *options, mf_pl_reply *r);
/* One input of a batch (borrowed pointers). */
typedef struct {
    const mf_profile *profile;
    const char *text;
    size_t len;
    const json_t *options;
} mf_pl_input;

/* mf_pl_request for n inputs, pipelined (the worker answers in order while
 * the next requests are written), so a worker's wake-up latency is paid
 * once per batch. A failure is charged to the input being answered; the
 * inputs after it go to a restarted worker. replies has n entries. */
void mf_pl_request_many(mf_pl_worker *w, const mf_pl_input *in, size_t n, mf_pl_reply *replies);
void mf_pl_reply_free(mf_pl_reply *r);
/* Kill the worker (process group) and free everything. NULL is fine. */
void mf_pl_stop(mf_pl_worker *w);
/* True for the built-in in-process pipeline. */
bool mf_pl_is_core(const mf_pl_worker *w);
/* Times the worker was (re)started. */
int mf_pl_starts(const mf_pl_worker *w);
/* True when the worker handles profile p of format f (hello's formats and profiles). */
bool mf_pl_handles(const mf_pl_worker *w, const mf_profile *p);
/* True when the worker knows p itself (not only as "*"): its schema applies. */
bool mf_pl_knows_profile(const mf_pl_worker *w, const mf_profile *p);
/* "crash", "timeout", "protocol", "oom", "error", "ok". */
const char *mf_pl_fail_name(mf_pl_fail f);
/* The finding signature of a failed reply: "crash SIGSEGV pipeline=x" etc. */
void mf_pl_signature(const mf_pl_reply *r, const char *pipeline, char *out, size_t n);

/* ---- text helpers (pl_text.c) ---- */
/* A copy of data with invalid UTF-8 replaced by U+FFFD (what a worker gets
 * in its JSON request). Caller frees; *out_len set. NULL on OOM. */
char *mf_pl_utf8_clean(const char *data, size_t len, size_t *out_len);
/* A static copy of s that lives until exit (rule ids and error types of
 * worker results, which mf_result keeps as borrowed strings). */
const char *mf_pl_intern(const char *s);

#endif
