/* fuzz_raw.c - the byte-level target: the first byte selects the profile
 * (index modulo the number of built-in profiles), the rest is raw model
 * output. No ground truth, so no-data-loss runs in raw mode (no invented
 * scalars); the other oracles run as usual. */
#include <stdint.h>
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_stats_init("raw");
    if (size < 1 || size > MF_FUZZ_MAX_INPUT || mf_profiles_count() == 0)
        return 0;
    const mf_profile *p = mf_profiles_at(data[0] % mf_profiles_count());
    mf_check k;
    if (mf_check_run(&k, (const char *)data + 1, size - 1, p, false, mf_fuzz_determinism_due()) == 0) {
        mf_stats_record(&k);
        if (k.failed)
            mf_fuzz_finding(&k, data, size);
    }
    mf_check_free(&k);
    mf_stats_maybe_dump();
    return 0;
}
