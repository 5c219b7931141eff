/* raw_input.h - the raw fuzz input format, shared by the raw and yaml_rules
 * targets, the campaign seeds, triage and replay.
 *
 * A raw input is an optional first line "@<profile>" naming a built-in
 * profile, then the model output: "@prd\n<text>". An input without such a
 * line (or naming no built-in profile) is all text and its profile is
 * detected. The name, not an index, picks the profile, so adding a profile
 * never changes what an existing input means. */
#ifndef MALFORM_RAW_INPUT_H
#define MALFORM_RAW_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "malform/malform.h"

/* Split a raw input: *p gets the profile its first line names (NULL: none,
 * detect), text/len the model output after that line (or the whole input). */
void mf_raw_input_decode(const uint8_t *data, size_t size, const mf_profile **p, const char **text, size_t *len);
/* "@<profile>\n" followed by text, malloc'd (length in *out_len); profile
 * NULL gives text alone. NULL on OOM. */
uint8_t *mf_raw_input_encode(const char *profile, const void *text, size_t len, size_t *out_len);

#endif
