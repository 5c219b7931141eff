/* cand_prose.c - leading prose that YAML would read as a key (rule
 * cand.leading-prose; seed 000, Candidate collection from surrounding prose).
 *
 * "Okay, here it is:" or "Status update: all sections complete" on the line
 * before a YAML mapping parses: the prose becomes one more top-level key (null
 * or a string), so the raw text is a valid but invented artifact and the
 * anchor/fence candidates are never tried. This file decides whether the first
 * non-blank line of a text is such prose; candidates.c then emits the text
 * without it ("prose-trimmed"), and the pipeline skips its raw-first fast path
 * and tries that candidate first.
 *
 * The line is prose only when all of these hold (a real key rarely meets them):
 *   - it starts with an ASCII letter or digit (no quote, indicator or '#'),
 *     and holds a space, and it is no key glued to its value ("title:Draft,
 *     v2", an entry missing its colon space, for yaml.colon-space);
 *   - it reads like a sentence: it contains one of , . ! ? ' or has 4+ words;
 *   - either (A) it ends with ':' with nothing after it, and the next
 *     non-blank line has the same indentation and is a mapping entry or a
 *     sequence item ("- "), i.e. the "key" would get no value of its own;
 *   - or (B) the profile has top-level keys, the line is "words: text" at
 *     column 0 whose key part has a space and is none of the profile's keys or
 *     aliases, and the next non-blank line starts with a top-level key of the
 *     profile at column 0;
 *   - or (C) it holds no ": " at all ("Here is the requested artifact.") and
 *     the next non-blank line has the same indentation and is a mapping entry
 *     or a sequence item: YAML reads the sentence as a plain scalar that the
 *     entry then makes invalid (or, before items, one run-on string).
 * Comment lines before it ("# Result", a markdown heading), a fence opener
 * ("```yaml" + "Okay, here it is:": the raw text, whose repairs would unwrap
 * the fence and keep the prose as a key) and a bare opening tag ("<yaml>",
 * the profile's own envelope too: "<BEAD_STATUS>" + "Work finished. Final
 * marker:" + "<BEAD_STATUS>" must skip the raw text, whose misread repairs
 * strip the tags) are skipped (and cut with the prose), and
 * so are up to 8 bare tag lines after it ("Okay, here it is:" + "<yaml>", a
 * doubled "<yaml>" + "<yaml>", "<response>" + "<yaml>", a stray closing or
 * self-closing tag): the entry after the tags decides, and the tag lines stay
 * in the text. A second sentence among those lines (no ": " in it or in the
 * line before, same indentation: "I reviewed ..." + "<yaml>" + "Here is the
 * requested artifact." + "items:") is prose too, up to 4 such lines; the cut
 * then runs to the line after the last one. Comment lines after the first
 * sentence ("# Result" again inside the envelope) are passed over like tag
 * lines (8 such lines in all). A sentence ending in ':' continues the run too
 * (the same test then holds for it as for a first line ending in ':'); when
 * the longer run is no prose (the line keys a deeper block: a real key), the
 * run ends before that line, as it did without it.
 * Only the first lines (plus blank and comment lines) are read.
 *
 * Trailing prose ("Let me know if you would like any changes.", rule
 * cand.trailing-prose) is the same problem at the other end: the lines at the
 * end of the text, at column 0, that read like sentences (same test) and
 * follow a block structure (the nearest line above them is indented, is a
 * mapping entry or sequence item, or is a column-0 line of flow closers that
 * closes every flow collection open above it: `  - [3, 4` + `]`). A line without ": " makes the YAML
 * invalid, so cutting it costs nothing; a "words: text" line (B above: a
 * spaced key none of the profile's keys) parses as an invented key, so for
 * such a line the pipeline also skips its raw-first fast path. After a `---`
 * document separator a sentence is prose even as "Word: text", and the
 * separator goes with it. A "words: text" line at column 0 followed only by
 * deeper lines takes them with it: YAML reads them as its value (continued,
 * or folded in by a repair), and the repaired output holds the line alone,
 * which is cut the same way (idempotence). Closing lines at the very end (a bare closing tag
 * `</yaml>` or fence at column 0, a line of terminal noise, such a mark with
 * noise after it) do not hide the
 * prose before them: they are cut with it ("Hope this helps!" + "</yaml>");
 * above the prose such lines (at most 8) are passed over when the block
 * structure is looked for, except a fence that pairs with another fence line
 * ("Here it is:" + "```" + "Done." + "```": the sentence is fenced text).
 * Lines are read backwards from the end, each once: O(length of the
 * trailing prose). */
#define _GNU_SOURCE /* memmem, memrchr */
#include <ctype.h>
#include <string.h>
#include "cand_internal.h"

typedef struct { size_t a, e; size_t ind; } line_t; /* content [a, e), indentation ind */

