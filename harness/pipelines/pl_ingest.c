/* pl_ingest.c - `malform ingest --pipeline NAME`: a production output judged
 * on a pipeline under test too. A failure is minimized byte-wise (lines,
 * then bytes) with the same predicate as any finding and written to
 * corpus/regression/NAME/ as an open raw entry, unless its signature is
 * already open there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_cli.h"
#include "pl_finding.h"

static int record(mf_pl_worker *w, const char *pipeline, const mf_profile *p, const char *data, size_t len,
                  const char *regdir, const mf_lc_outcome *o)
{
    json_t *open = mf_pl_open_signatures(regdir);
    bool known = json_object_get(open, o->sig) != NULL;
    json_decref(open);
    if (known) {
        printf("  %s: known, open in %s\n", pipeline, regdir);
        return 1;
    }
    mf_pl_judge_ctx j = {w, pipeline, p};
    mf_lc_runner r = {0};
    r.judge = mf_pl_judge;
    r.ctx = &j;
    mf_lc_minctx m = {0};
    m.runner = &r;
    m.orig = o;
    m.max_runs = 300;
    m.deadline = mf_lc_clock() + 60;
    size_t mlen = len;
    uint8_t *min = mf_lc_minimize_bytes(&m, (const uint8_t *)data, len, &mlen);
    char when[32], reproduce[256], path[4400];
    mf_lc_now(when, sizeof when);
    snprintf(reproduce, sizeof reproduce, "malform replay --pipeline %s -v <this file>", pipeline);
    mf_lc_entry e = {0};
    e.signature = (char *)o->sig;
    e.kind = (char *)mf_pl_finding_kind(o);
    e.oracle = o->kind == MF_LC_ORACLE ? (char *)o->oracle : NULL;
    e.profile = p->name;
    e.target = "field";
    e.engine = "field";
    e.first_seen = when;
    e.status = "open";
    e.reproduce = reproduce;
    e.detail = (char *)o->detail;
    e.original_size = (long)len;
    e.minimized_size = (long)(min ? mlen : len);
    e.payload = min ? min : (uint8_t *)data;
    e.payload_len = min ? mlen : len;
    e.raw = true;
    int rc = mf_pl_entry_create(regdir, &e, pipeline, path, sizeof path);
    free(min);
    if (rc < 0) {
        fprintf(stderr, "malform ingest: cannot write into %s\n", regdir);
        return 2;
    }
    printf("  %s: %s %s (%zu -> %zu bytes)\n", pipeline, rc == 1 ? "new entry" : "entry exists", path, len,
           (size_t)e.minimized_size);
    return 1;
}

int mf_pl_ingest(const char *pipeline, const char *path, const char *profile, const char *regression_dir)
{
    const mf_profile *p = mf_profiles_get(profile);
    size_t len;
    char *data = mf_lc_read(path, &len);
    if (!p || !data) {
        fprintf(stderr, "malform ingest: %s: cannot read it or unknown profile %s\n", path, profile);
        free(data);
        return 2;
    }
    mf_pl_def def;
    int code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, false, "malform ingest", &code);
    if (!w) {
        free(data);
        return code;
    }
    char regdir[4096];
    if (regression_dir)
        snprintf(regdir, sizeof regdir, "%s/%s", regression_dir, pipeline);
    else
        mf_pl_regression_dir(pipeline, regdir, sizeof regdir);
    mf_pl_judge_ctx j = {w, pipeline, p};
    mf_lc_outcome o;
    int rc;
    if (!mf_pl_handles(w, p)) {
        printf("  %s: does not handle profile %s: not judged\n", pipeline, profile);
        rc = 0;
    } else if (mf_pl_judge(data, len, &j, &o) < 0) {
        fprintf(stderr, "malform ingest: %s on %s: %s\n", path, pipeline, o.detail);
        rc = 2;
    } else if (o.kind == MF_LC_PASS) {
        printf("  %s: pass\n", pipeline);
        rc = 0;
    } else {
        printf("  %s: FAIL %s: %s\n", pipeline, o.sig, o.detail);
        rc = record(w, pipeline, p, data, len, regdir, &o);
    }
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    free(data);
    return rc;
}
