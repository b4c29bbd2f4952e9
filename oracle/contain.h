/*
 * contain.h - run a third-party decoder so that nothing it starts outlives
 * it: gcoracle run (through isolate.h), gcextrun and bt2ctf fork each run
 * through here.
 *
 * A process group is not enough: a decoder's helper may call setsid (a new
 * session and group) or simply be left running when the decoder exits in
 * time. The caller becomes a child subreaper (PR_SET_CHILD_SUBREAPER):
 * orphaned descendants are re-parented to it, whatever their session, so
 * every process the run started is a descendant of the caller. After each
 * run (in time or killed at a limit) the whole tree, found through /proc
 * however deep, is killed and reaped, pass after pass, until none is left
 * (or_contain_result.left says how many were still there after 10 s).
 * A caller runs one run at a time: every descendant belongs to it.
 * GCCONFORM_CONTAIN=pidns in the environment gives each run a PID namespace
 * of its own instead (root, or user namespaces): a small init (PID 1 there)
 * forks the decoder, waits for it, hands its status to the caller through
 * a pipe and exits, and the kernel then kills every other process in the
 * namespace. It is not the default because a decoder built with
 * LeakSanitizer fails inside one (it finds its threads through a /proc that
 * belongs to the parent namespace). Tests hold both ways to one promise.
 *
 * The decoder runs in the child or_contain_start returns 0 in; that child
 * must exec or _exit, never return. A failed exec is reported with
 * or_contain_exec_failed() just before _exit: the caller's wait then says
 * the command could not be run, instead of taking it for a verdict.
 */
#ifndef OR_CONTAIN_H
#define OR_CONTAIN_H

#include <sys/resource.h>
#include <sys/types.h>

struct or_contain {
	pid_t pid;          /* the process the caller waits for and kills */
	int fd;             /* read end: the init's report, the exec error */
	/* Kill the run when its processes (every descendant of the caller)
	 * hold more resident memory than this together (bytes, polled every
	 * 20 ms; 0, as or_contain_start leaves it: no limit). Unlike RLIMIT_AS
	 * it lets a sanitizer-built decoder reserve its shadow memory. */
	unsigned long long rss_limit;
	/* Kill the run when the files open as watch_fd (-1: none, as
	 * or_contain_start leaves them) hold more than output_limit bytes
	 * together (0: no limit). */
	unsigned long long output_limit;
	int watch_fd[2];
	int killed;         /* the tree was killed at a limit */
};

struct or_contain_result {
	int status;         /* the decoder's wait status */
	struct rusage ru;   /* its resource usage */
	int timed_out;      /* killed at the time limit */
	int over_memory;    /* killed at the resident-memory limit */
	int over_output;    /* killed at the output limit */
	long left;          /* processes still alive after the sweep (-1: /proc
			       could not be read): 0 when containment held */
	int exec_errno;     /* not 0: the command could not be run (errno) */
};

/* fork: in the parent the child's pid (> 0), in the decoder's process 0,
 * -1 on failure. */
pid_t or_contain_start(struct or_contain *c);
/* In the decoder's process, before exec: close every descriptor but 0, 1, 2
 * (and the report pipe, which closes itself at exec), so that nothing the
 * caller has open, its report files above all, reaches the decoder. */
void or_contain_close_others(void);
/* In the decoder's process, after a failed exec: tell the caller why. */
void or_contain_exec_failed(int err);
/* Wait for the run, killing it all after timeout seconds or at a limit;
 * then kill and reap anything it left. 0, or -1 when waiting failed. */
int or_contain_wait(struct or_contain *c, double timeout, struct or_contain_result *r);

#endif
