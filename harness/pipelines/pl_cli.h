/* pl_cli.h - what the `malform` commands share to run a pipeline by name. */
#ifndef MALFORM_PL_CLI_H
#define MALFORM_PL_CLI_H

#include <stdbool.h>
#include "pipeline.h"

/* Exit status of a command whose pipeline is not installed here (ctest's
 * SKIP_RETURN_CODE in the pipeline tests). */
#define MF_PL_EXIT_MISSING 77

/* Find pipeline `name`, check that what it needs is installed and start it.
 * On failure prints "<who>: ..." to stderr, frees def and returns NULL with
 * *exit_code MF_PL_EXIT_MISSING (not installed) or 2 (unknown, broken). */
mf_pl_worker *mf_pl_cli_start(const char *name, mf_pl_def *def, bool coverage, const char *who, int *exit_code);
/* True when a `malform fuzz` command line asks for the black-box engine
 * (--engine blackbox, or --pipeline other than core). */
bool mf_pl_fuzz_wanted(int argc, char **argv);
/* `malform fuzz --engine blackbox ...` (argv[0] is "fuzz"). */
int mf_pl_fuzz_cli(int argc, char **argv);

#endif
