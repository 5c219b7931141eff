/* finding.h - record and continue: a failure seen inside a fuzz target (or
 * by the black-box engine) is written once per signature into
 * $MALFORM_FINDINGS_DIR as a regression entry with `status: new`, and the
 * process goes on fuzzing. A signature that corpus/regression already holds
 * as `open` is only counted. The signatures are the lifecycle's
 * (mf_lc_classify), so triage dedupes findings with everything else. */
#ifndef MALFORM_FINDING_H
#define MALFORM_FINDING_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    MF_FINDING_OFF = 0,  /* no findings directory: the caller keeps the old behaviour (abort) */
    MF_FINDING_NEW,      /* written now */
    MF_FINDING_SEEN,     /* already recorded (by this process or another one) */
    MF_FINDING_KNOWN,    /* an open regression entry has this signature: counted, not written */
    MF_FINDING_ERROR     /* the file could not be written (errno kept) */
} mf_finding_status;

typedef struct {
    const char *signature;  /* required */
    const char *kind;       /* oracle | crash | timeout | protocol | oom */
    const char *oracle;     /* oracle name (kind oracle), else NULL */
    const char *profile;    /* NULL or "-" when unknown */
    const char *pipeline;   /* NULL: core */
    const char *target;     /* structured | raw | yaml_rules | blackbox */
    const char *engine;     /* libfuzzer | afl | blackbox | replay */
    const char *detail;     /* one line (newlines are flattened) */
    const char *original_signature; /* before minimization changed it, else NULL */
    const char *reproduce;  /* a command line that replays the file, or NULL */
    long original_size, minimized_size; /* input sizes before/after minimizing (0: not minimized) */
    const char *stderr_tail; /* the pipeline's last stderr, written beside the entry as <slug>.stderr */
    bool raw;               /* payload is raw bytes (.raw) rather than a structured case (.case) */
    const void *payload;    /* the exact bytes the target consumed */
    size_t payload_len;
} mf_finding;

/* $MALFORM_FINDINGS_DIR, or NULL when unset or empty. */
const char *mf_finding_dir(void);
/* The lifecycle signature of an oracle line ("malform-oracle: <oracle>
 * profile=<p> ops=<ids> rules=<ids>: <detail>", with or without the prefix):
 * `oracle <oracle> profile=<p> rules=<sorted> ops=<sorted>`, byte-identical
 * to mf_lc_classify's. oracle/profile (may be NULL, size 64) get those fields. */
void mf_finding_oracle_signature(const char *line, char *sig, size_t n, char *oracle, char *profile);
/* File-name slug of a signature, identical to mf_lc_slug (out size >= 128). */
void mf_finding_slug(const char *sig, char *out, size_t n);
/* True when the regression corpus ($MALFORM_REGRESSION_DIR, else
 * $MALFORM_ROOT or the source tree's corpus/regression; <pipeline>/ below it
 * for a pipeline other than core) holds sig (as signature or
 * original-signature) with status open. Loaded once per pipeline. */
bool mf_finding_known(const char *sig, const char *pipeline);
/* Write f into dir as <slug>.case|.raw unless that name exists (temp file +
 * link), with a non-empty stderr_tail as <slug>.stderr beside it. path_out
 * (may be NULL) gets the entry's file name. Returns NEW, SEEN or ERROR. */
mf_finding_status mf_finding_write(const char *dir, const mf_finding *f, char *path_out, size_t n);
/* The whole policy: OFF when no findings directory is set; KNOWN for an open
 * regression signature; SEEN when this process or the directory already has
 * it; else written (NEW or ERROR). Repeats cost one hash lookup. */
mf_finding_status mf_finding_record(const mf_finding *f);

#endif
