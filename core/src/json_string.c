/* json_string.c - JSON strings for the tolerant scanner, and the decision the
 * whole repair depends on: which quote closes a string.
 *
 * A double quote inside a string is the closing quote only when what follows it looks like JSON structure: end of input,
 * `}` or `]`, `:` for a key, `,` followed by a key, a value or a closer, or
 * whitespace followed by a quote, bracket or comment (a missing comma).
 * Unicode spaces (NBSP, ...) count as whitespace in these lookaheads, as they
 * do between tokens: a NBSP after the comma that ends a member must not make
 * its closing quote an inner one. Otherwise it is an unescaped inner
 * quote and stays text. The same test closes single-quoted and smart-quoted strings. `${...}` on one line is kept
 * whole (quotes inside it are text). Literal control characters stay in the
 * value (the canonical output escapes them); invalid escapes keep their
 * backslash. Every lookahead only crosses text up to the next quote (or a
 * fixed 256 bytes for `${`), so the scan is linear in the input. */
#include <string.h>
#include "json_lex.h"

#define TPL_LOOKAHEAD 256  /* bytes searched for the `}` closing a `${` */

/* After a comma at k-1: does structure (a key, a value, a closer) follow? */
static bool structure_after_comma(const jp *p, size_t k)
{
    k = jl_past_spaces(p, k);
    if ((at(p, k) == ':' || at(p, k) == ';') && is_ws(at(p, k + 1)))
        k = jl_past_spaces(p, k + 1);   /* a stray ':' or ';' after the comma (",: ") */
    int c = at(p, k);
    if (c < 0 || (c && strchr("\"'{[]},-#`", c)) || (c >= '0' && c <= '9') || jl_smart_quote(p, k) >= 0)
        return true;
    if (c == '/')
        return at(p, k + 1) == '/' || at(p, k + 1) == '*';
    if (jl_placeholder_at(p, k))
        return true;
    size_t w = k;
    while (w < p->n && jl_is_word(at(p, w)) && at(p, w) != '.' && at(p, w) != '+')
        w++;
    if (w == k)
        return false;
    if (jl_word_is_literal(p->s + k, w - k))
        return true;
    while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
        w++;
    return at(p, w) == ':';
}

/* Is the quote that ends just before k a closing quote? */
static bool closes_here(const jp *p, size_t k, bool is_key)
{
    size_t j = jl_past_spaces(p, k);
    if (j >= p->n)
        return true;
    int c = at(p, j);
    bool spaced = j > k;
    switch (c) {
    case '}': case ']':
        return true;
    case ')':
        return p->tuple_depth > 0;
    case ':':
        return is_key;
    case ',':
        return structure_after_comma(p, j + 1);
    case '"': case '{': case '[': case '#':
        return spaced;
    case '/':
        return at(p, j + 1) == '/' || at(p, j + 1) == '*';
    case '+': {                        /* "a" + "b": string concatenation */
        size_t m = jl_past_spaces(p, j + 1);
        return !is_key && (at(p, m) == '"' || at(p, m) == '\'' || jl_smart_quote(p, m) >= 0);
    }
    default:
        if (spaced && is_key && ((c >= '0' && c <= '9') || c == '-' || c == '\'')) /* {"a" 1}: a missing ':' */
            return true;
        if (spaced && is_key && jl_is_word(c)) {
            size_t w = j;
            while (w < p->n && jl_is_word(at(p, w)))
                w++;
            if (jl_word_is_literal(p->s + j, w - j))
                return true;
        }
        return spaced && jl_smart_quote(p, j) >= 0;
    }
}


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
    case Q_SMART_DOUBLE: return jl_smart_quote(p, k) == Q_SMART_DOUBLE ? 3 : 0;
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


#define KEY_LOOKAHEAD 256  /* bytes searched for the end of a key after a missing quote */

