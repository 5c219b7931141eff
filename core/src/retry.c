/* retry.c - retry budget and retry feedback (seed 004, "Retry Strategy").
 *
 * The budget follows the seed's RetryBudget: tier 1 (syntax) 2 retries,
 * tier 2 (schema) 2, tier 3 (semantic) 1, and 3 in total. A rejected attempt
 * is granted a retry when its tier and the total both have room, and the
 * grant consumes one of each; so the seed's "Attempt 1: YAML_SYNTAX_ERROR,
 * Attempt 2: GLOB_MISMATCH, Attempt 3: GLOB_MISMATCH" ends after attempt 3
 * with the tier-3 budget spent. An error of another tier (PROMPT_ECHO is
 * tier 1, INPUT_TOO_LARGE too) counts against tier 1.
 *
 * The feedback text is the seed's build_retry_prompt without the original
 * prompt (the caller has it): the history of rejected attempts with error
 * type, message, line and dotted path, then a requirements reminder drawn
 * from the profile and options. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "malform/retry.h"

typedef struct {
    bool accepted;
    mf_error err;   /* err.type points at type_copy */
    char *type_copy;
} attempt;

struct mf_retry {
    int budget[4], left[4];   /* [0] total, [1..3] per tier */
    attempt *items;
    size_t count, cap;
    bool granted;
};

mf_retry *mf_retry_new_budget(int tier1, int tier2, int tier3, int total)
{
    mf_retry *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->budget[0] = total, r->budget[1] = tier1, r->budget[2] = tier2, r->budget[3] = tier3;
    memcpy(r->left, r->budget, sizeof r->left);
    return r;
}

mf_retry *mf_retry_new(void)
{
    return mf_retry_new_budget(MF_RETRY_TIER1, MF_RETRY_TIER2, MF_RETRY_TIER3, MF_RETRY_TOTAL);
}

static void forget(mf_retry *r)
{
    for (size_t i = 0; i < r->count; i++) {
        mf_error_clear(&r->items[i].err);
        free(r->items[i].type_copy);
    }
    r->count = 0;
    r->granted = false;
}

void mf_retry_free(mf_retry *r)
{
    if (!r)
        return;
    forget(r);
    free(r->items);
    free(r);
}

static int add(mf_retry *r, bool accepted, int tier, const char *type, const char *path, int line,
               int column, const char *message)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 4;
        attempt *n = realloc(r->items, cap * sizeof *n);
        if (!n)
            return -1;
        r->items = n, r->cap = cap;
    }
    attempt *a = &r->items[r->count];
    memset(a, 0, sizeof *a);
    a->accepted = accepted;
    r->granted = false;
    if (!accepted) {
        a->type_copy = mf_strdup0(type ? type : "UNKNOWN_ERROR");
        mf_error_set(&a->err, tier, a->type_copy, path, line, column, "%s", message ? message : "");
        int t = tier >= 1 && tier <= 3 ? tier : 1;
        if (r->left[0] > 0 && r->left[t] > 0) {
            r->left[0]--;
            r->left[t]--;
            r->granted = true;
        }
    }
    r->count++;
    return r->granted ? 1 : 0;
}

int mf_retry_record_error(mf_retry *r, const mf_error *e)
{
    return add(r, false, e->tier, e->type, e->path, e->line, e->column, e->message);
}

int mf_retry_record(mf_retry *r, const mf_result *res)
{
    if (res->status == MF_ACCEPTED)
        return add(r, true, 0, NULL, NULL, 0, 0, NULL);
    return mf_retry_record_error(r, &res->error);
}

bool mf_retry_should_retry(const mf_retry *r)
{
    return r->granted;
}

bool mf_retry_succeeded(const mf_retry *r)
{
    return r->count > 0 && r->items[r->count - 1].accepted;
}

int mf_retry_remaining(const mf_retry *r, int tier)
{
    return tier >= 0 && tier <= 3 ? r->left[tier] : -1;
}

size_t mf_retry_count(const mf_retry *r)
{
    return r->count;
}

const mf_error *mf_retry_error_at(const mf_retry *r, size_t i)
{
    return i < r->count ? &r->items[i].err : NULL;
}

void mf_retry_add_hint(mf_retry *r)
{
    for (int t = 1; t <= 3; t++)
        if (r->left[t] < 1)
            r->left[t] = 1;
    r->left[0]++;
}

void mf_retry_reset(mf_retry *r)
{
    forget(r);
    memcpy(r->left, r->budget, sizeof r->left);
}

