/* yaml_load.c - YAML text to a jansson value, typed by the YAML 1.2 core schema.
 *
 * libyaml's event parser drives a small stack machine: each mapping or
 * sequence start pushes a frame, each scalar, alias or finished collection is
 * "emitted" into the frame on top. Plain scalars are typed by the core schema
 * (null, bool, int, float; everything else, including YAML 1.1's yes/no, is a
 * string), except under keys the profile names as string fields, where a plain
 * scalar keeps its text. Duplicate keys are a syntax error (YAML forbids them
 * and picking one would silently drop data). Depth and total node count
 * (including alias expansion) are capped so hostile input stays bounded:
 * every anchor remembers how many nodes it holds, so an alias is counted
 * against the caps before it is copied, and the nodes aliases add may not
 * exceed an eighth of the text's length plus MF_ALIAS_NODES_MIN ("billion
 * laughs" stops at the first alias over it). Each cap and out-of-memory is
 * its own error type (NESTING_TOO_DEEP, TOO_MANY_NODES, OUT_OF_MEMORY).
 *
 * A quoted scalar whose later line sits at or left of its block collection's
 * column (a mapping's keys, a sequence's dashes) and reads as an entry there
 * (`key: v` with a one-word key, `- x`) is a syntax error, as YAML 1.2 says of such a line
 * (yaml-test-suite QB6E), though libyaml reads it into the value: it is the
 * shape of a closing quote left out (or a stray opening one), which swallows
 * the entries below, and which of the two the text meant is not known. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <yaml.h>
#include "json_strict.h"
#include "schema_compile.h"
#include "yaml_fast.h"

#define MF_DEFAULT_MAX_NODES 4000000
#define MF_ALIAS_NODES_MIN 10000
#define INTERN_SLOTS 4096     /* recent scalars of up to INTERN_MAX_LEN bytes, shared instead of copied (at most) */
#define INTERN_MIN_SLOTS 64
#define INTERN_MAX_LEN 128

typedef struct {
    json_t *node;       /* the collection being filled */
    bool is_map;
    bool strings;       /* plain scalars in this frame stay strings */
    bool key_strings;   /* map: the pending key is a string field */
    bool key_list;      /* map: ... declared a list, so an empty value stays null */
    char *key;          /* map: pending key, NULL when expecting a key */
    char *anchor;       /* anchor of this collection, registered when it ends */
    size_t first_node;  /* loader's node count when the collection started */
    long col;           /* block collection: column of its first key or dash; flow: -1 */
} frame;

typedef struct {
    frame *st;
    size_t depth, cap;
    json_t *anchors;    /* anchor name -> value */
    json_t *anchor_nodes; /* anchor name -> node count of its value */
    json_t *docs;       /* finished documents, once there are two (the first is in doc1) */
    json_t *doc1;       /* the first finished document */
    size_t ndocs;
    json_t *root;       /* current document's root */
    size_t nodes, alias_nodes;
    size_t max_nodes, max_alias_nodes;
    size_t key_bytes, max_key_bytes; /* text of collection keys written as JSON (each nesting level escapes the one inside) */
    const mf_yaml_load_opts *o;
    size_t oom_before;  /* mf_oom_count() when loading began */
    mf_error *err;
    int line, col;      /* position of the current event */
    const char *text;   /* the text libyaml reads, and a cursor in it: */
    size_t text_len, cur_off, cur_line; /* the offset where line cur_line (0-based) starts */
    const mf_keymap *keys; /* the profile's key flags (MF_K_*), NULL when no key needs a look */
    const json_t *key_map; /* the profile's key aliasing map, NULL when aliasing is off */
    json_t **intern;    /* scalar values are never changed in place, so equal ones can be one json_t */
    uint32_t *intern_tag; /* per slot: the high bits of its value's hash, compared before the value is read */
    size_t intern_mask; /* slots - 1: a power of two, about one slot per 32 bytes of text (one block under 64 KB) */
} loader;

static bool all_digits(const char *s, size_t n, int base)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        bool ok = base == 8    ? c >= '0' && c <= '7'
                  : base == 10 ? c >= '0' && c <= '9'
                               : (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
        if (!ok)
            return false;
    }
    return true;
}

