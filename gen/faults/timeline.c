/*
 * timeline.c - fault classes of where events sit in time: an event
 * earlier than its thread's previous one, a GC relabelled foreground or
 * background where it cannot be one, and a trace that begins or ends
 * inside a GC (fault.h: one row and two functions each).
 */
#include "gen/faults/mutator.h"

static int ts_backwards(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCHeapStats"))) {
		for (unsigned t = 0; t < m->nthreads; t++)
			if (m->thread[t] == ev->thread_id && m->last_ts[t] > 0) {
				ev->timestamp = m->last_ts[t] - 1;
				fault_expect(m, GCSPEC_DIAG_S023, fault_here(m), 0);
				FAULT_DONE(s);
				return 0;
			}
		s->seen--; /* no earlier event on this thread: try the next one */
	}
	return 0;
}

static int ts_backwards_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;
	struct gen_event early;

	if (!at->timestamp)
		return fault_no_place(m, s);
	FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCTriggered")));
	early = *at;
	early.timestamp = at->timestamp - 1;
	fault_expect(m, GCSPEC_DIAG_S023, fault_here(m), 0);
	FAULT_TRY(fault_inject_send(m, &early, -1, 0));
	/* Later injections keep the stream's time: a reader that orders by
	 * time (nettrace) would otherwise move them before the faults
	 * injected earlier. */
	m->last.timestamp = early.timestamp + 1;
	return 0;
}

/* The GCStart_V2 twin of a GCStart_V1 (Framework 4.5.2) is changed alike:
 * it is the same GC. */
static int fg_outside_bgc(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (s->state == 1 && m->twin && fault_num(ev, "Count") == s->a) {
		FAULT_TRY(fault_set(m, ev, "Type", 2));
		FAULT_DONE(s);
	}
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 0 && !m->bgc_open &&
			    !m->twin)) {
		FAULT_TRY(fault_set(m, ev, "Type", 2));
		fault_expect(m, GCSPEC_DIAG_S024, fault_here(m), 0);
		s->a = fault_num(ev, "Count");
		if (m->profile->double_gcstart)
			s->state = 1;
		else
			FAULT_DONE(s);
	}
	return 0;
}

static int fg_outside_bgc_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return fault_inject_gc(m, m->max_count + 1, 1, 2, GCSPEC_DIAG_S024);
}

static int bgc_in_gc(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (s->state == 1 && m->twin && fault_num(ev, "Count") == s->a) {
		gen_values_set_num((struct gen_values *)ev->values, "Type", 1);
		FAULT_TRY(fault_set(m, ev, "Depth", 2));
		return 0;
	}
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 2 && !m->twin)) {
		s->a = fault_num(ev, "Count");
		gen_values_set_num((struct gen_values *)ev->values, "Type", 1);
		FAULT_TRY(fault_set(m, ev, "Depth", 2));
		fault_expect(m, GCSPEC_DIAG_S024, fault_here(m), 0);
		fault_expect(m, GCSPEC_DIAG_S004, fault_here(m), 1);
		FAULT_MAY(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S003, GCSPEC_DIAG_S001);
		s->state = 1;
		return 0;
	}
	if (s->state == 1 && fault_is(ev, "GCEnd") && fault_num(ev, "Count") == s->a) {
		FAULT_TRY(fault_set(m, ev, "Depth", 2));
		FAULT_DONE(s);
	}
	return 0;
}

/* A background GC inside a blocking GC; the blocking GC's end then finds
 * no GC in flight for a checker that resynchronises. */
static int bgc_in_gc_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	FAULT_TRY(fault_inject_gc(m, n + 2, 2, 1, GCSPEC_DIAG_S024));
	fault_expect(m, GCSPEC_DIAG_S004, fault_here(m) - 2, 1);
	fault_expect(m, GCSPEC_DIAG_S001, fault_here(m), 1);
	fault_expect(m, GCSPEC_DIAG_S005, fault_here(m), 1);
	return fault_inject2(m, &m->last, "GCEnd", "Count", n + 1, "Depth", 0);
}

static int starts_in_gc(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (s->state == 0) {
		if (!fault_is(ev, "GCEnd"))
			return 1;
		fault_expect(m, GCSPEC_DIAG_S002, fault_here(m), 0);
		/* A sampler's suspension that backs off for the GC may have
		 * begun before the cut: its later restarts and its end then
		 * follow a begin the trace does not hold. */
		FAULT_MAY(m, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S013,
			  GCSPEC_DIAG_S014);
		m->edge = s;
		FAULT_DONE(s);
	}
	return 0;
}

static int ends_in_gc(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (s->state == 1)
		return 1;
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 0 && !m->bgc_open &&
			    !m->twin)) {
		fault_expect(m, GCSPEC_DIAG_S003, fault_here(m), 0);
		/* Cut inside a suspension (a blocking GC's GCStart is always
		 * in one in a realistic stream): it is still open where the
		 * trace ends, after this event. */
		if (m->open_susp > 0)
			fault_expect(m, GCSPEC_DIAG_S025, fault_here(m) + 1, 0);
		else
			FAULT_MAY(m, GCSPEC_DIAG_S025);
		if (fault_out(m, ev) < 0)
			return -1;
		s->state = 1;
		return 1;
	}
	return 0;
}

/* A blocking GC as the runtime writes one, inside its suspension (Count:
 * the GC index before it): the cut leaves both open. */
static int ends_in_gc_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEBegin", "Count", n, "Reason", 1));
	FAULT_TRY(fault_inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S003, fault_here(m), 0);
	fault_expect(m, GCSPEC_DIAG_S025, fault_here(m) + 1, 0);
	return fault_inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0);
}

static const struct gen_fault rows[] = {
	{ "timestamp-backwards", "stream", GEN_CODES(GCSPEC_DIAG_S023), GEN_FAULT_FALLBACK_LATE,
	  "an event earlier than its thread's previous one", ts_backwards, ts_backwards_fallback },
	{ "foreground-outside-bgc", "stream", GEN_CODES(GCSPEC_DIAG_S024), 0,
	  "a blocking GC relabelled foreground (Type 2)", fg_outside_bgc, fg_outside_bgc_fallback },
	{ "bgc-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S024), 0,
	  "a foreground GC relabelled background (Type 1, depth 2)", bgc_in_gc, bgc_in_gc_fallback },
	{ "trace-starts-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S002), GEN_FAULT_TRACE_START,
	  "drop everything before the first GCEnd", starts_in_gc, fault_no_place },
	{ "trace-ends-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S003), GEN_FAULT_TRACE_END,
	  "drop everything after a GCStart", ends_in_gc, ends_in_gc_fallback },
};

const struct gen_fault_family gen_faults_timeline = GEN_FAULT_FAMILY(rows);
