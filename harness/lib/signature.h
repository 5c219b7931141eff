/* signature.h - the failure-signature pieces shared by the fuzz targets
 * (finding.c) and the lifecycle (lc_outcome.c), so that a finding recorded
 * inside a target and the same failure triaged later get one signature and
 * one file name. Pure functions: no I/O, no allocation. */
#ifndef MALFORM_SIGNATURE_H
#define MALFORM_SIGNATURE_H

#include <stddef.h>

/* The fields of an oracle line; each is "-" when the line lacks it
 * (oracle and detail: ""). ops and rules are sorted and deduped. */
typedef struct {
    char oracle[64];
    char profile[64];
    char ops[256];
    char rules[256];
    char detail[512];
} mf_sig_oracle;

/* Copy the n bytes at s into out (size cap) as one line: control bytes
 * become spaces; always NUL-terminated. */
void mf_sig_copy_line(char *out, size_t cap, const char *s, size_t n);
/* Sort and dedupe the ids in the n bytes at s (separated by spaces, commas
 * or tabs; "-" ignored) into out (size cap) as "a,b,c", "-" when none. */
void mf_sig_sort_ids(const char *s, size_t n, char *out, size_t cap);
/* Parse the n bytes at line, an oracle line after its "malform-oracle: "
 * prefix (`<oracle> profile=<p> ops=<ids> rules=<ids>: <detail>`), into f. */
void mf_sig_parse_oracle(const char *line, size_t n, mf_sig_oracle *f);
/* The signature of f: `oracle <oracle> profile=<p> rules=<ids> ops=<ids>`,
 * written into sig (size n). */
void mf_sig_oracle_format(const mf_sig_oracle *f, char *sig, size_t n);
/* File-name slug of a signature: [a-z0-9.-], at most ~100 chars, plus an
 * 8-hex-digit FNV-1a hash of the full signature (out size >= 128). */
void mf_sig_slug(const char *sig, char *out, size_t n);

#endif
