/* yaml_repair_strings.c - repairs that keep a value the one string it was meant to be.
 *
 * yaml.item-colon: in a list whose other items are plain strings, an item
 * such as `- Use X: for Y` is the string "Use X: for Y", not the one-key
 * mapping {"Use X": "for Y"} YAML reads (the text parses either way, so this
 * repair also runs before the first parse). Only single-line items whose key
 * is not an identifier (it holds a blank or punctuation) are taken, and only
 * when at least half of the list's items are plain strings and the rest are
 * such items (no mapping, nested or flow item); an item whose key holds a
 * blank (prose: `- Persisted artifact path: x`) needs one plain string
 * sibling only, whatever the count of such items (also with no value at all:
 * `- Retries of the same attempt:` is not {"...": null}). An item keyed like an HTTP
 * header or a ticket id (`Content-Disposition: ...`, `X-Request-Id: ...`,
 * `EPIC-1: ...`: capitalized words joined by '-') is a string too in a list
 * of strings and such items alone (a list of one of them included). An item
 * whose key is an identifier counts as text too when its plain value holds
 * ': ' (`- Note: run tests: all of them`, which YAML cannot read as a
 * mapping). An item whose key holds a blank and whose value is a quoted token followed by more
 * text (`- node -e "f('a: '+b)"`: no YAML reading at all) is a string too,
 * and so is a prose item wrapped onto text lines no deeper than its key (the
 * lines are folded into it, one space per line break).
 * yaml.doubled-quotes: a value wrapped in doubled outer quotes, `""text""` or
 * `''text''` (a parse error), keeps one pair: "text"; doubled opening quotes
 * never closed (`''text`) are dropped. A value whose quotes
 * were kept inside a valid quoted scalar (`"\"text\""`) is valid YAML and is
 * never changed. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>
#include "yaml_repair.h"

/* ---- yaml.item-colon ---- */

enum { IC_NONE, IC_STRING, IC_COLON, IC_PROSE, IC_HEADER, IC_BROKEN, IC_WRAPPED, IC_OTHER, IC_KINDS };

bool yr_is_header_key(const char *s, size_t n)
{
    size_t i = 0, parts = 0;
    if (n == 0 || s[0] < 'A' || s[0] > 'Z')
        return false;
    while (i < n) {
        size_t w = i;
        while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9')))
            i++;
        if (i == w)
            return false;
        parts++;
        if (i < n && (s[i] != '-' || ++i == n))
            return false;
    }
    return parts >= 2;
}

/* True when [s, s+n) is one complete quoted scalar. */
static bool whole_quoted(const char *s, size_t n)
{
    return n >= 2 && (s[0] == '"' || s[0] == '\'') && yr_quote_end(s, n, 0) == n;
}

/* The kind of list item on line i (entry e, one dash at least). A one-key
 * mapping item is classified by what it reads as, not by how it is spelled:
 * a quoted key or value counts as its text, an empty value as null, so the
 * canonical output of a mapping (`- src/a: null`, `- src/a: x` for
 * `- "src/a": "x"`) is the same kind as the text it came from (idempotence). */
static int item_kind(const yr_line *l, const yr_entry *e)
{
    if (e->dashes != 1 || e->content >= e->end)
        return IC_OTHER;
    const char *c = l->s + e->content, *v = l->s + e->val;
    size_t kn = e->key_e - e->key_s, vn = yr_value_end(l, e, true) - e->val;
    if (!e->key)
        return (*c == '[' || *c == '{' || *c == '&' || *c == '*' || *c == '!' || *c == '?') ? IC_OTHER : IC_STRING;
    bool qkey = *c == '"' || *c == '\'';
    const char *k = qkey ? c + 1 : c; /* the key's text (a quoted key: between its quotes) */
    size_t kl = qkey ? kn - 2 : kn;
    if ((qkey && !whole_quoted(c, kn)) || kl == 0 || !yr_plain_start(k, kl))
        return IC_OTHER;
    bool spaced = memchr(k, ' ', kl) != NULL;
    /* `- run "x(1)": 'a'+'b'`: a prose key and a value that is a quoted token followed
     * by more text (no YAML reading at all) */
    if ((*v == '"' || *v == '\'') && !qkey && spaced) {
        size_t q = yr_quote_end(v, vn, 0);
        if (q && q < vn)
            return IC_BROKEN;
    }
    /* an anchor or tag before the value is no part of what it reads as (the
     * canonical output drops it) */
    while (vn && (*v == '&' || *v == '!')) {
        const char *sp = memchr(v, ' ', vn);
        size_t skip = sp ? (size_t)(sp - v) : vn;
        while (skip < vn && v[skip] == ' ')
            skip++;
        v += skip, vn -= skip;
    }
    /* the value: empty (null), one quoted scalar, or plain text; a plain value may
     * start with ` or @ (reserved in YAML, text in the string) */
    if (vn && !whole_quoted(v, vn) && !yr_plain_start(v, vn) && *v != '`' && *v != '@')
        return IC_OTHER;
    if (yr_is_header_key(k, kl))
        return IC_HEADER;
    /* `- Note: run tests: all of them`: a plain value holding ': ' is no mapping
     * value YAML reads (yaml.plain-colon would quote it): the item is text
     * among strings even under an identifier key */
    if (yr_is_ident(k, kl) && !(vn && !whole_quoted(v, vn) && memmem(v, vn, ": ", 2)))
        return IC_OTHER;
    return spaced ? IC_PROSE : IC_COLON;
}

