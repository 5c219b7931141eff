/* test_oom.c - out of memory anywhere in core is an OUT_OF_MEMORY rejection
 * (or a NULL result), never a crash, a leak or another error type.
 *
 * For each input, one clean run counts its allocations; then the run is
 * repeated failing the 1st, 2nd, ... Nth allocation in turn (libyaml's and
 * jansson's included: both are linked statically under the fault
 * allocator). The output side gets the same treatment: the result object,
 * its JSON and YAML text. Run under ASan+UBSan by the sanitize preset. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/malform.h"
#include "fault_alloc.h"

static int failures;

#define CHECK(cond, ...) do { if (!(cond)) { failures++; fprintf(stderr, "FAIL: " __VA_ARGS__); fputc('\n', stderr); } } while (0)

static const struct { const char *profile, *text; } inputs[] = {
    {"generic_yaml", "name: demo\nitems:\n  - a\n  - b\nnote:value\n"},
    {"generic_yaml", "Here it is:\n```yaml\nname: \"demo\nlist:\n - x\n -  y\nkey:val\n```\nThanks!\n"},
    {"generic_yaml", "a: &x [1, 2, {b: c}]\nd: *x\ne: [*x, *x]\n"},
    {"generic_json", "Sure: {\"a\": [1, 2,], 'b': \"x\", c: true,}\n"},
    {"generic_json", "cb({\"a\": \"b, \"c\": 1}, \"d\": [x y, ..., 0x1F], \"e\": \"p\" + \"q\", \"f\": (1, 2), \"g\" 2});"},
    {"prd", "title: T\nsummary: s\ngoals:\n  - g\nstories:\n  - id: S1\n    text: t\n"},
    {NULL, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["},
};

/* One repair of input i with the nth allocation failing (0: none). */
static void run_one(size_t i, size_t nth, size_t *calls)
{
    const mf_profile *p = inputs[i].profile ? mf_profiles_get(inputs[i].profile) : NULL;
    const char *t = inputs[i].text;
    fault_arm(nth);
    mf_result *r = mf_repair(p, t, strlen(t), NULL);
    if (calls)
        *calls = fault_calls();
    bool fired = fault_fired();
    if (r && fired)
        CHECK(r->status == MF_REJECTED && r->error.type && !strcmp(r->error.type, "OUT_OF_MEMORY"),
              "input %zu, allocation %zu failed: %s %s (%s)", i, nth,
              r->status == MF_ACCEPTED ? "accepted" : "rejected", r->error.type ? r->error.type : "-",
              r->error.message ? r->error.message : "");
    if (!r)
        CHECK(fired, "input %zu: NULL result without an allocation failure", i);
    /* The output side, with the same allocation failing again counted from here. */
    if (r && !fired) {
        fault_arm(nth);
        json_t *j = mf_result_to_json(r);
        char *s = j ? json_dumps(j, JSON_INDENT(2)) : NULL;
        char *y = r->value ? mf_value_to_yaml(r->value) : NULL;
        FILE *devnull = fopen("/dev/null", "w");
        int w = r->value && devnull ? mf_value_write(r->value, false, devnull) : 0;
        if (devnull)
            fclose(devnull);
        fault_arm(0);
        if (!j || !s || (r->value && (!y || w)))
            CHECK(nth > 0, "input %zu: output failed without an allocation failure", i);
        free(s);
        free(y);
        json_decref(j);
    }
    fault_arm(0);
    mf_result_free(r);
}

int main(void)
{
    mf_profiles_get("generic_yaml"); /* built-in profiles load once, outside the measured runs */
    size_t total = 0;
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        size_t calls = 0;
        run_one(i, 0, &calls);
        CHECK(calls > 0, "input %zu made no allocation", i);
        for (size_t n = 1; n <= calls + 1; n++)
            run_one(i, n, NULL);
        total += calls;
    }
    printf("%s: failed each of %zu allocations in turn over %zu inputs\n", failures ? "FAIL" : "ok", total,
           sizeof inputs / sizeof *inputs);
    return failures ? 1 : 0;
}
