/* norm_prd.c - the "prd" normalizer (seed 000, "PRD Artifact").
 *
 *   status          draft | approved (case-insensitive); any other scalar -> draft
 *                   (a mapping or list under status is left to the schema)
 *   schema_version  a positive integer; any other scalar -> 1 (an integral 2.0 -> 2)
 *   ticket_id       missing or a scalar other than the context's ticket_id -> runtime value
 *                   (without a runtime ticket id a present one is kept)
 *   source_interview.content_sha256  -> the context's interview_sha256 when given
 *                   and a sha256 (64 lowercase hex digits, the schema's pattern);
 *                   another context value is no hash of the interview: ignored
 *   epics[].id      missing -> EPIC-{index+1}; duplicate -> next EPIC-n above
 *                   the ceiling
 *   user_stories[].id  missing -> US-{epic}-{story}; duplicate -> US-{epic}-n
 *                   above that epic's highest story number
 * Missing status / schema_version are left to the profile defaults (schema
 * normalization). Id generation keeps a running ceiling, so it is linear even
 * when every id collides. */
#include <stdlib.h>
#include <string.h>
#include "norm.h"

static int warn_oom(mf_error *err)
{
    mf_error_set(err, 2, "SCHEMA_VIOLATION", "", 0, 0, "out of memory");
    return -1;
}

static int status(json_t *root, mf_warnings *w)
{
    json_t *st = json_object_get(root, "status");
    /* a mapping or list under status holds data no status word can stand for (`status:` over the
     * lines of `product:`, run 57): the schema rejects it rather than the rule dropping it */
    if (!st || json_is_object(st) || json_is_array(st))
        return 0;
    const char *s = json_string_value(st);
    char *low = s ? mf_norm_lower_trim(s) : NULL;
    const char *canon = low && (strcmp(low, "approved") == 0) ? "approved" : "draft";
    bool same = s && strcmp(s, canon) == 0;
    free(low);
    if (same)
        return 0;
    char *old = mf_norm_show(st);
    int rc = mf_warnings_add(w, MF_RULE_ID(NORM_PRD_STATUS), 0, "Normalized unsupported PRD status \"%s\" to %s.", old, canon);
    free(old);
    json_object_set_new(root, "status", json_string(canon));
    return rc;
}

static int schema_version(json_t *root, mf_warnings *w)
{
    json_t *v = json_object_get(root, "schema_version");
    if (!v || (json_is_integer(v) && json_integer_value(v) > 0) || json_is_object(v) || json_is_array(v))
        return 0;                       /* a mapping or list is data: the schema rejects it */
    long long n = 1;
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d >= 1 && d <= 1e15 && d == (double)(long long)d)
            n = (long long)d;
    }
    char *old = mf_norm_show(v);        /* the seed's sentence, then what it replaced */
    int rc = mf_warnings_add(w, MF_RULE_ID(NORM_SCHEMA_VERSION), 0, "Normalized invalid schema_version to %lld (was %s%s%s).",
                             n, json_is_string(v) ? "\"" : "", old, json_is_string(v) ? "\"" : "");
    free(old);
    json_object_set_new(root, "schema_version", json_integer(n));
    return rc;
}

static int ticket_id(json_t *root, const char *ticket, mf_warnings *w)
{
    if (!ticket)
        return 0;
    json_t *t = json_object_get(root, "ticket_id");
    if (!t) {
        json_object_set_new(root, "ticket_id", json_string(ticket));
        return mf_warnings_add(w, MF_RULE_ID(NORM_TICKET_ID), 0, "Filled missing ticket_id from runtime context.");
    }
    if ((json_is_string(t) && strcmp(json_string_value(t), ticket) == 0) || json_is_object(t) || json_is_array(t))
        return 0;                       /* a mapping or list is data: the schema rejects it */
    char *old = mf_norm_show(t);
    int rc = mf_warnings_add(w, MF_RULE_ID(NORM_TICKET_ID), 0, "Canonicalized ticket_id from `%s` to `%s`.", old, ticket);
    free(old);
    json_object_set_new(root, "ticket_id", json_string(ticket));
    return rc;
}

