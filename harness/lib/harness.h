/* harness.h - what the fuzz targets, the CLI and the tests share: one
 * "check" (decode or take raw bytes, render, ground truth, repair, every
 * oracle) and the campaign counters the targets dump at exit. */
#ifndef MALFORM_HARNESS_H
#define MALFORM_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include "malform/malform.h"
#include "malform/mutators.h"
#include "malform/oracles.h"

#define MF_FUZZ_MAX_INPUT (64u * 1024u)
#define MF_FUZZ_MAX_DEPTH 64

typedef struct {
    bool structured;
    mf_case *kase;              /* structured only */
    mf_render render;           /* structured only */
    const mf_profile *profile;
    mf_options opt;
    json_t *truth;              /* ground truth, NULL when none */
    json_t *readings;           /* other values the clean text reads as under core's YAML repair pass
                                   (array, NULL when none; check.c repair_readings) */
    int clean_status;           /* mf_oracle_clean: 0 clean, 1 warnings, 2 no valid case, 3 misread by core */
    mf_verdict clean;           /* verdict of the clean check */
    const char *raw;            /* the text fed to mf_repair (borrowed) */
    size_t raw_len;
    mf_result *result;
    mf_verdict v[MF_ORACLE_COUNT];
    int failed;                 /* failed oracles (incl. a dirty clean artifact when strict) */
    bool valid_render;          /* the ops' damage rendered another strictly valid text, which core read as
                                   written: the ops' mistake, not the pipeline's (check.c valid_render) */
    char *ops;                  /* applied op ids, comma-separated, or "-" */
    char *rules;                /* fired rule ids, comma-separated, or "-" */
    char *meta_ops;             /* raw mode: the metamorphic variant's op, NULL when none was built */
    char *meta_rules;           /* the rules that fired on that variant */
    char error[256];            /* decode/render error: the input is not checkable */
} mf_check;

/* Check one input. Structured cases are detected by their magic line; raw
 * input uses profile (NULL: auto-detect). strict: a clean artifact that gives
 * warnings fails the accounting oracle (else the case is judged in raw mode).
 * Returns 0 checked (see failed), -1 not checkable (error set). */
int mf_check_run(mf_check *k, const char *data, size_t len, const mf_profile *profile, bool strict,
                 bool determinism);
/* mf_check_run with runtime options for raw input (a JSON object as in a
 * case's opts: line; NULL for none). */
int mf_check_run_opts(mf_check *k, const char *data, size_t len, const mf_profile *profile, const json_t *opts,
                      bool strict, bool determinism);
void mf_check_free(mf_check *k);
/* Is v one of k->readings: a value core's YAML repair pass reads the clean
 * artifact's own text as (a structured case's exact contract accepts it)? */
bool mf_check_is_reading(const mf_check *k, const json_t *v);
/* Is k's rendered text, damaged by ops that name no rule rewriting valid
 * text (mf_rule_reads_valid_text), strictly valid as another value than the
 * truth, which core accepted as it loads (or rejected for the profile's
 * schema)? Such a loss is the ops' mistake, not the pipeline's. */
bool mf_check_valid_render(const mf_check *k);
/* Let mf_check_run reuse the ground truth of recently seen clean artifacts
 * (fuzz targets; the CLI and tests recompute it every time). */
void mf_check_cache(bool on);
/* The oracle line "malform-oracle: <oracle> profile=<p> ops=<ids> rules=<ids>: <detail>" of failure i
 * (a metamorphic failure names the variant's op and the rules that fired on it). */
void mf_check_line(const mf_check *k, int oracle, char *out, size_t n);

/* Whether this exec runs the determinism oracle (a second full repair of
 * the same input): always, except in a recording campaign
 * ($MALFORM_FINDINGS_DIR set) where one exec in $MALFORM_DETERMINISM_EVERY
 * (default 8) does. Replay and triage always run it. */
bool mf_fuzz_determinism_due(void);
/* Whether this exec of an accepted raw input builds the metamorphic variant
 * (metamorph.h: a canonical-output check and two repairs): always, except
 * in a recording campaign where one exec in $MALFORM_METAMORPHIC_EVERY
 * (default MF_METAMORPHIC_EVERY) does. Replay and triage always build it. */
bool mf_fuzz_metamorphic_due(void);
#define MF_METAMORPHIC_EVERY 2
/* The distinct rule ids of r's warnings, comma-separated, or "-" (malloc'd; NULL on OOM). */
char *mf_fired_rules(const mf_result *r);

/* ---- campaign counters ---- */
void mf_stats_init(const char *target);
void mf_stats_record(const mf_check *k);
/* Write $MALFORM_STATS_DIR/stats-<target>-<pid>.json (no-op when unset). */
void mf_stats_dump(void);
/* Dump at most once per second. */
void mf_stats_maybe_dump(void);
/* Print the oracle line of the first failure to stderr, dump, abort() so
 * the engine saves the input. With MALFORM_ORACLE_ABORT=0 in the
 * environment it returns instead (benchmarks that must keep running). */
void mf_fuzz_fail(const mf_check *k);
/* Is data two case files glued together (a second "malform-case" header
 * line)? AFL's splice stage makes such inputs; no model writes one, so the
 * structured target skips them. */
bool mf_fuzz_spliced_case(const void *data, size_t size);
/* What a fuzz target does with a failed check of data (the exact bytes it
 * consumed): with $MALFORM_FINDINGS_DIR set, record it once per signature
 * (finding.h) and return; a signature open in corpus/regression is only
 * counted (known_findings). Unset: mf_fuzz_fail. */
void mf_fuzz_finding(const mf_check *k, const void *data, size_t len);
/* The same for a failure given as its oracle line (targets without an
 * mf_check, e.g. fuzz_yaml_rules); raw: data is bytes, not a case. */
void mf_fuzz_report(const char *line, bool raw, const void *data, size_t len);

#endif
