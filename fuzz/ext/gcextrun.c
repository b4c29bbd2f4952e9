/*
 * gcextrun.c - run any third-party decoder over gcconform streams, the way
 * JSONTestSuite runs parsers: each input in a forked child with a time limit
 * and an address-space limit, one verdict per input.
 *
 *   gcextrun [OPTIONS] -- COMMAND [ARG...]     ("{}" in an ARG: the input path;
 *                                               without one, the path is appended)
 *   -i, --input PATH      a file, or every file in a directory (repeatable)
 *   -n, --mutants N       also N structure-aware mutants (gcmutator) of the inputs,
 *                         or of generated streams when there are no inputs
 *   -F, --formats LIST    containers for mutants: cbor,nettrace,nettrace-v4,-v5,-v6,
 *                         etl (default nettrace; CTF is a directory: use bt2ctf)
 *   -s, --seed N          first mutation seed (default 1)
 *   -t, --timeout SECS    per run (default 10)
 *   -m, --memory MB       RLIMIT_AS of the child (default 2048; 0: none)
 *   -c, --crash-exit N    exit status N counts as a crash (repeatable): for
 *                         wrappers that report an internal defect by status
 *   -o, --findings DIR    keep every crash and timeout input there
 *   -q, --quiet           only the summary and the findings
 *
 * Verdicts: accept (exit 0), reject (other exit status), crash (killed by a
 * signal, or a --crash-exit status), timeout (killed at the time limit). One
 * line per input: verdict, milliseconds, peak RSS in KiB, exit detail, name;
 * then "N accept, N reject, N crash, N timeout". Exit status: 0, or 1 when
 * any crash or timeout was seen, 2 on bad usage or when the command cannot
 * be run at all (not found, not executable: that is no verdict).
 *
 * Each run is contained (contain.h): whatever the decoder starts, in its
 * process group or not (setsid), is killed when the run ends, in time or
 * not. Limits are checked: a timeout is a finite number of seconds above 0,
 * a memory limit a whole number of MiB (0: none).
 *
 * Mutants are written to a temporary directory (removed at the end) under
 * names that keep the container's usual suffix, since some decoders look at
 * it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz/gcmutator/gcmutator.h"
#include "oracle/isolate.h"

enum verdict { V_ACCEPT, V_REJECT, V_CRASH, V_TIMEOUT };
static const char *const verdict_name[] = { "accept", "reject", "crash", "timeout" };

struct opts {
	char **cmd;
	double timeout;
	unsigned long memory_mb;
	int crash_exit[16];
	unsigned ncrash_exit;
	const char *findings;
	int quiet;
};

static unsigned counts[4];

static int copy_file(const char *from, const char *dir, const char *name)
{
	char path[4096];
	FILE *in = fopen(from, "rb"), *out;
	char buf[65536];
	size_t n;
	int rc = 0;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	out = fopen(path, "wb");
	if (!in || !out) {
		rc = -1;
	} else {
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			if (fwrite(buf, 1, n, out) != n)
				rc = -1;
	}
	if (in)
		fclose(in);
	if (out && fclose(out) != 0)
		rc = -1;
	return rc;
}

static enum verdict run_one(const struct opts *o, const char *path, const char *label)
{
	char **argv = iso_argv(o->cmd, path);
	struct iso_limits lim = { o->timeout, o->memory_mb, 0, 0 };
	struct iso_result res;
	enum verdict v;

	if (!argv) {
		fprintf(stderr, "gcextrun: out of memory\n");
		exit(2);
	}
	if (iso_run(argv, &lim, -1, -1, &res) < 0) {
		fprintf(stderr, "gcextrun: %s: %s\n", argv[0], strerror(errno));
		exit(2);
	}
	if (res.exec_errno) {
		/* No verdict: every input would be a "reject". */
		fprintf(stderr, "gcextrun: cannot run %s: %s\n", argv[0], strerror(res.exec_errno));
		exit(2);
	}
	free(argv);
	if (res.verdict == ISO_TIMEOUT) {
		v = V_TIMEOUT;
	} else if (res.verdict == ISO_CRASH) {
		v = V_CRASH;
	} else {
		v = res.code == 0 ? V_ACCEPT : V_REJECT;
		for (unsigned i = 0; i < o->ncrash_exit; i++)
			if (res.code == o->crash_exit[i])
				v = V_CRASH;
	}
	counts[v]++;
	if (!o->quiet || v >= V_CRASH)
		printf("%-7s %7.0f ms %8ld KiB  %-22s %s\n", verdict_name[v], res.ms,
		       res.maxrss_kib, res.detail, label);
	if (v >= V_CRASH && o->findings) {
		const char *base = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
		char name[512];

		mkdir(o->findings, 0777);
		snprintf(name, sizeof name, "%s-%s", verdict_name[v], base);
		if (copy_file(path, o->findings, name) != 0)
			fprintf(stderr, "gcextrun: cannot save %s in %s\n", label, o->findings);
	}
	return v;
}

