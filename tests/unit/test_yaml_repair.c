/* test_yaml_repair.c - the YAML structural repairs (seed 000 #1-#17), rule by rule.
 *
 * Every rule is applied directly to every yaml.* fixture input: applying it to
 * its own output changes nothing (idempotence), its return value equals the
 * warnings it added, and each warning names the rule and a line. Each rule
 * fires on its own positive fixtures once the earlier rules have run, and stays
 * quiet on its `expect_no_rule` fixtures. A few exact rewrites (escaping, CRLF,
 * Windows paths, negative numbers, URLs) are checked byte for byte. Finally
 * pathological inputs (200k lines, a 2 MB line, 100k nested dashes, 100k
 * duplicate or unclosed lines) go through every rule: a quadratic rule would
 * make the test time out. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "internal.h"
#include "yaml_repair.h"

#define RULES_DIR MALFORM_SOURCE_DIR "/tests/fixtures/rules"
#define PROFILES_DIR MALFORM_SOURCE_DIR "/tests/fixtures/profiles"

static mf_profile *nested_p;

static int setup(void **state)
{
    (void)state;
    char err[256];
    nested_p = mf_profile_load_file(PROFILES_DIR "/test_nested.yaml", err, sizeof err);
    if (!nested_p)
        fprintf(stderr, "%s\n", err);
    return nested_p ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    mf_profile_free(nested_p);
    mf_profiles_shutdown();
    return 0;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    mf_buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        assert_int_equal(mf_buf_put(&b, chunk, n), 0);
    fclose(f);
    *len = b.len;
    return mf_buf_detach(&b);
}

/* One fixture case: input text, the profile it runs under, whether its rule must stay quiet. */
typedef struct {
    char rule[256];
    char name[256];
    char *text;
    size_t len;
    const mf_profile *p;
    bool no_rule;   /* expect_no_rule, or a .reject case without expect_rule: the rule must not fire */
} fx_case;

static fx_case *cases;
static size_t ncases;

static void load_cases(void)
{
    if (cases)
        return;
    DIR *d = opendir(RULES_DIR);
    assert_non_null(d);
    struct dirent *de;
    size_t cap = 0;
    while ((de = readdir(d)) != NULL) {
        if (strncmp(de->d_name, "yaml.", 5) != 0)
            continue;
        char dir[512];
        snprintf(dir, sizeof dir, "%s/%s", RULES_DIR, de->d_name);
        DIR *rd = opendir(dir);
        assert_non_null(rd);
        struct dirent *fe;
        while ((fe = readdir(rd)) != NULL) {
            size_t fl = strlen(fe->d_name);
            if (fl < 4 || strcmp(fe->d_name + fl - 3, ".in") != 0)
                continue;
            if (ncases == cap) {
                cap = cap ? cap * 2 : 64;
                cases = realloc(cases, cap * sizeof *cases);
                assert_non_null(cases);
            }
            fx_case *c = &cases[ncases++];
            memset(c, 0, sizeof *c);
            snprintf(c->rule, sizeof c->rule, "%s", de->d_name);
            snprintf(c->name, sizeof c->name, "%.*s", (int)(fl - 3), fe->d_name);
            char path[1024];
            snprintf(path, sizeof path, "%s/%s", dir, fe->d_name);
            c->text = slurp(path, &c->len);
            assert_non_null(c->text);
            snprintf(path, sizeof path, "%s/%s.opts.json", dir, c->name);
            json_t *o = json_load_file(path, 0, NULL);
            const char *pn = json_string_value(json_object_get(o, "profile"));
            c->p = pn && strcmp(pn, "test_nested") == 0 ? nested_p : mf_profiles_get(pn ? pn : "generic_yaml");
            c->no_rule = json_is_true(json_object_get(o, "expect_no_rule"));
            snprintf(path, sizeof path, "%s/%s.reject", dir, c->name);
            FILE *rf = fopen(path, "rb");
            if (rf) { /* a rejected text: the rule stays quiet unless the case says it fires first */
                c->no_rule = !json_is_true(json_object_get(o, "expect_rule"));
                fclose(rf);
            }
            json_decref(o);
        }
        closedir(rd);
    }
    closedir(d);
    assert_true(ncases > 0);
}

static void free_cases(void)
{
    for (size_t i = 0; i < ncases; i++)
        free(cases[i].text);
    free(cases);
    cases = NULL;
    ncases = 0;
}

