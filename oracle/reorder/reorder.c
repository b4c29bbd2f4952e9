/*
 * reorder.c - the time-order window (see reorder.h): runs of events in file
 * order and in time order, merged by a binary heap keyed by (timestamp,
 * file index).
 *
 * Any split of the window into runs that are each in (timestamp, index)
 * order merges into exactly the order a stable sort would give, so an
 * event earlier than the one before it in the file simply starts a new
 * run. (Runs were per thread before: the same order, with a thread table
 * to look up per event and a heap entry per thread even where the file is
 * in time order already; docs/oracle-performance.md.)
 *
 * The records are small (64 bytes) because the window is larger than any
 * cache: every byte a record has is written once and read once from
 * memory. What events share (their class) is kept once in reorder_class.c;
 * payloads stay in the readers' blocks (or_rpin says which and for how
 * many events).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/reorder/reorder.h"
#include "oracle/reorder/reorder_i.h"

/* A run is a stretch of the file: records head to tail, one after the
 * other (NONE, NONE when emptied), and the runs follow each other in file
 * order, so the window needs no links between records and no marks of
 * which are gone. */
struct or_rrun {
	uint64_t last_ts;
	uint32_t head, tail;
};

struct or_rheap {
	uint64_t ts, index;
	uint32_t run;
};

/* A block the window holds, and for how many of its events. */
struct or_rpin {
	struct or_block *b;
	uint32_t events;
	uint32_t next_free;        /* the next free slot + 1, or 0 */
};

/* --- runs ------------------------------------------------------------------ */

/* A new empty run; the heap grows with the runs so that flushing never
 * allocates. NONE when memory runs out. */
static OR_R_NOINLINE uint32_t new_run(struct or_reorder *q)
{
	if (q->nruns == q->capruns) {
		size_t cap = q->capruns ? q->capruns * 2 : 64;
		struct or_rrun *r;
		struct or_rheap *h;

		if (cap >= NONE)
			return NONE;
		r = realloc(q->runs, cap * sizeof *r);
		if (!r)
			return NONE;
		q->runs = r;
		q->capruns = cap;
		h = realloc(q->heap, cap * sizeof *h);
		if (!h)
			return NONE;
		q->heap = h;
		q->heapcap = cap;
	}
	q->runs[q->nruns].head = q->runs[q->nruns].tail = NONE;
	q->runs[q->nruns].last_ts = 0;
	return (uint32_t)q->nruns++;
}

/* Append event i, the one after the run's tail (or the first of an empty
 * run), to run r. */
static inline void append(struct or_reorder *q, uint32_t r, uint32_t i)
{
	struct or_rrun *run = &q->runs[r];

	if (run->tail == NONE)
		run->head = i;
	run->tail = i;
	run->last_ts = q->rec[i].ts;
}

/* Append event i to the last event's run, or to a new one when it is
 * earlier than that (file indexes only grow, so its timestamp decides).
 * 0, or -1 when memory runs out. */
static inline int link_rec(struct or_reorder *q, uint32_t i)
{
	uint32_t r = q->last_run;

	if (r >= q->nruns || q->rec[i].ts < q->runs[r].last_ts) {
		r = new_run(q);
		if (r == NONE)
			return -1;
		q->last_run = r;
	}
	append(q, r, i);
	return 0;
}

/* --- payloads: held blocks and copies --------------------------------------- */

/* Hold block b for one more event: its pin slot, or NONE. */
static OR_R_NOINLINE uint32_t pin_new(struct or_reorder *q, struct or_block *b)
{
	uint32_t s;

	if (q->pin_free) {
		s = q->pin_free - 1;
		q->pin_free = q->pins[s].next_free;
	} else {
		if (q->npins == q->cappins) {
			size_t cap = q->cappins ? q->cappins * 2 : 64;
			struct or_rpin *p = realloc(q->pins, cap * sizeof *p);
			if (!p || cap >= NONE)
				return NONE;
			q->pins = p;
			q->cappins = cap;
		}
		s = (uint32_t)q->npins++;
	}
	or_block_hold(b);
	q->pins[s].b = b;
	q->pins[s].events = 1;
	q->pinned += b->cap;
	q->last_pin = s;
	return s;
}

