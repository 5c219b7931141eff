/* candidates.c - candidate extraction (seed 000, Universal Repairs / Candidate
 * Extraction; seed 002 A1 for JSON).
 *
 * Raw model output is rarely just the artifact. This stage turns it into an
 * ordered list of candidate texts for the pipeline to try, first valid wins:
 *
 *   1. "raw"              the output itself;
 *   2. "prefix-stripped"  transcript role prefixes removed from each line;
 *   3. "fence"            the inner text of every ```yaml/```yml/```json/
 *                         ```jsonl (or bare ```) fence, ~~~ too, the language
 *                         also as part of a compound word (~~~card-yaml); an
 *                         unclosed fence runs to the end of the text;
 *   4. "tag"              every <TAG>...</TAG> of a profile with a tag;
 *      "tag-truncated"    everything after the last opening tag left unclosed;
 *   5. "anchor"           from the first line starting with a top-level key of
 *                         the profile (`key:` at column 0; `"key":` for JSON);
 *   6. "json-balanced"    JSON profiles: a Python tuple (...) opening a line
 *                         (json.python-tuple), then outermost balanced
 *                         {...}/[...] values, largest first; "json-span": first '{' to last '}'
 *                         and first '[' to last ']' (the kind that opens
 *                         first goes first) as a last resort.
 *
 * Kinds 3-6 are taken from the raw text and again from the prefix-stripped
 * text (named "<kind>+prefix-stripped"), in that order per kind. Every
 * candidate is then tidied (cand_tidy.c: trailing terminal noise, orphan
 * closing fence; cand_prose.c: sentence-like lines after a YAML artifact). A candidate carries the warnings it owes if it wins: the
 * prefix stripping, its extraction (line = where it was found in the raw
 * output) and its tidying (line = in the candidate text). Blank candidates
 * other than "raw" are skipped; identical texts are listed once (the first).
 *
 * Bounds: each scan is one linear pass; a text with 100k fences or tags must
 * not become 100k candidates the pipeline would parse one by one, so each kind
 * keeps at most MF_CAND_PER_KIND (MF_CAND_JSON_SPANS for balanced JSON) and
 * the whole list at most MF_CAND_MAX; later ones are dropped. Duplicate
 * detection hashes a text once, when another of the same length is listed,
 * and compares only equal hashes. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cand_internal.h"
#include "json_strict.h"

#define MF_CAND_MAX 64
#define MF_CAND_PER_KIND 12
#define MF_CAND_JSON_SPANS 6
#define MF_SPAN_DEPTH 256 /* brackets tracked by the cut-span check */

const mf_rule mf_rules_cand[] = {
    {"cand.recovered", "000 Universal Repairs / Candidate Extraction",
     "The winning candidate is not the raw output (prose, fence, tag or prefix removed)."},
    {"cand.transcript-prefix", "000 Universal Repairs / Transcript prefix stripping",
     "Strip transcript role prefixes ([assistant], [user/x], [system], [tool], ...) from each line."},
    {"cand.terminal-noise", "000 Universal Repairs / Trailing terminal noise",
     "Trim ANSI escapes, bracketed-paste markers and control characters after the artifact."},
    {"cand.orphan-fence", "000 Universal Repairs / Orphan closing code fence",
     "Trim a trailing closing ``` line that has no opening fence above it."},
    {"cand.fence", "000 Universal Repairs / Candidate collection from surrounding prose",
     "Take the inner content of a ```yaml/```yml/```json/```jsonl (or bare) code fence."},
    {"cand.tag", "000 Universal Repairs / Tagged-candidate extraction",
     "Take the inner content of the profile's <TAG>...</TAG> envelope."},
    {"cand.tag-truncated", "000 Universal Repairs / Tagged-candidate extraction",
     "Take everything after the last opening <TAG> when its closing tag is missing."},
    {"cand.anchor", "000 Universal Repairs / Candidate collection from surrounding prose",
     "Drop the text before the first line that starts with a top-level key of the profile."},
    {"cand.json-balanced", "002 A1 JSON extraction (brace counting with string state)",
     "Take the largest balanced {...} or [...] value found in surrounding text."},
    {"cand.json-span", "002 A1 JSON extraction (first '{' to last '}')",
     "Take the text from the first '{' to the last '}' (or '[' to ']') as a last resort."},
    {"cand.leading-prose", "000 Universal Repairs / Candidate collection from surrounding prose",
     "Drop a leading prose line (\"Okay, here it is:\") that YAML would read as an invented key."},
    {"cand.trailing-prose", "000 Universal Repairs / Candidate collection from surrounding prose",
     "Drop sentence-like lines at column 0 after a YAML artifact (\"Let me know if ...\")."},
    {"echo.prompt", "000 Prompt Echo Detection",
     "Reject output that echoes the prompt (hard + soft markers) or a prompt schema (rejection rule)."},
    {NULL, NULL, NULL}};

/* Indices into mf_rules_cand: warnings name the registry's own id strings. */
enum { R_RECOVERED, R_PREFIX, R_NOISE, R_ORPHAN, R_FENCE, R_TAG, R_TAG_TRUNC, R_ANCHOR, R_JSON_BALANCED,
       R_JSON_SPAN, R_LEADING_PROSE, R_TRAILING_PROSE };
#define RULE(r) (mf_rules_cand[r].id)

typedef struct {
    mf_candidates *out;
    unsigned long long *hash; /* hash of out->items[i].text | 1, or 0 until first needed */
    const mf_profile *p;
    const char *suffix;       /* "" or "+prefix-stripped" */
    const mf_warnings *base;  /* warnings of the base text (prefix stripping) */
    mf_buf tmp;
    int oom;
} ctx;

static unsigned long long fnv(const char *s, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n')
            return false;
    return true;
}

static bool is_json(const mf_profile *p) { return p && p->format == MF_FORMAT_JSON; }

/* Does a line of [s, s+n) start with a fence (``` or ~~~), or is one a
 * closing line (a bare closing tag, terminal noise)? */
static bool fence_or_closer_in(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t e = nl ? (size_t)(nl - s) : n;
        if (e - i >= 3 && (s[i] == '`' || s[i] == '~') && s[i + 1] == s[i] && s[i + 2] == s[i])
            return true;
        if (e > i && mf_cand_closer_line(s + i, e - i))
            return true;
        i = e + 1;
    }
    return false;
}

/* Tidy the candidate in c->tmp, adding its warnings to w. Trailing prose
 * goes first: terminal noise or an orphan fence above it is only trailing
 * once the prose is cut. Noise before closing tag or fence lines at the end
 * ("\x1b[0m" + "</yaml>") is trailing too; those lines stay. */
size_t mf_cand_trailing_cut(const mf_profile *p, const char *s, size_t len, int *line, bool *keyed, bool *closed)
{
    size_t cut = mf_cand_trailing_prose(p, s, len, line, keyed);
    bool fc = cut < len && fence_or_closer_in(s + cut, len - cut);
    if (closed)
        *closed = fc;
    /* sentences without a key after a `---` are a second document YAML reads as
     * it is (the raw text's reading, [artifact, "text"]): kept, not dropped;
     * unless a fence or a closing tag comes between ("---" + "```" + "Done.",
     * "---" + "</artifact>" + "Let me know ..."): the envelope ended, no document */
    if (cut < len && !*keyed && len - cut >= 3 && memcmp(s + cut, "---", 3) == 0 && !fc)
        cut = len;
    return cut;
}

