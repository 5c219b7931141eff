/* norm_interview.c - the "interview" normalizer (seed 000, "Interview Artifact").
 *
 * Runs on the `questions:` list after unwrapping and aliasing:
 *   1. every entry must be question-shaped (an object with a `question`
 *      text); a malformed entry rejects the artifact with an indexed path
 *      (tier 2) so the retry asks for a complete replacement;
 *   2. ids: 1, q1, Q1, "Question 3" become Q## (Q01, Q03);
 *   3. a duplicate id gets the next integer above the batch maximum;
 *   4. phase is matched case-insensitively (foundation, structure, assembly);
 *   5. questions are stably sorted by phase;
 *   6. coverage gap references (coverage.gap_resolutions[].gap) that differ
 *      from a provided gap (coverage.gaps[]) only in quotes or whitespace are
 *      canonicalized to the gap text; a reference to an unknown gap, or a gap
 *      nobody references, is a tier-3 COVERAGE_GAP_MISMATCH.
 * Every step is linear (sets are hash objects) and a canonical artifact is a
 * fixed point: nothing here fires on Q01, a lowercase phase or sorted input. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "norm.h"

static const char *const phases[] = {"foundation", "structure", "assembly", NULL};

static int phase_rank(const json_t *q)
{
    const char *ph = json_string_value(json_object_get(q, "phase"));
    for (int i = 0; ph && phases[i]; i++)
        if (strcmp(ph, phases[i]) == 0)
            return i;
    return 3;
}

/* The number of a Q## / q1 / 1 / "Question 3" id, or -1 when the id has another shape. */
long long mf_norm_question_number(const json_t *id)
{
    if (json_is_integer(id))
        return json_integer_value(id) >= 0 ? json_integer_value(id) : -1;
    const char *s = json_string_value(id);
    if (!s)
        return -1;
    size_t n = strlen(s), i = 0;
    while (i < n && isspace((unsigned char)s[i]))
        i++;
    while (n > i && isspace((unsigned char)s[n - 1]))
        n--;
    if (n - i >= 8 && strncasecmp(s + i, "question", 8) == 0)
        i += 8;
    else if (i < n && (s[i] == 'q' || s[i] == 'Q'))
        i++;
    while (i < n && (s[i] == '-' || s[i] == '_' || s[i] == ' ' || s[i] == '#'))
        i++;
    long long v;
    return mf_norm_digits(s + i, n - i, &v) ? v : -1;
}

static void format_qid(char *out, size_t n, long long num)
{
    snprintf(out, n, "Q%02lld", num);
}

static int check_shape(const json_t *qs, mf_error *err)
{
    for (size_t i = 0; i < json_array_size(qs); i++) {
        const json_t *q = json_array_get(qs, i);
        const char *text = json_string_value(json_object_get(q, "question"));
        if (json_is_object(q) && text && *text)
            continue;
        char path[64];
        snprintf(path, sizeof path, "/questions/%zu", i);
        mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0,
                     "Question at index %zu is not a question object: every entry of questions needs "
                     "id, phase and question text.", i);
        return -1;
    }
    return 0;
}

static int normalize_ids(json_t *qs, mf_warnings *w)
{
    size_t n = json_array_size(qs);
    long long max = 0;
    for (size_t i = 0; i < n; i++) {
        json_t *q = json_array_get(qs, i), *id = json_object_get(q, "id");
        long long num = mf_norm_question_number(id);
        if (num < 0)
            continue;
        if (num > max)
            max = num;
        char canon[32];
        format_qid(canon, sizeof canon, num);
        const char *s = json_string_value(id);
        if (s && strcmp(s, canon) == 0)
            continue;
        char *old = mf_norm_show(id);
        json_object_set_new(q, "id", json_string(canon));
        int rc = mf_warnings_add(w, MF_RULE_ID(NORM_QUESTION_ID), 0, "Normalized question id %s%s%s to %s.",
                                 s ? "\"" : "", old, s ? "\"" : "", canon);
        free(old);
        if (rc)
            return -1;
    }
    json_t *seen = json_object();
    for (size_t i = 0; i < n; i++) {
        json_t *q = json_array_get(qs, i);
        const char *id = json_string_value(json_object_get(q, "id"));
        if (!id)
            continue;
        if (!json_object_get(seen, id)) {
            json_object_set_new(seen, id, json_true());
            continue;
        }
        char canon[32];
        do
            format_qid(canon, sizeof canon, ++max);
        while (json_object_get(seen, canon));
        if (mf_warnings_add(w, MF_RULE_ID(NORM_QUESTION_RENUMBER), 0,
                            "Renumbered duplicate question id %s at index %zu to %s.", id, i, canon)) {
            json_decref(seen);
            return -1;
        }
        json_object_set_new(q, "id", json_string(canon));
        json_object_set_new(seen, canon, json_true());
    }
    json_decref(seen);
    return 0;
}

