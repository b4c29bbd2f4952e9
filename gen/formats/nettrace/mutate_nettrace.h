/*
 * mutate_nettrace.h - container faults for .nettrace files, with ground truth.
 *
 * gen_nettrace_mutate() takes the bytes of a valid nettrace file (as
 * write_nettrace.c makes them), applies one fault class chosen by index and
 * seed, and returns new bytes plus the diagnostic the oracle must report and
 * where. It walks the container itself (gen/ never calls oracle/).
 *
 * Ownership: out->data is malloc'd; the caller frees it.
 * Errors: 0; -1 when the class does not apply to this file (e.g. no stacks,
 * no padding, a V6-only fault on V5) or memory runs out; *why says which.
 */
#ifndef GEN_MUTATE_NETTRACE_H
#define GEN_MUTATE_NETTRACE_H

#include <stddef.h>
#include <stdint.h>

#include "spec/gcspec.h"

enum gen_nt_fault {
	GEN_NTF_TRUNCATE,          /* cut at a seed-chosen byte: N003 or N004 */
	GEN_NTF_BAD_MAGIC,         /* N001 */
	GEN_NTF_BAD_STREAM_HEADER, /* N002 */
	GEN_NTF_NEGATIVE_LENGTH,   /* V5 type-name length / block size < 0: N005 */
	GEN_NTF_HUGE_BLOCK,        /* block size past the file: N005 (V5), N003 (V6) */
	GEN_NTF_HEADER_TOO_SMALL,  /* EventBlock HeaderSize 12: N006 */
	GEN_NTF_BAD_PADDING,       /* V5 only: N007 */
	GEN_NTF_UNKNOWN_OBJECT,    /* V5: unknown type name N008; V6: unknown kind, skipped, N009 */
	GEN_NTF_UNDEFINED_METADATA,/* N010 */
	GEN_NTF_METADATA_ID_ZERO,  /* N011 */
	GEN_NTF_UNDEFINED_STACK,   /* N012 (needs an event with a stack) */
	GEN_NTF_UNDEFINED_THREAD,  /* V6 only: N013 */
	GEN_NTF_SEQUENCE_GAP,      /* N014 (warning) */
	GEN_NTF_STACK_SIZE,        /* N015 (needs a StackBlock) */
	GEN_NTF_VERSION_MAJOR,     /* V6 major 7 / V5 min reader version 6: N016 */
	GEN_NTF_VERSION_MINOR,     /* V6 only: minor 1, accepted with note N017 */
	GEN_NTF_POINTER_SIZE,      /* pointer size 3: N018 */
	GEN_NTF_NO_END,            /* end tag / EndOfStream block removed: N004 */
	GEN_NTF_TRUNCATE_BOUNDARY, /* cut just before a seed-chosen object/block: N004 */
	GEN_NTF_DATA_AFTER_END,    /* bytes after the end tag / EndOfStream block: N021 */
	GEN_NTF_PAYLOAD_PAST_BLOCK,/* an event's PayloadSize runs past its block: N019 */
	GEN_NTF_METADATA_UNTERMINATED, /* V4/V5: a metadata record's provider name has no NUL: N020 */
	GEN_NTF_COUNT
};

struct gen_nt_mutation {
	uint8_t *data;
	size_t len;
	int code;                  /* GCSPEC_DIAG_N010 */
	uint64_t offset;           /* where the oracle must report it */
	int offset_exact;          /* 0: the offset is approximate */
};

const char *gen_nettrace_fault_name(int fault);
int gen_nettrace_mutate(const uint8_t *in, size_t len, int fault, uint64_t seed,
                        struct gen_nt_mutation *out, const char **why);

#endif
