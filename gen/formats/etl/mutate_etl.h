/*
 * mutate_etl.h - container faults for .etl files, with ground truth.
 *
 * gen_etl_mutate() takes the bytes of a valid .etl file (as write_etl.c
 * makes them), applies one fault class chosen by index and seed, and
 * returns new bytes plus the diagnostic the oracle must report and where.
 * It walks the buffers itself (gen/ never calls oracle/): a plain file's
 * are BufferSize apart, a compressed file's each its own BufferSize long;
 * the compressed-file faults apply to compressed files only, the others to
 * plain ones only.
 *
 * Ownership: out->data is malloc'd; the caller frees it.
 * Errors: 0; -1 when the class does not apply to this file (no event with
 * extended data, too few buffers) or memory runs out; *why says which.
 */
#ifndef GEN_MUTATE_ETL_H
#define GEN_MUTATE_ETL_H

#include <stddef.h>
#include <stdint.h>

#include "spec/gcspec.h"

enum gen_etl_fault {
	GEN_ETLF_TRUNCATE,          /* cut inside a buffer after buffer 0: W002 at the cut */
	GEN_ETLF_TRUNCATE_BUFFER,   /* cut at a buffer boundary: W002 at the end */
	GEN_ETLF_BAD_LOGFILE_HEADER,/* first record's group is not 0: W001 at 0x48 */
	GEN_ETLF_BUFFER_SIZE,       /* a later buffer's BufferSize halved: W003 */
	GEN_ETLF_BUFFER_OFFSET,     /* a buffer's Offset past its end: W004 at +0x30 */
	GEN_ETLF_SAVED_OFFSET,      /* SavedOffset disagrees with Offset: W004 at +0x04 */
	GEN_ETLF_RECORD_CROSSES,    /* the last record of a buffer runs past its data: W005 */
	GEN_ETLF_RECORD_SIZE,       /* an EVENT_HEADER Size below 0x50: W006 */
	GEN_ETLF_UNKNOWN_HEADER,    /* a record's header type 0x30: W007 */
	GEN_ETLF_BUFFER_COUNT,      /* BuffersWritten one short: W008 (warning) */
	GEN_ETLF_EXTENDED_DATA,     /* an extended item's DataSize past the record: W009 */
	GEN_ETLF_POINTER_SIZE,      /* logfile header PointerSize 3: W011 */
	/* Compressed files (etl-compressed) */
	GEN_ETLF_PACKED_DATA,       /* a compressed buffer's first token a match: W012 at +0x48 */
	GEN_ETLF_PACKED_LENGTH,     /* its Offset 8 short of what the data expands to: W013 at +0x30 */
	GEN_ETLF_PACKED_SIZE,       /* its BufferSize past the session's: W003 at the buffer */
	GEN_ETLF_PACKED_TRUNCATE,   /* the file cut inside a compressed buffer: W002 at the cut */
	GEN_ETLF_PACKED_OVERFLOW,   /* its data expands 5 bytes past the session's buffer size,
				       the last of them literals: W012 at +0x48 */
	/* Plain files */
	GEN_ETLF_PACKED_IN_PLAIN,   /* BufferFlag 0x40 in a plain file: W014 at +0x34 */
	GEN_ETLF_COUNT
};

struct gen_etl_mutation {
	uint8_t *data;
	size_t len;
	int code;                  /* GCSPEC_DIAG_W005 */
	uint64_t offset;           /* where the oracle must report it */
	int offset_exact;
	int loses_events;          /* events are passed over: stream codes may follow */
};

const char *gen_etl_fault_name(int fault);
int gen_etl_mutate(const uint8_t *in, size_t len, int fault, uint64_t seed,
                   struct gen_etl_mutation *out, const char **why);

#endif
