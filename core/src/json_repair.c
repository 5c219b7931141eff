/* json_repair.c - JSON parsing with repair: the JSON profiles' syntax stage.
 *
 * A candidate is first parsed strictly (jansson, any value, NUL allowed in
 * strings); valid JSON passes through untouched and without a warning. When
 * strict parsing fails, the tolerant scanner (json_scan.c) parses the same
 * text again, repairing what models typically get wrong (seed 002: `\'`,
 * `${...}`, `}">`, literal newlines, inner quotes; plus the JSON-isms of
 * other languages: comments, single and smart quotes, unquoted keys, Python
 * literals, trailing and missing commas, truncation). Each repair is a rule
 * below and a warning. When the text holds several top-level values they are
 * wrapped into an array, or, for a profile whose schema root is an object,
 * the largest object is kept (seed 002 "returns the largest"). When no repair
 * applies the candidate is rejected with JSON_SYNTAX_ERROR (tier 1): repair
 * never guesses, the retry path asks the model again.
 *
 * Decisions: NaN, Infinity, undefined and None become null (JSON has no
 * other form for them); numbers beyond int64/double are a real when the
 * double is exact, otherwise a string of their text (json.big-number);
 * duplicate keys keep the last value, as strict parsing does; text with a
 * raw NUL byte is never strict JSON (jansson would stop there); nesting is
 * capped at max_depth (at most MF_JSON_DEPTH_CAP). */
#include <string.h>
#include "json_internal.h"

#define S002 "002 A1 _extract_json "
#define SKM "002 Key mismatches #1/#3 "
#define SEXT "malform JSON extension "

const mf_rule mf_rules_json[] = {
    [JR_SINGLE_QUOTE_ESCAPE] = {"json.single-quote-escape", S002 "inline repairs",
        "Replace the invalid escape \\' inside a double-quoted string by a plain '."},
    [JR_TEMPLATE_LITERAL] = {"json.template-literal", S002 "inline repairs (template literals)",
        "Keep ${...} with quotes inside, and backtick-delimited strings, as string text."},
    [JR_HTML_FRAGMENT] = {"json.html-fragment", S002 "inline repairs (}\">)",
        "Escape an unescaped quote of an HTML/JSX fragment (}\">, =\"...\") inside a string."},
    [JR_CONTROL_CHAR] = {"json.control-char", SKM "(literal newlines)",
        "Escape literal newlines, tabs and other control characters inside strings."},
    [JR_INNER_QUOTE] = {"json.inner-quote", SKM "(unescaped double quotes)",
        "Escape a double quote inside a string that is not followed by JSON structure."},
    [JR_TRAILING_COMMA] = {"json.trailing-comma", SEXT "(seed 002 aggressive repair)",
        "Drop a comma before '}' or ']' and extra commas between members or elements."},
    [JR_MISSING_COMMA] = {"json.missing-comma", SEXT "(seed 002 aggressive repair)",
        "Insert the comma missing between two members or elements."},
    [JR_SINGLE_QUOTES] = {"json.single-quotes", SEXT "(seed 002 aggressive repair)",
        "Read single-quoted strings and keys as JSON strings."},
    [JR_UNQUOTED_KEY] = {"json.unquoted-key", SEXT "(seed 002 aggressive repair)",
        "Quote an object key written as a bare word (key: value)."},
    [JR_PYTHON_LITERAL] = {"json.python-literal", SEXT "(seed 002 aggressive repair)",
        "True/False/None/undefined to true/false/null; NaN and Infinity (no JSON form) to null."},
    [JR_COMMENT] = {"json.comment", SEXT "(seed 002 aggressive repair)",
        "Remove //, /* */ and # comments between tokens."},
    [JR_SMART_QUOTES] = {"json.smart-quotes", SEXT "(seed 002 aggressive repair)",
        "Read strings delimited by typographic quotes as JSON strings (inside strings they stay)."},
    [JR_CONCATENATED] = {"json.concatenated", S002 "(largest candidate)",
        "Several top-level values: wrap them in an array, or keep the largest object for object profiles."},
    [JR_TRUNCATED] = {"json.truncated", "002 A4 incomplete breakdown detection",
        "Close the string and containers left open by a cut-off output; drop incomplete members (subset)."},
    [JR_INVALID_ESCAPE] = {"json.invalid-escape", S002 "inline repairs",
        "Keep an invalid escape such as \\x or \\q as text by escaping its backslash."},
    [JR_BIG_NUMBER] = {"json.big-number", SEXT "(numbers)",
        "Keep a number that no int64/double holds exactly as a string of its text."},
    [JR_NUMBER_FORMAT] = {"json.number-format", SEXT "(numbers)",
        "Read +1, .5, 5., 0x1F and 1_000 as the JSON numbers 1, 0.5, 5.0, 31 and 1000."},
    [JR_UNICODE_SPACE] = {"json.unicode-space", SEXT "(whitespace)",
        "Treat non-breaking, zero-width and other Unicode spaces between tokens as whitespace."},
    [JR_MISSING_QUOTE] = {"json.missing-quote", SEXT "(strings)",
        "End a string whose closing quote is missing where a member follows (`, \"key\":`, a line starting with `\"key\":`, or closers then `, {\"key\":`)."},
    [JR_EARLY_CLOSER] = {"json.early-closer", SEXT "(containers)",
        "Continue an object closed too early when members follow its '}' where only values may stand (`{\"a\": 1}, \"b\": 2}`)."},
    [JR_STRING_CONCAT] = {"json.string-concat", SEXT "(strings)",
        "Join JavaScript/Python string concatenation `\"a\" + \"b\"` into one string \"ab\"."},
    [JR_BARE_WORD] = {"json.bare-word", SEXT "(values)",
        "Read an unquoted value or array item (`{status: in progress}`, `[a, b]`, a URL) as a string, up to ',', a closer or the line end."},
    [JR_NUMBER_STRING] = {"json.number-string", SEXT "(numbers)",
        "Keep a number-like token JSON cannot read exactly (0789, 1e, 1/3, 1.2.3) as a string of its text, never truncated."},
    [JR_PLACEHOLDER] = {"json.placeholder", SEXT "(values)",
        "Drop a `...` or `…` placeholder standing for omitted array items or object members."},
    [JR_MISSING_COLON] = {"json.missing-colon", SEXT "(objects)",
        "Insert the ':' missing between a key and its value (`{\"a\" 1}`)."},
    [JR_MISMATCHED_CLOSER] = {"json.mismatched-closer", SEXT "(containers)",
        "Close a container whose closer is missing or of the wrong kind (`[1, 2}`, `}]` for `]}`); drop a stray closer."},
    [JR_PYTHON_TUPLE] = {"json.python-tuple", SEXT "(Python)",
        "Read a Python tuple `(1, 2)` or set `{\"a\", \"b\"}` as a JSON array."},
    [JR_JS_WRAPPER] = {"json.js-wrapper", SEXT "(JavaScript)",
        "Remove a JavaScript wrapper around the value: `module.exports =`, `export default`, `const x =`, a JSONP call `cb(...)`, trailing ';'."},
    [JR_COUNT] = {NULL, NULL, NULL}};

