/* normalize.c - the value stages that follow parsing: wrapper unwrapping, key
 * aliasing, and the registry of named artifact normalizers (seed 000,
 * "Wrapper Unwrapping", "Key Aliasing", "Artifact-Specific Normalizations").
 *
 * Unwrapping strips a single wrapper key around the artifact (output, result,
 * data, document, artifact plus the profile's own wrappers), following
 * chains such as `result -> prd`. It only runs for profiles that know what
 * their root looks like (a schema or top-level keys): stripping the single
 * key of a generic document would be a false repair of valid data. A single
 * key that is itself a top-level key of the profile is the artifact, not a
 * wrapper, with one exception taken from the PRD section: `artifact: {...}`
 * whose schema pins `artifact` to a constant is unwrapped and the constant is
 * set back as a flat key (`artifact: {prd: {...}}` -> `artifact: prd`).
 *
 * Aliasing compares keys by their normalized form (lowercase alphanumerics,
 * mf_key_normalize) against the profile's alias table and the property names
 * of its schema, and renames them in place, recursively, keeping key order.
 * When the canonical key is already present with a different value both are
 * kept so validation reports the conflict; an identical duplicate is dropped.
 *
 * The artifact normalizers live in norm_*.c (seed 000: norm.h; the JSON
 * profiles': schema_checks.h) and are found by name here. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "norm.h"
#include "schema_compile.h"

/* gates: the normalizer ends with mf_schema_gate (schema normalization and
 * validation) and only reads the value after it, so the pipeline need not
 * run that gate again when it is the profile's last normalizer. */
static const struct {
    const char *name;
    mf_normalizer_fn fn;
    bool gates;
} normalizers[] = {
    {"interview", mf_norm_interview, false},
    {"full_answers", mf_norm_full_answers, false},
    {"prd", mf_norm_prd, false},
    {"beads", mf_norm_beads, false},
    {"bead_status", mf_norm_bead_status, false},
    {"changes", mf_norm_changes, false},
    {"task_breakdown", mf_norm_task_breakdown, true},
    {"code_files", mf_norm_code_files, true},
    {"qa_tests", mf_norm_qa_tests, true},
    {"artifact_files", mf_norm_artifact_files, true},
    {"investor_decision", mf_norm_investor_decision, true},
    {"extraction_rule", mf_norm_extraction_rule, true},
    {NULL, NULL, false}};

mf_normalizer_fn mf_normalizer_find(const char *name)
{
    for (size_t i = 0; name && normalizers[i].name; i++)
        if (strcmp(normalizers[i].name, name) == 0)
            return normalizers[i].fn;
    return NULL;
}

bool mf_normalizer_gates(const char *name)
{
    for (size_t i = 0; name && normalizers[i].name; i++)
        if (strcmp(normalizers[i].name, name) == 0)
            return normalizers[i].gates;
    return false;
}

/* ---- helpers shared by norm_*.c ---- */

void mf_norm_obj_put(json_t *obj, const char *key, json_t *v, bool front)
{
    if (json_object_get(obj, key) || !front) {
        json_object_set_new(obj, key, v);
        return;
    }
    json_t *copy = json_copy(obj);
    json_object_clear(obj);
    json_object_set_new(obj, key, v);
    json_object_update(obj, copy);
    json_decref(copy);
}

/* The string's bytes with each control byte other than a tab or a line
 * break (NUL included) written as a \u00XX escape. Caller frees. */
static char *show_string(const char *s, size_t n)
{
    mf_buf b = {0};
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f)
            mf_buf_printf(&b, "\\u%04x", c);
        else
            mf_buf_putc(&b, (char)c);
    }
    return mf_buf_detach(&b);
}

char *mf_norm_show(const json_t *v)
{
    char *s = json_is_string(v) ? show_string(json_string_value(v), json_string_length(v))
                                : json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    if (s && strlen(s) > 80) {
        size_t cut = 77;
        while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--; /* never split a UTF-8 sequence */
        for (size_t j = cut > 5 ? cut - 5 : 0; j < cut; j++)
            if (s[j] == '\\' && s[j + 1] == 'u')
                cut = j; /* nor a \u00XX escape */
        strcpy(s + cut, "...");
    }
    return s ? s : mf_strdup0("?");
}

