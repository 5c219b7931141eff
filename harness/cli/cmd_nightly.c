/* cmd_nightly.c - `malform nightly`: the unattended campaign CI runs every
 * night, from build to report.
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
 *           raw target also gets corpus/field behind its selector bytes);
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
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "malform/malform.h"
#include "lifecycle.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
    if (got_signal)   /* a second signal: the user means it */
        _exit(128 + sig);
    got_signal = sig;
    mf_lc_stop = 1;
}

typedef struct {
    const char *root;
    char workdir[PATH_MAX], corpus[PATH_MAX + 64], regression[PATH_MAX], logs[PATH_MAX + 64];
    double budget, t0;
    int jobs, min_free_mb;
    bool disk_full;
    json_t *doc;          /* nightly.json */
} nightly;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const struct option options[] = {
    {"budget", required_argument, NULL, 'B'},     {"engines", required_argument, NULL, 'e'},
    {"targets", required_argument, NULL, 't'},    {"jobs", required_argument, NULL, 'j'},
    {"workdir", required_argument, NULL, 'w'},    {"regression", required_argument, NULL, 'r'},
    {"min-free-mb", required_argument, NULL, 'm'}, {"no-build", no_argument, NULL, 'N'},
    {"fuzz-cmd", required_argument, NULL, 'F'},   {0}};
static const cli_cmd cmd = {"nightly",
                            "--budget MINUTES [--engines libfuzzer,afl] [--targets structured,raw]\n"
                            "[--jobs N] [--workdir DIR] [--regression DIR] [--no-build]\n"
                            "[--min-free-mb N] [--fuzz-cmd 'CMD ARGS']",
                            "Builds the fuzz/afl presets, fuzzes every engine x target within the budget, merges and\n"
            "minimizes WORKDIR/corpus, triages into corpus/regression, writes WORKDIR/nightly.json,\n"
            "WORKDIR/nightly.xml (JUnit) and WORKDIR/report/. Default workdir fuzz-out/nightly.\n"
            "--fuzz-cmd runs CMD instead of `malform fuzz` (same arguments appended), skips the\n"
            "build and merges by plain union: for custom engines and for the tests.\n"
            "Exit: 0 no new signature, 1 new reproducible signature(s), 2 usage or nothing could run,\n"
            "3 stopped by a full disk, 130/143 interrupted (corpus intact, partial report).\n",
                            "", options};

static bool disk_low(nightly *n)
{
    struct statvfs sv;
    if (statvfs(n->workdir, &sv) != 0)
        return false;
    double free_mb = (double)sv.f_bavail * (double)sv.f_frsize / (1024.0 * 1024.0);
    if (free_mb < n->min_free_mb) {
        if (!n->disk_full)
            fprintf(stderr, "nightly: only %.0f MB free under %s (< %d): stopping\n", free_mb, n->workdir,
                    n->min_free_mb);
        n->disk_full = true;
    }
    return n->disk_full;
}

static bool stopping(nightly *n)
{
    return got_signal || disk_low(n);
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
        fprintf(stderr, "nightly: cannot write %s: %s\n", path, strerror(errno));
    }
    free(t);
}

static void phase(nightly *n, const char *name, double started, const char *status, const char *note)
{
    json_t *ph = json_object_get(n->doc, "phases");
    json_array_append_new(ph, json_pack("{s:s, s:f, s:s, s:s?}", "name", name, "seconds", now() - started,
                                        "status", status, "note", note));
    printf("nightly: %-7s %-12s %6.1fs%s%s\n", name, status, now() - started, note ? "  " : "", note ? note : "");
    fflush(stdout);
    save(n);
}

/* Run argv (cwd: dir or NULL) with output appended to log, in its own
 * process group, until it exits, the deadline passes (SIGTERM, then
 * SIGKILL) or we are stopping. Returns the wait status, -1 if it could not
 * start; *stopped tells whether we cut it short. */
