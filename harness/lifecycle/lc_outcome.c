/* lc_outcome.c - what a run of one input told us, and its signature.
 *
 * A child either passes (exit 0, no report), or leaves one of these behind
 * in its output: an oracle line `malform-oracle: <oracle> profile=<p>
 * ops=<ids> rules=<ids>: <detail>` (the oracle then aborts); a sanitizer
 * report (`ERROR: AddressSanitizer: <kind>`, `runtime error:` from UBSan,
 * `ERROR: LeakSanitizer`), or libFuzzer's own `deadly signal`, `timeout`,
 * `out-of-memory`; or just a fatal signal. The signature names the failure
 * so that the same bug found twice is recognised:
 *
 *   oracle <oracle> profile=<p> rules=<r,...> ops=<o,...>
 *   crash <kind> <frame1> < <frame2> < <frame3>
 *   timeout|oom|leak <frames or ->
 *
 * Frames are function names of the first stack in the report, skipping the
 * sanitizer runtime, libFuzzer and libc (the "project frames"); without a
 * symbolized stack the DEDUP_TOKEN line (ASAN_OPTIONS=dedup_token_length=3)
 * is used. Line numbers are left out so that unrelated edits keep the
 * signature stable. Op and rule ids are sorted, so op order does not split
 * one bug into several signatures. */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "lifecycle.h"
#include "signature.h"

static const char *kind_names[] = {"pass", "oracle", "crash", "timeout", "oom", "leak", "error"};

const char *mf_lc_kind_name(mf_lc_kind k)
{
    return (unsigned)k < sizeof kind_names / sizeof *kind_names ? kind_names[k] : "error";
}

int mf_lc_kind_parse(const char *s)
{
    for (size_t i = 0; s && i < sizeof kind_names / sizeof *kind_names; i++)
        if (!strcmp(s, kind_names[i]))
            return (int)i;
    return -1;
}

static const char *find_in(const char *log, size_t len, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = 0; n <= len && i <= len - n; i++)
        if (log[i] == needle[0] && memcmp(log + i, needle, n) == 0)
            return log + i;
    return NULL;
}

static size_t line_len(const char *s, const char *end)
{
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    return (size_t)((nl ? nl : end) - s);
}

/* `malform-oracle: <oracle> profile=<p> ops=<ids> rules=<ids>: <detail>` */
static bool parse_oracle(const char *log, size_t len, mf_lc_outcome *o)
{
    const char *p = find_in(log, len, "malform-oracle: ");
    if (!p)
        return false;
    p += strlen("malform-oracle: ");
    mf_sig_oracle f;
    mf_sig_parse_oracle(p, line_len(p, log + len), &f);
    snprintf(o->oracle, sizeof o->oracle, "%s", f.oracle);
    snprintf(o->profile, sizeof o->profile, "%s", f.profile);
    snprintf(o->ops, sizeof o->ops, "%s", f.ops);
    snprintf(o->rules, sizeof o->rules, "%s", f.rules);
    snprintf(o->detail, sizeof o->detail, "%s", f.detail);
    mf_sig_oracle_format(&f, o->sig, sizeof o->sig);
    o->kind = MF_LC_ORACLE;
    return true;
}

/* Frames that belong to the sanitizer runtime, libFuzzer or libc. */
static bool runtime_frame(const char *fn, const char *where)
{
    static const char *prefixes[] = {"__", "fuzzer::", "std::", "_start", "libc_start", "raise", "abort",
                                     "gsignal", "malloc", "calloc", "realloc", "free", "mem", "str",
                                     "operator ", "LLVMFuzzerRunDriver", "main", "_dl_", "backtrace", NULL};
    for (int i = 0; prefixes[i]; i++)
        if (!strncmp(fn, prefixes[i], strlen(prefixes[i])))
            return !(strstr(where, "/core/") || strstr(where, "/mutators/") || strstr(where, "/oracles/") ||
                     strstr(where, "/harness/")) || !strcmp(prefixes[i], "__");
    return strstr(where, "compiler-rt") || strstr(where, "libFuzzer") || strstr(where, "/libc.so") ||
           strstr(where, "libc-start") || strstr(where, "sysdeps/");
}

/* First symbolized stack ("    #N 0x... in FUNC WHERE"): up to 3 project
 * frames into o->frames. Returns how many were found. */
