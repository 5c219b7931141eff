/* oracles.h - the verdicts on what the pipeline made of an input
 * (DESIGN.md "Oracles"). Each oracle is a function of the input, the result
 * of mf_repair on it and, for structured cases, the ground truth; it returns
 * 0 (pass) or 1 (fail) and fills a verdict with a one-line detail.
 * Oracles use core's public API only. */
#ifndef MALFORM_ORACLES_H
#define MALFORM_ORACLES_H

#include <stdbool.h>
#include <stddef.h>
#include "malform/malform.h"

/* MF_ORACLE_<CNAME> for each line of oracles.def, in its order. */
typedef enum {
#define ORACLE(cname, name, fn) MF_ORACLE_##cname,
#include "malform/oracles.def"
#undef ORACLE
    MF_ORACLE_COUNT
} mf_oracle_id;

/* What no-data-loss demands (same values as mutators' mf_contract). RAW:
 * no ground truth, so no scalar may be invented. REPAIR: exact, and a
 * rejection fails too (every malformation of the case is one a rule
 * promises to repair exactly). */
typedef enum {
    MF_EXPECT_EXACT = 0,
    MF_EXPECT_SUBSET = 1,
    MF_EXPECT_REJECT = 2,
    MF_EXPECT_RAW = 3,
    MF_EXPECT_REPAIR = 4
} mf_expect;

/* The metamorphic variant of an accepted raw input (harness/lib
 * metamorph.h builds it): core's canonical output of the accepted value,
 * which core reads clean as `expected`, malformed by ops that a rule
 * promises to repair exactly, and the pipeline's repair of that text. */
typedef struct {
    const char *raw;           /* the malformed canonical output */
    size_t raw_len;
    const mf_result *result;   /* the pipeline's repair of raw */
    const json_t *expected;    /* what the canonical output reads as */
    const char *ops;           /* the applied op ids, comma-separated */
} mf_oracle_variant;

typedef struct {
    const mf_profile *profile;
    const mf_options *opt;     /* may be NULL */
    const char *raw;           /* the input fed to mf_repair */
    size_t raw_len;
    const mf_result *result;   /* mf_repair(profile, raw, raw_len, opt) */
    const json_t *truth;       /* ground truth (structured cases), else NULL */
    mf_expect expect;
    const mf_oracle_variant *variant; /* raw mode: the metamorphic variant, else NULL */
} mf_oracle_input;

typedef struct {
    bool ran;                  /* false when the oracle did not apply */
    bool failed;
    char detail[480];
} mf_verdict;

/* The oracle's name in oracles.def ("idempotence", "no-data-loss", ...); "?" when out of range. */
const char *mf_oracle_name(mf_oracle_id id);

/* Repairing the canonical output again gives the same value and no warnings. */
int mf_oracle_idempotence(const mf_oracle_input *in, mf_verdict *v);
/* exact: value == truth (or rejected); subset: nothing changed or invented
 * (documented defaults excepted); reject: rejected; raw: no invented scalars,
 * and no integer with a sign the input never writes its digits with. */
int mf_oracle_no_data_loss(const mf_oracle_input *in, mf_verdict *v);
/* Accepted: validates against the profile schema; rejected: a structured error. */
int mf_oracle_schema(const mf_oracle_input *in, mf_verdict *v);
/* repair_applied matches warnings/candidate, every warning names a registered
 * rule, and zero warnings means the value is the plain parse of the input. */
int mf_oracle_accounting(const mf_oracle_input *in, mf_verdict *v);
/* Repairing the same input again gives the identical result. */
int mf_oracle_determinism(const mf_oracle_input *in, mf_verdict *v);

/* Raw mode (oracles/src/loss.c): every token of the text core parsed
 * (result->text) is in the output - a key, in a string, or the same number -
 * or a warning names it. */
