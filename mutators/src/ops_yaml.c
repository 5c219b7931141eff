/* ops_yaml.c - the 17 YAML structural malformations of seed 000 ("YAML
 * Structural Repairs" #1-#17), each the inverse of one repair.
 *
 * Every op scans the line view (mt_lines_scan), collects the lines where the
 * malformation can be made without changing what a repair can recover (never
 * inside block-scalar bodies, only simple keys, values of a recoverable
 * shape), picks one with the op's RNG and rewrites that site. No site: the op
 * is not applied (returns 0). */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>
#include "mut_internal.h"

typedef bool (*site_fn)(const mt_lines *ls, size_t i, const mf_op_ctx *ctx);

/* Pick a random line index satisfying ok(); -1 when none. */
/* A line an op may edit: not in a block scalar, and not one copy of a key
 * that yaml.duplicate-key repeated (editing one copy makes them conflict). */
static bool editable(const mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    return !ls->v[i].block_body && !mt_key_repeated(ctx->text, ctx->len, ls->v[i].off);
}

static long pick_site(mf_op_ctx *ctx, const mt_lines *ls, site_fn ok)
{
    size_t n = 0;
    for (size_t i = 0; i < ls->n; i++)
        if (editable(ctx, ls, i) && ok(ls, i, ctx))
            n++;
    if (n == 0)
        return -1;
    size_t k = mt_rand(ctx, n);
    for (size_t i = 0; i < ls->n; i++)
        if (editable(ctx, ls, i) && ok(ls, i, ctx) && k-- == 0)
            return (long)i;
    return -1;
}

/* Scalar region of a line: the value of a key line or the item of a bare dash line. */
static size_t scalar(const mt_line *l, const char **v)
{
    if (l->key_len)
        return mt_line_value(l, v);
    if (l->dash) {
        mt_line t = *l;
        t.val = l->body;
        return mt_line_value(&t, v);
    }
    *v = l->s + l->len;
    return 0;
}

/* Does the value [v, v+n) leave a flow collection open at the line's end
 * (`[Q02`, `- [1`)? Its next lines are the collection's text. */
static bool flow_left_open(const char *v, size_t n)
{
    int depth = 0;
    for (size_t k = 0; k < n; k++)
        depth += (v[k] == '[' || v[k] == '{') - (v[k] == ']' || v[k] == '}');
    return depth > 0;
}

/* Is line i inside a flow collection an earlier line left open (`needs: {` then
 * `os: linux, arch: [x64]}`)? Such a line is the collection's text, no entry. */
static bool inside_flow(const mt_lines *ls, size_t i)
{
    int depth = 0;
    for (size_t k = 0; k < i; k++) {
        const mt_line *l = &ls->v[k];
        if (l->blank || l->comment || l->block_body)
            continue;
        if (depth == 0 && !l->dash && !l->key_len)
            continue;                   /* a plain continuation line holds no flow */
        const char *v;
        size_t n = depth > 0 ? l->len - l->indent : scalar(l, &v);
        if (depth > 0)
            v = l->s + l->indent;
        if (depth == 0 && (n == 0 || (v[0] != '[' && v[0] != '{')))
            continue;
        for (size_t q = 0; q < n; q++) {
            if (v[q] == '"' || v[q] == '\'') {  /* a quoted scalar holds no brackets */
                char c = v[q];
                for (q++; q < n && v[q] != c; q++)
                    q += c == '"' && v[q] == '\\';
                continue;
            }
            depth += (v[q] == '[' || v[q] == '{') - (v[q] == ']' || v[q] == '}');
        }
        if (depth < 0)
            depth = 0;
    }
    return depth > 0;
}

/* Does the value of line l open a quote it leaves open on the line (`gap: "E`,
 * yaml.unclosed-quote's)? */
static bool value_quote_open(const mt_line *l)
{
    const char *v;
    size_t n = scalar(l, &v);
    if (n == 0 || (v[0] != '"' && v[0] != '\''))
        return false;
    size_t bs = 0;
    while (v[0] == '"' && n >= 3 + bs && v[n - 2 - bs] == '\\')
        bs++;
    return n < 2 || v[n - 1] != v[0] || bs % 2;
}

/* Next non-blank, non-comment line after i, or ls->n. */
static size_t next_line(const mt_lines *ls, size_t i)
{
    for (size_t j = i + 1; j < ls->n; j++)
        if (!ls->v[j].blank && !ls->v[j].comment)
            return j;
    return ls->n;
}

static bool has(const char *s, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(s + i, needle, k) == 0)
            return true;
    return false;
}

static bool in_set(const json_t *set, const char *s, size_t n)
{
    char key[128];
    if (!set || n >= sizeof key)
        return false;
    memcpy(key, s, n);
    key[n] = '\0';
    if (json_is_object(set))
        return json_object_get(set, key) != NULL;
    for (size_t i = 0; i < json_array_size(set); i++) {
        const char *e = json_string_value(json_array_get(set, i));
        if (e && strcmp(e, key) == 0)
            return true;
    }
    return false;
}

/* Put the op's built buffer b in place of line i and free b (rc < 0: building b ran out of memory). */
static int replace_line_buf(mf_op_ctx *ctx, const mt_lines *ls, size_t i, mt_buf *b, int rc)
{
    if (rc >= 0)
        rc = mt_replace_line(ctx, ls, i, b->s, b->len);
    mt_free(b);
    return rc < 0 ? -1 : rc;
}

/* Rewrite the scalar of line i as pre + content + post. */
static int rewrite_scalar(mf_op_ctx *ctx, const mt_lines *ls, size_t i, const char *pre,
                          const char *content, size_t cn, const char *post)
{
    const mt_line *l = &ls->v[i];
    const char *v;
    size_t n = scalar(l, &v);
    mt_buf b = {0};
    int rc = mt_put(&b, l->s, (size_t)(v - l->s)) | mt_puts(&b, pre) | mt_put(&b, content, cn) |
             mt_puts(&b, post) | mt_put(&b, v + n, l->len - (size_t)(v - l->s) - n);
    return replace_line_buf(ctx, ls, i, &b, rc);
}

/* Run one line-site op: scan, pick, edit. */
static int line_op(mf_op_ctx *ctx, site_fn ok, int (*edit)(mf_op_ctx *, const mt_lines *, size_t))
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    long i = pick_site(ctx, &ls, ok);
    int rc = i < 0 ? 0 : edit(ctx, &ls, (size_t)i);
    mt_lines_free(&ls);
    return rc;
}

/* Double-quoted content without escapes or inner quotes; returns content length. */
static size_t dq_plain(const char *v, size_t n, const char **c)
{
    if (n < 2 || v[0] != '"' || v[n - 1] != '"')
        return 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (v[i] == '"' || v[i] == '\\')
            return 0;
    *c = v + 1;
    return n - 2;
}

static size_t sq_plain(const char *v, size_t n, const char **c)
{
    if (n < 2 || v[0] != '\'' || v[n - 1] != '\'')
        return 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (v[i] == '\'')
            return 0;
    *c = v + 1;
    return n - 2;
}

/* Content is safe as a plain scalar apart from the malformation studied (a
 * '\r' would break the line: the rest of the value a line of its own). */
static bool plainish(const char *c, size_t n)
{
    return n > 0 && c[0] != ' ' && c[n - 1] != ' ' && c[n - 1] != ':' && !has(c, n, " #") &&
           !has(c, n, "\t") && !memchr(c, '\r', n);
}

/* ---- #1 nested children flattened ---- */

static bool s_nested(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    const mt_line *l = &ls->v[i];
    const char *v;
    if (!ctx->profile || !l->key_len || l->dash || scalar(l, &v) != 0)
        return false;
    char key[128];
    if (l->key_len >= sizeof key)
        return false;
    memcpy(key, l->s + l->body, l->key_len);
    key[l->key_len] = '\0';
    const json_t *kids = json_object_get(ctx->profile->nested_children, key);
    size_t j = i + 1, nk = 0;
    for (; j < ls->n && !ls->v[j].blank && ls->v[j].indent > l->indent; j++, nk++) {
        const mt_line *c = &ls->v[j];
        if (c->indent != l->indent + 2 || c->dash || !c->key_len || mt_line_block_indicator(c) ||
            !in_set(kids, c->s + c->body, c->key_len) || scalar(c, &v) == 0)
            return false;
    }
    /* the children go on after a blank line: the op dedents up to it only, and the
     * indented rest after the dedented ones is no YAML any rule reads back; and a
     * sibling after them that is a whitelisted child too (`answer:` + `  skipped: false` +
     * `selected: []`): flattened, no rule can tell where the children end (run 7 259489cd) */
    while (j < ls->n && (ls->v[j].blank || ls->v[j].comment))
        j++;
    if (j < ls->n && j > i + 1 + nk && ls->v[j].indent > l->indent)
        return false;
    if (j < ls->n && ls->v[j].indent == l->indent && !ls->v[j].dash && ls->v[j].key_len &&
        in_set(kids, ls->v[j].s + ls->v[j].body, ls->v[j].key_len))
        return false;
    return nk > 0;
}

