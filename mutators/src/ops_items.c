/* ops_items.c - malformations of the items of a YAML block list: the model
 * left out an item's id or its empty prd_refs, or wrote an answer's
 * answered_by / answered_at beside the answer instead of inside it.
 *
 * Each op applies only where the profile runs the normalizer that repairs
 * it (prd: epic and story ids; beads: bead ids and prd_refs; full_answers:
 * the hoist). A dropped id is `exact` only where the id the rule fills in by
 * position is the clean one; elsewhere the filled id differs from the truth
 * and the application is raw (no ground truth). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "malform/malform.h"
#include "mut_internal.h"

static bool has_normalizer(const mf_op_ctx *ctx, const char *name)
{
    for (size_t i = 0; ctx->profile && i < json_array_size(ctx->profile->normalizers); i++) {
        const char *x = json_string_value(json_array_get(ctx->profile->normalizers, i));
        if (x && !strcmp(x, name))
            return true;
    }
    return false;
}

static bool skip(const mt_line *l)
{
    return l->blank || l->comment || l->block_body;
}

/* Does line l hold the simple key `key` (at its body)? */
static bool key_is(const mt_line *l, const char *key)
{
    return l->key_len == strlen(key) && !memcmp(l->s + l->body, key, l->key_len);
}

/* The column of line l's key: after "- " on a dash line. */
static size_t key_col(const mt_line *l)
{
    return l->body;
}

/* Items of the block list under key line k: the dash lines, stored in out
 * (at most cap); returns how many, and *end the line after the list. */
static size_t list_items(const mt_lines *ls, size_t k, size_t *out, size_t cap, size_t *end)
{
    size_t kcol = key_col(&ls->v[k]), n = 0, item = 0, i = k + 1;
    bool have = false;
    for (; i < ls->n; i++) {
        const mt_line *l = &ls->v[i];
        if (skip(l))
            continue;
        if (!have) {
            if (!l->dash || l->indent < kcol)
                break;
            item = l->indent;
            have = true;
        }
        if (l->indent < item || (l->indent == item && !l->dash))
            break;
        if (l->indent == item && l->dash && n < cap)
            out[n++] = i;
    }
    *end = i;
    return n;
}

/* The line in item [d, end) holding the item-level key `key`, or ls->n. */
static size_t item_key(const mt_lines *ls, size_t d, size_t end, const char *key)
{
    size_t col = key_col(&ls->v[d]);
    if (key_is(&ls->v[d], key))
        return d;
    for (size_t i = d + 1; i < end; i++) {
        const mt_line *l = &ls->v[i];
        if (!skip(l) && !l->dash && l->indent == col && key_is(l, key))
            return i;
    }
    return ls->n;
}

/* The line in item [d, end) holding `key` as its first property off the
 * item's key column (`- id: Q02` + `      phase: x`, yaml.property-indent's
 * damage), which the rule puts back on that column; or ls->n. */
static size_t displaced_item_key(const mt_lines *ls, size_t d, size_t end, const char *key)
{
    size_t col = key_col(&ls->v[d]);
    for (size_t i = d + 1; i < end; i++) {
        const mt_line *l = &ls->v[i];
        if (skip(l))
            continue;
        return !l->dash && l->indent > ls->v[d].indent && l->indent != col && key_is(l, key) ? i : ls->n;
    }
    return ls->n;
}

/* The line of item-level key `key` as core reads it: on the item's key
 * column, or its first property displaced off it; ls->n when neither. */
static size_t item_key_repaired(const mt_lines *ls, size_t d, size_t end, const char *key)
{
    size_t j = item_key(ls, d, end, key);
    return j < ls->n ? j : displaced_item_key(ls, d, end, key);
}

/* The end of item d: the next item's dash line or the list end. */
static size_t item_end(const size_t *items, size_t n, size_t k, size_t list_end)
{
    return k + 1 < n ? items[k + 1] : list_end;
}

/* The line of the top-level key `key`, or ls->n. */
static size_t top_key(const mt_lines *ls, const char *key)
{
    for (size_t i = 0; i < ls->n; i++)
        if (!skip(&ls->v[i]) && ls->v[i].indent == 0 && !ls->v[i].dash && key_is(&ls->v[i], key))
            return i;
    return ls->n;
}

/* The unquoted scalar value of key line l into out ("" when none). */
static void value_of(const mt_line *l, char *out, size_t cap)
{
    const char *v;
    size_t n = mt_line_value(l, &v);
    if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
}

/* Remove the one-line key j of the item whose dash line is d: delete the
 * line, or on the dash line pull the item's next key up onto the dash. */
static int drop_key(mf_op_ctx *ctx, const mt_lines *ls, size_t d, size_t j, size_t end)
{
    if (j != d) {
        size_t a = ls->v[j].off, b = a + ls->v[j].len;
        return mt_splice(ctx, a, b < ctx->len ? b + 1 : b, "", 0);
    }
    size_t nx = d + 1;
    while (nx < end && skip(&ls->v[nx]))
        nx++;
    const mt_line *n = &ls->v[nx < ls->n ? nx : d];
    if (nx >= end || n->dash || n->indent != key_col(&ls->v[d]) || !n->key_len)
        return 0;
    mt_buf o = {0};
    size_t body = ls->v[d].off + ls->v[d].indent;   /* the "- " */
    int rc = mt_put(&o, ctx->text, body) | mt_puts(&o, "- ") | mt_put(&o, n->s + n->indent, n->len - n->indent);
    size_t after = n->off + n->len;
    rc |= mt_put(&o, ctx->text + after, ctx->len - after);
    return mt_ctx_commit(ctx, &o, rc);
}

#define MAX_ITEMS 256

/* A candidate: item dash line, its end, the key line to drop, exact or not. */
typedef struct { size_t d, end, key; bool exact; } drop_site;

static int apply_drop(mf_op_ctx *ctx, const mt_lines *ls, const drop_site *v, size_t n)
{
    if (!n)
        return 0;
    const drop_site *s = &v[mt_rand(ctx, n)];
    int rc = drop_key(ctx, ls, s->d, s->key, s->end);
    if (rc > 0 && !s->exact)
        ctx->contract = MF_CONTRACT_RAW;
    return rc;
}

/* Sites in the list under key line k whose `id` the rule fills by position:
 * fmt gets the item's 1-based index (and e, when e > 0, before it). */
