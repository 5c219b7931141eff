/* bench_inputs.c - corpus files and generated shapes for the bench.
 *
 * Generated shapes are deterministic (a fixed xorshift seed per family), so
 * bench_core and the node peer time the very same bytes: the parent writes
 * them to a temporary directory that both read. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "bench_inputs.h"

void bench_inputs_add(bench_inputs *in, char *text, size_t len, const mf_profile *p)
{
    if (in->n == in->cap) {
        in->cap = in->cap ? in->cap * 2 : 64;
        in->v = realloc(in->v, in->cap * sizeof *in->v);
        if (!in->v)
            abort();
    }
    in->v[in->n++] = (bench_input){text, len, p};
    in->bytes += len;
}

int bench_inputs_add_file(bench_inputs *in, const char *path, const mf_profile *p)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    mf_buf b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    size_t len = b.len;
    bench_inputs_add(in, mf_buf_detach(&b), len, p);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void bench_inputs_add_dir(bench_inputs *in, const char *dir, const char *ext, const mf_profile *p,
                          int nested)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap && !(names = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *names)))
            abort();
        names[n++] = mf_strdup0(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        size_t l = strlen(names[i]), el = strlen(ext);
        if (nested)
            bench_inputs_add_dir(in, path, ext, p, 0);
        else if (l > el && strcmp(names[i] + l - el, ext) == 0)
            bench_inputs_add_file(in, path, p);
        free(names[i]);
    }
    free(names);
}

void bench_inputs_free(bench_inputs *in)
{
    for (size_t i = 0; i < in->n; i++)
        free(in->v[i].text);
    free(in->v);
    memset(in, 0, sizeof *in);
}

int bench_inputs_write_dir(const bench_inputs *in, const char *dir)
{
    for (size_t i = 0; i < in->n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%05zu.json", dir, i);
        FILE *f = fopen(path, "wb");
        if (!f)
            return -1;
        size_t w = fwrite(in->v[i].text, 1, in->v[i].len, f);
        if (fclose(f) != 0 || w != in->v[i].len)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------- big clean artifacts */

/* Give the copy number n fresh ids: EPIC-k -> EPIC-n, US-k-m -> US-n-m, path -> gen/n/path. */
static void renumber(json_t *v, size_t n)
{
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            renumber(json_array_get(v, i), n);
        return;
    }
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        const char *s = json_string_value(x);
        char buf[512];
        if (s && strcmp(k, "id") == 0 && strncmp(s, "EPIC-", 5) == 0) {
            snprintf(buf, sizeof buf, "EPIC-%zu", n);
            json_object_set_new(v, k, json_string(buf));
        } else if (s && strcmp(k, "id") == 0 && strncmp(s, "US-", 3) == 0 && strchr(s + 3, '-')) {
            snprintf(buf, sizeof buf, "US-%zu%s", n, strchr(s + 3, '-'));
            json_object_set_new(v, k, json_string(buf));
        } else if (s && strcmp(k, "path") == 0) {
            snprintf(buf, sizeof buf, "gen/%zu/%s", n, s);
            json_object_set_new(v, k, json_string(buf));
        } else {
            renumber(x, n);
        }
    }
}

char *bench_big_artifact(const char *seed_path, const mf_profile *p, size_t bytes, size_t *len)
{
    bench_inputs seed = {0};
    if (bench_inputs_add_file(&seed, seed_path, p))
        return NULL;
    mf_result *r = mf_repair(p, seed.v[0].text, seed.v[0].len, NULL);
    bench_inputs_free(&seed);
    if (!r || r->status != MF_ACCEPTED || !json_is_object(r->value)) {
        mf_result_free(r);
        return NULL;
    }
    json_t *root = json_incref(r->value), *list = NULL;
    mf_result_free(r);
    const char *k;
    json_t *x;
    json_object_foreach(root, k, x) {
        if (json_is_array(x) && json_is_object(json_array_get(x, 0))) {
            list = x;
            break;
        }
    }
    char *text = NULL;
    if (list) {
        json_t *tmpl = json_deep_copy(json_array_get(list, 0));
        json_array_clear(list);
        char *one = p->format == MF_FORMAT_JSON ? mf_value_to_json(tmpl) : mf_value_to_yaml(tmpl);
        size_t copies = bytes / (one && *one ? strlen(one) : 1) + 1;
        free(one);
        for (size_t i = 1; i <= copies; i++) {
            json_t *c = json_deep_copy(tmpl);
            renumber(c, i);
            json_array_append_new(list, c);
        }
        json_decref(tmpl);
        text = p->format == MF_FORMAT_JSON ? mf_value_to_json(root) : mf_value_to_yaml(root);
    }
    json_decref(root);
    *len = text ? strlen(text) : 0;
    return text;
}

/* ------------------------------------------------------ malformed LLM JSON */

static const char *const family_names[FAM_COUNT] = {
    "clean", "trailing-comma", "single-quotes", "unquoted-keys", "python-literals",
    "comments", "missing-comma", "truncated", "fenced"};

const char *bench_family_name(bench_family f)
{
    return f < FAM_COUNT ? family_names[f] : "?";
}

