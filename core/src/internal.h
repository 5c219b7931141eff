/* internal.h - private helpers shared by the stages of core/ (not installed). */
#ifndef MALFORM_INTERNAL_H
#define MALFORM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include "malform/malform.h"

/* ---- allocation hook (alloc.c) ---- */
/* malloc, calloc and realloc that note a failure (mf_oom) before returning NULL. */
void *mf_malloc(size_t n);
void *mf_calloc(size_t n, size_t size);
void *mf_realloc(void *p, size_t n);
/* Every allocation in core goes through the hook, so no failure goes unnoticed. */
#define malloc(n) mf_malloc(n)
#define calloc(n, size) mf_calloc(n, size)
#define realloc(p, n) mf_realloc(p, n)
/* Allow jansson `extra` bytes more than this thread's values hold now
 * (refused allocations fail; a tighter budget already set stays); returns
 * the previous budget for mf_mem_budget_restore. */
size_t mf_mem_budget_set(size_t extra);
void mf_mem_budget_restore(size_t saved);
/* How many allocations this thread's budget has refused so far. */
size_t mf_mem_refused(void);

/* ---- allocation failures (alloc.c) ---- */
/* Note an allocation failure on this thread (mf_repair then rejects with
 * OUT_OF_MEMORY); returns -1 so callers can `return mf_oom();`. */
int mf_oom(void);
/* How many allocation failures this thread has noted so far. */
size_t mf_oom_count(void);
/* Route jansson's allocations through a hook that notes failures (once per process). */
void mf_oom_hook_jansson(void);

/* Turn r into an OUT_OF_MEMORY rejection, or MEMORY_LIMIT when the budget refused (result.c). */
void mf_result_reject_oom(mf_result *r, bool over_budget);

/* ---- growable byte buffer (always NUL-terminated when len > 0) ---- */
typedef struct { char *s; size_t len, cap; } mf_buf;

