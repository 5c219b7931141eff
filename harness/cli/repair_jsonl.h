/* repair_jsonl.h - `malform repair --jsonl`: many repairs in one process. */
#ifndef MALFORM_REPAIR_JSONL_H
#define MALFORM_REPAIR_JSONL_H

#include <stdio.h>
#include "malform/malform.h"

/* Read JSON-lines requests from in ({"id", "input" | "case", "profile"?,
 * "options"?}) and write one compact line per request to out: {"id",
 * "result"} (the `--output result` object; plus "rendered", the model
 * output, for a "case" request) or {"id", "error"}. A request
 * without its own profile uses dflt (NULL: detect). Returns 0 when every
 * request got a result, 2 when any line was bad or a write failed. */
int cli_repair_jsonl(FILE *in, FILE *out, const mf_profile *dflt, const json_t *dflt_context);

#endif
