/* json_string.c - JSON strings for the tolerant scanner, and the decision the
 * whole repair depends on: which quote closes a string.
 *
 * A double quote inside a string is the closing quote only when what follows it looks like JSON structure: end of input,
 * `}` or `]`, `:` for a key, `,` followed by a key, a value or a closer, or
 * whitespace followed by a quote, bracket or comment (a missing comma).
 * Unicode spaces (NBSP, ...) count as whitespace in these lookaheads, as they
 * do between tokens: a NBSP after the comma that ends a member must not make
 * its closing quote an inner one. Otherwise it is an unescaped inner
 * quote and stays text. The same test closes single-quoted and smart-quoted strings. `${...}` on one line is kept
 * whole (quotes inside it are text). Literal control characters stay in the
 * value (the canonical output escapes them); invalid escapes keep their
 * backslash. Every lookahead only crosses text up to the next quote (or a
 * fixed 256 bytes for `${`), so the scan is linear in the input. */
#include <ctype.h>
#include <string.h>
#include "json_lex.h"

#define TPL_LOOKAHEAD 256  /* bytes searched for the `}` closing a `${` */
#define KEY_LOOKAHEAD 256  /* bytes searched for the end of a key after a missing quote */
#define VALUE_LOOKAHEAD 4096 /* bytes searched for the end of a member's quoted value */
#define OPENERS_TRACKED 32 /* nesting of JSON text inside a string followed by swallowed_member */

static size_t key_colon_end(const jp *p, size_t content);
static bool backtick_key_at(const jp *p, size_t k);
static bool backtick_item_at(const jp *p, size_t k);

/* Does a key start at k that the end of input cuts (`, "ti`, `, "title"`)? */
static bool key_cut(const jp *p, size_t k)
{
    int q = at(p, k) == '\'' ? '\'' : '"';
    size_t j = jl_quote_end_on_line(p, k + 1, q);
    return j >= p->n || (at(p, j) == q && jl_past_spaces(p, j + 1) >= p->n);
}

/* Does a quoted key missing its ':' start at k (`"n" 2`, `"c"2`, `"a" "b"`):
 * a one-line string, then a value's first character? */
bool jl_key_without_colon(const jp *p, size_t k)
{
    int q = at(p, k) == '\'' ? '\'' : '"';
    size_t j = jl_quote_end_on_line(p, k + 1, q);
    if (at(p, j) != q)
        return false;
    size_t v = jl_past_spaces(p, j + 1);
    int c = at(p, v);
    return c == '"' || c == '\'' || c == '{' || c == '[' || c == '-' || (c >= '0' && c <= '9') ||
           (v > j + 1 && (c == '`' || c == '(' || jl_smart_quote(p, v) >= 0)) ||
           (v > j + 1 && jl_word_is_literal(p->s + v, jl_word_end(p, v) - v));
}

/* Does a key holding one stray quote start at k (`"co"ntent": 1`): two
 * words on one line between three quotes, then ':'? */
static bool key_with_inner_quote(const jp *p, size_t k)
{
    size_t j = k + 1, quotes = 0;
    for (; j < p->n && j < k + KEY_LOOKAHEAD && quotes < 2; j++) {
        int c = at(p, j);
        if (c == '"')
            quotes++;
        else if (!(isalnum(c) || c == '_' || c == '-'))
            return false;
    }
    return quotes == 2 && at(p, j - 2) != '"' && at(p, k + 1) != '"' && at(p, jl_past_spaces(p, j)) == ':';
}

/* Does a string on one line start at k that ',' or '}' follows (`, "b"}`,
 * `, "b", "c": 1`): a key without its value, or a list's item without its
 * brackets - not text of the string before it? */
static bool lone_string_member(const jp *p, size_t k)
{
    size_t j = k + 1;
    while (j < p->n && j < k + KEY_LOOKAHEAD && at(p, j) != '"' && at(p, j) != '\n')
        j += at(p, j) == '\\' ? 2 : 1;
    if (at(p, j) != '"' || j >= k + KEY_LOOKAHEAD)
        return false;
    int c = at(p, jl_past_spaces(p, j + 1));
    return c == '}' || c == ',';
}

/* At a '(' after an array element's comma: a Python tuple element - a value
 * opens it and its ')' (within 4096 bytes, lines apart as in pretty output)
 * is followed by ',', ']' (or ')' inside a tuple)? Not `"f("a", (1))"`,
 * text that goes on after the ')'. */
static bool tuple_element_at(const jp *p, size_t k)
{
    int d = at(p, jl_past_spaces(p, k + 1));
    if (!(d > 0 && (strchr("\"'[{(-", d) || (d >= '0' && d <= '9'))))
        return false;
    int depth = 0;
    for (size_t e = k; e < p->n && e < k + 4096; e++) {
        int c = at(p, e);
        if (c == '"' || c == '\'') {  /* a quoted part: to its closing quote on the line */
            size_t q = jl_quote_end_on_line(p, e + 1, c);
            if (at(p, q) != c)
                return false;
            e = q;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
            int f = at(p, jl_past_spaces(p, e + 1));
            return c == ')' && (f < 0 || f == ',' || f == ']' || (f == ')' && p->tuple_depth > 0));
        }
    }
    return false;
}

/* Does an array item that is a number or a literal start at k and end at
 * structure (`+2]`, `.5,`, `true` then a line `]`)? */
static bool scalar_item_at(const jp *p, size_t k)
{
    size_t w = jl_word_end(p, k);
    if (w == k || !(jl_number_word(p->s + k, w - k) || jl_word_is_literal(p->s + k, w - k)))
        return false;
    size_t e = jl_past_spaces(p, w);
    return e >= p->n || strchr(",]}", at(p, e));
}

bool jl_empty_key_at(const jp *p, size_t k)
{
    return at(p, k + 1) == at(p, k) && at(p, jl_past_spaces(p, k + 2)) == ':';
}

/* After a comma at k-1: does structure (a key, a value, a closer) follow?
 * inner: the string already read an inner quote. */
/* Is the line after the line break at e the tail of a string (`second line",
 * "done": false`): text from its first byte to a quote, which a comma, a
 * closer or the line's end follows? */
static bool string_tail_line(const jp *p, size_t e)
{
    size_t k = e;
    while (k < p->n && (at(p, k) == '\r' || at(p, k) == '\n'))
        k++;
    k = jl_past_spaces(p, k);
    if (!isalnum(at(p, k)))
        return false;
    while (k < p->n && at(p, k) != '"' && at(p, k) != '\n' && at(p, k) != '{' && at(p, k) != '[')
        k++;
    if (at(p, k) != '"')
        return false;
    int c = at(p, jl_past_spaces(p, k + 1));
    return c < 0 || c == ',' || c == '}' || c == ']' || c == '\n' || c == '\r';
}

static bool structure_after_comma(const jp *p, size_t k, bool member_value, bool inner)
{
    size_t e = jl_past_blanks(p, k);
    /* `",` ending its line: the member ends there, unless the string had an inner quote and the next
     * line is its tail (`"Don't say "hi",` + `second line", "done": 1`, run 56 5a7cfa8a) */
    if (member_value && (e >= p->n || at(p, e) == '\n' || at(p, e) == '\r'))
        return !(inner && string_tail_line(p, e));
    k = jl_past_spaces(p, k);
    if ((at(p, k) == ':' || at(p, k) == ';' || (at(p, k) == '+' && member_value)) && is_ws(at(p, k + 1)))
        k = jl_past_spaces(p, k + 1);   /* a stray ':', ';' or '+' after the comma (",: ", ",+ ") */
    int c = at(p, k);
    if (c == '\'' && member_value)
        return jl_key_at(p, k) || key_cut(p, k) || jl_key_without_colon(p, k) || jl_empty_key_at(p, k);
    /* after a member value only a key (or '}') follows: `"f("a", [1])"` stays one string */
    if (c == '"' && member_value)
        return jl_key_at(p, k) || key_colon_end(p, k + 1) || jl_key_without_colon(p, k) || key_cut(p, k) ||
               key_with_inner_quote(p, k) || (!inner && lone_string_member(p, k)) ||
               jl_empty_key_at(p, k);
    if (c == '\\' && member_value && at(p, k + 1) == '"')
        return jl_key_at(p, k + 1);     /* `, \"notes": 1`: a key whose opening quote is escaped */
    if (c == '`' && member_value)       /* `, `k´: 1`: a backtick key */
        return backtick_key_at(p, k);
    if (member_value && c > 0 && strchr("{[]`", c))
        return false;
    if (member_value && (c == '-' || (c >= '0' && c <= '9')))
        return at(p, jl_past_spaces(p, jl_word_end(p, k))) == ':';   /* `, 5: "v"`: a number key */
    if (c < 0 || (c && strchr("\"'{[]},-#`", c)) || (c >= '0' && c <= '9') || jl_smart_quote(p, k) >= 0)
        return true;
    if ((c == '+' || c == '.') && !member_value && scalar_item_at(p, k))
        return true;                    /* `"d", +2`: a number json.number-format reads */
    if (c == ')' && p->tuple_depth > 0)
        return true;                    /* `("r", "c",)`: a tuple's trailing comma */
    if (c == '(' && !member_value && p->depth > 0 && tuple_element_at(p, k))
        return true;                    /* `["h", ("q", "a")]`: a Python tuple element */
    if (c == '/')
        return at(p, k + 1) == '/' || at(p, k + 1) == '*';
    if (jl_placeholder_at(p, k))
        return true;
    size_t w = k;
    while (w < p->n && jl_is_word(at(p, w)) && at(p, w) != '.' && at(p, w) != '+')
        w++;
    if (w == k)
        return false;
    if (jl_word_is_literal(p->s + k, w - k) && !member_value)
        return true;
    if (jl_open_quote_missing(p, w))
        return true;                    /* `, b": 2`, `, b"]`: a string missing its opening quote */
    size_t q = jl_past_spaces(p, w);
    if (q > w && at(p, q) == '"' && jl_key_at(p, q))
        return true;                    /* `, COMMENT "b": 2`: a stray word before a key */
    /* its ':' may start the next line (`, description` + `: "Build it"`, run 34 dd45ee5c) */
    return at(p, jl_past_spaces(p, w)) == ':';
}

/* After a space at a member value's candidate closing quote: a stray word
 * (an identifier) then '}' or a key (`"data" AAAA }`, `"v" NOTE "k": 1`)? */
static bool stray_word_follows(const jp *p, size_t j)
{
    int c = at(p, j);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
        return false;
    size_t w = jl_word_end(p, j);
    if (jl_word_is_literal(p->s + j, w - j))
        return false;
    size_t k = jl_past_spaces(p, w);
    return k > w && (at(p, k) == '}' || (at(p, k) == '"' && jl_key_at(p, k)));
}

