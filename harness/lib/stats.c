/* stats.c - campaign counters kept by a fuzz target itself: how often each
 * repair rule fired, each op was applied, each oracle passed or failed.
 * `malform fuzz` reads the dumps ($MALFORM_STATS_DIR/stats-<target>-<pid>.json,
 * rewritten atomically at most once a second, at exit and before an abort)
 * instead of re-running the corpus. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "finding.h"
#include "harness.h"

#ifndef MF_ENGINE_NAME
#define MF_ENGINE_NAME "replay"
#endif

static struct {
    const char *target;
    unsigned long long execs, unchecked;
    unsigned long long *rules;     /* per mf_rules_at index */
    unsigned long long *ops;       /* per mf_ops_at index */
    unsigned long long verdicts[MF_ORACLE_COUNT][2];
    unsigned long long findings, known_findings, repeat_findings, valid_renders;
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
    /* a rejection rule fires as a rejection, never as a warning */
    const char *rejected_by = k->result->status == MF_REJECTED && k->result->error.type &&
                                      !strcmp(k->result->error.type, "PROMPT_ECHO")
                                  ? "echo.prompt"
                                  : NULL;
    for (size_t j = 0; S.rules && rejected_by && j < nr; j++)
        if (!strcmp(mf_rules_at(j)->id, rejected_by))
            S.rules[j]++;
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
    S.valid_renders += k->valid_render;
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
    json_object_set_new(o, "findings", json_integer((json_int_t)S.findings));
    json_object_set_new(o, "known_findings", json_integer((json_int_t)S.known_findings));
    json_object_set_new(o, "repeat_findings", json_integer((json_int_t)S.repeat_findings));
    json_object_set_new(o, "valid_renders", json_integer((json_int_t)S.valid_renders));
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

/* Record one failure; false when no findings directory is set (or it cannot
 * be written), so the caller falls back to printing and aborting. */
static bool record(const char *line, bool raw, const void *data, size_t len)
{
    char sig[720], oracle[64], profile[64], detail[600] = "";
    mf_finding_oracle_signature(line, sig, sizeof sig, oracle, profile);
    const char *rules = strstr(line, " rules="), *d = rules ? strstr(rules, ": ") : NULL;
    if (d)
        snprintf(detail, sizeof detail, "%s", d + 2);
    mf_finding f = {.signature = sig, .kind = "oracle", .oracle = oracle, .profile = profile,
                    .target = S.target ? S.target : "structured", .engine = MF_ENGINE_NAME, .detail = detail,
                    .raw = raw, .payload = data, .payload_len = len};
    switch (mf_finding_record(&f)) {
    case MF_FINDING_OFF:
        return false;
    case MF_FINDING_NEW:
        S.findings++;
        fprintf(stderr, "malform-finding: %s\n", sig);
        return true;
    case MF_FINDING_KNOWN:
        S.known_findings++;
        return true;
    case MF_FINDING_SEEN:
        S.repeat_findings++;
        return true;
    case MF_FINDING_ERROR:
    default:
        fprintf(stderr, "malform: cannot record a finding in %s: %s\n", mf_finding_dir(), strerror(errno));
        return false;
    }
}

void mf_fuzz_finding(const mf_check *k, const void *data, size_t len)
{
    for (int i = 0; i < MF_ORACLE_COUNT; i++)
        if (k->v[i].failed) {
            char line[1024];
            mf_check_line(k, i, line, sizeof line);
            if (record(line, !k->structured, data, len))
                return;
            break;
        }
    mf_fuzz_fail(k);
}

void mf_fuzz_report(const char *line, bool raw, const void *data, size_t len)
{
    if (record(line, raw, data, len))
        return;
    fprintf(stderr, "%s\n", line);
    fflush(stderr);
    const char *a = getenv("MALFORM_ORACLE_ABORT");
    if (a && strcmp(a, "0") == 0)
        return;
    mf_stats_dump();
    abort();
}

/* One call in every ($var, else dflt) in a recording campaign, else every call. */
static bool due(long *every, unsigned long *n, const char *var, long dflt)
{
    if (*every < 0) {
        const char *e = getenv(var);
        *every = !mf_finding_dir() ? 1 : e && atol(e) > 0 ? atol(e) : dflt;
    }
    return (*n)++ % (unsigned long)*every == 0;
}

bool mf_fuzz_determinism_due(void)
{
    static long every = -1;
    static unsigned long n;
    return due(&every, &n, "MALFORM_DETERMINISM_EVERY", 8);
}

bool mf_fuzz_metamorphic_due(void)
{
    static long every = -1;
    static unsigned long n;
    return due(&every, &n, "MALFORM_METAMORPHIC_EVERY", MF_METAMORPHIC_EVERY);
}
