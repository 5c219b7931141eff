/* json_scan.c - the tolerant JSON scanner: malformed model output in, json_t out.
 *
 * One recursive-descent pass over the text builds the value tree directly;
 * every place where the text is not strict JSON either matches a repair rule
 * (recorded as a warning with its line) or stops the scan with a
 * JSON_SYNTAX_ERROR saying what was expected there. Nothing is rewritten as
 * text first, so there is no chain of rewrites to go wrong.
 *
 * Strings are the hard part. A double quote inside a string is the closing
 * quote only when what follows it looks like JSON structure: end of input,
 * `}` or `]`, `:` for a key, `,` followed by a key, a value or a closer, or
 * whitespace followed by a quote, bracket or comment (a missing comma).
 * Unicode spaces (NBSP, ...) count as whitespace in these lookaheads, as they
 * do between tokens: a NBSP after the comma that ends a member must not make
 * its closing quote an inner one. Otherwise it is an unescaped inner quote and stays text. The same test
 * closes single-quoted and smart-quoted strings. `${...}` on one line is kept
 * whole (quotes inside it are text). Literal control characters stay in the
 * value (the canonical output escapes them); invalid escapes keep their
 * backslash. Every lookahead only crosses text up to the next quote (or a
 * fixed 256 bytes for `${`), so the scan is linear in the input.
 *
 * Input that ends early (a token limit) closes the open string and
 * containers; a member whose key or value is incomplete (a number or literal
 * cut by the end of input, a key without value) is dropped, never invented.
 * A string that ran into the end of input after an inner-quote decision is
 * rejected instead: the decision was probably wrong.
 *
 * Numbers use jansson's own conversion of the token, so valid parts of a
 * broken document get exactly the values strict parsing would give. Numbers
 * jansson cannot hold (integers beyond int64, reals beyond double) become a
 * real when the double is exact, otherwise a string of the number's text with
 * a json.big-number warning. */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "json_internal.h"

#define WARN_CAP 10        /* warnings listed per rule; the rest are counted */
#define TPL_LOOKAHEAD 256  /* bytes searched for the `}` closing a `${` */

enum { Q_DOUBLE, Q_SINGLE, Q_SMART_DOUBLE, Q_SMART_SINGLE, Q_BACKTICK };

typedef struct {
    const char *s;
    size_t n, i;
    int line;
    size_t bol;              /* offset where the current line starts */
    int depth, max_depth;
    mf_warnings *w;
    unsigned counts[MF_RULE_COUNT];
    int count_line[MF_RULE_COUNT];
    mf_error *err;
    bool failed;
    /* truncation bookkeeping, reported once at the end */
    int closed_containers;
    bool closed_string, dropped_member;
} jp;

/* ---------------------------------------------------------------- helpers */

static void note(jp *p, int rule, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void note(jp *p, int rule, int line, const char *fmt, ...)
{
    if (++p->counts[rule] > WARN_CAP)
        return;
    if (p->counts[rule] == 1)
        p->count_line[rule] = line;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_warnings_add(p->w, mf_rules[rule].id, line, "%s", msg);
}

static int column_at(const jp *p, size_t bol, size_t at)
{
    int col = 1;
    for (size_t k = bol; k < at && k < p->n; k++)
        if (((unsigned char)p->s[k] & 0xC0) != 0x80)
            col++;
    return col;
}

static void describe(const jp *p, size_t at, char *out, size_t outlen)
{
    if (at >= p->n) {
        snprintf(out, outlen, "end of input");
        return;
    }
    unsigned char c = (unsigned char)p->s[at];
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, outlen, "'%c'", c);
    else if (c == '\n')
        snprintf(out, outlen, "a line break");
    else
        snprintf(out, outlen, "byte 0x%02X", c);
}

