/* yaml_fast.h - a reader for the block YAML that artifacts are written in,
 * giving the node events libyaml gives for the same text, or declining. */
#ifndef MALFORM_YAML_FAST_H
#define MALFORM_YAML_FAST_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Where the reader's events go; a nonzero return stops the read (declined). */
typedef struct {
    /* a scalar node: its value (unescaped, folded, chomped) and libyaml's style for it */
    int (*scalar)(void *ctx, const char *s, size_t n, yaml_scalar_style_t style);
    /* a mapping (is_map) or sequence starts */
    int (*start)(void *ctx, bool is_map);
    /* the innermost open collection ends */
    int (*end)(void *ctx);
    void *ctx;
} mf_yfast_sink;

/* Read text (one document; a missing last line break is implied) into sink.
 * 0: the events of the whole document were given, exactly those of libyaml's
 * parser between DOCUMENT-START and DOCUMENT-END. 1: declined, because the
 * text uses something outside the subset (flow collections other than `[]`,
 * `{}` and one-line sequences of plain words, anchors, tags, quoted keys,
 * keep chomping, more-indented folded lines, multi-line quoted scalars,
 * escapes other than the common ones, tabs, CR, document markers other than
 * a leading `---`, ...), is not well-formed YAML, or a sink call
 * failed: the events given so far are to be discarded and libyaml asked. */
int mf_yaml_fast_read(const char *text, size_t len, const mf_yfast_sink *sink);

#endif
