/* cli_util.c - file input, profile lookup and option parsing for the CLI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "malform: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 65536, n = 0;
    char *buf = malloc(cap + 1);
    for (;;) {
        if (!buf) {
            fprintf(stderr, "malform: out of memory reading %s\n", path);
            break;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            cap *= 2;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                continue;
            }
            buf = nb;
        }
    }
    int err = ferror(f);
    if (f != stdin)
        fclose(f);
    if (err && buf) {
        fprintf(stderr, "malform: cannot read %s\n", path);
        free(buf);
        return NULL;
    }
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

const mf_profile *cli_profile(const char *name, mf_profile **owned)
{
    *owned = NULL;
    const mf_profile *p = mf_profiles_get(name);
    if (p)
        return p;
    if (strchr(name, '/') || strstr(name, ".yaml")) {
        char err[512];
        *owned = mf_profile_load_file(name, err, sizeof err);
        if (!*owned)
            fprintf(stderr, "malform: %s\n", err);
        return *owned;
    }
    fprintf(stderr, "malform: unknown profile '%s' (malform profiles lists them)\n", name);
    return NULL;
}


void cli_print_value(const json_t *v, int json)
{
    char *s = json ? mf_value_to_json(v) : mf_value_to_yaml(v);
    if (s) {
        fputs(s, stdout);
        if (json)
            fputc('\n', stdout);
    }
    free(s);
}
