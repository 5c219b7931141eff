/* test_lifecycle.c - the corpus lifecycle library: classifying a child's
 * report into a signature, regression entries and their atomic creation,
 * SHA-256, and minimization that keeps the failure. Runners here are
 * in-process functions in forked children, so the tests need no binaries. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>
#include "lifecycle.h"

static int st_exit(int code) { return code << 8; }
static int st_signal(int sig) { return sig; }

static void test_oracle_line(void **state)
{
    (void)state;
    const char *log = "INFO: Running with entropic power schedule\n"
                      "malform-oracle: no-data-loss profile=prd ops=yaml.colon-space,cand.fence "
                      "rules=yaml.colon-space,cand.recovered,cand.fence: /goals/0: want \"a: b\", got \"a\"\n"
                      "==123==ERROR: AddressSanitizer: ABRT on unknown address\n";
    mf_lc_outcome o;
    mf_lc_classify(log, strlen(log), st_signal(SIGABRT), false, &o);
    assert_int_equal(o.kind, MF_LC_ORACLE);
    assert_string_equal(o.oracle, "no-data-loss");
    assert_string_equal(o.profile, "prd");
    assert_string_equal(o.ops, "cand.fence,yaml.colon-space");          /* sorted */
    assert_string_equal(o.rules, "cand.fence,cand.recovered,yaml.colon-space");
    assert_string_equal(o.detail, "/goals/0: want \"a: b\", got \"a\"");
    assert_string_equal(o.sig, "oracle no-data-loss profile=prd rules=cand.fence,cand.recovered,yaml.colon-space "
                               "ops=cand.fence,yaml.colon-space");
    /* Op order does not split a signature; "-" stays "-". */
    const char *log2 = "malform-oracle: schema profile=generic_json ops=- rules=-: no structured error\n";
    mf_lc_outcome o2;
    mf_lc_classify(log2, strlen(log2), st_signal(SIGABRT), false, &o2);
    assert_string_equal(o2.sig, "oracle schema profile=generic_json rules=- ops=-");
}

static void test_asan_frames(void **state)
{
    (void)state;
    const char *log =
        "==77==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000018 at pc 0x1 bp 0x2 sp 0x3\n"
        "WRITE of size 1 at 0x602000000018 thread T0\n"
        "    #0 0x55 in __asan_memcpy (/x/fuzz_raw+0x1)\n"
        "    #1 0x56 in mf_yaml_scan /work/main/core/src/yaml_load.c:120:9\n"
        "    #2 0x57 in mf_yaml_load /work/main/core/src/yaml_load.c:300:3\n"
        "    #3 0x58 in memcpy /usr/include/string.h:1:1\n"
        "    #4 0x59 in mf_repair /work/main/core/src/pipeline.c:80:5\n"
        "    #5 0x5a in LLVMFuzzerTestOneInput /work/main/harness/fuzz/fuzz_raw.c:18:5\n"
        "DEDUP_TOKEN: __asan_memcpy--mf_yaml_scan--mf_yaml_load\n"
        "\n"
        "0x602000000018 is located 0 bytes to the right of 8-byte region\n"
        "allocated by thread T0 here:\n"
        "    #0 0x60 in malloc (/x/fuzz_raw+0x2)\n"
        "    #1 0x61 in other_function /work/main/core/src/buf.c:10:3\n";
    mf_lc_outcome o;
    mf_lc_classify(log, strlen(log), st_exit(1), false, &o);
    assert_int_equal(o.kind, MF_LC_CRASH);
    assert_string_equal(o.crash, "heap-buffer-overflow");
    assert_string_equal(o.frames, "mf_yaml_scan < mf_yaml_load < mf_repair");
    assert_string_equal(o.sig, "crash heap-buffer-overflow mf_yaml_scan < mf_yaml_load < mf_repair");
}

