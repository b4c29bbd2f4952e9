/*
 * lifetimes.c - fault classes of things that begin and end: GC joins,
 * segments, handles and finalizer runs, ended without a begin, begun
 * twice, freed or destroyed twice (fault.h: one row and two functions
 * each).
 */
#include "gen/faults/mutator.h"

/* A checker can only call an end unmatched on a heap whose thread it has
 * seen join before (else the trace may have begun inside the join), and
 * only a Join (1) or Restart (2) start has an end. */
static int join_end_no_start(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint64_t h = fault_num(ev, "Heap");
	int known = fault_is(ev, "GCJoin") && h < MAX_JOIN_HEAPS &&
		    m->join_thread[h] == ev->thread_id + 1;

	if (fault_target(s, known && fault_num(ev, "JoinTime") == 0 &&
			    (fault_num(ev, "JoinType") == 1 || fault_num(ev, "JoinType") == 2))) {
		s->state = 1;
		s->a = h;
		s->b = ev->thread_id;
		return 1;
	}
	if (s->state == 1 && fault_is(ev, "GCJoin") && h == s->a) {
		if (ev->thread_id == s->b && fault_num(ev, "JoinTime") == 1) {
			fault_expect(m, GCSPEC_DIAG_S015, fault_here(m), 0);
			FAULT_DONE(s);
		} else {
			s->state = 0; /* not the end we dropped the start of: try again */
		}
	}
	return 0;
}

static int join_end_no_start_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(fault_inject2(m, at, "GCJoin", "JoinTime", 0, "JoinType", 1));
	FAULT_TRY(fault_inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1));
	fault_expect(m, GCSPEC_DIAG_S015, fault_here(m), 0);
	return fault_inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1);
}

/* A start with an end: a Join (1) or a Restart (2); LastJoin and
 * FirstReverseJoin go on without one, so a second is no nesting. */
static int join_nested(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCJoin") && fault_num(ev, "JoinTime") == 0 &&
			    (fault_num(ev, "JoinType") == 1 || fault_num(ev, "JoinType") == 2))) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S016, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S015);
		FAULT_DONE(s);
	}
	return 0;
}

static int join_nested_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(fault_inject2(m, at, "GCJoin", "JoinTime", 0, "JoinType", 1));
	fault_expect(m, GCSPEC_DIAG_S016, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCJoin", "JoinTime", 0, "JoinType", 1));
	return fault_inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1);
}

/* A regions runtime that never frees (.NET 8) creates live segments again
 * legally: a GCFreeSegment first (of a segment made before the trace)
 * shows this runtime frees. */
static int segment_double_create(struct gen_mutator *m, struct gen_fault_slot *s,
				 struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCCreateSegment"))) {
		FAULT_TRY(fault_out(m, ev));
		FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
		gen_values_set_num(m->ivals, "Address", fault_fresh_segment(m));
		FAULT_TRY(fault_inject_send(m, ev, -1, 0));
		FAULT_MAY(m, GCSPEC_DIAG_S017);
		fault_expect(m, GCSPEC_DIAG_S017, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

/* A fresh segment created, then created (double_free 0) or freed twice. */
static int segment_fallback(struct gen_mutator *m, int double_free)
{
	const struct gen_event *at = &m->last;
	uint64_t a = fault_fresh_segment(m);

	/* A free first: this runtime frees (see segment_double_create()). */
	FAULT_TRY(fault_inject2(m, at, "GCFreeSegment", "Address", fault_fresh_segment(m), NULL, 0));
	FAULT_MAY(m, GCSPEC_DIAG_S017);
	FAULT_TRY(fault_inject2(m, at, "GCCreateSegment", "Address", a, "Size", 0x01000000));
	if (!double_free) {
		fault_expect(m, GCSPEC_DIAG_S017, fault_here(m), 0);
		return fault_inject2(m, at, "GCCreateSegment", "Address", a, "Size", 0x01000000);
	}
	FAULT_TRY(fault_inject2(m, at, "GCFreeSegment", "Address", a, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S018, fault_here(m), 0);
	return fault_inject2(m, at, "GCFreeSegment", "Address", a, NULL, 0);
}

static int segment_double_create_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return segment_fallback(m, 0);
}

static int segment_double_free(struct gen_mutator *m, struct gen_fault_slot *s,
			       struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCCreateSegment"))) {
		uint64_t addr = fault_num(ev, "Address");

		if (fault_out(m, ev) < 0)
			return -1;
		FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
		gen_values_set_num(m->ivals, "Address", addr);
		FAULT_TRY(fault_inject_send(m, ev, -1, 0));
		FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
		gen_values_set_num(m->ivals, "Address", addr);
		fault_expect(m, GCSPEC_DIAG_S018, fault_here(m), 0);
		/* The first free of a regions runtime that never frees (.NET
		 * 8) makes its earlier re-creations of live segments wrong. */
		FAULT_MAY(m, GCSPEC_DIAG_S017);
		FAULT_TRY(fault_inject_send(m, ev, -1, 0));
		if (m->nfreed_segments < sizeof m->freed_segment / sizeof m->freed_segment[0])
			m->freed_segment[m->nfreed_segments++] = addr;
		FAULT_DONE(s);
		return 1;
	}
	return 0;
}

static int segment_double_free_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return segment_fallback(m, 1);
}

