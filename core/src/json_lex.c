/* json_lex.c - the tolerant JSON scanner's cursor: moving through the text
 * with line numbers, recording repairs (warnings) and the first unrepairable
 * problem (JSON_SYNTAX_ERROR with line and column), and skipping whitespace,
 * Unicode spaces and comments between tokens. */
#include <stdarg.h>
#include <ctype.h>
#include <string.h>
#include "json_lex.h"


void jl_note(jp *p, int rule, int line, const char *fmt, ...)
{
    if (++p->counts[rule] > WARN_CAP)
        return;
    if (p->counts[rule] == 1)
        p->count_line[rule] = line;
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_warnings_add_text(p->w, mf_rules[rule].id, line, msg);
}

static int jl_column_at(const jp *p, size_t bol, size_t at)
{
    int col = 1;
    for (size_t k = bol; k < at && k < p->n; k++)
        if (((unsigned char)p->s[k] & 0xC0) != 0x80)
            col++;
    return col;
}

static void jl_describe(const jp *p, size_t at, char *out, size_t outlen)
{
    if (at >= p->n) {
        snprintf(out, outlen, "end of input");
        return;
    }
    unsigned char c = (unsigned char)p->s[at];
    if (c >= 0x20 && c < 0x7f)
        snprintf(out, outlen, "'%c'", c);
    else if (c == '\n')
        snprintf(out, outlen, "a line break");
    else
        snprintf(out, outlen, "byte 0x%02X", c);
}

/* Record the first unrepairable problem at the current position. */

