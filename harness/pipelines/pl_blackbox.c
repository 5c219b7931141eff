/* pl_blackbox.c - the black-box engine (pl_blackbox.h).
 *
 * Loop: pick a corpus case, mutate it with the structured mutator (ops,
 * parameters, value ops, sometimes a crossover), drop the ops the pipeline
 * owes nothing for, check it on the worker. Each check yields behaviour
 * features - hashes of (ops, status, error type), (ops, warning rules),
 * (ops, value shape), (ops, failed oracles) and per op (op, status, failed
 * oracles), (op, shape) - set in a 64K bitmap, and, when the worker sends
 * coverage ids, bits in a coverage map. A case that sets a new bit joins the
 * corpus. A failure with a signature not seen in this run and not open in
 * the pipeline's regression dir is minimized and written to WORKDIR/findings. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "finding.h"
#include "pl_blackbox.h"

#define FEAT_BITS (1u << 16)
#define COV_BITS (1u << 22)
#define MAX_ARTIFACT 16384
#define MAX_CORPUS 20000

typedef struct {
    char *text;
    size_t len;
} entry;

typedef struct {
    mf_pl_worker *w;
    const char *name;
    const mf_pl_bb_opts *o;
    mf_pl_bb_stats *st;
    entry *corpus;
    size_t n, cap;
    uint8_t feat[FEAT_BITS / 8];
    uint8_t *cov;
    json_t *seen, *known, *failures, *timeline, *ops_applied, *rules_fired, *verdicts;
    uint64_t rng;
    char findings_dir[4096], corpus_dir[4096];
    double t0, end, next_tick, next_print;
} bb;

static double clock_s(void)
{
    return mf_lc_clock();
}

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static uint64_t fnvs(uint64_t h, const char *s)
{
    return fnv(h, s ? s : "", s ? strlen(s) : 0) * 31 + 7;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static unsigned bucket(size_t n)
{
    unsigned b = 0;
    while (n) {
        b++;
        n >>= 1;
    }
    return b > 6 ? 6 : b;
}

/* The shape of a value: types, key names, length buckets - not scalar contents. */
static uint64_t shape(const json_t *v, int depth)
{
    if (!v)
        return 1;
    if (depth > 4)
        return 2;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        uint64_t h = 0x0b;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) h ^= mix(fnvs(0, k), shape(x, depth + 1));
        return mix(h, json_object_size(v));
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        uint64_t h = mix(0x0a, bucket(n));
        if (n)
            h = mix(mix(h, shape(json_array_get(v, 0), depth + 1)), shape(json_array_get(v, n - 1), depth + 1));
        return h;
    }
    case JSON_STRING:
        return mix(0x05, bucket(json_string_length(v)));
    case JSON_INTEGER:
        return 0x11;
    case JSON_REAL:
        return 0x12;
    case JSON_TRUE:
    case JSON_FALSE:
        return 0x13;
    default:
        return 0x14;
    }
}

static bool set_bit(uint8_t *map, uint32_t bits, uint64_t h)
{
    uint32_t i = (uint32_t)(h ^ (h >> 32)) & (bits - 1);
    bool fresh = !(map[i >> 3] & (1u << (i & 7)));
    map[i >> 3] |= (uint8_t)(1u << (i & 7));
    return fresh;
}

static char *sorted_ids(const char *ids)
{
    char *copy = strdup(ids ? ids : "-");
    if (!copy)
        return NULL;
    char *parts[64];
    size_t n = 0;
    for (char *t = strtok(copy, ","); t && n < 64; t = strtok(NULL, ","))
        parts[n++] = t;
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(parts[j - 1], parts[j]) > 0; j--) {
            char *t = parts[j];
            parts[j] = parts[j - 1];
            parts[j - 1] = t;
        }
    char *out = malloc(strlen(ids ? ids : "-") + 2);
    size_t len = 0;
    for (size_t i = 0; out && i < n; i++)
        len += (size_t)sprintf(out + len, "%s%s", i ? "," : "", parts[i]);
    if (out && !n)
        strcpy(out, "-");
    free(copy);
    return out;
}

