/* test_finding.c - record and continue (harness/lib/finding.c): the
 * signature and slug a fuzz target computes are byte-identical to the
 * lifecycle's (mf_lc_classify, mf_lc_slug); a finding is written once, as a
 * parseable regression entry with status new (with the black-box engine's
 * extra fields and stderr sidecar); an open regression signature
 * is only counted; a failing check records and returns with the findings
 * directory set and aborts without it. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "finding.h"
#include "harness.h"
#include "lifecycle.h"

static void check_same(const char *line)
{
    char log[4096], sig[720], slug_a[160], slug_b[160];
    snprintf(log, sizeof log, "INFO: something\n%s\n==1==ERROR: AddressSanitizer: ABRT\n", line);
    mf_lc_outcome o;
    mf_lc_classify(log, strlen(log), SIGABRT, false, &o);
    char oracle[64], profile[64];
    mf_finding_oracle_signature(line, sig, sizeof sig, oracle, profile);
    assert_string_equal(sig, o.sig);
    assert_string_equal(oracle, o.oracle);
    assert_string_equal(profile, o.profile);
    mf_lc_slug(o.sig, slug_a, sizeof slug_a);
    mf_finding_slug(sig, slug_b, sizeof slug_b);
    assert_string_equal(slug_a, slug_b);
}

static void test_signature_matches_lifecycle(void **state)
{
    (void)state;
    check_same("malform-oracle: no-data-loss profile=prd ops=yaml.colon-space,cand.fence "
               "rules=yaml.colon-space,cand.recovered,cand.fence: /goals/0: want \"a: b\", got \"a\"");
    check_same("malform-oracle: idempotence profile=generic_yaml ops=- rules=yaml.tab-indent: changed again");
    check_same("malform-oracle: accounting profile=beads ops=b,a,b,a rules=-: unnamed change at /x: \"2\" vs 2");
    check_same("malform-oracle: schema profile=? ops=- rules=-: detail: with: colons ops=fake rules=fake");
    check_same("malform-oracle: determinism profile=task_breakdown ops=x rules=y");
    check_same("malform-oracle: schema rules=z,y ops=b profile=p: odd order");
    check_same("malform-oracle: schema profile=p ops=a\tb rules=c d: tabs\tand\x01controls");
    /* long id lists: truncated the same way */
    char line[1024], *p = line;
    p += sprintf(p, "malform-oracle: no-data-loss profile=prd ops=");
    for (int i = 0; i < 30; i++)
        p += sprintf(p, "%scand.op-number-%02d", i ? "," : "", 29 - i);
    p += sprintf(p, " rules=");
    for (int i = 0; i < 20; i++)
        p += sprintf(p, "%snorm.rule-%02d", i ? "," : "", 19 - i);
    sprintf(p, ": detail");
    check_same(line);
    /* and a line an mf_check builds */
    const char *kase = "malform-case 1\nprofile: prd\n---\ntitle: x\n";
    mf_check k;
    assert_int_equal(mf_check_run(&k, kase, strlen(kase), NULL, false, false), 0);
    k.v[MF_ORACLE_SCHEMA].failed = true;
    snprintf(k.v[MF_ORACLE_SCHEMA].detail, sizeof k.v[0].detail, "a\nmultiline: detail");
    mf_check_line(&k, MF_ORACLE_SCHEMA, line, sizeof line);
    check_same(line);
    mf_check_free(&k);
}

static char tmpl[64];

static int setup_dir(void **state)
{
    (void)state;
    snprintf(tmpl, sizeof tmpl, "/tmp/mf-finding-XXXXXX");
    return mkdtemp(tmpl) ? 0 : -1;
}

static int teardown_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
    return system(cmd) == 0 ? 0 : -1;
}

static size_t count_files(const char *dir)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.' || strncmp(e->d_name, ".tmp", 4) == 0;
    if (d)
        closedir(d);
    return n;
}