/* The same; most events lie in the block the last one did. */
static inline uint32_t pin(struct or_reorder *q, struct or_block *b)
{
	uint32_t s = q->last_pin;

	if (s < q->npins && q->pins[s].b == b && q->pins[s].events) {
		q->pins[s].events++;
		return s;
	}
	return pin_new(q, b);
}

/* The last event of a held block has gone: let the block go. */
static OR_R_NOINLINE void unpin_last(struct or_reorder *q, uint32_t s)
{
	struct or_rpin *p = &q->pins[s];

	q->pinned -= p->b->cap;
	or_block_drop(p->b);
	p->b = NULL;
	p->next_free = q->pin_free;
	q->pin_free = s + 1;
}

static inline void unpin(struct or_reorder *q, uint32_t s)
{
	if (!--q->pins[s].events)
		unpin_last(q, s);
}

/* Room for n more copied bytes. 0, or -1. */
static int bytes_room(struct or_reorder *q, size_t n)
{
	size_t cap;
	uint8_t *b;

	if (q->used + n > UINT32_MAX)
		return -1;
	if (q->used + n <= q->bcap)
		return 0;
	cap = q->bcap ? q->bcap : 1u << 20;
	while (cap < q->used + n)
		cap *= 2;
	b = realloc(q->bytes, cap);
	if (!b)
		return -1;
	q->bytes = b;
	q->bcap = cap;
	return 0;
}

/* Copy a payload and model fields: the length of the fields, then both. */
static uint32_t copy_in(struct or_reorder *q, const uint8_t *payload, uint32_t len,
                        const void *fields, uint32_t flen)
{
	uint32_t at = (uint32_t)q->used;

	memcpy(q->bytes + at, &flen, 4);
	if (len)
		memcpy(q->bytes + at + 4, payload, len);
	if (flen)
		memcpy(q->bytes + at + 4 + len, fields, flen);
	q->used += 4 + (size_t)len + flen;
	return at;
}

/* The window holds more of readers' blocks than OR_REORDER_MAX_PINNED:
 * copy the payloads it borrows and let the blocks go. Out of memory, it
 * keeps holding them. */
static void unpin_all(struct or_reorder *q)
{
	size_t need = 0;

	for (size_t i = 0; i < q->n; i++)
		if (q->rec[i].payload)
			need += 4 + (size_t)q->rec[i].len;
	if (bytes_room(q, need))
		return;
	for (size_t i = 0; i < q->n; i++) {
		struct or_rrec *r = &q->rec[i];
		if (!r->payload)
			continue;
		uint32_t s = r->aux;
		r->aux = copy_in(q, r->payload, r->len, NULL, 0);
		r->payload = NULL;
		unpin(q, s);
	}
}

/* --- adding -------------------------------------------------------------------------- */

/* Record r's payload (and model fields) copied, not borrowed. 0, or -1. */
static OR_R_NOINLINE int add_copy(struct or_reorder *q, struct or_rrec *r,
                                  const struct or_event *ev, uint32_t flen)
{
	if ((size_t)ev->payload_len + flen + 4 > UINT32_MAX ||
	    bytes_room(q, 4 + (size_t)ev->payload_len + flen))
		return -1;
	r->payload = NULL;
	r->aux = copy_in(q, ev->payload, ev->payload_len, ev->model_fields, flen);
	return 0;
}

static OR_R_NOINLINE int grow(struct or_reorder *q)
{
	size_t cap = q->cap ? q->cap * 2 : 4096;
	struct or_rrec *r;

	if (q->n >= NONE - 1)
		return -1;
	/* Records on cache-line boundaries: one line each. */
	if (posix_memalign((void **)&r, 64, cap * sizeof *r))
		return -1;
	if (q->n)
		memcpy(r, q->rec, q->n * sizeof *r);
	free(q->rec);
	q->rec = r;
	q->cap = cap;
	return 0;
}

