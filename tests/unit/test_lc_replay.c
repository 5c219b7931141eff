/* test_lc_replay.c - replay policy (harness/lifecycle/lc_replay.c): what an
 * entry's outcome today means for a fixed entry, an open one, a
 * sanitizer-only one in a build without sanitizers, and a field case. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "lc_replay.h"

static mf_lc_entry entry(const char *status, const char *kind, const char *sig)
{
    mf_lc_entry e = {0};
    e.status = (char *)status;
    e.kind = (char *)kind;
    e.signature = (char *)sig;
    return e;
}

static mf_lc_outcome outcome(mf_lc_kind k, const char *sig)
{
    mf_lc_outcome o = {0};
    o.kind = k;
    snprintf(o.sig, sizeof o.sig, "%s", sig);
    snprintf(o.detail, sizeof o.detail, "why");
    return o;
}

static void test_fixed_entries(void **state)
{
    (void)state;
    char msg[512];
    mf_lc_entry e = entry("fixed", "oracle", "oracle schema profile=prd rules=- ops=-");
    mf_lc_outcome pass = outcome(MF_LC_PASS, ""), fail = outcome(MF_LC_ORACLE, "oracle schema profile=prd rules=- ops=-");
    assert_int_equal(mf_lc_replay_judge(&e, &pass, false, msg, sizeof msg), MF_LC_REPLAY_OK);
    assert_int_equal(mf_lc_replay_judge(&e, &fail, false, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_non_null(strstr(msg, "REGRESSED"));
    mf_lc_outcome err = outcome(MF_LC_ERROR, "");
    assert_int_equal(mf_lc_replay_judge(&e, &err, true, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_non_null(strstr(msg, "could not run: why"));
}

static void test_open_entries(void **state)
{
    (void)state;
    char msg[512];
    mf_lc_entry e = entry("open", "oracle", "oracle schema profile=prd rules=- ops=-");
    mf_lc_outcome same = outcome(MF_LC_ORACLE, "oracle schema profile=prd rules=- ops=-");
    mf_lc_outcome other = outcome(MF_LC_ORACLE, "oracle accounting profile=prd rules=- ops=-");
    mf_lc_outcome pass = outcome(MF_LC_PASS, "");
    assert_int_equal(mf_lc_replay_judge(&e, &same, false, msg, sizeof msg), MF_LC_REPLAY_OK);
    assert_int_equal(mf_lc_replay_judge(&e, &other, false, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_non_null(strstr(msg, "fails differently"));
    assert_int_equal(mf_lc_replay_judge(&e, &pass, false, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_non_null(strstr(msg, "flip its status"));
}

static void test_sanitizer_only_crash(void **state)
{
    (void)state;
    char msg[512];
    mf_lc_entry asan = entry("open", "crash", "crash heap-buffer-overflow f < g");
    mf_lc_entry segv = entry("open", "crash", "crash SIGSEGV f < g");
    mf_lc_entry leak = entry("open", "leak", "leak f");
    mf_lc_outcome pass = outcome(MF_LC_PASS, "");
    assert_int_equal(mf_lc_replay_judge(&asan, &pass, false, msg, sizeof msg), MF_LC_REPLAY_SKIP);
    assert_non_null(strstr(msg, "sanitize preset"));
    assert_int_equal(mf_lc_replay_judge(&leak, &pass, false, msg, sizeof msg), MF_LC_REPLAY_SKIP);
    assert_int_equal(mf_lc_replay_judge(&asan, &pass, true, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_int_equal(mf_lc_replay_judge(&segv, &pass, false, msg, sizeof msg), MF_LC_REPLAY_FAIL);
}

static void test_field_cases(void **state)
{
    (void)state;
    char msg[512];
    mf_lc_outcome pass = outcome(MF_LC_PASS, ""), fail = outcome(MF_LC_ORACLE, "oracle schema profile=x rules=- ops=-");
    assert_int_equal(mf_lc_replay_judge_field(&pass, NULL, msg, sizeof msg), MF_LC_REPLAY_OK);
    assert_int_equal(mf_lc_replay_judge_field(&fail, "corpus/regression/a.raw", msg, sizeof msg), MF_LC_REPLAY_OK);
    assert_non_null(strstr(msg, "tracked by corpus/regression/a.raw"));
    assert_int_equal(mf_lc_replay_judge_field(&fail, NULL, msg, sizeof msg), MF_LC_REPLAY_FAIL);
    assert_non_null(strstr(msg, "malform ingest"));
    assert_string_equal(mf_lc_replay_verdict_name(MF_LC_REPLAY_SKIP), "skip");
}

static void test_runner_choice(void **state)
{
    (void)state;
    mf_lc_runner r;
    mf_lc_eval_ctx ectx;
    char **owned, why[256];
    char *custom[] = {"/bin/true", NULL};
    assert_true(mf_lc_replay_runner("raw", "crash", "prd", custom, 7, &r, &ectx, &owned, why, sizeof why));
    assert_ptr_equal(r.argv, custom);
    assert_int_equal(r.timeout_sec, 7);
    assert_null(owned);
    if (mf_lc_eval_available()) {   /* oracle failures replay in-process */
        assert_true(mf_lc_replay_runner("structured", "oracle", "prd", NULL, 5, &r, &ectx, &owned, why, sizeof why));
        assert_null(owned);
        assert_ptr_equal(r.fn, mf_lc_eval);
        assert_string_equal(ectx.profile, "prd");
    }
    assert_false(mf_lc_replay_runner("no-such-target", "crash", NULL, NULL, 5, &r, &ectx, &owned, why, sizeof why));
    assert_non_null(strstr(why, "no runner"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed_entries),
        cmocka_unit_test(test_open_entries),
        cmocka_unit_test(test_sanitizer_only_crash),
        cmocka_unit_test(test_field_cases),
        cmocka_unit_test(test_runner_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
