/* finding.c - record a failure once per signature and keep going.
 *
 * The signature and slug code mirrors harness/lifecycle/lc_outcome.c (the
 * fuzz targets do not link the lifecycle library); tests/unit/test_finding.c
 * compares both on many lines so that they cannot drift apart. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "finding.h"

#ifndef MF_SOURCE_ROOT
#define MF_SOURCE_ROOT "."
#endif

const char *mf_finding_dir(void)
{
    const char *d = getenv("MALFORM_FINDINGS_DIR");
    return d && *d ? d : NULL;
}

/* ---- signature (as lc_outcome.c) ---- */

static void copy_line(char *out, size_t cap, const char *s, size_t n)
{
    size_t j = 0;
    for (size_t i = 0; i < n && j + 1 < cap; i++) {
        unsigned char c = (unsigned char)s[i];
        out[j++] = (c < 0x20 || c == 0x7f) ? ' ' : (char)c;
    }
    out[j] = '\0';
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sort_ids(const char *s, size_t n, char *out, size_t cap)
{
    char buf[1024], *ids[128];
    size_t k = 0;
    copy_line(buf, sizeof buf, s, n < sizeof buf ? n : sizeof buf - 1);
    for (char *save = NULL, *t = strtok_r(buf, " ,\t", &save); t && k < 128; t = strtok_r(NULL, " ,\t", &save))
        if (strcmp(t, "-") != 0)
            ids[k++] = t;
    qsort(ids, k, sizeof *ids, cmp_str);
    size_t j = 0;
    out[0] = '\0';
    for (size_t i = 0; i < k; i++) {
        if (i && !strcmp(ids[i], ids[i - 1]))
            continue;
        int w = snprintf(out + j, cap - j, "%s%s", j ? "," : "", ids[i]);
        if (w < 0 || (size_t)w >= cap - j)
            break;
        j += (size_t)w;
    }
    if (!out[0])
        snprintf(out, cap, "-");
}

void mf_finding_oracle_signature(const char *text, char *sig, size_t n, char *oracle_out, char *profile_out)
{
    const char *p = strstr(text, "malform-oracle: ");
    p = p ? p + strlen("malform-oracle: ") : text;
    const char *nl = strchr(p, '\n');
    char line[2048], oracle[64] = "", profile[64] = "", ops[256] = "", rules[256] = "";
    copy_line(line, sizeof line, p, nl ? (size_t)(nl - p) : strlen(p));
    char *prof = strstr(line, " profile="), *opsm = strstr(line, " ops="), *rulesm = strstr(line, " rules=");
    char *sp = strchr(line, ' ');
    copy_line(oracle, sizeof oracle, line, sp ? (size_t)(sp - line) : strlen(line));
    char *detail = rulesm ? strstr(rulesm, ": ") : strstr(line, ": ");
    if (detail)
        *detail = '\0';
    char *marks[3] = {prof, opsm, rulesm};
    for (int i = 0; i < 3; i++) {
        if (!marks[i])
            continue;
        char *v = strchr(marks[i], '=') + 1, *stop = v + strlen(v);
        for (int j = 0; j < 3; j++)
            if (marks[j] && marks[j] > marks[i] && marks[j] < stop)
                stop = marks[j];
        if (i == 0) {
            size_t m = (size_t)(stop - v);
            while (m && v[m - 1] == ' ')
                m--;
            copy_line(profile, sizeof profile, v, m);
        } else {
            sort_ids(v, (size_t)(stop - v), i == 1 ? ops : rules, i == 1 ? sizeof ops : sizeof rules);
        }
    }
    if (!profile[0])
        snprintf(profile, sizeof profile, "-");
    if (!ops[0])
        snprintf(ops, sizeof ops, "-");
    if (!rules[0])
        snprintf(rules, sizeof rules, "-");
    char full[720];
    snprintf(full, sizeof full, "oracle %s profile=%s rules=%s ops=%s", oracle, profile, rules, ops);
    snprintf(sig, n, "%s", full);
    if (oracle_out)
        snprintf(oracle_out, 64, "%s", oracle);
    if (profile_out)
        snprintf(profile_out, 64, "%s", profile);
}

static uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void mf_finding_slug(const char *sig, char *out, size_t n)
{
    size_t j = 0;
    int dash = 1;
    for (const char *s = sig; *s && j < 100 && j + 10 < n; s++) {
        char c = (char)tolower((unsigned char)*s);
        if (isalnum((unsigned char)c) || c == '.' || c == '_') {
            out[j++] = c == '_' ? '-' : c;
            dash = 0;
        } else if (!dash) {
            out[j++] = '-';
            dash = 1;
        }
    }
    while (j && out[j - 1] == '-')
        j--;
    snprintf(out + j, n - j, "%s%08x", j ? "-" : "", fnv1a32(sig));
}

/* ---- open signatures of the regression corpus ---- */

typedef struct {
    char *pipeline;
    char **sigs;
    size_t n;
} known_set;

static known_set known[16];
static size_t nknown;

static void add_sig(known_set *k, const char *s, size_t len)
{
    char **t = realloc(k->sigs, (k->n + 1) * sizeof *t);
    if (!t)
        return;
    k->sigs = t;
    k->sigs[k->n] = strndup(s, len);
    if (k->sigs[k->n])
        k->n++;
}

/* The header of one entry: its signatures when status is open. */
static void load_entry(known_set *k, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[1024], sig[1024] = "", orig[1024] = "";
    bool open = false;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (!strcmp(line, "---"))
            break;
        if (!strncmp(line, "signature: ", 11))
            snprintf(sig, sizeof sig, "%s", line + 11);
        else if (!strncmp(line, "original-signature: ", 20))
            snprintf(orig, sizeof orig, "%s", line + 20);
        else if (!strncmp(line, "status: ", 8))
            open = !strcmp(line + 8, "open");
    }
    fclose(f);
    if (open && sig[0])
        add_sig(k, sig, strlen(sig));
    if (open && orig[0])
        add_sig(k, orig, strlen(orig));
}

