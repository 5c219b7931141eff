/* test_memory_bound.c - peak heap of mf_repair plus writing its output stays
 * within 16x the input size plus a constant, on inputs of every shape:
 * malformed (many repairs, so many warnings), clean, node-dense and
 * pathological (alias bombs, deep nesting, binary). Heap bytes are counted
 * by the fault allocator (libyaml and jansson included), so the bound is
 * exact and the same under ASan. Inputs are ~1 MB; bench/bench_memory.sh
 * measures RSS of the CLI on 1, 10 and 50 MB. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "malform/malform.h"
#include "fault_alloc.h"

#define TARGET 1000000
#define FACTOR 16
#define CONSTANT (4u << 20)

typedef void (*gen_fn)(FILE *f);

static void quotes(FILE *f) { for (int i = 0; ftell(f) < TARGET; i++) fprintf(f, "- \"item %06d\n", i); }
static void colon_space(FILE *f)
{
    for (int i = 0; ftell(f) < TARGET; i++)
        fprintf(f, i % 3 ? "key%06d:value %d\n" : "key%06d: value %d\n", i, i);
}
static void clean(FILE *f) { for (int i = 0; ftell(f) < TARGET; i++) fprintf(f, "- id: %d\n  name: text %d\n", i, i); }
static void short_items(FILE *f) { while (ftell(f) < TARGET) fputs("- a\n", f); }
static void json_commas(FILE *f)
{
    fputs("[", f);
    for (int i = 0; ftell(f) < TARGET; i++)
        fprintf(f, "{\"id\": %d, \"name\": \"n%d\",},\n", i, i);
    fputs("{}]\n", f);
}
static void laughs(FILE *f)
{
    fputs("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n", f);
    const char *n = "abcdefghij";
    for (int i = 1; i < 10; i++)
        fprintf(f, "%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", n[i], n[i], n[i - 1], n[i - 1],
                n[i - 1], n[i - 1], n[i - 1], n[i - 1], n[i - 1], n[i - 1], n[i - 1]);
}
static void deep(FILE *f) { while (ftell(f) < TARGET) fputs("[", f); }
static void binary(FILE *f) { for (int i = 0; i < TARGET; i++) fputc(i % 7 ? 0 : '\n', f); }

static const struct { const char *name; gen_fn gen; } shapes[] = {
    {"malformed-quotes", quotes}, {"missing-colon-space", colon_space}, {"clean", clean},
    {"node-dense", short_items}, {"json-trailing-commas", json_commas}, {"alias-bomb", laughs},
    {"deep-nesting", deep}, {"binary", binary},
};

int main(void)
{
    int failures = 0;
    mf_profiles_get("generic_yaml");
    FILE *devnull = fopen("/dev/null", "w");
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        shapes[i].gen(f);
        fclose(f);
        size_t base = fault_live();
        fault_peak_reset();
        mf_result *r = mf_repair(NULL, text, len, NULL);
        json_t *j = r ? mf_result_to_json(r) : NULL;
        if (j)
            json_dumpf(j, devnull, JSON_INDENT(2));
        if (r && r->value)
            mf_value_write(r->value, false, devnull);
        json_decref(j);
        size_t peak = fault_peak() - base;
        bool ok = r && peak <= FACTOR * len + CONSTANT;
        printf("%-22s %8zu bytes  %-8s %-18s peak %9zu bytes = %5.1fx  %s\n", shapes[i].name, len,
               r && r->status == MF_ACCEPTED ? "accepted" : "rejected",
               r && r->error.type ? r->error.type : "", peak, (double)peak / (double)len, ok ? "ok" : "FAIL");
        failures += !ok;
        mf_result_free(r);
        free(text);
    }
    fclose(devnull);
    return failures ? 1 : 0;
}
