/* lc_run.c - run one input in a child process and classify what happened.
 *
 * Every evaluation happens in a child so that a crash, an oracle abort or a
 * hang never takes the triage/replay process down: either an exec'd target
 * binary (a libFuzzer target given a file runs it once; the replay driver;
 * `malform check`) or a forked in-process function. The child gets its own
 * process group (a timeout kills the whole group, grandchildren included),
 * its stdout+stderr go into one pipe that the parent drains while polling
 * the clock, and the sanitizers are configured for stable signatures. */
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

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Fork the child: exec argv (+ path) or call fn on data. */
static pid_t spawn(const mf_lc_runner *r, const char *path, const void *data, size_t len, int wfd)
{
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    setpgid(0, 0);
    dup2(wfd, 1);
    dup2(wfd, 2);
    close(wfd);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        close(devnull);
    }
    if (r->afl_env) {
        setenv("ASAN_OPTIONS", "abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1", 1);
        setenv("UBSAN_OPTIONS", "halt_on_error=1:abort_on_error=1:symbolize=0", 1);
    } else {
        mf_lc_sanitizer_env();
    }
    unsetenv("MALFORM_STATS_DIR");   /* a replayed input must not count in a campaign */
    /* The child dies of its own signals, whatever handlers the parent has. */
    int fatal[] = {SIGPIPE, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
        signal(fatal[i], SIG_DFL);
    if (r->argv) {
        size_t n = 0;
        while (r->argv[n])
            n++;
        char **av = calloc(n + 2, sizeof *av);
        if (!av)
            _exit(127);
        memcpy(av, r->argv, n * sizeof *av);
        av[n] = (char *)path;
        execvp(av[0], av);
        fprintf(stderr, "malform-run: cannot exec %s: %s\n", av[0], strerror(errno));
        _exit(127);
    }
    int rc = r->fn((const uint8_t *)data, len, r->ctx);
    fflush(NULL);
    _exit(rc ? 1 : 0);
}

static int run_child(const mf_lc_runner *r, const char *path, const void *data, size_t len,
                     mf_lc_outcome *o, char **log_out)
{
    int fds[2];
    if (pipe(fds) < 0) {
        mf_lc_classify(NULL, 0, 0, false, o);
        o->kind = MF_LC_ERROR;
        snprintf(o->detail, sizeof o->detail, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t pid = spawn(r, path, data, len, fds[1]);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        memset(o, 0, sizeof *o);
        o->kind = MF_LC_ERROR;
        snprintf(o->detail, sizeof o->detail, "fork: %s", strerror(errno));
        return -1;
    }
    setpgid(pid, pid);
    size_t cap = r->max_log ? r->max_log : 65536, n = 0;
    char *log = malloc(cap + 1);
    double deadline = now_sec() + (r->timeout_sec > 0 ? r->timeout_sec : 10);
    bool timed_out = false, stopped = false;
    for (;;) {
        int ms = (int)((deadline - now_sec()) * 1000);
        if (mf_lc_stop) {   /* the user stopped triage/nightly: do not wait for this child */
            stopped = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            break;
        }
        if (ms <= 0) {
            timed_out = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            break;
        }
        struct pollfd pf = {fds[0], POLLIN, 0};
        int pr = poll(&pf, 1, ms < 200 ? ms : 200);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr <= 0)
            continue;
        char chunk[4096];
        ssize_t got = read(fds[0], chunk, sizeof chunk);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        /* Keep the head of the output: reports print the stack first. */
        if (log && n < cap) {
            size_t take = (size_t)got < cap - n ? (size_t)got : cap - n;
            memcpy(log + n, chunk, take);
            n += take;
        }
    }
    close(fds[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!timed_out)
        kill(-pid, SIGKILL);   /* stray grandchildren of the group */
    if (log)
        log[n] = '\0';
    mf_lc_classify(log, n, st, timed_out, o);
    if (stopped) {
        o->kind = MF_LC_ERROR;
        o->sig[0] = '\0';
        snprintf(o->detail, sizeof o->detail, "interrupted");
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && log && strstr(log, "malform-run: cannot exec")) {
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
