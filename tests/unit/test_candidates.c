/* test_candidates.c - the candidate list (names, order, texts, warnings,
 * de-duplication, caps) and prompt-echo detection, checked directly.
 *
 * Pathological inputs (100k fences, 100k tags, 10 MB of brackets, a 4 MB
 * heading run) must stay linear: each is timed against a generous bound that a
 * quadratic scan would blow by orders of magnitude. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "internal.h"

static mf_profile *yaml_p, *json_p;

static int setup(void **state)
{
    (void)state;
    char err[256];
    static const char y[] = "name: test_cand\nformat: yaml\ntag: ARTIFACT\n"
                            "top_level_keys: [schema_version, beads, epics]\n";
    static const char j[] = "name: test_cand_json\nformat: json\ntop_level_keys: [tasks]\n";
    yaml_p = mf_profile_parse(y, sizeof y - 1, "test_cand", err, sizeof err);
    json_p = mf_profile_parse(j, sizeof j - 1, "test_cand_json", err, sizeof err);
    return yaml_p && json_p ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    mf_profile_free(yaml_p);
    mf_profile_free(json_p);
    mf_profiles_shutdown();
    return 0;
}

static mf_candidates build(const mf_profile *p, const char *s)
{
    mf_candidates c;
    assert_int_equal(mf_candidates_build(p, s, strlen(s), &c), 0);
    assert_true(c.count >= 1);
    assert_string_equal(c.items[0].name, "raw");
    return c;
}

/* Candidate i is named `name` with text `text` (NUL-free texts only). */
static void expect(const mf_candidates *c, size_t i, const char *name, const char *text)
{
    assert_true(i < c->count);
    assert_string_equal(c->items[i].name, name);
    assert_int_equal(c->items[i].len, strlen(text));
    assert_memory_equal(c->items[i].text, text, c->items[i].len);
    assert_int_equal(c->items[i].text[c->items[i].len], '\0');
}

/* Candidate i has exactly the given rule ids, in order (NULL-terminated). */
static void expect_rules(const mf_candidates *c, size_t i, ...)
{
    va_list ap;
    va_start(ap, i);
    size_t k = 0;
    for (const char *r; (r = va_arg(ap, const char *)); k++) {
        assert_true(k < c->items[i].warnings.count);
        assert_string_equal(c->items[i].warnings.items[k].rule, r);
        assert_non_null(mf_rules_find(r));
    }
    va_end(ap);
    assert_int_equal(c->items[i].warnings.count, k);
}

static int warn_line(const mf_candidates *c, size_t i, const char *rule)
{
    for (size_t k = 0; k < c->items[i].warnings.count; k++)
        if (strcmp(c->items[i].warnings.items[k].rule, rule) == 0)
            return c->items[i].warnings.items[k].line;
    return -1;
}

static void clean_input_is_one_raw_candidate(void **state)
{
    (void)state;
    mf_candidates c = build(yaml_p, "schema_version: 1\nbeads: []\n");
    assert_int_equal(c.count, 1);
    expect(&c, 0, "raw", "schema_version: 1\nbeads: []\n");
    expect_rules(&c, 0, NULL);
    mf_candidates_free(&c);

    c = build(NULL, "");
    assert_int_equal(c.count, 1);
    expect(&c, 0, "raw", "");
    mf_candidates_free(&c);
}

static void transcript_prefixes(void **state)
{
    (void)state;
    mf_candidates c = build(NULL, "[assistant] a: 1\n[assistant/gpt-4o]   - x\n[SYS] b: 2\n"
                                  "[tool/bash/run] c: 3\n[error]d: 4\n[note] e: 5\n[assistant f: 6\n"
                                  " [user] g: 7\n[model][user] h\n");
    assert_int_equal(c.count, 2);
    expect(&c, 1, "prefix-stripped", "a: 1\n  - x\nb: 2\nc: 3\nd: 4\n[note] e: 5\n[assistant f: 6\n"
                                     " [user] g: 7\nh\n"); /* stacked prefixes all go */
    expect_rules(&c, 0, NULL);
    expect_rules(&c, 1, "cand.transcript-prefix", NULL);
    assert_int_equal(warn_line(&c, 1, "cand.transcript-prefix"), 1);
    assert_non_null(strstr(c.items[1].warnings.items[0].message, "6 lines"));
    mf_candidates_free(&c);
}

