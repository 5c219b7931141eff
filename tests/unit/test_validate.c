/* test_validate.c - the JSON-Schema subset validator, schema normalization
 * (seed 003) and the extraction_rule tier-3 checks (seed 004). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "schema_checks.h"

static json_t *J(const char *text)
{
    json_error_t e;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &e);
    if (!v)
        fail_msg("bad test JSON: %s: %s", e.text, text);
    return v;
}

/* Validate; returns the error type (or "OK") and leaves details in *err. */
static const char *run(const char *schema, const char *value, mf_error *err)
{
    json_t *s = J(schema), *v = J(value);
    mf_error_clear(err);
    int rc = mf_schema_validate(s, v, err);
    json_decref(s);
    json_decref(v);
    return rc == 0 ? "OK" : err->type;
}

static void test_types(void **state)
{
    (void)state;
    mf_error e = {0};
    assert_string_equal(run("{\"type\": \"integer\"}", "5", &e), "OK");
    assert_string_equal(run("{\"type\": \"integer\"}", "5.0", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "expected integer, got number 5.0");
    assert_int_equal(e.tier, 2);
    assert_string_equal(run("{\"type\": \"number\"}", "5", &e), "OK");
    assert_string_equal(run("{\"type\": [\"string\", \"array\"]}", "[\"a\"]", &e), "OK");
    assert_string_equal(run("{\"type\": [\"string\", \"array\"]}", "3", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "expected string or array, got integer 3");
    assert_string_equal(run("{\"type\": \"null\"}", "null", &e), "OK");
    assert_string_equal(run("{\"type\": \"boolean\"}", "false", &e), "OK");
    assert_string_equal(run("{\"type\": \"object\"}", "\"five\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "expected object, got string \"five\"");
    mf_error_clear(&e);
}

static void test_required_and_paths(void **state)
{
    (void)state;
    mf_error e = {0};
    const char *schema = "{\"type\": \"object\", \"required\": [\"tasks\"], \"properties\": {\"tasks\": {"
                         "\"type\": \"array\", \"items\": {\"type\": \"object\", \"required\": [\"task_id\", \"content\"],"
                         "\"properties\": {\"task_id\": {\"type\": \"string\"}}}}}}";
    assert_string_equal(run(schema, "{}", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "missing required property \"tasks\"");
    assert_string_equal(e.path, "");
    assert_string_equal(run(schema, "{\"tasks\": [{\"task_id\": \"a\", \"content\": 1}, {\"task_id\": \"b\"}]}", &e),
                        "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "missing required property \"content\"");
    assert_string_equal(e.path, "/tasks/1");
    assert_string_equal(run(schema, "{\"tasks\": [{\"task_id\": 7, \"content\": 1}]}", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.path, "/tasks/0/task_id");
    assert_string_equal(e.message, "expected string, got integer 7");
    /* pointer escaping of '/' and '~' in keys */
    assert_string_equal(run("{\"additionalProperties\": {\"type\": \"string\"}}", "{\"a/b~c\": 1}", &e),
                        "SCHEMA_VIOLATION");
    assert_string_equal(e.path, "/a~1b~0c");
    mf_error_clear(&e);
}

static void test_additional_enum_const(void **state)
{
    (void)state;
    mf_error e = {0};
    const char *closed = "{\"properties\": {\"filename\": {}, \"content\": {}}, \"additionalProperties\": false}";
    assert_string_equal(run(closed, "{\"filename\": \"a\", \"content\": \"b\"}", &e), "OK");
    assert_string_equal(run(closed, "{\"filename\": \"a\", \"extra\": 1}", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "unexpected property \"extra\" (allowed: filename, content)");
    assert_string_equal(run("{\"enum\": [\"low\", \"high\"]}", "\"High\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "invalid value \"High\"; expected one of: \"low\", \"high\"");
    assert_string_equal(run("{\"enum\": [1]}", "1.0", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"const\": \"beads\"}", "\"beads\"", &e), "OK");
    assert_string_equal(run("{\"const\": \"beads\"}", "\"prd\"", &e), "SCHEMA_VIOLATION");
    mf_error_clear(&e);
}

static void test_strings_numbers_arrays(void **state)
{
    (void)state;
    mf_error e = {0};
    assert_string_equal(run("{\"minLength\": 2}", "\"äö\"", &e), "OK"); /* 4 bytes, 2 code points */
    assert_string_equal(run("{\"minLength\": 3}", "\"äö\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"minLength\": 1}", "\"\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"maxLength\": 2}", "\"日本語\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"pattern\": \"^\\\\p{L}+$\"}", "\"Müller\"", &e), "OK");
    assert_string_equal(run("{\"pattern\": \"^[a-z][a-z0-9_]*$\"}", "\"Mission-Data\"", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "\"Mission-Data\" does not match the pattern ^[a-z][a-z0-9_]*$");
    assert_string_equal(run("{\"pattern\": \"([a-z\"}", "\"x\"", &e), "INVALID_REGEX");
    assert_int_equal(e.tier, 2);
    assert_string_equal(run("{\"pattern\": \"^x\"}", "5", &e), "OK"); /* pattern applies to strings only */
    assert_string_equal(run("{\"minimum\": 0, \"maximum\": 1000}", "1000", &e), "OK");
    assert_string_equal(run("{\"minimum\": 0, \"maximum\": 1000}", "1001", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "1001 is greater than the maximum 1000");
    assert_string_equal(run("{\"minimum\": 1}", "0.5", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"minItems\": 1}", "[]", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.message, "expected at least 1 item, got 0");
    assert_string_equal(run("{\"maxItems\": 1}", "[1, 2]", &e), "SCHEMA_VIOLATION");
    mf_error_clear(&e);
}

static void test_combinators(void **state)
{
    (void)state;
    mf_error e = {0};
    /* seed 004: extract is null or an object of {from: ...} */
    const char *extract = "{\"properties\": {\"extract\": {\"oneOf\": [{\"type\": \"null\"}, {\"type\": \"object\","
                          "\"additionalProperties\": {\"type\": \"object\", \"required\": [\"from\"], \"properties\": {"
                          "\"from\": {\"type\": \"string\", \"pattern\": \"^(segment\\\\(-?\\\\d+\\\\)|filename|full_path|rel_path)$\"}}}}]}}}";
    assert_string_equal(run(extract, "{\"extract\": null}", &e), "OK");
    assert_string_equal(run(extract, "{\"extract\": {\"client\": {\"from\": \"segment(-4)\"}}}", &e), "OK");
    assert_string_equal(run(extract, "{\"extract\": {\"client\": {\"from\": \"folder(-4)\"}}}", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.path, "/extract/client/from"); /* the deepest branch's error wins */
    assert_non_null(strstr(e.message, "\"folder(-4)\" does not match"));
    assert_string_equal(run(extract, "{\"extract\": \"segment(1)\"}", &e), "SCHEMA_VIOLATION");
    assert_string_equal(e.path, "/extract");
    assert_string_equal(e.message, "value matches none of the allowed alternatives: expected null, got string "
                                   "\"segment(1)\"; expected object, got string \"segment(1)\"");
    assert_string_equal(run("{\"oneOf\": [{\"type\": \"integer\"}, {\"minimum\": 0}]}", "3", &e), "SCHEMA_VIOLATION");
    assert_string_equal(run("{\"anyOf\": [{\"type\": \"integer\"}, {\"minimum\": 0}]}", "3", &e), "OK");
    assert_string_equal(run("{\"anyOf\": [{\"type\": \"integer\"}, {\"type\": \"string\"}]}", "[]", &e), "SCHEMA_VIOLATION");
    mf_error_clear(&e);
}

static void test_regex_cache(void **state)
{
    (void)state;
    char msg[128];
    const pcre2_code *a = mf_regex_cached("^T-.+-[0-9]{2}$", msg, sizeof msg);
    assert_non_null(a);
    assert_ptr_equal(a, mf_regex_cached("^T-.+-[0-9]{2}$", msg, sizeof msg));
    assert_int_equal(mf_regex_search(a, "T-US-004-01", 11, NULL, 0), 1);
    assert_int_equal(mf_regex_search(a, "T-US-004-1", 10, NULL, 0), 0);
    assert_null(mf_regex_cached("(", msg, sizeof msg));
    assert_true(strlen(msg) > 0);
    mf_schema_cache_clear();
    assert_non_null(mf_regex_cached("^T-.+-[0-9]{2}$", msg, sizeof msg));
    mf_schema_cache_clear();
}

/* ---- schema normalization ---- */

static const char *inv_profile =
    "name: inv\nformat: json\n"
    "prose_fields: [key_conditions, notes]\n"
    "integer_fields: [conviction_score]\n"
    "enums:\n  risk: {values: [low, medium, high], map: {severe: high}}\n  gate: {values: [pass], map: {\"true\": pass}}\n"
    "defaults:\n  funding_ask: Not specified\n"
    "schema:\n  type: object\n  required: [funding_ask]\n  properties:\n"
    "    items:\n      type: array\n      items: {type: object, properties: {n: {type: integer}}, required: [funding_ask]}\n";

static void test_norm_schema(void **state)
{
    (void)state;
    char err[256];
    mf_profile *p = mf_profile_parse(inv_profile, strlen(inv_profile), "inv", err, sizeof err);
    assert_non_null(p);
    json_t *v = J("{\"key_conditions\": [\"a\", \"b\"], \"conviction_score\": 5.0, \"risk\": \"SEVERE\","
                  "\"deep\": {\"notes\": [\"x\"], \"risk\": [\"High\", \"low\"]}, \"gate\": true,"
                  "\"items\": [{\"n\": 2.0, \"funding_ask\": \"$1M\"}, {\"n\": 3}]}");
    mf_warnings w = {0};
    assert_int_equal(mf_norm_schema(p, v, &w), 0);
    json_t *want = J("{\"key_conditions\": \"a\\nb\", \"conviction_score\": 5, \"risk\": \"high\","
                     "\"deep\": {\"notes\": \"x\", \"risk\": [\"high\", \"low\"]}, \"gate\": \"pass\","
                     "\"items\": [{\"n\": 2, \"funding_ask\": \"$1M\"}, {\"n\": 3, \"funding_ask\": \"Not specified\"}],"
                     "\"funding_ask\": \"Not specified\"}");
    assert_true(json_equal(v, want));
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_PROSE_FIELD)));
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_INTEGER_FIELD)));
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_ENUM_CASE)));
    assert_true(mf_warnings_has(&w, MF_RULE_ID(NORM_DEFAULT)));
    bool found = false;
    for (size_t i = 0; i < w.count; i++)
        found = found || strcmp(w.items[i].message,
                                "Filled omitted required field funding_ask with default \"Not specified\"") == 0;
    assert_true(found);
    /* idempotent: a second pass changes nothing and says nothing */
    mf_warnings w2 = {0};
    assert_int_equal(mf_norm_schema(p, v, &w2), 0);
    assert_int_equal(w2.count, 0);
    assert_true(json_equal(v, want));
    /* things it must leave alone */
    json_t *keep = J("{\"key_conditions\": [\"a\", 1], \"conviction_score\": 5.5, \"risk\": \"extreme\","
                     "\"funding_ask\": \"x\"}");
    json_t *copy = json_deep_copy(keep);
    assert_int_equal(mf_norm_schema(p, keep, &w2), 0);
    assert_int_equal(w2.count, 0);
    assert_true(json_equal(keep, copy));
    json_decref(keep);
    json_decref(copy);
    json_decref(v);
    json_decref(want);
    mf_warnings_clear(&w);
    mf_warnings_clear(&w2);
    mf_profile_free(p);
}

static void test_path_unsafe(void **state)
{
    (void)state;
    assert_true(mf_path_unsafe("../x"));
    assert_true(mf_path_unsafe("a/../../x"));
    assert_true(mf_path_unsafe("/etc/passwd"));
    assert_true(mf_path_unsafe("C:\\win"));
    assert_true(mf_path_unsafe("a\\..\\b"));
    assert_false(mf_path_unsafe("src/..hidden/x"));
    assert_false(mf_path_unsafe("src/a..b.js"));
    assert_false(mf_path_unsafe("src/db.js"));
}

/* ---- extraction_rule tier 3 through mf_repair ---- */

static const char *rule_type(const char *yaml, const char *samples_json, mf_result **out)
{
    const mf_profile *p = mf_profiles_get("extraction_rule");
    assert_non_null(p);
    json_t *samples = samples_json ? json_pack("{s:o}", "sample_paths", J(samples_json)) : NULL;
    mf_options o = {0};
    o.context = samples;
    mf_result *r = mf_repair(p, yaml, strlen(yaml), &o);
    json_decref(samples);
    assert_non_null(r);
    static char type[64];
    snprintf(type, sizeof type, "%s", r->status == MF_ACCEPTED ? "OK" : r->error.type);
    if (out)
        *out = r;
    else
        mf_result_free(r);
    return type;
}

static void test_extraction_rule(void **state)
{
    (void)state;
    const char *samples = "[\"/data/mission_042/2024-01-15/readings.csv\", \"/data/mission_043/2024-01-16/telemetry.csv\"]";
    const char *good = "name: mission_data\nglob: \"**/mission_*/?\?\?\?-?\?-?\?/*.csv\"\nextract:\n  mission_id:\n"
                       "    from: segment(-3)\n    pattern: \"mission_(\\\\d+)\"\n    type: integer\n"
                       "  day:\n    from: segment(-2)\n    type: date\ntag: mission_data\n";
    assert_string_equal(rule_type(good, samples, NULL), "OK");
    assert_string_equal(rule_type(good, NULL, NULL), "OK");
    mf_result *r;
    /* seed 004 tier 3: "**" + "mission/" does not match mission_042 */
    assert_string_equal(rule_type("name: m\nglob: \"**/mission/?\?\?\?-?\?-?\?/*.csv\"\n", samples, &r), "GLOB_MISMATCH");
    assert_int_equal(r->error.tier, 3);
    assert_string_equal(r->error.path, "/glob");
    assert_non_null(strstr(r->error.message, "/data/mission_042/2024-01-15/readings.csv"));
    mf_result_free(r);
    assert_string_equal(rule_type("name: m\nglob: \"**/*.csv\"\nextract:\n  id:\n    from: filename\n"
                                  "    pattern: \"^ZZZ(\\\\d+)\"\n", samples, NULL), "EMPTY_EXTRACTION");
    assert_string_equal(rule_type("name: m\nglob: \"**/*.csv\"\nextract:\n  id:\n    from: segment(-2)\n"
                                  "    type: integer\n", samples, &r), "TYPE_COERCION_FAILED");
    assert_string_equal(r->error.path, "/extract/id");
    mf_result_free(r);
    assert_string_equal(rule_type("name: m\nglob: \"**/*.csv\"\nextract:\n  day:\n    from: filename\n"
                                  "    type: date\n    default: \"2024-02-30\"\n", NULL, NULL), "TYPE_COERCION_FAILED");
    assert_string_equal(rule_type("name: m\nglob: \"**/*.csv\"\nextract:\n  id:\n    from: filename\n"
                                  "    pattern: \"client_(.*\"\n", samples, &r), "INVALID_REGEX");
    assert_int_equal(r->error.tier, 2);
    assert_string_equal(r->error.path, "/extract/id/pattern");
    mf_result_free(r);
    /* seed 004 tier 2 example: folder(-4) is not a valid source */
    assert_string_equal(rule_type("name: client_reports\nglob: \"**/client_*/?\?\?\?/Q?/*.csv\"\nextract:\n  client:\n"
                                  "    from: folder(-4)\n    pattern: \"client_(.*)\"\n", NULL, &r), "SCHEMA_VIOLATION");
    assert_string_equal(r->error.path, "/extract/client/from");
    mf_result_free(r);
    assert_string_equal(rule_type("name: Client-Reports\nglob: x\n", NULL, NULL), "SCHEMA_VIOLATION");
    assert_string_equal(rule_type("name: m\nglob: x\npriority: 1001\n", NULL, NULL), "SCHEMA_VIOLATION");
}

static void test_profiles_load(void **state)
{
    (void)state;
    const char *names[] = {"task_breakdown", "code_files", "qa_tests", "artifact_files", "investor_decision",
                           "extraction_rule"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        const mf_profile *p = mf_profiles_get(names[i]);
        assert_non_null(p);
        assert_non_null(p->schema);
        for (size_t k = 0; k < json_array_size(p->normalizers); k++)
            assert_non_null(mf_normalizer_find(json_string_value(json_array_get(p->normalizers, k))));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_required_and_paths),
        cmocka_unit_test(test_additional_enum_const),
        cmocka_unit_test(test_strings_numbers_arrays),
        cmocka_unit_test(test_combinators),
        cmocka_unit_test(test_regex_cache),
        cmocka_unit_test(test_norm_schema),
        cmocka_unit_test(test_path_unsafe),
        cmocka_unit_test(test_extraction_rule),
        cmocka_unit_test(test_profiles_load),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_schema_cache_clear();
    mf_profiles_shutdown();
    return rc;
}
