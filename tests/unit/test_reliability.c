/* test_reliability.c - resource limits name themselves, warnings aggregate,
 * and reads stop at the size cap (issue 12).
 *
 * Caps: a list over the node cap is TOO_MANY_NODES (not a syntax error of
 * some repaired candidate), an alias bomb is stopped by the alias budget
 * before it is copied, too-deep nesting is NESTING_TOO_DEEP, an input over
 * max_input is INPUT_TOO_LARGE. Warnings: a rule applied on every line is one
 * record with a count and its first lines; distinct records are capped.
 * Reads: files, pipes and /dev/zero stop after cap + 1 bytes. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "internal.h"
#include "malform/input.h"

static char *repeat(const char *unit, size_t times, size_t *len)
{
    size_t n = strlen(unit);
    char *s = malloc(n * times + 1);
    assert_non_null(s);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * n, unit, n);
    s[n * times] = '\0';
    *len = n * times;
    return s;
}

static void node_cap_names_itself(void **state)
{
    (void)state;
    size_t len;
    char *s = repeat("- a\n", 4000100, &len);
    mf_result *r = mf_repair(NULL, s, len, NULL);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.type, "TOO_MANY_NODES");
    assert_non_null(strstr(r->error.message, "node cap"));
    mf_result_free(r);
    free(s);
}

static void alias_bomb_stops_early(void **state)
{
    (void)state;
    mf_buf b = {0};
    mf_buf_puts(&b, "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    const char *n = "abcdefghij";
    for (int i = 1; i < 10; i++) {
        mf_buf_printf(&b, "%c: &%c [", n[i], n[i]);
        for (int k = 0; k < 9; k++)
            mf_buf_printf(&b, "%s*%c", k ? ", " : "", n[i - 1]);
        mf_buf_puts(&b, "]\n");
    }
    mf_result *r = mf_repair(NULL, b.s, b.len, NULL);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.type, "TOO_MANY_NODES");
    assert_non_null(strstr(r->error.message, "alias expansion"));
    mf_result_free(r);
    /* a few aliases within the budget still expand */
    const char ok[] = "base: &b {x: 1, y: [1, 2]}\nfirst: *b\nsecond: *b\n";
    r = mf_repair(NULL, ok, sizeof ok - 1, NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    assert_true(json_equal(json_object_get(r->value, "first"), json_object_get(r->value, "base")));
    mf_result_free(r);
    mf_buf_free(&b);
}

static void depth_cap_names_itself(void **state)
{
    (void)state;
    size_t len;
    char *s = repeat("- ", 300, &len);
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), s, len, NULL);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.type, "NESTING_TOO_DEEP");
    mf_result_free(r);
    free(s);
}

static void size_cap_names_itself(void **state)
{
    (void)state;
    mf_options o = {.max_input = 10};
    mf_result *r = mf_repair(NULL, "a: 1\nb: 2\nc: 3\n", 15, &o);
    assert_string_equal(r->error.type, "INPUT_TOO_LARGE");
    assert_non_null(strstr(r->error.message, "size cap of 10 bytes"));
    mf_result_free(r);
}

static void memory_cap_names_itself(void **state)
{
    (void)state;
    size_t len;
    char *s = repeat("- []\n", 100000, &len); /* ~150 bytes of jansson per 5 input bytes */
    size_t saved = mf_mem_budget_set(4 << 20);  /* a tighter outer budget than 16x + 64 MiB */
    mf_result *r = mf_repair(NULL, s, len, NULL);
    mf_mem_budget_restore(saved);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.type, "MEMORY_LIMIT");
    mf_result_free(r);
    r = mf_repair(NULL, s, len, NULL); /* within the default budget */
    assert_int_equal(r->status, MF_ACCEPTED);
    assert_int_equal(json_array_size(r->value), 100000);
    mf_result_free(r);
    free(s);
}

