/*
 * isolate.c - one command in an isolated child (isolate.h). The run is
 * contained (contain.h) so that nothing the decoder starts outlives it, and
 * the limits are set between fork and exec so that they bind the decoder
 * and nothing of the caller.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/contain.h"
#include "oracle/isolate.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

char **iso_argv(char *const *cmd, const char *path)
{
	size_t n = 0;
	int used = 0;
	char **v;

	while (cmd[n])
		n++;
	if (!(v = calloc(n + 2, sizeof *v)))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		used |= strcmp(cmd[i], "{}") == 0;
		v[i] = strcmp(cmd[i], "{}") == 0 ? (char *)path : cmd[i];
	}
	if (!used)
		v[n] = (char *)path;
	return v;
}

int iso_run(char *const *argv, const struct iso_limits *lim, int out, int err,
	    struct iso_result *r)
{
	double t0 = now();
	struct or_contain run;
	struct or_contain_result res;
	pid_t pid;

	memset(r, 0, sizeof r[0]);
	if ((pid = or_contain_start(&run)) < 0)
		return -1;
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
		struct rlimit core = { 0, 0 };

		if (lim->memory_mb) {
			struct rlimit rl = { (rlim_t)lim->memory_mb << 20, (rlim_t)lim->memory_mb << 20 };

			setrlimit(RLIMIT_AS, &rl);
		}
		if (lim->output_bytes) {
			/* The backstop of the caller's poll: no file the run
			 * writes grows past the limit by more than a byte. */
			struct rlimit fs = { lim->output_bytes + 1, lim->output_bytes + 1 };

			setrlimit(RLIMIT_FSIZE, &fs);
		}
		/* No core files: a crash is recorded by the caller, not on disk. */
		setrlimit(RLIMIT_CORE, &core);
		if (devnull >= 0)
			dup2(devnull, 0);
		dup2(out >= 0 ? out : devnull, 1);
		dup2(err >= 0 ? err : devnull, 2);
		or_contain_close_others();
		setpgid(0, 0);
		execvp(argv[0], argv);
		or_contain_exec_failed(errno);
		_exit(127);
	}
	run.rss_limit = (unsigned long long)lim->rss_mb << 20;
	run.output_limit = lim->output_bytes;
	run.watch_fd[0] = out;
	run.watch_fd[1] = err;
	if (or_contain_wait(&run, lim->timeout, &res) < 0)
		return -1;
	r->ms = (now() - t0) * 1000;
	r->maxrss_kib = res.ru.ru_maxrss;
	r->exec_errno = res.exec_errno;
	r->left = res.left;
	if (res.timed_out) {
		r->verdict = ISO_TIMEOUT;
		snprintf(r->detail, sizeof r->detail, "killed after %.1fs", lim->timeout);
	} else if (res.over_memory) {
		r->verdict = ISO_CRASH;
		r->code = SIGKILL;
		snprintf(r->detail, sizeof r->detail, "killed holding over %lu MB resident",
			 lim->rss_mb);
	} else if (res.over_output) {
		r->verdict = ISO_CRASH;
		r->code = SIGKILL;
		snprintf(r->detail, sizeof r->detail, "killed after writing over %llu bytes of output",
			 lim->output_bytes);
	} else if (WIFSIGNALED(res.status)) {
		r->verdict = ISO_CRASH;
		r->code = WTERMSIG(res.status);
		snprintf(r->detail, sizeof r->detail, "signal %d (%s)", r->code, strsignal(r->code));
	} else {
		r->code = WEXITSTATUS(res.status);
		r->verdict = ISO_EXIT;
		if (res.exec_errno)
			snprintf(r->detail, sizeof r->detail, "cannot run: %s", strerror(res.exec_errno));
		else
			snprintf(r->detail, sizeof r->detail, "exit %d", r->code);
	}
	return 0;
}