static size_t id_sites(const mt_lines *ls, size_t k, const char *fmt, size_t e, drop_site *out, size_t cap)
{
    size_t items[MAX_ITEMS], end, n = list_items(ls, k, items, MAX_ITEMS, &end), got = 0;
    for (size_t i = 0; i < n && got < cap; i++) {
        size_t ie = item_end(items, n, i, end), j = item_key(ls, items[i], ie, "id");
        if (j == ls->n || mt_line_block_indicator(&ls->v[j]))
            continue;
        char have[128], want[64];
        value_of(&ls->v[j], have, sizeof have);
        if (!*have)
            continue;
        if (e)
            snprintf(want, sizeof want, fmt, e, i + 1);
        else
            snprintf(want, sizeof want, fmt, i + 1);
        out[got++] = (drop_site){items[i], ie, j, !strcmp(have, want)};
    }
    return got;
}

static int drop_id(mf_op_ctx *ctx, const char *normalizer, const char *list, const char *fmt)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, normalizer))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    drop_site v[MAX_ITEMS];
    size_t k = top_key(&ls, list), n = k < ls.n ? id_sites(&ls, k, fmt, 0, v, MAX_ITEMS) : 0;
    int rc = apply_drop(ctx, &ls, v, n);
    mt_lines_free(&ls);
    return rc;
}

int mt_op_items_epic_id(mf_op_ctx *ctx)
{
    return drop_id(ctx, "prd", "epics", "EPIC-%zu");
}

int mt_op_items_bead_id(mf_op_ctx *ctx)
{
    return drop_id(ctx, "beads", "beads", "bead-%zu");
}

int mt_op_items_story_id(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "prd"))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    drop_site v[MAX_ITEMS];
    size_t n = 0, k = top_key(&ls, "epics");
    if (k < ls.n) {
        size_t epics[MAX_ITEMS], end, ne = list_items(&ls, k, epics, MAX_ITEMS, &end);
        for (size_t e = 0; e < ne && n < MAX_ITEMS; e++) {
            size_t s = item_key(&ls, epics[e], item_end(epics, ne, e, end), "user_stories");
            if (s < ls.n)
                n += id_sites(&ls, s, "US-%zu-%zu", e + 1, v + n, MAX_ITEMS - n);
        }
    }
    int rc = apply_drop(ctx, &ls, v, n);
    mt_lines_free(&ls);
    return rc;
}

int mt_op_items_prd_refs(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "beads"))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    drop_site v[MAX_ITEMS];
    size_t n = 0, k = top_key(&ls, "beads");
    if (k < ls.n) {
        size_t items[MAX_ITEMS], end, ni = list_items(&ls, k, items, MAX_ITEMS, &end);
        for (size_t i = 0; i < ni; i++) {
            size_t ie = item_end(items, ni, i, end), j = item_key(&ls, items[i], ie, "prd_refs");
            char val[16];
            if (j == ls.n)
                continue;
            value_of(&ls.v[j], val, sizeof val);
            if (!strcmp(val, "[]"))
                v[n++] = (drop_site){items[i], ie, j, true};
        }
    }
    int rc = apply_drop(ctx, &ls, v, n);
    mt_lines_free(&ls);
    return rc;
}

/* Does the value of key line j go on below it: a multi-line quoted scalar's
 * later lines (block_body), a plain scalar's continuation or nested lines
 * (indented deeper), a list at the key's own column, any line there that is
 * no key? Moved alone, line j would leave the rest of its value behind under
 * `answer:`, where it reads as another value (run 8 entry fa5e303b:
 * `answered_at: "` moved above `answer:` swallowed it into the string). */
static bool value_continues(const mt_lines *ls, size_t j)
{
    const mt_line *l = &ls->v[j];
    size_t i = j + 1;
    while (i < ls->n && !ls->v[i].block_body && (ls->v[i].blank || ls->v[i].comment))
        i++;
    if (i >= ls->n)
        return false;
    const mt_line *x = &ls->v[i];
    if (x->block_body || x->indent > l->indent)
        return true;
    return x->indent == l->indent && (x->dash || !x->key_len);
}

/* Does the answer block under key line a run over a quoted value's later
 * line at or left of `answer:`'s column (`answered_by: "ai:o` left open, then
 * `- id: Q02`)? The line model reads that line as text of the value, so the
 * block seems to go on into the next item; yaml.unclosed-quote closes the
 * value at the end of its line (or core rejects the text), so the keys below
 * are the next item's, and a field moved from there would land beside the
 * wrong question's answer (run 9 entries 7175b31b, e2fef673, 99809b66). */
static bool answer_spills(const mt_lines *ls, size_t a)
{
    size_t col = ls->v[a].indent;
    for (size_t j = a + 1; j < ls->n && (skip(&ls->v[j]) || ls->v[j].indent > col); j++)
        if (ls->v[j].block_body && !ls->v[j].blank && ls->v[j].indent <= col)
            return true;
    return false;
}

/* Would the answer block under key line a, with its nc lines cut[] moved out, be
 * left empty, the line after the block a sibling key at `answer:`'s column that the
 * profile names an answer child (`answer:` + `selected:`)? yaml.nested-children reads
 * that key back as the empty parent's dedented child: no rule can tell it was a
 * sibling (run 45 4a550c23). */
static bool empties_before_child(const mf_op_ctx *ctx, const mt_lines *ls, size_t a, const size_t *cut, size_t nc)
{
    size_t col = ls->v[a].indent, kept = 0, j = a + 1;
    for (size_t c = 0; j < ls->n && (skip(&ls->v[j]) || ls->v[j].indent > col); j++) {
        if (c < nc && cut[c] == j)
            c++;
        else if (!skip(&ls->v[j]))
            kept++;
    }
    while (j < ls->n && skip(&ls->v[j]))
        j++;
    if (kept || j >= ls->n || !ctx->profile)
        return false;
    const mt_line *x = &ls->v[j];
    const json_t *kids = json_object_get(ctx->profile->nested_children, "answer");
    for (size_t i = 0; x->indent == col && !x->dash && x->key_len && i < json_array_size(kids); i++) {
        const char *k = json_string_value(json_array_get(kids, i));
        if (k && strlen(k) == x->key_len && !memcmp(k, x->s + x->body, x->key_len))
            return true;
    }
    return false;
}

/* full_answers: move answer.answered_by / answered_at (one or both) out of
 * the nested answer mapping to the question's own level, above `answer:`.
 * Only a field whose value is whole on its line moves (value_continues). */
