/* norm_beads.c - the "beads" normalizer (seed 000, "Beads (Blueprint) Artifact").
 *
 * The canonical root is an object whose `beads:` key holds the list (the
 * seed's wrapper spellings tasks / items / issues / work_items are profile
 * aliases of `beads`); a bare list of beads is placed under `beads:`. Then,
 * per bead:
 *   id               missing -> bead-{index+1}; a duplicate gets -2, -3, ...
 *   context_guidance a string ("Patterns:\n- Use X\nAnti-patterns:\n- Avoid Y"
 *                    or inline "Patterns: Use X Anti-patterns: Avoid Y")
 *                    becomes {patterns: [...], anti_patterns: [...]}; text
 *                    with no markers becomes a single pattern
 *   prd_refs         missing -> [] with the seed's "no PRD references"
 *                    warning. An explicit empty list is canonical and silent,
 *                    so normalizing the output again stays warning-free.
 * Duplicate suffixes continue from a per-id counter, so hostile input with a
 * million equal ids stays linear. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "norm.h"

static int bead_ids(json_t *beads, mf_warnings *w)
{
    size_t n = json_array_size(beads);
    json_t *used = json_object(), *seen = json_object(), *next = json_object();
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        const char *id = json_string_value(json_object_get(json_array_get(beads, i), "id"));
        if (id && *id)
            json_object_set_new(used, id, json_true());
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        json_t *b = json_array_get(beads, i);
        if (!json_is_object(b))
            continue;
        json_t *idv = json_object_get(b, "id");
        const char *id = json_string_value(idv);
        bool missing = !idv || json_is_null(idv) || (id && !*id);
        if (!missing && !(id && json_object_get(seen, id))) {
            if (id)
                json_object_set_new(seen, id, json_true());
            continue;
        }
        mf_buf fresh = {0};
        char base[48];
        if (missing)
            snprintf(base, sizeof base, "bead-%zu", i + 1);
        const char *stem = missing ? base : id;
        long long k = missing ? 1 : 2;
        if (json_integer_value(json_object_get(next, stem)) > k)
            k = json_integer_value(json_object_get(next, stem));
        for (;; k++) {
            mf_buf_reset(&fresh);
            if (k == 1)
                mf_buf_puts(&fresh, stem);
            else
                mf_buf_printf(&fresh, "%s-%lld", stem, k);
            if (!json_object_get(used, mf_buf_cstr(&fresh)))
                break;
        }
        json_object_set_new(next, stem, json_integer(k + 1));
        if (missing)
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_BEAD_ID), 0, "Bead at index %zu was missing id. Filled with %s.", i,
                                 mf_buf_cstr(&fresh));
        else
            rc = mf_warnings_add(w, MF_RULE_ID(NORM_BEAD_RENUMBER), 0, "Renumbered duplicate bead id \"%s\" to \"%s\".", id,
                                 mf_buf_cstr(&fresh));
        mf_norm_obj_put(b, "id", json_string(mf_buf_cstr(&fresh)), true);
        json_object_set_new(used, mf_buf_cstr(&fresh), json_true());
        json_object_set_new(seen, mf_buf_cstr(&fresh), json_true());
        mf_buf_free(&fresh);
    }
    json_decref(used);
    json_decref(seen);
    json_decref(next);
    return rc;
}

/* Length of a "patterns:" / "anti-patterns:" marker at s (0 when none); *anti tells which. */
static size_t marker(const char *s, const char *start, bool *anti)
{
    if (s > start && isalnum((unsigned char)s[-1]))
        return 0;
    const char *c = s;
    *anti = false;
    if (strncasecmp(c, "anti", 4) == 0) {
        c += 4;
        if (*c == '-' || *c == '_' || *c == ' ')
            c++;
        *anti = true;
    }
    if (strncasecmp(c, "patterns", 8) != 0)
        return 0;
    c += 8;
    while (*c == ' ' || *c == '\t')
        c++;
    return *c == ':' ? (size_t)(c + 1 - s) : 0;
}

