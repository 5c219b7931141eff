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

const mf_text_rule mf_yaml_repairs[] = {
    {MF_RULE_ID(YAML_CODE_FENCE), mf_yaml_fix_code_fence, 1},
    {MF_RULE_ID(YAML_XML_TAG_LINES), mf_yaml_fix_xml_tag_lines, 1},
    {MF_RULE_ID(YAML_INLINE_SEQUENCE_PARENT), mf_yaml_fix_inline_seq_parent, 2},
    {MF_RULE_ID(YAML_COLON_SPACE), mf_yaml_fix_colon_space, 2},
    {MF_RULE_ID(YAML_INLINE_KEYS), mf_yaml_fix_inline_keys, 2},
    {MF_RULE_ID(YAML_DASH_SPACE), mf_yaml_fix_dash_space, 2},
    {MF_RULE_ID(YAML_NESTED_CHILDREN), mf_yaml_fix_nested_children, 2},
    {MF_RULE_ID(YAML_DUPLICATE_KEY), mf_yaml_fix_duplicate_key, 3},
    {MF_RULE_ID(YAML_INVALID_ESCAPE), mf_yaml_fix_invalid_escape, 3},
    {MF_RULE_ID(YAML_UNCLOSED_QUOTE), mf_yaml_fix_unclosed_quote, 3},
    {MF_RULE_ID(YAML_FREE_TEXT), mf_yaml_fix_free_text, 3},
    {MF_RULE_ID(YAML_QUOTED_FRAGMENT), mf_yaml_fix_quoted_fragment, 3},
    {MF_RULE_ID(YAML_QUOTED_BLOCK_INDICATOR), mf_yaml_fix_quoted_block_ind, 3},
    {MF_RULE_ID(YAML_TYPE_UNION), mf_yaml_fix_type_union, 3},
    {MF_RULE_ID(YAML_RESERVED_INDICATOR), mf_yaml_fix_reserved_indicator, 3},
    {MF_RULE_ID(YAML_PLAIN_COLON), mf_yaml_fix_plain_colon, 3},
    {MF_RULE_ID(YAML_SEQUENCE_INDENT_DRIFT), mf_yaml_fix_seq_indent_drift, 4},
    {MF_RULE_ID(YAML_PROPERTY_INDENT), mf_yaml_fix_property_indent, 4},
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
