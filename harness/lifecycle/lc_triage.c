/* lc_triage.c - from what the engines saved to new regression entries.
 *
 * 1. collect: libFuzzer's crash-*, timeout-*, oom-*, leak-* files (wherever
 *    -artifact_prefix put them under the work dir), every AFL++ instance's
 *    crashes/ and hangs/ (id:* files) and the entries the targets recorded
 *    themselves in findings/ (their payload is the input);
 * 2. which target: the nearest stats.json ("target") or AFL++ fuzzer_stats
 *    (command_line), else the content (a structured case or raw bytes);
 * 3. reproduce: run each input `repeats` times in a child; all runs with the
 *    same failure -> reproducible, mixed -> flaky (reported, not written),
 *    none -> not reproduced;
 * 4. dedupe the signature against corpus/regression (signature and
 *    original-signature of every open entry) and against this run; an input
 *    that fails with the signature of a *fixed* entry is that bug back (or a
 *    sibling the fix missed): it goes on, and its entry (open, named like the
 *    fixed one plus "-r" and a hash of the input) says which entry regressed;
 * 5. minimize: structure-aware for cases, delta debugging plus the engine's
 *    byte minimizer (libFuzzer -minimize_crash=1, afl-tmin) for raw inputs,
 *    always re-checking the failure; original and minimized are kept under
 *    WORKDIR/triage/<slug>/ (or the out_dir option);
 * 6. dedupe the minimized signature again and create the entry (link(), so a
 *    concurrent triage of the same bug loses cleanly and nothing is
 *    overwritten). WORKDIR/triage/triage.json lists every input's fate. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include "lifecycle.h"
#include "lc_eval.h"

volatile int mf_lc_stop;

typedef struct {
    char path[PATH_MAX];
    const char *engine;   /* "libfuzzer" or "afl" */
    const char *hint;     /* what the engine said: crash, timeout, oom, leak */
} found_input;

typedef struct {
    found_input *v;
    size_t n, cap;
} found_list;

static void add_found(found_list *l, const char *path, const char *engine, const char *hint)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 32;
        found_input *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv)
            return;
        l->v = nv;
        l->cap = cap;
    }
    found_input *f = &l->v[l->n++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->engine = engine;
    f->hint = hint;
}

static int cmp_found(const void *a, const void *b)
{
    return strcmp(((const found_input *)a)->path, ((const found_input *)b)->path);
}

/* The engine a recorded finding names in its header. */
static const char *finding_engine(const char *path)
{
    static const char *engines[] = {"libfuzzer", "afl", "blackbox"};
    char head[2048] = "";
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
    head[n] = '\0';
    if (f)
        fclose(f);
    for (size_t i = 0; i < sizeof engines / sizeof *engines; i++) {
        char key[32];
        snprintf(key, sizeof key, "\nengine: %s\n", engines[i]);
        if (strstr(head, key))
            return engines[i];
    }
    return "finding";
}

/* Walk dir; in_afl: "crashes" or "hangs" when inside such a directory. */
static void collect(const char *dir, int depth, const char *in_afl, found_list *out)
{
    DIR *d = depth < 8 ? opendir(dir) : NULL;
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        const char *nm = de->d_name;
        if (nm[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, nm);
        struct stat st;
        if (lstat(path, &st) < 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            /* Our own output and the corpora hold no failures. */
            if (!strcmp(nm, "triage") || !strcmp(nm, "queue") || !strcmp(nm, "corpus") || !strcmp(nm, "report"))
                continue;
            const char *afl = !strcmp(nm, "crashes") ? "crash" : !strcmp(nm, "hangs") ? "timeout"
                              : !strcmp(nm, "findings") ? "finding" : NULL;
            collect(path, depth + 1, afl, out);
            continue;
        }
        if (!S_ISREG(st.st_mode))
            continue;
        if (in_afl && !strcmp(in_afl, "finding")) {   /* recorded by a target itself (harness/lib/finding.h) */
            size_t l = strlen(nm);
            if (nm[0] != '.' && l > 5 && (!strcmp(nm + l - 5, ".case") || !strcmp(nm + l - 4, ".raw")))
                add_found(out, path, finding_engine(path), "finding");
            continue;
        }
        if (in_afl) {
            if (!strncmp(nm, "id:", 3) || !strncmp(nm, "id_", 3))
                add_found(out, path, "afl", in_afl);
            continue;
        }
        static const struct { const char *prefix, *hint; } kinds[] = {
            {"crash-", "crash"}, {"timeout-", "timeout"}, {"oom-", "oom"}, {"leak-", "leak"}};
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
            if (!strncmp(nm, kinds[i].prefix, strlen(kinds[i].prefix)))
                add_found(out, path, "libfuzzer", kinds[i].hint);
    }
    closedir(d);
}

