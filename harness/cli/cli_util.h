/* cli_util.h - helpers shared by the `malform` subcommands. */
#ifndef MALFORM_CLI_UTIL_H
#define MALFORM_CLI_UTIL_H

#include <stddef.h>
#include "malform/malform.h"

/* Read a whole file ("-" = stdin) of at most MF_DEFAULT_MAX_INPUT bytes
 * (mf_input_read). Returns malloc'd bytes (NUL-terminated) or NULL with a
 * message on stderr. */
char *cli_read_file(const char *path, size_t *len);
/* A profile by built-in name or by path to a profile .yaml file; NULL with a
 * message on stderr. A profile loaded from a file is owned by the caller
 * (*owned set) and freed with mf_profile_free. */
const mf_profile *cli_profile(const char *name_or_path, mf_profile **owned);
/* Print a value as JSON (json=1) or YAML to stdout; -1 (message on stderr) on failure. */
int cli_print_value(const json_t *v, int json);

/* Print v as indented JSON and a newline on stdout and release it (v NULL:
 * out of memory); 0, or 2 with a message on stderr when it cannot be written. */
int cli_print_json(json_t *v);

#endif
