/* ops_shape.c - file payloads in another shape than the profile's canonical
 * one, as models write them (seed 001 and 002): a path -> content map, a bare
 * list or a single file object, a QA answer shaped like the developer's, an
 * artifact record, and files as fenced markdown blocks.
 *
 * Each op parses the (still well-formed) JSON text, reshapes it and writes
 * it back indented; where the text no longer parses, or the reshaping would
 * lose something the rule cannot restore (a duplicate path, an extra key),
 * the op finds no site. All are `exact`: the profile's normalizer
 * (code_files, qa_tests, artifact_files) promises the canonical shape back.
 * Markdown blocks only hold content without surrounding whitespace: the
 * fallback trims it, and in raw mode the prose around the blocks (which no
 * warning names) would read as lost. */
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

static bool has_normalizer(const mf_op_ctx *ctx, const char *name)
{
    for (size_t i = 0; ctx->profile && i < json_array_size(ctx->profile->normalizers); i++) {
        const char *x = json_string_value(json_array_get(ctx->profile->normalizers, i));
        if (x && !strcmp(x, name))
            return true;
    }
    return false;
}

/* The root value of the text when the profile runs normalizer, else NULL. */
static json_t *load(const mf_op_ctx *ctx, const char *normalizer)
{
    if (mt_is_yaml(ctx) || !has_normalizer(ctx, normalizer))
        return NULL;
    return json_loadb(ctx->text, ctx->len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, NULL);
}

/* Replace the text with v indented (v is consumed). */
static int store(mf_op_ctx *ctx, json_t *v)
{
    char *s = v ? json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY) : NULL;
    json_decref(v);
    if (!s)
        return -1;
    mt_buf b = {0};
    int rc = mt_puts(&b, s) | mt_putc(&b, '\n');
    free(s);
    return mt_ctx_commit(ctx, &b, rc);
}

/* Is every element an object of exactly the string members a and b, with
 * non-empty a values that never repeat? */
static bool file_list(const json_t *arr, const char *a, const char *b)
{
    if (!json_is_array(arr) || !json_array_size(arr))
        return false;
    json_t *seen = json_object();
    bool ok = true;
    for (size_t i = 0; i < json_array_size(arr) && ok; i++) {
        const json_t *f = json_array_get(arr, i);
        const char *k = json_string_value(json_object_get(f, a));
        ok = json_is_object(f) && json_object_size(f) == 2 && k && *k && !json_object_get(seen, k) &&
             json_is_string(json_object_get(f, b));
        if (ok)
            json_object_set_new(seen, k, json_true());
    }
    json_decref(seen);
    return ok;
}

/* [{a: k, b: v}, ...] -> {k: v, ...} (new reference). */
static json_t *to_record(const json_t *arr, const char *a, const char *b)
{
    json_t *r = json_object();
    for (size_t i = 0; i < json_array_size(arr); i++) {
        const json_t *f = json_array_get(arr, i);
        json_object_set(r, json_string_value(json_object_get(f, a)), json_object_get(f, b));
    }
    return r;
}

int mt_op_shape_files_map(mf_op_ctx *ctx)
{
    json_t *r = load(ctx, "code_files");
    if (!json_is_object(r) || !file_list(json_object_get(r, "files"), "path", "content")) {
        json_decref(r);
        return 0;
    }
    json_object_set_new(r, "files", to_record(json_object_get(r, "files"), "path", "content"));
    return store(ctx, r);
}

int mt_op_shape_files_bare(mf_op_ctx *ctx)
{
    json_t *r = load(ctx, "code_files"), *files = json_object_get(r, "files");
    if (!json_is_object(r) || json_object_size(r) != 1 || !file_list(files, "path", "content")) {
        json_decref(r);
        return 0;
    }
    json_t *out = json_array_size(files) == 1 && mt_rand(ctx, 2) ? json_array_get(files, 0) : files;
    json_incref(out);
    json_decref(r);
    return store(ctx, out);
}

