/*
 * ctf_meta.h - the oracle's model of CTF 1.8 TSDL metadata, and its parser.
 *
 * The parser reads the subset of TSDL that LTTng (and gcgen, which writes
 * like LTTng) use: typealias/typedef, integer (size, align, signed,
 * byte_order, base, encoding, map = clock.X.value), floating_point, string,
 * struct (named or not, align(N)), enum (with ranges), variant (with a tag),
 * fixed arrays and sequences; the trace, env, clock, stream and event blocks;
 * callsite blocks are skipped. Written from the CTF 1.8 specification; it
 * shares no code with gen/.
 *
 * Everything lives in arrays owned by the ctf_meta (types and fields by
 * index, strings in one arena); ctf_meta_free releases them. Sequence
 * lengths and variant tags are kept as the paths written; the reader
 * resolves them where the type is used (ctf_read.c).
 *
 * Errors: ctf_meta_parse returns 0, or -1 with err filled: the diagnostic
 * code (GCSPEC_DIAG_C004 syntax, C005 inconsistent), the offset in the text
 * and a message.
 */
#ifndef ORACLE_CTF_META_H
#define ORACLE_CTF_META_H

#include <stddef.h>
#include <stdint.h>

enum ctf_kind { CK_INT = 1, CK_FLOAT, CK_STRING, CK_STRUCT, CK_VARIANT, CK_ARRAY, CK_SEQUENCE, CK_ENUM };

struct ctf_type {
	uint8_t kind;
	uint8_t is_signed;
	uint8_t byte_order;        /* 0 the trace's (native), 1 little, 2 big */
	uint8_t encoding;          /* int/string: 0 none, 1 UTF8, 2 ASCII */
	uint16_t size;             /* int/enum: bits; float: exp_dig + mant_dig */
	uint16_t exp_dig, mant_dig;
	uint32_t align;            /* bits; struct/variant: max of members' and align(N) */
	int32_t clock;             /* int: index into clocks, or -1 */
	uint32_t first, n;         /* struct/variant: fields; enum: mappings */
	int32_t elem;              /* array/sequence: element type; enum: container int */
	uint64_t length;           /* array */
	const char *ref;           /* sequence length / variant tag path, or NULL */
	uint32_t text_off;         /* where it was declared */
};

struct ctf_field {
	const char *name;
	int32_t type;
};

struct ctf_enum_map {
	const char *name;
	int64_t lo, hi;            /* unsigned containers keep their bits in these */
};

struct ctf_clock {
	const char *name;
	uint64_t freq;             /* Hz; 1e9 when not given */
	int64_t offset_s, offset;  /* seconds and cycles since the epoch at value 0 */
};

struct ctf_stream_class {
	uint64_t id;
	int32_t packet_context, event_header, event_context; /* types, or -1 */
	uint32_t text_off;
};

struct ctf_event_class {
	const char *name;
	uint64_t id, stream_id;
	int has_id, has_stream_id;
	int32_t context, fields;   /* types, or -1 */
	uint32_t text_off;         /* of its `event` keyword */
};

struct ctf_meta {
	int major, minor;          /* -1 when missing */
	int byte_order;            /* 1 le, 2 be; 0 missing */
	uint8_t uuid[16];
	int has_uuid;
	int32_t packet_header;     /* type, or -1 */
	int64_t arch_bits;         /* env architecture_bit_width, or 0 */
	int64_t vpid;              /* env vpid (per-process buffers), or -1 */
	const char *hostname, *domain, *tracer_name;

	struct ctf_type *types;
	size_t ntypes, captypes;
	struct ctf_field *fields;
	size_t nfields, capfields;
	struct ctf_enum_map *maps;
	size_t nmaps, capmaps;
	struct ctf_clock clocks[8];
	size_t nclocks;
	struct ctf_stream_class *streams;
	size_t nstreams, capstreams;
	struct ctf_event_class *events;
	size_t nevents, capevents;

	void *chunks;              /* strings: a list of arena chunks */
	char *chunk_at;
	size_t chunk_left;
};

struct ctf_meta_err {
	unsigned code;             /* GCSPEC_DIAG_C004 or C005 */
	uint32_t text_off;
	char msg[256];
};

/* Parse text[0..len). m is initialised here; free it with ctf_meta_free
 * whatever the result. */
int ctf_meta_parse(struct ctf_meta *m, const char *text, size_t len, struct ctf_meta_err *err);
void ctf_meta_free(struct ctf_meta *m);

/* A type's byte order resolved against the trace's: 1 little, 2 big. */
static inline int ctf_type_be(const struct ctf_meta *m, const struct ctf_type *t)
{
	return (t->byte_order ? t->byte_order : m->byte_order) == 2;
}

#endif
