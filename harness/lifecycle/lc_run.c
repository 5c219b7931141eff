/* lc_run.c - run one input in a child process and classify what happened.
 *
 * Every evaluation happens in a child so that a crash, an oracle abort or a
 * hang never takes the triage/replay process down: either an exec'd target
 * binary (a libFuzzer target given a file runs it once; the replay driver;
 * `malform check`) or a forked in-process function. The child gets its own
 * process group (a timeout kills the whole group, grandchildren included),
 * its stdout+stderr go into one pipe that the parent drains while polling
 * the clock (lc_proc.c), and the sanitizers are configured for stable
 * signatures. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lc_proc.h"
#include "lifecycle.h"

void mf_lc_sanitizer_env(void)
{
    const char *common = "dedup_token_length=3:symbolize=1:print_stacktrace=1:handle_abort=1";
    char buf[512];
    snprintf(buf, sizeof buf, "%s:abort_on_error=0:detect_leaks=1:allocator_may_return_null=1", common);
    setenv("ASAN_OPTIONS", buf, 0);
    snprintf(buf, sizeof buf, "%s:halt_on_error=1", common);
    setenv("UBSAN_OPTIONS", buf, 0);
}

typedef struct {
    const mf_lc_runner *r;
    const void *data;
    size_t len;
} run_ctx;

static void child_setup(void *ctx)
{
    const mf_lc_runner *r = ((run_ctx *)ctx)->r;
    if (r->afl_env) {
        setenv("ASAN_OPTIONS", "abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1", 1);
        setenv("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:symbolize=0", 1);
    } else {
        mf_lc_sanitizer_env();
    }
    unsetenv("MALFORM_STATS_DIR");   /* a replayed input must not count in a campaign */
    unsetenv("MALFORM_FINDINGS_DIR");   /* ... and must fail the old way (abort), not be recorded */
}

static int child_fn(void *ctx)
{
    run_ctx *c = ctx;
    return c->r->fn((const uint8_t *)c->data, c->len, c->r->ctx) ? 1 : 0;
}

static bool stop_requested(void *ctx)
{
    (void)ctx;
    return mf_lc_stop != 0;   /* the user stopped triage/nightly: do not wait for this child */
}

static int run_child(const mf_lc_runner *r, const char *path, const void *data, size_t len,
                     mf_lc_outcome *o, char **log_out)
{
    run_ctx c = {r, data, len};
    char **av = NULL;
    if (r->argv) {   /* argv + the input path */
        size_t n = 0;
        while (r->argv[n])
            n++;
        if (!(av = calloc(n + 2, sizeof *av))) {
            memset(o, 0, sizeof *o);
            o->kind = MF_LC_ERROR;
            snprintf(o->detail, sizeof o->detail, "out of memory");
            return -1;
        }
        memcpy(av, r->argv, n * sizeof *av);
        av[n] = (char *)path;
    }
    mf_lc_proc p = {.argv = av, .fn = av ? NULL : child_fn, .child_setup = child_setup, .ctx = &c,
                    .capture = r->max_log ? r->max_log : 65536, .stop = stop_requested,
                    .deadline = mf_lc_clock() + (r->timeout_sec > 0 ? r->timeout_sec : 10)};
    int st = mf_lc_proc_run(&p);
    free(av);
    if (st < 0 && p.pid < 0) {
        memset(o, 0, sizeof *o);
        o->kind = MF_LC_ERROR;
        snprintf(o->detail, sizeof o->detail, "cannot start a child: %s", strerror(errno));
        return -1;
    }
    char *log = p.out;
    size_t n = p.out_len;
    mf_lc_classify(log, n, p.status, p.timed_out, o);
    if (p.stopped) {
        o->kind = MF_LC_ERROR;
        o->sig[0] = '\0';
        snprintf(o->detail, sizeof o->detail, "interrupted");
    }
    if (WIFEXITED(p.status) && WEXITSTATUS(p.status) == 127 && log && strstr(log, "malform-run: cannot exec")) {
        o->kind = MF_LC_ERROR;
        o->sig[0] = '\0';
        snprintf(o->detail, sizeof o->detail, "%.500s", strstr(log, "malform-run: ") + 13);
        char *nl = strchr(o->detail, '\n');
        if (nl)
            *nl = '\0';
    }
    if (log_out)
        *log_out = log;
    else
        free(log);
    return o->kind == MF_LC_ERROR ? -1 : 0;
}

int mf_lc_run_path(const mf_lc_runner *r, const char *path, mf_lc_outcome *o, char **log)
{
    if (log)
        *log = NULL;
    return run_child(r, path, NULL, 0, o, log);
}

int mf_lc_run(const mf_lc_runner *r, const void *data, size_t len, mf_lc_outcome *o, char **log)
{
    if (log)
        *log = NULL;
    if (r->judge)
        return r->judge(data, len, r->ctx, o);
    if (!r->argv)
        return run_child(r, NULL, data, len, o, log);
    char path[4096];
    snprintf(path, sizeof path, "%s/malform-run-XXXXXX", r->tmpdir ? r->tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        memset(o, 0, sizeof *o);
        o->kind = MF_LC_ERROR;
        snprintf(o->detail, sizeof o->detail, "cannot create a temp input in %s: %s",
                 r->tmpdir ? r->tmpdir : "/tmp", strerror(errno));
        return -1;
    }
    const char *p = data;
    size_t left = len;
    while (left) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            int e = errno;
            close(fd);
            unlink(path);
            memset(o, 0, sizeof *o);
            o->kind = MF_LC_ERROR;
            snprintf(o->detail, sizeof o->detail, "cannot write a temp input: %s", strerror(e));
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    close(fd);
    int rc = run_child(r, path, NULL, 0, o, log);
    unlink(path);
    return rc;
}