static bool is_core_float(const char *s, size_t n)
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
    if (digits == 0)
        return false;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+'))
            i++;
        size_t e = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++, e++;
        if (e == 0)
            return false;
    }
    return i == n;
}

/* What the core schema makes of a plain scalar's text, decided without building a value. */
typedef enum { PLAIN_NULL, PLAIN_TRUE, PLAIN_FALSE, PLAIN_INT, PLAIN_FLOAT, PLAIN_STRING } plain_kind;

static bool one_of3(const char *s, size_t n, const char *lower, const char *title, const char *upper)
{
    return memcmp(s, lower, n) == 0 || memcmp(s, title, n) == 0 || memcmp(s, upper, n) == 0;
}

/* The integer base of s (8 for 0o.., 16 for 0x.., 10), or 0 when it is no integer. */
static int int_base(const char *s, size_t n)
{
    if (n > 2 && s[0] == '0' && s[1] == 'o' && all_digits(s + 2, n - 2, 8))
        return 8;
    if (n > 2 && s[0] == '0' && s[1] == 'x' && all_digits(s + 2, n - 2, 16))
        return 16;
    if (all_digits(s, n, 10) || (n > 1 && (s[0] == '-' || s[0] == '+') && all_digits(s + 1, n - 1, 10)))
        return 10;
    return 0;
}

static plain_kind classify_plain(const char *s, size_t n)
{
    if (n == 0 || (n == 1 && s[0] == '~') || (n == 4 && one_of3(s, n, "null", "Null", "NULL")))
        return PLAIN_NULL;
    if (n == 4 && one_of3(s, n, "true", "True", "TRUE"))
        return PLAIN_TRUE;
    if (n == 5 && one_of3(s, n, "false", "False", "FALSE"))
        return PLAIN_FALSE;
    unsigned char c = (unsigned char)s[0];
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.'))
        return PLAIN_STRING; /* every number starts so */
    if (int_base(s, n))
        return PLAIN_INT;
    return is_core_float(s, n) ? PLAIN_FLOAT : PLAIN_STRING;
}

json_t *mf_yaml_plain_value(const char *s, size_t n)
{
    plain_kind k = classify_plain(s, n);
    switch (k) {
    case PLAIN_NULL: return json_null();
    case PLAIN_TRUE: return json_true();
    case PLAIN_FALSE: return json_false();
    case PLAIN_STRING: return json_stringn_nocheck(s, n);
    default: break;
    }
    /* a number of any length is one (`.666...` of 65 digits is the float 0.666..., as a
     * strict YAML 1.2 load reads it: main job 9d9f0c2b-r1215a3f1) */
    char small[72], *tmp = n < sizeof small ? small : malloc(n + 1);
    if (!tmp)
        return NULL;
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    json_t *v;
    if (k == PLAIN_INT) {
        int base = int_base(tmp, n);
        errno = 0;
        long long x = strtoll(base == 10 ? tmp : tmp + 2, NULL, base);
        bool fits = errno == 0;
        double r = fits ? 0 : strtod(tmp, NULL);
        v = fits ? json_integer(x) : base == 10 && isfinite(r) ? json_real(r) : json_stringn_nocheck(s, n);
    } else {
        double r = strtod(tmp, NULL);
        /* .inf / .nan have no JSON form: they stay text, quoted on output. */
        v = isfinite(r) ? json_real(r) : json_stringn_nocheck(s, n);
    }
    if (tmp != small)
        free(tmp);
    return v;
}

static int fail_as(loader *L, const char *type, const char *fmt, const char *arg)
{
    if (!L->err->tier)
        mf_error_set(L->err, 1, type, "", L->line, L->col, fmt, arg);
    return -1;
}

static int fail(loader *L, const char *fmt, const char *arg)
{
    return fail_as(L, "YAML_SYNTAX_ERROR", fmt, arg);
}

static int fail_cap(loader *L, const char *fmt, size_t cap)
{
    char text[24];
    snprintf(text, sizeof text, "%zu", cap);
    return fail_as(L, "TOO_MANY_NODES", fmt, text);
}

static int fail_oom(loader *L)
{
    mf_oom();
    return fail_as(L, "OUT_OF_MEMORY", "%s", "out of memory while loading YAML");
}

