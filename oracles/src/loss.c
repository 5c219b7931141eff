/* loss.c - oracles that see data loss without ground truth (raw mode: a
 * fuzz_raw input, a field output, an ambiguous structured case).
 *
 * conservation: every token of the text the pipeline finally parsed
 *   (mf_result.text: words, numbers, the content of quoted strings) is in
 *   the output value - as a key, in a string, or as a number of the same
 *   value - or a warning names it. YAML comments, tags, anchors and the
 *   format's literals (true, no, null, ~) are syntax, not data.
 * structure: a string of the output that holds a member-shaped run for a key
 *   its enclosing object should have but lacks (a property of the profile's
 *   schema there, a key its sibling objects have, or a top-level key of the
 *   profile) swallowed that member: `"key":` (JSON) or `key:` at a line
 *   start (YAML, also after a folded line break), e.g. an unclosed quote
 *   that ran over the next lines - unless the case's ground truth holds that
 *   run in a string itself (a value op wrote "key: v\nother: w" on purpose),
 *   or the string was a string of the input already: a quoted string closed
 *   on its own line that decodes to it, or a block scalar's body (the run is
 *   the string's own text; with no ground truth, e.g. an AFL-damaged clean
 *   artifact, that is all there is to go by), or a warning says the string
 *   was kept whole on purpose (a rule's "guessed that <the value> is one
 *   string", quoting it). */
#define _GNU_SOURCE /* memmem */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "malform/oracles.h"
#include "radix.h"
#include "verdict.h"

static bool applies(const mf_oracle_input *in)
{
    return in->expect == MF_EXPECT_RAW && in->result && in->result->status == MF_ACCEPTED && in->result->value;
}

/* ---- a growable bag of lowercase words (linear probing over 64-bit hashes) ---- */

typedef struct {
    unsigned long long *h;
    size_t cap, n;
    double *nums;
    size_t nn, ncap;
} bag;

static unsigned long long hash_word(const char *s, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 1099511628211ull;
    return h | 1;
}

static int bag_add(bag *b, unsigned long long h)
{
    if ((b->n + 1) * 2 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        unsigned long long *nh = calloc(cap, sizeof *nh);
        if (!nh)
            return -1;
        for (size_t i = 0; i < b->cap; i++)
            if (b->h[i]) {
                size_t j = b->h[i] & (cap - 1);
                while (nh[j])
                    j = (j + 1) & (cap - 1);
                nh[j] = b->h[i];
            }
        free(b->h);
        b->h = nh;
        b->cap = cap;
    }
    size_t j = h & (b->cap - 1);
    while (b->h[j] && b->h[j] != h)
        j = (j + 1) & (b->cap - 1);
    if (!b->h[j]) {
        b->h[j] = h;
        b->n++;
    }
    return 0;
}

static bool bag_has(const bag *b, unsigned long long h)
{
    if (!b->cap)
        return false;
    size_t j = h & (b->cap - 1);
    while (b->h[j]) {
        if (b->h[j] == h)
            return true;
        j = (j + 1) & (b->cap - 1);
    }
    return false;
}

static int bag_num(bag *b, double x)
{
    if (b->nn == b->ncap) {
        size_t cap = b->ncap ? b->ncap * 2 : 64;
        double *t = realloc(b->nums, cap * sizeof *t);
        if (!t)
            return -1;
        b->nums = t;
        b->ncap = cap;
    }
    b->nums[b->nn++] = x;
    return 0;
}

/* Bytes of the separator at s[i] (ASCII non-alphanumerics; U+00A0, general
 * punctuation U+2000..U+207F such as smart quotes and dashes, CJK
 * punctuation, BOM), or 0 when s[i] starts a word character. */
static size_t sep_len(const char *str, size_t n, size_t i)
{
    const unsigned char *s = (const unsigned char *)str;
    if (s[i] < 0x80)
        return isalnum(s[i]) ? 0 : 1;
    if (s[i] == 0xC2 && i + 1 < n && (s[i + 1] == 0xA0 || s[i + 1] == 0x85))
        return 2; /* U+00A0, U+0085 (NEL: a YAML line break as libyaml reads it, YAML's \N) */
    if (s[i] == 0xE2 && i + 2 < n && (s[i + 1] == 0x80 || s[i + 1] == 0x81))
        return 3;
    if (s[i] == 0xE3 && i + 2 < n && s[i + 1] == 0x80)
        return 3;
    if (s[i] == 0xEF && i + 2 < n && s[i + 1] == 0xBB && s[i + 2] == 0xBF)
        return 3;
    return 0;
}

static bool word_char(unsigned char c)
{
    return isalnum(c) || c >= 0x80;
}

/* Words of s (and each word with its leading zeros dropped) and the numbers it spells. */
static int bag_text(bag *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t k = sep_len(s, n, i);
        if (k) {
            i += k;
            continue;
        }
        size_t j = i;
        while (j < n && !sep_len(s, n, j))
            j++;
        if (bag_add(b, hash_word(s + i, j - i)) < 0)
            return -1;
        i = j;
    }
    return 0;
}

static size_t unescape(char *s, size_t n, bool yaml);

/* The words of an output string (or key). A string that keeps backslash
 * escapes as text (JSON inside a YAML block scalar, a complex key written as
 * JSON, a bare word `\\u7777` json.bare-word kept) also counts the words its
 * escapes would separate and the text they would decode to: the input side
 * may read "\\nimport" as a line break, then "import", and decodes escapes
 * outside strings too (run 57). */
static int bag_string(bag *b, const char *s, size_t n)
{
    if (bag_text(b, s, n) < 0)
        return -1;
    if (!memchr(s, '\\', n))
        return 0;
    char *t = malloc(n + 1);
    if (!t)
        return -1;
    memcpy(t, s, n + 1);
    for (size_t i = 0; i + 1 < n; i++)
        if (t[i] == '\\' && isalpha((unsigned char)t[i + 1]))
            t[i] = t[i + 1] = ' ';
    int rc = bag_text(b, t, n);
    memcpy(t, s, n + 1);
    rc = rc < 0 ? rc : bag_text(b, t, unescape(t, n, false));
    free(t);
    return rc;
}

static int bag_value(bag *b, const json_t *v, int d)
{
    if (d > 64)
        return 0;
    if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            if (bag_string(b, k, strlen(k)) < 0 || bag_value(b, x, d + 1) < 0)
                return -1;
            /* a collection key is kept as its JSON text (`[3,04]:` is the key "[3, 4]"):
             * its numbers are numbers, written the loader's way (run 38 70d8aff6) */
            json_t *kv = k[0] == '[' || k[0] == '{' ? json_loads(k, 0, NULL) : NULL;
            int rc = kv ? bag_value(b, kv, d + 1) : 0;
            json_decref(kv);
            if (rc < 0)
                return -1;
        }
        return 0;
    }
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            if (bag_value(b, json_array_get(v, i), d + 1) < 0)
                return -1;
        return 0;
    }
    if (json_is_string(v))
        return bag_string(b, json_string_value(v), json_string_length(v));
    if (json_is_number(v)) {
        char t[64];
        if (json_is_integer(v))
            snprintf(t, sizeof t, "%lld", (long long)json_integer_value(v));
        else
            snprintf(t, sizeof t, "%.17g", json_real_value(v));
        return bag_num(b, json_number_value(v)) < 0 ? -1 : bag_text(b, t, strlen(t));
    }
    return 0;
}

static bool literal(const char *s, size_t n)
{
    static const char *const lits[] = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", NULL};
    for (int i = 0; lits[i]; i++)
        if (strlen(lits[i]) == n && !strncasecmp(s, lits[i], n))
            return true;
    return false;
}

/* Does a separator (sep_len: ASCII punctuation, NBSP, general punctuation;
 * an escape such as \n or \u0000 in a quoted value) end just before p in
 * the message m? */
static bool sep_before(const char *m, const char *p)
{
    if (p == m || !word_char((unsigned char)p[-1]) || (p - m >= 2 && p[-2] == '\\'))
        return true;
    if (p - m >= 6 && p[-6] == '\\' && p[-5] == 'u' && isxdigit((unsigned char)p[-4]) &&
        isxdigit((unsigned char)p[-3]) && isxdigit((unsigned char)p[-2]) && isxdigit((unsigned char)p[-1]))
        return true;
    for (size_t k = 2; k <= 3; k++)
        if ((size_t)(p - m) >= k && sep_len(p - k, k, 0) == k)
            return true;
    return false;
}

/* Does a warning name the token (as a word of its message; a "\n" escape
 * in a quoted old value separates words too)? */
static bool warned(const mf_result *r, const char *s, size_t n)
{
    for (size_t i = 0; i < r->warnings.count; i++)
        for (const char *m = r->warnings.items[i].message, *p = m; p && *p; p++)
            if (!strncasecmp(p, s, n) && sep_before(m, p) &&
                (!word_char((unsigned char)p[n]) || sep_len(p + n, strlen(p + n), 0)))
                return true;
    return false;
}

/* Rules that drop or rename a whole element and name it by its place (index,
 * key), not by its words: after one of them the tokens cannot be accounted
 * one by one, so conservation does not judge the input. */
static bool dropped_element(const mf_result *r)
{
    static const char *const rules[] = {"norm.change-skipped", "yaml.duplicate-key", "json.concatenated", "norm.wrapper",
                                        "norm.key-alias", "norm.full-answers-overlay", "norm.full-answers-hoist",
                                        "norm.content-sha256", "json.truncated", "json.duplicate-key", NULL};
    for (int k = 0; rules[k]; k++)
        if (rule_fired(r, rules[k]))
            return true;
    return false;
}

