/* lc_minimize.c - shrink a failing input while it still fails the same way.
 *
 * Structure first, for structured cases (decoded and re-encoded by
 * mutators.h's mf_case_decode/mf_case_encode): drop ops one at a time; then
 * shrink the artifact: a JSON artifact as a tree (drop object members and
 * array elements, pre-order, re-dumping the value), a YAML artifact as line
 * blocks (a line plus the lines indented under it, a key's compact `- `
 * sequence included); then shorten scalars by halving them (inside quotes
 * when quoted). Every candidate is run in a child through the runner and
 * kept only when mf_lc_still_fails holds, so the result fails the way the
 * original did. Passes repeat until one changes nothing or the run budget is
 * spent. Raw inputs get delta debugging over lines, then over bytes. The
 * engine's own minimizer (libFuzzer -minimize_crash, afl-tmin) is driven by
 * triage on top of this, and checked with the same predicate. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "lc_json.h"
#include "lifecycle.h"
#include "malform/mutators.h"

#define CASE_JSON (JSON_INDENT(2) | JSON_ENCODE_ANY) /* how a minimized case writes its JSON */

typedef struct { char *s; size_t len; } text;

static bool budget_left(mf_lc_minctx *m)
{
    return m->runs < (m->max_runs > 0 ? m->max_runs : 2000) && !(m->deadline > 0 && mf_lc_clock() > m->deadline) &&
           !mf_lc_stop;
}

/* Run a candidate; true when it still fails the original way. */
static bool holds(mf_lc_minctx *m, const char *data, size_t len)
{
    if (!budget_left(m))
        return false;
    m->runs++;
    mf_lc_outcome o;
    mf_lc_run(m->runner, data, len, &o, NULL);
    if (!mf_lc_still_fails(m->orig, &o))
        return false;
    m->last = o;
    return true;
}

/* ---- the case (mutators.h's mf_case: decoded and encoded there) ---- */
typedef mf_case case_text;

/* The text of c with op `skip` left out ((size_t)-1: none) and art as its artifact. */
static text case_join(const case_text *c, size_t skip, const char *art, size_t art_len)
{
    mf_case v = *c;
    mf_case_op ops[MF_CASE_MAX_OPS];
    size_t n = 0;
    for (size_t i = 0; i < c->nops && n < MF_CASE_MAX_OPS; i++)
        if (i != skip)
            ops[n++] = c->ops[i];
    v.ops = ops;
    v.nops = v.capops = n;
    v.artifact = (char *)art;
    v.artifact_len = art_len;
    text t = {0};
    t.s = mf_case_encode(&v, &t.len);
    return t;
}

static bool try_case(mf_lc_minctx *m, case_text *c, size_t skip, const char *art, size_t art_len)
{
    text t = case_join(c, skip, art, art_len);
    bool ok = t.s && holds(m, t.s, t.len);
    free(t.s);
    return ok;
}

static int set_art(case_text *c, const char *art, size_t len)
{
    char *a = malloc(len + 1);
    if (!a)
        return -1;
    memcpy(a, art, len);
    a[len] = '\0';
    free(c->artifact);
    c->artifact = a;
    c->artifact_len = len;
    return 0;
}

static bool drop_ops(mf_lc_minctx *m, case_text *c)
{
    bool changed = false;
    for (size_t i = c->nops; i-- > 0 && budget_left(m);) {
        if (try_case(m, c, i, c->artifact, c->artifact_len)) {
            free(c->ops[i].params);
            memmove(c->ops + i, c->ops + i + 1, (c->nops - i - 1) * sizeof *c->ops);
            c->nops--;
            changed = true;
        }
    }
    return changed;
}

/* ---- JSON artifacts: copy the tree without node `skip` (pre-order index)
 * and with string node `cut` truncated to cut_len bytes ---- */
