/*
 * mutator.c - the helpers fault classes use to change a stream (mutator.h):
 * reading and setting field values, re-encoding a payload, injecting
 * events, holding one back, recording the diagnostics a fault causes. Apart
 * from mutate.c's machinery, so the family files that call these helpers and
 * the machinery that calls the families (through registry.c) are no loop.
 */
#include <stdlib.h>
#include <string.h>
#include "gen/model/encode.h"
#include "gen/faults/mutator.h"

void fault_expect(struct gen_mutator *m, int code, int64_t index, int may)
{
	if (!may) {
		m->nexpected++;
		if (m->cur)
			m->cur->must++;
	}
	if (!m->expect)
		return;
	if (index < 0)
		fprintf(m->expect, "{\"code\":\"%s\",\"may\":true}\n", gen_diag_code(code));
	else
		fprintf(m->expect, "{\"code\":\"%s\",\"event\":%lld%s}\n", gen_diag_code(code), (long long)index,
			may ? ",\"may\":true" : "");
}

/* Each of codes may occur, at any event. */
void fault_may_list(struct gen_mutator *m, const int *codes)
{
	for (; *codes != GEN_DIAG_END; codes++)
		fault_expect(m, *codes, -1, 1);
}

const char *fault_name_of(const struct gen_event *ev)
{
	return ev->spec_event != GEN_NO_SPEC ? gcspec_events[ev->spec_event].name : "";
}

uint64_t fault_num(const struct gen_event *ev, const char *field)
{
	int i;

	if (!ev->values || (i = gen_values_index(ev->values, field, 0)) < 0)
		return 0;
	return ev->values->field[i].u;
}

int fault_is(const struct gen_event *ev, const char *name)
{
	return strcmp(fault_name_of(ev), name) == 0;
}

int64_t fault_here(const struct gen_mutator *m)
{
	return (int64_t)m->index;
}

int fault_out(struct gen_mutator *m, const struct gen_event *ev)
{
	unsigned i;

	if (m->edge &&
	    (fault_is(ev, "GCSuspendEEBegin") || fault_is(ev, "GCSuspendEEEnd") ||
	     fault_is(ev, "GCRestartEEBegin") || fault_is(ev, "GCRestartEEEnd"))) {
		struct gen_fault_slot *cur = m->cur;

		m->cur = m->edge;
		if (!fault_is(ev, "GCSuspendEEBegin"))
			fault_expect(m, GCSPEC_DIAG_S026, fault_here(m), 0);
		m->cur = cur;
		m->edge = NULL;
	}
	if (m->w->ops->event(m->w, ev) < 0) {
		snprintf(m->sink.error, sizeof m->sink.error, "%s", gen_writer_error(m->w));
		return -1;
	}
	m->index++;
	/* Injected GCs take Counts above every GC so far, injected ones too. */
	if (ev->values && fault_is(ev, "GCStart") && fault_num(ev, "Count") > m->max_count)
		m->max_count = (uint32_t)fault_num(ev, "Count");
	/* What a checker has seen of the joins: the output's. */
	if (fault_is(ev, "GCJoin") && fault_num(ev, "Heap") < MAX_JOIN_HEAPS)
		m->join_thread[fault_num(ev, "Heap")] = ev->thread_id + 1;
	m->last.timestamp = ev->timestamp;
	m->last.thread_id = ev->thread_id;
	m->last.processor = ev->processor;
	for (i = 0; i < m->nthreads && m->thread[i] != ev->thread_id; i++)
		;
	if (i < MAX_THREADS) {
		if (i == m->nthreads) {
			m->nthreads++;
			m->thread[i] = ev->thread_id;
		}
		m->last_ts[i] = ev->timestamp;
	}
	return 0;
}

/* Re-encode ev from its (changed) values, at pointer size psize. */
int fault_reencode(struct gen_mutator *m, struct gen_event *ev, unsigned psize)
{
	long n = gen_encode(ev->values, psize, m->buf, GEN_PAYLOAD_MAX);

	if (n < 0)
		return -1;
	ev->payload = m->buf;
	ev->payload_len = (uint32_t)n;
	return 0;
}

