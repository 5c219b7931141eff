/* test_loss_oracles.c - the raw-mode oracles that see loss without ground
 * truth (oracles/src/loss.c), on the four lossy shapes of real model outputs
 * core once accepted: a complete array dropped, and following keys swallowed
 * into a string value (an unclosed YAML quote, a JSON inner quote, a folded
 * plain scalar). Each shape fails; the faithful value of the same text passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "malform/malform.h"
#include "malform/oracles.h"

static json_t *J(const char *s)
{
    json_t *v = json_loads(s, JSON_DECODE_ANY, NULL);
    assert_non_null(v);
    return v;
}

/* An accepted result whose parsed text is text and value is the JSON value. */
static mf_result *fake(const char *text, const char *value)
{
    mf_result *r = calloc(1, sizeof *r);
    r->status = MF_ACCEPTED;
    r->value = J(value);
    r->candidate = strdup("raw");
    r->text = strdup(text);
    return r;
}

static int run(int (*oracle)(const mf_oracle_input *, mf_verdict *), const char *profile, const char *text,
               const char *value, mf_verdict *v)
{
    mf_result *r = fake(text, value);
    mf_oracle_input in = {mf_profiles_get(profile), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = oracle(&in, v);
    mf_result_free(r);
    return rc;
}

static void test_array_dropped(void **state)
{
    (void)state;
    const char *text = "title: Release\nitems:\n  - alpha step\n  - beta step\nowner: bob\n";
    mf_verdict v;
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", text, "{\"title\":\"Release\",\"owner\":\"bob\"}", &v), 1);
    assert_non_null(strstr(v.detail, "items"));
    if (run(mf_oracle_conservation, "generic_yaml", text,
            "{\"title\":\"Release\",\"items\":[\"alpha step\",\"beta step\"],\"owner\":\"bob\"}", &v))
        fail_msg("faithful value: %s", v.detail);
    /* numbers written another way, YAML literals, comments and tags are no loss */
    const char *t2 = "n: 5.0  # five\nm: 050\nok: yes\nx: !!str 7\ne: 1e3\n";
    if (run(mf_oracle_conservation, "generic_yaml", t2, "{\"n\":5,\"m\":50,\"ok\":true,\"x\":\"7\",\"e\":1000}", &v))
        fail_msg("syntax is not data: %s", v.detail);
    /* YAML 1.2 core ints in hex and octal are their numbers (run 43 9d9f0c2b); 0o18 is text */
    if (run(mf_oracle_conservation, "generic_yaml", "h: 0x1F\no: 0o17\n", "{\"h\":31,\"o\":15}", &v))
        fail_msg("hex and octal ints: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "o: 0o17\n", "{\"o\":14}", &v), 1);
    /* a removal a warning names is accounted for */
    mf_result *r = fake(text, "{\"title\":\"Release\",\"owner\":\"bob\"}");
    mf_warnings_add(&r->warnings, "norm.default", 2, "Dropped items (alpha step, beta step)");
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_conservation(&in, &v), 0);
    in.expect = MF_EXPECT_EXACT;   /* with ground truth it does not apply */
    mf_warnings_clear(&r->warnings);
    assert_int_equal(mf_oracle_conservation(&in, &v), 0);
    assert_false(v.ran);
    mf_result_free(r);
}

/* A '"' glued to a '-' inside a plain word (`yaml.quoted-"hash`) opens no quoted
 * scalar: the escapes of the next line's double-quoted value are still read as
 * escapes (run 7 daaf9551: `\x18motto` is U+0018 then "motto") */
static void test_session7_dash_in_word(void **state)
{
    (void)state;
    const char *text = "_p: yaml.quoted-\"hash seed=1\nrationale: \"\\\"some rules\\\"\\x18motto: x\"\n";
    mf_verdict v;
    if (run(mf_oracle_conservation, "generic_yaml", text,
            "{\"_p\":\"yaml.quoted-\\\"hash seed=1\",\"rationale\":\"\\\"some rules\\\"\\u0018motto: x\"}", &v))
        fail_msg("escape read as text: %s", v.detail);
    /* a quote after a dash indicator (`- "x`) opens one */
    const char *t2 = "a:\n  - \"x\\x41y\"\n";
    if (run(mf_oracle_conservation, "generic_yaml", t2, "{\"a\":[\"xAy\"]}", &v))
        fail_msg("dash quote: %s", v.detail);
}

/* Run 22 (97b0a31e-r1c893fb3): a '"' glued to a ':' or '-' that starts a
 * plain scalar (`:"00\00`, `-"x`) or sits in one (`a:"b`) opens no quoted
 * scalar, as libyaml reads it: `\0` is text, not an escaped NUL that split
 * off a lost token '0'. Glued to the ':' after a JSON-like key (`{"a":"b`)
 * it still opens one. */
static void test_session11_glued_quote_plain(void **state)
{
    (void)state;
    mf_verdict v;
    const char *const plain[][2] = {
        {":\"00\\00", "\":\\\"00\\\\00\""},
        {"k: :\"00\\00\n", "{\"k\":\":\\\"00\\\\00\"}"},
        {"- -\"x\\0y\"\n", "[\"-\\\"x\\\\0y\\\"\"]"},
        {"a:\n  -\"x\\x41y\"\n", "{\"a\":\"-\\\"x\\\\x41y\\\"\"}"},
        {"a:\"00\\00", "\"a:\\\"00\\\\00\""},
    };
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++)
        if (run(mf_oracle_conservation, "generic_yaml", plain[i][0], plain[i][1], &v))
            fail_msg("%s: %s", plain[i][0], v.detail);
    const char *json_key = "{\"a\":\"b\\x41c\"}";
    if (run(mf_oracle_conservation, "generic_yaml", json_key, "{\"a\":\"bAc\"}", &v))
        fail_msg("after a JSON-like key: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", json_key, "{\"a\":\"b\\\\x41c\"}", &v), 1);
}

/* run 28 97b0a31e-r1bdcc10f: the digits after an exponent's sign belong to
 * the number (`2E-2` is 0.02), not a token of their own */
static void test_session12_exponent_number(void **state)
{
    (void)state;
    mf_verdict v;
    const char *const same[][2] = {
        {"2E-2", "0.02"},
        {"a: 1.5e+3\n", "{\"a\":1500}"},
        {"- -2.5E-2\n", "[-0.025]"},
    };
    for (size_t i = 0; i < sizeof same / sizeof *same; i++)
        if (run(mf_oracle_conservation, "generic_yaml", same[i][0], same[i][1], &v))
            fail_msg("%s: %s", same[i][0], v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "2E-2", "0.03", &v), 1);
}

/* run 38 70d8aff6: a flow collection as a key is kept as its JSON text, whose
 * numbers are written the loader's way (`[3,04]` is the key "[3, 4]") */
static void test_collection_key_numbers(void **state)
{
    (void)state;
    mf_verdict v;
    if (run(mf_oracle_conservation, "generic_yaml", "m:\n  [3,04]: x\n", "{\"m\":{\"[3, 4]\":\"x\"}}", &v))
        fail_msg("%s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "m:\n  [3,04]: x\n", "{\"m\":{\"[3, 5]\":\"x\"}}", &v), 1);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "m:\n  k04: x\n", "{\"m\":{\"k4\":\"x\"}}", &v), 1);
}

static void test_yaml_unclosed_quote(void **state)
{
    (void)state;
    const char *text = "summary: \"Adds login\nstatus: done\nchecks:\n  tests: pass\n  lint: pass\n"
                       "  typecheck: pass\n  qualitative: pass\n";
    mf_verdict v;
    assert_int_equal(run(mf_oracle_structure, "bead_status", text,
                         "{\"summary\":\"Adds login\\nstatus: done\",\"checks\":{\"tests\":\"pass\",\"lint\":\"pass\","
                         "\"typecheck\":\"pass\",\"qualitative\":\"pass\"}}", &v), 1);
    assert_non_null(strstr(v.detail, "status"));
    if (run(mf_oracle_structure, "bead_status", text,
            "{\"summary\":\"Adds login\",\"status\":\"done\",\"checks\":{\"tests\":\"pass\",\"lint\":\"pass\","
            "\"typecheck\":\"pass\",\"qualitative\":\"pass\"}}", &v))
        fail_msg("faithful value: %s", v.detail);
    /* a key-like line in a string whose object has that key already is content */
    if (run(mf_oracle_structure, "bead_status", text,
            "{\"summary\":\"Adds login\\nstatus: done\",\"status\":\"done\",\"checks\":{}}", &v))
        fail_msg("content: %s", v.detail);
}

static void test_json_inner_quote(void **state)
{
    (void)state;
    const char *text = "{\"tasks\": [{\"id\": \"T1\", \"cmd\": \"make\", \"deps\": []},\n"
                       " {\"id\": \"T2\", \"cmd\": \"pytest\",: \n \"deps\": [], \"why\": \"S\"}]}";
    mf_verdict v;
    assert_int_equal(run(mf_oracle_structure, "generic_json", text,
                         "{\"tasks\":[{\"id\":\"T1\",\"cmd\":\"make\",\"deps\":[]},"
                         "{\"id\":\"T2\",\"cmd\":\"pytest\\\",: \\n \\\"deps\\\": [], \\\"why\\\": \\\"S\"}]}", &v), 1);
    assert_non_null(strstr(v.detail, "/tasks/1/cmd"));
    if (run(mf_oracle_structure, "generic_json", text,
            "{\"tasks\":[{\"id\":\"T1\",\"cmd\":\"make\",\"deps\":[]},{\"id\":\"T2\",\"cmd\":\"pytest\",\"deps\":[],"
            "\"why\":\"S\"}]}", &v))
        fail_msg("faithful value: %s", v.detail);
}

/* A value opening with a reserved indicator, quoted whole as text by
 * yaml.reserved-indicator (`opts: |-{"a":1,"questions":[]}`, run 44 d9e900fc),
 * holds only its own line's members; one that took the next line in did swallow it. */
static void test_reserved_indicator_value(void **state)
{
    (void)state;
    const char *text = "opts: |-{\"a\":1,\"questions\":[]}\n---\nquestions:\n";
    mf_verdict v;
    if (run(mf_oracle_structure, "generic_yaml", text,
            "[{\"opts\":\"|-{\\\"a\\\":1,\\\"questions\\\":[]}\"},{\"questions\":null}]", &v))
        fail_msg("the line's own value: %s", v.detail);
    const char *t2 = "opts: |-{\"a\":1}\nquestions: x\n---\nquestions:\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", t2,
                         "[{\"opts\":\"|-{\\\"a\\\":1}\\nquestions: x\"},{\"questions\":null}]", &v), 1);
}

