/* malform.h - the repair pipeline: raw model output in, artifact or rejection out.
 *
 * mf_repair runs, in order: encoding check, prompt-echo detection, candidate
 * extraction, syntax repair and parsing (YAML or JSON), wrapper unwrapping,
 * key aliasing, the profile's normalizers, schema normalization and
 * three-tier validation. Every change is a warning with a rule id. */
#ifndef MALFORM_MALFORM_H
#define MALFORM_MALFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "malform/result.h"
#include "malform/profile.h"
#include "malform/rules.h"

#define MF_VERSION "0.1.0"

/* Runtime context and limits. Zero-initialise, then set what you have. */
typedef struct {
    const char *ticket_id;         /* PRD: runtime ticket id */
    const char *interview_sha256;  /* PRD: hash of the approved interview */
    const json_t *roster;          /* refinement: array of losing-draft model ids */
    const json_t *approved_interview; /* full_answers: the approved interview value */
    const char *story_id;          /* task_breakdown: runtime story id */
    const json_t *expected_files;  /* artifact_files: array of file names */
    const json_t *sample_paths;    /* extraction_rule: paths to match globs against */
    size_t max_input;              /* bytes; 0 = MF_DEFAULT_MAX_INPUT */
    int max_depth;                 /* nesting; 0 = MF_DEFAULT_MAX_DEPTH */
} mf_options;

/* Fill o from a JSON object {"ticket_id", "interview_sha256", "roster",
 * "approved_interview", "story_id", "expected_files", "sample_paths"}; other
 * fields are zeroed. The strings and arrays stay owned by obj (NULL: all zero). */
void mf_options_from_json(const json_t *obj, mf_options *o);

#define MF_DEFAULT_MAX_INPUT (64u * 1024u * 1024u)
/* The heap one mf_repair's values may use (jansson's allocations, where the
 * shape of the input decides the cost): this many times the input size plus
 * this constant; past it the repair is rejected as MEMORY_LIMIT. */
#define MF_MEMORY_FACTOR 16
#define MF_MEMORY_CONSTANT (64 << 20)
#define MF_DEFAULT_MAX_DEPTH 256

/* Repair raw model output for profile p (NULL: detect YAML or JSON and use
 * generic_yaml / generic_json). Never returns NULL except on out-of-memory. */
mf_result *mf_repair(const mf_profile *p, const char *raw, size_t len,
                     const mf_options *opt);

/* Canonical JSON text of a value (sorted as stored, 2-space indent). Caller frees. */
char *mf_value_to_json(const json_t *v);
/* Canonical YAML text of a value (block style, quoted where needed). Caller frees. */
char *mf_value_to_yaml(const json_t *v);
/* Write a value's canonical JSON (json true, plus a newline) or YAML text to f
 * without building it in memory first. 0, or -1 on a write error or OOM. */
int mf_value_write(const json_t *v, bool json, FILE *f);

#endif
