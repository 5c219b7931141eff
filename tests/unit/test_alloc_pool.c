/* test_alloc_pool.c - the jansson pool of the ASan fuzz builds
 * (alloc_pool.h): blocks are counted unless kept, json_dumps still returns
 * malloc'd memory, a repair reads the same value through it, and misuse of
 * a pooled value (read after free, write past the end, double free) is
 * still reported. Without ASan the pool stays off and jansson uses malloc. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>
#include "alloc_pool.h"
#include "malform/malform.h"

static const char broken[] = "{\"name\": \"pool\", \"tags\": [\"a\", \"b\",], \"n\": 3,}";

static json_t *repaired(void)
{
    mf_result *r = mf_repair(mf_profiles_get("generic_json"), broken, sizeof broken - 1, NULL);
    assert_non_null(r);
    assert_int_equal(r->status, MF_ACCEPTED);
    json_t *v = json_incref(r->value);
    mf_result_free(r);
    return v;
}

static bool pool_on;

static int setup(void **state)
{
    (void)state;
    json_decref(repaired());  /* installs core's jansson hook before the pool */
    pool_on = mf_alloc_pool_enable();
    return 0;
}

/* Does fn end the process (a sanitizer report or an abort)? Run in a child, its stderr muted. */
static bool dies(void (*fn)(void))
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0)
            dup2(fd, 2);
        fn();
        _exit(0);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_counts_and_keeps(void **state)
{
    (void)state;
    size_t before = mf_alloc_pool_live();
    json_t *v = json_pack("{s:s, s:[i, i]}", "k", "value", "list", 1, 2);
    assert_non_null(v);
    if (pool_on)
        assert_true(mf_alloc_pool_live() > before);
    json_decref(v);
    assert_int_equal(mf_alloc_pool_live(), before);
    bool was = mf_alloc_pool_keep(true);
    v = json_pack("{s:s}", "cached", "value");
    mf_alloc_pool_keep(was);
    assert_int_equal(mf_alloc_pool_live(), before);
    json_decref(v);
    assert_int_equal(mf_alloc_pool_live(), before);
}

static void test_repair_and_dumps(void **state)
{
    (void)state;
    size_t before = mf_alloc_pool_live();
    json_t *v = repaired();
    json_t *want = json_pack("{s:s, s:[s, s], s:i}", "name", "pool", "tags", "a", "b", "n", 3);
    assert_true(json_equal(v, want));
    char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(text, "{\"n\":3,\"name\":\"pool\",\"tags\":[\"a\",\"b\"]}");
    free(text);  /* malloc'd even with the pool on (pool_dumps.c) */
    json_decref(v);
    json_decref(want);
    assert_int_equal(mf_alloc_pool_live(), before);
}

static void read_after_free(void)
{
    json_t *s = json_string("a value that is freed");
    const char *text = json_string_value(s);
    json_decref(s);
    volatile char c = text[3];
    (void)c;
}

static void write_past_end(void)
{
    json_t *s = json_string("0123456789");
    char *text = (char *)json_string_value(s);
    text[11] = 'x';
    json_decref(s);
}

static void double_free(void)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    void *p = m(40);
    f(p);
    f(p);
}

static void test_misuse_reported(void **state)
{
    (void)state;
    if (!pool_on)
        skip();  /* without ASan nothing reports these */
    assert_true(dies(read_after_free));
    assert_true(dies(write_past_end));
    assert_true(dies(double_free));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_keeps),
        cmocka_unit_test(test_repair_and_dumps),
        cmocka_unit_test(test_misuse_reported),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
