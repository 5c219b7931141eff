/* test_yaml_fast.c - the fast block-YAML reader (yaml_fast.c) against libyaml.
 *
 * Whenever the fast reader accepts a text, its events must be exactly
 * libyaml's (node kinds, scalar styles and values, in order) between the
 * document's start and end, libyaml must load the text as one document, and
 * mf_yaml_load must give the same value with the reader as without it.
 * Checked on every file of the rule fixtures and the corpus, the yaml-test-
 * suite cases, hand-written edge cases, and edits of each (a line deleted,
 * doubled, indented or dedented by one space, its ": " glued, a comment
 * appended, the text cut after it, a byte of YAML syntax put in). The seeds must stay in the subset. */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <yaml.h>
#include "internal.h"
#include "yaml_fast.h"
#include "file_walk.h"
#include "../../harness/fuzz/yaml_event_trace.h"

#define MAX_FILE 262144
#define MAX_EDITED_LINES 80
#define SYNTAX_BYTES ":#-\"'|>[]{}, &*!?\\"

static size_t texts, accepted, mismatched;
static size_t profile_turn;

/* mf_yaml_load with and without the fast reader: the same value (or error
 * type) and the same renamed-key answer, through a profile taken in turn
 * (string fields and key aliasing act while loading). */
static bool loads_alike(const char *what, const char *text, size_t len)
{
    const mf_profile *p = NULL;
    for (size_t tries = 0; !p && tries < mf_profiles_count(); tries++) {
        const mf_profile *q = mf_profiles_at(profile_turn++ % mf_profiles_count());
        p = q->format == MF_FORMAT_YAML ? q : NULL;
    }
    bool r1 = false, r2 = false;
    mf_yaml_load_opts fast = {.profile = p, .renamed_key = &r1}, lib = fast;
    lib.renamed_key = &r2;
    lib.libyaml_only = true;
    json_t *a = NULL, *b = NULL;
    mf_error e1 = {0}, e2 = {0};
    int rc1 = mf_yaml_load(text, len, &fast, &a, &e1), rc2 = mf_yaml_load(text, len, &lib, &b, &e2);
    bool same = rc1 == rc2 && r1 == r2 && (rc1 ? strcmp(e1.type, e2.type) == 0 : json_equal(a, b));
    if (!same && mismatched++ < 5) {
        char *x = a ? json_dumps(a, JSON_ENCODE_ANY) : NULL, *y = b ? json_dumps(b, JSON_ENCODE_ANY) : NULL;
        print_message("%s (profile %s): mf_yaml_load differs with the fast reader\n--- text\n%.*s\n--- fast "
                      "%d %d %s\n--- libyaml %d %d %s\n", what, p ? p->name : "-", (int)len, text, rc1, r1,
                      x ? x : e1.message, rc2, r2, y ? y : e2.message);
        free(x);
        free(y);
    }
    json_decref(a);
    json_decref(b);
    mf_error_clear(&e1);
    mf_error_clear(&e2);
    return same;
}

/* Check one text; true when the fast reader accepted it. */
static bool check_text(const char *what, const char *text, size_t len)
{
    yet_trace fast = {0}, lib = {0};
    texts++;
    bool took = yet_fast(text, len, &fast);
    if (took) {
        accepted++;
        bool parsed = yet_libyaml(text, len, &lib);
        if (!parsed || strcmp(fast.s, lib.s) != 0) {
            if (mismatched++ < 5)
                print_message("%s: fast reader and libyaml differ%s\n--- text\n%.*s\n--- fast\n%s--- libyaml\n%s\n",
                              what, parsed ? "" : " (libyaml rejects it)", (int)len, text, fast.s, lib.s);
        } else {
            loads_alike(what, text, len);
        }
    }
    free(fast.s);
    free(lib.s);
    return took;
}

