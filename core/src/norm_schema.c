/* norm_schema.c - schema normalization (seed 003), run just before tier 2.
 *
 * Models emit values that mean the right thing in the wrong shape. Four
 * rules turn them into the canonical form, each with a warning:
 *
 *   norm.prose-field    a prose field (profile `prose_fields`) given as a list
 *                       of strings is joined into one string with "\n";
 *   norm.integer-field  a float with a zero fraction (5.0) in an integer field
 *                       (profile `integer_fields`, or a schema "type":
 *                       "integer") becomes an integer;
 *   norm.enum-case      an enum value (profile `enums`: field -> {values,
 *                       map, fold_case}) in the wrong case, or a synonym listed
 *                       in `map`, becomes the canonical value;
 *   norm.default        a required field that the model omitted gets the
 *                       profile's default (`defaults`: field -> value).
 *
 * Matching, as documented for profile authors: prose, integer and enum fields
 * are matched by key name at any depth of the artifact (when the value under
 * such a key is a list, integer and enum rules apply to each element).
 * "type": "integer" is found by walking the schema alongside the value
 * (properties, additionalProperties, items; the oneOf/anyOf branch whose
 * type fits the value). A default is filled into an object whose schema lists
 * the field as required; with no schema, defaults apply to the root object.
 *
 * Everything else is left alone for the validator to report. The pass is
 * linear in the value, idempotent, and silent on clean input.
 *
 * mf_schema_gate validates in the same walk: a value is checked against the
 * compiled schema as soon as its own fixes and its parent's are done, in the
 * order mf_schema_check visits values, so the first violation, its path and
 * its message are those of a check run after the whole normalization. A value
 * whose schema reads it as a whole (oneOf/anyOf, enum/const on an object or
 * array) is normalized entirely first, then checked. One hash of each key
 * serves its property lookup and its field lookup; paths are segments,
 * rendered only for a warning or an error. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "schema_compile.h"

#define MAX_WALK_DEPTH 1000

typedef struct {
    const mf_profile *p;
    const mf_profile_compiled *c;
    mf_warnings *w;
    mf_vpath path;
    mf_buf shown;
    mf_error *err;   /* NULL: normalize only */
} walker;

/* Where the warning is: " at /a/0" for nested fields (the first n segments of the path), "" at the root. */
static const char *where(walker *k, size_t n)
{
    mf_buf_reset(&k->shown);
    if (n) {
        mf_buf_puts(&k->shown, " at ");
        mf_vpath_render(&k->path, n, &k->shown);
    }
    return mf_buf_cstr(&k->shown);
}

/* The first oneOf/anyOf branch with a "type" that fits v ("integer" fits any number), else s. */
static const mf_snode *pick(const mf_snode *s, const json_t *v)
{
    if (!s || (!s->none && !s->nany))
        return s;
    unsigned have = json_is_number(v) ? MF_T_INTEGER | MF_T_NUMBER : mf_value_bits(v);
    for (size_t i = 0; i < s->none; i++)
        if (s->one[i] && s->one[i]->type && (s->one[i]->types & have))
            return s->one[i];
    for (size_t i = 0; i < s->nany; i++)
        if (s->any[i] && s->any[i]->type && (s->any[i]->types & have))
            return s->any[i];
    return s;
}

/* 5.0 -> 5 when v is a real with zero fraction that fits json_int_t; else NULL. */
static json_t *as_integer(const json_t *v)
{
    if (!json_is_real(v))
        return NULL;
    double d = json_real_value(v);
    if (!isfinite(d) || d < -9.2e18 || d > 9.2e18 || (double)(json_int_t)d != d)
        return NULL;
    return json_integer((json_int_t)d);
}