int mf_oracle_conservation(const mf_oracle_input *in, mf_verdict *v);
/* Raw mode: no output string holds a member-shaped run (`"key":`, or `key:`
 * at a line start) for a key its object should have but lacks (schema
 * property, key of its sibling objects, top-level key): a swallowed key. */
int mf_oracle_structure(const mf_oracle_input *in, mf_verdict *v);

/* Raw mode, no ground truth needed: the metamorphic variant (in->variant;
 * not run without one) repairs to exactly the value its canonical output
 * reads as; a rejection or another value is a failure. */
int mf_oracle_metamorphic(const mf_oracle_input *in, mf_verdict *v);

/* Differential (several pipelines on one input; values[i] is pipeline i's
 * accepted value, NULL when it rejected): the index of a strict majority's
 * outcome, or -1 when there is none; dissent[i] (n entries) is set for each
 * pipeline that disagrees with that majority (all false without one). */
int mf_oracle_differential(const json_t *const *values, size_t n, bool *dissent);

/* Run every oracle; v has MF_ORACLE_COUNT entries. Returns the number failed. */
int mf_oracles_run(const mf_oracle_input *in, mf_verdict *v);
/* mf_oracles_run without the oracles whose bit (1u << MF_ORACLE_x) is in skip
 * (their verdicts: not run). */
int mf_oracles_run_except(const mf_oracle_input *in, mf_verdict *v, unsigned skip);

/* Ground truth of a clean artifact, independent of core (oracles/src/truth.c):
 * a strict load (jansson; libyaml events under the YAML 1.2 core schema; no
 * duplicate keys, explicit tags, merge keys or second document) plus the
 * profile's documented normalizations (string_fields keep a plain scalar's
 * own text, integer_fields turn 5.0 into 5). Returns 0 with *truth (new
 * reference), 2 when the text is no strict artifact (detail in v). */
int mf_oracle_truth(const mf_profile *p, const char *clean, size_t len, json_t **truth, mf_verdict *v);

/* Does core's rejection e of a text whose strict load is truth reject core's
 * own misreading? Yes for a tier-2 rejection when truth satisfies the profile
 * schema (mf_oracle_schema_validate) and the value core rejected (quoted in
 * e->message, at e->path, a key read through the profile's aliases) is not
 * the input's own value there - core changed it, then rejected its change. A
 * rejection that quotes the input's own value, or an INVALID_REGEX of a
 * pattern PCRE2 refuses too, is a check the schema subset cannot express.
 * A rejected path absent from the input is core's own unless truth, its keys
 * read through the aliases, fails the schema anyway. */
int mf_oracle_rejected_reading(const mf_profile *p, const json_t *truth, const mf_error *e);

/* The clean-artifact check: *truth is mf_oracle_truth's, and core's repair of
 * the clean text must be accepted with zero warnings and give exactly that
 * value. Returns 0 with *truth (new reference); 1 when core warns on it
 * (detail in v); 2 when it is no strict artifact or core rejects it as
 * invalid for the profile (tier 2 or 3, unless mf_oracle_rejected_reading):
 * no valid case; 3 with *truth when core misreads it (a tier-1 rejection, a
 * tier-2 rejection of its own misreading, or a value other than the truth
 * without a warning):
 * a bug that fires on clean input, detail in v. */
int mf_oracle_clean(const mf_profile *p, const mf_options *opt, const char *clean, size_t len,
                    json_t **truth, mf_verdict *v);

/* Validate value against a JSON-Schema subset (type, properties, required,
 * additionalProperties, items, enum, const, min/maxItems, min/maxLength,
 * minimum/maximum, pattern, anyOf/oneOf/allOf). 0 valid; -1 with a message
 * (msg may be NULL when msglen is 0: the verdict alone). */
int mf_oracle_schema_validate(const json_t *schema, const json_t *value, char *msg, size_t msglen);

/* Line diff of got against want, at most max_lines lines of the form
 * "  /path: want X, got Y". "" when equal. Caller frees. */
char *mf_value_diff(const json_t *got, const json_t *want, size_t max_lines);

#endif
