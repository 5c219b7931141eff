/* bench_yaml_repair.c - malformed YAML through the structural repairs, per shape.
 *
 * Each shape is a 10 MB (or MB given as the second argument) text that does not
 * parse until the YAML repairs of seed 000 fix it. For each shape, in a child
 * process of its own (so the peak RSS is the shape's), it prints the MB/s of
 * mf_repair (generic_yaml), the same run's bare libyaml load of the repaired
 * text (mf_result.text) as the baseline and their ratio, the warnings, and the
 * child's peak RSS after the first mf_repair (input text included, before any
 * baseline load) as a multiple of the input size; then the structural
 * repairs alone (groups 1-4 through mf_yaml_repair_group_on, one line model) in MB/s and as a
 * multiple of that libyaml load. A second line per shape gives the loader
 * floor on the repaired text: a bare libyaml event parse (what mf_yaml_load
 * reads), mf_yaml_load itself (events to values), and the end-to-end ceiling
 * they leave: the MB/s mf_repair would reach if the repairs cost nothing.
 * Best of 3 rounds, in process CPU time.
 * Usage: bench_yaml_repair [SOURCE_DIR] [MB] [SHAPE-NAME-SUBSTRING] [--once]
 * --once: one mf_repair per shape in this process, no timing (for callgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>
#include "internal.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts); /* CPU time: steadier than wall time on a shared machine */
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One shape: a line generator called with the item index until size is reached. */
typedef struct {
    const char *name;
    const char *head;
    void (*item)(mf_buf *b, size_t i);
} shape;

static void unclosed_quote(mf_buf *b, size_t i) { (void)i, mf_buf_puts(b, "- \"v\n"); }
static void colon_space(mf_buf *b, size_t i)
{
    mf_buf_printf(b, "  - id: Q%05zu\n    title:Some title number %zu\n    done:false\n", i % 100000, i);
}
static void mixed(mf_buf *b, size_t i)
{
    mf_buf_printf(b, "  -name: step %zu\n    note: see rule: %zu applies\n    code: `x%zu`\n", i, i, i);
}
static void dedented(mf_buf *b, size_t i)
{
    mf_buf_printf(b, "- id: %zu\n  text: \"said \\d+ times\n  tags: [a, b]\n", i);
}

static const shape shapes[] = {
    {"unclosed-quote items", "", unclosed_quote},
    {"colon-space", "items:\n", colon_space},
    {"dash-space+plain-colon+reserved", "steps:\n", mixed},
    {"escape+unclosed-quote", "", dedented},
};

static void libyaml_load(const char *s, size_t n)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    while (yaml_parser_load(&parser, &doc)) {
        int end = !yaml_document_get_root_node(&doc);
        yaml_document_delete(&doc);
        if (end)
            break;
    }
    yaml_parser_delete(&parser);
}

/* A bare event parse: the scanner and parser mf_yaml_load runs, no values built. */
static void libyaml_events(const char *s, size_t n)
{
    yaml_parser_t parser;
    yaml_event_t e;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)s, n);
    while (yaml_parser_parse(&parser, &e)) {
        int end = e.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&e);
        if (end)
            break;
    }
    yaml_parser_delete(&parser);
}

/* Our loader on the repaired text: events to values. */
static void core_load(const char *s, size_t n)
{
    mf_yaml_load_opts lo = {.profile = mf_profiles_get("generic_yaml"), .max_depth = MF_DEFAULT_MAX_DEPTH};
    json_t *v = NULL;
    mf_error err = {0};
    if (mf_yaml_load(s, n, &lo, &v, &err) == 0)
        json_decref(v);
    mf_error_clear(&err);
}

/* Best CPU time of 3 calls of fn on [s, s+n). */
static double best_of(void (*fn)(const char *, size_t), const char *s, size_t n)
{
    double best = 1e30;
    for (int round = 0; round < 3; round++) {
        double t0 = now();
        fn(s, n);
        double t1 = now();
        if (t1 - t0 < best)
            best = t1 - t0;
    }
    return best;
}

static void make_input(mf_buf *in, const shape *sh, size_t bytes)
{
    mf_buf_puts(in, sh->head);
    for (size_t i = 0; in->len < bytes; i++)
        sh->item(in, i);
}