/* Behaviour features of a check; true when one of them is new. */
static bool new_behaviour(bb *b, const mf_pl_check *c)
{
    const mf_result *r = c->k.result;
    const char *status = c->reply.fail != MF_PL_OK ? mf_pl_fail_name(c->reply.fail)
                         : r->status == MF_ACCEPTED ? "accepted" : "rejected";
    const char *etype = c->reply.fail != MF_PL_OK ? c->reply.what : r->status == MF_REJECTED ? r->error.type : "";
    unsigned failmask = 0;
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        failmask |= (unsigned)c->k.v[i].failed << i;
    uint64_t sh = r ? shape(r->value, 0) : 0;
    char *ops = sorted_ids(c->k.ops), *rules = sorted_ids(c->k.rules);
    uint64_t ho = fnvs(1469598103934665603ull, ops);
    bool fresh = false;
    fresh |= set_bit(b->feat, FEAT_BITS, mix(mix(fnvs(ho, status), fnvs(0, etype)), 'A'));
    fresh |= set_bit(b->feat, FEAT_BITS, mix(fnvs(ho, rules), 'B'));
    fresh |= set_bit(b->feat, FEAT_BITS, mix(mix(ho, sh), 'C'));
    fresh |= set_bit(b->feat, FEAT_BITS, mix(mix(ho, failmask), 'D'));
    for (char *t = ops ? strtok(ops, ",") : NULL; t; t = strtok(NULL, ",")) {
        uint64_t h = fnvs(1469598103934665603ull, t);
        fresh |= set_bit(b->feat, FEAT_BITS, mix(mix(fnvs(h, status), failmask), 'E'));
        fresh |= set_bit(b->feat, FEAT_BITS, mix(mix(h, sh), 'F'));
    }
    free(ops);
    free(rules);
    return fresh;
}

static bool new_coverage(bb *b, const mf_pl_reply *r)
{
    bool fresh = false;
    for (size_t i = 0; i < r->ncoverage; i++)
        if (set_bit(b->cov, COV_BITS, mix(r->coverage[i], 'V'))) {
            fresh = true;
            b->st->edges++;
        }
    return fresh;
}

static void count_ids(json_t *counts, const char *ids)
{
    if (!ids || !strcmp(ids, "-"))
        return;
    char *copy = strdup(ids);
    for (char *t = copy ? strtok(copy, ",") : NULL; t; t = strtok(NULL, ",")) {
        json_t *n = json_object_get(counts, t);
        json_object_set_new(counts, t, json_integer(n ? json_integer_value(n) + 1 : 1));
    }
    free(copy);
}

static void record(bb *b, const mf_pl_check *c)
{
    count_ids(b->ops_applied, c->k.ops);
    if (c->reply.fail != MF_PL_OK)
        return;
    count_ids(b->rules_fired, c->k.rules);
    for (int i = 0; i < MF_ORACLE_COUNT; i++) {
        const char *name = mf_oracle_name((mf_oracle_id)i);
        json_t *acc = json_object_get(b->verdicts, name);
        if (!acc)
            json_object_set_new(b->verdicts, name, acc = json_pack("{s:i,s:i,s:i}", "pass", 0, "fail", 0, "n/a", 0));
        const char *k = !c->k.v[i].ran ? "n/a" : c->k.v[i].failed ? "fail" : "pass";
        json_object_set_new(acc, k, json_integer(json_integer_value(json_object_get(acc, k)) + 1));
    }
}

static void keep(bb *b, const char *text, size_t len)
{
    if (b->n >= MAX_CORPUS)
        return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        entry *t = realloc(b->corpus, cap * sizeof *t);
        if (!t)
            return;
        b->corpus = t;
        b->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return;
    memcpy(copy, text, len);
    copy[len] = '\0';
    b->corpus[b->n++] = (entry){copy, len};
    b->st->kept++;
    char path[4300];
    uint64_t h = fnv(1469598103934665603ull, text, len);
    snprintf(path, sizeof path, "%s/%016llx.case", b->corpus_dir, (unsigned long long)h);
    mf_lc_write_atomic(path, text, len);
}

/* One line: the message plus the end of the worker's stderr. */
static void finding_detail(const mf_pl_check *c, const mf_lc_outcome *o, char *out, size_t n)
{
    if (c->reply.fail == MF_PL_OK) {
        snprintf(out, n, "%s", o->detail);
        return;
    }
    const char *tail = c->reply.stderr_tail ? c->reply.stderr_tail : "";
    size_t tl = strlen(tail);
    snprintf(out, n, "%.200s%s%s", c->reply.message, tl ? "; stderr: ..." : "", tl > 300 ? tail + tl - 300 : tail);
    for (char *p = out; *p; p++)
        if (*p == '\n' || *p == '\r' || *p == '\t')
            *p = ' ';
}

