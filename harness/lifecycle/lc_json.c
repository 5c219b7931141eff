/* lc_json.c - JSON text helpers shared by the lifecycle and the pipelines. */
#include "lc_json.h"
#include <stdlib.h>
#include <string.h>

char *mf_lc_json_line(const json_t *v, size_t flags, size_t *len)
{
    char *s = json_dumps(v, flags);
    if (!s)
        return NULL;
    size_t n = strlen(s);
    char *t = realloc(s, n + 2);
    if (!t) {
        free(s);
        return NULL;
    }
    t[n] = '\n';
    t[n + 1] = '\0';
    *len = n + 1;
    return t;
}
