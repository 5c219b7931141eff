/* truth.c - ground truth of a clean artifact that does not come from the
 * code under test: a strict load by the format's reference parser (jansson;
 * libyaml's event stream, resolved here under the YAML 1.2 core schema) plus
 * the profile's documented normalizations, each checked against what the
 * strict load saw (the scalar's own text, its style, the key it sits under).
 *
 * Documented normalizations (the profile files in core/profiles, DESIGN.md):
 *   string_fields:  a plain scalar under such a key (or an item of a list that
 *                   is such a key's value) stays its own text ("007", "2"),
 *                   except a null spelling (nothing, `~`, `null`) as the value
 *                   of such a key the schema declares a list: null;
 *   integer_fields: an integral float (5.0) under such a key is the integer 5;
 *   non-finite floats (.inf, .nan) have no JSON form and stay text.
 * Anything else a clean artifact would need (aliases, enum maps, defaults,
 * wrappers) gives a warning in core and so is no clean artifact.
 * jansson skips a raw NUL byte between tokens (its stream marks an empty
 * buffer with NUL), so JSON text holding one is refused here: no strict
 * parser reads it (\u0000 in a string is fine). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "malform/oracles.h"
#include "verdict.h"

#define TRUTH_MAX_DEPTH 256

typedef struct {
    const mf_profile *p;
    yaml_parser_t parser;
    json_t *anchors;          /* anchor name -> value */
    char *why;                /* first reason the text is no strict artifact */
    size_t whylen;
    const char *text;         /* the text parsed, for the lines of a quoted scalar */
    size_t len;
    long col;                 /* the innermost block collection's column (its first key or dash); -1: flow or none */
    size_t line_no, line_off; /* a line of the text and its offset (scalars come in order: a cursor) */
} loader;

static int refuse(loader *L, const char *fmt, const char *arg)
{
    if (!L->why[0])
        snprintf(L->why, L->whylen, fmt, arg);
    return -1;
}

static bool all_of(const char *s, size_t n, const char *set)
{
    if (!n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!strchr(set, s[i]))
            return false;
    return true;
}

static bool one_of(const char *s, size_t n, const char *const *words)
{
    for (; *words; words++)
        if (strlen(*words) == n && !memcmp(s, *words, n))
            return true;
    return false;
}

/* [-+]? ( \.[0-9]+ | [0-9]+ ( \.[0-9]* )? ) ( [eE] [-+]? [0-9]+ )? */
static bool core_float(const char *s, size_t n)
{
    size_t i = 0, digits = 0;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        i++;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (i < n && s[i] == '.') {
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, digits++;
    }
    if (!digits)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t e = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e)
            return false;
    }
    return i == n;
}

/* A plain scalar under the YAML 1.2 core schema (tag resolution, 10.3.2);
 * NULL for an integer beyond 64 bits, which JSON cannot hold exactly (jansson
 * refuses it too): no strict artifact. */
static json_t *resolve_plain(const char *s, size_t n)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    static const char *const trues[] = {"true", "True", "TRUE", NULL};
    static const char *const falses[] = {"false", "False", "FALSE", NULL};
    if (one_of(s, n, nulls))
        return json_null();
    if (one_of(s, n, trues))
        return json_true();
    if (one_of(s, n, falses))
        return json_false();
    bool decimal =
        all_of(s, n, "0123456789") || (n > 1 && (s[0] == '-' || s[0] == '+') && all_of(s + 1, n - 1, "0123456789"));
    char buf[80];
    if (n >= sizeof buf)
        return decimal ? NULL : json_stringn(s, n);
    memcpy(buf, s, n);
    buf[n] = '\0';
    int base = 0;
    const char *d = buf;
    if (decimal)
        base = 10;
    else if (n > 2 && s[0] == '0' && s[1] == 'o' && all_of(s + 2, n - 2, "01234567"))
        base = 8, d += 2;
    else if (n > 2 && s[0] == '0' && s[1] == 'x' && all_of(s + 2, n - 2, "0123456789abcdefABCDEF"))
        base = 16, d += 2;
    if (base) {
        errno = 0;
        long long v = strtoll(d, NULL, base);
        if (!errno)
            return json_integer(v);
        return base == 10 ? NULL : json_stringn(s, n);   /* octal/hex beyond 64 bits stay text */
    }
    if (core_float(s, n)) {
        double r = strtod(buf, NULL);
        return isfinite(r) ? json_real(r) : json_stringn(s, n);
    }
    return json_stringn(s, n);   /* .inf, .nan and every other word: text */
}

