/*
 * mutate_etl_table.c - .etl container faults as gcgen's fault classes:
 * names, the format they apply to, and what the oracle must report. The
 * edits themselves are mutate_etl.c's.
 */
#include "gen/faults/mutate_container.h"
#include "gen/formats/etl/mutate_etl.h"

static int apply(const struct gen_container_fault *f, const uint8_t *in, size_t len,
		 uint64_t seed, struct gen_container_result *out, const char **why)
{
	struct gen_etl_mutation m;

	if (gen_etl_mutate(in, len, f->arg, seed, &m, why) < 0)
		return -1;
	out->data = m.data;
	out->len = m.len;
	out->code = m.code;
	out->offset = m.offset;
	out->offset_exact = m.offset_exact;
	return 0;
}

/* Events a reader passes over leave their GC's other events unpaired: any
 * stream diagnostic may follow. */
#define LOST GEN_DIAG_ANY_STREAM
#define ETL "etl,etl-merged"
#define PACKED "etl-compressed"

const struct gen_container_fault gen_etl_container_faults[] = {
	{ "truncate", ETL, GEN_CODES(GCSPEC_DIAG_W002), GEN_CODES(LOST), 0,
	  "cut the file inside a buffer after the logfile header's", apply, GEN_ETLF_TRUNCATE },
	{ "truncate-at-buffer", ETL, GEN_CODES(GCSPEC_DIAG_W002), GEN_CODES(LOST), 0,
	  "cut the file at a buffer boundary (fewer buffers than BuffersWritten)", apply,
	  GEN_ETLF_TRUNCATE_BUFFER },
	{ "bad-logfile-header", ETL, GEN_CODES(GCSPEC_DIAG_W001), GEN_NO_CODES, 0,
	  "the first record is not a logfile header (group 5)", apply, GEN_ETLF_BAD_LOGFILE_HEADER },
	{ "buffer-size", ETL, GEN_CODES(GCSPEC_DIAG_W003), GEN_CODES(LOST), 0,
	  "a buffer's BufferSize differs from the file's", apply, GEN_ETLF_BUFFER_SIZE },
	{ "buffer-offset", ETL, GEN_CODES(GCSPEC_DIAG_W004), GEN_CODES(LOST), 0,
	  "a buffer's end of data (Offset) past the buffer", apply, GEN_ETLF_BUFFER_OFFSET },
	{ "saved-offset", ETL, GEN_CODES(GCSPEC_DIAG_W004), GEN_NO_CODES, 0,
	  "a buffer's SavedOffset disagrees with its Offset", apply, GEN_ETLF_SAVED_OFFSET },
	{ "record-crosses-buffer", ETL, GEN_CODES(GCSPEC_DIAG_W005), GEN_CODES(LOST), 0,
	  "a buffer's last record runs past its end of data", apply, GEN_ETLF_RECORD_CROSSES },
	{ "record-size", ETL, GEN_CODES(GCSPEC_DIAG_W006), GEN_CODES(LOST), 0,
	  "an EVENT_HEADER record's Size below its 0x50-byte header", apply, GEN_ETLF_RECORD_SIZE },
	{ "unknown-header-type", ETL, GEN_CODES(GCSPEC_DIAG_W007), GEN_CODES(LOST), 0,
	  "a record of header type 0x30 (unknown size)", apply, GEN_ETLF_UNKNOWN_HEADER },
	{ "buffer-count", ETL, GEN_CODES(GCSPEC_DIAG_W008), GEN_NO_CODES, 0,
	  "the logfile header's BuffersWritten one short of the buffers present", apply,
	  GEN_ETLF_BUFFER_COUNT },
	{ "extended-data", ETL, GEN_CODES(GCSPEC_DIAG_W009), GEN_CODES(LOST), 1,
	  "an event's extended data item runs past the record (writes stacks)", apply,
	  GEN_ETLF_EXTENDED_DATA },
	{ "pointer-size", ETL, GEN_CODES(GCSPEC_DIAG_W011), GEN_NO_CODES, 0,
	  "logfile header PointerSize 3", apply, GEN_ETLF_POINTER_SIZE },
	{ "compressed-data", PACKED, GEN_CODES(GCSPEC_DIAG_W012), GEN_CODES(LOST), 0,
	  "a compressed buffer's LZXPRESS data corrupt (its first token a match)", apply,
	  GEN_ETLF_PACKED_DATA },
	{ "compressed-length", PACKED, GEN_CODES(GCSPEC_DIAG_W013), GEN_CODES(LOST), 0,
	  "a compressed buffer's Offset 8 short of what its data expands to", apply,
	  GEN_ETLF_PACKED_LENGTH },
	{ "compressed-buffer-size", PACKED, GEN_CODES(GCSPEC_DIAG_W003), GEN_CODES(LOST), 0,
	  "a compressed buffer's BufferSize past the session's buffer size", apply,
	  GEN_ETLF_PACKED_SIZE },
	{ "compressed-truncate", PACKED, GEN_CODES(GCSPEC_DIAG_W002), GEN_CODES(LOST), 0,
	  "cut the file inside a compressed buffer's data", apply, GEN_ETLF_PACKED_TRUNCATE },
	{ "compressed-overflow", PACKED, GEN_CODES(GCSPEC_DIAG_W012), GEN_CODES(LOST), 0,
	  "a compressed buffer's data expands 5 bytes past the buffer size (the last bytes literals)",
	  apply, GEN_ETLF_PACKED_OVERFLOW },
	{ "compressed-flag-in-plain-file", ETL, GEN_CODES(GCSPEC_DIAG_W014), GEN_CODES(LOST), 0,
	  "a buffer's BufferFlag says compressed (0x40) in a file not in compressed mode", apply,
	  GEN_ETLF_PACKED_IN_PLAIN },
};
const unsigned gen_etl_ncontainer_faults =
	sizeof gen_etl_container_faults / sizeof gen_etl_container_faults[0];

_Static_assert(sizeof gen_etl_container_faults / sizeof gen_etl_container_faults[0] ==
	       GEN_ETLF_COUNT, "one row per etl fault");