static void test_write_once(void **state)
{
    (void)state;
    const char payload[] = "malform-case 1\nprofile: prd\n---\ntitle: x\n";
    mf_finding f = {.signature = "oracle schema profile=prd rules=- ops=-", .kind = "oracle", .oracle = "schema",
                    .profile = "prd", .target = "structured", .engine = "libfuzzer", .detail = "two\nlines",
                    .payload = payload, .payload_len = sizeof payload - 1};
    char path[4400], again[4400];
    assert_int_equal(mf_finding_write(tmpl, &f, path, sizeof path), MF_FINDING_NEW);
    assert_int_equal(mf_finding_write(tmpl, &f, again, sizeof again), MF_FINDING_SEEN);
    assert_string_equal(path, again);
    assert_int_equal(count_files(tmpl), 1);   /* no temp file left behind */
    mf_lc_entry e;
    char err[200];
    assert_int_equal(mf_lc_entry_read(path, &e, err, sizeof err), 0);
    assert_string_equal(e.signature, f.signature);
    assert_string_equal(e.status, "new");
    assert_string_equal(e.kind, "oracle");
    assert_string_equal(e.target, "structured");
    assert_string_equal(e.detail, "two lines");
    assert_int_equal(e.payload_len, sizeof payload - 1);
    assert_memory_equal(e.payload, payload, e.payload_len);
    char slug[160];
    mf_lc_slug(f.signature, slug, sizeof slug);
    assert_non_null(strstr(path, slug));
    assert_false(e.raw);
    mf_lc_entry_free(&e);
}

/* The black-box engine's fields: pipeline, original signature, reproduce
 * line and sizes in the header, the stderr tail beside the entry; a repeat
 * leaves the first stderr alone. */
static void test_write_pipeline_fields(void **state)
{
    (void)state;
    const char payload[] = "malform-case 1\nprofile: prd\n---\n{}\n";
    mf_finding f = {.signature = "crash exit 3 pipeline=py", .kind = "crash", .pipeline = "py", .target = "blackbox",
                    .engine = "blackbox", .detail = "exit 3", .original_signature = "crash exit 3 pipeline=py-x",
                    .reproduce = "malform check --pipeline py <this file>", .original_size = 120,
                    .minimized_size = 31, .stderr_tail = "Traceback\nboom\n", .payload = payload,
                    .payload_len = sizeof payload - 1};
    char path[4400], side[4500];
    assert_int_equal(mf_finding_write(tmpl, &f, path, sizeof path), MF_FINDING_NEW);
    f.stderr_tail = "another run";
    assert_int_equal(mf_finding_write(tmpl, &f, NULL, 0), MF_FINDING_SEEN);
    assert_int_equal(count_files(tmpl), 2);
    mf_lc_entry e;
    char err[200];
    assert_int_equal(mf_lc_entry_read(path, &e, err, sizeof err), 0);
    assert_string_equal(e.kind, "crash");
    assert_string_equal(e.original_signature, "crash exit 3 pipeline=py-x");
    assert_string_equal(e.reproduce, "malform check --pipeline py <this file>");
    assert_int_equal(e.original_size, 120);
    assert_int_equal(e.minimized_size, 31);
    assert_memory_equal(e.payload, payload, e.payload_len);
    mf_lc_entry_free(&e);
    size_t len;
    char *text = mf_lc_read(path, &len);
    assert_non_null(strstr(text, "\npipeline: py\n"));
    free(text);
    snprintf(side, sizeof side, "%.*s.stderr", (int)(strrchr(path, '.') - path), path);
    text = mf_lc_read(side, &len);
    assert_non_null(text);
    assert_string_equal(text, "Traceback\nboom\n");
    free(text);
}

