/* lc_proc.c - start, watch and end child processes (see lc_proc.h).
 *
 * The guard: the first start forks a small process that holds the read end
 * of a socket whose write end only malform has (close-on-exec, so programs
 * it runs do not inherit it). malform sends it +pgid for every child group it
 * starts and -pgid when that group is gone. When the socket reads EOF,
 * malform is dead however it died, and the guard SIGKILLs every group still
 * registered, then exits. PR_SET_PDEATHSIG covers the child itself between
 * its fork and its registration. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lc_proc.h"
#include "lifecycle.h"

static int guard_fd = -1;
static pid_t guard_owner;

static void guard_main(int fd)
{
    int devnull = open("/dev/null", O_RDWR);
    for (int i = 0; i < 3 && devnull >= 0; i++)
        dup2(devnull, i);
    for (int i = 3; i < 1024; i++)
        if (i != fd)
            close(i);
    signal(SIGINT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    setpgid(0, 0);
    size_t n = 0, cap = 0;
    int32_t *groups = NULL, msg;
    for (;;) {
        ssize_t got = recv(fd, &msg, sizeof msg, MSG_WAITALL);
        if (got < 0 && errno == EINTR)
            continue;
        if (got != (ssize_t)sizeof msg)
            break;   /* EOF: malform is gone */
        if (msg > 0) {
            if (n == cap) {
                int32_t *g = realloc(groups, (cap = cap ? cap * 2 : 64) * sizeof *g);
                if (!g)
                    continue;
                groups = g;
            }
            groups[n++] = msg;
        } else {
            for (size_t i = 0; i < n; i++)
                if (groups[i] == -msg) {
                    groups[i] = groups[--n];
                    break;
                }
        }
    }
    for (size_t i = 0; i < n; i++)
        kill(-groups[i], SIGKILL);
    _exit(0);
}

/* Start the guard of this process once (a forked malform gets its own). */
static void guard_ensure(void)
{
    if (guard_owner == getpid() && guard_fd >= 0)
        return;
    if (guard_fd >= 0)
        close(guard_fd);
    guard_fd = -1;
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return;
    pid_t g = fork();
    if (g == 0) {
        close(sv[0]);
        guard_main(sv[1]);
    }
    close(sv[1]);
    if (g < 0) {
        close(sv[0]);
        return;
    }
    guard_fd = sv[0];
    guard_owner = getpid();
}

/* Register (add) or forget a child's process group with the guard. */
static void guard_tell(pid_t pgid, bool add)
{
    int32_t msg = add ? (int32_t)pgid : -(int32_t)pgid;
    if (guard_fd >= 0 && guard_owner == getpid())
        (void)send(guard_fd, &msg, sizeof msg, MSG_NOSIGNAL);
}

static void child_main(mf_lc_proc *p, pid_t parent, int wfd)
{
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);   /* the parent died before prctl */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int fatal[] = {SIGPIPE, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM, SIGHUP, SIGCHLD};
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
        signal(fatal[i], SIG_DFL);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) {
        dup2(devnull, 0);
        if (devnull)
            close(devnull);
    }
    if (wfd >= 0) {
        dup2(wfd, 1);
        if (!p->keep_stderr)
            dup2(wfd, 2);
        if (wfd > 2)
            close(wfd);
    }
    if (p->dir && chdir(p->dir) != 0) {
        fprintf(stderr, "malform: cannot enter %s: %s\n", p->dir, strerror(errno));
        _exit(127);
    }
    for (char *const *e = p->env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[256];
        if (!eq || (size_t)(eq - *e) >= sizeof name)
            continue;
        memcpy(name, *e, (size_t)(eq - *e));
        name[eq - *e] = '\0';
        setenv(name, eq + 1, 1);
    }
    if (p->child_setup)
        p->child_setup(p->ctx);
    if (p->argv) {
        execvp(p->argv[0], p->argv);
        fprintf(stderr, "malform-run: cannot exec %s: %s\n", p->argv[0], strerror(errno));
        _exit(127);
    }
    int rc = p->fn(p->ctx);
    fflush(NULL);
    _exit(rc);
}

int mf_lc_proc_start(mf_lc_proc *p)
{
    p->pid = -1;
    p->fd = p->logfd = -1;
    p->status = 0;
    p->timed_out = p->stopped = false;
    p->term_at = 0;
    p->out = NULL;
    p->out_len = 0;
    p->part = NULL;
    p->part_len = 0;
    bool piped = p->on_line || p->capture;
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (p->log_truncate ? O_TRUNC : O_APPEND);
    if (p->log && (p->logfd = open(p->log, flags, 0644)) < 0)
        return -1;
    int fds[2] = {-1, -1};
    if (piped && pipe2(fds, O_CLOEXEC) < 0) {
        int e = errno;
        if (p->logfd >= 0)
            close(p->logfd);
        errno = e;
        return -1;
    }
    if (p->capture && !(p->out = malloc(p->capture + 1))) {
        if (piped)
            close(fds[0]), close(fds[1]);
        if (p->logfd >= 0)
            close(p->logfd);
        errno = ENOMEM;
        return -1;
    }
    fflush(NULL);
    guard_ensure();
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        if (piped)
            close(fds[0]), close(fds[1]);
        if (p->logfd >= 0)
            close(p->logfd);
        free(p->out);
        p->out = NULL;
        errno = e;
        return -1;
    }
    if (pid == 0)
        child_main(p, parent, piped ? fds[1] : p->logfd);
    setpgid(pid, pid);
    guard_tell(pid, true);
    p->pid = pid;
    if (piped) {
        close(fds[1]);
        p->fd = fds[0];
    } else if (p->logfd >= 0) {
        close(p->logfd);
        p->logfd = -1;
    }
    return 0;
}