static void test_other_kinds(void **state)
{
    (void)state;
    mf_lc_outcome o;
    const char *ub = "/work/main/core/src/emit.c:44:12: runtime error: signed integer overflow: 2147483647 + 1\n"
                     "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /work/main/core/src/emit.c:44:12 in\n";
    mf_lc_classify(ub, strlen(ub), st_exit(1), false, &o);
    assert_int_equal(o.kind, MF_LC_CRASH);
    assert_string_equal(o.crash, "ubsan-signed-integer-overflow");
    assert_string_equal(o.frames, "emit.c");

    const char *to = "==9== ERROR: libFuzzer: timeout after 25 seconds\n"
                     "    #0 0x1 in __sanitizer_print_stack_trace (/b+0x1)\n"
                     "    #1 0x2 in mf_json_scan /w/core/src/json_scan.c:10:1\n";
    mf_lc_classify(to, strlen(to), st_exit(70), false, &o);
    assert_int_equal(o.kind, MF_LC_TIMEOUT);
    assert_string_equal(o.sig, "timeout mf_json_scan");

    mf_lc_classify("", 0, st_signal(SIGKILL), true, &o);
    assert_int_equal(o.kind, MF_LC_TIMEOUT);
    assert_string_equal(o.sig, "timeout -");

    const char *oom = "==1== ERROR: libFuzzer: out-of-memory (malloc(4294967296))\n";
    mf_lc_classify(oom, strlen(oom), st_exit(71), false, &o);
    assert_int_equal(o.kind, MF_LC_OOM);

    mf_lc_classify("", 0, st_signal(SIGSEGV), false, &o);
    assert_int_equal(o.kind, MF_LC_CRASH);
    assert_string_equal(o.sig, "crash SIGSEGV -");

    mf_lc_classify("all good\n", 9, st_exit(0), false, &o);
    assert_int_equal(o.kind, MF_LC_PASS);
    assert_string_equal(o.sig, "");

    mf_lc_classify("replay: cannot open x\n", 22, st_exit(1), false, &o);
    assert_int_equal(o.kind, MF_LC_ERROR);
}

static void test_still_fails(void **state)
{
    (void)state;
    mf_lc_outcome a, b;
    const char *la = "malform-oracle: accounting profile=prd ops=a,b rules=r1,r2: x\n";
    const char *lb = "malform-oracle: accounting profile=prd ops=b rules=r2: y\n";
    const char *lc = "malform-oracle: accounting profile=prd ops=b rules=r3: y\n";
    mf_lc_classify(la, strlen(la), st_signal(SIGABRT), false, &a);
    mf_lc_classify(lb, strlen(lb), st_signal(SIGABRT), false, &b);
    assert_true(mf_lc_still_fails(&a, &b));      /* fewer ops and rules: same bug */
    assert_false(mf_lc_same(&a, &b));
    mf_lc_classify(lc, strlen(lc), st_signal(SIGABRT), false, &b);
    assert_false(mf_lc_still_fails(&a, &b));     /* a rule the original never fired */
    mf_lc_classify("", 0, st_exit(0), false, &b);
    assert_false(mf_lc_still_fails(&a, &b));
}

static void test_slug(void **state)
{
    (void)state;
    char s1[160], s2[160];
    mf_lc_slug("oracle no-data-loss profile=prd rules=yaml.colon-space ops=-", s1, sizeof s1);
    const char *want = "oracle-no-data-loss-profile-prd-rules-yaml.colon-space-ops-";
    assert_int_equal(strncmp(s1, want, strlen(want)), 0);
    assert_int_equal(strlen(s1), strlen(want) + 8);
    mf_lc_slug("oracle no-data-loss profile=prd rules=yaml.colon-space ops=+", s2, sizeof s2);
    assert_string_not_equal(s1, s2);             /* the hash tells them apart */
    for (const char *p = s1; *p; p++)
        assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' || *p == '.');
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    mf_lc_slug(big, s1, sizeof s1);
    assert_true(strlen(s1) <= 110);
}

