/* yaml_repair_inline.c - repairs of the line structure of mappings and sequences.
 *
 * yaml.inline-sequence-parent (#2) moves `key: - item` onto two lines, the
 * dash aligned with the item's following properties; an item that is itself
 * `key: - item` (`a: - b: - c`) is split again under its own key, so the rule
 * is idempotent. yaml.colon-space (#3)
 * inserts the space a simple `key:value` entry is missing (two or more
 * identifier characters, so Windows drives and URLs stay as they are).
 * yaml.inline-keys (#4) splits `a: 1 b: 2` into one entry per line; a split is
 * made between a value that is clearly one scalar and a key the profile or
 * the rest of the document knows, or (a guess, said in the warning) on a line
 * whose keys are all lower-case identifiers and whose values are all one word,
 * quoted or flow (the last may be prose after two splits); whitelisted
 * parents (`progress: current: 4 total: 17`) open a nested block, and so does
 * an empty key in a guessed line (its children: the keys after it in one
 * naming style, two at least: `note: x: y` stays the value "x: y"). List
 * items written inline (`opts: - id: a label: x - id: b`, `ids: - a - b`)
 * are written one per line (ik_plan_seq). yaml.dash-space (#9) turns
 * `-key: v` into `- key: v` (never `-5` or `---`). yaml.nested-children (#1)
 * indents a bare parent's whitelisted children that were written at the
 * parent's own indentation. */
#include <stdlib.h>
#include <string.h>
#include "yaml_repair.h"

static const char MSG_INLINE[] = "Repaired inline YAML sequence or mapping syntax before parsing.";

/* Index of the next line after i that is neither blank nor a comment, or d->count. */
static size_t next_content(const yr_doc *d, size_t i)
{
    for (size_t k = i + 1; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        size_t ind = mf_line_indent((mf_line){l->s, l->n});
        if (!mf_line_blank((mf_line){l->s, l->n}) && l->s[ind] != '#')
            return k;
    }
    return d->count;
}

/* Index of the last line before i that is neither blank nor a comment, or d->count. */
static size_t prev_content(const yr_doc *d, size_t i)
{
    for (size_t k = i; k-- > 0;) {
        const yr_line *l = &d->l[k];
        size_t ind = mf_line_indent((mf_line){l->s, l->n});
        if (!mf_line_blank((mf_line){l->s, l->n}) && l->s[ind] != '#')
            return k;
    }
    return d->count;
}

/* The next content line after line i and the lines of a flow collection line i
 * opens (fend, yr_flow_ends): a flow's later lines are no siblings (`  - [1` +
 * `, 2]` at column 0 is still the list item's value). */
static size_t next_entry_line(const yr_doc *d, const uint32_t *fend, size_t i)
{
    return next_content(d, fend[i] ? fend[i] : i);
}

static bool is_dash_at(const char *s, size_t n, size_t i)
{
    return i < n && s[i] == '-' && (i + 1 == n || s[i + 1] == ' ');
}

/* Offset of the ':' when the content at c is `-key:` (then a space or the end), else 0. */
static size_t dash_key(const char *s, size_t end, size_t c)
{
    size_t k = c + 1;
    while (k < end && s[k] != ':' && s[k] != ' ')
        k++;
    if (c + 1 < end && s[c] == '-' && k < end && s[k] == ':' && (k + 1 == end || s[k + 1] == ' ') &&
        yr_is_ident(s + c + 1, k - c - 1))
        return k;
    return 0;
}

/* ---- yaml.inline-sequence-parent ---- */

/* Is there a dash line at column c after line k, before the first line at or left of
 * col: a later sibling of the moved item at c? */
static bool later_dash_at(const yr_doc *d, size_t k, size_t col, size_t c, size_t *budget)
{
    for (k = next_content(d, k); k < d->count && *budget; k = next_content(d, k), --*budget) {
        const yr_line *l = &d->l[k];
        if (l->flags & (YR_CONT | YR_INERT))
            continue;
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        if (y == c && is_dash_at(l->s, l->n, y))
            return true;
        if (y <= col)
            return false;
    }
    return false;
}

/* The column of the moved item's list: the first sibling dash after its
 * property lines (deeper than col, from line k on) when there is one at or
 * right of col, else `guess` (the properties' column - 2). A property 1-2
 * columns off is yaml.property-indent's to move. A dash at the properties'
 * column or deeper is an item of a property's own list, no sibling: the scan
 * goes on past it (`options:` + `      - id: o` hid the sibling `  - id: Q02`,
 * and a first property drifted left set the column; run 11 fcd4dba5). */
static size_t sibling_dash(const yr_doc *d, size_t k, size_t col, size_t guess, size_t *budget)
{
    bool block = false; /* a property opened a block scalar: a dash after it may have drifted */
    uint64_t key_cols = 0; /* the columns (< 64) of the moved item's property lines */
    for (; k < d->count && *budget; k = next_content(d, k), --*budget) {
        const yr_line *l = &d->l[k];
        if (l->flags & YR_CONT)
            continue;
        size_t x = mf_line_indent((mf_line){l->s, l->n});
        /* the dash drifted after the block (yaml.sequence-indent-drift moves it back), unless a
         * property sits at its key column: then the guess came from a property drifted left */
        if (is_dash_at(l->s, l->n, x) && block && x != guess && !(x + 2 < 64 && (key_cols >> (x + 2) & 1)))
            return guess;
        if (is_dash_at(l->s, l->n, x) && x >= guess + 2)
            continue;
        /* one column right of the properties' guess, with a later sibling at the guess: that
         * one's column, as the properties say; the first drifted (run 48 38c09bb3: a property
         * drifted right sat at its key column) */
        if (is_dash_at(l->s, l->n, x) && x == guess + 1 && later_dash_at(d, k, col, guess, budget))
            return guess;
        if (is_dash_at(l->s, l->n, x))
            return x >= col && x + 2 >= guess ? x : guess;
        /* a quoted header (`notes: "|-"`) is one too: yaml.quoted-block-indicator unquotes it
         * (run 48 d56f96a9) */
        block = block || (l->flags & (YR_OPENS_BLOCK | YR_QUOTED_BLOCK));
        if (x < 64 && !is_dash_at(l->s, l->n, x) && yr_entry_at(d, k).key)
            key_cols |= 1ull << x;
        if (x <= col)
            break;
    }
    return guess;
}

/* The leftmost column of the moved item's properties: the key lines from line k
 * on that sit right of col (its key's column), up to the first line at or left
 * of it; x when none is further left. One property the model drifted deeper
 * (`      text: W` above `    notes: x`) does not move the item (regression
 * 18dc93dd), nor does a drifted property of a later item: the scan ends at the
 * first dash left of the properties (a sibling item). A glued `role:r` is a key
 * line, yaml.colon-space spaces it next (regression f908a19a). A budget keeps
 * the scans of many moved items linear. */
static size_t min_property_col(const yr_doc *d, size_t k, size_t col, size_t x, size_t *budget)
{
    size_t m = x, text = x;             /* text: the leftmost line of the moved value's own text */
    bool keyed = false;                 /* with no key line, the lines are text of the item's value */
    for (; k < d->count && *budget; k = next_content(d, k), --*budget) {
        const yr_line *l = &d->l[k];
        if (l->flags & YR_CONT)
            continue;
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        if (y <= col)
            break;
        yr_entry e = yr_entry_at(d, k);
        if (e.dashes && y < m)
            break;                      /* a sibling item: its properties are not the moved item's (run 7 f9ac7096) */
        bool key = !e.dashes && (e.key || yr_glued_entry_line(d, k));
        keyed = keyed || key;
        if (key && y < m && y >= col + 2)
            m = y;
        if (!key && !e.dashes && y < text && y >= col + 2)
            text = y;                   /* `steps: - id: S1` + `      run` + `    more`: "S1 run more" */
    }
    if (keyed || text < col + 4)
        return m;
    return text - 1 < col + 4 ? text - 1 : col + 4; /* the item's key left of its text: at col + 2 if it fits */
}

/* The explicit indentation indicator of a `- |2-` / `- >1` item [s, s+n), or 0. */
static size_t block_indent_indicator(const char *s, size_t n)
{
    size_t i = 2;
    while (i < n && s[i] == ' ')
        i++;
    if (i >= n || (s[i] != '|' && s[i] != '>'))
        return 0;
    return yr_block_indicator(s + i, n - i);
}

static bool inline_scalar_list(const char *s, const yr_entry *e);
static bool glued_first_key_item(const yr_line *n, size_t x, const char *v, size_t vn);

/* The column of a moved item [v, v+vn) that opens nested lists (`key: - - 1`)
 * when the next line is a dash at x: x is that of a sibling, unless x is the
 * column of one of the item's inner lists counted from the key's column
 * (key + 2, key + 4, ...) and a later dash line of the same run sits at the
 * key's column (`- - 3`, the next row as a YAML emitter writes it, or `-id: 3`,
 * which yaml.dash-space reads as that row there): then the line at x is an
 * inner item and the row's dash goes at the key's column.
 * *budget bounds the lines looked at over the whole text. */
static size_t nested_row_dash(const yr_doc *d, size_t nx, const yr_entry *e, const char *v, size_t vn, size_t x,
                              size_t *budget)
{
    yr_entry r;
    yr_entry_parse(v, vn, &r);
    if (r.dashes < 2 || x <= e->key_s || (x - e->key_s) % 2 || (x - e->key_s) / 2 >= r.dashes)
        return x;
    for (size_t k = next_content(d, nx); k < d->count && *budget; k = next_content(d, k), --*budget) {
        const yr_line *l = &d->l[k];
        if (l->flags & YR_CONT)
            continue;
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        if (y <= e->key_s)
            return y == e->key_s && (is_dash_at(l->s, l->n, y) || dash_key(l->s, yr_entry_at(d, k).end, y)) ? y : x;
    }
    return x;
}

/* The column of a moved item [v, v+vn) that is a key with no value (`steps: - id:`)
 * when the dash line under it at x is that key's list: its sibling item after
 * those rows sits at x - 2 (`  - S1` then `- id: S`; regression 01f08cf4, or
 * `-id: S`, its space lost; run 39 3ce77212), so the item goes there. Without
 * such a sibling the rows may as well be its siblings: the item stays at x.
 * Other items: nested_row_dash. */