/* Conservation on an accepted result whose one warning is rule's (message msg). */
static int conserved_with(const char *profile, const char *rule, const char *msg, const char *text, const char *value,
                          mf_verdict *v)
{
    mf_result *r = fake(text, value);
    mf_warnings_add(&r->warnings, rule, 1, "%s", msg);
    mf_oracle_input in = {mf_profiles_get(profile), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = mf_oracle_conservation(&in, v);
    mf_result_free(r);
    return rc;
}

static const char concat_msg[] = "strings joined by '+' concatenated into one string";

/* run 57: a bare word `\u7777...6` that json.bare-word keeps as text (JSON
 * decodes escapes only in strings) is conserved; a word lost is not. */
static void test_bare_word_escape_kept(void **state)
{
    (void)state;
    mf_verdict v;
    const char *msg = "unquoted text '\\u7777777777777776' read as a string";
    if (conserved_with("generic_json", "json.bare-word", msg, "[\\u7777777777777776, keep]",
                       "[\"\\\\u7777777777777776\", \"keep\"]", &v))
        fail_msg("a bare word's escape kept as text: %s", v.detail);
    assert_int_equal(conserved_with("generic_json", "json.bare-word", msg, "[\\u7777777777777776, keep]",
                                    "[\"\\\\u7777777777777776\"]", &v), 1);
}

/* Strings joined by '+' across a line break ("...400"+ / "c") glue the
 * operand's word onto the last one: json.string-concat names that. */
static void test_concat_across_lines(void **state)
{
    (void)state;
    mf_verdict v;
    if (conserved_with("generic_json", "json.string-concat", concat_msg, "{\"cases\": [\"rejects with 400\"+\n  \"c\"]}",
                       "{\"cases\":[\"rejects with 400c\"]}", &v))
        fail_msg("operand on the next line: %s", v.detail);
}

/* A '#' glued to a word is no comment (core's reader keeps it in the word or
 * string), even where a string a missing quote left open turned the comment
 * scan's string state over: the '+' after it stays, and the concatenation
 * names the glued word (run 50 8042ccd5). */
static void test_concat_after_glued_hash(void **state)
{
    (void)state;
    mf_verdict v;
    if (conserved_with("generic_json", "json.string-concat", concat_msg,
                       "{\n  \"a\": \"\n  \"c\": \"line one\\nlin#e uwo\"+\n  \"ffLlse, \"ready\": true}",
                       "{\"a\":\"\",\"c\":\"line one\\nlin#e uwoffLlse\",\"ready\":true}", &v))
        fail_msg("a glued '#' read as a comment: %s", v.detail);
    /* a string left open above turns no later line's string state over (`"#ontent"` is a key) */
    if (conserved_with("generic_json", "json.string-concat", concat_msg,
                       "{\n  \"a\": \"it'\n  \"#ontent\": \"line uwo\"+\n  \"ffLlse, \"ready\": true}",
                       "{\"a\":\"it'\",\"#ontent\":\"line uwoffLlse\",\"ready\":true}", &v))
        fail_msg("a string left open above: %s", v.detail);
    /* a comment after a blank is still one: its words need no place in the output */
    if (run(mf_oracle_conservation, "generic_json", "{\"a\": 1 # gone\n}", "{\"a\":1}", &v))
        fail_msg("a spaced comment: %s", v.detail);
    /* and a word that lost its glued tail is still a loss */
    assert_int_equal(run(mf_oracle_conservation, "generic_json", "{\"a\": abc#def\n}", "{\"a\":\"abc\"}", &v), 1);
}

/* With schema.artifact-markdown a block's fence line (its language) is syntax,
 * no data of the file (main job 698a7923-rb8ddd69f); the block's text is. */
static void test_artifact_markdown_fence_language(void **state)
{
    (void)state;
    static const char msg[] = "Recovered 1 file from strict markdown blocks.";
    mf_verdict v;
    if (conserved_with("artifact_files", "schema.artifact-markdown", msg, "```w\nfilename:d\n```\n",
                       "[{\"filename\":\"d\",\"content\":\"\"}]", &v))
        fail_msg("a block's language: %s", v.detail);
    assert_int_equal(conserved_with("artifact_files", "schema.artifact-markdown", msg,
                                    "```w\nfilename: d\nhello there\n```\n",
                                    "[{\"filename\":\"d\",\"content\":\"hello\"}]", &v), 1);
}

/* A flow mapping written as a key's value inside a string (`opts: {"story_id":
 * ...}`, kept whole by yaml.plain-colon, entry dd28559d) holds its own
 * members; a brace after a comma (the next array item's object) still
 * starts a swallowed member. */
static void test_keyed_brace_in_string(void **state)
{
    (void)state;
    const char *text = "- profile: task_breakdown-opts: {\"story_id\": \"US-021\"}\n- story_id: US-021\n";
    mf_verdict v;
    if (run(mf_oracle_structure, "generic_yaml", text,
            "[{\"profile\":\"task_breakdown-opts: {\\\"story_id\\\": \\\"US-021\\\"}\"},{\"story_id\":\"US-021\"}]", &v))
        fail_msg("the string's own flow mapping: %s", v.detail);
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", text,
                         "[{\"profile\":\"x}, {\\\"story_id\\\": \\\"US-021\\\"}\"},{\"story_id\":\"US-021\"}]", &v), 1);
    /* deeper in the same flow value, after a comma: still the string's own text */
    if (run(mf_oracle_structure, "generic_yaml", text,
            "[{\"profile\":\"opts: {\\\"a\\\": {\\\"b\\\": 1}, \\\"story_id\\\": \\\"US-021\\\"}\"},{\"story_id\":\"US-021\"}]", &v))
        fail_msg("a member after a comma inside the string's flow mapping: %s", v.detail);
}

/* The markdown fallback of artifact_files drops the prose around its blocks:
 * core names it in a warning, so the conservation oracle finds nothing lost
 * (run 5 pre-run: "This covers every requirement in the ticket." after the
 * last block was dropped silently). */
static void test_markdown_prose_named(void **state)
{
    (void)state;
    const char *text = "Here are the files.\n\n```markdown\nfilename: README.md\n# In\n```\n\n"
                       "This covers every requirement in the ticket.\n";
    const mf_profile *p = mf_profiles_get("artifact_files");
    json_t *ctx = J("{\"expected_files\": [\"README.md\"]}");
    mf_options opt = {0};
    opt.context = ctx;
    mf_result *r = mf_repair(p, text, strlen(text), &opt);
    assert_int_equal(r->status, MF_ACCEPTED);
    mf_oracle_input in = {p, &opt, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    mf_verdict v;
    if (mf_oracle_conservation(&in, &v))
        fail_msg("prose around markdown blocks: %s", v.detail);
    mf_result_free(r);
    json_decref(ctx);
}

static void test_folded_plain_scalar(void **state)
{
    (void)state;
    const char *text = "steps:\n  - name: build\n    status: done\n    owner: ci\n  - name: ship\n    status: pending\n";
    mf_verdict v;
    /* the second item's keys folded into its name */
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", text,
                         "{\"steps\":[{\"name\":\"build\",\"status\":\"done\",\"owner\":\"ci\"},"
                         "{\"name\":\"ship status: pending owner: ci\"}]}", &v), 1);
    /* one folded-looking phrase alone is prose */
    if (run(mf_oracle_structure, "generic_yaml", text,
            "{\"steps\":[{\"name\":\"build\",\"status\":\"done\",\"owner\":\"ci\"},"
            "{\"name\":\"ship the status: pending\",\"owner\":\"ci\"}]}", &v))
        fail_msg("prose: %s", v.detail);
}

/* Fuzz false positives: an invalid \u or \U kept as text by json.invalid-escape
 * is no numeric escape (its letters are the output's words), and `key:` at the
 * start of a string sat on its key's own line (`id: text: x` kept whole by
 * yaml.plain-colon) - inline, unlike `key:` after a line break. */