/* The target named by the nearest stats.json or AFL++ fuzzer_stats between
 * the input and the work dir. */
static bool target_from_stats(const char *file, const char *workdir, char *out, size_t n)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", file);
    size_t wl = strlen(workdir);
    for (;;) {
        char *slash = strrchr(dir, '/');
        if (!slash || (size_t)(slash - dir) < wl)
            break;
        *slash = '\0';
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/stats.json", dir);
        json_t *j = json_load_file(p, 0, NULL);
        const char *t = json_string_value(json_object_get(j, "target"));
        if (t) {
            snprintf(out, n, "%s", t);
            json_decref(j);
            return true;
        }
        json_decref(j);
        snprintf(p, sizeof p, "%s/fuzzer_stats", dir);
        char *fs = mf_lc_read(p, NULL);
        char *cl = fs ? strstr(fs, "command_line") : NULL;
        if (cl) {
            char *nl = strchr(cl, '\n');
            if (nl)
                *nl = '\0';
            char *f = strstr(cl, "/afl_");
            if (f) {
                size_t k = 0;
                f += 5;
                while (f[k] && f[k] != ' ' && f[k] != '/' && f[k] != '.' && f[k] != '@' && k + 1 < n)
                    k++;
                snprintf(out, n, "%.*s", (int)k, f);
                free(fs);
                return k > 0;
            }
        }
        free(fs);
    }
    return false;
}

static bool is_case(const void *data, size_t len)
{
    return len >= 13 && !memcmp(data, "malform-case ", 13);
}

/* Signature -> entry path of the open entries (the known bugs: a
 * duplicate); *fixed gets those of the fixed ones (a regression). */
static json_t *load_known(const char *regdir, json_t **fixed)
{
    json_t *known = json_object();
    *fixed = json_object();
    size_t n;
    char **paths = mf_lc_entry_list(regdir, &n);
    for (size_t i = 0; paths && i < n; i++) {
        mf_lc_entry e;
        char err[200];
        if (mf_lc_entry_read(paths[i], &e, err, sizeof err) < 0)
            continue;
        json_t *to = e.status && !strcmp(e.status, "fixed") ? *fixed : known;
        json_object_set_new(to, e.signature, json_string(paths[i]));
        if (e.original_signature && *e.original_signature)
            json_object_set_new(to, e.original_signature, json_string(paths[i]));
        mf_lc_entry_free(&e);
    }
    mf_lc_paths_free(paths);
    return known;
}

/* The entry slug of a regression of a fixed entry: the signature's slug plus
 * "-r" and a hash of the input, so the fixed entry is never overwritten. */
static void regression_slug(const char *sig, const uint8_t *data, size_t len, char *out, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++)
        h = (h ^ data[i]) * 16777619u;
    char base[160];
    mf_lc_slug(sig, base, sizeof base);
    snprintf(out, n, "%.140s-r%08x", base, h);
}

static void save_file(const char *path, const void *data, size_t len)
{
    if (mf_lc_write_atomic(path, data, len) < 0)
        fprintf(stderr, "malform triage: cannot write %s: %s\n", path, strerror(errno));
}

/* The engine's byte minimizer on top of ours; the result must still fail
 * the same way. Returns a new buffer or NULL. */
