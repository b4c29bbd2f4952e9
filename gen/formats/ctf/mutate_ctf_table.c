/*
 * mutate_ctf_table.c - CTF's container faults as gcgen's fault classes:
 * names, the format they apply to, and what the oracle must report. The
 * edits themselves are mutate_ctf.c's.
 */
#include "gen/faults/mutate_container.h"
#include "gen/formats/ctf/mutate_ctf.h"

static int apply(const struct gen_container_fault *f, const uint8_t *in, size_t len,
		 uint64_t seed, struct gen_container_result *out, const char **why)
{
	struct gen_ctf_mutation m;

	if (gen_ctf_mutate(in, len, f->arg, seed, &m, why) < 0)
		return -1;
	out->data = m.data;
	out->len = m.len;
	out->code = m.code;
	out->file = m.file;
	out->offset = m.offset;
	out->offset_exact = 1;
	return 0;
}

/* Events a reader cannot read leave their GC's other events unpaired: any
 * stream diagnostic may follow. */
#define LOST GEN_DIAG_ANY_STREAM

const struct gen_container_fault gen_ctf_container_faults[] = {
	{ "ctf-truncate", "ctf", GEN_CODES(GCSPEC_DIAG_C011), GEN_CODES(LOST), 0,
	  "cut a stream file inside a packet", apply, GEN_CTF_TRUNCATE },
	{ "ctf-packet-magic", "ctf", GEN_CODES(GCSPEC_DIAG_C007), GEN_CODES(LOST), 0,
	  "flip a bit of a stream packet's magic", apply, GEN_CTF_PACKET_MAGIC },
	{ "ctf-packet-uuid", "ctf", GEN_CODES(GCSPEC_DIAG_C008), GEN_NO_CODES, 0,
	  "a stream packet's uuid differs from the trace's", apply, GEN_CTF_PACKET_UUID },
	{ "ctf-unknown-stream", "ctf", GEN_CODES(GCSPEC_DIAG_C009), GEN_CODES(LOST), 0,
	  "a stream packet names stream id 7, which the metadata does not declare", apply,
	  GEN_CTF_UNKNOWN_STREAM },
	{ "ctf-content-size", "ctf", GEN_CODES(GCSPEC_DIAG_C010), GEN_CODES(LOST), 0,
	  "a packet's content size above its packet size", apply, GEN_CTF_CONTENT_SIZE },
	{ "ctf-event-overrun", "ctf", GEN_CODES(GCSPEC_DIAG_C012), GEN_CODES(LOST), 0,
	  "a packet's content size ends inside its last event", apply, GEN_CTF_EVENT_OVERRUN },
	{ "ctf-unknown-event-id", "ctf", GEN_CODES(GCSPEC_DIAG_C013), GEN_CODES(LOST), 0,
	  "an event header names event id 60000, which no class has", apply,
	  GEN_CTF_UNKNOWN_EVENT_ID },
	{ "ctf-timestamp-range", "ctf", GEN_CODES(GCSPEC_DIAG_C014), GEN_NO_CODES, 0,
	  "a packet's timestamp_begin set after its first event", apply, GEN_CTF_TIMESTAMP_RANGE },
	{ "ctf-events-discarded", "ctf", GEN_CODES(GCSPEC_DIAG_C015), GEN_NO_CODES, 0,
	  "a packet says the tracer discarded 3 events", apply, GEN_CTF_EVENTS_DISCARDED },
	{ "ctf-packed-length", "ctf", GEN_CODES(GCSPEC_DIAG_C016), GEN_NO_CODES, 0,
	  "a packed event's length field one more than its data", apply, GEN_CTF_PACKED_LENGTH },
	{ "ctf-string-not-utf8", "ctf", GEN_CODES(GCSPEC_DIAG_C017), GEN_NO_CODES, 0,
	  "a typed UnicodeString field starts with the byte 0xFF", apply, GEN_CTF_STRING_NOT_UTF8 },
	{ "ctf-class-layout", "ctf", GEN_CODES(GCSPEC_DIAG_C006), GEN_CODES(LOST), 0,
	  "a field of a typed event class renamed in the metadata", apply, GEN_CTF_CLASS_LAYOUT },
	{ "ctf-metadata-syntax", "ctf", GEN_CODES(GCSPEC_DIAG_C004), GEN_NO_CODES, 0,
	  "a ';' of the TSDL text replaced by '#'", apply, GEN_CTF_METADATA_SYNTAX },
	{ "ctf-metadata-packet", "ctf", GEN_CODES(GCSPEC_DIAG_C002), GEN_NO_CODES, 0,
	  "flip a bit of a metadata packet's magic", apply, GEN_CTF_METADATA_PACKET },
	{ "ctf-metadata-version", "ctf", GEN_CODES(GCSPEC_DIAG_C003), GEN_NO_CODES, 0,
	  "a metadata packet declares CTF 2.8", apply, GEN_CTF_METADATA_VERSION },
	{ "ctf-no-metadata", "ctf", GEN_CODES(GCSPEC_DIAG_C001), GEN_NO_CODES, 0,
	  "the metadata file emptied", apply, GEN_CTF_NO_METADATA },
	{ "ctf-metadata-invalid", "ctf", GEN_CODES(GCSPEC_DIAG_C005), GEN_NO_CODES, 0,
	  "an integer type of the TSDL made 99 bits wide", apply, GEN_CTF_METADATA_INVALID },
};
const unsigned gen_ctf_ncontainer_faults =
	sizeof gen_ctf_container_faults / sizeof gen_ctf_container_faults[0];

_Static_assert(sizeof gen_ctf_container_faults / sizeof gen_ctf_container_faults[0] ==
	       GEN_CTF_COUNT, "one row per CTF fault");