int fault_set(struct gen_mutator *m, struct gen_event *ev, const char *field, uint64_t x)
{
	struct gen_values *v = (struct gen_values *)ev->values;

	if (gen_values_set_num(v, field, x) < 0)
		return -1;
	return fault_reencode(m, ev, m->psize);
}

/* Copy the payload so it can be changed; the model then has no fields. */
void fault_own_payload(struct gen_mutator *m, struct gen_event *ev)
{
	if (ev->payload != m->buf)
		memcpy(m->buf, ev->payload, ev->payload_len);
	ev->payload = m->buf;
	ev->values = NULL;
}

/* Start an injected event of spec index `event` (from the profile when
 * by name); returns 0 or -1 when the spec/profile has no such event. */

int fault_inject_begin(struct gen_mutator *m, int event)
{
	if (event < 0 || gen_values_reset(m->ivals, (unsigned)event) < 0)
		return -1;
	gen_values_set_num(m->ivals, "ClrInstanceID", m->profile->clr_instance_id);
	return 0;
}

int fault_inject_send_ps(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
			  uint32_t add, unsigned psize)
{
	const struct gcspec_event *sp = &gcspec_events[m->ivals->event];
	struct gen_event ev;
	long n = gen_encode(m->ivals, psize, m->buf, GEN_PAYLOAD_MAX);

	if (n < 0)
		return -1;
	memset(&ev, 0, sizeof ev);
	ev.timestamp = like->timestamp;
	ev.thread_id = like->thread_id;
	ev.processor = like->processor;
	ev.spec_event = m->ivals->event;
	ev.provider = sp->provider;
	ev.id = sp->id;
	ev.version = sp->version;
	ev.level = sp->level;
	ev.opcode = sp->opcode;
	ev.keywords = sp->keywords;
	ev.process_id = like->process_id;  /* a class may write it as another process's */
	ev.pointer_size = like->pointer_size;
	ev.payload = m->buf;
	ev.payload_len = (uint32_t)n;
	ev.values = m->ivals;
	if (patch_u32_field >= 0) {
		uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
		uint32_t at, x;

		gen_encode_offsets(m->ivals, m->psize, offs);
		at = offs[patch_u32_field];
		x = (uint32_t)(m->buf[at] | m->buf[at + 1] << 8 | m->buf[at + 2] << 16 |
			       (uint32_t)m->buf[at + 3] << 24) + add;
		for (int k = 0; k < 4; k++)
			m->buf[at + k] = (uint8_t)(x >> (8 * k));
		ev.values = NULL;
	}
	if (psize != m->psize)
		ev.values = NULL; /* the bytes no longer match the stream's layout */
	return fault_out(m, &ev);
}

int fault_inject_send(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
		       uint32_t add)
{
	return fault_inject_send_ps(m, like, patch_u32_field, add, m->psize);
}

/* Inject one event of profile event `name` with up to two numeric fields. */
int fault_inject2(struct gen_mutator *m, const struct gen_event *like, const char *name,
		   const char *f1, uint64_t v1, const char *f2, uint64_t v2)
{
	FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, name)));
	if (f1)
		gen_values_set_num(m->ivals, f1, v1);
	if (f2)
		gen_values_set_num(m->ivals, f2, v2);
	return fault_inject_send(m, like, -1, 0);
}

/* Count this event as a candidate target; 1 when it is the one. */
int fault_target(struct gen_fault_slot *s, int match)
{
	if (s->state != 0 || !match)
		return 0;
	return ++s->seen == s->occ;
}

int fault_no_place(struct gen_mutator *m, struct gen_fault_slot *s)
{
	snprintf(m->sink.error, sizeof m->sink.error,
		 "fault class %s found no place in this stream (generate more GCs or events)",
		 s->fault->name);
	return -1;
}

/* Keep a copy of ev (its payload and values too) to write later. */
int fault_hold(struct gen_mutator *m, const struct gen_event *ev)
{
	if (!m->held_vals) {
		m->held_vals = malloc(sizeof *m->held_vals);
		m->held_buf = malloc(GEN_PAYLOAD_MAX);
		if (!m->held_vals || !m->held_buf)
			return -1;
	}
	if (ev->payload_len > GEN_PAYLOAD_MAX)
		return -1;
	m->held_ev = *ev;
	memcpy(m->held_buf, ev->payload, ev->payload_len);
	m->held_ev.payload = m->held_buf;
	if (ev->values) {
		memcpy(m->held_vals, ev->values, sizeof *m->held_vals);
		m->held_ev.values = m->held_vals;
	}
	m->held = 1;
	return 0;
}

