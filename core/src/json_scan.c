/* json_scan.c - the tolerant JSON scanner: malformed model output in, json_t out.
 *
 * One recursive-descent pass over the text builds the value tree directly;
 * every place where the text is not strict JSON either matches a repair rule
 * (recorded as a warning with its line) or stops the scan with a
 * JSON_SYNTAX_ERROR saying what was expected there. Nothing is rewritten as
 * text first, so there is no chain of rewrites to go wrong.
 *
 * The parts: json_lex.c (cursor, comments), json_string.c (strings and the
 * closing-quote decision), json_words.c (literals and numbers).
 *
 * Input that ends early (a token limit) closes the open string and
 * containers; a member whose key or value is incomplete (a number or literal
 * cut by the end of input, a key without value) is dropped, never invented.
 * A string that ran into the end of input after an inner-quote decision is
 * rejected instead: the decision was probably wrong. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "json_lex.h"
#include "json_strict.h"

#define GROUP_LOOKAHEAD 256  /* bytes searched for the ')' of a group without a comma */
#define ARRAY_KEY_SCANS 16    /* arrays whose key item may be read as the next member (each scan reads to the end) */

/* ---------------------------------------------------------------- values */

static int parse_value(jp *p, json_t **out, mf_buf *b);
static int parse_elements(jp *p, json_t **out, mf_buf *b, int close);

static bool value_start(const jp *p)
{
    int c = cur(p);
    return c == '{' || c == '[' || c == '(' || c == '"' || c == '\'' ||
           (c == '`' && p->depth > 0 && at(p, p->i + 1) != '`') ||
           jl_is_word(c) || jl_smart_quote(p, p->i) >= 0 || jl_placeholder_at(p, p->i);
}

static int enter(jp *p)
{
    bool implicit = p->brace_missing;
    p->brace_missing = false;
    int c = implicit ? '{' : cur(p);
    if (++p->depth > p->max_depth) {
        bool first = !p->failed;
        jl_fail(p, "nesting deeper than %d levels (the depth cap)", p->max_depth);
        if (first)
            p->err->type = "NESTING_TOO_DEEP"; /* a cap names itself (mf_error_is_final) */
        return -1;
    }
    p->closer_of[p->depth] = c == '{' ? '}' : c == '(' ? ')' : ']';
    if (!implicit)
        jl_advance(p);
    return 0;
}

/* Does a quoted value that is no key start at k (`{a "b"}`: a missing ':')? */
static bool quoted_value_at(const jp *p, size_t k)
{
    int c = at(p, k);
    if (c == '"')
        return !jl_key_at(p, k);
    return c == '\'' || jl_smart_quote(p, k) >= 0;
}

/* At a bare word where a key is expected: is it a stray word (`COMMENT "k": 1`,
 * `"v" AAAA }`) - followed by a key or '}' and no ':' of its own? Its end, or 0. */
static size_t stray_word_end(const jp *p)
{
    int c = cur(p);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
        return 0;
    size_t w = jl_word_end(p, p->i);
    if (jl_word_is_literal(p->s + p->i, w - p->i))
        return 0;
    size_t k = jl_past_spaces(p, w);
    if (k == w && at(p, k) != '}')
        return 0;
    return at(p, k) == '}' || (at(p, k) == '"' && jl_key_at(p, k)) ? w : 0;
}

/* Parse a key at p->i into b. Returns 0 (*cut when the input ended), or -1. */
static int parse_key(jp *p, mf_buf *b, bool *cut)
{
    int c = cur(p);
    *cut = false;
    if (c == '\\' && at(p, p->i + 1) == '"' && jl_key_at(p, p->i + 1)) {   /* `\"notes": 1` */
        jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "backslash before a key's opening quote dropped");
        jl_advance(p);
        c = '"';
    }
    if (c == '"') return jl_parse_string(p, Q_DOUBLE, true, b, cut);
    if (c == '\'') return jl_parse_string(p, Q_SINGLE, true, b, cut);
    if (c == '`' && at(p, p->i + 1) != '`') return jl_parse_string(p, Q_BACKTICK, true, b, cut);
    int sq = jl_smart_quote(p, p->i);
    if (sq >= 0) return jl_parse_string(p, sq, true, b, cut);
    if (jl_is_word(c)) {
        size_t start = p->i;
        int line = p->line;
        p->i = jl_word_end(p, p->i);    /* word bytes hold no line break */
        size_t k = p->i;
        while (k < p->n && (at(p, k) == ' ' || at(p, k) == '\t'))
            k++;
        if (at_end(p)) {
            *cut = true;
            return 0;
        }
        size_t wend = p->i;
        if (at(p, k) == '"' && at(p, jl_past_spaces(p, k + 1)) == ':') {   /* `a": 1` */
            jl_note(p, MF_RULE_JSON_MISSING_OPEN_QUOTE, line, "key '%.*s\"' had no opening quote",
                    (int)(wend - start), p->s + start);
            jl_advance_n(p, k + 1 - p->i);
        } else if (at(p, jl_past_spaces(p, wend)) == ':' || (k > wend && quoted_value_at(p, k))) {   /* `a\n: 1` too */
            jl_note(p, MF_RULE_JSON_UNQUOTED_KEY, line, "unquoted key '%.*s' quoted", (int)(wend - start),
                    p->s + start);
        } else {
            p->i = start;
            return jl_fail(p, "expected a quoted object key");
        }
        mf_buf_reset(b);
        return mf_buf_put(b, p->s + start, wend - start) ? jl_fail(p, "out of memory") : 0;
    }
    return jl_fail(p, "expected a quoted object key or '}'");
}

/* At a '}' (cursor) of an object that is not itself a member: do members
 * follow (`}, "key":`)? Then the object was closed too early. A key without
 * its ':' counts only outside an array: in one, `}, "x" {` (or `"x" 2`) is
 * more simply two items missing their comma (run 9, b12a3306). */
