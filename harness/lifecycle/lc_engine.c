/* lc_engine.c - run one engine on one target for a time budget and write
 * WORKDIR/stats.json (what `malform fuzz` does).
 *
 * The targets come from the preset build trees (build/fuzz for libFuzzer,
 * build/afl for AFL++; --build overrides). The working corpus (--corpus, or
 * WORKDIR/corpus) is seeded when empty from corpus/cases and from every
 * clean artifact of corpus/seeds/<profile>/ as a zero-op case (the raw target
 * gets the rendered outputs, each naming its profile: raw_input.h). The engine's output
 * is read live: libFuzzer status lines give the timeline and coverage; for
 * AFL++ they come from fuzzer_stats and plot_data. Every saved failing input
 * (libFuzzer's artifacts, AFL++'s crashes/) is run once more the way triage
 * runs it, and its failure signature is the lifecycle's (mf_lc_classify), so
 * that campaign failures and regression entries share one signature. Rule,
 * op and verdict counts are the targets' own dumps
 * (MALFORM_STATS_DIR=WORKDIR/stats), summed over every process (lc_stats.c).
 * Progress (execs, edges, saved failures) is reported every few seconds. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lc_engine.h"
#include "lc_proc.h"
#include "lc_stats.h"
#include "lifecycle.h"
#ifdef HAVE_MALFORM_HARNESS
#include "harness.h"
#include "raw_input.h"
#endif

#ifndef MF_SOURCE_ROOT
#define MF_SOURCE_ROOT "."
#endif

typedef struct {
    const mf_lc_engine_opts *o;
    const char *engine, *target, *workdir;
    int seconds, jobs;
    char root[2048], build[4096], bin[4096], corpus[4096], stats_dir[4096], art_dir[4096], find_dir[4096];
    json_t *timeline, *failures;
    unsigned long long execs_log;
    long edges, features, corp;
    double t0, last_progress;
    int findings;
} fz;

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

#ifdef HAVE_MALFORM_HARNESS
/* A raw target input (raw_input.h) naming its profile; 1 written. */
static int write_raw(const char *path, const char *profile, const void *text, size_t len)
{
    size_t n;
    uint8_t *data = mf_raw_input_encode(profile, text, len, &n);
    int ok = data && write_file(path, data, n, NULL, 0) == 0;
    free(data);
    return ok;
}
#endif

#ifdef HAVE_MALFORM_HARNESS
/* Every *.case of dir into the corpus (rendered as a raw input naming its
 * profile for the raw target), named seed-<tag><file>. */
static size_t seed_cases(fz *z, const char *dir, const char *tag)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strstr(e->d_name, ".case"))
            continue;
        char src[8192], dst[8192];
        snprintf(src, sizeof src, "%s/%s", dir, e->d_name);
        size_t len;
        char *text = mf_lc_read(src, &len);
        if (!text)
            continue;
        snprintf(dst, sizeof dst, "%s/seed-%s%s", z->corpus, tag, e->d_name);
        if (!strcmp(z->target, "structured")) {
            n += write_file(dst, text, len, NULL, 0) == 0;
        } else {
            char err[128];
            mf_case *c = mf_case_decode(text, len, err, sizeof err);
            mf_render r;
            if (c && mf_case_render(c, &r) == 0) {
                n += write_raw(dst, r.profile ? r.profile->name : NULL, r.raw, r.raw_len);
            }
            if (c)
                mf_render_free(&r);
            mf_case_free(c);
        }
        free(text);
    }
    if (d)
        closedir(d);
    return n;
}
#endif

/* Seed an empty working corpus from corpus/cases, the op fixtures
 * (tests/fixtures/ops/<op>/: every op at a site where it applies, with the
 * runtime options its rules need) and the clean artifacts of corpus/seeds. */
