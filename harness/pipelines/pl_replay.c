/* pl_replay.c - `malform replay --pipeline NAME [DIR|FILE...]`: a pipeline's
 * regression entries (default corpus/regression/NAME/) through its worker.
 * `fixed` entries must pass; `open` (and `new`) ones must still fail with
 * the recorded signature - the same rules as core's replay. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pl_cli.h"
#include "pl_finding.h"

typedef struct {
    int ok, failed, skipped;
    bool verbose;
} tally;

static void say(tally *t, const char *verdict, const char *path, const char *msg)
{
    if (!strcmp(verdict, "ok"))
        t->ok++;
    else if (!strcmp(verdict, "FAIL"))
        t->failed++;
    else
        t->skipped++;
    printf("%-4s %s: %s\n", verdict, path, msg);
}

static void replay_one(tally *t, mf_pl_worker *w, const char *pipeline, const char *path)
{
    mf_lc_entry e;
    char err[300], msg[1600];
    size_t len;
    char *text = mf_lc_read(path, &len);
    char *owner = text ? mf_pl_entry_pipeline(text, len) : NULL;
    free(text);
    if (mf_lc_entry_read(path, &e, err, sizeof err) < 0) {
        say(t, "FAIL", path, err);
        free(owner);
        return;
    }
    if (!owner || strcmp(owner, pipeline)) {
        snprintf(msg, sizeof msg, "recorded for pipeline %s, not %s", owner ? owner : "core", pipeline);
        say(t, "skip", path, msg);
    } else {
        mf_pl_judge_ctx j = {w, pipeline, e.profile ? mf_profiles_get(e.profile) : NULL};
        mf_lc_outcome o;
        bool fixed = e.status && !strcmp(e.status, "fixed");
        if (mf_pl_judge(e.payload, e.payload_len, &j, &o) < 0) {
            snprintf(msg, sizeof msg, "could not run: %s", o.detail);
            say(t, "FAIL", path, msg);
        } else if (fixed && o.kind == MF_LC_PASS) {
            say(t, "ok", path, "fixed, passes");
        } else if (fixed) {
            snprintf(msg, sizeof msg, "REGRESSED: marked fixed but fails again: %s", o.sig);
            say(t, "FAIL", path, msg);
        } else if (o.kind == MF_LC_PASS) {
            snprintf(msg, sizeof msg, "fixed now: flip its status to 'fixed' (was: %s)", e.signature);
            say(t, "FAIL", path, msg);
        } else if (e.signature && !strcmp(o.sig, e.signature)) {
            snprintf(msg, sizeof msg, "open, still fails as recorded (%s)", e.kind ? e.kind : "?");
            say(t, "ok", path, msg);
        } else {
            snprintf(msg, sizeof msg, "open, but fails differently: now '%.600s', recorded '%.600s'", o.sig,
                     e.signature ? e.signature : "?");
            say(t, "FAIL", path, msg);
        }
        if (t->verbose)
            printf("     | %s\n", o.detail);
    }
    free(owner);
    mf_lc_entry_free(&e);
}

int mf_pl_replay(const char *pipeline, char **paths, int n, bool verbose)
{
    mf_pl_def def;
    int code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, false, "malform replay", &code);
    if (!w)
        return code;
    char defdir[4096];
    char *deflist[1] = {defdir};
    if (!n) {
        mf_pl_regression_dir(pipeline, defdir, sizeof defdir);
        paths = deflist;
        n = 1;
    }
    tally t = {0, 0, 0, verbose};
    int rc = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) < 0) {
            if (paths != deflist) {
                fprintf(stderr, "malform replay: no such file or directory: %s\n", paths[i]);
                rc = 2;
            }
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            replay_one(&t, w, pipeline, paths[i]);
            continue;
        }
        size_t count;
        char **list = mf_lc_entry_list(paths[i], &count);
        for (size_t j = 0; list && j < count; j++)
            replay_one(&t, w, pipeline, list[j]);
        mf_lc_paths_free(list);
    }
    int total = t.ok + t.failed + t.skipped;
    printf("replayed %d entr%s on %s: %d as recorded, %d failed, %d skipped\n", total, total == 1 ? "y" : "ies",
           pipeline, t.ok, t.failed, t.skipped);
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return rc ? rc : t.failed ? 1 : 0;
}
