/* oracles.c - idempotence, no-data-loss, accounting, determinism, the
 * clean-artifact check that yields ground truth, and value diffs.
 *
 * Everything here goes through mf_repair and the result record: the
 * reference for "the plain parse of the input" is the generic profile of the
 * same format (no wrappers, aliases or normalizers), and "no invented
 * scalars" compares the words of every output string with the words of the
 * input (one hash set, linear in input size), then the sign of every
 * integer with the signs the input writes its digits with (signs.c). */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "malform/oracles.h"
#include "leaves.h"
#include "radix.h"
#include "signs.h"
#include "verdict.h"

static const char *const names[MF_ORACLE_COUNT] = {
#define ORACLE(cname, name, fn) [MF_ORACLE_##cname] = name,
#include "malform/oracles.def"
#undef ORACLE
};

const char *mf_oracle_name(mf_oracle_id id)
{
    return id < MF_ORACLE_COUNT ? names[id] : "?";
}

static const mf_profile *profile_of(const mf_oracle_input *in)
{
    if (in->profile)
        return in->profile;
    return mf_profiles_get(in->result->profile ? in->result->profile : "generic_yaml");
}

static char *emit(const mf_profile *p, const json_t *v)
{
    return p && p->format == MF_FORMAT_JSON ? mf_value_to_json(v) : mf_value_to_yaml(v);
}

/* ---- value diff ---- */

static void brief(const json_t *v, char *out, size_t n)
{
    if (!v) {
        snprintf(out, n, "(absent)");
        return;
    }
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    snprintf(out, n, "%.60s%s", s ? s : "?", s && strlen(s) > 60 ? "..." : "");
    free(s);
}

static void diff_rec(const json_t *got, const json_t *want, char *path, size_t plen, FILE *f, size_t *left, int d)
{
    if (!*left || json_equal((json_t *)got, (json_t *)want))
        return;
    size_t pl = strlen(path);
    if (d < 64 && json_is_object(got) && json_is_object(want)) {
        const char *k;
        json_t *c;
        json_object_foreach((json_t *)want, k, c) {
            snprintf(path + pl, plen - pl, "/%s", k);
            diff_rec(json_object_get(got, k), c, path, plen, f, left, d + 1);
        }
        json_object_foreach((json_t *)got, k, c) if (!json_object_get(want, k))
        {
            snprintf(path + pl, plen - pl, "/%s", k);
            diff_rec(c, NULL, path, plen, f, left, d + 1);
        }
        path[pl] = '\0';
        return;
    }
    if (d < 64 && json_is_array(got) && json_is_array(want)) {
        size_t n = json_array_size(got) > json_array_size(want) ? json_array_size(got) : json_array_size(want);
        for (size_t i = 0; i < n; i++) {
            snprintf(path + pl, plen - pl, "/%zu", i);
            diff_rec(json_array_get(got, i), json_array_get(want, i), path, plen, f, left, d + 1);
        }
        path[pl] = '\0';
        return;
    }
    char a[80], b[80];
    brief(want, a, sizeof a);
    brief(got, b, sizeof b);
    fprintf(f, "  %s: want %s, got %s\n", *path ? path : "/", a, b);
    (*left)--;
}

char *mf_value_diff(const json_t *got, const json_t *want, size_t max_lines)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    char path[512] = "";
    size_t left = max_lines ? max_lines : 1;
    diff_rec(got, want, path, sizeof path, f, &left, 0);
    fclose(f);
    return buf;
}

/* ---- idempotence ---- */

