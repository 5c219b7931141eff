/* ops_yaml_blocks.c - block scalar text written too far left: the body of a
 * `key: |` / `key: >-` scalar moved left, as a whole, onto its key's column
 * (relative indentation kept), where YAML reads it as no body at all.
 * Exact: yaml.block-body-indent moves it back, and a block scalar's value
 * does not depend on the body's column. */
#include <ctype.h>
#include <string.h>
#include "mut_internal.h"

/* Would line text [s, s+n) (indentation stripped) end a fallen body for the
 * rule, or read as something else: an identifier key, a dash, a comment, a
 * document marker? Then the line is no site. */
static bool ends_body(const char *s, size_t n)
{
    if (n == 0)
        return false;
    if (s[0] == '-' || s[0] == '#' || s[0] == '.' || s[0] == '\t')
        return true;
    size_t i = 0;
    if (!isalpha((unsigned char)s[0]) && s[0] != '_')
        return false;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
        i++;
    if (i < n && s[i] == ':')
        return true;
    /* `first : line` is a key too, its colon spaced (run 22 1416693c) */
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i < n && s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t' || s[i + 1] == '\r');
}

/* Is line l a `---` document marker (anything may follow it)? */
static bool doc_separator(const mt_line *l)
{
    const char *t = l->s + l->indent;
    size_t n = l->len - l->indent;
    return n >= 3 && memcmp(t, "---", 3) == 0 && (n == 3 || t[3] == ' ' || t[3] == '\t' || t[3] == '\r');
}

/* Does line text [s, s+n) read as a mapping entry once on its key's column
 * (`def f(x):` with deeper lines as its value, `Hard limits: keep`)? */
static bool key_shaped(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n > 0 && s[n - 1] == ':')
        return true;
    for (size_t k = 0; k + 1 < n; k++)
        if (s[k] == ':' && (s[k + 1] == ' ' || s[k + 1] == '\t'))
            return true;
    return false;
}

/* Would a fence line of body lines (i, last] land on column 0 once the
 * body falls to the key's column? In a text with a fence line at column 0
 * already (a ```yaml wrapper) it closes that fence for every reader: the
 * artifact ends there (run 21 9ddbb018). */
static bool fence_lands_left(const mt_lines *ls, size_t i, size_t last, size_t min)
{
    for (size_t j = i + 1; j <= last; j++) {
        const mt_line *l = &ls->v[j];
        const char *t = l->s + l->indent;
        if (!l->blank && l->indent - (min - ls->v[i].body) == 0 && l->len - l->indent >= 3 &&
            (t[0] == '`' || t[0] == '~') && t[1] == t[0] && t[2] == t[0])
            return true;
    }
    return false;
}

/* Does line text [s, s+n) after a fallen body end it for the rule (ends_body), also as
 * the loader reads it? An identifier glued to the rest by a ':' (`target_ed_aT08:00:users:`)
 * is no identifier key when the rest holds a later key separator (`: ` or a final ':'):
 * the key is the longer, non-identifier one, which the rule reads as more text of a fallen
 * body (run 48 162cdea3; yaml.colon-space spaces only `target:08:00`). */
static bool ends_fallen_body(const char *s, size_t n)
{
    if (!ends_body(s, n))
        return false;
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
        i++;
    if (i == 0 || i + 1 >= n || s[i] != ':' || s[i + 1] == ' ' || s[i + 1] == '\t' || s[i + 1] == '\r')
        return true;                    /* no glued colon: ends_body's reading */
    while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (s[n - 1] == ':')
        return false;
    for (size_t k = i + 1; k + 1 < n; k++)
        if (s[k] == ':' && (s[k + 1] == ' ' || s[k + 1] == '\t'))
            return false;
    return true;
}

/* Line i opens a block scalar (no indentation indicator) whose body lines
 * can all fall left: *last is its last body line, *min the body's column.
 * One line that lands on the key's column must be no entry: when all of
 * them read as entries (`def f(x):` + its deeper lines), the fallen text is
 * valid YAML with another value (an empty block, then keys) and core keeps
 * that reading (regressions 7a2bfcd6, 4308feb0). */
static bool site(const mt_lines *ls, size_t i, bool wrapped, size_t *last, size_t *min)
{
    const mt_line *h = &ls->v[i];
    if (h->block_body || !mt_line_block_indicator(h))
        return false;
    const char *v;
    size_t vn = mt_line_value(h, &v);
    for (size_t k = 1; k < vn; k++)
        if (isdigit((unsigned char)v[k]))
            return false;
    *min = (size_t)-1;
    *last = i;
    for (size_t j = i + 1; j < ls->n && ls->v[j].block_body; j++) {
        const mt_line *l = &ls->v[j];
        if (l->blank)
            continue;
        if (ends_body(l->s + l->indent, l->len - l->indent) || memchr(l->s, '\r', l->len))
            return false;
        if (l->indent < *min)
            *min = l->indent;
        *last = j;
    }
    if (*last == i || *min <= h->body || (wrapped && fence_lands_left(ls, i, *last, *min)))
        return false;
    /* a blank line holding spaces past the body's column holds them as text (`    a` + 5 spaces:
     * "a\n \n..."), which a fallen, re-indented body cannot tell from indentation (run 55 4cae7258) */
    for (size_t j = i + 1; j <= *last; j++)
        if (ls->v[j].blank && ls->v[j].len > *min)
            return false;
    /* the line after the body must end it for the rule once the body fell:
     * a non-identifier key there (`<"flags": x`, `"a b": c`) reads as more
     * text of it (regression 69c41356) */
    size_t nx = *last + 1;
    while (nx < ls->n && ls->v[nx].blank)
        nx++;
    if (nx < ls->n && ls->v[nx].indent <= h->body &&
        !ends_fallen_body(ls->v[nx].s + ls->v[nx].indent, ls->v[nx].len - ls->v[nx].indent))
        return false;
    /* nor above a `---` separator: the fallen last line is no block structure
     * that trailing prose after the separator could follow, so core reads
     * `---` + `Notes: ...` as a second document (run 21, 00247971) */
    if (nx < ls->n && doc_separator(&ls->v[nx]))
        return false;
    for (size_t j = i + 1; j <= *last; j++) {
        const mt_line *l = &ls->v[j];
        if (!l->blank && l->indent == *min && !key_shaped(l->s + l->indent, l->len - l->indent))
            return true;
    }
    return false;
}