static int e_nested(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    mt_buf b = {0};
    size_t indent = ls->v[i].indent;
    int rc = mt_put(&b, ctx->text, ls->v[i].off + ls->v[i].len);
    size_t j = i + 1;
    for (; j < ls->n && ls->v[j].indent > indent && !ls->v[j].blank; j++)
        rc |= mt_putc(&b, '\n') | mt_put(&b, ls->v[j].s + 2, ls->v[j].len - 2);
    size_t rest = ls->v[j - 1].off + ls->v[j - 1].len;
    rc |= mt_put(&b, ctx->text + rest, ctx->len - rest);
    return mt_ctx_commit(ctx, &b, rc);
}

int mt_op_yaml_nested(mf_op_ctx *ctx) { return line_op(ctx, s_nested, e_nested); }

/* ---- #2 inline sequence parent ---- */

/* Does dash line d open a nested list ("- - 1")? */
static bool opens_nested(const mt_line *d)
{
    return d->body < d->len && d->s[d->body] == '-' && (d->body + 1 == d->len || d->s[d->body + 1] == ' ');
}

/* Is there another row (a dash line at row j's column) after it in its list?
 * With one row of nested lists, "key: - - 1" then "  - 2" reads as [[1], 2]
 * or [[1, 2]]: no rule can tell which, so the op leaves it alone. */
static bool later_row(const mt_lines *ls, size_t j)
{
    size_t col = ls->v[j].indent;
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment || o->block_body || o->indent > col)
            continue;
        return o->indent == col && o->dash;
    }
    return false;
}

/* Is dash line j a key with no value (`- id:`) whose next line is a dash
 * line, its key's list, or a line deeper than the key, its mapping? Moved up
 * ("steps: - id:" + "  - S1") it reads as [{id: [S1]}] or [{id: null}, S1];
 * ("tags: - ceeds:" + "      os: linux") as {ceeds: {os: linux}} under a
 * compact dash or as {ceeds: null, os: linux} under an indented one, which
 * yaml.inline-sequence-parent picks: a later row sets the item's column
 * (run 41 5b7c39f5). */
static bool opens_key_list(const mt_lines *ls, size_t j)
{
    const mt_line *d = &ls->v[j];
    if (!d->key_len || d->val < d->len)
        return false;
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment)
            continue;
        return o->dash || o->indent > d->body;
    }
    return false;
}

/* Is the first property after item line j off the item's key column (a
 * yaml.property-indent site, `- id: Q02` + `      phase: x` + `    question:`)?
 * Moved up onto its parent's line, the dash line no longer shows that
 * column: without a sibling dash after it (later_row, which
 * yaml.inline-sequence-parent takes the column from) the drifted line alone
 * would set it, which no rule can undo. */
static bool drifted_first_property(const mt_lines *ls, size_t j)
{
    const mt_line *d = &ls->v[j];
    const char *v;
    if (!d->key_len || scalar(d, &v) == 0)
        return false;                   /* `- key:` opens its own children */
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment || o->block_body)
            continue;
        return !o->dash && o->indent != d->body; /* deeper, or left: the leftmost sets it (run 42 73fd0db0) */
    }
    return false;
}

/* Does the item of dash line d, no simple key, hold ': ' (`- i   name: b`)?
 * Moved up, `steps: - i   name: b` reads as the list [i] and a key `name`
 * (yaml.inline-keys) as well as one item keyed "i   name": no rule can tell. */
static bool item_reads_as_keys(const mt_line *d)
{
    for (size_t k = d->body; k < d->len; k++)
        if (d->s[k] == ':' && (k + 1 == d->len || d->s[k + 1] == ' ' || d->s[k + 1] == '\r'))
            return true;
    return false;
}

/* Is dash line j a block scalar item (`- |`, or nested, `- - |`) whose first body line starts
 * with a dash (`  - [ ] todo`)? Moved up (`note: - |`), those lines read as
 * its body as well as its sibling items after an empty block: no rule can tell. */
static bool block_item_dash_body(const mt_lines *ls, size_t j)
{
    const mt_line *d = &ls->v[j];
    size_t b = d->body;
    while (b + 1 < d->len && d->s[b] == '-' && d->s[b + 1] == ' ') { /* `- - |`, a nested one (run 41 77daee97) */
        b += 2;
        while (b < d->len && d->s[b] == ' ')
            b++;
    }
    if (d->key_len || b >= d->len || (d->s[b] != '|' && d->s[b] != '>'))
        return false;
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (o->blank)
            continue;
        return o->indent < o->len && o->s[o->indent] == '-' &&
               (o->indent + 1 == o->len || o->s[o->indent + 1] == ' ');
    }
    return false;
}

/* Does the item of dash line d (no key) hold a '-' word (`- s - s`, `- src  - src`, `- a -`)?
 * Moved up, `files_changed: - s - s` reads as the one item "s - s" as well as
 * the inline list [s, s] yaml.inline-keys writes one item per line (its
 * documented guess that each " - " starts an item): no rule can tell (run 10
 * entries 313c7e2f, ce9937b1, ...). */
static bool item_holds_dash_word(const mt_line *d)
{
    for (size_t k = d->body + 1; k < d->len; k++)
        if (d->s[k] == '-' && (d->s[k - 1] == ' ' || d->s[k - 1] == '\t') &&
            (k + 1 == d->len || d->s[k + 1] == ' ' || d->s[k + 1] == '\t' || d->s[k + 1] == '\r'))
            return true;
    return false;
}

/* Is dash line j a keyless plain item whose value goes on over a deeper line
 * that starts with a dash (`  - \` + `   - \`, the text "\ - \")? Moved up
 * (`matrix: - \`), the item's column is gone: that line reads as the
 * value's text as well as a sibling item drifted a column (yaml.sequence-indent-drift)
 * or the item's nested list: no rule can tell (regression e703b8d3-rc3aba82b). */
static bool plain_item_dash_text(const mt_lines *ls, size_t j)
{
    const mt_line *d = &ls->v[j];
    if (d->key_len || d->body >= d->len || opens_nested(d) || d->s[d->body] == '[' || d->s[d->body] == '{' ||
        d->s[d->body] == '"' || d->s[d->body] == '\'')
        return false;
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment)
            continue;
        return o->dash && o->indent > d->indent;
    }
    return false;
}

static bool s_inline_seq(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const mt_line *l = &ls->v[i];
    const char *v;
    if (!l->key_len || scalar(l, &v) != 0 || l->dash)
        return false;
    size_t j = i + 1;
    /* a bare `-` moved up (`steps: -`) reads as the placeholder string "-" as well
     * as a list of one null item: no rule can tell (regression e703b8d3) */
    if (j < ls->n && ls->v[j].body >= ls->v[j].len)
        return false;
    if (j < ls->n && ls->v[j].dash && !ls->v[j].key_len && item_reads_as_keys(&ls->v[j]))
        return false;
    if (j < ls->n && ls->v[j].dash && block_item_dash_body(ls, j))
        return false;
    if (j < ls->n && ls->v[j].dash && !ls->v[j].key_len && item_holds_dash_word(&ls->v[j]))
        return false;
    if (j < ls->n && ls->v[j].dash && plain_item_dash_text(ls, j))
        return false;
    return j < ls->n && ls->v[j].dash && ls->v[j].indent >= l->indent && !ls->v[j].block_body &&
           !mt_line_block_indicator(&ls->v[j]) &&
           ((!opens_nested(&ls->v[j]) && !opens_key_list(ls, j)) || later_row(ls, j)) &&
           (!drifted_first_property(ls, j) || later_row(ls, j));
}

static int e_inline_seq(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i], *d = &ls->v[i + 1];
    mt_buf b = {0};
    size_t kend = l->body + l->key_len + 1;
    int rc = mt_put(&b, ctx->text, l->off + kend) | mt_putc(&b, ' ') |
             mt_put(&b, d->s + d->indent, ctx->len - d->off - d->indent);
    return mt_ctx_commit(ctx, &b, rc);
}

int mt_op_yaml_inline_seq(mf_op_ctx *ctx) { return line_op(ctx, s_inline_seq, e_inline_seq); }

/* ---- #3 missing colon space ---- */

static bool content(const mt_line *l)
{
    return !l->blank && !l->comment && !l->block_body;
}

/* Does the entry on line i have a sibling entry in its mapping (another
 * key line at its key column, or the dash line that opens its item)? */
