/* fuzz_raw.c - the byte-level target: a raw input (raw_input.h: an optional
 * "@<profile>" first line, then raw model output). No ground truth, so no-data-loss runs in raw mode (no invented
 * scalars); the other oracles run as usual. */
#include <stdint.h>
#include "harness.h"
#include "raw_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_stats_init("raw");
    if (size < 1 || size > MF_FUZZ_MAX_INPUT)
        return 0;
    const mf_profile *p;
    const char *text;
    size_t len;
    mf_raw_input_decode(data, size, &p, &text, &len);
    mf_check k;
    if (mf_check_run(&k, text, len, p, false, mf_fuzz_determinism_due()) == 0) {
        mf_stats_record(&k);
        if (k.failed)
            mf_fuzz_finding(&k, data, size);
    }
    mf_check_free(&k);
    mf_stats_maybe_dump();
    return 0;
}
