/* test_mutators.c - the op registry, the case format, rendering, the
 * structure-aware mutator, and every op fixture in tests/fixtures/ops:
 * render, repair, every oracle passes under the op's contract, one of the
 * op's expected rules fired (or the output was rejected for a reject op).
 * Fixtures listed in tests/fixtures/ops/known-open.txt must still fail
 * (fixing one flips it: remove the line). */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>
#include "malform/mutators.h"
#include "malform/oracles.h"

#define OPS_DIR MALFORM_SOURCE_DIR "/tests/fixtures/ops"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

static void test_registry(void **state)
{
    (void)state;
    size_t n = mf_ops_count();
    assert_true(n >= 40);
    for (size_t i = 0; i < n; i++) {
        const mf_op *o = mf_ops_at(i);
        assert_non_null(o->id);
        assert_ptr_equal(mf_ops_find(o->id), o);
        assert_true(o->section && *o->section && o->description && *o->description);
        assert_true(!strncmp(o->id, "cand.", 5) || !strncmp(o->id, "yaml.", 5) || !strncmp(o->id, "json.", 5) ||
                    !strncmp(o->id, "norm.", 5) || !strncmp(o->id, "val.", 4) || !strncmp(o->id, "ctx.", 4) ||
                    !strncmp(o->id, "shape.", 6));
        assert_true(o->kind == MF_OP_VALUE || *o->rules || o->contract == MF_CONTRACT_REJECT);
        /* every expected rule is registered by core */
        char rules[256];
        snprintf(rules, sizeof rules, "%s", o->rules);
        for (char *save, *t = strtok_r(rules, " ", &save); t; t = strtok_r(NULL, " ", &save))
            if (!mf_rules_find(t))
                fail_msg("op %s expects unregistered rule %s", o->id, t);
        /* and has a fixture */
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", OPS_DIR, o->id);
        DIR *d = opendir(dir);
        if (!d)
            fail_msg("op %s has no fixture directory %s", o->id, dir);
        size_t cases = 0;
        for (struct dirent *e; (e = readdir(d));)
            cases += strstr(e->d_name, ".case") != NULL;
        closedir(d);
        if (!cases)
            fail_msg("op %s has no .case fixture", o->id);
    }
    assert_null(mf_ops_find("no.such-op"));
    /* mutators/rule_reach.tsv has one line per registered rule */
    size_t len;
    char *tsv = slurp(MALFORM_SOURCE_DIR "/mutators/rule_reach.tsv", &len);
    assert_non_null(tsv);
    for (size_t i = 0; i < mf_rules_count(); i++) {
        char needle[128];
        snprintf(needle, sizeof needle, "\n%s\t", mf_rules_at(i)->id);
        if (!strstr(tsv, needle))
            fail_msg("rule %s has no line in mutators/rule_reach.tsv", mf_rules_at(i)->id);
    }
    free(tsv);
}

static void test_case_roundtrip(void **state)
{
    (void)state;
    const char *text = "malform-case 1\nprofile: generic_yaml\nopts: {\"ticket_id\":\"T-1\"}\n"
                       "op: yaml.colon-space seed=12 n=2\nop: cand.fence seed=0x10\n---\na: 1\nb: two\n";
    char err[200];
    mf_case *c = mf_case_decode(text, strlen(text), err, sizeof err);
    assert_non_null(c);
    assert_string_equal(c->profile, "generic_yaml");
    assert_int_equal(c->nops, 2);
    assert_int_equal(c->ops[1].seed, 16);
    assert_string_equal(c->ops[0].params, "n=2");
    assert_string_equal(c->artifact, "a: 1\nb: two\n");
    mf_options o;
    mf_case_options(c, &o);
    assert_string_equal(mf_options_context_string(&o, mf_profiles_get("prd"), "ticket_id"), "T-1");
    size_t len;
    char *enc = mf_case_encode(c, &len);
    mf_case *d = mf_case_decode(enc, len, err, sizeof err);
    assert_non_null(d);
    size_t len2;
    char *enc2 = mf_case_encode(d, &len2);
    assert_int_equal(len, len2);
    assert_memory_equal(enc, enc2, len);
    free(enc);
    free(enc2);
    mf_case_free(c);
    mf_case_free(d);
}

static void expect_decode_error(const char *text, const char *needle)
{
    char err[200] = "";
    mf_case *c = mf_case_decode(text, strlen(text), err, sizeof err);
    if (c || !strstr(err, needle))
        fail_msg("decode of %s: want error with '%s', got '%s'", text, needle, err);
}

static void test_case_errors(void **state)
{
    (void)state;
    expect_decode_error("a: 1\n", "not a structured case");
    expect_decode_error("malform-case 1\nprofile: p\nop: nope seed=1\n---\n", "unknown op 'nope'");
    expect_decode_error("malform-case 1\nprofile: p\n", "missing '---'");
    expect_decode_error("malform-case 1\nop: cand.fence seed=1\n---\nx", "no 'profile:'");
    expect_decode_error("malform-case 1\nprofile: p\nop: cand.fence seed=x1\n---\n", "bad seed");
    expect_decode_error("malform-case 1\nprofile: p\nop: cand.fence seed=1 junk\n---\n", "not key=value");
    expect_decode_error("malform-case 1\nprofile: p\nwhat: 1\n---\n", "line 3: unknown header key");
    expect_decode_error("malform-case 1\nprofile: p\nopts: [1]\n---\n", "opts must be a JSON object");
    mf_case *c = mf_case_new("generic_yaml", "x", 1);
    mf_render r;
    free(c->profile);
    c->profile = strdup("no_such_profile");
    assert_int_equal(mf_case_render(c, &r), -1);
    assert_non_null(strstr(r.error, "unknown profile"));
    mf_render_free(&r);
    mf_case_free(c);
}

static void test_render_deterministic(void **state)
{
    (void)state;
    uint64_t rng = 7;
    for (int i = 0; i < 40; i++) {
        mf_case *c = mf_case_default(&rng);
        for (int k = 0; k < 4; k++)
            mf_case_mutate(c, &rng, NULL, 0);
        mf_render a, b;
        assert_int_equal(mf_case_render(c, &a), 0);
        assert_int_equal(mf_case_render(c, &b), 0);
        assert_int_equal(a.raw_len, b.raw_len);
        assert_memory_equal(a.raw, b.raw, a.raw_len);
        mf_render_free(&a);
        mf_render_free(&b);
        mf_case_free(c);
    }
}

/* Every mutation and crossover yields a case that encodes and decodes to itself. */
static void test_mutate_roundtrip(void **state)
{
    (void)state;
    uint64_t rng = 42;
    mf_case *prev = mf_case_default(&rng);
    for (int i = 0; i < 2000; i++) {
        mf_case *c = (i % 5 == 0) ? mf_case_crossover(prev, prev, &rng) : NULL;
        if (!c) {
            size_t len;
            char *t = mf_case_encode(prev, &len);
            char err[64];
            c = mf_case_decode(t, len, err, sizeof err);
            free(t);
        }
        assert_non_null(c);
        mf_case_mutate(c, &rng, NULL, 0);
        assert_true(c->nops <= MF_CASE_MAX_OPS);
        size_t len;
        char *t = mf_case_encode(c, &len);
        char err[200];
        mf_case *d = mf_case_decode(t, len, err, sizeof err);
        if (!d)
            fail_msg("mutated case does not decode: %s\n%s", err, t);
        assert_int_equal(d->nops, c->nops);
        free(t);
        mf_case_free(d);
        mf_case_free(prev);
        prev = c;
    }
    mf_case_free(prev);
}

static bool known_open(const char *rel)
{
    size_t len;
    char *k = slurp(OPS_DIR "/known-open.txt", &len);
    bool hit = false;
    for (char *save, *line = k ? strtok_r(k, "\n", &save) : NULL; line && !hit; line = strtok_r(NULL, "\n", &save))
        hit = line[0] != '#' && strncmp(line, rel, strlen(rel)) == 0 && (line[strlen(rel)] == ' ' || !line[strlen(rel)]);
    free(k);
    return hit;
}

/* Run one fixture; returns NULL on pass, else a malloc'd reason. */
static char *run_fixture(const char *path, const mf_op *op)
{
    size_t len;
    char *text = slurp(path, &len), err[256], *why = NULL;
    mf_case *c = text ? mf_case_decode(text, len, err, sizeof err) : NULL;
    free(text);
    if (!c)
        return strdup("does not decode");
    mf_render r;
    json_t *truth = NULL;
    mf_result *res = NULL;
    mf_verdict clean, v[MF_ORACLE_COUNT];
    if (mf_case_render(c, &r) < 0) {
        why = strdup(r.error);
        goto out;
    }
    for (size_t i = 0; i < c->nops; i++)
        if (!r.applied[i] && asprintf(&why, "op %s found no site", c->ops[i].op->id) >= 0)
            goto out;
    mf_options opt;
    mf_case_options(c, &opt);
    if (mf_oracle_clean(r.profile, &opt, r.clean, r.clean_len, &truth, &clean) != 0) {
        why = strdup(clean.detail);
        goto out;
    }
    res = mf_repair(r.profile, r.raw, r.raw_len, &opt);
    mf_oracle_input in = {r.profile, &opt, r.raw, r.raw_len, res, truth, (mf_expect)r.contract, NULL};
    if (mf_oracles_run(&in, v)) {
        for (int i = 0; i < MF_ORACLE_COUNT && !why; i++)
            if (v[i].failed && asprintf(&why, "%s: %s", mf_oracle_name((mf_oracle_id)i), v[i].detail) < 0)
                why = NULL;
        goto out;
    }
    if (op->contract == MF_CONTRACT_REJECT || op->kind == MF_OP_VALUE)
        goto out;
    if (res->status != MF_ACCEPTED) {
        if (asprintf(&why, "rejected: %s %s", res->error.type, res->error.message) < 0)
            why = NULL;
        goto out;
    }
    bool fired = false;
    char rules[256];
    snprintf(rules, sizeof rules, "%s", op->rules);
    for (char *save, *t = strtok_r(rules, " ", &save); t && !fired; t = strtok_r(NULL, " ", &save))
        fired = mf_warnings_has(&res->warnings, t);
    if (!fired && asprintf(&why, "none of the expected rules (%s) fired", op->rules) < 0)
        why = NULL;
out:
    mf_result_free(res);
    json_decref(truth);
    mf_render_free(&r);
    mf_case_free(c);
    return why;
}

static mf_contract contract_of(const char *text, char **raw)
{
    char err[200];
    mf_case *c = mf_case_decode(text, strlen(text), err, sizeof err);
    assert_non_null(c);
    mf_render r;
    assert_int_equal(mf_case_render(c, &r), 0);
    mf_contract k = r.contract;
    if (raw)
        *raw = strdup(r.raw);
    mf_render_free(&r);
    mf_case_free(c);
    return k;
}

/* Ops apply only where a rule promises to repair them, and say so where the
 * text is ambiguous: question ids outside `questions:` are no site; prose
 * that YAML reads as a key is exact only where cand.leading-prose promises
 * to cut it, and raw once a wrapper indents it into the artifact. */
