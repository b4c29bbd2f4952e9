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
 * The reading side runs run.c's loop (run_loop.h) with each event, note
 * and tick put in the queue: the one-thread path stays as it was.
 *
 * Where the stages part depends on what is written. With nothing written
 * per event (--quiet, text) the writing side decodes and checks: reading
 * and windowing are already the larger part (about two thirds on
 * nettrace). With every event written (--json, --cbor) the output alone is
 * more than half, so the reading side
 * also decodes (the checker's fields only) and checks, and the writing
 * side decodes each event whole, silently (what it would say was said on
 * the reading side), and writes it. Either way every diagnostic and event
 * reaches the writing side in the order one thread makes them.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/decode/decode.h"
#include "oracle/pipeline.h"
#include "oracle/progress.h"
#include "oracle/run_loop.h"

/* 4 MiB in all. The window hands on at each sequence point about what the
 * runtime wrote since the last (10 MiB of blocks) in one burst and nothing
 * while it fills: with 1 MiB one thread waited for the other through
 * every burst (--threads 2 took 0.99 of one thread's wall time on --quiet,
 * 0.92 on --json; with 4 MiB 0.80 and 0.72; more gained nothing,
 * docs/oracle-performance.md). */
#define NCHUNK 16
#define CHUNK (256u * 1024u)

enum { R_EVENT, R_DIAG, R_TICK, R_PROC, R_END };

/* A process start or end a reader saw (or_note_process). */
struct rec_proc {
	uint64_t timestamp;
	uint32_t what, pid;
};

struct rec {
	uint32_t type;
	uint32_t size; /* of the whole record, a multiple of 8 */
};

/* An event: what the writing side reads of it (decode, check, output) in
 * 64 bytes; then its payload, its model fields (their length first) and,
 * for a provider outside the spec, the provider's name, each padded to 8.
 * Not carried: keywords and writer_thread, read on the reading side alone
 * (GC-S023), and cls and block, the reader's. */
struct rec_event {
	uint64_t index, offset, payload_offset, timestamp, thread_id;
	uint32_t payload_len;
	uint32_t process;
	int32_t provider;
	uint16_t id;
	uint8_t version, level, opcode, pointer_size;
	uint8_t has;          /* HAS_ bits */
	uint8_t pad;
};

enum { HAS_PAYLOAD = 1, HAS_MODEL = 2, HAS_NAME = 4 };

#define PAD8(n) (((size_t)(n) + 7) & ~(size_t)7)

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

/* The two threads run on two cores: what one of them writes for every
 * event must not share a cache line with what the other reads (each such
 * write would send the line across and back, which cost more than the
 * whole hand-over). So the reading side's, the writing side's and the
 * shared fields each begin a line of their own. */
#define LINE 64

struct or_pipe {
	/* Set before the reading thread starts; read by both. */
	struct or_ctx *ctx;   /* the run's: decode, check, output */
	or_pipe_process_fn process;
	const struct or_reader_ops *ops;
	struct or_reader *r;
	int threaded;         /* the reading thread runs: put in the queue */
	int checks;           /* the reading side decodes and checks (above) */

	/* The reading side's. Its context: its sink hands diagnostics on (or,
	 * when the run's prints none, counts them, added at the end); its
	 * window; the run's checker, of which it touches the timestamps alone. */
	_Alignas(LINE) struct or_ctx rd;
	size_t fill;          /* bytes in the chunk being filled (ch[put]) */
	unsigned put;         /* the chunk being filled */
	int oom, lost;        /* out of memory: reading stopped, said at the end */
	enum or_status st;
	uint64_t next, end_off;

	/* The writing side's. When the reading side checks, quiet is the
	 * context its whole decoding of an event runs in: the stream's pointer
	 * size, a sink that only counts (the counts are dropped). */
	_Alignas(LINE) unsigned take; /* the next chunk to take */
	struct or_ctx quiet;

	/* Shared, under mu: a chunk's len is set when it is published. */
	_Alignas(LINE) pthread_mutex_t mu;
	pthread_cond_t more, room;
	unsigned full;        /* chunks published, not yet taken */
	struct chunk ch[NCHUNK];
};

static void rd_diag(void *arg, const struct or_diag *d);
static void put_process(void *arg, unsigned what, uint32_t pid, uint64_t timestamp);

struct or_pipe *or_pipe_new(struct or_ctx *ctx, or_pipe_process_fn process)
{
	/* Aligned as its lines (above); sizeof is a multiple of LINE. */
	struct or_pipe *p = aligned_alloc(LINE, sizeof *p);

	if (!p)
		return NULL;
	memset(p, 0, sizeof *p);
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
	p->rd.keep = ctx->keep;
	p->rd.unknown_seen = ctx->unknown_seen;
	p->rd.info.pointer_size = 8;
	or_diag_init(&p->quiet.diag);
	/* The reader is opened with this context: a compressed .etl file's
	 * reader takes its worker threads from it (etl_adapter.c). */
	p->rd.threads = ctx->threads;
	p->rd.on_process = put_process;
	p->rd.on_process_arg = p;
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
	p->ch[p->put].len = p->fill;
	p->full++;
	pthread_cond_signal(&p->more);
	p->put = (p->put + 1) % NCHUNK;
	while (p->full == NCHUNK)
		pthread_cond_wait(&p->room, &p->mu);
	pthread_mutex_unlock(&p->mu);
	p->fill = 0;
}

/* room() when the chunk being filled has no room for n bytes: publish it
 * and, for a record larger than a chunk, grow the next. */
static struct chunk *room_slow(struct or_pipe *p, size_t n)
{
	struct chunk *c = &p->ch[p->put];

	if (n > UINT32_MAX) {
		p->oom = 1;
		return NULL;
	}
	if (p->fill) {
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
	return c;
}

/* Room for a record of n bytes (header included) in the chunk being
 * filled, its header written; NULL when out of memory. Records are
 * 8-aligned and written and read in place. */
static inline void *room(struct or_pipe *p, uint32_t type, size_t n)
{
	struct chunk *c = &p->ch[p->put];
	struct rec *h;

	n = PAD8(n);
	if (p->fill + n > c->cap && !(c = room_slow(p, n)))
		return NULL;
	h = (struct rec *)(void *)(c->buf + p->fill);
	p->fill += n;
	h->type = type;
	h->size = (uint32_t)n;
	return h + 1;
}

static void put_event(void *arg, const struct or_event *ev)
{
	struct or_pipe *p = arg;
	size_t plen = ev->payload ? PAD8(ev->payload_len) : 0;
	size_t mlen = ev->model_fields ? sizeof(uint64_t) + PAD8(ev->model_fields_len) : 0;
	/* The writing side reads the name of a provider outside the spec only. */
	const char *name = ev->provider < 0 ? ev->provider_name : NULL;
	size_t nlen = name ? strlen(name) + 1 : 0;
	struct rec_event *e;
	uint8_t *at;

	if (!p->threaded) {
		p->process(p->ctx, ev);
		return;
	}
	if (p->oom ||
	    !(e = room(p, R_EVENT, sizeof(struct rec) + sizeof *e + plen + mlen + nlen)))
		return;
	e->index = ev->index;
	e->offset = ev->offset;
	e->payload_offset = ev->payload_offset;
	e->timestamp = ev->timestamp;
	e->thread_id = ev->thread_id;
	e->process = ev->process;
	e->payload_len = ev->payload_len;
	e->provider = ev->provider;
	e->id = ev->id;
	e->version = ev->version;
	e->level = ev->level;
	e->opcode = ev->opcode;
	e->pointer_size = ev->pointer_size;
	e->has = (uint8_t)((ev->payload ? HAS_PAYLOAD : 0) | (ev->model_fields ? HAS_MODEL : 0) |
	                   (name ? HAS_NAME : 0));
	e->pad = 0;
	at = (uint8_t *)(e + 1);
	if (plen) {
		memcpy(at, ev->payload, ev->payload_len);
		at += plen;
	}
	if (mlen) {
		*(uint64_t *)(void *)at = ev->model_fields_len;
		memcpy(at + sizeof(uint64_t), ev->model_fields, ev->model_fields_len);
		at += mlen;
	}
	if (nlen)
		memcpy(at, name, nlen);
}

/* The reading side's event when it checks (only while the reading thread
 * runs: checks is never set otherwise): decoded and checked on its
 * context (no output there), then in the queue for the writing side. */
static void check_event(void *arg, const struct or_event *ev)
{
	struct or_pipe *p = arg;

	p->process(&p->rd, ev);
	put_event(arg, ev);
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

static void put_tick(void *arg, uint64_t done)
{
	struct or_pipe *p = arg;
	uint64_t *at;

	if (!p->threaded)
		or_progress_tick(p->ctx->progress, done);
	else if (!p->oom && (at = room(p, R_TICK, sizeof(struct rec) + sizeof done)))
		*at = done;
}

/* A reader's process start or end goes where the checker runs: here when
 * the reading side checks, else in the queue, in order with the events. */
static void put_process(void *arg, unsigned what, uint32_t pid, uint64_t timestamp)
{
	struct or_pipe *p = arg;
	struct rec_proc *at;

	if (!p->threaded || p->checks)
		or_check_process(p->ctx->check, what, pid, timestamp);
	else if (!p->oom && (at = room(p, R_PROC, sizeof(struct rec) + sizeof *at))) {
		at->timestamp = timestamp;
		at->what = what;
		at->pid = pid;
	}
}

/* run.c's event loop on the reading side's context, into the queue. The
 * stream's order and progress are read once: the run's context lies in
 * lines the writing thread writes. */
static enum or_status read_events(struct or_pipe *p)
{
	enum or_status st = or_run_loop(&p->rd, p->ctx->info.unordered, p->ops, p->r,
	                                p->checks ? check_event : put_event,
	                                p->ctx->progress ? put_tick : NULL, p, &p->oom,
	                                &p->next, &p->end_off);

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
	p->ch[p->put].len = p->fill;
	p->full++;
	pthread_cond_signal(&p->more);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Writing side, when the reading side checked: the event decoded whole
 * and handed to the output, as or_process_event would. */
static void write_event(struct or_pipe *p, const struct or_event *ev)
{
	const struct gcspec_event *spec = NULL;
	struct or_decoded dec;

	if (ev->provider >= 0)
		spec = gcspec_lookup((unsigned)ev->provider, ev->id, ev->version);
	if (!spec) {
		p->ctx->on_event(p->ctx->on_event_arg, p->ctx, ev, NULL);
		return;
	}
	or_decode(&p->quiet, ev, spec, &dec);
	p->ctx->on_event(p->ctx->on_event_arg, p->ctx, ev, &dec);
}

/* The reading side's counts, when it checked, into the run's. */
static void add_stats(struct or_stats *to, const struct or_stats *from)
{
	to->events += from->events;
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		to->per_event[i] += from->per_event[i];
	to->unknown_version += from->unknown_version;
	to->unknown_id += from->unknown_id;
	to->other_provider += from->other_provider;
	to->gcs += from->gcs;
	to->suspensions += from->suspensions;
	for (unsigned i = 0; i < from->nproc_gcs; i++)
		or_stats_proc_gcs(to, from->proc_gcs[i].process, from->proc_gcs[i].gcs);
	to->gcs_later += from->gcs_later;
}

/* Writing side: act on one chunk's records; 1 after the last. */
static int take_chunk(struct or_pipe *p, const struct chunk *c)
{
	for (size_t i = 0; i < c->len;) {
		const struct rec *h = (const void *)(c->buf + i);
		const uint8_t *at = (const uint8_t *)(h + 1);

		i += h->size;
		switch (h->type) {
		case R_EVENT: {
			const struct rec_event *e = (const void *)at;
			struct or_event ev;

			at = (const uint8_t *)(e + 1);
			ev.index = e->index;
			ev.offset = e->offset;
			ev.payload_offset = e->payload_offset;
			ev.timestamp = e->timestamp;
			ev.thread_id = e->thread_id;
			ev.process = e->process;
			ev.writer_thread = 0;
			ev.provider = e->provider;
			ev.provider_name = NULL;
			ev.id = e->id;
			ev.version = e->version;
			ev.level = e->level;
			ev.opcode = e->opcode;
			ev.keywords = 0;
			ev.payload = NULL;
			ev.payload_len = e->payload_len;
			ev.model_fields = NULL;
			ev.model_fields_len = 0;
			ev.block = NULL;
			ev.cls = 0;
			ev.pointer_size = e->pointer_size;
			if (e->has & HAS_PAYLOAD) {
				ev.payload = at;
				at += PAD8(e->payload_len);
			}
			if (e->has & HAS_MODEL) {
				uint64_t n = *(const uint64_t *)(const void *)at;

				ev.model_fields = at + sizeof n;
				ev.model_fields_len = (size_t)n;
				at += sizeof n + PAD8(n);
			}
			if (e->has & HAS_NAME)
				ev.provider_name = (const char *)at;
			if (p->checks)
				write_event(p, &ev);
			else
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
		case R_PROC: {
			struct rec_proc pr;

			memcpy(&pr, at, sizeof pr);
			or_check_process(p->ctx->check, pr.what, pr.pid, pr.timestamp);
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
	/* The reader has said what the stream is: both sides decode by it. */
	p->checks = p->ctx->on_event != NULL;
	p->rd.info = p->ctx->info;
	p->quiet.info = p->ctx->info;
	if (pthread_create(&t, NULL, reading_thread, p) != 0) {
		p->threaded = 0;
		p->checks = 0;
		pthread_cond_destroy(&p->room);
		pthread_cond_destroy(&p->more);
		pthread_mutex_destroy(&p->mu);
		goto one_thread;
	}
	while (!done) {
		struct chunk c;

		pthread_mutex_lock(&p->mu);
		while (!p->full)
			pthread_cond_wait(&p->more, &p->mu);
		c = p->ch[p->take];
		pthread_mutex_unlock(&p->mu);
		done = take_chunk(p, &c);
		pthread_mutex_lock(&p->mu);
		p->full--;
		p->take = (p->take + 1) % NCHUNK;
		pthread_cond_signal(&p->room);
		pthread_mutex_unlock(&p->mu);
	}
	pthread_join(t, NULL);
	p->threaded = 0;
	if (p->checks)
		add_stats(&p->ctx->stats, &p->rd.stats);
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
