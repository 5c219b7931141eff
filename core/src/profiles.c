/* profiles.c - artifact profiles: parse the YAML profile files, keep the built-ins.
 *
 * A profile document is loaded with our own YAML loader, checked key by key
 * (an unknown or mistyped key is an error naming the file and line, so a typo
 * in a profile never silently disables a repair), and turned into the views
 * of mf_profile. Alias tables are written canonical -> [spellings] and stored
 * inverted as normalized spelling -> canonical. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "schema_compile.h"

struct mf_embedded_profile { const char *name, *origin, *text; size_t len; };
extern const struct mf_embedded_profile mf_embedded_profiles[];

char *mf_key_normalize(const char *key)
{
    size_t n = strlen(key);
    char *out = malloc(n + 1), *o = out;
    if (!out)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)key[i];
        if (isalnum(c))
            *o++ = (char)tolower(c);
    }
    *o = '\0';
    return out;
}

/* 1-based line of the first line starting with "key:" in text, else 0. */
static int key_line(const char *text, size_t len, const char *key)
{
    size_t kl = strlen(key);
    int line = 1;
    for (size_t i = 0; i < len; i++) {
        if (i == 0 || text[i - 1] == '\n') {
            if (i + kl < len && memcmp(text + i, key, kl) == 0 && text[i + kl] == ':')
                return line;
        }
        if (text[i] == '\n')
            line++;
    }
    return 0;
}

static const char *const known_keys[] = {
    "name", "description", "format", "tag", "top_level_keys", "wrappers", "aliases",
    "nested_children", "item_keys", "string_fields", "free_text_fields", "prose_fields",
    "integer_fields", "enums", "defaults", "normalizers", "schema", "changes", "text_fallback", "context", NULL};

static bool string_list(const json_t *v)
{
    if (!json_is_array(v))
        return false;
    for (size_t i = 0; i < json_array_size(v); i++)
        if (!json_is_string(json_array_get(v, i)))
            return false;
    return true;
}

static json_t *list_to_set(const json_t *v)
{
    json_t *set = json_object();
    for (size_t i = 0; i < json_array_size(v); i++)
        json_object_set_new(set, json_string_value(json_array_get(v, i)), json_true());
    return set;
}

static json_t *own(json_t *doc, const char *key, json_t *fallback)
{
    json_t *v = json_object_get(doc, key);
    if (v) {
        json_decref(fallback);
        return json_incref(v);
    }
    return fallback;
}

mf_profile *mf_profile_parse(const char *text, size_t len, const char *origin,
                             char *err, size_t errlen)
{
    mf_error e = {0};
    json_t *doc = NULL;
    mf_profile *p = NULL;
    const char *bad = NULL, *what = NULL;
    if (mf_yaml_load(text, len, NULL, &doc, &e) != 0) {
        snprintf(err, errlen, "%s:%d: %s", origin, e.line, e.message ? e.message : "syntax error");
        mf_error_clear(&e);
        return NULL;
    }
    if (!json_is_object(doc)) {
        snprintf(err, errlen, "%s:1: a profile must be a mapping", origin);
        json_decref(doc);
        return NULL;
    }
    const char *k;
    json_t *v;
    json_object_foreach(doc, k, v) {
        bool known = false;
        for (const char *const *kk = known_keys; *kk; kk++)
            known = known || strcmp(*kk, k) == 0;
        if (!known) {
            bad = k, what = "unknown profile key";
            goto invalid;
        }
    }
    static const char *const lists[] = {"top_level_keys", "wrappers", "string_fields", "free_text_fields",
                                        "prose_fields", "integer_fields", "normalizers", NULL};
    for (const char *const *l = lists; *l; l++)
        if (json_object_get(doc, *l) && !string_list(json_object_get(doc, *l))) {
            bad = *l, what = "must be a list of strings";
            goto invalid;
        }
    static const char *const maps[] = {"aliases", "nested_children", "item_keys", "enums", "defaults", "context", NULL};
    for (const char *const *m = maps; *m; m++)
        if (json_object_get(doc, *m) && !json_is_object(json_object_get(doc, *m))) {
            bad = *m, what = "must be a mapping";
            goto invalid;
        }
    if (!json_is_string(json_object_get(doc, "name"))) {
        bad = "name", what = "is required and must be a string";
        goto invalid;
    }
    const char *fmt = json_string_value(json_object_get(doc, "format"));
    if (!fmt || (strcmp(fmt, "yaml") && strcmp(fmt, "json"))) {
        bad = "format", what = "is required: yaml or json";
        goto invalid;
    }
    json_t *schema = json_object_get(doc, "schema");
    if (schema && !json_is_object(schema)) {
        bad = "schema", what = "must be a mapping (a JSON-Schema subset)";
        goto invalid;
    }
    json_object_foreach(json_object_get(doc, "aliases"), k, v) {
        if (!string_list(v)) {
            bad = "aliases", what = "each canonical key maps to a list of spellings";
            goto invalid;
        }
    }
    json_object_foreach(json_object_get(doc, "nested_children"), k, v) {
        if (!string_list(v)) {
            bad = "nested_children", what = "each parent maps to a list of child keys";
            goto invalid;
        }
    }
    json_object_foreach(json_object_get(doc, "item_keys"), k, v) {
        const json_t *root = json_object_get(v, "root_list");
        if (!json_is_string(json_object_get(v, "key")) || !string_list(json_object_get(v, "children")) ||
            (root && !json_is_boolean(root))) {
            bad = "item_keys",
            what = "each sequence parent maps to {key: name, children: [child keys]} (root_list: true or false)";
            goto invalid;
        }
    }
    json_object_foreach(json_object_get(doc, "context"), k, v) {
        const char *t = json_string_value(v);
        if (!t || (strcmp(t, "string") && strcmp(t, "array") && strcmp(t, "object") && strcmp(t, "any"))) {
            bad = "context", what = "each runtime-context key maps to string, array, object or any";
            goto invalid;
        }
    }
    for (size_t i = 0; i < json_array_size(json_object_get(doc, "normalizers")); i++) {
        const char *n = json_string_value(json_array_get(json_object_get(doc, "normalizers"), i));
        if (!mf_normalizer_find(n)) {
            bad = "normalizers", what = "names a normalizer that does not exist";
            goto invalid;
        }
    }

    p = calloc(1, sizeof *p);
    p->doc = doc;
    p->name = mf_strdup0(json_string_value(json_object_get(doc, "name")));
    p->description = mf_strdup0(json_string_value(json_object_get(doc, "description")));
    p->format = strcmp(fmt, "json") == 0 ? MF_FORMAT_JSON : MF_FORMAT_YAML;
    p->tag = mf_strdup0(json_string_value(json_object_get(doc, "tag")));
    p->top_level_keys = own(doc, "top_level_keys", json_array());
    p->wrappers = own(doc, "wrappers", json_array());
    p->nested_children = own(doc, "nested_children", json_object());
    p->item_keys = own(doc, "item_keys", json_object());
    p->enums = own(doc, "enums", json_object());
    p->defaults = own(doc, "defaults", json_object());
    p->context = own(doc, "context", json_object());
    p->normalizers = own(doc, "normalizers", json_array());
    p->schema = schema ? json_incref(schema) : NULL;
    p->changes = json_is_true(json_object_get(doc, "changes"));
    p->text_fallback = json_is_true(json_object_get(doc, "text_fallback"));
    p->string_fields = list_to_set(json_object_get(doc, "string_fields"));
    p->free_text_fields = list_to_set(json_object_get(doc, "free_text_fields"));
    p->prose_fields = list_to_set(json_object_get(doc, "prose_fields"));
    p->integer_fields = list_to_set(json_object_get(doc, "integer_fields"));
    p->aliases = json_object();
    json_object_foreach(json_object_get(doc, "aliases"), k, v) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            char *nk = mf_key_normalize(json_string_value(json_array_get(v, i)));
            json_object_set_new(p->aliases, nk, json_string(k));
            free(nk);
        }
    }
    p->key_map = mf_norm_key_map(p);
    if (mf_profile_compile(p)) {
        mf_profile_free(p);
        snprintf(err, errlen, "%s:0: out of memory compiling the profile", origin);
        return NULL;
    }
    return p;