/* Record the first unrepairable problem at the current position. */
static int fail(jp *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(jp *p, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = true;
    char msg[256], found[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    describe(p, p->i, found, sizeof found);
    mf_error_set(p->err, 1, "JSON_SYNTAX_ERROR", "", p->line, column_at(p, p->bol, p->i),
                 "%s, found %s", msg, found);
    return -1;
}

static bool at_end(const jp *p) { return p->i >= p->n; }
static int cur(const jp *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }
static int at(const jp *p, size_t k) { return k < p->n ? (unsigned char)p->s[k] : -1; }

static void advance(jp *p)
{
    if (p->i < p->n && p->s[p->i] == '\n') {
        p->line++;
        p->bol = p->i + 1;
    }
    p->i++;
}

static void advance_n(jp *p, size_t k)
{
    while (k-- > 0 && p->i < p->n)
        advance(p);
}

static bool is_ws(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static bool is_word(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.' || c == '+' || c == '-';
}

/* Length of a Unicode space (NBSP, U+2000..U+200B, U+202F, U+3000, U+FEFF) at k, or 0. */
static size_t unicode_space(const jp *p, size_t k)
{
    int a = at(p, k), b = at(p, k + 1), c = at(p, k + 2);
    if (a == 0xC2 && b == 0xA0)
        return 2;
    if (a == 0xE2 && b == 0x80 && ((c >= 0x80 && c <= 0x8B) || c == 0xAF))
        return 3;
    if (a == 0xE3 && b == 0x80 && c == 0x80)
        return 3;
    if (a == 0xEF && b == 0xBB && c == 0xBF)
        return 3;
    return 0;
}

/* Kind of a smart quote at k: Q_SMART_DOUBLE for “ ”, Q_SMART_SINGLE for ‘ ’, -1 otherwise. */
static int smart_quote(const jp *p, size_t k)
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

/* Skip whitespace and comments between tokens, noting each repair. */
static void skip_ws(jp *p)
{
    for (;;) {
        int c = cur(p);
        if (is_ws(c)) {
            advance(p);
            continue;
        }
        size_t us = unicode_space(p, p->i);
        if (us) {
            note(p, MF_RULE_JSON_UNICODE_SPACE, p->line, "Unicode space character between tokens removed");
            advance_n(p, us);
            continue;
        }
        if (c == '#' || (c == '/' && at(p, p->i + 1) == '/')) {
            note(p, MF_RULE_JSON_COMMENT, p->line, "%s comment removed", c == '#' ? "'#'" : "'//'");
            while (!at_end(p) && cur(p) != '\n')
                advance(p);
            continue;
        }
        if (c == '/' && at(p, p->i + 1) == '*') {
            note(p, MF_RULE_JSON_COMMENT, p->line, "'/* */' comment removed");
            advance_n(p, 2);
            while (!at_end(p) && !(cur(p) == '*' && at(p, p->i + 1) == '/'))
                advance(p);
            if (at_end(p))
                p->closed_string = true;   /* an unterminated comment is a truncation */
            else
                advance_n(p, 2);
            continue;
        }
        return;
    }
}

/* ------------------------------------------------- closing-quote decision */

static const char *const literal_words[] = {"true", "false", "null", "True", "False", "None",
                                           "undefined", "NaN", "Infinity", NULL};

static bool word_is_literal(const char *s, size_t n)
{
    for (const char *const *l = literal_words; *l; l++)
        if (strlen(*l) == n && memcmp(*l, s, n) == 0)
            return true;
    return false;
}

/* Offset of the first byte at or after k that is neither JSON whitespace nor
 * a Unicode space (skip_ws drops those between tokens, json.unicode-space). */
static size_t past_spaces(const jp *p, size_t k)
{
    for (size_t us; k < p->n;) {
        if (is_ws(at(p, k)))
            k++;
        else if ((us = unicode_space(p, k)))
            k += us;
        else
            break;
    }
    return k;
}

/* After a comma at k-1: does structure (a key, a value, a closer) follow? */
static bool structure_after_comma(const jp *p, size_t k)
{
    k = past_spaces(p, k);
    int c = at(p, k);
    if (c < 0 || (c && strchr("\"'{[]},-#`", c)) || (c >= '0' && c <= '9') || smart_quote(p, k) >= 0)
        return true;
    if (c == '/')
        return at(p, k + 1) == '/' || at(p, k + 1) == '*';
    size_t w = k;
    while (w < p->n && is_word(at(p, w)) && at(p, w) != '.' && at(p, w) != '+')
        w++;
    if (w == k)
        return false;
    if (word_is_literal(p->s + k, w - k))
        return true;
    while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
        w++;
    return at(p, w) == ':';
}

/* Is the quote that ends just before k a closing quote? */
static bool closes_here(const jp *p, size_t k, bool is_key)
{
    size_t j = past_spaces(p, k);
    if (j >= p->n)
        return true;
    int c = at(p, j);
    bool spaced = j > k;
    switch (c) {
    case '}': case ']':
        return true;
    case ':':
        return is_key;
    case ',':
        return structure_after_comma(p, j + 1);
    case '"': case '{': case '[': case '#':
        return spaced;
    case '/':
        return at(p, j + 1) == '/' || at(p, j + 1) == '*';
    default:
        return spaced && smart_quote(p, j) >= 0;
    }
}

/* ---------------------------------------------------------------- strings */

static int hex4(const jp *p, size_t k)
{
    int v = 0;
    for (size_t m = 0; m < 4; m++) {
        int c = at(p, k + m), d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v * 16 + d;
    }
    return v;
}

static int put_utf8(mf_buf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xC0 | (cp >> 6)); u[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)); u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18)); u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); u[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    return mf_buf_put(b, u, n);
}

