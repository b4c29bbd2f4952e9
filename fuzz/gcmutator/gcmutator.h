/*
 * gcmutator.h - a structure-aware libFuzzer mutator for .NET GC event
 * streams, for any project whose parser reads them.
 *
 * gcm_mutate() parses its input into gcconform's model of a stream (with
 * gcconform's oracle readers: CBOR model stream, nettrace V4/V5/V6, LTTng
 * CTF, ETW .etl), changes it the way decoders get hurt (events
 * inserted, dropped, reordered, duplicated; boundary and out-of-map field
 * values; versions, ids, pointer size, string contents, struct counts;
 * container fields, block boundaries and the generator's container faults)
 * and writes it again with gcconform's generator writers. An input that does
 * not parse is replaced by a valid stream from the generator's simulator.
 * The result depends only on (input, seed, formats): same arguments, same
 * bytes.
 *
 * A harness around your own parser:
 *
 *     #include <gcmutator.h>
 *     GCM_LIBFUZZER_HOOKS(GCM_FORMAT_NETTRACE)
 *     int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
 *     {
 *             my_parse(data, size);
 *             return 0;
 *     }
 *
 * and link with -lgcmutator -lcbor -lfwnt, or `pkg-config --libs gcmutator`
 * (see docs/fuzzing.md).
 *
 * Memory: the functions allocate while they work and free everything before
 * returning; results go to the caller's buffers and are never longer than
 * the size given. Not thread-safe (scratch state is static, as libFuzzer
 * calls the mutator from one thread). No function fails: at worst the input
 * comes back unchanged.
 */
#ifndef GCMUTATOR_H
#define GCMUTATOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Containers the mutator may produce (bit mask). An input in a container
 * outside the mask is rewritten into one inside it. */
#define GCM_FORMAT_CBOR        0x01u  /* gcconform CBOR model stream */
#define GCM_FORMAT_NETTRACE_V4 0x02u
#define GCM_FORMAT_NETTRACE_V5 0x04u
#define GCM_FORMAT_NETTRACE_V6 0x08u
/* Any nettrace version: mutants come out as V4, V5 or V6 (V6 is a different
 * block layout), so a parser that reads only V4/V5 asks for those bits. */
#define GCM_FORMAT_NETTRACE    0x0Eu
#define GCM_FORMAT_CTF         0x10u  /* LTTng CTF trace directory, as a ustar image */
#define GCM_FORMAT_ETL         0x20u  /* ETW .etl */
#define GCM_FORMAT_ANY         0xFFFFFFFFu

/* Mutate data[0, size) in place into at most max_size bytes; returns the
 * new size. */
size_t gcm_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed,
                  unsigned formats);

/* Splice the events of two inputs into out (at most max_out bytes); returns
 * its size. */
size_t gcm_crossover(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size,
                     uint8_t *out, size_t max_out, unsigned int seed, unsigned formats);

/* A valid stream from the generator (no mutation) in one of `formats`,
 * written into out; returns its size (0 when even the smallest stream does
 * not fit). For seeding a corpus from nothing. */
size_t gcm_seed_stream(uint8_t *out, size_t max_out, unsigned int seed, unsigned formats);

/* What the last call did, one line ("drop-event; field-boundary; ..."). */
const char *gcm_last_mutation(void);

#ifdef __cplusplus
}
#define GCM_EXTERN_C extern "C"
#else
#define GCM_EXTERN_C
#endif

/*
 * Define libFuzzer's custom mutator hooks in the harness (a macro rather
 * than hooks inside the library: a static library's member is only linked
 * when something refers to it, and libFuzzer refers to these weakly). One in
 * eight calls goes to libFuzzer's own byte-level mutator instead, so that the
 * fuzzer still reaches bit-level container damage.
 */
#define GCM_LIBFUZZER_HOOKS(formats)                                              \
	GCM_EXTERN_C int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);        \
	GCM_EXTERN_C size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size); \
	GCM_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,          \
	                                            size_t max_size, unsigned int seed); \
	GCM_EXTERN_C size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t a_size,   \
	                                              const uint8_t *b, size_t b_size,   \
	                                              uint8_t *out, size_t max_out,      \
	                                              unsigned int seed);                \
	GCM_EXTERN_C size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,          \
	                                            size_t max_size, unsigned int seed)  \
	{                                                                                 \
		if ((seed & 7) == 7)                                                      \
			return LLVMFuzzerMutate(data, size, max_size);                    \
		return gcm_mutate(data, size, max_size, seed, (formats));                 \
	}                                                                                 \
	GCM_EXTERN_C size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t a_size,   \
	                                              const uint8_t *b, size_t b_size,   \
	                                              uint8_t *out, size_t max_out,      \
	                                              unsigned int seed)                 \
	{                                                                                 \
		return gcm_crossover(a, a_size, b, b_size, out, max_out, seed, (formats)); \
	}

#endif
