/* json_lex.c - the tolerant JSON scanner's cursor: moving through the text
 * with line numbers, recording repairs (warnings) and the first unrepairable
 * problem (JSON_SYNTAX_ERROR with line and column), and skipping whitespace,
 * Unicode spaces and comments between tokens. */
#include <stdarg.h>
#include <ctype.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "json_lex.h"

const unsigned char jl_byte_class[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 0, 0, 4, 2, 0, 0, 0, 0, 0, 0, 2, 0, 2, 2, 4,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0,
    0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 4, 0, 0, 2,
    4, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 12, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 12,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};


/* Append the decimal digits of v (negative: with '-') to out at *k, within cap. */
static void put_decimal(char *out, size_t cap, size_t *k, unsigned long long v, bool neg)
{
    char d[24];
    int n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    if (neg)
        d[n++] = '-';
    while (n > 0 && *k + 1 < cap)
        out[(*k)++] = d[--n];
}

/* vsnprintf into out[cap] for the conversions the scanner's notes use (%s,
 * %.Ns, %.*s, %c, %d, %u, %zu, %llu, %%), with the same output and the same
 * truncation; 0, or -1 at any other conversion (the caller then formats with
 * vsnprintf). A note costs a fraction of the C library's formatting. */
static int note_format(char *out, size_t cap, const char *fmt, va_list ap)
{
    size_t k = 0;
    for (const char *f = fmt;; f++) {
        const char *pct = strchr(f, '%');
        size_t lit = pct ? (size_t)(pct - f) : strlen(f), room = cap - 1 - k;
        memcpy(out + k, f, lit < room ? lit : room);
        k += lit < room ? lit : room;
        if (!pct)
            break;
        f = pct + 1;
        long prec = -1;
        if (*f == '.') {
            f++;
            if (*f == '*') {
                int x = va_arg(ap, int);
                prec = x < 0 ? -1 : x;
                f++;
            } else {
                for (prec = 0; *f >= '0' && *f <= '9'; f++)
                    prec = prec * 10 + (*f - '0');
            }
        }
        if (*f == 's') {
            const char *a = va_arg(ap, const char *);
            if (!a)
                a = prec < 0 || prec >= 6 ? "(null)" : "";
            for (long m = 0; a[m] && (prec < 0 || m < prec); m++)
                if (k + 1 < cap)
                    out[k++] = a[m];
        } else if (prec >= 0) {
            return -1;
        } else if (*f == 'c') {
            char c = (char)va_arg(ap, int);
            if (k + 1 < cap)
                out[k++] = c;
        } else if (*f == 'd') {
            int v = va_arg(ap, int);
            put_decimal(out, cap, &k, v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v, v < 0);
        } else if (*f == 'u') {
            put_decimal(out, cap, &k, va_arg(ap, unsigned), false);
        } else if (f[0] == 'z' && f[1] == 'u') {
            put_decimal(out, cap, &k, va_arg(ap, size_t), false);
            f++;
        } else if (f[0] == 'l' && f[1] == 'l' && f[2] == 'u') {
            put_decimal(out, cap, &k, va_arg(ap, unsigned long long), false);
            f += 2;
        } else if (*f == '%') {
            if (k + 1 < cap)
                out[k++] = '%';
        } else {
            return -1;
        }
    }
    out[k] = '\0';
    return 0;
}

/* Add the warning (rule id, line, formatted message of at most 255 bytes). */
static void add_note(jp *p, const char *rule, int line, const char *fmt, va_list ap)
{
    char msg[256];
    va_list again;
    va_copy(again, ap);
    if (note_format(msg, sizeof msg, fmt, ap))
        vsnprintf(msg, sizeof msg, fmt, again);
    va_end(again);
    mf_warnings_add_text(p->w, rule, line, msg);
}

void jl_note(jp *p, int rule, int line, const char *fmt, ...)
{
    if (++p->counts[rule] > WARN_CAP) {
        p->over_cap = true;
        return;
    }
    if (p->counts[rule] == 1)
        p->count_line[rule] = line;
    va_list ap;
    va_start(ap, fmt);
    add_note(p, mf_rules[rule].id, line, fmt, ap);
    va_end(ap);
}

