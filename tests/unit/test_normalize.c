/* test_normalize.c - wrapper unwrapping, key aliasing and the seed-000
 * artifact normalizers, called directly and through mf_repair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "norm.h"

static json_t *J(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &e);
    if (!v)
        fail_msg("bad test JSON: %s", e.text);
    return v;
}

static const mf_profile *P(const char *name)
{
    const mf_profile *p = mf_profiles_get(name);
    assert_non_null(p);
    return p;
}

static void assert_json(const json_t *got, const char *want)
{
    json_t *w = J(want);
    if (!json_equal(got, w)) {
        char *g = json_dumps(got, JSON_COMPACT | JSON_ENCODE_ANY);
        fail_msg("got %s\nwant %s", g, want);
    }
    json_decref(w);
}

/* Run the named normalizer on a JSON text; returns its rc, value in *out. */
static int run(const char *norm, const char *profile, const char *text, const mf_options *o,
               json_t **out, mf_warnings *w, mf_error *err)
{
    mf_normalizer_fn fn = mf_normalizer_find(norm);
    assert_non_null(fn);
    *out = J(text);
    return fn(out, P(profile), o, w, err);
}

/* The normalizer applied to its own output changes nothing and warns nothing. */
static void assert_fixed_point(const char *norm, const char *profile, const json_t *v, const mf_options *o)
{
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *again = json_deep_copy(v);
    assert_int_equal(mf_normalizer_find(norm)(&again, P(profile), o, &w, &err), 0);
    assert_int_equal(w.count, 0);
    assert_true(json_equal(again, v));
    json_decref(again);
}

static void test_registry(void **state)
{
    (void)state;
    static const char *const names[] = {"interview", "full_answers", "prd", "beads", "bead_status", "changes", NULL};
    for (const char *const *n = names; *n; n++)
        assert_non_null(mf_normalizer_find(*n));
    assert_null(mf_normalizer_find("no_such_normalizer"));
    assert_null(mf_normalizer_find(NULL));
    static const char *const profiles[] = {"interview", "full_answers", "prd", "beads", "bead_status",
                                           "refinement_changes", NULL};
    for (const char *const *n = profiles; *n; n++)
        assert_non_null(P(*n)->schema);
}

static void test_unwrap(void **state)
{
    (void)state;
    mf_warnings w = {0};
    json_t *v = J("{\"output\": {\"status\": \"done\"}}");
    assert_int_equal(mf_norm_unwrap(P("bead_status"), &v, &w), 0);
    assert_json(v, "{\"status\": \"done\"}");
    assert_string_equal(w.items[0].message, "Removed wrapper key \"output\" from top level.");
    json_decref(v);

    v = J("{\"result\": {\"prd\": {\"epics\": []}}}");
    assert_int_equal(mf_norm_unwrap(P("prd"), &v, &w), 0);
    assert_json(v, "{\"epics\": []}");
    assert_string_equal(w.items[1].message, "Removed wrapper key chain \"result -> prd\" from top level.");
    json_decref(v);

    v = J("{\"artifact\": {\"prd\": {\"status\": \"draft\"}}}");
    assert_int_equal(mf_norm_unwrap(P("prd"), &v, &w), 0);
    assert_json(v, "{\"artifact\": \"prd\", \"status\": \"draft\"}");
    assert_string_equal(json_object_iter_key(json_object_iter(v)), "artifact");
    json_decref(v);
    mf_warnings_clear(&w);

    /* generic profiles, top-level keys and scalar payloads are never unwrapped */
    static const struct { const char *profile, *text; } keep[] = {
        {"generic_yaml", "{\"output\": {\"a\": 1}}"},
        {"generic_json", "{\"data\": [1, 2]}"},
        {"beads", "{\"beads\": [{\"id\": \"x\"}]}"},
        {"bead_status", "{\"output\": \"done\"}"},
        {"prd", "{\"output\": {\"a\": 1}, \"status\": \"draft\"}"},
    };
    for (size_t i = 0; i < sizeof keep / sizeof *keep; i++) {
        v = J(keep[i].text);
        json_t *before = json_deep_copy(v);
        assert_int_equal(mf_norm_unwrap(P(keep[i].profile), &v, &w), 0);
        assert_true(json_equal(v, before));
        assert_int_equal(w.count, 0);
        json_decref(v);
        json_decref(before);
    }
}