/* A regression dir with an open and a fixed entry; the open one is known. */
static void test_known_is_counted(void **state)
{
    (void)state;
    char reg[128], fdir[128], p[256];
    snprintf(reg, sizeof reg, "%s/regression", tmpl);
    snprintf(fdir, sizeof fdir, "%s/findings", tmpl);
    mkdir(reg, 0755);
    const char *open_sig = "oracle accounting profile=beads rules=- ops=norm.x";
    const char *fixed_sig = "oracle accounting profile=beads rules=- ops=norm.y";
    snprintf(p, sizeof p, "%s/a.case", reg);
    FILE *f = fopen(p, "w");
    fprintf(f, "malform-regression 1\nsignature: other\noriginal-signature: %s\nkind: oracle\nstatus: open\n---\nx", open_sig);
    fclose(f);
    snprintf(p, sizeof p, "%s/b.case", reg);
    f = fopen(p, "w");
    fprintf(f, "malform-regression 1\nsignature: %s\nkind: oracle\nstatus: fixed\n---\nx", fixed_sig);
    fclose(f);
    setenv("MALFORM_REGRESSION_DIR", reg, 1);
    assert_true(mf_finding_known(open_sig, NULL));
    assert_true(mf_finding_known("other", "core"));
    assert_false(mf_finding_known(fixed_sig, NULL));
    assert_false(mf_finding_known(open_sig, "jsonrepair"));   /* another pipeline's entries live below */
    unsetenv("MALFORM_FINDINGS_DIR");
    mf_finding fd = {.signature = open_sig, .payload = "x", .payload_len = 1};
    assert_int_equal(mf_finding_record(&fd), MF_FINDING_OFF);
    setenv("MALFORM_FINDINGS_DIR", fdir, 1);
    assert_int_equal(mf_finding_record(&fd), MF_FINDING_KNOWN);
    assert_int_equal(mf_finding_record(&fd), MF_FINDING_KNOWN);
    assert_int_equal(count_files(fdir), 0);
    fd.signature = fixed_sig;   /* fixed, and back: a new finding */
    assert_int_equal(mf_finding_record(&fd), MF_FINDING_NEW);
    assert_int_equal(mf_finding_record(&fd), MF_FINDING_SEEN);
    assert_int_equal(count_files(fdir), 1);
    unsetenv("MALFORM_FINDINGS_DIR");
}

/* A failing check: recorded and returned from with the directory set,
 * aborted on without it (a bare libFuzzer run, ClusterFuzzLite). */
static void test_target_records_or_aborts(void **state)
{
    (void)state;
    const char *kase = "malform-case 1\nprofile: prd\n---\ntitle: x\n";
    mf_check k;
    assert_int_equal(mf_check_run(&k, kase, strlen(kase), NULL, false, false), 0);
    k.v[MF_ORACLE_NO_DATA_LOSS].failed = true;
    k.failed = 1;
    snprintf(k.v[MF_ORACLE_NO_DATA_LOSS].detail, sizeof k.v[0].detail, "planted");
    char fdir[128];
    snprintf(fdir, sizeof fdir, "%s/found", tmpl);
    for (int with_dir = 0; with_dir < 2; with_dir++) {
        pid_t pid = fork();
        if (pid == 0) {
            if (with_dir)
                setenv("MALFORM_FINDINGS_DIR", fdir, 1);
            else
                unsetenv("MALFORM_FINDINGS_DIR");
            unsetenv("MALFORM_ORACLE_ABORT");
            if (!freopen("/dev/null", "w", stderr))
                _exit(3);
            mf_fuzz_finding(&k, kase, strlen(kase));
            mf_fuzz_finding(&k, kase, strlen(kase));
            _exit(0);
        }
        int st;
        waitpid(pid, &st, 0);
        if (with_dir) {
            assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
            assert_int_equal(count_files(fdir), 1);
        } else {
            assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
        }
    }
    mf_check_free(&k);
}

/* AFL's splice of two case files (a second header line) is skipped by the
 * structured target; one case, or a header word inside a line, is not. */
static void test_spliced_case(void **state)
{
    (void)state;
    const char *one = "malform-case 1\nprofile: prd\n---\ntitle: malform-case 1\n";
    const char *two = "malform-case 1\nprofile: prd\n---\ntitle: x-malform-case 1\nprofile: beads\n---\na: b\n";
    const char *spliced = "malform-case 1\nprofile: prd\n---\n\"task\nmalform-case 1\nprofile: beads\n---\n";
    assert_false(mf_fuzz_spliced_case(one, strlen(one)));
    assert_false(mf_fuzz_spliced_case(two, strlen(two)));
    assert_true(mf_fuzz_spliced_case(spliced, strlen(spliced)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signature_matches_lifecycle),
        cmocka_unit_test(test_spliced_case),
        cmocka_unit_test_setup_teardown(test_write_once, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_write_pipeline_fields, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_known_is_counted, setup_dir, teardown_dir),
        cmocka_unit_test_setup_teardown(test_target_records_or_aborts, setup_dir, teardown_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
