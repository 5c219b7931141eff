/* norm_artifact_files.c - multi-file artifacts, fail-fast (seed 001).
 *
 * The canonical form is the structured-output array [{filename, content}].
 * Two other shapes are recovered, each with a warning:
 *   - a record {"name.md": "content", ...} (what extractStructuredArtifacts
 *     builds) becomes the array, in the record's order;
 *   - text (a string root) goes through the strict markdown fallback of
 *     parseMarkdownBlocksStrict: only blocks of the exact form
 *     "```[lang]\nfilename: X\n...```" whose X is an expected file count.
 *
 * Then, with the expected file names from opt->expected_files, the seed's
 * "no degradation" rules: every expected file must be present with
 * non-empty content, else MISSING_FILES (tier 2) naming each missing file;
 * a file that was not asked for or is given twice is a SCHEMA_VIOLATION.
 * Nothing is ever dumped into the first file and no file is ever filled
 * with an empty string. Without expected files only the structure is checked. */
#include <stdlib.h>
#include <string.h>
#include "schema_checks.h"
#include "norm.h"

static const char markdown_block[] = "```(\\w+)?\\s*\\nfilename:\\s*([^\\n]+)\\n([\\s\\S]*?)```";

static bool expected_has(const json_t *expected, const char *name)
{
    for (size_t i = 0; i < json_array_size(expected); i++)
        if (json_is_string(json_array_get(expected, i)) &&
            strcmp(json_string_value(json_array_get(expected, i)), name) == 0)
            return true;
    return false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Bytes of the Unicode space (JS \s beyond ASCII: U+00A0, U+1680,
 * U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) that
 * starts at t[0] (n bytes available), or 0. */
static size_t uspace(const unsigned char *t, size_t n)
{
    if (n >= 2 && t[0] == 0xC2 && t[1] == 0xA0)
        return 2;
    if (n < 3)
        return 0;
    if ((t[0] == 0xE1 && t[1] == 0x9A && t[2] == 0x80) || (t[0] == 0xE3 && t[1] == 0x80 && t[2] == 0x80) ||
        (t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF))
        return 3;
    if (t[0] == 0xE2 && t[1] == 0x80 && (t[2] <= 0x8A || t[2] == 0xA8 || t[2] == 0xA9 || t[2] == 0xAF))
        return 3;
    return t[0] == 0xE2 && t[1] == 0x81 && t[2] == 0x9F ? 3 : 0;
}

/* The [s, e) span of text without surrounding whitespace, Unicode spaces
 * included (JS String.trim). */
static void trim(const char *text, size_t *s, size_t *e)
{
    const unsigned char *t = (const unsigned char *)text;
    for (size_t k; *s < *e;) {
        if (is_space(text[*s]))
            (*s)++;
        else if ((k = uspace(t + *s, *e - *s)))
            *s += k;
        else
            break;
    }
    for (bool cut = true; cut && *e > *s;) {
        cut = false;
        if (is_space(text[*e - 1]))
            (*e)--, cut = true;
        for (size_t k = 2; k <= 3 && !cut; k++)
            if (*e - *s >= k && uspace(t + *e - k, k) == k)
                *e -= k, cut = true;
    }
}

/* Append the trimmed text [s, e) to outside (when any is left), " / " between pieces. */
static void keep_outside(mf_buf *outside, const char *text, size_t s, size_t e)
{
    trim(text, &s, &e);
    if (outside && e > s && (!outside->len || mf_buf_put(outside, " / ", 3) == 0))
        mf_buf_put(outside, text + s, e - s);
}

json_t *mf_artifact_files_from_markdown(const char *text, size_t len, const json_t *expected, mf_buf *outside)
{
    json_t *out = json_array(), *index = json_object();
    const pcre2_code *re = mf_regex_cached(markdown_block, NULL, 0);
    size_t at = 0, ov[8], prev_end = 0;
    while (re && at <= len && mf_regex_search_from(re, text, len, at, ov, 4) == 1) {
        size_t ns = ov[4], ne = ov[5], cs = ov[6], ce = ov[7];
        keep_outside(outside, text, prev_end, ov[0]);
        prev_end = ov[1];
        at = ov[1] > at ? ov[1] : at + 1; /* past the match (group 1, the lang, may be unset) */
        trim(text, &ns, &ne);
        trim(text, &cs, &ce);
        char *name = mf_strndup(text + ns, ne - ns);
        if (name && (!expected || expected_has(expected, name))) {
            json_t *content = json_stringn(text + cs, ce - cs);
            json_t *prev = json_object_get(index, name);
            if (prev) /* a later block for the same file replaces it, as in the seed's record */
                json_object_set_new(json_array_get(out, (size_t)json_integer_value(prev)), "content", content);
            else {
                json_object_set_new(index, name, json_integer((json_int_t)json_array_size(out)));
                json_array_append_new(out, json_pack("{s:s, s:o}", "filename", name, "content", content));
            }
        }
        free(name);
    }
    if (json_array_size(out))
        keep_outside(outside, text, prev_end, len);
    json_decref(index);
    return out;
}

static int check_files(const json_t *arr, const json_t *expected, mf_error *err)
{
    if (json_is_array(expected)) {
        mf_buf missing = {0};
        size_t nmissing = 0;
        for (size_t i = 0; i < json_array_size(expected); i++) {
            const char *want = json_string_value(json_array_get(expected, i));
            if (!want)
                continue;
            const char *why = " (absent)";
            for (size_t j = 0; j < json_array_size(arr); j++) {
                json_t *f = json_array_get(arr, j);
                if (strcmp(json_string_value(json_object_get(f, "filename")), want) == 0)
                    why = json_string_length(json_object_get(f, "content")) ? NULL : " (empty content)";
            }
            if (why)
                mf_buf_printf(&missing, "%s%s%s", nmissing++ ? ", " : "", want, why);
        }
        if (nmissing) {
            mf_error_set(err, 2, "MISSING_FILES", "", 0, 0, "Missing artifact%s: %s", nmissing == 1 ? "" : "s",
                         mf_buf_cstr(&missing));
            mf_buf_free(&missing);
            return -1;
        }
    }
    json_t *seen = json_object();
    char path[64];
    for (size_t j = 0; j < json_array_size(arr) && !err->tier; j++) {
        const char *name = json_string_value(json_object_get(json_array_get(arr, j), "filename"));
        snprintf(path, sizeof path, "/%zu/filename", j);
        if (json_is_array(expected) && !expected_has(expected, name)) {
            mf_buf allowed = {0};
            for (size_t i = 0; i < json_array_size(expected); i++)
                mf_buf_printf(&allowed, "%s%s", i ? ", " : "", json_string_value(json_array_get(expected, i)));
            mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0,
                         "unexpected file \"%s\": filename must match exactly one of: %s", name,
                         mf_buf_cstr(&allowed));
            mf_buf_free(&allowed);
        } else if (json_object_get(seen, name)) {
            mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0, "file \"%s\" is given twice; emit each file once", name);
        }
        json_object_set_new(seen, name, json_true());
    }
    json_decref(seen);
    return err->tier ? -1 : 0;
}

