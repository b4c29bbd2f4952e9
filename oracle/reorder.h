/*
 * reorder.h - put events back in time order between sync points.
 *
 * Some containers (nettrace) store events grouped by thread; the stream
 * invariants need them in timestamp order. The runner copies each event of
 * such a file into this window and, at each OR_SYNC point and at the end,
 * hands them all on in (timestamp, file index) order: the order a stable
 * sort by timestamp gives, so equal timestamps keep the order of the file.
 *
 * How: a thread writes its events in time order, so the window keeps one
 * run per thread (a thread whose timestamp goes backwards starts another
 * run) and merges the runs with a small heap. That is O(n log threads) with
 * no sort and no moving of event copies. The reader can write each event
 * straight into the window (or_reorder_slot, or_reorder_commit), so that
 * only its payload is copied.
 *
 * Memory: the window holds compact copies of the events and of their
 * payloads. When it holds OR_REORDER_MAX_BYTES (a file without sync points,
 * or with sync points further apart than any runtime writes them), the
 * runner hands on the oldest three quarters in time order and keeps the
 * newest quarter, so memory stays bounded and only an event older than
 * what the window kept can come out of order.
 *
 * Ownership: the window owns its copies; events handed to the callback are
 * valid only during the call. Errors: or_reorder_push() returns -1 when
 * memory runs out (the caller then flushes and hands the event on itself).
 */
#ifndef ORACLE_REORDER_H
#define ORACLE_REORDER_H

#include <stddef.h>

#include "reader.h"

/* Bytes of event copies and payloads beyond which the window hands on its
 * older events. The runtime writes a sequence point every 10 MB of buffers. */
#define OR_REORDER_MAX_BYTES (32u << 20)

struct or_rlink;
struct or_rrun;
struct or_rheap;

struct or_reorder {
	struct or_event *ev;       /* the events, in file order ... */
	struct or_rlink *link;     /* ... and where each one's payload is */
	size_t n, cap;
	uint8_t *bytes;            /* their payloads (and model fields) */
	size_t used, bcap;
	struct or_rrun *runs;      /* one per thread, more after a step back */
	size_t nruns, capruns;
	uint64_t *tkey;            /* thread id -> its current run */
	uint32_t *tval;
	size_t tcap, tn;
	uint64_t last_thread;      /* the last event's thread and run */
	uint32_t last_run;
	struct or_rheap *heap;     /* the merge, one entry per run */
	size_t heapcap;
};

/* Copy ev (and its payload) into the window. */
int or_reorder_push(struct or_reorder *q, const struct or_event *ev);
/* Without the copy: the place to read the next event into, NULL when
 * memory runs out. Valid until the next call that changes the window. */
struct or_event *or_reorder_grow(struct or_reorder *q);
static inline struct or_event *or_reorder_slot(struct or_reorder *q)
{
	return q->n < q->cap ? &q->ev[q->n] : or_reorder_grow(q);
}
/* Keep the event read into the slot: copies its payload. 0; 1 when the
 * window now holds OR_REORDER_MAX_BYTES or more (time to hand on the older
 * events); -1 when memory runs out (the slot's event is then not in the
 * window). */
int or_reorder_commit(struct or_reorder *q);
/* Bytes held: the caller hands on the older events past the limit. */
size_t or_reorder_bytes(const struct or_reorder *q);
/* Hand on every event in time order and empty the window. */
void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg);
/* Hand on the oldest three quarters (by time, in bytes held) and keep the
 * newest quarter. */
void or_reorder_flush_older(struct or_reorder *q,
                           void (*fn)(void *arg, const struct or_event *ev),
                           void *arg);
void or_reorder_free(struct or_reorder *q);

#endif