/* "/extract/client/from" -> "extract.client.from" (JSON pointer unescaped). */
static void dotted(mf_buf *b, const char *ptr)
{
    for (const char *c = ptr; *c; c++) {
        if (*c == '/') {
            if (c != ptr)
                mf_buf_putc(b, '.');
        } else if (*c == '~' && (c[1] == '0' || c[1] == '1')) {
            mf_buf_putc(b, c[1] == '0' ? '~' : '/');
            c++;
        } else {
            mf_buf_putc(b, *c);
        }
    }
}

static void reminder(mf_buf *b, const mf_profile *p, const mf_options *o)
{
    const json_t *req = p && p->schema ? json_object_get(p->schema, "required") : NULL;
    const json_t *files = mf_options_context(o, p, "expected_files"), *samples = mf_options_context(o, p, "sample_paths");
    if (json_array_size(req) || json_array_size(files)) {
        mf_buf_puts(b, "\n---\nREQUIREMENTS REMINDER:\n");
        if (json_array_size(req)) {
            mf_buf_printf(b, "- %s must have: ", p->name);
            for (size_t i = 0; i < json_array_size(req); i++)
                mf_buf_printf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(req, i)));
            mf_buf_printf(b, "\n- output %s only, no prose around it\n",
                          p->format == MF_FORMAT_JSON ? "valid JSON" : "valid YAML");
        }
        if (json_array_size(files)) {
            mf_buf_printf(b, "- ALL %zu files must be present, filename matching exactly: ", json_array_size(files));
            for (size_t i = 0; i < json_array_size(files); i++)
                mf_buf_printf(b, "%s%s", i ? ", " : "", json_string_value(json_array_get(files, i)));
            mf_buf_putc(b, '\n');
        }
    }
    if (json_array_size(samples)) {
        mf_buf_puts(b, "\n---\nSAMPLE PATHS TO MATCH:\n");
        for (size_t i = 0; i < json_array_size(samples) && i < 3; i++)
            mf_buf_printf(b, "  - %s\n", json_string_value(json_array_get(samples, i)));
    }
}

char *mf_retry_feedback(const mf_retry *r, const mf_profile *p, const mf_options *o)
{
    mf_buf b = {0};
    mf_buf_puts(&b, "---\nPREVIOUS ATTEMPTS AND ERRORS:\n");
    for (size_t i = 0; i < r->count; i++) {
        const attempt *a = &r->items[i];
        if (a->accepted)
            continue;
        mf_buf_printf(&b, "\nAttempt %zu: %s\n  Error: %s\n", i + 1, a->err.type,
                      a->err.message ? a->err.message : "");
        if (a->err.line > 0)
            mf_buf_printf(&b, "  Line: %d\n", a->err.line);
        if (a->err.path && *a->err.path) {
            mf_buf_puts(&b, "  Path: ");
            dotted(&b, a->err.path);
            mf_buf_putc(&b, '\n');
        }
    }
    reminder(&b, p, o);
    return mf_buf_detach(&b);
}

char *mf_retry_feedback_from_json(const json_t *attempts, const mf_profile *p,
                                  const mf_options *o, char *err, size_t errlen)
{
    if (!json_is_array(attempts)) {
        snprintf(err, errlen, "expected a JSON array of attempt results");
        return NULL;
    }
    mf_retry *r = mf_retry_new_budget(0, 0, 0, 0);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(attempts); i++) {
        const json_t *a = json_array_get(attempts, i);
        const char *status = json_string_value(json_object_get(a, "status"));
        const json_t *e = json_object_get(a, "error");
        if (!json_is_object(a) || !status || (strcmp(status, "accepted") && strcmp(status, "rejected"))) {
            snprintf(err, errlen, "attempt %zu: not a result object (status must be accepted or rejected)", i + 1);
            mf_retry_free(r);
            return NULL;
        }
        if (strcmp(status, "accepted") == 0) {
            add(r, true, 0, NULL, NULL, 0, 0, NULL);
            continue;
        }
        if (!json_is_object(e) || !json_is_string(json_object_get(e, "type"))) {
            snprintf(err, errlen, "attempt %zu: a rejected result needs an error object with a type", i + 1);
            mf_retry_free(r);
            return NULL;
        }
        add(r, false, (int)json_integer_value(json_object_get(e, "tier")),
            json_string_value(json_object_get(e, "type")), json_string_value(json_object_get(e, "path")),
            (int)json_integer_value(json_object_get(e, "line")), (int)json_integer_value(json_object_get(e, "column")),
            json_string_value(json_object_get(e, "message")));
    }
    char *text = mf_retry_feedback(r, p, o);
    mf_retry_free(r);
    return text;
}