/* Apply rule r to text; checks the return value against the warnings added. */
static size_t apply(const mf_text_rule *r, const char *text, size_t len, const mf_profile *p, mf_buf *out)
{
    mf_warnings w = {0};
    mf_buf_reset(out);
    size_t n = r->fn(text, len, out, p, &w);
    assert_int_equal(mf_warnings_total(&w), n);
    for (size_t i = 0; i < w.count; i++) {
        assert_ptr_equal(w.items[i].rule, r->rule_id);
        assert_true(w.items[i].line >= 1);
        assert_non_null(w.items[i].message);
    }
    if (n == 0) {
        assert_int_equal(out->len, len);
        assert_memory_equal(mf_buf_cstr(out), text, len);
    }
    mf_warnings_clear(&w);
    return n;
}

static void test_tables(void **state)
{
    (void)state;
    size_t nrules = 0, nfix = 0;
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const mf_rule *r = mf_rules_at(i);
        if (strncmp(r->id, "yaml.", 5))
            continue;
        nrules++;
        assert_non_null(r->section);
        assert_non_null(r->description);
        assert_ptr_equal(mf_rules_find(r->id), r);
    }
    for (const mf_text_rule *t = mf_yaml_repairs; t->rule_id; t++) {
        nfix++;
        assert_true(t->group >= 1 && t->group <= MF_YAML_GROUPS);
        const mf_rule *r = mf_rules_find(t->rule_id);
        assert_non_null(r);
        assert_string_equal(r->id, t->rule_id);
        if (t != mf_yaml_repairs)
            assert_true(t[-1].group <= t->group);
    }
    assert_int_equal(nrules, nfix);
    assert_int_equal(nrules, 28);
}

/* Every rule on every yaml fixture input: twice equals once. */
static void test_idempotent_on_fixtures(void **state)
{
    (void)state;
    load_cases();
    mf_buf once = {0}, twice = {0};
    for (size_t i = 0; i < ncases; i++) {
        for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
            apply(r, cases[i].text, cases[i].len, cases[i].p, &once);
            size_t n = apply(r, mf_buf_cstr(&once), once.len, cases[i].p, &twice);
            if (n != 0 || twice.len != once.len || memcmp(mf_buf_cstr(&once), mf_buf_cstr(&twice), once.len) != 0)
                fail_msg("%s on %s/%s: second application changed the text", r->rule_id, cases[i].rule,
                         cases[i].name);
        }
    }
    mf_buf_free(&once);
    mf_buf_free(&twice);
}

/* Each rule fires on its positive fixtures (after the rules before it ran) and not on its negatives. */
static void test_rules_fire_on_own_fixtures(void **state)
{
    (void)state;
    load_cases();
    mf_buf text = {0}, out = {0};
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
        size_t positives = 0, fired = 0;
        for (size_t i = 0; i < ncases; i++) {
            const fx_case *c = &cases[i];
            if (strcmp(c->rule, r->rule_id) != 0)
                continue;
            mf_buf_reset(&text);
            mf_buf_put(&text, c->text, c->len);
            for (const mf_text_rule *q = mf_yaml_repairs; q != r; q++) {
                if (apply(q, mf_buf_cstr(&text), text.len, c->p, &out)) {
                    mf_buf tmp = text;
                    text = out;
                    out = tmp;
                }
            }
            size_t n = apply(r, mf_buf_cstr(&text), text.len, c->p, &out);
            if (c->no_rule && n)
                fail_msg("%s fired on its negative fixture %s", r->rule_id, c->name);
            if (!c->no_rule) {
                positives++;
                fired += n > 0;
                if (!n)
                    fail_msg("%s did not fire on its fixture %s", r->rule_id, c->name);
            }
        }
        if (!positives || fired != positives)
            fail_msg("%s: %zu of %zu positive fixtures fired", r->rule_id, fired, positives);
    }
    mf_buf_free(&text);
    mf_buf_free(&out);
}

static const mf_text_rule *rule(const char *id)
{
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++)
        if (strcmp(r->rule_id, id) == 0)
            return r;
    fail_msg("no rule %s", id);
    return NULL;
}

/* Rule id on input gives exactly `want` (with `changes` change sites). */
static void expect_rewrite(const char *id, const mf_profile *p, const char *in, const char *want, size_t changes)
{
    mf_buf out = {0};
    size_t n = apply(rule(id), in, strlen(in), p, &out);
    assert_string_equal(mf_buf_cstr(&out), want);
    assert_int_equal(n, changes);
    mf_buf_free(&out);
}

