/* ops_json.c - the JSON breakpoints of seeds 002 and 003: template literals
 * and backtick strings, \' escapes, literal newlines and unescaped quotes in
 * strings, trailing commas, single quotes, Python literals, comments,
 * truncation, and the schema-level variations (array for a prose field, 5.0
 * for an integer, an omitted required field that has a default).
 *
 * Each op tokenizes the text (mt_json_scan), picks a site with the op's RNG
 * and splices the text; nothing is parsed into values here. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

typedef bool (*tok_fn)(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i);

static bool contains(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return true;
    return false;
}

/* Is token i inside a JSON value (an opening bracket, or a token with one
 * open before it)? *depth: brackets open before token i, updated past it.
 * Outside any bracket a comma or a quote is prose or markdown (the file
 * blocks of shape.artifact-markdown): no JSON op site. */
static bool in_json(const mt_jtoks *t, size_t i, long *depth)
{
    bool in = t->v[i].kind == JT_OPEN || *depth > 0;
    if (t->v[i].kind == JT_OPEN)
        ++*depth;
    else if (t->v[i].kind == JT_CLOSE && *depth > 0)
        --*depth;
    return in;
}

static long pick_tok(mf_op_ctx *ctx, const mt_jtoks *t, tok_fn ok)
{
    size_t n = 0;
    long depth = 0;
    for (size_t i = 0; i < t->n; i++)
        n += in_json(t, i, &depth) && ok(ctx, t, i);
    if (!n)
        return -1;
    size_t k = mt_rand(ctx, n);
    depth = 0;
    for (size_t i = 0; i < t->n; i++)
        if (in_json(t, i, &depth) && ok(ctx, t, i) && k-- == 0)
            return (long)i;
    return -1;
}

/* Splice the op's built buffer b over bytes [from, to) and free b (rc < 0: building b ran out of memory). */
static int splice_buf(mf_op_ctx *ctx, size_t from, size_t to, mt_buf *b, int rc)
{
    if (rc >= 0)
        rc = mt_splice(ctx, from, to, b->s, b->len);
    mt_free(b);
    return rc < 0 ? -1 : rc;
}

/* Scan, pick a token, call edit. */
static int tok_op(mf_op_ctx *ctx, tok_fn ok, int (*edit)(mf_op_ctx *, const mt_jtoks *, size_t))
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return -1;
    long i = pick_tok(ctx, &t, ok);
    int rc = i < 0 ? 0 : edit(ctx, &t, (size_t)i);
    mt_jtoks_free(&t);
    return rc;
}

static const char *tok_s(const mf_op_ctx *ctx, const mt_jtok *k) { return ctx->text + k->off; }

/* Key name (without quotes) in the profile set? */
static bool key_in(const mf_op_ctx *ctx, const mt_jtok *k, const json_t *set)
{
    char name[128];
    if (k->kind != JT_KEY || k->len - 2 >= sizeof name || !json_is_object(set))
        return false;
    memcpy(name, tok_s(ctx, k) + 1, k->len - 2);
    name[k->len - 2] = '\0';
    return json_object_get(set, name) != NULL;
}

/* ---- strings ---- */

/* A string token followed by a value (`"key" "v"`, `"key" 5`) is a key whose
 * colon json.missing-colon took: backtick keys are no repair any rule promises. */
static bool s_backtick(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    if (i + 1 < t->n && t->v[i + 1].kind != JT_COMMA && t->v[i + 1].kind != JT_CLOSE)
        return false;
    return k->kind == JT_STR && k->len > 2 && !contains(tok_s(ctx, k), k->len, "\\") &&
           !contains(tok_s(ctx, k), k->len, "`");
}

static bool s_template(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return s_backtick(ctx, t, i) && contains(tok_s(ctx, &t->v[i]), t->v[i].len, "${");
}

static int e_backtick(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    ctx->text[k->off] = '`';
    ctx->text[k->off + k->len - 1] = '`';
    return 1;
}

int mt_op_json_template(mf_op_ctx *ctx) { return tok_op(ctx, s_template, e_backtick); }
int mt_op_json_backtick(mf_op_ctx *ctx) { return tok_op(ctx, s_backtick, e_backtick); }

/* Rewrite string token k, replacing every `from` (one char, or an escape
 * pair starting with a backslash) by `to`; other escape pairs are kept. */
