/* signature.c - oracle-line parsing, id sorting and slugs for signatures. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "signature.h"

void mf_sig_copy_line(char *out, size_t cap, const char *s, size_t n)
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

void mf_sig_sort_ids(const char *s, size_t n, char *out, size_t cap)
{
    char buf[1024], *ids[128];
    size_t k = 0;
    mf_sig_copy_line(buf, sizeof buf, s, n < sizeof buf ? n : sizeof buf - 1);
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

void mf_sig_parse_oracle(const char *text, size_t n, mf_sig_oracle *f)
{
    memset(f, 0, sizeof *f);
    char line[2048];
    mf_sig_copy_line(line, sizeof line, text, n);
    char *prof = strstr(line, " profile="), *ops = strstr(line, " ops="), *rules = strstr(line, " rules=");
    char *sp = strchr(line, ' ');
    mf_sig_copy_line(f->oracle, sizeof f->oracle, line, sp ? (size_t)(sp - line) : strlen(line));
    char *detail = rules ? strstr(rules, ": ") : strstr(line, ": ");
    if (detail) {
        mf_sig_copy_line(f->detail, sizeof f->detail, detail + 2, strlen(detail + 2));
        *detail = '\0';
    }
    /* Each field runs to the next field marker (whichever comes first). */
    char *marks[3] = {prof, ops, rules};
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
            mf_sig_copy_line(f->profile, sizeof f->profile, v, m);
        } else {
            mf_sig_sort_ids(v, (size_t)(stop - v), i == 1 ? f->ops : f->rules, i == 1 ? sizeof f->ops : sizeof f->rules);
        }
    }
    if (!f->profile[0])
        snprintf(f->profile, sizeof f->profile, "-");
    if (!f->ops[0])
        snprintf(f->ops, sizeof f->ops, "-");
    if (!f->rules[0])
        snprintf(f->rules, sizeof f->rules, "-");
}

void mf_sig_oracle_format(const mf_sig_oracle *f, char *sig, size_t n)
{
    snprintf(sig, n, "oracle %s profile=%s rules=%s ops=%s", f->oracle, f->profile, f->rules, f->ops);
}

static uint32_t fnv1a32(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void mf_sig_slug(const char *sig, char *out, size_t n)
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