static size_t opener_item_dash(const yr_doc *d, size_t nx, const yr_entry *e, const char *v, size_t vn, size_t x,
                               size_t *budget)
{
    yr_entry r;
    yr_entry_parse(v, vn, &r);
    if (r.dashes != 1 || !r.key || r.val < r.end || x < e->key_s + 2)
        return nested_row_dash(d, nx, e, v, vn, x, budget);
    for (size_t k = next_content(d, nx); k < d->count && *budget; k = next_content(d, k), --*budget) {
        const yr_line *l = &d->l[k];
        if (l->flags & YR_CONT)
            continue;
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        if (y >= x)
            continue;
        return y == x - 2 && (is_dash_at(l->s, l->n, y) || glued_first_key_item(l, y, v, vn)) ? y : x;
    }
    return x;
}

/* True when the dash line nx (a `- key: v` item at x) is no sibling of the moved
 * item: its next line is a property left of its content column and at or left of
 * the moved item's key column (col), where a sibling's properties never are: the
 * item drifted off an outer list (`test_commands: - m` / `     - id: b` /
 * `    title: T`, yaml.sequence-indent-drift moves it back; run 9 08e53d4a). */
static bool outer_drifted_item(const yr_doc *d, size_t nx, size_t col)
{
    const yr_entry n = yr_entry_at(d, nx);
    if (!n.key || n.dashes != 1 || (d->l[nx].flags & (YR_INERT | YR_CONT)))
        return false;
    size_t k = next_content(d, nx);
    if (k >= d->count || (d->l[k].flags & (YR_INERT | YR_CONT)))
        return false;
    const yr_entry f = yr_entry_at(d, k);
    return f.key && !f.dashes && f.indent < n.content && f.indent <= col;
}

/* Is line n, at x, `-key:` with key the first key of the moved item [v, v+vn)
 * (`steps: - id: S` + `  -id: S`)? yaml.dash-space reads it as the next item,
 * its space lost, not a property "-id" (its item_first_key_repeated): a sibling
 * dash at x. */
static bool glued_first_key_item(const yr_line *n, size_t x, const char *v, size_t vn)
{
    yr_entry r;
    yr_entry_parse(v, vn, &r);
    size_t kn = r.key_e - r.key_s, c = x + 1 + kn;
    return r.key && r.dashes == 1 && kn && c < n->n && n->s[x] == '-' && memcmp(n->s + x + 1, v + r.key_s, kn) == 0 &&
           n->s[c] == ':' && (c + 1 == n->n || n->s[c + 1] == ' ');
}

/* Does the moved item [v, v+vn) open a block scalar after its dashes or its first
 * key (`- - |-`, `- name: |`, `- te: |-# c`, its comment glued)? Its deeper lines
 * are then that scalar's body, which must stand right of *owner, the offset of what
 * the header belongs to (its key, or its last dash). */
static bool moved_block_header(const char *v, size_t vn, size_t *owner)
{
    yr_entry r;
    yr_entry_parse(v, vn, &r);
    size_t c = r.key ? r.val : r.content;
    *owner = r.key ? r.key_s : r.dash;
    return r.dashes && c < vn && (yr_is_block_header(v + c, vn - c) || yr_header_glued_comment(v + c, vn - c));
}

/* The first line after the body of a moved block item whose body starts at nx (the
 * body's column is its first line's; no dash line starts it, as the item's move keeps
 * none that does) when it is a dash line right of col, else nx: the line that tells the
 * item's column (`matrix: - - |-` + body + `  - 2` + `- - 3`, run 46 9d85b13b). */
static size_t after_moved_body(const yr_doc *d, size_t nx, size_t col)
{
    const yr_line *b = &d->l[nx];
    size_t body = mf_line_indent((mf_line){b->s, b->n});
    if (body <= col || is_dash_at(b->s, b->n, body))
        return nx;
    for (size_t k = next_content(d, nx); k < d->count; k = next_content(d, k)) {
        const yr_line *l = &d->l[k];
        size_t y = mf_line_indent((mf_line){l->s, l->n});
        if (y >= body || (l->flags & YR_INERT))
            continue;
        return is_dash_at(l->s, l->n, y) && y >= col ? k : nx;
    }
    return nx;
}

size_t yr_fix_inline_seq_parent(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    uint32_t *fend = malloc((d->count + 1) * sizeof *fend);
    if (!fend)
        return 0;
    yr_flow_ends(d, fend);
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0, budget = 4 * d->count + 4096, flow = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (i < flow || yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_QUOTE_CONT))) {
            yr_put_line(&o, l);
            continue;
        }
        if (fend[i])
            flow = fend[i] + 1;
        yr_entry e = yr_entry_at(d, i);
        if (!e.key || e.val + 2 > e.end || !is_dash_at(l->s, e.end, e.val) || l->s[e.val + 1] != ' ' ||
            inline_scalar_list(l->s, &e)) { /* `k: - a - b`: yaml.inline-keys writes the list */
            yr_put_line(&o, l);
            yr_block_note_line(&blk, d, i);
            continue;
        }
        size_t dash = e.key_s, nx = next_entry_line(d, fend, i), body = nx, owner = 0;
        bool block = nx < d->count && moved_block_header(l->s + e.val, e.end - e.val, &owner);
        if (block)
            nx = after_moved_body(d, nx, e.key_s);
        if (nx < d->count) {
            const yr_line *n = &d->l[nx];
            size_t x = mf_line_indent((mf_line){n->s, n->n});
            if (is_dash_at(n->s, n->n, x) && x > e.key_s && outer_drifted_item(d, nx, e.key_s))
                dash = e.key_s + 2;
            else if (is_dash_at(n->s, n->n, x) && x >= e.key_s)
                dash = opener_item_dash(d, nx, &e, l->s + e.val, e.end - e.val, x, &budget);
            else if (x >= e.key_s && glued_first_key_item(n, x, l->s + e.val, e.end - e.val))
                dash = x;
            else if (!is_dash_at(n->s, n->n, x) && x >= e.key_s + 2)
                dash = sibling_dash(d, nx, e.key_s, min_property_col(d, nx, e.key_s, x, &budget) - 2, &budget);
            /* `key: - |2-`: the indentation indicator counts from the dash, and the
             * next lines are the body, not properties; the dash goes at the key's
             * column, as a YAML emitter writes `key:` / `- |2-`, when the body is
             * deep enough for it (else the text stays as read and is rejected) */
            size_t ind = block_indent_indicator(l->s + e.val, e.end - e.val);
            if (ind && !is_dash_at(n->s, n->n, x) && e.key_s + ind <= x)
                dash = e.key_s;
            /* no dash line after the body tells the column: the body, read as the item's
             * properties, must still be deeper than what the header belongs to (`- te: |-`
             * at the key's column with its body at key + 4; run 46 4e1f3b65) */
            size_t own = block && nx == body && !is_dash_at(n->s, n->n, x) ? owner : 0;
            if (own && dash + own >= x && e.key_s + own < x)
                dash = e.key_s;
        }
        yr_put(&o, l->s, e.key_e);
        yr_put(&o, ":", 1);
        yr_endl(&o, YR_EOL(l));
        /* the moved item may itself be `- key: - item`: split it too, its
         * sequence under its key, or the next application would */
        const char *rest = l->s + e.val;
        size_t rn = l->n - e.val;
        for (yr_entry r;;) {
            yr_entry_parse(rest, rn, &r);
            if (!r.key || r.val + 2 > r.end || !is_dash_at(rest, r.end, r.val) || rest[r.val + 1] != ' ')
                break;
            yr_spaces(&o, dash);
            yr_put(&o, rest, r.key_e);
            yr_put(&o, ":", 1);
            yr_endl(&o, YR_EOL(l));
            dash += r.key_s;
            rest += r.val;
            rn -= r.val;
        }
        yr_spaces(&o, dash);
        yr_put(&o, rest, rn);
        yr_endl(&o, YR_EOL(l));
        mf_warnings_add(w, MF_RULE_ID(YAML_INLINE_SEQUENCE_PARENT), yr_lineno(i), MSG_INLINE);
        changes++;
        yr_block_note(&blk, rest, rn);
        if (blk.active)
            blk.parent += dash, blk.body += blk.body ? dash : 0;
    }
    free(fend);
    return yr_finish(&o, d, changes);
}

/* ---- yaml.colon-space ---- */

/* True when s[i..n), the rest of a line after a glued key's opening quote that
 * does not close on the line (`generated_at:"2026-`), holds no `: `, no final ':'
 * and no ` #`: nothing YAML reads as a key or a comment of the line as written
 * (`k:' "x: y` is the key "k:' \"x"), so the line is the entry with a quoted value
 * yaml.unclosed-quote closes (regressions 23ee1023, e42696f6). */
static bool unclosed_value_rest(const char *s, size_t n, size_t i)
{
    while (n > i && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n > i && s[n - 1] == ':')
        return false;
    for (size_t j = i; j + 1 < n; j++)
        if ((s[j] == ':' && (s[j + 1] == ' ' || s[j + 1] == '\t')) ||
            ((s[j] == ' ' || s[j] == '\t') && s[j + 1] == '#'))
            return false;
    return true;
}

/* Would the glued value at v, once spaced, be YAML syntax instead of text: a
 * comment (`id:#x`), a block indicator (`id:-`, `id:? x`), an anchor, alias or
 * tag (`id:&a`, `id:*a`, `id:!x`), or a flow indicator no value starts with
 * (`ote:, 2]`, `id:]`: the plain scalar "ote:, 2]" spaced is a load error)?
 * `- id:-` is the string "id:-", and `id: -` loads as no value (run 19 6e73f49f). */
static bool spaced_value_is_syntax(const char *s, size_t n, size_t v)
{
    if (s[v] && strchr("#&*!,]}", s[v]))
        return true;
    return (s[v] == '-' || s[v] == '?') && (v + 1 >= n || s[v + 1] == ' ' || s[v + 1] == '\t');
}

/* Offset of the ':' of a `key:value` entry starting at c that lacks its space, or 0. */
static size_t missing_space_colon(const char *s, size_t n, size_t c)
{
    if (c + 1 < n && s[c] == '-' && s[c + 1] != '-')
        c++; /* `-key:value`: yaml.dash-space adds the other space */
    size_t k = c;
    while (k < n && s[k] != ':' && s[k] != ' ' && s[k] != '\t')
        k++;
    if (k >= n || s[k] != ':' || k - c < 2 || !yr_is_ident(s + c, k - c))
        return 0;
    if (k + 1 >= n || s[k + 1] == ' ' || s[k + 1] == '\t' || s[k + 1] == ':')
        return 0;
    if (k + 2 < n && s[k + 1] == '/' && s[k + 2] == '/')
        return 0; /* a URL such as http://x */
    if (spaced_value_is_syntax(s, n, k + 1))
        return 0;
    if (s[k + 1] == '"' || s[k + 1] == '\'') {
        /* `key:"value"` only when the quoted value is whole (`k:' "x: y` is a key as written) */
        size_t q = yr_quote_end(s, n, k + 1);
        while (q && q < n && (s[q] == ' ' || s[q] == '\t'))
            q++;
        /* `kind:"epic" | "user_story"`: a type union yaml.type-union quotes next (run 6 4910ba6f) */
        bool union_ = q && q + 1 < n && s[q] == '|' && (s[q + 1] == ' ' || s[q + 1] == '"' || s[q + 1] == '\'');
        if (q ? q < n && s[q] != '#' && !union_ : !unclosed_value_rest(s, n, k + 2))
            return 0;
    }
    return k;
}

