/* pl_compare.c - the differential matrix (pl_compare.h).
 *
 * Each case is one seed artifact under one malformation op (so a cell
 * speaks of one op), rendered once and sent to every pipeline that handles
 * its profile and owes something for the op (mf_pl_op_fits). Ground truth is
 * core's parse of the clean artifact. Requests go out pipelined, a batch per
 * pipeline. Outcomes: restored (accepted, value == truth), changed
 * (accepted, anything else), rejected, crashed (any worker failure). The
 * smallest case of a cell's worst non-empty bucket is written under
 * DIR/cases/; an input on which pipelines end differently is a disagreement. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "finding.h"
#include "lifecycle.h"
#include "pl_check.h"
#include "pl_compare.h"

#define BATCH 32
#define MAX_ARTIFACT 16384

enum { RESTORED, CHANGED, REJECTED, CRASHED, NBUCKETS };
static const char *const bucket_names[NBUCKETS] = {"restored", "changed", "rejected", "crashed"};

typedef struct {
    char *profile, *text;
    size_t len;
} seed;

typedef struct {
    mf_case *kase;
    mf_render render;
    json_t *truth;
    char *case_text;
    size_t case_len;
    const mf_op *op;
    int outcome[16];           /* per pipeline: bucket or -1 (not sent) */
    char value_key[16][40];    /* per pipeline: status or value hash */
    json_t *value[16];         /* per pipeline: the accepted value (NULL: rejected or not accepted) */
} item;

/* Differential findings of one run: signatures seen, files written, known ones. */
typedef struct {
    char dir[4200];
    json_t *seen;
    long written, known;
} diff_state;

static size_t load_seeds(const char *root, seed **out)
{
    size_t n = 0, cap = 0;
    *out = NULL;
    for (size_t i = 0; i < mf_profiles_count(); i++) {
        const mf_profile *p = mf_profiles_at(i);
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, p->name);
        DIR *d = opendir(dir);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4800];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            size_t len;
            char *t = mf_lc_read(path, &len);
            if (!t || len > MAX_ARTIFACT) {
                free(t);
                continue;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                seed *g = realloc(*out, cap * sizeof *g);
                if (!g) {
                    free(t);
                    break;
                }
                *out = g;
            }
            (*out)[n++] = (seed){strdup(p->name), t, len};
        }
        if (d)
            closedir(d);
    }
    return n;
}

/* A case: a seed under one op that finds a site; NULL when this try did not render. */
static item *make_item(const seed *s, const mf_op *op, uint64_t *rng)
{
    item *it = calloc(1, sizeof *it);
    if (!it)
        return NULL;
    it->op = op;
    it->kase = mf_case_new(s->profile, s->text, s->len);
    if (!it->kase || mf_case_add_op(it->kase, op, mf_rng_next(rng), NULL) < 0 ||
        mf_case_render(it->kase, &it->render) < 0 || !it->render.applied[0]) {
        if (it->kase)
            mf_render_free(&it->render);
        mf_case_free(it->kase);
        free(it);
        return NULL;
    }
    mf_options opt;
    mf_case_options(it->kase, &opt);
    mf_verdict v;
    if (mf_oracle_clean(it->render.profile, &opt, it->render.clean, it->render.clean_len, &it->truth, &v) != 0) {
        mf_render_free(&it->render);
        mf_case_free(it->kase);
        free(it);
        return NULL;
    }
    it->case_text = mf_case_encode(it->kase, &it->case_len);
    for (int i = 0; i < 16; i++)
        it->outcome[i] = -1;
    return it;
}

static void item_free(item *it)
{
    if (!it)
        return;
    mf_render_free(&it->render);
    mf_case_free(it->kase);
    json_decref(it->truth);
    for (int p = 0; p < 16; p++)
        json_decref(it->value[p]);
    free(it->case_text);
    free(it);
}