static void test_op_sites_and_ambiguity(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[512], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.id-variant seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: Why?\n"
                 "    inspiration:\n      id: Q05\nnotes:\n  id: Q07\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "id: Q05"));
        assert_non_null(strstr(raw, "id: Q07"));
        free(raw);
    }
    const char *promised = "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=1 text=3\n---\na: 1\nb: two\n";
    char *raw = NULL;
    assert_int_equal(contract_of(promised, &raw), MF_CONTRACT_EXACT);
    assert_non_null(strstr(raw, "Okay, here it is:"));
    free(raw);
    const char *wrapped = "malform-case 1\nprofile: bead_status\nop: cand.prose-before seed=1 text=3\n"
                          "op: norm.wrapper seed=2\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(wrapped, NULL), MF_CONTRACT_RAW);
    /* a plain sentence indented under a wrapper key is no leading prose either:
     * no rule cuts it there (core rejects "output:\n  Here is ...\n\n  status: done") */
    const char *plain = "malform-case 1\nprofile: bead_status\nop: cand.prose-before seed=1 text=0\n"
                        "op: norm.wrapper seed=2\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(plain, NULL), MF_CONTRACT_RAW);
    const char *unwrapped = "malform-case 1\nprofile: bead_status\nop: cand.prose-before seed=1 text=0\n"
                            "---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(unwrapped, NULL), MF_CONTRACT_EXACT);
    /* run 30 7b9c7e65: the same for a tag envelope's marker line */
    const char *enveloped = "malform-case 1\nprofile: bead_status\nop: cand.tag-envelope seed=1 prose=1\n"
                            "op: norm.wrapper seed=1\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(enveloped, &raw), MF_CONTRACT_RAW);
    assert_non_null(strstr(raw, "  Work finished. Final marker:\n"));
    free(raw);
    const char *bare_envelope = "malform-case 1\nprofile: bead_status\nop: cand.tag-envelope seed=1 prose=0\n"
                                "op: norm.wrapper seed=1\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(bare_envelope, NULL), MF_CONTRACT_EXACT);
    /* run 30 d0ba0efa-r17ac2634: a lone CR in the clean artifact hides the key after it
     * from the line rules (`title: x\rtips:`): a YAML text op there promises no exact repair */
    const char *lone_cr = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1\n---\n"
                          "title: Code review checklist\rtips:\n  - \"Cache the build: it saves ten minutes\"\n  - N\n";
    assert_int_equal(contract_of(lone_cr, &raw), MF_CONTRACT_RAW);
    assert_non_null(strstr(raw, "  - Cache the build: it saves ten minutes\n"));
    free(raw);
    const char *crlf = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1\n---\n"
                       "title: Code review checklist\r\ntips:\n  - \"Cache the build: it saves ten minutes\"\n  - N\n";
    assert_int_equal(contract_of(crlf, NULL), MF_CONTRACT_EXACT);
    /* a token op after the quotes were made unreadable to the scanner */
    const char *after = "malform-case 1\nprofile: generic_json\nop: json.smart-quotes seed=1\n"
                        "op: json.trailing-comma seed=2\n---\n{\"a\": \"x\", \"b\": [1, 2]}\n";
    assert_int_equal(contract_of(after, NULL), MF_CONTRACT_RAW);
    const char *before = "malform-case 1\nprofile: generic_json\nop: json.trailing-comma seed=2\n"
                         "op: json.smart-quotes seed=1\n---\n{\"a\": \"x\", \"b\": [1, 2]}\n";
    assert_int_equal(contract_of(before, NULL), MF_CONTRACT_EXACT);
    /* yaml.inline-keys joins lines only where core splits them again: after a typed
     * value (count: 3) or before a key core knows; `owner: platform-team count: 3`
     * with `count` known nowhere else is one string to every reader */
    for (int seed = 1; seed < 20; seed++) {
        char text[256];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-keys seed=%d\n---\n"
                 "owner: platform-team\ncount: 3\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_string_equal(raw, "owner: platform-team\ncount: 3\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-keys seed=%d\n---\n"
                 "count: 3\nowner: platform-team\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "count: 3 owner: platform-team\n");
        free(raw);
        /* `OFF` is a string to YAML 1.2: `owner: OFF Count: 3` is one value to core (run 19, 92145e0b) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-keys seed=%d\n---\n"
                 "owner: OFF\nCount: 3\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "owner: OFF\nCount: 3\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-keys seed=%d\n---\n"
                 "flag: False\nCount: 3\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "flag: False Count: 3\n");
        free(raw);
    }
    /* value ops leave the fields core rewrites by design alone: the context's
     * story_id, enum fields, ids (only the description and the command are sites) */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: task_breakdown\nopts: {\"story_id\": \"US-1\"}\n"
                 "op: val.bool-like seed=%d\n---\n{\"story_id\": \"US-1\", \"tasks\": [{\"task_id\": \"T-US-1-01\", "
                 "\"description\": \"Add it\", \"command_to_run\": \"make\"}]}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"US-1\""));
        assert_non_null(strstr(raw, "\"T-US-1-01\""));
        assert_true(!strstr(raw, "Add it") || !strstr(raw, "\"make\""));
        free(raw);
    }
    /* an empty artifact stays empty behind terminal noise: prose after it is raw */
    const char *noisy = "malform-case 1\nprofile: generic_yaml\nop: cand.ansi-noise seed=1\n"
                        "op: cand.prose-after seed=1\n---\n\n";
    assert_int_equal(contract_of(noisy, NULL), MF_CONTRACT_RAW);
    const char *scalar = "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=1 text=1\n---\ni\n";
    assert_int_equal(contract_of(scalar, NULL), MF_CONTRACT_RAW);
    /* a multi-line plain scalar is one scalar too ('m' + '' + 'n' reads "m\nn"), and a
     * trailer YAML still reads after one ('i' + '```', '[201~') is as much the scalar (run 6) */
    const char *multi = "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=1\n---\nm \n  \nn\n";
    assert_int_equal(contract_of(multi, NULL), MF_CONTRACT_RAW);
    const char *multi_before = "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=1\n---\nm\n\nn\n";
    assert_int_equal(contract_of(multi_before, NULL), MF_CONTRACT_RAW);
    const char *orphan_scalar = "malform-case 1\nprofile: generic_yaml\nop: cand.orphan-fence seed=1\n---\ni\n";
    assert_int_equal(contract_of(orphan_scalar, NULL), MF_CONTRACT_RAW);
    const char *paste_scalar = "malform-case 1\nprofile: generic_yaml\nop: cand.bracketed-paste seed=1 seq=1\n---\nn\n";
    assert_int_equal(contract_of(paste_scalar, NULL), MF_CONTRACT_RAW);
    /* a one-line scalar behind a role prefix is still one scalar: a fence around it is raw (run 6 bcaf49fd) */
    const char *role_scalar = "malform-case 1\nprofile: generic_yaml\nop: cand.transcript-prefix seed=1 role=7\n"
                              "op: cand.fence-unclosed seed=1\n---\nx\n";
    assert_int_equal(contract_of(role_scalar, NULL), MF_CONTRACT_RAW);
    /* run 36 523e8e1e: json.unescaped-quote leaves `\",ents"` at a string's end: unescaped it also
     * reads as the value's end and a string missing its opening quote */
    for (int seed = 1; seed < 8; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"t\": \"x\", \"c\": \"parametrize(\\\"title, slug\\\",ents\"}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\\\"title, slug\\\",ents\""));
        free(raw);
    }
    /* run 35 da66b6cb: the lines under `key: - - |-` (yaml.inline-sequence-parent's damage) are the
     * block's body, no entries yaml.duplicate-key may copy */
    const char *inline_block = "malform-case 1\nprofile: generic_yaml\nop: val.guard-block-key seed=13286314435038302974\n"
                               "op: yaml.inline-sequence-parent seed=9393671208886403176\n"
                               "op: yaml.duplicate-key seed=9946779494827323070 all=10\n---\nmatrix:\n  - [1< 2]\n  - [3, 4]\n";
    contract_of(inline_block, &raw);
    assert_non_null(strstr(raw, "matrix: - - |-\n"));
    assert_null(strstr(raw, "status: draft\n    status: draft"));
    free(raw);
    /* run 33 9e1f11d6-r21401b1c: a line inside a flow collection an earlier line left open
     * is its text, no entry yaml.duplicate-key may copy */
    for (int seed = 1; seed < 12; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.duplicate-key seed=%d\n---\n"
                 "steps:\n  - name: b\n    needs: {\nos: linux, arch: [x64, arm]}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "{\nos: linux, arch: [x64, arm]}\n"));
        assert_null(strstr(raw, "arm]}\nos:"));
        free(raw);
    }
    /* run 33 3d0514a5: the last item of a list nested in an outer list's item, followed by
     * that item's next key at the dash's column, is no drift site (the key reads as the
     * drifted item's property as well); with a property line of its own it still is */
    for (int seed = 1; seed < 12; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "- steps:\n  - id: S\n    notes: |-\n      run make\n  - id: T\n  op: n\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: T\n  op: n\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "- steps:\n  - id: S\n    notes: |-\n      run make\n  - id: T\n    title: x\n  op: n\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n  - id: T\n"));
        free(raw);
        /* run 48 fc18df61: a key no simple one (`p`rofile`, AFL++'s) is that item's next key as well */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "- steps:\n  - id: S\n    notes: |-\n      run make\n  - id: T\n  p`rofile: n\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: T\n  p`rofile: n\n"));
        free(raw);
    }
    /* run 32 56dc18fc: yaml.invalid-escape quotes no terminal noise an earlier op glued to the value */
    const char *noisy_escape = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1300\n"
                               "op: cand.prose-before seed=908640097254398\nop: cand.ansi-noise seed=10900925057999426960\n"
                               "op: cand.fence seed=2\nop: yaml.duplicate-key seed=16935404843467260830\n"
                               "op: val.quotes seed=10826562517131689973\nop: yaml.invalid-escape seed=4430982770014617821\n"
                               "---\nnote: d\n";
    contract_of(noisy_escape, &raw);
    assert_null(strstr(raw, "\"\\'"));
    assert_non_null(strstr(raw, "note: \\'\x1b["));
    free(raw);
    /* run 32 (8 signatures): a closer line with noise glued after it (`m` + `---\e[32m`) is
     * as much a marker line: the scalar document behind it stays one scalar to prose ops */
    static const char orphan_ops[] = "cand.transcript-prefix seed=539848269937329881\n"
                                     "op: cand.orphan-fence seed=4088115396394596309\nop: cand.prose-after seed=5";
    const char *noisy_closer[] = {"cand.prose-before seed=15654211868898614280", "cand.fence seed=2", orphan_ops};
    for (size_t i = 0; i < sizeof noisy_closer / sizeof *noisy_closer; i++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=2\n"
                 "op: yaml.front-matter-closer seed=36483175548\nop: cand.ansi-noise seed=1090097999426960\n"
                 "op: %s\n---\nm\n", noisy_closer[i]);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        assert_non_null(strstr(raw, "---\x1b["));
        free(raw);
    }
    const char *orphan_map = "malform-case 1\nprofile: generic_yaml\nop: cand.orphan-fence seed=1\n---\na: 1\n";
    assert_int_equal(contract_of(orphan_map, NULL), MF_CONTRACT_EXACT);
    /* a second orphan fence would close the first: no site */
    const char *twice = "malform-case 1\nprofile: generic_yaml\nop: cand.orphan-fence seed=1\n"
                        "op: cand.orphan-fence seed=2\n---\na: 1\n";
    contract_of(twice, &raw);
    assert_string_equal(raw, "a: 1\n```\n");
    free(raw);
    /* an orphan fence (or noise, or trailing prose) that a wrapper puts inside the artifact: raw */
    const char *fenced_in = "malform-case 1\nprofile: bead_status\nop: cand.orphan-fence seed=1\n"
                            "op: norm.wrapper seed=2\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(fenced_in, NULL), MF_CONTRACT_RAW);
    const char *fence_only = "malform-case 1\nprofile: bead_status\nop: cand.orphan-fence seed=1\n"
                             "---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(fence_only, NULL), MF_CONTRACT_EXACT);
    /* cand.anchor before an artifact whose first line is no top-level key: raw */
    const char *unanchored = "malform-case 1\nprofile: interview\nop: cand.anchor seed=1 text=1\n---\n"
                             "snullchema_version: 1\nticket_id: T-1\n";
    assert_int_equal(contract_of(unanchored, NULL), MF_CONTRACT_RAW);
    /* JSON token ops see a transcript role prefix as no bracket: "[tool]" never becomes "[tool,]" */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.transcript-prefix seed=1 role=5\n"
                 "op: json.trailing-comma seed=%d\n---\n{\n  \"a\": [1, 2],\n  \"b\": {\"c\": 3}\n}\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "[tool,]"));
        free(raw);
    }
    /* yaml.quoted-fragment never unquotes a fragment holding a backslash */
    const char *bs = "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-fragment seed=8\n---\n"
                     "motto: '\"pink\\\" i'\n";
    contract_of(bs, &raw);
    assert_string_equal(raw, "motto: '\"pink\\\" i'\n");
    free(raw);
    /* a second paragraph of prose before the artifact: no site */
    const char *twice_prose = "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=1 text=3\n"
                              "op: cand.prose-before seed=1 text=4\n---\na: 1\n";
    contract_of(twice_prose, &raw);
    assert_string_equal(raw, "Okay, here it is:\n\na: 1\n");
    free(raw);
    const char *glued_in = "malform-case 1\nprofile: task_breakdown\nop: json.concatenated seed=1\n"
                           "op: norm.wrapper seed=1\n---\n{\"story_id\": \"US-1\", \"tasks\": []}\n";
    assert_int_equal(contract_of(glued_in, NULL), MF_CONTRACT_RAW);
    /* the YAML line ops leave a duplicated key's copies alike too */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-fragment seed=%d\n---\n"
                 "motto: '\"pink\" is'\nmotto: '\"pink\" is'\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "motto: '\"pink\" is'\nmotto: '\"pink\" is'\n");
        free(raw);
    }
    /* yaml.duplicate-key never copies a line that deeper lines follow */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.duplicate-key seed=%d\n---\n"
                 "notes: '|-'\n  check output\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "notes: '|-'\n  check output\n");
        free(raw);
    }
    /* an unquoted value core would read as more keys of its line (yaml.inline-keys' guess, a key the
     * profile or document knows) is no exact site for yaml.plain-colon / yaml.free-text; one whose
     * first key word has two words before it, or is capitalized and unknown, is */
    for (int seed = 1; seed < 40; seed++) {
        char text[600];
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: %s seed=%d\n---\nquestions:\n"
                 "  - id: Q01\n    phase: foundation\n    question: \"Which backups are in scope: nightly\"\n"
                 "    rationale: \"Gap: no timeout\"\ncoverage:\n  gaps:\n    - \"Escalation path: unspecified\"\n"
                 "  gap_resolutions:\n    - gap: \"Escalation path: unspecified\"\n    - gap: \"a: b c: d e: f g\"\n"
                 "    - gap: \"All of id: Q01\"\n",
                 seed % 2 ? "yaml.plain-colon" : "yaml.free-text", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "- gap: \"Escalation path: unspecified\"\n"));
        assert_non_null(strstr(raw, "- gap: \"All of id: Q01\"\n"));
        assert_non_null(strstr(raw, "- gap: \"a: b c: d e: f g\"\n"));
        free(raw);
    }
    bool unquoted = false;
    for (int seed = 1; seed < 40 && !unquoted; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n"
                 "question: \"Which backups are in scope: nightly\"\nrationale: \"Gap: no timeout\"\n", seed);
        contract_of(text, &raw);
        unquoted = strstr(raw, "question: Which") || strstr(raw, "rationale: Gap");
        free(raw);
    }
    assert_true(unquoted);
    /* a value yaml.inline-keys splits as keys with a quoted, flow or inline-list value (`sd: - [1, 2]
     * - [0,4]`, run 20 abc01f26) is no exact site either; one whose first value is two words is */
    const char *const split_shapes[] = {"o: \"0amlun0los00- sd: - [1, 2] - [0,4]\"\n", "x: \"a b: [1, 2]\"\n",
                                        "y: 'a b: \"c d\"'\n", "z: \"a b: {p: 1, q: 2}\"\n",
                                        "w: \"a b: - c - d e: some prose here\"\n"};
    for (int seed = 1; seed < 30; seed++) {
        char text[600] = "";
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n", seed);
        for (size_t k = 0; k < sizeof split_shapes / sizeof *split_shapes; k++)
            strcat(text, split_shapes[k]);
        contract_of(text, &raw);
        for (size_t k = 0; k < sizeof split_shapes / sizeof *split_shapes; k++)
            assert_non_null(strstr(raw, split_shapes[k]));
        free(raw);
    }
    unquoted = false;
    for (int seed = 1; seed < 30 && !unquoted; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n"
                 "x: \"two words b: - c - d\"\n", seed);
        contract_of(text, &raw);
        unquoted = strstr(raw, "x: two words b: - c - d\n") != NULL;
        free(raw);
    }
    assert_true(unquoted);
    /* yaml.plain-colon leaves a one-line item's value quoted among keyless items: `- text: What: ex`
     * beside `- null` is yaml.item-colon's string (run 15 99926ca8); an item with more lines stays a
     * mapping, and there it unquotes */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n"
                 "items:\n- text: 'What: ex'\n- null\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "items:\n- text: 'What: ex'\n- null\n");
        free(raw);
    }
    unquoted = false;
    for (int seed = 1; seed < 20 && !unquoted; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n"
                 "items:\n- text: 'What: ex'\n  id: 1\n- null\n", seed);
        contract_of(text, &raw);
        unquoted = strstr(raw, "- text: What: ex\n") != NULL;
        free(raw);
    }
    assert_true(unquoted);
    /* json.unescaped-quote leaves a string whose inner quotes make a key shape ({\"a\": [): unescaped,
     * core refuses a string that would hold a member; json.concatenated never glues its stray value
     * onto an artifact json.truncate cut short */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"d\": \"array[0]] = {\\\"a\\\": [\", \"e\": \"say \\\"hi\\\" now\"}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "{\\\"a\\\": ["));
        free(raw);
    }
    /* run 28 ffc04a84: nor one whose inner quotes stand side by side (`\" \"it's`): unescaped,
     * two strings next to each other */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"quote\": \"He said \\\" \\\"it's fine\", \"e\": \"say \\\"hi\\\" now\"}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "He said \\\" \\\"it's fine"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: task_breakdown\nop: json.truncate seed=%d\n"
                 "op: json.concatenated seed=%d\n---\n{\"story_id\": \"US-1\", \"tasks\": [], \"notes\": \"a b c\"}\n",
                 seed, seed);
        contract_of(text, &raw);
        static const char *const stray[] = {"{\"status\": \"ok\"}\n", "{}\n", "{\"note\": \"draft 1\"}\n"};
        for (size_t k = 0; k < 3; k++)
            if (strstr(raw, stray[k]) && strncmp(raw, stray[k], strlen(stray[k])))
                fail_msg("seed %d: stray value after a cut artifact: %s", seed, raw);
        free(raw);
    }
    /* no site where the unquoted text reads as another node or value: a free-text value starting
     * '- ' (a list item), a quote a later line-ending '"' would close, a type union cut short */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: beads\nop: yaml.free-text seed=%d\n---\nbeads:\n"
                 "- id: b\n  title: '- starts like an item: but is text'\n  acceptance_criteria:\n  - T\n  prd_refs: []\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "title: '- starts"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "title: \"P\"\nnote: run `x`\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "title: \"P\"\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.type-union seed=%d\n---\n"
                 "kind: '\"epic\" | \"'\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "kind: '\"epic\" | \"'\n");
        free(raw);
    }
    /* a value op never writes into the members of a key whose enum applies to each of them
     * (bead_status checks: tests, lint... are pass/fail, norm.check-value maps them) */
    for (int seed = 1; seed < 40; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: val.template seed=%d\n---\n"
                 "status: done\nsummary: did it\nchecks:\n  tests: pass\n  lint: pass\n  typecheck: pass\n"
                 "  qualitative: pass\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "tests: pass\n  lint: pass\n  typecheck: pass\n  qualitative: pass"));
        free(raw);
    }
    /* run 5: a prose line is no sibling entry for yaml.colon-space ('note:d' + a sentence is one
     * plain scalar); cand.prose-after does not stack on prose; yaml.invalid-escape never
     * double-quotes a value holding more keys */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=1\n"
                 "op: yaml.colon-space seed=%d\nop: cand.prose-after seed=%d\n---\nnote: d\n", seed, seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "note: d\n"));
        assert_null(strstr(strstr(raw, "ticket.") + 1, "ticket."));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                 "count: 3 pattern: ^\\d\nname: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "count: 3 pattern: ^\\d\n"));
        free(raw);
    }
    /* yaml.xml-tag-lines has no site in a one-scalar document: tags around it are text of the scalar */
    for (int seed = 1; seed < 10; seed++) {
        char text[200];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.xml-tag-lines seed=%d\n---\ni\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "i\n");
        free(raw);
    }
    /* run 6: nor around a list YAML reads as one plain scalar with the tags ('<yaml>' / '- EEE' /
     * '</yaml>' is "<yaml> - EEE </yaml>"); around a mapping the tags break the parse and stay */
    for (int seed = 1; seed < 10; seed++) {
        char text[200];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.xml-tag-lines seed=%d around=1\n---\n- EEE\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "- EEE\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.xml-tag-lines seed=%d around=1\n---\na: 1\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, ">\na: 1\n</"));
        free(raw);
    }
    /* a schema echo must be rejected only while it leads the output (seed 000: output that starts with a
     * root key); a tag, fence, role prefix or prose a later op puts before it leaves the artifact after it
     * to be repaired exactly (or rejected), and a wrapper indenting it makes it data */
    const char *echo = "malform-case 1\nprofile: bead_status\nop: cand.schema-echo seed=1\n%s---\nstatus: done\n";
    static const char *const after_echo[] = {"", "op: cand.tag-envelope seed=1\n", "op: yaml.xml-tag-lines seed=1\n",
                                             "op: cand.transcript-prefix seed=1 first=0\n", "op: cand.prose-before seed=1\n",
                                             "op: cand.fence-unclosed seed=1\n", "op: norm.wrapper-chain seed=1\n"};
    static const mf_contract echo_contract[] = {MF_CONTRACT_REJECT, MF_CONTRACT_EXACT, MF_CONTRACT_EXACT,
                                                MF_CONTRACT_EXACT, MF_CONTRACT_EXACT, MF_CONTRACT_EXACT, MF_CONTRACT_RAW};
    for (size_t i = 0; i < sizeof after_echo / sizeof *after_echo; i++) {
        char text[300];
        snprintf(text, sizeof text, echo, after_echo[i]);
        if (contract_of(text, NULL) != echo_contract[i])
            fail_msg("schema echo then '%s': contract %d, want %d", after_echo[i], contract_of(text, NULL),
                     echo_contract[i]);
    }
    const char *prefixed_in = "malform-case 1\nprofile: task_breakdown\nop: cand.transcript-prefix seed=1\n"
                              "op: norm.wrapper seed=1\n---\n{\"story_id\": \"US-1\", \"tasks\": []}\n";
    assert_int_equal(contract_of(prefixed_in, NULL), MF_CONTRACT_RAW);
    /* yaml.colon-space never glues the only entry of a document ('title:E' is a scalar) */
    const char *single = "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=1\n---\ntitle: E\n";
    contract_of(single, &raw);
    assert_string_equal(raw, "title: E\n");
    free(raw);
    const char *fence_in = "malform-case 1\nprofile: task_breakdown\nop: cand.fence seed=1\n"
                           "op: norm.wrapper seed=1\n---\n{\"story_id\": \"US-1\", \"tasks\": []}\n";
    assert_int_equal(contract_of(fence_in, NULL), MF_CONTRACT_RAW);
    const char *yfence_in = "malform-case 1\nprofile: bead_status\nop: cand.fence seed=1\n"
                            "op: norm.wrapper seed=2\n---\nstatus: done\nchecks:\n  tests: pass\n";
    assert_int_equal(contract_of(yfence_in, NULL), MF_CONTRACT_RAW);
    const char *js_in = "malform-case 1\nprofile: task_breakdown\nop: json.js-wrapper seed=1\n"
                        "op: norm.wrapper seed=1\n---\n{\"story_id\": \"US-1\", \"tasks\": []}\n";
    assert_int_equal(contract_of(js_in, NULL), MF_CONTRACT_RAW);
    /* a wrapper key is never one of the artifact's own keys (artifact: in beads) */
    for (int seed = 1; seed < 30; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: beads\nop: norm.wrapper-chain seed=%d\n---\n"
                 "schema_version: 1\nbeads:\n  - id: b1\n", seed);
        contract_of(text, &raw);
        assert_true(strncmp(raw, "artifact:", 9) != 0 && !strstr(raw, " artifact:") && !strstr(raw, "\nartifact:"));
        free(raw);
    }
    /* a key duplicated by yaml.duplicate-key is no site for a value op: the copies would conflict */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: norm.status-variant seed=%d\n---\n"
                 "bead_id: a\nstatus: done\nstatus: done\nchecks:\n  tests: pass\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "status: done\nstatus: done\n"));
        free(raw);
    }
    /* nor is a copy whose twin yaml.inline-keys joined onto a sibling's line (run 50 46fdfdc3) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: norm.check-variant seed=%d\n---\n"
                 "bead_id: a\nstatus: done\nchecks:\n  lint: pass typecheck: pass\n  typecheck: pass\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  lint: pass typecheck: pass\n  typecheck: pass\n"));
        free(raw);
    }
    /* norm.enum-case folds only a word its enum knows, and for bead_status only the top-level
     * status, which the normalizer folds back (main job c8338a5b) */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: norm.enum-case seed=%d\n---\n"
                 "bead_id: a\nstatus: done\nchecks:\n  tests: pass\nnotes_x:\n  output:\n    status: draft\n"
                 "  more:\n    status: blocked\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "    status: draft\n"));
        assert_non_null(strstr(raw, "    status: blocked\n"));
        free(raw);
    }
    /* json.omit-required takes a member, its comma and the blanks after it, never the `# ` of a
     * comment line after it (run 50 7cdd8d35: the comment's words were left as a bare line) */
    {
        contract_of("malform-case 1\nprofile: investor_decision\nop: json.missing-comma seed=1826\n"
                    "op: val.digit-id seed=8\nop: json.lone-backslash seed=3239333025100064183\n"
                    "op: json.comments seed=17938089594244312304\nop: json.omit-required seed=9559839439028239200\n"
                    "---\n{\n  \"investor_id\": \"i\",\n  \"idea_id\": \"i\",\n  \"decision\": \"invest\",\n"
                    "  \"conviction_score\": 7,\n  \"risk_level\": \"medium\",\n  \"reasoning\": \"S\",\n"
                    "  \"key_conditions\": \"B\"\n}\n", &raw);
        const char *c = strstr(raw, "python-style comment");
        assert_non_null(c);
        assert_true(c >= raw + 2 && c[-2] == '#');
        free(raw);
    }
    /* after shape.artifact-markdown the text is markdown: a comma in a file's text is no JSON op site */
    for (int seed = 1; seed < 10; seed++) {
        char text[600];
        snprintf(text, sizeof text, "malform-case 1\nprofile: artifact_files\n"
                 "opts: {\"expected_files\":[\"README.md\",\"SPEC.md\"]}\nop: shape.artifact-markdown seed=3\n"
                 "op: json.missing-comma seed=%d\n---\n[{\"filename\": \"README.md\", \"content\": \"# In\"},\n"
                 " {\"filename\": \"SPEC.md\", \"content\": \"## Totals\\n\\n- Net, VA, gross\"}]\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "- Net, VA, gross\n"));
        free(raw);
    }
    /* stacked role prefixes and paste markers are no JSON: no JSON op site in them */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.transcript-prefix seed=%d\n"
                 "op: cand.bracketed-paste seed=%d\nop: json.ellipsis-item seed=1\nop: json.number-format seed=1\n---\n{}\n",
                 seed, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\xe2\x80\xa6"));
        assert_null(strstr(raw, "+20"));
        free(raw);
    }
    /* json.number-format twice never writes ++5; json.unescaped-quote leaves a string whose
     * unescaped quotes would read as more members (`\", \"notes\": \"`) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.number-format seed=%d\n"
                 "op: json.number-format seed=%d\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"n\": 5, \"f\": 0.5, \"name\": \"test\\\", \\\"notes\\\": \\\"run\"}\n", seed, seed + 1, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "++"));
        assert_null(strstr(raw, ".+"));
        assert_non_null(strstr(raw, "\"test\\\", \\\"notes\\\": \\\"run\""));
        free(raw);
    }
    /* around a one-scalar artifact a fence holds no structure (raw); a fence behind a role
     * prefix is a fence (no second one); prose behind a role prefix is prose (no second paragraph) */
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\nop: cand.fence-unclosed seed=1\n---\ni\n", NULL),
                     MF_CONTRACT_RAW);
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.orphan-fence seed=%d\n"
                 "op: cand.transcript-prefix seed=%d\nop: cand.orphan-fence seed=%d\nop: cand.prose-before seed=%d\n"
                 "op: cand.transcript-prefix seed=%d\nop: cand.prose-before seed=%d\n---\nitems:\n  - a\n",
                 seed, seed, seed + 1, seed, seed + 2, seed + 3);
        contract_of(text, &raw);
        const char *f = strstr(raw, "```");
        assert_true(f && !strstr(f + 3, "```"));
        int prose = 0;
        for (const char *q = raw; (q = strstr(q, "\n\n")); q += 2)
            prose++;
        assert_true(prose <= 1);
        free(raw);
    }
    /* prose after JSON that json.truncate cut reads as the cut value's continuation: raw;
     * json.lone-backslash never writes \' (json.single-quote-escape's escaped quote) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.truncate seed=%d\n"
                 "op: cand.prose-after seed=%d\n---\n{\"a\": [\"one, two\", \"three four five\"], \"b\": \"six seven\"}\n",
                 seed, seed);
        assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    }
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.lone-backslash seed=%d\n---\n"
                 "{\"a\": \"\\\\'\", \"b\": \"\\\\d+\"}\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"\\'\""));
        free(raw);
    }
    /* json.unescaped-quote leaves a string that starts or ends with an escaped quote
     * (json.string-plus split it there): unescaped it is the doubled-quotes shape */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"a\": \"\\\"hi there\", \"b\": \"ok then\\\"\"}\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"\"hi"));
        assert_null(strstr(raw, "then\"\""));
        free(raw);
    }
    /* json.prose-array never wraps one operand of json.string-plus's `"a" + "b"` (`["a "]+"b"`
     * repairs to no value); norm.enum-case keeps a backtick string's delimiters out of its value */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: investor_decision\nop: json.string-plus seed=%d\n"
                 "op: json.prose-array seed=%d\n---\n{\"investor_id\": \"i\", \"decision\": \"invest\", "
                 "\"conviction_score\": 7, \"reasoning\": \"Strong team\", \"key_conditions\": \"Board seat\"}\n",
                 seed, seed + 7);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"]+"));
        assert_null(strstr(raw, "\"] +"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: investor_decision\nop: json.backtick-string seed=%d\n"
                 "op: norm.enum-case seed=%d\n---\n{\"investor_id\": \"i\", \"decision\": \"invest\", "
                 "\"conviction_score\": 7, \"reasoning\": \"S\", \"key_conditions\": \"B\"}\n", seed, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"`"));
        free(raw);
    }
    /* a whole-artifact fence that a later wrapper indents into the artifact: raw */
    assert_int_equal(contract_of("malform-case 1\nprofile: refinement_changes\nop: yaml.code-fence seed=1\n"
                                 "op: norm.wrapper-chain seed=1\n---\nchanges:\n- type: added\n  item_id: r\n", NULL),
                     MF_CONTRACT_RAW);
    /* a field the schema enumerates (a change's type) is no value op site: its normalizer rejects others */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: refinement_changes\nop: val.quotes seed=%d\n---\n"
                 "changes:\n- type: modified\n  item_type: bead\n  item_id: t\n  description: A\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "type: modified\n"));
        free(raw);
    }
    /* yaml.colon-space never glues a lone child to its value: `sha:9f2c` alone under
     * `source:` (or alone in a list item) is the parent's plain string, valid YAML */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=%d\n---\n"
                 "source:\n  sha: 9f2c4e\nitems:\n  - id: S1\n  - id: S2\n    name: build\ntitle: Release\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "  sha: 9f2c4e\n"));
        assert_non_null(strstr(raw, "  - id: S1\n"));
        free(raw);
    }
    /* a question moved up by norm.phase-out-of-order never passes an earlier question with its id
     * (norm.duplicate-question-id's repeat): renumbering must still call the later one the duplicate */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n"
                 "op: norm.phase-out-of-order seed=%d\n---\nquestions:\n  - id: Q01\n    phase: foundation\n"
                 "    question: A?\n  - id: Q02\n    phase: structure\n    question: B?\n"
                 "  - id: Q03\n    phase: assembly\n    question: C?\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "- id: Q01\n    phase: foundation\n"));
        assert_true(strstr(raw, "- id: Q01\n    phase: foundation\n") < strstr(raw, "phase: assembly"));
        free(raw);
    }
    /* "Status update: ..." before an artifact whose first key is no top-level key of prd */
    const char *anchor = "malform-case 1\nprofile: prd\nop: cand.anchor seed=1 text=2\n---\nnot_a_prd_key: 1\n";
    assert_int_equal(contract_of(anchor, NULL), MF_CONTRACT_RAW);
}

