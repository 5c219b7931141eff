/* json_words.c - bare words for the tolerant JSON scanner: literals (true,
 * True, None, NaN, ...), numbers in the shapes models write them, and cut
 * words at the end of input.
 *
 * Numbers use jansson's own conversion of the token, so valid parts of a
 * broken document get exactly the values strict parsing would give. Numbers
 * jansson cannot hold (integers beyond int64, reals beyond double) become a
 * real when the double is exact, otherwise a string of the number's text with
 * a json.big-number warning. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "json_lex.h"

#define WORD(w) {w, sizeof w - 1}
static const struct { const char *w; size_t n; } literal_words[] = {
    WORD("true"), WORD("false"), WORD("null"), WORD("True"), WORD("False"), WORD("None"), WORD("undefined"),
    WORD("NaN"), WORD("Infinity"), WORD("TRUE"), WORD("FALSE"), WORD("NULL"), WORD("Null"), WORD("NONE")};

bool jl_word_is_literal(const char *s, size_t n)
{
    if (n < 3 || n > 9 || !s[0] || !strchr("tfnTFNuI", s[0]))
        return false;                   /* no literal starts so: most words end here */
    for (size_t k = 0; k < sizeof literal_words / sizeof *literal_words; k++)
        if (literal_words[k].n == n && memcmp(literal_words[k].w, s, n) == 0)
            return true;
    return false;
}


/* Writes the JSON text of the number token [s, s+n) into tok (room for n + 4
 * bytes): false when it is no number. *fixed: it needed json.number-format
 * (`+1`, `.5`, `5.`); *real: it has a fraction or an exponent. */
static bool number_token(const char *s, size_t n, char *tok, size_t *len, bool *fixed, bool *real)
{
    size_t k = 0, m = 0;
    *fixed = *real = false;
    if (n == 0)
        return false;
    if (s[k] == '+') { k++; *fixed = true; }
    else if (s[k] == '-') tok[m++] = s[k++];
    if (k < n && s[k] == '.' && k + 1 < n && s[k + 1] >= '0' && s[k + 1] <= '9') { tok[m++] = '0'; *fixed = true; }
    else if (k >= n || s[k] < '0' || s[k] > '9') return false;
    if (s[k] == '0' && k + 1 < n && s[k + 1] >= '0' && s[k + 1] <= '9')
        return false;                      /* leading zeros: 007 may be an id: a string */
    while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    if (k < n && s[k] == '.') {
        *real = true;
        tok[m++] = s[k++];
        if (k >= n || s[k] < '0' || s[k] > '9') { tok[m++] = '0'; *fixed = true; }
        while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        *real = true;
        tok[m++] = s[k++];
        if (k < n && (s[k] == '+' || s[k] == '-')) tok[m++] = s[k++];
        if (k >= n || s[k] < '0' || s[k] > '9') return false;
        while (k < n && s[k] >= '0' && s[k] <= '9') tok[m++] = s[k++];
    }
    *len = m;
    return k == n;
}

bool jl_number_word(const char *s, size_t n)
{
    char tok[512];
    size_t m;
    bool fixed, real;
    return n < sizeof tok - 4 && number_token(s, n, tok, &m, &fixed, &real);
}

/* Value of a number token, or NULL when it is no number (p not failed). */
static json_t *number_value(jp *p, const char *s, size_t n, int line)
{
    char tok[512];
    size_t m = 0;
    bool fixed, real;
    if (n >= sizeof tok - 4 || !number_token(s, n, tok, &m, &fixed, &real))
        return NULL;
    tok[m] = '\0';
    if (fixed)
        jl_note(p, MF_RULE_JSON_NUMBER_FORMAT, line, "number '%.*s' written as %s", (int)n, s, tok);
    size_t sign = tok[0] == '-';
    if (!real && m - sign <= 18) {      /* fits int64 whatever the digits: what json_loadb would build */
        json_int_t v = 0;
        for (size_t d = sign; d < m; d++)
            v = v * 10 + (tok[d] - '0');
        return json_integer(sign ? -v : v);
    }
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
    jl_note(p, MF_RULE_JSON_BIG_NUMBER, line, "number %s does not fit a 64-bit integer or double exactly; kept as a string",
         tok);
    return json_stringn(tok, m);
}

