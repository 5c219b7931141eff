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
 * in valid JSON duplicate keys keep the last value, as strict parsing does,
 * with a json.duplicate-key warning naming the dropped value when the values
 * differ (the value is unchanged; the loss is said), but in a repaired text a duplicate key with a different value is rejected
 * (a misread; either choice would drop one); text with a raw NUL byte is never strict JSON (jansson would stop there); nesting is
 * capped at max_depth (at most MF_JSON_DEPTH_CAP). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "json_internal.h"
#include "json_strict.h"

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
static bool empty_container(const json_t *v)
{
    return (json_is_object(v) && json_object_size(v) == 0) || (json_is_array(v) && json_array_size(v) == 0);
}

/* Several top-level values, some of them `{}` or `[]` and some not: drop the
 * empty ones (they hold no data); when all are empty, all stay. */
static void drop_empty_tops(mf_json_tops *tops, mf_warnings *w)
{
    size_t empty = 0, keep = 0;
    for (size_t k = 0; k < tops->count; k++)
        empty += empty_container(tops->items[k].value);
    if (tops->count < 2 || empty == 0 || empty == tops->count)
        return;
    for (size_t k = 0; k < tops->count; k++) {
        if (empty_container(tops->items[k].value)) {
            json_decref(tops->items[k].value);
            continue;
        }
        tops->items[keep++] = tops->items[k];
    }
    mf_warnings_add(w, MF_RULE_ID(JSON_CONCATENATED), tops->items[0].line,
                    "%zu concatenated JSON values: dropped %zu empty one(s) ({} or [])", tops->count,
                    tops->count - keep);
    tops->count = keep;
}

/* Is the top-level value a tag such as `[CONTENT]`, `[/CONTENT]` (or one the
 * end of the text at len cut, `[/CONTE`) or a transcript label
 * `[assistant/model/turn-2]` (an unquoted one-word array)? */
static bool tag_top(const char *text, size_t len, const mf_json_top *t)
{
    if (!json_is_array(t->value) || json_array_size(t->value) > 1 ||
        (json_array_size(t->value) == 1 && !json_is_string(json_array_get(t->value, 0))))
        return false;
    size_t a = t->start, e = t->end;
    while (e > a && strchr(" \t\r\n", text[e - 1]))
        e--;
    bool cut = text[e - 1] != ']' && t->end >= len;   /* `[/CONTE` cut by the end of input (its word left out) */
    if (json_array_size(t->value) == 0 && !cut)
        return false;
    if (e - a < (cut ? 2u : 3u) || text[a] != '[' || (text[e - 1] != ']' && !cut))
        return false;
    bool closing = text[a + 1] == '/';
    a += closing ? 2 : 1;
    size_t last = cut ? e : e - 1;
    if (cut && closing && last == a)
        return true;                    /* `[/` alone: a closing tag cut right after its slash */
    for (size_t k = a; k < last; k++)
        if (!(isalnum((unsigned char)text[k]) || strchr("_-./:@", text[k])))
            return false;
    return last > a;
}

/* Several top-level values, some of them tag lines around the others
 * (MetaGPT's `[CONTENT]` ... `[/CONTENT]`): drop the tags. */
static void drop_tag_tops(const char *text, size_t len, mf_json_tops *tops, mf_warnings *w)
{
    size_t tags = 0, keep = 0;
    for (size_t k = 0; k < tops->count; k++)
        tags += tag_top(text, len, &tops->items[k]);
    if (tops->count < 2 || tags == 0 || tags == tops->count)
        return;
    for (size_t k = 0; k < tops->count; k++) {
        mf_json_top *t = &tops->items[k];
        if (!tag_top(text, len, t)) {
            tops->items[keep++] = *t;
            continue;
        }
        mf_warnings_add(w, MF_RULE_ID(JSON_CONCATENATED), t->line, "tag line %.*s around the value dropped",
                        (int)(t->end - t->start > 40 ? 40 : t->end - t->start), text + t->start);
        json_decref(t->value);
    }
    tops->count = keep;
}

