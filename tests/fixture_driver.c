/* fixture_driver.c - runs rule fixtures and clean seed corpora as data.
 *
 *   fixture_driver FIXTURES_DIR        rules/RULE/CASE.in + .json|.reject [+ .opts.json]
 *
 * .opts.json: "profile", "options", "expect_no_rule" (the rule must not fire)
 * and "expect_message" (a warning of the rule must say that text).
 *   fixture_driver --seeds SEEDS_DIR   <profile>/<file>: clean artifacts, zero warnings
 *
 * For every accepted case it also checks idempotence: repairing the canonical
 * output of the value (in the profile's format) gives the same value and no
 * warnings. For yaml.* rules, the rule's text function applied to its own
 * output changes nothing. Every registered rule must have a fixture. Extra
 * test profiles are loaded from the .yaml files in FIXTURES_DIR/profiles. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "internal.h"
#include "malform/oracles.h"

static int passed, failed;

/* snprintf into a path buffer; a path that does not fit is cut (and then not found). */
static void pathf(char *out, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pathf(char *out, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out, n, fmt, ap);
    va_end(ap);
}
static mf_profile *extra[64];
static size_t nextra;

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    mf_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    *len = b.len;
    return mf_buf_detach(&b);
}

static bool exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static const mf_profile *profile_named(const char *name)
{
    const mf_profile *p = mf_profiles_get(name);
    for (size_t i = 0; !p && i < nextra; i++)
        if (strcmp(extra[i]->name, name) == 0)
            p = extra[i];
    return p;
}

static void fail(const char *what, const char *fmt, const char *detail)
{
    failed++;
    printf("FAIL %s: ", what);
    printf(fmt, detail ? detail : "");
    printf("\n");
}

/* Does a warning of rule in r say text (a fixture's `expect_message`)? */
static bool warned_with(const mf_result *r, const char *rule, const char *text)
{
    for (size_t i = 0; i < r->warnings.count; i++)
        if (r->warnings.items[i].rule && !strcmp(r->warnings.items[i].rule, rule) && r->warnings.items[i].message &&
            strstr(r->warnings.items[i].message, text))
            return true;
    return false;
}

static char *describe(const mf_result *r)
{
    json_t *j = mf_result_to_json(r);
    char *s = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    return s;
}

/* Repairing the canonical output again must give the same value and no warnings. */
static bool check_idempotent(const char *what, const mf_profile *p, const mf_options *o, const json_t *v)
{
    char *text = p->format == MF_FORMAT_JSON ? mf_value_to_json(v) : mf_value_to_yaml(v);
    mf_result *r = mf_repair(p, text, strlen(text), o);
    bool ok = r->status == MF_ACCEPTED && r->warnings.count == 0 && json_equal(r->value, v);
    if (!ok) {
        char *d = describe(r);
        mf_buf m = {0};
        mf_buf_printf(&m, "canonical output is not a fixed point:\n--- canonical\n%s--- result\n%s", text, d);
        fail(what, "%s", mf_buf_cstr(&m));
        mf_buf_free(&m);
        free(d);
    }
    mf_result_free(r);
    free(text);
    return ok;
}

static bool check_text_rule_twice(const char *what, const char *rule, const char *in, size_t len,
                                  const mf_profile *p)
{
    for (const mf_text_rule *t = mf_yaml_repairs; t->rule_id; t++) {
        if (strcmp(t->rule_id, rule) != 0)
            continue;
        mf_buf once = {0}, twice = {0};
        mf_warnings w = {0};
        t->fn(in, len, &once, p, &w);
        size_t again = t->fn(mf_buf_cstr(&once), once.len, &twice, p, &w);
        bool ok = again == 0 && once.len == twice.len && memcmp(mf_buf_cstr(&once), mf_buf_cstr(&twice), once.len) == 0;
        if (!ok)
            fail(what, "rule applied twice differs from once:\n%s", mf_buf_cstr(&twice));
        mf_buf_free(&once);
        mf_buf_free(&twice);
        mf_warnings_clear(&w);
        if (!ok)
            return false;
    }
    return true;
}

/* A fixture whose input a strict load already reads (as another value than
 * the fixture's) shows its rule rewriting valid text: the rule must say so
 * (mf_rule_reads_valid_text), for the fuzz oracles keep a valid text as
 * written unless such a rule names it. */