static int replace_in_tok(mf_op_ctx *ctx, const mt_jtok *k, const char *from, const char *to)
{
    mt_buf b = {0};
    size_t fl = strlen(from);
    const char *s = tok_s(ctx, k);
    int rc = mt_putc(&b, s[0]);
    for (size_t i = 1; i + 1 < k->len && rc == 0;) {
        size_t step = s[i] == '\\' && i + 2 < k->len ? 2 : 1;
        if (step == fl && memcmp(s + i, from, fl) == 0)
            rc |= mt_puts(&b, to);
        else
            rc |= mt_put(&b, s + i, step);
        i += step;
    }
    rc |= mt_putc(&b, s[k->len - 1]);
    return splice_buf(ctx, k->off, k->off + k->len, &b, rc);
}

static bool s_has_apos(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return (t->v[i].kind == JT_STR || t->v[i].kind == JT_KEY) && contains(tok_s(ctx, &t->v[i]), t->v[i].len, "'");
}
static int e_apos(mf_op_ctx *ctx, const mt_jtoks *t, size_t i) { return replace_in_tok(ctx, &t->v[i], "'", "\\'"); }
int mt_op_json_apos(mf_op_ctx *ctx) { return tok_op(ctx, s_has_apos, e_apos); }

/* Would a \n of string token k, made a line break, start a markdown fence
 * line (``` or ~~~ after blanks)? That line reads as a fence of the output
 * (it opens a payload, or closes the artifact's own fence): no rule can tell
 * it from one, so such a string is no site. */
static bool nl_starts_fence(const mf_op_ctx *ctx, const mt_jtok *k)
{
    const char *s = tok_s(ctx, k);
    for (size_t i = 1; i + 1 < k->len; i++) {
        if (s[i] != '\\')
            continue;
        if (s[++i] != 'n')
            continue;
        size_t j = i + 1;
        while (j < k->len && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j + 3 <= k->len && (!memcmp(s + j, "```", 3) || !memcmp(s + j, "~~~", 3)))
            return true;
    }
    return false;
}

static bool s_has_nl(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return t->v[i].kind == JT_STR && contains(tok_s(ctx, &t->v[i]), t->v[i].len, "\\n") &&
           !nl_starts_fence(ctx, &t->v[i]);
}
static int e_nl(mf_op_ctx *ctx, const mt_jtoks *t, size_t i) { return replace_in_tok(ctx, &t->v[i], "\\n", "\n"); }
int mt_op_json_newline(mf_op_ctx *ctx) { return tok_op(ctx, s_has_nl, e_nl); }

/* Does the string token [s, s+n) hold an escaped quote, then ',' and
 * another escaped quote (`\", \"notes`), an escaped quote then ':' (a
 * key shape, `{\"a\": [`), a closer (`\"hi\"} twice`) or blanks and another escaped quote
 * (`\" \"it's`)? Unescaped, that reads as the end of the string
 * and more members or elements (core refuses a string that would hold a
 * member): nothing tells the two readings apart. */
static bool quoted_separator(const char *s, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++) {
        if (s[i] != '\\' || s[i + 1] != '"')
            continue;
        size_t j = i + 2;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j < n && s[j] == ':')
            return true;
        /* `\"}` / `\"]`: unescaped, the quote and the closer read as the end of
         * the string and its container; when that container is the root, the
         * rest of the line is text after the artifact (run 9, fbbd3288) */
        if (j < n && (s[j] == '}' || s[j] == ']'))
            return true;
        /* `\" \"`: unescaped, two strings side by side (a missing comma or colon,
         * or Python's implicit concatenation) (run 28 ffc04a84) */
        if (j > i + 2 && j + 1 < n && s[j] == '\\' && s[j + 1] == '"')
            return true;
        if (j >= n || s[j] != ',')
            continue;
        j++;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        if (j + 1 < n && s[j] == '\\' && s[j + 1] == '"')
            return true;
        /* `\",ents"` at the string's end: unescaped, `",ents"` is also the value's end and a
         * string missing its opening quote (json.missing-open-quote's `, b"`; run 36 523e8e1e) */
        size_t w = j;
        while (w < n - 1 && (isalnum((unsigned char)s[w]) || s[w] == '_'))
            w++;
        if (w > j && w == n - 1)
            return true;
    }
    return false;
}

