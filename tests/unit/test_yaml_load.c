/* test_yaml_load.c - mf_yaml_load's own decisions: core-schema typing of
 * plain scalars, shared scalars (a repeated string is one value, also after
 * many other strings), escapes, duplicate keys; and the emitter's quoting of
 * strings the loader would read back changed after a repair. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"

static json_t *load(const char *text, mf_error *err)
{
    json_t *v = NULL;
    mf_yaml_load(text, strlen(text), NULL, &v, err);
    return v;
}

static void plain_scalars(void **state)
{
    (void)state;
    static const struct { const char *text, *json; } cases[] = {
        {"", "null"},       {"~", "null"},         {"Null", "null"},     {"NULL", "null"},
        {"nULL", "\"nULL\""}, {"true", "true"},    {"True", "true"},     {"TRUE", "true"},
        {"tRUE", "\"tRUE\""}, {"false", "false"},  {"FALSE", "false"},   {"yes", "\"yes\""},
        {"0", "0"},         {"-12", "-12"},        {"+7", "7"},          {"-", "\"-\""},
        {"0o17", "15"},     {"0o18", "\"0o18\""},  {"0x1F", "31"},       {"0x", "\"0x\""},
        {"1.5", "1.5"},     {".5", "0.5"},         {"-.5e3", "-500.0"},  {"1e", "\"1e\""},
        {"1.", "1.0"},      {".", "\".\""},          {".inf", "\".inf\""}, {"1e999", "\"1e999\""},
        {"99999999999999999999", "1e20"},          {"0x99999999999999999999", "\"0x99999999999999999999\""},
        {"12:30", "\"12:30\""}, {"a1", "\"a1\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        json_t *got = mf_yaml_plain_value(cases[i].text, strlen(cases[i].text));
        json_t *want = json_loads(cases[i].json, JSON_DECODE_ANY, NULL);
        if (!json_equal(got, want) || json_typeof(got) != json_typeof(want))
            fail_msg("%s: got %s, want %s", cases[i].text, json_dumps(got, JSON_ENCODE_ANY), cases[i].json);
        json_decref(got);
        json_decref(want);
    }    /* a number longer than 64 characters is still one (main job 9d9f0c2b-r1215a3f1), and a
     * string spelled so is quoted on output, or it would come back a number */
    char longf[80] = ".";
    memset(longf + 1, '6', 70);
    json_t *got = mf_yaml_plain_value(longf, strlen(longf));
    assert_true(json_is_real(got) && fabs(json_real_value(got) - 2.0 / 3) < 1e-12);
    json_decref(got);
    json_t *v = json_pack("{s:s}", "x", longf);
    char *y = mf_value_to_yaml(v);
    mf_error err = {0};
    json_t *back = load(y, &err);
    assert_true(json_equal(back, v));
    json_decref(back);
    json_decref(v);
    free(y);
}

static void repeated_strings_are_shared(void **state)
{
    (void)state;
    mf_buf text = {0};
    for (int i = 0; i < 20000; i++) /* more distinct strings than the sharing table has slots */
        mf_buf_printf(&text, "- s%d\n", i);
    for (int i = 0; i < 1000; i++)
        mf_buf_puts(&text, "- repeated\n- 42\n");
    mf_error err = {0};
    json_t *v = load(mf_buf_cstr(&text), &err);
    assert_non_null(v);
    size_t n = json_array_size(v);
    assert_int_equal(n, 22000);
    assert_string_equal(json_string_value(json_array_get(v, 20000)), "repeated");
    for (size_t i = 20002; i < n; i += 2) {
        assert_ptr_equal(json_array_get(v, i), json_array_get(v, 20000));
        assert_ptr_equal(json_array_get(v, i + 1), json_array_get(v, 20001));
    }
    assert_int_equal(json_integer_value(json_array_get(v, n - 1)), 42);
    json_decref(v);
    mf_buf_free(&text);
}

