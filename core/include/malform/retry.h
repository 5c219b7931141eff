/* retry.h - the retry loop around mf_repair (seed 004, "Retry Strategy").
 *
 * An mf_retry keeps the attempt history of one generation and the retry
 * budget: per tier 2 retries for syntax (tier 1), 2 for schema (tier 2),
 * 1 for semantic (tier 3), and 3 retries in total. After each attempt, record
 * it; the record says whether one more attempt is allowed (that consumes
 * budget), and mf_retry_feedback() renders the history as the text to append
 * to the prompt ("PREVIOUS ATTEMPTS AND ERRORS: ...").
 *
 * Ownership: mf_retry_new() returns an object freed with mf_retry_free();
 * records copy what they need from the result/error they are given; strings
 * returned by the feedback functions are malloc'd and freed by the caller. */
#ifndef MALFORM_RETRY_H
#define MALFORM_RETRY_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "malform/result.h"
#include "malform/profile.h"
#include "malform/malform.h"

#define MF_RETRY_TIER1 2   /* syntax errors are cheap to fix */
#define MF_RETRY_TIER2 2   /* schema hints are specific */
#define MF_RETRY_TIER3 1   /* semantic issues often need human insight */
#define MF_RETRY_TOTAL 3

typedef struct mf_retry mf_retry;

/* A new history with the seed's budget (2, 2, 1; 3 in total). NULL on OOM. */
mf_retry *mf_retry_new(void);
/* A new history with a custom budget (retries per tier 1..3, and in total). */
mf_retry *mf_retry_new_budget(int tier1, int tier2, int tier3, int total);
/* Free the history; NULL is fine. */
void mf_retry_free(mf_retry *r);

/* Record one attempt's result. Returns 1 when a retry is granted (the attempt
 * was rejected and both its tier's and the total budget had room: one of
 * each is consumed), 0 when the loop ends (accepted, or budget exhausted),
 * -1 on OOM. */
int mf_retry_record(mf_retry *r, const mf_result *res);
/* Record a rejected attempt from its error alone (e.g. a failure before any
 * model text existed). Same return values as mf_retry_record. */
int mf_retry_record_error(mf_retry *r, const mf_error *e);

/* True when the last recorded attempt was granted a retry. */
bool mf_retry_should_retry(const mf_retry *r);
/* True when the last recorded attempt was accepted. */
bool mf_retry_succeeded(const mf_retry *r);
/* Retries left for tier 1..3, or in total for tier 0 (-1 for another tier). */
int mf_retry_remaining(const mf_retry *r, int tier);
/* Number of attempts recorded. */
size_t mf_retry_count(const mf_retry *r);
/* The error of attempt i (0-based); tier 0 for an accepted attempt; NULL when out of range. */
const mf_error *mf_retry_error_at(const mf_retry *r, size_t i);

/* Seed 004 escalation "add hint": every tier gets at least one retry back and
 * the total budget one more. */
void mf_retry_add_hint(mf_retry *r);
/* Seed 004 escalation "retry fresh": forget the history, restore the budget. */
void mf_retry_reset(mf_retry *r);

/* The retry feedback for the next prompt: "PREVIOUS ATTEMPTS AND ERRORS:"
 * with, per rejected attempt, "Attempt N: TYPE", "  Error: message",
 * "  Line: n" and "  Path: a.b.c" when known; then, when p has a schema, a
 * "REQUIREMENTS REMINDER:" naming its required fields, and when o gives them,
 * the expected files and the first 3 sample paths. p and o may be NULL.
 * Caller frees; NULL on OOM. */
char *mf_retry_feedback(const mf_retry *r, const mf_profile *p, const mf_options *o);
/* The same text from a JSON array of attempt results (the `--output result`
 * objects of mf_result_to_json, oldest first). NULL with a message in err
 * (size errlen) when attempts is not such an array. Caller frees. */
char *mf_retry_feedback_from_json(const json_t *attempts, const mf_profile *p,
                                  const mf_options *o, char *err, size_t errlen);

#endif