static json_t *copy_tree(json_t *v, long *idx, long skip, long cut, size_t cut_len, bool *is_str)
{
    long me = (*idx)++;
    if (me == cut && is_str)
        *is_str = json_is_string(v);
    if (json_is_object(v)) {
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) {
            long at = *idx;
            json_t *cx = copy_tree(x, idx, skip, cut, cut_len, is_str);
            if (at != skip)
                json_object_set_new(o, k, cx);
            else
                json_decref(cx);
        }
        return o;
    }
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x) {
            long at = *idx;
            json_t *cx = copy_tree(x, idx, skip, cut, cut_len, is_str);
            if (at != skip)
                json_array_append_new(a, cx);
            else
                json_decref(cx);
        }
        return a;
    }
    if (json_is_string(v) && me == cut) {
        const char *s = json_string_value(v);
        size_t n = cut_len < json_string_length(v) ? cut_len : json_string_length(v);
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)   /* stay on a UTF-8 boundary */
            n--;
        return json_stringn(s, n);
    }
    return json_deep_copy(v);
}

/* The node at pre-order index want (the order copy_tree counts in). */
static json_t *node_at(json_t *v, long *idx, long want)
{
    if ((*idx)++ == want)
        return v;
    json_t *x, *hit;
    if (json_is_object(v)) {
        const char *k;
        json_object_foreach(v, k, x) if ((hit = node_at(x, idx, want)) != NULL) return hit;
    } else if (json_is_array(v)) {
        size_t i;
        json_array_foreach(v, i, x) if ((hit = node_at(x, idx, want)) != NULL) return hit;
    }
    return NULL;
}

static bool shrink_json(mf_lc_minctx *m, case_text *c, json_t **root)
{
    bool changed = false;
    /* Members and elements. */
    for (long skip = 1; budget_left(m); skip++) {
        long idx = 0;
        json_t *cand = copy_tree(*root, &idx, skip, -1, 0, NULL);
        if (skip >= idx) {
            json_decref(cand);
            break;
        }
        size_t len;
        char *s = mf_lc_json_line(cand, CASE_JSON, &len);
        if (s && try_case(m, c, (size_t)-1, s, len)) {
            json_decref(*root);
            *root = cand;
            set_art(c, s, len);
            changed = true;
            skip--;
        } else {
            json_decref(cand);
        }
        free(s);
    }
    /* Strings, by halving. */
    for (long cut = 0; budget_left(m); cut++) {
        long idx = 0;
        bool is_str = false;
        json_t *probe = copy_tree(*root, &idx, -1, cut, (size_t)-1, &is_str);
        json_decref(probe);
        if (cut >= idx)
            break;
        if (!is_str)
            continue;
        for (;;) {
            long at = 0;
            json_t *node = node_at(*root, &at, cut);
            size_t curlen = node ? json_string_length(node) : 0;
            if (curlen <= 1 || !budget_left(m))
                break;
            idx = 0;
            json_t *cand = copy_tree(*root, &idx, -1, cut, curlen / 2, NULL);
            size_t len;
            char *s = mf_lc_json_line(cand, CASE_JSON, &len);
            bool ok = s && try_case(m, c, (size_t)-1, s, len);
            if (ok) {
                json_decref(*root);
                *root = cand;
                set_art(c, s, len);
                changed = true;
            } else {
                json_decref(cand);
            }
            free(s);
            if (!ok)
                break;
        }
    }
    return changed;
}

/* ---- YAML artifacts: line blocks and scalar values ---- */
typedef struct { const char *s; size_t len, indent; bool blank, dash; } yline;

static size_t split_lines(const char *s, size_t len, yline **out)
{
    size_t n = 0, cap = 64;
    yline *v = malloc(cap * sizeof *v);
    const char *p = s, *end = s + len;
    while (v && p < end) {
        if (n == cap) {
            yline *nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv) {
                free(v);
                v = NULL;
                break;
            }
            v = nv;
        }
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = (size_t)((nl ? nl + 1 : end) - p), ind = 0;
        while (ind < l && p[ind] == ' ')
            ind++;
        bool blank = ind >= l || p[ind] == '\n' || p[ind] == '\r' || p[ind] == '#';
        v[n++] = (yline){p, l, ind, blank, !blank && p[ind] == '-' && (ind + 1 >= l || p[ind + 1] == ' ' || p[ind + 1] == '\n')};
        p += l;
    }
    *out = v;
    return v ? n : 0;
}

