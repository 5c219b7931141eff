/* validate.c - tier 2: validate a value against a profile's JSON-Schema subset.
 *
 * The subset is what LLM artifact schemas use (seed 004's YAML_SCHEMA, seed
 * 001's buildArtifactSchema, seed 003's INVESTOR_DECISION_SCHEMA): type
 * (with unions; "integer" accepts integers only, never 5.0), required,
 * properties, additionalProperties (bool or schema), items, enum, const,
 * pattern (PCRE2, UTF mode), minLength/maxLength (code points),
 * minItems/maxItems, minimum/maximum, oneOf, anyOf. Other keywords
 * (description, default, ...) are ignored.
 *
 * The first violation found is the rejection: tier 2 SCHEMA_VIOLATION with a
 * JSON pointer to the offending value ("/tasks/0/task_id") and a message a
 * model can act on ("missing required property \"content\""). When every
 * branch of oneOf/anyOf fails, the error of the branch that got deepest is
 * reported (the branch the model most likely meant); if none got past the
 * value itself the branch messages are listed. A pattern that does not
 * compile is a profile bug, reported as INVALID_REGEX (tier 2).
 *
 * Subjects are always valid UTF-8 (jansson strings, checked at input), so
 * matching skips PCRE2's per-call UTF check, which would make repeated
 * searches through one long text quadratic; a match limit bounds
 * backtracking. Patterns are compiled once into a process-wide cache keyed by the pattern
 * text and guarded by a mutex; compiled PCRE2 codes are read-only during
 * matching, so lookups from several threads are safe. The cache holds at
 * most CACHE_MAX patterns (profiles have a few dozen); past that, patterns
 * are compiled per call. mf_schema_cache_clear() releases it. */
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "schema_compile.h"

#define CACHE_MAX 512
#define MAX_SCHEMA_DEPTH 2000
#define MATCH_LIMIT 1000000  /* backtracking steps: model-written patterns may be catastrophic */

/* ---------------------------------------------------------------- regexes */

typedef struct {
    char *pattern;
    pcre2_code *code;  /* NULL when the pattern does not compile */
    char *error;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache;
static size_t cache_len, cache_cap;

pcre2_code *mf_regex_compile(const char *pattern, char *msg, size_t msglen)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
                                   PCRE2_UTF, &code, &off, NULL);
    if (!re && msg && msglen) {
        PCRE2_UCHAR buf[256];
        if (pcre2_get_error_message(code, buf, sizeof buf) < 0)
            strcpy((char *)buf, "unknown error");
        snprintf(msg, msglen, "%s at offset %zu", (const char *)buf, (size_t)off);
    }
    return re;
}

const pcre2_code *mf_regex_cached(const char *pattern, char *msg, size_t msglen)
{
    const pcre2_code *found = NULL;
    bool hit = false;
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < cache_len; i++)
        if (strcmp(cache[i].pattern, pattern) == 0) {
            hit = true;
            found = cache[i].code;
            if (!found && msg && msglen)
                snprintf(msg, msglen, "%s", cache[i].error);
            break;
        }
    if (!hit && cache_len < CACHE_MAX) {
        char err[300] = "";
        pcre2_code *re = mf_regex_compile(pattern, err, sizeof err);
        if (cache_len == cache_cap) {
            size_t cap = cache_cap ? cache_cap * 2 : 16;
            cache_entry *n = realloc(cache, cap * sizeof *n);
            if (n)
                cache = n, cache_cap = cap;
        }
        char *pcopy = mf_strdup0(pattern), *ecopy = mf_strdup0(err);
        if (cache_len < cache_cap && pcopy && ecopy) {
            cache[cache_len++] = (cache_entry){pcopy, re, ecopy};
            hit = true;
            found = re;
            if (!re && msg && msglen)
                snprintf(msg, msglen, "%s", err);
        } else {
            free(pcopy);
            free(ecopy);
            pcre2_code_free(re);
        }
    }
    pthread_mutex_unlock(&cache_lock);
    if (hit)
        return found;
    /* cache full (or out of memory): compile, and keep the code for the
     * process' life in a small leak-free ring so the pointer stays valid */
    static pthread_mutex_t ring_lock = PTHREAD_MUTEX_INITIALIZER;
    static pcre2_code *ring[64];
    static size_t ring_next;
    pcre2_code *re = mf_regex_compile(pattern, msg, msglen);
    if (re) {
        pthread_mutex_lock(&ring_lock);
        pcre2_code_free(ring[ring_next]);
        ring[ring_next] = re;
        ring_next = (ring_next + 1) % 64;
        pthread_mutex_unlock(&ring_lock);
    }
    return re;
}

