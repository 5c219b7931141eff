/* radix.h - YAML 1.2 core ints written in hex or octal (private to oracles/). */
#ifndef MALFORM_ORACLES_RADIX_H
#define MALFORM_ORACLES_RADIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when s[0, n) is a YAML 1.2 core int in hex or octal (`0x1F`, `0o37`) that
 * fits 63 bits; *x is then its value (`0x0` reads as 0: the word's number, not a new word). */
static inline bool mf_radix_int(const char *s, size_t n, uint64_t *x)
{
    if (n < 3 || n > 2 + 20 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X' && s[1] != 'o'))
        return false;
    unsigned base = s[1] == 'o' ? 8 : 16;
    *x = 0;
    for (size_t q = 2; q < n; q++) {
        char c = s[q];
        unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                            : 99u;
        if (d >= base || *x > (UINT64_MAX >> 1) / base)
            return false;
        *x = *x * base + d;
    }
    return true;
}

#endif
