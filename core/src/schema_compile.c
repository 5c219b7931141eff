/* schema_compile.c - compile a profile once: schema keywords into slots,
 * field sets into one key map, normalizer names into function pointers.
 *
 * Walking a value against the raw JSON schema costs a dozen hash lookups per
 * node ("type", "enum", "const", "properties", "minLength", "pattern", ...)
 * and three more per object key for the profile's field sets. The compiled
 * form answers each with a field read, and property lookup with one probe of
 * a small open-addressing table. Patterns are compiled (and JIT-compiled)
 * through the regex cache once, at load. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "schema_compile.h"

#define COMPILE_MAX_DEPTH 256

/* ---------------------------------------------------------------- keymap */

static size_t hash_key(const char *s, size_t *len)
{
    *len = strlen(s);
    return mf_keymap_hash(s, *len);
}

static int grow(mf_keymap *m)
{
    size_t cap = m->slots ? (m->mask + 1) * 2 : 8;
    mf_kslot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; m->slots && i <= m->mask; i++) {
        if (!m->slots[i].key)
            continue;
        size_t j = m->slots[i].hash & (cap - 1);
        while (slots[j].key)
            j = (j + 1) & (cap - 1);
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->mask = cap - 1;
    return 0;
}

int mf_keymap_put(mf_keymap *m, const char *key, void *val, unsigned flags)
{
    size_t len, h = hash_key(key, &len), used = 0;
    for (size_t i = 0; m->slots && i <= m->mask; i++)
        used += m->slots[i].key != NULL;
    if ((!m->slots || (used + 1) * 2 > m->mask + 1) && grow(m))
        return -1;
    size_t j = h & m->mask;
    while (m->slots[j].key && !(m->slots[j].hash == h && strcmp(m->slots[j].key, key) == 0))
        j = (j + 1) & m->mask;
    mf_kslot *s = &m->slots[j];
    if (!s->key)
        *s = (mf_kslot){key, len, h, NULL, 0};
    if (val)
        s->val = val;
    s->flags |= flags;
    return 0;
}