bool yr_glued_entry_line(const yr_doc *d, size_t k)
{
    const yr_entry e = yr_entry_at(d, k);
    return !e.key && missing_space_colon(d->l[k].s, e.end, e.content) != 0;
}

/* A one-line list item `- k:v` is the string "k:v" YAML reads unless the item
 * is a mapping: it has more lines (deeper than its dash), or the sibling item
 * before or after it is a `- key: value` mapping. */
static bool item_is_mapping(const yr_doc *d, size_t i, const yr_entry *e, bool prev_sibling_keyed)
{
    if (prev_sibling_keyed)
        return true;
    size_t nx = next_content(d, i);
    if (nx >= d->count)
        return false;
    const yr_entry ne_ = yr_entry_at(d, nx), *n = &ne_;
    return n->indent > e->dash || (n->dashes && n->indent == e->indent && n->key);
}

/* A one-line item `- k:v` whose dash drifted 1-3 columns off its list (at lists[],
 * the columns of the lists open above it, none at the dash's own), the line above
 * opening no nested list, and whose properties follow at that list's property column,
 * left of the item's content (`      - "x"` / `     - id:t` / `    title: R` under
 * `  - id: i`): the properties name it a mapping item, as yaml.sequence-indent-drift
 * reads it when it moves the dash back (run 9 8055079a, b799617c). */
static bool drifted_item_with_props(const yr_doc *d, size_t i, const yr_entry *e, const size_t *lists,
                                    size_t nlists, bool prev_opener)
{
    if (prev_opener || (nlists && lists[nlists - 1] == e->dash))
        return false;
    size_t nx = next_content(d, i);
    if (nx >= d->count || (d->l[nx].flags & (YR_INERT | YR_CONT)))
        return false;
    const yr_entry n = yr_entry_at(d, nx);
    if (!n.key || n.dashes || n.indent >= e->content || n.indent < 2 || n.indent - 2 == e->dash)
        return false;
    for (size_t j = nlists; j-- > 0;)
        if (lists[j] == n.indent - 2)
            return (lists[j] > e->dash ? lists[j] - e->dash : e->dash - lists[j]) <= 3;
    return false;
}

/* Is line i a continuation line of the plain value of a key, whatever its
 * bytes but a leading dash (`schema_version: 1` + ` Etle:tixamp`, `sch"What: e`
 * + `    notes:le`, run 15 1416693c-ra761ed8f) or of a plain list item (`- A` +
 * `    role:wrev`, the string "A role:wrev": an item that is a string has no
 * properties, run 11 9e1f11d6)? A glued `- id:Q01` above is no such item:
 * its deeper lines are its properties. */
static bool plain_value_cont(const yr_doc *d, size_t i)
{
    if (!(d->l[i].flags & YR_PLAIN_CONT))
        return false;
    size_t k = i;
    while (k > 0 && (d->l[k].flags & (YR_PLAIN_CONT | YR_PLAIN_TEXT | YR_INERT)))
        k--;
    if (d->l[k].flags & (YR_PLAIN_CONT | YR_PLAIN_TEXT | YR_INERT | YR_CONT))
        return false;
    const yr_line *h = &d->l[k];
    yr_entry e = yr_entry_at(d, k);
    if (!e.key)
        return e.dashes && e.content < e.end && !missing_space_colon(h->s, e.end, e.content);
    /* `-name: a` may be the item `- name: a` (yaml.dash-space): its deeper lines are its properties */
    return e.val < e.end && h->s[e.key_s] != '-';
}

static bool spaced_flow_open_at_end(const yr_doc *d, size_t i, const char *s, size_t n, size_t v);

/* Does the plain scalar of item line i (`- id:Q02`) go on over a text line at or
 * left of key, the column its key takes once spaced (`- id:Q02` + `    t`, the
 * string "id:Q02 t")? A mapping's value goes on only deeper than its key, so the
 * spaced entry could not load: the item is the string YAML reads (run 9 7804d7ee).
 * dash and key are the columns once yaml.sequence-indent-drift has moved a drifted
 * dash back (`    - id:Q02` + `    t` under a list at column 2, run 9 0e68e425); a
 * line at or left of dash goes on no item's scalar, and a glued `key:value` line is
 * a property, no text. */
static bool plain_cont_at_or_left(const yr_doc *d, size_t i, size_t dash, size_t key)
{
    for (size_t k = i + 1; k < d->count; k++) {
        if (d->l[k].flags & YR_INERT)
            continue;
        if (d->l[k].flags & YR_QUOTE_CONT)
            return false;
        const yr_entry n = yr_entry_at(d, k);
        size_t gk = missing_space_colon(d->l[k].s, n.end, n.content);
        /* `  skipped:false`: a glued property, the item is a mapping; not `    text:[ words` on the
         * text's last line, which this rule leaves as text (run 47 8ea301) */
        if (n.key || n.dashes || n.indent <= dash || (gk && !spaced_flow_open_at_end(d, k, d->l[k].s, n.end, gk + 1)))
            return false;
        const char *t = d->l[k].s + n.content;
        if (n.content < n.end && (*t == '?' || *t == ':') && (n.content + 1 == n.end || t[1] == ' '))
            return false; /* `? long key` / `: null`: an explicit key of the mapping, no text (run 41 44797a7b) */
        if (n.indent <= key)
            return true;
    }
    return false;
}

/* Does the glued value at v (`name:[nn`) open a flow collection the line leaves
 * open, on the last content line of the text? yaml.unclosed-flow closes no flow at
 * the end of the text (it may be cut there), so the spaced entry could not load,
 * while the line as written is the plain scalar "name:[nn" (run 42 5e4327db-r96ebc4b5). */
