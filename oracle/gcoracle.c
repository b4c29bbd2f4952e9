/*
 * gcoracle.c - the command line: decode and check GC event streams.
 * Exit status: 0 no errors, 1 errors found (or expectations not met),
 * 2 unreadable input or bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include <errno.h>
#include <stdio.h>
#include "oracle/compare/compare.h"
#include "oracle/run_corpus.h"
#include "oracle/expect.h"
#include "oracle/output/output.h"
#include "oracle/progress.h"
#include "util/esc.h"

struct cli {
	int json, cbor, quiet, expect_mode;
	struct or_progress progress;
	struct or_expect expect;
	struct or_cbor_out *cb;
	FILE *out;
};

static void on_diag(void *arg, const struct or_diag *d)
{
	struct cli *c = arg;

	if (c->expect_mode)
		or_expect_record(&c->expect, d);
	if (c->json)
		or_json_diag(c->out, d);
	else if (c->cbor)
		or_cbor_diag(c->cb, d);
	else if (!c->quiet && !c->expect_mode) {
		or_progress_clear(&c->progress);
		or_text_diag(c->out, d);
	}
}

static void on_event(void *arg, struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec)
{
	struct cli *c = arg;

	(void)ctx;
	if (c->json)
		or_json_event(c->out, ev, dec);
	else
		or_cbor_event(c->cb, ev, dec);
}

/* What was printed could all be written (a full disk, a closed pipe): 0,
 * else 2 after saying so. A result nobody could read is no result. */
