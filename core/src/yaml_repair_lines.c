/* yaml_repair_lines.c - repairs that drop whole lines: wrappers and duplicates.
 *
 * yaml.code-fence (#6) removes a ```yaml / ```yml / ```json / ```jsonl fence
 * around the whole payload: the first non-blank line opens it and the last
 * one is the first CommonMark closer (at most 3 spaces of indentation, at
 * least the opener's backticks, nothing after them) outside a YAML block
 * scalar body, so a fenced example inside `key: |` stays payload.
 * yaml.xml-tag-lines (#7) removes lines that hold nothing but one bare tag
 * (<tag>, </tag>, <tag/>), except where the line is text of a scalar begun
 * earlier (block body, multi-line plain or quoted value); a `<name>`
 * first line and `</name>` last line wrap the payload and always go.
 * yaml.duplicate-key (#10) drops a mapping entry whose line repeats an earlier
 * entry of the same mapping character for character (a one-line quoted value
 * compared by the text it reads as, whichever quotes); when the entry opens a
 * nested block, the whole block must repeat too and is dropped with it.
 * Entries of one mapping are found with a stack of open mappings (by column)
 * and a hash table keyed by (mapping, line text); blocks are compared line by
 * line in lockstep, so the rule stays linear. Lines inside a multi-line scalar
 * or a flow collection written over several lines, and lines opening an
 * unclosed double quote, are never entries here; an entry opening such a
 * collection spans it. A block scalar kept with `+` owns its trailing blank
 * lines: its duplicate must be followed by as many, and they go with it.
 * Comment lines at or left of the entry's column are no part of its block:
 * they are passed over when comparing and stay when the duplicate goes.
 * Differing duplicates are left for the loader, which reports them as a
 * duplicate-key error.
 * yaml.front-matter-closer drops a bare `---` that is the text's last line
 * (past blank and comment lines) after a content line: the closer of a
 * front-matter block (`---` / keys / `---`), not an empty null document. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "yaml_repair.h"

/* ---- yaml.code-fence ---- */