static bool spaced_flow_open_at_end(const yr_doc *d, size_t i, const char *s, size_t n, size_t v)
{
    if (v >= n || (s[v] != '[' && s[v] != '{') || next_content(d, i) < d->count)
        return false;
    size_t depth = 0;
    for (size_t j = v; j < n; j++) {
        char c = s[j];
        if ((c == '"' || c == '\'') && strchr("[{,: ", s[j - 1])) {
            size_t q = yr_quote_end(s, n, j);
            if (!q)
                return true;
            j = q - 1;
        } else if (c == '#' && (s[j - 1] == ' ' || s[j - 1] == '\t')) {
            break;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
    }
    return depth > 0;
}

/* Is glued key line i (`op:ya`, at column col) the first line of an empty parent's
 * plain value that goes on over a text line at or left of col, right of the parent
 * (`matrix:` + `  op:ya` + `  x`, the string "op:ya x")? Spaced, the key's value
 * would end there and the text line would be a key without ':', which no loader
 * takes (run 32 b4e62105-rbf0b4e7e, 9e1f11d6-r7d478f15). */
static bool glued_first_child_goes_on(const yr_doc *d, size_t i, size_t col)
{
    size_t pk = prev_content(d, i);
    if (pk >= d->count || (d->l[pk].flags & (YR_INERT | YR_CONT)))
        return false;
    const yr_entry pe = yr_entry_at(d, pk);
    size_t nx = next_content(d, i);
    if (!yr_entry_opener(&pe) || pe.indent >= col || nx >= d->count || (d->l[nx].flags & (YR_INERT | YR_QUOTE_CONT)))
        return false;
    const yr_entry n = yr_entry_at(d, nx);
    return !n.key && !n.dashes && n.indent <= col && n.indent > pe.indent &&
           !missing_space_colon(d->l[nx].s, n.end, n.content);
}

/* The key column of a line this rule spaced when its value is now a plain scalar
 * running to the line's end (`profile:genercond line` spaced), or (size_t)-1: the
 * model read the line as no entry, so the deeper lines that go on that scalar are
 * not marked text in it. */
static size_t spaced_plain_col(const char *s, size_t n)
{
    yr_entry e;
    yr_entry_parse(s, n, &e);
    const yr_line l = {.s = s, .n = (uint32_t)n};
    if (!e.key || e.val >= e.end || !yr_plain_start(s + e.val, e.end - e.val) || yr_value_end(&l, &e, false) < e.end)
        return (size_t)-1;
    return e.key_s;
}

/* Does entry e, a line after one spaced into a plain value at key column col, go on
 * that scalar as YAML reads it: deeper, with no key (`  - id:rsio`, ` Etle:tixamp`)? */
static bool goes_on_spaced_plain(const yr_entry *e, size_t col)
{
    return col != (size_t)-1 && !e->key && (e->dashes ? e->dash : e->indent) > col;
}

size_t yr_fix_colon_space(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0, prev_dash = (size_t)-1, flow_end = 0;
    bool prev_keyed = false, prev_opener = true;
    /* dash columns of the lists open: at most two pushed per line (`- - a`) */
    size_t *lists = malloc(2 * (d->count + 1) * sizeof *lists), nlists = 0;
    uint32_t *fend = malloc((d->count + 1) * sizeof *fend);
    size_t plain_col = (size_t)-1; /* key column of a line spaced into a plain value */
    if (!lists || !fend) {
        free(lists), free(fend);
        return 0;
    }
    yr_flow_ends(d, fend);
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        /* a continuation line of a plain value (`schema_version: 1` + ` Etle:tixamp`,
         * the value "1 Etle:tixamp") is text: a space after its ':' would make it an
         * entry the loader rejects (regression 1416693c); so is a dash line inside
         * it (`profile: genercond line` + `  - id:rsio`, run 25) */
        if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_QUOTE_CONT | YR_PLAIN_TEXT)) || plain_value_cont(d, i) ||
            i < flow_end) {
            yr_put_line(&o, l);
            continue;
        }
        /* the later lines of a multi-line flow collection are its text (`arch: [a: b` +
         * `  tags:4, c]}`): a space after a colon there makes a key libyaml rejects (run 25) */
        if (fend[i])
            flow_end = fend[i] + 1;
        yr_entry e = yr_entry_at(d, i);
        size_t k = missing_space_colon(l->s, e.end, e.content);
        /* a sibling of a `- key: v` item: at its dash's column, or drifted 1-3 columns
         * off it (yaml.sequence-indent-drift moves it back) when the line above opens
         * no nested list (`key:` or `-`) */
        bool sibling = prev_keyed && prev_dash != (size_t)-1 &&
                       (prev_dash == e.indent || (!prev_opener && e.indent != prev_dash &&
                                                  (e.indent > prev_dash ? e.indent - prev_dash : prev_dash - e.indent) <= 3));
        if (goes_on_spaced_plain(&e, plain_col)) {
            yr_put_line(&o, l);
            continue;
        }
        plain_col = (size_t)-1;
        if ((e.key || k) && !e.dashes && prev_dash != (size_t)-1 && e.indent < prev_dash)
            prev_dash = (size_t)-1, prev_keyed = false; /* a key left of the list's dash closes the list */
        bool above_opener = prev_opener;
        prev_opener = yr_entry_opener(&e);
        while (nlists && (e.dashes ? lists[nlists - 1] > e.indent : lists[nlists - 1] >= e.indent))
            nlists--;
        if (k && e.dashes && !e.key) {
            size_t dash = sibling && prev_dash != e.indent ? prev_dash : e.indent; /* once drift is undone */
            /* the dash may be the drifted one or the item above it (`    - id: S` after an empty
             * `notes: |-` at 4, then `  - id:QS3` + `    n`): text at or left of the key column
             * under either reading keeps the item a string (run 31 92985ac5-rf3691966) */
            if ((!item_is_mapping(d, i, &e, sibling) && !drifted_item_with_props(d, i, &e, lists, nlists, above_opener)) ||
                plain_cont_at_or_left(d, i, dash, dash + e.content - e.indent) ||
                (dash != e.indent && plain_cont_at_or_left(d, i, e.indent, e.content)))
                k = 0;
        }
        if (e.dashes && (!nlists || lists[nlists - 1] != e.indent))
            lists[nlists++] = e.indent;
        if (e.dashes && e.dash != e.indent) /* `- - a`: the inner list too */
            lists[nlists++] = e.dash;
        if (k && e.key && k < e.key_e)
            k = 0; /* `a:b c: d` is the valid entry "a:b c": d, its key holds the colon */
        if (k && !e.dashes && glued_first_child_goes_on(d, i, e.indent))
            k = 0;
        if (k && spaced_flow_open_at_end(d, i, l->s, e.end, k + 1))
            k = 0;
        if (e.dashes) {
            prev_dash = e.indent;
            prev_keyed = e.key || k;
        }
        if (!k) {
            yr_put_line(&o, l);
            yr_block_note_line(&blk, d, i);
            continue;
        }
        yr_flush(&o);
        size_t at = o.b->len;
        yr_put(&o, l->s, k + 1);
        yr_put(&o, " ", 1);
        yr_put(&o, l->s + k + 1, l->n - k - 1);
        if (!o.oom) {
            yr_block_note(&blk, o.b->s + at, o.b->len - at);
            plain_col = spaced_plain_col(o.b->s + at, o.b->len - at);
        }
        yr_endl(&o, YR_EOL(l));
        mf_warnings_add(w, MF_RULE_ID(YAML_COLON_SPACE), yr_lineno(i),
                        "Repaired YAML mapping keys missing a space after colon before parsing.");
        changes++;
    }
    free(lists);
    free(fend);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* The child block of an empty parent (`parent:` then deeper lines) when every
 * line of it is a glued `key:value` at one column: YAML reads the lines as the
 * parent's string ("a:1 b:2"). [i+1, *last] are its lines; 0 when the block
 * has another shape (a real entry makes the text invalid: group 2's business). */
static size_t glued_child_block(const yr_doc *d, size_t i, size_t *last)
{
    const yr_entry pe = yr_entry_at(d, i);
    if (!pe.key || pe.val < pe.end || (d->l[i].flags & (YR_INERT | YR_CONT)))
        return 0;
    size_t col = (size_t)-1, m = 0;
    for (size_t k = next_content(d, i); k < d->count; k = next_content(d, k)) {
        const yr_entry e = yr_entry_at(d, k);
        if (e.indent <= pe.key_s)
            break;
        if (col != (size_t)-1 && e.indent != col)
            return 0;
        if (e.key || e.dashes || !missing_space_colon(d->l[k].s, e.end, e.content) ||
            yr_value_end(&d->l[k], &e, true) < e.end)
            return 0;
        col = e.indent;
        *last = k;
        m++;
    }
    return m;
}

bool yr_may_have_glued_child(const char *s, size_t n, size_t next, size_t col)
{
    if (next >= n)
        return false;
    const char *nl = memchr(s + next, '\n', n - next);
    size_t end = nl ? (size_t)(nl - s) : n, k = next;
    while (k < end && s[k] == ' ')
        k++;
    return k - next > col && missing_space_colon(s, end, k);
}

/* yaml.colon-space before the first parse: the glued children of an empty
 * parent (`source_interview:` + `  content_sha256:9f2c...`). Two lines or more
 * are entries (a string of `k:v` words is no value a model writes); one line
 * is an entry when its value is one word that is no number or time
 * (`localhost:8080`, `nginx:1.25` stay the parent's string). */
size_t yr_fix_colon_space_child(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    yr_out o = {.b = out, .d = d};
    yr_skip sk = {{0}, 0};
    size_t changes = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        size_t last = i, m = yr_skip_line(&sk, l) ? 0 : glued_child_block(d, i, &last);
        if (m == 1) {
            const yr_entry e = yr_entry_at(d, last);
            const char *ls = d->l[last].s;
            size_t k = missing_space_colon(ls, e.end, e.content);
            json_t *v = mf_yaml_plain_value(ls + k + 1, e.end - k - 1);
            if (memchr(ls + k + 1, ' ', e.end - k - 1) || memchr(ls + k + 1, '\t', e.end - k - 1) ||
                (v && !json_is_string(v)))
                m = 0;
            json_decref(v);
        }
        yr_put_line(&o, l);
        if (!m) {
            yr_skip_note_line(&sk, d, i);
            continue;
        }
        const yr_entry pe = yr_entry_at(d, i);
        for (size_t k = i + 1; k <= last; k++) {
            const yr_line *c = &d->l[k];
            const yr_entry e = yr_entry_at(d, k);
            size_t at = e.end > e.content ? missing_space_colon(c->s, e.end, e.content) : 0;
            if (!at) {
                yr_put_line(&o, c);
                continue;
            }
            yr_put(&o, c->s, at + 1);
            yr_put(&o, " ", 1);
            yr_put(&o, c->s + at + 1, c->n - at - 1);
            yr_endl(&o, YR_EOL(c));
            mf_warnings_add(w, MF_RULE_ID(YAML_COLON_SPACE), yr_lineno(k),
                            "Added the space after the colon of '%.*s' under the empty key '%.*s' (guessed that it is "
                            "an entry, not the string \"%.*s\" YAML reads).",
                            (int)(at - e.content), c->s + e.content, (int)(pe.key_e - pe.key_s), l->s + pe.key_s,
                            (int)(e.end - e.content), c->s + e.content);
            changes++;
        }
        i = last;
    }
    return yr_finish(&o, d, changes);
}

/* ---- yaml.inline-keys ---- */

typedef struct { size_t ks, ke, vs, ve; bool seq; } ik_tok; /* seq: a lone '-' came before the key */

/* True when [s, s+n) is one scalar whose type or quoting marks the end of a value. */
static bool structured_scalar(const char *s, size_t n)
{
    if (n == 0)
        return false;
    if (s[0] == '"' || s[0] == '\'')
        return true;
    json_t *v = mf_yaml_plain_value(s, n);
    bool str = !v || json_is_string(v);
    json_decref(v);
    return !str;
}

static bool one_word(const char *s, size_t n)
{
    if (n > 0 && (s[0] == '"' || s[0] == '\''))
        return yr_quote_end(s, n, 0) == n;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t')
            return false;
    return true;
}

/* End of the flow collection opening at s[i] (just past its closer) on this
 * line, or 0 when it does not close before n. */
static size_t flow_end(const char *s, size_t i, size_t n)
{
    size_t depth = 0;
    for (size_t j = i; j < n; j++) {
        if ((s[j] == '"' || s[j] == '\'') && (j == i || strchr(" [{,:", s[j - 1]))) {
            size_t q = yr_quote_end(s, n, j);
            if (!q)
                return 0;
            j = q - 1;
        } else if (s[j] == '[' || s[j] == '{') {
            depth++;
        } else if ((s[j] == ']' || s[j] == '}') && --depth == 0) {
            return j + 1;
        }
    }
    return 0;
}

/* Tokenize the line's `key: value key: value ...` run; returns the number of
 * tokens (0 when the line holds a comment, a flow collection or an open quote). */
static size_t ik_tokenize(const char *s, const yr_entry *e, ik_tok *t, size_t max)
{
    size_t nt = 1, i = e->val, last_word_end = e->val, pre_dash = 0;
    bool dash_word = false;
    t[0] = (ik_tok){e->key_s, e->key_e, e->val, e->val, false};
    /* `''text: more''` / `""text""`: one scalar in doubled quotes, yaml.doubled-quotes' (run 7) */
    char dq = s[i];
    if (e->end - i >= 5 && (dq == '"' || dq == '\'') && s[i + 1] == dq && s[i + 2] != dq && s[e->end - 1] == dq &&
        s[e->end - 2] == dq && s[e->end - 3] != dq && !memchr(s + i + 2, dq, e->end - i - 4))
        return 0;
    while (i < e->end) {
        while (i < e->end && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= e->end)
            break;
        size_t ws = i;
        if (s[i] == '#')
            return 0;
        if (s[i] == '[' || s[i] == '{') {
            size_t f = flow_end(s, i, e->end);
            if (!f)
                return 0;
            i = f;
        } else if (s[i] == '"' || s[i] == '\'') {
            size_t q = yr_quote_end(s, e->end, i);
            if (!q)
                return 0;
            i = q;
        }
        while (i < e->end && s[i] != ' ' && s[i] != '\t')
            i++;
        if (s[i - 1] == ':' && i - ws >= 2 && yr_is_ident(s + ws, i - 1 - ws)) {
            if (nt == max)
                return 0;
            size_t vend = dash_word ? pre_dash : last_word_end;
            t[nt - 1].ve = vend > t[nt - 1].vs ? vend : t[nt - 1].vs;
            size_t vs = i;
            while (vs < e->end && (s[vs] == ' ' || s[vs] == '\t'))
                vs++;
            t[nt++] = (ik_tok){ws, i - 1, vs, vs, dash_word};
            last_word_end = vs;
            dash_word = false;
        } else {
            if (i - ws == 1 && s[ws] == '-')
                pre_dash = last_word_end, dash_word = true;
            else
                dash_word = false;
            last_word_end = i;
        }
    }
    t[nt - 1].ve = e->end;
    return nt;
}

