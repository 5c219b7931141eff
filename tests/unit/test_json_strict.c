/* test_json_strict.c - mf_json_strict against jansson's json_loadb.
 *
 * Whatever mf_json_strict decides (a value or "invalid") must be what
 * json_loadb(JSON_DECODE_ANY | JSON_ALLOW_NUL) decides, with the same value
 * and key order; "unsure" is allowed only for its documented cases. Inputs:
 * hand-written edge cases, every JSONTestSuite case (MALFORM_SUITES_DIR) and
 * every prefix of the short ones (truncation is the common malformation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json_strict.h"
#include "suite_b64.h"

static int verdicts[3];

/* Compare one text; `unsure_ok`: the text is one of the cases left to jansson. */
static void check(const char *s, size_t n, bool unsure_ok)
{
    json_error_t je;
    json_t *ref = memchr(s, '\0', n) ? NULL : json_loadb(s, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    json_t *v = NULL;
    int rc = mf_json_strict(s, n, 0, &v);
    int only = mf_json_strict(s, n, 0, NULL);
    if (rc != only)
        fail_msg("validate-only verdict %d, building verdict %d on %.*s", only, rc, (int)n, s);
    verdicts[rc + 1]++;
    if (rc == MF_STRICT_UNSURE) {
        if (!unsure_ok && ref)
            fail_msg("unsure on plain valid JSON: %.*s", (int)n, s);
    } else if (rc == MF_STRICT_INVALID) {
        if (ref)
            fail_msg("rejected what jansson accepts: %.*s", (int)n, s);
    } else {
        if (!ref)
            fail_msg("accepted what jansson rejects (%s): %.*s", je.text, (int)n, s);
        char *a = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT), *b = json_dumps(ref, JSON_ENCODE_ANY | JSON_COMPACT);
        if (!json_equal(v, ref) || !a || !b || strcmp(a, b) != 0)
            fail_msg("different value for %.*s: %s vs jansson %s", (int)n, s, a ? a : "?", b ? b : "?");
        free(a);
        free(b);
    }
    json_decref(v);
    json_decref(ref);
}

static void check_str(const char *s, bool unsure_ok) { check(s, strlen(s), unsure_ok); }

static void test_edges(void **state)
{
    (void)state;
    static const char *const sure[] = {
        "0", "-0", "1", "-1", "12.5e3", "1E+2", "1e-400", "-0.0", "9223372036854775807", "123456789012345678",
        "1e400", "01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "[1,]", "[,1]", "{}", "[]", " \n[ ] \t",
        "{\"a\":1,\"a\":2}", "{\"b\":1,\"a\":2,\"b\":3}", "{\"a\" : [true, false, null]}", "{\"a\":1,}",
        "{a:1}", "{'a':1}", "\"x\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\ud800\"", "\"\\udc00x\"", "\"\\ud800\\u0041\"",
        "\"\\u0000a\"", "\"a\\qb\"", "\"tab\tin\"", "\"caf\xc3\xa9 \\n \xe2\x80\x94\"", "\"unterminated",
        "\"\\", "\"\\u12\"", "tru", "true", "truex", "nul", "null null", "[1 2]", "{\"a\" 1}", "{\"a\":}",
        "[\"long string with no escapes at all, longer than eight bytes\", \"and \\\"one\\\" with\"]",
        "", "  ", "[", "{", "]", "{\"k\\u00e9y\":\"v\"}", "[1.5,-2,3e2,{\"x\":[{}]}]", "\xc3\xa9", "[\"\x7f\"]"};
    for (size_t i = 0; i < sizeof sure / sizeof *sure; i++)
        check_str(sure[i], false);
    check_str("12345678901234567890123", true);       /* past int64: jansson's call */
    check_str("{\"a\\u0000b\":1}", true);             /* NUL in a key */
    check("[\"a\0b\"]", 7, false);                    /* a raw NUL is never strict */
    check_str("\"\xed\xa0\x80\"", true);              /* an encoded surrogate: not UTF-8 */

    char deep[4200];                                  /* nesting: the cap and jansson's own limit */
    for (int d = 1990; d <= 2050; d += 10) {
        memset(deep, '[', (size_t)d);
        memset(deep + d, ']', (size_t)d);
        check(deep, 2 * (size_t)d, true);
    }
    memset(deep, '[', 5);
    memset(deep + 5, ']', 5);
    assert_int_equal(mf_json_strict(deep, 10, 4, NULL), MF_STRICT_INVALID);
    assert_int_equal(mf_json_strict(deep, 10, 5, NULL), MF_STRICT_OK);
}

/* "unsure" is fine where the text holds what mf_json_strict leaves to jansson:
 * non-ASCII bytes, a NUL escape (it may be in a key), a long digit run, deep nesting. */
static bool leaves_to_jansson(const unsigned char *s, size_t n)
{
    size_t digits = 0, opens = 0;
    for (size_t i = 0; i < n; i++) {
        digits = s[i] >= '0' && s[i] <= '9' ? digits + 1 : 0;
        opens += s[i] == '[' || s[i] == '{';
        if (s[i] >= 0x80 || digits > 18 || (s[i] == '\\' && i + 5 < n && memcmp(s + i + 1, "u0000", 5) == 0))
            return true;
    }
    return opens > 1000;
}

static void test_suite_and_prefixes(void **state)
{
    (void)state;
    const char *dir = getenv("MALFORM_SUITES");
    char path[4096];
    snprintf(path, sizeof path, "%s/json_parsing.jsonl", dir ? dir : MALFORM_SUITES_DIR);
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char *line = NULL;
    size_t cap = 0;
    int cases = 0;
    while (getline(&line, &cap, f) > 0) {
        json_error_t je;
        json_t *rec = json_loads(line, 0, &je);
        assert_non_null(rec);
        const char *b64 = json_string_value(json_object_get(rec, "b64"));
        assert_non_null(b64);
        unsigned char *bytes = malloc(strlen(b64) + 1);
        size_t n = b64_decode(b64, bytes);
        bool unsure_ok = leaves_to_jansson(bytes, n);
        check((const char *)bytes, n, unsure_ok);
        for (size_t k = 0; n <= 200 && k < n; k++)
            check((const char *)bytes, k, unsure_ok);
        cases++;
        free(bytes);
        json_decref(rec);
    }
    free(line);
    fclose(f);
    printf("json_strict: %d suite cases; verdicts: %d invalid, %d ok, %d unsure\n", cases, verdicts[0],
           verdicts[1], verdicts[2]);
    assert_true(cases >= 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_edges), cmocka_unit_test(test_suite_and_prefixes)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