static known_set *load_known(const char *pipeline)
{
    const char *pl = pipeline && *pipeline && strcmp(pipeline, "core") ? pipeline : "core";
    for (size_t i = 0; i < nknown; i++)
        if (!strcmp(known[i].pipeline, pl))
            return &known[i];
    if (nknown == sizeof known / sizeof *known)
        return NULL;
    known_set *k = &known[nknown++];
    k->pipeline = strdup(pl);
    char dir[4096];
    const char *reg = getenv("MALFORM_REGRESSION_DIR"), *root = getenv("MALFORM_ROOT");
    if (reg && *reg)
        snprintf(dir, sizeof dir, "%s", reg);
    else
        snprintf(dir, sizeof dir, "%s/corpus/regression", root && *root ? root : MF_SOURCE_ROOT);
    if (strcmp(pl, "core")) {
        size_t l = strlen(dir);
        snprintf(dir + l, sizeof dir - l, "/%s", pl);
    }
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 5 ||
            (strcmp(e->d_name + l - 5, ".case") && strcmp(e->d_name + l - 4, ".raw")))
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        load_entry(k, path);
    }
    if (d)
        closedir(d);
    return k;
}

bool mf_finding_known(const char *sig, const char *pipeline)
{
    known_set *k = load_known(pipeline);
    for (size_t i = 0; k && i < k->n; i++)
        if (!strcmp(k->sigs[i], sig))
            return true;
    return false;
}

/* ---- writing ---- */

static int mkdirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(tmp, 0755);
            *p = '/';
        }
    return mkdir(tmp, 0755) == 0 || errno == EEXIST ? 0 : -1;
}