/* A second set of a live handle is a store (legal); only its kind cannot
 * change while it lives. */
static int handle_kind(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "SetGCHandle"))) {
		uint64_t h = fault_num(ev, "HandleID"), k = fault_num(ev, "Kind");

		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S019, fault_here(m), 0);
		FAULT_TRY(fault_inject2(m, ev, "SetGCHandle", "HandleID", h, "Kind", k == 2 ? 1 : 2));
		FAULT_DONE(s);
		return 1;
	}
	return 0;
}

static int handle_kind_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint64_t a = fault_fresh_handle(m);

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "SetGCHandle", "HandleID", a, "Kind", 2));
	fault_expect(m, GCSPEC_DIAG_S019, fault_here(m), 0);
	return fault_inject2(m, &m->last, "SetGCHandle", "HandleID", a, "Kind", 1);
}

/* The event name written twice, raising code at the copy. */
static int twice(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev,
		 const char *name, int code)
{
	if (fault_target(s, fault_is(ev, name))) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, code, fault_here(m), 0);
		if (code == GCSPEC_DIAG_S022)
			FAULT_MAY(m, GCSPEC_DIAG_S021);
		FAULT_DONE(s);
	}
	return 0;
}

static int handle_double_destroy(struct gen_mutator *m, struct gen_fault_slot *s,
				 struct gen_event *ev)
{
	return twice(m, s, ev, "DestroyGCHandle", GCSPEC_DIAG_S020);
}

static int handle_double_destroy_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	/* The first destroy may free a handle set before the trace. */
	uint64_t a = fault_fresh_handle(m);

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "DestroyGCHandle", "HandleID", a, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S020, fault_here(m), 0);
	return fault_inject2(m, &m->last, "DestroyGCHandle", "HandleID", a, NULL, 0);
}

static int fin_end_no_begin(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCFinalizersBegin"))) {
		s->state = 1;
		return 1;
	}
	if (s->state == 1 && fault_is(ev, "GCFinalizersEnd")) {
		fault_expect(m, GCSPEC_DIAG_S021, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int fin_end_no_begin_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	/* A complete run first: an end before any begin is a trace edge. */
	FAULT_TRY(fault_inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
	FAULT_TRY(fault_inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S021, fault_here(m), 0);
	return fault_inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0);
}

static int fin_nested(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return twice(m, s, ev, "GCFinalizersBegin", GCSPEC_DIAG_S022);
}

static int fin_nested_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	const struct gen_event *at = &m->last;

	(void)s;
	FAULT_TRY(fault_inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
	fault_expect(m, GCSPEC_DIAG_S022, fault_here(m), 0);
	FAULT_TRY(fault_inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
	return fault_inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0);
}

static const struct gen_fault rows[] = {
	{ "join-end-without-start", "stream", GEN_CODES(GCSPEC_DIAG_S015), GEN_FAULT_NEEDS_SERVER,
	  "drop a GCJoin start of a heap whose thread has joined before", join_end_no_start,
	  join_end_no_start_fallback },
	{ "join-start-nested", "stream", GEN_CODES(GCSPEC_DIAG_S016), GEN_FAULT_NEEDS_SERVER,
	  "write a GCJoin start twice", join_nested, join_nested_fallback },
	{ "segment-double-create", "stream", GEN_CODES(GCSPEC_DIAG_S017), 0,
	  "write a GCCreateSegment twice", segment_double_create, segment_double_create_fallback },
	{ "segment-double-free", "stream", GEN_CODES(GCSPEC_DIAG_S018), GEN_FAULT_FIRST_EVENT,
	  "free a segment twice", segment_double_free, segment_double_free_fallback },
	{ "handle-kind-changed", "stream", GEN_CODES(GCSPEC_DIAG_S019), 0,
	  "set a live handle again as another kind", handle_kind, handle_kind_fallback },
	{ "handle-double-destroy", "stream", GEN_CODES(GCSPEC_DIAG_S020), 0,
	  "write a DestroyGCHandle twice", handle_double_destroy, handle_double_destroy_fallback },
	{ "finalizers-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S021), 0,
	  "drop a GCFinalizersBegin", fin_end_no_begin, fin_end_no_begin_fallback },
	{ "finalizers-nested", "stream", GEN_CODES(GCSPEC_DIAG_S022), 0,
	  "write a GCFinalizersBegin twice", fin_nested, fin_nested_fallback },
};

const struct gen_fault_family gen_faults_lifetimes = GEN_FAULT_FAMILY(rows);
