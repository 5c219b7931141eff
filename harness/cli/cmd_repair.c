/* cmd_repair.c - `malform repair`: run the pipeline on one model output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

static int usage(void)
{
    fprintf(stderr,
            "usage: malform repair [--profile NAME|FILE.yaml] [--output json|yaml|result]\n"
            "                      [--options FILE.json] [--ticket-id ID] [--story-id ID]\n"
            "                      [--interview-sha256 HEX] [FILE|-]\n"
            "Exit: 0 accepted, 1 rejected, 2 usage or I/O error.\n");
    return 2;
}

int cmd_repair(int argc, char **argv)
{
    const char *profile = NULL, *output = NULL, *file = "-", *optfile = NULL;
    mf_options o = {0};
    const char *ticket = NULL, *story = NULL, *sha = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--profile") && next) profile = argv[++i];
        else if (!strcmp(a, "--output") && next) output = argv[++i];
        else if (!strcmp(a, "--options") && next) optfile = argv[++i];
        else if (!strcmp(a, "--ticket-id") && next) ticket = argv[++i];
        else if (!strcmp(a, "--story-id") && next) story = argv[++i];
        else if (!strcmp(a, "--interview-sha256") && next) sha = argv[++i];
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) return usage(), 0;
        else if (a[0] == '-' && a[1]) return usage();
        else file = a;
    }
    if (output && strcmp(output, "json") && strcmp(output, "yaml") && strcmp(output, "result"))
        return usage();
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
    size_t len;
    char *raw = cli_read_file(file, &len);
    if (!raw) {
        json_decref(context);
        json_decref(optjson);
        mf_profile_free(owned);
        return 2;
    }
    mf_result *r = mf_repair(p, raw, len, &o);
    int rc = 2;
    if (r) {
        if (output && !strcmp(output, "result")) {
            json_t *j = mf_result_to_json(r);
            char *s = json_dumps(j, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
            puts(s);
            free(s);
            json_decref(j);
        } else {
            for (size_t i = 0; i < r->warnings.count; i++)
                fprintf(stderr, "warning: line %d: [%s] %s\n", r->warnings.items[i].line,
                        r->warnings.items[i].rule, r->warnings.items[i].message);
            if (r->status == MF_ACCEPTED) {
                int json = output ? !strcmp(output, "json") : !strcmp(r->profile, "generic_json") ||
                           (p && p->format == MF_FORMAT_JSON) ||
                           (!p && mf_profiles_get(r->profile) && mf_profiles_get(r->profile)->format == MF_FORMAT_JSON);
                cli_print_value(r->value, json);
            } else {
                fprintf(stderr, "rejected: tier %d %s at line %d, column %d%s%s: %s\n", r->error.tier,
                        r->error.type, r->error.line, r->error.column,
                        r->error.path && *r->error.path ? ", path " : "", r->error.path ? r->error.path : "",
                        r->error.message ? r->error.message : "");
            }
        }
        rc = r->status == MF_ACCEPTED ? 0 : 1;
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
