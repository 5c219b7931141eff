/* yaml_repair.h - private to yaml_repair*.c: the rule functions and the
 * line-scanning helpers they share (line views, block scalar tracking, entry
 * parsing, double-quoted output). Not included by other stages. */
#ifndef MALFORM_YAML_REPAIR_H
#define MALFORM_YAML_REPAIR_H

#include <stdint.h>
#include "internal.h"

/* ---- one line as a YAML entry ---- */
/* Columns are offsets into the line; uint32_t keeps the line model small
 * (a line is at most MF_DEFAULT_MAX_INPUT bytes long in practice; yr_doc_open
 * refuses longer ones). */
typedef struct {
    uint32_t indent;    /* leading spaces */
    uint32_t dash;      /* column of the last dash (when dashes > 0) */
    uint32_t content;   /* offset after indent and dashes */
    uint32_t key_s, key_e;
    uint32_t val;       /* value start (== end when empty) */
    uint32_t end;       /* content end without trailing blanks */
    uint16_t dashes;    /* "- " prefixes */
    bool key;           /* content starts with a mapping key */
} yr_entry;

/* ---- the line model: a document as lines, each parsed once ---- */
/* Per-line facts that depend on the line alone, computed by yr_doc_open. */
enum {
    YR_INERT = 1,       /* blank, comment or document marker (yr_line_inert) */
    YR_OPENS_BLOCK = 2, /* the entry's value is a block scalar header (`key: |`) */
    YR_OPENS_DQ = 4,    /* the entry's value is a double-quoted scalar not closed on the line */
    /* context, from the lines before (in the text as given): */
    YR_DQ_CONT = 8,     /* a later line of a double-quoted scalar opened on an earlier line */
    YR_PLAIN_CONT = 16, /* a continuation line of a multi-line plain scalar (no key, no dash, deeper) */
    YR_LONG = 32,       /* over 65535 bytes or 255 dashes: its entry is kept full size in long_e */
    /* line kinds, for the group driver's trigger check (YR_RULES): */
    YR_VAL_COLON = 64,  /* the entry has a value position and its value holds a ':' (after its
                           leading quoted scalar when that one closes) */
    YR_DASH_TEXT = 128, /* the content or the value starts with '-' (not a `- ` item dash) */
    YR_QUOTE_MORE = 256, /* the value starts with a quoted scalar closed before the line's end */
    YR_CTX_FREE = 512,  /* context: no scalar or block body was open before this line */
    YR_OPENS_SQ = 1024, /* the entry's value is a single-quoted scalar not closed on the line */
    YR_SQ_CONT = 2048,  /* context: a later line of a single-quoted scalar opened on an earlier line */
    YR_QUOTED_BLOCK = 4096, /* the entry's value is a block scalar header in quotes, once or doubled
                           (`notes: '|-'`, `''|''`): yaml.quoted-block-indicator reads it back as a
                           header, so the deeper lines after it are its body for every rule before */
    YR_PLAIN_TEXT = 8192, /* context: a `- ` line with no key deeper than the entry of a plain scalar open before it:
                           YAML reads it as that scalar's text (`e: d` + ` - "x` is "d - \"x"), so
                           a quote or block header on it opens nothing */
};
/* Later lines of a quoted scalar (double or single) opened on an earlier line. */
#define YR_QUOTE_CONT (YR_DQ_CONT | YR_SQ_CONT)
/* Lines whose text belongs to a scalar started on an earlier line: no rule reads them as entries. */
#define YR_CONT (YR_QUOTE_CONT | YR_PLAIN_CONT)
/* A line's text without its '\n' and trailing '\r'. */
typedef struct {
    const char *s;
    uint32_t n;
    bool cr;            /* a '\r' preceded the line break */
    bool nl;            /* the line ended with '\n' in the text */
    uint16_t flags;     /* YR_INERT, YR_OPENS_BLOCK, ... (the enum above) */
} yr_line;
/* The end of line a rewritten line is given: "\r" or "". */
#define YR_EOL(l) ((l)->cr ? "\r" : "")
/* What the group driver's trigger check (YR_RULES) learnt of the bytes a text holds,
 * one bit per byte, filled on demand by yr_doc_holds: a byte in `known` was looked
 * for (alone, or twice in a row for `known2`) and is in `has` (`has2`) when found.
 * After an update `has` stays a superset and the absent bytes are looked for again. */
