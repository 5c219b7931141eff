/* schema.c - the schema oracle and an independent JSON-Schema subset
 * validator. It is a second implementation next to core's tier-2 validator
 * on purpose: an accepted value that core let through but this one rejects
 * (or the reverse on a rejection) is a finding. Unknown keywords are ignored. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <string.h>
#include "malform/oracles.h"

static bool type_is(const json_t *v, const char *t)
{
    if (!strcmp(t, "object")) return json_is_object(v);
    if (!strcmp(t, "array")) return json_is_array(v);
    if (!strcmp(t, "string")) return json_is_string(v);
    if (!strcmp(t, "boolean")) return json_is_boolean(v);
    if (!strcmp(t, "null")) return json_is_null(v);
    if (!strcmp(t, "integer"))
        return json_is_integer(v) || (json_is_real(v) && floor(json_real_value(v)) == json_real_value(v));
    if (!strcmp(t, "number")) return json_is_number(v);
    return true;
}

/* UTF-8 code points of a JSON string (all of its bytes: U+0000 included). */
static size_t u8len(const json_t *v)
{
    const char *s = json_string_value(v);
    size_t n = 0, len = json_string_length(v);
    for (size_t i = 0; i < len; i++)
        n += ((unsigned char)s[i] & 0xC0) != 0x80;
    return n;
}

static int fail(char *msg, size_t n, const char *path, const char *what)
{
    snprintf(msg, n, "%s: %s", *path ? path : "/", what);
    return -1;
}

static int validate(const json_t *s, const json_t *v, char *path, size_t plen, char *msg, size_t n, int depth)
{
    if (!json_is_object(s) || depth > 128)
        return 0;
    const json_t *k;
    char what[200];
    if ((k = json_object_get(s, "type"))) {
        bool ok = false;
        if (json_is_string(k))
            ok = type_is(v, json_string_value(k));
        for (size_t i = 0; json_is_array(k) && i < json_array_size(k); i++)
            ok |= json_is_string(json_array_get(k, i)) && type_is(v, json_string_value(json_array_get(k, i)));
        if (!ok)
            return fail(msg, n, path, "wrong type");
    }
    if ((k = json_object_get(s, "enum")) && json_is_array(k)) {
        bool ok = false;
        for (size_t i = 0; i < json_array_size(k); i++)
            ok |= json_equal(json_array_get(k, i), (json_t *)v);
        if (!ok)
            return fail(msg, n, path, "not one of enum");
    }
    if ((k = json_object_get(s, "const")) && !json_equal((json_t *)k, (json_t *)v))
        return fail(msg, n, path, "not const");
    if (json_is_string(v)) {
        size_t l = u8len(v);
        if ((k = json_object_get(s, "minLength")) && json_is_integer(k) && l < (size_t)json_integer_value(k))
            return fail(msg, n, path, "shorter than minLength");
        if ((k = json_object_get(s, "maxLength")) && json_is_integer(k) && l > (size_t)json_integer_value(k))
            return fail(msg, n, path, "longer than maxLength");
        if ((k = json_object_get(s, "pattern")) && json_is_string(k)) {
            int err;
            PCRE2_SIZE off;
            pcre2_code *re = pcre2_compile((PCRE2_SPTR)json_string_value(k), PCRE2_ZERO_TERMINATED, PCRE2_UTF,
                                           &err, &off, NULL);
            if (re) {
                pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
                int rc = md ? pcre2_match(re, (PCRE2_SPTR)json_string_value(v), json_string_length(v), 0, 0, md, NULL)
                            : 0;
                pcre2_match_data_free(md);
                pcre2_code_free(re);
                if (rc == PCRE2_ERROR_NOMATCH)
                    return fail(msg, n, path, "does not match pattern");
            }
        }
    }
    if (json_is_number(v)) {
        double d = json_number_value(v);
        if ((k = json_object_get(s, "minimum")) && json_is_number(k) && d < json_number_value(k))
            return fail(msg, n, path, "below minimum");
        if ((k = json_object_get(s, "maximum")) && json_is_number(k) && d > json_number_value(k))
            return fail(msg, n, path, "above maximum");
    }
    size_t pl = strlen(path);
    if (json_is_array(v)) {
        size_t sz = json_array_size(v);
        if ((k = json_object_get(s, "minItems")) && json_is_integer(k) && sz < (size_t)json_integer_value(k))
            return fail(msg, n, path, "fewer than minItems");
        if ((k = json_object_get(s, "maxItems")) && json_is_integer(k) && sz > (size_t)json_integer_value(k))
            return fail(msg, n, path, "more than maxItems");
        const json_t *items = json_object_get(s, "items");
        for (size_t i = 0; items && i < sz; i++) {
            snprintf(path + pl, plen - pl, "/%zu", i);
            if (validate(items, json_array_get(v, i), path, plen, msg, n, depth + 1) < 0)
                return -1;
            path[pl] = '\0';
        }
    }
    if (json_is_object(v)) {
        const json_t *props = json_object_get(s, "properties"), *req = json_object_get(s, "required");
        const json_t *addl = json_object_get(s, "additionalProperties");
        for (size_t i = 0; json_is_array(req) && i < json_array_size(req); i++) {
            const char *r = json_string_value(json_array_get(req, i));
            if (r && !json_object_get(v, r)) {
                snprintf(what, sizeof what, "missing required '%s'", r);
                return fail(msg, n, path, what);
            }
        }
        const char *key;
        json_t *c;
        json_object_foreach((json_t *)v, key, c) {
            const json_t *ps = json_is_object(props) ? json_object_get(props, key) : NULL;
            snprintf(path + pl, plen - pl, "/%s", key);
            if (!ps && json_is_false(addl)) {
                snprintf(what, sizeof what, "additional property not allowed");
                return fail(msg, n, path, what);
            }
            if (!ps && json_is_object(addl))
                ps = addl;
            if (ps && validate(ps, c, path, plen, msg, n, depth + 1) < 0)
                return -1;
            path[pl] = '\0';
        }
        if ((k = json_object_get(s, "minProperties")) && json_is_integer(k) &&
            json_object_size(v) < (size_t)json_integer_value(k))
            return fail(msg, n, path, "fewer than minProperties");
    }
    const json_t *all = json_object_get(s, "allOf"), *any = json_object_get(s, "anyOf"),
                 *one = json_object_get(s, "oneOf");
    for (size_t i = 0; json_is_array(all) && i < json_array_size(all); i++)
        if (validate(json_array_get(all, i), v, path, plen, msg, n, depth + 1) < 0)
            return -1;
    char tmp[256];
    if (json_is_array(any)) {
        bool ok = false;
        for (size_t i = 0; i < json_array_size(any) && !ok; i++)
            ok = validate(json_array_get(any, i), v, path, plen, tmp, sizeof tmp, depth + 1) == 0;
        path[pl] = '\0';
        if (!ok)
            return fail(msg, n, path, "matches none of anyOf");
    }
    if (json_is_array(one)) {
        size_t hits = 0;
        for (size_t i = 0; i < json_array_size(one); i++)
            hits += validate(json_array_get(one, i), v, path, plen, tmp, sizeof tmp, depth + 1) == 0;
        path[pl] = '\0';
        if (hits != 1)
            return fail(msg, n, path, hits ? "matches several of oneOf" : "matches none of oneOf");
    }
    return 0;
}

