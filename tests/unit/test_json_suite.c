/* test_json_suite.c - JSONTestSuite (nst/JSONTestSuite, test_parsing/) through
 * mf_json_parse_repair.
 *
 * Every y_ file that jansson accepts must come out of the repair layer with
 * a value equal to jansson's strict parse and no warning but json.duplicate-key
 * (a valid object that repeats a key with another value loses the first: the
 * value is unchanged, the loss is said); a y_ file jansson
 * rejects must still be accepted. No n_ or i_ file may crash or take long
 * (the sanitizer build turns memory errors into failures). The suite lives
 * at MALFORM_SUITES_DIR (../shared/suites from the source tree, set by
 * tests/CMakeLists.txt), overridable with the MALFORM_SUITES environment
 * variable. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "internal.h"
#include "suite_b64.h"

/* Warnings other than json.duplicate-key (the only one valid JSON may carry). */
static size_t other_warnings(const mf_warnings *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += strcmp(w->items[i].rule, MF_RULE_ID(JSON_DUPLICATE_KEY)) != 0;
    return n;
}

static FILE *open_suite(void)
{
    const char *dir = getenv("MALFORM_SUITES");
    char path[4096];
    snprintf(path, sizeof path, "%s/json_parsing.jsonl", dir ? dir : MALFORM_SUITES_DIR);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    return f;
}

static void test_suite(void **state)
{
    (void)state;
    FILE *f = open_suite();
    char *line = NULL;
    size_t cap = 0;
    int cases = 0, y_ok = 0, y_jansson_rejects = 0, repaired_n = 0, failures = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t je;
        json_t *rec = json_loads(line, 0, &je);
        assert_non_null(rec);
        const char *id = json_string_value(json_object_get(rec, "id"));
        const char *expect = json_string_value(json_object_get(rec, "expect"));
        const char *b64 = json_string_value(json_object_get(rec, "b64"));
        assert_non_null(id);
        assert_non_null(expect);
        assert_non_null(b64);
        unsigned char *bytes = malloc(strlen(b64) + 1);
        size_t n = b64_decode(b64, bytes);
        cases++;

        json_t *out = NULL;
        mf_warnings w = {0};
        mf_error err = {0};
        int rc = mf_json_parse_repair((const char *)bytes, n, NULL, 0, false, &out, &w, &err);
        if (rc != 0) {
            assert_int_equal(err.tier, 1);
            assert_true(!strcmp(err.type, "JSON_SYNTAX_ERROR") || !strcmp(err.type, "NESTING_TOO_DEEP"));
            assert_true(err.line >= 1 && err.column >= 1);
        } else {
            assert_non_null(out);
        }
        if (expect[0] == 'y') {
            json_t *ref = json_loadb((const char *)bytes, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
            if (!ref)
                y_jansson_rejects++;
            if (rc != 0 && strcmp(id, "y_object_escaped_null_in_key.json") == 0 && strstr(err.message, "U+0000")) {
                y_ok++; /* deliberate: keys are C strings downstream; jansson rejects it too */
            } else if (rc != 0) {
                printf("FAIL %s: valid JSON rejected: %s\n", id, err.message);
                failures++;
            } else if (ref && (other_warnings(&w) || !json_equal(ref, out))) {
                printf("FAIL %s: %zu warnings or a different value\n", id, w.count);
                failures++;
            } else {
                y_ok++;
            }
            json_decref(ref);
        } else if (expect[0] == 'n' && rc == 0) {
            repaired_n++;
        }
        json_decref(out);
        mf_warnings_clear(&w);
        mf_error_clear(&err);
        free(bytes);
        json_decref(rec);
    }
    free(line);
    fclose(f);
    printf("JSONTestSuite: %d cases, %d y_ passed (%d rejected by jansson), "
           "%d n_ cases accepted after repair\n", cases, y_ok, y_jansson_rejects, repaired_n);
    assert_true(cases >= 300);
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_suite)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
