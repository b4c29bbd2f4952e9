/*
 * emit.h - the path from field values to a container writer.
 *
 * The simulator and the exhaustive generator fill e->vals for one
 * event-version (gen_emit_begin), then gen_emit_send encodes the payload and
 * hands the event to the sink: the writer, or the mutator stage in front of
 * it. One gen_values and one payload buffer are reused for every event, so
 * emitting allocates nothing.
 *
 * Direct mode (e->direct, set by the caller before the first event): when no
 * one downstream reads field values (a container writer without a mutator
 * or a model stream), the gen_emit_* setters write each field straight into
 * the payload (encode.h's gen_layout) and the sink gets ev->values NULL; the
 * bytes are the same as encoding from values, which is what the setters do
 * otherwise. The exhaustive generator fills e->vals itself: values mode.
 *
 * Errors: 0 on success, -1 when the sink failed or the values do not fit
 * (message in e->error).
 */
#ifndef GEN_EMIT_H
#define GEN_EMIT_H

#include <stdint.h>
#include <string.h>

#include "gen/model/encode.h"
#include "gen/model/values.h"
#include "gen/formats/writer.h"

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
	struct gen_layout *layouts;
	uint8_t *planned;
	/* Direct mode. cur: the current event's layout, or NULL when it goes
	 * through e->vals. Run 0 is written at the payload's start, the others
	 * and the variable fields in scratch (owned) until gen_emit_send puts
	 * them in order. */
	int direct;
	const struct gen_layout *cur;
	uint16_t cur_event;
	uint8_t *run[GEN_LAYOUT_MAX_VARS + 1];
	uint8_t *var[GEN_LAYOUT_MAX_VARS];
	uint32_t var_len[GEN_LAYOUT_MAX_VARS];
	uint32_t nrows;
	uint8_t *scratch;
	struct gen_emit_text_memo *memo;   /* owned: gen_emit_text_const's */
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

/*
 * Field setters by template index, for either mode (errors are ignored as
 * gen_values' setters' are: a field of the wrong kind is left alone).
 * gen_emit_add_row returns the new row's index, or -1 when the event has no
 * Struct; it sets the Struct's count field.
 */
static inline void gen_emit_num(struct gen_emit *e, unsigned index, uint64_t x);
int gen_emit_text(struct gen_emit *e, unsigned index, const char *utf8, size_t len);
/* gen_emit_text for text that never changes at that address (a string
 * literal, a constant table's): its UTF-16 is remembered by address. */
int gen_emit_text_const(struct gen_emit *e, unsigned index, const char *utf8, size_t len);
int gen_emit_add_row(struct gen_emit *e);
static inline void gen_emit_member(struct gen_emit *e, unsigned row, unsigned member_index,
				   uint64_t x);
/* Whether the current event has a Struct (rows can be added). */
int gen_emit_has_rows(const struct gen_emit *e);

/* Where a number field of `event` goes, for callers that set the same
 * fields of many events: dst is where its bytes are written (width of them,
 * little-endian) at every event of that event-version, in the payload
 * (direct mode) or in e->vals (values mode: the value's 8 bytes); for a
 * Struct member, where row 0's go (row r's at dst + r * elem, r below
 * e->nrows). dst is NULL when the field is to be set with gen_emit_num or
 * gen_emit_member instead (a float in direct mode, not a number field). */
struct gen_emit_slot {
	uint8_t *dst;
	uint16_t elem;
	uint8_t width;
};
struct gen_emit_slot gen_emit_slot_of(struct gen_emit *e, unsigned event, unsigned index);

/* Whether the session keywords/level record this event-version. */
int gen_event_enabled(unsigned event, uint64_t keywords, uint8_t level);

/* The values' shape and the encoding plan of an event-version, built at
 * its first event; 0, or -1 when the event does not fit gen_values. */
int gen_emit_prepare(struct gen_emit *e, unsigned event);

/* Zero n bytes at p in 8-byte words: runs are short, and a call to memset
 * costs more than the stores (a loop would be made into that call). Up to
 * 32 bytes, 32 are zeroed: the scratch areas have room for the excess
 * (GEN_EMIT_ZERO_SLACK). */
