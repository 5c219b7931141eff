/* replay_main.c - the replay driver: no engine, plain main() feeding files
 * and directories (recursively, in name order) to LLVMFuzzerTestOneInput.
 * Used by ctest over corpus/ and for debugging under gdb or valgrind. Exits
 * 0 when every input ran (an oracle failure aborts the process). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int run_file(const char *path, int verbose)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            uint8_t *t = realloc(buf, cap *= 2);
            if (!t) {
                free(buf);
                buf = NULL;
            }
            buf = t;
        }
    }
    fclose(f);
    if (!buf)
        return -1;
    if (verbose)
        fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int run_path(const char *path, int verbose, size_t *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path, verbose);
    }
    DIR *d = opendir(path);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            char **t = realloc(names, (cap = cap ? cap * 2 : 16) * sizeof *t);
            if (!t)
                break;
            names = t;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp);
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, names[i]);
        rc |= run_path(sub, verbose, count);
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    int verbose = 0, first = 1, rc = 0;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) {
        verbose = 1;
        first = 2;
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [-v] FILE|DIR...\n", argv[0]);
        return 2;
    }
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    size_t count = 0;
    for (int i = first; i < argc; i++)
        rc |= run_path(argv[i], verbose, &count);
    fprintf(stderr, "replay: %zu inputs, %s\n", count, rc ? "some unreadable" : "all passed");
    return rc ? 1 : 0;
}
