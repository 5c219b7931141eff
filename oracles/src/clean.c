/* clean.c - the clean-artifact check: core's repair of a structured case's
 * clean text against its strict load (truth.c), and whether a rejection of
 * such a text rejects core's own misreading or the input's own value. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/oracles.h"
#include "verdict.h"

/* The member of object o that core reads as key: key itself, else a member
 * whose name the profile's documented key aliases map to key (lowercase,
 * non-alphanumerics dropped: "t\arget_users" -> target_users). Borrowed. */
static const json_t *member(const mf_profile *p, const json_t *o, const char *key)
{
    const json_t *x = json_object_get(o, key);
    if (x || !p)
        return x;
    const json_t *map = p->key_map ? p->key_map : p->aliases;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v) {
        char *n = mf_key_normalize(k);
        const char *c = n ? json_string_value(json_object_get(map, n)) : NULL;
        bool same = c && !strcmp(c, key);
        free(n);
        if (same)
            return v;
    }
    return NULL;
}

/* A copy of v with every key read as core reads it (member()): a key the
 * profile's aliases map to another name is renamed, unless that name is
 * there already. New reference. */
static json_t *as_read(const mf_profile *p, const json_t *v)
{
    if (json_is_array(v)) {
        json_t *a = json_array();
        for (size_t i = 0; a && i < json_array_size(v); i++)
            json_array_append_new(a, as_read(p, json_array_get(v, i)));
        return a;
    }
    if (!json_is_object(v) || !p)
        return json_deep_copy(v);
    const json_t *map = p->key_map ? p->key_map : p->aliases;
    json_t *o = json_object();
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)v, k, x) {
        char *n = mf_key_normalize(k);
        const char *c = n ? json_string_value(json_object_get(map, n)) : NULL;
        const char *name = c && !json_object_get(v, c) && !json_object_get(o, c) ? c : k;
        if (!json_object_get(o, name))
            json_object_set_new(o, name, as_read(p, x));
        free(n);
    }
    return o;
}

/* The value at JSON pointer path of v as core reads the keys (member()),
 * borrowed; NULL when absent. */
static const json_t *at_pointer(const mf_profile *p, const json_t *v, const char *path)
{
    char seg[256];
    while (v && path && *path == '/') {
        const char *e = strchr(path + 1, '/');
        size_t n = e ? (size_t)(e - path - 1) : strlen(path + 1);
        if (n >= sizeof seg)
            return NULL;
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {   /* ~1 is '/', ~0 is '~' */
            char c = path[1 + i];
            if (c == '~' && i + 1 < n && (path[2 + i] == '0' || path[2 + i] == '1'))
                c = path[2 + i++] == '1' ? '/' : '~';
            seg[k++] = c;
        }
        seg[k] = '\0';
        if (json_is_object(v)) {
            v = member(p, v, seg);
        } else if (json_is_array(v)) {
            char *end;
            unsigned long i = strtoul(seg, &end, 10);
            v = *seg && !*end ? json_array_get(v, i) : NULL;
        } else {
            v = NULL;
        }
        path = e;
    }
    return v;
}

/* Does PCRE2 (the seed's regex dialect, UTF mode) refuse the pattern s? */
static bool bad_regex(const json_t *s)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)json_string_value(s), json_string_length(s), PCRE2_UTF, &code, &off,
                                   NULL);
    pcre2_code_free(re);
    return !re;
}

/* Is the quote at q in msg escaped (an odd run of backslashes before it)? A
 * preview of a string that holds quotes shows them as `\"` (run 41). */
static bool escaped(const char *msg, const char *q)
{
    size_t n = 0;
    while (q > msg && q[-1] == '\\')
        q--, n++;
    return n % 2 == 1;
}

/* Does msg show text, whole or as the truncated preview core's messages give
 * a long value ("expected array, got string \"<first characters>...\"")? */
static bool shows_value(const char *msg, const char *text)
{
    if (strstr(msg, text))
        return true;
    for (const char *p = strstr(msg, "...\""); p; p = strstr(p + 1, "...\"")) {
        const char *q = p;
        while (q > msg && (q[-1] != '"' || escaped(msg, q - 1)))
            q--;
        size_t n = (size_t)(p - q);
        if (q > msg && n >= 8 && strlen(text) > n && strncmp(text, q, n) == 0)
            return true;
    }
    return false;
}