/* Is token i an element of an array (its nearest open container a '[')? */
static bool in_array(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t depth = 0;
    for (size_t k = i; k-- > 0;) {
        if (t->v[k].kind == JT_CLOSE)
            depth++;
        else if (t->v[k].kind == JT_OPEN && depth-- == 0)
            return tok_s(ctx, &t->v[k])[0] == '[';
    }
    return false;
}

/* Is the first escaped quote of string token [s, s+n) followed by blanks and
 * more text (`\"hi\" twice`)? Unescaped in an array item, `"hi" twice",` is
 * also the item "hi" and the item `twice"` missing its comma and opening
 * quote, the reading core takes (json.inner-quote README: a quote before a
 * whole scalar item closes the string): nothing tells the two apart. */
static bool first_quote_then_spaced_text(const char *s, size_t n)
{
    for (size_t i = 1; i + 1 < n; i++) {
        if (s[i] != '\\')
            continue;
        if (s[i + 1] != '"') {
            i++;
            continue;
        }
        size_t j = i + 2;
        while (j < n && (s[j] == ' ' || s[j] == '\t'))
            j++;
        return j > i + 2 && j + 1 < n && s[j] != '\\';
    }
    return false;
}

/* Not where a string starts or ends with an escaped quote: unescaped, ""x"
 * or "x"" is the doubled-quotes shape json.doubled-quotes reads as one pair
 * (a string json.string-plus split right before an inner quote, say). */
static bool s_has_quote(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const char *s = tok_s(ctx, &t->v[i]);
    size_t n = t->v[i].len;
    bool edge = n >= 4 && ((s[1] == '\\' && s[2] == '"') || (s[n - 3] == '\\' && s[n - 2] == '"' && (n < 5 || s[n - 4] != '\\')));
    return t->v[i].kind == JT_STR && contains(s, n, "\\\"") && !quoted_separator(s, n) && !edge &&
           !(in_array(ctx, t, i) && first_quote_then_spaced_text(s, n));
}
static int e_quote(mf_op_ctx *ctx, const mt_jtoks *t, size_t i) { return replace_in_tok(ctx, &t->v[i], "\\\"", "\""); }
int mt_op_json_inner_quote(mf_op_ctx *ctx) { return tok_op(ctx, s_has_quote, e_quote); }

int mt_op_json_single_quotes(mf_op_ctx *ctx)
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return -1;
    bool all = mt_param_int(ctx, "all", (long)mt_rand(ctx, 2));
    int applied = 0;
    long depth = 0;
    for (size_t i = 0; i < t.n; i++) {
        const mt_jtok *k = &t.v[i];
        /* only double-quoted strings inside a JSON value: "Here it is:" then "```json"
         * scans as the backtick string "``" after a colon, a fence to keep */
        if (!in_json(&t, i, &depth) || tok_s(ctx, k)[0] != '"')
            continue;
        if ((k->kind != JT_STR && k->kind != JT_KEY) || contains(tok_s(ctx, k), k->len, "'") ||
            contains(tok_s(ctx, k), k->len, "\\"))
            continue;
        if (!all && applied && mt_rand(ctx, 2))
            continue;
        ctx->text[k->off] = '\'';
        ctx->text[k->off + k->len - 1] = '\'';
        applied = 1;
    }
    mt_jtoks_free(&t);
    return applied;
}

/* ---- punctuation and literals ---- */

static bool s_close(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_CLOSE && i > 0 && t->v[i - 1].kind != JT_OPEN && t->v[i - 1].kind != JT_COMMA;
}
static int e_trailing(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t at = t->v[i - 1].off + t->v[i - 1].len;
    return mt_splice(ctx, at, at, ",", 1);
}
int mt_op_json_trailing_comma(mf_op_ctx *ctx) { return tok_op(ctx, s_close, e_trailing); }