/* The list item written after `key: ` on line l (`list: - a: b`, the inline
 * form yaml.inline-sequence-parent later splits), in the line's columns, in
 * *it; false when there is none. */
static bool inline_item(const yr_line *l, const yr_entry *e, yr_entry *it)
{
    if (!e->key || e->dashes || e->val + 1 >= e->end || l->s[e->val] != '-' || l->s[e->val + 1] != ' ')
        return false;
    yr_entry_parse(l->s + e->val, e->end - e->val, it);
    it->indent += e->val, it->dash += e->val, it->content += e->val, it->key_s += e->val, it->key_e += e->val;
    it->val += e->val, it->end += e->val;
    return it->dashes == 1;
}

/* Line i as a list item: its own entry for a `- ` line, the inline item of `key: - x`. */
static yr_entry item_at(const yr_doc *d, size_t i)
{
    yr_entry e = yr_entry_at(d, i), it;
    return !e.dashes && inline_item(&d->l[i], &e, &it) ? it : e;
}

typedef struct { uint32_t col, seq; } ic_level;

/* Grow *a (items of `item` bytes, *cap of them) to hold `need`, new items zeroed; false on OOM. */
static bool grow(void **a, size_t *cap, size_t need, size_t item)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *p = realloc(*a, n * item);
    if (!p)
        return false;
    memset((char *)p + *cap * item, 0, (n - *cap) * item);
    *a = p;
    *cap = n;
    return true;
}

/* For every line, the list it is an item of (seq[i], 0 = none) and its kind;
 * per list, how many items of each kind (counts[seq * IC_KINDS + kind]). */
