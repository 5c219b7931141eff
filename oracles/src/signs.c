/* signs.c - the sign of an integer, judged against the raw input.
 *
 * The word checks of no-data-loss compare digits only, so `-1_000` read as
 * 1000 passed them. Here every integer token of the input is noted with its
 * sign: `-` right before the digits, with no word character before the `-`
 * (`1-5` and `2024-01-05` are no negatives; a Unicode space or an escaped blank
 * such as `\r` is none), is a minus; `- 5` counts as both
 * (a YAML item, or a minus a repair may close up). A token glued to a letter
 * (`v2`, `0x1F`, `5th`), one with an exponent, or one with a non-zero
 * fraction spells no integer and is left out; underscores between digits are
 * dropped and leading zeros do not count. An integer of the output whose
 * digits the input only ever writes with the other sign is reported. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "leaves.h"
#include "signs.h"

typedef struct {
    uint64_t h;   /* hash of the digits, leading zeros and underscores dropped */
    bool neg, pos;
} sign_tok;

typedef struct {
    sign_tok *v;
    size_t n, cap;
} sign_set;

static uint64_t digits_hash(const char *d, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)d[i]) * 1099511628211ull;
    return h;
}

static bool word_byte(unsigned char c)
{
    return isalnum(c) || c == '_' || c >= 0x80;
}

static int note(sign_set *s, uint64_t h, bool neg, bool pos)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 32;
        sign_tok *t = realloc(s->v, cap * sizeof *t);
        if (!t)
            return -1;
        s->v = t;
        s->cap = cap;
    }
    s->v[s->n++] = (sign_tok){h, neg, pos};
    return 0;
}

static int by_hash(const void *a, const void *b)
{
    uint64_t x = ((const sign_tok *)a)->h, y = ((const sign_tok *)b)->h;
    return x < y ? -1 : x > y;
}

/* Sort the tokens and merge those of one hash, so find() can bisect. */
static void merge(sign_set *s)
{
    if (!s->n)
        return;
    qsort(s->v, s->n, sizeof *s->v, by_hash);
    size_t m = 0;
    for (size_t i = 1; i < s->n; i++) {
        if (s->v[i].h == s->v[m].h) {
            s->v[m].neg |= s->v[i].neg;
            s->v[m].pos |= s->v[i].pos;
        } else {
            s->v[++m] = s->v[i];
        }
    }
    s->n = m + 1;
}

/* Does raw[0, k) end with a Unicode space (NBSP, U+2000..U+200B, U+202F, U+205F,
 * U+3000, a BOM)? It separates like ' ': `:\u200b-1` is a minus (run 45 a4be801a). */
static bool unicode_space_before(const unsigned char *raw, size_t k)
{
    if (k >= 2 && raw[k - 2] == 0xC2 && raw[k - 1] == 0xA0)
        return true;
    if (k < 3)
        return false;
    const unsigned char *u = raw + k - 3;
    return (u[0] == 0xE2 && u[1] == 0x80 && (u[2] <= 0x8B || u[2] == 0xAF)) ||
           (u[0] == 0xE2 && u[1] == 0x81 && u[2] == 0x9F) || (u[0] == 0xE3 && u[1] == 0x80 && u[2] == 0x80) ||
           (u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF);
}

/* Does raw[0, k) end with an escaped blank (`\r`, `\n`, `\t`: an odd run of
 * backslashes, then the letter)? A repair reads it as whitespace between
 * tokens (json.escaped-json) or a break in a string: `\r-5` is a minus. */
static bool escaped_blank_before(const char *raw, size_t k)
{
    if (k < 2 || !strchr("nrt", raw[k - 1]) || raw[k - 2] != '\\')
        return false;
    size_t b = 0;
    while (b < k - 1 && raw[k - 2 - b] == '\\')
        b++;
    return b % 2 == 1;
}

/* The integer token at raw[i] (a digit after no word byte or point), noted
 * with its sign; returns the index after it. */