void jl_cut(jp *p, const char *fmt, ...)
{
    if (p->cut_what[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->cut_what, sizeof p->cut_what, fmt, ap);
    va_end(ap);
}

int jl_fail(jp *p, const char *fmt, ...)
{
    if (p->failed)
        return -1;
    p->failed = true;
    char msg[256], found[32];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    jl_describe(p, p->i, found, sizeof found);
    mf_error_set(p->err, 1, "JSON_SYNTAX_ERROR", "", p->line, jl_column_at(p, p->bol, p->i),
                 "%s, found %s", msg, found);
    return -1;
}


void jl_advance(jp *p)
{
    if (p->i < p->n && p->s[p->i] == '\n') {
        p->line++;
        p->bol = p->i + 1;
    }
    p->i++;
}

void jl_advance_n(jp *p, size_t k)
{
    while (k-- > 0 && p->i < p->n)
        jl_advance(p);
}


bool jl_is_word(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$' || c == '.' || c == '+' || c == '-';
}

/* Length of a Unicode space (NBSP, U+2000..U+200B, U+202F, U+205F, U+3000, U+FEFF) at k, or 0. */
size_t jl_unicode_space(const jp *p, size_t k)
{
    int a = at(p, k), b = at(p, k + 1), c = at(p, k + 2);
    if (a == 0xC2 && b == 0xA0)
        return 2;
    if (a == 0xE2 && b == 0x80 && ((c >= 0x80 && c <= 0x8B) || c == 0xAF))
        return 3;
    if (a == 0xE2 && b == 0x81 && c == 0x9F)
        return 3;
    if (a == 0xE3 && b == 0x80 && c == 0x80)
        return 3;
    if (a == 0xEF && b == 0xBB && c == 0xBF)
        return 3;
    return 0;
}

/* Kind of a smart quote at k: Q_SMART_DOUBLE for “ ”, Q_SMART_SINGLE for ‘ ’, -1 otherwise. */
int jl_smart_quote(const jp *p, size_t k)
{
    if (at(p, k) != 0xE2 || at(p, k + 1) != 0x80)
        return -1;
    int c = at(p, k + 2);
    if (c == 0x9C || c == 0x9D)
        return Q_SMART_DOUBLE;
    if (c == 0x98 || c == 0x99)
        return Q_SMART_SINGLE;
    return -1;
}

/* Does the line comment [a, e) hold JSON structure: a key (`"k":`) or a
 * closer? After a token on the same line such a comment may have swallowed
 * members (`"n": 3 // default 5, "t": 30}`). *closer: offset of its first
 * closer ('}' or ']'), e when none; *key_before: a key stands before it. */
static bool comment_structure(const jp *p, size_t a, size_t e, size_t *closer, bool *key_before)
{
    *closer = e;
    *key_before = false;
    bool key = false;
    for (size_t j = a; j < e; j++) {
        int c = at(p, j);
        if ((c == '}' || c == ']') && *closer == e) {
            *closer = j;
            *key_before = key;
        }
        if (c != ':')
            continue;
        size_t k = j;
        while (k > a && (at(p, k - 1) == ' ' || at(p, k - 1) == '\t'))
            k--;
        if (k > a && (at(p, k - 1) == '"' || at(p, k - 1) == '\''))
            key = true;
    }
    if (*closer == e)
        *key_before = key;
    return key || *closer < e;
}

/* Skip a line comment ('#' or '//') at the cursor. A comment after a token
 * on its line that holds JSON structure is a commented-out member when the
 * document goes on below it: removed, the warning quotes it. On the last line
 * it has swallowed the document's end: a comment without a key before its
 * first closer ends there (`"v" // note }, "k": 1}`), else it is rejected. */
static int skip_line_comment(jp *p)
{
    size_t a = p->i, e = a;
    bool escaped_lines = p->counts[MF_RULE_JSON_ESCAPED_JSON] > 0;   /* `\n` between tokens: a line break */
    while (e < p->n && p->s[e] != '\n' && !(escaped_lines && p->s[e] == '\\' && at(p, e + 1) == 'n'))
        e += escaped_lines && p->s[e] == '\\' ? 2 : 1;
    if (e > p->n)
        e = p->n;
    bool trailing = false;
    for (size_t k = p->bol; k < a && !trailing; k++)
        trailing = !is_ws(at(p, k));
    size_t body = a + (cur(p) == '#' ? 1 : 2), closer;
    bool key_before;
    const char *what = "comment removed";
    if (trailing && comment_structure(p, body, e, &closer, &key_before)) {
        if (jl_past_spaces(p, e) < p->n) {
            what = "comment holding JSON structure removed (a commented-out member?)";
        } else if (closer < e && !key_before) {
            e = closer;
            what = "comment ended before the closer it ran into";
        } else {
            return jl_fail(p, "a comment after a value holds JSON structure (a key or a closer) on the "
                              "last line: it may hide members, so it is not removed");
        }
    }
    size_t shown = e - a > 100 ? 100 : e - a;
    while (shown > 0 && shown < e - a && ((unsigned char)p->s[a + shown] & 0xC0) == 0x80)
        shown--;
    jl_note(p, MF_RULE_JSON_COMMENT, p->line, "%s: %.*s%s", what, (int)shown, p->s + a, shown < e - a ? "..." : "");
    jl_advance_n(p, e - a);
    return 0;
}

/* A run of 3 or more backticks at the cursor, then only whitespace: a
 * closing code fence after JSON whose containers are still open. */
static bool closing_fence_ends_input(const jp *p)
{
    size_t k = p->i;
    while (k < p->n && at(p, k) == '`')
        k++;
    return k - p->i >= 3 && jl_past_spaces(p, k) >= p->n;
}

/* A '#' where a member value belongs (after ':') that starts one word
 * running to ',', '}', ']' or the line end (`"color": #ff0000,`): a value
 * (json.bare-word), not a comment. */
static bool hash_value_at(const jp *p)
{
    size_t b = p->i;
    while (b > 0 && (at(p, b - 1) == ' ' || at(p, b - 1) == '\t'))
        b--;
    if (b == 0 || at(p, b - 1) != ':' || !isalnum(at(p, p->i + 1)))
        return false;
    size_t e = p->i + 1;
    while (e < p->n && (isalnum(at(p, e)) || at(p, e) == '_' || at(p, e) == '-'))
        e++;
    while (e < p->n && (at(p, e) == ' ' || at(p, e) == '\t' || at(p, e) == '\r'))
        e++;
    return e >= p->n || strchr(",}]\n", at(p, e));
}

/* Skip whitespace and comments between tokens, noting each repair. */
int jl_skip_ws(jp *p)
{
    for (;;) {
        int c = cur(p);
        if (is_ws(c)) {
            jl_advance(p);
            continue;
        }
        size_t us = jl_unicode_space(p, p->i);
        if (us) {
            jl_note(p, MF_RULE_JSON_UNICODE_SPACE, p->line, "Unicode space character between tokens removed");
            jl_advance_n(p, us);
            continue;
        }
        if (c == '\\' && (at(p, p->i + 1) == 'n' || at(p, p->i + 1) == 'r' || at(p, p->i + 1) == 't')) {
            jl_note(p, MF_RULE_JSON_ESCAPED_JSON, p->line, "escaped whitespace '\\%c' between tokens read as whitespace",
                    at(p, p->i + 1));
            jl_advance_n(p, 2);
            continue;
        }
        if (c == '`' && p->depth > 0 && closing_fence_ends_input(p)) {
            jl_note(p, MF_RULE_JSON_TRUNCATED, p->line, "closing code fence after the unclosed JSON removed");
            jl_advance_n(p, p->n - p->i);
            continue;
        }
        if (c == '#' && hash_value_at(p))
            return 0;
        if (c == '#' || (c == '/' && at(p, p->i + 1) == '/')) {
            if (skip_line_comment(p))
                return -1;
            continue;
        }
        if (c == '/' && at(p, p->i + 1) == '*') {
            size_t a = p->i, e = a + 2;
            while (e < p->n && !(p->s[e] == '*' && e + 1 < p->n && p->s[e + 1] == '/') && e - a < 64)
                e++;
            size_t shown = e - a;
            while (shown > 0 && shown < (size_t)(p->n - a) && ((unsigned char)p->s[a + shown] & 0xC0) == 0x80)
                shown--;                /* do not cut a UTF-8 sequence */
            jl_note(p, MF_RULE_JSON_COMMENT, p->line, "comment removed: %.*s%s", (int)shown, p->s + a,
                    e - a >= 64 ? "..." : " */");
            jl_advance_n(p, 2);
            while (!at_end(p) && !(cur(p) == '*' && at(p, p->i + 1) == '/'))
                jl_advance(p);
            if (at_end(p))
                p->closed_string = true;   /* an unterminated comment is a truncation */
            else
                jl_advance_n(p, 2);
            continue;
        }
        return 0;
    }
}

/* Offset of the first byte at or after k that is neither JSON whitespace nor
 * a Unicode space (skip_ws drops those between tokens, json.unicode-space). */
size_t jl_past_spaces(const jp *p, size_t k)
{
    for (size_t us; k < p->n;) {
        if (is_ws(at(p, k)))
            k++;
        else if ((us = jl_unicode_space(p, k)))
            k += us;
        else
            break;
    }
    return k;
}


size_t jl_past_spaces_comments(const jp *p, size_t k)
{
    for (;;) {
        k = jl_past_spaces(p, k);
        if (at(p, k) != '/' || at(p, k + 1) != '*')
            return k;
        size_t e = k + 2;
        while (e + 1 < p->n && !(p->s[e] == '*' && p->s[e + 1] == '/'))
            e++;
        if (e + 1 >= p->n)
            return k;
        k = e + 2;
    }
}