static bool ik_known(const mf_profile *p, const yr_keyset *ks, const char *k, size_t n)
{
    return yr_known_key(p, k, n) || yr_keyset_has(ks, k, n);
}

/* True when the key [k, k+n) is one of the profile's free-text fields: its value may hold ': '. */
static bool ik_free_text(const mf_profile *p, const char *k, size_t n)
{
    return p && json_object_getn(p->free_text_fields, k, n) != NULL;
}

#define IK_MAX 64

/* A value that ends itself: one word (no ':' inside), a closed quoted scalar or a flow collection. */
static bool simple_value(const char *v, size_t n)
{
    if (n == 0)
        return false;
    if (v[0] == '[' || v[0] == '{')
        return flow_end(v, 0, n) == n;
    return one_word(v, n) && (v[0] == '"' || v[0] == '\'' || !memchr(v, ':', n));
}

static bool lower_key(const char *k) { return (*k >= 'a' && *k <= 'z') || *k == '_'; }

/* Decide where t[] splits and how deep each entry goes (depth[k], 0 = the
 * first key's level). A split after a value is made when the value is one
 * scalar and the next key is known (profile or document), or, with no such
 * knowledge, when every key is a lower-case identifier and every value is one
 * word, quoted or a flow collection (the last value may be prose when two
 * splits after a value or more precede it: `text: note: keep this: as is`
 * has one, and stays the value yaml.plain-colon quotes). A key with no value opens a nested block: the
 * profile's children of it, or else the keys after it up to the first whose
 * naming style (snake_case or not) differs from its first child's. */
static bool ik_plan(const char *s, const ik_tok *t, size_t nt, const mf_profile *p, const yr_keyset *ks,
                    size_t *depth, bool *guessed)
{
    *guessed = false;
    bool generic = true;
    size_t valued = 0; /* splits after a value: a key with no value before its children is none */
    for (size_t k = 0; k < nt && generic; k++) {
        size_t vn = t[k].ve - t[k].vs;
        if ((k > 0 && !lower_key(s + t[k].ks)) || (vn == 0 && k + 1 == nt) ||
            (vn > 0 && !simple_value(s + t[k].vs, vn) && !(k + 1 == nt && valued >= 2)))
            generic = false;
        valued += vn > 0;
    }
    size_t stack[IK_MAX];
    bool snake[IK_MAX];
    size_t sd = 0;
    for (size_t k = 0; k < nt; k++) {
        const char *key = s + t[k].ks;
        size_t kn = t[k].ke - t[k].ks;
        bool empty = t[k].ve == t[k].vs, us = memchr(key, '_', kn) != NULL;
        if (k > 0) {
            const char *v = s + t[k - 1].vs;
            size_t vn = t[k - 1].ve - t[k - 1].vs;
            if (vn > 0 && !(one_word(v, vn) && (structured_scalar(v, vn) || ik_known(p, ks, key, kn)))) {
                if (!generic || ik_free_text(p, s + t[k - 1].ks, t[k - 1].ke - t[k - 1].ks))
                    return false;
                *guessed = true;
            }
            while (sd && k != stack[sd - 1] + 1) {
                const json_t *kids = yr_children_of(p, s + t[stack[sd - 1]].ks, t[stack[sd - 1]].ke - t[stack[sd - 1]].ks);
                if (kids ? yr_list_has(kids, key, kn) : (snake[sd - 1] == us && !(empty && k + 1 < nt)))
                    break;
                sd--;
            }
        }
        depth[k] = sd;
        if (!empty || k + 1 == nt)
            continue;
        const json_t *kids = yr_children_of(p, key, kn);
        const char *next = s + t[k + 1].ks;
        size_t nn = t[k + 1].ke - t[k + 1].ks;
        if (kids ? !yr_list_has(kids, next, nn) : (!generic || (sd && !yr_children_of(p, s + t[stack[sd - 1]].ks,
                                                                                            t[stack[sd - 1]].ke - t[stack[sd - 1]].ks))))
            return false;
        if (!kids && ik_free_text(p, key, kn))
            return false;
        *guessed = *guessed || !kids;
        stack[sd] = k;
        snake[sd++] = memchr(next, '_', nn) != NULL;
    }
    /* a guessed parent needs two children: `note: x: y` stays one value */
    for (size_t k = 0; k + 1 < nt; k++) {
        if (t[k].ve != t[k].vs || yr_children_of(p, s + t[k].ks, t[k].ke - t[k].ks))
            continue;
        size_t kids = 0;
        for (size_t j = k + 1; j < nt && depth[j] > depth[k]; j++)
            kids += depth[j] == depth[k] + 1;
        if (kids < 2)
            return false;
    }
    return true;
}

/* Start of the next item of a scalar sequence value `- a - "b c" - d` at or
 * after i (a '-' word outside quotes), or ve. */
static size_t sseq_next(const char *s, size_t i, size_t ve)
{
    for (size_t j = i; j < ve; j++) {
        if ((s[j] == '"' || s[j] == '\'') && (j == i || s[j - 1] == ' ')) {
            size_t q = yr_quote_end(s, ve, j);
            if (!q)
                return ve;
            j = q - 1;
        } else if (s[j] == '-' && (j == i || s[j - 1] == ' ') && (j + 1 == ve || s[j + 1] == ' ')) {
            return j;
        }
    }
    return ve;
}

/* True when [v, v+n) is a scalar sequence of simple items: `- a - 'b c'`. */
static bool scalar_seq(const char *v, size_t n)
{
    if (n < 3 || v[0] != '-' || v[1] != ' ')
        return false;
    for (size_t i = 0; i < n;) {
        size_t a = i + 1, b = sseq_next(v, i + 1, n);
        while (a < b && v[a] == ' ')
            a++;
        size_t e = b;
        while (e > a && v[e - 1] == ' ')
            e--;
        if (!simple_value(v + a, e - a))
            return false;
        i = b;
    }
    return true;
}

/* True when e's value is a list of two scalars or more written inline
 * (`k: - a - "b c"`), maybe followed by more keys (`k: - a - b done: true`). */
static bool inline_scalar_list(const char *s, const yr_entry *e)
{
    ik_tok t[IK_MAX];
    size_t nt = e->key && e->val < e->end ? ik_tokenize(s, e, t, IK_MAX) : 0;
    if (nt == 0 || !scalar_seq(s + t[0].vs, t[0].ve - t[0].vs))
        return false;
    return nt >= 2 || sseq_next(s, t[0].vs + 1, t[0].ve) < t[0].ve;
}

/* Write line l as one entry per token: token k's key at column col[k], after
 * "- " when dash[k] (then col[k] is the dash's column); a scalar sequence
 * value is written as its items under the key. Returns the column of the last
 * entry's key. */
static size_t ik_write(yr_out *o, const yr_line *l, const yr_entry *e, const ik_tok *t, size_t nt,
                       const size_t *col, const bool *dash)
{
    size_t kc = e->key_s;
    for (size_t k = 0; k < nt; k++) {
        if (k == 0) {
            yr_put(o, l->s, t[0].ke);
        } else {
            yr_spaces(o, col[k]);
            if (dash[k])
                yr_put(o, "- ", 2);
            yr_put(o, l->s + t[k].ks, t[k].ke - t[k].ks);
        }
        kc = k == 0 ? e->key_s : col[k] + (dash[k] ? 2 : 0);
        yr_put(o, ":", 1);
        const char *v = l->s + t[k].vs;
        size_t vn = t[k].ve - t[k].vs;
        if (vn > 0 && scalar_seq(v, vn)) {
            yr_endl(o, YR_EOL(l));
            for (size_t i = 0; i < vn;) {
                size_t a = i + 1, b = sseq_next(v, i + 1, vn), z = b;
                while (a < b && v[a] == ' ')
                    a++;
                while (z > a && v[z - 1] == ' ')
                    z--;
                yr_spaces(o, kc + 2);
                yr_put(o, "- ", 2);
                yr_put(o, v + a, z - a);
                yr_endl(o, YR_EOL(l));
                i = b;
            }
            continue;
        }
        if (vn > 0) {
            yr_put(o, " ", 1);
            yr_put(o, v, vn);
        }
        yr_endl(o, YR_EOL(l));
    }
    return kc;
}

/* A line with list items written inline (`options: - id: a label: x - id: b
 * answer: done: y`, `ids: - a - b`): where each key goes. A lone '-' before a
 * key starts a list item: the first under the key with no value before it,
 * the next ones in the innermost open list. An item ends at its list's next
 * item, or at a key the profile lists children for (a whitelisted parent
 * closes the list it follows). A key with no value followed by a plain key
 * opens the profile's children of it (only whitelisted children here). Keys
 * are lower-case identifiers, values one scalar (or a list of them), and only
 * the last may be prose after two splits. */
typedef struct { size_t col; bool item; const json_t *kids; } ik_frame;

static bool ik_plan_seq(const char *s, const ik_tok *t, size_t nt, const mf_profile *p, const yr_entry *e,
                        size_t *col, bool *dash)
{
    ik_frame fr[IK_MAX];
    size_t fd = 1, entries = 1, base = e->key_s;
    /* on a `- key:` line the first key is a list item's: a later `- key:` is its sibling */
    fr[0] = (ik_frame){base, e->dashes > 0 && base >= 2, NULL};
    for (size_t k = 0; k < nt; k++) {
        size_t vn = t[k].ve - t[k].vs;
        const char *v = s + t[k].vs;
        if (k > 0 && !lower_key(s + t[k].ks))
            return false;
        if (vn > 0 && !simple_value(v, vn) && !scalar_seq(v, vn) && !(k + 1 == nt && nt >= 3))
            return false;
    }
    col[0] = base, dash[0] = false;
    for (size_t k = 1; k < nt; k++) {
        const char *key = s + t[k].ks;
        size_t kn = t[k].ke - t[k].ks;
        bool opened = t[k - 1].ve == t[k - 1].vs;
        size_t pcol = col[k - 1] + (dash[k - 1] ? 2 : 0); /* the previous key's column */
        dash[k] = false;
        if (opened && t[k].seq) {
            if (fd == IK_MAX)
                return false;
            fr[fd++] = (ik_frame){pcol + 4, true, NULL};
            col[k] = pcol + 2, dash[k] = true, entries = 1;
            continue;
        }
        if (opened) {
            const json_t *kids = yr_children_of(p, s + t[k - 1].ks, t[k - 1].ke - t[k - 1].ks);
            if (!kids || !yr_list_has(kids, key, kn) || fd == IK_MAX)
                return false;
            fr[fd++] = (ik_frame){pcol + 2, false, kids};
            col[k] = pcol + 2;
            continue;
        }
        if (t[k].seq) {
            while (fd > 1 && !fr[fd - 1].item)
                fd--;
            if (!fr[fd - 1].item)
                return false;
            col[k] = fr[fd - 1].col - 2, dash[k] = true, entries = 1;
            continue;
        }
        for (;;) {
            const ik_frame *f = &fr[fd - 1];
            if (fd == 1)
                break;
            if (f->item ? !(entries > 0 && yr_children_of(p, key, kn)) : yr_list_has(f->kids, key, kn))
                break;
            fd--;
        }
        col[k] = fr[fd - 1].col;
        entries++;
    }
    return true;
}

