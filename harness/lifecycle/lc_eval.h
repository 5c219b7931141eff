/* lc_eval.h - in-process evaluation (core + every oracle) for runners. */
#ifndef MALFORM_LC_EVAL_H
#define MALFORM_LC_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *profile;   /* profile for raw inputs (NULL: detect YAML/JSON) */
    bool selector;         /* fuzz_raw inputs: an "@<profile>" first line names the
                            * profile (raw_input.h; ignored when profile is set) */
} mf_lc_eval_ctx;

/* An mf_lc_fn: structured cases (text starting "malform-case ") are
 * rendered and judged against their ground truth, anything else is a raw
 * model output under ctx->profile. Prints the oracle line and aborts on a
 * violation; returns 0 on pass, 2 when the input is unusable. */
int mf_lc_eval(const uint8_t *data, size_t len, void *ctx);
/* False when the build lacks the mutators/oracles libraries. */
bool mf_lc_eval_available(void);

#endif