/* A key name that a shape normalization renames away (schema.qa-tests turns
 * files: [{path, content}] into test_file / test_content): its word leaves
 * the output by that rule, which names the shape, not the key. */
static bool renamed_key(const mf_result *r, const char *s, size_t n)
{
    static const struct { const char *rule, *keys[4]; } shapes[] = {
        {"schema.qa-tests", {"files", "path", "content", NULL}},
        {"schema.artifact-markdown", {"filename", "content", NULL}},
    };
    for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
        bool fired = rule_fired(r, shapes[k].rule);
        for (int j = 0; fired && shapes[k].keys[j]; j++)
            if (strlen(shapes[k].keys[j]) == n && !memcmp(shapes[k].keys[j], s, n))
                return true;
    }
    return false;
}

/* Is s[a, a + 3) a smart quote (U+2018, U+2019, U+201C, U+201D)? core
 * concatenates strings in those quotes too (`"k"+ “v”`). */
static bool smart_quote3(const char *s, size_t n, size_t a)
{
    const unsigned char *u = (const unsigned char *)s;
    return a + 2 < n && u[a] == 0xE2 && u[a + 1] == 0x80 &&
           (u[a + 2] == 0x98 || u[a + 2] == 0x99 || u[a + 2] == 0x9C || u[a + 2] == 0x9D);
}

/* The token s[i, j) ends a string before a '+' or starts one after it, and
 * json.string-concat joined those strings: its word is glued to the next
 * string's first word in the output ("twoion" + "Build" = "twoionBuild").
 * The strings' delimiters are any quote core concatenates: '"', '\'', '`' or
 * a smart quote. */
static bool concat_edge(const mf_result *r, const char *s, size_t n, size_t i, size_t j)
{
    size_t a = j, b = i;
    for (;;) {                          /* the operand may sit on the next line */
        if (a < n && s[a] && strchr("\"'` \t\r\n", s[a]))
            a++;
        else if (smart_quote3(s, n, a))
            a += 3;
        else
            break;
    }
    for (;;) {
        if (b > 0 && s[b - 1] && strchr("\"'` \t\r\n", s[b - 1]))
            b--;
        else if (b >= 3 && smart_quote3(s, n, b - 3))
            b -= 3;
        else
            break;
    }
    return ((a < n && s[a] == '+') || (b > 0 && s[b - 1] == '+')) && rule_fired(r, "json.string-concat");
}

/* Blank JSON comments (// and # to the line end, slash-star to star-slash)
 * outside strings. A marker glued to a word is no comment: core's reader
 * sees one only between tokens, and a bare word holds it (`1#c`, `abc//d`).
 * A string ends at its line's end here: one a missing quote left open
 * (`"a": "it'`) must not turn the string state of the lines below over,
 * where a key's `"#ontent"` or a string's `lin#e` then read as comments
 * that blanked a concatenation's '+' (run 50 8042ccd5). */
static void blank_json_comments(char *s, size_t n)
{
    bool str = false;
    for (size_t i = 0; i < n; i++) {
        if (str) {
            if (s[i] == '\\' && i + 1 < n && s[i + 1] != '\n')
                i++;
            else if (s[i] == '"' || s[i] == '\n')
                str = false;
        } else if (s[i] == '"') {
            str = true;
        } else if (i > 0 && (s[i] == '#' || (s[i] == '/' && i + 1 < n && s[i + 1] == '/')) &&
                   word_char((unsigned char)s[i - 1])) {
            i += s[i] == '/';
        } else if (s[i] == '#' || (s[i] == '/' && i + 1 < n && s[i + 1] == '/')) {
            while (i < n && s[i] != '\n')
                s[i++] = ' ';
        } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
                j++;
            for (size_t e = j + 2 < n ? j + 2 : n; i < e; i++)
                s[i] = ' ';
            i--;
        }
    }
}

/* Length of the numeric escape at s[i] with all its hex digits, or 0:
 * \uNNNN, and in YAML (yaml true) also \xNN and \UNNNNNNNN. JSON has no
 * \x or \U: json.invalid-escape keeps "\xec(" as the text it shows, so
 * reading it as 'ì(' named a token no output could hold (run 11 312e3774). */
static size_t numeric_escape(const char *s, size_t n, size_t i, bool yaml)
{
    if (s[i] != '\\' || i + 1 >= n || (s[i + 1] != 'u' && (!yaml || (s[i + 1] != 'x' && s[i + 1] != 'U'))))
        return 0;
    size_t digits = s[i + 1] == 'x' ? 2 : s[i + 1] == 'u' ? 4 : 8;
    for (size_t j = i + 2; j < i + 2 + digits; j++)
        if (j >= n || !isxdigit((unsigned char)s[j]))
            return 0;
    return 2 + digits;
}

/* The value of the nd hex digits at h. */
static unsigned long escape_value(const char *h, size_t nd)
{
    unsigned long v = 0;
    for (size_t j = 0; j < nd; j++)
        v = v << 4 | (unsigned long)(isdigit((unsigned char)h[j]) ? h[j] - '0' : (tolower((unsigned char)h[j]) - 'a' + 10));
    return v;
}

/* Write code point cp as UTF-8 at o (a NUL, a lone surrogate or a value
 * past U+10FFFF as one separating blank); returns the bytes written. The
 * character, not a blank: "t\ue333" is one word in the output too. */
static size_t put_code_point(char *o, unsigned long cp)
{
    if (cp == 0 || (cp >= 0xD800 && cp < 0xE000) || cp > 0x10FFFF) {
        o[0] = ' ';
        return 1;
    }
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Does a quote after byte prev (nb: the last non-blank byte before it, prev2
 * the byte before prev) open a YAML quoted scalar? Only where a scalar
 * starts: at a line's start, after an indicator (`: `, `- `, `? `, a flow
 * `[ { ,`), glued to a flow `[ { ,`, or glued to a ':' after a JSON-like key
 * (`{"a":"b"}`), as libyaml reads them. A quote after a blank inside a plain
 * scalar (`summar "Implemented login: "tokens\x04"`, a key holding a quote)
 * is text, and so is one glued to a ':' or '-' that opens or sits in a plain
 * scalar (`:"00\00`, `-"x`, `a:"b`, `yaml.quoted-"hash`). */
static bool quote_opens(char prev, char nb, char prev2)
{
    if (prev == ':')
        return prev2 && strchr("\"']}", prev2);
    if (prev != ' ' && prev != '\t')
        return strchr("[{,\n", prev) != NULL;
    return strchr("\n:-?[{,", nb) != NULL;
}

/* Decode backslash escapes in place ("\n" -> newline, "\"" -> quote; a
 * numeric escape (numeric_escape) is the character it spells). A \x, \u or
 * \U without all its hex digits is no escape ("req\uired" kept as text by
 * json.invalid-escape): only its backslash separates. In YAML (yaml true)
 * only double-quoted scalars have escapes: a plain `st\tus` is text; there a
 * backslash ending a line escapes the break (YAML 1.2 s-double-escaped). */
static size_t unescape(char *s, size_t n, bool yaml)
{
    size_t k = 0;
    bool dq = false;                    /* YAML: inside a double-quoted scalar */
    bool sq = false;                    /* YAML: inside a single-quoted scalar (no escapes; a '"' is text) */
    char nb = '\n';                     /* the last non-blank byte before i */
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (sq) { /* `'"pinnale: "some rul'`: its double quotes open no scalar (run 8 a99bb9dc) */
            s[k++] = c;
            if (c == '\'' && i + 1 < n && s[i + 1] == '\'')
                s[k++] = s[++i]; /* '' is one quote */
            else if (c == '\'')
                sq = false, nb = c;
            continue;
        }
        if (yaml && !dq && c == '\'' && quote_opens(i ? s[i - 1] : '\n', nb, i > 1 ? s[i - 2] : '\n')) {
            sq = true;
            s[k++] = c;
            continue;
        }
        bool opens = yaml && c == '"' && (dq || quote_opens(i ? s[i - 1] : '\n', nb, i > 1 ? s[i - 2] : '\n'));
        if (c != ' ' && c != '\t')
            nb = c;
        if (opens) {
            dq = !dq;
            s[k++] = s[i];
            continue;
        }
        if (yaml && !dq) {
            s[k++] = s[i];
            continue;
        }
        if (yaml && s[i] == '\\' && i + 1 < n && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
            /* an escaped line break (`"# Constitution\` + `  profihip`): the break and the next
             * line's leading blanks are no text, the words either side are one (run 9 4668f83b) */
            i += s[i + 1] == '\r' ? 2 : 1;
            while (i + 1 < n && (s[i + 1] == ' ' || s[i + 1] == '\t'))
                i++;
            continue;
        }
        size_t e = numeric_escape(s, n, i, yaml);
        if (e) {
            unsigned long cp = escape_value(s + i + 2, e - 2);
            if (cp >= 0xD800 && cp < 0xDC00 && e == 6 && numeric_escape(s, n, i + 6, yaml) == 6 && s[i + 7] == 'u') {
                unsigned long lo = escape_value(s + i + 8, 4);  /* a surrogate pair: one character */
                if (lo >= 0xDC00 && lo < 0xE000) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    e += 6;
                }
            }
            k += put_code_point(s + k, cp);
            i += e - 1;
        } else if (yaml && s[i] == '\\' && i + 1 < n && s[i + 1] && strchr("0aevNLP_", s[i + 1])) {
            s[k++] = ' ';               /* YAML's own escapes: NUL, bell, ESC, VT, NEL, LS, PS, NBSP */
            i++;
        } else if (s[i] == '\\' && i + 1 < n && strchr("nrtbf\"'\\/", s[i + 1])) {
            char c = s[++i];
            s[k++] = c == 'n' || c == 'r' || c == 't' || c == 'b' || c == 'f' ? ' ' : c;
        } else {
            s[k++] = s[i];
        }
    }
    return k;
}