/* After blanks holding a line break at a member value's candidate closing
 * quote: an unquoted key (`"s"\n  content: "x"`, a missing comma)? */
static bool unquoted_key_follows(const jp *p, size_t k, size_t j)
{
    bool nl = false;
    for (size_t m = k; m < j; m++)
        nl |= at(p, m) == '\n';
    int c = at(p, j);
    if (!nl || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
        return false;
    size_t w = j;
    while (w < p->n && (isalnum(at(p, w)) || at(p, w) == '_' || at(p, w) == '-'))
        w++;
    while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
        w++;
    return at(p, w) == ':' && (is_ws(at(p, w + 1)) || at(p, w + 1) == '"' || at(p, w + 1) == '\'');
}

/* After a member value ending just before k: does structure follow on the
 * line - the end, ',', '}', a line break, a quoted key (either quote) or an unquoted key and
 * ':' (a comma missing again: `b: "y"  "c": 1`), or a '+' and a quote
 * (json.string-concat)? */
static bool member_end_at(const jp *p, size_t k)
{
    size_t e = jl_past_blanks(p, k);
    int c = at(p, e);
    if (e >= p->n || c == ',' || c == '}' || c == '\r' || c == '\n')
        return true;
    if (e == k)
        return false;
    if (c == '"' || c == '\'')        /* `'done': false` too (run 53 2f56d480) */
        return jl_key_at(p, e);
    if (c == '+') {
        int d = at(p, jl_past_spaces(p, e + 1));
        return d == '"' || d == '\'';
    }
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
        return false;
    size_t w = e;
    while (w < p->n && w - e < 64 && (isalnum(at(p, w)) || at(p, w) == '_' || at(p, w) == '-'))
        w++;
    return at(p, jl_past_blanks(p, w)) == ':';
}

/* Does the quoted member value opening at v close at a quote followed by
 * structure (member_end_at)? A quote glued
 * to the text after it (`"say "hi"\nmore"`, `'Don't'`) is inner text and the
 * value reads on, across line breaks (json.control-char); a quote then
 * blanks or another quote before no structure (`then: "no""`, `"no" and`)
 * makes the value prose. */
static bool quoted_member_value_ends(const jp *p, size_t v)
{
    int d = at(p, v);
    for (size_t e = v + 1; e < p->n && e < v + VALUE_LOOKAHEAD; e++) {
        if (at(p, e) == '\\') {
            e++;
            continue;
        }
        if (at(p, e) != d)
            continue;
        if (member_end_at(p, e + 1))
            return true;
        int g = at(p, e + 1);
        if (g == ' ' || g == '\t' || g == '"' || g == '\'' || jl_unicode_space(p, e + 1))
            return false;
    }
    return false;
}

/* Does a member with an unquoted key start at k on this line (`b: "y"` then
 * ',', '}', the line end or another member; `b: 2,`; `b: [`), as after a
 * value whose comma is missing (`"x" b: "y"`)? Blanks after the ':' may be
 * Unicode spaces (json.unicode-space). Prose (`then: "no""`, `now: please`)
 * has no value that ends at structure there. */
static bool unquoted_member_at(const jp *p, size_t k)
{
    int c = at(p, k);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
        return false;
    size_t w = k;
    while (w < p->n && w - k < 64 && (isalnum(at(p, w)) || at(p, w) == '_' || at(p, w) == '-'))
        w++;
    while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
        w++;
    if (at(p, w) == ':') {              /* `b:` and only blanks to the end of input: a member the end cut */
        size_t x = w + 1;
        while (x < p->n && is_ws(at(p, x)))
            x++;
        if (x >= p->n)
            return true;
    }
    size_t b = jl_past_blanks(p, w + 1), v = jl_past_spaces(p, b);
    if (at(p, w) != ':' || b == w + 1)
        return false;
    int d = at(p, v);
    if (d == '[' || d == '{')
        return true;
    if (d == '"' || d == '\'')
        return quoted_member_value_ends(p, v);
    if (d == '-' || (d >= '0' && d <= '9') || jl_word_is_literal(p->s + v, jl_word_end(p, v) - v))
        return member_end_at(p, jl_word_end(p, v));
    return false;
}

/* After a space at a value string's candidate closing quote: does a whole
 * value follow that ends at structure - a number or literal (`"a" 2]`), or a
 * word whose opening quote is missing (`"a" b", "c"`)? */
static bool closer_then_structure(const jp *p, size_t k);

static bool value_follows(const jp *p, size_t j)
{
    size_t w = jl_word_end(p, j);
    if (w == j)
        return false;
    if (jl_open_quote_missing(p, w))
        return true;
    int c = at(p, j);
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
        size_t e = w;                   /* `"consectetur" BOGUS` then `]`, `,` or the line end */
        while (e < p->n && (at(p, e) == ' ' || at(p, e) == '\t' || at(p, e) == '\r'))
            e++;
        if (e >= p->n || strchr(",\n", at(p, e)) || (at(p, e) == ']' && closer_then_structure(p, e + 1)))
            return true;                /* not `"quote " inside ] and }"`: text follows that ']' */
    }
    if (!((c >= '0' && c <= '9') || c == '-' || jl_word_is_literal(p->s + j, w - j)))
        return false;
    size_t e = jl_past_spaces(p, w);
    return e >= p->n || strchr(",]}", at(p, e));
}

/* After a closer at k-1: the end, the closers of every open container (what
 * follows the value is outside it), or what may follow a value inside one (a
 * separator, another closer, a value missing its comma, a comment, a fence)? */
static bool closer_then_structure(const jp *p, size_t k)
{
    for (int closed = 1;; closed++) {
        if (closed >= p->depth)
            return true;                /* the value is complete: what follows is outside it */
        k = jl_past_spaces_comments(p, k);
        if (k >= p->n)
            return true;
        int c = at(p, k);
        if (c == '}' || c == ']') {
            k++;
            continue;
        }
        if (p->closer_of[p->depth - closed] == ']' && scalar_item_at(p, k))
            return true;                /* `["T"] 2]`: an item after the closer, its comma missing */
        if (jl_placeholder_at(p, k)) {  /* `}  …` then `]`: a placeholder item after the value, its comma missing */
            int e = at(p, jl_past_spaces(p, k + 3));
            return e < 0 || e == ',' || e == '}' || e == ']';
        }
        if (c == '+') {                 /* `["a "]+"b"`: a '+' after the closer is an operator, no text */
            size_t m = jl_past_spaces(p, k + 1);
            return at(p, m) == '"' || at(p, m) == '\'';
        }
        if ((isalpha(c) || c == '_') && p->closer_of[p->depth - closed] == '}') {
            size_t w = k;               /* `]` then a line `DEPENDENCYREASON: "U"`: an unquoted key of the object */
            while (w < p->n && w - k < 64 && (isalnum(at(p, w)) || at(p, w) == '_' || at(p, w) == '-'))
                w++;
            while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
                w++;
            return at(p, w) == ':' && w > k;
        }
        if (c == 0x1b)
            return true;                /* `}` then a line `\x1b[200~`: terminal noise after the value (run 45 c6f9cd38) */
        return strchr(",{[\"'`/#;)", c) != NULL || jl_smart_quote(p, k) >= 0;
    }
}

static bool closes_here(const jp *p, size_t k, bool is_key, bool inner);

/* Does a comment start at k ('#', '//' or a block comment)? */
static bool comment_at(const jp *p, size_t k)
{
    return at(p, k) == '#' || (at(p, k) == '/' && (at(p, k + 1) == '/' || at(p, k + 1) == '*'));
}

/* Does structure follow the quote ending just before k without a look
 * through comments or inner quotes (so a look from comments_then_structure
 * does not branch): the end, a closer that may close there, or a comma before
 * structure? */
static bool quote_then_structure(const jp *p, size_t k, bool is_key, bool inner)
{
    size_t j = jl_past_spaces(p, k);
    if (j >= p->n)
        return true;
    if (at(p, j) == '}' || at(p, j) == ']')
        return closer_then_structure(p, j + 1);
    return at(p, j) == ',' && structure_after_comma(p, j + 1, !is_key && p->parent_object, inner);
}

/* After a quote ending just before k, a comment at j (`"x" # note`, `"x"`
 * then a line `// note`): does what follows the comments (and the blanks
 * between) follow a value? A quote line of markdown or code content and then
 * a heading or a comment of the content (`> "I write it."` then `## Lukas`
 * then `Uses the app`, run 12 entry 83e9b8b0) is text: read as a closing
 * quote, the comment swallowed the heading and left the text after it where a
 * member belongs. So is a quote before a comment on a line of its own that
 * holds a quote closing there (`> "I write it."` then `## Lukas"}, {...`):
 * the later quote closes, as after blanks (quote_then_closer). So is a quote
 * after an inner quote before a comment on its line that holds such a quote
 * (`"He said "hi" #twice",`): read as closing, it left one inner quote and
 * the comment took the text. Past
 * VALUE_LOOKAHEAD bytes of comments the quote closes (the lookahead stays
 * linear). */
static bool comments_then_structure(const jp *p, size_t k, size_t j, bool is_key, bool inner)
{
    for (size_t start = j;;) {
        bool own_line = memchr(p->s + k, '\n', j - k) != NULL;
        size_t e = j + 2;
        if (at(p, j + 1) == '*') {
            while (e + 1 < p->n && !(at(p, e) == '*' && at(p, e + 1) == '/'))
                e++;
            e += 2;
        } else {
            e = j + 1;
            while (e < p->n && at(p, e) != '\n')
                e++;
            for (size_t q = j + 1; (own_line || inner) && q < e; q++)
                if (at(p, q) == '\\')
                    q++;
                else if (at(p, q) == '"' && quote_then_structure(p, q + 1, is_key, inner))
                    return false;
        }
        if (e >= p->n || e - start > VALUE_LOOKAHEAD)
            return true;
        k = e;
        j = jl_past_spaces(p, e);
        if (!comment_at(p, j))
            return closes_here(p, e, is_key, inner);
    }
}

/* Is the quote at j followed by a closer (directly, or after blanks and line
 * breaks: `"}]}` at the end, `"}, {"path": ...`, `"` then a line `}`), or in
 * a member's value by the ',' that ends the member (`"said "hi" ",` then a
 * key), and a closing quote there? Then it closes the string: read as an
 * opening quote it would start a string of blanks and separators. */