size_t mf_keymap_hash(const char *key, size_t len)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
    for (; len >= 8; key += 8, len -= 8) { /* eight bytes at a time */
        uint64_t w;
        memcpy(&w, key, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    uint64_t w = 0;
    memcpy(&w, key, len);
    h = (h ^ w) * 0x94D049BB133111EBull;
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 32;
    return (size_t)h;
}

const mf_kslot *mf_keymap_get(const mf_keymap *m, const char *key)
{
    if (!m->slots)
        return NULL;
    size_t len, h = hash_key(key, &len);
    return mf_keymap_find(m, key, len, h);
}

const mf_kslot *mf_keymap_find(const mf_keymap *m, const char *key, size_t len, size_t h)
{
    if (!m->slots)
        return NULL;
    for (size_t j = h & m->mask;; j = (j + 1) & m->mask) {
        const mf_kslot *s = &m->slots[j];
        if (!s->key)
            return NULL;
        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
            return s;
    }
}

void mf_keymap_free(mf_keymap *m)
{
    free(m->slots);
    m->slots = NULL;
    m->mask = 0;
}

/* ----------------------------------------------------------- schema nodes */

static unsigned type_bit(const char *t)
{
    static const char *const names[] = {"object", "array", "string", "integer", "number", "boolean", "null"};
    for (unsigned i = 0; t && i < 7; i++)
        if (strcmp(t, names[i]) == 0)
            return 1u << i;
    return 0;
}

static mf_snode *compile(const json_t *s, int depth);

/* A property whose schema is not an object (true, {}): the key is allowed, anything goes. */
static mf_snode anything;

static int compile_list(const json_t *list, mf_snode ***out, size_t *n, int depth)
{
    *n = json_array_size(list);
    if (*n == 0)
        return 0;
    *out = calloc(*n, sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < *n; i++)
        (*out)[i] = compile(json_array_get(list, i), depth + 1);
    return 0;
}

static const json_t *integer_kw(const json_t *s, const char *k)
{
    const json_t *v = json_object_get(s, k);
    return json_is_integer(v) ? v : NULL;
}

static const json_t *number_kw(const json_t *s, const char *k)
{
    const json_t *v = json_object_get(s, k);
    return json_is_number(v) ? v : NULL;
}

static mf_snode *compile(const json_t *s, int depth)
{
    if (!json_is_object(s) || depth > COMPILE_MAX_DEPTH)
        return NULL;
    mf_snode *n = calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->type = json_object_get(s, "type");
    bool integer = false, number = false;
    if (json_is_string(n->type)) {
        n->types = type_bit(json_string_value(n->type));
        integer = n->types == MF_T_INTEGER;
    }
    for (size_t i = 0; i < json_array_size(n->type); i++) {
        unsigned b = type_bit(json_string_value(json_array_get(n->type, i)));
        n->types |= b;
        integer = integer || b == MF_T_INTEGER;
        number = number || b == MF_T_NUMBER;
    }
    if (n->type && !n->types)
        n->types = 1u << 7; /* only unknown type names: nothing matches */
    n->integer_only = integer && !number;
    n->cnst = json_object_get(s, "const");
    n->enm = json_is_array(json_object_get(s, "enum")) ? json_object_get(s, "enum") : NULL;
    const json_t *req = json_object_get(s, "required");
    if (json_array_size(req)) {
        n->required = calloc(json_array_size(req), sizeof *n->required);
        for (size_t i = 0; n->required && i < json_array_size(req); i++)
            if (json_string_value(json_array_get(req, i)))
                n->required[n->nrequired++] = json_string_value(json_array_get(req, i));
    }
    n->props_json = json_object_get(s, "properties");
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)n->props_json, k, v) {
        mf_snode *child = compile(v, depth + 1);
        mf_keymap_put(&n->props, k, child ? child : &anything, 0);
    }
    const json_t *addl = json_object_get(s, "additionalProperties");
    n->addl_false = json_is_false(addl);
    n->addl = json_is_object(addl) ? compile(addl, depth + 1) : NULL;
    n->items = json_is_object(json_object_get(s, "items")) ? compile(json_object_get(s, "items"), depth + 1) : NULL;
    n->min_items = integer_kw(s, "minItems");
    n->max_items = integer_kw(s, "maxItems");
    n->min_len = integer_kw(s, "minLength");
    n->max_len = integer_kw(s, "maxLength");
    n->minimum = number_kw(s, "minimum");
    n->maximum = number_kw(s, "maximum");
    n->pattern = json_string_value(json_object_get(s, "pattern"));
    if (n->pattern) {
        char msg[300] = "";
        pcre2_code *re = mf_regex_compile(n->pattern, msg, sizeof msg);
        if (re)
            pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* the interpreter stays when JIT is unavailable */
        n->re = re;
        n->re_error = n->re ? NULL : mf_strdup0(msg);
    }
    n->has_any = json_is_array(json_object_get(s, "anyOf"));
    n->has_one = json_is_array(json_object_get(s, "oneOf"));
    compile_list(json_object_get(s, "anyOf"), &n->any, &n->nany, depth);
    compile_list(json_object_get(s, "oneOf"), &n->one, &n->none, depth);
    return n;
}

mf_snode *mf_schema_compile(const json_t *schema)
{
    return compile(schema, 0);
}

void mf_schema_node_free(mf_snode *n)
{
    if (!n)
        return;
    for (size_t i = 0; n->props.slots && i <= n->props.mask; i++)
        if (n->props.slots[i].key && n->props.slots[i].val != &anything)
            mf_schema_node_free(n->props.slots[i].val);
    mf_keymap_free(&n->props);
    mf_schema_node_free(n->addl);
    mf_schema_node_free(n->items);
    for (size_t i = 0; i < n->nany; i++)
        mf_schema_node_free(n->any[i]);
    for (size_t i = 0; i < n->none; i++)
        mf_schema_node_free(n->one[i]);
    free(n->any);
    free(n->one);
    free(n->required);
    free(n->re_error);
    pcre2_code_free((pcre2_code *)n->re);
    free(n);
}

