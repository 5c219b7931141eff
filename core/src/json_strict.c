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
#include "json_strict.h"

typedef struct {
    const unsigned char *p, *end;
    int depth, limit;
    bool build;
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
    uint64_t w, seen = 0;
    while (end - p >= 8 && (memcpy(&w, p, 8), !word_special(w)))
        p += 8, seen |= w;
    while (p < end && *p != '"' && *p != '\\' && *p >= 0x20)
        seen |= *p++;
    *high |= (seen & 0x8080808080808080ull) != 0;
    return p;
}

static bool utf8_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint64_t w;
        while (n - i >= 8 && (memcpy(&w, s + i, 8), (w & 0x8080808080808080ull) == 0))
            i += 8;
        if (i == n)
            break;
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t need;
        unsigned cp, min;
        if (c >= 0xC2 && c <= 0xDF) need = 1, cp = c & 0x1F, min = 0x80;
        else if (c >= 0xE0 && c <= 0xEF) need = 2, cp = c & 0x0F, min = 0x800;
        else if (c >= 0xF0 && c <= 0xF4) need = 3, cp = c & 0x07, min = 0x10000;
        else return false;
        for (size_t k = 1; k <= need; k++) {
            if (i + k >= n || (s[i + k] & 0xC0) != 0x80)
                return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += need + 1;
    }
    return true;
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

static int put_utf8(mf_buf *b, unsigned cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) u[0] = (char)cp, n = 1;
    else if (cp < 0x800) u[0] = (char)(0xC0 | cp >> 6), u[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        u[0] = (char)(0xE0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    else
        u[0] = (char)(0xF0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    return mf_buf_put(b, u, n);
}

/* The rest of a string after an escape, decoded into P->tmp (which holds the
 * bytes before it). P->p is at the backslash; leaves P->p past the closing quote. */
static int string_escaped(sp *P)
{
    const unsigned char *p = P->p, *end = P->end;
    bool high = false;
    for (;;) {
        const unsigned char *a = p;
        p = plain_run(p, end, &high);
        if (p > a && mf_buf_put(&P->tmp, (const char *)a, (size_t)(p - a)))
            return stop(P, MF_STRICT_INVALID);
        if (p == end || *p < 0x20)
            return stop(P, MF_STRICT_INVALID);
        if (*p == '"')
            break;
        if (p + 1 == end)
            return stop(P, MF_STRICT_INVALID);
        char c;
        switch (p[1]) {
        case '"': c = '"'; break;
        case '\\': c = '\\'; break;
        case '/': c = '/'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'u': {
            unsigned cp, lo;
            if (end - p < 6 || hex4(p + 2, &cp))
                return stop(P, MF_STRICT_INVALID);
            p += 6;
            if (cp >= 0xDC00 && cp <= 0xDFFF)
                return stop(P, MF_STRICT_INVALID);
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                if (end - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                    return stop(P, MF_STRICT_INVALID);
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (put_utf8(&P->tmp, cp))
                return stop(P, MF_STRICT_INVALID);
            continue;
        }
        default:
            return stop(P, MF_STRICT_INVALID);
        }
        if (mf_buf_putc(&P->tmp, c))
            return stop(P, MF_STRICT_INVALID);
        p += 2;
    }
    if (high && !utf8_ok((const unsigned char *)P->tmp.s, P->tmp.len))
        return stop(P, MF_STRICT_UNSURE);
    P->p = p + 1;
    return 0;
}

/* A string at P->p ('"'): its text in [*s, *s + *n), either in the input or
 * in P->tmp when it held escapes (*escaped). */
static int string_at(sp *P, const char **s, size_t *n, bool *escaped)
{
    const unsigned char *a = ++P->p, *end = P->end;
    bool high = false;
    const unsigned char *p = plain_run(a, end, &high);
    if (p < end && *p == '"') {
        if (high && !utf8_ok(a, (size_t)(p - a)))
            return stop(P, MF_STRICT_UNSURE);
        *s = (const char *)a;
        *n = (size_t)(p - a);
        *escaped = false;
        P->p = p + 1;
        return 0;
    }
    if (p == end || *p != '\\')
        return stop(P, MF_STRICT_INVALID);
    mf_buf_reset(&P->tmp);
    if (mf_buf_put(&P->tmp, (const char *)a, (size_t)(p - a)))
        return stop(P, MF_STRICT_INVALID);
    P->p = p;
    if (string_escaped(P))
        return -1;
    if (high && !utf8_ok(a, (size_t)(p - a)))
        return stop(P, MF_STRICT_UNSURE);
    *s = mf_buf_cstr(&P->tmp);
    *n = P->tmp.len;
    *escaped = true;
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
        if (string_at(P, &k, &kn, &escaped))
            goto fail;
        if (escaped && memchr(k, '\0', kn)) {
            stop(P, MF_STRICT_UNSURE); /* jansson refuses NUL in keys */
            goto fail;
        }
        if (escaped && P->build && !(k = kcopy = mf_strndup(k, kn))) {
            stop(P, MF_STRICT_INVALID);
            goto fail;
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
        const json_t *had = P->build && P->dups ? json_object_getn(o, k, kn) : NULL;
        if (had && !json_equal(had, v))
            note_duplicate(P, key_at, k, kn, had);
        int rc = P->build ? json_object_setn_new_nocheck(o, k, kn, v) : 0;
        free(kcopy);
        if (rc) {
            stop(P, MF_STRICT_INVALID);
            goto fail;
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
        if (string_at(P, &s, &n, &escaped))
            return -1;
        if (P->build && !(*out = json_stringn_nocheck(s, n)))
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
    return mf_json_strict_dups(s, n, max_depth, out, NULL);
}

int mf_json_strict_dups(const char *s, size_t n, int max_depth, json_t **out, mf_warnings *dups)
{
    sp P = {(const unsigned char *)s, (const unsigned char *)s + n, 0, max_depth > 0 ? max_depth : MF_JSON_STRICT_DEPTH + 1,
            out != NULL, MF_STRICT_OK, {0}, (const unsigned char *)s, out ? dups : NULL};
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
