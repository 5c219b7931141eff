/* norm_bead_status.c - the "bead_status" normalizer (seed 000, "Bead
 * Completion Marker Artifact").
 *
 * The marker comes out of a <BEAD_STATUS> envelope (candidate extraction) and
 * its gate keys are already canonical (test -> tests, type_check -> typecheck,
 * review -> qualitative: profile aliases). Here:
 *   status  completed / complete / success / succeeded -> done;
 *           failed / fail / error -> error; any other text is lowercased
 *   checks  each gate: "pass", "passed", "ok", "success", "complete",
 *           "completed", true, 1 -> pass; "fail", "failed", "error",
 *           "timeout", "timedout", "notrun", "skipped", "pending", false, 0
 *           -> fail; any other string is kept, lowercased.
 * Words are compared by their normalized form (lowercase alphanumerics), so
 * "Timed out" and "not_run" match too. */
#include <stdlib.h>
#include <string.h>
#include "norm.h"

static const char *const status_done[] = {"done", "completed", "complete", "success", "succeeded", NULL};
static const char *const status_error[] = {"error", "failed", "fail", NULL};
static const char *const check_pass[] = {"pass", "passed", "ok", "success", "complete", "completed", NULL};
static const char *const check_fail[] = {"fail",   "failed",  "error",   "timeout", "timedout",
                                         "notrun", "skipped", "pending", NULL};

static bool member(const char *const *set, const char *s)
{
    for (; s && *set; set++)
        if (strcmp(*set, s) == 0)
            return true;
    return false;
}

/* Canonical text for a word: "done"/"pass" style maps, else the lowercased text. Caller frees. */
static char *canonical_word(const char *s, const char *const *a, const char *ca,
                            const char *const *b, const char *cb)
{
    char *key = mf_key_normalize(s);
    char *out = member(a, key) ? mf_strdup0(ca) : member(b, key) ? mf_strdup0(cb) : mf_norm_lower_trim(s);
    free(key);
    return out;
}

static int status(json_t *root, mf_warnings *w)
{
    const char *s = json_string_value(json_object_get(root, "status"));
    if (!s)
        return 0;
    char *c = canonical_word(s, status_done, "done", status_error, "error");
    int rc = 0;
    if (c && *c && strcmp(c, s) != 0) {
        rc = mf_warnings_add(w, MF_RULE_ID(NORM_BEAD_STATUS), 0, "Normalized bead status \"%s\" to %s.", s, c);
        json_object_set_new(root, "status", json_string(c));
    }
    free(c);
    return rc;
}

static int checks(json_t *root, mf_warnings *w)
{
    json_t *cs = json_object_get(root, "checks");
    const char *gate;
    json_t *v;
    int rc = 0;
    json_object_foreach(cs, gate, v) {
        char *c = NULL;
        if (json_is_true(v) || (json_is_integer(v) && json_integer_value(v) == 1))
            c = mf_strdup0("pass");
        else if (json_is_false(v) || (json_is_integer(v) && json_integer_value(v) == 0))
            c = mf_strdup0("fail");
        else if (json_is_string(v))
            c = canonical_word(json_string_value(v), check_pass, "pass", check_fail, "fail");
        if (c && *c && !(json_is_string(v) && strcmp(c, json_string_value(v)) == 0)) {
            char *old = mf_norm_show(v);
            const char *q = json_is_string(v) ? "\"" : "";
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHECK_VALUE), 0, "Normalized check %s value %s%s%s to %s.", gate, q, old, q, c);
            free(old);
            json_object_set_new(cs, gate, json_string(c));
        }
        free(c);
        if (rc)
            break;
    }
    return rc;
}

int mf_norm_bead_status(json_t **root, const mf_profile *p, const mf_options *o,
                        mf_warnings *w, mf_error *err)
{
    (void)p;
    (void)o;
    if (!json_is_object(*root))
        return 0;
    if (status(*root, w) || checks(*root, w)) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "", 0, 0, "out of memory");
        return -1;
    }
    return 0;
}