/* ------------------------------------------------------ compiled profiles */

/* Does the schema s declare a property named key (at any depth) of type array? */
static bool list_property(const json_t *s, const char *key, int depth)
{
    if (!json_is_object(s) || depth > 64)
        return false;
    const json_t *prop = json_object_get(json_object_get(s, "properties"), key);
    const json_t *t = json_object_get(prop, "type");
    if (json_is_string(t) && strcmp(json_string_value(t), "array") == 0)
        return true;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)s, k, v) {
        if (json_is_object(v) && list_property(v, key, depth + 1))
            return true;
        if (json_is_array(v))
            for (size_t i = 0; i < json_array_size(v); i++)
                if (list_property(json_array_get(v, i), key, depth + 1))
                    return true;
    }
    return false;
}

/* The load-key flags of string field key: MF_K_STRING, with MF_K_LIST when the schema lists it. */
static unsigned string_flags(const mf_profile *p, const char *key)
{
    return MF_K_STRING | (list_property(p->schema, key, 0) ? MF_K_LIST : 0);
}

int mf_profile_compile(mf_profile *p)
{
    mf_profile_compiled *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    p->compiled = c;
    c->schema = mf_schema_compile(p->schema);
    const char *k;
    json_t *v;
    json_object_foreach(p->prose_fields, k, v)
        mf_keymap_put(&c->fields, k, NULL, MF_F_PROSE);
    json_object_foreach(p->integer_fields, k, v)
        mf_keymap_put(&c->fields, k, NULL, MF_F_INTEGER);
    json_object_foreach(p->enums, k, v)
        mf_keymap_put(&c->fields, k, v, MF_F_ENUM);
    json_object_foreach(p->string_fields, k, v)
        mf_keymap_put(&c->load_keys, k, NULL, string_flags(p, k));
    c->aliases = json_object_size(p->aliases) > 0 || p->schema;
    json_object_foreach(c->aliases ? p->key_map : NULL, k, v)
        if (json_is_string(v) && strcmp(json_string_value(v), k) == 0)
            mf_keymap_put(&c->load_keys, k, NULL, MF_K_CANONICAL);
    /* an alias of a string field loads as one too (`approvedat:` with no
     * value is "" like `approved_at:`, not a null the rename then keeps) */
    json_object_foreach(c->aliases ? p->key_map : NULL, k, v)
        if (json_is_string(v) && strcmp(json_string_value(v), k) != 0 &&
            json_object_get(p->string_fields, json_string_value(v)))
            mf_keymap_put(&c->load_keys, k, NULL, string_flags(p, json_string_value(v)));
    size_t n = json_array_size(p->normalizers) + (p->changes ? 1 : 0);
    c->normalizers = calloc(n ? n : 1, sizeof *c->normalizers);
    if (!c->normalizers)
        return -1;
    /* a refinement `changes:` list is normalized before the profile's own normalizers */
    const char *name = NULL;
    for (size_t i = 0; i < n; i++) {
        name = p->changes && i == 0 ? "changes" : json_string_value(json_array_get(p->normalizers, i - (p->changes ? 1 : 0)));
        c->normalizers[i] = (mf_named_normalizer){name, mf_normalizer_find(name)};
        if (!c->normalizers[i].fn)
            return -1;
    }
    c->nnormalizers = n;
    c->gated = n > 0 && mf_normalizer_gates(name);
    c->generic = !p->schema && json_array_size(p->normalizers) == 0 && !p->changes &&
                 json_array_size(p->wrappers) == 0 && json_object_size(p->aliases) == 0;
    return 0;
}

void mf_profile_compiled_free(mf_profile *p)
{
    mf_profile_compiled *c = p->compiled;
    if (!c)
        return;
    mf_schema_node_free(c->schema);
    mf_keymap_free(&c->fields);
    mf_keymap_free(&c->load_keys);
    free(c->normalizers);
    free(c);
    p->compiled = NULL;
}