static int tidy(ctx *c, mf_warnings *w)
{
    mf_buf *b = &c->tmp;
    int line;
    bool keyed;
    size_t cut = mf_cand_trailing_cut(c->p, b->s, b->len, &line, &keyed, NULL);
    if (cut < b->len) {
        b->len = cut;
        b->s[b->len] = '\0';
        if (mf_warnings_add(w, MF_RULE_ID(CAND_TRAILING_PROSE), line,
                            "Dropped the prose after the structured artifact (from line %d).", line))
            return -1;
    }
    for (int round = 0; round < 4; round++) {  /* noise and orphan fences may alternate */
        bool nl, cutting = false;
        size_t tail = mf_cand_closer_tail(b->s, b->len, true);
        cut = mf_cand_noise_cut(b->s, tail, &line, &nl);
        if (cut < tail) {
            size_t keep = b->len - tail;
            memmove(b->s + cut + nl, b->s + tail, keep);
            if (nl)
                b->s[cut] = '\n';
            b->len = cut + nl + keep;
            b->s[b->len] = '\0';
            cutting = true;
            if (!mf_warnings_has(w, MF_RULE_ID(CAND_TERMINAL_NOISE)) &&
                mf_warnings_add(w, MF_RULE_ID(CAND_TERMINAL_NOISE), line,
                                "Trimmed trailing terminal noise after the complete structured artifact."))
                return -1;
        }
        size_t end;
        cut = mf_cand_orphan_fence_cut(b->s, b->len, &end, &line);
        if (cut == b->len) {
            if (!cutting)
                break;
            continue;
        }
        memmove(b->s + cut, b->s + end, b->len - end);
        b->len -= end - cut;
        b->s[b->len] = '\0';
        if (mf_warnings_add(w, MF_RULE_ID(CAND_ORPHAN_FENCE), line,
                            "Trimmed orphan trailing closing code fence after the structured artifact."))
            return -1;
    }
    size_t lead = c->out->count > 0 ? mf_cand_leading_prose(c->p, b->s, b->len, &line) : 0;
    if (lead > 0 && lead < b->len) {    /* "Status update: done" atop a fenced artifact */
        memmove(b->s, b->s + lead, b->len - lead);
        b->len -= lead;
        b->s[b->len] = '\0';
        if (mf_warnings_add(w, MF_RULE_ID(CAND_LEADING_PROSE), line,
                            "Dropped the leading prose line %d of the extracted text: it reads as a sentence, not as a key.",
                            line))
            return -1;
    }
    return 0;
}

/* Add candidate `kind` (+ suffix) with text [s, s+n); rule/line/fmt describe
 * the extraction (rule NULL for none). Returns -1 on OOM. */
static int emit(ctx *c, const char *kind, const char *s, size_t n,
                const char *rule, int line, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
static int emit(ctx *c, const char *kind, const char *s, size_t n,
                const char *rule, int line, const char *fmt, ...)
{
    mf_candidates *out = c->out;
    if (c->oom || out->count >= MF_CAND_MAX)
        return c->oom ? -1 : 0;
    if (out->count == out->cap) { /* most texts have one or two candidates: grow on demand */
        size_t cap = out->cap ? out->cap * 2 : 4;
        mf_candidate *items = realloc(out->items, cap * sizeof *items);
        if (items)
            out->items = items;
        unsigned long long *hash = items ? realloc(c->hash, cap * sizeof *hash) : NULL;
        if (!hash)
            return c->oom = 1, -1;
        c->hash = hash;
        out->cap = cap;
    }
    mf_warnings w = {0};
    mf_buf_reset(&c->tmp);
    if (mf_buf_reserve(&c->tmp, n) || mf_buf_put(&c->tmp, s, n))
        goto oom;
    for (size_t i = 0; c->base && i < c->base->count; i++)
        if (mf_warnings_add_text(&w, c->base->items[i].rule, c->base->items[i].line,
                            c->base->items[i].message))
            goto oom;
    if (rule) {
        char msg[512];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        if (mf_warnings_add_text(&w, rule, line, msg))
            goto oom;
    }
    if (tidy(c, &w))
        goto oom;
    bool is_raw = out->count == 0;
    if (!is_raw && blank(c->tmp.s, c->tmp.len)) {
        mf_warnings_clear(&w);
        return 0;
    }
    unsigned long long h = 0; /* hashed only when a candidate of the same length exists (0: not yet) */
    for (size_t i = 0; i < out->count; i++) {
        if (out->items[i].len != c->tmp.len)
            continue;
        if (!h)
            h = fnv(c->tmp.s, c->tmp.len) | 1;
        if (!c->hash[i])
            c->hash[i] = fnv(out->items[i].text, out->items[i].len) | 1;
        if (c->hash[i] == h && memcmp(out->items[i].text, c->tmp.s, c->tmp.len) == 0) {
            mf_warnings_clear(&w);
            return 0;
        }
    }
    mf_candidate *x = &out->items[out->count];
    size_t kl = strlen(kind), sl = strlen(c->suffix);
    x->name = malloc(kl + sl + 1);
    if (!x->name)
        goto oom;
    memcpy(x->name, kind, kl);
    memcpy(x->name + kl, c->suffix, sl + 1);
    x->len = c->tmp.len;
    x->text = mf_buf_detach(&c->tmp);
    x->warnings = w;
    c->hash[out->count++] = h;
    return 0;
oom:
    mf_warnings_clear(&w);
    c->oom = 1;
    return -1;
}

/* ---- fences ---------------------------------------------------------------- */

/* A fence line: optional indentation, >= 3 backticks (or tildes), an
 * optional info word. */
typedef struct {
    size_t indent, ticks;
    char ch;            /* '`' or '~' */
    bool accepted;      /* a candidate fence: bare, yaml, yml, json, jsonl (any case) */
    bool plain;         /* tagged as plain text or markdown (text, txt, plaintext, plain, markdown, md) */
    bool bare;          /* nothing after the fence characters */
} fence;

static bool info_is(const char *s, size_t wl, const char *const *words)
{
    for (const char *const *k = words; *k; k++)
        if (strlen(*k) == wl) {
            size_t j = 0;
            while (j < wl && (s[j] | 0x20) == (*k)[j])
                j++;
            if (j == wl)
                return true;
        }
    return false;
}

/* Does the info word [s, s+wl) name a data language: yaml, yml, json or jsonl
 * alone or as one part of a compound word (`card-yaml`, `yaml_front`,
 * `language-json`, `{.yaml}`: parts split at non-alphanumerics)? */
static bool info_names_data(const char *s, size_t wl)
{
    static const char *const ok[] = {"yaml", "yml", "json", "jsonl", NULL};
    for (size_t i = 0; i < wl;) {
        size_t j = i;
        while (j < wl && (((s[j] | 0x20) >= 'a' && (s[j] | 0x20) <= 'z') || (s[j] >= '0' && s[j] <= '9')))
            j++;
        if (j > i && info_is(s + i, j - i, ok))
            return true;
        i = j > i ? j : j + 1;
    }
    return false;
}

static bool fence_info(const char *s, size_t n, fence *f)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    f->indent = i;
    f->ch = i < n ? s[i] : 0;
    if (f->ch != '`' && f->ch != '~')
        return false;
    size_t t = i;
    while (i < n && s[i] == f->ch)
        i++;
    f->ticks = i - t;
    if (f->ticks < 3)
        return false;
    size_t a = i;
    while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '`')
        i++;
    if (mf_cand_noise_only(s + a, n - a))
        i = a = n;                      /* terminal noise after the fence ("```\x1b[?25h"): no info string */
    size_t wl = i - a;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    f->bare = wl == 0 && i == n;
    static const char *const plain[] = {"text", "txt", "plaintext", "plain", "markdown", "md", NULL};
    f->accepted = f->bare || info_names_data(s + a, wl);
    f->plain = !f->accepted && info_is(s + a, wl, plain);
    return true;
}

/* Is [s, s+n) (no blanks around it) a Python tuple of values: '(' then a
 * value's first character ('"', '\'', '[', '{', '(', '-', a digit), a
 * comma, and ')' at the end? `("ci", "x")` is an array (json.python-tuple);
 * "(see above)" is prose. */
static bool tuple_text(const char *s, size_t n)
{
    if (n < 2 || s[0] != '(' || s[n - 1] != ')' || !memchr(s, ',', n))
        return false;
    size_t v = 1;
    while (v < n && (s[v] == ' ' || s[v] == '\t' || s[v] == '\r' || s[v] == '\n'))
        v++;
    return v < n - 1 && (strchr("\"'[{(-", s[v]) || (s[v] >= '0' && s[v] <= '9'));
}

