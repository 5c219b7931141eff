/* render.c - clean artifact -> raw model output.
 *
 * 1. Value ops (kind MF_OP_VALUE), in case order, on the clean value as core
 *    accepts it; after each one the value is re-emitted with core's canonical
 *    emitter. A value op whose result the profile's schema or semantics
 *    reject (tier 2/3) is undone and counts as not applied: it would not be a
 *    valid artifact. A tier-1 rejection of emitted text is kept: that is an
 *    emitter bug for the accounting oracle to report.
 * 2. Text ops (kind MF_OP_TEXT), in case order, on the text.
 * Each op runs with its own RNG seeded from the case (seed, index), so the
 * output is a pure function of the case. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "alloc_pool.h"
#include "mut_internal.h"

static char *emit(const mf_profile *p, const json_t *v)
{
    return p->format == MF_FORMAT_JSON ? mf_value_to_json(v) : mf_value_to_yaml(v);
}

/* Would core reject text as an invalid artifact (tier 2/3)? */
static bool invalid_text(const mf_profile *p, const char *t, const mf_options *opt)
{
    mf_result *chk = t ? mf_repair(p, t, strlen(t), opt) : NULL;
    bool invalid = chk && chk->status == MF_REJECTED && chk->error.tier >= 2;
    mf_result_free(chk);
    return invalid;
}

/* The clean value of the artifact as core accepts it (new reference), NULL
 * when rejected. The fuzz targets render many cases of one artifact: the
 * last few are kept, keyed by profile, options and text. */
#define BASE_CACHE 8
static struct {
    const mf_profile *p;
    uint64_t key;
    json_t *value;
} base_cache[BASE_CACHE];

static uint64_t fnv(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static json_t *base_value(const mf_case *c, const mf_profile *p, const mf_options *opt, bool *oom)
{
    *oom = false;
    uint64_t key = fnv(1469598103934665603ull, c->artifact, c->artifact_len);
    if (c->opts) {
        char *o = json_dumps(c->opts, JSON_SORT_KEYS | JSON_COMPACT);
        if (!o)
            return *oom = true, NULL;
        key = fnv(key ^ 0x9e3779b97f4a7c15ull, o, strlen(o));
        free(o);
    }
    size_t slot = key % BASE_CACHE;
    if (base_cache[slot].p == p && base_cache[slot].key == key)
        return base_cache[slot].value ? json_deep_copy(base_cache[slot].value) : NULL;
    mf_result *base = mf_repair(p, c->artifact, c->artifact_len, opt);
    if (!base)
        return *oom = true, NULL;
    json_t *v = base->status == MF_ACCEPTED && base->value ? json_deep_copy(base->value) : NULL;
    mf_result_free(base);
    json_decref(base_cache[slot].value);
    base_cache[slot].p = p;
    base_cache[slot].key = key;
    bool kept = mf_alloc_pool_keep(true);  /* the copy outlives this render (alloc_pool.h) */
    base_cache[slot].value = v ? json_deep_copy(v) : NULL;
    mf_alloc_pool_keep(kept);
    return v;
}

/* Apply the value ops to value (in place); check: undo each op whose result
 * core rejects as invalid. Returns -1 out of memory, else whether any applied. */
static int apply_values(const mf_case *c, mf_render *r, const mf_options *opt, json_t **value, bool check)
{
    bool changed = false;
    r->contract = MF_CONTRACT_EXACT;
    for (size_t i = 0; i < c->nops; i++) {
        if (c->ops[i].op->kind != MF_OP_VALUE)
            continue;
        json_t *before = check ? json_deep_copy(*value) : NULL;
        mf_op_ctx ctx = {r->profile, c->ops[i].seed ^ (0x9E37u * (i + 1)), c->ops[i].params, NULL, 0, *value,
                         MF_CONTRACT_EXACT, false, opt};
        int rc = c->ops[i].op->apply(&ctx);
        if (rc < 0 || (check && !before)) {
            json_decref(before);
            return -1;
        }
        if (rc == 1 && check) {
            char *t = emit(r->profile, *value);
            if (invalid_text(r->profile, t, opt)) {
                json_decref(*value);
                *value = before;
                before = NULL;
                rc = 0;
            }
            free(t);
        }
        json_decref(before);
        r->applied[i] = rc == 1;
        if (rc == 1 && ctx.contract > r->contract)
            r->contract = ctx.contract;
        changed |= rc == 1;
    }
    return changed;
}

/* Apply the value ops; on success r->clean holds the emitted text. A value
 * op whose result core rejects as invalid is undone: the ops run once and
 * the result is checked once; only when that is invalid do they run again
 * from the clean value, checked one by one. */
static int render_values(const mf_case *c, mf_render *r, const mf_options *opt)
{
    bool any = false, oom;
    for (size_t i = 0; i < c->nops; i++)
        any |= c->ops[i].op->kind == MF_OP_VALUE;
    if (!any)
        return 0;
    json_t *value = base_value(c, r->profile, opt, &oom);
    if (!value)
        return oom ? -1 : 0;
    json_t *first = json_deep_copy(value);
    int changed = first ? apply_values(c, r, opt, &first, false) : -1;
    char *t = changed == 1 ? emit(r->profile, first) : NULL;
    if (changed == 1 && (!t || invalid_text(r->profile, t, opt))) {
        free(t);
        t = NULL;
        changed = apply_values(c, r, opt, &value, true);
        t = changed == 1 ? emit(r->profile, value) : NULL;
    }
    json_decref(first);
    json_decref(value);
    if (changed < 0 || (changed == 1 && !t)) {
        free(t);
        return -1;
    }
    if (changed == 1) {
        free(r->clean);
        r->clean = t;
        r->clean_len = strlen(t);
    }
    return 0;
}

/* After these ops the JSON token scanner no longer sees where a string
 * ends (inner quotes unescaped, typographic delimiters), so a later token
 * op may land inside a string: no rule promises to undo that combination. */
static bool obscures_tokens(const mf_op *op)
{
    /* shape.artifact-markdown: the files are markdown blocks, no JSON strings; a wrapper
     * (norm.wrapper-chain) puts them inside brackets, where token ops would land in them */
    return !strcmp(op->id, "json.unescaped-quote") || !strcmp(op->id, "json.smart-quotes") ||
           !strcmp(op->id, "shape.artifact-markdown");
}

static bool token_op(const mf_op *op)
{
    return !strncmp(op->id, "json.", 5) || !strncmp(op->id, "norm.", 5) || !strncmp(op->id, "ctx.", 4);
}

/* Does line `line` (0-based) of [s, s+n) open like a list item ("- x" or a lone "-")? */
static bool item_look_line(const char *s, size_t n, size_t line)
{
    size_t i = 0;
    for (size_t l = 0; l < line && i < n; i++)
        l += s[i] == '\n';
    while (i < n && s[i] == ' ')
        i++;
    return i < n && s[i] == '-' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\n' || s[i + 1] == '\r');
}

/* Does some line of [s, s+n) leave a `[` or `{` unclosed at its end (quotes
 * ignored)? No flow collection can run on over a line otherwise: a cheap test
 * before the scan, which runs on every render. */
static bool flow_bracket_left_open(const char *s, size_t n)
{
    long depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '[' || s[i] == '{')
            depth++;
        else if ((s[i] == ']' || s[i] == '}') && depth > 0)
            depth--;
        else if (s[i] == '\n' && depth > 0)
            return true;
    }
    return false;
}

