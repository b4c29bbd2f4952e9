/*
 * mutate.c - the machinery of the stream and payload fault classes (each
 * class is a row in its family's file, fault.h). Each class waits for its target (the k-th
 * event matching a predicate, k chosen so the trace has shown complete GCs
 * before), changes the stream there, and records the diagnostics this must
 * cause. Consequences that depend on how lenient a reader is are recorded
 * as "may"; a "may" entry without "event" may occur at any event.
 *
 * A class whose target never came (a short stream, a seed without
 * background GCs or finalizer runs) injects its fault at the end of the
 * stream instead (its fallback): every run records the fault it was asked
 * for, or fails saying why.
 *
 * Several classes act one after another, never at once: a fault changes
 * what a checker knows (a GC it thinks in flight, a suspension, a freed
 * segment), so a second fault inside the first one's aftermath would not
 * have the diagnostics recorded for it alone. Each class starts looking
 * for its target once the class before it has recorded its fault and the
 * input is quiet again (no GC, suspension or finalizer run open). The trace
 * edges go where they can only be: trace-starts-inside-gc first (it drops
 * the stream's beginning), trace-ends-inside-gc last (it drops its end).
 */
#include <stdlib.h>
#include <string.h>

#include "gen/model/encode.h"
#include "gen/faults/mutator.h"

/* A seed's bits spread over 64 (splitmix64's finaliser). */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* -1, saying which class failed unless the failure said why itself. */
static int slot_failed(struct gen_mutator *m, const struct gen_fault_slot *s)
{
	if (!m->sink.error[0])
		snprintf(m->sink.error, sizeof m->sink.error, "mutation %s failed",
			 s->fault->name);
	return -1;
}

static int attempting(const struct gen_mutator *m, uint64_t thread)
{
	for (unsigned i = 0; i < m->nattempting; i++)
		if (m->attempting[i] == thread)
			return 1;
	return 0;
}

/* Keep count of what is open in the input (a realistic stream: every
 * begin has its end), so that the next class starts where none is. */
static void track_open(struct gen_mutator *m, const struct gen_event *ev)
{
	const char *n = fault_name_of(ev);

	if (strncmp(n, "GC", 2) != 0)
		return;
	if (strcmp(n, "GCStart") == 0)
		m->open_gcs++;
	else if (strcmp(n, "GCEnd") == 0)
		m->open_gcs--;
	else if (strcmp(n, "GCSuspendEEBegin") == 0) {
		m->open_susp++;
		if (m->nattempting < sizeof m->attempting / sizeof m->attempting[0])
			m->attempting[m->nattempting++] = ev->thread_id;
	} else if (strcmp(n, "GCSuspendEEEnd") == 0) {
		for (unsigned i = 0; i < m->nattempting; i++)
			if (m->attempting[i] == ev->thread_id) {
				m->attempting[i] = m->attempting[--m->nattempting];
				break;
			}
	} else if (strcmp(n, "GCRestartEEEnd") == 0 && !attempting(m, ev->thread_id)) {
		m->open_susp--;
	}
	else if (strcmp(n, "GCFinalizersBegin") == 0)
		m->open_fin++;
	else if (strcmp(n, "GCFinalizersEnd") == 0)
		m->open_fin--;
}

static int quiet(const struct gen_mutator *m)
{
	return m->open_gcs <= 0 && m->open_susp <= 0 && m->open_fin <= 0;
}

/* A segment a fault freed, freed again by the runtime: a second free as
 * well, which a checker that still remembers the first one reports. */
static void refreed_segment(struct gen_mutator *m, const struct gen_event *ev)
{
	uint64_t a;

	if (!m->nfreed_segments || !fault_is(ev, "GCFreeSegment"))
		return;
	a = fault_num(ev, "Address");
	for (unsigned k = 0; k < m->nfreed_segments; k++)
		if (m->freed_segment[k] == a)
			fault_expect(m, GCSPEC_DIAG_S018, fault_here(m), 1);
}

static int mutator_event(struct gen_sink *sink, struct gen_event *ev)
{
	struct gen_mutator *m = (struct gen_mutator *)sink;
	struct gen_fault_slot *s;
	int type = -1, r = 0;

	/* Track background GCs on the input: classes target events relative to them. */
	if (fault_is(ev, "GCStart"))
		type = (int)fault_num(ev, "Type");
	if (type == 1)
		m->bgc_open = 1;
	if (fault_is(ev, "GCEnd") && m->bgc_open && ev->thread_id == 0x3000)
		m->bgc_open = -1; /* cleared after this event */
	if (fault_is(ev, "GCStart") && fault_num(ev, "Count") > m->max_count)
		m->max_count = (uint32_t)fault_num(ev, "Count");
	m->twin = fault_is(ev, "GCStart") && fault_num(ev, "Count") == m->last_count && m->last_count;
	if (fault_is(ev, "GCStart") && fault_num(ev, "Count") != m->last_count) {
		m->prev_count = m->last_count;
		m->last_count = (uint32_t)fault_num(ev, "Count");
	}
	if (m->waiting && quiet(m))
		m->waiting = 0;
	track_open(m, ev);
	if (m->active < m->nslots && !m->waiting) {
		s = &m->slots[m->active];
		m->cur = s;
		r = s->fault->apply(m, s, ev);
		m->cur = NULL;
		if (r < 0)
			return slot_failed(m, s);
		if (s->state == 2) {
			m->active++;
			m->waiting = 1;
		}
	}
	if (r == 0) {
		refreed_segment(m, ev);
		if (fault_out(m, ev) < 0)
			return -1;
	}
	if (m->bgc_open < 0)
		m->bgc_open = 0;
	return 0;
}