static bool has_sibling(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    size_t col = l->body;
    for (size_t k = i; !l->dash && k-- > 0;) {
        const mt_line *o = &ls->v[k];
        if (!content(o) || o->indent > col)
            continue;
        if (o->indent == col && !o->dash)
            return o->key_len > 0;   /* a prose line there is no sibling entry */
        if (o->dash && o->body == col)
            return true;            /* the item's first line, a key of the same mapping */
        break;
    }
    for (size_t k = i + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (!content(o) || o->indent > col)
            continue;
        return o->indent == col && !o->dash && o->key_len > 0;
    }
    return false;
}

/* Does the list item that holds line i (a line below its dash line) open
 * with an identifier key? `- malf gee: null` (a key holding a blank, as
 * prose has) and a glued `op:x` under it read as one wrapped prose item
 * (yaml.item-colon's documented reading), not as a mapping missing a colon
 * space (regression 7de7e7c3). True when line i is in no item. */
static bool item_head_keyed(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    size_t col = l->body;
    for (size_t k = i; !l->dash && k-- > 0;) {
        const mt_line *o = &ls->v[k];
        if (!content(o) || o->indent > col || (o->indent == col && !o->dash))
            continue;
        return !(o->dash && o->body == col) || o->key_len > 0;
    }
    return true;
}

/* Is [v, v+n) one whole double-quoted scalar? yaml.colon-space glues a quoted value
 * back only then: `handle:"pink" is accepted` is a plain scalar as written. */
static bool whole_dq(const char *v, size_t n)
{
    size_t k = 1;
    while (k < n && v[k] != '"')
        k += v[k] == '\\' ? 2 : 1;
    return k == n - 1;
}

/* Only on an entry with a sibling in its mapping: 'title:E' alone is a
 * valid one-string document, and a lone child (`source:` then an indented
 * `sha:9f2c`) the plain string value of its parent: nothing says either was
 * a mapping. Nor in a list item whose first key is prose (item_head_keyed). */
static bool s_colon(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const mt_line *l = &ls->v[i];
    const char *v;
    size_t n = scalar(l, &v);
    return has_sibling(ls, i) && item_head_keyed(ls, i) && l->key_len >= 2 && n > 0 &&
           (isalnum((unsigned char)v[0]) || (v[0] == '"' && whole_dq(v, n))) && !has(v, n, ": ") &&
           !has(v, n, " #");
}

static int e_colon(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    mt_buf b = {0};
    size_t colon = l->body + l->key_len + 1;
    int rc = mt_put(&b, l->s, colon) | mt_put(&b, l->s + l->val, l->len - l->val);
    return replace_line_buf(ctx, ls, i, &b, rc);
}

int mt_op_yaml_colon(mf_op_ctx *ctx) { return line_op(ctx, s_colon, e_colon); }

/* ---- #4 inline keys ---- */

