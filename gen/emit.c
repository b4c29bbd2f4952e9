/* emit.c - encode the current values and hand the event to the sink. */
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"
#include "encode.h"

int gen_emit_init(struct gen_emit *e, unsigned pointer_size, uint64_t keywords, uint8_t level,
		  struct gen_sink *sink)
{
	e->vals = malloc(sizeof *e->vals);
	e->payload = malloc(GEN_PAYLOAD_MAX);
	e->pointer_size = pointer_size;
	e->keywords = keywords;
	e->level = level;
	e->sink = sink;
	e->stacks = 0;
	e->nevents = 0;
	e->npayload_bytes = 0;
	e->per_event = NULL;
	e->error[0] = 0;
	if (!e->vals || !e->payload) {
		gen_emit_fini(e);
		snprintf(e->error, sizeof e->error, "out of memory");
		return -1;
	}
	return 0;
}

void gen_emit_fini(struct gen_emit *e)
{
	free(e->vals);
	free(e->payload);
	e->vals = NULL;
	e->payload = NULL;
}

int gen_event_enabled(unsigned event, uint64_t keywords, uint8_t level)
{
	const struct gcspec_event *ev = &gcspec_events[event];

	if (ev->level > level && level != 0)
		return 0;
	return ev->keywords == 0 || (ev->keywords & keywords) != 0;
}

int gen_emit_begin_always(struct gen_emit *e, int event)
{
	if (event < 0 || event >= GCSPEC_NEVENTS || gen_values_reset(e->vals, (unsigned)event) < 0)
		return -1;
	return 1;
}

int gen_emit_begin(struct gen_emit *e, int event)
{
	if (event < 0 || event >= GCSPEC_NEVENTS)
		return event < 0 ? 0 : -1;
	if (!gen_event_enabled((unsigned)event, e->keywords, e->level))
		return 0;
	return gen_emit_begin_always(e, event);
}

int gen_emit_send(struct gen_emit *e, uint64_t timestamp, uint64_t thread, uint32_t processor)
{
	const struct gcspec_event *sp = &gcspec_events[e->vals->event];
	struct gen_event ev;
	long n = gen_encode(e->vals, e->pointer_size, e->payload, GEN_PAYLOAD_MAX);

	if (n < 0) {
		snprintf(e->error, sizeof e->error, "%s: payload larger than %d bytes",
			 sp->symbol, GEN_PAYLOAD_MAX);
		return -1;
	}
	ev.timestamp = timestamp;
	ev.thread_id = thread;
	ev.processor = processor;
	ev.spec_event = e->vals->event;
	ev.provider = sp->provider;
	ev.id = sp->id;
	ev.version = sp->version;
	ev.level = sp->level;
	ev.opcode = sp->opcode;
	ev.keywords = sp->keywords;
	/* A runtime records where each event was fired from: a few distinct
	 * stacks per event id and thread, seen again and again. */
	ev.stack_id = e->stacks ? 1 + (uint32_t)((sp->id * 7u + (thread & 0xFFFF) * 3u +
						  timestamp % 3u) % 61u) : 0;
	ev.payload = e->payload;
	ev.payload_len = (uint32_t)n;
	ev.values = e->vals;
	e->nevents++;
	e->npayload_bytes += (uint64_t)n;
	if (e->per_event)
		e->per_event[e->vals->event]++;
	if (e->sink->event(e->sink, &ev) < 0) {
		snprintf(e->error, sizeof e->error, "%s", e->sink->error);
		return -1;
	}
	return 0;
}
