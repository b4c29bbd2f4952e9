/*
 * bt2_ctf.c - babeltrace2 (libbabeltrace2) as a third-party CTF reader under
 * test: the source.ctf.fs -> utils.muxer -> sink graph over one trace
 * directory, run in a forked child with a time limit and an address-space
 * limit, because babeltrace2 2.0.4 aborts on some malformed traces and can
 * grow to gigabytes on others. A crash, an abort, a timeout or a memory
 * limit hit in the child is a finding: the input is saved and reported, and
 * the caller goes on.
 *
 * Two builds of this file:
 * - fuzz/bt2ctf, a command: bt2ctf [-t SECS] [-m MB] [-o DIR] PATH...
 *   where PATH is a trace directory (the one holding `metadata`) or a ustar
 *   archive of one; one verdict line per PATH (accept, reject, crash,
 *   timeout, memory), exit 1 when any finding was made;
 * - with -DFZ_LIBFUZZER, a libFuzzer harness whose input is a ustar archive
 *   of a trace directory (how CTF traces travel as one file; with
 *   -DFZ_STRUCTURED too, mutated by gcmutator as CTF); each trace is
 *   read by the command ($BT2CTF, default fuzz/bt2ctf) exec'd in the child;
 *   findings go to $BT2_FINDINGS (default ./bt2-findings) and never stop
 *   the fuzzer. A command that cannot be run stops it at once (exit 2):
 *   otherwise every input would look like a trace babeltrace2 rejects.
 *
 * Each run is contained (contain.h): anything the child starts dies with
 * it. -t and -m are checked: a finite number of seconds above 0, a whole
 * number of MiB (0: no limit).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "oracle/contain.h"
#include "fuzz/ext/bt2_graph.h"
#include "fuzz/gcmutator/gcm_tar.h"

enum verdict { V_ACCEPT, V_REJECT, V_CRASH, V_TIMEOUT, V_MEMORY };
static const char *const verdict_name[] = { "accept", "reject", "crash", "timeout", "memory" };

/* --- the fork, the limits, the verdict ---------------------------------------------- */

/* Exit statuses the child uses to tell the parent what happened. */
enum { CHILD_ACCEPT = 0, CHILD_REJECT = 1, CHILD_NOMEM = 3 };

/* exec_path: run the graph in a fresh process (this command, "-x DIR")
 * rather than in the forked copy of the caller. A libFuzzer process has
 * threads (its RSS watcher): a fork of it may inherit a lock held by one of
 * them and hang, so the harness execs; the command is single-threaded and
 * reads in the fork directly (exec_path NULL). */
static enum verdict run_forked(const char *dir, double timeout, unsigned long mem_mb,
                               const char *exec_path, char *detail, size_t dlen)
{
	struct or_contain run;
	struct or_contain_result res;
	int status = 0, timed_out = 0;
	FILE *err = tmpfile(); /* the child's stderr: tells a refused allocation */
	char text[4096] = "";
	pid_t pid;

	pid = or_contain_start(&run);
	if (pid < 0) {
		snprintf(detail, dlen, "fork failed");
		return V_REJECT;
	}
	if (pid == 0) {
		struct rlimit as = { (rlim_t)mem_mb << 20, (rlim_t)mem_mb << 20 }, core = { 0, 0 };
		uint64_t events = 0;
		int devnull = open("/dev/null", O_WRONLY);

		if (mem_mb)
			setrlimit(RLIMIT_AS, &as);
		setrlimit(RLIMIT_CORE, &core);
		if (devnull >= 0)
			dup2(devnull, 1);
		if (err)
			dup2(fileno(err), 2);
		if (exec_path) {
			execl(exec_path, "bt2ctf", "-x", dir, (char *)NULL);
			or_contain_exec_failed(errno);
			_exit(127);
		}
		_exit(bt2_read_trace(dir, &events) == 0 ? CHILD_ACCEPT : CHILD_REJECT);
	}
	or_contain_wait(&run, timeout, &res);
	status = res.status;
	timed_out = res.timed_out;
	if (res.exec_errno) {
		fprintf(stderr, "bt2ctf: cannot run %s: %s (set BT2CTF to the bt2ctf command)\n",
		        exec_path ? exec_path : "bt2ctf", strerror(res.exec_errno));
		exit(2);
	}
	if (err) {
		size_t k;

		rewind(err);
		k = fread(text, 1, sizeof text - 1, err);
		text[k] = 0;
		fclose(err);
	}
	if (timed_out) {
		snprintf(detail, dlen, "killed after %.1fs", timeout);
		return V_TIMEOUT;
	}
	/* GLib aborts when the address-space limit refuses an allocation. */
	if (WIFSIGNALED(status) && strstr(text, "failed to allocate")) {
		snprintf(detail, dlen, "over %lu MiB (signal %d)", mem_mb, WTERMSIG(status));
		return V_MEMORY;
	}
	if (WIFSIGNALED(status)) {
		snprintf(detail, dlen, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
		return V_CRASH;
	}
	snprintf(detail, dlen, "exit %d", WEXITSTATUS(status));
	return WEXITSTATUS(status) == CHILD_ACCEPT ? V_ACCEPT : V_REJECT;
}

static int save(const char *findings, const char *name, const uint8_t *p, size_t n)
{
	char path[PATH_MAX];
	FILE *f;

	mkdir(findings, 0777);
	snprintf(path, sizeof path, "%s/%s", findings, name);
	if (!(f = fopen(path, "wb")))
		return -1;
	fwrite(p, 1, n, f);
	return fclose(f);
}

#ifdef FZ_LIBFUZZER
/* --- libFuzzer harness ---------------------------------------------------------------------- */

#ifdef FZ_STRUCTURED
/* gcgen's CTF traces changed structurally by gcmutator (events, values,
 * container faults) rather than byte by byte. */
#include "fuzz/gcmutator/gcmutator.h"
GCM_LIBFUZZER_HOOKS(GCM_FORMAT_CTF)
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dir[] = "/tmp/bt2fuzz.XXXXXX", detail[64], name[64];
	const char *findings = getenv("BT2_FINDINGS") ? getenv("BT2_FINDINGS") : "bt2-findings";
	enum verdict v;
	uint64_t h = 1469598103934665603ull;

	const char *cmd = getenv("BT2CTF") ? getenv("BT2CTF") : "fuzz/bt2ctf";
	static int checked;

	if (!checked) {
		/* A command that is not there would make every input a reject. */
		if (access(cmd, X_OK) != 0) {
			fprintf(stderr, "bt2ctf: cannot run %s: %s (set BT2CTF to the bt2ctf command)\n", cmd,
			        strerror(errno));
			exit(2);
		}
		checked = 1;
	}
	if (!mkdtemp(dir))
		return 0;
	if (gcm_tar_unpack(data, size, dir) > 0) {
		v = run_forked(dir, 10.0, 1024, cmd, detail, sizeof detail);
		if (v >= V_CRASH) {
			for (size_t i = 0; i < size; i++)
				h = (h ^ data[i]) * 1099511628211ull;
			snprintf(name, sizeof name, "%s-%016llx.tar", verdict_name[v], (unsigned long long)h);
			save(findings, name, data, size);
			fprintf(stderr, "bt2ctf: finding: %s (%s) saved as %s/%s\n", verdict_name[v], detail,
			        findings, name);
		}
	}
	gcm_rmdir(dir);
	return 0;
}