static bool early_closer(const jp *p, bool in_array)
{
    size_t k = jl_past_spaces(p, p->i + 1);
    if (at(p, k) != ',')
        return false;
    k = jl_past_spaces(p, k + 1);
    if (at(p, k) == '"' && at(p, k + 1) == '"' && at(p, jl_past_spaces(p, k + 2)) == ':')
        return true;                    /* `}, "": 1` */
    return at(p, k) == '"' && (jl_key_at(p, k) || (!in_array && jl_key_without_colon(p, k)));
}

/* Is the first element of the object at the cursor a lone value followed by
 * ',' or '}' (a Python set `{"a", "b"}`), not a key? Looks only across the
 * first token. */
static bool set_ahead(const jp *p)
{
    size_t k = p->i;
    int c = at(p, k);
    if (c == '"' || c == '\'') {
        for (k++; k < p->n && at(p, k) != c && at(p, k) != '\n'; k++)
            if (at(p, k) == '\\')
                k++;
        if (at(p, k) != c)
            return false;
        k++;
    } else if ((c >= '0' && c <= '9') || c == '-') {
        while (k < p->n && jl_is_word(at(p, k)))
            k++;
    } else {
        return false;
    }
    k = jl_past_spaces(p, k);
    return at(p, k) == ',' || (at(p, k) == '}' && k > p->i);
}

/* At a ']' inside an object: drop it as stray, or close the object there. */
static int object_bracket(jp *p, bool *closed, bool in_array)
{
    *closed = false;
    if (p->implicit_closes > 0 || (!in_array && early_closer(p, in_array))) {
        if (p->implicit_closes > 0)
            p->implicit_closes--;
        jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "stray ']' in an object dropped");
        jl_advance(p);
    } else if (p->open_arrays > 0) {    /* `[{"a": 1]`: the '}' is missing, the ']' closes the array */
        jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "'}' missing before ']': the object was closed there");
        p->implicit_closes++;
        *closed = true;
    } else {
        jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "']' closing an object read as '}'");
        jl_advance(p);
        *closed = true;
    }
    return 0;
}

/* Are all items of a and b of one JSON type (arrays of strings, of arrays...)? */
static bool same_kind_items(const json_t *a, const json_t *b)
{
    if (json_array_size(a) == 0 || json_array_size(b) == 0)
        return false;
    json_type t = json_typeof(json_array_get(a, 0));
    for (size_t k = 0; k < json_array_size(a); k++)
        if (json_typeof(json_array_get(a, k)) != t)
            return false;
    for (size_t k = 0; k < json_array_size(b); k++)
        if (json_typeof(json_array_get(b, k)) != t)
            return false;
    return true;
}