static void fences_in_prose(void **state)
{
    (void)state;
    mf_candidates c = build(NULL, "Here you go:\n```python\nx = 1\n```\n\n```YAML\na: 1\n```\n"
                                  "and\n```json\n{\"b\": 2}\n```\n```\nc: 3\n```\n  ```jsonl\nd: 4\n");
    assert_int_equal(c.count, 5);
    expect(&c, 1, "fence", "a: 1\n");
    expect(&c, 2, "fence", "{\"b\": 2}\n");
    expect(&c, 3, "fence", "c: 3\n");
    expect(&c, 4, "fence", "d: 4\n"); /* unclosed: to the end */
    expect_rules(&c, 1, "cand.fence", NULL);
    assert_int_equal(warn_line(&c, 1, "cand.fence"), 6);
    assert_int_equal(warn_line(&c, 4, "cand.fence"), 16);
    assert_non_null(strstr(c.items[4].warnings.items[0].message, "no closing fence"));
    mf_candidates_free(&c);

    /* a fence in a YAML block scalar is text, also under a header damage quoted (`hint: ''|-''`) */
    static const char *const headers[] = {"hint: |-", "hint: \"|-\"", "hint: ''|-''", "- '>'", NULL};
    for (int k = 0; headers[k]; k++) {
        char text[128];
        snprintf(text, sizeof text, "%s\n  ```yaml\n  x: 1\n  ```\n", headers[k]);
        c = build(NULL, text);
        for (size_t i = 0; i < c.count; i++)
            if (!strcmp(c.items[i].name, "fence"))
                fail_msg("fence candidate under '%s'", headers[k]);
        mf_candidates_free(&c);
    }
    /* a quoted value that is no header: its fence is a payload */
    c = build(NULL, "note: \"see|\"\n```yaml\nx: 1\n```\n");
    expect(&c, c.count - 1, "fence", "x: 1\n");
    mf_candidates_free(&c);
}

static void fence_with_prefixes_and_dedupe(void **state)
{
    (void)state;
    /* raw fence keeps the prefixes; the stripped fence is clean; a repeated
     * fence and the stripped copy of a prefix-free fence are listed once */
    mf_candidates c = build(NULL, "[assistant] ```yaml\n[assistant] a: 1\n[assistant] ```\n"
                                  "```yaml\nb: 2\n```\n```yaml\nb: 2\n```\n");
    expect(&c, 0, "raw", "[assistant] ```yaml\n[assistant] a: 1\n[assistant] ```\n"
                         "```yaml\nb: 2\n```\n```yaml\nb: 2\n```\n");
    expect(&c, 1, "prefix-stripped", "```yaml\na: 1\n```\n```yaml\nb: 2\n```\n```yaml\nb: 2\n```\n");
    expect(&c, 2, "fence", "b: 2\n");
    expect(&c, 3, "fence+prefix-stripped", "a: 1\n");
    assert_int_equal(c.count, 4);
    mf_candidates_free(&c);

    c = build(NULL, "```yaml\nb: 2\n```\n```yaml\nb: 2\n```\n[user] hi\n");
    assert_int_equal(c.count, 3);
    expect(&c, 1, "prefix-stripped", "```yaml\nb: 2\n```\n```yaml\nb: 2\n```\nhi\n");
    expect(&c, 2, "fence", "b: 2\n");
    expect_rules(&c, 2, "cand.fence", NULL);
    mf_candidates_free(&c);
}

static void tags_and_truncated_tag(void **state)
{
    (void)state;
    mf_candidates c = build(yaml_p, "Done.\n<ARTIFACT>\na: 1\n</ARTIFACT>\nx <ARTIFACT v=\"2\">b: 2</ARTIFACT >\n"
                                    "<ARTIFACTS>no</ARTIFACTS>\n<ARTIFACT>\nc: 3\n<ARTIFACT>\nd: 4\n");
    assert_int_equal(c.count, 4);
    expect(&c, 1, "tag", "\na: 1\n");
    expect(&c, 2, "tag", "b: 2");
    expect(&c, 3, "tag-truncated", "\nd: 4\n");
    expect_rules(&c, 1, "cand.tag", NULL);
    assert_int_equal(warn_line(&c, 1, "cand.tag"), 2);
    expect_rules(&c, 3, "cand.tag-truncated", NULL);
    assert_int_equal(warn_line(&c, 3, "cand.tag-truncated"), 9);
    mf_candidates_free(&c);

    /* only an opening tag */
    c = build(yaml_p, "<ARTIFACT>\nschema_version: 1\n");
    assert_int_equal(c.count, 3);
    expect(&c, 1, "tag-truncated", "\nschema_version: 1\n");
    expect(&c, 2, "anchor", "schema_version: 1\n");
    mf_candidates_free(&c);

    /* no tag in the profile: no tag candidates */
    c = build(NULL, "<ARTIFACT>a: 1</ARTIFACT>");
    assert_int_equal(c.count, 1);
    mf_candidates_free(&c);
}

