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
 * sweep (every descendant of the subreaper, found in /proc) kills what it
 * left; the sweep runs after a namespace too.
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/contain.h"

static int report_fd = -1;     /* in the decoder: the pipe's write end */

/* Close descriptors lo..hi (hi -1: all above lo). */
static void close_range_from(int lo, int hi)
{
	long max = sysconf(_SC_OPEN_MAX);

	if (hi >= 0 && hi < lo)
		return;
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0u : (unsigned)hi, 0u) == 0)
		return;
#endif
	if (max <= 0 || max > 1 << 20)
		max = 1 << 20;
	for (long i = lo; i < max && (hi < 0 || i <= hi); i++)
		close((int)i);
}

static void put_record(int fd, char tag, int value)
{
	char rec[1 + sizeof value];

	rec[0] = tag;
	memcpy(rec + 1, &value, sizeof value);
	if (write(fd, rec, sizeof rec) != (ssize_t)sizeof rec) {
		/* The caller is gone: nothing to tell. */
	}
}

void or_contain_close_others(void)
{
	int lo = 3;

	/* Two ranges: from 3 up to the report pipe, and past it. */
	if (report_fd >= lo) {
		close_range_from(lo, report_fd - 1);
		lo = report_fd + 1;
	}
	close_range_from(lo, -1);
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
		c->output_limit = 0;
		c->watch_fd[0] = c->watch_fd[1] = -1;
		c->killed = 0;
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

/* The parent of pid from /proc/PID/stat; -1 when pid is gone. */
static long parent_of(long pid)
{
	char path[64], buf[512];
	const char *close_paren;
	long ppid;
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* pid (comm) state ppid ...: comm may hold spaces and ')' */
	if (!(close_paren = strrchr(buf, ')')) || sscanf(close_paren + 1, " %*c %ld", &ppid) != 1)
		return -1;
	return ppid;
}

/* Resident bytes of pid (0 when it cannot be read). */
static unsigned long long resident(long pid)
{
	char path[64], buf[256];
	unsigned long long size = 0, pages = 0;
	int fd;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/statm", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (sscanf(buf, "%llu %llu", &size, &pages) != 2)
		return 0;
	return pages * (unsigned long long)sysconf(_SC_PAGESIZE);
}

struct proc {
	long pid, ppid;
	int in;           /* 0 not known yet, 1 our descendant, 2 not */
};

static int by_pid(const void *a, const void *b)
{
	long x = ((const struct proc *)a)->pid, y = ((const struct proc *)b)->pid;

	return (x > y) - (x < y);
}

/* Is p[i] our descendant? Its ancestors are walked up to us or to a
 * process that is not ours; every one on the way is marked. */
static int mark(struct proc *p, size_t n, size_t i, long self)
{
	size_t path[64], depth = 0, steps = 0;
	int verdict;

	for (;;) {
		struct proc key = { p[i].ppid, 0, 0 }, *up;

		if (++steps > n) {
			/* A loop: pids reused while /proc was read. */
			verdict = 2;
			break;
		}
		if (p[i].in) {
			verdict = p[i].in;
			break;
		}
		if (p[i].ppid == self) {
			verdict = 1;
			break;
		}
		up = bsearch(&key, p, n, sizeof *p, by_pid);
		if (!up || p[i].ppid <= 1) {
			verdict = 2;
			break;
		}
		if (depth == sizeof path / sizeof path[0]) {
			/* Deeper than the path holds: settle the upper part first. */
			verdict = mark(p, n, (size_t)(up - p), self);
			break;
		}
		path[depth++] = i;
		i = (size_t)(up - p);
	}
	p[i].in = verdict;
	while (depth)
		p[path[--depth]].in = verdict;
	return verdict;
}

/* Every descendant of this process, however deep: one pass over /proc
 * gives each process's parent, and each is followed up to us or away.
 * Orphans are our children (we are their subreaper), so a detached daemon
 * is in the tree too. With kill_them each is sent SIGKILL; with rss their
 * resident bytes are summed there. Returns how many there are, or -1 when
 * /proc cannot be read. */
static long descendants(int kill_them, unsigned long long *rss)
{
	struct proc *p = NULL, *grown;
	size_t n = 0, cap = 0;
	long found = 0, self = (long)getpid();
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10), ppid;

		if (pid <= 0 || (ppid = parent_of(pid)) < 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			if (!(grown = realloc(p, cap * sizeof *p))) {
				free(p);
				closedir(d);
				return -1;
			}
			p = grown;
		}
		p[n].pid = pid;
		p[n].ppid = ppid;
		p[n++].in = pid == self ? 2 : 0;
	}
	closedir(d);
	if (n)
		qsort(p, n, sizeof *p, by_pid);
	if (rss)
		*rss = 0;
	for (size_t i = 0; i < n; i++) {
		if (mark(p, n, i, self) != 1)
			continue;
		found++;
		if (kill_them)
			kill((pid_t)p[i].pid, SIGKILL);
		if (rss)
			*rss += resident(p[i].pid);
	}
	free(p);
	return found;
}

/* Kill and reap every descendant the run left, again and again (a process
 * may fork between the pass that finds it and its SIGKILL; its child is
 * then ours next pass) until none is left, for at most 10 seconds.
 * Returns how many were still there when it gave up (-1: /proc unreadable). */
static long sweep(void)
{
	double t0 = now();
	long left;

	for (;;) {
		left = descendants(1, NULL);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (left <= 0)
			return left;
		if (now() - t0 > 10)
			break;
		usleep(1000);
	}
	/* What is still there after the last SIGKILL: gone once reaped? */
	usleep(10000);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return descendants(0, NULL);
}

/* Bytes written to the watched descriptors (their files' sizes). */
static unsigned long long output_size(const struct or_contain *c)
{
	unsigned long long sum = 0;
	struct stat st;

	for (int i = 0; i < 2; i++)
		if (c->watch_fd[i] >= 0 && fstat(c->watch_fd[i], &st) == 0)
			sum += (unsigned long long)st.st_size;
	return sum;
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
		unsigned long long held;

		w = wait4(c->pid, &status, WNOHANG, &r->ru);
		if (w == c->pid)
			break;
		if (w < 0 && errno != EINTR) {
			rc = -1;
			break;
		}
		if (r->timed_out || r->over_memory || r->over_output) {
			/* Killed: wait for the keeper to be reaped. */
		} else if (now() - t0 > timeout) {
			r->timed_out = 1;
		} else if (c->output_limit && output_size(c) > c->output_limit) {
			r->over_output = 1;
		} else if (c->rss_limit && ++polls % 10 == 0 &&
			   descendants(0, &held) >= 0 && held > c->rss_limit) {
			/* The whole tree's resident memory: a child holding
			 * the memory counts as much as the decoder. */
			r->over_memory = 1;
		}
		if ((r->timed_out || r->over_memory || r->over_output) && !c->killed) {
			/* Everything at once; the sweep below gets what forks
			 * in between. */
			kill(-c->pid, SIGKILL);
			kill(c->pid, SIGKILL);
			descendants(1, NULL);
			c->killed = 1;
		}
		usleep(2000);
	}
	r->status = status;
	r->left = sweep();
	if (!r->over_output && c->output_limit && output_size(c) > c->output_limit)
		r->over_output = 1; /* cut at the file-size limit, or past it in the last poll */
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
