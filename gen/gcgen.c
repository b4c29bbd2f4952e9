/*
 * gcgen.c - the command line: parse options, wire simulator or exhaustive
 * generator -> (mutator) -> writer, write to a temporary file beside the
 * output and rename it into place, so an interrupted run leaves nothing
 * half-written. Directory containers (CTF) get a temporary directory that
 * is put in place the same way (outdir.h). Exit 0 on success, 1 on failure,
 * 2 on bad usage.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libgen.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gen/model/emit.h"
#include "gen/model/exhaustive.h"
#include "gen/faults/fault.h"
#include "gen/faults/mutate.h"
#include "gen/faults/mutate_container.h"
#include "gen/formats/ctf/outdir.h"
#include "gen/formats/outfile.h"
#include "gen/model/profiles.h"
#include "gen/model/rng.h"
#include "gen/model/sim.h"
#include "gen/formats/writer.h"

static const char *progname = "gcgen";

static void usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", progname);
	exit(2);
}

/* What --help, --version and the lists printed: exit 1 when it could not
 * all be written (a full disk, a closed pipe), else 0. */
static int stdout_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: cannot write: %s\n", progname,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static void help(void)
{
	printf("Usage: %s [OPTION]...\n"
	       "Generate .NET GC runtime event streams: realistic, exhaustive, or with labelled faults.\n\n"
	       "  -s, --seed N            PRNG seed (default 1)\n"
	       "  -g, --gcs N             number of GCs to simulate (default 100)\n"
	       "  -n, --events N          stop after about N events (at a GC boundary)\n"
	       "  -p, --profile P         runtime profile (default net8; see --list-profiles)\n"
	       "      --list-profiles     list runtime profiles\n"
	       "  -m, --mode M            realistic (default) or exhaustive\n"
	       "      --heaps N           server GC with N heaps (0: workstation GC, default)\n"
	       "  -M, --mutate LIST       fault classes, comma-separated, or 'all' (every stream\n"
	       "                          and payload class); several act one after another\n"
	       "                          (docs/faults.md); a container class goes alone\n"
	       "      --list-mutations[=F]  list the fault classes for format F (default: the\n"
	       "                          --format; 'all': every class) and the codes they raise\n"
	       "  -f, --format F          output format (default cbor)\n"
	       "      --list-formats      list the output formats, one name per line\n"
	       "      --pointer-size 4|8  pointer size (default: the profile's)\n"
	       "      --stacks            give events call stacks (containers that record them)\n"
	       "  -k, --keywords MASK     session keywords (default 0x1|0x2)\n"
	       "  -l, --level N           session level (default 5)\n"
	       "      --shard I/N         generate shard I of N: its own seed, its share of the\n"
	       "                          GCs/events (exhaustive: of the items); see gcgen(1)\n"
	       "  -o, --output FILE       write to FILE (default: stdout, not a terminal: -o - forces\n"
	       "                          it); a directory\n"
	       "                          for formats marked (dir)\n"
	       "  -e, --expect FILE       write expected diagnostics as JSON lines\n"
	       "      --values FILE       also write the same events as a CBOR model stream:\n"
	       "                          every event's header and field values (ground truth)\n"
	       "  -O, --writer-option K=V container option (nettrace: block-bytes, sp-every,\n"
	       "                          uncompressed, metadata-upfront; etl: buffer-size,\n"
	       "                          kernel-every, foreign-every, compressed); repeatable\n"
	       "      --coverage          print the exhaustive coverage report to stderr\n"
	       "  -q, --quiet             no progress line\n"
	       "      --stats             print events, bytes and times to stderr at the end\n"
	       "      --drop-cache        drop a large output file from the page cache as it\n"
	       "                          is written (it is kept there otherwise)\n"
	       "  -h, --help              show this help and exit\n"
	       "  -V, --version           show version and exit\n"
	       "\nnettrace shapes (the nettrace formats only):\n"
	       "      --uncompressed-headers  uncompressed event headers (legal, rarely written)\n"
	       "      --block-bytes N     end an EventBlock once it holds N bytes (default 100000,\n"
	       "                          at most 8388608): many small blocks or few large ones\n"
	       "      --sp-every N|end    a sequence point after every N EventBlocks, or only\n"
	       "                          the one at the end (default 0: where the runtime puts\n"
	       "                          them, every 10 MiB of its thread buffers)\n"
	       "      --metadata WHEN     first-use (default: each event type's metadata just\n"
	       "                          before its first event, so late for late types) or\n"
	       "                          upfront (every spec event's metadata before any event)\n"
	       "      --full-metadata     describe every field in the metadata, as a\n"
	       "                          self-describing EventSource does (the same as the\n"
	       "                          -full formats; V5 and V6)\n"
	       "\nFormats:\n", progname);
	for (unsigned i = 0; gen_writer_formats[i]; i++)
		printf("  %-12s %s%s\n", gen_writer_formats[i]->format,
		       gen_writer_formats[i]->begin_dir ? "(dir) " : "", gen_writer_formats[i]->description);
	exit(stdout_status());
}

