/*
 * options.c - gcgen's command line: the options read into a struct gen_options
 * and checked against each other (options.h), and what some of them print
 * instead of a run: --help, --version, the --list-* lists, usage errors
 * (exit 2).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/faults/fault.h"
#include "gen/faults/mutate.h"
#include "gen/faults/mutate_container.h"
#include "gen/formats/writer.h"
#include "gen/model/profiles.h"
#include "gen/options.h"
#include "util/esc.h"

/* What is read from the command line but not run: the lists asked for and
 * the spellings resolved once every option is known. */
struct cmdline {
	struct gen_options *o;
	const char *profile_name;
	char *mutate;              /* -M as given */
	int list_muts;
	const char *list_format;   /* --list-mutations=F */
	int full_metadata;
	int shaped;                /* a nettrace shape flag was given */
	unsigned nshape;
};

static void usage_error(const struct gen_options *o, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", o->progname);
	fprintf(stderr, fmt, gc_esc(arg));
	fprintf(stderr, "\nTry '%s --help' for more information.\n", o->progname);
	exit(2);
}

/* What --help, --version and the lists printed: exit 1 when it could not
 * all be written (a full disk, a closed pipe), else 0. */
static int stdout_status(const struct gen_options *o)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: standard output: cannot write: %s\n", o->progname,
			strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static int help(const struct gen_options *o)
{
	printf("Usage: %s [OPTION]...\n"
	       "Generate .NET GC runtime event streams: realistic, exhaustive, or with labelled faults.\n\n"
	       "  -s, --seed N            PRNG seed (default 1)\n"
	       "  -g, --gcs N             number of GCs to simulate (default 100)\n"
	       "  -n, --events N          stop after about N events (at a GC boundary)\n"
	       "  -p, --profile P[,P...]  runtime profile (default net8; see --list-profiles); a\n"
	       "                          list: one per process of a machine-wide trace, in turn\n"
	       "      --processes N       a machine-wide trace (etl formats, ctf) of N processes\n"
	       "                          (1..64; default: the profiles listed) interleaved in\n"
	       "                          time, starting, ending and attached as gcgen(1) says\n"
	       "      --reuse-pid         in a machine-wide trace of 3 or more processes, the last\n"
	       "                          starts once process 1 has ended, under its process id\n"
	       "      --list-profiles     list runtime profiles\n"
	       "  -m, --mode M            realistic (default) or exhaustive\n"
	       "      --heaps N           server GC with N heaps (0: workstation GC, default)\n"
	       "  -M, --mutate LIST       fault classes, comma-separated, or 'all' (every stream\n"
	       "                          and payload class of the format); several act one\n"
	       "                          after another (docs/faults.md); a container class\n"
	       "                          goes alone\n"
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
	       "                          uncompressed, metadata-upfront, sampler-every; etl:\n"
	       "                          buffer-size, kernel-every, foreign-every, compressed,\n"
	       "                          process-id; ctf: vpid); repeatable\n"
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
	       "\nFormats:\n", o->progname);
	for (unsigned i = 0; gen_writer_formats[i]; i++)
		printf("  %-12s %s%s\n", gen_writer_formats[i]->format,
		       gen_writer_formats[i]->begin_dir ? "(dir) " : "", gen_writer_formats[i]->description);
	return stdout_status(o);
}

/* --list-mutations: the classes that apply to format (NULL: every class).
 * Columns: name, reach, codes, formats, description. */
static void list_mutations(const char *format)
{
	const struct gen_container_fault *cf;
	const struct gen_fault *f;
	char codes[128];

	for (unsigned i = 0; (f = gen_fault_at(i)); i++)
		if (gen_fault_applies(f, format))
			printf("%-30s %-9s %-16s %-6s %s\n", f->name, f->reach,
			       gen_codes_text(f->codes, f->flags & GEN_FAULT_ONE_OF ? '|' : ',', codes,
					      sizeof codes),
			       f->flags & GEN_FAULT_PROCESSES ? "etl,ctf" : "any", f->description);
	for (unsigned i = 0; (cf = gen_container_fault_at(i)); i++)
		if (!format || gen_container_fault_applies(cf, format))
			printf("%-30s %-9s %-16s %-6s %s\n", cf->name, "container",
			       gen_codes_text(cf->codes, '|', codes, sizeof codes), cf->formats,
			       cf->description);
}

/* A number from min to max, checked before any narrowing (4294967297
 * must not become 1). */