size_t yr_fix_inline_keys(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    yr_keyset ks = {NULL, NULL, 0}; /* the document's keys: built for the first line ik_plan weighs */
    size_t mark = w->count;
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0;
    ik_tok t[IK_MAX];
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_QUOTE_CONT))) {
            yr_put_line(&o, l);
            continue;
        }
        yr_entry e = yr_entry_at(d, i);
        size_t nt = 0;
        /* a line to split has a key in its value (a ':') or an inline list (a '-' first) */
        if (e.key && (l->flags & (YR_VAL_COLON | YR_DASH_TEXT)) && yr_is_ident(l->s + e.key_s, e.key_e - e.key_s) &&
            e.val < e.end)
            nt = ik_tokenize(l->s, &e, t, IK_MAX);
        size_t depth[IK_MAX], cols[IK_MAX];
        bool guessed = false, dash[IK_MAX] = {false}, seq = false;
        for (size_t k = 0; k < nt; k++)
            seq = seq || t[k].seq || scalar_seq(l->s + t[k].vs, t[k].ve - t[k].vs);
        bool ok = nt >= 2 || (nt == 1 && l->s[e.val] == '-' && inline_scalar_list(l->s, &e));
        if (ok && !seq && !ks.s && yr_keyset_init(&ks, d) != 0) {
            mf_warnings_truncate(w, mark);
            return 0;
        }
        ok = ok && (seq ? ik_plan_seq(l->s, t, nt, p, &e, cols, dash) : ik_plan(l->s, t, nt, p, &ks, depth, &guessed));
        if (!ok) {
            yr_put_line(&o, l);
            yr_block_note_line(&blk, d, i);
            continue;
        }
        guessed = guessed || seq;
        for (size_t k = 0; k < nt && !seq; k++)
            cols[k] = e.key_s + 2 * depth[k];
        size_t col = ik_write(&o, l, &e, t, nt, cols, dash);
        if (yr_is_block_header(l->s + t[nt - 1].vs, t[nt - 1].ve - t[nt - 1].vs))
            blk = (yr_block){true, col, 0};
        if (nt == 1)
            mf_warnings_add(w, MF_RULE_ID(YAML_INLINE_KEYS), yr_lineno(i),
                            "Wrote the list items of \"%.*s:\" on their own lines (guessed that each \" - \" "
                            "starts an item).", (int)(t[0].ke - t[0].ks), l->s + t[0].ks);
        else if (guessed)
            mf_warnings_add(w, MF_RULE_ID(YAML_INLINE_KEYS), yr_lineno(i),
                            "Split YAML keys written on one line (guessed from their shape that \"%.*s:\" starts "
                            "a new key, not text of the value before it).", (int)(t[1].ke - t[1].ks), l->s + t[1].ks);
        else
            mf_warnings_add(w, MF_RULE_ID(YAML_INLINE_KEYS), yr_lineno(i), MSG_INLINE);
        changes++;
    }
    yr_keyset_free(&ks);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.inline-known-keys ---- */

/* Keys seen so far as entries, by the column they start at. */
typedef struct { const char **s; uint32_t *n, *col; size_t mask, used; } kk_set;

static size_t kk_hash(size_t col, const char *s, size_t n)
{
    size_t h = 5381 + col * 31;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

static bool kk_has(const kk_set *k, size_t col, const char *s, size_t n)
{
    for (size_t h = kk_hash(col, s, n) & k->mask; k->s[h]; h = (h + 1) & k->mask)
        if (k->col[h] == col && k->n[h] == n && memcmp(k->s[h], s, n) == 0)
            return true;
    return false;
}

static void kk_add(kk_set *k, size_t col, const char *s, size_t n)
{
    size_t h = kk_hash(col, s, n) & k->mask;
    for (; k->s[h]; h = (h + 1) & k->mask)
        if (k->col[h] == col && k->n[h] == n && memcmp(k->s[h], s, n) == 0)
            return;
    if (2 * (k->used + 1) > k->mask + 1)
        return; /* full: later keys are simply not known as siblings */
    k->s[h] = s, k->n[h] = (uint32_t)n, k->col[h] = (uint32_t)col;
    k->used++;
}

/* Keep the boundaries of t[] at keys known to the profile or seen at column col
 * before (a sibling mapping's key), or at a whitelisted child right after its
 * empty parent; merge every other `word: value` token into the value before
 * it. Returns the tokens kept. */
static size_t kk_merge(const char *s, ik_tok *t, size_t nt, size_t col, const mf_profile *p, const kk_set *seen)
{
    size_t kept = 1;
    for (size_t k = 1; k < nt; k++) {
        ik_tok *prev = &t[kept - 1];
        const char *key = s + t[k].ks;
        size_t kn = t[k].ke - t[k].ks;
        bool dup = false;
        for (size_t j = 0; j < kept && !dup; j++)
            dup = t[j].ke - t[j].ks == kn && memcmp(s + t[j].ks, key, kn) == 0;
        bool ok;
        if (prev->ve == prev->vs)
            ok = yr_list_has(yr_children_of(p, s + prev->ks, prev->ke - prev->ks), key, kn);
        else
            ok = !dup && (yr_profile_key(p, key, kn) || kk_has(seen, col, key, kn));
        if (ok)
            t[kept++] = t[k];
        else
            prev->ve = t[k].ve;
    }
    return kept;
}

/* Depth of each kept token: whitelisted children nest under their empty parent. */
static void kk_depths(const char *s, const ik_tok *t, size_t nt, const mf_profile *p, size_t *depth)
{
    size_t stack[IK_MAX], sd = 0;
    for (size_t k = 0; k < nt; k++) {
        const char *key = s + t[k].ks;
        size_t kn = t[k].ke - t[k].ks;
        while (sd && !yr_list_has(yr_children_of(p, s + t[stack[sd - 1]].ks, t[stack[sd - 1]].ke - t[stack[sd - 1]].ks),
                                  key, kn))
            sd--;
        depth[k] = k ? sd : 0;
        if (t[k].ve == t[k].vs && yr_children_of(p, key, kn))
            stack[sd++] = k;
    }
}

size_t yr_fix_inline_known_keys(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    size_t cap = 16, keys = yr_key_lines(d);
    while (cap < 4 * keys + 32)
        cap *= 2;
    kk_set seen = {calloc(cap, sizeof *seen.s), calloc(cap, sizeof *seen.n), calloc(cap, sizeof *seen.col), cap - 1, 0};
    if (!seen.s || !seen.n || !seen.col) {
        free(seen.s), free(seen.n), free(seen.col);
        return 0;
    }
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0;
    ik_tok t[IK_MAX];
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_QUOTE_CONT))) {
            yr_put_line(&o, l);
            continue;
        }
        yr_entry e = yr_entry_at(d, i);
        size_t nt = 0;
        bool ident = e.key && yr_is_ident(l->s + e.key_s, e.key_e - e.key_s);
        if (ident && e.val < e.end && (l->flags & YR_VAL_COLON)) /* a second key needs a ':' in the value */
            nt = ik_tokenize(l->s, &e, t, IK_MAX);
        for (size_t k = 0; k < nt; k++)
            if (t[k].seq || scalar_seq(l->s + t[k].vs, t[k].ve - t[k].vs))
                nt = 0; /* inline list items: yaml.inline-keys' */
        if (nt >= 2)
            nt = kk_merge(l->s, t, nt, e.key_s, p, &seen);
        if (ident)
            kk_add(&seen, e.key_s, l->s + e.key_s, e.key_e - e.key_s);
        if (nt < 2) {
            yr_put_line(&o, l);
            yr_block_note_line(&blk, d, i);
            continue;
        }
        for (size_t k = 1; k < nt; k++)
            kk_add(&seen, e.key_s, l->s + t[k].ks, t[k].ke - t[k].ks);
        size_t depth[IK_MAX], cols[IK_MAX];
        bool dash[IK_MAX] = {false};
        kk_depths(l->s, t, nt, p, depth);
        for (size_t k = 0; k < nt; k++)
            cols[k] = e.key_s + 2 * depth[k];
        size_t col = ik_write(&o, l, &e, t, nt, cols, dash);
        if (yr_is_block_header(l->s + t[nt - 1].vs, t[nt - 1].ve - t[nt - 1].vs))
            blk = (yr_block){true, col, 0};
        mf_warnings_add(w, MF_RULE_ID(YAML_INLINE_KNOWN_KEYS), yr_lineno(i),
                        "Split YAML keys written on one line at the known key \"%.*s\" (guessed that the value "
                        "before it ends there).", (int)(t[1].ke - t[1].ks), l->s + t[1].ks);
        changes++;
    }
    free(seen.s), free(seen.n), free(seen.col);
    return yr_finish(&o, d, changes);
}

/* ---- yaml.dash-space ---- */

/* Is line i, at column col, the first child right under a key the profile's
 * nested_children names (`source_prd:` + `  -ontent_sha256: ...`)? That parent holds
 * a mapping: its `-key:` line is a key as written, never a list item (run 46 7490b3,
 * where the item made `source_prd` an array the schema refused). A line after the
 * parent's children (`  inspiration:` + its children + `   -type: added`, run 47
 * f7dd15) is no such child: a drifted item of the list around them. */
static bool object_parent_child(const yr_doc *d, size_t i, size_t col, const mf_profile *p)
{
    if (!p || json_object_size(p->nested_children) == 0)
        return false;
    size_t k = i;
    while (k > 0 && ((d->l[k - 1].flags & YR_INERT) || mf_line_blank((mf_line){d->l[k - 1].s, d->l[k - 1].n})))
        k--;
    if (k == 0 || (d->l[k - 1].flags & YR_CONT))
        return false;
    const yr_entry e = yr_entry_at(d, k - 1);
    return e.indent < col && e.key && !e.dashes && e.val == e.end &&
           json_object_getn(p->nested_children, d->l[k - 1].s + e.key_s, e.key_e - e.key_s);
}

