/* yaml_repair_scan.c - the line model every YAML structural repair is built on.
 *
 * The repairs of seed 000 are line-scoped: each walks the candidate line by
 * line, recognises a malformed shape on one line (or a parent line and its
 * followers) and rewrites just those lines. yr_doc_open builds, once per text,
 * the model they all read: the lines as views (a trailing '\r' is kept aside
 * and written back), each line's entry (indentation, `- ` dashes, a plain or
 * quoted key, where the value starts) and per-line flags (inert, opens a block
 * scalar, opens a quoted value), so no rule splits or re-parses lines
 * it does not rewrite. Also here: an output writer that copies runs of
 * unchanged lines as one span and remembers allocation failure, a tracker for
 * block scalar bodies (which every rule leaves alone) and a writer for
 * double-quoted scalars that keep the exact visible text. Everything is linear
 * in the length of the line or text it is given. */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "yaml_repair.h"

/* yr_line_inert of line l from its entry e (its indentation and trimmed end). */
static bool inert(const yr_line *l, const yr_entry *e)
{
    const char *s = l->s;
    size_t i = e->indent, n = l->n;
    if (e->end == 0 || s[i] == '#') /* blank (only spaces and tabs) or a comment */
        return true;
    return n - i >= 3 && (memcmp(s + i, "---", 3) == 0 || memcmp(s + i, "...", 3) == 0) &&
           (n - i == 3 || s[i + 3] == ' ' || s[i + 3] == '\t');
}

/* The per-line flags of line l whose entry is e; q0 is yr_quote_end at e->content when
 * entry_parse computed it, else NO_QUOTE_END. */
#define NO_QUOTE_END ((size_t)-1)
static uint16_t line_flags(const yr_line *l, const yr_entry *e, size_t q0)
{
    if (inert(l, e))
        return YR_INERT;
    uint16_t f = e->content < e->end && l->s[e->content] == '-' ? YR_DASH_TEXT : 0;
    if (!yr_entry_valued(e) || e->val >= e->end)
        return f;
    char c = l->s[e->val];
    if (c == '-')
        f |= YR_DASH_TEXT;
    if ((c == '|' || c == '>' || c == '&' || c == '!') &&
        (yr_is_block_header(l->s + e->val, e->end - e->val) ||
         yr_header_glued_comment(l->s + e->val, e->end - e->val))) /* `|-#note`: a body as readers load it */
        f |= YR_OPENS_BLOCK;
    else if ((c == '"' || c == '\'') && yr_is_quoted_block_header(l->s + e->val, e->end - e->val, NULL))
        f |= YR_QUOTED_BLOCK;
    size_t after = e->val; /* where a ':' of the value may start a key: after a leading closed quoted scalar */
    if (c == '"' || c == '\'') {
        size_t q = e->val == e->content && q0 != NO_QUOTE_END ? q0 : yr_quote_end(l->s, e->end, e->val);
        if (!q)
            f |= c == '"' ? YR_OPENS_DQ : YR_OPENS_SQ;
        if (q && q < e->end)
            f |= YR_QUOTE_MORE;
        if (q)
            after = q;
    }
    if (after < e->end && memchr(l->s + after, ':', e->end - after))
        f |= YR_VAL_COLON;
    return f;
}

static bool blank(const char *s, size_t n);
static void entry_parse(const char *s, size_t n, yr_entry *e, size_t *q0);

/* The context walk's state before a line: the scalar skip state and the column
 * an open plain scalar's continuation lines must be deeper than. */
#define NO_PLAIN ((size_t)-1)
typedef struct { yr_skip sk; size_t plain_col, bare_col; } ctx_state; /* bare_col: a bare `key:` line's column */

/* The key column of line i when it is a bare `key:` (its value, if any, on the lines below), or NO_PLAIN. */
static size_t bare_key_col(const yr_doc *d, size_t i)
{
    if (d->l[i].flags & (YR_INERT | YR_CONT | YR_PLAIN_TEXT))
        return NO_PLAIN;
    const yr_entry e = yr_entry_at(d, i);
    return e.key && e.val >= e.end ? e.key_s : NO_PLAIN;
}