static void test_aliases(void **state)
{
    (void)state;
    mf_warnings w = {0};
    json_t *v = J("{\"beads\": [{\"beadId\": \"a\", \"Title\": \"T\", \"prdRefs\": [\"US-1-1\"], \"zz\": 1}]}");
    assert_int_equal(mf_norm_aliases(P("beads"), v, &w), 0);
    assert_json(v, "{\"beads\": [{\"id\": \"a\", \"title\": \"T\", \"prd_refs\": [\"US-1-1\"], \"zz\": 1}]}");
    const char *order[] = {"id", "title", "prd_refs", "zz"};
    void *it = json_object_iter(json_array_get(json_object_get(v, "beads"), 0));
    for (size_t i = 0; i < 4; i++, it = json_object_iter_next(json_array_get(json_object_get(v, "beads"), 0), it))
        assert_string_equal(json_object_iter_key(it), order[i]);
    assert_int_equal(w.count, 3);
    assert_string_equal(w.items[1].message, "Renamed key \"Title\" to \"title\" at /beads/0.");
    json_decref(v);
    mf_warnings_clear(&w);

    /* both spellings with different values: both kept, nothing dropped */
    v = J("{\"checks\": {\"tests\": \"pass\", \"test\": \"fail\"}}");
    assert_int_equal(mf_norm_aliases(P("bead_status"), v, &w), 0);
    assert_json(v, "{\"checks\": {\"tests\": \"pass\", \"test\": \"fail\"}}");
    assert_int_equal(w.count, 0);
    json_decref(v);

    /* generic profiles have no aliases */
    v = J("{\"prdRefs\": 1}");
    assert_int_equal(mf_norm_aliases(P("generic_yaml"), v, &w), 0);
    assert_json(v, "{\"prdRefs\": 1}");
    json_decref(v);
    mf_warnings_clear(&w);
}

static void test_interview(void **state)
{
    (void)state;
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *v;
    assert_int_equal(run("interview", "interview",
                         "{\"questions\": ["
                         "{\"id\": 1, \"phase\": \"Assembly\", \"question\": \"a\"},"
                         "{\"id\": \"q1\", \"phase\": \"foundation\", \"question\": \"b\"},"
                         "{\"id\": \"Question 3\", \"phase\": \"structure\", \"question\": \"c\"},"
                         "{\"id\": \"Q01\", \"phase\": \"foundation\", \"question\": \"d\"}]}",
                         NULL, &v, &w, &err), 0);
    assert_json(v, "{\"questions\": ["
                   "{\"id\": \"Q04\", \"phase\": \"foundation\", \"question\": \"b\"},"
                   "{\"id\": \"Q05\", \"phase\": \"foundation\", \"question\": \"d\"},"
                   "{\"id\": \"Q03\", \"phase\": \"structure\", \"question\": \"c\"},"
                   "{\"id\": \"Q01\", \"phase\": \"assembly\", \"question\": \"a\"}]}");
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_QUESTION_RENUMBER)));
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_PHASE_ORDER)));
    assert_fixed_point("interview", "interview", v, NULL);
    json_decref(v);
    mf_warnings_clear(&w);

    assert_int_equal(run("interview", "interview",
                         "{\"questions\": [{\"id\": \"Q01\", \"phase\": \"foundation\", \"question\": \"a\"}, 5]}",
                         NULL, &v, &w, &err), -1);
    assert_int_equal(err.tier, 2);
    assert_string_equal(err.type, "SCHEMA_VIOLATION");
    assert_string_equal(err.path, "/questions/1");
    mf_error_clear(&err);
    json_decref(v);
}