static void test_fuzz_false_positives(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "{\"id\": \"T-\\US-1\", \"note\": \"title req\\uired\", \"x\": \"\\u00e9t\\x41\"}";
    if (run(mf_oracle_conservation, "generic_json", text,
            "{\"id\":\"T-\\\\US-1\",\"note\":\"title req\\\\uired\",\"x\":\"\\u00e9t\\\\x41\"}", &v))
        fail_msg("invalid escapes kept as text: %s", v.detail);
    /* a whole word the output lacks is still seen */
    assert_int_equal(run(mf_oracle_conservation, "generic_json", text,
                         "{\"id\":\"T-\\\\US-1\",\"note\":\"title\",\"x\":\"\\u00e9t\\\\x41\"}", &v), 1);
    assert_non_null(strstr(v.detail, "'req'"));

    /* a warning quoting the replaced value cut short names all of it */
    const char *sid = "{\"story_id\": \"lorem ipsum dolor sit amet consectetur adipiscing elit lorem ipsum dolor sit amet tail\"}";
    mf_result *r = fake(sid, "{\"story_id\":\"US-1\"}");
    mf_warnings_add(&r->warnings, "schema.story-id", 0,
                    "Corrected story_id from \"lorem ipsum dolor sit amet consectetur adipiscing eli...\" to \"US-1\".");
    mf_oracle_input in = {mf_profiles_get("generic_json"), NULL, sid, strlen(sid), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in, &v))
        fail_msg("preview names the value: %s", v.detail);
    mf_result_free(r);

    /* the quoted start of a folded multi-line value matches across its line break */
    const char *fold = "status: draft source:\n  sha: 0b8e1f3c5a7d9e2b\n";
    r = fake(fold, "{\"status\":\"draft\"}");
    mf_warnings_add(&r->warnings, "norm.prd-status", 0, "Normalized status \"draft source: sha: 0b8e1f...\" to draft.");
    mf_oracle_input in3 = {mf_profiles_get("generic_yaml"), NULL, fold, strlen(fold), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in3, &v))
        fail_msg("folded preview: %s", v.detail);
    mf_result_free(r);

    /* a control byte the warning quotes raw is an escape in the parsed text (yaml.plain-colon's quoting) */
    const char *ctl = "status: \"approved\\x02source: sha: 0b8e1f3c5a7d9e2b4f6a\"\n";
    r = fake(ctl, "{\"status\":\"draft\"}");
    mf_warnings_add(&r->warnings, "norm.prd-status", 0, "Normalized status \"approved\x02source: sha: 0b8e1f...\" to draft.");
    mf_oracle_input in4 = {mf_profiles_get("generic_yaml"), NULL, ctl, strlen(ctl), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in4, &v))
        fail_msg("control byte in a preview: %s", v.detail);
    mf_result_free(r);
    /* a word right after a \u00XX escape in the warning's quote is named */
    const char *nul = "status: done\x7f\x01summary: lost words\n";
    r = fake(nul, "{\"status\":\"done\"}");
    mf_warnings_add(&r->warnings, "norm.bead-status", 0, "Normalized bead status \"done\\u007f\\u0001summary: lost words\" to done.");
    mf_oracle_input in6 = {mf_profiles_get("generic_yaml"), NULL, nul, strlen(nul), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in6, &v))
        fail_msg("word after a \\u escape in a warning: %s", v.detail);
    mf_result_free(r);
    /* JSON has no \x or \U escape: json.invalid-escape keeps "\xec(" and "\xdef" as the text they show,
     * no 'ì(' or 'Þf' (run 11 312e3774, ad26ccf9); in a YAML double-quoted scalar \xNN is the character */
    if (run(mf_oracle_conservation, "generic_json", "{\"a\": \"});\\xec(`CREATE\", \"b\": \"])\\xdef test \\U0001F600\"}",
            "{\"a\":\"});\\\\xec(`CREATE\",\"b\":\"])\\\\xdef test \\\\U0001F600\"}", &v))
        fail_msg("JSON \\x and \\U kept as text: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_json", "{\"a\": \"});\\xec(`CREATE\"}",
                         "{\"a\":\"});\\u00ec(`CREATE\"}", &v), 1);
    assert_non_null(strstr(v.detail, "'xec'"));
    if (run(mf_oracle_conservation, "generic_yaml", "a: \"caf\\xe9 \\U0001F600x\"\n", "{\"a\":\"caf\\u00e9 \\ud83d\\ude00x\"}", &v))
        fail_msg("YAML \\x and \\U are numeric escapes: %s", v.detail);
    /* a \uXXXX escape is the character it spells, part of its word ("t\ue333" is one word; so is a surrogate pair) */
    const char *pu = "{\"a\": \"t\\ue33333 ok\", \"b\": \"party\\ud83c\\udf89time\"}";
    if (run(mf_oracle_conservation, "generic_json", pu, "{\"a\":\"t\xee\x8c\xb3" "33 ok\",\"b\":\"party\xf0\x9f\x8e\x89" "time\"}", &v))
        fail_msg("numeric escapes join their word: %s", v.detail);
    /* a warning ending with the removed text cut short after its first ": " names all of it */
    const char *cm = "{\n  asks\": [\n    #{\"task_id\": \"T-1\", \"description\": \"say hi now\", \"extra\": null}\n  ]\n}\n";
    r = fake(cm, "{\"asks\":[]}");
    mf_warnings_add(&r->warnings, "json.comment", 3, "comment removed: #{\"task_id\": \"T-1\", \"description\": \"say hi...");
    mf_oracle_input in7 = {mf_profiles_get("generic_json"), NULL, cm, strlen(cm), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in7, &v))
        fail_msg("unquoted preview at the end of a warning: %s", v.detail);
    mf_result_free(r);
    /* the preview covers only the value it quotes: a word of another line is still seen */
    const char *ctl2 = "status: \"approved\\x02source: sha: 0b8e1f3c5a7d9e2b4f6a\"\nowner: bob\n";
    r = fake(ctl2, "{\"status\":\"draft\"}");
    mf_warnings_add(&r->warnings, "norm.prd-status", 0, "Normalized status \"approved\x02source: sha: 0b8e1f...\" to draft.");
    mf_oracle_input in5 = {mf_profiles_get("generic_yaml"), NULL, ctl2, strlen(ctl2), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_conservation(&in5, &v), 1);
    assert_non_null(strstr(v.detail, "'owner'"));
    mf_result_free(r);

    /* a word right after a no-break space in the warning's quote is named */
    const char *nb = "status: \"\xc2\xa0nbsp lead\"\n";
    r = fake(nb, "{\"status\":\"draft\"}");
    mf_warnings_add(&r->warnings, "norm.prd-status", 0, "Normalized status \"\xc2\xa0nbsp lead\" to draft.");
    mf_oracle_input in2 = {mf_profiles_get("generic_yaml"), NULL, nb, strlen(nb), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in2, &v))
        fail_msg("word after NBSP in a warning: %s", v.detail);
    mf_result_free(r);

    /* run 6 r66bc14ca: a lone CR is a YAML line break, so '#o' after it is a comment, no data */
    if (run(mf_oracle_conservation, "generic_yaml", "\r#o\n", "null", &v))
        fail_msg("a comment after a lone CR: %s", v.detail);

    /* YAML escapes exist only in double quotes: a plain st\tus is the word it shows */
    if (run(mf_oracle_conservation, "generic_yaml", "st\\tus: pending\nq: \"a\\tb\"\n",
            "{\"st\\\\tus\":\"pending\",\"q\":\"a\\tb\"}", &v))
        fail_msg("plain backslash is text: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "hint: \"b\\ehavior\"\n", "{\"hint\":\"b\\u001bhavior\"}", &v))
        fail_msg("YAML \\e is ESC: %s", v.detail);
    /* 628fae5e: a quote inside a plain key opens no quoted scalar; the value's
     * real double quotes still hold the \x04 escape */
    if (run(mf_oracle_conservation, "generic_yaml", "summar \"Implemented login: \"tokens anint: pass\\x04\"\n",
            "{\"summar \\\"Implemented login\":\"tokens anint: pass\\u0004\"}", &v))
        fail_msg("a quote inside a plain key is text: %s", v.detail);

    const char *y = "items:\n  - id: text: \"What: exactly?\"\n  - id: Q02\n    text: plain words\n";
    if (run(mf_oracle_structure, "generic_yaml", y,
            "{\"items\":[{\"id\":\"text: \\\"What: exactly?\\\"\"},{\"id\":\"Q02\",\"text\":\"plain words\"}]}", &v))
        fail_msg("value kept whole on its key's line: %s", v.detail);
    /* after a line break it is a swallowed key */
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", y,
                         "{\"items\":[{\"id\":\"Q01\\ntext: What\"},{\"id\":\"Q02\",\"text\":\"plain words\"}]}", &v),
                     1);
}

/* A value op of a structured case may write member-shaped text into a string
 * (val.multiline "key: v\nstatus: done"): the ground truth holds it, so the
 * output's copy is data; without that truth it is a swallowed key. */
/* A concatenation glues words and a shape normalization renames keys: both
 * are named by their rule, so their tokens are accounted for; without those
 * rules' warnings the same outputs lose tokens. */
static void test_concat_and_renamed_keys(void **state)
{
    (void)state;
    mf_verdict v;
    const char *cat = "{\"d\": \"line twoion\"+ \"Build it\"}";
    mf_result *r = fake(cat, "{\"d\":\"line twoionBuild it\"}");
    mf_oracle_input in = {mf_profiles_get("generic_json"), NULL, cat, strlen(cat), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_conservation(&in, &v), 1);
    mf_warnings_add(&r->warnings, "json.string-concat", 1, "strings joined by '+' concatenated into one string");
    if (mf_oracle_conservation(&in, &v))
        fail_msg("glued by a concatenation: %s", v.detail);
    mf_result_free(r);

    const char *qa = "{\"files\": [{\"path\": \"t.py\", \"content\": \"x = 1\"}], \"test_cases\": [\"one\"]}";
    r = fake(qa, "{\"test_file\":\"t.py\",\"test_content\":\"x = 1\",\"test_cases\":[\"one\"]}");
    mf_oracle_input in2 = {mf_profiles_get("qa_tests"), NULL, qa, strlen(qa), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_conservation(&in2, &v), 1);
    mf_warnings_add(&r->warnings, "schema.qa-tests", 0, "Took test_file and test_content from the single file in files.");
    if (mf_oracle_conservation(&in2, &v))
        fail_msg("keys renamed by the shape normalization: %s", v.detail);
    mf_result_free(r);

    /* a block header's indentation indicator (|2, >-1) is syntax, not a number of the data */
    if (run(mf_oracle_conservation, "generic_yaml", "a: |2\n   x\nb: >-1\n y\n", "{\"a\":\" x\\n\",\"b\":\"y\"}", &v))
        fail_msg("block header indicators: %s", v.detail);
    /* a block scalar keeps "\nimport" as text; the input side reads a JSON-like line's \n as a break */
    const char *blk = "notes: |\n  \"content\": \"a\\nimport re\"\n";
    if (run(mf_oracle_conservation, "generic_yaml", blk, "{\"notes\":\"\\\"content\\\": \\\"a\\\\nimport re\\\"\\n\"}", &v))
        fail_msg("escapes kept as text in a block scalar: %s", v.detail);
}

static void test_structure_truth(void **state)
{
    (void)state;
    /* the input's quote is unclosed, so only the truth can vouch for the run */
    const char *text = "steps:\n  - name: build\n    status: done\n  - name: \"a\n    status: done\n";
    const char *value = "{\"steps\":[{\"name\":\"build\",\"status\":\"done\"},{\"name\":\"a\\nstatus: done\"}]}";
    mf_result *r = fake(text, value);
    json_t *truth = J(value);
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    mf_verdict v;
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    in.truth = truth;
    if (mf_oracle_structure(&in, &v))
        fail_msg("the truth holds the run: %s", v.detail);
    json_decref(truth);
    mf_result_free(r);
}

/* A string that was a string in the input already (a quoted string closed
 * on its line, a block scalar's body) holds its member-shaped text as data,
 * ground truth or not (regression d4e112c7, bae74ad0: an AFL-damaged clean
 * artifact with no strict load; 4f65594a: a '|-' block). The swallow shapes
 * still fail: a quote closed early inside a JSON string ("b, "c": "d"), a
 * quote that runs over the line break into the next key, a dedented line
 * read into a block. */
static void test_structure_input_string(void **state)
{
    (void)state;
    mf_verdict v;
    const char *js = "{\"test_file\": \"Config:\\ntest_cases: example value\\nretries: 3\\n\", "
                     "\"test_content\": \"x\"}";
    if (run(mf_oracle_structure, "qa_tests", js,
            "{\"test_file\":\"Config:\\ntest_cases: example value\\nretries: 3\\n\",\"test_content\":\"x\"}", &v))
        fail_msg("a JSON string's own text: %s", v.detail);
    const char *blk = "questions:\n  - it: Q\n    answer_type: y\n  - id: Q\n    question: |-\n      L\n"
                      "      answer_type: f\n";
    const char *blk_value = "{\"questions\":[{\"it\":\"Q\",\"answer_type\":\"y\"},"
                            "{\"id\":\"Q\",\"question\":\"L\\nanswer_type: f\"}]}";
    if (run(mf_oracle_structure, "generic_yaml", blk, blk_value, &v))
        fail_msg("a block scalar's own text: %s", v.detail);
    const char *sq = "steps:\n  - name: build\n    status: done\n  - name: \"a\\nstatus: done\"\n";
    if (run(mf_oracle_structure, "generic_yaml", sq,
            "{\"steps\":[{\"name\":\"build\",\"status\":\"done\"},{\"name\":\"a\\nstatus: done\"}]}", &v))
        fail_msg("a YAML double-quoted string's own text: %s", v.detail);

    /* the same output strings from swallows */
    const char *inner = "[{\"a\": \"x\", \"c\": \"y\"}, {\"a\": \"b, \"c\": \"d\"}]";
    assert_int_equal(run(mf_oracle_structure, "generic_json", inner,
                         "[{\"a\":\"x\",\"c\":\"y\"},{\"a\":\"b, \\\"c\\\": \\\"d\"}]", &v), 1);
    assert_non_null(strstr(v.detail, "/1/a"));
    const char *ml = "steps:\n  - name: build\n    status: done\n  - name: \"a\n    status: done\"\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", ml,
                         "{\"steps\":[{\"name\":\"build\",\"status\":\"done\"},{\"name\":\"a\\nstatus: done\"}]}",
                         &v), 1);
    const char *ded = "questions:\n  - it: Q\n    answer_type: y\n  - id: Q\n    question: |-\n      L\n"
                      "    answer_type: f\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", ded, blk_value, &v), 1);
    assert_non_null(strstr(v.detail, "answer_type"));
}

/* The majority of several pipelines stands for the truth; a dissenter is a
 * finding (e.g. one pipeline dropped the array the other two kept). */
