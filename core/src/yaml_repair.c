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

const mf_text_rule mf_yaml_repairs[] = {
    {YR_CODE_FENCE, mf_yaml_fix_code_fence, 1},
    {YR_XML_TAG_LINES, mf_yaml_fix_xml_tag_lines, 1},
    {YR_INLINE_SEQ_PARENT, mf_yaml_fix_inline_seq_parent, 2},
    {YR_COLON_SPACE, mf_yaml_fix_colon_space, 2},
    {YR_INLINE_KEYS, mf_yaml_fix_inline_keys, 2},
    {YR_DASH_SPACE, mf_yaml_fix_dash_space, 2},
    {YR_NESTED_CHILDREN, mf_yaml_fix_nested_children, 2},
    {YR_DUPLICATE_KEY, mf_yaml_fix_duplicate_key, 3},
    {YR_INVALID_ESCAPE, mf_yaml_fix_invalid_escape, 3},
    {YR_UNCLOSED_QUOTE, mf_yaml_fix_unclosed_quote, 3},
    {YR_FREE_TEXT, mf_yaml_fix_free_text, 3},
    {YR_QUOTED_FRAGMENT, mf_yaml_fix_quoted_fragment, 3},
    {YR_QUOTED_BLOCK_IND, mf_yaml_fix_quoted_block_ind, 3},
    {YR_TYPE_UNION, mf_yaml_fix_type_union, 3},
    {YR_RESERVED_INDICATOR, mf_yaml_fix_reserved_indicator, 3},
    {YR_PLAIN_COLON, mf_yaml_fix_plain_colon, 3},
    {YR_SEQ_INDENT_DRIFT, mf_yaml_fix_seq_indent_drift, 4},
    {YR_PROPERTY_INDENT, mf_yaml_fix_property_indent, 4},
    {NULL, NULL, 0}};

size_t mf_yaml_repair_group(int group, mf_buf *text, const mf_profile *p, mf_warnings *w)
{
    size_t changes = 0;
    mf_buf out = {0};
    for (const mf_text_rule *r = mf_yaml_repairs; r->rule_id; r++) {
        if (r->group != group)
            continue;
        mf_buf_reset(&out);
        size_t mark = w->count;
        size_t n = r->fn(mf_buf_cstr(text), text->len, &out, p, w);
        if (n) {
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
