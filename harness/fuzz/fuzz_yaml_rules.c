/* fuzz_yaml_rules.c - the YAML structural repairs in isolation (core stage
 * target; uses core's internal API). Each text rule of mf_yaml_repairs[] is
 * applied to the input and then to its own output: the second application
 * must change nothing (rules are idempotent), and a rule that reports no
 * change must leave the text as it was. A violation is recorded like the
 * other targets' (or aborts with the idempotence oracle line naming the rule). Inputs are valid UTF-8, as
 * the pipeline guarantees before the rules run. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "harness.h"
#include "raw_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Record (or, without a findings directory, abort on) one violation, with
 * the shared oracle line (harness.h) naming the rule and the profile. */
static void fail(const mf_profile *p, const char *rule, const char *detail, const uint8_t *data, size_t size)
{
    mf_check k = {0};
    k.profile = p;
    k.rules = (char *)rule;
    k.failed = 1;
    k.v[MF_ORACLE_IDEMPOTENCE].ran = k.v[MF_ORACLE_IDEMPOTENCE].failed = true;
    snprintf(k.v[MF_ORACLE_IDEMPOTENCE].detail, sizeof k.v[0].detail, "%s", detail);
    mf_fuzz_finding(&k, data, size);
}

/* The pipeline rejects invalid UTF-8 before any rule runs: so does this target. */
static bool utf8_valid(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        uint8_t c = s[i];
        size_t k = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 && c >= 0xC2 ? 1 : (c & 0xF0) == 0xE0 ? 2
                 : (c & 0xF8) == 0xF0 && c <= 0xF4 ? 3 : 9;
        if (k == 9 || i + k >= n + (k ? 0 : 1))
            return false;
        for (size_t j = 1; j <= k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return false;
        i += k + 1;
    }
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mf_stats_init("yaml_rules");
    if (size > MF_FUZZ_MAX_INPUT || !utf8_valid(data, size))
        return 0;
    const mf_profile *p;
    const char *text;
    size_t n;
    mf_raw_input_decode(data, size, &p, &text, &n);
    if (!p)   /* the pipeline always runs the rules under a profile */
        p = mf_profiles_get("generic_yaml");
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
        mf_buf once = {0}, twice = {0};
        mf_warnings w = {0};
        size_t n1 = r->fn(text, n, &once, p, &w);
        if (n1 == 0 && (once.len != n || (n && memcmp(once.s, text, n) != 0)))
            fail(p, r->rule_id, "reported no change but rewrote the text", data, size);
        size_t n2 = r->fn(mf_buf_cstr(&once), once.len, &twice, p, &w);
        if (n2 != 0 || twice.len != once.len || (once.len && memcmp(once.s, twice.s, once.len) != 0))
            fail(p, r->rule_id, "applied to its own output it changed the text again", data, size);
        mf_buf_free(&once);
        mf_buf_free(&twice);
        mf_warnings_clear(&w);
    }
    return 0;
}
