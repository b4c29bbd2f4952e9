/*
 * run_loop.h - the event loop: every event of an open reader, checked for
 * per-thread time order (GC-S023) in file order and, for a container that
 * groups events otherwise (or_stream_info.unordered), put back in time
 * order by the window (reorder.h), then handed to a callback.
 *
 * Two callers: run.c's one thread hands each event to or_process_event;
 * the reading thread of --threads 2 (pipeline.c) puts it in its queue.
 * Inline, so that each caller's instance calls its callbacks directly: one
 * loop, and the one-thread path costs what it did when it had its own.
 */
#ifndef ORACLE_RUN_LOOP_H
#define ORACLE_RUN_LOOP_H

#include "oracle/check/check.h"
#include "oracle/oracle.h"

typedef void (*or_loop_event_fn)(void *arg, const struct or_event *ev);
typedef void (*or_loop_tick_fn)(void *arg, uint64_t done);

/* Read r to its end (or until *stop, when stop is not NULL, becomes
 * non-zero) with ctx's window and timestamp check; its reader's status.
 * unordered: the stream's or_stream_info.unordered; tick, when not NULL,
 * is told the offset every 65536 events. *next: index after the last
 * event; *end_off: the end of its payload (both left as they were when
 * there is none). */
static inline enum or_status or_run_loop(struct or_ctx *ctx, uint8_t unordered,
                                         const struct or_reader_ops *ops, struct or_reader *r,
                                         or_loop_event_fn event, or_loop_tick_fn tick,
                                         void *arg, const int *stop,
                                         uint64_t *next, uint64_t *end_off)
{
	uint64_t nx = *next, end = *end_off;
	struct or_event ev;
	enum or_status st;

	for (;;) {
		int kept;

		if ((st = ops->next(r, &ev)) <= OR_END || (stop && *stop))
			break;
		if (st == OR_SYNC) {
			or_reorder_flush(&ctx->reorder, event, arg);
			continue;
		}
		nx = ev.index + 1;
		end = ev.payload_offset + ev.payload_len;
		if (tick && !(ev.index & 0xFFFF))
			tick(arg, ev.payload_offset);
		/* Per-processor buffers interleave a thread's events that moved
		 * between processors: there, file order says nothing. */
		if (unordered != OR_BY_PROCESSOR)
			or_check_timestamp(ctx, &ev);
		if (!unordered) {
			event(arg, &ev);
			continue;
		}
		kept = or_reorder_add(&ctx->reorder, &ev);
		if (kept > 0) {
			/* Full: hand on the oldest events, keep the newest. */
			or_reorder_flush_older(&ctx->reorder, event, arg);
		} else if (kept < 0) {
			/* Out of memory: hand on what is buffered, then this one. */
			or_reorder_flush(&ctx->reorder, event, arg);
			event(arg, &ev);
		}
	}
	or_reorder_flush(&ctx->reorder, event, arg);
	or_reorder_free(&ctx->reorder);
	*next = nx;
	*end_off = end;
	return st;
}

#endif