static int normalize_phases(json_t *qs, mf_warnings *w)
{
    for (size_t i = 0; i < json_array_size(qs); i++) {
        json_t *q = json_array_get(qs, i);
        const char *ph = json_string_value(json_object_get(q, "phase"));
        if (!ph)
            continue;
        char *low = mf_norm_lower_trim(ph);
        for (int k = 0; low && phases[k]; k++) {
            if (strcmp(low, phases[k]) != 0 || strcmp(ph, phases[k]) == 0)
                continue;
            const char *id = json_string_value(json_object_get(q, "id"));
            int rc = mf_warnings_add(w, MF_RULE_ID(NORM_PHASE_CASE), 0,
                                     "Normalized phase \"%s\" to %s for question %s.", ph, phases[k],
                                     id ? id : "without id");
            json_object_set_new(q, "phase", json_string(phases[k]));
            if (rc) {
                free(low);
                return -1;
            }
        }
        free(low);
    }
    return 0;
}

/* Stable bucket sort by phase rank (unknown phases last). */
static int sort_phases(json_t *qs, mf_warnings *w)
{
    size_t n = json_array_size(qs);
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++)
        sorted = phase_rank(json_array_get(qs, i - 1)) <= phase_rank(json_array_get(qs, i));
    if (sorted)
        return 0;
    json_t *copy = json_copy(qs);
    json_array_clear(qs);
    for (int r = 0; r <= 3; r++)
        for (size_t i = 0; i < n; i++)
            if (phase_rank(json_array_get(copy, i)) == r)
                json_array_append(qs, json_array_get(copy, i));
    json_decref(copy);
    return mf_warnings_add(w, MF_RULE_ID(NORM_PHASE_ORDER), 0,
                           "Reordered questions by phase (foundation \xE2\x86\x92 structure \xE2\x86\x92 assembly).");
}

/* Gap text with quotes dropped and whitespace runs collapsed. Caller frees. */
static char *gap_key(const char *s)
{
    mf_buf b = {0};
    bool space = false;
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '"' || *c == '\'' || *c == '`')
            continue;
        if (c[0] == 0xE2 && c[1] == 0x80 && (c[2] == 0x98 || c[2] == 0x99 || c[2] == 0x9C || c[2] == 0x9D)) {
            c += 2; /* curly quotes */
            continue;
        }
        if (isspace(*c)) {
            space = b.len > 0;
            continue;
        }
        if (space)
            mf_buf_putc(&b, ' ');
        space = false;
        mf_buf_putc(&b, (char)*c);
    }
    return mf_buf_detach(&b);
}

static int coverage_refs(json_t *root, mf_warnings *w, mf_error *err)
{
    json_t *cov = json_object_get(root, "coverage");
    json_t *gaps = json_object_get(cov, "gaps"), *res = json_object_get(cov, "gap_resolutions");
    if (!json_is_array(gaps) || !json_is_array(res))
        return 0;
    json_t *exact = json_object(), *by_key = json_object(), *used = json_object();
    int rc = 0;
    for (size_t i = 0; i < json_array_size(gaps); i++) {
        const char *g = json_string_value(json_array_get(gaps, i));
        if (!g)
            continue;
        json_object_set_new(exact, g, json_true());
        char *k = gap_key(g);
        if (!json_object_get(by_key, k))
            json_object_set_new(by_key, k, json_string(g));
        free(k);
    }
    for (size_t i = 0; i < json_array_size(res) && rc == 0; i++) {
        json_t *r = json_array_get(res, i);
        const char *ref = json_string_value(json_object_get(r, "gap"));
        if (!ref)
            continue;
        if (json_object_get(exact, ref)) {
            json_object_set_new(used, ref, json_true());
            continue;
        }
        char *k = gap_key(ref);
        const char *g = json_string_value(json_object_get(by_key, k));
        free(k);
        char path[96];
        snprintf(path, sizeof path, "/coverage/gap_resolutions/%zu/gap", i);
        if (!g) {
            mf_error_set(err, 3, "COVERAGE_GAP_MISMATCH", path, 0, 0,
                         "Coverage gap reference \"%s\" matches no provided gap.", ref);
            rc = -1;
            break;
        }
        char *canon = mf_strdup0(g);
        rc = mf_warnings_add(w, MF_RULE_ID(NORM_COVERAGE_GAP_REF), 0,
                             "Canonicalized coverage gap reference \"%s\" to the provided gap text \"%s\".",
                             ref, canon);
        json_object_set_new(r, "gap", json_string(canon));
        json_object_set_new(used, canon, json_true());
        free(canon);
    }
    for (size_t i = 0; i < json_array_size(gaps) && rc == 0; i++) {
        const char *g = json_string_value(json_array_get(gaps, i));
        if (g && !json_object_get(used, g)) {
            char path[64];
            snprintf(path, sizeof path, "/coverage/gaps/%zu", i);
            mf_error_set(err, 3, "COVERAGE_GAP_MISMATCH", path, 0, 0,
                         "Coverage revision metadata does not reference the provided gap \"%s\".", g);
            rc = -1;
        }
    }
    json_decref(exact);
    json_decref(by_key);
    json_decref(used);
    return rc;
}

int mf_norm_interview(json_t **root, const mf_profile *p, const mf_options *o,
                      mf_warnings *w, mf_error *err)
{
    (void)p;
    (void)o;
    json_t *qs = json_object_get(*root, "questions");
    if (!json_is_array(qs))
        return 0;
    if (check_shape(qs, err))
        return -1;
    if (normalize_ids(qs, w) || normalize_phases(qs, w) || sort_phases(qs, w)) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "/questions", 0, 0, "out of memory");
        return -1;
    }
    return coverage_refs(*root, w, err);
}
