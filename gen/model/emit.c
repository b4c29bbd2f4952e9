/* emit.c - encode the current values (or put the directly written payload
 * in order) and hand the event to the sink. */
#include <stdio.h>
#include <stdlib.h>

#include "gen/model/emit.h"

/* gen_emit_text_const's memory: constant texts' UTF-16, by address. */
#define MEMO_SLOTS 64
#define MEMO_BYTES 240
struct gen_emit_text_memo {
	const char *key;
	size_t len;
	uint32_t n;
	uint8_t utf16[MEMO_BYTES];
};

/* Direct mode's scratch: the runs after run 0, then the variable fields. */
#define VAR_MAX (64u << 10)
#define RUN_STRIDE (GEN_LAYOUT_RUN_MAX + GEN_EMIT_ZERO_SLACK)
#define SCRATCH (GEN_LAYOUT_MAX_VARS * (RUN_STRIDE + VAR_MAX))
_Static_assert(GEN_PAYLOAD_MAX >= GEN_LAYOUT_RUN_MAX + GEN_EMIT_ZERO_SLACK,
	       "run 0, at the payload's start, has gen_emit_zero's slack");

int gen_emit_init(struct gen_emit *e, unsigned pointer_size, uint64_t keywords, uint8_t level,
		  struct gen_sink *sink)
{
	e->vals = malloc(sizeof *e->vals);
	e->payload = malloc(GEN_PAYLOAD_MAX);
	e->shapes = malloc(sizeof *e->shapes * GCSPEC_NEVENTS);
	e->plans = malloc(sizeof *e->plans * GCSPEC_NEVENTS);
	e->layouts = malloc(sizeof *e->layouts * GCSPEC_NEVENTS);
	e->planned = calloc(GCSPEC_NEVENTS, 1);
	e->scratch = malloc(SCRATCH);
	e->memo = calloc(MEMO_SLOTS, sizeof *e->memo);
	e->direct = 0;
	e->cur = NULL;
	e->pointer_size = pointer_size;
	e->keywords = keywords;
	e->level = level;
	e->sink = sink;
	e->stacks = 0;
	e->nevents = 0;
	e->npayload_bytes = 0;
	e->per_event = NULL;
	e->error[0] = 0;
	if (!e->vals || !e->payload || !e->shapes || !e->plans || !e->layouts || !e->planned ||
	    !e->scratch || !e->memo) {
		gen_emit_fini(e);
		snprintf(e->error, sizeof e->error, "out of memory");
		return -1;
	}
	e->run[0] = e->payload;
	for (unsigned k = 0; k < GEN_LAYOUT_MAX_VARS; k++) {
		e->run[k + 1] = e->scratch + k * RUN_STRIDE;
		e->var[k] = e->scratch + GEN_LAYOUT_MAX_VARS * RUN_STRIDE + k * VAR_MAX;
	}
	return 0;
}