/* The text and its one-line edits. */
static void check_with_edits(const char *what, const char *text, size_t len)
{
    if (!check_text(what, text, len))
        return; /* edits of a text outside the subset mostly stay outside */
    size_t starts[MAX_EDITED_LINES + 1], nlines = 0;
    for (size_t i = 0; i < len && nlines < MAX_EDITED_LINES; i++)
        if (i == 0 || text[i - 1] == '\n')
            starts[nlines++] = i;
    starts[nlines] = len;
    char *t = malloc(len * 2 + 16);
    for (size_t k = 0; k < nlines; k++) {
        size_t b = starts[k], e = starts[k + 1], n;
        /* deleted */
        memcpy(t, text, b);
        memcpy(t + b, text + e, len - e);
        check_text(what, t, len - (e - b));
        /* doubled */
        memcpy(t, text, e);
        memcpy(t + e, text + b, len - b);
        check_text(what, t, len + (e - b));
        /* one space deeper */
        memcpy(t, text, b);
        t[b] = ' ';
        memcpy(t + b + 1, text + b, len - b);
        check_text(what, t, len + 1);
        /* one space shallower */
        if (text[b] == ' ') {
            memcpy(t, text, b);
            memcpy(t + b, text + b + 1, len - b - 1);
            check_text(what, t, len - 1);
        }
        /* ": " glued */
        const char *cs = memchr(text + b, ':', e - b);
        if (cs && (size_t)(cs - text) + 1 < e && cs[1] == ' ') {
            n = (size_t)(cs - text) + 1;
            memcpy(t, text, n);
            memcpy(t + n, text + n + 1, len - n - 1);
            check_text(what, t, len - 1);
        }
        /* a comment appended, and the text cut after the line */
        size_t eol = e > b && text[e - 1] == '\n' ? e - 1 : e;
        memcpy(t, text, eol);
        memcpy(t + eol, " #x", 3);
        memcpy(t + eol + 3, text + eol, len - eol);
        check_text(what, t, len + 3);
        check_text(what, text, e);
        check_text(what, text, eol);
        /* a byte of YAML syntax at the line's first, middle and last place */
        size_t c = b;
        while (c < eol && text[c] == ' ')
            c++;
        size_t at[] = {c, c + 1, (c + eol) / 2, eol > b ? eol - 1 : b};
        memcpy(t, text, len);
        for (size_t a = 0; a < sizeof at / sizeof *at; a++)
            for (const char *x = SYNTAX_BYTES; at[a] < eol && *x; x++) {
                t[at[a]] = *x;
                check_text(what, t, len);
                t[at[a]] = text[at[a]];
            }
    }
    free(t);
}

static int visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    size_t len;
    if (type != FTW_F || st->st_size > MAX_FILE)
        return 0;
    char *text = fw_slurp(path, &len);
    if (text)
        check_with_edits(path, text, len);
    free(text);
    return 0;
}

static void report(const char *what)
{
    print_message("%s: %zu texts, %zu accepted by the fast reader, %zu differ from libyaml\n", what, texts,
                  accepted, mismatched);
}

static void repository_files(void **state)
{
    (void)state;
    static const char *const dirs[] = {"tests/fixtures/rules", "tests/fixtures/profiles", "corpus", NULL};
    for (const char *const *d = dirs; *d; d++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", MALFORM_SOURCE_DIR, *d);
        assert_int_equal(nftw(dir, visit, 16, FTW_PHYS), 0);
    }
    report("repository files");
    assert_true(accepted > 1000);
    assert_int_equal(mismatched, 0);
}

/* Each suite case's "yaml" field. */
static void suite_cases(void **state)
{
    (void)state;
    static const char *const files[] = {"yaml_valid.jsonl", "yaml_error.jsonl", NULL};
    texts = accepted = mismatched = 0;
    for (const char *const *f = files; *f; f++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", MALFORM_SUITES_DIR, *f);
        FILE *in = fopen(path, "r");
        if (!in) {
            print_message("suite not found at %s: skipped\n", path);
            skip();
        }
        char *line = NULL;
        size_t cap = 0;
        while (getline(&line, &cap, in) > 0) {
            json_t *c = json_loads(line, 0, NULL);
            const char *y = json_string_value(json_object_get(c, "yaml"));
            if (y)
                check_with_edits(json_string_value(json_object_get(c, "id")), y,
                                 json_string_length(json_object_get(c, "yaml")));
            json_decref(c);
        }
        free(line);
        fclose(in);
    }
    report("yaml-test-suite");
    assert_int_equal(mismatched, 0);
}

