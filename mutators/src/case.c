/* case.c - the structured fuzz case and its text form (encode/decode)
 * documented in mutators.h.
 *
 * Decoding is strict about the header (unknown keys, unknown op ids and a
 * missing profile are errors naming the line) and exact about the artifact:
 * everything after the "---" line is kept byte for byte. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mut_internal.h"

const char *mf_contract_name(mf_contract c)
{
    return c == MF_CONTRACT_RAW ? "raw" : c == MF_CONTRACT_REJECT ? "reject" : c == MF_CONTRACT_SUBSET ? "subset" : "exact";
}

bool mf_case_is_structured(const char *text, size_t len)
{
    size_t m = strlen(MF_CASE_MAGIC);
    return len > m && memcmp(text, MF_CASE_MAGIC, m) == 0 && (text[m] == '\n' || text[m] == '\r');
}

mf_case *mf_case_new(const char *profile, const char *artifact, size_t len)
{
    mf_case *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->profile = strdup(profile);
    c->artifact = malloc(len + 1);
    if (!c->profile || !c->artifact) {
        mf_case_free(c);
        return NULL;
    }
    memcpy(c->artifact, artifact, len);
    c->artifact[len] = '\0';
    c->artifact_len = len;
    return c;
}

int mf_case_add_op(mf_case *c, const mf_op *op, uint64_t seed, const char *params)
{
    if (c->nops >= MF_CASE_MAX_OPS)
        return -1;
    if (c->nops == c->capops) {
        size_t cap = c->capops ? c->capops * 2 : 4;
        mf_case_op *nv = realloc(c->ops, cap * sizeof *nv);
        if (!nv)
            return -1;
        c->ops = nv;
        c->capops = cap;
    }
    char *p = strdup(params ? params : "");
    if (!p)
        return -1;
    c->ops[c->nops++] = (mf_case_op){op, seed, p};
    return 0;
}

void mf_case_free(mf_case *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nops; i++)
        free(c->ops[i].params);
    free(c->ops);
    free(c->profile);
    free(c->artifact);
    json_decref(c->opts);
    free(c);
}

void mf_case_options(const mf_case *c, mf_options *o)
{
    mf_options_from_json(c->opts, o);
}

/* Parse "op: ID seed=N k=v ..." (s points after "op:"). */
static int parse_op(mf_case *c, const char *s, size_t n, char *err, size_t errlen, int line)
{
    char buf[512];
    if (n >= sizeof buf) {
        snprintf(err, errlen, "line %d: op line too long", line);
        return -1;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    char *save = NULL, *tok = strtok_r(buf, " \t\r", &save);
    if (!tok) {
        snprintf(err, errlen, "line %d: op without an id", line);
        return -1;
    }
    const mf_op *op = mf_ops_find(tok);
    if (!op) {
        snprintf(err, errlen, "line %d: unknown op '%s' (see malform ops)", line, tok);
        return -1;
    }
    uint64_t seed = 0;
    char params[512] = "";
    size_t pl = 0;
    while ((tok = strtok_r(NULL, " \t\r", &save))) {
        if (strncmp(tok, "seed=", 5) == 0) {
            char *end;
            seed = strtoull(tok + 5, &end, 0);
            if (*end || end == tok + 5) {
                snprintf(err, errlen, "line %d: bad seed '%s'", line, tok + 5);
                return -1;
            }
            continue;
        }
        const char *eq = strchr(tok, '=');
        if (!eq || eq == tok) {
            snprintf(err, errlen, "line %d: parameter '%s' is not key=value", line, tok);
            return -1;
        }
        pl += (size_t)snprintf(params + pl, sizeof params - pl, "%s%s", pl ? " " : "", tok);
        if (pl >= sizeof params)
            pl = sizeof params - 1;
    }
    if (mf_case_add_op(c, op, seed, params) < 0) {
        snprintf(err, errlen, "line %d: too many ops (max %d)", line, MF_CASE_MAX_OPS);
        return -1;
    }
    return 0;
}

mf_case *mf_case_decode(const char *text, size_t len, char *err, size_t errlen)
{
    if (!mf_case_is_structured(text, len)) {
        snprintf(err, errlen, "line 1: not a structured case (expected '%s')", MF_CASE_MAGIC);
        return NULL;
    }
    mf_case *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    size_t off = 0;
    int line = 0;
    bool body = false;
    while (off < len) {
        const char *s = text + off, *nl = memchr(s, '\n', len - off);
        size_t n = nl ? (size_t)(nl - s) : len - off;
        size_t next = off + n + (nl ? 1 : 0);
        line++;
        size_t t = n;
        while (t > 0 && (s[t - 1] == '\r' || s[t - 1] == ' '))
            t--;
        if (line == 1) {
            off = next;
            continue;
        }
        if (t == 3 && memcmp(s, "---", 3) == 0) {
            off = next;
            body = true;
            break;
        }
        if (t == 0 || s[0] == '#') {
            off = next;
            continue;
        }
        const char *colon = memchr(s, ':', t);
        if (!colon) {
            snprintf(err, errlen, "line %d: expected 'key: value' or '---'", line);
            goto fail;
        }
        size_t kl = (size_t)(colon - s);
        const char *v = colon + 1;
        while (v < s + t && *v == ' ')
            v++;
        size_t vl = (size_t)(s + t - v);
        if (kl == 7 && memcmp(s, "profile", 7) == 0) {
            free(c->profile);
            c->profile = strndup(v, vl);
            if (!c->profile || vl == 0) {
                snprintf(err, errlen, "line %d: empty profile", line);
                goto fail;
            }
        } else if (kl == 4 && memcmp(s, "opts", 4) == 0) {
            json_error_t je;
            json_decref(c->opts);
            c->opts = json_loadb(v, vl, 0, &je);
            if (!json_is_object(c->opts)) {
                snprintf(err, errlen, "line %d: opts must be a JSON object (%s)", line, je.text);
                goto fail;
            }
        } else if (kl == 2 && memcmp(s, "op", 2) == 0) {
            if (parse_op(c, v, vl, err, errlen, line) < 0)
                goto fail;
        } else {
            snprintf(err, errlen, "line %d: unknown header key '%.*s'", line, (int)kl, s);
            goto fail;
        }
        off = next;
    }
    if (!body) {
        snprintf(err, errlen, "line %d: missing '---' before the artifact", line);
        goto fail;
    }
    if (!c->profile) {
        snprintf(err, errlen, "no 'profile:' line");
        goto fail;
    }
    c->artifact_len = len - off;
    c->artifact = malloc(c->artifact_len + 1);
    if (!c->artifact) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    memcpy(c->artifact, text + off, c->artifact_len);
    c->artifact[c->artifact_len] = '\0';
    return c;
fail:
    mf_case_free(c);
    return NULL;
}

char *mf_case_encode(const mf_case *c, size_t *len)
{
    mt_buf b = {0};
    int rc = mt_puts(&b, MF_CASE_MAGIC "\nprofile: ") | mt_puts(&b, c->profile) | mt_putc(&b, '\n');
    if (c->opts) {
        char *o = json_dumps(c->opts, JSON_COMPACT | JSON_SORT_KEYS);
        rc |= o ? mt_puts(&b, "opts: ") | mt_puts(&b, o) | mt_putc(&b, '\n') : -1;
        free(o);
    }
    for (size_t i = 0; i < c->nops; i++) {
        char seed[40];
        snprintf(seed, sizeof seed, " seed=%" PRIu64, c->ops[i].seed);
        rc |= mt_puts(&b, "op: ") | mt_puts(&b, c->ops[i].op->id) | mt_puts(&b, seed);
        if (c->ops[i].params[0])
            rc |= mt_putc(&b, ' ') | mt_puts(&b, c->ops[i].params);
        rc |= mt_putc(&b, '\n');
    }
    rc |= mt_puts(&b, "---\n") | mt_put(&b, c->artifact, c->artifact_len);
    if (rc < 0) {
        mt_free(&b);
        return NULL;
    }
    if (len)
        *len = b.len;
    return b.s;
}