static int parse_object(jp *p, json_t **out, mf_buf *b)
{
    bool member = p->parent_object;
    bool in_array = !member && p->depth > 0;   /* an element of an array, tuple or set */
    if (enter(p))
        return -1;
    if (jl_skip_ws(p))
        return -1;
    if (set_ahead(p)) {
        jl_note(p, MF_RULE_JSON_PYTHON_TUPLE, p->line, "Python set {...} read as an array");
        return parse_elements(p, out, b, '}');
    }
    json_t *obj = json_object();
    json_t *last = NULL;                /* the last member's value (borrowed) and key */
    char last_key[48] = "";
    p->open_objects++;
    bool need_sep = false, comma = false;
    int comma_line = 0;
    for (;;) {
        if (jl_skip_ws(p))
            goto error;
        if (at_end(p)) {
            p->closed_containers++;
            break;
        }
        int c = cur(p);
        if (c == '}') {
            if (comma)
                jl_note(p, MF_RULE_JSON_TRAILING_COMMA, comma_line, "trailing comma before '}' removed");
            if (!member && early_closer(p, in_array)) {
                jl_note(p, MF_RULE_JSON_EARLY_CLOSER, p->line, "'}' closed the object before its last members; "
                        "the members after it were kept in the object");
                jl_advance(p);
                continue;
            }
            jl_advance(p);
            break;
        }
        if (c == '{' && in_array && !need_sep) {  /* `[{"i": 1, {"i": 2}]`: '}' missing */
            jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "'}' missing before '{': the object was closed there");
            break;
        }
        if (c == ']') {
            bool closed;
            object_bracket(p, &closed, in_array);
            if (closed)
                break;
            continue;
        }
        if ((c == ':' || c == ';' || c == '+') && comma && is_ws(at(p, p->i + 1))) {
            jl_note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "stray '%c' after a comma removed", c);
            jl_advance(p);
            continue;
        }
        if (c == ',') {
            p->implicit_closes = 0;     /* a stray closer can only follow the implicit close directly */
            if (!need_sep)
                jl_note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "extra comma in an object removed");
            comma = true;
            comma_line = p->line;
            need_sep = false;
            jl_advance(p);
            continue;
        }
        size_t stray = stray_word_end(p);
        if (stray && !need_sep && at(p, jl_past_spaces(p, stray)) == '}')
            stray = 0;                  /* `{"a": 1, b}`, `{b}`: a last word after a comma or alone is data */
        if (stray) {
            /* the warning is the dropped word's only account: it names the whole word */
            jl_note(p, MF_RULE_JSON_STRAY_WORD, p->line, "stray word '%.*s' where a key belongs dropped",
                    (int)(stray - p->i), p->s + p->i);
            jl_advance_n(p, stray - p->i);
            continue;
        }
        if (c == '{' && in_array && need_sep) {  /* `[{"i": 1{"i": 2}]`: '}' missing */
            jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "'}' missing before '{': the object was closed there");
            break;
        }
        if (need_sep && c == '+') {     /* `"k": ["a "]+"b"`: only strings concatenate */
            jl_fail(p, "'+' after a member value that is not a string (only strings concatenate)");
            goto error;
        }
        if (need_sep) {
            if (c == ']' || c == ':' || !value_start(p)) {
                jl_fail(p, "expected ',' or '}' after an object member");
                goto error;
            }
            jl_note(p, MF_RULE_JSON_MISSING_COMMA, p->line, "missing comma between object members inserted");
        }
        if (jl_placeholder_at(p, p->i)) {
            size_t k = jl_past_spaces_comments(p, p->i + 3);
            /* `"a": 1, ... …}`: a placeholder missing its comma before another one */
            if (at(p, k) == ',' || at(p, k) == '}' || jl_placeholder_at(p, k)) {
                jl_note(p, MF_RULE_JSON_PLACEHOLDER, p->line, "placeholder '%.3s' for omitted members dropped", p->s + p->i);
                jl_advance_n(p, 3);
                need_sep = true;
                comma = false;
                continue;
            }
        }
        if (c == '[' && comma && last && json_is_array(last)) {  /* `"k": ["a"], ["b"]` */
            json_t *more;
            p->parent_object = false;
            if (parse_value(p, &more, b))
                goto error;
            if (!same_kind_items(last, more)) {
                json_decref(more);
                jl_fail(p, "an array where a key belongs, whose items are not like those of the array "
                           "before it (a missing '[' or key?)");
                goto error;
            }
            jl_note(p, MF_RULE_JSON_EARLY_CLOSER, p->line, "']' closed the array of \"%.40s\" early; the "
                    "items of the array after it were kept in it", last_key);
            json_array_extend(last, more);
            json_decref(more);
            need_sep = true;
            comma = false;
            continue;
        }
        bool cut;
        size_t key_at = p->i, key_bol = p->bol;
        int key_line = p->line;
        if (parse_key(p, b, &cut))
            goto error;
        if (cut) {
            p->dropped_member = true;
            jl_cut(p, "dropped the member whose key was cut (\"%.*s%s\")", (int)(b->len > 40 ? 40 : b->len),
                   b->s ? b->s : "", b->len > 40 ? "..." : "");
            continue;
        }
        size_t keylen = b->len;
        char key_here[64];              /* most keys are short: no allocation for them */
        char *key = keylen < sizeof key_here ? key_here : malloc(keylen + 1);
        if (!key) {
            jl_fail(p, "out of memory");
            goto error;
        }
        if (keylen)
            memcpy(key, b->s, keylen);
        key[keylen] = '\0';
        if (jl_skip_ws(p)) {
            if (key != key_here) free(key);
            goto error;
        }
        if (at_end(p)) {
            jl_cut(p, "dropped the member \"%.40s\" (no value before the end)", key);
            if (key != key_here) free(key);
            p->dropped_member = true;
            continue;
        }
        if (cur(p) != ':') {
            if (cur(p) == ',' || cur(p) == '}' || !value_start(p)) {
                if (key != key_here) free(key);
                jl_fail(p, "expected ':' after an object key");
                goto error;
            }
            jl_note(p, MF_RULE_JSON_MISSING_COLON, p->line, "missing ':' after the key \"%.40s\" inserted", key);
        } else {
            jl_advance(p);
        }
        if (jl_skip_ws(p)) {
            if (key != key_here) free(key);
            goto error;
        }
        if (at_end(p)) {
            jl_cut(p, "dropped the member \"%.40s\" (no value before the end)", key);
            if (key != key_here) free(key);
            p->dropped_member = true;
            continue;
        }
        json_t *v = NULL;
        if (cur(p) == ',' || cur(p) == '}') {
            jl_note(p, MF_RULE_JSON_MISSING_VALUE, p->line, "member \"%.40s\" had no value; null inserted", key);
            v = json_null();
        }
        if (memchr(key, '\0', keylen)) {
            /* the value tree's keys are C strings: a NUL would cut the key
             * silently downstream, so it is a rejection, as in jansson */
            if (key != key_here) free(key);
            jl_fail(p, "object key contains U+0000 (NUL), which malform does not carry");
            goto error;
        }
        if (jl_placeholder_at(p, p->i)) {
            if (key != key_here) free(key);
            jl_fail(p, "a placeholder ('...') stands where the member's value should be");
            goto error;
        }
        p->parent_object = true;
        if (!v && parse_value(p, &v, b)) {
            if (key != key_here) free(key);
            goto error;
        }
        if (!v)
            jl_cut(p, "dropped the member \"%.40s\" (its value was cut)", key);
        json_t *had = v ? json_object_getn(obj, key, keylen) : NULL;
        if (had && !json_equal(had, v)) {
            /* strict JSON keeps the last, but in a repaired text a second
             * value usually comes from a misread; either choice loses one */
            json_decref(v);
            p->i = key_at, p->line = key_line, p->bol = key_bol;
            jl_fail(p, "duplicate key \"%.40s\" with a different value: keeping either would drop the other",
                    key);
            if (key != key_here) free(key);
            goto error;
        }
        if (v && ((p->flags & MF_JSON_SCAN_UTF8) ? json_object_setn_new_nocheck(obj, key, keylen, v)
                                                 : json_object_setn_new(obj, key, keylen, v))) {
            if (key != key_here) free(key);
            jl_fail(p, "object key is not valid UTF-8");
            goto error;
        }
        last = v;
        size_t kl = 0;
        while (kl < sizeof last_key - 1 && key[kl])
            kl++;
        memcpy(last_key, key, kl);
        last_key[kl] = '\0';
        if (key != key_here) free(key);
        need_sep = true;
        comma = false;
    }
    p->open_objects--;
    p->depth--;
    *out = obj;
    return 0;
error:
    p->open_objects--;
    json_decref(obj);
    return -1;
}