static bool simple_token(const char *v, size_t n)
{
    if (n == 0 || strchr("\"'|>[{&*!%@`#", v[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (v[i] == ' ' || v[i] == ':' || v[i] == '#')
            return false;
    return true;
}

/* A plain scalar YAML 1.2 reads as a number, boolean or null: core's
 * yaml.inline-keys takes it as a whole value wherever a key follows. `OFF`,
 * `yes`, `tRUE` are strings there (YAML 1.1 spellings, mixed case). */
static bool typed_token(const char *v, size_t n)
{
    static const char *const lit[] = {"true", "True", "TRUE", "false", "False", "FALSE",
                                      "null", "Null", "NULL", "~",    NULL};
    for (size_t k = 0; lit[k]; k++)
        if (strlen(lit[k]) == n && memcmp(v, lit[k], n) == 0)
            return true;
    size_t i = v[0] == '-' || v[0] == '+', digits = 0, dots = 0;
    for (; i < n; i++)
        if (isdigit((unsigned char)v[i]))
            digits++;
        else if (v[i] == '.' && dots++ == 0 && digits)
            ;
        else
            return false;
    return digits && v[n - 1] != '.';
}

/* Would core know the key [k, k+n) that follows a one-word value: a key of
 * the profile (top level, nested children and their parents) or a
 * key that another line of the text holds (line `skip` is the one merged)? */
static bool known_key(const mt_lines *ls, size_t skip, const mf_op_ctx *ctx, const char *k, size_t n)
{
    const mf_profile *p = ctx->profile;
    if (p && (in_set(p->top_level_keys, k, n) || in_set(p->nested_children, k, n)))
        return true;
    const char *parent;
    const json_t *kids;
    if (p)
        json_object_foreach(p->nested_children, parent, kids) if (in_set(kids, k, n)) return true;
    for (size_t j = 0; j < ls->n; j++) {
        const mt_line *l = &ls->v[j];
        if (j != skip && !l->block_body && l->key_len == n && memcmp(l->s + l->body, k, n) == 0)
            return true;
    }
    return false;
}

/* Two `key: word` lines joined: only where core's yaml.inline-keys splits
 * them again, i.e. the first value is typed (3, true) or the second key is
 * one core knows. `owner: platform-team count: 3` with `count` known nowhere
 * else reads as one string value, and no rule promises otherwise. */
static bool s_inline_keys(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    if (i + 1 >= ls->n)
        return false;
    const mt_line *a = &ls->v[i], *b = &ls->v[i + 1];
    const char *v;
    size_t n = scalar(a, &v);
    const char *w;
    size_t m = scalar(b, &w);
    return a->key_len && b->key_len && !b->dash && !b->block_body && b->indent == a->body &&
           simple_token(v, n) && simple_token(w, m) &&
           (typed_token(v, n) || known_key(ls, i + 1, ctx, b->s + b->body, b->key_len));
}

static int e_inline_keys(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const mt_line *a = &ls->v[i], *b = &ls->v[i + 1];
    mt_buf t = {0};
    int rc = mt_put(&t, a->s, a->len) | mt_putc(&t, ' ') | mt_put(&t, b->s + b->indent, b->len - b->indent);
    if (rc < 0) {
        mt_free(&t);
        return -1;
    }
    mt_buf o = {0};
    rc = mt_put(&o, ctx->text, a->off) | mt_put(&o, t.s, t.len) |
         mt_put(&o, ctx->text + b->off + b->len, ctx->len - b->off - b->len);
    mt_free(&t);
    if (rc < 0) {
        mt_free(&o);
        return -1;
    }
    mt_ctx_set(ctx, &o);
    return 1;
}

int mt_op_yaml_inline_keys(mf_op_ctx *ctx) { return line_op(ctx, s_inline_keys, e_inline_keys); }

/* ---- #5 plain scalar with ": " and #8 free text unquoted ---- */

/* Just past the quote closing the one that opens c[i], or 0. */
static size_t quote_close(const char *c, size_t n, size_t i)
{
    for (size_t j = i + 1; j < n; j++) {
        if (c[i] == '"' && c[j] == '\\')
            j++;
        else if (c[j] == c[i] && c[i] == '\'' && j + 1 < n && c[j + 1] == '\'')
            j++;
        else if (c[j] == c[i])
            return j + 1;
    }
    return 0;
}

/* Just past the flow collection opening at c[i], or 0 when it does not close. */
static size_t flow_close(const char *c, size_t n, size_t i)
{
    size_t depth = 0;
    for (size_t j = i; j < n; j++) {
        if ((c[j] == '"' || c[j] == '\'') && j > i && strchr(" [{,:", c[j - 1])) {
            size_t q = quote_close(c, n, j);
            if (!q)
                return 0;
            j = q - 1;
        } else if (c[j] == '[' || c[j] == '{') {
            depth++;
        } else if ((c[j] == ']' || c[j] == '}') && --depth == 0) {
            return j + 1;
        }
    }
    return 0;
}

/* End of the word at c[i] as yaml.inline-keys tokenizes a line: a closed
 * quoted scalar or flow collection (`"c d"`, `[1, 2]`) is one word. */
static size_t key_line_word_end(const char *c, size_t n, size_t i)
{
    size_t j = 0;
    if (c[i] == '"' || c[i] == '\'')
        j = quote_close(c, n, i);
    else if (c[i] == '[' || c[i] == '{')
        j = flow_close(c, n, i);
    for (j = j ? j : i; j < n && c[j] != ' '; j++)
        ;
    return j;
}

/* The words between two keys of an unquoted value, as yaml.inline-keys weighs them. */
typedef struct { size_t words; bool alternating, dash_last; } key_gap;

/* Is the gap one value to yaml.inline-keys: one word, or a list written
 * inline (`- a - [1, 2]`), either maybe followed by the lone '-' that makes
 * the next key a list item's? */
static bool gap_one_value(const key_gap *g)
{
    size_t w = g->words - (g->words > 1 && g->dash_last);
    return w <= 1 || (g->alternating && w % 2 == 0);
}

/* Would core read the unquoted value [c, c+n) as more keys of its line?
 * yaml.inline-known-keys splits at a word `k:` the profile or the document
 * knows; yaml.inline-keys guesses splits when every such word is lower-case
 * and every value between them one word (a quoted scalar, a flow collection)
 * or a list of them written inline (`- [1, 2] - [0,4]`, run 20 abc01f26), the
 * last one too unless two splits come first ('gap: Escalation path:
 * unspecified'; 'text: note: keep this: as is' splits once after a value,
 * and stays text). Either is a guess core warns about: no exact site for
 * unquoting. */
static bool reads_as_keys(const mt_lines *ls, const mf_op_ctx *ctx, const char *c, size_t n)
{
    size_t keys = 0, valued = 0;
    key_gap g = {0, true, false};
    bool guess = true, listed = false;
    for (size_t i = 0; i < n;) {
        while (i < n && c[i] == ' ')
            i++;
        size_t ws = i;
        i = key_line_word_end(c, n, i);
        if (i == ws)
            break;
        size_t kn = i - ws - 1;
        bool key = i - ws >= 2 && c[i - 1] == ':' && (isalpha((unsigned char)c[ws]) || c[ws] == '_');
        for (size_t k = ws + 1; key && k < ws + kn; k++)
            key = isalnum((unsigned char)c[k]) || c[k] == '_' || c[k] == '-';
        if (!key) {
            bool dash = i - ws == 1 && c[ws] == '-';
            g.alternating = g.alternating && dash == (g.words % 2 == 0);
            g.dash_last = dash;
            g.words++;
            continue;
        }
        if (known_key(ls, ls->n, ctx, c + ws, kn) || (ctx->profile && in_set(ctx->profile->key_map, c + ws, kn)))
            return true;
        guess = guess && gap_one_value(&g) && (islower((unsigned char)c[ws]) || c[ws] == '_');
        listed = listed || g.dash_last || (g.alternating && g.words >= 2);
        keys++;
        valued += g.words > 0;
        g = (key_gap){0, true, false};
    }
    listed = listed || (g.alternating && g.words >= 2);
    return keys && guess && g.words >= 1 && (gap_one_value(&g) || (keys >= 2 && (valued >= 2 || listed)));
}

/* Does the list of dash line i hold an item with no key (a scalar, a quoted
 * string, a flow collection)? */
static bool keyless_sibling_item(const mt_lines *ls, size_t i)
{
    size_t d = ls->v[i].indent;
    for (int dir = -1; dir <= 1; dir += 2)
        for (size_t j = i + dir; j < ls->n; j += dir) {
            const mt_line *x = &ls->v[j];
            if (!x->blank && !x->block_body && !x->comment && x->indent <= d) {
                if (x->indent < d || !x->dash)
                    break;
                if (!x->key_len)
                    return true;
            }
            if (j == 0)
                break;
        }
    return false;
}

/* Is dash line i the whole of its item (no deeper line after it)? */
static bool one_line_item(const mt_lines *ls, size_t i)
{
    for (size_t j = i + 1; j < ls->n; j++) {
        const mt_line *x = &ls->v[j];
        if (!x->blank && !x->comment)
            return x->indent <= ls->v[i].indent;
    }
    return true;
}

/* Not on a one-line item's key among keyless items: `- text: What: ex`
 * beside `- null` is the string "text: What: ex" for yaml.item-colon (its
 * README, ident_key_colon_value), so the item's mapping reading is lost
 * (run 15 99926ca8 and kin). An item with more lines stays a mapping. */
static bool s_plain_colon(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    const mt_line *l = &ls->v[i];
    const char *v, *c;
    size_t n = scalar(l, &v), cn;
    if (!l->key_len || (l->dash && one_line_item(ls, i) && keyless_sibling_item(ls, i)))
        return false;
    if (!(cn = dq_plain(v, n, &c)) && !(cn = sq_plain(v, n, &c)))
        return false;
    /* `text: : What: x` may be the string ': What: x' or a stuttered `text: What: x`
     * (run 23 6e73f49f): a value opening with an indicator stays quoted */
    return plainish(c, cn) && has(c, cn, ": ") && !strchr("\"'`@|>[{&*!%-?:#,", c[0]) && !reads_as_keys(ls, ctx, c, cn);
}

static int e_unquote(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const char *v;
    size_t n = scalar(&ls->v[i], &v);
    return rewrite_scalar(ctx, ls, i, "", v + 1, n - 2, "");
}

int mt_op_yaml_plain_colon(mf_op_ctx *ctx) { return line_op(ctx, s_plain_colon, e_unquote); }

static bool s_free_text(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    const mt_line *l = &ls->v[i];
    const char *v, *c;
    size_t n = scalar(l, &v), cn;
    if (!ctx->profile || !l->key_len || !in_set(ctx->profile->free_text_fields, l->s + l->body, l->key_len))
        return false;
    if (!(cn = dq_plain(v, n, &c)) && !(cn = sq_plain(v, n, &c)))
        return false;
    if (!plainish(c, cn) || c[0] == '"' || c[0] == '\'')
        return false;
    /* '- x', '? x', '[x', '{x', '&x'...: unquoted, another node (a list item, a flow collection) */
    if (strchr("-?:[]{}#&*!|>%,", c[0]) && (cn == 1 || c[1] == ' ' || strchr("[]{}#&*!|>%", c[0])))
        return false;
    /* only where a plain scalar would be misread: the repair has work to do */
    static const char *const literal[] = {"true", "false", "yes", "no", "null", "~", "on", "off", NULL};
    for (size_t k = 0; literal[k]; k++)
        if (strlen(literal[k]) == cn && strncasecmp(c, literal[k], cn) == 0)
            return true;
    if (has(c, cn, ": ") && reads_as_keys(ls, ctx, c, cn))
        return false;
    return c[0] == '`' || c[0] == '@' || has(c, cn, ": ") || isdigit((unsigned char)c[0]);
}

int mt_op_yaml_free_text(mf_op_ctx *ctx) { return line_op(ctx, s_free_text, e_unquote); }

/* ---- #6 whole-artifact fence ---- */

int mt_op_yaml_code_fence(mf_op_ctx *ctx)
{
    static const char *const tags[] = {"yaml", "yml", "json", "jsonl"};
    if (mt_has_fence(ctx))
        return 0;
    char tag[16];
    if (!mt_param_str(ctx, "tag", tag, sizeof tag))
        strcpy(tag, tags[mt_rand(ctx, 4)]);
    mt_buf b = {0};
    bool nl = ctx->len && ctx->text[ctx->len - 1] == '\n';
    int rc = mt_puts(&b, "```") | mt_puts(&b, tag) | mt_putc(&b, '\n') | mt_put(&b, ctx->text, ctx->len) |
             mt_puts(&b, nl ? "```\n" : "\n```\n");
    bool empty = mt_empty_artifact(ctx);
    rc = mt_ctx_commit(ctx, &b, rc);
    ctx->prose_key = rc == 1;   /* a later wrapper indents the fence lines into the artifact */
    if (rc == 1 && empty)       /* a fenced one-scalar document holds no structure: as much prose (cand.fence's rule) */
        ctx->contract = MF_CONTRACT_RAW;
    return rc;
}

/* ---- #7 spurious XML tag lines ---- */

static bool s_top(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    if (!(i > 0 && ls->v[i].key_len && ls->v[i].indent == 0 && !ls->v[i].dash))
        return false;
    /* not after a top-level key with no value (`bead_x:` then `<yaml>`): a label line
     * before a tag reads as the prose that introduces the artifact (cand.anchor drops it) */
    const mt_line *prev = &ls->v[i - 1];
    return !(prev->key_len && prev->indent == 0 && !prev->dash && prev->val >= prev->len);
}

static int e_xml(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    static const char *const tags[] = {"<br/>", "<output>", "</output>", "<yaml>", "</artifact>"};
    mt_buf b = {0};
    int rc = mt_put(&b, ctx->text, ls->v[i].off) | mt_puts(&b, tags[mt_rand(ctx, 5)]) | mt_putc(&b, '\n') |
             mt_put(&b, ctx->text + ls->v[i].off, ctx->len - ls->v[i].off);
    return mt_ctx_commit(ctx, &b, rc);
}

/* Does the text hold a mapping entry or a sequence item (no one-scalar document)? */
static bool structured_lines(const mf_op_ctx *ctx)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return false;
    bool any = false;
    for (size_t i = 0; i < ls.n && !any; i++)
        any = !ls.v[i].block_body && (ls.v[i].key_len || ls.v[i].dash);
    mt_lines_free(&ls);
    return any;
}

/* A copy of [s, s+n) without terminal noise (CSI sequences such as a paste
 * marker `ESC[200~`, other control bytes), which core trims before it parses;
 * *len is its length. NULL when out of memory. */
static char *without_noise(const char *s, size_t n, size_t *len)
{
    char *o = malloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; o && i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0x1b && i + 1 < n && s[i + 1] == '[') {
            for (i += 2; i < n && (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] <= 0x3f; i++)
                ;
            continue;   /* i is on the final byte (or past the end) */
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            continue;
        o[k++] = (char)c;
    }
    *len = k;
    return o;
}

/* Does libyaml read the text, its terminal noise trimmed, as one document
 * holding one plain scalar? */
static bool plain_scalar_doc(const char *text, size_t len)
{
    yaml_parser_t parser;
    yaml_event_t e;
    int scalars = 0, others = 0, docs = 0;
    size_t n;
    char *s = without_noise(text, len, &n);
    if (!s || !yaml_parser_initialize(&parser)) {
        free(s);
        return false;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    for (;;) {
        if (!yaml_parser_parse(&parser, &e)) {
            others++;
            break;
        }
        yaml_event_type_t t = e.type;
        if (t == YAML_SCALAR_EVENT && e.data.scalar.plain_implicit)
            scalars++;
        else if (t == YAML_DOCUMENT_START_EVENT)
            docs++;
        else if (t != YAML_STREAM_START_EVENT && t != YAML_STREAM_END_EVENT && t != YAML_DOCUMENT_END_EVENT)
            others++;
        yaml_event_delete(&e);
        if (t == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    free(s);
    return scalars == 1 && docs == 1 && others == 0;
}

int mt_op_yaml_xml_tags(mf_op_ctx *ctx)
{
    /* tags around one scalar ('<yaml>' / 'i' / '</yaml>') are one multi-line string to YAML: no site */
    if (!structured_lines(ctx))
        return 0;
    if (mt_param_int(ctx, "around", (long)mt_rand(ctx, 2))) {
        static const char *const t[] = {"artifact", "response", "yaml"};
        const char *tag = t[mt_rand(ctx, 3)];
        mt_buf b = {0};
        bool nl = ctx->len && ctx->text[ctx->len - 1] == '\n';
        int rc = mt_putc(&b, '<') | mt_puts(&b, tag) | mt_puts(&b, ">\n") | mt_put(&b, ctx->text, ctx->len) |
                 mt_puts(&b, nl ? "</" : "\n</") | mt_puts(&b, tag) | mt_puts(&b, ">\n");
        /* tags around text YAML reads as one plain scalar with them ('<yaml>' / '- EEE' /
         * '</yaml>' is the string "<yaml> - EEE </yaml>"): as for one scalar, no site */
        if (rc == 0 && plain_scalar_doc(b.s, b.len)) {
            mt_free(&b);
            return 0;
        }
        return mt_ctx_commit(ctx, &b, rc);
    }
    return line_op(ctx, s_top, e_xml);
}

/* ---- #9 missing dash space ---- */

/* Does dash line i sit at the property column of a mapping whose line above
 * it is a plain entry (`    notes: |-` then a drifted `    - id: Q`)? Without
 * its space, `-id: Q` there is a key of that mapping (yaml.dash-space's
 * reading, valid YAML) unless it repeats the item's first key (`- id: a`). */
static bool dash_at_property_column(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    for (size_t k = i; k-- > 0;) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment || o->block_body || o->indent > l->indent)
            continue;
        if (o->indent < l->indent && !(o->dash && o->body == l->indent))
            return false;
        if (o->dash && o->body == l->indent) /* the item whose mapping holds the column */
            return !(o->key_len == l->key_len && !memcmp(o->s + o->body, l->s + l->body, l->key_len));
        if (o->indent == l->indent && !o->dash && !o->key_len)
            return false;
        if (o->indent == l->indent && o->dash)
            return false;
    }
    return false;
}

static bool content_line(const mt_line *l) { return !l->blank && !l->comment && !l->block_body; }

/* Is dash line i followed by a plain `key: v` entry at its own column (past
 * its deeper lines when no line at that column comes before it)? Without its
 * space `-notes: malf` there is a key "-notes" of the mapping that entry
 * belongs to (a compact list's parent keys share the items' column): valid
 * YAML, yaml.dash-space's reading, unless the line above at its column is a
 * key with no value (`steps:`, the compact-sequence position) or an item
 * with the same first key (`- id: a`, the next item). */
static bool dash_before_plain_key(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    const mt_line *prev = NULL;
    for (size_t k = i; k-- > 0;) {
        const mt_line *o = &ls->v[k];
        if (!content_line(o) || o->indent > l->indent)
            continue;
        if (o->indent == l->indent)
            prev = o;
        break;
    }
    if (prev && !prev->dash && prev->key_len && prev->val >= prev->len)
        return false;
    if (prev && prev->dash && prev->key_len == l->key_len && !memcmp(prev->s + prev->body, l->s + l->body, l->key_len))
        return false;
    for (size_t k = i + 1; k < ls->n; k++) {
        const mt_line *o = &ls->v[k];
        if (!content_line(o) || (!prev && o->indent > l->indent))
            continue;
        return o->indent == l->indent && !o->dash && o->key_len;
    }
    return false;
}

static bool s_dash(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    return ls->v[i].dash && ls->v[i].key_len && ls->v[i].body == ls->v[i].indent + 2 &&
           !dash_at_property_column(ls, i) && !dash_before_plain_key(ls, i);
}

static int e_dash(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    mt_buf b = {0};
    int rc = mt_put(&b, l->s, l->indent + 1) | mt_put(&b, l->s + l->body, l->len - l->body);
    return replace_line_buf(ctx, ls, i, &b, rc);
}

int mt_op_yaml_dash(mf_op_ctx *ctx) { return line_op(ctx, s_dash, e_dash); }

/* ---- #10 exact duplicate key ---- */

/* A one-line `key: value` entry: no block header, and no deeper line after
 * it (a block body whose header an earlier op quoted, `notes: '|-'`, would
 * follow only the second copy). */
/* A control byte (terminal noise: ESC sequences, ^?, bare controls) on the
 * line: cand.ansi-noise / cand.control-chars put it at the text's end, where
 * the rule cuts it; a copy of the line would carry it into the middle. */
static bool has_ctl(const char *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (((unsigned char)s[k] < 0x20 && s[k] != '\t' && s[k] != '\r') || (unsigned char)s[k] == 0x7f)
            return true;
    return false;
}

/* Is line i after a `---` / `...` marker line that follows content? What
 * comes after is a second document or trailing prose ("---" + "Notes: ..."
 * for cand.trailing-prose), no entry of the artifact. */
static bool after_doc_marker(const mt_lines *ls, size_t i)
{
    bool content = false;
    for (size_t k = 0; k < i; k++) {
        const mt_line *l = &ls->v[k];
        if (l->blank || l->comment)
            continue;
        if (content && l->indent == 0 && l->len >= 3 && (!memcmp(l->s, "---", 3) || !memcmp(l->s, "...", 3)) &&
            (l->len == 3 || l->s[3] == ' ' || l->s[3] == '\t' || l->s[3] == '\r'))
            return true;
        content = true;
    }
    return false;
}

/* ... nor a line with terminal noise (has_ctl), nor one after a document
 * marker (after_doc_marker). */
static bool s_dup(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const mt_line *l = &ls->v[i];
    const char *v;
    size_t k = i + 1;
    while (k < ls->n && (ls->v[k].blank || ls->v[k].comment))
        k++;
    /* deeper: also a `- item` at the key's column, its block sequence (`files_changed: - s` then `- s`
     * after yaml.inline-sequence-parent): a copy of the key line alone would hold another value */
    bool deeper = k < ls->n && (ls->v[k].indent > l->indent || (ls->v[k].indent == l->indent && ls->v[k].dash));
    size_t n = scalar(l, &v);
    /* a quoted value left open on its line (`question: "` + `stgres or SQLite?"`): repeated,
     * the copy's quote closes the first and the value's next line is left outside (run 7 5af787ea) */
    bool closed = true;
    if (n > 0 && (v[0] == '"' || v[0] == '\'')) {
        closed = false;
        for (size_t q = 1; q < n && !closed; q++)
            if (v[0] == '"' && v[q] == '\\')
                q++;
            else if (v[q] == v[0] && v[0] == '\'' && q + 1 < n && v[q + 1] == '\'')
                q++;
            else
                closed = v[q] == v[0];
    }
    /* a flow left open (`matrix: - [1` + `, 2]` at column 0): the copy alone holds a cut
     * collection, and the first copy's flow runs on over the second (run 26 e703b8d3) */
    return l->key_len && !l->dash && !mt_line_block_indicator(l) && n > 0 && closed && !deeper &&
           !flow_left_open(v, n) && !has_ctl(l->s, l->len) && !after_doc_marker(ls, i) && !inside_flow(ls, i);
}

static int e_dup(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    mt_buf b = {0};
    size_t end = l->off + l->len;
    int rc = mt_put(&b, ctx->text, end) | mt_putc(&b, '\n') | mt_put(&b, l->s, l->len) |
             mt_put(&b, ctx->text + end, ctx->len - end);
    return mt_ctx_commit(ctx, &b, rc);
}

int mt_op_yaml_dup(mf_op_ctx *ctx) { return line_op(ctx, s_dup, e_dup); }

/* ---- #11 invalid double-quoted escapes ---- */

static bool bad_escape_char(char c)
{
    return !strchr("0abtnvfre \"/\\N_LPxuU\t", c);
}

/* Does the plain value of key line i go on below it: is the next line that is
 * neither blank nor a comment deeper than the key's column? */
static bool plain_goes_on(const mt_lines *ls, size_t i)
{
    for (size_t j = i + 1; j < ls->n; j++) {
        const mt_line *o = &ls->v[j];
        if (o->comment)
            return false;
        if (!o->blank)
            return o->indent > ls->v[i].body;
    }
    return false;
}

static bool s_escape(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const mt_line *l = &ls->v[i];
    const char *v, *c;
    size_t n = scalar(l, &v), cn;
    if (!l->key_len || n == 0)
        return false;
    if ((cn = sq_plain(v, n, &c)) == 0) {
        /* '#' starts a comment, no value ('pattern: #^\d+' is null, run 21 54dd93a3):
         * quoted, the comment would be the value */
        if (strchr("\"'|>[{&*!%@`#", v[0]) || has(v, n, " #") || has(v, n, "\t#"))
            return false;
        /* an item moved up onto its key's line (`arch: - \'`, yaml.inline-sequence-parent's):
         * quoted, its dash would be the string's text to every reader (run 41 d27f1a7a) */
        if (v[0] == '-' && (n == 1 || v[1] == ' '))
            return false;
        /* a plain value going on below (`notes: \-` + deeper `s`, one scalar "\- s"):
         * quoting its first line leaves the rest outside the quotes (run 12 fd35469a) */
        if (plain_goes_on(ls, i))
            return false;
        c = v;
        cn = n;
        /* terminal noise an earlier op glued to the value (`note: \'\e[32m`): quoted,
         * it would be the string's text to every reader (run 32 56dc18fc) */
        if (has_ctl(c, cn))
            return false;
        /* a plain value holding more keys ('3 pattern: ^\d', two entries joined by
         * yaml.inline-keys): double-quoted, they would be one string to every reader */
        if (has(c, cn, ": "))
            return false;
    }
    bool bad = false;
    for (size_t k = 0; k < cn; k++) {
        if (c[k] == '"')
            return false;
        if (c[k] == '\\') {
            if (k + 1 >= cn || !bad_escape_char(c[k + 1]))
                return false;
            bad = true;
            k++;
        }
    }
    return bad;
}

static int e_escape(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const char *v, *c;
    size_t n = scalar(&ls->v[i], &v), cn = sq_plain(v, n, &c);
    if (!cn) {
        c = v;
        cn = n;
    }
    return rewrite_scalar(ctx, ls, i, "\"", c, cn, "\"");
}

int mt_op_yaml_escape(mf_op_ctx *ctx) { return line_op(ctx, s_escape, e_escape); }

/* ---- #12 unclosed double quote ---- */

/* Would the next double quote after offset at (unescaped) end its line? Then
 * an opening quote left unclosed before it is closed there and the text is
 * valid YAML with another value ('title: "P' ... 'x: `y`"'): no rule can
 * tell, so no site. */
static bool closed_later(const mf_op_ctx *ctx, size_t at)
{
    const char *s = ctx->text;
    for (size_t k = at; k < ctx->len; k++) {
        if (s[k] != '"' || (k > 0 && s[k - 1] == '\\'))
            continue;
        size_t e = k + 1;
        while (e < ctx->len && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r'))
            e++;
        return e == ctx->len || s[e] == '\n' || s[e] == '#';
    }
    return false;
}

/* Is line j deeper than the key of line i (`- gap: "t"` + `        resolution: x`, a
 * yaml.property-indent move)? Left open, i's quote runs over j as text of the value
 * for yaml.unclosed-quote, and the value may end there or take j in: no rule can tell
 * (run 27 cf9eaf27). Not when i is 1-2 columns off its item's property column and j
 * sits on it (`- id: a` + `   title: "x` + `    description:`), which the rule reads
 * as the item's next property (its off_column_property). */
static bool deeper_than_key(const mt_lines *ls, size_t i, size_t j)
{
    const mt_line *l = &ls->v[i], *n = &ls->v[j];
    if (n->indent <= l->body)
        return false;
    if (l->dash || n->dash || !n->key_len)
        return true;
    for (size_t k = i; k-- > 0;) {
        const mt_line *d = &ls->v[k];
        if (d->blank || d->comment || d->block_body || d->indent >= l->indent)
            continue;
        size_t off = d->body > l->body ? d->body - l->body : l->body - d->body;
        return !(d->dash && d->key_len && d->body == n->indent && off <= 2);
    }
    return true;
}

static bool s_unclosed(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    const mt_line *l = &ls->v[i];
    const char *v, *c;
    size_t n = scalar(l, &v);
    if (!l->key_len || !dq_plain(v, n, &c) || n < 3)
        return false;
    /* a lone CR in the value is a YAML line break: the quote spans lines, and
     * text after a CR (`"Imp` CR `lemented login: tokens"`) may end the value
     * before it as a key of its own (run 23 509a7299) */
    if (memchr(c, '\r', n - 2))
        return false;
    /* a value ending in a blank (`"What: exactly?- "`): left open, the blank is the
     * line's trailing whitespace, which core's guessed end leaves out (it closes the
     * value before it, warned): the text no longer tells it (run 10 entry 44fc3e7f) */
    if (v[n - 2] == ' ' || v[n - 2] == '\t')
        return false;
    size_t j = next_line(ls, i);
    return (j == ls->n || ls->v[j].dash || ls->v[j].key_len) && !closed_later(ctx, (size_t)(v + n - ctx->text)) &&
           (j == ls->n || !deeper_than_key(ls, i, j));
}

static int e_unclosed(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const char *v;
    size_t n = scalar(&ls->v[i], &v);
    return rewrite_scalar(ctx, ls, i, "\"", v + 1, n - 2, "");
}

int mt_op_yaml_unclosed(mf_op_ctx *ctx) { return line_op(ctx, s_unclosed, e_unclosed); }

/* ---- #13a quoted fragment + plain text, #14 type union, #15 reserved indicator ---- */

static bool quoted_content(const mt_line *l, const char **c, size_t *cn)
{
    const char *v;
    size_t n = scalar(l, &v);
    if (!l->key_len && !l->dash)
        return false;
    if ((*cn = sq_plain(v, n, c)) == 0 && (*cn = dq_plain(v, n, c)) == 0)
        return false;
    /* a control character reads otherwise unquoted */
    return plainish(*c, *cn) && !has(*c, *cn, ": ") && !has_ctl(*c, *cn);
}

static bool s_fragment(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const char *c;
    size_t cn;
    if (!quoted_content(&ls->v[i], &c, &cn) || (c[0] != '"' && c[0] != '\''))
        return false;
    const char *close = memchr(c + 1, c[0], cn - 1);
    /* no backslash: unquoted, '"pink\\" is' would be a double-quoted scalar whose quote is escaped */
    /* an empty fragment (`"" is a`) reads as doubled opening quotes too (yaml.doubled-quotes) */
    /* `"pink" :s` or `"pink" ,s` reads as a spaced key or a flow item too: yaml.quoted-fragment leaves it (run 22) */
    return close && close > c + 1 && close + 2 < c + cn && close[1] == ' ' && !strchr("|,:", close[2]) &&
           !has(c, cn, " | ") &&
           c[-1] != c[0] && !has(c, cn, "\\");
}

static bool s_union(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const char *c;
    size_t cn;
    if (!quoted_content(&ls->v[i], &c, &cn) || cn < 2 || c[0] != '"' || c[-1] != '\'' || c[cn - 1] != '"' ||
        !has(c, cn, "\" | \""))
        return false;
    /* every alternative a non-empty "word" with no quote of its own: in
     * '"""epic" | "story"' (run 20) the outer quotes yaml.inner-quotes takes
     * are not the alternatives', so no rule restores the text */
    for (size_t a = 1; a < cn - 1;) {
        size_t e = a;
        while (e < cn - 1 && c[e] != '"')
            e++;
        if (e == a || (e < cn - 1 && (e + 4 >= cn || memcmp(c + e, "\" | \"", 5))))
            return false;
        a = e < cn - 1 ? e + 5 : e;
    }
    return c[cn - 2] != ' ';
}

static bool s_reserved(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    const char *c;
    size_t cn;
    return quoted_content(&ls->v[i], &c, &cn) && (c[0] == '`' || c[0] == '@') && !has(c, cn, "\\");
}

int mt_op_yaml_fragment(mf_op_ctx *ctx) { return line_op(ctx, s_fragment, e_unquote); }
int mt_op_yaml_union(mf_op_ctx *ctx) { return line_op(ctx, s_union, e_unquote); }
int mt_op_yaml_reserved(mf_op_ctx *ctx) { return line_op(ctx, s_reserved, e_unquote); }

/* ---- #13b quoted block indicator ---- */

static bool s_block_ind(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    return mt_line_block_indicator(&ls->v[i]) && i + 1 < ls->n && ls->v[i + 1].block_body &&
           !ls->v[i + 1].blank;
}

static int e_block_ind(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    const char *v;
    size_t n = scalar(&ls->v[i], &v);
    const char *q = mt_rand(ctx, 2) ? "\"" : "'";
    return rewrite_scalar(ctx, ls, i, q, v, n, q);
}

int mt_op_yaml_block_ind(mf_op_ctx *ctx) { return line_op(ctx, s_block_ind, e_block_ind); }

/* ---- #16 sequence entry indent drift ---- */

/* Index of the next sibling item of dash line i (same indent), or 0. */
static size_t sibling(const mt_lines *ls, size_t i)
{
    size_t d = ls->v[i].indent;
    for (size_t j = i + 1; j < ls->n; j++) {
        const mt_line *x = &ls->v[j];
        if (x->blank || x->block_body || x->comment)
            continue;
        if (x->indent > d)
            continue;
        return x->indent == d && x->dash ? j : 0;
    }
    return 0;
}

/* How far (at most 3) the dash of sibling line j may drift right: when the
 * line above it is a block scalar header with no body (`notes: |-`), a dash
 * deeper than that header would be the block's text (valid YAML, nothing
 * tells it from a drifted item), so it stays at or left of the header; after
 * the body's last line it stays left of the body's column, for the same reason. */
static size_t drift_room(const mt_lines *ls, size_t j)
{
    size_t k = j;
    while (k > 0 && ls->v[k - 1].blank)
        k--;
    const mt_line *h = k > 0 ? &ls->v[k - 1] : NULL;
    if (h && h->block_body) {
        /* after a block scalar's body (`notes: |-` + `     !`), a dash at or deeper than
         * the body's column is one more line of its text (run 9 f6324322): it stays left of it */
        size_t col = (size_t)-1;
        for (size_t b = k; b > 0 && ls->v[b - 1].block_body; b--)
            if (!ls->v[b - 1].blank && ls->v[b - 1].indent < col)
                col = ls->v[b - 1].indent;
        size_t room = col != (size_t)-1 && col > ls->v[j].indent + 1 ? col - ls->v[j].indent - 1 : 0;
        return room < 3 ? room : 3;
    }
    /* a quoted header (`notes: '|'`, val.yaml-syntax's) is one for yaml.quoted-block-indicator,
     * which reads a deeper dash after it as its body (run 27 014002a2) */
    if (!h || !(mt_line_block_indicator(h) || mt_line_quoted_header(h)))
        return 3;
    size_t room = h->indent > ls->v[j].indent ? h->indent - ls->v[j].indent : 0;
    return room < 3 ? room : 3;
}

/* The column a deeper dash line right after line j - 1 would continue the
 * plain value of (`  op: n` then `   - s` is the one scalar "n - s"): the
 * key's column, or the dash's for a plain item (`- n`); SIZE_MAX when the
 * line above holds no plain value. */
static size_t plain_run_col(const mt_lines *ls, size_t j)
{
    size_t k = j;
    while (k > 0 && (ls->v[k - 1].blank || ls->v[k - 1].comment))
        k--;
    if (k == 0 || ls->v[k - 1].block_body || mt_line_block_indicator(&ls->v[k - 1]))
        return SIZE_MAX;
    const mt_line *h = &ls->v[k - 1];
    const char *v;
    size_t n = scalar(h, &v);
    if ((!h->key_len && !h->dash) || n == 0 || strchr("\"'[{", v[0]))
        return SIZE_MAX;
    return h->key_len ? h->body : h->indent;
}

/* Is l a list item whose dash yaml.dash-space glued to its key (`-id: U`)? It is
 * still a nested list's dash for the drift. */
static bool glued_item_dash(const mt_line *l)
{
    size_t i = l->indent;
    return !l->dash && i + 1 < l->len && l->s[i] == '-' && isalpha((unsigned char)l->s[i + 1]);
}

/* The drifts (1 .. drift_room) of sibling j of item i that do not land on
 * or near the column of a nested list's dash between them (zero-indented lists: a
 * dash there reads as an item of that list, which nothing tells apart), as
 * a bit set (bit d-1 for drift d). */
static unsigned drifts(const mt_lines *ls, size_t i, size_t j)
{
    unsigned ok = 0;
    for (size_t d = 1; d <= drift_room(ls, j); d++) {
        /* a plain item (`- s`) deeper than the plain value above it runs on in that value */
        bool lands = !ls->v[j].key_len && ls->v[j].indent + d > plain_run_col(ls, j);
        /* on a nested list's dash column, or no farther from it than from its own list's
         * (`    - x64` then `   - tags:`): the rule reads the dash as that nested list's item
         * (run 21 913bb733-r9895500f) */
        size_t at = ls->v[j].indent + d;
        for (size_t k = i + 1; k < j && !lands; k++) {
            size_t col = ls->v[k].indent;
            lands = (ls->v[k].dash || glued_item_dash(&ls->v[k])) && !ls->v[k].block_body && col > ls->v[j].indent &&
                    (col > at ? col - at : at - col) <= d;
        }
        /* a text line continuing the sibling's plain value (`- id: Q` + `      text:' pl`)
         * would no longer be deeper than its key, and read as an entry (f300d688); a
         * plain item's (`- 02` + `    text:rm`) no longer deeper than its dash (run 21 92985ac5) */
        size_t run = ls->v[j].key_len ? ls->v[j].body : ls->v[j].indent;
        for (size_t k = j + 1; k < ls->n && !lands; k++) {
            const mt_line *x = &ls->v[k];
            if (x->blank || x->comment || x->block_body)
                continue;
            if (x->indent <= ls->v[j].indent)
                break;
            lands = !x->dash && !x->key_len && x->indent > run && x->indent <= run + d;
        }
        if (!lands)
            ok |= 1u << (d - 1);
    }
    return ok;
}

/* Does sibling j's first property line sit off its content column (moved by
 * yaml.property-indent)? The rule tells a drifted dash's list by that line;
 * off it, the dash reads as well as an item of a nested list it drifts by
 * (`    - A` then `     - id: U` + `     title: E`; run 16 9b22660d). */
static bool props_off_column(const mt_lines *ls, size_t j)
{
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *x = &ls->v[k];
        if (x->blank || x->comment || x->block_body)
            continue;
        return x->indent > ls->v[j].indent && !x->dash && x->key_len && x->indent != ls->v[j].body;
    }
    return false;
}

/* Is sibling j a one-line item followed by a key at its dash's column c, with a
 * list open at c - 2 above it (`- steps:` + `  - id: S` + `  op: n`)? Drifted right,
 * the dash reads as well as that outer list's item with `op` its property (the rule's
 * reading: the next line names the item's list) as the inner list's last item with
 * `op` its parent's key (run 33 3d0514a5). Any line a loader reads as a key counts,
 * not only a simple one: `p`rofile: r` too (run 48 fc18df61). */
static bool outer_key_after(const mt_lines *ls, size_t j)
{
    size_t c = ls->v[j].indent, k = j + 1;
    while (k < ls->n && (ls->v[k].blank || ls->v[k].comment))
        k++;
    if (c < 2 || k >= ls->n || ls->v[k].dash || ls->v[k].block_body || ls->v[k].indent != c ||
        !(ls->v[k].key_len || item_reads_as_keys(&ls->v[k])))
        return false;
    for (size_t a = j; a-- > 0;) {
        const mt_line *x = &ls->v[a];
        if (x->blank || x->comment || x->block_body || x->indent > c - 2)
            continue;
        return x->indent == c - 2 && x->dash;
    }
    return false;
}

/* Item i holds a block scalar and has a later sibling (the seed's trigger). */
/* Does the item whose dash line is j hold a line that opens with a dash glued
 * to a word (`-iatus: done`)? yaml.dash-space reads such a line before the
 * drift is repaired, against the drifted dash's column, and there it is a
 * list item where the clean text had a key (run 59 56c4ff9b). */
static bool glued_dash_in_item(const mt_lines *ls, size_t j)
{
    for (size_t k = j + 1; k < ls->n; k++) {
        const mt_line *l = &ls->v[k];
        if (l->blank || l->comment || l->block_body)
            continue;
        if (l->indent <= ls->v[j].indent)
            return false;
        if (l->s[l->indent] == '-' && l->indent + 1 < l->len && isalpha((unsigned char)l->s[l->indent + 1]))
            return true;
    }
    return false;
}

static bool s_drift(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    if (!ls->v[i].dash || !ls->v[i].key_len)
        return false;
    size_t j = sibling(ls, i);
    bool block = false;
    for (size_t k = i; j && k < j; k++)
        block |= !ls->v[k].block_body && mt_line_block_indicator(&ls->v[k]);
    return j && block && !props_off_column(ls, j) && !outer_key_after(ls, j) && !glued_dash_in_item(ls, j) &&
           drifts(ls, i, j) != 0;
}

/* Shift the dash line of the next sibling by 1-3 spaces (drifts); its properties stay. */
static int e_drift(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    size_t j = sibling(ls, i);
    unsigned ok = drifts(ls, i, j);
    size_t delta = 1 + (size_t)mt_param_int(ctx, "by", (long)mt_rand(ctx, 3)) % drift_room(ls, j);
    while (!(ok & (1u << (delta - 1))))
        delta = delta % drift_room(ls, j) + 1;  /* the next drift that lands on no nested list */
    mt_buf b = {0};
    int rc = 0;
    for (size_t s = 0; s < delta; s++)
        rc |= mt_putc(&b, ' ');
    rc |= mt_put(&b, ls->v[j].s, ls->v[j].len);
    return replace_line_buf(ctx, ls, j, &b, rc);
}

int mt_op_yaml_drift(mf_op_ctx *ctx)
{
    return mt_yaml_body_reading_ambiguous(ctx->text, ctx->len) ? 0 : line_op(ctx, s_drift, e_drift);
}

/* ---- #17 property indent off by 1-2 ---- */

static bool s_prop(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    (void)ctx;
    if (i == 0)
        return false;
    const mt_line *l = &ls->v[i], *p = &ls->v[i - 1];
    const char *v;
    /* a property with deeper lines under it (the body of a header the scan does
     * not know, `notes: |# see below` or `name: '|-'`, a plain value's later
     * lines) moves only with them: alone it lands on their column (33d2385c, 291ac97d); so
     * does one whose list follows at its own column (`tags:` or `tags: - ci` + `  - fast`): left
     * behind, those dashes read as its list or as the next item's, drifted (run 27 277a88b4) */
    for (size_t k = i + 1; k < ls->n; k++)
        if (!ls->v[k].blank) {
            if (ls->v[k].indent > l->indent || (ls->v[k].indent == l->indent && ls->v[k].dash))
                return false;
            break;
        }
    size_t n = scalar(l, &v);
    /* a flow collection left open on the line (`question_ids: [Q02`, yaml.unclosed-flow's):
     * moved left, the next properties sit deeper than its key, which the rule reads as the
     * collection continued (run 7 43d60ca2) */
    bool open_flow = n && (v[0] == '[' || v[0] == '{') && flow_left_open(v, n);
    /* the item's key has no value (`- id:`, or only a comment, `- id: #`): moved deeper,
     * the property is that key's mapping, a reading YAML loads as it is (run 27
     * 8e4c578f, run 40 daa5a118-r79e287db) */
    const char *pv;
    size_t pn = scalar(p, &pv);
    bool empty_item_key = pn == 0 || pv[0] == '#';
    /* the item key's quote left open (`- gap: "E`): moved deeper, the property is text
     * the quote runs over for yaml.unclosed-quote, and the value may end before it or
     * take it in (run 27 b054ff5a) */
    bool after_open_quote = value_quote_open(p);
    /* a quoted header (`item_type: '|'`, val.yaml-syntax's) moved left has its siblings deeper than
     * it, the body yaml.quoted-block-indicator reads there (run 24 6a5b2148); a property moved
     * deeper under an item key's quoted header (`- owner: '|'` + `   rationale: x`) is that body
     * (run 27 da2994e1) */
    return l->key_len && !l->dash && !mt_line_block_indicator(l) && !mt_line_quoted_header(l) && n > 0 &&
           !open_flow && !empty_item_key && !after_open_quote && p->dash && p->key_len && !mt_line_block_indicator(p) &&
           !mt_line_quoted_header(p) && l->indent == p->indent + 2 && p->body == l->indent;
}

static int e_prop(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    static const int deltas[] = {-1, 1, 2};
    int delta = deltas[mt_rand(ctx, 3)];
    const mt_line *l = &ls->v[i];
    mt_buf b = {0};
    size_t indent = (size_t)((int)l->indent + delta);
    int rc = 0;
    for (size_t s = 0; s < indent; s++)
        rc |= mt_putc(&b, ' ');
    rc |= mt_put(&b, l->s + l->indent, l->len - l->indent);
    return replace_line_buf(ctx, ls, i, &b, rc);
}

int mt_op_yaml_prop(mf_op_ctx *ctx) { return line_op(ctx, s_prop, e_prop); }

/* ---- beads context_guidance written as one string (seed 000 Beads) ---- */

/* An item's text reads back the same from a "- text" line of the guidance
 * prose (norm.context-guidance trims each line, splits it at line breaks and
 * at a "patterns:" / "anti-patterns:" marker): no leading or trailing blank,
 * no line break of any kind (NEL, LS, PS: libyaml breaks a block scalar's line
 * there), no marker word followed by a colon (run 9 f4821805, 3b493b90,
 * 95aa5dcf, 89a60c2d). */
static bool guidance_item_ok(const char *c, size_t n)
{
    if (n == 0 || isspace((unsigned char)c[0]) || isspace((unsigned char)c[n - 1]))
        return false;
    if (has(c, n, "\xC2\x85") || has(c, n, "\xE2\x80\xA8") || has(c, n, "\xE2\x80\xA9") ||
        memchr(c, '\n', n) || memchr(c, '\r', n))
        return false;
    for (size_t i = 0; i + 8 <= n; i++) {
        if (strncasecmp(c + i, "patterns", 8))
            continue;
        size_t k = i + 8;
        while (k < n && (c[k] == ' ' || c[k] == '\t'))
            k++;
        if (k < n && c[k] == ':')
            return false;
    }
    return true;
}

/* Content of a bare list item, unquoted; 0 when it is not a simple scalar
 * that the guidance prose carries unchanged. */
static size_t item_text(const mt_line *l, const char **c)
{
    const char *v;
    size_t n = scalar(l, &v), cn;
    if (!l->dash || l->key_len || n == 0)
        return 0;
    if ((cn = dq_plain(v, n, c)) || (cn = sq_plain(v, n, c)))
        return guidance_item_ok(*c, cn) ? cn : 0;
    /* a plain item's " #" starts a comment, which the prose would carry as text (run 24 f4821805) */
    if (strchr("\"'|>[{&*!%@`#", v[0]) || has(v, n, " #") || has(v, n, "\t#"))
        return 0;
    *c = v;
    return guidance_item_ok(v, n) ? n : 0;
}

/* End (exclusive) of the guidance block at line i, or 0 when its shape is not
 * patterns/anti_patterns lists of simple items. */
static size_t guidance_end(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    const char *v;
    if (!l->key_len || l->key_len != 16 || memcmp(l->s + l->body, "context_guidance", 16) || scalar(l, &v))
        return 0;
    size_t kc = l->body, j = i + 1;
    int section = 0, items[2] = {0, 0};
    for (; j < ls->n && (ls->v[j].blank || ls->v[j].indent > kc); j++) {
        const mt_line *x = &ls->v[j];
        if (x->blank)
            return 0;
        if (!x->dash && x->key_len && x->indent == kc + 2 && scalar(x, &v) == 0) {
            if (x->key_len == 8 && !memcmp(x->s + x->body, "patterns", 8))
                section = 1;
            else if (x->key_len == 13 && !memcmp(x->s + x->body, "anti_patterns", 13))
                section = 2;
            else
                return 0;
            continue;
        }
        const char *c;
        if (!section || !item_text(x, &c))
            return 0;
        items[section - 1]++;
    }
    return items[0] && items[1] ? j : 0;
}

static bool s_guidance(const mt_lines *ls, size_t i, const mf_op_ctx *ctx)
{
    return ctx->profile && json_array_size(ctx->profile->normalizers) && guidance_end(ls, i) != 0;
}

static int e_guidance(mf_op_ctx *ctx, const mt_lines *ls, size_t i)
{
    size_t end = guidance_end(ls, i), kc = ls->v[i].body;
    mt_buf b = {0};
    int rc = mt_put(&b, ctx->text, ls->v[i].off + kc + 17) | mt_puts(&b, " |-");
    for (size_t j = i + 1; j < end; j++) {
        const mt_line *x = &ls->v[j];
        rc |= mt_putc(&b, '\n');
        for (size_t s = 0; s < kc + 2; s++)
            rc |= mt_putc(&b, ' ');
        const char *c;
        size_t cn = item_text(x, &c);
        if (cn)
            rc |= mt_puts(&b, "- ") | mt_put(&b, c, cn);
        else
            rc |= mt_puts(&b, x->key_len == 8 ? "Patterns:" : "Anti-patterns:");
    }
    size_t rest = ls->v[end - 1].off + ls->v[end - 1].len;
    rc |= mt_put(&b, ctx->text + rest, ctx->len - rest);
    return mt_ctx_commit(ctx, &b, rc);
}

int mt_op_yaml_guidance(mf_op_ctx *ctx) { return line_op(ctx, s_guidance, e_guidance); }