static void anchor_from_top_level_key(void **state)
{
    (void)state;
    mf_candidates c = build(yaml_p, "Sure, here it is:\n\n  beads: no\nbeadsx: as below.\nbeads:\n  - id: a\n");
    assert_int_equal(c.count, 2);
    expect(&c, 1, "anchor", "beads:\n  - id: a\n");
    expect_rules(&c, 1, "cand.anchor", NULL);
    assert_int_equal(warn_line(&c, 1, "cand.anchor"), 5);
    mf_candidates_free(&c);

    c = build(yaml_p, "[assistant] Sure:\n[assistant] epics: []\n");
    assert_int_equal(c.count, 3);
    expect(&c, 1, "prefix-stripped", "Sure:\nepics: []\n");
    expect(&c, 2, "anchor+prefix-stripped", "epics: []\n");
    expect_rules(&c, 2, "cand.transcript-prefix", "cand.anchor", NULL);
    mf_candidates_free(&c);

    /* a key behind a transcript prefix above the anchor: the raw anchor
     * would drop it, so only the prefix-stripped text is anchored */
    c = build(yaml_p, "Intro\n[tool] epics: []\nbeads:\n  - id: a\n");
    for (size_t i = 0; i < c.count; i++)
        assert_string_not_equal(c.items[i].name, "anchor");
    expect(&c, c.count - 1, "anchor+prefix-stripped", "epics: []\nbeads:\n  - id: a\n");
    mf_candidates_free(&c);

    /* a data entry above the anchor (`ticket_id: T-7`, a key the profile does
     * not list) would be dropped: no anchor; a "Word: sentence." line is prose */
    c = build(yaml_p, "ticket_id: T-7\n<output>\nbeads:\n  - id: a\n");
    for (size_t i = 0; i < c.count; i++)
        assert_string_not_equal(c.items[i].name, "anchor");
    mf_candidates_free(&c);
    c = build(yaml_p, "Note: the plan follows.\n<output>\nbeads:\n  - id: a\n");
    expect(&c, c.count - 1, "anchor", "beads:\n  - id: a\n");
    mf_candidates_free(&c);
}

static void terminal_noise(void **state)
{
    (void)state;
    mf_candidates c = build(NULL, "a: 1\nb: 2\n\x1b[0m\x1b[201~\n\x07\n");
    assert_int_equal(c.count, 1);
    expect(&c, 0, "raw", "a: 1\nb: 2\n");
    expect_rules(&c, 0, "cand.terminal-noise", NULL);
    assert_int_equal(warn_line(&c, 0, "cand.terminal-noise"), 3);
    mf_candidates_free(&c);

    c = build(NULL, "a: 1\nb: 2 \x1b[31;1m[200~\x7f");
    expect(&c, 0, "raw", "a: 1\nb: 2");
    expect_rules(&c, 0, "cand.terminal-noise", NULL);
    mf_candidates_free(&c);

    /* noise before real content is content's business, not trailing noise */
    c = build(NULL, "a: \x1b[1mX\x1b[0m\nb: 2\n");
    expect(&c, 0, "raw", "a: \x1b[1mX\x1b[0m\nb: 2\n");
    expect_rules(&c, 0, NULL);
    mf_candidates_free(&c);

    /* JSON: noise after the root value */
    c = build(json_p, "{\"a\": [1]}\x1b[?2004l\r\n");
    expect(&c, 0, "raw", "{\"a\": [1]}\n");
    expect_rules(&c, 0, "cand.terminal-noise", NULL);
    mf_candidates_free(&c);

    /* only noise: raw becomes empty but stays first */
    c = build(NULL, "\x1b[0m\x01");
    assert_int_equal(c.count, 1);
    expect(&c, 0, "raw", "");
    mf_candidates_free(&c);
}

