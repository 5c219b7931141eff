/* test_pl_worker.c - every failure mode of the worker protocol, acted out by
 * broken_worker.py: each becomes a reply of the right kind with the stderr
 * tail, the worker is restarted, and the next request is answered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "pipeline.h"

#define SKIP_CODE 77

static mf_pl_def def;
static mf_pl_worker *w;

static int setup(void **state)
{
    (void)state;
    char err[512];
    if (mf_pl_def_load(MF_PL_TEST_DIR "/broken.yaml", &def, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    w = mf_pl_start(&def, false, err, sizeof err);
    if (!w)
        fprintf(stderr, "%s\n", err);
    return w ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return 0;
}

static void request(const char *input, mf_pl_reply *r)
{
    mf_pl_request(w, mf_profiles_get("generic_json"), input, strlen(input), NULL, r);
}

/* The worker answers a plain input after whatever happened before. */
static void assert_recovers(void)
{
    mf_pl_reply r;
    request("{\"a\": [1, 2]}", &r);
    assert_int_equal(r.fail, MF_PL_OK);
    assert_int_equal(r.result->status, MF_ACCEPTED);
    json_t *want = json_pack("{s:[i,i]}", "a", 1, 2);
    assert_true(json_equal(r.result->value, want));
    json_decref(want);
    mf_pl_reply_free(&r);
}

static void expect_failure(const char *input, mf_pl_fail kind, const char *what, const char *stderr_has)
{
    int starts = mf_pl_starts(w);
    mf_pl_reply r;
    request(input, &r);
    assert_int_equal(r.fail, kind);
    assert_string_equal(r.what, what);
    assert_null(r.result);
    assert_non_null(r.stderr_tail);
    if (stderr_has)
        assert_non_null(strstr(r.stderr_tail, stderr_has));
    char sig[256];
    mf_pl_signature(&r, "broken", sig, sizeof sig);
    assert_non_null(strstr(sig, "pipeline=broken"));
    mf_pl_reply_free(&r);
    assert_recovers();
    if (kind != MF_PL_CRASH || strncmp(what, "exception", 9))
        assert_int_equal(mf_pl_starts(w), starts + 1);
    else
        assert_int_equal(mf_pl_starts(w), starts);
}

static void test_handshake(void **state)
{
    (void)state;
    const mf_pl_hello *h = mf_pl_hello_of(w);
    assert_string_equal(h->name, "broken");
    assert_int_equal(h->formats, MF_PL_JSON);
    assert_true(h->warnings);
    assert_true(mf_pl_handles(w, mf_profiles_get("task_breakdown")));
    assert_false(mf_pl_handles(w, mf_profiles_get("prd")));
    assert_false(mf_pl_knows_profile(w, mf_profiles_get("task_breakdown")));
}

static void test_accept_reject_warnings(void **state)
{
    (void)state;
    assert_recovers();
    mf_pl_reply r;
    request("{oops", &r);
    assert_int_equal(r.fail, MF_PL_OK);
    assert_int_equal(r.result->status, MF_REJECTED);
    assert_string_equal(r.result->error.type, "JSON_SYNTAX_ERROR");
    mf_pl_reply_free(&r);
    request("{\"x\": \"WARN\"}", &r);
    assert_int_equal(r.fail, MF_PL_OK);
    assert_int_equal(r.result->warnings.count, 1);
    assert_string_equal(r.result->warnings.items[0].rule, "none");
    assert_true(r.result->repair_applied);
    mf_pl_reply_free(&r);
    request("\"bad utf8 \xff\xfe\"", &r);
    assert_int_equal(r.fail, MF_PL_OK);
    assert_string_equal(json_string_value(r.result->value), "bad utf8 \xEF\xBF\xBD\xEF\xBF\xBD");
    mf_pl_reply_free(&r);
}

static void test_exit(void **state)
{
    (void)state;
    expect_failure("EXIT-3", MF_PL_CRASH, "exit 3", "about to exit 3");
}

static void test_signal(void **state)
{
    (void)state;
    expect_failure("SIGSEGV", MF_PL_CRASH, "SIGSEGV", NULL);
}

