/* ops_cand.c - malformations around the artifact (seed 000 "Candidate
 * Extraction", "Prompt Echo Detection"): what a model wraps the artifact in.
 * Transcript role prefixes, prose before and after, code fences (closed,
 * unclosed, wrong tag), XML tag envelopes (also truncated), prose before the
 * first top-level key, terminal noise (ANSI, bracketed paste, control bytes),
 * an orphan closing fence, and echoed prompts (which must be rejected). */
#include <stdio.h>
#include <string.h>
#include "mut_internal.h"

static int wrap(mf_op_ctx *ctx, const char *pre, const char *post)
{
    mt_buf b = {0};
    if (mt_puts(&b, pre) < 0 || mt_put(&b, ctx->text, ctx->len) < 0 || mt_puts(&b, post) < 0) {
        mt_free(&b);
        return -1;
    }
    mt_ctx_set(ctx, &b);
    return 1;
}

static bool ends_nl(const mf_op_ctx *ctx)
{
    return ctx->len && ctx->text[ctx->len - 1] == '\n';
}

static const char *const roles[] = {
    "[assistant]", "[assistant/gpt-4o]", "[user]", "[system]", "[sys]",
    "[tool]", "[model]", "[error]", "[assistant/claude-3-5-sonnet/turn-2]"};

int mt_op_cand_transcript(mf_op_ctx *ctx)
{
    size_t nroles = sizeof roles / sizeof *roles;
    size_t r = (size_t)mt_param_int(ctx, "role", (long)mt_rand(ctx, nroles)) % nroles;
    long first_only = mt_param_int(ctx, "first", (long)mt_rand(ctx, 3) == 0);
    mt_buf b = {0};
    int rc = 0;
    bool bol = true;
    for (size_t i = 0; i < ctx->len && rc == 0; i++) {
        if (bol && (!first_only || i == 0)) {
            rc |= mt_puts(&b, roles[r]);
            rc |= mt_putc(&b, ' ');
        }
        rc |= mt_putc(&b, ctx->text[i]);
        bol = ctx->text[i] == '\n' && i + 1 < ctx->len;
    }
    return mt_ctx_commit(ctx, &b, rc);
}

static const char *const prose_before[] = {
    "Here is the requested artifact.\n\n",
    "Sure! Below is the complete output, following the instructions exactly.\n\n",
    "# Result\n\nI reviewed the context carefully and produced the following document\n\n",
    "Okay, here it is:\n\n",
    "Based on the interview, this is my draft\n",
};
static const char *const prose_after[] = {
    "\n\nLet me know if you would like any changes.\n",
    "\nThis covers every requirement in the ticket.\n",
    "\n\n---\nNotes: I kept the structure unchanged; all fields are filled.\n",
    "\n\nHope this helps!\n",
};

static const char *pick(mf_op_ctx *ctx, const char *const *list, size_t n, const char *param)
{
    return list[(size_t)mt_param_int(ctx, param, (long)mt_rand(ctx, n)) % n];
}

int mt_op_cand_prose_before(mf_op_ctx *ctx)
{
    return wrap(ctx, pick(ctx, prose_before, 5, "text"), "");
}

int mt_op_cand_prose_after(mf_op_ctx *ctx)
{
    return wrap(ctx, "", pick(ctx, prose_after, 4, "text"));
}

static const char *fence_tag(mf_op_ctx *ctx)
{
    static const char *const y[] = {"yaml", "yml"}, *const j[] = {"json", "jsonl"};
    return mt_is_yaml(ctx) ? y[mt_rand(ctx, 2)] : j[mt_rand(ctx, 2)];
}

static int fence(mf_op_ctx *ctx, const char *tag, bool close)
{
    char pre[160], post[160];
    bool prose = mt_param_int(ctx, "prose", (long)mt_rand(ctx, 2));
    snprintf(pre, sizeof pre, "%s```%s\n", prose ? "Here is the output:\n\n" : "", tag);
    snprintf(post, sizeof post, "%s%s%s", ends_nl(ctx) ? "" : "\n", close ? "```\n" : "",
             prose && close ? "\nDone.\n" : "");
    return wrap(ctx, pre, post);
}

int mt_op_cand_fence(mf_op_ctx *ctx) { return fence(ctx, fence_tag(ctx), true); }
int mt_op_cand_fence_unclosed(mf_op_ctx *ctx) { return fence(ctx, fence_tag(ctx), false); }

int mt_op_cand_fence_wrong_tag(mf_op_ctx *ctx)
{
    static const char *const tags[] = {"", "text", "markdown", "json", "yaml", "plaintext"};
    const char *t = pick(ctx, tags, 6, "tag");
    if (strcmp(t, mt_is_yaml(ctx) ? "yaml" : "json") == 0)
        t = "";
    return fence(ctx, t, true);
}