static uint8_t *engine_minimize(const char *bin, bool libfuzzer, const char *tmpdir, mf_lc_minctx *m,
                                const uint8_t *data, size_t len, size_t *out_len, const char **used)
{
    char in[PATH_MAX], out[PATH_MAX + 8], exact[PATH_MAX + 32];
    mf_lc_pathf(in, sizeof in, "%s/engine-min-in", tmpdir);
    mf_lc_pathf(out, sizeof out, "%s/engine-min-out", tmpdir);
    snprintf(exact, sizeof exact, "-exact_artifact_path=%s", out);
    if (mf_lc_write_atomic(in, data, len) < 0)
        return NULL;
    unlink(out);
    char *lf_argv[] = {(char *)bin, "-minimize_crash=1", "-runs=4000", "-max_total_time=15", exact, in, NULL};
    char *tmin_argv[] = {"afl-tmin", "-i", in, "-o", out, "-t", "2000", "--", (char *)bin, "@@", NULL};
    mf_lc_runner r = {.argv = libfuzzer ? lf_argv : tmin_argv, .timeout_sec = 90, .tmpdir = tmpdir,
                      .afl_env = !libfuzzer};
    mf_lc_outcome o;
    mf_lc_run_path(&r, NULL, &o, NULL);   /* argv already names the input */
    *used = libfuzzer ? "libfuzzer -minimize_crash=1" : "afl-tmin";
    size_t n;
    char *res = mf_lc_read(out, &n);
    unlink(in);
    unlink(out);
    if (!res || n == 0 || n >= len) {
        free(res);
        return NULL;
    }
    mf_lc_outcome chk;
    mf_lc_run(m->runner, res, n, &chk, NULL);
    m->runs++;
    if (!mf_lc_still_fails(m->orig, &chk)) {
        free(res);
        return NULL;
    }
    m->last = chk;
    *out_len = n;
    return (uint8_t *)res;
}

/* An AFL++-instrumented build of target for afl-tmin, if there is one. */
static bool afl_binary(const char *root, const char *target, char *out, size_t n)
{
    mf_lc_pathf(out, n, "%s/build/afl/afl_%s", root, target);
    return access(out, X_OK) == 0;
}

typedef struct {
    const mf_lc_triage_opts *o;
    const char *workdir, *regdir;
    json_t *known, *fixed, *items;
    mf_lc_triage_report *rep;
    char root[PATH_MAX];
    char outdir[PATH_MAX];   /* originals, minimized inputs, triage.json */
    double share_deadline;   /* this input's fair share of the time left (0: none) */
    int skew_warned;
} triage_state;

static void note(const triage_state *s, const char *fmt, const char *a, const char *b, const char *c)
{
    if (!s->o->quiet) {
        printf(fmt, a, b, c);
        fflush(stdout);
    }
}

/* Triage one input. quick: one run only, and only a known signature is
 * recorded (as a duplicate; returns 1), anything else is left for the full
 * pass (returns 0, nothing recorded). Full: returns 0, or -1 on an I/O
 * error writing an entry. */