static int ic_scan(const yr_doc *d, uint32_t *seq, unsigned char *kind, uint32_t **counts_out)
{
    ic_level *st = NULL;
    uint32_t *counts = NULL;
    size_t st_cap = 0, seq_cap = 0, depth = 0, next_seq = 1, item = (size_t)-1, inl = (size_t)-1;
    size_t plain_key = (size_t)-1; /* the key column of the plain value the last entry line ends with */
    bool in_text = false;          /* the last line was such text of a plain value */
    yr_skip sk = {{0}, 0};
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        seq[i] = 0;
        kind[i] = IC_NONE;
        if (yr_skip_line(&sk, l) || (l->flags & YR_INERT))
            continue;
        const yr_entry ei = yr_entry_at(d, i), *e = &ei;
        size_t col = e->indent;
        /* a dash line deeper than a key whose plain value ends the line before is text of that value
         * (`e: d` + ` - x: y` reads as "d - x: y"), no list item; so are its own continuation lines */
        bool text_of_value = plain_key != (size_t)-1 && e->dashes && e->dash > plain_key;
        if (text_of_value || (in_text && (l->flags & YR_PLAIN_CONT))) {
            in_text = true;
            yr_skip_note_line(&sk, d, i);
            continue;
        }
        in_text = false;
        plain_key = e->key && !e->dashes && e->val < e->end && yr_plain_start(l->s + e->val, e->end - e->val) &&
                            yr_value_end(l, e, false) == e->end
                        ? e->key_s
                        : (size_t)-1;
        if (inl != (size_t)-1 && !e->dashes && col > yr_entry_at(d, inl).indent) {
            counts[seq[inl] * IC_KINDS + kind[inl]]--; /* `list: - a: b` + deeper text: no one-line item */
            kind[inl] = IC_OTHER;
            counts[seq[inl] * IC_KINDS + kind[inl]]++;
        }
        while (depth && (st[depth - 1].col > col || (st[depth - 1].col == col && !e->dashes)))
            depth--;
        if (item != (size_t)-1 && !e->dashes && yr_entry_at(d, item).indent >= col)
            item = (size_t)-1; /* a line of the enclosing block: later lines are not the item's */
        /* a continuation line of a one-line plain value leaves the item what it was:
         * `- src/a: x` + `    more` reads as `- src/a: x more` */
        bool cont = (l->flags & YR_PLAIN_CONT) && item != (size_t)-1 && kind[item] >= IC_COLON &&
                    kind[item] <= IC_HEADER;
        if (item != (size_t)-1 && !cont && kind[item] >= IC_COLON && kind[item] <= IC_WRAPPED &&
            yr_entry_at(d, item).indent < col) {
            /* a prose item wrapped onto lines of text at most as deep as its key (no
             * mapping reading: its value would end there) stays a string; any other
             * further line makes the item something else */
            bool wrap = (kind[item] == IC_PROSE || kind[item] == IC_WRAPPED) && !e->key && !e->dashes &&
                        col <= yr_entry_at(d, item).key_s && d->l[i].s[col] != '#';
            counts[seq[item] * IC_KINDS + kind[item]]--;
            kind[item] = wrap ? IC_WRAPPED : IC_OTHER;
            counts[seq[item] * IC_KINDS + kind[item]]++;
        }
        if (item != (size_t)-1 && kind[item] == IC_STRING && e->key && !e->dashes &&
            yr_entry_at(d, item).indent < col) {
            /* `- id:Q` + a deeper `notes: x`: a property, so the item is a mapping
             * written wrong (yaml.colon-space's), no string */
            counts[seq[item] * IC_KINDS + kind[item]]--;
            kind[item] = IC_OTHER;
            counts[seq[item] * IC_KINDS + kind[item]]++;
        }
        yr_entry it;
        if (e->dashes) {
            if (!depth || st[depth - 1].col != col) {
                if (!grow((void **)&st, &st_cap, depth + 1, sizeof *st) ||
                    !grow((void **)&counts, &seq_cap, IC_KINDS * (next_seq + 1), sizeof *counts)) {
                    free(st), free(counts);
                    return -1;
                }
                /* the items after `key: - x` are the same list as x */
                bool same = inl != (size_t)-1 && col >= yr_entry_at(d, inl).indent;
                st[depth++] = (ic_level){(uint32_t)col, same ? seq[inl] : (uint32_t)next_seq++};
            }
            seq[i] = st[depth - 1].seq;
            kind[i] = (unsigned char)item_kind(l, e);
            counts[seq[i] * IC_KINDS + kind[i]]++;
            item = i;
            inl = (size_t)-1;
        } else if (inline_item(l, e, &it)) {
            if (!grow((void **)&counts, &seq_cap, IC_KINDS * (next_seq + 1), sizeof *counts)) {
                free(st), free(counts);
                return -1;
            }
            seq[i] = (uint32_t)next_seq++;
            kind[i] = (unsigned char)item_kind(l, &it);
            counts[seq[i] * IC_KINDS + kind[i]]++;
            item = (size_t)-1;
            inl = i;
        } else {
            inl = (size_t)-1;
        }
        yr_skip_note_line(&sk, d, i);
    }
    free(st);
    if (!counts && !grow((void **)&counts, &seq_cap, IC_KINDS, sizeof *counts))
        return -1;
    *counts_out = counts;
    return 0;
}

