/* mf_json_driver.c - the differential check's malform side: for each file
 * named on the command line, run mf_json_parse_repair (profile generic_json)
 * and print one JSON line {file, ok, value | error, rules}. */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    mf_buf b = {0};
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        mf_buf_put(&b, chunk, n);
    fclose(f);
    *len = b.len;
    return mf_buf_detach(&b);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        size_t len = 0;
        char *text = slurp(argv[i], &len);
        if (!text) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 2;
        }
        json_t *v = NULL;
        mf_warnings w = {0};
        mf_error e = {0};
        int rc = mf_json_parse_repair(text, len, NULL, 0, &v, &w, &e);
        json_t *rules = json_array();
        for (size_t k = 0; k < w.count; k++)
            json_array_append_new(rules, json_string(w.items[k].rule));
        json_t *rec = json_pack("{s:s, s:b, s:o}", "file", argv[i], "ok", rc == 0, "rules", rules);
        if (rc == 0)
            json_object_set_new(rec, "value", v);
        else
            json_object_set_new(rec, "error", json_pack("{s:i, s:i, s:s}", "line", e.line,
                                                        "column", e.column, "message", e.message));
        char *s = json_dumps(rec, JSON_COMPACT);
        puts(s);
        free(s);
        json_decref(rec);
        mf_warnings_clear(&w);
        mf_error_clear(&e);
        free(text);
    }
    return 0;
}