/* The next non-blank line at or after *pos; false at the end. *pos moves past it. */
static bool next_line(const char *s, size_t len, size_t *pos, line_t *l, int *lineno)
{
    while (*pos < len) {
        size_t a = *pos;
        const char *nl = memchr(s + a, '\n', len - a);
        size_t b = nl ? (size_t)(nl - s) : len;
        *pos = nl ? b + 1 : len;
        (*lineno)++;
        size_t i = a;
        while (i < b && s[i] == ' ')
            i++;
        size_t e = b;
        while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
            e--;
        if (e > i) {
            l->a = i;
            l->e = e;
            l->ind = i - a;
            return true;
        }
    }
    return false;
}

/* Sentence-like: punctuation , . ! ? ' or at least four words. */
static bool sentence(const char *s, size_t n)
{
    size_t words = 0;
    bool in = false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == ',' || c == '.' || c == '!' || c == '?' || c == '\'')
            return true;
        bool sp = c == ' ' || c == '\t';
        if (!sp && !in)
            words++;
        in = !sp;
    }
    return words >= 4;
}

static bool profile_key(const mf_profile *p, const char *s, size_t n);

/* The end of a quoted key that opens [s, s+n) (`"schema_version:ticket_id"`,
 * `'a b'`, a colon or blank inside), just past its closing quote; 0 when the
 * line opens with no quote closed on it. */
static size_t quoted_key_end(const char *s, size_t n)
{
    if (n < 2 || (s[0] != '"' && s[0] != '\''))
        return 0;
    for (size_t i = 1; i < n; i++) {
        if (s[0] == '"' && s[i] == '\\') {
            i++;
            continue;
        }
        if (s[i] == s[0])
            return i + 1;
    }
    return 0;
}

/* A data entry: mf_cand_data_line's shape; with any_case, a key in any case
 * (`Ertifact: beads`) too. */
static bool entry_line(const mf_profile *p, const char *s, size_t n, bool any_case)
{
    size_t i = quoted_key_end(s, n);
    bool quoted = i > 0;
    bool lower = true;                  /* `beadId: x` (camelCase) is a key; `Note: x`, `NOTE: x` read as prose */
    /* one word: an identifier, or any token of printable bytes a key may hold
     * (`ar|ifact: b`, `a.b: c`, `artifa#t: b`: a '#' inside a word opens no
     * comment; no quote or comma); or one quoted key, which no prose opens with
     * (`"schema_version:ticket_id": W`, run 25 402dc559) */
    /* or a few such words, one space apart, when they spell one of p's keys (`schema version: 1`,
     * `Ticket Id: T`) or name an identifier, lower case with a word in snake_case (`draft
     * schema_version: 1`): no prose label reads so; the anchor candidate dropped the line (run 48
     * 0eb340d0) */
    size_t kwords = 1;
    bool snake = false;
    for (; !quoted && i < n && (unsigned char)s[i] > ' ' && (unsigned char)s[i] < 0x7f && !strchr(":,\"'", s[i]); i++) {
        if (isupper((unsigned char)s[i]) && (i == 0 || !islower((unsigned char)s[i - 1])))
            lower = false;
        snake |= s[i] == '_' && i > 0 && isalnum((unsigned char)s[i - 1]) && i + 1 < n &&
                 isalnum((unsigned char)s[i + 1]);
        if (kwords < 4 && i + 2 < n && s[i + 1] == ' ' && (unsigned char)s[i + 2] > ' ' &&
            (unsigned char)s[i + 2] < 0x7f && !strchr(":,\"'#", s[i + 2]))
            i++, kwords++;              /* the loop's i++ steps onto the next word */
    }
    /* `key:value` glued (yaml.colon-space repairs it) is an entry too */
    bool glued = i > 0 && i + 1 < n && s[i] == ':' && s[i + 1] != ' ' && s[i + 1] != '\t' && s[i + 1] != '/';
    if (i == 0 || i + 1 >= n || s[i] != ':' || (s[i + 1] != ' ' && !glued) ||
        !(quoted || isalpha((unsigned char)s[0])))
        return false;
    if (!(any_case || lower || (p && profile_key(p, s, i)))) /* "Note: ..." is prose; "Beadid: x" an alias of bead_id */
        return false;
    if (kwords > 1 && !((lower && snake) || (p && profile_key(p, s, i))))
        return false;                   /* "Final answer: yes" is a label */
    size_t a = i + (glued ? 1 : 2), e = n;
    while (a < e && (s[a] == ' ' || s[a] == '\t'))
        a++;
    while (e > a && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
        e--;
    if (a == e || s[a] == '#')
        return false;
    if (e - a >= 2 && (s[a] == '\'' || s[a] == '"') && s[e - 1] == s[a])
        return true;                    /* one quoted scalar (`a: 'Added lint: beads'`) is a value, never prose */
    if (strchr(".!?:", s[e - 1]))
        return false;
    if (any_case)                       /* no prose around it: a longer value is data too */
        return true;
    size_t words = 0;
    for (size_t k = a; k < e; k++)
        words += (k == a || s[k - 1] == ' ') && s[k] != ' ';
    return words < 4;
}

bool mf_cand_data_line(const mf_profile *p, const char *s, size_t n) { return entry_line(p, s, n, false); }

/* Does the line start with a key glued to its value ("title:Release, v2",
 * "op:shape.a")? That is an entry missing its colon space, never prose. */
static bool glued_key(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.'))
        i++;
    return i > 0 && i + 1 < n && s[i] == ':' && s[i + 1] != ' ' && s[i + 1] != '\t' && s[i + 1] != '/';
}

/* A YAML block mapping entry ("key: v", "key:", or an explicit key "? k" and
 * its value ": v", as an emitter writes a key over 128 bytes) or sequence
 * item ("- x", "-"). */
static bool entry_or_item(const char *s, size_t n)
{
    if (n > 0 && (s[0] == '?' || s[0] == ':') && (n == 1 || s[1] == ' ' || s[1] == '\t' || s[1] == '\r'))
        return true;
    if (s[0] == '-' && (n == 1 || s[1] == ' ' || s[1] == '\t'))
        return true;                    /* `-atrix: x` is a key (or an item missing its space): read on */
    if (s[0] == '#')
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\t'))
            return i > 0;
    return false;
}

/* Key [s, s+n) is one of p's top-level keys, schema properties or aliases
 * (compared in mf_key_normalize's form: ASCII alphanumerics, lower case). */
static bool profile_key(const mf_profile *p, const char *s, size_t n)
{
    char norm[128];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof norm; i++)
        if (isalnum((unsigned char)s[i]))
            norm[k++] = (char)tolower((unsigned char)s[i]);
    norm[k] = '\0';
    return json_object_get(p->aliases, norm) || json_object_get(p->key_map, norm);
}

