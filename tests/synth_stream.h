/*
 * synth_stream.h - the container tests' shared scaffolding: a deterministic
 * stream of spec events, the stream header it is written under, and writing
 * it with a gen/ writer into memory. Each format's helper (ntcommon.h,
 * etcommon.h) keeps its own choices: timing, threads, stacks, clock.
 * Header-only and test-local; the writers and readers never see it.
 */
#ifndef GCCONFORM_TESTS_SYNTH_STREAM_H
#define GCCONFORM_TESTS_SYNTH_STREAM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec/gcspec.h"
#include "gen/formats/writer.h"

#define TEST_MAXEV 20000

struct test_stream {
	struct gen_event ev[TEST_MAXEV];
	uint8_t payload[TEST_MAXEV][64];
	unsigned n;
};

/* xorshift64: the same numbers on every machine. */
static inline uint64_t test_rng(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Spec event k's identity on e; the rest of e is the caller's. */
static inline void test_spec_event(struct gen_event *e, unsigned k)
{
	const struct gcspec_event *sp = &gcspec_events[k];

	e->spec_event = (uint16_t)k;
	e->provider = sp->provider;
	e->id = sp->id;
	e->version = sp->version;
	e->level = sp->level;
	e->opcode = sp->opcode;
	e->keywords = sp->keywords;
}

static inline struct gen_stream_info test_info(unsigned ps, uint64_t clock_frequency,
                                               uint64_t start_ticks)
{
	struct gen_stream_info in;

	memset(&in, 0, sizeof in);
	in.pointer_size = (uint8_t)ps;
	in.clock_frequency = clock_frequency;
	in.start_ticks = start_ticks;
	in.start_unix_ns = 1763790000ull * 1000000000ull;
	in.process_id = 4242;
	in.nprocessors = 4;
	return in;
}

/* Write st with w (ops: its functions; w is destroyed here, NULL is a
 * failure) to f, or to a temporary file when f is NULL. Returns a malloc'd
 * copy of the temporary file of *len bytes, or NULL: on failure, and always
 * when f is given (the bytes are in f). */
static inline uint8_t *test_write(const struct gen_writer_ops *ops, struct gen_writer *w,
                                  const struct gen_stream_info *in, const struct test_stream *st,
                                  size_t *len, FILE *f)
{
	int own = !f;
	uint8_t *buf = NULL;
	long n;

	if (own)
		f = tmpfile();
	if (!w || !f)
		goto out;
	if (ops->begin(w, f, in))
		goto out;
	for (unsigned i = 0; i < st->n; i++)
		if (ops->event(w, &st->ev[i]))
			goto out;
	if (ops->end(w))
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
		ops->destroy(w);
	if (f && own)
		fclose(f);
	return buf;
}

#endif
