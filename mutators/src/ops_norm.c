/* ops_norm.c - malformations that parse fine but differ from the canonical
 * artifact (seed 000 "Wrapper Unwrapping", "Key Aliasing", per-artifact
 * normalizations): wrapper keys and chains, key alias spellings, question
 * ID variants (1, q1, Q1), status and check-value variants, enum case.
 *
 * They are driven by the profile's data (wrappers, aliases, enums maps), so a
 * new alias in a profile is mutated without code. A site is a key with a
 * scalar value: a YAML key line, or a JSON key token followed by a scalar. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "mut_internal.h"

typedef struct {
    size_t key_off, key_len;    /* key name without quotes */
    size_t val_off, val_len;    /* whole value token (with quotes) */
    char val[128];              /* unquoted value; "" when too long or complex */
} kv_site;

typedef struct { kv_site *v; size_t n, cap; } kv_sites;

static int kv_push(kv_sites *s, const kv_site *x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        kv_site *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return -1;
        s->v = nv;
        s->cap = cap;
    }
    s->v[s->n++] = *x;
    return 0;
}

static void unquote_into(kv_site *x, const char *v, size_t n)
{
    x->val[0] = '\0';
    if (n >= 2 && (v[0] == '"' || v[0] == '\'' || v[0] == '`') && v[n - 1] == v[0]) {
        v++;
        n -= 2;
    }
    if (n >= sizeof x->val || memchr(v, '\\', n))
        return;
    memcpy(x->val, v, n);
    x->val[n] = '\0';
}

/* Collect every key with a scalar value (and, with keys_only, every key). */
static int kv_scan(const mf_op_ctx *ctx, kv_sites *out, bool keys_only)
{
    memset(out, 0, sizeof *out);
    if (mt_is_yaml(ctx)) {
        mt_lines ls;
        if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
            return -1;
        for (size_t i = 0; i < ls.n; i++) {
            const mt_line *l = &ls.v[i];
            if (l->block_body || !l->key_len)
                continue;
            const char *v;
            size_t n = mt_line_value(l, &v);
            if (n == 0 && !keys_only)
                continue;
            kv_site x = {l->off + l->body, l->key_len, l->off + l->val, n, ""};
            unquote_into(&x, v, n);
            if (kv_push(out, &x) < 0) {
                mt_lines_free(&ls);
                return -1;
            }
        }
        mt_lines_free(&ls);
        return 0;
    }
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return -1;
    for (size_t i = 0; i + 2 < t.n; i++) {
        const mt_jtok *k = &t.v[i], *v = &t.v[i + 2];
        if (k->kind != JT_KEY || t.v[i + 1].kind != JT_COLON)
            continue;
        bool scalar = v->kind == JT_STR || v->kind == JT_NUM || v->kind == JT_LIT;
        if (!scalar && !keys_only)
            continue;
        kv_site x = {k->off + 1, k->len - 2, v->off, scalar ? v->len : 0, ""};
        if (scalar)
            unquote_into(&x, ctx->text + v->off, v->len);
        if (kv_push(out, &x) < 0) {
            mt_jtoks_free(&t);
            return -1;
        }
    }
    mt_jtoks_free(&t);
    return 0;
}

static int splice(mf_op_ctx *ctx, size_t a, size_t b, const char *repl)
{
    return mt_splice(ctx, a, b, repl, strlen(repl));
}

static bool key_is(const mf_op_ctx *ctx, const kv_site *s, const char *name)
{
    return strlen(name) == s->key_len && memcmp(ctx->text + s->key_off, name, s->key_len) == 0;
}

/* Value text for a scalar: JSON strings quoted unless the raw spelling is a
 * literal or number; YAML plain. */
static void emit_scalar(const mf_op_ctx *ctx, const char *raw, char *out, size_t n)
{
    bool bare = !strcmp(raw, "true") || !strcmp(raw, "false") || !strcmp(raw, "null") ||
                (raw[0] && strspn(raw, "0123456789") == strlen(raw));
    if (mt_is_yaml(ctx) || bare)
        snprintf(out, n, "%s", raw);
    else
        snprintf(out, n, "\"%s\"", raw);
}

/* Pick a site where choose() offers a replacement value; rewrite it. */
typedef bool (*choose_fn)(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n);

