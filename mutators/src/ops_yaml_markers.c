/* ops_yaml_markers.c - YAML markers that a model writes as text and YAML
 * reads as syntax; both ops are exact (the rule gives the value back).
 *
 * val.quoted-hash (a value op) makes one string hold a quoted phrase with a
 * ` #` inside (`she wrote 'see issue # 42' twice`); the emitter quotes the
 * whole value. yaml.quoted-hash then writes such a value plain: YAML reads
 * the ` #` as the start of a comment, yaml.quoted-hash quotes it back.
 * yaml.front-matter-closer ends the text with a closing `---` line (and
 * sometimes opens it with one), as generated front matter is written: YAML
 * reads a last empty document, yaml.front-matter-closer drops it.
 * yaml.block-header-comment glues a comment to a block scalar header
 * (`notes: |#note`): readers drop it as a comment, the rule says so. */
#include <string.h>
#include "mut_internal.h"

int mt_op_val_quoted_hash(mf_op_ctx *ctx)
{
    static const char *const l[] = {"she wrote 'see issue # 42' twice", "run \"make # all\" first",
                                    "it said 'hi # there'", "tag \"v1 # rc\" and ship"};
    return mt_set_leaf(ctx, l[(size_t)mt_param_int(ctx, "v", (long)mt_rand(ctx, 4)) % 4]);
}

/* The text a whole quoted scalar [v, v+n) stands for, into out (at most
 * cap bytes): single quotes with '' escapes, double quotes without
 * backslash escapes. 0 when it is no such scalar. */
static size_t unquote(const char *v, size_t n, char *out, size_t cap)
{
    if (n < 2 || (v[0] != '\'' && v[0] != '"') || v[n - 1] != v[0])
        return 0;
    size_t k = 0;
    for (size_t i = 1; i + 1 < n; i++) {
        if (v[i] == '\\' && v[0] == '"')
            return 0;
        if (v[i] == v[0]) {
            if (v[0] == '"' || i + 2 >= n || v[i + 1] != '\'')
                return 0;
            i++;
        }
        if (k == cap)
            return 0;
        out[k++] = v[i];
    }
    return k;
}

/* Does [s, s+n), written plain, read as yaml.quoted-hash reads it: one `#`,
 * after a blank, inside the only quoted phrase (its quote opened at a word
 * start and closed at a word end), and otherwise a plain scalar (no ': ',
 * no other quote, no blank or indicator at either end)? */
static bool hash_in_phrase(const char *s, size_t n)
{
    if (n < 5 || strchr("-?:,[]{}#&*!|>'\"%@` ", s[0]) || s[n - 1] == ' ' || s[n - 1] == ':')
        return false;
    const char *h = memchr(s, '#', n);
    if (!h || h == s || h[-1] != ' ' || memchr(h + 1, '#', n - (size_t)(h - s) - 1))
        return false;
    size_t open = n, close = n, quotes = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ')))
            return false;
        if (s[i] == '\'' || s[i] == '"') {
            if (++quotes > 2)
                return false;
            if (open == n)
                open = i;
            else if (s[i] == s[open])
                close = i;
        }
    }
    size_t at = (size_t)(h - s);
    return close < n && open < at && at < close && s[open - 1] == ' ' && (close + 1 == n || s[close + 1] == ' ');
}

/* Is line l `key: <quoted>` whose text reads as hash_in_phrase? Its plain form in out, its length (0: no). */
static size_t site(const mt_line *l, char *out, size_t cap)
{
    const char *v;
    if (!l->key_len || l->block_body || l->comment)
        return 0;
    size_t n = mt_line_value(l, &v), k = unquote(v, n, out, cap);
    return k && hash_in_phrase(out, k) ? k : 0;
}

int mt_op_yaml_quoted_hash(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    char plain[512];
    size_t sites[256], m = 0;
    for (size_t i = 0; i < ls.n && m < 256; i++)
        if (site(&ls.v[i], plain, sizeof plain))
            sites[m++] = i;
    int rc = 0;
    if (m) {
        const mt_line *l = &ls.v[sites[mt_rand(ctx, m)]];
        size_t k = site(l, plain, sizeof plain);
        mt_buf b = {0};
        int e = mt_put(&b, l->s, l->val) | mt_put(&b, plain, k);
        rc = e ? -1 : mt_replace_line(ctx, &ls, (size_t)(l - ls.v), b.s, b.len);
        mt_free(&b);
    }
    mt_lines_free(&ls);
    return rc;
}

/* Is the last line that is neither blank nor a comment a bare `---`? A
 * second closer after it would be a second empty document, which the rule
 * (one closer) does not drop. */
/* A line the candidate tidying cuts or the tag rule strips after a closer:
 * terminal noise only (ESC sequences, paste markers, control bytes), a bare
 * closing tag (`</yaml>`) or a fence. */
static bool noise_only(const char *s, size_t n, bool blank_ok);

