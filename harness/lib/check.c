/* check.c - one check of one input, the unit of work of every fuzz target,
 * of `malform check` and of the op fixture tests.
 *
 * structured: decode -> render -> ground truth from the clean artifact ->
 * mf_repair(raw) -> every oracle under the case's contract. raw: mf_repair
 * -> the oracles that need no ground truth. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "alloc_pool.h"
#include "harness.h"
#include "internal.h"
#include "metamorph.h"

char *mf_fired_rules(const mf_result *r)
{
    size_t cap = 64, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; r && i < r->warnings.count; i++) {
        const char *id = r->warnings.items[i].rule ? r->warnings.items[i].rule : "?";
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = r->warnings.items[j].rule && strcmp(r->warnings.items[j].rule, id) == 0;
        if (seen)
            continue;
        size_t n = strlen(id);
        if (len + n + 2 > cap) {
            while (len + n + 2 > cap)
                cap *= 2;
            char *t = realloc(s, cap);
            if (!t)
                break;
            s = t;
        }
        if (len)
            s[len++] = ',';
        memcpy(s + len, id, n + 1);
        len += n;
    }
    if (!len) {
        free(s);
        return strdup("-");
    }
    return s;
}

/* Ground truth is a pure function of (profile, options, clean text), and the
 * structured mutator mostly edits ops, not the artifact: the fuzz targets
 * keep the last few clean checks (MF_CLEAN_CACHE entries, FNV-1a keyed),
 * with the idempotence verdict on the truth itself once an exec whose value
 * is the truth has computed it (repairing the canonical output of the same
 * value under the same options gives the same verdict). */
#define MF_CLEAN_CACHE 64
typedef struct {
    uint64_t key;
    const mf_profile *p;
    int status;
    json_t *truth;
    json_t *readings;
    mf_verdict v;
    bool idem_known;
    mf_verdict idem;
} clean_entry;
static clean_entry clean_cache[MF_CLEAN_CACHE];
static bool cache_on;

void mf_check_cache(bool on)
{
    cache_on = on;
}

static uint64_t fnv(uint64_t h, const void *data, size_t n)
{
    const unsigned char *s = data;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ull;
    return h;
}

/* The values other than truth that core may read the clean YAML text as
 * when damage elsewhere in the case sends the text to the repair pass (pass
 * B): the text after YAML repair groups 1..g applied to it (cumulatively, as
 * pass B does, forced although the text parses), each loaded strictly. Clean
 * text can hold text a repair rule rightly rewrites (the string item `- id:nd`
 * among `- id: Q` mappings: yaml.colon-space reads a mapping); no pipeline can
 * tell it from the malformation, so a case's exact contract accepts these
 * readings too. New array, NULL when there are none (the common case: no rule
 * changes clean text). */
static json_t *repair_readings(const mf_profile *p, const char *clean, size_t len, const json_t *truth)
{
    if (!p || p->format != MF_FORMAT_YAML || !truth)
        return NULL;
    mf_buf text = {0};
    mf_warnings w = {0};
    json_t *alts = NULL;
    if (mf_buf_put(&text, clean, len) < 0)
        return NULL;
    for (int g = 1; g <= MF_YAML_GROUPS; g++) {
        if (mf_yaml_repair_group(g, &text, p, &w) == 0)
            continue;
        json_t *t = NULL;
        mf_verdict tv;
        if (mf_oracle_truth(p, mf_buf_cstr(&text), text.len, &t, &tv) == 0 && !json_equal(t, truth)) {
            if (!alts)
                alts = json_array();
            json_array_append(alts, t);
        }
        json_decref(t);
    }
    mf_warnings_clear(&w);
    mf_buf_free(&text);
    return alts;
}

/* The clean check of k (status as mf_oracle_clean, k->readings set); *slot is
 * its cache entry (NULL when not cached). */