int or_reorder_add(struct or_reorder *q, const struct or_event *ev)
{
	uint32_t flen = ev->model_fields ? (uint32_t)ev->model_fields_len : 0;
	uint32_t i = (uint32_t)q->n;
	struct or_rrec *r;
	uint32_t cls;

	if (q->n == q->cap && grow(q))
		return -1;
	cls = or_rclass_get(q, ev);
	if (cls == NONE)
		return -1;
	r = &q->rec[i];
	r->ts = ev->timestamp;
	r->index = ev->index;
	r->offset = ev->offset;
	r->payload_offset = ev->payload_offset;
	r->thread_id = ev->thread_id;
	r->process = ev->process;
	r->len = ev->payload_len;
	r->cls = cls;
	if (ev->block && !flen) {
		uint32_t s = pin(q, ev->block);
		if (s == NONE)
			return -1;
		r->payload = ev->payload;
		r->aux = s;
	} else if (add_copy(q, r, ev, flen)) {
		return -1;
	}
	if (link_rec(q, i)) {
		if (r->payload)
			unpin(q, r->aux);
		return -1;
	}
	q->n = i + 1;
	q->held += OR_REORDER_EVENT_COST + (size_t)ev->payload_len + flen;
	if (q->pinned > OR_REORDER_MAX_PINNED)
		unpin_all(q);
	return q->held >= OR_REORDER_MAX_BYTES;
}

int or_reorder_commit(struct or_reorder *q)
{
	return or_reorder_add(q, &q->stage);
}

int or_reorder_push(struct or_reorder *q, const struct or_event *ev)
{
	return or_reorder_add(q, ev) < 0 ? -1 : 0;
}

size_t or_reorder_bytes(const struct or_reorder *q)
{
	return q->held;
}

/* --- handing on ---------------------------------------------------------------------- */

/* Hand on event i; what it counted for. */
static size_t emit(struct or_reorder *q, uint32_t i,
                   void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	const struct or_rrec *r = &q->rec[i];
	struct or_event *e = &q->out;
	uint32_t flen = 0;

	or_rclass_fill(q, r->cls, e);
	e->index = r->index;
	e->offset = r->offset;
	e->payload_offset = r->payload_offset;
	e->timestamp = r->ts;
	e->thread_id = r->thread_id;
	e->process = r->process;
	e->payload_len = r->len;
	e->block = NULL;
	if (r->payload) {
		e->payload = r->payload;
		e->model_fields = NULL;
		e->model_fields_len = 0;
		fn(arg, e);
		unpin(q, r->aux);
	} else {
		memcpy(&flen, q->bytes + r->aux, 4);
		e->payload = q->bytes + r->aux + 4;
		e->model_fields = flen ? e->payload + r->len : NULL;
		e->model_fields_len = flen;
		fn(arg, e);
	}
	return OR_REORDER_EVENT_COST + (size_t)r->len + flen;
}

static int before(const struct or_rheap *a, const struct or_rheap *b)
{
	return a->ts != b->ts ? a->ts < b->ts : a->index < b->index;
}

static void sift_down(struct or_rheap *h, size_t n, size_t i)
{
	struct or_rheap x = h[i];

	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(&h[c + 1], &h[c]))
			c++;
		if (!before(&h[c], &x))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

/* Hand on events in time order until at most `keep` bytes counted remain
 * (0: all). The run at the top of the heap goes on handing on events for
 * as long as its next one is still before every other run's: a thread's
 * events come in stretches, so the heap is put in order once a stretch,
 * not once an event. */