/* Does a JSON number end at k, before blanks, ',' or ']' (`[200~` is none)? */
static bool number_token_at(const char *s, size_t n, size_t k)
{
    size_t e = k + (s[k] == '-');
    if (e >= n || !isdigit((unsigned char)s[e]))
        return false;
    while (e < n && (isalnum((unsigned char)s[e]) || strchr(".+-", s[e])))
        e++;
    return e >= n || strchr(" \t\r\n,]", s[e]);
}

/* Among several top-level values: is this one an array of prose that the
 * end of input closed (`[200~` then `Let me know ...`), its first item bare
 * text rather than a JSON value? */
static bool prose_top(const char *text, size_t len, const mf_json_top *t)
{
    if (!json_is_array(t->value) || text[t->start] != '[' || text[t->end - 1] == ']' || tag_top(text, len, t))
        return false;
    size_t k = t->start + 1;
    while (k < t->end && strchr(" \t\r\n", text[k]))
        k++;
    if (k >= t->end || strchr("\"'{[]`", text[k]))
        return false;
    if (isdigit((unsigned char)text[k]) || text[k] == '-')
        return !number_token_at(text, t->end, k);
    static const char *const lit[] = {"true", "false", "null", "True", "False", "None"};
    for (size_t m = 0; m < sizeof lit / sizeof *lit; m++) {
        size_t l = strlen(lit[m]);
        if (t->end - k >= l && !memcmp(text + k, lit[m], l) && !isalnum((unsigned char)text[k + l]))
            return false;
    }
    return true;
}

/* Several top-level values, one of them an array of prose: the text after
 * (or before) the artifact is no JSON value, and gluing it to the artifact
 * would invent data. Returns -1 with err; candidates without it follow. */
static int reject_prose_tops(const char *text, size_t len, const mf_json_tops *tops, mf_error *err)
{
    for (size_t k = 0; tops->count > 1 && k < tops->count; k++) {
        const mf_json_top *t = &tops->items[k];
        if (!prose_top(text, len, t))
            continue;
        size_t bol = t->start;
        while (bol > 0 && text[bol - 1] != '\n')
            bol--;
        mf_error_set(err, 1, "JSON_SYNTAX_ERROR", "", t->line, (int)(t->start - bol) + 1,
                     "text after a complete JSON value is not another JSON value (prose in brackets: %.*s), "
                     "not glued to it", (int)(t->end - t->start > 40 ? 40 : t->end - t->start), text + t->start);
        return -1;
    }
    return 0;
}

