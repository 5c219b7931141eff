/* yaml_repair_quotes.c - repairs of scalar values: quoting and escapes.
 *
 * Each rule here looks at one value position (after `key: ` or after a
 * sequence dash) and rewrites that value only:
 *   yaml.invalid-escape (#11)        "a\+b"          -> "a\\+b"
 *   yaml.unclosed-quote (#12)        key: "abc       -> key: "abc"   (next line starts a new element;
 *                                    'abc likewise, when no other ' is on its line)
 *   yaml.inner-quotes                "say "hi" now"  -> "say \"hi\" now"  (quote, text, quote: the
 *                                    first token closes against text; single-line values)
 *   yaml.unclosed-flow               tags: [a, b     -> tags: [a, b]  (next line starts a new element)
 *   yaml.quoted-fragment (#13a)      "pink" is ok    -> "\"pink\" is ok"
 *   yaml.quoted-block-indicator (#13b) key: "|-"     -> key: |-       (an indented body follows)
 *   yaml.type-union (#14)            "a" | "b"       -> "\"a\" | \"b\""
 *   yaml.reserved-indicator (#15)    `x` or @x       -> "`x`" / "@x"; also |text, >-text (not a
 *                                    block header) and **bold** (not an alias)
 *   yaml.free-text (#8)              free-text keys: plain values that YAML would misread are
 *                                    quoted; multi-line single-quoted values become |- blocks
 *   yaml.quoted-hash                 x 'a # b'       -> "x 'a # b'"  (the hash sits in quotes)
 *   yaml.plain-colon (#5)            a: b: c         -> a: "b: c"
 * A quoted replacement is a double-quoted scalar whose value is the visible
 * text (a plain scalar's continuation lines folded the way YAML folds them).
 * Block scalar bodies and the continuation lines of an open quoted
 * value are skipped, and so are the lines yaml.block-body-indent (a later
 * group) moves into a body written too far left (yr_fallen_body_line), and
 * the body under a quoted header that yaml.quoted-block-indicator restores. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "yaml_repair.h"

static const char MSG_QUOTED[] = "Repaired improperly quoted YAML scalar value.";
#define NO_HEADER ((size_t)-1)

static size_t parent_col(const yr_entry *e);
static size_t next_nonblank(const yr_doc *d, size_t i);

/* True when line i's value is a block header in quotes, once or doubled (`"|"`,
 * `''|-''`), with only blanks or a comment after it and a deeper line next: what
 * yaml.quoted-block-indicator (after yaml.doubled-quotes) turns back into a
 * header. The deeper lines are its body, so the rules before it leave them alone. */
static bool quoted_block_header(const yr_doc *d, size_t i, const yr_entry *e)
{
    if (!yr_entry_valued(e) || !(d->l[i].flags & YR_QUOTED_BLOCK))
        return false;
    size_t k = next_nonblank(d, i);
    return k < d->count && mf_line_indent((mf_line){d->l[k].s, d->l[k].n}) > parent_col(e);
}

static size_t fix_unclosed(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                           mf_warnings *w);

/* True when every lone '\r' of line l comes after its value's opening quote at
 * val and what each one starts is text: no `key:`, `: `, ` #`, `- ` or `#`, so
 * YAML reads it as more of the quoted value (`generated_at: "2026\r01-14`,
 * run 6 17fc92a0) and closing the quote at the line's end joins no entry. */
static bool cr_parts_are_text(const yr_line *l, size_t val)
{
    size_t n = l->n;
    if (n > 0 && l->s[n - 1] == '\r')
        n--;
    for (size_t j = 0; j < n; j++) {
        if (l->s[j] != '\r')
            continue;
        if (j < val)
            return false;
        size_t a = j + 1, b = a;
        while (a < n && (l->s[a] == ' ' || l->s[a] == '\t'))
            a++;
        while (b < n && l->s[b] != '\r')
            b++;
        if (a < b && (l->s[a] == '#' || (l->s[a] == '-' && (a + 1 == b || l->s[a + 1] == ' '))))
            return false;
        if (b > a && l->s[b - 1] == ':')
            return false;
        for (size_t k = a; k + 1 < b; k++)
            if ((l->s[k] == ':' && (l->s[k + 1] == ' ' || l->s[k + 1] == '\t')) ||
                ((l->s[k] == ' ' || l->s[k] == '\t') && l->s[k + 1] == '#'))
                return false;
    }
    return true;
}

/* A '#' glued to the closing quote of a quoted scalar inside a flow collection (`[{""#c`):
 * the column of the opening quote and of the '#' plus 1 (0: none on the line). */
typedef struct { uint32_t q, hash; bool flow; } flow_glue;
static size_t put_flow_glued(yr_out *o, const yr_doc *d, size_t i, const flow_glue *g, mf_warnings *w);

/* Line i as written, or with its glued comment split off when g names one (then 1, a change). */
static size_t put_as_is(yr_out *o, const yr_doc *d, size_t i, const flow_glue *g, mf_warnings *w)
{
    if (!g) {
        yr_put_line(o, &d->l[i]);
        return 0;
    }
    put_flow_glued(o, d, i, g, w);
    yr_flush(o);
    return 1;
}

/* yr_run_line_rule; where g (one per line, may be NULL) names a glued comment in a flow
 * line, that line is written by put_flow_glued instead of fn. */
static size_t run_lines(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w, yr_line_fix fn,
                        uint16_t kinds, const flow_glue *g);

size_t yr_run_line_rule(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w, yr_line_fix fn,
                        uint16_t kinds)
{
    return run_lines(d, out, p, w, fn, kinds, NULL);
}

static size_t run_lines(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w, yr_line_fix fn,
                        uint16_t kinds, const flow_glue *g)
{
    yr_out o = {.b = out, .d = d};
    yr_skip sk = {{0}, 0};
    size_t changes = 0, hdr = NO_HEADER; /* the column of the last block header's key */
    bool left = false;                    /* a line after it fell to or left of hdr */
    unsigned char *root = malloc(d->count + 1);
    if (!root)
        return 0;
    yr_root_plain_mark(d, root);
    /* the later lines of a flow collection closed on a later line are its members, no
     * entries (`needs: {` + `os: linux, arch: [x64, arm]}`; run 37 9e1f11d6-r3ad00f09) */
    uint32_t *fend = memchr(d->text, '{', d->len) || memchr(d->text, '[', d->len)
                         ? malloc((d->count + 1) * sizeof *fend)
                         : NULL;
    if (fend)
        yr_flow_ends(d, fend);
    size_t flow_end = 0; /* the line after the flow open on an earlier line (0: none) */
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        /* a glued comment the scanner found on a line no rule reads as an entry (the last
         * line of a multi-line quoted scalar, a document marker's line): that line alone */
        bool glued_text = g && g[i].hash && !(d->cr && memchr(l->s, '\r', l->n));
        bool in_flow = i < flow_end;
        if (fend && fend[i] && fend[i] >= flow_end)
            flow_end = fend[i] + 1;
        if (yr_skip_line(&sk, l) || root[i] || in_flow) { /* root[i]: text of a root plain scalar */
            changes += put_as_is(&o, d, i, glued_text ? &g[i] : NULL, w);
            continue;
        }
        if (hdr != NO_HEADER && !mf_line_blank((mf_line){l->s, l->n})) {
            size_t ind = mf_line_indent((mf_line){l->s, l->n});
            if ((ind <= hdr || left) && !(l->flags & YR_INERT) && yr_fallen_body_line(d, i, left)) {
                /* text of a block body written too far left: yaml.block-body-indent moves it
                 * into the body, where a rewrite made here would be read as text */
                left = true;
                yr_put_line(&o, l);
                continue;
            }
            if (ind <= hdr || left)
                hdr = NO_HEADER;
        }
        if (l->flags & YR_INERT) {
            changes += put_as_is(&o, d, i, glued_text ? &g[i] : NULL, w);
            continue;
        }
        if (l->flags & YR_OPENS_BLOCK) {
            yr_entry h = yr_entry_at(d, i);
            hdr = h.key ? h.key_s : h.dash, left = false;
        }
        yr_entry e = yr_entry_at(d, i);
        /* a quoted block header's body is left alone, whatever fn does with the header */
        const yr_block qh = {quoted_block_header(d, i, &e), parent_col(&e), 0};
        bool glued = g && g[i].hash;
        if (kinds && !(l->flags & kinds) && !glued) { /* fn would return 0 */
            yr_put_line(&o, l);
            yr_skip_note_line(&sk, d, i);
            if (qh.active)
                sk.blk = qh;
            continue;
        }
        /* where fn's line starts: its first write flushes the pending lines (a
         * fn that returns 0 writes nothing, so unchanged lines stay one span) */
        size_t at = o.b->len + o.pend_n;
        /* a lone '\r' inside the line is a YAML line break this model does not split at:
         * rewriting the value would join the line after it into the value */
        bool lone_cr = d->cr && memchr(l->s, '\r', l->n) != NULL &&
                       !(fn == fix_unclosed && e.val < l->n && cr_parts_are_text(l, e.val));
        size_t next = glued && !lone_cr                                  ? put_flow_glued(&o, d, i, &g[i], w)
                      : yr_entry_valued(&e) && e.val < e.end && !lone_cr ? fn(&o, d, i, &e, p, w)
                                                                         : 0;
        if (!next) {
            yr_put_line(&o, l);
            yr_skip_note_line(&sk, d, i);
            if (qh.active)
                sk.blk = qh;
            continue;
        }
        changes++;
        yr_flush(&o);
        if (!o.oom && next == i + 1) {
            const char *s = o.b->s + at, *nl = memchr(s, '\n', o.b->len - at);
            size_t n = nl ? (size_t)(nl - s) : o.b->len - at;
            yr_skip_note(&sk, s, n > 0 && s[n - 1] == '\r' ? n - 1 : n);
            if (qh.active)
                sk.blk = qh;
        } else {
            sk = (yr_skip){{0}, 0};
        }
        i = next - 1;
    }
    free(root);
    free(fend);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* Column a value's continuation or body lines must be deeper than. */
