/* fuzz_yaml_fast.c - the fast YAML reader (core/src/yaml_fast.c) held to
 * libyaml (core stage target; uses core's internal API). Whenever the fast
 * reader accepts an input, libyaml must parse it as one document with
 * exactly the same node events, and mf_yaml_load must give the same value
 * with and without the fast reader (through generic_yaml and through an
 * artifact profile, whose string fields and key aliasing act while loading).
 * A difference aborts with both event traces on stderr. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "yaml_event_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void differ(const char *what, const char *text, size_t len, const char *a, const char *b)
{
    fprintf(stderr, "fuzz_yaml_fast: %s\n--- text\n%.*s\n--- fast\n%s\n--- libyaml\n%s\n", what, (int)len, text,
            a ? a : "", b ? b : "");
    abort();
}

/* mf_yaml_load with and without the fast reader through profile p. */
static void loads_alike(const mf_profile *p, const char *text, size_t len)
{
    bool r1 = false, r2 = false;
    mf_yaml_load_opts fast = {.profile = p, .renamed_key = &r1}, lib = fast;
    lib.renamed_key = &r2;
    lib.libyaml_only = true;
    json_t *a = NULL, *b = NULL;
    mf_error e1 = {0}, e2 = {0};
    int rc1 = mf_yaml_load(text, len, &fast, &a, &e1), rc2 = mf_yaml_load(text, len, &lib, &b, &e2);
    if (rc1 != rc2 || r1 != r2 || (rc1 ? strcmp(e1.type, e2.type) != 0 : !json_equal(a, b))) {
        char *x = a ? json_dumps(a, JSON_ENCODE_ANY) : NULL, *y = b ? json_dumps(b, JSON_ENCODE_ANY) : NULL;
        differ(p->name, text, len, x ? x : e1.message, y ? y : e2.message);
    }
    json_decref(a);
    json_decref(b);
    mf_error_clear(&e1);
    mf_error_clear(&e2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    yet_trace fast = {0}, lib = {0};
    if (size <= 1 << 16 && yet_fast(text, size, &fast)) {
        bool parsed = yet_libyaml(text, size, &lib);
        if (!parsed || strcmp(fast.s, lib.s) != 0)
            differ(parsed ? "events differ" : "libyaml rejects what the fast reader accepted", text, size, fast.s,
                   lib.s);
        loads_alike(mf_profiles_get("generic_yaml"), text, size);
        loads_alike(mf_profiles_get(size % 2 ? "prd" : "interview"), text, size);
    }
    free(fast.s);
    free(lib.s);
    return 0;
}
