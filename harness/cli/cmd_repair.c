/* cmd_repair.c - `malform repair`: run the pipeline on one model output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
#include "malform/input.h"
#include "repair_jsonl.h"

static const struct option options[] = {
    {"profile", required_argument, NULL, 'p'},   {"output", required_argument, NULL, 'o'},
    {"options", required_argument, NULL, 'O'},   {"ticket-id", required_argument, NULL, 't'},
    {"story-id", required_argument, NULL, 's'},  {"interview-sha256", required_argument, NULL, 'i'},
    {"jsonl", no_argument, NULL, 'j'},           {0}};
static const cli_cmd cmd = {"repair",
                            "[--profile NAME|FILE.yaml] [--output json|yaml|result]\n"
                            "[--options FILE.json] [--ticket-id ID] [--story-id ID]\n"
                            "[--interview-sha256 HEX] [--jsonl] [FILE|-]",
                            "Repair one model output (default: stdin) and print the value; warnings go to stderr.\n"
                            "Exit: 0 accepted, 1 rejected, 2 usage or I/O error.\n"
                            "With --jsonl, FILE holds one request per line, {\"id\", \"input\" or \"case\", \"profile\"?,\n"
                            "\"options\"?} (\"case\": a structured case, rendered first), and each gets one line\n"
                            "{\"id\", \"result\"} (the --output result object; \"rendered\" too for a case) or\n"
                            "{\"id\", \"error\"}; --profile and the context flags are the defaults. Exit 0 when every\n"
                            "request got a result, else 2.\n",
                            "", options};

/* "warning: line 3: [rule] message", plus "(applied N times, first at lines 3, 7, 12, ...)" for a run. */
static void print_warning(const mf_warning *w)
{
    fprintf(stderr, "warning: line %d: [%s] %s", w->line, w->rule, w->message ? w->message : "");
    if (w->count > 1) {
        fprintf(stderr, " (applied %zu times, first at lines", w->count);
        for (int i = 0; i < w->nlines; i++)
            fprintf(stderr, "%s %d", i ? "," : "", w->lines[i]);
        fprintf(stderr, "%s)", (size_t)w->nlines < w->count ? ", ..." : "");
    }
    fputc('\n', stderr);
}

int cmd_repair(int argc, char **argv)
{
    const char *profile = NULL, *output = NULL, *file = "-", *optfile = NULL;
    mf_options o = {0};
    const char *ticket = NULL, *story = NULL, *sha = NULL;
    int c, rc, jsonl = 0;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        switch (c) {
        case CLI_EXIT: return rc;
        case 'p': profile = optarg; break;
        case 'o': output = optarg; break;
        case 'O': optfile = optarg; break;
        case 't': ticket = optarg; break;
        case 's': story = optarg; break;
        case 'i': sha = optarg; break;
        case 'j': jsonl = 1; break;
        }
    }
    if (argc - optind > 1)
        return cli_usage_error(&cmd, "one input only");
    if (optind < argc)
        file = argv[optind];
    if (output && strcmp(output, "json") && strcmp(output, "yaml") && strcmp(output, "result"))
        return cli_usage_error(&cmd, "--output is json, yaml or result, not '%s'", output);
    mf_profile *owned = NULL;
    const mf_profile *p = NULL;
    if (profile && !(p = cli_profile(profile, &owned)))
        return 2;
    json_t *optjson = NULL;
    if (optfile) {
        json_error_t je;
        optjson = json_load_file(optfile, 0, &je);
        if (!json_is_object(optjson)) {
            fprintf(stderr, "malform: %s:%d: %s\n", optfile, je.line, optjson ? "options must be an object" : je.text);
            json_decref(optjson);
            mf_profile_free(owned);
            return 2;
        }
        mf_options_from_json(json_object_get(optjson, "options") ? json_object_get(optjson, "options") : optjson, &o);
    }
    json_t *context = json_object(); /* the flags override the options file's context */
    if (o.context)
        json_object_update(context, (json_t *)o.context);
    if (ticket) json_object_set_new(context, "ticket_id", json_string(ticket));
    if (story) json_object_set_new(context, "story_id", json_string(story));
    if (sha) json_object_set_new(context, "interview_sha256", json_string(sha));
    o.context = context;
    if (jsonl) {
        FILE *in = strcmp(file, "-") ? fopen(file, "r") : stdin;
        if (!in) {
            fprintf(stderr, "malform: %s: cannot open: %s\n", file, strerror(errno));
            rc = 2;
        } else {
            rc = cli_repair_jsonl(in, stdout, p, context);
            if (in != stdin)
                fclose(in);
        }
        json_decref(context);
        json_decref(optjson);
        mf_profile_free(owned);
        return rc;
    }
    size_t len;
    char *raw;
    /* Over the cap, the first cap + 1 bytes go to mf_repair, which rejects them as INPUT_TOO_LARGE. */
    mf_input_status st = mf_input_read(file, o.max_input, &raw, &len);
    if (st != MF_INPUT_OK && st != MF_INPUT_TOO_LARGE) {
        fprintf(stderr, "malform: %s\n", mf_input_describe(st, file, o.max_input));
        json_decref(context);
        json_decref(optjson);
        mf_profile_free(owned);
        return 2;
    }
    mf_result *r = mf_repair(p, raw, len, &o);
    rc = 2;
    if (r) {
        rc = r->status == MF_ACCEPTED ? 0 : 1;
        if (output && !strcmp(output, "result")) {
            json_t *j = mf_result_to_json(r);
            if (!j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) || fputc('\n', stdout) == EOF) {
                fprintf(stderr, "malform: cannot write the result (out of memory or output closed)\n");
                rc = 2;
            }
            json_decref(j);
        } else {
            for (size_t i = 0; i < r->warnings.count; i++)
                print_warning(&r->warnings.items[i]);
            if (r->status == MF_ACCEPTED) {
                int json = output ? !strcmp(output, "json") : !strcmp(r->profile, "generic_json") ||
                           (p && p->format == MF_FORMAT_JSON) ||
                           (!p && mf_profiles_get(r->profile) && mf_profiles_get(r->profile)->format == MF_FORMAT_JSON);
                if (cli_print_value(r->value, json))
                    rc = 2;
            } else {
                fprintf(stderr, "rejected: tier %d %s at line %d, column %d%s%s: %s\n", r->error.tier,
                        r->error.type, r->error.line, r->error.column,
                        r->error.path && *r->error.path ? ", path " : "", r->error.path ? r->error.path : "",
                        r->error.message ? r->error.message : "");
            }
        }
    } else {
        fprintf(stderr, "malform: out of memory\n");
    }
    mf_result_free(r);
    free(raw);
    json_decref(context);
    json_decref(optjson);
    mf_profile_free(owned);
    return rc;
}
