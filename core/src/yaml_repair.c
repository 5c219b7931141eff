/* yaml_repair.c - the YAML structural repairs of seed 000, the peers' YAML
 * families (issue 10), and the groups and passes that run them.
 *
 * When a YAML candidate does not parse (or does not validate), the pipeline
 * applies these text rules group by group and re-parses after each group that
 * changed something. Group 1 removes wrappers around the payload (a markdown
 * fence, bare XML tag lines); group 2 repairs the line structure (inline
 * sequences and keys, missing spaces after ':' and '-', children at their
 * parent's indentation); group 3 repairs scalars (duplicate lines, escapes,
 * quotes, indicators, colon-space in plain values, list items holding ': ');
 * group 4 repairs the indentation of sequence items and their properties.
 * A few malformed shapes also parse, with another value (`steps:` then
 * `-name: x`, dedented whitelisted children, `- Use X: for Y` among strings,
 * a front-matter closer `---` ending the text, `parent:` + `  child:value`,
 * a bare tag line that a `---` makes a document of its own):
 * mf_yaml_repair_misread runs their rules before the first parse.
 * Rules run in table order over one line model (yaml_repair_scan.c), rebuilt
 * only after a rule changed the text; each skips block scalar bodies and is
 * idempotent. The rules live in yaml_repair_lines.c, yaml_repair_inline.c,
 * yaml_repair_quotes.c, yaml_repair_strings.c and yaml_repair_indent.c. */
#define _GNU_SOURCE /* memmem */
#include <stdlib.h>
#include <string.h>
#include "yaml_repair.h"

/* Every rule over the line model, in table order: its id, name, group and
 * trigger. The trigger is the bytes the rule repairs: the group driver skips
 * the rule when the text holds none of them (NULL: never skipped); "ab+c" needs
 * one of a, b and also c. A
 * "pairs" trigger (doubled quotes) also needs one of its two-byte sequences.
 * A "kinds" trigger (line flags, yaml_repair.h) skips the rule when no line of
 * the model has any of them: the lines the rule can rewrite all have one.
 * A rule widened to repair a shape without any of its bytes or line kinds must
 * add it here (tests/unit/test_yaml_prefilter.c fails until it does). */
#define YR_RULES(X)                                                                             \
    X(MF_RULE_ID(YAML_CODE_FENCE), code_fence, 1, "`", NULL, 0)                                 \
    X(MF_RULE_ID(YAML_XML_TAG_LINES), xml_tag_lines, 1, "<", NULL, 0)                           \
    X(MF_RULE_ID(YAML_FRONT_MATTER_CLOSER), front_matter_closer, 1, "-", NULL, 0)               \
    X(MF_RULE_ID(YAML_INLINE_SEQUENCE_PARENT), inline_seq_parent, 2, NULL, NULL, YR_DASH_TEXT)  \
    X(MF_RULE_ID(YAML_COLON_SPACE), colon_space, 2, ":", NULL, 0)                               \
    X(MF_RULE_ID(YAML_INLINE_KEYS), inline_keys, 2, NULL, NULL, YR_VAL_COLON | YR_DASH_TEXT)    \
    X(MF_RULE_ID(YAML_INLINE_KNOWN_KEYS), inline_known_keys, 2, NULL, NULL, YR_VAL_COLON)       \
    X(MF_RULE_ID(YAML_DASH_SPACE), dash_space, 2, NULL, NULL, YR_DASH_TEXT)                     \
    X(MF_RULE_ID(YAML_NESTED_CHILDREN), nested_children, 2, NULL, NULL, 0)                      \
    X(MF_RULE_ID(YAML_ITEM_KEY), item_key, 2, NULL, NULL, 0)                                    \
    X(MF_RULE_ID(YAML_INVALID_ESCAPE), invalid_escape, 3, "\\", NULL, 0)                        \
    X(MF_RULE_ID(YAML_UNCLOSED_QUOTE), unclosed_quote, 3, "\"'", NULL, YR_OPENS_DQ | YR_OPENS_SQ) \
    X(MF_RULE_ID(YAML_UNCLOSED_FLOW), unclosed_flow, 3, "[{", NULL, 0)                          \
    X(MF_RULE_ID(YAML_DOUBLED_QUOTES), doubled_quotes, 3, "\"'", "\"\"''", 0)                   \
    X(MF_RULE_ID(YAML_DUPLICATE_KEY), duplicate_key, 3, ":", NULL, 0)                           \
    X(MF_RULE_ID(YAML_ITEM_COLON), item_colon, 3, ":", NULL, 0)                                 \
    X(MF_RULE_ID(YAML_FREE_TEXT), free_text, 3, NULL, NULL, 0)                                  \
    X(MF_RULE_ID(YAML_INNER_QUOTES), inner_quotes, 3, "\"'", NULL, YR_QUOTE_MORE)               \
    X(MF_RULE_ID(YAML_QUOTED_FRAGMENT), quoted_fragment, 3, "\"'", NULL, YR_QUOTE_MORE)         \
    X(MF_RULE_ID(YAML_QUOTED_BLOCK_INDICATOR), quoted_block_ind, 3, "|>+\"'", NULL, 0)          \
    X(MF_RULE_ID(YAML_BLOCK_HEADER_COMMENT), block_header_comment, 3, "|>\"'[{+#", NULL, 0)     \
    X(MF_RULE_ID(YAML_TYPE_UNION), type_union, 3, "|", NULL, YR_QUOTE_MORE)                     \
    X(MF_RULE_ID(YAML_RESERVED_INDICATOR), reserved_indicator, 3, "`@|>*", NULL, 0)             \
    X(MF_RULE_ID(YAML_QUOTED_HASH), quoted_hash, 3, "\"'+#", NULL, 0)                           \
    X(MF_RULE_ID(YAML_PLAIN_COLON), plain_colon, 3, ":", NULL, YR_VAL_COLON)                    \
    X(MF_RULE_ID(YAML_SEQUENCE_INDENT_DRIFT), seq_indent_drift, 4, NULL, NULL, 0)               \
    X(MF_RULE_ID(YAML_PROPERTY_INDENT), property_indent, 4, NULL, NULL, 0)                      \
    X(MF_RULE_ID(YAML_BLOCK_BODY_INDENT), block_body_indent, 4, "|>", NULL, 0)