invalid:
    snprintf(err, errlen, "%s:%d: %s: %s", origin, key_line(text, len, bad), bad, what);
    json_decref(doc);
    return NULL;
}

mf_profile *mf_profile_load_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s:0: cannot open profile", path);
        return NULL;
    }
    mf_buf b = {0};
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    mf_profile *p = mf_profile_parse(mf_buf_cstr(&b), b.len, path, err, errlen);
    mf_buf_free(&b);
    return p;
}

void mf_profile_free(mf_profile *p)
{
    if (!p)
        return;
    free(p->name);
    free(p->description);
    free(p->tag);
    json_decref(p->top_level_keys);
    json_decref(p->wrappers);
    json_decref(p->aliases);
    json_decref(p->nested_children);
    json_decref(p->item_keys);
    json_decref(p->string_fields);
    json_decref(p->free_text_fields);
    json_decref(p->prose_fields);
    json_decref(p->integer_fields);
    json_decref(p->enums);
    json_decref(p->defaults);
    json_decref(p->context);
    json_decref(p->normalizers);
    json_decref(p->schema);
    json_decref(p->key_map);
    mf_profile_compiled_free(p);
    json_decref(p->doc);
    free(p);
}

static mf_profile **builtins;
static size_t nbuiltins;

/* Parse every embedded profile once. A broken built-in is a build bug:
 * it is reported on stderr and left out. */
static void load_builtins(void)
{
    if (builtins)
        return;
    size_t n = 0;
    while (mf_embedded_profiles[n].name)
        n++;
    builtins = calloc(n + 1, sizeof *builtins);
    for (size_t i = 0; i < n; i++) {
        char err[512];
        const struct mf_embedded_profile *e = &mf_embedded_profiles[i];
        mf_profile *p = mf_profile_parse(e->text, e->len, e->origin, err, sizeof err);
        if (!p) {
            fprintf(stderr, "malform: built-in profile %s\n", err);
            continue;
        }
        builtins[nbuiltins++] = p;
    }
}

const mf_profile *mf_profiles_get(const char *name)
{
    load_builtins();
    for (size_t i = 0; i < nbuiltins; i++)
        if (strcmp(builtins[i]->name, name) == 0)
            return builtins[i];
    return NULL;
}

size_t mf_profiles_count(void)
{
    load_builtins();
    return nbuiltins;
}

const mf_profile *mf_profiles_at(size_t i)
{
    load_builtins();
    return i < nbuiltins ? builtins[i] : NULL;
}

void mf_profiles_shutdown(void)
{
    mf_schema_cache_clear();
    for (size_t i = 0; i < nbuiltins; i++)
        mf_profile_free(builtins[i]);
    free(builtins);
    builtins = NULL;
    nbuiltins = 0;
}