/* Could [s, s+n) be a structured artifact: a ':' (mapping), a bracket, a
 * "- " sequence item, or (json) a Python tuple? A fenced sentence ("Done.")
 * or a one-line caption ("Here is the output:") is prose, no payload. */
static bool structured_text(const char *s, size_t n, bool json)
{
    size_t a = 0, e = n;
    while (a < e && (s[a] == ' ' || s[a] == '\t' || s[a] == '\r' || s[a] == '\n'))
        a++;
    while (e > a && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n'))
        e--;
    if (e > a && s[e - 1] == ':' && !memchr(s + a, '\n', e - a) && memchr(s + a, ' ', e - a))
        return false;                   /* one line "Here is the output:": a caption */
    if (memchr(s, ':', n) || memchr(s, '{', n) || mf_cand_bracket_outside_noise(s, n) ||
        (json && tuple_text(s + a, e - a)))
        return true;
    for (size_t i = 0; i < n; i++)
        if (s[i] == '-' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\n')) {
            size_t k = i;
            while (k > 0 && s[k - 1] == ' ')
                k--;
            if (k == 0 || s[k - 1] == '\n')
                return true;
        }
    return false;
}

/* Does the line end a YAML block scalar header (`key: |`, `- >-`, `k: |2`)?
 * A header damaged into a quoted scalar (`key: '|-'`, `key: ''|-''`: what
 * yaml.quoted-block-indicator and yaml.doubled-quotes repair) counts too: the
 * lines under it are its body, not a fenced payload. So does a header with a
 * comment after it, spaced or glued (`key: |-#note`: yaml.block-header-comment). */
bool mf_cand_block_header(const char *s, size_t n)
{
    const char *hash = memchr(s, '#', n);
    if (hash && hash > s && mf_cand_block_header(s, (size_t)(hash - s)))
        return true;
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    size_t q = 0; /* closing quotes of a damaged header, one or two of one kind */
    while (q < 2 && n > q + 1 && (s[n - 1 - q] == '\'' || s[n - 1 - q] == '"') && s[n - 1 - q] == s[n - 1])
        q++;
    size_t end = n - q, k = end;
    while (k > 0 && (s[k - 1] == '-' || s[k - 1] == '+' || (s[k - 1] >= '1' && s[k - 1] <= '9')) && end - k < 2)
        k--;
    if (k == 0 || (s[k - 1] != '|' && s[k - 1] != '>'))
        return false;
    k--;
    for (size_t j = 0; j < q; j++, k--) /* as many opening quotes */
        if (k == 0 || s[k - 1] != s[n - 1])
            return false;
    if (k == 0 || (s[k - 1] != ' ' && s[k - 1] != '\t'))
        return false;
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
        k--;
    return k > 0 && (s[k - 1] == ':' || s[k - 1] == '-');
}

/* Is line text [s, s+n) (indentation stripped), at or left of a block scalar
 * header's key, text of a body written too far left, as yaml.block-body-indent
 * reads it: no list item, comment, document marker or identifier key (a closed
 * quoted key or a one-word key ends the body too until a line fell left)? A fence there
 * (`notes: |` + `Here is the output:` + "```json" at the key's column) is
 * text of the value, no payload. */
static bool fallen_body_line(const char *s, size_t n, bool fallen)
{
    while (n > 0 && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n == 0 || s[0] == '#' || (s[0] == '-' && (n == 1 || s[1] == ' ' || s[1] == '\t' || s[1] == '-')) ||
        (n >= 3 && memcmp(s, "...", 3) == 0))
        return false;
    size_t k = 0;
    if (!fallen && (s[0] == '"' || s[0] == '\'')) { /* `"a b": v`: a quoted key */
        for (k = 1; k < n && s[k] != s[0]; k++)
            k += s[0] == '"' && s[k] == '\\';
        return !(k + 1 < n && s[k + 1] == ':');
    }
    if (!fallen) { /* `k"ind: v`: a one-word key ends the body until a line fell left */
        while (k < n && s[k] != ' ' && s[k] != '\t' && !(s[k] == ':' && (k + 1 == n || s[k + 1] == ' ')))
            k++;
        if (k < n && s[k] == ':')
            return false;
        k = 0;
    }
    if (!isalpha((unsigned char)s[0]) && s[0] != '_')
        return true;
    while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '-' || s[k] == '.'))
        k++;
    return !(k < n && s[k] == ':' && (k + 1 == n || s[k + 1] == ' ' || s[k + 1] == '\t'));
}

/* ---- the column a dash-item block scalar's body must stay right of ---- */

/* What a YAML line opens for the lines under it: a dash item (its list's
 * column), a bare key (`key:`: children right of its column), or a key with
 * a value (its mapping's column, no children). */
enum { OPEN_NONE, OPEN_DASH, OPEN_BARE_KEY, OPEN_KEYED };
typedef struct { size_t col; int kind; } line_opens;
#define MF_OPEN_DEPTH 32

/* Kind and column of line text t (indentation ind stripped, n bytes): a
 * `- ` item whose content is a bare key counts as that key. */
static line_opens line_opens_of(const char *t, size_t n, size_t ind)
{
    while (n > 0 && (t[n - 1] == '\r' || t[n - 1] == ' ' || t[n - 1] == '\t'))
        n--;
    size_t k = 0;
    bool dash = false;
    while (k < n && t[k] == '-' && (k + 1 == n || t[k + 1] == ' ')) {
        dash = true;
        k++;
        while (k < n && t[k] == ' ')
            k++;
    }
    if (dash && k == n)
        return (line_opens){ind, OPEN_BARE_KEY}; /* a bare dash: children right of it */
    size_t c = k;
    while (c < n && t[c] != ':' && t[c] != '"' && t[c] != '\'' && t[c] != '#')
        c++;
    bool key = c < n && t[c] == ':' && c > k && (c + 1 == n || t[c + 1] == ' ');
    if (key && (c + 1 == n || (c + 2 < n && t[c + 2] == '#')))   /* `key:`, `key: # note` */
        return (line_opens){ind + k, OPEN_BARE_KEY};
    if (dash)
        return (line_opens){ind, OPEN_DASH};
    return (line_opens){ind, key ? OPEN_KEYED : OPEN_NONE};
}

/* The column a `- |` item at column d (a scalar: it holds no properties)
 * keeps its body right of, from the lines open above it (stack[0..depth),
 * columns left of d, innermost last): its list's column (a sibling dash
 * item, drifted or not: `- id: Q` + `  notes: |-` + `   - |-`), a bare
 * parent's column; -1 when unknown. A line between it and the dash can be
 * no key of any mapping there: it is body text that fell left (run 47
 * 8d97e80a: `  Example:` + a ```yaml fence under `   - |-`). */
static long dash_item_floor(const line_opens *stack, size_t depth)
{
    for (size_t j = depth; j-- > 0;) {
        if (stack[j].kind == OPEN_DASH || stack[j].kind == OPEN_BARE_KEY)
            return (long)stack[j].col;
        if (stack[j].kind != OPEN_KEYED)
            return -1;
    }
    return -1;
}

/* Is line text t a `- |` item header: a dash, then the block indicator (no key)? */
static bool dash_item_header(const char *t, size_t n)
{
    if (n < 3 || t[0] != '-' || t[1] != ' ' || !mf_cand_block_header(t, n))
        return false;
    for (size_t k = 1; k + 1 < n; k++)
        if (t[k] == ':' && (t[k + 1] == ' ' || t[k + 1] == '\t'))
            return false;
    return true;
}

/* Fences follow CommonMark's closing rule, made stricter for nested text: a
 * fence closes only when it is bare (no info string; terminal noise after
 * the fence characters, "```\x1b[0m", is none), uses the opener's
 * character, is at least as long as the opener and is indented at most 3
 * spaces and no deeper than the opener. Any other fence line inside opens
 * (with an info string) or closes (bare) an inner fence, so the inner fence
 * of a code sample, or a fence inside a YAML block scalar, never ends the
 * payload. Outside any fence, the lines of a YAML block scalar (`key: |`
 * and the lines indented deeper) are text: a fence there is no payload. */
