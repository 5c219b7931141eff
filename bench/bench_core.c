/* bench_core.c - core speed and memory, as ratios against baselines measured in the same run.
 *
 * Every shape is timed on both sides in its own child process (this binary
 * re-run with --child SHAPE SIDE), so each side's peak RSS is its own:
 *
 *   clean-yaml   the YAML seeds through their profile, and through generic_yaml,
 *                over a bare libyaml document load of the same bytes
 *                (goals <= 1.5x through the profile, <= 1.2x generic)
 *   clean-json   the JSON seeds the same way, over jansson's json_loadb
 *   big-yaml     a 4 MB PRD grown from a seed (fresh epic/story ids), same goals
 *   big-json     a 4 MB code_files artifact grown from a seed, same goals
 *   malformed    every rule fixture input: MB/s (no baseline)
 *   race-SIZE/FAMILY  generated malformed LLM JSON of every family (clean,
 *                trailing-comma, single-quotes, unquoted-keys, python-literals,
 *                comments, missing-comma, truncated, fenced): SIZE "small" is
 *                64 objects of 0.2-2 KB, "100k", "1m" and "4m" one array of
 *                records that large. Through generic_json, over npm jsonrepair
 *                called in-process in node (bench/race_jsonrepair.mjs, warm)
 *                on the same bytes (goals: >= 3x faster on small objects,
 *                >= 2.5x on large arrays without trailing commas, never
 *                slower); "floor" is jansson loading core's repaired output,
 *                the cost of the value tree alone
 *
 * Time: process CPU time (every thread: node's JIT and GC threads count on
 * its side), best of ROUNDS rounds of at least MIN seconds per run; the sides
 * run interleaved twice and each keeps its best run, so a busy machine skews
 * all sides alike. RSS: the child's peak resident set after its inputs are
 * built (VmHWM is reset through /proc/self/clear_refs first); node's is the
 * whole process's peak (its runtime included).
 * For instruction counts, run one side of a shape under callgrind with a fixed
 * number of passes (bench/callgrind.sh does both sides and prints the ratio).
 *
 * Usage: bench_core SOURCE_DIR [--rounds N] [--min SECONDS] [--only PREFIX]
 *        bench_core SOURCE_DIR --child SHAPE SIDE [--passes N | --rounds N --min S]
 *        bench_core SOURCE_DIR --write SHAPE DIR   (the shape's inputs as DIR/NNNNN.json) */
#define _GNU_SOURCE /* wait4 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <yaml.h>
#include "internal.h"
#include "bench_inputs.h"

#define BIG_BYTES (4u << 20)
#define SMALL_COUNT 64
#define ALTERNATIONS 2
#define PEER_LIMIT_S 60.0 /* jsonrepair is quadratic on trailing commas: 4 MB takes minutes */

/* floor: jansson loading core's own repaired output (compact JSON) of the same
 * inputs, i.e. what building the value tree alone costs. */
typedef enum { SIDE_CORE, SIDE_GENERIC, SIDE_LIBYAML, SIDE_JANSSON, SIDE_FLOOR } side;
static const char *const side_names[] = {"core", "generic", "libyaml", "jansson", "floor"};
#define SIDE_COUNT 5

typedef struct {
    const char *name;
    const char *label;
    side baseline;      /* SIDE_LIBYAML or SIDE_JANSSON; SIDE_CORE: no C baseline */
    bool generic;       /* also time the same bytes through the generic profile */
    bool race;          /* also race npm jsonrepair on the same bytes */
    double goal;        /* core/baseline ratio goal (0: none); race: speedup goal */
} shape;

static const shape shapes[] = {
    {"clean-yaml", "YAML seeds", SIDE_LIBYAML, true, false, 1.5},
    {"clean-json", "JSON seeds", SIDE_JANSSON, true, false, 1.5},
    {"big-yaml", "4 MB PRD", SIDE_LIBYAML, true, false, 1.5},
    {"big-json", "4 MB code_files", SIDE_JANSSON, true, false, 1.5},
    {"malformed", "rule fixtures", SIDE_CORE, false, false, 0},
    {NULL, NULL, SIDE_CORE, false, false, 0}};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The child's own CPU time, so other processes on a loaded machine do not count. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ child side */

static void libyaml_load_all(const bench_input *x)
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

