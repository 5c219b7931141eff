/* lc_nightly.c - the nightly campaign (`malform nightly`), from build to
 * report; every line it reports goes through the caller's say().
 *
 * Phases, each recorded in WORKDIR/nightly.json as it finishes (the file is
 * rewritten atomically, so a report can be made from it at any moment):
 *   build   cmake --preset fuzz / afl and build, for the engines asked for
 *           and installed (an engine that cannot build is skipped, and said);
 *   fuzz    the budget, minus the build time and a reserve for the phases
 *           after it, split evenly over engine x target slots; each slot is
 *           `malform fuzz` (libFuzzer -fork, AFL++ -M/-S) into
 *           WORKDIR/runs/<engine>-<target>, on a copy of the persistent
 *           corpus WORKDIR/corpus/<target> (the directory CI caches; the
 *           raw target also gets corpus/field, each naming its profile);
 *   merge   the old corpus plus what every run found, minimized with
 *           libFuzzer -merge=1 (or afl-cmin, or a content-hash union) into a
 *           fresh directory that replaces the old one with two renames; an
 *           interrupted swap is repaired at the next start;
 *   triage  mf_lc_triage over WORKDIR/runs into corpus/regression;
 *   report  nightly.json, nightly.xml (JUnit: one test case per signature
 *           and per oracle), and `malform report WORKDIR -o WORKDIR/report`.
 * SIGINT/SIGTERM stop the running child (its process group), skip what is
 * left except the reports, and exit 130/143; free space below --min-free-mb
 * stops the run the same way (exit 3). Either way the corpus is the old
 * one or the new one, never a mix, and the partial report says what was
 * cut. Exit 1 when a new reproducible signature appeared, else 0. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>
#include "malform/malform.h"
#include "lc_corpus.h"
#include "lc_engine.h"
#include "lc_junit.h"
#include "lc_nightly.h"
#include "lc_proc.h"
#include "lc_stats.h"
#include "lifecycle.h"
#ifdef HAVE_MALFORM_HARNESS
#include "raw_input.h"
#endif

static volatile sig_atomic_t got_signal;

/* [{rule, reason}] for every registered rule that fired 0 times in the runs;
 * the reason is the "not built" column of ROOT/mutators/rule_reach.tsv. */
static json_t *rules_not_fired(const char *root, const json_t *fired)
{
    json_t *reasons = json_object(), *out = json_array();
    char path[PATH_MAX + 64], *tsv = NULL;
    size_t len;
    if (mf_lc_pathf(path, sizeof path, "%s/mutators/rule_reach.tsv", root) == 0)
        tsv = mf_lc_read(path, &len);
    for (char *save = NULL, *l = tsv ? strtok_r(tsv, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
        char *f[4] = {l, NULL, NULL, NULL};
        for (int i = 1; i < 4 && f[i - 1]; i++)
            if ((f[i] = strchr(f[i - 1], '\t')) != NULL)
                *f[i]++ = '\0';
        if (l[0] != '#' && f[3])
            json_object_set_new(reasons, f[0], json_string(f[3]));
    }
    free(tsv);
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const char *id = mf_rules_at(i)->id;
        if (json_integer_value(json_object_get(fired, id)) > 0)
            continue;
        const char *why = json_string_value(json_object_get(reasons, id));
        json_array_append_new(out, json_pack("{s:s, s:s}", "rule", id, "reason",
                                             why ? why : "not listed in mutators/rule_reach.tsv"));
    }
    json_decref(reasons);
    return out;
}

void mf_lc_nightly_signal(int sig)
{
    if (got_signal)   /* a second signal: the user means it */
        _exit(128 + sig);
    got_signal = sig;
    mf_lc_stop = 1;
}

typedef struct {
    const mf_lc_nightly_opts *o;
    const char *root;
    char workdir[PATH_MAX], corpus[PATH_MAX + 64], regression[PATH_MAX], logs[PATH_MAX + 64];
    double budget, t0, last_disk;
    int jobs, min_free_mb;
    bool disk_full;
    json_t *doc;          /* nightly.json */
    json_t *engines_ok;   /* engines whose targets are built */
    const char *engines[4], *targets[8];
    int ne, nt;
    char es[128], ts[256];  /* storage of the two lists */
    /* the fuzz run being watched: its live progress */
    const char *run_name;
    double run_secs, run_said;
} nightly;