/* Does the '|' or '>' at s[i] end its line as a block header does (at most
 * two indicators, then a blank, a comment or the line end)? In a plain
 * scalar (`LT-|-142`) the bytes after it are text: its "indicators" too. */
static bool ends_as_header(const char *s, size_t n, size_t i)
{
    size_t k = i + 1;
    while (k < n && k <= i + 2 && s[k] && strchr("123456789+-", s[k]))
        k++;
    return k >= n || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r';
}

/* Blank YAML comments, tags (!x), anchors and aliases (&x, *x) outside quotes. */
static void blank_yaml_syntax(char *s, size_t n)
{
    char q = 0, nb = '\n';              /* nb: the last non-blank byte before i */
    for (size_t i = 0; i < n; i++) {
        char c = s[i], pnb = nb;
        if (c != ' ' && c != '\t')
            nb = c;
        if (c == '\n') {
            q = 0;
            continue;
        }
        if (q) {
            if (q == '"' && c == '\\' && i + 1 < n && s[i + 1] != '\n')
                i++;                    /* an escape: `\\` or `\"` ends no scalar */
            else if (q == '\'' && c == '\'' && i + 1 < n && s[i + 1] == '\'')
                i++;                    /* '' is one quote: the scalar goes on */
            else if (c == q)
                q = 0;
            continue;
        }
        if ((c == '"' || c == '\'') && quote_opens(i ? s[i - 1] : '\n', pnb, i > 1 ? s[i - 2] : '\n'))
            q = c;
        else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n'))
            while (i < n && s[i] != '\n')
                s[i++] = ' ';
        else if ((c == '|' || c == '>') && (i == 0 || strchr(" \t:-\n", s[i - 1])) && ends_as_header(s, n, i))
            for (size_t k = i + 1; k < n && k <= i + 2 && strchr("123456789+-", s[k]) && s[k]; k++)
                s[k] = ' '; /* a block header's indentation and chomping indicators: syntax */
        else if ((c == '!' || c == '&' || c == '*') && quote_opens(i ? s[i - 1] : '\n', pnb, i > 1 ? s[i - 2] : '\n') &&
                 i + 1 < n && s[i + 1] != ' ') {
            /* a property or an alias starts a node, as a quoted scalar does: inside a plain
             * scalar (`+ *: "\x0b:"`, key '+ *') it is text, and blanking it took the key's
             * ':' along, so the value's quote opened nothing (run 10 5292483c-rbf8b2d67).
             * After a property the next node still starts there (`&a "v"`, `!t &a x`). */
            while (i < n && s[i] != ' ' && s[i] != '\n')
                s[i++] = ' ';
            nb = pnb;
        }
        if (i < n && s[i] == '\n')
            q = 0;
    }
}

/* A blank or control byte: in a preview it may stand for a folded line
 * break or for a control character the parsed text holds as an escape. */
static bool blank_or_control(unsigned char c)
{
    return isspace(c) || iscntrl(c);
}

/* End of a match of the preview [pre, pre+pl) at s[i], runs of blanks and
 * control bytes equal to any such run (a folded multi-line value, a control
 * character written as "\x02" in the parsed text), or 0. */
static size_t preview_match(const char *s, size_t n, size_t i, const char *pre, size_t pl)
{
    size_t k = 0;
    while (k < pl && i < n) {
        bool ws = blank_or_control((unsigned char)pre[k]), wt = blank_or_control((unsigned char)s[i]);
        if (ws && wt) {
            while (k < pl && blank_or_control((unsigned char)pre[k]))
                k++;
            while (i < n && blank_or_control((unsigned char)s[i]))
                i++;
        } else if (s[i] == pre[k]) {
            i++, k++;
        } else {
            return 0;
        }
    }
    return k == pl ? i : 0;
}

/* Blank each place the preview [pre, pre+pl) (a value's start, cut short)
 * occurs in s (whitespace runs compare equal: a folded value) and the rest
 * of the line it ends on. decode: the preview's escapes are read, as they
 * are in s once unescaped; else both are the input's own bytes. */
static void blank_preview(char *s, size_t n, const char *o, size_t pl, bool decode)
{
    char pre[128];
    pl = pl < sizeof pre - 1 ? pl : sizeof pre - 1;
    if (pl < 12)
        return;
    memcpy(pre, o, pl);
    if (decode)
        pl = unescape(pre, pl, false);
    while (pl > 0 && pre[pl - 1] == ' ')
        pl--;
    for (size_t i = 0; pl && i < n; i++) {
        /* a value's start begins no word of the text midway: the warning's preview may hold a
         * '"' of its own ("000"e 0ee..." quotes the line 000"e 0ee...), and its tail alone
         * ('e 0ee...') then matched inside 'p:0e 0ee...' (run 10 b1165c70) */
        if (i > 0 && word_char((unsigned char)pre[0]) && word_char((unsigned char)s[i - 1]))
            continue;
        size_t e = preview_match(s, n, i, pre, pl);
        if (e)
            for (; i < e || (i < n && s[i] != '\n'); i++)
                s[i] = ' ';
    }
}

/* A warning that ends with the removed text cut short after its first ": "
 * ("comment removed: #{\"task_id\": ...ex...") names all of it. */
static void blank_removed_previews(char *s, size_t n, const mf_result *r, bool decode)
{
    for (size_t w = 0; w < r->warnings.count; w++) {
        const char *m = r->warnings.items[w].message;
        size_t ml = m ? strlen(m) : 0;
        const char *c = m ? strstr(m, ": ") : NULL;
        if (ml > 3 && !strcmp(m + ml - 3, "...") && c && c + 2 < m + ml - 3)
            blank_preview(s, n, c + 2, (size_t)(m + ml - 3 - (c + 2)), decode);
    }
}

/* A warning that quotes a replaced value cut short ("Corrected story_id
 * from \"lorem ipsum dolor ...\" to ...") names the whole value. */
static void blank_previews(char *s, size_t n, const mf_result *r)
{
    for (size_t w = 0; w < r->warnings.count; w++) {
        const char *m = r->warnings.items[w].message;
        for (const char *q = m ? strstr(m, "...\"") : NULL; q; q = strstr(q + 4, "...\"")) {
            const char *o = q;
            while (o > m && !(o[-1] == '"' && (o - 1 == m || o[-2] != '\\')))
                o--;
            if (o != m)
                blank_preview(s, n, o, (size_t)(q - o), true);
        }
    }
    blank_removed_previews(s, n, r, true);
}

/* The text's scalars by the line lexer, for a text libyaml does not parse:
 * comments (and YAML's tags, anchors, aliases) blanked, escapes decoded in
 * place; returns the new length. */
static size_t lex_scalars(char *s, size_t n, const mf_result *r, bool yaml)
{
    /* removed text is quoted as the input's bytes: matched before comments are blanked, whose
     * string tracking a stray quote misleads (`-1",` then `[# {...` holding a block comment, run 22 2d37ac0a) */
    blank_removed_previews(s, n, r, false);
    if (yaml) {
        for (size_t i = 0; i < n; i++) { /* a lone CR is a YAML line break: '\r#o' is a comment line */
            unsigned char *u = (unsigned char *)s;
            if (s[i] == '\r' && (i + 1 == n || s[i + 1] != '\n'))
                s[i] = '\n';
            /* so are NEL, LS and PS, as libyaml (and core's loader) reads them: "\u0085" alone
             * is an empty document, "\u0085#o" a comment line (run 9 97b0a31e-r56a07f80) */
            if (u[i] == 0xC2 && i + 1 < n && u[i + 1] == 0x85)
                s[i] = ' ', s[i + 1] = '\n';
            if (u[i] == 0xE2 && i + 2 < n && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9))
                s[i] = s[i + 1] = ' ', s[i + 2] = '\n';
        }
        blank_yaml_syntax(s, n);
    } else {
        blank_json_comments(s, n);
    }
    return unescape(s, n, yaml);
}

typedef struct {
    char *s;
    size_t n, cap;
} scalar_buf;

/* Append the scalar [v, v+vn) and a line break to o (a NUL as a blank); 0 or -1. */
static int put_scalar(scalar_buf *o, const char *v, size_t vn)
{
    if (o->n + vn + 2 > o->cap) {
        size_t cap = (o->n + vn + 2) * 2;
        char *t = realloc(o->s, cap);
        if (!t)
            return -1;
        o->s = t, o->cap = cap;
    }
    for (size_t i = 0; i < vn; i++)
        o->s[o->n++] = v[i] ? v[i] : ' ';
    o->s[o->n++] = '\n';
    o->s[o->n] = 0;
    return 0;
}

/* The scalars of a YAML text as libyaml reads it (the reading core's loader
 * made of it: keys and values decoded, one a line; a NUL as a blank), or NULL
 * when it does not parse. Its scanner knows what the line lexer guesses: a
 * quoted scalar running over lines (`text: "a` ... `" # id: x`), a quote
 * that is block-scalar text or a plain scalar's (`|-` + `  " - \\0x`,
 * `------e` + `" # J`), a comment glued to a block header (`|-# see`). */
