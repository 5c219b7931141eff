/* yaml_repair_indent.c - repairs of list item indentation.
 *
 * yaml.sequence-indent-drift (#16): after a block scalar (`- text: >-` and
 * its body) models often start the next sibling item 1-3 columns off, and
 * anywhere they may start it 1-3 columns deeper than its siblings. Each
 * sequence level (the column of its first dash) is tracked on a stack; a dash
 * that is 1-3 columns off the innermost level that has held a block scalar,
 * or 1-3 columns deeper than the innermost level, and that is not a new
 * nested sequence under a bare parent line (`key:` or `-`; a dash left of
 * that key's column is none), is moved back to
 * the level's column. The item's own properties name its level first: a dash
 * between an inner level that held a block and an outer one whose property
 * column its next line sits at belongs to the outer one; a dash left of an
 * inner level that held no block and nearer to the level around it goes there.
 * yaml.property-indent (#17): inside a list item `- key: v`, a property line
 * that follows another direct property of the item and sits deeper than the
 * dash but 1-2 columns off dash_indent + 2 is re-indented to the item's
 * content column. Lines under a bare parent key are children, not siblings,
 * and are left alone.
 * yaml.block-body-indent: the text under a block scalar header written at or
 * left of its key (`free_text: >-` then `First line.` at column 0) is the
 * body: those lines, up to the next entry with an identifier key or a list
 * item at or left of the key, move right together from the first line left
 * of the body's column on (relative indentation kept), the leftmost to that
 * column: the first body line's when it is deeper than the key, else the
 * key's column + 2. */
#include <stdlib.h>
#include "yaml_repair.h"

/* Note input line i, written with its indentation moved to column `to`. */
static void note_moved(yr_skip *sk, const yr_doc *d, size_t i, size_t to)
{
    yr_skip_note_line(sk, d, i);
    if (d->l[i].flags & YR_OPENS_BLOCK)
        sk->blk.parent = sk->blk.parent - yr_entry_at(d, i).indent + to;
}

/* ---- yaml.sequence-indent-drift ---- */

typedef struct { size_t col; bool had_block; } sd_level;

static size_t diff(size_t a, size_t b) { return a > b ? a - b : b - a; }

/* Push a level, growing the stack; false on OOM. */
static bool sd_push(sd_level **lv, size_t *depth, size_t *cap, size_t col)
{
    if (*depth == *cap) {
        sd_level *n = realloc(*lv, *cap * 2 * sizeof **lv);
        if (!n)
            return false;
        *lv = n;
        *cap *= 2;
    }
    (*lv)[(*depth)++] = (sd_level){col, false};
    return true;
}

/* The column of the list a drifted dash on line i (entry e) belongs to, told
 * by its properties: when the item holds a key or a scalar (` - e`, a bare
 * item yaml.item-key names; the caller keeps a scalar dash a plain value
 * before it runs on over), the next content line is a key left of the
 * item's content column, at c, and an open level sits at c - 2 within 3
 * columns of the dash (`   - id: E2` then `  title: x` under a list at
 * column 0), that level's column; else the dash's own column. */
static size_t props_level(const yr_doc *d, const mf_profile *p, size_t i, const yr_entry *e, const sd_level *lv,
                          size_t depth)
{
    size_t k = i + 1;
    while (k < d->count && (d->l[k].flags & YR_INERT))
        k++;
    /* a quoted scalar item holds no properties: `   - "id:x"` then `  profile: y` (run 22 663a3a71) */
    const char *v = d->l[i].s + e->val;
    if (k >= d->count || !(e->key || (yr_value_end(&d->l[i], e, true) > e->val && *v != '"' && *v != '\'')))
        return e->indent;
    yr_entry n = yr_entry_at(d, k);
    if (!n.key || n.dashes || n.indent >= e->content || n.indent < 2 || n.indent - 2 == e->indent)
        return e->indent;
    /* a scalar item holds properties only when yaml.item-key names it there: `   - i` then
     * `  op: c` is an item of the list at column 2 and `op` its parent's key (run 22 8dc96e5d) */
    for (size_t j = depth; j-- > 0;)
        if (lv[j].col == n.indent - 2 && diff(lv[j].col, e->indent) <= 3)
            return e->key || yr_item_key_names(d, p, i, e, lv[j].col) ? lv[j].col : e->indent;
    return e->indent;
}