/* A number in a shape JSON lacks but that reads one way only: hex 0x1F,
 * digit groups 1_000 (an underscore between digits). NULL otherwise. */
static json_t *shaped_number(jp *p, const char *s, size_t n, int line)
{
    char tok[64];
    size_t m = 0, k = 0;
    bool neg = n > 0 && s[0] == '-';
    if (neg || (n > 0 && s[0] == '+'))
        k++;
    if (n - k > 2 && s[k] == '0' && (s[k + 1] == 'x' || s[k + 1] == 'X')) {
        unsigned long long v = 0;
        size_t digits = 0;
        for (k += 2; k < n && isxdigit((unsigned char)s[k]) && digits < 15; k++, digits++)
            v = v * 16 + (unsigned)(isdigit((unsigned char)s[k]) ? s[k] - '0' : (s[k] | 0x20) - 'a' + 10);
        if (k != n || digits == 0)
            return NULL;
        jl_note(p, MF_RULE_JSON_NUMBER_FORMAT, line, "hexadecimal number '%.*s' written as %s%llu", (int)n, s,
                neg ? "-" : "", v);
        return json_integer(neg ? -(json_int_t)v : (json_int_t)v);
    }
    bool groups = false;
    if (neg)
        tok[m++] = '-';
    for (; k < n && m < sizeof tok - 1; k++) {
        if (s[k] == '_' && k > 0 && isdigit((unsigned char)s[k - 1]) && k + 1 < n && isdigit((unsigned char)s[k + 1])) {
            groups = true;
            continue;
        }
        tok[m++] = s[k];
    }
    if (!groups || k != n)
        return NULL;
    size_t before = p->w->count;
    json_t *v = number_value(p, tok, m, line);
    if (!v || json_is_string(v)) {
        json_decref(v);
        mf_warnings_truncate(p->w, before);
        return NULL;
    }
    jl_note(p, MF_RULE_JSON_NUMBER_FORMAT, line, "number '%.*s' written as %.*s, without digit-group underscores",
            (int)n, s, (int)m, tok);
    return v;
}

static bool is_placeholder(const char *s, size_t n)
{
    return (n == 3 && memcmp(s, "...", 3) == 0) || (n == 3 && memcmp(s, "\xE2\x80\xA6", 3) == 0);
}

bool jl_placeholder_at(const jp *p, size_t k)
{
    return (at(p, k) == '.' && at(p, k + 1) == '.' && at(p, k + 2) == '.' && at(p, k + 3) != '.') ||
           (at(p, k) == 0xE2 && at(p, k + 1) == 0x80 && at(p, k + 2) == 0xA6);
}

bool jl_bare_start(const jp *p)
{
    int c = cur(p);
    if (c == '#')                       /* `#ff0000` where a value belongs (jl_skip_ws left it) */
        return isalnum(at(p, p->i + 1));
    if (c < 0x20 || c == 0x7f || strchr("{}[](),:\"'`", c) || is_ws(c) || jl_smart_quote(p, p->i) >= 0 ||
        jl_unicode_space(p, p->i))
        return false;
    return c != '/' || (at(p, p->i + 1) != '/' && at(p, p->i + 1) != '*');
}

/* Does the block comment opening at k close on its line? */
static bool block_comment_on_line(const jp *p, size_t k)
{
    for (size_t j = k + 2; j + 1 < p->n && at(p, j) != '\n'; j++)
        if (at(p, j) == '*' && at(p, j + 1) == '/')
            return true;
    return false;
}

size_t jl_word_end(const jp *p, size_t k)
{
    while (k < p->n && jl_is_word(at(p, k)))
        k++;
    return k;
}

bool jl_open_quote_missing(const jp *p, size_t k)
{
    if (at(p, k) != '"')
        return false;
    size_t j = jl_past_spaces(p, k + 1);
    return j >= p->n || strchr(",}]:", at(p, j));
}

