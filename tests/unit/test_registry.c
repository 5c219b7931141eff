/* test_registry.c - the rule and op registries (core/src/rules.def,
 * mutators/src/ops.def): each rule's C name is its id spelled as C (so a
 * name can be guessed from the id), ids are unique, lookups return the
 * registry's own entries, and every op names rules that exist. */
#include <ctype.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"
#include "malform/mutators.h"

static const char *const rule_cnames[] = {
#define RULE(cname, id, section, description) #cname,
#include "rules.def"
#undef RULE
};

static void test_rule_names_follow_ids(void **state)
{
    (void)state;
    assert_int_equal(mf_rules_count(), MF_RULE_COUNT);
    assert_int_equal(sizeof rule_cnames / sizeof *rule_cnames, MF_RULE_COUNT);
    for (size_t i = 0; i < MF_RULE_COUNT; i++) {
        char want[128];
        size_t n = 0;
        for (const char *c = mf_rules_at(i)->id; *c && n + 1 < sizeof want; c++)
            want[n++] = *c == '.' || *c == '-' ? '_' : (char)toupper((unsigned char)*c);
        want[n] = '\0';
        assert_string_equal(rule_cnames[i], want);
    }
    assert_string_equal(MF_RULE_ID(YAML_COLON_SPACE), "yaml.colon-space");
    assert_ptr_equal(MF_RULE_ID(JSON_TRAILING_COMMA), mf_rules[MF_RULE_JSON_TRAILING_COMMA].id);
}

static void test_rules_unique_and_found(void **state)
{
    (void)state;
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const mf_rule *r = mf_rules_at(i);
        assert_true(*r->id && *r->section && *r->description);
        assert_ptr_equal(mf_rules_find(r->id), r);
    }
    assert_null(mf_rules_at(mf_rules_count()));
    assert_null(mf_rules_find("no.such-rule"));
    assert_null(mf_rules_find(NULL));
}

static void test_ops_unique_and_rules_exist(void **state)
{
    (void)state;
    assert_true(mf_ops_count() > 0);
    for (size_t i = 0; i < mf_ops_count(); i++) {
        const mf_op *o = mf_ops_at(i);
        assert_non_null(o->apply);
        assert_ptr_equal(mf_ops_find(o->id), o);
        char rules[256];
        snprintf(rules, sizeof rules, "%s", o->rules);
        for (char *save, *t = strtok_r(rules, " ", &save); t; t = strtok_r(NULL, " ", &save))
            if (!mf_rules_find(t))
                fail_msg("op %s names unknown rule %s", o->id, t);
    }
    assert_null(mf_ops_at(mf_ops_count()));
    assert_null(mf_ops_find("no.such-op"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_names_follow_ids),
        cmocka_unit_test(test_rules_unique_and_found),
        cmocka_unit_test(test_ops_unique_and_rules_exist),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
