/* norm_investor_decision.c - an investor persona's decision (seed 003).
 *
 * The seed's known problem patterns are all schema normalization, driven by
 * the profile: prose fields given as lists (key_conditions, pass_reasons,
 * would_change_mind), conviction_score as 5.0, "High" for "high", and the
 * omitted funding_ask / market_size_estimate defaults. They run here, before
 * the one semantic check the schema cannot express: a "pass" decision must
 * say why (pass_reasons non-empty), else the decision is INCOMPLETE (tier 3). */
#include <ctype.h>
#include <string.h>
#include "schema_checks.h"
#include "norm.h"

int mf_norm_investor_decision(json_t **root, const mf_profile *p, const mf_options *o,
                                   mf_warnings *w, mf_error *err)
{
    (void)o;
    if (mf_schema_gate(p, *root, w, err))
        return -1;
    const char *decision = json_string_value(json_object_get(*root, "decision"));
    if (!decision || strcmp(decision, "pass") != 0)
        return 0;
    const char *why = json_string_value(json_object_get(*root, "pass_reasons"));
    for (const char *c = why; c && *c; c++)
        if (!isspace((unsigned char)*c))
            return 0;
    mf_error_set(err, 3, "INCOMPLETE", "/pass_reasons", 0, 0,
                 "decision is \"pass\" but pass_reasons is %s: state the reasons for passing",
                 why ? "empty" : "missing");
    return -1;
}
