/* profile.h - artifact profiles: what one kind of artifact looks like, as data.
 *
 * A profile is a YAML file (core/profiles/NAME.yaml, embedded into the library
 * at build time) naming the format, top-level keys, tag envelope, wrapper
 * keys, key aliases, nested-child whitelist, string/prose/integer fields, enum
 * maps, defaults, named normalizers, the runtime-context keys they read and a
 * JSON-Schema subset for tier 2. */
#ifndef MALFORM_PROFILE_H
#define MALFORM_PROFILE_H

#include <stdbool.h>
#include <jansson.h>

typedef enum { MF_FORMAT_YAML = 0, MF_FORMAT_JSON = 1 } mf_format;

/* The profile resolved once at load (schema keywords in slots, field sets in
 * one map, normalizers as functions); private to libmalform. */
typedef struct mf_profile_compiled mf_profile_compiled;

typedef struct mf_profile {
    char *name;
    char *description;
    mf_format format;
    char *tag;                /* XML envelope name (e.g. "BEAD_STATUS") or NULL */
    json_t *doc;              /* the whole profile document (object) */
    /* Views into doc (borrowed, never NULL: empty array/object when absent): */
    json_t *top_level_keys;   /* array of key names that anchor a candidate */
    json_t *wrappers;         /* array: wrapper keys accepted around the artifact */
    json_t *aliases;          /* object: normalized alias -> canonical key */
    json_t *nested_children;  /* object: parent key -> array of child keys */
    json_t *item_keys;        /* object: sequence parent key -> {key, children, root_list}: the key a
                                 bare item stands for and the child keys that prove it; root_list:
                                 a bare top-level list is this parent's (yaml.item-key) */
    json_t *string_fields;    /* object used as a set: keys whose plain scalars stay strings */
    json_t *free_text_fields; /* object used as a set: keys whose values are always quoted text */
    json_t *prose_fields;     /* object used as a set: list -> "\n"-joined string */
    json_t *integer_fields;   /* object used as a set: 5.0 -> 5 */
    json_t *enums;            /* object: field -> {values:[...], map:{raw: canonical}, fold_case} */
    json_t *defaults;         /* object: field -> default value for an omitted required field */
    json_t *normalizers;      /* array of named C normalizers to run (e.g. "interview") */
    json_t *schema;           /* JSON-Schema subset, or NULL for no schema */
    json_t *context;          /* object: runtime-context key -> type ("string", "array", "object", "any") */
    bool changes;             /* a refinement `changes:` list may ride along */
    json_t *key_map;          /* normalized key -> canonical key (aliases, schema properties, top-level keys) */
    bool text_fallback;       /* when nothing parses, the raw text goes to the normalizers as one string */
    mf_profile_compiled *compiled; /* built by mf_profile_parse; read-only afterwards */
} mf_profile;

/* Parse a profile from YAML text; `origin` names it in errors. On failure
 * returns NULL and writes "origin:line: message" into err (size errlen). */
mf_profile *mf_profile_parse(const char *text, size_t len, const char *origin,
                             char *err, size_t errlen);
/* Load a profile file from disk (see mf_profile_parse for errors). */
mf_profile *mf_profile_load_file(const char *path, char *err, size_t errlen);
/* Free a profile; NULL is fine. */
void mf_profile_free(mf_profile *p);

/* The built-in profile called name (embedded at build time), or NULL.
 * Built-ins live until mf_profiles_shutdown(); do not free them. */
const mf_profile *mf_profiles_get(const char *name);
/* Number of built-in profiles. */
size_t mf_profiles_count(void);
/* The i-th built-in profile in name order. */
const mf_profile *mf_profiles_at(size_t i);
/* Release the built-in profiles (optional, for leak checkers). */
void mf_profiles_shutdown(void);

/* Canonical form of a key for alias matching: lowercase, non-alphanumerics
 * dropped ("Acceptance-Criteria" -> "acceptancecriteria"). Caller frees. */
char *mf_key_normalize(const char *key);

#endif
