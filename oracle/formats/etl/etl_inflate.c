/*
 * etl_inflate.c - a compressed .etl file's buffers, read in order and
 * expanded, ahead on worker threads when asked. See etl_inflate.h.
 *
 * Slots: ETL_INFLATE_AHEAD with workers (one of them is the buffer handed
 * on last, which the reader is still walking), one without. A slot is
 * FREE, READ (nothing to expand, or expanded), QUEUED (LZXPRESS data waits
 * for a thread) or WORKING. Reading the file is the asking thread's alone
 * and happens only into FREE slots, so no lock is held while reading; the
 * lock guards the states, and a slot's bytes belong to whoever moved it
 * out of QUEUED until it is READ again.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <libfwnt.h>

#include "oracle/formats/etl/etl_inflate.h"
#include "util/le.h"

enum { FREE, READ, QUEUED, WORKING };

struct slot {
	struct etl_buffer b;
	uint8_t *cbuf;             /* the LZXPRESS data as stored */
	uint64_t seq;              /* its place in the file's row of buffers */
	int state;
};

struct etl_inflate {
	FILE *in;
	uint32_t bsize;
	uint64_t pos;              /* file offset of the next byte to read */
	int stopped;               /* nothing more is read (see etl_inflate.h) */
	uint64_t fetched, handed;  /* buffers read into slots, handed on */
	struct slot *current;      /* handed on last: its bytes are in use */
	struct etl_buffer eof;
	unsigned nslots, nthreads;
	struct slot slot[ETL_INFLATE_AHEAD];
	int own;                   /* the slots' buffers are ours */
	int quit;
	pthread_mutex_t mu;
	pthread_cond_t queued, done;
	pthread_t thread[ETL_INFLATE_AHEAD];
};

/* Expand into room ETL_GUARD bytes larger than the buffer may hold: libfwnt
 * stops at the bound it is given and drops the literals past it with
 * success, so only an expansion that reaches into the guard shows that the
 * data was longer than the buffer. */
static void expand(const struct etl_inflate *x, struct slot *s)
{
	libfwnt_error_t *err = NULL;
	size_t room = x->bsize - ETL_BUFHDR, out = room + ETL_GUARD;

	s->b.ok = libfwnt_lzxpress_decompress(s->cbuf, s->b.want_data, s->b.buf + ETL_BUFHDR,
	                                      &out, &err) == 1 && out <= room;
	if (err)
		libfwnt_error_free(&err);
	s->b.out = out;
	s->b.expanded = 1;
}

static size_t read_to(struct etl_inflate *x, uint8_t *dst, size_t n)
{
	size_t got = fread(dst, 1, n, x->in);

	x->pos += got;
	return got;
}

/*
 * Read the next buffer into s (FREE: no other thread looks at it). Returns
 * 1 when its LZXPRESS data is to be expanded. Sets x->stopped where the
 * reader stops.
 */
static int fetch(struct etl_inflate *x, struct slot *s)
{
	struct etl_buffer *b = &s->b;
	uint32_t size, off;
	int packed;

	b->offset = x->pos;
	b->got_header = read_to(x, b->buf, ETL_BUFHDR);
	b->end_header = b->end_data = x->pos;
	b->want_data = b->got_data = 0;
	b->expanded = b->ok = 0;
	b->out = 0;
	if (b->got_header < ETL_BUFHDR) {
		x->stopped = 1;
		return 0;
	}
	size = le32(b->buf);
	off = le32(b->buf + 0x30);
	packed = (le16(b->buf + 0x34) & ETL_BUFFER_COMPRESSED) != 0;
	if (size < ETL_BUFHDR + (packed ? 2u : 0u) || size > x->bsize) {
		x->stopped = 1;
		return 0;
	}
	b->want_data = size - ETL_BUFHDR;
	b->got_data = read_to(x, packed ? s->cbuf : b->buf + ETL_BUFHDR, b->want_data);
	b->end_data = x->pos;
	if (b->got_data < b->want_data) {
		x->stopped = 1;
		return 0;
	}
	if (!packed || off < ETL_BUFHDR || off > x->bsize)
		return 0;
	memset(s->cbuf + b->want_data, 0, ETL_SLACK);
	return 1;
}

/* The QUEUED slot earliest in the file, or NULL. Under the lock. */
static struct slot *first_queued(struct etl_inflate *x)
{
	struct slot *best = NULL;

	for (unsigned i = 0; i < x->nslots; i++)
		if (x->slot[i].state == QUEUED && (!best || x->slot[i].seq < best->seq))
			best = &x->slot[i];
	return best;
}

/* Expand s, moved to WORKING by the caller; the lock is held on entry and
 * on return. */
static void work_on(struct etl_inflate *x, struct slot *s)
{
	pthread_mutex_unlock(&x->mu);
	expand(x, s);
	pthread_mutex_lock(&x->mu);
	s->state = READ;
	pthread_cond_broadcast(&x->done);
}

static void *worker(void *arg)
{
	struct etl_inflate *x = arg;
	struct slot *s = NULL;

	pthread_mutex_lock(&x->mu);
	for (;;) {
		while (!x->quit && !(s = first_queued(x)))
			pthread_cond_wait(&x->queued, &x->mu);
		if (x->quit || !s)
			break;
		s->state = WORKING;
		work_on(x, s);
	}
	pthread_mutex_unlock(&x->mu);
	return NULL;
}