/* The order classes act in: as listed, but a trace can only begin inside
 * a GC at its start and end inside one at its end. */
static unsigned edge_rank(const struct gen_fault *f)
{
	return f->flags & GEN_FAULT_TRACE_START ? 0 : f->flags & GEN_FAULT_TRACE_END ? 2 : 1;
}

struct gen_mutator *gen_mutator_new(const int *classes, unsigned n, struct gen_writer *w,
				    const struct gen_profile *profile, unsigned pointer_size,
				    unsigned nheaps, uint64_t seed, FILE *expectf)
{
	struct gen_mutator *m = calloc(1, sizeof *m);
	unsigned k = 0;

	if (!m)
		return NULL;
	m->slots = calloc(n ? n : 1, sizeof *m->slots);
	m->ivals = malloc(sizeof *m->ivals);
	m->buf = malloc(GEN_PAYLOAD_MAX + 16);
	if (!m->slots || !m->ivals || !m->buf) {
		gen_mutator_free(m);
		return NULL;
	}
	m->sink.event = mutator_event;
	m->w = w;
	m->profile = profile;
	m->psize = pointer_size;
	m->nheaps = nheaps ? nheaps : 1;
	m->expect = expectf;
	m->nslots = n;
	for (unsigned rank = 0; rank < 3; rank++)
		for (unsigned i = 0; i < n; i++) {
			const struct gen_fault *f = gen_fault_at((unsigned)classes[i]);

			if (edge_rank(f) != rank)
				continue;
			m->slots[k].fault = f;
			m->slots[k].cls = classes[i];
			/* Past the first GCs, counted from where the class starts. */
			m->slots[k].occ = 3 + (unsigned)(seed % 2);
			m->slots[k].rank = (unsigned)(mix(seed * 64 + (unsigned)classes[i]) % 24);
			m->slots[k].pick = mix(mix(seed) + (unsigned)classes[i]);
			if (f->flags & GEN_FAULT_FIRST_EVENT)
				m->slots[k].occ = 1;
			k++;
		}
	return m;
}

struct gen_sink *gen_mutator_sink(struct gen_mutator *m)
{
	return &m->sink;
}

unsigned gen_mutator_nexpected(const struct gen_mutator *m)
{
	return m->nexpected;
}

static unsigned fallback_pass(const struct gen_fault *f)
{
	return f->flags & GEN_FAULT_FALLBACK_LATE ? 1 : f->flags & GEN_FAULT_TRACE_END ? 2 : 0;
}

static int run_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	int r;

	if (!m->index) {
		snprintf(m->sink.error, sizeof m->sink.error,
			 "fault class %s: the stream is empty", s->fault->name);
		return -1;
	}
	m->cur = s;
	r = s->fault->fallback(m, s);
	m->cur = NULL;
	if (r < 0)
		return slot_failed(m, s);
	FAULT_DONE(s);
	return 0;
}

int gen_mutator_finish(struct gen_mutator *m)
{
	if (fault_release_held(m) < 0)
		return -1;
	for (unsigned k = 0; k < m->nslots; k++)
		if (m->slots[k].state == 1 && (m->slots[k].fault->flags & GEN_FAULT_TRACE_END))
			m->slots[k].state = 2;
	/* Classes whose target never came (or whose fault had no
	 * consequence yet): their fault goes at the end. The event put back
	 * in time goes after the others and before the trace's end, so that
	 * a reader ordering by time moves it past no other fault. */
	for (unsigned pass = 0; pass < 3; pass++)
		for (unsigned k = 0; k < m->nslots; k++)
			if (!m->slots[k].must && fallback_pass(m->slots[k].fault) == pass &&
			    run_fallback(m, &m->slots[k]) < 0)
				return -1;
	if (m->expect && fflush(m->expect) != 0) {
		snprintf(m->sink.error, sizeof m->sink.error, "cannot write the expect file");
		return -1;
	}
	return 0;
}

void gen_mutator_free(struct gen_mutator *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->ivals);
	free(m->buf);
	free(m->held_vals);
	free(m->held_buf);
	free(m);
}
