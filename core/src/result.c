/* result.c - warnings, rejection records and the result object. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static char *vformat(const char *fmt, va_list ap)
{
    char small[256]; /* most messages fit: one formatting pass instead of measuring first */
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(small, sizeof small, fmt, cp);
    va_end(cp);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s)
        mf_oom();
    else if ((size_t)n < sizeof small)
        memcpy(s, small, (size_t)n + 1);
    else
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static void note_line(mf_warning *x, int line)
{
    if (x->nlines < MF_WARNING_LINES && (x->nlines == 0 || x->lines[x->nlines - 1] != line))
        x->lines[x->nlines++] = line;
}

/* The record a new (rule, message) joins: the last one when it has the same
 * rule and message; past MF_WARNINGS_MAX records, the rule's overflow record. */
static mf_warning *joinable(mf_warnings *w, const char *rule, const char *msg)
{
    if (w->count > 0) {
        mf_warning *last = &w->items[w->count - 1];
        if ((last->rule == rule || strcmp(last->rule, rule) == 0) && strcmp(last->message, msg) == 0)
            return last;
    }
    if (w->count < MF_WARNINGS_MAX)
        return NULL;
    for (size_t i = MF_WARNINGS_MAX; i < w->count; i++)
        if (w->items[i].rule == rule || strcmp(w->items[i].rule, rule) == 0)
            return &w->items[i];
    return NULL;
}

/* Append record x (its message is taken) or fold it into a joinable one
 * (join: look for one; false when the caller just did). */
static int add_record(mf_warnings *w, mf_warning *x, bool join)
{
    mf_warning *j = join ? joinable(w, x->rule, x->message) : NULL;
    if (j) {
        j->count += x->count;
        for (int i = 0; i < x->nlines; i++)
            note_line(j, x->lines[i]);
        free(x->message);
        return 0;
    }
    if (w->count == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 8;
        mf_warning *items = realloc(w->items, cap * sizeof *items);
        if (!items) {
            free(x->message);
            return mf_oom();
        }
        w->items = items;
        w->cap = cap;
    }
    if (w->count >= MF_WARNINGS_MAX) {
        /* a rule's overflow record says that it stands for several messages */
        char *m = NULL;
        size_t n = strlen(x->message);
        if ((m = malloc(n + 80))) {
            snprintf(m, n + 80, "%s (and similar: the warning list keeps %d distinct records)",
                     x->message, MF_WARNINGS_MAX);
            free(x->message);
            x->message = m;
        }
    }
    w->items[w->count++] = *x;
    return 0;
}

int mf_warnings_add_text(mf_warnings *w, const char *rule, int line, const char *msg)
{
    mf_warning *j = joinable(w, rule, msg);
    if (j) { /* a repeat: counted without copying the message */
        j->count++;
        note_line(j, line);
        return 0;
    }
    size_t n = strlen(msg);
    char *m = malloc(n + 1);
    if (!m)
        return mf_oom();
    memcpy(m, msg, n + 1);
    mf_warning x = {rule, m, line, 1, {0}, 0};
    note_line(&x, line);
    return add_record(w, &x, false);
}

int mf_warnings_add(mf_warnings *w, const char *rule, int line, const char *fmt, ...)
{
    if (!strchr(fmt, '%')) /* a fixed message: nothing to format */
        return mf_warnings_add_text(w, rule, line, fmt);
    char small[256]; /* a rule repeating one message (a repair on every line) joins without an allocation */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof small)
        return mf_warnings_add_text(w, rule, line, small);
    va_start(ap, fmt);
    char *msg = vformat(fmt, ap);
    va_end(ap);
    if (!msg)
        return mf_oom();
    mf_warning x = {rule, msg, line, 1, {0}, 0};
    note_line(&x, line);
    return add_record(w, &x, true);
}

/* Would adding src's records one by one join any two of them? */
static bool joins_within(const mf_warnings *src)
{
    for (size_t i = 1; i < src->count; i++) {
        const mf_warning *a = &src->items[i - 1], *b = &src->items[i];
        if ((a->rule == b->rule || strcmp(a->rule, b->rule) == 0) && strcmp(a->message, b->message) == 0)
            return true;
    }
    return false;
}

