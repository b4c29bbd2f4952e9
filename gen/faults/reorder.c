/*
 * reorder.c - the fault class of events out of order: a suspension's
 * begin and end swapped (fault.h: one row and two functions).
 */
#include "gen/faults/mutator.h"

/* reorder-events: a GCSuspendEEBegin on an idle runtime and its thread's
 * GCSuspendEEEnd right after it change places. The timestamps stay in
 * file order (the end takes the begin's time, the begin the end's), so a
 * reader that orders events by time sees the same swap. A checker then
 * sees an end with no suspension begun (GC-S009), a begin while the runtime
 * is suspended (GC-S008), and the GC's restart while the runtime is still
 * suspending (GC-S010); after the restart's end all is as before. Another
 * thread's suspension events before that restart could take the runtime
 * over in a checker's eyes (a waiter), making the restart legal: GC-S010
 * and what follows from it are then "may". */
static int reorder(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (m->held) {
		struct gen_event *b = &m->held_ev;

		if (fault_is(ev, "GCSuspendEEEnd") && ev->thread_id == b->thread_id &&
		    ev->timestamp > b->timestamp) {
			uint64_t t = ev->timestamp;

			m->held = 0;
			ev->timestamp = b->timestamp;
			b->timestamp = t;
			fault_expect(m, GCSPEC_DIAG_S009, fault_here(m), 0);
			FAULT_TRY(fault_out(m, ev));
			fault_expect(m, GCSPEC_DIAG_S008, fault_here(m), 0);
			FAULT_TRY(fault_out(m, b));
			s->state = 1;
			s->a = 0;
			s->b = b->thread_id;
			return 1;
		}
		/* Not its end right after it: write it, try the next one. */
		FAULT_TRY(fault_release_held(m));
		s->seen--;
	}
	/* A GC's suspension: a non-GC one (Count 0xFFFFFFFF) may back off
	 * with a restart before its GCSuspendEEEnd, which a checker allows. */
	if (fault_target(s, fault_is(ev, "GCSuspendEEBegin") && m->open_susp == 1 &&
			    fault_num(ev, "Count") != 0xFFFFFFFFu)) {
		FAULT_TRY(fault_hold(m, ev));
		return 1;
	}
	if (s->state == 1) {
		if ((fault_is(ev, "GCSuspendEEBegin") || fault_is(ev, "GCSuspendEEEnd")) &&
		    ev->thread_id != s->b)
			s->a = 1;
		if (fault_is(ev, "GCRestartEEBegin") && ev->thread_id == s->b) {
			fault_expect(m, GCSPEC_DIAG_S010, fault_here(m), s->a != 0);
			if (s->a)
				FAULT_MAY(m, GCSPEC_DIAG_S008, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010,
					  GCSPEC_DIAG_S011);
			FAULT_DONE(s);
		}
	}
	return 0;
}

/* One whole suspension first, then the pair swapped. */
static int reorder_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S009, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S008, fault_here(m), 0);
	/* A GC's suspension (Reason 1, the latest GC's index), which never
	 * backs off: its restart before its end is wrong. */
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", m->max_count, "Reason", 1));
	fault_expect(m, GCSPEC_DIAG_S010, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

static const struct gen_fault rows[] = {
	{ "reorder-events", "stream",
	  GEN_CODES(GCSPEC_DIAG_S009, GCSPEC_DIAG_S008, GCSPEC_DIAG_S010), 0,
	  "a GCSuspendEEBegin and its GCSuspendEEEnd swapped (timestamps kept in file order)",
	  reorder, reorder_fallback },
};

const struct gen_fault_family gen_faults_reorder = GEN_FAULT_FAMILY(rows);
