/* cmd_replay.c - `malform replay`: every regression entry through core and
 * every oracle, so a fixed bug can never come back silently.
 *
 * An entry marked `fixed` must pass. An `open` entry must still fail the
 * recorded way (same signature); one that passes now is reported as "fixed
 * now: flip its status", one that fails differently is reported with both
 * signatures. Both count as failures: CI stays honest and the corpus stays
 * true (the policy: harness/lifecycle/lc_replay.c). Oracle entries are judged in-process (the fuzz targets' own check,
 * in a forked child; fuzz_raw entries keep their profile selector byte);
 * crash entries run through their target's built binary when there is one. A
 * sanitizer-only crash replayed in a build without sanitizers is reported
 * as skipped, not as fixed. Field cases (corpus/field/<sha>.raw + .json)
 * found in a directory are replayed too: they must not crash, and an oracle
 * failure must already be tracked by a regression entry. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_cli.h"
#include "cli_args.h"
#include <sys/stat.h>
#include <jansson.h>
#include "lifecycle.h"
#include "lc_eval.h"
#include "lc_replay.h"

#if defined(__SANITIZE_ADDRESS__)
#define BUILD_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUILD_HAS_ASAN 1
#endif
#endif
#ifndef BUILD_HAS_ASAN
#define BUILD_HAS_ASAN 0
#endif

typedef struct {
    int verbose, json;
    char **runner;
    int timeout;
    int ok, failed, skipped;
    json_t *known;        /* regression signatures (for field cases) */
    json_t *items;
} replay_state;

static const struct option options[] = {
    {"verbose", no_argument, NULL, 'v'},         {"json", no_argument, NULL, 'j'},
    {"runner", required_argument, NULL, 'R'},    {"timeout", required_argument, NULL, 'T'},
    {"pipeline", required_argument, NULL, 'P'},  {0}};
static const cli_cmd cmd = {"replay", "[-v] [--json] [--runner 'CMD ARGS'] [--timeout SEC] [--pipeline NAME] [DIR|FILE...]",
                            "Replays regression entries (default: corpus/regression). fixed entries must pass;\n"
            "open entries must still fail with their recorded signature. Exit: 0 all as recorded,\n"
            "1 some entry regressed, got fixed (flip its status) or fails differently, 2 usage error.\n"
            "--pipeline NAME replays a pipeline's entries (default corpus/regression/NAME/) through its\n"
            "worker (exit 77 when it is not installed here).\n",
                            "v", options};

static void record(replay_state *s, const char *path, const char *verdict, const char *msg, const char *log)
{
    bool bad = !strcmp(verdict, "FAIL");
    if (!strcmp(verdict, "ok"))
        s->ok++;
    else if (bad)
        s->failed++;
    else
        s->skipped++;
    if (s->json) {
        json_array_append_new(s->items, json_pack("{s:s, s:s, s:s}", "entry", path, "verdict", verdict, "message", msg));
        return;
    }
    printf("%-4s %s: %s\n", verdict, path, msg);
    if (log && (s->verbose || bad) && *log) {
        int lines = 0;
        for (const char *p = log; *p && (s->verbose || lines < 12); p++) {
            if (p == log || p[-1] == '\n') {
                fputs("     | ", stdout);
                lines++;
            }
            putchar(*p);
        }
        if (log[strlen(log) - 1] != '\n')
            putchar('\n');
    }
}

static void replay_entry(replay_state *s, const char *path)
{
    mf_lc_entry e;
    char err[300], why[300], msg[1600];
    if (mf_lc_entry_read(path, &e, err, sizeof err) < 0) {
        record(s, path, "FAIL", err, NULL);
        return;
    }
    mf_lc_runner r;
    mf_lc_eval_ctx ectx;
    char **owned;
    const char *target = e.target ? e.target : e.raw ? "raw" : "structured";
    if (!mf_lc_replay_runner(target, e.kind, e.profile, s->runner, s->timeout, &r, &ectx, &owned, why, sizeof why)) {
        record(s, path, "skip", why, NULL);
        mf_lc_entry_free(&e);
        return;
    }
    if (!strcmp(e.kind, "timeout") && r.timeout_sec > 5)
        r.timeout_sec = 5;
    mf_lc_outcome o;
    char *log = NULL;
    mf_lc_run(&r, e.payload, e.payload_len, &o, &log);
    mf_lc_replay_verdict v = mf_lc_replay_judge(&e, &o, BUILD_HAS_ASAN || s->runner, msg, sizeof msg);
    record(s, path, mf_lc_replay_verdict_name(v), msg, o.kind != MF_LC_PASS ? log : NULL);
    free(log);
    mf_lc_paths_free(owned);
    mf_lc_entry_free(&e);
}