static void test_exact_rewrites(void **state)
{
    (void)state;
    const mf_profile *g = mf_profiles_get("generic_yaml");
    expect_rewrite("yaml.colon-space", g, "- id:Q01\r\n  skipped:false\r\n", "- id: Q01\r\n  skipped: false\r\n", 2);
    expect_rewrite("yaml.colon-space", g, "path: C:\\x\n- C:\\y\nurl: http://x\n- http://y\n",
                   "path: C:\\x\n- C:\\y\nurl: http://x\n- http://y\n", 0);
    expect_rewrite("yaml.colon-space", g, "-key:value", "-key: value", 1);
    expect_rewrite("yaml.dash-space", g, "-key: value\n- -5\n- -1.5\n---\n-x:\n", "- key: value\n- -5\n- -1.5\n---\n- x:\n", 2);
    expect_rewrite("yaml.plain-colon", g, "a: b \"c\": d\\e\n", "a: \"b \\\"c\\\": d\\\\e\"\n", 1);
    expect_rewrite("yaml.plain-colon", g, "a: \"b: c\"\nd: 'e: f'\ng: h # i: j\n", "a: \"b: c\"\nd: 'e: f'\ng: h # i: j\n", 0);
    expect_rewrite("yaml.plain-colon", g, "t: |\n  a: b: c\nu: v\n", "t: |\n  a: b: c\nu: v\n", 0);
    expect_rewrite("yaml.reserved-indicator", g, "- @a\n- `b`\n", "- \"@a\"\n- \"`b`\"\n", 2);
    expect_rewrite("yaml.invalid-escape", g, "a: \"x\\qy\\n\\u12\"\n", "a: \"x\\\\qy\\n\\\\u12\"\n", 1);
    expect_rewrite("yaml.invalid-escape", g, "a: x\\q\nb: 'y\\q'\n", "a: x\\q\nb: 'y\\q'\n", 0);
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\\\nb: 1", "a: \"x\\\\\"\nb: 1", 1);
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\n  y\"\n", "a: \"x\n  y\"\n", 0);
    /* the next line is plain text at the key's column, not a new key: the quote's end is unknown */
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\nfoo bar\n", "a: \"x\nfoo bar\n", 0);
    /* YAML's own reading holds: the next quote closes the value at the end of its line */
    expect_rewrite("yaml.unclosed-quote", g, "a: \"\nb: 'c\"\nd: 1\n", "a: \"\nb: 'c\"\nd: 1\n", 0);
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\nb: \"c\" d\n", "a: \"x\"\nb: \"c\" d\n", 1);
    /* deeper text lines then a key: the value runs over them and closes before the key */
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\n  y \nb: \"c\" d\n", "a: \"x\n  y\"\nb: \"c\" d\n", 1);
    expect_rewrite("yaml.unclosed-quote", g, "a: \"x\n  y\nfoo\n", "a: \"x\n  y\nfoo\n", 0);
    expect_rewrite("yaml.quoted-fragment", g, "- \"k\": v\n- 'a' # c\n", "- \"k\": v\n- 'a' # c\n", 0);
    expect_rewrite("yaml.xml-tag-lines", g, "<a>\nb: 1\n</a>", "b: 1", 2);
    expect_rewrite("yaml.code-fence", g, "```yaml\na: 1\n```", "a: 1\n", 1);
    expect_rewrite("yaml.code-fence", g, "```python\na: 1\n```", "```python\na: 1\n```", 0);
    /* CommonMark closers: a fence inside a block scalar body is payload, a
     * shorter one cannot close a longer opener, and a closer before the end means two blocks */
    expect_rewrite("yaml.code-fence", g, "```yaml\nd: |\n  ```bash\n  make\n  ```\nnext: 1\n```\n",
                   "d: |\n  ```bash\n  make\n  ```\nnext: 1\n", 1);
    expect_rewrite("yaml.code-fence", g, "````yaml\na: 1\n```\n````", "a: 1\n```\n", 1);
    expect_rewrite("yaml.code-fence", g, "```yaml\na: 1\n```\n```yaml\nb: 2\n```\n",
                   "```yaml\na: 1\n```\n```yaml\nb: 2\n```\n", 0);
    expect_rewrite("yaml.xml-tag-lines", g, "a: text\n  <b>\nc: \"x\n  <i>\n  y\"\n<end/>\n",
                   "a: text\n  <b>\nc: \"x\n  <i>\n  y\"\n", 1);
    expect_rewrite("yaml.item-colon", g, "- a\n- B c: d # e\n", "- a\n- \"B c: d\" # e\n", 1);
    expect_rewrite("yaml.doubled-quotes", g, "a: \"\"x\"\"\nb: \"\"x\\\"\"\"\n", "a: \"x\"\nb: \"\"x\\\"\"\"\n", 1);
    expect_rewrite("yaml.inline-known-keys", g, "- a: 1\n  b: 2\n- a: x y b: z w\n", "- a: 1\n  b: 2\n- a: x y\n  b: z w\n", 1);
    expect_rewrite("yaml.duplicate-key", g, "a: 1\nb:\n  a: 1\na: 1\n", "a: 1\nb:\n  a: 1\n", 1);
    expect_rewrite("yaml.duplicate-key", g, "- a: 1\n- a: 1\n", "- a: 1\n- a: 1\n", 0);
    expect_rewrite("yaml.duplicate-key", g, "a:\n  x: 1\na:\n  x: 2\n", "a:\n  x: 1\na:\n  x: 2\n", 0);
    expect_rewrite("yaml.inline-keys", nested_p, "- progress: current: 4 total: 17\n",
                   "- progress:\n    current: 4\n    total: 17\n", 1);
    expect_rewrite("yaml.inline-keys", g, "a: some words b: c\n", "a: some words b: c\n", 0);
    expect_rewrite("yaml.nested-children", g, "generated_by:\nwinner_model: x\n", "generated_by:\nwinner_model: x\n", 0);
    expect_rewrite("yaml.free-text", nested_p, "free_text: plain words\nfree_text2: true\n",
                   "free_text: plain words\nfree_text2: true\n", 0);
    expect_rewrite("yaml.free-text", nested_p, "free_text: null\n", "free_text: \"null\"\n", 1);
    expect_rewrite("yaml.quoted-block-indicator", g, "a: \"|-\"\nb: 1\n", "a: \"|-\"\nb: 1\n", 0);
    expect_rewrite("yaml.sequence-indent-drift", g, "- a\n - b\n", "- a\n - b\n", 0);
    /* a drifted scalar item whose next line is a key left of its content goes to the list
     * that key's column names when yaml.item-key then names it there (beads), in no other
     * profile (run 22 8dc96e5d); one a plain value runs on over stays */
    expect_rewrite("yaml.sequence-indent-drift", mf_profiles_get("beads"), "- id: b\n  ac:\n  - A\n - e\n  title: E\n",
                   "- id: b\n  ac:\n  - A\n- e\n  title: E\n", 1);
    expect_rewrite("yaml.sequence-indent-drift", g, "- id: b\n  ac:\n  - A\n - e\n  title: E\n",
                   "- id: b\n  ac:\n  - A\n - e\n  title: E\n", 0);
    expect_rewrite("yaml.sequence-indent-drift", g, "- t: R\n  op: y\n   - b\n  note: z\n",
                   "- t: R\n  op: y\n   - b\n  note: z\n", 0);
    /* a bare top-level list is the list of the parent marked root_list (beads), in no other profile */
    expect_rewrite("yaml.item-key", mf_profiles_get("beads"), "- l\n  title: L\n", "- id: l\n  title: L\n", 1);
    expect_rewrite("yaml.item-key", nested_p, "- l\n  title: L\n", "- l\n  title: L\n", 0);
    expect_rewrite("yaml.item-key", mf_profiles_get("beads"), "title: x\n- l\n  title: L\n",
                   "title: x\n- l\n  title: L\n", 0);
    expect_rewrite("yaml.property-indent", g, "- a: 1\n   b: 2\n", "- a: 1\n  b: 2\n", 1);
    expect_rewrite("yaml.property-indent", g, "- a:\n   b: 2\n", "- a:\n   b: 2\n", 0);
    /* an item that is itself `key: - item` is split in the same application (idempotence) */
    expect_rewrite("yaml.inline-sequence-parent", g, "que3tions: - id: se: foundatio\nestions: - idcns: - idcture\n",
                   "que3tions:\n- id: se: foundatio\nestions:\n- idcns:\n  - idcture\n", 2);
    /* empty input and input without a final newline stay byte-identical */
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
        expect_rewrite(r->rule_id, nested_p, "", "", 0);
        expect_rewrite(r->rule_id, nested_p, "\n\n", "\n\n", 0);
    }
}

