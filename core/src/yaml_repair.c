/* yaml_repair.c - the YAML structural repairs of seed 000 and their groups.
 *
 * When a YAML candidate does not parse (or does not validate), the pipeline
 * applies these text rules group by group and re-parses after each group that
 * changed something. Group 1 removes wrappers around the payload (a markdown
 * fence, bare XML tag lines); group 2 repairs the line structure (inline
 * sequences and keys, missing spaces after ':' and '-', children at their
 * parent's indentation); group 3 repairs scalars (duplicate lines, escapes,
 * quotes, indicators, colon-space in plain values); group 4 repairs the
 * indentation of sequence items and their properties. Rules run in table
 * order; each is line-scoped, skips block scalar bodies and is idempotent.
 * The rules live in yaml_repair_lines.c, yaml_repair_inline.c,
 * yaml_repair_quotes.c and yaml_repair_indent.c; their shared scanner in
 * yaml_repair_scan.c. */
#include <string.h>
#include "yaml_repair.h"

const char mf_yr_nested_children[] = "yaml.nested-children";
const char mf_yr_inline_seq_parent[] = "yaml.inline-sequence-parent";
const char mf_yr_colon_space[] = "yaml.colon-space";
const char mf_yr_inline_keys[] = "yaml.inline-keys";
const char mf_yr_plain_colon[] = "yaml.plain-colon";
const char mf_yr_code_fence[] = "yaml.code-fence";
const char mf_yr_xml_tag_lines[] = "yaml.xml-tag-lines";
const char mf_yr_free_text[] = "yaml.free-text";
const char mf_yr_dash_space[] = "yaml.dash-space";
const char mf_yr_duplicate_key[] = "yaml.duplicate-key";
const char mf_yr_invalid_escape[] = "yaml.invalid-escape";
const char mf_yr_unclosed_quote[] = "yaml.unclosed-quote";
const char mf_yr_quoted_fragment[] = "yaml.quoted-fragment";
const char mf_yr_quoted_block_ind[] = "yaml.quoted-block-indicator";
const char mf_yr_type_union[] = "yaml.type-union";
const char mf_yr_reserved_indicator[] = "yaml.reserved-indicator";
const char mf_yr_seq_indent_drift[] = "yaml.sequence-indent-drift";
const char mf_yr_property_indent[] = "yaml.property-indent";

#define S000 "000 YAML Structural Repairs "

const mf_rule mf_rules_yaml[] = {
    {YR_NESTED_CHILDREN, S000 "#1", "Indent whitelisted child keys emitted at their parent's level under the parent."},
    {YR_INLINE_SEQ_PARENT, S000 "#2", "Move a sequence's first item written on its parent key's line onto its own line."},
    {YR_COLON_SPACE, S000 "#3", "Insert the missing space after a simple mapping key's colon (key:value)."},
    {YR_INLINE_KEYS, S000 "#4", "Split several mapping keys written on one line into one line each, nesting whitelisted children."},
    {YR_PLAIN_COLON, S000 "#5", "Double-quote plain scalar values that contain ': '."},
    {YR_CODE_FENCE, S000 "#6", "Remove a markdown code fence (yaml/yml/json/jsonl) wrapping the whole payload."},
    {YR_XML_TAG_LINES, S000 "#7", "Remove lines that consist only of a bare XML-style tag."},
    {YR_FREE_TEXT, S000 "#8", "Quote free-text field values; turn multi-line single-quoted values into |- blocks."},
    {YR_DASH_SPACE, S000 "#9", "Insert the missing space after a list dash (-key: value)."},
    {YR_DUPLICATE_KEY, S000 "#10", "Drop a mapping entry that repeats an earlier one with exactly the same text (and block)."},
    {YR_INVALID_ESCAPE, S000 "#11", "Double backslashes that start an invalid escape in double-quoted scalars."},
    {YR_UNCLOSED_QUOTE, S000 "#12", "Close a double-quoted value left open when the next line starts a new element."},
    {YR_QUOTED_FRAGMENT, S000 "#13a", "Quote a value made of a quoted fragment followed by plain text."},
    {YR_QUOTED_BLOCK_IND, S000 "#13b", "Unquote a quoted block scalar indicator (\"|-\") followed by an indented body."},
    {YR_TYPE_UNION, S000 "#14", "Quote type-union values such as \"epic\" | \"user_story\"."},
    {YR_RESERVED_INDICATOR, S000 "#15", "Quote plain values that begin with a reserved indicator (` or @)."},
    {YR_SEQ_INDENT_DRIFT, S000 "#16", "Re-align sibling list dashes that drifted 1-3 spaces after a block scalar."},
    {YR_PROPERTY_INDENT, S000 "#17", "Re-indent list item properties that are 1-2 spaces off dash_indent + 2."},
    {NULL, NULL, NULL}};