typedef struct { uint64_t known[4], has[4], known2[4], has2[4]; } yr_bytes;
/* A run of whole lines of the model's text that a rule copied unchanged to its output. */
typedef struct { size_t from, n, at; } yr_span; /* text offset, bytes, output offset */
/* The copies one rule made through a writer that names its doc (yr_out.d);
 * `lost` after an allocation failure (the next model is then built from scratch). */
typedef struct { yr_span *s; size_t count, cap; bool lost; } yr_trace;
/* The line model every rule reads: the lines of one text, their parsed entries
 * and per-line flags. Built once per candidate text (yr_doc_open); after a rule
 * changed the text, yr_doc_update moves the model to the new text, parsing
 * only the lines the rule wrote (the others are copied with their entries). */
/* A line's entry in 16 bytes (columns of lines up to 65535 bytes). */
typedef struct {
    uint16_t indent, dash, content, key_s, key_e, val, end;
    uint8_t dashes;
    bool key;
} yr_centry;
typedef struct {
    const char *text;
    size_t len;
    yr_line *l;
    yr_centry *ce;      /* ce[i]: line i parsed by yr_entry_parse; for a YR_LONG line,
                           ce[i].key_s << 16 | ce[i].key_e indexes long_e */
    yr_entry *long_e;   /* the entries of YR_LONG lines (few: one per 64 KB of text at most) */
    size_t nlong;
    size_t count;
    bool final_nl;      /* the text ended with '\n' */
    bool cr;            /* the text may hold a '\r' (false: no line holds one) */
    uint16_t kinds;     /* the flags of all lines or'ed */
    yr_bytes bytes;     /* what is known of the text's bytes (yr_doc_holds) */
    yr_trace *trace;    /* where writers naming this doc record their copies; may be NULL */
} yr_doc;
/* Build the model of text [in, in+len). 0 ok, -1 OOM or a line too long. */
int yr_doc_open(yr_doc *d, const char *in, size_t len);
/* Move d to text [in, in+len), a rule's output written from d with d->trace
 * recording its copies: copied lines keep their entries, written lines are
 * parsed, context flags are recomputed. The result equals yr_doc_open of the
 * new text (bytes: a superset). 1: updated; 0: built from scratch (no trace, or
 * one that does not describe whole lines); -1 OOM or a line too long (d is then closed). */
int yr_doc_update(yr_doc *d, const char *in, size_t len);
void yr_doc_close(yr_doc *d);
/* For yr_doc_open and yr_doc_update: parse [p, p+n) (without '\n') as line i of d
 * (d->l and d->ce have room for it); 0 ok, -1 OOM or too long. */
int yr_doc_set_line(yr_doc *d, size_t i, const char *p, size_t n, bool nl);
/* Lines of [s, s+n): one per '\n', plus a last one without it. */
size_t yr_count_lines(const char *s, size_t n);
/* Recompute the context flags (YR_CONT, YR_CTX_FREE) of every line of d. */
void yr_doc_context(yr_doc *d);
/* Lines [first, end) of a model copied, in order, from consecutive lines of an earlier one. */
typedef struct { size_t first, end; } yr_run;
/* yr_doc_context after an update: runs (sorted) are the copied lines, whose context
 * flags are those of the earlier model; a run entered with nothing open where the
 * earlier model had nothing open either keeps them. */
void yr_doc_context_runs(yr_doc *d, const yr_run *runs, size_t nruns);
/* True when d's text may hold byte c (twice in a row when `doubled`); looked up
 * once per model and remembered in d->bytes. */
