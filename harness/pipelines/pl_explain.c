/* pl_explain.c - `malform check --pipeline NAME INPUT`: one input through a
 * pipeline under test, explained like core's check: the ops, the worker's
 * answer (or its failure with the stderr tail), the repairs it reported,
 * the value diff against the ground truth and each oracle's verdict (n/a
 * with the reason when the pipeline did not declare what it needs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pl_check.h"
#include "pl_cli.h"

static void print_result(const mf_pl_check *c, FILE *f)
{
    const mf_result *r = c->k.result;
    if (r->status == MF_ACCEPTED)
        fprintf(f, "result: accepted\n");
    else
        fprintf(f, "result: rejected (%s): %s\n", r->error.type ? r->error.type : "?",
                r->error.message ? r->error.message : "");
    fprintf(f, "repairs reported (%zu):\n", r->warnings.count);
    for (size_t i = 0; i < r->warnings.count; i++)
        fprintf(f, "  line %-4d %-30s %s\n", r->warnings.items[i].line, r->warnings.items[i].rule,
                r->warnings.items[i].message);
    if (c->k.truth && r->value) {
        char *d = mf_value_diff(r->value, c->k.truth, 20);
        fprintf(f, "value diff vs ground truth: %s\n%s", d && *d ? "" : "none", d ? d : "");
        free(d);
    } else if (r->value) {
        char *v = json_dumps(r->value, JSON_COMPACT | JSON_ENCODE_ANY);
        fprintf(f, "value: %.2000s\n", v ? v : "?");
        free(v);
    }
    fprintf(f, "oracles:\n");
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        fprintf(f, "  %-13s %s%s%s\n", mf_oracle_name((mf_oracle_id)i),
                !c->k.v[i].ran ? "n/a" : c->k.v[i].failed ? "FAIL" : "pass",
                c->k.v[i].failed || c->na[i][0] ? "  " : "", c->k.v[i].failed ? c->k.v[i].detail : c->na[i]);
}

int mf_pl_check_explain(const char *pipeline, const char *path, const char *text, size_t len, const mf_profile *p,
                        const json_t *opts, FILE *f)
{
    mf_pl_def def;
    int code;
    mf_pl_worker *w = mf_pl_cli_start(pipeline, &def, false, "malform check", &code);
    if (!w)
        return code;
    if (len > 20 && !strncmp(text, "malform-regression 1\n", 21)) {   /* an entry: check its payload */
        const char *sep = strstr(text, "\n---\n");
        if (sep) {
            len -= (size_t)(sep + 5 - text);
            text = sep + 5;
        }
    }
    mf_pl_check c;
    int rc = 2;
    if (mf_pl_check_run(&c, w, text, len, p, opts, true) < 0) {
        fprintf(stderr, "malform check: %s: %s\n", path, c.k.error);
        goto done;
    }
    const mf_pl_hello *h = mf_pl_hello_of(w);
    fprintf(f, "pipeline: %s %s (%s)\n", h->name, h->version, def.command);
    fprintf(f, "input: %s, %s, profile %s\n", path, c.k.structured ? "structured case" : "raw output",
            c.k.profile ? c.k.profile->name : "(auto)");
    if (c.k.structured) {
        fprintf(f, "ops (contract %s):\n", mf_contract_name(c.k.render.contract));
        for (size_t i = 0; i < c.k.kase->nops; i++)
            fprintf(f, "  %-30s %s%s\n", c.k.kase->ops[i].op->id,
                    c.k.render.applied[i] ? "applied" : "no site (not applied)",
                    mf_pl_op_fits(w, c.k.profile, c.k.kase->ops[i].op) ? ""
                                                                          : "  (needs profile knowledge it did not declare)");
        fprintf(f, "ground truth: %s\n", c.k.clean_status == 0 ? "strict load of the clean artifact (core reads it the same, no warning)"
                                                               : c.k.clean.detail);
    }
    if (c.reply.fail != MF_PL_OK) {
        fprintf(f, "worker failure: %s (%s): %s\n", mf_pl_fail_name(c.reply.fail), c.reply.what, c.reply.message);
        fprintf(f, "worker stderr (tail):\n%s%s", c.reply.stderr_tail ? c.reply.stderr_tail : "",
                c.reply.stderr_tail && *c.reply.stderr_tail ? "\n" : "");
    } else {
        print_result(&c, f);
    }
    char sig[800];
    mf_pl_check_signature(&c, pipeline, sig, sizeof sig);
    fprintf(f, "signature: %s\nverdict: %s\n", sig, mf_pl_check_failed(&c) ? "FAIL" : "pass");
    rc = mf_pl_check_failed(&c) ? 1 : 0;
done:
    mf_pl_check_free(&c);
    mf_pl_stop(w);
    mf_pl_def_free(&def);
    return rc;
}
