/*
 * mutate_nettrace_table.c - nettrace's container faults as gcgen's fault
 * classes: names, the formats each applies to, and what the oracle must
 * report. The edits themselves are mutate_nettrace.c's.
 */
#include <string.h>

#include "gen/faults/mutate_container.h"
#include "gen/formats/nettrace/mutate_nettrace.h"

static int apply(const struct gen_container_fault *f, const uint8_t *in, size_t len,
		 uint64_t seed, struct gen_container_result *out, const char **why)
{
	static const int any[] = { GEN_DIAG_ANY, GEN_DIAG_END };
	struct gen_nt_mutation m;

	if (gen_nettrace_mutate(in, len, f->arg, seed, &m, why) < 0)
		return -1;
	out->data = m.data;
	out->len = m.len;
	out->code = m.code;
	out->offset = m.offset;
	out->offset_exact = m.offset_exact;
	/* V6 reads a block whose size runs past the file as far as the file
	 * goes: the blocks after it are decoded as its events, and anything
	 * may be reported before the truncation at the end. */
	if (f->arg == GEN_NTF_HUGE_BLOCK && len >= 12 && !in[8] && !in[9] && !in[10] && !in[11])
		out->may = any;
	return 0;
}

/* Events a reader passes over leave their GC's other events unpaired: any
 * stream diagnostic may follow. */
#define LOST GEN_DIAG_ANY_STREAM

#define ALL "nettrace-v4,nettrace-v5,nettrace-v6,nettrace-v5-full,nettrace-v6-full"
#define V45 "nettrace-v4,nettrace-v5,nettrace-v5-full"
#define V6 "nettrace-v6,nettrace-v6-full"