static int clean_check(mf_check *k, clean_entry **slot)
{
    *slot = NULL;
    if (!cache_on) {
        int st = mf_oracle_clean(k->profile, &k->opt, k->render.clean, k->render.clean_len, &k->truth, &k->clean);
        k->readings = repair_readings(k->profile, k->render.clean, k->render.clean_len, k->truth);
        return st;
    }
    uint64_t key = fnv(fnv(1469598103934665603ull, k->profile->name, strlen(k->profile->name)), k->render.clean,
                       k->render.clean_len);
    if (k->kase && k->kase->opts) {   /* the options are part of the key */
        char *o = json_dumps(k->kase->opts, JSON_SORT_KEYS | JSON_COMPACT);
        if (!o) {
            int st = mf_oracle_clean(k->profile, &k->opt, k->render.clean, k->render.clean_len, &k->truth, &k->clean);
            k->readings = repair_readings(k->profile, k->render.clean, k->render.clean_len, k->truth);
            return st;
        }
        key = fnv(key ^ 0x9e3779b97f4a7c15ull, o, strlen(o));
        free(o);
    }
    clean_entry *e = &clean_cache[key % MF_CLEAN_CACHE];
    *slot = e;
    if (e->p == k->profile && e->key == key) {
        k->truth = json_incref(e->truth);
        k->readings = json_incref(e->readings);
        k->clean = e->v;
        return e->status;
    }
    bool kept = mf_alloc_pool_keep(true);  /* the truth outlives this exec */
    int st = mf_oracle_clean(k->profile, &k->opt, k->render.clean, k->render.clean_len, &k->truth, &k->clean);
    k->readings = repair_readings(k->profile, k->render.clean, k->render.clean_len, k->truth);
    mf_alloc_pool_keep(kept);
    json_decref(e->truth);
    json_decref(e->readings);
    *e = (clean_entry){key, k->profile, st, json_incref(k->truth), json_incref(k->readings), k->clean, false, {0}};
    return st;
}

/* Independent of core's verdict: every applied text op is exact and names
 * a rule that repairs it (value ops change the artifact itself), and the
 * render kept the exact contract. Then a rejection is a failure too. */
static bool promised(const mf_check *k)
{
    if (!k->structured || k->render.contract != MF_CONTRACT_EXACT)
        return false;
    for (size_t i = 0; i < k->kase->nops; i++) {
        const mf_op *op = k->kase->ops[i].op;
        if (k->render.applied[i] && op->kind == MF_OP_TEXT && (op->contract != MF_CONTRACT_EXACT || !*op->rules))
            return false;
    }
    return true;
}

/* Raw input that is itself a strict artifact has a ground truth after all
 * (mf_oracle_truth): core must not reject its own misreading of it
 * (mf_oracle_rejected_reading), nor read it without a warning as another
 * value. A finding of no-data-loss. */
static void raw_truth_check(mf_check *k)
{
    const mf_result *r = k->result;
    json_t *t = NULL;
    mf_verdict tv;
    if (!k->profile || mf_oracle_truth(k->profile, k->raw, k->raw_len, &t, &tv) != 0)
        return;
    char d[sizeof k->v[0].detail] = "";
    if (r->status != MF_ACCEPTED) {
        /* a syntax rejection is no finding here: byte-mutated text that parses
         * strictly can still read as a slip core rightly refuses to guess (-id: x) */
        if (mf_oracle_rejected_reading(k->profile, t, &r->error))
            snprintf(d, sizeof d, "input misread: a strict artifact whose strict load satisfies the schema rejected "
                     "(tier %d %s: %.200s)", r->error.tier, r->error.type ? r->error.type : "?",
                     r->error.message ? r->error.message : "");
    } else if (!r->warnings.count && !r->repair_applied && !json_equal(r->value, t)) {
        char *diff = mf_value_diff(r->value, t, 1);
        size_t l = diff ? strlen(diff) : 0;
        while (l && diff[l - 1] == '\n')
            diff[--l] = '\0';
        snprintf(d, sizeof d, "input misread: a strict artifact read without a warning as another value:%.300s",
                 diff ? diff : "");
        free(diff);
    }
    json_decref(t);
    mf_verdict *v = &k->v[MF_ORACLE_NO_DATA_LOSS];
    if (*d && !v->failed) {
        v->ran = true;
        v->failed = true;
        snprintf(v->detail, sizeof v->detail, "%s", d);
    }
}

/* Does an applied op name a rule that rewrites strictly valid text (its
 * damage may parse and still be promised a repair)? */
static bool ops_read_valid_text(const mf_check *k)
{
    for (size_t i = 0; i < k->kase->nops; i++) {
        const mf_op *op = k->kase->ops[i].op;
        if (!k->render.applied[i] || op->kind != MF_OP_TEXT)
            continue;
        for (const char *r = op->rules; *r;) {
            size_t n = strcspn(r, " ");
            char id[64];
            snprintf(id, sizeof id, "%.*s", (int)n, r);
            if (mf_rule_reads_valid_text(id))
                return true;
            r += n;
            r += strspn(r, " ");
        }
    }
    return false;
}