static size_t parent_col(const yr_entry *e) { return e->key ? e->key_s : e->dash; }

/* Index of the next non-blank line after i, or d->count. */
static size_t next_nonblank(const yr_doc *d, size_t i)
{
    for (size_t k = i + 1; k < d->count; k++)
        if (!mf_line_blank((mf_line){d->l[k].s, d->l[k].n}))
            return k;
    return d->count;
}

/* Offset of a comment (` #`) in plain text s[from, end), or end; quoted runs
 * are skipped when `quotes` is set. The value then ends before the blanks
 * ahead of the '#' (see yr_value_end). */
static size_t comment_at(const char *s, size_t from, size_t end, bool quotes)
{
    if (!quotes) { /* the first '#' after a blank */
        for (size_t j = from; j < end; j++) {
            const char *h = memchr(s + j, '#', end - j);
            if (!h)
                return end;
            j = (size_t)(h - s);
            if (j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t'))
                return j;
        }
        return end;
    }
    for (size_t j = from; j < end; j++) {
        if (quotes && (s[j] == '"' || s[j] == '\'') && (j == from || s[j - 1] == ' ' || s[j - 1] == '\t')) {
            size_t q = yr_quote_end(s, end, j);
            if (q)
                j = q - 1;
            continue;
        }
        if (s[j] == '#' && j > 0 && (s[j - 1] == ' ' || s[j - 1] == '\t')) /* `key: # c` too */
            return j;
    }
    return end;
}

/* End of the value text of e on line l: before a trailing comment, blanks trimmed. */
size_t yr_value_end(const yr_line *l, const yr_entry *e, bool quotes)
{
    size_t c = comment_at(l->s, e->val, e->end, quotes);
    while (c > e->val && (l->s[c - 1] == ' ' || l->s[c - 1] == '\t'))
        c--;
    return c;
}

/* The last line of a plain value starting on line i: its continuation lines
 * are the following non-blank lines deeper than col (blank lines between them
 * included). A comment ends a plain scalar: a first line with a comment has
 * no continuation, and a continuation line holding one is the last (its
 * comment is not part of the value: yr_put_quoted leaves it out). */
static size_t plain_last(const yr_doc *d, size_t i, size_t col)
{
    const yr_line *first = &d->l[i];
    yr_entry fe = yr_entry_at(d, i);
    if (yr_value_end(first, &fe, false) < fe.end)
        return i;
    size_t last = i;
    for (size_t k = next_nonblank(d, i); k < d->count; k = next_nonblank(d, k)) {
        const yr_line *l = &d->l[k];
        size_t ind = mf_line_indent((mf_line){l->s, l->n});
        if (ind <= col || l->s[ind] == '#' || (yr_entry_at(d, k).key && !(l->flags & YR_CONT)))
            break;
        last = k;
        if (comment_at(l->s, ind, l->n, false) < l->n)
            break;
    }
    return last;
}

/* Write line i with its value [e->val, vend) replaced by a double-quoted scalar
 * (what follows vend, such as a comment, stays after it); continuation lines
 * up to `last` are folded in (one space per line break, "\n" per blank line).
 * Returns last + 1. */
size_t yr_put_quoted(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, size_t vend, size_t last)
{
    const yr_line *l = &d->l[i];
    yr_put(o, l->s, e->val);
    if (last == i) {
        yr_put_dq(o, l->s + e->val, vend - e->val);
    } else {
        mf_buf text = {0};
        mf_buf_put(&text, l->s + e->val, vend - e->val);
        size_t blanks = 0;
        for (size_t k = i + 1; k <= last; k++) {
            const char *s = d->l[k].s;
            size_t n = comment_at(s, 0, d->l[k].n, false);
            while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
                n--;
            while (n > 0 && (*s == ' ' || *s == '\t'))
                s++, n--;
            if (n == 0) {
                blanks++;
                continue;
            }
            if (blanks)
                while (blanks)
                    mf_buf_putc(&text, '\n'), blanks--;
            else
                mf_buf_putc(&text, ' ');
            mf_buf_put(&text, s, n);
        }
        yr_put_dq(o, mf_buf_cstr(&text), text.len);
        if (text.len == 0 && e->end > e->val)
            o->oom = true;
        mf_buf_free(&text);
    }
    if (vend < l->n)
        yr_put(o, l->s + vend, l->n - vend);
    yr_endl(o, YR_EOL(l));
    return last + 1;
}

/* ---- yaml.invalid-escape ---- */

static bool hex_run(const char *s, size_t n, size_t i, size_t k)
{
    if (i + k > n)
        return false;
    for (size_t j = i; j < i + k; j++)
        if (!strchr("0123456789abcdefABCDEF", s[j]) || s[j] == '\0')
            return false;
    return true;
}

/* True when the escape whose letter is s[i] is valid YAML. */
static bool escape_ok(const char *s, size_t n, size_t i)
{
    char c = s[i];
    if (c == 'x')
        return hex_run(s, n, i + 1, 2);
    if (c == 'u')
        return hex_run(s, n, i + 1, 4);
    if (c == 'U')
        return hex_run(s, n, i + 1, 8);
    return c != '\0' && strchr("0abt\tnvfre \"/\\N_LP", c) != NULL;
}

/* True when the line after i (skipping blank lines, and comment lines: a
 * comment is never folded into the value) clearly starts a new element
 * relative to column col: end of input, a list item, a key (glued `key:value`
 * too, yaml.colon-space's) or a bare tag line (`<br/>`, a wrapper yaml.xml-tag-lines cuts) at or left of col, a
 * code fence or a document marker. */
static bool next_is_structural(const yr_doc *d, size_t i, size_t col)
{
    size_t k = next_nonblank(d, i);
    while (k < d->count && d->l[k].s[mf_line_indent((mf_line){d->l[k].s, d->l[k].n})] == '#')
        k = next_nonblank(d, k);
    if (k >= d->count)
        return true;
    const yr_line *l = &d->l[k];
    size_t ind = mf_line_indent((mf_line){l->s, l->n});
    const char *s = l->s + ind;
    size_t n = l->n - ind;
    if (n >= 3 && memcmp(s, "```", 3) == 0)
        return true;
    if ((l->flags & YR_INERT))
        return true;
    if (s[0] == '-' && (n == 1 || s[1] == ' '))
        return true;
    yr_entry e = yr_entry_at(d, k);
    return (e.key || yr_bare_tag_line(l) || yr_glued_entry_line(d, k)) && ind <= col;
}

/* Copy s[from, n) escaping invalid backslashes inside a double-quoted scalar
 * that is open at `from`; stops after the closing quote. Sets *closed. */
static size_t fix_dq_run(yr_out *o, const char *s, size_t n, size_t from, bool *closed, size_t *fixed)
{
    size_t i = from, run = from;
    *closed = false;
    while (i < n) {
        if (s[i] == '\\') {
            if (i + 1 < n && !escape_ok(s, n, i + 1)) {
                yr_put(o, s + run, i + 1 - run);
                yr_put(o, "\\", 1);
                run = i + 1;
                (*fixed)++;
            }
            i += 2;
            continue;
        }
        if (s[i] == '"') {
            *closed = true;
            i++;
            break;
        }
        i++;
    }
    if (i > n)
        i = n;
    yr_put(o, s + run, i - run);
    return i;
}

/* Copy a flow collection value, fixing escapes in its double-quoted items. */
static void fix_flow(yr_out *o, const char *s, size_t n, size_t from, size_t *fixed)
{
    size_t i = from, run = from;
    char prev = '[';
    while (i < n) {
        char c = s[i];
        if ((c == '"' || c == '\'') && strchr("[{,:", prev)) {
            if (c == '\'') {
                size_t q = yr_quote_end(s, n, i);
                if (!q)
                    break;
                i = q;
                prev = '\'';
                continue;
            }
            yr_put(o, s + run, i + 1 - run);
            bool closed;
            i = fix_dq_run(o, s, n, i + 1, &closed, fixed);
            run = i;
            if (!closed)
                return;
            prev = '"';
            continue;
        }
        if (c != ' ' && c != '\t')
            prev = c;
        i++;
    }
    yr_put(o, s + run, n - run);
}

/* Does text other than a comment follow the double-quoted scalar opened at
 * `at` on its line ('"a" | "b"', '"x" more')? Then it is no whole scalar. */
static bool fragment_follows(const char *s, size_t end, size_t at)
{
    size_t q = yr_quote_end(s, end, at);
    if (!q)
        return false;
    size_t r = q;
    while (r < end && (s[r] == ' ' || s[r] == '\t' || s[r] == '\r'))
        r++;
    return r < end && !(s[r] == '#' && r > q);
}

size_t yr_fix_invalid_escape(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    bool in_dq = false;
    size_t changes = 0, open_col = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        size_t fixed = 0;
        if (in_dq) {
            bool closed;
            size_t k = fix_dq_run(&o, l->s, l->n, 0, &closed, &fixed);
            yr_put(&o, l->s + k, l->n - k);
            in_dq = !closed && !next_is_structural(d, i, open_col);
        } else if (yr_block_body(&blk, l) || (l->flags & YR_INERT)) {
            yr_put(&o, l->s, l->n);
        } else {
            yr_entry e = yr_entry_at(d, i);
            yr_block_note_line(&blk, d, i);
            const char *s = l->s;
            if (yr_entry_valued(&e) && e.val < e.end && s[e.val] == '"' && fragment_follows(s, e.end, e.val)) {
                /* `"epi\c" | "user_story"`: the quotes are text of a value yaml.type-union
                 * (or yaml.quoted-fragment) quotes whole, backslashes as written (run 6 e75f742d) */
                yr_put(&o, s, l->n);
            } else if (yr_entry_valued(&e) && e.val < e.end && s[e.val] == '"') {
                yr_put(&o, s, e.val + 1);
                bool closed;
                size_t k = fix_dq_run(&o, s, l->n, e.val + 1, &closed, &fixed);
                yr_put(&o, s + k, l->n - k);
                open_col = parent_col(&e);
                in_dq = !closed && !next_is_structural(d, i, open_col);
            } else if (yr_entry_valued(&e) && e.val < e.end && (s[e.val] == '[' || s[e.val] == '{')) {
                yr_put(&o, s, e.val + 1);
                fix_flow(&o, s, e.end, e.val + 1, &fixed);
                yr_put(&o, s + e.end, l->n - e.end);
            } else {
                yr_put(&o, s, l->n);
            }
        }
        yr_endl(&o, YR_EOL(l));
        if (fixed) {
            mf_warnings_add(w, MF_RULE_ID(YAML_INVALID_ESCAPE), yr_lineno(i),
                            "Escaped invalid YAML double-quoted scalar backslash sequences before reparsing.");
            changes++;
        }
    }
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.unclosed-quote ---- */

/* True when non-blank line k starts an element at or left of column col: a
 * key (glued `key:value` too), list item or bare tag line there, a document marker or a code fence. */
static bool starts_element(const yr_doc *d, size_t k, size_t col)
{
    const yr_line *l = &d->l[k];
    size_t ind = mf_line_indent((mf_line){l->s, l->n});
    const char *s = l->s + ind;
    size_t n = l->n - ind;
    if ((n >= 3 && memcmp(s, "```", 3) == 0) || ((l->flags & YR_INERT) && s[0] != '#'))
        return true;
    if (ind > col)
        return false;
    return (s[0] == '-' && (n == 1 || s[1] == ' ')) || yr_entry_at(d, k).key || yr_bare_tag_line(l) ||
           yr_glued_entry_line(d, k);
}

/* The last line of a value quoted with q opened on line i that no later line
 * closes: its continuation lines (deeper than col) run to the next element at
 * or left of col (or the end); (size_t)-1 when one of them holds a quote (a
 * value written over several lines that closes) or text sits at col or left.
 * Backslashes escape only in double quotes. */
static size_t q_run_end(const yr_doc *d, size_t i, size_t col, char q)
{
    size_t last = i;
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        if (mf_line_blank((mf_line){l->s, l->n}))
            continue;
        if (l->s[mf_line_indent((mf_line){l->s, l->n})] == '#') /* a comment ends the run, text after it is no value */
            return next_is_structural(d, k, col) ? last : (size_t)-1;
        if (starts_element(d, k, col))
            break;
        if (mf_line_indent((mf_line){l->s, l->n}) <= col)
            return (size_t)-1; /* text at the key's column: no continuation line, the end is unknown */
        for (size_t j = 0; j < l->n; j++) {
            if (l->s[j] == '\\' && q == '"')
                j++;
            else if (l->s[j] == q)
                return (size_t)-1;
        }
        last = k;
    }
    return last;
}

