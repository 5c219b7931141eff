/* cmd_pipelines.c - `malform pipelines [--json]`: every pipeline malform
 * knows (core, then harness/pipelines/<name>.yaml and $MALFORM_PIPELINES_DIR),
 * each started once to show its handshake: name, version, formats,
 * profiles, warnings, coverage - or why it is missing or broken. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_args.h"
#include "cli_util.h"
#include "pl_cli.h"

static const struct option options[] = {{"json", no_argument, NULL, 'j'}, {0}};
static const cli_cmd cmd = {"pipelines", "[--json]",
                            "List the pipelines under test - core (built in) and every definition in\n"
                            "harness/pipelines/<name>.yaml or $MALFORM_PIPELINES_DIR - each started once to show\n"
                            "its handshake (version, formats, profiles, warnings, coverage), or why it is\n"
                            "missing (not installed here) or broken.\n",
                            "", options};

static json_t *status_of(const char *name)
{
    mf_pl_def d;
    char err[1024], buf[1024];
    json_t *o = json_pack("{s:s}", "name", name);
    if (mf_pl_def_find(name, &d, err, sizeof err) < 0) {
        json_object_set_new(o, "status", json_string("broken"));
        json_object_set_new(o, "error", json_string(err));
        return o;
    }
    json_object_set_new(o, "definition", json_string(d.path));
    json_object_set_new(o, "command", json_string(d.command));
    json_object_set_new(o, "description", json_string(d.description));
    const char *missing = mf_pl_def_missing(&d, buf, sizeof buf);
    mf_pl_worker *w = missing ? NULL : mf_pl_start(&d, false, err, sizeof err);
    if (w) {
        const mf_pl_hello *h = mf_pl_hello_of(w);
        json_t *formats = json_array();
        if (h->formats & MF_PL_JSON)
            json_array_append_new(formats, json_string("json"));
        if (h->formats & MF_PL_YAML)
            json_array_append_new(formats, json_string("yaml"));
        json_object_set_new(o, "status", json_string("ok"));
        json_object_set_new(o, "version", json_string(h->version));
        json_object_set_new(o, "formats", formats);
        json_object_set_new(o, "profiles", json_incref(h->profiles));
        json_object_set_new(o, "warnings", json_boolean(h->warnings));
        json_object_set_new(o, "coverage", json_boolean(h->coverage));
        mf_pl_stop(w);
    } else {
        json_object_set_new(o, "status", json_string(missing ? "missing" : "broken"));
        json_object_set_new(o, "error", json_string(missing ? missing : err));
    }
    mf_pl_def_free(&d);
    return o;
}

static void print_text(const json_t *o)
{
    const char *status = json_string_value(json_object_get(o, "status"));
    printf("%-22s %-8s", json_string_value(json_object_get(o, "name")), status);
    if (!strcmp(status, "ok")) {
        const json_t *f = json_object_get(o, "formats"), *p = json_object_get(o, "profiles");
        printf(" v%s formats=", json_string_value(json_object_get(o, "version")));
        for (size_t i = 0; i < json_array_size(f); i++)
            printf("%s%s", i ? "," : "", json_string_value(json_array_get(f, i)));
        printf(" profiles=");
        for (size_t i = 0; i < json_array_size(p); i++)
            printf("%s%s", i ? "," : "", json_string_value(json_array_get(p, i)));
        printf(" warnings=%s coverage=%s\n", json_is_true(json_object_get(o, "warnings")) ? "yes" : "no",
               json_is_true(json_object_get(o, "coverage")) ? "yes" : "no");
        printf("%-31s %s\n", "", json_string_value(json_object_get(o, "description")));
    } else {
        printf(" %s\n", json_string_value(json_object_get(o, "error")));
    }
}

int cmd_pipelines(int argc, char **argv)
{
    bool json;
    int rc = cli_json_flag_only(&cmd, argc, argv, &json);
    if (rc >= 0)
        return rc;
    char **names = mf_pl_names();
    json_t *all = json_array();
    for (size_t i = 0; names && names[i]; i++) {
        json_t *o = status_of(names[i]);
        if (!json)
            print_text(o);
        json_array_append_new(all, o);
    }
    mf_pl_names_free(names);
    if (json)
        return cli_print_json(all);
    json_decref(all);
    return 0;
}