/* bare_col at a document's start: a plain line at column 0 there is the root scalar */
#define DOC_START ((size_t)-2)

static bool doc_start_marker(const yr_line *l)
{
    return l->n >= 3 && memcmp(l->s, "---", 3) == 0 && (l->n == 3 || l->s[3] == ' ' || l->s[3] == '\t');
}

/* Does line k follow a bare `key:` line or a `---` (past blank lines)? */
static bool after_bare_key(const yr_doc *d, size_t k)
{
    while (k > 0 && blank(d->l[k - 1].s, d->l[k - 1].n))
        k--;
    return k > 0 && (bare_key_col(d, k - 1) != NO_PLAIN || doc_start_marker(&d->l[k - 1]));
}

/* Nothing open: no block scalar body, no quoted or plain scalar. */
static bool ctx_free(const ctx_state *c) { return !c->sk.blk.active && !c->sk.quote && c->plain_col == NO_PLAIN; }

/* One step of the context walk: line i's context flags, and the state after it.
 * A plain value (not quoted, not a block header, no comment) continues on
 * following lines that have no key and no dash and are deeper than its
 * entry's column; blank lines do not end it, a comment line or any other line does. */
static void ctx_line(yr_doc *d, size_t i, ctx_state *c)
{
    yr_line *l = &d->l[i];
    l->flags &= (uint16_t)~(YR_CONT | YR_CTX_FREE | YR_PLAIN_TEXT);
    if (ctx_free(c))
        l->flags |= YR_CTX_FREE;
    char quote = c->sk.quote;
    if (yr_skip_line(&c->sk, l)) {
        if (quote)
            l->flags |= quote == '"' ? YR_DQ_CONT : YR_SQ_CONT;
        return;
    }
    if (l->flags & YR_INERT) {
        if (!blank(l->s, l->n))
            c->plain_col = NO_PLAIN, c->bare_col = doc_start_marker(l) ? DOC_START : NO_PLAIN;
        return;
    }
    const yr_entry ei = yr_entry_at(d, i), *e = &ei;
    size_t bare_col = c->bare_col;
    c->bare_col = NO_PLAIN;
    if (c->plain_col != NO_PLAIN && !e->key && !e->dashes && e->indent > c->plain_col) {
        l->flags |= YR_PLAIN_CONT;
        if (yr_value_end(l, e, false) < e->end)
            c->plain_col = NO_PLAIN;
        return;
    }
    if (c->plain_col != NO_PLAIN && e->dashes && !e->key && e->dash > c->plain_col) {
        /* no key: `  - b: "x` is no text YAML reads (': '), an error either way, kept an entry */
        l->flags |= YR_PLAIN_TEXT; /* the scalar goes on past it: its later deeper lines are text too */
        if (yr_value_end(l, e, false) < e->end)
            c->plain_col = NO_PLAIN;
        return;
    }
    c->plain_col = NO_PLAIN;
    if (yr_entry_valued(e) && e->val < e->end && yr_plain_start(l->s + e->val, e->end - e->val) &&
        yr_value_end(l, e, false) == e->end)
        c->plain_col = e->key ? e->key_s : e->dash;
    else if (!e->key && !e->dashes && (bare_col == DOC_START ? e->indent == 0 : bare_col != NO_PLAIN && e->indent > bare_col) &&
             yr_plain_start(l->s + e->indent, e->end - e->indent) && yr_value_end(l, e, false) == e->end)
        c->plain_col = bare_col == DOC_START ? 0 : bare_col; /* `key:` then `  1, 2]`; `---` then `m`: a plain value */
    yr_skip_note_line(&c->sk, d, i);
    c->bare_col = bare_key_col(d, i);
}

void yr_doc_context(yr_doc *d) { yr_doc_context_runs(d, NULL, 0); }