/* Append the closing quote q to the text s[0, end) of a line whose value is
 * an open quoted scalar (in double quotes, an odd run of backslashes before
 * it stays text). */
static void close_q(yr_out *o, const char *s, size_t end, size_t from, char q)
{
    size_t bs = 0;
    while (q == '"' && end > from + bs && s[end - 1 - bs] == '\\')
        bs++;
    yr_put(o, s, end);
    if (q == '\'')
        yr_put(o, "'", 1);
    else if (bs % 2)
        yr_put(o, "\\\"", 2);
    else
        yr_put(o, "\"", 1);
}

/* True when YAML's own reading of the value quoted with q opened on line i
 * holds together: the first quote after that line closes it as the last
 * character of its line (`a: "` / `b: 'c"`), a comment aside, so the value
 * spans those lines.
 * A single quote that opens the value of its own line (`o: '`) is that
 * line's opener, which this rule closes in the same pass (the line model
 * tracks open double quotes only, so that line is not skipped as text). */
static bool q_closes_at_line_end(const yr_doc *d, size_t i, char q)
{
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        for (size_t j = 0; j < l->n; j++) {
            if (l->s[j] == '\\' && q == '"')
                j++;
            else if (l->s[j] == q) {
                yr_entry e = yr_entry_at(d, k);
                /* ... but a lone quote ending the line (`  - '`) opens nothing it could close
                 * later: it is the closing quote YAML reads there (run 39 e703b8d3-rc442e3f9) */
                if (q == '\'' && yr_entry_valued(&e) && e.val == j && e.end != j + 1)
                    return false;
                /* a comment may follow, after blanks or glued to the quote (`text: "#"` after
                 * `text: "`: the loader reads `#"` after the closing quote as a comment) */
                size_t r = j + 1;
                while (r < l->n && (l->s[r] == ' ' || l->s[r] == '\t'))
                    r++;
                return r == l->n || l->s[r] == '#' || mf_line_blank((mf_line){l->s + r, l->n - r});
            }
        }
    }
    return false;
}

