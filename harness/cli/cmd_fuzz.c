/* cmd_fuzz.c - `malform fuzz`: run one engine on one target for a time
 * budget and write WORKDIR/stats.json.
 *
 * The targets come from the preset build trees (build/fuzz for libFuzzer,
 * build/afl for AFL++; --build overrides). The working corpus (--corpus, or
 * WORKDIR/corpus) is seeded when empty from corpus/cases and from every
 * clean artifact of corpus/seeds/<profile>/ as a zero-op case (the raw target
 * gets the rendered outputs behind their profile selector byte). The engine's output
 * is read live: libFuzzer status lines give the timeline and coverage; for
 * AFL++ they come from fuzzer_stats and plot_data. Every saved failing input
 * (libFuzzer's artifacts, AFL++'s crashes/) is run once more the way triage
 * runs it, and its failure signature is the lifecycle's (mf_lc_classify), so
 * that campaign failures and regression entries share one signature. Rule,
 * op and verdict counts are the targets' own dumps
 * (MALFORM_STATS_DIR=WORKDIR/stats), summed over every process. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli_util.h"
#include "harness.h"
#include "lifecycle.h"
#include "pl_blackbox.h"
#include "pl_cli.h"

#ifndef MF_SOURCE_ROOT
#define MF_SOURCE_ROOT "."
#endif

typedef struct {
    const char *engine, *target, *workdir, *corpus_arg, *build;
    int seconds, jobs;
    char root[2048], bin[4096], corpus[4096], stats_dir[4096], art_dir[4096];
    json_t *timeline, *failures;
    unsigned long long execs_log;
    long edges, features, corp;
    double t0;
} fz;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static bool dir_empty(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return true;
    struct dirent *e;
    bool empty = true;
    while (empty && (e = readdir(d)))
        empty = e->d_name[0] == '.';
    closedir(d);
    return empty;
}

/* putenv-like with a "NAME=value" string, through setenv. */
static void set_kv(const char *kv)
{
    char name[128];
    const char *eq = strchr(kv, '=');
    if (!eq || (size_t)(eq - kv) >= sizeof name)
        return;
    memcpy(name, kv, (size_t)(eq - kv));
    name[eq - kv] = '\0';
    setenv(name, eq + 1, 1);
}

static int write_file(const char *path, const void *a, size_t n, const void *b, size_t m)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fwrite(a, 1, n, f);
    if (m)
        fwrite(b, 1, m, f);
    return fclose(f);
}