/* Session 6's mutator false positives: each op applies only where a rule
 * promises the repair. */
static void test_session6_sites(void **state)
{
    (void)state;
    char *raw = NULL;
    /* e54db825: answer-only blocks share no id (two blocks with one id are no
     * overlay, and nothing renumbers them); full questions still get the repeat */
    static const char answer_only[] =
        "malform-case 1\nprofile: full_answers\nopts: {\"approved_interview\":{\"artifact\":\"interview\","
        "\"questions\":[{\"answer\":null,\"answer_type\":\"free_text\",\"id\":\"Q01\",\"phase\":\"foundation\","
        "\"question\":\"A?\"},{\"answer\":null,\"answer_type\":\"free_text\",\"id\":\"Q02\",\"phase\":\"structure\","
        "\"question\":\"B?\"}],\"schema_version\":1,\"status\":\"approved\",\"ticket_id\":\"W-1\"}}\n"
        "op: ctx.answer-only-blocks seed=1\nop: norm.duplicate-question-id seed=%d\n---\nschema_version: 1\n"
        "ticket_id: W-1\nstatus: approved\nquestions:\n  - id: Q01\n    phase: foundation\n    question: A?\n"
        "    answer_type: free_text\n    answer:\n      free_text: x\n      answered_at: \"2\"\n"
        "  - id: Q02\n    phase: structure\n    question: B?\n    answer_type: free_text\n    answer:\n"
        "      free_text: y\n      answered_at: \"2\"\n";
    for (int seed = 1; seed < 10; seed++) {
        char text[2048];
        snprintf(text, sizeof text, answer_only, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "question: A?"));   /* the blocks are answer-only */
        assert_non_null(strstr(raw, "- id: Q02\n"));
        free(raw);
    }
    char full[512];
    snprintf(full, sizeof full, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n---\n"
             "questions:\n  - id: Q01\n    phase: foundation\n    question: A?\n  - id: Q02\n    phase: structure\n"
             "    question: B?\n");
    assert_int_equal(contract_of(full, &raw), MF_CONTRACT_EXACT);
    assert_null(strstr(raw, "- id: Q02\n"));
    free(raw);

    /* 7de7e7c3: yaml.colon-space glues no entry of an item whose first key is
     * prose (`- malf gee: null` + `op:x` is yaml.item-colon's wrapped prose);
     * an identifier-keyed item's entry is still a site */
    bool glued = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=%d\n---\n"
                 "- malf gee: null\n  op: x\n- id: S\n  name: t\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "  op: x\n"));
        glued |= strstr(raw, "name:t") != NULL;
        free(raw);
    }
    assert_true(glued);

    /* 7a2bfcd6, 4308feb0: yaml.block-body-indent moves no body whose lines
     * on the key's column would all read as entries (`def f(x):` + deeper
     * lines: valid YAML with another value); a body with a text line there
     * still falls */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "hint: |\n  def f(x):\n      return x * 2\nnote: ok\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  def f(x):\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "hint: |\n  first line\n  Hard limits: keep\nnote: ok\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "\nfirst line\nHard limits: keep\n"));
        free(raw);
        /* run 55 4cae7258: a blank line with spaces past the body's column holds text (" ") */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "hint: |\n  first line\n   \n  Hard limits: keep\nnote: ok\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  first line\n   \n  Hard limits: keep\n"));
        free(raw);
    }

    /* b3a642eb: yaml.dash-space edits no line of a block body whose header has
     * a key no simple key matches (`(name: |`) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=%d\n---\n"
                 "steps:\n- id: S\n  (name: |\n    - first point\n    - third: with a colon\n  notes: r\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n    - first point\n    - third: with a colon\n"));
        free(raw);
    }

    /* 33d2385c, 291ac97d: yaml.property-indent moves no property with deeper
     * lines under it (a commented or quoted block header's body) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                 "steps:\n- id: S\n  name: '|-'\n    x: 1\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  name: '|-'\n"));
        free(raw);
    }

    /* run 24 6a5b2148: yaml.property-indent moves no property whose value is a
     * quoted block header: moved left, its siblings sit deeper than it, the body
     * yaml.quoted-block-indicator reads there */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                 "- type: removed\n  item_type: '|'\n  item_id: E\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  item_type: '|'\n  item_id: E\n"));
        free(raw);
    }

    /* run 27 8e4c578f: yaml.property-indent moves no property after an item key
     * with no value: deeper, it loads as that key's mapping */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                 "steps:\n  - id: \n    name: b\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: \n    name: b\n"));
        free(raw);
        /* run 40 daa5a118-r79e287db: a value that is only a comment is no value */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                 "steps:\n  - id: #\n    name: b\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: #\n    name: b\n"));
        free(raw);
    }

    /* run 27 da2994e1 (session 12, r27iview): yaml.property-indent moves no
     * property deeper under an item key's quoted block header (`- owner: '|'`):
     * there it is the body yaml.quoted-block-indicator reads; after a plain
     * value it still moves */
    static const char *const quoted_headers[] = {"'|'", "\"|-\"", "'>'"};
    bool item_prop_moved = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        for (size_t h = 0; h < sizeof quoted_headers / sizeof *quoted_headers; h++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                     "- owner: %s\n  rationale: r\n  profile: g\n", seed, quoted_headers[h]);
            contract_of(text, &raw);
            if (!strstr(raw, "\n  rationale: r\n  profile: g\n"))
                fail_msg("seed %d: a property moved under %s:\n%s", seed, quoted_headers[h], raw);
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                 "- owner: p\n  rationale: r\n  profile: g\n", seed);
        contract_of(text, &raw);
        item_prop_moved = item_prop_moved || !strstr(raw, "\n  rationale: r\n");
        free(raw);
    }
    assert_true(item_prop_moved);

    /* run 27 b054ff5a, cf9eaf27 (session 12, r27yprop): no property sits deeper than an
     * item key whose quote is left open (`- gap: "E` + `        resolution: r`): the open
     * value may end before it or take it in. yaml.property-indent moves no property after
     * such a key, yaml.unclosed-quote opens no quote above a deeper line; the quote still
     * opens over a line at the item's property column when it sits off it */
    static const char *const open_keys[] = {"\"E", "'E", "\"E\\\""};
    bool off_column_opened = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        for (size_t k = 0; k < sizeof open_keys / sizeof *open_keys; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                     "items:\n  - gap: %s\n    resolution: r\n", seed, open_keys[k]);
            contract_of(text, &raw);
            if (!strstr(raw, "\n    resolution: r\n"))
                fail_msg("seed %d: a property moved under %s:\n%s", seed, open_keys[k], raw);
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "items:\n  - gap: \"t\"\n      resolution: r\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "gap: \"t\"\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "items:\n  - id: a\n   title: \"x\"\n    description: y\n", seed);
        contract_of(text, &raw);
        off_column_opened = off_column_opened || strstr(raw, "title: \"x\n");
        free(raw);
    }
    assert_true(off_column_opened);

    /* run 27 277a88b4 (session 12, r27yprop): yaml.property-indent moves no property whose
     * list follows at its own column (`tags:` / `tags: - ci` + `  - fast`): the dashes left
     * behind read as its list or as the next item's, drifted */
    static const char *const list_keys[] = {"tags:\n  - ci", "tags: - ci"};
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        for (size_t k = 0; k < sizeof list_keys / sizeof *list_keys; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n---\n"
                     "- name: b\n  %s\n  - fast\n", seed, list_keys[k]);
            contract_of(text, &raw);
            if (!strstr(raw, "\n  tags:"))
                fail_msg("seed %d: %s moved off its list:\n%s", seed, list_keys[k], raw);
            free(raw);
        }
    }

    /* run 27 014002a2 (session 12, r27yprop): yaml.sequence-indent-drift drifts no dash
     * deeper than a quoted block header ending the item before (`notes: '|'`): there it is
     * the header's body for yaml.quoted-block-indicator; it still drifts less */
    bool drifted_left_of_header = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n- id: Q\n  text: |+\n    ends\n\n  notes: '|'\n- id: R\n  text: p\n", seed);
        contract_of(text, &raw);
        if (strstr(raw, "\n   - id: R"))
            fail_msg("seed %d: the dash drifted under notes: '|':\n%s", seed, raw);
        drifted_left_of_header = drifted_left_of_header || strstr(raw, "\n - id: R") || strstr(raw, "\n  - id: R");
        free(raw);
    }
    assert_true(drifted_left_of_header);

    /* 01f08cf4: yaml.inline-sequence-parent moves a `- id:` item whose key's
     * list follows only when a later row sets the item's column */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "steps:\n- id:\n  - S1\nnote: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "steps:\n- id:\n"));
        free(raw);
        /* run 41 5b7c39f5: nor one whose key's mapping follows, deeper than its key */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "tags:\n  - ceeds:\n      os: linux\nnote: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "tags:\n  - ceeds:\n"));
        free(raw);
        /* run 41 77daee97: nor a nested block item whose body starts with a dash, even
         * with a later row (`- - |` + `    - first point` ... `- - 3`) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "matrix:\n- - |\n    - first point\n- - 3\nnote: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "matrix:\n- - |\n"));
        free(raw);
        /* run 42 73fd0db0: nor an item whose first property drifted left of its key column */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "items:\n  - id: Q\n   text: W\n    notes: x\nowner: a\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "items:\n  - id: Q\n"));
        free(raw);
        /* run 42 2afbd75d: json.string-plus splits no string inside an open `${ ...` */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.string-plus seed=%d\n---\n"
                 "{\"a\": \"Wire${ the helper ${due} in\"}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"Wire${ the helper ${due} in\""));
        free(raw);
        /* run 45 342f00fc: `steps: - name: |#  c` (an item moved up onto its key) opens a block:
         * yaml.colon-space glues no `key: value` of its body */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=%d\n---\n"
                 "steps: - name: |#  c\n    Config:\n    status: example value\n  tags: [a]\nowner: b\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "    status: example value\n"));
        free(raw);
        /* run 46 eea051: norm.duplicate-question-id counts a later `id  : Q04` (blanks before
         * its colon), which raises the number core renumbers to */
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    question: A?\n  - id: Q02\n    question: B?\n  - id: Q03\n"
                 "    question: C?\n  - id  : Q04\n    question: D?\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "id: Q03"));
        free(raw);
        /* run 46 fa061f: nor behind a role-prefixed header (`[error] title: |`) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=%d\n---\n"
                 "[error] title: |\n  Config:\n  status: example value\nowner: b\nnotes: c\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  status: example value\n"));
        free(raw);
        /* run 45 4a550c23: norm.answer-fields-sibling leaves no `answer:` empty above a sibling
         * that names an answer child (`selected:`): yaml.nested-children would take it in */
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: norm.answer-fields-sibling seed=%d\n---\n"
                 "questions:\n- id: Q02\n  phase: structure\n  question: P\n  answer:\n    answered_by: a\n"
                 "  selected:\n  - icu\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  answer:\n    answered_by: a\n"));
        free(raw);
        /* json.bare-big-number unquotes only digits no double holds exactly: 2^64 stays quoted
         * (json.big-number keeps that one a number), 12345678901234567890 goes bare */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.bare-big-number seed=%d\n---\n"
                 "{\"a\": \"18446744073709551616\", \"b\": \"12345678901234567890\", \"c\": \"0123456789012345678901\"}\n",
                 seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"18446744073709551616\""));
        assert_non_null(strstr(raw, ": 12345678901234567890"));
        assert_non_null(strstr(raw, "\"0123456789012345678901\""));
        free(raw);
        /* run 41 d27f1a7a: yaml.invalid-escape quotes no item moved up onto its key's line */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                 "needs:\n  arch: - \\'\n  os: linux\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  arch: - \\'\n"));
        free(raw);
    }

    /* e703b8d3: yaml.inline-sequence-parent moves no bare `-` up to its key
     * (`steps: -` is the string "-" or a list of one null item) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "steps:\n  -\nnote: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "steps:\n  -\n"));
        free(raw);
    }

    /* 69c41356: yaml.block-body-indent lets no body fall above a line with a
     * non-identifier key, which the rule reads as more text of the fallen body */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "- content: |-\n    line one\n    line two\n  <\"flags\": x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n    line one\n"));
        free(raw);
    }
    /* run 48 162cdea3: nor above an identifier glued by a ':' to a rest holding a later key
     * separator (`target_ed_aT08:00:users:`, the key the loader reads is the longer one);
     * above one yaml.colon-space spaces (`target:08:00`) it still falls */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "product:\n  problem: |-\n    T\n  target_ed_aT08:00:users:\n    - x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n    T\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "product:\n  problem: |-\n    T\n  target:08:00\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  T\n"));
        free(raw);
    }

    /* 5e4327db: yaml.unclosed-flow leaves a `- [3, 4]` line that continues a
     * plain scalar (`-n ` above it): its brackets are text; a real item is a site */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n"
                 "matrix:\n  -n \n  - [3, 4]\nnote: d\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  - [3, 4]\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n"
                 "matrix:\n  - n\n  - [3, 4]\nnote: d\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "  - [3, 4\n"));
        free(raw);
    }
    /* yaml.inline-sequence-parent moves no lone row of nested lists up to its key
     * ("matrix: - - 1" + "  - 2" is [[1], 2] or [[1, 2]]); with a later row it does */
    bool moved = false;
    for (int rows = 1; rows <= 2; rows++)
        for (int seed = 1; seed < 20; seed++) {
            char text[300];
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d"
                     "\n---\nmatrix:\n- - 1\n  - 2\n%snote: x\n", seed, rows == 2 ? "- - 3\n  - 4\n" : "");
            contract_of(text, &raw);
            if (rows == 1)
                assert_null(strstr(raw, "matrix: -"));
            else
                moved |= strstr(raw, "matrix: - - 1") != NULL;
            free(raw);
        }
    assert_true(moved);
    /* ad22c47b: a closer behind a transcript role prefix is still the closer,
     * so a second yaml.front-matter-closer finds no site (stacked `---` lines
     * around a one-scalar document are empty documents) */
    static const char two[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=463435470551268727\n"
                              "op: cand.transcript-prefix seed=12150197194478713921\n%s---\ns\n";
    char t2[400], t3[400];
    char *r2 = NULL, *r3 = NULL;
    snprintf(t2, sizeof t2, two, "");
    snprintf(t3, sizeof t3, two, "op: yaml.front-matter-closer seed=14036941067544723876\n");
    contract_of(t2, &r2);
    contract_of(t3, &r3);
    assert_string_equal(r2, r3);
    free(r2);
    free(r3);
}

/* Session 7's mutator false positives. b6983709: norm.inspiration-string
 * takes no label whose value spans lines (a block scalar whose header
 * carries a glued comment, `label: |#  - [ ] todo`, read as a header by
 * the line scan): the bare string would lose the body; a one-line label
 * is still a site. */
static void test_session7_sites(void **state)
{
    (void)state;
    char *raw = NULL;
    static const char block_label[] =
        "malform-case 1\nprofile: refinement_changes\nop: yaml.block-header-comment seed=1\n"
        "op: norm.inspiration-string seed=1\n---\nchanges:\n  - type: modified\n    item_id: t\n"
        "    inspiration:\n      label: |\n        - first point\n        - second\n";
    contract_of(block_label, &raw);
    assert_non_null(strstr(raw, "label: |#"));
    assert_non_null(strstr(raw, "- first point\n"));
    free(raw);
    static const char line_label[] =
        "malform-case 1\nprofile: refinement_changes\nop: norm.inspiration-string seed=1\n---\nchanges:\n"
        "  - type: modified\n    item_id: t\n    inspiration:\n      label: Short label\n";
    assert_int_equal(contract_of(line_label, &raw), MF_CONTRACT_EXACT);
    assert_non_null(strstr(raw, "inspiration: Short label\n"));
    free(raw);
}

/* session 7 run 7 (prof1): the ops of the interview and full_answers lists keep the text's
 * end where it is. norm.phase-out-of-order moves no last item that carries terminal noise
 * (839106b1, 57ca277e) or an emitter's `...` (b897282a) up into the list; and
 * norm.answer-fields-sibling moves no answer field that is the text's last line, which
 * would leave the line above it (an unclosed `[icu`) last, read as cut off (ed37e91e). */
static void test_session7_prof1_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[700], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: cand.ansi-noise seed=954752385084790170\n"
                 "op: norm.phase-out-of-order seed=%d\n---\nquestions:\n  - id: Q03\n    phase: structure\n"
                 "    question: S\n  - id: Q04\n    phase: assembly\n    question: H\n", seed);
        contract_of(text, &raw);
        const char *esc = strchr(raw, '\x1b');
        if (esc) {
            const char *nl = strchr(esc, '\n');
            while (nl && (nl[1] == ' ' || nl[1] == '\n' || nl[1] == '\x1b' || nl[1] == '\r'))
                nl = strchr(nl + 1, '\n');
            if (nl && nl[1])
                fail_msg("seed %d: noise moved into the list:\n%s", seed, raw);
        }
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n- id: Q03\n  phase: structure\n  question: S\n- id: Q04\n  phase: assembly\n"
                 "  question: H\n  rationale: |+\n    ends with newlines\n\n...\n", seed);
        contract_of(text, &raw);
        size_t n = strlen(raw);
        assert_true(n >= 4 && !strcmp(raw + n - 4, "...\n"));
        assert_int_equal(strstr(raw, "\n...") - raw, (long)(n - 5));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: yaml.unclosed-flow seed=1\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q02\n    phase: structure\n"
                 "    question: P\n    answer:\n      selected: [icu]\n      answered_at: \"2\"\n", seed);
        contract_of(text, &raw);
        n = strlen(raw);
        assert_true(n > 18 && strstr(raw + n - 18, "answered_at: \"2\"\n"));
        free(raw);
        /* yaml.nested-children flattens no children followed by a sibling that is a whitelisted
         * child too: `selected: []` beside `answer:` would join them (259489cd) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.nested-children seed=%d\n---\n"
                 "questions:\n  - id: Q04\n    phase: assembly\n    question: I\n    answer:\n      skipped: false\n"
                 "    selected: []\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "      skipped: false\n"));
        free(raw);
        /* yaml.front-matter-closer opens no front matter above a transcript role prefix (638f1c87) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: refinement_changes\nop: cand.transcript-prefix seed=12312229364924943244\n"
                 "op: yaml.front-matter-closer seed=%d\n---\nchanges:\n  - type: added\n    item_id: r\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "---\n["));
        free(raw);
        /* yaml.duplicate-key repeats no line whose quoted value stays open (5af787ea) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.duplicate-key seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: \"\nstgres or SQLite?\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "    phase: foundation\n    question: \"\nstgres"));
        free(raw);
        /* yaml.duplicate-key repeats no line whose flow collection stays open: the copy
         * alone holds a cut flow (`matrix: - [1` + `, 2]` at column 0; run 26 e703b8d3) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                 "op: yaml.duplicate-key seed=%d\n---\nmatrix:\n  - [1\n, 2]\n  - [3, 4]\nnote: done\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "matrix: - [1\nmatrix: - [1\n"));
        free(raw);
        /* yaml.property-indent moves no property whose flow collection stays open (43d60ca2) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.unclosed-flow seed=1\n"
                 "op: yaml.property-indent seed=%d\n---\nquestions:\n  - id: Q01\n    phase: foundation\n"
                 "    question: W\ncoverage:\n  gap_resolutions:\n    - gap: x\n      question_ids: [Q01]\n"
                 "      resolution: A\n", seed);
        contract_of(text, &raw);
        if (strstr(raw, "[Q01\n"))
            assert_non_null(strstr(raw, "\n      question_ids: [Q01\n      resolution: A\n"));
        free(raw);
    }
}

/* Run 7 (yaml): a block scalar under a quoted key holding ':' is block text:
 * yaml.duplicate-key never repeats one of its body lines (e8b26160). */