/* Line [s, s+n) at column 0 starts with "<top-level key of p>:" (its value
 * may be glued to the colon, `bead_id:x`, for yaml.colon-space). */
static bool anchor_key(const mf_profile *p, const char *s, size_t n)
{
    for (size_t k = 0; k < json_array_size(p->top_level_keys); k++) {
        const char *name = json_string_value(json_array_get(p->top_level_keys, k));
        size_t kl = name ? strlen(name) : 0;
        if (kl && kl < n && memcmp(s, name, kl) == 0 && s[kl] == ':' && (kl + 1 == n || s[kl + 1] != ':'))
            return true;
    }
    return false;
}

/* Line [s, s+n) at column 0 starts with "<key>:" where key is one of p's
 * keys or aliases in any case ("Id: a", "Beadid: a" after norm.key-alias;
 * "bead_id:a", its colon space for yaml.colon-space to add). */
static bool profile_key_line(const mf_profile *p, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '-'))
        i++;
    return i > 0 && i < n && s[i] == ':' && (i + 1 == n || s[i + 1] != '/') && profile_key(p, s, i);
}

/* Is [s, s+n) a bare document marker `---` (a comment may follow it)? */
static bool doc_marker(const char *s, size_t n)
{
    if (n < 3 || memcmp(s, "---", 3) != 0)
        return false;
    size_t i = 3;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i == n || (i > 3 && s[i] == '#');
}

/* doc_marker, with terminal noise glued to the line's end left out (`---\x1b[0m`, run 42 ce377885). */
static bool noisy_doc_marker(const char *s, size_t n)
{
    int line;
    bool keep;
    return doc_marker(s, n) || doc_marker(s, mf_cand_noise_cut(s, n, &line, &keep));
}

/* Is [s, s+n) one bare opening tag ("<yaml>", the profile's own envelope too)? */
static bool open_tag_line(const char *s, size_t n)
{
    if (n < 3 || s[0] != '<' || s[n - 1] != '>' || !isalpha((unsigned char)s[1]))
        return false;
    for (size_t i = 1; i + 1 < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_.:-", s[i]))
            return false;
    return true;
}

/* Is [s, s+n) one self-closing tag ("<br/>"), a line yaml.xml-tag-lines strips? */
static bool self_closing_tag_line(const char *s, size_t n)
{
    if (n <= 3 || s[0] != '<' || s[n - 2] != '/' || s[n - 1] != '>' || !isalpha((unsigned char)s[1]))
        return false;
    for (size_t i = 1; i + 2 < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("_.:-", s[i]))
            return false;
    return true;
}

/* Is [s, s+n) a line yaml.xml-tag-lines strips: one bare opening tag (the
 * profile's own too), closing tag or self-closing tag? */
static bool tag_line(const char *s, size_t n)
{
    bool close_tag = n > 3 && s[0] == '<' && s[1] == '/' && s[n - 1] == '>' && isalpha((unsigned char)s[2]);
    for (size_t i = 2; close_tag && i + 1 < n; i++)
        close_tag = isalnum((unsigned char)s[i]) || (s[i] && strchr("_.:-", s[i]));
    return close_tag || self_closing_tag_line(s, n) || open_tag_line(s, n);
}

/* The first ": " of [t, t+tn), or NULL. */
static const char *spaced_colon(const char *t, size_t tn)
{
    for (size_t i = 0; i + 1 < tn; i++)
        if (t[i] == ':' && (t[i + 1] == ' ' || t[i + 1] == '\t'))
            return t + i;
    return NULL;
}

/* Does entry line [s, s+n) open a block scalar (`key: |`, `key: >-`, `key: |+2`)? */
static bool block_header(const char *s, size_t n)
{
    const char *colon = spaced_colon(s, n);
    if (!colon)
        return false;
    size_t i = (size_t)(colon - s) + 1;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i == n || (s[i] != '|' && s[i] != '>'))
        return false;
    while (++i < n && (s[i] == '-' || s[i] == '+' || isdigit((unsigned char)s[i])))
        ;
    return i == n;
}