static void finding(bb *b, const char *text, size_t len, const mf_pl_check *c)
{
    mf_lc_outcome o;
    mf_pl_outcome(c, b->name, &o);
    if (o.kind == MF_LC_PASS || json_object_get(b->seen, o.sig))
        return;
    json_object_set_new(b->seen, o.sig, json_true());
    if (json_object_get(b->known, o.sig)) {
        b->st->known++;
        return;
    }
    char detail[512];
    finding_detail(c, &o, detail, sizeof detail);
    mf_pl_judge_ctx j = {b->w, b->name, c->k.profile};
    mf_lc_runner r = {0};
    r.judge = mf_pl_judge;
    r.ctx = &j;
    mf_lc_minctx m = {0};
    m.runner = &r;
    m.orig = &o;
    m.max_runs = b->o->min_runs > 0 ? b->o->min_runs : 200;
    m.deadline = clock_s() + 30;
    size_t mlen = len;
    uint8_t *min = mf_lc_minimize_case(&m, (const uint8_t *)text, len, &mlen);
    bool shrank = min && mlen < len && m.last.kind == o.kind && m.last.sig[0];
    const char *sig = shrank ? m.last.sig : o.sig;
    if (shrank && strcmp(sig, o.sig)) {
        if (json_object_get(b->seen, sig) || json_object_get(b->known, sig)) {
            free(min);
            return;
        }
        json_object_set_new(b->seen, sig, json_true());
        if (o.kind == MF_LC_ORACLE)
            snprintf(detail, sizeof detail, "%s", m.last.detail);
    } else if (shrank && o.kind == MF_LC_ORACLE) {
        snprintf(detail, sizeof detail, "%s", m.last.detail);
    }
    /* A generic repairer ignores the profile: the same oracle on the same text
     * ops (value ops only vary the data; they count when there is no text op)
     * under another profile, or with other values, is the same root cause -
     * one finding per run. */
    const mf_lc_outcome *fin = shrank ? &m.last : &o;
    if (fin->kind == MF_LC_ORACLE && !mf_pl_knows_profile(b->w, c->k.profile)) {
        char cause[600], text_ops[256] = "";
        size_t tl = 0;
        char ops[256];
        snprintf(ops, sizeof ops, "%s", fin->ops);
        for (char *save = NULL, *t = strtok_r(ops, ",", &save); t; t = strtok_r(NULL, ",", &save))
            if (strncmp(t, "val.", 4))
                tl += (size_t)snprintf(text_ops + tl, sizeof text_ops - tl, "%s%s", tl ? "," : "", t);
        snprintf(cause, sizeof cause, "cause %s %s %s", fin->oracle, fin->rules, tl ? text_ops : fin->ops);
        if (json_object_get(b->seen, cause)) {
            b->st->same_cause++;
            free(min);
            return;
        }
        json_object_set_new(b->seen, cause, json_true());
    }
    char reproduce[512];
    snprintf(reproduce, sizeof reproduce, "malform check --pipeline %s <this file>", b->name);
    const char *kind = mf_pl_finding_kind(&o);
    mf_finding f = {.signature = sig, .kind = kind, .oracle = o.kind == MF_LC_ORACLE ? o.oracle : NULL,
                    .profile = c->k.profile ? c->k.profile->name : NULL, .pipeline = b->name, .target = "blackbox",
                    .engine = "blackbox", .detail = detail, .original_signature = strcmp(sig, o.sig) ? o.sig : NULL,
                    .reproduce = reproduce, .original_size = (long)len, .minimized_size = (long)(min ? mlen : len),
                    .stderr_tail = c->reply.stderr_tail, .payload = min ? (const void *)min : text,
                    .payload_len = min ? mlen : len};
    char path[4400];
    mf_finding_status st = mf_finding_write(b->findings_dir, &f, path, sizeof path);
    if (st == MF_FINDING_ERROR)
        fprintf(stderr, "malform fuzz: cannot write %s\n", path);
    if (st == MF_FINDING_NEW) {
        b->st->findings++;
        json_array_append_new(b->failures, json_pack("{s:s,s:s,s:s,s:s,s:b,s:s}", "signature", sig, "oracle",
                                                     o.kind == MF_LC_ORACLE ? o.oracle : "", "kind", kind, "file",
                                                     path, "reproducible", true, "pipeline", b->name));
        if (!b->o->quiet)
            printf("malform fuzz: finding %s\n  -> %s\n", sig, path);
    }
    free(min);
}

