/*
 * run_corpus.c - gcoracle run: the corpus runner. Runs a decoder on every
 * corpus case (or a selection) in an isolated child (isolate.h), compares
 * each output with gcoracle compare's rules in this process (compare.h), and
 * reports TAP, JUnit XML and a one-screen summary (docs/gcoracle-run.1).
 *
 * A case fails when compare finds differences, when the decoder crashes or
 * times out (any case), or exits non-zero on a y_ case (unless the accepted
 * differences list the rejection). A non-zero exit on an n_ or i_ case is a
 * rejection: when the decoder printed no error (compare's reading of its
 * lines), one is added for it, so that a decoder that only accepts or
 * rejects is judged by its exit status.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/compare/accept.h"
#include "oracle/compare/compare.h"
#include "oracle/diag.h"
#include "oracle/isolate.h"
#include "oracle/run_corpus.h"
#include "oracle/run_report.h"
#include "util/esc.h"
#include "util/esc.h"

#ifndef GCCONFORM_CORPUSDIR
#define GCCONFORM_CORPUSDIR "/usr/local/share/gcconform/corpus"
#endif

static const char *const containers[] = { "nettrace", "ctf", "etl", "model" };
#define NCONT 4
enum { P_Y, P_N, P_I, NPREFIX };
enum { S_PASS, S_FAIL, S_SKIP, NSTATE };

struct run {
	const char *corpus, *tap_path, *junit_path;
	char **cmd;
	struct iso_limits lim;
	unsigned max;
	int allow_unused, quiet, progress;
	unsigned containers;        /* bit per containers[]; 0: all */
	unsigned prefixes;          /* bit per P_*; 0: all */
	const char *globs[32];
	unsigned nglobs;
	struct ac_list *ac;
	char tmpdir[64];
	struct rr_file tapf, junitf;
	FILE *tap, *junit_body;     /* the JUnit cases, until the totals are known */
	char *junit_buf;
	size_t junit_len;
	unsigned count[NCONT][NPREFIX][NSTATE];
	unsigned ntests, nfail, nskip;  /* TAP tests: the cases, and the accepted-entries test */
	unsigned ncases, ncases_failed;
	unsigned nno_process;           /* cases whose events named no process (GC-K013) */
	char failed[20][96];
	char bail[512];             /* why the run stopped early ("": a generic reason) */
	unsigned nfailed_names;
	char *decl;                 /* the decoder's "decoder" line, from the first case with one */
};

static int container_of(const char *name)
{
	const char *p = name + 2;

	for (int i = 0; i < NCONT; i++) {
		size_t n = strlen(containers[i]);

		if (strncmp(p, containers[i], n) == 0 && (p[n] == '_' || !p[n]))
			return i;
	}
	return -1;
}

static int prefix_of(const char *name)
{
	return name[1] != '_' ? -1 : name[0] == 'y' ? P_Y : name[0] == 'n' ? P_N
		: name[0] == 'i' ? P_I : -1;
}

static int selected(const struct run *r, const char *name)
{
	int c = container_of(name), p = prefix_of(name);

	if (c < 0 || p < 0)
		return 0;
	if (r->containers && !(r->containers & 1u << c))
		return 0;
	if (r->prefixes && !(r->prefixes & 1u << p))
		return 0;
	for (unsigned i = 0; i < r->nglobs; i++)
		if (fnmatch(r->globs[i], name, 0) == 0)
			return 1;
	return r->nglobs == 0;
}

/* The case's input: cases/NAME.EXT (a file, or a CTF trace directory). */
static int find_input(const char *corpus, const char *name, char *out, size_t n)
{
	static const char *const ext[] = { "nettrace", "ctf", "etl", "cbor" };
	struct stat st;

	for (unsigned i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		snprintf(out, n, "%s/cases/%s.%s", corpus, name, ext[i]);
		if (stat(out, &st) == 0)
			return 0;
	}
	return -1;
}

/* The first lines of the decoder's standard error, for the report of a
 * failure: at most 5 lines of 200 bytes, each "stderr: " and the line with
 * control bytes (NUL too) and bytes that are not UTF-8 as \xNN. */