void yr_doc_context_runs(yr_doc *d, const yr_run *runs, size_t nruns)
{
    ctx_state c = {{{0}, 0}, NO_PLAIN, DOC_START};
    size_t r = 0;
    for (size_t i = 0; i < d->count; i++) {
        while (r < nruns && runs[r].end <= i)
            r++;
        if (r < nruns && runs[r].first <= i && (d->l[i].flags & YR_CTX_FREE) && ctx_free(&c) &&
            c.bare_col == NO_PLAIN && i > 0) {
            /* the old walk entered this copied line with nothing open too: from here to
             * the run's end it went as this one does, up to the last line it entered free
             * and not right after a bare `key:` */
            size_t k = runs[r].end - 1;
            while (k > i && (!(d->l[k].flags & YR_CTX_FREE) || after_bare_key(d, k)))
                k--;
            i = k;
        }
        ctx_line(d, i, &c);
    }
}

bool yr_doc_holds(yr_doc *d, unsigned char c, bool doubled)
{
    uint64_t *known = doubled ? d->bytes.known2 : d->bytes.known, *has = doubled ? d->bytes.has2 : d->bytes.has;
    uint64_t bit = 1ull << (c & 63);
    if (!(known[c >> 6] & bit)) {
        const char pair[2] = {(char)c, (char)c};
        known[c >> 6] |= bit;
        if (doubled ? memmem(d->text, d->len, pair, 2) != NULL : memchr(d->text, c, d->len) != NULL)
            has[c >> 6] |= bit;
    }
    return has[c >> 6] & bit;
}

int yr_doc_set_line(yr_doc *d, size_t i, const char *p, size_t n, bool nl)
{
    yr_line *l = &d->l[i];
    l->cr = n > 0 && p[n - 1] == '\r';
    if (l->cr)
        n--;
    if (n > UINT32_MAX - 2)
        return -1;
    l->s = p;
    l->n = (uint32_t)n;
    l->nl = nl;
    yr_entry e;
    size_t q0;
    entry_parse(l->s, l->n, &e, &q0);
    l->flags = line_flags(l, &e, q0);
    d->kinds |= l->flags;
    if (n > UINT16_MAX || e.dashes > UINT8_MAX) {
        /* at most len / 2^8 such lines (255 dashes take 510 bytes): the index fits 32 bits */
        yr_entry *le = realloc(d->long_e, (d->nlong + 1) * sizeof *le);
        if (!le)
            return -1;
        d->long_e = le;
        le[d->nlong] = e;
        l->flags |= YR_LONG;
        d->ce[i] = (yr_centry){0, 0, 0, (uint16_t)(d->nlong >> 16), (uint16_t)(d->nlong & 0xffff), 0, 0, 0, false};
        d->nlong++;
    } else
        d->ce[i] = (yr_centry){(uint16_t)e.indent, (uint16_t)e.dash, (uint16_t)e.content, (uint16_t)e.key_s,
                               (uint16_t)e.key_e, (uint16_t)e.val, (uint16_t)e.end, (uint8_t)e.dashes, e.key};
    return 0;
}

size_t yr_count_lines(const char *s, size_t n)
{
    size_t count = 0, i = 0;
#if defined(__SSE2__)
    /* 16 bytes at a time: each '\n' adds 1 to its byte lane (cmpeq gives -1), summed every 255 rounds */
    const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
    while (i + 16 <= n) {
        __m128i acc = zero;
        for (int r = 0; r < 255 && i + 16 <= n; r++, i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), nl));
        __m128i sums = _mm_sad_epu8(acc, zero);
        count += (size_t)_mm_cvtsi128_si32(sums) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#else
    const uint64_t ones = 0x0101010101010101u, low7 = 0x7f7f7f7f7f7f7f7fu;
    for (; i + 8 <= n; i += 8) { /* eight bytes at a time: the high bit of each byte that is '\n' */
        uint64_t x;
        memcpy(&x, s + i, 8);
        x ^= ones * '\n';
        count += (size_t)__builtin_popcountll(~(((x & low7) + low7) | x | low7));
    }
#endif
    for (; i < n; i++)
        count += s[i] == '\n';
    return count + (n > 0 && s[n - 1] != '\n');
}