/* Remember anchor -> (value, node count); the count lets an alias be capped before it is copied. */
static int register_anchor(loader *L, const char *anchor, json_t *v, size_t nodes)
{
    if (!L->anchors && !(L->anchors = json_object()))
        return fail_oom(L);
    if (!L->anchor_nodes && !(L->anchor_nodes = json_object()))
        return fail_oom(L);
    if (json_object_set(L->anchors, anchor, v) ||
        json_object_set_new(L->anchor_nodes, anchor, json_integer((json_int_t)nodes)))
        return fail_oom(L);
    return 0;
}

/* Is an empty plain value added to frame f null although its key is a string
 * field? So it is when the field is a list: "" would be no list either. */
static bool empty_list_value(const frame *f, size_t n)
{
    return n == 0 && f->is_map && f->key && f->key_list;
}

/* Is the plain scalar s a null added to frame f although its key is a string
 * field? So it is when the field is a list and the text spells null (`null`,
 * `~`, or nothing): the string "null" would be no list either, and the
 * canonical output writes that null as `null` (idempotence; run 8 0dec2039). */
static bool null_list_value(const frame *f, const char *s, size_t n)
{
    return f->is_map && f->key && f->key_list && classify_plain(s, n) == PLAIN_NULL;
}

/* Do plain scalars added to frame f stay strings? Map values: when the key is
 * a string field; sequence items: when the sequence is such a key's value. */
static bool frame_strings(const frame *f)
{
    return f->is_map ? f->key && f->key_strings : f->strings;
}

/* f->key was just set: is it a string field, and would key aliasing rename or drop it? One probe answers both. */
static void note_key(loader *L, frame *f)
{
    f->key_strings = f->key_list = false;
    if (!L->keys)
        return;
    size_t len = strlen(f->key);
    const mf_kslot *k = mf_keymap_find(L->keys, f->key, len, mf_keymap_hash(f->key, len));
    unsigned flags = k ? k->flags : 0;
    const char *c;
    if (!k && L->key_map && (c = mf_norm_key_canonical(L->key_map, f->key)) != NULL) {
        /* another spelling of a key ("APPROVEDAT" for approved_at): its value is read as the key's */
        size_t cn = strlen(c);
        const mf_kslot *ck = mf_keymap_find(L->keys, c, cn, mf_keymap_hash(c, cn));
        flags = ck ? ck->flags & (MF_K_STRING | MF_K_LIST) : 0;
    }
    f->key_strings = flags & MF_K_STRING;
    f->key_list = flags & MF_K_LIST;
    if (L->key_map && !(flags & MF_K_CANONICAL) && !*L->o->renamed_key)
        *L->o->renamed_key = mf_norm_key_renamed(L->key_map, f->key);
}

/* Add a finished node (reference stolen) to the frame on top, or make it the root. */
static int emit(loader *L, json_t *v, const char *anchor, const char *key_text, size_t nodes)
{
    if (!v)
        return mf_oom_count() != L->oom_before ? fail_oom(L) : fail(L, "%s", "invalid unicode in scalar");
    if (anchor && register_anchor(L, anchor, v, nodes)) {
        json_decref(v);
        return -1;
    }
    if (L->depth == 0) {
        json_decref(L->root);
        L->root = v;
        return 0;
    }
    frame *f = &L->st[L->depth - 1];
    if (!f->is_map)
        return json_array_append_new(f->node, v) ? fail_oom(L) : 0;
    if (!f->key) {
        bool collection = !key_text && (json_is_object(v) || json_is_array(v));
        if (key_text) {
            f->key = mf_strdup0(key_text);
        } else if (json_is_string(v)) {
            f->key = mf_strdup0(json_string_value(v));
        } else {
            f->key = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_SORT_KEYS);
        }
        json_decref(v);
        if (!f->key)
            return fail_oom(L);
        if (collection && (L->key_bytes += strlen(f->key)) > L->max_key_bytes) {
            char lim[24];
            snprintf(lim, sizeof lim, "%zu", L->max_key_bytes);
            return fail_as(L, "MEMORY_LIMIT", "mapping keys that are collections pass %s bytes as text "
                           "(each nested key level escapes the one inside it)", lim);
        }
        note_key(L, f);
        return 0;
    }
    size_t before = json_object_size(f->node);
    if (json_object_set_new_nocheck(f->node, f->key, v)) /* libyaml checked UTF-8 */
        return fail_oom(L);
    if (json_object_size(f->node) == before) /* the key was there: the load fails, so the replaced value is moot */
        return fail(L, "found duplicate mapping key \"%s\" with a different value", f->key);
    free(f->key);
    f->key = NULL;
    return 0;
}

