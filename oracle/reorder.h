/*
 * reorder.h - put events back in time order between sync points.
 *
 * Some containers (nettrace) store events grouped by thread; the stream
 * invariants need them in timestamp order. The runner copies each event of
 * such a file into this buffer and, at each OR_SYNC point, at the end, or when
 * the buffer holds OR_REORDER_MAX_BYTES, hands them on sorted by (timestamp,
 * file index). The sort is stable in file order, so equal timestamps keep the
 * order the file gives them.
 *
 * Ownership: the buffer owns copies of the payloads; events handed to the
 * callback are valid only during the call. Errors: or_reorder_push() returns
 * -1 when memory runs out (the caller then flushes and retries).
 */
#ifndef ORACLE_REORDER_H
#define ORACLE_REORDER_H

#include <stddef.h>

#include "reader.h"

/* Beyond this many buffered payload bytes the window is flushed early: memory
 * stays bounded even when a file has no sync points at all. */
#define OR_REORDER_MAX_BYTES (64u << 20)

struct or_reorder {
	struct or_event *ev;
	size_t n, cap;
	uint8_t *bytes;
	size_t used, bcap;
};

int or_reorder_push(struct or_reorder *q, const struct or_event *ev);
/* Buffered payload bytes: the caller flushes when this passes the limit. */
static inline size_t or_reorder_bytes(const struct or_reorder *q) { return q->used; }
void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg);
void or_reorder_free(struct or_reorder *q);

#endif