/* Is s a sha256 as the artifact writes it: 64 lowercase hex digits? */
static bool sha256_text(const char *s)
{
    size_t n = 0;
    for (; s[n]; n++)
        if (!((s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f')))
            return false;
    return n == 64;
}

static int content_sha(json_t *root, const char *sha, mf_warnings *w)
{
    if (!sha || !sha256_text(sha))
        return 0;
    json_t *src = json_object_get(root, "source_interview");
    if (src && !json_is_object(src))
        return 0;
    const char *have = json_string_value(json_object_get(src, "content_sha256"));
    if (have && strcmp(have, sha) == 0)
        return 0;
    if (!src) {
        src = json_object();
        json_object_set_new(root, "source_interview", src);
    }
    json_object_set_new(src, "content_sha256", json_string(sha));
    return mf_warnings_add(w, MF_RULE_ID(NORM_CONTENT_SHA256), 0,
                           "Canonicalized source_interview.content_sha256 from the approved Interview Results artifact.");
}

/* n of "<prefix>n", or -1. */
static long long suffix_number(const char *id, const char *prefix)
{
    size_t pl = strlen(prefix);
    long long n;
    if (!id || strncmp(id, prefix, pl) != 0 || !mf_norm_digits(id + pl, strlen(id + pl), &n))
        return -1;
    return n;
}

static bool id_missing(const json_t *id)
{
    return !id || json_is_null(id) || (json_is_string(id) && json_string_length(id) == 0);
}

static int epic_ids(json_t *epics, mf_warnings *w)
{
    size_t n = json_array_size(epics);
    json_t *used = json_object(), *seen = json_object();
    long long ceiling = 0;
    int rc = 0;
    bool work = false; /* a missing or repeated id: clean input stops after one pass */
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_array_get(epics, i);
        json_t *idv = json_object_get(e, "id");
        const char *id = json_string_value(idv);
        work = work || (json_is_object(e) && id_missing(idv));
        if (id && *id) {
            work = work || json_object_get(used, id);
            json_object_set_new(used, id, json_true());
            long long k = suffix_number(id, "EPIC-");
            if (k > ceiling)
                ceiling = k;
        }
    }
    if (!work)
        n = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *e = json_array_get(epics, i);
        if (!json_is_object(e))
            continue;
        json_t *idv = json_object_get(e, "id");
        const char *id = json_string_value(idv);
        char fresh[48];
        if (id_missing(idv)) {
            snprintf(fresh, sizeof fresh, "EPIC-%zu", i + 1);
            while (json_object_get(used, fresh))
                snprintf(fresh, sizeof fresh, "EPIC-%lld", ++ceiling);
            if (suffix_number(fresh, "EPIC-") > ceiling)
                ceiling = suffix_number(fresh, "EPIC-");
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_EPIC_ID), 0, "Epic at index %zu was missing id. Filled with %s.", i, fresh);
        } else if (id && json_object_get(seen, id)) {
            do
                snprintf(fresh, sizeof fresh, "EPIC-%lld", ++ceiling);
            while (json_object_get(used, fresh));
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_EPIC_ID), 0, "Renumbered duplicate epic id %s to %s.", id, fresh);
        } else {
            if (id)
                json_object_set_new(seen, id, json_true());
            continue;
        }
        mf_norm_obj_put(e, "id", json_string(fresh), true);
        json_object_set_new(used, fresh, json_true());
        json_object_set_new(seen, fresh, json_true());
    }
    json_decref(used);
    json_decref(seen);
    return rc;
}

