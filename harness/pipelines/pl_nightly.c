/* pl_nightly.c - the pipelines' part of `malform nightly --pipelines A,B`:
 * each pipeline gets its share of the budget under the black-box engine in
 * WORKDIR/pipelines/NAME/, then its findings are triaged into
 * corpus/regression/NAME/. A pipeline not installed here is skipped (said
 * so), never a failure of the night. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_blackbox.h"
#include "pl_cli.h"

int mf_pl_nightly(const char *names, double seconds_each, const char *workdir, const char *regression_dir)
{
    char *copy = strdup(names);
    int rc = 0;
    for (char *save = NULL, *name = copy ? strtok_r(copy, ",", &save) : NULL; name && !mf_lc_stop;
         name = strtok_r(NULL, ",", &save)) {
        if (!strcmp(name, MF_PL_CORE))
            continue;
        char dir[4096], regdir[4200];
        snprintf(dir, sizeof dir, "%s/pipelines/%s", workdir, name);
        if (regression_dir)
            snprintf(regdir, sizeof regdir, "%s/%s", regression_dir, name);
        else
            mf_pl_regression_dir(name, regdir, sizeof regdir);
        printf("nightly: pipeline %s: black-box fuzz for %.0f s in %s\n", name, seconds_each, dir);
        fflush(stdout);
        mf_pl_bb_opts o = {.workdir = dir, .seconds = seconds_each, .behaviour = true, .quiet = true,
                           .regression_dir = regdir};
        int r = mf_pl_fuzz_run(name, &o);
        if (r == MF_PL_EXIT_MISSING) {
            printf("nightly: pipeline %s skipped: not installed here\n", name);
            continue;
        }
        if (r == 2) {
            printf("nightly: pipeline %s could not run\n", name);
            rc = rc < 2 ? 2 : rc;
            continue;
        }
        if (r == 1) {
            mf_pl_triage(name, dir, regdir, 2, false);
            rc = rc < 1 ? 1 : rc;
        }
    }
    free(copy);
    return rc;
}