static void note_more(jp *p, int rule, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_more(jp *p, int rule, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_note(p, mf_rules[rule].id, p->count_line[rule], fmt, ap);
    va_end(ap);
}

void jl_note_overflow(jp *p)
{
    for (int r = 0; p->over_cap && r < MF_RULE_COUNT; r++)
        if (p->counts[r] > WARN_CAP)
            note_more(p, r, "%u more places repaired by this rule", p->counts[r] - WARN_CAP);
}

static int jl_column_at(const jp *p, size_t bol, size_t at)
{
    int col = 1;
    for (size_t k = bol; k < at && k < p->n; k++)
        if (((unsigned char)p->s[k] & 0xC0) != 0x80)
            col++;
    return col;
}

static void jl_describe(const jp *p, size_t at, char *out, size_t outlen)
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

void jl_cut(jp *p, const char *fmt, ...)
{
    if (p->cut_what[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->cut_what, sizeof p->cut_what, fmt, ap);
    va_end(ap);
}

int jl_fail(jp *p, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = true;
    char msg[256], found[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jl_describe(p, p->i, found, sizeof found);
    mf_error_set(p->err, 1, "JSON_SYNTAX_ERROR", "", p->line, jl_column_at(p, p->bol, p->i),
                 "%s, found %s", msg, found);
    return -1;
}


void jl_advance_far(jp *p, size_t k)
{
    if (p->i >= p->n)
        return;
    size_t e = k < p->n - p->i ? p->i + k : p->n;
    for (const char *nl; p->i < e && (nl = memchr(p->s + p->i, '\n', e - p->i));) {
        p->line++;
        p->i = (size_t)(nl - p->s) + 1;
        p->bol = p->i;
    }
    p->i = e;
}

size_t jl_find_any4(const jp *p, size_t k, size_t lim, unsigned char a, unsigned char b, unsigned char c,
                    unsigned char d)
{
    const unsigned char *s = (const unsigned char *)p->s;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    const __m128i vc = _mm_set1_epi8((char)c), vd = _mm_set1_epi8((char)d);
    while (k < lim && lim - k >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + k));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, va), _mm_cmpeq_epi8(x, vb)),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, vc), _mm_cmpeq_epi8(x, vd)));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m)
            return k + (size_t)__builtin_ctz(m);
        k += 16;
    }
#endif
    while (k < lim && s[k] != a && s[k] != b && s[k] != c && s[k] != d)
        k++;
    return k < lim ? k : lim;
}

/* Stop-byte tables for the run's byte-by-byte tail: control bytes, '\\',
 * and per quote kind the bytes jl_string_run names. */
#define CTRL_STOPS                                                                                  \
    [0] = 1, [1] = 1, [2] = 1, [3] = 1, [4] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1,      \
    [10] = 1, [11] = 1, [12] = 1, [13] = 1, [14] = 1, [15] = 1, [16] = 1, [17] = 1, [18] = 1,      \
    [19] = 1, [20] = 1, [21] = 1, [22] = 1, [23] = 1, [24] = 1, [25] = 1, [26] = 1, [27] = 1,      \
    [28] = 1, [29] = 1, [30] = 1, [31] = 1, ['\\'] = 1
static const unsigned char stops_double[256] = {CTRL_STOPS, ['"'] = 1, ['$'] = 1, ['\''] = 1, ['`'] = 1, [0xE2] = 1};
static const unsigned char stops_single[256] = {CTRL_STOPS, ['\''] = 1, ['"'] = 1};
static const unsigned char stops_backtick[256] = {CTRL_STOPS, ['`'] = 1, [0xC2] = 1};
static const unsigned char stops_smart[256] = {CTRL_STOPS, [0xE2] = 1, ['"'] = 1, ['\''] = 1, ['`'] = 1};