/* The group driver applies the rules of one group in order and keeps the warnings. */
/* An unclosed quote turns every later line into a continuation line; the
 * key set the inline rules build must still have room for those lines' keys
 * (a raw fuzz input once filled the table and spun forever). */
static void test_keys_on_continuation_lines(void **state)
{
    (void)state;
    mf_buf t = {0};
    mf_buf_puts(&t, "hint: \"`repo_git_mutex` behavior?\nsteps:\n  - id: S1\n    notes: |-\n      run make\n");
    for (int i = 0; i < 40; i++)
        mf_buf_printf(&t, "key_%02d: value %d\n", i, i);
    for (int group = 1; group <= MF_YAML_GROUPS; group++) {
        mf_warnings w = {0};
        mf_yaml_repair_group(group, &t, NULL, &w);
        mf_warnings_clear(&w);
    }
    assert_true(t.len > 0);
    mf_buf_free(&t);
}

static void test_group_driver(void **state)
{
    (void)state;
    mf_buf t = {0};
    mf_warnings w = {0};
    mf_buf_puts(&t, "```yaml\nname:demo\nnote: a: b\n```\n");
    assert_int_equal(mf_yaml_repair_group(1, &t, NULL, &w), 1);
    assert_string_equal(mf_buf_cstr(&t), "name:demo\nnote: a: b\n");
    assert_int_equal(mf_yaml_repair_group(2, &t, NULL, &w), 1);
    assert_int_equal(mf_yaml_repair_group(3, &t, NULL, &w), 1);
    assert_int_equal(mf_yaml_repair_group(4, &t, NULL, &w), 0);
    assert_string_equal(mf_buf_cstr(&t), "name: demo\nnote: \"a: b\"\n");
    assert_int_equal(w.count, 3);
    assert_true(mf_warnings_has(&w, "yaml.code-fence"));
    assert_true(mf_warnings_has(&w, "yaml.colon-space"));
    assert_true(mf_warnings_has(&w, "yaml.plain-colon"));
    mf_warnings_clear(&w);
    mf_buf_free(&t);
}

