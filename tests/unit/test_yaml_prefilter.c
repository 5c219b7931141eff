/* test_yaml_prefilter.c - the YAML group driver's byte pre-check never skips
 * a rule that would change the text.
 *
 * run_chain (yaml_repair.c) skips a rule when the text lacks every byte the
 * rule repairs (mf_yaml_rule_may_apply). For every rule fixture input and
 * every YAML seed, through generic_yaml and every YAML profile, each rule the
 * pre-check would skip must leave the text unchanged when run anyway (its
 * mf_yaml_fix_<name> form, which never skips). A rule edited to repair a new
 * byte fails here until its trigger in YR_RULES (yaml_repair.c) names that byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "file_walk.h"
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

static void test_prefilter(void **state)
{
    (void)state;
    size_t files = fw_walk(MALFORM_SOURCE_DIR "/tests/fixtures/rules", ".in", check_text);
    size_t seeds = fw_walk(MALFORM_SOURCE_DIR "/corpus/seeds", ".yaml", check_text);
    assert_true(files != (size_t)-1 && seeds != (size_t)-1);
    files += seeds;
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
