/* test_yaml_model.c - the line model the YAML repairs share (yaml_repair_scan.c).
 *
 * yr_doc_open splits a text into lines once and parses each line's entry once:
 * line views without '\r\n', the end-of-line facts, the entry (indentation,
 * dashes, key, value), the per-line flags (inert, opens a block scalar, opens a
 * quoted value), and the output writer that copies unchanged lines as
 * one span gives back the text byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>
#include "yaml_repair.h"

static bool line_is(const yr_line *l, const char *s) { return l->n == strlen(s) && memcmp(l->s, s, l->n) == 0; }

static void test_lines_and_ends(void **state)
{
    (void)state;
    static const char text[] = "a: 1\r\n\n  - b: \"x\r\n# c\nlast";
    yr_doc d;
    assert_int_equal(yr_doc_open(&d, text, sizeof text - 1), 0);
    assert_int_equal(d.count, 5);
    assert_false(d.final_nl);
    assert_true(line_is(&d.l[0], "a: 1") && d.l[0].cr && d.l[0].nl);
    assert_true(line_is(&d.l[1], "") && !d.l[1].cr && d.l[1].nl);
    assert_true(line_is(&d.l[2], "  - b: \"x") && d.l[2].cr);
    assert_true(line_is(&d.l[4], "last") && !d.l[4].nl);
    assert_int_equal(d.l[1].flags, YR_INERT);
    assert_int_equal(d.l[2].flags, YR_OPENS_DQ);
    /* the quote opened on line 2 is never closed: the later lines are its text */
    assert_int_equal(d.l[3].flags, YR_INERT | YR_DQ_CONT);
    assert_int_equal(d.l[4].flags, YR_DQ_CONT);
    const yr_entry e2 = yr_entry_at(&d, 2), *e = &e2;
    assert_int_equal(e->indent, 2);
    assert_int_equal(e->dashes, 1);
    assert_int_equal(e->dash, 2);
    assert_true(e->key);
    assert_int_equal(e->key_s, 4);
    assert_int_equal(e->key_e, 5);
    assert_int_equal(e->val, 7);
    assert_int_equal(e->end, 9);
    yr_doc_close(&d);

    assert_int_equal(yr_doc_open(&d, "x\n", 2), 0);
    assert_int_equal(d.count, 1);
    assert_true(d.final_nl);
    yr_doc_close(&d);
    assert_int_equal(yr_doc_open(&d, "", 0), 0);
    assert_int_equal(d.count, 0);
    yr_doc_close(&d);
}

static void test_flags(void **state)
{
    (void)state;
    static const char text[] = "k: |-\n  body: \"open\n- >\n---\nq: \"closed\"\nr: \"a\\\"\n";
    yr_doc d;
    assert_int_equal(yr_doc_open(&d, text, sizeof text - 1), 0);
    assert_int_equal(d.count, 6);
    assert_int_equal(d.l[0].flags, YR_OPENS_BLOCK | YR_CTX_FREE);
    assert_int_equal(d.l[1].flags, YR_OPENS_DQ);
    assert_int_equal(d.l[2].flags, YR_OPENS_BLOCK);
    assert_int_equal(d.l[3].flags, YR_INERT); /* after `- >`: a block body may follow */
    assert_int_equal(d.l[4].flags, YR_CTX_FREE);
    assert_int_equal(d.l[5].flags, YR_OPENS_DQ | YR_CTX_FREE); /* the quote is escaped: still open */
    yr_block b = {0};
    yr_block_note_line(&b, &d, 0);
    assert_true(b.active);
    assert_int_equal(b.parent, 0);
    assert_true(yr_block_body(&b, &d.l[1]));
    assert_false(yr_block_body(&b, &d.l[2]));
    yr_doc_close(&d);

    /* line kinds, and the kinds of the whole model */
    static const char kinds[] = "a: b: c\n-name: x\nk: - a\nq: \"a\" b\nr: 'x'\ns: v\nt: \"x: y\"\nu: \"x\" y: z\n";
    assert_int_equal(yr_doc_open(&d, kinds, sizeof kinds - 1), 0);
    assert_int_equal(d.count, 8);
    const uint16_t mask = YR_VAL_COLON | YR_DASH_TEXT | YR_QUOTE_MORE;
    assert_int_equal(d.l[0].flags & mask, YR_VAL_COLON);
    assert_int_equal(d.l[1].flags & mask, YR_DASH_TEXT); /* `-name: x` is a key "-name" */
    assert_int_equal(d.l[2].flags & mask, YR_DASH_TEXT);
    assert_int_equal(d.l[3].flags & mask, YR_QUOTE_MORE);
    assert_int_equal(d.l[4].flags & mask, 0);            /* the quote closes at the line's end */
    assert_int_equal(d.l[5].flags & mask, 0);
    assert_int_equal(d.l[6].flags & mask, 0); /* a ':' inside the quoted scalar starts no key */
    assert_int_equal(d.l[7].flags & mask, YR_QUOTE_MORE | YR_VAL_COLON);
    assert_int_equal(d.kinds & mask, mask);
    yr_doc_close(&d);
}

