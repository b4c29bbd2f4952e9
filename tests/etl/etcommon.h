/*
 * etcommon.h - the .etl tests' choices over tests/synth_stream.h: the event
 * stream's timing, threads and stacks, the stream header, writing with the
 * gen/ writer into memory; the oracle/ reader and mutator they test.
 */
#ifndef TESTS_ETCOMMON_H
#define TESTS_ETCOMMON_H

#include "oracle/formats/etl/etl_r.h"
#include "gen/formats/etl/etl_w.h"
#include "gen/formats/etl/mutate_etl.h"
#include "tests/diag_collect.h"
#include "tests/synth_stream.h"
#include "util/le.h"

/* n events on 3 threads, spec events in turn, random payloads; stack ids
 * when stacks is set. Timestamps rise. */
static inline void et_make(struct test_stream *st, unsigned n, uint64_t seed, int stacks)
{
	uint64_t s = seed | 1, ts = 5000;

	st->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct gen_event *e = &st->ev[i];

		memset(e, 0, sizeof *e);
		ts += 1 + test_rng(&s) % 5000;
		e->timestamp = ts;
		e->thread_id = 1000 + test_rng(&s) % 3 * 4321;
		e->processor = (uint32_t)(e->thread_id & 3);
		test_spec_event(e, (i * 7) % GCSPEC_NEVENTS);
		e->stack_id = stacks ? (uint32_t)(test_rng(&s) % 5) : 0; /* 0: none */
		e->payload_len = (uint32_t)(test_rng(&s) % 64);
		for (unsigned j = 0; j < e->payload_len; j++)
			st->payload[i][j] = (uint8_t)test_rng(&s);
		e->payload = st->payload[i];
	}
}

static inline struct gen_stream_info et_info(unsigned ps)
{
	return test_info(ps, 10000000, 4000);
}

/* Write the stream to f (rewound and read back); returns a malloc'd copy
 * of the file of *len bytes, or NULL. f NULL: a temporary file. */
static inline uint8_t *et_write_to(const struct test_stream *st, const struct gen_etl_opts *o,
                                   unsigned ps, size_t *len, FILE *f)
{
	struct gen_stream_info in = et_info(ps);

	return test_write(&gen_write_etl_ops, gen_etl_new(o), &in, st, len, f);
}

static inline uint8_t *et_write(const struct test_stream *st, const struct gen_etl_opts *o,
                                unsigned ps, size_t *len)
{
	return et_write_to(st, o, ps, len, NULL);
}

#endif
