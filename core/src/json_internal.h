/* json_internal.h - private interface between the JSON repair entry point
 * (json_repair.c) and the tolerant JSON scanner (json_scan.c). */
#ifndef MALFORM_JSON_INTERNAL_H
#define MALFORM_JSON_INTERNAL_H

#include "internal.h"

/* Indices into mf_rules_json[] (json_repair.c keeps the table in this order). */
enum {
    JR_SINGLE_QUOTE_ESCAPE,
    JR_TEMPLATE_LITERAL,
    JR_HTML_FRAGMENT,
    JR_CONTROL_CHAR,
    JR_INNER_QUOTE,
    JR_TRAILING_COMMA,
    JR_MISSING_COMMA,
    JR_SINGLE_QUOTES,
    JR_UNQUOTED_KEY,
    JR_PYTHON_LITERAL,
    JR_COMMENT,
    JR_SMART_QUOTES,
    JR_CONCATENATED,
    JR_TRUNCATED,
    JR_INVALID_ESCAPE,
    JR_BIG_NUMBER,
    JR_NUMBER_FORMAT,
    JR_UNICODE_SPACE,
    JR_MISSING_QUOTE,
    JR_EARLY_CLOSER,
    JR_STRING_CONCAT,
    JR_BARE_WORD,
    JR_NUMBER_STRING,
    JR_PLACEHOLDER,
    JR_MISSING_COLON,
    JR_MISMATCHED_CLOSER,
    JR_PYTHON_TUPLE,
    JR_JS_WRAPPER,
    JR_COUNT
};

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

/* Parse text with every repair of the JSON layer, collecting each top-level
 * value (several when values are concatenated). Warnings name mf_rules_json
 * ids. Returns 0, or -1 with err = JSON_SYNTAX_ERROR (line, column, what was
 * expected) at the first place no repair applies. */
int mf_json_scan(const char *text, size_t len, int max_depth, mf_json_tops *out,
                 mf_warnings *w, mf_error *err);
/* Release the values and the list. */
void mf_json_tops_free(mf_json_tops *t);

#endif