/* Is the bare fence line at `at` the orphan closer the tidy step trims: the
 * artifact above it, nothing after it but the trailing prose that step cuts
 * ('```' + '---' + 'Notes: ...')? Then the text after it is no payload. So is
 * a fence inside that trailing prose ('Let me know ...' + '```' + '---' +
 * 'Notes: ...'): the step cuts it with the prose around it. Terminal noise on
 * or after the fence line ("```\x1b[0m", before closing tags too) goes first,
 * as in tidy. */
static bool orphan_closer(ctx *c, const char *s, size_t len, size_t at)
{
    int line;
    bool keyed, nl;
    size_t end, cut = mf_cand_trailing_prose(c->p, s, len, &line, &keyed);
    if (at == 0 || blank(s, at) || cut == len)
        return false;
    if (cut <= at)
        return !blank(s, cut);
    size_t tail = mf_cand_closer_tail(s, cut, true), quiet = mf_cand_noise_cut(s, tail, &line, &nl);
    /* noise on the artifact's last line, above the fence (`note: d\x1b[0m` + "```"), stays
     * before it: the fence is the orphan of the text as it is (run 32 ab0a418c) */
    return mf_cand_orphan_fence_cut(s, quiet < tail ? quiet : cut, &end, &line) == at ||
           (quiet < tail && mf_cand_orphan_fence_cut(s, cut, &end, &line) == at);
}

static int scan_fences_as(ctx *c, const char *s, size_t len, bool loose, size_t *found_out)
{
    const char *payload = is_json(c->p) ? "JSON" : "YAML";
    const char *why = loose ? " (its language tag names plain text or markdown)" : "";
    size_t found = 0, body = 0, inner = 0;
    bool inside = false, keep = false;
    fence open = {0};
    size_t open_at = 0;
    int open_line = 0, line = 1, first_fence_line = 0;
    long block_indent = -1;             /* indentation of a `key: |` line whose block we are in */
    long block_floor = -1;              /* a `- |` item's: its body's lines stay right of this column */
    long body_col = -1;                 /* the column of that block's first body line */
    bool fallen = false;                /* a line of that block fell to or left of its key */
    line_opens stack[MF_OPEN_DEPTH];     /* the lines open above, by column (outside fences and bodies) */
    size_t depth = 0;
    for (size_t a = 0; a < len && found < MF_CAND_PER_KIND; line++) {
        const char *nl = memchr(s + a, '\n', len - a);
        size_t b = nl ? (size_t)(nl - s) + 1 : len;
        size_t e = b - (nl ? 1 : 0);
        fence f;
        size_t ind = 0;
        while (a + ind < e && s[a + ind] == ' ')
            ind++;
        bool blank_line = a + ind >= e || s[a + ind] == '\r';
        const char *t = s + a + ind;
        bool dash_line = !blank_line && t[0] == '-' && (a + ind + 1 == e || t[1] == ' ' || t[1] == '-');
        bool item_text = block_floor >= 0 && ind > (size_t)block_floor && !blank_line && t[0] != '#' && !dash_line;
        /* a dash left of the body's column ends the body: an item drifted right of its list (`   - |-`
         * under `  notes: |-` + `    f`), as yaml.sequence-indent-drift reads it */
        bool drifted_item = dash_line && body_col >= 0 && (long)ind < body_col;
        if (!inside && block_indent >= 0 && !drifted_item &&
            (blank_line || ind > (size_t)block_indent || item_text || fallen_body_line(t, e - a - ind, fallen))) {
            fallen = fallen || (!blank_line && ind <= (size_t)block_indent);
            if (body_col < 0 && !blank_line && ind > (size_t)block_indent)
                body_col = (long)ind;
            fence bf;                   /* a bare fence after a fence line of the body is its closer */
            if (!first_fence_line && fence_info(s + a, e - a, &bf))
                first_fence_line = line;
            a = b;                      /* inside a YAML block scalar: its fences are text */
            continue;
        }
        block_indent = -1;
        block_floor = -1;
        body_col = -1;
        fallen = false;
        if (!inside && !blank_line && t[0] != '#') {
            /* a dash at its bare key's column is that key's compact list (`tags:` + `- a`) */
            while (depth > 0 && (stack[depth - 1].col > ind ||
                                 (stack[depth - 1].col == ind && !(dash_line && stack[depth - 1].kind == OPEN_BARE_KEY))))
                depth--;
            if (mf_cand_block_header(s + a, e - a)) {
                block_indent = (long)ind;
                if (dash_item_header(t, e - a - ind))
                    block_floor = dash_item_floor(stack, depth);
            }
            if (depth < MF_OPEN_DEPTH)
                stack[depth++] = line_opens_of(t, e - a - ind, ind);
        }
        if (fence_info(s + a, e - a, &f)) {
            if (!first_fence_line)
                first_fence_line = line;
            if (!inside) {
                inside = true;
                keep = f.accepted || (loose && f.plain);
                open = f;
                open_at = a;
                inner = 0;
                open_line = line;
                body = b;
            } else if (!f.bare) {
                inner++;
            } else if (inner > 0) {
                inner--;
            } else if (f.ch == open.ch && f.ticks >= open.ticks && f.indent <= 3 && f.indent <= open.indent) {
                inside = false;
                if (keep && structured_text(s + body, a - body, is_json(c->p))) {
                    found++;
                    if (emit(c, "fence", s + body, a - body, MF_RULE_ID(CAND_FENCE), open_line,
                             "Took the %s payload from inside the markdown code fence opened at line %d%s.",
                             payload, open_line, why))
                        return -1;
                }
            } else {
                inner++;
            }
        }
        a = b;
    }
    /* an unclosed bare fence after other fences is most likely an orphan
     * closer (the artifact above it, prose below): no candidate from it */
    if (inside && keep && found < MF_CAND_PER_KIND && !(open.bare && open_line > first_fence_line) &&
        !(open.bare && orphan_closer(c, s, len, open_at)) && structured_text(s + body, len - body, is_json(c->p))) {
        found++;
        if (emit(c, "fence", s + body, len - body, MF_RULE_ID(CAND_FENCE), open_line,
                 "Took the %s payload after the markdown code fence opened at line %d (no closing fence)%s.",
                 payload, open_line, why))
            return -1;
    }
    *found_out = found;
    return 0;
}

/* Fences tagged yaml/yml/json/jsonl or bare first; only when none holds a
 * payload, fences tagged as plain text or markdown (```text around YAML is
 * a wrong tag, not prose), so a markdown sample never beats a data fence. */
static int scan_fences(ctx *c, const char *s, size_t len)
{
    if (!memchr(s, '`', len) && !memchr(s, '~', len))
        return 0; /* no fence line without its character */
    size_t found = 0;
    if (scan_fences_as(c, s, len, false, &found))
        return -1;
    return found ? 0 : scan_fences_as(c, s, len, true, &found);
}

/* ---- tags ------------------------------------------------------------------ */

static const char *find(const char *s, size_t len, size_t from, const char *needle, size_t nl)
{
    if (nl == 0 || len < nl)
        return NULL;
    for (size_t i = from; i + nl <= len; i++) {
        const char *q = memchr(s + i, needle[0], len - nl + 1 - i);
        if (!q)
            return NULL;
        i = (size_t)(q - s);
        if (memcmp(q, needle, nl) == 0)
            return q;
    }
    return NULL;
}

/* Offset just past the opening tag "<TAG" + ('>' | attributes '>') at o, or 0. */
static size_t open_tag_end(const char *s, size_t len, size_t o, size_t tl)
{
    size_t i = o + 1 + tl;
    if (i < len && s[i] == '>')
        return i + 1;
    if (i >= len || (s[i] != ' ' && s[i] != '\t'))
        return 0;
    for (size_t k = 0; i < len && k < 256 && s[i] != '\n' && s[i] != '<'; i++, k++)
        if (s[i] == '>')
            return i + 1;
    return 0;
}

