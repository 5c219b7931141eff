/* pl_worker.c - the malform side of the worker protocol (PROTOCOL.md).
 *
 * A worker is `/bin/sh -c "exec COMMAND"` in its own process group, with
 * PR_SET_PDEATHSIG so it dies with us and the lifecycle's guard (lc_proc.h)
 * holding its group so its own children do too, stdin/stdout/stderr on non-blocking
 * pipes. One poll() loop writes the request, drains stderr into a ring (the
 * tail goes into findings), reads the response line and checks the clock and
 * the worker's VmRSS. Any failure kills the whole group and reaps it; the
 * next request starts a fresh worker. core runs in-process. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "lc_json.h"
#include "lc_proc.h"
#include "pipeline.h"

#define MF_PL_MAX_LINE (16u * 1024u * 1024u)
#define MF_PL_ERR_TAIL 4096
#define MF_PL_POLL_MS 50

struct mf_pl_worker {
    const mf_pl_def *def;
    bool coverage;
    pid_t pid;
    int in_fd, out_fd, err_fd;
    char *obuf;
    size_t olen, ocap;
    char err[MF_PL_ERR_TAIL];
    size_t errpos;
    bool errwrapped;
    mf_pl_hello hello;
    long next_id;
    int starts;
    unsigned since_rss;
};

const char *mf_pl_fail_name(mf_pl_fail f)
{
    static const char *const names[] = {"ok", "crash", "timeout", "protocol", "oom", "error"};
    return f <= MF_PL_ERROR ? names[f] : "?";
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    case SIGTRAP: return "SIGTRAP";
    case SIGINT: return "SIGINT";
    default: return "signal";
    }
}

static long rss_kb(pid_t pid)
{
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *p = strstr(buf, "VmRSS:");
    return p ? strtol(p + 6, NULL, 10) : 0;
}

/* ---- stderr ring ---- */

static void err_put(mf_pl_worker *w, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        w->err[w->errpos++] = s[i];
        if (w->errpos == MF_PL_ERR_TAIL) {
            w->errpos = 0;
            w->errwrapped = true;
        }
    }
}

static void err_drain(mf_pl_worker *w)
{
    char buf[4096];
    ssize_t n;
    while (w->err_fd >= 0 && (n = read(w->err_fd, buf, sizeof buf)) > 0)
        err_put(w, buf, (size_t)n);
}

static char *err_tail(const mf_pl_worker *w)
{
    size_t n = w->errwrapped ? MF_PL_ERR_TAIL : w->errpos;
    char *s = malloc(n + 1);
    if (!s)
        return NULL;
    if (w->errwrapped) {
        memcpy(s, w->err + w->errpos, MF_PL_ERR_TAIL - w->errpos);
        memcpy(s + MF_PL_ERR_TAIL - w->errpos, w->err, w->errpos);
    } else {
        memcpy(s, w->err, n);
    }
    s[n] = '\0';
    return s;
}

/* ---- process ---- */

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* Kill the group, reap the worker; *status gets its wait status. */
static void kill_worker(mf_pl_worker *w, int *status)
{
    int st = 0;
    if (w->pid > 0) {
        kill(-w->pid, SIGKILL);
        kill(w->pid, SIGKILL);
        while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
            ;
        mf_lc_proc_unguard(w->pid);
    }
    if (status)
        *status = st;
    w->pid = -1;
    err_drain(w);
    close_fd(&w->in_fd);
    close_fd(&w->out_fd);
    close_fd(&w->err_fd);
    w->olen = 0;
}

/* After EOF on stdout: give the worker a moment to exit by itself, so its
 * own exit status (not our SIGKILL) is what the finding records. */
