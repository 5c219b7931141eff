/* test_yaml_lines.c - the YAML line model, updated in place, equals the model
 * built from scratch.
 *
 * The group driver (yaml_repair.c) builds the line model once per text and,
 * after a rule changed the text, moves it to the rule's output with
 * yr_doc_update, which copies the lines the rule copied and parses only the
 * ones it wrote. Here every rule runs in table order as a chain (each on the
 * model the previous update left), through generic_yaml and every YAML
 * profile, on every rule fixture input and seed, and after each change the
 * updated model must equal yr_doc_open of the new text: lines, breaks, entries,
 * per-line and context flags; what it knows of the text's bytes must hold. The
 * same check follows synthetic edits the rules may not make on these texts:
 * lines replaced, deleted, inserted (opening a block scalar or a double or
 * single quote that changes the context of the copied lines after it), a
 * copied line whose output line the writer started, CRLF breaks, a dropped
 * final line break, and lines kept full size (over 65535 bytes, over 255
 * dashes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "file_walk.h"
#include "yaml_repair.h"

static size_t updates, lines, copied;

static bool entry_eq(const yr_entry *a, const yr_entry *b)
{
    return a->indent == b->indent && a->dash == b->dash && a->content == b->content && a->key_s == b->key_s &&
           a->key_e == b->key_e && a->val == b->val && a->end == b->end && a->dashes == b->dashes && a->key == b->key;
}

/* Fail unless the updated model u equals the model of its text built from scratch. */
static void check_equal(const char *name, const char *step, const yr_doc *u)
{
    yr_doc f;
    assert_int_equal(yr_doc_open(&f, u->text, u->len), 0);
    if (u->count != f.count || u->final_nl != f.final_nl)
        fail_msg("%s after %s: %zu lines (final break %d), from scratch %zu (%d)", name, step, u->count,
                 u->final_nl, f.count, f.final_nl);
    for (size_t i = 0; i < f.count; i++) {
        const yr_line *a = &u->l[i], *b = &f.l[i];
        yr_entry ea = yr_entry_at(u, i), eb = yr_entry_at(&f, i);
        if (a->s != b->s || a->n != b->n || a->cr != b->cr || a->nl != b->nl || a->flags != b->flags ||
            !entry_eq(&ea, &eb))
            fail_msg("%s after %s: line %zu differs (flags %u vs %u, indent %u vs %u, val %u vs %u)", name, step,
                     i + 1, a->flags, b->flags, ea.indent, eb.indent, ea.val, eb.val);
    }
    if (f.cr && !u->cr)
        fail_msg("%s after %s: the updated model says the text holds no '\\r'", name, step);
    for (int c = 0; c < 256; c++) /* what the update kept of the byte checks stays true of the new text */
        for (int twice = 0; twice < 2; twice++) {
            const uint64_t *known = twice ? u->bytes.known2 : u->bytes.known, *has = twice ? u->bytes.has2 : u->bytes.has;
            if ((known[c >> 6] >> (c & 63) & 1) && !(has[c >> 6] >> (c & 63) & 1) && yr_doc_holds(&f, (unsigned char)c, twice))
                fail_msg("%s after %s: the updated model says the text holds no byte %d%s", name, step, c,
                         twice ? " twice in a row" : "");
        }
    yr_doc_close(&f);
}

/* The text a model reads, owned: a rule's output becomes the next text. */
typedef struct { mf_buf text; yr_doc d; yr_trace trace; } chain;

static void chain_open(chain *c, const char *s, size_t n)
{
    memset(c, 0, sizeof *c);
    mf_buf_put(&c->text, s, n);
    assert_int_equal(yr_doc_open(&c->d, mf_buf_cstr(&c->text), c->text.len), 0);
    c->d.trace = &c->trace;
}

/* After a change written to out from c->d: update, check, and make out the text. */
static void chain_take(chain *c, mf_buf *out, const char *name, const char *step)
{
    copied += c->trace.count > 0;
    /* learn the trigger bytes first, so the update has knowledge to carry over or drop */
    for (const char *b = "`<-:\\\"'|>@*#\r"; *b; b++)
        yr_doc_holds(&c->d, (unsigned char)*b, false);
    yr_doc_holds(&c->d, '"', true);
    yr_doc_holds(&c->d, '\'', true);
    /* 1: moved along the trace, never rebuilt from scratch */
    assert_int_equal(yr_doc_update(&c->d, mf_buf_cstr(out), out->len), 1);
    lines += c->d.count;
    updates++;
    check_equal(name, step, &c->d);
    mf_buf tmp = c->text;
    c->text = *out;
    *out = tmp;
    mf_buf_reset(out);
}

static void chain_close(chain *c)
{
    yr_doc_close(&c->d);
    free(c->trace.s);
    mf_buf_free(&c->text);
}

/* Every rule in table order, as run_chain runs them, on one text and profile. */
static void check_rules(const char *name, const char *s, size_t n, const mf_profile *p)
{
    chain c;
    chain_open(&c, s, n);
    mf_buf out = {0};
    for (size_t i = 0; yr_rule_at(i); i++) {
        mf_warnings w = {0};
        c.trace.count = 0;
        mf_buf_reset(&out);
        size_t changes = yr_rule_at(i)(&c.d, &out, p, &w);
        mf_warnings_clear(&w);
        if (changes)
            chain_take(&c, &out, name, mf_yaml_repairs[i].rule_id);
    }
    mf_buf_free(&out);
    chain_close(&c);
}