/* Does a key (`"k":` or `'k':` on one line) stand at the cursor? */
static bool item_key_at(const jp *p)
{
    int q = cur(p);
    if (q != '"' && q != '\'')
        return false;
    size_t j = jl_quote_end_on_line(p, p->i + 1, q);
    return at(p, j) == q && j > p->i + 1 && at(p, jl_past_spaces(p, j + 1)) == ':';
}

/* At a key standing as an item of an array that is an object member
 * (`{"tags": ["a", "b", "next": 1}`): does the rest of the input close the
 * containers around the array and nothing else, brackets matched by kind and
 * double-quoted strings skipped? Then the array's ']' is missing before the
 * key, which is the next member of the object; reading the key as an object
 * whose '{' is missing would need two more closers than the text has. */
static bool key_after_unclosed_array(jp *p)
{
    if (p->depth < 2 || p->closer_of[p->depth - 1] != '}' || p->array_key_scans >= ARRAY_KEY_SCANS)
        return false;
    p->array_key_scans++;
    char open[MF_JSON_DEPTH_CAP];
    size_t depth = 0;
    int want = p->depth - 1;             /* the next closer must be closer_of[want] */
    for (size_t k = p->i; k < p->n; k++) {
        int c = at(p, k);
        if (c == '"') {
            for (k++; k < p->n && at(p, k) != '"' && at(p, k) != '\n'; k++)
                k += at(p, k) == '\\';
            if (at(p, k) != '"')
                return false;
        } else if (c == '{' || c == '[') {
            if (want < 1 || depth == sizeof open)
                return false;
            open[depth++] = c == '{' ? '}' : ']';
        } else if (c == '}' || c == ']') {
            if (depth > 0 && open[depth - 1] == c)
                depth--;
            else if (depth > 0 || want < 1 || c != p->closer_of[want--])
                return false;
        } else if (want < 1 && !is_ws(c)) {
            return false;
        }
    }
    return want < 1;
}

/* At a '}' in an array: is it stray - right after an object's own '}'
 * (`[{"a": 1}}, {"b": 2}]`) and followed by `, {` or `, [` (more elements)?
 * After a scalar (`[[1, 2}, [3]]`) it stands for the array's ']'. */
static bool stray_in_array(const jp *p)
{
    if (p->depth >= 2 && p->closer_of[p->depth - 1] == '}')
        return false;                   /* `{"a": [1}, ...`: the '}' closes the object */
    size_t b = p->i;
    while (b > 0 && is_ws(at(p, b - 1)))
        b--;
    if (b == 0 || at(p, b - 1) != '}')
        return false;
    size_t k = jl_past_spaces(p, p->i + 1);
    if (at(p, k) != ',')
        return false;
    k = jl_past_spaces(p, k + 1);
    return at(p, k) == '{' || at(p, k) == '[';
}

/* At an array item: is it a container holding only a placeholder (`{...}`,
 * `[ … ]`)? The offset past its closer, or 0. */
static size_t placeholder_item_end(const jp *p)
{
    int c = cur(p);
    if (c != '{' && c != '[')
        return 0;
    size_t k = jl_past_spaces(p, p->i + 1);
    if (!jl_placeholder_at(p, k))
        return 0;
    k = jl_past_spaces(p, k + 3);
    return at(p, k) == (c == '{' ? '}' : ']') ? k + 1 : 0;
}

/* The elements of an array, a Python tuple (close ')') or set (close '}'),
 * after the opener; p->depth already counts it. */
static int parse_elements(jp *p, json_t **out, mf_buf *b, int close)
{
    json_t *arr = json_array();
    bool need_sep = false, comma = false;
    int comma_line = 0;
    size_t comma_at = 0, comma_bol = 0;
    p->open_arrays++;
    for (;;) {
        if (jl_skip_ws(p))
            goto error;
        if (at_end(p)) {
            p->closed_containers++;
            break;
        }
        int c = cur(p);
        if (c == close || (c == ']' && close == ')')) {
            if (comma)
                jl_note(p, MF_RULE_JSON_TRAILING_COMMA, comma_line, "trailing comma before '%c' removed", close);
            jl_advance(p);
            break;
        }
        if (c == '}' && close == ']' && stray_in_array(p)) {
            jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "stray '}' in an array dropped");
            jl_advance(p);
            continue;
        }
        if (c == '}' && close == ']') {
            if (comma)
                jl_note(p, MF_RULE_JSON_TRAILING_COMMA, comma_line, "trailing comma before '}' removed");
            if (p->open_objects > 0 && !(p->depth >= 2 && p->closer_of[p->depth - 1] == ']')) {
                /* `[1, 2}`: the ']' is missing, the '}' closes the object (in an array of arrays it is the ']') */
                jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "']' missing before '}': the array was closed there");
                p->implicit_closes++;
            } else {
                jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "'}' closing an array read as ']'");
                jl_advance(p);
            }
            break;
        }
        if ((c == ':' || c == ';') && comma && is_ws(at(p, p->i + 1))) {
            jl_note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "stray '%c' after a comma removed", c);
            jl_advance(p);
            continue;
        }
        if (c == ',') {
            p->implicit_closes = 0;
            if (!need_sep)
                jl_note(p, MF_RULE_JSON_TRAILING_COMMA, p->line, "extra comma in an array removed");
            comma = true;
            comma_line = p->line;
            comma_at = p->i;
            comma_bol = p->bol;
            need_sep = false;
            jl_advance(p);
            continue;
        }
        if (need_sep) {
            if (!value_start(p)) {
                jl_fail(p, "expected ',' or '%c' after an array element", close);
                goto error;
            }
            jl_note(p, MF_RULE_JSON_MISSING_COMMA, p->line, "missing comma between array elements inserted");
        }
        size_t ph_end = json_array_size(arr) > 0 ? placeholder_item_end(p) : 0;
        if (ph_end) {                   /* `[{"id": 1}, {...}]`: "more like these", no item */
            jl_note(p, MF_RULE_JSON_PLACEHOLDER, p->line, "placeholder item '%.*s' for omitted elements dropped",
                    (int)(ph_end - p->i > 12 ? 12 : ph_end - p->i), p->s + p->i);
            jl_advance_n(p, ph_end - p->i);
            need_sep = true;
            comma = false;
            continue;
        }
        json_t *v;
        p->parent_object = false;
        if (close == ']' && (comma || json_array_size(arr) > 0) && item_key_at(p) && key_after_unclosed_array(p)) {
            jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "']' missing before the key at line %d: the array "
                    "was closed there and the key is the object's next member", p->line);
            if (comma) {                /* the comma separates the members */
                p->i = comma_at;
                p->line = comma_line;
                p->bol = comma_bol;
            }
            break;
        }
        if (close == ']' && item_key_at(p)) {  /* `["k": "v"}]`: the object's '{' is missing */
            jl_note(p, MF_RULE_JSON_MISMATCHED_CLOSER, p->line, "'{' missing before a key in an array: "
                    "an object opened there");
            p->brace_missing = true;
            if (parse_object(p, &v, b))
                goto error;
        } else if (parse_value(p, &v, b)) {
            goto error;
        }
        if (v)
            json_array_append_new(arr, v);
        need_sep = true;
        comma = false;
    }
    p->open_arrays--;
    p->depth--;
    *out = arr;
    return 0;
