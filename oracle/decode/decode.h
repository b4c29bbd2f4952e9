/*
 * decode.h - the spec-table-driven payload decoder.
 *
 * or_decode() walks an event-version's template over the payload bytes and
 * fills one or_val per field (indexed like the event's gcspec fields). It
 * allocates nothing: values point into the payload, which the caller keeps
 * alive. Every size is checked against the bytes present before it is used.
 *
 * Problems are reported through the context (GC-P00x, GC-V001..V003 for
 * value maps, including struct members); with ctx == NULL the decoder is
 * silent and only says whether the template fits the payload exactly.
 *
 * The decoder stands below the checker (oracle/check/ includes it, never
 * the reverse): what it needs to know of its callers comes as data in the
 * context, such as the fields the lean decoder must fill (or_ctx.keep).
 */
#ifndef ORACLE_DECODE_H
#define ORACLE_DECODE_H

#include <stdint.h>

#include "spec/gcspec.h"
#include "oracle/oracle.h"

#define OR_MAX_FIELDS 64

struct or_val {
	uint64_t u;    /* integer (Int* sign-extended), float bits, or struct count */
	uint32_t off;  /* payload offset of the field's first byte */
	uint32_t len;  /* bytes, without a string's terminator; struct: all elements */
};

struct or_decoded {
	const struct gcspec_event *spec;
	unsigned event;                /* spec's index in gcspec_events */
	const uint8_t *payload;
	uint32_t payload_len;
	uint8_t pointer_size;
	/* Fields [0, nvalid) were decoded; struct members hold the last
	 * element's values (use or_struct_element to walk elements). */
	unsigned nvalid;
	int complete;  /* the whole template was decoded */
	struct or_val v[OR_MAX_FIELDS];
};

/* Decode ev's payload by spec. Returns 0 when the template was decoded
 * entirely (longer payloads included), -1 when it stopped early. */
int or_decode(struct or_ctx *ctx, const struct or_event *ev,
              const struct gcspec_event *spec, struct or_decoded *out);

/* The same for a caller that reads only the fields ctx->keep names for the
 * event-version and the diagnostics: a payload that raises none is read
 * only where a rule looks, and out->v holds those fields (the others are
 * left unset); any other payload is decoded by or_decode(), which reports.
 * With no keep table it is or_decode(). Returns as or_decode(). */
int or_decode_lean(struct or_ctx *ctx, const struct or_event *ev,
                   const struct gcspec_event *spec, struct or_decoded *out);

/* Does spec's template decode these bytes exactly, without any problem? */
int or_decode_fits(const struct gcspec_event *spec, const uint8_t *payload,
                   uint32_t len, unsigned pointer_size);

/* Decode one element of the struct at field index sf, starting at *pos
 * (start at dec->v[sf].off); member values go to vals[sf+1 ..]. Returns 0,
 * or -1 past the end (cannot happen for a struct or_decode() accepted). */
int or_struct_element(const struct or_decoded *dec, unsigned sf, uint32_t *pos,
                      struct or_val *vals);

const char *or_type_name(unsigned type);

/* Index of the field called name among spec's fields, or -1. */
int or_field_index(const struct gcspec_event *spec, const char *name);

/* Read little-endian integers without alignment assumptions. */
uint64_t or_le(const uint8_t *p, unsigned width);

#endif