/* Seed an empty working corpus from corpus/cases. */
static void seed_corpus(fz *z)
{
    if (!dir_empty(z->corpus))
        return;
    char cases[4200];
    snprintf(cases, sizeof cases, "%s/corpus/cases", z->root);
    DIR *d = opendir(cases);
    size_t n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strstr(e->d_name, ".case"))
            continue;
        char src[8192], dst[8192];
        snprintf(src, sizeof src, "%s/%s", cases, e->d_name);
        size_t len;
        char *text = cli_read_file(src, &len);
        if (!text)
            continue;
        snprintf(dst, sizeof dst, "%s/seed-%s", z->corpus, e->d_name);
        if (!strcmp(z->target, "structured")) {
            n += write_file(dst, text, len, NULL, 0) == 0;
        } else {
            char err[128];
            mf_case *c = mf_case_decode(text, len, err, sizeof err);
            mf_render r;
            if (c && mf_case_render(c, &r) == 0) {
                unsigned char sel = 0;
                for (size_t i = 0; i < mf_profiles_count(); i++)
                    if (mf_profiles_at(i) == r.profile)
                        sel = (unsigned char)i;
                n += write_file(dst, &sel, 1, r.raw, r.raw_len) == 0;
            }
            if (c)
                mf_render_free(&r);
            mf_case_free(c);
        }
        free(text);
    }
    if (d)
        closedir(d);
    /* every clean artifact of corpus/seeds/<profile>/ as a case with no ops */
    char seeds[4200];
    snprintf(seeds, sizeof seeds, "%s/corpus/seeds", z->root);
    DIR *sd = opendir(seeds);
    for (struct dirent *pe; sd && (pe = readdir(sd));) {
        const mf_profile *p = pe->d_name[0] == '.' ? NULL : mf_profiles_get(pe->d_name);
        char pdir[4500];
        snprintf(pdir, sizeof pdir, "%s/%s", seeds, pe->d_name);
        DIR *fd = p ? opendir(pdir) : NULL;
        for (struct dirent *fe; fd && (fe = readdir(fd));) {
            char src[8192], dst[8192];
            size_t len;
            snprintf(src, sizeof src, "%s/%s", pdir, fe->d_name);
            char *art = fe->d_name[0] == '.' ? NULL : cli_read_file(src, &len);
            mf_case *c = art ? mf_case_new(p->name, art, len) : NULL;
            size_t clen;
            char *text = c ? mf_case_encode(c, &clen) : NULL;
            snprintf(dst, sizeof dst, "%s/seed-%s-%s", z->corpus, p->name, fe->d_name);
            if (text && !strcmp(z->target, "structured")) {
                n += write_file(dst, text, clen, NULL, 0) == 0;
            } else if (art) {
                unsigned char sel = 0;
                for (size_t i = 0; i < mf_profiles_count(); i++)
                    if (mf_profiles_at(i) == p)
                        sel = (unsigned char)i;
                n += write_file(dst, &sel, 1, art, len) == 0;
            }
            free(text);
            mf_case_free(c);
            free(art);
        }
        if (fd)
            closedir(fd);
    }
    if (sd)
        closedir(sd);
    if (!n) {
        char dst[8192];
        snprintf(dst, sizeof dst, "%s/seed-empty", z->corpus);
        write_file(dst, "\n", 1, NULL, 0);
    }
}

/* A comma-separated id list of an outcome ("-" when none) as a JSON array. */
static json_t *id_list(const char *ids)
{
    json_t *a = json_array();
    char buf[256];
    snprintf(buf, sizeof buf, "%s", ids);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (strcmp(t, "-"))
            json_array_append_new(a, json_string(t));
    return a;
}

/* Record the failure o (of the saved input file) unless its signature is
 * already listed. The signature is the lifecycle's (mf_lc_classify), so the
 * report matches campaign failures to regression entries. */
static void add_failure(fz *z, const char *file, const mf_lc_outcome *o, bool reproduced)
{
    for (size_t i = 0; i < json_array_size(z->failures); i++)
        if (!strcmp(json_string_value(json_object_get(json_array_get(z->failures, i), "signature")), o->sig))
            return;
    json_t *f = json_pack("{s:s,s:s,s:s,s:s,s:b}", "signature", o->sig, "oracle", o->oracle, "kind",
                          mf_lc_kind_name(o->kind), "file", file, "reproducible", reproduced);
    if (o->kind == MF_LC_ORACLE) {
        if (strcmp(o->profile, "-"))
            json_object_set_new(f, "profile", json_string(o->profile));
        json_object_set_new(f, "ops", id_list(o->ops));
        json_object_set_new(f, "rules", id_list(o->rules));
    }
    json_array_append_new(z->failures, f);
}

/* One line of libFuzzer output: its status lines give the timeline and coverage. */
static void lf_line(fz *z, char *line)
{
    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '#' && strstr(line, "cov: ")) {
        unsigned long long ex = strtoull(line + 1, NULL, 10);
        const char *c = strstr(line, "cov: "), *f = strstr(line, "ft: "), *k = strstr(line, "corp: ");
        z->execs_log = ex > z->execs_log ? ex : z->execs_log;
        if (c)
            z->edges = strtol(c + 5, NULL, 10);
        if (f)
            z->features = strtol(f + 4, NULL, 10);
        if (k)
            z->corp = strtol(k + 6, NULL, 10);
        double t = now() - z->t0;
        size_t n = json_array_size(z->timeline);
        json_t *last = n ? json_array_get(z->timeline, n - 1) : NULL;
        if (!last || t - json_real_value(json_object_get(last, "t")) >= 1.0)
            json_array_append_new(z->timeline, json_pack("{s:f,s:I,s:I,s:I}", "t", t, "execs", (json_int_t)ex,
                                                         "coverage", (json_int_t)z->features, "corpus", (json_int_t)z->corp));
    }
}