int yr_doc_open(yr_doc *d, const char *in, size_t len)
{
    memset(d, 0, sizeof *d);
    d->text = in;
    d->len = len;
    d->final_nl = len > 0 && in[len - 1] == '\n';
    d->cr = memchr(in, '\r', len) != NULL;
    size_t count = yr_count_lines(in, len);
    d->l = malloc((count ? count : 1) * sizeof *d->l);
    d->ce = malloc((count ? count : 1) * sizeof *d->ce);
    if (!d->l || !d->ce) {
        yr_doc_close(d);
        return -1;
    }
    const char *p = in, *end = in + len;
    for (size_t i = 0; i < count; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (yr_doc_set_line(d, i, p, n, nl != NULL) != 0) {
            yr_doc_close(d);
            return -1;
        }
        p = nl ? nl + 1 : end;
    }
    d->count = count;
    yr_doc_context(d);
    return 0;
}

void yr_doc_close(yr_doc *d)
{
    free(d->l);
    free(d->ce);
    free(d->long_e);
    d->l = NULL;
    d->ce = NULL;
    d->long_e = NULL;
    d->count = d->nlong = 0;
}

/* Record that o copied [s, s+n) of its doc's text to output offset at. */
static void trace_copy(const yr_out *o, const char *s, size_t n, size_t at)
{
    yr_trace *t = o->d->trace;
    if (t->lost || s < o->d->text || s + n > o->d->text + o->d->len)
        return;
    size_t from = (size_t)(s - o->d->text);
    if (t->count && t->s[t->count - 1].from + t->s[t->count - 1].n == from &&
        t->s[t->count - 1].at + t->s[t->count - 1].n == at) {
        t->s[t->count - 1].n += n;
        return;
    }
    if (t->count == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        yr_span *g = realloc(t->s, cap * sizeof *g);
        if (!g) {
            t->lost = true;
            return;
        }
        t->s = g;
        t->cap = cap;
    }
    t->s[t->count++] = (yr_span){from, n, at};
}


void yr_flush(yr_out *o)
{
    if (o->pend_n && !o->oom) {
        if (o->d && o->d->trace)
            trace_copy(o, o->pend, o->pend_n, o->b->len);
        if (mf_buf_put(o->b, o->pend, o->pend_n) != 0)
            o->oom = true;
    }
    o->pend_n = 0;
}

void yr_put_slow(yr_out *o, const char *s, size_t n)
{
    if (o->pend_n)
        yr_flush(o);
    if (!o->oom && mf_buf_put(o->b, s, n) != 0)
        o->oom = true;
}

void yr_puts(yr_out *o, const char *s) { yr_put(o, s, strlen(s)); }

void yr_spaces(yr_out *o, size_t n)
{
    static const char sp[] = "                                ";
    while (n > 0) {
        size_t k = n < sizeof sp - 1 ? n : sizeof sp - 1;
        yr_put(o, sp, k);
        n -= k;
    }
}

/* A control byte YAML's character set holds nowhere (C0 but tab and line breaks, DEL)
 * stays as written: libyaml rejects it in a quoted scalar too, while its escape would
 * make it value text that loads silently (terminal noise glued to a value, `x\x1b[0m`,
 * which the candidates' tidy cuts; run 11 entries bcaf89fa, 128bbc6f). */
void yr_put_dq(yr_out *o, const char *s, size_t n)
{
    yr_put(o, "\"", 1);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\\' || c == '\n' || c == '\r') {
            char esc[2] = {'\\', c == '\n' ? 'n' : c == '\r' ? 'r' : c};
            yr_put(o, s + run, i - run);
            yr_put(o, esc, 2);
            run = i + 1;
        }
    }
    yr_put(o, s + run, n - run);
    yr_put(o, "\"", 1);
}

void yr_endl(yr_out *o, const char *eol)
{
    if (!eol[0]) {
        yr_put(o, "\n", 1);
    } else if (eol[0] == '\r' && !eol[1]) {
        yr_put(o, "\r\n", 2);
    } else {
        yr_puts(o, eol);
        yr_put(o, "\n", 1);
    }
}

void yr_put_line_slow(yr_out *o, const yr_line *l)
{
    if (!l->nl) {
        yr_put(o, l->s, l->n);
        yr_endl(o, YR_EOL(l));
        return;
    }
    size_t n = l->n + (l->cr ? 2u : 1u);
    if (o->pend_n && o->pend + o->pend_n == l->s) {
        o->pend_n += n;
        return;
    }
    yr_flush(o);
    o->pend = l->s;
    o->pend_n = n;
}

