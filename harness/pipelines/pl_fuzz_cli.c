/* pl_fuzz_cli.c - `malform fuzz --engine blackbox --pipeline NAME`: start
 * the pipeline, run the black-box engine, print the summary line. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "pl_blackbox.h"
#include "pl_cli.h"

static void on_signal(int sig)
{
    (void)sig;
    mf_lc_stop = 1;
}

int mf_pl_fuzz_run(const char *pipeline, const mf_pl_bb_opts *o)
{
    mf_pl_def def;
    int exit_code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, o->coverage || o->measure_coverage, "malform fuzz", &exit_code);
    if (!w)
        return exit_code;
    if ((o->coverage || o->measure_coverage) && !mf_pl_hello_of(w)->coverage)
        fprintf(stderr, "malform fuzz: %s does not report coverage: behaviour feedback only\n", pipeline);
    if (mf_lc_mkdirs(o->workdir) < 0) {
        fprintf(stderr, "malform fuzz: cannot create %s\n", o->workdir);
        mf_pl_stop(w);
        mf_pl_def_free(&def);
        return 2;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    printf("malform fuzz: blackbox on %s %s for %.0fs, workdir %s%s\n", mf_pl_hello_of(w)->name,
           mf_pl_hello_of(w)->version, o->seconds, o->workdir, o->coverage ? ", coverage feedback" : "");
    fflush(stdout);
    mf_pl_bb_stats st;
    int rc = mf_pl_blackbox(w, pipeline, o, &st);
    if (rc == 0)
        printf("malform fuzz: %ld execs in %.0fs (%.0f/s), corpus %ld, %ld features, %ld coverage ids, "
               "%ld findings (%ld known, %ld of an already found cause), %d worker restarts -> "
               "%s/stats.json\n",
               st.execs, st.seconds, st.seconds > 0 ? st.execs / st.seconds : 0, st.kept, st.features, st.edges,
               st.findings, st.known, st.same_cause, st.restarts, o->workdir);
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return rc < 0 ? 2 : st.findings ? 1 : 0;
}