/* The next valid closing tag "</TAG" [blanks] ">" at or after from: *start at
 * '<', return the offset past '>'; 0 when there is none. */
static size_t close_tag(const char *s, size_t len, size_t from, const char *close, size_t cl,
                        size_t *start)
{
    for (const char *q; (q = find(s, len, from, close, cl));) {
        size_t e = (size_t)(q - s) + cl;
        while (e < len && (s[e] == ' ' || s[e] == '\t'))
            e++;
        if (e < len && s[e] == '>') {
            *start = (size_t)(q - s);
            return e + 1;
        }
        from = (size_t)(q - s) + 1;
    }
    return 0;
}

static int scan_tags(ctx *c, const char *s, size_t len)
{
    const char *tag = c->p ? c->p->tag : NULL;
    size_t tl = tag ? strlen(tag) : 0;
    if (tl == 0 || tl > 128)
        return 0;
    char open[136], close[136];
    snprintf(open, sizeof open, "<%s", tag);
    snprintf(close, sizeof close, "</%s", tag);
    size_t found = 0, pos = 0;
    while (found < MF_CAND_PER_KIND) {
        const char *o = find(s, len, pos, open, tl + 1);
        if (!o)
            return 0;
        size_t oi = (size_t)(o - s), body = open_tag_end(s, len, oi, tl), cs, ce;
        if (!body) {
            pos = oi + 1;
            continue;
        }
        if (!(ce = close_tag(s, len, body, close, tl + 2, &cs)))
            break;
        /* a doubled envelope ("Done:" <T> "Done:" <T> artifact </T>): the innermost
         * opening tag on a line of its own goes first, the prose between stays out */
        size_t inner = 0;
        for (const char *q; (q = find(s, cs, body, open, tl + 1)); body = (size_t)(q - s) + 1) {
            size_t qi = (size_t)(q - s), be = open_tag_end(s, cs, qi, tl), bol = qi;
            while (bol > body && (s[bol - 1] == ' ' || s[bol - 1] == '\t'))
                bol--;                  /* indented with its artifact (under a wrapper key) */
            if (be && s[bol - 1] == '\n' && (be == cs || s[be] == '\n' || s[be] == '\r'))
                inner = be;
        }
        body = open_tag_end(s, len, oi, tl);
        if (inner && found + 1 < MF_CAND_PER_KIND) {
            found++;
            if (emit(c, "tag", s + inner, cs - inner, MF_RULE_ID(CAND_TAG), mf_cand_line_at(s, inner),
                     "Extracted the artifact from the innermost of nested <%s>...</%s> envelopes.", tag, tag))
                return -1;
        }
        found++;
        if (emit(c, "tag", s + body, cs - body, MF_RULE_ID(CAND_TAG), mf_cand_line_at(s, oi),
                 "Extracted the artifact from the <%s>...</%s> envelope.", tag, tag))
            return -1;
        pos = ce;
    }
    if (found == MF_CAND_PER_KIND)
        return 0;
    /* an opening tag with no closing tag after it: the tail after the LAST opening tag */
    size_t last = 0, oi = pos;
    for (const char *q; (q = find(s, len, oi, open, tl + 1)); oi = (size_t)(q - s) + 1) {
        size_t be = open_tag_end(s, len, (size_t)(q - s), tl);
        if (be)
            last = be;
    }
    if (!last)
        return 0;
    return emit(c, "tag-truncated", s + last, len - last, MF_RULE_ID(CAND_TAG_TRUNCATED),
                mf_cand_line_at(s, last),
                "Extracted the artifact after the last opening <%s> tag; the closing </%s> is missing (truncated output).",
                tag, tag);
}

/* ---- leading prose (cand_prose.c) ------------------------------------------ */

static int scan_leading_prose(ctx *c, const char *s, size_t len)
{
    int line = 0, count = 1;
    size_t cut = mf_cand_leading_prose_run(c->p, s, len, &line, &count);
    if (!cut)
        return 0;
    /* the tag lines after the prose open the profile's own envelope: its "tag"
     * candidate is the artifact, the prose was read only to skip the raw text */
    const char *tag = c->p ? c->p->tag : NULL;
    size_t tl = tag ? strlen(tag) : 0;
    for (size_t a = cut; tl && a < len && s[a] == '<';) {
        if (a + 1 + tl < len && memcmp(s + a + 1, tag, tl) == 0 && open_tag_end(s, len, a, tl))
            return 0;
        const char *nl = memchr(s + a, '\n', len - a);
        for (a = nl ? (size_t)(nl - s) + 1 : len; a < len && strchr(" \t\r\n", s[a]);)
            a++;
    }
    /* so does such a tag before the prose or between two prose lines: the tag candidate
     * cuts what follows it (`<BEAD_STATUS>` + `---` + "Work finished. Final marker:" +
     * `<BEAD_STATUS>`, run 13 9a486071-r2033da63) */
    for (const char *q = s; tl && (q = find(s, cut, (size_t)(q - s), "<", 1)); q++)
        if ((size_t)(q - s) + 1 + tl < cut && memcmp(q + 1, tag, tl) == 0 && open_tag_end(s, cut, (size_t)(q - s), tl))
            return 0;
    size_t n = 0;                       /* the prose line (comment or fence lines may precede it) */
    for (int k = 1; k < line && n < cut; n++)
        k += s[n] == '\n';
    while (n < cut && (s[n] == ' ' || s[n] == '\t' || s[n] == '\r' || s[n] == '\n'))
        n++;
    size_t e = n;
    while (e < cut && s[e] != '\n' && s[e] != '\r')
        e++;
    if (count > 1)
        return emit(c, "prose-trimmed", s + cut, len - cut, MF_RULE_ID(CAND_LEADING_PROSE), line,
                    "Dropped %d leading prose lines, the first \"%.*s%s\" (line %d): they read as sentences, "
                    "not as keys.",
                    count, (int)(e - n > 60 ? 60 : e - n), s + n, e - n > 60 ? "..." : "", line);
    return emit(c, "prose-trimmed", s + cut, len - cut, MF_RULE_ID(CAND_LEADING_PROSE), line,
                "Dropped the leading prose line \"%.*s%s\" (line %d): it reads as a sentence, not as a key.",
                (int)(e - n > 60 ? 60 : e - n), s + n, e - n > 60 ? "..." : "", line);
}

/* ---- anchor ---------------------------------------------------------------- */

/* True when line [s, s+n) starts with a top-level key of p (*key names it). */
static bool anchor_line(const mf_profile *p, const char *s, size_t n, const char **key)
{
    size_t i = 0;
    bool json = is_json(p);
    if (json) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n || s[i] != '"')
            return false;
        i++;
    }
    for (size_t k = 0; k < json_array_size(p->top_level_keys); k++) {
        const char *name = json_string_value(json_array_get(p->top_level_keys, k));
        size_t kl = name ? strlen(name) : 0, j = i + kl;
        if (!kl || j > n || memcmp(s + i, name, kl) != 0)
            continue;
        if (json) {
            if (j >= n || s[j] != '"')
                continue;
            j++;
            while (j < n && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (j < n && s[j] == ':') {
                *key = name;
                return true;
            }
        } else if (j < n && s[j] == ':' &&
                   (j + 1 == n || s[j + 1] == ' ' || s[j + 1] == '\t' || s[j + 1] == '\r' || s[j + 1] == '\n' ||
                    (s[j + 1] != ':' && s[j + 1] != '/'))) {
            *key = name;               /* `version:1`: the key's space missing (yaml.colon-space), not `a::b`, `x://` */
            return true;
        }
    }
    /* a YAML key spelled as one of its profile aliases, any case (`BEADID: a`, which
     * norm.key-alias renames to bead_id): a one-word key at column 0 */
    size_t j = 0;
    while (!json && j < n && j < 64 && (isalnum((unsigned char)s[j]) || s[j] == '_' || s[j] == '-'))
        j++;
    if (json || j == 0 || j >= n || s[j] != ':' ||
        !(j + 1 == n || s[j + 1] == ' ' || s[j + 1] == '\t' || s[j + 1] == '\r' || s[j + 1] == '\n'))
        return false;
    char word[65];
    memcpy(word, s, j);
    word[j] = '\0';
    const char *canon = p->key_map ? mf_norm_key_canonical(p->key_map, word) : NULL;
    for (size_t k = 0; canon && k < json_array_size(p->top_level_keys); k++) {
        const char *name = json_string_value(json_array_get(p->top_level_keys, k));
        if (name && strcmp(name, canon) == 0) {
            *key = name;
            return true;
        }
    }
    return false;
}