void mf_schema_cache_clear(void)
{
    pthread_mutex_lock(&cache_lock);
    for (size_t i = 0; i < cache_len; i++) {
        free(cache[i].pattern);
        free(cache[i].error);
        pcre2_code_free(cache[i].code);
    }
    free(cache);
    cache = NULL;
    cache_len = cache_cap = 0;
    pthread_mutex_unlock(&cache_lock);
}

int mf_regex_search(const pcre2_code *re, const char *s, size_t len, size_t *ovec, size_t ovecn)
{
    return mf_regex_search_from(re, s, len, 0, ovec, ovecn);
}

int mf_regex_search_from(const pcre2_code *re, const char *s, size_t len, size_t start,
                         size_t *ovec, size_t ovecn)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    if (!md || !mc) {
        pcre2_match_data_free(md);
        pcre2_match_context_free(mc);
        return -1;
    }
    pcre2_set_match_limit(mc, MATCH_LIMIT);
    pcre2_set_depth_limit(mc, MATCH_LIMIT / 10);
    int rc = pcre2_match(re, (PCRE2_SPTR)s, len, start, PCRE2_NO_UTF_CHECK, md, mc);
    pcre2_match_context_free(mc);
    int out = rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
    if (out == 1 && ovec) {
        PCRE2_SIZE *v = pcre2_get_ovector_pointer(md);
        uint32_t n = pcre2_get_ovector_count(md);
        for (size_t i = 0; i < ovecn; i++) {
            bool set = i < n && (int)i < rc;
            ovec[2 * i] = set ? v[2 * i] : (size_t)-1;
            ovec[2 * i + 1] = set ? v[2 * i + 1] : (size_t)-1;
        }
    }
    pcre2_match_data_free(md);
    return out;
}

/* ---------------------------------------------------------- small helpers */

void mf_pointer_push(mf_buf *path, const char *token)
{
    mf_buf_putc(path, '/');
    if (!strpbrk(token, "~/")) {
        mf_buf_puts(path, token);
        return;
    }
    for (const char *c = token; *c; c++) {
        if (*c == '~')
            mf_buf_puts(path, "~0");
        else if (*c == '/')
            mf_buf_puts(path, "~1");
        else
            mf_buf_putc(path, *c);
    }
}

void mf_pointer_push_index(mf_buf *path, size_t index)
{
    char digits[24];
    size_t n = sizeof digits;
    do {
        digits[--n] = (char)('0' + index % 10);
        index /= 10;
    } while (index);
    digits[--n] = '/';
    mf_buf_put(path, digits + n, sizeof digits - n);
}

const char *mf_value_type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return "object";
    case JSON_ARRAY: return "array";
    case JSON_STRING: return "string";
    case JSON_INTEGER: return "integer";
    case JSON_REAL: return "number";
    case JSON_TRUE:
    case JSON_FALSE: return "boolean";
    default: return "null";
    }
}

char *mf_value_preview(const json_t *v)
{
    if (json_is_object(v) || json_is_array(v))
        return mf_strdup0(mf_value_type_name(v));
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (!s)
        return mf_strdup0("?");
    size_t n = strlen(s);
    if (n > 60) {
        size_t cut = 56;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
        strcpy(s + cut, "...");
        if (json_is_string(v))
            strcat(s, "\"");
    }
    return s;
}

static size_t utf8_length(const char *s, size_t n)
{
    size_t cps = 0;
    for (size_t i = 0; i < n; i++)
        cps += ((unsigned char)s[i] & 0xC0) != 0x80;
    return cps;
}

/* ------------------------------------------------------------- validation */

void mf_vpath_push(mf_vpath *p, const char *key, size_t idx)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        mf_vseg *v = realloc(p->v, cap * sizeof *v);
        if (!v)
            abort(); /* a few bytes for a path segment: nothing sane is left */
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = (mf_vseg){key, idx};
}

void mf_vpath_render(const mf_vpath *p, size_t n, mf_buf *out)
{
    for (size_t i = 0; i < n && i < p->n; i++) {
        if (p->v[i].key)
            mf_pointer_push(out, p->v[i].key);
        else
            mf_pointer_push_index(out, p->v[i].idx);
    }
}

typedef struct {
    mf_vpath *path;
    mf_error *err;
} vctx;

