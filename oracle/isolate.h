/*
 * isolate.h - run a command on one input in an isolated child: contained
 * (contain.h: nothing it starts outlives it), a wall-clock time limit, an
 * address-space limit, resident-memory and output limits over the whole
 * process tree, no core files, standard input from /dev/null, standard
 * output and error into the files given and no other descriptor open. Used by gcoracle run (the
 * corpus runner) and gcextrun.
 */
#ifndef ORACLE_ISOLATE_H
#define ORACLE_ISOLATE_H

enum iso_verdict { ISO_EXIT, ISO_CRASH, ISO_TIMEOUT };

struct iso_limits {
	double timeout;           /* seconds */
	unsigned long memory_mb;  /* RLIMIT_AS of the child; 0: none */
	unsigned long rss_mb;     /* resident memory the child and all it starts may hold
				     together; 0: no limit */
	unsigned long long output_bytes; /* standard output and error together, and
				     any one file the run writes; 0: no limit */
};

struct iso_result {
	enum iso_verdict verdict;
	int code;                 /* ISO_EXIT: the exit status; ISO_CRASH: the signal */
	double ms;
	long maxrss_kib;
	int exec_errno;           /* not 0: the command could not be run (ISO_EXIT, code 127) */
	long left;                /* processes of the run that could not be killed (-1:
				     /proc unreadable, not known); 0 normally */
	char detail[80];          /* "exit 1", "signal 11 (Segmentation fault)", ... */
};

/* The command with every "{}" argument replaced by path (path appended when
 * none is), malloc'd; the strings are borrowed. NULL when out of memory. */
char **iso_argv(char *const *cmd, const char *path);

/* Run argv with stdout and stderr going to the descriptors out and err (-1:
 * /dev/null). Returns 0, or -1 when the child could not be made (fork,
 * wait: errno set). A program that cannot be executed exits 127 with
 * exec_errno set. */
int iso_run(char *const *argv, const struct iso_limits *lim, int out, int err,
	    struct iso_result *r);

#endif
