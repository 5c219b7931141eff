/* lc_replay.c - replay policy (see lc_replay.h): the rules that keep a fixed
 * bug from coming back silently and keep the corpus true. */
#include <stdio.h>
#include <string.h>
#include "lc_replay.h"

const char *mf_lc_replay_verdict_name(mf_lc_replay_verdict v)
{
    return v == MF_LC_REPLAY_OK ? "ok" : v == MF_LC_REPLAY_FAIL ? "FAIL" : "skip";
}

/* A crash kind only a sanitizer reports (not a plain signal or an oracle). */
static bool needs_sanitizer(const mf_lc_entry *e)
{
    if (!strcmp(e->kind, "leak"))
        return true;
    if (strcmp(e->kind, "crash") || strncmp(e->signature, "crash ", 6))
        return false;
    const char *k = e->signature + strlen("crash ");
    return strncmp(k, "SIG", 3) != 0 && strncmp(k, "deadly-signal", 13) != 0;
}

bool mf_lc_replay_runner(const char *target, const char *kind, const char *profile, char **custom, int timeout_sec,
                         mf_lc_runner *r, mf_lc_eval_ctx *ectx, char ***owned, char *why, size_t n)
{
    memset(r, 0, sizeof *r);
    r->timeout_sec = timeout_sec;
    *owned = NULL;
    ectx->profile = profile;
    ectx->selector = !strcmp(target, "raw");
    if (custom) {
        r->argv = custom;
        return true;
    }
    bool inproc_ok = mf_lc_eval_available() &&
                     (!strcmp(target, "structured") || !strcmp(target, "field") || !strcmp(target, "raw"));
    bool lf;
    if (!(inproc_ok && !strcmp(kind, "oracle")))
        *owned = mf_lc_find_runner(mf_lc_root(), target, &lf);
    if (*owned) {
        r->argv = *owned;
        return true;
    }
    if (inproc_ok) {
        r->fn = mf_lc_eval;
        r->ctx = ectx;
        return true;
    }
    snprintf(why, n, "no runner for target '%s' in this build (build the default or fuzz preset)", target);
    return false;
}

mf_lc_replay_verdict mf_lc_replay_judge(const mf_lc_entry *e, const mf_lc_outcome *o, bool sanitizers, char *msg,
                                        size_t n)
{
    bool fixed = !strcmp(e->status, "fixed");
    if (o->kind == MF_LC_ERROR) {
        snprintf(msg, n, "could not run: %s", o->detail);
        return MF_LC_REPLAY_FAIL;
    }
    if (fixed && o->kind == MF_LC_PASS) {
        snprintf(msg, n, "fixed, passes");
        return MF_LC_REPLAY_OK;
    }
    if (fixed) {
        snprintf(msg, n, "REGRESSED: marked fixed but fails again: %s", o->sig);
        return MF_LC_REPLAY_FAIL;
    }
    if (!strcmp(o->sig, e->signature)) {
        snprintf(msg, n, "open, still fails as recorded (%s)", e->kind);
        return MF_LC_REPLAY_OK;
    }
    if (o->kind == MF_LC_PASS && needs_sanitizer(e) && !sanitizers) {
        snprintf(msg, n, "open sanitizer finding (%s): this build has no sanitizers, replay it in the sanitize preset",
                 e->signature);
        return MF_LC_REPLAY_SKIP;
    }
    if (o->kind == MF_LC_PASS) {
        snprintf(msg, n, "fixed now: flip its status to 'fixed' (was: %s)", e->signature);
        return MF_LC_REPLAY_FAIL;
    }
    snprintf(msg, n, "open, but fails differently: now '%s', recorded '%s'", o->sig, e->signature);
    return MF_LC_REPLAY_FAIL;
}

mf_lc_replay_verdict mf_lc_replay_judge_field(const mf_lc_outcome *o, const char *tracked_by, char *msg, size_t n)
{
    if (o->kind == MF_LC_PASS) {
        snprintf(msg, n, "field case passes");
        return MF_LC_REPLAY_OK;
    }
    if (o->kind == MF_LC_ERROR) {
        snprintf(msg, n, "could not run: %s", o->detail);
        return MF_LC_REPLAY_FAIL;
    }
    if (tracked_by) {
        snprintf(msg, n, "field case fails as tracked by %s", tracked_by);
        return MF_LC_REPLAY_OK;
    }
    snprintf(msg, n, "field case fails untracked: %s (run malform ingest on it)", o->sig);
    return MF_LC_REPLAY_FAIL;
}
