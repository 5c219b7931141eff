/* cmd_retry_prompt.c - `malform retry-prompt`: the retry feedback text (seed 004)
 * built from a history of attempts, and whether the budget allows another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
#include "malform/retry.h"

static const struct option options[] = {
    {"profile", required_argument, NULL, 'p'}, {"options", required_argument, NULL, 'O'}, {0}};
static const cli_cmd cmd = {"retry-prompt", "[--profile NAME|FILE.yaml] [--options OPTS.json] ATTEMPTS.json|-",
                            "Print the retry feedback text (seed 004) built from past attempts.\n"
                            "ATTEMPTS.json: a JSON array of `malform repair --output result` objects, oldest first.\n",
                            "", options};

int cmd_retry_prompt(int argc, char **argv)
{
    const char *profile = NULL, *optfile = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        if (c == CLI_EXIT)
            return rc;
        if (c == 'p')
            profile = optarg;
        else
            optfile = optarg;
    }
    if (argc - optind != 1)
        return cli_usage_error(&cmd, argc == optind ? "no ATTEMPTS.json given" : "one ATTEMPTS.json only");
    const char *file = argv[optind];
    mf_profile *owned = NULL;
    const mf_profile *p = NULL;
    if (profile && !(p = cli_profile(profile, &owned)))
        return 2;
    mf_options o = {0};
    json_t *opts = NULL;
    if (optfile) {
        opts = json_load_file(optfile, 0, NULL);
        if (!json_is_object(opts)) {
            fprintf(stderr, "malform: %s: options must be a JSON object\n", optfile);
            json_decref(opts);
            mf_profile_free(owned);
            return 2;
        }
        mf_options_from_json(json_object_get(opts, "options") ? json_object_get(opts, "options") : opts, &o);
    }
    size_t len;
    char *text = cli_read_file(file, &len);
    json_error_t je;
    json_t *attempts = text ? json_loadb(text, len, 0, &je) : NULL;
    rc = 2;
    if (!text) {
        /* message already printed */
    } else if (!attempts) {
        fprintf(stderr, "malform: %s:%d:%d: %s\n", file, je.line, je.column, je.text);
    } else {
        char err[512];
        char *fb = mf_retry_feedback_from_json(attempts, p, &o, err, sizeof err);
        if (fb) {
            fputs(fb, stdout);
            rc = 0;
            free(fb);
        } else {
            fprintf(stderr, "malform: %s: %s\n", file, err);
        }
    }
    json_decref(attempts);
    json_decref(opts);
    free(text);
    mf_profile_free(owned);
    return rc;
}