static void trim(const char **s, size_t *n)
{
    while (*n > 0 && (**s == ' ' || **s == '\t'))
        (*s)++, (*n)--;
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

/* Backticks opening a fence on line l (CommonMark: at most 3 spaces of
 * indentation, 3 or more backticks, here an info string yaml/yml/json/jsonl), or 0. */
static size_t fence_open(const yr_line *l)
{
    size_t i = 0, n = l->n;
    while (i < n && i < 4 && l->s[i] == ' ')
        i++;
    size_t k = i;
    while (k < n && l->s[k] == '`')
        k++;
    if (i > 3 || k - i < 3)
        return 0;
    const char *info = l->s + k;
    size_t in = n - k;
    trim(&info, &in);
    static const char *const langs[] = {"yaml", "yml", "json", "jsonl", NULL};
    for (int j = 0; langs[j]; j++)
        if (in == strlen(langs[j]) && strncasecmp(info, langs[j], in) == 0)
            return k - i;
    return 0;
}

/* True when line l closes a fence of `ticks` backticks (CommonMark: at most 3
 * spaces of indentation, at least as many backticks, nothing else). */
static bool fence_close(const yr_line *l, size_t ticks)
{
    size_t i = 0, n = l->n;
    while (i < n && i < 4 && l->s[i] == ' ')
        i++;
    size_t k = i;
    while (k < n && l->s[k] == '`')
        k++;
    if (i > 3 || k - i < ticks)
        return false;
    while (k < n && (l->s[k] == ' ' || l->s[k] == '\t'))
        k++;
    return k == n;
}

size_t yr_fix_code_fence(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    size_t first = 0, last = d->count;
    while (first < d->count && mf_line_blank((mf_line){d->l[first].s, d->l[first].n}))
        first++;
    while (last > first && mf_line_blank((mf_line){d->l[last - 1].s, d->l[last - 1].n}))
        last--;
    size_t ticks = first < last ? fence_open(&d->l[first]) : 0;
    if (!ticks || last < first + 2)
        return 0;
    /* the payload ends at the first closer outside a block scalar body (a fenced
     * example inside `key: |` is payload); it must be the last non-blank line */
    yr_block blk = {0};
    size_t close = last;
    for (size_t i = first + 1; i < last && close == last; i++) {
        const yr_line *l = &d->l[i];
        if (yr_block_body(&blk, l))
            continue;
        if (fence_close(l, ticks))
            close = i;
        else
            yr_block_note_line(&blk, d, i);
    }
    if (close != last - 1)
        return 0;
    yr_out o = {.b = out, .d = d};
    for (size_t i = first + 1; i + 1 < last; i++)
        yr_put_line(&o, &d->l[i]);
    mf_warnings_add(w, MF_RULE_ID(YAML_CODE_FENCE), yr_lineno(first), "Unwrapped markdown code fence wrapping the YAML payload.");
    yr_doc fenced_doc = *d;
    fenced_doc.final_nl = true;
    return yr_finish(&o, &fenced_doc, 1);
}

/* ---- yaml.xml-tag-lines ---- */

/* The tag text "<...>" when the line is only a bare tag, else NULL. */
static const char *bare_tag(const yr_line *l, size_t *tn)
{
    const char *s = l->s;
    size_t n = l->n;
    trim(&s, &n);
    if (n < 3 || s[0] != '<' || s[n - 1] != '>')
        return NULL;
    size_t i = 1;
    if (s[i] == '/')
        i++;
    if (i >= n - 1 || !(isalpha((unsigned char)s[i]) || s[i] == '_'))
        return NULL;
    while (i < n - 1 && (isalnum((unsigned char)s[i]) || strchr("_.:-", s[i])))
        i++;
    if (s[1] != '/') {
        while (i < n - 1 && s[i] == ' ')
            i++;
        if (i < n - 1 && s[i] == '/')
            i++;
    }
    if (i != n - 1)
        return NULL;
    *tn = n;
    return s;
}

bool yr_bare_tag_line(const yr_line *l)
{
    size_t tn;
    return bare_tag(l, &tn) != NULL;
}

/* When the first non-blank line is `<name>` and the last is `</name>`, their
 * indices (*first, *last): that pair wraps the payload whatever the lines
 * between hold (an unclosed quote before `</name>` included). */
static bool wrapping_pair(const yr_doc *d, size_t *first, size_t *last)
{
    size_t a = 0, b = d->count, an, bn;
    while (a < d->count && mf_line_blank((mf_line){d->l[a].s, d->l[a].n}))
        a++;
    while (b > a + 1 && mf_line_blank((mf_line){d->l[b - 1].s, d->l[b - 1].n}))
        b--;
    if (b <= a + 1)
        return false;
    const char *ta = bare_tag(&d->l[a], &an), *tb = bare_tag(&d->l[b - 1], &bn);
    if (!ta || !tb || ta[1] == '/' || tb[1] != '/' || ta[an - 2] == '/' || bn != an + 1 ||
        memcmp(ta + 1, tb + 2, an - 2) != 0)
        return false;
    *first = a, *last = b - 1;
    return true;
}

/* Is [s, s+n) a `---` or `...` document marker at column 0 (a comment may follow)? */
static bool text_marker(const char *s, size_t n)
{
    if (n < 3 || (memcmp(s, "---", 3) != 0 && memcmp(s, "...", 3) != 0))
        return false;
    size_t i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == n || (i > 3 && s[i] == '#');
}

bool yr_tag_document(const char *s, size_t n)
{
    if (!memchr(s, '<', n))
        return false;
    /* the kind of the last non-blank line: 0 none (text start), 1 marker, 2 content */
    int prev = 0, tag_up = -1;          /* tag_up: the upper neighbour of pending tag lines */
    for (size_t a = 0; a < n;) {
        const char *nl = memchr(s + a, '\n', n - a);
        size_t e = nl ? (size_t)(nl - s) : n, next = nl ? e + 1 : n;
        size_t i = a;
        while (i < e && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
            i++;
        if (i < e) {
            bool marker = text_marker(s + a, e - a);
            if (tag_up >= 0 && marker)
                return true;            /* a marker below the tag lines, nothing but a marker or the start above */
            yr_line l = {.s = s + a, .n = (uint32_t)(e - a)};
            bool tag = i == a && s[a] == '<' && bare_tag(&l, &(size_t){0});
            if (tag && tag_up >= 0) {   /* stacked tag lines (`<response>` + `<yaml>`) are one document */
                a = next;
                continue;
            }
            tag_up = tag && prev < 2 ? prev : -1;
            prev = marker ? 1 : 2;
        }
        a = next;
    }
    return tag_up == 1;                 /* the last line: a tag under a marker */
}

size_t yr_fix_tag_documents(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_tag_document(d->text, d->len) ? yr_fix_xml_tag_lines(d, out, p, w) : 0;
}

/* `--- |` (a document whose root is a block scalar): its body is the lines
 * after it that are blank or indented. */
static bool marker_block_header(const yr_line *l)
{
    size_t k = 3;
    if (l->n < 5 || memcmp(l->s, "---", 3) != 0 || (l->s[3] != ' ' && l->s[3] != '\t'))
        return false;
    while (k < l->n && (l->s[k] == ' ' || l->s[k] == '\t'))
        k++;
    return k < l->n && yr_is_block_header(l->s + k, l->n - k);
}

/* Is line i a `---` whose document holds nothing but tag lines (and blank lines)
 * up to the next `---` (`---` + `<artifact>` + `---` + `steps:`)? With the tags
 * stripped, that marker would open an empty (null) document of its own: it goes
 * with them (run 37 4c8e18e2). */
static bool tag_only_document(const yr_doc *d, size_t i)
{
    const yr_line *m = &d->l[i];
    if (m->n < 3 || memcmp(m->s, "---", 3) != 0 || !text_marker(m->s, m->n))
        return false;
    size_t tags = 0, tn;
    for (size_t j = i + 1; j < d->count; j++) {
        const yr_line *l = &d->l[j];
        if (mf_line_blank((mf_line){l->s, l->n}))
            continue;
        if (bare_tag(l, &tn)) {
            tags++;
            continue;
        }
        return tags > 0 && l->n >= 3 && memcmp(l->s, "---", 3) == 0 && text_marker(l->s, l->n);
    }
    return false;
}

size_t yr_fix_xml_tag_lines(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0, first = (size_t)-1, last = (size_t)-1;
    bool root_body = false; /* in the body of a `--- |` document's block scalar */
    bool after_tag = false;  /* the line above (blanks passed over) was a tag line taken out */
    wrapping_pair(d, &first, &last);
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        size_t tn;
        const char *tag;
        root_body = (root_body && (mf_line_blank((mf_line){l->s, l->n}) || (l->n && l->s[0] == ' '))) ||
                    marker_block_header(l);
        /* a tag stacked under one taken out (`  <response>` + `  <yaml>` under a wrapper key)
         * is no text of it, though the scan reads it as that plain value's next line (run 35) */
        bool cont = (l->flags & YR_CONT) && !after_tag;
        if (!root_body && !cont && !yr_block_body(&blk, l) && tag_only_document(d, i)) {
            mf_warnings_add(w, MF_RULE_ID(YAML_XML_TAG_LINES), yr_lineno(i),
                            "Dropped the document marker --- whose document held only XML-style tag lines, "
                            "which would have left an empty (null) document.");
            changes++;
            continue;
        }
        if ((i == first || i == last || (!root_body && !yr_block_body(&blk, l) && !cont)) &&
            (tag = bare_tag(l, &tn)) != NULL) {
            mf_warnings_add(w, MF_RULE_ID(YAML_XML_TAG_LINES), yr_lineno(i),
                            "Stripped XML-style tags %.*s from the payload before parsing.", (int)tn, tag);
            changes++;
            after_tag = true;
            continue;
        }
        if (!mf_line_blank((mf_line){l->s, l->n}))
            after_tag = false;
        yr_put_line(&o, l);
        if (!blk.active)
            yr_block_note_line(&blk, d, i);
    }
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.duplicate-key ---- */

/* The table of entries seen, by (mapping, line text): open addressing over
 * 12-byte slots, line1 = line + 1 (0: empty), sized to the key lines. */
typedef struct { uint32_t h, scope, line1; } dk_slot;
typedef struct { dk_slot *t; size_t cap; } dk_table;
typedef struct { uint32_t col, id, dash; bool item; } dk_scope; /* item: the mapping of a `- key:` item, its dash's column */

/* True when the value [a, b) is one whole one-line quoted scalar whose text this rule can read:
 * single-quoted, or double-quoted with no escape but \" and \\. */
static bool dk_simple_quoted(const char *s, size_t a, size_t b)
{
    if (b - a < 2 || (s[a] != '\'' && s[a] != '"') || yr_quote_end(s, b, a) != b)
        return false;
    for (size_t i = a + 1; s[a] == '"' && i + 1 < b; i++) {
        if (s[i] == '\\' && s[i + 1] != '"' && s[i + 1] != '\\')
            return false;
        if (s[i] == '\\')
            i++;
    }
    return true;
}

/* The next character of the quoted value text at *i (below end, the closing quote), -1 at its end. */
static int dk_next(const char *s, size_t *i, size_t end, char q)
{
    if (*i >= end)
        return -1;
    char c = s[(*i)++];
    if ((q == '\'' && c == '\'' && *i < end) || (q == '"' && c == '\\' && *i < end))
        c = s[(*i)++]; /* '' in single quotes, \" or \\ in double quotes */
    return (unsigned char)c;
}

/* The entry's identity for this rule: its key text, then its value text, read when
 * it is a simple quoted scalar (so 'a ''b''' and "a 'b'" are one value), raw otherwise. */
static uint32_t dk_entry_hash(size_t scope, const char *s, const yr_entry *e)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)scope * 0x9E3779B97F4A7C15ULL;
    for (size_t i = e->key_s; i < e->key_e; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    if (dk_simple_quoted(s, e->val, e->end)) {
        h = (h ^ 0x100) * 1099511628211ULL;
        size_t i = e->val + 1;
        for (int c; (c = dk_next(s, &i, e->end - 1, s[e->val])) >= 0;)
            h = (h ^ (unsigned)c) * 1099511628211ULL;
    } else {
        h = (h ^ 0x200) * 1099511628211ULL;
        for (size_t i = e->val; i < e->end; i++)
            h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    }
    return (uint32_t)(h ^ (h >> 32));
}

/* Do entries e (of line text s) and f (of t) have the same key text and the same value (dk_entry_hash's reading)? */
static bool dk_same_entry(const char *s, const yr_entry *e, const char *t, const yr_entry *f)
{
    if (e->key_e - e->key_s != f->key_e - f->key_s || memcmp(s + e->key_s, t + f->key_s, e->key_e - e->key_s) != 0)
        return false;
    bool qe = dk_simple_quoted(s, e->val, e->end), qf = dk_simple_quoted(t, f->val, f->end);
    if (qe != qf)
        return false;
    if (!qe)
        return e->end - e->val == f->end - f->val && memcmp(s + e->val, t + f->val, e->end - e->val) == 0;
    size_t i = e->val + 1, j = f->val + 1;
    for (;;) {
        int a = dk_next(s, &i, e->end - 1, s[e->val]), b = dk_next(t, &j, f->end - 1, t[f->val]);
        if (a != b)
            return false;
        if (a < 0)
            return true;
    }
}

static size_t rtrim_len(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    return n;
}

static bool is_doc_marker(const yr_line *l)
{
    size_t i = mf_line_indent((mf_line){l->s, l->n});
    return i < l->n && (l->s[i] == '-' || l->s[i] == '.') && (l->flags & YR_INERT);
}

/* Is l a line no flow collection runs on over (a list item, a fence, a
 * document marker)? A flow still open there is unclosed, as
 * yaml.unclosed-flow reads it (flow_closes_later). */
static bool flow_stops_at(const yr_line *l)
{
    size_t i = mf_line_indent((mf_line){l->s, l->n});
    const char *s = l->s + i;
    size_t n = l->n - i;
    return (n >= 1 && s[0] == '-' && (n == 1 || s[1] == ' ' || s[1] == '\r')) || is_doc_marker(l) ||
           (n >= 3 && memcmp(s, "```", 3) == 0);
}

void yr_flow_ends(const yr_doc *d, uint32_t *fend)
{
    yr_block blk = {0};
    for (size_t k = 0; k < d->count; k++)
        fend[k] = 0;
    for (size_t k = 0; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_CONT))) {
            continue;
        }
        yr_block_note_line(&blk, d, k);
        yr_entry e = yr_entry_at(d, k);
        size_t v = e.key ? e.val : e.content;
        while (e.key && v + 1 < e.end && l->s[v] == '-' && l->s[v + 1] == ' ')
            for (v++; v < e.end && l->s[v] == ' ';)
                v++; /* `matrix: - [1`: the inline item's flow */
        if (!yr_entry_valued(&e) || v >= e.end || (l->s[v] != '[' && l->s[v] != '{'))
            continue;
        size_t depth = 0, j = k;
        char q = 0;
        for (size_t c = v;; c++) {
            const yr_line *m = &d->l[j];
            if (c >= m->n) {
                if (depth == 0 || j + 1 >= d->count || (!q && flow_stops_at(&d->l[j + 1])))
                    break;
                j++, c = (size_t)-1;
                continue;
            }
            char ch = m->s[c];
            if (q) {
                if (q == '"' && ch == '\\')
                    c++;
                else if (ch == q && q == '\'' && c + 1 < m->n && m->s[c + 1] == '\'')
                    c++;
                else if (ch == q)
                    q = 0;
            } else if ((ch == '"' || ch == '\'') &&
                       (c == 0 || strchr(" \t[{,:", m->s[c - 1]))) { /* `don't` is plain text */
                q = ch;
            } else if (ch == '#' && (c == 0 || m->s[c - 1] == ' ' || m->s[c - 1] == '\t')) {
                c = m->n;
            } else if (ch == '[' || ch == '{') {
                depth++;
            } else if ((ch == ']' || ch == '}') && depth && --depth == 0) {
                break;
            }
        }
        if (j > k && depth == 0) {
            fend[k] = (uint32_t)j;
            k = j;
        }
    }
}