/* A block header whose dash drifted right of its list goes back before groups 2 and 3
 * rewrite entry lines: the lines it makes body text stay as written (session 10 entries
 * 7bb27ae9, a1b39d83: `id:2` was spaced, `Q0ext: pl` quoted inside the body). */
static void test_group_driver_drifted_block_header(void **state)
{
    (void)state;
    static const char *const bodies[] = {"      id:2 in the text\n", "      id: Q0 text: plain words\n"};
    for (size_t k = 0; k < sizeof bodies / sizeof *bodies; k++) {
        mf_buf t = {0}, want = {0};
        mf_warnings w = {0};
        mf_buf_puts(&t, "items:\n  - id: Q1\n   -  notes: |-\n      first line\n");
        mf_buf_puts(&t, bodies[k]);
        mf_buf_puts(&want, "items:\n  - id: Q1\n  -  notes: |-\n      first line\n");
        mf_buf_puts(&want, bodies[k]);
        assert_int_equal(mf_yaml_repair_group(2, &t, NULL, &w), 1);
        assert_int_equal(mf_yaml_repair_group(3, &t, NULL, &w), 0);
        assert_int_equal(mf_yaml_repair_group(4, &t, NULL, &w), 0);
        assert_string_equal(mf_buf_cstr(&t), mf_buf_cstr(&want));
        assert_int_equal(w.count, 1);
        assert_true(mf_warnings_has(&w, "yaml.sequence-indent-drift"));
        mf_warnings_clear(&w);
        mf_buf_free(&t);
        mf_buf_free(&want);
    }
}

/* Every rule (its model form) on one model of `in`, and again on the model of its
 * output when it changed something: it must change nothing then. */
