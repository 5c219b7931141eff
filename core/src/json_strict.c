/* json_strict.c - strict JSON to a jansson value in one pass (issue 14).
 *
 * jansson's json_loadb reads through a per-byte stream callback, checks UTF-8
 * per character and builds every string in a growable buffer before copying
 * it: about 150 instructions a byte, most of a clean artifact's cost. This
 * parser accepts exactly the RFC 8259 grammar jansson accepts (any top-level
 * value, NUL escapes in string values, last duplicate key wins in place),
 * scans strings eight bytes at a time and hands unescaped strings to jansson
 * straight from the input. What it does not decide itself (integers past
 * int64, numbers over 63 characters, NUL in keys, bytes >= 0x80 in strings
 * that are not valid UTF-8, nesting past MF_JSON_STRICT_DEPTH) it leaves to
 * json_loadb (MF_STRICT_UNSURE), so its verdict never differs from jansson's.
 * The input as a whole is valid UTF-8 when it comes from mf_repair; strings
 * holding non-ASCII bytes are checked anyway. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "json_strict.h"

typedef struct {
    const unsigned char *p, *end;
    int depth, limit;
    bool build;
    bool utf8;          /* the text is valid UTF-8: no string is checked */
    int verdict;        /* MF_STRICT_INVALID or MF_STRICT_UNSURE once failed */
    mf_buf tmp;         /* decoded escapes */
    const unsigned char *start;
    mf_warnings *dups;  /* json.duplicate-key warnings, or NULL */
} sp;

static int stop(sp *P, int verdict)
{
    if (P->verdict == MF_STRICT_OK || verdict == MF_STRICT_INVALID)
        P->verdict = verdict;
    return -1;
}

static void skip_ws(sp *P)
{
    while (P->p < P->end && (*P->p == ' ' || *P->p == '\n' || *P->p == '\r' || *P->p == '\t'))
        P->p++;
}

/* A word with a byte < 0x20, '"' or '\\' (SWAR: each test sets that byte's high
 * bit; a borrow can only add false hits above a true one). */
static inline bool word_special(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

/* The first byte at or after p that is '"', '\\' or < 0x20 (or end); *high
 * is set when a byte >= 0x80 was passed. */
static const unsigned char *plain_run(const unsigned char *p, const unsigned char *end, bool *high)
{
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\'), ctrl = _mm_set1_epi8(0x1F);
    __m128i seen16 = _mm_setzero_si128();
    while (end - p >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)p);
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, quote), _mm_cmpeq_epi8(x, bslash)),
                                   _mm_cmpeq_epi8(_mm_max_epu8(x, ctrl), ctrl));
        unsigned m = (unsigned)_mm_movemask_epi8(hit);
        if (m) {
            unsigned stop = (unsigned)__builtin_ctz(m);
            *high |= ((unsigned)_mm_movemask_epi8(x) & ((1u << stop) - 1)) != 0 || _mm_movemask_epi8(seen16) != 0;
            return p + stop;
        }
        seen16 = _mm_or_si128(seen16, x);
        p += 16;
    }
    *high |= _mm_movemask_epi8(seen16) != 0;
#endif
    uint64_t w, seen = 0;
    while (end - p >= 8 && (memcpy(&w, p, 8), !word_special(w)))
        p += 8, seen |= w;
    while (p < end && *p != '"' && *p != '\\' && *p >= 0x20)
        seen |= *p++;
    *high |= (seen & 0x8080808080808080ull) != 0;
    return p;
}

