/*
 * rusage.c - run a command and say what it cost: wall-clock seconds, CPU
 * seconds (user + system) and peak resident memory, from wait4(), so that
 * the benchmark and the memory test need no GNU time.
 *
 * usage: rusage [-i FILE] [-o FILE] -- COMMAND [ARG]...
 *   -i FILE  the command's standard input (default: inherited)
 *   -o FILE  the command's standard output (default: /dev/null)
 * Prints one line on standard output:
 *   status=N wall=S cpu=S maxrss_kb=K
 * and exits with the command's status (125 when it could not be run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int redirect(const char *path, int fd, int flags)
{
	int f = open(path, flags, 0644);

	if (f < 0 || dup2(f, fd) < 0)
		return -1;
	close(f);
	return 0;
}

int main(int argc, char **argv)
{
	const char *in = NULL, *out = "/dev/null";
	struct rusage ru;
	double t0, t1;
	int i = 1, status;
	pid_t pid;

	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "-i") == 0 && i + 1 < argc)
			in = argv[++i];
		else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else
			break;
	}
	if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc) {
		fputs("usage: rusage [-i FILE] [-o FILE] -- COMMAND [ARG]...\n", stderr);
		return 125;
	}
	fflush(stdout);
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("rusage: fork");
		return 125;
	}
	if (pid == 0) {
		if ((in && redirect(in, 0, O_RDONLY)) ||
		    redirect(out, 1, O_WRONLY | O_CREAT | O_TRUNC)) {
			perror("rusage: redirect");
			_exit(125);
		}
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "rusage: %s: %s\n", argv[i + 1], strerror(errno));
		_exit(125);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("rusage: wait4");
		return 125;
	}
	t1 = now();
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("status=%d wall=%.3f cpu=%.3f maxrss_kb=%ld\n", status, t1 - t0,
	       (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6,
	       ru.ru_maxrss);
	return status;
}