static void reap_dead(mf_pl_worker *w, int *status)
{
    for (int i = 0; i < 100 && w->pid > 0; i++) {
        pid_t r = waitpid(w->pid, status, WNOHANG);
        if (r == w->pid) {
            kill(-w->pid, SIGKILL);
            mf_lc_proc_unguard(w->pid);
            w->pid = -1;
            break;
        }
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    int st;
    if (w->pid > 0) {
        kill_worker(w, &st);
        *status = st;
    } else {
        kill_worker(w, NULL);
    }
}

static int spawn(mf_pl_worker *w, char *err, size_t n)
{
    int in[2], out[2], er[2];
    if (pipe2(in, O_CLOEXEC) < 0)
        goto fail0;
    if (pipe2(out, O_CLOEXEC) < 0)
        goto fail1;
    if (pipe2(er, O_CLOEXEC) < 0)
        goto fail2;
    size_t cl = strlen(w->def->command) + 8;
    char *cmd = malloc(cl);
    if (!cmd)
        goto fail3;
    snprintf(cmd, cl, "exec %s", w->def->command);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        free(cmd);
        goto fail3;
    }
    if (pid == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(er[1], 2);
        signal(SIGPIPE, SIG_DFL);
        if (chdir(w->def->workdir) < 0) {
            fprintf(stderr, "malform: cannot enter %s: %s\n", w->def->workdir, strerror(errno));
            _exit(127);
        }
        if (w->coverage)
            setenv("MALFORM_COVERAGE", "1", 1);
        else
            unsetenv("MALFORM_COVERAGE");
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    free(cmd);
    setpgid(pid, pid);
    mf_lc_proc_guard(pid);   /* the worker's own children die with malform too, even on SIGKILL */
    close(in[0]);
    close(out[1]);
    close(er[1]);
    w->pid = pid;
    w->in_fd = in[1];
    w->out_fd = out[0];
    w->err_fd = er[0];
    fcntl(w->in_fd, F_SETFL, O_NONBLOCK);
    fcntl(w->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(w->err_fd, F_SETFL, O_NONBLOCK);
    w->olen = 0;
    w->errpos = 0;
    w->errwrapped = false;
    w->starts++;
    return 0;
fail3:
    close(er[0]);
    close(er[1]);
fail2:
    close(out[0]);
    close(out[1]);
fail1:
    close(in[0]);
    close(in[1]);
fail0:
    snprintf(err, n, "cannot start %s: %s", w->def->name, strerror(errno));
    return -1;
}

/* ---- one exchange: write req (may be NULL), read one line ---- */

typedef struct {
    mf_pl_fail fail;
    char what[160];
    char message[512];
} io_status;

static void io_fail(io_status *s, mf_pl_fail f, const char *what, const char *fmt, const char *arg)
{
    s->fail = f;
    snprintf(s->what, sizeof s->what, "%s", what);
    snprintf(s->message, sizeof s->message, fmt, arg);
}

static void died(mf_pl_worker *w, io_status *s)
{
    int st = 0;
    reap_dead(w, &st);
    char what[64];
    if (WIFSIGNALED(st))
        snprintf(what, sizeof what, "%s", signal_name(WTERMSIG(st)));
    else
        snprintf(what, sizeof what, "exit %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    io_fail(s, MF_PL_CRASH, what, "worker died (%s)", what);
}

static bool take_line(mf_pl_worker *w, char **line, size_t *len)
{
    char *nl = w->olen ? memchr(w->obuf, '\n', w->olen) : NULL;
    if (!nl)
        return false;
    *len = (size_t)(nl - w->obuf);
    *line = malloc(*len + 1);
    if (*line) {
        memcpy(*line, w->obuf, *len);
        (*line)[*len] = '\0';
    }
    memmove(w->obuf, nl + 1, w->olen - *len - 1);
    w->olen -= *len + 1;
    return true;
}

/* Requests still to write: exchange() writes as much as the pipe takes while
 * it waits for the next response line (so pipelined requests never block). */
typedef struct {
    const char *data;
    size_t len, sent;
} outbuf;

static int exchange(mf_pl_worker *w, outbuf *ob, int timeout_ms, char **line, size_t *len, io_status *s)
{
    double deadline = now_ms() + timeout_ms, rss_at = now_ms() + MF_PL_POLL_MS;
    *line = NULL;
    for (;;) {
        if (take_line(w, line, len))
            return *line ? 0 : (io_fail(s, MF_PL_PROTOCOL, "out-of-memory", "%s", "response too large for memory"), -1);
        if (w->olen > MF_PL_MAX_LINE) {
            io_fail(s, MF_PL_PROTOCOL, "oversized", "response line longer than %s", "16 MiB");
            return -1;
        }
        double left = deadline - now_ms();
        if (left <= 0) {
            io_fail(s, MF_PL_TIMEOUT, "timeout", "no response within %s", "the timeout");
            snprintf(s->message, sizeof s->message, "no response within %d ms", timeout_ms);
            return -1;
        }
        struct pollfd p[3] = {{w->out_fd, POLLIN, 0}, {w->err_fd, POLLIN, 0}, {w->in_fd, POLLOUT, 0}};
        nfds_t np = ob && ob->sent < ob->len ? 3 : 2;
        int r = poll(p, np, left < MF_PL_POLL_MS ? (int)left + 1 : MF_PL_POLL_MS);
        if (r < 0 && errno != EINTR) {
            io_fail(s, MF_PL_ERROR, "poll", "poll: %s", strerror(errno));
            return -1;
        }
        if (w->def->rss_limit_kb && now_ms() >= rss_at) {
            rss_at = now_ms() + MF_PL_POLL_MS;
            long rss = rss_kb(w->pid);
            if (rss > w->def->rss_limit_kb) {
                char m[64];
                snprintf(m, sizeof m, "%ld MiB", rss / 1024);
                io_fail(s, MF_PL_OOM, "oom", "resident memory %s over the limit", m);
                return -1;
            }
        }
        if (p[1].revents)
            err_drain(w);
        if (np == 3 && (p[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t k = write(w->in_fd, ob->data + ob->sent, ob->len - ob->sent);
            if (k > 0)
                ob->sent += (size_t)k;
            else if (k < 0 && errno != EAGAIN && errno != EINTR) {
                died(w, s);
                return -1;
            }
        }
        if (p[0].revents) {
            if (w->ocap - w->olen < 65536) {
                size_t cap = w->ocap ? w->ocap * 2 : 131072;
                char *t = realloc(w->obuf, cap);
                if (!t) {
                    io_fail(s, MF_PL_PROTOCOL, "out-of-memory", "%s", "response too large for memory");
                    return -1;
                }
                w->obuf = t;
                w->ocap = cap;
            }
            ssize_t k = read(w->out_fd, w->obuf + w->olen, w->ocap - w->olen);
            if (k > 0)
                w->olen += (size_t)k;
            else if (k == 0 || (errno != EAGAIN && errno != EINTR)) {
                died(w, s);
                return -1;
            }
        }
    }
}

/* ---- handshake ---- */

static void hello_free(mf_pl_hello *h)
{
    free(h->name);
    free(h->version);
    json_decref(h->profiles);
    memset(h, 0, sizeof *h);
}

static int parse_hello(mf_pl_worker *w, const char *line, size_t len, char *err, size_t n)
{
    json_error_t je;
    json_t *o = json_loadb(line, len, 0, &je);
    json_t *ver = json_object_get(o, "malform_pipeline");
    int rc = -1;
    if (!json_is_object(o))
        snprintf(err, n, "%s: handshake is not a JSON object: %.120s", w->def->name, line);
    else if (!json_is_integer(ver) || json_integer_value(ver) != MF_PL_PROTOCOL_VERSION)
        snprintf(err, n, "%s: handshake speaks malform_pipeline %s, malform speaks %d", w->def->name,
                 json_is_integer(ver) ? "another version" : "(missing)", MF_PL_PROTOCOL_VERSION);
    else {
        hello_free(&w->hello);
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *version = json_string_value(json_object_get(o, "version"));
        w->hello.name = strdup(name ? name : w->def->name);
        w->hello.version = strdup(version ? version : "?");
        const json_t *f = json_object_get(o, "formats");
        for (size_t i = 0; json_is_array(f) && i < json_array_size(f); i++) {
            const char *s = json_string_value(json_array_get(f, i));
            w->hello.formats |= s && !strcmp(s, "json") ? MF_PL_JSON : s && !strcmp(s, "yaml") ? MF_PL_YAML : 0;
        }
        json_t *p = json_object_get(o, "profiles");
        w->hello.profiles = json_is_array(p) ? json_incref(p) : json_pack("[s]", "*");
        w->hello.warnings = json_is_true(json_object_get(o, "warnings"));
        w->hello.coverage = json_is_true(json_object_get(o, "coverage"));
        if (!w->hello.formats)
            snprintf(err, n, "%s: handshake lists no format (json, yaml)", w->def->name);
        else
            rc = 0;
    }
    json_decref(o);
    return rc;
}

static int start_process(mf_pl_worker *w, char *err, size_t n)
{
    if (spawn(w, err, n) < 0)
        return -1;
    char *line;
    size_t len;
    io_status s = {0};
    if (exchange(w, NULL, w->def->start_timeout_ms, &line, &len, &s) < 0) {
        if (w->pid > 0)
            kill_worker(w, NULL);
        char *tail = err_tail(w);
        snprintf(err, n, "%s: no handshake: %s%s%.300s", w->def->name, s.message, tail && *tail ? "; stderr: " : "",
                 tail ? tail : "");
        free(tail);
        return -1;
    }
    int rc = parse_hello(w, line, len, err, n);
    free(line);
    if (rc < 0)
        kill_worker(w, NULL);
    return rc;
}

mf_pl_worker *mf_pl_start(const mf_pl_def *d, bool coverage, char *err, size_t n)
{
    mf_pl_worker *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, n, "out of memory");
        return NULL;
    }
    w->def = d;
    w->coverage = coverage;
    w->pid = -1;
    w->in_fd = w->out_fd = w->err_fd = -1;
    if (d->builtin) {
        w->hello.name = strdup(MF_PL_CORE);
        w->hello.version = strdup(MF_VERSION);
        w->hello.formats = MF_PL_YAML | MF_PL_JSON;
        w->hello.profiles = json_pack("[s]", "*");
        w->hello.warnings = true;
        return w;
    }
    signal(SIGPIPE, SIG_IGN);
    if (start_process(w, err, n) < 0) {
        mf_pl_stop(w);
        return NULL;
    }
    return w;
}

const mf_pl_hello *mf_pl_hello_of(const mf_pl_worker *w)
{
    return &w->hello;
}

bool mf_pl_is_core(const mf_pl_worker *w)
{
    return w->def->builtin;
}

int mf_pl_starts(const mf_pl_worker *w)
{
    return w->starts;
}

void mf_pl_stop(mf_pl_worker *w)
{
    if (!w)
        return;
    if (w->pid > 0) {
        close_fd(&w->in_fd);
        kill_worker(w, NULL);
    }
    free(w->obuf);
    hello_free(&w->hello);
    free(w);
}

static bool profile_listed(const json_t *profiles, const char *name)
{
    for (size_t i = 0; i < json_array_size(profiles); i++) {
        const char *s = json_string_value(json_array_get(profiles, i));
        if (s && !strcmp(s, name))
            return true;
    }
    return false;
}

bool mf_pl_knows_profile(const mf_pl_worker *w, const mf_profile *p)
{
    return p && (w->def->builtin || profile_listed(w->hello.profiles, p->name));
}

bool mf_pl_handles(const mf_pl_worker *w, const mf_profile *p)
{
    if (!p)
        return true;
    if (!(w->hello.formats & (1u << p->format)))
        return false;
    return profile_listed(w->hello.profiles, "*") || profile_listed(w->hello.profiles, p->name);
}

void mf_pl_reply_free(mf_pl_reply *r)
{
    mf_result_free(r->result);
    free(r->stderr_tail);
    free(r->coverage);
    memset(r, 0, sizeof *r);
}

void mf_pl_signature(const mf_pl_reply *r, const char *pipeline, char *out, size_t n)
{
    if (r->fail == MF_PL_CRASH || r->fail == MF_PL_PROTOCOL)
        snprintf(out, n, "%s %s pipeline=%s", mf_pl_fail_name(r->fail), r->what, pipeline);
    else
        snprintf(out, n, "%s pipeline=%s", mf_pl_fail_name(r->fail), pipeline);
}

/* ---- response -> mf_result ---- */

static const char *generic_name(const mf_profile *p, const char *input, size_t len)
{
    if (p)
        return p->name;
    size_t i = 0;
    while (i < len && (input[i] == ' ' || input[i] == '\n' || input[i] == '\t' || input[i] == '\r'))
        i++;
    return i < len && (input[i] == '{' || input[i] == '[') ? "generic_json" : "generic_yaml";
}

static void first_line(char *s)
{
    for (; *s; s++)
        if (*s == '\n' || *s == '\r')
            *s = ' ';
}

static int to_result(const json_t *o, const char *profile, mf_pl_reply *r)
{
    const char *status = json_string_value(json_object_get(o, "status"));
    mf_result *res = calloc(1, sizeof *res);
    if (!res)
        return -1;
    res->profile = mf_pl_intern(profile);
    res->status = !strcmp(status, "accepted") ? MF_ACCEPTED : MF_REJECTED;
    const json_t *ws = json_object_get(o, "warnings");
    for (size_t i = 0; json_is_array(ws) && i < json_array_size(ws); i++) {
        const json_t *wj = json_array_get(ws, i);
        const char *rule = json_string_value(json_object_get(wj, "rule"));
        const char *msg = json_string_value(json_object_get(wj, "message"));
        json_t *line = json_object_get(wj, "line");
        char id[128];
        snprintf(id, sizeof id, "%s", rule ? rule : "");
        mf_warnings_add(&res->warnings, rule ? mf_pl_intern(id) : NULL,
                        json_is_integer(line) ? (int)json_integer_value(line) : 0, "%s", msg ? msg : "");
    }
    if (res->status == MF_ACCEPTED) {
        res->value = json_incref(json_object_get(o, "value"));
        if (!res->value)
            res->value = json_null();
    } else {
        const json_t *e = json_object_get(o, "error");
        const char *type = json_string_value(json_object_get(e, "type"));
        const char *msg = json_is_string(e) ? json_string_value(e) : json_string_value(json_object_get(e, "message"));
        json_t *line = json_object_get(e, "line");
        char t[96];
        snprintf(t, sizeof t, "%s", type ? type : "REJECTED");
        mf_error_set(&res->error, 1, mf_pl_intern(t), "", json_is_integer(line) ? (int)json_integer_value(line) : 0, 0,
                     "%.1000s", msg ? msg : "");
    }
    res->repair_applied = res->warnings.count > 0;
    res->candidate = strdup(res->warnings.count ? "worker" : "raw");
    r->result = res;
    return 0;
}

static void take_coverage(const json_t *o, mf_pl_reply *r)
{
    const json_t *c = json_object_get(o, "coverage");
    size_t n = json_is_array(c) ? json_array_size(c) : 0;
    if (!n || !(r->coverage = malloc(n * sizeof *r->coverage)))
        return;
    for (size_t i = 0; i < n; i++)
        r->coverage[r->ncoverage++] = (uint32_t)json_integer_value(json_array_get(c, i));
}

/* Judge a response line: 0 with r filled, or -1 with a protocol failure in s. */
static int judge(const char *line, size_t len, long id, const char *profile, mf_pl_reply *r, io_status *s)
{
    json_t *o = json_loadb(line, len, 0, NULL);
    const char *status = json_string_value(json_object_get(o, "status"));
    json_t *jid = json_object_get(o, "id");
    int rc = -1;
    if (!json_is_object(o))
        io_fail(s, MF_PL_PROTOCOL, "garbage", "response is not a JSON object: %.200s", line);
    else if (!json_is_integer(jid) || json_integer_value(jid) != id) {
        char m[64];
        snprintf(m, sizeof m, "%ld", id);
        io_fail(s, MF_PL_PROTOCOL, "wrong-id", "response id is not the request's (%s)", m);
    } else if (!status || (strcmp(status, "accepted") && strcmp(status, "rejected") && strcmp(status, "crashed")))
        io_fail(s, MF_PL_PROTOCOL, "bad-status", "response status is %s", status ? status : "(missing)");
    else if (!strcmp(status, "crashed")) {
        const json_t *e = json_object_get(o, "error");
        const char *type = json_string_value(json_object_get(e, "type"));
        const char *msg = json_is_string(e) ? json_string_value(e) : json_string_value(json_object_get(e, "message"));
        s->fail = MF_PL_CRASH;
        snprintf(s->what, sizeof s->what, "exception %.60s", type ? type : "?");
        snprintf(s->message, sizeof s->message, "uncaught %s: %.400s", type ? type : "exception", msg ? msg : "");
        first_line(s->message);
        rc = 1;
    } else if (to_result(o, profile, r) < 0)
        io_fail(s, MF_PL_PROTOCOL, "out-of-memory", "%s", "cannot hold the response");
    else {
        take_coverage(o, r);
        rc = 0;
    }
    json_decref(o);
    return rc;
}

static char *request_line(long id, const char *profile, const char *format, const char *input, size_t len,
                          const json_t *options, size_t *out_len)
{
    size_t cl;
    char *clean = mf_pl_utf8_clean(input, len, &cl);
    if (!clean)
        return NULL;
    json_t *req = json_object();
    json_object_set_new(req, "id", json_integer(id));
    json_object_set_new(req, "profile", json_string(profile));
    json_object_set_new(req, "format", json_string(format));
    json_object_set_new(req, "input", json_stringn(clean, cl));
    if (options)
        json_object_set(req, "options", (json_t *)options);
    free(clean);
    char *line = mf_lc_json_line(req, JSON_COMPACT, out_len);
    json_decref(req);
    return line;
}

static mf_pl_fail core_request(const mf_profile *profile, const char *input, size_t len, const json_t *options,
                               mf_pl_reply *r)
{
    mf_options opt;
    mf_options_from_json(options, &opt);
    r->result = mf_repair(profile, input, len, &opt);
    if (!r->result) {
        r->fail = MF_PL_ERROR;
        snprintf(r->message, sizeof r->message, "mf_repair: out of memory");
    }
    return r->fail;
}

/* Fail reply r with s; kill the worker unless it survived (an answered exception). */
static void fail_reply(mf_pl_worker *w, mf_pl_reply *r, const io_status *s, bool worker_alive)
{
    mf_result_free(r->result);
    r->result = NULL;
    r->fail = s->fail;
    snprintf(r->what, sizeof r->what, "%s", s->what);
    snprintf(r->message, sizeof r->message, "%s", s->message);
    err_drain(w);
    if (!worker_alive && w->pid > 0)
        kill_worker(w, NULL);
    r->stderr_tail = err_tail(w);
    w->errpos = 0;
    w->errwrapped = false;
}

/* Answer inputs [from, n) in one pipelined batch; returns the index after the
 * last reply filled (a failed worker ends the batch early). */
static size_t batch(mf_pl_worker *w, const mf_pl_input *in, size_t from, size_t n, mf_pl_reply *replies)
{
    char err[512];
    if (w->pid <= 0 && start_process(w, err, sizeof err) < 0) {
        replies[from].fail = MF_PL_ERROR;
        snprintf(replies[from].message, sizeof replies[from].message, "%s", err);
        replies[from].stderr_tail = strdup("");
        return n;
    }
    char *buf = NULL;
    size_t blen = 0;
    FILE *f = open_memstream(&buf, &blen);
    long first = w->next_id + 1;
    const char **pnames = calloc(n - from, sizeof *pnames);
    for (size_t i = from; f && pnames && i < n; i++) {
        pnames[i - from] = generic_name(in[i].profile, in[i].text, in[i].len);
        const mf_profile *gp = mf_profiles_get(pnames[i - from]);
        size_t l;
        char *req = request_line(++w->next_id, pnames[i - from], gp && gp->format == MF_FORMAT_YAML ? "yaml" : "json",
                                 in[i].text, in[i].len, in[i].options, &l);
        if (req)
            fwrite(req, 1, l, f);
        free(req);
    }
    if (!f || fclose(f) != 0 || !pnames) {
        free(buf);
        free(pnames);
        replies[from].fail = MF_PL_ERROR;
        snprintf(replies[from].message, sizeof replies[from].message, "out of memory building the requests");
        return n;
    }
    outbuf ob = {buf, blen, 0};
    size_t i = from;
    for (; i < n; i++) {
        char *line = NULL;
        size_t linelen;
        io_status s = {0};
        mf_pl_reply *r = &replies[i];
        int rc = exchange(w, &ob, w->def->timeout_ms, &line, &linelen, &s);
        if (rc == 0)
            rc = judge(line, linelen, first + (long)(i - from), pnames[i - from], r, &s);
        if (rc == 0 && w->def->rss_limit_kb && ++w->since_rss >= 8) {
            w->since_rss = 0;
            if (rss_kb(w->pid) > w->def->rss_limit_kb) {
                io_fail(&s, MF_PL_OOM, "oom", "resident memory over the limit after %s", "a response");
                rc = -1;
            }
        }
        free(line);
        if (rc != 0)
            fail_reply(w, r, &s, rc > 0);
        if (rc < 0) {
            i++;
            break;
        }
    }
    free(buf);
    free(pnames);
    return i;
}

void mf_pl_request_many(mf_pl_worker *w, const mf_pl_input *in, size_t n, mf_pl_reply *replies)
{
    memset(replies, 0, n * sizeof *replies);
    if (w->def->builtin) {
        for (size_t i = 0; i < n; i++)
            core_request(in[i].profile, in[i].text, in[i].len, in[i].options, &replies[i]);
        return;
    }
    for (size_t from = 0; from < n;)
        from = batch(w, in, from, n, replies);
}

mf_pl_fail mf_pl_request(mf_pl_worker *w, const mf_profile *profile, const char *input, size_t len,
                         const json_t *options, mf_pl_reply *r)
{
    mf_pl_input in = {profile, input, len, options};
    mf_pl_request_many(w, &in, 1, r);
    return r->fail;
}
