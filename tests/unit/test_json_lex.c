/* test_json_lex.c - the JSON scanner's fast paths change nothing.
 *
 * - jl_note's own formatter writes what vsnprintf writes (conversions,
 *   precision, truncation at the note buffer), and hands other conversions
 *   to vsnprintf.
 * - The string runs (jl_string_run: 16 bytes at a time, stopping only at
 *   the bytes jl_parse_string decides on for the string's quote kind) give
 *   the values, warnings and errors of the byte-by-byte reference
 *   (MF_JSON_SCAN_BYTEWISE), and the UTF-8 shortcut (MF_JSON_SCAN_UTF8) those
 *   of the checked scan, on every JSON rule fixture input and on mutations
 *   of them. A decision jl_parse_string gains for a byte the runs skip shows
 *   up here as a difference. */
#include <dirent.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "json_lex.h"

/* ------------------------------------------------------------ formatter */

static void expected(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void expected(char *out, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, cap, fmt, ap);
    va_end(ap);
}

/* jl_note's message for fmt and its arguments, and vsnprintf's, must match. */
#define CHECK_NOTE(...)                                                                            \
    do {                                                                                           \
        mf_warnings w = {0};                                                                       \
        jp p = {0};                                                                                \
        p.w = &w;                                                                                  \
        char want[256];                                                                            \
        expected(want, sizeof want, __VA_ARGS__);                                                   \
        jl_note(&p, MF_RULE_JSON_COMMENT, 1, __VA_ARGS__);                                         \
        assert_int_equal(w.count, 1);                                                              \
        assert_string_equal(w.items[0].message, want);                                             \
        mf_warnings_clear(&w);                                                                     \
    } while (0)

static void formatter_matches_vsnprintf(void **state)
{
    (void)state;
    char big[600];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    CHECK_NOTE("plain text, no conversion");
    CHECK_NOTE("key '%.*s' quoted", 3, "abcdef");
    CHECK_NOTE("key '%.*s' quoted", 0, "abcdef");
    CHECK_NOTE("key '%.*s' quoted", -1, "abcdef");
    CHECK_NOTE("key '%.*s' quoted", 40, "short");
    CHECK_NOTE("member \"%.40s\" had no value", "a key longer than forty bytes, surely longer than that");
    CHECK_NOTE("placeholder '%.3s' dropped", "...more");
    CHECK_NOTE("%s then %s", "one", "");
    CHECK_NOTE("stray '%c' after a comma removed", ':');
    CHECK_NOTE("lines %d, %d and %d", 0, -7, INT_MIN);
    CHECK_NOTE("%d %u %zu %llu 100%%", INT_MAX, UINT_MAX, (size_t)SIZE_MAX, ULLONG_MAX);
    CHECK_NOTE("hex %x and width %5d go to vsnprintf", 255u, 42);
    CHECK_NOTE("truncated: %s", big);
    CHECK_NOTE("%.*s|%s", 300, big, "after the cut");
}

/* --------------------------------------------- fast scan against reference */

typedef struct {
    int rc;
    mf_json_tops tops;
    mf_warnings w;
    mf_error e;
} scan;

static scan run_scan(const char *s, size_t n, unsigned flags)
{
    scan r = {0};
    r.rc = mf_json_scan(s, n, 64, flags, &r.tops, &r.w, &r.e);
    return r;
}

static void scan_free(scan *r)
{
    if (r->rc == 0)
        mf_json_tops_free(&r->tops);
    mf_warnings_clear(&r->w);
    mf_error_clear(&r->e);
}

static void assert_same_scan(const scan *a, const scan *b, const char *what)
{
    if (a->rc != b->rc)
        fail_msg("%s: rc %d vs %d", what, a->rc, b->rc);
    if (a->rc != 0) {
        if (a->e.line != b->e.line || a->e.column != b->e.column || strcmp(a->e.message, b->e.message) != 0)
            fail_msg("%s: error %d:%d %s vs %d:%d %s", what, a->e.line, a->e.column, a->e.message, b->e.line,
                     b->e.column, b->e.message);
        return;
    }
    assert_int_equal(a->tops.count, b->tops.count);
    for (size_t k = 0; k < a->tops.count; k++)
        if (!json_equal(a->tops.items[k].value, b->tops.items[k].value) ||
            a->tops.items[k].start != b->tops.items[k].start || a->tops.items[k].end != b->tops.items[k].end)
            fail_msg("%s: top-level value %zu differs", what, k);
    if (a->w.count != b->w.count)
        fail_msg("%s: %zu warnings vs %zu", what, a->w.count, b->w.count);
    for (size_t k = 0; k < a->w.count; k++) {
        const mf_warning *x = &a->w.items[k], *y = &b->w.items[k];
        if (strcmp(x->rule, y->rule) != 0 || strcmp(x->message, y->message) != 0 || x->line != y->line ||
            x->count != y->count)
            fail_msg("%s: warning %zu: %s line %d \"%s\" vs %s line %d \"%s\"", what, k, x->rule, x->line,
                     x->message, y->rule, y->line, y->message);
    }
}

static bool valid_utf8(const char *s, size_t n)
{
    json_t *v = json_stringn(s, n);
    json_decref(v);
    return v != NULL;
}

