/*
 * fault.h - a stream or payload fault class as one row: its name, the
 * codes it raises (GCSPEC_DIAG_* constants), how it picks its target, what
 * it does there (apply) and at the end of a stream its target never came
 * to (fallback). Each family of classes is one file (pairing.c,
 * suspension.c, lifetimes.c, timeline.c, payload.c, unknown.c,
 * reorder.c, processes.c) with its rows and their functions; registry.c lists the
 * families in --list-mutations order. mutate.c is the machinery: slots,
 * the order classes act in, the expect records, and the tools a class
 * uses (mutator.h).
 *
 * To add a class: a row in its family's table and its two functions, in
 * that one file (a new family: a file, and a line in registry.c). Append
 * rows at the end of the last family: a class's index seeds its choices,
 * so a row inserted earlier changes the streams of every class after it.
 */
#ifndef GEN_FAULTS_FAULT_H
#define GEN_FAULTS_FAULT_H

#include <stdint.h>

#include "gen/faults/codes.h"
#include "gen/faults/mutate.h"

struct gen_mutator;
struct gen_fault_slot;

/* The row's flags. */
enum {
	GEN_FAULT_ONE_OF = 1,          /* the codes are alternatives (listed a|b), else all (a,b) */
	GEN_FAULT_NEEDS_SERVER = 2,    /* only server GC writes the target events */
	GEN_FAULT_FIRST_EVENT = 4,     /* the target is the first event the class sees */
	GEN_FAULT_TRACE_START = 8,     /* acts before every other class (it drops the start) */
	GEN_FAULT_TRACE_END = 16,      /* acts, and falls back, after every other class */
	GEN_FAULT_FALLBACK_LATE = 32,  /* its fallback after the others' (but before TRACE_END) */
	GEN_FAULT_PROCESSES = 64       /* changes an event's process: etl formats and ctf only */
};

struct gen_fault {
	const char *name;
	const char *reach;             /* "stream" or "payload" */
	const int *codes;              /* GEN_CODES(...): the codes it must raise */
	unsigned flags;                /* GEN_FAULT_* */
	const char *description;
	/* One event of the input: 1 when the class wrote (or dropped) it, 0
	 * to let it pass on, -1 on error. FAULT_DONE(s) when the fault is
	 * recorded and its aftermath over. */
	int (*apply)(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev);
	/* The target never came: inject the fault at the end of the stream,
	 * where nothing is open. 0, or -1 with the reason in the sink's error
	 * (fault_no_place() when the class has no such fallback). */
	int (*fallback)(struct gen_mutator *m, struct gen_fault_slot *s);
};

struct gen_fault_family {
	const struct gen_fault *rows;
	unsigned n;
};

#define GEN_FAULT_FAMILY(rows) { rows, sizeof rows / sizeof rows[0] }

/* The registry: every class in listing order (its index), or NULL past
 * the end; gen_mutation_find() (mutate.h) looks one up by name. */
const struct gen_fault *gen_fault_at(unsigned i);
unsigned gen_nfaults(void);

/* 1 when class f applies to --format format (GEN_FAULT_PROCESSES: a
 * container that names each event's process). */
int gen_fault_applies(const struct gen_fault *f, const char *format);

#endif
