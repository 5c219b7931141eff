/* norm_full_answers.c - the "full_answers" normalizer (seed 000, "Full Answers
 * Artifact"): answer-only overlay recovery and answered_by/answered_at hoisting.
 *
 * PRD Part 1 asks a council member to fill the skipped answers of the approved
 * interview. Models often return only `{id, answer}` blocks instead of copying
 * every question. When every block holds nothing but id, answer and sibling
 * answered_by / answered_at, and the id set is exactly the approved
 * interview's (same count, no duplicates, nothing missing or invented), the
 * answers are overlaid on deep copies of the approved questions in canonical
 * order. Anything short of that is left alone, so the interview normalizer
 * that runs next rejects the non-question entries with an indexed path.
 * Then, for every question, a sibling answered_by / answered_at moves into
 * the nested answer object when that object lacks it (an empty `answer:`
 * beside them becomes that object: they were its only fields); a sibling
 * equal to the answer's own field is that field written twice and is dropped
 * (run 7 0e8a58b9); a different one is left for the schema to judge. The overlay source is
 * opt->approved_interview; without it nothing is overlaid. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "norm.h"

static const char *const block_keys[] = {"id", "answer", "answered_by", "answered_at", NULL};
static const char *const hoisted[] = {"answered_by", "answered_at", NULL};

static bool answer_only(const json_t *q)
{
    const json_t *id = json_object_get(q, "id");
    if (!json_is_object(q) || !(json_is_string(id) || mf_norm_question_number(id) >= 0))
        return false;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)q, k, v) {
        bool ok = false;
        for (const char *const *b = block_keys; *b && !ok; b++)
            ok = strcmp(*b, k) == 0;
        if (!ok)
            return false;
    }
    return true;
}

/* The id in the form blocks are matched by: "Q" and the number for the
 * question id forms norm.question-id reads ("Q2", "q02", "Q02", 2 and
 * "Question 2" are one question), else as written. */
static void match_key(const json_t *id, char *out, size_t n)
{
    long long num = mf_norm_question_number(id);
    const char *s = json_string_value(id);
    if (num >= 0)
        snprintf(out, n, "Q%lld", num);
    else
        snprintf(out, n, "%s", s ? s : "");
}

/* New array of approved questions carrying the returned answers, or NULL.
 * A block whose id is a variant of the approved one (Q2 for Q02) takes the
 * approved id, with a norm.question-id warning. */
static json_t *overlay(const json_t *qs, const json_t *approved, mf_warnings *w)
{
    char key[128];
    size_t n = json_array_size(qs);
    if (n == 0 || n != json_array_size(approved))
        return NULL;
    json_t *by_id = json_object();
    for (size_t i = 0; i < n; i++) {
        const json_t *q = json_array_get(qs, i);
        match_key(json_object_get(q, "id"), key, sizeof key);
        if (!answer_only(q) || json_object_get(by_id, key)) {
            json_decref(by_id);
            return NULL;
        }
        json_object_set(by_id, key, (json_t *)q);
    }
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++) {
        const json_t *a = json_array_get(approved, i);
        const char *id = json_string_value(json_object_get(a, "id"));
        match_key(json_object_get(a, "id"), key, sizeof key);
        const json_t *block = id ? json_object_get(by_id, key) : NULL;
        if (!json_is_object(a) || !block) {
            json_decref(out);
            json_decref(by_id);
            return NULL;
        }
        const json_t *gid = json_object_get(block, "id");
        if (!json_is_string(gid) || strcmp(json_string_value(gid), id) != 0) {
            char *given = mf_norm_show(gid);
            int rc = given ? mf_warnings_add(w, MF_RULE_ID(NORM_QUESTION_ID), 0,
                                             "Normalized question id %s of an answer-only block to %s, the approved "
                                             "question's id.", given, id) : -1;
            free(given);
            if (rc) {
                json_decref(out);
                json_decref(by_id);
                return NULL;
            }
        }
        json_t *q = json_deep_copy(a);
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)block, k, v) {
            if (strcmp(k, "id") != 0)
                json_object_set_new(q, k, json_deep_copy(v));
        }
        json_array_append_new(out, q);
    }
    json_decref(by_id);
    return out;
}

/* An empty `answer:` (null) whose fields all stand beside it becomes the
 * object they go into: every answer field was written one level up, so
 * {answered_at: x} is the only answer the text holds (regression 382a4e3f);
 * without such a sibling a null answer is left alone. */
static int hoist(json_t *qs, mf_warnings *w)
{
    for (size_t i = 0; i < json_array_size(qs); i++) {
        json_t *q = json_array_get(qs, i), *ans = json_object_get(q, "answer");
        bool sibling = false;
        for (const char *const *h = hoisted; *h && !sibling; h++)
            sibling = json_object_get(q, *h) != NULL;
        if (json_is_object(q) && json_is_null(ans) && sibling) {
            ans = json_object();
            if (!ans || json_object_set_new(q, "answer", ans))
                return -1;
        }
        if (!json_is_object(ans))
            continue;
        for (const char *const *h = hoisted; *h; h++) {
            json_t *v = json_object_get(q, *h), *own = json_object_get(ans, *h);
            /* the answer holding the same value: one field written twice, the sibling goes */
            if (!v || (own && !json_equal(own, v)))
                continue;
            const char *id = json_string_value(json_object_get(q, "id"));
            if (!own)
                json_object_set(ans, *h, v);
            json_object_del(q, *h);
            if (mf_warnings_add(w, MF_RULE_ID(NORM_FULL_ANSWERS_HOIST), 0, own ?
                                "Hoisted %s into answer for canonical question %s (the answer already held the same value)." :
                                "Hoisted %s into answer for canonical question %s.", *h,
                                id ? id : "without id"))
                return -1;
        }
    }
    return 0;
}

int mf_norm_full_answers(json_t **root, const mf_profile *p, const mf_options *o,
                         mf_warnings *w, mf_error *err)
{
    json_t *qs = json_object_get(*root, "questions");
    if (!json_is_array(qs))
        return 0;
    const json_t *approved = json_object_get(mf_options_context(o, p, "approved_interview"), "questions");
    bool all_blocks = json_array_size(qs) > 0;
    for (size_t i = 0; i < json_array_size(qs) && all_blocks; i++)
        all_blocks = answer_only(json_array_get(qs, i));
    if (all_blocks && json_is_array(approved)) {
        json_t *merged = overlay(qs, approved, w);
        if (merged) {
            json_object_set_new(*root, "questions", merged);
            qs = merged;
            if (mf_warnings_add(w, MF_RULE_ID(NORM_FULL_ANSWERS_OVERLAY), 0,
                                "Recovered Full Answers answer-only question blocks using canonical question metadata."))
                goto oom;
        }
    }
    if (hoist(qs, w))
        goto oom;
    return 0;
oom:
    mf_error_set(err, 2, "SCHEMA_VIOLATION", "/questions", 0, 0, "out of memory");
    return -1;
}
