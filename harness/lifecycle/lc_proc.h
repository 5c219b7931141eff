/* lc_proc.h - the one way malform starts a child process.
 *
 * A child runs a program (argv, execvp) or a function (fn, in a fork) in its
 * own process group, with stdin on /dev/null, its stdout+stderr appended to a
 * log file, handed line by line to a callback, kept in memory, or inherited.
 * The parent polls it about ten times a second: a stop check and a deadline
 * end it (SIGTERM to the group, SIGKILL after a grace period), a tick
 * callback reports progress. Whatever happens, nothing outlives malform: the
 * child has PR_SET_PDEATHSIG(SIGKILL), and a guard process (started once,
 * holding one end of a socket) kills every registered process group when
 * malform dies, even by SIGKILL. When the child ends, the rest of its group
 * is killed too. */
#ifndef MALFORM_LC_PROC_H
#define MALFORM_LC_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct mf_lc_proc {
    /* what runs */
    char *const *argv;             /* program and arguments (execvp), or NULL for fn */
    int (*fn)(void *ctx);          /* run in the forked child; its exit code is fn's return */
    const char *dir;               /* working directory of the child, or NULL */
    char *const *env;              /* extra "NAME=value" settings for the child, or NULL */
    void (*child_setup)(void *ctx);/* called in the child just before exec/fn, or NULL */
    /* where its output goes: log and/or on_line and/or capture; none of them: inherited */
    const char *log;               /* stdout+stderr appended to this file */
    bool log_truncate;             /* start the log empty instead of appending */
    void (*on_line)(void *ctx, const char *line); /* each output line, without its '\n' */
    size_t capture;                /* keep the first `capture` bytes of output in out */
    bool keep_stderr;              /* stderr stays the parent's (only stdout is redirected) */
    /* when it ends early */
    double deadline;               /* mf_lc_clock() time to end it at (0: none) */
    double grace;                  /* seconds from SIGTERM to SIGKILL (0: SIGKILL at once) */
    bool (*stop)(void *ctx);       /* polled while it runs: true ends it */
    void (*tick)(void *ctx);       /* called about ten times a second while it runs */
    void *ctx;
    /* results (read after mf_lc_proc_wait) */
    pid_t pid;
    int status;                    /* wait status */
    bool timed_out;                /* the deadline ended it */
    bool stopped;                  /* the stop check ended it */
    char *out;                     /* captured output, NUL-terminated (capture > 0) */
    size_t out_len;
    /* private */
    int fd, logfd;
    double term_at;
    char *part;
    size_t part_len;
} mf_lc_proc;

/* Start p's child. 0, or -1 with errno (nothing started). */
int mf_lc_proc_start(mf_lc_proc *p);
/* Wait for p's child to end, feeding its output and polling stop, deadline
 * and tick; then kill what is left of its group. Returns the wait status. */
int mf_lc_proc_wait(mf_lc_proc *p);
/* Start and wait. The wait status, or -1 with errno when it could not start. */
int mf_lc_proc_run(mf_lc_proc *p);
/* Release p->out. */
void mf_lc_proc_free(mf_lc_proc *p);
/* For a child started some other way (e.g. a worker with pipes both ways):
 * after it made itself a process group leader (setpgid), register its group
 * with the guard so it is killed if malform dies; mf_lc_proc_unguard once it
 * has been reaped. */
void mf_lc_proc_guard(pid_t pgid);
void mf_lc_proc_unguard(pid_t pgid);
/* Exit code of a wait status: the code of a normal exit, 128 + the signal of
 * a killed child, -1 for a status that is neither. */
int mf_lc_proc_exit_code(int status);
/* One line describing a wait status: "exit 3", "killed by SIGSEGV", ... */
const char *mf_lc_proc_describe(int status, char *buf, size_t n);

#endif