static void classify(item *it, size_t p, const mf_pl_reply *r)
{
    if (r->fail != MF_PL_OK) {
        it->outcome[p] = CRASHED;
        snprintf(it->value_key[p], sizeof it->value_key[p], "%s", mf_pl_fail_name(r->fail));
        return;
    }
    if (r->result->status != MF_ACCEPTED) {
        it->outcome[p] = REJECTED;
        snprintf(it->value_key[p], sizeof it->value_key[p], "rejected");
        return;
    }
    it->outcome[p] = json_equal(r->result->value, it->truth) ? RESTORED : CHANGED;
    it->value[p] = json_incref(r->result->value);
    char *s = json_dumps(r->result->value, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char hex[65];
    mf_lc_sha256_hex(s ? s : "", s ? strlen(s) : 0, hex);
    snprintf(it->value_key[p], sizeof it->value_key[p], "value:%.12s", hex);
    free(s);
}

typedef struct {
    long count[NBUCKETS];
    size_t worst_len[NBUCKETS];
    char *worst_text[NBUCKETS];   /* case text of the smallest case per bucket */
    size_t worst_raw[NBUCKETS];
} cell;

/* One row of the matrix: an op id or a family, a cell per pipeline. */
typedef struct {
    char key[64];
    cell cells[16];
} row;

typedef struct {
    row *rows;
    size_t n, cap;
} matrix;

static cell *cell_at(matrix *m, const char *key, size_t p)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->rows[i].key, key))
            return &m->rows[i].cells[p];
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        row *t = realloc(m->rows, cap * sizeof *t);
        if (!t)
            return NULL;
        m->rows = t;
        m->cap = cap;
    }
    row *r = &m->rows[m->n++];
    memset(r, 0, sizeof *r);
    snprintf(r->key, sizeof r->key, "%s", key);
    return &r->cells[p];
}

static void count(matrix *m, const item *it, size_t p)
{
    char family[64];
    snprintf(family, sizeof family, "%s", it->op->id);
    family[strcspn(family, ".")] = '\0';
    const char *keys[2] = {it->op->id, family};
    for (int k = 0; k < 2; k++) {
        cell *c = cell_at(m, keys[k], p);
        int b = it->outcome[p];
        if (!c)
            continue;
        c->count[b]++;
        if (!c->worst_text[b] || it->render.raw_len < c->worst_raw[b]) {
            free(c->worst_text[b]);
            c->worst_text[b] = strndup(it->case_text, it->case_len);
            c->worst_len[b] = it->case_len;
            c->worst_raw[b] = it->render.raw_len;
        }
    }
}

static void safe_name(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++)
        out[k++] = (*in >= 'a' && *in <= 'z') || (*in >= '0' && *in <= '9') || *in == '.' || *in == '-' ? *in : '-';
    out[k] = '\0';
}

/* The cells as the compare.json "families" object; worst cases written under dir. */
static json_t *families_json(matrix *m, const char *const *names, size_t n, const char *dir)
{
    json_t *fam = json_object();
    for (size_t r = 0; r < m->n; r++) {
        const char *key = m->rows[r].key;
        json_t *o = json_object();
        for (size_t p = 0; p < n; p++) {
            cell *c = &m->rows[r].cells[p];
            long total = c->count[0] + c->count[1] + c->count[2] + c->count[3];
            if (total) {
                int worst = c->count[CRASHED] ? CRASHED : c->count[CHANGED] ? CHANGED : c->count[REJECTED] ? REJECTED : -1;
                char rel[512] = "";
                if (worst >= 0) {
                    char k[128], pn[128], path[5000];
                    safe_name(key, k, sizeof k);
                    safe_name(names[p], pn, sizeof pn);
                    snprintf(rel, sizeof rel, "cases/%s/%s-%s.case", pn, k, bucket_names[worst]);
                    snprintf(path, sizeof path, "%s/cases/%s", dir, pn);
                    mf_lc_mkdirs(path);
                    snprintf(path, sizeof path, "%s/%s", dir, rel);
                    mf_lc_write_atomic(path, c->worst_text[worst], c->worst_len[worst]);
                }
                json_object_set_new(o, names[p],
                                    json_pack("{s:I,s:I,s:I,s:I,s:I,s:s}", "restored", (json_int_t)c->count[RESTORED],
                                              "changed", (json_int_t)c->count[CHANGED], "rejected",
                                              (json_int_t)c->count[REJECTED], "crashed", (json_int_t)c->count[CRASHED],
                                              "total", (json_int_t)total, "worst_case", rel));
            }
            for (int b = 0; b < NBUCKETS; b++)
                free(c->worst_text[b]);
        }
        json_object_set_new(fam, key, o);
    }
    free(m->rows);
    return fam;
}