/* The leftmost column a dash after entry e nests at when e is a bare parent
 * line: a key's column (`key:`), right of a bare dash (`-`); SIZE_MAX when e
 * opens nothing. A dash left of a bare key's column cannot be its child
 * (`  a b:` then ` - id: Q` is no list under `a b`). */
static size_t opener_nest_col(const yr_entry *e)
{
    if (e->key && e->val == e->end)
        return e->key_s;
    if (!e->key && e->dashes && e->content >= e->end)
        return e->dash + 1;
    return (size_t)-1;
}

/* Does moving block header line i (entry e) from its column to `to` change which line is its
 * body's first: the next non-blank line sits deeper than the key's column at one place and
 * not at the other (`   -  notes: |-` then `      id:2`, body text once the dash is back
 * at column 2)? */
static bool move_changes_body(const yr_doc *d, size_t i, const yr_entry *e, size_t to)
{
    size_t k = i + 1;
    while (k < d->count && mf_line_blank((mf_line){d->l[k].s, d->l[k].n}))
        k++;
    if (k >= d->count)
        return false;
    size_t parent = e->key ? e->key_s : e->dash, moved = parent - e->indent + to;
    size_t y = mf_line_indent((mf_line){d->l[k].s, d->l[k].n});
    return (y > parent) != (y > moved);
}

/* The drift repair; with `block_bodies`, only the dashes of block scalar headers whose
 * move changes which lines are the block's body. */
