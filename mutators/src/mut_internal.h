/* mut_internal.h - private helpers of mutators/: text buffer, op context,
 * a line view of YAML text and a token view of JSON text. */
#ifndef MALFORM_MUT_INTERNAL_H
#define MALFORM_MUT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "malform/mutators.h"

/* Growable text (always NUL-terminated once anything was put). */
typedef struct { char *s; size_t len, cap; } mt_buf;
int mt_put(mt_buf *b, const char *s, size_t n);
int mt_puts(mt_buf *b, const char *s);
int mt_putc(mt_buf *b, char c);
void mt_free(mt_buf *b);

/* What an op works on. Text ops rewrite text; value ops rewrite value. */
typedef struct mf_op_ctx {
    const mf_profile *profile;
    uint64_t rng;
    const char *params;
    char *text;               /* owned; replace with mt_ctx_set */
    size_t len;
    json_t *value;            /* value ops only */
    mf_contract contract;     /* out: weaker contract for this application (0: the op's own) */
    bool prose_key;           /* out: inserted text around the artifact (prose, noise, orphan fence) that a wrapper would put inside it */
    const mf_options *opt;    /* the case's runtime options (never NULL while rendering) */
} mf_op_ctx;

/* Does raw still start with the root key line cand.schema-echo wrote (seed
 * 000: a schema echo is output that *starts* with a root key)? Text a later
 * op put before it (a tag, a fence, role prefixes, prose) ends its promise. */
bool mt_schema_echo_leads(const mf_profile *p, const char *raw, size_t len);

/* Does the text already start with prose cand.prose-before or cand.anchor
 * put there (past transcript role prefixes)? (ops_cand.c) */
bool mt_starts_with_prose(const mf_op_ctx *ctx);
/* Is the artifact empty, `---`, or one plain scalar line (terminal noise
 * aside)? Prose next to it is as much the document. (ops_cand.c) */
bool mt_empty_artifact(const mf_op_ctx *ctx);
/* Does the text hold a '\r' with no '\n' after it, a line break to YAML that
 * the line scans of ops and rules do not split at? (ops_cand.c) */
bool mt_has_lone_cr(const char *s, size_t len);
/* Does libyaml parse the text [s, s+n) to the end without an error? (ops_cand.c) */
bool mt_yaml_parses(const char *s, size_t n);
/* Does raw start (past blanks) with a closed <think>/<thinking>/<reasoning>
 * block (any case) with non-blank text after it, as cand.reasoning reads it?
 * (ops_cand_reasoning.c) */
bool mt_reasoning_leads(const char *raw, size_t len);

/* Replace ctx->text with the contents of b (b is consumed). */
void mt_ctx_set(mf_op_ctx *ctx, mt_buf *b);
/* The end of a text op: on rc < 0 (OOM while building b) free b and return
 * -1, else mt_ctx_set and return 1 (applied). */
int mt_ctx_commit(mf_op_ctx *ctx, mt_buf *b, int rc);
/* Uniform integer in [0, n) (n > 0). */
size_t mt_rand(mf_op_ctx *ctx, size_t n);
/* Integer parameter `name` or dflt. */
long mt_param_int(const mf_op_ctx *ctx, const char *name, long dflt);
/* String parameter `name` copied into out (size n); false when absent. */
bool mt_param_str(const mf_op_ctx *ctx, const char *name, char *out, size_t n);
/* Is the profile YAML (true) or JSON. */
bool mt_is_yaml(const mf_op_ctx *ctx);

/* Value ops: replace one random string leaf of ctx->value (no field core
 * rewrites by design) with s. 1 applied, 0 no leaf, -1 OOM. */
int mt_set_leaf(mf_op_ctx *ctx, const char *s);