static char *yaml_scalars(const char *text, size_t n, size_t *out_n)
{
    yaml_parser_t parser;
    yaml_event_t e;
    scalar_buf o = {0};
    char *in = malloc(n + 2);
    if (!in || !yaml_parser_initialize(&parser)) {
        free(in);
        return NULL;
    }
    memcpy(in, text, n);
    size_t len = n;
    if (!n || text[n - 1] != '\n')
        in[len++] = '\n'; /* as core's loader reads it */
    yaml_parser_set_input_string(&parser, (const unsigned char *)in, len);
    bool ok = true, end = false;
    while (ok && !end) {
        if (!yaml_parser_parse(&parser, &e)) {
            ok = false;
            break;
        }
        end = e.type == YAML_STREAM_END_EVENT;
        if (e.type == YAML_SCALAR_EVENT)
            ok = put_scalar(&o, (const char *)e.data.scalar.value, e.data.scalar.length) == 0;
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&parser);
    free(in);
    if (!ok || !o.s) {
        free(o.s);
        return NULL;
    }
    *out_n = o.n;
    return o.s;
}

/* Start of the number around the digit at s[i]: back over digits, signs,
 * points and an exponent's e after a digit (`2E-2`: the `2` after `-` is
 * the exponent of 0.02, run 28 97b0a31e-r1bdcc10f). */
static size_t number_start(const char *s, size_t i)
{
    size_t a = i;
    while (a > 0) {
        char c = s[a - 1];
        bool exponent = (c == 'e' || c == 'E') && a >= 2 && (isdigit((unsigned char)s[a - 2]) || s[a - 2] == '.');
        if (!isdigit((unsigned char)c) && !(c && strchr("+-.", c)) && !exponent)
            break;
        a--;
    }
    return a;
}

/* Blank the fence lines (```lang, ~~~) of s: with schema.artifact-markdown
 * they are the blocks' syntax, and a block's language is no field of the
 * file it holds (a ```w line, then `filename: d`: main job 698a7923-rb8ddd69f). */
static void blank_fence_lines(char *s, size_t n)
{
    for (size_t a = 0; a < n;) {
        char *nl = memchr(s + a, '\n', n - a);
        size_t e = nl ? (size_t)(nl - s) : n, k = a;
        while (k < e && s[k] == ' ')
            k++;
        if (k + 3 <= e && (!memcmp(s + k, "```", 3) || !memcmp(s + k, "~~~", 3)))
            memset(s + k, ' ', e - k);
        a = e + 1;
    }
}

int mf_oracle_conservation(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    if (!applies(in) || !in->result->text || dropped_element(in->result)) {
        v->ran = false;
        return 0;
    }
    size_t n = strlen(in->result->text);
    char *s = malloc(n + 1);
    bag b = {0};
    if (!s || bag_value(&b, in->result->value, 0) < 0) {
        free(s);
        free(b.h);
        free(b.nums);
        v->ran = false;
        return 0;
    }
    memcpy(s, in->result->text, n + 1);
    if (rule_fired(in->result, "schema.artifact-markdown"))
        blank_fence_lines(s, n);
    const mf_profile *p = in->profile;
    bool yaml = !p || p->format != MF_FORMAT_JSON;
    char *sc = yaml ? yaml_scalars(s, n, &n) : NULL;
    if (sc) {
        free(s);
        s = sc;
        blank_removed_previews(s, n, in->result, false);
    } else {
        n = lex_scalars(s, n, in->result, yaml);
    }
    blank_previews(s, n, in->result);
    for (size_t i = 0; i < n && !v->detail[0];) {
        size_t sl = sep_len(s, n, i);
        if (sl) {
            i += sl;
            continue;
        }
        size_t j = i;
        while (j < n && !sep_len(s, n, j))
            j++;
        if (!bag_has(&b, hash_word(s + i, j - i)) && !literal(s + i, j - i)) {
            /* a number written another way (5.0, 050, 1e3) is the same number */
            bool same = false;
            if (isdigit((unsigned char)s[i])) {
                size_t a = number_start(s, i);
                char *e;
                double x = strtod(s + a, &e);
                uint64_t r; /* `0o17` (strtod reads 0x1F itself) */
                if (mf_radix_int(s + i, j - i, &r))
                    x = (double)r, e = s + j;
                for (size_t k = 0; e >= s + j && k < b.nn && !same; k++)
                    same = b.nums[k] == x || fabs(b.nums[k] - x) <= 1e-9 * fabs(x);
            }
            if (!same && !warned(in->result, s + i, j - i) && !renamed_key(in->result, s + i, j - i) &&
                !concat_edge(in->result, s, n, i, j))
                snprintf(v->detail, sizeof v->detail,
                         "the parsed text's token '%.*s' is not in the output and no warning names it",
                         (int)(j - i > 60 ? 60 : j - i), s + i);
        }
        i = j;
    }
    free(s);
    free(b.h);
    free(b.nums);
    return finish(v);
}

/* ---- structure ---- */

/* Is offset i inside a flow collection that opens the value of a key
 * written in the same string (`opts: {"id": "US-1", "tags": [...]}`, kept
 * whole by yaml.plain-colon)? Its members are the string's own text, not
 * members swallowed from outside. */
static bool in_keyed_flow(const char *s, size_t i)
{
    size_t depth = 0, outer = 0;
    for (size_t k = 0; k < i; k++) {
        if (s[k] == '{' || s[k] == '[') {
            if (!depth++)
                outer = k;
        } else if ((s[k] == '}' || s[k] == ']') && depth) {
            depth--;
        }
    }
    while (depth && outer > 0 && s[outer - 1] == ' ')
        outer--;
    return depth && outer > 0 && s[outer - 1] == ':';
}

/* Where the members of a JSON object stand in the input raw: how many lines
 * start with one of obj's keys at each column (counted once, when a string
 * of obj first holds a line `key:`). */
#define MEMBER_COLUMNS 64
typedef struct {
    const char *raw;
    size_t rn;
    const json_t *obj;
    bool counted;
    unsigned lines_at[MEMBER_COLUMNS];
} member_columns;

static bool at_member_column(member_columns *mc, size_t col);

/* A member-shaped run for key in s: 2 for `"key":` after a comma, a brace
 * (not inside a key's flow value in the string: in_keyed_flow) or a line
 * break, or `key:` after a line break (in a JSON string, when mc is given:
 * at the column of its object's members, at_member_column); 1 for ` key: `
 * inside a line or at the start of the string (a folded line break looks
 * so, and so do prose and a value that holds ': '), or a JSON string's
 * line `key:` at another column; 0 for none. */
static int member_run_in(const char *s, size_t n, const char *key, member_columns *mc)
{
    size_t kl = strlen(key);
    int best = 0;
    for (size_t i = 0; kl && i + kl < n && best < 2; i++) {
        if (memcmp(s + i, key, kl))
            continue;
        if (i > 0 && s[i - 1] == '"' && s[i + kl] == '"') {
            size_t a = i - 1, e = i + kl + 1;
            bool nl = false;
            while (e < n && s[e] == ' ')
                e++;
            while (a > 0 && (s[a - 1] == ' ' || s[a - 1] == '\n'))
                nl |= s[--a] == '\n';
            if (e < n && s[e] == ':' && (a == 0 || nl || strchr(",{", s[a - 1])) && !in_keyed_flow(s, a))
                best = 2;
            continue;
        }
        bool colon = s[i + kl] == ':' && (i + kl + 1 == n || s[i + kl + 1] == ' ' || s[i + kl + 1] == '\n');
        if (!colon || (i > 0 && !strchr(" \n", s[i - 1])))
            continue;
        size_t a = i;
        while (a > 0 && s[a - 1] == ' ')
            a--;
        /* at the very start of the string it sat on its key's own line
         * (`id: text: x`, kept whole by yaml.plain-colon): inline, not a line start */
        best = a > 0 && s[a - 1] == '\n' && (!mc || at_member_column(mc, i - a)) ? 2 : best > 1 ? best : 1;
    }
    return best;
}

static int member_run(const char *s, size_t n, const char *key)
{
    return member_run_in(s, n, key, NULL);
}

typedef struct {
    const mf_oracle_input *in;
    char *detail;
    size_t dn;
} st_ctx;

static const json_t *schema_props(const json_t *schema)
{
    return json_is_object(schema) ? json_object_get(schema, "properties") : NULL;
}

static const json_t *schema_child(const json_t *schema, const char *key)
{
    if (!json_is_object(schema))
        return NULL;
    if (key)
        return json_object_get(schema_props(schema), key);
    return json_object_get(schema, "items");
}

/* Does a string of the ground truth (a structured case: a value op may have
 * put member-shaped text into a string on purpose) hold a run for key at
 * least as clear as run? Then the output's run is data, not a swallowed key. */
static bool truth_holds_run(const json_t *v, const char *key, int run, int d)
{
    if (!v || d > 64)
        return false;
    if (json_is_string(v))
        return member_run(json_string_value(v), json_string_length(v), key) >= run;
    const char *k;
    json_t *x;
    if (json_is_object(v))
        json_object_foreach((json_t *)v, k, x) if (truth_holds_run(x, key, run, d + 1)) return true;
    for (size_t i = 0; json_is_array(v) && i < json_array_size(v); i++)
        if (truth_holds_run(json_array_get(v, i), key, run, d + 1))
            return true;
    return false;
}

