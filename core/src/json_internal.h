/* json_internal.h - private interface between the JSON repair entry point
 * (json_repair.c) and the tolerant JSON scanner (json_scan.c). */
#ifndef MALFORM_JSON_INTERNAL_H
#define MALFORM_JSON_INTERNAL_H

#include "internal.h"

/* Hard cap on nesting whatever the caller asks: the scanner recurses. */
#define MF_JSON_DEPTH_CAP 2048

/* One top-level value found by the scanner and the bytes it spans. */
typedef struct {
    json_t *value;
    size_t start, end;
    int line;
} mf_json_top;

typedef struct {
    mf_json_top *items;
    size_t count, cap;
} mf_json_tops;

/* Flags of mf_json_scan. */
enum {
    MF_JSON_SCAN_UTF8 = 1,     /* the text is valid UTF-8: its strings are not checked one by one */
    MF_JSON_SCAN_BYTEWISE = 2  /* string text byte by byte, no fast runs: the reference test_json_lex
                                * compares the fast scan with (same values, warnings and errors) */
};

/* Parse text with every repair of the JSON layer, collecting each top-level
 * value (several when values are concatenated). Warnings name the json.*
 * rules of rules.def. Returns 0, or -1 with err = JSON_SYNTAX_ERROR (line, column, what was
 * expected) at the first place no repair applies. flags: MF_JSON_SCAN_*. */
int mf_json_scan(const char *text, size_t len, int max_depth, unsigned flags, mf_json_tops *out,
                 mf_warnings *w, mf_error *err);
/* Release the values and the list. */
void mf_json_tops_free(mf_json_tops *t);

#endif
