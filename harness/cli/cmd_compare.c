/* cmd_compare.c - `malform compare --pipelines core,jsonrepair,... --time S
 * --out DIR`: the same rendered cases through every pipeline; the
 * differential matrix goes to DIR/compare.json and a text table to stdout.
 * Exit 0, 2 usage or a pipeline that cannot start, 77 a pipeline not installed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "lifecycle.h"
#include "pl_cli.h"
#include "pl_compare.h"

static const struct option options[] = {{"pipelines", required_argument, NULL, 'p'},
                                        {"time", required_argument, NULL, 't'},
                                        {"out", required_argument, NULL, 'o'},
                                        {"cases", required_argument, NULL, 'n'},
                                        {"seed", required_argument, NULL, 's'},
                                        {"ops", required_argument, NULL, 'O'},
                                        {"seeds-dir", required_argument, NULL, 'D'},
                                        {0}};
static const cli_cmd cmd = {"compare", "--pipelines NAME,NAME,... --out DIR [--time SECONDS] [--cases N] [--seed N] [--ops IDS] [--seeds-dir DIR]",
                            "Render cases (a seed artifact under one malformation op each), send each to every\n"
                            "pipeline that handles its profile, and tabulate per op and op family x pipeline the\n"
                            "share restored exactly, accepted with lost or changed data, rejected, crashed\n"
                            "(default --time 30). Writes DIR/compare.json and DIR/cases/ (the smallest case of\n"
                            "each cell's worst outcome, the inputs the pipelines disagree on). --ops draws only\n"
                            "from these op ids or families; --seeds-dir (PROFILE/ARTIFACT files) replaces\n"
                            "corpus/seeds. A pipeline whose value dissents from a strict\n"
                            "majority is a finding (oracle differential) in DIR/findings/.\n"
                            "Exit: 0, 2 usage or a pipeline that cannot start, 77 a pipeline not installed here.\n",
                            "", options};

static void on_signal(int sig)
{
    (void)sig;
    mf_lc_stop = 1;
}

int cmd_compare(int argc, char **argv)
{
    mf_pl_compare_opts o = {0};
    o.seconds = 30;
    char *list = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'p': list = optarg; break;
        case 't': if (!cli_double_arg(&cmd, "--time", optarg, 0.1, &o.seconds)) return 2; break;
        case 'o': o.out_dir = optarg; break;
        case 'n': o.max_cases = atol(optarg); break;
        case 's': o.seed = strtoull(optarg, NULL, 10); break;
        case 'O': o.ops = optarg; break;
        case 'D': o.seeds_dir = optarg; break;
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    if (!list || !o.out_dir)
        return cli_usage_error(&cmd, "--pipelines and --out are required");
    char *copy = strdup(list);
    const char *names[16];
    mf_pl_def defs[16];
    mf_pl_worker *w[16];
    size_t n = 0;
    rc = 0;
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
