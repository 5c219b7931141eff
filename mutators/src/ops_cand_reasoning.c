/* ops_cand_reasoning.c - a leading reasoning block (rule cand.reasoning):
 * reasoning models open their output with <think>...</think> (also
 * <thinking>, <reasoning>, any case), often with a draft of the artifact
 * inside, then give the answer. Core takes the text after the block; a
 * draft inside it must not win. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "mut_internal.h"

static const char *const names[] = {"think", "thinking", "reasoning"};

/* Offset just past a reasoning tag at s + i (closing: `</name>`), or 0. */
static size_t tag_at(const char *s, size_t len, size_t i, bool closing)
{
    size_t k = i + 1 + closing;
    if (i >= len || s[i] != '<' || k >= len || (closing && s[i + 1] != '/'))
        return 0;
    for (size_t n = 0; n < sizeof names / sizeof *names; n++) {
        size_t l = strlen(names[n]);
        if (len - k > l && strncasecmp(s + k, names[n], l) == 0 && s[k + l] == '>')
            return k + l + 1;
    }
    return 0;
}

/* Offset past a leading (only blanks before it) closed reasoning block, or 0. */
static size_t block_end(const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", s[i]))
        i++;
    size_t open = tag_at(s, len, i, false);
    for (i = open; open && i < len; i++) {
        size_t e = tag_at(s, len, i, true);
        if (e)
            return e;
    }
    return 0;
}

bool mt_reasoning_leads(const char *raw, size_t len)
{
    size_t e = block_end(raw, len);
    if (!e)
        return false;
    for (; e < len; e++)
        if (!strchr(" \t\r\n", raw[e]))
            return true;
    return false;
}

/* Prose of the block: no quotes, colons, brackets or '#', so neither the
 * JSON token scan nor the YAML line view of later ops reads it as data. */
static const char *const prose[] = {
    "The user wants the artifact filled in from the ticket.\nLet me check every field before answering.\n",
    "First I list the fields, then I fill them in.\nThe status should follow from the checks.\n",
    "Okay, so the task is to produce the document.\nI should keep the structure and only fill the values.\n",
    "Let me think about this step by step.\n",
};

static bool parses(const mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx)) {
        json_t *v = json_loadb(ctx->text, ctx->len, JSON_DECODE_ANY, NULL);
        bool ok = v && (json_is_object(v) || json_is_array(v));
        json_decref(v);
        return ok;
    }
    return mt_yaml_parses(ctx->text, ctx->len);
}

/* A JSON draft: the artifact with its first string or number value changed. */
static int json_draft(const mf_op_ctx *ctx, mt_buf *b)
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return -1;
    size_t at = ctx->len, n = 0;
    const char *repl = NULL;
    for (size_t i = 0; i < t.n && !repl; i++) {
        const mt_jtok *k = &t.v[i];
        if (k->kind == JT_STR && ctx->text[k->off] == '"') {
            bool same = k->len == 7 && !memcmp(ctx->text + k->off, "\"draft\"", 7);
            repl = same ? "\"first guess\"" : "\"draft\"";
        } else if (k->kind == JT_NUM) {
            repl = k->len == 1 && ctx->text[k->off] == '0' ? "1" : "0";
        }
        if (repl)
            at = k->off, n = k->len;
    }
    mt_jtoks_free(&t);
    int rc = 0;
    if (!repl)
        return mt_puts(b, "{\"draft\": true}\n");
    rc |= mt_put(b, ctx->text, at);
    rc |= mt_puts(b, repl);
    rc |= mt_put(b, ctx->text + at + n, ctx->len - at - n);
    if (ctx->len && ctx->text[ctx->len - 1] != '\n')
        rc |= mt_putc(b, '\n');
    return rc;
}

/* A YAML draft: the artifact's first lines (4, or up to its first
 * `key: value` line within 6), the first such value changed. */
static int yaml_draft(const mf_op_ctx *ctx, mt_buf *b)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    int rc = 0;
    bool done = false;
    for (size_t i = 0; i < ls.n && i < (done ? 4 : 6) && rc == 0; i++) {
        const mt_line *l = &ls.v[i];
        const char *v;
        size_t vn = l->key_len && !l->block_body ? mt_line_value(l, &v) : 0;
        if (!done && vn && !mt_line_block_indicator(l) && !strchr("[{&*!|>\"'", v[0])) {
            bool same = vn == 5 && !memcmp(v, "draft", 5);
            rc |= mt_put(b, l->s, l->val);
            rc |= mt_puts(b, same ? "first guess\n" : "draft\n");
            done = true;
        } else {
            rc |= mt_put(b, l->s, l->len);
            rc |= mt_putc(b, '\n');
        }
    }
    mt_lines_free(&ls);
    return rc;
}