static int run(nightly *n, char *const argv[], const char *dir, const char *log, double deadline, bool *stopped)
{
    if (stopped)
        *stopped = false;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        if (dir && chdir(dir) != 0)
            _exit(127);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        execvp(argv[0], argv);
        fprintf(stderr, "cannot exec %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);
    double killed_at = 0, last_disk = now();
    int st = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            return -1;
        double t = now();
        bool cut = got_signal || (deadline > 0 && t > deadline);
        if (t - last_disk > 5) {
            last_disk = t;
            cut |= disk_low(n);
        }
        cut |= n->disk_full;
        if (cut && !killed_at) {
            killed_at = t;
            if (stopped)
                *stopped = got_signal || n->disk_full;
            kill(-pid, SIGTERM);
        } else if (killed_at && t - killed_at > 15) {
            kill(-pid, SIGKILL);
        }
        usleep(100000);
    }
    kill(-pid, SIGKILL);   /* leftovers of the group (engine workers) */
    return st;
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

static const char *preset_of(const char *engine)
{
    return !strcmp(engine, "libfuzzer") ? "fuzz" : "afl";
}

/* The engine's binary for target (exists after a successful build). */
static void engine_bin(nightly *n, const char *engine, const char *target, char *out, size_t sz)
{
    snprintf(out, sz, "%s/build/%s/%s_%s", n->root, preset_of(engine), !strcmp(engine, "libfuzzer") ? "fuzz" : "afl",
             target);
}

static bool build_engine(nightly *n, const char *engine, const char **targets, int nt, bool no_build, char *why,
                         size_t wl)
{
    const char *tool = !strcmp(engine, "libfuzzer") ? "clang" : "afl-clang-fast";
    if (!have_prog(tool)) {
        snprintf(why, wl, "%s not installed", tool);
        return false;
    }
    const char *preset = preset_of(engine);
    char log[2 * PATH_MAX], jobs[16], cache[2 * PATH_MAX];
    snprintf(log, sizeof log, "%s/build-%s.log", n->logs, preset);
    snprintf(jobs, sizeof jobs, "-j%d", n->jobs > 0 ? n->jobs : 2);
    snprintf(cache, sizeof cache, "%s/build/%s/CMakeCache.txt", n->root, preset);
    if (!no_build) {
        if (access(cache, F_OK) != 0) {
            char *cfg[] = {"cmake", "--preset", (char *)preset, NULL};
            int st = run(n, cfg, n->root, log, 0, NULL);
            if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
                mf_lc_pathf(why, wl, "cmake --preset %s failed (see %s)", preset, log);
                return false;
            }
        }
        char *bld[] = {"cmake", "--build", "--preset", (char *)preset, jobs, NULL};
        int st = run(n, bld, n->root, log, 0, NULL);
        if (got_signal)
            return snprintf(why, wl, "interrupted"), false;
        if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
            mf_lc_pathf(why, wl, "cmake --build --preset %s failed (see %s)", preset, log);
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

/* ---- corpus merge ---- */
static int count_files(const char *dir)
{
    DIR *d = opendir(dir);
    int c = 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL)
        if (de->d_name[0] != '.')
            c++;
    if (d)
        closedir(d);
    return c;
}

static void rm_rf(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        while (d && (de = readdir(d)) != NULL) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char sub[PATH_MAX];
            snprintf(sub, sizeof sub, "%s/%s", path, de->d_name);
            rm_rf(sub);
        }
        if (d)
            closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Copy every regular file of src into dst under its content hash (a union
 * that drops duplicates). Returns files copied, -1 on a write error. */
static int union_copy(const char *src, const char *dst)
{
    DIR *d = opendir(src);
    if (!d)
        return 0;
    int c = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.' || !strcmp(de->d_name, "README.txt"))
            continue;
        char p[PATH_MAX], q[2 * PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", src, de->d_name);
        struct stat st;
        if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        size_t len;
        char *data = mf_lc_read(p, &len);
        if (!data)
            continue;
        char sha[65];
        mf_lc_sha256_hex(data, len, sha);
        snprintf(q, sizeof q, "%s/%.40s", dst, sha);
        int w = mf_lc_write_new(q, data, len);
        free(data);
        if (w < 0) {
            closedir(d);
            return -1;
        }
        c += w;
    }
    closedir(d);
    return c;
}

/* Directories under dir that hold corpus inputs: AFL++ queue/ and any
 * corpus-named directory a run left. */
static void find_corpus_dirs(const char *dir, int depth, json_t *out)
{
    DIR *d = depth < 5 ? opendir(dir) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (!strcmp(de->d_name, "queue") || !strncmp(de->d_name, "corpus", 6))
            json_array_append_new(out, json_string(p));
        else if (strcmp(de->d_name, "crashes") && strcmp(de->d_name, "hangs") && strcmp(de->d_name, "triage"))
            find_corpus_dirs(p, depth + 1, out);
    }
    if (d)
        closedir(d);
}

