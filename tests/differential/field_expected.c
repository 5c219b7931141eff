/* field_expected.c - replays corpus/field/expected and corpus/field/tracker:
 * every NAME.raw with a NAME.expect.json ({"profile", "family", "value" |
 * "reject", "or_reject"?, "known_failure"?}) must repair to exactly that
 * value, or be rejected when "reject" says so ("or_reject": true also accepts
 * a rejection). A value that differs is a silent data change and fails the
 * test. "known_failure": {"got": "rejected" | "changed", "why"} records a case
 * core still gets wrong: that same outcome is reported, not failed; any other
 * wrong outcome fails, and a known failure that now passes is reported so its
 * marker can be removed.
 *
 *   field_expected DIR... */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/malform.h"
#include "malform/input.h"

/* The whole file (NUL-terminated; the input cap as mf_repair's); NULL when it cannot be read. */
static char *slurp(const char *path, size_t *len)
{
    char *s = NULL;
    if (mf_input_read(path, MF_DEFAULT_MAX_INPUT, &s, len) != MF_INPUT_OK) {
        free(s);
        return NULL;
    }
    return s;
}

enum outcome { OK, GOT_REJECTED, GOT_CHANGED, GOT_ACCEPTED, BROKEN };

static const char *const outcome_name[] = {"ok", "rejected", "changed", "accepted", "broken"};

/* The outcome a known_failure marker records, or OK when there is none (BROKEN when it is malformed). */
static enum outcome known_outcome(const json_t *exp)
{
    const json_t *kf = json_object_get(exp, "known_failure");
    if (!kf)
        return OK;
    const char *got = json_string_value(json_object_get(kf, "got"));
    for (int o = GOT_REJECTED; o <= GOT_ACCEPTED; o++)
        if (got && strcmp(got, outcome_name[o]) == 0 && json_string_value(json_object_get(kf, "why")))
            return (enum outcome)o;
    return BROKEN;
}

/* 0 when the case behaves as recorded (passes, or fails exactly as its known_failure says). */
static int compare(const char *dir, const char *stem, int *known_count)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.expect.json", dir, stem);
    json_error_t je;
    json_t *exp = json_load_file(path, JSON_DECODE_ANY, &je);
    if (!exp) {
        printf("FAIL %s: bad expect file: %s\n", stem, je.text);
        return 1;
    }
    const char *pname = json_string_value(json_object_get(exp, "profile"));
    const mf_profile *p = mf_profiles_get(pname ? pname : "generic_json");
    snprintf(path, sizeof path, "%s/%s.raw", dir, stem);
    size_t len = 0;
    char *raw = p ? slurp(path, &len) : NULL;
    if (!raw) {
        printf("FAIL %s: %s\n", stem, p ? "cannot read the .raw file" : "unknown profile");
        json_decref(exp);
        return 1;
    }
    mf_options o = {0};
    mf_result *r = mf_repair(p, raw, len, &o);
    const json_t *want = json_object_get(exp, "value");
    enum outcome got = OK, known = known_outcome(exp);
    char *detail = NULL;
    if (!r) {
        printf("FAIL %s: out of memory\n", stem);
        got = BROKEN;
    } else if (!want) {
        if (r->status == MF_ACCEPTED) {
            got = GOT_ACCEPTED;
            detail = mf_value_to_json(r->value);
        }
    } else if (r->status != MF_ACCEPTED) {
        if (!json_is_true(json_object_get(exp, "or_reject")))
            got = GOT_REJECTED;
    } else if (!json_equal(r->value, (json_t *)want)) {
        got = GOT_CHANGED;
        detail = mf_value_to_json(r->value);
    }
    int bad = 0;
    if (known == BROKEN) {
        printf("FAIL %s: known_failure needs {\"got\": \"rejected\"|\"changed\"|\"accepted\", \"why\"}\n", stem);
        bad = 1;
    } else if (got == BROKEN) {
        bad = 1;
    } else if (known != OK && got == known) {
        printf("KNOWN %s: %s (%s)\n", stem, outcome_name[got],
               json_string_value(json_object_get(json_object_get(exp, "known_failure"), "why")));
        (*known_count)++;
    } else if (known != OK && got == OK) {
        printf("NOW PASSES %s: remove its known_failure marker\n", stem);
    } else if (got == GOT_ACCEPTED) {
        printf("FAIL %s: expected a rejection (%s), got\n%s", stem,
               json_string_value(json_object_get(exp, "reject")), detail);
        bad = 1;
    } else if (got == GOT_REJECTED) {
        printf("FAIL %s: rejected: %s\n", stem, r->error.message);
        bad = 1;
    } else if (got == GOT_CHANGED) {
        char *w = mf_value_to_json(want);
        printf("FAIL %s: accepted with a changed value\n--- want\n%s--- got\n%s", stem, w, detail);
        free(w);
        bad = 1;
    }
    free(detail);
    mf_result_free(r);
    free(raw);
    json_decref(exp);
    return bad;
}

/* Replays one directory; -1 when it cannot be opened. */
static int replay_dir(const char *dir, int *cases, int *failed, int *known_count)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        return -1;
    }
    const char *suffix = ".expect.json";
    size_t sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n <= sl || strcmp(e->d_name + n - sl, suffix) != 0)
            continue;
        char stem[1024];
        snprintf(stem, sizeof stem, "%.*s", (int)(n - sl), e->d_name);
        (*cases)++;
        *failed += compare(dir, stem, known_count);
    }
    closedir(d);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: field_expected DIR...\n");
        return 2;
    }
    int cases = 0, failed = 0, known = 0;
    for (int i = 1; i < argc; i++)
        if (replay_dir(argv[i], &cases, &failed, &known) != 0)
            return 2;
    printf("%d field cases with expected values: %d passed, %d known failures, %d failed\n", cases,
           cases - failed - known, known, failed);
    return failed || cases == 0 ? 1 : 0;
}
