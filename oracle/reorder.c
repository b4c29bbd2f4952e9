/*
 * reorder.c - the time-order window (see reorder.h): per-thread runs in
 * file order, merged by a binary heap keyed by (timestamp, file index).
 *
 * Any split of the window into runs that are each in (timestamp, index)
 * order merges into exactly the order a stable sort would give, so a
 * thread whose clock steps back simply starts a new run.
 */
#include <stdlib.h>
#include <string.h>

#include "reorder.h"

#define NONE UINT32_MAX

struct or_rlink {
	uint32_t at;               /* payload's first byte in q->bytes; the
	                              model fields follow the payload */
	uint32_t next;             /* next event of the same run, or NONE */
	uint32_t newpos;           /* where a partial flush moves it */
	uint32_t gone;             /* handed on by a partial flush */
};

struct or_rrun {
	uint64_t last_ts;
	uint32_t head, tail;
};

struct or_rheap {
	uint64_t ts, index;
	uint32_t run;
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	return x ^ (x >> 33);
}

/* The thread's current run, or NONE. */
static uint32_t thread_run(const struct or_reorder *q, uint64_t tid)
{
	if (!q->tcap)
		return NONE;
	for (size_t i = mix(tid) & (q->tcap - 1);; i = (i + 1) & (q->tcap - 1)) {
		if (q->tval[i] == NONE)
			return NONE;
		if (q->tkey[i] == tid)
			return q->tval[i];
	}
}

static void thread_clear(struct or_reorder *q)
{
	if (q->tcap)
		memset(q->tval, 0xff, q->tcap * sizeof *q->tval);
	q->tn = 0;
	q->last_run = NONE;
}

static int thread_set(struct or_reorder *q, uint64_t tid, uint32_t run)
{
	size_t i;

	if ((q->tn + 1) * 2 > q->tcap) {
		size_t cap = q->tcap ? q->tcap * 2 : 64;
		uint64_t *k = malloc(cap * sizeof *k);
		uint32_t *v = malloc(cap * sizeof *v);
		uint64_t *ok = q->tkey;
		uint32_t *ov = q->tval;
		size_t ocap = q->tcap;

		if (!k || !v) {
			free(k);
			free(v);
			return -1;
		}
		memset(v, 0xff, cap * sizeof *v);
		q->tkey = k;
		q->tval = v;
		q->tcap = cap;
		q->tn = 0;
		for (size_t j = 0; j < ocap; j++)
			if (ov[j] != NONE)
				thread_set(q, ok[j], ov[j]);
		free(ok);
		free(ov);
	}
	for (i = mix(tid) & (q->tcap - 1); q->tval[i] != NONE && q->tkey[i] != tid;
	     i = (i + 1) & (q->tcap - 1))
		;
	if (q->tval[i] == NONE)
		q->tn++;
	q->tkey[i] = tid;
	q->tval[i] = run;
	return 0;
}

/* A new empty run; the heap grows with the runs so that flushing never
 * allocates. NONE when memory runs out. */
static uint32_t new_run(struct or_reorder *q)
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

/* Append event i to its thread's run (a new run when the thread's clock
 * stepped back). 0, or -1 when memory runs out. */
static int link_rec(struct or_reorder *q, uint32_t i)
{
	const struct or_event *x = &q->ev[i];
	struct or_rrun *run;
	uint32_t r;

	r = q->last_run < q->nruns && q->last_thread == x->thread_id
	    ? q->last_run : thread_run(q, x->thread_id);
	if (r == NONE || x->timestamp < q->runs[r].last_ts) {
		r = new_run(q);
		if (r == NONE || thread_set(q, x->thread_id, r))
			return -1;
	}
	q->last_thread = x->thread_id;
	q->last_run = r;
	run = &q->runs[r];
	q->link[i].next = NONE;
	if (run->tail == NONE)
		run->head = i;
	else
		q->link[run->tail].next = i;
	run->tail = i;
	run->last_ts = x->timestamp;
	return 0;
}

struct or_event *or_reorder_grow(struct or_reorder *q)
{
	if (q->n >= NONE - 1)
		return NULL;
	if (q->n == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct or_event *e = realloc(q->ev, cap * sizeof *e);
		struct or_rlink *l;
		if (!e)
			return NULL;
		q->ev = e;
		l = realloc(q->link, cap * sizeof *l);
		if (!l)
			return NULL;
		q->link = l;
		q->cap = cap;
	}
	return &q->ev[q->n];
}

int or_reorder_commit(struct or_reorder *q)
{
	struct or_event *x = &q->ev[q->n];
	size_t flen = x->model_fields ? x->model_fields_len : 0;
	size_t need = (size_t)x->payload_len + flen;

	if (q->used + need > UINT32_MAX)
		return -1;
	if (q->used + need > q->bcap) {
		size_t cap = q->bcap ? q->bcap : 1u << 20;
		uint8_t *b;
		while (cap < q->used + need)
			cap *= 2;
		b = realloc(q->bytes, cap);
		if (!b)
			return -1;
		q->bytes = b;
		q->bcap = cap;
	}
	if (link_rec(q, (uint32_t)q->n))
		return -1;
	if (x->payload_len)
		memcpy(q->bytes + q->used, x->payload, x->payload_len);
	if (flen)
		memcpy(q->bytes + q->used + x->payload_len, x->model_fields, flen);
	x->model_fields_len = flen;
	/* The pointers are set again when the event is handed on. */
	x->payload = NULL;
	x->model_fields = NULL;
	q->link[q->n].at = (uint32_t)q->used;
	q->link[q->n].gone = 0;
	q->used += need;
	q->n++;
	return or_reorder_bytes(q) >= OR_REORDER_MAX_BYTES;
}