static void say(nightly *n, bool error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(nightly *n, bool error, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n->o->say) {
        n->o->say(n->o->ctx, error, line);
    } else {
        fprintf(error ? stderr : stdout, "nightly: %s\n", line);
        fflush(error ? stderr : stdout);
    }
}

static bool disk_low(nightly *n)
{
    struct statvfs sv;
    if (statvfs(n->workdir, &sv) != 0)
        return false;
    double free_mb = (double)sv.f_bavail * (double)sv.f_frsize / (1024.0 * 1024.0);
    if (free_mb < n->min_free_mb) {
        if (!n->disk_full)
            say(n, true, "only %.0f MB free under %s (< %d): stopping", free_mb, n->workdir, n->min_free_mb);
        n->disk_full = true;
    }
    return n->disk_full;
}

static bool stopping(nightly *n)
{
    return got_signal || disk_low(n);
}

/* The stop check of a running child: a signal, a full disk (looked at every 5 s). */
static bool child_stop(void *ctx)
{
    nightly *n = ctx;
    double t = mf_lc_clock();
    if (t - n->last_disk > 5) {
        n->last_disk = t;
        disk_low(n);
    }
    return got_signal || n->disk_full;
}

/* Save nightly.json (atomically). A failure here is reported, not fatal. */
static void save(nightly *n)
{
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/nightly.json", n->workdir);
    char *t = json_dumps(n->doc, JSON_INDENT(2));
    if (!t || mf_lc_write_atomic(path, t, strlen(t)) < 0) {
        if (errno == ENOSPC || errno == EDQUOT)
            n->disk_full = true;
        say(n, true, "cannot write %s: %s", path, strerror(errno));
    }
    free(t);
}

static void phase(nightly *n, const char *name, double started, const char *status, const char *note)
{
    json_t *ph = json_object_get(n->doc, "phases");
    double secs = mf_lc_clock() - started;
    json_array_append_new(ph, json_pack("{s:s, s:f, s:s, s:s?}", "name", name, "seconds", secs, "status", status,
                                        "note", note));
    say(n, false, "%-7s %-12s %6.1fs%s%s", name, status, secs, note ? "  " : "", note ? note : "");
    save(n);
}

/* A `malform fuzz` progress line of the watched run: said every 10 s. */
static void fuzz_line(void *ctx, const char *line)
{
    nightly *n = ctx;
    mf_lc_engine_progress p;
    if (!n->run_name || !mf_lc_engine_progress_parse(line, &p))
        return;
    double t = mf_lc_clock();
    if (t - n->run_said < 10)
        return;
    n->run_said = t;
    say(n, false, "fuzz    %s %.0fs of %.0fs: %llu execs (%.0f/s), %ld edges, %d finding(s)", n->run_name,
        p.seconds, n->run_secs, p.execs, p.seconds > 0 ? (double)p.execs / p.seconds : 0.0, p.edges, p.findings);
}

/* Run argv (cwd: dir or NULL) with its output appended to log, until it
 * exits, the deadline passes or we are stopping (SIGTERM to its group, then
 * SIGKILL 15 s later). Returns the wait status, -1 if it could not start;
 * *stopped tells whether a signal or a full disk cut it short. */
static int run(nightly *n, char *const argv[], const char *dir, const char *log, double deadline, bool *stopped,
               void (*on_line)(void *, const char *))
{
    mf_lc_proc p = {.argv = argv, .dir = dir, .log = log, .on_line = on_line, .deadline = deadline, .grace = 15,
                    .stop = child_stop, .ctx = n};
    int st = mf_lc_proc_run(&p);
    if (stopped)
        *stopped = p.stopped;
    return st;
}

/* The last non-empty line of a log file (for explaining a failure). */
static void last_line(const char *log, char *out, size_t n)
{
    out[0] = '\0';
    size_t len;
    char *t = mf_lc_read(log, &len);
    if (!t)
        return;
    while (len && (t[len - 1] == '\n' || t[len - 1] == '\r' || t[len - 1] == ' '))
        t[--len] = '\0';
    char *nl = strrchr(t, '\n');
    snprintf(out, n, "%.200s", nl ? nl + 1 : t);
    free(t);
}

/* Why an engine run ended the way it did, in words. */
static void explain_exit(int st, bool cut, const char *log, char *out, size_t n)
{
    char tail[256], how[64];
    last_line(log, tail, sizeof tail);
    if (st < 0)
        snprintf(out, n, "could not be started");
    else if (cut)
        snprintf(out, n, "cut short (%s)", mf_lc_proc_describe(st, how, sizeof how));
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        snprintf(out, n, "exit 0: no failure");
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
        snprintf(out, n, "exit 1: the engine saved failing inputs (triage below sorts them)");
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 2)
        snprintf(out, n, "exit 2: the run could not be set up: %s (log %.400s)", tail, log);
    else
        snprintf(out, n, "%s: the engine failed: %s (log %.400s)", mf_lc_proc_describe(st, how, sizeof how), tail, log);
}

