/* test_metamorph.c - the metamorphic raw-mode oracle (harness/lib
 * metamorph.c, mf_oracle_metamorphic): core passes it for every eligible op
 * on every seed artifact and on the accepted rule fixtures (but for the
 * open regression entries it found); a pipeline that
 * rejects a repairable malformation, or repairs it to another value, fails
 * it; a raw check names the variant's op in its oracle line, and the same
 * raw input gives the same variant again. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "file_walk.h"
#include "finding.h"
#include "harness.h"
#include "metamorph.h"

typedef struct {
    size_t built, failed, known;
} tally;

/* Judge one built variant; print a failure. A failure whose signature is
 * an open regression entry (a known core bug) is counted apart. */
static void judge(mf_metamorph *m, const mf_profile *p, const char *what, tally *t)
{
    mf_oracle_input in = {p, NULL, "", 0, m->result, NULL, MF_EXPECT_RAW, &m->v};
    mf_verdict v;
    t->built++;
    if (mf_oracle_metamorphic(&in, &v)) {
        char line[1200], sig[720];
        snprintf(line, sizeof line, "malform-oracle: metamorphic profile=%s ops=%s rules=%s: %s", p->name, m->ops,
                 m->rules, v.detail);
        mf_finding_oracle_signature(line, sig, sizeof sig, NULL, NULL);
        bool known = mf_finding_known(sig, NULL);
        *(known ? &t->known : &t->failed) += 1;
        printf("  %s%s: %s\n", known ? "(open entry) " : "", what, v.detail);
    }
}

/* Every eligible op (one seed: the sanitizer build runs this in CI) on the accepted value of text. */
static void every_op(const mf_profile *p, const char *text, size_t len, const char *what, tally *t)
{
    mf_result *r = mf_repair(p, text, len, NULL);
    assert_non_null(r);
    for (size_t i = 0; r->status == MF_ACCEPTED && i < mf_ops_count(); i++) {
        const mf_op *op = mf_ops_at(i);
        for (uint64_t seed = 1; seed <= 1 && mf_metamorph_eligible(op, p); seed++) {
            mf_metamorph m;
            int rc = mf_metamorph_build_op(&m, p, NULL, r->value, op, seed * 7919, NULL, NULL);
            assert_true(rc >= 0);
            if (rc == 1) {
                char w[600];
                snprintf(w, sizeof w, "%s %s seed=%llu", what, op->id, (unsigned long long)seed * 7919);
                judge(&m, p, w, t);
            }
            mf_metamorph_free(&m);
        }
    }
    mf_result_free(r);
}

static void test_core_passes_on_seeds(void **state)
{
    (void)state;
    char root[4096];
    snprintf(root, sizeof root, "%s/corpus/seeds", MALFORM_SOURCE_DIR);
    DIR *d = opendir(root);
    assert_non_null(d);
    tally t = {0};
    size_t yaml = 0, json = 0;
    for (struct dirent *e; (e = readdir(d));) {
        const mf_profile *p = e->d_name[0] == '.' ? NULL : mf_profiles_get(e->d_name);
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        DIR *fd = p ? opendir(dir) : NULL;
        for (struct dirent *f; fd && (f = readdir(fd));) {
            char path[8400];
            size_t len, before = t.built;
            snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
            char *text = f->d_name[0] == '.' ? NULL : fw_slurp(path, &len);
            if (text)
                every_op(p, text, len, path + strlen(root) + 1, &t);
            *(p->format == MF_FORMAT_JSON ? &json : &yaml) += t.built - before;
            free(text);
        }
        if (fd)
            closedir(fd);
    }
    closedir(d);
    printf("seeds: %zu variants (%zu YAML, %zu JSON), %zu failed, %zu open entries\n", t.built, yaml, json, t.failed,
           t.known);
    assert_true(yaml > 50 && json > 50);
    assert_int_equal(t.failed, 0);
}