size_t yr_finish(yr_out *o, const yr_doc *d, size_t changes)
{
    if (changes == 0) { /* the caller keeps its text: no need to copy it */
        o->pend_n = 0;
        return 0;
    }
    yr_flush(o);
    if (!d->final_nl && o->b->len > 0 && o->b->s[o->b->len - 1] == '\n')
        o->b->s[--o->b->len] = '\0';
    return o->oom ? 0 : changes;
}

static size_t indent_of(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return false;
    return true;
}

bool yr_block_body_active(yr_block *b, const yr_line *l)
{
    if (blank(l->s, l->n))
        return true;
    size_t ind = indent_of(l->s, l->n);
    if (b->body == 0 && ind > b->parent) {
        b->body = ind;
        return true;
    }
    if (b->body != 0 && ind >= b->body)
        return true;
    b->active = false;
    return false;
}

bool yr_is_block_header(const char *s, size_t n)
{
    size_t i = 0;
    for (int props = 0; props < 2 && i < n && (s[i] == '&' || s[i] == '!'); props++) {
        while (i < n && s[i] != ' ' && s[i] != '\t') /* an anchor or a tag before the indicator */
            i++;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
    }
    if (i >= n || (s[i] != '|' && s[i] != '>'))
        return false;
    i++;
    while (i < n && (s[i] == '+' || s[i] == '-' || (s[i] >= '1' && s[i] <= '9')))
        i++;
    if (i == n)
        return true;
    if (s[i] != ' ' && s[i] != '\t')
        return false;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == n || s[i] == '#';
}

size_t yr_block_indicator(const char *v, size_t n)
{
    size_t i = 0;
    while (i < n && v[i] != '|' && v[i] != '>')
        i++;
    for (i++; i < n && (v[i] == '+' || v[i] == '-' || (v[i] >= '1' && v[i] <= '9')); i++)
        if (v[i] >= '1' && v[i] <= '9')
            return (size_t)(v[i] - '0');
    return 0;
}

size_t yr_block_body_indent(const char *s, const yr_entry *e)
{
    const char *v = s + e->val;
    size_t n = e->end - e->val, ind;
    if (!yr_entry_valued(e) || !yr_is_block_header(v, n) || !(ind = yr_block_indicator(v, n)))
        return 0;
    return (e->key ? e->content : e->dash) + ind;
}

bool yr_is_quoted_block_header(const char *s, size_t n, size_t *hdr)
{
    if (n < 3 || (s[0] != '"' && s[0] != '\''))
        return false;
    char q = s[0];
    size_t nq = s[1] == q ? 2 : 1, b = nq;
    while (b < n && s[b] != q)
        b++;
    if (b + nq > n || (nq == 2 && s[b + 1] != q) || !yr_is_block_header(s + nq, b - nq))
        return false;
    size_t r = b + nq;
    while (r < n && (s[r] == ' ' || s[r] == '\t'))
        r++;
    if (r < n && !(s[r] == '#' && r > b + nq))
        return false;
    if (hdr)
        *hdr = nq;
    return true;
}

void yr_block_note(yr_block *b, const char *s, size_t n)
{
    yr_entry e;
    yr_entry_parse(s, n, &e);
    if (!yr_entry_valued(&e) || (!yr_is_block_header(s + e.val, e.end - e.val) &&
                                 !yr_is_quoted_block_header(s + e.val, e.end - e.val, NULL)))
        return;
    b->active = true;
    b->parent = e.key ? e.key_s : e.dash;
    b->body = yr_block_body_indent(s, &e);
}

bool yr_skip_quote_line(yr_skip *k, const yr_line *l)
{
    const char q = k->quote;
    for (size_t i = 0; i < l->n; i++) {
        if (q == '"' && l->s[i] == '\\')
            i++;
        else if (l->s[i] == q) {
            if (q == '\'' && i + 1 < l->n && l->s[i + 1] == '\'') { /* `''`: an escaped quote */
                i++;
                continue;
            }
            k->quote = 0;
            break;
        }
    }
    return true;
}