/* One rule on a text: build the model, run the rule, and leave out equal to
 * the input when nothing changed (the mf_text_rule contract). */
static size_t on_text(yr_rule_fn fn, const char *in, size_t len, mf_buf *out, const mf_profile *p,
                      mf_warnings *w)
{
    yr_doc d;
    size_t n = 0;
    mf_buf_reset(out);
    if (yr_doc_open(&d, in, len) == 0) {
        n = fn(&d, out, p, w);
        yr_doc_close(&d);
    }
    if (n == 0) {
        mf_buf_reset(out);
        mf_buf_put(out, in, len);
    }
    return n;
}

#define YR_TEXT_FN(id, name, group, bytes, pairs, kinds)                                                                \
    size_t mf_yaml_fix_##name(const char *in, size_t len, mf_buf *out, const mf_profile *p,         \
                              mf_warnings *w)                                                        \
    {                                                                                                \
        return on_text(yr_fix_##name, in, len, out, p, w);                                          \
    }
YR_RULES(YR_TEXT_FN)

#define YR_TEXT_ROW(id, name, group, bytes, pairs, kinds) {id, mf_yaml_fix_##name, group},
const mf_text_rule mf_yaml_repairs[] = {YR_RULES(YR_TEXT_ROW){NULL, NULL, 0}};

typedef struct {
    int group;
    yr_rule_fn fn;
    const char *bytes;  /* the rule's trigger (YR_RULES) */
    const char *pairs;
    uint16_t kinds;
} model_rule;
#define YR_MODEL_ROW(id, name, group, bytes, pairs, kinds) {group, yr_fix_##name, bytes, pairs, kinds},
static const model_rule model_rules[] = {YR_RULES(YR_MODEL_ROW){0, NULL, NULL, NULL, 0}};

/* False for a rule that reads profile data p does not have (it would change
 * nothing), so no line model is built for it. */
static bool profile_feeds(yr_rule_fn fn, const mf_profile *p)
{
    if (fn == yr_fix_free_text)
        return p && json_object_size(p->free_text_fields) > 0;
    if (fn == yr_fix_item_key)
        return p && json_object_size(p->item_keys) > 0;
    return true;
}

/* False when the text of d holds none of the rule's trigger bytes (or none of its pairs),
 * or no line of one of its kinds. */
static bool text_may_need(const model_rule *r, yr_doc *d)
{
    if (r->kinds && !(d->kinds & r->kinds))
        return false;
    for (const char *c = r->bytes; c && *c;) { /* each '+'-separated group: one of its bytes */
        bool any = false;
        for (; *c && *c != '+'; c++)
            any = any || yr_doc_holds(d, (unsigned char)*c, false);
        if (!any)
            return false;
        c += *c == '+';
    }
    if (!r->pairs)
        return true;
    for (const char *q = r->pairs; q[0] && q[1]; q += 2)
        if (q[0] == q[1] ? yr_doc_holds(d, (unsigned char)q[0], true) : memmem(d->text, d->len, q, 2) != NULL)
            return true;
    return false;
}

yr_rule_fn yr_rule_at(size_t index)
{
    return index < sizeof model_rules / sizeof *model_rules ? model_rules[index].fn : NULL;
}

bool mf_yaml_rule_may_apply(size_t index, const char *s, size_t n)
{
    yr_doc d;
    if (yr_doc_open(&d, s, n) != 0)
        return true;
    bool may = text_may_need(&model_rules[index], &d);
    yr_doc_close(&d);
    return may;
}

/* The line model of one candidate's text, kept across the chains run on it. */
struct mf_yaml_lines {
    yr_doc d;
    yr_trace trace;
    bool open;
};

void mf_yaml_lines_free(mf_yaml_lines *m)
{
    if (!m)
        return;
    if (m->open)
        yr_doc_close(&m->d);
    free(m->trace.s);
    free(m);
}

/* Run the rules of `rules` whose group is `group` on text in place over the
 * model in m (built now unless m holds this very text's), updated
 * (yr_doc_update) after each rule that changed the text. */
static size_t run_chain(const model_rule *rules, int group, mf_buf *text, mf_yaml_lines *m, const mf_profile *p,
                        mf_warnings *w)
{
    size_t changes = 0;
    mf_buf out = {0};
    yr_doc *d = &m->d;
    if (m->open && (d->text != mf_buf_cstr(text) || d->len != text->len)) {
        yr_doc_close(d);
        m->open = false;
    }
    for (const model_rule *r = rules; r->fn; r++) {
        if (r->group != group || !profile_feeds(r->fn, p))
            continue;
        if (!m->open && yr_doc_open(d, mf_buf_cstr(text), text->len) != 0)
            break;
        m->open = true;
        d->trace = &m->trace;
        if (!text_may_need(r, d))
            continue;
        mf_buf_reset(&out);
        m->trace.count = 0;
        size_t mark = w->count;
        size_t n = r->fn(d, &out, p, w);
        if (n) {
            /* the update holds both models at once: worth it when most lines were copied */
            size_t copied = 0;
            for (size_t k = 0; k < m->trace.count; k++)
                copied += m->trace.s[k].n;
            if (2 * copied < out.len) {
                yr_doc_close(d);
                m->open = yr_doc_open(d, mf_buf_cstr(&out), out.len) == 0;
            } else {
                m->open = yr_doc_update(d, mf_buf_cstr(&out), out.len) >= 0;
            }
            mf_buf tmp = *text;
            *text = out;
            out = tmp;
            changes += n;
        } else {
            mf_warnings_truncate(w, mark);
        }
    }
    mf_buf_free(&out);
    return changes;
}

/* The line-structure rules (group 2) over text. A dash yaml.dash-space gave its space
 * (`-type: added item_type: b`) makes an item line of a line the rules before it passed
 * over: they look again (run 7 35672d77), wherever group 2 runs, also after group 3
 * closed a quote that hid the line (`a: "x` above `-id: Q1 phase: f`, entry c2652f60). */
static size_t run_line_rules(mf_buf *text, mf_yaml_lines *m, const mf_profile *p, mf_warnings *w)
{
    size_t mark = w->count;
    size_t n = run_chain(model_rules, 2, text, m, p, w);
    if (n && mf_warnings_has_since(w, mark, MF_RULE_ID(YAML_DASH_SPACE)))
        n += run_chain(model_rules, 2, text, m, p, w);
    return n;
}

/* m, or a new model when *m is NULL; NULL on OOM. */
static mf_yaml_lines *lines_of(mf_yaml_lines **m)
{
    if (!*m)
        *m = calloc(1, sizeof **m);
    return *m;
}

size_t mf_yaml_repair_group_on(int group, mf_buf *text, mf_yaml_lines **lines, const mf_profile *p, mf_warnings *w)
{
    mf_yaml_lines *m = lines_of(lines);
    if (!m)
        return 0;
    size_t n = 0;
    if (group == 2) {
        /* a quote group 3 closes first hides the lines it runs over from group 2, which
         * would read them wrong (`handle: "@` then `- id: S` in a later value's text made
         * `- id:pe` a keyed item's sibling): group 3 runs group 2 after closing it */
        mf_buf probe = {0};
        mf_warnings pw = {0};
        model_rule one[2] = {{2, yr_fix_unclosed_quote, "\"'", NULL, YR_OPENS_DQ | YR_OPENS_SQ}, {0, NULL, NULL, NULL, 0}};
        mf_yaml_lines *pm = NULL; /* a model of its own: m stays the model of text */
        mf_buf_put(&probe, mf_buf_cstr(text), text->len);
        size_t closes = lines_of(&pm) ? run_chain(one, 2, &probe, pm, p, &pw) : 0;
        mf_yaml_lines_free(pm);
        mf_buf_free(&probe);
        mf_warnings_clear(&pw);
        if (closes)
            return 0;
        /* a block header's dash drifted off its list's column hides its body from the rules of
         * group 2 and 3, which would rewrite body text as entries (`   -  notes: |-` then
         * `      id:2`): such a dash goes back first */
        model_rule headers[2] = {{2, yr_fix_drifted_block_headers, "|>", NULL, 0}, {0, NULL, NULL, NULL, 0}};
        n += run_chain(headers, 2, text, m, p, w);
    }
    /* a quote group 3 closed no longer hides the lines the open quote ran over
     * (a bare tag, a fence, `-id: Q`, `tests: p lint: p`): groups 1 and 2 look
     * again, before the scalar rules (plain-colon would quote `p lint: p`) */
    for (const model_rule *r = model_rules; group == 3 && r->fn; r++)
        if (r->fn == yr_fix_unclosed_quote) {
            model_rule one[2] = {*r, {0, NULL, NULL, NULL, 0}};
            if ((n = run_chain(one, group, text, m, p, w))) {
                n += run_chain(model_rules, 1, text, m, p, w);
                n += run_line_rules(text, m, p, w);
            }
        }
    size_t more = group == 2 ? run_line_rules(text, m, p, w) : run_chain(model_rules, group, text, m, p, w);
    n += more;
    if (group == 3 && more) {
        n += run_chain(model_rules, 1, text, m, p, w);
        n += run_line_rules(text, m, p, w);
    }
    /* a property group 4 put back on its item's column (`   phase: x` under `  - id: Q`)
     * no longer has the next line deeper than it: a glued `question:H` that group 2 read
     * as text of phase's plain value is the item's next property, and group 2 looks again
     * (run 10 entry 1036b32c) */
    if (group == 4 && more)
        n += run_line_rules(text, m, p, w);
    /* a repeated entry that the group's later rules repaired on one copy only (`""W""` after
     * `"W"`, a drifted dash that ran the copy's value on) repeats its first exactly only now:
     * yaml.duplicate-key looks again, as the loader refuses every repeated key */
    for (const model_rule *r = model_rules; (group == 3 || group == 4) && more && r->fn; r++)
        if (r->fn == yr_fix_duplicate_key) {
            model_rule one[2] = {*r, {0, NULL, NULL, NULL, 0}};
            one[0].group = group;
            n += run_chain(one, group, text, m, p, w);
        }
    return n;
}

size_t mf_yaml_repair_group(int group, mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    mf_yaml_lines *m = NULL;
    size_t n = mf_yaml_repair_group_on(group, text, &m, p, w);
    mf_yaml_lines_free(m);
    return n;
}

/* Indentation (spaces) of the first line at or after offset i that is neither
 * blank nor a comment; (size_t)-1 when there is none. */
static size_t next_content_indent(const char *s, size_t n, size_t i, size_t *at)
{
    while (i < n) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n, k = i;
        while (k < end && s[k] == ' ')
            k++;
        size_t ind = k - i;
        bool blank = true;
        for (size_t j = i; j < end && blank; j++)
            blank = s[j] == ' ' || s[j] == '\t' || s[j] == '\r';
        if (!blank && s[k] != '#') {
            if (at)
                *at = k;
            return ind;
        }
        i = nl ? end + 1 : n;
    }
    return (size_t)-1;
}