bool mf_cand_entries_only(const mf_profile *p, const char *s, size_t len)
{
    size_t pos = 0;
    int lineno = 0;
    bool entry = false, block = false;  /* block: the last entry opened a block scalar */
    for (line_t l; next_line(s, len, &pos, &l, &lineno);) {
        const char *t = s + l.a;
        size_t tn = l.e - l.a;
        if (l.ind > 0 && block)
            continue;                   /* its body */
        bool fence = tn >= 3 && (t[0] == '`' || t[0] == '~') && t[1] == t[0] && t[2] == t[0];
        if (t[0] == '#' || tag_line(t, tn) || fence || (l.ind == 0 && doc_marker(t, tn))) {
            block = false;
            continue;
        }
        if (l.ind != 0 || !entry_line(p, t, tn, true))
            return false;
        entry = true;
        block = block_header(t, tn);
    }
    return entry;
}

/* Sentence-like line [t, t+tn): a letter or digit first, a space, and no key
 * glued to its value. */
static bool sentence_line(const char *t, size_t tn)
{
    return isalnum((unsigned char)t[0]) && memchr(t, ' ', tn) && sentence(t, tn) && !glued_key(t, tn);
}

/* A sentence line that YAML reads as a key with no value ("Work finished. Final
 * marker:", no ": " inside): it ends with one ':'. */
static bool colon_ended(const char *t, size_t tn)
{
    return t[tn - 1] == ':' && (tn < 2 || t[tn - 2] != ':');
}

/* Is the run of sentence lines that starts at l and ends with [t, t+tn)
 * prose, given the line m after it (tag and comment lines passed over; pos and
 * n2 are just past m)? */
static bool prose_before(const mf_profile *p, const char *s, size_t len, const line_t *l, const char *t, size_t tn,
                         const line_t *m, size_t pos, int n2)
{
    const char *u = s + m->a;
    size_t un = m->e - m->a;
    const char *colon = spaced_colon(t, tn);
    /* the entry may still miss its colon space (`schema_version:1`, for yaml.colon-space) */
    bool entry = entry_or_item(u, un) || glued_key(u, un);
    if (l->ind == 0 && m->ind == 0 && doc_marker(u, un)) {
        /* a sentence, then `---`: a preamble, not a first document; unless nothing
         * but markers and closing lines follows (`m` + `---`: the document itself,
         * with a front-matter closer) */
        line_t r;
        bool more = false;
        while (!more && next_line(s, len, &pos, &r, &n2))
            more = !(r.ind == 0 && doc_marker(s + r.a, r.e - r.a)) && s[r.a] != '#' &&
                   !mf_cand_closer_line(s + r.a - r.ind, r.e - r.a + r.ind);
        return !colon && more;
    }
    if (colon_ended(t, tn) || !colon)
        return m->ind == l->ind && entry;
    if (p && json_array_size(p->top_level_keys) && l->ind == 0 && m->ind == 0) {
        size_t kn = (size_t)(colon - t);
        return kn && memchr(t, ' ', kn) && !profile_key(p, t, kn) && (anchor_key(p, u, un) || profile_key_line(p, u, un));
    }
    return false;
}

/* Where the run stands: its last sentence line, the cut after it, the line after it. */
typedef struct {
    const char *t;
    size_t tn, keep, pos;
    int lines, n2;
    line_t m;
    bool ended;                         /* no line after the run */
} run_state;

