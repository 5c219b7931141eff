/* json_strict.h - strict JSON (what jansson's json_loadb accepts with
 * JSON_DECODE_ANY | JSON_ALLOW_NUL) to a jansson value in one pass, without
 * jansson's per-byte stream. Owned by perf (issue 14). */
#ifndef MALFORM_JSON_STRICT_H
#define MALFORM_JSON_STRICT_H

#include "internal.h"

/* The verdicts of mf_json_strict. */
enum { MF_STRICT_OK = 0, MF_STRICT_INVALID = -1, MF_STRICT_UNSURE = 1 };

/* Parse [s, s+n) as one strict JSON value nested at most max_depth deep
 * (containers count; 0: MF_JSON_STRICT_DEPTH). MF_STRICT_OK with the value in
 * *out (out NULL: validate only, nothing allocated); MF_STRICT_INVALID when the
 * text is not strict JSON, is nested deeper, or memory ran out;
 * MF_STRICT_UNSURE for the rare texts whose verdict it leaves to json_loadb
 * (integers past int64, long numbers, NUL or invalid UTF-8 in strings). */
int mf_json_strict(const char *s, size_t n, int max_depth, json_t **out);
/* mf_json_strict that also adds to dups (when out and dups are not NULL) a
 * json.duplicate-key warning for each member dropped by a later one with the
 * same key and a different value; nothing is added when the verdict is not OK.
 * utf8: the text is known to be valid UTF-8 (strings are not checked again).
 * With out, the text is validated first and a value built only when it is
 * strict JSON: a malformed text costs no value built and freed. */
int mf_json_strict_dups(const char *s, size_t n, int max_depth, bool utf8, json_t **out, mf_warnings *dups);
/* True when [s, s+n) is valid UTF-8 (no overlongs, surrogates or code points
 * past U+10FFFF: what json_stringn accepts), eight ASCII bytes at a time. */
bool mf_utf8_valid(const char *s, size_t n);
/* Offset of the first byte of the first invalid UTF-8 sequence in [s, s+n)
 * (as mf_utf8_valid judges), or n when there is none. */
size_t mf_utf8_invalid_at(const char *s, size_t n);

#define MF_JSON_STRICT_DEPTH 2000

#endif
