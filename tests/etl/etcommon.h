/*
 * etcommon.h - shared pieces of the .etl tests: a deterministic event
 * stream, writing it with the gen/ writer into memory, reading it with the
 * oracle/ reader while recording diagnostics. Test-local; the writer and
 * reader never see it.
 */
#ifndef TESTS_ETCOMMON_H
#define TESTS_ETCOMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/etl/etl_r.h"
#include "gen/formats/etl/etl_w.h"
#include "../diag_collect.h"
#include "spec/gcspec.h"
#include "gen/formats/etl/mutate_etl.h"

#define ET_MAXEV 20000

struct et_stream {
	struct gen_event ev[ET_MAXEV];
	uint8_t payload[ET_MAXEV][64];
	unsigned n;
};

static inline uint64_t et_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* n events on 3 threads, spec events in turn, random payloads; stack ids
 * when stacks is set. Timestamps rise. */
static inline void et_make(struct et_stream *st, unsigned n, uint64_t seed, int stacks)
{
	uint64_t s = seed | 1, ts = 5000;

	st->n = n;
	for (unsigned i = 0; i < n; i++) {
		struct gen_event *e = &st->ev[i];
		unsigned k = (i * 7) % GCSPEC_NEVENTS;
		const struct gcspec_event *sp = &gcspec_events[k];

		memset(e, 0, sizeof *e);
		ts += 1 + et_rng(&s) % 5000;
		e->timestamp = ts;
		e->thread_id = 1000 + et_rng(&s) % 3 * 4321;
		e->processor = (uint32_t)(e->thread_id & 3);
		e->spec_event = (uint16_t)k;
		e->provider = sp->provider;
		e->id = sp->id;
		e->version = sp->version;
		e->level = sp->level;
		e->opcode = sp->opcode;
		e->keywords = sp->keywords;
		e->stack_id = stacks ? (uint32_t)(et_rng(&s) % 5) : 0; /* 0: none */
		e->payload_len = (uint32_t)(et_rng(&s) % 64);
		for (unsigned j = 0; j < e->payload_len; j++)
			st->payload[i][j] = (uint8_t)et_rng(&s);
		e->payload = st->payload[i];
	}
}

static inline struct gen_stream_info et_info(unsigned ps)
{
	struct gen_stream_info in;

	memset(&in, 0, sizeof in);
	in.pointer_size = (uint8_t)ps;
	in.clock_frequency = 10000000;
	in.start_ticks = 4000;
	in.start_unix_ns = 1763790000ull * 1000000000ull;
	in.process_id = 4242;
	in.nprocessors = 4;
	return in;
}

/* Write the stream to f (rewound and read back); returns a malloc'd copy
 * of the file of *len bytes, or NULL. f NULL: a temporary file. */
static inline uint8_t *et_write_to(const struct et_stream *st, const struct gen_etl_opts *o,
                                   unsigned ps, size_t *len, FILE *f)
{
	struct gen_writer *w = gen_etl_new(o);
	struct gen_stream_info in = et_info(ps);
	int own = !f;
	uint8_t *buf = NULL;
	long n;

	if (own)
		f = tmpfile();
	if (!w || !f)
		goto out;
	if (gen_write_etl_ops.begin(w, f, &in))
		goto out;
	for (unsigned i = 0; i < st->n; i++)
		if (gen_write_etl_ops.event(w, &st->ev[i]))
			goto out;
	if (gen_write_etl_ops.end(w))
		goto out;
	if (!own)
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
	if (w && own && !buf)
		fprintf(stderr, "writer: %s\n", w->error);
	if (w)
		gen_write_etl_ops.destroy(w);
	if (f && own)
		fclose(f);
	return buf;
}

static inline uint8_t *et_write(const struct et_stream *st, const struct gen_etl_opts *o,
                                unsigned ps, size_t *len)
{
	return et_write_to(st, o, ps, len, NULL);
}


static inline uint32_t et_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t et_le64(const uint8_t *p)
{
	return (uint64_t)et_le32(p + 4) << 32 | et_le32(p);
}

#endif
