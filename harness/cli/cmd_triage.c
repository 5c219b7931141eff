/* cmd_triage.c - `malform triage`: turn what a campaign saved into
 * regression entries (see harness/lifecycle/lc_triage.c for the stages). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "lifecycle.h"

static int usage(FILE *f)
{
    fprintf(f,
            "usage: malform triage WORKDIR [--regression DIR] [--runner 'CMD ARGS'] [--target NAME]\n"
            "                      [--profile P] [--repeats N] [--timeout SEC] [--min-runs N]\n"
            "                      [--max-seconds S] [--no-minimize] [--dry-run] [--json]\n"
            "Collects libFuzzer crash-/timeout-/oom-/leak- files and AFL++ crashes/ and hangs/ under\n"
            "WORKDIR, reproduces each --repeats times (default 3), dedupes by signature against\n"
            "--regression (default corpus/regression), minimizes new ones (originals and results in\n"
            "WORKDIR/triage/) and writes one entry per new signature. WORKDIR/triage/triage.json\n"
            "lists every input. Exit: 0 nothing new, 1 new signature(s) written, 2 usage or I/O error.\n");
    return f == stdout ? 0 : 2;
}

static void on_signal(int sig)
{
    (void)sig;
    mf_lc_stop = 1;
}

int cmd_triage(int argc, char **argv)
{
    mf_lc_triage_opts o = {0};
    const char *workdir = NULL, *runner = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--regression") && next) o.regression_dir = argv[++i];
        else if (!strcmp(a, "--runner") && next) runner = argv[++i];
        else if (!strcmp(a, "--target") && next) o.target = argv[++i];
        else if (!strcmp(a, "--profile") && next) o.profile = argv[++i];
        else if (!strcmp(a, "--repeats") && next) o.repeats = atoi(argv[++i]);
        else if (!strcmp(a, "--timeout") && next) o.timeout_sec = atoi(argv[++i]);
        else if (!strcmp(a, "--min-runs") && next) o.min_runs = atoi(argv[++i]);
        else if (!strcmp(a, "--max-seconds") && next) o.deadline = mf_lc_clock() + atof(argv[++i]);
        else if (!strcmp(a, "--no-minimize")) o.no_minimize = true;
        else if (!strcmp(a, "--dry-run")) o.dry_run = true;
        else if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(stdout);
        else if (a[0] == '-' || workdir) return usage(stderr);
        else workdir = a;
    }
    if (!workdir)
        return usage(stderr);
    char **rargv = runner ? mf_lc_argv_split(runner) : NULL;
    if (runner && (!rargv || !rargv[0])) {
        fprintf(stderr, "malform triage: empty --runner\n");
        mf_lc_paths_free(rargv);
        return 2;
    }
    o.runner_argv = rargv;
    o.quiet = json;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (!json)
        printf("triage %s\n", workdir);
    mf_lc_triage_report rep;
    int rc = mf_lc_triage(workdir, &o, &rep);
    if (json) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/triage/triage.json", workdir);
        size_t n;
        char *t = mf_lc_read(path, &n);
        if (t)
            fputs(t, stdout), putchar('\n');
        free(t);
    } else {
        printf("%d input(s): %d reproducible, %d flaky, %d not reproduced, %d error(s), %d skipped; "
               "%d new signature(s), %d duplicate(s) [%.1fs]%s\n",
               rep.found, rep.reproducible, rep.flaky, rep.not_reproduced, rep.errors, rep.skipped, rep.new_sigs,
               rep.duplicates, rep.seconds, mf_lc_stop ? " (interrupted)" : "");
        printf("details: %s/triage/triage.json\n", workdir);
    }
    mf_lc_triage_report_free(&rep);
    mf_lc_paths_free(rargv);
    if (rc < 0)
        return 2;
    return rep.new_sigs > 0 ? 1 : 0;
}
