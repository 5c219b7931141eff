/* lc_entry.c - the regression entry: one minimized reproducer per signature.
 *
 * corpus/regression/<signature-slug>.case (a structured case) or .raw
 * (bytes, e.g. a fuzz_raw input or a field failure) is a small header of
 * `key: value` lines, a `---` line, then the exact bytes the fuzz target
 * consumed (the same shape as the structured case itself):
 *
 *   malform-regression 1
 *   signature: oracle idempotence profile=prd rules=yaml.colon-space ops=yaml.colon-space
 *   kind: oracle
 *   oracle: idempotence
 *   profile: prd
 *   target: structured
 *   engine: libfuzzer
 *   first-seen: 2026-11-21T23:59:00Z
 *   status: open
 *   reproduce: malform replay -v corpus/regression/<slug>.case
 *   ...
 *   ---
 *   malform-case 1
 *   profile: prd
 *   ...
 *
 * The header is text and diffable; the payload is never re-encoded. `status`
 * is `open` (must still fail the recorded way) or `fixed` (must pass); a
 * human flips it in the commit that fixes the bug. Entries are created with
 * link() so that an existing entry is never overwritten. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lifecycle.h"

void mf_lc_entry_free(mf_lc_entry *e)
{
    char **strs[] = {&e->signature, &e->kind, &e->oracle, &e->profile, &e->target, &e->engine,
                     &e->first_seen, &e->status, &e->reproduce, &e->original_signature, &e->detail,
                     &e->source, &e->path};
    for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
        free(*strs[i]);
        *strs[i] = NULL;
    }
    free(e->payload);
    e->payload = NULL;
    e->payload_len = 0;
}

static char **field(mf_lc_entry *e, const char *key)
{
    static const char *names[] = {"signature", "kind", "oracle", "profile", "target", "engine", "first-seen",
                                  "status", "reproduce", "original-signature", "detail", "source"};
    char **slots[] = {&e->signature, &e->kind, &e->oracle, &e->profile, &e->target, &e->engine,
                      &e->first_seen, &e->status, &e->reproduce, &e->original_signature, &e->detail, &e->source};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (!strcmp(key, names[i]))
            return slots[i];
    return NULL;
}

int mf_lc_entry_parse(const char *text, size_t len, mf_lc_entry *e, char *err, size_t errlen)
{
    memset(e, 0, sizeof *e);
    size_t ml = strlen(MF_LC_ENTRY_MAGIC);
    if (len < ml || memcmp(text, MF_LC_ENTRY_MAGIC, ml) != 0 || (len > ml && text[ml] != '\n')) {
        snprintf(err, errlen, "not a regression entry (first line must be '%s')", MF_LC_ENTRY_MAGIC);
        return -1;
    }
    const char *p = text + ml + 1, *end = text + len;
    int lineno = 1;
    while (p < end) {
        lineno++;
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = (size_t)((nl ? nl : end) - p);
        if (n && p[n - 1] == '\r')
            n--;
        if (n == 3 && !memcmp(p, "---", 3)) {
            p = nl ? nl + 1 : end;
            size_t pl = (size_t)(end - p);
            e->payload = malloc(pl + 1);
            if (!e->payload) {
                snprintf(err, errlen, "out of memory");
                mf_lc_entry_free(e);
                return -1;
            }
            memcpy(e->payload, p, pl);
            e->payload[pl] = '\0';
            e->payload_len = pl;
            break;
        }
        const char *colon = memchr(p, ':', n);
        if (!colon || colon + 1 >= p + n || colon[1] != ' ') {
            snprintf(err, errlen, "line %d: expected 'key: value'", lineno);
            mf_lc_entry_free(e);
            return -1;
        }
        char key[64], *val;
        snprintf(key, sizeof key, "%.*s", (int)(colon - p), p);
        val = strndup(colon + 2, (size_t)(p + n - colon - 2));
        char **slot = field(e, key);
        if (slot) {
            free(*slot);
            *slot = val;
        } else {
            if (!strcmp(key, "original-size"))
                e->original_size = strtol(val, NULL, 10);
            else if (!strcmp(key, "minimized-size"))
                e->minimized_size = strtol(val, NULL, 10);
            free(val);   /* unknown keys are tolerated for forward compatibility */
        }
        p = nl ? nl + 1 : end;
    }
    if (!e->payload) {
        snprintf(err, errlen, "no '---' line before the payload");
        mf_lc_entry_free(e);
        return -1;
    }
    /* kind protocol: a pipeline worker broke the protocol; status new: a finding not yet triaged */
    if (!e->signature || !e->kind || !e->status || (mf_lc_kind_parse(e->kind) < 0 && strcmp(e->kind, "protocol")) ||
        (strcmp(e->status, "open") && strcmp(e->status, "fixed") && strcmp(e->status, "new"))) {
        snprintf(err, errlen,
                 "header needs signature, kind (oracle|crash|timeout|oom|leak|protocol) and status (open|fixed|new)");
        mf_lc_entry_free(e);
        return -1;
    }
    return 0;
}