static size_t drift(const yr_doc *d, const mf_profile *p, mf_buf *out, mf_warnings *w, bool block_bodies)
{
    size_t cap = 64;
    sd_level *lv = malloc(cap * sizeof *lv);
    if (!lv) {
        return 0;
    }
    yr_out o = {.b = out, .d = d};
    yr_skip sk = {{0}, 0};
    size_t depth = 0, changes = 0;
    size_t plain_col = (size_t)-1; /* a deeper line continues the plain value of the line before */
    size_t split_from = (size_t)-1, split_to = 0; /* properties that moved with a drifted dash line */
    size_t nest_col = (size_t)-1; /* a dash at or right of it nests under the bare parent line before */
    bool ok = true;
    for (size_t i = 0; i < d->count && ok; i++) {
        const yr_line *l = &d->l[i];
        if (yr_skip_line(&sk, l) || (l->flags & YR_INERT)) {
            yr_put_line(&o, l);
            continue;
        }
        yr_entry e = yr_entry_at(d, i);
        size_t x = e.indent, to = x;
        if (split_from != (size_t)-1 && !e.dashes && x == split_from) {
            yr_spaces(&o, split_to);
            yr_put(&o, l->s + x, l->n - x);
            yr_endl(&o, YR_EOL(l));
            note_moved(&sk, d, i, split_to);   /* under the dash line's warning */
            continue;
        }
        split_from = (size_t)-1;
        if (e.dashes) {
            while (depth && lv[depth - 1].col > x + 3)
                depth--;
            if (depth && lv[depth - 1].col > x && depth >= 2 && lv[depth - 2].col == x)
                depth--;
            if (!depth) {
                ok &= sd_push(&lv, &depth, &cap, x);
            } else if (lv[depth - 1].col == x) {
                /* a sibling at the list's column after the block: the model found the column
                 * again, so a later dash off it is no drift after a block (run 41 f9f9bd20) */
                lv[depth - 1].had_block = false;
            } else {
                sd_level *top = &lv[depth - 1];
                /* left of an inner list, 1-3 columns right of the list around it and nearer to
                 * it: that list's item, drifted (`    - arm` then ` - name: s` under a list at
                 * column 0; run 22 b4e6fa0b), after a block too (run 41 c257d34b) */
                bool outer_nearer = top->col > x && depth >= 2 && lv[depth - 2].col < x &&
                                    diff(lv[depth - 2].col, x) < diff(top->col, x) &&
                                    diff(lv[depth - 2].col, x) <= 3 && (e.key || x <= plain_col);
                if (top->col < x && x >= nest_col) {
                    ok &= sd_push(&lv, &depth, &cap, x);
                } else if ((e.key || x <= plain_col) && (to = props_level(d, p, i, &e, lv, depth)) != x) {
                    while (lv[depth - 1].col > to)
                        depth--; /* the item's properties name its list */
                } else if ((top->had_block || (top->col < x && (x <= plain_col || e.key))) && diff(top->col, x) <= 3 &&
                           !outer_nearer) {
                    /* deeper with nothing to nest under (a plain value before it may run on over the
                     * line, but not when the item holds a key: `op: y` then `   - title: R`), or
                     * drifted after a block */
                    to = top->col;
                } else if (outer_nearer) {
                    depth--;
                    to = lv[depth - 1].col;
                } else {
                    if (top->col > x)
                        depth--;
                    ok &= sd_push(&lv, &depth, &cap, x);
                }
            }
            /* `- - a`: each further dash on the line opens a nested level */
            for (size_t k = x + 1; k < e.content; k++)
                if (l->s[k] == '-')
                    ok &= sd_push(&lv, &depth, &cap, k - x + to);
        } else {
            while (depth && lv[depth - 1].col >= x)
                depth--;
        }
        if (block_bodies && to != x && !((l->flags & YR_OPENS_BLOCK) && move_changes_body(d, i, &e, to)))
            to = x;
        if (to != x) {
            yr_spaces(&o, to);
            yr_put(&o, l->s + x, l->n - x);
            yr_endl(&o, YR_EOL(l));
            mf_warnings_add(w, MF_RULE_ID(YAML_SEQUENCE_INDENT_DRIFT), yr_lineno(i),
                            "Re-aligned a YAML sequence dash that drifted off its list's column.");
            changes++;
            /* the item's first properties at the drifted dash's key column (split off its line by
             * yaml.inline-keys: `   - id: Q04 phase: x`) while the next one sits at the list's
             * property column: they drifted with the dash and move back with it (run 7 4ba5ae77) */
            size_t k = i + 1, run = 0, pc = to + (e.content - x);
            for (; k < d->count; k++) {
                if (d->l[k].flags & YR_INERT)
                    continue;
                yr_entry ke = yr_entry_at(d, k);
                if (ke.dashes || !ke.key || ke.indent != e.content || (d->l[k].flags & YR_OPENS_BLOCK))
                    break;
                run++;
            }
            /* so do all of them when the item ends after them (the text does, or a line at or left
             * of the list's column follows): the whole item drifted (run 19 f4830d30) */
            yr_entry ne = k < d->count ? yr_entry_at(d, k) : e;
            bool item_ends = k >= d->count || ne.indent <= to;
            if (e.key && run && pc < e.content && (item_ends || (!ne.dashes && ne.key && ne.indent == pc)))
                split_from = e.content, split_to = pc;
        } else {
            yr_put_line(&o, l);
        }
        bool was = sk.blk.active;
        note_moved(&sk, d, i, to);
        if (!was && sk.blk.active && depth)
            lv[depth - 1].had_block = true;
        nest_col = opener_nest_col(&e);
        if (nest_col != (size_t)-1)
            nest_col = nest_col - x + to; /* where the moved line opens it: `   - b:` + `  - c` back at 0 */
        plain_col = yr_entry_valued(&e) && yr_plain_start(l->s + e.val, e.end - e.val) ? (e.key ? e.key_s : e.dash)
                                                                                         : (size_t)-1;
    }
    free(lv);
    if (!ok)
        o.oom = true;
    size_t n = yr_finish(&o, d, changes);
    return n;
}

