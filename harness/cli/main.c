/* main.c - the `malform` command: dispatch to one subcommand per file. */
#include <stdio.h>
#include <string.h>
#include "malform/malform.h"

#define CMD(name, summary) int cmd_##name(int argc, char **argv);
#include "commands.def"
#undef CMD

static const struct { const char *name, *summary; int (*run)(int, char **); } commands[] = {
#define CMD(name, summary) {#name, summary, cmd_##name},
#include "commands.def"
#undef CMD
};

static void usage(FILE *f)
{
    fprintf(f, "malform %s - fuzz and regression harness for LLM output repair pipelines\n\n"
               "usage: malform COMMAND [ARGS]\n\n", MF_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char name[32];
        snprintf(name, sizeof name, "%s", commands[i].name);
        for (char *c = name; *c; c++)
            if (*c == '_')
                *c = '-';
        fprintf(f, "  %-13s %s\n", name, commands[i].summary);
    }
    fprintf(f, "\nExit codes: 0 ok/accepted, 1 rejected/failed check, 2 usage or I/O error.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("malform %s\n", MF_VERSION);
        return 0;
    }
    char want[32];
    snprintf(want, sizeof want, "%s", argv[1]);
    for (char *c = want; *c; c++)
        if (*c == '-')
            *c = '_'; /* retry-prompt -> retry_prompt */
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (strcmp(want, commands[i].name) == 0) {
            int rc = commands[i].run(argc - 1, argv + 1);
            mf_profiles_shutdown();
            return rc;
        }
    fprintf(stderr, "malform: unknown command '%s' (try malform --help)\n", argv[1]);
    return 2;
}