static inline bool word_byte(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* Is the stop at k one no decision can take for a string of kind q: an
 * apostrophe or backtick between two letters or digits (`it's`: neither a
 * separator before it nor a ':' after it), or in a "..." or '...' string a
 * 0xE2 that does not start a left double quote (`—`, `’`, `…`)? */
static inline bool inert_stop(const unsigned char *s, size_t k, size_t n, int q)
{
    unsigned char c = s[k];
    if (c == 0xE2 && q == Q_DOUBLE)
        return !(k + 2 < n && s[k + 1] == 0x80 && s[k + 2] == 0x9C);
    if ((c == '\'' && q != Q_SINGLE) || c == '`')
        return k > 0 && k + 1 < n && word_byte(s[k - 1]) && word_byte(s[k + 1]) && q != Q_BACKTICK;
    return false;
}

/* The run for stop bytes quote, '\\', o1..o4 and control bytes (the same
 * bytes as the table stop); inlined with constants per kind, so the stop
 * vectors are no per-call work. */
static inline __attribute__((always_inline)) size_t
run_until(const unsigned char *s, size_t k, size_t n, int q, const unsigned char *stop, unsigned char quote,
          unsigned char o1, unsigned char o2, unsigned char o3, unsigned char o4)
{
#if defined(__SSE2__)
    const __m128i vq = _mm_set1_epi8((char)quote), vb = _mm_set1_epi8('\\');
    const __m128i v1 = _mm_set1_epi8((char)o1), v2 = _mm_set1_epi8((char)o2);
    const __m128i v3 = _mm_set1_epi8((char)o3), v4 = _mm_set1_epi8((char)o4), v1f = _mm_set1_epi8(0x1F);
    while (k < n && n - k >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(s + k));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, vq), _mm_cmpeq_epi8(x, vb)),
                                   _mm_or_si128(_mm_cmpeq_epi8(x, v1), _mm_cmpeq_epi8(_mm_max_epu8(x, v1f), v1f)));
        hit = _mm_or_si128(hit, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, v2), _mm_cmpeq_epi8(x, v3)),
                                             _mm_cmpeq_epi8(x, v4)));
        for (unsigned m = (unsigned)_mm_movemask_epi8(hit); m; m &= m - 1)
            if (!inert_stop(s, k + (size_t)__builtin_ctz(m), n, q))
                return k + (size_t)__builtin_ctz(m);
        k += 16;
    }
#else
    (void)quote, (void)o1, (void)o2, (void)o3, (void)o4;
#endif
    while (k < n && (!stop[s[k]] || inert_stop(s, k, n, q)))
        k++;
    return k;
}

/* The bytes a run of string text stops at, for a string of delimiter kind q:
 * its closing quote's (first) byte, '\\', control bytes (<= 0x1F), the
 * opening bytes of the other quote kinds ('"', '\'', '`', 0xE2 for smart
 * quotes: a key in another quote style after a missing closing quote; in a
 * '...' string only '"'), and '$' in a double-quoted string (a `${`
 * template), 0xC2 in a backtick string (the acute accent that closes `a´). These are the bytes jl_parse_string's
 * loop decides on for that kind; a new decision on another byte must add it
 * here, in both the SIMD bytes and the kind's table (test_json_lex compares
 * the runs with the byte-by-byte scan on the fixtures and mutations of them). */
size_t jl_string_run(const jp *p, size_t k, int q)
{
    const unsigned char *s = (const unsigned char *)p->s;
    if (p->flags & MF_JSON_SCAN_BYTEWISE)
        return k;
    switch (q) {
    case Q_DOUBLE: return run_until(s, k, p->n, Q_DOUBLE, stops_double, '"', '$', '\'', '`', 0xE2);
    case Q_SINGLE: return run_until(s, k, p->n, Q_SINGLE, stops_single, '\'', '"', '"', '"', '"');
    case Q_BACKTICK: return run_until(s, k, p->n, Q_BACKTICK, stops_backtick, '`', 0xC2, 0xC2, 0xC2, 0xC2);
    default: return run_until(s, k, p->n, q, stops_smart, 0xE2, '"', '\'', '`', '`'); /* smart quotes */
    }
}

/* Does the line comment [a, e) hold JSON structure: a key (`"k":`) or a
 * closer? After a token on the same line such a comment may have swallowed
 * members (`"n": 3 // default 5, "t": 30}`). *closer: offset of its first
 * closer ('}' or ']'), e when none; *key_before: a key stands before it. */