/* Repair a swap cut between its two renames. */
static void recover_corpus(nightly *n, const char *target)
{
    char cur[2 * PATH_MAX], bak[2 * PATH_MAX];
    snprintf(cur, sizeof cur, "%s/%s", n->corpus, target);
    snprintf(bak, sizeof bak, "%s/.old-%s", n->corpus, target);
    if (access(bak, F_OK) == 0) {
        if (access(cur, F_OK) != 0) {
            rename(bak, cur);
            printf("nightly: restored corpus %s from an interrupted merge\n", cur);
        } else {
            rm_rf(bak);
        }
    }
}

static json_t *merge_target(nightly *n, const char *target, json_t *engines_ok, bool union_only)
{
    char cur[2 * PATH_MAX], tmp[2 * PATH_MAX], bak[2 * PATH_MAX], stage[2 * PATH_MAX];
    snprintf(cur, sizeof cur, "%s/%s", n->corpus, target);
    snprintf(tmp, sizeof tmp, "%s/.new-%s", n->corpus, target);
    snprintf(bak, sizeof bak, "%s/.old-%s", n->corpus, target);
    snprintf(stage, sizeof stage, "%s/.stage-%s", n->corpus, target);
    rm_rf(tmp);
    rm_rf(stage);
    int before = count_files(cur);
    /* Stage: the old corpus plus every run's finds, deduplicated by content. */
    json_t *dirs = json_array();
    char runs[2 * PATH_MAX];
    snprintf(runs, sizeof runs, "%s/runs", n->workdir);
    DIR *d = opendir(runs);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        const char *dash = strchr(de->d_name, '-');
        if (de->d_name[0] == '.' || !dash || strcmp(dash + 1, target))
            continue;
        char p[2 * PATH_MAX];
        mf_lc_pathf(p, sizeof p, "%s/%s", runs, de->d_name);
        find_corpus_dirs(p, 0, dirs);
    }
    if (d)
        closedir(d);
    mf_lc_mkdirs(stage);
    int staged = union_copy(cur, stage);
    size_t i;
    json_t *dj;
    json_array_foreach(dirs, i, dj) if (staged >= 0) {
        int c = union_copy(json_string_value(dj), stage);
        staged = c < 0 ? -1 : staged + c;
    }
    json_decref(dirs);
    json_t *res = json_pack("{s:s, s:i}", "target", target, "before", before);
    if (staged < 0 || stopping(n)) {
        rm_rf(stage);
        json_object_set_new(res, "status", json_string(staged < 0 ? "write error: corpus kept" : "skipped: stopping"));
        if (staged < 0 && (errno == ENOSPC || errno == EDQUOT))
            n->disk_full = true;
        return res;
    }
    /* Minimize into tmp with the best tool there is. */
    mf_lc_mkdirs(tmp);
    char bin[2 * PATH_MAX], log[2 * PATH_MAX];
    snprintf(log, sizeof log, "%s/merge-%s.log", n->logs, target);
    const char *how = "union";
    bool ok = true;
    if (union_only) {
        ok = union_copy(stage, tmp) >= 0;
    } else if (json_object_get(engines_ok, "libfuzzer") && (engine_bin(n, "libfuzzer", target, bin, sizeof bin), access(bin, X_OK) == 0)) {
        char *argv[] = {bin, "-merge=1", "-timeout=10", "-rss_limit_mb=2048", tmp, stage, NULL};
        int st = run(n, argv, NULL, log, now() + 300, NULL);
        ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && !stopping(n);
        how = "libfuzzer -merge=1";
    } else if (json_object_get(engines_ok, "afl") && (engine_bin(n, "afl", target, bin, sizeof bin), access(bin, X_OK) == 0)) {
        rmdir(tmp);
        char *argv[] = {"afl-cmin", "-i", stage, "-o", tmp, "-t", "5000", "--", bin, NULL};
        int st = run(n, argv, NULL, log, now() + 300, NULL);
        ok = st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && !stopping(n);
        how = "afl-cmin";
    } else {
        ok = union_copy(stage, tmp) >= 0;
    }
    int after = count_files(tmp);
    json_object_set_new(res, "method", json_string(how));
    if (!ok || (after == 0 && staged > 0)) {
        rm_rf(tmp);
        rm_rf(stage);
        json_object_set_new(res, "status", json_string(stopping(n) ? "cut short: corpus kept" : "merge failed: corpus kept"));
        json_object_set_new(res, "after", json_integer(before));
        return res;
    }
    /* Swap: two renames; recover_corpus repairs a cut between them. */
    if (access(cur, F_OK) == 0 && rename(cur, bak) != 0) {
        rm_rf(tmp);
        rm_rf(stage);
        json_object_set_new(res, "status", json_sprintf("rename failed: %s: corpus kept", strerror(errno)));
        return res;
    }
    if (rename(tmp, cur) != 0) {
        rename(bak, cur);
        json_object_set_new(res, "status", json_string("rename failed: corpus kept"));
    } else {
        rm_rf(bak);
        json_object_set_new(res, "status", json_string("merged"));
    }
    rm_rf(stage);
    json_object_set_new(res, "staged", json_integer(staged));
    json_object_set_new(res, "after", json_integer(count_files(cur)));
    return res;
}

