/* pl_fuzz_cli.c - `malform fuzz --engine blackbox --pipeline NAME ...`: the
 * options of the black-box engine, the worker's start and the summary line.
 * cmd_fuzz hands its argv here when the engine is blackbox or the pipeline
 * is not core (mf_pl_fuzz_wanted). */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_blackbox.h"
#include "pl_cli.h"

static const char usage_text[] =
    "usage: malform fuzz --engine blackbox --pipeline NAME --time S --workdir DIR\n"
    "                    [--runs N] [--seed N] [--coverage] [--no-behaviour] [--seeds DIR]\n"
    "                    [--regression DIR] [--min-runs N] [--quiet]\n"
    "  Fuzz a pipeline malform cannot instrument: structured cases, kept when they show\n"
    "  new behaviour (and, with --coverage, new worker coverage). Findings (minimized)\n"
    "  go to DIR/findings/, the campaign summary to DIR/stats.json.\n";

bool mf_pl_fuzz_wanted(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if ((!strcmp(a, "--engine") && !strcmp(v, "blackbox")) || !strcmp(a, "--engine=blackbox"))
            return true;
        if ((!strcmp(a, "--pipeline") && strcmp(v, MF_PL_CORE)) ||
            (!strncmp(a, "--pipeline=", 11) && strcmp(a + 11, MF_PL_CORE)))
            return true;
    }
    return false;
}

static void on_signal(int sig)
{
    (void)sig;
    mf_lc_stop = 1;
}

int mf_pl_fuzz_cli(int argc, char **argv)
{
    static const struct option options[] = {
        {"engine", required_argument, 0, 'e'},   {"pipeline", required_argument, 0, 'p'},
        {"time", required_argument, 0, 't'},     {"workdir", required_argument, 0, 'w'},
        {"runs", required_argument, 0, 'r'},     {"seed", required_argument, 0, 's'},
        {"coverage", no_argument, 0, 'c'},       {"no-behaviour", no_argument, 0, 'B'},
        {"seeds", required_argument, 0, 'S'},    {"regression", required_argument, 0, 'R'},
        {"min-runs", required_argument, 0, 'm'}, {"quiet", no_argument, 0, 'q'},
        {"target", required_argument, 0, 'T'},   {"jobs", required_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},           {0, 0, 0, 0}};
    mf_pl_bb_opts o = {0};
    o.behaviour = true;
    o.seconds = 60;
    const char *pipeline = NULL, *engine = "blackbox";
    optind = 1;
    opterr = 1;
    for (int c; (c = getopt_long(argc, argv, "h", options, NULL)) != -1;) {
        switch (c) {
        case 'e': engine = optarg; break;
        case 'p': pipeline = optarg; break;
        case 't': o.seconds = atof(optarg); break;
        case 'w': o.workdir = optarg; break;
        case 'r': o.max_execs = atol(optarg); break;
        case 's': o.seed = strtoull(optarg, NULL, 10); break;
        case 'c': o.coverage = true; break;
        case 'B': o.behaviour = false; break;
        case 'S': o.seeds_dir = optarg; break;
        case 'R': o.regression_dir = optarg; break;
        case 'm': o.min_runs = atoi(optarg); break;
        case 'q': o.quiet = true; break;
        case 'T': case 'j': break;
        case 'h': fputs(usage_text, stdout); return 0;
        default: fputs(usage_text, stderr); return 2;
        }
    }
    if (strcmp(engine, "blackbox")) {
        fprintf(stderr, "malform fuzz: a pipeline other than core runs only under --engine blackbox "
                        "(libFuzzer and AFL++ instrument C code only)\n");
        return 2;
    }
    if (!pipeline || !o.workdir || o.seconds <= 0 || optind != argc) {
        fputs(usage_text, stderr);
        return 2;
    }
    if (!o.behaviour && !o.coverage) {
        fprintf(stderr, "malform fuzz: --no-behaviour needs --coverage (some feedback is needed)\n");
        return 2;
    }
    mf_pl_def def;
    int exit_code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, o.coverage, "malform fuzz", &exit_code);
    if (!w)
        return exit_code;
    if (o.coverage && !mf_pl_hello_of(w)->coverage)
        fprintf(stderr, "malform fuzz: %s does not report coverage: behaviour feedback only\n", pipeline);
    if (mf_lc_mkdirs(o.workdir) < 0) {
        fprintf(stderr, "malform fuzz: cannot create %s\n", o.workdir);
        mf_pl_stop(w);
        mf_pl_def_free(&def);
        return 2;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("malform fuzz: blackbox on %s %s for %.0fs, workdir %s%s\n", mf_pl_hello_of(w)->name,
           mf_pl_hello_of(w)->version, o.seconds, o.workdir, o.coverage ? ", coverage feedback" : "");
    fflush(stdout);
    mf_pl_bb_stats st;
    int rc = mf_pl_blackbox(w, pipeline, &o, &st);
    if (rc == 0)
        printf("malform fuzz: %ld execs in %.0fs (%.0f/s), corpus %ld, %ld features, %ld coverage ids, "
               "%ld findings (%ld known), %d worker restarts -> %s/stats.json\n",
               st.execs, st.seconds, st.seconds > 0 ? st.execs / st.seconds : 0, st.kept, st.features, st.edges,
               st.findings, st.known, st.restarts, o.workdir);
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return rc < 0 ? 2 : st.findings ? 1 : 0;
}
