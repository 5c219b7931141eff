/* ops_guard.c - guard situations (ops val.guard-*): valid artifacts that hold, inside one
 * string, text that looks like what a repair rule acts on. The rule must not
 * act there (contract exact: the value comes out unchanged), also when other
 * ops of the case make the rule act elsewhere.
 *
 *   val.guard-block-dash     list lines ("- a", "  - b", "-") inside a block scalar:
 *                        the sequence rules (dash-space, sequence-indent-drift,
 *                        inline-sequence-parent, nested-children) keep out;
 *   val.guard-block-key      "key: value" lines, a profile top-level key among them,
 *                        inside a block scalar: cand.anchor, the key and
 *                        indentation rules keep out;
 *   val.guard-block-fence    a fenced block, a "---" line and prose around it
 *                        inside a block scalar: candidate extraction (fences,
 *                        prose trimming, document separators) keeps out;
 *   val.guard-quoted-colon   ": ", " #", a trailing ':' and quotes inside a quoted
 *                        one-line string: colon, comment and quote rules keep out;
 *   val.guard-string-brackets unbalanced brackets, braces, an escaped quote and ","
 *                        inside a string: the JSON bracket, comma and
 *                        truncation rules keep out.
 *
 * These are value ops: the renderer puts the string into the clean value and
 * core's emitter writes it (a literal block scalar for multi-line text, a
 * quoted scalar for the rest), so the ground truth holds it too. The string
 * goes to a free-text field of the profile when it has one at a site (text
 * no normalizer reads), else to any string leaf whose key is no enum or id. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

typedef struct { json_t *parent; const char *key; size_t index; bool free_text; } site;
typedef struct { site *v; size_t n, cap; } sites;

static bool id_like(const char *k)
{
    size_t n = strlen(k);
    return (n >= 2 && !strcmp(k + n - 2, "id")) || (n >= 3 && !strcmp(k + n - 3, "_id")) || strstr(k, "sha") ||
           strstr(k, "ref");
}

/* May a normalizer or the schema read a string under key? */
static bool plain_text_key(const mf_profile *p, const char *key)
{
    if (!key || id_like(key) || json_object_get(p->enums, key) || json_object_get(p->defaults, key))
        return false;
    return !json_object_get(p->context, key);
}

static int add(sites *s, site x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        site *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = x;
    return 0;
}

/* String leaves under a plain-text key (array items count under their list's key). */
static int collect(const mf_profile *p, json_t *node, const char *key, sites *out, int depth)
{
    if (depth > 64)
        return 0;
    const char *k;
    json_t *c;
    if (json_is_object(node)) {
        json_object_foreach(node, k, c) {
            if (json_is_string(c) && plain_text_key(p, k)) {
                if (add(out, (site){node, k, 0, json_object_get(p->free_text_fields, k) != NULL}) < 0)
                    return -1;
            } else if (collect(p, c, k, out, depth + 1) < 0) {
                return -1;
            }
        }
    } else if (json_is_array(node)) {
        for (size_t i = 0; i < json_array_size(node); i++) {
            c = json_array_get(node, i);
            if (json_is_string(c) && plain_text_key(p, key)) {
                if (add(out, (site){node, NULL, i, json_object_get(p->free_text_fields, key ? key : "") != NULL}) < 0)
                    return -1;
            } else if (collect(p, c, key, out, depth + 1) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* Put s at one site (a free-text one when there is any). */
static int put(mf_op_ctx *ctx, const char *s)
{
    sites l = {0};
    if (collect(ctx->profile, ctx->value, NULL, &l, 0) < 0) {
        free(l.v);
        return -1;
    }
    size_t free_text = 0;
    for (size_t i = 0; i < l.n; i++)
        free_text += l.v[i].free_text;
    if (!l.n) {
        free(l.v);
        return 0;
    }
    size_t pick = mt_rand(ctx, free_text ? free_text : l.n), at = 0;
    for (size_t i = 0; i < l.n; i++)
        if (!free_text || l.v[i].free_text) {
            if (pick-- == 0) {
                at = i;
                break;
            }
        }
    site *x = &l.v[at];
    json_t *v = json_string(s);
    int rc = !v ? -1 : x->key ? json_object_set_new(x->parent, x->key, v) : json_array_set_new(x->parent, x->index, v);
    free(l.v);
    return rc == 0 ? 1 : -1;
}

static int pick_put(mf_op_ctx *ctx, const char *const *list, size_t n)
{
    return put(ctx, list[(size_t)mt_param_int(ctx, "v", (long)mt_rand(ctx, n)) % n]);
}

int mt_op_guard_block_dash(mf_op_ctx *ctx)
{
    static const char *const l[] = {
        "Steps:\n- install the deps\n- run make\n  - then make check\n",
        "- first point\n-second without space\n- third: with a colon\n",
        "Options considered:\n  - keep the cache\n  - drop it\n-\nDecision: keep it.",
        "- [ ] todo item\n- [x] done item\n",
    };
    return pick_put(ctx, l, sizeof l / sizeof *l);
}

int mt_op_guard_block_key(mf_op_ctx *ctx)
{
    const json_t *keys = ctx->profile->top_level_keys;
    const char *top = json_array_size(keys) ? json_string_value(json_array_get(keys, mt_rand(ctx, json_array_size(keys))))
                                            : "status";
    char s[512];
    static const char *const forms[] = {
        "Config:\n%s: example value\nretries: 3\n  timeout: 30s\n",
        "%s:\n  - not a real list\nnote: this is text\n",
        "The header reads\n\n%s: draft\nand stays text.",
    };
    snprintf(s, sizeof s, forms[(size_t)mt_param_int(ctx, "v", (long)mt_rand(ctx, 3)) % 3], top ? top : "status");
    return put(ctx, s);
}

int mt_op_guard_block_fence(mf_op_ctx *ctx)
{
    static const char *const l[] = {
        "Example:\n```yaml\nkey: value\n```\nEnd of example.",
        "Here is the output:\n```json\n{\"a\": [1, 2]}\n```\n",
        "before\n---\nafter the separator\n...\n",
        "```\nplain fence\n```",
        "Sure! Here is the YAML you asked for:\nstatus: done\n",
    };
    return pick_put(ctx, l, sizeof l / sizeof *l);
}

int mt_op_guard_quoted_colon(mf_op_ctx *ctx)
{
    static const char *const l[] = {
        "note: keep this: as is",
        "ratio 3:1 # not a comment",
        "ends with a colon:",
        "key: \"quoted\" and 'single'",
        "- starts like an item: but is text",
        "a: b, c: d",
    };
    return pick_put(ctx, l, sizeof l / sizeof *l);
}

int mt_op_guard_string_brackets(mf_op_ctx *ctx)
{
    static const char *const l[] = {
        "see [section 2} and {x",
        "array[0]] = {\"a\": [",
        "ends with a comma,",
        "quote \" inside ] and }",
        "{\"nested\": \"json\"}",
        "[1, 2, 3,]",
    };
    return pick_put(ctx, l, sizeof l / sizeof *l);
}
