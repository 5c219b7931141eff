/* norm_code_files.c - the developer persona's file output (seed 002, B1-B2),
 * and the QA persona's test payload (seed 002, C1).
 *
 * code_files: `_normalize_alex_response` accepts several shapes and extracts
 * a list of {path, content}. The canonical form is `files: [{path, content}]`;
 * the other shapes models emit become it, each with a warning:
 *   {"files": {"src/a.js": "..."}}          a path -> content map;
 *   [{"path": ..., "content": ...}, ...]    a bare list of files;
 *   {"path": ..., "content": ...}           a single file.
 * Spelling variants of the keys (file_path, filename, code, contents, ...)
 * are profile aliases. Content that is not a string stays an error (tier 2,
 * "expected string, got object"): we never serialise it into a file. A file
 * path that is absolute or has a ".." segment is PATH_TRAVERSAL (tier 3), a
 * path given twice is a SCHEMA_VIOLATION.
 *
 * qa_tests: the canonical form is {test_file, test_content, test_cases}. A QA
 * answer shaped like the developer's (files: [one {path, content}]) becomes
 * test_file/test_content; test_file must be a safe relative path. */
#include <stdlib.h>
#include <string.h>
#include "schema_checks.h"
#include "norm.h"

/* files: {"a.js": "..."} -> [{"path": "a.js", "content": "..."}] */
static json_t *map_to_files(json_t *map)
{
    json_t *arr = json_array();
    const char *k;
    json_t *v;
    json_object_foreach(map, k, v)
        json_array_append_new(arr, json_pack("{s:s, s:O}", "path", k, "content", v));
    return arr;
}

static bool looks_like_file(const json_t *v)
{
    return json_is_object(v) && json_object_get(v, "path") && json_object_get(v, "content");
}

static int check_paths(const json_t *files, const char *key, mf_error *err)
{
    json_t *seen = json_object();
    int rc = 0;
    char path[96];
    for (size_t i = 0; i < json_array_size(files) && !rc; i++) {
        const char *f = json_string_value(json_object_get(json_array_get(files, i), key));
        if (!f)
            continue;
        snprintf(path, sizeof path, "/files/%zu/%s", i, key);
        if (mf_path_unsafe(f)) {
            mf_error_set(err, 3, "PATH_TRAVERSAL", path, 0, 0,
                         "file path \"%s\" leaves the project (absolute path or \"..\" segment); "
                         "use a path relative to the project root", f);
            rc = -1;
        } else if (json_object_get(seen, f)) {
            mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0,
                         "file \"%s\" is given twice; emit each file once", f);
            rc = -1;
        }
        json_object_set_new(seen, f, json_true());
    }
    json_decref(seen);
    return rc;
}

int mf_norm_code_files(json_t **root, const mf_profile *p, const mf_options *o,
                            mf_warnings *w, mf_error *err)
{
    (void)o;
    json_t *r = *root;
    if (json_is_array(r) && json_array_size(r) > 0 && looks_like_file(json_array_get(r, 0))) {
        mf_warnings_add(w, MF_RULE_ID(SCHEMA_CODE_FILES), 0, "Placed a bare list of %zu file%s under files.",
                        json_array_size(r), json_array_size(r) == 1 ? "" : "s");
        *root = json_pack("{s:O}", "files", r);
        json_decref(r);
        r = *root;
    } else if (looks_like_file(r) && !json_object_get(r, "files")) {
        mf_warnings_add(w, MF_RULE_ID(SCHEMA_CODE_FILES), 0, "Placed a single file object under files.");
        *root = json_pack("{s:[O]}", "files", r);
        json_decref(r);
        r = *root;
    }
    json_t *files = json_object_get(r, "files");
    if (json_is_object(files) && json_object_size(files) > 0) {
        const char *k;
        json_t *v;
        bool all_strings = true;
        json_object_foreach(files, k, v)
            all_strings = all_strings && json_is_string(v);
        if (all_strings) {
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_CODE_FILES), 0, "Converted a path -> content map of %zu file%s into "
                            "files: [{path, content}].", json_object_size(files),
                            json_object_size(files) == 1 ? "" : "s");
            json_object_set_new(r, "files", map_to_files(files));
            files = json_object_get(r, "files");
        }
    }
    if (mf_schema_gate(p, r, w, err))
        return -1;
    return check_paths(json_object_get(r, "files"), "path", err);
}

int mf_norm_qa_tests(json_t **root, const mf_profile *p, const mf_options *o,
                          mf_warnings *w, mf_error *err)
{
    (void)o;
    json_t *r = *root;
    json_t *files = json_object_get(r, "files");
    if (json_is_object(r) && !json_object_get(r, "test_file") && !json_object_get(r, "test_content") &&
        json_array_size(files) == 1 && looks_like_file(json_array_get(files, 0)) &&
        json_object_size(json_array_get(files, 0)) == 2) { /* a file with more members would lose them */
        json_t *f = json_array_get(files, 0);
        mf_warnings_add(w, MF_RULE_ID(SCHEMA_QA_TESTS), 0, "Took test_file and test_content from the single file in files.");
        json_t *out = json_object();
        json_object_set(out, "test_file", json_object_get(f, "path"));
        json_object_set(out, "test_content", json_object_get(f, "content"));
        const char *k;
        json_t *v;
        json_object_foreach(r, k, v)
            if (strcmp(k, "files") != 0)
                json_object_set(out, k, v);
        json_decref(r);
        *root = r = out;
    }
    if (mf_schema_gate(p, r, w, err))
        return -1;
    const char *tf = json_string_value(json_object_get(r, "test_file"));
    if (mf_path_unsafe(tf)) {
        mf_error_set(err, 3, "PATH_TRAVERSAL", "/test_file", 0, 0,
                     "test file path \"%s\" leaves the project (absolute path or \"..\" segment); "
                     "use a path relative to the project root", tf);
        return -1;
    }
    return 0;
}
