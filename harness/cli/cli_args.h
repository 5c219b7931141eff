/* cli_args.h - one way for every `malform` subcommand to read its options
 * (getopt_long: `--opt value`, `--opt=value`, `--` ends the options, operands
 * anywhere) and to print its help (stdout, exit 0) or a usage error (the
 * reason and the usage on stderr, exit 2). */
#ifndef MALFORM_CLI_ARGS_H
#define MALFORM_CLI_ARGS_H

#include <getopt.h>
#include <stdbool.h>

/* A subcommand's command line: what --help prints and what getopt reads. */
typedef struct cli_cmd {
    const char *name;               /* as typed after `malform`, e.g. "retry-prompt" */
    const char *synopsis;           /* after "usage: malform NAME "; may hold newlines */
    const char *details;            /* further --help text, or NULL */
    const char *shortopts;          /* getopt short options, without "h" */
    const struct option *longopts;  /* {0}-terminated, without "help"; NULL for none */
} cli_cmd;

/* cli_next_option's result after it printed the help or a usage error. */
#define CLI_EXIT (-2)

/* The next option of argv (its `val`; optarg holds its value), -1 after the
 * last (argv[optind..] are the operands), or CLI_EXIT with *rc set to 0 after
 * -h/--help or to 2 after an unknown option or a missing value. */
int cli_next_option(const cli_cmd *cmd, int argc, char **argv, int *rc);

/* Print "malform NAME: REASON" and the usage to stderr; returns 2. */
int cli_usage_error(const cli_cmd *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse s as a whole integer in [min, max] into *out; a usage error (false)
 * naming opt otherwise. */
bool cli_int_arg(const cli_cmd *cmd, const char *opt, const char *s, long min, long max, int *out);

/* Parse s as a whole finite number >= min into *out; a usage error (false)
 * naming opt otherwise. */
bool cli_double_arg(const cli_cmd *cmd, const char *opt, const char *s, double min, double *out);

/* The command line of a listing whose only option is --json (sets *json):
 * -1 to go on, or the exit code after the help, a usage error or an operand. */
int cli_json_flag_only(const cli_cmd *cmd, int argc, char **argv, bool *json);

/* 0 when path exists, else a usage error naming what (e.g. "WORKDIR"): 2. */
int cli_need_path(const cli_cmd *cmd, const char *what, const char *path);

#endif