/* Byte length of the closing delimiter of kind q at k (0: not one). */
static size_t closer_len(const jp *p, int q, size_t k)
{
    int c = at(p, k);
    switch (q) {
    case Q_DOUBLE: return c == '"';
    case Q_SINGLE: return c == '\'';
    case Q_BACKTICK: return c == '`';
    case Q_SMART_DOUBLE: return smart_quote(p, k) == Q_SMART_DOUBLE ? 3 : 0;
    default: return (c == 0xE2 && at(p, k + 1) == 0x80 && at(p, k + 2) == 0x99) ? 3 : 0;
    }
}

/* End (exclusive) of a `${...}` starting at k when it closes on the same line
 * within TPL_LOOKAHEAD bytes and holds an unescaped '"'; 0 otherwise. */
static size_t template_span(const jp *p, size_t k)
{
    int depth = 1;
    bool quote = false;
    size_t lim = k + TPL_LOOKAHEAD < p->n ? k + TPL_LOOKAHEAD : p->n;
    for (size_t j = k + 1; j < lim; j++) {
        int c = at(p, j);
        if (c == '\n')
            return 0;
        if (c == '\\') { j++; continue; }
        if (c == '"') quote = true;
        else if (c == '{') depth++;
        else if (c == '}' && --depth == 0)
            return quote ? j + 1 : 0;
    }
    return 0;
}

/* Parse a string whose opening delimiter (kind q) is at p->i into b.
 * Returns 0 (sets *cut when the input ended inside it), or -1. */
