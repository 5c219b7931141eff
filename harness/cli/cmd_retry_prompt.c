/* cmd_retry_prompt.c - `malform retry-prompt`: the retry feedback text (seed 004)
 * built from a history of attempts, and whether the budget allows another. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "malform/retry.h"

static int usage(void)
{
    fprintf(stderr, "usage: malform retry-prompt [--profile NAME|FILE.yaml] [--options OPTS.json] ATTEMPTS.json|-\n"
                    "ATTEMPTS.json: a JSON array of `malform repair --output result` objects, oldest first.\n");
    return 2;
}

int cmd_retry_prompt(int argc, char **argv)
{
    const char *profile = NULL, *optfile = NULL, *file = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--profile") && i + 1 < argc) profile = argv[++i];
        else if (!strcmp(argv[i], "--options") && i + 1 < argc) optfile = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1]) return usage();
        else file = argv[i];
    }
    if (!file)
        return usage();
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
    int rc = 2;
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