static int parse_frames(const char *log, size_t len, const char *from, mf_lc_outcome *o)
{
    const char *end = log + len, *p = from ? from : log;
    int found = 0, started = 0;
    o->frames[0] = '\0';
    while (p < end && found < 3) {
        size_t n = line_len(p, end);
        const char *q = p;
        while (q < p + n && (*q == ' ' || *q == '\t'))
            q++;
        if (q < p + n && *q == '#' && q + 1 < p + n && isdigit((unsigned char)q[1])) {
            if (started && q[1] == '0' && (q + 2 >= p + n || q[2] == ' '))
                break;   /* a second stack starts: stop at the first one */
            started = 1;
            char line[1024];
            mf_sig_copy_line(line, sizeof line, q, n - (size_t)(q - p));
            char *in = strstr(line, " in ");
            if (in) {
                char fn[200], *f = in + 4, *sp = strchr(f, ' ');
                const char *where = sp ? sp + 1 : "";
                size_t fl = sp ? (size_t)(sp - f) : strlen(f);
                mf_sig_copy_line(fn, sizeof fn, f, fl < sizeof fn ? fl : sizeof fn - 1);
                char *paren = strchr(fn, '(');
                if (paren && paren != fn)
                    *paren = '\0';
                if (!runtime_frame(fn, where)) {
                    size_t cur = strlen(o->frames);
                    snprintf(o->frames + cur, sizeof o->frames - cur, "%s%.150s", found ? " < " : "", fn);
                    found++;
                }
            }
        } else if (started && n == 0) {
            break;
        }
        p += n + 1;
    }
    if (found)
        return found;
    const char *d = from ? find_in(from, (size_t)(end - from), "DEDUP_TOKEN: ") : NULL;
    if (!d)
        d = find_in(log, len, "DEDUP_TOKEN: ");
    if (d) {
        d += strlen("DEDUP_TOKEN: ");
        char tok[600];
        mf_sig_copy_line(tok, sizeof tok, d, line_len(d, end));
        size_t j = 0;
        for (char *s = tok; *s && j + 4 < sizeof o->frames; s++) {
            if (s[0] == '-' && s[1] == '-') {
                j += (size_t)snprintf(o->frames + j, sizeof o->frames - j, " < ");
                s++;
            } else {
                o->frames[j++] = *s;
            }
        }
        o->frames[j] = '\0';
        return 1;
    }
    return 0;
}

/* The sanitizer's own error kind: "heap-buffer-overflow", "SEGV", ... */
static void word_after(const char *p, const char *end, char *out, size_t cap)
{
    size_t n = 0;
    while (p + n < end && p[n] != ' ' && p[n] != '\n' && p[n] != '(' && p[n] != ':')
        n++;
    mf_sig_copy_line(out, cap, p, n < cap ? n : cap - 1);
}

static void set_sig(mf_lc_outcome *o)
{
    const char *fr = o->frames[0] ? o->frames : "-";
    switch (o->kind) {
    case MF_LC_PASS:
    case MF_LC_ERROR:
        o->sig[0] = '\0';
        break;
    case MF_LC_ORACLE:
        break; /* parse_oracle wrote it */
    case MF_LC_CRASH:
        snprintf(o->sig, sizeof o->sig, "crash %s %s", o->crash[0] ? o->crash : "unknown", fr);
        break;
    default:
        snprintf(o->sig, sizeof o->sig, "%s %s", mf_lc_kind_name(o->kind), fr);
        break;
    }
}

