/* ops_value.c - value mutations: the artifact stays valid but one string
 * becomes tricky for a YAML/JSON emitter and for the repairs (strings that
 * look like booleans, numbers, nulls or dates; ": ", "#", backticks, "@",
 * "${}", quotes, unicode, very long lines, multi-line code).
 *
 * These ops change the ground truth: the renderer applies them to the parsed
 * clean value and re-emits it with core's canonical emitter. Fields core
 * rewrites by design (context keys, enums, ids) are no site. */
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

typedef struct { json_t *parent; const char *key; size_t index; } leaf;
typedef struct { leaf *v; size_t n, cap; } leaves;

/* A field whose string core rewrites by design, so the value op's string
 * could never be the ground truth: a runtime-context key of the profile
 * (story_id is overwritten from the context), an enum field (mapped to its
 * canonical value; or one the schema enumerates, which a normalizer
 * validates: a change's type), a status (prd's and beads' normalizers map it) or an id
 * (normalized by the id rules). */
/* Does the JSON schema s declare property k with an "enum" or "const"
 * anywhere (changes[].type: {enum: [modified, added, removed]})? */
static bool schema_enum(const json_t *s, const char *k, int depth)
{
    if (depth > 32 || !json_is_object(s))
        return false;
    const json_t *props = json_object_get(s, "properties"), *pk = json_object_get(props, k);
    if (json_object_get(pk, "enum") || json_object_get(pk, "const"))
        return true;
    const char *key;
    json_t *c;
    json_object_foreach((json_t *)s, key, c) {
        if (json_is_object(c) && schema_enum(c, k, depth + 1))
            return true;
    }
    return false;
}

static bool normalized_field(const mf_profile *p, const char *k)
{
    size_t n = strlen(k);
    if (!strcmp(k, "id") || !strcmp(k, "status") || (n > 3 && !strcmp(k + n - 3, "_id")))
        return true;
    return p && (json_object_get(p->context, k) || json_object_get(p->enums, k) || schema_enum(p->schema, k, 0));
}

/* enum_kids: node is the value of a key whose enum applies to every member
 * (bead_status's checks: the gates tests, lint... are pass/fail). */
static void collect(const mf_profile *p, json_t *node, leaves *out, int depth, bool enum_kids)
{
    if (depth > 64)
        return;
    const char *k;
    json_t *c;
    if (json_is_object(node)) {
        json_object_foreach(node, k, c) {
            if (json_is_string(c) && (enum_kids || normalized_field(p, k)))
                continue;
            if (json_is_string(c)) {
                if (out->n == out->cap) {
                    size_t cap = out->cap ? out->cap * 2 : 16;
                    leaf *nv = realloc(out->v, cap * sizeof *nv);
                    if (!nv)
                        return;
                    out->v = nv;
                    out->cap = cap;
                }
                out->v[out->n++] = (leaf){node, k, 0};
            } else {
                collect(p, c, out, depth + 1, json_is_object(c) && p && json_object_get(p->enums, k));
            }
        }
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            c = json_array_get(node, i);
            if (json_is_string(c)) {
                if (out->n == out->cap) {
                    size_t cap = out->cap ? out->cap * 2 : 16;
                    leaf *nv = realloc(out->v, cap * sizeof *nv);
                    if (!nv)
                        return;
                    out->v = nv;
                    out->cap = cap;
                }
                out->v[out->n++] = (leaf){node, NULL, i};
            } else {
                collect(p, c, out, depth + 1, false);
            }
        }
    }
}

/* Replace one random string leaf with s. */
static int set_leaf(mf_op_ctx *ctx, const char *s)
{
    leaves l = {0};
    collect(ctx->profile, ctx->value, &l, 0, false);
    if (l.n == 0) {
        free(l.v);
        return 0;
    }
    leaf *x = &l.v[mt_rand(ctx, l.n)];
    json_t *v = json_string(s);
    int rc = !v ? -1 : x->key ? json_object_set_new(x->parent, x->key, v) : json_array_set_new(x->parent, x->index, v);
    free(l.v);
    return rc == 0 ? 1 : -1;
}

int mt_set_leaf(mf_op_ctx *ctx, const char *s) { return set_leaf(ctx, s); }

static int from_list(mf_op_ctx *ctx, const char *const *list, size_t n)
{
    return set_leaf(ctx, list[(size_t)mt_param_int(ctx, "v", (long)mt_rand(ctx, n)) % n]);
}

#define LIST_OP(fn, ...)                                                        \
    int fn(mf_op_ctx *ctx)                                                     \
    {                                                                          \
        static const char *const l[] = {__VA_ARGS__};                          \
        return from_list(ctx, l, sizeof l / sizeof *l);                        \
    }

LIST_OP(mt_op_val_bool, "yes", "no", "true", "False", "on", "OFF", "y", "n", "null", "~", "Null", "NO")
LIST_OP(mt_op_val_number, "0123", "1e3", "0x1F", ".5", "1_000", "+12", "-0", "1.0", "NaN", ".inf", "0o17", "12:30:45")
LIST_OP(mt_op_val_digit_id, "98765432109876543210123", "12345678901234567890", "31415926535897932384626433832795")
LIST_OP(mt_op_val_date, "2026-01-01", "2026-01-01T00:00:00Z", "2026-13-45", "12:30", "2026-01-01 10:00:00 +02:00")
LIST_OP(mt_op_val_syntax, "key: value", "a # not a comment", "- item", "[1, 2]", "{a: 1}", "&anchor", "*alias",
        "!tag value", "%directive", "? complex", ">- folded", "|", "rules: apply: here", "ends with colon:",
        "---", "...", ",leading comma", "trailing space ")
LIST_OP(mt_op_val_backtick_at, "`repo_git_mutex` behavior?", "@trace/span-id", "`cmd` and @user", "@", "`")
LIST_OP(mt_op_val_template, "echo ${HOME}", "`${a}-${b}`", "$(whoami)", "${", "}\">", "{{ template }}")
LIST_OP(mt_op_val_quotes, "He said \"hi\"", "it's", "'single' and \"double\"", "\"pink\" is accepted",
        "'pink' remains supported", "\"epic\" | \"user_story\"", "back\\slash \\d+ \\+", "\\'", "\"")
LIST_OP(mt_op_val_unicode, "na\xc3\xafve caf\xc3\xa9 \xe2\x80\x94 \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xf0\x9f\x8e\x89",
        "\xc2\xa0nbsp lead", "zero\xe2\x80\x8bwidth", "RTL \xe2\x80\xae override", "line\xe2\x80\xa8sep",
        "\xef\xbb\xbf" "bom inside", "tab\there")
LIST_OP(mt_op_val_multiline, "def f(x):\n    return x * 2\n", "line1\n\n  indented\ttab\n", "trailing spaces   \nend",
        "first\nsecond", "\n leading newline", "ends with newlines\n\n", "- a\n- b\n", "key: v\nother: w\n",
        "```yaml\nx: 1\n```")

int mt_op_val_long(mf_op_ctx *ctx)
{
    size_t n = 2000 + mt_rand(ctx, 6000);
    char *s = malloc(n + 1);
    if (!s)
        return -1;
    static const char words[] = "lorem ipsum dolor: sit amet # consectetur `adipiscing` elit ";
    for (size_t i = 0; i < n; i++)
        s[i] = words[i % (sizeof words - 1)];
    s[n] = '\0';
    while (n > 0 && s[n - 1] == ' ')
        s[--n] = '\0';
    int rc = set_leaf(ctx, s);
    free(s);
    return rc;
}