/* Run argv with extra environment, stdout+stderr to log and to lf_line. */
static int run_engine(fz *z, char **argv, char **env, const char *log)
{
    int fd[2];
    if (pipe(fd) < 0)
        return -1;
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        for (char **e = env; e && *e; e++)
            set_kv(*e);
        execv(argv[0], argv);
        fprintf(stderr, "malform fuzz: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r"), *out = fopen(log, "w");
    char line[8192];
    while (in && fgets(line, sizeof line, in)) {
        if (out)
            fputs(line, out);
        lf_line(z, line);
    }
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    int st;
    waitpid(pid, &st, 0);
    return st;
}

/* Sum the targets' dumps into doc. */
static unsigned long long merge_stats(fz *z, json_t *doc)
{
    json_t *rules = json_object(), *ops = json_object(), *ver = json_object();
    unsigned long long execs = 0;
    DIR *d = opendir(z->stats_dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, "stats-", 6) || !strstr(e->d_name, ".json") || strstr(e->d_name, ".tmp"))
            continue;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s", z->stats_dir, e->d_name);
        json_t *s = json_load_file(p, 0, NULL);
        if (!s)
            continue;
        execs += (unsigned long long)json_integer_value(json_object_get(s, "execs"));
        const char *k;
        json_t *v;
        json_t *pairs[2][2] = {{rules, json_object_get(s, "rules_fired")}, {ops, json_object_get(s, "ops_applied")}};
        for (int i = 0; i < 2; i++)
            json_object_foreach(pairs[i][1], k, v)
                json_object_set_new(pairs[i][0], k, json_integer(json_integer_value(json_object_get(pairs[i][0], k)) +
                                                                 json_integer_value(v)));
        json_object_foreach(json_object_get(s, "verdicts"), k, v) {
            json_t *acc = json_object_get(ver, k);
            if (!acc)
                json_object_set_new(ver, k, acc = json_pack("{s:i,s:i}", "pass", 0, "fail", 0));
            for (int f = 0; f < 2; f++) {
                const char *w = f ? "fail" : "pass";
                json_object_set_new(acc, w, json_integer(json_integer_value(json_object_get(acc, w)) +
                                                         json_integer_value(json_object_get(v, w))));
            }
        }
        json_decref(s);
    }
    if (d)
        closedir(d);
    json_object_set_new(doc, "rules_fired", rules);
    json_object_set_new(doc, "ops_applied", ops);
    json_object_set_new(doc, "verdicts", ver);
    return execs;
}

/* Run the target once on a saved input (as an argument, or on stdin for
 * AFL++ binaries) the way triage does, and classify the run into o. When
 * the input does not fail again, o is the failure the engine saved it as
 * (engine_kind: libFuzzer's artifact name "crash-...", "timeout-...",
 * "oom-...", "leak-...", or "crash") with no frames, and false
 * is returned. */
static bool replay_one(fz *z, const char *file, bool on_stdin, const char *engine_kind, mf_lc_outcome *o)
{
    char *argv_lf[] = {z->bin, NULL};
    char *argv_afl[] = {"/bin/sh", "-c", "exec \"$0\" < \"$1\"", z->bin, NULL};
    mf_lc_runner r = {.argv = on_stdin ? argv_afl : argv_lf, .timeout_sec = 20};
    if (mf_lc_run_path(&r, file, o, NULL) == 0 && o->kind != MF_LC_PASS)
        return true;
    /* The engine's own word for it, classified like a report of that kind. */
    bool timeout = !strncmp(engine_kind, "timeout", 7) || !strncmp(engine_kind, "slow-unit", 9);
    const char *line = !strncmp(engine_kind, "oom", 3)    ? "ERROR: libFuzzer: out-of-memory"
                       : !strncmp(engine_kind, "leak", 4) ? "ERROR: LeakSanitizer"
                                                          : "ERROR: libFuzzer: deadly signal";
    mf_lc_classify(timeout ? NULL : line, timeout ? 0 : strlen(line), 0, timeout, o);
    return false;
}