bool mf_norm_digits(const char *s, size_t n, long long *out)
{
    long long v = 0;
    if (n == 0 || n > 15)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

char *mf_norm_lower_trim(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    char *out = mf_strndup(s, n);
    for (size_t i = 0; out && i < n; i++)
        out[i] = (char)tolower((unsigned char)out[i]);
    return out;
}

/* ---- wrapper unwrapping ---- */

static const char *const generic_wrappers[] = {"output", "result", "data", "document", "artifact", NULL};

static bool norm_eq(const char *a, const char *b)
{
    char *x = mf_key_normalize(a), *y = mf_key_normalize(b);
    bool eq = x && y && *x && strcmp(x, y) == 0;
    free(x);
    free(y);
    return eq;
}

static bool in_list(const json_t *list, const char *key)
{
    for (size_t i = 0; i < json_array_size(list); i++)
        if (norm_eq(json_string_value(json_array_get(list, i)), key))
            return true;
    return false;
}

static json_t *schema_props(const mf_profile *p)
{
    return json_object_get(p->schema, "properties");
}

static bool is_top_level_key(const mf_profile *p, const char *key)
{
    if (in_list(p->top_level_keys, key))
        return true;
    const char *k;
    json_t *v;
    json_object_foreach(schema_props(p), k, v) {
        if (norm_eq(k, key))
            return true;
    }
    return false;
}

bool mf_norm_is_wrapper(const mf_profile *p, const char *key)
{
    for (const char *const *g = generic_wrappers; *g; g++)
        if (norm_eq(*g, key))
            return true;
    return in_list(p->wrappers, key);
}

int mf_norm_unwrap(const mf_profile *p, json_t **root, mf_warnings *w)
{
    if (!p || (!p->schema && json_array_size(p->top_level_keys) == 0))
        return 0;
    const char *artifact = json_string_value(
        json_object_get(json_object_get(schema_props(p), "artifact"), "const"));
    const char *set_artifact = NULL;
    mf_buf chain = {0};
    size_t links = 0;
    while (json_is_object(*root) && json_object_size(*root) == 1) {
        void *it = json_object_iter(*root);
        const char *key = json_object_iter_key(it);
        json_t *inner = json_object_iter_value(it);
        if (!json_is_object(inner) && !json_is_array(inner))
            break;
        if (is_top_level_key(p, key)) {
            if (!(artifact && norm_eq(key, "artifact") && json_is_object(inner)))
                break;
            set_artifact = artifact;
        } else if (!mf_norm_is_wrapper(p, key)) {
            break;
        }
        if (links++)
            mf_buf_puts(&chain, " -> ");
        mf_buf_puts(&chain, key);
        json_incref(inner);
        json_decref(*root);
        *root = inner;
    }
    if (links == 0)
        return 0;
    if (set_artifact && json_is_object(*root) && !json_object_get(*root, "artifact"))
        mf_norm_obj_put(*root, "artifact", json_string(set_artifact), true);
    int rc = links == 1
                 ? mf_warnings_add(w, MF_RULE_ID(NORM_WRAPPER), 0, "Removed wrapper key \"%s\" from top level.",
                                   mf_buf_cstr(&chain))
                 : mf_warnings_add(w, MF_RULE_ID(NORM_WRAPPER), 0, "Removed wrapper key chain \"%s\" from top level.",
                                   mf_buf_cstr(&chain));
    mf_buf_free(&chain);
    return rc;
}

/* ---- key aliasing ---- */

/* Add normalized(name) -> name to map unless already there. */
static void known_add(json_t *map, const char *name)
{
    char *n = mf_key_normalize(name);
    if (n && *n && !json_object_get(map, n))
        json_object_set_new(map, n, json_string(name));
    free(n);
}

static void known_from_schema(json_t *map, const json_t *s, int depth)
{
    if (!json_is_object(s) || depth > 64)
        return;
    const char *k;
    json_t *v;
    json_object_foreach(json_object_get(s, "properties"), k, v) {
        known_add(map, k);
        known_from_schema(map, v, depth + 1);
    }
    known_from_schema(map, json_object_get(s, "items"), depth + 1);
    known_from_schema(map, json_object_get(s, "additionalProperties"), depth + 1);
    static const char *const lists[] = {"oneOf", "anyOf", "allOf", NULL};
    for (const char *const *l = lists; *l; l++)
        for (size_t i = 0; i < json_array_size(json_object_get(s, *l)); i++)
            known_from_schema(map, json_array_get(json_object_get(s, *l), i), depth + 1);
}

/* The JSON pointer of the value being visited, kept as segments and rendered
 * only when a warning needs it (clean input renders nothing). */
typedef struct { const char *key; size_t idx; } alias_seg;

typedef struct {
    json_t *map;      /* normalized key -> canonical key */
    mf_warnings *w;
    alias_seg *path;
    size_t depth, cap;
    mf_buf shown;     /* the rendered pointer of the last warning */
    int rc;
    bool drop_only;   /* the pass after normalization: only drop aliases that repeat their canonical key */
    size_t kept;      /* aliases kept beside a canonical key of another value */
} alias_ctx;

/* The canonical spelling of key in map (normalized key -> canonical), or NULL when it names nothing. */
static const char *canonical_in(const json_t *map, const char *key)
{
    /* fast path: a key that is already canonical is in the map as itself */
    const char *exact = json_string_value(json_object_get(map, key));
    if (exact)
        return exact;
    char small[128];
    size_t len = strlen(key);
    if (len >= sizeof small) {
        char *n = mf_key_normalize(key);
        const char *c = n ? json_string_value(json_object_get(map, n)) : NULL;
        free(n);
        return c;
    }
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)key[i];
        if ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z'))
            small[o++] = (char)ch;
        else if (ch >= 'A' && ch <= 'Z')
            small[o++] = (char)(ch - 'A' + 'a');
    }
    small[o] = '\0';
    return json_string_value(json_object_getn(map, small, o));
}