/* ---- was the string a string in the input already? ---- */

/* Does the quoted string opening at raw[q] (a double quote: JSON escapes,
 * and YAML's too when yaml; a YAML single quote: '' is one quote) close on its own line and
 * decode to exactly s? A string that runs over a line break is the shape
 * of an unclosed quote that swallowed the next line, so it proves nothing. */
static bool quoted_is(const char *raw, size_t rn, size_t q, const char *s, size_t sn, bool yaml)
{
    char quote = raw[q], buf[8];
    size_t p = 0;
    for (size_t i = q + 1; i < rn; i++) {
        size_t bl = 0;
        if (raw[i] == '\n' || raw[i] == '\r')
            return false;
        if (raw[i] == quote) {
            if (quote == '\'' && i + 1 < rn && raw[i + 1] == '\'') {
                buf[bl++] = '\'';
                i++;
            } else {
                return p == sn;
            }
        } else if (quote == '"' && raw[i] == '\\') {
            size_t e = numeric_escape(raw, rn, i, yaml);
            if (e) {
                unsigned long cp = escape_value(raw + i + 2, e - 2);
                if (cp >= 0xD800 && cp < 0xDC00 && e == 6 && numeric_escape(raw, rn, i + 6, yaml) == 6 && raw[i + 7] == 'u') {
                    unsigned long lo = escape_value(raw + i + 8, 4);
                    if (lo >= 0xDC00 && lo < 0xE000) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        e += 6;
                    }
                }
                if (cp == 0 || (cp >= 0xD800 && cp < 0xE000))
                    return false;
                bl = put_code_point(buf, cp);
                i += e - 1;
            } else {
                static const char from[] = "nrtbf\"'\\/ \t0aevN_LP", to[] = "\n\r\t\b\f\"'\\/ \t\0\a\033\v";
                const char *f = i + 1 < rn && raw[i + 1] ? strchr(from, raw[i + 1]) : NULL;
                if (!f || f - from >= 15)   /* no escape, or NEL/NBSP/LS/PS (multi-byte, rare): no proof */
                    return false;
                buf[bl++] = to[f - from];
                i++;
            }
        } else {
            buf[bl++] = raw[i];
        }
        if (p + bl > sn || memcmp(s + p, buf, bl))
            return false;
        p += bl;
    }
    return false;
}

/* Do a and b spell the same words (every run of blanks and line breaks one
 * space, none at either end)? A block scalar's body compared so needs no
 * chomping or folding of its own. */
static bool same_words(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < an && isspace((unsigned char)a[i]))
            i++;
        while (j < bn && isspace((unsigned char)b[j]))
            j++;
        if (i == an || j == bn)
            return i == an && j == bn;
        while (i < an && j < bn && !isspace((unsigned char)a[i]) && a[i] == b[j])
            i++, j++;
        if ((i < an && !isspace((unsigned char)a[i])) || (j < bn && !isspace((unsigned char)b[j])))
            return false;
    }
}

/* Is the line raw[ls..le) a YAML block scalar header (`key: |`, `- >-`,
 * `x: |2  # c`, `key:|-`)? */
static bool block_header(const char *raw, size_t ls, size_t le)
{
    size_t e = le;
    for (size_t k = ls; k < le; k++)   /* a comment after a blank ends the header */
        if (raw[k] == '#' && k > ls && (raw[k - 1] == ' ' || raw[k - 1] == '\t')) {
            e = k;
            break;
        }
    while (e > ls && (raw[e - 1] == ' ' || raw[e - 1] == '\t' || raw[e - 1] == '\r'))
        e--;
    size_t k = e, ind = 0;
    while (k > ls && ind < 2 && (raw[k - 1] == '-' || raw[k - 1] == '+' || (raw[k - 1] >= '1' && raw[k - 1] <= '9')))
        k--, ind++;
    if (k == ls || (raw[k - 1] != '|' && raw[k - 1] != '>'))
        return false;
    k--;
    /* glued to its key's colon (`inspiration:|-`): yaml.colon-space gives it its space */
    return k == ls || raw[k - 1] == ' ' || raw[k - 1] == '\t' || (raw[k - 1] == ':' && k - 1 > ls);
}

static size_t role_margin(const char *raw, size_t ls, size_t le);

/* Where the plain value of the YAML block line raw[ls..le) stands (past its
 * role prefixes, after a plain key's `: ` or an item's `- `, up to a comment
 * or the line's end): raw[*v..*e), and the column its key or item content
 * starts at in *col;
 * false when the value opens with a quote or a flow bracket (no plain
 * scalar), or (unless reserved_ok) with an indicator yaml.reserved-indicator
 * quotes whole (`|-{...}`, `@x`, `*x`), or the line has neither key nor dash (it
 * may continue a folded scalar). */
static bool line_value_at(const char *raw, size_t ls, size_t le, size_t *col, size_t *v, size_t *e, bool reserved_ok)
{
    ls += role_margin(raw, ls, le);
    size_t k = ls;
    bool item = false;
    while (k < le && raw[k] == ' ')
        k++;
    while (k < le && raw[k] == '-' && (k + 1 == le || raw[k + 1] == ' ')) {
        item = true;
        for (k++; k < le && raw[k] == ' '; k++)
            ;
    }
    if (k == le || strchr("\"'{[#?", raw[k]))
        return false;
    *col = k - ls;
    *v = k;
    for (size_t p = k; p < le; p++)
        if (raw[p] == ':' && (p + 1 == le || raw[p + 1] == ' ' || raw[p + 1] == '\t')) {
            *v = p + 1;
            break;
        }
    if (*v == k && !item)
        return false;
    while (*v < le && (raw[*v] == ' ' || raw[*v] == '\t'))
        (*v)++;
    *e = le;
    for (size_t p = *v + 1; p < le; p++)
        if (raw[p] == '#' && (raw[p - 1] == ' ' || raw[p - 1] == '\t')) {
            *e = p;
            break;
        }
    while (*e > *v && (raw[*e - 1] == ' ' || raw[*e - 1] == '\t' || raw[*e - 1] == '\r'))
        (*e)--;
    return *e > *v && !strchr(reserved_ok ? "\"'{[&!" : "\"'{[|>&*!%@`", raw[*v]);
}

/* Is the line raw[ls..le) a YAML block line whose value text is exactly s
 * (`opts: a":"b","id":"c"}`, run 14 b4f0ef28)? Also when it opens with an
 * indicator: a value that was quoted whole as text
 * (`opts: |-{"questions": ...}`, yaml.reserved-indicator; run 44 d9e900fc) holds
 * only its own line. */
static bool plain_line_is(const char *raw, size_t ls, size_t le, const char *s, size_t sn)
{
    size_t col, v, e;
    return line_value_at(raw, ls, le, &col, &v, &e, true) && e - v == sn && !memcmp(raw + v, s, sn);
}


/* Does the line text raw[a..b) hold what no plain scalar's line may: a
 * key's `: ` (or a colon at its end), a comment's ` #` or an item's `- `?
 * A quoted key glued to its value (`"00000":0`, `"ticket_id":"x"}`) is no
 * block key: YAML folds that line into the plain scalar above it (run 25
 * b4f0ef28). */
static bool key_shaped(const char *raw, size_t a, size_t b)
{
    if (raw[a] == '-' && (a + 1 == b || raw[a + 1] == ' '))
        return true;
    for (size_t i = a; i < b; i++)
        if ((raw[i] == ':' && (i + 1 == b || raw[i + 1] == ' ' || raw[i + 1] == '\t' || raw[i + 1] == '\r')) ||
            (raw[i] == '#' && i > a && (raw[i - 1] == ' ' || raw[i - 1] == '\t')))
            return true;
    return false;
}

/* Does a plain value on the YAML block line raw[ls..le), folded with the
 * lines after it indented past its key (a multi-line plain scalar, `profile:
 * prd` over ` {"ticket_id":"OPS-77"}`, run 21 b4f0ef28) spell s's words?
 * A deeper line shaped as a key, an item or a comment folds into no plain
 * scalar: it proves nothing. */
static bool plain_fold_is(const char *raw, size_t rn, size_t ls, size_t le, const char *s, size_t sn)
{
    size_t col, v, e, more = 0;
    if (le == rn || (le > ls && raw[le - 1] == '\r') || !line_value_at(raw, ls, le, &col, &v, &e, false) || e != le)
        return false;
    char *t = malloc(rn - v + 1);
    size_t tn = e - v;
    if (!t)
        return false;
    memcpy(t, raw + v, tn);
    for (size_t l = le + 1; l < rn;) {
        size_t y = l;
        while (y < rn && raw[y] != '\n')
            y++;
        size_t m = l + role_margin(raw, l, y), x = m;
        while (x < y && raw[x] == ' ')
            x++;
        if (x == y || x - m <= col)
            break;
        if (key_shaped(raw, x, y)) {
            more = 0;
            break;
        }
        t[tn++] = ' ';
        memcpy(t + tn, raw + x, y - x);
        tn += y - x;
        more++;
        l = y < rn ? y + 1 : rn;
    }
    bool same = more && same_words(t, tn, s, sn);
    free(t);
    return same;
}

/* Was s (an output string) a string of the input raw already: a quoted
 * string on one line that decodes to s, a YAML plain value that is s on
 * its line, or the body of a YAML block scalar (the lines indented under a
 * `key: |` header) that spells s's words? Then its member-shaped text is
 * the string's own, not a member it swallowed. */
