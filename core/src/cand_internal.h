/* cand_internal.h - helpers shared by the candidate-extraction files
 * (candidates.c, cand_tidy.c, cand_prefix.c, cand_json.c). Not installed. */
#ifndef MALFORM_CAND_INTERNAL_H
#define MALFORM_CAND_INTERNAL_H

#include "internal.h"

/* Length of the text once trailing terminal noise (ANSI CSI sequences,
 * bracketed-paste markers, control characters) after the last real character
 * is dropped; len when there is none. *line: 1-based line of the first
 * trimmed noise byte. *keep_nl: the trimmed suffix held a newline. */
size_t mf_cand_noise_cut(const char *s, size_t len, int *line, bool *keep_nl);

/* Is the line [s, s+n) (no '\n') only a closing line: a bare closing tag
 * ("</yaml>") or a bare fence (```, ~~~) at column 0, or terminal noise, or
 * such a mark with terminal noise after it ("```\x1b[0m")? */
bool mf_cand_closer_line(const char *s, size_t n);
/* Does [s, s+n) hold only blanks and terminal noise tokens (true when empty)? */
bool mf_cand_noise_only(const char *s, size_t n);

/* Does [s, s+n) hold a '[' that starts no terminal noise token and lies in
 * none ("[201~", "\x1b[0m" are noise, no JSON or flow structure)? */
bool mf_cand_bracket_outside_noise(const char *s, size_t n);

/* Start of the run of bare closing tag lines (and, with fences, bare fence
 * lines) and blank lines that ends the text, with a last front-matter closer
 * (`---`) after them; len when there is none. */
size_t mf_cand_closer_tail(const char *s, size_t len, bool fences);

/* Start of an orphan closing fence line: the last non-blank line before
 * any closing tag lines is a bare ``` or ~~~ and no earlier line opens a fence;
 * len when there is none. The orphan spans [return, *end) (*end: where the
 * closing tag lines start, or len). *line: 1-based line of the fence. */
size_t mf_cand_orphan_fence_cut(const char *s, size_t len, size_t *end, int *line);

/* Does a line of [s, s+n) start with a transcript role prefix? (Only then can
 * mf_cand_strip_prefixes change the text.) */
bool mf_cand_prefixed_line(const char *s, size_t n);

/* Copy s into out with transcript role prefixes ([assistant], [user/x], ...)
 * removed from the start of each line. Returns the number of lines changed
 * (0: out holds an unchanged copy), or (size_t)-1 on OOM. *first: line of the
 * first change. */
size_t mf_cand_strip_prefixes(const char *s, size_t len, mf_buf *out, int *first);

/* Length of a transcript role prefix at the start of s (incl. one following
 * space or tab), or 0. */
size_t mf_cand_prefix_len(const char *s, size_t len);

/* End of a closed reasoning block (`<think>`, `<thinking>` or `<reasoning>`
 * ... its closing tag) that opens the text (blanks before it), or 0: the
 * model's draft, not its answer. */
size_t mf_cand_reasoning_end(const char *s, size_t len);

/* A byte range [start, end) of a text. */
/* A balanced span [start, end); lost: an element of a collection whose opener the
 * scan lost (no candidate, but a value that taking another span would drop). */
typedef struct { size_t start, end; bool lost; } mf_cand_span;

/* Find up to max outermost balanced {...} / [...] values of s (brackets
 * inside JSON strings ignored), largest first (ties: earlier first).
 * Returns the count, or (size_t)-1 on OOM. */
size_t mf_cand_json_spans(const char *s, size_t len, mf_cand_span *out, size_t max);
/* When st lies inside a code fence opened on an earlier line (``` or ~~~)
 * and a bare closing fence line of that kind follows st with no JSON
 * structure ('{', '[', '"') after it: that line's start (cand_json.c); else
 * len, with *inside set when such fence lines follow st but structure
 * follows each (a cut string would swallow them). */
size_t mf_cand_fence_end(const char *s, size_t len, size_t st, bool *inside);

/* Does the line [s, s+n) end a YAML block scalar header (`key: |`, `- >-`,
 * `k: |2`, or one damage quoted: `k: "|-"`)? Its deeper lines are text. */
bool mf_cand_block_header(const char *s, size_t n);

/* Is the line [s, s+n) (no '\n') at column 0 a YAML entry of artifact data
 * rather than prose: a one-word key (an identifier, or printable bytes but
 * quotes, ',', '#' and ':', `ar|ifact`) in lower
 * case or one of p's keys or aliases in any case ("Beadid"), or a quoted
 * key closed on the line (`"a:b": c`), and a short
 * value that is no sentence ("ticket_id: T-1", "schema_version: 1")? The
 * anchor candidate must not drop such a line. */
bool mf_cand_data_line(const mf_profile *p, const char *s, size_t n);

/* Is every line of [s, s+len) a data entry at column 0 in any case
 * (`Ertifact: beads`, `Status: done`), a tag, comment, fence or `---` line,
 * one entry at least? Text above the first top-level key that holds no line
 * of prose is data: the anchor candidate must not drop it. */
bool mf_cand_entries_only(const mf_profile *p, const char *s, size_t len);

/* 1-based line number of byte offset off in s. */
int mf_cand_line_at(const char *s, size_t off);

#endif