bool yr_doc_holds(yr_doc *d, unsigned char c, bool doubled);


/* A rule over the line model: writes the repaired text to out and returns the
 * number of changes (0: out is undefined and the text stays as it was). */
typedef size_t (*yr_rule_fn)(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w);

/* The model form of rule `index` of mf_yaml_repairs (table order); NULL past the end. */
yr_rule_fn yr_rule_at(size_t index);

/* ---- the rules (mf_yaml_fix_<name>, the mf_text_rule form, wraps each) ---- */
size_t mf_yaml_fix_code_fence(const char *, size_t, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_code_fence(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_xml_tag_lines(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* Is line l only a bare XML-style tag (`<yaml>`, `</artifact>`, `<br/>`), which yaml.xml-tag-lines drops? */
bool yr_bare_tag_line(const yr_line *l);
/* True when a bare tag line at column 0, or a stack of them ("<response>" + "<yaml>"), is a
 * YAML document of its own: a `---` or `...` marker between it and the rest ("<yaml>" +
 * "---" + "a: 1" + "---" + "</yaml>"), so the text parses with the tags as a string document. */
bool yr_tag_document(const char *s, size_t n);
/* yaml.xml-tag-lines before the first parse, when yr_tag_document holds. */
size_t yr_fix_tag_documents(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_duplicate_key(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_inline_seq_parent(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_colon_space(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_inline_keys(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_dash_space(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_nested_children(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_item_key(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* Would yaml.item-key name the bare item of entry e on line i were its dash at column col? */
bool yr_item_key_names(const yr_doc *d, const mf_profile *p, size_t i, const yr_entry *e, size_t col);
size_t yr_fix_invalid_escape(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_unclosed_quote(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_unclosed_flow(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_inner_quotes(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_quoted_fragment(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_quoted_block_ind(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_type_union(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_reserved_indicator(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_free_text(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_quoted_hash(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_block_header_comment(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* True when [s, s+n) starts with a block scalar header glued to a comment: [|>][0-9+-]{0,2}'#'. */
bool yr_header_glued_comment(const char *s, size_t n);
/* True when c may end a token libyaml's scanner reads a glued '#' after as a comment: a
 * closing quote or a flow indicator (`'x'#c`, `[1, 2]#c`, `{a,#c`). */
bool yr_glues_comment(char c);
size_t yr_fix_plain_colon(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_seq_indent_drift(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* yaml.sequence-indent-drift on the dashes of block scalar headers alone, where the move
 * changes which lines are the block's body: run before the rules that rewrite entry lines,
 * which would otherwise rewrite body text as entries (or leave entries as body text). */
size_t yr_fix_drifted_block_headers(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_property_indent(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_block_body_indent(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_item_colon(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_doubled_quotes(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_inline_known_keys(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
size_t yr_fix_front_matter_closer(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* yaml.colon-space before the first parse: glued `k:v` children of an empty parent (valid YAML: a string). */
size_t yr_fix_colon_space_child(const yr_doc *, mf_buf *, const mf_profile *, mf_warnings *);
/* True when the line at offset next of s is deeper than col and starts with a glued `key:value` (its pre-check). */
bool yr_may_have_glued_child(const char *s, size_t n, size_t next, size_t col);
/* True when line k of d, holding no key as written, is a glued `key:value` entry
 * that yaml.colon-space spaces (`hint:"x"`, `answered_at:2026-`). */
bool yr_glued_entry_line(const yr_doc *d, size_t k);
/* True when the last line of s that is neither blank nor a comment is a bare `---` (front-matter-closer's pre-check). */
bool yr_may_end_with_doc_start(const char *s, size_t n);

/* Output under construction; `oom` latches the first allocation failure.
 * Unchanged input lines are gathered into one pending span and copied at once.
 * A rule builds it as {.b = out, .d = d}: with its doc named, the copies are
 * recorded in d->trace and the next model is an update, not a rebuild. */
typedef struct { mf_buf *b; bool oom; const char *pend; size_t pend_n; const yr_doc *d; } yr_out;
/* yr_put past its fast path (a pending span to flush, a long piece or a full buffer). */
void yr_put_slow(yr_out *o, const char *s, size_t n);
/* Append [s, s+n): a few bytes into a buffer with room are copied in place. */
static inline void yr_put(yr_out *o, const char *s, size_t n)
{
    mf_buf *b = o->b;
    if (o->pend_n || o->oom || n > 16 || b->len + n + 1 > b->cap) {
        yr_put_slow(o, s, n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        b->s[b->len + i] = s[i];
    b->len += n;
    b->s[b->len] = '\0'; /* mf_buf's text stays terminated */
}
void yr_puts(yr_out *o, const char *s);
void yr_spaces(yr_out *o, size_t n);
/* Append s as a double-quoted YAML scalar whose value is exactly s (a control byte
 * YAML rejects anywhere stays raw: the text stays unloadable). */
void yr_put_dq(yr_out *o, const char *s, size_t n);
/* End an output line: eol then '\n'. */
void yr_endl(yr_out *o, const char *eol);
/* Copy the pending span to the buffer (before reading o->b). */
void yr_flush(yr_out *o);
/* yr_put_line for a line that is not the next one of the pending span. */
void yr_put_line_slow(yr_out *o, const yr_line *l);
/* Append line l unchanged (with its end of line). */
static inline void yr_put_line(yr_out *o, const yr_line *l)
{
    if (l->nl && o->pend_n && o->pend + o->pend_n == l->s)
        o->pend_n += l->n + (l->cr ? 2u : 1u);
    else
        yr_put_line_slow(o, l);
}
/* Finish: drop the last '\n' when the input had none; returns `changes`, or 0
 * after an allocation failure or when nothing changed (the caller then keeps
 * its input, and the output buffer is incomplete). */
size_t yr_finish(yr_out *o, const yr_doc *d, size_t changes);

/* ---- block scalar bodies ---- */
typedef struct {
    bool active;
    size_t parent;  /* column the body must be deeper than */
    size_t body;    /* indent of the first body line, 0 while unknown */
} yr_block;
/* The block_body of yr_block_body once a body is active. */
bool yr_block_body_active(yr_block *b, const yr_line *l);
/* True when line l belongs to the body of the block scalar opened earlier. */
static inline bool yr_block_body(yr_block *b, const yr_line *l) { return b->active && yr_block_body_active(b, l); }
/* If text (one rewritten output line) opens a block scalar (`key: |`, `- >-`), start tracking its body. */
void yr_block_note(yr_block *b, const char *s, size_t n);
/* The same for input line i of d, from its model flags (no re-parse). */
static inline void yr_block_note_line(yr_block *b, const yr_doc *d, size_t i);

/* Lines the scalar repairs leave alone: block scalar bodies and the
 * continuation lines of a quoted value left open on an earlier line. */
typedef struct {
    yr_block blk;
    char quote; /* '"' or '\'': the quote of a value left open on an earlier line; 0: none */
} yr_skip;
/* yr_skip_line inside an open quoted value: scan l for its closing quote (double
 * quotes: a backslash escapes the next byte; single quotes: `''` is an escaped quote). */
bool yr_skip_quote_line(yr_skip *k, const yr_line *l);
/* True when line l is skipped (updates the state). */
static inline bool yr_skip_line(yr_skip *k, const yr_line *l)
{
    return k->quote ? yr_skip_quote_line(k, l) : yr_block_body(&k->blk, l);
}
/* Note a rewritten output line: it may open a block scalar or an unclosed quoted value. */
void yr_skip_note(yr_skip *k, const char *s, size_t n);
/* The same for input line i of d, from its model flags. */
static inline void yr_skip_note_line(yr_skip *k, const yr_doc *d, size_t i);

/* Parse a line: indentation, sequence dashes, an optional key (plain or quoted
 * followed by ": " or ":" at end) and where the value starts. */
void yr_entry_parse(const char *s, size_t n, yr_entry *e);
/* Line i's entry. */
static inline yr_entry yr_entry_at(const yr_doc *d, size_t i)
{
    yr_entry e;
    const yr_centry *c = &d->ce[i];
    if (d->l[i].flags & YR_LONG)
        return d->long_e[(size_t)c->key_s << 16 | c->key_e];
    e.indent = c->indent, e.dash = c->dash, e.content = c->content, e.key_s = c->key_s, e.key_e = c->key_e;
    e.val = c->val, e.end = c->end, e.dashes = c->dashes, e.key = c->key;
    return e;
}
/* True when the entry has a value position: after a key or after a dash. */
static inline bool yr_entry_valued(const yr_entry *e) { return e->key || e->dashes > 0; }
/* True when the entry is a bare parent line: `key:` or `-` with nothing after it. */
static inline bool yr_entry_opener(const yr_entry *e)
{
    return (e->key && e->val >= e->end) || (!e->key && e->dashes && e->content >= e->end);
}
/* The body's column when entry e of line s opens a block scalar with an explicit
 * indentation indicator (`key: |2-`: the key's column + 2), else 0 (the first body line sets it). */
size_t yr_block_body_indent(const char *s, const yr_entry *e);
static inline void yr_block_note_line(yr_block *b, const yr_doc *d, size_t i)
{
    if (!(d->l[i].flags & (YR_OPENS_BLOCK | YR_QUOTED_BLOCK)))
        return;
    b->active = true;
    const yr_entry e = yr_entry_at(d, i);
    b->parent = e.key ? e.key_s : e.dash;
    b->body = yr_block_body_indent(d->l[i].s, &e);
}
static inline void yr_skip_note_line(yr_skip *k, const yr_doc *d, size_t i)
{
    if (d->l[i].flags & YR_PLAIN_TEXT)
        return;
    if (d->l[i].flags & (YR_OPENS_BLOCK | YR_QUOTED_BLOCK))
        yr_block_note_line(&k->blk, d, i);
    if (d->l[i].flags & YR_OPENS_DQ)
        k->quote = '"';
    else if (d->l[i].flags & YR_OPENS_SQ)
        k->quote = '\'';
}
/* True for blank lines, comment lines and document markers (--- / ...). */
bool yr_line_inert(const char *s, size_t n);
/* True when [s, s+n) is a block scalar header: up to two properties (&anchor, !tag), then
 * [|>][0-9+-]* then blanks or a comment. */
bool yr_is_block_header(const char *s, size_t n);
/* The explicit indentation indicator (1-9) of the block header at or after v (`|2-`, `&a >1`), else 0. */
size_t yr_block_indicator(const char *v, size_t n);
/* True when [s, s+n) is a block scalar header in quotes, once or doubled (`"|"`, `''|-''`),
 * with only blanks or a comment after it; *hdr (may be NULL) is set to the header's offset. */
bool yr_is_quoted_block_header(const char *s, size_t n, size_t *hdr);
/* Flow collections written over several lines: for a line whose value opens
 * `[` or `{` without closing it (also after inline dashes, `key: - [1`), fend[k] = the line that closes it; 0 for
 * every other line (fend: d->count entries), and for a collection no later
 * line closes before the end of the text or a list item, fence or document
 * marker line: yaml.unclosed-flow closes it on its own line, and the lines
 * after it are entries (run 15 5e4327db-rbffa3693).
 * Quotes inside the collection may span lines too; a ` #` outside quotes ends
 * a line's text. The lines after an opener up to fend[k] are the flow's text,
 * no entries (yaml_repair_lines.c). */
void yr_flow_ends(const yr_doc *d, uint32_t *fend);
/* True when [s, s+n) is a simple identifier key: [A-Za-z_][A-Za-z0-9_-]*. */
bool yr_is_ident(const char *s, size_t n);
/* True when [s, s+n) is a header-like key: capitalized words joined by '-' (X-Request-Id, EPIC-1). */
bool yr_is_header_key(const char *s, size_t n);
/* End of a quoted scalar starting at s[i] ('"' or '\''): index just past the
 * closing quote, or 0 when it is not closed before n. */
size_t yr_quote_end(const char *s, size_t n, size_t i);
/* 1-based line number of line index i. */
static inline int yr_lineno(size_t i) { return i >= 0x7fffffff ? 0x7fffffff : (int)i + 1; }

/* ---- value rewriting (yaml_repair_quotes.c) ---- */
/* A per-line repair: line i (entry e, which has a value position) is either
 * left alone (return 0) or fully written with its end of line, possibly with
 * following lines it absorbed (return the index after the last line used). */
/* True when non-blank line k, after a block scalar header and at or left of its key (or
 * after a body line that was: left), is text yaml.block-body-indent moves into the body:
 * no identifier or quoted key (a quoted key only once a line fell left), no dash. */
bool yr_fallen_body_line(const yr_doc *d, size_t k, bool left);
/* The last line of the body under block header line i when yaml.block-body-indent will take
 * lines at or left of its key as that body, else i (yaml_repair_indent.c). */
size_t yr_fallen_body_last(const yr_doc *d, size_t i);
typedef size_t (*yr_line_fix)(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e,
                              const mf_profile *p, mf_warnings *w);
/* Run fn on every valued line outside block scalar bodies and open quoted values
 * that has one of the line kinds `kinds` (0: any line; fn leaves the others alone). */
size_t yr_run_line_rule(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w, yr_line_fix fn,
                        uint16_t kinds);
/* End of e's value text on line l: before a trailing ` #` comment (quoted runs
 * skipped when `quotes`), blanks trimmed. */
size_t yr_value_end(const yr_line *l, const yr_entry *e, bool quotes);
/* Write line i with its value [e->val, vend) as a double-quoted scalar, folding
 * continuation lines up to `last`; what follows vend stays. Returns last + 1. */
size_t yr_put_quoted(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, size_t vend, size_t last);
/* True when a plain scalar may start [s, s+n) (no quote, indicator, block header or flow start). */
bool yr_plain_start(const char *s, size_t n);
/* Where a document's first content line is a bare plain scalar (no key, no dash: `m`,
 * `2`), YAML reads the lines after it up to the first comment, document marker or key
 * line without a dash (an error there) as that scalar's text, `- x` lines too: mark[k]
 * is 1 for those lines, else 0 (mark: d->count bytes). No rule reads them as entries
 * (a quote written there would be text). So are the deeper `- x` lines without a key
 * after a key's or item's plain value (`p: o` + ` - x`: "o - x"), up to a comment. */
void yr_root_plain_mark(const yr_doc *d, unsigned char *mark);

/* ---- profile lookups (p may be NULL) ---- */
/* The whitelisted child list of parent key [k, k+n), or NULL. */
const json_t *yr_children_of(const mf_profile *p, const char *k, size_t n);
/* True when [k, k+n) is in the JSON array of strings `list`. */
bool yr_list_has(const json_t *list, const char *k, size_t n);
/* True when [k, k+n) is a key the profile knows (nested parent or child, top-level key). */
bool yr_known_key(const mf_profile *p, const char *k, size_t n);
/* True when [k, k+n) is spelled as one of the profile's keys anywhere: top-level,
 * schema properties, aliases, nested parents and children. */
bool yr_profile_key(const mf_profile *p, const char *k, size_t n);

/* ---- keys used in a document ---- */
/* The set of identifier keys that start an entry line somewhere in the document. */
typedef struct { const char **s; uint32_t *n; size_t mask; } yr_keyset;
int yr_keyset_init(yr_keyset *k, const yr_doc *d); /* 0 ok, -1 OOM */
/* How many lines of d are mapping entries (have a key): the size hint of key tables. */
size_t yr_key_lines(const yr_doc *d);
bool yr_keyset_has(const yr_keyset *k, const char *s, size_t n);
void yr_keyset_free(yr_keyset *k);

#endif