/* A number from min to max, checked before any narrowing (4294967297
 * must not become 1). */
static uint64_t parse_num(const char *s, const char *what, uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t')
		usage_error("invalid number for %s", what);
	v = strtoull(s, &end, 0);
	if (errno || *end)
		usage_error("invalid number for %s", what);
	if (v < min || v > max) {
		char msg[128];

		snprintf(msg, sizeof msg, "%s must be %" PRIu64 " to %" PRIu64 ", not '%%s'", what, min, max);
		usage_error(msg, s);
	}
	return v;
}

static uint64_t parse_u64(const char *s, const char *what)
{
	return parse_num(s, what, 0, UINT64_MAX);
}

/* --shard I/N: two plain numbers, 0 <= I < N. */
static void parse_shard(const char *s, uint64_t *i, uint64_t *n)
{
	const char *slash = strchr(s, '/');
	char first[32];

	if (!slash || (size_t)(slash - s) >= sizeof first)
		usage_error("--shard wants I/N with 0 <= I < N, not '%s'", s);
	memcpy(first, s, (size_t)(slash - s));
	first[slash - s] = 0;
	*i = parse_num(first, "--shard's I", 0, UINT64_MAX - 1);
	*n = parse_num(slash + 1, "--shard's N", 1, UINT64_MAX);
	if (*i >= *n)
		usage_error("--shard wants I/N with 0 <= I < N, not '%s'", s);
}

/* 1 when two output names are the same file: the same name, both standard
 * output, or names of one existing file (a second writer would clobber the
 * first one's output). */
static int same_output(const char *a, const char *b)
{
	struct stat sa, sb;
	int a_out = !a || strcmp(a, "-") == 0, b_out = !b || strcmp(b, "-") == 0;

	if (a_out || b_out)
		return a_out && b_out;
	if (strcmp(a, b) == 0)
		return 1;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	/* Neither exists yet: the same directory entry under two spellings. */
	{
		char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
		int same = 0;

		if (!ra && !rb) {
			char *da = strdup(a), *db = strdup(b);
			char *pa = da ? realpath(dirname(da), NULL) : NULL;
			char *pb = db ? realpath(dirname(db), NULL) : NULL;
			const char *ba = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
			const char *bb = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;

			same = pa && pb && strcmp(pa, pb) == 0 && strcmp(ba, bb) == 0;
			free(pa);
			free(pb);
			free(da);
			free(db);
		}
		free(ra);
		free(rb);
		return same;
	}
}

struct progress {
	uint64_t total;
	double next;               /* seconds (monotonic) when a line is due */
	int shown;
};

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A line a second, the first after a second: short runs stay quiet. */
static void show_progress(uint64_t done, void *arg)
{
	struct progress *p = arg;
	double now = seconds();

	if (now < p->next)
		return;
	p->next = now + 1;
	p->shown = 1;
	if (p->total)
		fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " GCs (%u%%)", progname, done, p->total,
			(unsigned)(100 * done / p->total));
	else
		fprintf(stderr, "\r%s: %" PRIu64 " GCs", progname, done);
}

