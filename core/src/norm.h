/* norm.h - private to the normalization stage (normalize.c, norm_*.c).
 *
 * The artifact normalizers registered by name in normalize.c and the small
 * value helpers they share (their rule ids are in rules.def). */
#ifndef MALFORM_NORM_H
#define MALFORM_NORM_H

#include "internal.h"

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
/* Short printable form of a value for warnings: strings as-is (control
 * bytes but tab and line breaks, NUL included, as \u00XX), others as
 * compact JSON, cut at 80 bytes. Caller frees. */
char *mf_norm_show(const json_t *v);
/* Parse the decimal digits s[0..n) into *out (no sign); false when empty,
 * not all digits or too large. */
bool mf_norm_digits(const char *s, size_t n, long long *out);
/* The number of a question id written Q##, q1, 1 (an integer too) or "Question 3"
 * (norm.question-id's forms), or -1 for another shape (norm_interview.c). */
long long mf_norm_question_number(const json_t *id);
/* Lowercased copy of s with leading/trailing ASCII whitespace trimmed. Caller frees. */
char *mf_norm_lower_trim(const char *s);

#endif
