/* emit.c - canonical text of a value: JSON via jansson, YAML via libyaml's emitter.
 *
 * The YAML form is block style, UTF-8 unescaped, unlimited width. A string
 * whose plain form would be read back as something else under the core schema
 * ("true", "5", "null", "") is double-quoted; multi-line strings use literal
 * style when libyaml allows it. Floats are written in the shortest form that
 * reads back to the same double and always look like floats ("1.0"). A list
 * item that is a one-key mapping whose key yaml.item-colon reads as text
 * (`- src/a.py: null`, `- Content-Type: x`: no identifier, or a header
 * name) is written in flow style, `- {src/a.py: null}`, which no rule reads
 * as a string. A key of the root mapping that holds a blank is double-quoted:
 * cand.leading-prose and cand.trailing-prose read a column-0 line
 * `Status update: all sections complete` as a sentence, never a quoted one.
 * A key that starts with '-' is double-quoted: yaml.dash-space reads a line
 * `-key:` as a list item missing its space unless plain keys surround it.
 * A root string or root key that opens with a closed reasoning block
 * (`<think>a</think> b`) is double-quoted: as the text's first line,
 * cand.reasoning would take only what follows the block.
 * So repairing the canonical output gives back the same value and no
 * warnings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "cand_internal.h"
#include "internal.h"
#include "yaml_repair.h"

#define JSON_FLAGS (JSON_INDENT(2) | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17))

char *mf_value_to_json(const json_t *v)
{
    return json_dumps(v, JSON_FLAGS);
}

static int write_buf(void *data, unsigned char *s, size_t n)
{
    return mf_buf_put(data, (const char *)s, n) == 0;
}

static int write_file(void *data, unsigned char *s, size_t n)
{
    return fwrite(s, 1, n, data) == n;
}

static void format_real(double d, char *out, size_t n)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(out, n, "%.*g", prec, d);
        if (strtod(out, NULL) == d)
            break;
    }
    if (!strpbrk(out, ".eEn"))
        strncat(out, ".0", n - strlen(out) - 1);
}

static int scalar(yaml_emitter_t *em, const char *s, size_t len, bool plain_ok, yaml_scalar_style_t style)
{
    yaml_event_t e;
    if (!yaml_scalar_event_initialize(&e, NULL, NULL, (yaml_char_t *)s, (int)len,
                                      plain_ok, 1, style))
        return -1;
    return yaml_emitter_emit(em, &e) ? 0 : -1;
}

/* Does the plain form start like a key whose ': ' lost its blank (`key:value`)?
 * yaml.colon-space would read it back as a mapping once any other repair runs
 * on the text, so such a string is double-quoted. */
static bool glued_key_shape(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
        return false;
    while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
                     s[i] == '_' || s[i] == '-'))
        i++;
    return i + 1 < n && s[i] == ':' && s[i + 1] != ' ' && s[i + 1] != '\t' && s[i + 1] != '/' && s[i + 1] != '\n';
}

/* May the string be written plain: it reads back as the same string, holds no
 * NUL, and does not look like damage a repair rule would act on? */
static bool plain_string(const char *s, size_t n)
{
    json_t *as_plain = mf_yaml_plain_value(s, n);
    bool plain = json_is_string(as_plain) && memchr(s, '\0', n) == NULL && !glued_key_shape(s, n);
    json_decref(as_plain);
    return plain;
}

/* Would yaml.item-colon read the block item `- key: value` of this one-key
 * mapping as the string "key: value" (its key no identifier, or a header
 * name; its value one line)? */
static bool item_colon_shape(const json_t *v)
{
    const char *k;
    json_t *x;
    if (!json_is_object(v) || json_object_size(v) != 1)
        return false;
    json_object_foreach((json_t *)v, k, x) {
        if (json_is_object(x) || json_is_array(x) || (json_is_string(x) && strchr(json_string_value(x), '\n')))
            return false;
        return !yr_is_ident(k, strlen(k)) || yr_is_header_key(k, strlen(k));
    }
    return false;
}