static void emit_line(mf_lc_proc *p, const char *s, size_t n)
{
    char *line = malloc(n + 1);
    if (!line)
        return;
    memcpy(line, s, n);
    line[n] = '\0';
    if (n && line[n - 1] == '\r')
        line[n - 1] = '\0';
    p->on_line(p->ctx, line);
    free(line);
}

static void feed(mf_lc_proc *p, const char *buf, size_t n)
{
    if (p->logfd >= 0)
        for (size_t off = 0; off < n;) {
            ssize_t w = write(p->logfd, buf + off, n - off);
            if (w <= 0 && errno != EINTR)
                break;
            off += w > 0 ? (size_t)w : 0;
        }
    if (p->out && p->out_len < p->capture) {   /* the head: reports print the stack first */
        size_t take = n < p->capture - p->out_len ? n : p->capture - p->out_len;
        memcpy(p->out + p->out_len, buf, take);
        p->out_len += take;
    }
    if (!p->on_line)
        return;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] != '\n' && p->part_len < 8191) {
            if (!p->part && !(p->part = malloc(8192)))
                return;
            p->part[p->part_len++] = buf[i];
            continue;
        }
        emit_line(p, p->part ? p->part : "", p->part_len);
        p->part_len = 0;
        if (buf[i] != '\n' && p->part)
            p->part[p->part_len++] = buf[i];
    }
}

/* Read what is available; false at EOF or error. */
static bool drain(mf_lc_proc *p, int ms)
{
    struct pollfd pf = {p->fd, POLLIN, 0};
    int pr = poll(&pf, 1, ms);
    if (pr <= 0)
        return pr == 0 || errno == EINTR;
    char chunk[8192];
    ssize_t got = read(p->fd, chunk, sizeof chunk);
    if (got < 0)
        return errno == EINTR || errno == EAGAIN;
    if (got == 0)
        return false;
    feed(p, chunk, (size_t)got);
    return true;
}

int mf_lc_proc_wait(mf_lc_proc *p)
{
    if (p->pid <= 0)
        return p->status;
    bool open = p->fd >= 0;
    for (;;) {
        if (open)
            open = drain(p, 100);
        else
            poll(NULL, 0, 100);
        pid_t w = waitpid(p->pid, &p->status, WNOHANG);
        if (w == p->pid || (w < 0 && errno != EINTR))
            break;
        if (p->tick)
            p->tick(p->ctx);
        double t = mf_lc_clock();
        bool end_now = false;
        if (!p->stopped && !p->timed_out) {
            if (p->stop && p->stop(p->ctx))
                p->stopped = end_now = true;
            else if (p->deadline > 0 && t > p->deadline)
                p->timed_out = end_now = true;
        }
        if (end_now) {
            if (p->grace > 0) {
                kill(-p->pid, SIGTERM);
                p->term_at = t;
            } else {
                kill(-p->pid, SIGKILL);
            }
        } else if (p->term_at > 0 && t - p->term_at > p->grace) {
            kill(-p->pid, SIGKILL);
            p->term_at = 0;
        }
    }
    kill(-p->pid, SIGKILL);   /* what is left of its group (engine workers, grandchildren) */
    if (p->fd >= 0) {
        double until = mf_lc_clock() + 2;
        while (open && mf_lc_clock() < until)
            open = drain(p, 100);
        close(p->fd);
        p->fd = -1;
    }
    if (p->on_line && p->part_len)
        emit_line(p, p->part, p->part_len);
    free(p->part);
    p->part = NULL;
    p->part_len = 0;
    if (p->logfd >= 0)
        close(p->logfd);
    p->logfd = -1;
    if (p->out)
        p->out[p->out_len] = '\0';
    guard_tell(p->pid, false);
    p->pid = 0;
    return p->status;
}

int mf_lc_proc_run(mf_lc_proc *p)
{
    if (mf_lc_proc_start(p) < 0)
        return -1;
    return mf_lc_proc_wait(p);
}

void mf_lc_proc_free(mf_lc_proc *p)
{
    free(p->out);
    p->out = NULL;
    p->out_len = 0;
}

void mf_lc_proc_guard(pid_t pgid)
{
    guard_ensure();
    guard_tell(pgid, true);
}

void mf_lc_proc_unguard(pid_t pgid)
{
    guard_tell(pgid, false);
}

int mf_lc_proc_exit_code(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

const char *mf_lc_proc_describe(int status, char *buf, size_t n)
{
    if (WIFEXITED(status))
        snprintf(buf, n, "exit %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, n, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
    else
        snprintf(buf, n, "status %#x", (unsigned)status);
    return buf;
}
