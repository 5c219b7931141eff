/* cmd_inspect.c - `malform inspect [--json] PATH...` and `malform inspect
 * --signature SIG...`: the formats C owns (regression entries and findings,
 * structured cases, failure signatures) parsed by the C code that owns them
 * and printed as JSON, so that reports/ (Python) never parses them again.
 *
 * A PATH is a regression entry or finding (lc_entry.c), a structured case
 * (mutators' mf_case_decode) or a directory of entries (not recursive). Every
 * path gives one item; a file that is neither an entry nor a case is an item
 * of type "other" with the reason, never an error of the command:
 *
 *   {"malform_inspect": 1, "items": [
 *     {"path", "type": "entry"|"case"|"other",
 *      "error": "why it is not an entry or case" (other, or a broken entry),
 *      "entry": {"signature", "kind", "oracle", "profile", "target", "engine",
 *                "first_seen", "status", "reproduce", "original_signature",
 *                "detail", "source", "original_size", "minimized_size", "raw",
 *                "pipeline" (pipelines' `pipeline:` header, null for core)},
 *      "signature": {parsed signature, see below},
 *      "payload": "text" (invalid UTF-8 bytes as U+FFFD),
 *      "payload_base64": "..." (only when the payload is not valid UTF-8),
 *      "case": {"profile", "opts", "ops": [{"id", "seed", "params"}], "artifact"},
 *      "case_error": "why the structured payload did not decode"}]}
 *
 * A signature (lc_outcome.c writes them; findings of pipelines add
 * `pipeline=NAME`) is parsed into
 *   {"signature", "kind", "oracle", "profile", "rules": [..], "ops": [..],
 *    "pipeline", "crash", "frames", "detail" (protocol), "valid"}
 * with absent parts null, "-" id lists empty. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli_args.h"
#include "cli_util.h"
#include "lifecycle.h"
#include "malform/mutators.h"
#include "pl_finding.h"

static const struct option options[] = {
    {"json", no_argument, NULL, 'j'}, {"signature", no_argument, NULL, 's'}, {0}};
static const cli_cmd cmd = {"inspect", "[--json] PATH... | [--json] --signature SIG...",
                            "Print regression entries, findings, structured cases (files, or directories of\n"
                            "entries) or failure signatures as the C code parses them.\n"
                            "  -j, --json        one JSON document {\"malform_inspect\": 1, \"items\": [...]}\n"
                            "  -s, --signature   the operands are signature strings, not paths\n",
                            "js", options};

/* A string that may hold invalid UTF-8: bad bytes become U+FFFD. */
static json_t *text_value(const char *s, size_t n, bool *valid)
{
    json_t *v = json_stringn(s, n);
    if (valid)
        *valid = v != NULL;
    if (v)
        return v;
    char *out = malloc(n * 3 + 1);
    size_t j = 0;
    if (!out)
        return json_null();
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        json_t *probe = len && i + len <= n ? json_stringn(s + i, len) : NULL;
        if (probe) {
            memcpy(out + j, s + i, len);
            j += len;
            i += len;
            json_decref(probe);
        } else {
            memcpy(out + j, "\xef\xbf\xbd", 3);
            j += 3;
            i++;
        }
    }
    v = json_stringn(out, j);
    free(out);
    return v ? v : json_null();
}

static json_t *base64(const unsigned char *s, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1);
    size_t j = 0;
    if (!out)
        return json_null();
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
        out[j++] = tab[v >> 18 & 63];
        out[j++] = tab[v >> 12 & 63];
        out[j++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
        out[j++] = i + 2 < n ? tab[v & 63] : '=';
    }
    json_t *r = json_stringn(out, j);
    free(out);
    return r;
}

static json_t *str_or_null(const char *s)
{
    return s ? text_value(s, strlen(s), NULL) : json_null();
}

/* "a,b,c" as ["a","b","c"]; "-" or "" as []. */
static json_t *id_list(const char *s, size_t n)
{
    json_t *a = json_array();
    if (n == 1 && s[0] == '-')
        return a;
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k < n && s[k] != ',')
            k++;
        if (k > i)
            json_array_append_new(a, json_stringn(s + i, k - i));
        i = k + 1;
    }
    return a;
}

/* The parts of a failure signature (the inverse of lc_outcome.c's set_sig,
 * plus the `pipeline=NAME` of pipeline findings). */