int mt_op_items_answer_sibling(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "full_answers"))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t answers[MAX_ITEMS], n = 0, k = top_key(&ls, "questions");
    if (k < ls.n) {
        size_t items[MAX_ITEMS], end, ni = list_items(&ls, k, items, MAX_ITEMS, &end);
        for (size_t i = 0; i < ni; i++) {
            size_t ie = item_end(items, ni, i, end), a = item_key(&ls, items[i], ie, "answer");
            if (a == ls.n || a == items[i] || item_key(&ls, items[i], ie, "answered_by") != ls.n ||
                item_key(&ls, items[i], ie, "answered_at") != ls.n || answer_spills(&ls, a))
                continue;
            for (size_t j = a + 1; j < ie && (skip(&ls.v[j]) || ls.v[j].indent > ls.v[a].indent); j++)
                if (!skip(&ls.v[j]) && !ls.v[j].dash && (key_is(&ls.v[j], "answered_by") || key_is(&ls.v[j], "answered_at")) &&
                    !value_continues(&ls, j)) {
                    answers[n++] = a;
                    break;
                }
        }
    }
    int rc = 0;
    if (n) {
        size_t a = answers[mt_rand(ctx, n)], which = mt_rand(ctx, 3);  /* 0 by, 1 at, 2 both */
        size_t col = ls.v[a].indent, child = 0;
        mt_buf moved = {0}, o = {0};
        int e = 0;
        size_t j = a + 1, cut[2], nc = 0, last = ls.n;
        while (last > 0 && skip(&ls.v[last - 1]))
            last--;
        for (; j < ls.n && (skip(&ls.v[j]) || ls.v[j].indent > col); j++) {
            const mt_line *l = &ls.v[j];
            if (skip(l) || l->dash)
                continue;
            if (!child)
                child = l->indent;
            bool by = key_is(l, "answered_by"), at = key_is(l, "answered_at");
            bool noise = false;     /* terminal noise stays at the text's end, where cand.ansi-noise is cut */
            for (size_t c = 0; c < l->len; c++)
                noise |= ((unsigned char)l->s[c] < 0x20 && l->s[c] != '\t' && l->s[c] != '\r') || (unsigned char)l->s[c] == 0x7f;
            /* the text's last line stays: moved away, the line above it would end the text,
             * where a line an earlier op left open (`selected: [icu`) reads as cut off (run 7) */
            if (l->indent == child && ((by && which != 1) || (at && which != 0)) && nc < 2 && !mt_line_block_indicator(l) &&
                !noise && j + 1 != last && !value_continues(&ls, j)) {
                for (size_t c = 0; c < col; c++)
                    e |= mt_putc(&moved, ' ');
                e |= mt_put(&moved, l->s + l->indent, l->len - l->indent) | mt_putc(&moved, '\n');
                cut[nc++] = j;
            }
        }
        if (nc && !empties_before_child(ctx, &ls, a, cut, nc)) {
            size_t pos = 0;
            e |= mt_put(&o, ctx->text, ls.v[a].off) | mt_put(&o, moved.s, moved.len);
            pos = ls.v[a].off;
            for (size_t c = 0; c < nc; c++) {
                size_t lo = ls.v[cut[c]].off, hi = lo + ls.v[cut[c]].len;
                hi = hi < ctx->len ? hi + 1 : hi;
                e |= mt_put(&o, ctx->text + pos, lo - pos);
                pos = hi;
            }
            e |= mt_put(&o, ctx->text + pos, ctx->len - pos);
            /* a field moved from between an empty block header and a line that is no
             * one-word key leaves that line right under the header, where it reads as
             * the header's fallen body as well (run 36 721dd1a3) */
            if (!e && mt_yaml_body_reading_ambiguous(o.s, o.len) && !mt_yaml_body_reading_ambiguous(ctx->text, ctx->len))
                mt_free(&o);
            else
                rc = mt_ctx_commit(ctx, &o, e);
        }
        mt_free(&moved);
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- refinement changes: the `changes:` list of a profile with changes: true ---- */

/* The change items (dash lines) in out, with *end the list end. */
static size_t change_items(const mf_op_ctx *ctx, const mt_lines *ls, size_t *out, size_t *end)
{
    if (!mt_is_yaml(ctx) || !ctx->profile || !ctx->profile->changes)
        return 0;
    size_t k = top_key(ls, "changes");
    return k < ls->n ? list_items(ls, k, out, MAX_ITEMS, end) : 0;
}

/* A change the normalizer skips, inserted before a random change: a bare
 * note, or an entry whose type is not modified / added / removed. */
int mt_op_items_change_invalid(mf_op_ctx *ctx)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t items[MAX_ITEMS], end = 0, n = change_items(ctx, &ls, items, &end);
    int rc = 0;
    if (n) {
        const mt_line *d = &ls.v[items[mt_rand(ctx, n)]];
        static const char *const notes[] = {
            "- \"No other changes were needed.\"\n",
            "- type: clarified\n  item_type: summary\n  item_id: summary\n  description: Reworded for clarity.\n",
            "- type: unchanged\n  description: Everything else stays as drafted.\n",
            "- type: null\n  description: Minor wording fixes.\n",
        };
        const char *note = notes[mt_rand(ctx, sizeof notes / sizeof *notes)];
        mt_buf o = {0};
        int e = mt_put(&o, ctx->text, d->off);
        for (const char *p = note; *p; p++) {
            if (p == note || p[-1] == '\n')
                for (size_t c = 0; c < d->indent; c++)
                    e |= mt_putc(&o, ' ');
            e |= mt_putc(&o, *p);
        }
        e |= mt_put(&o, ctx->text + d->off, ctx->len - d->off);
        rc = mt_ctx_commit(ctx, &o, e);
    }
    mt_lines_free(&ls);
    return rc;
}

/* The `inspiration:` mapping of change item i: its key line and the end of
 * its children (all simple key lines one level deeper), or false. */