static uint64_t parse_num(const struct gen_options *o, const char *s, const char *what,
			  uint64_t min, uint64_t max)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!*s || *s == '-' || *s == '+' || *s == ' ' || *s == '\t')
		usage_error(o, "invalid number for %s", what);
	v = strtoull(s, &end, 0);
	if (errno || *end)
		usage_error(o, "invalid number for %s", what);
	if (v < min || v > max) {
		char msg[128];

		snprintf(msg, sizeof msg, "%s must be %" PRIu64 " to %" PRIu64 ", not '%%s'", what, min, max);
		usage_error(o, msg, s);
	}
	return v;
}

static uint64_t parse_u64(const struct gen_options *o, const char *s, const char *what)
{
	return parse_num(o, s, what, 0, UINT64_MAX);
}

/* --shard I/N: two plain numbers, 0 <= I < N. */
static void parse_shard(struct gen_options *o, const char *s)
{
	const char *slash = strchr(s, '/');
	char first[32];

	if (!slash || (size_t)(slash - s) >= sizeof first)
		usage_error(o, "--shard wants I/N with 0 <= I < N, not '%s'", s);
	memcpy(first, s, (size_t)(slash - s));
	first[slash - s] = 0;
	o->shard_i = parse_num(o, first, "--shard's I", 0, UINT64_MAX - 1);
	o->shard_n = parse_num(o, slash + 1, "--shard's N", 1, UINT64_MAX);
	if (o->shard_i >= o->shard_n)
		usage_error(o, "--shard wants I/N with 0 <= I < N, not '%s'", s);
}

enum { OPT_LIST_PROFILES = 256, OPT_LIST_MUTATIONS, OPT_POINTER_SIZE, OPT_SHARD, OPT_HEAPS,
       OPT_COVERAGE, OPT_STACKS, OPT_LIST_FORMATS, OPT_UNCOMPRESSED, OPT_BLOCK_BYTES,
       OPT_SP_EVERY, OPT_METADATA, OPT_VALUES, OPT_STATS, OPT_FULL_METADATA, OPT_DROP_CACHE,
       OPT_PROCESSES, OPT_REUSE_PID };