static bool comment_structure(const jp *p, size_t a, size_t e, size_t *closer, bool *key_before)
{
    *closer = e;
    *key_before = false;
    bool key = false;
    for (size_t j = a; j < e; j++) {
        int c = at(p, j);
        if ((c == '}' || c == ']') && *closer == e) {
            *closer = j;
            *key_before = key;
        }
        if (c != ':')
            continue;
        size_t k = j;
        while (k > a && (at(p, k - 1) == ' ' || at(p, k - 1) == '\t'))
            k--;
        if (k > a && (at(p, k - 1) == '"' || at(p, k - 1) == '\''))
            key = true;
    }
    if (*closer == e)
        *key_before = key;
    return key || *closer < e;
}

/* Skip a line comment ('#' or '//') at the cursor. A comment after a token
 * on its line that holds JSON structure is a commented-out member when the
 * document goes on below it: removed, the warning quotes it. On the last line
 * it has swallowed the document's end: a comment without a key before its
 * first closer ends there (`"v" // note }, "k": 1}`), else it is rejected. */
static int skip_line_comment(jp *p)
{
    size_t a = p->i, e = a;
    bool escaped_lines = p->counts[MF_RULE_JSON_ESCAPED_JSON] > 0;   /* `\n` between tokens: a line break */
    bool quoted = false;                /* inside a "..." of the comment text: its `\n` is text */
    while (e < p->n && p->s[e] != '\n' && !(escaped_lines && !quoted && p->s[e] == '\\' && at(p, e + 1) == 'n')) {
        quoted ^= p->s[e] == '"';
        e += escaped_lines && p->s[e] == '\\' ? 2 : 1;
    }
    if (e > p->n)
        e = p->n;
    bool trailing = false;
    for (size_t k = p->bol; k < a && !trailing; k++)
        trailing = !is_ws(at(p, k));
    size_t body = a + (cur(p) == '#' ? 1 : 2), closer;
    bool key_before;
    const char *what = "comment removed";
    if (trailing && comment_structure(p, body, e, &closer, &key_before)) {
        if (jl_past_spaces(p, e) < p->n) {
            what = "comment holding JSON structure removed (a commented-out member?)";
        } else if (closer < e && !key_before) {
            e = closer;
            what = "comment ended before the closer it ran into";
        } else {
            return jl_fail(p, "a comment after a value holds JSON structure (a key or a closer) on the "
                              "last line: it may hide members, so it is not removed");
        }
    }
    size_t shown = e - a > 100 ? 100 : e - a;
    while (shown > 0 && shown < e - a && ((unsigned char)p->s[a + shown] & 0xC0) == 0x80)
        shown--;
    jl_note(p, MF_RULE_JSON_COMMENT, p->line, "%s: %.*s%s", what, (int)shown, p->s + a, shown < e - a ? "..." : "");
    jl_advance_n(p, e - a);
    return 0;
}

/* A run of 3 or more backticks at the cursor, then only whitespace: a
 * closing code fence after JSON whose containers are still open. */
static bool closing_fence_ends_input(const jp *p)
{
    size_t k = p->i;
    while (k < p->n && at(p, k) == '`')
        k++;
    return k - p->i >= 3 && jl_past_spaces(p, k) >= p->n;
}

/* A '#' where a member value belongs (after ':') that starts one word
 * running to ',', '}', ']' or the line end (`"color": #ff0000,`): a value
 * (json.bare-word), not a comment. */
static bool hash_value_at(const jp *p)
{
    size_t b = p->i;
    while (b > 0 && (at(p, b - 1) == ' ' || at(p, b - 1) == '\t'))
        b--;
    if (b == 0 || at(p, b - 1) != ':' || !isalnum(at(p, p->i + 1)))
        return false;
    size_t e = p->i + 1;
    while (e < p->n && (isalnum(at(p, e)) || at(p, e) == '_' || at(p, e) == '-'))
        e++;
    while (e < p->n && (at(p, e) == ' ' || at(p, e) == '\t' || at(p, e) == '\r'))
        e++;
    return e >= p->n || strchr(",}]\n", at(p, e));
}

