/* cmd_check.c - `malform check [--profile P] [--opts FILE] CASE|RAWFILE`:
 * reproduce one input and explain the verdict: the ops applied, the
 * candidate chosen, each repair with its line, the value diff against the
 * ground truth, and every oracle's verdict. Exit 0 pass, 1 an oracle
 * failed, 2 usage or unreadable input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
#include "harness.h"
#include "lifecycle.h"
#include "pl_cli.h"
#include "raw_input.h"

static const struct option options[] = {
    {"profile", required_argument, NULL, 'p'}, {"opts", required_argument, NULL, 'o'},
    {"pipeline", required_argument, NULL, 'P'}, {0}};
static const cli_cmd cmd = {"check", "[--profile NAME|FILE.yaml] [--opts FILE.json] [--pipeline NAME] CASE|RAWFILE|-",
                            "Repair one input and run every oracle: the ops applied, the candidate chosen, each\n"
                            "repair, the value diff against the ground truth and each oracle's verdict.\n"
                            "--pipeline runs a pipeline under test instead of core (malform pipelines).\n"
                            "Exit: 0 pass, 1 an oracle failed, 2 usage or unreadable input, 77 pipeline not installed.\n",
                            "", options};

/* A regression entry or finding (header, `---`, payload) is checked on its
 * payload; a raw input's "@<profile>" line picks the profile when none was
 * given, as the raw target reads it. Replaces *text; -1 (message) when an
 * entry does not parse. */
static int unwrap_input(const char *path, char **text, size_t *len, const mf_profile **p)
{
    size_t magic = strlen(MF_LC_ENTRY_MAGIC);
    if (*len > magic && memcmp(*text, MF_LC_ENTRY_MAGIC, magic) == 0) {
        mf_lc_entry e = {0};
        char err[256];
        if (mf_lc_entry_parse(*text, *len, &e, err, sizeof err) < 0) {
            fprintf(stderr, "malform: %s: %s\n", path, err);
            mf_lc_entry_free(&e);
            return -1;
        }
        char *payload = malloc(e.payload_len + 1);
        if (!payload) {
            fprintf(stderr, "malform: out of memory\n");
            mf_lc_entry_free(&e);
            return -1;
        }
        memcpy(payload, e.payload, e.payload_len);
        payload[e.payload_len] = '\0';
        free(*text);
        *text = payload;
        *len = e.payload_len;
        mf_lc_entry_free(&e);
    }
    const mf_profile *named = NULL;
    const char *rest;
    size_t rest_len;
    if (!*p && *len && **text == '@') {
        mf_raw_input_decode((const uint8_t *)*text, *len, &named, &rest, &rest_len);
        if (named) {
            memmove(*text, rest, rest_len);
            (*text)[rest_len] = '\0';
            *len = rest_len;
            *p = named;
        }
    }
    return 0;
}

int cmd_check(int argc, char **argv)
{
    const char *pname = NULL, *opts_path = NULL, *pipeline = NULL;
    int c, rc;
    while ((c = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        if (c == CLI_EXIT)
            return rc;
        if (c == 'p')
            pname = optarg;
        else if (c == 'P')
            pipeline = optarg;
        else
            opts_path = optarg;
    }
    if (argc - optind != 1)
        return cli_usage_error(&cmd, argc == optind ? "no input given" : "one input only");
    const char *path = argv[optind];
    mf_profile *owned = NULL;
    const mf_profile *p = NULL;
    if (pname && !(p = cli_profile(pname, &owned)))
        return 2;
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text) {
        mf_profile_free(owned);
        return 2;
    }
    if (unwrap_input(path, &text, &len, &p) < 0) {
        free(text);
        mf_profile_free(owned);
        return 2;
    }
    json_t *opts = NULL;
    if (opts_path) {
        size_t ol;
        char *ot = cli_read_file(opts_path, &ol);
        opts = ot ? json_loadb(ot, ol, 0, NULL) : NULL;
        free(ot);
        if (!json_is_object(opts)) {
            fprintf(stderr, "malform: %s: options must be a JSON object\n", opts_path);
            json_decref(opts);
            free(text);
            mf_profile_free(owned);
            return 2;
        }
    }
    if (pipeline && strcmp(pipeline, "core")) {
        rc = mf_pl_check_explain(pipeline, path, text, len, p, opts, stdout);
        json_decref(opts);
        free(text);
        mf_profile_free(owned);
        return rc;
    }
    mf_check k;
    rc = mf_check_run_opts(&k, text, len, p, opts, true, true);
    if (rc < 0) {
        fprintf(stderr, "malform: %s: %s\n", path, k.error);
        mf_check_free(&k);
        json_decref(opts);
        free(text);
        mf_profile_free(owned);
        return 2;
    }
    printf("input: %s, %s, profile %s\n", path, k.structured ? "structured case" : "raw output",
           k.profile ? k.profile->name : "(auto)");
    if (k.structured) {
        printf("ops (contract %s):\n", mf_contract_name(k.render.contract));
        for (size_t i = 0; i < k.kase->nops; i++)
            printf("  %-30s seed=%-20llu %s%s%s\n", k.kase->ops[i].op->id, (unsigned long long)k.kase->ops[i].seed,
                   k.render.applied[i] ? "applied" : "no site (not applied)",
                   *k.kase->ops[i].op->rules ? "  expects " : "", k.kase->ops[i].op->rules);
        printf("ground truth: %s\n", k.clean_status == 0 ? "strict load of the clean artifact (core reads it the same, no warning)"
                                                         : k.clean.detail);
    }
    const mf_result *r = k.result;
    if (r->status == MF_ACCEPTED)
        printf("result: accepted, candidate %s, repair_applied %s\n", r->candidate ? r->candidate : "?",
               r->repair_applied ? "yes" : "no");
    else
        printf("result: rejected (tier %d %s at %s line %d col %d): %s\n", r->error.tier,
               r->error.type ? r->error.type : "?", r->error.path && *r->error.path ? r->error.path : "/",
               r->error.line, r->error.column, r->error.message ? r->error.message : "");
    printf("repairs (%zu):\n", r->warnings.count);
    for (size_t i = 0; i < r->warnings.count; i++)
        printf("  line %-4d %-30s %s\n", r->warnings.items[i].line, r->warnings.items[i].rule,
               r->warnings.items[i].message);
    if (k.truth && r->value) {
        char *d = mf_value_diff(r->value, k.truth, 20);
        printf("value diff vs ground truth: %s\n%s", d && *d ? "" : "none", d ? d : "");
        free(d);
    }
    if (k.valid_render)
        printf("valid render: the damaged text loads strictly as the value core gave; it is kept as written, "
               "so the difference is the ops' (a site an op should not damage), not the pipeline's\n");
    printf("oracles:\n");
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        printf("  %-13s %s%s%s\n", mf_oracle_name((mf_oracle_id)i),
               !k.v[i].ran ? "n/a" : k.v[i].failed ? "FAIL" : "pass", k.v[i].failed ? "  " : "", k.v[i].detail);
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        if (k.v[i].failed) {
            char line[1024];
            mf_check_line(&k, i, line, sizeof line);
            printf("%s\n", line);
        }
    printf("verdict: %s\n", k.failed ? "FAIL" : "pass");
    rc = k.failed ? 1 : 0;
    mf_check_free(&k);
    json_decref(opts);
    free(text);
    mf_profile_free(owned);
    return rc;
}