/* True when YAML's own reading of the value quoted with q opened on line i, a
 * block entry whose collection sits at col, loads: the first quote after that
 * line closes it as the last character of its line (q_closes_at_line_end), and
 * no line it runs over (up to that quote) reads as an entry at or left of col,
 * which the loader rejects (QB6E). A line such as ` L question: no RTL locale
 * is planned."`, words before a colon, is text of the value for the loader:
 * the value holds together and another line is what failed (run 9 28d9b3c4). */
static bool q_reading_loads(const yr_doc *d, size_t i, size_t col, char q)
{
    if (!q_closes_at_line_end(d, i, q))
        return false;
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        size_t ind = mf_line_indent((mf_line){l->s, l->n}), z = l->n;
        bool closes = false;
        for (size_t j = 0; j < l->n; j++) {
            if (l->s[j] == '\\' && q == '"') {
                j++;
            } else if (l->s[j] == q) {
                z = j, closes = true;
                break;
            }
        }
        if (ind <= col && ind < z && mf_yaml_entry_shaped(l->s + ind, z - ind))
            return false;
        if (closes)
            return true;
    }
    return false;
}

/* The property column of an item written on its parent's line (`items: - id: Q`,
 * line k, entry ke) as yaml.inline-sequence-parent takes it: the key column of
 * the first sibling dash after line i left of col; (size_t)-1 when none. */
static size_t inline_item_col(const yr_doc *d, size_t k, const yr_entry *ke, size_t i, size_t col)
{
    const yr_line *pl = &d->l[k];
    if (!ke->key || ke->val + 1 >= ke->end || pl->s[ke->val] != '-' || pl->s[ke->val + 1] != ' ')
        return (size_t)-1;
    for (size_t n = next_nonblank(d, i); n < d->count; n = next_nonblank(d, n)) {
        if (d->l[n].flags & YR_INERT)
            continue;
        yr_entry ne = yr_entry_at(d, n);
        if (ne.indent >= col)
            continue;
        return ne.dashes == 1 && ne.key ? ne.key_s : (size_t)-1;
    }
    return (size_t)-1;
}

/* Is the next content line after property line i (entry e, no dash) a key at
 * the content column of the list item i belongs to, while i itself sits 1-2
 * columns off it (`- id: a` / `   title: "x` / `    description: y`)? That
 * line is the item's next property, not the text of i's open quote. An item
 * on its parent's line (`items: - id: Q`) has the column its sibling sets. */
static bool next_is_item_property(const yr_doc *d, size_t i, const yr_entry *e)
{
    if (!e->key || e->dashes)
        return false;
    size_t col = e->key_s, item = (size_t)-1;
    for (size_t k = i; k-- > 0;) {
        if (d->l[k].flags & YR_INERT)
            continue;
        yr_entry ke = yr_entry_at(d, k);
        if (ke.dashes && ke.key && ke.indent < col) {
            item = ke.key_s;
            break;
        }
        if (!ke.dashes && ke.indent < col && (item = inline_item_col(d, k, &ke, i, col)) != (size_t)-1)
            break;
        if (ke.indent + 2 < col || ke.dashes)
            return false;
    }
    size_t n = next_nonblank(d, i);
    if (item == (size_t)-1 || item == col || n >= d->count || (item > col ? item - col : col - item) > 2)
        return false;
    yr_entry ne = yr_entry_at(d, n);
    return ne.key && !ne.dashes && ne.indent == item;
}

static size_t fix_unclosed(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                           mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    char q = l->s[e->val];
    if ((q != '"' && q != '\'') || yr_quote_end(l->s, e->end, e->val))
        return 0;
    /* an open single quote runs on only when it is no apostrophe inside the value: `'tis` is text */
    if (q == '\'' && memchr(l->s + e->val + 1, '\'', e->end - e->val - 1))
        return 0;
    const char *kind = q == '"' ? "double" : "single";
    size_t col = parent_col(e);
    bool ends = next_is_structural(d, i, col) || next_is_item_property(d, i, e);
    size_t last = ends ? i : q_run_end(d, i, col, q);
    if (last == (size_t)-1 || last == i) {
        if (last == (size_t)-1 || !ends || q_closes_at_line_end(d, i, q))
            return 0;
        close_q(o, l->s, e->end, e->val + 1, q);
        yr_endl(o, YR_EOL(l));
        /* a fixed text per quote: a repeat joins the first without formatting */
        mf_warnings_add_text(w, MF_RULE_ID(YAML_UNCLOSED_QUOTE), yr_lineno(i),
                             q == '"' ? "Closed an unterminated YAML double-quoted value before reparsing (guessed "
                                        "that it ends at the end of its line)."
                                      : "Closed an unterminated YAML single-quoted value before reparsing (guessed "
                                        "that it ends at the end of its line).");
        return i + 1;
    }
    if (q_reading_loads(d, i, col, q))
        return 0;
    /* a lone quote after a key (`inspiration: '`) over deeper lines that are all entries of
     * that key's nested_children (`alternative_draft: m`, `id: Q`) is a stray quote before
     * its mapping, not a value that swallows them (run 7 61607f58); after a quote with text
     * (`inspiration: "anthro`) those lines are its mapping or that text's, and neither reading
     * keeps both: no guess (run 38 61607f58-rdc8c5abf) */
    const json_t *kids = e->key ? yr_children_of(p, l->s + e->key_s, e->key_e - e->key_s) : NULL;
    size_t kcol = (size_t)-1;
    for (size_t k = i + 1; kids && k <= last; k++) {
        if (d->l[k].flags & YR_INERT)
            continue;
        yr_entry ke = yr_entry_at(d, k);
        if (kcol == (size_t)-1)
            kcol = ke.indent;
        if (!ke.key || ke.dashes || ke.indent != kcol || kcol <= e->indent ||
            !yr_list_has(kids, d->l[k].s + ke.key_s, ke.key_e - ke.key_s))
            kids = NULL;
    }
    if (kids && kcol != (size_t)-1 && e->val + 1 < e->end)
        return 0;
    if (kids && kcol != (size_t)-1) {
        size_t ve = e->val;
        while (ve > 0 && (l->s[ve - 1] == ' ' || l->s[ve - 1] == '\t'))
            ve--;
        yr_put(o, l->s, ve);
        yr_endl(o, YR_EOL(l));
        mf_warnings_add(w, MF_RULE_ID(YAML_UNCLOSED_QUOTE), yr_lineno(i),
                        "Dropped a stray YAML %s quote after \"%.*s:\" (guessed that the deeper lines, all keys it "
                        "nests, are its mapping, not text of a value).", kind, (int)(e->key_e - e->key_s),
                        l->s + e->key_s);
        return i + 1;
    }
    for (size_t k = i; k < last; k++) {
        yr_put(o, d->l[k].s, d->l[k].n);
        yr_endl(o, YR_EOL(&d->l[k]));
    }
    const yr_line *z = &d->l[last];
    size_t end = z->n;
    while (end > 0 && (z->s[end - 1] == ' ' || z->s[end - 1] == '\t'))
        end--;
    close_q(o, z->s, end, 0, q);
    yr_endl(o, YR_EOL(z));
    mf_warnings_add(w, MF_RULE_ID(YAML_UNCLOSED_QUOTE), yr_lineno(i),
                    "Closed an unterminated YAML %s-quoted value at the end of line %d, its last line before "
                    "the next element (guessed; its lines are folded into one value).", kind, yr_lineno(last));
    return last + 1;
}

size_t yr_fix_unclosed_quote(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_unclosed, YR_OPENS_DQ | YR_OPENS_SQ);
}

/* ---- yaml.unclosed-flow ---- */

#define FLOW_MAX 32

/* Do the lines from k on close `depth` open flow levels (YAML's own reading
 * of a flow collection written over several lines, `limits: {` + `max: 1}`),
 * before a line no flow can hold (a list item, a fence, a document marker)
 * and within FLOW_LINES lines? Quoted scalars are skipped. */