static bool quote_then_closer(const jp *p, size_t j)
{
    size_t c1 = jl_past_spaces(p, j + 1);
    int c = at(p, c1);
    if (!(c == '}' || c == ']' || (c == ',' && p->parent_object)))
        return false;
    /* not when text then a quote follows the closers on the line (`"a" "]ne"]`,
     * `"a" "]"]`): that quote closes a string the quote at j opened, whose
     * text starts with the closer; read as closers they leave the text stray */
    size_t e = c1;
    while (e < p->n && strchr("}] \t", at(p, e)))
        e++;
    while (e < p->n && jl_is_word(at(p, e)))
        e++;
    if (e < p->n && at(p, e) == '"' && e > c1 && closes_here(p, e + 1, false, false))
        return false;
    return closes_here(p, j + 1, false, true);
}

/* Does the quoted text at m, read with its escapes, close on its line where
 * structure, a key (its comma missing) or another '+' follows? Then it is a
 * whole string operand (`+ "te\": [ y",`), although its `\":` reads as a key
 * whose closing quote was escaped (jl_key_at). */
static bool escaped_operand_closes(const jp *p, size_t m)
{
    int q = at(p, m);
    size_t e = jl_quote_end_on_line(p, m + 1, q);
    if (e >= p->n || at(p, e) != q)
        return false;
    size_t j = jl_past_spaces_comments(p, e + 1);
    if (at(p, j) == '+')
        return at(p, jl_past_spaces_comments(p, j + 1)) == q;
    return quote_then_structure(p, e + 1, false, false) || (at(p, j) == '"' && jl_key_at(p, j));
}

/* Does a closing code fence start at j: 3 or more backticks and only blanks
 * to the end of the line? Backticks glued to text (`"He said "```hi"`) are
 * text of the string. */
static bool fence_ends_line(const jp *p, size_t j)
{
    size_t k = j;
    while (k < p->n && at(p, k) == '`')
        k++;
    size_t e = jl_past_blanks(p, k);
    return k - j >= 3 && (e >= p->n || at(p, e) == '\n' || at(p, e) == '\r');
}

/* Is the first double quote on the line at or after k (within
 * VALUE_LOOKAHEAD bytes) followed by structure, so that it closes the value? */
static bool line_quote_closes(const jp *p, size_t k, bool inner)
{
    for (size_t e = k; e < p->n && e < k + VALUE_LOOKAHEAD && at(p, e) != '\n'; e++) {
        if (at(p, e) == '\\')
            e++;
        else if (at(p, e) == '"')
            return quote_then_structure(p, e + 1, false, inner);
    }
    return false;
}

/* Is the quote that ends just before k a closing quote? */
static bool closes_here(const jp *p, size_t k, bool is_key, bool inner)
{
    size_t j = jl_past_spaces(p, k);
    if (j >= p->n)
        return true;
    int c = at(p, j);
    bool spaced = j > k;
    switch (c) {
    case '}': case ']':                 /* not when text follows the closer: `{"e": "x"} otherwise.` */
        return closer_then_structure(p, j + 1);
    case ')':
        return p->tuple_depth > 0 || p->call_depth > 0;
    case ':':                           /* in an array, `"k":` is a key: its object's '{' is missing */
        return is_key || (!p->parent_object && p->depth > 0);
    case ',':
        return structure_after_comma(p, j + 1, !is_key && p->parent_object, inner);
    case '"':
        if (!is_key && quote_then_closer(p, j))
            return false;               /* `return "x"` line break `"}]}`: the last quote closes, not this one */
        return spaced || (!is_key && jl_key_at(p, j)); /* `"a""b": 1`: a missing comma */
    case '#':
        return spaced && comments_then_structure(p, k, j, is_key, inner);
    case '{': case '[':                /* no value follows a member's value: `"said "hi" {twice"` is text */
        return spaced && (is_key || !p->parent_object);
    case '\'':                        /* not `"said "hi" 'twice",`: the later quote closes */
        return spaced && (is_key || !inner || !line_quote_closes(p, j + 1, inner));
    case '/':
        return comment_at(p, j) && comments_then_structure(p, k, j, is_key, inner);
    case '`':                           /* `"v"```: a closing fence glued to the value */
        if (is_key)                     /* {"k" `v`}: a missing ':' before a backtick string */
            return spaced && at(p, j + 1) != '`';
        if (fence_ends_line(p, j))
            return true;
        return spaced && !inner && !p->parent_object && p->depth > 0 && backtick_item_at(p, j);
    case '+': {                        /* "a" + "b": string concatenation (`"a"+ "k": 1` is no operand) */
        size_t m = jl_past_spaces_comments(p, j + 1);
        if (is_key && spaced && (isdigit(at(p, j + 1)) || at(p, j + 1) == '.'))
            return true;                /* {"n" +5}: a missing ':' */
        return !is_key && (at(p, m) == '"' || at(p, m) == '\'' || at(p, m) == '`' || jl_smart_quote(p, m) >= 0) &&
               (!jl_key_at(p, m) || escaped_operand_closes(p, m));
    }
    default:
        if (is_key && (c >= '0' && c <= '9')) /* {"a"1}: a missing ':' */
            return true;
        if (spaced && is_key && (c == '-' || c == '\'' || c == '(')) /* {"a" -1}, {"a" (1, 2)}: a missing ':' */
            return true;
        if (spaced && !is_key && jl_placeholder_at(p, j) && p->depth > 0) {
            int e = at(p, jl_past_spaces(p, j + 3));   /* `"text"  …` then '}': a placeholder after the value */
            if (e < 0 || e == ',' || e == '}' || e == ']')
                return true;
        }
        if (spaced && !is_key && !inner && !p->parent_object && p->depth > 0 && value_follows(p, j))
            return true;
        if (spaced && !is_key && !inner && p->parent_object &&
            (stray_word_follows(p, j) || unquoted_key_follows(p, k, j) || unquoted_member_at(p, j)))
            return true;
        if (spaced && is_key && jl_is_word(c)) {
            size_t w = j;
            while (w < p->n && jl_is_word(at(p, w)))
                w++;
            if (jl_word_is_literal(p->s + j, w - j))
                return true;
        }
        return spaced && jl_smart_quote(p, j) >= 0;
    }
}


static int hex4(const jp *p, size_t k)
{
    int v = 0;
    for (size_t m = 0; m < 4; m++) {
        int c = at(p, k + m), d;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        else return -1;
        v = v * 16 + d;
    }
    return v;
}

/* The end of the input's text: its final line breaks are no text of a string
 * the end cuts (an escape cut before them was cut by the end too). */
static size_t input_text_end(const jp *p)
{
    size_t e = p->n;
    while (e > 0 && (at(p, e - 1) == '\n' || at(p, e - 1) == '\r'))
        e--;
    return e;
}

/* Is the \\u escape at the cursor cut by the end of input (`\\u26`, or a high
 * surrogate whose low half is cut)? */
static bool cut_unicode_escape(const jp *p)
{
    size_t k = p->i + 2, end = input_text_end(p);
    while (k < p->n && k < p->i + 6 && isxdigit(at(p, k)))
        k++;
    if (k >= end && k < p->i + 6)
        return true;
    if (k < p->i + 6 || hex4(p, p->i + 2) < 0xD800 || hex4(p, p->i + 2) > 0xDBFF)
        return false;
    for (k = p->i + 6; k < end && k < p->i + 12; k++) {
        int c = at(p, k);
        if (!(k == p->i + 6 ? c == '\\' : k == p->i + 7 ? c == 'u' : isxdigit(c)))
            return false;
    }
    return k >= end && k < p->i + 12;
}

static int put_utf8(mf_buf *b, uint32_t cp)
{
    char u[4];
    size_t n;
    if (cp < 0x80) { u[0] = (char)cp; n = 1; }
    else if (cp < 0x800) { u[0] = (char)(0xC0 | (cp >> 6)); u[1] = (char)(0x80 | (cp & 0x3F)); n = 2; }
    else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | (cp >> 12)); u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        u[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        u[0] = (char)(0xF0 | (cp >> 18)); u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); u[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    return mf_buf_put(b, u, n);
}

/* Byte length of the closing delimiter of kind q at k (0: not one). */
static inline size_t closer_len(const jp *p, int q, size_t k)
{
    int c = at(p, k);
    switch (q) {
    case Q_DOUBLE: return c == '"';
    case Q_SINGLE: return c == '\'';
    case Q_BACKTICK: return c == '`' ? 1 : (c == 0xC2 && at(p, k + 1) == 0xB4) ? 2 : 0;   /* `a´ */
    case Q_SMART_DOUBLE: return jl_smart_quote(p, k) == Q_SMART_DOUBLE ? 3 : 0;
    default: return (c == 0xE2 && at(p, k + 1) == 0x80 && at(p, k + 2) == 0x99) ? 3 : 0;
    }
}

/* End (exclusive) of a `${...}` starting at k when it closes on the same line
 * within TPL_LOOKAHEAD bytes and holds unescaped '"' in pairs; 0 otherwise. */
static size_t template_span(const jp *p, size_t k)
{
    int depth = 1;
    unsigned quotes = 0;
    size_t lim = k + TPL_LOOKAHEAD < p->n ? k + TPL_LOOKAHEAD : p->n;
    for (size_t j = k + 1; j < lim; j++) {
        int c = at(p, j);
        if (c == '\n')
            return 0;
        if (c == '\\') { j++; continue; }
        if (c == '"' && (at(p, j + 1) == ',' || at(p, j + 1) == ':'))
            return 0;                   /* `${n't ... ", "done": 1}`: member structure, no template */
        if (c == '"') quotes++;
        else if (c == '{') depth++;
        else if (c == '}' && --depth == 0)   /* `${user["name"]}`; not `"sui${te"}`, a lone quote closing the string */
            return quotes > 0 && quotes % 2 == 0 ? j + 1 : 0;
    }
    return 0;
}