static void disagreement(json_t *list, const item *it, size_t n, const char *const *names, const char *dir, int max)
{
    const char *first = NULL;
    bool differ = false;
    size_t sent = 0;
    for (size_t p = 0; p < n; p++) {
        if (it->outcome[p] < 0)
            continue;
        sent++;
        if (!first)
            first = it->value_key[p];
        else if (strcmp(first, it->value_key[p]))
            differ = true;
    }
    if (!differ || sent < 2 || (int)json_array_size(list) >= max)
        return;
    char rel[128], path[4400];
    snprintf(rel, sizeof rel, "cases/disagree/%04zu.case", json_array_size(list));
    snprintf(path, sizeof path, "%s/cases/disagree", dir);
    mf_lc_mkdirs(path);
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    mf_lc_write_atomic(path, it->case_text, it->case_len);
    json_t *values = json_object();
    for (size_t p = 0; p < n; p++)
        if (it->outcome[p] >= 0)
            json_object_set_new(values, names[p], json_string(it->value_key[p]));
    json_array_append_new(list, json_pack("{s:s,s:s,s:o}", "input", rel, "op", it->op->id, "values", values));
}

/* The differential oracle over the pipelines that answered (a crashed one
 * has its own finding): each one dissenting from a strict majority is a
 * finding `differential profile=<p> ops=<op> dissent=<pipeline>`, written
 * once per signature (finding.h) into DIR/findings/. */
static void differential(diff_state *d, const item *it, size_t n, const char *const *names)
{
    const json_t *values[16];
    size_t who[16], k = 0;
    for (size_t p = 0; p < n; p++)
        if (it->outcome[p] >= 0 && it->outcome[p] != CRASHED) {
            values[k] = it->value[p];
            who[k++] = p;
        }
    bool dissent[16];
    int major = k >= 2 ? mf_oracle_differential(values, k, dissent) : -1;
    if (major < 0)
        return;
    char majority[512] = "";
    for (size_t i = 0, l = 0; i < k && l < sizeof majority; i++)
        if (!dissent[i])
            l += (size_t)snprintf(majority + l, sizeof majority - l, "%s%s", l ? "," : "", names[who[i]]);
    const char *profile = it->render.profile->name;
    for (size_t i = 0; i < k; i++) {
        if (!dissent[i])
            continue;
        const char *pl = names[who[i]];
        char sig[600], detail[900];
        snprintf(sig, sizeof sig, "differential profile=%s ops=%s dissent=%s", profile, it->op->id, pl);
        if (json_object_get(d->seen, sig))
            continue;
        json_object_set_new(d->seen, sig, json_true());
        if (mf_finding_known(sig, pl)) {
            d->known++;
            continue;
        }
        snprintf(detail, sizeof detail, "%s gave %s; the majority (%s) gave %s", pl, it->value_key[who[i]], majority,
                 it->value_key[who[(size_t)major]]);
        mf_finding f = {.signature = sig, .kind = "oracle", .oracle = "differential", .profile = profile,
                        .pipeline = pl, .target = "structured", .engine = "compare", .detail = detail,
                        .payload = it->case_text, .payload_len = it->case_len};
        if (mf_finding_write(d->dir, &f, NULL, 0) != MF_FINDING_ERROR)
            d->written++;
        else
            fprintf(stderr, "malform compare: cannot write a finding into %s\n", d->dir);
    }
}

