/* result.h - the outcome of one repair: value, warnings, rejection record.
 *
 * Ownership rule (the same for every malform type): whoever gets a pointer
 * from an mf_*_new / mf_repair call owns it and frees it with the matching
 * mf_*_free; the json_t trees inside a result belong to the result. */
#ifndef MALFORM_RESULT_H
#define MALFORM_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

typedef enum { MF_ACCEPTED = 0, MF_REJECTED = 1 } mf_status;

/* Lines listed per warning record; a record applied more often lists its first ones. */
#define MF_WARNING_LINES 8
/* Distinct warning records kept per list; past it, a rule's further warnings
 * join one overflow record per rule (so a result stays small on any input). */
#define MF_WARNINGS_MAX 256

/* A repair that was applied, once or as a run: the rule id (static string
 * from the rule registry), a human message, and the 1-based line in the
 * candidate text of its first application (0 when not tied to a line).
 * Consecutive applications of the same rule with the same message are one
 * record: count says how often, lines[] holds the first nlines of their lines. */
typedef struct {
    const char *rule;
    char *message;
    int line;
    size_t count;
    int lines[MF_WARNING_LINES];
    int nlines;
} mf_warning;

/* The rejection record. tier: 1 syntax, 2 schema, 3 semantic (0 = none).
 * type: static string such as "YAML_SYNTAX_ERROR"; path: JSON pointer or "".
 * Tier-1 types of resource limits name the limit: OUT_OF_MEMORY,
 * MEMORY_LIMIT, INPUT_TOO_LARGE, NESTING_TOO_DEEP, TOO_MANY_NODES. */
typedef struct {
    int tier;
    const char *type;
    char *path;
    int line;
    int column;
    char *message;
} mf_error;

/* A growable list of warnings. */
typedef struct {
    mf_warning *items;
    size_t count;
    size_t cap;
} mf_warnings;

typedef struct {
    mf_status status;
    const char *profile;   /* profile name (static for the profile's life) */
    json_t *value;         /* accepted value, NULL when rejected */
    mf_warnings warnings;
    bool repair_applied;   /* any warning, or the winning candidate is not the raw text */
    char *candidate;       /* how the winning (or last tried) candidate was built, e.g. "raw", "fence" */
    char *text;            /* the candidate text that was finally parsed (after repairs) */
    mf_error error;        /* tier 0 when accepted */
} mf_result;

/* Append a warning (message printf-style), or count it into the last record
 * when that has the same rule and message. Returns 0, or -1 on OOM. */
int mf_warnings_add(mf_warnings *w, const char *rule, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Move every warning record of src to the end of dst, leaving src empty.
 * Returns 0, or -1 on OOM (src is emptied either way). */
int mf_warnings_take(mf_warnings *dst, mf_warnings *src);
/* Drop warning records past index n (used to roll back a failed attempt). */
void mf_warnings_truncate(mf_warnings *w, size_t n);
/* How many applications the records of w stand for (the sum of their counts). */
size_t mf_warnings_total(const mf_warnings *w);
/* True when some warning carries rule id `rule`. */
bool mf_warnings_has(const mf_warnings *w, const char *rule);
/* True when some warning from index `from` on carries rule id `rule`. */
bool mf_warnings_has_since(const mf_warnings *w, size_t from, const char *rule);
/* Release every warning and the list itself (the struct may be reused). */
void mf_warnings_clear(mf_warnings *w);

/* Fill a rejection record; message is printf-style. Replaces any earlier one. */
void mf_error_set(mf_error *e, int tier, const char *type, const char *path,
                  int line, int column, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* Release the strings of a rejection record and reset it to tier 0. */
void mf_error_clear(mf_error *e);

/* True for the rejections no other candidate or repair can avoid: OUT_OF_MEMORY
 * and the caps (MEMORY_LIMIT, INPUT_TOO_LARGE, NESTING_TOO_DEEP, TOO_MANY_NODES). */
bool mf_error_is_final(const mf_error *e);

/* Serialise a result as the CLI's `--output result` object (new reference,
 * NULL on OOM): {status, profile, value, warnings: [{rule, message, line,
 * count, lines}], repair_applied, candidate, error: null | {tier, type, path,
 * line, column, message}}. Every key is always present. */
json_t *mf_result_to_json(const mf_result *r);
/* Free a result and everything it owns; NULL is fine. */
void mf_result_free(mf_result *r);

#endif