static void test_sha256(void **state)
{
    (void)state;
    char h[65];
    mf_lc_sha256_hex("", 0, h);
    assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    mf_lc_sha256_hex("abc", 3, h);
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";   /* 56 bytes: 2 blocks */
    mf_lc_sha256_hex(m, strlen(m), h);
    assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static char tmpdir[256];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/test_lifecycle-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_entry_roundtrip(void **state)
{
    (void)state;
    uint8_t payload[] = "malform-case 1\nprofile: prd\n---\ntitle: x\n";
    mf_lc_entry e = {.signature = "oracle schema profile=prd rules=- ops=-", .kind = "oracle", .oracle = "schema",
                     .profile = "prd", .target = "structured", .engine = "libfuzzer", .first_seen = "2026-01-01T00:00:00Z",
                     .status = "open", .reproduce = "malform replay -v x.case", .detail = "multi\nline",
                     .original_size = 400, .minimized_size = 42, .payload = payload,
                     .payload_len = sizeof payload - 1};
    char path[512], path2[512], err[200];
    assert_int_equal(mf_lc_entry_create(tmpdir, "slug-1", &e, path, sizeof path, err, sizeof err), 1);
    /* Never overwritten: a second create reports it exists and changes nothing. */
    e.status = "fixed";
    assert_int_equal(mf_lc_entry_create(tmpdir, "slug-1", &e, path2, sizeof path2, err, sizeof err), 0);
    assert_string_equal(path, path2);
    mf_lc_entry r;
    assert_int_equal(mf_lc_entry_read(path, &r, err, sizeof err), 0);
    assert_string_equal(r.status, "open");
    assert_string_equal(r.signature, e.signature);
    assert_string_equal(r.detail, "multi line");
    assert_int_equal(r.original_size, 400);
    assert_int_equal(r.minimized_size, 42);
    assert_int_equal(r.payload_len, sizeof payload - 1);
    assert_memory_equal(r.payload, payload, r.payload_len);   /* the case's own --- survives */
    assert_false(r.raw);
    mf_lc_entry_free(&r);
    size_t n;
    char **list = mf_lc_entry_list(tmpdir, &n);
    assert_int_equal(n, 1);                                    /* no temp files left behind */
    mf_lc_paths_free(list);
    /* Bad entries are clean errors. */
    assert_int_equal(mf_lc_entry_parse("hello", 5, &r, err, sizeof err), -1);
    const char *nostatus = "malform-regression 1\nsignature: x\nkind: oracle\n---\n";
    assert_int_equal(mf_lc_entry_parse(nostatus, strlen(nostatus), &r, err, sizeof err), -1);
    const char *bad = "malform-regression 1\nsignature: x\nkind: oracle\nstatus: maybe\n---\n";
    assert_int_equal(mf_lc_entry_parse(bad, strlen(bad), &r, err, sizeof err), -1);
}

static void test_concurrent_create(void **state)
{
    (void)state;
    /* Eight writers race for one name: exactly one wins, the file is whole. */
    char path[512], err[200];
    for (int i = 0; i < 8; i++) {
        if (fork() == 0) {
            char body[64];
            int len = snprintf(body, sizeof body, "writer %d\n", i);
            mf_lc_entry e = {.signature = "s", .kind = "crash", .status = "open", .payload = (uint8_t *)body,
                             .payload_len = (size_t)len, .raw = true};
            int rc = mf_lc_entry_create(tmpdir, "race", &e, path, sizeof path, err, sizeof err);
            _exit(rc == 1 ? 10 : rc == 0 ? 11 : 12);
        }
    }
    int won = 0, lost = 0;
    for (int i = 0; i < 8; i++) {
        int st;
        wait(&st);
        won += WEXITSTATUS(st) == 10;
        lost += WEXITSTATUS(st) == 11;
    }
    assert_int_equal(won, 1);
    assert_int_equal(lost, 7);
    snprintf(path, sizeof path, "%s/race.raw", tmpdir);
    mf_lc_entry r;
    assert_int_equal(mf_lc_entry_read(path, &r, err, sizeof err), 0);
    assert_true(r.payload_len >= 9 && !memcmp(r.payload, "writer ", 7));
    assert_true(r.raw);
    mf_lc_entry_free(&r);
}

/* In-process "targets" for the runner. */
static int fail_on_xy(const uint8_t *d, size_t n, void *ctx)
{
    (void)ctx;
    for (size_t i = 0; i + 1 < n; i++)
        if (d[i] == 'X' && d[i + 1] == 'Y') {
            fprintf(stderr, "malform-oracle: determinism profile=generic_yaml ops=- rules=-: XY seen\n");
            abort();
        }
    return 0;
}

static int crash_on_z(const uint8_t *d, size_t n, void *ctx)
{
    (void)ctx;
    if (memchr(d, 'Z', n))
        raise(SIGSEGV);
    if (memchr(d, 'H', n))
        for (;;)
            pause();
    return 0;
}

static void test_run_fn(void **state)
{
    (void)state;
    mf_lc_runner r = {.fn = crash_on_z, .timeout_sec = 1};
    mf_lc_outcome o;
    assert_int_equal(mf_lc_run(&r, "abc", 3, &o, NULL), 0);
    assert_int_equal(o.kind, MF_LC_PASS);
    mf_lc_run(&r, "aZc", 3, &o, NULL);
    assert_int_equal(o.kind, MF_LC_CRASH);
    assert_string_equal(o.sig, "crash SIGSEGV -");
    mf_lc_run(&r, "aHc", 3, &o, NULL);
    assert_int_equal(o.kind, MF_LC_TIMEOUT);
    char *argv[] = {"/nonexistent/binary", NULL};
    mf_lc_runner bad = {.argv = argv, .timeout_sec = 2};
    assert_int_equal(mf_lc_run(&bad, "x", 1, &o, NULL), -1);
    assert_int_equal(o.kind, MF_LC_ERROR);
}

/* One op mistake fans out into signatures whose op sets hold its trigger; a
 * different oracle, a disjoint op set or a duplicate never joins the group. */
static void test_causes(void **state)
{
    (void)state;
    static const char *const rows[][2] = {
        {"new", "oracle no-data-loss profile=prd rules=json.bare-word ops=json.missing-colon,json.single-quotes"},
        {"new", "oracle no-data-loss profile=prd rules=json.bare-word,json.comments ops=json.comments,json.missing-colon,json.single-quotes"},
        {"regressed", "oracle no-data-loss profile=qa rules=x ops=json.missing-colon,json.number-format,json.single-quotes"},
        {"new", "oracle idempotence profile=prd rules=json.bare-word ops=json.missing-colon,json.single-quotes"},
        {"new", "oracle no-data-loss profile=prd rules=yaml.colon-space ops=yaml.colon-space"},
        {"duplicate", "oracle no-data-loss profile=prd rules=yaml.colon-space ops=yaml.colon-space,json.single-quotes"},
        {"new", "oracle no-data-loss profile=- rules=cand.fence,yaml.colon-space ops=-"},
        {"new", "oracle no-data-loss profile=- rules=cand.fence ops=-"},
    };
    json_t *items = json_array();
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        json_array_append_new(items, json_pack("{s:s, s:s, s:s}", "status", rows[i][0], "signature", rows[i][1],
                                               "entry", rows[i][1]));
    json_t *causes = mf_lc_triage_causes(items);
    assert_int_equal(json_array_size(causes), 4);
    json_t *c0 = json_array_get(causes, 0);
    assert_string_equal(json_string_value(json_object_get(c0, "cause")),
                        "oracle no-data-loss: json.missing-colon+json.single-quotes");
    assert_int_equal(json_integer_value(json_object_get(c0, "signatures")), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(items, 2), "cause")),
                        "oracle no-data-loss: json.missing-colon+json.single-quotes");
    assert_string_equal(json_string_value(json_object_get(json_array_get(causes, 1), "cause")),
                        "oracle idempotence: json.missing-colon+json.single-quotes");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(causes, 2), "signatures")), 1);
    assert_null(json_object_get(json_array_get(items, 5), "cause"));
    json_t *c3 = json_array_get(causes, 3);
    assert_string_equal(json_string_value(json_object_get(c3, "cause")), "oracle no-data-loss: cand.fence");
    assert_int_equal(json_integer_value(json_object_get(c3, "signatures")), 2);
    json_decref(causes);
    json_decref(items);
}