#define FLOW_LINES 64
static bool flow_closes_later(const yr_doc *d, size_t k, size_t depth)
{
    for (size_t n = 0; k < d->count && n < FLOW_LINES; k++, n++) {
        const yr_line *l = &d->l[k];
        size_t ind = mf_line_indent((mf_line){l->s, l->n});
        const char *s = l->s;
        if ((ind + 1 < l->n && s[ind] == '-' && s[ind + 1] == ' ') || (l->flags & YR_INERT) ||
            (l->n >= ind + 3 && (memcmp(s + ind, "```", 3) == 0 || memcmp(s + ind, "---", 3) == 0)))
            return false;
        for (size_t j = ind; j < l->n; j++) {
            char c = s[j];
            if ((c == '"' || c == '\'') && (j == ind || strchr("[{,: ", s[j - 1]))) {
                size_t q = yr_quote_end(s, l->n, j);
                if (!q)
                    return false;
                j = q - 1;
            } else if (c == '#' && (j == ind || s[j - 1] == ' ')) {
                break;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                return true;
            }
        }
    }
    return false;
}

/* `tags: [a, b` or `opts: {x: 1, y: [2` at the end of its line, the next
 * line a new element: the closers still open are appended in order. At the
 * end of the text the line stays (it may be cut, its last item with it), and
 * so does a collection later lines close (flow_closes_later). Quoted
 * scalars inside are skipped; a mismatched closer, an unclosed quote or a
 * collection that closes before the value ends leaves the line alone. */
static size_t fix_unclosed_flow(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                                mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    const char *s = l->s;
    if (s[e->val] != '[' && s[e->val] != '{')
        return 0;
    size_t vend = yr_value_end(l, e, true), depth = 0;
    char want[FLOW_MAX];
    for (size_t j = e->val; j < vend; j++) {
        char c = s[j];
        if ((c == '"' || c == '\'') && strchr("[{,: ", s[j - 1])) {
            size_t q = yr_quote_end(s, vend, j);
            if (!q)
                return 0;
            j = q - 1;
        } else if (c == '[' || c == '{') {
            if (depth == FLOW_MAX)
                return 0;
            want[depth++] = c == '[' ? ']' : '}';
        } else if (c == ']' || c == '}') {
            if (!depth || want[depth - 1] != c || (--depth == 0 && j + 1 < vend))
                return 0;
        }
    }
    size_t k = next_nonblank(d, i);
    while (k < d->count && d->l[k].s[mf_line_indent((mf_line){d->l[k].s, d->l[k].n})] == '#')
        k = next_nonblank(d, k);
    /* at the end of the text the line may be cut (truncated output): its last item with it */
    if (!depth || k >= d->count || !next_is_structural(d, i, parent_col(e)) || flow_closes_later(d, k, depth))
        return 0;
    char close[FLOW_MAX];
    for (size_t k = 0; k < depth; k++)
        close[k] = want[depth - 1 - k];
    yr_put(o, s, vend);
    /* `[3, 4:` ends on an empty value: `4:]` is a ':' libyaml rejects inside a plain
     * scalar, `4: ]` the entry 4: null the text means (run 9 5e4327db-r47fd2db3) */
    if (s[vend - 1] == ':')
        yr_put(o, " ", 1);
    yr_put(o, close, depth);
    yr_put(o, s + vend, l->n - vend);
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_UNCLOSED_FLOW), yr_lineno(i),
                    "Closed a YAML flow collection left open at the end of its line (guessed that it ends there: "
                    "appended \"%.*s\").", (int)depth, close);
    return i + 1;
}

size_t yr_fix_unclosed_flow(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_unclosed_flow, 0);
}

/* ---- yaml.quoted-fragment and yaml.type-union ---- */

/* After a leading quoted token in the value: the first non-blank offset, or 0 when
 * the value is not a closed quoted token followed by more text before its end
 * *vend (a trailing comment is not part of the value and stays a comment). */
static size_t after_quoted(const yr_line *l, const yr_entry *e, size_t *vend)
{
    char c = l->s[e->val];
    if (c != '"' && c != '\'')
        return 0;
    size_t q = yr_quote_end(l->s, e->end, e->val);
    *vend = yr_value_end(l, e, true);
    /* `"x"#y`: the loader reads a comment right after the closing quote, as after a blank */
    if (!q || q >= *vend || l->s[q] == '#')
        return 0;
    size_t r = q;
    while (r < *vend && (l->s[r] == ' ' || l->s[r] == '\t'))
        r++;
    if (r >= *vend || (l->s[q] == ':' && (q + 1 == e->end || l->s[q + 1] == ' ')))
        return 0;
    return r;
}

/* ---- yaml.inner-quotes ---- */

/* `"he said "hi" today"`: the value [v, vend) starts and ends with the same
 * quote, its first quoted token closes against more text (no blank after the
 * closing quote) and the last quote is not that token's: the outer quotes
 * delimit one scalar whose inner quotes were not escaped. */
static bool outer_delimited(const char *s, size_t v, size_t vend)
{
    char q = s[v];
    size_t first = yr_quote_end(s, vend, v);
    if (!first || first >= vend || vend - 1 < first || s[vend - 1] != q)
        return false;
    if (s[first] == ' ' || s[first] == '\t' || s[first] == ',' || s[first] == ':' || s[first] == '#')
        return false;
    if (q == '"') {
        size_t bs = 0;
        while (vend - 2 - bs > v && s[vend - 2 - bs] == '\\')
            bs++;
        if (bs % 2)
            return false;
    }
    return true;
}

static size_t fix_inner_quotes(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                               mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    char q = l->s[e->val];
    if (q != '"' && q != '\'')
        return 0;
    size_t vend = yr_value_end(l, e, true);
    if (!outer_delimited(l->s, e->val, vend) || plain_last(d, i, parent_col(e)) != i)
        return 0;
    yr_put(o, l->s, e->val + 1);
    for (size_t k = e->val + 1; k < vend - 1; k++) {
        char c = l->s[k];
        if (q == '"' && c == '\\' && k + 1 < vend - 1) {
            yr_put(o, l->s + k, 2);
            k++;
        } else if (q == '\'' && (c == '\'' || c == '\\') && k + 1 < vend - 1 && l->s[k + 1] == '\'') {
            yr_put(o, "''", 2); /* '' or JSON-style \' : one apostrophe */
            k++;
        } else if (c == q) {
            yr_put(o, q == '"' ? "\\\"" : "''", 2);
        } else {
            yr_put(o, &c, 1);
        }
    }
    yr_put(o, l->s + vend - 1, l->n - (vend - 1));
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_INNER_QUOTES), yr_lineno(i),
                    "Escaped the inner quotes of a YAML scalar (guessed that the outer quotes of %.*s delimit "
                    "one value).", (int)(vend - e->val), l->s + e->val);
    return i + 1;
}

size_t yr_fix_inner_quotes(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_inner_quotes, YR_QUOTE_MORE);
}

static size_t fix_fragment(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                           mf_warnings *w)
{
    (void)p;
    size_t vend, r = after_quoted(&d->l[i], e, &vend);
    /* `"0000000":0` is a JSON-style key, no fragment: quoting it whole swallows the key (run 6 6db36337);
     * nor is `"Build it"},`, a flow member's value and its closer: quoted with its continuation
     * lines, the string swallows the next members (run 34 6db36337-r028426a3) */
    if (!r || strchr("|,:}]", d->l[i].s[r]))
        return 0;
    size_t last = vend < e->end ? i : plain_last(d, i, parent_col(e));
    mf_warnings_add(w, MF_RULE_ID(YAML_QUOTED_FRAGMENT), yr_lineno(i),
                    "Quoted a YAML value that starts with a quoted fragment followed by more text (guessed that "
                    "%.*s%s is one string, its quotes kept as text).",
                    (int)(vend - e->val), d->l[i].s + e->val, last > i ? " and its continuation lines" : "");
    return yr_put_quoted(o, d, i, e, vend, last);
}

size_t yr_fix_quoted_fragment(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_fragment, YR_QUOTE_MORE);
}