static bool have_prog(const char *name)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];
    for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
        const char *c = strchr(p, ':');
        size_t l = c ? (size_t)(c - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)l, p, name);
        if (access(buf, X_OK) == 0)
            return true;
        p = c ? c + 1 : NULL;
    }
    return false;
}

/* The engine's binary for target (exists after a successful build). */
static void engine_bin(nightly *n, const char *engine, const char *target, char *out, size_t sz)
{
    char build[PATH_MAX + 32];
    snprintf(build, sizeof build, "%s/build/%s", n->root, mf_lc_engine_preset(engine));
    mf_lc_engine_binary(build, engine, target, out, sz);
}

static bool build_engine(nightly *n, const char *engine, const char **targets, int nt, char *why, size_t wl)
{
    const char *tool = !strcmp(engine, "libfuzzer") ? "clang" : "afl-clang-fast";
    if (!have_prog(tool)) {
        snprintf(why, wl, "%s not installed", tool);
        return false;
    }
    const char *preset = mf_lc_engine_preset(engine);
    char log[2 * PATH_MAX], jobs[16], cache[2 * PATH_MAX];
    snprintf(log, sizeof log, "%s/build-%s.log", n->logs, preset);
    snprintf(jobs, sizeof jobs, "-j%d", n->jobs > 0 ? n->jobs : 2);
    snprintf(cache, sizeof cache, "%s/build/%s/CMakeCache.txt", n->root, preset);
    if (!n->o->no_build) {
        say(n, false, "build   %s: cmake --build --preset %s (output in %s)", engine, preset, log);
        if (access(cache, F_OK) != 0) {
            char *cfg[] = {"cmake", "--preset", (char *)preset, NULL};
            int st = run(n, cfg, n->root, log, 0, NULL, NULL);
            if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
                mf_lc_pathf(why, wl, "cmake --preset %s failed (see %s)", preset, log);
                return false;
            }
        }
        char *bld[] = {"cmake", "--build", "--preset", (char *)preset, jobs, NULL};
        int st = run(n, bld, n->root, log, 0, NULL, NULL);
        if (got_signal)
            return snprintf(why, wl, "interrupted"), false;
        if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
            char tail[256];
            last_line(log, tail, sizeof tail);
            mf_lc_pathf(why, wl, "cmake --build --preset %s failed: %s (see %s)", preset, tail, log);
            return false;
        }
    }
    for (int i = 0; i < nt; i++) {
        char bin[2 * PATH_MAX];
        engine_bin(n, engine, targets[i], bin, sizeof bin);
        if (access(bin, X_OK) != 0) {
            mf_lc_pathf(why, wl, "%s missing after the build", bin);
            return false;
        }
    }
    return true;
}

