/* cmd_render.c - `malform render [--clean] CASE`: the raw model output of a
 * structured case (or, with --clean, its ground-truth text after value ops). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_util.h"
#include "malform/mutators.h"

int cmd_render(int argc, char **argv)
{
    int clean = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--clean"))
            clean = 1;
        else if (!path && (argv[i][0] != '-' || !strcmp(argv[i], "-")))
            path = argv[i];
        else
            path = NULL, i = argc;
    }
    if (!path) {
        fprintf(stderr, "usage: malform render [--clean] CASE\n");
        return 2;
    }
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text)
        return 2;
    char err[256];
    mf_case *c = mf_case_decode(text, len, err, sizeof err);
    free(text);
    if (!c) {
        fprintf(stderr, "malform: %s: %s\n", path, err);
        return 2;
    }
    mf_render r;
    int rc = 0;
    if (mf_case_render(c, &r) < 0) {
        fprintf(stderr, "malform: %s: %s\n", path, r.error);
        rc = 2;
    } else {
        fwrite(clean ? r.clean : r.raw, 1, clean ? r.clean_len : r.raw_len, stdout);
        for (size_t i = 0; i < c->nops; i++)
            if (!r.applied[i])
                fprintf(stderr, "malform: note: op %s (seed %llu) found no site and was not applied\n",
                        c->ops[i].op->id, (unsigned long long)c->ops[i].seed);
    }
    mf_render_free(&r);
    mf_case_free(c);
    return rc;
}
