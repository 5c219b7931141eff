/* bench_main.c - execs per CPU second of the fuzz_structured target versus
 * a bare mf_repair call on the same rendered inputs (no engine, no
 * sanitizers). CPU time, not wall time: on a shared machine the wall clock
 * measures the neighbours. usage: bench_structured DIR [SECONDS]
 * (prints one JSON line). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct { char *text; size_t len; char *raw; size_t raw_len; const mf_profile *p; } item;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = (size_t)n;
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s DIR [SECONDS]\n", argv[0]);
        return 2;
    }
    double secs = argc > 2 ? atof(argv[2]) : 5;
    DIR *d = opendir(argv[1]);
    if (!d) {
        fprintf(stderr, "bench: cannot open %s\n", argv[1]);
        return 2;
    }
    item *items = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4096];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        item it = {0};
        it.text = slurp(path, &it.len);
        if (!it.text)
            continue;
        char err[200];
        mf_case *c = mf_case_decode(it.text, it.len, err, sizeof err);
        mf_render r;
        if (!c || mf_case_render(c, &r) < 0) {
            mf_case_free(c);
            free(it.text);
            continue;
        }
        it.raw = r.raw;
        it.raw_len = r.raw_len;
        it.p = r.profile;
        r.raw = NULL;
        mf_render_free(&r);
        mf_case_free(c);
        item *t = realloc(items, (n + 1) * sizeof *t);
        if (!t)
            break;
        items = t;
        items[n++] = it;
    }
    closedir(d);
    if (!n) {
        fprintf(stderr, "bench: no structured cases in %s\n", argv[1]);
        return 2;
    }
    unsigned long long a = 0, b = 0;
    double t0 = now();
    while (now() - t0 < secs)
        for (size_t i = 0; i < n; i++, a++)
            LLVMFuzzerTestOneInput((const uint8_t *)items[i].text, items[i].len);
    double ta = now() - t0;
    mf_options opt = {0};
    opt.max_depth = MF_FUZZ_MAX_DEPTH;
    t0 = now();
    while (now() - t0 < secs)
        for (size_t i = 0; i < n; i++, b++)
            mf_result_free(mf_repair(items[i].p, items[i].raw, items[i].raw_len, &opt));
    double tb = now() - t0;
    printf("{\"inputs\": %zu, \"structured_execs_per_sec\": %.1f, \"bare_core_execs_per_sec\": %.1f, \"ratio\": %.3f}\n",
           n, a / ta, b / tb, (a / ta) / (b / tb));
    for (size_t i = 0; i < n; i++) {
        free(items[i].text);
        free(items[i].raw);
    }
    free(items);
    return 0;
}
