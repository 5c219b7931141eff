/* json_words.c - bare words for the tolerant JSON scanner: literals (true,
 * True, None, NaN, ...), numbers in the shapes models write them, and cut
 * words at the end of input.
 *
 * Numbers use jansson's own conversion of the token, so valid parts of a
 * broken document get exactly the values strict parsing would give. Numbers
 * jansson cannot hold (integers beyond int64, reals beyond double) become a
 * real when the double is exact, otherwise a string of the number's text with
 * a json.big-number warning. */
#include <stdlib.h>
#include <string.h>
#include "json_lex.h"

static const char *const literal_words[] = {"true", "false", "null", "True", "False", "None",
                                           "undefined", "NaN", "Infinity", NULL};

bool jl_word_is_literal(const char *s, size_t n)
{
    for (const char *const *l = literal_words; *l; l++)
        if (strlen(*l) == n && memcmp(*l, s, n) == 0)
            return true;
    return false;
}


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
        jl_note(p, JR_NUMBER_FORMAT, line, "number '%.*s' written as %s", (int)n, s, tok);
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
    jl_note(p, JR_BIG_NUMBER, line, "number %s does not fit a 64-bit integer or double exactly; kept as a string",
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
int jl_parse_word(jp *p, json_t **out)
{
    size_t start = p->i;
    int line = p->line;
    while (!at_end(p) && jl_is_word(cur(p)))
        jl_advance(p);
    const char *s = p->s + start;
    size_t n = p->i - start;
    bool cut = at_end(p) && p->depth > 0;
    *out = NULL;
    if (n == 0) {
        p->i = start;
        return jl_fail(p, "expected a JSON value");
    }
    if (n == 4 && !memcmp(s, "true", 4)) { *out = json_true(); return 0; }
    if (n == 5 && !memcmp(s, "false", 5)) { *out = json_false(); return 0; }
    if (n == 4 && !memcmp(s, "null", 4)) { *out = json_null(); return 0; }
    if ((n == 4 && !memcmp(s, "True", 4)) || (n == 5 && !memcmp(s, "False", 5)) ||
        (n == 4 && !memcmp(s, "None", 4)) || (n == 9 && !memcmp(s, "undefined", 9))) {
        jl_note(p, JR_PYTHON_LITERAL, line, "%.*s replaced by %s", (int)n, s,
             s[0] == 'T' ? "true" : s[0] == 'F' ? "false" : "null");
        *out = s[0] == 'T' ? json_true() : s[0] == 'F' ? json_false() : json_null();
        return 0;
    }
    const char *w = (s[0] == '-' || s[0] == '+') ? s + 1 : s;
    size_t wn = (size_t)(s + n - w);
    if ((wn == 3 && !memcmp(w, "NaN", 3)) || (wn == 8 && !memcmp(w, "Infinity", 8))) {
        jl_note(p, JR_PYTHON_LITERAL, line, "%.*s has no JSON form; replaced by null", (int)n, s);
        *out = json_null();
        return 0;
    }
    if (cut && (is_literal_prefix(s, n) || strchr("+-.0123456789", s[0]))) {
        p->dropped_member = true;       /* a number or literal cut by the end of input */
        jl_cut(p, "left out '%.*s' at line %d: the end of input may have cut it", (int)(n > 40 ? 40 : n), s, line);
        return 0;
    }
    *out = number_value(p, s, n, line);
    if (*out || p->failed)
        return *out ? 0 : -1;
    p->i = start;
    return jl_fail(p, "expected a JSON value (unquoted text is not repaired)");
}

