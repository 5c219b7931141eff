/* lc_corpus.c - union copies, merge and atomic swap of a campaign corpus
 * (see lc_corpus.h). The staged union lives in ROOT/.stage-T, the minimized
 * result in ROOT/.new-T; the swap renames ROOT/T to ROOT/.old-T and .new-T
 * to T, and mf_lc_corpus_recover undoes a swap cut between the two. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lc_corpus.h"
#include "lifecycle.h"

int mf_lc_corpus_count(const char *dir)
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

int mf_lc_corpus_union(const char *src, const char *dst)
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
            int e = errno;
            closedir(d);
            errno = e;
            return -1;
        }
        c += w;
    }
    closedir(d);
    return c;
}

static void find_dirs(const char *dir, int depth, json_t *out)
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
            find_dirs(p, depth + 1, out);
    }
    if (d)
        closedir(d);
}

void mf_lc_corpus_find_dirs(const char *dir, json_t *out)
{
    find_dirs(dir, 0, out);
}

int mf_lc_corpus_recover(const char *root, const char *target)
{
    char cur[2 * PATH_MAX], bak[2 * PATH_MAX];
    snprintf(cur, sizeof cur, "%s/%s", root, target);
    snprintf(bak, sizeof bak, "%s/.old-%s", root, target);
    if (access(bak, F_OK) != 0)
        return 0;
    if (access(cur, F_OK) != 0 && rename(bak, cur) == 0)
        return 1;
    mf_lc_rm_rf(bak);
    return 0;
}

static bool stopping(mf_lc_merge_opts *o)
{
    return o->stop && o->stop(o->ctx);
}

json_t *mf_lc_corpus_merge(mf_lc_merge_opts *o)
{
    const char *target = o->target;
    char cur[2 * PATH_MAX], tmp[2 * PATH_MAX], bak[2 * PATH_MAX], stage[2 * PATH_MAX];
    snprintf(cur, sizeof cur, "%s/%s", o->root, target);
    snprintf(tmp, sizeof tmp, "%s/.new-%s", o->root, target);
    snprintf(bak, sizeof bak, "%s/.old-%s", o->root, target);
    snprintf(stage, sizeof stage, "%s/.stage-%s", o->root, target);
    mf_lc_rm_rf(tmp);
    mf_lc_rm_rf(stage);
    int before = mf_lc_corpus_count(cur);
    /* Stage: the old corpus plus every run's finds, deduplicated by content. */
    json_t *dirs = json_array();
    DIR *d = o->runs ? opendir(o->runs) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        const char *dash = strchr(de->d_name, '-');
        if (de->d_name[0] == '.' || !dash || strcmp(dash + 1, target))
            continue;
        char p[2 * PATH_MAX];
        mf_lc_pathf(p, sizeof p, "%s/%s", o->runs, de->d_name);
        mf_lc_corpus_find_dirs(p, dirs);
    }
    if (d)
        closedir(d);
    mf_lc_mkdirs(stage);
    int staged = mf_lc_corpus_union(cur, stage);
    size_t i;
    json_t *dj;
    json_array_foreach(dirs, i, dj) if (staged >= 0) {
        int c = mf_lc_corpus_union(json_string_value(dj), stage);
        staged = c < 0 ? -1 : staged + c;
    }
    json_decref(dirs);
    json_t *res = json_pack("{s:s, s:i}", "target", target, "before", before);
    if (staged < 0 || stopping(o)) {
        if (staged < 0 && (errno == ENOSPC || errno == EDQUOT))
            o->disk_full = true;
        mf_lc_rm_rf(stage);
        json_object_set_new(res, "status", json_string(staged < 0 ? "write error: corpus kept" : "skipped: stopping"));
        return res;
    }
    /* Minimize into tmp with the best tool there is. */
    mf_lc_mkdirs(tmp);
    const char *how = "union";
    bool ok = o->minimize ? o->minimize(o->ctx, stage, tmp, &how) && !stopping(o)
                          : mf_lc_corpus_union(stage, tmp) >= 0;
    int after = mf_lc_corpus_count(tmp);
    json_object_set_new(res, "method", json_string(how));
    if (!ok || (after == 0 && staged > 0)) {
        mf_lc_rm_rf(tmp);
        mf_lc_rm_rf(stage);
        json_object_set_new(res, "status", json_string(stopping(o) ? "cut short: corpus kept" : "merge failed: corpus kept"));
        json_object_set_new(res, "after", json_integer(before));
        return res;
    }
    /* Swap: two renames; mf_lc_corpus_recover repairs a cut between them. */
    if (access(cur, F_OK) == 0 && rename(cur, bak) != 0) {
        mf_lc_rm_rf(tmp);
        mf_lc_rm_rf(stage);
        json_object_set_new(res, "status", json_sprintf("rename failed: %s: corpus kept", strerror(errno)));
        return res;
    }
    if (rename(tmp, cur) != 0) {
        rename(bak, cur);
        json_object_set_new(res, "status", json_string("rename failed: corpus kept"));
    } else {
        mf_lc_rm_rf(bak);
        json_object_set_new(res, "status", json_string("merged"));
    }
    mf_lc_rm_rf(stage);
    json_object_set_new(res, "staged", json_integer(staged));
    json_object_set_new(res, "after", json_integer(mf_lc_corpus_count(cur)));
    return res;
}