/* The merge's minimizer: libFuzzer -merge=1, else afl-cmin, else a union. */
static bool minimize_corpus(void *ctx, const char *stage, const char *out, const char **how)
{
    nightly *n = ((void **)ctx)[0];
    const char *target = ((void **)ctx)[1];
    char bin[2 * PATH_MAX], log[2 * PATH_MAX];
    snprintf(log, sizeof log, "%s/merge-%s.log", n->logs, target);
    if (json_object_get(n->engines_ok, "libfuzzer") &&
        (engine_bin(n, "libfuzzer", target, bin, sizeof bin), access(bin, X_OK) == 0)) {
        *how = "libfuzzer -merge=1";
        /* inputs that crash during the merge are saved under the work dir, not the current directory */
        char prefix[2 * PATH_MAX + 32], dir[2 * PATH_MAX];
        mf_lc_pathf(dir, sizeof dir, "%s/merge-crashes", n->workdir);
        mf_lc_mkdirs(dir);
        mf_lc_pathf(prefix, sizeof prefix, "-artifact_prefix=%s/", dir);
        char *argv[] = {bin, "-merge=1", "-timeout=10", "-rss_limit_mb=2048", prefix, (char *)out, (char *)stage, NULL};
        int st = run(n, argv, NULL, log, mf_lc_clock() + 300, NULL, NULL);
        return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    if (json_object_get(n->engines_ok, "afl") && (engine_bin(n, "afl", target, bin, sizeof bin), access(bin, X_OK) == 0)) {
        *how = "afl-cmin";
        rmdir(out);
        char *argv[] = {"afl-cmin", "-i", (char *)stage, "-o", (char *)out, "-t", "5000", "--", bin, NULL};
        int st = run(n, argv, NULL, log, mf_lc_clock() + 300, NULL, NULL);
        return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    *how = "union";
    return mf_lc_corpus_union(stage, out) >= 0;
}

static bool merge_stop(void *ctx)
{
    return stopping(((void **)ctx)[0]);
}

/* fuzz_raw seeds: every field case, naming its profile (raw_input.h).
 * Returns the number added. */
static int seed_field(nightly *n, const char *dst)
{
#ifdef HAVE_MALFORM_HARNESS
    char dir[2 * PATH_MAX];
    mf_lc_pathf(dir, sizeof dir, "%s/corpus/field", n->root);
    DIR *d = opendir(dir);
    struct dirent *de;
    int added = 0;
    while (d && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (l < 5 || strcmp(de->d_name + l - 4, ".raw"))
            continue;
        char raw[3 * PATH_MAX], meta[3 * PATH_MAX], out[3 * PATH_MAX];
        mf_lc_pathf(raw, sizeof raw, "%s/%s", dir, de->d_name);
        mf_lc_pathf(meta, sizeof meta, "%s/%.*s.json", dir, (int)(l - 4), de->d_name);
        json_t *m = json_load_file(meta, 0, NULL);
        const char *prof = json_string_value(json_object_get(m, "profile"));
        size_t len, blen;
        char *data = prof && mf_profiles_get(prof) ? mf_lc_read(raw, &len) : NULL;
        uint8_t *buf = data ? mf_raw_input_encode(prof, data, len, &blen) : NULL;
        if (buf) {
            mf_lc_pathf(out, sizeof out, "%s/field-%.*s", dst, (int)(l - 4), de->d_name);
            added += mf_lc_write_new(out, buf, blen) == 1;
        }
        free(buf);
        free(data);
        json_decref(m);
    }
    if (d)
        closedir(d);
    return added;
#else
    (void)n, (void)dst;
    return 0;
#endif
}

static void split_list(const char *s, const char **out, int *n, int max, char *store, size_t sl)
{
    snprintf(store, sl, "%s", s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(store, ",", &save); t && *n < max; t = strtok_r(NULL, ",", &save))
        out[(*n)++] = t;
}

static void write_junit(nightly *n, const json_t *items, const json_t *oracles)
{
    size_t len;
    char *xml = mf_lc_junit_format(items, oracles, mf_lc_clock() - n->t0, &len);
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/nightly.xml", n->workdir);
    if (!xml || mf_lc_write_atomic(path, xml, len) < 0) {
        if (errno == ENOSPC)
            n->disk_full = true;
        say(n, true, "cannot write %s: %s", path, strerror(errno));
    }
    free(xml);
}

/* The malform binary children run (`fuzz`, `report`). */
static const char *self(const nightly *n)
{
    return n->o->malform ? n->o->malform : "/proc/self/exe";
}

/* One engine x target run: `malform fuzz` (or --fuzz-cmd) on a copy of the corpus. */
static void fuzz_slot(nightly *n, const char *engine, const char *target, double per)
{
    char rdir[2 * PATH_MAX], cdir[2 * PATH_MAX], log[2 * PATH_MAX], secs[32], jobs[16], pdir[2 * PATH_MAX];
    snprintf(rdir, sizeof rdir, "%s/runs/%s-%s", n->workdir, engine, target);
    /* The engine works on a copy: the persistent corpus changes only by the merge's atomic swap. */
    snprintf(pdir, sizeof pdir, "%s/%s", n->corpus, target);
    mf_lc_pathf(cdir, sizeof cdir, "%s/corpus", rdir);
    snprintf(log, sizeof log, "%s/fuzz-%s-%s.log", n->logs, engine, target);
    snprintf(secs, sizeof secs, "%d", (int)per);
    snprintf(jobs, sizeof jobs, "%d", n->jobs);
    mf_lc_rm_rf(rdir);   /* a previous night's run of this slot */
    mf_lc_mkdirs(rdir);
    mf_lc_mkdirs(cdir);
    if (mf_lc_corpus_union(pdir, cdir) < 0) {
        if (errno == ENOSPC || errno == EDQUOT)
            n->disk_full = true;
        say(n, true, "cannot copy the corpus into %s: %s", cdir, strerror(errno));
        return;
    }
    int field_seeds = !strcmp(target, "raw") ? seed_field(n, cdir) : 0;
    char *fa[32] = {(char *)self(n), "fuzz"};
    int na = 2;
    char **custom = n->o->fuzz_cmd ? mf_lc_argv_split(n->o->fuzz_cmd) : NULL;
    if (custom)
        for (na = 0; custom[na] && na < 16; na++)
            fa[na] = custom[na];
    char *rest[] = {"--engine", (char *)engine, "--target", (char *)target, "--time", secs,
                    "--jobs", jobs, "--workdir", rdir, "--corpus", cdir, NULL};
    for (int x = 0; rest[x]; x++)
        fa[na++] = rest[x];
    fa[na] = NULL;
    char name[64];
    snprintf(name, sizeof name, "%s/%s", engine, target);
    say(n, false, "fuzz    %s for %ds, %d job(s) (log %s)", name, (int)per, n->jobs, log);
    double rs = mf_lc_clock();
    n->run_name = name;
    n->run_secs = (int)per;
    n->run_said = rs;
    bool cut;
    int st = run(n, fa, NULL, log, rs + per + 120, &cut, fuzz_line);
    n->run_name = NULL;
    char stats[2 * PATH_MAX];
    mf_lc_pathf(stats, sizeof stats, "%s/stats.json", rdir);
    json_t *sj = json_load_file(stats, 0, NULL);
    json_t *r = json_pack("{s:s, s:s, s:f, s:i, s:b, s:s, s:s, s:i}", "engine", engine, "target", target, "seconds",
                          mf_lc_clock() - rs, "exit", st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, "cut_short",
                          cut, "workdir", rdir, "log", log, "field_seeds", field_seeds);
    char why[1024];
    explain_exit(st, cut, log, why, sizeof why);
    json_object_set_new(r, "explanation", json_string(why));
    if (sj) {
        json_object_set(r, "execs", json_object_get(sj, "execs"));
        json_object_set(r, "coverage", json_object_get(sj, "coverage"));
        json_object_set_new(r, "failures", json_integer((json_int_t)json_array_size(json_object_get(sj, "failures"))));
    } else {
        json_object_set_new(r, "note", json_string("no stats.json (see the log)"));
    }
    json_int_t execs = json_integer_value(json_object_get(sj, "execs"));
    double took = mf_lc_clock() - rs;
    say(n, false, "fuzz    %s %.0fs: %lld execs (%.0f/s), %zu distinct failure(s); %s", name, took, (long long)execs,
        took > 0 ? (double)execs / took : 0.0, json_array_size(json_object_get(sj, "failures")), why);
    json_decref(sj);
    mf_lc_paths_free(custom);
    json_array_append_new(json_object_get(n->doc, "runs"), r);
    save(n);
}

/* What the new files in the regression dir are and what to do with them. */
static void say_new_entries(nightly *n)
{
    json_t *news = json_object_get(n->doc, "new_signatures");
    if (!json_array_size(news))
        return;
    say(n, false, "%zu new regression entr%s (status: open) in %s, not yet in git:", json_array_size(news),
        json_array_size(news) == 1 ? "y" : "ies", n->regression);
    size_t i;
    json_t *it;
    json_array_foreach(news, i, it)
        say(n, false, "  %s  (%s)", json_string_value(json_object_get(it, "entry")),
            json_string_value(json_object_get(it, "signature")));
    say(n, false, "each is a minimized input that fails today: `malform replay FILE` shows the failure; commit "
                  "them (git add %s) so every test run replays them, and flip `status: open` to `fixed` once the "
                  "bug is fixed", n->regression);
}

/* Work dir, corpus, logs and regression dir; the engine and target lists. 0, or 2 (said why). */
static int setup(nightly *n)
{
    const mf_lc_nightly_opts *o = n->o;
    n->t0 = n->last_disk = mf_lc_clock();
    n->budget = o->budget_minutes * 60;
    n->root = mf_lc_root();
    char absbuf[PATH_MAX];
    const char *workdir = o->workdir;
    if (!workdir) {
        snprintf(absbuf, sizeof absbuf, "%s/fuzz-out/nightly", n->root);
        workdir = absbuf;
    }
    if (mf_lc_mkdirs(workdir) < 0 || !realpath(workdir, n->workdir)) {
        say(n, true, "cannot create %s: %s", workdir, strerror(errno));
        return 2;
    }
    snprintf(n->corpus, sizeof n->corpus, "%s/corpus", n->workdir);
    snprintf(n->logs, sizeof n->logs, "%s/logs", n->workdir);
    if (o->regression)
        snprintf(n->regression, sizeof n->regression, "%s", o->regression);
    else
        snprintf(n->regression, sizeof n->regression, "%s/corpus/regression", n->root);
    mf_lc_mkdirs(n->corpus);
    mf_lc_mkdirs(n->logs);
    mf_lc_mkdirs(n->regression);
    split_list(o->engines ? o->engines : "libfuzzer,afl", n->engines, &n->ne, 4, n->es, sizeof n->es);
    split_list(o->targets ? o->targets : "structured,raw", n->targets, &n->nt, 8, n->ts, sizeof n->ts);
    for (int i = 0; i < n->ne; i++)
        if (strcmp(n->engines[i], "libfuzzer") && strcmp(n->engines[i], "afl")) {
            say(n, true, "unknown engine '%s' (libfuzzer, afl)", n->engines[i]);
            return 2;
        }
    signal(SIGPIPE, SIG_IGN);
    /* Engines run unattended (TOOLCHAIN.md). No ASAN_OPTIONS here: afl-fuzz
     * insists on its own (abort_on_error=1, symbolize=0); triage's runners
     * set theirs in each child. */
    setenv("AFL_NO_UI", "1", 1);
    setenv("AFL_SKIP_CPUFREQ", "1", 1);
    setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
    setenv("AFL_NO_AFFINITY", "1", 0);
    setenv("AFL_ALLOW_TMP", "1", 1);
    char ts0[32];
    mf_lc_now(ts0, sizeof ts0);
    json_t *jeng = json_array(), *jtgt = json_array();
    for (int i = 0; i < n->ne; i++)
        json_array_append_new(jeng, json_string(n->engines[i]));
    for (int i = 0; i < n->nt; i++)
        json_array_append_new(jtgt, json_string(n->targets[i]));
    n->doc = json_pack("{s:i, s:s, s:n, s:f, s:o, s:o, s:i, s:s, s:s, s:s, s:[], s:[], s:[], s:{}, s:[], s:b, s:b}",
                       "version", 1, "start", ts0, "end", "budget_minutes", o->budget_minutes, "engines", jeng,
                       "targets", jtgt, "jobs", n->jobs, "workdir", n->workdir, "corpus", n->corpus,
                       "regression", n->regression, "phases", "runs", "merge", "triage", "new_signatures",
                       "interrupted", 0, "disk_full", 0);
    save(n);
    say(n, false, "start   budget %.1f min, engines %s, targets %s, workdir %s", o->budget_minutes,
        o->engines ? o->engines : "libfuzzer,afl", o->targets ? o->targets : "structured,raw", n->workdir);
    for (int i = 0; i < n->nt; i++)
        if (mf_lc_corpus_recover(n->corpus, n->targets[i]))
            say(n, false, "restored corpus %s/%s from an interrupted merge", n->corpus, n->targets[i]);
    return 0;
}

/* Build the engines asked for (or trust --fuzz-cmd); n->engines_ok lists those that can run. */
static void phase_build(nightly *n)
{
    double t = mf_lc_clock();
    n->engines_ok = json_object();
    char notes[1024] = "";
    for (int i = 0; i < n->ne && !stopping(n); i++) {
        char why[512];
        if (n->o->fuzz_cmd || build_engine(n, n->engines[i], n->targets, n->nt, why, sizeof why)) {
            json_object_set_new(n->engines_ok, n->engines[i], json_true());
        } else {
            size_t l = strlen(notes);
            snprintf(notes + l, sizeof notes - l, "%s%s skipped: %s", l ? "; " : "", n->engines[i], why);
        }
    }
    json_object_set_new(n->doc, "engines_built", json_deep_copy(n->engines_ok));
    phase(n, "build", t, json_object_size(n->engines_ok) ? "ok" : stopping(n) ? "skipped" : "failed",
          notes[0] ? notes : NULL);
}

/* Every built engine x target, the budget split over them; the number of slots. */
static int phase_fuzz(nightly *n)
{
    double t = mf_lc_clock();
    /* Merge, triage and the report need about a third of a short budget. */
    double reserve = n->budget * 0.3;
    reserve = reserve < 30 ? 30 : reserve > 900 ? 900 : reserve;
    int slots = (int)json_object_size(n->engines_ok) * n->nt;
    double per = slots ? (n->budget - (mf_lc_clock() - n->t0) - reserve) / slots : 0;
    json_object_set_new(n->doc, "seconds_per_run", json_real(per < 10 ? 10 : per));
    int done = 0;
    for (int e = 0; e < n->ne; e++) {
        if (!json_object_get(n->engines_ok, n->engines[e]))
            continue;
        for (int k = 0; k < n->nt && !stopping(n); k++) {
            /* Re-split what is left over the slots left: engines overrun
             * their --time by their start-up and wind-down. */
            int left_slots = slots - done;
            double avail = n->budget - (mf_lc_clock() - n->t0) - reserve;
            per = left_slots > 0 ? avail / left_slots : avail;
            fuzz_slot(n, n->engines[e], n->targets[k], per < 10 ? 10 : per);
            done++;
        }
    }
    phase(n, "fuzz", t, stopping(n) ? "cut short" : done ? "ok" : "skipped", NULL);
    return slots;
}

static void phase_merge(nightly *n)
{
    double t = mf_lc_clock();
    if (stopping(n)) {
        phase(n, "merge", t, "skipped", "stopping: corpus left as it was");
        return;
    }
    char runs[2 * PATH_MAX];
    snprintf(runs, sizeof runs, "%s/runs", n->workdir);
    for (int k = 0; k < n->nt; k++) {
        void *mctx[2] = {n, (void *)n->targets[k]};
        mf_lc_merge_opts mo = {.root = n->corpus, .target = n->targets[k], .runs = runs,
                               .minimize = n->o->fuzz_cmd ? NULL : minimize_corpus, .stop = merge_stop, .ctx = mctx};
        json_t *res = mf_lc_corpus_merge(&mo);
        n->disk_full |= mo.disk_full;
        const char *how = json_string_value(json_object_get(res, "method"));
        say(n, false, "merge   %s: %lld -> %lld inputs (%s), %s", n->targets[k],
            (long long)json_integer_value(json_object_get(res, "before")),
            (long long)json_integer_value(json_object_get(res, "after")), how ? how : "-",
            json_string_value(json_object_get(res, "status")));
        json_array_append_new(json_object_get(n->doc, "merge"), res);
    }
    phase(n, "merge", t, stopping(n) ? "cut short" : "ok", NULL);
}

/* Triage WORKDIR/runs into the regression dir; triage.json's items (new reference). */
static json_t *phase_triage(nightly *n, int *new_sigs)
{
    double t = mf_lc_clock();
    *new_sigs = 0;
    if (stopping(n)) {
        phase(n, "triage", t, "skipped", "stopping");
        return json_array();
    }
    char runs[2 * PATH_MAX], tout[2 * PATH_MAX];
    snprintf(runs, sizeof runs, "%s/runs", n->workdir);
    double left = n->budget - (mf_lc_clock() - n->t0);
    mf_lc_pathf(tout, sizeof tout, "%s/triage", n->workdir);
    mf_lc_rm_rf(tout);   /* last night's originals and minimized inputs */
    /* Triage gets what is left of the budget, at least a minute. */
    mf_lc_triage_opts to = {.regression_dir = n->regression, .out_dir = tout, .repeats = 3, .timeout_sec = 10,
                            .min_runs = left > 600 ? 400 : 150, .quiet = true,
                            .deadline = mf_lc_clock() + (left - 15 > 60 ? left - 15 : 60)};
    mf_lc_triage_report rep;
    mf_lc_triage(runs, &to, &rep);
    *new_sigs = rep.new_sigs;
    json_t *items = json_incref(rep.items);
    json_object_set_new(n->doc, "triage", json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f}",
                                                      "skipped", rep.skipped, "found", rep.found,
                                                      "reproducible", rep.reproducible, "flaky", rep.flaky,
                                                      "not_reproduced", rep.not_reproduced, "errors", rep.errors,
                                                      "new", rep.new_sigs, "duplicates", rep.duplicates,
                                                      "seconds", rep.seconds));
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
        const char *st = json_string_value(json_object_get(it, "status"));
        if (st && !strcmp(st, "new"))
            json_array_append_new(json_object_get(n->doc, "new_signatures"),
                                  json_pack("{s:O, s:O, s:O}", "signature", json_object_get(it, "signature"),
                                            "kind", json_object_get(it, "kind"), "entry", json_object_get(it, "entry")));
    }
    char note[256];
    snprintf(note, sizeof note, "%d input(s): %d reproducible, %d new signature(s), %d known", rep.found,
             rep.reproducible, rep.new_sigs, rep.duplicates);
    mf_lc_triage_report_free(&rep);
    phase(n, "triage", t, got_signal ? "cut short" : "ok", note);
    return items;
}