static bool is_bullet(const char *s, size_t n)
{
    return n >= 2 && (s[0] == '-' || s[0] == '*') && (s[1] == ' ' || s[1] == '\t');
}

/* Append the items of segment s[0..n) to list: bullet lines are items
 * (continuation lines join the previous one), otherwise the whole segment,
 * whitespace-collapsed, is one item. */
static void segment_items(const char *s, size_t n, json_t *list)
{
    mf_buf cur = {0};
    bool have = false;
    size_t i = 0;
    while (i < n) {
        size_t e = i;
        while (e < n && s[e] != '\n')
            e++;
        size_t a = i, z = e;
        while (a < z && isspace((unsigned char)s[a]))
            a++;
        while (z > a && isspace((unsigned char)s[z - 1]))
            z--;
        if (is_bullet(s + a, z - a)) {
            if (have)
                json_array_append_new(list, json_string(mf_buf_cstr(&cur)));
            mf_buf_reset(&cur);
            a += 2;
            while (a < z && isspace((unsigned char)s[a]))
                a++;
            mf_buf_put(&cur, s + a, z - a);
            have = true;
        } else if (z > a) {
            if (have && cur.len)
                mf_buf_putc(&cur, ' ');
            mf_buf_put(&cur, s + a, z - a);
            have = true;
        }
        i = e + 1;
    }
    if (have && cur.len)
        json_array_append_new(list, json_string(mf_buf_cstr(&cur)));
    mf_buf_free(&cur);
}

/* {patterns, anti_patterns} from a guidance string (new reference). */
static json_t *guidance_object(const char *s)
{
    json_t *pat = json_array(), *anti = json_array();
    size_t n = strlen(s), seg = 0;
    json_t *into = pat;
    for (size_t i = 0; i < n; i++) {
        bool is_anti;
        size_t m = marker(s + i, s, &is_anti);
        if (!m)
            continue;
        segment_items(s + seg, i - seg, into);
        into = is_anti ? anti : pat;
        i += m - 1;
        seg = i + 1;
    }
    segment_items(s + seg, n - seg, into);
    json_t *obj = json_object();
    json_object_set_new(obj, "patterns", pat);
    json_object_set_new(obj, "anti_patterns", anti);
    return obj;
}

int mf_norm_beads(json_t **root, const mf_profile *p, const mf_options *o,
                  mf_warnings *w, mf_error *err)
{
    (void)p;
    (void)o;
    if (json_is_array(*root)) {
        json_t *obj = json_object();
        json_object_set(obj, "beads", *root);
        json_decref(*root);
        *root = obj;
        if (mf_warnings_add(w, MF_RULE_ID(NORM_BEADS_ROOT), 0, "Placed the bare list of beads under the root key beads."))
            goto oom;
    }
    json_t *beads = json_object_get(*root, "beads");
    if (!json_is_array(beads))
        return 0;
    if (bead_ids(beads, w))
        goto oom;
    for (size_t i = 0; i < json_array_size(beads); i++) {
        json_t *b = json_array_get(beads, i);
        if (!json_is_object(b))
            continue;
        const char *cg = json_string_value(json_object_get(b, "context_guidance"));
        if (cg) {
            json_object_set_new(b, "context_guidance", guidance_object(cg));
            if (mf_warnings_add(w, MF_RULE_ID(NORM_CONTEXT_GUIDANCE), 0,
                                "Canonicalized string context guidance at index %zu into patterns/anti_patterns object.",
                                i))
                goto oom;
        }
        json_t *refs = json_object_get(b, "prd_refs");
        if (!refs || json_is_null(refs)) {
            const char *id = json_string_value(json_object_get(b, "id"));
            json_object_set_new(b, "prd_refs", json_array());
            if (mf_warnings_add(w, MF_RULE_ID(NORM_EMPTY_PRD_REFS), 0, "Bead \"%s\" has no PRD references (prdRefs is empty).",
                                id ? id : ""))
                goto oom;
        }
    }
    return 0;
oom:
    mf_error_set(err, 2, "SCHEMA_VIOLATION", "/beads", 0, 0, "out of memory");
    return -1;
}
