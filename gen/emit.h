/*
 * emit.h - the path from field values to a container writer.
 *
 * The simulator and the exhaustive generator fill e->vals for one
 * event-version (gen_emit_begin), then gen_emit_send encodes the payload and
 * hands the event to the sink: the writer, or the mutator stage in front of
 * it. One gen_values and one payload buffer are reused for every event, so
 * emitting allocates nothing.
 *
 * Errors: 0 on success, -1 when the sink failed or the values do not fit
 * (message in e->error).
 */
#ifndef GEN_EMIT_H
#define GEN_EMIT_H

#include <stdint.h>

#include "encode.h"
#include "values.h"
#include "writer.h"

#define GEN_PAYLOAD_MAX (256 * 1024)

/* Receives every event in output order. vals is mutable scratch the sink may
 * change (a mutator re-encodes from it); it is NULL-able in ev->values. */
struct gen_sink {
	int (*event)(struct gen_sink *s, struct gen_event *ev);
	char error[256];
};

struct gen_emit {
	struct gen_values *vals;   /* owned: gen_emit_init allocates, _fini frees */
	uint8_t *payload;          /* owned, GEN_PAYLOAD_MAX bytes */
	unsigned pointer_size;
	uint64_t keywords;         /* session: an event is written when it shares a */
	uint8_t level;             /* keyword bit (or has none) and its level <= level */
	struct gen_sink *sink;
	int stacks;                /* 1: give events a stack id (0: none, the default) */
	uint64_t nevents;          /* events handed to the sink */
	uint64_t npayload_bytes;
	/* Coverage: events emitted per event-version; NULL unless wanted. */
	uint64_t *per_event;
	/* By event-version, built at first use (owned): what resetting the
	 * values and encoding the payload take from the spec. */
	struct gen_values_shape *shapes;
	struct gen_encode_plan *plans;
	uint8_t *planned;
	char error[256];
};

int gen_emit_init(struct gen_emit *e, unsigned pointer_size, uint64_t keywords, uint8_t level,
		  struct gen_sink *sink);
void gen_emit_fini(struct gen_emit *e);
/* 1: the session records `event`, e->vals is reset for it; 0: filtered out
 * (do not send); -1: bad event index. */
int gen_emit_begin(struct gen_emit *e, int event);
/* As gen_emit_begin without the session filter (exhaustive mode, and
 * callers that filtered already). Inline: once per event. */
static inline int gen_emit_begin_always(struct gen_emit *e, int event);
int gen_emit_send(struct gen_emit *e, uint64_t timestamp, uint64_t thread, uint32_t processor);

/* Whether the session keywords/level record this event-version. */
int gen_event_enabled(unsigned event, uint64_t keywords, uint8_t level);

/* The values' shape and the encoding plan of an event-version, built at
 * its first event; 0, or -1 when the event does not fit gen_values. */
int gen_emit_prepare(struct gen_emit *e, unsigned event);

static inline int gen_emit_begin_always(struct gen_emit *e, int event)
{
	if (event < 0 || event >= GCSPEC_NEVENTS ||
	    (!e->planned[event] && gen_emit_prepare(e, (unsigned)event) < 0))
		return -1;
	gen_values_reset_shaped(e->vals, &e->shapes[event]);
	return 1;
}

#endif