static void integer_fix(walker *k, const char *field, json_t *parent, const char *key, size_t idx,
                        json_t *v, size_t at)
{
    json_t *iv = as_integer(v);
    if (!iv)
        return;
    char *old = mf_value_preview(v);
    mf_warnings_add(k->w, MF_RULE_ID(NORM_INTEGER_FIELD), 0, "Coerced %s in integer field %s%s to %lld.", old,
                    field, where(k, at), (long long)json_integer_value(iv));
    free(old);
    if (key)
        json_object_set_new(parent, key, iv);
    else
        json_array_set_new(parent, idx, iv);
}

/* Scalars an enum map can name: strings as they are, true/false/integers spelled out. */
static bool enum_text(const json_t *v, char *buf, size_t n)
{
    if (json_is_string(v))
        return false;
    if (json_is_boolean(v))
        snprintf(buf, n, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_integer(v))
        snprintf(buf, n, "%lld", (long long)json_integer_value(v));
    else
        return false;
    return true;
}

static void enum_fix(walker *k, const char *field, const json_t *spec, json_t *parent, const char *key,
                     size_t idx, json_t *v, size_t at)
{
    char num[64];
    const char *s = json_is_string(v) ? json_string_value(v) : enum_text(v, num, sizeof num) ? num : NULL;
    if (!s || !json_is_object(spec))
        return;
    const json_t *values = json_object_get(spec, "values"), *map = json_object_get(spec, "map");
    bool fold = !json_is_false(json_object_get(spec, "fold_case"));
    if (json_is_string(v))
        for (size_t i = 0; i < json_array_size(values); i++)
            if (json_equal(json_array_get(values, i), v))
                return;
    const json_t *canon = json_object_get(map, s);
    if (!canon && fold) {
        const char *mk;
        json_t *mv;
        json_object_foreach((json_t *)map, mk, mv) {
            if (strcasecmp(mk, s) == 0) {
                canon = mv;
                break;
            }
        }
        for (size_t i = 0; i < json_array_size(values) && !canon; i++) {
            const char *c = json_string_value(json_array_get(values, i));
            if (c && strcasecmp(c, s) == 0)
                canon = json_array_get(values, i);
        }
    }
    if (!canon || json_equal((json_t *)canon, v))
        return;
    char *old = mf_value_preview(v), *nw = mf_value_preview(canon);
    mf_warnings_add(k->w, MF_RULE_ID(NORM_ENUM_CASE), 0, "Normalized enum value %s in field %s%s to %s.", old,
                    field, where(k, at), nw);
    free(old);
    free(nw);
    if (key)
        json_object_set(parent, key, (json_t *)canon);
    else
        json_array_set(parent, idx, (json_t *)canon);
}

/* ["a", "b"] -> "a\nb" when every element is a string. */
static void prose_fix(walker *k, const char *field, json_t *obj, json_t *v, size_t at)
{
    if (!json_is_array(v))
        return;
    size_t n = json_array_size(v);
    for (size_t i = 0; i < n; i++)
        if (!json_is_string(json_array_get(v, i)))
            return;
    mf_buf joined = {0};
    for (size_t i = 0; i < n; i++) {
        if (i)
            mf_buf_putc(&joined, '\n');
        json_t *e = json_array_get(v, i);
        mf_buf_put(&joined, json_string_value(e), json_string_length(e));
    }
    mf_warnings_add(k->w, MF_RULE_ID(NORM_PROSE_FIELD), 0,
                    "Joined a list of %zu string%s in prose field %s%s into one newline-separated string.",
                    n, n == 1 ? "" : "s", field, where(k, at));
    json_object_set_new(obj, field, json_stringn(joined.s ? joined.s : "", joined.len));
    mf_buf_free(&joined);
}