static void check_valid_text(const char *what, const char *rule, const char *in, size_t len, const mf_profile *p,
                             const json_t *want)
{
    json_t *t = NULL;
    mf_verdict v;
    if (!mf_rule_reads_valid_text(rule) && mf_oracle_truth(p, in, len, &t, &v) == 0 && !json_equal(t, want)) {
        char *ts = json_dumps(t, JSON_COMPACT | JSON_ENCODE_ANY);
        fail(what, "the input is strictly valid (it loads as %s) and the rule rewrites it, but "
             "mf_rule_reads_valid_text does not list the rule", ts);
        free(ts);
    }
    json_decref(t);
}

static void run_case(const char *rule, const char *dir, const char *base)
{
    char path[4096], what[1024];
    pathf(what, sizeof what, "%s/%s", rule, base);
    size_t len, jl;
    pathf(path, sizeof path, "%s/%s.in", dir, base);
    char *in = slurp(path, &len);
    pathf(path, sizeof path, "%s/%s.opts.json", dir, base);
    json_t *opts = exists(path) ? json_load_file(path, 0, NULL) : json_object();
    if (!opts) {
        fail(what, "%s", "bad .opts.json");
        free(in);
        return;
    }
    const char *pname = json_string_value(json_object_get(opts, "profile"));
    if (!pname)
        pname = strncmp(rule, "json.", 5) == 0 ? "generic_json" : "generic_yaml";
    const mf_profile *p = profile_named(pname);
    if (!p) {
        fail(what, "unknown profile %s", pname);
        json_decref(opts);
        free(in);
        return;
    }
    mf_options o;
    mf_options_from_json(json_object_get(opts, "options"), &o);
    bool expect_no_rule = json_is_true(json_object_get(opts, "expect_no_rule"));
    const char *expect_message = json_string_value(json_object_get(opts, "expect_message"));

    mf_result *r = mf_repair(p, in, len, &o);
    char *d = describe(r);
    int before = failed;
    pathf(path, sizeof path, "%s/%s.reject", dir, base);
    char *rej = slurp(path, &jl);
    if (rej) {
        char *nl = strpbrk(rej, "\r\n");
        if (nl)
            *nl = '\0';
        if (r->status != MF_REJECTED || strcmp(r->error.type, rej) != 0)
            fail(what, "expected rejection %s", rej), printf("  got %s\n", d);
        free(rej);
    } else {
        pathf(path, sizeof path, "%s/%s.json", dir, base);
        json_error_t je;
        json_t *want = json_load_file(path, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
        if (!want) {
            fail(what, "cannot read expected value: %s", je.text);
        } else if (r->status != MF_ACCEPTED || !json_equal(r->value, want)) {
            char *ws = json_dumps(want, JSON_COMPACT | JSON_ENCODE_ANY);
            fail(what, "expected value %s", ws);
            printf("  got %s\n", d);
            free(ws);
        } else if (!expect_no_rule && !mf_warnings_has(&r->warnings, rule)) {
            fail(what, "no warning from rule %s", rule), printf("  got %s\n", d);
        } else if (expect_no_rule && mf_warnings_has(&r->warnings, rule)) {
            fail(what, "rule %s fired but must not", rule), printf("  got %s\n", d);
        } else if (expect_message && !warned_with(r, rule, expect_message)) {
            fail(what, "no warning of the rule says \"%s\"", expect_message), printf("  got %s\n", d);
        } else if (check_idempotent(what, p, &o, r->value) && check_text_rule_twice(what, rule, in, len, p)) {
            check_valid_text(what, rule, in, len, p, want);
        }
        json_decref(want);
    }
    if (failed == before)
        passed++;
    free(d);
    mf_result_free(r);
    json_decref(opts);
    free(in);
}

static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted names in dir (caller frees each and the array). */
static char **list_dir(const char *dir, size_t *n)
{
    DIR *d = opendir(dir);
    *n = 0;
    if (!d)
        return NULL;
    size_t cap = 16;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (*n == cap)
            names = realloc(names, (cap *= 2) * sizeof *names);
        names[(*n)++] = mf_strdup0(e->d_name);
    }
    closedir(d);
    qsort(names, *n, sizeof *names, cmpstr);
    return names;
}

static void load_extra_profiles(const char *dir)
{
    size_t n;
    char **names = list_dir(dir, &n);
    for (size_t i = 0; i < n; i++) {
        char path[4096], err[512];
        pathf(path, sizeof path, "%s/%s", dir, names[i]);
        if (strstr(names[i], ".yaml") && nextra < 64) {
            mf_profile *p = mf_profile_load_file(path, err, sizeof err);
            if (p)
                extra[nextra++] = p;
            else
                fail("profiles", "%s", err);
        }
        free(names[i]);
    }
    free(names);
}