int mf_norm_artifact_files(json_t **root, const mf_profile *p, const mf_options *o,
                                mf_warnings *w, mf_error *err)
{
    const json_t *expected = mf_options_context(o, p, "expected_files");
    json_t *r = *root;
    if (json_is_string(r)) {
        mf_buf outside = {0};
        json_t *arr = mf_artifact_files_from_markdown(json_string_value(r), json_string_length(r), expected, &outside);
        if (json_array_size(arr) > 0) {
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_ARTIFACT_MARKDOWN), 0, "Recovered %zu file%s from strict markdown "
                            "blocks (```lang / filename: NAME) instead of the JSON array.",
                            json_array_size(arr), json_array_size(arr) == 1 ? "" : "s");
            if (outside.len)   /* prose around the blocks is no file: dropped, and said so */
                mf_warnings_add(w, MF_RULE_ID(SCHEMA_ARTIFACT_MARKDOWN), 0,
                                "Dropped the text outside the markdown blocks: \"%.*s%s\".",
                                (int)(outside.len > 1000 ? 1000 : outside.len), mf_buf_cstr(&outside),
                                outside.len > 1000 ? "..." : "");
            json_decref(r);
            *root = r = arr;
        } else {
            mf_buf_free(&outside);
            /* nothing recognisable: every expected file is missing; with none
             * expected ([]) the text is still no artifact, the schema gate
             * below turns it down (run 21 da27677b) */
            int rc = expected ? check_files(arr, expected, err) : 0;
            json_decref(arr);
            if (rc)
                return rc;
        }
        mf_buf_free(&outside);
    } else if (json_is_object(r) && json_object_size(r) > 0) {
        bool record = true;
        const char *k;
        json_t *v;
        json_object_foreach(r, k, v)
            record = record && json_is_string(v) && (!expected || expected_has(expected, k) || strchr(k, '.'));
        if (json_object_get(r, "filename") && json_object_get(r, "content"))
            record = false;
        if (record) {
            json_t *arr = json_array();
            json_object_foreach(r, k, v)
                json_array_append_new(arr, json_pack("{s:s, s:O}", "filename", k, "content", v));
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_ARTIFACT_FILES), 0, "Converted a filename -> content record of %zu "
                            "file%s into the [{filename, content}] array.", json_array_size(arr),
                            json_array_size(arr) == 1 ? "" : "s");
            json_decref(r);
            *root = r = arr;
        } else if (json_object_get(r, "filename") && json_object_get(r, "content")) {
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_ARTIFACT_FILES), 0, "Placed a single {filename, content} object in the array.");
            *root = json_pack("[O]", r);
            json_decref(r);
            r = *root;
        }
    }
    if (mf_schema_gate(p, r, w, err))
        return -1;
    return check_files(r, expected, err);
}