static void test_session7_yaml_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.duplicate-key seed=%d\n---\n"
                 "- bead_id: a\n  \"summary:pecheck\": |-\n    The header reads\n\n    status: draft\n"
                 "    and stays text.\n  checks: t\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "status: draft\n    status: draft"));
        free(raw);
    }
    /* yaml.inline-sequence-parent moves up no item without a simple key that holds ': '
     * (`steps: - i   name: b` reads as [i] + name: b too; e703b8d3-r019ed773, ae0aed34)
     * nor a `- |` item whose body lines start with a dash (01f08cf4-r02a144d5) */
    char *raw = NULL;
    static const char spaced_key[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                     "---\nsteps:\n  - i   name: b\n    notes: x\n";
    contract_of(spaced_key, &raw);
    assert_null(strstr(raw, "steps: -"));
    free(raw);
    static const char dash_body[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                    "---\nnote:\n- |\n  - [ ] todo item\n  - [x] done item\n";
    contract_of(dash_body, &raw);
    assert_null(strstr(raw, "note: -"));
    free(raw);
    /* nor a plain item whose text goes on over a deeper `- ` line (`  - \\` + `   - \\`: a
     * drifted sibling too, e703b8d3-rc3aba82b); a plain item with a sibling still moves */
    static const char dash_text[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                    "---\nmatrix:\n  - \\\n   - \\\n  - [3, 4]\n";
    contract_of(dash_text, &raw);
    assert_null(strstr(raw, "matrix: -"));
    free(raw);
    static const char plain_items[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                      "---\nmatrix:\n  - a\n  - b\n";
    contract_of(plain_items, &raw);
    assert_non_null(strstr(raw, "matrix: - a"));
    free(raw);
    /* yaml.item-colon unquotes no item holding a control character (a lone CR breaks the
     * line: a030cafb) nor one whose text after ': ' starts a flow collection (7c0905fe) */
    static const char cr_item[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1\n---\n"
                                  "tips:\n  - \"Cache it: it sa\res ten\"\n  - N\n";
    contract_of(cr_item, &raw);
    assert_non_null(strstr(raw, "- \"Cache it: it sa\res ten\""));
    free(raw);
    static const char flow_item[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1\n---\n"
                                    "tips:\n  - \"Cache it: [t saves\"\n  - N\n";
    contract_of(flow_item, &raw);
    assert_non_null(strstr(raw, "- \"Cache it: [t saves\""));
    free(raw);
    /* yaml.reserved-indicator (and the other unquoting ops) leave a quoted value with a lone CR (41987e93) */
    static const char cr_reserved[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.reserved-indicator seed=8\n---\n"
                                      "handle: \"@trace/span\rid\"\n";
    contract_of(cr_reserved, &raw);
    assert_non_null(strstr(raw, "handle: \"@trace/span\rid\""));
    free(raw);
    /* yaml.colon-space glues no value that starts with a quote not closing it (ff4800cf) */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.colon-space seed=%d\n---\n"
                 "handle: \"pink\" is accepted\nhint: '`'\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "handle:\""));
        free(raw);
    }
    /* yaml.quoted-fragment unquotes no value whose fragment is empty (ca984e1b) */
    static const char empty_fragment[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-fragment seed=1\n---\n"
                                         "motto: '\"\" is a'\n";
    contract_of(empty_fragment, &raw);
    assert_non_null(strstr(raw, "motto: '\"\" is a'"));
    free(raw);
    /* yaml.quoted-fragment unquotes no fragment that a ':' or ',' follows (run 22, 6dbabe2a) */
    static const char *const spaced_frag[] = {"motto: '\"pink\" :s accepted'\n", "motto: '\"pink\" ,s accepted'\n"};
    for (size_t k = 0; k < 2; k++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-fragment seed=8\n---\n%s",
                 spaced_frag[k]);
        contract_of(text, &raw);
        assert_string_equal(raw, spaced_frag[k]);
        free(raw);
    }
    /* yaml.item-colon unquotes no item beside a `?` or tag item, no string for the rule (run 22 d0ba0efa) */
    static const char odd_sibling[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=1\n---\n"
                                      "tips:\n  - Always run\n  - \"Cache the build: it saves time\"\n  - ?ever push\n";
    contract_of(odd_sibling, &raw);
    assert_non_null(strstr(raw, "  - \"Cache the build: it saves time\"\n"));
    free(raw);
    /* yaml.block-body-indent drops no body holding a spaced-colon key line (run 22 1416693c) */
    static const char spaced_colon_body[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=1\n"
                                            "---\na: 1\nnotes: |-\n  first : line\n  se\n";
    contract_of(spaced_colon_body, &raw);
    assert_string_equal(raw, "a: 1\nnotes: |-\n  first : line\n  se\n");
    free(raw);
    /* yaml.doubled-quotes doubles no quotes on a dash line that continues a plain scalar (run 22 1c7f09b5) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.doubled-quotes seed=%d\n---\n"
                 "tips:\n  -4Always run\n  - \"C4 it saves\"\nlist:\n  - \"kept\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  - \"C4 it saves\"\n"));
        assert_non_null(strstr(raw, "  - \"\"kept\"\"\n"));
        free(raw);
    }
    /* yaml.doubled-quotes doubles no quotes around a value holding ': ' (da55132e) */
    static const char colon_value[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.doubled-quotes seed=1\n---\n"
                                      "items:\n- id: Q\n  text: x\n  notes: 'fi   text: p'\n";
    contract_of(colon_value, &raw);
    assert_non_null(strstr(raw, "notes: 'fi   text: p'"));
    free(raw);
    /* yaml.unclosed-flow leaves a collection a later closer could close (5e4327db-r3e379edd) */
    static const char later_closer[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=2\n---\n"
                                       "matrix:\n  - [1, 2]\n  - 4]\n";
    contract_of(later_closer, &raw);
    assert_non_null(strstr(raw, "- [1, 2]\n"));
    free(raw);
    /* yaml.dash-space takes no space from a dash at a mapping's property column whose key is
     * not the item's first (`-id: Q` there is a key; 5460ba71-r23ad4cef) */
    static const char prop_col[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=3\n---\n"
                                   "items:\n  - itrued: Q\n    notes: |-\n    - id: Q\n";
    contract_of(prop_col, &raw);
    assert_null(strstr(raw, "    -id: Q"));
    free(raw);
    /* yaml.sequence-indent-drift moves no dash so far that a text line continuing its item's
     * value is no longer deeper than the key (f300d688) */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n  - id: Q\n    notes: |-\n  - id: Q\n      text:' pl\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "    - id: Q\n"));
        free(raw);
    }
}

/* yaml.dash-space takes no space from an item whose next line is a plain key at
 * its column (a compact list's parent key, `  op: v`): `-notes: malf` there is the
 * key "-notes" core reads (run 15 a5b27835, 66a220e0, f01d4e4e); after the item
 * `- id: Q` a repeated `-id:` is the next item and stays a site. */
static void test_dash_space_before_parent_key(void **state)
{
    (void)state;
    bool repeat_glued = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=%d\n---\n"
                 "- items:\n  - id: Q\n  - notes: malf\n  op: v\n- hint: x\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "-notes"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=%d\n---\n"
                 "- items:\n  - id: Q\n  - id: R\n  op: v\n- hint: x\n", seed);
        contract_of(text, &raw);
        repeat_glued |= strstr(raw, "  -id: R\n") != NULL;
        free(raw);
    }
    assert_true(repeat_glued);
}

/* json.unescaped-quote leaves an array item whose first inner quote is followed by
 * blanks and text (`"hi\\" twice"`): unescaped, core reads the item "hi" and the item
 * `twice"` missing its comma and open quote (run 15 39c80a68, e38ec2cc); a member
 * value with the same text stays a site. */
static void test_inner_quote_array_item_sites(void **state)
{
    (void)state;
    bool member_unescaped = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\"tasks\": [\"id\", \"hi\\\" twice\"], \"quote\": \"hi\\\" twice\"}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "[\"id\", \"hi\\\" twice\"]"));
        member_unescaped |= strstr(raw, "\"quote\": \"hi\" twice\"") != NULL;
        free(raw);
    }
    assert_true(member_unescaped);
}

/* Sites around YAML markers: a body under a commented block header stays
 * block text, a drifted dash never becomes an empty block's text, and a
 * sentence after a closing `---` is the second document core keeps. */
static void test_yaml_marker_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 30; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-header-comment seed=%d\n"
                 "op: yaml.colon-space seed=%d\n---\nsummary: |\n  note: this is text\ntitle: done\n", seed, seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  note: this is text\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\nsteps:\n  - id: S\n    notes: |-\n  - id: T\n    name: t\n", seed);
        contract_of(text, &raw);
        const char *t = strstr(raw, "- id: T");
        assert_non_null(t);
        const char *ls = t;
        while (ls > raw && ls[-1] != '\n')
            ls--;
        assert_true(t - ls <= 4); /* at or left of `notes: |-`: never its text */
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=%d\n"
                 "op: cand.prose-after seed=1 text=1\n---\na: 1\nb: two\n", seed);
        assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
        /* a wrapper after the closer indents the `---` into the artifact: no marker left for the rule */
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.front-matter-closer seed=%d\n"
                 "op: norm.wrapper seed=2\n---\nbead_id: x\nstatus: done\nsummary: ok\n", seed);
        assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
        /* a `|-` inside a multi-line double-quoted scalar is text: no header site */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-header-comment seed=%d\n"
                 "---\nhint: \"\n    notes: |-\n      run?\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "notes: |-\n"));
        free(raw);
        /* zero-indented lists: a drift of 2 would put the dash on the inner list's column */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\nepics:\n- id: E1\n  story: |-\n    text\n  stories:\n  - id: S1\n- id: E2\n  title: t\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n  - id: E2"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=%d\n"
                 "op: yaml.front-matter-closer seed=%d\n---\na: 1\nb: two\n", seed, seed + 1);
        contract_of(text, &raw);
        const char *closer = strstr(raw, "b: two\n---");
        assert_non_null(closer);
        assert_null(strstr(closer + 10, "---")); /* one closer: the second op finds no site */
        free(raw);
    }
}

/* Run 6 (json): JSON token ops keep to the sites their rules promise.
 * A key json.missing-colon took the colon of is no backtick-string site; a
 * quote after a string ('+', missing colon) opens a string to the scanner, so
 * no comma or space is put inside it; json.single-quotes leaves fence lines
 * alone; json.omit-required drops every '+' operand of the value; and
 * json.concatenated has no site in an array profile's wrapped artifact. */
static void test_run6_json_sites(void **state)
{
    (void)state;
    char text[700], *raw = NULL;
    int backticked = 0;
    for (int seed = 1; seed < 40; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.missing-colon seed=%d\n"
                 "op: json.backtick-string seed=%d\nop: json.backtick-string seed=%d\n---\n"
                 "{\"a\": \"xx\", \"b\": \"yy\", \"c\": \"zz\"}\n", seed, seed + 7, seed + 13);
        contract_of(text, &raw);
        assert_null(strstr(raw, "`a`"));
        assert_null(strstr(raw, "`b`"));
        assert_null(strstr(raw, "`c`"));
        backticked += strstr(raw, "`xx`") || strstr(raw, "`yy`") || strstr(raw, "`zz`");
        free(raw);
    }
    assert_true(backticked > 0);
    for (int seed = 1; seed < 40; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.missing-colon seed=%d\n"
                 "op: json.backtick-string seed=%d\nop: json.trailing-comma seed=%d\n---\n"
                 "{\"cmd\": \"echo ${HOME}\", \"b\": \"y\"}\n", seed, seed, seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "${HOME}"));
        free(raw);
    }
    for (int seed = 1; seed < 40; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.string-plus seed=%d\n"
                 "op: json.single-quotes seed=%d\nop: json.unicode-space seed=%d\n---\n"
                 "{\"d\": \"a, b: c, d\"}\n", seed, seed, seed + 3);
        contract_of(text, &raw);
        assert_null(strstr(raw, ",\xc2"));
        assert_null(strstr(raw, ",\xe2"));
        assert_null(strstr(raw, ",\xef"));
        assert_null(strstr(raw, "b:\xc2"));
        assert_null(strstr(raw, "b:\xe2"));
        assert_null(strstr(raw, "b:\xef"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.fence seed=%d\n"
                 "op: json.single-quotes seed=%d\n---\n{\"a\": \"x\"}\n", seed, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "''`"));
        assert_null(strstr(raw, "'`"));
        free(raw);
    }
    snprintf(text, sizeof text, "malform-case 1\nprofile: investor_decision\n"
             "op: json.string-plus seed=9923858275827496519\nop: json.omit-required seed=8\n---\n"
             "{\n  \"investor_id\": \"i\",\n  \"decision\": \"invest\",\n  \"conviction_score\": 7,\n"
             "  \"reasoning\": \"S\",\n  \"key_conditions\": \"B\",\n  \"funding_ask\": \"2\",\n"
             "  \"market_size_estimate\": \"5B USD\"\n}\n");
    contract_of(text, &raw);
    assert_null(strstr(raw, "\"market_size_estimate\""));
    assert_null(strstr(raw, "USD"));
    free(raw);
    for (int seed = 1; seed < 20; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: artifact_files\nop: norm.wrapper seed=%d\n"
                 "op: json.concatenated seed=%d\n---\n[\n  {\n    \"filename\": \"j\",\n    \"content\": \"-\"\n  }\n]\n",
                 seed, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"status\": \"ok\""));
        assert_null(strstr(raw, "draft 1"));
        free(raw);
    }
    /* json.literal-newline never makes a fenced sample in a string into fence lines of the output */
    for (int seed = 1; seed < 20; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.literal-newline seed=%d\n---\n"
                 "{\"d\": \"Out:\\n```json\\n{}\\n```\\n\", \"e\": \"a\\nb\"}\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n```"));
        assert_non_null(strstr(raw, "a\nb"));
        free(raw);
    }
    /* afl run (session 6): a fence line after prose ending in ':' is no backtick string to
     * the token scan, so a token op never lands inside a string holding a backtick */
    for (int seed = 1; seed < 20; seed++) {
        const char *ops[] = {"json.trailing-comma", "json.ellipsis-item"};
        for (int j = 0; j < 2; j++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.fence-wrong-tag seed=%d prose=1\n"
                     "op: %s seed=%d\n---\n[{\"a\": \"x `<P>` {z} [w]\", \"b\": [1, 2]}, {\"c\": 3}]\n", seed, ops[j], seed);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, "\"x `<P>` {z} [w]\""));
            free(raw);
        }
    }
    /* afl run (session 6): markdown file blocks wrapped in brackets, then a token op
     * landing in them ("2 decimals" made "+2 decimals"): raw */
    snprintf(text, sizeof text, "malform-case 1\nprofile: artifact_files\n"
             "opts: {\"expected_files\":[\"README.md\",\"SPEC.md\"]}\nop: shape.artifact-markdown seed=3\n"
             "op: norm.wrapper-chain seed=16429820223809348715\nop: json.number-format seed=9289458292282896628\n---\n"
             "[\n  {\n    \"filename\": \"README.md\",\n    \"content\": \"# Invoice templates\\n\\nRender with `make pdf`; "
             "fonts live in assets/fonts.\"\n  },\n  {\n    \"filename\": \"SPEC.md\",\n    \"content\": \"## Totals\\n\\n"
             "- Net, VAT (19 %%) and gross per line\\n- Rounding: half-up to 2 decimals\"\n  }\n]\n");
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
    assert_non_null(strstr(raw, "+2 decimals"));
    free(raw);
    /* norm.task-id-variant rewrites only the ids core normalizes: /tasks/N/task_id (ops_norm.c) */
    int rewritten = 0;
    for (int seed = 1; seed < 20; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: task_breakdown\nop: norm.task-id-variant seed=%d\n---\n"
                 "{\"story_id\": \"US-1\", \"tasks\": [{\"task_id\": \"T-US-1-01\", \"description\": \"d\", "
                 "\"x\": [{\"task_id\": \"T-US-1-02\"}]}]}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"T-US-1-02\""));
        rewritten += strstr(raw, "\"T-US-1-01\"") == NULL;
        free(raw);
    }
    assert_true(rewritten > 0);
}

static size_t count_of(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p++)
        n++;
    return n;
}

/* cand.reasoning (ops_cand_reasoning.c): a leading reasoning block, exact
 * while it opens the text and the answer after it is the artifact; raw when
 * other text led already or a later op moved the block off the start; a
 * draft inside only beside an answer that parses; no site where a reasoning
 * tag stands in the text already. */
static void test_cand_reasoning(void **state)
{
    (void)state;
    char text[700], *raw = NULL;
    int drafts = 0, tags[3] = {0}, upper = 0;
    for (int seed = 1; seed < 40; seed++) {
        const char *prof[] = {"generic_json", "generic_yaml"};
        const char *body[] = {"{\"status\": \"done\", \"retries\": 2}\n", "status: done\nretries: 2\n"};
        for (int j = 0; j < 2; j++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: %s\nop: cand.reasoning seed=%d\n---\n%s", prof[j], seed,
                     body[j]);
            assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
            assert_true(raw[0] == '<');
            assert_non_null(strstr(raw, body[j]));
            drafts += strstr(raw, "draft") != NULL;
            tags[0] += strncasecmp(raw, "<think>", 7) == 0;
            tags[1] += strncasecmp(raw, "<thinking>", 10) == 0;
            tags[2] += strncasecmp(raw, "<reasoning>", 11) == 0;
            upper += isupper((unsigned char)raw[1]) != 0;
            free(raw);
        }
    }
    assert_true(drafts > 0 && tags[0] > 0 && tags[1] > 0 && tags[2] > 0 && upper > 0);
    /* the JSON draft: the artifact with its first value changed, inside the block */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.reasoning seed=1 draft=1 inline=0 tag=0 case=0\n"
             "---\n{\"status\": \"done\", \"retries\": 2}\n");
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
    char *close = strstr(raw, "</think>");
    assert_non_null(close);
    char *d = strstr(raw, "{\"status\": \"draft\", \"retries\": 2}");
    assert_true(d && d < close);
    free(raw);
    /* no draft beside an answer that does not parse, nor one holding a closing tag */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.trailing-comma seed=1\n"
             "op: cand.reasoning seed=1 draft=1 inline=0\n---\n{\"status\": \"done\", \"retries\": 2}\n");
    contract_of(text, &raw);
    assert_null(strstr(raw, "draft"));
    free(raw);
    /* a reasoning tag in the text already (here in the data): no site */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.reasoning seed=1 draft=1 inline=0 tag=0 case=0\n"
             "---\n{\"note\": \"</think> ends it\", \"n\": 2}\n");
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
    assert_true(raw[0] == '{');
    free(raw);
    /* afl run (session 6): a block, a fence around it, a second block before the fence:
     * the first block now stands inside the fenced answer, which no rule cuts */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.reasoning seed=259522411091081308\n"
             "op: cand.fence seed=13253406710945002167\nop: cand.reasoning seed=17914727868330948320\n---\n"
             "title: Release checklist\nowner: platform-team\n");
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
    assert_true(strncasecmp(raw, "<think", 6) == 0 || strncasecmp(raw, "<reasoning", 10) == 0 || strncmp(raw, "Here", 4) == 0 ||
                raw[0] == '`');
    free(raw);
    /* afl run (session 6): a draft, then the answer truncated: core takes the whole draft */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.reasoning seed=1 draft=1 inline=0\n"
             "op: json.truncate seed=12142306967099037034 marker=5\n---\n{\"status\": \"done\", \"retries\": 2}\n");
    assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: cand.reasoning seed=1 draft=0\n"
             "op: json.truncate seed=12142306967099037034 marker=5\n---\n{\"status\": \"done\", \"retries\": 2}\n");
    assert_int_equal(contract_of(text, NULL), MF_CONTRACT_SUBSET);
    /* other text leads already: prose, role prefixes, a fence, a tag envelope */
    const char *leads[] = {"cand.prose-before seed=1", "cand.transcript-prefix seed=1", "cand.fence seed=1",
                           "cand.tag-envelope seed=1 prose=0", "cand.schema-echo seed=1"};
    for (size_t i = 0; i < sizeof leads / sizeof *leads; i++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: %s\nop: cand.reasoning seed=2\n---\n"
                 "bead_id: b-1\nstatus: done\n", leads[i]);
        mf_contract k = contract_of(text, NULL);
        assert_true(k == MF_CONTRACT_RAW || (i == 4 && k == MF_CONTRACT_REJECT));
        /* ... or a later op moves the block off the start */
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: cand.reasoning seed=2\nop: %s\n---\n"
                 "bead_id: b-1\nstatus: done\n", leads[i]);
        assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    }
    snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: cand.reasoning seed=2\nop: norm.wrapper seed=2\n"
             "---\nbead_id: b-1\nstatus: done\n");
    assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    /* an empty or one-scalar artifact: the block is as much the document */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.reasoning seed=2\n---\ndone\n");
    assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    /* a second block after the first is no leading block: no site */
    snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.reasoning seed=2 tag=0\n"
             "op: cand.reasoning seed=3 tag=0\n---\na: 1\n");
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
    assert_int_equal(count_of(raw, "</"), 1);
    free(raw);
}

