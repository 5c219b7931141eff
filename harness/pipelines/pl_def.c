/* pl_def.c - pipeline definitions: harness/pipelines/<name>.yaml (see
 * PROTOCOL.md section 6) and the built-in `core`. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>
#include "pipeline.h"

#ifndef MF_SOURCE_ROOT
#define MF_SOURCE_ROOT "."
#endif

const char *mf_pl_dir(void)
{
    static char dir[4096];
    const char *root = getenv("MALFORM_ROOT");
    snprintf(dir, sizeof dir, "%s/harness/pipelines", root && *root ? root : MF_SOURCE_ROOT);
    return dir;
}

/* A YAML node as JSON: mappings, sequences, scalars as strings. */
static json_t *node_json(yaml_document_t *doc, yaml_node_t *n, int depth)
{
    if (!n || depth > 16)
        return NULL;
    if (n->type == YAML_SCALAR_NODE)
        return json_stringn((const char *)n->data.scalar.value, n->data.scalar.length);
    if (n->type == YAML_SEQUENCE_NODE) {
        json_t *a = json_array();
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
            json_array_append_new(a, node_json(doc, yaml_document_get_node(doc, *i), depth + 1));
        return a;
    }
    json_t *o = json_object();
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k && k->type == YAML_SCALAR_NODE)
            json_object_set_new(o, (const char *)k->data.scalar.value,
                                node_json(doc, yaml_document_get_node(doc, p->value), depth + 1));
    }
    return o;
}

static json_t *load_yaml(const char *path, char *err, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, n, "%s: %s", path, strerror(errno));
        return NULL;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    json_t *out = NULL;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(err, n, "%s:%zu: %s", path, parser.problem_mark.line + 1, parser.problem ? parser.problem : "YAML error");
    } else {
        out = node_json(&doc, yaml_document_get_root_node(&doc), 0);
        yaml_document_delete(&doc);
        if (!json_is_object(out)) {
            snprintf(err, n, "%s: not a mapping", path);
            json_decref(out);
            out = NULL;
        }
    }
    yaml_parser_delete(&parser);
    fclose(f);
    return out;
}

static char *str_field(const json_t *o, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s || dflt ? strdup(s ? s : dflt) : NULL;
}

static int int_field(const json_t *o, const char *key, int dflt, const char *path, char *err, size_t n)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        return dflt;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v <= 0 || v > 100000000) {
        snprintf(err, n, "%s: %s must be a positive integer, got '%s'", path, key, s);
        return -1;
    }
    return (int)v;
}

/* A NULL-terminated copy of a string list; relative_to: make entries absolute. */
static char **list_field(const json_t *o, const char *key, const char *relative_to)
{
    const json_t *a = json_object_get(o, key);
    size_t n = json_is_array(a) ? json_array_size(a) : 0;
    char **out = calloc(n + 1, sizeof *out);
    for (size_t i = 0, k = 0; out && i < n; i++) {
        const char *s = json_string_value(json_array_get(a, i));
        if (!s)
            continue;
        if (relative_to && s[0] != '/') {
            size_t len = strlen(relative_to) + strlen(s) + 2;
            if ((out[k] = malloc(len)))
                snprintf(out[k], len, "%s/%s", relative_to, s);
        } else {
            out[k] = strdup(s);
        }
        k++;
    }
    return out;
}

static void free_list(char **l)
{
    for (size_t i = 0; l && l[i]; i++)
        free(l[i]);
    free(l);
}

void mf_pl_def_free(mf_pl_def *d)
{
    if (!d)
        return;
    free(d->name);
    free(d->description);
    free(d->command);
    free(d->install);
    free(d->workdir);
    free(d->path);
    free_list(d->requires);
    free_list(d->needs);
    json_decref(d->profiles);
    memset(d, 0, sizeof *d);
}

static int core_def(mf_pl_def *d)
{
    memset(d, 0, sizeof *d);
    d->name = strdup(MF_PL_CORE);
    d->description = strdup("libmalform, the built-in reference pipeline (in-process)");
    d->command = strdup("(in-process)");
    d->install = strdup("built in");
    d->workdir = strdup(".");
    d->path = strdup("");
    d->requires = calloc(1, sizeof *d->requires);
    d->needs = calloc(1, sizeof *d->needs);
    d->formats = MF_PL_YAML | MF_PL_JSON;
    d->profiles = json_pack("[s]", "*");
    d->timeout_ms = 10000;
    d->start_timeout_ms = 1;
    d->builtin = true;
    return 0;
}