size_t mf_utf8_invalid_at(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
#if defined(__SSE2__)
        while (n - i >= 16 && _mm_movemask_epi8(_mm_loadu_si128((const __m128i *)(s + i))) == 0)
            i += 16;                    /* sixteen ASCII bytes at a time */
#endif
        uint64_t w;
        while (n - i >= 8 && (memcpy(&w, s + i, 8), (w & 0x8080808080808080ull) == 0))
            i += 8;
        while (i < n && s[i] < 0x80)
            i++;
        if (i == n)
            break;
        /* one sequence: its lead byte's range fixes its length; the second
         * byte's range excludes overlongs (E0, F0), surrogates (ED) and code
         * points past U+10FFFF (F4) */
        unsigned c = s[i], lo = 0x80, hi = 0xBF;
        size_t need;
        if (c >= 0xC2 && c <= 0xDF) need = 1;
        else if (c >= 0xE0 && c <= 0xEF) need = 2, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4) need = 3, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else return i;
        if (n - i <= need || s[i + 1] < lo || s[i + 1] > hi)
            return i;
        for (size_t k = 2; k <= need; k++)
            if ((s[i + k] & 0xC0) != 0x80)
                return i;
        i += need + 1;
    }
    return n;
}

static bool utf8_ok(const unsigned char *s, size_t n)
{
    return mf_utf8_invalid_at((const char *)s, n) == n;
}

static int hex4(const unsigned char *s, unsigned *v)
{
    *v = 0;
    for (int i = 0; i < 4; i++) {
        unsigned c = s[i], d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') d = (c | 0x20) - 'a' + 10;
        else return -1;
        *v = *v << 4 | d;
    }
    return 0;
}