/* Blank lines right after line k (before the next non-blank line or the end). */
static size_t blanks_after(const yr_doc *d, size_t k)
{
    size_t n = 0;
    while (k + 1 + n < d->count && mf_line_blank((mf_line){d->l[k + 1 + n].s, d->l[k + 1 + n].n}))
        n++;
    return n;
}

/* True when a line of [k, last] opens a block scalar that keeps its trailing
 * blank lines (`|+`, `>2+`): those lines are then part of the value. */
static bool keeps_blanks(const yr_doc *d, size_t k, size_t last)
{
    for (size_t t = k; t <= last; t++) {
        if (!(d->l[t].flags & YR_OPENS_BLOCK))
            continue;
        yr_entry e = yr_entry_at(d, t);
        if (memchr(d->l[t].s + e.val, '+', e.end - e.val))
            return true;
    }
    return false;
}

/* For every key line k, end[k] = its block's last non-blank line (k when it
 * has none). A block is every following line deeper than the key's column, plus
 * same-column `- ` items when the key has no inline value. One pass, one stack
 * (st, one level per open key). */
typedef struct { uint32_t line, col; bool empty; } bk_level;

static void block_ends(const yr_doc *d, const uint32_t *fend, uint32_t *end, bk_level *st)
{
    size_t depth = 0, prev_nb = 0, flow = 0;
    yr_block blk = {0};
    for (size_t k = 0; k < d->count; k++)
        end[k] = (uint32_t)k;
    for (size_t k = 0; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        if (k < flow || yr_block_body(&blk, l)) {
            if (!mf_line_blank((mf_line){l->s, l->n}))
                prev_nb = k;
            continue;
        }
        if ((l->flags & YR_INERT)) {
            if (is_doc_marker(l))
                while (depth)
                    depth--, end[st[depth].line] = (uint32_t)prev_nb;
            continue;
        }
        yr_entry e = yr_entry_at(d, k);
        while (depth && (st[depth - 1].col > e.indent ||
                         (st[depth - 1].col == e.indent && !(st[depth - 1].empty && e.dashes)))) {
            depth--;
            end[st[depth].line] = (uint32_t)prev_nb;
        }
        if (e.key)
            st[depth++] = (bk_level){(uint32_t)k, e.key_s, e.val == e.end};
        prev_nb = k;
        if (fend[k])
            flow = fend[k] + 1;
        yr_block_note_line(&blk, d, k);
    }
    while (depth)
        depth--, end[st[depth].line] = (uint32_t)prev_nb;
}