static int triage_one(triage_state *s, const found_input *f, bool quick, char *qsig, size_t qn)
{
    const mf_lc_triage_opts *o = s->o;
    json_t *item = json_pack("{s:s, s:s, s:s}", "file", f->path, "engine", f->engine, "hint", f->hint);
    size_t len;
    uint8_t *data = (uint8_t *)mf_lc_read(f->path, &len);
    if (quick) {
        /* Decided below, once the run says whether the signature is known. */
    } else {
        json_array_append_new(s->items, item);
        s->rep->found++;
    }
    if (!data && quick) {
        json_decref(item);
        return 0;
    }
    if (!data) {
        json_object_set_new(item, "status", json_string("error"));
        json_object_set_new(item, "detail", json_string(strerror(errno)));
        s->rep->errors++;
        return 0;
    }
    char target[128] = "", recorded[sizeof ((mf_lc_outcome *)0)->sig] = "";
    if (data && !strcmp(f->hint, "finding")) {   /* the entry's payload is the input */
        mf_lc_entry e;
        char err[200];
        if (mf_lc_entry_parse((const char *)data, len, &e, err, sizeof err) == 0) {
            free(data);
            data = e.payload;
            len = e.payload_len;
            e.payload = NULL;
            if (e.target)
                snprintf(target, sizeof target, "%s", e.target);
            snprintf(recorded, sizeof recorded, "%s", e.signature);
            mf_lc_entry_free(&e);
        }
    }
    if (quick && recorded[0]) {
        /* A finding names its own signature (the target computed it as
         * mf_lc_classify would): no run is needed to tell whether it is
         * known, so hundreds of findings do not eat the triage budget. */
        if (qsig)
            snprintf(qsig, qn, "%s", recorded);
        const char *known = json_string_value(json_object_get(s->known, recorded));
        if (known) {
            json_object_set_new(item, "reproduced", json_string("recorded"));
            json_object_set_new(item, "signature", json_string(recorded));
            json_object_set_new(item, "status", json_string("duplicate"));
            json_object_set_new(item, "entry", json_string(known));
            json_array_append_new(s->items, item);
            s->rep->found++;
            s->rep->reproducible++;
            s->rep->duplicates++;
            note(s, "  %-15s %s  %s\n", "duplicate", f->path, recorded);
        } else {
            json_decref(item);
        }
        free(data);
        return known != NULL;
    }
    if (o->target)
        snprintf(target, sizeof target, "%s", o->target);
    else if (!target[0] && !target_from_stats(f->path, s->workdir, target, sizeof target))
        snprintf(target, sizeof target, "%s", is_case(data, len) ? "structured" : "raw");
    json_object_set_new(item, "target", json_string(target));
    json_object_set_new(item, "original_size", json_integer((json_int_t)len));

    /* The runner: explicit, a built target binary, or in-process for cases. */
    bool libfuzzer = false;
    char **found_argv = o->runner_argv ? NULL : mf_lc_find_runner(s->root, target, &libfuzzer);
    char tmpdir[PATH_MAX];
    mf_lc_pathf(tmpdir, sizeof tmpdir, "%s/tmp", s->outdir);
    mf_lc_mkdirs(tmpdir);
    mf_lc_eval_ctx ectx = {o->profile, false};
    mf_lc_runner r = {.argv = o->runner_argv ? o->runner_argv : found_argv,
                      .timeout_sec = o->timeout_sec > 0 ? o->timeout_sec : 10, .tmpdir = tmpdir};
    if (!r.argv) {
        if ((!is_case(data, len) && strcmp(target, "field")) || !mf_lc_eval_available()) {
            if (quick) {
                json_decref(item);
                free(data);
                return 0;
            }
            json_object_set_new(item, "status", json_string("error"));
            json_object_set_new(item, "detail", json_sprintf("no runner for target '%s': build the fuzz or default preset", target));
            s->rep->errors++;
            free(data);
            return 0;
        }
        r.fn = mf_lc_eval;
        r.ctx = &ectx;
    }
    json_object_set_new(item, "runner", json_string(r.argv ? r.argv[0] : "in-process"));
    if (quick) {
        mf_lc_outcome q;
        mf_lc_run(&r, data, len, &q, NULL);
        if (qsig)
            snprintf(qsig, qn, "%s", q.sig);
        const char *known = q.sig[0] ? json_string_value(json_object_get(s->known, q.sig)) : NULL;
        int handled = known != NULL;
        if (handled) {
            json_object_set_new(item, "reproduced", json_string("1/1"));
            json_object_set_new(item, "kind", json_string(mf_lc_kind_name(q.kind)));
            json_object_set_new(item, "signature", json_string(q.sig));
            json_object_set_new(item, "detail", json_string(q.detail));
            json_object_set_new(item, "status", json_string("duplicate"));
            json_object_set_new(item, "entry", json_string(known));
            json_array_append_new(s->items, item);
            s->rep->found++;
            s->rep->reproducible++;
            s->rep->duplicates++;
            note(s, "  %-15s %s  %s\n", "duplicate", f->path, q.sig);
        } else {
            json_decref(item);
        }
        free(data);
        mf_lc_paths_free(found_argv);
        return handled;
    }

    /* Oracle failures of the structured and raw targets reproduce the same
     * in-process (fork, no exec: about 50x cheaper than a sanitizer binary),
     * which matters for minimization; crashes stay with the binary. */
    mf_lc_eval_ctx inproc = {o->profile, !strcmp(target, "raw")};
    if (r.argv && !o->runner_argv && mf_lc_eval_available() &&
        (!strcmp(target, "structured") || !strcmp(target, "raw"))) {
        mf_lc_outcome viab, vip;
        mf_lc_run(&r, data, len, &viab, NULL);
        mf_lc_runner ip = r;
        ip.argv = NULL;
        ip.fn = mf_lc_eval;
        ip.ctx = &inproc;
        if (viab.kind == MF_LC_ORACLE && mf_lc_run(&ip, data, len, &vip, NULL) == 0) {
            if (mf_lc_same(&viab, &vip)) {
                r = ip;
                json_object_set_new(item, "runner", json_string("in-process (same signature as the binary)"));
            } else {
                /* Two builds of different sources: the entry follows the binary,
                 * but replay (this malform) will disagree until both are rebuilt. */
                json_object_set_new(item, "build_skew", json_sprintf("%s says '%s', this malform says '%s'",
                                                                     r.argv[0], viab.sig, vip.sig));
                if (!s->skew_warned++)
                    fprintf(stderr, "malform triage: %s and this malform judge some inputs differently: they "
                                    "were built from different sources; rebuild both (see triage.json build_skew)\n",
                            r.argv[0]);
            }
        }
    }

    /* Reproduce several times. */
    int repeats = o->repeats > 0 ? o->repeats : 3, fails = 0, same = 0;
    mf_lc_outcome first = {0}, cur;
    for (int i = 0; i < repeats; i++) {
        mf_lc_run(&r, data, len, &cur, NULL);
        if (cur.kind == MF_LC_ERROR && i == 0) {
            first = cur;
            break;
        }
        if (cur.kind != MF_LC_PASS && cur.kind != MF_LC_ERROR) {
            if (!fails++)
                first = cur;
            if (mf_lc_same(&first, &cur))
                same++;
        }
    }
    json_object_set_new(item, "reproduced", json_sprintf("%d/%d", fails, repeats));
    const char *status;
    if (first.kind == MF_LC_ERROR) {
        status = "error";
        json_object_set_new(item, "detail", json_string(first.detail));
        s->rep->errors++;
    } else if (fails == 0) {
        status = "not-reproduced";
        s->rep->not_reproduced++;
    } else if (same < repeats) {
        status = "flaky";
        s->rep->flaky++;
    } else {
        status = NULL;
        s->rep->reproducible++;
    }
    if (first.kind != MF_LC_PASS && first.kind != MF_LC_ERROR) {
        json_object_set_new(item, "kind", json_string(mf_lc_kind_name(first.kind)));
        json_object_set_new(item, "signature", json_string(first.sig));
        json_object_set_new(item, "detail", json_string(first.detail));
    }
    const char *dup = json_string_value(json_object_get(s->known, first.sig));
    if (!status && dup) {
        status = "duplicate";
        json_object_set_new(item, "entry", json_string(dup));
        s->rep->duplicates++;
    }
    if (status) {
        json_object_set_new(item, "status", json_string(status));
        note(s, "  %-15s %s  %s\n", status, f->path, first.sig);
        free(data);
        mf_lc_paths_free(found_argv);
        return 0;
    }

    /* Minimize, keeping the original next to the result. */
    char slug[160], wdir[PATH_MAX], path[2 * PATH_MAX];
    mf_lc_slug(first.sig, slug, sizeof slug);
    mf_lc_pathf(wdir, sizeof wdir, "%s/%s", s->outdir, slug);
    mf_lc_mkdirs(wdir);
    const char *base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
    snprintf(path, sizeof path, "%s/original-%.200s", wdir, base);
    save_file(path, data, len);
    bool structured = is_case(data, len);
    mf_lc_minctx m = {.runner = &r, .orig = &first, .max_runs = o->min_runs > 0 ? o->min_runs : 400,
                      .deadline = s->share_deadline > 0 ? s->share_deadline : o->deadline};
    m.last = first;
    uint8_t *min = NULL;
    size_t min_len = len;
    int total_runs = 0;
    const char *engine_min = NULL;
    if (!o->no_minimize) {
        min = structured ? mf_lc_minimize_case(&m, data, len, &min_len) : mf_lc_minimize_bytes(&m, data, len, &min_len);
        total_runs += m.runs;
        char aflbin[PATH_MAX];
        bool use_afl = !strcmp(f->engine, "afl") && afl_binary(s->root, target, aflbin, sizeof aflbin);
        bool engine_time = !(m.deadline > 0 && mf_lc_clock() + 20 > m.deadline);
        if (min && !structured && !o->runner_argv && engine_time && (use_afl || (found_argv && libfuzzer))) {
            size_t el;
            uint8_t *em = engine_minimize(use_afl ? aflbin : found_argv[0], !use_afl, tmpdir, &m, min, min_len,
                                          &el, &engine_min);
            total_runs += 1;
            if (em) {
                free(min);
                min = em;
                min_len = el;
            }
        }
    }
    if (!min) {
        min = malloc(len + 1);
        if (min)
            memcpy(min, data, len);
        min_len = len;
    }
    /* The final signature is the minimized input's (op ids may have gone). */
    mf_lc_outcome fin = first;
    if (min_len != len || memcmp(min, data, len) != 0) {
        mf_lc_run(&r, min, min_len, &fin, NULL);
        if (!mf_lc_still_fails(&first, &fin)) {   /* should not happen: fall back */
            free(min);
            min = malloc(len + 1);
            memcpy(min, data, len);
            min_len = len;
            fin = first;
        }
    }
    snprintf(path, sizeof path, "%s/minimized-%.200s", wdir, base);
    save_file(path, min, min_len);
    json_object_set_new(item, "minimized_size", json_integer((json_int_t)min_len));
    json_object_set_new(item, "minimize_runs", json_integer(total_runs));
    if (engine_min)
        json_object_set_new(item, "engine_minimizer", json_string(engine_min));
    json_object_set_new(item, "signature", json_string(fin.sig));
    if (strcmp(fin.sig, first.sig))
        json_object_set_new(item, "original_signature", json_string(first.sig));
    json_object_set_new(item, "workdir_files", json_string(wdir));

    dup = json_string_value(json_object_get(s->known, fin.sig));
    if (dup) {
        json_object_set_new(item, "status", json_string("duplicate"));
        json_object_set_new(item, "entry", json_string(dup));
        s->rep->duplicates++;
        note(s, "  %-15s %s  %s\n", "duplicate", f->path, fin.sig);
        free(min);
        free(data);
        mf_lc_paths_free(found_argv);
        return 0;
    }

    /* Write the entry. */
    char ts[32], entry_slug[160], entry_path[PATH_MAX + 200], err[300], repro[PATH_MAX + 300];
    mf_lc_now(ts, sizeof ts);
    const char *was_fixed = json_string_value(json_object_get(s->fixed, fin.sig));
    if (!was_fixed)
        was_fixed = json_string_value(json_object_get(s->fixed, first.sig));
    char *detail = fin.detail;
    if (was_fixed) {
        regression_slug(fin.sig, min, min_len, entry_slug, sizeof entry_slug);
        const char *fb = strrchr(was_fixed, '/') ? strrchr(was_fixed, '/') + 1 : was_fixed;
        size_t dn = strlen(fb) + strlen(fin.detail) + 64;
        detail = malloc(dn);
        if (detail)
            snprintf(detail, dn, "REGRESSED: fails again like the fixed entry %s: %s", fb, fin.detail);
        json_object_set_new(item, "regression_of", json_string(was_fixed));
    } else {
        mf_lc_slug(fin.sig, entry_slug, sizeof entry_slug);
    }
    const char *rel = s->regdir;
    size_t rl = strlen(s->root);
    if (!strncmp(rel, s->root, rl) && rel[rl] == '/')
        rel += rl + 1;
    snprintf(repro, sizeof repro, "malform replay -v %s/%s.%s", rel, entry_slug, structured ? "case" : "raw");
    mf_lc_entry e = {
        .signature = fin.sig, .kind = (char *)mf_lc_kind_name(fin.kind),
        .oracle = fin.oracle[0] ? fin.oracle : NULL,
        .profile = fin.profile[0] && strcmp(fin.profile, "-") ? fin.profile : (char *)o->profile,
        .target = target, .engine = (char *)f->engine, .first_seen = ts, .status = "open",
        .reproduce = repro, .original_signature = strcmp(fin.sig, first.sig) ? first.sig : NULL,
        .detail = detail ? detail : fin.detail, .source = (char *)base,
        .original_size = (long)len, .minimized_size = (long)min_len,
        .payload = min, .payload_len = min_len, .raw = !structured};
    int rc = o->dry_run ? 1 : mf_lc_entry_create(s->regdir, entry_slug, &e, entry_path, sizeof entry_path, err, sizeof err);
    if (o->dry_run)
        snprintf(entry_path, sizeof entry_path, "(dry run) %s/%s.%s", s->regdir, entry_slug, structured ? "case" : "raw");
    int ret = 0;
    if (rc < 0) {
        json_object_set_new(item, "status", json_string("error"));
        json_object_set_new(item, "detail", json_string(err));
        s->rep->errors++;
        fprintf(stderr, "malform triage: %s\n", err);
        ret = -1;
    } else {
        const char *st = rc != 1 ? "duplicate" : was_fixed ? "regressed" : "new";
        json_object_set_new(item, "status", json_string(st));
        json_object_set_new(item, "entry", json_string(entry_path));
        if (rc == 1)
            s->rep->new_sigs++;
        else
            s->rep->duplicates++;   /* a concurrent triage wrote it first */
        json_object_set_new(s->known, fin.sig, json_string(entry_path));
        json_object_set_new(s->known, first.sig, json_string(entry_path));
        note(s, "  %-15s %s  %s\n", st, entry_path, fin.sig);
    }
    if (detail != fin.detail)
        free(detail);
    free(min);
    free(data);
    mf_lc_paths_free(found_argv);
    return ret;
}

