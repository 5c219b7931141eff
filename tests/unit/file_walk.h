/* file_walk.h - run a check on every file of a fixture tree (one level of
 * subdirectories: tests/fixtures/rules/<rule>/, corpus/seeds/<profile>/) whose
 * name ends with a given extension. For the unit tests only. */
#ifndef MALFORM_TEST_FILE_WALK_H
#define MALFORM_TEST_FILE_WALK_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Read path whole into a NUL-terminated heap buffer (*len bytes); NULL on error. */
static inline char *fw_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0, got;
    char *s = malloc(cap + 1);
    while (s && (got = fread(s + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *t = realloc(s, 2 * cap + 1);
            if (!t) {
                free(s);
                s = NULL;
                break;
            }
            s = t;
            cap *= 2;
        }
    }
    fclose(f);
    if (s) {
        s[n] = '\0';
        *len = n;
    }
    return s;
}

/* Call check(path, text, len) on every file under dir/<sub>/ whose name ends
 * with ext; returns the number of files, or (size_t)-1 when dir cannot be read
 * or a file cannot be read. */
static inline size_t fw_walk(const char *dir, const char *ext, void (*check)(const char *, const char *, size_t))
{
    DIR *d = opendir(dir);
    if (!d)
        return (size_t)-1;
    size_t files = 0, el = strlen(ext);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        DIR *s = opendir(sub);
        for (struct dirent *x; s && (x = readdir(s));) {
            size_t l = strlen(x->d_name);
            if (l <= el || strcmp(x->d_name + l - el, ext) != 0)
                continue;
            char path[8200];
            size_t len;
            snprintf(path, sizeof path, "%s/%s", sub, x->d_name);
            char *text = fw_slurp(path, &len);
            if (!text) {
                closedir(s);
                closedir(d);
                return (size_t)-1;
            }
            check(path, text, len);
            free(text);
            files++;
        }
        if (s)
            closedir(s);
    }
    closedir(d);
    return files;
}

#endif