static int parse_string(jp *p, int q, bool is_key, mf_buf *b, bool *cut)
{
    size_t open = p->i;
    int open_line = p->line;
    size_t open_bol = p->bol;
    bool inner = false, ctrl = false;
    *cut = false;
    mf_buf_reset(b);
    if (q == Q_SINGLE)
        note(p, MF_RULE_JSON_SINGLE_QUOTES, p->line, "single-quoted %s converted to a JSON string",
             is_key ? "key" : "string");
    else if (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE)
        note(p, MF_RULE_JSON_SMART_QUOTES, p->line, "smart quotes used as string delimiters");
    else if (q == Q_BACKTICK)
        note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "backtick template literal converted to a JSON string");
    advance_n(p, (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE) ? 3 : 1);

    for (;;) {
        if (at_end(p)) {
            if (inner) {
                p->i = open;
                p->line = open_line;
                p->bol = open_bol;
                return fail(p, "unterminated string (its closing quote could not be told "
                               "from an inner quote)");
            }
            p->closed_string = true;
            *cut = true;
            break;
        }
        int c = cur(p);
        size_t cl = closer_len(p, q, p->i);
        if (cl) {
            if (q == Q_BACKTICK || closes_here(p, p->i + cl, is_key)) {
                advance_n(p, cl);
                break;
            }
            inner = true;
            int prev = p->i > open ? at(p, p->i - 1) : -1, next = at(p, p->i + cl);
            if (q == Q_DOUBLE && (prev == '=' || prev == '}' || next == '>' ||
                                  (next == '/' && at(p, p->i + 2) == '>')))
                note(p, MF_RULE_JSON_HTML_FRAGMENT, p->line, "unescaped quote in an HTML fragment escaped");
            else
                note(p, MF_RULE_JSON_INNER_QUOTE, p->line, "unescaped inner quote escaped");
            if (mf_buf_put(b, p->s + p->i, cl)) return fail(p, "out of memory");
            advance_n(p, cl);
            continue;
        }
        if (c == '\\') {
            int e = at(p, p->i + 1);
            if (e < 0) {               /* the input ended on the backslash */
                advance(p);
                continue;
            }
            const char *simple = strchr("\"\\/bfnrt", e);
            if (simple && e) {
                static const char dec[] = "\"\\/\b\f\n\r\t";
                if (mf_buf_putc(b, dec[simple - "\"\\/bfnrt"])) return fail(p, "out of memory");
                advance_n(p, 2);
                continue;
            }
            if (e == 'u') {
                int h = hex4(p, p->i + 2);
                if (h >= 0) {
                    uint32_t cp = (uint32_t)h;
                    size_t used = 6;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        int lo = (at(p, p->i + 6) == '\\' && at(p, p->i + 7) == 'u')
                                     ? hex4(p, p->i + 8) : -1;
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            return fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                        used = 12;
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                    }
                    if (put_utf8(b, cp)) return fail(p, "out of memory");
                    advance_n(p, used);
                    continue;
                }
            }
            if (e == '\'' && (q == Q_DOUBLE || q == Q_SINGLE)) {
                if (q == Q_DOUBLE)
                    note(p, MF_RULE_JSON_SINGLE_QUOTE_ESCAPE, p->line, "invalid escape \\' replaced by '");
                if (mf_buf_putc(b, '\'')) return fail(p, "out of memory");
                advance_n(p, 2);
                continue;
            }
            if (q == Q_BACKTICK && (e == '`' || e == '$')) {
                if (mf_buf_putc(b, (char)e)) return fail(p, "out of memory");
                advance_n(p, 2);
                continue;
            }
            note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "invalid escape '\\%c' kept as text (backslash escaped)",
                 e >= 0x20 && e < 0x7f ? e : '?');
            if (mf_buf_putc(b, '\\')) return fail(p, "out of memory");
            advance(p);
            continue;
        }
        if (c == '$' && q == Q_DOUBLE && at(p, p->i + 1) == '{') {
            size_t end = template_span(p, p->i + 1);
            if (end) {
                note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "quotes inside a ${...} template kept as text");
                if (mf_buf_put(b, p->s + p->i, end - p->i)) return fail(p, "out of memory");
                advance_n(p, end - p->i);
                continue;
            }
        }
        if (c < 0x20 && q != Q_BACKTICK && !ctrl) {
            ctrl = true;
            note(p, MF_RULE_JSON_CONTROL_CHAR, p->line, "literal control character%s in a string escaped",
                 c == '\n' ? " (line break)" : c == '\t' ? " (tab)" : "");
        }
        if (mf_buf_putc(b, (char)c)) return fail(p, "out of memory");
        advance(p);
    }
    return 0;
}

/* ---------------------------------------------------------------- words */

/* Value of a number token, or NULL when it is no number (p not failed). */
static json_t *number_value(jp *p, const char *s, size_t n, int line)
{
    char tok[512];
    size_t k = 0, m = 0;
    bool fixed = false;
    if (n == 0 || n >= sizeof tok - 4)
        return NULL;
    if (s[k] == '+') { k++; fixed = true; }
    else if (s[k] == '-') tok[m++] = s[k++];
    if (k < n && s[k] == '.') { tok[m++] = '0'; fixed = true; }
    else if (k >= n || s[k] < '0' || s[k] > '9') return NULL;
    if (s[k] == '0' && k + 1 < n && s[k + 1] >= '0' && s[k + 1] <= '9')
        return NULL;                       /* leading zeros: 007 may be an id */
    while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    bool real = false;
    if (k < n && s[k] == '.') {
        real = true;
        tok[m++] = s[k++];
        if (k >= n || s[k] < '0' || s[k] > '9') { tok[m++] = '0'; fixed = true; }
        while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        real = true;
        tok[m++] = s[k++];
        if (k < n && (s[k] == '+' || s[k] == '-')) tok[m++] = s[k++];
        if (k >= n || s[k] < '0' || s[k] > '9') return NULL;
        while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    }
    if (k != n)
        return NULL;
    tok[m] = '\0';
    if (fixed)
        note(p, MF_RULE_JSON_NUMBER_FORMAT, line, "number '%.*s' written as %s", (int)n, s, tok);
    json_error_t je;
    json_t *v = json_loadb(tok, m, JSON_DECODE_ANY, &je);
    if (v)
        return v;
    /* Out of jansson's range: a real when the double is exact, else the text. */
    char *end;
    double d = strtod(tok, &end);
    if (!real && d == d && d - d == 0) {
        char exact[400];
        snprintf(exact, sizeof exact, "%.0f", d);
        if (strcmp(exact, tok) == 0)
            return json_real(d);
    }
    note(p, MF_RULE_JSON_BIG_NUMBER, line, "number %s does not fit a 64-bit integer or double exactly; kept as a string",
         tok);
    return json_stringn(tok, m);
}