int or_reorder_push(struct or_reorder *q, const struct or_event *ev)
{
	struct or_event *slot = or_reorder_slot(q);

	if (!slot)
		return -1;
	*slot = *ev;
	return or_reorder_commit(q) < 0 ? -1 : 0;
}

size_t or_reorder_bytes(const struct or_reorder *q)
{
	return q->n * (sizeof *q->ev + sizeof *q->link) + q->used;
}

static void emit(struct or_reorder *q, uint32_t i,
                 void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	struct or_event *e = &q->ev[i];
	uint32_t at = q->link[i].at;

	/* No payload byte yet may mean no buffer yet. */
	e->payload = q->bytes ? q->bytes + at : NULL;
	e->model_fields = e->model_fields_len ? q->bytes + at + e->payload_len : NULL;
	fn(arg, e);
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

/* Hand on events in time order until at most `keep` bytes of records and
 * payloads remain (0: all). */
static void merge(struct or_reorder *q, size_t keep,
                  void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	struct or_rheap *h = q->heap;
	size_t n = 0, held = or_reorder_bytes(q);

	for (size_t r = 0; r < q->nruns; r++)
		if (q->runs[r].head != NONE) {
			const struct or_event *x = &q->ev[q->runs[r].head];
			h[n].ts = x->timestamp;
			h[n].index = x->index;
			h[n].run = (uint32_t)r;
			n++;
		}
	for (size_t i = n / 2; i-- > 0;)
		sift_down(h, n, i);
	while (n > 0 && held > keep) {
		struct or_rrun *run = &q->runs[h[0].run];
		uint32_t i = run->head;
		const struct or_event *x;

		emit(q, i, fn, arg);
		q->link[i].gone = 1;
		held -= sizeof *q->ev + sizeof *q->link + q->ev[i].payload_len +
		        q->ev[i].model_fields_len;
		run->head = q->link[i].next;
		if (run->head == NONE) {
			run->tail = NONE;
			h[0] = h[--n];
		} else {
			x = &q->ev[run->head];
			h[0].ts = x->timestamp;
			h[0].index = x->index;
		}
		if (n > 1)
			sift_down(h, n, 0);
	}
}

static void reset(struct or_reorder *q)
{
	q->n = 0;
	q->used = 0;
	q->nruns = 0;
	thread_clear(q);
}

void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	merge(q, 0, fn, arg);
	reset(q);
}

/* Rebuild the runs and the thread table over the events left: drops the
 * runs a partial flush emptied. Out of memory, hand the events on in file
 * order instead. */
static void relink(struct or_reorder *q,
                   void (*fn)(void *arg, const struct or_event *ev), void *arg)
{
	size_t n = q->n;

	q->nruns = 0;
	thread_clear(q);
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
	size_t j = 0, used = 0, n = q->n, live = 0;

	/* Keep the newest quarter: enough for any block's worth of events
	 * to find its place, while each event is moved at most a few times
	 * on average. */
	merge(q, or_reorder_bytes(q) / 4, fn, arg);
	/* Keep what is left at the front, in file order. Runs lose only
	 * their heads, so what follows an event that is left is left too:
	 * renumber the links instead of building the runs again. */
	for (size_t i = 0; i < n; i++)
		if (!q->link[i].gone)
			q->link[i].newpos = (uint32_t)j++;
	for (size_t r = 0; r < q->nruns; r++) {
		struct or_rrun *run = &q->runs[r];
		if (run->head == NONE)
			continue;
		run->head = q->link[run->head].newpos;
		run->tail = q->link[run->tail].newpos;
		live++;
	}
	j = 0;
	for (size_t i = 0; i < n; i++) {
		struct or_rlink *l = &q->link[i];
		uint32_t len = q->ev[i].payload_len + (uint32_t)q->ev[i].model_fields_len;
		if (l->gone)
			continue;
		if (l->next != NONE)
			l->next = q->link[l->next].newpos;
		if (len)
			memmove(q->bytes + used, q->bytes + l->at, len);
		l->at = (uint32_t)used;
		used += len;
		if (j != i) {
			q->ev[j] = q->ev[i];
			q->link[j] = *l;
		}
		j++;
	}
	q->n = j;
	q->used = used;
	/* Emptied runs stay (a thread's current run may be one); when they
	 * outnumber the others, start the runs afresh. */
	if (q->nruns > 2 * live + 64)
		relink(q, fn, arg);
}

void or_reorder_free(struct or_reorder *q)
{
	free(q->ev);
	free(q->link);
	free(q->bytes);
	free(q->runs);
	free(q->tkey);
	free(q->tval);
	free(q->heap);
	memset(q, 0, sizeof *q);
}
