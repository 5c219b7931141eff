/* test_json_repair.c - mf_json_parse_repair: pass-through, repairs, errors, bounds.
 *
 * The per-rule examples live as fixtures (tests/fixtures/rules/json.*); this
 * file checks what fixtures cannot: warning lines and caps, error positions,
 * the object-profile concatenation policy, depth caps, every prefix of a
 * document (truncation), random bytes, and inputs that would be quadratic. */
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

typedef struct {
    int rc;
    json_t *v;
    mf_warnings w;
    mf_error e;
} run;

static run repair_p(const char *text, size_t len, const mf_profile *p, int depth)
{
    run r = {0};
    r.rc = mf_json_parse_repair(text, len, p, depth, false, &r.v, &r.w, &r.e);
    return r;
}

static run repair(const char *text) { return repair_p(text, strlen(text), NULL, 0); }

static void done(run *r)
{
    json_decref(r->v);
    mf_warnings_clear(&r->w);
    mf_error_clear(&r->e);
}

static void assert_value(const run *r, const char *expect)
{
    assert_int_equal(r->rc, 0);
    json_error_t je;
    json_t *x = json_loads(expect, JSON_DECODE_ANY, &je);
    assert_non_null(x);
    if (!json_equal(x, r->v)) {
        char *got = json_dumps(r->v, JSON_ENCODE_ANY | JSON_COMPACT);
        fail_msg("expected %s, got %s", expect, got);
    }
    json_decref(x);
}

static size_t count_rule(const mf_warnings *w, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += strcmp(w->items[i].rule, rule) == 0;
    return n;
}

/* The canonical text of an accepted value parses strictly, unchanged, without warnings. */
static void assert_idempotent(const run *r)
{
    char *s = json_dumps(r->v, JSON_ENCODE_ANY | JSON_COMPACT);
    run again = repair(s);
    assert_int_equal(again.rc, 0);
    assert_int_equal(again.w.count, 0);
    assert_true(json_equal(again.v, r->v));
    done(&again);
    free(s);
}

