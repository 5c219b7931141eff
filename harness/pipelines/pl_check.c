/* pl_check.c - the oracles on a worker's value.
 *
 * no-data-loss and schema run unchanged on the reply as an mf_result. The
 * oracles that re-run the pipeline (idempotence: the canonical output again;
 * determinism: the same input again) send those inputs to the same worker.
 * accounting needs declared warnings: with zero warnings it is core's oracle
 * (the value must be the plain parse of the input); with warnings, each must
 * name a rule and carry a message (the worker's rule ids are its own). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lifecycle.h"
#include "pl_check.h"

static void not_applicable(mf_pl_check *c, int oracle, const char *fmt, const char *arg)
{
    c->k.v[oracle].ran = false;
    c->k.v[oracle].failed = false;
    c->k.v[oracle].detail[0] = '\0';
    snprintf(c->na[oracle], sizeof c->na[oracle], fmt, arg);
}

static char *fired_rules(const mf_result *r)
{
    size_t cap = 1, len = 0;
    for (size_t i = 0; i < r->warnings.count; i++)
        cap += strlen(r->warnings.items[i].rule ? r->warnings.items[i].rule : "?") + 1;
    char *s = malloc(cap + 2);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (size_t i = 0; i < r->warnings.count; i++) {
        const char *id = r->warnings.items[i].rule ? r->warnings.items[i].rule : "?";
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = r->warnings.items[j].rule && !strcmp(r->warnings.items[j].rule, id);
        if (seen)
            continue;
        len += (size_t)sprintf(s + len, "%s%s", len ? "," : "", id);
    }
    if (!len)
        strcpy(s, "-");
    return s;
}

/* The canonical text of v in the profile's format, or JSON when the pipeline reads no YAML. */
static void emit_canon(const mf_pl_worker *w, const mf_profile *p, const json_t *v, char **out)
{
    bool yaml = p && p->format == MF_FORMAT_YAML && (mf_pl_hello_of(w)->formats & MF_PL_YAML);
    *out = yaml ? mf_value_to_yaml(v) : mf_value_to_json(v);
}

static void idempotence(mf_pl_check *c, mf_pl_worker *w, const mf_oracle_input *in)
{
    mf_verdict *v = &c->k.v[MF_ORACLE_IDEMPOTENCE];
    const mf_result *r = in->result;
    memset(v, 0, sizeof *v);
    if (r->status != MF_ACCEPTED)
        return;
    v->ran = true;
    char *canon;
    emit_canon(w, c->k.profile, r->value, &canon);
    if (!canon) {
        snprintf(v->detail, sizeof v->detail, "canonical output could not be emitted");
        v->failed = true;
        return;
    }
    mf_pl_reply again;
    mf_pl_request(w, c->k.profile, canon, strlen(canon), c->k.kase ? c->k.kase->opts : NULL, &again);
    const mf_result *a = again.result;
    if (again.fail != MF_PL_OK)
        snprintf(v->detail, sizeof v->detail, "the canonical output makes the worker fail: %s %s: %.200s",
                 mf_pl_fail_name(again.fail), again.what, again.message);
    else if (a->status != MF_ACCEPTED)
        snprintf(v->detail, sizeof v->detail, "canonical output is rejected on repair: %s %s",
                 a->error.type ? a->error.type : "?", a->error.message ? a->error.message : "");
    else if (!json_equal(a->value, r->value)) {
        char *d = mf_value_diff(a->value, r->value, 1);
        size_t l = d ? strlen(d) : 0;
        while (l && d[l - 1] == '\n')
            d[--l] = '\0';
        snprintf(v->detail, sizeof v->detail, "repairing the canonical output changes the value: %s",
                 d && l > 2 ? d + 2 : "values differ");
        free(d);
    } else if (mf_pl_hello_of(w)->warnings && a->warnings.count)
        snprintf(v->detail, sizeof v->detail, "repairing the canonical output warns: %s: %s", a->warnings.items[0].rule,
                 a->warnings.items[0].message);
    v->failed = v->detail[0] != '\0';
    mf_pl_reply_free(&again);
    free(canon);
}

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static void determinism(mf_pl_check *c, mf_pl_worker *w)
{
    mf_verdict *v = &c->k.v[MF_ORACLE_DETERMINISM];
    const mf_result *a = c->k.result;
    memset(v, 0, sizeof *v);
    v->ran = true;
    mf_pl_reply again;
    mf_pl_request(w, c->k.profile, c->k.raw, c->k.raw_len, c->k.kase ? c->k.kase->opts : NULL, &again);
    const mf_result *b = again.result;
    if (again.fail != MF_PL_OK)
        snprintf(v->detail, sizeof v->detail, "the second run fails: %s %s", mf_pl_fail_name(again.fail), again.what);
    else if (a->status != b->status)
        snprintf(v->detail, sizeof v->detail, "status differs between two runs");
    else if (!json_equal(a->value, b->value) && (a->value || b->value))
        snprintf(v->detail, sizeof v->detail, "value differs between two runs");
    else if (a->warnings.count != b->warnings.count)
        snprintf(v->detail, sizeof v->detail, "%zu warnings then %zu", a->warnings.count, b->warnings.count);
    else if (!same_str(a->error.type, b->error.type) || !same_str(a->error.message, b->error.message))
        snprintf(v->detail, sizeof v->detail, "rejection differs between two runs");
    v->failed = v->detail[0] != '\0';
    mf_pl_reply_free(&again);
}