/* Check one case text; keep it when it shows something new. */
static void run_one(bb *b, const char *text, size_t len, bool always_keep)
{
    mf_pl_check c;
    if (mf_pl_check_run(&c, b->w, text, len, NULL, NULL, false) < 0) {
        b->st->unchecked++;
        mf_pl_check_free(&c);
        return;
    }
    b->st->execs++;
    record(b, &c);
    bool fresh = b->o->behaviour && new_behaviour(b, &c);
    if ((b->o->coverage || b->o->measure_coverage) && new_coverage(b, &c.reply) && b->o->coverage)
        fresh = true;
    if (fresh || always_keep)
        keep(b, text, len);
    if (mf_pl_check_failed(&c))
        finding(b, text, len, &c);
    mf_pl_check_free(&c);
}

static int load_seeds(bb *b)
{
    char root[4096];
    snprintf(root, sizeof root, "%s", b->o->seeds_dir ? b->o->seeds_dir : "");
    if (!b->o->seeds_dir)
        snprintf(root, sizeof root, "%s/corpus/seeds", mf_lc_root());
    for (size_t i = 0; i < mf_profiles_count(); i++) {
        const mf_profile *p = mf_profiles_at(i);
        if (!mf_pl_handles(b->w, p))
            continue;
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, p->name);
        DIR *d = opendir(dir);
        for (struct dirent *de; d && (de = readdir(d));) {
            if (de->d_name[0] == '.')
                continue;
            char path[4700];
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
            size_t len;
            char *text = mf_lc_read(path, &len);
            mf_case *kase = text && len <= MAX_ARTIFACT ? mf_case_new(p->name, text, len) : NULL;
            size_t clen;
            char *enc = kase ? mf_case_encode(kase, &clen) : NULL;
            if (enc)
                run_one(b, enc, clen, true);
            free(enc);
            mf_case_free(kase);
            free(text);
        }
        if (d)
            closedir(d);
    }
    return b->n ? 0 : -1;
}

static mf_case *pick(bb *b)
{
    const entry *e = &b->corpus[mf_rng_next(&b->rng) % b->n];
    char err[200];
    return mf_case_decode(e->text, e->len, err, sizeof err);
}

static void tick(bb *b, bool force)
{
    double now = clock_s();
    if (force || now >= b->next_tick) {
        b->next_tick = now + 1;
        json_array_append_new(b->timeline, json_pack("{s:f,s:I,s:I,s:I,s:I,s:I}", "t", now - b->t0, "execs",
                                                     (json_int_t)b->st->execs, "features",
                                                     (json_int_t)b->st->features, "edges", (json_int_t)b->st->edges,
                                                     "corpus", (json_int_t)b->n, "findings",
                                                     (json_int_t)b->st->findings));
    }
    if (!b->o->quiet && now >= b->next_print) {
        b->next_print = now + 5;
        printf("malform fuzz: %s %.0fs execs %ld (%.0f/s) corpus %zu features %ld edges %ld findings %ld known %ld\n",
               b->name, now - b->t0, b->st->execs, b->st->execs / (now - b->t0 + 1e-9), b->n, b->st->features,
               b->st->edges, b->st->findings, b->st->known);
        fflush(stdout);
    }
}

static long popcount_map(const uint8_t *m, size_t bytes)
{
    long n = 0;
    for (size_t i = 0; i < bytes; i++)
        n += __builtin_popcount(m[i]);
    return n;
}

static int write_stats(bb *b)
{
    json_t *doc = json_object();
    double secs = b->st->seconds;
    json_object_set_new(doc, "engine", json_string("blackbox"));
    json_object_set_new(doc, "target", json_string("blackbox"));
    json_object_set_new(doc, "pipeline", json_string(b->name));
    json_object_set_new(doc, "seconds", json_real(secs));
    json_object_set_new(doc, "execs", json_integer(b->st->execs));
    json_object_set_new(doc, "execs_per_sec", json_real(secs > 0 ? b->st->execs / secs : 0));
    json_object_set_new(doc, "unchecked", json_integer(b->st->unchecked));
    json_object_set_new(doc, "coverage", json_pack("{s:I,s:I,s:b,s:b}", "features", (json_int_t)b->st->features,
                                                   "edges", (json_int_t)b->st->edges, "behaviour_feedback",
                                                   b->o->behaviour, "coverage_feedback", b->o->coverage));
    json_object_set_new(doc, "corpus", json_integer((json_int_t)b->n));
    json_object_set_new(doc, "known_findings", json_integer(b->st->known));
    json_object_set_new(doc, "same_cause", json_integer(b->st->same_cause));
    json_object_set_new(doc, "worker_restarts", json_integer(b->st->restarts));
    json_object_set_new(doc, "failures", json_incref(b->failures));
    json_object_set_new(doc, "timeline", json_incref(b->timeline));
    json_object_set_new(doc, "ops_applied", json_incref(b->ops_applied));
    json_object_set_new(doc, "rules_fired", json_incref(b->rules_fired));
    json_object_set_new(doc, "verdicts", json_incref(b->verdicts));
    char path[4200];
    snprintf(path, sizeof path, "%s/stats.json", b->o->workdir);
    int rc = json_dump_file(doc, path, JSON_INDENT(2) | JSON_SORT_KEYS);
    json_decref(doc);
    return rc;
}