static void test_valid_passthrough(void **state)
{
    (void)state;
    const char *docs[] = {
        "{\"a\": [1, 2.5, -0, 1e3, true, false, null], \"b\": {\"c\": \"\\u00e9\\ud83d\\ude00\\n\"}}",
        "[]", "\"x\"", "0", "{\"k\": \"\\u0000 nul\"}", "[\"${x} `y` }\\\">\"]",
        "  {\"dup\": 1, \"dup\": 2}  ", "{\"same\": [1], \"same\": [1]}", NULL};
    for (const char **d = docs; *d; d++) {
        run r = repair(*d);
        assert_int_equal(r.rc, 0);
        /* a key repeated with another value: the value is unchanged, the dropped one is named */
        bool dup = strstr(*d, "\"dup\"") != NULL;
        assert_int_equal(r.w.count, dup ? 1 : 0);
        if (dup) {
            assert_string_equal(r.w.items[0].rule, "json.duplicate-key");
            assert_non_null(strstr(r.w.items[0].message, "\"dup\""));
        }
        json_error_t je;
        json_t *ref = json_loads(*d, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
        assert_true(json_equal(ref, r.v));
        json_decref(ref);
        done(&r);
    }
}

/* A json.number-format warning names the number it wrote (the no-data-loss
 * oracle looks for it there; run 29 cfe92eee: `[1_2 ` became 12 unnamed). */
static void test_number_format_names_value(void **state)
{
    (void)state;
    static const struct { const char *in, *written; } cases[] = {
        {"[1_2 ", "written as 12"}, {"[-1_000]", "written as -1000"}, {"[+2]", "written as 2"},
        {"[-0xff]", "written as -255"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run r = repair(cases[i].in);
        assert_int_equal(r.rc, 0);
        assert_true(mf_warnings_has(&r.w, "json.number-format"));
        bool named = false;
        for (size_t k = 0; k < r.w.count; k++)
            named |= strstr(r.w.items[k].message, cases[i].written) != NULL;
        if (!named)
            fail_msg("%s: no warning says '%s'", cases[i].in, cases[i].written);
        done(&r);
    }
}

static void test_warning_lines(void **state)
{
    (void)state;
    run r = repair("{\n  \"a\": 1,\n  \"b\": 'x',\n  \"c\": [1,],\n}");
    assert_value(&r, "{\"a\":1,\"b\":\"x\",\"c\":[1]}");
    assert_int_equal(r.w.count, 3);
    assert_string_equal(r.w.items[0].rule, "json.single-quotes");
    assert_int_equal(r.w.items[0].line, 3);
    assert_string_equal(r.w.items[1].rule, "json.trailing-comma");
    assert_int_equal(r.w.items[1].line, 4);
    assert_int_equal(r.w.items[2].line, 4);
    assert_idempotent(&r);
    done(&r);
}

static void test_warning_cap(void **state)
{
    (void)state;
    mf_buf b = {0};
    mf_buf_puts(&b, "[");
    for (int i = 0; i < 100; i++)
        mf_buf_puts(&b, "1,,");
    mf_buf_puts(&b, "1]");
    run r = repair_p(b.s, b.len, NULL, 0);
    assert_int_equal(r.rc, 0);
    assert_int_equal(json_array_size(r.v), 101);
    /* ten identical warnings are one record applied 10 times, then the summary */
    assert_int_equal(count_rule(&r.w, "json.trailing-comma"), 2);
    assert_int_equal(r.w.items[0].count, 10);
    assert_non_null(strstr(r.w.items[1].message, "90 more"));
    done(&r);
    mf_buf_free(&b);
}

static void test_errors(void **state)
{
    (void)state;
    run r = repair("{\n  \"a\": 1,\n  \"b\": ]\n}");
    assert_int_equal(r.rc, -1);
    assert_null(r.v);
    assert_int_equal(r.w.count, 0);
    assert_int_equal(r.e.tier, 1);
    assert_string_equal(r.e.type, "JSON_SYNTAX_ERROR");
    assert_int_equal(r.e.line, 3);
    assert_int_equal(r.e.column, 8);
    assert_non_null(strstr(r.e.message, "expected a JSON value"));
    done(&r);

    r = repair("{\"a\": [1, 2:}");
    assert_int_equal(r.rc, -1);
    assert_int_equal(r.e.column, 12);
    assert_non_null(strstr(r.e.message, "expected ',' or ']'"));
    done(&r);

    const char *rejects[] = {"", "   ", "Here is the JSON: {\"a\": 1}", "{\"a\": 1} Hope this helps!",
                             "{\"a\": x y: 1}", "{\"a\" :: 1}", "\"\\udc00\"", "{\"a\": \"b\"}```",
                             "{\"a\": \"x \"y\" z",
                             "{\"a\": 1, \"a\": 2,}", "{\"a\": \"x\"}\"}", NULL};
    for (const char **s = rejects; *s; s++) {
        r = repair(*s);
        if (r.rc != -1)
            fail_msg("accepted: %s", *s);
        assert_true(r.e.line >= 1 && r.e.column >= 1);
        done(&r);
    }
}

static void test_concatenated_object_profile(void **state)
{
    (void)state;
    mf_profile prof;
    memset(&prof, 0, sizeof prof);
    prof.schema = json_pack("{s:s}", "type", "object");
    const char *text = "{\"tasks\": []}\n{\"tasks\": [{\"task_id\": \"T-1\"}]}\n[1]\n";
    run r = repair_p(text, strlen(text), &prof, 0);
    assert_value(&r, "{\"tasks\": [{\"task_id\": \"T-1\"}]}");
    assert_int_equal(count_rule(&r.w, "json.concatenated"), 1);
    assert_int_equal(r.w.items[0].line, 2);
    done(&r);
    r = repair_p(text, strlen(text), NULL, 0);
    assert_value(&r, "[{\"tasks\": []}, {\"tasks\": [{\"task_id\": \"T-1\"}]}, [1]]");
    done(&r);
    json_decref(prof.schema);
}

static void test_depth(void **state)
{
    (void)state;
    char deep[64];
    memset(deep, '[', 10);
    memset(deep + 10, ']', 10);
    run r = repair_p(deep, 20, NULL, 10);
    assert_int_equal(r.rc, 0);
    done(&r);
    r = repair_p(deep, 20, NULL, 9);      /* valid JSON, but deeper than allowed */
    assert_int_equal(r.rc, -1);
    assert_non_null(strstr(r.e.message, "nesting deeper than 9"));
    done(&r);
    size_t n = 200000;
    char *big = malloc(n);
    memset(big, '[', n);
    r = repair_p(big, n, NULL, 1000000);  /* capped at MF_JSON_DEPTH_CAP */
    assert_int_equal(r.rc, -1);
    done(&r);
    memset(big, '{', n);
    r = repair_p(big, n, NULL, 0);
    assert_int_equal(r.rc, -1);
    done(&r);
    free(big);
}

/* Every prefix of a document: rejected, or accepted as a truncation (warned). */
static void test_every_prefix(void **state)
{
    (void)state;
    const char *doc = "{\"story_id\": \"US-4\", \"tasks\": [{\"task_id\": \"T-US-4-01\", "
                      "\"n\": 12.5, \"ok\": true, \"tags\": [\"a\", 'b'], \"x\": null}], "
                      "// c\n \"end\": \"d\\u00e9\\\"f\"}";
    size_t n = strlen(doc);
    for (size_t k = 1; k < n; k++) {
        run r = repair_p(doc, k, NULL, 0);
        if (r.rc == 0 && json_is_object(r.v) && !mf_warnings_has(&r.w, "json.truncated"))
            fail_msg("prefix %zu accepted without json.truncated", k);
        if (r.rc == 0 && json_is_object(r.v)) {
            /* nothing invented: a kept story_id is the real one */
            json_t *s = json_object_get(r.v, "story_id");
            if (s && strncmp(json_string_value(s), "US-4", json_string_length(s)) != 0)
                fail_msg("prefix %zu changed story_id", k);
            json_t *num = json_object_get(json_array_get(json_object_get(r.v, "tasks"), 0), "n");
            if (num && json_real_value(num) != 12.5)
                fail_msg("prefix %zu kept a cut number", k);
            assert_idempotent(&r);
        }
        done(&r);
    }
}

static void test_random_bytes(void **state)
{
    (void)state;
    uint32_t x = 12345;
    char buf[512];
    const char alphabet[] = "{}[]\"',:.-+0123456789eEtrufalsnTFN \n\t\\/*#`$u\xe2\x80\x9c\x9d\x00\xff";
    for (int iter = 0; iter < 20000; iter++) {
        size_t n = 1 + iter % (sizeof buf - 1);
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            buf[i] = (iter & 1) ? (char)(x >> 16) : alphabet[(x >> 16) % (sizeof alphabet - 1)];
        }
        run r = repair_p(buf, n, NULL, 0);
        if (r.rc == 0) {
            assert_non_null(r.v);
            char *s = json_dumps(r.v, JSON_ENCODE_ANY | JSON_COMPACT);
            assert_non_null(s);
            run again = repair(s);
            assert_int_equal(again.rc, 0);
            assert_int_equal(again.w.count, 0);
            done(&again);
            free(s);
        } else {
            assert_int_equal(r.e.tier, 1);
        }
        done(&r);
    }
}

static void repeated(const char *unit, size_t reps, const char *head, const char *tail)
{
    mf_buf b = {0};
    mf_buf_puts(&b, head);
    for (size_t i = 0; i < reps; i++)
        mf_buf_puts(&b, unit);
    mf_buf_puts(&b, tail);
    run r = repair_p(b.s, b.len, NULL, 0);
    done(&r);
    mf_buf_free(&b);
}

/* 1 MB inputs built to make lookaheads quadratic: a quadratic parser would
 * run for hours here, so ctest's timeout catches it (no timing in the test;
 * speed is the bench's job). */
static void test_linear(void **state)
{
    (void)state;
    struct { const char *unit, *head, *tail; } cases[] = {
        {"a\" ", "[\"", "\"]"},          /* inner quotes, each followed by a space */
        {"\"                ", "[\"", "]"},
        {"${\"", "[\"", "\"]"},          /* unclosed templates */
        {"\", x", "[\"", "\"]"},         /* quote, comma, no structure */
        {",", "[", "]"},
        {"'a ", "['", "']"},
        {"/*", "", ""},
        {"\\q", "\"", "\""},
        {"\n", "[\"", "\"]"},
        {"\"k\": \"v, ", "{", "\"}"},   /* missing closing quotes, one long line */
        {"}, \"k\": 1", "[{\"a\": 1", "}]"}, /* early closers */
        {"x y ", "{\"a\": ", "}"},      /* one long bare text */
        {"\"a\" + ", "[", "\"b\"]"},    /* string concatenation */
        {"..., ", "[", "1]"},           /* placeholders */
        {"1 ", "{\"a\": [", "]}"},      /* missing commas */
        {"a */\"b ", "[\"x", "\"]"},    /* inner quotes after a comment's end: no comment start to find */
        {" + \"b", "[\"x", "\"]"},       /* '+' before inner quotes (a string missing its closing quote?) */
        {"x\" ", "{'k': '", "'}"},      /* double quotes in a single-quoted member value */
        {"x \"a ", "['", "']"},          /* double quotes in a single-quoted string */
        {", 'k': 1", "{\"a\": \"{", "\"}"}, /* keys in another quote style inside JSON-like text */
        {", 'k': 'v", "{\"a\": \"x \"y\" ", "\"}"}, /* ... after an inner quote */
        {"(x) ", "{\"a\": [", "]}"},    /* groups without a comma */
        {"# a\" \n", "[{\"c\": \"x\"\n", "\"}]"}, /* a quote line, then comment lines holding quotes */
        {"x\"\n// b \n", "[\"", "\"]"},    /* quote lines, then comment lines of code */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t reps = (1u << 20) / strlen(cases[i].unit);
        repeated(cases[i].unit, reps, cases[i].head, cases[i].tail);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_passthrough),
        cmocka_unit_test(test_warning_lines),
        cmocka_unit_test(test_number_format_names_value),
        cmocka_unit_test(test_warning_cap),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_concatenated_object_profile),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_every_prefix),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_linear),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