int mf_oracle_idempotence(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    const mf_result *r = in->result;
    if (r->status != MF_ACCEPTED || !r->value) {
        v->ran = false;
        return 0;
    }
    const mf_profile *p = profile_of(in);
    char *canon = emit(p, r->value);
    if (!canon) {
        snprintf(v->detail, sizeof v->detail, "canonical output could not be emitted");
        return finish(v);
    }
    mf_result *again = mf_repair(in->profile, canon, strlen(canon), in->opt);
    if (!again || again->status != MF_ACCEPTED)
        snprintf(v->detail, sizeof v->detail, "canonical output is rejected on repair: %s %s",
                 again && again->error.type ? again->error.type : "?",
                 again && again->error.message ? again->error.message : "");
    else if (!json_equal(again->value, r->value)) {
        char d[300];
        first_diff(again->value, r->value, d, sizeof d);
        snprintf(v->detail, sizeof v->detail, "repairing the canonical output changes the value: %s", d);
    } else if (again->warnings.count)
        snprintf(v->detail, sizeof v->detail, "repairing the canonical output warns: %s: %s",
                 again->warnings.items[0].rule, again->warnings.items[0].message);
    mf_result_free(again);
    free(canon);
    return finish(v);
}

/* ---- metamorphic ---- */

int mf_oracle_metamorphic(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    const mf_oracle_variant *m = in->variant;
    if (!m || !m->expected) {
        v->ran = false;
        return 0;
    }
    const mf_result *r = m->result;
    const char *ops = m->ops ? m->ops : "?";
    if (!r)
        snprintf(v->detail, sizeof v->detail, "the canonical output malformed by %s: repair returned NULL", ops);
    else if (r->status != MF_ACCEPTED)
        snprintf(v->detail, sizeof v->detail, "the canonical output malformed by %s, which a rule promises to repair, "
                 "is rejected: tier %d %s: %.200s", ops, r->error.tier, r->error.type ? r->error.type : "?",
                 r->error.message ? r->error.message : "");
    else if (!json_equal(r->value, m->expected)) {
        char d[300];
        first_diff(r->value, m->expected, d, sizeof d);
        snprintf(v->detail, sizeof v->detail, "the canonical output malformed by %s repairs to another value: %s", ops, d);
    }
    return finish(v);
}

/* ---- no-data-loss ---- */

typedef struct {
    const json_t *defaults;
    const mf_result *r;
    const json_t *cut;   /* the last scalar of the output when json.truncated fired, else NULL */
} subset_ctx;

/* The last scalar of v in document order. A member holding its profile
 * default (defaults: key -> value) is left out: core appends the defaults it
 * fills after the members the text gave, so the value the text was cut in
 * comes before them. */
static const json_t *last_scalar(const json_t *v, const json_t *defaults, int d)
{
    if (d > 64)
        return NULL;
    if (json_is_object(v)) {
        const json_t *last = NULL;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            const json_t *def = json_is_object(defaults) ? json_object_get(defaults, k) : NULL;
            if (!def || !json_equal((json_t *)def, x))
                last = x;
        }
        return last ? last_scalar(last, defaults, d + 1) : NULL;
    }
    if (json_is_array(v))
        return json_array_size(v) ? last_scalar(json_array_get(v, json_array_size(v) - 1), defaults, d + 1) : NULL;
    return v;
}

static bool warned_about(const mf_result *r, const char *s)
{
    if (!s || !*s)
        return false;
    for (size_t i = 0; i < r->warnings.count && i < 256; i++)
        if (r->warnings.items[i].message && strstr(r->warnings.items[i].message, s))
            return true;
    return false;
}