static void run_all_rules(const char *what, const mf_buf *in, const mf_profile *p)
{
    mf_buf out = {0}, again = {0};
    yr_doc d, o;
    assert_int_equal(yr_doc_open(&d, mf_buf_cstr(in), in->len), 0);
    for (size_t i = 0; yr_rule_at(i); i++) {
        mf_warnings w = {0};
        mf_buf_reset(&out);
        size_t n = yr_rule_at(i)(&d, &out, p, &w);
        assert_int_equal(mf_warnings_total(&w), n);
        mf_warnings_clear(&w);
        if (n == 0) /* the same model again would give the same answer */
            continue;
        assert_int_equal(yr_doc_open(&o, mf_buf_cstr(&out), out.len), 0);
        size_t m = yr_rule_at(i)(&o, &again, p, &w);
        yr_doc_close(&o);
        if (m != 0)
            fail_msg("%s: %s not idempotent on pathological input", mf_yaml_repairs[i].rule_id, what);
        mf_warnings_clear(&w);
        mf_buf_reset(&again);
    }
    yr_doc_close(&d);
    mf_buf_free(&out);
    mf_buf_free(&again);
}

static void test_pathological(void **state)
{
    (void)state;
    mf_buf b = {0};
    static const char *const shapes[] = {
        "key:value\n", "- -k: v\n", "a: b: c\n", "free_text: `x` y\n", "t: \"p\\q\n", "q: \"a\" b\n",
        "u: \"x\" | \"y\"\n", "- @z\n", "<tag>\n", "n: |\n", "  body: x\n", "   - drift\n", "progress:\n",
        "current: 4\n", "dup: 1\n", "dup: 1\n", "o: '\n", "\n", "x: y z: 1 w: 2\n", "l: - a\n",
        "m: - k: - v\n"};
    size_t ns = sizeof shapes / sizeof *shapes;
    for (size_t i = 0; i < 200000; i++)
        mf_buf_puts(&b, shapes[i % ns]);
    run_all_rules("200k lines", &b, nested_p);

    mf_buf_reset(&b);
    mf_buf_puts(&b, "key: ");
    for (size_t i = 0; i < 2 * 1024 * 1024 / 8; i++)
        mf_buf_puts(&b, "a: \"b\\q ");
    run_all_rules("2 MB line", &b, nested_p);

    mf_buf_reset(&b);
    for (size_t i = 0; i < 100000; i++)
        mf_buf_puts(&b, "- ");
    mf_buf_puts(&b, "k:v\n");
    run_all_rules("100k dashes on one line", &b, nested_p);

    mf_buf_reset(&b);
    for (size_t i = 0; i < 100000; i++)
        mf_buf_puts(&b, "- - - \n");
    run_all_rules("100k lines of nested dashes", &b, nested_p);

    mf_buf_reset(&b);
    for (size_t i = 0; i < 3000; i++) {
        for (size_t k = 0; k < i; k++)
            mf_buf_puts(&b, "  ");
        mf_buf_puts(&b, i % 2 ? "- a: 1\n" : "k:\n");
    }
    run_all_rules("3000-deep staircase", &b, nested_p);

    static const char *const floods[] = {"dup: 1\n", "free_text: 'open\n", "k: \"open\n", "generated_by:\n",
                                         "x:\n  - y\n", "a: |\n", "- k: >-\n"};
    for (size_t f = 0; f < sizeof floods / sizeof *floods; f++) {
        mf_buf_reset(&b);
        for (size_t i = 0; i < 100000; i++)
            mf_buf_puts(&b, floods[f]);
        run_all_rules(floods[f], &b, nested_p);
    }

    mf_buf_reset(&b);
    mf_buf_puts(&b, "a:\n  x: 1\n");
    for (size_t i = 0; i < 100000; i++)
        mf_buf_puts(&b, "\n");
    for (size_t i = 0; i < 50000; i++)
        mf_buf_puts(&b, "a:\n  y: 2\n");
    run_all_rules("blank run then differing duplicates", &b, nested_p);

    /* nested-children learning: 50k parents nested once and flat once, each name its own */
    mf_buf_reset(&b);
    for (size_t i = 0; i < 50000; i++)
        mf_buf_printf(&b, "n%zu:\n  c%zu: 1\nn%zu:\nc%zu: 2\n", i, i % 7, i, i % 7);
    run_all_rules("50k parents nested and flat", &b, NULL);
    mf_buf_free(&b);
    free_cases();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_idempotent_on_fixtures),
        cmocka_unit_test(test_rules_fire_on_own_fixtures),
        cmocka_unit_test(test_exact_rewrites),
        cmocka_unit_test(test_keys_on_continuation_lines),
        cmocka_unit_test(test_group_driver),
        cmocka_unit_test(test_group_driver_drifted_block_header),
        cmocka_unit_test(test_pathological),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