static void test_minimize_bytes(void **state)
{
    (void)state;
    char in[600];
    size_t len = 0;
    for (int i = 0; i < 20; i++)
        len += (size_t)snprintf(in + len, sizeof in - len, "line %02d some text\n", i);
    memcpy(in + 200, "XY", 2);
    mf_lc_runner r = {.fn = fail_on_xy, .timeout_sec = 5};
    mf_lc_outcome orig;
    mf_lc_run(&r, in, len, &orig, NULL);
    assert_int_equal(orig.kind, MF_LC_ORACLE);
    mf_lc_minctx m = {.runner = &r, .orig = &orig, .max_runs = 1000};
    size_t out_len;
    uint8_t *out = mf_lc_minimize_bytes(&m, (uint8_t *)in, len, &out_len);
    assert_non_null(out);
    assert_int_equal(out_len, 2);
    assert_memory_equal(out, "XY", 2);
    assert_true(m.runs > 0 && m.runs <= 1000);
    free(out);
}

/* Fails when the case keeps op cand.fence and the artifact keeps "boom". */
static int fail_on_case(const uint8_t *d, size_t n, void *ctx)
{
    (void)ctx;
    char *t = strndup((const char *)d, n);
    char *sep = strstr(t, "\n---\n");
    if (sep) {
        *sep = '\0';
        if (strstr(t, "\nop: cand.fence") && strstr(sep + 5, "boom")) {
            fprintf(stderr, "malform-oracle: no-data-loss profile=prd ops=cand.fence rules=r: boom lost\n");
            abort();
        }
    }
    free(t);
    return 0;
}