/* The later lines of multi-line plain and quoted scalars are marked as such. */
static void test_context(void **state)
{
    (void)state;
    static const char text[] = "a: some text\n  more\n\n  <b>\n# c\n  after\nb: \"open\n  k: v\n  end\"\nc: 1\n";
    yr_doc d;
    assert_int_equal(yr_doc_open(&d, text, sizeof text - 1), 0);
    assert_int_equal(d.count, 10);
    assert_int_equal(d.l[0].flags, YR_CTX_FREE);
    assert_int_equal(d.l[1].flags, YR_PLAIN_CONT);
    assert_int_equal(d.l[2].flags, YR_INERT);       /* a blank line does not end the scalar */
    assert_int_equal(d.l[3].flags, YR_PLAIN_CONT);
    assert_int_equal(d.l[4].flags, YR_INERT);       /* a comment line does */
    assert_int_equal(d.l[5].flags, YR_CTX_FREE);
    assert_int_equal(d.l[6].flags, YR_OPENS_DQ | YR_CTX_FREE);
    assert_int_equal(d.l[7].flags, YR_DQ_CONT);
    assert_int_equal(d.l[8].flags, YR_DQ_CONT);
    assert_int_equal(d.l[9].flags, YR_CTX_FREE);
    yr_doc_close(&d);

    /* single quotes likewise: `''` is an escaped quote and a backslash escapes nothing,
     * so the value opened on line 0 runs to line 3 and the one opened on line 5 closes
     * on line 6 (regressions b78adf96, adcdb13d) */
    static const char sq[] = "a: 'open\n  k: v: w\n  it''s \"x\n  end'\nb: \"c\"\n- 'x\\\n  y\\'\nc: 1\n";
    assert_int_equal(yr_doc_open(&d, sq, sizeof sq - 1), 0);
    assert_int_equal(d.count, 8);
    assert_int_equal(d.l[0].flags, YR_OPENS_SQ | YR_CTX_FREE);
    assert_int_equal(d.l[1].flags, YR_SQ_CONT | YR_VAL_COLON);
    assert_int_equal(d.l[2].flags, YR_SQ_CONT);
    assert_int_equal(d.l[3].flags, YR_SQ_CONT);
    assert_int_equal(d.l[4].flags, YR_CTX_FREE);
    assert_int_equal(d.l[5].flags, YR_OPENS_SQ | YR_CTX_FREE);
    assert_int_equal(d.l[6].flags, YR_SQ_CONT);
    assert_int_equal(d.l[7].flags, YR_CTX_FREE);
    yr_doc_close(&d);
    /* a rule's rewritten line that opens a single-quoted value: the skip state follows it */
    yr_skip k = {{0}, 0};
    yr_skip_note(&k, "- 'a", 4);
    assert_int_equal(k.quote, '\'');
    const yr_line cont = {"b''c", 4, false, true, 0}, close = {"d' e", 4, false, true, 0};
    assert_true(yr_skip_line(&k, &cont));
    assert_int_equal(k.quote, '\'');
    assert_true(yr_skip_line(&k, &close));
    assert_int_equal(k.quote, 0);

    /* a `- ` line with no key deeper than a plain value's entry is that value's text
     * (`title: C` + `  - "` reads "C - \""): its quote or block header opens nothing, and
     * the scalar goes on, so the deeper lines after it are text too (run-12 entry
     * d0ba0efa-ra70ac329: the quote hid `tips:` and its list from yaml.item-colon) */
    static const char dash[] = "title: C\n  - \"\n  - |\n more\ntips:\n  - a\n    - 'b\n  - c\n";
    assert_int_equal(yr_doc_open(&d, dash, sizeof dash - 1), 0);
    assert_int_equal(d.count, 8);
    assert_int_equal(d.l[1].flags, YR_OPENS_DQ | YR_PLAIN_TEXT);
    assert_int_equal(d.l[2].flags, YR_OPENS_BLOCK | YR_PLAIN_TEXT);
    assert_int_equal(d.l[3].flags, YR_PLAIN_CONT);
    assert_int_equal(d.l[4].flags, 0);
    assert_int_equal(d.l[6].flags, YR_OPENS_SQ | YR_PLAIN_TEXT); /* text of the item `a` */
    assert_int_equal(d.l[7].flags, 0);
    k = (yr_skip){{0}, 0};
    for (size_t i = 0; i < d.count; i++)
        if (!yr_skip_line(&k, &d.l[i]))
            yr_skip_note_line(&k, &d, i);
    assert_false(k.quote || k.blk.active);
    yr_doc_close(&d);
}

