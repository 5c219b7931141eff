/* raw_input.c - "@<profile>\n<text>": the one decoder of raw fuzz inputs (see raw_input.h). */
#include <stdlib.h>
#include <string.h>
#include "raw_input.h"

#define MAX_NAME 64

void mf_raw_input_decode(const uint8_t *data, size_t size, const mf_profile **p, const char **text, size_t *len)
{
    *p = NULL;
    *text = (const char *)data;
    *len = size;
    if (!data || size < 2 || data[0] != '@')
        return;
    const uint8_t *nl = memchr(data, '\n', size < MAX_NAME + 2 ? size : MAX_NAME + 2);
    if (!nl)
        return;
    char name[MAX_NAME + 1];
    size_t n = (size_t)(nl - data) - 1;
    memcpy(name, data + 1, n);
    name[n] = '\0';
    const mf_profile *named = strlen(name) == n ? mf_profiles_get(name) : NULL;
    if (!named)
        return;
    *p = named;
    *text = (const char *)nl + 1;
    *len = size - (size_t)(nl + 1 - data);
}

uint8_t *mf_raw_input_encode(const char *profile, const void *text, size_t len, size_t *out_len)
{
    size_t head = profile ? strlen(profile) + 2 : 0;
    uint8_t *out = malloc(head + len + 1);
    if (!out)
        return NULL;
    if (profile) {
        out[0] = '@';
        memcpy(out + 1, profile, head - 2);
        out[head - 1] = '\n';
    }
    if (len)
        memcpy(out + head, text, len);
    out[head + len] = '\0';
    *out_len = head + len;
    return out;
}