/* got is a subset of want: nothing changed or invented (documented defaults excepted). */
static bool subset(const json_t *got, const json_t *want, const char *key, const subset_ctx *c, char *path,
                   size_t plen, int d)
{
    if (json_equal((json_t *)got, (json_t *)want))
        return true;
    /* the string the text was cut in is kept as far as it went (json.truncated) */
    if (got == c->cut && json_is_string(got) && json_is_string(want) &&
        json_string_length(got) <= json_string_length(want) &&
        !memcmp(json_string_value(got), json_string_value(want), json_string_length(got)))
        return true;
    const json_t *def = key && json_is_object(c->defaults) ? json_object_get(c->defaults, key) : NULL;
    if (def && json_equal((json_t *)def, (json_t *)got) && c->r->warnings.count)
        return true;
    if (d > 64 || !want)
        return false;
    size_t pl = strlen(path);
    if (json_is_object(got) && json_is_object(want)) {
        const char *k;
        json_t *g;
        json_object_foreach((json_t *)got, k, g) {
            snprintf(path + pl, plen - pl, "/%s", k);
            const json_t *w = json_object_get(want, k);
            if (!w) {
                const json_t *dk = json_is_object(c->defaults) ? json_object_get(c->defaults, k) : NULL;
                if (dk && json_equal((json_t *)dk, g) && c->r->warnings.count)
                    continue;
                return false;
            }
            if (!subset(g, w, k, c, path, plen, d + 1))
                return false;
        }
        path[pl] = '\0';
        return true;
    }
    if (json_is_array(got) && json_is_array(want) && json_array_size(got) <= json_array_size(want)) {
        for (size_t i = 0; i < json_array_size(got); i++) {
            snprintf(path + pl, plen - pl, "/%zu", i);
            if (!subset(json_array_get(got, i), json_array_get(want, i), key, c, path, plen, d + 1))
                return false;
        }
        path[pl] = '\0';
        return true;
    }
    return false;
}

/* A set of the lowercase words of the input (alnum runs, UTF-8 bytes count as letters). */
typedef struct { uint64_t *h; size_t cap; } wordset;

static uint64_t word_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 1099511628211ull;
    return h | 1;
}

/* Bytes of the separator at s[i] (ASCII non-alphanumerics; Unicode spaces,
 * general punctuation such as smart quotes and dashes, CJK punctuation, BOM),
 * or 0 when s[i] starts a word character. Models put smart quotes right
 * against words, so “app must read as the word app. */
static size_t sep_len(const char *str, size_t n, size_t i)
{
    const unsigned char *s = (const unsigned char *)str;
    if (s[i] < 0x80)
        return isalnum(s[i]) ? 0 : 1;
    if (s[i] == 0xC2 && i + 1 < n && (s[i + 1] == 0xA0 || s[i + 1] == 0x85))
        return 2;                                           /* U+00A0, U+0085 (NEL, YAML's \N) */
    if (s[i] == 0xE2 && i + 2 < n && (s[i + 1] == 0x80 || s[i + 1] == 0x81))
        return 3;                                           /* U+2000..U+207F */
    if (s[i] == 0xE3 && i + 2 < n && s[i + 1] == 0x80)
        return 3;                                           /* U+3000..U+303F */
    if (s[i] == 0xEF && i + 2 < n && s[i + 1] == 0xBB && s[i + 2] == 0xBF)
        return 3;                                           /* U+FEFF */
    return 0;
}

/* Length of the word starting at s[i] (s[i] is a word character). */
static size_t word_end(const char *s, size_t n, size_t i)
{
    while (i < n && sep_len(s, n, i) == 0)
        i++;
    return i;
}

static void ws_add(wordset *w, uint64_t h)
{
    size_t i = h & (w->cap - 1);
    while (w->h[i] && w->h[i] != h)
        i = (i + 1) & (w->cap - 1);
    w->h[i] = h;
}

static bool ws_has(const wordset *w, uint64_t h)
{
    size_t i = h & (w->cap - 1);
    while (w->h[i]) {
        if (w->h[i] == h)
            return true;
        i = (i + 1) & (w->cap - 1);
    }
    return false;
}

