/* cand_prefix.c - transcript prefix stripping (seed 000, Universal Repairs /
 * Candidate Extraction: "Transcript prefix stripping").
 *
 * A model fed a conversation history sometimes echoes role prefixes onto its
 * own lines: "[assistant] schema_version: 1", "[assistant/gpt-4o] - id: Q01".
 * A prefix is '[' + role + optional "/sub/segments" + ']' at the very start of
 * a line, followed by at most one space or tab (which is dropped with it, so
 * the indentation the model wrote after the prefix survives). Roles: assistant,
 * user, system, sys, tool, model, error (any case). One pass over the text. */
#include <ctype.h>
#include <string.h>
#include "cand_internal.h"

#define MF_PREFIX_MAX_SUB 128 /* longest "/sub/segments" part accepted */

static const char *const roles[] = {"assistant", "user", "system", "sys", "tool", "model", "error", NULL};

size_t mf_cand_prefix_len(const char *s, size_t len)
{
    if (len < 3 || s[0] != '[')
        return 0;
    for (const char *const *r = roles; *r; r++) {
        size_t rl = strlen(*r), i = 1 + rl;
        if (i >= len)
            continue;
        size_t k = 0;
        while (k < rl && tolower((unsigned char)s[1 + k]) == (*r)[k])
            k++;
        if (k < rl)
            continue;
        if (s[i] == '/') {
            size_t lim = i + 1 + MF_PREFIX_MAX_SUB;
            while (i < len && i < lim && s[i] != ']' && s[i] != '\n' && s[i] != '[')
                i++;
        }
        if (i >= len || s[i] != ']')
            continue;
        i++;
        if (i < len && (s[i] == ' ' || s[i] == '\t'))
            i++;
        return i;
    }
    return 0;
}

size_t mf_cand_strip_prefixes(const char *s, size_t len, mf_buf *out, int *first)
{
    size_t changed = 0;
    int line = 1;
    *first = 0;
    mf_buf_reset(out);
    for (size_t a = 0; a < len; line++) {
        const char *nl = memchr(s + a, '\n', len - a);
        size_t b = nl ? (size_t)(nl - s) + 1 : len;
        size_t p = 0;
        for (size_t q; (q = mf_cand_prefix_len(s + a + p, b - a - p));)
            p += q;                     /* stacked prefixes: "[tool] [model] " */
        if (p) {
            if (!changed)
                *first = line;
            changed++;
        }
        if (mf_buf_put(out, s + a + p, b - a - p))
            return (size_t)-1;
        a = b;
    }
    if (!out->s && mf_buf_put(out, "", 0))
        return (size_t)-1;
    return changed;
}
