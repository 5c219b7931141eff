/* test_schema_walk.c - the single walk (mf_schema_gate: schema normalization
 * and validation together) against the two passes it replaces
 * (mf_norm_schema over the whole value, then mf_schema_check), and the alias
 * walk the YAML loader lets mf_normalize skip against always running it.
 *
 * Values: every seed under every profile of its format, and variants of each
 * seed with one node changed (two per node, in turn: a string, a real, a list of strings, an empty
 * object, a member dropped, a string uppercased, a key respelled), so that
 * errors come up at every depth and in every order, and the normalization
 * rules (prose lists, integer reals, enum case, defaults, aliases) fire next
 * to them. */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "file_walk.h"
#include "schema_compile.h"

#define SEEDS MALFORM_SOURCE_DIR "/corpus/seeds"
#define KINDS 7

static char *dump(const json_t *v)
{
    return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
}

static void assert_same_warnings(const mf_warnings *a, const mf_warnings *b, const char *what)
{
    if (a->count != b->count)
        fail_msg("%s: %zu warnings in one walk, %zu in two", what, a->count, b->count);
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i].rule, b->items[i].rule) || strcmp(a->items[i].message, b->items[i].message))
            fail_msg("%s: warning %zu differs:\n  %s\n  %s", what, i, a->items[i].message, b->items[i].message);
}

static void assert_same_error(const mf_error *a, const mf_error *b, const char *what)
{
    if (a->tier != b->tier || strcmp(a->type ? a->type : "", b->type ? b->type : "") ||
        strcmp(a->path ? a->path : "", b->path ? b->path : "") ||
        strcmp(a->message ? a->message : "", b->message ? b->message : ""))
        fail_msg("%s: one walk says %s at %s: %s\ntwo walks say %s at %s: %s", what, a->type, a->path, a->message,
                 b->type, b->path, b->message);
}

static size_t values_checked, rejected;

/* mf_schema_gate on one copy, mf_norm_schema + mf_schema_check on another: same verdict, error, warnings, value. */
static void compare_walks(const mf_profile *p, const json_t *v, const char *what)
{
    json_t *one = json_deep_copy(v), *two = json_deep_copy(v);
    mf_warnings w1 = {0}, w2 = {0};
    mf_error e1 = {0}, e2 = {0};
    int rc1 = mf_schema_gate(p, one, &w1, &e1);
    int rc2 = mf_norm_schema(p, two, &w2);
    if (rc2 == 0)
        rc2 = mf_schema_check(p->compiled->schema, two, &e2);
    if (rc1 != rc2)
        fail_msg("%s: one walk rc %d, two walks rc %d (%s)", what, rc1, rc2, e1.message ? e1.message : e2.message);
    if (rc1) {
        assert_same_error(&e1, &e2, what);
        rejected++;
    } else {
        assert_same_warnings(&w1, &w2, what);
        if (!json_equal(one, two)) {
            char *a = dump(one), *b = dump(two);
            fail_msg("%s: values differ\n  %s\n  %s", what, a, b);
        }
    }
    values_checked++;
    mf_warnings_clear(&w1);
    mf_warnings_clear(&w2);
    mf_error_clear(&e1);
    mf_error_clear(&e2);
    json_decref(one);
    json_decref(two);
}

/* The k-th container or scalar of v in document order (k counts down), as parent + key/index. */
static bool nth_node(json_t *v, size_t *k, json_t **parent, const char **key, size_t *idx)
{
    if (json_is_object(v)) {
        for (void *it = json_object_iter(v); it; it = json_object_iter_next(v, it)) {
            if ((*k)-- == 0) {
                *parent = v, *key = json_object_iter_key(it);
                return true;
            }
            if (nth_node(json_object_iter_value(it), k, parent, key, idx))
                return true;
        }
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++) {
            if ((*k)-- == 0) {
                *parent = v, *key = NULL, *idx = i;
                return true;
            }
            if (nth_node(json_array_get(v, i), k, parent, key, idx))
                return true;
        }
    }
    return false;
}

static json_t *upper(const json_t *s)
{
    char *u = strdup(json_string_value(s));
    for (char *c = u; *c; c++)
        *c = (char)toupper((unsigned char)*c);
    json_t *r = json_string(u);
    free(u);
    return r;
}

/* A copy of v with node n changed by kind; NULL when there is no node n. */
static json_t *variant(const json_t *v, size_t n, int kind)
{
    json_t *c = json_deep_copy(v), *parent = NULL;
    const char *key = NULL;
    size_t idx = 0, k = n;
    if (!nth_node(c, &k, &parent, &key, &idx)) {
        json_decref(c);
        return NULL;
    }
    json_t *old = key ? json_object_get(parent, key) : json_array_get(parent, idx), *nv = NULL;
    switch (kind) {
    case 0: nv = json_string("x"); break;
    case 1: nv = json_real(3.0); break;
    case 2: nv = json_pack("[ss]", "a", "b"); break;
    case 3: nv = json_object(); break;
    case 4: nv = json_is_string(old) ? upper(old) : json_null(); break;
    case 5: /* drop the member (defaults, required) */
        if (key)
            json_object_del(parent, key);
        else
            json_array_remove(parent, idx);
        return c;
    default: { /* respell the key (aliases), keeping its place */
        if (!key)
            return c;
        char spelled[256];
        snprintf(spelled, sizeof spelled, "%s", key);
        for (char *s = spelled; *s; s++)
            *s = *s == '_' ? '-' : (char)toupper((unsigned char)*s);
        json_t *rest = json_object(), *kept = json_incref(old);
        bool after = false;
        for (void *it = json_object_iter(parent); it; it = json_object_iter_next(parent, it)) {
            after = after || strcmp(json_object_iter_key(it), key) == 0;
            if (after && strcmp(json_object_iter_key(it), key) != 0)
                json_object_set(rest, json_object_iter_key(it), json_object_iter_value(it));
        }
        json_object_del(parent, key);
        json_object_set_new(parent, spelled, kept);
        json_object_update(parent, rest);
        json_decref(rest);
        return c;
    }
    }
    if (key)
        json_object_set_new(parent, key, nv);
    else
        json_array_set_new(parent, idx, nv);
    return c;
}