static int emit_value(yaml_emitter_t *em, const json_t *v, bool item, bool root)
{
    yaml_event_t e;
    char num[64];
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        yaml_mapping_start_event_initialize(&e, NULL, NULL, 1, item && item_colon_shape(v) ? YAML_FLOW_MAPPING_STYLE
                                                                                           : YAML_BLOCK_MAPPING_STYLE);
        if (!yaml_emitter_emit(em, &e))
            return -1;
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            size_t kn = strlen(k);
            bool plain = plain_string(k, kn) && !(root && (strpbrk(k, " \t") || mf_cand_reasoning_end(k, kn))) &&
                         k[0] != '-';
            if (scalar(em, k, kn, plain, plain ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE) ||
                emit_value(em, x, false, false))
                return -1;
        }
        yaml_mapping_end_event_initialize(&e);
        return yaml_emitter_emit(em, &e) ? 0 : -1;
    }
    case JSON_ARRAY:
        yaml_sequence_start_event_initialize(&e, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
        if (!yaml_emitter_emit(em, &e))
            return -1;
        for (size_t i = 0; i < json_array_size(v); i++)
            if (emit_value(em, json_array_get(v, i), true, false))
                return -1;
        yaml_sequence_end_event_initialize(&e);
        return yaml_emitter_emit(em, &e) ? 0 : -1;
    case JSON_STRING: {
        const char *s = json_string_value(v);
        size_t n = json_string_length(v);
        bool plain = plain_string(s, n) && !(root && mf_cand_reasoning_end(s, n));
        yaml_scalar_style_t style = !plain ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
                                   : memchr(s, '\n', n) ? YAML_LITERAL_SCALAR_STYLE
                                   : YAML_ANY_SCALAR_STYLE;
        return scalar(em, s, n, plain, style);
    }
    case JSON_INTEGER:
        snprintf(num, sizeof num, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        return scalar(em, num, strlen(num), 1, YAML_PLAIN_SCALAR_STYLE);
    case JSON_REAL:
        format_real(json_real_value(v), num, sizeof num);
        return scalar(em, num, strlen(num), 1, YAML_PLAIN_SCALAR_STYLE);
    case JSON_TRUE:
        return scalar(em, "true", 4, 1, YAML_PLAIN_SCALAR_STYLE);
    case JSON_FALSE:
        return scalar(em, "false", 5, 1, YAML_PLAIN_SCALAR_STYLE);
    default:
        return scalar(em, "null", 4, 1, YAML_PLAIN_SCALAR_STYLE);
    }
}

/* Emit v as one YAML document through handler; 0, or -1 (OOM noted when it was OOM). */
static int emit_yaml(const json_t *v, yaml_write_handler_t *handler, void *data)
{
    yaml_emitter_t em;
    yaml_event_t e;
    if (!yaml_emitter_initialize(&em))
        return mf_oom();
    yaml_emitter_set_output(&em, handler, data);
    yaml_emitter_set_unicode(&em, 1);
    yaml_emitter_set_width(&em, -1);
    yaml_emitter_set_indent(&em, 2);
    int ok = yaml_stream_start_event_initialize(&e, YAML_UTF8_ENCODING) && yaml_emitter_emit(&em, &e) &&
             yaml_document_start_event_initialize(&e, NULL, NULL, NULL, 1) && yaml_emitter_emit(&em, &e) &&
             emit_value(&em, v, false, true) == 0 &&
             yaml_document_end_event_initialize(&e, 1) && yaml_emitter_emit(&em, &e) &&
             yaml_stream_end_event_initialize(&e) && yaml_emitter_emit(&em, &e) &&
             yaml_emitter_flush(&em);
    if (!ok && em.error == YAML_MEMORY_ERROR)
        mf_oom();
    yaml_emitter_delete(&em);
    return ok ? 0 : -1;
}

char *mf_value_to_yaml(const json_t *v)
{
    mf_buf out = {0};
    if (emit_yaml(v, write_buf, &out)) {
        mf_buf_free(&out);
        return NULL;
    }
    return mf_buf_detach(&out);
}

int mf_value_write(const json_t *v, bool json, FILE *f)
{
    if (json)
        return json_dumpf(v, f, JSON_FLAGS) == 0 && fputc('\n', f) != EOF ? 0 : -1;
    return emit_yaml(v, write_file, f);
}
