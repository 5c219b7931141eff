/* yaml_lines_update.c - moving the YAML line model to a rule's output.
 *
 * A rule writes its output from the model: unchanged lines are copied as
 * whole-line spans of the old text (recorded in d->trace by yr_flush), the
 * rest is text the rule wrote. The new model copies the lines of each span
 * (their entries and per-line flags do not depend on where the line sits),
 * parses the written lines, and recomputes the context flags, which do: from
 * each written line up to a copied line that the old and the new walk both
 * enter with nothing open (the rest of that run keeps its flags). The
 * result is the model yr_doc_open builds from the new text
 * (tests/unit/test_yaml_lines.c checks this after every rule and a set of
 * synthetic edits). */
#include <stdlib.h>
#include <string.h>
#include "yaml_repair.h"

/* Index of the line of d starting at offset `from`, or d->count when none
 * does; hint is where to look first (spans come in text order). */
static size_t line_at(const yr_doc *d, size_t from, size_t hint)
{
    const char *s = d->text + from;
    if (hint < d->count && d->l[hint].s == s)
        return hint;
    size_t lo = 0, hi = d->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->l[mid].s < s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < d->count && d->l[lo].s == s ? lo : d->count;
}

/* Bytes of line l in its text, line break included. */
static size_t line_bytes(const yr_line *l) { return l->n + (size_t)l->cr + (size_t)l->nl; }

/* Parse the written text [from, to) of n's text as new lines (n has room for cap lines). */
static int parse_lines(yr_doc *n, size_t cap, size_t from, size_t to)
{
    const char *p = n->text + from, *end = n->text + to;
    if (from < to && !n->cr)
        n->cr = memchr(p, '\r', (size_t)(end - p)) != NULL;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
        if (n->count == cap || yr_doc_set_line(n, n->count, p, len, nl != NULL) != 0)
            return -1;
        n->count++;
        p = nl ? nl + 1 : end;
    }
    return 0;
}

/* Copy line i of d, which sits at offset at of n's text. */
static int copy_line(yr_doc *n, size_t cap, const yr_doc *d, size_t i, size_t at)
{
    if (n->count == cap)
        return -1;
    yr_line *l = &n->l[n->count];
    *l = d->l[i];
    l->s = n->text + at;
    n->kinds |= l->flags;
    n->ce[n->count] = d->ce[i];
    if (l->flags & YR_LONG) {
        yr_entry *le = realloc(n->long_e, (n->nlong + 1) * sizeof *le);
        if (!le)
            return -1;
        n->long_e = le;
        const yr_centry *c = &d->ce[i];
        le[n->nlong] = d->long_e[(size_t)c->key_s << 16 | c->key_e];
        n->ce[n->count].key_s = (uint16_t)(n->nlong >> 16);
        n->ce[n->count].key_e = (uint16_t)(n->nlong & 0xffff);
        n->nlong++;
    }
    n->count++;
    return 0;
}

/* Build n over text [in, in+len) from d and its trace, the lines copied in runs
 * (room for one per trace span); -1 when the trace does not describe whole lines
 * (the caller then builds from scratch) or on OOM. */
static int build(yr_doc *n, const yr_doc *d, const char *in, size_t len, yr_run *runs, size_t *nruns)
{
    const yr_trace *t = d->trace;
    size_t q = 0, hint = 0; /* q: the output up to q is in n */
    size_t count = yr_count_lines(in, len);
    n->l = malloc((count ? count : 1) * sizeof *n->l);
    n->ce = malloc((count ? count : 1) * sizeof *n->ce);
    if (!n->l || !n->ce)
        return -1;
    n->text = in;
    n->len = len;
    n->final_nl = len > 0 && in[len - 1] == '\n';
    n->cr = d->cr;
    /* the bytes found stay (a superset), the ones not found are looked for again */
    memcpy(n->bytes.known, d->bytes.has, sizeof n->bytes.known);
    memcpy(n->bytes.has, d->bytes.has, sizeof n->bytes.has);
    memcpy(n->bytes.known2, d->bytes.has2, sizeof n->bytes.known2);
    memcpy(n->bytes.has2, d->bytes.has2, sizeof n->bytes.has2);
    for (size_t k = 0; k < t->count; k++) {
        size_t from = t->s[k].from, at = t->s[k].at, left = t->s[k].n;
        if (at == len && left == 1 && at >= q) /* a copied empty line whose '\n' yr_finish dropped */
            continue;
        if (at < q || at >= len)
            return -1;
        if (left > len - at) /* yr_finish dropped the last '\n' */
            left = len - at;
        size_t i = line_at(d, from, hint);
        if (i == d->count)
            return -1;
        if (at > 0 && in[at - 1] != '\n') { /* the rule wrote the start of this output line: it is written text */
            size_t b = line_bytes(&d->l[i]);
            if (b >= left)
                continue;
            at += b, left -= b, i++;
        }
        if (parse_lines(n, count, q, at) != 0)
            return -1;
        q = at;
        size_t first = n->count;
        for (; i < d->count && line_bytes(&d->l[i]) <= left && d->l[i].nl; i++) {
            size_t b = line_bytes(&d->l[i]);
            if (copy_line(n, count, d, i, q) != 0)
                return -1;
            q += b, left -= b;
        }
        if (n->count > first)
            runs[(*nruns)++] = (yr_run){first, n->count};
        hint = i;
    }
    if (parse_lines(n, count, q, len) != 0)
        return -1;
    yr_doc_context_runs(n, runs, *nruns);
    return 0;
}

int yr_doc_update(yr_doc *d, const char *in, size_t len)
{
    yr_trace *t = d->trace;
    if (t && !t->lost) {
        yr_doc n = {0};
        n.trace = t;
        size_t nruns = 0;
        yr_run *runs = malloc((t->count ? t->count : 1) * sizeof *runs);
        if (runs && build(&n, d, in, len, runs, &nruns) == 0) {
            free(runs);
            yr_doc_close(d);
            *d = n;
            t->count = 0;
            return 1;
        }
        free(runs);
        yr_doc_close(&n);
    }
    yr_doc_close(d);
    int r = yr_doc_open(d, in, len);
    d->trace = t;
    if (t)
        t->count = 0, t->lost = false;
    return r;
}