size_t yr_fix_seq_indent_drift(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return drift(d, p, out, w, false);
}

size_t yr_fix_drifted_block_headers(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    return drift(d, p, out, w, true);
}

/* ---- yaml.property-indent ---- */

/* A list item: its dash, its properties' column, and the column its last
 * property was written at when this rule moved it (NO_FROM: not moved). A
 * later line written at that column is the moved line's sibling, not its
 * child, after a nested list too (`    options:` + `      - o` +
 * `    answer:` under `   phase:`; run 11 fcd4dba5): it moves along, or
 * the move made it the child of the line it sat beside. */
typedef struct { uint32_t dash, col, from; } pi_item;
#define NO_FROM UINT32_MAX

/* Does the property line at x (not a dash) under item `it` belong on the
 * item's column: 1-2 columns off it, right of the dash, and either the
 * sibling of a property just before it on that column or written where the
 * item's last moved property was? */
static bool off_item_column(const pi_item *it, size_t x, bool after_property_at_col)
{
    if (x == it->col || x <= it->dash || diff(x, it->col) > 2)
        return false;
    return after_property_at_col || x == it->from;
}

/* The end of the value block of key line i (a key with no value) that this rule
 * moves right from x to `to`, when the block must move with it: its first line is a
 * dash at x (a compact list, `  tags:` + `  - prod`) or at most at `to`, left where
 * it is it would no longer be the key's (run 42 900320e0-rcadb1341). The block is
 * every later line deeper than x or a dash at x; i + 1 when nothing must move. */
static size_t carried_value_end(const yr_doc *d, size_t i, size_t x, size_t to)
{
    size_t end = i + 1;
    bool first = true;
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        if (mf_line_blank((mf_line){l->s, l->n}) || (l->flags & YR_INERT))
            continue;
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        bool dash = l->s[y] == '-' && (y + 1 == l->n || l->s[y + 1] == ' ');
        if (first && !(dash && y == x) && !(y > x && y <= to))
            return i + 1;
        if (y < x || (y == x && !dash))
            break;
        first = false;
        end = k + 1;
    }
    return end;
}

size_t yr_fix_property_indent(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    pi_item *it = malloc((d->count + 1) * sizeof *it);
    if (!it) {
        return 0;
    }
    yr_out o = {.b = out, .d = d};
    yr_skip sk = {{0}, 0};
    size_t depth = 0, changes = 0, prev_col = (size_t)-1;
    bool prev_opener = false;
    long shift = 0; /* columns the block scalar header above moved: its body moves with it */
    size_t carry_end = 0, carry = 0; /* lines before carry_end move `carry` columns right with their key */
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (i < carry_end) {
            if (!mf_line_blank((mf_line){l->s, l->n}))
                yr_spaces(&o, carry);
            yr_put(&o, l->s, l->n);
            yr_endl(&o, YR_EOL(l));
            continue;
        }
        bool dq = sk.quote != 0;
        bool skip = yr_skip_line(&sk, l), body = skip && !dq;
        if (skip || (l->flags & YR_INERT)) {
            size_t sp = mf_line_indent((mf_line){l->s, l->n});
            if (shift && body && sp < l->n) {
                /* a body line keeps its place relative to the header: a `|2-`
                 * indicator counts from the header's column (regression bd7651ec) */
                size_t to = shift > 0 ? sp + (size_t)shift : sp - ((size_t)-shift < sp ? (size_t)-shift : sp);
                yr_spaces(&o, to);
                yr_put(&o, l->s + sp, l->n - sp);
                yr_endl(&o, YR_EOL(l));
            } else {
                yr_put_line(&o, l);
            }
            continue;
        }
        shift = 0;
        yr_entry e = yr_entry_at(d, i);
        size_t x = e.indent, to = x;
        if (e.dashes) {
            while (depth && it[depth - 1].dash >= x)
                depth--;
            for (size_t j = depth; j > 0 && it[j - 1].col + 2 >= x; j--)
                if (it[j - 1].from != NO_FROM && x <= it[j - 1].from)
                    it[j - 1].from = NO_FROM; /* an item written there: no more siblings of the moved line */
            it[depth++] = (pi_item){e.dash, e.key ? e.key_s : e.content, NO_FROM};
            prev_col = e.key ? e.key_s : (size_t)-1;
        } else {
            while (depth && it[depth - 1].dash >= x)
                depth--;
            pi_item *top = depth ? &it[depth - 1] : NULL;
            if (e.key && top && off_item_column(top, x, !prev_opener && prev_col == top->col))
                to = top->col;
            if (e.key && top && to == top->col)
                top->from = to != x ? (uint32_t)x : NO_FROM;
            prev_col = e.key ? to : (size_t)-1;
        }
        if (to != x) {
            if (l->flags & YR_OPENS_BLOCK)
                shift = (long)to - (long)x;
            else if (to > x && e.key && e.val >= e.end && (carry_end = carried_value_end(d, i, x, to)) > i + 1)
                carry = to - x;
            yr_spaces(&o, to);
            yr_put(&o, l->s + x, l->n - x);
            yr_endl(&o, YR_EOL(l));
            mf_warnings_add(w, MF_RULE_ID(YAML_PROPERTY_INDENT), yr_lineno(i),
                            "Re-indented YAML list item property lines to the item's indentation.");
            changes++;
        } else {
            yr_put_line(&o, l);
        }
        note_moved(&sk, d, i, to);
        prev_opener = yr_entry_opener(&e);
    }
    free(it);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.block-body-indent ---- */