/* mf_normalize after loading text with the loader's hint, and with the alias walk forced: the same outcome. */
static void compare_alias_skip(const mf_profile *p, const char *text, const char *what)
{
    json_t *a = NULL, *b = NULL;
    bool renamed = false;
    mf_yaml_load_opts lo = {.profile = p, .renamed_key = &renamed};
    mf_error e1 = {0}, e2 = {0};
    if (mf_yaml_load(text, strlen(text), &lo, &a, &e1)) {
        mf_error_clear(&e1);
        return;
    }
    mf_yaml_load_opts plain = {.profile = p};
    assert_int_equal(mf_yaml_load(text, strlen(text), &plain, &b, &e2), 0);
    mf_warnings w1 = {0}, w2 = {0};
    static const mf_options no_options;
    int rc1 = mf_normalize(p, &no_options, &a, !renamed, &w1, &e1);
    int rc2 = mf_normalize(p, &no_options, &b, false, &w2, &e2);
    if (rc1 != rc2)
        fail_msg("%s: rc %d with the loader's hint, %d without", what, rc1, rc2);
    if (rc1) {
        assert_same_error(&e1, &e2, what);
    } else {
        assert_same_warnings(&w1, &w2, what);
        assert_true(json_equal(a, b));
    }
    mf_warnings_clear(&w1);
    mf_warnings_clear(&w2);
    mf_error_clear(&e1);
    mf_error_clear(&e2);
    json_decref(a);
    json_decref(b);
}

static void each_seed(void (*fn)(const mf_profile *, const json_t *, const char *))
{
    DIR *top = opendir(SEEDS);
    assert_non_null(top);
    struct dirent *d;
    while ((d = readdir(top))) {
        if (d->d_name[0] == '.')
            continue;
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", SEEDS, d->d_name);
        DIR *sub = opendir(dir);
        struct dirent *f;
        while (sub && (f = readdir(sub))) {
            if (f->d_name[0] == '.')
                continue;
            char path[2048];
            snprintf(path, sizeof path, "%s/%s", dir, f->d_name);
            size_t len = 0;
            char *text = fw_slurp(path, &len);
            assert_non_null(text);
            bool yaml = strstr(f->d_name, ".yaml") != NULL;
            json_t *v = NULL;
            mf_error e = {0};
            if (yaml)
                mf_yaml_load(text, len, NULL, &v, &e);
            else
                v = json_loadb(text, len, 0, NULL);
            mf_error_clear(&e);
            assert_non_null(v);
            for (size_t i = 0; i < mf_profiles_count(); i++) {
                const mf_profile *p = mf_profiles_at(i);
                if ((p->format == MF_FORMAT_YAML) == yaml)
                    fn(p, v, f->d_name);
            }
            json_decref(v);
            free(text);
        }
        if (sub)
            closedir(sub);
    }
    closedir(top);
}

static void walks_on(const mf_profile *p, const json_t *v, const char *seed)
{
    char what[512];
    snprintf(what, sizeof what, "%s as %s", seed, p->name);
    compare_walks(p, v, what);
    for (size_t n = 0;; n++) {
        bool any = false;
        for (int j = 0; j < 2; j++) { /* two of the changes per node, in turn */
            int kind = (int)((n + (size_t)j * 3) % KINDS);
            json_t *x = variant(v, n, kind);
            if (!x)
                break;
            any = true;
            snprintf(what, sizeof what, "%s as %s, node %zu change %d", seed, p->name, n, kind);
            compare_walks(p, x, what);
            json_decref(x);
        }
        if (!any)
            break;
    }
}

static void aliases_on(const mf_profile *p, const json_t *v, const char *seed)
{
    if (p->format != MF_FORMAT_YAML)
        return;
    char what[512];
    for (size_t n = 0;; n += 3) {
        json_t *x = variant(v, n, KINDS - 1);
        if (!x)
            break;
        char *text = dump(x); /* JSON text is YAML flow */
        snprintf(what, sizeof what, "%s as %s, key %zu respelled", seed, p->name, n);
        compare_alias_skip(p, text, what);
        free(text);
        json_decref(x);
    }
}

static void one_walk_is_two(void **state)
{
    (void)state;
    values_checked = rejected = 0;
    each_seed(walks_on);
    print_message("%zu values, %zu rejected\n", values_checked, rejected);
    /* the variants reach both verdicts many times over */
    assert_true(values_checked > 5000);
    assert_true(rejected > 1000 && rejected < values_checked);
}

static void alias_skip_is_safe(void **state)
{
    (void)state;
    each_seed(aliases_on);
    /* the hint itself: a respelled key is seen, a canonical text is not */
    const mf_profile *p = mf_profiles_get("bead_status");
    bool renamed = false;
    mf_yaml_load_opts lo = {.profile = p, .renamed_key = &renamed};
    json_t *v = NULL;
    mf_error e = {0};
    assert_int_equal(mf_yaml_load("bead_id: a\nstatus: done\n", 24, &lo, &v, &e), 0);
    assert_false(renamed);
    json_decref(v);
    assert_int_equal(mf_yaml_load("bead_id: a\nStatus: done\n", 24, &lo, &v, &e), 0);
    assert_true(renamed);
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(one_walk_is_two),
        cmocka_unit_test(alias_skip_is_safe),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    mf_profiles_shutdown();
    return rc;
}