/* Does b hold a letter, digit or non-ASCII byte? */
static bool has_word(const mf_buf *b)
{
    for (size_t k = 0; k < b->len; k++) {
        unsigned char c = (unsigned char)b->s[k];
        if (c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
            return true;
    }
    return false;
}

bool jl_key_at(const jp *p, size_t k)
{
    size_t lim = k + KEY_LOOKAHEAD < p->n ? k + KEY_LOOKAHEAD : p->n;
    for (size_t j = k + 1; j < lim; j++) {
        int c = at(p, j);
        if (c == '\n' || c == '\r')
            return false;
        if (c == '\\') {
            j++;
            continue;
        }
        if (c == '"') {
            size_t m = j + 1;
            while (m < p->n && (at(p, m) == ' ' || at(p, m) == '\t'))
                m++;
            return j > k + 1 && at(p, m) == ':';
        }
    }
    return false;
}

static bool blank_at(const jp *p, size_t k)
{
    int c = at(p, k);
    return c == ' ' || c == '\t' || c == '\r';
}

/* A value string whose content starts at content has reached, at k, the
 * opening quote of a key. When the text before k is a member separator
 * (`, "key":`, a line break then `"key":`, or closers then `, {"key":`) the
 * string's closing quote is missing: return where the string ends (before
 * the separator or the closers), else 0. Closers are kept out of the string
 * only when it holds no opening bracket they could close. */
static size_t missing_quote_end(const jp *p, size_t content, size_t k)
{
    if (!jl_key_at(p, k))
        return 0;
    size_t j = k;
    while (j > content && blank_at(p, j - 1))
        j--;
    if (j <= content)
        return 0;
    int c = at(p, j - 1);
    if (c == '{') {                     /* }, {"key": in an array of objects */
        j--;
        while (j > content && is_ws(at(p, j - 1)))
            j--;
        if (j <= content || at(p, j - 1) != ',')
            return 0;
        j--;
    } else if (c == '\n') {
        while (j > content && is_ws(at(p, j - 1)))
            j--;
        if (j > content && at(p, j - 1) == ',')
            j--;
        else if (j > content && at(p, j - 1) != '}' && at(p, j - 1) != ']')
            return j;
    } else if (c == ',') {
        j--;
    } else {
        return 0;
    }
    size_t end = j, first = j;
    for (size_t m = j; m > content && (is_ws(at(p, m - 1)) || at(p, m - 1) == '}' || at(p, m - 1) == ']'); m--)
        if (!is_ws(at(p, m - 1)))
            first = m - 1;
    if (c == '{' && first == end)
        return 0;                       /* `, {` without a closer before it */
    if (first < end) {
        for (size_t m = content; m < first; m++)
            if (at(p, m) == '{' || at(p, m) == '[')
                return c == '{' ? 0 : end;
        while (first > content && is_ws(at(p, first - 1)))
            first--;
        return first > content ? first : 0;
    }
    return end;
}

/* Move the cursor back to offset to (within the string opened on the line
 * starting at open_bol), keeping line and bol right without rescanning the
 * line: linear however many strings one long line holds. */
static void rewind_to(jp *p, size_t to, size_t content, size_t open_bol)
{
    for (size_t m = to; m < p->i; m++)
        if (p->s[m] == '\n')
            p->line--;
    p->i = to;
    size_t k = to;
    while (k > content && p->s[k - 1] != '\n')
        k--;
    p->bol = k > content ? k : open_bol;
}

/* Parse a string whose opening delimiter (kind q) is at p->i into b.
 * Returns 0 (sets *cut when the input ended inside it), or -1. */
/* A byte inside a string that is neither a closer (quotes, backtick, the
 * first byte of a smart quote), an escape, a template start nor a control
 * character: the loop below copies it as it is. */
static inline bool plain_byte(unsigned c)
{
    return c >= 0x20 && c != '"' && c != '\'' && c != '`' && c != '\\' && c != '$' && c != 0xE2;
}

int jl_parse_string(jp *p, int q, bool is_key, mf_buf *b, bool *cut)
{
    size_t open = p->i;
    int open_line = p->line;
    size_t open_bol = p->bol;
    bool inner = false;
    size_t ctrl_at = SIZE_MAX;         /* first literal control character */
    int ctrl_line = 0, ctrl_c = 0;
    *cut = false;
    mf_buf_reset(b);
    if (q == Q_SINGLE)
        jl_note(p, MF_RULE_JSON_SINGLE_QUOTES, p->line, "single-quoted %s converted to a JSON string",
             is_key ? "key" : "string");
    else if (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE)
        jl_note(p, MF_RULE_JSON_SMART_QUOTES, p->line, "smart quotes used as string delimiters");
    else if (q == Q_BACKTICK)
        jl_note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "backtick template literal converted to a JSON string");
    jl_advance_n(p, (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE) ? 3 : 1);
    size_t content = p->i;

    for (;;) {
        if (at_end(p)) {
            if (inner) {
                p->i = open;
                p->line = open_line;
                p->bol = open_bol;
                return jl_fail(p, "unterminated string (its closing quote could not be told "
                               "from an inner quote)");
            }
            p->closed_string = true;
            *cut = true;
            size_t tail = b->len > 24 ? 24 : b->len;
            while (tail < b->len && tail > 0 && ((unsigned char)b->s[b->len - tail] & 0xC0) == 0x80)
                tail--;
            if (!is_key)
                jl_cut(p, "kept the string cut at line %d as it was (ends \"%s%.*s\")", p->line,
                       tail < b->len ? "..." : "", (int)tail, b->s ? b->s + b->len - tail : "");
            break;
        }
        size_t run = p->i; /* bytes no branch below treats specially: copied at once */
        while (run < p->n && plain_byte((unsigned char)p->s[run]))
            run++;
        if (run > p->i) {
            if (mf_buf_put(b, p->s + p->i, run - p->i)) return jl_fail(p, "out of memory");
            p->i = run;
            continue;
        }
        int c = cur(p);
        size_t cl = closer_len(p, q, p->i);
        if (cl) {
            if (q == Q_BACKTICK || closes_here(p, p->i + cl, is_key)) {
                jl_advance_n(p, cl);
                break;
            }
            size_t end;
            if (!inner && !is_key && q != Q_BACKTICK && (end = missing_quote_end(p, content, p->i))) {
                int at_line = p->line;
                size_t dropped = p->i - end;   /* separator bytes, copied 1:1 into b */
                b->len = b->len > dropped ? b->len - dropped : 0;
                rewind_to(p, end, content, open_bol);
                jl_note(p, MF_RULE_JSON_MISSING_QUOTE, open_line,
                        "string opened at line %d had no closing quote; ended it where the key at "
                        "line %d starts", open_line, at_line);
                break;
            }
            if (is_key && !has_word(b)) {
                p->i = open, p->line = open_line, p->bol = open_bol;
                return jl_fail(p, "a key of only punctuation before an unescaped quote (a stray quote?) "
                                  "is not repaired: it would invent a key");
            }
            inner = true;
            int prev = p->i > open ? at(p, p->i - 1) : -1, next = at(p, p->i + cl);
            if (q == Q_DOUBLE && (prev == '=' || prev == '}' || next == '>' ||
                                  (next == '/' && at(p, p->i + 2) == '>')))
                jl_note(p, MF_RULE_JSON_HTML_FRAGMENT, p->line, "unescaped quote in an HTML fragment escaped");
            else
                jl_note(p, MF_RULE_JSON_INNER_QUOTE, p->line, "unescaped inner quote escaped");
            if (mf_buf_put(b, p->s + p->i, cl)) return jl_fail(p, "out of memory");
            jl_advance_n(p, cl);
            continue;
        }
        if (c == '\\') {
            int e = at(p, p->i + 1);
            if (e < 0) {               /* the input ended on the backslash */
                jl_advance(p);
                continue;
            }
            const char *simple = strchr("\"\\/bfnrt", e);
            if (simple && e) {
                static const char dec[] = "\"\\/\b\f\n\r\t";
                if (mf_buf_putc(b, dec[simple - "\"\\/bfnrt"])) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
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
                            return jl_fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                        used = 12;
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return jl_fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                    }
                    if (put_utf8(b, cp)) return jl_fail(p, "out of memory");
                    jl_advance_n(p, used);
                    continue;
                }
            }
            if (e == '\'' && (q == Q_DOUBLE || q == Q_SINGLE)) {
                if (q == Q_DOUBLE)
                    jl_note(p, MF_RULE_JSON_SINGLE_QUOTE_ESCAPE, p->line, "invalid escape \\' replaced by '");
                if (mf_buf_putc(b, '\'')) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
                continue;
            }
            if (q == Q_BACKTICK && (e == '`' || e == '$')) {
                if (mf_buf_putc(b, (char)e)) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
                continue;
            }
            jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "invalid escape '\\%c' kept as text (backslash escaped)",
                 e >= 0x20 && e < 0x7f ? e : '?');
            if (mf_buf_putc(b, '\\')) return jl_fail(p, "out of memory");
            jl_advance(p);
            continue;
        }
        if (c == '$' && q == Q_DOUBLE && at(p, p->i + 1) == '{') {
            size_t end = template_span(p, p->i + 1);
            if (end) {
                jl_note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "quotes inside a ${...} template kept as text");
                if (mf_buf_put(b, p->s + p->i, end - p->i)) return jl_fail(p, "out of memory");
                jl_advance_n(p, end - p->i);
                continue;
            }
        }
        if (c < 0x20 && q != Q_BACKTICK && ctrl_at == SIZE_MAX) {
            ctrl_at = p->i;
            ctrl_line = p->line;
            ctrl_c = c;
        }
        if (mf_buf_putc(b, (char)c)) return jl_fail(p, "out of memory");
        jl_advance(p);
    }
    if (ctrl_at < p->i)
        jl_note(p, MF_RULE_JSON_CONTROL_CHAR, ctrl_line, "literal control character%s in a string escaped",
                ctrl_c == '\n' ? " (line break)" : ctrl_c == '\t' ? " (tab)" : "");
    return 0;
}