static int value_op(mf_op_ctx *ctx, choose_fn choose)
{
    kv_sites s;
    if (kv_scan(ctx, &s, false) < 0)
        return -1;
    size_t ok = 0;
    char repl[160];
    ctx->rng = mf_rng_next(&ctx->rng);   /* choose() reads style bits from the state: mix it */
    uint64_t save = ctx->rng;
    for (size_t i = 0; i < s.n; i++)     /* one copy of a duplicated key is no site */
        if (mt_is_yaml(ctx) && mt_key_repeated(ctx->text, ctx->len, s.v[i].val_off))
            s.v[i--] = s.v[--s.n];
    for (size_t i = 0; i < s.n; i++)
        ok += choose(ctx, &s.v[i], repl, sizeof repl);
    int rc = 0;
    if (ok) {
        size_t k = mt_rand(ctx, ok);
        uint64_t after = ctx->rng;
        ctx->rng = save;
        for (size_t i = 0; i < s.n; i++)
            if (choose(ctx, &s.v[i], repl, sizeof repl) && k-- == 0) {
                rc = splice(ctx, s.v[i].val_off, s.v[i].val_off + s.v[i].val_len, repl);
                break;
            }
        ctx->rng = after;
    }
    free(s.v);
    return rc;
}

/* ---- enum variants (status, checks, case) from the profile's enums ---- */

/* The k-th raw spelling that maps to canonical value v in enum e (deterministic). */
static const char *enum_variant(const json_t *e, const char *v, size_t pick)
{
    const json_t *map = json_object_get(e, "map");
    const char *raw, *found = NULL;
    json_t *canon;
    size_t n = 0;
    json_object_foreach((json_t *)map, raw, canon) if (json_is_string(canon) && !strcmp(json_string_value(canon), v) &&
                                                      strcmp(raw, v) != 0) n++;
    if (!n)
        return NULL;
    pick %= n;
    json_object_foreach((json_t *)map, raw, canon) if (json_is_string(canon) && !strcmp(json_string_value(canon), v) &&
                                                      strcmp(raw, v) != 0 && pick-- == 0) found = raw;
    return found;
}

static const json_t *site_enum(const mf_op_ctx *ctx, const kv_site *s)
{
    char key[128];
    if (!ctx->profile || s->key_len >= sizeof key || !s->val[0])
        return NULL;
    memcpy(key, ctx->text + s->key_off, s->key_len);
    key[s->key_len] = '\0';
    return json_object_get(ctx->profile->enums, key);
}

static bool choose_variant(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n)
{
    const json_t *e = site_enum(ctx, s);
    if (!e)
        return false;
    const char *raw = enum_variant(e, s->val, (size_t)(ctx->rng >> 7));
    if (!raw)
        return false;
    emit_scalar(ctx, raw, repl, n);
    return true;
}

static bool has_normalizer(const mf_op_ctx *ctx, const char *name)
{
    for (size_t i = 0; ctx->profile && i < json_array_size(ctx->profile->normalizers); i++) {
        const char *x = json_string_value(json_array_get(ctx->profile->normalizers, i));
        if (x && strcmp(x, name) == 0)
            return true;
    }
    return false;
}

/* Seed 000's BEAD_STATUS tables: canonical value -> raw spellings. */
static bool from_table(mf_op_ctx *ctx, const kv_site *s, const char *const *canon, const char *const *const *raws,
                       char *repl, size_t n)
{
    for (size_t c = 0; canon[c]; c++) {
        if (strcmp(s->val, canon[c]) != 0)
            continue;
        size_t k = 0;
        while (raws[c][k])
            k++;
        emit_scalar(ctx, raws[c][(ctx->rng >> 9) % k], repl, n);
        return true;
    }
    return false;
}

static bool c_status(mf_op_ctx *ctx, const kv_site *s, char *r, size_t n)
{
    static const char *const canon[] = {"done", "error", NULL};
    static const char *const done[] = {"completed", "complete", "success", "succeeded", "Completed", NULL};
    static const char *const err[] = {"failed", "fail", "FAILED", NULL};
    static const char *const *const raws[] = {done, err};
    if (!key_is(ctx, s, "status") || !has_normalizer(ctx, "bead_status"))
        return false;
    return from_table(ctx, s, canon, raws, r, n);
}

static bool c_check(mf_op_ctx *ctx, const kv_site *s, char *r, size_t n)
{
    static const char *const canon[] = {"pass", "fail", NULL};
    static const char *const pass[] = {"passed", "ok", "success", "complete", "completed", "true", "1", "PASS", NULL};
    static const char *const fail[] = {"failed", "error", "timeout", "timedout", "notrun", "skipped", "pending",
                                       "false", "0", NULL};
    static const char *const *const raws[] = {pass, fail};
    if (!has_normalizer(ctx, "bead_status") ||
        !(key_is(ctx, s, "tests") || key_is(ctx, s, "lint") || key_is(ctx, s, "typecheck") ||
          key_is(ctx, s, "qualitative")))
        return false;
    return from_table(ctx, s, canon, raws, r, n);
}