static bool inspiration_block(const mt_lines *ls, const size_t *items, size_t n, size_t i, size_t end, size_t *key,
                              size_t *stop)
{
    size_t ie = item_end(items, n, i, end), k = item_key(ls, items[i], ie, "inspiration"), child = 0;
    if (k == ls->n || k == items[i] || ls->v[k].val < ls->v[k].len)
        return false;
    size_t j = k + 1;
    for (; j < ie && (skip(&ls->v[j]) || ls->v[j].indent > ls->v[k].indent); j++) {
        const mt_line *l = &ls->v[j];
        if (l->block_body)
            return false;               /* a child's multi-line value (`label: |#x` + body): no one-line label */
        if (skip(l))
            continue;
        if (!child)
            child = l->indent;
        if (l->dash || l->indent != child || !l->key_len || mt_line_block_indicator(l))
            return false;
    }
    *key = k;
    *stop = j;
    return child != 0;
}

/* The child line `name` of the inspiration block [k, stop), or ls->n. */
static size_t inspiration_child(const mt_lines *ls, size_t k, size_t stop, const char *name)
{
    for (size_t j = k + 1; j < stop; j++)
        if (!skip(&ls->v[j]) && key_is(&ls->v[j], name))
            return j;
    return ls->n;
}

/* Does the label text v (n bytes) read as a string where it is the value of
 * inspiration itself? The profile keeps a label's text (`label: ~` is "~"),
 * but a bare inspiration is typed: empty or a comment (`label: # `, whose
 * label is ""), ~, null, true, 12 load as no string, which
 * norm.change-inspiration does not take for a label (run 8, f7c45044). */
static bool bare_label_is_string(const char *v, size_t n)
{
    char buf[600];
    if (n + 16 > sizeof buf)
        return false;
    int len = snprintf(buf, sizeof buf, "inspiration: %.*s\n", (int)n, v);
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), buf, (size_t)len, NULL);
    bool ok = r && r->status == MF_ACCEPTED && !r->warnings.count &&
              json_is_string(json_object_get(r->value, "inspiration"));
    mf_result_free(r);
    return ok;
}

/* inspiration: {label: X, ...} written as the bare string inspiration: X
 * (exact where label was its only key; raw where id / alternative_draft go),
 * where X reads as a string there too. */
int mt_op_items_inspiration_string(mf_op_ctx *ctx)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t items[MAX_ITEMS], end = 0, n = change_items(ctx, &ls, items, &end), ok[MAX_ITEMS], m = 0;
    size_t k, stop, lab;
    for (size_t i = 0; i < n; i++)
        if (inspiration_block(&ls, items, n, i, end, &k, &stop) &&
            (lab = inspiration_child(&ls, k, stop, "label")) < ls.n) {
            const char *v;
            size_t vn = mt_line_value(&ls.v[lab], &v);
            if (bare_label_is_string(v, vn))
                ok[m++] = i;
        }
    int rc = 0;
    if (m && inspiration_block(&ls, items, n, ok[mt_rand(ctx, m)], end, &k, &stop)) {
        const mt_line *lab = &ls.v[inspiration_child(&ls, k, stop, "label")];
        const char *v;
        size_t vn = mt_line_value(lab, &v), keys = 0;
        for (size_t j = k + 1; j < stop; j++)
            keys += !skip(&ls.v[j]);
        mt_buf o = {0};
        size_t a = ls.v[k].off, z = ls.v[stop - 1].off + ls.v[stop - 1].len;
        int e = mt_put(&o, ctx->text, a + ls.v[k].indent) | mt_puts(&o, "inspiration: ") | mt_put(&o, v, vn) |
                mt_put(&o, ctx->text + z, ctx->len - z);
        rc = mt_ctx_commit(ctx, &o, e);
        if (rc > 0 && keys > 1)
            ctx->contract = MF_CONTRACT_RAW;
    }
    mt_lines_free(&ls);
    return rc;
}

/* The alternative_draft lines of the changes' inspirations in out. An inspiration
 * holding the key twice (a repeat yaml.duplicate-key drops) is no site: rewriting
 * one copy makes the copies differ, a duplicate no rule repairs (run 9 90b14f25). */
static size_t draft_sites(const mf_op_ctx *ctx, const mt_lines *ls, size_t *out)
{
    size_t items[MAX_ITEMS], end = 0, n = change_items(ctx, ls, items, &end), m = 0, k, stop;
    for (size_t i = 0; i < n; i++)
        if (inspiration_block(ls, items, n, i, end, &k, &stop)) {
            size_t j = inspiration_child(ls, k, stop, "alternative_draft");
            if (j < ls->n && inspiration_child(ls, j, stop, "alternative_draft") >= ls->n)
                out[m++] = j;
        }
    return m;
}

static const json_t *roster(const mf_op_ctx *ctx)
{
    return ctx->opt ? mf_options_context(ctx->opt, ctx->profile, "roster") : NULL;
}

static int set_value(mf_op_ctx *ctx, const mt_line *l, const char *v)
{
    const char *old;
    size_t n = mt_line_value(l, &old);
    size_t a = (size_t)(old - ctx->text);
    return mt_splice(ctx, a, a + n, v, strlen(v));
}

/* alternative_draft: a roster model id written as its 1-based ordinal. */
int mt_op_ctx_inspiration_ordinal(mf_op_ctx *ctx)
{
    const json_t *r = roster(ctx);
    if (!json_array_size(r))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t v[MAX_ITEMS], n = draft_sites(ctx, &ls, v), ok[MAX_ITEMS], ord[MAX_ITEMS], m = 0;
    for (size_t i = 0; i < n; i++) {
        char have[128];
        value_of(&ls.v[v[i]], have, sizeof have);
        for (size_t k = 0; k < json_array_size(r); k++)
            if (json_string_value(json_array_get(r, k)) && !strcmp(have, json_string_value(json_array_get(r, k)))) {
                ok[m] = v[i];
                ord[m++] = k + 1;
                break;
            }
    }
    int rc = 0;
    if (m) {
        size_t pick = mt_rand(ctx, m);
        char num[32];
        snprintf(num, sizeof num, "%zu", ord[pick]);
        rc = set_value(ctx, &ls.v[ok[pick]], num);
    }
    mt_lines_free(&ls);
    return rc;
}

/* alternative_draft: an ordinal no draft of the roster has (0 or past its
 * end). The change is kept, marked invalid_unattributed: raw. */