/* True when line k is a comment line at or left of column col: outside any
 * block scalar body of an entry at col, so not part of its value. */
static bool outer_comment(const yr_doc *d, size_t k, size_t col)
{
    const yr_line *l = &d->l[k];
    size_t ind = mf_line_indent((mf_line){l->s, l->n});
    return ind < l->n && l->s[ind] == '#' && ind <= col;
}

/* True when the blocks of key lines j and i (headers already equal, entries at
 * column col) repeat line for line; comment lines at or left of col are not
 * part of a block and are passed over. */
static bool same_block(const yr_doc *d, const uint32_t *end, size_t j, size_t i, size_t col)
{
    size_t a = j + 1, b = i + 1;
    for (;;) {
        while (a <= end[j] && outer_comment(d, a, col))
            a++;
        while (b <= end[i] && outer_comment(d, b, col))
            b++;
        if (a > end[j] || b > end[i])
            return a > end[j] && b > end[i];
        const yr_line *x = &d->l[a++], *y = &d->l[b++];
        size_t nx = rtrim_len(x->s, x->n), ny = rtrim_len(y->s, y->n);
        if (nx != ny || memcmp(x->s, y->s, nx) != 0)
            return false;
    }
}

size_t yr_fix_duplicate_key(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    if (d->count >= UINT32_MAX)
        return 0;
    uint32_t *end = malloc((d->count + 1) * sizeof *end);
    uint32_t *fend = malloc((d->count + 1) * sizeof *fend);
    bk_level *levels = malloc((d->count + 1) * sizeof *levels);
    if (!end || !fend || !levels) {
        free(end), free(fend), free(levels);
        return 0;
    }
    yr_flow_ends(d, fend);
    block_ends(d, fend, end, levels);
    free(levels);
    size_t keys = 0;
    for (size_t i = 0; i < d->count; i++)
        keys += !(d->l[i].flags & (YR_INERT | YR_CONT)) && yr_entry_at(d, i).key;
    dk_table tab = {calloc(keys + keys / 2 + 16, sizeof(dk_slot)), keys + keys / 2 + 16};
    dk_scope *st = malloc((d->count + 1) * sizeof *st);
    uint32_t *lists = malloc((d->count + 1) * sizeof *lists); /* columns of the lists open, opened under a bare `key:` or `-` */
    size_t nlists = 0;
    if (!tab.t || !st || !lists) {
        free(tab.t), free(st), free(lists), free(end), free(fend);
        return 0;
    }
    size_t depth = 0, next_id = 1, changes = 0, flow = 0;
    bool opener = false; /* the last entry line is a bare `key:` or `-` */
    size_t opener_key = SIZE_MAX; /* that bare `key:`'s column */
    size_t compact_id = 0, compact_col = 0; /* the item mapping whose key's list is open at its key column */
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t fallen_to = 0; /* the last line of a body that fell to its header's key (yaml.block-body-indent's) */
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        /* its lines are text, no entries: two such bodies may hold the same line (run 36 4f976617) */
        if (i < flow || (fallen_to && i <= fallen_to) || yr_block_body(&blk, l)) {
            yr_put_line(&o, l);
            continue;
        }
        if (l->flags & YR_OPENS_BLOCK)
            fallen_to = yr_fallen_body_last(d, i);
        if ((l->flags & YR_INERT) || (l->flags & YR_CONT)) {
            if ((l->flags & YR_INERT) && is_doc_marker(l))
                depth = 0;
            yr_put_line(&o, l);
            continue;
        }
        yr_entry e = yr_entry_at(d, i);
        if (e.dashes) {
            while (nlists && lists[nlists - 1] > e.dash)
                nlists--;
            bool listed = nlists && lists[nlists - 1] == e.dash; /* a list is open at this dash's column */
            for (size_t k = depth; k-- > 0 && !listed;)
                listed = st[k].item && st[k].dash == e.dash;
            if (opener && !listed)
                lists[nlists++] = (uint32_t)e.dash;
            while (depth && st[depth - 1].col > e.dash)
                depth--;
            /* a dash at the key column of a list item's mapping that follows a bare `key:`
             * at that column (or an earlier such dash) is an item of that key's list
             * (`  acceptance_criteria:` / `  - d`, valid YAML): the mapping goes on */
            bool compact = depth && st[depth - 1].col == e.dash &&
                           (opener_key == e.dash || compact_id == st[depth - 1].id);
            if (compact)
                compact_id = st[depth - 1].id, compact_col = e.dash;
            /* any other dash at the key column of a mapping ends that mapping for this rule:
             * an item drifted in among the previous item's keys (`    - id: Q2` under
             * `  - id: Q1` / `    phase: a`) starts a new mapping, not more of it; so it does
             * when that item's own dash drifted too, leaving its keys a mapping of their own
             * (`   - id: r` / `    title: R` / ... / `    - id: t` / `    title: R`, run 9 6c17659b) */
            while (!compact && depth && st[depth - 1].col == e.dash)
                depth--;
            /* so does a dash 1-3 columns right of that key column where no list is open
             * and that opens no nested one (no bare `key:` or `-` before it): a drifted sibling item
             * (yaml.sequence-indent-drift moves it back in group 4) */
            if (!compact && depth && !opener && !listed && e.dash - st[depth - 1].col <= 3)
                depth--;
            if (e.key)
                st[depth++] = (dk_scope){e.key_s, (uint32_t)next_id++, e.dash, true};
        } else {
            while (nlists && lists[nlists - 1] >= e.indent)
                nlists--;
            while (depth && st[depth - 1].col > e.indent)
                depth--;
            if (e.indent <= compact_col)
                compact_id = 0, compact_col = 0; /* a line at or left of the list's column ends it */
            if (e.key && (!depth || st[depth - 1].col != e.indent))
                st[depth++] = (dk_scope){e.indent, (uint32_t)next_id++, 0, false};
        }
        if (e.key && depth && !(l->flags & (YR_OPENS_DQ | YR_OPENS_SQ))) {
            size_t scope = st[depth - 1].id;
            uint32_t h = dk_entry_hash(scope, l->s, &e);
            size_t k = h % tab.cap;
            size_t found = (size_t)-1;
            while (tab.t[k].line1) {
                if (tab.t[k].h == h && tab.t[k].scope == scope) {
                    size_t fline = tab.t[k].line1 - 1;
                    const yr_line *fl = &d->l[fline];
                    const yr_entry f = yr_entry_at(d, fline);
                    if (dk_same_entry(fl->s, &f, l->s, &e)) {
                        found = fline;
                        break;
                    }
                }
                k = k + 1 == tab.cap ? 0 : k + 1;
            }
            if (found == (size_t)-1) {
                tab.t[k] = (dk_slot){h, (uint32_t)scope, (uint32_t)i + 1};
            } else if (!e.dashes && same_block(d, end, found, i, e.indent)) {
                /* a kept block scalar's trailing blank lines are part of its value */
                bool keep = keeps_blanks(d, found, end[found]) || keeps_blanks(d, i, end[i]);
                size_t tail = keep ? blanks_after(d, end[i]) : 0;
                if (!keep || blanks_after(d, end[found]) == tail) {
                    const yr_entry f = yr_entry_at(d, found);
                    bool exact = f.end - f.key_s == e.end - e.key_s &&
                                 memcmp(d->l[found].s + f.key_s, l->s + e.key_s, e.end - e.key_s) == 0;
                    mf_warnings_add(w, MF_RULE_ID(YAML_DUPLICATE_KEY), yr_lineno(i),
                                    "Dropped duplicate YAML key \"%.*s\" repeating line %d %s.",
                                    (int)(e.key_e - e.key_s), l->s + e.key_s, yr_lineno(found),
                                    exact ? "exactly" : "(the same value, quoted differently)");
                    changes++;
                    for (size_t k = i + 1; k <= end[i]; k++) /* comments between its lines stay */
                        if (outer_comment(d, k, e.indent))
                            yr_put_line(&o, &d->l[k]);
                    i = end[i] + tail;
                    continue;
                }
            }
        }
        yr_put_line(&o, l);
        if (fend[i])
            flow = fend[i] + 1;
        yr_block_note_line(&blk, d, i);
        opener = yr_entry_opener(&e);
        opener_key = e.key && e.val == e.end ? e.key_s : SIZE_MAX;
    }
    free(tab.t);
    free(st);
    free(lists);
    free(end);
    free(fend);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.front-matter-closer ---- */

