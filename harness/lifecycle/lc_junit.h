/* lc_junit.h - a campaign's verdict as JUnit XML, for CI test reporters. */
#ifndef MALFORM_LC_JUNIT_H
#define MALFORM_LC_JUNIT_H

#include <stddef.h>
#include <jansson.h>

/* The JUnit document: one test case per distinct signature of items
 * (triage.json records: signature, kind, status, entry, detail; status "new"
 * fails, flaky/not-reproduced/error are skipped, others pass as known) and
 * one per oracle of oracles ({name: {pass, fail}}; it fails when a new
 * signature names that oracle). seconds is the suite's time. Returns a
 * malloc'd NUL-terminated text (length in *len), NULL on OOM. */
char *mf_lc_junit_format(const json_t *items, const json_t *oracles, double seconds, size_t *len);

#endif