/* The exact contract of a structured case assumes its damage leaves no
 * valid text. When the rendered text loads strictly all the same, as
 * another value than the truth (an op's edit inside a scalar: `]` dropped
 * from plain text), and core accepted exactly that value, or rejected it as
 * the profile's schema does, core kept a valid text as written: what the
 * y_ principle asks, unless an applied op names a rule that rewrites valid
 * text. Then no loss is the pipeline's; the case counts as a valid render
 * (harness.h). */
bool mf_check_valid_render(const mf_check *k)
{
    const mf_result *r = k->result;
    if (!k->structured || !k->truth || ops_read_valid_text(k))
        return false;
    json_t *t = NULL;
    mf_verdict tv;
    bool is = mf_oracle_truth(k->profile, k->raw, k->raw_len, &t, &tv) == 0 && !json_equal(t, k->truth) &&
              !mf_check_is_reading(k, t) &&
              (r->status == MF_ACCEPTED ? json_equal(r->value, t)
                                        : r->error.tier == 2 && k->profile->schema &&
                                              mf_oracle_schema_validate(k->profile->schema, t, NULL, 0) != 0);
    json_decref(t);
    return is;
}

bool mf_check_is_reading(const mf_check *k, const json_t *v)
{
    for (size_t i = 0; v && k->readings && i < json_array_size(k->readings); i++)
        if (json_equal(v, json_array_get(k->readings, i)))
            return true;
    return false;
}

int mf_check_run(mf_check *k, const char *data, size_t len, const mf_profile *profile, bool strict,
                 bool determinism)
{
    return mf_check_run_opts(k, data, len, profile, NULL, strict, determinism);
}

