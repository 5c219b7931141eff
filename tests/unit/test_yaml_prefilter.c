/* test_yaml_prefilter.c - the YAML group driver's byte pre-check never skips
 * a rule that would change the text.
 *
 * run_chain (yaml_repair.c) skips a rule when the text lacks every byte the
 * rule repairs (mf_yaml_rule_may_apply). For every rule fixture input and
 * every YAML seed, through generic_yaml and every YAML profile, each rule the
 * pre-check would skip must leave the text unchanged when run anyway (its
 * mf_yaml_fix_<name> form, which never skips). A rule edited to repair a new
 * byte fails here until its trigger in YR_RULES (yaml_repair.c) names that byte. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"

static size_t checked, skipped;

static void check_text(const char *name, const char *s, size_t n)
{
    for (size_t k = 0; k < mf_profiles_count(); k++) {
        const mf_profile *p = mf_profiles_at(k);
        if (p->format != MF_FORMAT_YAML)
            continue;
        for (size_t i = 0; mf_yaml_repairs[i].fn; i++) {
            checked++;
            if (mf_yaml_rule_may_apply(i, s, n))
                continue;
            skipped++;
            mf_buf out = {0};
            mf_warnings w = {0};
            size_t changes = mf_yaml_repairs[i].fn(s, n, &out, p, &w);
            mf_buf_free(&out);
            mf_warnings_clear(&w);
            if (changes)
                fail_msg("%s: rule %s skipped by the byte pre-check but changes the text (profile %s)", name,
                         mf_yaml_repairs[i].rule_id, p->name);
        }
    }
}

static void check_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    mf_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    check_text(path, mf_buf_cstr(&b), b.len);
    mf_buf_free(&b);
}

/* Every file under dir (one level of subdirectories) whose name ends with ext. */
static size_t walk(const char *dir, const char *ext)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    size_t files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *s = opendir(sub);
        if (!s)
            continue;
        struct dirent *x;
        while ((x = readdir(s))) {
            size_t l = strlen(x->d_name), el = strlen(ext);
            if (l > el && strcmp(x->d_name + l - el, ext) == 0) {
                char path[8200];
                snprintf(path, sizeof path, "%s/%s", sub, x->d_name);
                check_file(path);
                files++;
            }
        }
        closedir(s);
    }
    closedir(d);
    return files;
}

static void test_prefilter(void **state)
{
    (void)state;
    size_t files = walk(MALFORM_SOURCE_DIR "/tests/fixtures/rules", ".in");
    files += walk(MALFORM_SOURCE_DIR "/corpus/seeds", ".yaml");
    printf("yaml pre-check: %zu files, %zu rule runs, %zu skipped by the pre-check and checked\n", files, checked,
           skipped);
    assert_true(files > 100);
    assert_true(skipped > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_prefilter)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
