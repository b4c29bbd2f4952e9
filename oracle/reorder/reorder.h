/*
 * reorder.h - put events back in time order between sync points.
 *
 * Some containers (nettrace) store events grouped by thread; the stream
 * invariants need them in timestamp order. The runner adds each event of
 * such a file to this window and, at each OR_SYNC point and at the end,
 * hands them all on in (timestamp, file index) order: the order a stable
 * sort by timestamp gives, so equal timestamps keep the order of the file.
 *
 * How: the window cuts the events, in file order, into runs that are in
 * time order (a new run where a timestamp goes backwards) and merges the
 * runs with a small heap. A thread writes its events in time order, and a
 * runtime writes each thread's events of a flush together, so there are
 * no more runs than threads; a file written in time order is one run,
 * handed on as it came. That is O(n log runs) with no sort and no moving
 * of events.
 *
 * What it keeps of an event: a compact record (time, index, offsets,
 * thread, payload) plus the event's class (provider, id, version, level,
 * opcode, keywords), which the events of one kind share and the window
 * keeps once. The payload is not copied when the reader lends the block it
 * lies in (or_event.block, block.h): the window holds the block until the
 * event is handed on. Other payloads (and model fields) are copied.
 *
 * Memory: the window counts each event as OR_REORDER_EVENT_COST bytes plus
 * its payload and model fields. When it counts OR_REORDER_MAX_BYTES (a file
 * without sync points, or with sync points further apart than any runtime
 * writes them), the runner hands on the oldest three quarters in time
 * order and keeps the newest quarter, so memory stays bounded and only an
 * event older than what the window kept can come out of order. The blocks
 * it holds count apart: past OR_REORDER_MAX_PINNED bytes of them (a block
 * kept for the sake of a few small events), the window copies the payloads
 * it borrows and lets the blocks go.
 *
 * Ownership: the window owns its records and copies; events handed to the
 * callback are valid only during the call. Errors: or_reorder_add()
 * returns -1 when memory runs out (the caller then flushes and hands the
 * event on itself).
 */
#ifndef ORACLE_REORDER_H
#define ORACLE_REORDER_H

#include <stddef.h>

#include "oracle/formats/block.h"
#include "oracle/formats/reader.h"

/* Bytes counted (above) beyond which the window hands on its older events.
 * The runtime writes a sequence point every 10 MB of buffers. */
#define OR_REORDER_MAX_BYTES (32u << 20)
/* What an event counts for besides its payload: the size of the copy the
 * window used to keep of each event. The points where a window without
 * sync points hands on its older events, and so the order in which such a
 * file's events are checked, do not depend on how the window stores them. */
#define OR_REORDER_EVENT_COST 120u
/* Bytes of readers' blocks the window holds before it copies instead. */
#define OR_REORDER_MAX_PINNED (64u << 20)

struct or_rrec;
struct or_rrun;
struct or_rheap;
struct or_rclass;
struct or_rpin;

struct or_reorder {
	struct or_rrec *rec;       /* the events, in file order */
	size_t n, cap;
	size_t held;               /* bytes counted, as above */
	uint8_t *bytes;            /* copied payloads and model fields */
	size_t used, bcap;
	struct or_rrun *runs;      /* a new one where time steps back */
	size_t nruns, capruns;
	uint32_t last_run;         /* the last event's run */
	struct or_rheap *heap;     /* the merge, one entry per run */
	size_t heapcap;
	struct or_rclass *cls;     /* the classes of the events held */
	size_t ncls, capcls;
	uint32_t *cls_ix;          /* hash of a class -> its index + 1 */
	size_t cls_cap;
	/* or_event.cls -> class index, for readers that number classes */
	struct { uint64_t key; uint32_t cls; } ccache[256];
	struct or_rpin *pins;      /* the blocks held, and for how many events */
	size_t npins, cappins;
	uint32_t pin_free;         /* a free pin slot + 1, or 0 */
	uint32_t last_pin;
	size_t pinned;             /* bytes of the blocks held */
	struct or_event stage;     /* or_reorder_slot() */
	struct or_event out;       /* the event being handed on */
};

/* Add ev (its payload borrowed or copied, see above). 0; 1 when the window
 * now counts OR_REORDER_MAX_BYTES or more (time to hand on the older
 * events); -1 when memory runs out (ev is then not in the window). */
int or_reorder_add(struct or_reorder *q, const struct or_event *ev);
/* The same in two steps, for a caller that fills the event in place: the
 * event to fill, then add it. */
static inline struct or_event *or_reorder_slot(struct or_reorder *q)
{
	return &q->stage;
}
int or_reorder_commit(struct or_reorder *q);
/* or_reorder_add() that says only whether it worked: 0, or -1. */
int or_reorder_push(struct or_reorder *q, const struct or_event *ev);
/* Bytes counted: the caller hands on the older events past the limit. */
size_t or_reorder_bytes(const struct or_reorder *q);
/* Hand on every event in time order and empty the window. */
void or_reorder_flush(struct or_reorder *q,
                      void (*fn)(void *arg, const struct or_event *ev), void *arg);
/* Hand on the oldest three quarters (by time, in bytes counted) and keep
 * the newest quarter. */
void or_reorder_flush_older(struct or_reorder *q,
                           void (*fn)(void *arg, const struct or_event *ev),
                           void *arg);
void or_reorder_free(struct or_reorder *q);

#endif