/* nightly.json's totals, the JUnit XML and `malform report`; the exit code. */
static int phase_report(nightly *n, json_t *items, int new_sigs, int slots)
{
    double t = mf_lc_clock();
    json_t *totals = json_object();
    char runs[2 * PATH_MAX];
    snprintf(runs, sizeof runs, "%s/runs", n->workdir);
    mf_lc_stats_sum_dir(totals, runs, "stats.json", "", 5);
    json_t *oracles = json_object_get(totals, "verdicts") ? json_incref(json_object_get(totals, "verdicts")) : json_object();
    json_object_set_new(n->doc, "rules_not_fired", rules_not_fired(n->root, json_object_get(totals, "rules_fired")));
    json_decref(totals);
    json_object_set(n->doc, "oracles", oracles);
    json_object_set_new(n->doc, "interrupted", json_boolean(got_signal != 0));
    json_object_set_new(n->doc, "disk_full", json_boolean(n->disk_full));
    if (got_signal)
        json_object_set_new(n->doc, "signal", json_string(got_signal == SIGINT ? "SIGINT" : "SIGTERM"));
    char te[32];
    mf_lc_now(te, sizeof te);
    json_object_set_new(n->doc, "end", json_string(te));
    json_object_set_new(n->doc, "seconds", json_real(mf_lc_clock() - n->t0));
    int rc = got_signal ? 128 + got_signal : n->disk_full ? 3 : new_sigs ? 1 : slots ? 0 : 2;
    json_object_set_new(n->doc, "exit_code", json_integer(rc));
    save(n);
    write_junit(n, items, oracles);
    json_decref(oracles);
    char rdir[2 * PATH_MAX], rlog[2 * PATH_MAX];
    snprintf(rdir, sizeof rdir, "%s/report", n->workdir);
    snprintf(rlog, sizeof rlog, "%s/report.log", n->logs);
    char *ra[] = {(char *)self(n), "report", n->workdir, "--regression", n->regression, "-o", rdir, NULL};
    int saved_sig = got_signal;
    got_signal = 0;   /* the report runs even after an interrupt (a second signal still exits) */
    int st = run(n, ra, NULL, rlog, mf_lc_clock() + 300, NULL, NULL);
    got_signal = saved_sig;
    size_t ll;
    char *rl = mf_lc_read(rlog, &ll);
    char note[2 * PATH_MAX];
    if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
        mf_lc_pathf(note, sizeof note, "%s/report.html", rdir);
    else if (rl && strstr(rl, "unknown command"))
        snprintf(note, sizeof note, "not available: this malform has no `report` command");
    else
        mf_lc_pathf(note, sizeof note, "failed (exit %d), see %s", st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, rlog);
    free(rl);
    json_object_set_new(n->doc, "report", json_string(note));
    save(n);
    phase(n, "report", t, "done", NULL);
    return rc;
}

