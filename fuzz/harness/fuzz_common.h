/*
 * fuzz_common.h - what every gcconform fuzz harness shares, so that each
 * harness is a few lines: call the code under test, check its invariants.
 *
 * Invariants checked (a failure aborts with a message, which libFuzzer and
 * the replay driver report as a crash):
 * - reading the same bytes twice gives the same events, decoded values and
 *   diagnostics (no hidden state, no uninitialised reads that matter);
 * - reading them as gcoracle --quiet does (no event handed on, so the
 *   checker's lean decoding) gives the same diagnostics in the same order
 *   and the same statistics as the full decode;
 * - a stream the reader read without a container error, written again by
 *   gen's writer for that container, reads back to the same header fields
 *   and events (value for value);
 * - the payload decoder's answers agree with each other (or_decode,
 *   or_decode_fits, or_struct_element), stay inside the payload, and a clean
 *   decode encoded again by gen decodes to the same values.
 *
 * Adding a reader's harness: fuzz/fuzz_<name>.c with FZ_READER_HARNESS, a line
 * in fuzz/Makefile.inc (FUZZ_READERS) and the seed recipe (fuzz/seeds.sh);
 * gcm_writer_for() in gcm_model.c names the writer for the round trip.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "fuzz/gcmutator/gcmutator.h"

/* Run one input through reader `format` (an or_reader_ops name) and check
 * the invariants above. Returns 0 (libFuzzer's convention). */
int fz_reader(const char *format, const uint8_t *data, size_t size);

/* The payload decoder alone. Input: event-version index (2 bytes LE, taken
 * modulo the spec's count), flags (1 byte: bit 0 set = 4-byte pointers),
 * then the payload. */
int fz_decode(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The structure-aware variant of a harness (fuzz_<name>_s) is the same file
 * built with -DFZ_STRUCTURED: then the harness links the gcmutator hooks. */
#ifdef FZ_STRUCTURED
#define FZ_MUTATOR(formats) GCM_LIBFUZZER_HOOKS(formats)
#else
#define FZ_MUTATOR(formats)
#endif

/* A whole reader harness: FZ_READER_HARNESS("nettrace", GCM_FORMAT_NETTRACE) */
#define FZ_READER_HARNESS(format, formats)                          \
	FZ_MUTATOR(formats)                                         \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) \
	{                                                           \
		return fz_reader((format), data, size);             \
	}

#endif