/* The accepted rule fixtures (built-in profiles) as raw inputs: mf_metamorph_build's own op choice. */
static void test_core_passes_on_fixtures(void **state)
{
    (void)state;
    char root[4096];
    snprintf(root, sizeof root, "%s/tests/fixtures/rules", MALFORM_SOURCE_DIR);
    DIR *d = opendir(root);
    assert_non_null(d);
    tally t = {0};
    for (struct dirent *e; (e = readdir(d));) {
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        DIR *fd = e->d_name[0] == '.' ? NULL : opendir(dir);
        for (struct dirent *f; fd && (f = readdir(fd));) {
            size_t n = strlen(f->d_name), len, olen;
            if (n < 4 || strcmp(f->d_name + n - 3, ".in"))
                continue;
            char path[8400];
            snprintf(path, sizeof path, "%s/%.*s.opts.json", dir, (int)(n - 3), f->d_name);
            char *ot = fw_slurp(path, &olen);
            json_t *opts = ot ? json_loads(ot, 0, NULL) : json_object();
            free(ot);
            const char *pn = json_string_value(json_object_get(opts, "profile"));
            const mf_profile *p = mf_profiles_get(pn ? pn : !strncmp(e->d_name, "json.", 5) ? "generic_json"
                                                                                           : "generic_yaml");
            snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
            char *text = p ? fw_slurp(path, &len) : NULL;
            mf_options o;
            mf_options_from_json(json_object_get(opts, "options"), &o);
            mf_result *r = text ? mf_repair(p, text, len, &o) : NULL;
            mf_metamorph m;
            if (r && r->status == MF_ACCEPTED && mf_metamorph_build(&m, p, &o, r->value, NULL, NULL) == 1) {
                judge(&m, p, path + strlen(root) + 1, &t);
                mf_metamorph_free(&m);
            }
            mf_result_free(r);
            free(text);
            json_decref(opts);
        }
        if (fd)
            closedir(fd);
    }
    closedir(d);
    printf("fixtures: %zu variants, %zu failed, %zu open entries\n", t.built, t.failed, t.known);
    assert_true(t.built > 100);
    assert_int_equal(t.failed, 0);
}

/* Pipelines under test: core, except that text core warns about is
 * rejected (0) or loses its first member (1). */
static mf_result *refuses_repairs(void *ctx, const mf_profile *p, const char *text, size_t len, const mf_options *opt)
{
    mf_result *r = mf_repair(p, text, len, opt);
    if (!r || !r->warnings.count)
        return r;
    mf_result_free(r);
    if (*(int *)ctx == 0)
        return mf_repair(p, "\xff", 1, opt);   /* an encoding error: a rejection */
    r = mf_repair(p, text, len, opt);
    if (json_is_object(r->value) && json_object_size(r->value))
        json_object_del(r->value, json_object_iter_key(json_object_iter(r->value)));
    return r;
}

static void test_broken_pipeline_fails(void **state)
{
    (void)state;
    const mf_profile *p = mf_profiles_get("generic_yaml");
    const char *text = "title: Weekly report\nowner: Ana\nitems:\n  - name: disk\n    state: ok\n";
    mf_result *r = mf_repair(p, text, strlen(text), NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    for (int mode = 0; mode < 2; mode++) {
        tally t = {0};
        size_t detail_ok = 0;
        for (size_t i = 0; i < mf_ops_count(); i++) {
            mf_metamorph m;
            if (mf_metamorph_build_op(&m, p, NULL, r->value, mf_ops_at(i), 11, refuses_repairs, &mode) != 1)
                continue;
            mf_oracle_input in = {p, NULL, "", 0, r, NULL, MF_EXPECT_RAW, &m.v};
            mf_verdict v;
            t.built++;
            if (mf_oracle_metamorphic(&in, &v)) {
                t.failed++;
                detail_ok += strstr(v.detail, mode ? "repairs to another value" : "is rejected") != NULL;
            }
            mf_metamorph_free(&m);
        }
        printf("mode %d: %zu variants, %zu failed\n", mode, t.built, t.failed);
        assert_true(t.built >= 5);
        /* every variant needs a repair, so the broken pipeline fails every one */
        assert_int_equal(t.failed, t.built);
        assert_int_equal(detail_ok, t.failed);
    }
    mf_result_free(r);
}

/* A raw check builds the variant itself: the oracle line names its op and
 * rules, and checking the same bytes again gives the same line. */
static void test_raw_check_names_variant(void **state)
{
    (void)state;
    const char *raw = "title: Weekly report\nowner: Ana\nitems:\n  - name: disk\n    state: ok\n  - name: cpu\n"
                      "    state: hot\nnotes: two checks\n";
    const mf_profile *p = mf_profiles_get("generic_yaml");
    mf_check a, b;
    assert_int_equal(mf_check_run(&a, raw, strlen(raw), p, false, true), 0);
    assert_true(a.v[MF_ORACLE_METAMORPHIC].ran);
    assert_false(a.v[MF_ORACLE_METAMORPHIC].failed);
    assert_non_null(a.meta_ops);
    assert_non_null(mf_ops_find(a.meta_ops));
    assert_int_equal(mf_check_run(&b, raw, strlen(raw), p, false, true), 0);
    assert_string_equal(a.meta_ops, b.meta_ops);
    assert_string_equal(a.meta_rules, b.meta_rules);
    char line[1024], want[300];
    mf_check_line(&a, MF_ORACLE_METAMORPHIC, line, sizeof line);
    snprintf(want, sizeof want, "malform-oracle: metamorphic profile=generic_yaml ops=%s rules=%s: ", a.meta_ops,
             a.meta_rules);
    assert_string_equal(line, want);
    mf_check_free(&a);
    mf_check_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_core_passes_on_seeds),
        cmocka_unit_test(test_core_passes_on_fixtures),
        cmocka_unit_test(test_broken_pipeline_fails),
        cmocka_unit_test(test_raw_check_names_variant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