static void test_differential(void **state)
{
    (void)state;
    json_t *full = J("{\"items\":[1,2],\"owner\":\"bob\"}"), *lossy = J("{\"owner\":\"bob\"}");
    const json_t *three[] = {full, lossy, full};
    bool d[4];
    assert_int_equal(mf_oracle_differential(three, 3, d), 0);
    assert_false(d[0]);
    assert_true(d[1]);
    assert_false(d[2]);
    const json_t *rejected[] = {NULL, full, NULL};   /* a rejection can be the majority */
    assert_int_equal(mf_oracle_differential(rejected, 3, d), 0);
    assert_true(d[1]);
    const json_t *split[] = {full, lossy, NULL, NULL};   /* 2 of 4 is no strict majority */
    assert_int_equal(mf_oracle_differential(split, 4, d), -1);
    assert_false(d[0] || d[1] || d[2] || d[3]);
    json_decref(full);
    json_decref(lossy);
}

/* A string a rule says it kept whole on purpose, quoting it ("guessed that
 * <value> is one string"), holds its member-shaped text as its own (run-6
 * entry ead479a9: a control byte after a closed quote, then "rationale:");
 * the same string with no such warning, or a warning quoting another
 * value, is still a swallowed key. */
/* A member-shaped line that was body text of a block scalar in the input
 * (deeper than the block's key, under its header or one a rule restored)
 * is the string's own, though a repair extended or restored the block
 * (run 15: 8e0f0311 yaml.block-body-indent took a dedented `t` in;
 * 3301cabb yaml.quoted-block-indicator read `notes: '|-'` as a header;
 * cb635cfe behind transcript role prefixes). The line at the key's column,
 * or under another key's header, is still a swallowed key. */
static void test_structure_block_body_line(void **state)
{
    (void)state;
    mf_verdict v;
    const char *ext = "items:\n  - id: Q\n    notes: |-\n      f\n      second lineversion: 1\nt\n  - id: Q\n"
                      "    second lineversion: 0\n";
    const char *ext_value = "{\"items\":[{\"id\":\"Q\",\"notes\":\"f\\nsecond lineversion: 1\\nt\"},"
                            "{\"id\":\"Q\",\"second lineversion\":0}]}";
    if (run(mf_oracle_structure, "generic_yaml", ext, ext_value, &v))
        fail_msg("a block body line: %s", v.detail);
    const char *role = "[assistant/gpt-4o] steps:\n[assistant/gpt-4o]   - ic: S\n[assistant/gpt-4o]     notes: |-\n"
                       "[assistant/gpt-4o]       c \n[assistant/gpt-4o]                 status: d\n"
                       "[assistant/gpt-4o]   - id: S\n[assistant/gpt-4o]     status: p\n";
    const char *st_value = "{\"steps\":[{\"ic\":\"S\",\"notes\":\"c \\n          status: d\"},"
                           "{\"id\":\"S\",\"status\":\"p\"}]}";
    if (run(mf_oracle_structure, "generic_yaml", role, st_value, &v))
        fail_msg("a block body line behind role prefixes: %s", v.detail);
    const char *quoted = "steps:\n  - ic: S\n    notes: '|-'\n      c \n                status: d\n  - id: S\n"
                         "    status: p\n";
    mf_result *r = fake(quoted, st_value);
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, quoted, strlen(quoted), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_structure(&in, &v), 1);   /* a quoted '|-' is a string unless a rule restored it */
    mf_warnings_add(&r->warnings, "yaml.quoted-block-indicator", 3, "Repaired improperly quoted YAML scalar value.");
    if (mf_oracle_structure(&in, &v))
        fail_msg("a body line under a restored header: %s", v.detail);
    mf_result_free(r);
    /* run 54 e50d6805: `''|-''`, doubled quotes yaml.doubled-quotes strips before the header is restored */
    const char *doubled = "steps:\n  - ic: S\n    notes: ''|-''\n      c \n                status: d\n  - id: S\n"
                          "    status: p\n";
    r = fake(doubled, st_value);
    in = (mf_oracle_input){mf_profiles_get("generic_yaml"), NULL, doubled, strlen(doubled), r, NULL, MF_EXPECT_RAW,
                           NULL};
    mf_warnings_add(&r->warnings, "yaml.quoted-block-indicator", 3, "Repaired improperly quoted YAML scalar value.");
    assert_int_equal(mf_oracle_structure(&in, &v), 1); /* the outer pair is still quotes unless a rule stripped it */
    mf_warnings_add(&r->warnings, "yaml.doubled-quotes", 3, "Removed doubled outer quotes around a YAML scalar.");
    if (mf_oracle_structure(&in, &v))
        fail_msg("a body line under a header in doubled quotes: %s", v.detail);
    mf_result_free(r);

    const char *at_key = "items:\n  - id: Q\n    notes: |-\n      f\n    second lineversion: 1\nt\n  - id: Q\n"
                         "    second lineversion: 0\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", at_key, ext_value, &v), 1);
    assert_non_null(strstr(v.detail, "second lineversion"));
    const char *other = "items:\n  - id: Q\n    other: |-\n      second lineversion: 1\n    notes: f\n  - id: Q\n"
                        "    second lineversion: 0\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", other,
                         "{\"items\":[{\"id\":\"Q\",\"notes\":\"f\\nsecond lineversion: 1\"},"
                         "{\"id\":\"Q\",\"second lineversion\":0}]}", &v), 1);
}

/* Run 55 (523a9f79, a4958798): `inspiration:|-` with member-shaped body lines;
 * norm.change-inspiration made the block's string the label of an inspiration
 * object, so the body was written under `inspiration`, not `label`: the
 * string's own text. Without that rule's warning it is still a swallowed key. */
