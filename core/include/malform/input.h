/* input.h - reading one input (a file, a pipe, a device or stdin) with the
 * size cap enforced while reading: at most cap + 1 bytes are ever read, so
 * `/dev/zero` or an endless pipe costs cap + 1 bytes, never more. */
#ifndef MALFORM_INPUT_H
#define MALFORM_INPUT_H

#include <stddef.h>

typedef enum {
    MF_INPUT_OK = 0,        /* the whole input is in the buffer */
    MF_INPUT_TOO_LARGE,     /* more than cap bytes: the buffer holds the first cap + 1 */
    MF_INPUT_OPEN_ERROR,    /* cannot open path (errno set) */
    MF_INPUT_READ_ERROR,    /* a read failed (errno set) */
    MF_INPUT_NO_MEMORY      /* out of memory */
} mf_input_status;

/* Read path ("-" = stdin) up to cap bytes (0 = MF_DEFAULT_MAX_INPUT). Sets *out
 * to a malloc'd, NUL-terminated buffer and *len to its length when the status
 * is OK or TOO_LARGE (caller frees); *out is NULL otherwise. */
mf_input_status mf_input_read(const char *path, size_t cap, char **out, size_t *len);

/* One line describing a status for path, e.g. "x.yaml: input is larger than
 * the size cap of 1048576 bytes" (static or per-thread buffer; do not free). */
const char *mf_input_describe(mf_input_status st, const char *path, size_t cap);

#endif