int mf_lc_entry_read(const char *path, mf_lc_entry *e, char *err, size_t errlen)
{
    size_t len;
    char *text = mf_lc_read(path, &len);
    if (!text) {
        memset(e, 0, sizeof *e);
        snprintf(err, errlen, "cannot read: %s", strerror(errno));
        return -1;
    }
    int rc = mf_lc_entry_parse(text, len, e, err, errlen);
    free(text);
    if (rc == 0) {
        e->path = strdup(path);
        size_t pl = strlen(path);
        e->raw = pl > 4 && !strcmp(path + pl - 4, ".raw");
    }
    return rc;
}

char *mf_lc_entry_format(const mf_lc_entry *e, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    if (!f)
        return NULL;
    fprintf(f, "%s\n", MF_LC_ENTRY_MAGIC);
    const struct { const char *k, *v; } kv[] = {
        {"signature", e->signature}, {"kind", e->kind}, {"oracle", e->oracle}, {"profile", e->profile},
        {"target", e->target}, {"engine", e->engine}, {"first-seen", e->first_seen}, {"status", e->status},
        {"reproduce", e->reproduce}, {"original-signature", e->original_signature}, {"source", e->source},
        {"detail", e->detail}};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++) {
        if (!kv[i].v || !*kv[i].v)
            continue;
        fprintf(f, "%s: ", kv[i].k);
        for (const char *s = kv[i].v; *s; s++)   /* header values stay on one line */
            fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
        fputc('\n', f);
    }
    if (e->original_size)
        fprintf(f, "original-size: %ld\n", e->original_size);
    if (e->minimized_size)
        fprintf(f, "minimized-size: %ld\n", e->minimized_size);
    fputs("---\n", f);
    if (e->payload_len)
        fwrite(e->payload, 1, e->payload_len, f);
    if (fclose(f) != 0) {
        free(buf);
        return NULL;
    }
    if (len)
        *len = n;
    return buf;
}

int mf_lc_entry_create(const char *dir, const char *slug, const mf_lc_entry *e,
                       char *path_out, size_t n, char *err, size_t errlen)
{
    snprintf(path_out, n, "%s/%s.%s", dir, slug, e->raw ? "raw" : "case");
    if (mf_lc_mkdirs(dir) < 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    size_t len;
    char *text = mf_lc_entry_format(e, &len);
    if (!text) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = mf_lc_write_new(path_out, text, len);
    if (rc < 0)
        snprintf(err, errlen, "cannot write %s: %s", path_out, strerror(errno));
    free(text);
    return rc;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **mf_lc_entry_list(const char *dir, size_t *count)
{
    size_t n = 0, cap = 16;
    char **v = calloc(cap + 1, sizeof *v);
    DIR *d = v ? opendir(dir) : NULL;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        size_t l = strlen(de->d_name);
        if (de->d_name[0] == '.' || l < 5 ||
            (strcmp(de->d_name + l - 4, ".raw") && (l < 6 || strcmp(de->d_name + l - 5, ".case"))))
            continue;
        if (n == cap) {
            char **nv = realloc(v, (cap * 2 + 1) * sizeof *v);
            if (!nv)
                break;
            v = nv;
            cap *= 2;
        }
        size_t pl = strlen(dir) + l + 2;
        if ((v[n] = malloc(pl)) != NULL)
            snprintf(v[n++], pl, "%s/%s", dir, de->d_name);
    }
    if (d)
        closedir(d);
    if (v) {
        v[n] = NULL;
        qsort(v, n, sizeof *v, cmp_path);
    }
    if (count)
        *count = n;
    return v;
}

void mf_lc_paths_free(char **paths)
{
    for (size_t i = 0; paths && paths[i]; i++)
        free(paths[i]);
    free(paths);
}
