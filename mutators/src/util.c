/* util.c - the small machinery every op shares: a text buffer, the RNG,
 * op parameters, a line view of YAML text (indent, dash, simple key, value,
 * block-scalar bodies) and a token view of JSON text (strings, keys,
 * numbers, literals, punctuation). Both views are one linear pass. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "mut_internal.h"

int mt_put(mt_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p)
            return -1;
        b->s = p;
        b->cap = cap;
    }
    if (n)
        memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    return 0;
}

int mt_puts(mt_buf *b, const char *s) { return mt_put(b, s, strlen(s)); }
int mt_putc(mt_buf *b, char c) { return mt_put(b, &c, 1); }

void mt_free(mt_buf *b)
{
    free(b->s);
    memset(b, 0, sizeof *b);
}

void mt_ctx_set(mf_op_ctx *ctx, mt_buf *b)
{
    if (!b->s && mt_put(b, "", 0) < 0)
        return;
    free(ctx->text);
    ctx->text = b->s;
    ctx->len = b->len;
    memset(b, 0, sizeof *b);
}

int mt_ctx_commit(mf_op_ctx *ctx, mt_buf *b, int rc)
{
    if (rc < 0) {
        mt_free(b);
        return -1;
    }
    mt_ctx_set(ctx, b);
    return 1;
}

int mt_splice(mf_op_ctx *ctx, size_t a, size_t b, const char *repl, size_t n)
{
    mt_buf o = {0};
    int rc = mt_put(&o, ctx->text, a) | mt_put(&o, repl, n) | mt_put(&o, ctx->text + b, ctx->len - b);
    return mt_ctx_commit(ctx, &o, rc);
}

uint64_t mf_rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

size_t mt_rand(mf_op_ctx *ctx, size_t n)
{
    return n ? (size_t)(mf_rng_next(&ctx->rng) % n) : 0;
}

/* Find "name=" as a whole word in params; returns the value start or NULL. */
static const char *param_find(const char *params, const char *name)
{
    size_t nl = strlen(name);
    for (const char *p = params; p && *p;) {
        while (*p == ' ')
            p++;
        if (strncmp(p, name, nl) == 0 && p[nl] == '=')
            return p + nl + 1;
        while (*p && *p != ' ')
            p++;
    }
    return NULL;
}

long mt_param_int(const mf_op_ctx *ctx, const char *name, long dflt)
{
    const char *v = param_find(ctx->params, name);
    if (!v || !(isdigit((unsigned char)*v) || *v == '-'))
        return dflt;
    return strtol(v, NULL, 10);
}

bool mt_param_str(const mf_op_ctx *ctx, const char *name, char *out, size_t n)
{
    const char *v = param_find(ctx->params, name);
    if (!v || n == 0)
        return false;
    size_t i = 0;
    while (v[i] && v[i] != ' ' && i + 1 < n) {
        out[i] = v[i];
        i++;
    }
    out[i] = '\0';
    return true;
}

bool mt_is_yaml(const mf_op_ctx *ctx)
{
    return !ctx->profile || ctx->profile->format == MF_FORMAT_YAML;
}

/* ---- YAML lines ---- */