/* Write code point cp as UTF-8 at o; returns the byte after it. */
static unsigned char *put_utf8(unsigned char *o, unsigned cp)
{
    if (cp < 0x80) {
        *o++ = (unsigned char)cp;
    } else if (cp < 0x800) {
        *o++ = (unsigned char)(0xC0 | cp >> 6);
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (unsigned char)(0xE0 | cp >> 12);
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (unsigned char)(0xF0 | cp >> 18);
        *o++ = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
        *o++ = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        *o++ = (unsigned char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* The escape at p (a backslash): its length (2, 6 or 12) and the code point
 * it stands for in *cp; 0 when it is no valid JSON escape (a lone surrogate
 * included). */
static size_t escape_at(const unsigned char *p, const unsigned char *end, unsigned *cp)
{
    if (end - p < 2)
        return 0;
    switch (p[1]) {
    case '"': *cp = '"'; return 2;
    case '\\': *cp = '\\'; return 2;
    case '/': *cp = '/'; return 2;
    case 'b': *cp = '\b'; return 2;
    case 'f': *cp = '\f'; return 2;
    case 'n': *cp = '\n'; return 2;
    case 'r': *cp = '\r'; return 2;
    case 't': *cp = '\t'; return 2;
    case 'u': {
        unsigned lo;
        if (end - p < 6 || hex4(p + 2, cp) || (*cp >= 0xDC00 && *cp <= 0xDFFF))
            return 0;
        if (*cp < 0xD800 || *cp > 0xDBFF)
            return 6;
        if (end - p < 12 || p[6] != '\\' || p[7] != 'u' || hex4(p + 8, &lo) || lo < 0xDC00 || lo > 0xDFFF)
            return 0;
        *cp = 0x10000 + ((*cp - 0xD800) << 10) + (lo - 0xDC00);
        return 12;
    }
    default:
        return 0;
    }
}

/* Validate the string at P->p ('"') without decoding it; leaves P->p past
 * its closing quote. Escapes are checked as they would decode; the raw text
 * between the quotes is valid UTF-8 exactly when the decoded text is (an
 * escape is ASCII before and a whole code point after), and a key decoding
 * to a NUL (\u0000) is left to jansson, as string_at's caller does. */
static int string_skip(sp *P, bool key)
{
    const unsigned char *a = ++P->p, *p = a, *end = P->end;
    bool high = false, nul = false;
    for (;;) {
        p = plain_run(p, end, &high);
        if (p == end || *p < 0x20)
            return stop(P, MF_STRICT_INVALID);
        if (*p == '"')
            break;
        unsigned cp;
        size_t k = escape_at(p, end, &cp);
        if (!k)
            return stop(P, MF_STRICT_INVALID);
        nul |= cp == 0;
        p += k;
    }
    if (high && !P->utf8 && !utf8_ok(a, (size_t)(p - a)))
        return stop(P, MF_STRICT_UNSURE);
    if (key && nul)
        return stop(P, MF_STRICT_UNSURE); /* jansson refuses NUL in keys */
    P->p = p + 1;
    return 0;
}

/* A string at P->p ('"') of a text already validated: its text in
 * [*s, *s + *n), either in the input or decoded in P->tmp when it held
 * escapes (*escaped). */
static int string_at(sp *P, const char **s, size_t *n, bool *escaped)
{
    const unsigned char *a = ++P->p, *end = P->end;
    bool high = false;
    const unsigned char *p = plain_run(a, end, &high), *close = p;
    if (p < end && *p == '"') {
        *s = (const char *)a;
        *n = (size_t)(p - a);
        *escaped = false;
        P->p = p + 1;
        return 0;
    }
    unsigned cp;
    while (close < end && *close == '\\') {  /* the closing quote: decoding needs at most the bytes before it */
        size_t k = escape_at(close, end, &cp);
        if (!k)
            return stop(P, MF_STRICT_INVALID);
        close = plain_run(close + k, end, &high);
    }
    if (close == end || *close != '"')
        return stop(P, MF_STRICT_INVALID);
    mf_buf_reset(&P->tmp);
    if (mf_buf_reserve(&P->tmp, (size_t)(close - a)))
        return stop(P, MF_STRICT_INVALID);
    unsigned char *o = (unsigned char *)P->tmp.s;
    while (a < close) {
        const unsigned char *q = plain_run(a, close, &high);
        memcpy(o, a, (size_t)(q - a));
        o += q - a;
        if (q == close)
            break;
        size_t k = escape_at(q, close, &cp);
        o = put_utf8(o, cp);
        a = q + k;
    }
    P->tmp.len = (size_t)(o - (unsigned char *)P->tmp.s);
    P->tmp.s[P->tmp.len] = '\0';
    *s = P->tmp.s;
    *n = P->tmp.len;
    *escaped = true;
    P->p = close + 1;
    return 0;
}

static int number_at(sp *P, json_t **out)
{
    const unsigned char *a = P->p, *p = a, *end = P->end;
    bool neg = p < end && *p == '-';
    p += neg;
    if (p == end || *p < '0' || *p > '9')
        return stop(P, MF_STRICT_INVALID);
    if (*p == '0')
        p++;
    else
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    bool real = false;
    if (p < end && *p == '.') {
        p++, real = true;
        if (p == end || *p < '0' || *p > '9')
            return stop(P, MF_STRICT_INVALID);
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++, real = true;
        if (p < end && (*p == '+' || *p == '-'))
            p++;
        if (p == end || *p < '0' || *p > '9')
            return stop(P, MF_STRICT_INVALID);
        while (p < end && *p >= '0' && *p <= '9')
            p++;
    }
    size_t n = (size_t)(p - a);
    P->p = p;
    if (!real && n - neg <= 18) {
        int64_t v = 0;
        for (const unsigned char *d = a + neg; d < p; d++)
            v = v * 10 + (*d - '0');
        if (P->build && !(*out = json_integer(neg ? -v : v)))
            return stop(P, MF_STRICT_INVALID);
        return 0;
    }
    if (n > 63)
        return stop(P, MF_STRICT_UNSURE);
    char tmp[64];
    memcpy(tmp, a, n);
    tmp[n] = '\0';
    errno = 0;
    if (!real) {
        long long v = strtoll(tmp, NULL, 10);
        if (errno == ERANGE)
            return stop(P, MF_STRICT_UNSURE); /* jansson: "too big integer" */
        if (P->build && !(*out = json_integer(v)))
            return stop(P, MF_STRICT_INVALID);
        return 0;
    }
    double d = strtod(tmp, NULL);
    if ((d == HUGE_VAL || d == -HUGE_VAL) && errno == ERANGE)
        return stop(P, MF_STRICT_INVALID); /* jansson: "real number overflow" */
    if (P->build && !(*out = json_real(d)))
        return stop(P, MF_STRICT_INVALID);
    return 0;
}

static int word_at(sp *P, const char *w, size_t n)
{
    if ((size_t)(P->end - P->p) < n || memcmp(P->p, w, n) != 0)
        return stop(P, MF_STRICT_INVALID);
    P->p += n;
    return 0;
}

static int value_at(sp *P, json_t **out);

static int enter(sp *P)
{
    if (++P->depth > P->limit)
        return stop(P, MF_STRICT_INVALID);
    if (P->depth > MF_JSON_STRICT_DEPTH)
        return stop(P, MF_STRICT_UNSURE); /* near jansson's own cap: let it decide */
    P->p++;
    skip_ws(P);
    return 0;
}

/* A member whose key the object already holds with another value: strict
 * JSON keeps the last, so the first is dropped; say so (json.duplicate-key). */
static void note_duplicate(sp *P, const unsigned char *key_at, const char *k, size_t kn, const json_t *had)
{
    int line = 1;
    for (const unsigned char *q = P->start; q < key_at; q++)
        line += *q == '\n';
    char *dropped = json_dumps(had, JSON_COMPACT | JSON_ENCODE_ANY);
    size_t dn = dropped ? strlen(dropped) : 0;
    mf_warnings_add(P->dups, MF_RULE_ID(JSON_DUPLICATE_KEY), line,
                    "key \"%.*s\" appears twice with different values: kept the last one, as strict JSON "
                    "parsers do; dropped %.60s%s",
                    (int)(kn > 40 ? 40 : kn), k, dropped ? dropped : "the first value", dn > 60 ? "..." : "");
    free(dropped);
}

static int object_at(sp *P, json_t **out)
{
    if (enter(P))
        return -1;
    json_t *o = P->build ? json_object() : NULL;
    if (P->build && !o)
        return stop(P, MF_STRICT_INVALID);
    if (P->p < P->end && *P->p == '}') {
        P->p++;
        P->depth--;
        *out = o;
        return 0;
    }
    for (;;) {
        const char *k;
        size_t kn;
        bool escaped;
        char *kcopy = NULL;
        json_t *v = NULL;
        if (P->p == P->end || *P->p != '"') {
            stop(P, MF_STRICT_INVALID);
            goto fail;
        }
        const unsigned char *key_at = P->p;
        if (!P->build) {                /* validation: no key text needed */
            if (string_skip(P, true))
                goto fail;
        } else {
            if (string_at(P, &k, &kn, &escaped))
                goto fail;
            if (escaped && memchr(k, '\0', kn)) {
                stop(P, MF_STRICT_UNSURE); /* jansson refuses NUL in keys */
                goto fail;
            }
            if (escaped && !(k = kcopy = mf_strndup(k, kn))) { /* P->tmp is reused by the value */
                stop(P, MF_STRICT_INVALID);
                goto fail;
            }
        }
        skip_ws(P);
        if (P->p == P->end || *P->p != ':') {
            free(kcopy);
            stop(P, MF_STRICT_INVALID);
            goto fail;
        }
        P->p++;
        skip_ws(P);
        if (value_at(P, &v)) {
            free(kcopy);
            goto fail;
        }
        if (P->build) {
            const json_t *had = P->dups ? json_object_getn(o, k, kn) : NULL;
            if (had && !json_equal(had, v))
                note_duplicate(P, key_at, k, kn, had);
            int rc = json_object_setn_new_nocheck(o, k, kn, v);
            free(kcopy);
            if (rc) {
                stop(P, MF_STRICT_INVALID);
                goto fail;
            }
        }
        skip_ws(P);
        if (P->p < P->end && *P->p == ',') {
            P->p++;
            skip_ws(P);
            continue;
        }
        if (P->p < P->end && *P->p == '}') {
            P->p++;
            P->depth--;
            *out = o;
            return 0;
        }
        stop(P, MF_STRICT_INVALID);
        goto fail;
    }
fail:
    json_decref(o);
    return -1;
}

static int array_at(sp *P, json_t **out)
{
    if (enter(P))
        return -1;
    json_t *a = P->build ? json_array() : NULL;
    if (P->build && !a)
        return stop(P, MF_STRICT_INVALID);
    if (P->p < P->end && *P->p == ']') {
        P->p++;
        P->depth--;
        *out = a;
        return 0;
    }
    for (;;) {
        json_t *v = NULL;
        if (value_at(P, &v))
            break;
        if (P->build && json_array_append_new(a, v)) {
            stop(P, MF_STRICT_INVALID);
            break;
        }
        skip_ws(P);
        if (P->p < P->end && *P->p == ',') {
            P->p++;
            skip_ws(P);
            continue;
        }
        if (P->p < P->end && *P->p == ']') {
            P->p++;
            P->depth--;
            *out = a;
            return 0;
        }
        stop(P, MF_STRICT_INVALID);
        break;
    }
    json_decref(a);
    return -1;
}

static int value_at(sp *P, json_t **out)
{
    *out = NULL;
    if (P->p == P->end)
        return stop(P, MF_STRICT_INVALID);
    switch (*P->p) {
    case '{':
        return object_at(P, out);
    case '[':
        return array_at(P, out);
    case '"': {
        const char *s;
        size_t n;
        bool escaped;
        if (!P->build)
            return string_skip(P, false);
        if (string_at(P, &s, &n, &escaped))
            return -1;
        if (!(*out = json_stringn_nocheck(s, n)))
            return stop(P, MF_STRICT_INVALID);
        return 0;
    }
    case 't':
        if (word_at(P, "true", 4))
            return -1;
        *out = P->build ? json_true() : NULL;
        return 0;
    case 'f':
        if (word_at(P, "false", 5))
            return -1;
        *out = P->build ? json_false() : NULL;
        return 0;
    case 'n':
        if (word_at(P, "null", 4))
            return -1;
        *out = P->build ? json_null() : NULL;
        return 0;
    default:
        return number_at(P, out);
    }
}

int mf_json_strict(const char *s, size_t n, int max_depth, json_t **out)
{
    return mf_json_strict_dups(s, n, max_depth, false, out, NULL);
}

int mf_json_strict_dups(const char *s, size_t n, int max_depth, bool utf8, json_t **out, mf_warnings *dups)
{
    if (out) {
        *out = NULL;
        int verdict = mf_json_strict_dups(s, n, max_depth, utf8, NULL, NULL);
        if (verdict != MF_STRICT_OK)
            return verdict;
        utf8 = true;                    /* the validation checked every string */
    }
    sp P = {(const unsigned char *)s, (const unsigned char *)s + n, 0, max_depth > 0 ? max_depth : MF_JSON_STRICT_DEPTH + 1,
            out != NULL, utf8, MF_STRICT_OK, {0}, (const unsigned char *)s, out ? dups : NULL};
    size_t dups0 = dups ? dups->count : 0;
    json_t *v = NULL;
    if (out)
        *out = NULL;
    skip_ws(&P);
    const unsigned char *last = P.end;
    while (last > P.p && (last[-1] == ' ' || last[-1] == '\n' || last[-1] == '\r' || last[-1] == '\t'))
        last--;
    if (P.p < last && ((*P.p == '{' && last[-1] != '}') || (*P.p == '[' && last[-1] != ']') ||
                       (*P.p == '"' && last[-1] != '"')))
        return MF_STRICT_INVALID; /* a cut text (the common malformation) fails before any value is built */
    if (value_at(&P, &v) == 0) {
        skip_ws(&P);
        if (P.p != P.end)
            stop(&P, MF_STRICT_INVALID);
    }
    mf_buf_free(&P.tmp);
    if (P.verdict != MF_STRICT_OK) {
        if (dups)
            mf_warnings_truncate(dups, dups0);
        json_decref(v);
        return P.verdict;
    }
    if (out)
        *out = v;
    return MF_STRICT_OK;
}

bool mf_utf8_valid(const char *s, size_t n)
{
    return utf8_ok((const unsigned char *)s, n);
}
