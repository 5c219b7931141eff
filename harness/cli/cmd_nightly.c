/* cmd_nightly.c - `malform nightly`: the unattended campaign CI runs every
 * night (harness/lifecycle/lc_nightly.c); this file parses the options,
 * installs the signal handlers and prints the campaign's lines. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "lc_nightly.h"
#include "pl_cli.h"

static const struct option options[] = {
    {"budget", required_argument, NULL, 'B'},     {"engines", required_argument, NULL, 'e'},
    {"targets", required_argument, NULL, 't'},    {"jobs", required_argument, NULL, 'j'},
    {"workdir", required_argument, NULL, 'w'},    {"regression", required_argument, NULL, 'r'},
    {"min-free-mb", required_argument, NULL, 'm'}, {"no-build", no_argument, NULL, 'N'},
    {"fuzz-cmd", required_argument, NULL, 'F'},   {"pipelines", required_argument, NULL, 'P'}, {0}};
static const cli_cmd cmd = {"nightly",
                            "--budget MINUTES [--engines libfuzzer,afl] [--targets structured,raw]\n"
                            "[--jobs N] [--workdir DIR] [--regression DIR] [--no-build]\n"
                            "[--min-free-mb N] [--fuzz-cmd 'CMD ARGS'] [--pipelines NAME,...]",
                            "Builds the fuzz/afl presets (cmake output in WORKDIR/logs/), fuzzes every engine x\n"
                            "target within the budget (live execs/s and findings every 10 s), merges and minimizes\n"
                            "WORKDIR/corpus, triages into corpus/regression, writes WORKDIR/nightly.json,\n"
                            "WORKDIR/nightly.xml (JUnit) and WORKDIR/report/, one line per phase as it goes, and ends\n"
                            "by listing the new regression entries and what to do with them. Default workdir\n"
                            "fuzz-out/nightly. --fuzz-cmd runs CMD instead of `malform fuzz` (same arguments\n"
                            "appended), skips the build and merges by plain union: for custom engines and the tests.\n"
                            "Exit: 0 no new signature, 1 new reproducible signature(s), 2 usage or nothing could run,\n"
                            "3 stopped by a full disk, 130/143 interrupted (corpus intact, partial report).\n"
                            "--pipelines A,B: the budget is shared equally between core's campaign and each pipeline\n"
                            "under test, fuzzed by the black-box engine in WORKDIR/pipelines/NAME/ and triaged into\n"
                            "corpus/regression/NAME/ (a pipeline not installed here is skipped).\n",
                            "", options};

static void say(void *ctx, bool error, const char *line)
{
    (void)ctx;
    FILE *f = error ? stderr : stdout;
    fprintf(f, "nightly: %s\n", line);
    fflush(f);
}

static void on_signal(int sig)
{
    mf_lc_nightly_signal(sig);
}

int cmd_nightly(int argc, char **argv)
{
    mf_lc_nightly_opts o = {.budget_minutes = -1, .jobs = 2, .min_free_mb = 64, .say = say};
    const char *pipelines = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'B': if (!cli_double_arg(&cmd, "--budget", optarg, 0, &o.budget_minutes)) return 2; break;
        case 'e': o.engines = optarg; break;
        case 't': o.targets = optarg; break;
        case 'j': if (!cli_int_arg(&cmd, "--jobs", optarg, 1, 1024, &o.jobs)) return 2; break;
        case 'w': o.workdir = optarg; break;
        case 'r': o.regression = optarg; break;
        case 'm': if (!cli_int_arg(&cmd, "--min-free-mb", optarg, 0, 1 << 30, &o.min_free_mb)) return 2; break;
        case 'N': o.no_build = true; break;
        case 'F': o.fuzz_cmd = optarg; break;
        case 'P': pipelines = optarg; break;
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    if (o.budget_minutes <= 0)
        return cli_usage_error(&cmd, "--budget MINUTES (more than 0) is required");
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int shares = 1;
    for (const char *p = pipelines; p && *p; p++)
        shares += *p == ',';
    shares += pipelines && *pipelines ? 1 : 0;
    double total = o.budget_minutes;
    o.budget_minutes = total / shares;
    rc = mf_lc_nightly_run(&o);
    if (pipelines && *pipelines && (rc == 0 || rc == 1)) {
        int r = mf_pl_nightly(pipelines, total * 60 / shares, o.workdir ? o.workdir : "fuzz-out/nightly", o.regression);
        rc = r > rc ? r : rc;
    }
    return rc;
}
