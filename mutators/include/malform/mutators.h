/* mutators.h - realistic LLM malformations and the structured fuzz case.
 *
 * A structured case is a profile name, optional runtime options, a program of
 * malformation ops (op id + RNG seed + parameters) and the clean artifact.
 * Its text form is readable and diffable:
 *
 *     malform-case 1
 *     profile: prd
 *     opts: {"ticket_id": "T-1"}          (optional, JSON object, see mf_options)
 *     op: yaml.colon-space seed=1234 n=2
 *     op: cand.fence seed=7 tag=json
 *     ---
 *     <clean artifact text>
 *
 * Rendering emits the clean artifact, applies value ops (they change the
 * ground truth: the artifact stays valid but gets tricky values), then text
 * ops in order (they model what a model does to the text). Rendering is
 * deterministic given the seeds. Ownership: mf_case_* results belong to the
 * caller and are freed with the matching *_free. */
#ifndef MALFORM_MUTATORS_H
#define MALFORM_MUTATORS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "malform/malform.h"

/* What the pipeline owes an op: restore exactly (or reject), keep a subset
 * of the data with nothing changed or invented, or reject. RAW: the rendered
 * text is genuinely ambiguous (no pipeline can tell the malformation from
 * data), so there is no ground-truth claim and only the raw-mode oracles
 * judge it; an op sets it for one application, never in its declaration. */
typedef enum { MF_CONTRACT_EXACT = 0, MF_CONTRACT_SUBSET = 1, MF_CONTRACT_REJECT = 2, MF_CONTRACT_RAW = 3 } mf_contract;

enum { MF_OP_YAML = 1, MF_OP_JSON = 2, MF_OP_ANY = 3 };
typedef enum { MF_OP_TEXT = 0, MF_OP_VALUE = 1 } mf_op_kind;

struct mf_op_ctx;

/* One malformation operator. rules: space-separated rule ids that repair it
 * (any of them is enough; "" for a rejection op). */
typedef struct mf_op {
    const char *id;
    const char *section;
    const char *description;
    const char *rules;
    mf_contract contract;
    unsigned formats;         /* MF_OP_YAML | MF_OP_JSON */
    mf_op_kind kind;
    int (*apply)(struct mf_op_ctx *ctx);   /* 1 applied, 0 no site, -1 OOM */
} mf_op;

/* Number of registered ops. */
size_t mf_ops_count(void);
/* The i-th op in a stable order. */
const mf_op *mf_ops_at(size_t i);
/* An op by id, or NULL. */
const mf_op *mf_ops_find(const char *id);
/* "exact", "subset", "reject" or "raw". */
const char *mf_contract_name(mf_contract c);

/* ---- the structured case ---- */
typedef struct {
    const mf_op *op;
    uint64_t seed;
    char *params;             /* "k=v k=v" after the seed, "" when none */
} mf_case_op;

typedef struct {
    char *profile;            /* profile name */
    json_t *opts;             /* runtime options object or NULL */
    mf_case_op *ops;
    size_t nops, capops;
    char *artifact;           /* clean artifact text (NUL-terminated) */
    size_t artifact_len;
} mf_case;

#define MF_CASE_MAGIC "malform-case 1"
#define MF_CASE_MAX_OPS 32

/* True when text starts like a structured case (else it is a raw case). */
bool mf_case_is_structured(const char *text, size_t len);
/* Parse case text. NULL on error with a message in err (size errlen). */
mf_case *mf_case_decode(const char *text, size_t len, char *err, size_t errlen);
/* The text form of a case (NUL-terminated, length in *len). Caller frees. */
char *mf_case_encode(const mf_case *c, size_t *len);
/* A new empty case for profile with the given artifact. */
mf_case *mf_case_new(const char *profile, const char *artifact, size_t len);
/* Append an op (params may be NULL). 0 ok, -1 OOM or too many ops. */
int mf_case_add_op(mf_case *c, const mf_op *op, uint64_t seed, const char *params);
/* Free a case; NULL is fine. */
void mf_case_free(mf_case *c);
/* Fill *o from c->opts (borrowed pointers into c). */
void mf_case_options(const mf_case *c, mf_options *o);

/* ---- rendering ---- */
typedef struct {
    const mf_profile *profile;
    char *clean;              /* the clean artifact after value ops (ground-truth text) */
    size_t clean_len;
    char *raw;                /* the model output: clean + text ops */
    size_t raw_len;
    bool *applied;            /* per op of the case: did it find a site */
    mf_contract contract;     /* strongest contract among applied ops */
    char error[200];          /* why rendering failed, when it did */
} mf_render;

/* Render case c. Returns 0, or -1 with r->error set (unknown profile, OOM).
 * Free r with mf_render_free even on failure. */
int mf_case_render(const mf_case *c, mf_render *r);
void mf_render_free(mf_render *r);
/* Comma-separated ids of the applied ops ("-" when none). Caller frees. */
char *mf_render_op_ids(const mf_case *c, const mf_render *r);

/* ---- structure-aware mutation (libFuzzer and AFL++ custom mutators) ---- */
/* Mutate case c in place with RNG state *rng: insert, delete, reorder or
 * re-seed ops, change a parameter, or apply a value op to the artifact.
 * byte_mutate (may be NULL) mutates the artifact bytes in place: it gets
 * (data, size, max_size) and returns the new size. */
void mf_case_mutate(mf_case *c, uint64_t *rng,
                    size_t (*byte_mutate)(uint8_t *, size_t, size_t), size_t max_artifact);
/* Cross two cases: ops of a spliced with ops of b; artifact of one of them. New case. */
mf_case *mf_case_crossover(const mf_case *a, const mf_case *b, uint64_t *rng);
/* A starting case when the input is not a case: profile by index, ops none. */
mf_case *mf_case_default(uint64_t *rng);

/* splitmix64 step: the RNG used everywhere in mutators/. */
uint64_t mf_rng_next(uint64_t *state);

#endif
