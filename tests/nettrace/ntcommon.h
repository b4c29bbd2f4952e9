/*
 * ntcommon.h - the nettrace tests' choices over tests/synth_stream.h: the
 * event stream's timing (some out of order), threads and stacks, the stream
 * header, writing with the gen/ writer into memory; the oracle/ reader and
 * mutator they test.
 */
#ifndef TESTS_NTCOMMON_H
#define TESTS_NTCOMMON_H

#include "gen/formats/nettrace/mutate_nettrace.h"
#include "oracle/formats/nettrace/nettrace_r.h"
#include "gen/formats/nettrace/nettrace_w.h"
#include "tests/diag_collect.h"
#include "tests/synth_stream.h"

/* n events on 3 threads, spec events in turn, random payloads and stacks. */
static inline void nt_make(struct test_stream *st, unsigned n, uint64_t seed)
{
	uint64_t s = seed | 1, ts = 1000;

	st->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct gen_event *e = &st->ev[i];

		memset(e, 0, sizeof *e);
		ts += test_rng(&s) % 5000;
		e->timestamp = ts - (i % 5 == 4 ? 700 : 0); /* some out of order */
		e->thread_id = 1000 + test_rng(&s) % 3 * 4321;
		e->processor = (uint32_t)(test_rng(&s) % 4);
		test_spec_event(e, (i * 7) % GCSPEC_NEVENTS);
		e->stack_id = (uint32_t)(test_rng(&s) % 5); /* 0: none */
		e->payload_len = (uint32_t)(test_rng(&s) % 64);
		for (unsigned k = 0; k < e->payload_len; k++)
			st->payload[i][k] = (uint8_t)test_rng(&s);
		e->payload = st->payload[i];
	}
}

static inline struct gen_stream_info nt_info(unsigned ps)
{
	return test_info(ps, 1000000000, 999);
}

/* Write the stream; returns a malloc'd buffer of *len bytes or NULL. */
static inline uint8_t *nt_write(const struct test_stream *st, const struct gen_nettrace_opts *o,
                                unsigned ps, size_t *len)
{
	struct gen_stream_info in = nt_info(ps);

	/* One ops table serves every version: the version is in o. */
	return test_write(&gen_write_nettrace_v5_ops, gen_nettrace_new(o), &in, st, len, NULL);
}

#endif