int mf_oracle_schema_validate(const json_t *schema, const json_t *value, char *msg, size_t msglen)
{
    char path[512] = "";
    if (msglen)
        msg[0] = '\0';
    return validate(schema, value, path, sizeof path, msg, msglen, 0);
}

int mf_oracle_schema(const mf_oracle_input *in, mf_verdict *v)
{
    const mf_result *r = in->result;
    v->ran = true;
    v->failed = false;
    v->detail[0] = '\0';
    if (r->status == MF_ACCEPTED) {
        char msg[300];
        if (!r->value)
            snprintf(v->detail, sizeof v->detail, "accepted without a value");
        else if (r->error.tier != 0)
            snprintf(v->detail, sizeof v->detail, "accepted but carries a tier-%d error", r->error.tier);
        else if (in->profile && in->profile->schema &&
                 mf_oracle_schema_validate(in->profile->schema, r->value, msg, sizeof msg) < 0)
            snprintf(v->detail, sizeof v->detail, "accepted value violates the %s schema: %s", in->profile->name, msg);
    } else {
        const mf_error *e = &r->error;
        if (r->value)
            snprintf(v->detail, sizeof v->detail, "rejected but a value is attached");
        else if (e->tier < 1 || e->tier > 3)
            snprintf(v->detail, sizeof v->detail, "rejection with tier %d (want 1..3)", e->tier);
        else if (!e->type || !*e->type)
            snprintf(v->detail, sizeof v->detail, "rejection without an error type");
        else if (!e->message || !*e->message)
            snprintf(v->detail, sizeof v->detail, "rejection %s without a message", e->type);
        else if (!e->path)
            snprintf(v->detail, sizeof v->detail, "rejection %s without a path", e->type);
        else if (e->line < 0 || e->column < 0)
            snprintf(v->detail, sizeof v->detail, "rejection %s with negative line/column", e->type);
    }
    v->failed = v->detail[0] != '\0';
    return v->failed;
}
