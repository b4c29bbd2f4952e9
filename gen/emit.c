/* emit.c - encode the current values and hand the event to the sink. */
#include <stdio.h>
#include <stdlib.h>

#include "emit.h"

int gen_emit_init(struct gen_emit *e, unsigned pointer_size, uint64_t keywords, uint8_t level,
		  struct gen_sink *sink)
{
	e->vals = malloc(sizeof *e->vals);
	e->payload = malloc(GEN_PAYLOAD_MAX);
	e->shapes = malloc(sizeof *e->shapes * GCSPEC_NEVENTS);
	e->plans = malloc(sizeof *e->plans * GCSPEC_NEVENTS);
	e->planned = calloc(GCSPEC_NEVENTS, 1);
	e->pointer_size = pointer_size;
	e->keywords = keywords;
	e->level = level;
	e->sink = sink;
	e->stacks = 0;
	e->nevents = 0;
	e->npayload_bytes = 0;
	e->per_event = NULL;
	e->error[0] = 0;
	if (!e->vals || !e->payload || !e->shapes || !e->plans || !e->planned) {
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
	free(e->shapes);
	free(e->plans);
	free(e->planned);
	e->vals = NULL;
	e->payload = NULL;
	e->shapes = NULL;
	e->plans = NULL;
	e->planned = NULL;
}

int gen_event_enabled(unsigned event, uint64_t keywords, uint8_t level)
{
	const struct gcspec_event *ev = &gcspec_events[event];

	if (ev->level > level && level != 0)
		return 0;
	return ev->keywords == 0 || (ev->keywords & keywords) != 0;
}

int gen_emit_prepare(struct gen_emit *e, unsigned event)
{
	if (gen_values_shape_of(&e->shapes[event], event) < 0 ||
	    gen_encode_plan_build(&e->plans[event], event, e->pointer_size) < 0)
		return -1;
	e->planned[event] = 1;
	return 0;
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
	unsigned event = e->vals->event;
	const struct gcspec_event *sp = &gcspec_events[event];
	struct gen_event ev;
	long n;

	/* Values reset outside gen_emit_begin have no plan yet. */
	if (!e->planned[event] && gen_emit_prepare(e, event) < 0) {
		snprintf(e->error, sizeof e->error, "%s: too many fields", sp->symbol);
		return -1;
	}
	n = gen_encode_planned(&e->plans[event], e->vals, e->payload, GEN_PAYLOAD_MAX);

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