static void test_exception(void **state)
{
    (void)state;
    expect_failure("EXCEPTION", MF_PL_CRASH, "exception KeyError", "Traceback");
}

static void test_hang(void **state)
{
    (void)state;
    expect_failure("HANG", MF_PL_TIMEOUT, "timeout", NULL);
}

static void test_garbage(void **state)
{
    (void)state;
    expect_failure("GARBAGE", MF_PL_PROTOCOL, "garbage", NULL);
}

static void test_wrong_id(void **state)
{
    (void)state;
    expect_failure("WRONG-ID", MF_PL_PROTOCOL, "wrong-id", NULL);
}

static void test_bad_status(void **state)
{
    (void)state;
    expect_failure("BAD-STATUS", MF_PL_PROTOCOL, "bad-status", NULL);
}

static void test_huge_output(void **state)
{
    (void)state;
    expect_failure("HUGE", MF_PL_PROTOCOL, "oversized", NULL);
}

static void test_grows(void **state)
{
    (void)state;
    expect_failure("GROW", MF_PL_OOM, "oom", NULL);
}

static void test_stderr_flood(void **state)
{
    (void)state;
    mf_pl_reply r;
    request("[\"STDERR-FLOOD\"]", &r);
    assert_int_equal(r.fail, MF_PL_OK);
    mf_pl_reply_free(&r);
}

/* Pipelined: each failure is charged to its own input, the rest are answered. */
static void test_batch(void **state)
{
    (void)state;
    const char *texts[] = {"{}", "EXIT-3", "[1]", "WRONG-ID", "EXCEPTION", "2"};
    const mf_pl_fail want[] = {MF_PL_OK, MF_PL_CRASH, MF_PL_OK, MF_PL_PROTOCOL, MF_PL_CRASH, MF_PL_OK};
    mf_pl_input in[6];
    mf_pl_reply r[6];
    for (int i = 0; i < 6; i++)
        in[i] = (mf_pl_input){mf_profiles_get("generic_json"), texts[i], strlen(texts[i]), NULL};
    mf_pl_request_many(w, in, 6, r);
    for (int i = 0; i < 6; i++) {
        assert_int_equal(r[i].fail, want[i]);
        mf_pl_reply_free(&r[i]);
    }
    assert_recovers();
}

static void test_start_failures(void **state)
{
    (void)state;
    const char *defs[] = {MF_PL_TEST_DIR "/broken-no-handshake.yaml", MF_PL_TEST_DIR "/broken-bad-version.yaml"};
    const char *expect[] = {"no handshake", "malform_pipeline"};
    for (int i = 0; i < 2; i++) {
        mf_pl_def d;
        char err[512];
        assert_int_equal(mf_pl_def_load(defs[i], &d, err, sizeof err), 0);
        assert_null(mf_pl_start(&d, false, err, sizeof err));
        assert_non_null(strstr(err, expect[i]));
        mf_pl_def_free(&d);
    }
}

static void test_bad_definition(void **state)
{
    (void)state;
    mf_pl_def d;
    char err[512];
    assert_int_equal(mf_pl_def_load(MF_PL_TEST_DIR "/broken_worker.py", &d, err, sizeof err), -1);
    assert_int_equal(mf_pl_def_find("no-such-pipeline", &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "no pipeline"));
    assert_int_equal(mf_pl_def_find("../etc", &d, err, sizeof err), -1);
}

int main(void)
{
    if (system("python3 -c 'import json' >/dev/null 2>&1") != 0) {
        fprintf(stderr, "python3 missing: skipped\n");
        return SKIP_CODE;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_handshake),     cmocka_unit_test(test_accept_reject_warnings),
        cmocka_unit_test(test_exit),          cmocka_unit_test(test_signal),
        cmocka_unit_test(test_exception),     cmocka_unit_test(test_hang),
        cmocka_unit_test(test_garbage),       cmocka_unit_test(test_wrong_id),
        cmocka_unit_test(test_bad_status),    cmocka_unit_test(test_huge_output),
        cmocka_unit_test(test_grows),         cmocka_unit_test(test_stderr_flood),
        cmocka_unit_test(test_batch),
        cmocka_unit_test(test_start_failures), cmocka_unit_test(test_bad_definition),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