error:
    p->open_arrays--;
    json_decref(arr);
    return -1;
}

static int parse_array(jp *p, json_t **out, mf_buf *b)
{
    if (enter(p))
        return -1;
    return parse_elements(p, out, b, ']');
}

/* A Python tuple `(1, 2)`: an array. */
static int parse_tuple(jp *p, json_t **out, mf_buf *b)
{
    jl_note(p, MF_RULE_JSON_PYTHON_TUPLE, p->line, "Python tuple (...) read as an array");
    if (enter(p))
        return -1;
    p->tuple_depth++;
    int rc = parse_elements(p, out, b, ')');
    p->tuple_depth--;
    return rc;
}

/* At an identifier directly followed by '(' (`ObjectId("1")`, `NumberLong(2)`):
 * the offset just past the '(' when a value follows it, else 0. */
static size_t call_open(const jp *p)
{
    int c = cur(p);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$'))
        return 0;
    size_t k = p->i;
    while (k < p->n && (isalnum(at(p, k)) || at(p, k) == '_' || at(p, k) == '$' || at(p, k) == '.'))
        k++;
    if (at(p, k) != '(')
        return 0;
    size_t v = jl_past_spaces(p, k + 1);
    int d = at(p, v);
    return d == '"' || d == '\'' || d == '{' || d == '[' || d == '-' || (d >= '0' && d <= '9') ? k + 1 : 0;
}

/* A constructor call around a value (`ObjectId("123")`): the value. */
static int parse_call(jp *p, json_t **out, mf_buf *b, size_t open)
{
    int line = p->line;
    size_t start = p->i;
    jl_advance_n(p, open - p->i);
    p->call_depth++;
    int rc = jl_skip_ws(p) || parse_value(p, out, b) || jl_skip_ws(p);
    p->call_depth--;
    if (rc) {
        json_decref(*out);
        *out = NULL;
        return -1;
    }
    if (cur(p) != ')') {
        json_decref(*out);
        *out = NULL;
        return jl_fail(p, "expected ')' closing the call '%.*s'", (int)(open - start > 40 ? 40 : open - start),
                       p->s + start);
    }
    jl_advance(p);
    jl_note(p, MF_RULE_JSON_JS_WRAPPER, line, "call '%.*s...)' around a value replaced by its argument",
            (int)(open - start > 40 ? 40 : open - start), p->s + start);
    return 0;
}

/* At a '(' inside a container: a group on one line holding no ',' outside
 * brackets and quotes (`("x")`, `(see above)`, `(1 + 2)`): Python reads no
 * tuple there. The offset of its ')', or 0. */
static size_t grouping_end(const jp *p)
{
    int depth = 0;
    bool text = false;
    for (size_t k = p->i + 1; k < p->n && k < p->i + 1 + GROUP_LOOKAHEAD; k++) {
        int c = at(p, k);
        if (c == '\n' || (c == ',' && depth == 0))
            return 0;
        if (c == '"' || c == '\'') {   /* a quoted part: to its closing quote on the line */
            size_t e = jl_quote_end_on_line(p, k + 1, c);
            if (at(p, e) != c)
                return 0;
            k = e;
            text = true;
            continue;
        }
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ']' || c == '}') && --depth < 0)
            return 0;
        else if (c == ')' && depth-- == 0)
            return text ? k : 0;
        text |= !is_ws(c) && c != ')';
    }
    return 0;
}

/* Is [a, e) one quoted string (its closing quote at e - 1) or one JSON number? */
static bool one_scalar(const jp *p, size_t a, size_t e)
{
    int q = at(p, a);
    if (q == '"' || q == '\'') {
        size_t k = a + 1;
        while (k < e && at(p, k) != q)
            k += at(p, k) == '\\' ? 2 : 1;
        return k == e - 1;
    }
    size_t k = a + (q == '-');
    if (k >= e || !isdigit(at(p, k)))
        return false;
    while (k < e && (isdigit(at(p, k)) || strchr(".eE+-", at(p, k))))
        k++;
    return k == e;
}

/* A parenthesized group that is no tuple, ending at the ')' at close: one
 * string, number or bracketed value is its value (`("x")` is "x" in Python,
 * `((1, 2))` the tuple); other text keeps its parentheses as a string
 * (`(see above)`). */
