/*
 * pairing.c - fault classes of GC pairing: a GCStart or GCEnd dropped or
 * written twice, a GCEnd whose Count or Depth is not its GC's, a GC that
 * reuses the Count before it (fault.h: one row and two functions each).
 */
#include "gen/faults/mutator.h"

static int drop_gcstart(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 0 && !m->bgc_open &&
			    !m->twin)) {
		s->a = fault_num(ev, "Count");
		s->state = 1;
		FAULT_MAY(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013,
			  GCSPEC_DIAG_S014, GCSPEC_DIAG_S003, GCSPEC_DIAG_S004);
		return 1;
	}
	/* Framework 4.5.2 writes each GCStart twice (V1, V2): both go. */
	if (s->state == 1 && fault_is(ev, "GCStart") && fault_num(ev, "Count") == s->a)
		return 1;
	if (s->state == 1 && fault_is(ev, "GCEnd") && fault_num(ev, "Count") == s->a) {
		fault_expect(m, GCSPEC_DIAG_S001, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int drop_gcstart_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	fault_expect(m, GCSPEC_DIAG_S001, fault_here(m), 0);
	return fault_inject2(m, &m->last, "GCEnd", "Count", m->max_count + 1, "Depth", 0);
}

static int drop_gcend(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCEnd") && !m->bgc_open)) {
		s->state = 1;
		FAULT_MAY(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013,
			  GCSPEC_DIAG_S014, GCSPEC_DIAG_S003, GCSPEC_DIAG_S024, GCSPEC_DIAG_S001);
		return 1;
	}
	if (s->state == 1 && fault_is(ev, "GCStart")) {
		/* A background GC cannot nest at all: GC-S024. */
		fault_expect(m, fault_num(ev, "Type") == 1 ? GCSPEC_DIAG_S024 : GCSPEC_DIAG_S004,
			     fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int drop_gcend_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	/* A GCEnd was dropped, or GC n+1 never ends: n+2 starts inside it. */
	if (s->state == 1)
		return fault_inject_gc(m, n + 1, 0, 0, GCSPEC_DIAG_S004);
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	fault_expect(m, GCSPEC_DIAG_S003, -1, 1);
	return fault_inject_gc(m, n + 2, 0, 0, GCSPEC_DIAG_S004);
}

static int duplicate_gcstart(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 0 && !m->bgc_open)) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S004, fault_here(m), 0);
		fault_expect(m, GCSPEC_DIAG_S007, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S003, GCSPEC_DIAG_S004,
			  GCSPEC_DIAG_S001, GCSPEC_DIAG_S012);
		FAULT_DONE(s);
	}
	return 0;
}

static int duplicate_gcstart_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	fault_expect(m, GCSPEC_DIAG_S007, fault_here(m), 0);
	return fault_inject_gc(m, n + 1, 0, 0, GCSPEC_DIAG_S004);
}

static int duplicate_gcend(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCEnd") && !m->bgc_open)) {
		if (fault_out(m, ev) < 0)
			return -1;
		fault_expect(m, GCSPEC_DIAG_S001, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S013, GCSPEC_DIAG_S005);
		FAULT_DONE(s);
	}
	return 0;
}

static int duplicate_gcend_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject_gc(m, n + 1, 0, 0, GEN_DIAG_END));
	fault_expect(m, GCSPEC_DIAG_S001, fault_here(m), 0);
	return fault_inject2(m, &m->last, "GCEnd", "Count", n + 1, "Depth", 0);
}

static int gcend_count(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCEnd") && !m->bgc_open)) {
		FAULT_TRY(fault_set(m, ev, "Count", fault_num(ev, "Count") + 1));
		fault_expect(m, GCSPEC_DIAG_S005, fault_here(m), 0);
		FAULT_MAY(m, GCSPEC_DIAG_S001, GCSPEC_DIAG_S004, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014,
			  GCSPEC_DIAG_S003);
		FAULT_DONE(s);
	}
	return 0;
}

static int gcend_count_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	fault_expect(m, GCSPEC_DIAG_S005, fault_here(m), 0);
	return fault_inject2(m, &m->last, "GCEnd", "Count", n + 2, "Depth", 0);
}

static int gcend_depth(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCEnd") && !m->bgc_open)) {
		uint64_t d = fault_num(ev, "Depth");

		FAULT_TRY(fault_set(m, ev, "Depth", d == 0 ? 1 : d - 1));
		fault_expect(m, GCSPEC_DIAG_S006, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

static int gcend_depth_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	(void)s;
	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 1));
	fault_expect(m, GCSPEC_DIAG_S006, fault_here(m), 0);
	return fault_inject2(m, &m->last, "GCEnd", "Count", n + 1, "Depth", 0);
}

/* Give one non-concurrent GC the Count of the GC before it: its GCStart
 * goes backwards (S007); its suspension's Count is then no longer below
 * the GC's (S012 may follow). */
static int count_backwards(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == 0 && !m->bgc_open &&
			    !m->twin && m->prev_count < fault_num(ev, "Count"))) {
		s->a = fault_num(ev, "Count");
		s->b = m->prev_count;
		s->state = 1;
		FAULT_MAY(m, GCSPEC_DIAG_S012, GCSPEC_DIAG_S005);
	}
	if (s->state == 1 && fault_num(ev, "Count") == s->a &&
	    (fault_is(ev, "GCStart") || fault_is(ev, "GCEnd"))) {
		FAULT_TRY(fault_set(m, ev, "Count", s->b));
		if (fault_is(ev, "GCStart") && !m->twin)
			fault_expect(m, GCSPEC_DIAG_S007, fault_here(m), 0);
		if (fault_is(ev, "GCEnd"))
			FAULT_DONE(s);
	}
	return 0;
}

static int count_backwards_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return fault_inject_gc(m, m->max_count, 0, 0, GCSPEC_DIAG_S007);
}

static const struct gen_fault rows[] = {
	{ "drop-gcstart", "stream", GEN_CODES(GCSPEC_DIAG_S001), 0,
	  "drop a GCStart: its GCEnd has no GC", drop_gcstart, drop_gcstart_fallback },
	{ "drop-gcend", "stream", GEN_CODES(GCSPEC_DIAG_S004), 0,
	  "drop a GCEnd: the next GCStart nests", drop_gcend, drop_gcend_fallback },
	{ "duplicate-gcstart", "stream", GEN_CODES(GCSPEC_DIAG_S004, GCSPEC_DIAG_S007), 0,
	  "write a GCStart twice", duplicate_gcstart, duplicate_gcstart_fallback },
	{ "duplicate-gcend", "stream", GEN_CODES(GCSPEC_DIAG_S001), 0,
	  "write a GCEnd twice", duplicate_gcend, duplicate_gcend_fallback },
	{ "gcend-count-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S005), 0,
	  "GCEnd Count one more than its GC's", gcend_count, gcend_count_fallback },
	{ "gcend-depth-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S006), 0,
	  "GCEnd Depth differs from GCStart's", gcend_depth, gcend_depth_fallback },
	{ "gc-count-backwards", "stream", GEN_CODES(GCSPEC_DIAG_S007), 0,
	  "a GC reuses the previous GC's Count", count_backwards, count_backwards_fallback },
};

const struct gen_fault_family gen_faults_pairing = GEN_FAULT_FAMILY(rows);
