/* field_expected.c - replays corpus/field/expected: every NAME.raw with a
 * NAME.expect.json ({"profile", "family", "value" | "reject"}) must repair
 * to exactly that value, or be rejected when "reject" says so. A value that
 * differs is a silent data change and fails the test.
 *
 *   field_expected DIR */
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

static int compare(const char *dir, const char *stem)
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
    int bad = 0;
    if (!r) {
        printf("FAIL %s: out of memory\n", stem);
        bad = 1;
    } else if (!want) {
        if (r->status == MF_ACCEPTED) {
            char *got = mf_value_to_json(r->value);
            printf("FAIL %s: expected a rejection (%s), got\n%s", stem,
                   json_string_value(json_object_get(exp, "reject")), got);
            free(got);
            bad = 1;
        }
    } else if (r->status != MF_ACCEPTED) {
        printf("FAIL %s: rejected: %s\n", stem, r->error.message);
        bad = 1;
    } else if (!json_equal(r->value, (json_t *)want)) {
        char *got = mf_value_to_json(r->value), *w = mf_value_to_json(want);
        printf("FAIL %s: accepted with a changed value\n--- want\n%s--- got\n%s", stem, w, got);
        free(got);
        free(w);
        bad = 1;
    }
    mf_result_free(r);
    free(raw);
    json_decref(exp);
    return bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: field_expected DIR\n");
        return 2;
    }
    DIR *d = opendir(argv[1]);
    if (!d) {
        perror(argv[1]);
        return 2;
    }
    int cases = 0, failed = 0;
    const char *suffix = ".expect.json";
    size_t sl = strlen(suffix);
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n <= sl || strcmp(e->d_name + n - sl, suffix) != 0)
            continue;
        char stem[1024];
        snprintf(stem, sizeof stem, "%.*s", (int)(n - sl), e->d_name);
        cases++;
        failed += compare(argv[1], stem);
    }
    closedir(d);
    printf("%d field cases with expected values: %d passed, %d failed\n", cases, cases - failed, failed);
    return failed || cases == 0 ? 1 : 0;
}
