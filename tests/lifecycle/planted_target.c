/* planted_target.c - a test-only "fuzz target" with two planted bugs, so
 * the lifecycle tests can check triage, minimization and replay against
 * failures whose cause is known exactly.
 *
 * Called like a libFuzzer binary with one file: `planted_target FILE`.
 * - raw input containing PLANT-CRASH: an out-of-bounds heap write (ASan
 *   reports heap-buffer-overflow; without sanitizers a NULL store follows,
 *   SIGSEGV), two named frames deep;
 * - a structured case (text form of mutators.h) with an `op: cand.fence`
 *   line whose artifact contains "boom": the oracle line of the fuzz
 *   targets, then abort();
 * - PLANT-HANG: spins forever (timeouts);
 * - anything else passes. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

__attribute__((noinline)) static void planted_crash_inner(size_t at)
{
    volatile char *p = malloc(8);
    volatile size_t idx = at;        /* opaque to the compiler's bounds warnings */
    p[idx] = 1;                      /* idx >= 8: heap-buffer-overflow */
    free((void *)p);
    *(volatile int *)(uintptr_t)(at - at) = 1;   /* no sanitizer: SIGSEGV */
}

__attribute__((noinline)) static void planted_crash_outer(size_t at)
{
    planted_crash_inner(at);
}

static void planted_oracle(const char *text)
{
    char profile[64] = "?";
    const char *p = strstr(text, "\nprofile: ");
    if (p)
        sscanf(p + 10, "%63s", profile);
    fprintf(stderr, "malform-oracle: no-data-loss profile=%s ops=cand.fence rules=planted.rule: "
                    "planted failure (value 'boom' lost)\n", profile);
    fflush(stderr);
    abort();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: planted_target FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[argc - 1], "rb");
    if (!f) {
        perror(argv[argc - 1]);
        return 2;
    }
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (!strncmp(buf, "malform-case ", 13)) {
        char *sep = strstr(buf, "\n---\n");
        if (sep) {
            *sep = '\0';
            int fence = strstr(buf, "\nop: cand.fence") != NULL;
            int boom = strstr(sep + 5, "boom") != NULL;
            if (fence && boom)
                planted_oracle(buf);
        }
        return 0;
    }
    if (strstr(buf, "PLANT-HANG"))
        for (volatile int spin = 1; spin;)
            ;
    if (strstr(buf, "PLANT-CRASH"))
        planted_crash_outer(8 + n % 4);
    return 0;
}