static void accounting(mf_pl_check *c, mf_pl_worker *w, const mf_oracle_input *in)
{
    mf_verdict *v = &c->k.v[MF_ORACLE_ACCOUNTING];
    if (!mf_pl_hello_of(w)->warnings) {
        not_applicable(c, MF_ORACLE_ACCOUNTING, "%s does not report warnings", mf_pl_hello_of(w)->name);
        return;
    }
    const mf_result *r = in->result;
    if (!r->warnings.count) {
        mf_oracle_accounting(in, v);
        return;
    }
    memset(v, 0, sizeof *v);
    v->ran = true;
    for (size_t i = 0; i < r->warnings.count && !v->detail[0]; i++) {
        const mf_warning *x = &r->warnings.items[i];
        if (!x->rule || !*x->rule || !x->message || !*x->message || x->line < 0)
            snprintf(v->detail, sizeof v->detail, "warning %zu has no rule, no message or a negative line", i);
    }
    v->failed = v->detail[0] != '\0';
}

static int prepare(mf_pl_check *c, const char *data, size_t len, const mf_profile *profile, const json_t *opts)
{
    mf_check *k = &c->k;
    k->structured = mf_case_is_structured(data, len);
    if (k->structured) {
        if (!(k->kase = mf_case_decode(data, len, k->error, sizeof k->error)))
            return -1;
        if (mf_case_render(k->kase, &k->render) < 0) {
            snprintf(k->error, sizeof k->error, "%s", k->render.error);
            return -1;
        }
        k->profile = k->render.profile;
        mf_case_options(k->kase, &k->opt);
        data = k->render.raw;
        len = k->render.raw_len;
        k->ops = mf_render_op_ids(k->kase, &k->render);
    } else {
        k->profile = profile;
        if (opts) {
            mf_case tmp = {0};
            tmp.opts = (json_t *)opts;
            mf_case_options(&tmp, &k->opt);
        }
        k->ops = strdup("-");
    }
    k->opt.max_input = MF_FUZZ_MAX_INPUT * 4;
    k->opt.max_depth = MF_FUZZ_MAX_DEPTH;
    if (!(c->sent = mf_pl_utf8_clean(data, len, &k->raw_len))) {
        snprintf(k->error, sizeof k->error, "out of memory");
        return -1;
    }
    k->raw = c->sent;
    return 0;
}