static int push(loader *L, json_t *node, bool is_map, const char *anchor, long col)
{
    int max_depth = L->o && L->o->max_depth ? L->o->max_depth : MF_DEFAULT_MAX_DEPTH;
    if (!node)
        return fail_oom(L);
    if ((int)L->depth >= max_depth) {
        json_decref(node);
        char lim[24];
        snprintf(lim, sizeof lim, "%d", max_depth);
        return fail_as(L, "NESTING_TOO_DEEP", "nesting deeper than %s levels (the depth cap)", lim);
    }
    if (L->depth == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 16;
        frame *st = realloc(L->st, cap * sizeof *st);
        if (!st) {
            json_decref(node);
            return fail_oom(L);
        }
        L->st = st;
        L->cap = cap;
    }
    bool strings = L->depth > 0 && frame_strings(&L->st[L->depth - 1]);
    char *a = mf_strdup0(anchor);
    if (anchor && !a) {
        json_decref(node);
        return fail_oom(L);
    }
    L->st[L->depth++] = (frame){.node = node, .is_map = is_map, .strings = strings, .anchor = a, .first_node = L->nodes,
                               .col = col};
    return 0;
}

static int pop(loader *L)
{
    frame f = L->st[--L->depth];
    free(f.key);
    int rc = emit(L, f.node, f.anchor, NULL, L->nodes - f.first_node + 1);
    free(f.anchor);
    return rc;
}

static uint64_t text_hash(const char *s, size_t n)
{
    return mf_keymap_hash(s, n);
}

static size_t slot_of(const loader *L, uint64_t h)
{
    return (h ^ (h >> 29)) & L->intern_mask;
}

/* Make v (a new value with hash h) the shared one of its slot, replacing the
 * one there: the latest wins, so a value repeated from some point on is
 * shared from then on whatever came before it. */
static void intern_keep(loader *L, size_t i, uint64_t h, json_t *v)
{
    json_decref(L->intern[i]);
    L->intern[i] = json_incref(v);
    L->intern_tag[i] = (uint32_t)(h >> 32);
}

/* The string s[0..n), shared with an equal one seen recently: a list of a
 * million "- a" items holds one string, not a million. The table is probed
 * before a value is built, so a repeat costs no allocation, and a slot's hash
 * tag is compared before its value is read. utf8: check the bytes (escapes
 * like "\ud800" in double quotes; libyaml checked the rest). */
static json_t *string_scalar(loader *L, const char *s, size_t n, bool utf8)
{
    bool share = L->intern && n <= INTERN_MAX_LEN;
    uint64_t h = share ? text_hash(s, n) : 0;
    size_t i = share ? slot_of(L, h) : 0;
    if (share) {
        json_t *old = L->intern[i];
        if (old && L->intern_tag[i] == (uint32_t)(h >> 32) && json_is_string(old) &&
            json_string_length(old) == n && memcmp(json_string_value(old), s, n) == 0)
            return json_incref(old);
    }
    if (utf8 && !mf_utf8_valid(s, n)) /* what json_stringn checks, eight ASCII bytes at a time */
        return NULL;
    json_t *v = json_stringn_nocheck(s, n);
    if (v && share)
        intern_keep(L, i, h, v);
    return v;
}