static void seg_push(vctx *c, const char *key, size_t idx)
{
    mf_vpath_push(c->path, key, idx);
}

static void render_path(const vctx *c, mf_buf *out)
{
    mf_vpath_render(c->path, c->path->n, out);
}

static int fail(vctx *c, const char *type, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(vctx *c, const char *type, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mf_buf path = {0};
    render_path(c, &path);
    mf_error_set(c->err, 2, type, mf_buf_cstr(&path), 0, 0, "%s", msg);
    mf_buf_free(&path);
    return -1;
}

/* Wrong-type message: "expected integer, got string \"five\"". */
static int type_error(vctx *c, const json_t *types, const json_t *v)
{
    mf_buf want = {0};
    if (json_is_string(types)) {
        mf_buf_puts(&want, json_string_value(types));
    } else {
        size_t n = json_array_size(types);
        for (size_t i = 0; i < n; i++) {
            if (i)
                mf_buf_puts(&want, i + 1 == n ? " or " : ", ");
            mf_buf_puts(&want, json_string_value(json_array_get(types, i)) ?
                               json_string_value(json_array_get(types, i)) : "?");
        }
    }
    char *pv = mf_value_preview(v);
    bool container = json_is_object(v) || json_is_array(v) || json_is_null(v);
    int rc = fail(c, "SCHEMA_VIOLATION", "expected %s, got %s%s%s", mf_buf_cstr(&want),
                  mf_value_type_name(v), container ? "" : " ", container ? "" : pv);
    free(pv);
    mf_buf_free(&want);
    return rc;
}

static int check(vctx *c, const mf_snode *s, const json_t *v, int depth);

static char *key_list(const json_t *props)
{
    mf_buf b = {0};
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)props, k, x) {
        if (b.len)
            mf_buf_puts(&b, ", ");
        mf_buf_puts(&b, k);
    }
    return mf_buf_detach(&b);
}

static int check_required(vctx *c, const mf_snode *s, const json_t *v)
{
    for (size_t i = 0; i < s->nrequired; i++)
        if (!json_object_get(v, s->required[i]))
            return fail(c, "SCHEMA_VIOLATION", "missing required property \"%s\"", s->required[i]);
    return 0;
}

/* The schema of member k (slot: its entry in s->props, or NULL) in *sub; -1 when s forbids it. */
static int member_schema(vctx *c, const mf_snode *s, const char *k, const mf_kslot *slot, const mf_snode **sub)
{
    *sub = slot ? slot->val : NULL;
    if (!*sub && s->addl_false) {
        char *allowed = key_list(s->props_json);
        int rc = fail(c, "SCHEMA_VIOLATION", "unexpected property \"%s\" (allowed: %s)", k,
                      allowed && *allowed ? allowed : "none");
        free(allowed);
        return rc;
    }
    if (!*sub)
        *sub = s->addl;
    return 0;
}

static int check_members(vctx *c, const mf_snode *s, const json_t *v, int depth)
{
    if (!s->props.slots && !s->addl && !s->addl_false)
        return 0;
    /* the iterator itself: json_object_foreach looks each key up again */
    for (void *it = json_object_iter((json_t *)v); it; it = json_object_iter_next((json_t *)v, it)) {
        const char *k = json_object_iter_key(it);
        json_t *x = json_object_iter_value(it);
        const mf_snode *sub;
        if (member_schema(c, s, k, mf_keymap_get(&s->props, k), &sub))
            return -1;
        if (!sub)
            continue;
        seg_push(c, k, 0);
        int rc = check(c, sub, x, depth + 1);
        c->path->n--;
        if (rc)
            return rc;
    }
    return 0;
}

static int check_size(vctx *c, const mf_snode *s, const json_t *v)
{
    size_t n = json_array_size(v);
    const json_t *mn = s->min_items, *mx = s->max_items;
    if (mn && (json_int_t)n < json_integer_value(mn))
        return fail(c, "SCHEMA_VIOLATION", "expected at least %lld item%s, got %zu",
                    (long long)json_integer_value(mn), json_integer_value(mn) == 1 ? "" : "s", n);
    if (mx && (json_int_t)n > json_integer_value(mx))
        return fail(c, "SCHEMA_VIOLATION", "expected at most %lld items, got %zu",
                    (long long)json_integer_value(mx), n);
    return 0;
}