static void test_structure_inspiration_label_body(void **state)
{
    (void)state;
    const char *text = "artifact: interview\nticket_id: W\nchanges:\n  - type: modified\n    item_type: question\n"
                       "    item_id: Q01\n    description: Added it.\n    inspiration:|-\n      alternative_draft: m\n"
                       "      id: Q02\n   ,   label: Which locales?\n";
    const char *value = "{\"artifact\":\"interview\",\"ticket_id\":\"W\",\"changes\":[{\"type\":\"modified\","
                        "\"item_type\":\"question\",\"item_id\":\"Q01\",\"description\":\"Added it.\","
                        "\"inspiration\":{\"label\":\"alternative_draft: m\\nid: Q02\\n,   label: Which locales?\"}}]}";
    mf_verdict v;
    mf_result *r = fake(text, value);
    mf_oracle_input in = {mf_profiles_get("refinement_changes"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW,
                          NULL};
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    mf_warnings_add(&r->warnings, "norm.change-inspiration", 0,
                    "Accepted bare-string inspiration of refinement change at index 0 as its label.");
    if (mf_oracle_structure(&in, &v))
        fail_msg("a block body under inspiration, made its label: %s", v.detail);
    mf_result_free(r);
}

/* Run 16 (session 9): a single-quoted question left open (`question: 'Is a ... "en`)
 * whose deeper lines `answer:` ... yaml.unclosed-quote folded into the value, and
 * warned: those lines were the open value's own, not a swallowed key; without the
 * warning, or with the line at the key's column, it is still one */
static void test_structure_open_quote_lines(void **state)
{
    (void)state;
    const char *text = "questions:\n  - id: Q04\n    question: 'Is it an error, or \"en\n      answer:\n"
                       "      skipped: false\n";
    const char *value = "{\"questions\":[{\"id\":\"Q04\",\"question\":"
                        "\"Is it an error, or \\\"en\\nanswer:\\nskipped: false\"}]}";
    mf_verdict v;
    mf_result *r = fake(text, value);
    mf_oracle_input in = {mf_profiles_get("interview"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    mf_warnings_add(&r->warnings, "yaml.unclosed-quote", 3, "Closed an unterminated YAML single-quoted value at the "
                    "end of line 5, its last line before the next element (guessed; its lines are folded into one value).");
    if (mf_oracle_structure(&in, &v))
        fail_msg("the open value's own lines: %s", v.detail);
    mf_result_free(r);
    const char *at_key = "questions:\n  - id: Q04\n    question: 'Is it an error, or \"en\n    answer:\n"
                         "      skipped: false\n";
    r = fake(at_key, value);
    mf_warnings_add(&r->warnings, "yaml.unclosed-quote", 3, "Closed an unterminated YAML single-quoted value.");
    in.raw = at_key;
    in.raw_len = strlen(at_key);
    in.result = r;
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    assert_non_null(strstr(v.detail, "answer"));
    mf_result_free(r);
}

/* The structure verdict on text and value under full_answers, with one
 * yaml.block-body-indent warning at header line hl naming lines hl+1..last
 * as the body (none when hl is 0). */
static int structure_fallen_body(const char *text, const char *value, int hl, int last)
{
    mf_verdict v;
    mf_result *r = fake(text, value);
    if (hl)
        mf_warnings_add(&r->warnings, "yaml.block-body-indent", hl,
                        "Indented the text lines under a YAML block scalar header that were written at or left of "
                        "its key (guessed that lines %d-%d are its body).", hl + 1, last);
    mf_oracle_input in = {mf_profiles_get("full_answers"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = mf_oracle_structure(&in, &v);
    mf_result_free(r);
    return rc;
}

/* Run 17 (ee59a4d8, f152d195-r9ac6a100, bd877b38): under `free_text: |-` a
 * line left of the key that no entry opens (`}  answered_by: ...`, a stray
 * closer, then words with blanks before the ':'), which yaml.block-body-indent
 * warned it took into the body, is the block's own text, and so is a deeper
 * line after it. Without the warning, with the warning naming other lines,
 * or on a line a one-word key or a dash opens, it is still a swallowed key. */
static void test_structure_fallen_body_line(void **state)
{
    (void)state;
    const char *head = "questions:\n  - id: Q02\n    phase: structure\n    question: P\n    answer:\n"
                       "      free_text: |-\n";
    const char *value = "{\"questions\":[{\"id\":\"Q02\",\"phase\":\"structure\",\"question\":\"P\",\"answer\":"
                        "{\"free_text\":\"}  answered_by: ai!      answered_at: \\\"2026\\\"\"}}]}";
    char text[512];
    snprintf(text, sizeof text, "%s    }  answered_by: ai!      answered_at: \"2026\"\n", head);
    assert_int_equal(structure_fallen_body(text, value, 0, 0), 1);
    assert_int_equal(structure_fallen_body(text, value, 6, 7), 0);
    assert_int_equal(structure_fallen_body(text, value, 5, 7), 1);   /* another header's range */
    assert_int_equal(structure_fallen_body(text, value, 3, 7), 1);

    const char *two = "{\"questions\":[{\"id\":\"Q02\",\"phase\":\"structure\",\"question\":\"P\",\"answer\":"
                      "{\"free_text\":\"see (b) answered_by: ai\\n  x answered_at: now\"}}]}";
    snprintf(text, sizeof text, "%ssee (b) answered_by: ai\n        x answered_at: now\n", head);
    assert_int_equal(structure_fallen_body(text, two, 0, 0), 1);
    assert_int_equal(structure_fallen_body(text, two, 6, 7), 0);     /* a deeper line after it is body text */
    snprintf(text, sizeof text, "%ssee (b) answered_by: ai\n  x answered_at: now\n", head);
    assert_int_equal(structure_fallen_body(text, two, 6, 8), 0);     /* both lines fell left */
    assert_int_equal(structure_fallen_body(text, two, 6, 7), 1);     /* the second past the range */

    const char *word = "{\"questions\":[{\"id\":\"Q02\",\"phase\":\"structure\",\"question\":\"P\",\"answer\":"
                       "{\"free_text\":\"x\\nanswered_by: ai\"}}]}";
    snprintf(text, sizeof text, "%s        x\n    answered_by: ai\n", head);
    assert_int_equal(structure_fallen_body(text, word, 6, 8), 1);    /* a one-word key is an entry */
    const char *dash = "{\"questions\":[{\"id\":\"Q02\",\"phase\":\"structure\",\"question\":\"P\",\"answer\":"
                       "{\"free_text\":\"x\\n- answered_by: ai answered_at: now\"}}]}";
    snprintf(text, sizeof text, "%s        x\n    - answered_by: ai answered_at: now\n", head);
    assert_int_equal(structure_fallen_body(text, dash, 6, 8), 1);    /* so is a list item */
}

/* A structure verdict on text and value with the warnings of the rules
 * named (yaml.unclosed-quote, norm.key-alias), each given its message. */
static int structure_warned(const char *text, const char *value, const char *const *warnings)
{
    mf_verdict v;
    mf_result *r = fake(text, value);
    for (size_t i = 0; warnings[i]; i += 2)
        mf_warnings_add(&r->warnings, warnings[i], 3, "%s", warnings[i + 1]);
    mf_oracle_input in = {mf_profiles_get("interview"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = mf_oracle_structure(&in, &v);
    mf_result_free(r);
    return rc;
}

/* Run 16 (3e8593f9, 3a6664ce, 4536cb54): a quoted value left open and the
 * deeper lines yaml.unclosed-quote folded into it, behind stacked role
 * prefixes (`[assistant] [sys] `, not as many on every line) or under a key
 * norm.key-alias renamed, and folded onto one line: the value's own text. */
static void test_structure_open_quote_prefix_alias(void **state)
{
    (void)state;
    const char *folded = "Closed an unterminated YAML single-quoted value (guessed; its lines are folded into one value).";
    const char *const quote[] = {"yaml.unclosed-quote", folded, NULL};
    const char *stacked = "[assistant] [sys] questions:\n[assistant] [sys]   - id: Q04\n"
                          "[assistant] [sys]     question: 'I \n[assistant] [sys]       answer:\n";
    const char *block = "{\"questions\":[{\"id\":\"Q04\",\"question\":\"I\\nanswer:\"}]}";
    assert_int_equal(structure_warned(stacked, block, quote), 0);
    const char *uneven = "[user] questions:\n[user]   - id: Q04\n[assistant] [sys]     question: 'I \n"
                         "[assistant]       answer:\n";
    assert_int_equal(structure_warned(uneven, "{\"questions\":[{\"id\":\"Q04\",\"question\":\"I answer:\"}]}", quote),
                     0);
    const char *alias = "questions:\n  - id: Q04\n    questio```n: 'Is it a build error, or \"en answer_type: yes_no\n"
                        "      answer:\n";
    const char *one_line = "{\"questions\":[{\"id\":\"Q04\",\"question\":"
                           "\"Is it a build error, or \\\"en answer_type: yes_no answer:\"}]}";
    const char *const renamed[] = {"yaml.unclosed-quote", folded, "norm.key-alias",
                                   "Renamed key \"questio```n\" to \"question\" at /questions/0.", NULL};
    assert_int_equal(structure_warned(alias, one_line, renamed), 0);
    /* without the rename's warning the key is no spelling of question */
    assert_int_equal(structure_warned(alias, one_line, quote), 1);
    /* a line at the key's column folded into the value is a swallowed key */
    const char *at_key = "questions:\n  - id: Q04\n    question: 'Is it an error\n    answer_type: yes_no\n"
                         "      answer: yes\n";
    assert_int_equal(structure_warned(at_key, "{\"questions\":[{\"id\":\"Q04\",\"question\":"
                                              "\"Is it an error answer_type: yes_no answer: yes\"}]}", quote),
                     1);
}

/* A structure verdict on generic_yaml text and value read from candidate,
 * with the warnings of the rules named, each given its message, at the
 * lines given. */
static int structure_at(const char *text, const char *value, const char *candidate, const char *const *warnings,
                        const int *lines)
{
    mf_verdict v;
    mf_result *r = fake(text, value);
    free(r->candidate);
    r->candidate = strdup(candidate);
    for (size_t i = 0; warnings[i]; i += 2)
        mf_warnings_add(&r->warnings, warnings[i], lines[i / 2], "%s", warnings[i + 1]);
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = mf_oracle_structure(&in, &v);
    mf_result_free(r);
    return rc;
}

/* Run 19 (350f7c88, 5a10e180, 47a52551 and ~150 more): a block header on an
 * item whose dash drifted right of its list (`   -  notes: |-` under
 * `  - id: Q01`), which yaml.sequence-indent-drift moved back with its key:
 * lines deeper than the moved key (`      id: Q02`) are the block's body, as
 * core reads them, even at the raw key's column. The warning may count lines
 * of a shorter candidate or of text an earlier split lengthened; a last line
 * may carry the noise cand.terminal-noise trimmed. */
static void test_structure_drifted_block_header(void **state)
{
    (void)state;
    static const char drifted[] = "Re-aligned a YAML sequence dash that drifted off its list's column.";
    static const char fell[] = "Indented the text lines under a YAML block scalar header that were written at or left "
                               "of its key (guessed that lines 5-7 are its body).";
    const char *text = "items:\n  - id: Q01\n    text: T\n   -  notes: |-\n      first line\n      id: Q02\n"
                       "    more words\n";
    const char *value = "{\"items\":[{\"id\":\"Q01\",\"text\":\"T\"},"
                        "{\"notes\":\"first line\\nid: Q02\\nmore words\"}]}";
    const char *const body[] = {"yaml.block-body-indent", fell, NULL};
    const char *const both[] = {"yaml.block-body-indent", fell, "yaml.sequence-indent-drift", drifted, NULL};
    const char *const split[] = {"yaml.block-body-indent", fell, "yaml.inline-keys", "Split", "yaml.sequence-indent-drift",
                                 drifted, NULL};
    const int at4_4[] = {4, 4}, at4_3[] = {4, 3}, at4_5[] = {4, 5}, at4_2_5[] = {4, 2, 5};
    assert_int_equal(structure_at(text, value, "raw", body, at4_4), 1);        /* no drift warned */
    assert_int_equal(structure_at(text, value, "raw", both, at4_4), 0);
    assert_int_equal(structure_at(text, value, "fence-stripped", both, at4_3), 0);
    assert_int_equal(structure_at(text, value, "raw", both, at4_5), 1);        /* another line's */
    assert_int_equal(structure_at(text, value, "raw", split, at4_2_5), 0);

    const char *text_key = "items:\n  - id: Q01\n    text: T\n   -  notes: |-\n      first line\n        text: x\b\n";
    const char *text_value = "{\"items\":[{\"id\":\"Q01\",\"text\":\"T\"},{\"notes\":\"first line\\n  text: x\"}]}";
    const char *const noise[] = {"yaml.sequence-indent-drift", drifted, "cand.terminal-noise", "Trimmed", NULL};
    const int at4_6[] = {4, 6}, at6_6[] = {6, 6};
    assert_int_equal(structure_at(text_key, text_value, "raw", noise, at4_6), 0);
    assert_int_equal(structure_at(text_key, text_value, "raw", noise, at6_6), 1);  /* the drift not at the header */
    assert_int_equal(structure_at(text_key, text_value, "raw", both + 2, at4_6), 1);   /* the noise not warned */

    /* a dash at its list's column moved no key: its column still ends the body */
    const char *aligned = "items:\n  - id: Q01\n    text: T\n  -   notes: |-\n      first line\n      id: Q02\n"
                          "    more words\n";
    assert_int_equal(structure_at(aligned, value, "raw", both, at4_4), 1);
}

static void test_structure_kept_whole(void **state)
{
    (void)state;
    const char *text = "questions:\n  - id: Q01\n    question: \"Which DB?\"\x15    rationale: \"Storage answer_type: x\n";
    const char *value = "{\"questions\":[{\"id\":\"Q01\",\"question\":"
                        "\"\\\"Which DB?\\\"\\u0015    rationale: \\\"Storage answer_type: x\"}]}";
    mf_verdict v;
    assert_int_equal(run(mf_oracle_structure, "interview", text, value, &v), 1);
    mf_result *r = fake(text, value);
    mf_oracle_input in = {mf_profiles_get("interview"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    mf_warnings_add(&r->warnings, "yaml.quoted-fragment", 3,
                    "Quoted a YAML value that starts with a quoted fragment followed by more text (guessed that "
                    "\"Which DB?\"\x15    rationale: \"Storage answer_type: x is one string, its quotes kept as text).");
    if (mf_oracle_structure(&in, &v))
        fail_msg("kept whole on purpose: %s", v.detail);
    mf_warnings_clear(&r->warnings);
    mf_warnings_add(&r->warnings, "yaml.quoted-fragment", 3,
                    "Quoted a YAML value that starts with a quoted fragment followed by more text (guessed that "
                    "\"Another\" value is one string, its quotes kept as text).");
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    mf_warnings_clear(&r->warnings);
    mf_warnings_add(&r->warnings, "yaml.unclosed-quote", 3, "guessed that \"Which DB?\"\x15 is one string");
    assert_int_equal(mf_oracle_structure(&in, &v), 1);  /* not a rule that keeps a value whole */
    mf_result_free(r);

    /* run 57: json.inner-quote kept a quoted key with no comma before it inside a string */
    const char *json = "{\"story_id\": \"US-4\", \"tasks\": [\n  {\"task_id\": \"T-4: \"echo ${ \"description\": \"tab\"},\n"
                       "  {\"task_id\": \"T-5\", \"description\": \"Test it\"}]}";
    const char *jv = "{\"story_id\":\"US-4\",\"tasks\":[{\"task_id\":\"T-4: \\\"echo ${ \\\"description\\\": \\\"tab\"},"
                     "{\"task_id\":\"T-5\",\"description\":\"Test it\"}]}";
    r = fake(json, jv);
    in = (mf_oracle_input){mf_profiles_get("generic_json"), NULL, json, strlen(json), r, NULL, MF_EXPECT_RAW, NULL};
    mf_warnings_add(&r->warnings, "json.inner-quote", 1, "unescaped inner quote escaped");
    assert_int_equal(mf_oracle_structure(&in, &v), 1);
    mf_warnings_add(&r->warnings, "json.inner-quote", 1,
                    "kept a quoted key with no comma before it inside a string (guessed that "
                    "\"T-4: \"echo ${ \"description\": \"tab\" is one string, not a member after it)");
    if (mf_oracle_structure(&in, &v))
        fail_msg("a JSON string kept whole on purpose: %s", v.detail);
    mf_result_free(r);
}

/* session 7 run 7 (prof1) 6cd37652: a '|' inside a plain scalar (`LT-|-142`) is no
 * block header: the digits after it are text, not indicators, and "142" is in the
 * output; a real header's indicators (`|-2`, `>+`) are still syntax. */
static void test_session7_prof1_plain_bar(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "ticket_id: LT-|-142\nnote: |-2\n  body text\n";
    if (run(mf_oracle_conservation, "generic_yaml", text, "{\"ticket_id\":\"LT-|-142\",\"note\":\"body text\"}", &v))
        fail_msg("plain LT-|-142: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", text, "{\"ticket_id\":\"LT-|-1\",\"note\":\"body text\"}", &v), 1);
}

/* session 7 run 7 (prof1) bd0ec7b5, 59ec639c, d9292edb: a block header glued to its key's
 * colon (`inspiration:|-`, which yaml.colon-space reads as `inspiration: |-`) opens a
 * block scalar whose body is the string's own text, as `inspiration: |-` does; the
 * same body under no header is still a swallowed key. */
static void test_session7_prof1_glued_block_header(void **state)
{
    (void)state;
    mf_verdict v;
    const char *value = "{\"changes\":[{\"type\":\"modified\",\"item_id\":\"Q\",\"inspiration\":"
                        "{\"label\":\"alternative_draft: m\\nid: Q\"}}]}";
    const char *glued = "changes:\n  - type: modified\n    item_id: Q\n    inspiration:|-\n      alternative_draft: m\n"
                        "      id: Q\n";
    if (run(mf_oracle_structure, "refinement_changes", glued, value, &v))
        fail_msg("glued block header: %s", v.detail);
    const char *bare = "changes:\n  - type: modified\n    item_id: Q\n    inspiration:\n      alternative_draft: m\n"
                       "      id: Q\n";
    assert_int_equal(run(mf_oracle_structure, "refinement_changes", bare, value, &v), 1);
}

/* Strings in smart quotes joined by '+' (`"command_to_run"+ “node --check”`,
 * run 8 entry 7467936b) glue the operand's first word onto the last one just
 * as straight quotes do: json.string-concat names that. */
static void test_session8_json_concat_smart_quotes(void **state)
{
    (void)state;
    const char *texts[] = {
        "{\"t\": {\"run\"+ \xe2\x80\x9cnode --check\xe2\x80\x9d}}",          /* “…” after the '+' */
        "{\"t\": {\"k\": \xe2\x80\x9crun\xe2\x80\x9d +\n \"node --check\"}}", /* “…” before it */
        "{\"t\": {\"k\": `run` + \xe2\x80\x98node --check\xe2\x80\x99}}",      /* backticks, ‘…’ */
    };
    const char *values[] = {
        "{\"t\":{\"0\":\"runnode --check\"}}",
        "{\"t\":{\"k\":\"runnode --check\"}}",
        "{\"t\":{\"k\":\"runnode --check\"}}",
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        mf_result *r = fake(texts[k], values[k]);
        mf_oracle_input in = {mf_profiles_get("generic_json"), NULL, texts[k], strlen(texts[k]), r, NULL,
                              MF_EXPECT_RAW, NULL};
        mf_verdict v;
        assert_int_equal(mf_oracle_conservation(&in, &v), 1);   /* no rule named the join: a loss */
        assert_non_null(strstr(v.detail, "'node'") ? v.detail : strstr(v.detail, "'run'"));
        mf_warnings_add(&r->warnings, "json.string-concat", 1, "strings joined by '+' concatenated into one string");
        if (mf_oracle_conservation(&in, &v))
            fail_msg("case %zu, glued by a concatenation in other quotes: %s", k, v.detail);
        mf_result_free(r);
    }
}

/* Run 8 (yaml1, a99bb9dc): the double quotes inside a single-quoted scalar open no
 * double-quoted one, so the next line's double-quoted value still decodes its \x1e
 * escape (the token 'x1espan' was read as lost); a real loss still fails. */
static void test_session8_yaml1_single_quoted_dq(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "motto: '\"pinnale: \"some rul'\nkind: \"'\\\"epic\\\" | \\\"user_story\\\"'dhandle: "
                       "\\\"@trace\\x1espan-id\\\"\"\n";
    const char *value = "{\"motto\":\"\\\"pinnale: \\\"some rul\",\"kind\":\"'\\\"epic\\\" | \\\"user_story\\\"'"
                        "dhandle: \\\"@trace\\u001espan-id\\\"\"}";
    if (run(mf_oracle_conservation, "generic_yaml", text, value, &v))
        fail_msg("double quotes in a single-quoted scalar: %s", v.detail);
    const char *lost = "{\"motto\":\"\\\"pinnale: \\\"some rul\",\"kind\":\"'\\\"epic\\\" | \\\"user_story\\\"'"
                       "dhandle: \\\"@trace\\u001e-id\\\"\"}";
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", text, lost, &v), 1);
    /* '' is one quote inside single quotes: the scalar goes on after it */
    if (run(mf_oracle_conservation, "generic_yaml", "a: 'it''s \"x'\nb: \"y\\x41z\"\n",
            "{\"a\":\"it's \\\"x\",\"b\":\"yAz\"}", &v))
        fail_msg("doubled single quote: %s", v.detail);
}

/* run 9 97b0a31e-r56a07f80: NEL (and LS, PS) is a YAML line break as libyaml and core
 * read it, no word: "\u0085" alone is an empty document, "\u0085#o" a comment line; a
 * word lost after one is still named */
static void test_session9_yaml1_nel_break(void **state)
{
    (void)state;
    mf_verdict v;
    if (run(mf_oracle_conservation, "generic_yaml", "\xc2\x85", "null", &v))
        fail_msg("a lone NEL: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "\xc2\x85#o\n", "null", &v))
        fail_msg("a comment after NEL: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "a: 1\xe2\x80\xa8#o\n", "{\"a\":1}", &v))
        fail_msg("a comment after LS: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "a: 1\xc2\x85" "b: lost\n", "{\"a\":1}", &v), 1);
}

/* Session 8 run 9 (yaml2, entry 9d9f0c2b-r4668f83b): in a YAML double-quoted scalar a
 * backslash ending a line escapes the break: `"# Constitution\` + `  profihip small"` is
 * "# Constitutionprofihip small", no word lost; a token the value does not hold still is. */
static void test_session9_yaml2_escaped_line_break(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "- content: \"# Constitution\\\n  profihip small\"\n";
    if (run(mf_oracle_conservation, "generic_yaml", text, "[{\"content\":\"# Constitutionprofihip small\"}]", &v))
        fail_msg("escaped line break: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "- c: \"a\\\r\nb\"\n", "[{\"c\":\"ab\"}]", &v))
        fail_msg("escaped CRLF: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", text, "[{\"content\":\"# Constitution small\"}]", &v), 1);
    assert_non_null(strstr(v.detail, "profihip"));
    /* the raw invented-word check reads the glued word as the input's */
    assert_int_equal(run(mf_oracle_no_data_loss, "generic_yaml", text, "[{\"content\":\"# Constitutionprofihip small\"}]", &v), 0);
    assert_int_equal(run(mf_oracle_no_data_loss, "generic_yaml", text, "[{\"content\":\"# Constitutionprofihap small\"}]", &v), 1);
    assert_non_null(strstr(v.detail, "Constitutionprofihap"));
}

/* Session 8 run 10 (raw): an alias-looking '*' inside a plain key ('+ *') is text, not an
 * alias: blanking it took the key's ':' along, so the value's quote opened nothing and its
 * \x0b escape read as the word 'x0b' (5292483c-rbf8b2d67); a real alias and properties
 * before a quoted value stay syntax. A warning's preview holding a '"' of its own is
 * no value start inside a word: its tail matched in 'p:0e ...' (b1165c70). */
static void test_session10_raw_syntax_and_previews(void **state)
{
    (void)state;
    mf_verdict v;
    if (run(mf_oracle_conservation, "generic_yaml", "+ *: \"\\x0b:\"\n", "{\"+ *\":\"\\u000b:\"}", &v))
        fail_msg("'*' inside a plain key: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "a: &x \"\\x0bv\"\nb: *x\nc: !t &y 'w'\n",
            "{\"a\":\"\\u000bv\",\"b\":\"\\u000bv\",\"c\":\"w\"}", &v))
        fail_msg("properties and aliases: %s", v.detail);
    /* text after a '*' in a plain scalar is data */
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "k: a *lost\n", "{\"k\":\"a\"}", &v), 1);
    const char *text = "p:0e 0ee00000000000";
    mf_result *r = fake(text, "\"p:0e 0ee00000000000\"");
    mf_warnings_add(&r->warnings, "cand.leading-prose", 1,
                    "Dropped the leading prose line \"000000000000000000000000000\"e 0ee00000000000...\" (line 1): it reads as a sentence, not as a key.");
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in, &v))
        fail_msg("a preview's tail inside a word: %s", v.detail);
    mf_result_free(r);
}

/* session 9 run 14 b4f0ef28: a YAML plain value that holds `","ticket_id":"`
 * on its own line (`opts: a":"b","ticket_id":"c"}`) is the string's own text,
 * as a quoted one is; a bare continuation line or a JSON profile's text (no
 * plain scalars) proves nothing and is still a swallowed key. (The same
 * string folded from two lines is the plain scalar YAML reads: see
 * test_session11_quoted_key_fold.) */
static void test_session9_run14_plain_line(void **state)
{
    (void)state;
    mf_verdict v;
    const char *value = "[{\"opts\":\"rv\\\":\\\"9f\\\",\\\"ticket_id\\\":\\\"LT-142\\\"}\"},{\"ticket_id\":\"L\"}]";
    const char *line = "opts: rv\":\"9f\",\"ticket_id\":\"LT-142\"}  # note\n---\nticket_id: L\n";
    if (run(mf_oracle_structure, "generic_yaml", line, value, &v))
        fail_msg("a plain value on its own line: %s", v.detail);
    const char *item = "- opts: x\n- rv\":\"9f\",\"ticket_id\":\"LT-142\"}\n- ticket_id: L\n";
    if (run(mf_oracle_structure, "generic_yaml", item,
            "[{\"opts\":\"x\"},\"rv\\\":\\\"9f\\\",\\\"ticket_id\\\":\\\"LT-142\\\"}\",{\"ticket_id\":\"L\"}]", &v))
        fail_msg("a plain item on its own line: %s", v.detail);

    const char *bare = "opts:\n  rv\":\"9f\",\"ticket_id\":\"LT-142\"}\n---\nticket_id: L\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", bare, value, &v), 1);
    assert_int_equal(run(mf_oracle_structure, "generic_json", line, value, &v), 1);
}

/* Session 10 run 17 (beads, f8eb36d1): comment blanking read the quoted scalars wrongly,
 * so a '#' inside one blanked its rest: after a doubled '' ('she wrote ''see issue # 42''
 * twice') the scalar was taken as closed, its closing quote was blanked with the "comment",
 * and the unclosed scalar hid the next double-quoted item's \uFEFF escape (token 'uFEFFbom').
 * An escaped backslash before a closing double quote ("C:\\" # note) kept the quote open and
 * the comment read as text. A word really lost after such a scalar is still named. */
static void test_session10_comment_after_quote_escapes(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "a: 'see ''issue # 42'' twice'\nb:\n- \"\\uFEFFbom inside\"\n";
    if (run(mf_oracle_conservation, "generic_yaml", text, "{\"a\":\"see 'issue # 42' twice\",\"b\":[\"\\ufeffbom inside\"]}",
            &v))
        fail_msg("a '#' after a doubled single quote: %s", v.detail);
    if (run(mf_oracle_conservation, "generic_yaml", "a: \"C:\\\\\" # note\nb: 'x # y'\n",
            "{\"a\":\"C:\\\\\",\"b\":\"x # y\"}", &v))
        fail_msg("a comment after an escaped backslash: %s", v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", text, "{\"a\":\"see 'issue # 42' twice\",\"b\":[\"inside\"]}",
                         &v), 1);
    assert_non_null(strstr(v.detail, "bom"));
}

/* Run 19 (investor_decision, structure, ~125 findings): a JSON string that
 * json.missing-quote ran to the input's closers holds spliced YAML lines,
 * one a bare `summary:` at column 0 while the object's members stand at
 * column 2. A JSON string keeps its lines' blanks, so a swallowed member
 * line stands where its siblings do: a bare key at another column is text.
 * At the members' column, or quoted, it is still a swallowed key. */
static int structure_funding(const char *lead, const char *summary_line, const char *summary_json)
{
    char text[512], value[512];
    snprintf(text, sizeof text,
             "{\n  \"investor_id\": \"inv-7\",\n  \"decision\": \"invest\",\n  \"reasoning\": \"Strong team\",\n"
             "%s\"funding_ask\": \"2M USD\nstatus: done\n%sImplement it\n}\n", lead, summary_line);
    snprintf(value, sizeof value,
             "{\"investor_id\":\"inv-7\",\"decision\":\"invest\",\"reasoning\":\"Strong team\","
             "\"funding_ask\":\"2M USD\\nstatus: done\\n%sImplement it\"}", summary_json);
    mf_verdict v;
    return run(mf_oracle_structure, "investor_decision", text, value, &v);
}

static void test_session10_json_bare_key_column(void **state)
{
    (void)state;
    if (structure_funding("  ", "summary: ", "summary: "))
        fail_msg("a bare key at column 0 under members at column 2 is text");
    if (structure_funding("", "summary: ", "summary: "))
        fail_msg("the owner's own line at column 0 does not move the members' column");
    assert_int_equal(structure_funding("  ", "  summary: ", "  summary: "), 1);
    assert_int_equal(structure_funding("  ", "\"summary\": ", "\\\"summary\\\": "), 1);
    /* no line of the object's keys in the input: nothing to measure, still a swallowed key */
    assert_int_equal(run(mf_oracle_structure, "investor_decision", "{\"fundingAsk\": \"2M\nsummary: x\n}",
                         "{\"funding_ask\":\"2M\\nsummary: x\"}", &(mf_verdict){0}),
                     1);
}

/* Run 21 (b4f0ef28, 61dd9537, fae214ab, 04c38144 and 9 more): a YAML plain
 * value that holds JSON member text is the input's own string when it is
 * the value on its line behind role prefixes (`[tool] opts: a","id":"b"}`,
 * cand.transcript-prefix strips them) or a multi-line plain scalar whose
 * deeper lines fold into it (`profile: prd` over ` {"ticket_id":"x"}`). A
 * deeper line shaped as a key folds into no plain scalar: still a swallowed key. */
static void test_session10_plain_fold_and_prefix(void **state)
{
    (void)state;
    mf_verdict v;
    const char *value = "[{\"title\":\"T\",\"profile\":\"prd {\\\"ticket_id\\\":\\\"B-2\\\"}\"},{\"ticket_id\":\"A-1\"}]";
    const char *fold = "title: T\nprofile: prd\n {\"ticket_id\":\"B-2\"}\n---\nticket_id: A-1\n";
    if (run(mf_oracle_structure, "generic_yaml", fold, value, &v))
        fail_msg("a folded plain scalar's own text: %s", v.detail);
    const char *prefixed = "[tool] title: T\n[tool] profile: prd {\"ticket_id\":\"B-2\"}\n---\n[tool] ticket_id: A-1\n";
    if (run(mf_oracle_structure, "generic_yaml", prefixed, value, &v))
        fail_msg("a plain value behind a role prefix: %s", v.detail);
    const char *prefixed_fold = "[tool] title: T\n[tool] profile: prd\n[tool]  {\"ticket_id\":\"B-2\"}\n---\n"
                                "[tool] ticket_id: A-1\n";
    if (run(mf_oracle_structure, "generic_yaml", prefixed_fold, value, &v))
        fail_msg("a folded plain scalar behind role prefixes: %s", v.detail);

    const char *keyed = "title: T\nprofile: prd\n  ticket_id: B-2\n---\nticket_id: A-1\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", keyed,
                         "[{\"title\":\"T\",\"profile\":\"prd\\nticket_id: B-2\"},{\"ticket_id\":\"A-1\"}]", &v), 1);
    const char *at_key = "title: T\nprofile: prd\n{\"ticket_id\":\"B-2\"}\n---\nticket_id: A-1\n";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", at_key, value, &v), 1);   /* not deeper: no fold */
}