static char *stderr_excerpt(FILE *ef)
{
	char buf[1000], *text = NULL;
	size_t n = fread(buf, 1, sizeof buf, ef), len = 0, at = 0;
	FILE *m = open_memstream(&text, &len);

	for (int k = 0; m && k < 5 && at < n; k++) {
		const char *nl = memchr(buf + at, '\n', n - at);
		size_t line = nl ? (size_t)(nl - (buf + at)) : n - at;

		fputs("stderr: ", m);
		rr_escape(m, buf + at, line < 200 ? line : 200, 0);
		fputc('\n', m);
		at += line + 1;
	}
	if (m && fclose(m) != 0) {
		free(text);
		text = NULL;
	}
	return text;
}

static int run_case(struct run *r, const char *name)
{
	char input[4096], expect[4096], outp[128], errp[128], why[480] = "", label[300];
	char *report = NULL, *errtext = NULL;
	size_t report_len = 0;
	struct or_compare_opts o;
	struct or_compare_result cr;
	struct iso_result ir;
	char **argv;
	int out = -1, err = -1, state, crc = 2, cls = prefix_of(name), cont = container_of(name);
	FILE *of = NULL, *rep, *ef;

	snprintf(expect, sizeof expect, "%s/expect/%s.cbor", r->corpus, name);
	snprintf(outp, sizeof outp, "%s/out", r->tmpdir);
	snprintf(errp, sizeof errp, "%s/err", r->tmpdir);
	if (find_input(r->corpus, name, input, sizeof input) < 0) {
		fprintf(stderr, "gcoracle run: %s: no input under %s/cases\n", gc_esc(name), gc_esc(r->corpus));
		return -1;
	}
	out = open(outp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	err = open(errp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0 || err < 0) {
		fprintf(stderr, "gcoracle run: %s: %s\n", gc_esc(r->tmpdir), strerror(errno));
		goto fatal;
	}
	if (r->decl && or_compare_declared_skip(expect, r->decl)) {
		/* The declaration already says the case is skipped: what the
		 * decoder would print of it is its declaration, so that is its
		 * output, and it is never started (gcoracle-run(1)). */
		memset(&ir, 0, sizeof ir);
		ir.verdict = ISO_EXIT;
		if (write(out, r->decl, strlen(r->decl)) < 0 || write(out, "\n", 1) < 0) {
			fprintf(stderr, "gcoracle run: %s: %s\n", gc_esc(outp), strerror(errno));
			goto fatal;
		}
	} else if (!(argv = iso_argv(r->cmd, input))) {
		fprintf(stderr, "gcoracle run: out of memory\n");
		goto fatal;
	} else {
		if (iso_run(argv, &r->lim, out, err, &ir) < 0) {
			fprintf(stderr, "gcoracle run: cannot run %s: %s\n", gc_esc(r->cmd[0]), strerror(errno));
			free(argv);
			goto fatal;
		}
		free(argv);
	}
	if (ir.left) {
		/* Containment did not hold: say so, and fail the case. */
		fprintf(stderr, "gcoracle run: %s: %ld process%s the decoder started could not be "
			"killed\n", name, ir.left, ir.left == 1 ? "" : "es");
		ir.verdict = ISO_CRASH;
		snprintf(ir.detail, sizeof ir.detail, "%ld process%s it started could not be killed",
			 ir.left, ir.left == 1 ? "" : "es");
	}
	if (ir.exec_errno) {
		/* No verdict at all: every case would count as a rejection. */
		fprintf(stderr, "gcoracle run: cannot run %s: %s\n", gc_esc(r->cmd[0]), strerror(ir.exec_errno));
		goto fatal;
	}
	if (!(rep = open_memstream(&report, &report_len)) || !(of = fdopen(out, "a+e"))) {
		fprintf(stderr, "gcoracle run: out of memory\n");
		goto fatal;
	}
	out = -1;
	if (!r->decl && ir.verdict == ISO_EXIT) {
		rewind(of);
		r->decl = or_compare_decl_line(of);
	}
	/* Only when the decoder printed no error of its own (gcoracle-run(1)). */
	rewind(of);
	if (ir.verdict == ISO_EXIT && ir.code != 0 && !or_compare_has_error(of) &&
	    fseek(of, 0, SEEK_END) == 0)
		fprintf(of, "{\"type\":\"error\",\"message\":\"the decoder exited with status %d\"}\n",
			ir.code);
	fflush(of);
	rewind(of);
	memset(&o, 0, sizeof o);
	o.out = rep;
	o.quiet = 1;
	o.max = r->max;
	o.root = r->corpus;
	o.accept = r->ac;
	snprintf(label, sizeof label, "%s (the decoder's output)", name);
	crc = or_compare_case(&o, expect, of, label, &cr);
	fclose(of);
	fclose(rep);
	/* The verdict. */
	if (cr.decl_error[0])
		snprintf(why, sizeof why, "the decoder's declaration: %s", cr.decl_error);
	else if (ir.verdict == ISO_CRASH)
		snprintf(why, sizeof why, "%s the decoder crashed: %s",
		         or_diag_code(GCSPEC_DIAG_K019), ir.detail);
	else if (ir.verdict == ISO_TIMEOUT)
		snprintf(why, sizeof why, "%s the decoder timed out: %s",
		         or_diag_code(GCSPEC_DIAG_K020), ir.detail);
	else if (strcmp(cr.result, "skip") == 0)
		; /* a format the decoder says it does not read: its exit status does not count */
	else if (cls == P_Y && ir.code != 0 && !(crc == 0 && cr.rejection_accepted))
		snprintf(why, sizeof why, "%s the decoder failed on a valid case: %s",
		         or_diag_code(GCSPEC_DIAG_K021), ir.detail);
	else if (crc == 2)
		snprintf(why, sizeof why, "the output could not be compared");
	else if (crc == 1)
		snprintf(why, sizeof why, "%" PRIu64 " differences", cr.differences);
	state = *why ? S_FAIL : strcmp(cr.result, "skip") == 0 ? S_SKIP : S_PASS;
	r->count[cont][cls][state]++;
	r->ntests++;
	/* The decoder's standard error, first lines, for the report of a failure. */
	if (state == S_FAIL && (ef = fopen(errp, "re"))) {
		errtext = stderr_excerpt(ef);
		fclose(ef);
	}
	r->ncases++;
	r->nno_process += cr.no_process && state != S_SKIP;
	if (state == S_FAIL) {
		r->nfail++;
		r->ncases_failed++;
		if (r->nfailed_names < 20)
			snprintf(r->failed[r->nfailed_names++], sizeof r->failed[0], "%s", name);
	}
	if (state == S_SKIP)
		r->nskip++;
	if (r->tap) {
		fprintf(r->tap, "%sok %u - ", state == S_FAIL ? "not " : "", r->ntests);
		rr_escape(r->tap, name, strlen(name), 1);
		fprintf(r->tap, "%s%s\n", state == S_SKIP ? " # SKIP " : "", state == S_SKIP ?
			"the decoder does not read this format" : "");
		if (state == S_FAIL || !r->quiet) {
			if (*why)
				fprintf(r->tap, "# %s\n", why);
			rr_tap_comment(r->tap, report ? report : "");
			if (errtext)
				rr_tap_comment(r->tap, errtext);
		}
	}
	if (r->junit_body) {
		fprintf(r->junit_body, "    <testcase classname=\"%s.%c_\" name=\"", containers[cont],
			"yni"[cls]);
		rr_xml_text(r->junit_body, name);
		fprintf(r->junit_body, "\" time=\"%.3f\">\n", ir.ms / 1000);
		if (state == S_FAIL) {
			fputs("      <failure message=\"", r->junit_body);
			rr_xml_text(r->junit_body, why);
			fputs("\">", r->junit_body);
			rr_xml_text(r->junit_body, report ? report : "");
			if (errtext)
				rr_xml_text(r->junit_body, errtext);
			fputs("</failure>\n", r->junit_body);
		} else if (state == S_SKIP) {
			fputs("      <skipped message=\"the decoder does not read this format\"/>\n",
			      r->junit_body);
		}
		fputs("    </testcase>\n", r->junit_body);
	}
	if (state == S_FAIL && !r->quiet) {
		printf("%sFAIL %s: %s\n", r->progress ? "\r\033[K" : "", name, why);
		/* What the decoder printed is in them: escaped for the terminal. */
		rr_lines(stdout, "  ", cr.explain);
		rr_lines(stdout, "  ", cr.groups);
	}
	if (r->progress) {
		printf("\r\033[K%u cases, %u failed", r->ntests, r->nfail);
		fflush(stdout);
	}
	free(report);
	free(errtext);
	unlink(outp);
	unlink(errp);
	/* The run stops at a declaration it cannot take at its word. */
	if (!cr.decl_error[0])
		return 0;
	snprintf(r->bail, sizeof r->bail, "%s: %s", name, why);
	return -1;
fatal:
	if (out >= 0)
		close(out);
	if (err >= 0)
		close(err);
	unlink(outp);
	unlink(errp);
	return -1;
}

/* --- the report --------------------------------------------------------------- */

static void summary(struct run *r, unsigned unused)
{
	static const char *const pname[NPREFIX] = { "y_", "n_", "i_" };

	if (r->progress)
		fputs("\r\033[K", stdout);
	printf("%-10s %-4s %6s %6s %6s\n", "container", "", "pass", "fail", "skip");
	for (int c = 0; c < NCONT; c++)
		for (int p = 0; p < NPREFIX; p++) {
			unsigned *k = r->count[c][p];

			if (k[S_PASS] + k[S_FAIL] + k[S_SKIP])
				printf("%-10s %-4s %6u %6u %6u\n", containers[c], pname[p], k[S_PASS],
				       k[S_FAIL], k[S_SKIP]);
		}
	for (int p = 0; p < NPREFIX; p++) {
		unsigned t[NSTATE] = { 0, 0, 0 };

		for (int c = 0; c < NCONT; c++)
			for (int s = 0; s < NSTATE; s++)
				t[s] += r->count[c][p][s];
		if (t[0] + t[1] + t[2])
			printf("%-10s %-4s %6u %6u %6u\n", "all", pname[p], t[S_PASS], t[S_FAIL], t[S_SKIP]);
	}
	for (unsigned i = 0; i < r->nfailed_names; i++)
		printf("failed: %s\n", r->failed[i]);
	if (r->ncases_failed > r->nfailed_names)
		printf("failed: ... and %u more\n", r->ncases_failed - r->nfailed_names);
	for (size_t i = 0; r->ac && i < r->ac->n; i++) {
		char why[300];

		if (!r->ac->e[i].hits)
			printf("unused: %s:%u: %s %s %s: %s\n", r->ac->path, r->ac->e[i].line,
			       ac_kind_name(r->ac->e[i].kind), r->ac->e[i].event, r->ac->e[i].field,
			       ac_unused_why(&r->ac->e[i], why, sizeof why));
	}
	if (r->ac) {
		uint64_t acc = 0;

		for (size_t i = 0; i < r->ac->n; i++)
			acc += r->ac->e[i].hits;
		printf("accepted differences: %" PRIu64 " by %zu entries of %s", acc, r->ac->n,
		       r->ac->path);
		if (unused)
			printf("; %u entr%s accepted nothing%s%s", unused, unused == 1 ? "y" : "ies",
			       r->allow_unused ? " (allowed)" : ": ",
			       r->allow_unused ? "" : or_diag_code(GCSPEC_DIAG_K018));
		putchar('\n');
	}
	if (r->nno_process)
		printf("note: %s the decoder's events give no process on %u case%s: which process "
		       "each event is of was not compared\n", or_diag_code(GCSPEC_DIAG_K013),
		       r->nno_process, r->nno_process == 1 ? "" : "s");
	printf("%u cases: %u passed, %u failed, %u skipped", r->ncases,
	       r->ncases - r->ncases_failed - r->nskip, r->ncases_failed, r->nskip);
	if (unused && !r->allow_unused)
		printf("; the run fails: %u accepted-differences entr%s accepted nothing (unused: above)",
		       unused, unused == 1 ? "y" : "ies");
	putchar('\n');
}

/* Entries that accepted nothing over the run: one more test. */
static unsigned check_unused(struct run *r)
{
	unsigned unused = 0;
	char why[300];

	for (size_t i = 0; r->ac && i < r->ac->n; i++)
		unused += r->ac->e[i].hits == 0;
	if (!r->ac)
		return 0;
	r->ntests++;
	if (r->tap) {
		fprintf(r->tap, "%sok %u - every accepted difference occurred%s\n",
			unused && !r->allow_unused ? "not " : "", r->ntests,
			unused && r->allow_unused ? " # SKIP --allow-unused" : "");
		for (size_t i = 0; i < r->ac->n; i++) {
			const struct ac_entry *e = &r->ac->e[i];

			if (!e->hits)
				fprintf(r->tap, "# %s %s:%u: %s %s %s accepted nothing: %s in the "
					"%u cases of this run\n", or_diag_code(GCSPEC_DIAG_K018),
					r->ac->path, e->line, ac_kind_name(e->kind), e->event,
					e->field, ac_unused_why(e, why, sizeof why), r->ncases);
			else if (!r->quiet)
				fprintf(r->tap, "# %s:%u: %s %s %s%s%s: %" PRIu64 " differences in %"
					PRIu64 " cases\n", r->ac->path, e->line, ac_kind_name(e->kind),
					e->event, e->field, e->alias ? "=" : "", e->alias ? e->alias : "",
					e->hits, e->cases);
		}
	}
	if (r->junit_body) {
		fprintf(r->junit_body, "    <testcase classname=\"accepted\" name=\"every accepted "
			"difference occurred\">\n");
		if (unused && !r->allow_unused) {
			fprintf(r->junit_body, "      <failure message=\"%u entries accepted nothing\">",
				unused);
			for (size_t i = 0; i < r->ac->n; i++)
				if (!r->ac->e[i].hits) {
					fprintf(r->junit_body, "%s line %u: %s ",
						or_diag_code(GCSPEC_DIAG_K018), r->ac->e[i].line,
						ac_kind_name(r->ac->e[i].kind));
					rr_xml_text(r->junit_body, r->ac->e[i].event);
					fputc(' ', r->junit_body);
					rr_xml_text(r->junit_body, r->ac->e[i].field);
					fputs(": ", r->junit_body);
					rr_xml_text(r->junit_body, ac_unused_why(&r->ac->e[i], why, sizeof why));
					fputc('\n', r->junit_body);
				}
			fputs("</failure>\n", r->junit_body);
		}
		fputs("    </testcase>\n", r->junit_body);
	}
	if (unused && !r->allow_unused)
		r->nfail++;
	return unused;
}

/* The JUnit file: the totals, then the cases gathered; into place. */
static int write_junit(struct run *r)
{
	FILE *f = r->junitf.f;
	int rc = fclose(r->junit_body) == 0 ? 0 : -1;

	r->junit_body = NULL;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite "
		"name=\"gcconform corpus\" tests=\"%u\" failures=\"%u\" skipped=\"%u\">\n",
		r->ntests, r->nfail, r->nskip);
	fwrite(r->junit_buf, 1, r->junit_len, f);
	fputs("  </testsuite>\n</testsuites>\n", f);
	if (rr_commit(&r->junitf) < 0)
		rc = -1;
	return rc;
}