int mt_op_yaml_block_body_indent(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t sites[256], m = 0, last, min;
    bool wrapped = mt_has_fence(ctx);
    for (size_t i = 0; i < ls.n && m < 256; i++)
        if (site(&ls, i, wrapped, &last, &min))
            sites[m++] = i;
    int rc = 0;
    if (m) {
        size_t i = sites[mt_rand(ctx, m)];
        site(&ls, i, wrapped, &last, &min);
        size_t shift = min - ls.v[i].body; /* the leftmost body line lands on the key's column */
        mt_buf b = {0};
        int e = mt_put(&b, ctx->text, ls.v[i + 1].off);
        for (size_t j = i + 1; j <= last; j++) {
            const mt_line *l = &ls.v[j];
            size_t cut = l->blank ? l->len : shift;
            e |= mt_put(&b, l->s + (cut < l->len ? cut : l->len), l->len - (cut < l->len ? cut : l->len)) |
                 mt_putc(&b, '\n');
        }
        size_t after = ls.v[last].off + ls.v[last].len + 1;
        if (after < ctx->len)
            e |= mt_put(&b, ctx->text + after, ctx->len - after);
        else if (ctx->len && ctx->text[ctx->len - 1] != '\n' && b.len)
            b.len--, b.s[b.len] = '\0';
        rc = mt_ctx_commit(ctx, &b, e);
    }
    mt_lines_free(&ls);
    return rc;
}

/* Does key line l open a block scalar, a comment glued to its header or not
 * (`note: |-#note`, which yaml.block-header-comment repairs)? */
static bool block_header(const mt_line *l)
{
    if (mt_line_block_indicator(l))
        return true;
    const char *v;
    size_t n = l->key_len ? mt_line_value(l, &v) : 0;
    if (n == 0 || (v[0] != '|' && v[0] != '>'))
        return false;
    size_t i = 1;
    while (i < n && (v[i] == '-' || v[i] == '+' || isdigit((unsigned char)v[i])))
        i++;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    return i < n && v[i] == '#';
}

/* Does the YAML text end in a block scalar body that fell left (a line of it
 * at or left of its header's key, no entry below that)? A sentence appended
 * there reads as more text of the body (run 21, 68c87ee5). */
bool mt_yaml_ends_in_fallen_body(const char *text, size_t len)
{
    mt_lines ls;
    if (mt_lines_scan(text, len, &ls) < 0)
        return false;
    bool fallen = false;
    size_t left = (size_t)-1;           /* the leftmost column of the text lines below */
    for (size_t j = ls.n; j-- > 0;) {
        const mt_line *l = &ls.v[j];
        if (l->blank || l->block_body)
            continue;
        if (block_header(l)) {
            fallen = left <= l->body;
            break;
        }
        if (ends_body(l->s + l->indent, l->len - l->indent))
            break;
        if (l->indent < left)
            left = l->indent;
    }
    mt_lines_free(&ls);
    return fallen;
}

/* Is line l a key of one word (no blank before its `:`), which ends a block
 * scalar body written too far left for yaml.block-body-indent? */
static bool word_key_line(const mt_line *l)
{
    const char *s = l->s + l->indent;
    size_t n = l->len - l->indent;
    for (size_t k = 0; k < n && s[k] != ' ' && s[k] != '\t'; k++)
        if (s[k] == ':' && (k + 1 == n || s[k + 1] == ' ' || s[k + 1] == '\t' || s[k + 1] == '\r'))
            return k > 0;
    return false;
}

/* Does the text hold a block scalar followed, at or left of its key, by a
 * line yaml.block-body-indent takes in as its text though the loader reads
 * it as an entry (`notes: |-` then `A fid line:` at the key's column)? Once
 * the drift makes the text need repairs, that rule guesses it is the body:
 * the clean value is no longer told (run 16 92985ac5-r09e077d4). */
bool mt_yaml_body_reading_ambiguous(const char *text, size_t len)
{
    mt_lines all;
    if (mt_lines_scan(text, len, &all) < 0)
        return false;
    const mt_lines *ls = &all;
    bool ambiguous = false;
    for (size_t i = 0; i < ls->n && !ambiguous; i++) {
        if (ls->v[i].block_body || !mt_line_block_indicator(&ls->v[i]))
            continue;
        size_t k = i + 1;
        while (k < ls->n && (ls->v[k].blank || ls->v[k].block_body))
            k++;
        const mt_line *x = k < ls->n ? &ls->v[k] : NULL;
        size_t key = ls->v[i].key_len ? ls->v[i].body : ls->v[i].indent;
        ambiguous = x && !x->comment && !x->dash && x->indent <= key && !word_key_line(x);
    }
    mt_lines_free(&all);
    return ambiguous;
}