static void fill_defaults(walker *k, const mf_snode *s, json_t *obj, bool root)
{
    const json_t *defaults = k->p->defaults;
    if (json_object_size(defaults) == 0)
        return;
    if (s) {
        for (size_t i = 0; i < s->nrequired; i++) {
            const char *name = s->required[i];
            const json_t *d = json_object_get(defaults, name);
            if (!d || json_object_get(obj, name))
                continue;
            char *pv = mf_value_preview(d);
            mf_warnings_add(k->w, MF_RULE_ID(NORM_DEFAULT), 0, "Filled omitted required field %s with default %s%s",
                            name, pv, where(k, k->path.n));
            free(pv);
            json_object_set_new(obj, name, json_deep_copy(d));
        }
    } else if (root) {
        const char *name;
        json_t *d;
        json_object_foreach((json_t *)defaults, name, d) {
            if (json_object_get(obj, name))
                continue;
            char *pv = mf_value_preview(d);
            mf_warnings_add(k->w, MF_RULE_ID(NORM_DEFAULT), 0, "Filled omitted required field %s with default %s",
                            name, pv);
            free(pv);
            json_object_set_new(obj, name, json_deep_copy(d));
        }
    }
}

/* The fixes of member `key` of obj (value v, schema cs already picked for v):
 * prose, integer and enum fields and the integer type. Returns the member's value after them. */
static json_t *fix_member(walker *k, const mf_snode *cs, json_t *obj, const char *key, size_t keylen, size_t hash,
                          json_t *v)
{
    const mf_kslot *field = mf_keymap_find(&k->c->fields, key, keylen, hash);
    unsigned flags = field ? field->flags : 0;
    bool int_field = flags & MF_F_INTEGER;
    if (!flags && !(cs && cs->integer_only))
        return v;
    size_t here = k->path.n;
    if ((flags & MF_F_PROSE) && json_is_array(v)) {
        prose_fix(k, key, obj, v, here);
        v = json_object_get(obj, key);
    }
    const json_t *spec = flags & MF_F_ENUM ? field->val : NULL;
    if ((int_field || (cs && cs->integer_only)) && json_is_real(v)) {
        integer_fix(k, key, obj, key, 0, v, here);
        v = json_object_get(obj, key);
    }
    if (spec) {
        enum_fix(k, key, spec, obj, key, 0, v, here);
        v = json_object_get(obj, key);
    }
    if (json_is_array(v) && (int_field || spec)) {
        mf_vpath_push(&k->path, key, 0);
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *e = json_array_get(v, i);
            if (int_field && json_is_real(e))
                integer_fix(k, key, v, NULL, i, e, k->path.n);
            if (spec)
                enum_fix(k, key, spec, v, NULL, i, json_array_get(v, i), k->path.n);
        }
        k->path.n--;
    }
    return v;
}

static bool is_container(const json_t *v)
{
    return json_is_object(v) || json_is_array(v);
}

/* A schema whose keywords read v's members or items as a whole (oneOf/anyOf,
 * enum/const on a container): v is normalized entirely before it is checked. */
static bool reads_whole(const mf_snode *vs, const json_t *v)
{
    return vs->has_any || vs->has_one || ((vs->cnst || vs->enm) && is_container(v));
}

static int visit(walker *k, const mf_snode *ns, const mf_snode *vs, json_t *v, bool root, int depth);

static int visit_object(walker *k, const mf_snode *s, const mf_snode *vs, json_t *obj, bool root, int depth)
{
    fill_defaults(k, s, obj, root);
    if (vs && mf_check_self(&k->path, vs, obj, depth, k->err))
        return -1;
    void *it = json_object_iter(obj);
    while (it) {
        const char *key = json_object_iter_key(it);
        size_t keylen = strlen(key); /* as the lookups by C string read a key with a NUL in it */
        json_t *v = json_object_iter_value(it);
        it = json_object_iter_next(obj, it);
        size_t hash = mf_keymap_hash(key, keylen);
        const mf_kslot *prop = s ? mf_keymap_find(&s->props, key, keylen, hash) : NULL;
        const mf_snode *cs = prop ? prop->val : s ? s->addl : NULL;
        cs = pick(cs, v);
        v = fix_member(k, cs, obj, key, keylen, hash, v);
        const mf_snode *sub = NULL;
        if (vs) {
            const mf_kslot *vprop = vs == s ? prop : mf_keymap_find(&vs->props, key, keylen, hash);
            if (mf_check_member(&k->path, vs, key, vprop, &sub, k->err))
                return -1;
        }
        if (!sub && !is_container(v))
            continue;
        mf_vpath_push(&k->path, key, 0);
        int rc = is_container(v) ? visit(k, cs, sub, v, false, depth + 1)
                                 : mf_check_at(&k->path, sub, v, depth + 1, k->err);
        k->path.n--;
        if (rc)
            return rc;
    }
    return 0;
}

