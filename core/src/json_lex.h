/* json_lex.h - private interface of the tolerant JSON scanner's parts:
 * json_lex.c (cursor, warnings, errors, whitespace and comments),
 * json_string.c (strings and the closing-quote decision), json_words.c (bare
 * words: literals, numbers) and json_scan.c (values, containers, top level). */
#ifndef MALFORM_JSON_LEX_H
#define MALFORM_JSON_LEX_H

#include <stdint.h>
#include "json_internal.h"

#define WARN_CAP 10        /* warnings listed per rule; the rest are counted */

/* String delimiter kinds. */
enum { Q_DOUBLE, Q_SINGLE, Q_SMART_DOUBLE, Q_SMART_SINGLE, Q_BACKTICK };

/* The scanner state: the text, the cursor and what was repaired so far. */
typedef struct {
    const char *s;
    size_t n, i;
    unsigned flags;          /* MF_JSON_SCAN_* */
    int line;
    size_t bol;              /* offset where the current line starts */
    int depth, max_depth;
    mf_warnings *w;
    unsigned counts[MF_RULE_COUNT];
    bool over_cap;           /* some rule was noted more than WARN_CAP times */
    int count_line[MF_RULE_COUNT];
    mf_error *err;
    bool failed;
    bool parent_object;      /* the value being parsed is an object member */
    int open_objects, open_arrays; /* containers open around the cursor */
    int implicit_closes;     /* closers inserted for a mismatched one: a stray closer may follow */
    int tuple_depth;         /* open Python tuples: ')' ends bare text */
    int call_depth;          /* open calls `ObjectId(`, `cb(`: ')' ends a value */
    bool brace_missing;      /* the next object starts at its first key: its '{' is missing */
    int array_key_scans;     /* key_after_unclosed_array scans so far (capped: each reads to the end) */
    size_t escaped_close;    /* the `\"` that closes a value string an escaped quote opened (0: none) */
    unsigned char closer_of[MF_JSON_DEPTH_CAP + 2]; /* closer of the container open at each depth */
    /* truncation bookkeeping, reported once at the end */
    int closed_containers;
    bool closed_string, dropped_member;
    char cut_what[112];      /* what the end of input cut, for the json.truncated warning */
} jp;

/* Byte classes (jl_byte_class): JSON whitespace, word bytes (jl_is_word),
 * bytes jl_skip_ws examines once past whitespace (comment, escape and fence
 * starts, first bytes of Unicode spaces), and first bytes of Unicode spaces. */
enum { JL_WS = 1, JL_WORD = 2, JL_SKIP = 4, JL_USPACE = 8 };
extern const unsigned char jl_byte_class[256];

static inline bool at_end(const jp *p) { return p->i >= p->n; }
static inline int cur(const jp *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }
static inline int at(const jp *p, size_t k) { return k < p->n ? (unsigned char)p->s[k] : -1; }
static inline bool is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Record a repair by rule (MF_RULE_JSON_*, an index into mf_rules) at line; the first
 * WARN_CAP per rule are listed, the rest counted. */