/* Every rule over the line model, in table order, with its group. */
#define YR_RULES(X)                                      \
    X(YR_CODE_FENCE, code_fence, 1)                      \
    X(YR_XML_TAG_LINES, xml_tag_lines, 1)                \
    X(YR_INLINE_SEQ_PARENT, inline_seq_parent, 2)        \
    X(YR_COLON_SPACE, colon_space, 2)                    \
    X(YR_INLINE_KEYS, inline_keys, 2)                    \
    X(YR_DASH_SPACE, dash_space, 2)                      \
    X(YR_NESTED_CHILDREN, nested_children, 2)            \
    X(YR_DUPLICATE_KEY, duplicate_key, 3)                \
    X(YR_INVALID_ESCAPE, invalid_escape, 3)              \
    X(YR_UNCLOSED_QUOTE, unclosed_quote, 3)              \
    X(YR_FREE_TEXT, free_text, 3)                        \
    X(YR_QUOTED_FRAGMENT, quoted_fragment, 3)            \
    X(YR_QUOTED_BLOCK_IND, quoted_block_ind, 3)          \
    X(YR_TYPE_UNION, type_union, 3)                      \
    X(YR_RESERVED_INDICATOR, reserved_indicator, 3)      \
    X(YR_PLAIN_COLON, plain_colon, 3)                    \
    X(YR_SEQ_INDENT_DRIFT, seq_indent_drift, 4)          \
    X(YR_PROPERTY_INDENT, property_indent, 4)

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

#define YR_TEXT_FN(id, name, group)                                                                  \
    size_t mf_yaml_fix_##name(const char *in, size_t len, mf_buf *out, const mf_profile *p,         \
                              mf_warnings *w)                                                        \
    {                                                                                                \
        return on_text(yr_fix_##name, in, len, out, p, w);                                          \
    }
YR_RULES(YR_TEXT_FN)

#define YR_TEXT_ROW(id, name, group) {id, mf_yaml_fix_##name, group},
const mf_text_rule mf_yaml_repairs[] = {YR_RULES(YR_TEXT_ROW){NULL, NULL, 0}};

typedef struct { int group; yr_rule_fn fn; } model_rule;
#define YR_MODEL_ROW(id, name, group) {group, yr_fix_##name},
static const model_rule model_rules[] = {YR_RULES(YR_MODEL_ROW){0, NULL}};

size_t mf_yaml_repair_group(int group, mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    size_t changes = 0;
    mf_buf out = {0};
    yr_doc d;
    bool open = false;
    for (const model_rule *r = model_rules; r->fn; r++) {
        if (r->group != group)
            continue;
        if (!open && yr_doc_open(&d, mf_buf_cstr(text), text->len) != 0)
            break;
        open = true;
        mf_buf_reset(&out);
        size_t mark = w->count;
        size_t n = r->fn(&d, &out, p, w);
        if (n) {
            yr_doc_close(&d);
            open = false;
            mf_buf tmp = *text;
            *text = out;
            out = tmp;
            changes += n;
        } else {
            mf_warnings_truncate(w, mark);
        }
    }
    if (open)
        yr_doc_close(&d);
    mf_buf_free(&out);
    return changes;
}

/* True when some line starts, after its indentation, with '-' and a letter or
 * '_' (a `-key:` candidate); a cheap test before building the line model. */
static bool has_dash_word_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        while (i < n && s[i] == ' ')
            i++;
        if (i + 1 < n && s[i] == '-') {
            char c = s[i + 1];
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
                return true;
        }
        const char *nl = memchr(s + i, '\n', n - i);
        if (!nl)
            break;
        i = (size_t)(nl - s) + 1;
    }
    return false;
}

size_t mf_yaml_repair_misread(mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    if (!has_dash_word_line(mf_buf_cstr(text), text->len))
        return 0;
    yr_doc d;
    if (yr_doc_open(&d, mf_buf_cstr(text), text->len) != 0)
        return 0;
    mf_buf out = {0};
    size_t mark = w->count;
    size_t n = yr_fix_dash_space(&d, &out, p, w);
    yr_doc_close(&d);
    if (n) {
        mf_buf tmp = *text;
        *text = out;
        out = tmp;
    } else {
        mf_warnings_truncate(w, mark);
    }
    mf_buf_free(&out);
    return n;
}