/* End (exclusive) of the block that starts at line i. */
static size_t block_end(const yline *L, size_t n, size_t i)
{
    const char *s = L[i].s;
    size_t l = L[i].len;
    while (l && (s[l - 1] == '\n' || s[l - 1] == '\r' || s[l - 1] == ' '))
        l--;
    bool opens = l && s[l - 1] == ':';
    size_t j = i + 1;
    for (; j < n; j++) {
        if (L[j].blank)
            continue;
        if (L[j].indent > L[i].indent)
            continue;
        if (opens && !L[i].dash && L[j].indent == L[i].indent && L[j].dash)
            continue;
        break;
    }
    while (j > i + 1 && L[j - 1].blank)
        j--;
    return j;
}

static text join_except(const yline *L, size_t n, size_t from, size_t to)
{
    text t = {0};
    FILE *f = open_memstream(&t.s, &t.len);
    if (!f)
        return t;
    for (size_t i = 0; i < n; i++)
        if (i < from || i >= to)
            fwrite(L[i].s, 1, L[i].len, f);
    fclose(f);
    return t;
}

static bool shrink_yaml_blocks(mf_lc_minctx *m, case_text *c)
{
    bool changed = false;
    for (size_t i = 0; budget_left(m);) {
        yline *L;
        size_t n = split_lines(c->artifact, c->artifact_len, &L);
        if (i >= n) {
            free(L);
            break;
        }
        bool ok = false;
        if (!L[i].blank && n > 1) {
            size_t e = block_end(L, n, i);
            text t = join_except(L, n, i, e);
            if (t.s && try_case(m, c, (size_t)-1, t.s, t.len)) {
                set_art(c, t.s, t.len);
                ok = changed = true;
            }
            free(t.s);
        }
        free(L);
        if (!ok)
            i++;
    }
    return changed;
}

/* Where the scalar value of a line starts and ends (quotes excluded). */
static bool scalar_span(const char *s, size_t len, size_t *a, size_t *b)
{
    size_t e = len;
    while (e && (s[e - 1] == '\n' || s[e - 1] == '\r' || s[e - 1] == ' '))
        e--;
    size_t i = 0;
    while (i < e && s[i] == ' ')
        i++;
    while (i + 1 < e && s[i] == '-' && s[i + 1] == ' ')
        i += 2;
    const char *colon = NULL;
    for (size_t k = i; k + 1 < e; k++)
        if (s[k] == ':' && s[k + 1] == ' ') {
            colon = s + k;
            break;
        }
    size_t v = colon ? (size_t)(colon - s) + 2 : i;
    while (v < e && s[v] == ' ')
        v++;
    if (v >= e || s[v] == '|' || s[v] == '>' || s[v] == '[' || s[v] == '{' || s[v] == '&' || s[v] == '*')
        return false;
    if ((s[v] == '"' || s[v] == '\'') && e - v >= 2 && s[e - 1] == s[v]) {
        v++;
        e--;
    }
    if (e - v < 2)
        return false;
    *a = v;
    *b = e;
    return true;
}

static bool shrink_yaml_scalars(mf_lc_minctx *m, case_text *c)
{
    bool changed = false;
    for (size_t i = 0; budget_left(m); i++) {
        yline *L;
        size_t n = split_lines(c->artifact, c->artifact_len, &L);
        if (i >= n) {
            free(L);
            break;
        }
        size_t a, b;
        bool ok = !L[i].blank && scalar_span(L[i].s, L[i].len, &a, &b);
        if (ok) {
            size_t keep = (b - a) / 2;
            while (keep && ((unsigned char)L[i].s[a + keep] & 0xC0) == 0x80)
                keep--;
            size_t off = (size_t)(L[i].s - c->artifact);
            text t = {0};
            FILE *f = open_memstream(&t.s, &t.len);
            if (f) {
                fwrite(c->artifact, 1, off + a + keep, f);
                fwrite(c->artifact + off + b, 1, c->artifact_len - off - b, f);
                fclose(f);
            }
            if (t.s && try_case(m, c, (size_t)-1, t.s, t.len)) {
                set_art(c, t.s, t.len);
                changed = true;
                i--;   /* try halving the same line again */
            }
            free(t.s);
        }
        free(L);
    }
    return changed;
}

