/* ops_items.c - malformations of the items of a YAML block list: the model
 * left out an item's id or its empty prd_refs, or wrote an answer's
 * answered_by / answered_at beside the answer instead of inside it.
 *
 * Each op applies only where the profile runs the normalizer that repairs
 * it (prd: epic and story ids; beads: bead ids and prd_refs; full_answers:
 * the hoist). A dropped id is `exact` only where the id the rule fills in by
 * position is the clean one; elsewhere the filled id differs from the truth
 * and the application is raw (no ground truth). */
#include <stdio.h>
#include <string.h>
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

/* full_answers: move answer.answered_by / answered_at (one or both) out of
 * the nested answer mapping to the question's own level, above `answer:`. */
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
                item_key(&ls, items[i], ie, "answered_at") != ls.n)
                continue;
            for (size_t j = a + 1; j < ie && (skip(&ls.v[j]) || ls.v[j].indent > ls.v[a].indent); j++)
                if (!skip(&ls.v[j]) && !ls.v[j].dash && (key_is(&ls.v[j], "answered_by") || key_is(&ls.v[j], "answered_at"))) {
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
        size_t j = a + 1, cut[2], nc = 0;
        for (; j < ls.n && (skip(&ls.v[j]) || ls.v[j].indent > col); j++) {
            const mt_line *l = &ls.v[j];
            if (skip(l) || l->dash)
                continue;
            if (!child)
                child = l->indent;
            bool by = key_is(l, "answered_by"), at = key_is(l, "answered_at");
            if (l->indent == child && ((by && which != 1) || (at && which != 0)) && nc < 2 && !mt_line_block_indicator(l)) {
                for (size_t c = 0; c < col; c++)
                    e |= mt_putc(&moved, ' ');
                e |= mt_put(&moved, l->s + l->indent, l->len - l->indent) | mt_putc(&moved, '\n');
                cut[nc++] = j;
            }
        }
        if (nc) {
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
            rc = mt_ctx_commit(ctx, &o, e);
        }
        mt_free(&moved);
    }
    mt_lines_free(&ls);
    return rc;
}