static bool c_synonym(mf_op_ctx *ctx, const kv_site *s, char *r, size_t n) { return choose_variant(ctx, s, r, n); }
int mt_op_norm_status(mf_op_ctx *ctx) { return value_op(ctx, c_status); }
int mt_op_norm_check(mf_op_ctx *ctx) { return value_op(ctx, c_check); }
int mt_op_norm_synonym(mf_op_ctx *ctx) { return value_op(ctx, c_synonym); }

/* Does the enum spec e fold value v: one of its values or map words, in any case? Another
 * word has nothing to fold to (`status: draft` under a bead_status key nobody knows). */
static bool enum_word(const json_t *e, const char *v)
{
    const json_t *vals = json_object_get(e, "values");
    for (size_t i = 0; i < json_array_size(vals); i++) {
        const char *x = json_string_value(json_array_get(vals, i));
        if (x && !strcasecmp(x, v))
            return true;
    }
    const char *k;
    const json_t *x;
    json_object_foreach((json_t *)json_object_get(e, "map"), k, x)
        if (!strcasecmp(k, v))
            return true;
    return false;
}

/* The bead_status normalizer folds the top-level status only; a `status:` nested
 * under another key keeps its case (main job c8338a5b: `output: status: draft`). */
static bool top_level_key(const mf_op_ctx *ctx, const kv_site *s)
{
    return s->key_off == 0 || ctx->text[s->key_off - 1] == '\n';
}

static bool c_case(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n)
{
    const json_t *e = site_enum(ctx, s);
    if (!e || json_is_false(json_object_get(e, "fold_case")) || !enum_word(e, s->val))
        return false;
    if (has_normalizer(ctx, "bead_status") && mt_is_yaml(ctx) && !top_level_key(ctx, s))
        return false;
    char v[128];
    snprintf(v, sizeof v, "%s", s->val);
    bool upper = (ctx->rng >> 11) & 1, changed = false;
    for (size_t i = 0; v[i]; i++) {
        char c = (char)(upper || i == 0 ? toupper((unsigned char)v[i]) : v[i]);
        changed |= c != v[i];
        v[i] = c;
    }
    if (!changed)
        return false;
    emit_scalar(ctx, v, repl, n);
    return true;
}
int mt_op_norm_enum_case(mf_op_ctx *ctx) { return value_op(ctx, c_case); }

/* ---- keyword case (interview phase, refinement change type) ---- */

static bool question_id_site(const mf_op_ctx *ctx, size_t off);

static bool c_keyword(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n)
{
    /* a phase only where norm.phase-case folds it back: a phase word in an
     * item of the top-level questions list */
    bool phase = key_is(ctx, s, "phase") && (has_normalizer(ctx, "interview") || has_normalizer(ctx, "full_answers")) &&
                 (!strcmp(s->val, "foundation") || !strcmp(s->val, "structure") || !strcmp(s->val, "assembly")) &&
                 question_id_site(ctx, s->key_off);
    /* a change type only when the value is one (norm.change-type folds just
     * modified/added/removed; `type: f` elsewhere in the artifact is data) */
    bool type = key_is(ctx, s, "type") && (ctx->profile && ctx->profile->changes) &&
                (!strcmp(s->val, "modified") || !strcmp(s->val, "added") || !strcmp(s->val, "removed"));
    if ((!phase && !type) || !s->val[0] || !islower((unsigned char)s->val[0]))
        return false;
    char v[128];
    snprintf(v, sizeof v, "%s", s->val);
    bool upper = (ctx->rng >> 13) & 1;
    for (size_t i = 0; v[i]; i++)
        if (upper || i == 0)
            v[i] = (char)toupper((unsigned char)v[i]);
    emit_scalar(ctx, v, repl, n);
    return true;
}
int mt_op_norm_keyword_case(mf_op_ctx *ctx) { return value_op(ctx, c_keyword); }

/* ---- task id spelling (task_breakdown): T-US-4-01 -> T-US-4-1, t-us-4-01 ---- */

/* Is the JSON key at key_off a member of an item of the top-level "tasks"
 * array (`{"tasks": [{"task_id": ...`), the only task ids core normalizes? */