void yr_skip_note(yr_skip *k, const char *s, size_t n)
{
    yr_entry e;
    size_t q0;
    entry_parse(s, n, &e, &q0);
    if (!yr_entry_valued(&e))
        return;
    if (yr_is_block_header(s + e.val, e.end - e.val)) { /* yr_block_note */
        k->blk.active = true;
        k->blk.parent = e.key ? e.key_s : e.dash;
        k->blk.body = yr_block_body_indent(s, &e);
    }
    if (e.val < e.end && (s[e.val] == '"' || s[e.val] == '\'') &&
        !(e.val == e.content && q0 != NO_QUOTE_END ? q0 : yr_quote_end(s, e.end, e.val)))
        k->quote = s[e.val];
}

size_t yr_quote_end(const char *s, size_t n, size_t i)
{
    char q = s[i];
    for (size_t j = i + 1; j < n; j++) {
        if (q == '"' && s[j] == '\\') {
            j++;
            continue;
        }
        if (s[j] == q) {
            if (q == '\'' && j + 1 < n && s[j + 1] == '\'') {
                j++;
                continue;
            }
            return j + 1;
        }
    }
    return 0;
}

/* Bytes a plain key cannot start with (NUL too, as strchr's terminator matched it). */
static const bool not_plain_start[256] = {
    [0] = 1, ['#'] = 1, ['['] = 1, [']'] = 1, ['{'] = 1, ['}'] = 1, [','] = 1, ['&'] = 1, ['*'] = 1, ['!'] = 1,
    ['|'] = 1, ['>'] = 1, ['%'] = 1, ['@'] = 1, ['`'] = 1, ['?'] = 1, ['"'] = 1, ['\''] = 1};

void yr_entry_parse(const char *s, size_t n, yr_entry *e)
{
    size_t q0;
    entry_parse(s, n, e, &q0);
}

/* yr_entry_parse; *q0 is yr_quote_end(s, e->end, e->content) when the content starts
 * with a quote (it was computed), else NO_QUOTE_END. */
static void entry_parse(const char *s, size_t n, yr_entry *e, size_t *q0)
{
    *q0 = NO_QUOTE_END;
    memset(e, 0, sizeof *e);
    size_t end = n;
    while (end > 0 && (s[end - 1] == ' ' || s[end - 1] == '\t'))
        end--;
    e->end = (uint32_t)end;
    size_t i = indent_of(s, end);
    e->indent = (uint32_t)i;
    while (i < end && s[i] == '-' && (i + 1 == end || s[i + 1] == ' ')) {
        if (e->dashes < UINT16_MAX)
            e->dashes++;
        e->dash = (uint32_t)i;
        i++;
        while (i < end && s[i] == ' ')
            i++;
    }
    e->content = (uint32_t)i;
    e->val = (uint32_t)i;
    if (i >= end)
        return;
    size_t k = 0; /* index of the key's ':' */
    if (s[i] == '"' || s[i] == '\'') {
        size_t q = yr_quote_end(s, end, i);
        *q0 = q;
        while (q && q < end && (s[q] == ' ' || s[q] == '\t')) /* `"key" : v` is a key too */
            q++;
        if (q && q < end && s[q] == ':' && (q + 1 == end || s[q + 1] == ' ' || s[q + 1] == '\t'))
            k = q;
    } else if (!not_plain_start[(unsigned char)s[i]] && !(s[i] == '-' && i + 1 < end && s[i + 1] == '-')) {
        /* the first ':' followed by a blank or the end, unless a comment (` #`) starts before it */
        for (const char *c = memchr(s + i, ':', end - i); c; c = memchr(c + 1, ':', (size_t)(s + end - c) - 1)) {
            size_t j = (size_t)(c - s);
            if (j + 1 == end || s[j + 1] == ' ' || s[j + 1] == '\t') {
                k = j;
                break;
            }
        }
        for (const char *h = k ? memchr(s + i, '#', k - i) : NULL; h; h = memchr(h + 1, '#', (size_t)(s + k - h) - 1))
            if (h > s + i && (h[-1] == ' ' || h[-1] == '\t')) {
                k = 0;
                break;
            }
    }
    if (!k)
        return;
    size_t ke = k;
    while (ke > i && (s[ke - 1] == ' ' || s[ke - 1] == '\t'))
        ke--;
    if (ke == i)
        return;
    e->key = true;
    e->key_s = (uint32_t)i;
    e->key_e = (uint32_t)ke;
    size_t v = k + 1;
    while (v < end && (s[v] == ' ' || s[v] == '\t'))
        v++;
    e->val = (uint32_t)v;
}