#define GEN_EMIT_ZERO_SLACK 32
static inline void gen_emit_zero(uint8_t *p, unsigned n)
{
	const uint64_t z = 0;

	if (n <= 32) {
		memcpy(p, &z, 8);
		memcpy(p + 8, &z, 8);
		memcpy(p + 16, &z, 8);
		memcpy(p + 24, &z, 8);
		return;
	}
	switch ((n + 7) / 8) {
	default: memset(p, 0, n); return;
	case 12: memcpy(p + 88, &z, 8); /* fall through */
	case 11: memcpy(p + 80, &z, 8); /* fall through */
	case 10: memcpy(p + 72, &z, 8); /* fall through */
	case 9: memcpy(p + 64, &z, 8); /* fall through */
	case 8: memcpy(p + 56, &z, 8); /* fall through */
	case 7: memcpy(p + 48, &z, 8); /* fall through */
	case 6: memcpy(p + 40, &z, 8); /* fall through */
	case 5: memcpy(p + 32, &z, 8); /* fall through */
	case 4: memcpy(p + 24, &z, 8); /* fall through */
	case 3: memcpy(p + 16, &z, 8); /* fall through */
	case 2: memcpy(p + 8, &z, 8); /* fall through */
	case 1: memcpy(p, &z, 8); /* fall through */
	case 0: return;
	}
}

static inline int gen_emit_begin_always(struct gen_emit *e, int event)
{
	if (event < 0 || event >= GCSPEC_NEVENTS ||
	    (!e->planned[event] && gen_emit_prepare(e, (unsigned)event) < 0))
		return -1;
	if (e->direct && e->layouts[event].ok) {
		const struct gen_layout *l = &e->layouts[event];

		/* Unset fields are zero, unset strings empty. */
		e->cur = l;
		e->cur_event = (uint16_t)event;
		e->nrows = 0;
		gen_emit_zero(e->run[0], l->run_size[0]);
		for (unsigned k = 0; k < l->nvars; k++) {
			gen_emit_zero(e->run[k + 1], l->run_size[k + 1]);
			e->var_len[k] = l->var_init[k];
			e->var[k][0] = e->var[k][1] = 0;
		}
		return 1;
	}
	e->cur = NULL;
	e->nrows = 0;
	gen_values_reset_shaped(e->vals, &e->shapes[event]);
	return 1;
}

/* Store the low `width` bytes of x at p, little-endian. */
static inline void gen_emit_store(uint8_t *p, uint64_t x, unsigned width)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(x >> (8 * i));
	return;
#endif
	switch (width) {
	case 1: *p = (uint8_t)x; return;
	case 2: { uint16_t t = (uint16_t)x; memcpy(p, &t, 2); return; }
	case 4: { uint32_t t = (uint32_t)x; memcpy(p, &t, 4); return; }
	case 8: memcpy(p, &x, 8); return;
	default: return;
	}
}

static inline void gen_emit_num(struct gen_emit *e, unsigned index, uint64_t x)
{
	if (e->cur) {
		const struct gen_layout_field *f = &e->cur->f[index];

		if (index >= GEN_VALUES_MAX_FIELDS)
			return;
		if (f->kind == GEN_LK_PLAIN) {
			gen_emit_store(e->run[f->run] + f->off, x, f->width);
		} else if (f->kind == GEN_LK_FLOAT) {
			double d;
			float fl;
			uint32_t bits;

			memcpy(&d, &x, sizeof d);
			fl = (float)d;
			memcpy(&bits, &fl, sizeof bits);
			gen_emit_store(e->run[f->run] + f->off, bits, 4);
		}
		return;
	}
	gen_values_set_num_at(e->vals, index, x);
}

static inline void gen_emit_member(struct gen_emit *e, unsigned row, unsigned member_index,
				   uint64_t x)
{
	if (e->cur) {
		const struct gen_layout_field *f = &e->cur->f[member_index];

		if (member_index < GEN_VALUES_MAX_FIELDS && f->kind == GEN_LK_MEMBER && row < e->nrows)
			gen_emit_store(e->var[f->var] + (size_t)row * e->cur->elem_size + f->off, x,
				       f->width);
		return;
	} else {
		struct gen_value v = { x, 0, GEN_VK_NUM };

		gen_values_set_member_at(e->vals, row, member_index, &v);
	}
}

#endif