size_t mf_cand_leading_prose_run(const mf_profile *p, const char *s, size_t len, int *line, int *count)
{
    if (!s || (p && p->format == MF_FORMAT_JSON))
        return 0;
    size_t pos = 0;
    int n1 = 0;
    line_t l;
    do                                  /* comment lines ("# Result"), a fence opener, an opening tag first */
        if (!next_line(s, len, &pos, &l, &n1))
            return 0;
    while (s[l.a] == '#' || open_tag_line(s + l.a, l.e - l.a) || (l.ind == 0 && doc_marker(s + l.a, l.e - l.a)) ||
           (l.e - l.a >= 3 && (s[l.a] == '`' || s[l.a] == '~') && s[l.a + 1] == s[l.a] && s[l.a + 2] == s[l.a]));
    run_state r = {s + l.a, l.e - l.a, 0, pos, 1, n1, {0}, false}, before_heading;
    bool heading_seen = false;
    if (!sentence_line(r.t, r.tn) || !next_line(s, len, &r.pos, &r.m, &r.n2))
        return 0;
    r.keep = r.m.a - r.m.ind;           /* the cut: the start of the line after the prose */
    /* tag lines between the prose and the artifact (`<yaml>`, a doubled `<yaml>` + `<yaml>`
     * or `<response>` + `<yaml>`, a stray `</artifact>` yaml.xml-tag-lines strips: run 6
     * d8496298, run 8; the profile's own envelope too: "Work finished. Final marker:" +
     * "<BEAD_STATUS>" must not let the raw text win first, its misread repairs strip the
     * tags) stay with the artifact; at most 8 are passed over. A second sentence behind
     * them ("Here is the requested artifact." inside the `<yaml>` envelope after prose
     * before it, run 11 60805895) continues the prose: no ": " in either line, same
     * indentation; the cut moves past it, up to 4 such lines. Comment lines among them
     * (a markdown heading, "# Result", repeated inside the envelope: run 12
     * d8496298-ra569c2ff) are passed over like tag lines: YAML reads nothing in them.
     * A sentence ending in ':' continues it too (the doubled envelope's "Work finished.
     * Final marker:" + "<BEAD_STATUS>" after other prose: run 13 2116fd0f); should the
     * longer run not be prose (the line keys a nested block), the run ends before it */
    /* a `---` between them is passed over too when more of the run follows it (`</Reasoning>` +
     * `---` + "Okay, here it is:", run 32 1bd4bc41); else the run ends at it, as before */
    run_state at_marker = r;
    bool marker_pending = false;
    for (int passed = 0;;) {
        const char *v = s + r.m.a;
        size_t vn = r.m.e - r.m.a;
        bool next = r.lines < 4 && r.m.ind == l.ind && sentence_line(v, vn) && !spaced_colon(r.t, r.tn) &&
                    !spaced_colon(v, vn);
        bool heading = next && colon_ended(v, vn);
        bool more = next && (heading || !entry_or_item(v, vn));
        bool marker = !more && r.m.ind == 0 && doc_marker(v, vn);
        if (!more && (passed == 8 || (s[r.m.a] != '#' && !tag_line(v, vn) && !marker))) {
            if (marker_pending)
                r = at_marker;
            break;
        }
        if (marker) {
            at_marker = r;
            marker_pending = true;
        } else if (more) {
            marker_pending = false;
        }
        if (heading && !heading_seen) {
            before_heading = r;
            heading_seen = true;
        }
        if (more) {
            r.t = v;
            r.tn = vn;
            r.lines++;
        } else {
            passed++;
        }
        if (!next_line(s, len, &r.pos, &r.m, &r.n2)) {
            if (marker_pending)
                r = at_marker;
            else
                r.ended = true;
            break;
        }
        if (more)
            r.keep = r.m.a - r.m.ind;
    }
    if (r.ended || !prose_before(p, s, len, &l, r.t, r.tn, &r.m, r.pos, r.n2)) {
        if (!heading_seen)
            return 0;
        r = before_heading;
        if (!prose_before(p, s, len, &l, r.t, r.tn, &r.m, r.pos, r.n2))
            return 0;
    }
    if (line)
        *line = n1;
    if (count)
        *count = r.lines;
    return r.keep;
}

size_t mf_cand_leading_prose(const mf_profile *p, const char *s, size_t len, int *line)
{
    return mf_cand_leading_prose_run(p, s, len, line, NULL);
}

/* The line [a, e) (no '\n') read backwards from the end of s[0, len). */
static bool prev_line(const char *s, size_t *end, size_t *a, size_t *e)
{
    while (*end > 0 && (s[*end - 1] == '\n' || s[*end - 1] == '\r' || s[*end - 1] == ' ' ||
                        s[*end - 1] == '\t'))
        (*end)--;
    if (*end == 0)
        return false;
    *e = *end;
    const char *nl = memrchr(s, '\n', *end);
    size_t i = nl ? (size_t)(nl - s) + 1 : 0;
    *a = i;
    *end = i;
    return true;
}

/* Is the nearest non-blank line above offset a a `---` document separator
 * at column 0 (with more text above it), closer lines between passed over
 * ("---" + "</artifact>" + "Notes: ...")? A sentence after it is prose even
 * when it reads as `Word: text` ("---" then "Notes: I kept ..."). */
static bool after_separator(const char *s, size_t a)
{
    size_t end = a, pa, pe;
    for (int k = 0; k < 8; k++) {       /* closer lines between (`</artifact>`, a fence, noise): cut with it */
        if (!prev_line(s, &end, &pa, &pe))
            return false;
        if (doc_marker(s + pa, pe - pa))
            return pa > 0;
        if (!mf_cand_closer_line(s + pa, pe - pa) && !open_tag_line(s + pa, pe - pa) &&
            !self_closing_tag_line(s + pa, pe - pa))
            return false;               /* a bare tag line (`<yaml>`, `<br/>`, for yaml.xml-tag-lines) is passed over too */
    }
    return false;
}