static void test_prd(void **state)
{
    (void)state;
    mf_warnings w = {0};
    mf_error err = {0};
    mf_options o = {0};
    json_t *context = J("{\"ticket_id\": \"LT-9\", \"interview_sha256\": \"3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b\"}");
    o.context = context;
    json_t *v;
    assert_int_equal(run("prd", "prd",
                         "{\"schema_version\": -3, \"status\": \"pending\", \"ticket_id\": 9,"
                         " \"epics\": [{\"user_stories\": [{}, {\"id\": \"US-1-1\"}]}, {\"id\": \"EPIC-1\"}]}",
                         &o, &v, &w, &err), 0);
    assert_json(v, "{\"schema_version\": 1, \"status\": \"draft\", \"ticket_id\": \"LT-9\","
                   " \"epics\": [{\"id\": \"EPIC-2\", \"user_stories\": [{\"id\": \"US-1-2\"}, {\"id\": \"US-1-1\"}]},"
                   " {\"id\": \"EPIC-1\"}], \"source_interview\": {\"content_sha256\": \"3a7bd3e2360a3d29eea436fcfb7e44c735d117c42d1c1835420b6b9942dd4f1b\"}}");
    assert_fixed_point("prd", "prd", v, &o);
    json_decref(v);
    mf_warnings_clear(&w);

    /* the schema_version warning names the value it replaced */
    assert_int_equal(run("prd", "prd", "{\"schema_version\": \"one\", \"ticket_id\": \"LT-1\", \"status\": \"draft\"}",
                         NULL, &v, &w, &err), 0);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0].message, "Normalized invalid schema_version to 1 (was \"one\").");
    json_decref(v);
    mf_warnings_clear(&w);

    /* without runtime context a present ticket id is kept, silently */
    assert_int_equal(run("prd", "prd", "{\"ticket_id\": \"LT-1\", \"status\": \"approved\", \"schema_version\": 2}",
                         NULL, &v, &w, &err), 0);
    assert_int_equal(w.count, 0);
    json_decref(v);
    json_decref(context);
}

static void test_beads(void **state)
{
    (void)state;
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *v;
    assert_int_equal(run("beads", "beads",
                         "[{\"id\": \"a\", \"prd_refs\": [\"x\"]}, {\"id\": \"a\", \"prd_refs\": [\"x\"]},"
                         " {\"prd_refs\": [\"x\"], \"context_guidance\":"
                         " \"Intro text\\nPatterns:\\n- Use X\\n  continued\\n* Use Z\\nAnti_patterns: Avoid Y\"}]",
                         NULL, &v, &w, &err), 0);
    assert_json(v, "{\"beads\": [{\"id\": \"a\", \"prd_refs\": [\"x\"]}, {\"id\": \"a-2\", \"prd_refs\": [\"x\"]},"
                   " {\"id\": \"bead-3\", \"prd_refs\": [\"x\"], \"context_guidance\": {\"patterns\":"
                   " [\"Intro text\", \"Use X continued\", \"Use Z\"], \"anti_patterns\": [\"Avoid Y\"]}}]}");
    assert_fixed_point("beads", "beads", v, NULL);
    json_decref(v);
    mf_warnings_clear(&w);
}

static void test_bead_status(void **state)
{
    (void)state;
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *v;
    assert_int_equal(run("bead_status", "bead_status",
                         "{\"status\": \"Succeeded\", \"checks\": {\"tests\": 1, \"lint\": false,"
                         " \"typecheck\": \"not_run\", \"qualitative\": \"N/A\", \"x\": [1]}}",
                         NULL, &v, &w, &err), 0);
    assert_json(v, "{\"status\": \"done\", \"checks\": {\"tests\": \"pass\", \"lint\": \"fail\","
                   " \"typecheck\": \"fail\", \"qualitative\": \"n/a\", \"x\": [1]}}");
    assert_int_equal(w.count, 5);
    assert_fixed_point("bead_status", "bead_status", v, NULL);
    json_decref(v);
    mf_warnings_clear(&w);

    /* a status holding a NUL byte: the warning names all of it, the bytes after the NUL escaped */
    v = json_object();
    json_object_set_new(v, "status", json_stringn("done\x7f\0summary: lost", 19));
    assert_int_equal(mf_normalizer_find("bead_status")(&v, P("bead_status"), NULL, &w, &err), 0);
    assert_json(v, "{\"status\": \"done\"}");
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0].message, "Normalized bead status \"done\\u007f\\u0000summary: lost\" to done.");
    json_decref(v);
    mf_warnings_clear(&w);
}