size_t yr_fix_item_colon(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    if (d->count >= UINT32_MAX)
        return 0;
    uint32_t *seq = malloc((d->count + 1) * sizeof *seq), *counts = NULL;
    unsigned char *kind = malloc(d->count + 1);
    if (!seq || !kind || ic_scan(d, seq, kind, &counts) != 0) {
        free(seq), free(kind);
        return 0;
    }
    yr_out o = {.b = out, .d = d};
    size_t changes = 0;
    unsigned char *root = malloc(d->count + 1);
    if (!root) {
        free(seq), free(kind), free(counts);
        return 0;
    }
    yr_root_plain_mark(d, root);
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        const uint32_t *c = &counts[seq[i] * IC_KINDS];
        if (root[i]) { /* `- x: y` under a root plain scalar is its text */
            yr_put_line(&o, l);
            continue;
        }
        /* broken and wrapped items have no other reading: whatever their siblings. The
         * others are decided on counts that taking them does not change (a taken item
         * counts as the string it becomes), so a second repair decides the same. */
        size_t strings = c[IC_STRING] + c[IC_BROKEN] + c[IC_WRAPPED];
        bool prose = c[IC_OTHER] == 0 && strings != 0;
        bool header = c[IC_OTHER] == 0 && (strings != 0 || c[IC_COLON] + c[IC_PROSE] == 0);
        bool colon = prose && strings + c[IC_PROSE] + c[IC_HEADER] >= c[IC_COLON];
        bool take = kind[i] == IC_BROKEN || kind[i] == IC_WRAPPED || (kind[i] == IC_PROSE && prose) ||
                    (kind[i] == IC_HEADER && header) || (kind[i] == IC_COLON && colon);
        if (!take) {
            yr_put_line(&o, l);
            continue;
        }
        const yr_entry orig = item_at(d, i);
        yr_entry as_value = orig;
        as_value.val = as_value.content;
        bool quoted = orig.val < orig.end && (l->s[orig.val] == '"' || l->s[orig.val] == '\'');
        size_t vend = yr_value_end(l, &as_value, quoted);
        as_value.key = false;
        mf_warnings_add(w, MF_RULE_ID(YAML_ITEM_COLON), yr_lineno(i),
                        "Quoted a list item containing ': ' %s (guessed that \"%.*s\" is one string, not a "
                        "one-key mapping).",
                        kind[i] == IC_HEADER    ? "keyed like a header or ticket id"
                        : kind[i] == IC_BROKEN  ? "whose value is no YAML scalar"
                        : kind[i] == IC_WRAPPED ? "wrapped onto lines no deeper than its key"
                                                : "whose sibling items are strings",
                        (int)(vend - orig.content), l->s + orig.content);
        size_t last = i;
        if (kind[i] == IC_WRAPPED)
            while (last + 1 < d->count && !(d->l[last + 1].flags & YR_INERT) &&
                   yr_entry_at(d, last + 1).indent > yr_entry_at(d, i).indent)
                last++;
        else /* the value's continuation lines (blank lines between them kept as line breaks) */
            for (size_t k = i + 1; k < d->count; k++) {
                if (d->l[k].flags & YR_PLAIN_CONT)
                    last = k;
                else if (!mf_line_blank((mf_line){d->l[k].s, d->l[k].n}))
                    break;
            }
        yr_put_quoted(&o, d, i, &as_value, vend, last);
        i = last;
        changes++;
    }
    free(seq), free(kind), free(counts), free(root);
    return yr_finish(&o, d, changes);
}

/* ---- yaml.doubled-quotes ---- */

/* `''text` or `""text` (doubled opening quotes, never closed, no quote
 * after them): the value is the text, written double-quoted. */
static size_t open_doubled(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    char q = l->s[e->val];
    size_t vend = yr_value_end(l, e, false);
    if (vend <= e->val + 2 || memchr(l->s + e->val + 2, q, vend - e->val - 2) ||
        (q == '"' && memchr(l->s + e->val + 2, '\\', vend - e->val - 2)))
        return 0;
    yr_put(o, l->s, e->val);
    yr_put_dq(o, l->s + e->val + 2, vend - e->val - 2);
    yr_put(o, l->s + vend, l->n - vend);
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_DOUBLED_QUOTES), yr_lineno(i),
                    "Removed doubled opening quotes that were never closed (guessed that %.*s is the value).",
                    (int)(vend - e->val - 2), l->s + e->val + 2);
    return i + 1;
}

static size_t fix_doubled(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                          mf_warnings *w)
{
    (void)p;
    const yr_line *l = &d->l[i];
    const char *v = l->s + e->val;
    size_t n = e->end - e->val;
    char q = v[0];
    if ((q != '"' && q != '\'') || n < 5)
        return 0;
    size_t lead = 0, trail = 0;
    while (lead < n && v[lead] == q)
        lead++;
    while (trail < n - lead && v[n - 1 - trail] == q)
        trail++;
    if (lead == 2 && trail == 0)
        return open_doubled(o, d, i, e, w);
    /* `'''x'''` is a valid single-quoted scalar ('x'): only two single quotes are doubled ones */
    if (lead != trail || lead < 2 || (q == '\'' && lead != 2) || lead + trail >= n)
        return 0;
    const char *in = v + lead;
    size_t in_n = n - lead - trail;
    for (size_t k = 0; k < in_n; k++)
        if (in[k] == q || (q == '"' && in[k] == '\\'))
            return 0;
    yr_put(o, l->s, e->val);
    yr_put(o, &q, 1);
    yr_put(o, in, in_n);
    yr_put(o, &q, 1);
    yr_put(o, l->s + e->end, l->n - e->end);
    yr_endl(o, YR_EOL(l));
    mf_warnings_add(w, MF_RULE_ID(YAML_DOUBLED_QUOTES), yr_lineno(i),
                    "Removed doubled outer quotes around a YAML scalar (guessed that %c%.*s%c is the value).", q,
                    (int)in_n, in, q);
    return i + 1;
}

size_t yr_fix_doubled_quotes(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return yr_run_line_rule(d, out, p, w, fix_doubled, 0);
}
