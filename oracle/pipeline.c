/*
 * pipeline.c - reading on a thread of its own (see pipeline.h).
 *
 * The queue is NCHUNK chunks of CHUNK bytes, handed over whole: one lock
 * and signal a chunk (about two thousand events), not one an event. The
 * reading thread fills a chunk with records, in the order one thread would
 * have acted on them, and publishes it; it waits only when every chunk is
 * published and not yet taken. A record larger than a chunk (a long
 * payload) grows that chunk to hold it, so memory is bounded by the
 * reader's largest event.
 *
 * The reading side's loop is run.c's run_events with each event, note and
 * tick put in the queue: the one-thread path stays as it was.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check/check.h"
#include "oracle/pipeline.h"
#include "oracle/progress.h"

#define NCHUNK 4
#define CHUNK (256u * 1024u)

enum { R_EVENT, R_DIAG, R_TICK, R_END };

struct rec {
	uint32_t type;
	uint32_t size; /* of the whole record, a multiple of 8 */
};

struct rec_diag {
	unsigned code;
	uint64_t event, offset;
	uint32_t name_len; /* UINT32_MAX: no name */
	uint32_t msg_len;
};

struct chunk {
	uint8_t *buf;
	size_t len, cap;
};

struct or_pipe {
	struct or_ctx *ctx;   /* the run's: decode, check, output */
	or_pipe_process_fn process;
	/* The reading side's: its sink hands diagnostics on (or, when the
	 * run's prints none, counts them, added at the end); its window; the
	 * run's checker, of which it touches the timestamps alone. */
	struct or_ctx rd;
	int threaded;         /* the reading thread runs: put in the queue */
	int oom, lost;        /* out of memory: reading stopped, said at the end */
	const struct or_reader_ops *ops;
	struct or_reader *r;
	enum or_status st;
	uint64_t next, end_off;

	pthread_mutex_t mu;
	pthread_cond_t more, room;
	unsigned full;        /* chunks published, not yet taken */
	unsigned put, take;   /* the chunk being filled, the next to take */
	struct chunk ch[NCHUNK];
};

static void rd_diag(void *arg, const struct or_diag *d);

struct or_pipe *or_pipe_new(struct or_ctx *ctx, or_pipe_process_fn process)
{
	struct or_pipe *p = calloc(1, sizeof *p);

	if (!p)
		return NULL;
	for (int i = 0; i < NCHUNK; i++) {
		if (!(p->ch[i].buf = malloc(CHUNK))) {
			or_pipe_free(p);
			return NULL;
		}
		p->ch[i].cap = CHUNK;
	}
	p->ctx = ctx;
	p->process = process;
	or_diag_init(&p->rd.diag);
	p->rd.diag.strict = ctx->diag.strict;
	if (ctx->diag.emit) {
		p->rd.diag.emit = rd_diag;
		p->rd.diag.emit_arg = p;
	}
	p->rd.check = ctx->check;
	p->rd.info.pointer_size = 8;
	return p;
}

struct or_ctx *or_pipe_ctx(struct or_pipe *p)
{
	return &p->rd;
}

void or_pipe_free(struct or_pipe *p)
{
	if (!p)
		return;
	/* Forwarded diagnostics were counted by the run's sink. */
	for (unsigned i = 0; !p->rd.diag.emit && i < GCSPEC_NDIAGS; i++)
		p->ctx->diag.counts[i] += p->rd.diag.counts[i];
	for (int i = 0; !p->rd.diag.emit && i < 3; i++)
		p->ctx->diag.by_severity[i] += p->rd.diag.by_severity[i];
	for (int i = 0; i < NCHUNK; i++)
		free(p->ch[i].buf);
	free(p);
}

