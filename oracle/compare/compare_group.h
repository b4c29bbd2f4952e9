/*
 * compare_group.h - differences grouped by (code, event-version, field):
 * how many of each kind, with one example each, so that a report that shows
 * the first N differences in full still says what all of them are. At most
 * CG_MAX kinds are kept; differences of further kinds are counted apart.
 */
#ifndef ORACLE_COMPARE_GROUP_H
#define ORACLE_COMPARE_GROUP_H

#include <stdint.h>
#include <stdio.h>

#define CG_MAX 64

struct cg_group {
	unsigned code;            /* a GCSPEC_DIAG_* */
	char event[64];           /* the event-version's symbol, "" for none */
	char field[64];           /* the field, "" for none */
	uint64_t count;
	uint64_t example_event;   /* OR_NO_EVENT-like: UINT64_MAX for none */
	char example[200];        /* the first one's message, cut */
};

struct cg_list {
	struct cg_group g[CG_MAX];
	unsigned n;
	uint64_t other;           /* differences of kinds past CG_MAX */
};

/* Count one difference into its group (event, field: "" or NULL for none). */
void cg_add(struct cg_list *l, unsigned code, const char *event, const char *field,
	    uint64_t example_event, const char *msg);

/* The groups, most frequent first, at most max of them (0: all), one line
 * each after lead: "120 GC-K004 GCHeapStats_V2 TotalHeapSize, e.g. event 5:
 * ...". Message text must already be safe for a terminal. */
void cg_print(FILE *out, const char *lead, const struct cg_list *l, unsigned max);

#endif