static const char *canonical(const alias_ctx *A, const char *key)
{
    return canonical_in(A->map, key);
}

const char *mf_norm_key_canonical(const json_t *key_map, const char *key)
{
    return canonical_in(key_map, key);
}

bool mf_norm_key_renamed(const json_t *key_map, const char *key)
{
    const char *c = canonical_in(key_map, key);
    return c && strcmp(c, key) != 0;
}

static const char *at(alias_ctx *A)
{
    mf_buf_reset(&A->shown);
    for (size_t i = 0; i < A->depth; i++) {
        if (A->path[i].key)
            mf_pointer_push(&A->shown, A->path[i].key);
        else
            mf_pointer_push_index(&A->shown, A->path[i].idx);
    }
    return A->shown.len ? mf_buf_cstr(&A->shown) : "/";
}

static bool push_seg(alias_ctx *A, const char *key, size_t idx)
{
    if (A->depth == A->cap) {
        size_t cap = A->cap ? A->cap * 2 : 32;
        alias_seg *p = realloc(A->path, cap * sizeof *p);
        if (!p) {
            A->rc = -1;
            return false;
        }
        A->path = p;
        A->cap = cap;
    }
    A->path[A->depth++] = (alias_seg){key, idx};
    return true;
}

static void alias_visit(alias_ctx *A, json_t *v)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *e = json_array_get(v, i);
            if (!json_is_object(e) && !json_is_array(e))
                continue;
            if (!push_seg(A, NULL, i))
                return;
            alias_visit(A, e);
            A->depth--;
        }
        return;
    }
    if (!json_is_object(v))
        return;
    const char *k;
    json_t *x;
    bool need = false;
    json_object_foreach(v, k, x) {
        const char *c = canonical(A, k);
        need = need || (c && strcmp(c, k) != 0);
    }
    if (need) {
        json_t *old = json_copy(v);
        json_object_clear(v);
        json_object_foreach(old, k, x) {
            const char *c = canonical(A, k);
            if (!c || strcmp(c, k) == 0) {
                json_object_set(v, k, x);
                continue;
            }
            json_t *other = json_object_get(old, c);
            if (!other)
                other = json_object_get(v, c);
            if (other && json_equal(other, x)) {
                if (mf_warnings_add(A->w, MF_RULE_ID(NORM_KEY_ALIAS), 0,
                                    "Dropped key \"%s\" at %s: it repeats the value of \"%s\".", k, at(A), c))
                    A->rc = -1;
            } else if (other || A->drop_only) {
                json_object_set(v, k, x); /* conflicting values: keep both, validation decides */
                A->kept += other != NULL;
            } else {
                json_object_set(v, c, x);
                if (mf_warnings_add(A->w, MF_RULE_ID(NORM_KEY_ALIAS), 0, "Renamed key \"%s\" to \"%s\" at %s.", k, c, at(A)))
                    A->rc = -1;
            }
        }
        json_decref(old);
    }
    json_object_foreach(v, k, x) {
        if (!json_is_object(x) && !json_is_array(x))
            continue;
        if (!push_seg(A, k, 0))
            return;
        alias_visit(A, x);
        A->depth--;
    }
}