/* Does a line before offset a start with a fence (``` or ~~~)? */
static bool fence_above(const char *s, size_t a)
{
    for (size_t i = 0; i + 2 < a; i++)
        if ((i == 0 || s[i - 1] == '\n') && (s[i] == '`' || s[i] == '~') && s[i + 1] == s[i] && s[i + 2] == s[i])
            return true;
    return false;
}

/* A capitalized `Word: sentence` line (`Notes: I kept it.`, `Summary: ...`)
 * that is no data entry of p: the model's note, when a fence set it apart. */
static bool prose_key_line(const mf_profile *p, const char *t, size_t tn)
{
    return tn > 0 && isupper((unsigned char)t[0]) && sentence(t, tn) && !entry_line(p, t, tn, false) &&
           !glued_key(t, tn);
}

/* Is the nearest fence line above offset a a bare fence at column 0 with
 * text above it and no fence before it (an orphan closer, ``` or ~~~), only
 * closer lines and capitalized prose lines between? The lines after such a
 * fence are the model's notes, not a payload it opens
 * (`items: ...` + "```" + "Notes: I kept it."). */
static bool after_orphan_fence(const mf_profile *p, const char *s, size_t a)
{
    size_t end = a, pa, pe;
    for (int k = 0; k < 8; k++) {
        if (!prev_line(s, &end, &pa, &pe))
            return false;
        const char *t = s + pa;
        size_t tn = pe - pa;
        if (tn > 0 && (t[0] == '`' || t[0] == '~') && mf_cand_closer_line(t, tn)) {
            size_t above = pa, aa, ae;  /* the artifact ends above it, no caption or note */
            return pa > 0 && !fence_above(s, pa) && prev_line(s, &above, &aa, &ae) &&
                   !prose_key_line(p, s + aa, ae - aa);
        }
        if (!mf_cand_closer_line(t, tn) && !prose_key_line(p, t, tn))
            return false;
    }
    return false;
}

/* The end of the last column-0 line of s[0, len) when it is a `words: text`
 * line and only deeper lines follow it: whatever YAML makes of them (the value
 * continued, `Note: a` + `  - b` is "a - b", or a value some repair folds them
 * into), they are that line's, so they are prose with it; its repaired output
 * is the line alone, which is read the same way (idempotence). len otherwise. */
static size_t continued_end(const char *s, size_t len)
{
    size_t end = len, a, e;
    bool deeper = false;
    while (prev_line(s, &end, &a, &e)) {
        if (s[a] != ' ') {
            const char *colon = memchr(s + a, ':', e - a);
            return deeper && colon && colon + 1 < s + e && colon[1] == ' ' ? e : len;
        }
        deeper = true;
    }
    return len;
}

/* The last quoted scalar of s[0, len) in block context that spans lines and
 * closes cleanly (a blank, a comment, or a key's `:` after its closing quote):
 * [*from, *to) runs from its second line to the end of its closing line. Such
 * lines are the scalar's text at any indentation (`description: '` +
 * `r falls back to "en".'` at column 0 loads), never prose (run 7); terminal
 * noise after the closing quote is no text (the tidying trims it). A quote
 * left open to the end of the text is no such scalar: yaml.unclosed-quote
 * closes it, and the prose after it stays prose. Block scalar bodies are text. */
/* Does the quote at s[j] start a value: after a key's `: ` or an item's `- ` on its line,
 * blanks only between? */
static bool value_start(const char *s, size_t j)
{
    size_t k = j;
    while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t'))
        k--;
    if (k == j || k == 0)
        return false;
    return s[k - 1] == ':' || (s[k - 1] == '-' && (k == 1 || s[k - 2] == ' ' || s[k - 2] == '\n'));
}