static const struct option long_options[] = {
	{ "seed", required_argument, NULL, 's' },
	{ "gcs", required_argument, NULL, 'g' },
	{ "events", required_argument, NULL, 'n' },
	{ "profile", required_argument, NULL, 'p' },
	{ "list-profiles", no_argument, NULL, OPT_LIST_PROFILES },
	{ "processes", required_argument, NULL, OPT_PROCESSES },
	{ "reuse-pid", no_argument, NULL, OPT_REUSE_PID },
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

/* A nettrace shape flag (--uncompressed-headers, --block-bytes, --sp-every,
 * --metadata): the writer option it names (-O KEY=VALUE). The value is
 * checked before the count, so a bad value is reported as such. */
static void shape_option(struct cmdline *cl, int c, const char *arg)
{
	struct gen_options *o = cl->o;
	char opt[sizeof o->shape_opts[0]];

	if (c == OPT_BLOCK_BYTES) {
		uint64_t v = parse_u64(o, arg, "--block-bytes");

		if (v == 0 || v > 8388608)
			usage_error(o, "--block-bytes must be 1..8388608, not '%s'", arg);
		snprintf(opt, sizeof opt, "block-bytes=%" PRIu64, v);
	} else if (c == OPT_SP_EVERY && strcmp(arg, "end") == 0) {
		snprintf(opt, sizeof opt, "sp-every=end");
	} else if (c == OPT_SP_EVERY) {
		uint64_t v = parse_u64(o, arg, "--sp-every");

		if (v > 1000000)
			usage_error(o, "--sp-every '%s' is above 1000000", arg);
		snprintf(opt, sizeof opt, "sp-every=%" PRIu64, v);
	} else if (c == OPT_METADATA) {
		if (strcmp(arg, "upfront") != 0 && strcmp(arg, "first-use") != 0)
			usage_error(o, "--metadata is first-use or upfront, not '%s'", arg);
		snprintf(opt, sizeof opt, "metadata-upfront=%d", strcmp(arg, "upfront") == 0);
	} else {
		snprintf(opt, sizeof opt, "uncompressed=1");
	}
	/* --uncompressed-headers has no argument: glibc prints it "(null)". */
	if (o->nwriter_opts == GEN_OPTIONS_MAX_WRITER)
		usage_error(o, "%s: at most 16 writer options in all", arg);
	memcpy(o->shape_opts[cl->nshape], opt, strlen(opt) + 1);
	o->writer_opts[o->nwriter_opts++] = o->shape_opts[cl->nshape++];
	cl->shaped = 1;
}

/* The options that print something instead of a run: their exit status. */
static int print_option(struct gen_options *o, int c)
{
	switch (c) {
	case 'h':
		return help(o);
	case 'V':
		printf("%s (%s) %s\n", o->progname, PACKAGE_NAME, PACKAGE_VERSION);
		return stdout_status(o);
	case OPT_LIST_PROFILES:
		for (unsigned i = 0; i < gen_nprofiles; i++)
			printf("%-10s %s\n", gen_profiles[i].name, gen_profiles[i].description);
		return stdout_status(o);
	case OPT_LIST_FORMATS:
		for (unsigned i = 0; gen_writer_formats[i]; i++)
			puts(gen_writer_formats[i]->format);
		return stdout_status(o);
	default:
		fprintf(stderr, "Try '%s --help' for more information.\n", o->progname);
		return 2;
	}
}

/* One option from getopt_long: GEN_OPTIONS_RUN to go on, or an exit status. */
static int parse_option(struct cmdline *cl, int c, char *arg)
{
	struct gen_options *o = cl->o;

	switch (c) {
	case 's': o->seed = parse_u64(o, arg, "--seed"); break;
	case 'g': o->gcs = parse_num(o, arg, "--gcs", 1, UINT64_MAX); break;
	case 'n': o->events = parse_num(o, arg, "--events", 1, UINT64_MAX); break;
	case 'p': cl->profile_name = arg; break;
	case 'm':
		if (strcmp(arg, "exhaustive") == 0)
			o->exhaustive = 1;
		else if (strcmp(arg, "realistic") != 0)
			usage_error(o, "unknown mode '%s' (realistic or exhaustive)", arg);
		break;
	case OPT_HEAPS: o->heaps = (unsigned)parse_num(o, arg, "--heaps", 0, 1024); break;
	case OPT_PROCESSES:
		o->processes = (unsigned)parse_num(o, arg, "--processes", 1, GEN_OPTIONS_MAX_PROCESSES);
		break;
	case OPT_REUSE_PID: o->reuse_pid = 1; break;
	case 'M': cl->mutate = arg; break;
	case 'f': o->format = arg; break;
	case OPT_POINTER_SIZE:
		o->pointer_size = (unsigned)parse_num(o, arg, "--pointer-size", 4, 8);
		if (o->pointer_size != 4 && o->pointer_size != 8)
			usage_error(o, "pointer size must be 4 or 8, not '%s'", arg);
		break;
	case OPT_UNCOMPRESSED:
	case OPT_BLOCK_BYTES:
	case OPT_SP_EVERY:
	case OPT_METADATA: shape_option(cl, c, arg); break;
	case 'k': o->keywords = parse_u64(o, arg, "--keywords"); break;
	case 'l': o->level = (unsigned)parse_num(o, arg, "--level", 0, 255); break;
	case OPT_SHARD: parse_shard(o, arg); break;
	case 'o': o->output = arg; break;
	case 'e': o->expect_path = arg; break;
	case OPT_VALUES: o->values_path = arg; break;
	case 'O':
		if (!strchr(arg, '=') || o->nwriter_opts == GEN_OPTIONS_MAX_WRITER)
			usage_error(o, "--writer-option wants KEY=VALUE (at most 16), not '%s'", arg);
		o->writer_opts[o->nwriter_opts++] = arg;
		break;
	case OPT_COVERAGE: o->coverage = 1; break;
	case OPT_STACKS: o->stacks = 1; break;
	case OPT_FULL_METADATA: cl->full_metadata = 1; break;
	case 'q': o->quiet = 1; break;
	case OPT_STATS: o->stats = 1; break;
	case OPT_DROP_CACHE: o->drop_cache = 1; break;
	case OPT_LIST_MUTATIONS:
		cl->list_muts = 1;
		cl->list_format = arg;
		break;
	default:
		return print_option(o, c);
	}
	return GEN_OPTIONS_RUN;
}

/* --list-mutations[=F], once every option is read (F defaults to -f). */
static int print_mutations(struct cmdline *cl)
{
	const char *format = cl->list_format ? cl->list_format : cl->o->format;

	if (strcmp(format, "all") != 0 && !gen_writer_find(format))
		usage_error(cl->o, "unknown format '%s' (see --help)", format);
	list_mutations(strcmp(format, "all") == 0 ? NULL : format);
	return stdout_status(cl->o);
}

/* --full-metadata: the -full variant of a nettrace V5 or V6 format. */
static void full_metadata_format(struct gen_options *o)
{
	const char *format = o->format;

	if (strcmp(format, "nettrace-v5") != 0 && strcmp(format, "nettrace-v6") != 0 &&
	    !strstr(format, "-full"))
		usage_error(o, "--full-metadata shapes nettrace V5 and V6 files, not --format %s",
			    format);
	snprintf(o->full_format, sizeof o->full_format, "%s%s", format,
		 strstr(format, "-full") ? "" : "-full");
	o->format = o->full_format;
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

/* --profile A[,B...]: each a known profile, at most
 * GEN_OPTIONS_MAX_PROFILES. */
static void profile_list(struct cmdline *cl)
{
	struct gen_options *o = cl->o;
	const char *p = cl->profile_name;

	for (;;) {
		size_t n = strcspn(p, ",");
		char name[32];

		snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), p);
		if (n >= sizeof name || !(o->profiles[o->nprofiles] = gen_profile_find(name)))
			usage_error(o, "unknown profile '%s' (see --list-profiles)", name);
		if (++o->nprofiles == GEN_OPTIONS_MAX_PROFILES && p[n])
			usage_error(o, "--profile '%s': too many profiles", cl->profile_name);
		if (!p[n])
			break;
		p += n + 1;
	}
	o->profile = o->profiles[0];
}

