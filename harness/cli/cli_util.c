/* cli_util.c - file input, profile lookup and option parsing for the CLI. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "malform/input.h"

char *cli_read_file(const char *path, size_t *len)
{
    char *buf;
    mf_input_status st = mf_input_read(path, MF_DEFAULT_MAX_INPUT, &buf, len);
    if (st == MF_INPUT_OK)
        return buf;
    fprintf(stderr, "malform: %s\n", mf_input_describe(st, path, MF_DEFAULT_MAX_INPUT));
    free(buf);
    return NULL;
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


int cli_print_value(const json_t *v, int json)
{
    if (mf_value_write(v, json, stdout) == 0)
        return 0;
    fprintf(stderr, "malform: cannot write the value (out of memory or output closed)\n");
    return -1;
}

int cli_print_json(json_t *v)
{
    char *s = v ? json_dumps(v, JSON_INDENT(2)) : NULL;
    int rc = 0;
    if (!s || puts(s) == EOF) {
        fprintf(stderr, "malform: cannot write the JSON output (out of memory or output closed)\n");
        rc = 2;
    }
    free(s);
    json_decref(v);
    return rc;
}