/* v (an integer, or the string a number's text fell back to), or an equal one seen recently (v released). */
static json_t *intern(loader *L, json_t *v)
{
    uint64_t h;
    if (json_is_string(v) && json_string_length(v) <= INTERN_MAX_LEN)
        h = text_hash(json_string_value(v), json_string_length(v));
    else if (json_is_integer(v))
        h = ((uint64_t)json_integer_value(v) + 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    else
        return v;
    if (!L->intern)
        return v;
    size_t i = slot_of(L, h);
    json_t *old = L->intern[i];
    if (old && L->intern_tag[i] == (uint32_t)(h >> 32) && json_typeof(old) == json_typeof(v) &&
        json_equal(old, v)) {
        json_decref(v);
        return json_incref(old);
    }
    intern_keep(L, i, h, v);
    return v;
}

static json_t *plain_value(loader *L, const char *s, size_t n)
{
    switch (classify_plain(s, n)) {
    case PLAIN_NULL: return json_null();
    case PLAIN_TRUE: return json_true();
    case PLAIN_FALSE: return json_false();
    case PLAIN_STRING: return string_scalar(L, s, n, false);
    default: {
        json_t *v = mf_yaml_plain_value(s, n);
        return v ? intern(L, v) : NULL;
    }
    }
}

static json_t *scalar_value(loader *L, const yaml_event_t *e)
{
    const char *s = (const char *)e->data.scalar.value;
    size_t n = e->data.scalar.length;
    const char *tag = (const char *)e->data.scalar.tag;
    if (!tag && e->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && L->depth > 0 &&
        null_list_value(&L->st[L->depth - 1], s, n))
        return json_null();
    if (tag) {
        if (strcmp(tag, "tag:yaml.org,2002:str") == 0 || strcmp(tag, "!") == 0)
            return string_scalar(L, s, n, false);
        if (strncmp(tag, "tag:yaml.org,2002:", 18) == 0)
            return plain_value(L, s, n);
    }
    if (e->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
        (L->depth > 0 && frame_strings(&L->st[L->depth - 1]) && !empty_list_value(&L->st[L->depth - 1], n)))
        return string_scalar(L, s, n, e->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    return plain_value(L, s, n);
}

/* ---- the fast reader's events (yaml_fast.c): the same steps as libyaml's below */

static int fast_scalar(void *ctx, const char *s, size_t n, yaml_scalar_style_t style)
{
    loader *L = ctx;
    if (++L->nodes > L->max_nodes)
        return -1;
    frame *f = L->depth > 0 ? &L->st[L->depth - 1] : NULL;
    if (f && f->is_map && !f->key) {
        if (!(f->key = mf_strndup(s, n)))
            return fail_oom(L);
        note_key(L, f);
        return 0;
    }
    bool typed = style == YAML_PLAIN_SCALAR_STYLE &&
                 !(f && frame_strings(f) && !empty_list_value(f, n) && !null_list_value(f, s, n));
    return emit(L, typed ? plain_value(L, s, n) : string_scalar(L, s, n, false), NULL, NULL, 1);
}

static int fast_start(void *ctx, bool is_map)
{
    loader *L = ctx;
    if (++L->nodes > L->max_nodes)
        return -1;
    return push(L, is_map ? json_object() : json_array(), is_map, NULL, -1);
}

static int fast_end(void *ctx)
{
    return pop(ctx);
}

/* Discard what a declined fast read built, so libyaml starts from nothing. */
static void unwind(loader *L)
{
    while (L->depth > 0) {
        frame *f = &L->st[--L->depth];
        json_decref(f->node);
        free(f->key);
        free(f->anchor);
    }
    json_decref(L->root);
    L->root = NULL;
    L->nodes = 0;
}

/* The text through yaml_fast.c; false when it declined (nothing kept, err untouched). */
static bool load_fast(loader *L, const char *text, size_t len)
{
    mf_error scratch = {0}, *err = L->err;
    bool renamed = L->o && L->o->renamed_key && *L->o->renamed_key;
    mf_yfast_sink sink = {fast_scalar, fast_start, fast_end, L};
    L->err = &scratch;
    bool ok = mf_yaml_fast_read(text, len, &sink) == 0 && L->depth == 0 && L->root;
    L->err = err;
    mf_error_clear(&scratch);
    if (ok) {
        L->doc1 = L->root;
        L->root = NULL;
        L->ndocs = 1;
        return true;
    }
    unwind(L);
    if (L->o && L->o->renamed_key)
        *L->o->renamed_key = renamed;
    return false;
}

/* Length of the line break at s[i] as libyaml counts lines (CR LF, CR, LF, NEL,
 * LS, PS), or 0. */
static size_t break_len(const char *s, size_t n, size_t i)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[i] == '\r')
        return i + 1 < n && u[i + 1] == '\n' ? 2 : 1;
    if (u[i] == '\n')
        return 1;
    if (u[i] == 0xC2 && i + 1 < n && u[i + 1] == 0x85)
        return 2;
    if (u[i] == 0xE2 && i + 2 < n && u[i + 1] == 0x80 && (u[i + 2] == 0xA8 || u[i + 2] == 0xA9))
        return 3;
    return 0;
}