int mt_op_json_python(mf_op_ctx *ctx)
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return -1;
    mt_buf b = {0};
    size_t at = 0;
    int rc = 0, applied = 0;
    for (size_t i = 0; i < t.n; i++) {
        const mt_jtok *k = &t.v[i];
        const char *py = NULL;
        if (k->kind != JT_LIT)
            continue;
        if (k->len == 4 && memcmp(tok_s(ctx, k), "true", 4) == 0)
            py = "True";
        else if (k->len == 5 && memcmp(tok_s(ctx, k), "false", 5) == 0)
            py = "False";
        else if (k->len == 4 && memcmp(tok_s(ctx, k), "null", 4) == 0)
            py = "None";
        if (!py)
            continue;
        rc |= mt_put(&b, ctx->text + at, k->off - at) | mt_puts(&b, py);
        at = k->off + k->len;
        applied = 1;
    }
    rc |= mt_put(&b, ctx->text + at, ctx->len - at);
    mt_jtoks_free(&t);
    if (rc < 0 || !applied) {
        mt_free(&b);
        return rc < 0 ? -1 : 0;
    }
    mt_ctx_set(ctx, &b);
    return 1;
}

static bool s_member_start(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_KEY && i > 0 && (t->v[i - 1].kind == JT_COMMA || t->v[i - 1].kind == JT_OPEN);
}
static int e_comment(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    static const char *const c[] = {"// generated field follows\n", "/* note: see ticket */ ",
                                    "# python-style comment\n", "// TODO: verify\n"};
    const char *s = c[mt_rand(ctx, 3)];
    return mt_splice(ctx, t->v[i].off, t->v[i].off, s, strlen(s));
}
int mt_op_json_comment(mf_op_ctx *ctx) { return tok_op(ctx, s_member_start, e_comment); }

/* ---- truncation (contract subset) ---- */

static bool s_comma(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_COMMA;
}
static int e_truncate(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t cut = t->v[i].off;
    if (mt_param_int(ctx, "partial", (long)mt_rand(ctx, 2)) && i + 1 < t->n)
        cut = t->v[i + 1].off + t->v[i + 1].len / 2;
    ctx->len = cut;
    ctx->text[cut] = '\0';
    return 1;
}
int mt_op_json_truncate(mf_op_ctx *ctx) { return tok_op(ctx, s_comma, e_truncate); }

/* ---- schema-level (seed 003) ---- */

/* Does a '+' follow token k (blanks between): the string is one operand of a
 * concatenation (json.string-plus), no whole value to wrap in an array? */
static bool plus_after(const mf_op_ctx *ctx, const mt_jtok *k)
{
    size_t j = k->off + k->len;
    while (j < ctx->len && (ctx->text[j] == ' ' || ctx->text[j] == '\t' || ctx->text[j] == '\r' ||
                            ctx->text[j] == '\n'))
        j++;
    return j < ctx->len && ctx->text[j] == '+';
}

static bool s_prose(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return ctx->profile && i + 2 < t->n && key_in(ctx, &t->v[i], ctx->profile->prose_fields) &&
           t->v[i + 2].kind == JT_STR && !plus_after(ctx, &t->v[i + 2]);
}
static int e_prose(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *v = &t->v[i + 2];
    mt_buf b = {0};
    const char *s = tok_s(ctx, v);
    int rc = mt_puts(&b, "[");
    for (size_t k = 0; k < v->len && rc == 0; k++) {
        if (k + 2 < v->len && s[k] == '\\' && s[k + 1] == 'n') {
            rc |= mt_puts(&b, "\", \"");
            k++;
        } else if (k + 2 < v->len && s[k] == '\\') {
            rc |= mt_put(&b, s + k, 2);
            k++;
        } else {
            rc |= mt_putc(&b, s[k]);
        }
    }
    rc |= mt_puts(&b, "]");
    return splice_buf(ctx, v->off, v->off + v->len, &b, rc);
}
int mt_op_json_prose_array(mf_op_ctx *ctx) { return tok_op(ctx, s_prose, e_prose); }

static bool s_int(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    if (!ctx->profile || i + 2 >= t->n || !key_in(ctx, &t->v[i], ctx->profile->integer_fields))
        return false;
    const mt_jtok *v = &t->v[i + 2];
    if (v->kind != JT_NUM)
        return false;
    for (size_t k = 0; k < v->len; k++)
        if (strchr(".eE", tok_s(ctx, v)[k]))
            return false;
    return true;
}
static int e_int(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t at = t->v[i + 2].off + t->v[i + 2].len;
    return mt_splice(ctx, at, at, ".0", 2);
}
int mt_op_json_float_int(mf_op_ctx *ctx) { return tok_op(ctx, s_int, e_int); }

