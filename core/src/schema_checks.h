/* schema_checks.h - private helpers shared by the validator (validate.c),
 * schema normalization (norm_schema.c) and the JSON profiles' tier-3
 * normalizers (norm_code_files.c, norm_task_breakdown.c, ...). Not installed. */
#ifndef MALFORM_SCHEMA_CHECKS_H
#define MALFORM_SCHEMA_CHECKS_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include "internal.h"

/* ---- regexes (validate.c) ---- */
/* The compiled UTF-mode pattern, from a process-wide cache keyed by the
 * pattern text (thread-safe). NULL with msg filled when it does not compile.
 * The code stays valid until mf_schema_cache_clear(). */
const pcre2_code *mf_regex_cached(const char *pattern, char *msg, size_t msglen);
/* Compile a pattern outside the cache (for patterns taken from model output);
 * the caller frees it with pcre2_code_free. NULL with msg filled on error. */
pcre2_code *mf_regex_compile(const char *pattern, char *msg, size_t msglen);
/* 1 when re matches somewhere in s (valid UTF-8), 0 when not, -1 on a match
 * error (e.g. the backtracking limit). When ovec is given it receives up to
 * 2*ovecn offsets ((size_t)-1 for unset groups). */
int mf_regex_search(const pcre2_code *re, const char *s, size_t len, size_t *ovec, size_t ovecn);
/* mf_regex_search starting at byte offset start. */
int mf_regex_search_from(const pcre2_code *re, const char *s, size_t len, size_t start,
                         size_t *ovec, size_t ovecn);
/* Release every cached regex (optional, for leak checkers; not concurrent with use). */
void mf_schema_cache_clear(void);

/* ---- JSON pointers and messages ---- */
/* Append "/token" to a JSON pointer, escaping '~' and '/'. */
void mf_pointer_push(mf_buf *path, const char *token);
/* Append "/index". */
void mf_pointer_push_index(mf_buf *path, size_t index);
/* Short printable form of a value for messages ("\"abc\"", "5.0", "object"). Caller frees. */
char *mf_value_preview(const json_t *v);
/* The JSON type name of v: string, integer, number, boolean, null, object, array. */
const char *mf_value_type_name(const json_t *v);

/* ---- schema normalization + validation in one step (norm_schema.c) ---- */
/* mf_norm_schema and the check against the compiled schema in one walk, with
 * the same warnings and the same first error as running them one after the
 * other: the pipeline's last stage, and tier-3 normalizers call it before
 * their semantic checks so that a structural problem is always reported as
 * tier 2. 0 when valid, -1 with err set. */
int mf_schema_gate(const mf_profile *p, json_t *root, mf_warnings *w, mf_error *err);
/* True when a relative file path is unsafe: absolute ("/x", "\\x", "C:\\x"),
 * or with a ".." segment. */
bool mf_path_unsafe(const char *path);

/* Strict markdown fallback of seed 001: every "```[lang]\nfilename: X\n...```"
 * block of text[0, len) (NUL bytes included) whose X is an expected file (all
 * of them when expected is NULL). Returns a new [{filename, content}] array
 * (empty when nothing matched). outside (may be NULL) gets the trimmed text
 * around the blocks, pieces joined by " / ": what the fallback drops. */
json_t *mf_artifact_files_from_markdown(const char *text, size_t len, const json_t *expected, mf_buf *outside);

#endif