/* The writer as a sink, for streams without mutations. */
struct writer_sink {
	struct gen_sink sink;
	struct gen_writer *w;
};

static int writer_sink_event(struct gen_sink *s, struct gen_event *ev)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	if (ws->w->ops->event(ws->w, ev) < 0) {
		snprintf(s->error, sizeof s->error, "%s", gen_writer_error(ws->w));
		return -1;
	}
	return 0;
}

/* --list-mutations: the classes that apply to format (NULL: every class).
 * Columns: name, reach, codes, formats, description. */
static void list_mutations(const char *format)
{
	const struct gen_container_fault *cf;
	const struct gen_fault *f;
	char codes[128];

	for (unsigned i = 0; (f = gen_fault_at(i)); i++)
		printf("%-30s %-9s %-16s %-6s %s\n", f->name, f->reach,
		       gen_codes_text(f->codes, f->flags & GEN_FAULT_ONE_OF ? '|' : ',', codes,
				      sizeof codes),
		       "any", f->description);
	for (unsigned i = 0; (cf = gen_container_fault_at(i)); i++)
		if (!format || gen_container_fault_applies(cf, format))
			printf("%-30s %-9s %-16s %-6s %s\n", cf->name, "container",
			       gen_codes_text(cf->codes, '|', codes, sizeof codes), cf->formats,
			       cf->description);
}

/* --stats: one line for benchmarks (tests/gen/bench.sh parses it). The
 * wall time runs from opening the output to its rename; cpu is user and
 * system time of the whole process. */