static void test_op_fixtures(void **state)
{
    (void)state;
    size_t total = 0, failed = 0;
    for (size_t i = 0; i < mf_ops_count(); i++) {
        const mf_op *op = mf_ops_at(i);
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", OPS_DIR, op->id);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            if (!strstr(e->d_name, ".case"))
                continue;
            char path[1024], rel[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            snprintf(rel, sizeof rel, "%s/%s", op->id, e->d_name);
            char *why = run_fixture(path, op);
            bool open = known_open(rel);
            total++;
            if (why && !open) {
                print_error("FAIL %s: %s\n", rel, why);
                failed++;
            } else if (!why && open) {
                print_error("FIXED %s passes now: remove it from known-open.txt\n", rel);
                failed++;
            }
            free(why);
        }
        closedir(d);
    }
    print_message("%zu op fixtures, %zu unexpected\n", total, failed);
    assert_true(total >= mf_ops_count());
    assert_int_equal(failed, 0);
}

/* Run 16 (session 10, drift): ops stacked on the drift family's texts.
 * norm.phase-out-of-order moves no question while a dash drifted into the item
 * above hides a question from its line model (`   - id: Q02` + `  phase:`):
 * Q03 passed Q02 and the rule's stable sort kept it there (cb73a04d).
 * yaml.sequence-indent-drift drifts no sibling whose first property
 * yaml.property-indent moved off its content column (9b22660d), and nothing in a
 * text where an empty block header is followed on its key's column by a line
 * yaml.block-body-indent takes in as its text (`A fid line:`, 92985ac5-r09e077d4).
 * norm.wrapper indents the line after a lone CR too (e83b7adf). */
static void test_run16_drift_stacks(void **state)
{
    (void)state;
    char text[700], *raw = NULL;
    for (unsigned long long seed = 0; seed < 40; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\n"
                 "op: yaml.sequence-indent-drift seed=13669779637880689082\n"
                 "op: val.guard-block-dash seed=2405359385871966790\nop: norm.phase-out-of-order seed=%llu\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n    answer:\n      free_text: \"\"\n"
                 "  - id: Q02\n    phase: structure\n    question: \"W\"\n  - id: Q03\n    phase: structure\n"
                 "    question: \"D\"\n", seed ? seed : 8802725015825387566ULL);
        contract_of(text, &raw);
        assert_null(strstr(raw, "questions:\n- id: Q03"));
        free(raw);
    }
    for (int seed = 1; seed < 40; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.property-indent seed=%d\n"
                 "op: yaml.sequence-indent-drift seed=%d\n---\n"
                 "stories:\n  - id: U\n    title: |\n      Here\n    criteria:\n    - A\n  - id: V\n    title: E\n",
                 seed, seed * 7);
        contract_of(text, &raw);
        if (!strstr(raw, "\n    title: E\n"))
            assert_non_null(strstr(raw, "\n  - id: V\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n  - id: Q\n    notes: |-\n    A fid line: \"\"\n  - id: R\n    text: s\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: R\n"));
        free(raw);
    }
    snprintf(text, sizeof text, "%s", "malform-case 1\nprofile: bead_status\nop: norm.wrapper seed=1\n---\n"
             "status: done\nchecks:\n  tests: p\n  lint: p\n  typecheck: f\n  qualitative: p\n"
             "files_changed:\n\r - src/auth.c\n");
    contract_of(text, &raw);
    assert_non_null(strstr(raw, "\r   - src/auth.c\n"));
    free(raw);
}

/* Run 6 (finder): op sites that built text no rule promises to repair. */
static void test_run6_finder_sites(void **state)
{
    (void)state;
    char *raw = NULL;
    /* b00130c9: a wrapper keeps the `...` that ends a `|+` scalar at column 0
     * (indented it is a plain scalar inside the mapping) */
    static const char *const wrappers[] = {"norm.wrapper", "norm.wrapper-chain"};
    for (size_t w = 0; w < 2; w++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: val.multiline seed=9042806374443382612\n"
                 "op: %s seed=1\n---\nstatus: done\nchecks:\n  tests: p\n  lint: p\n  typecheck: f\n"
                 "  qualitative: p\nfiles_changed:\n  - s\n", wrappers[w]);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "ends with newlines\n\n...\n"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        /* e1c57f4e: norm.keyword-case recases a `type:` only when it is a change
         * type (norm.change-type folds those); a question's `type: f` is data */
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.keyword-case seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    question: H\n    type: f\nchanges:\n  - type: added\n    item_id: Q01\n",
                 seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "type: f\n"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        /* e1c57f4e-r13e6da29: norm.keyword-case recases a `phase:` only where
         * norm.phase-case folds it back: a phase word in a top-level question */
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.keyword-case seed=%d\n---\n"
                 "sc:\n  - id: Q\n    phase: f\n  - id: R\n    phase: structure\nquestions:\n  - id: Q01\n"
                 "    phase: x\n    question: W\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "phase: f\n  - id: R\n    phase: structure\nquestions:\n  - id: Q01\n    phase: x\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.keyword-case seed=%d\n---\n"
                 "sc:\n  - phase: assembly\nquestions:\n  - id: Q01\n    phase: foundation\n    question: W\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "sc:\n  - phase: assembly\n"));
        assert_null(strstr(raw, "phase: foundation"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        /* ebf56faa: a `-gap: |` header (dash space taken) still has a block
         * body: yaml.dash-space edits none of its lines */
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=3\n"
                 "op: yaml.dash-space seed=%d\n---\nitems:\n  - gap: |\n      - first\n      - third: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "      - first\n      - third: x\n"));
        free(raw);
    }
    for (int seed = 1; seed < 20; seed++) {
        /* 143e56c5: a quote opened after a key that is no simple key
         * (`alternative_draft:cription: '`) still makes the next lines text:
         * norm.change-invalid-entry inserts no entry among them */
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: refinement_changes\nop: norm.change-invalid-entry seed=%d\n"
                 "---\nchanges:\n  - type: modified\n    item_id: Q\n    inspiration:\n      alt_draft:cription: '\n"
                 "  - type: a\n    des words.'\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "cription: '\n  - type: a\n"));
        free(raw);
    }
    /* 7302bb1d / 38c3c078: norm.duplicate-question-id finds no site while
     * another question's id follows (spelled `3` by norm.id-variant, or behind
     * an unclosed quote): the batch maximum would renumber it past the id */
    {
        static const char *const cases[] = {
            "malform-case 1\nprofile: interview\nop: norm.id-variant seed=1\nop: norm.duplicate-question-id seed=1\n---\n"
            "questions:\n  - id: Q01\n    question: W\n  - id: Q02\n    question: H\n  - id: Q03\n    question: S\n",
            "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n---\n"
            "questions:\n  - id: Q01\n    question: W\n  - id: Q02\n    question: H\n    rationale: \"G\n"
            "  - id: Q03\n    question: S\n"};
        for (size_t c = 0; c < 2; c++) {
            contract_of(cases[c], &raw);
            assert_non_null(strstr(raw, "id: Q02\n"));
            free(raw);
        }
    }
    /* 3da8f5fe / 5f209945: a closer hidden behind terminal noise or a closing
     * tag is still the last marker: yaml.front-matter-closer adds no second one */
    for (int seed = 1; seed < 20; seed++) {
        char text[400];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=%d\n"
                 "op: cand.ansi-noise seed=8012028503536386970\nop: yaml.front-matter-closer seed=%d\n---\na: 1\nb: two\n",
                 seed, seed + 7);
        contract_of(text, &raw);
        const char *closer = strstr(raw, "b: two\n---");
        assert_non_null(closer);
        assert_null(strstr(closer + 10, "---"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=%d\n"
                 "op: yaml.xml-tag-lines seed=8\nop: yaml.front-matter-closer seed=%d\n---\na: 1\nb: two\n",
                 seed, seed + 7);
        contract_of(text, &raw);
        closer = strstr(raw, "b: two\n---");
        assert_non_null(closer);
        assert_null(strstr(closer + 10, "---"));
        free(raw);
    }
    /* 7c8e72c2: yaml.inline-sequence-parent moves no item up whose first
     * property drifted deeper (yaml.property-indent): the dash line is then
     * the only evidence of the item's column */
    for (int seed = 1; seed < 20; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n---\n"
                 "questions:\n  - id: Q02\n      phase: structure\n    question: P\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "questions: - id"));
        free(raw);
    }
    /* 9bbe40ec: norm.beads-bare-list keeps a later item it does not read as
     * one (`-id: l` after yaml.dash-space): the op loses no bead */
    contract_of("malform-case 1\nprofile: beads\nop: norm.beads-bare-list seed=1\n---\nbeads:\n  - id: s\n    title: R\n"
                "  -id: l\n    title: L\n", &raw);
    assert_non_null(strstr(raw, "-id: l\n  title: L\n"));
    free(raw);
    /* 53e49693: yaml.free-text unquotes no value holding a '\r' (YAML breaks
     * the line there: `sessions` a line of its own at column 0) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.free-text seed=%d\n---\n"
                 "status: done\nsummary: \"Implemented login: tokens and\rsessions\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"Implemented login: tokens and\rsessions\""));
        free(raw);
    }
    /* 0d66eedd: nor does it apply to a text with a lone CR, which YAML reads
     * as a line break (`   \rblocked_by:` starts a top-level key) */
    contract_of("malform-case 1\nprofile: beads\nop: norm.beads-bare-list seed=1\n---\nbeads:\n  - id: s\n    title: R\n"
                "   \rblocked_by: [s]\n", &raw);
    assert_non_null(strstr(raw, "beads:\n  - id: s\n"));
    free(raw);
    for (int seed = 1; seed < 30; seed++) {
        char text[400];
        /* 1978b2ba: yaml.duplicate-key copies no line that carries terminal
         * noise (the copy would put it mid-text, where no rule cuts it) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.ansi-noise seed=4\n"
                 "op: yaml.duplicate-key seed=%d\n---\na: 1\nb: two\n", seed);
        contract_of(text, &raw);
        const char *esc = strchr(raw, 27);
        assert_non_null(esc);
        assert_null(strchr(esc + 1, '\n') ? strchr(strchr(esc + 1, '\n'), 27) : NULL);
        assert_null(strstr(raw, "b: two\x1b[0m\nb: two"));
        free(raw);
        /* c53e7681: nor a prose line after a `---` separator (a second document) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=1819842490547563959\n"
                 "op: yaml.duplicate-key seed=%d\n---\na: 1\nb: two\n", seed);
        contract_of(text, &raw);
        const char *notes = strstr(raw, "Notes:");
        if (notes)
            assert_null(strstr(notes + 1, "Notes:"));
        free(raw);
        /* f0bfd2d1: norm.answer-fields-sibling moves no noisy last line into the body */
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: cand.ansi-noise seed=7332237609074506236\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q02\n    phase: structure\n"
                 "    question: \"P\"\n    answer:\n      answered_at: \"2\"\n", seed);
        contract_of(text, &raw);
        esc = strchr(raw, 27);
        if (esc)
            assert_null(strchr(esc, '\n') ? strstr(strchr(esc, '\n'), "answer:") : NULL);
        free(raw);
    }
}

/* Run 7 sites judged by prof2. */
static void test_session7_prof2_sites(void **state)
{
    (void)state;
    char *raw = NULL;
    /* the markdown fallback trims like JS String.trim: a file whose text starts or ends
     * with a Unicode space (a BOM, a no-break space) is no shape.artifact-markdown site */
    static const char *const lead[] = {"\357\273\277bom inside", "\xc2\xa0nbsp lead", "tail\xe2\x80\x83"};
    for (size_t i = 0; i < sizeof lead / sizeof *lead; i++) {
        char text[600];
        snprintf(text, sizeof text, "malform-case 1\nprofile: artifact_files\n"
                 "opts: {\"expected_files\":[\"README.md\",\"SPEC.md\"]}\nop: shape.artifact-markdown seed=3\n"
                 "---\n[{\"filename\": \"README.md\", \"content\": \"# In\"},\n"
                 " {\"filename\": \"SPEC.md\", \"content\": \"%s\"}]\n", lead[i]);
        contract_of(text, &raw);
        assert_null(strstr(raw, "filename: SPEC.md"));
        free(raw);
    }
    /* a JSON answer cut inside a string (json.truncate) is cut inside its wrapper too: no
     * closing brace the open string would read as its text */
    static const char cut[] =
        "malform-case 1\nprofile: task_breakdown\nop: json.truncate seed=1186077728981363\n"
        "op: norm.wrapper-chain seed=1\n---\n{\"story_id\": \"US-004\", \"task_count\": 0, \"tasks\": [],\n"
        " \"dependencies\": {\"npm\": [\"e\", \"b\", \"c\", \"d\"]}}\n";
    contract_of(cut, &raw);
    assert_null(strstr(raw, "\"}"));
    assert_null(strstr(raw, "\"\n}"));
    free(raw);
    /* a key whose ':' json.missing-colon removed is no value json.string-plus may split:
     * no rule joins a concatenated key */
    for (int seed = 1; seed < 6; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.missing-colon seed=%d\n"
                 "op: json.string-plus seed=%d\n---\n{\"first key\": \"xy\", \"list\": [\"ab\"]}\n", seed, seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "+"));
        free(raw);
    }
    /* no tag line after a top-level key with no value: `bead_x:` then `<yaml>` reads as a
     * label introducing the artifact, which cand.anchor drops */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.xml-tag-lines seed=%d around=0\n---\n"
                 "bead_x:\nchecks:\n  tests: p\n  lint: p\n  typecheck: f\n  qualitative: p\nstatus: done\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "bead_x:\nchecks:"));
        free(raw);
    }
    /* yaml.duplicate-key copies no key line whose block sequence goes on at its column
     * (`files_changed: - s` then `- s`, after yaml.inline-sequence-parent) */
    for (int seed = 1; seed < 10; seed++) {
        char text[300];
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.inline-sequence-parent seed=16257488\n"
                 "op: yaml.duplicate-key seed=%d\n---\nstatus: done\nfiles_changed:\n- s\n- t\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "files_changed: - s\nfiles_changed"));
        free(raw);
    }
    /* yaml.doubled-quotes edits no copy of a key yaml.duplicate-key repeated */
    static const char dup_quoted[] = "malform-case 1\nprofile: bead_status\nop: yaml.duplicate-key seed=1\n"
                                     "op: yaml.doubled-quotes seed=1\n---\nsummary: 'Implemented login'\n";
    contract_of(dup_quoted, &raw);
    assert_non_null(strstr(raw, "summary: 'Implemented login'\nsummary: 'Implemented login'"));
    free(raw);
    /* yaml.nested-children takes no parent whose children go on after a blank line: it would
     * dedent the first ones only */
    static const char nested_blank[] = "malform-case 1\nprofile: bead_status\nop: yaml.nested-children seed=1\n---\n"
                                       "status: done\nchecks:\n  tests: p\n  lint: p\n\n  typecheck: f\n  qualitative: p\n";
    contract_of(nested_blank, &raw);
    assert_non_null(strstr(raw, "checks:\n  tests: p\n"));
    free(raw);
}

/* Session 7 run 7 (cand): ops around a one-scalar document in front-matter
 * markers, stacked closers behind role prefixes, fences near indented fence lines. */
static void test_session7_cand_sites(void **state)
{
    (void)state;
    char *raw = NULL;
    /* 90fecf12, ee41565d, 560dc409: `---` + `m` + `---` is one scalar: a fence or prose
     * around it holds no structure (raw); a mapping in the same markers stays exact */
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\n"
                                 "op: yaml.front-matter-closer seed=8326836979383385202\nop: cand.fence seed=2\n---\nm\n",
                                 &raw),
                     MF_CONTRACT_RAW);
    free(raw);
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\n"
                                 "op: yaml.front-matter-closer seed=8326836979383385202\nop: cand.fence seed=2\n---\n"
                                 "a: 1\nb: x\n",
                                 &raw),
                     MF_CONTRACT_EXACT);
    assert_non_null(strstr(raw, "```"));
    free(raw);
    /* cd9e95cf: yaml.code-fence around one scalar is as much prose (raw), around a mapping exact */
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\nop: yaml.code-fence seed=3523632203244327132\n"
                                 "---\nm\n", &raw),
                     MF_CONTRACT_RAW);
    free(raw);
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\nop: yaml.code-fence seed=3523632203244327132\n"
                                 "---\na: 1\nb: x\n", &raw),
                     MF_CONTRACT_EXACT);
    free(raw);
    /* a0f09330: the same through transcript role prefixes and a noise line */
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\n"
                                 "op: yaml.front-matter-closer seed=8326836979383385202\n"
                                 "op: cand.transcript-prefix seed=12312229364924943244\n"
                                 "op: cand.control-chars seed=2391864980743201921\nop: cand.fence seed=10967197914931433151\n"
                                 "---\nm\n",
                                 &raw),
                     MF_CONTRACT_RAW);
    free(raw);
    /* a3862ed1, 6ff3e26c, 178ad3da: an indented fence line in the artifact (` ``` - `, a plain
     * scalar's continuation) is a fence to core: no fence around it, no orphan closer after it */
    static const char *const fence_ops[] = {"cand.fence", "cand.fence-unclosed", "cand.fence-wrong-tag",
                                            "cand.orphan-fence"};
    for (size_t k = 0; k < 4; k++)
        for (int seed = 1; seed < 6; seed++) {
            char text[300];
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: %s seed=%d\n---\n"
                     "matrix:\n  -l.\n ``` - \n", fence_ops[k], seed);
            contract_of(text, &raw);
            assert_string_equal(raw, "matrix:\n  -l.\n ``` - \n");
            free(raw);
        }
    /* ad22c47b-r0a7554a5, 3740cf7b, 4f1f4c63: a closer followed by role-prefixed blank,
     * noise or fence lines is still the closer: no second one is stacked */
    contract_of("malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=15856695172039395980\n"
                "op: cand.transcript-prefix seed=734136167238751001\n"
                "op: yaml.front-matter-closer seed=5206717156983884845\n---\ni\n",
                &raw);
    assert_null(strstr(raw, "end of front matter"));
    free(raw);
    contract_of("malform-case 1\nprofile: generic_yaml\nop: cand.transcript-prefix seed=734136167238751001\n"
                "op: yaml.front-matter-closer seed=5206717156983884845\nop: cand.orphan-fence seed=9377662249401802784\n"
                "op: cand.transcript-prefix seed=12312229364924943244\n"
                "op: yaml.front-matter-closer seed=2700869870103919973\n---\ni\n",
                &raw);
    size_t len = strlen(raw);
    assert_true(len >= 4 && strcmp(raw + len - 4, "```\n") == 0);
    free(raw);
}

/* session 8 run 8 (json): norm.answer-fields-sibling moves only an answer field whose value
 * is whole on its line. `answered_at: "` opening a multi-line quoted scalar, moved alone above
 * `answer:`, swallowed `answer:` into the string and left its later line behind (fa5e303b);
 * a field beside it whose value is on its line still moves. */
static void test_session8_json_sites(void **state)
{
    (void)state;
    int moved = 0;
    for (int seed = 1; seed < 40; seed++) {
        char text[700], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q02\n    phase: structure\n"
                 "    question: \"P\"\n    answer:\n      answered_at: \"\n      answered_atT08:11:40Z\"\n"
                 "      answered_by: bob\n      selected: [a]\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "      answered_at: \"\n      answered_atT08:11:40Z\"\n"));
        moved += strstr(raw, "    answered_by: bob\n    answer:\n") != NULL;
        free(raw);
        /* a plain value continued on a deeper line, and a list at the key's own column */
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q02\n    phase: structure\n"
                 "    question: P\n    answer:\n      answered_by: Jane\n        Doe\n      answered_at:\n"
                 "      - x\n      selected: [a]\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "    answer:\n      answered_by: Jane\n        Doe\n      answered_at:\n      - x\n"));
        free(raw);
    }
    assert_true(moved > 0);
}

/* Session 8 run 8 (yaml2): yaml.unclosed-flow leaves a `- [3, 4]` line deeper than the
 * entry whose multi-line plain scalar it continues (`matrix:` + `   2`, `matrix: 2`;
 * 5e4327db-rf7c57fe1); yaml.item-colon unquotes no item whose key is an identifier
 * (`Cachebuild`: the rule keeps that item a one-key mapping; d0ba0efa-r696c83ad), a
 * prose or header key still is a site */
