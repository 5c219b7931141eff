/* cmd_fuzz.c - `malform fuzz`: run one engine on one target for a time
 * budget (harness/lifecycle/lc_engine.c) and say how it went. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "lc_engine.h"
#include "pl_blackbox.h"
#include "pl_cli.h"

static const struct option options[] = {
    {"engine", required_argument, NULL, 'e'},  {"target", required_argument, NULL, 't'},
    {"time", required_argument, NULL, 'T'},    {"jobs", required_argument, NULL, 'j'},
    {"workdir", required_argument, NULL, 'w'}, {"corpus", required_argument, NULL, 'c'},
    {"build", required_argument, NULL, 'b'},   {"pipeline", required_argument, NULL, 'P'},
    {"runs", required_argument, NULL, 'r'},    {"seed", required_argument, NULL, 's'},
    {"coverage", no_argument, NULL, 'C'},      {"no-behaviour", no_argument, NULL, 'B'},
    {"min-runs", required_argument, NULL, 'm'}, {"measure-coverage", no_argument, NULL, 'M'}, {0}};
static const cli_cmd cmd = {"fuzz",
                            "--engine libfuzzer|afl --target structured|raw [--time SECONDS] [--jobs N]\n"
                            "--workdir DIR [--corpus DIR] [--build DIR]\n"
                            "malform fuzz --engine blackbox --pipeline NAME --time SECONDS --workdir DIR [--runs N]\n"
                            "[--seed N] [--coverage|--measure-coverage] [--no-behaviour] [--min-runs N] [--corpus SEEDS_DIR]",
                            "Runs one engine on one fuzz target of the fuzz/afl preset build (default --time 60,\n"
                            "--jobs 1), prints its progress every few seconds and writes WORKDIR/stats.json.\n"
                            "Exit: 0 no failure, 1 failures found, 2 usage or setup error.\n"
                            "--engine blackbox fuzzes a pipeline under test (malform pipelines; core too) with\n"
                            "malform's own engine: structured cases kept when they show new behaviour (and, with\n"
                            "--coverage, new coverage reported by the worker); minimized findings go to\n"
                            "WORKDIR/findings/. Exit 77: the pipeline is not installed here.\n",
                            "", options};

static void print_progress(void *ctx, const mf_lc_engine_progress *p)
{
    (void)ctx;
    char line[256];
    mf_lc_engine_progress_format(p, line, sizeof line);
    printf("malform fuzz: %s\n", line);
    fflush(stdout);
}

int cmd_fuzz(int argc, char **argv)
{
    mf_lc_engine_opts o = {.seconds = 60, .jobs = 1, .on_progress = print_progress};
    mf_pl_bb_opts bb = {.behaviour = true};
    const char *pipeline = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'e': o.engine = optarg; break;
        case 't': o.target = optarg; break;
        case 'T': if (!cli_int_arg(&cmd, "--time", optarg, 1, 7 * 86400, &o.seconds)) return 2; break;
        case 'j': if (!cli_int_arg(&cmd, "--jobs", optarg, 1, 1024, &o.jobs)) return 2; break;
        case 'w': o.workdir = optarg; break;
        case 'c': o.corpus = optarg; break;
        case 'b': o.build = optarg; break;
        case 'P': pipeline = optarg; break;
        case 'r': bb.max_execs = atol(optarg); break;
        case 's': bb.seed = strtoull(optarg, NULL, 10); break;
        case 'C': bb.coverage = true; break;
        case 'B': bb.behaviour = false; break;
        case 'M': bb.measure_coverage = true; break;
        case 'm': if (!cli_int_arg(&cmd, "--min-runs", optarg, 1, 100000, &bb.min_runs)) return 2; break;
        }
    }
    if (optind < argc)
        return cli_usage_error(&cmd, "unexpected argument '%s'", argv[optind]);
    if ((o.engine && !strcmp(o.engine, "blackbox")) || (pipeline && strcmp(pipeline, "core"))) {
        if (o.engine && strcmp(o.engine, "blackbox"))
            return cli_usage_error(&cmd, "a pipeline other than core runs under --engine blackbox only");
        if (!pipeline || !o.workdir)
            return cli_usage_error(&cmd, "--engine blackbox needs --pipeline and --workdir");
        if (!bb.behaviour && !bb.coverage)
            return cli_usage_error(&cmd, "--no-behaviour needs --coverage");
        bb.workdir = o.workdir;
        bb.seconds = o.seconds;
        bb.seeds_dir = o.corpus;
        return mf_pl_fuzz_run(pipeline, &bb);
    }
    if (!o.engine || (strcmp(o.engine, "libfuzzer") && strcmp(o.engine, "afl")))
        return cli_usage_error(&cmd, "--engine is libfuzzer or afl");
    if (!o.target || (strcmp(o.target, "structured") && strcmp(o.target, "raw")))
        return cli_usage_error(&cmd, "--target is structured or raw");
    if (!o.workdir)
        return cli_usage_error(&cmd, "--workdir is required");
    printf("malform fuzz: %s %s for %ds, %d job(s), workdir %s\n", o.engine, o.target, o.seconds, o.jobs, o.workdir);
    fflush(stdout);
    json_t *doc;
    char err[1024];
    if (mf_lc_engine_run(&o, &doc, err, sizeof err) < 0) {
        fprintf(stderr, "malform fuzz: %s\n", err);
        return 2;
    }
    double secs = json_real_value(json_object_get(doc, "seconds"));
    json_int_t execs = json_integer_value(json_object_get(doc, "execs"));
    size_t nf = json_array_size(json_object_get(doc, "failures"));
    printf("malform fuzz: %lld execs in %.0fs (%.0f/s), %zu rules fired, %zu distinct failures -> %s/stats.json\n",
           (long long)execs, secs, secs > 0 ? (double)execs / secs : 0,
           json_object_size(json_object_get(doc, "rules_fired")), nf, o.workdir);
    json_int_t vr = json_integer_value(json_object_get(doc, "valid_renders"));
    if (vr)
        printf("malform fuzz: %lld execs were valid renders (an op's damage loaded strictly as another value, which "
               "core kept as written): judged no failure; see `malform check` on such a case\n", (long long)vr);
    json_decref(doc);
    return nf ? 1 : 0;
}
