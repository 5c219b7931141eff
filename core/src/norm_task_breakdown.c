/* norm_task_breakdown.c - the architect persona's task breakdown (seed 002, A2-A5).
 *
 * Repairs first: the breakdown's story_id is set to the runtime story id
 * (A2: "orchestrator corrects it"), and task ids that carry the right number
 * in the wrong spelling (3, "3", "T3", "task-3", "T-US-004-3", "t-us-004-02":
 * the story part is compared without regard to case) become the
 * strict `T-{story}-NN` form (A3). taskId/id -> task_id and title ->
 * description are profile aliases, applied before this runs.
 *
 * Then schema normalization and tier 2 (non-empty tasks, each with task_id
 * and description), so a broken structure is never reported as tier 3.
 *
 * Then the checks the orchestrator only warned about, made hard: a task id
 * that still does not have the `T-{story}-NN` form or is duplicated is a
 * SCHEMA_VIOLATION; a task that neither creates files nor runs a command is
 * INCOMPLETE; a `task_count` larger than the tasks present is INCOMPLETE
 * (A4: a partial object was extracted); a files_to_create path with a ".."
 * segment or an absolute path is PATH_TRAVERSAL (A5). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "schema_checks.h"
#include "norm.h"

static bool all_digits(const char *s, size_t n)
{
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)s[i]))
            return false;
    return true;
}

/* The task number a spelling carries, or -1 when it is not a recognised spelling. */
static long task_number(const json_t *id, const char *story)
{
    if (json_is_integer(id))
        return json_integer_value(id) >= 0 && json_integer_value(id) < 100 ? (long)json_integer_value(id) : -1;
    const char *s = json_string_value(id);
    if (!s)
        return -1;
    size_t sl = strlen(story);
    const char *num = NULL;
    if (strncasecmp(s, "T-", 2) == 0 && strncasecmp(s + 2, story, sl) == 0 && s[2 + sl] == '-')
        num = s + 3 + sl;
    else if (strncasecmp(s, "task", 4) == 0)
        num = s + 4 + (s[4] == '-' || s[4] == '_' || s[4] == ' ');
    else if (s[0] == 'T' || s[0] == 't')
        num = s + 1 + (s[1] == '-' || s[1] == '_');
    else
        num = s;
    size_t n = strlen(num);
    if (!all_digits(num, n) || n > 6)
        return -1;
    long v = strtol(num, NULL, 10);
    return v < 100 ? v : -1;
}

static void fix_task_ids(json_t *tasks, const char *story, mf_warnings *w)
{
    for (size_t i = 0; i < json_array_size(tasks); i++) {
        json_t *t = json_array_get(tasks, i);
        json_t *id = json_object_get(t, "task_id");
        if (!json_is_object(t) || !id)
            continue;
        long n = task_number(id, story);
        if (n < 0)
            continue;
        char want[256];
        snprintf(want, sizeof want, "T-%s-%02ld", story, n);
        if (json_is_string(id) && strcmp(json_string_value(id), want) == 0)
            continue;
        char *old = mf_value_preview(id);
        mf_warnings_add(w, MF_RULE_ID(SCHEMA_TASK_ID), 0, "Normalized task id %s at index %zu to %s.", old, i, want);
        free(old);
        json_object_set_new(t, "task_id", json_string(want));
    }
}

static bool is_canonical_id(const char *id, const char *story)
{
    size_t sl = strlen(story), n = strlen(id);
    return n == sl + 5 && strncmp(id, "T-", 2) == 0 && strncmp(id + 2, story, sl) == 0 &&
           id[2 + sl] == '-' && all_digits(id + 3 + sl, 2);
}

