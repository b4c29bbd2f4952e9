/*
 * nettrace_wsp.h - when the runtime writes a sequence point: a model of
 * EventPipe's thread buffers (gen/ only).
 *
 * The runtime does not place sequence points by file size or block count.
 * Each thread writes its events into buffers the session hands out: 100 KiB
 * times one more than the buffers the thread holds unwritten (at most 1 MiB,
 * at least the event, in whole 4 KiB pages). An event takes its instance
 * header (88 bytes in a 64-bit runtime, 72 in a 32-bit one), its stack and
 * its payload, 8-aligned. Every 10 MiB of buffers handed out, the runtime
 * records a sequence point, which the file gets before the events that come
 * after it. The session's writer takes every thread's buffers, full or not,
 * every 100 ms, so a thread then starts a new 100 KiB buffer. (Runtime:
 * ep-session.c's 10 MiB budget and 100 ms streaming loop, ep-buffer-manager.c
 * buffer_manager_allocate_buffer_for_thread, ep-buffer.c event sizes.) On a
 * real .NET 10 heap-dump trace this places the sequence points within a
 * few tens of ms of where the runtime put them.
 *
 * The writer keeps one ntw_sp for the stream and one ntw_sp_thread per
 * thread (zeroed when the thread first appears). Plain structs, no
 * allocation, no errors.
 */
#ifndef GEN_NETTRACE_WSP_H
#define GEN_NETTRACE_WSP_H

#include <stdint.h>

struct ntw_sp_thread {
	uint32_t left;          /* bytes free in its buffer */
	uint32_t nbufs;         /* buffers it got since the writer's last pass */
	uint32_t pass;          /* the pass its buffer belongs to (0: none yet) */
};

struct ntw_sp {
	uint64_t budget;        /* buffer bytes still to hand out before a point */
	uint64_t next_pass;     /* timestamp of the writer's next pass */
	uint64_t pass_ticks;    /* 100 ms in the stream's clock */
	uint32_t pass;          /* passes so far, from 1 */
	uint32_t header;        /* an event's fixed size in a buffer */
	int started;
};

void ntw_sp_init(struct ntw_sp *sp, unsigned pointer_size, uint64_t clock_frequency);
/* Account one event of thread t; 1 when the runtime records a sequence
 * point just before it (the buffer it needed used up the budget). */
static inline int ntw_sp_event(struct ntw_sp *sp, struct ntw_sp_thread *t, uint64_t timestamp,
			       uint32_t payload_len, uint32_t stack_bytes);
/* ntw_sp_event's slow path: a writer's pass, or a new buffer. */
int ntw_sp_new_buffer(struct ntw_sp *sp, struct ntw_sp_thread *t, uint64_t timestamp, uint32_t size);

/* Inline: once per event, and nearly always the event fits its thread's
 * buffer. */
static inline int ntw_sp_event(struct ntw_sp *sp, struct ntw_sp_thread *t, uint64_t timestamp,
			       uint32_t payload_len, uint32_t stack_bytes)
{
	uint32_t size = (sp->header + stack_bytes + payload_len + 7) & ~7u;

	if (timestamp < sp->next_pass && t->pass == sp->pass && size <= t->left) {
		t->left -= size;
		return 0;
	}
	return ntw_sp_new_buffer(sp, t, timestamp, size);
}

#endif