/* Does `key:` ([k, k+kn) with its colon) occur in s other than at k? *budget is
 * what the searches of one pre-check may still read: once spent, the answer is
 * "maybe" (true), so that a text of many bare keys is not searched once per key. */
static bool key_elsewhere(const char *s, size_t n, size_t k, size_t kn, size_t *budget)
{
    if (*budget < n)
        return true;
    for (const char *f = s; (f = memmem(f, (size_t)(s + n - f), s + k, kn)) != NULL; f++)
        if (f != s + k && (f == s || f[-1] == ' ' || f[-1] == '\n')) {
            *budget -= (size_t)(f - s);
            return true;
        }
    *budget -= n;
    return false;
}

/* The first ": - " in [p, e), or NULL (memmem's answer without its per-call setup, which a short line pays in full). */
static const char *inline_item(const char *p, const char *e)
{
    for (; e - p >= 4; p++) {
        p = memchr(p, ':', (size_t)(e - p) - 3);
        if (!p)
            return NULL;
        if (p[1] == ' ' && p[2] == '-' && p[3] == ' ')
            return p;
    }
    return NULL;
}

/* True when some line may need a misread repair: `-word` or `-<TAB>` (dash-space), a
 * `- ` item holding ': ' after a key that is not an identifier (item-colon, unquoted),
 * a ` #` after a quote (quoted-hash), `|#text` (block-header-comment), or a bare `key:` the profile lists
 * nested children for, or that occurs again in the text, whose next content line is a key at its column
 * (nested-children).
 * A cheap byte scan before building the line model. */
