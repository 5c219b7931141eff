/* cmd_report.c - `malform report`: the nightly report, written by the Python
 * package in reports/ (malform_reports).
 *
 * The C side only finds things and execs: the source tree (MALFORM_ROOT, else
 * upwards from this executable, else from this file's compile-time path), the
 * interpreter that tools/python-env.sh prints (Debian's python3 in .venv), and
 * then `python -m malform_reports SUBCOMMAND --malform SELF ARGS...` with
 * PYTHONPATH=reports. `malform mine` (cmd_mine.c) goes through the same bridge. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lc_proc.h"

int cli_run_python(const char *sub, int argc, char **argv);

static int is_root(const char *dir)
{
    char p[PATH_MAX];
    if (snprintf(p, sizeof p, "%s/tools/python-env.sh", dir) >= (int)sizeof p || access(p, X_OK))
        return 0;
    return snprintf(p, sizeof p, "%s/reports/malform_reports/__main__.py", dir) < (int)sizeof p &&
           access(p, R_OK) == 0;
}

/* Strip the last path component in place; 0 when nothing is left. */
static int up(char *dir)
{
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    return 1;
}

static int find_root(char *root, size_t n)
{
    const char *env = getenv("MALFORM_ROOT");
    if (env && *env && strlen(env) < n && is_root(env)) {
        strcpy(root, env);
        return 1;
    }
    ssize_t len = readlink("/proc/self/exe", root, n - 1);
    if (len > 0) {
        root[len] = '\0';
        while (up(root))
            if (is_root(root))
                return 1;
    }
    if (strlen(__FILE__) < n && __FILE__[0] == '/') {
        strcpy(root, __FILE__); /* .../harness/cli/cmd_report.c */
        if (up(root) && up(root) && up(root) && is_root(root))
            return 1;
    }
    return 0;
}

/* The interpreter path printed by tools/python-env.sh, or 0 (its stderr is shown). */
static int python_path(const char *root, char *py, size_t n)
{
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s/tools/python-env.sh", root);
    char *argv[] = {script, NULL};
    mf_lc_proc p = {.argv = argv, .capture = n - 1, .keep_stderr = true};
    int st = mf_lc_proc_run(&p);
    snprintf(py, n, "%s", p.out ? p.out : "");
    mf_lc_proc_free(&p);
    py[strcspn(py, "\r\n")] = '\0';
    return st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 && py[0] == '/' && access(py, X_OK) == 0;
}

int cli_run_python(const char *sub, int argc, char **argv)
{
    char root[PATH_MAX], py[PATH_MAX], self[PATH_MAX], pypath[PATH_MAX * 2];
    if (!find_root(root, sizeof root)) {
        fprintf(stderr, "malform %s: cannot find the malform source tree (tools/python-env.sh and reports/); "
                        "set MALFORM_ROOT to it\n", sub);
        return 2;
    }
    if (!python_path(root, py, sizeof py)) {
        fprintf(stderr, "malform %s: the Python environment is not available (%s/tools/python-env.sh failed; "
                        "run tools/setup-deps.sh for python3-venv, python3-matplotlib, python3-jinja2)\n", sub, root);
        return 2;
    }
    const char *old = getenv("PYTHONPATH");
    snprintf(pypath, sizeof pypath, "%s/reports%s%s", root, old && *old ? ":" : "", old && *old ? old : "");
    setenv("PYTHONPATH", pypath, 1);
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    char **args = calloc((size_t)argc + 7, sizeof *args);
    if (!args) {
        fprintf(stderr, "malform %s: out of memory\n", sub);
        return 2;
    }
    int k = 0;
    args[k++] = py;
    args[k++] = "-m";
    args[k++] = "malform_reports";
    args[k++] = (char *)sub;
    if (sl > 0) {
        self[sl] = '\0';
        args[k++] = "--malform";
        args[k++] = self;
    }
    for (int i = 1; i < argc; i++)
        args[k++] = argv[i];
    args[k] = NULL;
    fflush(NULL);
    execv(py, args);
    fprintf(stderr, "malform %s: cannot run %s: %s\n", sub, py, strerror(errno));
    free(args);
    return 2;
}

int cmd_report(int argc, char **argv)
{
    return cli_run_python("report", argc, argv);
}
