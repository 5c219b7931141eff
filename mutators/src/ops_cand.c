/* ops_cand.c - malformations around the artifact (seed 000 "Candidate
 * Extraction", "Prompt Echo Detection"): what a model wraps the artifact in.
 * Transcript role prefixes, prose before and after, code fences (closed,
 * unclosed, wrong tag), XML tag envelopes (also truncated), prose before the
 * first top-level key, terminal noise (ANSI, bracketed paste, control bytes),
 * an orphan closing fence, and echoed prompts (which must be rejected). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
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

/* Append text after the artifact that is no part of it (noise, an orphan
 * fence): a later wrapper op would indent it into the artifact, where no
 * rule trims it, so it is noted like prose (render.c makes that raw). */

static int trailer(mf_op_ctx *ctx, const char *post)
{
    /* after an empty or one-scalar YAML artifact, a trailer YAML still reads
     * ('i' + '```' is the string 'i ```') is as much the scalar: raw contract */
    bool empty = mt_is_yaml(ctx) && mt_empty_artifact(ctx);
    int rc = wrap(ctx, "", post);
    ctx->prose_key = rc == 1;
    if (rc == 1 && empty && mt_yaml_parses(ctx->text, ctx->len))
        ctx->contract = MF_CONTRACT_RAW;
    return rc;
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
    rc = mt_ctx_commit(ctx, &b, rc);
    ctx->prose_key = rc == 1;   /* a later wrapper moves the prefixes off their line starts */
    return rc;
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

static const char *const anchor_prose[] = {
    "Summary: drafted from the approved interview, see below.\nNote - fields follow the schema\n\n",
    "**Output**\n\nI have: checked every field.\n\n",
    "Status update: all sections complete\n\n",
};

/* Does the text already start with prose an earlier op put there? A second
 * paragraph of prose before the artifact is no longer "a leading line" that
 * any rule cuts (core cuts only a run of plain sentences, cand_prose.c): such
 * an op finds no site. */
bool mt_starts_with_prose(const mf_op_ctx *ctx)
{
    const char *const *lists[] = {prose_before, anchor_prose};
    const size_t counts[] = {5, 3};
    size_t at = 0;                      /* past transcript role prefixes a later op put there */
    for (size_t r; (r = mt_role_prefix(ctx->text + at, ctx->len - at));)
        for (at += r; at < ctx->len && ctx->text[at] == ' ';)
            at++;
    for (size_t l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++) {
            const char *nl = strchr(lists[l][i], '\n');
            size_t n = (size_t)(nl - lists[l][i]);
            if (ctx->len - at >= n && !memcmp(ctx->text + at, lists[l][i], n))
                return true;
        }
    return false;
}

static const char *pick(mf_op_ctx *ctx, const char *const *list, size_t n, const char *param)
{
    return list[(size_t)mt_param_int(ctx, param, (long)mt_rand(ctx, n)) % n];
}

/* Blank, or terminal noise that cand.terminal-noise trims (control bytes,
 * ESC [ ... sequences, [200~ / [201~ paste markers)? */
static bool blank_or_noise(const char *s, size_t n, size_t *i)
{
    unsigned char c = (unsigned char)s[*i];
    if (c == 27 && *i + 1 < n && s[*i + 1] == '[') {
        size_t k = *i + 2;
        while (k < n && (unsigned char)s[k] >= 0x20 && (unsigned char)s[k] <= 0x3f)
            k++;
        *i = k < n ? k + 1 : k;
        return true;
    }
    if (c < 0x20 || c == 0x7f) {
        (*i)++;
        return true;
    }
    if (c == '[' && *i + 4 < n && !memcmp(s + *i, "[20", 3) && (s[*i + 3] == '0' || s[*i + 3] == '1') &&
        s[*i + 4] == '~') {
        *i += 5;
        return true;
    }
    if (c == ' ') {
        (*i)++;
        return true;
    }
    return false;
}

/* Is [s, s+n) one document holding one plain scalar ('m' / '' / 'n' reads "m\nn")? */
static bool plain_scalar_doc(const char *s, size_t n)
{
    yaml_parser_t parser;
    yaml_event_t e;
    int scalars = 0, others = 0;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    for (;;) {
        if (!yaml_parser_parse(&parser, &e)) {
            others++;
            break;
        }
        yaml_event_type_t t = e.type;
        if (t == YAML_SCALAR_EVENT && e.data.scalar.plain_implicit && !e.data.scalar.anchor && !e.data.scalar.tag)
            scalars++;
        else if (t != YAML_STREAM_START_EVENT && t != YAML_STREAM_END_EVENT && t != YAML_DOCUMENT_START_EVENT &&
                 t != YAML_DOCUMENT_END_EVENT)
            others++;
        yaml_event_delete(&e);
        if (t == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    return scalars == 1 && others == 0;
}

/* An empty artifact or a one-line plain scalar plus one sentence is a valid
 * scalar document: nothing tells the prose from the artifact (terminal
 * noise an earlier op added does not count). */
static bool empty_text(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && blank_or_noise(text, len, &i))
        ;
    size_t e = i;
    for (size_t k = i; k < len;) {     /* just past the last non-noise byte */
        size_t j = k;
        if (blank_or_noise(text, len, &j))
            k = j;
        else
            e = ++k;
    }
    for (size_t r = 0; r < sizeof roles / sizeof *roles; r++) {    /* '[error] \\' is the scalar '\\' */
        size_t rl = strlen(roles[r]);
        if (e - i > rl + 1 && !memcmp(text + i, roles[r], rl) && text[i + rl] == ' ' &&
            !memchr(text + i, '\n', e - i)) {
            i += rl + 1;
            break;
        }
    }
    if (e == i || (e - i == 3 && !memcmp(text + i, "---", 3)))
        return true;
    /* one plain scalar line ("null", "~", "done"): a sentence next to it is as much the document */
    const char *t = text + i;
    size_t n = e - i;
    /* a dash glued to a word ('-at') starts a plain scalar, no sequence item */
    bool dash_item = t[0] == '-' && (n == 1 || t[1] == ' ' || t[1] == '\t' || t[1] == '\r' || t[1] == '\n');
    if (memchr(t, '\n', n))    /* a multi-line plain scalar is as much one scalar */
        return !dash_item && t[0] != '[' && t[0] != '{' && plain_scalar_doc(t, n);
    if (dash_item || strchr("[{\"'", t[0]) || (t[0] == '-' && !plain_scalar_doc(t, n)))
        return false;
    for (size_t k = 0; k + 1 < n; k++)
        if (t[k] == ':' && (t[k + 1] == ' ' || t[k + 1] == '\t'))
            return false;
    return t[n - 1] != ':';
}

/* Is [s, s+n) a document marker line (`---`, `--- # end of front matter`,
 * `...`) at column 0? */
static bool marker_line(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    if (n < 3 || (memcmp(s, "---", 3) && memcmp(s, "...", 3)))
        return false;
    return n == 3 || ((s[3] == ' ' || s[3] == '\t') && memchr(s + 3, '#', n - 3));
}

/* An empty artifact or a one-scalar document, seen through what earlier ops
 * wrapped around it: transcript role prefixes on each line, front-matter
 * markers (`---` + `m` + `---`: yaml.front-matter-closer) and lines of
 * terminal noise. Such a text holds no structure either. */
bool mt_empty_artifact(const mf_op_ctx *ctx)
{
    if (empty_text(ctx->text, ctx->len))
        return true;
    mt_buf b = {0};
    bool changed = false;
    int e = 0;
    for (size_t a = 0; a < ctx->len;) {
        const char *nl = memchr(ctx->text + a, '\n', ctx->len - a);
        size_t end = nl ? (size_t)(nl - ctx->text) : ctx->len, k = a;
        for (size_t r; (r = mt_role_prefix(ctx->text + k, end - k));)
            for (k += r; k < end && ctx->text[k] == ' ';)
                k++;
        size_t j = k, last = k;         /* last: just past the line's last non-noise byte */
        while (j < end && blank_or_noise(ctx->text, end, &j))
            ;
        for (size_t q = k; q < end;) {
            size_t r = q;
            if (blank_or_noise(ctx->text, end, &r))
                q = r;
            else
                last = ++q;
        }
        /* `---` with noise glued after it (cand.ansi-noise on a closer line) is as much a marker */
        if (j == end || marker_line(ctx->text + k, last - k))
            changed = true;             /* a marker or noise line: no part of the document */
        else
            e |= mt_put(&b, ctx->text + k, end - k) | mt_putc(&b, '\n');
        changed |= k > a;
        a = end + 1;
    }
    bool empty = !e && changed && empty_text(b.s ? b.s : "", b.len);
    mt_free(&b);
    return empty;
}

bool mt_has_lone_cr(const char *s, size_t len)
{
    for (const char *p = memchr(s, '\r', len); p; p = memchr(p + 1, '\r', len - (size_t)(p + 1 - s)))
        if ((size_t)(p + 1 - s) < len && p[1] != '\n')
            return true;
    return false;
}

/* Does libyaml parse the text as it is? */
bool mt_yaml_parses(const char *s, size_t n)
{
    yaml_parser_t parser;
    yaml_event_t e;
    bool ok = true;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    for (;;) {
        if (!yaml_parser_parse(&parser, &e)) {
            ok = false;
            break;
        }
        bool end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        if (end)
            break;
    }
    yaml_parser_delete(&parser);
    return ok;
}

static bool top_level_key(const mf_profile *p, const char *s, size_t n)
{
    for (size_t i = 0; p && i < json_array_size(p->top_level_keys); i++) {
        const char *k = json_string_value(json_array_get(p->top_level_keys, i));
        if (k && strlen(k) == n && !memcmp(k, s, n))
            return true;
    }
    return false;
}

/* Prose `pre` was put before the artifact text `art` (YAML). When the whole
 * still parses, the prose is data to a parser, and only core's leading-prose
 * rule (cand.leading-prose) tells it apart: its first line ends with ':' and
 * the artifact starts with a mapping entry or item at column 0 (A), or it is
 * "words: text" and the artifact starts with one of the profile's top-level
 * keys (B). Where that promise does not hold the application is ambiguous:
 * raw contract. prose_key notes the prose for later wrapper ops: indented
 * under a wrapper key it is no longer leading prose, and no rule cuts it. */
static void judge_prose(mf_op_ctx *ctx, const char *pre, size_t pre_len)
{
    if (!mt_is_yaml(ctx))
        return;
    const char *nl = memchr(pre, '\n', pre_len);
    size_t l1 = nl ? (size_t)(nl - pre) : pre_len;
    bool colon_end = l1 && pre[l1 - 1] == ':';
    const char *cs = NULL;
    for (size_t i = 0; i + 1 < l1; i++)
        if (pre[i] == ':' && pre[i + 1] == ' ') {
            cs = pre + i;
            break;
        }
    ctx->prose_key = true;      /* a wrapper indenting it makes it part of the artifact */
    if (!colon_end && !cs)
        return;
    if (!mt_yaml_parses(ctx->text, ctx->len))
        return;
    const char *a = ctx->text + pre_len, *end = ctx->text + ctx->len;
    for (;;) {   /* the first non-blank artifact line */
        const char *p = a;
        while (p < end && (*p == ' ' || *p == '\r'))
            p++;
        if (p >= end || *p != '\n')
            break;
        a = p + 1;
    }
    bool col0 = a < end && *a != ' ' && *a != '\n';
    size_t kl = 0;
    while (a + kl < end && (isalnum((unsigned char)a[kl]) || a[kl] == '_' || a[kl] == '-'))
        kl++;
    bool entry = col0 && ((a + kl + 1 < end && a[kl] == ':') || (a + 1 < end && a[0] == '-' && a[1] == ' '));
    bool promised = colon_end ? entry
                              : cs && memchr(pre, ' ', (size_t)(cs - pre)) && col0 && top_level_key(ctx->profile, a, kl) &&
                                    !top_level_key(ctx->profile, pre, (size_t)(cs - pre));
    if (!promised)
        ctx->contract = MF_CONTRACT_RAW;
}

/* Does the YAML text's first line that is neither blank nor a comment start
 * indented? Prose above it then reads as its parent key (`Okay, here it is:`
 * + `  - a`) or as a plain scalar it continues. */
static bool starts_indented(const mf_op_ctx *ctx)
{
    for (size_t i = 0; i < ctx->len;) {
        size_t a = i;
        while (i < ctx->len && (ctx->text[i] == ' ' || ctx->text[i] == '\t'))
            i++;
        if (i < ctx->len && ctx->text[i] != '\n' && ctx->text[i] != '\r' && ctx->text[i] != '#')
            return i > a;
        while (i < ctx->len && ctx->text[i] != '\n')
            i++;
        i++;
    }
    return false;
}

int mt_op_cand_prose_before(mf_op_ctx *ctx)
{
    /* run 56 341bfe05: `  -` under `Okay, here it is:` is that key's list */
    if (mt_starts_with_prose(ctx) || (mt_is_yaml(ctx) && starts_indented(ctx)))
        return 0;
    const char *pre = pick(ctx, prose_before, 5, "text");
    bool empty = mt_empty_artifact(ctx);
    int rc = wrap(ctx, pre, "");
    if (rc == 1)
        judge_prose(ctx, pre, strlen(pre));
    if (rc == 1 && empty)
        ctx->contract = MF_CONTRACT_RAW;
    ctx->prose_key = rc == 1;   /* JSON too: a wrapper would put it inside the object */
    return rc;
}

/* Does the JSON text end inside an open bracket or string (an earlier
 * json.truncate)? Prose after it reads as the cut value's continuation. */
static bool json_cut(const mf_op_ctx *ctx)
{
    mt_jtoks t;
    if (mt_is_yaml(ctx) || mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return false;
    long depth = 0;
    size_t end = 0;
    for (size_t i = 0; i < t.n; i++) {
        depth += t.v[i].kind == JT_OPEN ? 1 : t.v[i].kind == JT_CLOSE ? -1 : 0;
        end = t.v[i].off + t.v[i].len;
    }
    mt_jtoks_free(&t);
    while (end < ctx->len && isspace((unsigned char)ctx->text[end]))
        end++;
    /* an open bracket, or an unclosed string the scan stopped at */
    return depth > 0 || (end < ctx->len && strchr("\"'`", ctx->text[end]));
}

/* Does the YAML text end with a bare `---` line (past blank, comment and
 * noise lines, as yaml.front-matter-closer writes it)? A sentence after it is
 * a second document, which core keeps (the field case quillmark#646). Role
 * prefixes before it (`[assistant] ---`) and terminal noise glued after it
 * (`---` ESC[0m) hide no marker: core reads through both (run 9). */
static bool ends_doc_marker(const mf_op_ctx *ctx)
{
    size_t e = ctx->len;
    while (mt_is_yaml(ctx) && e > 0) {
        size_t a = e - (ctx->text[e - 1] == '\n'), b = a;
        while (a > 0 && ctx->text[a - 1] != '\n')
            a--;
        const char *l = ctx->text + a;
        size_t i = 0, n = b - a, p = 0;
        for (size_t r; (r = mt_role_prefix(l + p, n - p));)
            for (p += r; p < n && l[p] == ' ';)
                p++;
        for (i = p; i < n && blank_or_noise(l, n, &i);)
            ;
        if (i < n && l[i] != '#') {
            if (i != p || n - p < 3 || memcmp(l + p, "---", 3))
                return false;
            size_t k = p + 3;
            if (k == n || l[k] == ' ' || l[k] == '\t')
                return true;
            while (k < n && blank_or_noise(l, n, &k))
                ;
            return k == n;
        }
        e = a;
    }
    return false;
}

/* Does the text already end with prose an earlier op put there? A second
 * paragraph (or a second '---' + note) after it is no trailing line any
 * rule cuts: no site. */
static bool ends_with_prose(const mf_op_ctx *ctx)
{
    size_t end = ctx->len;
    while (end && strchr(" \t\r\n", ctx->text[end - 1]))
        end--;
    for (size_t i = 0; i < sizeof prose_after / sizeof *prose_after; i++) {
        const char *t = prose_after[i];
        while (*t == '\n')
            t++;
        size_t n = strlen(t);
        while (n && t[n - 1] == '\n')
            n--;
        if (end >= n && !memcmp(ctx->text + end - n, t, n))
            return true;
    }
    return false;
}

int mt_op_cand_prose_after(mf_op_ctx *ctx)
{
    if (ends_with_prose(ctx))
        return 0;
    bool empty = mt_empty_artifact(ctx) || json_cut(ctx) || ends_doc_marker(ctx) ||
                 (mt_is_yaml(ctx) && mt_yaml_ends_in_fallen_body(ctx->text, ctx->len));
    int rc = wrap(ctx, "", pick(ctx, prose_after, 4, "text"));
    if (rc == 1 && empty)
        ctx->contract = MF_CONTRACT_RAW;
    ctx->prose_key = rc == 1;   /* a later wrapper would indent it into the artifact */
    return rc;
}

static const char *fence_tag(mf_op_ctx *ctx)
{
    static const char *const y[] = {"yaml", "yml"}, *const j[] = {"json", "jsonl"};
    return mt_is_yaml(ctx) ? y[mt_rand(ctx, 2)] : j[mt_rand(ctx, 2)];
}

/* Does a line of the text, at any indentation (past role prefixes), start
 * with a fence (``` or ~~~)? Core reads such a line as a fence too (a plain
 * scalar's continuation ` ``` - ` opens an inner fence), so a fence put
 * around it, or an orphan closer after it, is no longer what the rules trim. */
static bool fence_line_anywhere(const mf_op_ctx *ctx)
{
    if (mt_has_fence(ctx))
        return true;
    for (size_t a = 0; a < ctx->len;) {
        const char *nl = memchr(ctx->text + a, '\n', ctx->len - a);
        size_t end = nl ? (size_t)(nl - ctx->text) : ctx->len, k = a;
        for (;;) {
            while (k < end && (ctx->text[k] == ' ' || ctx->text[k] == '\t'))
                k++;
            size_t r = mt_role_prefix(ctx->text + k, end - k);
            if (!r)
                break;
            k += r;
        }
        if (k + 3 <= end && (ctx->text[k] == '`' || ctx->text[k] == '~') && ctx->text[k + 1] == ctx->text[k] &&
            ctx->text[k + 2] == ctx->text[k])
            return true;
        a = end + 1;
    }
    return false;
}

/* Is the artifact one line ending with ':' with a space in it ("matri x:", a
 * mapping with one null value)? cand.fence reads such a fenced line as a
 * caption ("Here is the output:"), no payload: the two readings are one text. */
static bool caption_line(const mf_op_ctx *ctx)
{
    const char *s = ctx->text;
    size_t a = 0, e = ctx->len;
    while (a < e && strchr(" \t\r\n", s[a]))
        a++;
    while (e > a && strchr(" \t\r\n", s[e - 1]))
        e--;
    return e > a && s[e - 1] == ':' && !memchr(s + a, '\n', e - a) && memchr(s + a, ' ', e - a);
}

static int fence(mf_op_ctx *ctx, const char *tag, bool close)
{
    if (fence_line_anywhere(ctx))
        return 0;
    /* a fence around an empty or one-scalar artifact holds no structure: cand.fence
     * takes only structured text, and the fenced scalar is as much prose; so is a
     * fenced one-line caption-like mapping ("matri x:") */
    bool empty = mt_empty_artifact(ctx) || (mt_is_yaml(ctx) && caption_line(ctx));
    char pre[160], post[160];
    bool prose = mt_param_int(ctx, "prose", (long)mt_rand(ctx, 2));
    snprintf(pre, sizeof pre, "%s```%s\n", prose ? "Here is the output:\n\n" : "", tag);
    snprintf(post, sizeof post, "%s%s%s", ends_nl(ctx) ? "" : "\n", close ? "```\n" : "",
             prose && close ? "\nDone.\n" : "");
    int rc = wrap(ctx, pre, post);
    ctx->prose_key = rc == 1;   /* a later wrapper puts (or indents) the fence inside the artifact */
    if (rc == 1 && empty)
        ctx->contract = MF_CONTRACT_RAW;
    return rc;
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
    int rc = wrap(ctx, pre, post);
    /* a later wrapper indents the marker line into the artifact: `Work finished.
     * Final marker:` is then a key of the data (run 30 7b9c7e65) */
    ctx->prose_key = rc == 1 && prose;
    return rc;
}

int mt_op_cand_tag_envelope(mf_op_ctx *ctx) { return op_tag(ctx, true); }
int mt_op_cand_tag_truncated(mf_op_ctx *ctx) { return op_tag(ctx, false); }

/* Does the prose line start with "<key>:" for a key of p (any case, aliases)? */
static bool prose_is_field(const mf_profile *p, const char *text)
{
    const char *colon = strstr(text, ": "), *nl = strchr(text, '\n');
    if (!colon || (nl && nl < colon) || colon - text > 60)
        return false;
    char key[64];
    snprintf(key, sizeof key, "%.*s", (int)(colon - text), text);
    char *n = mf_key_normalize(key);
    bool known = n && json_object_get(p->key_map, n);
    free(n);
    return known;
}

int mt_op_cand_anchor(mf_op_ctx *ctx)
{
    if (!ctx->profile || json_array_size(ctx->profile->top_level_keys) == 0 || !mt_is_yaml(ctx))
        return 0;
    if (mt_starts_with_prose(ctx))
        return 0;
    /* cand.anchor cuts up to the first top-level key: exact only when the
     * artifact starts with one (else the lines above it would go too) */
    size_t a = 0;
    while (a < ctx->len && strchr(" \t\r\n", ctx->text[a]))
        a++;
    size_t kl = 0;
    while (a + kl < ctx->len && (isalnum((unsigned char)ctx->text[a + kl]) || ctx->text[a + kl] == '_'))
        kl++;
    bool anchored = a == 0 || ctx->text[a - 1] == '\n';
    anchored = anchored && a + kl < ctx->len && ctx->text[a + kl] == ':' && top_level_key(ctx->profile, ctx->text + a, kl);
    const char *text = pick(ctx, anchor_prose, 3, "text");
    int rc = wrap(ctx, text, "");
    if (rc == 1)
        judge_prose(ctx, text, strlen(text));
    /* "Summary: drafted ..." where summary is a field of the profile: data, not prose */
    if (rc == 1 && (!anchored || prose_is_field(ctx->profile, text)))
        ctx->contract = MF_CONTRACT_RAW;
    return rc;
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
        return trailer(ctx, post);
    }
    char post[64];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", n);
    return trailer(ctx, post);
}

int mt_op_cand_paste(mf_op_ctx *ctx)
{
    static const char *const noise[] = {"\x1b[201~", "[201~", "\x1b[200~\x1b[201~", "[200~"};
    char post[64];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", pick(ctx, noise, 4, "seq"));
    return trailer(ctx, post);
}

int mt_op_cand_control(mf_op_ctx *ctx)
{
    static const char *const noise[] = {"\x07", "\x7f\x7f", "\x01\x02\x1f", "\x0b\x0c"};
    char post[32];
    snprintf(post, sizeof post, "%s%s\n", ends_nl(ctx) ? "" : "\n", pick(ctx, noise, 4, "seq"));
    return trailer(ctx, post);
}

/* Only where no fence line exists yet: a second one would close the first
 * (an empty fenced block, or a fenced artifact), no orphan to trim. */
int mt_op_cand_orphan_fence(mf_op_ctx *ctx)
{
    if (fence_line_anywhere(ctx))
        return 0;
    return trailer(ctx, ends_nl(ctx) ? "```\n" : "\n```\n");
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
    int rc = wrap(ctx, pre, "");
    ctx->prose_key = rc == 1;   /* a later wrapper indents the echo into the artifact: data, no echo */
    return rc;
}

bool mt_schema_echo_leads(const mf_profile *p, const char *raw, size_t len)
{
    const char *key = p ? json_string_value(json_array_get(p->top_level_keys, 0)) : NULL;
    size_t i = 0, kl = key ? strlen(key) : 0;
    while (i < len && isspace((unsigned char)raw[i]))
        i++;
    return kl && len - i > kl && !memcmp(raw + i, key, kl) && raw[i + kl] == ':';
}