static int op_tag(mf_op_ctx *ctx, bool close)
{
    const char *tag = ctx->profile ? ctx->profile->tag : NULL;
    if (!tag || !*tag)
        return 0;
    char pre[200], post[200];
    bool prose = mt_param_int(ctx, "prose", (long)mt_rand(ctx, 2));
    snprintf(pre, sizeof pre, "%s<%s>\n", prose ? "Work finished. Final marker:\n" : "", tag);
    if (close)
        snprintf(post, sizeof post, "%s</%s>\n", ends_nl(ctx) ? "" : "\n", tag);
    else
        snprintf(post, sizeof post, "%s", ends_nl(ctx) ? "" : "\n");
    return wrap(ctx, pre, post);
}

int mt_op_cand_tag_envelope(mf_op_ctx *ctx) { return op_tag(ctx, true); }
int mt_op_cand_tag_truncated(mf_op_ctx *ctx) { return op_tag(ctx, false); }

int mt_op_cand_anchor(mf_op_ctx *ctx)
{
    if (!ctx->profile || json_array_size(ctx->profile->top_level_keys) == 0 || !mt_is_yaml(ctx))
        return 0;
    static const char *const pre[] = {
        "Summary: drafted from the approved interview, see below.\nNote - fields follow the schema\n\n",
        "**Output**\n\nI have: checked every field.\n\n",
        "Status update: all sections complete\n\n",
    };
    return wrap(ctx, pick(ctx, pre, 3, "text"), "");
}

int mt_op_cand_ansi(mf_op_ctx *ctx)
{
    static const char *const noise[] = {"\x1b[0m", "\x1b[?25h\x1b[0m", "\x1b[32m\x1b[0m\x1b[K", "\x1b[2K\x1b[1G"};
    const char *n = pick(ctx, noise, 4, "seq");
    bool inline_suffix = mt_param_int(ctx, "inline", (long)mt_rand(ctx, 2));
    if (inline_suffix && ends_nl(ctx)) {
        ctx->len--;
        char post[64];
        snprintf(post, sizeof post, "%s\n", n);
        return wrap(ctx, "", post);
    }
    char post[64];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", n);
    return wrap(ctx, "", post);
}

int mt_op_cand_paste(mf_op_ctx *ctx)
{
    static const char *const noise[] = {"\x1b[201~", "[201~", "\x1b[200~\x1b[201~", "[200~"};
    char post[64];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", pick(ctx, noise, 4, "seq"));
    return wrap(ctx, "", post);
}

int mt_op_cand_control(mf_op_ctx *ctx)
{
    static const char *const noise[] = {"\x07", "\x7f\x7f", "\x01\x02\x1f", "\x0b\x0c"};
    char post[32];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", pick(ctx, noise, 4, "seq"));
    return wrap(ctx, "", post);
}

int mt_op_cand_orphan_fence(mf_op_ctx *ctx)
{
    return wrap(ctx, "", ends_nl(ctx) ? "```\n" : "\n```\n");
}

int mt_op_cand_prompt_echo(mf_op_ctx *ctx)
{
    static const char *const hard[] = {"CRITICAL OUTPUT RULE: return only the artifact, no prose.\n",
                                       "CONTEXT REFRESH: you are continuing the same task.\n"};
    static const char *const soft[] = {"## System Role\nYou are a senior engineer on the council.\n",
                                       "## Task\nProduce the artifact for the ticket.\n",
                                       "## Instructions\n1. Read the context.\n2. Emit the artifact.\n",
                                       "## Expected Output Format\nA single document.\n",
                                       "## Context\nTicket details follow.\n"};
    char pre[512];
    size_t s1 = mt_rand(ctx, 5), s2 = (s1 + 1 + mt_rand(ctx, 4)) % 5;
    snprintf(pre, sizeof pre, "%s\n%s\n%s\n", pick(ctx, hard, 2, "hard"), soft[s1], soft[s2]);
    return wrap(ctx, pre, "");
}

int mt_op_cand_schema_echo(mf_op_ctx *ctx)
{
    if (!ctx->profile || json_array_size(ctx->profile->top_level_keys) == 0 || !mt_is_yaml(ctx))
        return 0;
    const char *key = json_string_value(json_array_get(ctx->profile->top_level_keys, 0));
    if (!key)
        return 0;
    static const char *const marker[] = {"## Expected Output Format\n", "### ticket_details\n", "# Ticket: T-42\n"};
    char pre[256];
    snprintf(pre, sizeof pre, "%s: <value>\n\n%s\nEmit the document below.\n\n", key, pick(ctx, marker, 3, "marker"));
    return wrap(ctx, pre, "");
}
