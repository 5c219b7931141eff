/* pl_finding.c - findings and regression entries of a pipeline under test
 * (COORD.md "Findings" and "Regression entries per pipeline"): the
 * lifecycle's entry text with a `pipeline:` header line, written once per
 * signature with link(); the in-process judge the minimizer uses; the
 * signatures a regression directory already holds as open. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_finding.h"

int mf_pl_judge(const void *data, size_t len, void *ctx, mf_lc_outcome *o)
{
    mf_pl_judge_ctx *j = ctx;
    mf_pl_check c;
    memset(o, 0, sizeof *o);
    if (mf_pl_check_run(&c, j->worker, data, len, j->profile, NULL, false) < 0) {
        o->kind = MF_LC_ERROR;
        snprintf(o->detail, sizeof o->detail, "%s", c.k.error);
        mf_pl_check_free(&c);
        return -1;
    }
    mf_pl_outcome(&c, j->pipeline, o);
    mf_pl_check_free(&c);
    return 0;
}

void mf_pl_outcome(const mf_pl_check *c, const char *pipeline, mf_lc_outcome *o)
{
    memset(o, 0, sizeof *o);
    if (c->reply.fail != MF_PL_OK) {
        o->kind = c->reply.fail == MF_PL_TIMEOUT ? MF_LC_TIMEOUT : c->reply.fail == MF_PL_OOM ? MF_LC_OOM : MF_LC_CRASH;
        mf_pl_signature(&c->reply, pipeline, o->sig, sizeof o->sig);
        snprintf(o->crash, sizeof o->crash, "%s", mf_pl_fail_name(c->reply.fail));
        snprintf(o->frames, sizeof o->frames, "%s", c->reply.what);
        snprintf(o->detail, sizeof o->detail, "%s", c->reply.message);
        return;
    }
    int i = mf_pl_check_first_failed(c);
    if (i < 0) {
        o->kind = MF_LC_PASS;
        return;
    }
    char line[1200];
    mf_check_line(&c->k, i, line, sizeof line);
    mf_lc_classify(line, strlen(line), 0, false, o);
}

const char *mf_pl_finding_kind(const mf_lc_outcome *o)
{
    if (o->kind == MF_LC_ORACLE)
        return "oracle";
    if (!strncmp(o->sig, "protocol ", 9))
        return "protocol";
    return mf_lc_kind_name(o->kind);
}

char *mf_pl_entry_text(const mf_lc_entry *e, const char *pipeline, size_t *len)
{
    size_t n;
    char *text = mf_lc_entry_format(e, &n);
    if (!text)
        return NULL;
    char *after = strstr(text, "\nsignature: ");
    after = after ? strchr(after + 1, '\n') : strchr(text, '\n');
    if (!after) {
        *len = n;
        return text;
    }
    size_t head = (size_t)(after - text) + 1, add = strlen(pipeline) + 12;
    char *out = malloc(n + add + 1);
    if (out) {
        memcpy(out, text, head);
        int k = snprintf(out + head, add + 1, "pipeline: %s\n", pipeline);
        memcpy(out + head + k, text + head, n - head);
        *len = n + (size_t)k;
        out[*len] = '\0';
    }
    free(text);
    return out;
}

int mf_pl_entry_create(const char *dir, const mf_lc_entry *e, const char *pipeline, char *path_out, size_t n)
{
    char slug[160];
    mf_lc_slug(e->signature, slug, sizeof slug);
    if (mf_lc_mkdirs(dir) < 0)
        return -1;
    if (mf_lc_pathf(path_out, n, "%s/%s.%s", dir, slug, e->raw ? "raw" : "case") < 0)
        return -1;
    size_t len;
    char *text = mf_pl_entry_text(e, pipeline, &len);
    if (!text)
        return -1;
    int rc = mf_lc_write_new(path_out, text, len);
    free(text);
    return rc;
}

char *mf_pl_entry_pipeline(const char *text, size_t len)
{
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (l == 3 && !strncmp(p, "---", 3))
            break;
        if (l > 10 && !strncmp(p, "pipeline: ", 10))
            return strndup(p + 10, l - 10);
        p = nl ? nl + 1 : end;
    }
    return NULL;
}

void mf_pl_regression_dir(const char *pipeline, char *out, size_t n)
{
    if (!strcmp(pipeline, MF_PL_CORE))
        snprintf(out, n, "%s/corpus/regression", mf_lc_root());
    else
        snprintf(out, n, "%s/corpus/regression/%s", mf_lc_root(), pipeline);
}

json_t *mf_pl_open_signatures(const char *dir)
{
    json_t *set = json_object();
    size_t count;
    char **paths = mf_lc_entry_list(dir, &count);
    for (size_t i = 0; paths && i < count; i++) {
        mf_lc_entry e;
        char err[200];
        if (mf_lc_entry_read(paths[i], &e, err, sizeof err) == 0 && e.signature && e.status &&
            !strcmp(e.status, "open"))
            json_object_set_new(set, e.signature, json_true());
        mf_lc_entry_free(&e);
    }
    mf_lc_paths_free(paths);
    return set;
}