/* A machine-wide trace (--processes, or a profile list): in a container
 * that names each event's process, realistic, whole (no shard), no
 * container fault (stream classes act in the first process). */
static void check_machine(struct gen_options *o)
{
	if (!o->processes)
		o->processes = o->nprofiles;
	if (o->reuse_pid && o->processes < 3)
		usage_error(o, "%s wants a machine-wide trace of 3 or more processes (--processes)",
			    "--reuse-pid");
	if (o->processes < 2) {
		if (o->nprofiles > 1)
			usage_error(o, "--profile %s: a list of profiles wants --processes 2 or more",
				    "A,B");
		return;
	}
	if (strncmp(o->format, "etl", 3) != 0 && strcmp(o->format, "ctf") != 0)
		usage_error(o, "--processes: format %s does not name each event's process (etl "
			    "formats and ctf do)", o->format);
	if (o->exhaustive)
		usage_error(o, "%s: machine-wide traces are realistic", "--processes");
	if (o->shard_n > 1)
		usage_error(o, "%s: a machine-wide trace is not sharded", "--processes");
	if (o->container)
		usage_error(o, "%s: container fault classes take one-process traces", "--processes");
	/* Its events take event indexes the merged expectations do not count. */
	for (unsigned i = 0; i < o->nwriter_opts; i++)
		if (strncmp(o->writer_opts[i], "foreign-every=", 14) == 0)
			usage_error(o, "%s: not with -O foreign-every", "--processes");
}

/* The profile, the format and where the output goes, in this order. */
static void check_outputs(struct cmdline *cl)
{
	struct gen_options *o = cl->o;

	profile_list(cl);
	o->ops = gen_writer_find(o->format);
	if (!o->ops)
		usage_error(o, "unknown format '%s' (see --help)", o->format);
	if (cl->shaped && strncmp(o->format, "nettrace", 8) != 0)
		usage_error(o, "--uncompressed-headers, --block-bytes, --sp-every and --metadata "
			    "shape nettrace files, not --format %s", o->format);
	if (o->ops->begin_dir && (!o->output || strcmp(o->output, "-") == 0))
		usage_error(o, "format %s writes a directory: give -o DIR", o->format);
	if ((o->expect_path && same_output(o->output, o->expect_path)) ||
	    (o->values_path && same_output(o->output, o->values_path)) ||
	    (o->expect_path && o->values_path && same_output(o->expect_path, o->values_path)))
		usage_error(o, "%s: the stream, --expect and --values need one file each", "-o");
	if (!o->output && isatty(STDOUT_FILENO))
		usage_error(o, "the %s stream is binary: give -o FILE, redirect standard output, or "
			    "-o - to write it to the terminal all the same", o->format);
}

/* A name in -M that is no stream or payload class: a container fault class
 * of --format, one at a time. */
