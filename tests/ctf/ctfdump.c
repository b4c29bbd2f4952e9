/*
 * ctfdump.c - the CTF reader alone on a trace directory: events, bytes and
 * throughput, without payload decoding or checks (what make bench-ctf
 * compares with gcoracle's whole pipeline and with babeltrace2).
 *
 * Usage: ctfdump [-g] DIR   (-g: the generic interpreter only)
 * Prints one line: events, bytes, seconds (CPU), MB/s, events/s.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "oracle/formats/ctf/ctf_r.h"

static uint64_t ndiag;
/* Every payload's first byte goes here, so no compiler skips reading them. */
static volatile uint8_t touched;

static void report(void *arg, unsigned code, uint64_t event, uint64_t offset, const char *msg)
{
	(void)arg;
	(void)event;
	if (ndiag++ < 10)
		fprintf(stderr, "ctfdump: %s at %" PRIu64 ": %s\n", gcspec_diags[code].code, offset, msg);
}

int main(int argc, char **argv)
{
	struct or_stream_info info;
	struct ctfr_reader *r;
	struct or_event ev;
	struct ctfr_counts c;
	struct timespec t0, t1;
	uint64_t payload = 0;
	unsigned flags = 0;
	double s;
	int i = 1;

	if (argc > 1 && strcmp(argv[1], "-g") == 0) {
		flags = CTFR_GENERIC;
		i++;
	}
	if (i >= argc) {
		fputs("usage: ctfdump [-g] DIR\n", stderr);
		return 2;
	}
	memset(&info, 0, sizeof info);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	if (ctfr_open(&r, argv[i], report, NULL, &info, flags) != 0)
		return 1;
	while (ctfr_next(r, &ev) == OR_EVENT) {
		payload += ev.payload_len;
		if (ev.payload_len)
			touched = ev.payload[0];
	}
	ctfr_counts(r, &c);
	ctfr_close(r);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("ctfdump: %" PRIu64 " events, %" PRIu64 " bytes (%" PRIu64 " payload, %" PRIu64
	       " by the fast paths) in %.3f s CPU: %.0f MB/s, %.1f M events/s\n",
	       c.events, c.bytes, payload, c.fast_events, s, s > 0 ? (double)c.bytes / s / 1e6 : 0,
	       s > 0 ? (double)c.events / s / 1e6 : 0);
	return ndiag ? 1 : 0;
}