static void print_stats(uint64_t nevents, uint64_t nbytes, const struct timespec *t0)
{
	struct timespec t1;
	struct rusage ru;
	double wall, cpu = 0;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		      (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	fprintf(stderr, "%s: stats: events=%" PRIu64 " bytes=%" PRIu64 " wall=%.3f cpu=%.3f\n",
		progname, nevents, nbytes, wall, cpu);
}

/* Finish an output file (see outfile.h); 0, or -1 after saying why. */
static int finish(struct gen_outfile *o, int ok)
{
	char err[512];

	if (gen_outfile_close(o, ok, err, sizeof err) < 0) {
		fprintf(stderr, "%s: %s\n", progname, err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	enum { OPT_LIST_PROFILES = 256, OPT_LIST_MUTATIONS, OPT_POINTER_SIZE, OPT_SHARD, OPT_HEAPS,
	       OPT_COVERAGE, OPT_STACKS, OPT_LIST_FORMATS, OPT_UNCOMPRESSED, OPT_BLOCK_BYTES,
	       OPT_SP_EVERY, OPT_METADATA, OPT_VALUES, OPT_STATS, OPT_FULL_METADATA, OPT_DROP_CACHE };
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "gcs", required_argument, NULL, 'g' },
		{ "events", required_argument, NULL, 'n' },
		{ "profile", required_argument, NULL, 'p' },
		{ "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
		{ "mode", required_argument, NULL, 'm' },
		{ "heaps", required_argument, NULL, OPT_HEAPS },
		{ "mutate", required_argument, NULL, 'M' },
		{ "list-mutations", optional_argument, NULL, OPT_LIST_MUTATIONS },
		{ "stacks", no_argument, NULL, OPT_STACKS },
		{ "format", required_argument, NULL, 'f' },
		{ "list-formats", no_argument, NULL, OPT_LIST_FORMATS },
		{ "pointer-size", required_argument, NULL, OPT_POINTER_SIZE },
		{ "uncompressed-headers", no_argument, NULL, OPT_UNCOMPRESSED },
		{ "block-bytes", required_argument, NULL, OPT_BLOCK_BYTES },
		{ "sp-every", required_argument, NULL, OPT_SP_EVERY },
		{ "metadata", required_argument, NULL, OPT_METADATA },
		{ "full-metadata", no_argument, NULL, OPT_FULL_METADATA },
		{ "keywords", required_argument, NULL, 'k' },
		{ "level", required_argument, NULL, 'l' },
		{ "shard", required_argument, NULL, OPT_SHARD },
		{ "output", required_argument, NULL, 'o' },
		{ "expect", required_argument, NULL, 'e' },
		{ "values", required_argument, NULL, OPT_VALUES },
		{ "writer-option", required_argument, NULL, 'O' },
		{ "coverage", no_argument, NULL, OPT_COVERAGE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "drop-cache", no_argument, NULL, OPT_DROP_CACHE },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t seed = 1, gcs = 0, events = 0, keywords = 0x3, shard_i = 0, shard_n = 1;
	unsigned level = 5, psize = 0, heaps = 0;
	int exhaustive = 0, quiet = 0, coverage = 0, stacks = 0, list_muts = 0, stats = 0, empty = 0;
	int drop_cache = 0;
	int full_metadata = 0;
	const char *list_format = NULL;
	const struct gen_container_fault *container = NULL;
	const char *profile_name = "net8", *format = "cbor", *output = NULL, *expect_path = NULL;
	const char *values_path = NULL;
	char *wopts[16];
	unsigned nwopts = 0;
	char *mutate = NULL;
	int classes[64];
	unsigned nclasses = 0;
	int c, rc = 1;
	/* nettrace shape options: -1 (and 0 for block_bytes) mean "as the format has it" */
	/* The nettrace shape flags are named writer options (-O KEY=VALUE). */
	char nt_opts[16][48];
	unsigned nnt = 0;
	int nt_given = 0;

	if (argv[0] && strrchr(argv[0], '/'))
		progname = strrchr(argv[0], '/') + 1;
	while ((c = getopt_long(argc, argv, "s:g:n:p:m:M:f:k:l:o:e:O:qhV", opts, NULL)) != -1) {
		switch (c) {
		case 's': seed = parse_u64(optarg, "--seed"); break;
		case 'g': gcs = parse_num(optarg, "--gcs", 1, UINT64_MAX); break;
		case 'n': events = parse_num(optarg, "--events", 1, UINT64_MAX); break;
		case 'p': profile_name = optarg; break;
		case 'm':
			if (strcmp(optarg, "exhaustive") == 0)
				exhaustive = 1;
			else if (strcmp(optarg, "realistic") != 0)
				usage_error("unknown mode '%s' (realistic or exhaustive)", optarg);
			break;
		case OPT_HEAPS:
			heaps = (unsigned)parse_num(optarg, "--heaps", 0, 1024);
			break;
		case 'M': mutate = optarg; break;
		case 'f': format = optarg; break;
		case OPT_POINTER_SIZE:
			psize = (unsigned)parse_num(optarg, "--pointer-size", 4, 8);
			if (psize != 4 && psize != 8)
				usage_error("pointer size must be 4 or 8, not '%s'", optarg);
			break;
		case OPT_UNCOMPRESSED:
		case OPT_BLOCK_BYTES:
		case OPT_SP_EVERY:
		case OPT_METADATA:
			if (c == OPT_BLOCK_BYTES) {
				uint64_t v = parse_u64(optarg, "--block-bytes");
				if (v == 0 || v > 8388608)
					usage_error("--block-bytes must be 1..8388608, not '%s'", optarg);
				snprintf(nt_opts[nnt], sizeof nt_opts[nnt], "block-bytes=%" PRIu64, v);
			} else if (c == OPT_SP_EVERY && strcmp(optarg, "end") == 0) {
				snprintf(nt_opts[nnt], sizeof nt_opts[nnt], "sp-every=end");
			} else if (c == OPT_SP_EVERY) {
				uint64_t v = parse_u64(optarg, "--sp-every");
				if (v > 1000000)
					usage_error("--sp-every '%s' is above 1000000", optarg);
				snprintf(nt_opts[nnt], sizeof nt_opts[nnt], "sp-every=%" PRIu64, v);
			} else if (c == OPT_METADATA) {
				if (strcmp(optarg, "upfront") != 0 && strcmp(optarg, "first-use") != 0)
					usage_error("--metadata is first-use or upfront, not '%s'", optarg);
				snprintf(nt_opts[nnt], sizeof nt_opts[nnt], "metadata-upfront=%d",
					 strcmp(optarg, "upfront") == 0);
			} else {
				snprintf(nt_opts[nnt], sizeof nt_opts[nnt], "uncompressed=1");
			}
			if (nwopts == sizeof wopts / sizeof wopts[0])
				usage_error("%s: at most 16 writer options in all", optarg);
			wopts[nwopts++] = nt_opts[nnt];
			nnt++;
			nt_given = 1;
			break;
		case 'k': keywords = parse_u64(optarg, "--keywords"); break;
		case 'l':
			level = (unsigned)parse_num(optarg, "--level", 0, 255);
			break;
		case OPT_SHARD:
			parse_shard(optarg, &shard_i, &shard_n);
			break;
		case 'o': output = optarg; break;
		case 'e': expect_path = optarg; break;
		case OPT_VALUES: values_path = optarg; break;
		case 'O':
			if (!strchr(optarg, '=') || nwopts == sizeof wopts / sizeof wopts[0])
				usage_error("--writer-option wants KEY=VALUE (at most 16), not '%s'", optarg);
			wopts[nwopts++] = optarg;
			break;
		case OPT_COVERAGE: coverage = 1; break;
		case OPT_STACKS: stacks = 1; break;
		case OPT_FULL_METADATA: full_metadata = 1; break;
		case 'q': quiet = 1; break;
		case OPT_STATS: stats = 1; break;
		case OPT_DROP_CACHE: drop_cache = 1; break;
		case 'h': help(); break;
		case 'V':
			printf("%s (%s) %s\n", progname, PACKAGE_NAME, PACKAGE_VERSION);
			return stdout_status();
		case OPT_LIST_PROFILES:
			for (unsigned i = 0; i < gen_nprofiles; i++)
				printf("%-10s %s\n", gen_profiles[i].name, gen_profiles[i].description);
			return stdout_status();
		case OPT_LIST_FORMATS:
			for (unsigned i = 0; gen_writer_formats[i]; i++)
				puts(gen_writer_formats[i]->format);
			return stdout_status();
		case OPT_LIST_MUTATIONS:
			list_muts = 1;
			list_format = optarg;
			break;
		default:
			fprintf(stderr, "Try '%s --help' for more information.\n", progname);
			return 2;
		}
	}
	if (optind < argc)
		usage_error("unexpected argument '%s'", argv[optind]);
	if (list_muts) {
		if (!list_format)
			list_format = format;
		if (strcmp(list_format, "all") != 0 && !gen_writer_find(list_format))
			usage_error("unknown format '%s' (see --help)", list_format);
		list_mutations(strcmp(list_format, "all") == 0 ? NULL : list_format);
		return stdout_status();
	}

	if (full_metadata) {
		static char full[32];

		if (strcmp(format, "nettrace-v5") != 0 && strcmp(format, "nettrace-v6") != 0 &&
		    !strstr(format, "-full"))
			usage_error("--full-metadata shapes nettrace V5 and V6 files, not --format %s",
				    format);
		snprintf(full, sizeof full, "%s%s", format, strstr(format, "-full") ? "" : "-full");
		format = full;
	}

	const struct gen_profile *profile = gen_profile_find(profile_name);
	const struct gen_writer_ops *ops = gen_writer_find(format);

	if (!profile)
		usage_error("unknown profile '%s' (see --list-profiles)", profile_name);
	if (!ops)
		usage_error("unknown format '%s' (see --help)", format);
	if (nt_given && strncmp(format, "nettrace", 8) != 0)
		usage_error("--uncompressed-headers, --block-bytes, --sp-every and --metadata "
			    "shape nettrace files, not --format %s", format);
	if (ops->begin_dir && (!output || strcmp(output, "-") == 0))
		usage_error("format %s writes a directory: give -o DIR", format);
	if ((expect_path && same_output(output, expect_path)) ||
	    (values_path && same_output(output, values_path)) ||
	    (expect_path && values_path && same_output(expect_path, values_path)))
		usage_error("%s: the stream, --expect and --values need one file each", "-o");
	if (!output && isatty(STDOUT_FILENO))
		usage_error("the %s stream is binary: give -o FILE, redirect standard output, or "
			    "-o - to write it to the terminal all the same", format);
	if (mutate) {
		if (strcmp(mutate, "all") == 0) {
			for (unsigned i = 0; i < gen_nfaults(); i++)
				classes[nclasses++] = (int)i;
		} else {
			for (char *t = strtok(mutate, ","); t; t = strtok(NULL, ",")) {
				int k = gen_mutation_find(t);

				if (k < 0) {
					/* A container fault edits the finished file: one at a time. */
					int exists;
					const struct gen_container_fault *cf =
						gen_container_fault_find(t, format, &exists);

					if (!cf && exists) {
						char msg[512];
						const struct gen_container_fault *any;

						for (unsigned i = 0; (any = gen_container_fault_at(i)); i++)
							if (strcmp(any->name, t) == 0)
								break;
						snprintf(msg, sizeof msg, "'%s' is a container fault class for %s, "
							 "not for --format %s", t, any->formats, format);
						usage_error("%s", msg);
					}
					if (!cf)
						usage_error("unknown fault class '%s' (see --list-mutations)", t);
					if (container)
						usage_error("%s: one container fault class at a time", "--mutate");
					container = cf;
					continue;
				}
				if (nclasses == 64)
					usage_error("%s: too many fault classes", "--mutate");
				/* Each class records its fault once; a second one would
				 * meet a checker that has seen the first. */
				for (unsigned i = 0; i < nclasses; i++)
					if (classes[i] == k)
						usage_error("fault class '%s' given twice", t);
				classes[nclasses++] = k;
			}
		}
		if (exhaustive)
			usage_error("%s: mutations apply to realistic streams", "--mutate");
		if (container && nclasses)
			usage_error("%s: a container fault class cannot be combined with others", "--mutate");
		if (container && container->needs_stacks)
			stacks = 1;
		/* Classes about GC threads' joins need server GC. */
		for (unsigned i = 0; i < nclasses; i++)
			if ((gen_fault_at((unsigned)classes[i])->flags & GEN_FAULT_NEEDS_SERVER) && heaps == 0)
				heaps = 4;
	}
	if (!psize)
		psize = profile->pointer_size;
	if (!gcs && !events)
		gcs = 100;
	if (shard_n > 1) {
		/* Independent seeds per shard, same for every batch system, and
		 * each shard its share of the work, so that the shards together
		 * do it once: GCs and events here, exhaustive items below. */
		uint64_t st = (seed ^ (shard_n << 32)) + shard_i * 0x9E3779B97F4A7C15ull;

		/* The (I+1)-th splitmix64 output, computed directly: splitmix64
		 * adds its constant to the state before each output. */
		seed = gen_splitmix64(&st);
		empty = gcs / shard_n + (shard_i < gcs % shard_n) == 0 &&
			events / shard_n + (shard_i < events % shard_n) == 0;
		gcs = gcs / shard_n + (shard_i < gcs % shard_n);
		events = events / shard_n + (shard_i < events % shard_n);
	}

	struct timespec t0;
	uint64_t nevents = 0, nbytes = 0;
	FILE *out = NULL, *expectf = NULL, *valid = NULL, *valuesf = NULL;
	struct gen_outfile *outf = NULL, *expectof = NULL, *valuesof = NULL;
	char *valid_buf = NULL, *tmpdir = NULL;
	size_t valid_len = 0;
	char derr[512];

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ops->begin_dir) {
		if (!(tmpdir = gen_outdir_make(output, derr, sizeof derr))) {
			fprintf(stderr, "%s: %s\n", progname, derr);
			return 1;
		}
	} else if (!(outf = gen_outfile_open(output))) {
		fprintf(stderr, "%s: cannot create a file beside %s: %s\n", progname, output, strerror(errno));
		return 1;
	}
	if (outf) {
		out = gen_outfile_stream(outf);
		if (drop_cache)
			gen_outfile_drop_cache(outf);
	}
	if (expect_path && !(expectof = gen_outfile_open(expect_path))) {
		fprintf(stderr, "%s: cannot create a file beside %s: %s\n", progname, expect_path, strerror(errno));
		finish(outf, 0);
		if (tmpdir) {
			gen_outdir_remove(tmpdir);
			free(tmpdir);
		}
		return 1;
	}
	if (values_path && !(valuesof = gen_outfile_open(values_path))) {
		fprintf(stderr, "%s: cannot create a file beside %s: %s\n", progname, values_path, strerror(errno));
		finish(outf, 0);
		finish(expectof, 0);
		if (tmpdir) {
			gen_outdir_remove(tmpdir);
			free(tmpdir);
		}
		return 1;
	}
	if (expectof)
		expectf = gen_outfile_stream(expectof);
	if (valuesof)
		valuesf = gen_outfile_stream(valuesof);

	struct gen_writer *w = ops->create();
	struct gen_emit e;
	struct writer_sink ws;
	struct gen_mutator *mut = NULL;
	struct gen_stream_info info;
	static struct gen_coverage cov;
	struct progress prog = { gcs, seconds() + 1, 0 };
	int ok = 0;

	memset(&info, 0, sizeof info);
	info.pointer_size = (uint8_t)psize;
	info.clock_frequency = 10000000;
	info.start_ticks = 1000000000ull + 1000 * (seed % 1000);
	info.start_unix_ns = 1700000000ull * 1000000000ull;
	info.process_id = 4242;
	info.nprocessors = heaps > 1 ? heaps : 8;
	info.profile = profile->name;
	info.mode = exhaustive ? "exhaustive" : "realistic";
	info.seed = seed;
	info.keywords = keywords;
	info.level = (uint8_t)level;
	memset(&ws, 0, sizeof ws);
	ws.sink.event = writer_sink_event;
	ws.w = w;
	if (!w) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto done;
	}
	w->ops = ops;
	for (unsigned i = 0; i < nwopts; i++) {
		char *eq = strchr(wopts[i], '=');

		*eq = 0;
		if (!ops->option) {
			fprintf(stderr, "%s: format %s takes no writer options\n", progname, format);
			rc = 2;
			goto done;
		}
		if (ops->option(w, wopts[i], eq + 1) < 0) {
			fprintf(stderr, "%s: %s\n", progname, gen_writer_error(w));
			rc = 2;
			goto done;
		}
	}
	if (valuesf) {
		/* The model stream of the same events, beside the container. */
		struct gen_writer *m = gen_write_model_ops.create();

		if (!m) {
			fprintf(stderr, "%s: out of memory\n", progname);
			goto done;
		}
		m->ops = &gen_write_model_ops;
		w = gen_writer_tee(w, m, valuesf);
		ws.w = w;
		if (!w) {
			fprintf(stderr, "%s: out of memory\n", progname);
			goto done;
		}
	}
	/* A container fault needs the whole valid file first: keep it in memory.
	 * A directory container is faulted in its temporary directory. */
	if (container && !tmpdir && !(valid = open_memstream(&valid_buf, &valid_len))) {
		fprintf(stderr, "%s: out of memory\n", progname);
		goto done;
	}
	if ((tmpdir ? w->ops->begin_dir(w, tmpdir, &info) : w->ops->begin(w, valid ? valid : out, &info)) < 0) {
		fprintf(stderr, "%s: %s\n", progname, gen_writer_error(w));
		goto done;
	}
	if (nclasses) {
		mut = gen_mutator_new(classes, nclasses, w, profile, psize, heaps, seed, expectf);
		if (!mut) {
			fprintf(stderr, "%s: out of memory\n", progname);
			goto done;
		}
	}
	if (gen_emit_init(&e, psize, keywords, (uint8_t)level, mut ? gen_mutator_sink(mut) : &ws.sink) < 0) {
		fprintf(stderr, "%s: %s\n", progname, e.error);
		goto done;
	}
	e.stacks = stacks;
	/* Payloads written in place when nothing downstream reads values: no
	 * mutator (it re-encodes), no model stream; the exhaustive generator
	 * fills values itself. */
	e.direct = !exhaustive && !mut && !w->ops->needs_values;
	if (exhaustive) {
		ok = gen_exhaustive_run_shard(&e, profile, seed, info.start_ticks, &cov, shard_i,
					      shard_n, expectf) == 0;
		if (ok && coverage)
			gen_coverage_report(&cov, stderr);
	} else if (empty) {
		ok = 1; /* a shard without a share: the container alone */
	} else {
		struct gen_sim_config cfg = { profile, seed, gcs, events, heaps, info.clock_frequency,
					      info.start_ticks, NULL, NULL };

		if (!quiet && isatty(STDERR_FILENO)) {
			cfg.progress = show_progress;
			cfg.progress_arg = &prog;
		}
		ok = gen_sim_run(&cfg, &e) == 0;
		if (prog.shown) {
			/* The last line says 100 %, then goes: the terminal is left clean. */
			if (ok) {
				prog.next = 0;
				show_progress(prog.total, &prog);
			}
			fputs("\r\033[K", stderr);
		}
	}
	if (!ok)
		fprintf(stderr, "%s: %s\n", progname, e.error);
	if (ok && mut && gen_mutator_finish(mut) < 0) {
		fprintf(stderr, "%s: %s\n", progname, gen_mutator_sink(mut)->error);
		ok = 0;
	}
	if (ok && w->ops->end(w) < 0) {
		fprintf(stderr, "%s: %s\n", progname, gen_writer_error(w));
		ok = 0;
	}
	nevents = e.nevents;
	gen_emit_fini(&e);
	if (ok && valid) {
		char err[256];

		if (fclose(valid) != 0) {
			fprintf(stderr, "%s: out of memory\n", progname);
			ok = 0;
		} else if (gen_container_fault_write(container, (const uint8_t *)valid_buf, valid_len,
						     seed, out, expectf, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", progname, err);
			ok = 0;
		}
		valid = NULL;
	}
	if (ok && container && tmpdir) {
		char err[256];

		if (gen_container_fault_write_dir(container, tmpdir, seed, expectf, err, sizeof err) < 0) {
			fprintf(stderr, "%s: %s\n", progname, err);
			ok = 0;
		}
	}
	rc = ok ? 0 : 1;
done:
	if (valid)
		fclose(valid);
	free(valid_buf);
	gen_mutator_free(mut);
	if (w)
		w->ops->destroy(w);
	if (stats && rc == 0 && outf && fflush(out) == 0)
		nbytes = gen_outfile_written(outf);
	if (stats && rc == 0 && tmpdir)
		nbytes = gen_outdir_bytes(tmpdir);
	/* A failure keeps its status (2: bad usage); a failed close makes it 1. */
	if (tmpdir) {
		if (rc == 0 && gen_outdir_commit(tmpdir, output, derr, sizeof derr) < 0) {
			fprintf(stderr, "%s: %s\n", progname, derr);
			rc = 1;
		}
		if (rc != 0)
			gen_outdir_remove(tmpdir);
		free(tmpdir);
	}
	if (finish(outf, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (finish(expectof, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (finish(valuesof, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (stats && rc == 0)
		print_stats(nevents, nbytes, &t0);
	return rc;
}