static int run_libfuzzer(fz *z)
{
    char a_time[32], a_prefix[4200], a_fork[32], log[4200], env_stats[4200];
    snprintf(a_time, sizeof a_time, "-max_total_time=%d", z->seconds);
    snprintf(a_prefix, sizeof a_prefix, "-artifact_prefix=%s/", z->art_dir);
    snprintf(a_fork, sizeof a_fork, "-fork=%d", z->jobs);
    snprintf(log, sizeof log, "%s/libfuzzer.log", z->workdir);
    snprintf(env_stats, sizeof env_stats, "MALFORM_STATS_DIR=%s", z->stats_dir);
    char *argv[] = {z->bin, a_time, a_prefix, "-max_len=65536", "-timeout=10", "-rss_limit_mb=2048",
                    "-print_final_stats=1", a_fork, "-ignore_crashes=1", "-ignore_ooms=1", "-ignore_timeouts=1",
                    z->corpus, NULL};
    char *env[] = {env_stats, "ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:dedup_token_length=3", NULL};
    int st = run_engine(z, argv, env, log);
    /* -fork keeps the children's reports to itself: name each saved input by running it once */
    DIR *d = opendir(z->art_dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char file[8192];
        snprintf(file, sizeof file, "%s/%s", z->art_dir, e->d_name);
        mf_lc_outcome o;
        bool rep = replay_one(z, file, false, e->d_name, &o);
        add_failure(z, file, &o, rep);
    }
    if (d)
        closedir(d);
    return st;
}

/* AFL++: fuzzer_stats of every instance, plot_data of the main one, crashes/. */
static void afl_collect(fz *z, const char *out)
{
    DIR *d = opendir(out);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char p[4400], cdir[4400];
        if (mf_lc_pathf(p, sizeof p, "%s/%s/fuzzer_stats", out, e->d_name) < 0 ||
            mf_lc_pathf(cdir, sizeof cdir, "%s/%s/crashes", out, e->d_name) < 0)
            continue;
        FILE *f = fopen(p, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            unsigned long long v;
            if (sscanf(line, "execs_done : %llu", &v) == 1)
                z->execs_log += v;
            else if (sscanf(line, "edges_found : %llu", &v) == 1 && (long)v > z->edges)
                z->edges = (long)v;
            else if (sscanf(line, "corpus_count : %llu", &v) == 1)
                z->corp += (long)v;
        }
        if (f)
            fclose(f);
        /* crashes: run each once through the target to name the failure */
        DIR *cd = opendir(cdir);
        for (struct dirent *c; cd && (c = readdir(cd));) {
            if (strncmp(c->d_name, "id:", 3))
                continue;
            char file[8192];
            snprintf(file, sizeof file, "%s/%s", cdir, c->d_name);
            mf_lc_outcome o;
            bool rep = replay_one(z, file, true, "crash", &o);
            add_failure(z, file, &o, rep);
        }
        if (cd)
            closedir(cd);
    }
    if (d)
        closedir(d);
    char plot[4400];
    snprintf(plot, sizeof plot, "%s/main/plot_data", out);
    FILE *f = fopen(plot, "r");
    char line[1024];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long long t, cyc, cur, corpus, pt, pf, total, edges;
        double map, eps;
        if (line[0] == '#' || sscanf(line, "%llu, %llu, %llu, %llu, %llu, %llu, %lf%%, %*u, %*u, %*u, %lf, %llu, %llu",
                                     &t, &cyc, &cur, &corpus, &pt, &pf, &map, &eps, &total, &edges) != 10)
            continue;
        json_array_append_new(z->timeline, json_pack("{s:I,s:I,s:I,s:I}", "t", (json_int_t)t, "execs", (json_int_t)total,
                                                     "coverage", (json_int_t)edges, "corpus", (json_int_t)corpus));
    }
    if (f)
        fclose(f);
}