void mf_lc_classify(const char *log, size_t len, int wstatus, bool timed_out, mf_lc_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->wstatus = wstatus;
    if (!log)
        len = 0, log = "";
    const char *end = log + len, *p;
    if (parse_oracle(log, len, o))
        return;
    if (timed_out || (p = find_in(log, len, "ERROR: libFuzzer: timeout")) != NULL) {
        o->kind = MF_LC_TIMEOUT;
        snprintf(o->crash, sizeof o->crash, "timeout");
        snprintf(o->detail, sizeof o->detail, "%s", timed_out ? "killed by the triage timeout" : "libFuzzer timeout");
        parse_frames(log, len, timed_out ? NULL : p, o);
    } else if ((p = find_in(log, len, "ERROR: libFuzzer: out-of-memory")) != NULL ||
               (p = find_in(log, len, "allocation-size-too-big")) != NULL ||
               (p = find_in(log, len, "ERROR: AddressSanitizer: out of memory")) != NULL) {
        o->kind = MF_LC_OOM;
        snprintf(o->crash, sizeof o->crash, "oom");
        mf_sig_copy_line(o->detail, sizeof o->detail, p, line_len(p, end));
        parse_frames(log, len, p, o);
    } else if ((p = find_in(log, len, "ERROR: LeakSanitizer")) != NULL) {
        o->kind = MF_LC_LEAK;
        snprintf(o->crash, sizeof o->crash, "leak");
        mf_sig_copy_line(o->detail, sizeof o->detail, p, line_len(p, end));
        parse_frames(log, len, p, o);
    } else if ((p = find_in(log, len, "ERROR: AddressSanitizer: ")) != NULL) {
        o->kind = MF_LC_CRASH;
        word_after(p + strlen("ERROR: AddressSanitizer: "), end, o->crash, sizeof o->crash);
        mf_sig_copy_line(o->detail, sizeof o->detail, p, line_len(p, end));
        parse_frames(log, len, p, o);
    } else if ((p = find_in(log, len, ": runtime error: ")) != NULL) {
        /* UBSan: the kind is the message up to its first ':' or digit. */
        o->kind = MF_LC_CRASH;
        const char *m = p + strlen(": runtime error: ");
        size_t n = 0;
        while (m + n < end && m[n] != '\n' && m[n] != ':' && m[n] != '\'' && !isdigit((unsigned char)m[n]) && n < 40)
            n++;
        while (n && m[n - 1] == ' ')
            n--;
        char k[48];
        mf_sig_copy_line(k, sizeof k, m, n);
        for (char *s = k; *s; s++)
            if (*s == ' ')
                *s = '-';
        snprintf(o->crash, sizeof o->crash, "ubsan-%s", k);
        const char *ls = p;
        while (ls > log && ls[-1] != '\n')
            ls--;
        mf_sig_copy_line(o->detail, sizeof o->detail, ls, line_len(ls, end));
        if (!parse_frames(log, len, p, o)) {
            /* No stack: the source location ("file.c:12:5") stands in. */
            const char *slash = ls;
            for (const char *s = ls; s < p; s++)
                if (*s == '/')
                    slash = s + 1;
            size_t fl = 0;
            while (slash + fl < p && slash[fl] != ':')
                fl++;
            mf_sig_copy_line(o->frames, sizeof o->frames, slash, fl);
        }
    } else if ((p = find_in(log, len, "ERROR: libFuzzer: deadly signal")) != NULL ||
               (WIFSIGNALED(wstatus))) {
        o->kind = MF_LC_CRASH;
        int sig = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
        if (p || !sig)
            snprintf(o->crash, sizeof o->crash, "deadly-signal");
        else
            snprintf(o->crash, sizeof o->crash, "SIG%s", sig == SIGSEGV ? "SEGV" : sig == SIGABRT ? "ABRT"
                     : sig == SIGBUS ? "BUS" : sig == SIGFPE ? "FPE" : sig == SIGILL ? "ILL"
                     : sig == SIGKILL ? "KILL" : "OTHER");
        const char *a = find_in(log, len, "Assertion");
        if (a)
            mf_sig_copy_line(o->detail, sizeof o->detail, a, line_len(a, end));
        else
            snprintf(o->detail, sizeof o->detail, "%s", p ? "libFuzzer: deadly signal" : o->crash);
        parse_frames(log, len, p, o);
    } else if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0) {
        o->kind = MF_LC_PASS;
    } else {
        o->kind = MF_LC_ERROR;
        p = log + len;
        while (p > log && (p[-1] == '\n' || p[-1] == ' '))
            p--;
        const char *ls = p;
        while (ls > log && ls[-1] != '\n')
            ls--;
        char last[400];
        mf_sig_copy_line(last, sizeof last, ls, (size_t)(p - ls));
        snprintf(o->detail, sizeof o->detail, "exit status %d without a report%s%s",
                 WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, last[0] ? ": " : "", last);
    }
    set_sig(o);
}

bool mf_lc_same(const mf_lc_outcome *a, const mf_lc_outcome *b)
{
    return a->sig[0] && !strcmp(a->sig, b->sig);
}

/* Is every comma-separated id of sub also in super? */
static bool ids_subset(const char *sub, const char *super)
{
    if (!strcmp(sub, "-"))
        return true;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", sub);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        size_t n = strlen(t);
        const char *s = super;
        bool hit = false;
        while ((s = strstr(s, t)) != NULL) {
            if ((s == super || s[-1] == ',') && (s[n] == ',' || s[n] == '\0')) {
                hit = true;
                break;
            }
            s += n;
        }
        if (!hit)
            return false;
    }
    return true;
}

bool mf_lc_still_fails(const mf_lc_outcome *orig, const mf_lc_outcome *cur)
{
    if (cur->kind != orig->kind)
        return false;
    switch (orig->kind) {
    case MF_LC_ORACLE:
        return !strcmp(cur->oracle, orig->oracle) && !strcmp(cur->profile, orig->profile) &&
               ids_subset(cur->rules, orig->rules);
    case MF_LC_TIMEOUT:
    case MF_LC_OOM:
        return true;
    case MF_LC_PASS:
    case MF_LC_ERROR:
        return false;
    default:
        return !strcmp(cur->sig, orig->sig);
    }
}

void mf_lc_slug(const char *sig, char *out, size_t n)
{
    mf_sig_slug(sig, out, n);
}