static size_t fix_union(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                        mf_warnings *w)
{
    (void)p;
    size_t vend, r = after_quoted(&d->l[i], e, &vend);
    if (!r || d->l[i].s[r] != '|' || r + 1 >= vend)
        return 0;
    mf_warnings_add(w, MF_RULE_ID(YAML_TYPE_UNION), yr_lineno(i), "Quoted YAML type-union scalar values before reparsing.");
    return yr_put_quoted(o, d, i, e, vend, i);
}

size_t yr_fix_type_union(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_union, YR_QUOTE_MORE);
}

/* ---- yaml.quoted-block-indicator ---- */

static size_t fix_block_ind(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                            mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    char c = l->s[e->val];
    if (c != '"' && c != '\'')
        return 0;
    size_t q = yr_quote_end(l->s, e->end, e->val);
    if (!q || q - e->val < 3 || !yr_is_block_header(l->s + e->val + 1, q - e->val - 2))
        return 0;
    size_t r = q;
    while (r < e->end && (l->s[r] == ' ' || l->s[r] == '\t'))
        r++;
    if (r < e->end && !(l->s[r] == '#' && r > q))
        return 0;
    size_t k = next_nonblank(d, i);
    if (k >= d->count || mf_line_indent((mf_line){d->l[k].s, d->l[k].n}) <= parent_col(e))
        return 0;
    yr_put(o, l->s, e->val);
    yr_put(o, l->s + e->val + 1, q - e->val - 2);
    yr_put(o, l->s + q, l->n - q);
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_QUOTED_BLOCK_INDICATOR), yr_lineno(i), MSG_QUOTED);
    return i + 1;
}

size_t yr_fix_quoted_block_ind(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_block_ind, 0);
}

/* ---- yaml.block-header-comment ---- */

/* `key: |#text`: libyaml reads `#text` as a comment (YAML 1.2 requires a
 * blank before it and calls the line an error). The blank is added and the
 * warning names the text that is no part of the value. */
bool yr_header_glued_comment(const char *s, size_t n)
{
    size_t k = 1;
    if (n < 2 || (s[0] != '|' && s[0] != '>'))
        return false;
    while (k < n && k < 3 && (isdigit((unsigned char)s[k]) || s[k] == '+' || s[k] == '-'))
        k++;
    return k < n && s[k] == '#';
}

/* `key: 'text'#more`: a quoted scalar closed on the line with a '#' right
 * after its closing quote. libyaml reads `#more` as a comment, like a glued
 * header's (YAML 1.2: an error). Returns the column of the '#', or 0. */
static size_t quote_glued_comment(const yr_line *l, const yr_entry *e)
{
    if (e->val >= e->end || (l->s[e->val] != '"' && l->s[e->val] != '\''))
        return 0;
    size_t q = yr_quote_end(l->s, e->end, e->val);
    return q && q < e->end && l->s[q] == '#' ? q : 0;
}

/* Line i with a blank before its '#' at column k, and the warning that YAML
 * reads the text from there as a comment, right after `what` (the token
 * [e->val, k), shown between open and close). */
static size_t split_glued_comment(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, size_t k,
                                  const char *what, const char *open, const char *close, mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    yr_put(o, l->s, k);
    yr_put(o, " ", 1);
    yr_put(o, l->s + k, l->n - k);
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_BLOCK_HEADER_COMMENT), yr_lineno(i),
                    "Read '%.*s' right after the %s %s%.*s%s as a comment, as YAML readers do "
                    "(YAML 1.2 wants a blank before '#'): that text is not part of the value.",
                    (int)(e->end - k), l->s + k, what, open, (int)(k - e->val), l->s + e->val, close);
    return i + 1;
}

static size_t fix_header_comment(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                                 mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    if (!yr_entry_valued(e))
        return 0;
    size_t k = quote_glued_comment(l, e);
    if (k)
        return split_glued_comment(o, d, i, e, k, "quoted scalar", "", "", w);
    if (!yr_header_glued_comment(l->s + e->val, e->end - e->val))
        return 0;
    k = e->val + 1;
    while (l->s[k] != '#')
        k++;
    return split_glued_comment(o, d, i, e, k, "block scalar header", "'", "'", w);
}

/* The same inside a flow collection (`[{""#c` + `}]`, `tags: ["a"#b,` + `  c]`): libyaml
 * reads a '#' glued to a token's end as a comment there too, and the flow's lines are no
 * entries fix_header_comment sees. A flow starts at a line's value (or content) with '['
 * or '{' outside scalar text and runs over the following lines to its closing bracket;
 * a quote opens a scalar where a token starts (after '[', '{', ',' or ':'). Fills g[i]
 * for each line holding such a '#' (*g allocated on the first one); stops at a quoted
 * scalar left open on its line (a multi-line one: the scan gives up, the lines stay).
 * Returns how many lines hold one (0 on OOM). */
static size_t flow_glued_comments(const yr_doc *d, flow_glue **g)
{
    size_t depth = 0, found = 0;
    bool tok = false; /* a token may start here: a quote opens a quoted scalar */
    yr_block blk = {0};
    *g = NULL;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        const char *s = l->s;
        size_t j = 0;
        if (depth == 0) {
            if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_CONT)))
                continue;
            yr_block_note_line(&blk, d, i);
            const yr_entry e = yr_entry_at(d, i);
            j = yr_entry_valued(&e) ? e.val : e.content;
            if (j >= e.end || (s[j] != '[' && s[j] != '{'))
                continue;
        } else if ((l->flags & YR_INERT) && l->n >= 3 && (memcmp(s, "---", 3) == 0 || memcmp(s, "...", 3) == 0)) {
            depth = 0; /* a document marker ends the flow (libyaml: an error) */
            continue;
        }
        int prev = 0; /* what precedes s[j]: 0 a blank or the line's start, 1 an indicator, 2 a closing quote, 3 text */
        size_t qs = 0; /* the opening quote of the quoted scalar prev == 2 closes */
        for (; j < l->n; j++) {
            char c = s[j];
            if (c == ' ' || c == '\t') {
                prev = 0;
            } else if (c == '#') {
                if (prev == 2) {
                    if (!*g && !(*g = calloc(d->count, sizeof **g)))
                        return 0;
                    (*g)[i] = (flow_glue){(uint32_t)qs, (uint32_t)j + 1, true};
                    found++;
                }
                if (prev != 3)
                    break; /* a comment: the rest of the line */
            } else if ((c == '"' || c == '\'') && tok) {
                size_t q = yr_quote_end(s, l->n, j);
                if (!q)
                    return found;
                qs = j, j = q - 1, prev = 2, tok = false;
            } else if (c == '[' || c == '{') {
                depth++, prev = 1, tok = true;
            } else if (c == ']' || c == '}') {
                prev = 1, tok = false;
                if (depth > 0 && --depth == 0)
                    break; /* the flow ends: the rest of the line is the block's */
            } else if (c == ',' || c == ':') {
                prev = 1, tok = true;
            } else {
                prev = 3, tok = false;
            }
        }
    }
    return found;
}

/* flow_glue.q of a quoted scalar opened on an earlier line than its glued '#' */
#define NO_QUOTE_START ((uint32_t)-1)

/* Column of line l's first non-blank byte. */
static size_t first_text(const yr_line *l)
{
    size_t k = 0;
    while (k < l->n && (l->s[k] == ' ' || l->s[k] == '\t'))
        k++;
    return k;
}

bool yr_glues_comment(char c) { return c && strchr("\"'[]{},:?", c) != NULL; }

/* True when the text holds a quote or a flow indicator right before a '#' (`"#`, `'#`,
 * `]#`, `,#`), or a block scalar header's indicator (`>#`, `|-#`, `|2+#`). */
static bool glue_before_hash(const char *s, size_t n)
{
    for (const char *p = s; n > 1 && (p = memchr(p, '#', n - (size_t)(p - s))) != NULL; p++) {
        if (p > s && yr_glues_comment(p[-1]))
            return true;
        for (const char *h = p; h > s && h >= p - 3; h--) {
            if (h[-1] == '|' || h[-1] == '>')
                return true;
            if (!strchr("123456789+-", h[-1]))
                break;
        }
    }
    return false;
}