const struct gen_container_fault gen_nettrace_container_faults[] = {
	{ "truncate", ALL, GEN_CODES(GCSPEC_DIAG_N003, GCSPEC_DIAG_N004), GEN_NO_CODES, 0,
	  "cut the file at a seed-chosen byte", apply, GEN_NTF_TRUNCATE },
	{ "bad-magic", ALL, GEN_CODES(GCSPEC_DIAG_N001), GEN_NO_CODES, 0,
	  "flip a bit of the 'Nettrace' magic", apply, GEN_NTF_BAD_MAGIC },
	{ "bad-stream-header", ALL, GEN_CODES(GCSPEC_DIAG_N002), GEN_NO_CODES, 0,
	  "V4/V5 serialization signature or V6 Reserved field changed", apply, GEN_NTF_BAD_STREAM_HEADER },
	{ "negative-length", V45, GEN_CODES(GCSPEC_DIAG_N005), GEN_NO_CODES, 0,
	  "a type-name length or block size below zero", apply, GEN_NTF_NEGATIVE_LENGTH },
	{ "huge-block", ALL, GEN_CODES(GCSPEC_DIAG_N005, GCSPEC_DIAG_N003), GEN_NO_CODES, 0,
	  "an EventBlock size past the end of the file", apply, GEN_NTF_HUGE_BLOCK },
	{ "header-too-small", ALL, GEN_CODES(GCSPEC_DIAG_N006), GEN_CODES(LOST), 0,
	  "EventBlock HeaderSize 12, below the 20 its fields need", apply, GEN_NTF_HEADER_TOO_SMALL },
	{ "bad-padding", V45, GEN_CODES(GCSPEC_DIAG_N007), GEN_NO_CODES, 0,
	  "a nonzero byte in a block's alignment padding", apply, GEN_NTF_BAD_PADDING },
	{ "unknown-object", ALL, GEN_CODES(GCSPEC_DIAG_N008, GCSPEC_DIAG_N009), GEN_NO_CODES, 0,
	  "an object type (V4/V5) or block kind (V6) the format does not define", apply,
	  GEN_NTF_UNKNOWN_OBJECT },
	{ "undefined-metadata", ALL, GEN_CODES(GCSPEC_DIAG_N010), GEN_CODES(GCSPEC_DIAG_N010, LOST), 0,
	  "an event refers to a metadata id no MetadataBlock defined", apply,
	  GEN_NTF_UNDEFINED_METADATA },
	{ "metadata-id-zero", ALL, GEN_CODES(GCSPEC_DIAG_N011), GEN_CODES(GCSPEC_DIAG_N011, LOST), 0,
	  "an event with metadata id 0", apply, GEN_NTF_METADATA_ID_ZERO },
	{ "undefined-stack", ALL, GEN_CODES(GCSPEC_DIAG_N012), GEN_CODES(GCSPEC_DIAG_N012), 1,
	  "an event refers to a stack id no StackBlock defined (writes stacks)", apply,
	  GEN_NTF_UNDEFINED_STACK },
	{ "undefined-thread", V6, GEN_CODES(GCSPEC_DIAG_N013), GEN_CODES(GCSPEC_DIAG_N013, LOST), 0,
	  "an event refers to a thread index no thread block defined", apply,
	  GEN_NTF_UNDEFINED_THREAD },
	{ "sequence-gap", ALL, GEN_CODES(GCSPEC_DIAG_N014), GEN_NO_CODES, 0,
	  "a thread's sequence number jumps (events lost)", apply, GEN_NTF_SEQUENCE_GAP },
	{ "stack-size", ALL, GEN_CODES(GCSPEC_DIAG_N015), GEN_CODES(GCSPEC_DIAG_N019), 1,
	  "a stack whose size is not a multiple of the pointer size (writes stacks)", apply,
	  GEN_NTF_STACK_SIZE },
	{ "version-major", ALL, GEN_CODES(GCSPEC_DIAG_N016), GEN_NO_CODES, 0,
	  "a format version this reader must refuse", apply, GEN_NTF_VERSION_MAJOR },
	{ "version-minor", V6, GEN_CODES(GCSPEC_DIAG_N017), GEN_NO_CODES, 0,
	  "a newer minor version (accepted with a note)", apply, GEN_NTF_VERSION_MINOR },
	{ "pointer-size", ALL, GEN_CODES(GCSPEC_DIAG_N018), GEN_NO_CODES, 0,
	  "trace header pointer size 3", apply, GEN_NTF_POINTER_SIZE },
	{ "no-end", ALL, GEN_CODES(GCSPEC_DIAG_N004), GEN_NO_CODES, 0,
	  "the end-of-stream tag/block removed", apply, GEN_NTF_NO_END },
	{ "truncate-at-boundary", ALL, GEN_CODES(GCSPEC_DIAG_N004), GEN_NO_CODES, 0,
	  "cut the file just before a seed-chosen object/block", apply, GEN_NTF_TRUNCATE_BOUNDARY },
	{ "data-after-end", ALL, GEN_CODES(GCSPEC_DIAG_N021), GEN_NO_CODES, 0,
	  "4 bytes after the end-of-stream tag/block", apply, GEN_NTF_DATA_AFTER_END },
	{ "payload-past-block", ALL, GEN_CODES(GCSPEC_DIAG_N019), GEN_CODES(LOST), 0,
	  "the first event of a block says its payload runs past the block", apply,
	  GEN_NTF_PAYLOAD_PAST_BLOCK },
	{ "metadata-unterminated", V45, GEN_CODES(GCSPEC_DIAG_N020), GEN_CODES(GCSPEC_DIAG_N010, LOST), 0,
	  "a metadata record's provider name has no NUL terminator", apply,
	  GEN_NTF_METADATA_UNTERMINATED },
};
const unsigned gen_nettrace_ncontainer_faults =
	sizeof gen_nettrace_container_faults / sizeof gen_nettrace_container_faults[0];

_Static_assert(sizeof gen_nettrace_container_faults / sizeof gen_nettrace_container_faults[0] ==
	       GEN_NTF_COUNT, "one row per nettrace fault");