/* Run 21 (8e0f0311, 21697c06, 9137200c, a112c59d and 13 more): once a line
 * of a `notes: |-` body fell left of its key (`  S2`), a later line whose key
 * is no identifier (`    n~me: test`) is text, as yaml.block-body-indent
 * reads it, and the warning may count lines of a text a rule shortened
 * before the header (yaml.xml-tag-lines, yaml.duplicate-key,
 * yaml.code-fence). An identifier key there, a non-identifier one before
 * any line fell, or a warning off by more lines than were dropped: still a
 * swallowed key. */
static int structure_fell(const char *text, const char *value, int hl, const char *dropper, int dropped_at)
{
    mf_verdict v;
    mf_result *r = fake(text, value);
    if (dropper)
        mf_warnings_add(&r->warnings, dropper, dropped_at, "dropped a line");
    mf_warnings_add(&r->warnings, "yaml.block-body-indent", hl,
                    "Indented the text lines under a YAML block scalar header that were written at or left of "
                    "its key (guessed that lines %d-%d are its body).", hl + 1, hl + 3);
    mf_oracle_input in = {mf_profiles_get("generic_yaml"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    int rc = mf_oracle_structure(&in, &v);
    mf_result_free(r);
    return rc;
}

static void test_session10_fallen_body_word_key(void **state)
{
    (void)state;
    const char *text = "steps:\n  - id: S1\n    name: build\n    notes: |-\n  S2\n    n~me: test\n    statusput\n"
                       "  - id: S2\n    n~me: test\n";
    const char *value = "{\"steps\":[{\"id\":\"S1\",\"name\":\"build\",\"notes\":\"S2\\n  n~me: test\\n  statusput\"},"
                        "{\"id\":\"S2\",\"n~me\":\"test\"}]}";
    assert_int_equal(structure_fell(text, value, 4, NULL, 0), 0);
    const char *tagged = "<yaml>\nsteps:\n  - id: S1\n    name: build\n    notes: |-\n  S2\n    n~me: test\n"
                         "    statusput\n  - id: S2\n    n~me: test\n";
    assert_int_equal(structure_fell(tagged, value, 4, "yaml.xml-tag-lines", 1), 0);
    assert_int_equal(structure_fell(tagged, value, 4, NULL, 0), 1);             /* nothing dropped: another line */
    assert_int_equal(structure_fell(tagged, value, 3, "yaml.xml-tag-lines", 1), 1);   /* off by two */

    const char *ident = "steps:\n  - id: S1\n    name: build\n    notes: |-\n  S2\n    name: test\n    statusput\n"
                        "  - id: S2\n    n~me: test\n";
    assert_int_equal(structure_fell(ident, "{\"steps\":[{\"id\":\"S1\",\"notes\":\"S2\\n  name: test\\n  statusput\"},"
                                           "{\"id\":\"S2\",\"n~me\":\"test\",\"name\":\"x\"}]}", 4, NULL, 0),
                     1);
    const char *first = "steps:\n  - id: S1\n    name: build\n    notes: |-\n      ok\n    n~me: test\n  S2\n"
                        "  - id: S2\n    n~me: test\n";
    assert_int_equal(structure_fell(first, "{\"steps\":[{\"id\":\"S1\",\"name\":\"build\",\"notes\":"
                                           "\"ok\\nn~me: test\\nS2\"},{\"id\":\"S2\",\"n~me\":\"test\"}]}",
                                    4, NULL, 0),
                     1);   /* no line fell before it */
}

/* Run 23 (114 findings, one signature family): a quoted value left open on
 * a glued `-key:` item line (`  -motto: '"pi id: S3    name: ship`), which
 * yaml.unclosed-quote closed at the end of its line: the deeper line after
 * it stays a key of the item, and the member-shaped text on the line was
 * inside the quote. */
static void test_session11_open_quote_closed_on_its_line(void **state)
{
    (void)state;
    const char *eol = "Closed an unterminated YAML single-quoted value before reparsing (guessed that it ends at the "
                      "end of its line).";
    const char *const quote[] = {"yaml.unclosed-quote", eol, NULL};
    const char *text = "questions:\n  - id: Q04\n    question: P\n  -question: 'Is it id: Q05    answer_type: yes\n"
                       "    phase: structure\n";
    const char *value = "{\"questions\":[{\"id\":\"Q04\",\"question\":\"P\"},{\"question\":"
                        "\"Is it id: Q05    answer_type: yes\",\"phase\":\"structure\"}]}";
    assert_int_equal(structure_warned(text, value, quote), 0);
    /* text the input's quote never held is still a swallowed key */
    const char *more = "{\"questions\":[{\"id\":\"Q04\",\"question\":\"P\"},{\"question\":"
                       "\"Is it id: Q05    answer_type: yes phase: structure\"}]}";
    const char *ended = "questions:\n  - id: Q04\n    question: P\n  -question: 'Is it id: Q05    answer_type: yes'\n"
                        "    phase: structure\n";
    assert_int_equal(structure_warned(ended, more, quote), 1);
}

/* Run 22 2d37ac0a: a stray quote (`-1",`, json.missing-open-quote) misled
 * the oracle's string tracking, so it blanked a block comment inside a
 * commented-out member that json.comment removed and quoted cut short; the
 * quote then matched nowhere and the member's words past the cut looked lost.
 * The removed text is quoted as the input's bytes: matched before comments. */
static void test_session11_removed_comment_after_stray_quote(void **state)
{
    (void)state;
    mf_verdict v;
    const char *text = "{\n  \"story_id\": -1\",\n  \"tasks\": [#    {\"task_id\": \"T-1\", \"description\": "
                       "\"say \\\"hi\\\"\", /* note: see ticket */ \"dotruene\": false}\n  ]\n}\n";
    mf_result *r = fake(text, "{\"story_id\":-1,\"tasks\":[]}");
    mf_warnings_add(&r->warnings, "json.missing-open-quote", 2, "'-1\"' had no opening quote; read as the number");
    mf_warnings_add(&r->warnings, "json.comment", 3,
                    "comment holding JSON structure removed (a commented-out member?): #    {\"task_id\": \"T-1\", "
                    "\"description\": \"say \\\"hi\\\"\", /* note: see ticket */...");
    mf_oracle_input in = {mf_profiles_get("generic_json"), NULL, text, strlen(text), r, NULL, MF_EXPECT_RAW, NULL};
    if (mf_oracle_conservation(&in, &v))
        fail_msg("a removed comment's preview names its line: %s", v.detail);
    mf_result_free(r);
    /* the preview names only its own line: a word of the next line is still seen */
    const char *two = "{\n  \"story_id\": -1\",\n  \"tasks\": [#    {\"task_id\": \"T-1\", \"description\": \"say\"}\n"
                      "  ], \"lost\": 1\n}\n";
    r = fake(two, "{\"story_id\":-1,\"tasks\":[]}");
    mf_warnings_add(&r->warnings, "json.comment", 3,
                    "comment holding JSON structure removed (a commented-out member?): #    {\"task_id\": \"T-1\"...");
    mf_oracle_input in2 = {mf_profiles_get("generic_json"), NULL, two, strlen(two), r, NULL, MF_EXPECT_RAW, NULL};
    assert_int_equal(mf_oracle_conservation(&in2, &v), 1);
    assert_non_null(strstr(v.detail, "'lost'"));
    mf_result_free(r);
}

/* Run 22 (8e0f0311-r123bc9b5, 807e18df, 07e7c888): under `notes: |-` a line
 * left of the key that a bare `: ` opens (`:   0`) has no key, so it is text
 * yaml.block-body-indent takes into the body, and so is the deeper
 * `nam|: s` after it. The warning counts lines of a text that a rule before
 * the header lengthened (yaml.inline-keys split `- id: S name: b`) or
 * shortened (yaml.plain-colon joined a plain scalar's two lines). A one-word
 * key there, or a shift no rule before the header explains: a swallowed key. */
static void test_session11_fallen_body_shifted_lines(void **state)
{
    (void)state;
    static const char split_msg[] = "Repaired inline YAML sequence or mapping syntax before parsing.";
    static const char joined_msg[] = "Quoted YAML plain scalar values containing colon-space before reparsing.";
    char body[200];
    const char *value = "{\"eps\":[{\"id\":\"S\",\"notes\":\"0 \\n   nam|: s\"},{\"id\":\"S\",\"nam|\":\"s\"}]}";
    const char *tail = "    notes: |-\n   0 \n      nam|: s\n  - id: S\n    nam|: s\n";

    const char *bare = "eps:\n  - id: S\n    notes: |-\n :   0 \n      nam|: s\n  - id: S\n    nam|: s\n";
    const char *bare_value = "{\"eps\":[{\"id\":\"S\",\"notes\":\":   0 \\n     nam|: s\"},{\"id\":\"S\",\"nam|\":\"s\"}]}";
    snprintf(body, sizeof body, "Indented the text lines under a YAML block scalar header that were written at or left "
                                "of its key (guessed that lines %d-%d are its body).", 4, 5);
    const char *const fell3[] = {"yaml.block-body-indent", body, NULL};
    const int at3[] = {3};
    assert_int_equal(structure_at(bare, bare_value, "raw", fell3, at3), 0);
    const char *word = "eps:\n  - id: S\n    notes: |-\n k:   0 \n      nam|: s\n  - id: S\n    nam|: s\n";
    const char *word_value = "{\"eps\":[{\"id\":\"S\",\"notes\":\"k:   0 \\n     nam|: s\"},{\"id\":\"S\",\"nam|\":\"s\"}]}";
    assert_int_equal(structure_at(word, word_value, "raw", fell3, at3), 1);   /* `k:` is an entry */

    char text[300];
    snprintf(body, sizeof body, "Indented the text lines under a YAML block scalar header that were written at or left "
                                "of its key (guessed that lines %d-%d are its body).", 5, 6);
    snprintf(text, sizeof text, "eps:\n  - id: S name: b\n%s", tail);
    const char *const split[] = {"yaml.inline-keys", split_msg, "yaml.block-body-indent", body, NULL};
    const int at2_4[] = {2, 4}, at4[] = {4};
    assert_int_equal(structure_at(text, value, "raw", split, at2_4), 0);
    assert_int_equal(structure_at(text, value, "raw", split + 2, at4), 1);    /* nothing split */

    snprintf(text, sizeof text, "title: Release ~heckowner: \n      c\neps:\n  - id: S\n%s", tail);
    const char *const joined[] = {"yaml.plain-colon", joined_msg, "yaml.block-body-indent", body, NULL};
    const int at1_4[] = {1, 4}, at8_4[] = {8, 4};
    assert_int_equal(structure_at(text, value, "raw", joined, at1_4), 0);
    assert_int_equal(structure_at(text, value, "raw", joined, at8_4), 1);     /* joined after the header */
    assert_int_equal(structure_at(text, value, "raw", split, at2_4), 1);      /* a split lengthens, not shortens */
}

/* Run 24: the parsed text's scalars as libyaml reads them, not as a line
 * lexer guesses: a comment glued to a block header (f12ea384, 7455c20b), a
 * double-quoted scalar closed on a later line before a comment (97b0a31e),
 * a quote opening a block scalar's line (fd0e5117) or a plain scalar's
 * continuation line (67a88b92) - and a word lost from such a scalar is still
 * found. */
static void test_session11_libyaml_scalars(void **state)
{
    (void)state;
    static const char *const kept[][2] = {
        {"notes: |-# see below\n  first\n", "{\"notes\":\"first\"}"},
        {"r: |#\" x\nb|#\" y: |#\" z\n", "{\"r\":\"\",\"b|#\\\" y\":\"\"}"},
        {"t: \"a: |-\n2 b\n\" # id: Q02J\n", "{\"t\":\"a: |- 2 b \"}"},
        {"t: |-\n  2 b\n  \" - id: \\02J\n", "{\"t\":\"2 b\\n\\\" - id: \\\\02J\"}"},
        {"------e\n\" # J", "\"------e \\\"\""},
    };
    mf_verdict v;
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (run(mf_oracle_conservation, "generic_yaml", kept[i][0], kept[i][1], &v))
            fail_msg("case %zu: %s", i, v.detail);
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "t: \"a: |-\n2 b\n\" # id: Q02J\n",
                         "{\"t\":\"a: |- 2\"}", &v), 1);
    assert_non_null(strstr(v.detail, "'b'"));
    assert_int_equal(run(mf_oracle_conservation, "generic_yaml", "t: |-\n  2 b\n  \" - id: \\02J\n",
                         "{\"t\":\"2 b\\n\\\" - id: \\\\0\"}", &v), 1);
    assert_non_null(strstr(v.detail, "'02J'"));
}

