/* test_retry.c - retry budget (2, 2, 1; 3 in total) and retry feedback (seed 004). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"
#include "malform/retry.h"

static int fail_tier(mf_retry *r, int tier, const char *type, const char *path, int line, const char *msg)
{
    mf_error e = {0};
    mf_error_set(&e, tier, type, path, line, 0, "%s", msg);
    int rc = mf_retry_record_error(r, &e);
    mf_error_clear(&e);
    return rc;
}

static void test_tier_budgets(void **state)
{
    (void)state;
    mf_retry *r = mf_retry_new();
    assert_int_equal(mf_retry_remaining(r, 0), 3);
    assert_int_equal(fail_tier(r, 1, "YAML_SYNTAX_ERROR", "", 5, "x"), 1);
    assert_int_equal(fail_tier(r, 1, "YAML_SYNTAX_ERROR", "", 5, "x"), 1);
    assert_int_equal(mf_retry_remaining(r, 1), 0);
    assert_int_equal(fail_tier(r, 1, "YAML_SYNTAX_ERROR", "", 5, "x"), 0); /* tier 1 spent */
    assert_false(mf_retry_should_retry(r));
    assert_int_equal(mf_retry_remaining(r, 0), 1);
    mf_retry_free(r);

    r = mf_retry_new(); /* tier 3 gets a single retry */
    assert_int_equal(fail_tier(r, 3, "GLOB_MISMATCH", "/glob", 0, "x"), 1);
    assert_int_equal(fail_tier(r, 3, "GLOB_MISMATCH", "/glob", 0, "x"), 0);
    mf_retry_free(r);

    r = mf_retry_new(); /* the total caps mixed tiers at 3 retries */
    assert_int_equal(fail_tier(r, 1, "JSON_SYNTAX_ERROR", "", 1, "x"), 1);
    assert_int_equal(fail_tier(r, 2, "SCHEMA_VIOLATION", "/a", 0, "x"), 1);
    assert_int_equal(fail_tier(r, 2, "SCHEMA_VIOLATION", "/a", 0, "x"), 1);
    assert_int_equal(mf_retry_remaining(r, 0), 0);
    assert_int_equal(fail_tier(r, 1, "JSON_SYNTAX_ERROR", "", 1, "x"), 0);
    assert_int_equal(mf_retry_count(r), 4);
    /* escalation: a hint buys one more attempt of any tier; fresh resets all */
    mf_retry_add_hint(r);
    assert_int_equal(fail_tier(r, 3, "EMPTY_EXTRACTION", "/extract", 0, "x"), 1);
    assert_int_equal(fail_tier(r, 3, "EMPTY_EXTRACTION", "/extract", 0, "x"), 0);
    mf_retry_reset(r);
    assert_int_equal(mf_retry_count(r), 0);
    assert_int_equal(mf_retry_remaining(r, 2), 2);
    assert_int_equal(mf_retry_remaining(r, 7), -1);
    mf_retry_free(r);
}

static void test_accepted_ends_loop(void **state)
{
    (void)state;
    mf_retry *r = mf_retry_new();
    const mf_profile *p = mf_profiles_get("generic_json");
    mf_result *bad = mf_repair(p, "", 0, NULL);
    assert_int_equal(bad->status, MF_REJECTED);
    assert_int_equal(mf_retry_record(r, bad), 1);
    mf_result *good = mf_repair(p, "{\"a\": 1}", 8, NULL);
    assert_int_equal(good->status, MF_ACCEPTED);
    assert_int_equal(mf_retry_record(r, good), 0);
    assert_true(mf_retry_succeeded(r));
    assert_false(mf_retry_should_retry(r));
    assert_int_equal(mf_retry_error_at(r, 1)->tier, 0);
    assert_string_equal(mf_retry_error_at(r, 0)->type, bad->error.type);
    assert_null(mf_retry_error_at(r, 2));
    mf_result_free(bad);
    mf_result_free(good);
    mf_retry_free(r);
}

