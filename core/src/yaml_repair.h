/* yaml_repair.h - private to yaml_repair*.c: the rule functions and the
 * line-scanning helpers they share (line views, block scalar tracking, entry
 * parsing, double-quoted output). Not included by other stages. */
#ifndef MALFORM_YAML_REPAIR_H
#define MALFORM_YAML_REPAIR_H

#include "internal.h"

/* ---- the rules (each an mf_text_rule_fn) ---- */
size_t mf_yaml_fix_code_fence(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_xml_tag_lines(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_duplicate_key(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_inline_seq_parent(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_colon_space(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_inline_keys(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_dash_space(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_nested_children(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_invalid_escape(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_unclosed_quote(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_quoted_fragment(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_quoted_block_ind(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_type_union(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_reserved_indicator(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_free_text(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_plain_colon(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_seq_indent_drift(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t mf_yaml_fix_property_indent(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);

/* ---- a document as lines ---- */
/* A line's text without its '\n' and trailing '\r' (eol is "\r" or ""). */
typedef struct { const char *s; size_t n; const char *eol; } yr_line;
typedef struct {
    yr_line *l;
    size_t count;
    bool final_nl;  /* the text ended with '\n' */
} yr_doc;
/* Split text into lines. 0 ok, -1 OOM. */
int yr_doc_open(yr_doc *d, const char *in, size_t len);
void yr_doc_close(yr_doc *d);

/* Output under construction; `oom` latches the first allocation failure. */
typedef struct { mf_buf *b; bool oom; } yr_out;
void yr_put(yr_out *o, const char *s, size_t n);
void yr_puts(yr_out *o, const char *s);
void yr_spaces(yr_out *o, size_t n);
/* Append s as a double-quoted YAML scalar whose value is exactly s. */
void yr_put_dq(yr_out *o, const char *s, size_t n);
/* End an output line: eol then '\n'. */
void yr_endl(yr_out *o, const char *eol);
/* Append line l unchanged (with its end of line). */
void yr_put_line(yr_out *o, const yr_line *l);
/* Finish: drop the last '\n' when the input had none; returns `changes`, or 0
 * after an allocation failure (the caller then keeps its input). */
size_t yr_finish(yr_out *o, const yr_doc *d, size_t changes);
/* Copy the input verbatim (used when a rule cannot run); returns 0. */
size_t yr_passthrough(const char *in, size_t len, mf_buf *out);

/* ---- block scalar bodies ---- */
typedef struct {
    bool active;
    size_t parent;  /* column the body must be deeper than */
    size_t body;    /* indent of the first body line, 0 while unknown */
} yr_block;
/* True when line l belongs to the body of the block scalar opened earlier. */
bool yr_block_body(yr_block *b, const yr_line *l);
/* If text (one output line) opens a block scalar (`key: |`, `- >-`), start tracking its body. */
void yr_block_note(yr_block *b, const char *s, size_t n);

/* Lines the scalar repairs leave alone: block scalar bodies and the
 * continuation lines of a double-quoted value left open on an earlier line. */
typedef struct { yr_block blk; bool dq; } yr_skip;
/* True when line l is skipped (updates the state). */
bool yr_skip_line(yr_skip *k, const yr_line *l);
/* Note an output line: it may open a block scalar or an unclosed double-quoted value. */
void yr_skip_note(yr_skip *k, const char *s, size_t n);

/* ---- one line as a YAML entry ---- */
typedef struct {
    size_t indent;      /* leading spaces */
    int dashes;         /* "- " prefixes */
    size_t dash;        /* column of the last dash (when dashes > 0) */
    size_t content;     /* offset after indent and dashes */
    bool key;           /* content starts with a mapping key */
    size_t key_s, key_e;
    size_t val;         /* value start (== end when empty) */
    size_t end;         /* content end without trailing blanks */
} yr_entry;
/* Parse a line: indentation, sequence dashes, an optional key (plain or quoted
 * followed by ": " or ":" at end) and where the value starts. */
void yr_entry_parse(const char *s, size_t n, yr_entry *e);
/* True when the entry has a value position: after a key or after a dash. */
bool yr_entry_valued(const yr_entry *e);
/* True for blank lines, comment lines and document markers (--- / ...). */
bool yr_line_inert(const char *s, size_t n);
/* True when [s, s+n) is a block scalar header: [|>][0-9+-]* then blanks or a comment. */
bool yr_is_block_header(const char *s, size_t n);
/* True when [s, s+n) is a simple identifier key: [A-Za-z_][A-Za-z0-9_-]*. */
bool yr_is_ident(const char *s, size_t n);
/* End of a quoted scalar starting at s[i] ('"' or '\''): index just past the
 * closing quote, or 0 when it is not closed before n. */
size_t yr_quote_end(const char *s, size_t n, size_t i);
/* 1-based line number of line index i. */
static inline int yr_lineno(size_t i) { return i >= 0x7fffffff ? 0x7fffffff : (int)i + 1; }

/* ---- profile lookups (p may be NULL) ---- */
/* The whitelisted child list of parent key [k, k+n), or NULL. */
const json_t *yr_children_of(const mf_profile *p, const char *k, size_t n);
/* True when [k, k+n) is in the JSON array of strings `list`. */
bool yr_list_has(const json_t *list, const char *k, size_t n);
/* True when [k, k+n) is a key the profile knows (nested parent or child, top-level key). */
bool yr_known_key(const mf_profile *p, const char *k, size_t n);

/* ---- keys used in a document ---- */
/* The set of identifier keys that start an entry line somewhere in the document. */
typedef struct { const char **s; size_t *n; size_t mask; } yr_keyset;
int yr_keyset_init(yr_keyset *k, const yr_doc *d); /* 0 ok, -1 OOM */
bool yr_keyset_has(const yr_keyset *k, const char *s, size_t n);
void yr_keyset_free(yr_keyset *k);

#endif