static int check_items(vctx *c, const mf_snode *s, const json_t *v, int depth)
{
    size_t n = json_array_size(v);
    if (!s->items)
        return 0;
    for (size_t i = 0; i < n; i++) {
        seg_push(c, NULL, i);
        int rc = check(c, s->items, json_array_get(v, i), depth + 1);
        c->path->n--;
        if (rc)
            return rc;
    }
    return 0;
}

static int check_string(vctx *c, const mf_snode *s, const json_t *v)
{
    const char *str = json_string_value(v);
    size_t len = json_string_length(v);
    const json_t *mn = s->min_len, *mx = s->max_len;
    /* len / 4 <= code points <= len: count them only when the bounds do not settle it */
    bool settled = (!mn || (json_int_t)(len / 4) >= json_integer_value(mn)) &&
                   (!mx || (json_int_t)len <= json_integer_value(mx));
    if (!settled) {
        size_t cps = utf8_length(str, len);
        if (mn && (json_int_t)cps < json_integer_value(mn))
            return fail(c, "SCHEMA_VIOLATION", cps == 0 ? "must not be empty (at least %lld character%s)"
                                                        : "string is shorter than %lld character%s",
                        (long long)json_integer_value(mn), json_integer_value(mn) == 1 ? "" : "s");
        if (mx && (json_int_t)cps > json_integer_value(mx))
            return fail(c, "SCHEMA_VIOLATION", "string is longer than %lld characters",
                        (long long)json_integer_value(mx));
    }
    const char *pat = s->pattern;
    if (pat) {
        if (!s->re)
            return fail(c, "INVALID_REGEX", "the schema pattern %s does not compile: %s", pat,
                        s->re_error ? s->re_error : "?");
        int m = mf_regex_search(s->re, str, len, NULL, 0);
        if (m < 0)
            return fail(c, "SCHEMA_VIOLATION", "pattern %s could not be matched (match limit)", pat);
        if (m == 0) {
            char *pv = mf_value_preview(v);
            int rc = fail(c, "SCHEMA_VIOLATION", "%s does not match the pattern %s", pv, pat);
            free(pv);
            return rc;
        }
    }
    return 0;
}

static int check_number(vctx *c, const mf_snode *s, const json_t *v)
{
    const json_t *mn = s->minimum, *mx = s->maximum;
    char *pv = NULL;
    int rc = 0;
    bool low = false, high = false;
    if (mn)
        low = json_is_integer(v) && json_is_integer(mn) ? json_integer_value(v) < json_integer_value(mn)
                                                         : json_number_value(v) < json_number_value(mn);
    if (mx)
        high = json_is_integer(v) && json_is_integer(mx) ? json_integer_value(v) > json_integer_value(mx)
                                                          : json_number_value(v) > json_number_value(mx);
    if (low || high) {
        pv = mf_value_preview(v);
        char *lim = mf_value_preview(low ? mn : mx);
        rc = fail(c, "SCHEMA_VIOLATION", "%s is %s than the %s %s", pv, low ? "less" : "greater",
                  low ? "minimum" : "maximum", lim);
        free(lim);
    }
    free(pv);
    return rc;
}

/* enum / const: "value \"x\" is not one of: \"a\", \"b\"". */
static int check_enum(vctx *c, const mf_snode *s, const json_t *v)
{
    const json_t *cst = s->cnst;
    if (cst && !json_equal((json_t *)cst, (json_t *)v)) {
        char *want = mf_value_preview(cst), *got = mf_value_preview(v);
        int rc = fail(c, "SCHEMA_VIOLATION", "expected %s, got %s", want, got);
        free(want);
        free(got);
        return rc;
    }
    const json_t *en = s->enm;
    if (!en)
        return 0;
    for (size_t i = 0; i < json_array_size(en); i++)
        if (json_equal(json_array_get(en, i), (json_t *)v))
            return 0;
    mf_buf allowed = {0};
    for (size_t i = 0; i < json_array_size(en); i++) {
        char *pv = mf_value_preview(json_array_get(en, i));
        mf_buf_printf(&allowed, "%s%s", i ? ", " : "", pv);
        free(pv);
    }
    char *got = mf_value_preview(v);
    int rc = fail(c, "SCHEMA_VIOLATION", "invalid value %s; expected one of: %s", got, mf_buf_cstr(&allowed));
    free(got);
    mf_buf_free(&allowed);
    return rc;
}

