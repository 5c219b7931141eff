/* cmd_compare.c - `malform compare --pipelines core,jsonrepair,... --time S
 * --out DIR`: the same rendered cases through every pipeline; the
 * differential matrix goes to DIR/compare.json and a text table to stdout.
 * Exit 0, 2 usage or a pipeline that cannot start, 77 a pipeline not installed. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lifecycle.h"
#include "pl_cli.h"
#include "pl_compare.h"

static const char usage_text[] =
    "usage: malform compare --pipelines NAME,NAME,... --time S --out DIR [--cases N] [--seed N]\n"
    "  Render cases (a seed artifact under one malformation op each), send each to every\n"
    "  pipeline that handles its profile, and tabulate per op and op family x pipeline the\n"
    "  share restored exactly, accepted with lost or changed data, rejected, crashed.\n"
    "  Writes DIR/compare.json, DIR/cases/ (smallest worst case per cell, disagreements).\n";

static void on_signal(int sig)
{
    (void)sig;
    mf_lc_stop = 1;
}

int cmd_compare(int argc, char **argv)
{
    static const struct option options[] = {{"pipelines", required_argument, 0, 'p'}, {"time", required_argument, 0, 't'},
                                            {"out", required_argument, 0, 'o'},       {"cases", required_argument, 0, 'n'},
                                            {"seed", required_argument, 0, 's'},      {"help", no_argument, 0, 'h'},
                                            {0, 0, 0, 0}};
    mf_pl_compare_opts o = {0};
    o.seconds = 30;
    char *list = NULL;
    optind = 1;
    for (int c; (c = getopt_long(argc, argv, "h", options, NULL)) != -1;) {
        switch (c) {
        case 'p': list = optarg; break;
        case 't': o.seconds = atof(optarg); break;
        case 'o': o.out_dir = optarg; break;
        case 'n': o.max_cases = atol(optarg); break;
        case 's': o.seed = strtoull(optarg, NULL, 10); break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    if (!list || !o.out_dir || o.seconds <= 0 || optind != argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    char *copy = strdup(list);
    const char *names[16];
    mf_pl_def defs[16];
    mf_pl_worker *w[16];
    size_t n = 0;
    int rc = 0;
    for (char *t = copy ? strtok(copy, ",") : NULL; t && !rc; t = strtok(NULL, ",")) {
        if (n == 16) {
            fprintf(stderr, "malform compare: at most 16 pipelines\n");
            rc = 2;
            break;
        }
        if (!(w[n] = mf_pl_cli_start(t, &defs[n], false, "malform compare", &rc)))
            break;
        rc = 0;
        names[n++] = t;
    }
    if (!rc && n < 2) {
        fprintf(stderr, "malform compare: name at least two pipelines\n");
        rc = 2;
    }
    if (!rc) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        json_t *doc = mf_pl_compare(w, names, n, &o);
        if (doc) {
            mf_pl_compare_print(doc, stdout);
            printf("-> %s/compare.json\n", o.out_dir);
        } else {
            rc = 2;
        }
        json_decref(doc);
    }
    for (size_t i = 0; i < n; i++) {
        mf_pl_stop(w[i]);
        mf_pl_def_free(&defs[i]);
    }
    free(copy);
    return rc;
}