static void test_session8_yaml2_sites(void **state)
{
    (void)state;
    static const char *const flow_text[] = {"matrix:\n   2\n  - [3, 4]\nnote: d\n",
                                            "matrix: 2\n  - [3, 4]\nnote: d\n",
                                            "m:\n  - 2\n    - [3, 4]\nnote: d\n"};
    for (int seed = 1; seed < 10; seed++) {
        char text[300], *raw = NULL;
        for (size_t k = 0; k < sizeof flow_text / sizeof *flow_text; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n%s",
                     seed, flow_text[k]);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, "- [3, 4]\n"));
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n"
                 "matrix:\n  - 2\n  - [3, 4]\nnote: d\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "  - [3, 4\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - \"Cachebuild: it saves ten minutes\"\n  - N\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "- \"Cachebuild: it saves ten minutes\""));
        free(raw);
        /* the same with blanks before the colon: the key is still the identifier (run 34 d0ba0efa-r8b7eeee8) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - \"Cac_e : it saves ten minutes\"\n  - N\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "- \"Cac_e : it saves ten minutes\""));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - \"EPIC: x\"\n  - N\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "- \"EPIC: x\""));
        free(raw);
    }
    bool prose = false, header = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - \"Cache the build: it saves ten minutes\"\n  - N\n", seed);
        contract_of(text, &raw);
        prose = prose || strstr(raw, "- Cache the build: it saves ten minutes\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - \"X-Trace-Id: abc\"\n  - N\n", seed);
        contract_of(text, &raw);
        header = header || strstr(raw, "- X-Trace-Id: abc\n");
        free(raw);
    }
    assert_true(prose && header);
}

/* run 55 ff2edb4f: json.python-tuple writes as a tuple only an array of
 * scalars; one that holds a nested array (`[5, "F", []]`) is no site (the op
 * turned the nested array's `]` into the tuple's closer). */
static void test_python_tuple_scalars_only(void **state)
{
    (void)state;
    for (int seed = 1; seed < 8; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.python-tuple seed=%d\n---\n"
                 "{\"a\": [5, \"F\", []], \"b\": [1, 2]}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "[5, \"F\", []]"));
        assert_non_null(strstr(raw, "(1, 2)"));
        free(raw);
    }
}

/* run 56 a43cb456: tags around a text YAML reads as one plain scalar once
 * core trims the paste marker cand.bracketed-paste left at its end are no
 * site of yaml.xml-tag-lines (the string holds them); around a mapping they are. */
static void test_xml_tags_scalar_behind_noise(void **state)
{
    (void)state;
    char *raw = NULL;
    const char *scalar = "malform-case 1\nprofile: generic_yaml\nop: cand.bracketed-paste seed=5657504642341103537\n"
                         "op: yaml.xml-tag-lines seed=13199101012401084612\n---\nmatrix:```\n  - [1, 2]\n";
    contract_of(scalar, &raw);
    assert_non_null(strstr(raw, "\x1b[200~"));
    assert_null(strchr(raw, '<'));
    free(raw);
    const char *mapping = "malform-case 1\nprofile: generic_yaml\nop: cand.bracketed-paste seed=5657504642341103537\n"
                          "op: yaml.xml-tag-lines seed=13199101012401084612\n---\nmatrix:\n  - [1, 2]\n";
    contract_of(mapping, &raw);
    assert_non_null(strchr(raw, '<'));
    free(raw);
}

/* run 56 341bfe05: prose above a YAML text whose first line is indented is
 * its parent key (`Okay, here it is:` + `  -`) or a scalar it continues: no
 * site of cand.prose-before; above a text at column 0 there is one. */
static void test_prose_before_indented_text(void **state)
{
    (void)state;
    for (int seed = 1; seed < 12; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=%d\n---\n"
                 "\n  - a\n  - b\n", seed);
        contract_of(text, &raw);
        assert_string_equal(raw, "\n  - a\n  - b\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-before seed=%d\n---\n"
                 "- a\n- b\n", seed);
        contract_of(text, &raw);
        assert_true(strlen(raw) > strlen("- a\n- b\n"));
        free(raw);
    }
}

/* run 59 56c4ff9b: yaml.sequence-indent-drift moves no dash of an item that
 * holds a line with a dash glued to a word (`-iatus: done`, a key of the
 * clean text), which yaml.dash-space reads against the drifted column. */
static void test_drift_item_with_glued_dash(void **state)
{
    (void)state;
    bool drifted = false;
    for (int seed = 1; seed < 16; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\nsteps:\n  - id: S1\n    notes: |-\n      run make\n  - id: S2\n    -iatus: done\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: S2\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\nsteps:\n  - id: S1\n    notes: |-\n      run make\n  - id: S2\n    status: done\n", seed);
        contract_of(text, &raw);
        drifted |= strstr(raw, "\n  - id: S2\n") == NULL;
        free(raw);
    }
    assert_true(drifted);
}

/* session 8 run 8 (prof): norm.phase-out-of-order compares question ids as norm.question-id
 * reads them, so it moves no question before another spelling of its id (q1 before Q01:
 * renumbering would call the other one the duplicate, 072094ee, 9a8dba6a);
 * norm.duplicate-question-id counts a later `-id:` item (yaml.dash-space) as a question whose
 * id raises the batch maximum (dd57fdfa); norm.inspiration-string writes no label bare that
 * reads as no string there (`label: # `, ~, 12: f7c45044). */
static void test_session8_prof_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[700], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=15768186\n"
                 "op: norm.id-variant seed=1\nop: norm.phase-out-of-order seed=%d\n---\nquestions:\n  - id: Q01\n"
                 "    phase: foundation\n    question: W\n  - id: Q02\n    phase: structure\n    question: P\n", seed);
        contract_of(text, &raw);
        const char *w = strstr(raw, "question: W"), *p = strstr(raw, "question: P");
        assert_true(w && p && w < p);
        free(raw);
        /* run 55 27ac1619: the repeat's id glued to its colon (yaml.colon-space) is that id */
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id:Q01\n    phase: structure\n"
                 "    question: P\n  - id:\"Q01\"\n    phase: assembly\n    question: A\n", seed);
        contract_of(text, &raw);
        w = strstr(raw, "question: W"), p = strstr(raw, "question: P");
        const char *a = strstr(raw, "question: A");
        assert_true(w && p && a && w < p && p < a);
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.dash-space seed=8\n"
                 "op: norm.duplicate-question-id seed=%d\n---\nquestions:\n  - id: Q01\n    phase: foundation\n"
                 "    question: W\n    options:\n      - id: o\n        label: F \n      - id: o\n        label: F\n"
                 "      - id: o\n        label: \"B\"\n"
                 "  - id: Q02\n    phase: foundation\n    question: S\n  - id: Q03\n    phase: structure\n"
                 "    question: L\n  - id: Q04\n    phase: assembly\n    question: H\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  -id: Q04"));
        assert_non_null(strstr(raw, "id: Q03"));
        free(raw);
        static const char *const labels[] = {"# ", "~", "null", "12", "true", "''"};
        for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: refinement_changes\nop: norm.inspiration-string seed=%d\n"
                     "---\nchanges:\n  - type: modified\n    item_id: t\n    inspiration:\n      label: %s\n", seed,
                     labels[i]);
            contract_of(text, &raw);
            if (i < 5)
                assert_non_null(strstr(raw, "      label: "));
            else
                assert_non_null(strstr(raw, "    inspiration: ''\n"));
            free(raw);
        }
    }
}

/* Run 8 (yaml1): a block header in quotes (`notes: '|-'`, yaml.quoted-block-indicator's damage)
 * still opens a block body for the ops after it: yaml.inline-sequence-parent joins no body
 * lines (`status:` + `  - not a real list` is text whose indentation no rule can restore,
 * 94752c25) and yaml.unclosed-quote opens no quote over it (`notes: "|-` + its body reads
 * as one multi-line string, 8f6d87b4). */
static void test_session8_yaml1_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[500], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-block-indicator seed=8\n"
                 "op: yaml.inline-sequence-parent seed=%d\n---\nowner: |\n  status:\n    - not a real list\n"
                 "  note: this is text\nb: c\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "  status:\n    - not a real list\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-block-indicator seed=%d\n"
                 "op: yaml.unclosed-quote seed=%d\n---\nitems:\n  - id: Q\n    notes: |-\n      first:  l\n", seed,
                 seed * 7);
        contract_of(text, &raw);
        assert_null(strstr(raw, "notes: \"|-\n"));
        assert_null(strstr(raw, "notes: '|-\n"));
        free(raw);
    }
}

/* Run 22 (b40f2833): a quoted block header whose quotes yaml.doubled-quotes doubled
 * (`hint: ""|-""`) is still the header core reads back (yaml.doubled-quotes, then
 * yaml.quoted-block-indicator), so its deeper lines are block text: yaml.duplicate-key
 * repeats no `x: 1` line of the body (the copy would be text no rule removes). */
static void test_session11_doubled_quoted_header(void **state)
{
    (void)state;
    int doubled = 0;
    for (int seed = 1; seed < 24; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.quoted-block-indicator seed=%d\n"
                 "op: yaml.doubled-quotes seed=%d\nop: yaml.duplicate-key seed=%d\n---\n"
                 "hint: |-\n  x: 1\n  y: 2\nb: c\n", seed, seed * 3, seed * 5);
        contract_of(text, &raw);
        doubled += strstr(raw, "hint: \"\"|-\"\"\n") || strstr(raw, "hint: ''|-''\n");
        assert_non_null(strstr(raw, "|-"));
        assert_non_null(strstr(raw, "\n  x: 1\n  y: 2\nb: c\n"));
        free(raw);
    }
    assert_true(doubled > 0);
}

/* Run 9 (prof2): a quote left open (`answered_by: "ai:o`, yaml.unclosed-quote's
 * damage) whose next line starts the next question is closed by core at the end of
 * its line (QB6E), so the ops' line model ends it there too: norm.answer-fields-sibling
 * takes no later question's `answered_by: u` for the open question's own (run 9
 * entries 5ac1cf15, d3c273ab, 8bcb7203, ...); a quote that a later line closes at its
 * end stays open over the lines before (core rejects that text, 143e56c5). */
static void test_session9_prof2_sites(void **state)
{
    (void)state;
    int moved = 0;
    for (int seed = 1; seed < 40; seed++) {
        char text[700], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q01\n    phase: foundation\n"
                 "    question: W\n    answer:\n      free_text: \"\"\n      answered_by: \"ai:o\n  - id: Q02\n"
                 "    phase: structure\n    question: P\n    answer:\n      free_text: \"\"\n      answered_by: u\n"
                 "      answered_at: \"2\"\n", seed);
        contract_of(text, &raw);
        const char *q2 = strstr(raw, "- id: Q02"), *u = strstr(raw, "answered_by: u\n");
        assert_true(q2 && u && q2 < u);
        moved += strstr(raw, "    answered_by: u\n    answer:\n") != NULL;
        /* core reads each question's answer back whole */
        mf_result *res = mf_repair(mf_profiles_get("full_answers"), raw, strlen(raw), NULL);
        assert_non_null(res);
        assert_int_equal(res->status, MF_ACCEPTED);
        json_t *qs = json_object_get(res->value, "questions");
        assert_string_equal(json_string_value(json_object_get(
                                json_object_get(json_array_get(qs, 0), "answer"), "answered_by")), "ai:o");
        assert_string_equal(json_string_value(json_object_get(
                                json_object_get(json_array_get(qs, 1), "answer"), "answered_by")), "u");
        mf_result_free(res);
        free(raw);
    }
    assert_true(moved > 0);
    /* a later line closing the quote at its end: core guesses nothing (it rejects the
     * text), the lines up to it stay the open value's text, no answer field to move */
    for (int seed = 1; seed < 40; seed++) {
        char text[700], *raw = NULL;
        const char *clean = "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n    answer:\n"
                            "      free_text: \"\"\n      answered_by: \"ai:o\n  - id: Q02\n    phase: structure\n"
                            "    question: P\n    answer:\n      answered_by: u\"\n      free_text: x\n";
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\n%s", seed, clean);
        contract_of(text, &raw);
        assert_string_equal(raw, clean);
        free(raw);
    }
}

/* session 8 run 9 (prof): ops read a quote left open as yaml.unclosed-quote closes it, at the
 * end of its line, not as the line model's text running on into the next item:
 * norm.answer-fields-sibling moves no field of an answer block that runs over such a line
 * (the next item's answered_at landed beside the wrong question's answer: 7175b31b,
 * e2fef673, 99809b66, cb32baca, 3c00d29f); norm.phase-out-of-order moves no item holding one
 * (what follows the list, a front-matter closer or prose, went along into the list: 20dd84bf,
 * ffb8d298); norm.duplicate-question-id takes the batch maximum over every spelling
 * norm.question-id reads (a q3 before the last question: 072094ee-re97ce07b). */
static void test_session9_prof_sites(void **state)
{
    (void)state;
    static const char qs[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n    answer:\n"
                             "      answered_at: \"2026-\"\n  - id: Q02\n    phase: structure\n    question: \"P\"\n"
                             "    answer:\n      answered_by: ai:o\n      answered_at: \"2026-\"\n";
    bool moved = false, reordered = false, dup = false;
    for (int seed = 1; seed < 40; seed++) {
        char text[1200], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: val.yaml-syntax seed=2\n"
                 "op: cand.prose-after seed=10498857262392764911\n"
                 "op: yaml.unclosed-quote seed=11858562128441937912 first=11\n"
                 "op: norm.answer-fields-sibling seed=%d\n---\nquestions:\n  - id: Q02\n    phase: structure\n"
                 "    question: H\n    answer:\n      answered_by: ai:anth\n  - id: Q03\n    phase: assembly\n"
                 "    question: \"M\"\n    answer:\n      answered_by: ai:anth\n      answered_at: \"2\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "answered_by: \"ai:anth\n"));
        assert_true(strstr(raw, "answered_at") > strstr(raw, "id: Q03"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: norm.answer-fields-sibling seed=%d\n---\n%s",
                 seed, qs);
        contract_of(text, &raw);
        moved = moved || strstr(raw, "\n    answered_by: ai:o\n    answer:") || strstr(raw, "\"\n    answer:\n");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: yaml.front-matter-closer seed=1221330059837385\n"
                 "op: yaml.unclosed-quote seed=7106668318390769088\nop: val.yaml-syntax seed=2\n"
                 "op: norm.phase-out-of-order seed=%d\n---\n%s", seed, qs);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"ai:o\n"));
        /* the closer stays after the list (the ops' line model ends the open quote where
         * core does, so a moved question no longer carries what follows the list) */
        const char *closer = strstr(raw, "\n---");
        assert_true(!closer || (closer > strstr(raw, "id: Q01") && closer > strstr(raw, "id: Q02")));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: val.yaml-syntax seed=2\n"
                 "op: cand.prose-after seed=10498857262392764911\nop: yaml.unclosed-quote seed=11858562128441937912 v=9\n"
                 "op: norm.phase-out-of-order seed=%d\n---\n%s", seed, qs);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "ai:o"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: full_answers\nop: norm.phase-out-of-order seed=%d\n---\n%s", seed,
                 qs);
        contract_of(text, &raw);
        reordered = reordered || strstr(raw, "id: Q01") > strstr(raw, "id: Q02");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: q3\n    phase: assembly\n"
                 "    question: M\n  - id: Q02\n    phase: structure\n    question: H\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "id: Q02\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: q2\n    phase: structure\n"
                 "    question: M\n  - id: Q03\n    phase: assembly\n    question: H\n", seed);
        contract_of(text, &raw);
        dup = dup || (!strstr(raw, "id: Q03") && strstr(strstr(raw, "id: Q01") + 1, "id: Q01"));
        free(raw);
    }
    assert_true(moved && reordered && dup);
}

/* Session 8 run 9 (yaml2): yaml.sequence-indent-drift keeps a dash that follows a block
 * scalar's body left of the body's column, where it would be one more line of its text
 * (`notes: |-` + `     !` + `     - id: Q`, entry f6324322); it still drifts it short of it. */
static void test_session9_yaml2_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 40; seed++) {
        char text[500], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n  - id: Q\n    text: \"W\"\n    notes: |-\n     !\n  - id: R\n    text: p\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "     - id: R"));
        assert_true(strstr(raw, "\n   - id: R\n") || strstr(raw, "\n    - id: R\n"));
        free(raw);
        /* a body deeper than its header leaves the dash its whole room */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n  - id: Q\n    notes: |-\n        deep\n  - id: R\n    text: p\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n  - id: R\n"));
        free(raw);
    }
}

/* Run 15 (guard): yaml.sequence-indent-drift moves no plain item (`- s`) deeper than the
 * key or dash of a plain value on the line above it (`  op: n` + `   - s` is the one
 * scalar "n - s", which core rightly keeps; 19 entries, f66d2c56); a keyed item, or one
 * after a quoted value, still drifts its whole room. */
static void test_run15_drift_after_plain(void **state)
{
    (void)state;
    bool short_drift = false, keyed_deep = false, quoted_deep = false;
    for (int seed = 1; seed < 40; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\n- handle: h\n  profile: |\n    retries: 3\n  op: n\n- s\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n   - s"));
        short_drift |= strstr(raw, "\n - s") || strstr(raw, "\n  - s");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\n- handle: h\n  profile: |\n    retries: 3\n  tags:\n  - n\n- s\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n   - s"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\n- handle: h\n  profile: |\n    retries: 3\n  op: n\n- id: s\n", seed);
        contract_of(text, &raw);
        keyed_deep |= strstr(raw, "\n   - id: s") != NULL;
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n"
                 "---\n- handle: h\n  profile: |\n    retries: 3\n  op: 'n'\n- s\n", seed);
        contract_of(text, &raw);
        quoted_deep |= strstr(raw, "\n   - s") != NULL;
        free(raw);
    }
    assert_true(short_drift && keyed_deep && quoted_deep);
}

/* Session 11 run 24 (beads 6e5d708d, cb928db0, ...): a flow collection of the clean text runs
 * on over a line that opens like a list item (`refs: [x` + `  - "y]`); the repair rules read
 * that line as an item after a flow left open, so a text op there claims no exact contract.
 * A flow continued on an ordinary line keeps it. */
static void test_session11_flow_over_item_line(void **state)
{
    (void)state;
    static const char *const raw_flows[] = {"refs: [x\n  - \"y]\n", "refs: {k: [x\n  -\n  ]}\n"};
    for (size_t k = 0; k < sizeof raw_flows / sizeof *raw_flows; k++) {
        char text[400];
        snprintf(text, sizeof text,
                 "malform-case 1\nprofile: generic_yaml\nop: yaml.duplicate-key seed=1\n---\na: 1\n%sb: 2\n",
                 raw_flows[k]);
        assert_int_equal(contract_of(text, NULL), MF_CONTRACT_RAW);
    }
    assert_int_equal(contract_of("malform-case 1\nprofile: generic_yaml\nop: yaml.duplicate-key seed=1\n---\n"
                                 "a: 1\nrefs: [x,\n  y]\nb: 2\n",
                                 NULL),
                     MF_CONTRACT_EXACT);
}

/* Session 9 run 9 (beads): norm.context-guidance writes each item as a "- text" line of
 * the guidance prose, which the rule trims, splits at line breaks and at a "patterns:"
 * marker: an item with a leading or trailing blank, a whitespace-only item, one holding
 * LS/PS/NEL or a marker word with a colon is no site (f4821805, 3b493b90, 95aa5dcf,
 * 89a60c2d); simple items still are. A plain item whose " #" starts a comment, which the
 * prose would carry as text, is no site either (session 11 run 24, f4821805-r20ee3708);
 * a '#' inside a word still is. */