static int run_path(const struct opts *o, const char *path, char ***list, size_t *n)
{
	struct stat st;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "gcextrun: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (S_ISDIR(st.st_mode)) {
		struct dirent **ents;
		int k = scandir(path, &ents, NULL, alphasort);

		if (k < 0)
			return -1;
		for (int i = 0; i < k; i++) {
			char p[4096];

			snprintf(p, sizeof p, "%s/%s", path, ents[i]->d_name);
			if (ents[i]->d_name[0] != '.' && stat(p, &st) == 0 && S_ISREG(st.st_mode))
				run_path(o, p, list, n);
			free(ents[i]);
		}
		free(ents);
		return 0;
	}
	run_one(o, path, path);
	*list = realloc(*list, (*n + 1) * sizeof **list);
	(*list)[(*n)++] = strdup(path);
	return 0;
}

/* Option values, refused unless whole and in range: a limit that does not
 * parse must not silently become no limit. */
static unsigned long parse_count(const char *s, const char *what, unsigned long max)
{
	char *end;
	unsigned long v;

	errno = 0;
	if (*s < '0' || *s > '9' || ((v = strtoul(s, &end, 0)), errno) || *end || v > max) {
		fprintf(stderr, "gcextrun: %s wants a whole number up to %lu, not '%s'\n", what, max, s);
		exit(2);
	}
	return v;
}

static double parse_seconds(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v > 0) || v > 86400) {
		fprintf(stderr, "gcextrun: -t wants seconds above 0 and up to 86400, not '%s'\n", s);
		exit(2);
	}
	return v;
}

