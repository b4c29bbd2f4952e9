/*
 * compare.h - gcoracle compare: a decoder's JSON-lines output against a
 * corpus case's expectation (docs/using-the-corpus.md, docs/corpus.cddl).
 *
 * The rules live in compare.c, the per-type value rules and the rendering
 * of expected values in compare_fields.c, the value trees both sides are
 * read into in compare_val.c. Differences are diagnostics GC-K001..
 * (docs/diagnostics/compare.toml). Errors: functions return 0, or -1 after
 * printing why on stderr.
 */
#ifndef ORACLE_COMPARE_H
#define ORACLE_COMPARE_H

#include <stdint.h>
#include <stdio.h>

#include "oracle/compare/compare_val.h"
#include "spec/gcspec.h"
#include "oracle/output/output.h"

/* `gcoracle compare ...` (argv[0] is "compare"). Exit status: 0 the output
 * matches (or the case was skipped as unsupported), 1 differences, 2 bad
 * usage or unreadable input. */
int or_compare_main(int argc, char **argv);

struct ac_list;

struct or_compare_opts {
	int json, quiet, all_events;
	unsigned max;             /* differences printed in text mode; 0: all */
	const char *root;         /* the corpus root, or NULL: from EXPECTED's path */
	struct ac_list *accept;   /* accepted differences (hits counted into it), or NULL */
	FILE *out;                /* the report; NULL: stdout */
};

struct or_compare_result {
	char result[8];           /* "pass", "FAIL", "skip", "error" */
	char cls[4];              /* the case's class: "y", "n", "i" */
	int rejected;             /* the decoder reported an error */
	int rejection_accepted;   /* a y_ case rejected, as the accepted differences list */
	uint64_t differences, accepted, events, compared;
	int no_process;           /* events were compared, none with its process */
	char decl_error[400];     /* not "": the declaration names something unknown
				     (result "error", status 2) */
	char explain[1200];       /* a failure: the case's fault and, for a missed
				     diagnostic, what the decoder did there; lines */
	char groups[1400];        /* a failure: its most frequent kinds of difference
				     (code, event-version, field), count and example; lines */
};

/* One case: EXPECTED (a corpus/expect/NAME.cbor) against the decoder's output
 * read from in (in NULL: print the expectation, --print). Returns compare's
 * exit status: 0 pass or skip, 1 differences, 2 could not compare. */
int or_compare_case(const struct or_compare_opts *o, const char *expected, FILE *in,
		    const char *actual_name, struct or_compare_result *r);

/* Has the decoder's output (read from in to its end) an error: an "error"
 * line, or a "diag" line that is an error by compare's rules? */
int or_compare_has_error(FILE *in);

/* The decoder's "decoder" line, when its output (read from in) begins with
 * one: a string the caller frees; else NULL. */
char *or_compare_decl_line(FILE *in);
/* Would a decoder that printed decl_line first be skipped on the case
 * EXPECTED, because it declares formats that do not include the case's?
 * (0 when either cannot be read: the case is then run.) */
int or_compare_declared_skip(const char *expected, const char *decl_line);

/* Does the decoder's value a match the expected value e of field f (f NULL:
 * compare as integers)? */
int cf_same(const struct gcspec_field *f, const struct cv *e, const struct cv *a);
/* Render an expected value as gcoracle --json prints a field of type f
 * (f NULL: generic; Struct rows take the member types). */
void cf_render(FILE *out, const struct gcspec_field *f, const struct cv *v);
/* A map whose keys are the members of Struct field sf (sf may be NULL). */
void cf_render_members(FILE *out, const struct gcspec_field *sf, const struct cv *m);
/* A JSON string of UTF-8 text (bytes that are not UTF-8: \u00XX). */
void cf_json_string(FILE *out, const char *s, size_t n);
/* cf_render into buf (n bytes, cut with "..." when longer); returns buf. */
const char *cf_text(char *buf, size_t n, const struct gcspec_field *f, const struct cv *v);

#endif