/* Does a line of [s, s+n) start with a top-level key of p followed by ':'
 * once transcript prefixes are removed (`[tool] source_prd:`, `key:value`
 * with its space missing), or is it a YAML data entry (mf_cand_data_line:
 * `ticket_id: T-1`)? Then dropping it drops data. */
static bool mentions_key(const mf_profile *p, const char *s, size_t n)
{
    bool json = is_json(p);
    for (size_t a = 0; a < n;) {
        const char *nl = memchr(s + a, '\n', n - a);
        size_t b = nl ? (size_t)(nl - s) + 1 : n, i = a;
        if (!json && mf_cand_data_line(p, s + a, b - a - (nl != NULL)))
            return true;
        for (size_t q; (q = mf_cand_prefix_len(s + i, b - i));)
            i += q;
        if (json)
            while (i < b && (s[i] == ' ' || s[i] == '\t'))
                i++;
        if (json && i < b && s[i] == '"')
            i++;
        for (size_t k = 0; k < json_array_size(p->top_level_keys); k++) {
            const char *name = json_string_value(json_array_get(p->top_level_keys, k));
            size_t kl = name ? strlen(name) : 0, j = i + kl;
            if (!kl || j > b || memcmp(s + i, name, kl) != 0)
                continue;
            if (json && j < b && s[j] == '"')
                j++;
            while (json && j < b && (s[j] == ' ' || s[j] == '\t'))
                j++;
            if (j < b && s[j] == ':')
                return true;
        }
        a = b;
    }
    return false;
}

static int scan_anchor(ctx *c, const char *s, size_t len)
{
    if (!c->p || json_array_size(c->p->top_level_keys) == 0)
        return 0;
    int line = 1;
    for (size_t a = 0; a < len; line++) {
        const char *nl = memchr(s + a, '\n', len - a);
        size_t b = nl ? (size_t)(nl - s) + 1 : len;
        const char *key;
        if (anchor_line(c->p, s + a, b - a, &key)) {
            if (a == 0)
                return 0; /* nothing before the key: same as the base text */
            if (mentions_key(c->p, s, a) || mf_cand_entries_only(c->p, s, a))
                return 0; /* a key above (behind a prefix, say) would be dropped */
            return emit(c, "anchor", s + a, len - a, MF_RULE_ID(CAND_ANCHOR), line,
                        "Dropped %d line%s of text before the top-level key \"%s\".", line - 1,
                        line == 2 ? "" : "s", key);
        }
        a = b;
    }
    return 0;
}

/* ---- JSON ------------------------------------------------------------------ */

/* Does [s+a, s+b) hold an object member (`"key":`) outside any bracket
 * pair of its own? Extraction that drops such text would drop data, not
 * prose (a complete value in the prose, an example, is another candidate). */
static bool holds_member(const char *s, size_t a, size_t b)
{
    long depth = 0;
    for (size_t i = a; i < b; i++) {
        if (s[i] == '{' || s[i] == '[')
            depth++;
        else if ((s[i] == '}' || s[i] == ']') && depth > 0)
            depth--;
        if (s[i] != ':' || depth > 0)
            continue;
        size_t k = i;
        while (k > a && (s[k - 1] == ' ' || s[k - 1] == '\t'))
            k--;
        if (k > a + 1 && (s[k - 1] == '"' || s[k - 1] == '\'') && s[k - 2] != ' ')
            return true;
    }
    return false;
}

/* Is everything outside the spans JSON punctuation, no word of prose (the
 * spans are several)? Then the text is one broken JSON document ('[{"a":1}]},
 * {"b":2}]', an early closer), and taking one span would drop the others. */
static bool only_json_outside(const char *s, size_t len, const mf_cand_span *sp, size_t n)
{
    if (n < 2)
        return false;
    for (size_t k = 0; k < len; k++) {
        bool inside = false;
        for (size_t j = 0; j < n && !inside; j++)
            inside = k >= sp[j].start && k < sp[j].end;
        if (!inside && isalnum((unsigned char)s[k]))
            return false;
    }
    return true;
}

/* Does the text outside the span hold a number and no letter (`[1, 2]], 3]`:
 * an element after an early closer, not prose)? Taking the span would drop it. */
static bool terminal_bracket(const char *s, size_t len, size_t i);

static bool numbers_outside(const char *s, size_t len, const mf_cand_span *sp)
{
    bool digit = false;
    for (size_t k = 0; k < len; k++) {
        if (k == sp->start) {
            k = sp->end - 1;
            continue;
        }
        if (terminal_bracket(s, len, k)) { /* `ESC[201~`, `[200~`: terminal noise, no number */
            while (k + 1 < len && (unsigned char)s[k + 1] >= 0x20 && (unsigned char)s[k + 1] <= 0x3f)
                k++;
            k += k + 1 < len;           /* the sequence's final byte */
            continue;
        }
        unsigned char c = (unsigned char)s[k];
        if (isalpha(c) || c >= 0x80)
            return false;
        digit |= isdigit(c) != 0;
    }
    return digit;
}

static int scan_json_balanced(ctx *c, const char *s, size_t len)
{
    int noise_line;
    bool noise_nl;
    len = mf_cand_noise_cut(s, len, &noise_line, &noise_nl); /* "[201~" after the value opens nothing */
    mf_cand_span sp[MF_CAND_JSON_SPANS];
    size_t n = mf_cand_json_spans(s, len, sp, MF_CAND_JSON_SPANS), think = mf_cand_reasoning_end(s, len);
    if (n == (size_t)-1)
        return c->oom = 1, -1;
    for (size_t i = 0; i < n; i++) {
        if (sp[i].lost)
            continue; /* an element of a collection the scan lost: taken alone it drops the rest */
        if (sp[i].start == 0 && blank(s + sp[i].end, len - sp[i].end))
            continue; /* the whole text: no extraction */
        if ((sp[i].start == 0 || s[sp[i].start - 1] == '\n') && mf_cand_prefix_len(s + sp[i].start, len - sp[i].start))
            continue; /* starts with a transcript role prefix ("[sys]"), not a JSON value: the prefix-stripped text's turn */
        if (holds_member(s, 0, sp[i].start) || holds_member(s, sp[i].end, len) || only_json_outside(s, len, sp, n) ||
            numbers_outside(s, len, &sp[i]))
            continue; /* members or values outside the span would be lost */
        int line = mf_cand_line_at(s, sp[i].start);
        const char *draft = sp[i].start < think ? " It stands inside the reasoning block"
                                                  " (the model's draft)." : "";
        if (emit(c, "json-balanced", s + sp[i].start, sp[i].end - sp[i].start, MF_RULE_ID(CAND_JSON_BALANCED), line,
                 n > 1 ? "Extracted the balanced JSON %s starting at line %d from surrounding text; "
                         "%zu other JSON value(s) in the text were left out.%s"
                       : "Extracted the balanced JSON %s starting at line %d from surrounding text.%.0zu%s",
                 s[sp[i].start] == '{' ? "object" : "array", line, n - 1, draft))
            return -1;
    }
    return 0;
}

/* Does the opener at k start a JSON value (`{"`, `[1`, `[{`, ...), not prose? */
static bool value_opener(const char *s, size_t len, size_t k)
{
    size_t j = k + 1;
    while (j < len && isspace((unsigned char)s[j]))
        j++;
    return j < len && (s[j] == '"' || s[j] == '\'' || s[j] == '{' || s[j] == '[' || s[j] == '-' ||
                       isdigit((unsigned char)s[j]));
}