static bool may_be_misread(const char *s, size_t n, const mf_profile *p)
{
    bool nested = p && json_object_size(p->nested_children) > 0;
    if (yr_may_end_with_doc_start(s, n))
        return true; /* a closing `---` ends the text (front-matter-closer) */
    if (yr_tag_document(s, n))
        return true; /* "<yaml>" + "---": a tag line read as a document (xml-tag-lines) */
    /* each check below but the `-word` one needs its byte on the line: none in the text, no check */
    bool hashes = memchr(s, '#', n), bars = memchr(s, '|', n), gts = memchr(s, '>', n), colons = memchr(s, ':', n);
    size_t budget = 4 * n + (1u << 16); /* key_elsewhere's searches: linear in n */
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n, next = nl ? end + 1 : n, bol = i;
        while (i < end && s[i] == ' ')
            i++;
        size_t e = end;
        while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r'))
            e--;
        const char *hash = hashes && i < e ? memchr(s + i, '#', e - i) : NULL;
        if (hash && hash > s + i && hash[-1] == ' ' && (memchr(s + i, '\'', (size_t)(hash - s) - i) ||
                                                        memchr(s + i, '"', (size_t)(hash - s) - i)))
            return true; /* maybe a ' #' inside quotes (quoted-hash) */
        const char *bar = bars && i < e ? memchr(s + i, '|', e - i) : NULL;
        const char *gt = gts && i < e ? memchr(s + i, '>', e - i) : NULL;
        if ((bar && (bar == s + i || bar[-1] == ' ') && yr_header_glued_comment(bar, (size_t)(s + e - bar))) ||
            (gt && (gt == s + i || gt[-1] == ' ') && yr_header_glued_comment(gt, (size_t)(s + e - gt))))
            return true; /* `key: |#text`, a root `>#m` (block-header-comment) */
        for (const char *h = hash; h; h = memchr(h + 1, '#', (size_t)(s + e - h) - 1))
            if (h > s + i && yr_glues_comment(h[-1]))
                return true; /* maybe `key: 'text'#more`, `["a"#b`, `[1, 2]#c` (block-header-comment) */
        if (!colons) { /* only `-word` / `-<TAB>` (dash-space) is left to look for */
            if (i + 1 < e && s[i] == '-') {
                char c = s[i + 1];
                if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '\t')
                    return true;
            }
            i = next;
            continue;
        }
        const char *inl = inline_item(s + i, s + e);
        if (inl && memchr(inl + 4, ':', (size_t)(s + e - inl) - 4))
            return true; /* `key: - item: x` (item-colon reads the inline item with its list) */
        if (i + 1 < e && s[i] == '-') {
            char c = s[i + 1];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '\t')
                return true;
            size_t q = c == ' ' && (s[i + 2] == '"' || s[i + 2] == '\'') ? yr_quote_end(s, e, i + 2) : 0;
            while (q && q < e && s[q] == ' ')
                q++;
            if (c == ' ' && (q ? q < e && s[q] == ':' : s[i + 2] != '"' && s[i + 2] != '\'')) {
                /* a quoted item is item-colon's only as a quoted key */
                const char *colon = memchr(s + (q ? q : i + 2), ':', e - (q ? q : i + 2));
                while (colon && colon + 1 < s + e && colon[1] != ' ') /* the key's ':' (`- build:: x`) */
                    colon = memchr(colon + 1, ':', (size_t)(s + e - colon) - 1);
                if (colon && (colon + 1 == s + e || colon[1] == ' ') &&
                    (!yr_is_ident(s + i + 2, (size_t)(colon - s) - i - 2) ||
                     yr_is_header_key(s + i + 2, (size_t)(colon - s) - i - 2)))
                    return true;
            }
        }
        if (e > i + 1 && s[e - 1] == ':' && yr_may_have_glued_child(s, n, next, i - bol))
            return true; /* `parent:` + `  child:value` (colon-space) */
        if (e > i + 1 && s[e - 1] == ':') {
            size_t k = i, at = 0; /* `- parent:`: the key after the item's dashes */
            while (k + 1 < e && s[k] == '-' && s[k + 1] == ' ')
                for (k += 2; k < e && s[k] == ' ';)
                    k++;
            /* its next content line, a key, starts at the key's own column: maybe a child,
             * of the profile's or of the same parent nested elsewhere in the text */
            if (e > k + 1 && next_content_indent(s, n, next, &at) == k - bol && s[at] != '-' &&
                ((nested && json_object_getn(p->nested_children, s + k, e - 1 - k)) || key_elsewhere(s, n, k, e - k, &budget)))
                return true;
        }
        i = next;
    }
    return false;
}