/* Does the profile's schema declare a property named key (at any depth) of
 * type array? */
static bool list_property(const json_t *s, const char *key, int depth)
{
    if (!json_is_object(s) || depth > 64)
        return false;
    const json_t *t = json_object_get(json_object_get(json_object_get(s, "properties"), key), "type");
    if (json_is_string(t) && strcmp(json_string_value(t), "array") == 0)
        return true;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)s, k, v) {
        if (json_is_object(v) && list_property(v, key, depth + 1))
            return true;
        if (json_is_array(v))
            for (size_t i = 0; i < json_array_size(v); i++)
                if (list_property(json_array_get(v, i), key, depth + 1))
                    return true;
    }
    return false;
}

/* Is the plain scalar s, the value of a string field the schema declares a
 * list, a null spelling (nothing, `~`, `null`)? Documented: such a value is
 * null, as "" or "null" would be no list either (core/src/yaml_load.c). */
static bool list_field_null(const loader *L, const char *key, bool item, const char *s, size_t n)
{
    static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
    return !item && key && json_object_get(L->p->string_fields, key) && one_of(s, n, nulls) &&
           list_property(L->p->schema, key, 0);
}

/* Does a plain scalar at this place keep its text (profile string_fields)? */
static bool string_place(const loader *L, const char *key, bool item_of_key)
{
    (void)item_of_key;
    return key && json_object_get(L->p->string_fields, key);
}

static json_t *load_node(loader *L, yaml_event_t *e, const char *key, bool item, int depth);

/* Next event into e; -1 with a reason on a parse error. */
static int next(loader *L, yaml_event_t *e)
{
    if (!yaml_parser_parse(&L->parser, e))
        return refuse(L, "not strict YAML: %s", L->parser.problem ? L->parser.problem : "parse error");
    return 0;
}

static json_t *remember(loader *L, const yaml_char_t *anchor, json_t *v)
{
    if (v && anchor && json_object_set(L->anchors, (const char *)anchor, v)) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* Bytes of the line break at t[i] by YAML's count of lines (CR LF, CR, LF,
 * NEL, LS, PS, as libyaml's marks number them), or 0. */
static size_t line_break(const char *t, size_t n, size_t i)
{
    const unsigned char *u = (const unsigned char *)t;
    if (u[i] == '\n')
        return 1;
    if (u[i] == '\r')
        return i + 1 < n && u[i + 1] == '\n' ? 2 : 1;
    if (i + 1 < n && u[i] == 0xC2 && u[i + 1] == 0x85)
        return 2;
    return i + 2 < n && u[i] == 0xE2 && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9) ? 3 : 0;
}

/* YAML 1.2 (flow scalars in block context, s-flow-line-prefix; yaml-test-suite
 * QB6E): the later lines of a quoted scalar are indented past the block
 * collection it sits in, which libyaml does not check. A later line at or
 * left of that column that reads as an entry there (`key: v` of a one-word
 * key, `- x`) is no
 * strict YAML: it is the shape of a closing quote left out, not one value. */
