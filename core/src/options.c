/* options.c - runtime options: the JSON form and the profile-declared context. */
#include <string.h>
#include "internal.h"

void mf_options_from_json(const json_t *obj, mf_options *o)
{
    memset(o, 0, sizeof *o);
    if (json_is_object(obj))
        o->context = obj;
}

/* True when v has the type a profile's `context:` names for it. */
static bool has_type(const char *type, const json_t *v)
{
    if (!type || strcmp(type, "any") == 0)
        return true;
    if (strcmp(type, "string") == 0)
        return json_is_string(v);
    if (strcmp(type, "array") == 0)
        return json_is_array(v);
    if (strcmp(type, "object") == 0)
        return json_is_object(v);
    return false;
}

const json_t *mf_options_context(const mf_options *o, const mf_profile *p, const char *key)
{
    if (!o || !key)
        return NULL;
    const json_t *v = json_object_get(o->context, key);
    if (!v || !p)
        return v;
    const json_t *declared = json_object_get(p->context, key);
    return declared && has_type(json_string_value(declared), v) ? v : NULL;
}

const char *mf_options_context_string(const mf_options *o, const mf_profile *p, const char *key)
{
    /* an empty string names nothing (`--ticket-id ""`): no runtime value, so a normalizer
     * keeps the artifact's own rather than write "" over it (run 9 aefc144e-rdf179936) */
    const char *s = json_string_value(mf_options_context(o, p, key));
    return s && *s ? s : NULL;
}