static void seed_corpus(fz *z)
{
    if (!dir_empty(z->corpus))
        return;
    size_t n = 0;
#ifdef HAVE_MALFORM_HARNESS
    char cases[4200];
    snprintf(cases, sizeof cases, "%s/corpus/cases", z->root);
    n += seed_cases(z, cases, "");
    char ops[4200];
    snprintf(ops, sizeof ops, "%s/tests/fixtures/ops", z->root);
    DIR *od = opendir(ops);
    for (struct dirent *oe; od && (oe = readdir(od));) {
        char dir[8192], tag[300];
        if (oe->d_name[0] == '.')
            continue;
        snprintf(dir, sizeof dir, "%s/%s", ops, oe->d_name);
        snprintf(tag, sizeof tag, "op-%.200s-", oe->d_name);
        n += seed_cases(z, dir, tag);
    }
    if (od)
        closedir(od);
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
            char *art = fe->d_name[0] == '.' ? NULL : mf_lc_read(src, &len);
            mf_case *c = art ? mf_case_new(p->name, art, len) : NULL;
            size_t clen;
            char *text = c ? mf_case_encode(c, &clen) : NULL;
            snprintf(dst, sizeof dst, "%s/seed-%s-%s", z->corpus, p->name, fe->d_name);
            if (text && !strcmp(z->target, "structured")) {
                n += write_file(dst, text, clen, NULL, 0) == 0;
            } else if (art) {
                n += write_raw(dst, p->name, art, len);
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
#endif
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
static void lf_line(void *ctx, const char *line)
{
    fz *z = ctx;
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
        double t = mf_lc_clock() - z->t0;
        size_t n = json_array_size(z->timeline);
        json_t *last = n ? json_array_get(z->timeline, n - 1) : NULL;
        if (!last || t - json_real_value(json_object_get(last, "t")) >= 1.0)
            json_array_append_new(z->timeline, json_pack("{s:f,s:I,s:I,s:I,s:I,s:I}", "t", t, "execs", (json_int_t)ex,
                                                         "coverage", (json_int_t)z->features, "edges",
                                                         (json_int_t)z->edges, "features", (json_int_t)z->features,
                                                         "corpus", (json_int_t)z->corp));
    }
}

static int count_entries(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.' && !strncmp(e->d_name, prefix, strlen(prefix));
    if (d)
        closedir(d);
    return n;
}

/* AFL++: execs, edges and saved crashes of every instance so far (fuzzer_stats). */
static void afl_read_stats(fz *z, const char *out, bool collecting)
{
    DIR *d = opendir(out);
    unsigned long long execs = 0;
    long edges = 0, corp = 0;
    int crashes = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[4400];
        if (e->d_name[0] == '.' || mf_lc_pathf(p, sizeof p, "%s/%s/fuzzer_stats", out, e->d_name) < 0)
            continue;
        FILE *f = fopen(p, "r");
        char line[512];
        while (f && fgets(line, sizeof line, f)) {
            unsigned long long v;
            if (sscanf(line, "execs_done : %llu", &v) == 1)
                execs += v;
            else if (sscanf(line, "edges_found : %llu", &v) == 1 && (long)v > edges)
                edges = (long)v;
            else if (sscanf(line, "corpus_count : %llu", &v) == 1)
                corp += (long)v;
            else if (sscanf(line, "saved_crashes : %llu", &v) == 1 || sscanf(line, "unique_crashes : %llu", &v) == 1)
                crashes += (int)v;
        }
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    z->findings = crashes;
    if (collecting) {
        z->execs_log += execs;
        if (edges > z->edges)
            z->edges = edges;
        z->corp += corp;
    } else {
        z->execs_log = execs;
        z->edges = edges;
    }
}

/* Every few seconds: where the run stands, to the caller. */
static void progress_tick(void *ctx)
{
    fz *z = ctx;
    double t = mf_lc_clock();
    double every = z->o->progress_every > 0 ? z->o->progress_every : 5;
    if (!z->o->on_progress || t - z->last_progress < every)
        return;
    z->last_progress = t;
    if (!strcmp(z->engine, "libfuzzer")) {
        z->findings = count_entries(z->art_dir, "") + count_entries(z->find_dir, "");
    } else {
        char out[4200];
        snprintf(out, sizeof out, "%s/afl", z->workdir);
        afl_read_stats(z, out, false);
        z->findings += count_entries(z->find_dir, "");
    }
    /* the targets' own counters (dumped about once a second) are fresher than fuzzer_stats */
    json_t *acc = json_object();
    mf_lc_stats_sum_dir(acc, z->stats_dir, "stats-", ".json", 0);
    unsigned long long dumped = (unsigned long long)json_integer_value(json_object_get(acc, "execs"));
    json_decref(acc);
    mf_lc_engine_progress p = {t - z->t0, dumped > z->execs_log ? dumped : z->execs_log, z->edges, z->findings};
    z->o->on_progress(z->o->ctx, &p);
}

static bool engine_stop(void *ctx)
{
    fz *z = ctx;
    return z->o->stop && z->o->stop(z->o->ctx);
}

/* Run argv with extra environment, stdout+stderr to log and to lf_line. */
static int run_engine(fz *z, char **argv, char **env, const char *log)
{
    mf_lc_proc p = {.argv = argv, .env = env, .log = log, .log_truncate = true, .on_line = lf_line,
                    .tick = progress_tick, .stop = engine_stop, .grace = 15, .ctx = z};
    return mf_lc_proc_run(&p);
}

/* Sum the targets' dumps into doc; the execs they counted. */
static unsigned long long merge_stats(fz *z, json_t *doc)
{
    json_t *acc = json_pack("{s:I, s:{}, s:{}, s:{}}", "execs", (json_int_t)0, "rules_fired", "ops_applied", "verdicts");
    mf_lc_stats_sum_dir(acc, z->stats_dir, "stats-", ".json", 0);
    json_object_set(doc, "rules_fired", json_object_get(acc, "rules_fired"));
    json_object_set(doc, "ops_applied", json_object_get(acc, "ops_applied"));
    json_object_set(doc, "verdicts", json_object_get(acc, "verdicts"));
    json_object_set_new(doc, "known_findings", json_integer(json_integer_value(json_object_get(acc, "known_findings"))));
    json_object_set_new(doc, "findings_recorded", json_integer(json_integer_value(json_object_get(acc, "findings"))));
    json_object_set_new(doc, "valid_renders", json_integer(json_integer_value(json_object_get(acc, "valid_renders"))));
    unsigned long long execs = (unsigned long long)json_integer_value(json_object_get(acc, "execs"));
    json_decref(acc);
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

/* The failures the targets recorded themselves (WORKDIR/findings, see
 * harness/lib/finding.h): each entry's signature is already the lifecycle's. */
static void collect_findings(fz *z)
{
    size_t n;
    char **paths = mf_lc_entry_list(z->find_dir, &n);
    for (size_t i = 0; paths && i < n; i++) {
        mf_lc_entry e;
        char err[200];
        if (mf_lc_entry_read(paths[i], &e, err, sizeof err) < 0)
            continue;
        mf_lc_outcome o;
        const char *rules = strstr(e.signature, " rules="), *ops = strstr(e.signature, " ops=");
        if (!strcmp(e.kind, "oracle") && e.oracle && rules && ops && ops > rules) {
            /* the oracle line the target printed, classified again: the same outcome */
            char line[2048];
            snprintf(line, sizeof line, "malform-oracle: %s profile=%s ops=%s rules=%.*s: %s\n", e.oracle,
                     e.profile ? e.profile : "-", ops + 5, (int)(ops - rules - 7), rules + 7, e.detail ? e.detail : "");
            mf_lc_classify(line, strlen(line), 0, false, &o);
            snprintf(o.sig, sizeof o.sig, "%s", e.signature);
        } else {
            memset(&o, 0, sizeof o);
            o.kind = mf_lc_kind_parse(e.kind) > 0 ? (mf_lc_kind)mf_lc_kind_parse(e.kind) : MF_LC_CRASH;
            snprintf(o.sig, sizeof o.sig, "%s", e.signature);
        }
        add_failure(z, paths[i], &o, true);
        mf_lc_entry_free(&e);
    }
    mf_lc_paths_free(paths);
}

/* One job: in process (no -fork: its children restart every few seconds and
 * their merges re-execute the corpus; the targets record oracle findings and
 * go on, so only a sanitizer crash ends a run), restarted on the same corpus
 * for the time left when a crash ends it early. Several jobs: -fork. */
static int run_libfuzzer(fz *z)
{
    char a_time[32], a_prefix[4200], a_fork[32], log[4200], env_stats[4200], env_find[4200];
    snprintf(a_prefix, sizeof a_prefix, "-artifact_prefix=%s/", z->art_dir);
    snprintf(a_fork, sizeof a_fork, "-fork=%d", z->jobs);
    snprintf(log, sizeof log, "%s/libfuzzer.log", z->workdir);
    snprintf(env_stats, sizeof env_stats, "MALFORM_STATS_DIR=%s", z->stats_dir);
    snprintf(env_find, sizeof env_find, "MALFORM_FINDINGS_DIR=%s", z->find_dir);
    /* No allocation stacks while fuzzing (AFL++'s default too; -5% per exec
     * measured): a crash's signature is its own stack, and every saved input
     * is replayed below with full stacks (mf_lc_sanitizer_env). Leaks stay on. */
    char *env[] = {env_stats, env_find, "ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:dedup_token_length=3:malloc_context_size=0",
                   NULL};
    int st = 0;
    if (z->jobs > 1) {
        snprintf(a_time, sizeof a_time, "-max_total_time=%d", z->seconds);
        char *argv[] = {z->bin, a_time, a_prefix, "-max_len=65536", "-timeout=10", "-rss_limit_mb=2048",
                        "-print_final_stats=1", a_fork, "-ignore_crashes=1", "-ignore_ooms=1", "-ignore_timeouts=1",
                        z->corpus, NULL};
        st = run_engine(z, argv, env, log);
    } else {
        unsigned long long execs_before = 0;
        for (int round = 0; round < 50; round++) {
            int left = z->seconds - (int)(mf_lc_clock() - z->t0);
            if (left < 2 || (round && engine_stop(z)))
                break;
            snprintf(a_time, sizeof a_time, "-max_total_time=%d", left);
            /* structured: edges only, no hit-count buckets - the custom mutator makes the
             * variety, and the buckets' features (5x the edges) cost a third of every exec
             * in libFuzzer's bookkeeping and bloat the corpus with near-duplicates */
            bool structured = !strcmp(z->target, "structured");
            char *argv[] = {z->bin, a_time, a_prefix, "-max_len=65536", "-timeout=10", "-rss_limit_mb=2048",
                            "-print_final_stats=1", "-reload=0", structured ? "-use_counters=0" : "-use_counters=1",
                            z->corpus, NULL};
            z->execs_log = 0;
            double t = mf_lc_clock();
            st = run_engine(z, argv, env, log);
            execs_before += z->execs_log;
            if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
                break;
            if (mf_lc_clock() - t < 1.0)
                break;   /* it fails on the corpus itself: no use restarting */
        }
        z->execs_log = execs_before;
    }
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
    afl_read_stats(z, out, true);
    DIR *d = opendir(out);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char cdir[4400];
        if (mf_lc_pathf(cdir, sizeof cdir, "%s/%s/crashes", out, e->d_name) < 0)
            continue;
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
        json_array_append_new(z->timeline, json_pack("{s:I,s:I,s:I,s:I,s:I}", "t", (json_int_t)t, "execs",
                                                     (json_int_t)total, "coverage", (json_int_t)edges, "edges",
                                                     (json_int_t)edges, "corpus", (json_int_t)corpus));
    }
    if (f)
        fclose(f);
}

static int run_afl(fz *z)
{
    char out[4200], so[4200], v[32], env_stats[4200], env_mut[4300], env_find[4200];
    snprintf(out, sizeof out, "%s/afl", z->workdir);
    snprintf(so, sizeof so, "%s/libmalform_afl_mutator.so", z->build);
    snprintf(v, sizeof v, "%d", z->seconds);
    snprintf(env_stats, sizeof env_stats, "MALFORM_STATS_DIR=%s", z->stats_dir);
    snprintf(env_mut, sizeof env_mut, "AFL_CUSTOM_MUTATOR_LIBRARY=%s", so);
    snprintf(env_find, sizeof env_find, "MALFORM_FINDINGS_DIR=%s", z->find_dir);
    bool custom = !strcmp(z->target, "structured") && access(so, R_OK) == 0;
    char afl[64] = "/usr/bin/afl-fuzz";
    if (access(afl, X_OK) != 0)
        snprintf(afl, sizeof afl, "/usr/local/bin/afl-fuzz");
    mf_lc_proc procs[64];
    bool started[64];
    char logs[64][4300];
    char *env[] = {"AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1", "AFL_ALLOW_TMP=1",
                   "AFL_NO_AFFINITY=1", env_stats, env_find, custom ? env_mut : NULL, NULL};
    char names[64][16];
    int n = z->jobs > 64 ? 64 : z->jobs;
    for (int i = 0; i < n; i++) {
        snprintf(names[i], sizeof names[i], i ? "s%d" : "main", i);
        snprintf(logs[i], sizeof logs[i], "%s/afl-%s.log", z->workdir, names[i]);
        char *argv[] = {afl, "-V", v, "-i", z->corpus, "-o", out, i ? "-S" : "-M", names[i], "-t", "10000", "--",
                        z->bin, NULL};
        procs[i] = (mf_lc_proc){.argv = argv, .env = env, .log = logs[i], .log_truncate = true,
                                .tick = i ? NULL : progress_tick, .stop = engine_stop, .grace = 15, .ctx = z};
        started[i] = mf_lc_proc_start(&procs[i]) == 0;
    }
    int st = -1;   /* the main instance's wait status */
    for (int i = 0; i < n; i++)
        if (started[i]) {
            int s = mf_lc_proc_wait(&procs[i]);
            if (i == 0)
                st = s;
        }
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
        char *t = access(dst, F_OK) == 0 ? NULL : mf_lc_read(src, &len);
        if (t)
            write_file(dst, t, len, NULL, 0);
        free(t);
    }
    if (d)
        closedir(d);
    return st;
}

