/*
 * expect.h - the ground-truth rule against gcgen's --expect files.
 *
 * An expectation file holds JSON lines {"code":"GC-S005","event":17} with an
 * optional "may":true; a "may" line without "event" allows the code at any
 * event (docs/faults.md). The rule: every expectation without "may" must be
 * reported at that event index, and no error-severity diagnostic may be
 * reported that is not listed (with or without "may"). or_expect owns its
 * arrays; or_expect_free releases them.
 */
#ifndef ORACLE_EXPECT_H
#define ORACLE_EXPECT_H

#include <stdio.h>

#include "diag.h"

/* event of a "may" line that allows any event */
#define OR_ANY_EVENT UINT64_MAX

struct or_expect_item { int code; uint64_t event; int may; int hit; };

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
/* Apply the rule; print the first mismatch to out. Returns 0 when met. */
int or_expect_verdict(struct or_expect *x, FILE *out);
void or_expect_free(struct or_expect *x);

#endif