static void ws_scan(wordset *w, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = sep_len(s, n, i);
        if (k) {
            i += k;
            continue;
        }
        size_t j = word_end(s, n, i);
        ws_add(w, word_hash(s + i, j - i));
        /* 050 is the number 50: the value's digits are the word's without its leading zeros */
        bool digits = true;
        for (size_t q = i; q < j && digits; q++)
            digits = s[q] >= '0' && s[q] <= '9';
        size_t z = i;
        while (digits && z + 1 < j && s[z] == '0')
            z++;
        if (z > i)
            ws_add(w, word_hash(s + z, j - z));
        uint64_t x; /* `0x1F` is the number 31 (run 43 9d9f0c2b: `0x0` reads as 0) */
        if (mf_radix_int(s + i, j - i, &x)) {
            char dec[24];
            int dn = snprintf(dec, sizeof dec, "%llu", (unsigned long long)x);
            ws_add(w, word_hash(dec, (size_t)dn));
        }
        i = j;
    }
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Number of hex digits at s[0, n) up to want, or 0 when fewer. */
static int hex_digits(const char *s, size_t n, int want)
{
    for (int q = 0; q < want; q++)
        if ((size_t)q >= n || hexval(s[q]) < 0)
            return 0;
    return want;
}

/* The input with JSON/YAML backslash escapes decoded (\n, \", \uXXXX incl.
 * surrogate pairs, with yaml YAML's \xXX and \UXXXXXXXX, which JSON keeps as
 * text, and with join_breaks YAML's escaped line break), so "\nimport" and
 * "Cr\u00e8me" give the words of the value. */