static bool tail_closer_line(const mt_line *l)
{
    const char *s = l->s + l->indent;
    size_t n = l->len - l->indent;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    if (n >= 3 && (s[0] == '`' || s[0] == '~') && s[1] == s[0] && s[2] == s[0])
        return true;
    if (n >= 4 && s[0] == '<' && s[1] == '/' && s[n - 1] == '>')
        return true;
    return noise_only(s, n, false);
}

/* Is [s, s+n) terminal noise and blanks only (blank_ok: or no noise at all)? */
static bool noise_only(const char *s, size_t n, bool blank_ok)
{
    bool noise = blank_ok;
    for (size_t k = 0; k < n; k++) {
        unsigned char c = (unsigned char)s[k];
        if (c == 27 && k + 1 < n && s[k + 1] == '[') {
            for (k += 2; k < n && !((unsigned char)s[k] >= 0x40 && (unsigned char)s[k] <= 0x7e); k++)
                ;
            noise = true;
        } else if (c < 0x20 || c == 0x7f) {
            noise = true;
        } else if (c == '[' && k + 4 < n && !memcmp(s + k, "[20", 3) && s[k + 4] == '~') {
            k += 4;
            noise = true;
        } else if (c != ' ') {
            return false;
        }
    }
    return noise;
}

/* A line that is only transcript role prefixes, then blanks, a comment or a
 * closer line (`[user] `, `[tool] \x7f`, `[user] ```')? */
static bool prefixed_tail_line(const mt_line *l)
{
    const char *s = l->s;
    size_t n = l->len, r0 = n;
    for (size_t r; (r = mt_role_prefix(s, n));)
        for (s += r, n -= r; n && *s == ' ';)
            s++, n--;
    if (n == r0)
        return false;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\r'))
        n--;
    if (n == 0 || s[0] == '#')
        return true;
    mt_line t = *l;
    t.s = s;
    t.len = n;
    t.indent = 0;
    return tail_closer_line(&t);
}

static bool ends_with_marker(const mf_op_ctx *ctx)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return true;
    size_t i = ls.n;
    /* closer lines after the marker (noise, `</yaml>`) hide no closer: a second one is still a second document;
     * nor does a transcript role prefix a later op put on them (`[user] ` alone, `[user] ```') */
    while (i > 0 && (ls.v[i - 1].blank || ls.v[i - 1].comment || tail_closer_line(&ls.v[i - 1]) ||
                     prefixed_tail_line(&ls.v[i - 1])))
        i--;
    bool marker = false;
    if (i > 0 && ls.v[i - 1].indent == 0) {
        /* past a transcript role prefix a later op put there (`[user] ---` is still the closer core reads) */
        const char *s = ls.v[i - 1].s;
        size_t n = ls.v[i - 1].len;
        for (size_t r; (r = mt_role_prefix(s, n));)
            for (s += r, n -= r; n && *s == ' ';)
                s++, n--;
        marker = n >= 3 && !memcmp(s, "---", 3) &&
                 (n == 3 || s[3] == ' ' || s[3] == '\r' || noise_only(s + 3, n - 3, true)); /* `---` + inline noise */
    }
    mt_lines_free(&ls);
    return marker;
}

int mt_op_yaml_front_matter_closer(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || ctx->len == 0 || ends_with_marker(ctx))
        return 0;
    static const char *const closer[] = {"---\n", "---\n\n", "---", "--- # end of front matter\n"};
    /* no opener above a transcript role prefix (`[assistant/gpt-4o] refinement:`): the prefix
     * starts the transcript's line, a `---` before it is inside no line core strips (run 7 638f1c87) */
    bool opener = mt_rand(ctx, 2) == 0 && !(ctx->len >= 3 && memcmp(ctx->text, "---", 3) == 0) &&
                  !mt_role_prefix(ctx->text, ctx->len);
    mt_buf b = {0};
    int e = (opener ? mt_puts(&b, "---\n") : 0) | mt_put(&b, ctx->text, ctx->len) |
            (ctx->text[ctx->len - 1] != '\n' ? mt_putc(&b, '\n') : 0) | mt_puts(&b, closer[mt_rand(ctx, 4)]);
    int rc = mt_ctx_commit(ctx, &b, e);
    ctx->prose_key = rc == 1;   /* a later wrapper indents the markers into the artifact: text, no marker */
    return rc;
}

int mt_op_yaml_block_header_comment(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t sites[256], m = 0;
    for (size_t i = 0; i < ls.n && m < 256; i++)
        if (!ls.v[i].block_body && mt_line_block_indicator(&ls.v[i]))
            sites[m++] = i;
    int rc = 0;
    if (m) {
        static const char *const note[] = {"# see below", "#  - [ ] todo", "#note"};
        const mt_line *l = &ls.v[sites[mt_rand(ctx, m)]];
        const char *v;
        size_t n = mt_line_value(l, &v);
        mt_buf b = {0};
        int e = mt_put(&b, l->s, (size_t)(v - l->s) + n) | mt_puts(&b, note[mt_rand(ctx, 3)]);
        rc = e ? -1 : mt_replace_line(ctx, &ls, (size_t)(l - ls.v), b.s, b.len);
        mt_free(&b);
    }
    mt_lines_free(&ls);
    return rc;
}
