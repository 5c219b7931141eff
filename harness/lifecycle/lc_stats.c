/* lc_stats.c - one stats summer for the fuzz runs and the nightly (see lc_stats.h). */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "lc_stats.h"

static void sum_into(json_t *acc, const char *key, const json_t *v)
{
    json_t *have = json_object_get(acc, key);
    if (json_is_integer(v)) {
        json_object_set_new(acc, key, json_integer(json_integer_value(have) + json_integer_value(v)));
    } else if (json_is_object(v)) {
        if (!json_is_object(have))
            json_object_set_new(acc, key, have = json_object());
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
            sum_into(have, k, x);
    }
}

void mf_lc_stats_add(json_t *acc, const json_t *doc)
{
    static const char *const keys[] = {"execs", "rules_fired", "ops_applied", "verdicts", "known_findings", "findings",
                                       "valid_renders"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const json_t *v = json_object_get(doc, keys[i]);
        if (v)
            sum_into(acc, keys[i], v);
    }
}

static bool skipped_dir(const char *name)
{
    return !strcmp(name, "queue") || !strncmp(name, "corpus", 6) || !strcmp(name, "crashes") ||
           !strcmp(name, "hangs");
}

int mf_lc_stats_sum_dir(json_t *acc, const char *dir, const char *prefix, const char *suffix, int max_depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int files = 0;
    size_t pl = strlen(prefix), sl = strlen(suffix);
    for (struct dirent *de; (de = readdir(d)) != NULL;) {
        if (de->d_name[0] == '.')
            continue;
        char p[4096];
        if (snprintf(p, sizeof p, "%s/%s", dir, de->d_name) >= (int)sizeof p)
            continue;
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        size_t l = strlen(de->d_name);
        if (S_ISDIR(st.st_mode)) {
            if (max_depth > 0 && !skipped_dir(de->d_name))
                files += mf_lc_stats_sum_dir(acc, p, prefix, suffix, max_depth - 1);
            continue;
        }
        if (!S_ISREG(st.st_mode) || l < pl + sl || strncmp(de->d_name, prefix, pl) ||
            strcmp(de->d_name + l - sl, suffix) || strstr(de->d_name, ".tmp"))
            continue;
        json_t *j = json_load_file(p, 0, NULL);
        if (j) {
            mf_lc_stats_add(acc, j);
            files++;
        }
        json_decref(j);
    }
    closedir(d);
    return files;
}
