/* lc_runner.c - which program reproduces an input of a given fuzz target.
 *
 * The same target sources build several ways (CMake presets): libFuzzer with
 * ASan+UBSan in build/fuzz (a libFuzzer binary given a file runs it once,
 * prints symbolized stacks and DEDUP_TOKENs: the best reproducer), and the
 * plain replay driver (replay_<target>) in the build of the running CLI and
 * in the sanitize and default builds, in that order of preference; the root is found from $MALFORM_ROOT or from
 * where the running `malform` binary lives. */
#define _DEFAULT_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lifecycle.h"

const char *mf_lc_root(void)
{
    static char root[PATH_MAX];
    if (root[0])
        return root;
    const char *env = getenv("MALFORM_ROOT");
    if (env && *env) {
        snprintf(root, sizeof root, "%s", env);
        return root;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *b = strstr(exe, "/build/");
        if (b) {
            *b = '\0';
            char probe[PATH_MAX + 32];
            snprintf(probe, sizeof probe, "%s/CMakeLists.txt", exe);
            if (access(probe, F_OK) == 0) {
                snprintf(root, sizeof root, "%s", exe);
                return root;
            }
        }
    }
    if (!getcwd(root, sizeof root))
        snprintf(root, sizeof root, ".");
    return root;
}

char **mf_lc_argv_split(const char *cmd)
{
    size_t n = 0;
    char **v = calloc(strlen(cmd) / 2 + 2, sizeof *v);
    char *copy = strdup(cmd);
    if (!v || !copy) {
        free(v);
        free(copy);
        return NULL;
    }
    for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        v[n++] = strdup(t);
    free(copy);
    v[n] = NULL;
    return v;
}

static bool executable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The build directory of the running `malform` (BUILD/harness/malform). */
static bool own_build_dir(char *out, size_t n)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return false;
    exe[len] = '\0';
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return false;
        *slash = '\0';
    }
    snprintf(out, n, "%s", exe);
    return true;
}

char **mf_lc_find_runner(const char *root, const char *target, bool *libfuzzer)
{
    *libfuzzer = false;
    if (!target || !*target || strchr(target, '/'))
        return NULL;
    char cand[5][PATH_MAX + 300], own[PATH_MAX];
    int nc = 0;
    snprintf(cand[nc++], sizeof cand[0], "%s/build/fuzz/fuzz_%s", root, target);
    if (own_build_dir(own, sizeof own))
        snprintf(cand[nc++], sizeof cand[0], "%s/replay_%s", own, target);
    snprintf(cand[nc++], sizeof cand[0], "%s/build/sanitize/replay_%s", root, target);
    snprintf(cand[nc++], sizeof cand[0], "%s/build/default/replay_%s", root, target);
    for (int i = 0; i < nc; i++) {
        if (!executable_file(cand[i]))
            continue;
        char **v = calloc(2, sizeof *v);
        if (!v)
            return NULL;
        v[0] = strdup(cand[i]);
        *libfuzzer = i == 0;
        return v;
    }
    return NULL;
}