static char *unescape(const char *s, size_t n, bool join_breaks, bool yaml, size_t *out_len)
{
    char *o = malloc(n + 1);
    size_t k = 0;
    if (!o)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 >= n) {
            o[k++] = s[i];
            continue;
        }
        if (join_breaks && (s[i + 1] == '\n' || s[i + 1] == '\r')) {
            /* a YAML escaped line break (`"# Constitution\` + `  profihip`): the break and the
             * next line's leading blanks are no text, the words either side are one (run 9 4668f83b);
             * a lone CR is a line break to YAML too (run 34 f4783979) */
            i += s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n' ? 2 : 1;
            while (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t'))
                i++;
            continue;
        }
        char c = s[++i];
        unsigned long cp = 0;
        int nd = c == 'u' ? 4 : c == 'U' && yaml ? 8 : c == 'x' && yaml ? 2 : 0;
        if (nd && hex_digits(s + i + 1, n - i - 1, nd)) {
            for (int q = 1; q <= nd; q++)
                cp = cp << 4 | (unsigned long)hexval(s[i + q]);
            i += (size_t)nd;
            if (cp > 0x10FFFF)
                cp = 0xFFFD;
            if (cp >= 0xD800 && cp < 0xDC00 && i + 6 < n && s[i + 1] == '\\' && s[i + 2] == 'u') {
                unsigned long lo = 0;
                bool ok = true;
                for (int q = 3; q < 7; q++)
                    ok &= hexval(s[i + q]) >= 0, lo = lo << 4 | (unsigned long)(hexval(s[i + q]) & 15);
                if (ok && lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    i += 6;
                }
            }
            if (cp < 0x80) {
                o[k++] = (char)cp;
            } else if (cp < 0x800) {
                o[k++] = (char)(0xC0 | cp >> 6);
                o[k++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                o[k++] = (char)(0xE0 | cp >> 12);
                o[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                o[k++] = (char)(0x80 | (cp & 0x3F));
            } else {
                o[k++] = (char)(0xF0 | cp >> 18);
                o[k++] = (char)(0x80 | ((cp >> 12) & 0x3F));
                o[k++] = (char)(0x80 | ((cp >> 6) & 0x3F));
                o[k++] = (char)(0x80 | (cp & 0x3F));
            }
            continue;
        }
        if (strchr("ntrbfe0avN_LP", c)) {
            o[k++] = ' ';
        } else if (strchr("\"\\/' \t", c)) {
            o[k++] = c;
        } else {   /* no escape (\c): repairs keep it as text, backslash and all */
            o[k++] = '\\';
            o[k++] = c;
        }
    }
    o[k] = '\0';
    *out_len = k;
    return o;
}

static int ws_build(wordset *w, const char *s, size_t n)
{
    size_t words = 1;
    for (size_t i = 0; i < n;) {
        size_t k = sep_len(s, n, i);
        if (k) {
            i += k;
            continue;
        }
        words++;
        i = word_end(s, n, i);
    }
    w->cap = 64;
    while (w->cap < words * 2)
        w->cap *= 2;
    w->cap *= 8;    /* room for the words of the unescaped readings too */
    w->h = calloc(w->cap, sizeof *w->h);
    if (!w->h)
        return -1;
    ws_scan(w, s, n);
    /* a backslash before a line break is YAML's escaped break (the words either side
     * join) or, in JSON, an invalid escape a repair keeps as text (the break separates:
     * run 32 8b60ed7e, '\nnnnnnnnn4\' + a line break): both readings give words; without
     * such a break they are one */
    bool escaped_break = memmem(s, n, "\\\n", 2) || memmem(s, n, "\\\r", 2);
    for (int join = 1; join >= (escaped_break ? 0 : 1); join--) {
        size_t ul;
        char *u = unescape(s, n, join, true, &ul);
        if (u)
            ws_scan(w, u, ul);
        free(u);
    }
    /* JSON has no \x or \U escape: its repair keeps `\xdef` as text (run 57: `\nIn\xdef` is "In" and
     * "xdef" there, "InÞf" to YAML) */
    if (memmem(s, n, "\\x", 2) || memmem(s, n, "\\U", 2)) {
        size_t ul;
        char *u = unescape(s, n, false, false, &ul);
        if (u)
            ws_scan(w, u, ul);
        free(u);
    }
    return 0;
}

static bool enum_value(const mf_profile *p, const char *s)
{
    const char *k;
    json_t *e;
    if (!p)
        return false;
    json_object_foreach(p->enums, k, e) {
        const json_t *vals = json_object_get(e, "values"), *map = json_object_get(e, "map");
        for (size_t i = 0; json_is_array(vals) && i < json_array_size(vals); i++)
            if (json_is_string(json_array_get(vals, i)) && !strcmp(json_string_value(json_array_get(vals, i)), s))
                return true;
        const char *mk;
        json_t *mv;
        json_object_foreach((json_t *)map, mk, mv) if (json_is_string(mv) && !strcmp(json_string_value(mv), s)) return true;
    }
    const char *dk;
    json_t *dv;
    json_object_foreach(p->defaults, dk, dv) if (json_is_string(dv) && !strcmp(json_string_value(dv), s)) return true;
    return false;
}

/* Is s a string somewhere in v (at most depth levels down)? */
static bool holds_string(const json_t *v, const char *s, int depth)
{
    if (json_is_string(v))
        return !strcmp(json_string_value(v), s);
    if (depth <= 0)
        return false;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (holds_string(json_array_get(v, i), s, depth - 1))
                return true;
        return false;
    }
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x) if (holds_string(x, s, depth - 1)) return true;
    return false;
}

/* A string of the runtime context, at any depth: a normalizer copies it in
 * (ticket id, the approved interview's question metadata for a Full Answers
 * overlay), so it is no invention. */
static bool from_options(const mf_options *o, const char *s)
{
    return o && o->context && holds_string(o->context, s, 16);
}

typedef struct {
    const wordset *ws;
    const mf_oracle_input *in;
    size_t budget;
    char bad[200];
} invent_ctx;

/* Every word of s is a word of the input; else the first unknown word is s[*at, *at + *len). */
static bool words_known(const wordset *w, const char *s, size_t n, size_t *at, size_t *len)
{
    for (size_t i = 0; i < n;) {
        size_t k = sep_len(s, n, i);
        if (k) {
            i += k;
            continue;
        }
        size_t j = word_end(s, n, i);
        if (!ws_has(w, word_hash(s + i, j - i))) {
            *at = i;
            *len = j - i;
            return false;
        }
        i = j;
    }
    return true;
}