/* fuzz_raw seeds: every field case behind its profile's selector byte (the
 * target picks profile data[0] % count). Returns the number added. */
static int seed_field(nightly *n, const char *dst)
{
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
        size_t idx = mf_profiles_count();
        for (size_t i = 0; prof && i < mf_profiles_count(); i++)
            if (!strcmp(mf_profiles_at(i)->name, prof))
                idx = i;
        size_t len;
        char *data = idx < mf_profiles_count() && idx < 256 ? mf_lc_read(raw, &len) : NULL;
        char *buf = data ? malloc(len + 1) : NULL;
        if (buf) {
            buf[0] = (char)idx;
            memcpy(buf + 1, data, len);
            mf_lc_pathf(out, sizeof out, "%s/field-%.*s", dst, (int)(l - 4), de->d_name);
            added += mf_lc_write_new(out, buf, len + 1) == 1;
        }
        free(buf);
        free(data);
        json_decref(m);
    }
    if (d)
        closedir(d);
    return added;
}

/* ---- JUnit ---- */
static void xml_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<') fputs("&lt;", f);
        else if (c == '>') fputs("&gt;", f);
        else if (c == '&') fputs("&amp;", f);
        else if (c == '"') fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t') fputc(' ', f);
        else fputc(c, f);
    }
}

static void write_junit(nightly *n, json_t *items, json_t *oracles)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    int tests = 0, failures = 0, skipped = 0;
    char *body = NULL;
    size_t blen = 0;
    FILE *b = open_memstream(&body, &blen);
    json_t *seen = json_object();
    size_t i;
    json_t *it;
    json_array_foreach(items, i, it) {
        const char *sig = json_string_value(json_object_get(it, "signature"));
        const char *st = json_string_value(json_object_get(it, "status"));
        if (!sig || !st || json_object_get(seen, sig))
            continue;
        json_object_set_new(seen, sig, json_true());
        tests++;
        fputs("    <testcase classname=\"malform.signature.", b);
        xml_esc(b, json_string_value(json_object_get(it, "kind")));
        fputs("\" name=\"", b);
        xml_esc(b, sig);
        fputs("\" time=\"0\">\n", b);
        const char *entry = json_string_value(json_object_get(it, "entry"));
        if (!strcmp(st, "new")) {
            failures++;
            fputs("      <failure type=\"new-signature\" message=\"", b);
            xml_esc(b, sig);
            fputs("\">", b);
            fputs("new reproducible signature; regression entry: ", b);
            xml_esc(b, entry);
            fputs("\n", b);
            xml_esc(b, json_string_value(json_object_get(it, "detail")));
            fputs("</failure>\n", b);
        } else if (!strcmp(st, "flaky") || !strcmp(st, "not-reproduced") || !strcmp(st, "error")) {
            skipped++;
            fputs("      <skipped message=\"", b);
            xml_esc(b, st);
            fputs("\"/>\n", b);
        } else {
            fputs("      <system-out>known signature, tracked by ", b);
            xml_esc(b, entry);
            fputs("</system-out>\n", b);
        }
        fputs("    </testcase>\n", b);
    }
    const char *name;
    json_t *v;
    json_object_foreach(oracles, name, v) {
        tests++;
        json_int_t pass = json_integer_value(json_object_get(v, "pass"));
        json_int_t fail = json_integer_value(json_object_get(v, "fail"));
        bool new_fail = false;
        json_array_foreach(items, i, it) {
            const char *st = json_string_value(json_object_get(it, "status"));
            const char *sig = json_string_value(json_object_get(it, "signature"));
            char pre[96];
            snprintf(pre, sizeof pre, "oracle %s ", name);
            if (st && sig && !strcmp(st, "new") && !strncmp(sig, pre, strlen(pre)))
                new_fail = true;
        }
        fputs("    <testcase classname=\"malform.oracle\" name=\"", b);
        xml_esc(b, name);
        fputs("\" time=\"0\">\n", b);
        if (new_fail) {
            failures++;
            fprintf(b, "      <failure type=\"oracle\" message=\"new signature(s) for this oracle\">%lld of %lld "
                       "checks failed</failure>\n", (long long)fail, (long long)(pass + fail));
        }
        fprintf(b, "      <system-out>pass %lld, fail %lld (failures of known open signatures do not fail this "
                   "test)</system-out>\n    </testcase>\n", (long long)pass, (long long)fail);
    }
    fclose(b);
    json_decref(seen);
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"malform nightly\" tests=\"%d\" "
               "failures=\"%d\" skipped=\"%d\">\n  <testsuite name=\"malform.nightly\" tests=\"%d\" failures=\"%d\" "
               "skipped=\"%d\" errors=\"0\" time=\"%.1f\">\n",
            tests, failures, skipped, tests, failures, skipped, now() - n->t0);
    if (body)
        fwrite(body, 1, blen, f);
    fputs("  </testsuite>\n</testsuites>\n", f);
    fclose(f);
    free(body);
    char path[2 * PATH_MAX];
    snprintf(path, sizeof path, "%s/nightly.xml", n->workdir);
    if (mf_lc_write_atomic(path, buf, len) < 0) {
        if (errno == ENOSPC)
            n->disk_full = true;
        fprintf(stderr, "nightly: cannot write %s: %s\n", path, strerror(errno));
    }
    free(buf);
}