static bool quoted_runs_over_entry(loader *L, const yaml_event_t *e)
{
    yaml_scalar_style_t st = e->data.scalar.style;
    if (L->col < 0 || !L->text || e->end_mark.line <= e->start_mark.line ||
        (st != YAML_DOUBLE_QUOTED_SCALAR_STYLE && st != YAML_SINGLE_QUOTED_SCALAR_STYLE))
        return false;
    size_t line = L->line_no, i = L->line_off;
    while (i < L->len && line <= e->end_mark.line) {
        size_t a = i, b = 0;
        L->line_no = line;
        L->line_off = i;
        while (i < L->len && !(b = line_break(L->text, L->len, i)))
            i++;
        size_t z = i;
        i = i < L->len ? i + b : i;
        if (line++ <= e->start_mark.line)
            continue;
        size_t ind = 0;
        while (a + ind < z && L->text[a + ind] == ' ')
            ind++;
        if ((long)ind > L->col)
            continue;
        const char *s = L->text + a + ind;
        size_t n = z - a - ind;
        if (line - 1 == e->end_mark.line) {  /* the closing quote ends the scalar's text */
            char q = st == YAML_DOUBLE_QUOTED_SCALAR_STYLE ? '"' : '\'';
            for (size_t k = 0; k < n; k++) {
                if (q == '"' && s[k] == '\\')
                    k++;
                else if (s[k] == q && q == '\'' && k + 1 < n && s[k + 1] == '\'')
                    k++;
                else if (s[k] == q) {
                    n = k;
                    break;
                }
            }
        }
        if (n && s[0] == '-' && (n == 1 || s[1] == ' '))
            return true;
        if (!n || s[0] == '#' || s[0] == '"' || s[0] == '\'' || s[0] == '-')
            continue;
        for (size_t k = 1; k < n && s[k] != ' '; k++)   /* a one-word key: words before a colon are prose */
            if (s[k] == ':' && (k + 1 == n || s[k + 1] == ' '))
                return true;
    }
    return false;
}

static json_t *load_scalar(loader *L, yaml_event_t *e, const char *key, bool item)
{
    const char *s = (const char *)e->data.scalar.value;
    size_t n = e->data.scalar.length;
    const char *tag = (const char *)e->data.scalar.tag;
    json_t *v;
    if (tag && strcmp(tag, "!") && strcmp(tag, "tag:yaml.org,2002:str")) {
        refuse(L, "explicit tag %s: not a plain artifact", tag);
        return NULL;
    }
    if (quoted_runs_over_entry(L, e)) {
        refuse(L, "%s", "not strict YAML: a quoted scalar runs over a line that reads as an entry at or left of "
               "its collection's column (YAML 1.2, yaml-test-suite QB6E)");
        return NULL;
    }
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || tag)
        v = json_stringn(s, n);
    else if (list_field_null(L, key, item, s, n))
        v = json_null();          /* documented: a list-typed string field's null stays null */
    else if (string_place(L, key, item))
        v = json_stringn(s, n);   /* documented: string fields keep the scalar's own text */
    else if (!(v = resolve_plain(s, n))) {
        refuse(L, "%s", "a plain scalar with no exact JSON value (an integer beyond 64 bits)");
        return NULL;
    }
    if (!v)
        refuse(L, "%s", "scalar is not valid UTF-8");
    return remember(L, e->data.scalar.anchor, v);
}

static json_t *load_sequence(loader *L, yaml_event_t *start, const char *key, int depth)
{
    json_t *a = json_array();
    const yaml_char_t *anchor = start->data.sequence_start.anchor;
    long outer = L->col;
    L->col = start->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE ? -1 : (long)start->start_mark.column;
    char *name = anchor ? strdup((const char *)anchor) : NULL;
    for (;;) {
        yaml_event_t e;
        if (!a || next(L, &e) < 0)
            break;
        if (e.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&e);
            json_t *r = remember(L, (const yaml_char_t *)name, a);
            free(name);
            L->col = outer;
            return r;
        }
        json_t *v = load_node(L, &e, key, true, depth + 1);
        yaml_event_delete(&e);
        if (!v || json_array_append_new(a, v))
            break;
    }
    free(name);
    json_decref(a);
    L->col = outer;
    return NULL;
}