/* Does a flow collection of the YAML text run on over a line that opens like a list
 * item (`refs: [US-1` + `  - "Read-1]`)? YAML reads the line as flow text; the repair
 * rules read a `- ` line as ending a flow left open (yaml.unclosed-flow), so once an
 * op sends the text to them no rule promises YAML's reading (run 24 beads 6e5d708d). */
static bool flow_runs_on_item_line(const char *s, size_t n)
{
    if (!flow_bracket_left_open(s, n))
        return false;
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    yaml_token_t t;
    size_t depth = 0, open_line = 0;
    bool found = false, done = false;
    while (!found && !done && yaml_parser_scan(&parser, &t)) {
        done = t.type == YAML_STREAM_END_TOKEN || t.type == YAML_NO_TOKEN;
        if (t.type == YAML_FLOW_SEQUENCE_START_TOKEN || t.type == YAML_FLOW_MAPPING_START_TOKEN) {
            if (depth++ == 0)
                open_line = t.start_mark.line;
        } else if ((t.type == YAML_FLOW_SEQUENCE_END_TOKEN || t.type == YAML_FLOW_MAPPING_END_TOKEN) && depth &&
                   --depth == 0) {
            for (size_t l = open_line + 1; l <= t.start_mark.line && !found; l++)
                found = item_look_line(s, n, l);
        }
        yaml_token_delete(&t);
    }
    yaml_parser_delete(&parser);
    return found;
}