/* Oracle pass/fail totals over every stats.json under dir. */
static void sum_oracles(const char *dir, int depth, json_t *acc)
{
    DIR *d = depth < 5 ? opendir(dir) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (strcmp(de->d_name, "queue") && strncmp(de->d_name, "corpus", 6) && strcmp(de->d_name, "crashes"))
                sum_oracles(p, depth + 1, acc);
            continue;
        }
        if (strcmp(de->d_name, "stats.json"))
            continue;
        json_t *j = json_load_file(p, 0, NULL);
        const char *k;
        json_t *v;
        json_object_foreach(json_object_get(j, "verdicts"), k, v) {
            json_t *a = json_object_get(acc, k);
            if (!a)
                json_object_set_new(acc, k, a = json_pack("{s:i, s:i}", "pass", 0, "fail", 0));
            for (int x = 0; x < 2; x++) {
                const char *f = x ? "fail" : "pass";
                json_object_set_new(a, f, json_integer(json_integer_value(json_object_get(a, f)) +
                                                       json_integer_value(json_object_get(v, f))));
            }
        }
        json_decref(j);
    }
    if (d)
        closedir(d);
}

static void split_list(const char *s, const char **out, int *n, int max, char *store, size_t sl)
{
    snprintf(store, sl, "%s", s);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(store, ",", &save); t && *n < max; t = strtok_r(NULL, ",", &save))
        out[(*n)++] = t;
}