bool yr_line_inert(const char *s, size_t n)
{
    size_t i = indent_of(s, n);
    if (blank(s + i, n - i) || s[i] == '#')
        return true;
    if (n - i >= 3 && (memcmp(s + i, "---", 3) == 0 || memcmp(s + i, "...", 3) == 0) &&
        (n - i == 3 || s[i + 3] == ' ' || s[i + 3] == '\t'))
        return true;
    return false;
}

/* 1: a byte that may start an identifier key, 2: one that may follow. */
static const unsigned char ident_byte[256] = {
    ['A'] = 3, ['B'] = 3, ['C'] = 3, ['D'] = 3, ['E'] = 3, ['F'] = 3, ['G'] = 3, ['H'] = 3, ['I'] = 3, ['J'] = 3,
    ['K'] = 3, ['L'] = 3, ['M'] = 3, ['N'] = 3, ['O'] = 3, ['P'] = 3, ['Q'] = 3, ['R'] = 3, ['S'] = 3, ['T'] = 3,
    ['U'] = 3, ['V'] = 3, ['W'] = 3, ['X'] = 3, ['Y'] = 3, ['Z'] = 3, ['a'] = 3, ['b'] = 3, ['c'] = 3, ['d'] = 3,
    ['e'] = 3, ['f'] = 3, ['g'] = 3, ['h'] = 3, ['i'] = 3, ['j'] = 3, ['k'] = 3, ['l'] = 3, ['m'] = 3, ['n'] = 3,
    ['o'] = 3, ['p'] = 3, ['q'] = 3, ['r'] = 3, ['s'] = 3, ['t'] = 3, ['u'] = 3, ['v'] = 3, ['w'] = 3, ['x'] = 3,
    ['y'] = 3, ['z'] = 3, ['_'] = 3, ['0'] = 2, ['1'] = 2, ['2'] = 2, ['3'] = 2, ['4'] = 2, ['5'] = 2, ['6'] = 2,
    ['7'] = 2, ['8'] = 2, ['9'] = 2, ['-'] = 2, ['.'] = 2};

bool yr_is_ident(const char *s, size_t n)
{
    if (n == 0 || !(ident_byte[(unsigned char)s[0]] & 1))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(ident_byte[(unsigned char)s[i]] & 2))
            return false;
    return true;
}

bool yr_list_has(const json_t *list, const char *k, size_t n)
{
    size_t i;
    const json_t *v;
    json_array_foreach(list, i, v) {
        const char *s = json_string_value(v);
        if (s && strlen(s) == n && memcmp(s, k, n) == 0)
            return true;
    }
    return false;
}

const json_t *yr_children_of(const mf_profile *p, const char *k, size_t n)
{
    if (!p || !p->nested_children || n == 0 || n > 255)
        return NULL;
    char key[256];
    memcpy(key, k, n);
    key[n] = '\0';
    const json_t *v = json_object_get(p->nested_children, key);
    return json_is_array(v) ? v : NULL;
}

bool yr_known_key(const mf_profile *p, const char *k, size_t n)
{
    if (!p)
        return false;
    if (yr_children_of(p, k, n) || yr_list_has(p->top_level_keys, k, n))
        return true;
    const char *parent;
    const json_t *kids;
    json_object_foreach(p->nested_children, parent, kids) {
        if (yr_list_has(kids, k, n))
            return true;
    }
    return false;
}

bool yr_profile_key(const mf_profile *p, const char *k, size_t n)
{
    return p && (json_object_getn(p->key_map, k, n) || yr_known_key(p, k, n));
}

static size_t key_hash(const char *s, size_t n)
{
    size_t h = 5381;
    for (size_t i = 0; i < n; i++)
        h = h * 33 + (unsigned char)s[i];
    return h;
}