void jl_note(jp *p, int rule, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* For each rule noted more than WARN_CAP times: one more warning counting the rest. */
void jl_note_overflow(jp *p);
/* Record the first unrepairable problem at the cursor (JSON_SYNTAX_ERROR). Returns -1. */
int jl_fail(jp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Describe (once) what the end of input cut, e.g. the member dropped. */
void jl_cut(jp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Move the cursor one byte, keeping the line count. */
static inline void jl_advance(jp *p)
{
    if (p->i < p->n && p->s[p->i] == '\n') {
        p->line++;
        p->bol = p->i + 1;
    }
    p->i++;
}
/* jl_advance_n past its first 8 bytes. */
void jl_advance_far(jp *p, size_t k);
/* Move the cursor k bytes (at most to the end), keeping the line count. */
static inline void jl_advance_n(jp *p, size_t k)
{
    if (k > 8 || p->i >= p->n) {
        jl_advance_far(p, k);
        return;
    }
    size_t e = k < p->n - p->i ? p->i + k : p->n;
    for (; p->i < e; p->i++)
        if (p->s[p->i] == '\n') {
            p->line++;
            p->bol = p->i + 1;
        }
}
/* A byte of a bare word (letters, digits, _ $ . + -). */
static inline bool jl_is_word(int c) { return c >= 0 && (jl_byte_class[c] & JL_WORD); }
/* Length of a Unicode space (NBSP, U+2000..U+200B, U+202F, U+205F, U+3000, U+FEFF) at k, or 0. */
static inline size_t jl_unicode_space(const jp *p, size_t k)
{
    int a = at(p, k);
    if (a < 0 || !(jl_byte_class[a] & JL_USPACE))
        return 0;
    int b = at(p, k + 1), c = at(p, k + 2);
    if (a == 0xC2 && b == 0xA0)
        return 2;
    if (a == 0xE2 && b == 0x80 && ((c >= 0x80 && c <= 0x8B) || c == 0xAF))
        return 3;
    if (a == 0xE2 && b == 0x81 && c == 0x9F)
        return 3;
    if (a == 0xE3 && b == 0x80 && c == 0x80)
        return 3;
    if (a == 0xEF && b == 0xBB && c == 0xBF)
        return 3;
    return 0;
}
/* Kind of a smart quote at k: Q_SMART_DOUBLE for “ ”, Q_SMART_SINGLE for ‘ ’, -1 otherwise. */
static inline int jl_smart_quote(const jp *p, size_t k)
{
    if (at(p, k) != 0xE2 || at(p, k + 1) != 0x80)
        return -1;
    int c = at(p, k + 2);
    if (c == 0x9C || c == 0x9D)
        return Q_SMART_DOUBLE;
    if (c == 0x98 || c == 0x99)
        return Q_SMART_SINGLE;
    return -1;
}
/* The first offset in [k, lim) holding byte a, b, c or d, or lim (lim <= n). */
size_t jl_find_any4(const jp *p, size_t k, size_t lim, unsigned char a, unsigned char b, unsigned char c,
                    unsigned char d);
/* The first offset at or after k where the text of a string of delimiter kind q
 * needs a decision (its closing quote's byte, a backslash, '$' in a
 * double-quoted string, a control byte), or n: the bytes before it are text. */
size_t jl_string_run(const jp *p, size_t k, int q);
/* jl_skip_ws once the cursor's byte may be whitespace or a comment start. */
int jl_skip_ws_from(jp *p);
/* Skip whitespace and comments between tokens, noting each repair; -1 when a
 * comment hides JSON structure (rejected). At a token byte it returns at once. */
static inline int jl_skip_ws(jp *p)
{
    if (p->i < p->n && !(jl_byte_class[(unsigned char)p->s[p->i]] & (JL_WS | JL_SKIP)))
        return 0;
    return jl_skip_ws_from(p);
}
/* Offset of the first byte at or after k that is neither JSON whitespace nor a Unicode space. */
size_t jl_past_spaces(const jp *p, size_t k);
/* Offset of the first byte at or after k that is no blank on the line: a
 * space, a tab or a Unicode space (a line break ends the run). */
size_t jl_past_blanks(const jp *p, size_t k);
/* Offset of the first quote q or line break at or after k, a backslash taking
 * the byte after it (a quoted run's end on its line); p->n or past it at the end. */
size_t jl_quote_end_on_line(const jp *p, size_t k, int q);
/* Like jl_past_spaces, also past closed block comments (slash-star ... star-slash). */
size_t jl_past_spaces_comments(const jp *p, size_t k);
/* Is [s, s+n) a number, in JSON syntax or one json.number-format reads (`+2`, `.5`, `5.`)? */
bool jl_number_word(const char *s, size_t n);
/* Is [s, s+n) one of the literal words (true, None, NaN, ...)? */
bool jl_word_is_literal(const char *s, size_t n);
/* Does a quoted key missing its ':' start at k (`"n" 2`, `"a" "b"`, `'a' 'b'`)? */
bool jl_key_without_colon(const jp *p, size_t k);
/* Does a key (`"name"` on one line, then `:` after blanks or line breaks) start with the quote at k? */
bool jl_key_at(const jp *p, size_t k);
/* `"": 1`, `'': 1`: an empty key (a quote pair, then ':') at k? */
bool jl_empty_key_at(const jp *p, size_t k);
/* Parse a string whose opening delimiter (kind q) is at the cursor into b.
 * Returns 0 (*cut when the input ended inside it), or -1. */
int jl_parse_string(jp *p, int q, bool is_key, mf_buf *b, bool *cut);
/* Parse a bare word or bare text (up to ',', a closer or a line break) as a
 * value: literal, number, or string. 0 with *out NULL: dropped (cut by the
 * end of input, or a `...` placeholder). */
int jl_parse_word(jp *p, json_t **out);
/* Can bare text (an unquoted value) start at the cursor? */
bool jl_bare_start(const jp *p);
/* End of bare text starting at k: before a separator, closer, quote, comment or `word:` (blanks trimmed). */
size_t jl_bare_end(const jp *p, size_t k);
/* Is there a `...` or `…` placeholder at k? */
bool jl_placeholder_at(const jp *p, size_t k);
/* Does a complete string value (`"text"` on one line, then ',', ']', or a
 * line break and a line that starts an item too) start with the quote at k? */
bool jl_value_string_at(const jp *p, size_t k);
/* End of the word (jl_is_word bytes) starting at k. */
size_t jl_word_end(const jp *p, size_t k);
/* After a word ending at k: a quote then structure (`,` `}` `]` `:` or the end)
 * - a string whose opening quote is missing (`foo",`)? */
bool jl_open_quote_missing(const jp *p, size_t k);

#endif