/* --- options ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fputs("usage: gcoracle run [OPTIONS] -- DECODER [ARG...]   ({} in an ARG: the case's input;\n"
	      "                                                    without one it is appended)\n"
	      "Run a decoder on every corpus case, compare its JSON-lines output with the\n"
	      "case's expectation (gcoracle compare), report TAP, JUnit XML and a summary.\n"
	      "  --corpus DIR      the corpus (default $GCCONFORM_CORPUS, else the installed one:\n"
	      "                    BIN/../share/gcconform/corpus, or " GCCONFORM_CORPUSDIR ")\n"
	      "  --container LIST  nettrace,ctf,etl,model (cbor = model)\n"
	      "  --prefix LIST     y_,n_,i_ (or y,n,i)\n"
	      "  --case GLOB       case names matching GLOB (repeatable)\n"
	      "  --accept FILE     differences the decoder knowingly has (docs/accepted-differences.md)\n"
	      "  --allow-unused    entries that accept nothing in this run are not a failure\n"
	      "  --timeout SECS    per case (default 60)\n"
	      "  --memory MB       resident memory the decoder and every process it starts may\n"
	      "                    hold together (default 4096; 0: none)\n"
	      "  --max-output MB   output the decoder's processes may write, standard output and\n"
	      "                    error together, and any file they write (default 64; 0: none)\n"
	      "  --tap FILE        TAP report (- : standard output)\n"
	      "  --junit FILE      JUnit XML report\n"
	      "  --max N           differences per failed case in the reports (default 20; 0: all)\n"
	      "  --quiet           only the summary\n"
	      "Exit status: 0 every selected case passed, 1 a case failed, 2 bad usage or the\n"
	      "run could not be done.\n", f);
}

static int parse_list(const char *arg, const char *const *names, unsigned n, unsigned *bits,
		      int prefixes)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof buf, "%s", arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned i;
		size_t len = strlen(tok);

		if (prefixes && len == 2 && tok[1] == '_')
			tok[1] = 0;
		if (!prefixes && strcmp(tok, "cbor") == 0)
			tok = "model";
		for (i = 0; i < n && strcmp(names[i], tok) != 0; i++)
			;
		if (i == n) {
			fprintf(stderr, "gcoracle run: unknown %s \"%s\"\n",
				prefixes ? "prefix" : "container", gc_esc(tok));
			return -1;
		}
		*bits |= 1u << i;
	}
	return 0;
}

static int list_cases(const char *corpus, struct dirent ***ents)
{
	char dir[4096];

	snprintf(dir, sizeof dir, "%s/expect", corpus);
	return scandir(dir, ents, NULL, alphasort);
}

/* $GCCONFORM_CORPUS; else the corpus installed beside this gcoracle
 * (BIN/../share/gcconform/corpus: right after `make install prefix=OTHER`
 * and under DESTDIR too); else the one configure named. */