json_t *mf_norm_key_map(const mf_profile *p)
{
    json_t *map = json_object();
    const char *k;
    json_t *v;
    json_object_foreach(p->aliases, k, v) {
        if (!json_object_get(map, k))
            json_object_set(map, k, v);
        known_add(map, json_string_value(v));
    }
    known_from_schema(map, p->schema, 0);
    for (size_t i = 0; i < json_array_size(p->top_level_keys); i++)
        known_add(map, json_string_value(json_array_get(p->top_level_keys, i)));
    /* identity entries for canonical keys (raw spelling -> itself): a raw key
     * with non-alphanumerics or capitals never collides with a normalized one */
    json_t *ids = json_array();
    json_object_foreach(map, k, v) {
        char *n = mf_key_normalize(json_string_value(v));
        if (n && json_equal(json_object_get(map, n), v))
            json_array_append(ids, v);
        free(n);
    }
    for (size_t i = 0; i < json_array_size(ids); i++) {
        const char *c = json_string_value(json_array_get(ids, i));
        if (!json_object_get(map, c))
            json_object_set(map, c, json_array_get(ids, i));
    }
    json_decref(ids);
    return map;
}

static int norm_aliases(const mf_profile *p, json_t *root, mf_warnings *w, bool drop_only, size_t *kept)
{
    if (!p || (json_object_size(p->aliases) == 0 && !p->schema))
        return 0;
    alias_ctx A = {p->key_map ? json_incref(p->key_map) : mf_norm_key_map(p), w, NULL, 0, 0, {0}, 0, drop_only, 0};
    alias_visit(&A, root);
    free(A.path);
    mf_buf_free(&A.shown);
    json_decref(A.map);
    if (kept)
        *kept = A.kept;
    return A.rc;
}

int mf_norm_aliases(const mf_profile *p, json_t *root, mf_warnings *w)
{
    return norm_aliases(p, root, w, false, NULL);
}

/* ---- the stages after parsing, in order ---- */

int mf_normalize(const mf_profile *p, const mf_options *o, json_t **v, bool keys_kept, mf_warnings *w,
                 mf_error *err)
{
    json_t *parsed = *v;
    size_t kept = 0;
    if (mf_norm_unwrap(p, v, w) ||
        ((!keys_kept || *v != parsed) && norm_aliases(p, *v, w, false, &kept))) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "", 0, 0, "cannot normalize artifact");
        return -1;
    }
    const mf_profile_compiled *c = p->compiled;
    for (size_t i = 0; i < c->nnormalizers; i++)
        if (c->normalizers[i].fn(v, p, o, w, err))
            return -1;
    /* when the last normalizer ran the schema gate it only read afterwards */
    if (!c->gated && mf_schema_gate(p, *v, w, err)) /* schema normalization and validation in one walk */
        return -1;
    /* An alias kept beside its canonical key of another value may repeat it
     * once the canonical value is normalized (7.0 -> 7, "Invest" -> "invest",
     * ["a"] -> "a"): repairing the output would then drop it, so drop it now
     * (idempotence). Only drops: the validated shape keeps every other key. */
    if (kept && norm_aliases(p, *v, w, true, NULL)) {
        mf_error_set(err, 2, "SCHEMA_VIOLATION", "", 0, 0, "cannot normalize artifact");
        return -1;
    }
    return 0;
}