static bool s_default(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return ctx->profile && i + 2 < t->n && t->v[i + 1].kind == JT_COLON &&
           key_in(ctx, &t->v[i], ctx->profile->defaults);
}
static int e_omit(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t e = i + 2;
    if (t->v[e].kind == JT_OPEN) {
        int depth = 0;
        for (; e < t->n; e++) {
            depth += t->v[e].kind == JT_OPEN ? 1 : t->v[e].kind == JT_CLOSE ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (e >= t->n)
            return 0;
    }
    while (e + 1 < t->n && t->v[e].kind == JT_STR && t->v[e + 1].kind == JT_STR && plus_after(ctx, &t->v[e]))
        e++;                            /* "5B " + "USD" (json.string-plus): the whole value goes */
    size_t a = t->v[i].off, b = t->v[e].off + t->v[e].len;
    if (t->v[i - 1].kind == JT_COMMA)
        a = t->v[i - 1].off;
    else if (e + 1 < t->n && t->v[e + 1].kind == JT_COMMA) {
        b = e + 2 < t->n ? t->v[e + 2].off : t->v[e + 1].off + 1;
        /* only blanks go with the comma: a comment after it stays whole (`# note` losing its `# `
         * left the bare words of a member no op wrote, run 50 7cdd8d35) */
        for (size_t k = t->v[e + 1].off + 1; k < b; k++)
            if (!strchr(" \t\r\n", ctx->text[k])) {
                b = t->v[e + 1].off + 1;
                break;
            }
    }
    return mt_splice(ctx, a, b, "", 0);
}
int mt_op_json_omit(mf_op_ctx *ctx) { return tok_op(ctx, s_default, e_omit); }

/* ---- more aggressive-repair breakpoints ---- */

/* Does string token k's text open with a delimiter (`",x"`, `"}x"`)? Its opening
 * quote then reads as the close of a string before it. */
static bool opens_with_delimiter(const mf_op_ctx *ctx, const mt_jtok *k)
{
    return (k->kind == JT_STR || k->kind == JT_KEY) && k->len > 2 && strchr(",:}]", tok_s(ctx, k)[1]);
}

/* With the comma gone, `"T" ",x": 1` has two readings: a missing comma before key `,x`,
 * or a string `T" ` closed by the second quote, then key `x"` (json.inner-quote,
 * json.missing-open-quote): no exact site. */
static bool s_comma_member(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return t->v[i].kind == JT_COMMA && i + 1 < t->n && i > 0 && t->v[i - 1].kind != JT_OPEN &&
           !(t->v[i - 1].kind == JT_STR && opens_with_delimiter(ctx, &t->v[i + 1]));
}
static int e_missing_comma(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return mt_splice(ctx, t->v[i].off, t->v[i].off + 1, " ", 1);
}
int mt_op_json_missing_comma(mf_op_ctx *ctx) { return tok_op(ctx, s_comma_member, e_missing_comma); }

static bool s_simple_key(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    if (k->kind != JT_KEY || k->len < 3 || tok_s(ctx, k)[0] != '"')
        return false;
    for (size_t j = 1; j + 1 < k->len; j++) {
        char c = tok_s(ctx, k)[j];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (j > 1 && c >= '0' && c <= '9')))
            return false;
    }
    return true;
}
static int e_unquote_key(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    return mt_splice(ctx, k->off, k->off + k->len, tok_s(ctx, k) + 1, k->len - 2);
}
int mt_op_json_unquoted_key(mf_op_ctx *ctx) { return tok_op(ctx, s_simple_key, e_unquote_key); }

static bool s_plain_str(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    return (k->kind == JT_STR || k->kind == JT_KEY) && tok_s(ctx, k)[0] == '"' && k->len >= 2 &&
           !contains(tok_s(ctx, k), k->len, "\\");
}
static int e_smart(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    mt_buf b = {0};
    int rc = mt_puts(&b, "\xe2\x80\x9c") | mt_put(&b, tok_s(ctx, k) + 1, k->len - 2) | mt_puts(&b, "\xe2\x80\x9d");
    return splice_buf(ctx, k->off, k->off + k->len, &b, rc);
}
int mt_op_json_smart_quotes(mf_op_ctx *ctx) { return tok_op(ctx, s_plain_str, e_smart); }