/* Is [s, s+n) a number in strict JSON syntax (-?int frac? exp?)? */
static bool json_number_token(const char *s, size_t n)
{
    size_t k = s[0] == '-';
    if (k >= n || !isdigit((unsigned char)s[k]) || (s[k] == '0' && k + 1 < n && isdigit((unsigned char)s[k + 1])))
        return false;
    while (k < n && isdigit((unsigned char)s[k]))
        k++;
    if (k < n && s[k] == '.') {
        if (++k >= n || !isdigit((unsigned char)s[k]))
            return false;
        while (k < n && isdigit((unsigned char)s[k]))
            k++;
    }
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        k += (k + 1 < n && (s[k + 1] == '+' || s[k + 1] == '-')) ? 2 : 1;
        if (k >= n || !isdigit((unsigned char)s[k]))
            return false;
        while (k < n && isdigit((unsigned char)s[k]))
            k++;
    }
    return k == n;
}

/* Is [s, s+n) a literal in another spelling (TRUE, Null, ...)? Its JSON value, or NULL. */
static json_t *literal_variant(const char *s, size_t n)
{
    static const struct { const char *word; size_t n; int kind; } variants[] = {
        {"True", 4, 1}, {"TRUE", 4, 1}, {"False", 5, 0}, {"FALSE", 5, 0}, {"None", 4, 2}, {"NONE", 4, 2},
        {"NULL", 4, 2}, {"Null", 4, 2}, {"undefined", 9, 2}};
    for (size_t k = 0; k < sizeof variants / sizeof variants[0]; k++)
        if (variants[k].n == n && !memcmp(variants[k].word, s, n))
            return variants[k].kind == 1 ? json_true() : variants[k].kind == 0 ? json_false() : json_null();
    return NULL;
}

/* End of the bare text at k: before ',', a closer, a line break, a quote or
 * bracket, a key-like colon (`: `), or a comment (" #", " //"); trailing
 * blanks excluded. */
static inline size_t bare_end(const jp *p, size_t k)
{
    size_t e = k;
    for (; e < p->n; e++) {
        int c = at(p, e);
        if (strchr(",}]\n\r\"{[", c) || (c == ')' && (p->tuple_depth > 0 || p->call_depth > 0)) || jl_smart_quote(p, e) >= 0)
            break;
        if ((c == ' ' || c == '\t') && (at(p, e + 1) == '#' || (at(p, e + 1) == '/' && at(p, e + 2) == '/')))
            break;
        if (c == '/' && at(p, e + 1) == '*' && block_comment_on_line(p, e))
            break;                      /* a block comment closed on the line ends the text */
        if (c == ':' && (e + 1 >= p->n || is_ws(at(p, e + 1)) || strchr(",}])", at(p, e + 1))))
            break;                      /* `word:` ends like a key, not like text */
        if (c == '\'' && e > k && is_ws(at(p, e - 1)) && jl_key_at(p, e))
            break;                      /* `false  'n': 5`: a single-quoted key, its comma missing */
    }
    for (;;) {                          /* blanks, Unicode spaces too (`false\u2003` then a line break) */
        if (e > k && (at(p, e - 1) == ' ' || at(p, e - 1) == '\t'))
            e--;
        else if (e >= k + 2 && jl_unicode_space(p, e - 2) == 2)
            e -= 2;
        else if (e >= k + 3 && jl_unicode_space(p, e - 3) == 3)
            e -= 3;
        else
            return e;
    }
}

size_t jl_bare_end(const jp *p, size_t k) { return bare_end(p, k); }

/* Does the bare text [s, s+n) hold a second key (` word: `) - a missing comma? */
static bool holds_key(const char *s, size_t n)
{
    for (size_t k = 1; k < n; k++) {
        if (s[k - 1] != ' ' || !(isalpha((unsigned char)s[k]) || s[k] == '_'))
            continue;
        size_t e = k;
        while (e < n && (isalnum((unsigned char)s[e]) || s[e] == '_' || s[e] == '-'))
            e++;
        if (e < n && s[e] == ':' && (e + 1 == n || s[e + 1] == ' '))
            return true;
    }
    return false;
}

/* Do blanks, one identifier, a ':' (maybe on the next line) and the start of
 * a value follow w (`false  n:5`, `1 b: 2`, `0 n` then `: 5` below)? */