/* Nesting depth of v, stopping once it exceeds limit. */
static int depth_of(const json_t *v, int limit)
{
    if (limit < 0 || !(json_is_object(v) || json_is_array(v)))
        return 0;
    int best = 0;
    if (json_is_array(v)) {
        for (size_t k = 0; k < json_array_size(v) && best <= limit; k++) {
            int d = depth_of(json_array_get(v, k), limit - 1);
            if (d > best) best = d;
        }
    } else {
        const char *key;
        json_t *x;
        json_object_foreach((json_t *)v, key, x) {
            int d = depth_of(x, limit - 1);
            if (d > best) best = d;
            if (best > limit) break;
        }
    }
    return best + 1;
}

static bool schema_root_is_object(const mf_profile *p)
{
    if (!p || !p->schema)
        return false;
    const char *t = json_string_value(json_object_get(p->schema, "type"));
    return t && strcmp(t, "object") == 0;
}

/* One value from several top-level values (steals them from tops). */
static json_t *combine(const mf_profile *p, mf_json_tops *tops, mf_warnings *w)
{
    if (tops->count == 1) {
        json_t *v = tops->items[0].value;
        tops->items[0].value = NULL;
        return v;
    }
    const char *id = mf_rules_json[JR_CONCATENATED].id;
    if (schema_root_is_object(p)) {
        size_t best = tops->count, objects = 0;
        for (size_t k = 0; k < tops->count; k++) {
            mf_json_top *t = &tops->items[k];
            if (!json_is_object(t->value))
                continue;
            objects++;
            if (best == tops->count ||
                t->end - t->start > tops->items[best].end - tops->items[best].start)
                best = k;
        }
        if (best < tops->count) {
            json_t *v = tops->items[best].value;
            tops->items[best].value = NULL;
            mf_warnings_add(w, id, tops->items[best].line,
                            "%zu concatenated JSON values (%zu objects); kept the largest object "
                            "(line %d), dropped the others", tops->count, objects,
                            tops->items[best].line);
            return v;
        }
    }
    json_t *arr = json_array();
    for (size_t k = 0; k < tops->count; k++) {
        json_array_append_new(arr, tops->items[k].value);
        tops->items[k].value = NULL;
    }
    mf_warnings_add(w, id, tops->items[0].line,
                    "%zu concatenated JSON values wrapped into an array", tops->count);
    return arr;
}

int mf_json_parse_repair(const char *text, size_t len, const mf_profile *p, int max_depth,
                         json_t **out, mf_warnings *w, mf_error *err)
{
    *out = NULL;
    if (max_depth <= 0)
        max_depth = MF_DEFAULT_MAX_DEPTH;
    if (max_depth > MF_JSON_DEPTH_CAP)
        max_depth = MF_JSON_DEPTH_CAP;
    /* jansson stops at a NUL byte and would drop what follows it silently. */
    json_error_t je;
    json_t *v = memchr(text, '\0', len) ? NULL
              : json_loadb(text, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (v) {
        if (depth_of(v, max_depth) <= max_depth) {
            *out = v;
            return 0;
        }
        json_decref(v);
    }
    mf_warnings local = {0};
    mf_json_tops tops;
    if (mf_json_scan(text, len, max_depth, &tops, &local, err) != 0) {
        mf_warnings_clear(&local);
        return -1;
    }
    *out = combine(p, &tops, &local);
    mf_json_tops_free(&tops);
    mf_warnings_take(w, &local);
    return 0;
}