static void test_minimize_case_yaml(void **state)
{
    (void)state;
    const char *in = "malform-case 1\nprofile: prd\nop: yaml.colon-space seed=1\nop: cand.fence seed=2\n"
                     "op: cand.prose-after seed=3\n---\ntitle: a long title here\ngoals:\n  - one goal\n"
                     "  - the boom goal with a long tail of words\nowner: someone\n";
    mf_lc_runner r = {.fn = fail_on_case, .timeout_sec = 5};
    mf_lc_outcome orig;
    mf_lc_run(&r, in, strlen(in), &orig, NULL);
    assert_int_equal(orig.kind, MF_LC_ORACLE);
    mf_lc_minctx m = {.runner = &r, .orig = &orig, .max_runs = 500};
    size_t out_len;
    uint8_t *out = mf_lc_minimize_case(&m, (const uint8_t *)in, strlen(in), &out_len);
    assert_non_null(out);
    char *s = strndup((char *)out, out_len);
    assert_non_null(strstr(s, "op: cand.fence seed=2\n"));
    assert_null(strstr(s, "yaml.colon-space"));
    assert_null(strstr(s, "cand.prose-after"));
    assert_null(strstr(s, "title"));
    assert_null(strstr(s, "owner"));
    assert_null(strstr(s, "one goal"));
    assert_non_null(strstr(s, "boom"));
    assert_true(out_len < strlen(in) / 2);
    free(s);
    free(out);
    /* Not a case: NULL (the caller falls back to bytes). */
    assert_null(mf_lc_minimize_case(&m, (const uint8_t *)"plain", 5, &out_len));
}

static void test_minimize_case_json(void **state)
{
    (void)state;
    const char *in = "malform-case 1\nprofile: code_files\nop: cand.fence seed=2\nop: json.trailing-comma seed=5\n"
                     "---\n{\"files\": [{\"path\": \"a.py\", \"content\": \"print(1)\"},\n"
                     " {\"path\": \"b.py\", \"content\": \"the boom is here and more text follows\"}],\n"
                     " \"notes\": \"irrelevant\"}\n";
    mf_lc_runner r = {.fn = fail_on_case, .timeout_sec = 5};
    mf_lc_outcome orig;
    mf_lc_run(&r, in, strlen(in), &orig, NULL);
    mf_lc_minctx m = {.runner = &r, .orig = &orig, .max_runs = 500};
    size_t out_len;
    uint8_t *out = mf_lc_minimize_case(&m, (const uint8_t *)in, strlen(in), &out_len);
    assert_non_null(out);
    char *s = strndup((char *)out, out_len);
    assert_null(strstr(s, "a.py"));
    assert_null(strstr(s, "notes"));
    assert_null(strstr(s, "trailing-comma"));
    assert_non_null(strstr(s, "boom"));
    assert_null(strstr(s, "more text follows"));   /* the scalar was shortened */
    free(s);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_oracle_line),
        cmocka_unit_test(test_asan_frames),
        cmocka_unit_test(test_other_kinds),
        cmocka_unit_test(test_still_fails),
        cmocka_unit_test(test_slug),
        cmocka_unit_test(test_causes),
        cmocka_unit_test(test_sha256),
        cmocka_unit_test_setup_teardown(test_entry_roundtrip, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_concurrent_create, setup_dir, teardown_dir),
        cmocka_unit_test(test_run_fn),
        cmocka_unit_test(test_minimize_bytes),
        cmocka_unit_test(test_minimize_case_yaml),
        cmocka_unit_test(test_minimize_case_json),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