/* True for s[0..n) that is `---` at column 0 with nothing after it but
 * blanks or a comment: a document start that carries no content. */
static bool bare_doc_start(const char *s, size_t n)
{
    if (n < 3 || memcmp(s, "---", 3) != 0)
        return false;
    size_t i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == n || (i > 3 && s[i] == '#');
}

/* True for a line that is blank or only a comment. */
static bool blank_or_comment(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    return i == n || s[i] == '#';
}

bool yr_may_end_with_doc_start(const char *s, size_t n)
{
    size_t end = n;
    while (end > 0) {
        size_t b = end;
        if (s[b - 1] == '\n')
            b--;
        size_t a = b;
        while (a > 0 && s[a - 1] != '\n')
            a--;
        if (!blank_or_comment(s + a, b - a))
            return bare_doc_start(s + a, b - a);
        end = a;
    }
    return false;
}

/* True for a `...` line at column 0 with nothing after it but blanks or a comment, read as
 * a marker (not text of a block or quoted scalar): a document end. */
static bool bare_doc_end(const yr_line *l)
{
    if (l->n < 3 || memcmp(l->s, "...", 3) != 0 || !(l->flags & YR_INERT) || !(l->flags & YR_CTX_FREE) ||
        (l->flags & YR_QUOTE_CONT))
        return false;
    size_t i = 3;
    while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t' || l->s[i] == '\r'))
        i++;
    return i == l->n || (i > 3 && l->s[i] == '#');
}

