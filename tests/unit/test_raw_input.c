/* test_raw_input.c - the raw fuzz input format (harness/lib/raw_input.c):
 * "@<profile>\n" names a built-in profile by name, anything else is text
 * whose profile is detected, and encode/decode round-trip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "raw_input.h"

static void decode(const char *in, const char *want_profile, const char *want_text)
{
    const mf_profile *p;
    const char *text;
    size_t len;
    mf_raw_input_decode((const uint8_t *)in, strlen(in), &p, &text, &len);
    if (want_profile) {
        assert_non_null(p);
        assert_string_equal(p->name, want_profile);
    } else {
        assert_null(p);
    }
    assert_int_equal(len, strlen(want_text));
    assert_memory_equal(text, want_text, len);
}

static void test_decode(void **state)
{
    (void)state;
    decode("@prd\ntitle: x\n", "prd", "title: x\n");
    decode("@task_breakdown\n{\"a\": 1}", "task_breakdown", "{\"a\": 1}");
    decode("@prd\n", "prd", "");
    decode("@no_such_profile\ntitle: x\n", NULL, "@no_such_profile\ntitle: x\n");
    decode("@prd", NULL, "@prd");                    /* no newline: all text */
    decode("\rtitle: x\n", NULL, "\rtitle: x\n");   /* an old index byte names nothing */
    decode("title: x\n", NULL, "title: x\n");
    decode("", NULL, "");
    decode("@", NULL, "@");
    decode("@@prd\nx", NULL, "@@prd\nx");
}

static void test_every_profile_round_trips(void **state)
{
    (void)state;
    for (size_t i = 0; i < mf_profiles_count(); i++) {
        const char *name = mf_profiles_at(i)->name;
        size_t n;
        uint8_t *in = mf_raw_input_encode(name, "k: v\n", 5, &n);
        assert_non_null(in);
        assert_int_equal(n, strlen(name) + 2 + 5);
        const mf_profile *p;
        const char *text;
        size_t len;
        mf_raw_input_decode(in, n, &p, &text, &len);
        assert_ptr_equal(p, mf_profiles_at(i));
        assert_int_equal(len, 5);
        assert_memory_equal(text, "k: v\n", 5);
        free(in);
    }
    size_t n;
    uint8_t *plain = mf_raw_input_encode(NULL, "abc", 3, &n);
    assert_int_equal(n, 3);
    assert_memory_equal(plain, "abc", 3);
    free(plain);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_every_profile_round_trips),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