/* The loop of jl_skip_ws (json_lex.h). */
int jl_skip_ws_from(jp *p)
{
    for (;;) {
        size_t i = p->i;
        while (i < p->n && (jl_byte_class[(unsigned char)p->s[i]] & JL_WS)) {
            if (p->s[i++] == '\n') {
                p->line++;
                p->bol = i;
            }
        }
        p->i = i;
        int c = cur(p);
        if (c < 0 || !(jl_byte_class[c] & JL_SKIP))
            return 0;                   /* a token: the common way out */
        size_t us = jl_unicode_space(p, p->i);
        if (us) {
            jl_note(p, MF_RULE_JSON_UNICODE_SPACE, p->line, "Unicode space character between tokens removed");
            jl_advance_n(p, us);
            continue;
        }
        if (c == '\\' && (at(p, p->i + 1) == 'n' || at(p, p->i + 1) == 'r' || at(p, p->i + 1) == 't')) {
            jl_note(p, MF_RULE_JSON_ESCAPED_JSON, p->line, "escaped whitespace '\\%c' between tokens read as whitespace",
                    at(p, p->i + 1));
            jl_advance_n(p, 2);
            continue;
        }
        if (c == '`' && p->depth > 0 && closing_fence_ends_input(p)) {
            jl_note(p, MF_RULE_JSON_TRUNCATED, p->line, "closing code fence after the unclosed JSON removed");
            jl_advance_n(p, p->n - p->i);
            continue;
        }
        if (c == '#' && hash_value_at(p))
            return 0;
        if (c == '#' || (c == '/' && at(p, p->i + 1) == '/')) {
            if (skip_line_comment(p))
                return -1;
            continue;
        }
        if (c == '/' && at(p, p->i + 1) == '*') {
            size_t a = p->i, e = a + 2;
            while (e < p->n && !(p->s[e] == '*' && e + 1 < p->n && p->s[e + 1] == '/') && e - a < 64)
                e++;
            size_t shown = e - a;
            while (shown > 0 && shown < (size_t)(p->n - a) && ((unsigned char)p->s[a + shown] & 0xC0) == 0x80)
                shown--;                /* do not cut a UTF-8 sequence */
            jl_note(p, MF_RULE_JSON_COMMENT, p->line, "comment removed: %.*s%s", (int)shown, p->s + a,
                    e - a >= 64 ? "..." : " */");
            jl_advance_n(p, 2);
            while (!at_end(p) && !(cur(p) == '*' && at(p, p->i + 1) == '/'))
                jl_advance(p);
            if (at_end(p))
                p->closed_string = true;   /* an unterminated comment is a truncation */
            else
                jl_advance_n(p, 2);
            continue;
        }
        return 0;
    }
}

/* Offset of the first byte at or after k that is no Unicode space and no
 * JSON whitespace byte (line_breaks) or blank of the line (space, tab). */
static size_t past_ws(const jp *p, size_t k, bool line_breaks)
{
    for (size_t us; k < p->n;) {
        unsigned char c = (unsigned char)p->s[k];
        if (line_breaks ? (jl_byte_class[c] & JL_WS) != 0 : c == ' ' || c == '\t')
            k++;
        else if ((us = jl_unicode_space(p, k)))
            k += us;
        else
            break;
    }
    return k;
}

/* skip_ws drops Unicode spaces between tokens (json.unicode-space). */
size_t jl_past_spaces(const jp *p, size_t k) { return past_ws(p, k, true); }

size_t jl_past_blanks(const jp *p, size_t k) { return past_ws(p, k, false); }

size_t jl_quote_end_on_line(const jp *p, size_t k, int q)
{
    while (k < p->n && at(p, k) != q && at(p, k) != '\n')
        k += at(p, k) == '\\' ? 2 : 1;
    return k;
}

size_t jl_past_spaces_comments(const jp *p, size_t k)
{
    for (;;) {
        k = jl_past_spaces(p, k);
        if (at(p, k) != '/' || at(p, k + 1) != '*')
            return k;
        size_t e = k + 2;
        while (e + 1 < p->n && !(p->s[e] == '*' && p->s[e + 1] == '/'))
            e++;
        if (e + 1 >= p->n)
            return k;
        k = e + 2;
    }
}