/* A field case: <sha>.raw with <sha>.json metadata beside it. */
static void replay_field(replay_state *s, const char *path, json_t *meta)
{
    const char *profile = json_string_value(json_object_get(meta, "profile"));
    mf_lc_runner r;
    mf_lc_eval_ctx ectx;
    char **owned, why[300], msg[1600];
    if (!mf_lc_replay_runner("field", "oracle", profile, s->runner, s->timeout, &r, &ectx, &owned, why, sizeof why)) {
        record(s, path, "skip", why, NULL);
        return;
    }
    size_t len;
    char *data = mf_lc_read(path, &len);
    mf_lc_outcome o;
    char *log = NULL;
    if (!data) {
        record(s, path, "FAIL", "cannot read", NULL);
        mf_lc_paths_free(owned);
        return;
    }
    mf_lc_run(&r, data, len, &o, &log);
    const char *tracked = json_string_value(json_object_get(s->known, o.sig));
    mf_lc_replay_verdict v = mf_lc_replay_judge_field(&o, o.kind == MF_LC_PASS ? NULL : tracked, msg, sizeof msg);
    record(s, path, mf_lc_replay_verdict_name(v), msg, o.kind != MF_LC_PASS ? log : NULL);
    free(log);
    free(data);
    mf_lc_paths_free(owned);
}

static void replay_path(replay_state *s, const char *path)
{
    size_t len = strlen(path);
    char meta_path[PATH_MAX];
    if (len > 4 && !strcmp(path + len - 4, ".raw")) {
        snprintf(meta_path, sizeof meta_path, "%.*s.json", (int)(len - 4), path);
        size_t n;
        char *head = mf_lc_read(path, &n);
        bool entry = head && n >= strlen(MF_LC_ENTRY_MAGIC) && !memcmp(head, MF_LC_ENTRY_MAGIC, strlen(MF_LC_ENTRY_MAGIC));
        bool readable = head != NULL;
        free(head);
        json_t *meta = entry ? NULL : json_load_file(meta_path, 0, NULL);
        if (meta) {
            replay_field(s, path, meta);
            json_decref(meta);
            return;
        }
        if (!entry && readable) {   /* a field payload whose metadata was never written */
            record(s, path, "skip", "payload without metadata (a torn ingest: run malform ingest on it again)", NULL);
            return;
        }
    }
    replay_entry(s, path);
}

static void load_known(replay_state *s, const char *dir)
{
    size_t n;
    char **paths = mf_lc_entry_list(dir, &n);
    for (size_t i = 0; paths && i < n; i++) {
        mf_lc_entry e;
        char err[200];
        if (mf_lc_entry_read(paths[i], &e, err, sizeof err) == 0) {
            json_object_set_new(s->known, e.signature, json_string(paths[i]));
            mf_lc_entry_free(&e);
        }
    }
    mf_lc_paths_free(paths);
}

int cmd_replay(int argc, char **argv)
{
    replay_state s = {.timeout = 20};
    const char *runner = NULL, *pipeline = NULL;
    const char *targets[256];
    int nt = 0, c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'v': s.verbose = 1; break;
        case 'j': s.json = 1; break;
        case 'R': runner = optarg; break;
        case 'T': if (!cli_int_arg(&cmd, "--timeout", optarg, 1, 86400, &s.timeout)) return 2; break;
        case 'P': pipeline = optarg; break;
        }
    }
    if (pipeline && strcmp(pipeline, "core"))
        return mf_pl_replay(pipeline, argv + optind, argc - optind, s.verbose);
    if (argc - optind > 256)
        return cli_usage_error(&cmd, "at most 256 paths");
    while (optind < argc)
        targets[nt++] = argv[optind++];
    char defdir[PATH_MAX];
    if (!nt) {
        snprintf(defdir, sizeof defdir, "%s/corpus/regression", mf_lc_root());
        targets[nt++] = defdir;
    }
    s.runner = runner ? mf_lc_argv_split(runner) : NULL;
    s.items = json_array();
    s.known = json_object();
    char regdir[PATH_MAX];
    snprintf(regdir, sizeof regdir, "%s/corpus/regression", mf_lc_root());
    load_known(&s, regdir);
    for (int i = 0; i < nt; i++) {   /* field cases may be tracked by any directory given */
        struct stat st;
        if (stat(targets[i], &st) == 0 && S_ISDIR(st.st_mode))
            load_known(&s, targets[i]);
    }
    rc = 0;
    for (int i = 0; i < nt; i++) {
        struct stat st;
        if (stat(targets[i], &st) < 0) {
            fprintf(stderr, "malform replay: no such file or directory: %s\n", targets[i]);
            rc = 2;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            replay_path(&s, targets[i]);
            continue;
        }
        size_t n;
        char **paths = mf_lc_entry_list(targets[i], &n);
        for (size_t j = 0; paths && j < n; j++)
            replay_path(&s, paths[j]);
        mf_lc_paths_free(paths);
    }
    int total = s.ok + s.failed + s.skipped;
    if (s.json) {
        json_t *j = json_pack("{s:i, s:i, s:i, s:i, s:O}", "replayed", total, "ok", s.ok, "failed", s.failed,
                              "skipped", s.skipped, "entries", s.items);
        char *t = json_dumps(j, JSON_INDENT(2));
        if (t)
            puts(t);
        free(t);
        json_decref(j);
    } else {
        printf("replayed %d entr%s: %d as recorded, %d failed, %d skipped\n", total, total == 1 ? "y" : "ies",
               s.ok, s.failed, s.skipped);
    }
    json_decref(s.items);
    json_decref(s.known);
    mf_lc_paths_free(s.runner);
    if (rc)
        return rc;
    return s.failed ? 1 : 0;
}