/* True when line k can only be text of a block body written too far left:
 * not blank, not a comment or document marker, no identifier key, no dash. */
static bool stray_text(const yr_doc *d, size_t k)
{
    const yr_line *l = &d->l[k];
    if (l->flags & YR_INERT)
        return false;
    yr_entry e = yr_entry_at(d, k);
    return !e.dashes && !(e.key && yr_is_ident(l->s + e.key_s, e.key_e - e.key_s));
}

/* True when line k is an entry whose key is a closed quoted scalar (`"a\"b": v`). */
static bool quoted_key(const yr_doc *d, size_t k)
{
    yr_entry e = yr_entry_at(d, k);
    char c = e.key && e.key_e > e.key_s ? d->l[k].s[e.key_s] : 0;
    return c == '"' || c == '\'';
}

/* True when line k is an entry whose key is one word with no blanks
 * (`k"ind: v`, `(name: v`): the loader reads it as a key. */
static bool word_key(const yr_doc *d, size_t k)
{
    yr_entry e = yr_entry_at(d, k);
    if (!e.key || e.key_e <= e.key_s)
        return false;
    for (size_t j = e.key_s; j < e.key_e; j++)
        if (d->l[k].s[j] == ' ' || d->l[k].s[j] == '\t')
            return false;
    return true;
}

/* True when line k is a bare key (`acceptance criteria:`) whose next content line is a
 * list item at or right of its column, or an entry right of it (`a b:` + `  patterns: y`;
 * run 29 9cd5da4d): the loader reads the key as holding that list or mapping. */
static bool collection_parent(const yr_doc *d, size_t k)
{
    yr_entry e = yr_entry_at(d, k);
    if (!e.key || e.dashes || e.val != e.end)
        return false;
    size_t n = k + 1;
    while (n < d->count && (d->l[n].flags & YR_INERT))
        n++;
    if (n >= d->count)
        return false;
    yr_entry ne = yr_entry_at(d, n);
    return (ne.dashes && ne.indent >= e.indent) || (ne.key && ne.indent > e.indent);
}

bool yr_fallen_body_line(const yr_doc *d, size_t k, bool left)
{
    return stray_text(d, k) && (left || (!quoted_key(d, k) && !word_key(d, k) && !collection_parent(d, k)));
}