/* oneOf (exactly one branch) / anyOf (at least one). */
static int check_branches(vctx *c, mf_snode *const *branches, size_t n, bool one, const json_t *v, int depth)
{
    size_t ok = 0;
    mf_error best = {0};
    mf_buf msgs = {0};
    bool deeper = false;
    for (size_t i = 0; i < n; i++) {
        mf_error e = {0};
        vctx sub = {c->path, &e};
        int rc = check(&sub, branches[i], v, depth + 1);
        if (rc == 0) {
            ok++;
            continue;
        }
        if (e.type && strcmp(e.type, "INVALID_REGEX") == 0) {
            mf_error_clear(&best);
            mf_buf_free(&msgs);
            mf_error_clear(c->err);
            *c->err = e;
            return -1;
        }
        size_t depth_e = strlen(e.path), depth_b = best.path ? strlen(best.path) : 0;
        mf_buf here = {0};
        render_path(c, &here);
        if (depth_e > here.len)
            deeper = true;
        mf_buf_free(&here);
        mf_buf_printf(&msgs, "%s%s", msgs.len ? "; " : "", e.message ? e.message : "?");
        if (!best.type || depth_e > depth_b) {
            mf_error_clear(&best);
            best = e;
        } else {
            mf_error_clear(&e);
        }
    }
    int rc = 0;
    if (one && ok > 1) {
        rc = fail(c, "SCHEMA_VIOLATION", "value matches %zu of the oneOf alternatives; it must match exactly one", ok);
    } else if (ok == 0 && n > 0) {
        if (deeper) {
            mf_error_clear(c->err);
            *c->err = best;
            memset(&best, 0, sizeof best);
        } else {
            fail(c, "SCHEMA_VIOLATION", "value matches none of the allowed alternatives: %s", mf_buf_cstr(&msgs));
        }
        rc = -1;
    }
    mf_error_clear(&best);
    mf_buf_free(&msgs);
    return rc;
}

/* Every keyword of s about v itself, before its members or items and the branches. */
static int check_self(vctx *c, const mf_snode *s, const json_t *v, int depth)
{
    if (depth > MAX_SCHEMA_DEPTH)
        return fail(c, "SCHEMA_VIOLATION", "value nested too deeply to validate");
    if (s->types && !(s->types & mf_value_bits(v)))
        return type_error(c, s->type, v);
    if ((s->cnst || s->enm) && check_enum(c, s, v))
        return -1;
    if (json_is_object(v))
        return check_required(c, s, v);
    if (json_is_array(v))
        return check_size(c, s, v);
    if (json_is_string(v))
        return check_string(c, s, v);
    if (json_is_number(v) && (s->minimum || s->maximum))
        return check_number(c, s, v);
    return 0;
}

static int check(vctx *c, const mf_snode *s, const json_t *v, int depth)
{
    if (!s)
        return 0;  /* true / {} / unknown: anything goes */
    if (check_self(c, s, v, depth))
        return -1;
    int rc = 0;
    if (json_is_object(v))
        rc = check_members(c, s, v, depth);
    else if (json_is_array(v))
        rc = check_items(c, s, v, depth);
    if (rc)
        return rc;
    if (s->has_any && check_branches(c, s->any, s->nany, false, v, depth))
        return -1;
    if (s->has_one && check_branches(c, s->one, s->none, true, v, depth))
        return -1;
    return 0;
}

int mf_schema_check(const mf_snode *n, const json_t *v, mf_error *err)
{
    if (!n)
        return 0;
    mf_vpath st = {0};
    vctx c = {&st, err};
    int rc = check(&c, n, v, 0);
    free(st.v);
    return rc;
}

int mf_check_at(mf_vpath *path, const mf_snode *s, const json_t *v, int depth, mf_error *err)
{
    vctx c = {path, err};
    return check(&c, s, v, depth);
}

int mf_check_self(mf_vpath *path, const mf_snode *s, const json_t *v, int depth, mf_error *err)
{
    vctx c = {path, err};
    return check_self(&c, s, v, depth);
}

int mf_check_member(mf_vpath *path, const mf_snode *s, const char *key, const mf_kslot *slot,
                    const mf_snode **sub, mf_error *err)
{
    vctx c = {path, err};
    *sub = NULL;
    if (!s->props.slots && !s->addl && !s->addl_false)
        return 0;
    return member_schema(&c, s, key, slot, sub);
}

int mf_schema_validate(const json_t *schema, const json_t *v, mf_error *err)
{
    if (!schema)
        return 0;
    mf_snode *n = mf_schema_compile(schema);
    int rc = mf_schema_check(n, v, err);
    mf_schema_node_free(n);
    return rc;
}