int mf_lc_nightly_run(const mf_lc_nightly_opts *o)
{
    nightly n = {.o = o, .jobs = o->jobs > 0 ? o->jobs : 2, .min_free_mb = o->min_free_mb};
    if (o->budget_minutes <= 0) {
        say(&n, true, "the budget must be more than 0 minutes");
        return 2;
    }
    if (setup(&n))
        return 2;
    phase_build(&n);
    int slots = phase_fuzz(&n);
    phase_merge(&n);
    int new_sigs;
    json_t *items = phase_triage(&n, &new_sigs);
    int rc = phase_report(&n, items, new_sigs, slots);
    say(&n, false, "%.0fs total; %d new signature(s); corpus %s; nightly.json, nightly.xml in %s",
        mf_lc_clock() - n.t0, new_sigs, n.corpus, n.workdir);
    if (got_signal)
        say(&n, false, "INTERRUPTED by %s: corpus intact (old or fully merged), report is partial",
            got_signal == SIGINT ? "SIGINT" : "SIGTERM");
    if (n.disk_full)
        say(&n, false, "STOPPED: disk full (a write failed with ENOSPC or less than %d MB were free): corpus "
                       "intact, report is partial", n.min_free_mb);
    say(&n, false, "report: %s", json_string_value(json_object_get(n.doc, "report")));
    say_new_entries(&n);
    json_decref(items);
    json_decref(n.engines_ok);
    json_decref(n.doc);
    return rc;
}
