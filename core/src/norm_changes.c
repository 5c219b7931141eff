/* norm_changes.c - the "changes" normalizer (seed 000, "Refinement Changes").
 *
 * A council member refining a PRD, beads or interview draft emits a
 * `changes:` list beside the artifact. The pipeline runs this normalizer for
 * every profile with `changes: true`, before the artifact normalizers and
 * validation; the normalized list stays under the root key `changes`, where
 * the profile schema describes it. Per entry:
 *   - a non-object entry, or one whose type is not modified / added /
 *     removed (case-insensitive), is skipped with the seed's warning;
 *   - a bare-string inspiration becomes {label: "..."} (id left out);
 *   - inspiration.alternative_draft is a model id from opt->roster or a
 *     1-based ordinal into it (resolved to the model id); without a roster a
 *     model id is taken as given;
 *   - an inspiration that cannot be resolved keeps the entry, marked
 *     attribution_status: invalid_unattributed. */
#include <stdlib.h>
#include <string.h>
#include "norm.h"

static const char *const types[] = {"modified", "added", "removed", NULL};

static bool in_roster(const json_t *roster, const char *id)
{
    for (size_t i = 0; i < json_array_size(roster); i++) {
        const char *r = json_string_value(json_array_get(roster, i));
        if (r && strcmp(r, id) == 0)
            return true;
    }
    return false;
}

/* Normalize entry i's inspiration; false when it cannot be resolved. */
static bool inspiration(json_t *c, size_t i, const json_t *roster, mf_warnings *w, int *rc)
{
    json_t *insp = json_object_get(c, "inspiration");
    if (!insp || json_is_null(insp))
        return true;
    if (json_is_string(insp)) {
        json_t *obj = json_object();
        json_object_set(obj, "label", insp);
        json_object_set_new(c, "inspiration", obj);
        *rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_INSPIRATION), 0,
                              "Accepted bare-string inspiration of refinement change at index %zu as its label.", i);
        return true;
    }
    if (!json_is_object(insp))
        return false;
    json_t *alt = json_object_get(insp, "alternative_draft");
    if (!alt)
        return true;
    if (json_is_string(alt))
        return !json_is_array(roster) || in_roster(roster, json_string_value(alt));
    if (!json_is_integer(alt))
        return false;
    json_int_t n = json_integer_value(alt);
    const char *model = n >= 1 && (size_t)n <= json_array_size(roster)
                            ? json_string_value(json_array_get(roster, (size_t)n - 1))
                            : NULL;
    if (!model)
        return false;
    *rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_INSPIRATION), 0,
                          "Resolved inspiration alternative_draft %lld of refinement change at index %zu to \"%s\".",
                          (long long)n, i, model);
    json_object_set_new(insp, "alternative_draft", json_string(model));
    return true;
}

int mf_norm_changes(json_t **root, const mf_profile *p, const mf_options *o,
                    mf_warnings *w, mf_error *err)
{
    json_t *list = json_object_get(*root, "changes");
    if (!json_is_array(list))
        return 0;
    const json_t *roster = mf_options_context(o, p, "roster");
    json_t *kept = json_array();
    int rc = 0;
    bool dropped = false;
    for (size_t i = 0; i < json_array_size(list) && rc == 0; i++) {
        json_t *c = json_array_get(list, i);
        if (!json_is_object(c)) {
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_SKIPPED), 0, "Skipped non-object refinement change at index %zu.", i);
            dropped = true;
            continue;
        }
        const char *t = json_string_value(json_object_get(c, "type"));
        char *low = t ? mf_norm_lower_trim(t) : NULL;
        const char *canon = NULL;
        for (int k = 0; low && types[k] && !canon; k++)
            if (strcmp(low, types[k]) == 0)
                canon = types[k];
        free(low);
        if (!canon) {
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_SKIPPED), 0,
                                 "Skipped refinement change at index %zu with invalid type.", i);
            dropped = true;
            continue;
        }
        if (strcmp(t, canon) != 0) {
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_TYPE), 0,
                                 "Normalized refinement change type \"%s\" at index %zu to %s.", t, i, canon);
            json_object_set_new(c, "type", json_string(canon));
        }
        if (!inspiration(c, i, roster, w, &rc) && rc == 0) {
            const char *st = json_string_value(json_object_get(c, "attribution_status"));
            if (!st || strcmp(st, "invalid_unattributed") != 0) {
                json_object_set_new(c, "attribution_status", json_string("invalid_unattributed"));
                rc = mf_warnings_add(w, MF_RULE_ID(NORM_CHANGE_ATTRIBUTION), 0,
                                     "Recorded refinement change at index %zu as invalid_unattributed: its "
                                     "inspiration cannot be resolved against the losing drafts.", i);
            }
        }
        json_array_append(kept, c);
    }
    if (dropped && rc == 0)
        json_object_set(*root, "changes", kept);
    json_decref(kept);
    if (rc) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "/changes", 0, 0, "out of memory");
        return -1;
    }
    return 0;
}
