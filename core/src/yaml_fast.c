/* yaml_fast.c - the block YAML subset of artifacts, read without libyaml.
 *
 * LLM artifacts are block mappings and sequences of plain, quoted and literal
 * scalars. This reader takes that subset line by line and gives the node
 * events libyaml would; at anything else, or at any doubt, it declines and
 * the caller asks libyaml, so a decline only costs the time spent so far.
 * The subset, one construct at a time (every other shape declines):
 * - the text: printable UTF-8 and line feeds only (no tab, CR, BOM, NEL, LS,
 *   PS, C0 or C1 control), one document, maybe opened by a `---` line, its
 *   first content line at column 0;
 * - a mapping entry: a simple key (a letter, digit or '_', then those or
 *   `-./ `) at the mapping's column, ':' then a space or the line's end;
 * - a sequence item: '-' then a space or the line's end at the sequence's
 *   column; under a key, also at the key's column (an indentless sequence);
 *   an item may open a compact mapping (`- key: value`);
 * - a value on the key's or item's line: a plain scalar (no ': ', no ':' at
 *   its end, ended by ' #'), continued on deeper lines that start with no
 *   indicator; a one-line double-quoted scalar with the escapes
 *   \" \\ \/ \n \t \r \b \f; a one-line single-quoted scalar; `|`, `|-`, `>`
 *   or `>-` with an auto-detected indentation (folded: no more-indented
 *   line); `[]`, `{}`, or a one-line `[a, b]` of plain words; nothing on the
 *   line: a nested block on the next lines, or an empty (null) plain scalar;
 * - after a value, the next content line is never deeper than the value's
 *   block.
 */
#include <stdint.h>
#include <string.h>
#include "internal.h"
#include "yaml_fast.h"

enum { FAST_OK = 0, FAST_DECLINE = 1 };
#define MAX_KEY_LEN 1000 /* libyaml looks at most 1024 characters ahead for a simple key's ':' */

typedef struct {
    size_t bol, c, eol; /* line start, first non-space, line end ('\n' or the text's end) */
} line;

typedef struct {
    const char *s;
    size_t n;
    size_t pos; /* start of the current line */
    line at;    /* the line last found (at.bol == pos: the current one) */
    const mf_yfast_sink *k;
    char *buf;  /* the scalar being unescaped or joined */
    size_t len, cap;
} reader;

/* The line at R->pos. The last one found is kept: the block loops look at a line more than once. */
static line cur_line(reader *R)
{
    if (R->at.bol == R->pos && R->at.eol >= R->pos)
        return R->at;
    line l = {R->pos, R->pos, R->n};
    const char *nl = memchr(R->s + R->pos, '\n', R->n - R->pos);
    if (nl)
        l.eol = (size_t)(nl - R->s);
    while (l.c < l.eol && R->s[l.c] == ' ')
        l.c++;
    R->at = l;
    return l;
}

static size_t next_line(const reader *R, const line *l)
{
    return l->eol < R->n ? l->eol + 1 : R->n;
}

/* Move past blank and comment-only lines; false at the end of the text. */
static bool skip_blank(reader *R)
{
    while (R->pos < R->n) {
        line l = cur_line(R);
        if (l.c < l.eol && R->s[l.c] != '#')
            return true;
        R->pos = next_line(R, &l);
    }
    return false;
}

/* Does the UTF-8 sequence at s (n bytes left, s[0] >= 0x80) encode a printable
 * character that is no line break nor BOM? Its length, or 0. */
static size_t printable_utf8(const unsigned char *s, size_t n)
{
    unsigned char a = s[0];
    if (a >= 0xC2 && a <= 0xDF)
        return n >= 2 && (s[1] & 0xC0) == 0x80 && !(a == 0xC2 && s[1] < 0xA0) ? 2 : 0; /* C1 controls, NEL */
    if (a >= 0xE0 && a <= 0xEF) {
        if (n < 3 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80)
            return 0;
        if ((a == 0xE0 && s[1] < 0xA0) || (a == 0xED && s[1] >= 0xA0)) /* overlong, surrogate */
            return 0;
        if (a == 0xE2 && s[1] == 0x80 && (s[2] == 0xA8 || s[2] == 0xA9)) /* LS, PS: line breaks to libyaml */
            return 0;
        if (a == 0xEF && ((s[1] == 0xBB && s[2] == 0xBF) || (s[1] == 0xBF && s[2] >= 0xBE))) /* BOM, U+FFFE/F */
            return 0;
        return 3;
    }
    if (a >= 0xF0 && a <= 0xF4) {
        if (n < 4 || (s[1] & 0xC0) != 0x80 || (s[2] & 0xC0) != 0x80 || (s[3] & 0xC0) != 0x80)
            return 0;
        if ((a == 0xF0 && s[1] < 0x90) || (a == 0xF4 && s[1] >= 0x90))
            return 0;
        return 4;
    }
    return 0;
}