/* The seed's example 2 history, rendered. */
static void test_feedback_text(void **state)
{
    (void)state;
    mf_retry *r = mf_retry_new();
    fail_tier(r, 1, "YAML_SYNTAX_ERROR", "", 5, "mapping values not allowed here");
    fail_tier(r, 2, "SCHEMA_VIOLATION", "/extract/client/from",
              0, "\"folder(-4)\" does not match the pattern ^(segment\\(-?\\d+\\)|filename|full_path|rel_path)$");
    char *text = mf_retry_feedback(r, NULL, NULL);
    assert_string_equal(text,
                        "---\nPREVIOUS ATTEMPTS AND ERRORS:\n"
                        "\nAttempt 1: YAML_SYNTAX_ERROR\n  Error: mapping values not allowed here\n  Line: 5\n"
                        "\nAttempt 2: SCHEMA_VIOLATION\n  Error: \"folder(-4)\" does not match the pattern "
                        "^(segment\\(-?\\d+\\)|filename|full_path|rel_path)$\n  Path: extract.client.from\n");
    free(text);

    json_t *samples = json_pack("{s:[s,s,s,s]}", "sample_paths", "/a/1.csv", "/a/2.csv", "/a/3.csv", "/a/4.csv");
    mf_options o = {0};
    o.context = samples;
    text = mf_retry_feedback(r, mf_profiles_get("extraction_rule"), &o);
    assert_non_null(strstr(text, "REQUIREMENTS REMINDER:\n- extraction_rule must have: name, glob\n"));
    assert_non_null(strstr(text, "SAMPLE PATHS TO MATCH:\n  - /a/1.csv\n  - /a/2.csv\n  - /a/3.csv\n"));
    assert_null(strstr(text, "/a/4.csv"));
    free(text);
    json_decref(samples);

    json_t *files = json_pack("{s:[s,s]}", "expected_files", "component-mapping.md", "journey-maps.md");
    mf_options fo = {0};
    fo.context = files;
    text = mf_retry_feedback(r, NULL, &fo);
    assert_non_null(strstr(text, "- ALL 2 files must be present, filename matching exactly: "
                                 "component-mapping.md, journey-maps.md\n"));
    free(text);
    json_decref(files);
    mf_retry_free(r);
}

static void test_feedback_from_json(void **state)
{
    (void)state;
    const mf_profile *p = mf_profiles_get("artifact_files");
    assert_non_null(p);
    json_t *files = json_pack("{s:[s,s]}", "expected_files", "component-mapping.md", "journey-maps.md");
    mf_options o = {0};
    o.context = files;
    const char *one = "[{\"filename\": \"component-mapping.md\", \"content\": \"# Map\"}]";
    mf_result *r1 = mf_repair(p, one, strlen(one), &o);
    assert_int_equal(r1->status, MF_REJECTED);
    json_t *attempts = json_array();
    json_array_append_new(attempts, mf_result_to_json(r1));
    char err[256] = "";
    char *text = mf_retry_feedback_from_json(attempts, p, &o, err, sizeof err);
    assert_non_null(text);
    assert_non_null(strstr(text, "Attempt 1: MISSING_FILES\n  Error: Missing artifact: journey-maps.md (absent)\n"));
    free(text);

    json_array_append_new(attempts, json_pack("{s:s}", "status", "rejected"));
    assert_null(mf_retry_feedback_from_json(attempts, p, &o, err, sizeof err));
    assert_string_equal(err, "attempt 2: a rejected result needs an error object with a type");
    json_t *notarray = json_object();
    assert_null(mf_retry_feedback_from_json(notarray, NULL, NULL, err, sizeof err));
    json_decref(notarray);
    json_decref(attempts);
    json_decref(files);
    mf_result_free(r1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tier_budgets),
        cmocka_unit_test(test_accepted_ends_loop),
        cmocka_unit_test(test_feedback_text),
        cmocka_unit_test(test_feedback_from_json),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
