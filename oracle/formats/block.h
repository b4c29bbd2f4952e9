/*
 * block.h - reader buffers that outlive the read: how a reader lends its
 * events' payloads to the time-order window instead of having them copied.
 *
 * A reader reads each block of its file into an or_block from its own
 * pool and sets or_event.block on the events it hands out of it. The
 * window (reorder.h) holds the block while any of those events waits to be
 * handed on, and drops it after the last; the reader takes a fresh block
 * (a free one of its pool) for its next read whenever the window still
 * holds the current one. So a payload is never copied, and a block's
 * memory is reused once its events are checked.
 *
 * Ownership: a block is freed or returned to its pool when its last holder
 * drops it (or_block_drop). The pool belongs to the reader, who closes it
 * (or_blockpool_close) when it closes; blocks still held then are freed
 * when dropped, and the pool with the last of them. The pool keeps at most
 * OR_BLOCKPOOL_KEEP bytes of free blocks, so memory follows what the
 * window holds (bounded there), not the file.
 *
 * Errors: or_block_new() and or_block_reserve() return NULL / -1 when
 * memory runs out; nothing is reported here.
 */
#ifndef ORACLE_BLOCK_H
#define ORACLE_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#define OR_BLOCKPOOL_KEEP (64u << 20)

struct or_blockpool;

struct or_block {
	uint8_t *data;
	size_t cap;                  /* bytes allocated at data */
	unsigned refs;               /* holders: the reader while it reads
	                                into it, the window while it holds
	                                events of it */
	struct or_block *next;       /* in the pool's free list */
	struct or_blockpool *pool;
};

struct or_blockpool *or_blockpool_new(void);
/* The reader is done with the pool: free it now, or when the last block
 * still held comes back. */
void or_blockpool_close(struct or_blockpool *p);

/* An empty block held once (by the caller): a free one of the pool, its
 * memory kept, or a new one. */
struct or_block *or_block_new(struct or_blockpool *p);
/* Room for n bytes at data, keeping the first `keep` bytes. Only for a
 * block nobody else holds (refs == 1). 0, or -1 when memory runs out
 * (the block is unchanged). */
int or_block_reserve(struct or_block *b, size_t n, size_t keep);

static inline void or_block_hold(struct or_block *b)
{
	b->refs++;
}

/* Let go of a block: the last holder returns it to its pool. */
void or_block_drop(struct or_block *b);

#endif
