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

/* Runtime context and limits. Zero-initialise, then set what you have.
 * The context is a JSON object of values the pipeline cannot know from the
 * model output (a PRD's ticket_id, a task breakdown's story_id, ...); each
 * profile declares the keys it reads and their types (profile `context:`),
 * and a normalizer sees only those (mf_options_context). */
typedef struct {
    const json_t *context;         /* object, borrowed; NULL = no context */
    size_t max_input;              /* bytes; 0 = MF_DEFAULT_MAX_INPUT */
    int max_depth;                 /* nesting; 0 = MF_DEFAULT_MAX_DEPTH */
} mf_options;

/* Fill o from the JSON form of the options: the context object itself
 * ({"ticket_id": ..., "story_id": ..., ...}); limits are zeroed. obj stays
 * owned by the caller and must outlive o (NULL or not an object: no context). */
void mf_options_from_json(const json_t *obj, mf_options *o);
/* The context value `key` when profile p declares it (p NULL: any key) and the
 * value has the declared type; else NULL. Borrowed from o->context. */
const json_t *mf_options_context(const mf_options *o, const mf_profile *p, const char *key);
/* mf_options_context as a C string (NULL when absent, not a string or empty). */
const char *mf_options_context_string(const mf_options *o, const mf_profile *p, const char *key);

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
