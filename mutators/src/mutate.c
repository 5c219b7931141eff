/* mutate.c - structure-aware mutation of a case, shared by libFuzzer's
 * LLVMFuzzerCustomMutator/CustomCrossOver and AFL++'s custom mutator.
 *
 * One call makes one edit: insert an op (an id that fits the profile's
 * format), delete one, swap two, re-seed one, set a parameter, or hand the
 * artifact bytes to the engine's byte mutator (which keeps values tricky in
 * ways no op lists). Crossover splices the op programs of two cases. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

static size_t rnd(uint64_t *rng, size_t n) { return n ? (size_t)(mf_rng_next(rng) % n) : 0; }

static unsigned case_format(const mf_case *c)
{
    const mf_profile *p = mf_profiles_get(c->profile);
    return p && p->format == MF_FORMAT_JSON ? MF_OP_JSON : MF_OP_YAML;
}

static const mf_op *random_op(uint64_t *rng, unsigned fmt)
{
    size_t n = mf_ops_count();
    for (int tries = 0; tries < 16; tries++) {
        const mf_op *op = mf_ops_at(rnd(rng, n));
        if (op->formats & fmt)
            return op;
    }
    return mf_ops_at(0);
}

static const char *const param_names[] = {"role", "first", "prose", "text", "inline", "seq", "by",
                                          "all", "partial", "v", "around", "hard", "marker"};

static void set_param(mf_case_op *o, uint64_t *rng)
{
    char p[64];
    if (rnd(rng, 4) == 0)
        p[0] = '\0';
    else
        snprintf(p, sizeof p, "%s=%zu", param_names[rnd(rng, sizeof param_names / sizeof *param_names)],
                 rnd(rng, 12));
    char *np = strdup(p);
    if (np) {
        free(o->params);
        o->params = np;
    }
}

/* Give a case without options the runtime context its artifact was made
 * for: each key the profile declares in `context:` that the artifact itself
 * states (ticket_id, story_id, source_interview.content_sha256 as
 * interview_sha256). The ctx.* ops then have a context to drift from.
 * True when options were set. */
static bool derive_opts(mf_case *c)
{
    const mf_profile *p = mf_profiles_get(c->profile);
    if (!p || !json_is_object(p->context))
        return false;
    mf_result *r = mf_repair(p, c->artifact, c->artifact_len, NULL);
    json_t *opts = json_object();
    static const struct { const char *key, *parent, *field; } from[] = {
        {"ticket_id", NULL, "ticket_id"}, {"story_id", NULL, "story_id"},
        {"interview_sha256", "source_interview", "content_sha256"}};
    for (size_t i = 0; r && r->value && i < sizeof from / sizeof *from; i++) {
        if (!json_object_get(p->context, from[i].key))
            continue;
        const json_t *o = from[i].parent ? json_object_get(r->value, from[i].parent) : r->value;
        const json_t *v = json_is_object(o) ? json_object_get(o, from[i].field) : NULL;
        if (json_is_string(v))
            json_object_set(opts, from[i].key, (json_t *)v);
    }
    mf_result_free(r);
    if (!json_object_size(opts)) {
        json_decref(opts);
        return false;
    }
    c->opts = opts;
    return true;
}

void mf_case_mutate(mf_case *c, uint64_t *rng, size_t (*byte_mutate)(uint8_t *, size_t, size_t),
                    size_t max_artifact)
{
    unsigned fmt = case_format(c);
    if (!c->opts && rnd(rng, 8) == 0 && derive_opts(c))
        return;
    switch (rnd(rng, byte_mutate ? 7 : 6)) {
    case 0:
    case 1:
        if (c->nops < MF_CASE_MAX_OPS && mf_case_add_op(c, random_op(rng, fmt), mf_rng_next(rng), NULL) == 0) {
            size_t at = rnd(rng, c->nops);
            mf_case_op t = c->ops[c->nops - 1];
            memmove(&c->ops[at + 1], &c->ops[at], (c->nops - 1 - at) * sizeof *c->ops);
            c->ops[at] = t;
            return;
        }
        /* fall through */
    case 2:
        if (c->nops) {
            size_t at = rnd(rng, c->nops);
            free(c->ops[at].params);
            memmove(&c->ops[at], &c->ops[at + 1], (c->nops - at - 1) * sizeof *c->ops);
            c->nops--;
        }
        return;
    case 3:
        if (c->nops >= 2) {
            size_t a = rnd(rng, c->nops), b = rnd(rng, c->nops);
            mf_case_op t = c->ops[a];
            c->ops[a] = c->ops[b];
            c->ops[b] = t;
            return;
        }
        /* fall through */
    case 4:
        if (c->nops) {
            c->ops[rnd(rng, c->nops)].seed = mf_rng_next(rng);
            return;
        }
        break;
    case 5:
        if (c->nops) {
            set_param(&c->ops[rnd(rng, c->nops)], rng);
            return;
        }
        break;
    default: {
        size_t cap = max_artifact > c->artifact_len ? max_artifact : c->artifact_len;
        char *a = realloc(c->artifact, cap + 1);
        if (!a)
            return;
        c->artifact = a;
        c->artifact_len = byte_mutate((uint8_t *)a, c->artifact_len, cap);
        c->artifact[c->artifact_len] = '\0';
        return;
    }
    }
    if (c->nops < MF_CASE_MAX_OPS)
        mf_case_add_op(c, random_op(rng, fmt), mf_rng_next(rng), NULL);
}

mf_case *mf_case_crossover(const mf_case *a, const mf_case *b, uint64_t *rng)
{
    bool same = case_format(a) == case_format(b);
    const mf_case *base = same && rnd(rng, 2) ? b : a;
    mf_case *c = mf_case_new(base->profile, base->artifact, base->artifact_len);
    if (!c)
        return NULL;
    if (base->opts)
        c->opts = json_deep_copy(base->opts);
    size_t na = rnd(rng, a->nops + 1), nb = rnd(rng, b->nops + 1);
    for (size_t i = 0; i < na; i++)
        mf_case_add_op(c, a->ops[i].op, a->ops[i].seed, a->ops[i].params);
    for (size_t i = b->nops - nb; i < b->nops; i++)
        if (b->ops[i].op->formats & case_format(c))
            mf_case_add_op(c, b->ops[i].op, b->ops[i].seed, b->ops[i].params);
    return c;
}

mf_case *mf_case_default(uint64_t *rng)
{
    static const char yaml[] =
        "schema_version: 1\ntitle: Example artifact\nitems:\n  - id: Q01\n    text: \"What: exactly?\"\n"
        "    notes: |-\n      first line\n      second line\n  - id: Q02\n    text: plain words\n";
    static const char json[] =
        "{\n  \"story_id\": \"US-1\",\n  \"tasks\": [\n    {\"task_id\": \"T-US-1-01\", \"description\": "
        "\"Don't say \\\"hi\\\"\\nsecond line\", \"done\": false, \"n\": 5, \"extra\": null}\n  ]\n}\n";
    bool j = rnd(rng, 2);
    return j ? mf_case_new("generic_json", json, sizeof json - 1) : mf_case_new("generic_yaml", yaml, sizeof yaml - 1);
}
