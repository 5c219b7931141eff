/* bench_core.c - core speed, as ratios against baselines measured in the same run.
 *
 *   clean YAML: mf_repair (full pipeline, the seed's own profile) over a bare
 *               libyaml document load of the same bytes (goal <= 1.5x)
 *   clean JSON: mf_repair over a bare jansson json_loadb (for reference)
 *   malformed:  MB/s of mf_repair over every rule fixture input, and the same
 *               bytes' share of the clean-YAML rate
 * Each figure is the best of 5 rounds of at least 0.3 s, so a busy machine
 * skews both sides alike. Usage: bench_core SOURCE_DIR */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>
#include "internal.h"

typedef struct { char *text; size_t len; const mf_profile *p; } input;
typedef struct { input *v; size_t n, cap; size_t bytes; } inputs;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void add_file(inputs *in, const char *path, const mf_profile *p)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    mf_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    if (in->n == in->cap)
        in->v = realloc(in->v, (in->cap = in->cap ? in->cap * 2 : 64) * sizeof *in->v);
    in->v[in->n].len = b.len;
    in->v[in->n].text = mf_buf_detach(&b);
    in->v[in->n].p = p;
    in->bytes += in->v[in->n].len;
    in->n++;
}

/* Files of dir (one level, or two with nested=1) ending in ext. */
static void add_dir(inputs *in, const char *dir, const char *ext, const mf_profile *p, int nested)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (nested) {
            add_dir(in, path, ext, p, 0);
            continue;
        }
        size_t l = strlen(e->d_name), el = strlen(ext);
        if (l > el && strcmp(e->d_name + l - el, ext) == 0)
            add_file(in, path, p);
    }
    closedir(d);
}

static void libyaml_load_all(const input *x)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)x->text, x->len);
    while (yaml_parser_load(&parser, &doc)) {
        int end = !yaml_document_get_root_node(&doc);
        yaml_document_delete(&doc);
        if (end)
            break;
    }
    yaml_parser_delete(&parser);
}

typedef enum { RUN_REPAIR, RUN_LIBYAML, RUN_JANSSON } mode;

static void run_once(const inputs *in, mode m)
{
    for (size_t i = 0; i < in->n; i++) {
        const input *x = &in->v[i];
        if (m == RUN_REPAIR)
            mf_result_free(mf_repair(x->p, x->text, x->len, NULL));
        else if (m == RUN_LIBYAML)
            libyaml_load_all(x);
        else
            json_decref(json_loadb(x->text, x->len, JSON_DECODE_ANY, NULL));
    }
}

/* Seconds per pass over the inputs: best of 5 rounds of >= 0.3 s. */
static double seconds_per_pass(const inputs *in, mode m)
{
    double best = 1e30;
    for (int round = 0; round < 5; round++) {
        int passes = 0;
        double t0 = now(), t;
        do {
            run_once(in, m);
            passes++;
        } while ((t = now() - t0) < 0.3);
        if (t / passes < best)
            best = t / passes;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bench_core SOURCE_DIR\n");
        return 2;
    }
    char dir[4096];
    inputs yaml = {0}, json = {0}, bad = {0};
    for (size_t i = 0; i < mf_profiles_count(); i++) {
        const mf_profile *p = mf_profiles_at(i);
        snprintf(dir, sizeof dir, "%s/corpus/seeds/%s", argv[1], p->name);
        if (p->format == MF_FORMAT_YAML)
            add_dir(&yaml, dir, ".yaml", p, 0);
        else
            add_dir(&json, dir, ".json", p, 0);
    }
    snprintf(dir, sizeof dir, "%s/tests/fixtures/rules", argv[1]);
    add_dir(&bad, dir, ".in", NULL, 1);
    if (yaml.n == 0) {
        fprintf(stderr, "bench_core: no clean YAML seeds under %s/corpus/seeds\n", argv[1]);
        return 2;
    }
    printf("malform bench (best of 5 rounds >= 0.3 s each; ratios measured in this run)\n");
    double r = seconds_per_pass(&yaml, RUN_REPAIR), b = seconds_per_pass(&yaml, RUN_LIBYAML);
    printf("clean YAML   %3zu files %8zu B  repair %8.1f us  libyaml load %8.1f us  ratio %.2fx (goal <= 1.50x)\n",
           yaml.n, yaml.bytes, r * 1e6, b * 1e6, r / b);
    double yaml_mbs = (double)yaml.bytes / r / 1e6;
    if (json.n) {
        double rj = seconds_per_pass(&json, RUN_REPAIR), bj = seconds_per_pass(&json, RUN_JANSSON);
        printf("clean JSON   %3zu files %8zu B  repair %8.1f us  jansson load %8.1f us  ratio %.2fx\n",
               json.n, json.bytes, rj * 1e6, bj * 1e6, rj / bj);
    }
    if (bad.n) {
        double rb = seconds_per_pass(&bad, RUN_REPAIR);
        double mbs = (double)bad.bytes / rb / 1e6;
        printf("malformed    %3zu files %8zu B  repair %8.1f us  %.2f MB/s (%.2fx the clean-YAML rate of %.2f MB/s)\n",
               bad.n, bad.bytes, rb * 1e6, mbs, mbs / yaml_mbs, yaml_mbs);
    }
    mf_profiles_shutdown();
    return 0;
}
