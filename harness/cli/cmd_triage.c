/* cmd_triage.c - `malform triage`: turn what a campaign saved into
 * regression entries (see harness/lifecycle/lc_triage.c for the stages). */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli_args.h"
#include "lifecycle.h"
#include "pl_cli.h"

static const struct option options[] = {
    {"regression", required_argument, NULL, 'r'}, {"runner", required_argument, NULL, 'R'},
    {"target", required_argument, NULL, 't'},     {"profile", required_argument, NULL, 'p'},
    {"repeats", required_argument, NULL, 'n'},    {"timeout", required_argument, NULL, 'T'},
    {"min-runs", required_argument, NULL, 'm'},   {"max-seconds", required_argument, NULL, 'S'},
    {"no-minimize", no_argument, NULL, 'M'},      {"dry-run", no_argument, NULL, 'd'},
    {"json", no_argument, NULL, 'j'},             {"pipeline", required_argument, NULL, 'P'}, {0}};
static const cli_cmd cmd = {"triage",
                            "WORKDIR [--regression DIR] [--runner 'CMD ARGS'] [--target NAME]\n"
                            "[--profile P] [--repeats N] [--timeout SEC] [--min-runs N]\n"
                            "[--max-seconds S] [--no-minimize] [--dry-run] [--json] [--pipeline NAME]",
                            "Collects libFuzzer crash-/timeout-/oom-/leak- files and AFL++ crashes/ and hangs/ under\n"
            "WORKDIR, reproduces each --repeats times (default 3), dedupes by signature against\n"
            "--regression (default corpus/regression), minimizes new ones (originals and results in\n"
            "WORKDIR/triage/) and writes one entry per new signature. WORKDIR/triage/triage.json\n"
            "lists every input. Exit: 0 nothing new, 1 new signature(s) written, 2 usage or I/O error.\n"
            "--pipeline NAME: the black-box engine's WORKDIR/findings/ of pipeline NAME, reproduced on\n"
            "its worker, into corpus/regression/NAME/ (exit 77 when NAME is not installed here).\n",
                            "", options};

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
    const char *pipeline = NULL;
    int c, rc;
    double max_seconds;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'r': o.regression_dir = optarg; break;
        case 'R': runner = optarg; break;
        case 't': o.target = optarg; break;
        case 'p': o.profile = optarg; break;
        case 'n': if (!cli_int_arg(&cmd, "--repeats", optarg, 1, 1000, &o.repeats)) return 2; break;
        case 'T': if (!cli_int_arg(&cmd, "--timeout", optarg, 1, 86400, &o.timeout_sec)) return 2; break;
        case 'm': if (!cli_int_arg(&cmd, "--min-runs", optarg, 1, 1000000, &o.min_runs)) return 2; break;
        case 'S':
            if (!cli_double_arg(&cmd, "--max-seconds", optarg, 0, &max_seconds))
                return 2;
            o.deadline = mf_lc_clock() + max_seconds;
            break;
        case 'M': o.no_minimize = true; break;
        case 'd': o.dry_run = true; break;
        case 'j': json = 1; break;
        case 'P': pipeline = optarg; break;
        }
    }
    if (argc - optind != 1)
        return cli_usage_error(&cmd, argc == optind ? "no WORKDIR given" : "one WORKDIR only");
    workdir = argv[optind];
    if (cli_need_path(&cmd, "WORKDIR", workdir))
        return 2;
    if (pipeline && strcmp(pipeline, "core"))   /* black-box findings of a pipeline under test */
        return mf_pl_triage(pipeline, workdir, o.regression_dir, o.repeats, o.dry_run);
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
    rc = mf_lc_triage(workdir, &o, &rep);
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
        size_t nc = json_array_size(rep.causes);
        if (nc)
            printf("new and regressed signatures by likely cause (same oracle, one's ops a subset of "
                   "another's): %zu; judge one of each first:\n", nc);
        for (size_t i = 0; i < nc; i++) {
            json_t *c = json_array_get(rep.causes, i);
            printf("  %3d  %s\n", (int)json_integer_value(json_object_get(c, "signatures")),
                   json_string_value(json_object_get(c, "cause")));
        }
        printf("details: %s/triage/triage.json\n", workdir);
    }
    mf_lc_triage_report_free(&rep);
    mf_lc_paths_free(rargv);
    if (rc < 0)
        return 2;
    return rep.new_sigs > 0 ? 1 : 0;
}
