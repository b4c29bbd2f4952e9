/*
 * reorder_i.h - the time-order window's internals shared by its two
 * modules: reorder.c (records, runs, the merge) and reorder_class.c (the
 * classes events share). Nothing outside the window uses this.
 */
#ifndef ORACLE_REORDER_I_H
#define ORACLE_REORDER_I_H

#include <stdint.h>

#include "oracle/reorder/reorder.h"

#define NONE UINT32_MAX

/* Rare paths kept out of the functions every event goes through, so that
 * those stay small (fewer registers saved and restored per event). */
#if defined(__GNUC__)
#define OR_R_NOINLINE __attribute__((noinline))
#else
#define OR_R_NOINLINE
#endif

/* The window is larger than the caches: ask for what the merge reads next
 * before it needs it. */
#if defined(__GNUC__)
#define OR_PREFETCH(p) __builtin_prefetch(p)
#else
#define OR_PREFETCH(p) ((void)(p))
#endif

/* One event held: 64 bytes. */
struct or_rrec {
	uint64_t ts, index, offset, payload_offset, thread_id;
	const uint8_t *payload;    /* in a held block; NULL: copied (aux) */
	uint32_t len;              /* payload bytes */
	uint32_t cls;              /* its class (reorder_class.c) */
	uint32_t process;          /* or_event.process */
	uint32_t aux;              /* held block: its pin slot; copied: where
	                              in bytes (the model fields' length, the
	                              payload, the model fields) */
};

/* What the events of one kind share. */
struct or_rclass {
	uint64_t keywords;
	const char *provider_name;
	int provider;
	uint16_t id;
	uint8_t version, level, opcode;
	uint8_t pointer_size;      /* or_event.pointer_size: in the padding */
};

/* ev's class: its index, NONE when memory runs out. */
uint32_t or_rclass_of(struct or_reorder *q, const struct or_event *ev);
/* The same, answered at once when the reader numbers its classes and the
 * number was seen lately. */
static inline uint32_t or_rclass_get(struct or_reorder *q, const struct or_event *ev)
{
	size_t k = ev->cls & (sizeof q->ccache / sizeof q->ccache[0] - 1);

	if (ev->cls && q->ccache[k].key == ev->cls)
		return q->ccache[k].cls;
	return or_rclass_of(q, ev);
}
/* Set e's class fields from class c. */
static inline void or_rclass_fill(const struct or_reorder *q, uint32_t c, struct or_event *e)
{
	const struct or_rclass *k = &q->cls[c];

	e->provider = k->provider;
	e->provider_name = k->provider_name;
	e->id = k->id;
	e->version = k->version;
	e->level = k->level;
	e->opcode = k->opcode;
	e->keywords = k->keywords;
	e->pointer_size = k->pointer_size;
}
/* The window is empty: forget every class. */
void or_rclass_reset(struct or_reorder *q);
/* After a partial flush: forget the classes no event held has, once they
 * are many (a file without sync points must not grow the table). */
void or_rclass_compact(struct or_reorder *q);
void or_rclass_free(struct or_reorder *q);

#endif