static unsigned parse_formats(const char *s)
{
	static const struct { const char *name; unsigned bits; } f[] = {
		{ "cbor", GCM_FORMAT_CBOR }, { "nettrace", GCM_FORMAT_NETTRACE },
		{ "nettrace-v4", GCM_FORMAT_NETTRACE_V4 }, { "nettrace-v5", GCM_FORMAT_NETTRACE_V5 },
		{ "nettrace-v6", GCM_FORMAT_NETTRACE_V6 }, { "etl", GCM_FORMAT_ETL },
	};
	unsigned bits = 0;

	while (*s) {
		size_t k = strcspn(s, ","), i;

		for (i = 0; i < sizeof f / sizeof f[0]; i++)
			if (strlen(f[i].name) == k && !strncmp(f[i].name, s, k))
				break;
		if (i == sizeof f / sizeof f[0])
			return 0;
		bits |= f[i].bits;
		s += k + (s[k] == ',');
	}
	return bits;
}

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (b = malloc((size_t)n + 1)) && fread(b, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
	} else {
		free(b);
		b = NULL;
	}
	if (f)
		fclose(f);
	return b;
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "input", required_argument, NULL, 'i' }, { "mutants", required_argument, NULL, 'n' },
		{ "formats", required_argument, NULL, 'F' }, { "seed", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' }, { "memory", required_argument, NULL, 'm' },
		{ "crash-exit", required_argument, NULL, 'c' },
		{ "findings", required_argument, NULL, 'o' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	struct opts o = { NULL, 10.0, 2048, { 0 }, 0, NULL, 0 };
	const char *inputs[256];
	unsigned ninputs = 0, nmut = 0, seed = 1, formats = GCM_FORMAT_NETTRACE;
	char **done = NULL;
	size_t ndone = 0;
	int c;

	while ((c = getopt_long(argc, argv, "+i:n:F:s:t:m:c:o:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (ninputs < 256)
				inputs[ninputs++] = optarg;
			break;
		case 'n': nmut = (unsigned)parse_count(optarg, "-n", 100000000); break;
		case 'F':
			if (!(formats = parse_formats(optarg))) {
				fprintf(stderr, "gcextrun: unknown format in '%s'\n", optarg);
				return 2;
			}
			break;
		case 's': seed = (unsigned)parse_count(optarg, "-s", UINT32_MAX); break;
		case 't': o.timeout = parse_seconds(optarg); break;
		case 'm': o.memory_mb = parse_count(optarg, "-m", 1ul << 30); break;
		case 'c':
			if (o.ncrash_exit < 16)
				o.crash_exit[o.ncrash_exit++] = (int)parse_count(optarg, "-c", 255);
			break;
		case 'o': o.findings = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'h':
			printf("usage: gcextrun [-i PATH]... [-n N [-F FORMATS] [-s SEED]] [-t SECS] [-m MB]\n"
			       "                [-c STATUS]... [-o DIR] [-q] -- COMMAND [ARG...]\n"
			       "({} in an ARG stands for the input file; see the comment in fuzz/ext/gcextrun.c)\n");
			return 0;
		default:
			return 2;
		}
	}
	if (optind >= argc || o.timeout <= 0) {
		fprintf(stderr, "gcextrun: no command (usage: gcextrun [OPTIONS] -- COMMAND [ARG...])\n");
		return 2;
	}
	o.cmd = argv + optind;
	for (unsigned i = 0; i < ninputs; i++)
		run_path(&o, inputs[i], &done, &ndone);
	if (nmut) {
		char dir[] = "/tmp/gcextrun.XXXXXX";
		size_t cap = 1 << 20;
		uint8_t *buf = malloc(cap);

		/* Room for the largest input to grow to twice its size. */
		for (size_t i = 0; buf && i < ndone; i++) {
			struct stat st;

			if (stat(done[i], &st) == 0 && (uint64_t)st.st_size > cap / 2) {
				uint8_t *bigger;

				if ((uint64_t)st.st_size > (1ull << 30)) {
					fprintf(stderr, "gcextrun: %s: over 1 GiB, too large to mutate\n", done[i]);
					return 2;
				}
				cap = (size_t)st.st_size * 2 + (64u << 10);
				if (!(bigger = realloc(buf, cap)))
					free(buf);
				buf = bigger;
			}
		}
		if (!buf || !mkdtemp(dir)) {
			fprintf(stderr, "gcextrun: cannot make a temporary directory\n");
			return 2;
		}
		for (unsigned k = 0; k < nmut; k++) {
			size_t len = 0;
			char path[4096], label[64];
			FILE *f;

			if (ndone) {
				uint8_t *in = slurp(done[k % ndone], &len);

				if (in && len <= cap / 2) {
					memcpy(buf, in, len);
					len = gcm_mutate(buf, len, cap, seed + k, formats);
				} else {
					fprintf(stderr, "gcextrun: cannot read %s\n", done[k % ndone]);
					return 2;
				}
				free(in);
			} else {
				len = gcm_seed_stream(buf, cap / 2, seed + k, formats);
				len = gcm_mutate(buf, len, cap / 2, seed + k, formats);
			}
			snprintf(label, sizeof label, "mutant-%u%s", seed + k,
			         len >= 8 && !memcmp(buf, "Nettrace", 8) ? ".nettrace" :
			         len && (buf[0] >> 5) == 5 ? ".cbor" : ".etl");
			snprintf(path, sizeof path, "%s/%s", dir, label);
			f = fopen(path, "wb");
			if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
				fprintf(stderr, "gcextrun: cannot write %s\n", path);
				return 2;
			}
			run_one(&o, path, label);
			unlink(path);
		}
		rmdir(dir);
		free(buf);
	}
	printf("%u accept, %u reject, %u crash, %u timeout\n", counts[V_ACCEPT], counts[V_REJECT],
	       counts[V_CRASH], counts[V_TIMEOUT]);
	for (size_t i = 0; i < ndone; i++)
		free(done[i]);
	free(done);
	return counts[V_CRASH] || counts[V_TIMEOUT] ? 1 : 0;
}