static void escapes_and_duplicates(void **state)
{
    (void)state;
    mf_error err = {0};
    assert_null(load("a: \"\\ud800\"\n", &err));
    assert_string_equal(err.type, "YAML_SYNTAX_ERROR"); /* a lone surrogate: libyaml's own verdict */
    mf_error_clear(&err);
    json_t *v = load("a: \"caf\\u00e9 \\U0001F389\"\nb: 'x'\n", &err);
    assert_non_null(v);
    assert_string_equal(json_string_value(json_object_get(v, "a")), "caf\xc3\xa9 \xf0\x9f\x8e\x89");
    json_decref(v);
    assert_null(load("a: 1\nb: 2\na: 3\n", &err));
    assert_string_equal(err.type, "YAML_SYNTAX_ERROR");
    assert_string_equal(err.message, "found duplicate mapping key \"a\" with a different value");
    assert_int_equal(err.line, 3);
    mf_error_clear(&err);
}

/* A reader error (a control character) names the byte's own line and column:
 * libyaml gives its offset only, and line 1 column 1 sent a user to the wrong
 * place (run 25: a terminal's `\x1b[0m` after the artifact's last line). */
static void reader_error_position(void **state)
{
    (void)state;
    mf_error err = {0};
    assert_null(load("a: 1\nb: caf\xc3\xa9 x\x1b[0m\n", &err));
    assert_string_equal(err.message, "control characters are not allowed");
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 10);
    mf_error_clear(&err);
}

/* A rejection names the text's own syntax error, not the reader's stop at the
 * terminal noise after it: the raw candidate's "control characters" came first
 * and a candidate with the noise trimmed got further at the same tier (run 26:
 * `matrix: - [1` ... rejected as "control characters are not allowed"). A
 * control byte inside the artifact is still named. */
static void rejection_names_error_before_noise(void **state)
{
    (void)state;
    static const char noisy[] = "a: 1\n  b: 2\n- c\n\x01\x02\x1f\n";
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), noisy, strlen(noisy), NULL);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.message, "mapping values are not allowed in this context");
    assert_int_equal(r->error.line, 2);
    mf_result_free(r);
    static const char inner[] = "a: 1\nb: x\x01y\n";
    r = mf_repair(mf_profiles_get("generic_yaml"), inner, strlen(inner), NULL);
    assert_int_equal(r->status, MF_REJECTED);
    assert_string_equal(r->error.message, "control characters are not allowed");
    mf_result_free(r);
}

/* The canonical YAML of a string (value or key) shaped like a glued `key:value` is quoted, so
 * repairing it again, with damage elsewhere that makes the rules run, keeps
 * the string (yaml.colon-space would read a plain one as a mapping). */
static void canonical_glued_key_strings(void **state)
{
    (void)state;
    static const char *const strs[] = {"key:value", "a_b:c d", "src/aury: Implementth.c", "http://x.io", "10:30"};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        json_t *v = json_pack("{s:s,s:s,s:i}", "a", strs[i], "b", "x", strs[i], 1);
        char *y = mf_value_to_yaml(v);
        assert_non_null(y);
        size_t n = strlen(y);
        char *text = malloc(n + 16);
        memcpy(text, y, n);
        strcpy(text + n, "zz:1\n");        /* damage yaml.colon-space repairs */
        mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), text, strlen(text), NULL);
        assert_int_equal(r->status, MF_ACCEPTED);
        json_t *a = json_object_get(r->value, "a");
        if (!json_is_string(a) || strcmp(json_string_value(a), strs[i]) || !json_object_get(r->value, strs[i]))
            fail_msg("'%s' (a value and a key) emitted as %s came back changed", strs[i], y);
        mf_result_free(r);
        free(text);
        free(y);
        json_decref(v);
    }
}

/* A spaced root key first or last in the canonical output is a key, not the
 * leading or trailing prose its plain line reads as (run 2 e3e5e3a5: a
 * wrapper held "Status update: all sections complete" as data, the
 * canonical output's first line was then cut as prose). */