static size_t scan_token(sign_set *s, const char *raw, size_t n, size_t i, int *err)
{
    char d[32];
    size_t dn = 0, j = i;
    bool over = false;
    for (; j < n && (isdigit((unsigned char)raw[j]) || (raw[j] == '_' && j + 1 < n && isdigit((unsigned char)raw[j + 1])));
         j++) {
        if (raw[j] == '_' || (dn == 0 && raw[j] == '0'))
            continue;
        if (dn < sizeof d)
            d[dn++] = raw[j];
        else
            over = true;
    }
    size_t end = j;
    if (j + 1 < n && raw[j] == '.' && isdigit((unsigned char)raw[j + 1])) { /* 5.0 is 5; 5.5 no integer */
        for (j++; j < n && raw[j] == '0'; j++)
            ;
        if (j < n && isdigit((unsigned char)raw[j]))
            over = true;
        while (j < n && isdigit((unsigned char)raw[j]))
            j++;
        end = j;
    }
    if (end < n && (word_byte((unsigned char)raw[end]) || raw[end] == '.'))
        over = true; /* 0x1F, 1e3, 5th, 1.2.3 */
    while (end < n && (word_byte((unsigned char)raw[end]) || raw[end] == '.'))
        end++;
    if (over || dn == 0)
        return end;
    size_t k = i;
    bool spaced = false;
    while (k > 0 && raw[k - 1] == ' ')
        k--, spaced = true;
    bool minus = k > 0 && raw[k - 1] == '-' &&
                 (k < 2 || !word_byte((unsigned char)raw[k - 2]) || unicode_space_before((const unsigned char *)raw, k - 1) ||
                  escaped_blank_before(raw, k - 1));
    if (note(s, digits_hash(d, dn), minus, !minus || spaced) < 0)
        *err = 1;
    return end;
}

static int scan(sign_set *s, const char *raw, size_t n)
{
    int err = 0;
    for (size_t i = 0; i < n && !err;) {
        if (raw[i] == '\\' && i + 2 <= n && escaped_blank_before(raw, i + 2))
            i += 2;                     /* `\r77777`: the digits after an escaped blank are a token */
        else if (isdigit((unsigned char)raw[i]) &&
                 (i == 0 || (!word_byte((unsigned char)raw[i - 1]) && raw[i - 1] != '.') || escaped_blank_before(raw, i)))
            i = scan_token(s, raw, n, i, &err);
        else if (word_byte((unsigned char)raw[i]) || raw[i] == '.')
            while (i < n && (word_byte((unsigned char)raw[i]) || raw[i] == '.'))
                i++;
        else
            i++;
    }
    merge(s);
    return err ? -1 : 0;
}

static const sign_tok *find(const sign_set *s, uint64_t h)
{
    sign_tok key = {h, false, false};
    return s->n ? bsearch(&key, s->v, s->n, sizeof *s->v, by_hash) : NULL;
}

typedef struct {
    const sign_set *set;
    char *bad;
    size_t badn;
} sign_walk;

/* Is the scalar v (at path) an integer the input writes only with the other sign? */
static bool sign_flipped(const json_t *v, const char *path, void *ctx)
{
    const sign_walk *w = ctx;
    const sign_set *s = w->set;
    if (!json_is_integer(v) || json_integer_value(v) == 0)
        return false;
    char t[32];
    json_int_t x = json_integer_value(v);
    snprintf(t, sizeof t, "%lld", (long long)x);
    const char *digits = x < 0 ? t + 1 : t;
    const sign_tok *tok = find(s, digits_hash(digits, strlen(digits)));
    if (!tok || (x < 0 ? tok->neg : tok->pos))
        return false;
    snprintf(w->bad, w->badn, "%s: %s, which the input writes only as %s%s", *path ? path : "/", t,
             x < 0 ? "" : "-", digits);
    return true;
}

bool mf_sign_changed(const char *raw, size_t n, const json_t *value, char *bad, size_t badn)
{
    sign_set s = {0};
    char path[512] = "";
    sign_walk w = {&s, bad, badn};
    bool changed = scan(&s, raw, n) == 0 && mf_walk_leaves(value, path, sizeof path, 0, sign_flipped, &w);
    free(s.v);
    return changed;
}