/* Offset of the start of 0-based line `line` of L->text, as libyaml numbers
 * lines (asked for in order: a cursor moves on). */
static size_t line_start(loader *L, size_t line)
{
    while (L->cur_line < line && L->cur_off < L->text_len) {
        size_t b = 0;
        while (L->cur_off < L->text_len && !(b = break_len(L->text, L->text_len, L->cur_off)))
            L->cur_off++;
        L->cur_off += b;
        L->cur_line++;
    }
    return L->cur_off;
}

/* Words before a colon (`ich database: Postgres or SQLite?`) are the value's prose
 * more likely than a key: only a one-word key reads as an entry. */
bool mf_yaml_entry_shaped(const char *s, size_t n)
{
    if (n && s[0] == '-')
        return n == 1 || s[1] == ' ';
    if (!n || strchr("#\"'", s[0]))
        return false;
    for (size_t i = 1; i < n && s[i] != ' '; i++)
        if (s[i] == ':' && (i + 1 == n || s[i + 1] == ' '))
            return true;
    return false;
}

/* A quoted scalar over several lines, in a block collection: the first of its
 * later lines at or left of the collection's column that reads as an entry
 * there fails the load (see the head of the file). */
static int quoted_lines(loader *L, const yaml_event_t *e)
{
    const frame *f = L->depth > 0 ? &L->st[L->depth - 1] : NULL;
    char q = e->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE ? '"' : '\'';
    if (!L->text || !f || f->col < 0 || e->end_mark.line <= e->start_mark.line ||
        (e->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE && e->data.scalar.style != YAML_SINGLE_QUOTED_SCALAR_STYLE))
        return 0;
    for (size_t ln = e->start_mark.line + 1; ln <= e->end_mark.line; ln++) {
        size_t a = line_start(L, ln), z = a, ind = 0;
        while (z < L->text_len && !break_len(L->text, L->text_len, z))
            z++;
        while (a + ind < z && L->text[a + ind] == ' ')
            ind++;
        if ((long)ind > f->col)
            continue;
        if (ln == e->end_mark.line) /* the last line ends at the closing quote */
            for (size_t i = a + ind; i < z; i++) {
                if (q == '"' && L->text[i] == '\\') {
                    i++;
                } else if (L->text[i] == q) {
                    if (q == '\'' && i + 1 < z && L->text[i + 1] == '\'') {
                        i++;
                        continue;
                    }
                    z = i;
                    break;
                }
            }
        if (mf_yaml_entry_shaped(L->text + a + ind, z - a - ind)) {
            L->line = (int)ln + 1;
            L->col = (int)ind + 1;
            return fail(L, "%s", "a quoted value runs over this line, which reads as an entry at or left of the "
                        "column of its collection (YAML 1.2 does not allow the line there): its closing quote "
                        "is missing, or its opening quote is stray");
        }
    }
    return 0;
}