static unsigned long long rng_next(unsigned long long *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static const char *const words[] = {
    "retry", "payment", "gateway", "timeout", "cart", "session", "the", "user", "sees", "a",
    "banner", "when", "checkout", "fails", "with", "503", "and", "we", "keep", "order", "state",
    "idempotency", "key", "per", "attempt", "backoff", "of", "2s", "then", "4s", "\\\"quoted\\\"",
    "naïve", "café", "—", "it's", "done"};

typedef struct {
    bench_family f;
    mf_buf *b;
    unsigned long long rng;
} writer;

static void put_key(writer *W, int indent, const char *key)
{
    mf_buf_printf(W->b, "%*s", indent, "");
    if (W->f == FAM_UNQUOTED_KEYS)
        mf_buf_printf(W->b, "%s: ", key);
    else if (W->f == FAM_SINGLE_QUOTES)
        mf_buf_printf(W->b, "'%s': ", key);
    else
        mf_buf_printf(W->b, "\"%s\": ", key);
}

/* Separator after a member: "," (or nothing for missing-comma), then newline. */
static void put_sep(writer *W, bool last)
{
    if (!last && !(W->f == FAM_MISSING_COMMA && rng_next(&W->rng) % 3 == 0))
        mf_buf_putc(W->b, ',');
    if (last && W->f == FAM_TRAILING_COMMA)
        mf_buf_putc(W->b, ',');
    mf_buf_putc(W->b, '\n');
}

static void put_text(writer *W, size_t nwords)
{
    char q = W->f == FAM_SINGLE_QUOTES ? '\'' : '"';
    mf_buf_putc(W->b, q);
    for (size_t i = 0; i < nwords; i++) {
        const char *w = words[rng_next(&W->rng) % (sizeof words / sizeof *words)];
        if (q == '\'' && strchr(w, '\''))
            w = "its";
        if (q == '\'' && strchr(w, '\\'))
            w = "\"quoted\"";
        mf_buf_printf(W->b, "%s%s", i ? " " : "", w);
    }
    mf_buf_putc(W->b, q);
}

static void put_literal(writer *W, int which)
{
    static const char *const json[] = {"true", "false", "null"}, *const py[] = {"True", "False", "None"};
    mf_buf_puts(W->b, (W->f == FAM_PYTHON_LITERALS ? py : json)[which]);
}

/* One LLM-style record, about `size` bytes. */
static void put_record(writer *W, int indent, size_t id, size_t size)
{
    mf_buf_printf(W->b, "%*s{\n", indent, "");
    int in = indent + 2;
    if (W->f == FAM_COMMENTS)
        mf_buf_printf(W->b, "%*s// record %zu\n", in, "", id);
    put_key(W, in, "id");
    mf_buf_printf(W->b, "%zu", id);
    put_sep(W, false);
    put_key(W, in, "title");
    put_text(W, 4);
    put_sep(W, false);
    put_key(W, in, "description");
    put_text(W, size > 160 ? (size - 160) / 7 : 3);
    put_sep(W, false);
    put_key(W, in, "priority");
    mf_buf_printf(W->b, "%llu", rng_next(&W->rng) % 5);
    if (W->f == FAM_COMMENTS)
        mf_buf_puts(W->b, " /* 0 = highest */");
    put_sep(W, false);
    put_key(W, in, "done");
    put_literal(W, (int)(rng_next(&W->rng) % 2));
    put_sep(W, false);
    put_key(W, in, "owner");
    put_literal(W, 2);
    put_sep(W, false);
    put_key(W, in, "tags");
    mf_buf_puts(W->b, "[");
    for (int t = 0; t < 3; t++) {
        if (t)
            mf_buf_puts(W->b, ", ");
        put_text(W, 1);
    }
    if (W->f == FAM_TRAILING_COMMA)
        mf_buf_putc(W->b, ',');
    mf_buf_puts(W->b, "]");
    put_sep(W, true);
    mf_buf_printf(W->b, "%*s}", indent, "");
}

static char *finish_text(writer *W, size_t *len)
{
    if (W->f == FAM_TRUNCATED) {
        size_t cut = W->b->len * 9 / 10; /* a model that ran out of tokens */
        while (cut > 0 && ((unsigned char)W->b->s[cut] & 0xC0) == 0x80)
            cut--;
        W->b->len = cut;
        W->b->s[cut] = '\0';
    }
    if (W->f == FAM_FENCED) {
        mf_buf framed = {0};
        mf_buf_printf(&framed, "Sure! Here is the JSON you asked for:\n\n```json\n%s\n```\n\n"
                               "Let me know if you need anything else.", mf_buf_cstr(W->b));
        mf_buf_free(W->b);
        *W->b = framed;
    }
    *len = W->b->len;
    return mf_buf_detach(W->b);
}

void bench_malformed_json(bench_inputs *out, bench_family f, size_t count, size_t array_bytes)
{
    const mf_profile *gj = mf_profiles_get("generic_json");
    mf_buf b = {0};
    writer W = {f, &b, 0x9E3779B97F4A7C15ull ^ (unsigned long long)f};
    size_t len;
    if (array_bytes) {
        mf_buf_puts(&b, "[\n");
        for (size_t id = 1; b.len < array_bytes; id++) {
            put_record(&W, 2, id, 300);
            put_sep(&W, b.len >= array_bytes);
        }
        mf_buf_puts(&b, "]");
        char *text = finish_text(&W, &len);
        bench_inputs_add(out, text, len, gj);
        return;
    }
    for (size_t i = 0; i < count; i++) {
        size_t size = 200 + (size_t)(rng_next(&W.rng) % 1800);
        put_record(&W, 0, i + 1, size);
        char *text = finish_text(&W, &len);
        bench_inputs_add(out, text, len, gj);
        mf_buf_free(&b);
    }
}