static bool input_holds_string(const char *raw, size_t rn, const char *s, size_t sn, bool yaml)
{
    if (!raw)
        return false;
    for (size_t q = 0; q < rn; q++)
        if ((raw[q] == '"' || raw[q] == '\'') && quoted_is(raw, rn, q, s, sn, yaml))
            return true;
    for (size_t ls = 0; ls < rn;) {
        size_t le = ls;
        while (le < rn && raw[le] != '\n')
            le++;
        if (yaml && (plain_line_is(raw, ls, le, s, sn) || plain_fold_is(raw, rn, ls, le, s, sn)))
            return true;
        if (block_header(raw, ls, le)) {
            size_t hi = 0, bi = 0, bs = le < rn ? le + 1 : rn, be = bs;
            while (ls + hi < le && raw[ls + hi] == ' ')
                hi++;
            for (size_t l = bs; l < rn;) {   /* the body: blank lines and lines indented past the header */
                size_t e = l, ind = 0;
                while (e < rn && raw[e] != '\n')
                    e++;
                while (l + ind < e && raw[l + ind] == ' ')
                    ind++;
                bool blank = l + ind == e || (l + ind + 1 == e && raw[l + ind] == '\r');
                if (!blank && !bi)
                    bi = ind;
                if (!blank && (ind <= hi || ind < bi))
                    break;
                be = e;
                l = e < rn ? e + 1 : rn;
            }
            if (bi > hi && same_words(raw + bs, be - bs, s, sn))
                return true;
        }
        ls = le < rn ? le + 1 : rn;
    }
    return false;
}

/* Did a warning say that s was kept as one string on purpose? A rule that
 * guesses so (a value starting with a quoted fragment, a list item holding
 * ': ') quotes the value it kept whole in its message: the message must hold
 * the start of s (its first 48 bytes) after the rule's "guessed that". */
static bool kept_whole(const mf_result *r, const char *s, size_t sn)
{
    static const char *const rules[] = {"yaml.quoted-fragment", "yaml.item-colon", "json.inner-quote"};
    size_t k = sn < 48 ? sn : 48;
    for (size_t i = 0; k && i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        bool guesser = false;
        for (size_t j = 0; j < sizeof rules / sizeof *rules && !guesser; j++)
            guesser = w->rule && strcmp(w->rule, rules[j]) == 0;
        const char *g = guesser && w->message ? strstr(w->message, "guessed that ") : NULL;
        if (g && memmem(g, strlen(g), s, k) && strstr(g, "is one string"))
            return true;
    }
    return false;
}

static bool rule_warned(const mf_result *r, const char *rule)
{
    for (size_t i = 0; i < r->warnings.count; i++)
        if (r->warnings.items[i].rule && strcmp(r->warnings.items[i].rule, rule) == 0)
            return true;
    return false;
}

/* The width of one transcript role prefix (`[assistant/gpt-4o] `) opening
 * raw[ls..le), else 0. */
static size_t role_prefix(const char *raw, size_t ls, size_t le)
{
    if (ls == le || raw[ls] != '[')
        return 0;
    for (size_t k = ls + 1; k < le && raw[k] != ' '; k++)
        if (raw[k] == ']')
            return k + 1 - ls + (k + 1 < le && raw[k + 1] == ' ');
    return 0;
}

/* The width of the role prefixes opening the line raw[ls..le), stacked ones
 * too (`[assistant] [sys] `): cand.transcript-prefix strips them all. */
static size_t role_margin(const char *raw, size_t ls, size_t le)
{
    size_t m = 0;
    for (size_t w; (w = role_prefix(raw, ls + m, le));)
        m += w;
    return m;
}

/* Count the lines of mc->raw that start with a key of mc->obj (quoted or
 * bare, then ':'; after blanks, openers, commas and role prefixes) by the
 * key's column. */
static void count_member_columns(member_columns *mc)
{
    const char *raw = mc->raw;
    size_t rn = mc->rn;
    char key[128];
    mc->counted = true;
    for (size_t ls = 0; ls < rn;) {
        size_t le = ls;
        while (le < rn && raw[le] != '\n')
            le++;
        size_t m = ls + role_margin(raw, ls, le), p = m;
        while (p < le && memchr(" \t{[,", raw[p], 5))
            p++;
        char q = p < le && (raw[p] == '"' || raw[p] == '\'') ? raw[p] : 0;
        size_t k = p + !!q, e = k;
        while (e < le && e - k < sizeof key - 1 && (q ? raw[e] != q : isalnum((unsigned char)raw[e]) || raw[e] == '_' || raw[e] == '-'))
            e++;
        size_t c = e + !!q;
        while (c < le && (raw[c] == ' ' || raw[c] == '\t'))
            c++;
        if (e > k && c < le && raw[c] == ':' && (!q || raw[e] == q) && p - m < MEMBER_COLUMNS) {
            memcpy(key, raw + k, e - k);
            key[e - k] = 0;
            mc->lines_at[p - m] += json_object_get(mc->obj, key) != NULL;
        }
        ls = le < rn ? le + 1 : rn;
    }
}

/* Is col where the members of mc->obj stand in the input (the column most
 * of its keys' lines start at)? A JSON string keeps its lines' blanks, so a
 * swallowed member line stands where its siblings do; a bare `key:` at
 * another column is the string's text (spliced YAML, prose). An input with
 * no line of obj's keys proves nothing: true. */
static bool at_member_column(member_columns *mc, size_t col)
{
    if (!mc->counted)
        count_member_columns(mc);
    unsigned most = 0;
    for (size_t i = 0; i < MEMBER_COLUMNS; i++)
        most = mc->lines_at[i] > most ? mc->lines_at[i] : most;
    return !most || (col < MEMBER_COLUMNS && mc->lines_at[col] == most);
}

/* The name norm.key-alias renamed to k whose warning starts at m
 * (`Renamed key "X" to "k" at /p.`): its length, *name set to X; else 0. */
static size_t alias_in(const char *m, const char *k, const char **name)
{
    static const char lead[] = "Renamed key \"";
    char tail[160];
    if (!m || strncmp(m, lead, sizeof lead - 1) || (size_t)snprintf(tail, sizeof tail, "\" to \"%s\" at ", k) >= sizeof tail)
        return 0;
    const char *x = m + sizeof lead - 1, *t = strstr(x, tail);
    *name = x;
    return t ? (size_t)(t - x) : 0;
}

/* The length of a spelling of key k followed by ':' at raw[p..le): k itself
 * or a name that norm.key-alias warned it renamed to k; else 0. */
static size_t key_spelled(const mf_result *r, const char *raw, size_t p, size_t le, const char *k)
{
    size_t kl = strlen(k);
    if (kl && p + kl < le && !memcmp(raw + p, k, kl) && raw[p + kl] == ':')
        return kl;
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        const char *name;
        size_t n = w->rule && !strcmp(w->rule, "norm.key-alias") ? alias_in(w->message, k, &name) : 0;
        if (n && p + n < le && !memcmp(raw + p, name, n) && raw[p + n] == ':')
            return n;
    }
    return 0;
}

/* The first place at or after p in the line raw[..le) where a key spelled
 * as k (key_spelled) starts a key, its length in *kl; le when none does. */
static size_t key_at(const mf_result *r, const char *raw, size_t ls, size_t p, size_t le, const char *k, size_t *kl)
{
    for (; p < le; p++)
        if ((p == ls || strchr(" \t-", raw[p - 1])) && (*kl = key_spelled(r, raw, p, le, k)))
            return p;
    return le;
}

/* Does a quote q opened before s close within s[0..n) (a doubled '' or an
 * escaped \" is text)? */
static bool quote_closes(const char *s, size_t n, char q)
{
    for (size_t i = 0; i < n; i++) {
        if (q == '"' && s[i] == '\\')
            i++;
        else if (s[i] == q && q == '\'' && i + 1 < n && s[i + 1] == '\'')
            i++;
        else if (s[i] == q)
            return true;
    }
    return false;
}

/* Where the text of a quoted value of k left open on the line raw[ls..le)
 * (`k: 'text`) starts, when yaml.unclosed-quote warned that it folded the
 * lines after it into the value; else 0. Its quote in *q. */
static size_t open_quote_at(const mf_result *r, const char *raw, size_t ls, size_t le, const char *k, char *q)
{
    if (!rule_warned(r, "yaml.unclosed-quote"))
        return 0;
    size_t kl;
    for (size_t p = key_at(r, raw, ls, ls, le, k, &kl); p < le; p = key_at(r, raw, ls, p + 1, le, k, &kl)) {
        size_t v = p + kl + 1;
        while (v < le && (raw[v] == ' ' || raw[v] == '\t'))
            v++;
        if (v < le && (raw[v] == '\'' || raw[v] == '"') && !quote_closes(raw + v + 1, le - v - 1, raw[v])) {
            *q = raw[v];
            return v + 1;
        }
    }
    return 0;
}

/* Does the line raw[ls..le) end in a block scalar header for key k: `k: |-`,
 * `k:|`, `k: >2 # c`, or, when the rule that restores such a header warned,
 * a quoted `k: '|-'` (yaml.quoted-block-indicator) or a comment glued on
 * `k: |-#c` (yaml.block-header-comment)? A quoted value left open on the
 * line (open_quote_at) heads its deeper lines the same way. k may be spelled
 * as the name norm.key-alias renamed. */
