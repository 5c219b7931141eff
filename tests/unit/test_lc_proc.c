/* test_lc_proc.c - the process runner (harness/lifecycle/lc_proc.c): output
 * lines and capture, exit status, deadline and stop (SIGTERM, then SIGKILL),
 * the rest of the group killed when the child ends, and no survivor when
 * the parent itself is killed with SIGKILL (the guard and PR_SET_PDEATHSIG).
 * This process is a child subreaper, so orphans come back to it to be
 * reaped and their deaths observed; an alarm fails a test that would hang. */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "lc_proc.h"
#include "lifecycle.h"

typedef struct {
    char lines[8][64];
    int n, ticks;
    bool stop_now;
} seen;

static void on_line(void *ctx, const char *line)
{
    seen *s = ctx;
    if (s->n < 8)
        snprintf(s->lines[s->n++], sizeof s->lines[0], "%s", line);
}

static bool stop_after_tick(void *ctx)
{
    return ((seen *)ctx)->stop_now;
}

static void tick(void *ctx)
{
    seen *s = ctx;
    if (++s->ticks >= 3)
        s->stop_now = true;
}

/* Wait (as subreaper) for pid to be gone; its wait status. */
static int reap(pid_t pid)
{
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    return st;
}

static void test_lines_capture_status(void **state)
{
    (void)state;
    char *argv[] = {"/bin/sh", "-c", "echo first; echo second >&2; printf tail; exit 3", NULL};
    seen s = {0};
    mf_lc_proc p = {.argv = argv, .on_line = on_line, .capture = 4, .ctx = &s};
    int st = mf_lc_proc_run(&p);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 3);
    assert_int_equal(mf_lc_proc_exit_code(st), 3);
    assert_int_equal(s.n, 3);
    assert_string_equal(s.lines[0], "first");
    assert_string_equal(s.lines[1], "second");
    assert_string_equal(s.lines[2], "tail");
    assert_int_equal(p.out_len, 4);
    assert_string_equal(p.out, "firs");
    assert_false(p.timed_out || p.stopped);
    mf_lc_proc_free(&p);
}

static int fn_exit_5(void *ctx)
{
    (void)ctx;
    printf("from fn\n");
    return 5;
}

static void test_fn_child_and_env(void **state)
{
    (void)state;
    seen s = {0};
    mf_lc_proc p = {.fn = fn_exit_5, .on_line = on_line, .ctx = &s};
    assert_int_equal(mf_lc_proc_exit_code(mf_lc_proc_run(&p)), 5);
    assert_string_equal(s.lines[0], "from fn");
    char *argv[] = {"/bin/sh", "-c", "echo \"$LC_PROC_TEST\"; pwd", NULL};
    char *env[] = {"LC_PROC_TEST=hello", NULL};
    seen t = {0};
    mf_lc_proc q = {.argv = argv, .env = env, .dir = "/", .on_line = on_line, .ctx = &t};
    assert_int_equal(mf_lc_proc_run(&q), 0);
    assert_string_equal(t.lines[0], "hello");
    assert_string_equal(t.lines[1], "/");
    char *bad[] = {"/nonexistent/program", NULL};
    mf_lc_proc r = {.argv = bad, .capture = 4096};
    assert_int_equal(mf_lc_proc_exit_code(mf_lc_proc_run(&r)), 127);
    assert_non_null(strstr(r.out, "cannot exec /nonexistent/program"));
    mf_lc_proc_free(&r);
}

static void test_deadline_kills(void **state)
{
    (void)state;
    char *argv[] = {"sleep", "30", NULL};
    mf_lc_proc p = {.argv = argv, .deadline = mf_lc_clock() + 0.2};
    int st = mf_lc_proc_run(&p);
    assert_true(p.timed_out);
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
    char buf[64];
    assert_string_equal(mf_lc_proc_describe(st, buf, sizeof buf), "killed by SIGKILL");
}