static int parse_grouping(jp *p, json_t **out, mf_buf *b, size_t close)
{
    int line = p->line;
    size_t w = close + 1;
    while (w < p->n && (at(p, w) == ' ' || at(p, w) == '\t'))
        w++;
    bool label = w > close + 1 && (isalnum(at(p, w)) || at(p, w) == '_' || at(p, w) >= 0x80);
    if (label)
        close = jl_bare_end(p, w) - 1;  /* `(1) Build the app`: a label, then text */
    size_t a = jl_past_spaces(p, p->i + 1), e = close;
    while (e > a && is_ws(at(p, e - 1)))
        e--;
    if (!label && (one_scalar(p, a, e) || at(p, a) == '(' || at(p, a) == '[' || at(p, a) == '{')) {
        jl_advance_n(p, a - p->i);
        p->call_depth++;                /* a ')' ends the value inside, as in a call */
        int rc = parse_value(p, out, b) || jl_skip_ws(p);
        p->call_depth--;
        if (rc) {
            json_decref(*out);
            *out = NULL;
            return -1;
        }
        if (cur(p) != ')') {
            json_decref(*out);
            *out = NULL;
            return jl_fail(p, "expected ')' after the value in parentheses");
        }
        jl_advance(p);
        jl_note(p, MF_RULE_JSON_PYTHON_TUPLE, line, "parentheses around one value removed (a Python "
                "grouping, not a tuple: no comma)");
        return 0;
    }
    size_t n = close + 1 - p->i;
    if (!(*out = json_stringn(p->s + p->i, n)))
        return jl_fail(p, "unquoted text is not valid UTF-8");
    jl_note(p, MF_RULE_JSON_BARE_WORD, line, "unquoted text '%.*s%s' in parentheses read as a string (no comma: "
            "no tuple)", (int)(n > 40 ? 40 : n), p->s + p->i, n > 40 ? "..." : "");
    jl_advance_n(p, n);
    return 0;
}

/* Is the backtick at p->i a template string that is the whole input, only
 * blanks around it, closed by a backtick or an acute accent at its end
 * (`foo`, `foo´)? Elsewhere outside brackets a backtick opens inline code in
 * prose (`npm` and `yarn` both work), not a value. */
static bool backtick_whole_text(const jp *p)
{
    for (size_t k = 0; k < p->i; k++)
        if (!isspace(at(p, k)))
            return false;
    size_t end = p->n;
    while (end > p->i + 1 && isspace(at(p, end - 1)))
        end--;
    const char *tick = memchr(p->s + p->i + 1, '`', end - p->i - 1);
    if (tick)
        return tick == p->s + end - 1;
    return end >= p->i + 3 && at(p, end - 2) == 0xC2 && at(p, end - 1) == 0xB4;
}

/* May a value end before k (blanks, then ',', a closer, a line break or the end)? */
static bool value_may_end(const jp *p, size_t k)
{
    while (at(p, k) == ' ' || at(p, k) == '\t')
        k++;
    int c = at(p, k);
    return c < 0 || c == ',' || c == '}' || c == ']' || c == '\n' || c == '\r';
}

/* A value opened by an escaped quote (`"k": \"hello\", ...`: the backslashes
 * are damage, as before a key). Its string closes at the first quote, escaped
 * or not, after which the value may end, with no other quote before it on its
 * line; returns that quote's offset (its backslash for `\"`), 0 when there is
 * none. */
static size_t escaped_value_end(const jp *p)
{
    for (size_t m = p->i + 2; m < p->n && at(p, m) != '\n'; m++) {
        if (at(p, m) == '"')
            return value_may_end(p, m + 1) ? m : 0;
        if (at(p, m) == '\\' && at(p, m + 1) == '"')
            return value_may_end(p, m + 2) ? m : 0;
        if (at(p, m) == '\\')
            m++;
    }
    return 0;
}

/* Parse one value at p->i. 0 with *out (NULL: dropped because cut), or -1. */
static int parse_value(jp *p, json_t **out, mf_buf *b)
{
    *out = NULL;
    int c = cur(p);
    if (c == '{') return parse_object(p, out, b);
    if (c == '[') return parse_array(p, out, b);
    size_t group;
    if (c == '(' && p->depth > 0 && (group = grouping_end(p)))
        return parse_grouping(p, out, b, group);
    if (c == '(') return parse_tuple(p, out, b);
    if (c == '\\' && at(p, p->i + 1) == '"' && p->depth > 0) {
        size_t end = escaped_value_end(p);
        if (!end)
            return jl_fail(p, "a value opened by an escaped quote (\\\") has no quote on its line that "
                           "ends it before ',' or a closer");
        jl_note(p, MF_RULE_JSON_INVALID_ESCAPE, p->line, "backslash before a value's opening quote dropped");
        p->escaped_close = at(p, end) == '\\' ? end : 0;
        jl_advance(p);
        c = '"';
    }
    int q = c == '"' ? Q_DOUBLE : c == '\'' ? Q_SINGLE : jl_smart_quote(p, p->i);
    if (c == '`' && at(p, p->i + 1) != '`' && (p->depth > 0 || backtick_whole_text(p)))
        q = Q_BACKTICK;
    if (q >= 0) {
        size_t start = p->i;
        int line = p->line;
        size_t bol = p->bol;
        bool cut;
        int failed = jl_parse_string(p, q, false, b, &cut);
        p->escaped_close = 0;
        if (failed)
            return -1;
        mf_buf joined = {0};           /* "a" + "b": the parts so far */
        size_t plus;
        bool joining = false;
        while (!cut && at(p, plus = jl_past_spaces_comments(p, p->i)) == '+') {
            size_t next = jl_past_spaces_comments(p, plus + 1);
            int nq = at(p, next) == '"' ? Q_DOUBLE : at(p, next) == '\'' ? Q_SINGLE
                   : at(p, next) == '`' && at(p, next + 1) != '`' ? Q_BACKTICK : jl_smart_quote(p, next);
            if (nq < 0)
                break;
            jl_note(p, MF_RULE_JSON_STRING_CONCAT, p->line, "strings joined by '+' concatenated into one string");
            if ((!joining && mf_buf_put(&joined, b->s ? b->s : "", b->len)) ||
                (jl_advance_n(p, next - p->i), jl_parse_string(p, nq, false, b, &cut)) ||
                mf_buf_put(&joined, b->s ? b->s : "", b->len)) {
                mf_buf_free(&joined);
                return p->failed ? -1 : jl_fail(p, "out of memory");
            }
            joining = true;
        }
        if (joining) {
            mf_buf_reset(b);
            int oom = mf_buf_put(b, joined.s, joined.len);
            mf_buf_free(&joined);
            if (oom)
                return jl_fail(p, "out of memory");
        }
        bool valid = (p->flags & MF_JSON_SCAN_UTF8) || mf_utf8_valid(b->s, b->len);
        *out = valid ? json_stringn_nocheck(b->s ? b->s : "", b->len) : NULL;
        if (!*out) {
            p->i = start;
            p->line = line;
            p->bol = bol;
            return jl_fail(p, "string is not valid UTF-8");
        }
        return 0;
    }
    size_t call = call_open(p);
    if (call)
        return parse_call(p, out, b, call);
    if (jl_is_word(c) || (p->depth > 0 && jl_bare_start(p)))
        return jl_parse_word(p, out);
    return jl_fail(p, "expected a JSON value");
}

