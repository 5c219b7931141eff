/* cli_args.c - getopt_long with the help and usage-error conventions every
 * subcommand shares (see cli_args.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_args.h"

#define CLI_MAX_OPTIONS 64

static void print_usage(const cli_cmd *cmd, FILE *f)
{
    fprintf(f, "usage: malform %s", cmd->name);
    if (cmd->synopsis && *cmd->synopsis) {
        fputc(' ', f);
        for (const char *s = cmd->synopsis; *s; s++) {
            fputc(*s, f);
            if (*s == '\n') /* continuation lines line up under the first */
                fprintf(f, "%*s", (int)(strlen("usage: malform  ") + strlen(cmd->name)), "");
        }
    }
    fputc('\n', f);
}

int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "malform %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    print_usage(cmd, stderr);
    fprintf(stderr, "(malform %s --help for details)\n", cmd->name);
    return 2;
}

static const struct option *find_long(const struct option *opts, const char *arg)
{
    size_t n = strcspn(arg, "=");
    for (; opts && opts->name; opts++)
        if (strlen(opts->name) == n && !strncmp(opts->name, arg, n))
            return opts;
    return NULL;
}

/* The reason getopt_long rejected the element just read (c is '?' or ':'). */
static int bad_option(const cli_cmd *cmd, int c, int argc, char **argv)
{
    const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";
    if (!strncmp(arg, "--", 2)) {
        const struct option *o = find_long(cmd->longopts, arg + 2);
        if (c == ':')
            return cli_usage_error(cmd, "option '%s' needs a value", arg);
        if (o && o->has_arg == no_argument && strchr(arg, '='))
            return cli_usage_error(cmd, "option '--%s' takes no value", o->name);
        return cli_usage_error(cmd, "unknown or ambiguous option '%.*s'", (int)strcspn(arg, "="), arg);
    }
    if (c == ':')
        return cli_usage_error(cmd, "option '-%c' needs a value", optopt);
    return cli_usage_error(cmd, "unknown option '-%c'", optopt);
}

int cli_next_option(const cli_cmd *cmd, int argc, char **argv, int *rc)
{
    struct option all[CLI_MAX_OPTIONS + 1] = {{0}};
    char shortopts[128];
    size_t n = 0;
    for (const struct option *o = cmd->longopts; o && o->name && n < CLI_MAX_OPTIONS; o++)
        all[n++] = *o;
    all[n] = (struct option){"help", no_argument, NULL, 'h'};
    snprintf(shortopts, sizeof shortopts, ":h%s", cmd->shortopts ? cmd->shortopts : "");
    opterr = 0;
    int c = getopt_long(argc, argv, shortopts, all, NULL);
    if (c == 'h') {
        print_usage(cmd, stdout);
        if (cmd->details)
            fputs(cmd->details, stdout);
        *rc = 0;
        return CLI_EXIT;
    }
    if (c == '?' || c == ':') {
        *rc = bad_option(cmd, c, argc, argv);
        return CLI_EXIT;
    }
    return c;
}

bool cli_int_arg(const cli_cmd *cmd, const char *opt, const char *s, long min, long max, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) {
        cli_usage_error(cmd, "%s wants a whole number from %ld to %ld, not '%s'", opt, min, max, s);
        return false;
    }
    *out = (int)v;
    return true;
}

bool cli_double_arg(const cli_cmd *cmd, const char *opt, const char *s, double min, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < min) {
        cli_usage_error(cmd, "%s wants a number of at least %g, not '%s'", opt, min, s);
        return false;
    }
    *out = v;
    return true;
}

int cli_need_path(const cli_cmd *cmd, const char *what, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return 0;
    fprintf(stderr, "malform %s: %s %s: %s\n", cmd->name, what, path, strerror(errno));
    return 2;
}

int cli_json_flag_only(const cli_cmd *cmd, int argc, char **argv, bool *json)
{
    int c, rc;
    *json = false;
    while ((c = cli_next_option(cmd, argc, argv, &rc)) != -1) {
        if (c == CLI_EXIT)
            return rc;
        *json = true;
    }
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    return -1;
}