int mf_warnings_take(mf_warnings *dst, mf_warnings *src)
{
    if (dst->count == 0 && src->count <= MF_WARNINGS_MAX && !joins_within(src)) {
        mf_warnings_clear(dst);         /* the common case: the records move as they are */
        *dst = *src;
        memset(src, 0, sizeof *src);
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < src->count; i++) {
        if (rc == 0)
            rc = add_record(dst, &src->items[i], true);
        else
            free(src->items[i].message);
    }
    src->count = 0;
    mf_warnings_clear(src);
    return rc;
}

void mf_warnings_truncate(mf_warnings *w, size_t n)
{
    while (w->count > n)
        free(w->items[--w->count].message);
}

size_t mf_warnings_total(const mf_warnings *w)
{
    size_t n = 0;
    for (size_t i = 0; i < w->count; i++)
        n += w->items[i].count;
    return n;
}

bool mf_warnings_has(const mf_warnings *w, const char *rule) { return mf_warnings_has_since(w, 0, rule); }

bool mf_warnings_has_since(const mf_warnings *w, size_t from, const char *rule)
{
    for (size_t i = from; i < w->count; i++)
        if (w->items[i].rule == rule || (w->items[i].rule && strcmp(w->items[i].rule, rule) == 0))
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

bool mf_error_is_final(const mf_error *e)
{
    static const char *const final[] = {"OUT_OF_MEMORY", "MEMORY_LIMIT", "INPUT_TOO_LARGE",
                                        "NESTING_TOO_DEEP", "TOO_MANY_NODES", NULL};
    for (int i = 0; e->type && final[i]; i++)
        if (strcmp(e->type, final[i]) == 0)
            return true;
    return false;
}

void mf_result_reject_oom(mf_result *r, bool over_budget)
{
    json_decref(r->value);
    r->value = NULL;
    r->status = MF_REJECTED;
    if (over_budget)
        mf_error_set(&r->error, 1, "MEMORY_LIMIT", "", 0, 0, "the value tree needs more memory than its cap "
                     "of %d times the input size plus %d MiB", MF_MEMORY_FACTOR, MF_MEMORY_CONSTANT >> 20);
    else
        mf_error_set(&r->error, 1, "OUT_OF_MEMORY", "", 0, 0, "out of memory while repairing");
}

static json_t *warning_to_json(const mf_warning *w)
{
    json_t *lines = json_array();
    for (int i = 0; i < w->nlines; i++)
        json_array_append_new(lines, json_integer(w->lines[i]));
    return json_pack("{s:s, s:s, s:i, s:I, s:o}", "rule", w->rule, "message", w->message ? w->message : "",
                     "line", w->line, "count", (json_int_t)w->count, "lines", lines);
}

/* json_pack and friends return NULL on OOM; one NULL anywhere fails the whole object. */
static void put(json_t *o, const char *k, json_t *v, bool *ok)
{
    if (!v || json_object_set_new(o, k, v))
        *ok = false;
}

json_t *mf_result_to_json(const mf_result *r)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    bool ok = true;
    put(o, "status", json_string(r->status == MF_ACCEPTED ? "accepted" : "rejected"), &ok);
    put(o, "profile", r->profile ? json_string(r->profile) : json_null(), &ok);
    put(o, "value", r->value ? json_incref(r->value) : json_null(), &ok);
    json_t *ws = json_array();
    for (size_t i = 0; ws && i < r->warnings.count; i++)
        if (json_array_append_new(ws, warning_to_json(&r->warnings.items[i])))
            ok = false;
    put(o, "warnings", ws, &ok);
    put(o, "repair_applied", json_boolean(r->repair_applied), &ok);
    put(o, "candidate", r->candidate ? json_string(r->candidate) : json_null(), &ok);
    if (r->error.tier) {
        put(o, "error", json_pack("{s:i, s:s, s:s, s:i, s:i, s:s}",
            "tier", r->error.tier, "type", r->error.type ? r->error.type : "", "path", r->error.path ? r->error.path : "",
            "line", r->error.line, "column", r->error.column,
            "message", r->error.message ? r->error.message : ""), &ok);
    } else {
        put(o, "error", json_null(), &ok);
    }
    if (!ok) {
        json_decref(o);
        return NULL;
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