static bool header_of(const mf_result *r, const char *raw, size_t ls, size_t le, const char *k)
{
    size_t kl;
    char oq;
    if (open_quote_at(r, raw, ls, le, k, &oq))
        return true;
    for (size_t p = key_at(r, raw, ls, ls, le, k, &kl); p < le; p = key_at(r, raw, ls, p + 1, le, k, &kl)) {
        size_t v = p + kl + 1;
        while (v < le && (raw[v] == ' ' || raw[v] == '\t'))
            v++;
        char q = v < le && (raw[v] == '\'' || raw[v] == '"') ? raw[v++] : 0;
        bool doubled = q && v < le && raw[v] == q; /* `''|-''`: yaml.doubled-quotes strips one pair */
        v += doubled;
        if (v == le || (raw[v] != '|' && raw[v] != '>'))
            continue;
        v++;
        for (int n = 0; n < 2 && v < le && (raw[v] == '-' || raw[v] == '+' || (raw[v] >= '1' && raw[v] <= '9')); n++)
            v++;
        if (q && (v == le || raw[v++] != q || !rule_warned(r, "yaml.quoted-block-indicator")))
            continue;
        if (doubled && (v == le || raw[v++] != q || !rule_warned(r, "yaml.doubled-quotes")))
            continue;
        size_t e = v;
        while (e < le && (raw[e] == ' ' || raw[e] == '\t' || raw[e] == '\r'))
            e++;
        if (e == le || (raw[e] == '#' && (e > v || rule_warned(r, "yaml.block-header-comment"))))
            return true;
    }
    return false;
}

/* The column of the first key on the line raw[ls..le) once its role
 * prefixes are stripped, past its dashes. */
static size_t key_col(const char *raw, size_t ls, size_t le)
{
    size_t m = role_margin(raw, ls, le), key = ls + m;
    while (key < le && (raw[key] == ' ' || raw[key] == '-'))
        key++;
    return key - (ls + m);
}

/* Is the line raw[l..e) a line of the body under a header whose key sits at
 * column key: blank, or indented past it once its role prefixes are
 * stripped? Its trimmed text in raw[*a..*b). */
static bool body_line(const char *raw, size_t key, size_t l, size_t e, size_t *a, size_t *b)
{
    size_t lm = l + role_margin(raw, l, e);
    *a = lm;
    *b = e;
    while (*a < e && raw[*a] == ' ')
        (*a)++;
    while (*b > *a && (raw[*b - 1] == ' ' || raw[*b - 1] == '\t' || raw[*b - 1] == '\r'))
        (*b)--;
    return *a == *b || *a - lm > key;
}

/* The column of the dash that opens the line raw[ls..le) once its role
 * prefixes are stripped; SIZE_MAX when no dash item opens it. */
static size_t dash_col(const char *raw, size_t ls, size_t le)
{
    size_t m = role_margin(raw, ls, le), c = ls + m;
    while (c < le && raw[c] == ' ')
        c++;
    if (c == le || raw[c] != '-' || (c + 1 < le && raw[c + 1] != ' ' && raw[c + 1] != '\t' && raw[c + 1] != '\r'))
        return (size_t)-1;
    return c - (ls + m);
}

/* The column of the item dash a dash at column x on the line starting at ls
 * drifted off: the nearest dash before it, 1-3 columns off x, with no line
 * left of that list or a sibling at x between; x when there is none. */
static size_t sibling_dash_col(const char *raw, size_t ls, size_t x)
{
    for (size_t pe = ls; pe > 0;) {
        size_t ps = --pe;
        while (ps > 0 && raw[ps - 1] != '\n')
            ps--;
        size_t a, b, c = dash_col(raw, ps, pe);
        if (body_line(raw, 0, ps, pe, &a, &b) && a == b)
            continue;
        if (c == x)
            return x;
        if (c != (size_t)-1 && (c > x ? c - x : x - c) <= 3)
            return c;
        if (a - (ps + role_margin(raw, ps, pe)) + 3 < x)
            return x;
    }
    return x;
}

/* Did yaml.sequence-indent-drift warn at line hl (1-based) of raw or near
 * it? A rule counts the lines of the text it was given, which candidate
 * extraction and earlier rules may have shortened (yaml.code-fence,
 * yaml.duplicate-key) or lengthened by a line per key split off a line
 * before it (yaml.inline-keys). */
static bool drift_warned_at(const mf_result *r, size_t hl)
{
    size_t split = 0;
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        split += w->rule && !strcmp(w->rule, "yaml.inline-keys") && w->line >= 1 && (size_t)w->line < hl;
    }
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        if (w->rule && !strcmp(w->rule, "yaml.sequence-indent-drift") && w->line >= 1 &&
            (size_t)w->line <= hl + split)
            return true;
    }
    return false;
}

/* The column the key of the header line raw[ls..le), line hl of raw, is
 * read at: its own (key_col), or, when yaml.sequence-indent-drift warned it
 * re-aligned the line's drifted dash, moved with the dash to its list's
 * column (sibling_dash_col). */
static size_t header_key_col(const mf_result *r, const char *raw, size_t ls, size_t le, size_t hl)
{
    size_t key = key_col(raw, ls, le), x = dash_col(raw, ls, le);
    if (x == (size_t)-1 || !drift_warned_at(r, hl))
        return key;
    return key - x + sibling_dash_col(raw, ls, x);
}

/* How many warnings before line hl (1-based) of raw came from a rule that
 * drops a line of the text (a fence, a tag line, a repeated key), so that a
 * later rule counts its lines that many fewer? */
static size_t lines_dropped_before(const mf_result *r, size_t hl)
{
    static const char *const droppers[] = {"yaml.code-fence", "yaml.xml-tag-lines", "yaml.duplicate-key"};
    size_t n = 0;
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        for (size_t j = 0; w->rule && j < sizeof droppers / sizeof *droppers; j++)
            n += !strcmp(w->rule, droppers[j]) && w->line >= 1 && (size_t)w->line < hl;
    }
    return n;
}

/* Did a rule that ran before yaml.block-body-indent and warned before line hl
 * (1-based) of raw change the count of lines by an amount its warning does
 * not tell: split one line into several (*split) or joined a plain scalar's
 * continuation lines into one (*joined)? */
static void lines_reshaped_before(const mf_result *r, size_t hl, bool *split, bool *joined)
{
    static const char *const splitters[] = {"yaml.inline-keys", "yaml.inline-known-keys",
                                            "yaml.inline-sequence-parent"};
    *split = *joined = false;
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        if (!w->rule || w->line < 1 || (size_t)w->line >= hl)
            continue;
        for (size_t j = 0; j < sizeof splitters / sizeof *splitters; j++)
            *split = *split || !strcmp(w->rule, splitters[j]);
        *joined = *joined || !strcmp(w->rule, "yaml.plain-colon");
    }
}

/* How many lines after a header on line hl (1-based) of raw yaml.block-body-
 * indent warned it took as the block's body, written at or left of the key
 * (`guessed that lines N-M are its body`, N the line after the header); 0
 * when it did not. The warning counts lines of the candidate text, which
 * starts on raw's first line when the candidate is the raw text and may
 * start later otherwise, and which a rule that dropped a line before the
 * header (lines_dropped_before) shortened, or a rule that split or joined
 * lines before it (lines_reshaped_before) lengthened or shortened by an
 * untold amount; of the warnings so placed, the one nearest hl. */
static size_t fallen_body_span(const mf_result *r, size_t hl)
{
    static const char lead[] = "guessed that lines ";
    bool raw_text = !r->candidate || !strcmp(r->candidate, "raw"), split, joined;
    size_t dropped = lines_dropped_before(r, hl), span = 0, off = (size_t)-1;
    lines_reshaped_before(r, hl, &split, &joined);
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        const char *g = w->rule && !strcmp(w->rule, "yaml.block-body-indent") && w->message
                            ? strstr(w->message, lead) : NULL;
        int first, last;
        if (!g || sscanf(g + sizeof lead - 1, "%d-%d", &first, &last) != 2 || w->line < 1 ||
            first != w->line + 1 || last < first)
            continue;
        size_t wl = (size_t)w->line, d = wl > hl ? wl - hl : hl - wl;
        bool placed = wl == hl || (wl > hl && split) ||
                      (wl < hl && (!raw_text || joined || d <= dropped));
        if (placed && d < off) {
            span = (size_t)(last - w->line);
            off = d;
        }
    }
    return span;
}

/* Is raw[a..b) an identifier key (a letter or '_', then letters, digits,
 * '_', '-', '.')? */
static bool identifier_key(const char *raw, size_t a, size_t b)
{
    if (a == b || !(isalpha((unsigned char)raw[a]) || raw[a] == '_'))
        return false;
    for (size_t i = a + 1; i < b; i++)
        if (!isalnum((unsigned char)raw[i]) && !strchr("_-.", raw[i]))
            return false;
    return true;
}

/* Is the trimmed line raw[a..b) no entry of a mapping or a list, so text a
 * rule may take into a block body written left of its key: no dash item,
 * no one-word key (`k:`, `k"x: v`; a bare `: v` has none) opening it, or, once a line of the body
 * fell left of the key (fell), no identifier key (`n~me: test` is text, as
 * yaml.block-body-indent reads it)? */
