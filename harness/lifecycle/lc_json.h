/* lc_json.h - JSON text helpers shared by the lifecycle and the pipelines. */
#ifndef MALFORM_LC_JSON_H
#define MALFORM_LC_JSON_H

#include <stddef.h>
#include <jansson.h>

/* v as JSON text (json_dumps flags) followed by a newline, malloc'd and
 * NUL-terminated, its length (newline included) in *len; NULL on OOM. */
char *mf_lc_json_line(const json_t *v, size_t flags, size_t *len);

#endif