/* One untimed mf_repair, for instruction counts (callgrind --toggle-collect=mf_repair). */
static void run_once(const shape *sh, size_t bytes)
{
    mf_buf in = {0};
    make_input(&in, sh, bytes);
    mf_result *r = mf_repair(mf_profiles_get("generic_yaml"), in.s, in.len, NULL);
    printf("  %-34s %s\n", sh->name, r && r->status == MF_ACCEPTED ? "accepted" : "REJECTED");
    mf_result_free(r);
    mf_buf_free(&in);
}

static void run_shape(const shape *sh, size_t bytes)
{
    const mf_profile *p = mf_profiles_get("generic_yaml");
    mf_buf in = {0};
    make_input(&in, sh, bytes);
    double best = 1e30, base = 1e30, events = 1e30, load = 1e30;
    size_t warnings = 0;
    int status = -1;
    double rss = 0;
    for (int round = 0; round < 3; round++) {
        double t0 = now();
        mf_result *r = mf_repair(p, in.s, in.len, NULL);
        double t1 = now();
        if (!r)
            break;
        if (round == 0) { /* the process's high-water mark before any baseline load */
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            rss = (double)ru.ru_maxrss * 1024.0;
        }
        status = r->status;
        warnings = r->warnings.count;
        if (t1 - t0 < best)
            best = t1 - t0;
        if (r->text) {
            double t2 = now();
            libyaml_load(r->text, strlen(r->text));
            double t3 = now();
            if (t3 - t2 < base)
                base = t3 - t2;
            if (round == 0) {
                events = best_of(libyaml_events, r->text, strlen(r->text));
                load = best_of(core_load, r->text, strlen(r->text));
            }
        }
        mf_result_free(r);
    }
    /* the structural repairs alone: every group in order on the same text, as the pipeline applies them */
    double rules = 1e30;
    size_t changes = 0;
    for (int round = 0; round < 3; round++) {
        mf_buf t = {0};
        mf_warnings w = {0};
        mf_buf_put(&t, in.s, in.len);
        double t0 = now();
        changes = 0;
        mf_yaml_lines *lines = NULL;
        for (int g = 1; g <= MF_YAML_GROUPS; g++)
            changes += mf_yaml_repair_group_on(g, &t, &lines, p, &w);
        mf_yaml_lines_free(lines);
        double t1 = now();
        if (t1 - t0 < rules)
            rules = t1 - t0;
        mf_warnings_clear(&w);
        mf_buf_free(&t);
    }
    double mb = (double)in.len / 1e6;
    printf("  %-34s %5.1f MB  mf_repair %6.1f MB/s (goal >= 20)  libyaml %6.1f MB/s  ratio %5.2fx  %s  %zu warnings  "
           "peak RSS %5.0f MB = %5.1fx input | rules alone %6.1f MB/s = %5.2fx libyaml (%zu changes)\n",
           sh->name, mb, mb / best, mb / base, best / base, status == MF_ACCEPTED ? "accepted" : "REJECTED",
           warnings, rss / 1e6, rss / (double)in.len, mb / rules, rules / base, changes);
    printf("  %-34s loader floor on the repaired text: libyaml events %6.1f MB/s, mf_yaml_load %6.1f MB/s; "
           "mf_repair = %5.2fx events = %5.2fx mf_yaml_load; mf_yaml_load share of mf_repair %3.0f%%\n",
           "", mb / events, mb / load, best / events, best / load, 100.0 * load / best);
    fflush(stdout);
    mf_buf_free(&in);
}

int main(int argc, char **argv)
{
    size_t mb = argc > 2 ? (size_t)atol(argv[2]) : 10;
    bool once = argc > 4 && strcmp(argv[4], "--once") == 0;
    if (mb == 0)
        mb = 10;
    printf("malformed YAML through the repairs (generic_yaml, best of 3; ratio = mf_repair time / libyaml load of the repaired text)\n");
    fflush(stdout);
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        if (argc > 3 && !strstr(shapes[i].name, argv[3]))
            continue;
        if (once) {
            run_once(&shapes[i], (mb ? mb : 10) * 1000000);
            continue;
        }
        pid_t pid = fork();
        if (pid == 0) {
            run_shape(&shapes[i], mb * 1000000);
            _exit(0);
        }
        int st;
        if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            printf("  %-34s failed\n", shapes[i].name);
    }
    return 0;
}
