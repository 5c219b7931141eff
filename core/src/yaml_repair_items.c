/* yaml_repair_items.c - yaml.item-key: a list item written as its id alone.
 *
 * A profile's `item_keys` names, per sequence parent key, the key a bare
 * item stands for and the child keys that prove the item is a mapping
 * (`beads: {key: id, children: [title, ...]}`; keys match as written or by their
 * canonical spelling, aliases included). An item that is one token,
 * plain or quoted, whose next line is a known child key at the item's
 * content column (`  - cache-fix` + `    title: Fix the cache`) does not
 * parse; it becomes that key's entry (`  - id: cache-fix`), the token kept
 * as written. A bare top-level list is read as the list of the parent
 * marked `root_list: true` (beads: the beads normalizer places a bare list
 * under `beads`; so is such a list that is the only value under wrapper
 * keys, `output:` + `  document:`, which unwrapping strips). Prose items (a
 * blank in the token), items whose next line is another key, and lines inside
 * block bodies or quoted values stay. */
#include <string.h>
#include "yaml_repair.h"

/* The canonical spelling of key [k, k+n) in p (an alias or `testCommands` for
 * `test_commands`), or NULL. */
static const char *canonical_key(const mf_profile *p, const char *k, size_t n)
{
    char key[256];
    if (!p->key_map || n == 0 || n >= sizeof key)
        return NULL;
    memcpy(key, k, n);
    key[n] = '\0';
    return mf_norm_key_canonical(p->key_map, key);
}

/* The item_keys entry of the parent key [k, k+n) as written or canonical, or NULL. */
static const json_t *item_key_of(const mf_profile *p, const char *k, size_t n)
{
    const json_t *spec = json_object_getn(p->item_keys, k, n);
    const char *canon = spec ? NULL : canonical_key(p, k, n);
    return spec ? spec : canon ? json_object_get(p->item_keys, canon) : NULL;
}

/* True when the key [k, k+n), as written or canonical, is one of spec's children. */
static bool listed_child(const mf_profile *p, const json_t *spec, const char *k, size_t n)
{
    const json_t *kids = json_object_get(spec, "children");
    const char *canon = canonical_key(p, k, n);
    return yr_list_has(kids, k, n) || (canon && yr_list_has(kids, canon, strlen(canon)));
}

/* True when [s, s+n) is one token a bare item may be: a closed quoted scalar, or a plain
 * scalar without blanks or ':' (`a:b` is yaml.colon-space's glued key). */
static bool bare_token(const char *s, size_t n)
{
    if (n == 0)
        return false;
    if (s[0] == '"' || s[0] == '\'')
        return yr_quote_end(s, n, 0) == n;
    if (!yr_plain_start(s, n))
        return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] == ' ' || s[i] == '\t' || s[i] == ':')
            return false;
    return true;
}

/* The item_keys parent a bare top-level list stands for (`root_list: true`: the
 * profile's normalizer places such a list under that key), or NULL; its name in *name. */
static const json_t *root_list_spec(const mf_profile *p, const char **name)
{
    const char *k;
    const json_t *spec;
    json_object_foreach(p->item_keys, k, spec)
        if (json_is_true(json_object_get(spec, "root_list"))) {
            *name = k;
            return spec;
        }
    return NULL;
}

/* The parent key line of the sequence item at line i (dash column col): back over deeper
 * lines and sibling items to the first entry at or left of col; it must be a key with no
 * value. d->count when there is none; *at_root when no line left of the item opens the
 * list (the document is a bare list). */
static size_t parent_line(const yr_doc *d, size_t i, size_t col, bool *at_root)
{
    *at_root = false;
    while (i-- > 0) {
        const yr_line *l = &d->l[i];
        if (l->flags & (YR_INERT | YR_CONT))
            continue;
        const yr_entry e = yr_entry_at(d, i);
        if (e.indent > col || (e.dashes && e.dash == col))
            continue;
        return !e.dashes && e.key && e.val == e.end ? i : d->count;
    }
    *at_root = true;
    return d->count;
}

/* True when line par's key [k, k+n) and every entry line above it are key-only
 * wrapper lines, each deeper than the one before (`output:` + `  document:`), and
 * no line after the item at i is shallower than the list (the list is their only
 * value): unwrapping leaves the list bare, at the top. */