static int handle(loader *L, yaml_event_t *e)
{
    if (e->type == YAML_SCALAR_EVENT || e->type == YAML_SEQUENCE_START_EVENT ||
        e->type == YAML_MAPPING_START_EVENT) {
        if (++L->nodes > L->max_nodes)
            return fail_cap(L, "more nodes than the node cap of %s", L->max_nodes);
    }
    switch (e->type) {
    case YAML_SCALAR_EVENT: {
        const char *anchor = (const char *)e->data.scalar.anchor;
        if (quoted_lines(L, e))
            return -1;
        bool key_pos = L->depth > 0 && L->st[L->depth - 1].is_map && !L->st[L->depth - 1].key;
        if (key_pos && !anchor) { /* the common key: its text becomes the pending key, no value is built */
            frame *f = &L->st[L->depth - 1];
            const char *tag = (const char *)e->data.scalar.tag;
            if (!tag && e->data.scalar.style != YAML_DOUBLE_QUOTED_SCALAR_STYLE) { /* no escapes to check */
                f->key = (char *)e->data.scalar.value; /* the event's own text (malloc'd, NUL-ended), taken over */
                e->data.scalar.value = NULL;
                note_key(L, f);
                return 0;
            }
        }
        if (key_pos) {
            char *k = mf_strndup((const char *)e->data.scalar.value, e->data.scalar.length);
            json_t *v = scalar_value(L, e);
            int rc = !k || !v ? fail_oom(L) : anchor ? register_anchor(L, anchor, v, 1) : 0;
            json_decref(v);
            if (rc == 0)
                rc = emit(L, json_string(""), NULL, k, 1);
            free(k);
            return rc;
        }
        return emit(L, scalar_value(L, e), anchor, NULL, 1);
    }
    case YAML_ALIAS_EVENT: {
        const char *name = (const char *)e->data.alias.anchor;
        json_t *v = json_object_get(L->anchors, name);
        if (!v)
            return fail(L, "found undefined alias \"%s\"", name);
        size_t n = (size_t)json_integer_value(json_object_get(L->anchor_nodes, name));
        L->nodes += n;
        L->alias_nodes += n;
        if (L->nodes > L->max_nodes)
            return fail_cap(L, "alias expansion passes the node cap of %s", L->max_nodes);
        if (L->alias_nodes > L->max_alias_nodes)
            return fail_cap(L, "alias expansion passes its cap of %s nodes "
                            "(an eighth of the text length plus 10000)", L->max_alias_nodes);
        bool key_pos = L->depth > 0 && L->st[L->depth - 1].is_map && !L->st[L->depth - 1].key;
        return emit(L, key_pos && json_is_string(v) ? json_incref(v) : json_deep_copy(v), NULL, NULL, n);
    }
    case YAML_SEQUENCE_START_EVENT:
        return push(L, json_array(), false, (const char *)e->data.sequence_start.anchor,
                    e->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE ? -1 : (long)e->start_mark.column);
    case YAML_MAPPING_START_EVENT:
        return push(L, json_object(), true, (const char *)e->data.mapping_start.anchor,
                    e->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE ? -1 : (long)e->start_mark.column);
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        return pop(L);
    case YAML_DOCUMENT_START_EVENT:
        json_decref(L->root);
        L->root = NULL;
        json_object_clear(L->anchors);
        json_object_clear(L->anchor_nodes);
        return 0;
    case YAML_DOCUMENT_END_EVENT: {
        json_t *doc = L->root ? L->root : json_null();
        L->root = NULL;
        if (L->ndocs++ == 0) {
            L->doc1 = doc;
            return 0;
        }
        if (!L->docs && (!(L->docs = json_array()) || json_array_append(L->docs, L->doc1))) {
            json_decref(doc);
            return fail_oom(L);
        }
        return json_array_append_new(L->docs, doc) ? fail_oom(L) : 0;
    }
    default:
        return 0;
    }
}

/* The parser's input: the text, then one '\n' when it does not end with one.
 * A last line is a line: its break is implied at the end of the input (yaml-test-suite
 * L24T-01, JEF9-02; js-yaml and eemeli/yaml read it so), which libyaml alone
 * would drop from a block scalar ending the input (`a: |` / `  x` -> "x"). */
typedef struct { const char *s; size_t len, pos; bool nl; } eof_input;

static int read_eof_input(void *data, unsigned char *buf, size_t size, size_t *got)
{
    eof_input *in = data;
    size_t n = in->len - in->pos < size ? in->len - in->pos : size;
    memcpy(buf, in->s + in->pos, n);
    in->pos += n;
    if (n < size && in->nl) {
        buf[n++] = '\n';
        in->nl = false;
    }
    *got = n;
    return 1;
}

static const char CONTROL_CHAR_PROBLEM[] = "control characters are not allowed"; /* libyaml's reader */

bool mf_yaml_error_is_control_char(const mf_error *err)
{
    return err->tier == 1 && err->message && !strcmp(err->type, "YAML_SYNTAX_ERROR") &&
           !strcmp(err->message, CONTROL_CHAR_PROBLEM);
}

