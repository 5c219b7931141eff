/* ops_yaml_flow.c - a one-line flow collection whose last closer(s) were
 * left out (`tags: [ci, fast` then the next entry), as a model writes a
 * short list and moves on. Exact: yaml.unclosed-flow appends the closers
 * still open when the next line starts a new element. Not on the text's last
 * content line (the rule leaves that one: it may be a truncation). */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "mut_internal.h"

/* The value of line l when it is one balanced flow collection with no quote
 * or comment in it (`[a, b]`, `{x: [1, 2]}`): its text in *v, its length. */
static size_t flow_value(const mt_line *l, const char **v)
{
    size_t n;
    if (l->key_len) {
        n = mt_line_value(l, v);
    } else if (l->dash) {
        *v = l->s + l->body;
        n = l->len - l->body;
        while (n && ((*v)[n - 1] == ' ' || (*v)[n - 1] == '\r'))
            n--;
    } else {
        return 0;
    }
    if (n < 2 || ((*v)[0] != '[' && (*v)[0] != '{'))
        return 0;
    char want[32];
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        char c = (*v)[i];
        if (c == '"' || c == '\'' || c == '#' || c == '\t')
            return 0;
        if (c == '[' || c == '{') {
            if (depth == sizeof want)
                return 0;
            want[depth++] = c == '[' ? ']' : '}';
        } else if (c == ']' || c == '}') {
            if (!depth || want[--depth] != c || (depth == 0 && i + 1 < n))
                return 0;
        }
    }
    return depth == 0 ? n : 0;
}

/* Is line i an element of its collection, not text? The nearest content
 * line above it at or left of its indentation must be a key line or a list
 * item: after a plain text line (`-n ` then `- [3, 4]`) the line continues
 * that multi-line plain scalar, and its brackets are text no rule may close
 * (regression 5e4327db). */
static bool element_line(const mt_lines *ls, size_t i)
{
    const mt_line *l = &ls->v[i];
    for (size_t k = i; k-- > 0;) {
        const mt_line *o = &ls->v[k];
        if (o->blank || o->comment || o->block_body || o->indent > l->indent)
            continue;
        return o->key_len > 0 || o->dash;
    }
    return true;                        /* the document's first line */
}

/* May a plain scalar start with v[0, n)? (not quoted, no flow collection, block
 * header, property, alias, comment or nested item) */
static bool plain_start(const char *v, size_t n)
{
    return n && !strchr("\"'[]{}|>&*!%@`#", v[0]) && !(v[0] == '-' && (n == 1 || v[1] == ' '));
}

/* The value of entry line o (its key's, or its item's text after the dash) and its
 * length; 0 when it has none. */
static size_t entry_value(const mt_line *o, const char **v)
{
    if (o->key_len)
        return mt_line_value(o, v);
    *v = o->s + o->body;
    size_t n = o->len - o->body;
    while (n && ((*v)[n - 1] == ' ' || (*v)[n - 1] == '\r'))
        n--;
    return n;
}

/* Marks in cont[] the lines that continue a multi-line plain scalar begun above
 * them. Its text starts on an entry line (its value, or the next text line when
 * the entry has none), and every later line deeper than the entry's column (its
 * key's, or its dash's) without a key is more of it, an item line too:
 * `matrix:` + `   2` + `  - [3, 4]` is "2 - [3, 4]", and so is `matrix: 2` +
 * `  - [3, 4]` (regression 5e4327db-rf7c57fe1), `matrix: g` + `  - [1, 2~` +
 * `  - [3, 4]` (5e4327db-r6f4bdae1) and `- g` + `    - x [1` + `    - [3, 4]`.
 * A comment line, a block scalar or any other line ends it. */
static void mark_plain_cont(const mt_lines *ls, bool *cont)
{
    const size_t none = (size_t)-1;
    size_t open_col = none, empty_col = none; /* the entry of the open scalar; of an entry with no value */
    for (size_t i = 0; i < ls->n; i++) {
        const mt_line *o = &ls->v[i];
        cont[i] = false;
        if (o->blank)
            continue;
        bool entry = o->key_len || o->dash;
        if (o->comment || o->block_body) {
            open_col = empty_col = none;
        } else if (open_col != none && !o->key_len && o->indent > open_col) {
            cont[i] = true;
        } else if (!entry) {
            bool starts = empty_col != none && o->indent > empty_col &&
                          plain_start(o->s + o->indent, o->len - o->indent);
            open_col = starts ? empty_col : none;
            empty_col = none;
        } else {
            const char *v;
            size_t n = entry_value(o, &v), col = o->key_len ? o->body : o->indent;
            open_col = n && plain_start(v, n) ? col : none;
            empty_col = n ? none : col;
        }
    }
}

