/*
 * processes.c - fault classes of attribution: an event of one process
 * said to be another's, as a decoder that takes the process from the
 * wrong place gets it (fault.h: one row and two functions each). They
 * need a container that names each event's process (GEN_FAULT_PROCESSES:
 * the etl formats and ctf); in a machine-wide trace they act in process 0.
 */
#include "gen/faults/mutator.h"

/* A process id the trace has no other event of: a machine-wide trace's
 * processes have ids 4242 + 1301 k for k below 64 (gen/machine.h), a
 * one-process trace 4242 or its -O option's. */
#define OTHER_PID 134342u

/* One GC's GCEnd written as another process's: that process, seen for the
 * first time, begins inside a GC (S002, a note: a process the trace
 * attached to in the middle of a GC looks so), and this one's GC never
 * ends, so its next GCStart nests (S004; a background GC cannot nest at
 * all: S024). */
static int swap(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCEnd") && !m->bgc_open)) {
		ev->process_id = OTHER_PID;
		fault_expect(m, GCSPEC_DIAG_S002, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013,
			  GCSPEC_DIAG_S014, GCSPEC_DIAG_S003, GCSPEC_DIAG_S024);
		s->state = 1;
		return 0;
	}
	if (s->state == 1 && fault_is(ev, "GCStart")) {
		fault_expect(m, fault_num(ev, "Type") == 1 ? GCSPEC_DIAG_S024 : GCSPEC_DIAG_S004,
			     fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int swap_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;
	struct gen_event other;

	if (s->state == 1) /* the GCEnd went, no GCStart came after it */
		return fault_inject_gc(m, n + 1, 0, 0, GCSPEC_DIAG_S004);
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	other = m->last;
	other.process_id = OTHER_PID;
	fault_expect(m, GCSPEC_DIAG_S002, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, &other, "GCEnd", "Count", n + 1, "Depth", 0));
	fault_expect(m, GCSPEC_DIAG_S003, -1, 1);
	return fault_inject_gc(m, n + 2, 0, 0, GCSPEC_DIAG_S004);
}

static const struct gen_fault rows[] = {
	{ "process-swap", "stream", GEN_CODES(GCSPEC_DIAG_S002, GCSPEC_DIAG_S004),
	  GEN_FAULT_PROCESSES,
	  "a GCEnd written as another process's: that one begins inside a GC, this one's "
	  "next GCStart nests", swap, swap_fallback },
};

const struct gen_fault_family gen_faults_processes = GEN_FAULT_FAMILY(rows);
