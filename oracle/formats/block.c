/*
 * block.c - reader buffers lent to the time-order window (see block.h).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/block.h"

struct or_blockpool {
	struct or_block *free;       /* blocks nobody holds, memory kept */
	size_t free_bytes;
	size_t out;                  /* blocks held by someone */
	int closed;
};

struct or_blockpool *or_blockpool_new(void)
{
	return calloc(1, sizeof(struct or_blockpool));
}

static void free_block(struct or_block *b)
{
	free(b->data);
	free(b);
}

void or_blockpool_close(struct or_blockpool *p)
{
	if (!p)
		return;
	while (p->free) {
		struct or_block *b = p->free;
		p->free = b->next;
		free_block(b);
	}
	p->free_bytes = 0;
	p->closed = 1;
	if (!p->out)
		free(p);
}

struct or_block *or_block_new(struct or_blockpool *p)
{
	struct or_block *b = p->free;

	if (b) {
		p->free = b->next;
		p->free_bytes -= b->cap;
	} else if (!(b = calloc(1, sizeof *b))) {
		return NULL;
	}
	b->refs = 1;
	b->next = NULL;
	b->pool = p;
	p->out++;
	return b;
}

int or_block_reserve(struct or_block *b, size_t n, size_t keep)
{
	uint8_t *d;
	size_t cap = b->cap ? b->cap : 4096;

	if (n <= b->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* Nothing to keep: a fresh allocation spares realloc's copy. */
	if (!keep) {
		d = malloc(cap);
		if (!d)
			return -1;
		free(b->data);
	} else if (!(d = realloc(b->data, cap))) {
		return -1;
	}
	b->data = d;
	b->cap = cap;
	return 0;
}

void or_block_drop(struct or_block *b)
{
	struct or_blockpool *p = b->pool;

	if (--b->refs)
		return;
	p->out--;
	if (p->closed || p->free_bytes + b->cap > OR_BLOCKPOOL_KEEP) {
		free_block(b);
		if (p->closed && !p->out)
			free(p);
		return;
	}
	b->next = p->free;
	p->free = b;
	p->free_bytes += b->cap;
}
