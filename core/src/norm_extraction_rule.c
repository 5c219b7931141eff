/* norm_extraction_rule.c - tier 3 for YAML path-extraction rules (seed 004).
 *
 * The rule (name, glob, extract: field -> {from, pattern, type, normalize,
 * default}, tag, priority) has already passed schema normalization and the
 * seed's YAML_SCHEMA (tier 2) when the checks below run, in the seed's order:
 *
 *   INVALID_REGEX (tier 2)  every extract.*.pattern must compile (PCRE2, the
 *                           message names the field as the seed does);
 *   TYPE_COERCION_FAILED    a field's default must parse as its type;
 *   GLOB_MISMATCH           the glob must match at least one of
 *                           opt->sample_paths (fnmatch without FNM_PATHNAME,
 *                           so "**" and "*" cross directories);
 *   TYPE_COERCION_FAILED    a value extracted from a matched path must parse
 *                           as the field's type (integer, date, uuid);
 *   EMPTY_EXTRACTION        the rule matches files but extracts no field
 *                           from any of them.
 * Without sample paths only the first two checks run.
 *
 * Extraction follows the seed's field sources: segment(N) counts path
 * segments from 0, or from the end with -1 the file name (the seed's
 * /data/mission_042/2024-01-15/readings.csv gives mission_042 for
 * segment(-3)); filename; full_path; rel_path (the path without its leading
 * "/"). A pattern keeps its first capture group, or the whole match. */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "schema_checks.h"
#include "norm.h"

typedef struct {
    const char *name;
    const json_t *def;
    pcre2_code *re;
} field;

static bool parse_int(const char *s)
{
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return false;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return false;
    return true;
}

static bool parse_date(const char *s)
{
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-')
        return false;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && !isdigit((unsigned char)s[i]))
            return false;
    int y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);
    static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12 || d < 1 || d > days[m - 1])
        return false;
    return !(m == 2 && d == 29 && !(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)));
}

static bool parse_uuid(const char *s)
{
    if (strlen(s) != 36)
        return false;
    for (int i = 0; i < 36; i++) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i]))
            return false;
    }
    return true;
}

/* True when text is a valid value of the declared type (no type: anything). */
static bool type_ok(const char *type, const char *text)
{
    if (!type || strcmp(type, "string") == 0)
        return true;
    if (strcmp(type, "integer") == 0)
        return parse_int(text);
    if (strcmp(type, "date") == 0)
        return parse_date(text);
    if (strcmp(type, "uuid") == 0)
        return parse_uuid(text);
    return true;
}

/* The n-th '/'-separated non-empty segment of path (negative: from the end). */
static bool segment(const char *path, long n, size_t *s, size_t *e)
{
    size_t count = 0, len = strlen(path);
    for (size_t i = 0; i < len; i++)
        if (path[i] != '/' && (i == 0 || path[i - 1] == '/'))
            count++;
    long want = n < 0 ? (long)count + n : n;
    if (want < 0 || want >= (long)count)
        return false;
    long k = -1;
    for (size_t i = 0; i < len; i++)
        if (path[i] != '/' && (i == 0 || path[i - 1] == '/') && ++k == want) {
            *s = i;
            *e = i + strcspn(path + i, "/");
            return true;
        }
    return false;
}

/* The value field f extracts from path, or NULL when it extracts nothing. Caller frees. */
static char *extract(const field *f, const char *path)
{
    const char *from = json_string_value(json_object_get(f->def, "from"));
    size_t s = 0, e = strlen(path);
    if (!from)
        return NULL;
    if (strncmp(from, "segment(", 8) == 0) {
        if (!segment(path, strtol(from + 8, NULL, 10), &s, &e))
            return NULL;
    } else if (strcmp(from, "filename") == 0) {
        const char *slash = strrchr(path, '/');
        s = slash ? (size_t)(slash - path) + 1 : 0;
    } else if (strcmp(from, "rel_path") == 0) {
        while (s < e && path[s] == '/')
            s++;
    } else if (strcmp(from, "full_path") != 0) {
        return NULL;
    }
    if (f->re) {
        size_t ov[4];
        if (mf_regex_search(f->re, path + s, e - s, ov, 2) != 1)
            return NULL;
        size_t g = ov[2] != (size_t)-1 ? 1 : 0;
        e = s + ov[2 * g + 1];
        s = s + ov[2 * g];
    }
    char *v = mf_strndup(path + s, e - s);
    const char *norm = json_string_value(json_object_get(f->def, "normalize"));
    if (v && norm) {
        if (strcmp(norm, "lowercase") == 0 || strcmp(norm, "uppercase") == 0) {
            for (char *c = v; *c; c++)
                *c = (char)(norm[0] == 'l' ? tolower((unsigned char)*c) : toupper((unsigned char)*c));
        } else if (strcmp(norm, "strip_leading_zeros") == 0) {
            size_t z = 0;
            while (v[z] == '0' && isdigit((unsigned char)v[z + 1]))
                z++;
            memmove(v, v + z, strlen(v + z) + 1);
        }
    }
    if (v && !*v) {
        free(v);
        v = NULL;
    }
    return v;
}