static void canonical_spaced_root_keys(void **state)
{
    (void)state;
    const mf_profile *p = mf_profiles_get("bead_status");
    json_t *v = json_pack("{s:s, s:s, s:{s:s, s:s, s:s, s:s}, s:s}", "Status update", "all sections complete", "status",
                          "done", "checks", "tests", "pass", "lint", "pass", "typecheck", "pass", "qualitative", "pass",
                          "Let me know if you need more", "happy to help");
    char *y = mf_value_to_yaml(v);
    assert_non_null(y);
    mf_result *r = mf_repair(p, y, strlen(y), NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    if (!json_equal(r->value, v) || r->warnings.count)
        fail_msg("canonical output %s came back changed or with %zu warnings", y, r->warnings.count);
    mf_result_free(r);
    free(y);
    json_decref(v);
}

/* A key starting with '-' comes back from its canonical output unchanged and
 * without warnings: written plain, `-y:` alone in its mapping is read by
 * yaml.dash-space as a list item missing its space (regression 9d9f0c2b). */
static void canonical_dash_keys(void **state)
{
    (void)state;
    json_t *v = json_pack("{s:[{s:i}], s:{s:[i]}, s:i, s:{s:s}}", "a", "-x", 1, "b", "-y", 1, "-", 2, "c", "-atrix", "d");
    char *y = mf_value_to_yaml(v);
    assert_non_null(y);
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), y, strlen(y), NULL);
    assert_int_equal(r->status, MF_ACCEPTED);
    if (!json_equal(r->value, v) || r->warnings.count)
        fail_msg("canonical output %s came back changed or with %zu warnings", y, r->warnings.count);
    mf_result_free(r);
    free(y);
    json_decref(v);
}

/* A root string or root key that opens with a reasoning block comes back
 * from its canonical output unchanged: written plain, its line opens the text
 * and cand.reasoning keeps only what follows the block (run 16 ac73d61d,
 * 0bfe968f: "<thinking> ... </thinking> m - [" came back as "m - ["). The
 * same string deeper down is written plain. */
static void canonical_reasoning_tag_strings(void **state)
{
    (void)state;
    json_t *vs[] = {
        json_string("<think>a</think> b"),
        json_string("<THINKING>The user wants it.</THINKING>m - ["),
        json_string("<reasoning>\nx\n</reasoning>\nm"),
        json_pack("{s:i, s:i}", "<think>a</think>b", 1, "c", 2),
        json_pack("{s:s, s:[s]}", "k", "<think>a</think> b", "l", "<think>a</think> b"),
    };
    for (size_t i = 0; i < sizeof vs / sizeof *vs; i++) {
        char *y = mf_value_to_yaml(vs[i]);
        assert_non_null(y);
        mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), y, strlen(y), NULL);
        assert_int_equal(r->status, MF_ACCEPTED);
        if (!json_equal(r->value, vs[i]) || r->warnings.count)
            fail_msg("canonical output %s came back changed or with %zu warnings", y, r->warnings.count);
        if (i == 4 && strstr(y, "\""))
            fail_msg("a nested string that opens with a reasoning tag was quoted: %s", y);
        mf_result_free(r);
        free(y);
        json_decref(vs[i]);
    }
}

/* An empty value under a string field: "" when the field is a string, null
 * when the schema makes it a list; the same under every spelling of the key
 * that key aliasing renames to it (run-6 entry 5731eefc: `APPROVEDAT:`). */