static void test_session9_beads_sites(void **state)
{
    (void)state;
    static const char *const bad[] = {"\" \"", "'trailing space '", "\" lead\"", "\"line\xE2\x80\xA8sep\"",
                                      "'a\302\205b'", "\"see Anti-patterns: x\"", "\"use patterns : y\"",
                                      "Logging the routing #key", "Log it\t#x"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char text[600], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: beads\nop: norm.context-guidance seed=1\n---\n"
                 "beads:\n  - id: p\n    title: P\n    prd_refs: [US-1-1]\n    context_guidance:\n"
                 "      patterns:\n        - %s\n      anti_patterns:\n        - L\n"
                 "    acceptance_criteria:\n      - A\n", bad[k]);
        contract_of(text, &raw);
        assert_null(strstr(raw, "context_guidance: |-"));
        free(raw);
    }
    char text[600], *raw = NULL;
    snprintf(text, sizeof text, "malform-case 1\nprofile: beads\nop: norm.context-guidance seed=1\n---\n"
             "beads:\n  - id: p\n    title: P\n    prd_refs: [US-1-1]\n    context_guidance:\n"
             "      patterns:\n        - \"Use  two spaces\"\n      anti_patterns:\n        - 'L x'\n"
             "    acceptance_criteria:\n      - A\n");
    contract_of(text, &raw);
    assert_non_null(strstr(raw, "context_guidance: |-\n      Patterns:\n      - Use  two spaces\n"));
    free(raw);
    snprintf(text, sizeof text, "malform-case 1\nprofile: beads\nop: norm.context-guidance seed=1\n---\n"
             "beads:\n  - id: p\n    title: P\n    prd_refs: [US-1-1]\n    context_guidance:\n"
             "      patterns:\n        - Use C# here\n      anti_patterns:\n        - L\n"
             "    acceptance_criteria:\n      - A\n");
    contract_of(text, &raw);
    assert_non_null(strstr(raw, "context_guidance: |-\n      Patterns:\n      - Use C# here\n"));
    free(raw);
    /* yaml.doubled-quotes: a bare CR inside the quotes makes the scalar a multi-line one (f305f26c) */
    for (int seed = 1; seed < 20; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.doubled-quotes seed=%d\n---\n"
                 "status: done\nsummary: \"Added Idempotency\rKey \"\nchecks:\n  tests: p\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\"\"Added"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.doubled-quotes seed=%d\n---\n"
                 "status: done\nsummary: \"Added Idempotency Key \"\nchecks:\n  tests: p\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\"\"Added"));
        free(raw);
    }
    /* ctx.inspiration-ordinal: an inspiration holding alternative_draft twice is no site (90b14f25) */
    static const char insp[] = "malform-case 1\nprofile: refinement_changes\n"
                               "opts: {\"roster\":[\"openai/gpt-4o\",\"anthropic/claude-3.5-sonnet\"]}\n"
                               "op: ctx.inspiration-ordinal seed=1\n---\nartifact: prd\nticket_id: L\nchanges:\n"
                               "  - type: modified\n    item_type: u\n    item_id: U\n    description: C\n"
                               "    rationale: T\n    inspiration:\n      alternative_draft: anthropic/claude-3.5-sonnet\n"
                               "%s      id: U\n      label: R\n";
    snprintf(text, sizeof text, insp, "      alternative_draft: anthropic/claude-3.5-sonnet\n");
    contract_of(text, &raw);
    assert_null(strstr(raw, "alternative_draft: 2"));
    free(raw);
    snprintf(text, sizeof text, insp, "");
    contract_of(text, &raw);
    assert_non_null(strstr(raw, "alternative_draft: 2"));
    free(raw);
}

/* Run 9 (cand): '-at' is one plain scalar, no sequence item: a fence, an orphan
 * fence or a sentence around it is as ambiguous as around any one-scalar artifact
 * (raw; a3862ed1, 6ff3e26c, 178ad3da, eb40fccc regressions), while '- at' keeps its
 * contract; a fenced one-line 'matri x:' reads as cand.fence's caption (raw,
 * 33fdf95b); norm.phase-out-of-order moves no item holding the trailing sentence
 * or paste marker (past an open quote) into the list (3034b669, f98e02a4, 358d78c5). */
static void test_session9_cand_sites(void **state)
{
    (void)state;
    static const char *const ops[] = {"cand.fence", "cand.fence-wrong-tag", "cand.orphan-fence", "cand.prose-after",
                                      "cand.fence-unclosed"};
    for (int seed = 1; seed < 20; seed++) {
        char text[700], *raw = NULL;
        for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: %s seed=%d\n---\n-at\n", ops[i], seed);
            assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
            free(raw);
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: %s seed=%d\n---\n- at\n", ops[i], seed);
            assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
            free(raw);
        }
        /* a sentence after a front-matter closer behind role prefixes, or with noise glued
         * to it, is a second document as after a bare one (044c7381, d8abcbfe) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=517970008564241\n"
                 "op: cand.transcript-prefix seed=13233848383385249393\nop: cand.prose-after seed=%d\n---\nitems:\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.front-matter-closer seed=517970008564241\n"
                 "op: cand.fence-unclosed seed=2\nop: cand.ansi-noise seed=13669615685799402834\n"
                 "op: cand.prose-after seed=%d\n---\nitems:\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=%d\n---\na: ---x\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.fence-unclosed seed=%d\n---\nmatri x:\n",
                 seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.fence-unclosed seed=%d\n---\nmatrix:\n",
                 seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        free(raw);
        snprintf(text, sizeof text,
                 "malform-case 1\nprofile: full_answers\nop: cand.fence-unclosed seed=18078721152225006484\n"
                 "op: val.yaml-syntax seed=2\nop: cand.prose-after seed=10498857262392764911\n"
                 "op: yaml.unclosed-quote seed=11858562128441937912 first=11\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n  - id: Q02\n    phase: structure\n    question: H\n    answer:\n      answered_at: \"2\"\n"
                 "  - id: Q03\n    phase: assembly\n    question: \"M\"\n    answer:\n      answered_by: ai:anth\n"
                 "      answered_at: \"2026-\"\n", seed);
        contract_of(text, &raw);
        /* the prose after the list stays its last line (the ops' line model ends the open
         * quote where core does, so a moved question carries no prose into the list) */
        const char *q2 = strstr(raw, "id: Q02"), *q3 = strstr(raw, "id: Q03"), *end = raw + strlen(raw);
        while (end > raw && end[-1] == '\n')
            end--;
        const char *last = end;
        while (last > raw && last[-1] != '\n')
            last--;
        assert_true(q2 && q3 && last > q2 && last > q3);
        free(raw);
    }
}

/* Session 8 run 9 (json): json.unescaped-quote leaves an escaped quote followed by a
 * closer (`\"hi\"} twice`: unescaped, `"}` ends the string and its object, at the
 * root with text after the artifact; fbbd3288); other escaped quotes of the value
 * are still a site */
static void test_session9_json_sites(void **state)
{
    (void)state;
    int applied = 0;
    for (int seed = 1; seed < 40; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_json\nop: json.unescaped-quote seed=%d\n---\n"
                 "{\n  \"quote\": \"He said \\\"hi\\\"} twice\",\n  \"b\": \"x \\\"y\\\" z\"\n}\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "He said \\\"hi\\\"} twice"));
        applied += strstr(raw, "x \"y\" z") != NULL;
        free(raw);
    }
    assert_true(applied > 0);
}

/* Run 10 (misc): cand.ansi-noise's suffix glued to the last question's last
 * line, with a second noise line at column 0 after the list, stays at the
 * text's end (norm.phase-out-of-order moves no item holding control bytes,
 * entry 839106b1-r17c56f53); yaml.unclosed-quote leaves no value open that
 * ends in a blank (the line's trailing whitespace to core, entry 44fc3e7f). */
static void test_session10_misc_sites(void **state)
{
    (void)state;
    bool reordered = false, opened = false;
    for (int seed = 1; seed < 40; seed++) {
        char text[800], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: cand.ansi-noise seed=5677142696618323611\n"
                 "op: cand.ansi-noise seed=12481860746204995121\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: \"W\"\n  - id: Q02\n"
                 "    phase: structure\n    question: H\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "H\x1b"));
        assert_true(strchr(raw, '\x1b') > strstr(raw, "id: Q01") && strchr(raw, '\x1b') > strstr(raw, "id: Q02"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: \"W\"\n  - id: Q02\n"
                 "    phase: structure\n    question: H\n", seed);
        contract_of(text, &raw);
        reordered = reordered || strstr(raw, "id: Q01") > strstr(raw, "id: Q02");
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "items:\n  - id: Q\n    text: \"What: exactly?- \"\n  - id: R\n    text: \"tab\t\"\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "text: \"What: exactly?- \"\n"));
        assert_non_null(strstr(raw, "text: \"tab\t\"\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "items:\n  - id: Q\n    text: \"What: exactly?-\"\n", seed);
        contract_of(text, &raw);
        opened = opened || strstr(raw, "text: \"What: exactly?-\n");
        free(raw);
    }
    assert_true(reordered && opened);
}

/* Session 8 run 10 (inline): yaml.inline-sequence-parent moves up no item without
 * a key that holds a '-' word (`files_changed: - s - s` reads as ["s - s"] and as
 * the list [s, s] yaml.inline-keys guesses: 313c7e2f, ce9937b1, ...); an item
 * without one, or a keyed item whose value holds one, still moves */
static void test_session10_inline_sites(void **state)
{
    (void)state;
    static const char *const items[] = {"- s - s", "- src  - src", "- a -"};
    for (size_t k = 0; k < sizeof items / sizeof *items; k++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                 "---\nfiles_changed:\n%s\nowner: a\n", items[k]);
        contract_of(text, &raw);
        assert_null(strstr(raw, "files_changed: -"));
        free(raw);
    }
    char *raw = NULL;
    static const char plain[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                "---\nfiles_changed:\n- s-t\n- u\nowner: a\n";
    contract_of(plain, &raw);
    assert_non_null(strstr(raw, "files_changed: - s-t"));
    free(raw);
    static const char keyed[] = "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=1\n"
                                "---\nsteps:\n- id: a - b\n  x: 1\n";
    contract_of(keyed, &raw);
    assert_non_null(strstr(raw, "steps: - id: a - b"));
    free(raw);
}

/* Run 11 (session 9, yamlstruct): yaml.unclosed-flow leaves a `- [3, 4]` line that
 * continues a plain scalar over a key-less item line above it (`matrix: g` + `  - [1, 2~`,
 * the string "g - [1, 2~ - [3, 4]"; 5e4327db-r6f4bdae1), a real item after such a line
 * is still a site; yaml.item-colon unquotes no item of a list whose sibling item is one
 * the op cannot vouch for as a string, left by an op before it: a glued dash
 * (`-name: A`, yaml.dash-space; f1b6aef9) or an item on the parent line
 * (`tips: - name: A`, yaml.inline-sequence-parent) */
static void test_run11_yamlstruct_sites(void **state)
{
    (void)state;
    static const char *const text_flow[] = {"matrix: g\n  - [1, 2~\n  - [3, 4]\nnote: d\n",
                                            "matrix: g\n  - [1, 2]\n  - [3, 4]\nnote: d\n",
                                            "m:\n  - g\n    - x [1\n    - [3, 4]\nnote: d\n"};
    bool dashed = false, inlined = false, unquoted = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        for (size_t k = 0; k < sizeof text_flow / sizeof *text_flow; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n%s",
                     seed, text_flow[k]);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, "- [3, 4]\n"));
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.unclosed-flow seed=%d\n---\n"
                 "matrix:\n  - g\n  - [1, 2]\n  - [3, 4]\nnote: d\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "  - [3, 4\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.dash-space seed=%d\n"
                 "op: yaml.item-colon seed=%d\n---\ntips:\n  - A \n  - \"Cache the build: it saves ten minutes\"\n"
                 "  - name: A\n", seed, seed);
        contract_of(text, &raw);
        if (strstr(raw, "-name: A")) {
            dashed = true;
            assert_non_null(strstr(raw, "- \"Cache the build: it saves ten minutes\""));
        }
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.inline-sequence-parent seed=%d\n"
                 "op: yaml.item-colon seed=%d\n---\ntips:\n  - name: A\n  - \"Cache the build: it saves ten minutes\"\n"
                 "  - B\n", seed, seed);
        contract_of(text, &raw);
        if (strstr(raw, "tips: - name: A")) {
            inlined = true;
            assert_non_null(strstr(raw, "- \"Cache the build: it saves ten minutes\""));
        }
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.item-colon seed=%d\n---\n"
                 "tips:\n  - A\n  - \"Cache the build: it saves ten minutes\"\n  - B\n", seed);
        contract_of(text, &raw);
        unquoted = unquoted || strstr(raw, "- Cache the build: it saves ten minutes\n");
        free(raw);
    }
    assert_true(dashed && inlined && unquoted);
}

/* Run 16 (session 10, flow): yaml.unclosed-flow takes only a collection YAML reads
 * as one, not brackets inside the multi-line plain scalar of a key the line view
 * reads as no key (`matrix:ofile: g` + `  - [1, 2]` is "g - [1, 2] - [3, 4]";
 * 898499e0, 7c0bd86e, b09bc648), also after prose an op put before it; the last
 * flow item under such a key with no value of its own is still a site */
static void test_run16_flow_parse_sites(void **state)
{
    (void)state;
    static const char *const keys[] = {"matrix:ofile", "\"matrix\"", "my matrix"};
    static const char prose[] = "op: cand.prose-before seed=7661326644345591912\n";
    for (int seed = 1; seed < 10; seed++)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            for (int lead = 0; lead < 2; lead++) {
                char text[400], *raw = NULL;
                snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\n%sop: yaml.unclosed-flow seed=%d\n"
                         "---\n%s: g\n  - [1, 2]\n  - {a: 1}\nnote: d\n", lead ? prose : "", seed, keys[k]);
                contract_of(text, &raw);
                assert_non_null(strstr(raw, ": g\n  - [1, 2]\n  - {a: 1}\nnote: d\n"));
                free(raw);
                snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\n%sop: yaml.unclosed-flow seed=%d\n"
                         "---\n%s:\n  - [1, 2]\n  - {a: 1}\nnote: d\n", lead ? prose : "", seed, keys[k]);
                mf_contract c = contract_of(text, &raw);
                if (!lead)
                    assert_int_equal(c, MF_CONTRACT_EXACT);
                assert_non_null(strstr(raw, ":\n  - [1, 2]\n  - {a: 1\nnote: d\n"));
                free(raw);
            }
}

/* Run 21 (00247971, 68c87ee5, 18a20a12): a block body fallen left is no
 * block structure that trailing prose can follow. yaml.block-body-indent lets
 * no body fall above a `---` separator (core then reads `---` + `Notes: ...`
 * as a second document), and cand.prose-after after a fallen body, its
 * header's comment glued on or not, is raw: the sentence reads as more text
 * of the body. */
static void test_run21_fallen_body_prose(void **state)
{
    (void)state;
    char text[400], *raw = NULL;
    for (int seed = 1; seed < 10; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "note: |-\n  ```\n  plain fence\n  ```\n\n\n---\nNotes: I kept the structure unchanged.\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "note: |-\n  ```\n  plain fence\n"));
        free(raw);
    }
    for (int t = 0; t < 4; t++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=1\n"
                 "op: cand.prose-after seed=1 text=%d\n---\nm: 1\nnote: |-\n  first\n  second\n", t);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        assert_non_null(strstr(raw, "note: |-\nfirst\nsecond\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=1\n"
                 "op: yaml.block-header-comment seed=1\nop: cand.prose-after seed=1 text=%d\n---\n"
                 "m: 1\nnote: |-\n  first\n  second\n", t);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_RAW);
        assert_non_null(strstr(raw, "\nfirst\nsecond\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=1 text=%d\n---\n"
                 "m: 1\nnote: |-\n  first\n  second\n", t);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        free(raw);
    }
}

/* Run 20 (session 10): yaml.type-union unquotes only a union of plain
 * "word" alternatives; '""epic" | "story"' has quotes of its own, which
 * yaml.inner-quotes cannot tell from the outer ones. */
static void test_run20_union_sites(void **state)
{
    (void)state;
    static const char *const odd[] = {"'\"\"epic\" | \"story\"'", "'\"ep\"ic\" | \"story\"'", "'\"\" | \"story\"'",
                                      "'\"epic\" | \"story\" x\"'"};
    for (int seed = 1; seed < 6; seed++) {
        char text[300], *raw = NULL;
        for (size_t k = 0; k < sizeof odd / sizeof *odd; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.type-union seed=%d\n---\n"
                     "kind: %s\nnote: d\n", seed, odd[k]);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, odd[k]));
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.type-union seed=%d\n---\n"
                 "kind: '\"epic\" | \"user_story\"'\nnote: d\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        assert_non_null(strstr(raw, "kind: \"epic\" | \"user_story\"\n"));
        free(raw);
    }
}

/* Run 21 (session 10, anchor21): prose cand.prose-after adds after a block
 * scalar body yaml.block-body-indent moved onto its key's column reads as more
 * of the body (83373239, 1d22e30a), so the case claims only a raw contract. */
static void test_run21_prose_after_fallen_body(void **state)
{
    (void)state;
    static const char *const bodies[] = {"  ```\n  plain fence\n  ```\n",
                                         "  Here is the output:\n  ```json\n  {\"a\": [1, 2]}\n  ```\n"};
    for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++)
        for (int seed = 1; seed < 9; seed++) {
            char text[400], *raw = NULL;
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n"
                     "op: cand.prose-after seed=%d\n---\nnote: d\nprofile: |-\n%s", seed, seed, bodies[k]);
            mf_contract c = contract_of(text, &raw);
            size_t n = strlen(raw);
            assert_null(strstr(raw, "\n  ```"));
            if (!(n >= 4 && !strcmp(raw + n - 4, "```\n")))
                assert_int_equal(c, MF_CONTRACT_RAW);
            free(raw);
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: cand.prose-after seed=%d\n---\n"
                     "note: d\nprofile: |-\n%s", seed, bodies[k]);
            contract_of(text, &raw);
            n = strlen(raw);
            assert_false(n >= 4 && !strcmp(raw + n - 4, "```\n"));
            free(raw);
        }
}

/* Run 21 (session 10, misc21): yaml.invalid-escape quoted a comment as the
 * value ('pattern: #^\d+' is null; '"#^\d+"' a string, 54dd93a3) or a plain
 * value with its trailing comment ('^\d+ # digits' is "^\d+"). */
static void test_run21_escape_comment_sites(void **state)
{
    (void)state;
    static const char *const comments[] = {"#^\\d+-[a-z]+$", "^\\d+ # digits", "^\\d+\t#digits"};
    bool quoted = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[300], *raw = NULL;
        for (size_t k = 0; k < sizeof comments / sizeof *comments; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                     "pattern: %s\nnote: d\n", seed, comments[k]);
            contract_of(text, &raw);
            assert_null(strstr(raw, "pattern: \""));
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                 "pattern: ^\\d+#x\nnote: d\n", seed);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        quoted |= strstr(raw, "pattern: \"^\\d+#x\"\n") != NULL;
        free(raw);
    }
    assert_true(quoted);
}

/* Run 21 (session 10, misc21): yaml.block-body-indent moved a body's fence
 * lines to column 0 inside a ```jsonl wrapper, where the first one closes the
 * wrapper for every reader (9ddbb018); without a wrapper the body still falls. */
static void test_run21_body_fence_in_wrapper(void **state)
{
    (void)state;
    static const char body[] = "note: |-\n  ```\n  plain fence\n  ```\ntitle: x\n";
    bool fell = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n"
                 "```yaml\n%s```\n", seed, body);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, body));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.block-body-indent seed=%d\n---\n%s",
                 seed, body);
        assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
        fell |= strstr(raw, "note: |-\n```\nplain fence\n```\n") != NULL;
        free(raw);
    }
    assert_true(fell);
}

/* Run 21 (session 10, misc21): norm.phase-out-of-order read the id of
 * `- id: Q01 phase: assembly` (yaml.inline-keys' shape) as "Q01 phase:
 * assembly", so it moved that repeat of Q01 before the first Q01 and
 * renumbering called the other one the duplicate (bc5d4c6d, beae00ea). */
static void test_run21_phase_order_inline_id(void **state)
{
    (void)state;
    bool moved = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.phase-out-of-order seed=%d\n---\n"
                 "questions:\n  - id: Q01\n    phase: foundation\n    question: A?\n  - id: Q02\n"
                 "    phase: structure\n    question: B?\n  - id: Q01 phase: assembly\n    question: C?\n", seed);
        contract_of(text, &raw);
        const char *first = strstr(raw, "id: Q01\n"), *repeat = strstr(raw, "id: Q01 phase"), *q2 = strstr(raw, "id: Q02");
        assert_true(first && repeat && q2 && first < repeat);
        moved |= repeat < q2;
        free(raw);
    }
    assert_true(moved);
}

/* Run 21 (session 10, misc21): yaml.sequence-indent-drift moved a plain
 * item's dash (`  - 02`) past the column of its continuation line
 * (`    text:rm-case 1`), which then no longer continues the item (92985ac5);
 * a drift that keeps the dash left of that line is still made. */
static void test_run21_drift_plain_item_run(void **state)
{
    (void)state;
    bool drifted = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "items:\n  - id: Q01\n    notes: |-\n      first line\n  - 02\n    text:rm-case 1\nowner: x\n", seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n    - 02"));
        assert_null(strstr(raw, "\n     - 02"));
        drifted |= strstr(raw, "\n   - 02\n") != NULL;
        free(raw);
    }
    assert_true(drifted);
}

/* Run 21 (session 10, last21): yaml.sequence-indent-drift lands no dash as near a
 * nested list's dash column as its own list's (`    - x64` then `   - tags:`): the rule
 * reads it as that nested list's item (913bb733-r9895500f); a drift of one still is. */
static void test_run21_drift_near_nested_list(void **state)
{
    (void)state;
    bool drifted = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "steps:\n- name: b\n  os: |\n    e\n  needs:\n    arch:\n    - x64\n- tags:\n  - prod\nowner: a\n",
                 seed);
        contract_of(text, &raw);
        assert_null(strstr(raw, "\n   - tags:"));
        assert_null(strstr(raw, "\n  - tags:"));
        drifted |= strstr(raw, "\n - tags:\n") != NULL;
        free(raw);
        /* a nested item whose dash yaml.dash-space glued (`-id: U`) is still that list's dash
         * (bbf13840: `    - id: E` + `    user_stories:` under it) */
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.sequence-indent-drift seed=%d\n---\n"
                 "- epics:\n  - id: E\n    user_stories:\n    -id: U\n      story: |-\n        A\n"
                 "  - id: F\n    user_stories:\n    - id: V\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "\n  - id: F\n"));
        free(raw);
    }
    assert_true(drifted);
}