static void test_changes(void **state)
{
    (void)state;
    mf_warnings w = {0};
    mf_error err = {0};
    mf_options o = {0};
    json_t *roster = J("{\"roster\": [\"m1\", \"m2\"]}");
    o.context = roster;
    json_t *v;
    assert_int_equal(run("changes", "refinement_changes",
                         "{\"changes\": [\"x\", {\"type\": \"Added\", \"inspiration\": {\"alternative_draft\": 2}},"
                         " {\"type\": \"moved\"}, {\"type\": \"removed\", \"inspiration\": {\"alternative_draft\": 0}}]}",
                         &o, &v, &w, &err), 0);
    assert_json(v, "{\"changes\": [{\"type\": \"added\", \"inspiration\": {\"alternative_draft\": \"m2\"}},"
                   " {\"type\": \"removed\", \"inspiration\": {\"alternative_draft\": 0},"
                   " \"attribution_status\": \"invalid_unattributed\"}]}");
    assert_string_equal(w.items[0].message, "Skipped non-object refinement change at index 0.");
    assert_fixed_point("changes", "refinement_changes", v, &o);
    json_decref(v);
    json_decref(roster);
    mf_warnings_clear(&w);
}

/* 200 000 equal ids: renumbering keeps running counters, so this finishes
 * well inside ctest's timeout (a quadratic renumbering would not). */
static void test_hostile_duplicates(void **state)
{
    (void)state;
    const size_t n = 200000;
    json_t *beads = json_array(), *epics = json_array(), *qs = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(beads, json_pack("{s:s, s:[s]}", "id", "same", "prd_refs", "x"));
        json_array_append_new(epics, json_pack("{s:s, s:[{s:s}]}", "id", "EPIC-1", "user_stories", "id", "US-1-1"));
        json_array_append_new(qs, json_pack("{s:s, s:s, s:s}", "id", "Q01", "phase", "foundation", "question", "q"));
    }
    struct { const char *norm, *key; json_t *list; } cases[] = {
        {"beads", "beads", beads}, {"prd", "epics", epics}, {"interview", "questions", qs}};
    for (size_t c = 0; c < 3; c++) {
        json_t *root = json_pack("{s:o}", cases[c].key, cases[c].list);
        mf_warnings w = {0};
        mf_error err = {0};
        assert_int_equal(mf_normalizer_find(cases[c].norm)(&root, P(cases[c].norm), NULL, &w, &err), 0);
        assert_true(mf_warnings_total(&w) >= n - 1);
        mf_warnings_clear(&w);
        json_decref(root);
    }
}

