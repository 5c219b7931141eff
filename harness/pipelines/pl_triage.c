/* pl_triage.c - `malform triage --pipeline NAME WORKDIR`: the black-box
 * engine's findings (WORKDIR/findings/, already minimized, one per
 * signature) that belong to NAME are reproduced on its worker (a finding
 * that does not fail again the same way every time is flaky and left out),
 * deduped against corpus/regression/NAME/ and written there as open
 * entries with `pipeline: NAME`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_cli.h"
#include "pl_finding.h"

typedef struct {
    int found, written, known, flaky, other, errors;
} counts;

static void triage_one(counts *n, mf_pl_worker *w, const char *pipeline, const char *path, const char *regdir,
                       json_t *open, int repeats, bool dry_run)
{
    size_t len;
    char *text = mf_lc_read(path, &len);
    char *owner = text ? mf_pl_entry_pipeline(text, len) : NULL;
    free(text);
    mf_lc_entry e;
    char err[300];
    if (!owner || strcmp(owner, pipeline)) {
        n->other++;
        free(owner);
        return;
    }
    free(owner);
    n->found++;
    if (mf_lc_entry_read(path, &e, err, sizeof err) < 0) {
        printf("error  %s: %s\n", path, err);
        n->errors++;
        return;
    }
    if (json_object_get(open, e.signature)) {
        printf("known  %s: %s\n", path, e.signature);
        n->known++;
        mf_lc_entry_free(&e);
        return;
    }
    mf_pl_judge_ctx j = {w, pipeline, e.profile ? mf_profiles_get(e.profile) : NULL};
    int same = 0;
    mf_lc_outcome o = {0};
    for (int i = 0; i < repeats; i++)
        same += mf_pl_judge(e.payload, e.payload_len, &j, &o) == 0 && !strcmp(o.sig, e.signature);
    if (same != repeats) {
        printf("flaky  %s: %d of %d runs fail as recorded (last: %s)\n", path, same, repeats,
               o.kind == MF_LC_PASS ? "pass" : o.sig);
        n->flaky++;
        mf_lc_entry_free(&e);
        return;
    }
    free(e.status);
    e.status = strdup("open");
    char reproduce[512], out[4400];
    free(e.reproduce);
    snprintf(reproduce, sizeof reproduce, "malform replay --pipeline %s -v <this file>", pipeline);
    e.reproduce = strdup(reproduce);
    int rc = dry_run ? 1 : mf_pl_entry_create(regdir, &e, pipeline, out, sizeof out);
    if (rc < 0) {
        printf("error  %s: cannot write into %s\n", path, regdir);
        n->errors++;
    } else {
        printf("%-6s %s: %s\n", rc == 1 ? "new" : "exists", dry_run ? path : out, e.signature);
        n->written += rc == 1;
        json_object_set_new(open, e.signature, json_true());
    }
    mf_lc_entry_free(&e);
}

int mf_pl_triage(const char *pipeline, const char *workdir, const char *regression_dir, int repeats, bool dry_run)
{
    mf_pl_def def;
    int code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, false, "malform triage", &code);
    if (!w)
        return code;
    char regdir[4096], findings[4200];
    if (regression_dir)
        snprintf(regdir, sizeof regdir, "%s", regression_dir);
    else
        mf_pl_regression_dir(pipeline, regdir, sizeof regdir);
    snprintf(findings, sizeof findings, "%s/findings", workdir);
    json_t *open = mf_pl_open_signatures(regdir);
    counts n = {0};
    size_t count;
    char **list = mf_lc_entry_list(findings, &count);
    for (size_t i = 0; list && i < count; i++)
        triage_one(&n, w, pipeline, list[i], regdir, open, repeats > 0 ? repeats : 2, dry_run);
    mf_lc_paths_free(list);
    printf("triage %s: %d findings of %s, %d new entries in %s, %d already known, %d flaky, %d errors%s\n", findings,
           n.found, pipeline, n.written, regdir, n.known, n.flaky, n.errors, dry_run ? " (dry run)" : "");
    json_decref(open);
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return n.errors ? 2 : 0;
}