/* Does the opener at st never close (brackets matched by kind, double-quoted
 * strings and terminal noise skipped): the artifact was cut after its inner
 * values closed? A closer of an outer kind closes the inner openers too
 * (`{"a": [1}`: an early closer, no cut). */
static bool never_closes(const char *s, size_t len, size_t st)
{
    char kinds[MF_SPAN_DEPTH];
    size_t depth = 0;
    bool in_str = false;
    for (size_t i = st; i < len; i++) {
        char c = s[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = false;
        } else if (c == '"') {
            in_str = true;
        } else if ((c == '{' || c == '[') && !terminal_bracket(s, len, i)) {
            if (depth == MF_SPAN_DEPTH)
                return false;           /* too deep to tell: no cut span */
            kinds[depth++] = c;
        } else if (c == '}' || c == ']') {
            char o = c == '}' ? '{' : '[';
            size_t d = depth;
            while (d > 0 && kinds[d - 1] != o)
                d--;
            if (d > 0)
                depth = d - 1;          /* closes its opener and every one left open inside it */
            if (depth == 0)
                return false;
        }
    }
    return true;
}

/* Does a '{' or '[' that starts a JSON value stand before st (`[assistant] [\n {`:
 * the '{' is an element of that array, not the artifact)? */
static bool opener_before(const char *s, size_t len, size_t st)
{
    for (size_t k = 0; k < st; k++)
        if ((s[k] == '{' || s[k] == '[') && value_opener(s, len, k))
            return true;
    return false;
}

/* Is the '[' at i terminal noise, no structure: an ANSI CSI sequence's
 * (ESC before it) or a bracketed-paste marker ("[200~", "[201~")? */
static bool terminal_bracket(const char *s, size_t len, size_t i)
{
    return s[i] == '[' && ((i > 0 && s[i - 1] == '\x1b') ||
                           (i + 4 < len && s[i + 1] == '2' && s[i + 2] == '0' && (s[i + 3] == '0' || s[i + 3] == '1') &&
                            s[i + 4] == '~'));
}

/* The end (one past the ')') of the parenthesized text opening at st,
 * brackets of every kind counted, quoted strings ('"' or '\'') skipped;
 * 0 when it never closes. */
static size_t paren_end(const char *s, size_t len, size_t st)
{
    size_t depth = 0;
    char quote = 0;
    for (size_t i = st; i < len; i++) {
        char c = s[i];
        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
            return c == ')' ? i + 1 : 0;
        }
    }
    return 0;
}

/* Does structure ('{', '[', '"', not terminal noise) stand in [s+a, s+len)? */
static bool structure_in(const char *s, size_t len, size_t a)
{
    for (size_t i = a; i < len; i++)
        if ((s[i] == '{' || s[i] == '[' || s[i] == '"') && !terminal_bracket(s, len, i))
            return true;
    return false;
}

/* A Python tuple opening a line and ending one (`("a", "b")` then "Let me
 * know ..."): the artifact json.python-tuple reads as an array. Only the
 * first line that opens with '(' is tried; nothing outside it may hold a
 * member, a value or a number. Taken before the balanced values, which
 * would be elements of the tuple. */
static int scan_json_tuple(ctx *c, const char *s, size_t len)
{
    int noise_line;
    bool noise_nl;
    len = mf_cand_noise_cut(s, len, &noise_line, &noise_nl);
    size_t st = 0;
    for (size_t i = 0; i < len && !st; i++) {
        size_t k = i;
        while (k < len && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k < len && s[k] == '(')
            st = k + 1;                  /* one past: 0 is "none" */
        const char *nl = memchr(s + i, '\n', len - i);
        i = nl ? (size_t)(nl - s) : len;
    }
    if (!st--)
        return 0;
    size_t end = paren_end(s, len, st), e = end;
    while (e < len && (s[e] == ' ' || s[e] == '\t' || s[e] == '\r'))
        e++;
    if (!end || (e < len && s[e] != '\n') || (st == 0 && blank(s + end, len - end)) ||
        !tuple_text(s + st, end - st))
        return 0;
    mf_cand_span sp = {st, end, false};
    if (holds_member(s, 0, st) || holds_member(s, end, len) || opener_before(s, len, st) ||
        structure_in(s, len, end) || numbers_outside(s, len, &sp))
        return 0;
    int line = mf_cand_line_at(s, st);
    return emit(c, "json-balanced", s + st, end - st, MF_RULE_ID(CAND_JSON_BALANCED), line,
                "Extracted the balanced Python tuple starting at line %d from surrounding text.", line);
}

/* First `open` to last `close`. Skipped when structure follows the last
 * closer ('{', '[' or '"': the span would be a fragment of a longer, likely
 * truncated value) and when it is the whole text. When the first opener
 * starts a JSON value after prose and never closes (`Here it is: {"k": "v`,
 * or `{'a': {'b': 1}, 'c': [1` whose inner values closed), the text from it
 * to the end is the cut artifact: offered after the first-to-last span. */
static int span_emit(ctx *c, const char *s, size_t len, char open, char close)
{
    const char *a = memchr(s, open, len);
    if (!a)
        return 0;
    size_t e = len;
    while (e > 0 && s[e - 1] != close)
        e--;
    size_t st = (size_t)(a - s);
    if ((st == 0 || s[st - 1] == '\n') && mf_cand_prefix_len(a, len - st))
        return 0; /* a transcript role prefix: the prefix-stripped text's span */
    bool cut = (e <= st || never_closes(s, len, st)) && st > 0 && value_opener(s, len, st) &&
               !holds_member(s, 0, st) && !opener_before(s, len, st);
    int line = mf_cand_line_at(s, st);
    bool whole = e > st + 1 && !(st == 0 && blank(s + e, len - e)) && !holds_member(s, 0, st);
    for (size_t i = e; whole && i < len; i++)
        if ((s[i] == '{' || s[i] == '[' || s[i] == '"') && !terminal_bracket(s, len, i))
            whole = false;
    if (whole && emit(c, "json-span", a, e - st, MF_RULE_ID(CAND_JSON_SPAN), line,
                      "Took the text from the first '%c' (line %d) to the last '%c' as the JSON artifact.",
                      open, line, close))
        return -1;
    bool fenced = false;
    size_t fe = cut ? mf_cand_fence_end(s, len, st, &fenced) : len;
    if (fe < len) {                       /* "```json", prose, `{"a": ["` then "```" and prose: not the cut string's text */
        int fl = mf_cand_line_at(s, fe);
        return emit(c, "json-span", a, fe - st, MF_RULE_ID(CAND_JSON_SPAN), line,
                    "Took the text from the first '%c' (line %d) to the closing code fence at line %d as the JSON "
                    "artifact (it never closes: the output was cut); the fence and the text after it were left out.",
                    open, line, fl);
    }
    if (cut && !fenced)                   /* `Here it is: {"k": "v` - never closed: cut */
        return emit(c, "json-span", a, len - st, MF_RULE_ID(CAND_JSON_SPAN), line,
                    "Took the text from the first '%c' (line %d) to the end as the JSON artifact "
                    "(it never closes: the output was cut).", open, line);
    return 0;
}

/* The kind that opens first goes first. The other kind only when the first
 * kind's brackets close before it starts ("See [1]: {...}"): in "[{...}, {"
 * a '{' span would be one element cut out of a truncated array. */
static int scan_json_span(ctx *c, const char *s, size_t len)
{
    const char *o = memchr(s, '{', len), *q = memchr(s, '[', len);
    if (!o && !q)
        return 0;
    bool arr = q && (!o || q < o);
    char open1 = arr ? '[' : '{', close1 = arr ? ']' : '}', open2 = arr ? '{' : '[';
    if (span_emit(c, s, len, open1, close1))
        return -1;
    const char *second = arr ? o : q, *last1 = NULL;
    for (size_t e = len; e > 0 && !last1; e--)
        if (s[e - 1] == close1)
            last1 = s + e - 1;
    if (!second || !last1 || last1 > second)
        return 0;
    return span_emit(c, s, len, open2, arr ? '}' : ']');
}