static size_t simple_key(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    size_t i = 1;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.'))
        i++;
    if (i < n && s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\r'))
        return i;
    return 0;
}

/* A block scalar header with a comment after it, glued (`|#note`, written
 * by yaml.block-header-comment) or spaced (`>- # see`): its body is block
 * text all the same, which no later op may edit as YAML lines. */
static bool commented_header(const mt_line *x)
{
    const char *v;
    size_t n = x->key_len ? mt_line_value(x, &v) : 0, i = 1;
    if (n == 0 || (v[0] != '|' && v[0] != '>'))
        return false;
    while (i < n && (v[i] == '-' || v[i] == '+' || isdigit((unsigned char)v[i])))
        i++;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    return i < n && v[i] == '#';
}

/* A block scalar header in quotes (`notes: '|-'`, `- "|"`, written by
 * yaml.quoted-block-indicator): yaml.quoted-block-indicator reads it back as
 * the header, so its deeper lines are block text all the same, which no later
 * op may edit as YAML lines: their indentation and `key: value` shapes are
 * text there (run 8 entries 94752c25, 8f6d87b4). */
bool mt_line_quoted_header(const mt_line *x)
{
    const char *v = x->s + (x->key_len ? x->val : x->body);
    size_t n = x->key_len ? mt_line_value(x, &v) : x->len - x->body;
    if (x->comment || (!x->key_len && !x->dash) || n < 3 || (v[0] != '"' && v[0] != '\''))
        return false;
    /* the quotes doubled too (`""|-""`, yaml.doubled-quotes on top): yaml.doubled-quotes
     * takes one pair off, yaml.quoted-block-indicator the other */
    size_t q = v[1] == v[0] ? 2 : 1, i = q + 1;
    if (n < 2 * q + 1 || (v[q] != '|' && v[q] != '>'))
        return false;
    while (i < n && (v[i] == '-' || v[i] == '+' || isdigit((unsigned char)v[i])))
        i++;
    for (size_t k = 0; k < q; k++, i++)
        if (i >= n || v[i] != v[0])
            return false;
    while (i < n && (v[i] == ' ' || v[i] == '\t' || v[i] == '\r'))
        i++;
    return i == n || v[i] == '#';
}

/* Does [s, s+n) read as an entry with any plain key (`(name: |`, which no
 * simple key matches) whose value is a block scalar header? Its body lines
 * are block text all the same (regression b3a642eb). */
static bool other_key_header(const char *s, size_t n)
{
    if (n == 0 || s[0] == '#' || s[0] == '[' || s[0] == '{')
        return false;
    size_t k = 0;
    if (s[0] == '"' || s[0] == '\'') { /* a quoted key (`"summary:x": |-`): past its closing quote */
        char q = s[0];
        for (k = 1; k < n; k++) {
            if (q == '"' && s[k] == '\\')
                k++;
            else if (s[k] == q && !(q == '\'' && k + 1 < n && s[k + 1] == '\''))
                break;
            else if (s[k] == q)
                k++; /* '' in single quotes */
        }
        if (k >= n)
            return false;
        for (k++; k < n && s[k] == ' ';)
            k++;
        if (k + 1 >= n || s[k] != ':' || s[k + 1] != ' ')
            return false;
    }
    while (k + 1 < n && !(s[k] == ':' && s[k + 1] == ' '))
        k++;
    if (k + 1 >= n)
        return false;
    k += 2;
    while (k < n && s[k] == ' ')
        k++;
    if (k >= n || (s[k] != '|' && s[k] != '>'))
        return false;
    k++;
    while (k < n && (s[k] == '-' || s[k] == '+' || isdigit((unsigned char)s[k])))
        k++;
    while (k < n && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
        k++;
    return k == n || s[k] == '#';
}

/* Is line s (length n) at column 0 a transcript role prefix, then a block header key
 * (`[error] title: |`, cand.transcript-prefix's damage)? Its deeper lines are the
 * body all the same: cand.transcript-prefix strips the prefix (run 46 fa061f). */
static bool prefixed_header(const char *s, size_t n, size_t indent)
{
    size_t p = indent == 0 ? mt_role_prefix(s, n) : 0;
    while (p && p < n && s[p] == ' ')
        p++;
    size_t k = p && p < n ? simple_key(s + p, n - p) : 0;
    if (!k)
        return false;
    size_t j = p + k + 1;
    while (j < n && s[j] == ' ')
        j++;
    return j < n && (s[j] == '|' || s[j] == '>');
}

/* Is the item at column b of line s (length n) a compact nested sequence
 * whose innermost item is a block scalar header (`- - |`, `- - - >-`), or whose
 * first key's value is one (`- name: |`, after a key: `steps: - name: |`)? Its
 * body lines, deeper than the innermost dash (*col), are the scalar's text,
 * and a `key: value` there is no entry (run 13 e2aab0da, 86769b48). */
static bool compact_item_header(const char *s, size_t n, size_t b, size_t *col)
{
    size_t dash = b;
    if (b >= n || s[b] != '-' || (b + 1 < n && s[b + 1] != ' '))
        return false;
    while (b < n && s[b] == '-' && (b + 1 == n || s[b + 1] == ' ')) {
        dash = b++;
        while (b < n && s[b] == ' ')
            b++;
    }
    size_t k = b < n ? simple_key(s + b, n - b) : 0;
    if (k && b + k + 1 < n && s[b + k + 1] == ' ') /* `steps: - name: |#  c`: the item's first key opens it (run 45 342f00fc) */
        for (b += k + 1; b < n && s[b] == ' ';)
            b++;
    if (b >= n || (s[b] != '|' && s[b] != '>'))
        return false;
    for (b++; b < n && (s[b] == '-' || s[b] == '+' || isdigit((unsigned char)s[b]));)
        b++;
    while (b < n && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r'))
        b++;
    if (b < n && s[b] != '#')
        return false;
    *col = dash;
    return true;
}

/* Offset in [s, s+n) (from the start of the text after its opening quote) of
 * the quote that closes a quoted scalar opened with q, or n when it stays open.
 * Double quotes escape with a backslash, single quotes by doubling. */
static size_t quote_close_at(const char *s, size_t n, char q)
{
    for (size_t i = 0; i < n; i++) {
        if (q == '"' && s[i] == '\\')
            i++;
        else if (s[i] == q && q == '\'' && i + 1 < n && s[i + 1] == '\'')
            i++;
        else if (s[i] == q)
            return i;
    }
    return n;
}

static bool quote_open_after(const char *s, size_t n, char q)
{
    return quote_close_at(s, n, q) == n;
}

/* Does a later line [s, s+n) of a quoted scalar opened with q, at or left of
 * its block collection's column, read as an entry there (`- x`, `-`, a
 * one-word key `key: x` / `key:`; on the line that closes the quote, only the
 * text before the quote counts)? Core does not read such a line as the
 * value's: its loader fails there (YAML 1.2, yaml-test-suite QB6E,
 * core/src/yaml_load.c mf_yaml_entry_shaped), and yaml.unclosed-quote closes the
 * quote before it (at the end of its own line when that line comes next). */
static bool quote_entry_line(const char *s, size_t n, char q)
{
    n = quote_close_at(s, n, q);
    if (n && s[0] == '-')
        return n == 1 || s[1] == ' ';
    if (!n || strchr("#\"'", s[0]))
        return false;
    for (size_t i = 1; i < n && s[i] != ' '; i++)
        if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' '))
            return true;
    return false;
}

/* Does the first q in [s, s+n) close a quoted scalar as the last thing on
 * its line (blanks or a comment after it)? Then YAML's own reading of the
 * open value holds together and yaml.unclosed-quote guesses nothing: core
 * rejects the text (QB6E) rather than close the quote earlier, and its lines
 * stay the value's text here, as they always were. No such q: the quote is
 * left open, and the rule closes it. */
static bool quote_closes_at_line_end(const char *s, size_t n, char q)
{
    size_t i = quote_close_at(s, n, q);
    if (i == n)
        return false;
    for (i++; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r');)
        i++;
    return i == n || s[i] == '\n' || s[i] == '#';
}

int mt_lines_scan(const char *text, size_t len, mt_lines *out)
{
    size_t cap = 16, n = 0;
    mt_line *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    size_t block_col = 0;
    bool in_block = false;
    char in_quote = 0; /* a multi-line quoted scalar is open: its lines are its text */
    size_t quote_col = 0; /* the column of the block collection holding it (keys or dashes) */
    for (size_t off = 0; off < len || (off == len && n == 0 && len == 0);) {
        const char *s = text + off;
        const char *nl = memchr(s, '\n', len - off);
        size_t l = nl ? (size_t)(nl - s) : len - off;
        if (n == cap) {
            mt_line *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
        }
        mt_line *x = &v[n++];
        memset(x, 0, sizeof *x);
        x->s = s;
        x->len = l;
        x->off = off;
        while (x->indent < l && s[x->indent] == ' ')
            x->indent++;
        size_t i = x->indent;
        while (i < l && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        x->blank = i == l;
        x->comment = !x->blank && s[x->indent] == '#';
        /* a line at or left of the open quote's collection that reads as an
         * entry there is no text of the value (quote_entry_line): the quote
         * was left open, core closes it before this line (run 9 entries
         * 5ac1cf15, d3c273ab, ...: norm.answer-fields-sibling took the next
         * question's `answered_by: u` for the open question's own), unless
         * the next quote closes it at the end of a line, where core guesses
         * nothing and rejects (quote_closes_at_line_end) */
        if (in_quote && !x->blank && x->indent <= quote_col &&
            quote_entry_line(s + x->indent, l - x->indent, in_quote) &&
            !quote_closes_at_line_end(s, len - off, in_quote))
            in_quote = 0;
        if (in_quote) {
            x->block_body = true;
            if (!quote_open_after(s, l, in_quote))
                in_quote = 0;
        } else if (in_block && (x->blank || x->indent > block_col)) {
            x->block_body = true;
        } else {
            in_block = false;
            size_t b = x->indent;
            if (b < l && s[b] == '-' && (b + 1 == l || s[b + 1] == ' ')) {
                x->dash = true;
                b++;
                while (b < l && s[b] == ' ')
                    b++;
            }
            x->body = b;
            x->key_len = x->comment ? 0 : simple_key(s + b, l - b);
            x->val = l;
            if (x->key_len) {
                size_t j = b + x->key_len + 1;
                while (j < l && s[j] == ' ')
                    j++;
                x->val = j;
            }
            const char *qv = s + (x->key_len ? x->val : x->body);
            size_t qn = l - (size_t)(qv - s);
            if (!x->comment && qn > 0 && (x->key_len || x->dash) && (qv[0] == '"' || qv[0] == '\'') &&
                quote_open_after(qv + 1, qn - 1, qv[0])) {
                in_quote = qv[0];
                quote_col = x->key_len ? x->body : x->indent;
            }
            /* a key no simple key (`alternative_draft:cription: '`): its
             * value's quote opens a multi-line scalar all the same */
            const char *cs = NULL;
            for (size_t c = b; !x->comment && !x->key_len && !x->dash && b < l && isalpha((unsigned char)s[b]) &&
                               c + 1 < l && !cs; c++)
                if (s[c] == ':' && s[c + 1] == ' ')
                    cs = s + c;
            if (cs && !in_quote) {
                const char *w = cs + 2;
                while (w < s + l && *w == ' ')
                    w++;
                if (w < s + l && (*w == '"' || *w == '\'') && !memchr(s + b, '"', (size_t)(cs - s) - b) &&
                    !memchr(s + b, '\'', (size_t)(cs - s) - b) && quote_open_after(w + 1, (size_t)(s + l - w) - 1, *w)) {
                    in_quote = *w;
                    quote_col = b;
                }
            }
            if (mt_line_block_indicator(x) || commented_header(x) || (x->key_len && mt_line_quoted_header(x)) ||
                (!x->key_len && !x->comment && other_key_header(s + b, l - b)) || prefixed_header(s, l, x->indent)) {
                in_block = true;
                block_col = x->body;
            } else if (x->dash && x->key_len == 0 && x->body < l &&
                       (s[x->body] == '|' || s[x->body] == '>' || mt_line_quoted_header(x))) {
                in_block = true;
                block_col = x->indent;
            } else if (x->dash && compact_item_header(s, l, x->body, &block_col)) {
                in_block = true;
            } else if (x->key_len && x->val < l && compact_item_header(s, l, x->val, &block_col)) {
                /* `matrix: - - |-` (yaml.inline-sequence-parent's damage): every deeper line is
                 * the header's body, whichever column the split puts the dashes at (run 35 da66b6cb) */
                in_block = true;
                block_col = x->indent;
            } else if (!x->dash && !x->key_len && !x->comment && x->indent + 1 < l && s[x->indent] == '-') {
                /* `-gap: |` (yaml.dash-space took the dash's space): still a
                 * block header, its body still text no later op may edit */
                size_t k = simple_key(s + x->indent + 1, l - x->indent - 1), j = x->indent + 1 + k + 1;
                while (k && j < l && s[j] == ' ')
                    j++;
                if (k && j < l && (s[j] == '|' || s[j] == '>')) {
                    in_block = true;
                    block_col = x->indent;
                }
            }
        }
        off += l + 1;
        if (!nl)
            break;
    }
    out->v = v;
    out->n = n;
    return 0;
}

void mt_lines_free(mt_lines *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

size_t mt_line_value(const mt_line *l, const char **v)
{
    size_t e = l->len;
    while (e > l->val && (l->s[e - 1] == ' ' || l->s[e - 1] == '\r'))
        e--;
    *v = l->s + l->val;
    return e > l->val ? e - l->val : 0;
}

bool mt_line_block_indicator(const mt_line *l)
{
    if (!l->key_len)
        return false;
    const char *v;
    size_t n = mt_line_value(l, &v);
    if (n == 0 || (v[0] != '|' && v[0] != '>'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(v[i] == '-' || v[i] == '+' || isdigit((unsigned char)v[i])))
            return false;
    return true;
}

int mt_replace_line(mf_op_ctx *ctx, const mt_lines *ls, size_t i, const char *repl, size_t n)
{
    mt_buf b = {0};
    const mt_line *x = &ls->v[i];
    if (mt_put(&b, ctx->text, x->off) < 0 || mt_put(&b, repl, n) < 0 ||
        mt_put(&b, ctx->text + x->off + x->len, ctx->len - x->off - x->len) < 0) {
        mt_free(&b);
        return -1;
    }
    mt_ctx_set(ctx, &b);
    return 1;
}

/* ---- JSON tokens ---- */

size_t mt_role_prefix(const char *s, size_t n)
{
    if (n == 0 || s[0] != '[')
        return 0;
    static const char *const roles[] = {"assistant", "user", "system", "sys", "tool", "model", "error", NULL};
    for (const char *const *r = roles; *r; r++) {
        size_t rl = strlen(*r), i = 1 + rl;
        if (i >= n || strncasecmp(s + 1, *r, rl))
            continue;
        while (i < n && i < 200 && s[i] == '/')
            while (i < n && s[i] != ']' && s[i] != '\n')
                i++;
        if (i < n && s[i] == ']')
            return i + 1;
    }
    return 0;
}

int mt_json_scan(const char *t, size_t len, mt_jtoks *out)
{
    size_t cap = 32, n = 0;
    mt_jtok *v = malloc(cap * sizeof *v);
    if (!v)
        return -1;
    size_t after_role = (size_t)-1;     /* where the last role prefix ended */
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)t[i];
        if (isspace(c)) {
            i++;
            continue;
        }
        mt_jtok tk = {JT_LIT, i, 1};
        size_t role = c == '[' && (i == 0 || t[i - 1] == '\n' || i == after_role) ? mt_role_prefix(t + i, len - i) : 0;
        if (role) {                     /* "[tool] " from cand.transcript-prefix (stacked too): not JSON */
            i += role;
            while (i < len && (t[i] == ' ' || t[i] == '\t'))
                i++;
            after_role = i;
            continue;
        }
        if (c == '[' && i + 4 < len && (!memcmp(t + i, "[200~", 5) || !memcmp(t + i, "[201~", 5))) {
            i += 5;                     /* a bracketed-paste marker (cand.bracketed-paste): not JSON */
            continue;
        }
        if (c == '/' && i + 1 < len && (t[i + 1] == '/' || t[i + 1] == '*')) {
            const char *end = t[i + 1] == '/' ? memchr(t + i, '\n', len - i) : NULL;
            if (t[i + 1] == '*')
                for (size_t j = i + 2; j + 1 < len && !end; j++)
                    if (t[j] == '*' && t[j + 1] == '/')
                        end = t + j + 1;
            i = end ? (size_t)(end - t) + 1 : len;
            continue;
        }
        if (c == '`' && i + 2 < len && t[i + 1] == '`' && t[i + 2] == '`' && (i == 0 || t[i - 1] == '\n' || i == after_role)) {
            const char *end = memchr(t + i, '\n', len - i);   /* a fence line (```markdown): never a string, */
            i = end ? (size_t)(end - t) + 1 : len;            /* even after a colon of prose above it */
            continue;
        }
        /* '..' and `..` strings only where JSON expects a key or a value:
         * in prose and fence lines (```json) they are apostrophes and backticks */
        /* after a string too: `"a" + 'b'` (json.string-plus), `"key" `v`` (json.missing-colon) */
        bool json_pos = n && (v[n - 1].kind == JT_COLON || v[n - 1].kind == JT_COMMA || v[n - 1].kind == JT_OPEN ||
                              v[n - 1].kind == JT_STR);
        if (c == '"' || ((c == '\'' || c == '`') && json_pos)) {
            size_t j = i + 1;
            while (j < len && t[j] != (char)c)
                j += t[j] == '\\' ? 2 : 1;
            if (j >= len)
                break;
            tk.kind = JT_STR;
            tk.len = j + 1 - i;
            size_t k = j + 1;
            while (k < len && isspace((unsigned char)t[k]))
                k++;
            if (k < len && t[k] == ':')
                tk.kind = JT_KEY;
        } else if (c == '{' || c == '[') {
            tk.kind = JT_OPEN;
        } else if (c == '}' || c == ']') {
            tk.kind = JT_CLOSE;
        } else if (c == ',') {
            tk.kind = JT_COMMA;
        } else if (c == ':') {
            tk.kind = JT_COLON;
        } else if (c == '-' || isdigit(c)) {
            size_t j = i + 1;
            while (j < len && (isdigit((unsigned char)t[j]) || strchr(".eE+-", t[j])))
                j++;
            tk.kind = JT_NUM;
            tk.len = j - i;
        } else if (isalpha(c)) {
            size_t j = i + 1;
            while (j < len && isalpha((unsigned char)t[j]))
                j++;
            tk.kind = JT_LIT;
            tk.len = j - i;
        } else {
            i++;          /* stray byte (prose, '#', noise): skip it */
            continue;
        }
        if (n == cap) {
            mt_jtok *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) {
                free(v);
                return -1;
            }
            v = nv;
        }
        v[n++] = tk;
        i += tk.len;
    }
    out->v = v;
    out->n = n;
    return 0;
}

void mt_jtoks_free(mt_jtoks *t)
{
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

bool mt_has_fence(const mf_op_ctx *ctx)
{
    for (size_t i = 0; i + 3 <= ctx->len; i++) {
        if (i && ctx->text[i - 1] != '\n')
            continue;
        size_t k = i;
        for (size_t r; (r = mt_role_prefix(ctx->text + k, ctx->len - k));) /* "[tool] ```" */
            for (k += r; k < ctx->len && ctx->text[k] == ' ';)
                k++;
        if (k + 3 <= ctx->len && !memcmp(ctx->text + k, "```", 3))
            return true;
    }
    return false;
}

/* Line [a, e) of text around offset off; its indentation and key length. */
static void line_at(const char *t, size_t len, size_t off, size_t *a, size_t *e, size_t *ind, size_t *kl)
{
    *a = off;
    while (*a > 0 && t[*a - 1] != '\n')
        (*a)--;
    const char *nl = memchr(t + off, '\n', len - off);
    *e = nl ? (size_t)(nl - t) : len;
    *ind = 0;
    while (*a + *ind < *e && t[*a + *ind] == ' ')
        (*ind)++;
    size_t k = *a + *ind;
    while (k < *e && t[k] != ':' && t[k] != ' ')
        k++;
    *kl = k < *e && t[k] == ':' ? k - *a - *ind : 0;
}

/* Does line text [s, s+n) hold `key: ` (or `key:` at its end) after a blank,
 * past its own first entry: a second pair on the line? */
static bool inline_key(const char *s, size_t n, const char *key, size_t kl)
{
    for (size_t i = 1; i + kl < n; i++)
        if (s[i - 1] == ' ' && !memcmp(s + i, key, kl) && s[i + kl] == ':' &&
            (i + kl + 1 == n || s[i + kl + 1] == ' '))
            return true;
    return false;
}

bool mt_key_repeated(const char *t, size_t len, size_t off)
{
    size_t a, e, ind, kl;
    line_at(t, len, off, &a, &e, &ind, &kl);
    if (!kl)
        return false;
    const char *key = t + a + ind;
    for (int dir = -1; dir <= 1; dir += 2) {
        size_t pos = dir < 0 ? a : e;
        for (;;) {
            if (dir < 0 ? pos == 0 : pos + 1 >= len)
                break;
            size_t la, le, li, lk;
            line_at(t, len, dir < 0 ? pos - 1 : pos + 1, &la, &le, &li, &lk);
            pos = dir < 0 ? la : le;
            if (le == la + li || t[la + li] == '#')
                continue;               /* blank or comment */
            if (li < ind || (li == ind && t[la + li] == '-'))
                break;                  /* the enclosing mapping ends */
            if (li == ind && lk == kl && !memcmp(t + la + li, key, kl))
                return true;
            if (li == ind && inline_key(t + la + li, le - la - li, key, kl))
                return true;            /* a copy yaml.inline-keys joined onto a sibling's line (run 50 46fdfdc3) */
        }
    }
    return false;
}