int mt_op_shape_qa_files(mf_op_ctx *ctx)
{
    json_t *r = load(ctx, "qa_tests");
    const char *tf = json_string_value(json_object_get(r, "test_file"));
    json_t *tc = json_object_get(r, "test_content");
    if (!json_is_object(r) || !tf || !*tf || !json_is_string(tc) || json_object_get(r, "files")) {
        json_decref(r);
        return 0;
    }
    json_t *out = json_pack("{s:[{s:s, s:O}]}", "files", "path", tf, "content", tc);
    const char *k;
    json_t *v;
    json_object_foreach(r, k, v)
        if (strcmp(k, "test_file") && strcmp(k, "test_content"))
            json_object_set(out, k, v);
    json_decref(r);
    return store(ctx, out);
}

int mt_op_shape_artifact_record(mf_op_ctx *ctx)
{
    json_t *r = load(ctx, "artifact_files");
    if (!file_list(r, "filename", "content")) {
        json_decref(r);
        return 0;
    }
    json_t *out = to_record(r, "filename", "content");
    json_decref(r);
    return store(ctx, out);
}

static bool expected(const json_t *files, const char *name)
{
    for (size_t i = 0; i < json_array_size(files); i++)
        if (!strcmp(json_string_value(json_array_get(files, i)) ? json_string_value(json_array_get(files, i)) : "", name))
            return true;
    return false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Content a markdown block can hold: something besides whitespace, no fence. */
static bool block_safe(const char *s)
{
    bool text = false;
    for (const char *c = s; *c && !text; c++)
        text = !is_space(*c);
    return text && !strstr(s, "```");
}

/* Bytes of the Unicode space JS String.trim also cuts (U+00A0, U+1680,
 * U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) at t, n bytes available. */
static size_t uspace(const unsigned char *t, size_t n)
{
    if (n >= 2 && t[0] == 0xC2 && t[1] == 0xA0)
        return 2;
    if (n < 3)
        return 0;
    if ((t[0] == 0xE1 && t[1] == 0x9A && t[2] == 0x80) || (t[0] == 0xE3 && t[1] == 0x80 && t[2] == 0x80) ||
        (t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF) || (t[0] == 0xE2 && t[1] == 0x81 && t[2] == 0x9F))
        return 3;
    return t[0] == 0xE2 && t[1] == 0x80 && (t[2] <= 0x8A || t[2] == 0xA8 || t[2] == 0xA9 || t[2] == 0xAF) ? 3 : 0;
}

/* Does the markdown fallback give the content back unchanged? It trims like
 * JS String.trim, Unicode spaces (a BOM, a no-break space) included. */
static bool trimmed(const char *s)
{
    const unsigned char *t = (const unsigned char *)s;
    size_t n = strlen(s);
    if (is_space(s[0]) || is_space(s[n - 1]) || uspace(t, n))
        return false;
    for (size_t k = 2; k <= 3; k++)
        if (n >= k && uspace(t + n - k, k) == k)
            return false;
    return true;
}

int mt_op_shape_artifact_markdown(mf_op_ctx *ctx)
{
    const json_t *want = ctx->opt ? mf_options_context(ctx->opt, ctx->profile, "expected_files") : NULL;
    json_t *r = want ? load(ctx, "artifact_files") : NULL;
    bool ok = file_list(r, "filename", "content");
    for (size_t i = 0; ok && i < json_array_size(r); i++) {
        const json_t *f = json_array_get(r, i);
        const char *name = json_string_value(json_object_get(f, "filename"));
        ok = expected(want, name) && !strchr(name, '\n') && block_safe(json_string_value(json_object_get(f, "content")));
        ok = ok && trimmed(json_string_value(json_object_get(f, "content")));
    }
    if (!ok) {
        json_decref(r);
        return 0;
    }
    static const char *const tags[] = {"markdown", "md", ""};
    mt_buf b = {0};
    int rc = mt_rand(ctx, 2) ? mt_puts(&b, "Here are the files.\n\n") : 0;
    for (size_t i = 0; i < json_array_size(r); i++) {
        const json_t *f = json_array_get(r, i);
        rc |= mt_puts(&b, i ? "\n```" : "```") | mt_puts(&b, tags[mt_rand(ctx, 3)]) | mt_puts(&b, "\nfilename: ") |
              mt_puts(&b, json_string_value(json_object_get(f, "filename"))) | mt_putc(&b, '\n') |
              mt_puts(&b, json_string_value(json_object_get(f, "content"))) | mt_puts(&b, "\n```\n");
    }
    json_decref(r);
    return mt_ctx_commit(ctx, &b, rc);
}