/* A `-key:` line is a mapping key named "-key" when its sibling lines (same
 * indentation, same block; for the block's first line the next one is looked
 * for past the line's deeper children) are plain mapping entries; it is a list item
 * missing its space otherwise, and always right after a key with no value at
 * the same indentation (`steps:` then `-name: x`, YAML's compact sequence
 * position), even though the text also parses as a key "-name" there. sib[]
 * remembers, per open indentation, whether the last line there was a plain
 * mapping entry and whether it had no value; a list item `- k: v` also opens
 * its mapping's column (k's), so `-x:` among the item's properties is a key,
 * unless x is k, the item's first key: `- id: a` ... `-id: b` is the next
 * item in a sequence of mappings (its dash column is left to
 * yaml.sequence-indent-drift), even though the text parses as a key "-id". */
typedef struct {
    uint32_t indent;
    bool map_entry, opener;
    const char *first;  /* the first key of the list item whose mapping this column holds, or NULL */
    uint32_t first_n;
} ds_sib;

#define DS_MSG "Inserted the missing space after a YAML list dash (guessed that \"%.*s\" starts a list item, not a key)."

static bool plain_entry(const yr_entry *e, const char *s)
{
    return e->key && !e->dashes && !dash_key(s, e->end, e->content);
}

size_t yr_fix_dash_space(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    (void)p;
    ds_sib *sib = malloc(2 * (d->count + 1) * sizeof *sib);
    uint32_t *fend = malloc((d->count + 1) * sizeof *fend);
    if (!sib || !fend) {
        free(sib), free(fend);
        return 0;
    }
    yr_flow_ends(d, fend);
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0, depth = 0, budget = 4 * d->count + 4096, flow = 0;
    char msg[256]; /* the last warning's text and the key it names: a repeat is not formatted again */
    const char *msg_key = NULL;
    size_t msg_kn = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (i < flow || yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_QUOTE_CONT))) {
            yr_put_line(&o, l);
            continue;
        }
        if (fend[i])
            flow = fend[i] + 1;
        yr_entry e = yr_entry_at(d, i);
        /* a property 1-2 columns left of its list item's key column (`- id: a` then
         * `   text: x`, yaml.property-indent's in group 4) is at that column here: the
         * item's mapping goes on, and a later `-id: b` still repeats its first key */
        size_t ind = e.indent;
        if (depth >= 2 && sib[depth - 1].first && sib[depth - 2].indent < ind && ind < sib[depth - 1].indent &&
            sib[depth - 1].indent - ind <= 2 && plain_entry(&e, l->s))
            ind = sib[depth - 1].indent;
        while (depth && sib[depth - 1].indent > ind)
            depth--;
        /* a key with no value whose deeper lines followed holds them: a `-key:` line after
         * them is no longer in its compact-sequence position (`tips:` + `  - N` + `-owners:`) */
        if (depth && sib[depth - 1].indent < ind)
            sib[depth - 1].opener = false;
        bool same = depth && sib[depth - 1].indent == ind;
        bool prev_map = same && sib[depth - 1].map_entry, prev_opener = same && sib[depth - 1].opener;
        size_t c = e.content;
        /* `-<TAB>item`: a tab is no separator after a dash for the loader */
        bool tab = !e.dashes && c + 1 < e.end && l->s[c] == '-' && l->s[c + 1] == '\t';
        size_t dk = dash_key(l->s, e.end, c);
        const ds_sib *at_col = same ? &sib[depth - 1] : NULL;
        bool repeat = dk && at_col && at_col->first && at_col->first_n == dk - c - 1 &&
                      memcmp(at_col->first, l->s + c + 1, at_col->first_n) == 0;
        bool fire = dk && (!prev_map || prev_opener || repeat);
        if (fire && !e.dashes && !prev_opener && !repeat) {
            size_t nx = next_entry_line(d, fend, i);
            /* the first line at its column: past its children to its next sibling (a budget keeps
             * nested `-a:` chains linear); after an item (`- id: a`, then `-id: b` and its
             * children) the next line decides, as a compact list's parent keys share its column */
            while (!same && nx < d->count && budget && yr_entry_at(d, nx).indent > e.indent)
                nx = next_entry_line(d, fend, nx), budget--;
            if (nx < d->count) {
                const yr_entry ne = yr_entry_at(d, nx);
                fire = !(ne.indent == e.indent && plain_entry(&ne, d->l[nx].s));
            }
        }
        if (fire && e.dashes && !repeat) {
            /* `- -key: v` whose next line is a plain mapping entry at -key's own column: that
             * line is a property of the item's mapping, so -key is its first key (as a nested
             * item `- - key: v` its mapping would start two columns deeper) */
            size_t nx = next_entry_line(d, fend, i);
            if (nx < d->count) {
                const yr_entry ne = yr_entry_at(d, nx);
                fire = !(ne.indent == e.content && plain_entry(&ne, d->l[nx].s));
            }
        }
        /* `-id: Q` + `    t` (the key "-id", its value "Q t"): spaced, the value could go on
         * only right of the key's new column, and the text line would be a key without ':'
         * no loader takes (run 40 b4e62105-rb0572953); a block scalar's body may sit there */
        if (fire && !yr_is_block_header(l->s + e.val, e.end - e.val) && plain_cont_at_or_left(d, i, c, c + 2))
            fire = false;
        if (fire && !e.dashes && object_parent_child(d, i, e.indent, p))
            fire = false;
        const char *first = at_col && !fire && !e.dashes ? at_col->first : NULL;
        uint32_t first_n = first ? at_col->first_n : 0;
        if (e.dashes && e.key) { /* `- id: a`: a later `-id: b` at its column repeats its first key */
            first = l->s + e.key_s;
            first_n = (uint32_t)(e.key_e - e.key_s);
        }
        /* `-id: a` given its space is the item `- id: a`: its mapping holds the column of
         * `id`, and a later `-id: b` there (a dash drifted to the property column) repeats its
         * first key as after a written `- id: a` (run 9 f70f83fc) */
        bool item = fire && dk;
        if (item) {
            first = l->s + c + 1;
            first_n = (uint32_t)(dk - c - 1);
        }
        if (same)
            depth--;
        bool plain = plain_entry(&e, l->s);
        sib[depth++] = (ds_sib){(uint32_t)ind, plain, plain && e.val == e.end, first, first_n};
        if (e.dashes && e.key && !item)
            sib[depth++] = (ds_sib){e.key_s, true, e.val == e.end, l->s + e.key_s, (uint32_t)(e.key_e - e.key_s)};
        if (item)
            sib[depth++] = (ds_sib){(uint32_t)(c + 2), true, e.val == e.end, first, first_n};
        if (tab) {
            size_t k = c + 1;
            while (k < l->n && l->s[k] == '\t')
                k++;
            yr_put(&o, l->s, c + 1);
            yr_put(&o, " ", 1);
            yr_put(&o, l->s + k, l->n - k);
            yr_endl(&o, YR_EOL(l));
            mf_warnings_add(w, MF_RULE_ID(YAML_DASH_SPACE), yr_lineno(i),
                            "Replaced the tab after a YAML list dash with a space.");
            changes++;
            continue;
        }
        if (!fire) {
            yr_put_line(&o, l);
            yr_block_note_line(&blk, d, i);
            continue;
        }
        yr_flush(&o);
        size_t at = o.b->len;
        yr_put(&o, l->s, c + 1);
        yr_put(&o, " ", 1);
        yr_put(&o, l->s + c + 1, l->n - c - 1);
        size_t kn = dash_key(l->s, e.end, c) - c + 1;
        if (!msg_key || kn != msg_kn || memcmp(msg_key, l->s + c, kn) != 0) { /* a new key: format its text */
            int m = snprintf(msg, sizeof msg, DS_MSG, (int)kn, l->s + c);
            msg_key = m >= 0 && (size_t)m < sizeof msg ? l->s + c : NULL;
            msg_kn = kn;
        }
        if (msg_key)
            mf_warnings_add_text(w, MF_RULE_ID(YAML_DASH_SPACE), yr_lineno(i), msg);
        else
            mf_warnings_add(w, MF_RULE_ID(YAML_DASH_SPACE), yr_lineno(i), DS_MSG, (int)kn, l->s + c);
        changes++;
        if (!o.oom)
            yr_block_note(&blk, o.b->s + at, o.b->len - at);
        yr_endl(&o, YR_EOL(l));
    }
    free(sib), free(fend);
    size_t n = yr_finish(&o, d, changes);
    return n;
}

/* ---- yaml.nested-children ---- */

static bool bare_key(const yr_line *l, const yr_entry *e)
{
    return e->key && (e->val >= e->end || l->s[e->val] == '#');
}

/* The canonical name of key [k, k+n) under the profile's key aliasing, or NULL. */
static const char *alias_canonical(const mf_profile *p, const char *k, size_t n)
{
    if (!p || !p->key_map || n == 0 || n >= 128)
        return NULL;
    char raw[128];
    memcpy(raw, k, n);
    raw[n] = '\0';
    return mf_norm_key_canonical(p->key_map, raw);
}

/* The whitelisted children of parent key [k, k+n): its own, or its canonical name's when it is
 * one of the profile's aliases (`Sourceprd:` for source_prd, run 9 17cb68f8); NULL when none. */
static const json_t *whitelisted_children(const mf_profile *p, const char *k, size_t n)
{
    const json_t *kids = p ? yr_children_of(p, k, n) : NULL;
    const char *canon = kids ? NULL : alias_canonical(p, k, n);
    return canon ? yr_children_of(p, canon, strlen(canon)) : kids;
}

/* The whitelisted children when line l is a bare parent key (nothing but a
 * comment after ':'), else the children the text nests under a key of that
 * name elsewhere (learned, or NULL). */
static const json_t *bare_parent(const mf_profile *p, const yr_line *l, const yr_entry *e, const json_t *learned)
{
    if (!bare_key(l, e))
        return NULL;
    const json_t *kids = whitelisted_children(p, l->s + e->key_s, e->key_e - e->key_s);
    return kids ? kids : learned ? json_object_getn(learned, l->s + e->key_s, e->key_e - e->key_s) : NULL;
}

/* Add key [k, k+n) to the list under name [pk, pk+pn) of obj (created on demand); false on OOM. */
static bool add_key(json_t *obj, const char *pk, size_t pn, const char *k, size_t n)
{
    json_t *list = json_object_getn(obj, pk, pn);
    if (!list && (json_object_setn_new(obj, pk, pn, list = json_array()) || !list))
        return false;
    return yr_list_has(list, k, n) || json_array_append_new(list, json_stringn(k, n)) == 0;
}

/* How far (in lines) learning looks around a parent: its siblings and its
 * children beyond that are not read (keeps learning linear). */
#define LEARN_SPAN 64