static bool json_task_item_key(const mf_op_ctx *ctx, size_t key_off)
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return false;
    char kinds[4];
    size_t depth = 0, tasks_at = 0;     /* tasks_at: depth + 1 of a '[' after the key "tasks" at depth 1 */
    for (size_t i = 0; i < t.n && t.v[i].off < key_off; i++) {
        const mt_jtok *k = &t.v[i];
        if (k->kind == JT_OPEN) {
            if (depth < sizeof kinds)
                kinds[depth] = ctx->text[k->off];
            bool tasks = depth == 1 && ctx->text[k->off] == '[' && i >= 2 && t.v[i - 2].kind == JT_KEY &&
                         t.v[i - 2].len == 7 && !memcmp(ctx->text + t.v[i - 2].off, "\"tasks\"", 7);
            depth++;
            if (tasks)
                tasks_at = depth;
        } else if (k->kind == JT_CLOSE && depth > 0) {
            if (tasks_at == depth)
                tasks_at = 0;
            depth--;
        }
    }
    mt_jtoks_free(&t);
    return depth == 3 && tasks_at == 2 && kinds[0] == '{' && kinds[2] == '{';
}

static bool c_task_id(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n)
{
    size_t l = strlen(s->val);
    if (!key_is(ctx, s, "task_id") || !has_normalizer(ctx, "task_breakdown") || l < 6 || s->val[0] != 'T' ||
        s->val[1] != '-' || s->val[l - 3] != '-' || !isdigit((unsigned char)s->val[l - 2]) ||
        !isdigit((unsigned char)s->val[l - 1]) || (!mt_is_yaml(ctx) && !json_task_item_key(ctx, s->key_off - 1)))
        return false;
    char v[128];
    snprintf(v, sizeof v, "%s", s->val);
    if ((ctx->rng >> 17) & 1 && v[l - 2] == '0') {
        v[l - 2] = v[l - 1];
        v[l - 1] = '\0';
    } else {
        for (size_t i = 0; v[i]; i++)
            v[i] = (char)tolower((unsigned char)v[i]);
    }
    snprintf(repl, n, mt_is_yaml(ctx) ? "%s" : "\"%s\"", v);
    return true;
}
int mt_op_norm_task_id(mf_op_ctx *ctx) { return value_op(ctx, c_task_id); }

/* ---- ID variants: Q01 -> 1, q1, Q1 ---- */

/* Is the YAML key at off the id of an item of the top-level `questions:`
 * list (the only ids norm.question-id normalizes)? The item's dash is on the
 * key's line or on the nearest shallower line, at the key's column. */
static bool question_id_site(const mf_op_ctx *ctx, size_t off)
{
    if (!mt_is_yaml(ctx))
        return false;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return false;
    size_t i = 0;
    while (i + 1 < ls.n && ls.v[i + 1].off <= off)
        i++;
    const mt_line *k = &ls.v[i];
    bool item = k->dash;
    for (size_t j = i; !item && j-- > 0;) {
        const mt_line *l = &ls.v[j];
        if (l->blank || l->comment || l->block_body || l->body > k->body)
            continue;
        item = l->dash && l->body == k->body;
        break;
    }
    bool top = false;
    for (size_t j = i + 1; item && j-- > 0;) {
        const mt_line *l = &ls.v[j];
        if (l->blank || l->comment || l->block_body || l->indent > 0)
            continue;
        top = l->key_len == 9 && !memcmp(l->s + l->body, "questions", 9);
        break;
    }
    mt_lines_free(&ls);
    return item && top;
}

static bool c_id(mf_op_ctx *ctx, const kv_site *s, char *repl, size_t n)
{
    if (!key_is(ctx, s, "id") || (s->val[0] != 'Q') || strlen(s->val) < 3 ||
        strspn(s->val + 1, "0123456789") != strlen(s->val + 1) ||
        !(has_normalizer(ctx, "interview") || has_normalizer(ctx, "full_answers")) ||
        !question_id_site(ctx, s->key_off))
        return false;
    int num = atoi(s->val + 1);
    switch ((ctx->rng >> 5) % 3) {
    case 0: snprintf(repl, n, "%d", num); break;
    case 1: snprintf(repl, n, mt_is_yaml(ctx) ? "q%d" : "\"q%d\"", num); break;
    default: snprintf(repl, n, mt_is_yaml(ctx) ? "Q%d" : "\"Q%d\"", num); break;
    }
    return strcmp(repl, s->val) != 0;
}
int mt_op_norm_id(mf_op_ctx *ctx) { return value_op(ctx, c_id); }