static bool wrapper_chain_root(const yr_doc *d, const mf_profile *p, size_t par, size_t i, size_t col)
{
    size_t below = (size_t)-1;
    for (size_t j = par + 1; j-- > 0;) {
        if (d->l[j].flags & (YR_INERT | YR_CONT))
            continue;
        const yr_entry e = yr_entry_at(d, j);
        char key[128];
        size_t n = e.key_e - e.key_s;
        if (e.dashes || !e.key || e.val != e.end || e.indent >= below || n == 0 || n >= sizeof key)
            return false;
        memcpy(key, d->l[j].s + e.key_s, n);
        key[n] = '\0';
        if (!mf_norm_is_wrapper(p, key))
            return false;
        below = e.indent;
    }
    if (below != 0)
        return false;
    for (size_t j = i + 1; j < d->count; j++) {
        if (d->l[j].flags & (YR_INERT | YR_CONT))
            continue;
        const yr_entry e = yr_entry_at(d, j);
        if (e.indent < col || (e.indent == col && !(e.dashes && e.dash == col)))
            return false;
    }
    return true;
}

/* The next line after i that is not blank or a comment, or d->count. */
static size_t next_line(const yr_doc *d, size_t i)
{
    while (++i < d->count && (d->l[i].flags & YR_INERT))
        ;
    return i;
}

/* The item_keys entry of the list a bare item at line i (dash column col) belongs to, with the
 * parent's name in *parent, *parent_n and how it was found in *at_root, *wrapped; NULL when none. */
static const json_t *item_spec(const yr_doc *d, const mf_profile *p, size_t i, size_t col, const char **parent,
                               size_t *parent_n, bool *at_root, bool *wrapped)
{
    size_t par = parent_line(d, i, col, at_root);
    *wrapped = false;
    *parent = NULL;
    *parent_n = 0;
    if (par == d->count && !*at_root)
        return NULL;
    const json_t *spec = NULL;
    if (!*at_root) {
        const yr_entry pe = yr_entry_at(d, par);
        *parent = d->l[par].s + pe.key_s, *parent_n = pe.key_e - pe.key_s;
        spec = item_key_of(p, *parent, *parent_n);
        if (spec || !wrapper_chain_root(d, p, par, i, col))
            return spec;
        *at_root = *wrapped = true;
    }
    spec = root_list_spec(p, parent);
    *parent_n = *parent ? strlen(*parent) : 0;
    return spec;
}

/* The key yaml.item-key names the bare item of entry e on line i by, were its dash at column
 * col (its next line a known child key at its content column), or NULL. */
static const char *naming_key(const yr_doc *d, const mf_profile *p, size_t i, const yr_entry *e, size_t col,
                              const char **parent, size_t *parent_n, bool *at_root, bool *wrapped)
{
    const yr_line *l = &d->l[i];
    size_t nx = next_line(d, i);
    if (!p || json_object_size(p->item_keys) == 0 || e->dashes != 1 || e->key ||
        !bare_token(l->s + e->val, yr_value_end(l, e, true) - e->val) || nx == d->count ||
        (d->l[nx].flags & YR_CONT))
        return NULL;
    const json_t *spec = item_spec(d, p, i, col, parent, parent_n, at_root, wrapped);
    const yr_entry ne = yr_entry_at(d, nx);
    const char *key = json_string_value(json_object_get(spec, "key"));
    if (!key || ne.dashes || !ne.key || ne.indent != e->content - e->dash + col ||
        !listed_child(p, spec, d->l[nx].s + ne.key_s, ne.key_e - ne.key_s))
        return NULL;
    return key;
}

bool yr_item_key_names(const yr_doc *d, const mf_profile *p, size_t i, const yr_entry *e, size_t col)
{
    const char *parent;
    size_t parent_n;
    bool at_root, wrapped;
    return naming_key(d, p, i, e, col, &parent, &parent_n, &at_root, &wrapped) != NULL;
}

static size_t fix_item_key(yr_out *o, const yr_doc *d, size_t i, const yr_entry *e, const mf_profile *p,
                           mf_warnings *w)
{
    const yr_line *l = &d->l[i];
    const char *parent;
    size_t parent_n;
    bool at_root, wrapped;
    const char *key = naming_key(d, p, i, e, e->dash, &parent, &parent_n, &at_root, &wrapped);
    if (!key)
        return 0;
    size_t vend = yr_value_end(l, e, true);
    mf_warnings_add(w, MF_RULE_ID(YAML_ITEM_KEY), yr_lineno(i),
                    "Took the bare item %.*s under \"%.*s\"%s as its %s (a known child key follows it).",
                    (int)(vend - e->val), l->s + e->val, (int)parent_n, parent,
                    wrapped ? " (a bare list under wrapper keys)" : at_root ? " (a bare top-level list)" : "",
                    key);
    yr_put(o, l->s, e->val);
    yr_puts(o, key);
    yr_put(o, ": ", 2);
    yr_put(o, l->s + e->val, l->n - e->val);
    yr_endl(o, YR_EOL(l));
    return i + 1;
}

size_t yr_fix_item_key(const yr_doc *d, mf_buf *out, const mf_profile *p, mf_warnings *w)
{
    if (!p || json_object_size(p->item_keys) == 0)
        return 0;
    return yr_run_line_rule(d, out, p, w, fix_item_key, 0);
}
