/* signs.h - the sign check of no-data-loss in raw mode (private to oracles/). */
#ifndef MALFORM_ORACLES_SIGNS_H
#define MALFORM_ORACLES_SIGNS_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/* True when an integer of value has digits that raw[0, n) writes only with
 * the other sign (`-1_000` read as 1000); bad then says where and what. */
bool mf_sign_changed(const char *raw, size_t n, const json_t *value, char *bad, size_t badn);

#endif