static bool s_number(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    const char *s = tok_s(ctx, k);
    /* not a number this op already rewrote (+12, .5): a second pass would write ++12 */
    return k->kind == JT_NUM && s[0] != '-' && (s[0] != '0' || (k->len > 2 && s[1] == '.')) &&
           (k->off == 0 || (s[-1] != '+' && s[-1] != '.'));
}
static int e_number(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    if (tok_s(ctx, k)[0] == '0')               /* 0.5 -> .5 */
        return mt_splice(ctx, k->off, k->off + 1, "", 0);
    return mt_splice(ctx, k->off, k->off, "+", 1); /* 12 -> +12 */
}
int mt_op_json_number_format(mf_op_ctx *ctx) { return tok_op(ctx, s_number, e_number); }

/* A string value of 20 or more digits, no leading zero, that no double holds
 * exactly (`"12345678901234567890"`): written bare, json.big-number keeps its text. */
static bool s_big_digits(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    const char *s = tok_s(ctx, k) + 1;
    size_t n = k->len - 2;
    if (k->kind != JT_STR || n < 20 || n > 64 || s[0] == '0')
        return false;
    for (size_t q = 0; q < n; q++)
        if (s[q] < '0' || s[q] > '9')
            return false;
    char digits[72], back[400];
    memcpy(digits, s, n);
    digits[n] = '\0';
    snprintf(back, sizeof back, "%.0f", strtod(digits, NULL));
    return strcmp(back, digits) != 0;
}
static int e_big_digits(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    const mt_jtok *k = &t->v[i];
    if (mt_splice(ctx, k->off + k->len - 1, k->off + k->len, "", 0) < 0)
        return -1;
    return mt_splice(ctx, k->off, k->off + 1, "", 0);
}
int mt_op_json_bare_big_number(mf_op_ctx *ctx) { return tok_op(ctx, s_big_digits, e_big_digits); }

static bool s_between(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_COMMA || t->v[i].kind == JT_COLON;
}
static int e_uspace(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    static const char *const sp[] = {"\xc2\xa0", "\xe2\x80\x8b", "\xe2\x80\x83", "\xef\xbb\xbf"};
    const char *s = sp[mt_rand(ctx, 4)];
    size_t at = t->v[i].off + 1;
    return mt_splice(ctx, at, at, s, strlen(s));
}
int mt_op_json_unicode_space(mf_op_ctx *ctx) { return tok_op(ctx, s_between, e_uspace); }

/* A small stray object next to the artifact: object profiles keep the largest. */
/* Does the text end inside a string or an open container (cut short)? */
static bool cut_short(const mf_op_ctx *ctx)
{
    int depth = 0;
    bool str = false;
    for (size_t i = 0; i < ctx->len; i++) {
        char c = ctx->text[i];
        if (str)
            str = c == '\\' ? (i++, true) : c != '"';
        else if (c == '"')
            str = true;
        else if (c == '{' || (c == '[' && (i == 0 || ctx->text[i - 1] != '\x1b')))   /* not ESC [ (terminal noise) */
            depth++;
        else if (c == '}' || c == ']')
            depth--;
    }
    return str || depth > 0;
}

int mt_op_json_concatenated(mf_op_ctx *ctx)
{
    if (!ctx->profile || !ctx->profile->schema || ctx->len == 0 || ctx->text[0] != '{')
        return 0;
    /* an array profile's artifact wrapped in an object (norm.wrapper, shape.artifact-record):
     * the rule wraps every value into the array there, the stray one too */
    const char *root = json_string_value(json_object_get(ctx->profile->schema, "type"));
    if (!root || strcmp(root, "object") != 0)
        return 0;
    static const char *const stray[] = {"{\"status\": \"ok\"}\n", "{}\n", "{\"note\": \"draft 1\"}\n"};
    const char *x = stray[mt_rand(ctx, 3)];
    /* after a cut artifact (json.truncate) the stray value would glue onto the cut token: before it only */
    /* nor after a fence line (an orphan closer cand.orphan-fence wrote): there it reads as an
     * unclosed fence opening the stray value's block just as well (run 38 42da9a24) */
    bool after = mt_rand(ctx, 2) == 0 && !cut_short(ctx) && !mt_has_fence(ctx);
    int rc = after ? mt_splice(ctx, ctx->len, ctx->len, x, strlen(x)) : mt_splice(ctx, 0, 0, x, strlen(x));
    ctx->prose_key = rc == 1;   /* a later wrapper would put the stray value inside the object */
    return rc;
}