/* Highest story number per epic number among ids US-e-s: map "e" -> s. */
static void story_ceilings(json_t *ceil, const char *id)
{
    long long e, s;
    const char *dash;
    if (!id || strncmp(id, "US-", 3) != 0 || !(dash = strchr(id + 3, '-')) ||
        !mf_norm_digits(id + 3, (size_t)(dash - id - 3), &e) || !mf_norm_digits(dash + 1, strlen(dash + 1), &s))
        return;
    char key[32];
    snprintf(key, sizeof key, "%lld", e);
    if (json_integer_value(json_object_get(ceil, key)) < s)
        json_object_set_new(ceil, key, json_integer(s));
}

static int story_ids(json_t *epics, mf_warnings *w)
{
    json_t *used = json_object(), *seen = json_object(), *ceil = json_object();
    int rc = 0;
    bool work = false; /* a missing or repeated id: clean input stops after one pass */
    for (size_t e = 0; e < json_array_size(epics); e++) {
        json_t *stories = json_object_get(json_array_get(epics, e), "user_stories");
        for (size_t s = 0; s < json_array_size(stories); s++) {
            json_t *st = json_array_get(stories, s);
            json_t *idv = json_object_get(st, "id");
            const char *id = json_string_value(idv);
            work = work || (json_is_object(st) && id_missing(idv));
            if (id && *id) {
                work = work || json_object_get(used, id);
                json_object_set_new(used, id, json_true());
            }
        }
    }
    for (size_t e = 0; work && e < json_array_size(epics); e++) {
        json_t *stories = json_object_get(json_array_get(epics, e), "user_stories");
        for (size_t s = 0; s < json_array_size(stories); s++)
            story_ceilings(ceil, json_string_value(json_object_get(json_array_get(stories, s), "id")));
    }
    for (size_t e = 0; work && e < json_array_size(epics) && rc == 0; e++) {
        json_t *stories = json_object_get(json_array_get(epics, e), "user_stories");
        char ekey[32];
        snprintf(ekey, sizeof ekey, "%zu", e + 1);
        for (size_t s = 0; s < json_array_size(stories) && rc == 0; s++) {
            json_t *st = json_array_get(stories, s);
            if (!json_is_object(st))
                continue;
            json_t *idv = json_object_get(st, "id");
            const char *id = json_string_value(idv);
            char fresh[80];
            bool missing = id_missing(idv);
            if (!missing && !(id && json_object_get(seen, id))) {
                if (id)
                    json_object_set_new(seen, id, json_true());
                continue;
            }
            snprintf(fresh, sizeof fresh, "US-%zu-%zu", e + 1, s + 1);
            if (!missing || json_object_get(used, fresh)) {
                long long top = json_integer_value(json_object_get(ceil, ekey));
                do
                    snprintf(fresh, sizeof fresh, "US-%zu-%lld", e + 1, ++top);
                while (json_object_get(used, fresh));
            }
            if (missing)
                rc = mf_warnings_add(w, MF_RULE_ID(NORM_STORY_ID), 0,
                                     "User story at epic %zu, index %zu was missing id. Filled with %s.", e + 1, s,
                                     fresh);
            else
                rc = mf_warnings_add(w, MF_RULE_ID(NORM_STORY_ID), 0, "Renumbered duplicate user story id %s to %s.", id, fresh);
            mf_norm_obj_put(st, "id", json_string(fresh), true);
            json_object_set_new(used, fresh, json_true());
            json_object_set_new(seen, fresh, json_true());
            story_ceilings(ceil, fresh);
        }
    }
    json_decref(used);
    json_decref(seen);
    json_decref(ceil);
    return rc;
}

int mf_norm_prd(json_t **root, const mf_profile *p, const mf_options *o,
                mf_warnings *w, mf_error *err)
{
    if (!json_is_object(*root))
        return 0;
    if (status(*root, w) || schema_version(*root, w) ||
        ticket_id(*root, mf_options_context_string(o, p, "ticket_id"), w) ||
        content_sha(*root, mf_options_context_string(o, p, "interview_sha256"), w))
        return warn_oom(err);
    json_t *epics = json_object_get(*root, "epics");
    if (json_is_array(epics) && (epic_ids(epics, w) || story_ids(epics, w)))
        return warn_oom(err);
    return 0;
}
