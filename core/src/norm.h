/* norm.h - private to the normalization stage (normalize.c, norm_*.c).
 *
 * The artifact normalizers registered by name in normalize.c, their rule ids
 * (the same static strings as in mf_rules_norm[]), and the small value
 * helpers they share. */
#ifndef MALFORM_NORM_H
#define MALFORM_NORM_H

#include "internal.h"

/* Rule ids of the normalization stage (each one is listed in mf_rules_norm[]). */
#define MF_R_WRAPPER "norm.wrapper"
#define MF_R_KEY_ALIAS "norm.key-alias"
#define MF_R_QUESTION_ID "norm.question-id"
#define MF_R_QUESTION_RENUMBER "norm.question-renumber"
#define MF_R_PHASE_CASE "norm.phase-case"
#define MF_R_PHASE_ORDER "norm.phase-order"
#define MF_R_COVERAGE_GAP "norm.coverage-gap-ref"
#define MF_R_FA_OVERLAY "norm.full-answers-overlay"
#define MF_R_FA_HOIST "norm.full-answers-hoist"
#define MF_R_PRD_STATUS "norm.prd-status"
#define MF_R_SCHEMA_VERSION "norm.schema-version"
#define MF_R_TICKET_ID "norm.ticket-id"
#define MF_R_CONTENT_SHA "norm.content-sha256"
#define MF_R_EPIC_ID "norm.epic-id"
#define MF_R_STORY_ID "norm.story-id"
#define MF_R_BEADS_ROOT "norm.beads-root"
#define MF_R_BEAD_ID "norm.bead-id"
#define MF_R_BEAD_RENUMBER "norm.bead-renumber"
#define MF_R_CONTEXT_GUIDANCE "norm.context-guidance"
#define MF_R_EMPTY_PRD_REFS "norm.empty-prd-refs"
#define MF_R_BEAD_STATUS "norm.bead-status"
#define MF_R_CHECK_VALUE "norm.check-value"
#define MF_R_CHANGE_SKIPPED "norm.change-skipped"
#define MF_R_CHANGE_TYPE "norm.change-type"
#define MF_R_CHANGE_INSPIRATION "norm.change-inspiration"
#define MF_R_CHANGE_ATTRIBUTION "norm.change-attribution"

/* The named normalizers (mf_normalizer_fn): mf_norm_<name> in norm_<name>.c
 * (qa_tests shares norm_code_files.c), registered by name in normalize.c. */
int mf_norm_interview(json_t **root, const mf_profile *p, const mf_options *o,
                      mf_warnings *w, mf_error *err);
int mf_norm_full_answers(json_t **root, const mf_profile *p, const mf_options *o,
                         mf_warnings *w, mf_error *err);
int mf_norm_prd(json_t **root, const mf_profile *p, const mf_options *o,
                mf_warnings *w, mf_error *err);
int mf_norm_beads(json_t **root, const mf_profile *p, const mf_options *o,
                  mf_warnings *w, mf_error *err);
int mf_norm_bead_status(json_t **root, const mf_profile *p, const mf_options *o,
                        mf_warnings *w, mf_error *err);
int mf_norm_changes(json_t **root, const mf_profile *p, const mf_options *o,
                    mf_warnings *w, mf_error *err);
int mf_norm_task_breakdown(json_t **root, const mf_profile *p, const mf_options *o,
                           mf_warnings *w, mf_error *err);
int mf_norm_code_files(json_t **root, const mf_profile *p, const mf_options *o,
                       mf_warnings *w, mf_error *err);
int mf_norm_qa_tests(json_t **root, const mf_profile *p, const mf_options *o,
                     mf_warnings *w, mf_error *err);
int mf_norm_artifact_files(json_t **root, const mf_profile *p, const mf_options *o,
                           mf_warnings *w, mf_error *err);
int mf_norm_investor_decision(json_t **root, const mf_profile *p, const mf_options *o,
                              mf_warnings *w, mf_error *err);
int mf_norm_extraction_rule(json_t **root, const mf_profile *p, const mf_options *o,
                            mf_warnings *w, mf_error *err);

/* Replace key `key` of obj by `v` (reference stolen) keeping the key's
 * position; a new key goes to the front when `front`, else to the end. */
void mf_norm_obj_put(json_t *obj, const char *key, json_t *v, bool front);
/* Short printable form of a value for warnings: strings as-is, others as
 * compact JSON, cut at 80 bytes. Caller frees. */
char *mf_norm_show(const json_t *v);
/* Parse the decimal digits s[0..n) into *out (no sign); false when empty,
 * not all digits or too large. */
bool mf_norm_digits(const char *s, size_t n, long long *out);
/* Lowercased copy of s with leading/trailing ASCII whitespace trimmed. Caller frees. */
char *mf_norm_lower_trim(const char *s);

#endif