/* Reading side: hand the filled chunk over and take the next free one. */
static void publish(struct or_pipe *p)
{
	pthread_mutex_lock(&p->mu);
	p->full++;
	pthread_cond_signal(&p->more);
	p->put = (p->put + 1) % NCHUNK;
	while (p->full == NCHUNK)
		pthread_cond_wait(&p->room, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->ch[p->put].len = 0;
}

/* Room for a record of n bytes (header included) in the chunk being
 * filled, its header written; NULL when out of memory. */
static uint8_t *room(struct or_pipe *p, uint32_t type, size_t n)
{
	struct chunk *c = &p->ch[p->put];
	struct rec h;
	uint8_t *at;

	n = (n + 7) & ~(size_t)7;
	if (n > UINT32_MAX) {
		p->oom = 1;
		return NULL;
	}
	if (c->len + n > c->cap) {
		if (c->len) {
			publish(p);
			c = &p->ch[p->put];
		}
		if (n > c->cap) {
			uint8_t *b = realloc(c->buf, n);

			if (!b) {
				p->oom = 1;
				return NULL;
			}
			c->buf = b;
			c->cap = n;
		}
	}
	at = c->buf + c->len;
	c->len += n;
	h.type = type;
	h.size = (uint32_t)n;
	memcpy(at, &h, sizeof h);
	return at + sizeof h;
}

static void put_event(void *arg, const struct or_event *ev)
{
	struct or_pipe *p = arg;
	size_t plen = ev->payload ? ev->payload_len : 0;
	size_t mlen = ev->model_fields ? ev->model_fields_len : 0;
	size_t nlen = ev->provider_name ? strlen(ev->provider_name) + 1 : 0;
	uint8_t *at;

	if (!p->threaded) {
		p->process(p->ctx, ev);
		return;
	}
	if (p->oom ||
	    !(at = room(p, R_EVENT, sizeof(struct rec) + sizeof *ev + plen + mlen + nlen)))
		return;
	memcpy(at, ev, sizeof *ev);
	at += sizeof *ev;
	if (plen)
		memcpy(at, ev->payload, plen);
	at += plen;
	if (mlen)
		memcpy(at, ev->model_fields, mlen);
	at += mlen;
	if (nlen)
		memcpy(at, ev->provider_name, nlen);
}

static void rd_diag(void *arg, const struct or_diag *d)
{
	struct or_pipe *p = arg;
	struct rec_diag rd;
	size_t nlen = d->name ? strlen(d->name) + 1 : 0, mlen = strlen(d->message) + 1;
	uint8_t *at;

	if (!p->threaded) {
		or_report_diag(&p->ctx->diag, d);
		return;
	}
	if (p->oom || !(at = room(p, R_DIAG, sizeof(struct rec) + sizeof rd + nlen + mlen)))
		return;
	rd.code = d->code;
	rd.event = d->event;
	rd.offset = d->offset;
	rd.name_len = d->name ? (uint32_t)nlen : UINT32_MAX;
	rd.msg_len = (uint32_t)mlen;
	memcpy(at, &rd, sizeof rd);
	at += sizeof rd;
	if (nlen)
		memcpy(at, d->name, nlen);
	memcpy(at + nlen, d->message, mlen);
}

static void put_tick(struct or_pipe *p, uint64_t done)
{
	uint8_t *at;

	if (!p->threaded)
		or_progress_tick(p->ctx->progress, done);
	else if (!p->oom && (at = room(p, R_TICK, sizeof(struct rec) + sizeof done)))
		memcpy(at, &done, sizeof done);
}

/* run.c's run_events, on the reading side's context. */
static enum or_status read_events(struct or_pipe *p)
{
	struct or_ctx *rd = &p->rd;
	const struct or_stream_info *info = &p->ctx->info;
	struct or_event ev;
	enum or_status st;

	for (;;) {
		int kept;

		if ((st = p->ops->next(p->r, &ev)) <= OR_END || p->oom)
			break;
		if (st == OR_SYNC) {
			or_reorder_flush(&rd->reorder, put_event, p);
			continue;
		}
		p->next = ev.index + 1;
		p->end_off = ev.payload_offset + ev.payload_len;
		if (p->ctx->progress && !(ev.index & 0xFFFF))
			put_tick(p, ev.payload_offset);
		if (info->unordered != OR_BY_PROCESSOR)
			or_check_timestamp(rd, &ev);
		if (!info->unordered) {
			put_event(p, &ev);
			continue;
		}
		kept = or_reorder_add(&rd->reorder, &ev);
		if (kept > 0) {
			or_reorder_flush_older(&rd->reorder, put_event, p);
		} else if (kept < 0) {
			or_reorder_flush(&rd->reorder, put_event, p);
			put_event(p, &ev);
		}
	}
	or_reorder_flush(&rd->reorder, put_event, p);
	or_reorder_free(&rd->reorder);
	return p->oom ? OR_IOERR : st;
}

static void *reading_thread(void *arg)
{
	struct or_pipe *p = arg;

	p->st = read_events(p);
	p->lost = p->oom;
	p->oom = 0; /* an END record fits an emptied chunk */
	room(p, R_END, sizeof(struct rec));
	pthread_mutex_lock(&p->mu);
	p->full++;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Writing side: act on one chunk's records; 1 after the last. */
static int take_chunk(struct or_pipe *p, const struct chunk *c)
{
	for (size_t i = 0; i < c->len;) {
		const uint8_t *at = c->buf + i;
		struct rec h;

		memcpy(&h, at, sizeof h);
		at += sizeof h;
		i += h.size;
		switch (h.type) {
		case R_EVENT: {
			struct or_event ev;

			memcpy(&ev, at, sizeof ev);
			at += sizeof ev;
			if (ev.payload) {
				ev.payload = at;
				at += ev.payload_len;
			}
			if (ev.model_fields) {
				ev.model_fields = at;
				at += ev.model_fields_len;
			}
			if (ev.provider_name)
				ev.provider_name = (const char *)at;
			ev.block = NULL;
			p->process(p->ctx, &ev);
			break;
		}
		case R_DIAG: {
			struct rec_diag rd;
			struct or_diag d;

			memcpy(&rd, at, sizeof rd);
			at += sizeof rd;
			memset(&d, 0, sizeof d);
			d.code = rd.code;
			d.event = rd.event;
			d.offset = rd.offset;
			d.name = rd.name_len == UINT32_MAX ? NULL : (const char *)at;
			d.message = (const char *)at + (rd.name_len == UINT32_MAX ? 0 : rd.name_len);
			or_report_diag(&p->ctx->diag, &d);
			break;
		}
		case R_TICK: {
			uint64_t done;

			memcpy(&done, at, sizeof done);
			or_progress_tick(p->ctx->progress, done);
			break;
		}
		default:
			return 1;
		}
	}
	return 0;
}

enum or_status or_pipe_run(struct or_pipe *p, const struct or_reader_ops *ops,
                           struct or_reader *r, uint64_t *next, uint64_t *end_off)
{
	pthread_t t;
	int done = 0;

	p->ops = ops;
	p->r = r;
	p->next = *next;
	p->end_off = *end_off;
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		goto one_thread;
	if (pthread_cond_init(&p->more, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		goto one_thread;
	}
	if (pthread_cond_init(&p->room, NULL) != 0) {
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->mu);
		goto one_thread;
	}
	p->threaded = 1;
	if (pthread_create(&t, NULL, reading_thread, p) != 0) {
		p->threaded = 0;
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->mu);
		goto one_thread;
	}
	while (!done) {
		pthread_mutex_lock(&p->mu);
		while (!p->full)
			pthread_cond_wait(&p->more, &p->mu);
		pthread_mutex_unlock(&p->mu);
		done = take_chunk(p, &p->ch[p->take]);
		pthread_mutex_lock(&p->mu);
		p->full--;
		p->take = (p->take + 1) % NCHUNK;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_join(t, NULL);
	p->threaded = 0;
	pthread_cond_destroy(&p->room);
	pthread_cond_destroy(&p->more);
	pthread_mutex_destroy(&p->mu);
	if (p->lost)
		fputs("gcoracle: out of memory in the reading thread's queue\n", stderr);
	goto out;
one_thread:
	p->st = read_events(p);
out:
	*next = p->next;
	*end_off = p->end_off;
	return p->st;
}