int mf_pl_check_run(mf_pl_check *c, mf_pl_worker *w, const char *data, size_t len, const mf_profile *profile,
                    const json_t *opts, bool determinism_on)
{
    memset(c, 0, sizeof *c);
    if (mf_pl_is_core(w))
        return mf_check_run_opts(&c->k, data, len, profile, opts, true, determinism_on);
    if (prepare(c, data, len, profile, opts) < 0)
        return -1;
    mf_check *k = &c->k;
    if (!k->profile) {
        size_t i = 0;
        while (i < k->raw_len && strchr(" \t\r\n", k->raw[i]))
            i++;
        bool json = (i < k->raw_len && (k->raw[i] == '{' || k->raw[i] == '[')) ||
                    !(mf_pl_hello_of(w)->formats & MF_PL_YAML);
        k->profile = mf_profiles_get(json ? "generic_json" : "generic_yaml");
    }
    mf_expect expect = MF_EXPECT_RAW;
    if (k->structured) {
        k->clean_status = mf_oracle_clean(k->profile, &k->opt, k->render.clean, k->render.clean_len, &k->truth,
                                          &k->clean);
        if (k->clean_status == 0 || k->clean_status == 3)
            expect = (mf_expect)k->render.contract;
        else if (k->render.contract == MF_CONTRACT_REJECT)
            expect = MF_EXPECT_REJECT;
    }
    const json_t *req_opts = k->kase ? k->kase->opts : opts;
    if (mf_pl_request(w, k->profile, k->raw, k->raw_len, req_opts, &c->reply) != MF_PL_OK) {
        k->rules = strdup("-");
        return c->reply.fail == MF_PL_ERROR ? (snprintf(k->error, sizeof k->error, "%.200s", c->reply.message), -1) : 0;
    }
    k->result = c->reply.result;
    c->reply.result = NULL;
    k->rules = fired_rules(k->result);
    mf_oracle_input in = {k->profile, &k->opt, k->raw, k->raw_len, k->result, k->truth, expect, NULL};
    mf_oracle_no_data_loss(&in, &k->v[MF_ORACLE_NO_DATA_LOSS]);
    if (mf_pl_knows_profile(w, k->profile))
        mf_oracle_schema(&in, &k->v[MF_ORACLE_SCHEMA]);
    else
        not_applicable(c, MF_ORACLE_SCHEMA, "%s does not declare the profile (generic repairer)",
                       mf_pl_hello_of(w)->name);
    accounting(c, w, &in);
    idempotence(c, w, &in);
    if (determinism_on)
        determinism(c, w);
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        k->failed += k->v[i].failed;
    return 0;
}

void mf_pl_check_free(mf_pl_check *c)
{
    c->k.raw = NULL;
    mf_check_free(&c->k);
    mf_pl_reply_free(&c->reply);
    free(c->sent);
    memset(c, 0, sizeof *c);
}

bool mf_pl_check_failed(const mf_pl_check *c)
{
    return c->reply.fail != MF_PL_OK || c->k.failed > 0;
}

int mf_pl_check_first_failed(const mf_pl_check *c)
{
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        if (c->k.v[i].failed)
            return i;
    return -1;
}

void mf_pl_check_signature(const mf_pl_check *c, const char *pipeline, char *out, size_t n)
{
    if (c->reply.fail != MF_PL_OK) {
        mf_pl_signature(&c->reply, pipeline, out, n);
        return;
    }
    int i = mf_pl_check_first_failed(c);
    if (i < 0) {
        snprintf(out, n, "pass");
        return;
    }
    char line[1200];
    mf_check_line(&c->k, i, line, sizeof line);
    mf_lc_outcome o;
    mf_lc_classify(line, strlen(line), 0, false, &o);
    snprintf(out, n, "%s", o.sig);
}

/* ---- which ops a pipeline owes something for ---- */

/* True when every rule that repairs the op (any one is enough) needs the
 * profile: normalizers, schema, echo detection, the profile's tag. */
static bool needs_profile(const char *rules)
{
    static const char *const prefixes[] = {"norm.", "schema.", "echo.", "cand.tag"};
    bool any = false;
    for (const char *r = rules; r && *r;) {
        while (*r == ' ')
            r++;
        if (!*r)
            break;
        bool needs = false;
        for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes && !needs; i++)
            needs = !strncmp(r, prefixes[i], strlen(prefixes[i]));
        if (!needs)
            return false;
        any = true;
        r += strcspn(r, " ");
    }
    return any;
}

bool mf_pl_op_fits(const mf_pl_worker *w, const mf_profile *p, const mf_op *op)
{
    if (p && !(op->formats & (p->format == MF_FORMAT_JSON ? MF_OP_JSON : MF_OP_YAML)))
        return false;
    if (mf_pl_knows_profile(w, p))
        return true;
    return op->contract != MF_CONTRACT_REJECT && !needs_profile(op->rules);
}

void mf_pl_case_restrict(mf_case *c, const mf_pl_worker *w)
{
    const mf_profile *p = mf_profiles_get(c->profile);
    size_t k = 0;
    for (size_t i = 0; i < c->nops; i++) {
        if (mf_pl_op_fits(w, p, c->ops[i].op))
            c->ops[k++] = c->ops[i];
        else
            free(c->ops[i].params);
    }
    c->nops = k;
}
