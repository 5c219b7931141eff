/* suite_b64.h - decode the base64 fields of the JSON-lines suites in ../shared/suites (the
 * JSONTestSuite cases are bytes, not always UTF-8). For the unit tests only. */
#ifndef MALFORM_TEST_SUITE_B64_H
#define MALFORM_TEST_SUITE_B64_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Decode in (NUL-terminated base64) into out (at least strlen(in) bytes);
 * returns the number of bytes written. */
static inline size_t b64_decode(const char *in, unsigned char *out)
{
    static const char tbl[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    uint32_t acc = 0;
    int bits = 0;
    size_t n = 0;
    for (; *in && *in != '='; in++) {
        const char *p = strchr(tbl, *in);
        if (!p)
            continue;
        acc = (acc << 6) | (uint32_t)(p - tbl);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[n++] = (unsigned char)(acc >> bits);
        }
    }
    return n;
}

#endif