static void orphan_fence(void **state)
{
    (void)state;
    mf_candidates c = build(NULL, "a: 1\nb: 2\n```\n\n");
    assert_int_equal(c.count, 1);
    expect(&c, 0, "raw", "a: 1\nb: 2\n");
    expect_rules(&c, 0, "cand.orphan-fence", NULL);
    assert_int_equal(warn_line(&c, 0, "cand.orphan-fence"), 3);
    mf_candidates_free(&c);

    /* fence then noise, noise then fence: both trimmed, each warned once */
    c = build(NULL, "a: 1\n```\n\x1b[201~");
    expect(&c, 0, "raw", "a: 1\n");
    expect_rules(&c, 0, "cand.terminal-noise", "cand.orphan-fence", NULL);
    mf_candidates_free(&c);
    c = build(NULL, "a: 1\x1b[0m\n```\n");    /* the noise before the fence line goes first */
    expect(&c, 0, "raw", "a: 1\n");
    expect_rules(&c, 0, "cand.terminal-noise", "cand.orphan-fence", NULL);
    mf_candidates_free(&c);

    /* noise before a closing tag: cut, the tag line stays for yaml.xml-tag-lines */
    c = build(NULL, "<yaml>\na: 1\n\x1b[?25h\x1b[0m\n</yaml>\n");
    expect(&c, 0, "raw", "<yaml>\na: 1\n</yaml>\n");
    expect_rules(&c, 0, "cand.terminal-noise", NULL);
    mf_candidates_free(&c);

    /* prose below a noise line, inside a tag envelope, after an orphan fence */
    c = build(NULL, "a: 1\nb: x\n\x1b[32m\x1b[0m\n\nHope this helps!\n");
    expect(&c, 0, "raw", "a: 1\nb: x\n");
    expect_rules(&c, 0, "cand.trailing-prose", "cand.terminal-noise", NULL);
    mf_candidates_free(&c);
    c = build(NULL, "<yaml>\na: 1\n\nLet me know if you would like any changes.\n</yaml>\n");
    expect(&c, 0, "raw", "<yaml>\na: 1\n\n");
    expect_rules(&c, 0, "cand.trailing-prose", NULL);
    mf_candidates_free(&c);
    c = build(NULL, "a: 1\nb: x\x1b[0m\n```\n\nDone.\n");
    expect(&c, 0, "raw", "a: 1\nb: x\n");
    expect_rules(&c, 0, "cand.trailing-prose", "cand.terminal-noise", "cand.orphan-fence", NULL);
    mf_candidates_free(&c);

    /* a closing line above the prose is not skipped: a caption before a fenced sentence stays */
    c = build(NULL, "Here it is:\n```\nDone.\n```\n");
    expect(&c, 0, "raw", "Here it is:\n```\nDone.\n```\n");
    mf_candidates_free(&c);

    /* a closing fence with an opener above is not an orphan */
    c = build(NULL, "```yaml\na: 1\n```\n");
    expect(&c, 0, "raw", "```yaml\na: 1\n```\n");
    expect_rules(&c, 0, NULL);
    expect(&c, 1, "fence", "a: 1\n");
    mf_candidates_free(&c);

    /* fences inside a YAML block scalar open nothing: a bare fence at the end is still an orphan */
    c = build(NULL, "hint: |-\n  ```\n  plain fence\n  ```\nitems: null\n```\n");
    expect(&c, 0, "raw", "hint: |-\n  ```\n  plain fence\n  ```\nitems: null\n");
    expect_rules(&c, 0, "cand.orphan-fence", NULL);
    mf_candidates_free(&c);

    /* nor is the block's own last line */
    c = build(NULL, "title: '|'\n  Here:\n  ```json\n  {\"a\": 1}\n  ```\n");
    expect(&c, 0, "raw", "title: '|'\n  Here:\n  ```json\n  {\"a\": 1}\n  ```\n");
    expect_rules(&c, 0, NULL);
    mf_candidates_free(&c);

    /* ```yaml as the last line is not a closing fence */
    c = build(NULL, "a: 1\n```yaml\n");
    expect(&c, 0, "raw", "a: 1\n```yaml\n");
    expect_rules(&c, 0, NULL);
    mf_candidates_free(&c);
}

