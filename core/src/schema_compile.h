/* schema_compile.h - a profile resolved once at load: its JSON-Schema subset
 * as nodes with every keyword in a slot, its field sets as one key map, its
 * normalizers as function pointers. Private to core (profiles.c builds it;
 * validate.c, norm_schema.c, normalize.c and pipeline.c read it). */
#ifndef MALFORM_SCHEMA_COMPILE_H
#define MALFORM_SCHEMA_COMPILE_H

#include "schema_checks.h"

/* ---- a small string-keyed hash map (open addressing, built once, read-only after) ---- */
typedef struct { const char *key; size_t len; size_t hash; void *val; unsigned flags; } mf_kslot;
typedef struct { mf_kslot *slots; size_t mask; } mf_keymap;
/* Add key (borrowed: it must outlive the map) with val and flags ORed in. 0, or -1 on OOM. */
int mf_keymap_put(mf_keymap *m, const char *key, void *val, unsigned flags);
/* The slot of key, or NULL. */
const mf_kslot *mf_keymap_get(const mf_keymap *m, const char *key);
/* The hash mf_keymap_find expects for key[0..len). */
size_t mf_keymap_hash(const char *key, size_t len);
/* mf_keymap_get for key[0..len) whose mf_keymap_hash is known (one hash for several maps). */
const mf_kslot *mf_keymap_find(const mf_keymap *m, const char *key, size_t len, size_t hash);
/* Release the table (not the keys or values). */
void mf_keymap_free(mf_keymap *m);

/* ---- compiled schema nodes ---- */
enum {
    MF_T_OBJECT = 1, MF_T_ARRAY = 2, MF_T_STRING = 4, MF_T_INTEGER = 8, MF_T_NUMBER = 16,
    MF_T_BOOLEAN = 32, MF_T_NULL = 64
};
/* The MF_T_* bit of a value (an integer is also a number). */
static inline unsigned mf_value_bits(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: return MF_T_OBJECT;
    case JSON_ARRAY: return MF_T_ARRAY;
    case JSON_STRING: return MF_T_STRING;
    case JSON_INTEGER: return MF_T_INTEGER | MF_T_NUMBER;
    case JSON_REAL: return MF_T_NUMBER;
    case JSON_TRUE:
    case JSON_FALSE: return MF_T_BOOLEAN;
    default: return MF_T_NULL;
    }
}

typedef struct mf_snode mf_snode;
struct mf_snode {
    const json_t *type;          /* the "type" keyword (for messages) or NULL */
    unsigned types;              /* MF_T_* of "type"; 0 = any type */
    bool integer_only;           /* "type" says integer and not number (5.0 -> 5) */
    const json_t *cnst, *enm;    /* "const", "enum" (array) or NULL */
    const char **required;       /* "required" names */
    size_t nrequired;
    const json_t *props_json;    /* "properties" (for messages) or NULL */
    mf_keymap props;             /* property name -> mf_snode* */
    mf_snode *addl;              /* "additionalProperties" as a schema, or NULL */
    bool addl_false;             /* "additionalProperties": false */
    mf_snode *items;             /* "items" (an object) or NULL */
    const json_t *min_items, *max_items, *min_len, *max_len, *minimum, *maximum;
    const char *pattern;         /* "pattern" text or NULL */
    const pcre2_code *re;        /* compiled pattern (JIT where available), NULL when it fails */
    char *re_error;              /* why the pattern does not compile */
    mf_snode **any, **one;       /* "anyOf", "oneOf" branches (non-object branches: NULL = anything) */
    size_t nany, none;
    bool has_any, has_one;       /* the keyword is an array (even empty) */
};

/* Compile a JSON-Schema subset (borrowed: it must outlive the nodes). NULL
 * for a schema that is not an object (anything goes) or on OOM. */
mf_snode *mf_schema_compile(const json_t *schema);
/* Free compiled nodes; NULL is fine. */
void mf_schema_node_free(mf_snode *n);
/* Validate v against compiled nodes (see mf_schema_validate). */
int mf_schema_check(const mf_snode *n, const json_t *v, mf_error *err);

/* ---- validation one node at a time (for a walk that also normalizes) ---- */
/* The JSON pointer of the value being visited, as segments (key, or NULL and
 * an index), rendered only when a message needs it. */
typedef struct { const char *key; size_t idx; } mf_vseg;
typedef struct { mf_vseg *v; size_t n, cap; } mf_vpath;
/* Append a segment (aborts when a few bytes cannot be had). */
void mf_vpath_push(mf_vpath *p, const char *key, size_t idx);
/* Append the first n segments to out as a JSON pointer ("/a/0"). */
void mf_vpath_render(const mf_vpath *p, size_t n, mf_buf *out);
/* mf_schema_check of v at path and nesting depth. */
int mf_check_at(mf_vpath *path, const mf_snode *s, const json_t *v, int depth, mf_error *err);
/* The keywords of s about v itself (type, enum/const, required, item count,
 * string and number bounds), without members, items or oneOf/anyOf. */
int mf_check_self(mf_vpath *path, const mf_snode *s, const json_t *v, int depth, mf_error *err);
/* The schema member `key` of an object validated by s is checked against
 * (NULL: none), given key's slot in s->props (NULL when absent); -1 with err
 * when s forbids the key. path is the object's. */
int mf_check_member(mf_vpath *path, const mf_snode *s, const char *key, const mf_kslot *slot,
                    const mf_snode **sub, mf_error *err);

/* ---- the compiled profile ---- */
/* Field flags of mf_profile_compiled.fields. */
enum { MF_F_PROSE = 1, MF_F_INTEGER = 2, MF_F_ENUM = 4 };
/* Key flags of mf_profile_compiled.load_keys: a string field (plain scalars
 * under it stay text); a key that key aliasing keeps as it is; a string field
 * the schema declares a list (an empty value stays null, not ""). */
enum { MF_K_STRING = 1, MF_K_CANONICAL = 2, MF_K_LIST = 4 };
typedef struct {
    const char *name;
    mf_normalizer_fn fn;
} mf_named_normalizer;
struct mf_profile_compiled {
    mf_snode *schema;            /* NULL when the profile has no schema */
    mf_keymap fields;            /* prose / integer / enum field name -> flags (val: the enum spec) */
    mf_keymap load_keys;         /* key -> MF_K_* flags, read by the YAML loader once per key */
    bool aliases;                /* key aliasing applies (mf_norm_aliases is not a no-op) */
    mf_named_normalizer *normalizers; /* the profile's `normalizers:` list, resolved */
    size_t nnormalizers;
    bool gated;                  /* the last normalizer ends with mf_schema_gate and only reads after it */
    bool generic;                /* no schema, normalizers, changes, wrappers or aliases */
};
/* Build p->compiled; 0, or -1 on OOM or an unknown normalizer. */
int mf_profile_compile(mf_profile *p);
/* Release p->compiled. */
void mf_profile_compiled_free(mf_profile *p);

/* True when normalizer `name` ends with mf_schema_gate and only reads after it. */
bool mf_normalizer_gates(const char *name);

#endif