static size_t put_flow_glued(yr_out *o, const yr_doc *d, size_t i, const flow_glue *g, mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    size_t k = g->hash - 1, end = l->n;
    while (end > k && (l->s[end - 1] == ' ' || l->s[end - 1] == '\t'))
        end--;
    yr_put(o, l->s, k);
    yr_put(o, " ", 1);
    yr_put(o, l->s + k, l->n - k);
    yr_endl(o, YR_EOL(l));
    if (!g->flow && g->q != NO_QUOTE_START && (l->s[g->q] == '|' || l->s[g->q] == '>')) {
        mf_warnings_add(w, MF_RULE_ID(YAML_BLOCK_HEADER_COMMENT), yr_lineno(i),
                        "Read '%.*s' right after the block scalar header '%.*s' as a comment, as YAML readers do "
                        "(YAML 1.2 wants a blank before '#'): that text is not part of the value.",
                        (int)(end - k), l->s + k, (int)(k - g->q), l->s + g->q);
        return i + 1;
    }
    if (!g->flow && g->q != NO_QUOTE_START && l->s[g->q] != '"' && l->s[g->q] != '\'') {
        mf_warnings_add(w, MF_RULE_ID(YAML_BLOCK_HEADER_COMMENT), yr_lineno(i),
                        "Read '%.*s' right after the flow indicator '%c' as a comment, as YAML readers do "
                        "(YAML 1.2 wants a blank before '#'): that text is not part of the value.",
                        (int)(end - k), l->s + k, l->s[g->q]);
        return i + 1;
    }
    mf_warnings_add(w, MF_RULE_ID(YAML_BLOCK_HEADER_COMMENT), yr_lineno(i),
                    "Read '%.*s' right after the quoted scalar %s%.*s%s as a comment, as YAML "
                    "readers do (YAML 1.2 wants a blank before '#'): that text is not part of the value.",
                    (int)(end - k), l->s + k, g->q == NO_QUOTE_START ? "ending '" : "",
                    (int)(k - (g->q == NO_QUOTE_START ? first_text(l) : g->q)),
                    l->s + (g->q == NO_QUOTE_START ? first_text(l) : g->q),
                    g->flow ? " in a flow collection" : g->q == NO_QUOTE_START ? "'" : "");
    return i + 1;
}

/* Every quoted scalar libyaml's scanner closes right before a '#' (a root scalar `''#j`,
 * a quoted key `"a"#b: 1`, one after properties `&x 'v'#c`, the last line of a scalar
 * written over several lines `text: "` ... `  more"#x`): the scanner reads the '#' as a
 * comment whatever precedes it, so the text from there is lost. The lines' own scans
 * (fix_header_comment, flow_glued_comments) see a quote that opens a value on its line;
 * this one sees every quoted scalar the scanner reads before its first error. Fills
 * g[i] (first '#' of line i; *g allocated on the first one) where g[i] is empty. */
static void scan_glued_comments(const yr_doc *d, flow_glue **g)
{
    const unsigned char *t = (const unsigned char *)d->text;
    size_t len = d->len, at = 0, chars = 0, line = 0; /* byte offset `at` is character `chars` */
    if (len >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF)
        at = 3; /* the reader drops a BOM: marks count from after it */
    yaml_parser_t ps;
    if (!yaml_parser_initialize(&ps))
        return;
    yaml_parser_set_input_string(&ps, t, len);
    yaml_token_t tk;
    while (yaml_parser_scan(&ps, &tk)) {
        yaml_token_type_t type = tk.type;
        bool quoted = type == YAML_SCALAR_TOKEN &&
                      (tk.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                       tk.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        /* a block scalar's header with a '#' glued to it (a root `>#m`, `&a |-#x`): the
         * scanner reads that '#' as a comment too (run 10 97b0a31e-r1a0e3111) */
        bool block = type == YAML_SCALAR_TOKEN && (tk.data.scalar.style == YAML_LITERAL_SCALAR_STYLE ||
                                                   tk.data.scalar.style == YAML_FOLDED_SCALAR_STYLE);
        size_t from = tk.start_mark.index, to = tk.end_mark.index;
        /* and a flow indicator (`- [1, 2]#  - [3, 4]`, `{t,#a`, `[#x`, `{k:#v`): a comment
         * after it just the same (run 11 entries 67a88b92-r5430a858, 97b0a31e-re8781f1c) */
        bool indicator = to > from && (type == YAML_FLOW_SEQUENCE_START_TOKEN || type == YAML_FLOW_SEQUENCE_END_TOKEN ||
                                       type == YAML_FLOW_MAPPING_START_TOKEN || type == YAML_FLOW_MAPPING_END_TOKEN ||
                                       type == YAML_FLOW_ENTRY_TOKEN || type == YAML_KEY_TOKEN || type == YAML_VALUE_TOKEN);
        yaml_token_delete(&tk);
        if (type == YAML_STREAM_END_TOKEN)
            break;
        if (!(quoted || block || indicator) || to < chars)
            continue;
        size_t qs = NO_QUOTE_START; /* the opening quote's byte offset, when on the closing quote's line */
        while (chars < to && at < len) {
            if (chars == from)
                qs = at;
            at++;
            while (at < len && (t[at] & 0xC0) == 0x80)
                at++;
            chars++;
        }
        if (chars == from)
            qs = at;
        size_t hat = at; /* the glued '#' */
        if (block) {
            if (qs == NO_QUOTE_START || qs >= len || (t[qs] != '|' && t[qs] != '>'))
                continue;
            hat = qs + 1;
            while (hat < len && hat <= qs + 2 && t[hat] && strchr("123456789+-", t[hat]))
                hat++;
        }
        if (hat >= len || t[hat] != '#')
            continue;
        while (line + 1 < d->count && (size_t)(d->l[line + 1].s - d->text) <= hat)
            line++;
        size_t ls = (size_t)(d->l[line].s - d->text);
        if (hat - ls >= d->l[line].n || (*g && (*g)[line].hash))
            continue;
        if (!*g && !(*g = calloc(d->count, sizeof **g)))
            break;
        (*g)[line] = (flow_glue){qs != NO_QUOTE_START && qs >= ls ? (uint32_t)(qs - ls) : NO_QUOTE_START,
                                 (uint32_t)(hat - ls) + 1, false};
    }
    yaml_parser_delete(&ps);
}

size_t yr_fix_block_header_comment(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    flow_glue *g = NULL;
    if (memchr(d->text, '[', d->len) || memchr(d->text, '{', d->len))
        flow_glued_comments(d, &g);
    if (glue_before_hash(d->text, d->len))
        scan_glued_comments(d, &g);
    size_t n = run_lines(d, out, p, w, fix_header_comment, 0, g);
    free(g);
    return n;
}

/* ---- yaml.reserved-indicator ---- */

/* True when [s, s+n) starting with '*' is not an alias: an alias is `*name`
 * (letters, digits, '-', '_') alone before the end or a comment. */
static bool not_alias(const char *s, size_t n)
{
    size_t k = 1;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '-' || s[k] == '_'))
        k++;
    if (k == 1)
        return true;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && s[k] != '#';
}

static size_t fix_reserved(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                           mf_warnings *w)
{
    (void)p;
    const char *v = d->l[i].s + e->val;
    size_t n = e->end - e->val;
    char c = *v;
    if (c == '`' || c == '@') {
        mf_warnings_add(w, MF_RULE_ID(YAML_RESERVED_INDICATOR), yr_lineno(i),
                        "Quoted plain YAML scalars that began with reserved indicator characters (` or @) before reparsing.");
    } else if (((c == '|' || c == '>') && !yr_is_block_header(v, n)) || (c == '*' && not_alias(v, n))) {
        mf_warnings_add(w, MF_RULE_ID(YAML_RESERVED_INDICATOR), yr_lineno(i),
                        "Quoted a YAML value that begins with '%c' but is not %s (guessed that %.*s is text).", c,
                        c == '*' ? "an alias" : "a block scalar header",
                        (int)(yr_value_end(&d->l[i], e, false) - e->val), v);
    } else {
        return 0;
    }
    return yr_put_quoted(o, d, i, e, yr_value_end(&d->l[i], e, false), plain_last(d, i, parent_col(e)));
}

size_t yr_fix_reserved_indicator(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_reserved, 0);
}

/* ---- yaml.quoted-hash ---- */