int mf_oracle_rejected_reading(const mf_profile *p, const json_t *truth, const mf_error *e)
{
    char why[200];
    if (e->tier != 2 || !p->schema || mf_oracle_schema_validate(p->schema, truth, why, sizeof why) != 0)
        return 0;
    const json_t *x = at_pointer(p, truth, e->path ? e->path : "");
    if (!x) { /* what core rejected is not in the input: core's own, unless the input as core reads its keys
               * is invalid anyway (`files_cha|-nged:` with no value is files_changed: null, no list) */
        json_t *read = as_read(p, truth);
        int valid = mf_oracle_schema_validate(p->schema, read, why, sizeof why) == 0;
        json_decref(read);
        return valid;
    }
    if (e->type && !strcmp(e->type, "INVALID_REGEX"))
        return !(json_is_string(x) && bad_regex(x));   /* the input's own pattern does not compile */
    if (json_is_object(x) || json_is_array(x))
        return 0;
    char *text = json_is_string(x) ? strdup(json_string_value(x)) : json_dumps(x, JSON_ENCODE_ANY);
    bool own = text && e->message && shows_value(e->message, text);
    free(text);
    if (!own && json_is_string(x) && e->message) {  /* core's messages quote a string JSON-escaped: "-d\"" */
        char *q = json_dumps(x, JSON_ENCODE_ANY);
        size_t n = q ? strlen(q) : 0;
        if (n >= 2) {
            q[n - 1] = '\0';
            own = shows_value(e->message, q + 1);
        }
        free(q);
    }
    return !own;
}

int mf_oracle_clean(const mf_profile *p, const mf_options *opt, const char *clean, size_t len, json_t **truth,
                    mf_verdict *v)
{
    *truth = NULL;
    json_t *t = NULL;
    if (mf_oracle_truth(p, clean, len, &t, v) != 0) {
        v->ran = true;
        return 2;
    }
    start(v);
    mf_result *r = mf_repair(p, clean, len, opt);
    if (!r) {
        json_decref(t);
        snprintf(v->detail, sizeof v->detail, "repair returned NULL");
        v->failed = true;
        return 1;
    }
    int rc = 0;
    if (r->status != MF_ACCEPTED && mf_oracle_rejected_reading(p, t, &r->error)) {
        /* the strict load satisfies the profile's schema by the oracles' own validator */
        snprintf(v->detail, sizeof v->detail, "clean artifact misread: its strict load satisfies the schema, but core "
                 "rejects it (tier 2 %s: %.200s)", r->error.type ? r->error.type : "?",
                 r->error.message ? r->error.message : "");
        rc = 3;
    } else if (r->status != MF_ACCEPTED && r->error.tier >= 2) {
        snprintf(v->detail, sizeof v->detail, "clean artifact rejected: %s: %s", r->error.type ? r->error.type : "?",
                 r->error.message ? r->error.message : "");
        rc = 2;
    } else if (r->status != MF_ACCEPTED) {
        snprintf(v->detail, sizeof v->detail, "clean artifact misread: strict %s but rejected (tier 1 %s: %.200s)",
                 p->format == MF_FORMAT_JSON ? "JSON" : "YAML", r->error.type ? r->error.type : "?",
                 r->error.message ? r->error.message : "");
        rc = 3;
    } else if (r->warnings.count || r->repair_applied) {
        snprintf(v->detail, sizeof v->detail, "clean artifact gives %zu warnings (first %s: %s), candidate %s",
                 r->warnings.count, r->warnings.count ? r->warnings.items[0].rule : "-",
                 r->warnings.count ? r->warnings.items[0].message : "-", r->candidate ? r->candidate : "?");
        rc = 1;
    } else if (!json_equal(r->value, t)) {
        char d[300];
        first_diff(r->value, t, d, sizeof d);
        snprintf(v->detail, sizeof v->detail, "clean artifact misread: no warning, but not its strict load: %s", d);
        rc = 3;
    }
    mf_result_free(r);
    if (rc == 0 || rc == 3)
        *truth = t;
    else
        json_decref(t);
    v->failed = rc == 1 || rc == 3;
    return rc;
}
