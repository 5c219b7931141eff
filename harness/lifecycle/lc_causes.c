/* lc_causes.c - group a triage's new signatures by their likely cause.
 *
 * One mistake (a rule's gap, an op claiming `exact` at a site no rule
 * repairs) fans out into many signatures: each names the rules that fired
 * and the ops of its minimized case, and those vary around the one op or
 * rule that matters. Two new signatures of the same kind and oracle are
 * linked when the ops of one are a subset of the other's (the larger case
 * holds the smaller one's trigger); signatures without ops (raw inputs) are
 * linked the same way by their rules. The groups are the connected
 * components; each is named by its smallest set, the trigger the minimizer
 * could not cut further. A judge reads one case per group first. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "lifecycle.h"

#define FEAT_MAX 48

typedef struct {
    char head[96];            /* "<kind> <oracle>": only equal heads link */
    char feats[FEAT_MAX][64]; /* sorted op ids ("op:" prefix) or rule ids ("rule:") */
    size_t n;
    json_t *item;
} sig_feats;

static int cmp_str(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* The comma list after `name=` in sig (up to the next blank), into f with prefix. */
static void parse_list(const char *sig, const char *name, const char *prefix, sig_feats *f)
{
    char key[16];
    snprintf(key, sizeof key, " %s=", name);
    const char *p = strstr(sig, key);
    if (!p)
        return;
    p += strlen(key);
    while (*p && *p != ' ' && f->n < FEAT_MAX) {
        size_t len = strcspn(p, ", ");
        if (len && !(len == 1 && *p == '-'))
            snprintf(f->feats[f->n++], sizeof f->feats[0], "%s%.*s", prefix, (int)len, p);
        p += len;
        if (*p == ',')
            p++;
    }
}

static void parse_sig(const char *sig, json_t *item, sig_feats *f)
{
    memset(f, 0, sizeof *f);
    f->item = item;
    size_t a = strcspn(sig, " "), b = a + (sig[a] == ' ') + strcspn(sig + a + (sig[a] == ' '), " ");
    snprintf(f->head, sizeof f->head, "%.*s", (int)b, sig);
    parse_list(sig, "ops", "op:", f);
    if (!f->n)
        parse_list(sig, "rules", "rule:", f);
    qsort(f->feats, f->n, sizeof f->feats[0], cmp_str);
}

/* Is every feature of a one of b's (both sorted)? */
static bool subset(const sig_feats *a, const sig_feats *b)
{
    size_t j = 0;
    for (size_t i = 0; i < a->n; i++) {
        while (j < b->n && strcmp(b->feats[j], a->feats[i]) < 0)
            j++;
        if (j == b->n || strcmp(b->feats[j], a->feats[i]))
            return false;
        j++;
    }
    return true;
}

static size_t root(size_t *up, size_t i)
{
    while (up[i] != i)
        i = up[i] = up[up[i]];
    return i;
}

/* The cause's name: head, then the features without their prefix. */
static char *cause_name(const sig_feats *f)
{
    size_t cap = sizeof f->head + 2 + f->n * sizeof f->feats[0];
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t n = (size_t)snprintf(s, cap, "%s:", f->head);
    for (size_t i = 0; i < f->n && n < cap; i++) {
        const char *x = strchr(f->feats[i], ':') + 1;
        n += (size_t)snprintf(s + n, cap - n, "%s%s", i ? "+" : " ", x);
    }
    if (!f->n && n < cap)
        snprintf(s + n, cap - n, " (no ops or rules)");
    return s;
}

void *mf_lc_triage_causes(void *items_)
{
    json_t *items = items_;
    json_t *out = json_array();
    size_t total = json_array_size(items), n = 0;
    sig_feats *v = calloc(total ? total : 1, sizeof *v);
    size_t *up = calloc(total ? total : 1, sizeof *up);
    if (!out || !v || !up) {
        free(v);
        free(up);
        return out;
    }
    for (size_t i = 0; i < total; i++) {
        json_t *it = json_array_get(items, i);
        const char *st = json_string_value(json_object_get(it, "status"));
        const char *sig = json_string_value(json_object_get(it, "signature"));
        if (!st || !sig || (strcmp(st, "new") && strcmp(st, "regressed")))
            continue;
        parse_sig(sig, it, &v[n]);
        up[n] = n;
        n++;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (v[i].n && v[j].n && !strcmp(v[i].head, v[j].head) && (subset(&v[i], &v[j]) || subset(&v[j], &v[i])))
                up[root(up, i)] = root(up, j);
    for (size_t i = 0; i < n; i++) {
        if (root(up, i) != i)
            continue;
        size_t best = i, members = 0;
        for (size_t j = 0; j < n; j++)
            if (root(up, j) == i) {
                members++;
                if (v[j].n < v[best].n || (v[j].n == v[best].n && j < best))
                    best = j;
            }
        char *name = cause_name(&v[best]);
        json_t *entries = json_array();
        for (size_t j = 0; j < n; j++)
            if (root(up, j) == i) {
                json_object_set_new(v[j].item, "cause", json_string(name ? name : ""));
                json_t *e = json_object_get(v[j].item, "entry");
                json_array_append(entries, e ? e : json_object_get(v[j].item, "signature"));
            }
        json_array_append_new(out, json_pack("{s:s, s:i, s:o}", "cause", name ? name : "", "signatures",
                                             (int)members, "entries", entries));
        free(name);
    }
    free(v);
    free(up);
    return out;
}