static void json_balanced_and_span(void **state)
{
    (void)state;
    mf_candidates c = build(json_p, "Result: {\"a\": [1, \"}]\\\"{\"]} and {\"b\": {\"c\": 1}} and {x");
    expect(&c, 1, "json-balanced", "{\"a\": [1, \"}]\\\"{\"]}");
    expect(&c, 2, "json-balanced", "{\"b\": {\"c\": 1}}");
    expect_rules(&c, 1, "cand.json-balanced", NULL);
    /* nested {"c": 1} is not outermost; no span: "{x" follows the last '}' */
    assert_int_equal(c.count, 3);
    mf_candidates_free(&c);

    /* an unclosed prose brace does not hide the object inside it */
    c = build(json_p, "Note { it's \"here\": {\"tasks\": [{\"id\": 1}]} done");
    expect(&c, 1, "json-balanced", "{\"tasks\": [{\"id\": 1}]}");
    mf_candidates_free(&c);

    /* truncated JSON: no fragment of it is offered (it would parse strictly) */
    c = build(json_p, "Out: {\"tasks\": [{\"id\": 1}, {\"id\": 2}], \"more\": \"tru");
    for (size_t i = 1; i < c.count; i++)
        assert_string_not_equal(c.items[i].name, "json-balanced");
    assert_int_equal(c.count, 2); /* nor a span ending inside it: only the cut artifact to the end */
    expect(&c, 1, "json-span", "{\"tasks\": [{\"id\": 1}, {\"id\": 2}], \"more\": \"tru");
    mf_candidates_free(&c);

    /* arrays at the root; quotes in prose outside brackets are ignored */
    c = build(json_p, "The \"answer\" is:\n[{\"a\": 1}, {\"b\": 2}]\nThanks!");
    expect(&c, 1, "json-balanced", "[{\"a\": 1}, {\"b\": 2}]");
    assert_int_equal(warn_line(&c, 1, "cand.json-balanced"), 2);
    assert_int_equal(c.count, 2); /* the '['..']' span is the same text */
    mf_candidates_free(&c);

    /* concatenated values / JSON Lines are one artifact, never split */
    c = build(json_p, "{\"a\": 1}{\"b\": 2}\n");
    assert_int_equal(c.count, 1);
    mf_candidates_free(&c);
    c = build(json_p, "Lines:\n{\"a\": 1}\n{\"b\": [2]},\n\nDone. Also {\"c\": 3}");
    expect(&c, 1, "json-balanced", "{\"a\": 1}\n{\"b\": [2]}");
    expect(&c, 2, "json-balanced", "{\"c\": 3}");
    mf_candidates_free(&c);

    /* span of the second kind only when the first kind closed before it */
    c = build(json_p, "See [1] below: {\"a\": \"5\" x\", \"n\": 1}\n");
    expect(&c, 1, "json-balanced", "[1]");
    expect(&c, 2, "json-span", "{\"a\": \"5\" x\", \"n\": 1}");
    expect_rules(&c, 2, "cand.json-span", NULL);
    assert_int_equal(c.count, 3);
    mf_candidates_free(&c);
    c = build(json_p, "[{\"a\": 1}");
    assert_int_equal(c.count, 1); /* truncated array: no '{' fragment */
    mf_candidates_free(&c);
    c = build(json_p, "x {\"a\": 1}, {\"b\": tru");
    assert_int_equal(c.count, 1); /* truncated concatenation: no head, no span */
    mf_candidates_free(&c);

    /* terminal noise after the last closer (an ANSI sequence, paste markers) is no structure */
    c = build(json_p, "Here it is.\n{\"a\": [1}\n\x1b[0m");
    expect(&c, c.count - 1, "json-span", "{\"a\": [1}");
    mf_candidates_free(&c);
    c = build(json_p, "{\"a\": [1}\n[200~[201~\n\nThis covers it.");
    expect(&c, c.count - 1, "json-span", "{\"a\": [1}");
    mf_candidates_free(&c);

    /* a span that starts with a transcript role prefix is the prefix, not a value: only the
     * prefix-stripped text is extracted */
    c = build(json_p, "[error] Done, see below\n[error] {\n[error]   \"a\": 1\n[error] }\n[error] ok\n");
    for (size_t i = 0; i < c.count; i++)
        if (!strcmp(c.items[i].name, "json-balanced") || !strcmp(c.items[i].name, "json-span"))
            fail_msg("%s from the prefixed text: %s", c.items[i].name, c.items[i].text);
    expect(&c, c.count - 1, "json-balanced+prefix-stripped", "{\n  \"a\": 1\n}");
    mf_candidates_free(&c);

    /* JSON anchor on a "key": line */
    c = build(json_p, "Plan:\n  \"tasks\": [1]\n}");
    expect(&c, 1, "anchor", "  \"tasks\": [1]\n}");
    mf_candidates_free(&c);

    /* YAML profiles get no JSON candidates */
    c = build(yaml_p, "x {\"a\": 1} y");
    assert_int_equal(c.count, 1);
    mf_candidates_free(&c);
}