/* Fill the free slots with the buffers that come next. */
static void read_ahead(struct etl_inflate *x)
{
	for (unsigned i = 0; i < x->nslots && !x->stopped; i++) {
		struct slot *s = &x->slot[i];
		int state;

		pthread_mutex_lock(&x->mu);
		state = s->state;
		pthread_mutex_unlock(&x->mu);
		if (state != FREE)
			continue;
		state = fetch(x, s) ? QUEUED : READ;
		pthread_mutex_lock(&x->mu);
		s->seq = x->fetched++;
		s->state = state;
		if (state == QUEUED)
			pthread_cond_signal(&x->queued);
		pthread_mutex_unlock(&x->mu);
	}
}

static struct slot *slot_of(struct etl_inflate *x, uint64_t seq)
{
	for (unsigned i = 0; i < x->nslots; i++)
		if (x->slot[i].state != FREE && x->slot[i].seq == seq)
			return &x->slot[i];
	return NULL;
}

static const struct etl_buffer *next_threaded(struct etl_inflate *x)
{
	struct slot *s, *q;

	pthread_mutex_lock(&x->mu);
	if (x->current)
		x->current->state = FREE;
	x->current = NULL;
	pthread_mutex_unlock(&x->mu);
	read_ahead(x);
	pthread_mutex_lock(&x->mu);
	s = slot_of(x, x->handed);
	if (!s) {
		pthread_mutex_unlock(&x->mu);
		return NULL;
	}
	/* Expand it here if no worker has it yet; while a worker has it, help
	 * with the next instead of waiting. */
	while (s->state != READ) {
		if (s->state == QUEUED) {
			s->state = WORKING;
			work_on(x, s);
		} else if ((q = first_queued(x)) != NULL) {
			q->state = WORKING;
			work_on(x, q);
		} else {
			pthread_cond_wait(&x->done, &x->mu);
		}
	}
	x->current = s;
	x->handed++;
	pthread_mutex_unlock(&x->mu);
	return &s->b;
}

const struct etl_buffer *etl_inflate_next(struct etl_inflate *x)
{
	const struct etl_buffer *b = NULL;

	if (x->nthreads)
		b = next_threaded(x);
	else if (!x->stopped) {
		struct slot *s = &x->slot[0];

		if (fetch(x, s))
			expand(x, s);
		b = &s->b;
	}
	if (b)
		return b;
	memset(&x->eof, 0, sizeof x->eof);
	x->eof.buf = x->slot[0].b.buf;
	x->eof.offset = x->eof.end_header = x->eof.end_data = x->pos;
	return &x->eof;
}

struct etl_inflate *etl_inflate_new(FILE *in, uint64_t pos, uint32_t bsize, unsigned workers,
                                    uint8_t *buf, uint8_t *cbuf)
{
	struct etl_inflate *x;

	if (workers && bsize > ETL_INFLATE_MAX_BUFFER)
		return NULL;
	if (workers > ETL_INFLATE_AHEAD - 1)
		workers = ETL_INFLATE_AHEAD - 1;
	x = calloc(1, sizeof *x);
	if (!x)
		return NULL;
	x->in = in;
	x->pos = pos;
	x->bsize = bsize;
	if (!workers) {
		x->nslots = 1;
		x->slot[0].b.buf = buf;
		x->slot[0].cbuf = cbuf;
		return x;
	}
	x->own = 1;
	x->nslots = ETL_INFLATE_AHEAD;
	for (unsigned i = 0; i < x->nslots; i++) {
		x->slot[i].b.buf = malloc((size_t)bsize + ETL_SLACK);
		x->slot[i].cbuf = malloc((size_t)bsize + ETL_SLACK);
		if (!x->slot[i].b.buf || !x->slot[i].cbuf)
			goto fail;
	}
	if (pthread_mutex_init(&x->mu, NULL))
		goto fail;
	if (pthread_cond_init(&x->queued, NULL)) {
		pthread_mutex_destroy(&x->mu);
		goto fail;
	}
	if (pthread_cond_init(&x->done, NULL)) {
		pthread_cond_destroy(&x->queued);
		pthread_mutex_destroy(&x->mu);
		goto fail;
	}
	for (; x->nthreads < workers; x->nthreads++)
		if (pthread_create(&x->thread[x->nthreads], NULL, worker, x))
			break;
	if (x->nthreads < workers) {
		etl_inflate_free(x);
		return NULL;
	}
	return x;
fail:
	for (unsigned i = 0; i < x->nslots; i++) {
		free(x->slot[i].b.buf);
		free(x->slot[i].cbuf);
	}
	free(x);
	return NULL;
}

void etl_inflate_free(struct etl_inflate *x)
{
	if (!x)
		return;
	if (x->own) {
		pthread_mutex_lock(&x->mu);
		x->quit = 1;
		pthread_cond_broadcast(&x->queued);
		pthread_mutex_unlock(&x->mu);
		for (unsigned i = 0; i < x->nthreads; i++)
			pthread_join(x->thread[i], NULL);
		pthread_cond_destroy(&x->done);
		pthread_cond_destroy(&x->queued);
		pthread_mutex_destroy(&x->mu);
		for (unsigned i = 0; i < x->nslots; i++) {
			free(x->slot[i].b.buf);
			free(x->slot[i].cbuf);
		}
	}
	free(x);
}