void gen_emit_fini(struct gen_emit *e)
{
	free(e->vals);
	free(e->payload);
	free(e->shapes);
	free(e->plans);
	free(e->layouts);
	free(e->planned);
	free(e->scratch);
	free(e->memo);
	e->memo = NULL;
	e->vals = NULL;
	e->payload = NULL;
	e->shapes = NULL;
	e->plans = NULL;
	e->layouts = NULL;
	e->planned = NULL;
	e->scratch = NULL;
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
	gen_layout_build(&e->layouts[event], event, e->pointer_size);
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

int gen_emit_text(struct gen_emit *e, unsigned index, const char *utf8, size_t len)
{
	const struct gen_layout_field *f;
	long n;

	if (!e->cur)
		return gen_values_set_text_at(e->vals, index, utf8, len);
	if (index >= GEN_VALUES_MAX_FIELDS)
		return -1;
	f = &e->cur->f[index];
	if (f->kind == GEN_LK_UTF16) {
		n = gen_utf8_to_utf16le((const uint8_t *)utf8, len, e->var[f->var], VAR_MAX);
	} else if (f->kind == GEN_LK_ANSI && len < VAR_MAX) {
		memcpy(e->var[f->var], utf8, len);
		e->var[f->var][len] = 0;
		n = (long)len + 1;
	} else {
		return -1;
	}
	if (n < 0)
		return -1;
	e->var_len[f->var] = (uint32_t)n;
	return 0;
}

int gen_emit_text_const(struct gen_emit *e, unsigned index, const char *utf8, size_t len)
{
	struct gen_emit_text_memo *m;
	const struct gen_layout_field *f;

	if (!e->cur || index >= GEN_VALUES_MAX_FIELDS || e->cur->f[index].kind != GEN_LK_UTF16)
		return gen_emit_text(e, index, utf8, len);
	f = &e->cur->f[index];
	m = &e->memo[((uintptr_t)utf8 * 0x9E3779B97F4A7C15ull) >> 58];
	if (m->key != utf8 || m->len != len) {
		long n = gen_utf8_to_utf16le((const uint8_t *)utf8, len, m->utf16, MEMO_BYTES);

		if (n < 0)
			return gen_emit_text(e, index, utf8, len);
		m->key = utf8;
		m->len = len;
		m->n = (uint32_t)n;
	}
	memcpy(e->var[f->var], m->utf16, m->n);
	e->var_len[f->var] = m->n;
	return 0;
}

int gen_emit_has_rows(const struct gen_emit *e)
{
	return e->cur ? e->cur->struct_var >= 0 : e->vals->struct_field >= 0;
}

struct gen_emit_slot gen_emit_slot_of(struct gen_emit *e, unsigned event, unsigned index)
{
	struct gen_emit_slot sl = { NULL, 0, 0 };
	const struct gen_layout *l;
	const struct gen_layout_field *f;

	if (event >= GCSPEC_NEVENTS || index >= GEN_VALUES_MAX_FIELDS ||
	    index >= gcspec_events[event].nfields ||
	    (!e->planned[event] && gen_emit_prepare(e, event) < 0))
		return sl;
	l = &e->layouts[event];
	f = &l->f[index];
	if (!e->direct || !l->ok) {
		/* Values mode: the value's own 8 bytes in e->vals, which a
		 * little-endian store writes as the number itself. */
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
		return sl;
#endif
		const struct gen_values_shape *sh = &e->shapes[event];
		const struct gcspec_field *sf = gcspec_event_fields(&gcspec_events[event]);

		if (sh->kind[index] != GEN_VK_NUM && sh->kind[index] != GEN_VK_DOUBLE)
			return sl;
		if (sf[index].is_member) {
			sl.dst = (uint8_t *)&e->vals->cell[index - (unsigned)sh->struct_field - 1].u;
			sl.elem = (uint16_t)(sh->nmembers * sizeof(struct gen_value));
		} else if (sf[index].type != GCSPEC_STRUCT) {
			sl.dst = (uint8_t *)&e->vals->field[index].u;
		}
		sl.width = 8;
		return sl;
	}
	if (f->kind == GEN_LK_PLAIN) {
		sl.dst = e->run[f->run] + f->off;
		sl.width = f->width;
	} else if (f->kind == GEN_LK_MEMBER) {
		sl.dst = e->var[f->var] + f->off;
		sl.elem = l->elem_size;
		sl.width = f->width;
	}
	return sl;
}

int gen_emit_add_row(struct gen_emit *e)
{
	const struct gen_layout *l = e->cur;
	unsigned k;

	if (!l) {
		int r = gen_values_add_row(e->vals);

		e->nrows = e->vals->nrows;
		return r;
	}
	if (l->struct_var < 0)
		return -1;
	k = (unsigned)l->struct_var;
	if (e->var_len[k] + l->elem_size + GEN_EMIT_ZERO_SLACK > VAR_MAX)
		return -1;
	gen_emit_zero(e->var[k] + e->var_len[k], l->elem_size);
	e->var_len[k] += l->elem_size;
	e->nrows++;
	if (l->count_field >= 0) {
		const struct gen_layout_field *c = &l->f[l->count_field];

		if (c->kind == GEN_LK_PLAIN)
			gen_emit_store(e->run[c->run] + c->off, e->nrows, c->width);
	}
	return (int)(e->nrows - 1);
}

/* Direct mode: the runs and variable fields one after another. */
static long assemble(struct gen_emit *e)
{
	const struct gen_layout *l = e->cur;
	size_t o = l->run_size[0];

	for (unsigned k = 0; k < l->nvars; k++) {
		if (o + e->var_len[k] + l->run_size[k + 1] > GEN_PAYLOAD_MAX)
			return -1;
		memcpy(e->payload + o, e->var[k], e->var_len[k]);
		o += e->var_len[k];
		memcpy(e->payload + o, e->run[k + 1], l->run_size[k + 1]);
		o += l->run_size[k + 1];
	}
	return (long)o;
}

int gen_emit_send(struct gen_emit *e, uint64_t timestamp, uint64_t thread, uint32_t processor)
{
	unsigned event = e->cur ? e->cur_event : e->vals->event;
	const struct gcspec_event *sp = &gcspec_events[event];
	struct gen_event ev;
	long n;

	if (e->cur) {
		n = e->cur->nvars ? assemble(e) : (long)e->cur->run_size[0];
	} else {
		/* Values reset outside gen_emit_begin have no plan yet. */
		if (!e->planned[event] && gen_emit_prepare(e, event) < 0) {
			snprintf(e->error, sizeof e->error, "%s: too many fields", sp->symbol);
			return -1;
		}
		n = gen_encode_planned(&e->plans[event], e->vals, e->payload, GEN_PAYLOAD_MAX);
	}
	if (n < 0) {
		snprintf(e->error, sizeof e->error, "%s: payload larger than %d bytes",
			 sp->symbol, GEN_PAYLOAD_MAX);
		return -1;
	}
	ev.timestamp = timestamp;
	ev.thread_id = thread;
	ev.processor = processor;
	ev.spec_event = (uint16_t)event;
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
	ev.values = e->cur ? NULL : e->vals;
	ev.process_id = 0;
	ev.pointer_size = 0;
	ev.kind = GEN_EV_RUNTIME;
	e->nevents++;
	e->npayload_bytes += (uint64_t)n;
	if (e->per_event)
		e->per_event[event]++;
	if (e->sink->event(e->sink, &ev) < 0) {
		snprintf(e->error, sizeof e->error, "%s", e->sink->error);
		return -1;
	}
	return 0;
}
