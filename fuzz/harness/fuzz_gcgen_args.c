/*
 * fuzz_gcgen_args.c - gcgen's command line as a user could type it: the
 * input is its arguments, NUL-separated (at most 24), and gcgen's option
 * parser and run (gen/options.h, gen/run.h: what its main does) run on
 * them in a forked child, its output in a fresh directory.
 *
 * What must hold: whatever the arguments, gcgen exits 0, 1 or 2 (gcgen(1))
 * and never dies of a signal other than the limits set here; a sanitizer
 * report in the child is a crash (it aborts). The child runs under an alarm
 * (a legal run may be long: --gcs 10^12), a file-size limit (a legal output
 * may be large) and an address-space limit where no sanitizer reserves
 * address space; those signals end a legal run, not a bug.
 *
 * The child is a fresh process per input: the parser's getopt state and
 * its exit(2) on bad usage stay in it, and inputs stay independent. The
 * arguments never leave the directory: every '/' becomes '_' (but in
 * --shard's I/N, which names no file), so a fuzzed "-o /etc/passwd" or
 * "--output=../x" writes a file in it.
 */
#include "config.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gen/formats/ctf/outdir.h"
#include "gen/options.h"
#include "gen/run.h"

void __sanitizer_set_death_callback(void (*callback)(void));
__attribute__((weak)) void __sanitizer_set_death_callback(void (*callback)(void))
{
	(void)callback;
}

#define MAX_ARGS 24

static void die_loudly(void)
{
	abort();
}

/* gcgen's exit(n) in the child ends here, before the fuzzing engine's own
 * exit handler (registered earlier, so run later) takes any exit during an
 * input for a failure and changes the status. */
static void exit_as_is(int status, void *arg)
{
	(void)arg;
	fflush(NULL);
	_exit(status);
}

/* An argument that cannot name anything outside the current directory
 * (getopt takes "--sh" for --shard: any prefix of it keeps its '/'). */
static void confine(char *a, const char *prev)
{
	if (strncmp(a, "--sh", 4) == 0 || (prev && strncmp(prev, "--sh", 4) == 0))
		return;
	for (char *c = a; *c; c++)
		if (*c == '/')
			*c = '_';
}

/* What gcgen's main does (gen/gcgen.c). */
static int gcgen(int argc, char **argv)
{
	struct gen_options o;
	int rc = gen_options_parse(&o, argc, argv);

	return rc == GEN_OPTIONS_RUN ? gen_run(&o) : rc;
}

static void run_child(const uint8_t *data, size_t size, const char *dir)
{
	char *argv[MAX_ARGS + 3], *buf = malloc(size + 1);
	int argc = 0, devnull = open("/dev/null", O_RDWR);
	struct rlimit fsize = { 1 << 20, 1 << 20 }, core = { 0, 0 };

	if (!buf || chdir(dir) != 0)
		_exit(0);
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[argc++] = (char *)"gcgen";
	argv[argc++] = (char *)"-q";
	for (size_t i = 0; i <= size && argc < MAX_ARGS + 2;) {
		char *a = buf + i;
		size_t n = strlen(a);

		confine(a, argc > 2 ? argv[argc - 1] : NULL);
		argv[argc++] = a;
		i += n + 1;
	}
	argv[argc] = NULL;
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
	}
	setrlimit(RLIMIT_FSIZE, &fsize);
	setrlimit(RLIMIT_CORE, &core);
	signal(SIGXFSZ, SIG_DFL);
	__sanitizer_set_death_callback(die_loudly);
	alarm(2);
	optind = 1;
	on_exit(exit_as_is, NULL);
	exit(gcgen(argc, argv));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/gcgenargs.XXXXXX";
	int status;
	pid_t pid;

	if (size > 4096 || !mkdtemp(dir))
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		run_child(data, size, dir);
	if (pid > 0) {
		while (waitpid(pid, &status, 0) < 0)
			;
		if (WIFSIGNALED(status)) {
			int sig = WTERMSIG(status);

			/* The limits above end long legal runs; anything else is gcgen's. */
			if (sig != SIGALRM && sig != SIGXFSZ && sig != SIGKILL) {
				fprintf(stderr, "fuzz_gcgen_args: gcgen died of signal %d\n", sig);
				abort();
			}
		} else if (WEXITSTATUS(status) > 2) {
			fprintf(stderr, "fuzz_gcgen_args: gcgen exited %d (0, 1 or 2 only)\n",
			        WEXITSTATUS(status));
			abort();
		}
	}
	/* Whatever the run left: files only (gcgen makes no subdirectories but
	 * a CTF trace, whose files are plain). */
	{
		DIR *d = opendir(dir);
		struct dirent *e;
		char p[4096];

		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.' && (!e->d_name[1] || (e->d_name[1] == '.' && !e->d_name[2])))
				continue;
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			if (unlink(p) != 0)
				gen_outdir_remove(p);
		}
		if (d)
			closedir(d);
		rmdir(dir);
	}
	return 0;
}