static int run_fixtures(const char *root)
{
    char dir[4096];
    pathf(dir, sizeof dir, "%s/profiles", root);
    load_extra_profiles(dir);
    pathf(dir, sizeof dir, "%s/rules", root);
    size_t nrules;
    char **rules = list_dir(dir, &nrules);
    for (size_t i = 0; i < nrules; i++) {
        if (!mf_rules_find(rules[i]))
            fail(rules[i], "%s", "fixture directory names no registered rule");
        char rdir[4096];
        pathf(rdir, sizeof rdir, "%s/%s", dir, rules[i]);
        size_t nf;
        char **files = list_dir(rdir, &nf);
        for (size_t k = 0; k < nf; k++) {
            size_t l = strlen(files[k]);
            if (l > 3 && strcmp(files[k] + l - 3, ".in") == 0) {
                files[k][l - 3] = '\0';
                run_case(rules[i], rdir, files[k]);
            }
            free(files[k]);
        }
        free(files);
    }
    for (size_t i = 0; i < mf_rules_count(); i++) {
        const char *id = mf_rules_at(i)->id;
        bool found = false;
        for (size_t k = 0; k < nrules && !found; k++)
            found = strcmp(rules[k], id) == 0;
        if (!found)
            fail(id, "%s", "registered rule has no fixture directory");
    }
    for (size_t i = 0; i < nrules; i++)
        free(rules[i]);
    free(rules);
    return 0;
}

static int run_seeds(const char *root)
{
    size_t np;
    char **profiles = list_dir(root, &np);
    for (size_t i = 0; i < np; i++) {
        const mf_profile *p = profile_named(profiles[i]);
        if (!p) {
            fail(profiles[i], "%s", "seed directory names no built-in profile");
            free(profiles[i]);
            continue;
        }
        char pdir[4096];
        pathf(pdir, sizeof pdir, "%s/%s", root, profiles[i]);
        size_t nf;
        char **files = list_dir(pdir, &nf);
        size_t count = 0;
        for (size_t k = 0; k < nf; k++) {
            char path[8192], what[1024];
            pathf(path, sizeof path, "%s/%s", pdir, files[k]);
            pathf(what, sizeof what, "%s/%s", profiles[i], files[k]);
            if (strstr(files[k], ".opts.json")) {
                free(files[k]);
                continue;
            }
            count++;
            size_t len;
            char *text = slurp(path, &len);
            char opath[8300];
            pathf(opath, sizeof opath, "%s.opts.json", path);
            json_t *opts = exists(opath) ? json_load_file(opath, 0, NULL) : json_object();
            mf_options o;
            mf_options_from_json(json_object_get(opts, "options"), &o);
            mf_result *r = mf_repair(p, text, len, &o);
            int before = failed;
            if (r->status != MF_ACCEPTED || r->warnings.count != 0 || strcmp(r->candidate, "raw") != 0) {
                char *d = describe(r);
                fail(what, "clean seed must be accepted with zero warnings: %s", d);
                free(d);
            } else {
                json_t *plain = NULL;
                mf_error e = {0};
                if (p->format == MF_FORMAT_JSON) {
                    plain = json_loadb(text, len, JSON_DECODE_ANY, NULL);
                } else {
                    mf_yaml_load_opts lo = {.profile = p};
                    mf_yaml_load(text, len, &lo, &plain, &e);
                }
                if (!plain || !json_equal(plain, r->value))
                    fail(what, "%s", "clean seed value changed by the pipeline");
                else
                    check_idempotent(what, p, &o, r->value);
                json_decref(plain);
                mf_error_clear(&e);
            }
            if (failed == before)
                passed++;
            mf_result_free(r);
            json_decref(opts);
            free(text);
            free(files[k]);
        }
        if (count < 3)
            fail(profiles[i], "%s", "fewer than 3 clean seeds");
        free(files);
        free(profiles[i]);
    }
    free(profiles);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
        run_seeds(argv[2]);
    else if (argc == 2)
        run_fixtures(argv[1]);
    else {
        fprintf(stderr, "usage: fixture_driver FIXTURES_DIR | --seeds SEEDS_DIR\n");
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    for (size_t i = 0; i < nextra; i++)
        mf_profile_free(extra[i]);
    mf_profiles_shutdown();
    return failed ? 1 : 0;
}