/* Does the first line hold cand.schema-echo's `key: <value>`? */
static bool schema_echo(const char *s, size_t n)
{
    const char *nl = memchr(s, '\n', n);
    size_t l = nl ? (size_t)(nl - s) : n;
    return l >= 9 && !memcmp(s + l - 9, ": <value>", 9);
}

int mt_op_cand_reasoning(mf_op_ctx *ctx)
{
    /* a reasoning tag in the text already (an earlier block, since moved off the start
     * by a fence or prose, or a tag in the data): a new block would end at its closing
     * tag, or leave the earlier block inside the answer, which no rule cuts: no site */
    for (size_t i = 0; i < ctx->len; i++)
        if (tag_at(ctx->text, ctx->len, i, false) || tag_at(ctx->text, ctx->len, i, true))
            return 0;
    size_t nn = sizeof names / sizeof *names, np = sizeof prose / sizeof *prose;
    const char *name = names[(size_t)mt_param_int(ctx, "tag", (long)mt_rand(ctx, nn)) % nn];
    long tcase = mt_param_int(ctx, "case", (long)mt_rand(ctx, 3)) % 3;
    const char *text = prose[(size_t)mt_param_int(ctx, "text", (long)mt_rand(ctx, np)) % np];
    long inl = mt_param_int(ctx, "inline", (long)(mt_rand(ctx, 4) == 0));
    long draft = mt_param_int(ctx, "draft", (long)mt_rand(ctx, 2));
    char tag[16];
    size_t tl = strlen(name);
    for (size_t i = 0; i <= tl; i++)
        tag[i] = tcase == 1 || (tcase == 2 && i == 0) ? (char)toupper((unsigned char)name[i]) : name[i];

    /* the promise: the answer after the block is the artifact as it was. Not
     * when other text leads it already (prose, role prefixes, a fence, a tag,
     * a schema echo: cand.reasoning takes the answer as a whole, and no rule
     * cuts a lead-in after a reasoning block), nor for an empty or one-scalar
     * artifact (the block's draft or prose is as much the document). */
    size_t a = 0;
    while (a < ctx->len && strchr(" \t\r\n", ctx->text[a]))
        a++;
    bool led = mt_starts_with_prose(ctx) || mt_role_prefix(ctx->text + a, ctx->len - a) ||
               (ctx->len - a >= 3 && !memcmp(ctx->text + a, "```", 3)) || (a < ctx->len && ctx->text[a] == '<') ||
               schema_echo(ctx->text + a, ctx->len - a) || mt_empty_artifact(ctx);
    /* a draft only beside an answer that parses as it is: were the answer
     * beyond repair, core would take the draft (cand.reasoning README) */
    bool with_draft = draft && !inl && !led && parses(ctx);

    mt_buf b = {0};
    int rc = 0;
    rc |= mt_putc(&b, '<');
    rc |= mt_puts(&b, tag);
    rc |= mt_putc(&b, '>');
    if (inl) {
        const char *nl = strchr(text, '\n');
        rc |= mt_put(&b, text, (size_t)(nl - text));
    } else {
        rc |= mt_putc(&b, '\n');
        rc |= mt_puts(&b, text);
        if (with_draft) {
            rc |= mt_puts(&b, "A first draft\n\n");
            rc |= mt_is_yaml(ctx) ? yaml_draft(ctx, &b) : json_draft(ctx, &b);
            rc |= mt_puts(&b, "\nWait, that value is wrong. Let me fix it in the answer.\n");
        }
    }
    rc |= mt_puts(&b, "</");
    rc |= mt_puts(&b, tag);
    rc |= mt_puts(&b, ">\n");
    rc |= mt_puts(&b, mt_rand(ctx, 2) ? "\n" : "");
    rc |= mt_put(&b, ctx->text, ctx->len);
    rc = mt_ctx_commit(ctx, &b, rc);
    if (rc == 1 && led)
        ctx->contract = MF_CONTRACT_RAW;
    ctx->prose_key = rc == 1;   /* a later wrapper indents the block into the artifact */
    return rc;
}