/* Are the eight bytes at s all printable ASCII (0x20 to 0x7E)? A byte
 * under 0x20 sets its high bit in w - 0x20.., one at 0x7F in w + 0x01..,
 * one at 0x80 or more in w; a borrow or carry between bytes comes only
 * from a byte that is flagged itself. */
static bool ascii8(const unsigned char *s)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t w;
    memcpy(&w, s, 8);
    return !(((w - 0x20 * ones) | (w + ones) | w) & 0x80 * ones);
}

/* Only line feeds and printable characters (what every scalar of the subset may hold). */
static bool text_ok(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        if (n - i >= 8 && ascii8(s + i)) {
            i += 8;
        } else if (c >= 0x20 && c < 0x7F) {
            i++;
        } else if (c == '\n') {
            i++;
        } else if (c >= 0x80) {
            size_t k = printable_utf8(s + i, n - i);
            if (!k)
                return false;
            i += k;
        } else {
            return false;
        }
    }
    return true;
}

static bool put(reader *R, const char *s, size_t n)
{
    if (n == 0)
        return true;
    if (R->len + n > R->cap) {
        size_t cap = R->cap ? R->cap : 256;
        while (cap < R->len + n)
            cap *= 2;
        char *b = realloc(R->buf, cap);
        if (!b)
            return false;
        R->buf = b;
        R->cap = cap;
    }
    memcpy(R->buf + R->len, s, n);
    R->len += n;
    return true;
}

static bool is_item(const reader *R, const line *l)
{
    return R->s[l->c] == '-' && (l->c + 1 == l->eol || R->s[l->c + 1] == ' ');
}

static bool key_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool key_char(char c)
{
    return key_start(c) || c == '-' || c == '.' || c == '/' || c == ' ';
}

/* When [p, eol) starts with a simple key then ':' and a space or the line's
 * end, the position of that ':' (*key_end: the key's end, spaces trimmed); else 0. */
static size_t key_colon(const reader *R, size_t p, size_t eol, size_t *key_end)
{
    const char *s = R->s;
    if (p >= eol || !key_start(s[p]))
        return 0;
    size_t q = p + 1;
    while (q < eol && key_char(s[q]))
        q++;
    if (q >= eol || s[q] != ':' || (q + 1 < eol && s[q + 1] != ' ') || q - p > MAX_KEY_LEN)
        return 0;
    size_t e = q;
    while (s[e - 1] == ' ')
        e--;
    *key_end = e;
    return q;
}

/* The end of the value's line after p: only spaces, then the end or a comment. */
static bool rest_blank(const reader *R, size_t p, size_t eol)
{
    size_t q = p;
    while (q < eol && R->s[q] == ' ')
        q++;
    return q == eol || (R->s[q] == '#' && q > p);
}

static int scalar(reader *R, const char *s, size_t n, yaml_scalar_style_t style)
{
    return R->k->scalar(R->k->ctx, n ? s : "", n, style) ? FAST_DECLINE : FAST_OK; /* never NULL: "" */
}

static int map(reader *R, size_t ind, size_t p);
static int seq(reader *R, size_t ind, bool indentless);

/* Could a plain scalar start with s[p] (in block context; flow: also no '-')? */
static bool plain_start(const reader *R, size_t p, size_t eol, bool flow)
{
    char c = R->s[p];
    if (strchr("?:,[]{}#&*!|>'\"%@`", c))
        return false;
    if (c == '-')
        return !flow && p + 1 < eol && R->s[p + 1] != ' ';
    return true;
}