static bool last_multiline_quote(const char *s, size_t len, size_t *from, size_t *to)
{
    bool found = false;
    size_t i = 0, block = (size_t)-1;   /* block: the header line's indentation while in a body */
    while (i < len) {
        size_t ls = i, ind;
        while (i < len && s[i] == ' ')
            i++;
        ind = i - ls;
        if (block != (size_t)-1 && (i == len || s[i] == '\n' || s[i] == '\r' || ind > block)) {
            while (i < len && s[i] != '\n')
                i++;
            i += i < len;
            continue;
        }
        block = (size_t)-1;
        while (i < len && s[i] != '\n') {
            while (i < len && (s[i] == ' ' || s[i] == '\t'))
                i++;
            if (i < len && s[i] == '-' && (i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\n')) {
                i++;                    /* a sequence item: its content follows */
                continue;
            }
            if (i < len && (s[i] == '|' || s[i] == '>')) {
                block = ind;
                break;
            }
            if (i < len && (s[i] == '"' || s[i] == '\'')) {
                char q = s[i];
                size_t j = i + 1, nl = 0;
                for (; j < len; j++) {
                    if (q == '"' && s[j] == '\\' && j + 1 < len)
                        j++;
                    else if (s[j] == q && !(q == '\'' && j + 1 < len && s[j + 1] == '\''))
                        break;
                    else if (q == '\'' && s[j] == q)
                        j++;
                    else if (s[j] == '\n' && !nl)
                        nl = j + 1;
                }
                if (j >= len)
                    return found;       /* open to the end */
                size_t k = j + 1;
                while (k < len && (s[k] == ' ' || s[k] == '\t' || s[k] == '\r'))
                    k++;
                if (k < len && s[k] == ':' && (k + 1 == len || s[k + 1] == ' ' || s[k + 1] == '\n')) {
                    i = k + 1;          /* a quoted key: its value follows */
                    continue;
                }
                size_t r = k;           /* terminal noise after the quote is trimmed as trailing */
                bool clean = k == len || s[k] == '\n' || (s[k] == '#' && k > j + 1);
                while (k < len && s[k] != '\n')
                    k++;
                clean = clean || mf_cand_noise_only(s + r, k - r);
                if (clean && nl)
                    *from = nl, *to = k, found = true;
                if (!clean && nl && value_start(s, j)) {
                    /* `generated_at: "2` ... `question: "Wh` + `ich database: x?"`: text after a
                     * closing quote that starts a value is that value's opening quote; the
                     * quote before it was left open on its line (yaml.unclosed-quote closes it
                     * there), so the scan goes on from this one (run 8 c8c699b1) */
                    i = j;
                    continue;
                }
                if (!clean && nl) {
                    /* `description: "D` + `  - type: added` ... `to "en".'`: the quote that ends
                     * the run leaves text after it, so YAML's reading of the run does not hold;
                     * the quote was left open on its line (yaml.unclosed-quote closes it there)
                     * and the lines after it are scanned as they read, a later quoted value's
                     * lines too (run 9 9866491f) */
                    i = nl - 1;
                    break;
                }
                i = k;
                break;
            }
            /* plain text: a key's `: ` starts its value, a comment ends the line */
            while (i < len && s[i] != '\n' && !(s[i] == ':' && (i + 1 == len || s[i + 1] == ' ' || s[i + 1] == '\n')) &&
                   !(s[i] == '#' && i > ls && (s[i - 1] == ' ' || s[i - 1] == '\t')))
                i++;
            if (i < len && s[i] == ':') {
                i++;
                continue;
            }
            while (i < len && s[i] != '\n')
                i++;
        }
        i += i < len;
    }
    return found;
}

/* The end of the quoted scalar whose quote opens at s[i] (past its closing
 * quote; `\"` and `''` go on), or 0 when it stays open before len. */
static size_t quoted_end(const char *s, size_t len, size_t i)
{
    char q = s[i];
    for (size_t j = i + 1; j < len; j++) {
        if (q == '"' && s[j] == '\\')
            j++;
        else if (q == '\'' && s[j] == q && j + 1 < len && s[j + 1] == q)
            j++;
        else if (s[j] == q)
            return j + 1;
    }
    return 0;
}

/* The flow collections left open at offset a of s: a '[' or '{' opens one
 * where a node starts (at a line's start, after `: `, `- ` or `? `, inside a
 * flow after `[ { , :`), a closer ends one; quoted scalars and comments are
 * skipped, and a quote open to a gives 0 (offset a is inside it). */
static size_t open_flow_depth(const char *s, size_t a)
{
    size_t depth = 0;
    char nb = '\n';                     /* the last non-blank byte */
    for (size_t i = 0; i < a; i++) {
        char c = s[i];
        bool node = strchr(depth ? "[{,:\n" : ":-?\n", nb) != NULL;
        if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t' || s[i - 1] == '\n')) {
            while (i + 1 < a && s[i + 1] != '\n')
                i++;
            continue;
        }
        if ((c == '"' || c == '\'') && node) {
            size_t e = quoted_end(s, a, i);
            if (!e)
                return 0;
            i = e - 1;
        } else if ((c == '[' || c == '{') && node) {
            depth++;
        } else if ((c == ']' || c == '}') && depth) {
            depth--;
        }
        if (c != ' ' && c != '\t' && c != '\r')
            nb = s[i];
    }
    return depth;
}

/* Is the column-0 line [t, t+tn) at offset a of s only flow closers (a
 * comment may follow) that close every flow collection open above it? YAML
 * reads such a closer at any indentation (`  - [3, 4` + `]`): the line ends
 * the structure, as an entry does. */
static bool flow_closer_line(const char *s, size_t a, const char *t, size_t tn)
{
    size_t closers = 0;
    for (size_t i = 0; i < tn; i++) {
        if (t[i] == '#' && i > 0 && (t[i - 1] == ' ' || t[i - 1] == '\t'))
            break;
        if (t[i] == ']' || t[i] == '}')
            closers++;
        else if (t[i] != ' ' && t[i] != '\t')
            return false;
    }
    return closers > 0 && closers == open_flow_depth(s, a);
}

/* Is the column-0 line [t, t+tn) at offset a of s the tail of a flow
 * collection open above it (`  - [` + `1, 2]`): items, then the closers of
 * every flow open above, as its last bytes? YAML reads it as flow content at
 * any indentation: data, no prose, and it ends the structure. */