int mf_buf_put(mf_buf *b, const char *s, size_t n);       /* append n bytes; -1 on OOM */
int mf_buf_reserve(mf_buf *b, size_t n);                  /* room for n more bytes at once; -1 on OOM */
int mf_buf_puts(mf_buf *b, const char *s);                /* append a C string */
int mf_buf_putc(mf_buf *b, char c);                       /* append one byte */
int mf_buf_printf(mf_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mf_buf_reset(mf_buf *b);                             /* len = 0, keep memory */
void mf_buf_free(mf_buf *b);                              /* release memory */
char *mf_buf_detach(mf_buf *b);                           /* take the string ("" if empty) */
const char *mf_buf_cstr(const mf_buf *b);                 /* "" when empty */

char *mf_strndup(const char *s, size_t n);                /* malloc'd copy of n bytes + NUL */
char *mf_strdup0(const char *s);                          /* strdup that accepts NULL */

/* ---- lines: a view of text split at '\n' (a trailing '\r' is kept in the line) ---- */
typedef struct { const char *s; size_t len; } mf_line;
typedef struct { mf_line *items; size_t count; } mf_lines;
int mf_lines_split(const char *text, size_t len, mf_lines *out); /* 0 ok, -1 OOM */
void mf_lines_free(mf_lines *l);
size_t mf_line_indent(mf_line l);                         /* leading spaces */
bool mf_line_blank(mf_line l);                            /* only spaces/tabs/'\r' */

/* ---- rule ids: one line each in rules.def ---- */
/* MF_RULE_<CNAME>: a rule's index in mf_rules[] (CNAME as in rules.def). */
typedef enum {
#define RULE(cname, id, section, description) MF_RULE_##cname,
#include "rules.def"
#undef RULE
    MF_RULE_COUNT
} mf_rule_index;
/* Every rule in `malform rules` order, indexed by mf_rule_index (rules.c). */
extern const mf_rule mf_rules[MF_RULE_COUNT];
/* A rule's id string (the registry's own, usable in static initializers),
 * e.g. MF_RULE_ID(YAML_COLON_SPACE) is "yaml.colon-space". */
#define MF_RULE_ID(cname) mf_rule_id_##cname
#define RULE(cname, id, section, description) extern const char mf_rule_id_##cname[];
#include "rules.def"
#undef RULE
/* May rule id rewrite a text that a strict YAML/JSON load already accepts
 * (a slip that happens to parse: `-key: v`, prose read as a key, every
 * normalization)? Every other rule acts only on text a strict load refuses,
 * so a valid text it names is kept as written (tests/fixture_driver.c checks
 * the list against the rule fixtures). */
bool mf_rule_reads_valid_text(const char *id);

/* ---- prompt echo (echo.c) ---- */
/* True (and err filled as PROMPT_ECHO, tier 1) when raw is the model's prompt echoed back. */
bool mf_echo_detect(const mf_profile *p, const char *raw, size_t len, mf_error *err);

/* ---- candidate extraction (candidates.c) ---- */
typedef struct {
    char *name;            /* "raw", "prefix-stripped", "fence", "fence+prefix-stripped", "tag", "anchor", ... */
    char *text;
    size_t len;
    mf_warnings warnings;  /* warnings owed if this candidate wins (noise trimmed, orphan fence) */
} mf_candidate;
typedef struct { mf_candidate *items; size_t count, cap; } mf_candidates;

/* mf_warnings_add with a finished message: a repeat of the last record is
 * counted without formatting or copying. 0, or -1 on OOM. */
int mf_warnings_add_text(mf_warnings *w, const char *rule, int line, const char *msg);

/* Build the ordered candidate list for raw output (first is always "raw"
 * after noise trimming); identical texts are listed once. 0 ok, -1 OOM. */
int mf_candidates_build(const mf_profile *p, const char *raw, size_t len, mf_candidates *out);
/* The same in two steps: step 1 builds every candidate but the JSON extractions
 * ("json-balanced", "json-span"), step 2 appends those to step 1's list.
 * nonstrict: the caller knows raw is not strict JSON. 0 ok, -1 OOM (out freed). */
int mf_candidates_build_step(const mf_profile *p, const char *raw, size_t len, int step, bool nonstrict,
                             mf_candidates *out);
void mf_candidates_free(mf_candidates *c);

/* Length of the terminal noise token at s (n > 0: an ANSI CSI sequence, a
 * control byte other than tab/CR/LF, a bare paste marker "[200~"), or 0. */
size_t mf_noise_token_len(const char *s, size_t n);

/* Offset where the text resumes after a leading prose line that YAML would
 * read as a key ("Okay, here it is:" before a mapping; cand_prose.c), or 0
 * when there is none. *line (may be NULL): 1-based line of the prose. */
size_t mf_cand_leading_prose(const mf_profile *p, const char *s, size_t len, int *line);
/* The same; *count (may be NULL): how many sentence lines the cut drops
 * (consecutive ones, or one behind an envelope's tag line; up to 4). */
size_t mf_cand_leading_prose_run(const mf_profile *p, const char *s, size_t len, int *line, int *count);

/* Length of the text without the sentence-like lines at its end that follow
 * a block structure (cand_prose.c), or len when there are none. *line: line
 * of the first cut line; *keyed: one of them parses as an invented key. */
size_t mf_cand_trailing_prose(const mf_profile *p, const char *s, size_t len, int *line, bool *keyed);
/* The cut the candidate tidying makes (candidates.c): mf_cand_trailing_prose,
 * but sentences after a `---` with no fence or closing line among them stay (a
 * second document). *closed (may be NULL): the cut text holds such a line. */
size_t mf_cand_trailing_cut(const mf_profile *p, const char *s, size_t len, int *line, bool *keyed, bool *closed);

/* ---- YAML loading (yaml_load.c) ---- */
typedef struct {
    const mf_profile *profile;  /* string_fields keep plain text; may be NULL */
    int max_depth;
    size_t max_nodes;           /* cap on nodes incl. alias expansion */
    bool *renamed_key;          /* set when a key is one the profile's key aliasing renames or drops; may be NULL */
    bool libyaml_only;          /* skip the fast reader (yaml_fast.c): for the tests that compare the two */
} mf_yaml_load_opts;
/* Parse YAML text into a value typed by the YAML 1.2 core schema. Several
 * documents give an array of documents; an empty stream gives JSON null.
 * Returns 0, or -1 with err = YAML_SYNTAX_ERROR (tier 1, line, column). */
int mf_yaml_load(const char *text, size_t len, const mf_yaml_load_opts *o,
                 json_t **out, mf_error *err);
/* Is err the YAML reader's "control characters are not allowed" (a byte the loader
 * stops at before any structure: terminal noise a trimmed candidate leaves out)? */
bool mf_yaml_error_is_control_char(const mf_error *err);
/* Core-schema type of a plain scalar's text (new reference; a string when nothing else fits); s must be valid UTF-8. */
json_t *mf_yaml_plain_value(const char *s, size_t n);
/* Does the line text [s, s+n) (after its indentation) read as a block entry, `- ...`, `-` or a
 * one-word key, so that a quoted scalar running over it at or left of its collection's column
 * is no YAML 1.2 (yaml-test-suite QB6E)? */
bool mf_yaml_entry_shaped(const char *s, size_t n);

/* ---- YAML structural repairs (yaml_repair*.c) ---- */
/* A text rule rewrites `in` into `out` (always writes the whole text) and
 * returns how many places it changed, adding one warning per change site. */
typedef size_t (*mf_text_rule_fn)(const char *in, size_t len, mf_buf *out,
                                  const mf_profile *p, mf_warnings *w);
typedef struct { const char *rule_id; mf_text_rule_fn fn; int group; } mf_text_rule;
extern const mf_text_rule mf_yaml_repairs[];   /* terminated by {NULL} */
#define MF_YAML_GROUPS 4
/* Apply every YAML repair of `group` (1..MF_YAML_GROUPS) to text in place; returns changes. */
size_t mf_yaml_repair_group(int group, mf_buf *text, const mf_profile *p, mf_warnings *w);
/* The YAML repairs' line model of one text, kept between group calls (yaml_repair.c). */
typedef struct mf_yaml_lines mf_yaml_lines;
/* mf_yaml_repair_group over the model in *lines (created when NULL, reused while
 * text is the one it was left on): groups that change nothing share one model. */
size_t mf_yaml_repair_group_on(int group, mf_buf *text, mf_yaml_lines **lines, const mf_profile *p, mf_warnings *w);
void mf_yaml_lines_free(mf_yaml_lines *lines);
/* Repairs run before the first parse, because the malformed text also parses
 * with a different value (`steps:` then `-name: x`, seed 000 #9); returns changes. */
size_t mf_yaml_repair_misread(mf_buf *text, const mf_profile *p, mf_warnings *w);
/* Only the misread repair that never guesses (yaml.front-matter-closer): what the pipeline keeps
 * of the misread repairs when the guessing ones led to no loadable text. */
size_t mf_yaml_repair_misread_sure(mf_buf *text, const mf_profile *p, mf_warnings *w);
/* yaml.quoted-hash and yaml.block-header-comment, on a text a repair group changed (a ' #' inside
 * quotes of a plain value the repair made, a '#' the repair glued to a quote). */
size_t mf_yaml_repair_glued_comments(mf_buf *text, const mf_profile *p, mf_warnings *w);
/* False when rule mf_yaml_repairs[index] cannot change text [s, s+n): it lacks
 * every byte the rule repairs, or every kind of line it rewrites (the group driver
 * then skips the rule). */
bool mf_yaml_rule_may_apply(size_t index, const char *s, size_t n);

/* ---- JSON repair (json_repair*.c) ---- */
/* Parse JSON text strictly, repairing it when needed. Returns 0 with *out set
 * (warnings added for each repair), or -1 with err = JSON_SYNTAX_ERROR.
 * utf8: the text is known to be valid UTF-8 (no string is checked again). */
int mf_json_parse_repair(const char *text, size_t len, const mf_profile *p, int max_depth, bool utf8,
                         json_t **out, mf_warnings *w, mf_error *err);

/* ---- value normalization (normalize*.c) ---- */
/* Strip recognised wrapper keys (generic + profile) around the artifact. */
int mf_norm_unwrap(const mf_profile *p, json_t **root, mf_warnings *w);
/* Is key a wrapper key (generic or the profile's) that unwrapping strips? */
bool mf_norm_is_wrapper(const mf_profile *p, const char *key);
/* The profile's normalized-key -> canonical-key map (new reference); profiles.c
 * builds it once per profile, mf_norm_aliases uses it. */
json_t *mf_norm_key_map(const mf_profile *p);
/* Rename keys matching a profile alias (by normalized key) to the canonical key, recursively. */
int mf_norm_aliases(const mf_profile *p, json_t *root, mf_warnings *w);
/* The canonical key mf_norm_aliases renames `key` to under key_map (itself when
 * canonical), or NULL when it names no key of the profile. */
const char *mf_norm_key_canonical(const json_t *key_map, const char *key);
/* Would mf_norm_aliases rename or drop `key` under key_map (mf_norm_key_map)? */
bool mf_norm_key_renamed(const json_t *key_map, const char *key);
/* Everything after parsing, in order: unwrapping, key aliasing, the profile's
 * normalizers, schema normalization and validation (one walk). keys_kept:
 * the parser saw no key that aliasing renames or drops, so that pass is
 * skipped unless unwrapping replaced the root. 0 when valid, -1 with err. */
int mf_normalize(const mf_profile *p, const mf_options *o, json_t **v, bool keys_kept, mf_warnings *w,
                 mf_error *err);
/* A named artifact normalizer from a profile's `normalizers:` list. Returns 0,
 * or -1 with err set (the artifact is rejected). May replace *root. */
typedef int (*mf_normalizer_fn)(json_t **root, const mf_profile *p, const mf_options *o,
                                mf_warnings *w, mf_error *err);
mf_normalizer_fn mf_normalizer_find(const char *name);
/* Schema normalization (seed 003): prose lists, integer floats, enum folding, defaults. */
int mf_norm_schema(const mf_profile *p, json_t *root, mf_warnings *w);

/* ---- validation (validate.c) ---- */
/* Validate v against the JSON-Schema subset; -1 with err (tier 2 SCHEMA_VIOLATION, path). */
int mf_schema_validate(const json_t *schema, const json_t *v, mf_error *err);

#endif