/* The repairs mf_yaml_repair_misread runs, in order. */
static const model_rule misread_rules[] = {
    {0, yr_fix_tag_documents, "<", NULL, 0},
    {0, yr_fix_front_matter_closer, "-", NULL, 0}, {0, yr_fix_dash_space, NULL, NULL, YR_DASH_TEXT},
    {0, yr_fix_colon_space_child, ":", NULL, 0},   {0, yr_fix_nested_children, NULL, NULL, 0},
    {0, yr_fix_item_colon, ":", NULL, 0},
    {0, yr_fix_quoted_hash, "\"'+#", NULL, 0},     {0, yr_fix_block_header_comment, "|>\"'[{+#", NULL, 0},
    {0, NULL, NULL, NULL, 0}};

/* The misread repair that never guesses: a trailing bare `---` closer. */
static const model_rule misread_sure_rules[] = {{0, yr_fix_front_matter_closer, "-", NULL, 0},
                                                 {0, NULL, NULL, NULL, 0}};

size_t mf_yaml_repair_misread_sure(mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    if (!yr_may_end_with_doc_start(mf_buf_cstr(text), text->len))
        return 0;
    mf_yaml_lines *m = NULL;
    size_t n = lines_of(&m) ? run_chain(misread_sure_rules, 0, text, m, p, w) : 0;
    mf_yaml_lines_free(m);
    return n;
}

