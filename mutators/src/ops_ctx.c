/* ops_ctx.c - malformations relative to the runtime context a case carries
 * (its opts: line: ticket id, story id, approved interview hash) and to the
 * artifact's own metadata: the model got an identifier or a version wrong.
 *
 * Each op applies only where a rule promises to put the value back: the
 * field is the context's value in the clean artifact and the profile runs
 * the normalizer that canonicalizes it (norm.ticket-id, norm.content-sha256
 * and norm.schema-version in the prd normalizer; schema.story-id in the
 * task_breakdown one). Without that, the op finds no site. */
#include <ctype.h>
#include <stdio.h>
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

/* A scalar site: the value's bytes [val, val_end) and its whole line (YAML). */
typedef struct {
    size_t line, line_end, val, val_end;
    char v[160];   /* unquoted value */
} site;

static void unquote(const char *s, size_t n, char *out, size_t cap)
{
    if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0]) {
        s++;
        n -= 2;
    }
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), s);
}

/* YAML: `key:` at column 0 (parent NULL) or directly under the top-level
 * `parent:` block. JSON: "key" at depth 1 (parent NULL). */
static bool find_site(const mf_op_ctx *ctx, const char *parent, const char *key, site *out)
{
    size_t kl = strlen(key);
    memset(out, 0, sizeof *out);
    if (mt_is_yaml(ctx)) {
        mt_lines ls;
        if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
            return false;
        bool found = false, under = parent == NULL;
        size_t child_indent = 0;
        for (size_t i = 0; i < ls.n && !found; i++) {
            const mt_line *l = &ls.v[i];
            if (l->blank || l->comment || l->block_body)
                continue;
            if (l->indent == 0) {
                under = !parent || (l->key_len == strlen(parent) && !memcmp(l->s + l->body, parent, l->key_len));
                child_indent = 0;
                if (parent)
                    continue;
            } else if (!parent) {
                continue;
            }
            if (!under || l->dash || !l->key_len)
                continue;
            if (parent && child_indent == 0)
                child_indent = l->indent;
            if ((parent && l->indent != child_indent) || l->key_len != kl || memcmp(l->s + l->body, key, kl))
                continue;
            const char *v;
            size_t vn = mt_line_value(l, &v);
            if (!vn)
                continue;
            out->line = l->off;
            out->line_end = l->off + l->len;
            out->val = (size_t)(v - ctx->text);
            out->val_end = out->val + vn;
            unquote(v, vn, out->v, sizeof out->v);
            found = !mt_key_repeated(ctx->text, ctx->len, l->off); /* a duplicated key: no site */
            if (!found)
                break;
        }
        mt_lines_free(&ls);
        return found;
    }
    if (parent)
        return false;
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return false;
    int depth = 0;
    bool found = false;
    for (size_t i = 0; i < t.n && !found; i++) {
        const mt_jtok *k = &t.v[i];
        if (k->kind == JT_OPEN)
            depth++;
        else if (k->kind == JT_CLOSE)
            depth--;
        else if (k->kind == JT_KEY && depth == 1 && k->len == kl + 2 && !memcmp(ctx->text + k->off + 1, key, kl) &&
                 i + 2 < t.n && t.v[i + 1].kind == JT_COLON && t.v[i + 2].kind == JT_STR) {
            const mt_jtok *v = &t.v[i + 2];
            out->val = v->off;
            out->val_end = v->off + v->len;
            unquote(ctx->text + v->off, v->len, out->v, sizeof out->v);
            found = true;
        }
    }
    mt_jtoks_free(&t);
    return found;
}

/* Replace the value (1), or (YAML, one time in three) drop the whole line. */
static int drift(mf_op_ctx *ctx, const site *s, const char *wrong, bool may_drop)
{
    if (may_drop && mt_is_yaml(ctx) && mt_rand(ctx, 3) == 0) {
        size_t end = s->line_end < ctx->len ? s->line_end + 1 : s->line_end;
        return mt_splice(ctx, s->line, end, "", 0);
    }
    char v[200];
    snprintf(v, sizeof v, mt_is_yaml(ctx) ? "%s" : "\"%s\"", wrong);
    return mt_splice(ctx, s->val, s->val_end, v, strlen(v));
}

