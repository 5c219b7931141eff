/* pl_text.c - UTF-8 cleaning for requests and the string table that keeps
 * the rule ids and error types of worker results alive. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 when invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) || (s[0] == 0xF0 && s[1] < 0x90) ||
        (s[0] == 0xF4 && s[1] > 0x8F))
        return 0;
    return len;
}

char *mf_pl_utf8_clean(const char *data, size_t len, size_t *out_len)
{
    char *o = malloc(len * 3 + 1);
    size_t k = 0;
    if (!o)
        return NULL;
    const unsigned char *s = (const unsigned char *)data;
    for (size_t i = 0; i < len;) {
        size_t l = utf8_seq(s + i, len - i);
        if (l) {
            memcpy(o + k, s + i, l);
            k += l;
            i += l;
        } else {
            memcpy(o + k, "\xEF\xBF\xBD", 3);
            k += 3;
            i++;
        }
    }
    o[k] = '\0';
    *out_len = k;
    return o;
}

/* Open-addressing set of strings; entries live until exit (they are few:
 * the distinct rule ids and error types the workers report). */
#define INTERN_MAX 4096
static char *interned[INTERN_MAX];

const char *mf_pl_intern(const char *s)
{
    if (!s)
        return NULL;
    uint64_t h = 1469598103934665603ull;
    for (const char *p = s; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    for (size_t i = 0; i < INTERN_MAX; i++) {
        size_t slot = (h + i) % INTERN_MAX;
        if (!interned[slot])
            return (interned[slot] = strdup(s)) ? interned[slot] : "?";
        if (!strcmp(interned[slot], s))
            return interned[slot];
    }
    return "(too many distinct ids)";
}