/* w is input words glued end to end (at most depth + 1 of them), as joining
 * quoted strings with '+' makes ("description" + "Build it"). */
static bool glued_words(const wordset *ws, const char *w, size_t n, int depth)
{
    if (ws_has(ws, word_hash(w, n)))
        return true;
    for (size_t k = 1; depth > 0 && k < n; k++)
        if (ws_has(ws, word_hash(w, k)) && glued_words(ws, w + k, n - k, depth - 1))
            return true;
    return false;
}

/* Is the scalar v (at path) a word the input does not hold and no warning names? */
static bool invented(const json_t *v, const char *path, void *ctx)
{
    invent_ctx *c = ctx;
    if (!c->budget)
        return false;
    c->budget--;
    char text[64], missing[48];
    const char *s;
    size_t n, at = 0, len = 0;
    if (json_is_string(v)) {
        s = json_string_value(v);
        n = json_string_length(v);
    } else if (json_is_integer(v)) {
        snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        s = text[0] == '-' ? text + 1 : text;
        n = strlen(s);
    } else {
        return false;
    }
    if (words_known(c->ws, s, n, &at, &len))
        return false;
    /* the whole word is judged (a long word glued by '+' is an input word's prefix no more);
     * a shortened copy of it is named */
    char *word = strndup(s + at, len);
    if (!word)
        return false;
    snprintf(missing, sizeof missing, "%.*s", (int)(len > 40 ? 40 : len), word);
    bool named = warned_about(c->in->result, word) || warned_about(c->in->result, missing) ||
                 (rule_fired(c->in->result, "json.string-concat") && glued_words(c->ws, word, len, 3));
    free(word);
    const mf_profile *p = profile_of(c->in);
    if (json_is_string(v) && (enum_value(p, s) || from_options(c->in->opt, s)))
        return false;
    if (named || warned_about(c->in->result, s))
        return false;
    snprintf(c->bad, sizeof c->bad, "%s: word '%s' is not in the input and no warning names it", *path ? path : "/",
             missing);
    return true;
}

int mf_oracle_no_data_loss(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    const mf_result *r = in->result;
    bool acc = r->status == MF_ACCEPTED && r->value;
    char path[512] = "";
    switch (in->expect) {
    case MF_EXPECT_REJECT:
        if (acc)
            snprintf(v->detail, sizeof v->detail, "accepted an output that must be rejected (candidate %s)",
                     r->candidate ? r->candidate : "?");
        break;
    case MF_EXPECT_REPAIR:
        if (!acc) {
            snprintf(v->detail, sizeof v->detail, "rejected (tier %d %s: %.200s) though a rule promises to repair every "
                     "malformation of the case", r->error.tier, r->error.type ? r->error.type : "?",
                     r->error.message ? r->error.message : "");
            break;
        }
        /* fall through */
    case MF_EXPECT_EXACT:
        if (acc && in->truth && !json_equal(r->value, (json_t *)in->truth)) {
            char d[300];
            first_diff(r->value, in->truth, d, sizeof d);
            snprintf(v->detail, sizeof v->detail, "exact contract broken: %s", d);
        }
        break;
    case MF_EXPECT_SUBSET: {
        subset_ctx c = {profile_of(in) ? profile_of(in)->defaults : NULL, r,
                        acc && rule_fired(r, "json.truncated")
                            ? last_scalar(r->value, profile_of(in) ? profile_of(in)->defaults : NULL, 0) : NULL};
        if (acc && in->truth && !subset(r->value, in->truth, NULL, &c, path, sizeof path, 0))
            snprintf(v->detail, sizeof v->detail, "subset contract broken at %.300s: value changed or invented",
                     *path ? path : "/");
        break;
    }
    case MF_EXPECT_RAW: {
        if (!acc) {
            v->ran = false;
            break;
        }
        wordset ws;
        if (ws_build(&ws, in->raw, in->raw_len) < 0) {
            v->ran = false;
            break;
        }
        invent_ctx c = {&ws, in, 100000, ""};
        if (mf_walk_leaves(r->value, path, sizeof path, 0, invented, &c))
            snprintf(v->detail, sizeof v->detail, "invented scalar at %s", c.bad);
        else if (mf_sign_changed(in->raw, in->raw_len, r->value, c.bad, sizeof c.bad))
            snprintf(v->detail, sizeof v->detail, "sign changed at %s", c.bad);
        free(ws.h);
        break;
    }
    }
    return finish(v);
}