uint8_t *mf_lc_minimize_case(mf_lc_minctx *m, const uint8_t *in, size_t len, size_t *out_len)
{
    char err[200];
    case_text *c = mf_case_is_structured((const char *)in, len) ? mf_case_decode((const char *)in, len, err, sizeof err)
                                                                  : NULL;
    if (!c)
        return NULL;
    m->runs = 0;
    bool shrunk = false;
    json_error_t je;
    json_t *root = json_loadb(c->artifact, c->artifact_len, JSON_DECODE_ANY, &je);
    if (root && !json_is_object(root) && !json_is_array(root)) {
        json_decref(root);
        root = NULL;
    }
    if (root) {
        size_t dl;
        char *s = mf_lc_json_line(root, CASE_JSON, &dl);
        if (s && dl == c->artifact_len && !memcmp(s, c->artifact, dl)) {
            /* already in dump form */
        } else if (s && try_case(m, c, (size_t)-1, s, dl)) {
            set_art(c, s, dl);
            shrunk = true;
        } else {
            json_decref(root);
            root = NULL;   /* re-dumping loses the failure: treat the artifact as lines */
        }
        free(s);
    }
    for (int pass = 0; pass < 8 && budget_left(m); pass++) {
        bool changed = drop_ops(m, c);
        if (root)
            changed |= shrink_json(m, c, &root);
        else {
            changed |= shrink_yaml_blocks(m, c);
            changed |= shrink_yaml_scalars(m, c);
        }
        if (!changed)
            break;
        shrunk = true;
    }
    json_decref(root);
    text t = {0};
    if (shrunk) {   /* an accepted candidate: its canonical text is known to fail */
        t = case_join(c, (size_t)-1, c->artifact, c->artifact_len);
    } else if ((t.s = malloc(len + 1)) != NULL) {   /* nothing shrank: the input as it was */
        memcpy(t.s, in, len);
        t.s[len] = '\0';
        t.len = len;
    }
    mf_case_free(c);
    *out_len = t.len;
    return (uint8_t *)t.s;
}

/* ---- raw bytes: ddmin over lines, then over bytes ---- */
static uint8_t *ddmin(mf_lc_minctx *m, uint8_t *cur, size_t *len, bool by_line)
{
    size_t units;
    size_t *starts = NULL;
    for (size_t chunk = 0;;) {
        /* unit boundaries */
        free(starts);
        starts = malloc((*len + 2) * sizeof *starts);
        if (!starts)
            return cur;
        units = 0;
        for (size_t i = 0; i < *len; i++)
            if (!by_line || i == 0 || cur[i - 1] == '\n')
                starts[units++] = i;
        starts[units] = *len;
        if (units <= 1 && by_line)
            break;
        if (chunk == 0)
            chunk = units / 2 ? units / 2 : 1;
        bool any = false;
        for (size_t u = 0; u + 0 < units && budget_left(m);) {
            size_t ue = u + chunk < units ? u + chunk : units;
            size_t a = starts[u], b = starts[ue];
            size_t nl = *len - (b - a);
            uint8_t *cand = malloc(nl + 1);
            if (!cand)
                break;
            memcpy(cand, cur, a);
            memcpy(cand + a, cur + b, *len - b);
            if (nl && holds(m, (const char *)cand, nl)) {
                free(cur);
                cur = cand;
                *len = nl;
                any = true;
                break;   /* recompute units; keep the chunk size */
            }
            free(cand);
            u = ue;
        }
        if (!budget_left(m))
            break;
        if (!any) {
            if (chunk == 1)
                break;
            chunk /= 2;
        }
    }
    free(starts);
    return cur;
}

uint8_t *mf_lc_minimize_bytes(mf_lc_minctx *m, const uint8_t *data, size_t len, size_t *out_len)
{
    m->runs = 0;
    uint8_t *cur = malloc(len + 1);
    if (!cur)
        return NULL;
    memcpy(cur, data, len);
    size_t n = len;
    cur = ddmin(m, cur, &n, true);
    if (n <= 4096)   /* byte granularity only where it stays affordable */
        cur = ddmin(m, cur, &n, false);
    *out_len = n;
    return cur;
}
