/*
 * sp_model.c - where gcgen's nettrace writer puts sequence points by default:
 * the runtime's thread-buffer model (gen/formats/nettrace/nettrace_wsp.h), checked against
 * values worked out by hand from the runtime's rules: buffers of 100 KiB
 * times one more than the thread's unwritten buffers (at most 1 MiB), a
 * sequence point when a buffer no longer fits in what is left of 10 MiB,
 * every buffer taken by the session's writer every 100 ms.
 */
#include "gen/formats/nettrace/nettrace_wsp.h"
#include "tap.h"

#define FREQ 10000000u  /* 10 MHz: 100 ms is 1000000 ticks */

/* The index of the n-th event (0-based) before which a point comes, or -1. */
static long nth_point(unsigned psize, uint64_t step, uint32_t payload, unsigned n, long max)
{
	struct ntw_sp sp;
	struct ntw_sp_thread t = { 0, 0, 0 };
	unsigned seen = 0;

	ntw_sp_init(&sp, psize, FREQ);
	for (long i = 0; i < max; i++)
		if (ntw_sp_event(&sp, &t, 1000 + (uint64_t)i * step, payload, 0) && ++seen == n)
			return i;
	return -1;
}

int main(void)
{
	/* One pass, empty events of 88 bytes: buffers of 100 KiB .. 1000 KiB
	 * hold 1163, 2327, 3490, 4654, 5818, 6981, 8145, 9309, 10472 and
	 * 11636 events (5632000 bytes), four of 1 MiB hold 11915 each; what
	 * is left (659456) is less than the fifteenth buffer: the point comes
	 * before event 111655. */
	long i = nth_point(8, 0, 0, 1, 200000);

	tap_ok(i == 111655, "64-bit, one thread, one pass: growing buffers, the point before event 111655 (%ld)", i);
	/* A 32-bit runtime's header is 72 bytes: 1422, 2844, 4266, 5688, 7111,
	 * 8533, 9955, 11377, 12800, 14222, then 14563 per MiB. */
	i = nth_point(4, 0, 0, 1, 200000);
	tap_ok(i == 136470, "32-bit: 72-byte headers, the point before event 136470 (%ld)", i);
	/* An event every 200 ms: each one finds its buffer taken by the
	 * writer and gets a new 100 KiB one; 102 of them leave 40960 bytes, so
	 * the 103rd buffer (event 102) brings the point, and the budget starts
	 * again: the next at event 205. */
	i = nth_point(8, 2000000, 0, 1, 1000);
	tap_ok(i == 102, "an event every 200 ms: a buffer each, the point before event 102 (%ld)", i);
	i = nth_point(8, 2000000, 0, 2, 1000);
	tap_ok(i == 205, "the budget starts again after a point: the next before event 205 (%ld)", i);
	/* 60000-byte payloads (60088 with the header): within a pass 100 KiB
	 * holds one, 200 KiB three, 300 KiB five; an event every 10 ms with
	 * passes every 100 ms makes ten events a pass, in buffers of 100, 200,
	 * 300 and 400 KiB: 1000 KiB a pass. Ten passes leave 245760 bytes; the
	 * eleventh pass's 100 KiB fits, its 200 KiB (for its second event,
	 * event 101) does not. */
	i = nth_point(8, 100000, 60000, 1, 10000);
	tap_ok(i == 101, "64 KB-class events, ten a pass: 1000 KiB of buffers a pass, the point before event 101 (%ld)", i);
	return tap_done();
}