int mf_pl_blackbox(mf_pl_worker *w, const char *name, const mf_pl_bb_opts *o, mf_pl_bb_stats *st)
{
    memset(st, 0, sizeof *st);
    bb *b = calloc(1, sizeof *b);
    if (!b || !(b->cov = calloc(COV_BITS / 8, 1))) {
        free(b);
        fprintf(stderr, "malform fuzz: out of memory\n");
        return -1;
    }
    b->w = w;
    b->name = name;
    b->o = o;
    b->st = st;
    b->rng = o->seed ? o->seed : (uint64_t)time(NULL);
    snprintf(b->findings_dir, sizeof b->findings_dir, "%s/findings", o->workdir);
    snprintf(b->corpus_dir, sizeof b->corpus_dir, "%s/corpus", o->workdir);
    char regdir[4096];
    if (o->regression_dir)
        snprintf(regdir, sizeof regdir, "%s", o->regression_dir);
    else
        mf_pl_regression_dir(name, regdir, sizeof regdir);
    b->known = mf_pl_open_signatures(regdir);
    b->seen = json_object();
    b->failures = json_array();
    b->timeline = json_array();
    b->ops_applied = json_object();
    b->rules_fired = json_object();
    b->verdicts = json_object();
    int rc = 0;
    if (mf_lc_mkdirs(b->findings_dir) < 0 || mf_lc_mkdirs(b->corpus_dir) < 0) {
        fprintf(stderr, "malform fuzz: cannot create %s and %s\n", b->findings_dir, b->corpus_dir);
        rc = -1;
    }
    b->t0 = clock_s();
    b->end = b->t0 + o->seconds;
    if (!rc && load_seeds(b) < 0) {
        fprintf(stderr, "malform fuzz: no seed artifact under corpus/seeds/ for a profile %s handles\n", name);
        rc = -1;
    }
    while (!rc && clock_s() < b->end && !mf_lc_stop && !(o->max_execs && st->execs >= o->max_execs)) {
        mf_case *c = pick(b);
        if (c && b->n > 1 && mf_rng_next(&b->rng) % 10 == 0) {
            mf_case *other = pick(b);
            mf_case *x = other ? mf_case_crossover(c, other, &b->rng) : NULL;
            mf_case_free(other);
            if (x) {
                mf_case_free(c);
                c = x;
            }
        }
        for (int i = 0, rounds = 1 + (int)(c ? mf_rng_next(&b->rng) % 3 : 0); c && i < rounds; i++)
            mf_case_mutate(c, &b->rng, NULL, MAX_ARTIFACT);
        const mf_profile *p = c ? mf_profiles_get(c->profile) : NULL;
        if (c && p && mf_pl_handles(w, p)) {
            mf_pl_case_restrict(c, w);
            size_t len;
            char *text = mf_case_encode(c, &len);
            if (text)
                run_one(b, text, len, false);
            free(text);
        } else {
            st->unchecked++;
        }
        mf_case_free(c);
        st->features = popcount_map(b->feat, sizeof b->feat);
        tick(b, false);
    }
    st->seconds = clock_s() - b->t0;
    st->restarts = mf_pl_starts(w) > 0 ? mf_pl_starts(w) - 1 : 0;
    st->features = popcount_map(b->feat, sizeof b->feat);
    tick(b, true);
    if (!rc && write_stats(b) != 0) {
        fprintf(stderr, "malform fuzz: cannot write %s/stats.json\n", o->workdir);
        rc = -1;
    }
    for (size_t i = 0; i < b->n; i++)
        free(b->corpus[i].text);
    free(b->corpus);
    json_decref(b->known);
    json_decref(b->seen);
    json_decref(b->failures);
    json_decref(b->timeline);
    json_decref(b->ops_applied);
    json_decref(b->rules_fired);
    json_decref(b->verdicts);
    free(b->cov);
    free(b);
    return rc;
}
