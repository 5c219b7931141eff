/* metamorph.c - the metamorphic variant of an accepted raw input
 * (metamorph.h): canonical output, clean check, one promised op, repair. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "metamorph.h"

/* ops tried per variant before giving up (an op finds no site in some texts) */
#define MF_METAMORPH_TRIES 8

bool mf_metamorph_eligible(const mf_op *op, const mf_profile *p)
{
    unsigned fmt = p->format == MF_FORMAT_JSON ? MF_OP_JSON : MF_OP_YAML;
    return op->kind == MF_OP_TEXT && op->contract == MF_CONTRACT_EXACT && op->rules && *op->rules &&
           (op->formats & fmt);
}

void mf_metamorph_free(mf_metamorph *m)
{
    free(m->raw);
    json_decref(m->expected);
    mf_result_free(m->result);
    free(m->ops);
    free(m->rules);
    memset(m, 0, sizeof *m);
}

/* m->raw gets core's canonical output of value and m->expected what core
 * reads it as, when that reading is clean (mf_oracle_clean status 0).
 * 1 ready, 0 not clean, -1 OOM. */
static int prepare(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const json_t *value)
{
    memset(m, 0, sizeof *m);
    /* a top-level scalar has no structure to tell it from the prose or
     * quoting an op adds around it ("see [1,2] here" in backticks) */
    if (!json_is_object(value) && !json_is_array(value))
        return 0;
    m->raw = p->format == MF_FORMAT_JSON ? mf_value_to_json(value) : mf_value_to_yaml(value);
    if (!m->raw)
        return -1;
    mf_verdict cv;
    if (mf_oracle_clean(p, opt, m->raw, strlen(m->raw), &m->expected, &cv) != 0) {
        json_decref(m->expected);
        m->expected = NULL;
        return 0;
    }
    return 1;
}

/* Malform the canonical text m->raw with op, repair it: 1 when op applied
 * with its exact contract (m->raw is then the malformed text), 0 when not, -1 OOM. */
static int try_op(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const mf_op *op, uint64_t seed,
                  mf_repair_fn repair, void *ctx)
{
    size_t len = strlen(m->raw);
    mf_case *c = mf_case_new(p->name, m->raw, len);
    if (!c || mf_case_add_op(c, op, seed, NULL) < 0) {
        mf_case_free(c);
        return -1;
    }
    if (opt && json_is_object(opt->context))
        c->opts = json_incref((json_t *)opt->context);
    mf_render r;
    int rc = mf_case_render(c, &r);
    mf_case_free(c);
    if (rc < 0) {
        mf_render_free(&r);
        return -1;
    }
    if (!r.applied[0] || r.contract != MF_CONTRACT_EXACT || (r.raw_len == len && !memcmp(r.raw, m->raw, len))) {
        mf_render_free(&r);
        return 0;
    }
    m->result = repair ? repair(ctx, p, r.raw, r.raw_len, opt) : mf_repair(p, r.raw, r.raw_len, opt);
    m->ops = strdup(op->id);
    m->rules = m->result ? mf_fired_rules(m->result) : strdup("-");
    free(m->raw);
    m->raw = r.raw;
    r.raw = NULL;
    m->v = (mf_oracle_variant){m->raw, r.raw_len, m->result, m->expected, m->ops};
    mf_render_free(&r);
    return m->ops && m->rules ? 1 : -1;
}

int mf_metamorph_build_op(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const json_t *value,
                          const mf_op *op, uint64_t seed, mf_repair_fn repair, void *ctx)
{
    int rc = mf_metamorph_eligible(op, p) ? prepare(m, p, opt, value) : (memset(m, 0, sizeof *m), 0);
    if (rc == 1)
        rc = try_op(m, p, opt, op, seed, repair, ctx);
    if (rc != 1)
        mf_metamorph_free(m);
    return rc;
}

/* The eligible ops of one format, in registry order (built once). */
static size_t eligible_ops(const mf_profile *p, const mf_op ***out)
{
    static const mf_op **lists[2];
    static size_t counts[2];
    static bool built[2];
    int f = p->format == MF_FORMAT_JSON;
    if (!built[f]) {
        lists[f] = calloc(mf_ops_count() + 1, sizeof *lists[f]);
        if (!lists[f])
            return 0;
        for (size_t i = 0; i < mf_ops_count(); i++)
            if (mf_metamorph_eligible(mf_ops_at(i), p))
                lists[f][counts[f]++] = mf_ops_at(i);
        built[f] = true;
    }
    *out = lists[f];
    return counts[f];
}

static uint64_t fnv(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* Rendezvous choice: the op with the highest score fnv(text hash, op id)
 * among those not tried yet. A new op in ops.def changes the choice only
 * for the texts where it scores highest, so a saved finding keeps its op. */
static const mf_op *pick(const mf_op **ops, size_t n, uint64_t h, const bool *tried, size_t *at)
{
    uint64_t best = 0;
    const mf_op *op = NULL;
    for (size_t i = 0; i < n; i++) {
        uint64_t s = fnv(h, ops[i]->id);
        s ^= s >> 29;
        if (!tried[i] && (!op || s > best)) {
            best = s;
            op = ops[i];
            *at = i;
        }
    }
    return op;
}

int mf_metamorph_build(mf_metamorph *m, const mf_profile *p, const mf_options *opt, const json_t *value,
                       mf_repair_fn repair, void *ctx)
{
    const mf_op **ops;
    size_t n = eligible_ops(p, &ops);
    int rc = n ? prepare(m, p, opt, value) : (memset(m, 0, sizeof *m), 0);
    if (rc == 1) {
        uint64_t h = fnv(1469598103934665603ull, m->raw), rng = h;
        bool *tried = calloc(n, sizeof *tried);
        rc = tried ? 0 : -1;
        for (int t = 0; t < MF_METAMORPH_TRIES && rc == 0; t++) {
            size_t at = 0;
            const mf_op *op = pick(ops, n, h, tried, &at);
            if (!op)
                break;
            tried[at] = true;
            rc = try_op(m, p, opt, op, mf_rng_next(&rng), repair, ctx);
        }
        free(tried);
    }
    if (rc != 1)
        mf_metamorph_free(m);
    return rc;
}