static bool stray_text_line(const char *raw, size_t a, size_t b, bool fell)
{
    if (a == b || (raw[a] == '-' && (a + 1 == b || raw[a + 1] == ' ' || raw[a + 1] == '\t')))
        return false;
    for (size_t i = a; i < b && raw[i] != ' ' && raw[i] != '\t'; i++)
        if (raw[i] == ':' && (i + 1 == b || raw[i + 1] == ' ' || raw[i + 1] == '\t'))
            return (fell || i == a) && !identifier_key(raw, a, i);
    return true;
}

/* Does a raw line's text run on past a value's line with c, a control byte
 * that opens what cand.terminal-noise warned it trimmed (`\b`, `\033[0m`)? */
static bool noise_tail(const mf_result *r, char c)
{
    return ((unsigned char)c < 0x20 || c == 0x7f) && c != '\t' && rule_warned(r, "cand.terminal-noise");
}

/* Is line (trimmed) a line of a block scalar body for key k in raw: after a
 * header of k (header_of), in its body (body_line, or a line at or left of
 * the key that is no entry and that yaml.block-body-indent warned it took
 * into the body, fallen_body_span) and reached from the header by such
 * lines or blank ones? */
static bool block_body_holds(const mf_result *r, const char *raw, size_t rn, const char *k, const char *line,
                             size_t ln)
{
    for (size_t ls = 0, hl = 0; ls < rn;) {
        size_t le = ls;
        while (le < rn && raw[le] != '\n')
            le++;
        size_t next = le < rn ? le + 1 : rn;
        hl++;
        bool header = header_of(r, raw, ls, le, k);
        size_t span = header ? fallen_body_span(r, hl) : 0, key = header ? header_key_col(r, raw, ls, le, hl) : 0;
        bool fell = false;
        for (size_t l = header ? next : rn, j = 1; l < rn; j++) {
            size_t e = l, a, b;
            while (e < rn && raw[e] != '\n')
                e++;
            if (!body_line(raw, key, l, e, &a, &b)) {
                if (j > span || !stray_text_line(raw, a, b, fell))
                    break;
                fell = true;
            }
            if (b - a >= ln && !memcmp(raw + a, line, ln) && (b - a == ln || noise_tail(r, raw[a + ln])))
                return true;
            l = e < rn ? e + 1 : rn;
        }
        ls = next;
    }
    return false;
}

/* Append raw[a..b), a quoted value's text in quote q, to t at *tn with its
 * escaped quotes ('' or \") and backslashes decoded. */
static void put_quoted(char *t, size_t *tn, const char *raw, size_t a, size_t b, char q)
{
    for (size_t i = a; i < b; i++) {
        if (i + 1 < b && ((q == '\'' && raw[i] == '\'' && raw[i + 1] == '\'') ||
                          (q == '"' && raw[i] == '\\' && (raw[i + 1] == '"' || raw[i + 1] == '\\'))))
            i++;
        t[(*tn)++] = raw[i];
    }
}

/* Does s (the value of key k) spell the words of a quoted value of k left
 * open in the input (open_quote_at), alone or with some of the body lines
 * under it that yaml.unclosed-quote folded into it? Then the member-shaped
 * text in s was inside that quote: the value's own, not a swallowed key. */
static bool open_quote_holds(const mf_oracle_input *in, const char *k, const char *s, size_t sn)
{
    const char *raw = in->raw;
    size_t rn = in->raw_len;
    char *t = raw ? malloc(rn + 1) : NULL;
    bool held = false;
    for (size_t ls = 0; t && ls < rn && !held;) {
        size_t le = ls, tn = 0;
        while (le < rn && raw[le] != '\n')
            le++;
        size_t next = le < rn ? le + 1 : rn;
        char q;
        size_t v = open_quote_at(in->result, raw, ls, le, k, &q);
        if (v) {
            put_quoted(t, &tn, raw, v, le, q);
            held = same_words(t, tn, s, sn);
            for (size_t l = next, e, a, b; l < rn && !held; l = e < rn ? e + 1 : rn) {
                for (e = l; e < rn && raw[e] != '\n';)
                    e++;
                if (!body_line(raw, key_col(raw, ls, le), l, e, &a, &b))
                    break;
                t[tn++] = ' ';
                put_quoted(t, &tn, raw, a, b, q);
                held = same_words(t, tn, s, sn);
            }
        }
        ls = next;
    }
    free(t);
    return held;
}

/* Was every line of s (the value of key k) that holds a run for key text of
 * a block scalar body for k in the input (block_body_holds)? A line that a
 * rule kept in the block it was written in (yaml.block-body-indent,
 * yaml.quoted-block-indicator) is the string's own, not a swallowed key. */
static bool runs_in_block_body(const mf_oracle_input *in, const char *k, const char *s, size_t sn, const char *key)
{
    bool any = false;
    for (size_t a = 0; a < sn;) {
        size_t b = a;
        while (b < sn && s[b] != '\n')
            b++;
        if (member_run(s + a, b - a, key)) {
            size_t x = a, y = b;
            while (x < y && s[x] == ' ')
                x++;
            while (y > x && (s[y - 1] == ' ' || s[y - 1] == '\t' || s[y - 1] == '\r'))
                y--;
            if (!block_body_holds(in->result, in->raw, in->raw_len, k, s + x, y - x))
                return false;
            any = true;
        }
        a = b < sn ? b + 1 : sn;
    }
    return any;
}

/* The key the string at path/k was written under in the input: k, or for
 * `inspiration.label` the parent key when norm.change-inspiration made the
 * object of a bare `inspiration:` string (its block body is that string's). */
static const char *written_key(const mf_result *r, const char *path, const char *k)
{
    const char *slash = strrchr(path, '/');
    if (strcmp(k, "label") != 0 || !slash || strcmp(slash + 1, "inspiration") != 0 ||
        !rule_warned(r, "norm.change-inspiration"))
        return k;
    return slash + 1;
}

/* Keys obj should have: schema properties, sibling objects' keys, top-level keys. */
static bool check_object(st_ctx *c, const json_t *obj, const json_t *schema, const json_t *siblings, bool top,
                         const char *path)
{
    json_t *want = json_object();
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)schema_props(schema), k, x) json_object_set_new(want, k, json_true());
    for (size_t i = 0; json_is_array(siblings) && i < json_array_size(siblings); i++)
        if (json_array_get(siblings, i) != obj && json_is_object(json_array_get(siblings, i)))
            json_object_foreach(json_array_get(siblings, i), k, x) json_object_set_new(want, k, json_true());
    for (size_t i = 0; top && c->in->profile && i < json_array_size(c->in->profile->top_level_keys); i++)
        json_object_set_new(want, json_string_value(json_array_get(c->in->profile->top_level_keys, i)), json_true());
    /* one clear run, or two folded ones for different keys (one could be prose) */
    bool bad = false, json = c->in->raw && c->in->profile && c->in->profile->format == MF_FORMAT_JSON;
    member_columns mc = {c->in->raw, c->in->raw_len, obj, false, {0}};
    json_object_foreach((json_t *)obj, k, x) {
        if (!json_is_string(x))
            continue;
        const char *key, *first = NULL, *wk = written_key(c->in->result, path, k);
        json_t *y;
        json_object_foreach(want, key, y) {
            int run = json_object_get(obj, key)
                          ? 0 : member_run_in(json_string_value(x), json_string_length(x), key, json ? &mc : NULL);
            if (run == 1 && !first) {
                first = key;
                continue;
            }
            if (!run || truth_holds_run(c->in->truth, run == 2 ? key : first, run, 0) ||
                input_holds_string(c->in->raw, c->in->raw_len, json_string_value(x), json_string_length(x),
                                   !c->in->profile || c->in->profile->format != MF_FORMAT_JSON) ||
                kept_whole(c->in->result, json_string_value(x), json_string_length(x)) ||
                open_quote_holds(c->in, k, json_string_value(x), json_string_length(x)) ||
                (c->in->raw && runs_in_block_body(c->in, wk, json_string_value(x), json_string_length(x), key) &&
                 (run == 2 || runs_in_block_body(c->in, wk, json_string_value(x), json_string_length(x), first))))
                continue;
            snprintf(c->detail, c->dn, "%s/%s: the string holds %s '%s:' its object lacks (a swallowed key)", path, k,
                     run == 2 ? "a member" : "members", run == 2 ? key : first);
            bad = true;
            break;
        }
        if (bad)
            break;
    }
    json_decref(want);
    return bad;
}

static bool walk(st_ctx *c, const json_t *v, const json_t *schema, const json_t *siblings, bool top, char *path,
                 size_t plen, int d)
{
    if (d > 64)
        return false;
    size_t pl = strlen(path);
    if (json_is_object(v)) {
        if (check_object(c, v, schema, siblings, top, path))
            return true;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            snprintf(path + pl, plen - pl, "/%s", k);
            if (walk(c, x, schema_child(schema, k), NULL, false, path, plen, d + 1))
                return true;
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            snprintf(path + pl, plen - pl, "/%zu", i);
            if (walk(c, json_array_get(v, i), schema_child(schema, NULL), v, false, path, plen, d + 1))
                return true;
        }
    }
    path[pl] = '\0';
    return false;
}

int mf_oracle_structure(const mf_oracle_input *in, mf_verdict *v)
{
    start(v);
    if (!applies(in)) {
        v->ran = false;
        return 0;
    }
    char path[512] = "";
    st_ctx c = {in, v->detail, sizeof v->detail};
    walk(&c, in->result->value, in->profile ? in->profile->schema : NULL, NULL, true, path, sizeof path, 0);
    return finish(v);
}