/* ---- synthetic edits: every k-th line (from line `first`) ---- */
enum { REPLACE, DELETE, INSERT_BLOCK, INSERT_QUOTE, INSERT_SQ, PREFIXED_COPY, JOIN, CRLF, EDITS };
static const char *const edit_name[EDITS] = {"replace", "delete", "insert a block header", "insert an open quote",
                                             "insert an open single quote", "a copy after written text", "join",
                                             "crlf"};

static size_t edit(const yr_doc *d, mf_buf *out, int kind, size_t k, size_t first)
{
    yr_out o = {.b = out, .d = d};
    size_t changes = 0;
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (i < first || (i - first) % k != 0) {
            yr_put_line(&o, l);
            continue;
        }
        changes++;
        switch (kind) {
        case REPLACE:
            yr_spaces(&o, 2);
            yr_put(&o, l->s, l->n);
            yr_puts(&o, " x");
            yr_endl(&o, YR_EOL(l));
            break;
        case DELETE:
            break;
        case INSERT_BLOCK:
        case INSERT_QUOTE:
        case INSERT_SQ:
            yr_put_line(&o, l);
            yr_puts(&o, kind == INSERT_BLOCK ? "b: |" : kind == INSERT_QUOTE ? "q: \"open" : "- 'it''s");
            yr_endl(&o, "");
            break;
        case PREFIXED_COPY:
            yr_puts(&o, "- ");
            yr_put_line(&o, l);
            break;
        case JOIN:
            yr_put(&o, l->s, l->n);
            yr_puts(&o, " ");
            if (i + 1 < d->count)
                yr_put_line(&o, &d->l[++i]);
            else
                yr_endl(&o, "");
            break;
        default:
            yr_put(&o, l->s, l->n);
            yr_endl(&o, "\r");
        }
    }
    return yr_finish(&o, d, changes);
}

static void check_edits(const char *name, const char *s, size_t n)
{
    static const size_t strides[] = {1, 2, 3, 7};
    for (int kind = 0; kind < EDITS; kind++)
        for (size_t si = 0; si < sizeof strides / sizeof *strides; si++)
            for (size_t first = 0; first < 2; first++) {
                chain c;
                chain_open(&c, s, n);
                mf_buf out = {0};
                for (int round = 0; round < 2; round++) { /* an edit of an updated model too */
                    c.trace.count = 0;
                    if (edit(&c.d, &out, kind, strides[si], first + (size_t)round))
                        chain_take(&c, &out, name, edit_name[kind]);
                }
                mf_buf_free(&out);
                chain_close(&c);
            }
}

static void check_text(const char *name, const char *s, size_t n)
{
    check_rules(name, s, n, mf_profiles_get("generic_yaml"));
    for (size_t k = 0; k < mf_profiles_count(); k++)
        if (mf_profiles_at(k)->format == MF_FORMAT_YAML)
            check_rules(name, s, n, mf_profiles_at(k));
    check_edits(name, s, n);
}

static void test_fixtures_and_seeds(void **state)
{
    (void)state;
    size_t files = fw_walk(MALFORM_SOURCE_DIR "/tests/fixtures/rules", ".in", check_text);
    size_t seeds = fw_walk(MALFORM_SOURCE_DIR "/corpus/seeds", ".yaml", check_text);
    assert_true(files != (size_t)-1 && seeds != (size_t)-1);
    files += seeds;
    printf("yaml line model: %zu files, %zu updates checked (%zu lines), %zu with copied lines\n", files, updates,
           lines, copied);
    assert_true(files > 100);
    assert_true(copied > 1000);
}

/* Texts with lines the model keeps full size, and texts without a final line break. */
static void test_long_lines(void **state)
{
    (void)state;
    mf_buf t = {0};
    mf_buf_puts(&t, "a: 1\nlong: \"");
    for (size_t i = 0; i < 70000; i++)
        mf_buf_put(&t, "x", 1);
    mf_buf_puts(&t, "\nb: 2\n");
    for (size_t i = 0; i < 300; i++)
        mf_buf_puts(&t, "- ");
    mf_buf_puts(&t, "deep\nc: 3\nlast: \"open");
    check_edits("long lines", t.s, t.len);
    check_rules("long lines", t.s, t.len, mf_profiles_get("generic_yaml"));
    mf_buf_free(&t);
    static const char *const small[] = {"", "a", "a\n", "\n\n", "a: |\n  b\nc: \"d\n  e\"\nf: g\n  h\n", "- \"v\n- \"v",
                                         "x\n\ny", "a: 'b\n  c: d: e\n  f''g\\\n  h'\ni: j: k\n- 'v\n- 'v"};
    for (size_t i = 0; i < sizeof small / sizeof *small; i++) {
        check_edits(small[i], small[i], strlen(small[i]));
        check_rules(small[i], small[i], strlen(small[i]), mf_profiles_get("generic_yaml"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fixtures_and_seeds), cmocka_unit_test(test_long_lines)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