static void state_init(triage_state *s, const char *workdir, const mf_lc_triage_opts *o,
                       mf_lc_triage_report *rep, char *regbuf, size_t n)
{
    memset(rep, 0, sizeof *rep);
    memset(s, 0, sizeof *s);
    s->o = o;
    s->workdir = workdir;
    snprintf(s->root, sizeof s->root, "%s", mf_lc_root());
    if (o->regression_dir)
        snprintf(regbuf, n, "%s", o->regression_dir);
    else
        mf_lc_pathf(regbuf, n, "%s/corpus/regression", s->root);
    s->regdir = regbuf;
    if (o->out_dir)
        mf_lc_pathf(s->outdir, sizeof s->outdir, "%s", o->out_dir);
    else
        mf_lc_pathf(s->outdir, sizeof s->outdir, "%s/triage", workdir);
    s->known = load_known(regbuf, &s->fixed);
    s->items = json_array();
    rep->items = s->items;
    s->rep = rep;
}

int mf_lc_triage_input(const char *path, const char *workdir, const mf_lc_triage_opts *o,
                       mf_lc_triage_report *rep)
{
    triage_state s;
    char regbuf[PATH_MAX];
    state_init(&s, workdir, o, rep, regbuf, sizeof regbuf);
    found_input f;
    snprintf(f.path, sizeof f.path, "%s", path);
    f.engine = o->engine ? o->engine : "manual";
    f.hint = "input";
    int rc = triage_one(&s, &f, false, NULL, 0);
    char tmp[PATH_MAX + 16];
    mf_lc_pathf(tmp, sizeof tmp, "%s/tmp", s.outdir);
    rmdir(tmp);
    json_decref(s.known);
    json_decref(s.fixed);
    return rc;
}