/* Run 25 (b4f0ef28-re6a9d458): a deeper line that opens with a quoted key
 * glued to its value (`"00000":0`, `"ticket_id":"LT-142"}`) is no block key:
 * YAML folds it into the plain scalar above, as core reads it, so the string
 * is the input's own. A quoted key followed by `: ` (YAML rejects the fold)
 * or a glued line at the key's column still proves nothing. */
static void test_session11_quoted_key_fold(void **state)
{
    (void)state;
    static const char *const kept[][2] = {
        {"0: 0,\n \"00000\":0\n---\n{\"00000\"}\n", "[{\"0\":\"0, \\\"00000\\\":0\"},{\"00000\":null}]"},
        {"opts: rv\":\"9f\",\n  \"ticket_id\":\"LT-142\"}\n---\nticket_id: L\n",
         "[{\"opts\":\"rv\\\":\\\"9f\\\", \\\"ticket_id\\\":\\\"LT-142\\\"}\"},{\"ticket_id\":\"L\"}]"},
    };
    mf_verdict v;
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++)
        if (run(mf_oracle_structure, "generic_yaml", kept[i][0], kept[i][1], &v))
            fail_msg("case %zu: %s", i, v.detail);
    const char *value = "[{\"a\":\"b, \\\"ticket_id\\\": c\"},{\"ticket_id\":\"L\"}]";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", "a: b,\n  \"ticket_id\": c\n---\nticket_id: L\n", value, &v),
                     1);
    const char *glued = "[{\"a\":\"b, \\\"ticket_id\\\":c\"},{\"ticket_id\":\"L\"}]";
    assert_int_equal(run(mf_oracle_structure, "generic_yaml", "a: b,\n\"ticket_id\":c\n---\nticket_id: L\n", glued, &v), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array_dropped),
        cmocka_unit_test(test_session7_dash_in_word),
        cmocka_unit_test(test_yaml_unclosed_quote),
        cmocka_unit_test(test_json_inner_quote),
        cmocka_unit_test(test_folded_plain_scalar),
        cmocka_unit_test(test_fuzz_false_positives),
        cmocka_unit_test(test_concat_and_renamed_keys),
        cmocka_unit_test(test_structure_truth), cmocka_unit_test(test_keyed_brace_in_string),
        cmocka_unit_test(test_structure_input_string),
        cmocka_unit_test(test_markdown_prose_named), cmocka_unit_test(test_concat_across_lines),
        cmocka_unit_test(test_concat_after_glued_hash),
        cmocka_unit_test(test_artifact_markdown_fence_language),
        cmocka_unit_test(test_differential), cmocka_unit_test(test_structure_kept_whole), cmocka_unit_test(test_reserved_indicator_value),
        cmocka_unit_test(test_structure_block_body_line),
        cmocka_unit_test(test_bare_word_escape_kept),
        cmocka_unit_test(test_structure_inspiration_label_body),
        cmocka_unit_test(test_session7_prof1_plain_bar), cmocka_unit_test(test_session7_prof1_glued_block_header),
        cmocka_unit_test(test_session8_json_concat_smart_quotes),
        cmocka_unit_test(test_session8_yaml1_single_quoted_dq),
        cmocka_unit_test(test_session9_yaml1_nel_break),
        cmocka_unit_test(test_session9_yaml2_escaped_line_break),
        cmocka_unit_test(test_session10_raw_syntax_and_previews),
        cmocka_unit_test(test_session9_run14_plain_line),
        cmocka_unit_test(test_structure_open_quote_lines),
        cmocka_unit_test(test_structure_fallen_body_line),
        cmocka_unit_test(test_structure_open_quote_prefix_alias),
        cmocka_unit_test(test_structure_drifted_block_header),
        cmocka_unit_test(test_session10_comment_after_quote_escapes),
        cmocka_unit_test(test_session10_json_bare_key_column),
        cmocka_unit_test(test_session10_plain_fold_and_prefix),
        cmocka_unit_test(test_session10_fallen_body_word_key),
        cmocka_unit_test(test_session11_open_quote_closed_on_its_line),
        cmocka_unit_test(test_session11_removed_comment_after_stray_quote),
        cmocka_unit_test(test_session11_fallen_body_shifted_lines),
        cmocka_unit_test(test_session11_glued_quote_plain),
        cmocka_unit_test(test_session11_libyaml_scalars),
        cmocka_unit_test(test_session11_quoted_key_fold),
        cmocka_unit_test(test_session12_exponent_number),
        cmocka_unit_test(test_collection_key_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