int mf_lc_engine_binary(const char *build, const char *engine, const char *target, char *out, size_t n)
{
    return mf_lc_pathf(out, n, "%s/%s_%s", build, strcmp(engine, "libfuzzer") ? "afl" : "fuzz", target);
}

const char *mf_lc_engine_preset(const char *engine)
{
    return strcmp(engine, "libfuzzer") ? "afl" : "fuzz";
}

void mf_lc_engine_progress_format(const mf_lc_engine_progress *p, char *out, size_t n)
{
    snprintf(out, n, "progress: %.0fs, %llu execs (%.0f/s), %ld edges, %d findings", p->seconds, p->execs,
             p->seconds > 0 ? (double)p->execs / p->seconds : 0.0, p->edges, p->findings);
}

bool mf_lc_engine_progress_parse(const char *line, mf_lc_engine_progress *p)
{
    const char *at = strstr(line, "progress: ");
    double rate;
    return at && sscanf(at, "progress: %lfs, %llu execs (%lf/s), %ld edges, %d findings", &p->seconds, &p->execs,
                        &rate, &p->edges, &p->findings) == 5;
}

#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

int mf_lc_engine_run(const mf_lc_engine_opts *o, json_t **stats, char *err, size_t errlen)
{
    if (stats)
        *stats = NULL;
    fz z;
    memset(&z, 0, sizeof z);
    z.o = o;
    z.engine = o->engine;
    z.target = o->target;
    z.workdir = o->workdir;
    z.seconds = o->seconds > 0 ? o->seconds : 60;
    z.jobs = o->jobs > 0 ? o->jobs : 1;
    if (!z.engine || (strcmp(z.engine, "libfuzzer") && strcmp(z.engine, "afl")))
        return FAIL("engine is libfuzzer or afl");
    if (!z.target || (strcmp(z.target, "structured") && strcmp(z.target, "raw")))
        return FAIL("target is structured or raw");
    if (!z.workdir)
        return FAIL("no work directory");
    bool lf = !strcmp(z.engine, "libfuzzer");
    const char *preset = mf_lc_engine_preset(z.engine);
    if (o->root)
        snprintf(z.root, sizeof z.root, "%s", o->root);
    else
        snprintf(z.root, sizeof z.root, "%s", getenv("MALFORM_ROOT") ? getenv("MALFORM_ROOT") : MF_SOURCE_ROOT);
    if (mf_lc_pathf(z.build, sizeof z.build, "%s", o->build ? o->build : "") < 0 ||
        (!o->build && mf_lc_pathf(z.build, sizeof z.build, "%s/build/%s", z.root, preset) < 0) ||
        mf_lc_engine_binary(z.build, z.engine, z.target, z.bin, sizeof z.bin) < 0)
        return FAIL("build directory path too long: %s", o->build ? o->build : z.root);
    if (access(z.bin, X_OK) != 0)
        return FAIL("%s not found: build the '%s' preset first:\n  cmake --preset %s && cmake --build --preset %s",
                    z.bin, preset, preset, preset);
    if (mf_lc_mkdirs(z.workdir) < 0)
        return FAIL("cannot create %s: %s", z.workdir, strerror(errno));
    if (mf_lc_pathf(z.corpus, sizeof z.corpus, "%s", o->corpus ? o->corpus : "") < 0 ||
        (!o->corpus && mf_lc_pathf(z.corpus, sizeof z.corpus, "%s/corpus", z.workdir) < 0) ||
        mf_lc_pathf(z.stats_dir, sizeof z.stats_dir, "%s/stats", z.workdir) < 0 ||
        mf_lc_pathf(z.art_dir, sizeof z.art_dir, "%s/artifacts", z.workdir) < 0 ||
        mf_lc_pathf(z.find_dir, sizeof z.find_dir, "%s/findings", z.workdir) < 0)
        return FAIL("work directory path too long: %s", z.workdir);
    if (mf_lc_mkdirs(z.corpus) < 0 || mf_lc_mkdirs(z.stats_dir) < 0 || mf_lc_mkdirs(z.art_dir) < 0 ||
        mf_lc_mkdirs(z.find_dir) < 0)
        return FAIL("cannot create the work directories under %s: %s", z.workdir, strerror(errno));
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
    z.t0 = z.last_progress = mf_lc_clock();
    int st = lf ? run_libfuzzer(&z) : run_afl(&z);
    collect_findings(&z);
    double secs = mf_lc_clock() - z.t0;
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
    json_object_set_new(doc, "engine_exit", json_integer(st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1));
    char out[4200];
    snprintf(out, sizeof out, "%s/stats.json", z.workdir);
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
    if (!text || mf_lc_write_atomic(out, text, strlen(text)) < 0) {
        free(text);
        json_decref(doc);
        return FAIL("cannot write %s: %s", out, strerror(errno));
    }
    free(text);
    if (stats)
        *stats = doc;
    else
        json_decref(doc);
    return 0;
}
