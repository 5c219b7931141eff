/* ops_quotes.c - YAML quoting slips: a quoted scalar written with its
 * quotes doubled (""Hello"" / ''Ada''), and a list item that needs quotes
 * (it holds ": ") written plain among plain string items. Both exact: the
 * YAML rules yaml.doubled-quotes and yaml.item-colon give the string back. */
#define _GNU_SOURCE /* memmem */
#include <string.h>
#include "mut_internal.h"

/* The quoted value of line l: [*a, *z) including the quotes, when it is one
 * simple "..." or '...' scalar with no quote or backslash inside. */
static bool simple_quoted(const mt_line *l, const char *text, size_t *a, size_t *z)
{
    const char *v;
    size_t n;
    if (l->blank || l->comment || l->block_body)
        return false;
    if (l->key_len) {
        n = mt_line_value(l, &v);
    } else if (l->dash) {
        v = l->s + l->body;
        n = l->len - l->body;
        while (n && (v[n - 1] == ' ' || v[n - 1] == '\r'))
            n--;
    } else {
        return false;
    }
    if (n < 3 || (v[0] != '"' && v[0] != '\'') || v[n - 1] != v[0])
        return false;
    for (size_t i = 1; i + 1 < n; i++)
        if (v[i] == '"' || v[i] == '\'' || v[i] == '\\' || v[i] == '#')
            return false;
    /* a bare CR (or NEL, LS, PS) inside is a line break to YAML: the scalar is a
     * multi-line one, which the one-line rules do not promise (run 9 f305f26c) */
    if (memchr(v, '\r', n) || memmem(v, n, "\xC2\x85", 2) || memmem(v, n, "\xE2\x80\xA8", 3) ||
        memmem(v, n, "\xE2\x80\xA9", 3))
        return false;
    *a = (size_t)(v - text);
    *z = *a + n;
    return true;
}

/* Does dash line i open a sequence item? Not when a line above it at its
 * indent is no item, or its parent line holds a value: then the dash line
 * continues a plain scalar and its quotes are text (run 22 1c7f09b5). */
static bool dash_opens_item(const mt_lines *ls, size_t i)
{
    size_t d = ls->v[i].indent;
    for (size_t j = i; j-- > 0;) {
        const mt_line *x = &ls->v[j];
        const char *v;
        if (x->blank || x->comment || x->block_body || x->indent > d)
            continue;
        if (x->indent == d) {
            if (!x->dash)
                return false;
            continue;
        }
        if (x->key_len)
            return mt_line_value(x, &v) == 0;
        return x->dash && x->body >= x->len;
    }
    return true;
}

int mt_op_yaml_doubled_quotes(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t sites[512], m = 0, a, z;
    /* a value holding ': ' is left: doubled quotes no longer protect it, and a known key
     * after it (`notes: ''fi   text: p''`) reads as the next entry (yaml.inline-known-keys);
     * and not one copy of a key yaml.duplicate-key repeated: the copies would then conflict */
    for (size_t i = 0; i < ls.n && m < 512; i++)
        if (simple_quoted(&ls.v[i], ctx->text, &a, &z) && !memmem(ctx->text + a, z - a, ": ", 2) &&
            !mt_key_repeated(ctx->text, ctx->len, ls.v[i].off) && (ls.v[i].key_len || dash_opens_item(&ls, i)))
            sites[m++] = i;
    int rc = 0;
    if (m) {
        simple_quoted(&ls.v[sites[mt_rand(ctx, m)]], ctx->text, &a, &z);
        char q[2] = {ctx->text[a], 0};
        mt_buf b = {0};
        int e = mt_put(&b, ctx->text, a) | mt_puts(&b, q) | mt_put(&b, ctx->text + a, z - a) | mt_puts(&b, q) |
                mt_put(&b, ctx->text + z, ctx->len - z);
        rc = mt_ctx_commit(ctx, &b, e);
    }
    mt_lines_free(&ls);
    return rc;
}

/* Can s[0..n) stand as a plain scalar once unquoted (apart from its ": ")? */
static bool plain_ok(const char *s, size_t n)
{
    if (!n || strchr("-?:,[]{}#&*!|>'\"%@`", s[0]) || s[n - 1] == ':' || s[n - 1] == ' ' || s[0] == ' ')
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '#' || s[i] == '\t' || (unsigned char)s[i] < 0x20 || s[i] == 0x7f)
            return false; /* a control character (a lone '\r' breaks the line) reads otherwise unquoted */
    return true;
}

/* Is line l a list item holding a plain scalar (no key, not quoted)? */
static bool plain_item(const mt_line *l)
{
    if (!l->dash || l->key_len || l->body >= l->len)
        return false;
    /* a tag or `?` first is no string item for yaml.item-colon (run 22 d0ba0efa: `- ?ever force-push`) */
    return !strchr("\"'[{|>-&*!?", l->s[l->body]);
}

