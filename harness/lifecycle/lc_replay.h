/* lc_replay.h - replay policy: which runner replays a regression entry or a
 * field case, and what its outcome now means for it. `malform replay`
 * walks the files and prints; this decides. */
#ifndef MALFORM_LC_REPLAY_H
#define MALFORM_LC_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include "lc_eval.h"
#include "lifecycle.h"

typedef enum { MF_LC_REPLAY_OK, MF_LC_REPLAY_FAIL, MF_LC_REPLAY_SKIP } mf_lc_replay_verdict;

/* "ok", "FAIL" or "skip". */
const char *mf_lc_replay_verdict_name(mf_lc_replay_verdict v);
/* Fill r (and ectx, which r may point to) with the runner for an input of
 * target/kind under profile: custom (an argv) when given; oracle failures of
 * the structured, raw and field targets in-process (a forked child); other
 * kinds through the target's built binary (sanitizers) when there is one,
 * else in-process. *owned gets an argv to free with mf_lc_paths_free (or
 * NULL). False, with why, when this build cannot replay it. */
bool mf_lc_replay_runner(const char *target, const char *kind, const char *profile, char **custom, int timeout_sec,
                         mf_lc_runner *r, mf_lc_eval_ctx *ectx, char ***owned, char *why, size_t n);
/* An entry replayed now with outcome o: a fixed entry must pass; an open
 * one must fail with its recorded signature (passing now is a failure too:
 * "flip its status"), unless it is a sanitizer-only crash and the runner
 * has no sanitizers (sanitizers false): then it is skipped. msg says why. */
mf_lc_replay_verdict mf_lc_replay_judge(const mf_lc_entry *e, const mf_lc_outcome *o, bool sanitizers, char *msg,
                                        size_t n);
/* A field case replayed with outcome o: it must pass, or fail with a
 * signature a regression entry tracks (tracked_by: that entry's path, or NULL). */
mf_lc_replay_verdict mf_lc_replay_judge_field(const mf_lc_outcome *o, const char *tracked_by, char *msg, size_t n);

#endif
