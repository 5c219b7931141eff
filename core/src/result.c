/* result.c - warnings, rejection records and the result object. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static char *vformat(const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

int mf_warnings_add(mf_warnings *w, const char *rule, int line, const char *fmt, ...)
{
    if (w->count == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 8;
        mf_warning *items = realloc(w->items, cap * sizeof *items);
        if (!items)
            return -1;
        w->items = items;
        w->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    if (!msg)
        return -1;
    w->items[w->count].rule = rule;
    w->items[w->count].message = msg;
    w->items[w->count].line = line;
    w->count++;
    return 0;
}

void mf_warnings_take(mf_warnings *dst, mf_warnings *src)
{
    for (size_t i = 0; i < src->count; i++) {
        mf_warning *x = &src->items[i];
        if (mf_warnings_add(dst, x->rule, x->line, "%s", x->message) != 0)
            break;
    }
    mf_warnings_clear(src);
}

void mf_warnings_truncate(mf_warnings *w, size_t n)
{
    while (w->count > n)
        free(w->items[--w->count].message);
}

bool mf_warnings_has(const mf_warnings *w, const char *rule)
{
    for (size_t i = 0; i < w->count; i++)
        if (strcmp(w->items[i].rule, rule) == 0)
            return true;
    return false;
}

void mf_warnings_clear(mf_warnings *w)
{
    mf_warnings_truncate(w, 0);
    free(w->items);
    w->items = NULL;
    w->cap = 0;
}

void mf_error_set(mf_error *e, int tier, const char *type, const char *path,
                  int line, int column, const char *fmt, ...)
{
    mf_error_clear(e);
    e->tier = tier;
    e->type = type;
    e->path = mf_strdup0(path ? path : "");
    e->line = line;
    e->column = column;
    va_list ap;
    va_start(ap, fmt);
    e->message = vformat(fmt, ap);
    va_end(ap);
}

void mf_error_clear(mf_error *e)
{
    free(e->path);
    free(e->message);
    memset(e, 0, sizeof *e);
}

json_t *mf_result_to_json(const mf_result *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(r->status == MF_ACCEPTED ? "accepted" : "rejected"));
    json_object_set_new(o, "profile", r->profile ? json_string(r->profile) : json_null());
    json_object_set_new(o, "value", r->value ? json_incref(r->value) : json_null());
    json_t *ws = json_array();
    for (size_t i = 0; i < r->warnings.count; i++) {
        const mf_warning *w = &r->warnings.items[i];
        json_array_append_new(ws, json_pack("{s:s, s:s, s:i}", "rule", w->rule,
                                            "message", w->message, "line", w->line));
    }
    json_object_set_new(o, "warnings", ws);
    json_object_set_new(o, "repair_applied", json_boolean(r->repair_applied));
    json_object_set_new(o, "candidate", r->candidate ? json_string(r->candidate) : json_null());
    if (r->error.tier) {
        json_object_set_new(o, "error", json_pack("{s:i, s:s, s:s, s:i, s:i, s:s}",
            "tier", r->error.tier, "type", r->error.type, "path", r->error.path ? r->error.path : "",
            "line", r->error.line, "column", r->error.column,
            "message", r->error.message ? r->error.message : ""));
    } else {
        json_object_set_new(o, "error", json_null());
    }
    return o;
}

void mf_result_free(mf_result *r)
{
    if (!r)
        return;
    json_decref(r->value);
    mf_warnings_clear(&r->warnings);
    free(r->candidate);
    free(r->text);
    mf_error_clear(&r->error);
    free(r);
}