static json_t *signature_fields(const char *sig)
{
    static const char *kinds[] = {"oracle", "crash", "timeout", "oom", "leak", "protocol"};
    json_t *o = json_pack("{s:o,s:n,s:n,s:n,s:[],s:[],s:n,s:n,s:n,s:n,s:b}", "signature", str_or_null(sig), "kind",
                          "oracle", "profile", "rules", "ops", "pipeline", "crash", "frames", "detail", "valid", 0);
    if (!sig || !o)
        return o;
    const char *p = sig, *end = sig + strlen(sig);
    size_t kl = strcspn(p, " ");
    bool known = false;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        known |= strlen(kinds[i]) == kl && !strncmp(p, kinds[i], kl);
    if (!known)
        return o;
    json_object_set_new(o, "kind", json_stringn(p, kl));
    bool oracle = kl == 6 && !strncmp(p, "oracle", 6);
    char words[720] = "";
    size_t wn = 0, nwords = 0;
    for (p += kl; p < end;) {
        while (p < end && *p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        const char *eq = memchr(p, '=', n);
        char key[16] = "";
        if (eq && eq > p && eq - p < (long)sizeof key)
            snprintf(key, sizeof key, "%.*s", (int)(eq - p), p);
        if (!strcmp(key, "profile") || !strcmp(key, "rules") || !strcmp(key, "ops") || !strcmp(key, "pipeline")) {
            size_t vn = (size_t)(p + n - eq - 1);
            if (!strcmp(key, "rules") || !strcmp(key, "ops"))
                json_object_set_new(o, key, id_list(eq + 1, vn));
            else if (vn == 1 && eq[1] == '-')
                json_object_set_new(o, key, json_null());
            else
                json_object_set_new(o, key, json_stringn(eq + 1, vn));
        } else if (oracle && nwords == 0) {
            json_object_set_new(o, "oracle", json_stringn(p, n));
            nwords++;
        } else if (wn + n + 2 < sizeof words) {
            wn += (size_t)snprintf(words + wn, sizeof words - wn, "%s%.*s", wn ? " " : "", (int)n, p);
            nwords++;
        }
        p += n;
    }
    if (!oracle && wn) {
        /* crash: "<kind> <frames>"; timeout/oom/leak: "<frames>"; protocol: "<what>" */
        const char *rest = words;
        if (kl == 5 && !strncmp(sig, "crash", 5)) {
            size_t cn = strcspn(words, " ");
            if (((cn == 4 && !strncmp(words, "exit", 4)) || (cn == 9 && !strncmp(words, "exception", 9))) && words[cn])
                cn += 1 + strcspn(words + cn + 1, " ");   /* "exit N", "exception TYPE" (pipeline workers) */
            json_object_set_new(o, "crash", json_stringn(words, cn));
            rest = words[cn] ? words + cn + 1 : "";
        } else if (kl == 8 && !strncmp(sig, "protocol", 8)) {
            json_object_set_new(o, "detail", json_string(words));
            rest = "";
        }
        if (*rest && strcmp(rest, "-"))
            json_object_set_new(o, "frames", json_string(rest));
    }
    json_object_set_new(o, "valid", json_boolean(!oracle || json_is_string(json_object_get(o, "oracle"))));
    return o;
}

static json_t *case_json(const mf_case *c)
{
    json_t *ops = json_array();
    for (size_t i = 0; i < c->nops; i++)
        json_array_append_new(ops, json_pack("{s:s,s:I,s:s}", "id", c->ops[i].op->id, "seed",
                                             (json_int_t)c->ops[i].seed, "params", c->ops[i].params ? c->ops[i].params : ""));
    return json_pack("{s:o,s:O,s:o,s:o}", "profile", str_or_null(c->profile), "opts", c->opts ? c->opts : json_null(),
                     "ops", ops, "artifact", text_value(c->artifact, c->artifact_len, NULL));
}

/* Payload (and its case, when structured) into item. */
static void add_payload(json_t *item, const char *data, size_t len)
{
    bool utf8;
    json_object_set_new(item, "payload", text_value(data, len, &utf8));
    if (!utf8)
        json_object_set_new(item, "payload_base64", base64((const unsigned char *)data, len));
    if (!mf_case_is_structured(data, len))
        return;
    char err[256];
    mf_case *c = mf_case_decode(data, len, err, sizeof err);
    if (c)
        json_object_set_new(item, "case", case_json(c));
    else
        json_object_set_new(item, "case_error", json_string(err));
    mf_case_free(c);
}

static json_t *entry_json(const mf_lc_entry *e)
{
    json_t *o = json_object();
    const struct { const char *k, *v; } kv[] = {
        {"signature", e->signature}, {"kind", e->kind}, {"oracle", e->oracle}, {"profile", e->profile},
        {"target", e->target}, {"engine", e->engine}, {"first_seen", e->first_seen}, {"status", e->status},
        {"reproduce", e->reproduce}, {"original_signature", e->original_signature}, {"detail", e->detail},
        {"source", e->source}};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
        json_object_set_new(o, kv[i].k, str_or_null(kv[i].v));
    json_object_set_new(o, "original_size", e->original_size ? json_integer(e->original_size) : json_null());
    json_object_set_new(o, "minimized_size", e->minimized_size ? json_integer(e->minimized_size) : json_null());
    json_object_set_new(o, "raw", json_boolean(e->raw));
    return o;
}

static json_t *inspect_file(const char *path)
{
    json_t *item = json_pack("{s:s}", "path", path);
    size_t len;
    char *text = mf_lc_read(path, &len);
    if (!text) {
        json_object_set_new(item, "type", json_string("other"));
        json_object_set_new(item, "error", json_sprintf("cannot read: %s", strerror(errno)));
        return item;
    }
    size_t ml = strlen(MF_LC_ENTRY_MAGIC);
    if (len >= ml && !memcmp(text, MF_LC_ENTRY_MAGIC, ml)) {
        mf_lc_entry e;
        char err[256];
        json_object_set_new(item, "type", json_string("entry"));
        if (mf_lc_entry_read(path, &e, err, sizeof err) == 0) {
            json_t *ej = entry_json(&e);
            char *pipeline = mf_pl_entry_pipeline(text, len);   /* the `pipeline:` header of pipeline entries */
            json_object_set_new(ej, "pipeline", str_or_null(pipeline));
            free(pipeline);
            json_object_set_new(item, "entry", ej);
            json_object_set_new(item, "signature", signature_fields(e.signature));
            add_payload(item, (const char *)e.payload, e.payload_len);
            mf_lc_entry_free(&e);
        } else {
            json_object_set_new(item, "error", json_string(err));
        }
    } else if (mf_case_is_structured(text, len)) {
        json_object_set_new(item, "type", json_string("case"));
        add_payload(item, text, len);
        json_object_del(item, "payload");
        json_object_del(item, "payload_base64");
        if (json_object_get(item, "case_error"))
            json_object_set(item, "error", json_object_get(item, "case_error"));
    } else {
        json_object_set_new(item, "type", json_string("other"));
        json_object_set_new(item, "error", json_sprintf("neither a regression entry ('%s') nor a structured case ('%s')",
                                                        MF_LC_ENTRY_MAGIC, MF_CASE_MAGIC));
    }
    free(text);
    return item;
}

static void print_text(const json_t *item)
{
    const char *type = json_string_value(json_object_get(item, "type"));
    const char *path = json_string_value(json_object_get(item, "path"));
    const char *err = json_string_value(json_object_get(item, "error"));
    json_t *e = json_object_get(item, "entry"), *c = json_object_get(item, "case");
    if (!path) {
        const json_t *s = json_object_get(item, "signature");
        printf("%s\n  kind: %s\n", json_string_value(json_object_get(s, "signature")),
               json_is_string(json_object_get(s, "kind")) ? json_string_value(json_object_get(s, "kind")) : "(not a signature)");
        const char *keys[] = {"oracle", "profile", "pipeline", "crash", "frames", "detail"};
        for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
            if (json_is_string(json_object_get(s, keys[i])))
                printf("  %s: %s\n", keys[i], json_string_value(json_object_get(s, keys[i])));
        return;
    }
    printf("%s: %s", path, type);
    if (e)
        printf(" %s %s", json_string_value(json_object_get(e, "status")),
               json_string_value(json_object_get(e, "signature")));
    else if (c)
        printf(" profile=%s ops=%zu", json_string_value(json_object_get(c, "profile")),
               json_array_size(json_object_get(c, "ops")));
    if (err)
        printf(" (%s)", err);
    putchar('\n');
}

int cmd_inspect(int argc, char **argv)
{
    bool json = false, sigs = false;
    int opt, rc;
    while ((opt = cli_next_option(&cmd, argc, argv, &rc)) != -1) {
        if (opt == CLI_EXIT)
            return rc;
        if (opt == 'j')
            json = true;
        else
            sigs = true;
    }
    if (optind >= argc)
        return cli_usage_error(&cmd, "nothing to inspect: give PATHs (or SIGs with --signature)");
    json_t *items = json_array();
    rc = 0;
    for (int i = optind; i < argc; i++) {
        struct stat st;
        if (sigs) {
            json_array_append_new(items, json_pack("{s:o}", "signature", signature_fields(argv[i])));
        } else if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "malform inspect: %s: %s\n", argv[i], strerror(errno));
            rc = 2;
        } else if (S_ISDIR(st.st_mode)) {
            char **paths = mf_lc_entry_list(argv[i], NULL);
            for (size_t k = 0; paths && paths[k]; k++)
                json_array_append_new(items, inspect_file(paths[k]));
            mf_lc_paths_free(paths);
        } else {
            json_array_append_new(items, inspect_file(argv[i]));
        }
    }
    if (json) {
        json_t *doc = json_pack("{s:i,s:o}", "malform_inspect", 1, "items", items);
        if (json_dumpf(doc, stdout, JSON_INDENT(1)) == 0)
            putchar('\n');
        json_decref(doc);
    } else {
        size_t i;
        json_t *it;
        json_array_foreach(items, i, it)
            print_text(it);
        json_decref(items);
    }
    return rc;
}