/* ---- syntax slips the json.* rules added later repair ---- */

static bool scalar_tok(const mt_jtok *k)
{
    return k->kind == JT_STR || k->kind == JT_NUM || k->kind == JT_LIT;
}

/* "key": value -> "key" value (a scalar value) */
static bool s_colon(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_COLON && i > 0 && i + 1 < t->n && t->v[i - 1].kind == JT_KEY && scalar_tok(&t->v[i + 1]);
}
static int e_colon(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t a = t->v[i].off;
    bool space = a + 1 < ctx->len && (ctx->text[a + 1] == ' ' || ctx->text[a + 1] == '\n');
    return mt_splice(ctx, a, a + 1, space ? "" : " ", space ? 0 : 1);
}
int mt_op_json_missing_colon(mf_op_ctx *ctx) { return tok_op(ctx, s_colon, e_colon); }

/* An array of two or more scalars written as a Python tuple (1, 2). */
static bool s_tuple(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    if (t->v[i].kind != JT_OPEN || ctx->text[t->v[i].off] != '[')
        return false;
    size_t n = 0, j = i + 1;
    for (; j < t->n && scalar_tok(&t->v[j]); j += 2) {
        n++;
        if (j + 1 >= t->n || t->v[j + 1].kind != JT_COMMA)
            break;
    }
    /* the loop ends on the last scalar, its closer next; on anything else (`[5, "F", []]`: a nested
     * array, run 55 ff2edb4f) the array holds more than scalars */
    if (j >= t->n || !scalar_tok(&t->v[j]))
        return false;
    j++;
    return n >= 2 && j < t->n && t->v[j].kind == JT_CLOSE && ctx->text[t->v[j].off] == ']';
}
static int e_tuple(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t j = i + 1;
    while (t->v[j].kind != JT_CLOSE)
        j++;
    ctx->text[t->v[i].off] = '(';
    ctx->text[t->v[j].off] = ')';
    return 1;
}
int mt_op_json_python_tuple(mf_op_ctx *ctx) { return tok_op(ctx, s_tuple, e_tuple); }

/* }]} -> }}: the bracket closing an array of objects left out */
static bool s_closer(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return t->v[i].kind == JT_CLOSE && ctx->text[t->v[i].off] == ']' && i > 0 && i + 1 < t->n &&
           t->v[i - 1].kind == JT_CLOSE && ctx->text[t->v[i - 1].off] == '}' && t->v[i + 1].kind == JT_CLOSE &&
           ctx->text[t->v[i + 1].off] == '}';
}
static int e_closer(mf_op_ctx *ctx, const mt_jtoks *t, size_t i) { return mt_splice(ctx, t->v[i].off, t->v[i].off + 1, "", 0); }
int mt_op_json_missing_bracket(mf_op_ctx *ctx) { return tok_op(ctx, s_closer, e_closer); }

/* The whole value as a JavaScript statement: const x = ...;, module.exports
 * = ...;, a JSONP call, or a trailing semicolon. */
int mt_op_json_js_wrapper(mf_op_ctx *ctx)
{
    size_t a = 0, z = ctx->len;
    while (a < z && strchr(" \t\r\n", ctx->text[a]))
        a++;
    while (z > a && strchr(" \t\r\n", ctx->text[z - 1]))
        z--;
    if (z - a < 2 || !((ctx->text[a] == '{' && ctx->text[z - 1] == '}') || (ctx->text[a] == '[' && ctx->text[z - 1] == ']')))
        return 0;
    static const char *const pre[] = {"const data = ", "module.exports = ", "callback(", "export default ", ""};
    static const char *const post[] = {";", ";", ");", ";", ";"};
    size_t k = mt_rand(ctx, sizeof pre / sizeof *pre);
    mt_buf b = {0};
    int rc = mt_put(&b, ctx->text, a) | mt_puts(&b, pre[k]) | mt_put(&b, ctx->text + a, z - a) | mt_puts(&b, post[k]) |
             mt_put(&b, ctx->text + z, ctx->len - z);
    rc = mt_ctx_commit(ctx, &b, rc);
    ctx->prose_key = rc == 1;   /* a later wrapper puts "module.exports = ...;" inside the object */
    return rc;
}

static bool value_tok(const mt_jtoks *t, size_t i)
{
    return i > 0 && (t->v[i - 1].kind == JT_COLON || t->v[i - 1].kind == JT_COMMA || t->v[i - 1].kind == JT_OPEN);
}

