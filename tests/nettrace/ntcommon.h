/*
 * ntcommon.h - shared pieces of the nettrace tests: a deterministic event
 * stream, writing it with the gen/ writer, reading with the oracle/ reader
 * while recording diagnostics. Test-local; the writer and reader never see it.
 */
#ifndef TESTS_NTCOMMON_H
#define TESTS_NTCOMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../diag_collect.h"
#include "spec/gcspec.h"
#include "gen/formats/nettrace/mutate_nettrace.h"
#include "oracle/formats/nettrace/nettrace_r.h"
#include "gen/formats/nettrace/nettrace_w.h"

#define NT_MAXEV 20000

struct nt_stream {
	struct gen_event ev[NT_MAXEV];
	uint8_t payload[NT_MAXEV][64];
	unsigned n;
};

static inline uint64_t nt_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* n events on 3 threads, spec events in turn, random payloads and stacks. */
static inline void nt_make(struct nt_stream *st, unsigned n, uint64_t seed)
{
	uint64_t s = seed | 1, ts = 1000;

	st->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct gen_event *e = &st->ev[i];
		const struct gcspec_event *sp = &gcspec_events[(i * 7) % GCSPEC_NEVENTS];

		memset(e, 0, sizeof *e);
		ts += nt_rng(&s) % 5000;
		e->timestamp = ts - (i % 5 == 4 ? 700 : 0); /* some out of order */
		e->thread_id = 1000 + nt_rng(&s) % 3 * 4321;
		e->processor = (uint32_t)(nt_rng(&s) % 4);
		e->spec_event = (uint16_t)((i * 7) % GCSPEC_NEVENTS);
		e->provider = sp->provider;
		e->id = sp->id;
		e->version = sp->version;
		e->level = sp->level;
		e->opcode = sp->opcode;
		e->keywords = sp->keywords;
		e->stack_id = (uint32_t)(nt_rng(&s) % 5); /* 0: none */
		e->payload_len = (uint32_t)(nt_rng(&s) % 64);
		for (unsigned k = 0; k < e->payload_len; k++)
			st->payload[i][k] = (uint8_t)nt_rng(&s);
		e->payload = st->payload[i];
	}
}

static inline struct gen_stream_info nt_info(unsigned ps)
{
	struct gen_stream_info in;

	memset(&in, 0, sizeof in);
	in.pointer_size = (uint8_t)ps;
	in.clock_frequency = 1000000000;
	in.start_ticks = 999;
	in.start_unix_ns = 1763790000ull * 1000000000ull;
	in.process_id = 4242;
	in.nprocessors = 4;
	return in;
}

/* Write the stream; returns a malloc'd buffer of *len bytes or NULL. */
static inline uint8_t *nt_write(const struct nt_stream *st, const struct gen_nettrace_opts *o,
                         unsigned ps, size_t *len)
{
	struct gen_writer *w = gen_nettrace_new(o);
	struct gen_stream_info in = nt_info(ps);
	FILE *f = tmpfile();
	uint8_t *buf = NULL;
	long n;

	if (!w || !f)
		goto out;
	if (gen_write_nettrace_v5_ops.begin(w, f, &in))
		goto out;
	for (unsigned i = 0; i < st->n; i++)
		if (gen_write_nettrace_v5_ops.event(w, &st->ev[i]))
			goto out;
	if (gen_write_nettrace_v5_ops.end(w))
		goto out;
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*len = (size_t)n;
out:
	if (w && !buf)
		fprintf(stderr, "writer: %s\n", w->error);
	if (w)
		gen_write_nettrace_v5_ops.destroy(w);
	if (f)
		fclose(f);
	return buf;
}


#endif
