/*
 * mutate_ctf.h - container faults for CTF traces, with ground truth.
 *
 * gen_ctf_mutate() takes an image (dirimage.h) of a valid trace directory as
 * write_ctf.c makes it, applies one fault class chosen by index and seed,
 * and returns the changed image plus the diagnostic the oracle must report,
 * the file it concerns and the byte offset in that file. It walks the trace
 * itself, with what gen knows of its own output (the metadata text it wrote,
 * the spec tables); gen/ never calls oracle/.
 *
 * Ownership: out->data is malloc'd (the caller frees it); out->file points
 * into the input image. Errors: 0; -1 when the class does not apply to this
 * trace (no packed event, no typed string, ...) or memory runs out; *why
 * says which.
 */
#ifndef GEN_MUTATE_CTF_H
#define GEN_MUTATE_CTF_H

#include <stddef.h>
#include <stdint.h>

#include "spec/gcspec.h"

enum gen_ctf_fault {
	GEN_CTF_TRUNCATE,          /* cut a stream file inside a packet: C011 at the packet */
	GEN_CTF_PACKET_MAGIC,      /* C007 at the packet */
	GEN_CTF_PACKET_UUID,       /* C008 at the packet's uuid */
	GEN_CTF_UNKNOWN_STREAM,    /* stream_id 7: C009 at the field */
	GEN_CTF_CONTENT_SIZE,      /* content size above packet size: C010 at content_size */
	GEN_CTF_EVENT_OVERRUN,     /* content size cuts a packet's last event: C012 at the event */
	GEN_CTF_UNKNOWN_EVENT_ID,  /* an event id no class has: C013 at the event */
	GEN_CTF_TIMESTAMP_RANGE,   /* timestamp_begin after the first event: C014 at the event */
	GEN_CTF_EVENTS_DISCARDED,  /* events_discarded 3: C015 (warning) at the field */
	GEN_CTF_PACKED_LENGTH,     /* a packed event's length + 1: C016 at the field */
	GEN_CTF_STRING_NOT_UTF8,   /* a typed UnicodeString starts with 0xFF: C017 at the byte */
	GEN_CTF_CLASS_LAYOUT,      /* a typed class's field renamed in the metadata: C006 at the class */
	GEN_CTF_METADATA_SYNTAX,   /* a ';' of the TSDL text made '#': C004 at the character */
	GEN_CTF_METADATA_PACKET,   /* a later metadata packet's magic changed: C002 at it */
	GEN_CTF_METADATA_VERSION,  /* a metadata packet says CTF 2.8: C003 at the packet */
	GEN_CTF_NO_METADATA,       /* the metadata file emptied: C001 at its offset 0 */
	GEN_CTF_METADATA_INVALID,  /* an integer type of 99 bits: C005 at its size */
	GEN_CTF_COUNT
};

struct gen_ctf_mutation {
	uint8_t *data;             /* the changed image */
	size_t len;
	int code;                  /* GCSPEC_DIAG_C011 */
	const char *file;          /* "channel0_3", "metadata" */
	uint64_t offset;           /* in that file */
};

int gen_ctf_mutate(const uint8_t *img, size_t len, int fault, uint64_t seed,
		   struct gen_ctf_mutation *out, const char **why);

#endif