/* ---- key aliases ---- */

int mt_op_norm_alias(mf_op_ctx *ctx)
{
    if (!ctx->profile || json_object_size(ctx->profile->aliases) == 0)
        return 0;
    kv_sites s;
    if (kv_scan(ctx, &s, true) < 0)
        return -1;
    /* sites whose key is a canonical key with at least one alias */
    size_t ok = 0;
    const char *alias, *pick = NULL;
    json_t *canon;
    for (int pass = 0; pass < 2 && !pick; pass++) {
        size_t k = pass ? mt_rand(ctx, ok) : 0;
        for (size_t i = 0; i < s.n && !pick; i++) {
            size_t na = 0;
            json_object_foreach(ctx->profile->aliases, alias, canon) if (key_is(ctx, &s.v[i], json_string_value(canon)) &&
                                                                         !key_is(ctx, &s.v[i], alias)) na++;
            if (!na)
                continue;
            if (!pass) {
                ok++;
                continue;
            }
            if (k-- != 0)
                continue;
            size_t a = mt_rand(ctx, na);
            json_object_foreach(ctx->profile->aliases, alias, canon) if (key_is(ctx, &s.v[i], json_string_value(canon)) &&
                                                                         !key_is(ctx, &s.v[i], alias) && a-- == 0) pick = alias;
            char spelled[128];
            snprintf(spelled, sizeof spelled, "%s", pick);
            int style = (int)mt_rand(ctx, 3);
            for (size_t c = 0; spelled[c]; c++)
                if (style == 1 || (style == 2 && c == 0))
                    spelled[c] = (char)toupper((unsigned char)spelled[c]);
            int rc = splice(ctx, s.v[i].key_off, s.v[i].key_off + s.v[i].key_len, spelled);
            free(s.v);
            return rc;
        }
        if (!ok)
            break;
    }
    free(s.v);
    return 0;
}

/* ---- wrappers ---- */

static const char *const generic_wrappers[] = {"output", "result", "data", "document", "artifact"};

/* Is key one of the profile's own keys (top level or schema property)? */
static bool profile_own_key(const mf_profile *p, const char *key)
{
    for (size_t i = 0; i < json_array_size(p->top_level_keys); i++)
        if (!strcmp(json_string_value(json_array_get(p->top_level_keys, i)), key))
            return true;
    return json_object_get(json_object_get(p->schema, "properties"), key) != NULL;
}

/* A generic or profile wrapper key; never one of the artifact's own keys
 * (`artifact:` in full_answers or beads is a field of the artifact: core
 * unwraps it only where the schema pins its value, and then sets it). */
static const char *pick_wrapper(mf_op_ctx *ctx)
{
    size_t np = json_array_size(ctx->profile->wrappers), n = 5 + np, k = mt_rand(ctx, n);
    const char *w = k < 5 ? generic_wrappers[k] : json_string_value(json_array_get(ctx->profile->wrappers, k - 5));
    return profile_own_key(ctx->profile, w) ? "output" : w;
}

/* Is the line at s a `...` document-end marker (val.multiline writes one
 * after a keep-chomping `|+` scalar that ends the text)? Indented under a
 * wrapper key it would be a plain scalar inside the mapping, text no rule
 * repairs: it stays at column 0, where it still ends the (wrapped) document. */
static bool doc_end_line(const char *s, size_t n)
{
    if (n < 3 || memcmp(s, "...", 3) != 0)
        return false;
    return n == 3 || s[3] == '\n' || s[3] == ' ' || s[3] == '\t' || s[3] == '\r';
}

/* Does the JSON text end inside a string an earlier json.truncate left open?
 * A closing brace after it would read as the cut string's text. */
static bool ends_in_open_string(const mf_op_ctx *ctx)
{
    mt_jtoks t;
    if (mt_json_scan(ctx->text, ctx->len, &t) < 0)
        return false;
    size_t end = t.n ? t.v[t.n - 1].off + t.v[t.n - 1].len : 0;
    mt_jtoks_free(&t);
    while (end < ctx->len && isspace((unsigned char)ctx->text[end]))
        end++;
    return end < ctx->len && strchr("\"'`", ctx->text[end]);
}

/* Does a line break end at byte i: a '\n', or a '\r' with no '\n' after it
 * (YAML breaks the line there: `files_changed:` + `\r - src/a.c` is a list
 * under the key, which each of its lines must be indented with)? */