/* --------------------------------------------------------------- top level */

static int push_top(mf_json_tops *t, json_t *v, size_t start, size_t end, int line)
{
    if (t->count == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4;
        mf_json_top *it = realloc(t->items, cap * sizeof *it);
        if (!it)
            return -1;
        t->items = it;
        t->cap = cap;
    }
    t->items[t->count++] = (mf_json_top){v, start, end, line};
    return 0;
}

void mf_json_tops_free(mf_json_tops *t)
{
    for (size_t k = 0; k < t->count; k++)
        json_decref(t->items[k].value);
    free(t->items);
    memset(t, 0, sizeof *t);
}

static size_t ident_end(const jp *p, size_t k, bool dotted)
{
    size_t s = k;
    for (; k < p->n; k++) {
        int c = at(p, k);
        bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
        if (!(alpha || (k > s && ((c >= '0' && c <= '9') || (dotted && c == '.')))))
            break;
    }
    return k;
}

/* Does a scalar JSONP argument at k end with `)` [`;`] and the input (`cb(2);`)? */
static bool call_tail(const jp *p, size_t k)
{
    size_t e = p->n;
    while (e > k && (is_ws(at(p, e - 1)) || at(p, e - 1) == ';'))
        e--;
    return e > k + 1 && at(p, e - 1) == ')' && memchr(p->s + k, '(', e - 1 - k) == NULL &&
           memchr(p->s + k, ')', e - 1 - k) == NULL;
}

/* Does a Python tuple of JSON-like values open at k: `(` and then a quote,
 * a number, a bracket, a literal or `)`? `note = (see below)` is prose. */
static bool tuple_opens(const jp *p, size_t k)
{
    if (at(p, k) != '(')
        return false;
    size_t v = jl_past_spaces(p, k + 1);
    int c = at(p, v);
    if (c >= 0 && strchr("\"'[{()-+.0123456789", c))
        return true;
    static const char *const lits[] = {"true", "false", "null", "True", "False", "None"};
    for (size_t i = 0; i < sizeof lits / sizeof *lits; i++) {
        size_t n = strlen(lits[i]);
        if (v + n <= p->n && !memcmp(p->s + v, lits[i], n) && !isalnum(at(p, v + n)) && at(p, v + n) != '_')
            return true;
    }
    return false;
}

/* Length of a JavaScript wrapper before the value at the cursor
 * (`module.exports =`, `export default`, `const x =`, `a.b =`, a JSONP call
 * `cb(`), when a '{' or '[' follows it, or after '=' a Python tuple's '('
 * (`const data = (` + `"a", "b"` + `);`, json.python-tuple); 0 otherwise.
 * *call: a JSONP call. */
static size_t js_prefix(const jp *p, bool *call)
{
    size_t k = p->i, e;
    *call = false;
    if (p->n - k >= 14 && memcmp(p->s + k, "export default", 14) == 0) {
        e = k + 14;
    } else {
        e = ident_end(p, k, true);
        if (e == k)
            return 0;
        size_t wl = e - k;
        if ((wl == 5 && !memcmp(p->s + k, "const", 5)) || (wl == 3 && !memcmp(p->s + k, "let", 3)) ||
            (wl == 3 && !memcmp(p->s + k, "var", 3))) {
            size_t id = jl_past_spaces(p, e);
            if (id == e || (e = ident_end(p, id, false)) == id)
                return 0;
        }
        e = jl_past_spaces(p, e);
        if (at(p, e) == '(')
            *call = true;
        else if (at(p, e) != '=' || at(p, e + 1) == '=')
            return 0;
        e++;
    }
    size_t v = jl_past_spaces(p, e);
    if (*call && !(at(p, v) == '{' || at(p, v) == '['))   /* cb(2); cb("a"); cb(null); */
        return call_tail(p, v) ? v - p->i : 0;
    return at(p, v) == '{' || at(p, v) == '[' || (!*call && tuple_opens(p, v)) ? v - p->i : 0;
}

/* At the start of a line after a top-level value: a bare code fence line
 * (three or more backticks, no info string) with another value after it
 * (`{...}` then an orphan closing fence, then `{"status": "ok"}`)? Its
 * length, or 0. */