/* Another spelling of an id: lower case, digits without zero padding, or a
 * neighbouring number. Never the id itself. */
static void other_id(mf_op_ctx *ctx, const char *id, char *out, size_t n)
{
    snprintf(out, n, "%s", id);
    switch (mt_rand(ctx, 3)) {
    case 0:
        for (char *p = out; *p; p++)
            *p = (char)tolower((unsigned char)*p);
        if (strcmp(out, id))
            return;
        /* fall through */
    case 1: {
        char *d = out + strlen(out);
        while (d > out && isdigit((unsigned char)d[-1]))
            d--;
        if (*d && d[0] == '0' && d[1]) {
            memmove(d, d + 1, strlen(d));
            return;
        }
    }
        /* fall through */
    default: {
        size_t l = strlen(out);
        if (l && isdigit((unsigned char)out[l - 1]))
            out[l - 1] = out[l - 1] == '9' ? '0' : (char)(out[l - 1] + 1);
        else if (l + 2 < n)
            snprintf(out + l, n - l, "-2");
    }
    }
}

/* The runtime context value the profile declares under key, or NULL. */
static const char *context(const mf_op_ctx *ctx, const char *key)
{
    return ctx->opt ? mf_options_context_string(ctx->opt, ctx->profile, key) : NULL;
}

int mt_op_ctx_ticket_id(mf_op_ctx *ctx)
{
    site s;
    const char *want = context(ctx, "ticket_id");
    if (!want || !has_normalizer(ctx, "prd") || !find_site(ctx, NULL, "ticket_id", &s) || strcmp(s.v, want))
        return 0;
    char wrong[200];
    other_id(ctx, s.v, wrong, sizeof wrong);
    return drift(ctx, &s, wrong, true);
}

int mt_op_ctx_story_id(mf_op_ctx *ctx)
{
    site s;
    const char *want = context(ctx, "story_id");
    if (!want || !has_normalizer(ctx, "task_breakdown") || !find_site(ctx, NULL, "story_id", &s) || strcmp(s.v, want))
        return 0;
    char wrong[200];
    other_id(ctx, s.v, wrong, sizeof wrong);
    return drift(ctx, &s, wrong, false);
}

int mt_op_ctx_content_sha(mf_op_ctx *ctx)
{
    site s;
    const char *want = context(ctx, "interview_sha256");
    if (!want || !has_normalizer(ctx, "prd") || !find_site(ctx, "source_interview", "content_sha256", &s) ||
        strcmp(s.v, want))
        return 0;
    /* a stale hash: the same length, other hex digits */
    char wrong[160];
    snprintf(wrong, sizeof wrong, "%s", s.v);
    for (char *p = wrong; *p; p++)
        *p = *p == 'f' ? '0' : *p == '9' ? 'a' : isxdigit((unsigned char)*p) ? (char)(*p + 1) : *p;
    return drift(ctx, &s, wrong, false);
}

int mt_op_ctx_schema_version(mf_op_ctx *ctx)
{
    site s;
    if (!has_normalizer(ctx, "prd") || !find_site(ctx, NULL, "schema_version", &s) || strcmp(s.v, "1"))
        return 0;
    static const char *const wrong[] = {"\"1\"", "v1", "0", "1.0", "-1", "one"};
    const char *w = wrong[mt_rand(ctx, sizeof wrong / sizeof *wrong)];
    return mt_splice(ctx, s.val, s.val_end, w, strlen(w));
}

int mt_op_ctx_prd_status(mf_op_ctx *ctx)
{
    site s;
    if (!has_normalizer(ctx, "prd") || !find_site(ctx, NULL, "status", &s) ||
        (strcmp(s.v, "approved") && strcmp(s.v, "draft")))
        return 0;
    static const char *const approved[] = {"Approved", "APPROVED", "\" approved \""};
    static const char *const draft[] = {"Draft", "DRAFT", "in review", "pending", "WIP"};
    bool a = !strcmp(s.v, "approved");
    const char *w = a ? approved[mt_rand(ctx, 3)] : draft[mt_rand(ctx, 5)];
    return mt_splice(ctx, s.val, s.val_end, w, strlen(w));
}