int mf_pl_def_load(const char *path, mf_pl_def *d, char *err, size_t n)
{
    memset(d, 0, sizeof *d);
    json_t *o = load_yaml(path, err, n);
    if (!o)
        return -1;
    char base[4096];
    snprintf(base, sizeof base, "%s", path);
    char *slash = strrchr(base, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(base, sizeof base, ".");
    d->path = strdup(path);
    d->name = str_field(o, "name", NULL);
    d->command = str_field(o, "command", NULL);
    d->description = str_field(o, "description", "");
    d->install = str_field(o, "install", "");
    const char *wd = json_string_value(json_object_get(o, "workdir"));
    char wbuf[8192];
    snprintf(wbuf, sizeof wbuf, "%s/%s", base, wd ? wd : ".");
    char *real = realpath(wbuf, NULL);
    d->workdir = real ? real : strdup(wbuf);
    d->requires = list_field(o, "requires", NULL);
    d->needs = list_field(o, "needs", base);
    d->profiles = json_incref(json_object_get(o, "profiles"));
    const json_t *fmts = json_object_get(o, "formats");
    for (size_t i = 0; json_is_array(fmts) && i < json_array_size(fmts); i++) {
        const char *f = json_string_value(json_array_get(fmts, i));
        d->formats |= f && !strcmp(f, "json") ? MF_PL_JSON : f && !strcmp(f, "yaml") ? MF_PL_YAML : 0;
    }
    err[0] = '\0';
    d->timeout_ms = int_field(o, "timeout_ms", 2000, path, err, n);
    d->start_timeout_ms = int_field(o, "start_timeout_ms", 10000, path, err, n);
    int rss = int_field(o, "rss_limit_mb", 1024, path, err, n);
    d->rss_limit_kb = rss > 0 ? rss * 1024L : 0;
    json_decref(o);
    if (!err[0] && (!d->name || !d->command))
        snprintf(err, n, "%s: 'name' and 'command' are required", path);
    else if (!err[0] && !d->formats)
        snprintf(err, n, "%s: 'formats' must list json and/or yaml", path);
    else if (!err[0] && !json_is_array(d->profiles))
        snprintf(err, n, "%s: 'profiles' must be a list (\"*\" for any)", path);
    if (!err[0] && (!d->requires || !d->needs || !d->workdir || !d->description || !d->install))
        snprintf(err, n, "%s: out of memory", path);
    if (err[0]) {
        mf_pl_def_free(d);
        return -1;
    }
    return 0;
}

static bool try_dir(const char *dir, const char *name, mf_pl_def *d, char *err, size_t n, int *rc)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.yaml", dir, name);
    if (access(path, R_OK) != 0)
        return false;
    *rc = mf_pl_def_load(path, d, err, n);
    return true;
}

int mf_pl_def_find(const char *name, mf_pl_def *d, char *err, size_t n)
{
    if (!strcmp(name, MF_PL_CORE))
        return core_def(d);
    if (!*name || strchr(name, '/') || name[0] == '.') {
        snprintf(err, n, "'%s' is not a pipeline name", name);
        return -1;
    }
    int rc = -1;
    const char *extra = getenv("MALFORM_PIPELINES_DIR");
    if ((extra && *extra && try_dir(extra, name, d, err, n, &rc)) || try_dir(mf_pl_dir(), name, d, err, n, &rc))
        return rc;
    snprintf(err, n, "no pipeline '%s' (core, or a definition %s%s%s/%s.yaml; see malform pipelines)", name,
             extra && *extra ? extra : "", extra && *extra ? " or " : "", mf_pl_dir(), name);
    return -1;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_dir(const char *dir, char ***names, size_t *count, size_t *cap)
{
    DIR *dp = dir ? opendir(dir) : NULL;
    struct dirent *e;
    while (dp && (e = readdir(dp))) {
        size_t l = strlen(e->d_name);
        if (l < 6 || strcmp(e->d_name + l - 5, ".yaml") || e->d_name[0] == '.')
            continue;
        char *name = strndup(e->d_name, l - 5);
        bool dup = false;
        for (size_t i = 0; name && i < *count && !dup; i++)
            dup = !strcmp((*names)[i], name);
        if (!name || dup) {
            free(name);
            continue;
        }
        if (*count + 2 > *cap) {
            *cap = *cap * 2 + 8;
            char **t = realloc(*names, *cap * sizeof *t);
            if (!t) {
                free(name);
                break;
            }
            *names = t;
        }
        (*names)[(*count)++] = name;
    }
    if (dp)
        closedir(dp);
}

char **mf_pl_names(void)
{
    size_t count = 1, cap = 8;
    char **names = calloc(cap, sizeof *names);
    if (!names || !(names[0] = strdup(MF_PL_CORE))) {
        free(names);
        return NULL;
    }
    add_dir(getenv("MALFORM_PIPELINES_DIR"), &names, &count, &cap);
    add_dir(mf_pl_dir(), &names, &count, &cap);
    qsort(names + 1, count - 1, sizeof *names, cmp_str);
    names[count] = NULL;
    return names;
}

void mf_pl_names_free(char **names)
{
    free_list(names);
}

static bool on_path(const char *prog)
{
    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0;
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        const char *colon = strchr(path, ':');
        size_t l = colon ? (size_t)(colon - path) : strlen(path);
        snprintf(buf, sizeof buf, "%.*s/%s", (int)l, path, prog);
        if (access(buf, X_OK) == 0)
            return true;
        path = colon ? colon + 1 : NULL;
    }
    return false;
}

const char *mf_pl_def_missing(const mf_pl_def *d, char *buf, size_t n)
{
    for (size_t i = 0; d->requires && d->requires[i]; i++)
        if (!on_path(d->requires[i])) {
            snprintf(buf, n, "program '%s' not on PATH (install: %s)", d->requires[i], d->install);
            return buf;
        }
    struct stat st;
    for (size_t i = 0; d->needs && d->needs[i]; i++)
        if (stat(d->needs[i], &st) != 0) {
            snprintf(buf, n, "%s is missing (install: %s)", d->needs[i], d->install);
            return buf;
        }
    if (!d->builtin && stat(d->workdir, &st) != 0) {
        snprintf(buf, n, "working directory %s is missing", d->workdir);
        return buf;
    }
    return NULL;
}