/* An escaped backslash before a letter that is no JSON escape (\\d -> \d),
 * as in a regex or a Windows path: the rule keeps the backslash. Not before
 * an apostrophe: \' is the escaped quote json.single-quote-escape reads as '. */
static long lone_backslash_at(const mf_op_ctx *ctx, const mt_jtok *k)
{
    const char *s = tok_s(ctx, k);
    if (k->kind != JT_STR || s[0] != '"')
        return -1;
    for (size_t i = 1; i + 2 < k->len - 1; i++) {
        if (s[i] != '\\')
            continue;
        if (s[i + 1] == '\\' && !strchr("\"\\/bfnrtu'", s[i + 2]) && (unsigned char)s[i + 2] > ' ')
            return (long)i;
        i++;
    }
    return -1;
}
static bool s_lone(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i) { return lone_backslash_at(ctx, &t->v[i]) >= 0; }
static int e_lone(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t at = t->v[i].off + (size_t)lone_backslash_at(ctx, &t->v[i]);
    return mt_splice(ctx, at, at + 1, "", 0);
}
int mt_op_json_lone_backslash(mf_op_ctx *ctx) { return tok_op(ctx, s_lone, e_lone); }

/* A string value split in two and joined with + (JavaScript concatenation). */
static long split_at(const mf_op_ctx *ctx, const mt_jtok *k)
{
    const char *s = tok_s(ctx, k);
    if (k->kind != JT_STR || s[0] != '"')
        return -1;
    size_t tmpl = 0; /* inside `${ ...` (nested ones too): json.template-literal keeps its quotes as text (run 42 2afbd75d) */
    for (size_t i = 2; i + 2 < k->len; i++) {
        if (s[i - 2] == '$' && s[i - 1] == '{')
            tmpl++;
        else if (s[i - 1] == '}' && tmpl)
            tmpl--;
        if (!tmpl && s[i - 1] == ' ' && s[i] != ' ' && s[i - 2] != '\\') {
            size_t bs = 0;   /* the split must not fall after an escaping backslash */
            while (bs < i - 1 && s[i - 2 - bs] == '\\')
                bs++;
            if (bs % 2 == 0)
                return (long)i;
        }
    }
    return -1;
}
/* Is the string at i a member value or an array element, not a key whose
 * ':' an earlier op (json.missing-colon) removed (`"k" "v"` in an object)?
 * No rule joins a concatenated key. */
static bool value_not_key(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    if (!value_tok(t, i))
        return false;
    if (t->v[i - 1].kind == JT_COLON)
        return true;
    long depth = 0;
    for (size_t j = i; j-- > 0;) {
        if (t->v[j].kind == JT_CLOSE)
            depth++;
        else if (t->v[j].kind == JT_OPEN && depth-- == 0)
            return ctx->text[t->v[j].off] == '[';
    }
    return false;
}
static bool s_split(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    return value_not_key(ctx, t, i) && split_at(ctx, &t->v[i]) >= 0;
}
static int e_split(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t at = t->v[i].off + (size_t)split_at(ctx, &t->v[i]);
    static const char *const joins[] = {"\" + \"", "\" +\n  \"", "\"+\""};
    const char *j = joins[mt_rand(ctx, 3)];
    return mt_splice(ctx, at, at, j, strlen(j));
}
int mt_op_json_string_plus(mf_op_ctx *ctx) { return tok_op(ctx, s_split, e_split); }

/* A trailing "..." or "…" item in a non-empty array or object (the model
 * marks that it abridged): the rule drops it. */
static bool s_ellipsis(const mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    (void)ctx;
    return t->v[i].kind == JT_CLOSE && i > 0 && t->v[i - 1].kind != JT_OPEN && t->v[i - 1].kind != JT_COMMA;
}
static int e_ellipsis(mf_op_ctx *ctx, const mt_jtoks *t, size_t i)
{
    size_t at = t->v[i - 1].off + t->v[i - 1].len;
    const char *e = mt_rand(ctx, 2) ? ", ..." : ", \xE2\x80\xA6";
    return mt_splice(ctx, at, at, e, strlen(e));
}
int mt_op_json_ellipsis(mf_op_ctx *ctx) { return tok_op(ctx, s_ellipsis, e_ellipsis); }