/* ---- YAML line view ---- */
typedef struct {
    const char *s;    /* start of line */
    size_t len;       /* without '\n' */
    size_t off;       /* offset in text */
    size_t indent;    /* leading spaces */
    bool blank, comment, block_body;  /* block_body: inside a | or > scalar */
    bool dash;        /* "- " (or "-" at end) after the indent */
    size_t body;      /* offset in line after indent and any "- " */
    size_t key_len;   /* length of a simple key at body ("" -> 0) */
    size_t val;       /* offset in line of the value after "key:" + spaces (len when none) */
} mt_line;
typedef struct { mt_line *v; size_t n; } mt_lines;
int mt_lines_scan(const char *text, size_t len, mt_lines *out);
void mt_lines_free(mt_lines *l);
/* Value text of a key line (pointer + length, trailing spaces/'\r' trimmed). */
size_t mt_line_value(const mt_line *l, const char **v);
/* Does the value of a key line open a block scalar (| or >)? */
bool mt_line_block_indicator(const mt_line *l);
/* A block scalar header in quotes (`notes: '|-'`, `- "|"`), which yaml.quoted-block-indicator reads back as the header. */
bool mt_line_quoted_header(const mt_line *l);
/* Does the YAML text end in a block scalar body written at or left of its
 * key's column (yaml.block-body-indent, ops_yaml_blocks.c)? */
bool mt_yaml_ends_in_fallen_body(const char *text, size_t len);
/* Does the YAML text hold an empty-looking block scalar followed, at or left of
 * its key, by a line that is no one-word key, which yaml.block-body-indent may
 * read as the header's body though a loader reads it as an entry? */
bool mt_yaml_body_reading_ambiguous(const char *text, size_t len);
/* Rebuild text with line i replaced by repl (n bytes, no '\n'). */
int mt_replace_line(mf_op_ctx *ctx, const mt_lines *ls, size_t i, const char *repl, size_t n);
/* Length of a transcript role prefix ("[assistant]", "[user/x]") at s, or 0:
 * '[', a role word, optional "/..." segments, ']' (core strips it). */
size_t mt_role_prefix(const char *s, size_t n);
/* Is there a fence line (```, also after a transcript role prefix) in the
 * text already? Fencing it again nests fences, which markdown cannot: no
 * rule promises to unwrap that, so the fence ops find no site. */
bool mt_has_fence(const mf_op_ctx *ctx);
/* Does the YAML key of the line holding offset off occur again at the same
 * indentation in the same mapping (a yaml.duplicate-key copy, on a line of its
 * own or joined onto a sibling's line by yaml.inline-keys)? Rewriting one
 * copy would make the duplicates conflict, which no rule resolves. */
bool mt_key_repeated(const char *text, size_t len, size_t off);
/* Replace bytes [a, b) of the text with repl (n bytes). 1 applied, -1 OOM. */
int mt_splice(mf_op_ctx *ctx, size_t a, size_t b, const char *repl, size_t n);
/* The number of a question id as norm.question-id reads it (Q01, q1, Q1, 1, "Question 3"),
 * or -1 for another shape (ops_norm.c). */
long mt_qid_number(const char *v);
/* The length of value v[0..n) before a key yaml.inline-keys glued onto its line
 * (`Q01 phase: assembly` is 3): core splits the line there. n when none (ops_norm.c). */
size_t mt_inline_key_cut(const char *v, size_t n);

/* ---- JSON token view ---- */
typedef enum { JT_STR, JT_KEY, JT_NUM, JT_LIT, JT_OPEN, JT_CLOSE, JT_COMMA, JT_COLON } mt_jkind;
typedef struct { mt_jkind kind; size_t off, len; } mt_jtok;
typedef struct { mt_jtok *v; size_t n; } mt_jtoks;
/* Tokenize JSON-ish text (best effort): "..", and where a key or value may
 * stand '..' and `..`, strings; comments
 * and stray bytes skipped, an unclosed string ends the scan. */
int mt_json_scan(const char *text, size_t len, mt_jtoks *out);
void mt_jtoks_free(mt_jtoks *t);

/* The apply function of every op in ops.def (defined in ops_<module>.c). */
#define OP(fn, id, contract, formats, kind, rules, section, description) int fn(mf_op_ctx *ctx);
#include "ops.def"
#undef OP

#endif
