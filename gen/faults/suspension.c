/*
 * suspension.c - fault classes of execution-engine suspensions: a
 * GCSuspendEEBegin written twice or dropped, a restart without a
 * suspension or written twice, a suspension Count that is not its GC's,
 * and a GC's heap statistics or history between its GCSuspendEEBegin and
 * its GCStart (fault.h: one row and two functions each).
 *
 * The nested and dropped begins take a GCSuspendEEBegin on a runtime no
 * other thread is suspending (open_susp counts this one): another
 * thread's begin waits for the suspension lock, and a checker that keeps
 * waiters would keep a waiter's copy, or miss its lost begin, long after.
 */
#include "gen/faults/mutator.h"

/* One whole non-GC suspension at the end of the stream, its begin twice
 * when nested: a checker has then seen one. */
static int whole_suspension(struct gen_mutator *m, int nested)
{
	const struct gen_event *at = &m->last;

	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
	if (nested) {
		fault_expect(m, GCSPEC_DIAG_S008, fault_here(m), 0);
		FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
	}
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

static int nested(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCSuspendEEBegin") && m->open_susp == 1)) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S008, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S012,
			  GCSPEC_DIAG_S025);
		FAULT_DONE(s);
	}
	return 0;
}

static int nested_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return whole_suspension(m, 1);
}

static int end_no_begin(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	/* A GC's: a non-GC suspension may back off, and its restarts would
	 * then follow a begin that was never seen. */
	if (fault_target(s, fault_is(ev, "GCSuspendEEBegin") && m->open_susp == 1 &&
			    fault_num(ev, "Count") != 0xFFFFFFFFu)) {
		s->state = 1;
		s->b = ev->thread_id;
		/* A checker that never saw the suspension begin may still
		 * think the previous owner holds the runtime. */
		FAULT_MAY(m, GCSPEC_DIAG_S008, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S012);
		return 1;
	}
	if (s->state == 1 && fault_is(ev, "GCSuspendEEEnd") && ev->thread_id == s->b) {
		fault_expect(m, GCSPEC_DIAG_S009, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int end_no_begin_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(whole_suspension(m, 0));
	fault_expect(m, GCSPEC_DIAG_S009, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

static int restart_no_suspend(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	/* Not while another thread's suspension is open: that thread may
	 * hold the runtime, and a restart would then be legal. */
	if (fault_target(s, fault_is(ev, "GCRestartEEEnd") && m->open_susp == 0)) {
		if (fault_out(m, ev) < 0)
			return -1;
		FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCRestartEEBegin")));
		fault_expect(m, GCSPEC_DIAG_S010, fault_here(m), 0);
		FAULT_TRY(fault_inject_send(m, ev, -1, 0));
		FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCRestartEEEnd")));
		fault_expect(m, GCSPEC_DIAG_S011, fault_here(m), 1);
		FAULT_TRY(fault_inject_send(m, ev, -1, 0));
		FAULT_DONE(s);
		return 1;
	}
	return 0;
}

static int restart_no_suspend_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(whole_suspension(m, 0));
	fault_expect(m, GCSPEC_DIAG_S010, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S011, fault_here(m), 1);
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

static int restart_end_no_begin(struct gen_mutator *m, struct gen_fault_slot *s,
				struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCRestartEEEnd"))) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S011, fault_here(m), 0);
		/* When another thread holds the runtime by then, a checker
		 * that takes the copy for its restart finds the real one
		 * unmatched. */
		if (m->open_susp > 0)
			FAULT_MAY(m, GCSPEC_DIAG_S010);
		FAULT_DONE(s);
	}
	return 0;
}

static int restart_end_no_begin_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	FAULT_TRY(whole_suspension(m, 0));
	fault_expect(m, GCSPEC_DIAG_S011, fault_here(m), 0);
	return fault_inject2(m, &m->last, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

/* A GC suspension's Count is the GC index before the GC it serves; 7
 * more is at or above that GC's Count, which the oracle reports at the
 * suspension. */
static int suspend_count(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCSuspendEEBegin") && fault_num(ev, "Reason") == 1 &&
			    fault_num(ev, "Count") != 0xFFFFFFFFu)) {
		FAULT_TRY(fault_set(m, ev, "Count", fault_num(ev, "Count") + 7));
		fault_expect(m, GCSPEC_DIAG_S012, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int suspend_count_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	/* Above the latest GC's Count: no GC suspension writes that. */
	fault_expect(m, GCSPEC_DIAG_S012, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", m->max_count + 7, "Reason", 1));
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

/* A GCHeapStats (history 0) or GCGlobalHeapHistory (1) injected after a
 * GC's GCSuspendEEBegin, before its GCStart: between them no GC is in
 * flight and none has just ended (a GCHeapStats before the first GC could
 * belong to a GC the trace began inside). */
static int outside(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev,
		   int history)
{
	if (fault_target(s, fault_is(ev, "GCSuspendEEBegin") && fault_num(ev, "Reason") == 1 &&
			    fault_num(ev, "Count") != 0xFFFFFFFFu && !m->bgc_open)) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, history ? GCSPEC_DIAG_S014 : GCSPEC_DIAG_S013, fault_here(m), 0);
		if (!history)
			FAULT_TRY(fault_inject2(m, ev, "GCHeapStats", NULL, 0, NULL, 0));
		else
			FAULT_TRY(fault_inject2(m, ev, "GCGlobalHeapHistory", "NumHeaps", m->nheaps, NULL, 0));
		FAULT_DONE(s);
		return 1;
	}
	return 0;
}

static int outside_fallback(struct gen_mutator *m, int history)
{
	const struct gen_event *at = &m->last;

	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", m->max_count, "Reason", 1));
	fault_expect(m, history ? GCSPEC_DIAG_S014 : GCSPEC_DIAG_S013, fault_here(m), 0);
	if (!history)
		FAULT_TRY(fault_inject2(m, at, "GCHeapStats", NULL, 0, NULL, 0));
	else
		FAULT_TRY(fault_inject2(m, at, "GCGlobalHeapHistory", "NumHeaps", m->nheaps, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
}

static int heapstats(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return outside(m, s, ev, 0);
}

static int heapstats_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return outside_fallback(m, 0);
}

static int history(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return outside(m, s, ev, 1);
}

static int history_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return outside_fallback(m, 1);
}

static const struct gen_fault rows[] = {
	{ "suspend-nested", "stream", GEN_CODES(GCSPEC_DIAG_S008), 0,
	  "write a GCSuspendEEBegin twice", nested, nested_fallback },
	{ "suspend-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S009), 0,
	  "drop a GCSuspendEEBegin", end_no_begin, end_no_begin_fallback },
	{ "restart-without-suspend", "stream", GEN_CODES(GCSPEC_DIAG_S010), 0,
	  "an extra GCRestartEEBegin/End pair after a restart", restart_no_suspend,
	  restart_no_suspend_fallback },
	{ "restart-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S011), 0,
	  "write a GCRestartEEEnd twice", restart_end_no_begin, restart_end_no_begin_fallback },
	{ "suspend-count-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S012), 0,
	  "a GC suspension's Count differs from the GC's (reported at GCStart)", suspend_count,
	  suspend_count_fallback },
	{ "heapstats-outside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S013), 0,
	  "a GCHeapStats between a GC's GCSuspendEEBegin and its GCStart", heapstats,
	  heapstats_fallback },
	{ "heap-history-outside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S014), 0,
	  "a GCGlobalHeapHistory between a GC's GCSuspendEEBegin and its GCStart", history,
	  history_fallback },
};

const struct gen_fault_family gen_faults_suspension = GEN_FAULT_FAMILY(rows);