int mf_lc_triage(const char *workdir, const mf_lc_triage_opts *o, mf_lc_triage_report *rep)
{
    double t0 = mf_lc_clock();
    triage_state s;
    char regbuf[PATH_MAX];
    state_init(&s, workdir, o, rep, regbuf, sizeof regbuf);

    found_list fl = {0};
    collect(workdir, 0, NULL, &fl);
    if (fl.n)
        qsort(fl.v, fl.n, sizeof *fl.v, cmp_found);
    int rc = 0;
    /* One run of every input first: an engine saves many inputs of one
     * bug, and those of a known signature are duplicates without more
     * runs; the time left goes to one representative per new signature. */
    char (*qsig)[sizeof ((mf_lc_outcome *)0)->sig] = calloc(fl.n ? fl.n : 1, sizeof *qsig);
    bool *done = calloc(fl.n ? fl.n : 1, sizeof *done);
    /* the quick pass gets at most half the time: the rest is for new signatures */
    double quick_end = o->deadline > 0 ? t0 + (o->deadline - t0) / 2 : 0;
    for (size_t i = 0; qsig && done && i < fl.n && !mf_lc_stop; i++) {
        if (quick_end > 0 && mf_lc_clock() > quick_end)
            break;
        done[i] = triage_one(&s, &fl.v[i], true, qsig[i], sizeof qsig[i]) == 1;
    }
    for (size_t i = 0; i < fl.n && !mf_lc_stop; i++) {
        if (done && done[i])
            continue;
        const char *known = qsig && qsig[i][0] ? json_string_value(json_object_get(s.known, qsig[i])) : NULL;
        if (known) {   /* a representative of this signature was triaged above */
            json_array_append_new(s.items, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "file", fl.v[i].path,
                                                      "engine", fl.v[i].engine, "hint", fl.v[i].hint, "reproduced",
                                                      "1/1", "signature", qsig[i], "status", "duplicate", "entry",
                                                      known));
            rep->found++;
            rep->reproducible++;
            rep->duplicates++;
            note(&s, "  %-15s %s  %s\n", "duplicate", fl.v[i].path, qsig[i]);
            continue;
        }
        if (o->deadline > 0 && mf_lc_clock() > o->deadline) {
            json_array_append_new(s.items, json_pack("{s:s, s:s, s:s, s:s}", "file", fl.v[i].path, "engine",
                                                     fl.v[i].engine, "hint", fl.v[i].hint, "status", "skipped"));
            rep->found++;
            rep->skipped++;
            continue;
        }
        /* Every new signature gets written: split the time left evenly over
         * the distinct unknown signatures still ahead. */
        s.share_deadline = 0;
        if (o->deadline > 0 && qsig) {
            int ahead = 0;
            for (size_t j = i; j < fl.n; j++) {
                bool first_of_sig = !(done && done[j]) && !json_object_get(s.known, qsig[j]);
                for (size_t k = i; first_of_sig && k < j; k++)
                    first_of_sig = strcmp(qsig[k], qsig[j]) != 0 || !qsig[j][0];
                ahead += first_of_sig;
            }
            s.share_deadline = mf_lc_clock() + (o->deadline - mf_lc_clock()) / (ahead > 0 ? ahead : 1);
        }
        if (triage_one(&s, &fl.v[i], false, NULL, 0) < 0)
            rc = -1;
    }
    free(done);
    free(qsig);
    free(fl.v);
    rep->seconds = mf_lc_clock() - t0;

    char tdir[PATH_MAX + 16], tpath[PATH_MAX + 32];
    mf_lc_pathf(tdir, sizeof tdir, "%s", s.outdir);
    mf_lc_pathf(tpath, sizeof tpath, "%s/triage.json", tdir);
    rep->causes = mf_lc_triage_causes(s.items);
    json_t *summary = json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:f, s:b, s:O, s:O}",
                                "workdir", workdir, "regression", regbuf, "found", rep->found,
                                "skipped", rep->skipped,
                                "reproducible", rep->reproducible, "flaky", rep->flaky,
                                "not_reproduced", rep->not_reproduced, "errors", rep->errors,
                                "new", rep->new_sigs, "duplicates", rep->duplicates, "seconds", rep->seconds,
                                "interrupted", mf_lc_stop != 0, "causes", (json_t *)rep->causes, "items", s.items);
    char *txt = summary ? json_dumps(summary, JSON_INDENT(2)) : NULL;
    if (txt && mf_lc_mkdirs(tdir) == 0 && mf_lc_write_atomic(tpath, txt, strlen(txt)) < 0) {
        fprintf(stderr, "malform triage: cannot write %s: %s\n", tpath, strerror(errno));
        rc = -1;
    }
    char tmp[PATH_MAX + 32];
    mf_lc_pathf(tmp, sizeof tmp, "%s/tmp", s.outdir);
    rmdir(tmp);
    free(txt);
    json_decref(summary);
    json_decref(s.known);
    json_decref(s.fixed);
    return rc;
}

void mf_lc_triage_report_free(mf_lc_triage_report *rep)
{
    json_decref(rep->items);
    json_decref(rep->causes);
    rep->items = NULL;
    rep->causes = NULL;
}