static bool flow_tail_line(const char *s, size_t a, const char *t, size_t tn)
{
    if (flow_closer_line(s, a, t, tn))
        return true;
    while (tn > 0 && (t[tn - 1] == ' ' || t[tn - 1] == '\t' || t[tn - 1] == '\r'))
        tn--;
    return tn > 0 && (t[tn - 1] == ']' || t[tn - 1] == '}') && open_flow_depth(s, a) > 0 &&
           open_flow_depth(s, a + tn) == 0;
}

size_t mf_cand_trailing_prose(const mf_profile *p, const char *s, size_t len, int *line, bool *keyed)
{
    if (keyed)
        *keyed = false;
    if (!s || (p && p->format == MF_FORMAT_JSON))
        return len;
    size_t end = continued_end(s, len), a, e, cut = len;
    if (end == len && prev_line(s, &end, &a, &e) && !(noisy_doc_marker(s + a, e - a) && a > 0))
        end = len;                      /* a last `---` closer (front matter) is cut with prose above it */
    bool key = false;
    int closers = 0;
    bool fence_below = false;
    size_t qa = 0, qe = 0;              /* the lines of the last multi-line quoted scalar */
    bool quoted = last_multiline_quote(s, len, &qa, &qe);
    while (prev_line(s, &end, &a, &e)) {
        const char *t = s + a;
        size_t tn = e - a;
        bool text = quoted && a >= qa && a < qe; /* a line of that scalar: its text, never prose */
        bool fence = tn > 0 && (t[0] == '`' || t[0] == '~');
        /* a front-matter `---` closer below the prose, with closers after it
         * ("Notes: ..." + "---" + a paste marker), is cut with it too */
        if (cut == len && a > 0 && noisy_doc_marker(t, tn) && closers++ < 8)
            continue;
        if ((mf_cand_closer_line(t, tn) || (cut < len && self_closing_tag_line(t, tn))) && closers++ < 8 &&
            (cut == len || !fence || (!fence_below && !fence_above(s, a)))) {
            fence_below |= fence;
            continue;                   /* below the prose: cut with it; above it: left to the tidying */
        }
        /* terminal noise glued to the line's end (`items:\x1b[?25h`, `owner:a\x1b[0m`)
         * is no text of it: its '?' or ';' makes no sentence */
        int nl_line;
        bool nl_keep;
        tn = mf_cand_noise_cut(t, tn, &nl_line, &nl_keep);
        while (tn > 0 && (t[tn - 1] == ' ' || t[tn - 1] == '\t'))
            tn--;
        if (tn == 0)
            return len;
        /* a line ending in ':' is a heading, unless a ': ' before it already gave it a value */
        const char *inner = tn > 2 ? memmem(t, tn - 2, ": ", 2) : NULL;
        if (!text && isalnum((unsigned char)t[0]) && sentence(t, tn) && (t[tn - 1] != ':' || inner) &&
            !glued_key(t, tn) && !flow_tail_line(s, a, t, tn)) {
            const char *colon = NULL;
            for (size_t i = 0; i + 1 < tn && !colon; i++)
                if (t[i] == ':' && (t[i + 1] == ' ' || t[i + 1] == '\t'))
                    colon = t + i;
            size_t kn = colon ? (size_t)(colon - t) : 0;
            if (!colon || (p && json_array_size(p->top_level_keys) && memchr(t, ' ', kn) &&
                           !profile_key(p, t, kn)) || after_separator(s, a) ||
                (prose_key_line(p, t, tn) && after_orphan_fence(p, s, a))) {
                key |= colon != NULL;
                cut = a;
                continue;
            }
        }
        if (cut < len && open_tag_line(t, tn) && after_separator(s, a)) {
            cut = a;                    /* `---` + `<yaml>` + `Notes: ...`: the tag line goes with the prose */
            continue;
        }
        if (cut < len && doc_marker(t, tn) && a > 0) {
            cut = a;                    /* the document separator (`--- # end of front matter` too) before trailing prose */
            continue;
        }
        if (cut < len && t[0] == '#')
            continue;                   /* a comment line above the prose (`#note: done`): the line above it decides */
        /* the first line above the prose must be part of a block structure, or end
         * the document (`...`, as an emitter writes after a `|+` value); terminal
         * noise glued to its end was trimmed from it above, and an entry
         * missing its colon or dash space (`owner:a`, `-id: x`, for yaml.colon-space
         * and yaml.dash-space) is one too */
        if (cut == len ||
            !(text || t[0] == ' ' || entry_or_item(t, tn) || glued_key(t, tn) ||
              (tn > 1 && t[0] == '-' && (entry_or_item(t + 1, tn - 1) || glued_key(t + 1, tn - 1))) ||
              (tn == 3 && memcmp(t, "...", 3) == 0) || flow_tail_line(s, a, t, tn)))
            return len;
        if (line) {
            int n = 1;
            for (size_t i = 0; i < cut; i++)
                n += s[i] == '\n';
            *line = n;
        }
        if (keyed)
            *keyed = key;
        return cut;
    }
    return len;
}