static bool member_follows(const jp *p, size_t w)
{
    size_t k = jl_past_blanks(p, w);
    /* a quoted key, its ':' there or missing (`false  'n' 5`: commas and colons both missing, run 36) */
    if (k > w && (at(p, k) == '\'' || at(p, k) == '"') &&
        (jl_key_at(p, k) || jl_key_without_colon(p, k) || jl_empty_key_at(p, k)))
        return true;                    /* `1  '': 5` too (run 48 866d9079) */
    if (k == w || !(isalpha(at(p, k)) || at(p, k) == '_'))
        return false;
    while (k < p->n && (isalnum(at(p, k)) || at(p, k) == '_' || at(p, k) == '-'))
        k++;
    size_t c = jl_past_spaces(p, k);
    if (at(p, c) != ':')
        return false;
    int v = at(p, c + 1);
    return v < 0 || is_ws(v) || jl_unicode_space(p, c + 1) || strchr("\"'{[-0123456789", v);
}

/* Is the top-level token [s, s+n) the whole input and number-like (0789,
 * 1.2.3, a UUID starting with a digit) but not a number cut short (2e, 1.)? */
static bool lone_number_token(const jp *p, const char *s, size_t n)
{
    size_t k = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (k >= n || s[k] < '0' || s[k] > '9' || jl_past_spaces(p, p->i) < p->n)
        return false;
    return !strchr("eE+-.", s[n - 1]);
}

/* In an array: is the word [k, w) a JSON number, and does another JSON
 * number follow it after blanks on the line, ending at ',', ']' or a blank
 * (`[1 2 3]`: numbers missing their commas, not `[3 hours]`)? */
static bool number_then_number(const jp *p, size_t k, size_t w)
{
    if (p->depth == 0 || !json_number_token(p->s + k, w - k))
        return false;
    size_t j = w;
    while (j < p->n && (at(p, j) == ' ' || at(p, j) == '\t'))
        j++;
    size_t e = jl_word_end(p, j);
    return e > j && json_number_token(p->s + j, e - j) && (e >= p->n || strchr(" \t\r\n,]", at(p, e)));
}

/* Parse a bare word or bare text as a value. *out NULL with 0: dropped (cut
 * by end of input, or a placeholder). */
