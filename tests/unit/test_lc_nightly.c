/* test_lc_nightly.c - the nightly's phases (harness/lifecycle/lc_nightly.c)
 * with a stand-in engine (tests/lifecycle/fake_fuzz.sh as the fuzz command)
 * and /bin/true as `malform report`: the lines it says, the merge into the
 * corpus, nightly.json and the JUnit file; then a stop in the middle of the
 * fuzz phase (the SIGTERM path, through mf_lc_nightly_signal), which must
 * leave the corpus as it was. The stop test runs last: a stop is final. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>
#include "lc_corpus.h"
#include "lc_nightly.h"
#include "lifecycle.h"

#define FAKE_FUZZ "bash " MALFORM_SOURCE_DIR "/tests/lifecycle/fake_fuzz.sh"

typedef struct {
    char text[16384];
    bool stop_in_fuzz;
} said;

static void say(void *ctx, bool error, const char *line)
{
    said *s = ctx;
    size_t l = strlen(s->text);
    snprintf(s->text + l, sizeof s->text - l, "%s%s\n", error ? "E: " : "", line);
    if (s->stop_in_fuzz && !strncmp(line, "fuzz    libfuzzer/structured for", 32))
        mf_lc_nightly_signal(SIGTERM);
}

static char *workspace(char *wd, char *reg, size_t n)
{
    char *t = strdup("/tmp/malform-nightly-XXXXXX");
    assert_non_null(mkdtemp(t));
    snprintf(wd, n, "%s/wd", t);
    snprintf(reg, n, "%s/reg", t);
    char seeds[4200];
    snprintf(seeds, sizeof seeds, "%s/corpus/structured", wd);
    assert_int_equal(mf_lc_mkdirs(seeds), 0);
    for (int i = 0; i < 2; i++) {
        char p[4300], body[64];
        snprintf(p, sizeof p, "%s/seed-%d", seeds, i);
        int len = snprintf(body, sizeof body, "malform-case 1\nprofile: generic_yaml\n---\nseed: %d\n", i);
        assert_int_equal(mf_lc_write_atomic(p, body, (size_t)len), 0);
    }
    return t;
}

static mf_lc_nightly_opts opts(const char *wd, const char *reg, said *s)
{
    return (mf_lc_nightly_opts){.budget_minutes = 0.5, .engines = "libfuzzer", .targets = "structured", .jobs = 1,
                                .workdir = wd, .regression = reg, .fuzz_cmd = FAKE_FUZZ, .malform = "/bin/true",
                                .say = say, .ctx = s};
}

static void test_phases_and_merge(void **state)
{
    (void)state;
    char wd[4096], reg[4096];
    char *t = workspace(wd, reg, sizeof wd);
    setenv("FAKE_SECONDS", "1", 1);
    setenv("FAKE_FINDS", "3", 1);
    setenv("FAKE_PACE", "0.05", 1);
    said s = {0};
    mf_lc_nightly_opts o = opts(wd, reg, &s);
    assert_int_equal(mf_lc_nightly_run(&o), 0);
    const char *want[] = {"start   budget 0.5 min", "build   ok", "fuzz    libfuzzer/structured for ",
                          "exit 0: no failure", "merge   structured: 2 -> 5 inputs (union), merged", "triage  ok",
                          "report  done", "report: "};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(s.text, want[i]))
            fail_msg("missing line '%s' in:\n%s", want[i], s.text);
    char p[4300];
    snprintf(p, sizeof p, "%s/corpus/structured", wd);
    assert_int_equal(mf_lc_corpus_count(p), 5);
    snprintf(p, sizeof p, "%s/nightly.json", wd);
    json_t *doc = json_load_file(p, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "exit_code")), 0);
    assert_int_equal(json_array_size(json_object_get(doc, "phases")), 5);
    json_t *run = json_array_get(json_object_get(doc, "runs"), 0);
    assert_string_equal(json_string_value(json_object_get(run, "explanation")), "exit 0: no failure");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(doc, "oracles"),
                                                                        "no-data-loss"), "fail")), 5);
    json_decref(doc);
    snprintf(p, sizeof p, "%s/nightly.xml", wd);
    assert_int_equal(access(p, R_OK), 0);
    mf_lc_rm_rf(t);
    free(t);
}

static void test_bad_engine_and_budget(void **state)
{
    (void)state;
    said s = {0};
    mf_lc_nightly_opts o = {.budget_minutes = 1, .engines = "honggfuzz", .workdir = "/tmp", .say = say, .ctx = &s};
    char *t = strdup("/tmp/malform-nightly-XXXXXX");
    assert_non_null(mkdtemp(t));
    o.workdir = t;
    assert_int_equal(mf_lc_nightly_run(&o), 2);
    assert_non_null(strstr(s.text, "E: unknown engine 'honggfuzz'"));
    o.budget_minutes = 0;
    assert_int_equal(mf_lc_nightly_run(&o), 2);
    mf_lc_rm_rf(t);
    free(t);
}

static void test_stop_keeps_corpus(void **state)
{
    (void)state;
    char wd[4096], reg[4096];
    char *t = workspace(wd, reg, sizeof wd);
    setenv("FAKE_SECONDS", "60", 1);
    setenv("FAKE_FINDS", "50", 1);
    setenv("FAKE_PACE", "0.05", 1);
    said s = {.stop_in_fuzz = true};
    mf_lc_nightly_opts o = opts(wd, reg, &s);
    assert_int_equal(mf_lc_nightly_run(&o), 128 + SIGTERM);
    assert_non_null(strstr(s.text, "fuzz    cut short"));
    assert_non_null(strstr(s.text, "merge   skipped"));
    assert_non_null(strstr(s.text, "INTERRUPTED by SIGTERM: corpus intact"));
    char p[4300];
    snprintf(p, sizeof p, "%s/corpus/structured", wd);
    assert_int_equal(mf_lc_corpus_count(p), 2);
    mf_lc_rm_rf(t);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_phases_and_merge),
        cmocka_unit_test(test_bad_engine_and_budget),
        cmocka_unit_test(test_stop_keeps_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