static char *repeat(const char *unit, size_t times, size_t *len)
{
    size_t ul = strlen(unit);
    char *s = malloc(ul * times + 1);
    assert_non_null(s);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * ul, unit, ul);
    s[ul * times] = '\0';
    *len = ul * times;
    return s;
}

static void count_kind(const mf_candidates *c, const char *name, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < c->count; i++)
        *n += strcmp(c->items[i].name, name) == 0;
}

static void pathological_inputs_are_capped_and_linear(void **state)
{
    (void)state;
    size_t len, n;
    mf_candidates c;

    /* 100k distinct fences, prefixed lines too: 4.6 MB */
    mf_buf b = {0};
    for (int i = 0; i < 100000; i++)
        mf_buf_printf(&b, "[assistant] ```yaml\nk%d: v\n```\n", i);
    assert_int_equal(mf_candidates_build(yaml_p, b.s, b.len, &c), 0);
    assert_true(c.count <= 64);
    count_kind(&c, "fence", &n);
    assert_true(n <= 12);
    count_kind(&c, "fence+prefix-stripped", &n);
    assert_true(n >= 1 && n <= 12);
    mf_candidates_free(&c);
    mf_buf_free(&b);

    /* 100k tags */
    char *s = repeat("<ARTIFACT>a: 1</ARTIFACT><ARTIFACT>", 100000, &len);
    assert_int_equal(mf_candidates_build(yaml_p, s, len, &c), 0);
    assert_true(c.count <= 64);
    mf_candidates_free(&c);
    free(s);

    /* 10 MB of open brackets, then of tiny balanced pairs, for JSON */
    s = repeat("{[", 5u << 20, &len);
    assert_int_equal(mf_candidates_build(json_p, s, len, &c), 0);
    mf_candidates_free(&c);
    free(s);
    s = repeat("[]{} x", 2u << 20, &len);
    assert_int_equal(mf_candidates_build(json_p, s, len, &c), 0);
    count_kind(&c, "json-balanced", &n);
    assert_true(n <= 6);
    mf_candidates_free(&c);
    free(s);

    /* 10 MB of '[' (prefix and paste-marker look-alikes) and of noise bytes */
    s = repeat("[assistan[200[", 1u << 19, &len);
    assert_int_equal(mf_candidates_build(json_p, s, len, &c), 0);
    mf_candidates_free(&c);
    free(s);
    s = repeat("\x1b[1;2;3", 1u << 20, &len);
    assert_int_equal(mf_candidates_build(yaml_p, s, len, &c), 0);
    mf_candidates_free(&c);
    free(s);

    /* one 4 MB line of '#' and of "## Tas" for echo detection */
    mf_error e = {0};
    s = repeat("#", 4u << 20, &len);
    assert_false(mf_echo_detect(yaml_p, s, len, &e));
    free(s);
    s = repeat("## TasCONTEXT REFRESH", 200000, &len);
    assert_false(mf_echo_detect(yaml_p, s, len, &e));
    free(s);
}