static int run_afl(fz *z)
{
    char out[4200], so[4200], v[32], log[4300], env_stats[4200], env_mut[4300];
    snprintf(out, sizeof out, "%s/afl", z->workdir);
    snprintf(so, sizeof so, "%s/libmalform_afl_mutator.so", z->build);
    snprintf(v, sizeof v, "%d", z->seconds);
    snprintf(env_stats, sizeof env_stats, "MALFORM_STATS_DIR=%s", z->stats_dir);
    snprintf(env_mut, sizeof env_mut, "AFL_CUSTOM_MUTATOR_LIBRARY=%s", so);
    bool custom = !strcmp(z->target, "structured") && access(so, R_OK) == 0;
    char afl[64] = "/usr/bin/afl-fuzz";
    if (access(afl, X_OK) != 0)
        snprintf(afl, sizeof afl, "/usr/local/bin/afl-fuzz");
    pid_t pids[64];
    int n = z->jobs > 64 ? 64 : z->jobs;
    for (int i = 0; i < n; i++) {
        char role[16], name[16];
        snprintf(role, sizeof role, "%s", i ? "-S" : "-M");
        snprintf(name, sizeof name, i ? "s%d" : "main", i);
        snprintf(log, sizeof log, "%s/afl-%s.log", z->workdir, name);
        pids[i] = fork();
        if (pids[i] == 0) {
            FILE *lf = freopen(log, "w", stdout);
            (void)lf;
            dup2(1, 2);
            set_kv("AFL_NO_UI=1");
            set_kv("AFL_SKIP_CPUFREQ=1");
            set_kv("AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1");
            set_kv("AFL_ALLOW_TMP=1");
            set_kv("AFL_NO_AFFINITY=1");
            set_kv(env_stats);
            if (custom)
                set_kv(env_mut);
            execl(afl, "afl-fuzz", "-V", v, "-i", z->corpus, "-o", out, role, name, "-t", "10000", "--", z->bin,
                  (char *)NULL);
            _exit(127);
        }
    }
    int st = 0;
    for (int i = 0; i < n; i++)
        if (pids[i] > 0)
            waitpid(pids[i], i ? &(int){0} : &st, 0);
    afl_collect(z, out);
    /* grow the working corpus with the main queue */
    char q[4400];
    snprintf(q, sizeof q, "%s/main/queue", out);
    DIR *d = opendir(q);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strncmp(e->d_name, "id:", 3))
            continue;
        char src[8192], dst[8192];
        snprintf(src, sizeof src, "%s/%s", q, e->d_name);
        snprintf(dst, sizeof dst, "%s/afl-%.6s", z->corpus, e->d_name + 3);
        size_t len;
        char *t = access(dst, F_OK) == 0 ? NULL : cli_read_file(src, &len);
        if (t)
            write_file(dst, t, len, NULL, 0);
        free(t);
    }
    if (d)
        closedir(d);
    return st;
}

static const struct option options[] = {
    {"engine", required_argument, NULL, 'e'},  {"target", required_argument, NULL, 't'},
    {"time", required_argument, NULL, 'T'},    {"jobs", required_argument, NULL, 'j'},
    {"workdir", required_argument, NULL, 'w'}, {"corpus", required_argument, NULL, 'c'},
    {"build", required_argument, NULL, 'b'},   {"pipeline", required_argument, NULL, 'P'},
    {"runs", required_argument, NULL, 'r'},    {"seed", required_argument, NULL, 's'},
    {"coverage", no_argument, NULL, 'C'},      {"no-behaviour", no_argument, NULL, 'B'},
    {"min-runs", required_argument, NULL, 'm'}, {"measure-coverage", no_argument, NULL, 'M'}, {0}};