int mt_op_ctx_inspiration_unknown(mf_op_ctx *ctx)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t v[MAX_ITEMS], n = draft_sites(ctx, &ls, v);
    int rc = 0;
    if (n) {
        char num[32];
        size_t past = json_array_size(roster(ctx)) + 1 + mt_rand(ctx, 3);
        snprintf(num, sizeof num, "%zu", mt_rand(ctx, 4) ? past : 0);
        rc = set_value(ctx, &ls.v[v[mt_rand(ctx, n)]], num);
        if (rc > 0)
            ctx->contract = MF_CONTRACT_RAW;
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- interview coverage: gap references ---- */

/* The unquoted scalar of a dash line ("- text") into out ("" when none). */
static void item_scalar(const mt_line *l, char *out, size_t cap)
{
    const char *v = l->s + l->body;
    size_t n = l->len - l->body;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\r'))
        n--;
    if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
}

/* Plain text: no quote, backslash or YAML-special start that a rewrite
 * into a double-quoted scalar would have to escape. */
static bool plain_gap(const char *s)
{
    return *s && !strpbrk(s, "\"'\\`") && !strstr(s, "\xE2\x80");
}

/* coverage.gap_resolutions[].gap repeating a coverage.gaps entry with other
 * quotes or whitespace: curly quotes, backticks, a doubled or padding space. */
int mt_op_items_gap_ref(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "interview"))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t cov = top_key(&ls, "coverage"), sites[MAX_ITEMS], m = 0;
    size_t gaps_k = ls.n, res_k = ls.n;
    for (size_t i = cov + 1; cov < ls.n && i < ls.n && (skip(&ls.v[i]) || ls.v[i].indent > 0); i++) {
        if (skip(&ls.v[i]) || ls.v[i].dash)
            continue;
        if (key_is(&ls.v[i], "gaps") && gaps_k == ls.n)
            gaps_k = i;
        else if (key_is(&ls.v[i], "gap_resolutions") && res_k == ls.n)
            res_k = i;
    }
    if (gaps_k < ls.n && res_k < ls.n) {
        size_t gaps[MAX_ITEMS], res[MAX_ITEMS], gend, rend;
        size_t ng = list_items(&ls, gaps_k, gaps, MAX_ITEMS, &gend), nr = list_items(&ls, res_k, res, MAX_ITEMS, &rend);
        for (size_t r = 0; r < nr && m < MAX_ITEMS; r++) {
            size_t j = item_key(&ls, res[r], item_end(res, nr, r, rend), "gap");
            char ref[256], g[256];
            if (j == ls.n || mt_line_block_indicator(&ls.v[j]))
                continue;
            value_of(&ls.v[j], ref, sizeof ref);
            bool found = false;
            for (size_t k = 0; k < ng && !found; k++) {
                item_scalar(&ls.v[gaps[k]], g, sizeof g);
                found = !strcmp(g, ref);
            }
            if (found && plain_gap(ref))
                sites[m++] = j;
        }
    }
    int rc = 0;
    if (m) {
        const mt_line *l = &ls.v[sites[mt_rand(ctx, m)]];
        char ref[256], out[600];
        value_of(l, ref, sizeof ref);
        const char *sp = strchr(ref, ' ');
        switch (mt_rand(ctx, 4)) {
        case 0:
            snprintf(out, sizeof out, "\"\xE2\x80\x9C%s\xE2\x80\x9D\"", ref);
            break;
        case 1:
            snprintf(out, sizeof out, "\"`%s`\"", ref);
            break;
        case 2:
            if (sp) {
                snprintf(out, sizeof out, "\"%.*s  %s\"", (int)(sp - ref), ref, sp + 1);
                break;
            }
            /* fall through */
        default:
            snprintf(out, sizeof out, "\" %s \"", ref);
        }
        rc = set_value(ctx, l, out);
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- beads: the bare list ---- */

/* Only the beads list, dedented to the root: exact where beads was the
 * artifact's only key, raw where the other top-level keys are lost. A lone CR
 * starts a line (maybe a top-level key) the line scan cannot see: no site. */
int mt_op_items_beads_bare(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "beads") || mt_has_lone_cr(ctx->text, ctx->len))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t k = top_key(&ls, "beads"), items[MAX_ITEMS], end = 0, n = k < ls.n ? list_items(&ls, k, items, MAX_ITEMS, &end) : 0;
    int rc = 0;
    if (n) {
        /* the whole beads block, not just the items list_items reads: a later
         * item it does not take for one (`-id: l`, yaml.dash-space) is kept */
        for (end = k + 1; end < ls.n && (skip(&ls.v[end]) || ls.v[end].indent > 0 || ls.v[end].dash); end++)
            ;
        size_t cut = ls.v[items[0]].indent, others = 0;
        for (size_t i = 0; i < ls.n; i++)
            others += i != k && !skip(&ls.v[i]) && ls.v[i].indent == 0 && !ls.v[i].dash && (i < items[0] || i >= end);
        mt_buf o = {0};
        int e = 0;
        for (size_t i = items[0]; i < end; i++) {
            const mt_line *l = &ls.v[i];
            size_t from = l->indent >= cut ? cut : l->indent;
            e |= mt_put(&o, l->s + from, l->len - from) | mt_putc(&o, '\n');
        }
        rc = mt_ctx_commit(ctx, &o, e);
        if (rc > 0 && others)
            ctx->contract = MF_CONTRACT_RAW;
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- a list item written as its id alone (yaml.item-key) ---- */

/* Is [v, v+n) one plain token the rule takes back as written: no blank, ':',
 * quote or indicator that would read otherwise as a bare item? */
static bool bare_token(const char *v, size_t n)
{
    if (n == 0 || strchr("-?:,[]{}#&*!|>'\"%@`", v[0]))
        return false;
    for (size_t i = 0; i < n; i++)
        if (v[i] == ' ' || v[i] == '\t' || v[i] == ':' || v[i] == '\r' || v[i] == '#')
            return false;
    return true;
}

/* Is the key of line l one of the names in the JSON array kids? */
static bool key_listed(const mt_line *l, const json_t *kids)
{
    for (size_t i = 0; i < json_array_size(kids); i++) {
        const char *k = json_string_value(json_array_get(kids, i));
        if (k && key_is(l, k))
            return true;
    }
    return false;
}

/* `- id: cache-fix` written `- cache-fix`, where the profile's item_keys
 * names the list's items by that key and the item's next line is one of
 * the listed child keys at the item's key column (the rule's evidence). */
int mt_op_items_bare_key(mf_op_ctx *ctx)
{
    const json_t *specs = ctx->profile ? ctx->profile->item_keys : NULL;
    if (!mt_is_yaml(ctx) || !json_object_size(specs))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t sites[MAX_ITEMS], got = 0;
    for (size_t k = 0; k < ls.n && got < MAX_ITEMS; k++) {
        const mt_line *p = &ls.v[k];
        if (skip(p) || !p->key_len || p->val < p->len)
            continue;
        const json_t *spec = json_object_getn(specs, p->s + p->body, p->key_len);
        const char *key = json_string_value(json_object_get(spec, "key"));
        if (!key)
            continue;
        size_t items[MAX_ITEMS], end, n = list_items(&ls, k, items, MAX_ITEMS, &end);
        for (size_t i = 0; i < n && got < MAX_ITEMS; i++) {
            const mt_line *d = &ls.v[items[i]];
            const char *v;
            size_t vn = mt_line_value(d, &v), nx = items[i] + 1;
            while (nx < end && skip(&ls.v[nx]))
                nx++;
            if (!key_is(d, key) || !bare_token(v, vn) || nx >= end)
                continue;
            const mt_line *c = &ls.v[nx];
            if (!c->dash && c->indent == key_col(d) && key_listed(c, json_object_get(spec, "children")))
                sites[got++] = items[i];
        }
    }
    int rc = 0;
    if (got) {
        const mt_line *d = &ls.v[sites[mt_rand(ctx, got)]];
        const char *v;
        size_t vn = mt_line_value(d, &v);
        mt_buf b = {0};
        int e = mt_put(&b, d->s, d->body) | mt_put(&b, v, vn);
        rc = e ? -1 : mt_replace_line(ctx, &ls, (size_t)(d - ls.v), b.s, b.len);
        mt_free(&b);
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- full answers: answer-only question blocks ---- */

/* Does every question of the text's strict parse carry exactly the approved
 * question's metadata (all but answer and its fields)? Then overlaying the
 * answer-only blocks on the approved questions gives the text back. */
static bool overlay_exact(const mf_op_ctx *ctx, const json_t *approved)
{
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), ctx->text, ctx->len, NULL);
    const json_t *qs = r && r->status == MF_ACCEPTED && !r->warnings.count ? json_object_get(r->value, "questions") : NULL;
    bool same = json_array_size(qs) && json_array_size(qs) == json_array_size(approved);
    for (size_t i = 0; same && i < json_array_size(qs); i++) {
        json_t *q = json_deep_copy(json_array_get(qs, i)), *a = json_deep_copy(json_array_get(approved, i));
        for (const char *const *k = (const char *const[]){"answer", "answered_by", "answered_at", NULL}; *k; k++) {
            json_object_del(q, *k);
            json_object_del(a, *k);
        }
        same = q && a && json_equal(q, a);
        json_decref(q);
        json_decref(a);
    }
    mf_result_free(r);
    return same;
}

/* Copy line i and the lines below it (deeper or blank) to o; the next line. */
static size_t copy_block(const mt_lines *ls, size_t i, size_t end, mt_buf *o, int *e)
{
    size_t col = ls->v[i].indent + (ls->v[i].dash ? 2 : 0), j = i;
    do {
        *e |= mt_put(o, ls->v[j].s, ls->v[j].len) | mt_putc(o, '\n');
        j++;
    } while (j < end && (skip(&ls->v[j]) || ls->v[j].indent > col));
    return j;
}

/* Every question written as an answer-only block (id, answer and its
 * fields), as a model answering an approved interview does. Only where the
 * runtime approved_interview holds the questions' metadata: elsewhere the
 * overlay brings in values the input never had (no ground truth, and the
 * raw oracles take them for invented ones). */
int mt_op_ctx_answer_only(mf_op_ctx *ctx)
{
    const json_t *approved = ctx->opt ? json_object_get(mf_options_context(ctx->opt, ctx->profile, "approved_interview"),
                                                        "questions") : NULL;
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "full_answers") || !json_array_size(approved))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t k = top_key(&ls, "questions"), items[MAX_ITEMS], end = 0;
    size_t n = k < ls.n ? list_items(&ls, k, items, MAX_ITEMS, &end) : 0;
    /* the line scan must see every question the parse holds: a flow collection's later
     * line at column 0 (`selected: [de` + `, ja]`) ends the list for it, and the questions
     * below would stay whole beside the blocks, which the overlay never mixes (run 38 767dc8e9) */
    bool ok = n > 0 && n == json_array_size(approved);
    for (size_t i = 0; ok && i < n; i++) {
        size_t ie = item_end(items, n, i, end), id = item_key(&ls, items[i], ie, "id"),
               a = item_key(&ls, items[i], ie, "answer");
        ok = id == items[i] && a < ls.n && a != items[i];
    }
    int rc = 0;
    if (ok && overlay_exact(ctx, approved)) {
        mt_buf o = {0};
        int e = mt_put(&o, ctx->text, ls.v[items[0]].off);
        for (size_t i = 0; i < n; i++) {
            size_t ie = item_end(items, n, i, end), col = key_col(&ls.v[items[i]]);
            e |= mt_put(&o, ls.v[items[i]].s, ls.v[items[i]].len) | mt_putc(&o, '\n');
            for (size_t j = items[i] + 1; j < ie;) {
                const mt_line *l = &ls.v[j];
                if (!skip(l) && !l->dash && l->indent == col &&
                    (key_is(l, "answer") || key_is(l, "answered_by") || key_is(l, "answered_at")))
                    j = copy_block(&ls, j, ie, &o, &e);
                else
                    j++;
            }
        }
        size_t tail = end < ls.n ? ls.v[end].off : ctx->len;
        e |= mt_put(&o, ctx->text + tail, ctx->len - tail);
        rc = mt_ctx_commit(ctx, &o, e);
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- interview: questions out of phase order ---- */

/* The value of a glued `key:value` on line l (what yaml.colon-space spaces)
 * into out; false when l holds no such key at its body. */
static bool glued_value(const mt_line *l, const char *key, char *out, size_t cap)
{
    size_t kn = strlen(key), at = l->body + kn;
    if (l->key_len || at + 1 >= l->len || memcmp(l->s + l->body, key, kn) || l->s[at] != ':' ||
        isspace((unsigned char)l->s[at + 1]))
        return false;
    const char *v = l->s + at + 1;
    size_t n = l->len - at - 1;
    while (n && isspace((unsigned char)v[n - 1]))
        n--;
    if (n >= 2 && (v[0] == '"' || v[0] == '\'') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
    return true;
}

/* Cut value v where a key inlined into it begins (`Q01 phase: assembly`,
 * yaml.inline-keys' shape): core splits the line there, so the value is `Q01`. */
static void cut_inline_key(char *v)
{
    v[mt_inline_key_cut(v, strlen(v))] = '\0';
}

/* The value of key `key` inlined after another entry on line l
 * (`- id: Q01 phase: assembly`) into out; false when there is none. */
static bool inline_value(const mt_line *l, const char *key, char *out, size_t cap)
{
    size_t kn = strlen(key);
    for (size_t i = l->body + 1; i + kn + 2 <= l->len; i++)
        if (l->s[i - 1] == ' ' && !memcmp(l->s + i, key, kn) && l->s[i + kn] == ':' && l->s[i + kn + 1] == ' ') {
            const char *v = l->s + i + kn + 2;
            size_t n = 0;
            while (i + kn + 2 + n < l->len && !isspace((unsigned char)v[n]))
                n++;
            snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
            return true;
        }
    return false;
}

/* The item's phase as core reads it after yaml.colon-space: a glued
 * `phase:structure` is structure, not a question without a phase (run 15);
 * after yaml.property-indent: a displaced first `phase:` is its phase (run 27
 * 50a7dc5d, e36668bc). */
static int phase_rank(const mt_lines *ls, size_t d, size_t end)
{
    static const char *const phases[] = {"foundation", "structure", "assembly"};
    size_t j = item_key_repaired(ls, d, end, "phase"), col = key_col(&ls->v[d]);
    char v[32] = "";
    if (j < ls->n)
        value_of(&ls->v[j], v, sizeof v);
    for (size_t i = d; j == ls->n && i < end && !*v; i++) {
        const mt_line *l = &ls->v[i];
        if (!skip(l) && (i == d || (!l->dash && l->indent == col)))
            glued_value(l, "phase", v, sizeof v);
    }
    if (j == ls->n && !*v) /* inlined on the dash line (run 21 bc5d4c6d) */
        inline_value(&ls->v[d], "phase", v, sizeof v);
    for (int r = 0; r < 3; r++)
        if (!strcasecmp(v, phases[r]))
            return r;
    return 3;
}

/* The id of a question as norm.question-id reads it (1, q1, Q1, "Question 3"
 * all Q##; another shape as written) into out: renumbering compares ids after
 * that normalization, so two spellings of one number are one id. */
static void question_id_key(const char *v, char *out, size_t cap)
{
    long num = mt_qid_number(v);
    if (num >= 0)
        snprintf(out, cap, "Q%02ld", num);
    else
        snprintf(out, cap, "%s", v);
}

/* The value of `key` glued to its colon on a line of item [d, end) at the
 * item's key column (`- id:Q01`, yaml.colon-space's damage, which the rule
 * reads as that key) into out; false when there is none. */
static bool item_glued_value(const mt_lines *ls, size_t d, size_t end, const char *key, char *out, size_t cap)
{
    size_t kn = strlen(key), col = key_col(&ls->v[d]);
    for (size_t i = d; i < end && i < ls->n; i++) {
        const mt_line *l = &ls->v[i];
        if (skip(l) || (i > d && (l->dash || l->indent != col)))
            continue;
        const char *b = l->s + l->body;
        size_t n = l->len - l->body;
        if (n > kn + 1 && !memcmp(b, key, kn) && b[kn] == ':' && b[kn + 1] != ' ' && b[kn + 1] != '\t') {
            size_t a = kn + 1, z = n;
            while (z > a && (b[z - 1] == ' ' || b[z - 1] == '\r'))
                z--;
            if (z - a >= 2 && (b[a] == '"' || b[a] == '\'') && b[z - 1] == b[a])
                a++, z--;
            snprintf(out, cap, "%.*s", (int)(z - a < cap ? z - a : cap - 1), b + a);
            return true;
        }
    }
    return false;
}

/* Does the item from line d to end hide a list item the line model does not
 * see: a keyed dash line in it whose next property line sits left of its key
 * yet right of the item's dash (`   - id: Q02` + `  phase: x` under items
 * at column 0, yaml.sequence-indent-drift's damage)? The rule puts that dash
 * back on the list's column, where it is one more question to order. */
static bool hides_item(const mt_lines *ls, size_t d, size_t end)
{
    for (size_t j = d + 1; j < end; j++) {
        const mt_line *l = &ls->v[j];
        if (skip(l) || !l->dash || !l->key_len)
            continue;
        size_t k = j + 1;
        while (k < end && skip(&ls->v[k]))
            k++;
        const mt_line *p = k < end ? &ls->v[k] : NULL;
        if (p && !p->dash && p->key_len && p->indent > ls->v[d].indent && p->indent < l->body)
            return true;
    }
    return false;
}

/* Does the item from line d to end leave a flow collection open (`selected:
 * [` whose `icu]` closer sits at column 0, past the list's end as the line
 * model reads it)? YAML reads the lines after it into the item, so moving
 * the item's lines alone splits its value (run 25 dcf19455). Quoted
 * scalars inside the flow are passed over on their line. */
static bool leaves_flow_open(const mt_lines *ls, size_t d, size_t end)
{
    size_t depth = 0;
    for (size_t j = d; j < end; j++) {
        const mt_line *l = &ls->v[j];
        if (l->blank || l->block_body || (l->comment && !depth))
            continue;
        size_t i = depth ? 0 : l->key_len ? l->val : l->body;
        char prev = depth ? ',' : '[';
        for (; i < l->len; i++) {
            char c = l->s[i];
            if (c == ' ' || c == '\t' || c == '\r')
                continue;
            if (!depth && c != '[' && c != '{')
                break;
            if ((c == '"' || c == '\'') && strchr("[{,:", prev)) {
                const char *q = memchr(l->s + i + 1, c, l->len - i - 1);
                if (!q)
                    break;
                i = (size_t)(q - l->s);
            } else if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                break;
            } else if (c == '#' && (i == 0 || l->s[i - 1] == ' ' || l->s[i - 1] == '\t')) {
                break;
            }
            prev = c;
        }
    }
    return depth > 0;
}

/* A question moved up before questions of earlier phases, where the
 * questions were in phase order and it passes none of its own phase: the
 * rule's stable sort puts it back (exact). */
int mt_op_items_phase_order(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !has_normalizer(ctx, "interview"))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    size_t k = top_key(&ls, "questions"), items[MAX_ITEMS], end = 0, sites[MAX_ITEMS], m = 0;
    size_t n = k < ls.n ? list_items(&ls, k, items, MAX_ITEMS, &end) : 0;
    int rank[MAX_ITEMS];
    size_t lo[MAX_ITEMS];
    char id[MAX_ITEMS][64];
    bool sorted = true, hidden = false, repeat[MAX_ITEMS];
    for (size_t i = 0; i < n; i++) {
        size_t ie = item_end(items, n, i, end), q = item_key_repaired(&ls, items[i], ie, "id");
        rank[i] = phase_rank(&ls, items[i], ie);
        id[i][0] = '\0';
        char v[64];
        if (q < ls.n)
            value_of(&ls.v[q], v, sizeof v);
        if (q < ls.n || item_glued_value(&ls, items[i], ie, "id", v, sizeof v)) {
            cut_inline_key(v);
            question_id_key(v, id[i], sizeof id[i]);
        }
        /* the item may move up only past items of another id: moving it before
         * an earlier item with its id (norm.duplicate-question-id's repeat)
         * would change which of the two renumbering calls the duplicate; ids
         * compare as norm.question-id reads them (q1 is Q01, run 8). Nor may a
         * repeat pass another repeat: renumbering numbers them in document
         * order, before the sort (run 14) */
        lo[i] = 0;
        repeat[i] = false;
        for (size_t p = 0; id[i][0] && p < i; p++)
            if (!strcmp(id[p], id[i])) {
                lo[i] = p + 1;
                repeat[i] = true;
            }
        for (size_t p = 0; repeat[i] && p < i; p++)
            if (repeat[p] && lo[i] < p + 1)
                lo[i] = p + 1;
        sorted = sorted && (!i || rank[i - 1] <= rank[i]);
        hidden = hidden || hides_item(&ls, items[i], ie);
        /* the last item carries the text's end, where cand.ansi-noise puts its noise and
         * an emitter its `...` document end (after a `|+` value): moved up, they would sit
         * inside the list, where no rule cuts them (run 7). Control bytes are noise in any
         * item, also one that ends before the text's end: cand.ansi-noise glues its suffix
         * to the last line and a second noise line at column 0 ends the list before it
         * (run 10 entry 839106b1-r17c56f53) */
        size_t a = ls.v[items[i]].off, z = ie < ls.n ? ls.v[ie].off : ctx->len;
        bool noise = false;
        for (size_t c = a; c < z && !noise; c++)
            noise = ((unsigned char)ctx->text[c] < 0x20 && !strchr("\t\r\n", ctx->text[c])) ||
                    (unsigned char)ctx->text[c] == 0x7f ||
                    (z == ctx->len && ctx->text[c] == '.' && (c == 0 || ctx->text[c - 1] == '\n') && c + 3 <= z &&
                     !memcmp(ctx->text + c, "...", 3) && (c + 3 == z || strchr("\r\n \t", ctx->text[c + 3])));
        /* a quote left open in the item hides from the line model what follows
         * it (the next items, a front-matter closer, prose after the list): to
         * yaml.unclosed-quote it ends at the end of its line, so those lines
         * are no part of the item, and moved up with it they would sit inside
         * the list, where no rule removes them (run 9 entries 20dd84bf, ffb8d298) */
        for (size_t c = items[i] + 1; c < ie && c < ls.n && !noise; c++)
            noise = ls.v[c].block_body && !ls.v[c].blank && ls.v[c].indent <= ls.v[items[i]].indent;
        /* a line at or left of the item's dash that is no list line (the sentence
         * cand.prose-after or the marker cand.bracketed-paste put after the artifact,
         * read into the item past an open quote): moved up, it sits inside the list
         * (run 9) */
        for (size_t j = items[i] + 1; j < ie && !noise; j++)
            noise = !ls.v[j].blank && !ls.v[j].comment && !ls.v[j].dash && ls.v[j].indent <= ls.v[items[i]].indent;
        noise = noise || leaves_flow_open(&ls, items[i], ie);
        if (i && rank[i - 1] < rank[i] && lo[i] < i && !noise)
            sites[m++] = i;
    }
    int rc = 0;
    if (sorted && !hidden && m) {
        size_t i = sites[mt_rand(ctx, m)], j = lo[i] + mt_rand(ctx, i - lo[i]), ie = item_end(items, n, i, end);
        size_t to = ls.v[items[j]].off, a = ls.v[items[i]].off, z = ie < ls.n ? ls.v[ie].off : ctx->len;
        mt_buf o = {0};
        int e = mt_put(&o, ctx->text, to) | mt_put(&o, ctx->text + a, z - a);
        if (z == ctx->len && ctx->text[z - 1] != '\n')
            e |= mt_putc(&o, '\n');
        e |= mt_put(&o, ctx->text + to, a - to) | mt_put(&o, ctx->text + z, ctx->len - z);
        rc = mt_ctx_commit(ctx, &o, e);
    }
    mt_lines_free(&ls);
    return rc;
}