static bool yaml_line_break_at(const mf_op_ctx *ctx, size_t i)
{
    return ctx->text[i] == '\n' || (ctx->text[i] == '\r' && (i + 1 == ctx->len || ctx->text[i + 1] != '\n'));
}

static int wrap_once(mf_op_ctx *ctx, const char *key)
{
    mt_buf b = {0};
    int rc = 0;
    if (mt_is_yaml(ctx)) {
        rc |= mt_puts(&b, key) | mt_puts(&b, ":\n");
        bool bol = true;
        for (size_t i = 0; i < ctx->len; i++) {
            if (bol && ctx->text[i] != '\n' && !doc_end_line(ctx->text + i, ctx->len - i))
                rc |= mt_puts(&b, "  ");
            rc |= mt_putc(&b, ctx->text[i]);
            bol = yaml_line_break_at(ctx, i);
        }
    } else {
        /* a cut answer is cut inside the wrapper too: no closer after a string left open */
        bool cut = ends_in_open_string(ctx);
        rc |= mt_puts(&b, "{\"") | mt_puts(&b, key) | mt_puts(&b, "\": ") | mt_put(&b, ctx->text, ctx->len) |
              mt_puts(&b, cut ? "\n" : "}\n");
    }
    return mt_ctx_commit(ctx, &b, rc);
}

static bool wrappable(const mf_op_ctx *ctx)
{
    return ctx->profile && (ctx->profile->schema || json_array_size(ctx->profile->wrappers) > 0);
}

int mt_op_norm_wrapper(mf_op_ctx *ctx)
{
    return wrappable(ctx) ? wrap_once(ctx, pick_wrapper(ctx)) : 0;
}

int mt_op_norm_wrapper_chain(mf_op_ctx *ctx)
{
    if (!wrappable(ctx))
        return 0;
    const char *inner = pick_wrapper(ctx), *outer = pick_wrapper(ctx);
    if (wrap_once(ctx, inner) < 0)
        return -1;
    return wrap_once(ctx, outer);
}

/* Does the question item holding the id at off carry its question text (a
 * `question:` key at the item's column)? An answer-only block (id, answer)
 * does not: its id is all that ties it to the approved question, and
 * norm.full-answers-overlay overlays nothing where two blocks share an id. */
static bool question_item_has_text(const mf_op_ctx *ctx, size_t off)
{
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return false;
    size_t i = 0;
    while (i + 1 < ls.n && ls.v[i + 1].off <= off)
        i++;
    size_t col = ls.v[i].body, d = i;
    while (d > 0 && !(ls.v[d].dash && ls.v[d].body == col))
        d--;
    bool found = false;
    for (size_t j = d; j < ls.n && !found; j++) {
        const mt_line *l = &ls.v[j];
        if (l->blank || l->comment || l->block_body)
            continue;
        if (j > d && l->indent < col)
            break;                      /* the next item or the end of the list */
        found = l->body == col && (j == d || !l->dash) && l->key_len == 8 && !memcmp(l->s + l->body, "question", 8);
    }
    mt_lines_free(&ls);
    return found;
}

/* Does the line starting at bol hold a question item's `id:` key at column
 * col (the question items' id column; option ids sit deeper), however the
 * item's dash is spelled: `- id:`, `-id:` with the dash's space left out
 * (yaml.dash-space, which core reads as the item it is: run 8, dd57fdfa), or
 * the first item on its parent's line, `questions: - id:`
 * (yaml.inline-sequence-parent, run 13 36f593db)? The kv scan sees only the
 * first shape; nor `id  : Q04`, blanks before its colon. *id_off: where `id:` starts. */
static bool item_id_line(const mf_op_ctx *ctx, size_t bol, size_t col, size_t *id_off)
{
    const char *t = ctx->text;
    size_t j = bol, dash = ctx->len;
    bool parent = ctx->len - bol > 10 && !memcmp(t + bol, "questions:", 10);
    if (parent)
        for (j = bol + 10; j < ctx->len && t[j] == ' ';)
            j++;
    while (!parent && j < ctx->len && t[j] == ' ')
        j++;
    if (j < ctx->len && t[j] == '-')
        for (dash = j++ - bol; j < ctx->len && t[j] == ' '; j++)
            ;
    *id_off = j;
    size_t c = j + 2; /* `id  : Q04`: blanks before the colon, still the key "id" (run 46 eea051) */
    while (c < ctx->len && t[c] == ' ')
        c++;
    if (j + 2 > ctx->len || memcmp(t + j, "id", 2) || c >= ctx->len || t[c] != ':')
        return false;
    return parent ? dash != ctx->len : j - bol == col || dash + 2 == col;
}