int fault_release_held(struct gen_mutator *m)
{
	if (!m->held)
		return 0;
	m->held = 0;
	return fault_out(m, &m->held_ev);
}

/* Addresses no realistic stream uses (gen/model/sim.c allocates segments from
 * 0x1f000000000 or 0x02000000 and handles from 0x1e000001000), a new one
 * each time: two faults never share an object. */
uint64_t fault_fresh_segment(struct gen_mutator *m)
{
	uint64_t k = m->nfresh++;

	return m->psize == 8 ? 0x7f0000000000ull + (k << 24) : 0xF0000000ull + (k << 24);
}

uint64_t fault_fresh_handle(struct gen_mutator *m)
{
	uint64_t k = m->nfresh++;

	return m->psize == 8 ? 0x7e0000001000ull + (k << 4) : 0xE0001000ull + (k << 4);
}

/* One whole GC at the end of the stream: GCStart, then GCEnd. */
int fault_inject_gc(struct gen_mutator *m, uint32_t count, uint64_t depth, uint64_t type,
		     int code)
{
	FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "GCStart")));
	gen_values_set_num(m->ivals, "Count", count);
	gen_values_set_num(m->ivals, "Depth", depth);
	gen_values_set_num(m->ivals, "Type", type);
	if (code != GEN_DIAG_END)
		fault_expect(m, code, fault_here(m), 0);
	FAULT_TRY(fault_inject_send(m, &m->last, -1, 0));
	return fault_inject2(m, &m->last, "GCEnd", "Count", count, "Depth", depth);
}

/* Write one realistic event of profile event `name`, made to be the
 * class's target: the class changes it as it would have in the stream. */
int fault_synth_target(struct gen_mutator *m, struct gen_fault_slot *s, const char *name)
{
	struct gen_event ev;
	long n;
	int r;

	FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, name)));
	if (strcmp(name, "GCAllocationTick") == 0) {
		gen_values_set_num(m->ivals, "AllocationAmount", 0x19000);
		gen_values_set_num(m->ivals, "AllocationAmount64", 0x19000);
		gen_values_set_num(m->ivals, "TypeID", m->psize == 8 ? 0x7ff812340000ull : 0x12340000u);
		gen_values_set_text(m->ivals, "TypeName", "System.Object", 13);
		gen_values_set_num(m->ivals, "Address", m->psize == 8 ? 0x1f000000100ull : 0x02000100u);
		gen_values_set_num(m->ivals, "ObjectSize", 24);
	} else if (strcmp(name, "GCMarkWithType") == 0) {
		gen_values_set_num(m->ivals, "Type", 1);
		gen_values_set_num(m->ivals, "Bytes", 4096);
	} else if (strcmp(name, "GCPerHeapHistory") == 0) {
		for (unsigned g = 0; g < 5; g++)
			if (gen_values_add_row(m->ivals) >= 0)
				gen_values_set_member_num(m->ivals, g, "SizeBefore", 0x100000);
	}
	n = gen_encode(m->ivals, m->psize, m->buf, GEN_PAYLOAD_MAX);
	if (n < 0)
		return -1;
	ev = m->last;
	ev.spec_event = m->ivals->event;
	ev.provider = gcspec_events[ev.spec_event].provider;
	ev.id = gcspec_events[ev.spec_event].id;
	ev.version = gcspec_events[ev.spec_event].version;
	ev.level = gcspec_events[ev.spec_event].level;
	ev.opcode = gcspec_events[ev.spec_event].opcode;
	ev.keywords = gcspec_events[ev.spec_event].keywords;
	ev.stack_id = 0;
	ev.payload = m->buf;
	ev.payload_len = (uint32_t)n;
	ev.values = m->ivals;
	s->state = 0;
	s->seen = s->occ - 1; /* the next match is the target */
	r = s->fault->apply(m, s, &ev);
	if (r < 0)
		return -1;
	return r ? 0 : fault_out(m, &ev);
}
