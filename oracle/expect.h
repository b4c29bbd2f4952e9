/*
 * expect.h - the ground-truth rule against gcgen's --expect files.
 *
 * An expectation file holds JSON lines {"code":"GC-S005","event":17} with an
 * optional "may":true. Container faults say where by byte offset instead,
 * {"code":"GC-N010","offset":1234}, in a directory container with the file
 * the offset is in, {"code":"GC-C007","file":"channel0_1","offset":0}; a
 * line with neither event nor offset matches anywhere,
 * and a "may" line's code may name a family, "GC-S*". The rule: every
 * expectation without "may" must be reported where it says, and no
 * error-severity diagnostic may be reported that is not listed (with or
 * without "may"). or_expect owns its arrays; or_expect_free releases them.
 */
#ifndef ORACLE_EXPECT_H
#define ORACLE_EXPECT_H

#include <stdio.h>

#include "oracle/diag.h"

struct or_expect_item {
	int code;          /* GCSPEC_DIAG_*, or -1 for a family */
	uint64_t event;
	int may;
	int hit;
	uint64_t offset;
	int where;         /* 1: event given, 2: offset given, 4: file given */
	char family[8];    /* "GC-S" for "GC-S*", else "" */
	char file[64];     /* with where & 4: offset is in this file */
};

struct or_expect {
	struct or_expect_item *want;
	size_t nwant;
	struct or_expect_item *got;   /* diagnostics reported (error or listed) */
	size_t ngot, capgot;
};

/* Returns 0, or -1 with a message on stderr. */
int or_expect_load(struct or_expect *x, const char *path);
/* Record one reported diagnostic (use as part of the emit callback). */
void or_expect_record(struct or_expect *x, const struct or_diag *d);
/* Apply the rule; print the first mismatch to out, or with say_met a line
 * saying the expectations were met. Returns 0 when met. */
int or_expect_verdict(struct or_expect *x, FILE *out, int say_met);
void or_expect_free(struct or_expect *x);

#endif