/* The question items' id column: the column of the id key at key_off. */
static size_t id_column(const mf_op_ctx *ctx, size_t key_off)
{
    size_t bol = key_off;
    while (bol > 0 && ctx->text[bol - 1] != '\n')
        bol--;
    return key_off - bol;
}

/* Is there an item's `id:` line (item_id_line) after offset off, at the
 * column of the id key at key_off? Another question whose id the scan did not
 * count (spelled `3` or `q3` by norm.id-variant, or inside what an unclosed
 * quote makes one string to the scan, which core's yaml.unclosed-quote then
 * splits again) raises the batch maximum: the renumbered duplicate would not
 * be the id it replaced. */
static bool id_line_after(const mf_op_ctx *ctx, size_t key_off, size_t off)
{
    size_t col = id_column(ctx, key_off), id_off;
    for (size_t i = off; i < ctx->len; i++)
        if (ctx->text[i] == '\n' && item_id_line(ctx, i + 1, col, &id_off))
            return true;
    return false;
}

/* The question ids before the last question, one per line: the number
 * norm.question-id reads and the line it sits on. */
typedef struct {
    struct qid_at {
        size_t bol;
        long num;
    } *v;
    size_t n, cap;
} qid_list;

static int qid_add(qid_list *q, size_t bol, long num)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->v[i].bol == bol)
            return 0;
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        struct qid_at *v = realloc(q->v, cap * sizeof *v);
        if (!v)
            return -1;
        q->v = v;
        q->cap = cap;
    }
    q->v[q->n++] = (struct qid_at){bol, num};
    return 0;
}

static size_t line_start(const mf_op_ctx *ctx, size_t off)
{
    while (off > 0 && ctx->text[off - 1] != '\n')
        off--;
    return off;
}

/* Add to q the question id norm.question-id reads on each item's `id:` line
 * of the top-level `questions:` list before the line of the id key at
 * key_off, in any spelling of the item's dash (item_id_line): an earlier op
 * may have moved a higher id or a repeat there (norm.phase-out-of-order) and
 * a later one glued its dash or put it on the parent's line. */
static int id_lines_before(const mf_op_ctx *ctx, size_t key_off, qid_list *q)
{
    size_t col = id_column(ctx, key_off), end = key_off - col, id_off;
    bool in_questions = false;
    for (size_t bol = 0; bol < end;) {
        const char *t = ctx->text + bol, *nl = memchr(t, '\n', ctx->len - bol);
        size_t n = nl ? (size_t)(nl - t) : ctx->len - bol;
        if (n > 0 && !strchr(" #-\r", t[0]))
            in_questions = n >= 10 && !memcmp(t, "questions:", 10);
        if (in_questions && item_id_line(ctx, bol, col, &id_off)) {
            char v[64];
            size_t a = id_off + 3, b = bol + n;
            while (a < b && ctx->text[a] == ' ')
                a++;
            while (b > a && (ctx->text[b - 1] == ' ' || ctx->text[b - 1] == '\r'))
                b--;
            b = a + mt_inline_key_cut(ctx->text + a, b - a);
            if (b - a >= 2 && (ctx->text[a] == '"' || ctx->text[a] == '\'') && ctx->text[b - 1] == ctx->text[a])
                a++, b--;
            if (b - a < sizeof v) {
                memcpy(v, ctx->text + a, b - a);
                v[b - a] = '\0';
                long num = mt_qid_number(v);
                if (num >= 0 && qid_add(q, bol, num) < 0)
                    return -1;
            }
        }
        bol += n + 1;
    }
    return 0;
}

/* Does a question id number repeat in q? norm.question-renumber renumbers
 * repeats in document order (before norm.phase-order sorts), so an earlier
 * repeat (the op's own, moved up by norm.phase-out-of-order: run 14
 * 3bc39141-ra8ffc84f) takes the number above the maximum and the last
 * question the one after it. */
static bool qid_repeats(const qid_list *q)
{
    for (size_t i = 0; i < q->n; i++)
        for (size_t j = i + 1; j < q->n; j++)
            if (q->v[i].num == q->v[j].num)
                return true;
    return false;
}

/* Write the first question's id over the last one's, keeping a key
 * yaml.inline-keys glued after either. */