/* Unchanged lines written through yr_put_line come back byte for byte, also
 * when a rewritten line interrupts the span and when the text has no final newline. */
static void test_writer_round_trip(void **state)
{
    (void)state;
    static const char *const texts[] = {"a: 1\r\nb: 2\n\nc: 3", "x\n", "", "\n\n", "only"};
    for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
        yr_doc d;
        assert_int_equal(yr_doc_open(&d, texts[t], strlen(texts[t])), 0);
        mf_buf out = {0};
        yr_out o = {.b = &out};
        for (size_t i = 0; i < d.count; i++) {
            if (i == 1) {
                yr_put(&o, d.l[i].s, d.l[i].n);
                yr_endl(&o, YR_EOL(&d.l[i]));
            } else {
                yr_put_line(&o, &d.l[i]);
            }
        }
        assert_int_equal(yr_finish(&o, &d, 1), 1);
        assert_int_equal(out.len, strlen(texts[t]));
        assert_memory_equal(mf_buf_cstr(&out), texts[t], out.len);
        mf_buf_free(&out);
        yr_doc_close(&d);
    }
}

/* A rule run through the group driver on a model equals the text form. */
static void test_group_matches_text_rules(void **state)
{
    (void)state;
    static const char text[] = "steps:\n  -name: a\n    run:make\n  -name: b\n    note: x: y\n";
    mf_buf g = {0};
    mf_buf_puts(&g, text);
    mf_warnings w = {0};
    size_t n = mf_yaml_repair_group(2, &g, NULL, &w);
    n += mf_yaml_repair_group(3, &g, NULL, &w);
    mf_buf a = {0}, b = {0};
    mf_warnings w2 = {0};
    mf_buf_puts(&a, text);
    size_t m = 0;
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
        if (r->group != 2 && r->group != 3)
            continue;
        mf_buf_reset(&b);
        m += r->fn(mf_buf_cstr(&a), a.len, &b, NULL, &w2);
        mf_buf t = a;
        a = b;
        b = t;
    }
    assert_int_equal(n, m);
    assert_int_equal(w.count, w2.count);
    assert_string_equal(mf_buf_cstr(&g), mf_buf_cstr(&a));
    assert_string_equal(mf_buf_cstr(&g), "steps:\n  - name: a\n    run: make\n  - name: b\n    note: \"x: y\"\n");
    mf_buf_free(&g), mf_buf_free(&a), mf_buf_free(&b);
    mf_warnings_clear(&w), mf_warnings_clear(&w2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_and_ends),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_context),
        cmocka_unit_test(test_writer_round_trip),
        cmocka_unit_test(test_group_matches_text_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