/* ---- duplicate ids: renumbered, never the truth ---- */

/* One item of a list repeats the id of an earlier item: beads get -2, -3
 * suffixes, epics and stories the next free number. Raw (no ground truth). */
int mt_op_items_duplicate_id(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx) || !(has_normalizer(ctx, "beads") || has_normalizer(ctx, "prd")))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    const char *lists[] = {"beads", "epics"};
    size_t ids[MAX_ITEMS], m = 0;
    for (size_t t = 0; t < 2 && !m; t++) {
        size_t k = top_key(&ls, lists[t]), items[MAX_ITEMS], end = 0;
        size_t n = k < ls.n ? list_items(&ls, k, items, MAX_ITEMS, &end) : 0;
        for (size_t i = 0; i < n; i++) {
            size_t j = item_key(&ls, items[i], item_end(items, n, i, end), "id");
            if (j < ls.n && !mt_line_block_indicator(&ls.v[j]))
                ids[m++] = j;
        }
    }
    int rc = 0;
    if (m >= 2) {
        size_t later = 1 + mt_rand(ctx, m - 1), earlier = mt_rand(ctx, later);
        char v[128];
        value_of(&ls.v[ids[earlier]], v, sizeof v);
        if (*v && !strpbrk(v, "\"'\\:#"))
            rc = set_value(ctx, &ls.v[ids[later]], v);
        if (rc > 0)
            ctx->contract = MF_CONTRACT_RAW;
    }
    mt_lines_free(&ls);
    return rc;
}