/* Shapes at the subset's edges: each is checked against libyaml whichever way the reader goes. */
static void edge_cases(void **state)
{
    (void)state;
    static const struct { const char *text; bool fast; } cases[] = {
        {"a: 1\nb:\n  - x\n  - y: 2\n    z: 3\nc:\n- p\n- q\nd: end\n", true},
        {"a: |\n  one\n\n  two\n\n\nb: |-\n    keep  \n     deeper\n", true},
        {"a: |\n\n  x\n", true},
        {"a: |\n   \n  x\n", false},   /* a blank line deeper than the body sets its indentation */
        {"a: |\n  x\n     \n", false}, /* spaces past the indentation are content */
        {"- |\n x\n- |-\n  y\n", true},
        {"a: \"q \\\"x\\\" \\\\ \\/ \\n\\t\"\nb: 'it''s'\n", true},
        {"a: \"\\u00e9\"\n", false},
        {"a: \"\"\nb: ''\nc: []\n", true},
        {"a: \"x\n  y\"\n", false},
        {"a: [x, y z, 3]\nb: []\nc: {}\nd: { }\n", true},
        {"a: [x, ]\n", false},
        {"a: [x: 1]\n", false},
        {"a: {b: 1}\n", false},
        {"a: x # c\nb: y#z\n# c\n  # c\nc:   # c\n  d: e\n", true},
        {"a: x\n  y\n", true},
        {"a: x: y\n", false},
        {"- a: b: c\n", false},
        {"- Use X: for Y\n- plain, with [brackets] and {braces}\n", true},
        {"a: &x 1\nb: *x\n", false},
        {"a: !!str 1\n", false},
        {"a: >\n  folded\n  text\n\n  para\nb: >-\n  x\n\n\n  y\n\n", true},
        {"a: >\n  x\n    more-indented\n  y\n", false},
        {"a: plain\n  continued\n\n  after a blank\nb: x\n  y # c\n  z\n", false},
        {"a: plain\n  continued\n\n  after a blank\nb: x\n  y # c\nc: 1\n", true},
        {"- item\n  wrapped\n- k: v\n    wrapped\n  k2: v2\n", true},
        {"a: x\n  - y\n", false},
        {"a: x\n  \"y\"\n", false},
        {"a: x\n  y: z\n", false},
        {"--- # c\na: 1\n", true},
        {"---\n- a\n", true},
        {"--- a: 1\n", false},
        {"----\na: 1\n", false},
        {"a: |+\n  keep\n", false},
        {"a: |2\n  x\n", false},
        {"a: 1\n---\nb: 2\n", false},
        {"a:\tb\n", false},
        {"a: b\r\n", false},
        {"\xef\xbb\xbf" "a: b\n", false},
        {"a: caf\xc3\xa9 \xe2\x80\x9cq\xe2\x80\x9d\n", true},
        {"a: \xc2\x85\n", false},
        {"a: \xe2\x80\xa8\n", false},
        {"a: \xed\xa0\x80\n", false},
        {"  a: 1\n", false},
        {"a: 1\n a: 2\n", false},
        {"a:\n  b: 1\n c: 2\n", false},
        {"- - x\n", false},
        {"-\n  a: 1\n-\n- b\n", true},
        {"a: -1\nb: -x\nc: - x\n", false},
        {"a: -1\nb: -x\n", true},
        {"key : v\nk2:    v2   \n", true},
        {"a:", true},
        {"a: |", false},
        {"a: |\n  x", true},
        {"", false},
        {"# only\n", false},
        {"plain\n", false},
        {"a: 1\na: 2\n", true}, /* events only: the duplicate is the loader's to refuse */
        {"\"a\": 1\n", false},
        {"a: x\n- y\n", false},
        {"a:\n- x\nb\n", false},
    };
    texts = accepted = mismatched = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        size_t before = accepted;
        check_with_edits(cases[i].text, cases[i].text, strlen(cases[i].text));
        bool took = accepted > before;
        if (took != cases[i].fast)
            print_message("edge case %zu: the fast reader %s it\n%s\n", i, took ? "accepted" : "declined",
                          cases[i].text);
        assert_int_equal(took, cases[i].fast);
    }
    report("edge cases");
    assert_int_equal(mismatched, 0);
}

/* A control byte, DEL or a lone non-ASCII byte anywhere in a long line (each
 * place of an eight-byte word the reader checks at once) declines. */
static void bad_bytes_decline(void **state)
{
    (void)state;
    static const unsigned char bad[] = {0x01, 0x09, 0x0d, 0x1f, 0x7f, 0x80, 0xbf, 0xc2, 0xff};
    char text[64];
    for (size_t b = 0; b < sizeof bad; b++)
        for (size_t at = 5; at < 30; at++) {
            snprintf(text, sizeof text, "key: abcdefghijklmnopqrstuvwxyz0123\n");
            text[at] = (char)bad[b];
            yet_trace r = {0};
            bool took = yet_fast(text, strlen(text), &r);
            free(r.s);
            if (took)
                print_message("byte 0x%02x at %zu accepted\n", bad[b], at);
            assert_false(took);
        }
}

static void seeds_in_subset(const char *path, const char *text, size_t len)
{
    yet_trace r = {0};
    texts++;
    if (yet_fast(text, len, &r))
        accepted++;
    else
        print_message("%s: outside the fast reader's subset\n", path);
    free(r.s);
}

/* The YAML seeds are what clean artifacts look like: all of them take the fast path. */
static void seeds_take_the_fast_path(void **state)
{
    (void)state;
    texts = accepted = 0;
    size_t files = fw_walk(MALFORM_SOURCE_DIR "/corpus/seeds", ".yaml", seeds_in_subset);
    assert_true(files != (size_t)-1 && files > 0);
    assert_int_equal(accepted, files);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(bad_bytes_decline),
        cmocka_unit_test(seeds_take_the_fast_path),
        cmocka_unit_test(repository_files),
        cmocka_unit_test(suite_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