int mf_norm_task_breakdown(json_t **root, const mf_profile *p, const mf_options *o,
                                mf_warnings *w, mf_error *err)
{
    json_t *r = *root;
    const char *runtime_story = mf_options_context_string(o, p, "story_id");
    if (json_is_object(r) && runtime_story) {
        json_t *sid = json_object_get(r, "story_id");
        if (!sid) {
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_STORY_ID), 0, "Filled missing story_id from runtime context (%s).", runtime_story);
            json_object_set_new(r, "story_id", json_string(runtime_story));
        } else if (!json_is_string(sid) || strcmp(json_string_value(sid), runtime_story) != 0) {
            char *old = mf_value_preview(sid);
            mf_warnings_add(w, MF_RULE_ID(SCHEMA_STORY_ID), 0, "Corrected story_id from %s to the runtime story id \"%s\".",
                            old, runtime_story);
            free(old);
            json_object_set_new(r, "story_id", json_string(runtime_story));
        }
    }
    const char *story = json_is_object(r) ? json_string_value(json_object_get(r, "story_id")) : NULL;
    json_t *tasks = json_is_object(r) ? json_object_get(r, "tasks") : NULL;
    if (story && *story && strlen(story) < 200)
        fix_task_ids(tasks, story, w);
    if (mf_schema_gate(p, r, w, err))
        return -1;

    json_t *seen = json_object();
    char path[96];
    for (size_t i = 0; i < json_array_size(tasks); i++) {
        const char *id = json_string_value(json_object_get(json_array_get(tasks, i), "task_id"));
        snprintf(path, sizeof path, "/tasks/%zu/task_id", i);
        if (!id)
            continue;
        if (story && !is_canonical_id(id, story)) {
            mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0,
                         "task_id \"%s\" must have the form T-%s-NN (two-digit, zero-padded)", id, story);
            break;
        }
        if (json_object_get(seen, id)) {
            mf_error_set(err, 2, "SCHEMA_VIOLATION", path, 0, 0, "duplicate task_id \"%s\"", id);
            break;
        }
        json_object_set_new(seen, id, json_true());
    }
    json_decref(seen);
    if (err->tier)
        return -1;

    for (size_t i = 0; i < json_array_size(tasks); i++) {
        json_t *files = json_object_get(json_array_get(tasks, i), "files_to_create");
        for (size_t j = 0; j < json_array_size(files); j++) {
            const char *f = json_string_value(json_array_get(files, j));
            if (mf_path_unsafe(f)) {
                snprintf(path, sizeof path, "/tasks/%zu/files_to_create/%zu", i, j);
                mf_error_set(err, 3, "PATH_TRAVERSAL", path, 0, 0,
                             "file path \"%s\" leaves the project (absolute path or \"..\" segment); "
                             "use a path relative to the project root", f);
                return -1;
            }
        }
    }
    for (size_t i = 0; i < json_array_size(tasks); i++) {
        json_t *t = json_array_get(tasks, i);
        const char *cmd = json_string_value(json_object_get(t, "command_to_run"));
        bool has_cmd = false;
        for (const char *c = cmd; c && *c && !has_cmd; c++)
            has_cmd = !isspace((unsigned char)*c);
        if (json_array_size(json_object_get(t, "files_to_create")) == 0 && !has_cmd) {
            snprintf(path, sizeof path, "/tasks/%zu", i);
            mf_error_set(err, 3, "INCOMPLETE", path, 0, 0,
                         "task %s has neither files_to_create nor command_to_run; every task must do something",
                         json_string_value(json_object_get(t, "task_id")));
            return -1;
        }
    }
    json_t *count = json_object_get(r, "task_count");
    if (json_is_integer(count) && json_integer_value(count) > (json_int_t)json_array_size(tasks)) {
        mf_error_set(err, 3, "INCOMPLETE", "/task_count", 0, 0,
                     "task_count is %lld but only %zu task%s present: the breakdown is incomplete "
                     "(%lld missing)", (long long)json_integer_value(count), json_array_size(tasks),
                     json_array_size(tasks) == 1 ? " is" : "s are",
                     (long long)(json_integer_value(count) - (json_int_t)json_array_size(tasks)));
        return -1;
    }
    return 0;
}