#else
/* --- the command ------------------------------------------------------------------------------ */

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n)
		*len = (size_t)n;
	else {
		free(b);
		b = NULL;
	}
	if (f)
		fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	double timeout = 10;
	unsigned long mem = 1024;
	const char *findings = NULL;
	unsigned counts[5] = { 0 };
	int c;

	while ((c = getopt(argc, argv, "t:m:o:x:")) != -1) {
		switch (c) {
		case 'x': { /* the child's side of run_forked(): read one trace here */
			uint64_t events = 0;

			return bt2_read_trace(optarg, &events) == 0 ? CHILD_ACCEPT : CHILD_REJECT;
		}
		case 't': {
			char *end;

			errno = 0;
			timeout = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(timeout > 0) || timeout > 86400) {
				fprintf(stderr, "bt2ctf: -t wants seconds above 0 and up to 86400, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'm': {
			char *end;

			errno = 0;
			if (*optarg < '0' || *optarg > '9' || ((mem = strtoul(optarg, &end, 0)), errno) || *end ||
			    mem > (1ul << 30)) {
				fprintf(stderr, "bt2ctf: -m wants a whole number of MiB, not '%s'\n", optarg);
				return 2;
			}
			break;
		}
		case 'o': findings = optarg; break;
		default:
			fprintf(stderr, "usage: bt2ctf [-t SECS] [-m MB] [-o FINDINGS] TRACE-DIR|TRACE.tar...\n");
			return 2;
		}
	}
	for (int i = optind; i < argc; i++) {
		struct stat st;
		char tmp[] = "/tmp/bt2ctf.XXXXXX", detail[64];
		const char *dir = argv[i];
		uint8_t *data = NULL;
		size_t len = 0;
		enum verdict v;

		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "bt2ctf: %s: %s\n", argv[i], strerror(errno));
			return 2;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (!(data = slurp(argv[i], &len)) || !mkdtemp(tmp) || gcm_tar_unpack(data, len, tmp) <= 0) {
				fprintf(stderr, "bt2ctf: %s: not a trace directory or a ustar archive of one\n",
				        argv[i]);
				free(data);
				return 2;
			}
			dir = tmp;
		}
		v = run_forked(dir, timeout, mem, NULL, detail, sizeof detail);
		counts[v]++;
		printf("%-7s %-24s %s\n", verdict_name[v], detail, argv[i]);
		if (v >= V_CRASH && findings && data) {
			const char *base = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];

			save(findings, base, data, len);
		}
		if (dir == tmp)
			gcm_rmdir(tmp);
		free(data);
	}
	printf("%u accept, %u reject, %u crash, %u timeout, %u memory\n", counts[0], counts[1],
	       counts[2], counts[3], counts[4]);
	return counts[2] || counts[3] || counts[4] ? 1 : 0;
}
#endif
