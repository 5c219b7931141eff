/* pl_cli.c - start a pipeline by name for a command, with clear errors. */
#include <stdio.h>
#include <string.h>
#include "pl_cli.h"

mf_pl_worker *mf_pl_cli_start(const char *name, mf_pl_def *def, bool coverage, const char *who, int *exit_code)
{
    char err[1024], buf[1024];
    *exit_code = 2;
    if (mf_pl_def_find(name, def, err, sizeof err) < 0) {
        fprintf(stderr, "%s: %s\n", who, err);
        return NULL;
    }
    const char *missing = mf_pl_def_missing(def, buf, sizeof buf);
    if (missing) {
        fprintf(stderr, "%s: pipeline %s is not installed here: %s\n", who, name, missing);
        *exit_code = MF_PL_EXIT_MISSING;
        mf_pl_def_free(def);
        return NULL;
    }
    mf_pl_worker *w = mf_pl_start(def, coverage, err, sizeof err);
    if (!w) {
        fprintf(stderr, "%s: %s\n", who, err);
        mf_pl_def_free(def);
    }
    return w;
}
