/* test_lc_campaign.c - the campaign pieces of harness/lifecycle/: corpus
 * union, merge and swap recovery (lc_corpus.c), the stats summer
 * (lc_stats.c), the JUnit writer (lc_junit.c) and the engine's progress
 * line (lc_engine.c). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "lc_corpus.h"
#include "lc_engine.h"
#include "lc_junit.h"
#include "lc_stats.h"
#include "lifecycle.h"

static char *tmpdir(void)
{
    char *d = strdup("/tmp/malform-campaign-XXXXXX");
    assert_non_null(mkdtemp(d));
    return d;
}

static void put(const char *dir, const char *name, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    mf_lc_mkdirs(dir);
    assert_int_equal(mf_lc_write_atomic(p, text, strlen(text)), 0);
}

static void test_union_dedupes_by_content(void **state)
{
    (void)state;
    char *t = tmpdir(), src[4096], dst[4096];
    snprintf(src, sizeof src, "%s/src", t);
    snprintf(dst, sizeof dst, "%s/dst", t);
    put(src, "a", "same");
    put(src, "b", "same");
    put(src, "c", "other");
    put(src, "README.txt", "engine readme");
    mf_lc_mkdirs(dst);
    assert_int_equal(mf_lc_corpus_union(src, dst), 2);
    assert_int_equal(mf_lc_corpus_union(src, dst), 0);   /* already there */
    assert_int_equal(mf_lc_corpus_count(dst), 2);
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/none", t);
    assert_int_equal(mf_lc_corpus_union(missing, dst), 0);
    mf_lc_rm_rf(t);
    struct stat st;
    assert_int_not_equal(stat(t, &st), 0);
    free(t);
}

static void test_merge_swaps_in_old_plus_finds(void **state)
{
    (void)state;
    char *t = tmpdir(), root[4096], runs[4096], p[4200];
    snprintf(root, sizeof root, "%s/corpus", t);
    snprintf(runs, sizeof runs, "%s/runs", t);
    snprintf(p, sizeof p, "%s/structured", root);
    put(p, "old-1", "one");
    put(p, "old-2", "two");
    snprintf(p, sizeof p, "%s/libfuzzer-structured/corpus", runs);
    put(p, "find-1", "three");
    put(p, "dup", "one");
    snprintf(p, sizeof p, "%s/afl-structured/afl/main/queue", runs);
    put(p, "id:000001", "four");
    snprintf(p, sizeof p, "%s/afl-structured/afl/main/crashes", runs);
    put(p, "id:000002", "a crash is no corpus input");
    snprintf(p, sizeof p, "%s/libfuzzer-raw/corpus", runs);
    put(p, "other-target", "five");
    mf_lc_merge_opts o = {.root = root, .target = "structured", .runs = runs};
    json_t *res = mf_lc_corpus_merge(&o);
    assert_string_equal(json_string_value(json_object_get(res, "status")), "merged");
    assert_int_equal(json_integer_value(json_object_get(res, "before")), 2);
    assert_int_equal(json_integer_value(json_object_get(res, "after")), 4);
    json_decref(res);
    assert_int_equal(mf_lc_corpus_count(root), 1);   /* no .stage/.new/.old left */
    char hidden[4200];
    snprintf(hidden, sizeof hidden, "%s/.old-structured", root);
    assert_int_not_equal(access(hidden, F_OK), 0);
    mf_lc_rm_rf(t);
    free(t);
}

static bool always_stop(void *ctx)
{
    (void)ctx;
    return true;
}

static void test_merge_stopped_keeps_corpus_and_recover(void **state)
{
    (void)state;
    char *t = tmpdir(), root[4096], p[4200];
    snprintf(root, sizeof root, "%s/corpus", t);
    snprintf(p, sizeof p, "%s/raw", root);
    put(p, "x", "kept");
    mf_lc_merge_opts o = {.root = root, .target = "raw", .runs = NULL, .stop = always_stop};
    json_t *res = mf_lc_corpus_merge(&o);
    assert_string_equal(json_string_value(json_object_get(res, "status")), "skipped: stopping");
    json_decref(res);
    assert_int_equal(mf_lc_corpus_count(p), 1);
    /* a swap cut between its renames: only .old-raw exists */
    char bak[4200];
    snprintf(bak, sizeof bak, "%s/.old-raw", root);
    assert_int_equal(rename(p, bak), 0);
    assert_int_equal(mf_lc_corpus_recover(root, "raw"), 1);
    assert_int_equal(mf_lc_corpus_count(p), 1);
    assert_int_equal(mf_lc_corpus_recover(root, "raw"), 0);
    mf_lc_rm_rf(t);
    free(t);
}