static const cli_cmd cmd = {"fuzz",
                            "--engine libfuzzer|afl --target structured|raw [--time SECONDS] [--jobs N]\n"
                            "--workdir DIR [--corpus DIR] [--build DIR]\n"
                            "malform fuzz --engine blackbox --pipeline NAME --time SECONDS --workdir DIR [--runs N]\n"
                            "[--seed N] [--coverage|--measure-coverage] [--no-behaviour] [--min-runs N] [--corpus SEEDS_DIR]",
                            "Runs one engine on one fuzz target of the fuzz/afl preset build (default --time 60,\n"
                            "--jobs 1) and writes WORKDIR/stats.json. Exit: 0 no failure, 1 failures found, 2 usage\n"
                            "or setup error.\n"
                            "--engine blackbox fuzzes a pipeline under test (malform pipelines; core too) with\n"
                            "malform's own engine: structured cases kept when they show new behaviour (and, with\n"
                            "--coverage, new coverage reported by the worker); minimized findings go to\n"
                            "WORKDIR/findings/. Exit 77: the pipeline is not installed here.\n",
                            "", options};

int cmd_fuzz(int argc, char **argv)
{
    fz z;
    memset(&z, 0, sizeof z);
    z.seconds = 60;
    z.jobs = 1;
    mf_pl_bb_opts bb = {.behaviour = true};
    const char *pipeline = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'e': z.engine = optarg; break;
        case 't': z.target = optarg; break;
        case 'T': if (!cli_int_arg(&cmd, "--time", optarg, 1, 7 * 86400, &z.seconds)) return 2; break;
        case 'j': if (!cli_int_arg(&cmd, "--jobs", optarg, 1, 1024, &z.jobs)) return 2; break;
        case 'w': z.workdir = optarg; break;
        case 'c': z.corpus_arg = optarg; break;
        case 'b': z.build = optarg; break;
        case 'P': pipeline = optarg; break;
        case 'r': bb.max_execs = atol(optarg); break;
        case 's': bb.seed = strtoull(optarg, NULL, 10); break;
        case 'C': bb.coverage = true; break;
        case 'B': bb.behaviour = false; break;
        case 'M': bb.measure_coverage = true; break;
        case 'm': if (!cli_int_arg(&cmd, "--min-runs", optarg, 1, 100000, &bb.min_runs)) return 2; break;
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    if ((z.engine && !strcmp(z.engine, "blackbox")) || (pipeline && strcmp(pipeline, "core"))) {
        if (z.engine && strcmp(z.engine, "blackbox"))
            return cli_usage_error(&cmd, "a pipeline other than core runs under --engine blackbox only");
        if (!pipeline || !z.workdir)
            return cli_usage_error(&cmd, "--engine blackbox needs --pipeline and --workdir");
        if (!bb.behaviour && !bb.coverage)
            return cli_usage_error(&cmd, "--no-behaviour needs --coverage");
        bb.workdir = z.workdir;
        bb.seconds = z.seconds;
        bb.seeds_dir = z.corpus_arg;
        return mf_pl_fuzz_run(pipeline, &bb);
    }
    if (!z.engine || (strcmp(z.engine, "libfuzzer") && strcmp(z.engine, "afl")))
        return cli_usage_error(&cmd, "--engine is libfuzzer or afl");
    if (!z.target || (strcmp(z.target, "structured") && strcmp(z.target, "raw")))
        return cli_usage_error(&cmd, "--target is structured or raw");
    if (!z.workdir)
        return cli_usage_error(&cmd, "--workdir is required");
    bool lf = !strcmp(z.engine, "libfuzzer");
    const char *preset = lf ? "fuzz" : "afl";
    snprintf(z.root, sizeof z.root, "%s", getenv("MALFORM_ROOT") ? getenv("MALFORM_ROOT") : MF_SOURCE_ROOT);
    char build[4096];
    snprintf(build, sizeof build, "%s", z.build ? z.build : "");
    if (!z.build)
        snprintf(build, sizeof build, "%s/build/%s", z.root, preset);
    z.build = build;
    if (mf_lc_pathf(z.bin, sizeof z.bin, "%s/%s_%s", z.build, lf ? "fuzz" : "afl", z.target) < 0) {
        fprintf(stderr, "malform fuzz: build directory path too long: %s\n", z.build);
        return 2;
    }
    if (access(z.bin, X_OK) != 0) {
        fprintf(stderr, "malform fuzz: %s not found: build the '%s' preset first:\n"
                        "  cmake --preset %s && cmake --build --preset %s\n", z.bin, preset, preset, preset);
        return 2;
    }
    if (mkdirs(z.workdir) < 0) {
        fprintf(stderr, "malform fuzz: cannot create %s: %s\n", z.workdir, strerror(errno));
        return 2;
    }
    snprintf(z.corpus, sizeof z.corpus, "%s", z.corpus_arg ? z.corpus_arg : "");
    if (!z.corpus_arg)
        snprintf(z.corpus, sizeof z.corpus, "%s/corpus", z.workdir);
    snprintf(z.stats_dir, sizeof z.stats_dir, "%s/stats", z.workdir);
    snprintf(z.art_dir, sizeof z.art_dir, "%s/artifacts", z.workdir);
    if (mkdirs(z.corpus) < 0 || mkdirs(z.stats_dir) < 0 || mkdirs(z.art_dir) < 0) {
        fprintf(stderr, "malform fuzz: cannot create the work directories under %s\n", z.workdir);
        return 2;
    }
    /* stale dumps from an earlier run would be summed in */
    DIR *d = opendir(z.stats_dir);
    for (struct dirent *e; d && (e = readdir(d));)
        if (!strncmp(e->d_name, "stats-", 6)) {
            char p[4400];
            snprintf(p, sizeof p, "%s/%s", z.stats_dir, e->d_name);
            unlink(p);
        }
    if (d)
        closedir(d);
    seed_corpus(&z);
    z.timeline = json_array();
    z.failures = json_array();
    z.t0 = now();
    printf("malform fuzz: %s %s for %ds, %d job(s), workdir %s\n", z.engine, z.target, z.seconds, z.jobs, z.workdir);
    fflush(stdout);
    int st = lf ? run_libfuzzer(&z) : run_afl(&z);
    double secs = now() - z.t0;
    json_t *doc = json_object();
    unsigned long long execs = merge_stats(&z, doc);
    if (!execs)
        execs = z.execs_log;
    json_object_set_new(doc, "engine", json_string(z.engine));
    json_object_set_new(doc, "target", json_string(z.target));
    json_object_set_new(doc, "seconds", json_real(secs));
    json_object_set_new(doc, "execs", json_integer((json_int_t)execs));
    json_object_set_new(doc, "execs_per_sec", json_real(secs > 0 ? execs / secs : 0));
    json_object_set_new(doc, "coverage", lf ? json_pack("{s:I,s:I}", "edges", (json_int_t)z.edges, "features",
                                                        (json_int_t)z.features)
                                            : json_pack("{s:I}", "edges", (json_int_t)z.edges));
    json_object_set_new(doc, "failures", z.failures);
    json_object_set_new(doc, "timeline", z.timeline);
    json_object_set_new(doc, "engine_exit", json_integer(WIFEXITED(st) ? WEXITSTATUS(st) : -1));
    char out[4200];
    snprintf(out, sizeof out, "%s/stats.json", z.workdir);
    if (json_dump_file(doc, out, JSON_INDENT(2) | JSON_SORT_KEYS) != 0) {
        fprintf(stderr, "malform fuzz: cannot write %s\n", out);
        json_decref(doc);
        return 2;
    }
    size_t nf = json_array_size(json_object_get(doc, "failures"));
    printf("malform fuzz: %llu execs in %.0fs (%.0f/s), %zu rules fired, %zu distinct failures -> %s\n", execs, secs,
           secs > 0 ? execs / secs : 0, json_object_size(json_object_get(doc, "rules_fired")), nf, out);
    json_decref(doc);
    return nf ? 1 : 0;
}