/* The last line of the body under block header line i when some of its lines fell to
 * or left of the header's key (the rule's reading), or i when none did; *stop: the
 * indentation of the entry that ends it (0 at the end of the text). */
static size_t fallen_body_end(const yr_doc *d, size_t i, size_t *stop)
{
    yr_entry e = yr_entry_at(d, i);
    size_t col = e.key ? e.key_s : e.dash, last = i;
    bool left = false;
    *stop = 0;
    /* the body: following lines up to the last stray text line before an
     * entry at or left of col, or (once a line fell left of col) before any
     * entry with an identifier key (blank lines between them included) */
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *m = &d->l[k];
        if (mf_line_blank((mf_line){m->s, m->n}))
            continue;
        size_t ind = mf_line_indent((mf_line){m->s, m->n});
        /* a quoted key (`"a b": v`) at or left of col before any line fell left is a
         * sibling, as the loader reads it; in a fallen body it is text (a JSON snippet) */
        if ((ind <= col || left) && !yr_fallen_body_line(d, k, left)) {
            *stop = ind;
            break;
        }
        left = left || ind <= col;
        last = k;
    }
    for (size_t k = i + 1; k <= last; k++)
        if (!mf_line_blank((mf_line){d->l[k].s, d->l[k].n}) && mf_line_indent((mf_line){d->l[k].s, d->l[k].n}) <= col)
            return last;
    return i;
}

size_t yr_fallen_body_last(const yr_doc *d, size_t i)
{
    size_t stop;
    return (d->l[i].flags & YR_OPENS_BLOCK) ? fallen_body_end(d, i, &stop) : i;
}

size_t yr_fix_block_body_indent(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    yr_out o = {.b = out, .d = d};
    yr_skip sk = {{0}, 0};
    size_t changes = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (yr_skip_line(&sk, l) || !(l->flags & YR_OPENS_BLOCK)) {
            yr_put_line(&o, l);
            if (!(l->flags & YR_INERT))
                yr_skip_note_line(&sk, d, i);
            continue;
        }
        yr_entry e = yr_entry_at(d, i);
        size_t col = e.key ? e.key_s : e.dash, body = col + 2, stop = 0;
        size_t last = fallen_body_end(d, i, &stop);
        bool stray = last > i;
        yr_put_line(&o, l);
        if (!stray) {
            yr_skip_note_line(&sk, d, i);
            continue;
        }
        /* the body's column: its first line's when that is deeper than col; lines
         * left of it move right by the same amount, keeping their relative indentation */
        size_t low = (size_t)-1;
        for (size_t k = i + 1; k <= last; k++) {
            const yr_line *m = &d->l[k];
            if (mf_line_blank((mf_line){m->s, m->n}))
                continue;
            size_t ind = mf_line_indent((mf_line){m->s, m->n});
            if (low == (size_t)-1 && ind > col)
                body = ind;
            low = low == (size_t)-1 || ind < low ? ind : low;
        }
        if (stop > col && stop + 2 > body)
            body = stop + 2; /* an over-indented entry after the body must not read as its text */
        bool fallen = false; /* from the first line left of the body on, every line moves */
        for (size_t k = i + 1; k <= last; k++) {
            const yr_line *m = &d->l[k];
            bool text = !mf_line_blank((mf_line){m->s, m->n});
            fallen = fallen || (text && mf_line_indent((mf_line){m->s, m->n}) < body);
            if (text && fallen)
                yr_spaces(&o, body - low);
            yr_put_line(&o, m);
        }
        mf_warnings_add(w, MF_RULE_ID(YAML_BLOCK_BODY_INDENT), yr_lineno(i),
                        "Indented the text lines under a YAML block scalar header that were written at or left of "
                        "its key (guessed that lines %d-%d are its body).", yr_lineno(i + 1), yr_lineno(last));
        changes++;
        i = last;
    }
    return yr_finish(&o, d, changes);
}
