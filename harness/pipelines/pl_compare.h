/* pl_compare.h - the differential matrix: the same rendered cases through
 * several pipelines; per malformation op and op family x pipeline, how many
 * were restored exactly, accepted with lost or changed data, rejected, or
 * made the pipeline fail (crash, timeout, protocol, oom). Written as
 * DIR/compare.json (COORD.md "Differential matrix"). */
#ifndef MALFORM_PL_COMPARE_H
#define MALFORM_PL_COMPARE_H

#include "pipeline.h"

typedef struct {
    const char *out_dir;
    double seconds;
    long max_cases;           /* 0: until the time is up */
    uint64_t seed;
    const char *seeds_dir;    /* default ROOT/corpus/seeds */
    int max_disagreements;    /* listed in compare.json (default 200) */
    const char *ops;          /* comma-separated op ids or families to draw from (NULL: all) */
} mf_pl_compare_opts;

/* Run the comparison over n started pipelines (names[i] runs in w[i]) and
 * write out_dir/compare.json plus the cases it points to; a pipeline that
 * dissents from a strict majority is a differential finding in out_dir/findings/. Returns the
 * matrix document (caller decrefs), or NULL with a message on stderr. */
json_t *mf_pl_compare(mf_pl_worker **w, const char *const *names, size_t n, const mf_pl_compare_opts *o);
/* Print the matrix as a text table (share restored / changed / rejected / crashed). */
void mf_pl_compare_print(const json_t *doc, FILE *f);

#endif