size_t yr_key_lines(const yr_doc *d)
{
    size_t keys = 0;
    for (size_t i = 0; i < d->count; i++)
        keys += !(d->l[i].flags & (YR_INERT | YR_CONT)) && yr_entry_at(d, i).key;
    return keys;
}

int yr_keyset_init(yr_keyset *k, const yr_doc *d)
{
    /* room for every line the loop below may insert (continuation lines too), so
     * the open-addressing probes always meet an empty slot */
    size_t cap = 16, keys = 0;
    for (size_t i = 0; i < d->count; i++)
        keys += !(d->l[i].flags & YR_INERT);
    while (cap < 2 * keys + 2)
        cap *= 2;
    k->s = calloc(cap, sizeof *k->s);
    k->n = calloc(cap, sizeof *k->n);
    k->mask = cap - 1;
    if (!k->s || !k->n) {
        yr_keyset_free(k);
        return -1;
    }
    yr_block blk = {0};
    for (size_t i = 0; i < d->count; i++) {
        const yr_line *l = &d->l[i];
        if (yr_block_body(&blk, l) || (l->flags & YR_INERT))
            continue;
        yr_entry e = yr_entry_at(d, i);
        yr_block_note_line(&blk, d, i);
        size_t kn = e.key_e - e.key_s;
        if (!e.key || !yr_is_ident(l->s + e.key_s, kn) || yr_keyset_has(k, l->s + e.key_s, kn))
            continue;
        size_t h = key_hash(l->s + e.key_s, kn) & k->mask;
        while (k->s[h])
            h = (h + 1) & k->mask;
        k->s[h] = l->s + e.key_s;
        k->n[h] = kn;
    }
    return 0;
}

bool yr_keyset_has(const yr_keyset *k, const char *s, size_t n)
{
    for (size_t h = key_hash(s, n) & k->mask; k->s[h]; h = (h + 1) & k->mask)
        if (k->n[h] == n && memcmp(k->s[h], s, n) == 0)
            return true;
    return false;
}

void yr_keyset_free(yr_keyset *k)
{
    free(k->s);
    free(k->n);
    k->s = NULL;
    k->n = NULL;
}

void yr_root_plain_mark(const yr_doc *d, unsigned char *mark)
{
    bool start = true, root = false; /* start: no content yet in this document */
    size_t pcol = NO_PLAIN;          /* a key's or item's plain value goes on at lines deeper than this */
    for (size_t k = 0; k < d->count; k++) {
        const yr_line *l = &d->l[k];
        mark[k] = 0;
        if (l->flags & YR_CONT) {
            start = root = false;
            if (!(l->flags & YR_PLAIN_CONT))
                pcol = NO_PLAIN;
            continue;
        }
        if (l->flags & YR_INERT) {
            if (mf_line_blank((mf_line){l->s, l->n}))
                continue;
            root = false; /* a comment ends the scalar; a marker starts a new document */
            pcol = NO_PLAIN;
            start = start || (l->n >= 3 && memcmp(l->s, "---", 3) == 0);
            continue;
        }
        const yr_entry e = yr_entry_at(d, k);
        if (root && !(e.key && !e.dashes)) {
            mark[k] = 1;
            continue;
        }
        /* `p: o` + ` - "" 4`: a deeper dash line without a key after a key's (or item's)
         * plain value is that value's text, as YAML reads it ("o - \"\" 4"); a rule that
         * quoted it there wrote its quotes and escapes into the value (run 10 fe8908c4,
         * 79187e2f-rd293974f). A key line there is an error of the load: rules judge it. */
        if (pcol != NO_PLAIN && !e.key && e.dashes && e.indent > pcol) {
            mark[k] = 1;
            if (yr_value_end(l, &e, false) < e.end)
                pcol = NO_PLAIN; /* a comment ends the scalar */
            start = false;
            continue;
        }
        pcol = NO_PLAIN;
        if (yr_entry_valued(&e) && e.val < e.end && yr_plain_start(l->s + e.val, e.end - e.val) &&
            yr_value_end(l, &e, false) == e.end)
            pcol = e.key ? e.key_s : e.dash;
        root = start && !e.key && !e.dashes && yr_plain_start(l->s + e.content, e.end - e.content);
        start = false;
    }
}
