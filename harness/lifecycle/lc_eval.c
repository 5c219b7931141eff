/* lc_eval.c - core plus every oracle on one input, exactly the way the fuzz
 * targets judge it (harness/lib mf_check_run, not strict, determinism on),
 * for use inside a runner's forked child.
 *
 * A structured case is rendered and judged against its ground truth; any
 * other input is raw model output under the given profile (a field failure)
 * or, for fuzz_raw inputs, under the profile its first byte selects.
 * A violation prints the fuzz targets' own line,
 *
 *   malform-oracle: <oracle> profile=<p> ops=<ids> rules=<ids>: <detail>
 *
 * and aborts (mf_fuzz_fail), so an input triaged from an engine's crash
 * directory and the same input replayed from corpus/regression get the same
 * signature. */
#include <stdio.h>
#include <string.h>
#include "lifecycle.h"
#include "lc_eval.h"

#ifdef HAVE_MALFORM_HARNESS
#include "harness.h"
#include "raw_input.h"

bool mf_lc_eval_available(void) { return true; }

int mf_lc_eval(const uint8_t *data, size_t len, void *ctx)
{
    const mf_lc_eval_ctx *e = ctx;
    const mf_profile *p = NULL;
    if (e && e->selector) {   /* the fuzz_raw contract (harness/lib/raw_input.h) */
        if (len < 1 || len > MF_FUZZ_MAX_INPUT)
            return 0;
        const char *text;
        mf_raw_input_decode(data, len, &p, &text, &len);
        data = (const uint8_t *)text;
    }
    if (e && e->profile && *e->profile && strcmp(e->profile, "-")) {   /* a recorded profile wins */
        p = mf_profiles_get(e->profile);
        if (!p) {
            fprintf(stderr, "malform-eval: unknown profile %s\n", e->profile);
            return 2;
        }
    }
    mf_check k;
    if (mf_check_run(&k, (const char *)data, len, p, false, true) < 0) {
        fprintf(stderr, "malform-eval: not checkable: %s\n", k.error);
        mf_check_free(&k);
        return 2;
    }
    if (k.failed)
        mf_fuzz_fail(&k);
    mf_check_free(&k);
    return 0;
}

#else

bool mf_lc_eval_available(void) { return false; }

int mf_lc_eval(const uint8_t *data, size_t len, void *ctx)
{
    (void)data, (void)len, (void)ctx;
    fprintf(stderr, "malform-eval: this build has no harness library (mutators + oracles)\n");
    return 2;
}

#endif
