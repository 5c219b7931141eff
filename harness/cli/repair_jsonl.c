/* repair_jsonl.c - `malform repair --jsonl`: one request per line, one result
 * per line, so callers (reports/, tools/peer-suite.py) pay for one process
 * instead of one per input. */
#include "repair_jsonl.h"
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "malform/mutators.h"

/* The model output a request's "case" renders to: malloc'd bytes, or NULL
 * with *why set. */
static char *render_case(const json_t *req, size_t *len, const char **why, char *err, size_t errlen)
{
    const json_t *ctext = json_object_get(req, "case");
    if (!json_is_string(ctext)) {
        *why = "a request needs \"input\" (the model output) or \"case\" (a structured case) as a string";
        return NULL;
    }
    mf_case *c = mf_case_decode(json_string_value(ctext), json_string_length(ctext), err, errlen);
    if (!c) {
        *why = err;
        return NULL;
    }
    mf_render r;
    char *s = NULL;
    if (mf_case_render(c, &r) < 0) {
        snprintf(err, errlen, "case does not render: %s", r.error);
        *why = err;
    } else if (!(s = malloc(r.raw_len + 1))) {
        *why = "out of memory";
    } else {
        memcpy(s, r.raw, r.raw_len);
        s[r.raw_len] = '\0';
        *len = r.raw_len;
    }
    mf_render_free(&r);
    mf_case_free(c);
    return s;
}

/* The result object for one parsed request, or NULL with *why set; a
 * rendered case's text goes to reply["rendered"]. */
static json_t *run_request(const json_t *req, json_t *reply, const mf_profile *dflt, const json_t *dflt_context,
                           const char **why, char *err, size_t errlen)
{
    const mf_profile *p = dflt;
    mf_profile *owned = NULL;
    const json_t *pname = json_object_get(req, "profile");
    if (pname && !json_is_null(pname)) {
        if (!json_is_string(pname)) {
            *why = "\"profile\" must be a string";
            return NULL;
        }
        if (!(p = cli_profile(json_string_value(pname), &owned))) {
            snprintf(err, errlen, "unknown profile '%s'", json_string_value(pname));
            *why = err;
            return NULL;
        }
    }
    mf_options o = {0};
    const json_t *opts = json_object_get(req, "options");
    mf_options_from_json(json_is_object(opts) ? opts : dflt_context, &o);
    const json_t *input = json_object_get(req, "input");
    size_t len = json_string_length(input);
    char *rendered = json_is_string(input) ? NULL : render_case(req, &len, why, err, errlen);
    const char *text = rendered ? rendered : json_string_value(input);
    json_t *j = NULL;
    if (text) {
        json_t *shown = rendered ? json_stringn(rendered, len) : NULL;
        if (shown) /* NULL too when the rendered bytes are no valid UTF-8 */
            json_object_set_new(reply, "rendered", shown);
        mf_result *r = mf_repair(p, text, len, &o);
        if (!r || !(j = mf_result_to_json(r)))
            *why = "out of memory";
        mf_result_free(r);
        free(rendered);
    }
    mf_profile_free(owned);
    return j;
}

int cli_repair_jsonl(FILE *in, FILE *out, const mf_profile *dflt, const json_t *dflt_context)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    long lineno = 0;
    int rc = 0;
    while ((n = getline(&line, &cap, in)) != -1) {
        lineno++;
        if (strspn(line, " \t\r\n") == (size_t)n)
            continue;
        json_error_t je;
        json_t *req = json_loadb(line, (size_t)n, JSON_ALLOW_NUL, &je);
        json_t *reply = json_object();
        char err[512];
        const char *why = NULL;
        json_t *result = NULL;
        if (!json_is_object(req)) {
            json_object_set_new(reply, "id", json_null());
            snprintf(err, sizeof err, "%s", req ? "a request is a JSON object" : je.text);
            why = err;
        } else {
            json_object_set(reply, "id", json_object_get(req, "id") ? json_object_get(req, "id") : json_null());
            result = run_request(req, reply, dflt, dflt_context, &why, err, sizeof err);
        }
        if (result) {
            json_object_set_new(reply, "result", result);
        } else {
            json_object_set_new(reply, "error", json_string(why ? why : "unknown error"));
            fprintf(stderr, "malform: repair --jsonl: input line %ld: %s\n", lineno, why ? why : "unknown error");
            rc = 2;
        }
        if (json_dumpf(reply, out, JSON_COMPACT | JSON_REAL_PRECISION(17)) || fputc('\n', out) == EOF) {
            fprintf(stderr, "malform: repair --jsonl: cannot write the result (output closed?)\n");
            rc = 2;
            json_decref(reply);
            json_decref(req);
            break;
        }
        fflush(out);
        json_decref(reply);
        json_decref(req);
    }
    free(line);
    if (ferror(in)) {
        fprintf(stderr, "malform: repair --jsonl: read error\n");
        rc = 2;
    }
    return rc;
}