static void merge(struct or_reorder *q, size_t keep,
                  void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	struct or_rheap *h = q->heap;
	size_t n = 0;

	for (size_t r = 0; r < q->nruns; r++)
		if (q->runs[r].head != NONE) {
			const struct or_rrec *x = &q->rec[q->runs[r].head];
			h[n].ts = x->ts;
			h[n].index = x->index;
			h[n].run = (uint32_t)r;
			n++;
		}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(h, n, i);
	while (n > 0 && q->held > keep) {
		struct or_rrun *run = &q->runs[h[0].run];
		/* The earliest of the other runs' next events. */
		const struct or_rheap *second = n < 2 ? NULL :
			n > 2 && before(&h[2], &h[1]) ? &h[2] : &h[1];

		for (;;) {
			uint32_t i = run->head;
			const struct or_rrec *x;

			q->held -= emit(q, i, fn, arg);
			if (i == run->tail) {
				run->head = run->tail = NONE;
				h[0] = h[--n];
				if (n > 1)
					sift_down(h, n, 0);
				break;
			}
			run->head = i + 1;
			x = &q->rec[i + 1];
			h[0].ts = x->ts;
			h[0].index = x->index;
			if (second && before(second, &h[0])) {
				sift_down(h, n, 0);
				break;
			}
			if (q->held <= keep)
				break;
		}
	}
}

static void reset(struct or_reorder *q)
{
	q->n = 0;
	q->used = 0;
	q->held = 0;
	q->nruns = 0;
	q->last_run = NONE;
	or_rclass_reset(q);
}

void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	merge(q, 0, fn, arg);
	reset(q);
}

/* Rebuild the runs over the events left: drops the runs a partial flush
 * emptied. Out of memory, hand the events on in file
 * order instead. */
static void relink(struct or_reorder *q,
                   void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	size_t n = q->n;

	q->nruns = 0;
	q->last_run = NONE;
	for (size_t i = 0; i < n; i++) {
		if (link_rec(q, (uint32_t)i) == 0)
			continue;
		for (size_t k = 0; k < n; k++)
			emit(q, (uint32_t)k, fn, arg);
		reset(q);
		return;
	}
}

void or_reorder_flush_older(struct or_reorder *q,
                           void (*fn)(void *arg, const struct or_event *ev),
                           void *arg)
{
	size_t j = 0, used = 0, live = 0;

	/* Keep the newest quarter: enough for any block's worth of events
	 * to find its place, while each event is moved at most a few times
	 * on average. */
	merge(q, q->held / 4, fn, arg);
	/* Keep what is left at the front, in file order: each run's stretch
	 * from its head, the runs in their order (that of the file). */
	for (size_t k = 0; k < q->nruns; k++) {
		struct or_rrun *run = &q->runs[k];
		uint32_t first = run->head;

		if (first == NONE)
			continue;
		for (uint32_t i = first; i <= run->tail; i++, j++) {
			struct or_rrec *r = &q->rec[i];

			if (!r->payload) {
				uint32_t flen, len;
				memcpy(&flen, q->bytes + r->aux, 4);
				len = 4 + r->len + flen;
				memmove(q->bytes + used, q->bytes + r->aux, len);
				r->aux = (uint32_t)used;
				used += len;
			}
			if (j != i)
				q->rec[j] = *r;
		}
		run->head = (uint32_t)(j - (run->tail - first + 1));
		run->tail = (uint32_t)(j - 1);
		live++;
	}
	q->n = j;
	q->used = used;
	or_rclass_compact(q);
	/* Emptied runs stay (the last event's run may be one); when they
	 * outnumber the others, start the runs afresh. */
	if (q->nruns > 2 * live + 64)
		relink(q, fn, arg);
}

void or_reorder_free(struct or_reorder *q)
{
	for (size_t s = 0; s < q->npins; s++)
		if (q->pins[s].b)
			or_block_drop(q->pins[s].b);
	free(q->rec);
	free(q->bytes);
	free(q->runs);
	free(q->heap);
	free(q->pins);
	or_rclass_free(q);
	memset(q, 0, sizeof *q);
}