/* One pass over the inputs; kept out of line so callgrind can count it alone. */
__attribute__((noinline)) void bench_pass(const bench_inputs *in, side s)
{
    for (size_t i = 0; i < in->n; i++) {
        const bench_input *x = &in->v[i];
        if (s == SIDE_CORE || s == SIDE_GENERIC)
            mf_result_free(mf_repair(x->p, x->text, x->len, NULL));
        else if (s == SIDE_LIBYAML)
            libyaml_load_all(x);
        else
            json_decref(json_loadb(x->text, x->len, JSON_DECODE_ANY, NULL)); /* jansson, floor */
    }
}

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The race shape's family and size from its name ("race-1m/truncated"). */
static int race_params(const char *name, bench_family *f, size_t *bytes)
{
    const char *slash = strchr(name, '/');
    if (!slash)
        return -1;
    *bytes = starts(name, "race-small") ? 0 : starts(name, "race-100k") ? 100u << 10
           : starts(name, "race-1m") ? 1u << 20 : starts(name, "race-4m") ? 4u << 20 : (size_t)-1;
    for (int i = 0; i < FAM_COUNT; i++)
        if (strcmp(slash + 1, bench_family_name((bench_family)i)) == 0) {
            *f = (bench_family)i;
            return *bytes == (size_t)-1 ? -1 : 0;
        }
    return -1;
}

/* Build the inputs of a shape; 0, or -1 with a message on stderr. */
static int shape_inputs(const char *src, const char *name, bench_inputs *in)
{
    char dir[4096];
    if (strcmp(name, "clean-yaml") == 0 || strcmp(name, "clean-json") == 0) {
        mf_format want = name[6] == 'y' ? MF_FORMAT_YAML : MF_FORMAT_JSON;
        for (size_t i = 0; i < mf_profiles_count(); i++) {
            const mf_profile *p = mf_profiles_at(i);
            if (p->format != want)
                continue;
            snprintf(dir, sizeof dir, "%s/corpus/seeds/%s", src, p->name);
            bench_inputs_add_dir(in, dir, want == MF_FORMAT_YAML ? ".yaml" : ".json", p, 0);
        }
    } else if (strcmp(name, "big-yaml") == 0 || strcmp(name, "big-json") == 0) {
        bool y = name[4] == 'y';
        const mf_profile *p = mf_profiles_get(y ? "prd" : "code_files");
        snprintf(dir, sizeof dir, "%s/corpus/seeds/%s", src,
                 y ? "prd/checkout_retry.yaml" : "code_files/python_slugify.json");
        size_t len;
        char *text = p ? bench_big_artifact(dir, p, BIG_BYTES, &len) : NULL;
        if (text)
            bench_inputs_add(in, text, len, p);
    } else if (strcmp(name, "malformed") == 0) {
        snprintf(dir, sizeof dir, "%s/tests/fixtures/rules", src);
        bench_inputs_add_dir(in, dir, ".in", NULL, 1);
    } else {
        bench_family f;
        size_t bytes;
        if (race_params(name, &f, &bytes)) {
            fprintf(stderr, "bench_core: unknown shape %s\n", name);
            return -1;
        }
        bench_malformed_json(in, f, SMALL_COUNT, bytes);
    }
    if (in->n == 0) {
        fprintf(stderr, "bench_core: no inputs for %s under %s\n", name, src);
        return -1;
    }
    return 0;
}