static void empty_string_field_values(void **state)
{
    (void)state;
    static const struct { const char *profile, *text, *key; bool empty_string; } cases[] = {
        {"prd", "approved_at:\n", "approved_at", true},
        {"prd", "approvedat:\n", "approvedat", true},
        {"prd", "APPROVEDAT:\n", "APPROVEDAT", true},
        {"prd", "Approved-At:\n", "Approved-At", true},
        {"bead_status", "files_changed:\n", "files_changed", false},
        {"bead_status", "FILESCHANGED:\n", "FILESCHANGED", false},
        {"bead_status", "summary:\n", "summary", true},
        {"bead_status", "unknown_key:\n", "unknown_key", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool renamed = false;
        mf_yaml_load_opts o = {.profile = mf_profiles_get(cases[i].profile), .renamed_key = &renamed};
        json_t *v = NULL;
        mf_error err = {0};
        assert_int_equal(mf_yaml_load(cases[i].text, strlen(cases[i].text), &o, &v, &err), 0);
        json_t *got = json_object_get(v, cases[i].key);
        if (cases[i].empty_string ? !(json_is_string(got) && json_string_length(got) == 0) : !json_is_null(got))
            fail_msg("%s: %s loads as %s", cases[i].profile, cases[i].text, json_is_null(got) ? "null" : "a string");
        json_decref(v);
    }
}

/* session 8 run 8 (yaml2) 0dec2039: a null spelled out (`null`, `~`) under a string field
 * the schema declares a list is null, as the empty value is: the canonical output writes
 * that null as `null`, which read as the string "null" was no longer the value repaired */
static void yaml2_null_spelled_list_field_values(void **state)
{
    (void)state;
    static const struct { const char *profile, *text, *key; const char *string; } cases[] = {
        {"bead_status", "files_changed: null\n", "files_changed", NULL},
        {"bead_status", "files_changed: ~\n", "files_changed", NULL},
        {"bead_status", "FILESCHANGED: Null\n", "FILESCHANGED", NULL},
        {"prd", "generated_by:\n  api_contracts: null\n", NULL, NULL},
        {"bead_status", "summary: null\n", "summary", "null"},
        {"bead_status", "files_changed: nil\n", "files_changed", "nil"},
        {"bead_status", "files_changed:\n  - null\n", NULL, "null"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bool renamed = false;
        mf_yaml_load_opts o = {.profile = mf_profiles_get(cases[i].profile), .renamed_key = &renamed};
        json_t *v = NULL;
        mf_error err = {0};
        assert_int_equal(mf_yaml_load(cases[i].text, strlen(cases[i].text), &o, &v, &err), 0);
        json_t *got = cases[i].key ? json_object_get(v, cases[i].key)
                      : json_object_get(v, "generated_by") ? json_object_get(json_object_get(v, "generated_by"), "api_contracts")
                                                           : json_array_get(json_object_get(v, "files_changed"), 0);
        if (cases[i].string ? !(json_is_string(got) && strcmp(json_string_value(got), cases[i].string) == 0)
                            : !json_is_null(got))
            fail_msg("%s: %s loads as %s", cases[i].profile, cases[i].text, json_is_null(got) ? "null" : "a string");
        json_decref(v);
    }
}

/* A collection as a mapping key is written as its JSON text; nested ones
 * escape each other, doubling the text per level: 40 levels of `{` in a
 * 100-byte input are 2^40 bytes. The key text is capped (MEMORY_LIMIT, run
 * 7), a few levels still load. */
static void nested_collection_keys_capped(void **state)
{
    (void)state;
    char text[128] = "k: ";
    for (int i = 0; i < 40; i++)
        strcat(text, "{");
    strcat(text, "a: b");
    for (int i = 0; i < 40; i++)
        strcat(text, "}");
    json_t *v = NULL;
    mf_error err = {0};
    assert_int_equal(mf_yaml_load(text, strlen(text), NULL, &v, &err), -1);
    assert_string_equal(err.type, "MEMORY_LIMIT");
    mf_error_clear(&err);
    const char *few = "k: {{{a: b}: c}: d}\n";
    assert_int_equal(mf_yaml_load(few, strlen(few), NULL, &v, &err), 0);
    assert_non_null(json_object_get(v, "k"));
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_scalars),
        cmocka_unit_test(repeated_strings_are_shared),
        cmocka_unit_test(escapes_and_duplicates),
        cmocka_unit_test(reader_error_position),
        cmocka_unit_test(rejection_names_error_before_noise),
        cmocka_unit_test(canonical_glued_key_strings),
        cmocka_unit_test(canonical_spaced_root_keys),
        cmocka_unit_test(canonical_dash_keys),
        cmocka_unit_test(canonical_reasoning_tag_strings),
        cmocka_unit_test(empty_string_field_values),
        cmocka_unit_test(nested_collection_keys_capped),
        cmocka_unit_test(yaml2_null_spelled_list_field_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