/* The plain text from p on its line: [p, *end) with trailing spaces cut;
 * *comment: a comment ended it. False at a ': ' (or ':' ending the line),
 * a mapping value where none is allowed, or a key. */
static bool plain_line(const reader *R, size_t p, size_t eol, size_t *end, bool *comment)
{
    const char *s = R->s;
    size_t e = p;
    *comment = false;
    for (size_t q = p; q < eol; q++) {
        if (s[q] == ':' && (q + 1 == eol || s[q + 1] == ' '))
            return false;
        if (s[q] == '#' && q > p && s[q - 1] == ' ') {
            *comment = true;
            break;
        }
        if (s[q] != ' ')
            e = q + 1;
    }
    *end = e;
    return true;
}

/* A plain scalar from p (on line l, in a block at column ind): the rest of
 * the line, then the lines deeper than ind that continue it, folded (one
 * space per line break, blank lines kept as line breaks). */
static int plain(reader *R, size_t ind, size_t p, line l)
{
    const char *s = R->s;
    size_t e;
    bool comment;
    if (!plain_line(R, p, l.eol, &e, &comment))
        return FAST_DECLINE;
    R->pos = next_line(R, &l);
    const char *text = s + p;
    size_t n = e - p, breaks = 0;
    R->len = 0;
    while (!comment && R->pos < R->n) {
        line c = cur_line(R);
        if (c.c == c.eol) { /* a blank line: a line break if the scalar goes on after it */
            breaks++;
            R->pos = next_line(R, &c);
            continue;
        }
        if (c.c - c.bol <= ind || s[c.c] == '#')
            break; /* not deeper, or a comment: the scalar ended (blank lines before it are no part of it) */
        if (!plain_start(R, c.c, c.eol, true) || !plain_line(R, c.c, c.eol, &e, &comment))
            return FAST_DECLINE;
        if (R->len == 0 && !put(R, text, n))
            return FAST_DECLINE;
        for (size_t i = 0; i < breaks; i++)
            if (!put(R, "\n", 1))
                return FAST_DECLINE;
        if ((breaks == 0 && !put(R, " ", 1)) || !put(R, s + c.c, e - c.c))
            return FAST_DECLINE;
        text = R->buf;
        n = R->len;
        breaks = 0;
        R->pos = next_line(R, &c);
    }
    return scalar(R, text, n, YAML_PLAIN_SCALAR_STYLE);
}

