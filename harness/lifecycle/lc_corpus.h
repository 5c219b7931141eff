/* lc_corpus.h - the persistent fuzzing corpus of a campaign
 * (WORKDIR/corpus/<target>): content-addressed union copies, and the merge
 * of what the runs found into it, swapped in with two renames so that an
 * interruption leaves the old corpus or the new one, never a mix. */
#ifndef MALFORM_LC_CORPUS_H
#define MALFORM_LC_CORPUS_H

#include <stdbool.h>
#include <jansson.h>

/* Entries of dir not starting with '.'; 0 when it is missing. */
int mf_lc_corpus_count(const char *dir);
/* Copy every regular file of src into dst named by its SHA-256 (a union that
 * drops duplicates; README.txt and dot files skipped). Files copied, or -1 on
 * a write error (errno kept). A missing src copies nothing. */
int mf_lc_corpus_union(const char *src, const char *dst);
/* Append to out (a JSON array of paths) every directory under dir (depth
 * limited) that holds corpus inputs: AFL++ queue/ and corpus* directories;
 * crashes/, hangs/ and triage/ are not descended. */
void mf_lc_corpus_find_dirs(const char *dir, json_t *out);
/* Repair a swap cut between its two renames (ROOT/.old-TARGET left behind):
 * 1 when the old corpus was restored, 0 otherwise. */
int mf_lc_corpus_recover(const char *root, const char *target);

typedef struct {
    const char *root;        /* WORKDIR/corpus: the corpus is ROOT/<target> */
    const char *target;
    const char *runs;        /* WORKDIR/runs: <engine>-<target>/ dirs hold the finds */
    /* Minimize the staged inputs (stage) into out (empty, existing); true on
     * success, *how names the method. NULL: plain union. */
    bool (*minimize)(void *ctx, const char *stage, const char *out, const char **how);
    bool (*stop)(void *ctx); /* checked between steps: true keeps the old corpus */
    void *ctx;
    bool disk_full;          /* out: a write failed for lack of space */
} mf_lc_merge_opts;

/* Merge: the old corpus plus every run's finds for the target, deduplicated,
 * minimized, then swapped in. Returns a JSON record (target, before, staged,
 * after, method, status: "merged" or why the corpus was kept). */
json_t *mf_lc_corpus_merge(mf_lc_merge_opts *o);

#endif