static void warnings_aggregate(void **state)
{
    (void)state;
    size_t len;
    char *s = repeat("- \"v\n", 20000, &len);
    mf_result *r = mf_repair(NULL, s, len, NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    assert_int_equal(json_array_size(r->value), 20000);
    assert_int_equal(r->warnings.count, 1);
    const mf_warning *w = &r->warnings.items[0];
    assert_string_equal(w->rule, "yaml.unclosed-quote");
    assert_int_equal(w->count, 20000);
    assert_int_equal(w->line, 1);
    assert_int_equal(w->nlines, MF_WARNING_LINES);
    assert_int_equal(w->lines[2], 3);
    json_t *j = mf_result_to_json(r);
    json_t *jw = json_array_get(json_object_get(j, "warnings"), 0);
    assert_int_equal(json_integer_value(json_object_get(jw, "count")), 20000);
    assert_int_equal(json_array_size(json_object_get(jw, "lines")), MF_WARNING_LINES);
    assert_int_equal(json_object_size(j), 7);
    json_decref(j);
    mf_result_free(r);
    free(s);
}

static void warning_records_capped(void **state)
{
    (void)state;
    mf_warnings w = {0};
    for (int i = 0; i < 10000; i++) {
        assert_int_equal(mf_warnings_add(&w, "yaml.colon-space", i + 1, "distinct message %d", i), 0);
        assert_int_equal(mf_warnings_add(&w, "norm.alias", i + 1, "other %d", i), 0);
    }
    assert_int_equal(w.count, MF_WARNINGS_MAX + 2); /* one overflow record per rule */
    assert_int_equal(mf_warnings_total(&w), 20000);
    for (size_t i = MF_WARNINGS_MAX; i < w.count; i++)
        assert_non_null(strstr(w.items[i].message, "and similar"));
    assert_true(mf_warnings_has(&w, "norm.alias"));
    mf_warnings_clear(&w);
}

static void read_stops_at_cap(void **state)
{
    (void)state;
    char *buf;
    size_t len;
    assert_int_equal(mf_input_read("/dev/zero", 1000, &buf, &len), MF_INPUT_TOO_LARGE);
    assert_int_equal(len, 1001);
    free(buf);
    char path[] = "/tmp/malform-input-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "0123456789", 10), 10);
    close(fd);
    assert_int_equal(mf_input_read(path, 10, &buf, &len), MF_INPUT_OK);
    assert_int_equal(len, 10);
    assert_string_equal(buf, "0123456789");
    free(buf);
    assert_int_equal(mf_input_read(path, 9, &buf, &len), MF_INPUT_TOO_LARGE);
    assert_int_equal(len, 10);
    free(buf);
    unlink(path);
    assert_int_equal(mf_input_read(path, 9, &buf, &len), MF_INPUT_OPEN_ERROR);
    assert_null(buf);
}

static void read_endless_pipe(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) { /* `yes` */
        close(p[0]);
        signal(SIGPIPE, SIG_DFL);
        for (;;)
            if (write(p[1], "y\ny\ny\ny\n", 8) < 0)
                _exit(0);
    }
    close(p[1]);
    int saved = dup(STDIN_FILENO);
    dup2(p[0], STDIN_FILENO);
    close(p[0]);
    char *buf;
    size_t len;
    mf_input_status st = mf_input_read("-", 100000, &buf, &len);
    dup2(saved, STDIN_FILENO);
    close(saved);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_int_equal(st, MF_INPUT_TOO_LARGE);
    assert_int_equal(len, 100001);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(node_cap_names_itself),   cmocka_unit_test(alias_bomb_stops_early),
        cmocka_unit_test(depth_cap_names_itself),  cmocka_unit_test(size_cap_names_itself),
        cmocka_unit_test(memory_cap_names_itself), cmocka_unit_test(warnings_aggregate),
        cmocka_unit_test(warning_records_capped),
        cmocka_unit_test(read_stops_at_cap),       cmocka_unit_test(read_endless_pipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