int mf_case_render(const mf_case *c, mf_render *r)
{
    memset(r, 0, sizeof *r);
    r->profile = mf_profiles_get(c->profile);
    if (!r->profile) {
        snprintf(r->error, sizeof r->error, "unknown profile '%s' (see malform profiles)", c->profile);
        return -1;
    }
    r->applied = calloc(c->nops ? c->nops : 1, sizeof *r->applied);
    r->clean = malloc(c->artifact_len + 1);
    if (!r->applied || !r->clean)
        goto oom;
    memcpy(r->clean, c->artifact, c->artifact_len + 1);
    r->clean_len = c->artifact_len;
    mf_options opt;
    mf_case_options(c, &opt);
    if (render_values(c, r, &opt) < 0)
        goto oom;
    mf_op_ctx ctx = {r->profile, 0, "", malloc(r->clean_len + 1), r->clean_len, NULL, MF_CONTRACT_EXACT, false, &opt};
    bool ambiguous_prose = false, obscured = false, draft = false;
    if (!ctx.text)
        goto oom;
    memcpy(ctx.text, r->clean, r->clean_len + 1);
    for (size_t i = 0; i < c->nops; i++) {
        const mf_op *op = c->ops[i].op;
        if (op->kind != MF_OP_TEXT)
            continue;
        unsigned fmt = r->profile->format == MF_FORMAT_JSON ? MF_OP_JSON : MF_OP_YAML;
        if (!(op->formats & fmt))
            continue;
        ctx.rng = c->ops[i].seed ^ (0x9E37u * (i + 1));
        ctx.params = c->ops[i].params;
        ctx.contract = MF_CONTRACT_EXACT;
        int rc = op->apply(&ctx);
        if (rc < 0) {
            free(ctx.text);
            goto oom;
        }
        r->applied[i] = rc == 1;
        if (rc == 1 && ctx.contract > r->contract)
            r->contract = ctx.contract;
        /* Prose, noise or an orphan fence was added, then a wrapper put it
         * inside the artifact: now it is data (or an error) to every pipeline. */
        if (rc == 1 && ambiguous_prose && !strncmp(op->id, "norm.wrapper", 12))
            r->contract = MF_CONTRACT_RAW;
        if (rc == 1 && ctx.prose_key)
            ambiguous_prose = true;
        if (rc == 1 && obscured && token_op(op))
            r->contract = MF_CONTRACT_RAW;
        if (rc == 1 && obscures_tokens(op))
            obscured = true;
        /* a truncated answer after a reasoning block with a complete draft: core takes the
         * draft, which it names (cand.reasoning README: the only whole value); no rule
         * promises the cut answer's subset over it */
        if (rc == 1 && draft && !strcmp(op->id, "json.truncate"))
            r->contract = MF_CONTRACT_RAW;
        if (rc == 1 && !strcmp(op->id, "cand.reasoning") && strstr(ctx.text, "\nA first draft\n"))
            draft = true;
    }
    r->raw = ctx.text;
    r->raw_len = ctx.len;
    bool text_op_applied = false;
    for (size_t i = 0; i < c->nops; i++)
        text_op_applied |= r->applied[i] && c->ops[i].op->kind == MF_OP_TEXT;
    if (text_op_applied && r->profile->format != MF_FORMAT_JSON && flow_runs_on_item_line(r->clean, r->clean_len))
        r->contract = MF_CONTRACT_RAW;
    /* a lone CR is a line break to YAML and none to the line scans: a key after it
     * (`title: x\rtips:`) is invisible to the rules that read the lines around a
     * site, so none promises YAML's reading there (run 30 d0ba0efa-r17ac2634) */
    if (text_op_applied && r->profile->format != MF_FORMAT_JSON && mt_has_lone_cr(r->clean, r->clean_len))
        r->contract = MF_CONTRACT_RAW;
    for (size_t i = 0; i < c->nops; i++) {
        mf_contract k = c->ops[i].op->contract;
        /* no schema echo once other text leads: the artifact after it must come out exact, or a rejection */
        if (k == MF_CONTRACT_REJECT && !strcmp(c->ops[i].op->id, "cand.schema-echo") &&
            !mt_schema_echo_leads(r->profile, r->raw, r->raw_len))
            k = MF_CONTRACT_EXACT;
        /* cand.reasoning promises the answer after a block that still opens the text
         * (ops_cand_reasoning.c); text a later op put before it (prose, a fence, a tag,
         * role prefixes, a wrapper key) ends that promise */
        if (r->applied[i] && !strcmp(c->ops[i].op->id, "cand.reasoning") && !mt_reasoning_leads(r->raw, r->raw_len))
            k = MF_CONTRACT_RAW;
        if (r->applied[i] && k > r->contract)
            r->contract = k;
    }
    return 0;
oom:
    snprintf(r->error, sizeof r->error, "out of memory");
    return -1;
}

void mf_render_free(mf_render *r)
{
    free(r->clean);
    free(r->raw);
    free(r->applied);
    memset(r, 0, sizeof *r);
}

char *mf_render_op_ids(const mf_case *c, const mf_render *r)
{
    mt_buf b = {0};
    for (size_t i = 0; i < c->nops; i++)
        if (r->applied && r->applied[i] && (b.len ? mt_putc(&b, ',') : 0) == 0)
            mt_puts(&b, c->ops[i].op->id);
    if (!b.len)
        mt_puts(&b, "-");
    return b.s;
}