static void test_stop_terms_then_waits(void **state)
{
    (void)state;
    /* The shell exits 7 on SIGTERM: the grace period lets it. */
    char *argv[] = {"/bin/sh", "-c", "trap 'exit 7' TERM; while :; do sleep 0.05; done", NULL};
    seen s = {0};
    mf_lc_proc p = {.argv = argv, .stop = stop_after_tick, .tick = tick, .grace = 20, .capture = 256, .ctx = &s};
    int st = mf_lc_proc_run(&p);
    assert_true(p.stopped);
    assert_false(p.timed_out);
    assert_int_equal(mf_lc_proc_exit_code(st), 7);
    mf_lc_proc_free(&p);
}

static void test_group_leftovers_killed(void **state)
{
    (void)state;
    char *argv[] = {"/bin/sh", "-c", "sleep 60 & echo $!", NULL};
    mf_lc_proc p = {.argv = argv, .capture = 64};
    assert_int_equal(mf_lc_proc_run(&p), 0);
    pid_t bg = (pid_t)atoi(p.out);
    assert_true(bg > 0);
    int st = reap(bg);   /* adopted by this subreaper; killed with the group */
    assert_true(WIFSIGNALED(st));
    assert_int_equal(WTERMSIG(st), SIGKILL);
    mf_lc_proc_free(&p);
}

/* A "malform" (a forked copy of this test) starts a child whose own child
 * runs in the background, and is killed with SIGKILL: neither survives. */
static void test_sigkill_of_parent_leaves_no_survivor(void **state)
{
    (void)state;
    char log[] = "/tmp/malform-lc-proc-XXXXXX";
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    pid_t parent = fork();
    assert_true(parent >= 0);
    if (parent == 0) {
        char *argv[] = {"/bin/sh", "-c", "sleep 60 & echo $$ $!; wait", NULL};
        mf_lc_proc p = {.argv = argv, .log = log};
        mf_lc_proc_run(&p);
        _exit(0);
    }
    pid_t child = 0, grandchild = 0;
    for (int i = 0; i < 2000 && !grandchild; i++) {   /* until the shell wrote both pids */
        FILE *f = fopen(log, "r");
        int a = 0, b = 0;
        if (f && fscanf(f, "%d %d", &a, &b) == 2)
            child = a, grandchild = b;
        if (f)
            fclose(f);
        usleep(10000);
    }
    unlink(log);
    assert_true(child > 0 && grandchild > 0);
    kill(parent, SIGKILL);
    reap(parent);
    int st = reap(child);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    st = reap(grandchild);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    while (waitpid(-1, NULL, WNOHANG) > 0)   /* the guard */
        ;
}

/* A group started without mf_lc_proc but registered with the guard dies
 * with its parent too. */
static void test_guarded_foreign_group(void **state)
{
    (void)state;
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t parent = fork();
    assert_true(parent >= 0);
    if (parent == 0) {
        pid_t w = fork();
        if (w == 0) {
            setpgid(0, 0);
            execlp("sleep", "sleep", "60", (char *)NULL);
            _exit(127);
        }
        setpgid(w, w);
        mf_lc_proc_guard(w);
        (void)!write(fds[1], &w, sizeof w);
        pause();
        _exit(0);
    }
    pid_t worker = 0;
    assert_int_equal(read(fds[0], &worker, sizeof worker), (ssize_t)sizeof worker);
    close(fds[0]);
    close(fds[1]);
    kill(parent, SIGKILL);
    reap(parent);
    int st = reap(worker);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    while (waitpid(-1, NULL, WNOHANG) > 0)   /* the guard */
        ;
}

int main(void)
{
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    alarm(120);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_capture_status),
        cmocka_unit_test(test_fn_child_and_env),
        cmocka_unit_test(test_deadline_kills),
        cmocka_unit_test(test_stop_terms_then_waits),
        cmocka_unit_test(test_group_leftovers_killed),
        cmocka_unit_test(test_sigkill_of_parent_leaves_no_survivor),
        cmocka_unit_test(test_guarded_foreign_group),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
