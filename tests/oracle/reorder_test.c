/*
 * reorder_test.c - the time-order window hands events on in exactly the
 * order a stable sort by timestamp gives (ties in file order), whatever the
 * threads' interleaving and when a thread's clock steps back; a partial
 * flush hands on the oldest events and loses or repeats none. Each event
 * keeps its own pointer size (threads of a 32-bit and a 64-bit process
 * interleaved, as in a merged .etl), its class otherwise the same.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/reorder/reorder.h"
#include "tap.h"

#define MAXEV 20000

struct ev { uint64_t ts, index, thread; uint32_t len; uint8_t psize; };

static struct ev in[MAXEV], want[MAXEV];
static uint64_t got[MAXEV];
static size_t ngot, nbad_payload;

static uint64_t rng_state;
static uint64_t rnd(void)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rng_state >> 33;
}

static uint8_t payload_byte(uint64_t index, uint32_t k)
{
	return (uint8_t)(index * 31 + k * 7);
}

static void collect(void *arg, const struct or_event *ev)
{
	(void)arg;
	for (uint32_t k = 0; k < ev->payload_len; k++)
		if (ev->payload[k] != payload_byte(ev->index, k))
			nbad_payload++;
	if (ev->payload_len != in[ev->index].len || ev->thread_id != in[ev->index].thread ||
	    ev->timestamp != in[ev->index].ts || ev->pointer_size != in[ev->index].psize)
		nbad_payload++;
	if (ngot < MAXEV)
		got[ngot++] = ev->index;
}

static int by_time(const void *a, const void *b)
{
	const struct ev *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/* Events grouped by thread in blocks, as nettrace stores them: each block
 * holds every thread's events of one time span, thread after thread.
 * step: one event in `step` goes back in time on its thread (0: never). */
static size_t make(size_t n, unsigned threads, unsigned step, unsigned ties)
{
	uint64_t clock[64] = { 0 };
	size_t k = 0;

	while (k < n) {
		size_t block = 1 + rnd() % 200;
		for (unsigned t = 0; t < threads && k < n; t++) {
			size_t m = rnd() % (block / threads + 2);
			for (size_t j = 0; j < m && k < n; j++) {
				clock[t] += ties ? rnd() % 3 : 1 + rnd() % 50;
				in[k].ts = clock[t];
				if (step && rnd() % step == 0)
					in[k].ts -= rnd() % (clock[t] + 1);
				in[k].thread = 1000 + t * 17;
				in[k].index = k;
				in[k].len = (uint32_t)(rnd() % 40);
				in[k].psize = t % 2 ? 4 : 8;
				k++;
			}
		}
	}
	memcpy(want, in, n * sizeof *in);
	qsort(want, n, sizeof *want, by_time);
	return n;
}

static void push(struct or_reorder *q, size_t i, int via_slot)
{
	uint8_t buf[64];
	struct or_event e, *s;

	for (uint32_t k = 0; k < in[i].len; k++)
		buf[k] = payload_byte(i, k);
	memset(&e, 0, sizeof e);
	e.index = in[i].index;
	e.timestamp = in[i].ts;
	e.thread_id = in[i].thread;
	e.payload = buf;
	e.payload_len = in[i].len;
	e.pointer_size = in[i].psize;
	if (!via_slot) {
		or_reorder_push(q, &e);
		return;
	}
	s = or_reorder_slot(q);
	*s = e;
	or_reorder_commit(q);
}

static int same_as_sorted(size_t n)
{
	if (ngot != n)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i].index)
			return 0;
	return 1;
}

static void whole(const char *what, size_t n, unsigned threads, unsigned step,
                  unsigned ties, int via_slot)
{
	struct or_reorder q;

	memset(&q, 0, sizeof q);
	make(n, threads, step, ties);
	ngot = nbad_payload = 0;
	for (size_t i = 0; i < n; i++)
		push(&q, i, via_slot);
	or_reorder_flush(&q, collect, NULL);
	tap_ok(same_as_sorted(n) && !nbad_payload,
	       "%s: %zu events of %u threads come out in stable timestamp order, payloads and pointer sizes intact",
	       what, n, threads);
	/* The window is empty and reusable after a flush. */
	ngot = 0;
	or_reorder_flush(&q, collect, NULL);
	tap_ok(ngot == 0, "%s: a second flush hands on nothing", what);
	or_reorder_free(&q);
}

static int key_before(const struct ev *a, const struct ev *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->index < b->index;
}

/* Partial flushes while pushing: each hands on, in time order, the oldest
 * of the events held; every event comes out once. */
static void partial(const char *what, size_t n, unsigned threads, unsigned step)
{
	static uint8_t out[MAXEV];
	struct or_reorder q;
	size_t checkpoints = 0, bad_order = 0, bad_held = 0, bad_bytes = 0;
	size_t dup = 0, missing = 0;

	memset(&q, 0, sizeof q);
	memset(out, 0, sizeof out);
	make(n, threads, step, 0);
	ngot = nbad_payload = 0;
	for (size_t i = 0; i < n; i++) {
		size_t before, from = ngot;
		push(&q, i, (int)(i & 1));
		if (i % 2500 != 2499)
			continue;
		before = or_reorder_bytes(&q);
		or_reorder_flush_older(&q, collect, NULL);
		checkpoints++;
		if (or_reorder_bytes(&q) > before / 4 + 256)
			bad_bytes++;
		for (size_t k = from; k < ngot; k++) {
			if (k > from && key_before(&in[got[k]], &in[got[k - 1]]))
				bad_order++;
			out[got[k]] = 1;
		}
		/* What is still held is newer than what just went out. */
		if (ngot > from)
			for (size_t k = 0; k <= i; k++)
				if (!out[k] && key_before(&in[k], &in[got[ngot - 1]]))
					bad_held++;
	}
	or_reorder_flush(&q, collect, NULL);
	memset(out, 0, sizeof out);
	for (size_t k = 0; k < ngot; k++)
		if (out[got[k]]++)
			dup++;
	for (size_t k = 0; k < n; k++)
		if (!out[k])
			missing++;
	tap_ok(checkpoints > 0 && ngot == n && !dup && !missing && !nbad_payload,
	       "%s: after %zu partial flushes every event came out once, payloads intact (%zu missing, %zu twice)",
	       what, checkpoints, missing, dup);
	tap_ok(!bad_order && !bad_held,
	       "%s: each partial flush hands on the oldest events held, in time order (%zu out of order, %zu older left behind)",
	       what, bad_order, bad_held);
	tap_ok(!bad_bytes, "%s: a partial flush keeps at most a quarter of the bytes held", what);
	or_reorder_free(&q);
}

int main(void)
{
	rng_state = 12345;
	whole("one thread", 5000, 1, 0, 0, 0);
	whole("six threads", 20000, 6, 0, 0, 1);
	whole("six threads, many equal timestamps", 20000, 6, 0, 1, 0);
	whole("forty threads", 20000, 40, 0, 0, 1);
	whole("clocks stepping back", 20000, 6, 7, 0, 0);
	whole("clocks stepping back often", 20000, 3, 2, 1, 1);
	whole("one event", 1, 1, 0, 0, 1);
	partial("six threads", 20000, 6, 0);
	partial("clocks stepping back", 20000, 5, 5);
	return tap_done();
}
