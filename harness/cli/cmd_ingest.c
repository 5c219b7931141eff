/* cmd_ingest.c - `malform ingest`: take in a model output that broke
 * something in production.
 *
 * The bytes are stored content-addressed as corpus/field/<sha256[:16]>.raw
 * with <sha256[:16]>.json beside them (sha256, profile, note, date, size,
 * source name, first verdict). The pair is written all-or-nothing, metadata
 * last (mf_lc_write_pair): a kill, a full disk or a closed stdout at any
 * instant leaves no entry or a whole one, and a payload without metadata
 * (torn by an older version) counts as absent and is rewritten. Ingesting
 * the same bytes twice changes nothing. Inputs over the ingest size cap
 * (--max-size, default 1 MiB: the corpus is in git) are refused and not
 * stored. Check and triage run on a copy in the work dir before the entry
 * is written. The verdict of `malform check` is
 * printed (the full repair trace and oracle verdicts), and when an oracle
 * fails (or core crashes) the input is triaged like a fuzzer finding:
 * reproduced, minimized and written to corpus/regression as an open entry,
 * unless its signature is already there. fuzz_raw seeds from corpus/field. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include <unistd.h>
#include <jansson.h>
#include "lifecycle.h"
#include "lc_eval.h"
#include "cli_util.h"
#include "malform/input.h"
#include "pl_cli.h"

static const struct option options[] = {
    {"profile", required_argument, NULL, 'p'},   {"note", required_argument, NULL, 'n'},
    {"field", required_argument, NULL, 'f'},     {"regression", required_argument, NULL, 'r'},
    {"workdir", required_argument, NULL, 'w'},   {"runner", required_argument, NULL, 'R'},
    {"max-size", required_argument, NULL, 'm'}, {"pipeline", required_argument, NULL, 'P'},
    {0}};
static const cli_cmd cmd = {"ingest",
                            "--profile P [--note TEXT] [--field DIR] [--regression DIR]\n"
                            "[--workdir DIR] [--runner 'CMD ARGS'] [--max-size BYTES] [--pipeline NAME] FILE...",
                            "Stores each FILE as corpus/field/<sha256-prefix>.raw (+ .json metadata), prints the\n"
            "verdict of `malform check`, and triages an oracle failure or crash into\n"
            "corpus/regression. Idempotent; the pair is written all-or-nothing (metadata last).\n"
            "Files over --max-size (default 1048576 bytes) are refused and not stored.\n"
            "Exit: 0 every file passes, 1 some file fails (new or already tracked), 2 usage or\n"
            "I/O error or a file over the size cap.\n"
            "--pipeline NAME also judges each file on that pipeline under test and writes a failure,\n"
            "minimized, to corpus/regression/NAME/ (77: NAME is not installed here).\n",
                            "", options};

/* Print `malform check --profile P FILE` (a child of this very binary). */
static void print_check(const char *profile, const char *path)
{
    char *argv[] = {"/proc/self/exe", "check", "--profile", (char *)profile, NULL};
    mf_lc_runner r = {.argv = argv, .timeout_sec = 60, .max_log = 1 << 20};
    mf_lc_outcome o;
    char *log = NULL;
    mf_lc_run_path(&r, path, &o, &log);
    if (log && *log) {
        for (char *line = log, *nl; *line; line = nl ? nl + 1 : line + strlen(line)) {
            nl = strchr(line, '\n');
            printf("  | %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
            if (!nl)
                break;
        }
    }
    if (o.kind != MF_LC_PASS && o.kind != MF_LC_ERROR && o.kind != MF_LC_ORACLE)
        printf("  malform check itself failed: %s\n", o.sig);
    free(log);
}

#define INGEST_DEFAULT_MAX (1u << 20)

static char *metadata(const char *sha, const char *profile, const char *note, size_t len, const char *file,
                      const char *status, const char *sig)
{
    char ts[32];
    mf_lc_now(ts, sizeof ts);
    const char *base = !strcmp(file, "-") ? "(stdin)" : strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    json_t *meta = json_pack("{s:s, s:s, s:s?, s:s, s:I, s:s, s:s, s:s?}", "sha256", sha, "profile", profile,
                             "note", note, "date", ts, "size", (json_int_t)len, "source", base,
                             "first_verdict", strcmp(status, "not-reproduced") ? status : "pass",
                             "signature", sig);
    char *txt = meta ? json_dumps(meta, JSON_INDENT(2)) : NULL;
    json_decref(meta);
    return txt;
}

/* Print the triage verdict of one input; returns the file's exit code. */
static int print_verdict(const char *status, const char *sig, const char *entry, json_t *item)
{
    if (!strcmp(status, "not-reproduced")) {
        printf("  verdict: pass (nothing to triage)\n");
        return 0;
    }
    if (!strcmp(status, "new")) {
        printf("  verdict: FAIL %s\n  new regression entry: %s\n", sig, entry);
        return 1;
    }
    if (!strcmp(status, "duplicate")) {
        printf("  verdict: FAIL %s\n  already tracked by: %s\n", sig, entry);
        return 1;
    }
    if (!strcmp(status, "flaky")) {
        printf("  verdict: FLAKY %s (not written to the regression corpus)\n", sig ? sig : "");
        return 1;
    }
    const char *d = json_string_value(json_object_get(item, "detail"));
    printf("  triage error: %s\n", d ? d : "unknown");
    return 2;
}

static const char *ingest_pipeline;   /* --pipeline NAME, NULL for core only */

static int ingest_one(const char *file, const char *profile, const char *note, const char *field_dir,
                      mf_lc_triage_opts *topt, const char *workdir, size_t max_size)
{
    size_t len;
    char *data;
    mf_input_status st = mf_input_read(file, max_size, &data, &len);   /* "-" reads stdin */
    if (st == MF_INPUT_TOO_LARGE) {
        fprintf(stderr, "malform ingest: %s: not stored: larger than the ingest size cap of %zu bytes "
                "(--max-size)\n", file, max_size);
        free(data);
        return 2;
    }
    if (st != MF_INPUT_OK) {
        fprintf(stderr, "malform ingest: %s\n", mf_input_describe(st, file, max_size));
        return 2;
    }
    char sha[65], raw_path[PATH_MAX], meta_path[PATH_MAX], copy[PATH_MAX];
    mf_lc_sha256_hex(data, len, sha);
    mf_lc_pathf(raw_path, sizeof raw_path, "%s/%.16s.raw", field_dir, sha);
    mf_lc_pathf(meta_path, sizeof meta_path, "%s/%.16s.json", field_dir, sha);
    if (mf_lc_mkdirs(field_dir) < 0 || mf_lc_mkdirs(workdir) < 0) {
        fprintf(stderr, "malform ingest: cannot create %s or %s: %s\n", field_dir, workdir, strerror(errno));
        free(data);
        return 2;
    }
    /* A different file behind the same 64-bit prefix: keep the full hash. */
    size_t ol;
    char *old = access(meta_path, F_OK) == 0 ? mf_lc_read(raw_path, &ol) : NULL;
    if (old && (ol != len || memcmp(old, data, len))) {
        mf_lc_pathf(raw_path, sizeof raw_path, "%s/%s.raw", field_dir, sha);
        mf_lc_pathf(meta_path, sizeof meta_path, "%s/%s.json", field_dir, sha);
    }
    free(old);
    bool stored = access(meta_path, F_OK) == 0;   /* a payload without metadata is a torn write */
    if (mf_lc_pathf(copy, sizeof copy, "%s/input-%.16s.raw", workdir, sha) < 0 ||
        mf_lc_write_atomic(copy, data, len) < 0) {
        fprintf(stderr, "malform ingest: cannot write %s: %s\n", copy, strerror(errno));
        free(data);
        return 2;
    }
    printf("%s: %s %s (sha256 %.16s..., %zu bytes, profile %s)\n", file,
           stored ? "already ingested as" : "storing as", raw_path, sha, len, profile);
    fflush(stdout);
    print_check(profile, copy);

    /* Triage (reproduce, dedupe, minimize, write) a failure. */
    mf_lc_triage_report rep;
    mf_lc_triage_input(copy, workdir, topt, &rep);
    json_t *item = json_array_get(rep.items, 0);
    const char *status = json_string_value(json_object_get(item, "status"));
    const char *sig = json_string_value(json_object_get(item, "signature"));
    const char *entry = json_string_value(json_object_get(item, "entry"));
    if (!status)
        status = "error";
    int rc = print_verdict(status, sig, entry, item);
    if (ingest_pipeline && strcmp(ingest_pipeline, "core")) {   /* judged on a pipeline under test too */
        int r = mf_pl_ingest(ingest_pipeline, copy, profile, topt->regression_dir);
        if (r > rc)
            rc = r;
    }
    if (!stored) {
        char *txt = metadata(sha, profile, note, len, file, status, sig);
        int w = txt ? mf_lc_write_pair(raw_path, data, len, meta_path, txt, strlen(txt)) : -1;
        if (w < 0) {
            fprintf(stderr, "malform ingest: cannot store %s: %s (nothing stored)\n", raw_path,
                    txt ? strerror(errno) : "out of memory");
            rc = 2;
        } else {
            printf("  stored %s and %s\n", raw_path, meta_path);
        }
        free(txt);
    }
    unlink(copy);
    mf_lc_triage_report_free(&rep);
    free(data);
    return rc;
}

int cmd_ingest(int argc, char **argv)
{
    const char *profile = NULL, *note = NULL, *field = NULL, *workdir = NULL, *runner = NULL;
    size_t max_size = INGEST_DEFAULT_MAX;
    mf_lc_triage_opts topt = {0};
    const char *files[512];
    int nf = 0;
    int c, rc, max_mb;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'p': profile = optarg; break;
        case 'n': note = optarg; break;
        case 'f': field = optarg; break;
        case 'r': topt.regression_dir = optarg; break;
        case 'w': workdir = optarg; break;
        case 'R': runner = optarg; break;
        case 'P': ingest_pipeline = optarg; break;
        case 'm':
            if (!cli_int_arg(&cmd, "--max-size", optarg, 1, MF_DEFAULT_MAX_INPUT, &max_mb))
                return 2;
            max_size = (size_t)max_mb;
            break;
        }
    }
    if (argc - optind > 512)
        return cli_usage_error(&cmd, "at most 512 files at once");
    while (optind < argc)
        files[nf++] = argv[optind++];
    if (!profile)
        return cli_usage_error(&cmd, "--profile is required");
    if (!nf)
        return cli_usage_error(&cmd, "no FILE given");
    if (!mf_profiles_get(profile)) {
        fprintf(stderr, "malform ingest: unknown profile '%s' (malform profiles lists them)\n", profile);
        return 2;
    }
    char fieldbuf[PATH_MAX], workbuf[PATH_MAX];
    if (!field) {
        snprintf(fieldbuf, sizeof fieldbuf, "%s/corpus/field", mf_lc_root());
        field = fieldbuf;
    }
    if (!workdir) {
        const char *t = getenv("TMPDIR");
        snprintf(workbuf, sizeof workbuf, "%s/malform-ingest", t && *t ? t : "/tmp");
        workdir = workbuf;
    }
    if (runner && !(topt.runner_argv = mf_lc_argv_split(runner)))
        return 2;
    topt.target = "field";
    topt.profile = profile;
    topt.engine = "field";
    topt.quiet = true;
    if (!mf_lc_eval_available() && !runner) {
        fprintf(stderr, "malform ingest: this build has no oracles (harness library)\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN); /* `| head` must not stop ingest between the payload and its metadata */
    rc = 0;
    for (int i = 0; i < nf; i++) {
        int r = ingest_one(files[i], profile, note, field, &topt, workdir, max_size);
        if (r > rc)
            rc = r;
    }
    mf_lc_paths_free(topt.runner_argv);
    return rc;
}