static json_t *load_mapping(loader *L, yaml_event_t *start, int depth)
{
    json_t *m = json_object();
    const yaml_char_t *anchor = start->data.mapping_start.anchor;
    long outer = L->col;
    L->col = start->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE ? -1 : (long)start->start_mark.column;
    char *name = anchor ? strdup((const char *)anchor) : NULL;
    for (;;) {
        yaml_event_t e;
        if (!m || next(L, &e) < 0)
            break;
        if (e.type == YAML_MAPPING_END_EVENT) {
            yaml_event_delete(&e);
            json_t *r = remember(L, (const yaml_char_t *)name, m);
            free(name);
            L->col = outer;
            return r;
        }
        if (e.type != YAML_SCALAR_EVENT || e.data.scalar.tag) {
            yaml_event_delete(&e);
            refuse(L, "%s", "a key that is not an untagged scalar");
            break;
        }
        char *k = strndup((const char *)e.data.scalar.value, e.data.scalar.length);
        bool merge = e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE && k && !strcmp(k, "<<");
        yaml_event_delete(&e);
        if (!k)
            break;
        if (merge || json_object_get(m, k)) {
            refuse(L, merge ? "merge key '%s': not a plain artifact" : "duplicate key '%s'", k);
            free(k);
            break;
        }
        if (next(L, &e) < 0) {
            free(k);
            break;
        }
        json_t *v = load_node(L, &e, k, false, depth + 1);
        yaml_event_delete(&e);
        int rc = v ? json_object_set_new(m, k, v) : -1;
        free(k);
        if (rc)
            break;
    }
    free(name);
    json_decref(m);
    L->col = outer;
    return NULL;
}

static json_t *load_node(loader *L, yaml_event_t *e, const char *key, bool item, int depth)
{
    if (depth > TRUTH_MAX_DEPTH) {
        refuse(L, "%s", "nested deeper than the oracle follows");
        return NULL;
    }
    switch (e->type) {
    case YAML_SCALAR_EVENT:
        return load_scalar(L, e, key, item);
    case YAML_SEQUENCE_START_EVENT:
        if (e->data.sequence_start.tag && strcmp((const char *)e->data.sequence_start.tag, "tag:yaml.org,2002:seq")) {
            refuse(L, "explicit tag %s: not a plain artifact", (const char *)e->data.sequence_start.tag);
            return NULL;
        }
        return load_sequence(L, e, key, depth);
    case YAML_MAPPING_START_EVENT:
        if (e->data.mapping_start.tag && strcmp((const char *)e->data.mapping_start.tag, "tag:yaml.org,2002:map")) {
            refuse(L, "explicit tag %s: not a plain artifact", (const char *)e->data.mapping_start.tag);
            return NULL;
        }
        return load_mapping(L, e, depth);
    case YAML_ALIAS_EVENT: {
        json_t *v = json_object_get(L->anchors, (const char *)e->data.alias.anchor);
        if (!v)
            refuse(L, "alias *%s before its anchor", (const char *)e->data.alias.anchor);
        return v ? json_deep_copy(v) : NULL;
    }
    default:
        refuse(L, "%s", "unexpected YAML event");
        return NULL;
    }
}

/* The 1-based line of the first quoted scalar libyaml's scanner closes right before a '#'
 * (`'x'#c`, `text: "` + `  more"#c`), or 0. libyaml reads that '#' as a comment and drops the
 * text after it; YAML 1.2 calls the line an error (a comment needs a blank before its '#',
 * yaml-test-suite X4QW), and core names the dropped text (yaml.block-header-comment), so such
 * a text is no strict artifact (run 8, yaml1: 9e1f11d6-r2e9db956). */