/* `note: it said 'hi # there'`: in a plain value, a quote opened at a word
 * start before the ` #` and closed at a word end after it holds the '#': the
 * hash is text, not a comment. Returns the end of the value (just past that
 * closing quote), or 0. */
static size_t hash_in_quotes(const char *s, size_t v, size_t end)
{
    size_t c = comment_at(s, v, end, false);
    if (c >= end)
        return 0;
    for (size_t j = v; j < c; j++) {
        char q = s[j];
        if ((q != '\'' && q != '"') || (j > v && s[j - 1] != ' ' && s[j - 1] != '\t'))
            continue;
        if (memchr(s + j + 1, q, c - j - 1))
            continue; /* closed before the hash */
        for (size_t k = c + 1; k < end; k++)
            if (s[k] == q && (k + 1 == end || strchr(" \t.,;:!?)", s[k + 1])))
                return k + 1;
        return 0;
    }
    return 0;
}

static size_t fix_quoted_hash(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                              mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    if (!yr_plain_start(l->s + e->val, e->end - e->val))
        return 0;
    size_t vend = hash_in_quotes(l->s, e->val, e->end);
    if (!vend)
        return 0;
    size_t c = comment_at(l->s, vend, e->end, false);
    while (c > vend && (l->s[c - 1] == ' ' || l->s[c - 1] == '\t'))
        c--;
    if (c != vend && comment_at(l->s, vend, e->end, false) == e->end)
        vend = e->end; /* text after the closing quote stays in the value */
    else if (c != vend)
        vend = c;
    mf_warnings_add(w, MF_RULE_ID(YAML_QUOTED_HASH), yr_lineno(i),
                    "Kept a ' #' inside quotes as text of a plain YAML value (guessed that %.*s is the value, "
                    "not a value and a comment).", (int)(vend - e->val), l->s + e->val);
    return yr_put_quoted(o, d, i, e, vend, i);
}

size_t yr_fix_quoted_hash(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_quoted_hash, 0);
}

/* ---- yaml.plain-colon ---- */

/* True when a plain value starts at v (not quoted, no indicator, not a block header or flow collection). */
bool yr_plain_start(const char *s, size_t n)
{
    static const bool indicator[256] = {[0] = 1, ['"'] = 1, ['\''] = 1, ['|'] = 1, ['>'] = 1, ['['] = 1,
                                        ['{'] = 1, ['&'] = 1, ['*'] = 1, ['!'] = 1, ['%'] = 1, ['@'] = 1,
                                        ['`'] = 1, ['#'] = 1, [','] = 1};
    if (n == 0 || indicator[(unsigned char)s[0]])
        return false;
    if ((s[0] == '-' || s[0] == '?' || s[0] == ':') && (n == 1 || s[1] == ' '))
        return false;
    return true;
}

/* True when the plain value [s, s+n) holds ": " (or ends with ':') before any comment. */
static bool has_colon_space(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '#' && i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t'))
            return false;
        if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t'))
            return true;
    }
    return false;
}

static size_t fix_plain_colon(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                              mf_warnings *w)
{
    (void)p;
    const char *v = d->l[i].s + e->val;
    size_t vend = yr_value_end(&d->l[i], e, false), n = vend - e->val;
    if (!e->key || !yr_plain_start(v, n) || !has_colon_space(v, n))
        return 0;
    mf_warnings_add(w, MF_RULE_ID(YAML_PLAIN_COLON), yr_lineno(i), "Quoted YAML plain scalar values containing colon-space before reparsing.");
    return yr_put_quoted(o, d, i, e, vend, plain_last(d, i, parent_col(e)));
}

size_t yr_fix_plain_colon(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_plain_colon, YR_VAL_COLON);
}

/* ---- yaml.free-text ---- */

/* True when YAML would not read the plain value [s, s+n) back as this exact string. */
static bool plain_misread(const char *s, size_t n)
{
    if (!yr_plain_start(s, n) || has_colon_space(s, n))
        return true;
    for (size_t i = 1; i < n; i++)
        if (s[i] == '#' && (s[i - 1] == ' ' || s[i - 1] == '\t'))
            return true;
    json_t *v = mf_yaml_plain_value(s, n);
    bool str = v && json_is_string(v);
    json_decref(v);
    return !str;
}

/* Offset just past the closing quote of a single-quoted run that starts open at `from`, or 0. */
static size_t sq_close(const char *s, size_t n, size_t from)
{
    for (size_t j = from; j < n; j++) {
        if (s[j] != '\'')
            continue;
        if (j + 1 < n && s[j + 1] == '\'') {
            j++;
            continue;
        }
        return j + 1;
    }
    return 0;
}

/* Append [s, s+n) with '' unescaped to ', blanks trimmed. */
static void put_sq_text(yr_out *o, const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    for (size_t i = 0; i < n; i++) {
        yr_put(o, s + i, 1);
        if (s[i] == '\'' && i + 1 < n && s[i + 1] == '\'')
            i++;
    }
}

/* A multi-line single-quoted value (open on line i, closing at the end of a later
 * line deeper than col) rewritten as a |- block. Returns the next line or 0. */
static size_t sq_to_block(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e)
{
    const yr_line *l = &d->l[i];
    size_t col = e->key_s, last = 0;
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *m = &d->l[k];
        if (mf_line_blank((mf_line){m->s, m->n}))
            continue;
        /* every later line, the closing one too, sits deeper than the key: a line at or
         * left of it is no line of a block body (run 9 9866491f: `description: ' ` then
         * `build error or falls back to "en".'` at column 0 lost the value's fold) */
        if (mf_line_indent((mf_line){m->s, m->n}) <= col)
            return 0;
        size_t c = sq_close(m->s, m->n, 0);
        if (c) {
            size_t r = c;
            while (r < m->n && (m->s[r] == ' ' || m->s[r] == '\t'))
                r++;
            if (r != m->n)
                return 0;
            last = k;
            break;
        }
    }
    if (!last)
        return 0;
    yr_put(o, l->s, e->val);
    yr_puts(o, "|-");
    yr_endl(o, YR_EOL(l));
    size_t first_n = e->end - e->val - 1;
    bool first = true;
    for (size_t k = i; k <= last; k++) {
        const yr_line *m = &d->l[k];
        const char *s = k == i ? m->s + e->val + 1 : m->s;
        size_t n = k == i ? first_n : m->n;
        if (k == last)
            n = sq_close(m->s, m->n, 0) - 1;
        if (k == i && mf_line_blank((mf_line){s, n}))
            continue;
        if (!mf_line_blank((mf_line){s, n}) || !first) {
            if (!mf_line_blank((mf_line){s, n}))
                yr_spaces(o, col + 2);
            put_sq_text(o, s, n);
            yr_endl(o, YR_EOL(m));
            first = false;
        }
    }
    return last + 1;
}

static size_t fix_free_text(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                            mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    if (!e->key || !p || e->key_e - e->key_s > 255)
        return 0;
    char key[256];
    memcpy(key, l->s + e->key_s, e->key_e - e->key_s);
    key[e->key_e - e->key_s] = '\0';
    if (!json_object_get(p->free_text_fields, key))
        return 0;
    const char *v = l->s + e->val;
    size_t n = e->end - e->val, vend = yr_value_end(l, e, false);
    if (v[0] == '\'' && !sq_close(v, n, 1)) {
        size_t next = sq_to_block(o, d, i, e);
        if (next)
            mf_warnings_add(w, MF_RULE_ID(YAML_FREE_TEXT), yr_lineno(i),
                            "Converted a multi-line single-quoted free-text value to a YAML block literal.");
        return next;
    }
    if (vend == e->val || !plain_misread(v, vend - e->val) || strchr("\"'|>[{&*!", v[0]))
        return 0;
    mf_warnings_add(w, MF_RULE_ID(YAML_FREE_TEXT), yr_lineno(i), "Quoted a free-text YAML value before reparsing.");
    return yr_put_quoted(o, d, i, e, vend, plain_last(d, i, parent_col(e)));
}

size_t yr_fix_free_text(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    if (!p || json_object_size(p->free_text_fields) == 0)
        return 0;
    return yr_run_line_rule(d, out, p, w, fix_free_text, 0);
}