static bool is_literal_prefix(const char *s, size_t n)
{
    for (const char *const *l = literal_words; *l; l++)
        if (strlen(*l) > n && memcmp(*l, s, n) == 0)
            return true;
    return false;
}

/* Parse a bare word as a value. *out NULL with 0: dropped (cut by end of input). */
static int parse_word(jp *p, json_t **out)
{
    size_t start = p->i;
    int line = p->line;
    while (!at_end(p) && is_word(cur(p)))
        advance(p);
    const char *s = p->s + start;
    size_t n = p->i - start;
    bool cut = at_end(p) && p->depth > 0;
    *out = NULL;
    if (n == 0) {
        p->i = start;
        return fail(p, "expected a JSON value");
    }
    if (n == 4 && !memcmp(s, "true", 4)) { *out = json_true(); return 0; }
    if (n == 5 && !memcmp(s, "false", 5)) { *out = json_false(); return 0; }
    if (n == 4 && !memcmp(s, "null", 4)) { *out = json_null(); return 0; }
    if ((n == 4 && !memcmp(s, "True", 4)) || (n == 5 && !memcmp(s, "False", 5)) ||
        (n == 4 && !memcmp(s, "None", 4)) || (n == 9 && !memcmp(s, "undefined", 9))) {
        note(p, MF_RULE_JSON_PYTHON_LITERAL, line, "%.*s replaced by %s", (int)n, s,
             s[0] == 'T' ? "true" : s[0] == 'F' ? "false" : "null");
        *out = s[0] == 'T' ? json_true() : s[0] == 'F' ? json_false() : json_null();
        return 0;
    }
    const char *w = (s[0] == '-' || s[0] == '+') ? s + 1 : s;
    size_t wn = (size_t)(s + n - w);
    if ((wn == 3 && !memcmp(w, "NaN", 3)) || (wn == 8 && !memcmp(w, "Infinity", 8))) {
        note(p, MF_RULE_JSON_PYTHON_LITERAL, line, "%.*s has no JSON form; replaced by null", (int)n, s);
        *out = json_null();
        return 0;
    }
    if (cut && (is_literal_prefix(s, n) || strchr("+-.0123456789", s[0]))) {
        p->dropped_member = true;       /* a number or literal cut by the end of input */
        return 0;
    }
    *out = number_value(p, s, n, line);
    if (*out || p->failed)
        return *out ? 0 : -1;
    p->i = start;
    return fail(p, "expected a JSON value (unquoted text is not repaired)");
}

/* ---------------------------------------------------------------- values */

static int parse_value(jp *p, json_t **out, mf_buf *b);

static bool value_start(const jp *p)
{
    int c = cur(p);
    return c == '{' || c == '[' || c == '"' || c == '\'' || (c == '`' && p->depth > 0) ||
           is_word(c) || smart_quote(p, p->i) >= 0;
}

static int enter(jp *p)
{
    if (++p->depth > p->max_depth) {
        bool first = !p->failed;
        fail(p, "nesting deeper than %d levels (the depth cap)", p->max_depth);
        if (first)
            p->err->type = "NESTING_TOO_DEEP"; /* a cap names itself (mf_error_is_final) */
        return -1;
    }
    advance(p);
    return 0;
}