static size_t glued_comment_line(const char *text, size_t len)
{
    const unsigned char *t = (const unsigned char *)text;
    size_t at = 0, chars = 0, line = 0;
    if (len >= 3 && t[0] == 0xEF && t[1] == 0xBB && t[2] == 0xBF)
        at = 3; /* the reader drops a BOM: marks count from after it */
    yaml_parser_t ps;
    if (!memchr(text, '#', len) || !yaml_parser_initialize(&ps))
        return 0;
    yaml_parser_set_input_string(&ps, t, len);
    yaml_token_t tk;
    while (!line && yaml_parser_scan(&ps, &tk)) {
        yaml_token_type_t type = tk.type;
        bool quoted = type == YAML_SCALAR_TOKEN && (tk.data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
                                                    tk.data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        size_t to = tk.end_mark.index, ln = tk.end_mark.line + 1;
        yaml_token_delete(&tk);
        if (type == YAML_STREAM_END_TOKEN)
            break;
        if (!quoted || to < chars)
            continue;
        while (chars < to && at < len) {
            at++;
            while (at < len && (t[at] & 0xC0) == 0x80)
                at++;
            chars++;
        }
        if (at < len && t[at] == '#')
            line = ln;
    }
    yaml_parser_delete(&ps);
    return line;
}

static json_t *load_yaml(const mf_profile *p, const char *text, size_t len, char *why, size_t whylen)
{
    loader L = {.p = p, .why = why, .whylen = whylen, .col = -1};
    /* a last line is a line: its break is implied at the end of the input (yaml-test-suite
     * L24T-01, JEF9-02), which libyaml alone drops from a block scalar ending the input
     * (`a: |` / `  s` reads "s\n"; core's loader reads it so too) */
    char *own = NULL;
    if (len > 0 && text[len - 1] != '\n') {
        own = malloc(len + 1);
        if (!own)
            return NULL;
        memcpy(own, text, len);
        own[len++] = '\n';
        text = own;
    }
    if (!yaml_parser_initialize(&L.parser)) {
        free(own);
        return NULL;
    }
    yaml_parser_set_input_string(&L.parser, (const unsigned char *)text, len);
    L.text = text;
    L.len = len;
    L.anchors = json_object();
    json_t *root = NULL;
    int docs = 0;
    for (bool done = false; !done && L.anchors;) {
        yaml_event_t e;
        if (next(&L, &e) < 0)
            break;
        switch (e.type) {
        case YAML_STREAM_END_EVENT:
            done = true;
            break;
        case YAML_DOCUMENT_START_EVENT:
            if (++docs > 1)
                refuse(&L, "%s", "more than one document");
            break;
        case YAML_STREAM_START_EVENT:
        case YAML_DOCUMENT_END_EVENT:
            break;
        default:
            if (!L.why[0])
                root = load_node(&L, &e, NULL, false, 0);
            break;
        }
        yaml_event_delete(&e);
        if (L.why[0])
            break;
    }
    yaml_parser_delete(&L.parser);
    size_t glued = L.why[0] || !(root || docs) ? 0 : glued_comment_line(text, len);
    free(own);
    json_decref(L.anchors);
    if (L.why[0]) {
        json_decref(root);
        return NULL;
    }
    if (glued) {
        char at[24];
        snprintf(at, sizeof at, "%zu", glued);
        refuse(&L, "not strict YAML: a comment glued to a quoted scalar's closing quote at line %s "
                   "(YAML 1.2 wants a blank before '#')", at);
        json_decref(root);
        return NULL;
    }
    return root ? root : docs ? json_null() : NULL;
}

/* integer_fields: 5.0 -> 5 where the profile declares the field an integer. */
static void integer_fields(const mf_profile *p, json_t *v, int d)
{
    if (d > TRUTH_MAX_DEPTH)
        return;
    if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); i++)
            integer_fields(p, json_array_get(v, i), d + 1);
        return;
    }
    const char *k;
    json_t *x;
    json_object_foreach(v, k, x) {
        double r = json_is_real(x) ? json_real_value(x) : 0.5;
        if (json_object_get(p->integer_fields, k) && r == floor(r) && fabs(r) < 9e15)
            json_object_set_new(v, k, json_integer((json_int_t)r));
        else
            integer_fields(p, x, d + 1);
    }
}

int mf_oracle_truth(const mf_profile *p, const char *clean, size_t len, json_t **truth, mf_verdict *v)
{
    start(v);
    *truth = NULL;
    char why[300] = "";
    json_t *t;
    if (p->format == MF_FORMAT_JSON) {
        json_error_t je;
        const char *nul = memchr(clean, '\0', len);
        t = nul ? NULL : json_loadb(clean, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
        if (nul)
            snprintf(why, sizeof why, "not strict JSON: a raw NUL byte at offset %zu", (size_t)(nul - clean));
        else if (!t)
            snprintf(why, sizeof why, "not strict JSON: line %d: %s", je.line, je.text);
    } else {
        t = load_yaml(p, clean, len, why, sizeof why);
        if (!t && !why[0])
            snprintf(why, sizeof why, "%s", "empty or unreadable YAML");
    }
    if (!t) {
        snprintf(v->detail, sizeof v->detail, "clean artifact is no strict artifact: %s", why);
        v->ran = false;
        return 2;
    }
    integer_fields(p, t, 0);
    *truth = t;
    return 0;
}