static const char *default_corpus(void)
{
	static char beside[4096];
	const char *env = getenv("GCCONFORM_CORPUS");
	ssize_t n;
	char *slash;
	struct stat st;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", beside, sizeof beside - 64);
	if (n > 0) {
		beside[n] = 0;
		if ((slash = strrchr(beside, '/'))) {
			strcpy(slash, "/../share/gcconform/corpus");
			if (strlen(beside) + 8 < sizeof beside) {
				char expect[4096];

				snprintf(expect, sizeof expect, "%s/expect", beside);
				if (stat(expect, &st) == 0 && S_ISDIR(st.st_mode))
					return beside;
			}
		}
	}
	return GCCONFORM_CORPUSDIR;
}

int or_run_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "corpus", required_argument, NULL, 'c' }, { "container", required_argument, NULL, 'C' },
		{ "prefix", required_argument, NULL, 'p' }, { "case", required_argument, NULL, 'g' },
		{ "accept", required_argument, NULL, 'a' }, { "allow-unused", no_argument, NULL, 'u' },
		{ "timeout", required_argument, NULL, 't' }, { "memory", required_argument, NULL, 'm' },
		{ "tap", required_argument, NULL, 'T' }, { "junit", required_argument, NULL, 'J' },
		{ "max", required_argument, NULL, 'M' }, { "quiet", no_argument, NULL, 'q' },
		{ "max-output", required_argument, NULL, 'O' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
	};
	static const char *const pnames[] = { "y", "n", "i" };
	static struct run r;
	struct dirent **ents = NULL;
	int opt, n = 0, rc = 2, bail = 0;
	unsigned unused;
	char *end;

	memset(&r, 0, sizeof r);
	r.lim.timeout = 60;
	r.lim.rss_mb = 4096;
	r.lim.output_bytes = 64ull << 20;
	/* Not dumpable: a decoder of the same user cannot open this process's
	 * descriptors (its reports) through /proc/PID/fd either. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	r.max = 20;
	r.corpus = default_corpus();
	optind = 1;
	while ((opt = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		switch (opt) {
		case 'c': r.corpus = optarg; break;
		case 'C':
			if (parse_list(optarg, containers, NCONT, &r.containers, 0) < 0)
				return 2;
			break;
		case 'p':
			if (parse_list(optarg, pnames, NPREFIX, &r.prefixes, 1) < 0)
				return 2;
			break;
		case 'g':
			if (r.nglobs == sizeof r.globs / sizeof r.globs[0]) {
				fprintf(stderr, "gcoracle run: at most 32 --case patterns\n");
				return 2;
			}
			r.globs[r.nglobs++] = optarg;
			break;
		case 'a':
			ac_free(r.ac);
			if (!(r.ac = ac_load(optarg)))
				return 2;
			break;
		case 'u': r.allow_unused = 1; break;
		case 't':
			r.lim.timeout = strtod(optarg, &end);
			if (*end || r.lim.timeout <= 0) {
				fprintf(stderr, "gcoracle run: --timeout %s: not a positive number\n", gc_esc(optarg));
				goto out;
			}
			break;
		case 'm':
		case 'O':
		case 'M': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || !*optarg || *optarg == '-' || (opt == 'O' && v > 1ul << 30)) {
				fprintf(stderr, "gcoracle run: --%s %s: not a number\n",
					opt == 'm' ? "memory" : opt == 'O' ? "max-output" : "max", gc_esc(optarg));
				goto out;
			}
			if (opt == 'm')
				r.lim.rss_mb = v;
			else if (opt == 'O')
				r.lim.output_bytes = (unsigned long long)v << 20;
			else
				r.max = (unsigned)v;
			break;
		}
		case 'T': r.tap_path = optarg; break;
		case 'J': r.junit_path = optarg; break;
		case 'q': r.quiet = 1; break;
		case 'h': usage(stdout); rc = 0; goto out;
		default: usage(stderr); goto out;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "gcoracle run: no decoder command (after --)\n");
		usage(stderr);
		goto out;
	}
	r.cmd = argv + optind;
	if ((n = list_cases(r.corpus, &ents)) < 0) {
		fprintf(stderr, "gcoracle run: %s/expect: %s (--corpus, or GCCONFORM_CORPUS)\n",
			gc_esc(r.corpus), strerror(errno));
		goto out;
	}
	snprintf(r.tmpdir, sizeof r.tmpdir, "%s/gcoracle-run.XXXXXX",
		 getenv("TMPDIR") && strlen(getenv("TMPDIR")) < 30 ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(r.tmpdir)) {
		fprintf(stderr, "gcoracle run: %s: %s\n", gc_esc(r.tmpdir), strerror(errno));
		goto out;
	}
	/* The reports' files exist before the first case runs: a path that
	 * cannot be written stops the run before it costs anything. */
	if (r.tap_path && rr_open(&r.tapf, r.tap_path) < 0)
		goto out_tmp;
	if (r.junit_path && (rr_open(&r.junitf, r.junit_path) < 0 ||
			     !(r.junit_body = open_memstream(&r.junit_buf, &r.junit_len))))
		goto out_tmp;
	r.tap = r.tapf.f;
	r.progress = !r.quiet && isatty(1) && !(r.tap == stdout);
	for (int i = 0; i < n && !bail; i++) {
		char name[256];
		size_t len = strlen(ents[i]->d_name);

		if (len < 6 || len >= sizeof name || strcmp(ents[i]->d_name + len - 5, ".cbor") != 0)
			continue;
		snprintf(name, sizeof name, "%.*s", (int)(len - 5), ents[i]->d_name);
		if (selected(&r, name) && run_case(&r, name) < 0)
			bail = 1;
	}
	if (!r.ntests && !bail) {
		fprintf(stderr, "gcoracle run: no case in %s matches the selection\n", gc_esc(r.corpus));
		goto out_tmp;
	}
	/* A run cut short still reports every case it ran. */
	unused = bail ? 0 : check_unused(&r);
	if (r.tap && bail) {
		fputs("Bail out! ", r.tap);
		if (*r.bail)
			rr_escape(r.tap, r.bail, strlen(r.bail), 0);
		else
			fputs("the run could not go on (see its standard error)", r.tap);
		fputc('\n', r.tap);
	}
	else if (r.tap) {
		if (r.nno_process)
			fprintf(r.tap, "# note: %s the decoder's events give no process on %u case%s\n",
				or_diag_code(GCSPEC_DIAG_K013), r.nno_process,
				r.nno_process == 1 ? "" : "s");
		fprintf(r.tap, "1..%u\n", r.ntests);
	}
	summary(&r, unused);
	rc = bail ? 2 : r.nfail ? 1 : 0;
	if (r.tap && rr_commit(&r.tapf) < 0)
		rc = 2;
	r.tap = NULL;
	if (r.junit_body && write_junit(&r) < 0)
		rc = 2;
	if (fflush(stdout) != 0)
		rc = 2;
out_tmp:
	rmdir(r.tmpdir);
out:
	rr_discard(&r.tapf);
	rr_discard(&r.junitf);
	if (r.junit_body)
		fclose(r.junit_body);
	free(r.junit_buf);
	for (int i = 0; ents && i < n; i++)
		free(ents[i]);
	free(ents);
	ac_free(r.ac);
	free(r.decl);
	return rc;
}