static int stdout_status(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "gcoracle: standard output: cannot write: %s\n",
		        strerror(errno ? errno : EIO));
		return 2;
	}
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: gcoracle [--json | --cbor] [--strict] [--quiet] [--expect FILE]\n"
	      "                [--format FMT] [--threads N] FILE|DIR...\n"
	      "       gcoracle compare [--json] EXPECTED ACTUAL  (see gcoracle compare --help)\n"
	      "       gcoracle run [OPTIONS] -- DECODER {}       (see gcoracle run --help)\n"
	      "Decode .NET GC runtime events and check them against the spec.\n"
	      "FILE - (or a pipe) is read as it comes, without seeking. A DIR is a CTF\n"
	      "trace (LTTng), or a directory with traces below it.\n"
	      "  --json         JSON lines: one per event and diagnostic, then a summary\n"
	      "  --cbor         the same records as a CBOR sequence (RFC 8742)\n"
	      "  --strict       warnings count as errors\n"
	      "  --quiet        print only the summary (text mode)\n"
	      "  --expect FILE  check the diagnostics against gcgen expectations\n"
	      "  --format FMT   read as FMT (cbor, nettrace, ctf, etl) instead of probing\n"
	      "  --threads N    N >= 2: read each file on a thread of its own while this\n"
	      "                 one decodes, checks and writes (with --json or --cbor the\n"
	      "                 reading thread checks too and this one writes), and with\n"
	      "                 N >= 3 expand a compressed .etl file's buffers on N-2 more\n"
	      "                 (at most 3); the same output; a directory is read with\n"
	      "                 one; default 1\n"
	      "  --help, --version\n"
	      "Exit status: 0 no errors, 1 errors found, 2 unreadable input or bad usage.\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "cbor", no_argument, NULL, 'c' },
		{ "strict", no_argument, NULL, 's' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "expect", required_argument, NULL, 'e' },
		{ "format", required_argument, NULL, 'F' },
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct cli c;
	struct or_ctx ctx;
	const char *expect_path = NULL, *format = NULL;
	int opt, strict = 0, status = 0, unopened = 0;
	unsigned threads = 1;

	/* gcoracle compare EXPECTED ACTUAL: a decoder's output against a corpus case. */
	if (argc > 1 && strcmp(argv[1], "compare") == 0)
		return or_compare_main(argc - 1, argv + 1);
	/* gcoracle run -- DECODER {}: a decoder over the whole corpus. */
	if (argc > 1 && strcmp(argv[1], "run") == 0)
		return or_run_main(argc - 1, argv + 1);
	memset(&c, 0, sizeof c);
	c.out = stdout;
	while ((opt = getopt_long(argc, argv, "jcsqe:F:T:hV", opts, NULL)) != -1) {
		switch (opt) {
		case 'j': c.json = 1; break;
		case 'c': c.cbor = 1; break;
		case 's': strict = 1; break;
		case 'q': c.quiet = 1; break;
		case 'e': expect_path = optarg; break;
		case 'F': format = optarg; break;
		case 'T': {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 1024 || optarg[0] == '-') {
				fprintf(stderr, "gcoracle: --threads %s: a number from 1 to 1024\n", optarg);
				return 2;
			}
			threads = (unsigned)v;
			break;
		}
		case 'h': usage(stdout); return stdout_status();
		case 'V': printf("gcoracle (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return stdout_status();
		default: usage(stderr); return 2;
		}
	}
	if (c.json && c.cbor) {
		fputs("gcoracle: --json and --cbor exclude each other: choose one\n", stderr);
		return 2;
	}
	if (optind >= argc) {
		fputs("gcoracle: no FILE or DIR to read\n", stderr);
		usage(stderr);
		return 2;
	}
	if (c.cbor && isatty(STDOUT_FILENO)) {
		fputs("gcoracle: --cbor writes binary; not to a terminal (redirect or pipe it)\n", stderr);
		return 2;
	}
	if (expect_path) {
		if (or_expect_load(&c.expect, expect_path))
			return 2;
		c.expect_mode = 1;
	}
	if (or_ctx_init(&ctx) || (c.cbor && !(c.cb = or_cbor_out_new(c.out)))) {
		fputs("gcoracle: out of memory\n", stderr);
		return 2;
	}
	ctx.diag.strict = strict;
	ctx.format = format;
	ctx.threads = threads;
	/* With nothing to print per diagnostic or event, no callback: the
	 * counts are kept all the same. */
	if (c.json || c.cbor || c.expect_mode || !c.quiet) {
		ctx.diag.emit = on_diag;
		ctx.diag.emit_arg = &c;
	}
	if (c.json || c.cbor) {
		ctx.on_event = on_event;
		ctx.on_event_arg = &c;
	}
	/* A progress line on a terminal, unless the records themselves stream
	 * to the same terminal. */
	if (isatty(STDERR_FILENO) && (!(c.json || c.cbor) || !isatty(STDOUT_FILENO))) {
		const char *after = getenv("GCORACLE_PROGRESS_AFTER");
		char *end;

		c.progress.tty = stderr;
		c.progress.after = 1.0;
		if (after && *after) {
			double v = strtod(after, &end);

			if (!*end && v >= 0 && v < 1e9)
				c.progress.after = v;
		}
		ctx.progress = &c.progress;
	}
	for (int i = optind; i < argc; i++) {
		int is_stdin = strcmp(argv[i], "-") == 0;
		struct stat st;

		/* The records so far reach stdio before anything this file
		 * makes gcoracle say on stderr, as when they were written one
		 * by one. */
		if (c.json)
			or_json_flush(c.out);
		else if (c.cb)
			or_cbor_flush(c.cb);

		if (!is_stdin && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			/* A trace directory (CTF). Nothing read from it: unopened (with
			 * --expect the diagnostics it raised are still judged). */
			uint64_t before = ctx.stats.bytes;

			if (or_run_dir(&ctx, argv[i]) != 0) {
				unopened += ctx.stats.bytes == before;
				if (!c.expect_mode)
					status = 2;
			}
			continue;
		}
		FILE *in = is_stdin ? stdin : fopen(argv[i], "rbe");
		if (!in) {
			fprintf(stderr, "gcoracle: %s: %s\n", gc_esc(argv[i]), strerror(errno));
			status = 2;
			unopened++;
			continue;
		}
		/* With --expect a file the reader refuses is judged by the
		 * diagnostics it raised: a container fault expects exactly that. */
		if (or_run_file(&ctx, is_stdin ? "(stdin)" : argv[i], in) != 0 &&
		    !c.expect_mode)
			status = 2;
		if (!is_stdin)
			fclose(in);
	}
	if (unopened == argc - optind && !c.expect_mode) {
		/* Nothing was read: no summary of zeros. */
		or_ctx_free(&ctx);
		or_cbor_out_free(c.cb);
		return 2;
	}
	if (c.json)
		or_json_summary(c.out, &ctx);
	else if (c.cbor)
		or_cbor_summary(c.cb, &ctx);
	else if (!c.expect_mode)
		or_text_summary(c.out, &ctx);
	if (c.expect_mode) {
		int v = or_expect_verdict(&c.expect, c.json || c.cbor ? stderr : stdout, !c.quiet);
		or_expect_free(&c.expect);
		if (status == 0)
			status = v;
	} else if (status == 0 && ctx.diag.by_severity[GCSPEC_ERROR])
		status = 1;
	or_ctx_free(&ctx);
	or_cbor_out_free(c.cb);
	if (stdout_status() != 0)
		status = 2;
	return status;
}