static void compare_modes(const char *s, size_t n, const char *what)
{
    scan fast = run_scan(s, n, 0), ref = run_scan(s, n, MF_JSON_SCAN_BYTEWISE);
    assert_same_scan(&fast, &ref, what);
    if (valid_utf8(s, n)) {
        scan known = run_scan(s, n, MF_JSON_SCAN_UTF8);
        assert_same_scan(&known, &ref, what);
        scan_free(&known);
    }
    scan_free(&fast);
    scan_free(&ref);
}

static uint64_t rng_next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Bytes the scanner decides on, and multi-byte ones it reads (smart quotes,
 * Unicode spaces, an ellipsis, a non-ASCII letter). */
static const char *const pieces[] = {
    "\"", "'", "`", "\\", "$", "${", "}", "{", "[", "]", ",", ":", "\n", " ", "\t", "\r", "#", "//",
    "/*", "*/", "+", "(", ")", "...", "\x01", "\xE2\x80\x9C", "\xE2\x80\x9D", "\xE2\x80\x98",
    "\xE2\x80\x99", "\xC2\xA0", "\xE2\x80\xA6", "\xC3\xA9", "\xE2\x80\x94", "True", "None", "NaN", "\\u00e9",
    "\\n", "\\'"};

/* Mutation m of [s, s+n): a few pieces inserted or bytes deleted (into buf). */
static size_t mutate(const char *s, size_t n, uint64_t seed, char *buf, size_t cap)
{
    size_t len = n < cap / 2 ? n : cap / 2;
    memcpy(buf, s, len);
    uint64_t r = seed * 0x9E3779B97F4A7C15ull | 1;
    int edits = 1 + (int)(rng_next(&r) % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = len ? (size_t)(rng_next(&r) % (len + 1)) : 0;
        if (rng_next(&r) % 3 == 0 && at < len) {
            size_t del = 1 + (size_t)(rng_next(&r) % 3);
            if (del > len - at)
                del = len - at;
            memmove(buf + at, buf + at + del, len - at - del);
            len -= del;
        } else {
            const char *piece = pieces[rng_next(&r) % (sizeof pieces / sizeof *pieces)];
            size_t pl = strlen(piece);
            if (len + pl >= cap)
                continue;
            memmove(buf + at + pl, buf + at, len - at);
            memcpy(buf + at, piece, pl);
            len += pl;
        }
    }
    return len;
}

static char *read_file(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    mf_buf b = {0};
    char chunk[4096];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, got);
    fclose(f);
    *n = b.len;
    return mf_buf_detach(&b);
}

#define MUTATIONS 24

static void fast_runs_match_bytewise(void **state)
{
    (void)state;
    char root[4096];
    snprintf(root, sizeof root, "%s/tests/fixtures/rules", MALFORM_SOURCE_DIR);
    DIR *d = opendir(root);
    assert_non_null(d);
    size_t inputs = 0;
    static char buf[1 << 17];
    for (struct dirent *e; (e = readdir(d));) {
        if (strncmp(e->d_name, "json.", 5) != 0)
            continue;
        char dir[4400];
        snprintf(dir, sizeof dir, "%s/%s", root, e->d_name);
        DIR *fd = opendir(dir);
        for (struct dirent *f; fd && (f = readdir(fd));) {
            size_t l = strlen(f->d_name);
            if (l < 4 || strcmp(f->d_name + l - 3, ".in") != 0)
                continue;
            char path[4800];
            snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
            size_t n = 0;
            char *text = read_file(path, &n);
            assert_non_null(text);
            compare_modes(text, n, path);
            for (uint64_t m = 1; m <= MUTATIONS; m++) {
                size_t mn = mutate(text, n, m + inputs * 1000, buf, sizeof buf);
                char what[4900];
                snprintf(what, sizeof what, "%s (mutation %llu)", path, (unsigned long long)m);
                compare_modes(buf, mn, what);
            }
            free(text);
            inputs++;
        }
        if (fd)
            closedir(fd);
    }
    closedir(d);
    assert_true(inputs > 50);
}

/* Long strings of every quote kind, with each decided-on byte at every
 * offset of a 16-byte block (the run's block edges). */
static void runs_stop_at_block_edges(void **state)
{
    (void)state;
    static const char *const opens[] = {"\"", "'", "`", "\xE2\x80\x9C", "\xE2\x80\x98"};
    static const char *const closes[] = {"\"", "'", "`", "\xE2\x80\x9D", "\xE2\x80\x99"};
    static const char *const inner[] = {"\"", "'", "`", "\\\\", "\\n", "$", "${x}", "\x01", "\xE2\x80\x94",
                                        "\xE2\x80\x9D", "\xE2\x80\x99", "\"k\": 1"};
    char text[256];
    for (size_t q = 0; q < sizeof opens / sizeof *opens; q++)
        for (size_t b = 0; b < sizeof inner / sizeof *inner; b++)
            for (int off = 0; off < 40; off++) {
                int n = snprintf(text, sizeof text, "{\"k\": %s%.*s%s and more text after it%s}", opens[q], off,
                                 "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH", inner[b], closes[q]);
                compare_modes(text, (size_t)n, text);
                n = snprintf(text, sizeof text, "[%s%.*s%s", opens[q], off,
                             "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH", inner[b]);
                compare_modes(text, (size_t)n, text);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(formatter_matches_vsnprintf),
        cmocka_unit_test(fast_runs_match_bytewise),
        cmocka_unit_test(runs_stop_at_block_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