/* The keys at column c around line i (its siblings in its mapping, within
 * LEARN_SPAN lines), under i's key in sibs. */
static bool note_siblings(const yr_doc *d, size_t i, size_t c, json_t *sibs)
{
    const yr_entry pe = yr_entry_at(d, i);
    for (int dir = -1; dir <= 1; dir += 2)
        for (size_t k = i, n = 0; n++ < LEARN_SPAN && (dir < 0 ? k-- > 0 : ++k < d->count);) {
            const yr_line *l = &d->l[k];
            if (mf_line_blank((mf_line){l->s, l->n}) || (l->flags & YR_INERT))
                continue;
            const yr_entry e = yr_entry_at(d, k);
            if (e.key && e.key_s == c && !add_key(sibs, d->l[i].s + pe.key_s, pe.key_e - pe.key_s, l->s + e.key_s,
                                                   e.key_e - e.key_s))
                return false;
            if (e.indent < c)
                break;                  /* the mapping's first line (`- name: a`) or past its end */
        }
    return true;
}

/* Parent key name -> the keys at its child column, for the bare keys of d
 * named in `wanted` (at most LEARN_SPAN of them) whose next content line is a
 * deeper mapping entry (the children as they
 * are written where the text nests them), less the keys written as its
 * siblings there; NULL when there are none or on OOM. */
static json_t *learn_children(const yr_doc *d, const json_t *wanted)
{
    json_t *learned = NULL, *sibs = json_object();
    yr_block blk = {0};
    size_t instances = 0;
    if (!sibs)
        return NULL;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (yr_block_body(&blk, l) || (l->flags & YR_INERT))
            continue;
        yr_block_note_line(&blk, d, i);
        const yr_entry e = yr_entry_at(d, i);
        size_t nx = next_content(d, i);
        if (!bare_key(l, &e) || nx >= d->count)
            continue;
        const yr_entry ce = yr_entry_at(d, nx);
        size_t cc = ce.indent;
        if (cc <= e.key_s || !ce.key || ce.dashes || !json_object_getn(wanted, l->s + e.key_s, e.key_e - e.key_s))
            continue;
        if (++instances > LEARN_SPAN)
            break;
        if ((!learned && !(learned = json_object())) || !note_siblings(d, i, e.key_s, sibs))
            break;
        for (size_t k = nx; k < d->count && k - nx < LEARN_SPAN; k = next_content(d, k)) {
            const yr_entry ke = yr_entry_at(d, k);
            if (ke.indent < cc)
                break;
            if (ke.indent == cc && ke.key && !ke.dashes && !(d->l[k].flags & YR_INERT) &&
                !add_key(learned, l->s + e.key_s, e.key_e - e.key_s, d->l[k].s + ke.key_s, ke.key_e - ke.key_s))
                break;
        }
    }
    const char *name;
    json_t *kids, *tmp;
    json_object_foreach_safe(learned, tmp, name, kids) {
        const json_t *sib = json_object_get(sibs, name);
        for (size_t k = json_array_size(kids); k-- > 0;)
            if (yr_list_has(sib, json_string_value(json_array_get(kids, k)),
                            json_string_length(json_array_get(kids, k))))
                json_array_remove(kids, k);
        if (json_array_size(kids) == 0)
            json_object_del(learned, name);
    }
    json_decref(sibs);
    if (learned && json_object_size(learned) == 0) {
        json_decref(learned);
        learned = NULL;
    }
    return learned;
}

/* The names of the bare keys followed by a key line at their own column (at
 * most LEARN_SPAN of them; the parents learning is for), or NULL for none. */
static json_t *flat_parents(const yr_doc *d)
{
    json_t *names = NULL;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        size_t e = l->n;
        while (e > 0 && (l->s[e - 1] == ' ' || l->s[e - 1] == '\r'))
            e--;
        if (e == 0 || l->s[e - 1] != ':' || (l->flags & YR_INERT))
            continue;
        size_t nx = next_content(d, i);
        if (nx >= d->count)
            continue;
        const yr_entry pe = yr_entry_at(d, i), ce = yr_entry_at(d, nx);
        if (!pe.key || !ce.key || ce.dashes || ce.indent != pe.key_s)
            continue;
        if ((!names && !(names = json_object())) ||
            json_object_setn_new(names, l->s + pe.key_s, pe.key_e - pe.key_s, json_true()) ||
            json_object_size(names) >= LEARN_SPAN)
            break;
    }
    return names;
}

/* True when line k is `child: ...` at exactly column c with child in kids,
 * as written or as one of p's spellings of it (`Test:` for `tests`, what
 * norm.key-alias renames later). */
static size_t glued_child(const yr_doc *d, size_t k, size_t c, const json_t *kids, const mf_profile *p);
static bool child_named(const mf_profile *p, const char *key, size_t kn, const json_t *kids);

static bool child_at(const mf_profile *p, const yr_doc *d, size_t k, size_t c, const json_t *kids)
{
    yr_entry e = yr_entry_at(d, k);
    if (!e.key && !e.dashes && e.indent == c && glued_child(d, k, c, kids, p))
        return true;
    if (!e.key || e.dashes || e.indent != c)
        return false;
    return child_named(p, d->l[k].s + e.key_s, e.key_e - e.key_s, kids);
}

/* The ':' of line k when it is a glued `child:value` at column c (what
 * yaml.colon-space spaces) with child in kids, or 0: `typecheck:f` after
 * `lint: p` is read as more of lint's value until it is spaced (run 6 784d44cb). */
static size_t glued_child(const yr_doc *d, size_t k, size_t c, const json_t *kids, const mf_profile *p)
{
    const yr_line *l = &d->l[k];
    if (l->flags & (YR_INERT | YR_CONT))
        return 0;
    yr_entry e = yr_entry_at(d, k);
    size_t at = missing_space_colon(l->s, e.end, e.content);
    return at && e.content == c && child_named(p, l->s + c, at - c, kids) ? at : 0;
}

static bool child_named(const mf_profile *p, const char *key, size_t kn, const json_t *kids)
{
    if (yr_list_has(kids, key, kn))
        return true;
    const char *canon = alias_canonical(p, key, kn);
    return canon && yr_list_has(kids, canon, strlen(canon));
}

size_t yr_fix_nested_children(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    json_t *flat = flat_parents(d), *learned = flat ? learn_children(d, flat) : NULL;
    json_decref(flat);
    if ((!p || json_object_size(p->nested_children) == 0) && !learned)
        return 0;
    yr_out o = {.b = out, .d = d};
    yr_block blk = {0};
    size_t changes = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        const yr_entry ei = yr_entry_at(d, i), *e = &ei;
        const json_t *kids;
        yr_put_line(&o, l);
        if (yr_block_body(&blk, l) || (l->flags & (YR_INERT | YR_CONT)))
            continue;
        yr_block_note_line(&blk, d, i);
        size_t nx = next_content(d, i);
        if (!(kids = bare_parent(p, l, e, learned)) || nx >= d->count || !child_at(p, d, nx, e->key_s, kids))
            continue;
        bool whitelisted = whitelisted_children(p, l->s + e->key_s, e->key_e - e->key_s) != NULL;
        size_t c = e->key_s, k = i + 1;
        bool empty_child = false, valued_child = false; /* the last child holds a plain value */
        while (k < d->count) {
            const yr_line *m = &d->l[k];
            size_t ind = mf_line_indent((mf_line){m->s, m->n});
            if (mf_line_blank((mf_line){m->s, m->n})) {
                size_t after = next_content(d, k);
                if (after >= d->count)
                    break;
                const yr_line *a = &d->l[after];
                size_t ai = mf_line_indent((mf_line){a->s, a->n});
                if (!(ai > c || child_at(p, d, after, c, kids) || (empty_child && ai == c && is_dash_at(a->s, a->n, ai))))
                    break;
                for (; k < after; k++) {
                    if (!mf_line_blank((mf_line){d->l[k].s, d->l[k].n}))
                        yr_spaces(&o, 2);
                    yr_put_line(&o, &d->l[k]);
                }
                continue;
            }
            if (yr_bare_tag_line(m) && k + 1 < d->count) {
                size_t after = next_content(d, k);
                if (after < d->count && child_at(p, d, after, c, kids)) {
                    yr_put_line(&o, m); /* a bare tag line among the children: left as it is, for its own rule */
                    k++;
                    continue;
                }
            }
            size_t glued = glued_child(d, k, c, kids, p);
            if (glued) {
                empty_child = false;
                valued_child = true;
                yr_spaces(&o, 2);
                yr_put(&o, m->s, glued + 1);
                yr_put(&o, " ", 1);
                yr_put(&o, m->s + glued + 1, m->n - glued - 1);
                yr_endl(&o, YR_EOL(m)); /* the space: part of this change (one rule, one warning) */
                k++;
                continue;
            }
            if (child_at(p, d, k, c, kids)) {
                yr_entry ce = yr_entry_at(d, k);
                empty_child = ce.val == ce.end;
                char v = empty_child ? 0 : m->s[ce.val];
                valued_child = v && (v == '"' || v == '\'' ? yr_quote_end(m->s, ce.end, ce.val) != 0
                                                           : !strchr("|>[{&*!", v));
            }
            else if (!(ind > c || (empty_child && is_dash_at(m->s, m->n, ind) && ind == c)))
                break;
            else if (valued_child && !(m->flags & YR_INERT) && is_dash_at(m->s, m->n, ind) &&
                     yr_entry_at(d, k).key)
                break;  /* `label: L` + ` - type: added`: an item holding an entry is no text of
                         * the value (YAML: "mapping values are not allowed"), but an item that
                         * drifted off its list's column (yaml.sequence-indent-drift's) */
            yr_spaces(&o, 2);
            yr_put_line(&o, m);
            k++;
        }
        if (whitelisted)
            mf_warnings_add(w, MF_RULE_ID(YAML_NESTED_CHILDREN), yr_lineno(i),
                            "Repaired inconsistent YAML indentation for nested mapping children.");
        else
            mf_warnings_add(w, MF_RULE_ID(YAML_NESTED_CHILDREN), yr_lineno(i),
                            "Indented the keys after the empty key \"%.*s\" as its children (guessed: the text "
                            "nests \"%.*s\" under a \"%.*s\" key elsewhere).",
                            (int)(e->key_e - e->key_s), l->s + e->key_s,
                            (int)(yr_entry_at(d, nx).key_e - yr_entry_at(d, nx).key_s),
                            d->l[nx].s + yr_entry_at(d, nx).key_s, (int)(e->key_e - e->key_s), l->s + e->key_s);
        changes++;
        blk.active = false;
        i = k - 1;
    }
    json_decref(learned);
    size_t n = yr_finish(&o, d, changes);
    return n;
}