static int semantic(const json_t *rule, field *fields, size_t n, const json_t *samples, mf_error *err)
{
    const char *glob = json_string_value(json_object_get(rule, "glob"));
    size_t ns = json_array_size(samples), matched = 0, extracted = 0;
    char path[600];
    for (size_t i = 0; i < n; i++) {
        const json_t *d = json_object_get(fields[i].def, "default");
        const char *type = json_string_value(json_object_get(fields[i].def, "type"));
        if (!d || json_is_null(d))
            continue;
        char *text = json_is_string(d) ? mf_strdup0(json_string_value(d))
                                       : json_dumps(d, JSON_ENCODE_ANY | JSON_COMPACT);
        bool ok = json_is_string(d) || json_is_integer(d) ? type_ok(type, text) : !type || !strcmp(type, "string");
        if (!ok) {
            snprintf(path, sizeof path, "/extract/%s/default", fields[i].name);
            mf_error_set(err, 3, "TYPE_COERCION_FAILED", path, 0, 0,
                         "Field '%s' has type %s but its default %s is not a valid %s", fields[i].name,
                         type, text, type);
        }
        free(text);
        if (!ok)
            return -1;
    }
    if (ns == 0 || !glob)
        return 0;
    for (size_t k = 0; k < ns; k++) {
        const char *sp = json_string_value(json_array_get(samples, k));
        if (!sp || fnmatch(glob, sp, 0) != 0)
            continue;
        matched++;
        bool any = false;
        for (size_t i = 0; i < n; i++) {
            char *v = extract(&fields[i], sp);
            if (!v)
                continue;
            any = true;
            const char *type = json_string_value(json_object_get(fields[i].def, "type"));
            if (!type_ok(type, v)) {
                snprintf(path, sizeof path, "/extract/%s", fields[i].name);
                mf_error_set(err, 3, "TYPE_COERCION_FAILED", path, 0, 0,
                             "Field '%s' has type %s but extracts \"%s\" from %s", fields[i].name, type, v, sp);
                free(v);
                return -1;
            }
            free(v);
        }
        extracted += any;
    }
    if (matched == 0) {
        mf_buf list = {0};
        for (size_t k = 0; k < ns && k < 3; k++)
            mf_buf_printf(&list, "\n  - %s", json_string_value(json_array_get(samples, k)) ?
                                             json_string_value(json_array_get(samples, k)) : "?");
        mf_error_set(err, 3, "GLOB_MISMATCH", "/glob", 0, 0, "Glob '%s' doesn't match any sample paths:%s",
                     glob, mf_buf_cstr(&list));
        mf_buf_free(&list);
        return -1;
    }
    if (n > 0 && extracted == 0) {
        mf_error_set(err, 3, "EMPTY_EXTRACTION", "/extract", 0, 0,
                     "Rule matches %zu sample path%s but extracts no fields from any of them", matched,
                     matched == 1 ? "" : "s");
        return -1;
    }
    return 0;
}

int mf_norm_extraction_rule(json_t **root, const mf_profile *p, const mf_options *o,
                                 mf_warnings *w, mf_error *err)
{
    if (mf_schema_gate(p, *root, w, err))
        return -1;
    json_t *extract_map = json_object_get(*root, "extract");
    size_t n = json_object_size(extract_map), i = 0;
    field *fields = calloc(n ? n : 1, sizeof *fields);
    if (!fields)
        return -1;
    int rc = 0;
    const char *k;
    json_t *v;
    json_object_foreach(extract_map, k, v) {
        fields[i].name = k;
        fields[i].def = v;
        const char *pat = json_string_value(json_object_get(v, "pattern"));
        if (pat) {
            char msg[300];
            fields[i].re = mf_regex_compile(pat, msg, sizeof msg);
            if (!fields[i].re && !rc) {
                char path[600];
                snprintf(path, sizeof path, "/extract/%s/pattern", k);
                mf_error_set(err, 2, "INVALID_REGEX", path, 0, 0, "Field '%s' has invalid regex: %s", k, msg);
                rc = -1;
            }
        }
        i++;
    }
    if (!rc)
        rc = semantic(*root, fields, n, mf_options_context(o, p, "sample_paths"), err);
    for (i = 0; i < n; i++)
        pcre2_code_free(fields[i].re);
    free(fields);
    return rc;
}