/* The line of a trailing bare `---`: the last line that is neither blank nor
 * a comment, preceded (past blank and comment lines) by a content line (not
 * a `%` directive, which comes before a first document start; a `---` or `...`
 * that is text of a block scalar body is content), so
 * the document it starts is empty and follows one that is not; (size_t)-1
 * when there is none. */
static size_t trailing_doc_start(const yr_doc *d)
{
    const size_t none = (size_t)-1;
    size_t c = d->count;
    while (c > 0 && blank_or_comment(d->l[c - 1].s, d->l[c - 1].n))
        c--;
    if (c == 0 || !bare_doc_start(d->l[c - 1].s, d->l[c - 1].n) || (d->l[c - 1].flags & YR_QUOTE_CONT))
        return none;
    size_t k = --c;
    while (k > 0 && blank_or_comment(d->l[k - 1].s, d->l[k - 1].n))
        k--;
    if (k == 0)
        return none;
    /* a `...` document end before it: the `---` still opens an empty document after the one it ends */
    if (bare_doc_end(&d->l[k - 1])) {
        k--;
        while (k > 0 && blank_or_comment(d->l[k - 1].s, d->l[k - 1].n))
            k--;
        if (k == 0)
            return none;
    }
    /* a `---` / `...` line inside a block scalar body (or a quoted scalar) is text, not a marker;
     * so is an indented one, whatever the line model read around it (`  ...` under a block item
     * whose dash drifted right of its body, run 47 d1e6bc6f): a marker stands at column 0 */
    uint16_t f = d->l[k - 1].flags;
    bool content = !(f & YR_INERT) || !(f & YR_CTX_FREE) || d->l[k - 1].s[0] == ' ';
    return content && d->l[k - 1].s[0] != '%' ? c : none;
}

size_t yr_fix_front_matter_closer(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    size_t c = trailing_doc_start(d);
    if (c == (size_t)-1)
        return 0;
    yr_out o = {.b = out, .d = d};
    for (size_t i = 0; i < d->count; i++)
        if (i != c)
            yr_put_line(&o, &d->l[i]);
    mf_warnings_add(w, MF_RULE_ID(YAML_FRONT_MATTER_CLOSER), yr_lineno(c),
                    "Dropped a closing --- with nothing after it (a front-matter closer), which would "
                    "have made an empty (null) second document.");
    return yr_finish(&o, d, 1);
}