/* Parse a key at p->i into b. Returns 0 (*cut when the input ended), or -1. */
static int parse_key(jp *p, mf_buf *b, bool *cut)
{
    int c = cur(p);
    *cut = false;
    if (c == '"') return parse_string(p, Q_DOUBLE, true, b, cut);
    if (c == '\'') return parse_string(p, Q_SINGLE, true, b, cut);
    if (c == '`') return parse_string(p, Q_BACKTICK, true, b, cut);
    int sq = smart_quote(p, p->i);
    if (sq >= 0) return parse_string(p, sq, true, b, cut);
    if (is_word(c)) {
        size_t start = p->i;
        int line = p->line;
        while (!at_end(p) && is_word(cur(p)))
            advance(p);
        size_t k = p->i;
        while (k < p->n && (at(p, k) == ' ' || at(p, k) == '\t'))
            k++;
        if (at_end(p)) {
            *cut = true;
            return 0;
        }
        if (at(p, k) != ':') {
            p->i = start;
            return fail(p, "expected a quoted object key");
        }
        note(p, MF_RULE_JSON_UNQUOTED_KEY, line, "unquoted key '%.*s' quoted", (int)(p->i - start), p->s + start);
        mf_buf_reset(b);
        return mf_buf_put(b, p->s + start, p->i - start) ? fail(p, "out of memory") : 0;
    }
    return fail(p, "expected a quoted object key or '}'");
}

static int parse_object(jp *p, json_t **out, mf_buf *b)
{
    if (enter(p))
        return -1;
    json_t *obj = json_object();
    bool need_sep = false, comma = false;
    int comma_line = 0;
    for (;;) {
        skip_ws(p);
        if (at_end(p)) {
            p->closed_containers++;
            break;
        }
        int c = cur(p);
        if (c == '}') {
            if (comma)
                note(p, MF_RULE_JSON_TRAILING_COMMA, comma_line, "trailing comma before '}' removed");
            advance(p);
            break;
        }
        if (c == ',') {
            if (!need_sep)
                note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "extra comma in an object removed");
            comma = true;
            comma_line = p->line;
            need_sep = false;
            advance(p);
            continue;
        }
        if (need_sep) {
            if (c == ']' || c == ':' || !value_start(p)) {
                fail(p, "expected ',' or '}' after an object member");
                goto error;
            }
            note(p, MF_RULE_JSON_MISSING_COMMA, p->line, "missing comma between object members inserted");
        }
        bool cut;
        if (parse_key(p, b, &cut))
            goto error;
        if (cut) {
            p->dropped_member = true;
            continue;
        }
        char *key = mf_strndup(b->s ? b->s : "", b->len);
        size_t keylen = b->len;
        if (!key) {
            fail(p, "out of memory");
            goto error;
        }
        skip_ws(p);
        if (at_end(p)) {
            free(key);
            p->dropped_member = true;
            continue;
        }
        if (cur(p) != ':') {
            free(key);
            fail(p, "expected ':' after an object key");
            goto error;
        }
        advance(p);
        skip_ws(p);
        if (at_end(p)) {
            free(key);
            p->dropped_member = true;
            continue;
        }
        if (cur(p) == ',' || cur(p) == '}') {
            free(key);
            fail(p, "expected a value after ':'");
            goto error;
        }
        if (memchr(key, '\0', keylen)) {
            /* the value tree's keys are C strings: a NUL would cut the key
             * silently downstream, so it is a rejection, as in jansson */
            free(key);
            fail(p, "object key contains U+0000 (NUL), which malform does not carry");
            goto error;
        }
        json_t *v;
        if (parse_value(p, &v, b)) {
            free(key);
            goto error;
        }
        if (v && json_object_setn_new(obj, key, keylen, v)) {
            free(key);
            fail(p, "object key is not valid UTF-8");
            goto error;
        }
        free(key);
        need_sep = true;
        comma = false;
    }
    p->depth--;
    *out = obj;
    return 0;
error:
    json_decref(obj);
    return -1;
}

static int parse_array(jp *p, json_t **out, mf_buf *b)
{
    if (enter(p))
        return -1;
    json_t *arr = json_array();
    bool need_sep = false, comma = false;
    int comma_line = 0;
    for (;;) {
        skip_ws(p);
        if (at_end(p)) {
            p->closed_containers++;
            break;
        }
        int c = cur(p);
        if (c == ']') {
            if (comma)
                note(p, MF_RULE_JSON_TRAILING_COMMA, comma_line, "trailing comma before ']' removed");
            advance(p);
            break;
        }
        if (c == ',') {
            if (!need_sep)
                note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "extra comma in an array removed");
            comma = true;
            comma_line = p->line;
            need_sep = false;
            advance(p);
            continue;
        }
        if (need_sep) {
            if (!value_start(p)) {
                fail(p, "expected ',' or ']' after an array element");
                goto error;
            }
            note(p, MF_RULE_JSON_MISSING_COMMA, p->line, "missing comma between array elements inserted");
        }
        json_t *v;
        if (parse_value(p, &v, b))
            goto error;
        if (v)
            json_array_append_new(arr, v);
        need_sep = true;
        comma = false;
    }
    p->depth--;
    *out = arr;
    return 0;
