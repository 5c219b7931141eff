/* stats.c - campaign counters kept by a fuzz target itself: how often each
 * repair rule fired, each op was applied, each oracle passed or failed.
 * `malform fuzz` reads the dumps ($MALFORM_STATS_DIR/stats-<target>-<pid>.json,
 * rewritten atomically at most once a second, at exit and before an abort)
 * instead of re-running the corpus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "harness.h"

static struct {
    const char *target;
    unsigned long long execs, unchecked;
    unsigned long long *rules;     /* per mf_rules_at index */
    unsigned long long *ops;       /* per mf_ops_at index */
    unsigned long long verdicts[MF_ORACLE_COUNT][2];
    time_t last;
    bool init;
} S;

static void at_exit(void) { mf_stats_dump(); }

void mf_stats_init(const char *target)
{
    if (S.init)
        return;
    S.target = target;
    S.rules = calloc(mf_rules_count() + 1, sizeof *S.rules);
    S.ops = calloc(mf_ops_count() + 1, sizeof *S.ops);
    S.init = true;
    if (getenv("MALFORM_STATS_DIR"))
        atexit(at_exit);
}

void mf_stats_record(const mf_check *k)
{
    if (!S.init)
        return;
    S.execs++;
    if (!k->result) {
        S.unchecked++;
        return;
    }
    size_t nr = mf_rules_count();
    for (size_t i = 0; S.rules && i < k->result->warnings.count; i++) {
        const char *id = k->result->warnings.items[i].rule;
        for (size_t j = 0; id && j < nr; j++)
            if (mf_rules_at(j)->id == id || strcmp(mf_rules_at(j)->id, id) == 0) {
                S.rules[j]++;
                break;
            }
    }
    if (k->structured && S.ops)
        for (size_t i = 0; i < k->kase->nops; i++)
            if (k->render.applied[i])
                for (size_t j = 0; j < mf_ops_count(); j++)
                    if (mf_ops_at(j) == k->kase->ops[i].op) {
                        S.ops[j]++;
                        break;
                    }
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        if (k->v[i].ran)
            S.verdicts[i][k->v[i].failed]++;
}

void mf_stats_dump(void)
{
    const char *dir = getenv("MALFORM_STATS_DIR");
    if (!S.init || !dir || !*dir)
        return;
    json_t *o = json_object(), *rules = json_object(), *ops = json_object(), *ver = json_object();
    for (size_t j = 0; S.rules && j < mf_rules_count(); j++)
        if (S.rules[j])
            json_object_set_new(rules, mf_rules_at(j)->id, json_integer((json_int_t)S.rules[j]));
    for (size_t j = 0; S.ops && j < mf_ops_count(); j++)
        if (S.ops[j])
            json_object_set_new(ops, mf_ops_at(j)->id, json_integer((json_int_t)S.ops[j]));
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        json_object_set_new(ver, mf_oracle_name((mf_oracle_id)i),
                            json_pack("{sIsI}", "pass", (json_int_t)S.verdicts[i][0], "fail", (json_int_t)S.verdicts[i][1]));
    json_object_set_new(o, "target", json_string(S.target));
    json_object_set_new(o, "pid", json_integer(getpid()));
    json_object_set_new(o, "execs", json_integer((json_int_t)S.execs));
    json_object_set_new(o, "unchecked", json_integer((json_int_t)S.unchecked));
    json_object_set_new(o, "rules_fired", rules);
    json_object_set_new(o, "ops_applied", ops);
    json_object_set_new(o, "verdicts", ver);
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/stats-%s-%d.json", dir, S.target, (int)getpid());
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    if (json_dump_file(o, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) == 0)
        rename(tmp, path);
    json_decref(o);
    S.last = time(NULL);
}

void mf_stats_maybe_dump(void)
{
    if (S.init && time(NULL) != S.last && getenv("MALFORM_STATS_DIR"))
        mf_stats_dump();
}

void mf_fuzz_fail(const mf_check *k)
{
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        if (k->v[i].failed) {
            char line[1024];
            mf_check_line(k, i, line, sizeof line);
            fprintf(stderr, "%s\n", line);
            break;
        }
    fflush(stderr);
    const char *a = getenv("MALFORM_ORACLE_ABORT");
    if (a && strcmp(a, "0") == 0)
        return;
    mf_stats_dump();
    abort();
}