/* Does b hold a letter, digit or non-ASCII byte? */
static bool has_word(const mf_buf *b)
{
    for (size_t k = 0; k < b->len; k++) {
        unsigned char c = (unsigned char)b->s[k];
        if (c >= 0x80 || (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
            return true;
    }
    return false;
}

/* Is the backslash at j, before a quote, the damaged closing quote of a key:
 * a word before it, then blanks and ': ' with a value after (`"notes\": "x"`)? */
static bool escaped_key_end(const jp *p, size_t j)
{
    if (!isalnum(at(p, j - 1)))
        return false;
    size_t m = j + 2;
    while (m < p->n && (at(p, m) == ' ' || at(p, m) == '\t'))
        m++;
    if (at(p, m) != ':')
        return false;
    m = jl_past_spaces(p, m + 1);
    size_t value = m;
    int c = at(p, m);
    if (!(c == '"' || c == '[' || c == '{' || isdigit(c) || c == '-'))
        return false;
    /* the key read as JSON closes later on its line, before its own ':'
     * (`"a \"b\":[ c": 1`: escaped member text inside a valid key), or before
     * blanks and its value with the ':' missing (`"x {\"a\": 1}" "y"`, run 55
     * e5bd5f63): no guess */
    for (m = j + 2; m < p->n && at(p, m) != '\n' && at(p, m) != '"'; m++)
        if (at(p, m) == '\\')
            m++;
    if (at(p, m) != '"')
        return true;
    size_t after = jl_past_spaces(p, m + 1);
    c = at(p, after);
    return !(c == ':' || (m > value && after > m + 1 && (c == '"' || c == '{' || c == '[')));
}

/* Is [a, e) one word (letters, digits, '_', '-', '.')? */
static bool word_span(const jp *p, size_t a, size_t e)
{
    for (; a < e; a++)
        if (!(isalnum(at(p, a)) || at(p, a) == '_' || at(p, a) == '-' || at(p, a) == '.'))
            return false;
    return true;
}

/* `"name': "x"`: a key opened with '"' and closed with '\'' (one word between,
 * then ':'), where the scan from k for its '"' stopped at e? */
static bool mismatched_key_at(const jp *p, size_t k, size_t e)
{
    const char *a = memchr(p->s + k + 1, '\'', e - k - 1);
    size_t j = a ? (size_t)(a - p->s) : 0;
    if (!a || j == k + 1 || !word_span(p, k + 1, j))
        return false;
    while (++j < e && (at(p, j) == ' ' || at(p, j) == '\t'))
        ;
    return at(p, j) == ':';
}

bool jl_key_at(const jp *p, size_t k)
{
    int q = at(p, k) == '\'' ? '\'' : '"';
    size_t lim = k + KEY_LOOKAHEAD < p->n ? k + KEY_LOOKAHEAD : p->n;
    for (size_t j = k + 1; (j = jl_find_any4(p, j, lim, '\n', '\r', '\\', (unsigned char)q)) < lim; j++) {
        int c = at(p, j);
        if (c == '\n' || c == '\r')
            return q == '"' && mismatched_key_at(p, k, j);
        if (c == '\\' && at(p, j + 1) == q && j > k + 1 && word_span(p, k + 1, j) && escaped_key_end(p, j))
            return true;                /* `"notes\": "x"`: the key's closing quote escaped (damage) */
        if (c == '\\') {
            j++;
            continue;
        }
        if (c == q) {                   /* blanks, or a line break (`"name"` then `: "x"` below) */
            size_t m = j + 1;
            while (m < p->n && m < j + KEY_LOOKAHEAD && is_ws(at(p, m)))
                m++;
            return j > k + 1 && at(p, m) == ':';
        }
    }
    return q == '"' && mismatched_key_at(p, k, lim);
}

bool jl_value_string_at(const jp *p, size_t k)
{
    size_t lim = k + KEY_LOOKAHEAD < p->n ? k + KEY_LOOKAHEAD : p->n;
    for (size_t j = k + 1; j < lim; j++) {
        int c = at(p, j);
        if (c == '\n' || c == '\r')
            return false;
        if (c == '\\') {
            j++;
            continue;
        }
        if (c == '"') {
            while (++j < p->n && (at(p, j) == ' ' || at(p, j) == '\t'))
                ;
            if (j >= p->n || at(p, j) == ',' || at(p, j) == ']')
                return true;
            if (at(p, j) != '\r' && at(p, j) != '\n')
                return false;
            j = jl_past_spaces(p, j);   /* the line after it starts an item too (not `text"`: one string) */
            int d = at(p, j);
            return j >= p->n || (d > 0 && strchr("\"'[]{},-", d)) || (d >= '0' && d <= '9') ||
                   jl_smart_quote(p, j) >= 0 || jl_word_is_literal(p->s + j, jl_word_end(p, j) - j);
        }
    }
    return false;
}

static bool blank_at(const jp *p, size_t k)
{
    int c = at(p, k);
    return c == ' ' || c == '\t' || c == '\r';
}

/* A value string whose content starts at content has reached, at k, the
 * opening quote of a key. When the text before k is a member separator
 * (`, "key":`, a line break then `"key":`, or closers then `, {"key":`) the
 * string's closing quote is missing: return where the string ends (before
 * the separator or the closers), else 0. Closers are kept out of the string
 * only when it holds no opening bracket they could close. */
/* Does a key in smart quotes (`“c”` then ':', on one line) start at k? */
static bool smart_key_at(const jp *p, size_t k)
{
    if (jl_smart_quote(p, k) != Q_SMART_DOUBLE || at(p, k + 2) != 0x9C)
        return false;
    for (size_t j = k + 3; j < p->n && j < k + KEY_LOOKAHEAD && at(p, j) != '\n'; j++)
        if (jl_smart_quote(p, j) == Q_SMART_DOUBLE)
            return j > k + 3 && at(p, jl_past_spaces(p, j + 3)) == ':';
    return false;
}

/* End (past its closing backtick or acute accent) of a non-empty backtick
 * string on one line starting at k (`c`, `c´), or 0. */
static size_t backtick_string_end(const jp *p, size_t k)
{
    if (at(p, k) != '`')
        return 0;
    size_t e = k + 1;
    while (e < p->n && e < k + KEY_LOOKAHEAD && at(p, e) != '`' && at(p, e) != '\n' &&
           !(at(p, e) == 0xC2 && at(p, e + 1) == 0xB4))
        e++;
    if (e == k + 1 || !(at(p, e) == '`' || at(p, e) == 0xC2))
        return 0;
    return e + (at(p, e) == '`' ? 1 : 2);
}

/* Does a key in backticks (`c` or `c´, then ':', on one line) start at k? */
static bool backtick_key_at(const jp *p, size_t k)
{
    size_t e = backtick_string_end(p, k);
    return e && at(p, jl_past_spaces(p, e)) == ':';
}

/* Does an array item in backticks start at k, ended by ',', ']' or the end
 * (`"a"` then ` `b`]`: the comma before it missing)? */
static bool backtick_item_at(const jp *p, size_t k)
{
    size_t e = backtick_string_end(p, k);
    int c = e ? at(p, jl_past_spaces(p, e)) : 0;
    return e && (c < 0 || c == ',' || c == ']');
}

/* Offset past the ':' of a key in quote style c (', ", ` or a smart double
 * quote) starting at k on one line, or 0. */
static size_t key_colon_after(const jp *p, size_t k)
{
    int c = at(p, k);
    size_t e = c == 0xE2 ? k + 3 : k + 1;
    for (; e < p->n && e < k + KEY_LOOKAHEAD && at(p, e) != '\n'; e++) {
        if (at(p, e) == '\\') {
            e++;
            continue;
        }
        size_t len = c == 0xE2 ? (jl_smart_quote(p, e) == Q_SMART_DOUBLE ? 3 : 0)
                     : c == '`' ? (at(p, e) == '`' ? 1 : (at(p, e) == 0xC2 && at(p, e + 1) == 0xB4) ? 2 : 0)
                                : at(p, e) == c;
        if (len) {
            size_t m = jl_past_spaces(p, e + len);
            return at(p, m) == ':' ? m + 1 : 0;
        }
    }
    return 0;
}

/* At k inside a string of quote kind q: does a member start there whose key
 * is in another quote style (`'c': 'd'`, `“c”: 1`, `` `c`: 1 `` in a "..."
 * string; `"c": 1` in a smart-quoted one), its value starting like a quoted
 * string, container, number or literal? Prose (`, 'yes': it was`) has none. */
static bool other_kind_member_at(const jp *p, int q, size_t k)
{
    int c = at(p, k);
    bool key = q != Q_SINGLE &&         /* a '...' string ends before a "key" only (its own branch) */
               ((c == '\'' && jl_key_at(p, k)) || (c == '"' && q != Q_DOUBLE && jl_key_at(p, k)) ||
                (c == '`' && backtick_key_at(p, k)) || (c == 0xE2 && q != Q_SMART_DOUBLE && smart_key_at(p, k)));
    if (!key)
        return false;
    size_t colon = key_colon_after(p, k);
    if (!colon)
        return false;
    size_t v = jl_past_spaces(p, colon);
    int d = at(p, v);
    return (d > 0 && strchr("\"'`{[-", d)) || (d >= '0' && d <= '9') || jl_smart_quote(p, v) >= 0 ||
           jl_word_is_literal(p->s + v, jl_word_end(p, v) - v);
}

/* Do blanks, then a ',', a line break or a '{' stand before offset k (after content)? */
static bool separator_before(const jp *p, size_t content, size_t k)
{
    while (k > content && (at(p, k - 1) == ' ' || at(p, k - 1) == '\t' || at(p, k - 1) == '\r'))
        k--;
    return k > content && (at(p, k - 1) == ',' || at(p, k - 1) == '\n' || at(p, k - 1) == '{');
}

/* Is the byte at k, in a value string of kind q, the opening byte of another
 * quote kind that cannot start a member there (no separator before it, or
 * the string already read an inner quote): text jl_parse_string decides
 * nothing on, so the string run goes on past it (`it's`, `—`, `` `npm` ``)? */
static bool other_quote_text(const jp *p, int q, size_t content, size_t k, bool inner)
{
    int c = at(p, k);
    bool other = q == Q_DOUBLE ? (c == '\'' || c == '`' || c == 0xE2)
                 : (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE) && (c == '"' || c == '\'' || c == '`');
    return other && (inner || !separator_before(p, content, k));
}

/* Does the member whose key starts at k have a value that ends like one:
 * not a value glued to a quote (`"timeout": 30"`, `"t": "30""`), which is
 * the closing quote of a string holding that text? A value whose end is not
 * on the key's line (a quote missing) is no evidence either way: true. */
static bool member_value_ends(const jp *p, size_t k)
{
    size_t colon = key_colon_after(p, k);
    if (!colon)
        return true;
    size_t v = jl_past_spaces(p, colon), e;
    int c = at(p, v), q = c;
    if (c == '"' || c == '\'' || c == '`') {
        for (e = v + 1; e < p->n && e < v + VALUE_LOOKAHEAD && at(p, e) != q && at(p, e) != '\n'; e++)
            e += at(p, e) == '\\';
        if (at(p, e) != q || e >= v + VALUE_LOOKAHEAD)
            return true;
        e++;
    } else if (jl_smart_quote(p, v) >= 0 || c == '{' || c == '[') {
        return true;
    } else {
        e = jl_word_end(p, v);
    }
    while (e < p->n && (at(p, e) == ' ' || at(p, e) == '\t'))
        e++;
    return !(at(p, e) == '"' || at(p, e) == '\'');
}

static size_t missing_quote_end(const jp *p, size_t content, size_t k, bool element)
{
    bool key = jl_key_at(p, k) || smart_key_at(p, k) || backtick_key_at(p, k);
    if (!key && !(element && jl_value_string_at(p, k)))
        return 0;
    if (key && !member_value_ends(p, k))
        return 0;
    size_t j = k;
    while (j > content && blank_at(p, j - 1))
        j--;
    if (j <= content)
        return 0;
    int c = at(p, j - 1);
    if (!key && c != '\n')
        return 0;                       /* an array element: only a line break ends the string */
    if (c == '{') {                     /* }, {"key": in an array of objects */
        j--;
        while (j > content && is_ws(at(p, j - 1)))
            j--;
        if (j <= content || at(p, j - 1) != ',')
            return 0;
        j--;
    } else if (c == '\n') {
        while (j > content && is_ws(at(p, j - 1)))
            j--;
        if (j > content && at(p, j - 1) == ',')
            j--;
        else if (j > content && at(p, j - 1) != '}' && at(p, j - 1) != ']')
            return j;
    } else if (c == ',') {
        j--;
    } else {
        return 0;
    }
    size_t end = j, first = j;
    for (size_t m = j; m > content && (is_ws(at(p, m - 1)) || at(p, m - 1) == '}' || at(p, m - 1) == ']'); m--)
        if (!is_ws(at(p, m - 1)))
            first = m - 1;
    if (c == '{' && first == end)
        return 0;                       /* `, {` without a closer before it */
    if (first < end) {
        for (size_t m = content; m < first; m++)
            if (at(p, m) == '{' || at(p, m) == '[')
                return c == '{' ? 0 : end;
        while (first > content && is_ws(at(p, first - 1)))
            first--;
        return first > content ? first : 0;
    }
    return end;
}

/* A value string that runs to the end of input, its content starting at
 * content: does its text end with closers for the innermost open containers
 * (`["abc]`, `{"k": ["v]}`, blanks allowed between)? Then its closing quote
 * was forgotten before them: return where they start (blanks before them
 * included), else 0. Not when the string holds an opener of a kind they
 * close (`{` for `}`, ...), or any opener once inner quotes were read. */
static size_t closers_at_end(const jp *p, size_t content, bool inner)
{
    size_t j = p->n;
    int d = p->depth;
    size_t first = 0;
    while (j > content && is_ws(at(p, j - 1)))
        j--;
    size_t ticks = j;                   /* `"value}```: a closing fence glued after the closers */
    while (ticks > content && at(p, ticks - 1) == '`')
        ticks--;
    if (j - ticks >= 3)
        j = ticks;
    for (;;) {
        while (j > content && is_ws(at(p, j - 1)))
            j--;
        if (j <= content || d < 1 || (at(p, j - 1) != '}' && at(p, j - 1) != ']' && at(p, j - 1) != ')'))
            break;
        j--;
        first = j;
        d--;
    }
    if (!first)
        return 0;
    /* the closers read left to right close the innermost first */
    int want = p->depth;
    for (size_t m = first; m < p->n; m++) {
        int c = at(p, m);
        if (is_ws(c))
            continue;
        if (c == '`' && want < p->depth)
            break;                      /* the fence after the closers */
        if (want < 1 || c != p->closer_of[want])
            return 0;
        want--;
    }
    bool closes[3] = {false, false, false};   /* which kinds the closers close: } ] ) */
    for (size_t m = first; m < p->n; m++)
        if (at(p, m) == '}' || at(p, m) == ']' || at(p, m) == ')')
            closes[at(p, m) == '}' ? 0 : at(p, m) == ']' ? 1 : 2] = true;
    for (size_t m = content; m < first; m++)
        if ((at(p, m) == '{' && (closes[0] || inner)) || (at(p, m) == '[' && (closes[1] || inner)) ||
            (at(p, m) == '(' && (closes[2] || inner)))
            return 0;                   /* `print(1)` is no bracket a '}' could close (read through inner quotes, any is) */
    while (first > content && is_ws(at(p, first - 1)))
        first--;
    return first > content ? first : 0;
}

/* Do only blanks with a line break among them lie between k and the next
 * non-blank byte (the text ends at a line end, not mid-line)? */
static bool line_break_from(const jp *p, size_t k)
{
    bool nl = false;
    for (; k < p->n && is_ws(at(p, k)); k++)
        nl |= at(p, k) == '\n';
    return nl;
}

/* A key whose closing quote is missing before its ':' (`"b: null, "c: 1}`,
 * `"key:value}`): a word, then ':', and the next quote on the line is not one
 * closing a key that holds the colon (`"a: b": 1`). The word's end, or 0. */
static size_t key_colon_end(const jp *p, size_t content)
{
    size_t j = content;
    while (j < p->n && (isalnum(at(p, j)) || at(p, j) == '_' || at(p, j) == '-'))
        j++;
    if (j == content || at(p, j) != ':')
        return 0;
    bool structure = false;             /* a ',' or closer after the ':' (`"key:value}`) */
    size_t m = j + 1;
    for (; m < p->n && at(p, m) != '\n'; m++) {
        if (at(p, m) == '\\') {
            m++;
            continue;
        }
        if (at(p, m) == '"')   /* `"a: b" false`: that quote closes a key missing its ':' */
            return at(p, jl_past_spaces(p, m + 1)) == ':' || closes_here(p, m + 1, true, false) ? 0 : j;
        structure |= at(p, m) == ',' || at(p, m) == '}' || at(p, m) == ']';
    }
    /* `"des: c` and the end of input: a key the end cut (json.truncated's), no key "des" and
     * a value "c" the cut may have shortened (run 35 dcf22bf3) */
    return jl_past_spaces(p, m) >= p->n && !structure ? 0 : j;
}

/* A string opened by a doubled quote (CSV-style `""answer""`, `''text''`, or
 * `""value"`): its text has no quote or backslash, sits on one line, starts
 * with a word, and structure follows its closing quote(s). The offset just
 * past the closing quote(s), 0 otherwise; *text_end: where the text ends. */
static size_t doubled_quote_end(const jp *p, size_t open, size_t *text_end)
{
    int q = at(p, open);
    if ((q != '"' && q != '\'') || at(p, open + 1) != q)
        return 0;
    size_t k = open + 2;
    while (at(p, k) == ' ')
        k++;
    if (!isalnum(at(p, k)) && at(p, k) < 0x80)
        return 0;
    for (; k < p->n && at(p, k) != q; k++)
        if (at(p, k) == '\n' || at(p, k) == '\\' || at(p, k) == '"')
            return 0;
    if (k >= p->n)
        return 0;
    *text_end = k;
    size_t e = k + (at(p, k + 1) == q ? 2 : 1);
    size_t j = jl_past_spaces(p, e);
    return j >= p->n || strchr(":,}]", at(p, j)) ? e : 0;
}

/* A Python triple-quoted string (`\'\'\'text\'\'\'`, `"""text"""`, lines allowed): its
 * text has no backslash and no triple quote, and structure follows the
 * closing one. The offset just past it, 0 otherwise; *text_end: where the
 * text ends. A scan ends at the next triple quote: linear. */
static size_t triple_quote_end(const jp *p, size_t open, size_t *text_end)
{
    int q = at(p, open);
    if ((q != '"' && q != '\'') || at(p, open + 1) != q || at(p, open + 2) != q)
        return 0;
    for (size_t k = open + 3; k + 2 < p->n; k++) {
        if (at(p, k) == '\\')
            return 0;
        if (at(p, k) == q && at(p, k + 1) == q && at(p, k + 2) == q) {
            size_t j = jl_past_spaces(p, k + 3);
            *text_end = k;
            return j >= p->n || strchr(":,}]", at(p, j)) ? k + 3 : 0;
        }
    }
    return 0;
}

/* After a quote at k-1 inside a string ending at close: `, key: ` and then
 * a quote, bracket or digit (`", description: "x"`) - a member whose key has
 * no quotes? The key's offset, or 0. Prose (`"yes", then: no`) has no such
 * value after its colon. */
static size_t unquoted_member_after(const jp *p, size_t k, size_t close)
{
    while (k < close && (at(p, k) == ' ' || at(p, k) == '\t'))
        k++;
    if (k >= close || at(p, k) != ',')
        return 0;
    k++;
    while (k < close && is_ws(at(p, k)))
        k++;
    size_t key = k;
    while (k < close && k - key < 64 && (isalnum(at(p, k)) || at(p, k) == '_'))
        k++;
    if (k == key || !isalpha(at(p, key)) || at(p, k) != ':')
        return 0;
    k++;
    while (k < close && (at(p, k) == ' ' || at(p, k) == '\t'))
        k++;
    int c = at(p, k);
    return k < close && (c == '"' || c == '\'' || c == '[' || c == '{' || isdigit(c)) ? key : 0;
}

/* Do blanks, then a ',' stand before offset m (after content)? */
static bool quote_comma_before(const jp *p, size_t content, size_t m)
{
    while (m > content && (at(p, m - 1) == ' ' || at(p, m - 1) == '\t'))
        m--;
    return m > content && at(p, m - 1) == ',';
}

/* At m inside a smart-quoted string: after a comma, a key in smart quotes? */
static bool smart_key_after_comma(const jp *p, size_t content, size_t m)
{
    return quote_comma_before(p, content, m) && smart_key_at(p, m);
}

/* Is the byte before offset k (blanks skipped, not before content) a quote? */
static bool quote_before(const jp *p, size_t content, size_t k)
{
    while (k > content && (at(p, k - 1) == ' ' || at(p, k - 1) == '\t'))
        k--;
    return k > content && (at(p, k - 1) == '"' || at(p, k - 1) == '\'');
}

/* A value string read through inner quotes (or cut by the end of input)
 * spans [content, close): does an unescaped quote in it (its own kind or '"')
 * open a member (`"key":`) at the start of a line, after a raw control byte,
 * or at the start of the string or after a comma outside any '{' the string
 * opened (one-line JSON text `{"a": 1, "b": 2}` is data, but not when that
 * text never closes)? Then the reading swallowed members. Returns that
 * quote's offset, or SIZE_MAX. */
/* Is offset m, past the blanks before it, at the start of a line inside the
 * string content starting at content? */
static bool line_start_at(const jp *p, size_t content, size_t m)
{
    while (m > content && (at(p, m - 1) == ' ' || at(p, m - 1) == '\t'))
        m--;
    return m > content && at(p, m - 1) == '\n';
}

/* Does an escaped line break `\n` (not itself an escaped backslash then 'n')
 * end at a, within the string content starting at content? A key after it
 * starts a line of the text just as after a raw line break. */
static bool escaped_break_at(const jp *p, size_t content, size_t a)
{
    if (a < content + 2 || at(p, a - 1) != 'n' || at(p, a - 2) != '\\')
        return false;
    size_t k = a - 2;
    while (k > content && at(p, k - 1) == '\\')
        k--;
    return (a - 2 - k) % 2 == 0;        /* an even run of backslashes before it: the '\\' escapes the 'n' */
}

static size_t swallowed_member(const jp *p, int q, size_t content, size_t close)
{
    int qc = q == Q_SINGLE ? '\'' : '"';
    int braces = 0;                     /* open '{' (not `${`) of JSON text in the string */
    size_t braced_key = SIZE_MAX;       /* the first key inside that JSON text */
    char opened_kinds[OPENERS_TRACKED]; /* the text's open '{' and '[', innermost last */
    size_t n_opened = 0;
    static const unsigned char decides[256] = {['\\'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
                                               ['"'] = 1, ['\''] = 1, ['`'] = 1, [0xE2] = 1, ['\n'] = 1};
    const unsigned char *s = (const unsigned char *)p->s;
    for (size_t m = content; m < close; m++) {
        while (m < close && !decides[s[m]])
            m++;                        /* bytes no branch below looks at */
        if (m >= close)
            break;
        int c = s[m];
        if (c == '\\') {
            /* `", \"expected": "x"`: a member after a comma whose key's first quote is escaped */
            if (braces == 0 && at(p, m + 1) == '"' &&
                (quote_comma_before(p, content, m) || line_start_at(p, content, m)) && jl_key_at(p, m + 1))
                return m;               /* or at the start of a line (`"constitution.md,` + `\"content": "x"`) */
            m++;
            continue;
        }
        if (c == '\n') {               /* a line `  filename: "x.md",` (or `{ name: [`): a member whose key has no quotes */
            size_t k = m + 1;
            while (k < close && (at(p, k) == ' ' || at(p, k) == '\t' || at(p, k) == '\r'))
                k++;
            while (k < close && (at(p, k) == '{' || at(p, k) == '[' || at(p, k) == ','))
                k = jl_past_spaces(p, k + 1);
            if (k < close && unquoted_member_at(p, k))
                return k;
            continue;
        }
        braces += c == '{' && at(p, m - 1) != '$' ? 1 : c == '}' && braces > 0 ? -1 : 0;
        if (((c == '{' && at(p, m - 1) != '$') || c == '[') && n_opened < OPENERS_TRACKED)
            opened_kinds[n_opened++] = (char)c;
        else if (n_opened > 0 && ((c == '}' && opened_kinds[n_opened - 1] == '{') ||
                                  (c == ']' && opened_kinds[n_opened - 1] == '[')))
            n_opened--;
        size_t uk;
        if ((c == qc || c == '"') && braces == 0 && (uk = unquoted_member_after(p, m + 1, close)))
            return uk;                  /* `'T-1", description: "x", ...`: a member with an unquoted key */
        if ((c == qc || c == '"') && braces == 0 && m > content && (uk = jl_past_spaces(p, m + 1)) > m + 1 &&
            uk < close && unquoted_member_at(p, uk))
            return uk;                  /* `"x" b: "y"`, or `b: "y"` on the next line: the same, its comma missing */
        if (c == 0xE2 && q == Q_SMART_DOUBLE && smart_key_after_comma(p, content, m))
            return m;                   /* `“b, “c”: “d”`: a smart-quoted member */
        if ((c == '\'' || c == '"' || c == '`' || c == 0xE2) && braces == 0 &&
            separator_before(p, content, m) && other_kind_member_at(p, q, m))
            return m;                   /* `"b, 'c': 'd'`, a line `“c”: 1`: a member in another quote style */
        if ((c != qc && c != '"') || !jl_key_at(p, m))
            continue;
        if (braces > 0 && braced_key == SIZE_MAX)
            braced_key = m;
        size_t a = m;                   /* past blanks, control bytes, opening punctuation: `,${ "key":` */
        bool ctrl = false;              /* a raw control byte (`"US-012\0\1 "key":`) is damage */
        int opened = 0;                 /* '{' between the comma and the key (`",{ "key":`): no JSON text of the string */
        for (int b; a > content && (b = at(p, a - 1)) != '\n' &&
                    (b < 0x20 || b == ' ' || strchr("${([<+", b) || (b == 0xA0 && at(p, a - 2) == 0xC2)); a--) {
            ctrl |= b < 0x20 && b != '\t' && b != '\r';
            opened += b == '{' && (a < 2 || at(p, a - 2) != '$');
            a -= b == 0xA0 && a - 1 > content;   /* a no-break space (two bytes) between the comma and the key */
        }
        if (ctrl || (a > content && at(p, a - 1) == '\n') || (braces == 0 && escaped_break_at(p, content, a)) ||
            (a == content && braces == 0) ||
            (a > content && at(p, a - 1) == ',' && (braces == 0 || (braces - opened <= 0 && quote_before(p, content, a - 1)))))
            return m;
    }
    if (braces > 0 && n_opened > 0 && n_opened < OPENERS_TRACKED && close < p->n) {
        int after = at(p, jl_past_spaces(p, close + closer_len(p, q, close)));
        if ((after == '}' || after == ']') && after != (opened_kinds[n_opened - 1] == '{' ? '}' : ']'))
            return SIZE_MAX;            /* `"x = {"a": ["` then `}`: that closer cannot continue the text */
    }
    return braces > 0 ? braced_key : SIZE_MAX;   /* `"ii  {"task_id": "T-1"` never closes its JSON text */
}

/* Does a quote inside [content, close), its own kind or '"', open a key
 * (`"x "b": "y"`: a member with its comma missing, or text)? */
static bool quoted_key_within(const jp *p, int q, size_t content, size_t close)
{
    int qc = q == Q_SINGLE ? '\'' : '"';
    for (size_t m = content; m < close; m++) {
        if (at(p, m) == '\\') {
            m++;
            continue;
        }
        if ((at(p, m) == qc || at(p, m) == '"') && jl_key_at(p, m))
            return true;
    }
    return false;
}

/* Does the line after the line break at k open with the key's closing quote
 * and its ':' (`"key_1` then a line `": 1`)? */
static bool key_closes_next_line(const jp *p, size_t k)
{
    k++;
    while (k < p->n && (at(p, k) == ' ' || at(p, k) == '\t' || at(p, k) == '\r'))
        k++;
    return at(p, k) == '"' && at(p, jl_past_spaces(p, k + 1)) == ':';
}

/* Is the input from k on blank (the input's final line breaks)? */
static bool only_blanks_after(const jp *p, size_t k)
{
    for (; k < p->n; k++)
        if (!is_ws(at(p, k)))
            return false;
    return true;
}

/* Does [content, e) hold an odd number of unescaped double quotes? In a
 * single-quoted string that is JSON text left open (`'[{"id":"a"}],"phase":"x",
 * "question":"Why?'`): a '"' closed by a '\'' is a quote mix-up, and its
 * members may be the enclosing object's (run 38 9ece2a94). */
static bool odd_double_quotes(const jp *p, size_t content, size_t e)
{
    bool odd = false;
    for (const char *q = memchr(p->s + content, '"', e - content); q; ) {
        size_t k = (size_t)(q - p->s), b = k;
        while (b > content && at(p, b - 1) == '\\')
            b--;
        odd ^= (k - b) % 2 == 0;
        q = k + 1 < e ? memchr(q + 1, '"', e - k - 1) : NULL;
    }
    return odd;
}

/* Reject a string that would swallow the member whose key quote is at sw
 * (the cursor is past it): the error names the member and its line. */
static int swallow_fail(jp *p, size_t sw, size_t open, int open_line, size_t open_bol)
{
    int sw_line = p->line;
    for (size_t m = sw; m < p->i; m++)
        sw_line -= p->s[m] == '\n';
    bool quoted = at(p, sw) == '"' || at(p, sw) == '\'';
    size_t kl = 1;                      /* the key: `"key"`, or an unquoted one up to its ':' */
    while (kl < 40 && (quoted ? at(p, sw + kl) != at(p, sw) : at(p, sw + kl) != ':'))
        kl++;
    p->i = open, p->line = open_line, p->bol = open_bol;
    return jl_fail(p, "string opened at line %d would hold the member %.*s: of line %d (its closing quote is "
                      "missing or misplaced): not repaired", open_line, (int)kl + quoted, p->s + sw, sw_line);
}

/* Move the cursor back to offset to (within the string opened on the line
 * starting at open_bol), keeping line and bol right without rescanning the
 * line: linear however many strings one long line holds. */
static void rewind_to(jp *p, size_t to, size_t content, size_t open_bol)
{
    for (size_t m = to; m < p->i; m++)
        if (p->s[m] == '\n')
            p->line--;
    p->i = to;
    size_t k = to;
    while (k > content && p->s[k - 1] != '\n')
        k--;
    p->bol = k > content ? k : open_bol;
}

/* What a single-quoted string's loop knows about the double quotes in
 * [content, e) for a growing e, found incrementally: asked at every '"' of
 * the string, a scan from content each time would be quadratic in the
 * string's quotes (a 150 KB string took 47 s). */
typedef struct {
    size_t dq_from;  /* no '"' in [content, dq_from) */
    bool dq;         /* a '"' in [content, e) */
    size_t kq_from;  /* no key-like '"' in [content, kq_from), each decided for good */
    bool kq;         /* a '"' followed by blanks and ':' (`deps": [`, a key that lost its opening quote) */
} dquotes;

/* Does [content, e) hold a double quote? */
static bool dquote_before(const jp *p, dquotes *d, size_t e)
{
    if (!d->dq && d->dq_from < e) {
        d->dq = memchr(p->s + d->dq_from, '"', e - d->dq_from) != NULL;
        d->dq_from = e;
    }
    return d->dq;
}

/* Does [content, e) hold a double quote followed by blanks and ':' (all
 * before e)? A quote whose blanks reach e stays undecided: asked again
 * with a larger e, the scan resumes at it. */
static bool key_quote_before(const jp *p, dquotes *d, size_t e)
{
    size_t a = d->kq_from;
    for (const char *q; !d->kq && a < e && (q = memchr(p->s + a, '"', e - a)); a = (size_t)(q - p->s) + 1) {
        size_t k = (size_t)(q - p->s) + 1;
        while (k < e && (at(p, k) == ' ' || at(p, k) == '\t'))
            k++;
        if (k >= e) {
            d->kq_from = (size_t)(q - p->s);
            return false;
        }
        d->kq = at(p, k) == ':';
    }
    if (!d->kq)
        d->kq_from = a > e ? a : e;
    return d->kq;
}

/* The brackets a string's text opens, counted incrementally over a growing
 * prefix [content, from): asked at each candidate key, a scan from content
 * each time would be quadratic. */
typedef struct {
    size_t from;     /* counted up to here */
    int depth;       /* '{' (not `${`) and '[' not closed by then */
} brackets;

/* Does [content, e) leave a '{' or '[' of its own open (`"returns {'a': 1`
 * before `, 'b': 2}"`: the key is text of that JSON-like text)? */
static bool text_open_before(const jp *p, brackets *t, size_t content, size_t e)
{
    if (e < t->from)
        t->from = content, t->depth = 0;
    for (; t->from < e; t->from++) {
        int c = at(p, t->from);
        if ((c == '{' && (t->from == content || at(p, t->from - 1) != '$')) || c == '[')
            t->depth++;
        else if ((c == '}' || c == ']') && t->depth > 0)
            t->depth--;
    }
    return t->depth > 0;
}

/* At a quote (cursor) that does not close a value string whose content
 * starts at content: does a '+' stand before it (blanks and block comments
 * between: `"abc + "def"`, `"abc` comment `+"def"`), or in an array a ','
 * with a block comment between (`["abc,` comment `"def"]`)? Then the string's closing
 * quote is missing before that operator: where the string ends (blanks
 * before the operator excluded), else 0. Only over bytes the string copied
 * as they are (no backslash, no `${`). */
static size_t operator_end(const jp *p, size_t content)
{
    size_t k = p->i;
    bool comment = false;
    for (;;) {
        while (k > content && is_ws(at(p, k - 1)))
            k--;
        if (k >= content + 4 && at(p, k - 1) == '/' && at(p, k - 2) == '*') {
            size_t m = k - 2;            /* a comment of at most KEY_LOOKAHEAD bytes: linear */
            while (m > content + 1 && k - m < KEY_LOOKAHEAD && !(at(p, m - 2) == '/' && at(p, m - 1) == '*'))
                m--;
            if (m <= content + 1 || k - m >= KEY_LOOKAHEAD)
                return 0;
            k = m - 2;
            comment = true;
            continue;
        }
        break;
    }
    int c = k > content ? at(p, k - 1) : -1;
    if (!(c == '+' || (c == ',' && comment && !p->parent_object && p->depth > 0)))
        return 0;
    k--;
    for (size_t m = k; m < p->i; m++)
        if (at(p, m) == '\\' || (at(p, m) == '$' && at(p, m + 1) == '{'))
            return 0;
    for (;;) {                          /* one blank (the operator's spacing) and comments before it */
        if (k > content && (at(p, k - 1) == ' ' || at(p, k - 1) == '\t'))
            k--;                        /* `"You are  + "x"`: "You are " lost its quote, not its space */
        if (!(k >= content + 4 && at(p, k - 1) == '/' && at(p, k - 2) == '*'))
            break;
        size_t m = k - 2;
        while (m > content + 1 && k - m < KEY_LOOKAHEAD && !(at(p, m - 2) == '/' && at(p, m - 1) == '*'))
            m--;
        if (m <= content + 1 || k - m >= KEY_LOOKAHEAD)
            return 0;
        k = m - 2;
    }
    /* the operand after the quote must close on its line where structure follows (`"abc + "def"]`),
     * else the quotes are text (`"x + "y" z"`) */
    int qc = at(p, p->i);
    size_t e = jl_quote_end_on_line(p, p->i + 1, qc);
    if (at(p, e) != qc || !closes_here(p, e + 1, false, false))
        return 0;
    return k > content ? k : 0;
}

/* At a key's opening quote (cursor) inside a value string whose content
 * starts at content: when a member separator stands before it
 * (missing_quote_end), the string's closing quote is missing. Drop the
 * separator bytes from b, move the cursor back to the string's end, note the
 * repair and return true; false otherwise. */
static bool end_before_key(jp *p, mf_buf *b, size_t content, int open_line, size_t open_bol)
{
    size_t end = missing_quote_end(p, content, p->i, !p->parent_object && p->depth > 0);
    if (!end)
        return false;
    int at_line = p->line;
    size_t dropped = p->i - end;       /* separator bytes, copied 1:1 into b */
    bool curly = end >= content + 3 && jl_smart_quote(p, end - 3) == Q_SMART_DOUBLE;
    if (curly)
        dropped += 3;                  /* `"v”,`: the curly quote was its closing quote */
    b->len = b->len > dropped ? b->len - dropped : 0;
    rewind_to(p, end, content, open_bol);
    jl_note(p, MF_RULE_JSON_MISSING_QUOTE, open_line,
            "string opened at line %d had no closing quote%s; ended it where the key at "
            "line %d starts", open_line, curly ? " (a curly quote stood for it)" : "", at_line);
    return true;
}

/* Parse a string whose opening delimiter (kind q) is at p->i into b.
 * Returns 0 (sets *cut when the input ended inside it), or -1. */
int jl_parse_string(jp *p, int q, bool is_key, mf_buf *b, bool *cut)
{
    size_t open = p->i;
    int open_line = p->line;
    size_t open_bol = p->bol;
    bool inner = false;
    dquotes dquotes_in = {0, false, 0, false}; /* set once the content starts */
    brackets opened_in = {0, 0};
    size_t ctrl_at = SIZE_MAX;         /* first literal control character */
    int letter_escape = 0, letter_line = 0;   /* first \b \f \n \r \t: ambiguous next to invalid escapes */
    bool invalid_escape = false;
    int ctrl_line = 0, ctrl_c = 0;
    *cut = false;
    mf_buf_reset(b);
    if (q == Q_SINGLE)
        jl_note(p, MF_RULE_JSON_SINGLE_QUOTES, p->line, "single-quoted %s converted to a JSON string",
             is_key ? "key" : "string");
    else if (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE)
        jl_note(p, MF_RULE_JSON_SMART_QUOTES, p->line, "smart quotes used as string delimiters");
    else if (q == Q_BACKTICK)
        jl_note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "backtick template literal converted to a JSON string");
    size_t text_end, triple = q == Q_DOUBLE || q == Q_SINGLE ? triple_quote_end(p, open, &text_end) : 0;
    if (triple) {
        jl_note(p, MF_RULE_JSON_DOUBLED_QUOTES, p->line, "Python triple quotes around '%.*s' read as one string",
                (int)(text_end - open - 3 > 40 ? 40 : text_end - open - 3), p->s + open + 3);
        if (mf_buf_put(b, p->s + open + 3, text_end - open - 3))
            return jl_fail(p, "out of memory");
        jl_advance_n(p, triple - open);
        return 0;
    }
    size_t doubled = q == Q_DOUBLE || q == Q_SINGLE ? doubled_quote_end(p, open, &text_end) : 0;
    if (doubled) {
        jl_note(p, MF_RULE_JSON_DOUBLED_QUOTES, p->line, "doubled quotes around '%.*s' read as one pair",
                (int)(text_end - open - 2 > 40 ? 40 : text_end - open - 2), p->s + open + 2);
        if (mf_buf_put(b, p->s + open + 2, text_end - open - 2))
            return jl_fail(p, "out of memory");
        jl_advance_n(p, doubled - open);
        return 0;
    }
    jl_advance_n(p, (q == Q_SMART_DOUBLE || q == Q_SMART_SINGLE) ? 3 : 1);
    size_t content = p->i;
    dquotes_in.dq_from = dquotes_in.kq_from = opened_in.from = content;
    size_t key_end = is_key && q == Q_DOUBLE ? key_colon_end(p, content) : 0;
    if (key_end) {
        jl_note(p, MF_RULE_JSON_MISSING_QUOTE, p->line, "key \"%.*s\" had no closing quote before its ':'",
                (int)(key_end - content > 40 ? 40 : key_end - content), p->s + content);
        if (mf_buf_put(b, p->s + content, key_end - content))
            return jl_fail(p, "out of memory");
        jl_advance_n(p, key_end - content);
        return 0;
    }

    for (;;) {
        if (at_end(p)) {
            size_t end, sw = is_key ? SIZE_MAX : swallowed_member(p, q, content, p->n);
            if (sw != SIZE_MAX)
                return swallow_fail(p, sw, open, open_line, open_bol);
            if (!is_key && (end = closers_at_end(p, content, inner)) && (!inner || line_break_from(p, end))) {
                size_t dropped = p->i - end;   /* blanks and closers, copied 1:1 into b */
                b->len = b->len > dropped ? b->len - dropped : 0;
                while (b->len > 0 && is_ws((unsigned char)b->s[b->len - 1]))
                    b->len--;
                int at_line = p->line;
                rewind_to(p, end, content, open_bol);
                jl_note(p, MF_RULE_JSON_MISSING_QUOTE, open_line,
                        "string opened at line %d had no closing quote; ended it before the closer(s) "
                        "at line %d that end the input", open_line, at_line);
                break;
            }
            if (inner) {
                p->i = open;
                p->line = open_line;
                p->bol = open_bol;
                return jl_fail(p, "unterminated string (its closing quote could not be told "
                               "from an inner quote)");
            }
            size_t lb = p->n;           /* the input's final line break is no text of the cut string */
            while (lb > content && (at(p, lb - 1) == '\n' || at(p, lb - 1) == '\r') && b->len > 0 &&
                   (b->s[b->len - 1] == '\n' || b->s[b->len - 1] == '\r'))
                lb--, b->len--;
            if (ctrl_at >= lb && ctrl_at != SIZE_MAX)
                ctrl_at = SIZE_MAX;
            p->closed_string = true;
            *cut = true;
            size_t tail = b->len > 24 ? 24 : b->len;
            while (tail < b->len && tail > 0 && ((unsigned char)b->s[b->len - tail] & 0xC0) == 0x80)
                tail--;
            if (!is_key)
                jl_cut(p, "kept the string cut at line %d as it was%s (ends \"%s%.*s\")", p->line,
                       lb < p->n ? " but for the input's final line break" : "",
                       tail < b->len ? "..." : "", (int)tail, b->s ? b->s + b->len - tail : "");
            break;
        }
        size_t run = jl_string_run(p, p->i, q); /* bytes no branch below treats specially: copied at once */
        while (!is_key && run < p->n && other_quote_text(p, q, content, run, inner))
            run = jl_string_run(p, run + 1, q);
        if (run > p->i) {
            if (mf_buf_put(b, p->s + p->i, run - p->i)) return jl_fail(p, "out of memory");
            p->i = run;
            continue;
        }
        int c = cur(p);
        size_t cl = closer_len(p, q, p->i);
        if (cl) {
            size_t op_end = !inner && !is_key && (q == Q_DOUBLE || q == Q_SINGLE) ? operator_end(p, content) : 0;
            /* an array item `"hello +` line break `" world"`: the quote after the operator opens its operand,
             * although a quote before a whole scalar item would close the string */
            bool operand_first = op_end && p->depth > 0 && !p->parent_object && is_ws(at(p, p->i - 1));
            if (!operand_first && ((q == Q_BACKTICK && c == '`') || closes_here(p, p->i + cl, is_key, inner))) {
                size_t sw = !is_key && ((inner && (q == Q_DOUBLE || q == Q_SINGLE || q == Q_SMART_DOUBLE)) ||
                                        (q == Q_SINGLE && odd_double_quotes(p, content, p->i)))
                                ? swallowed_member(p, q, content, p->i) : SIZE_MAX;
                if (sw != SIZE_MAX)
                    return swallow_fail(p, sw, open, open_line, open_bol);
                if (inner && !is_key && (q == Q_DOUBLE || q == Q_SINGLE) && quoted_key_within(p, q, content, p->i))
                    jl_note(p, MF_RULE_JSON_INNER_QUOTE, open_line,
                            "kept a quoted key with no comma before it inside a string (guessed that \"%.*s\" is "
                            "one string, not a member after it)", (int)(b->len < 48 ? b->len : 48), b->s ? b->s : "");
                if (q == Q_BACKTICK && c != '`')
                    jl_note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "an acute accent closed the backtick string");
                jl_advance_n(p, cl);
                break;
            }
            if (q == Q_BACKTICK) {          /* `it´s`: an accent in the text */
                if (mf_buf_put(b, p->s + p->i, cl)) return jl_fail(p, "out of memory");
                jl_advance_n(p, cl);
                continue;
            }
            if (!operand_first && !inner && !is_key && q != Q_BACKTICK) {
                /* ended at this key, the string must not hold an earlier member
                 * (`"T-US-012-` then a line `dependencies: [],`, then this key) */
                size_t end = missing_quote_end(p, content, p->i, !p->parent_object && p->depth > 0);
                size_t sw = end ? swallowed_member(p, q, content, end) : SIZE_MAX;
                if (sw != SIZE_MAX)
                    return swallow_fail(p, sw, open, open_line, open_bol);
                if (end_before_key(p, b, content, open_line, open_bol))
                    break;
            }
            if (op_end) {                   /* `"abc + "def"`: the closing quote is missing before the '+' */
                int at_line = p->line;
                b->len = b->len > p->i - op_end ? b->len - (p->i - op_end) : 0;   /* bytes copied 1:1 */
                if (ctrl_at >= op_end && ctrl_at != SIZE_MAX)
                    ctrl_at = SIZE_MAX;
                rewind_to(p, op_end, content, open_bol);
                jl_note(p, MF_RULE_JSON_MISSING_QUOTE, open_line, "string opened at line %d had no closing quote; "
                        "ended it before the '%c' that joins it to the string at line %d", open_line,
                        at(p, jl_past_spaces_comments(p, op_end)), at_line);
                break;
            }
            if (is_key && !has_word(b)) {
                p->i = open, p->line = open_line, p->bol = open_bol;
                return jl_fail(p, "a key of only punctuation before an unescaped quote (a stray quote?) "
                                  "is not repaired: it would invent a key");
            }
            int before = p->i > content ? at(p, p->i - 1) : -1, after = at(p, p->i + cl);
            if (!(q == Q_SINGLE && isalpha(before) && isalpha(after)))
                inner = true;           /* an apostrophe in a word (O'Sullivan) is no quote decision */
            int prev = p->i > open ? at(p, p->i - 1) : -1, next = at(p, p->i + cl);
            if (q == Q_DOUBLE && (prev == '=' || prev == '}' || next == '>' ||
                                  (next == '/' && at(p, p->i + 2) == '>')))
                jl_note(p, MF_RULE_JSON_HTML_FRAGMENT, p->line, "unescaped quote in an HTML fragment escaped");
            else
                jl_note(p, MF_RULE_JSON_INNER_QUOTE, p->line, "unescaped inner quote escaped");
            if (mf_buf_put(b, p->s + p->i, cl)) return jl_fail(p, "out of memory");
            jl_advance_n(p, cl);
            continue;
        }
        if (!inner && !is_key && q != Q_BACKTICK && q != Q_SINGLE && (c == '\'' || c == '"' || c == '`' || c == 0xE2) &&
            separator_before(p, content, p->i) && other_kind_member_at(p, q, p->i)) {
            size_t end = missing_quote_end(p, content, p->i, !p->parent_object && p->depth > 0);
            if (end && !text_open_before(p, &opened_in, content, end)) {
                /* ended at this key, the string must not hold an earlier member
                 * (`”text",` then a line `"files": x.js"`, then this key) */
                size_t sw = swallowed_member(p, q, content, end);
                if (sw != SIZE_MAX)
                    return swallow_fail(p, sw, open, open_line, open_bol);
            }
            if (end && !text_open_before(p, &opened_in, content, end) &&
                end_before_key(p, b, content, open_line, open_bol))
                break;                  /* `"b, 'c': 'd'`: a key in another quote style after a missing quote */
        }
        if (c == '\\' && !is_key && p->escaped_close && p->i == p->escaped_close) {
            jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "escaped quote read as the closing quote of the "
                    "value an escaped quote opened");
            p->escaped_close = 0;
            jl_advance_n(p, 2);
            break;
        }
        if (c == '\\' && is_key && q == Q_DOUBLE && at(p, p->i + 1) == '"' && p->i > content &&
            escaped_key_end(p, p->i)) {
            jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "escaped quote before the ':' of key \"%.*s\" read as "
                    "its closing quote", (int)(b->len > 40 ? 40 : b->len), b->s ? b->s : "");
            jl_advance_n(p, 2);
            break;
        }
        if (c == '\\') {
            int e = at(p, p->i + 1);
            if (e < 0 || p->i + 1 >= input_text_end(p)) {   /* the input ended on the backslash */
                jl_advance(p);
                continue;
            }
            const char *simple = strchr("\"\\/bfnrt", e);
            if (simple && e && strchr("bfnrt", e) && !letter_escape)
                letter_escape = e, letter_line = p->line;
            if (simple && e) {
                static const char dec[] = "\"\\/\b\f\n\r\t";
                if (mf_buf_putc(b, dec[simple - "\"\\/bfnrt"])) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
                continue;
            }
            if (e == 'u' && cut_unicode_escape(p)) {
                jl_cut(p, "dropped the \\u escape cut at line %d", p->line);
                jl_advance_n(p, p->n - p->i);
                continue;
            }
            if (e == 'u') {
                int h = hex4(p, p->i + 2);
                if (h >= 0) {
                    uint32_t cp = (uint32_t)h;
                    size_t used = 6;
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        int lo = (at(p, p->i + 6) == '\\' && at(p, p->i + 7) == 'u')
                                     ? hex4(p, p->i + 8) : -1;
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            return jl_fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + ((uint32_t)lo - 0xDC00);
                        used = 12;
                    } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                        return jl_fail(p, "invalid \\u escape (a lone surrogate has no UTF-8 form)");
                    }
                    if (put_utf8(b, cp)) return jl_fail(p, "out of memory");
                    jl_advance_n(p, used);
                    continue;
                }
            }
            if (e == '\'' && (q == Q_DOUBLE || q == Q_SINGLE || q == Q_BACKTICK)) {
                if (q != Q_SINGLE)      /* `it\'s` in a template literal is "it's" too */
                    jl_note(p, MF_RULE_JSON_SINGLE_QUOTE_ESCAPE, p->line, "invalid escape \\' replaced by '");
                if (mf_buf_putc(b, '\'')) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
                continue;
            }
            if (q == Q_BACKTICK && (e == '`' || e == '$')) {
                if (mf_buf_putc(b, (char)e)) return jl_fail(p, "out of memory");
                jl_advance_n(p, 2);
                continue;
            }
            invalid_escape = true;
            jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "invalid escape '\\%c' kept as text (backslash escaped)",
                 e >= 0x20 && e < 0x7f ? e : '?');
            if (mf_buf_putc(b, '\\')) return jl_fail(p, "out of memory");
            jl_advance(p);
            continue;
        }
        if (c == '$' && q == Q_DOUBLE && at(p, p->i + 1) == '{') {
            size_t end = template_span(p, p->i + 1);
            if (end) {
                jl_note(p, MF_RULE_JSON_TEMPLATE_LITERAL, p->line, "quotes inside a ${...} template kept as text");
                if (mf_buf_put(b, p->s + p->i, end - p->i)) return jl_fail(p, "out of memory");
                jl_advance_n(p, end - p->i);
                continue;
            }
        }
        if (c == '\'' && q == Q_DOUBLE && is_key && p->i > content && at(p, jl_past_spaces(p, p->i + 1)) == ':' &&
            !memchr(p->s + content, '"', p->i - content)) {
            jl_note(p, MF_RULE_JSON_SINGLE_QUOTES, p->line, "key opened with \" and closed with ' read as one key");
            jl_advance(p);              /* `{"a': 1}`: mismatched quotes */
            break;
        }
        if (c == '"' && q == Q_SINGLE && !inner && !dquote_before(p, &dquotes_in, p->i) &&
            closes_here(p, p->i + 1, is_key, false)) {
            jl_note(p, MF_RULE_JSON_SINGLE_QUOTES, p->line, "string opened with ' and closed with \" read as one string");
            jl_advance(p);              /* `'T-1", description: "x"`: mismatched quotes */
            break;
        }
        if (c == '"' && q == Q_SINGLE && !inner && !is_key &&
            missing_quote_end(p, content, p->i, !p->parent_object && p->depth > 0) &&
            !key_quote_before(p, &dquotes_in, p->i) && end_before_key(p, b, content, open_line, open_bol))
            break;                      /* `'node --check src` then a line `"deps": [...]` */
        if (c < 0x20 && q != Q_BACKTICK && ctrl_at == SIZE_MAX) {
            ctrl_at = p->i;
            ctrl_line = p->line;
            ctrl_c = c;
        }
        if (c == '\n' && is_key && !only_blanks_after(p, p->i) && !key_closes_next_line(p, p->i)) {
            /* `"task` + the lines below: a key is one line (but `"key_1` + a line `":` keeps its break) */
            p->i = open, p->line = open_line, p->bol = open_bol;
            return jl_fail(p, "a key runs over a line break (its closing quote missing?) is not repaired: "
                              "it would take the lines below it");
        }
        if (mf_buf_putc(b, (char)c)) return jl_fail(p, "out of memory");
        jl_advance(p);
    }
    if (ctrl_at < p->i)
        jl_note(p, MF_RULE_JSON_CONTROL_CHAR, ctrl_line, "literal control character%s in a string escaped",
                ctrl_c == '\n' ? " (line break)" : ctrl_c == '\t' ? " (tab)" : "");
    if (letter_escape && invalid_escape)   /* `C:\Users\me\file.txt`: is `\f` a form feed or a path's backslash? */
        jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, letter_line, "'\\%c' in a string that also holds invalid escapes "
                "read as the JSON escape, not as a backslash and '%c' (a path or pattern would mean the latter)",
                letter_escape, letter_escape);
    return 0;
}