error:
    json_decref(arr);
    return -1;
}

/* Parse one value at p->i. 0 with *out (NULL: dropped because cut), or -1. */
static int parse_value(jp *p, json_t **out, mf_buf *b)
{
    *out = NULL;
    int c = cur(p);
    if (c == '{') return parse_object(p, out, b);
    if (c == '[') return parse_array(p, out, b);
    int q = c == '"' ? Q_DOUBLE : c == '\'' ? Q_SINGLE : smart_quote(p, p->i);
    if (c == '`' && p->depth > 0 && at(p, p->i + 1) != '`')
        q = Q_BACKTICK;
    if (q >= 0) {
        size_t start = p->i;
        int line = p->line;
        size_t bol = p->bol;
        bool cut;
        if (parse_string(p, q, false, b, &cut))
            return -1;
        *out = json_stringn(b->s ? b->s : "", b->len);
        if (!*out) {
            p->i = start;
            p->line = line;
            p->bol = bol;
            return fail(p, "string is not valid UTF-8");
        }
        return 0;
    }
    if (is_word(c))
        return parse_word(p, out);
    return fail(p, "expected a JSON value");
}

/* --------------------------------------------------------------- top level */

static int push_top(mf_json_tops *t, json_t *v, size_t start, size_t end, int line)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4;
        mf_json_top *it = realloc(t->items, cap * sizeof *it);
        if (!it)
            return -1;
        t->items = it;
        t->cap = cap;
    }
    t->items[t->count++] = (mf_json_top){v, start, end, line};
    return 0;
}

void mf_json_tops_free(mf_json_tops *t)
{
    for (size_t k = 0; k < t->count; k++)
        json_decref(t->items[k].value);
    free(t->items);
    memset(t, 0, sizeof *t);
}

int mf_json_scan(const char *text, size_t len, int max_depth, mf_json_tops *out,
                 mf_warnings *w, mf_error *err)
{
    jp p = {.s = text, .n = len, .line = 1, .max_depth = max_depth, .w = w, .err = err};
    mf_buf b = {0};
    memset(out, 0, sizeof *out);
    skip_ws(&p);
    if (at_end(&p)) {
        fail(&p, "expected a JSON value");
        goto error;
    }
    while (!at_end(&p)) {
        size_t start = p.i;
        int line = p.line;
        json_t *v;
        if (parse_value(&p, &v, &b))
            goto error;
        if (v && push_top(out, v, start, p.i, line)) {
            json_decref(v);
            fail(&p, "out of memory");
            goto error;
        }
        skip_ws(&p);
        if (cur(&p) == ',') {
            int line = p.line;
            advance(&p);
            skip_ws(&p);
            if (at_end(&p))
                note(&p, MF_RULE_JSON_TRAILING_COMMA, line, "trailing comma after the JSON value removed");
        } else if (!at_end(&p) && !value_start(&p)) {
            fail(&p, "expected the end of the JSON value");
            goto error;
        }
    }
    if (out->count == 0) {
        fail(&p, "expected a complete JSON value");
        goto error;
    }
    if (p.closed_containers || p.closed_string || p.dropped_member) {
        note(&p, MF_RULE_JSON_TRUNCATED, p.line, "input ended early: closed %d open container(s)%s%s",
             p.closed_containers, p.closed_string ? " and an open string or comment" : "",
             p.dropped_member ? "; dropped an incomplete member" : "");
    }
    for (int r = 0; r < MF_RULE_COUNT; r++)
        if (p.counts[r] > WARN_CAP)
            mf_warnings_add(w, mf_rules[r].id, p.count_line[r],
                            "%u more places repaired by this rule", p.counts[r] - WARN_CAP);
    mf_buf_free(&b);
    return 0;
error:
    mf_buf_free(&b);
    mf_json_tops_free(out);
    return -1;
}