static int double_quoted(reader *R, size_t p, size_t eol)
{
    const char *s = R->s;
    R->len = 0;
    size_t q = p + 1, run = q;
    for (; q < eol && s[q] != '"'; q++) {
        if (s[q] != '\\')
            continue;
        if (!put(R, s + run, q - run) || q + 1 == eol)
            return FAST_DECLINE;
        const char *from = "\"\\/ntrbf", *to = "\"\\/\n\t\r\b\f", *hit = strchr(from, s[q + 1]);
        if (!hit || !put(R, to + (hit - from), 1))
            return FAST_DECLINE;
        run = ++q + 1;
    }
    if (q == eol || !put(R, s + run, q - run) || !rest_blank(R, q + 1, eol))
        return FAST_DECLINE; /* continued on the next line, or a key */
    return scalar(R, R->buf, R->len, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

static int single_quoted(reader *R, size_t p, size_t eol)
{
    const char *s = R->s;
    R->len = 0;
    size_t q = p + 1, run = q;
    for (;; q++) {
        if (q == eol)
            return FAST_DECLINE;
        if (s[q] != '\'')
            continue;
        if (q + 1 < eol && s[q + 1] == '\'') { /* '' is one quote */
            if (!put(R, s + run, q + 1 - run))
                return FAST_DECLINE;
            run = ++q + 1;
            continue;
        }
        break;
    }
    if (!put(R, s + run, q - run) || !rest_blank(R, q + 1, eol))
        return FAST_DECLINE;
    return scalar(R, R->buf, R->len, YAML_SINGLE_QUOTED_SCALAR_STYLE);
}

/* `[]`, or `[a, b]` of plain words on one line; `{}`. */
static int flow(reader *R, size_t p, size_t eol)
{
    const char *s = R->s;
    bool is_map = s[p] == '{';
    size_t q = p + 1;
    while (q < eol && s[q] == ' ')
        q++;
    if (R->k->start(R->k->ctx, is_map))
        return FAST_DECLINE;
    if (q < eol && s[q] == (is_map ? '}' : ']')) {
        q++;
    } else if (is_map) {
        return FAST_DECLINE;
    } else {
        for (;;) {
            if (q >= eol || !plain_start(R, q, eol, true))
                return FAST_DECLINE;
            size_t b = q, e = q;
            for (; q < eol && s[q] != ',' && s[q] != ']'; q++) {
                if (strchr(":#[]{}\"'", s[q]))
                    return FAST_DECLINE;
                if (s[q] != ' ')
                    e = q + 1;
            }
            if (q == eol || scalar(R, s + b, e - b, YAML_PLAIN_SCALAR_STYLE))
                return FAST_DECLINE;
            if (s[q++] == ']')
                break;
            while (q < eol && s[q] == ' ')
                q++;
        }
    }
    if (!rest_blank(R, q, eol) || R->k->end(R->k->ctx))
        return FAST_DECLINE;
    return FAST_OK;
}

/* `|`, `|-`, `>` or `>-` at p, its body on the next lines, deeper than ind.
 * Folded: a line break between two lines is a space, blank lines between
 * them are line breaks; a more-indented line (kept as is by YAML) declines. */
static int block_scalar(reader *R, size_t ind, size_t p, line l)
{
    const char *s = R->s;
    bool folded = s[p] == '>', strip = p + 1 < l.eol && s[p + 1] == '-';
    size_t h = p + 1 + strip;
    if (h < l.eol && s[h] != ' ')
        return FAST_DECLINE; /* keep chomping, an indentation indicator, or a glued comment */
    if (!rest_blank(R, h, l.eol))
        return FAST_DECLINE;
    R->pos = next_line(R, &l);
    R->len = 0;
    size_t indent = 0, lead = 0, breaks = 0;
    bool body = false;
    while (R->pos < R->n) {
        line b = cur_line(R);
        size_t col = b.c - b.bol;
        if (b.c == b.eol) { /* spaces only: a line break, unless deeper than the body */
            if (body ? col > indent : (lead = col > lead ? col : lead, false))
                return FAST_DECLINE;
            breaks++;
        } else {
            if (!body) {
                if (col <= ind || lead > col)
                    return FAST_DECLINE; /* an empty scalar, or blank lines setting a deeper indentation */
                indent = col;
            } else if (col < indent) {
                break;
            } else if (folded && col > indent) {
                return FAST_DECLINE;
            }
            if (folded && body && breaks == 0 && !put(R, " ", 1))
                return FAST_DECLINE;
            for (size_t i = 0; i < breaks + (body && !folded); i++)
                if (!put(R, "\n", 1))
                    return FAST_DECLINE;
            if (!put(R, s + b.bol + indent, b.eol - b.bol - indent))
                return FAST_DECLINE;
            body = true;
            breaks = 0;
        }
        R->pos = next_line(R, &b);
    }
    if (!body || (!strip && !put(R, "\n", 1)))
        return FAST_DECLINE;
    return scalar(R, R->buf, R->len, folded ? YAML_FOLDED_SCALAR_STYLE : YAML_LITERAL_SCALAR_STYLE);
}

/* The value of a key or item with nothing after it on its line: a block
 * below it, an indentless sequence (in_map), or an empty scalar. */
static int nested(reader *R, size_t ind, bool in_map)
{
    if (skip_blank(R)) {
        line l = cur_line(R);
        size_t col = l.c - l.bol, key_end;
        if (col > ind) {
            if (is_item(R, &l))
                return seq(R, col, false);
            if (key_colon(R, l.c, l.eol, &key_end))
                return map(R, col, l.c);
            return FAST_DECLINE;
        }
        if (col == ind && in_map && is_item(R, &l))
            return seq(R, col, true);
    }
    return scalar(R, "", 0, YAML_PLAIN_SCALAR_STYLE);
}

/* The value starting at p on line l, in a block at column ind (in_map: a mapping's). */
static int value(reader *R, size_t ind, size_t p, line l, bool in_map)
{
    const char *s = R->s;
    if (p == l.eol || s[p] == '#') {
        R->pos = next_line(R, &l);
        return nested(R, ind, in_map);
    }
    if (s[p] == '|' || s[p] == '>')
        return block_scalar(R, ind, p, l);
    if (s[p] != '"' && s[p] != '\'' && s[p] != '[' && s[p] != '{')
        return plain_start(R, p, l.eol, false) ? plain(R, ind, p, l) : FAST_DECLINE;
    R->pos = next_line(R, &l);
    if (s[p] == '"')
        return double_quoted(R, p, l.eol);
    if (s[p] == '\'')
        return single_quoted(R, p, l.eol);
    return flow(R, p, l.eol);
}

/* After a value: is there a next line of this block at column ind? 0 when
 * the block ends (a shallower line or the text's end), -1 when a line is deeper. */
static int next_in_block(reader *R, size_t ind, line *l)
{
    if (!skip_blank(R))
        return 0;
    *l = cur_line(R);
    size_t col = l->c - l->bol;
    return col < ind ? 0 : col > ind ? -1 : 1;
}

/* A block mapping at column ind whose first key is at p on the current line. */
static int map(reader *R, size_t ind, size_t p)
{
    if (R->k->start(R->k->ctx, true))
        return FAST_DECLINE;
    line l = cur_line(R);
    for (;;) {
        size_t key_end, colon = key_colon(R, p, l.eol, &key_end);
        if (!colon || scalar(R, R->s + p, key_end - p, YAML_PLAIN_SCALAR_STYLE))
            return FAST_DECLINE;
        size_t v = colon + 1;
        while (v < l.eol && R->s[v] == ' ')
            v++;
        if (value(R, ind, v, l, true))
            return FAST_DECLINE;
        int more = next_in_block(R, ind, &l);
        if (more < 0)
            return FAST_DECLINE;
        if (more == 0)
            break;
        p = l.c;
    }
    return R->k->end(R->k->ctx) ? FAST_DECLINE : FAST_OK;
}

/* A block sequence at column ind whose first item is the current line. */
static int seq(reader *R, size_t ind, bool indentless)
{
    if (R->k->start(R->k->ctx, false))
        return FAST_DECLINE;
    line l = cur_line(R);
    for (;;) {
        size_t p = l.c + 1, key_end;
        while (p < l.eol && R->s[p] == ' ')
            p++;
        int rc;
        if (p < l.eol && R->s[p] == '-' && (p + 1 == l.eol || R->s[p + 1] == ' '))
            return FAST_DECLINE; /* `- - x` */
        if (key_colon(R, p, l.eol, &key_end))
            rc = map(R, p - l.bol, p);
        else
            rc = value(R, ind, p, l, false);
        if (rc)
            return FAST_DECLINE;
        int more = next_in_block(R, ind, &l);
        if (more < 0)
            return FAST_DECLINE;
        if (more == 0)
            break;
        if (!is_item(R, &l)) {
            if (!indentless)
                return FAST_DECLINE;
            break; /* the mapping holding it goes on */
        }
    }
    return R->k->end(R->k->ctx) ? FAST_DECLINE : FAST_OK;
}

int mf_yaml_fast_read(const char *text, size_t len, const mf_yfast_sink *sink)
{
    if (!text_ok(text, len))
        return FAST_DECLINE;
    reader R = {text, len, 0, {1, 0, 0}, sink, NULL, 0, 0}; /* at: no line yet (eol < bol) */
    int rc = FAST_DECLINE;
    if (skip_blank(&R) && R.n - R.pos >= 3 && memcmp(text + R.pos, "---", 3) == 0) {
        line l = cur_line(&R); /* `---` alone (or with a comment): an explicit start, the same events */
        if (!rest_blank(&R, R.pos + 3, l.eol) || (R.pos + 3 < l.eol && text[R.pos + 3] != ' '))
            return FAST_DECLINE;
        R.pos = next_line(&R, &l);
    }
    if (skip_blank(&R)) {
        line l = cur_line(&R);
        size_t key_end;
        if (l.c == l.bol)
            rc = is_item(&R, &l) ? seq(&R, 0, false)
                 : key_colon(&R, l.c, l.eol, &key_end) ? map(&R, 0, l.c) : FAST_DECLINE;
        if (rc == FAST_OK && skip_blank(&R))
            rc = FAST_DECLINE;
    }
    free(R.buf);
    return rc;
}