int jl_parse_word(jp *p, json_t **out)
{
    size_t start = p->i;
    int line = p->line;
    size_t wend = start;
    while (wend < p->n && jl_is_word(at(p, wend)))
        wend++;
    /* the word alone: `[1 2 3]` (numbers missing their commas), `[1, ... 10]` (a placeholder, then an item) */
    bool alone = !p->parent_object && wend < p->n && is_ws(at(p, wend)) && number_then_number(p, start, wend);
    if (jl_placeholder_at(p, start) && (at(p, start + 3) == ' ' || at(p, start + 3) == '\t'))
        wend = start + 3, alone = true; /* `...` and `…` are both 3 bytes */
    size_t end = p->depth > 0 && !alone ? bare_end(p, start) : wend;   /* no bare text at top level */
    if (end < wend)
        end = wend;
    if (end > wend && is_ws(at(p, wend)) && jl_placeholder_at(p, jl_past_spaces(p, wend)) &&
        (jl_word_is_literal(p->s + start, wend - start) || strchr("+-.0123456789", at(p, start))))
        end = wend;                     /* `"owner": null  …`: a value, then a placeholder */
    if (end > wend && ((at(p, wend) == ' ' && holds_key(p->s + start, end - start)) || member_follows(p, wend)) &&
        (jl_word_is_literal(p->s + start, wend - start) || strchr("+-.0123456789", at(p, start))))
        end = wend;                     /* `1 b: 2`: a value, then a member missing its comma */
    if (end > wend && at(p, wend) == '\\' && strchr("nrt", at(p, wend + 1)) &&
        (jl_word_is_literal(p->s + start, wend - start) || strchr("+-.0123456789", at(p, start))))
        end = wend;                     /* `0\n}`: escaped whitespace after a number (json.escaped-json) */
    const char *s = p->s + start;
    size_t n = end - start;
    bool open_missing = p->depth > 0 && n > 0 && jl_open_quote_missing(p, end);
    bool cut = p->depth > 0 && (end == p->n ||   /* `[-` then blanks: a sign alone was cut */
               (n == 1 && (at(p, start) == '-' || at(p, start) == '+') && jl_past_spaces(p, end) >= p->n));
    *out = NULL;
    if (n == 0)
        return jl_fail(p, "expected a JSON value");
    jl_advance_n(p, n);
    if (open_missing) {                 /* `foo",`: the string's opening quote is missing */
        jl_advance(p);
        size_t before = p->w->count;
        json_t *num = end == wend ? number_value(p, s, n, line) : NULL;
        if (num && json_is_string(num)) {
            json_decref(num);
            num = NULL;
            mf_warnings_truncate(p->w, before);
        }
        jl_note(p, MF_RULE_JSON_MISSING_OPEN_QUOTE, line, "'%.*s%s\"' had no opening quote; read as the %s",
                (int)(n > 40 ? 40 : n), s, n > 40 ? "..." : "", num ? "number" : "string");
        *out = num ? num : json_stringn(s, n);
        if (!*out) {
            p->i = start, p->line = line;
            return jl_fail(p, "unquoted text is not valid UTF-8");
        }
        return 0;
    }
    if (is_placeholder(s, n)) {
        jl_note(p, MF_RULE_JSON_PLACEHOLDER, line, "placeholder '%.*s' dropped", (int)n, s);
        return 0;
    }
    if (cut) {
        p->dropped_member = true;       /* a word, number or literal cut by the end of input */
        jl_cut(p, "left out '%.*s' at line %d: the end of input may have cut it", (int)(n > 40 ? 40 : n), s, line);
        return 0;
    }
    if (end == wend) {                  /* one word */
        if (n == 4 && !memcmp(s, "true", 4)) { *out = json_true(); return 0; }
        if (n == 5 && !memcmp(s, "false", 5)) { *out = json_false(); return 0; }
        if (n == 4 && !memcmp(s, "null", 4)) { *out = json_null(); return 0; }
        if ((*out = literal_variant(s, n))) {
            jl_note(p, MF_RULE_JSON_PYTHON_LITERAL, line, "%.*s replaced by %s", (int)n, s,
                    json_is_true(*out) ? "true" : json_is_false(*out) ? "false" : "null");
            return 0;
        }
        const char *w = (s[0] == '-' || s[0] == '+') ? s + 1 : s;
        size_t wn = (size_t)(s + n - w);
        if ((wn == 3 && !memcmp(w, "NaN", 3)) || (wn == 8 && !memcmp(w, "Infinity", 8))) {
            jl_note(p, MF_RULE_JSON_PYTHON_LITERAL, line, "%.*s has no JSON form; replaced by null", (int)n, s);
            *out = json_null();
            return 0;
        }
        if ((*out = number_value(p, s, n, line)) || (*out = shaped_number(p, s, n, line)))
            return 0;
    } else if (holds_key(s, n)) {
        p->i = start, p->line = line;
        return jl_fail(p, "unquoted text that holds another key (a missing comma?) is not repaired");
    }
    if (p->depth == 0 && !lone_number_token(p, s, n)) {
        p->i = start, p->line = line;
        return jl_fail(p, "expected a JSON value (unquoted text outside an object or array is not repaired)");
    }
    if (strchr("+-.0123456789", s[0]))
        jl_note(p, MF_RULE_JSON_NUMBER_STRING, line, "'%.*s' is no number JSON can hold exactly; kept as the string \"%.*s\"",
                (int)(n > 40 ? 40 : n), s, (int)(n > 40 ? 40 : n), s);
    else
        jl_note(p, MF_RULE_JSON_BARE_WORD, line, "unquoted text '%.*s%s' read as a string", (int)(n > 40 ? 40 : n), s,
                n > 40 ? "..." : "");
    *out = json_stringn(s, n);
    if (!*out) {
        p->i = start, p->line = line;
        return jl_fail(p, "unquoted text is not valid UTF-8");
    }
    return 0;
}