/* ---- accounting ---- */

/* Is s the text of the scalar want (a number, boolean or null; YAML 1.2 core: null, Null, NULL, ~)? */
static bool scalar_text(const json_t *want, const char *s)
{
    char *e;
    if (!*s)
        return json_is_null(want);
    if (json_is_integer(want)) {            /* YAML 1.2 core ints: 31, +31, 0x1F, 0o37 */
        bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X'), oct = s[0] == '0' && s[1] == 'o';
        long long x = strtoll(hex || oct ? s + 2 : s, &e, hex ? 16 : oct ? 8 : 10);
        return !*e && x == json_integer_value(want);
    }
    if (json_is_real(want)) {
        double x = strtod(s, &e);
        return !*e && x == json_real_value(want);
    }
    if (json_is_boolean(want))
        return !strcasecmp(s, json_is_true(want) ? "true" : "false") ||
               !strcasecmp(s, json_is_true(want) ? "yes" : "no") || !strcasecmp(s, json_is_true(want) ? "on" : "off");
    return json_is_null(want) && (!strcmp(s, "null") || !strcmp(s, "Null") || !strcmp(s, "NULL") || !strcmp(s, "~"));
}

static bool declared_string(const mf_profile *p, const char *key)
{
    return key && p && (json_object_get(p->string_fields, key) || json_object_get(p->free_text_fields, key));
}

/* got equals the plain parse want, except that a field the profile declares
 * a string (string_fields, free_text_fields: documented normalizations) may
 * hold the text of the scalar the plain parse read (2 -> "2", 050 -> "050"). */
static bool equal_as_declared(const json_t *got, const json_t *want, const mf_profile *p, const char *key, int d)
{
    if (json_equal((json_t *)got, (json_t *)want))
        return true;
    if (json_is_string(got) && !json_is_string(want) && !json_is_object(want) && !json_is_array(want))
        return declared_string(p, key) && scalar_text(want, json_string_value(got));
    if (d > 64)
        return false;
    if (json_is_object(got) && json_is_object(want)) {
        if (json_object_size(got) != json_object_size(want))
            return false;
        const char *k;
        json_t *g;
        json_object_foreach((json_t *)got, k, g) {
            const json_t *w = json_object_get(want, k);
            if (!w || !equal_as_declared(g, w, p, k, d + 1))
                return false;
        }
        return true;
    }
    if (json_is_array(got) && json_is_array(want) && json_array_size(got) == json_array_size(want)) {
        for (size_t i = 0; i < json_array_size(got); i++)
            if (!equal_as_declared(json_array_get(got, i), json_array_get(want, i), p, key, d + 1))
                return false;
        return true;
    }
    return false;
}

