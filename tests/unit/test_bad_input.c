/* test_bad_input.c - hostile input: a clean result or rejection, never a crash.
 *
 * Binary, empty, invalid UTF-8, 50 MB, 100 000-deep nesting, a million lines,
 * a billion-laughs alias bomb, over-limit size. Each runs through the whole
 * pipeline (including candidate extraction and every repair group). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"

static mf_result *run(const char *profile, const char *s, size_t n)
{
    mf_result *r = mf_repair(profile ? mf_profiles_get(profile) : NULL, s, n, NULL);
    assert_non_null(r);
    if (r->status == MF_REJECTED)
        assert_true(r->error.tier >= 1 && r->error.type && r->error.message);
    return r;
}

static void empty_input(void **state)
{
    (void)state;
    mf_result *r = run(NULL, "", 0);
    mf_result_free(r);
    r = run("generic_json", "", 0);
    assert_int_equal(r->status, MF_REJECTED);
    mf_result_free(r);
}

static void invalid_utf8(void **state)
{
    (void)state;
    const char s[] = "a: 1\nb: \xff\xfe caf\xc3\n";
    mf_result *r = run(NULL, s, sizeof s - 1);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.type, "ENCODING_ERROR");
    assert_int_equal(r->error.line, 2);
    assert_int_equal(r->error.column, 4);
    mf_result_free(r);
    const char sur[] = "a: \xed\xa0\x80\n"; /* UTF-16 surrogate encoded in UTF-8 */
    r = run(NULL, sur, sizeof sur - 1);
    assert_string_equal(r->error.type, "ENCODING_ERROR");
    mf_result_free(r);
}

static void binary(void **state)
{
    (void)state;
    unsigned char buf[4096];
    unsigned x = 12345;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
    mf_result_free(run(NULL, (char *)buf, sizeof buf));
    mf_result_free(run("generic_json", (char *)buf, sizeof buf));
    char nul[] = "a: 1\0b: 2\n";
    mf_result_free(run(NULL, nul, sizeof nul - 1));
}

static void deep_nesting(void **state)
{
    (void)state;
    size_t depth = 100000;
    char *s = malloc(depth * 2 + 1);
    for (size_t i = 0; i < depth; i++)
        s[i] = '[', s[depth * 2 - 1 - i] = ']';
    s[depth * 2] = '\0';
    mf_result *r = run("generic_yaml", s, depth * 2);
    assert_int_equal(r->status, MF_REJECTED);
    mf_result_free(r);
    mf_result_free(run("generic_json", s, depth * 2));
    for (size_t i = 0; i < depth; i++)
        s[i * 2] = '-', s[i * 2 + 1] = ' ';
    mf_result_free(run("generic_yaml", s, depth * 2));
    free(s);
}

static void million_lines(void **state)
{
    (void)state;
    mf_buf b = {0};
    for (int i = 0; i < 1000000; i++)
        mf_buf_printf(&b, "k%d: v\n", i);
    mf_result *r = run("generic_yaml", b.s, b.len);
    assert_int_equal(r->status, MF_ACCEPTED);
    mf_result_free(r);
    /* the same, broken on the last line so every repair group runs */
    mf_buf_puts(&b, "broken: \"unclosed\n  x: [\n");
    mf_result_free(run("generic_yaml", b.s, b.len));
    mf_buf_free(&b);
}

static void fifty_megabytes(void **state)
{
    (void)state;
    size_t n = 50u * 1024 * 1024;
    char *s = malloc(n + 1);
    memset(s, 'a', n);
    memcpy(s, "text: ", 6);
    s[n] = '\0';
    mf_result *r = run("generic_yaml", s, n);
    assert_int_equal(r->status, MF_ACCEPTED);
    mf_result_free(r);
    mf_options o = {0};
    o.max_input = 1024;
    r = mf_repair(NULL, s, n, &o);
    assert_string_equal(r->error.type, "INPUT_TOO_LARGE");
    mf_result_free(r);
    free(s);
}

static void alias_bomb(void **state)
{
    (void)state;
    mf_buf b = {0};
    mf_buf_puts(&b, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 12; i++)
        mf_buf_printf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
                      i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
    mf_result *r = run("generic_yaml", b.s, b.len);
    assert_int_equal(r->status, MF_REJECTED);
    mf_result_free(r);
    mf_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_input),   cmocka_unit_test(invalid_utf8),
        cmocka_unit_test(binary),        cmocka_unit_test(deep_nesting),
        cmocka_unit_test(million_lines), cmocka_unit_test(fifty_megabytes),
        cmocka_unit_test(alias_bomb),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