/* Peak RSS since the last reset, in KiB (0 when /proc is not there). */
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0)
            kb = strtol(line + 6, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

static void reset_peak_rss(void)
{
    FILE *f = fopen("/proc/self/clear_refs", "w");
    if (f) {
        fputs("5", f);
        fclose(f);
    }
}

static int run_child(const char *src, const char *name, const char *side_name, int rounds,
                     double min_s, int passes)
{
    bench_inputs in = {0};
    if (shape_inputs(src, name, &in))
        return 2;
    side s = SIDE_CORE;
    for (int i = 0; i < SIDE_COUNT; i++)
        if (strcmp(side_name, side_names[i]) == 0)
            s = (side)i;
    for (size_t i = 0; s == SIDE_FLOOR && i < in.n; i++) {
        mf_result *r = mf_repair(in.v[i].p, in.v[i].text, in.v[i].len, NULL);
        char *out = r && r->value ? json_dumps(r->value, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
        mf_result_free(r);
        in.bytes -= in.v[i].len;
        free(in.v[i].text);
        in.v[i].text = out ? out : mf_strdup0("null");
        in.v[i].len = strlen(in.v[i].text);
        in.bytes += in.v[i].len;
    }
    if (s == SIDE_GENERIC)
        for (size_t i = 0; i < in.n; i++)
            in.v[i].p = mf_profiles_get(in.v[i].p && in.v[i].p->format == MF_FORMAT_YAML ? "generic_yaml"
                                                                                       : "generic_json");
    size_t warned = 0, rejected = 0;
    if (s == SIDE_CORE || s == SIDE_GENERIC)
        for (size_t i = 0; i < in.n; i++) {
            mf_result *r = mf_repair(in.v[i].p, in.v[i].text, in.v[i].len, NULL);
            rejected += r && r->status != MF_ACCEPTED;
            warned += r && r->warnings.count;
            mf_result_free(r);
        }
    reset_peak_rss();
    double best = 1e30;
    if (passes > 0) {
        for (int i = 0; i < passes; i++)
            bench_pass(&in, s);
        best = 0;
    }
    for (int round = 0; passes <= 0 && round < rounds; round++) {
        int n = 0;
        double t0 = cpu_now(), t;
        do {
            bench_pass(&in, s);
            n++;
        } while ((t = cpu_now() - t0) < min_s);
        if (t / n < best)
            best = t / n;
    }
    printf("seconds_per_pass %.9g calls %zu bytes %zu rss_kb %ld warned %zu rejected %zu\n", best, in.n,
           in.bytes, peak_rss_kb(), warned, rejected);
    bench_inputs_free(&in);
    mf_profiles_shutdown();
    return 0;
}

/* ----------------------------------------------------------- parent side */

typedef struct {
    bool ok;
    double seconds;     /* per pass */
    size_t calls, bytes, warned, rejected, threw;
    long rss_kb;
    char why[128];
} measure;

/* Run argv, parse its "seconds_per_pass ..." line; kill it after limit_s. */
static measure run_measured(char *const argv[], double limit_s)
{
    measure m = {0};
    int fds[2];
    if (pipe(fds)) {
        snprintf(m.why, sizeof m.why, "pipe: %s", strerror(errno));
        return m;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fds[1]);
    char out[1024] = "";
    size_t got = 0;
    double t0 = now();
    bool killed = false;
    for (;;) {
        struct timeval tv = {0, 200000};
        fd_set rd;
        FD_ZERO(&rd);
        FD_SET(fds[0], &rd);
        if (select(fds[0] + 1, &rd, NULL, NULL, &tv) > 0) {
            ssize_t n = read(fds[0], out + got, sizeof out - 1 - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        if (!killed && limit_s > 0 && now() - t0 > limit_s) {
            kill(pid, SIGKILL);
            killed = true;
        }
    }
    close(fds[0]);
    out[got] = '\0';
    int status;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    if (killed) {
        snprintf(m.why, sizeof m.why, "over the %.0f s limit", limit_s);
        return m;
    }
    m.ok = sscanf(out, "seconds_per_pass %lf calls %zu", &m.seconds, &m.calls) == 2;
    const char *b = strstr(out, " bytes "), *r = strstr(out, " rss_kb ");
    const char *w = strstr(out, " warned "), *x = strstr(out, " rejected ");
    m.bytes = b ? strtoull(b + 7, NULL, 10) : 0;
    m.rss_kb = r ? strtol(r + 8, NULL, 10) : ru.ru_maxrss;
    m.warned = w ? strtoull(w + 8, NULL, 10) : 0;
    m.rejected = x ? strtoull(x + 10, NULL, 10) : 0;
    if (!m.ok)
        snprintf(m.why, sizeof m.why, "failed (exit %d)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    const char *f = strstr(out, " failed ");
    m.threw = f ? strtoull(f + 8, NULL, 10) : 0;
    return m;
}

typedef struct {
    const char *self, *src, *node_dir;
    char rounds[16], min_s[32];
    bool node;
} bench;

static measure child(const bench *B, const char *name, side s)
{
    char *argv[] = {(char *)B->self, (char *)B->src, "--child", (char *)name, (char *)side_names[s],
                    "--rounds", (char *)B->rounds, "--min", (char *)B->min_s, NULL};
    return run_measured(argv, 0);
}

/* jsonrepair on the shape's bytes, written to a temporary directory. */
static measure peer(const bench *B, const char *name)
{
    measure m = {0};
    bench_inputs in = {0};
    char dir[] = "/tmp/malform-bench-XXXXXX", script[4096];
    if (shape_inputs(B->src, name, &in) || !mkdtemp(dir) || bench_inputs_write_dir(&in, dir)) {
        snprintf(m.why, sizeof m.why, "cannot write the inputs");
        bench_inputs_free(&in);
        return m;
    }
    snprintf(script, sizeof script, "%s/bench/race_jsonrepair.mjs", B->src);
    char *argv[] = {"node", script, (char *)B->node_dir, dir, (char *)B->rounds, (char *)B->min_s, NULL};
    m = run_measured(argv, PEER_LIMIT_S);
    m.bytes = in.bytes;
    for (size_t i = 0; i < in.n; i++) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%05zu.json", dir, i);
        remove(path);
    }
    rmdir(dir);
    bench_inputs_free(&in);
    return m;
}

/* clean: the inputs must pass without a warning (else the figure is not the clean path). */
static void show(const char *what, const measure *m, bool clean)
{
    if (!m->ok)
        printf("  %-10s %s\n", what, m->why);
    else
        printf("  %-10s %10.1f us/pass %9.2f us/call %7.1f MB/s  peak RSS %7.1f MB", what,
               m->seconds * 1e6, m->seconds * 1e6 / (double)m->calls,
               (double)m->bytes / m->seconds / 1e6, (double)m->rss_kb / 1024.0);
    if (m->ok && clean && (m->warned || m->rejected))
        printf("  NOT CLEAN: %zu warned, %zu rejected", m->warned, m->rejected);
    else if (m->ok && m->rejected)
        printf("  (%zu of %zu rejected)", m->rejected, m->calls);
    else if (m->ok && m->threw)
        printf("  (threw on %zu of %zu)", m->threw, m->calls);
    if (m->ok)
        putchar('\n');
}

/* The faster of two runs of the same side (peak RSS: the larger, to stay conservative). */
static void keep_best(measure *best, const measure *m)
{
    long rss = best->rss_kb > m->rss_kb ? best->rss_kb : m->rss_kb;
    if (!best->ok || (m->ok && m->seconds < best->seconds))
        *best = *m;
    best->rss_kb = rss;
}

enum { M_CORE, M_BASE, M_GENERIC, M_FLOOR, M_PEER, M_COUNT };

/* Every side of a shape, ALTERNATIONS times interleaved (core, baseline,
 * generic, floor, jsonrepair, core, ...), so that a change in the machine's
 * load during the run hits all sides alike; each side keeps its best. */
static void run_shape(const bench *B, const shape *sh)
{
    measure m[M_COUNT] = {{0}};
    bool race = sh->race && B->node;
    for (int alt = 0; alt < ALTERNATIONS; alt++) {
        measure x = child(B, sh->name, SIDE_CORE);
        keep_best(&m[M_CORE], &x);
        if (sh->baseline != SIDE_CORE) {
            x = child(B, sh->name, sh->baseline);
            keep_best(&m[M_BASE], &x);
        }
        if (sh->generic) {
            x = child(B, sh->name, SIDE_GENERIC);
            keep_best(&m[M_GENERIC], &x);
        }
        if (race) {
            x = child(B, sh->name, SIDE_FLOOR);
            keep_best(&m[M_FLOOR], &x);
            if (alt == 0 || m[M_PEER].ok) { /* one run past the time limit is enough */
                x = peer(B, sh->name);
                keep_best(&m[M_PEER], &x);
                if (!m[M_PEER].ok)
                    snprintf(m[M_PEER].why, sizeof m[M_PEER].why, "%s", x.why);
            }
        }
    }
    const measure *core = &m[M_CORE], *base = &m[M_BASE], *gen = &m[M_GENERIC];
    bool clean = starts(sh->name, "clean") || starts(sh->name, "big") || strstr(sh->name, "/clean");
    printf("%s%s%s: %zu input%s, %zu B\n", sh->name, *sh->label ? " - " : "", sh->label, core->calls,
           core->calls == 1 ? "" : "s", core->bytes);
    show("core", core, clean);
    if (sh->baseline != SIDE_CORE) {
        show(side_names[sh->baseline], base, false);
        if (core->ok && base->ok)
            printf("  ratio     core/%s %.2fx time (goal <= %.2fx), %.2fx peak RSS\n", side_names[sh->baseline],
                   core->seconds / base->seconds, sh->goal, (double)core->rss_kb / (double)base->rss_kb);
    }
    if (sh->generic) {
        show("generic", gen, clean);
        if (gen->ok && base->ok)
            printf("  ratio     generic/%s %.2fx time (goal <= 1.20x), %.2fx peak RSS\n",
                   side_names[sh->baseline], gen->seconds / base->seconds,
                   (double)gen->rss_kb / (double)base->rss_kb);
    }
    if (sh->race && !B->node)
        printf("  jsonrepair skipped: node/jsonrepair missing\n");
    if (race) {
        const measure *floor = &m[M_FLOOR], *js = &m[M_PEER];
        show("floor", floor, false);
        if (core->ok && floor->ok)
            printf("  ratio     core/floor %.2fx time (floor: jansson loading the repaired value's JSON)\n",
                   core->seconds / floor->seconds);
        show("jsonrepair", js, false);
        if (core->ok && js->ok)
            printf("  ratio     jsonrepair/core time %.2fx (goal >= %.2fx), %.2fx its peak RSS\n",
                   js->seconds / core->seconds, sh->goal, (double)core->rss_kb / (double)js->rss_kb);
        else if (core->ok && strstr(js->why, "limit"))
            printf("  ratio     jsonrepair/core time > %.0fx (it did not finish)\n", PEER_LIMIT_S / core->seconds);
    }
    fflush(stdout);
}

static bool node_ready(const char *node_dir)
{
    char path[4300];
    snprintf(path, sizeof path, "%s/node_modules/jsonrepair/package.json", node_dir);
    return access(path, R_OK) == 0 && system("node --version >/dev/null 2>&1") == 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_core SOURCE_DIR [--rounds N] [--min SECONDS] [--only PREFIX]\n"
                        "       bench_core SOURCE_DIR --child SHAPE SIDE [--passes N]\n"
                        "       bench_core SOURCE_DIR --write SHAPE DIR\n");
        return 2;
    }
    const char *child_shape = NULL, *child_side = NULL, *only = NULL, *write_dir = NULL;
    int rounds = 5, passes = 0;
    double min_s = 0.3;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--child") == 0 && i + 2 < argc)
            child_shape = argv[i + 1], child_side = argv[i + 2], i += 2;
        else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "--min") == 0 && i + 1 < argc)
            min_s = atof(argv[++i]);
        else if (strcmp(argv[i], "--write") == 0 && i + 2 < argc)
            child_shape = argv[i + 1], write_dir = argv[i + 2], i += 2;
        else if (strcmp(argv[i], "--passes") == 0 && i + 1 < argc)
            passes = atoi(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else {
            fprintf(stderr, "bench_core: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (rounds < 1)
        rounds = 1;
    if (write_dir) {
        bench_inputs in = {0};
        int rc = shape_inputs(argv[1], child_shape, &in) || bench_inputs_write_dir(&in, write_dir) ? 2 : 0;
        bench_inputs_free(&in);
        return rc;
    }
    if (child_shape)
        return run_child(argv[1], child_shape, child_side, rounds, min_s, passes);

    char self[4096], node_dir[4200];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        fprintf(stderr, "bench_core: cannot find its own executable\n");
        return 2;
    }
    self[n] = '\0';
    snprintf(node_dir, sizeof node_dir, "%s/harness/pipelines/node", argv[1]);
    bench B = {self, argv[1], node_dir, "", "", node_ready(node_dir)};
    snprintf(B.rounds, sizeof B.rounds, "%d", rounds);
    snprintf(B.min_s, sizeof B.min_s, "%g", min_s);
    printf("malform bench: best of %d rounds >= %g s of process CPU time (node: every thread); each side\n"
           "in its own process, sides interleaved twice, best run kept; ratios measured in this run.\n"
           "Instruction counts: bench/callgrind.sh.\n", rounds, min_s);
    for (const shape *sh = shapes; sh->name; sh++)
        if (!only || starts(sh->name, only))
            run_shape(&B, sh);
    static const char *const sizes[] = {"small", "100k", "1m", "4m"};
    for (size_t z = 0; z < sizeof sizes / sizeof *sizes; z++)
        for (int f = 0; f < FAM_COUNT; f++) {
            char name[64];
            snprintf(name, sizeof name, "race-%s/%s", sizes[z], bench_family_name((bench_family)f));
            /* jsonrepair is quadratic on trailing commas: there the goal is only "never slower" */
            shape sh = {name, "", SIDE_CORE, false, true, z == 0 ? 3 : f == FAM_TRAILING_COMMA ? 1 : 2.5};
            if (!only || starts(name, only))
                run_shape(&B, &sh);
        }
    return 0;
}