/* The '#' checks of the misread pass, for a text a repair group changed: a repair can
 * make a plain value whose ' #' sits inside quotes (yaml.quoted-hash: `steps: - name: tag
 * "v1 # rc" and ship` is no plain value as written, yaml.inline-sequence-parent's
 * `- name: tag "v1 # rc" and ship` is, and would load with the quoted phrase cut as a
 * comment; run 10 entry e66c5e2d). And the glued-comment check (yaml.block-header-comment):
 * a repair can make the quote a '#' is glued to a closing one (`- id:"` + ...
 * `text: "#Wh"`: yaml.colon-space's `id: "` opens a scalar the second quote closes), and
 * the text then loads without the later group that names it (run 8 entry 6fc8839a). */
static const model_rule glued_rules[] = {{0, yr_fix_quoted_hash, "\"'+#", NULL, 0},
                                         {0, yr_fix_block_header_comment, "|>\"'[{+#", NULL, 0},
                                         {0, NULL, NULL, NULL, 0}};

size_t mf_yaml_repair_glued_comments(mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    const char *s = mf_buf_cstr(text);
    if (!memchr(s, '#', text->len))
        return 0;
    mf_yaml_lines *m = NULL;
    size_t n = lines_of(&m) ? run_chain(glued_rules, 0, text, m, p, w) : 0;
    mf_yaml_lines_free(m);
    return n;
}

size_t mf_yaml_repair_misread(mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    if (!may_be_misread(mf_buf_cstr(text), text->len, p))
        return 0;
    mf_yaml_lines *m = NULL;
    size_t n = lines_of(&m) ? run_chain(misread_rules, 0, text, m, p, w) : 0;
    mf_yaml_lines_free(m);
    return n;
}