static int visit_array(walker *k, const mf_snode *s, const mf_snode *vs, json_t *arr, int depth)
{
    if (vs && mf_check_self(&k->path, vs, arr, depth, k->err))
        return -1;
    const mf_snode *items = s ? s->items : NULL, *vitems = vs ? vs->items : NULL;
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *e = json_array_get(arr, i);
        const mf_snode *cs = pick(items, e);
        bool walk = is_container(e);
        if (cs && cs->integer_only && json_is_real(e)) {
            integer_fix(k, "item", arr, NULL, i, e, k->path.n);
            e = json_array_get(arr, i);
            walk = false;
        }
        if (!walk && !vitems)
            continue;
        mf_vpath_push(&k->path, NULL, i);
        int rc = walk ? visit(k, cs, vitems, e, false, depth + 1) : mf_check_at(&k->path, vitems, e, depth + 1, k->err);
        k->path.n--;
        if (rc)
            return rc;
    }
    return 0;
}

/* Normalize v by schema ns (what the parent picked for it) and, when vs is
 * given, validate it against vs in the same walk: each value is checked once
 * its own fixes and those of its parent are done, in the order
 * mf_schema_check would visit it, so the first violation is the same one a
 * separate check after a separate normalization would find. */
static int visit(walker *k, const mf_snode *ns, const mf_snode *vs, json_t *v, bool root, int depth)
{
    if (depth > MAX_WALK_DEPTH)
        return vs ? mf_check_at(&k->path, vs, v, depth, k->err) : 0;
    if (vs && reads_whole(vs, v)) {
        visit(k, ns, NULL, v, root, depth);
        return mf_check_at(&k->path, vs, v, depth, k->err);
    }
    const mf_snode *s = pick(ns, v);
    if (json_is_object(v))
        return visit_object(k, s, vs, v, root, depth);
    if (json_is_array(v))
        return visit_array(k, s, vs, v, depth);
    return vs ? mf_check_self(&k->path, vs, v, depth, k->err) : 0;
}

static int run(const mf_profile *p, json_t *root, mf_warnings *w, mf_error *err)
{
    if (!p || !root)
        return 0;
    const mf_profile_compiled *c = p->compiled;
    if (!c->schema && !c->fields.slots && json_object_size(p->defaults) == 0)
        return 0; /* nothing to normalize or check: skip the walk */
    walker k = {p, c, w, {0}, {0}, err};
    int rc = visit(&k, c->schema, err ? c->schema : NULL, root, true, 0);
    free(k.path.v);
    mf_buf_free(&k.shown);
    return rc;
}

int mf_norm_schema(const mf_profile *p, json_t *root, mf_warnings *w)
{
    return run(p, root, w, NULL);
}

int mf_schema_gate(const mf_profile *p, json_t *root, mf_warnings *w, mf_error *err)
{
    return run(p, root, w, err);
}

bool mf_path_unsafe(const char *path)
{
    if (!path || !*path)
        return false;
    if (path[0] == '/' || path[0] == '\\' || path[0] == '~')
        return true;
    if (((path[0] >= 'A' && path[0] <= 'Z') || (path[0] >= 'a' && path[0] <= 'z')) && path[1] == ':')
        return true;
    for (const char *seg = path; *seg;) {
        size_t n = strcspn(seg, "/\\");
        if (n == 2 && seg[0] == '.' && seg[1] == '.')
            return true;
        seg += n;
        if (*seg)
            seg++;
    }
    return false;
}