/* The line and column of byte offset off of text: libyaml leaves problem_mark at
 * the start for a reader error (a control character, bad UTF-8) and names the
 * byte by its offset only, so `\x1b[0m` at the end read as line 1 column 1. */
static yaml_mark_t reader_error_mark(const char *text, size_t len, size_t off)
{
    yaml_mark_t m = {0};
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n')
            m.line++, m.column = 0;
        else if (((unsigned char)text[i] & 0xC0) != 0x80)
            m.column++;
    }
    m.index = off;
    return m;
}

/* The text through libyaml's event parser into L; 0 or -1 (L->err set). */
static int load_libyaml(loader *L, const char *text, size_t len)
{
    yaml_parser_t parser;
    yaml_event_t e;
    if (!yaml_parser_initialize(&parser)) {
        mf_oom();
        mf_error_set(L->err, 1, "OUT_OF_MEMORY", "", 0, 0, "out of memory starting the YAML parser");
        return -1;
    }
    eof_input in = {text, len, 0, len > 0 && text[len - 1] != '\n'};
    L->text = text;
    L->text_len = len;
    yaml_parser_set_input(&parser, read_eof_input, &in);
    int rc = 0;
    for (;;) {
        if (!yaml_parser_parse(&parser, &e)) {
            if (parser.error == YAML_MEMORY_ERROR) {
                rc = fail_oom(L);
                break;
            }
            const char *ctx = parser.context;
            yaml_mark_t m = parser.error == YAML_READER_ERROR ? reader_error_mark(text, len, parser.problem_offset)
                                                              : parser.problem_mark;
            mf_error_set(L->err, 1, "YAML_SYNTAX_ERROR", "", (int)m.line + 1, (int)m.column + 1,
                         "%s%s%s", parser.problem ? parser.problem : "syntax error",
                         ctx ? " " : "", ctx ? ctx : "");
            rc = -1;
            break;
        }
        L->line = (int)e.start_mark.line + 1;
        L->col = (int)e.start_mark.column + 1;
        bool end = e.type == YAML_STREAM_END_EVENT;
        rc = handle(L, &e);
        yaml_event_delete(&e);
        if (rc || end)
            break;
    }
    yaml_parser_delete(&parser);
    return rc;
}

int mf_yaml_load(const char *text, size_t len, const mf_yaml_load_opts *o,
                 json_t **out, mf_error *err)
{
    loader L = {0};
    L.o = o;
    L.err = err;
    L.oom_before = mf_oom_count();
    L.max_nodes = o && o->max_nodes ? o->max_nodes : MF_DEFAULT_MAX_NODES;
    L.max_alias_nodes = len / 8 + MF_ALIAS_NODES_MIN;
    L.max_key_bytes = 4 * len + 65536;
    const mf_profile_compiled *pc = o && o->profile ? o->profile->compiled : NULL;
    L.key_map = pc && pc->aliases && o->renamed_key ? o->profile->key_map : NULL;
    if (pc && o->renamed_key && pc->aliases && !L.key_map)
        *o->renamed_key = true; /* no map to look in: aliasing must walk */
    L.keys = pc && (json_object_size(o->profile->string_fields) > 0 || L.key_map) ? &pc->load_keys : NULL;
    size_t slots = INTERN_MIN_SLOTS;
    while (slots < INTERN_SLOTS && slots * 32 < len)
        slots *= 2;
    L.intern = calloc(slots, sizeof *L.intern + sizeof *L.intern_tag); /* NULL: no sharing, still correct */
    L.intern_tag = L.intern ? (uint32_t *)(L.intern + slots) : NULL;
    L.intern_mask = slots - 1;
    *out = NULL;
    bool fast = !(o && o->libyaml_only) && load_fast(&L, text, len);
    int rc = fast ? 0 : load_libyaml(&L, text, len);
    unwind(&L);
    free(L.st);
    json_decref(L.anchors);
    json_decref(L.anchor_nodes);
    for (size_t i = 0; L.intern && i <= L.intern_mask; i++)
        json_decref(L.intern[i]);
    free(L.intern);
    if (rc == 0)
        *out = L.ndocs == 0 ? json_null() : L.ndocs == 1 ? json_incref(L.doc1) : json_incref(L.docs);
    json_decref(L.doc1);
    json_decref(L.docs);
    return rc;
}
