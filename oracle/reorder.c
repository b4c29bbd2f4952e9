/*
 * reorder.c - the time-order window (see reorder.h).
 */
#include <stdlib.h>
#include <string.h>

#include "reorder.h"

int or_reorder_push(struct or_reorder *q, const struct or_event *ev)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct or_event *p = realloc(q->ev, cap * sizeof *p);
		if (!p)
			return -1;
		q->ev = p;
		q->cap = cap;
	}
	if (q->used + ev->payload_len > q->bcap) {
		size_t cap = q->bcap ? q->bcap : 1u << 20;
		while (cap < q->used + ev->payload_len)
			cap *= 2;
		uint8_t *b = realloc(q->bytes, cap);
		if (!b)
			return -1;
		q->bytes = b;
		q->bcap = cap;
	}
	q->ev[q->n] = *ev;
	/* Keep the payload's position, not its address: the byte buffer may
	 * move as it grows. */
	q->ev[q->n].payload = (const uint8_t *)(uintptr_t)q->used;
	if (ev->payload_len)
		memcpy(q->bytes + q->used, ev->payload, ev->payload_len);
	q->used += ev->payload_len;
	q->n++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct or_event *x = a, *y = b;

	if (x->timestamp != y->timestamp)
		return x->timestamp < y->timestamp ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	/* An empty window may have no array yet, and qsort wants one. */
	if (q->n > 1)
		qsort(q->ev, q->n, sizeof *q->ev, by_time);
	for (size_t i = 0; i < q->n; i++) {
		struct or_event e = q->ev[i];
		/* Only empty payloads so far: no byte buffer, and NULL + 0 is
		 * undefined in C. */
		e.payload = q->bytes ? q->bytes + (uintptr_t)e.payload : NULL;
		fn(arg, &e);
	}
	q->n = 0;
	q->used = 0;
}

void or_reorder_free(struct or_reorder *q)
{
	free(q->ev);
	free(q->bytes);
	memset(q, 0, sizeof *q);
}