int mf_check_run_opts(mf_check *k, const char *data, size_t len, const mf_profile *profile, const json_t *opts,
                      bool strict, bool determinism)
{
    memset(k, 0, sizeof *k);
    k->structured = mf_case_is_structured(data, len);
    if (k->structured) {
        k->kase = mf_case_decode(data, len, k->error, sizeof k->error);
        if (!k->kase)
            return -1;
        if (mf_case_render(k->kase, &k->render) < 0) {
            snprintf(k->error, sizeof k->error, "%s", k->render.error);
            return -1;
        }
        k->profile = k->render.profile;
        mf_case_options(k->kase, &k->opt);
        k->raw = k->render.raw;
        k->raw_len = k->render.raw_len;
        k->ops = mf_render_op_ids(k->kase, &k->render);
    } else {
        k->profile = profile;
        if (opts) {
            mf_case tmp = {0};
            tmp.opts = (json_t *)opts;
            mf_case_options(&tmp, &k->opt);
        }
        k->raw = data;
        k->raw_len = len;
        k->ops = strdup("-");
    }
    k->opt.max_input = MF_FUZZ_MAX_INPUT * 4;
    k->opt.max_depth = MF_FUZZ_MAX_DEPTH;
    mf_expect expect = MF_EXPECT_RAW;
    clean_entry *slot = NULL;
    if (k->structured) {
        k->clean_status = clean_check(k, &slot);
        if (k->clean_status == 0 || k->clean_status == 3)
            expect = promised(k) ? MF_EXPECT_REPAIR : (mf_expect)k->render.contract;
        else if (k->render.contract == MF_CONTRACT_REJECT)
            expect = MF_EXPECT_REJECT;
    }
    k->result = mf_repair(k->profile, k->raw, k->raw_len, &k->opt);
    if (!k->result) {
        snprintf(k->error, sizeof k->error, "mf_repair returned NULL (out of memory)");
        return -1;
    }
    if (!k->profile)
        k->profile = mf_profiles_get(k->result->profile);
    k->rules = mf_fired_rules(k->result);
    mf_oracle_input in = {k->profile, &k->opt, k->raw, k->raw_len, k->result, k->truth, expect, NULL};
    mf_metamorph meta = {0};
    if (!k->structured && k->profile && k->result->status == MF_ACCEPTED && mf_fuzz_metamorphic_due()) {
        int mr = mf_metamorph_build(&meta, k->profile, &k->opt, k->result->value, NULL, NULL);
        if (mr < 0) {
            snprintf(k->error, sizeof k->error, "metamorphic variant: out of memory");
            return -1;
        }
        if (mr == 1) {
            in.variant = &meta.v;
            k->meta_ops = meta.ops;
            k->meta_rules = meta.rules;
            meta.ops = meta.rules = NULL;
            meta.v.ops = k->meta_ops;
        }
    }
    unsigned skip = determinism ? 0 : 1u << MF_ORACLE_DETERMINISM;
    bool value_is_truth = slot && k->truth && k->result->status == MF_ACCEPTED && json_equal(k->result->value, k->truth);
    if (value_is_truth && slot->idem_known)
        skip |= 1u << MF_ORACLE_IDEMPOTENCE;
    mf_oracles_run_except(&in, k->v, skip);
    if (value_is_truth && slot->idem_known)
        k->v[MF_ORACLE_IDEMPOTENCE] = slot->idem;
    else if (value_is_truth) {
        slot->idem = k->v[MF_ORACLE_IDEMPOTENCE];
        slot->idem_known = true;
    }
    mf_metamorph_free(&meta);
    /* the exact contract broken only by a reading of the clean text itself
     * that core's repair pass gives (repair_readings): no loss the case can show */
    mf_verdict *nd = &k->v[MF_ORACLE_NO_DATA_LOSS];
    if (nd->failed && (expect == MF_EXPECT_EXACT || expect == MF_EXPECT_REPAIR) && k->result->status == MF_ACCEPTED &&
        mf_check_is_reading(k, k->result->value)) {
        nd->failed = false;
        nd->detail[0] = '\0';
    }
    if (nd->failed && (expect == MF_EXPECT_EXACT || expect == MF_EXPECT_REPAIR) && mf_check_valid_render(k)) {
        nd->failed = false;
        nd->detail[0] = '\0';
        k->valid_render = true;
    }
    if (!k->structured)
        raw_truth_check(k);
    /* a bug that fires on the clean artifact itself: core misread it */
    if (k->clean_status == 3 && !k->v[MF_ORACLE_NO_DATA_LOSS].failed) {
        k->v[MF_ORACLE_NO_DATA_LOSS].ran = true;
        k->v[MF_ORACLE_NO_DATA_LOSS].failed = true;
        snprintf(k->v[MF_ORACLE_NO_DATA_LOSS].detail, sizeof k->v[MF_ORACLE_NO_DATA_LOSS].detail, "%s", k->clean.detail);
    }
    if (strict && k->structured && k->clean_status == 1 && !k->v[MF_ORACLE_ACCOUNTING].failed) {
        k->v[MF_ORACLE_ACCOUNTING].ran = true;
        k->v[MF_ORACLE_ACCOUNTING].failed = true;
        snprintf(k->v[MF_ORACLE_ACCOUNTING].detail, sizeof k->v[MF_ORACLE_ACCOUNTING].detail, "false repair: %.400s",
                 k->clean.detail);
    }
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        k->failed += k->v[i].failed;
    return 0;
}

void mf_check_free(mf_check *k)
{
    if (k->structured)
        mf_render_free(&k->render);
    mf_case_free(k->kase);
    json_decref(k->truth);
    json_decref(k->readings);
    mf_result_free(k->result);
    free(k->ops);
    free(k->rules);
    free(k->meta_ops);
    free(k->meta_rules);
    memset(k, 0, sizeof *k);
}

void mf_check_line(const mf_check *k, int oracle, char *out, size_t n)
{
    char detail[sizeof k->v[0].detail];
    snprintf(detail, sizeof detail, "%s", k->v[oracle].detail);
    for (char *p = detail; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    /* a metamorphic failure is the variant's: its op and the rules that fired on it */
    bool meta = oracle == MF_ORACLE_METAMORPHIC && k->meta_ops;
    const char *ops = meta ? k->meta_ops : k->ops, *rules = meta ? k->meta_rules : k->rules;
    snprintf(out, n, "malform-oracle: %s profile=%s ops=%s rules=%s: %s", mf_oracle_name((mf_oracle_id)oracle),
             k->profile ? k->profile->name : "?", ops ? ops : "-", rules ? rules : "-", detail);
}

bool mf_fuzz_spliced_case(const void *data, size_t size)
{
    return size > 1 && memmem((const char *)data + 1, size - 1, "\nmalform-case ", 14) != NULL;
}