/* The ops named by list (ids or families, comma-separated; NULL: all). */
static size_t pick_ops(const char *list, const mf_op **out)
{
    size_t k = 0;
    for (size_t i = 0; i < mf_ops_count(); i++) {
        const mf_op *op = mf_ops_at(i);
        bool take = !list;
        size_t fl = strcspn(op->id, ".");
        for (const char *t = list; t && *t && !take; t += strcspn(t, ","), t += *t == ',') {
            size_t l = strcspn(t, ",");
            take = (l == strlen(op->id) && !strncmp(t, op->id, l)) || (l == fl && !strncmp(t, op->id, l));
        }
        if (take)
            out[k++] = op;
    }
    return k;
}

json_t *mf_pl_compare(mf_pl_worker **w, const char *const *names, size_t n, const mf_pl_compare_opts *o)
{
    if (n > 16) {
        fprintf(stderr, "malform compare: at most 16 pipelines\n");
        return NULL;
    }
    char root[4096];
    if (o->seeds_dir)
        snprintf(root, sizeof root, "%s", o->seeds_dir);
    else
        snprintf(root, sizeof root, "%s/corpus/seeds", mf_lc_root());
    seed *seeds;
    size_t nseeds = load_seeds(root, &seeds);
    if (!nseeds) {
        fprintf(stderr, "malform compare: no seed artifacts under %s\n", root);
        return NULL;
    }
    const mf_op **ops = malloc((mf_ops_count() + 1) * sizeof *ops);
    size_t nops = ops ? pick_ops(o->ops, ops) : 0;
    if (!nops) {
        fprintf(stderr, "malform compare: no malformation op matches '%s'\n", o->ops ? o->ops : "");
        free(ops);
        return NULL;
    }
    if (mf_lc_mkdirs(o->out_dir) < 0) {
        fprintf(stderr, "malform compare: cannot create %s\n", o->out_dir);
        free(ops);
        return NULL;
    }
    uint64_t rng = o->seed ? o->seed : 1;
    matrix m = {0};
    json_t *dis = json_array();
    diff_state diff = {.seen = json_object()};
    snprintf(diff.dir, sizeof diff.dir, "%s/findings", o->out_dir);
    long cases = 0;
    double end = mf_lc_clock() + o->seconds;
    item *batch[BATCH];
    mf_pl_input in[BATCH];
    mf_pl_reply rep[BATCH];
    size_t idx[BATCH];
    while (mf_lc_clock() < end && !mf_lc_stop && !(o->max_cases && cases >= o->max_cases)) {
        size_t nb = 0;
        for (int tries = 0; nb < BATCH && tries < BATCH * 8; tries++) {
            const seed *s = &seeds[mf_rng_next(&rng) % nseeds];
            const mf_op *op = ops[mf_rng_next(&rng) % nops];
            const mf_profile *prof = mf_profiles_get(s->profile);
            bool someone = false;
            for (size_t p = 0; p < n && !someone; p++)
                someone = mf_pl_handles(w[p], prof) && mf_pl_op_fits(w[p], prof, op);
            if (someone && (batch[nb] = make_item(s, op, &rng)))
                nb++;
        }
        for (size_t p = 0; p < n; p++) {
            size_t k = 0;
            for (size_t i = 0; i < nb; i++) {
                const mf_profile *prof = batch[i]->render.profile;
                if (!mf_pl_handles(w[p], prof) || !mf_pl_op_fits(w[p], prof, batch[i]->op))
                    continue;
                const json_t *opts = batch[i]->kase->opts;
                in[k] = (mf_pl_input){prof, batch[i]->render.raw, batch[i]->render.raw_len, opts};
                idx[k++] = i;
            }
            mf_pl_request_many(w[p], in, k, rep);
            for (size_t j = 0; j < k; j++) {
                classify(batch[idx[j]], p, &rep[j]);
                mf_pl_reply_free(&rep[j]);
            }
        }
        for (size_t i = 0; i < nb; i++) {
            for (size_t p = 0; p < n; p++)
                if (batch[i]->outcome[p] >= 0)
                    count(&m, batch[i], p);
            disagreement(dis, batch[i], n, names, o->out_dir, o->max_disagreements > 0 ? o->max_disagreements : 200);
            differential(&diff, batch[i], n, names);
            item_free(batch[i]);
        }
        cases += (long)nb;
    }
    json_t *plist = json_array();
    for (size_t p = 0; p < n; p++)
        json_array_append_new(plist, json_string(names[p]));
    json_t *doc = json_pack("{s:i,s:o,s:o,s:o,s:I,s:I,s:I}", "malform_compare", 1, "pipelines", plist, "families",
                            families_json(&m, names, n, o->out_dir), "disagreements", dis, "cases", (json_int_t)cases,
                            "differential_findings", (json_int_t)diff.written, "differential_known",
                            (json_int_t)diff.known);
    json_decref(diff.seen);
    free(ops);
    for (size_t i = 0; i < nseeds; i++) {
        free(seeds[i].profile);
        free(seeds[i].text);
    }
    free(seeds);
    char path[4200];
    snprintf(path, sizeof path, "%s/compare.json", o->out_dir);
    if (json_dump_file(doc, path, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
        fprintf(stderr, "malform compare: cannot write %s\n", path);
        json_decref(doc);
        return NULL;
    }
    return doc;
}

static void print_row(FILE *f, const char *key, const json_t *row, const json_t *pipes)
{
    fprintf(f, "%-30s", key);
    for (size_t p = 0; p < json_array_size(pipes); p++) {
        const json_t *c = json_object_get(row, json_string_value(json_array_get(pipes, p)));
        double t = (double)json_integer_value(json_object_get(c, "total"));
        if (!c || t <= 0) {
            fprintf(f, " | %-21s", "-");
            continue;
        }
        fprintf(f, " | %3.0f %3.0f %3.0f %3.0f %5lld", 100 * json_integer_value(json_object_get(c, "restored")) / t,
                100 * json_integer_value(json_object_get(c, "changed")) / t,
                100 * json_integer_value(json_object_get(c, "rejected")) / t,
                100 * json_integer_value(json_object_get(c, "crashed")) / t, (long long)t);
    }
    fputc('\n', f);
}

void mf_pl_compare_print(const json_t *doc, FILE *f)
{
    const json_t *pipes = json_object_get(doc, "pipelines"), *fam = json_object_get(doc, "families");
    fprintf(f, "%lld cases; per cell: %% restored exactly, %% accepted with lost or changed data, %% rejected, %% "
               "crashed, cases\n%-30s",
            (long long)json_integer_value(json_object_get(doc, "cases")), "op / family");
    for (size_t p = 0; p < json_array_size(pipes); p++)
        fprintf(f, " | %-21s", json_string_value(json_array_get(pipes, p)));
    fputc('\n', f);
    const char *key;
    json_t *row;
    for (int pass = 0; pass < 2; pass++)    /* families first, then the ops */
        json_object_foreach((json_t *)fam, key, row) if ((strchr(key, '.') != NULL) == (pass == 1))
            print_row(f, key, row, pipes);
    const json_t *dis = json_object_get(doc, "disagreements");
    fprintf(f, "%zu inputs on which the pipelines disagree%s\n", json_array_size(dis),
            json_array_size(dis) ? " (first ones):" : "");
    for (size_t i = 0; i < json_array_size(dis) && i < 10; i++) {
        const json_t *d = json_array_get(dis, i);
        fprintf(f, "  %s (%s):", json_string_value(json_object_get(d, "input")), json_string_value(json_object_get(d, "op")));
        const char *pk;
        json_t *pv;
        json_object_foreach(json_object_get(d, "values"), pk, pv) fprintf(f, " %s=%s", pk, json_string_value(pv));
        fputc('\n', f);
    }
    long df = (long)json_integer_value(json_object_get(doc, "differential_findings"));
    fprintf(f, "%ld differential findings (a pipeline against a strict majority)%s\n", df, df ? " in findings/" : "");
}