int mf_oracle_accounting(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    const mf_result *r = in->result;
    bool raw_cand = r->candidate && strcmp(r->candidate, "raw") == 0;
    bool should = r->warnings.count > 0 || (r->status == MF_ACCEPTED && !raw_cand);
    if (r->status == MF_ACCEPTED && r->repair_applied != should) {
        snprintf(v->detail, sizeof v->detail, "repair_applied=%d but %zu warnings, candidate %s", r->repair_applied,
                 r->warnings.count, r->candidate ? r->candidate : "(none)");
        return finish(v);
    }
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        if (!w->rule || !mf_rules_find(w->rule)) {
            snprintf(v->detail, sizeof v->detail, "warning %zu names unregistered rule '%s'", i, w->rule ? w->rule : "(null)");
            return finish(v);
        }
        if (!w->message || !*w->message || w->line < 0) {
            snprintf(v->detail, sizeof v->detail, "warning %zu (%s) has no message or a negative line", i, w->rule);
            return finish(v);
        }
    }
    if (r->status != MF_ACCEPTED || r->warnings.count || !r->value || !in->profile)
        return finish(v);
    /* zero warnings: the value must be the plain parse of the input */
    const mf_profile *g = mf_profiles_get(in->profile->format == MF_FORMAT_JSON ? "generic_json" : "generic_yaml");
    if (!g)
        return finish(v);
    mf_result *plain = mf_repair(g, in->raw, in->raw_len, in->opt);
    if (plain && plain->status == MF_ACCEPTED && plain->warnings.count == 0 && !plain->repair_applied &&
        !equal_as_declared(r->value, plain->value, in->profile, NULL, 0)) {
        char d[300];
        first_diff(r->value, plain->value, d, sizeof d);
        snprintf(v->detail, sizeof v->detail, "silent change: no warning but the value differs from the input's parse: %s", d);
    }
    mf_result_free(plain);
    return finish(v);
}

/* ---- determinism ---- */

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int mf_oracle_determinism(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    const mf_result *a = in->result;
    mf_result *b = mf_repair(in->profile, in->raw, in->raw_len, in->opt);
    if (!b) {
        snprintf(v->detail, sizeof v->detail, "second repair returned NULL");
        return finish(v);
    }
    if (a->status != b->status)
        snprintf(v->detail, sizeof v->detail, "status differs between two runs");
    else if (!json_equal(a->value, b->value) && (a->value || b->value))
        snprintf(v->detail, sizeof v->detail, "value differs between two runs");
    else if (!same_str(a->candidate, b->candidate))
        snprintf(v->detail, sizeof v->detail, "candidate differs: %s vs %s", a->candidate, b->candidate);
    else if (a->warnings.count != b->warnings.count)
        snprintf(v->detail, sizeof v->detail, "%zu warnings then %zu", a->warnings.count, b->warnings.count);
    else if (a->error.tier != b->error.tier || !same_str(a->error.type, b->error.type) ||
             !same_str(a->error.message, b->error.message) || a->error.line != b->error.line)
        snprintf(v->detail, sizeof v->detail, "rejection differs between two runs");
    for (size_t i = 0; !v->detail[0] && i < a->warnings.count; i++) {
        const mf_warning *x = &a->warnings.items[i], *y = &b->warnings.items[i];
        if (!same_str(x->rule, y->rule) || !same_str(x->message, y->message) || x->line != y->line)
            snprintf(v->detail, sizeof v->detail, "warning %zu differs: %s vs %s", i, x->rule, y->rule);
    }
    mf_result_free(b);
    return finish(v);
}

int mf_oracles_run(const mf_oracle_input *in, mf_verdict *v)
{
    return mf_oracles_run_except(in, v, 0);
}

int mf_oracles_run_except(const mf_oracle_input *in, mf_verdict *v, unsigned skip)
{
    int (*const fns[MF_ORACLE_COUNT])(const mf_oracle_input *, mf_verdict *) = {
#define ORACLE(cname, name, fn) [MF_ORACLE_##cname] = fn,
#include "malform/oracles.def"
#undef ORACLE
    };
    int failed = 0;
    for (int i = 0; i < MF_ORACLE_COUNT; i++) {
        if (skip & (1u << i)) {
            memset(&v[i], 0, sizeof v[i]);
            continue;
        }
        failed += fns[i](in, &v[i]);
    }
    return failed;
}