static void test_stats_sum(void **state)
{
    (void)state;
    char *t = tmpdir(), p[4200];
    put(t, "stats-1.json", "{\"execs\": 10, \"rules_fired\": {\"a\": 1}, \"verdicts\": {\"schema\": {\"pass\": 3, \"fail\": 1}},"
                           " \"engine\": \"x\"}");
    put(t, "stats-2.json", "{\"execs\": 5, \"rules_fired\": {\"a\": 2, \"b\": 7}, \"ops_applied\": {\"o\": 4},"
                           " \"verdicts\": {\"schema\": {\"pass\": 1, \"fail\": 0}}}");
    put(t, "stats-3.json.tmp", "{\"execs\": 1000}");
    put(t, "other.json", "{\"execs\": 1000}");
    snprintf(p, sizeof p, "%s/run/corpus", t);
    put(p, "stats-9.json", "{\"execs\": 1000}");
    json_t *acc = json_object();
    assert_int_equal(mf_lc_stats_sum_dir(acc, t, "stats-", ".json", 3), 2);
    assert_int_equal(json_integer_value(json_object_get(acc, "execs")), 15);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(acc, "rules_fired"), "a")), 3);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(acc, "rules_fired"), "b")), 7);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(acc, "ops_applied"), "o")), 4);
    json_t *schema = json_object_get(json_object_get(acc, "verdicts"), "schema");
    assert_int_equal(json_integer_value(json_object_get(schema, "pass")), 4);
    assert_int_equal(json_integer_value(json_object_get(schema, "fail")), 1);
    assert_null(json_object_get(acc, "engine"));
    json_decref(acc);
    mf_lc_rm_rf(t);
    free(t);
}

static void test_junit(void **state)
{
    (void)state;
    json_t *items = json_pack("[{s:s, s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s}, {s:s, s:s, s:s, s:s}]",
                              "signature", "oracle schema profile=prd rules=- ops=a<b", "kind", "oracle", "status", "new",
                              "entry", "corpus/regression/x.case", "detail", "bad & \"worse\"",
                              "signature", "crash SIGSEGV f", "kind", "crash", "status", "flaky", "entry", "",
                              "signature", "crash SIGABRT g", "kind", "crash", "status", "duplicate", "entry", "y.raw",
                              "signature", "crash SIGABRT g", "kind", "crash", "status", "duplicate", "entry", "y.raw");
    json_t *oracles = json_pack("{s:{s:i, s:i}, s:{s:i, s:i}}", "schema", "pass", 9, "fail", 1, "idempotence", "pass",
                                10, "fail", 0);
    size_t len;
    char *xml = mf_lc_junit_format(items, oracles, 12.5, &len);
    assert_non_null(xml);
    assert_int_equal(strlen(xml), len);
    assert_non_null(strstr(xml, "tests=\"5\" failures=\"2\" skipped=\"1\""));   /* 3 signatures + 2 oracles */
    assert_non_null(strstr(xml, "name=\"oracle schema profile=prd rules=- ops=a&lt;b\""));
    assert_non_null(strstr(xml, "bad &amp; &quot;worse&quot;"));
    assert_non_null(strstr(xml, "<failure type=\"oracle\""));
    assert_non_null(strstr(xml, "time=\"12.5\""));
    free(xml);
    json_decref(items);
    json_decref(oracles);
}

static void test_progress_line_round_trip(void **state)
{
    (void)state;
    mf_lc_engine_progress p = {12.4, 34567, 123, 2}, q = {0};
    char line[256];
    mf_lc_engine_progress_format(&p, line, sizeof line);
    assert_string_equal(line, "progress: 12s, 34567 execs (2788/s), 123 edges, 2 findings");
    char prefixed[300];
    snprintf(prefixed, sizeof prefixed, "malform fuzz: %s", line);
    assert_true(mf_lc_engine_progress_parse(prefixed, &q));
    assert_int_equal(q.execs, 34567);
    assert_int_equal(q.edges, 123);
    assert_int_equal(q.findings, 2);
    assert_false(mf_lc_engine_progress_parse("#1234 cov: 5 ft: 6", &q));
    char bin[256];
    assert_int_equal(mf_lc_engine_binary("/b", "afl", "raw", bin, sizeof bin), 0);
    assert_string_equal(bin, "/b/afl_raw");
    assert_string_equal(mf_lc_engine_preset("libfuzzer"), "fuzz");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_union_dedupes_by_content),
        cmocka_unit_test(test_merge_swaps_in_old_plus_finds),
        cmocka_unit_test(test_merge_stopped_keeps_corpus_and_recover),
        cmocka_unit_test(test_stats_sum),
        cmocka_unit_test(test_junit),
        cmocka_unit_test(test_progress_line_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