static void container_class(struct gen_options *o, const char *name)
{
	int exists;
	const struct gen_container_fault *cf = gen_container_fault_find(name, o->format, &exists);

	if (!cf && exists) {
		char msg[512];
		const struct gen_container_fault *any;

		for (unsigned i = 0; (any = gen_container_fault_at(i)); i++)
			if (strcmp(any->name, name) == 0)
				break;
		snprintf(msg, sizeof msg, "'%s' is a container fault class for %s, "
			 "not for --format %s", name, any->formats, o->format);
		usage_error(o, "%s", msg);
	}
	if (!cf)
		usage_error(o, "unknown fault class '%s' (see --list-mutations)", name);
	if (o->container)
		usage_error(o, "%s: one container fault class at a time", "--mutate");
	o->container = cf;
}

/* -M LIST: 'all', or names, each class once. */
static void mutate_classes(struct gen_options *o, char *list)
{
	if (strcmp(list, "all") == 0) {
		/* Every class that applies to the format. */
		for (unsigned i = 0; i < gen_nfaults(); i++)
			if (gen_fault_applies(gen_fault_at(i), o->format))
				o->classes[o->nclasses++] = (int)i;
		return;
	}
	/* strtok would pass over an empty name: "," would be no mutation. */
	if (!*list || *list == ',' || list[strlen(list) - 1] == ',' || strstr(list, ",,"))
		usage_error(o, "--mutate '%s': an empty fault class name (see --list-mutations)", list);
	for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
		int k = gen_mutation_find(t);

		if (k < 0) {
			container_class(o, t);
			continue;
		}
		if (!gen_fault_applies(gen_fault_at((unsigned)k), o->format))
			usage_error(o, "fault class '%s' changes events' processes: formats etl and ctf "
				    "name each event's process", t);
		if (o->nclasses == GEN_OPTIONS_MAX_CLASSES)
			usage_error(o, "%s: too many fault classes", "--mutate");
		/* Each class records its fault once; a second one would
		 * meet a checker that has seen the first. */
		for (unsigned i = 0; i < o->nclasses; i++)
			if (o->classes[i] == k)
				usage_error(o, "fault class '%s' given twice", t);
		o->classes[o->nclasses++] = k;
	}
}

/* -M with the mode and the options a class needs. */
static void check_mutate(struct gen_options *o, char *list)
{
	mutate_classes(o, list);
	if (o->exhaustive)
		usage_error(o, "%s: mutations apply to realistic streams", "--mutate");
	if (o->container && o->nclasses)
		usage_error(o, "%s: a container fault class cannot be combined with others", "--mutate");
	if (o->container && o->container->needs_stacks)
		o->stacks = 1;
	/* Classes about GC threads' joins need server GC. */
	for (unsigned i = 0; i < o->nclasses; i++)
		if ((gen_fault_at((unsigned)o->classes[i])->flags & GEN_FAULT_NEEDS_SERVER) &&
		    o->heaps == 0)
			o->heaps = 4;
}

static void set_defaults(struct gen_options *o, struct cmdline *cl, char **argv)
{
	memset(o, 0, sizeof *o);
	memset(cl, 0, sizeof *cl);
	cl->o = o;
	cl->profile_name = "net8";
	o->progname = "gcgen";
	if (argv[0] && strrchr(argv[0], '/'))
		o->progname = strrchr(argv[0], '/') + 1;
	o->seed = 1;
	o->keywords = 0x3;
	o->shard_n = 1;
	o->level = 5;
	o->format = "cbor";
}

int gen_options_parse(struct gen_options *o, int argc, char **argv)
{
	struct cmdline cl;
	int c, rc;

	set_defaults(o, &cl, argv);
	while ((c = getopt_long(argc, argv, "s:g:n:p:m:M:f:k:l:o:e:O:qhV", long_options, NULL)) != -1)
		if ((rc = parse_option(&cl, c, optarg)) != GEN_OPTIONS_RUN)
			return rc;
	if (optind < argc)
		usage_error(o, "unexpected argument '%s'", argv[optind]);
	if (cl.list_muts)
		return print_mutations(&cl);
	if (cl.full_metadata)
		full_metadata_format(o);
	check_outputs(&cl);
	if (cl.mutate)
		check_mutate(o, cl.mutate);
	check_machine(o);
	if (!o->pointer_size)
		o->pointer_size = o->profile->pointer_size;
	if (!o->gcs && !o->events)
		o->gcs = 100;
	return GEN_OPTIONS_RUN;
}
