/* yaml_event_trace.h - the node events of a YAML text as one string, from
 * the fast reader (core/src/yaml_fast.c) and from libyaml's parser, so the
 * two can be compared (tests/unit/test_yaml_fast.c, fuzz_yaml_fast.c).
 * A line per event: "M" / "Q" a mapping / sequence starts, "E" it ends,
 * "S<style>:<length>:<bytes>" a scalar; libyaml adds "P" before a node with
 * an anchor or tag, "A" for an alias, "D" for a second document. */
#ifndef MALFORM_YAML_EVENT_TRACE_H
#define MALFORM_YAML_EVENT_TRACE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "yaml_fast.h"

typedef struct {
    char *s; /* NUL-terminated once anything was added */
    size_t len, cap;
} yet_trace;

static inline void yet_add(yet_trace *r, const char *s, size_t n)
{
    if (r->len + n + 1 > r->cap) {
        r->cap = (r->len + n + 1) * 2;
        r->s = realloc(r->s, r->cap);
        if (!r->s)
            abort();
    }
    memcpy(r->s + r->len, s, n);
    r->len += n;
    r->s[r->len] = '\0';
}

static inline void yet_scalar(yet_trace *r, const char *s, size_t n, int style)
{
    char head[48];
    if (!s) { /* a NULL text: the loader could not build a string of it */
        yet_add(r, "NULL\n", 5);
        return;
    }
    snprintf(head, sizeof head, "S%d:%zu:", style, n);
    yet_add(r, head, strlen(head));
    yet_add(r, s, n);
    yet_add(r, "\n", 1);
}

static inline int yet_on_scalar(void *ctx, const char *s, size_t n, yaml_scalar_style_t style)
{
    yet_scalar(ctx, s, n, (int)style);
    return 0;
}

static inline int yet_on_start(void *ctx, bool is_map)
{
    yet_add(ctx, is_map ? "M\n" : "Q\n", 2);
    return 0;
}

static inline int yet_on_end(void *ctx)
{
    yet_add(ctx, "E\n", 2);
    return 0;
}

/* The fast reader's events into r; true when it accepted the text. */
static inline bool yet_fast(const char *text, size_t len, yet_trace *r)
{
    mf_yfast_sink sink = {yet_on_scalar, yet_on_start, yet_on_end, r};
    yet_add(r, "", 0);
    return mf_yaml_fast_read(text, len, &sink) == 0;
}

/* libyaml's events of the text (a last line break implied, as mf_yaml_load
 * reads it) into r; false when it does not parse. */
static inline bool yet_libyaml(const char *text, size_t len, yet_trace *r)
{
    char *t = malloc(len + 2);
    if (!t)
        abort();
    memcpy(t, text, len);
    size_t n = len;
    if (len > 0 && text[len - 1] != '\n')
        t[n++] = '\n';
    yaml_parser_t p;
    yaml_event_t e;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)t, n);
    bool ok = true;
    int docs = 0;
    yet_add(r, "", 0);
    for (bool end = false; !end;) {
        if (!yaml_parser_parse(&p, &e)) {
            ok = false;
            break;
        }
        switch (e.type) {
        case YAML_STREAM_END_EVENT: end = true; break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1)
                yet_add(r, "D\n", 2);
            break;
        case YAML_SCALAR_EVENT:
            if (e.data.scalar.anchor || e.data.scalar.tag)
                yet_add(r, "P\n", 2);
            yet_scalar(r, (const char *)e.data.scalar.value, e.data.scalar.length, (int)e.data.scalar.style);
            break;
        case YAML_ALIAS_EVENT: yet_add(r, "A\n", 2); break;
        case YAML_MAPPING_START_EVENT:
            if (e.data.mapping_start.anchor || e.data.mapping_start.tag)
                yet_add(r, "P\n", 2);
            yet_add(r, "M\n", 2);
            break;
        case YAML_SEQUENCE_START_EVENT:
            if (e.data.sequence_start.anchor || e.data.sequence_start.tag)
                yet_add(r, "P\n", 2);
            yet_add(r, "Q\n", 2);
            break;
        case YAML_MAPPING_END_EVENT:
        case YAML_SEQUENCE_END_EVENT: yet_add(r, "E\n", 2); break;
        default: break;
        }
        yaml_event_delete(&e);
    }
    yaml_parser_delete(&p);
    free(t);
    return ok;
}

#endif