/* Through the whole pipeline: garbage is rejected, wrapped/aliased input is accepted. */
static void test_pipeline(void **state)
{
    (void)state;
    static const struct { const char *profile, *text; } bad[] = {
        {"interview", "questions: []\n"},
        {"interview", "Sure! Here are the questions you asked for.\n"},
        {"prd", "schema_version: 1\nticket_id: X\nartifact: prd\nstatus: draft\nepics: none\n"},
        {"beads", "beads:\n  - title: no criteria\n    prd_refs: [a]\n"},
        {"bead_status", "status: done\n"},
        {"refinement_changes", "changes: 5\n"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        mf_result *r = mf_repair(P(bad[i].profile), bad[i].text, strlen(bad[i].text), NULL);
        if (r->status != MF_REJECTED)
            fail_msg("%s accepted garbage: %s", bad[i].profile, bad[i].text);
        mf_result_free(r);
    }
    const char *ok = "output:\n  Status: Completed\n  checks:\n    test: true\n    linter: ok\n"
                     "    typescript: passed\n    review: pass\n";
    mf_result *r = mf_repair(P("bead_status"), ok, strlen(ok), NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    assert_json(r->value, "{\"status\": \"done\", \"checks\": {\"tests\": \"pass\", \"lint\": \"pass\","
                          " \"typecheck\": \"pass\", \"qualitative\": \"pass\"}}");
    assert_true(mf_warnings_has(&r->warnings, MF_RULE_ID(NORM_WRAPPER)));
    assert_true(mf_warnings_has(&r->warnings, MF_RULE_ID(NORM_KEY_ALIAS)));
    mf_result_free(r);
}

/* Runtime context: a normalizer sees only the keys its profile declares, with the declared type. */
static void test_runtime_context(void **state)
{
    (void)state;
    json_t *ctx = J("{\"ticket_id\": 7, \"interview_sha256\": \"ab\", \"story_id\": \"US-1\"}");
    mf_options o;
    mf_options_from_json(ctx, &o);
    assert_null(mf_options_context(&o, P("prd"), "ticket_id"));        /* declared string, got a number */
    assert_string_equal(mf_options_context_string(&o, P("prd"), "interview_sha256"), "ab");
    assert_null(mf_options_context(&o, P("prd"), "story_id"));         /* not declared by prd */
    assert_string_equal(mf_options_context_string(&o, P("task_breakdown"), "story_id"), "US-1");
    assert_non_null(mf_options_context(&o, NULL, "story_id"));         /* no profile: the raw map */
    mf_warnings w = {0};
    mf_error err = {0};
    json_t *v;
    assert_int_equal(run("prd", "prd", "{\"ticket_id\": \"LT-1\"}", &o, &v, &w, &err), 0);
    assert_json(json_object_get(v, "ticket_id"), "\"LT-1\"");           /* the number was not used */
    json_decref(v);
    mf_warnings_clear(&w);
    json_decref(ctx);

    char msg[256];
    const char *bad = "name: x\nformat: yaml\ncontext:\n  ticket_id: number\n";
    assert_null(mf_profile_parse(bad, strlen(bad), "x.yaml", msg, sizeof msg));
    assert_non_null(strstr(msg, "x.yaml:3: context"));
}

/* bead_status takes its synonyms from the profile's enum maps, not from C. */
static void test_bead_status_words_from_profile(void **state)
{
    (void)state;
    const char *text = "name: marker\nformat: yaml\nnormalizers: [bead_status]\nenums:\n"
                       "  status: {values: [done, error], map: {shipped: done}}\n"
                       "  checks: {values: [pass, fail], map: {green: pass, \"0\": fail}}\n";
    char msg[256];
    mf_profile *p = mf_profile_parse(text, strlen(text), "marker.yaml", msg, sizeof msg);
    assert_non_null(p);
    json_t *v = J("{\"status\": \"Shipped\", \"checks\": {\"tests\": \"GREEN\", \"lint\": 0, \"qa\": \"ok\"}}");
    mf_warnings w = {0};
    mf_error err = {0};
    assert_int_equal(mf_normalizer_find("bead_status")(&v, p, NULL, &w, &err), 0);
    /* "ok" is a synonym in the shipped profile, not in this one: kept, lowercased */
    assert_json(v, "{\"status\": \"done\", \"checks\": {\"tests\": \"pass\", \"lint\": \"fail\", \"qa\": \"ok\"}}");
    assert_int_equal(w.count, 3);
    json_decref(v);
    mf_warnings_clear(&w);
    mf_profile_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),   cmocka_unit_test(test_unwrap),
        cmocka_unit_test(test_aliases),    cmocka_unit_test(test_interview),
        cmocka_unit_test(test_prd),        cmocka_unit_test(test_beads),
        cmocka_unit_test(test_bead_status), cmocka_unit_test(test_changes),
        cmocka_unit_test(test_runtime_context), cmocka_unit_test(test_bead_status_words_from_profile),
        cmocka_unit_test(test_hostile_duplicates), cmocka_unit_test(test_pipeline),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