static int splice_first_id(mf_op_ctx *ctx, const kv_site *last, const kv_site *first)
{
    size_t keep = mt_inline_key_cut(ctx->text + last->val_off, last->val_len);
    return mt_splice(ctx, last->val_off, last->val_off + keep, first->val, mt_inline_key_cut(first->val, strlen(first->val)));
}

/* ---- a duplicate question id: the last question repeats the first one's ----
 * norm.question-renumber gives a duplicate the next number above the
 * highest id, so the case stays exact only where the last question holds
 * that number (Q01..Qn in order): elsewhere the op finds no site. Nor on
 * answer-only blocks (ctx.answer-only-blocks): two blocks with one id are
 * no overlay (which question does the second answer?), so nothing renumbers
 * them and core rejects the blocks (regression e54db825). */
/* The number of a question id as norm.question-id reads it (Q01, q1, Q1, 1,
 * "Question 3"), or -1 for another shape: renumbering takes the maximum over
 * every spelling, so a q3 before the last question raises it (run 9). */
long mt_qid_number(const char *v)
{
    size_t n = strlen(v), i = 0;
    while (i < n && isspace((unsigned char)v[i]))
        i++;
    while (n > i && isspace((unsigned char)v[n - 1]))
        n--;
    if (n - i >= 8 && !strncasecmp(v + i, "question", 8))
        i += 8;
    else if (i < n && (v[i] == 'q' || v[i] == 'Q'))
        i++;
    while (i < n && strchr("-_ #", v[i]))
        i++;
    long num = 0;
    size_t d = i;
    while (d < n && d - i < 9 && isdigit((unsigned char)v[d]))
        num = num * 10 + (v[d++] - '0');
    return d > i && d == n ? num : -1;
}

size_t mt_inline_key_cut(const char *v, size_t n)
{
    size_t colon = 0;
    while (colon + 1 < n && !(v[colon] == ':' && v[colon + 1] == ' '))
        colon++;
    if (colon + 1 >= n)
        return n;
    for (size_t sp = colon; sp > 0; sp--)
        if (v[sp - 1] == ' ')
            return sp - 1;
    return n;
}

/* The question id number of a kv site as core reads it after splitting a key
 * yaml.inline-keys glued onto its line (`- id: Q03 phase: assembly` is Q03:
 * run 28 074f958c), or -1. */
static long site_qid_number(const mf_op_ctx *ctx, const kv_site *s)
{
    if (!key_is(ctx, s, "id"))
        return -1;
    char v[sizeof s->val];
    memcpy(v, s->val, sizeof v);
    v[mt_inline_key_cut(v, strlen(v))] = '\0';
    return mt_qid_number(v);
}

int mt_op_norm_duplicate_qid(mf_op_ctx *ctx)
{
    if (!(has_normalizer(ctx, "interview") || has_normalizer(ctx, "full_answers")))
        return 0;
    kv_sites s;
    if (kv_scan(ctx, &s, false) < 0)
        return -1;
    size_t first = s.n, last = s.n, count = 0;
    long last_num = -1;
    for (size_t i = 0; i < s.n; i++) {
        long num = site_qid_number(ctx, &s.v[i]);
        if (num < 0 || !question_id_site(ctx, s.v[i].key_off))
            continue;
        if (first == s.n)
            first = i;
        last = i;
        last_num = num;
        count++;
    }
    qid_list before = {0};
    int rc = 0;
    for (size_t i = first; count >= 2 && i < last && rc == 0; i++) {
        long num = site_qid_number(ctx, &s.v[i]);
        if (num >= 0 && question_id_site(ctx, s.v[i].key_off))
            rc = qid_add(&before, line_start(ctx, s.v[i].key_off), num);
    }
    if (count >= 2 && rc == 0)
        rc = id_lines_before(ctx, s.v[last].key_off, &before);
    long max_other = 0;
    for (size_t i = 0; i < before.n; i++)
        max_other = before.v[i].num > max_other ? before.v[i].num : max_other;
    if (rc == 0 && count >= 2 && last_num == max_other + 1 && !qid_repeats(&before) &&
        question_item_has_text(ctx, s.v[first].key_off) && question_item_has_text(ctx, s.v[last].key_off) &&
        !id_line_after(ctx, s.v[last].key_off, s.v[last].val_off))
        rc = splice_first_id(ctx, &s.v[last], &s.v[first]);
    free(before.v);
    free(s.v);
    return rc;
}