/* Run 13 (session 9, dupkey): a block scalar header on a compact nested
 * sequence item (`- - |`, `- - - >-`) opens block text in the line view, so no
 * op edits or repeats a body line as YAML (yaml.duplicate-key repeated
 * `status: done` there: e2aab0da, 86769b48) */
static void test_run13_dupkey_sites(void **state)
{
    (void)state;
    static const char *const ops[] = {"yaml.duplicate-key", "yaml.colon-space", "yaml.dash-space",
                                      "yaml.inline-keys", "yaml.plain-colon", "yaml.item-colon"};
    static const char body[] = "matrix:\n  - - |\n      Sure!\n      status: done\n      - x\n"
                               "  - - - >-\n        a: b\n";
    bool repeated = false;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++)
        for (int seed = 1; seed < 20; seed++) {
            char text[400], *raw = NULL;
            snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: %s seed=%d\n---\n%snote: d\n",
                     ops[k], seed, body);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, "  - - |\n      Sure!\n      status: done\n      - x\n  - - - >-\n        a: b\nnote"));
            repeated = repeated || strstr(raw, "note: d\nnote: d");
            free(raw);
        }
    assert_true(repeated);
}

/* Run 13 (session 9, dupkey): norm.duplicate-question-id takes the batch
 * maximum over every item's id line before the last question however its dash
 * is spelled: a higher id moved first (norm.phase-out-of-order) and put on the
 * parent's line (`questions: - id: Q04`, yaml.inline-sequence-parent; 36f593db)
 * or glued to its dash (`-id: Q04`, yaml.dash-space) made renumbering give the
 * repeat Q05, not the Q03 the op claimed exact */
static void test_run13_dupqid_sites(void **state)
{
    (void)state;
    static const char *const hidden[] = {"questions: - id: Q04\n    phase: assembly\n    question: H\n",
                                         "questions:\n  -id: Q04\n    phase: assembly\n    question: H\n",
                                         "questions:\n-id: Q04\n  phase: assembly\n  question: H\n"};
    static const char *const rest[] = {"  - id: Q02\n    phase: foundation\n    question: S\n"
                                       "  - id: Q03\n    phase: structure\n    question: L\n",
                                       "  - id: Q02\n    phase: foundation\n    question: S\n"
                                       "  - id: Q03\n    phase: structure\n    question: L\n",
                                       "- id: Q02\n  phase: foundation\n  question: S\n"
                                       "- id: Q03\n  phase: structure\n  question: L\n"};
    bool dup = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[500], *raw = NULL;
        for (size_t k = 0; k < sizeof hidden / sizeof *hidden; k++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=%d\n---\n%s%s",
                     seed, hidden[k], rest[k]);
            contract_of(text, &raw);
            assert_non_null(strstr(raw, "id: Q03\n"));
            free(raw);
        }
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=%d\n---\n"
                 "questions: - id: Q01\n    phase: assembly\n    question: H\n%s", seed, rest[0]);
        contract_of(text, &raw);
        dup = dup || (!strstr(raw, "id: Q03") && strstr(strstr(raw, "id: Q02") + 1, "id: Q02"));
        free(raw);
    }
    assert_true(dup);
}

/* Session 9 run 12 (misc12): yaml.invalid-escape double-quotes no plain value that
 * goes on below its key line (`notes: \-` + deeper `s` is the one scalar "\- s":
 * quoted alone, `s` is left outside the quotes, fd35469a); a one-line value, or one
 * whose next line is a comment or a sibling, is still quoted */
static void test_run12_misc_sites(void **state)
{
    (void)state;
    bool quoted = false;
    for (int seed = 1; seed < 20; seed++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                 "items:\n  - id: Q\n    notes: \\-\n      s\n  - id: R\n    notes: a\\+\n\n      b\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "notes: \\-\n      s\n"));
        assert_non_null(strstr(raw, "notes: a\\+\n\n      b\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.invalid-escape seed=%d\n---\n"
                 "items:\n  - id: Q\n    notes: \\-\n    # s\n    text: x\n", seed);
        contract_of(text, &raw);
        quoted = quoted || strstr(raw, "notes: \"\\-\"\n");
        free(raw);
    }
    assert_true(quoted);
}

/* Session 9: yaml.item-key writes a bead as its id alone only where the profile's
 * item_keys names the list's items by that key and a listed child key follows at
 * the item's key column; a prose id, an unlisted next key, an id that is not the
 * item's first line and a profile without item_keys are no site */
static void test_session9_item_key_sites(void **state)
{
    (void)state;
    static const char *const none[] = {
        "profile: beads\nop: yaml.item-key seed=1\n---\nbeads:\n  - id: fix the cache\n    title: T\n",
        "profile: beads\nop: yaml.item-key seed=1\n---\nbeads:\n  - id: a\n    owner: T\n",
        "profile: beads\nop: yaml.item-key seed=1\n---\nbeads:\n  - title: T\n    id: a\n",
        "profile: beads\nop: yaml.item-key seed=1\n---\nbeads:\n  - id: \"a\"\n    title: T\n",
        "profile: generic_yaml\nop: yaml.item-key seed=1\n---\nbeads:\n  - id: a\n    title: T\n",
    };
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        char text[300], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\n%s", none[i]);
        contract_of(text, &raw);
        assert_string_equal(raw, strstr(none[i], "---\n") + 4);
        free(raw);
    }
    char *raw = NULL;
    assert_int_equal(contract_of("malform-case 1\nprofile: beads\nop: yaml.item-key seed=1\n---\n"
                                 "beads:\n  - id: a\n\n    title: T\n", &raw), MF_CONTRACT_EXACT);
    assert_string_equal(raw, "beads:\n  - a\n\n    title: T\n");
    free(raw);
}

/* The repair of a case's raw text gives what the repair of its clean text
 * gives, wherever the case claims exact; whether every op applied. */
static bool exact_holds(const char *text, bool *all_applied)
{
    char err[200];
    mf_case *c = mf_case_decode(text, strlen(text), err, sizeof err);
    assert_non_null(c);
    mf_render r;
    assert_int_equal(mf_case_render(c, &r), 0);
    *all_applied = true;
    for (size_t i = 0; i < c->nops; i++)
        *all_applied = *all_applied && r.applied[i];
    bool same = true;
    if (r.contract == MF_CONTRACT_EXACT) {
        mf_result *a = mf_repair(r.profile, r.raw, r.raw_len, NULL), *b = mf_repair(r.profile, r.clean, r.clean_len, NULL);
        same = a->status == MF_ACCEPTED && b->status == MF_ACCEPTED && json_equal(a->value, b->value);
        mf_result_free(a);
        mf_result_free(b);
    }
    mf_render_free(&r);
    mf_case_free(c);
    return same;
}

/* Run 14 (session 9) 3bc39141-ra8ffc84f: norm.question-renumber numbers
 * repeats in document order before norm.phase-order sorts, so
 * norm.duplicate-question-id finds no site while a repeat already sits before
 * the last question (its own first repeat, moved up by
 * norm.phase-out-of-order: the last question got Q03, not its Q02), and
 * norm.phase-out-of-order moves no repeat up past another repeat */
static void test_run14_dupqid_repeat(void **state)
{
    (void)state;
    static const char qs[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: \"W\"\n  - id: Q02\n"
                             "    phase: structure\n    question: \"H\"\n  - id: Q03\n    phase: assembly\n    question: S\n";
    char text[600];
    bool all;
    snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n"
             "op: norm.phase-out-of-order seed=9053084564803915396\nop: norm.duplicate-question-id seed=1\n---\n%s", qs);
    assert_true(exact_holds(text, &all));
    assert_false(all);
    for (int seed = 1; seed < 30; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n"
                 "op: norm.phase-out-of-order seed=%d\nop: norm.duplicate-question-id seed=%d\n---\n%s", seed, seed, qs);
        if (!exact_holds(text, &all))
            fail_msg("dup, phase, dup seed %d", seed);
    }
    static const char pairs[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: A\n  - id: Q02\n"
                                "    phase: structure\n    question: B\n  - id: Q01\n    phase: structure\n    question: C\n"
                                "  - id: Q02\n    phase: assembly\n    question: D\n";
    bool moved = false;
    for (int seed = 1; seed < 30; seed++) {
        snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: norm.phase-out-of-order seed=%d\n---\n%s",
                 seed, pairs);
        if (!exact_holds(text, &all))
            fail_msg("a repeat moved past a repeat, seed %d", seed);
        moved = moved || all;
    }
    assert_true(moved);
}

/* Run 15 (session 9) 67569200, a30e596a, e8c44b0e: norm.phase-out-of-order
 * read a glued `phase:structure` (yaml.colon-space) as no phase, ranked the
 * question last, and moved it up past a question of its own phase; core
 * spaces the key before norm.phase-order's stable sort, which then leaves the
 * two swapped */
static void test_run15_glued_phase(void **state)
{
    (void)state;
    static const char qs[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02\n"
                             "    phase: structure\n    question: D\n  - id: Q03\n    phase: structure\n    question: H\n";
    char text[700];
    bool all, moved = false;
    for (int glue = 1; glue < 40; glue++)
        for (int seed = 1; seed < 6; seed++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.colon-space seed=%d\n"
                     "op: norm.phase-out-of-order seed=%d\n---\n%s", glue, seed, qs);
            if (!exact_holds(text, &all))
                fail_msg("a glued phase moved past its own phase, seeds %d %d", glue, seed);
            moved = moved || all;
        }
    assert_true(moved);
}

/* Run 23: yaml.unclosed-quote opens no value holding a lone CR (the quote spans
 * lines; `lemented login: tokens` after a CR may be a key of its own: 509a7299),
 * and yaml.plain-colon unquotes no value opening with ': ' (6e73f49f). */
static void test_run23_unquote_sites(void **state)
{
    (void)state;
    for (int seed = 1; seed < 10; seed++) {
        char text[400], *raw = NULL;
        snprintf(text, sizeof text, "malform-case 1\nprofile: bead_status\nop: yaml.unclosed-quote seed=%d\n---\n"
                 "bead_id: a\nstatus: done\nsummary: \"Imp\r\rlemented login: tokens and sessions\"\n"
                 "checks:\n  tests: pass\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "tokens and sessions\"\n"));
        free(raw);
        snprintf(text, sizeof text, "malform-case 1\nprofile: generic_yaml\nop: yaml.plain-colon seed=%d\n---\n"
                 "items:\n  - id: Q01\n    text: \": What: exactly?\"\n    notes: x\n", seed);
        contract_of(text, &raw);
        assert_non_null(strstr(raw, "text: \": What: exactly?\"\n"));
        free(raw);
    }
}

/* Run 25 (dcf19455): norm.phase-out-of-order moves no question whose flow
 * collection is still open at its last line (`selected: [` with `icu]` at
 * column 0, past the list's end to the line model): moved up, its lines
 * would split the flow value (`[` + the next question + `icu]`). A flow
 * closed inside the item, or a quoted `[` in the flow, still moves. */
static void test_run25_phase_order_open_flow(void **state)
{
    (void)state;
    const char *head = "malform-case 1\nprofile: full_answers\nop: norm.phase-out-of-order seed=%d\n---\n"
                       "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02\n"
                       "    phase: structure\n    question: P\n    answer:\n      selected: [%s\n";
    static const char *const open_tails[] = {"\nicu]", "a,\n{x: icu}]", "\"]\",\nicu]"};
    bool moved = false;
    for (int seed = 1; seed < 30; seed++) {
        char text[600], *raw = NULL;
        for (size_t t = 0; t < sizeof open_tails / sizeof open_tails[0]; t++) {
            snprintf(text, sizeof text, head, seed, open_tails[t]);
            contract_of(text, &raw);
            if (strstr(raw, "  - id: Q02") < strstr(raw, "  - id: Q01"))
                fail_msg("seed %d tail %zu: an item with an open flow moved:\n%s", seed, t, raw);
            free(raw);
        }
        snprintf(text, sizeof text, head, seed, "\"[\",\n        icu]");
        contract_of(text, &raw);
        moved = moved || strstr(raw, "  - id: Q02") < strstr(raw, "  - id: Q01");
        free(raw);
    }
    assert_true(moved);
}

/* Run 27 (6695d845): json.missing-comma takes no comma between a string and a
 * string whose text opens with a delimiter (`"T" ",description": "D"`): the second
 * quote reads as the close of `T" ` (json.inner-quote) before key `description"`.
 * A string that only holds a delimiter later (`"d,"`) is still a site. */
static void test_run27_missing_comma_delimiter_string(void **state)
{
    (void)state;
    const char *head = "malform-case 1\nprofile: generic_json\nop: json.missing-comma seed=%d\n---\n%s\n";
    static const char *const kept[] = {"{\"a\": \"T\", \",d\": \"D\"}", "{\"a\": \"T\", \"}d\": 1}",
                                       "[\"T\", \"]x\"]", "[\"T\", \":x\"]"};
    bool applied = false;
    for (int seed = 1; seed < 10; seed++) {
        char text[300], *raw = NULL;
        for (size_t k = 0; k < sizeof kept / sizeof kept[0]; k++) {
            snprintf(text, sizeof text, head, seed, kept[k]);
            contract_of(text, &raw);
            if (!strstr(raw, "\", \""))
                fail_msg("seed %d text %zu: comma before a delimiter-led string taken:\n%s", seed, k, raw);
            free(raw);
        }
        snprintf(text, sizeof text, head, seed, "{\"a\": \"T\", \"d,\": \"D\"}");
        contract_of(text, &raw);
        applied = applied || strstr(raw, "\"T\"  \"d,\"") != NULL;
        free(raw);
    }
    assert_true(applied);
}

/* Run 27 (session 12, r27iview) 50a7dc5d, e36668bc: norm.phase-out-of-order
 * read a question whose first property yaml.property-indent displaced
 * (`- id: Q02` + `      phase: foundation`) as one without a phase, ranked
 * it last, and moved it up past a question of its own phase; core re-indents
 * the property before norm.phase-order's stable sort, which then leaves the
 * two swapped. A question of a later phase still moves. */
static void test_run27_displaced_phase(void **state)
{
    (void)state;
    static const char same[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02\n"
                               "    phase: foundation\n    question: S\n";
    static const char later[] = "questions:\n  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02\n"
                                "    phase: structure\n    question: S\n";
    char text[700];
    bool all, moved = false;
    for (int prop = 1; prop < 30; prop++)
        for (int seed = 1; seed < 6; seed++) {
            snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.property-indent seed=%d\n"
                     "op: norm.phase-out-of-order seed=%d\n---\n%s", prop, seed, same);
            if (!exact_holds(text, &all) || all)
                fail_msg("a displaced phase moved past its own phase, seeds %d %d", prop, seed);
            snprintf(text, sizeof text, "malform-case 1\nprofile: interview\nop: yaml.property-indent seed=%d\n"
                     "op: norm.phase-out-of-order seed=%d\n---\n%s", prop, seed, later);
            if (!exact_holds(text, &all))
                fail_msg("a displaced later phase broke exact, seeds %d %d", prop, seed);
            moved = moved || all;
        }
    assert_true(moved);
}

/* Run 28 (session 12, r28iview) 074f958c, 96eda3a7, ba75503b, d54d3abb:
 * norm.duplicate-question-id read the id of `- id: Q03 phase: assembly`
 * (yaml.inline-keys) as no id, took Q01 for the batch maximum and repeated Q01
 * over the last question's Q02; core splits the line, reads Q03 and renumbers
 * the repeat to Q04. The op reads such an id, and writes over only the id of
 * a glued last or first question. */
static void dup_qid_case(const char *qs, char *text, size_t cap)
{
    snprintf(text, cap, "malform-case 1\nprofile: interview\nop: norm.duplicate-question-id seed=1\n---\n"
             "questions:\n%s", qs);
}

static void test_run28_inline_key_qid(void **state)
{
    (void)state;
    static const char higher[] = "  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q03 phase: assembly\n"
                                 "    question: M\n  - id: Q02\n    phase: structure\n    question: H\n";
    static const char lower[] = "  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02 phase: structure\n"
                                "    question: H\n  - id: Q03\n    phase: assembly\n    question: M\n";
    static const char last[] = "  - id: Q01\n    phase: foundation\n    question: W\n  - id: Q02\n    phase: structure\n"
                               "    question: H\n  - id: Q03 phase: assembly\n    question: M\n";
    static const char first[] = "  - id: Q01 phase: foundation\n    question: W\n  - id: Q02\n    phase: structure\n"
                                "    question: H\n  - id: Q03\n    phase: assembly\n    question: M\n";
    char text[700], *raw = NULL;
    bool all;
    dup_qid_case(higher, text, sizeof text);
    assert_true(exact_holds(text, &all));
    assert_false(all);
    dup_qid_case(lower, text, sizeof text);
    assert_true(exact_holds(text, &all));
    assert_true(all);
    dup_qid_case(last, text, sizeof text);
    assert_true(exact_holds(text, &all));
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
    assert_non_null(strstr(raw, "  - id: Q01 phase: assembly\n"));
    free(raw);
    dup_qid_case(first, text, sizeof text);
    assert_true(exact_holds(text, &all));
    assert_int_equal(contract_of(text, &raw), MF_CONTRACT_EXACT);
    assert_int_equal(count_of(raw, "phase: foundation"), 1);
    assert_non_null(strstr(raw, "  - id: Q01\n    phase: assembly\n"));
    free(raw);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),        cmocka_unit_test(test_case_roundtrip),
        cmocka_unit_test(test_case_errors),     cmocka_unit_test(test_render_deterministic),
        cmocka_unit_test(test_mutate_roundtrip), cmocka_unit_test(test_op_fixtures),
        cmocka_unit_test(test_op_sites_and_ambiguity),
        cmocka_unit_test(test_yaml_marker_sites), cmocka_unit_test(test_dash_space_before_parent_key), cmocka_unit_test(test_inner_quote_array_item_sites), cmocka_unit_test(test_session6_sites), cmocka_unit_test(test_session7_sites),
        cmocka_unit_test(test_session7_cand_sites), cmocka_unit_test(test_session7_yaml_sites),
        cmocka_unit_test(test_session7_prof1_sites), cmocka_unit_test(test_session8_yaml2_sites),
        cmocka_unit_test(test_run6_json_sites), cmocka_unit_test(test_run6_finder_sites),
        cmocka_unit_test(test_cand_reasoning),     cmocka_unit_test(test_session7_prof2_sites),
        cmocka_unit_test(test_session8_json_sites),
        cmocka_unit_test(test_session8_prof_sites),
        cmocka_unit_test(test_drift_item_with_glued_dash),
        cmocka_unit_test(test_prose_before_indented_text),
        cmocka_unit_test(test_xml_tags_scalar_behind_noise),
        cmocka_unit_test(test_python_tuple_scalars_only),
        cmocka_unit_test(test_session8_yaml1_sites),
        cmocka_unit_test(test_session11_doubled_quoted_header),
        cmocka_unit_test(test_session9_prof2_sites),
        cmocka_unit_test(test_session9_prof_sites),
        cmocka_unit_test(test_session9_yaml2_sites),
        cmocka_unit_test(test_session9_beads_sites),
        cmocka_unit_test(test_session11_flow_over_item_line),
        cmocka_unit_test(test_session9_cand_sites),
        cmocka_unit_test(test_session9_json_sites),
        cmocka_unit_test(test_session10_misc_sites),
        cmocka_unit_test(test_session10_inline_sites),
        cmocka_unit_test(test_run11_yamlstruct_sites),
        cmocka_unit_test(test_run13_dupkey_sites),
        cmocka_unit_test(test_run13_dupqid_sites),
        cmocka_unit_test(test_run14_dupqid_repeat),
        cmocka_unit_test(test_run15_drift_after_plain),
        cmocka_unit_test(test_run16_drift_stacks),
        cmocka_unit_test(test_run15_glued_phase),
        cmocka_unit_test(test_run12_misc_sites),
        cmocka_unit_test(test_session9_item_key_sites),
        cmocka_unit_test(test_run16_flow_parse_sites),
        cmocka_unit_test(test_run20_union_sites),
        cmocka_unit_test(test_run21_fallen_body_prose),
        cmocka_unit_test(test_run21_prose_after_fallen_body),
        cmocka_unit_test(test_run21_escape_comment_sites),
        cmocka_unit_test(test_run21_body_fence_in_wrapper),
        cmocka_unit_test(test_run21_phase_order_inline_id),
        cmocka_unit_test(test_run21_drift_plain_item_run),
        cmocka_unit_test(test_run21_drift_near_nested_list),
        cmocka_unit_test(test_run23_unquote_sites),
        cmocka_unit_test(test_run25_phase_order_open_flow),
        cmocka_unit_test(test_run27_missing_comma_delimiter_string),
        cmocka_unit_test(test_run27_displaced_phase),
        cmocka_unit_test(test_run28_inline_key_qid),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