/* Does line o start a top-level entry (content at column 0)? */
static bool top_level_line(const mt_line *o)
{
    return !o->blank && !o->comment && !o->block_body && o->indent == 0;
}

/* Does YAML read a flow collection starting at v on line i? The text line
 * model cannot tell a flow collection from brackets inside a multi-line plain
 * scalar (`matrix:ofile: g` + `  - [1, 2]` is the string "g - [1, 2]": a key
 * no simple key; regression 898499e0), so libyaml parses the top-level entry
 * holding line i (from the last column-0 line at or above it to the next),
 * which damage elsewhere in the text (prose before it, noise after it) leaves
 * readable; an entry it cannot read that far holds no site. */
static bool parsed_flow_start(const mt_lines *ls, size_t i, const char *v)
{
    size_t first = i, end = i + 1;
    while (first > 0 && !top_level_line(&ls->v[first]))
        first--;
    while (end < ls->n && !top_level_line(&ls->v[end]))
        end++;
    const mt_line *a = &ls->v[first], *z = &ls->v[end - 1];
    size_t line = i - first, column = 0;
    for (const char *c = ls->v[i].s; c < v; c++)
        column += ((unsigned char)*c & 0xC0) != 0x80; /* libyaml counts characters */
    yaml_parser_t parser;
    yaml_event_t e;
    if (!yaml_parser_initialize(&parser))
        return false;
    yaml_parser_set_input_string(&parser, (const unsigned char *)a->s, (size_t)(z->s + z->len - a->s));
    bool found = false;
    while (yaml_parser_parse(&parser, &e)) {
        yaml_event_type_t t = e.type;
        bool flow = (t == YAML_SEQUENCE_START_EVENT && e.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE) ||
                    (t == YAML_MAPPING_START_EVENT && e.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE);
        found = flow && e.start_mark.line == line && e.start_mark.column == column;
        bool past = e.start_mark.line > line;
        yaml_event_delete(&e);
        if (found || past || t == YAML_STREAM_END_EVENT)
            break;
    }
    yaml_parser_delete(&parser);
    return found;
}

/* Line i holds such a value and the next content line starts a new element
 * for the rule: a list item, or a key at or left of line i's key column. */
static bool site(const mt_lines *ls, const bool *cont, size_t i)
{
    const mt_line *l = &ls->v[i];
    const char *v;
    if (l->block_body || l->comment || cont[i] || !flow_value(l, &v) || !element_line(ls, i))
        return false;
    size_t j = i + 1;
    while (j < ls->n && (ls->v[j].blank || ls->v[j].comment))
        j++;
    if (j >= ls->n || ls->v[j].block_body)
        return false;
    const mt_line *x = &ls->v[j];
    size_t col = l->key_len ? l->body : l->indent;
    /* a closer later in the text may close the collection left open, the lines between
     * read as its flow content: valid YAML with another value (`- [1, 2` + `- 4]` is
     * [1, "2 - 4"]; regression 5e4327db-r3e379edd), which no rule may undo */
    const char *rest = l->s + l->len, *end = ls->v[ls->n - 1].s + ls->v[ls->n - 1].len;
    if (memchr(rest, ']', (size_t)(end - rest)) || memchr(rest, '}', (size_t)(end - rest)))
        return false;
    return (x->dash || (x->key_len && !x->dash && x->indent <= col)) && parsed_flow_start(ls, i, v);
}

int mt_op_yaml_unclosed_flow(mf_op_ctx *ctx)
{
    if (!mt_is_yaml(ctx))
        return 0;
    mt_lines ls;
    if (mt_lines_scan(ctx->text, ctx->len, &ls) < 0)
        return -1;
    bool *cont = malloc((ls.n + 1) * sizeof *cont);
    if (!cont) {
        mt_lines_free(&ls);
        return -1;
    }
    mark_plain_cont(&ls, cont);
    size_t sites[256], m = 0;
    for (size_t i = 0; i < ls.n && m < 256; i++)
        if (site(&ls, cont, i))
            sites[m++] = i;
    free(cont);
    int rc = 0;
    if (m) {
        const mt_line *l = &ls.v[sites[mt_rand(ctx, m)]];
        const char *v;
        size_t n = flow_value(l, &v), keep = n - 1;
        if (mt_rand(ctx, 2)) /* all the closers at the end, or only the last */
            while (keep > 1 && (v[keep - 1] == ']' || v[keep - 1] == '}'))
                keep--;
        size_t end = (size_t)(v - l->s) + keep;
        rc = mt_replace_line(ctx, &ls, (size_t)(l - ls.v), l->s, end);
    }
    mt_lines_free(&ls);
    return rc;
}
