/* cmd_render.c - `malform render [--clean] CASE`: the raw model output of a
 * structured case (or, with --clean, its ground-truth text after value ops). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
#include "malform/mutators.h"

static const struct option options[] = {{"clean", no_argument, NULL, 'c'}, {0}};
static const cli_cmd cmd = {"render", "[--clean] CASE|-",
                            "Print the raw model output a structured case renders to; with --clean, its ground-truth\n"
                            "text after the value ops.\n",
                            "", options};

int cmd_render(int argc, char **argv)
{
    int clean = 0, opt, rc;
    while ((opt = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        if (opt == CLI_EXIT)
            return rc;
        clean = 1;
    }
    if (argc - optind != 1)
        return cli_usage_error(&cmd, argc == optind ? "no CASE given" : "one CASE only");
    const char *path = argv[optind];
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
    rc = 0;
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