/* ---- assembly -------------------------------------------------------------- */

bool mf_cand_prefixed_line(const char *s, size_t n)
{
    for (const char *q = s; q < s + n && (q = memchr(q, '[', (size_t)(s + n - q))); q++) {
        if (q > s && q[-1] != '\n')
            continue;
        const char *nl = memchr(q, '\n', (size_t)(s + n - q));
        if (mf_cand_prefix_len(q, nl ? (size_t)(nl - q) + 1 : (size_t)(s + n - q)))
            return true;
    }
    return false;
}

typedef int (*scan_fn)(ctx *c, const char *s, size_t len);

/* Is the whole text one strictly valid JSON value (a JSON profile)? Such a
 * text is the artifact as written, even a string holding brackets. */
static bool strict_json_document(const mf_profile *p, const char *s, size_t len)
{
    if (!is_json(p) || memchr(s, '\0', len))
        return false;
    int rc = mf_json_strict(s, len, 0, NULL);
    if (rc != MF_STRICT_UNSURE)
        return rc == MF_STRICT_OK;
    json_error_t je;
    json_t *v = json_loadb(s, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    json_decref(v);
    return v != NULL;
}

/* Step 1 (out fresh): raw, prefix-stripped and every kind before the JSON
 * extractions; step 2 (out from step 1): the JSON extractions appended; step
 * 0: both. The pipeline tries the extractions last (pass B, after every other
 * candidate), so it builds them only when nothing else won. */
static int build(const mf_profile *p, const char *raw, size_t len, int step, bool nonstrict, mf_candidates *out)
{
    if (step != 2)
        memset(out, 0, sizeof *out);
    if (!raw)
        raw = "", len = 0;
    ctx c = {.out = out, .p = p, .suffix = ""};
    mf_buf stripped = {0};
    mf_warnings pw = {0};
    if (step == 2) {
        if (!is_json(p) || out->count == 0 || (!nonstrict && strict_json_document(p, raw, len)))
            return 0;
        if (!(c.hash = malloc(out->cap * sizeof *c.hash))) {
            mf_candidates_free(out);
            return mf_oom();
        }
        memset(c.hash, 0, out->cap * sizeof *c.hash); /* hashed when first compared */
    }

    /* a leading reasoning block (`<think>...</think>`) holds the model's draft: the text after it, its
     * lines kept (the block's own lines left blank), goes first */
    mf_buf answer = {0}, sanswer = {0};
    mf_warnings rw = {0}, srw = {0};
    size_t think = mf_cand_reasoning_end(raw, len);
    if (think && blank(raw + think, len - think))
        think = 0;
    if (think) {
        int think_line = mf_cand_line_at(raw, think - 1);
        for (size_t k = 0; k < think; k++)
            if (raw[k] == '\n' && mf_buf_putc(&answer, '\n'))
                goto oom;
        if (mf_buf_put(&answer, raw + think, len - think) ||
            mf_warnings_add(&rw, MF_RULE_ID(CAND_REASONING), think_line,
                            "Took the answer after the reasoning block that ends at line %d; the block "
                            "(the model's draft) was left out.", think_line))
            goto oom;
    }

    int first = 0;
    size_t nstrip = mf_cand_prefixed_line(raw, len) ? mf_cand_strip_prefixes(raw, len, &stripped, &first) : 0;
    if (nstrip == (size_t)-1)
        goto oom;
    if (nstrip && mf_warnings_add(&pw, MF_RULE_ID(CAND_TRANSCRIPT_PREFIX), first,
                                  "Stripped transcript role prefixes (e.g. [assistant]) from %zu line%s before parsing.",
                                  nstrip, nstrip == 1 ? "" : "s"))
        goto oom;
    /* a reasoning block then prefixed answer lines: the answer, its prefixes stripped */
    size_t sthink = think && nstrip ? mf_cand_reasoning_end(stripped.s, stripped.len) : 0;
    if (sthink) {
        for (size_t k = 0; k < sthink; k++)
            if (stripped.s[k] == '\n' && mf_buf_putc(&sanswer, '\n'))
                goto oom;
        if (mf_buf_put(&sanswer, stripped.s + sthink, stripped.len - sthink))
            goto oom;
        for (size_t i = 0; i < rw.count + pw.count; i++) {
            const mf_warning *x = i < rw.count ? &rw.items[i] : &pw.items[i - rw.count];
            if (mf_warnings_add_text(&srw, x->rule, x->line, x->message))
                goto oom;
        }
    }

    if (step != 2) {
        if (emit(&c, "raw", raw, len, NULL, 0, "%s", ""))
            goto oom;
        if (!nonstrict && strict_json_document(p, raw, len))
            goto done; /* valid JSON is never cut: no extraction from inside it */
        if (nstrip) {
            c.base = &pw;
            if (emit(&c, "prefix-stripped", stripped.s, stripped.len, NULL, 0, "%s", ""))
                goto oom;
        }
        if (think) {
            c.base = &rw;
            if (emit(&c, "after-reasoning", answer.s, answer.len, NULL, 0, "%s", ""))
                goto oom;
        }
        if (sthink) {
            c.base = &srw;
            if (emit(&c, "prefix-stripped+after-reasoning", sanswer.s, sanswer.len, NULL, 0, "%s", ""))
                goto oom;
        }
    }

    scan_fn kinds[] = {scan_leading_prose, scan_fences, scan_tags, scan_anchor, is_json(p) ? scan_json_tuple : NULL,
                       is_json(p) ? scan_json_balanced : NULL, is_json(p) ? scan_json_span : NULL};
    size_t from = step == 2 ? 4 : 0, to = step == 1 ? 4 : sizeof kinds / sizeof *kinds;
    for (size_t k = from; k < to; k++) {
        if (!kinds[k])
            continue;
        if (think) {
            c.base = &rw;
            c.suffix = "+after-reasoning";
            if (kinds[k](&c, answer.s, answer.len))
                goto oom;
        }
        if (sthink) {
            c.base = &srw;
            c.suffix = "+prefix-stripped+after-reasoning";
            if (kinds[k](&c, sanswer.s, sanswer.len))
                goto oom;
        }
        c.base = NULL;
        c.suffix = "";
        if (kinds[k](&c, raw, len))
            goto oom;
        if (nstrip) {
            c.base = &pw;
            c.suffix = "+prefix-stripped";
            if (kinds[k](&c, stripped.s, stripped.len))
                goto oom;
        }
    }
done:
    mf_buf_free(&sanswer);
    mf_warnings_clear(&srw);
    mf_buf_free(&stripped);
    mf_buf_free(&answer);
    mf_buf_free(&c.tmp);
    mf_warnings_clear(&pw);
    mf_warnings_clear(&rw);
    free(c.hash);
    return 0;
oom:
    mf_buf_free(&sanswer);
    mf_warnings_clear(&srw);
    mf_buf_free(&stripped);
    mf_buf_free(&answer);
    mf_buf_free(&c.tmp);
    mf_warnings_clear(&pw);
    mf_warnings_clear(&rw);
    free(c.hash);
    mf_candidates_free(out);
    return -1;
}

int mf_candidates_build(const mf_profile *p, const char *raw, size_t len, mf_candidates *out)
{
    return build(p, raw, len, 0, false, out);
}

int mf_candidates_build_step(const mf_profile *p, const char *raw, size_t len, int step, bool nonstrict,
                             mf_candidates *out)
{
    return build(p, raw, len, step, nonstrict, out);
}

void mf_candidates_free(mf_candidates *c)
{
    for (size_t i = 0; i < c->count; i++) {
        free(c->items[i].name);
        free(c->items[i].text);
        mf_warnings_clear(&c->items[i].warnings);
    }
    free(c->items);
    memset(c, 0, sizeof *c);
}