/* Is s[0, n) an identifier key as yaml.item-colon reads one (a letter or '_',
 * then letters, digits, '_', '-', '.'), and no header name (capitalized
 * words joined by '-': X-Trace-Id, EPIC-7)? Such an item is a one-key
 * mapping for the rule, among strings too (its fixture README): unquoting
 * `- "Cachebuild: it saves ten minutes"` changes the value (run 8
 * d0ba0efa-r696c83ad). */
static bool ident_key(const char *s, size_t n)
{
    if (!n || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
              s[i] == '_' || s[i] == '-' || s[i] == '.'))
            return false;
    size_t parts = 0, i = 0; /* a header name: capitalized alphanumeric words joined by '-' */
    if (s[0] < 'A' || s[0] > 'Z')
        return true;
    while (i < n) {
        size_t w = i;
        while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
            i++;
        if (i == w)
            return true;
        parts++;
        if (i < n && (s[i] != '-' || ++i == n))
            return true;
    }
    return parts < 2;
}

/* Does line l hold a list item after its key or dash (`tips: - A`, `- - A`)? */
static bool holds_inline_item(const mt_line *l)
{
    const char *v = l->s + l->body;
    size_t n = l->len - l->body;
    if (l->key_len)
        n = mt_line_value(l, &v);
    return n && v[0] == '-' && (n == 1 || v[1] == ' ' || v[1] == '\t');
}

int mt_op_yaml_item_colon(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t sites[512], m = 0;
    for (size_t i = 0; i < ls.n && m < 512; i++) {
        size_t a, z;
        const mt_line *l = &ls.v[i];
        if (!l->dash || l->key_len || !simple_quoted(l, ctx->text, &a, &z) || ctx->text[a] != '"')
            continue;
        const char *in = ctx->text + a + 1;
        size_t n = z - a - 2;
        const char *colon = NULL;
        for (size_t k = 0; k + 1 < n; k++)
            if (in[k] == ':' && in[k + 1] == ' ')
                colon = colon ? in + n : in + k;   /* exactly one ": " */
        /* YAML's key ends before the blanks in front of its ':' (`Cac_e : it saves`, the key
         * "Cac_e", run 34 d0ba0efa-r8b7eeee8) */
        size_t kl = colon ? (size_t)(colon - in) : 0;
        while (kl && in[kl - 1] == ' ')
            kl--;
        if (!colon || colon == in + n || !plain_ok(in, n) || ident_key(in, kl))
            continue;
        /* the text after ": " read as a mapping value starts no flow collection, alias,
         * tag, block scalar or list (`- Use it: [x`: yaml.unclosed-flow reads a list) */
        const char *val = colon + 2;
        while (val < in + n && *val == ' ')
            val++;
        if (val < in + n && !plain_ok(val, (size_t)(in + n - val)))
            continue;
        /* every sibling item (same indent, same list) a plain scalar on one line */
        bool ok = true, other = false;
        for (int dir = -1; dir <= 1 && ok; dir += 2)
            for (size_t j = i + dir; j < ls.n && ok; j += dir) {
                const mt_line *s = &ls.v[j];
                if (s->blank || s->comment)
                    continue;
                /* a dash glued to its item (`-name: A`, yaml.dash-space's damage, an op
                 * applied before this one) is a sibling item too, and may be a mapping,
                 * which makes the rule read this item as one (run 11 f1b6aef9) */
                if (s->indent == l->indent && !s->dash && s->s[s->indent] == '-') {
                    ok = false;
                    break;
                }
                /* so is an item on the list's parent line (`tips: - name: A`,
                 * yaml.inline-sequence-parent's damage) */
                if (s->indent < l->indent && dir < 0 && holds_inline_item(s)) {
                    ok = false;
                    break;
                }
                if (s->indent < l->indent || (s->indent == l->indent && !s->dash))
                    break;
                if (s->indent > l->indent || s->block_body) {
                    ok = false;
                    break;
                }
                ok = plain_item(s) && !memchr(s->s + s->body, ':', s->len - s->body) &&
                     !memchr(s->s + s->body, '#', s->len - s->body);
                other = true;
                if (j == 0)
                    break;
            }
        if (ok && other)
            sites[m++] = i;
    }
    int rc = 0;
    if (m) {
        size_t a, z;
        simple_quoted(&ls.v[sites[mt_rand(ctx, m)]], ctx->text, &a, &z);
        mt_buf b = {0};
        int e = mt_put(&b, ctx->text, a) | mt_put(&b, ctx->text + a + 1, z - a - 2) | mt_put(&b, ctx->text + z, ctx->len - z);
        rc = mt_ctx_commit(ctx, &b, e);
    }
    mt_lines_free(&ls);
    return rc;
}