static void header(FILE *f, const char *key, const char *val)
{
    if (!val || !*val)
        return;
    fprintf(f, "%s: ", key);
    for (const char *s = val; *s; s++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
}

/* dir/<slug>.stderr, replaced atomically (temp file + rename); best effort:
 * the entry itself is already recorded. */
static void write_sidecar(const char *dir, const char *slug, const char *text)
{
    char path[4400], tmp[4500];
    snprintf(path, sizeof path, "%s/%s.stderr", dir, slug);
    snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%ld.stderr", dir, slug, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    bool ok = fputs(text, f) >= 0;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp);
}

mf_finding_status mf_finding_write(const char *dir, const mf_finding *fd, char *path_out, size_t n)
{
    char slug[160], path[4400], tmp[4500];
    mf_finding_slug(fd->signature, slug, sizeof slug);
    snprintf(path, sizeof path, "%s/%s.%s", dir, slug, fd->raw ? "raw" : "case");
    if (path_out)
        snprintf(path_out, n, "%s", path);
    if (access(path, F_OK) == 0)
        return MF_FINDING_SEEN;
    if (mkdirs(dir) < 0)
        return MF_FINDING_ERROR;
    static unsigned counter;
    snprintf(tmp, sizeof tmp, "%s/.tmp-%s-%ld-%u", dir, slug, (long)getpid(), counter++);
    FILE *f = fopen(tmp, "wbx");
    if (!f)
        return MF_FINDING_ERROR;
    char when[32];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    fputs("malform-regression 1\n", f);
    header(f, "signature", fd->signature);
    header(f, "kind", fd->kind ? fd->kind : "oracle");
    header(f, "oracle", fd->oracle);
    header(f, "profile", fd->profile && strcmp(fd->profile, "-") ? fd->profile : NULL);
    header(f, "pipeline", fd->pipeline && strcmp(fd->pipeline, "core") ? fd->pipeline : NULL);
    header(f, "target", fd->target);
    header(f, "engine", fd->engine);
    header(f, "first-seen", when);
    header(f, "status", "new");
    header(f, "reproduce", fd->reproduce);
    header(f, "original-signature", fd->original_signature);
    header(f, "detail", fd->detail);
    if (fd->original_size)
        fprintf(f, "original-size: %ld\n", fd->original_size);
    if (fd->minimized_size)
        fprintf(f, "minimized-size: %ld\n", fd->minimized_size);
    fputs("---\n", f);
    if (fd->payload_len)
        fwrite(fd->payload, 1, fd->payload_len, f);
    bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
    ok = fclose(f) == 0 && ok;
    if (!ok) {
        int e = errno;
        unlink(tmp);
        errno = e;
        return MF_FINDING_ERROR;
    }
    int rc = link(tmp, path);
    int e = errno;
    unlink(tmp);
    if (rc == 0) {
        if (fd->stderr_tail && *fd->stderr_tail)
            write_sidecar(dir, slug, fd->stderr_tail);
        return MF_FINDING_NEW;
    }
    if (e == EEXIST)
        return MF_FINDING_SEEN;
    errno = e;
    return MF_FINDING_ERROR;
}

/* Signatures this process has already handled (64-bit FNV-1a, open addressing). */
#define MF_SEEN_SLOTS 4096
static uint64_t seen[MF_SEEN_SLOTS];
static size_t nseen;

static uint64_t fnv64(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

/* True when h was there; else inserts it (while there is room). */
static bool seen_add(uint64_t h)
{
    size_t i = h % MF_SEEN_SLOTS;
    for (size_t probes = 0; probes < MF_SEEN_SLOTS; probes++, i = (i + 1) % MF_SEEN_SLOTS) {
        if (seen[i] == h)
            return true;
        if (!seen[i]) {
            if (nseen < MF_SEEN_SLOTS * 3 / 4) {
                seen[i] = h;
                nseen++;
            }
            return false;
        }
    }
    return false;
}

mf_finding_status mf_finding_record(const mf_finding *f)
{
    const char *dir = mf_finding_dir();
    if (!dir)
        return MF_FINDING_OFF;
    char key[1024];
    snprintf(key, sizeof key, "%s\n%s", f->pipeline ? f->pipeline : "core", f->signature);
    uint64_t h = fnv64(key);
    static uint64_t known_hashes[MF_SEEN_SLOTS / 4];
    static size_t nknown_hashes;
    for (size_t j = 0; j < nknown_hashes; j++)
        if (known_hashes[j] == h)
            return MF_FINDING_KNOWN;
    if (seen_add(h))
        return MF_FINDING_SEEN;
    if (mf_finding_known(f->signature, f->pipeline)) {
        if (nknown_hashes < sizeof known_hashes / sizeof *known_hashes)
            known_hashes[nknown_hashes++] = h;
        return MF_FINDING_KNOWN;
    }
    return mf_finding_write(dir, f, NULL, 0);
}