static size_t orphan_fence_between(const jp *p)
{
    size_t k = p->i;
    if (p->i != p->bol)
        return 0;
    while (k < p->n && at(p, k) == '`')
        k++;
    if (k - p->i < 3)
        return 0;
    while (k < p->n && (at(p, k) == ' ' || at(p, k) == '\t' || at(p, k) == '\r'))
        k++;
    if (k >= p->n || at(p, k) != '\n')
        return 0;
    size_t v = jl_past_spaces(p, k);
    return v < p->n && (at(p, v) == '{' || at(p, v) == '[') ? k - p->i : 0;
}

/* A C0 control byte other than NUL, tab and line breaks, or DEL: terminal
 * noise (an escape sequence's ESC, ^A from a pasted control key). */
static bool noise_byte(int c)
{
    return c == 0x7f || (c > 0 && c < 0x20 && c != '\t' && c != '\r' && c != '\n');
}

/* Skip a run of terminal noise tokens (mf_noise_token_len: an ESC with the
 * CSI sequence it opens, `\x1b[200~` between two values, run 45 00e19429):
 * a sequence's `[` and parameters are no JSON array. */
static void skip_noise(jp *p)
{
    size_t k;
    while (p->i < p->n && (k = mf_noise_token_len(p->s + p->i, p->n - p->i)) > 0)
        jl_advance_n(p, k);
}

int mf_json_scan(const char *text, size_t len, int max_depth, unsigned flags, mf_json_tops *out,
                 mf_warnings *w, mf_error *err)
{
    jp p = {.s = text, .n = len, .flags = flags, .line = 1, .max_depth = max_depth, .w = w, .err = err};
    mf_buf b = {0};
    memset(out, 0, sizeof *out);
    if (mf_buf_reserve(&b, len < 4096 ? len : 4096)) { /* a string's text: one allocation, not doublings */
        jl_fail(&p, "out of memory");
        goto error;
    }
    if (jl_skip_ws(&p))
        goto error;
    if (at_end(&p)) {
        jl_fail(&p, "expected a JSON value");
        goto error;
    }
    bool call;
    size_t wrap = js_prefix(&p, &call);
    if (wrap) {
        jl_note(&p, MF_RULE_JSON_JS_WRAPPER, p.line, "JavaScript wrapper '%.*s' before the value removed",
                (int)(wrap > 40 ? 40 : wrap), p.s + p.i);
        jl_advance_n(&p, wrap);
        p.call_depth += call;
    }
    while (!at_end(&p)) {
        size_t start = p.i;
        int line = p.line;
        json_t *v;
        p.parent_object = false;
        if (parse_value(&p, &v, &b))
            goto error;
        if (v && out->count > 0 && json_is_string(v) && p.closed_string && at_end(&p)) {
            json_decref(v);             /* `{"a": "x"}"}`: a quote of the value was misread */
            p.i = start, p.line = line;
            jl_fail(&p, "a string opened after the JSON value runs to the end of input (a quote inside "
                        "the value was read wrongly?)");
            goto error;
        }
        if (v && push_top(out, v, start, p.i, line)) {
            json_decref(v);
            jl_fail(&p, "out of memory");
            goto error;
        }
        if (jl_skip_ws(&p))
            goto error;
        while (cur(&p) == ';' || (cur(&p) == ')' && call) ||
               ((cur(&p) == ']' || cur(&p) == '}') && p.implicit_closes > 0)) {
            if (cur(&p) == ';' || cur(&p) == ')') {
                jl_note(&p, MF_RULE_JSON_JS_WRAPPER, p.line, "'%c' after the value removed", cur(&p));
                if (cur(&p) == ')' && call)
                    p.call_depth--;
                call = call && cur(&p) != ')';
            } else {
                jl_note(&p, MF_RULE_JSON_MISMATCHED_CLOSER, p.line, "stray '%c' after the value dropped", cur(&p));
                p.implicit_closes--;
            }
            jl_advance(&p);
            if (jl_skip_ws(&p))
                goto error;
        }
        /* control characters after a complete value (a terminal's noise) before
         * another value or the end: no data, like trailing terminal noise */
        if (noise_byte(cur(&p))) {
            int nl = p.line;
            while (noise_byte(cur(&p))) {
                skip_noise(&p);
                if (jl_skip_ws(&p))
                    goto error;
            }
            jl_note(&p, MF_RULE_CAND_TERMINAL_NOISE, nl, "control characters after the JSON value removed");
        }
        size_t fence = orphan_fence_between(&p);
        if (fence) {
            jl_note(&p, MF_RULE_CAND_ORPHAN_FENCE, p.line, "code fence line between two JSON values removed "
                    "(the values are kept as concatenated values)");
            jl_advance_n(&p, fence);
            if (jl_skip_ws(&p))
                goto error;
        }
        if (cur(&p) == ',') {
            int line = p.line;
            jl_advance(&p);
            if (jl_skip_ws(&p))
                goto error;
            if (at_end(&p))
                jl_note(&p, MF_RULE_JSON_TRAILING_COMMA, line, "trailing comma after the JSON value removed");
        } else if (!at_end(&p) && !value_start(&p)) {
            jl_fail(&p, "expected the end of the JSON value");
            goto error;
        }
    }
    if (out->count == 0) {
        jl_fail(&p, "expected a complete JSON value");
        goto error;
    }
    if (p.closed_containers || p.closed_string || p.dropped_member) {
        jl_note(&p, MF_RULE_JSON_TRUNCATED, p.line, "input ended early: closed %d open container(s)%s%s%s",
                p.closed_containers, p.closed_string ? " and an open string or comment" : "",
                p.cut_what[0] ? "; " : p.dropped_member ? "; dropped an incomplete member" : "",
                p.cut_what);
    }
    jl_note_overflow(&p);
    mf_buf_free(&b);
    return 0;
error:
    mf_buf_free(&b);
    mf_json_tops_free(out);
    return -1;
}

