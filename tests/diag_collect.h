/*
 * diag_collect.h - a container reader's diagnostics, collected for a test
 * to look up (the first 64 kept; all counted) and echoed as TAP comments.
 * Header-only: each container's test helper includes it.
 */
#ifndef GCCONFORM_TESTS_DIAG_COLLECT_H
#define GCCONFORM_TESTS_DIAG_COLLECT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "spec/gcspec.h"

#define TEST_DIAGS_KEPT 64

struct test_diags {
	unsigned n, errors;
	char code[TEST_DIAGS_KEPT][8];
	uint64_t offset[TEST_DIAGS_KEPT];
	int quiet;
};

/* The readers' report callback (arg is a struct test_diags). */
static inline void test_diags_report(void *arg, unsigned code, uint64_t event, uint64_t offset,
                                     const char *msg)
{
	struct test_diags *d = arg;

	(void)event;
	if (d->n < TEST_DIAGS_KEPT) {
		snprintf(d->code[d->n], sizeof d->code[0], "%s", gcspec_diags[code].code);
		d->offset[d->n] = offset;
	}
	d->n++;
	if (gcspec_diags[code].severity == GCSPEC_ERROR)
		d->errors++;
	if (!d->quiet)
		printf("# %s @%llu: %s\n", gcspec_diags[code].code, (unsigned long long)offset, msg);
}

/* Whether code was reported, at byte offset off when exact. */
static inline int test_diags_has(const struct test_diags *d, const char *code, uint64_t off,
                                 int exact)
{
	for (unsigned i = 0; i < d->n && i < TEST_DIAGS_KEPT; i++)
		if (!strcmp(d->code[i], code) && (!exact || d->offset[i] == off))
			return 1;
	return 0;
}

#endif