int cmd_nightly(int argc, char **argv)
{
    nightly n = {.jobs = 2, .min_free_mb = 64};
    double budget_min = -1;
    const char *engines_s = "libfuzzer,afl", *targets_s = "structured,raw", *workdir = NULL, *reg = NULL;
    bool no_build = false;
    const char *fuzz_cmd = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'B': if (!cli_double_arg(&cmd, "--budget", optarg, 0, &budget_min)) return 2; break;
        case 'e': engines_s = optarg; break;
        case 't': targets_s = optarg; break;
        case 'j': if (!cli_int_arg(&cmd, "--jobs", optarg, 1, 1024, &n.jobs)) return 2; break;
        case 'w': workdir = optarg; break;
        case 'r': reg = optarg; break;
        case 'm': if (!cli_int_arg(&cmd, "--min-free-mb", optarg, 0, 1 << 30, &n.min_free_mb)) return 2; break;
        case 'N': no_build = true; break;
        case 'F': fuzz_cmd = optarg; break;
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    if (budget_min <= 0)
        return cli_usage_error(&cmd, "--budget MINUTES (more than 0) is required");
    n.t0 = now();
    n.budget = budget_min * 60;
    n.root = mf_lc_root();
    char absbuf[PATH_MAX];
    if (!workdir) {
        snprintf(absbuf, sizeof absbuf, "%s/fuzz-out/nightly", n.root);
        workdir = absbuf;
    }
    if (mf_lc_mkdirs(workdir) < 0 || !realpath(workdir, n.workdir)) {
        fprintf(stderr, "malform nightly: cannot create %s: %s\n", workdir, strerror(errno));
        return 2;
    }
    snprintf(n.corpus, sizeof n.corpus, "%s/corpus", n.workdir);
    snprintf(n.logs, sizeof n.logs, "%s/logs", n.workdir);
    if (reg)
        snprintf(n.regression, sizeof n.regression, "%s", reg);
    else
        snprintf(n.regression, sizeof n.regression, "%s/corpus/regression", n.root);
    mf_lc_mkdirs(n.corpus);
    mf_lc_mkdirs(n.logs);
    mf_lc_mkdirs(n.regression);

    const char *engines[4], *targets[8];
    int ne, nt;
    char es[128], ts[256];
    split_list(engines_s, engines, &ne, 4, es, sizeof es);
    split_list(targets_s, targets, &nt, 8, ts, sizeof ts);
    for (int i = 0; i < ne; i++)
        if (strcmp(engines[i], "libfuzzer") && strcmp(engines[i], "afl")) {
            fprintf(stderr, "malform nightly: unknown engine '%s' (libfuzzer, afl)\n", engines[i]);
            return 2;
        }

    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    /* Engines run unattended (TOOLCHAIN.md). */
    setenv("AFL_NO_UI", "1", 1);
    setenv("AFL_SKIP_CPUFREQ", "1", 1);
    setenv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES", "1", 1);
    setenv("AFL_NO_AFFINITY", "1", 0);
    setenv("AFL_ALLOW_TMP", "1", 1);
    /* No ASAN_OPTIONS here: afl-fuzz insists on its own (abort_on_error=1,
     * symbolize=0); triage's runners set theirs in each child. */

    char ts0[32];
    mf_lc_now(ts0, sizeof ts0);
    json_t *jeng = json_array(), *jtgt = json_array();
    for (int i = 0; i < ne; i++)
        json_array_append_new(jeng, json_string(engines[i]));
    for (int i = 0; i < nt; i++)
        json_array_append_new(jtgt, json_string(targets[i]));
    n.doc = json_pack("{s:i, s:s, s:n, s:f, s:o, s:o, s:i, s:s, s:s, s:s, s:[], s:[], s:[], s:{}, s:[], s:b, s:b}",
                      "version", 1, "start", ts0, "end", "budget_minutes", budget_min, "engines", jeng,
                      "targets", jtgt, "jobs", n.jobs, "workdir", n.workdir, "corpus", n.corpus,
                      "regression", n.regression, "phases", "runs", "merge", "triage", "new_signatures",
                      "interrupted", 0, "disk_full", 0);
    save(&n);
    for (int i = 0; i < nt; i++)
        recover_corpus(&n, targets[i]);

    /* build */
    double t = now();
    json_t *engines_ok = json_object();
    char notes[1024] = "";
    for (int i = 0; i < ne && !stopping(&n); i++) {
        char why[512];
        if (fuzz_cmd)
            json_object_set_new(engines_ok, engines[i], json_true());
        else if (build_engine(&n, engines[i], targets, nt, no_build, why, sizeof why))
            json_object_set_new(engines_ok, engines[i], json_true());
        else {
            size_t l = strlen(notes);
            snprintf(notes + l, sizeof notes - l, "%s%s skipped: %s", l ? "; " : "", engines[i], why);
        }
    }
    json_object_set_new(n.doc, "engines_built", json_deep_copy(engines_ok));
    phase(&n, "build", t, json_object_size(engines_ok) ? "ok" : stopping(&n) ? "skipped" : "failed",
          notes[0] ? notes : NULL);

    /* fuzz */
    t = now();
    /* Merge, triage and the report need about a third of a short budget. */
    double reserve = n.budget * 0.3;
    reserve = reserve < 30 ? 30 : reserve > 900 ? 900 : reserve;
    int slots = (int)json_object_size(engines_ok) * nt;
    double per = slots ? (n.budget - (now() - n.t0) - reserve) / slots : 0;
    if (per < 10)
        per = 10;
    json_object_set_new(n.doc, "seconds_per_run", json_real(per));
    int done = 0;
    for (int e = 0; e < ne; e++) {
        if (!json_object_get(engines_ok, engines[e]))
            continue;
        for (int k = 0; k < nt && !stopping(&n); k++) {
            /* Re-split what is left over the slots left: engines overrun
             * their --time by their start-up and wind-down. */
            int left_slots = slots - done;
            double avail = n.budget - (now() - n.t0) - reserve;
            per = left_slots > 0 ? avail / left_slots : avail;
            if (per < 10)
                per = 10;
            char rdir[2 * PATH_MAX], cdir[2 * PATH_MAX], log[2 * PATH_MAX], secs[32], jobs[16];
            snprintf(rdir, sizeof rdir, "%s/runs/%s-%s", n.workdir, engines[e], targets[k]);
            /* The engine works on a copy: the persistent corpus changes only
             * by the merge's atomic swap. */
            char pdir[2 * PATH_MAX];
            snprintf(pdir, sizeof pdir, "%s/%s", n.corpus, targets[k]);
            mf_lc_pathf(cdir, sizeof cdir, "%s/corpus", rdir);
            snprintf(log, sizeof log, "%s/fuzz-%s-%s.log", n.logs, engines[e], targets[k]);
            snprintf(secs, sizeof secs, "%d", (int)per);
            snprintf(jobs, sizeof jobs, "%d", n.jobs);
            rm_rf(rdir);   /* a previous night's run of this slot */
            mf_lc_mkdirs(rdir);
            mf_lc_mkdirs(cdir);
            if (union_copy(pdir, cdir) < 0) {
                if (errno == ENOSPC || errno == EDQUOT)
                    n.disk_full = true;
                fprintf(stderr, "nightly: cannot copy the corpus into %s: %s\n", cdir, strerror(errno));
                break;
            }
            int field_seeds = !strcmp(targets[k], "raw") ? seed_field(&n, cdir) : 0;
            char *fa[32] = {"/proc/self/exe", "fuzz"};
            int na = 2;
            char **custom = fuzz_cmd ? mf_lc_argv_split(fuzz_cmd) : NULL;
            if (custom)
                for (na = 0; custom[na] && na < 16; na++)
                    fa[na] = custom[na];
            char *rest[] = {"--engine", (char *)engines[e], "--target", (char *)targets[k], "--time", secs,
                            "--jobs", jobs, "--workdir", rdir, "--corpus", cdir, NULL};
            for (int x = 0; rest[x]; x++)
                fa[na++] = rest[x];
            fa[na] = NULL;
            double rs = now();
            bool cut;
            int st = run(&n, fa, NULL, log, rs + per + 120, &cut);
            char stats[2 * PATH_MAX];
            mf_lc_pathf(stats, sizeof stats, "%s/stats.json", rdir);
            json_t *sj = json_load_file(stats, 0, NULL);
            json_t *r = json_pack("{s:s, s:s, s:f, s:i, s:b, s:s, s:s, s:i}", "engine", engines[e], "target",
                                  targets[k], "seconds", now() - rs,
                                  "exit", st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, "cut_short", cut,
                                  "workdir", rdir, "log", log, "field_seeds", field_seeds);
            if (sj) {
                json_object_set(r, "execs", json_object_get(sj, "execs"));
                json_object_set(r, "coverage", json_object_get(sj, "coverage"));
                json_object_set_new(r, "failures", json_integer((json_int_t)json_array_size(json_object_get(sj, "failures"))));
            } else {
                json_object_set_new(r, "note", json_string("no stats.json (see the log)"));
            }
            json_decref(sj);
            mf_lc_paths_free(custom);
            json_array_append_new(json_object_get(n.doc, "runs"), r);
            printf("nightly: fuzz    %s/%s %.0fs, exit %d%s\n", engines[e], targets[k], now() - rs,
                   st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, cut ? " (cut short)" : "");
            save(&n);
            done++;
        }
    }
    phase(&n, "fuzz", t, stopping(&n) ? "cut short" : done ? "ok" : "skipped", NULL);

    /* merge */
    t = now();
    if (!stopping(&n)) {
        for (int k = 0; k < nt; k++)
            json_array_append_new(json_object_get(n.doc, "merge"), merge_target(&n, targets[k], engines_ok, fuzz_cmd != NULL));
        phase(&n, "merge", t, stopping(&n) ? "cut short" : "ok", NULL);
    } else {
        phase(&n, "merge", t, "skipped", "stopping: corpus left as it was");
    }

    /* triage */
    t = now();
    int new_sigs = 0;
    json_t *items = json_array();
    if (!stopping(&n)) {
        char runs[2 * PATH_MAX];
        snprintf(runs, sizeof runs, "%s/runs", n.workdir);
        double left = n.budget - (now() - n.t0);
        /* Triage gets what is left of the budget, at least a minute. */
        char tout[2 * PATH_MAX];
        mf_lc_pathf(tout, sizeof tout, "%s/triage", n.workdir);
        rm_rf(tout);   /* last night's originals and minimized inputs */
        mf_lc_triage_opts o = {.regression_dir = n.regression, .out_dir = tout, .repeats = 3, .timeout_sec = 10,
                               .min_runs = left > 600 ? 400 : 150, .quiet = false,
                               .deadline = now() + (left - 15 > 60 ? left - 15 : 60)};
        mf_lc_triage_report rep;
        mf_lc_triage(runs, &o, &rep);
        new_sigs = rep.new_sigs;
        json_decref(items);
        items = json_incref(rep.items);
        json_object_set_new(n.doc, "triage", json_pack("{s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f}",
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
                json_array_append_new(json_object_get(n.doc, "new_signatures"),
                                      json_pack("{s:O, s:O, s:O}", "signature", json_object_get(it, "signature"),
                                                "kind", json_object_get(it, "kind"), "entry", json_object_get(it, "entry")));
        }
        mf_lc_triage_report_free(&rep);
        phase(&n, "triage", t, got_signal ? "cut short" : "ok", NULL);
    } else {
        phase(&n, "triage", t, "skipped", "stopping");
    }

    /* reports */
    t = now();
    json_t *oracles = json_object();
    char runs[2 * PATH_MAX];
    snprintf(runs, sizeof runs, "%s/runs", n.workdir);
    sum_oracles(runs, 0, oracles);
    json_object_set(n.doc, "oracles", oracles);
    json_object_set_new(n.doc, "interrupted", json_boolean(got_signal != 0));
    json_object_set_new(n.doc, "disk_full", json_boolean(n.disk_full));
    if (got_signal)
        json_object_set_new(n.doc, "signal", json_string(got_signal == SIGINT ? "SIGINT" : "SIGTERM"));
    char te[32];
    mf_lc_now(te, sizeof te);
    json_object_set_new(n.doc, "end", json_string(te));
    json_object_set_new(n.doc, "seconds", json_real(now() - n.t0));
    rc = got_signal ? 128 + got_signal : n.disk_full ? 3 : new_sigs ? 1 : slots ? 0 : 2;
    json_object_set_new(n.doc, "exit_code", json_integer(rc));
    save(&n);
    write_junit(&n, items, oracles);
    char rdir[2 * PATH_MAX], rlog[2 * PATH_MAX];
    snprintf(rdir, sizeof rdir, "%s/report", n.workdir);
    snprintf(rlog, sizeof rlog, "%s/report.log", n.logs);
    char *ra[] = {"/proc/self/exe", "report", n.workdir, "--regression", n.regression, "-o", rdir, NULL};
    int saved_sig = got_signal;
    got_signal = 0;   /* the report runs even after an interrupt (a second signal still exits) */
    int st = run(&n, ra, NULL, rlog, now() + 300, NULL);
    got_signal = saved_sig;
    size_t ll;
    char *rl = mf_lc_read(rlog, &ll);
    const char *report_note;
    char rbuf[2 * PATH_MAX];
    if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        mf_lc_pathf(rbuf, sizeof rbuf, "%s/report.html", rdir);
        report_note = rbuf;
    } else if (rl && strstr(rl, "unknown command")) {
        report_note = "not available: this malform has no `report` command";
    } else {
        mf_lc_pathf(rbuf, sizeof rbuf, "failed (exit %d), see %s", st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, rlog);
        report_note = rbuf;
    }
    free(rl);
    json_object_set_new(n.doc, "report", json_string(report_note));
    save(&n);
    phase(&n, "report", t, "done", NULL);

    printf("nightly: %.0fs total; %d new signature(s); corpus %s; nightly.json, nightly.xml in %s\n",
           now() - n.t0, new_sigs, n.corpus, n.workdir);
    if (got_signal)
        printf("nightly: INTERRUPTED by %s: corpus intact (old or fully merged), report is partial\n",
               got_signal == SIGINT ? "SIGINT" : "SIGTERM");
    if (n.disk_full)
        printf("nightly: STOPPED: disk full (a write failed with ENOSPC or less than %d MB were free): corpus "
               "intact, report is partial\n", n.min_free_mb);
    printf("nightly: report: %s\n", report_note);
    json_decref(items);
    json_decref(oracles);
    json_decref(engines_ok);
    json_decref(n.doc);
    return rc;
}