static void echo_markers(void **state)
{
    (void)state;
    mf_error e = {0};
    const char *hard_soft = "You are a planner.\n\n## System Role\nPlan.\nCRITICAL OUTPUT RULE: YAML only\n";
    assert_true(mf_echo_detect(NULL, hard_soft, strlen(hard_soft), &e));
    assert_int_equal(e.tier, 1);
    assert_string_equal(e.type, "PROMPT_ECHO");
    assert_int_equal(e.line, 3);
    assert_int_equal(e.column, 1);
    assert_non_null(strstr(e.message, "CRITICAL OUTPUT RULE:"));
    assert_non_null(strstr(e.message, "## System Role"));
    mf_error_clear(&e);

    const char *two_hard = "x: 1 CONTEXT REFRESH: and CRITICAL OUTPUT RULE: y";
    assert_true(mf_echo_detect(yaml_p, two_hard, strlen(two_hard), &e));
    assert_int_equal(e.column, 6);
    mf_error_clear(&e);

    static const char *const innocent[] = {
        "CRITICAL OUTPUT RULE: only this\nnotes: fine\n",             /* hard alone */
        "## Task\n## Context\n## Instructions\n",                     /* soft only */
        "notes: |\n  ## Task\n  do it\n",                             /* one soft marker */
        "### Tasks\n#### Context\n## Tasking\nCONTEXT REFRESH: x\n",  /* near misses */
        "",
    };
    for (size_t i = 0; i < sizeof innocent / sizeof *innocent; i++) {
        assert_false(mf_echo_detect(yaml_p, innocent[i], strlen(innocent[i]), &e));
        assert_int_equal(e.tier, 0);
    }
}

static void echo_schema(void **state)
{
    (void)state;
    mf_error e = {0};
    const char *s = "schema_version: 1\nbeads: []\n\n## Expected Output Format\n```yaml\n";
    assert_true(mf_echo_detect(yaml_p, s, strlen(s), &e));
    assert_string_equal(e.type, "PROMPT_ECHO");
    assert_int_equal(e.line, 4);
    assert_non_null(strstr(e.message, "schema"));
    mf_error_clear(&e);

    s = "\n  epics:\n# Ticket: T-1\n";
    assert_true(mf_echo_detect(yaml_p, s, strlen(s), &e));
    assert_int_equal(e.line, 3);
    mf_error_clear(&e);

    s = "{\n  \"tasks\": [],\n  \"note\": \"## Expected Output Format\"}";
    assert_true(mf_echo_detect(json_p, s, strlen(s), &e));
    assert_int_equal(e.line, 3);
    mf_error_clear(&e);

    /* no root key first, or a profile without top-level keys: no schema echo */
    s = "Here:\nschema_version: 1\n### ticket_details\n";
    assert_false(mf_echo_detect(yaml_p, s, strlen(s), &e));
    s = "schema_version: 1\n### ticket_details\n";
    assert_false(mf_echo_detect(mf_profiles_get("generic_yaml"), s, strlen(s), &e));
    s = "schema_versionx: 1\n### ticket_details\n";
    assert_false(mf_echo_detect(yaml_p, s, strlen(s), &e));
    s = "schema_version: 1\n#### ticket_details\n## Ticket: x\n";
    assert_false(mf_echo_detect(yaml_p, s, strlen(s), &e));
}

static void rules_registered(void **state)
{
    (void)state;
    static const char *const ids[] = {"cand.recovered", "cand.transcript-prefix", "cand.terminal-noise",
                                      "cand.orphan-fence", "cand.fence", "cand.tag", "cand.tag-truncated",
                                      "cand.anchor", "cand.json-balanced", "cand.json-span",
                                      "echo.prompt"};
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++) {
        const mf_rule *r = mf_rules_find(ids[i]);
        assert_non_null(r);
        assert_true(strlen(r->section) > 0 && strlen(r->description) > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(clean_input_is_one_raw_candidate),
        cmocka_unit_test(transcript_prefixes),
        cmocka_unit_test(fences_in_prose),
        cmocka_unit_test(fence_with_prefixes_and_dedupe),
        cmocka_unit_test(tags_and_truncated_tag),
        cmocka_unit_test(anchor_from_top_level_key),
        cmocka_unit_test(terminal_noise),
        cmocka_unit_test(orphan_fence),
        cmocka_unit_test(json_balanced_and_span),
        cmocka_unit_test(pathological_inputs_are_capped_and_linear),
        cmocka_unit_test(echo_markers),
        cmocka_unit_test(echo_schema),
        cmocka_unit_test(rules_registered),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
