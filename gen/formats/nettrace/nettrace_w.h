/*
 * nettrace_w.h - the EventPipe .nettrace writer (V4, V5 and V6).
 *
 * Written from ../shared/reference/NetTraceFormat-v5.md and -v6.md alone; it
 * shares no code with oracle/'s reader, so that a layout mistake cannot hide
 * in both. Only the spec tables (gcspec.h) are common.
 *
 * Use: gen_nettrace_new() makes a writer; drive it through the
 * gen_writer_ops of writer.h (begin, event..., end, destroy). The writer
 * buffers one block of each kind and flushes them in the order the format
 * needs (metadata, stacks and threads before the events that use them).
 *
 * Ownership: the writer copies what it keeps; it never closes the FILE.
 * Errors: 0 or -1 with a message in gen_nettrace_error().
 */
#ifndef GEN_NETTRACE_W_H
#define GEN_NETTRACE_W_H

#include <stddef.h>
#include <stdint.h>

#include "gen/formats/writer.h"

struct gen_nettrace_opts {
	unsigned version;       /* 4, 5 (FastSerialization objects) or 6 */
	int uncompressed;       /* 1: uncompressed event headers (legal, rare) */
	int full_metadata;      /* 1: describe every field (else: as the runtime) */
	int metadata_upfront;   /* 1: all metadata in one block before any event */
	uint32_t block_bytes;   /* flush an EventBlock past this size (0: 100000) */
	/* SequencePoint after this many EventBlocks; 0: where the runtime puts
	 * them (every 10 MiB of its thread buffers, nettrace_wsp.h);
	 * GEN_NETTRACE_SP_END: only the one that ends the stream. */
	uint32_t sp_every;
	/* 1..: after every this many events, one sample-profiler ThreadSample
	 * event as EventPipe's sampler writes it: captured by a thread of its
	 * own (GEN_NETTRACE_SAMPLER_TID) but naming a thread it sampled, stamped
	 * before that thread's latest event (docs/nettrace.md). 0: none. */
	uint32_t sampler_every;
};

/* The sampler's capture thread: far from the model's thread ids. */
#define GEN_NETTRACE_SAMPLER_TID 0x7A00u

#define GEN_NETTRACE_SP_END 0xFFFFFFFFu

/* The formats this module writes (writer_table.c lists them). */
extern const struct gen_writer_ops gen_write_nettrace_v4_ops;
extern const struct gen_writer_ops gen_write_nettrace_v5_ops;
extern const struct gen_writer_ops gen_write_nettrace_v6_ops;
extern const struct gen_writer_ops gen_write_nettrace_v5_full_ops;
extern const struct gen_writer_ops gen_write_nettrace_v6_full_ops;

/* A new writer with these options (NULL: V5 defaults), or NULL when memory
 * runs out. Drive it with any of the ops above (they differ only in
 * create()); w->ops is left NULL. Errors land in w->error. */
struct gen_writer *gen_nettrace_new(const struct gen_nettrace_opts *opts);
/* A change of the writer's options between create() and begin(). w must be
 * a nettrace writer (made by gen_nettrace_new() or one of the ops above);
 * gcgen sets them by name instead (-O KEY=VALUE, the ops' option()). */
void gen_nettrace_set_opts(struct gen_writer *w, const struct gen_nettrace_opts *opts);

/* Synthetic stack contents for a stream stack id (1..): what the writer
 * puts in StackBlocks; exposed so tests can check the bytes. Returns the
 * number of frames written into ips (at most max). */
unsigned gen_nettrace_stack_frames(uint32_t stack_id, uint64_t *ips, unsigned max);

#endif
