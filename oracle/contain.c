/*
 * contain.c - a decoder's whole process tree, killed after each run (see
 * contain.h).
 *
 * The process tree, with a PID namespace:
 *   caller ── keeper (caller's namespace; unshare(CLONE_NEWPID))
 *                └── init (PID 1 of the new namespace; dies with the keeper)
 *                      └── decoder ── whatever it starts, setsid or not
 * Only glibc's fork is used (no raw clone): the libFuzzer harness has
 * threads, and fork is what keeps the child's libc consistent. The keeper
 * is the process the caller waits for and kills: the init has
 * PR_SET_PDEATHSIG SIGKILL, and when an init dies the kernel kills the
 * rest of its namespace. Records on the pipe: 'E' + errno (the decoder's
 * exec failed), 'S' + wait status (the init saw the decoder end).
 * Without a namespace the keeper is the decoder itself, and the caller's
 * sweep (a subreaper's children, found in /proc) kills what it left.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/contain.h"

static int report_fd = -1;     /* in the decoder: the pipe's write end */

static void put_record(int fd, char tag, int value)
{
	char rec[1 + sizeof value];

	rec[0] = tag;
	memcpy(rec + 1, &value, sizeof value);
	if (write(fd, rec, sizeof rec) != (ssize_t)sizeof rec) {
		/* The caller is gone: nothing to tell. */
	}
}

void or_contain_exec_failed(int err)
{
	if (report_fd >= 0)
		put_record(report_fd, 'E', err);
}

/* PID 1 of the run's namespace: wait for the decoder (reaping orphans as
 * an init must), report its status, exit; the kernel then kills the rest. */
static void be_init(pid_t decoder, int fd)
{
	int status;
	pid_t w;

	for (;;) {
		w = waitpid(-1, &status, 0);
		if (w == decoder)
			break;
		if (w < 0 && errno != EINTR)
			_exit(125);
	}
	put_record(fd, 'S', status);
	_exit(0);
}

pid_t or_contain_start(struct or_contain *c)
{
	static int subreaper;
	const char *mode = getenv("GCCONFORM_CONTAIN");
	int p[2];
	pid_t pid;

	if (!subreaper) {
		/* Orphans of every run come to us, whatever the containment. */
		prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
		subreaper = 1;
	}
	if (pipe2(p, O_CLOEXEC) != 0)
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (pid > 0) {
		close(p[1]);
		c->pid = pid;
		c->fd = p[0];
		c->rss_limit = 0;
		return pid;
	}
	close(p[0]);
	report_fd = p[1];
	/* A PID namespace only when asked: a decoder built with LeakSanitizer
	 * cannot stop its own threads in one (it reads thread ids from the
	 * parent namespace's /proc) and fails every run. */
	if (mode && strcmp(mode, "pidns") == 0 && unshare(CLONE_NEWPID) == 0) {
		pid_t init = fork();

		if (init < 0)
			_exit(125);
		if (init > 0) {
			int status;

			/* The keeper: lives as long as the init; killed, it takes
			 * the init (PDEATHSIG) and so the namespace with it. */
			close(p[1]);
			while (waitpid(init, &status, 0) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		{
			pid_t decoder = fork();

			if (decoder < 0)
				_exit(125);
			if (decoder > 0)
				be_init(decoder, p[1]);
		}
	}
	/* The decoder: the caller execs (or _exits) from here. */
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Kill and reap every child the caller has left (orphans re-parented to
 * it as a subreaper), until there is none. */
static void sweep(void)
{
	char path[64], buf[512];
	pid_t self = getpid();

	for (int round = 0; round < 100; round++) {
		DIR *d = opendir("/proc");
		struct dirent *e;
		int found = 0;

		if (!d)
			break;
		while ((e = readdir(d))) {
			long pid = strtol(e->d_name, NULL, 10), ppid = 0;
			const char *close_paren;
			FILE *f;
			size_t n;

			if (pid <= 0 || pid == self)
				continue;
			snprintf(path, sizeof path, "/proc/%ld/stat", pid);
			if (!(f = fopen(path, "r")))
				continue;
			n = fread(buf, 1, sizeof buf - 1, f);
			fclose(f);
			buf[n] = 0;
			/* pid (comm) state ppid ...: comm may hold spaces and ')' */
			if (!(close_paren = strrchr(buf, ')')) ||
			    sscanf(close_paren + 1, " %*c %ld", &ppid) != 1 || ppid != self)
				continue;
			kill((pid_t)pid, SIGKILL);
			found = 1;
		}
		closedir(d);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!found)
			break;
		usleep(1000);
	}
}

/* Resident bytes of pid (0 when it cannot be read). */
static unsigned long long resident(pid_t pid)
{
	char path[64];
	unsigned long long size = 0, pages = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fscanf(f, "%llu %llu", &size, &pages) != 2)
		pages = 0;
	fclose(f);
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

int or_contain_wait(struct or_contain *c, double timeout, struct or_contain_result *r)
{
	unsigned polls = 0;
	double t0 = now();
	int status = 0, rc = 0;
	pid_t w;
	char rec[1 + sizeof(int)];

	memset(r, 0, sizeof *r);
	for (;;) {
		w = wait4(c->pid, &status, WNOHANG, &r->ru);
		if (w == c->pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -1;
			break;
		}
		if (!r->timed_out && now() - t0 > timeout) {
			/* The keeper and its group (without a namespace: the
			 * decoder and the helpers in its group); the sweep below
			 * gets the rest. */
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			r->timed_out = 1;
		}
		if (c->rss_limit && !r->timed_out && !r->over_memory && ++polls % 10 == 0 &&
		    resident(c->pid) > c->rss_limit) {
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			r->over_memory = 1;
		}
		usleep(2000);
	}
	r->status = status;
	sweep();
	/* Every writer is gone now (the namespace died with its init, the
	 * sweep killed the rest): read the records to the end. */
	fcntl(c->fd, F_SETFL, O_NONBLOCK);
	while (read(c->fd, rec, sizeof rec) == (ssize_t)sizeof rec) {
		int v;

		memcpy(&v, rec + 1, sizeof v);
		if (rec[0] == 'E')
			r->exec_errno = v;
		else if (rec[0] == 'S')
			r->status = v;
	}
	close(c->fd);
	c->fd = -1;
	return rc;
}