static json_t *combine(const mf_profile *p, mf_json_tops *tops, mf_warnings *w)
{
    drop_empty_tops(tops, w);
    if (tops->count == 1) {
        json_t *v = tops->items[0].value;
        tops->items[0].value = NULL;
        return v;
    }
    const char *id = MF_RULE_ID(JSON_CONCATENATED);
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
            mf_buf dropped = {0};       /* name what is dropped: at most 3 values, 80 bytes each */
            for (size_t k = 0, listed = 0; k < tops->count; k++) {
                if (k == best)
                    continue;
                if (listed++ == 3) {
                    mf_buf_puts(&dropped, " ...");
                    break;
                }
                char *txt = json_dumps(tops->items[k].value, JSON_COMPACT | JSON_ENCODE_ANY);
                mf_buf_printf(&dropped, "%s line %d: %.80s%s", listed > 1 ? ";" : "", tops->items[k].line,
                              txt ? txt : "?", txt && strlen(txt) > 80 ? "..." : "");
                free(txt);
            }
            mf_warnings_add(w, id, tops->items[best].line,
                            "%zu concatenated JSON values (%zu objects); kept the largest object "
                            "(line %d), dropped the others:%s", tops->count, objects,
                            tops->items[best].line, dropped.s ? dropped.s : "");
            mf_buf_free(&dropped);
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

/* Does the text start like escaped JSON: `\\"`, or `{`/`[` then `\\"`? */
static bool escaped_json(const char *s, size_t n)
{
    size_t k = 0;
    while (k < n && strchr(" \t\r\n", s[k]))
        k++;
    if (k < n && (s[k] == '{' || s[k] == '['))
        for (k++; k < n && strchr(" \t\r\n", s[k]); k++)
            ;
    return k + 1 < n && s[k] == '\\' && s[k + 1] == '"';
}

/* The text with one level of string escapes undone (\\" \\\\ \\/ \\n \\t \\r \\b \\f);
 * other escapes stay, a backslash ending the text is dropped. */
static int unescape_once(const char *s, size_t n, mf_buf *out)
{
    static const char from[] = "\"\\/ntrbf", to[] = "\"\\/\n\t\r\b\f";
    for (size_t k = 0; k < n; k++) {
        const char *e = s[k] == '\\' && k + 1 < n ? strchr(from, s[k + 1]) : NULL;
        if (s[k] == '\\' && k + 1 == n)
            break;
        if (e && *e) {
            if (mf_buf_putc(out, to[e - from]))
                return -1;
            k++;
        } else if (mf_buf_putc(out, s[k])) {
            return -1;
        }
    }
    return 0;
}

int mf_json_parse_repair(const char *text, size_t len, const mf_profile *p, int max_depth, bool utf8,
                         json_t **out, mf_warnings *w, mf_error *err)
{
    *out = NULL;
    if (max_depth <= 0)
        max_depth = MF_DEFAULT_MAX_DEPTH;
    if (max_depth > MF_JSON_DEPTH_CAP)
        max_depth = MF_JSON_DEPTH_CAP;
    /* json_strict.c decides as jansson would, without jansson's per-byte cost;
     * jansson stops at a NUL byte and would drop what follows it silently. */
    json_t *v = NULL;
    int strict = mf_json_strict_dups(text, len, max_depth, utf8, &v, w);
    if (strict == MF_STRICT_OK) {
        *out = v;
        return 0;
    }
    json_error_t je;
    v = strict == MF_STRICT_INVALID || memchr(text, '\0', len) ? NULL
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
    mf_buf plain = {0};                 /* the text unescaped once (json.escaped-json) */
    const char *scanned = text;
    size_t scanned_len = len;
    if (mf_json_scan(text, len, max_depth, utf8 ? MF_JSON_SCAN_UTF8 : 0, &tops, &local, err) != 0) {
        mf_warnings_clear(&local);
        if (!escaped_json(text, len))
            return -1;
        mf_error err2 = {0};
        int rc = unescape_once(text, len, &plain) || !plain.s ? -1
               : mf_json_scan(plain.s, plain.len, max_depth, utf8 ? MF_JSON_SCAN_UTF8 : 0, &tops, &local, &err2);
        mf_error_clear(&err2);
        if (rc != 0) {
            mf_buf_free(&plain);
            mf_warnings_clear(&local);
            return -1;
        }
        scanned = plain.s;
        scanned_len = plain.len;
        mf_error_clear(err);
        mf_warnings_add(&local, MF_RULE_ID(JSON_ESCAPED_JSON), 1,
                        "the JSON text was escaped as a string's content (\\\"); unescaped once");
    }
    if (reject_prose_tops(scanned, scanned_len, &tops, err)) {
        mf_json_tops_free(&tops);
        mf_buf_free(&plain);
        mf_warnings_clear(&local);
        return -1;
    }
    drop_tag_tops(scanned, scanned_len, &tops, &local);
    *out = combine(p, &tops, &local);
    mf_json_tops_free(&tops);
    mf_buf_free(&plain);
    mf_warnings_take(w, &local);
    return 0;
}
