/* norm_bead_status.c - the "bead_status" normalizer (seed 000, "Bead
 * Completion Marker Artifact").
 *
 * The marker comes out of a <BEAD_STATUS> envelope (candidate extraction) and
 * its gate keys are already canonical (test -> tests, type_check -> typecheck,
 * review -> qualitative: profile aliases). Here, with the words taken from
 * the profile's enum maps (`enums: status` and `enums: checks`, each
 * {values, map}):
 *   status  a listed synonym (completed, success, failed, ...) -> its
 *           canonical value; any other text is lowercased
 *   checks  each gate's value the same way (true, 1, ok, timeout, ... ->
 *           pass or fail; booleans and integers are looked up spelled out);
 *           any other string is kept, lowercased.
 * Words are compared by their normalized form (lowercase alphanumerics), so
 * "Timed out" and "not_run" match too. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "norm.h"

/* mf_key_normalize(a) equals key (already normalized), compared as a is read. */
static bool same_word(const char *a, const char *key)
{
    if (!a)
        return false;
    for (; *a; a++) {
        unsigned char c = (unsigned char)*a;
        if (!isalnum(c))
            continue;
        if (*key++ != (char)tolower(c))
            return false;
    }
    return *key == '\0';
}

/* The canonical value spec (profile enum {values, map}) gives s, else s lowercased. Caller frees. */
static char *canonical_word(const json_t *spec, const char *s)
{
    char *key = mf_key_normalize(s);
    const char *hit = NULL;
    const json_t *values = json_object_get(spec, "values");
    for (size_t i = 0; key && !hit && i < json_array_size(values); i++)
        if (same_word(json_string_value(json_array_get(values, i)), key))
            hit = json_string_value(json_array_get(values, i));
    const json_t *map = json_object_get(spec, "map");
    for (void *it = json_object_iter((json_t *)map); key && !hit && it; it = json_object_iter_next((json_t *)map, it)) {
        const json_t *v = json_object_iter_value(it);
        if (json_is_string(v) && same_word(json_object_iter_key(it), key))
            hit = json_string_value(v);
    }
    free(key);
    return hit ? mf_strdup0(hit) : mf_norm_lower_trim(s);
}

static int status(json_t *root, const json_t *spec, mf_warnings *w)
{
    const char *s = json_string_value(json_object_get(root, "status"));
    if (!s)
        return 0;
    char *c = canonical_word(spec, s);
    int rc = 0;
    json_t *st = json_object_get(root, "status");
    if (c && *c && (strcmp(c, s) != 0 || strlen(s) != json_string_length(st))) {
        char *old = mf_norm_show(st);
        rc = mf_warnings_add(w, MF_RULE_ID(NORM_BEAD_STATUS), 0, "Normalized bead status \"%s\" to %s.", old, c);
        free(old);
        json_object_set_new(root, "status", json_string(c));
    }
    free(c);
    return rc;
}

static int checks(json_t *root, const json_t *spec, mf_warnings *w)
{
    json_t *cs = json_object_get(root, "checks");
    const char *gate;
    json_t *v;
    int rc = 0;
    json_object_foreach(cs, gate, v) {
        char *c = NULL, spelled[32];
        if (json_is_boolean(v) || json_is_integer(v)) {
            if (json_is_boolean(v))
                snprintf(spelled, sizeof spelled, "%s", json_is_true(v) ? "true" : "false");
            else
                snprintf(spelled, sizeof spelled, "%lld", (long long)json_integer_value(v));
            c = canonical_word(spec, spelled);
            if (c && strcmp(c, spelled) == 0) { /* not in the map: left for the validator */
                free(c);
                c = NULL;
            }
        } else if (json_is_string(v)) {
            c = canonical_word(spec, json_string_value(v));
        }
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
    (void)o;
    if (!json_is_object(*root))
        return 0;
    if (status(*root, json_object_get(p->enums, "status"), w) ||
        checks(*root, json_object_get(p->enums, "checks"), w)) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "", 0, 0, "out of memory");
        return -1;
    }
    return 0;
}
