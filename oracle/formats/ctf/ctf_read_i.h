/*
 * ctf_read_i.h - the CTF reader's internals, shared by its modules:
 * ctf_compile.c (types -> nodes with resolved references and roles),
 * ctf_decode.c (the generic interpreter), ctf_class.c (event classes ->
 * spec event-versions), ctf_payload.c (their payloads) and ctf_read.c
 * (files, packets, merging).
 *
 * Nothing here is used outside the reader (ctf_r.h is its interface).
 */
#ifndef ORACLE_CTF_READ_I_H
#define ORACLE_CTF_READ_I_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_meta.h"
#include "oracle/formats/ctf/ctf_r.h"
#include "spec/gcspec.h"

/* What a field means to the reader, besides its value. */
enum cn_role {
	R_NONE, R_MAGIC, R_UUID, R_STREAM_ID, R_TS_BEGIN, R_TS_END, R_CONTENT_SIZE,
	R_PACKET_SIZE, R_DISCARDED, R_SEQ_NUM, R_CPU_ID, R_EVENT_ID, R_VPID, R_VTID, R_NROLES
};

/* The scopes of CTF 1.8 section 7.3.2, in decoding order. */
enum cn_scope { S_PKT_HEADER, S_PKT_CONTEXT, S_EV_HEADER, S_EV_SCONTEXT, S_EV_CONTEXT, S_EV_FIELDS,
	S_NSCOPES };

/* A type instantiated at one place: its sequence length or variant tag
 * resolved to a value slot, its role known. */
struct cnode {
	uint8_t kind;              /* enum ctf_kind */
	uint8_t be, is_signed, role;
	uint8_t clock_update;      /* an int whose value moves the stream's clock */
	uint8_t fixed;             /* always fixed_bits long, byte-aligned, little-endian */
	uint16_t size;             /* int/enum/float bits */
	uint32_t align;            /* bits */
	int32_t slot;              /* int/enum: value slot, or -1 */
	int32_t ref;               /* sequence length / variant tag: slot */
	uint32_t kids, nkids;      /* struct/variant: children, in ctfr_reader.kids */
	uint32_t vsel, nvsel;      /* variant: tag ranges -> option, in ctfr_reader.vsel */
	int32_t elem;              /* array/sequence: element node */
	uint64_t length;           /* array */
	uint64_t fixed_bits;
	const char *name;          /* the field name as declared */
	int32_t type;              /* the ctf_type it instantiates */
};

struct cvsel {
	int64_t lo, hi;            /* tag values (the container's bits) */
	uint32_t option;           /* index into the variant's children */
};

/* The value of one decoded field (top-level fields of a scope). */
struct cval {
	uint64_t u;                /* int/enum/float bits; array/sequence: element count */
	uint64_t at;               /* bit position of its first bit (after alignment) */
	uint64_t len;              /* string: bytes without NUL */
};

/* What a top-level CTF field of a typed class becomes in the payload. */
enum { A_INT, A_FLOAT, A_USTR, A_ASTR, A_GUID_LEN, A_GUID };
struct cact {
	uint8_t op;
	uint8_t width;             /* bytes in the payload */
};

/* The compiled fast path of a typed class: byte-aligned little-endian. */
enum { F_COPY, F_USTR, F_ASTR, F_GUID };
struct cfop {
	uint8_t op;
	uint32_t n;                /* F_COPY: bytes; F_GUID: bytes of its count */
};

enum { CC_TYPED, CC_PACKED, CC_OTHER, CC_BAD };

struct cclass {
	const struct ctf_event_class *ec;
	int32_t ctx, fields;       /* root nodes, or -1 */
	uint8_t kind;              /* CC_* */
	uint8_t fast;              /* fields decode by prog */
	int provider;              /* gcspec provider, or -1 */
	uint16_t id;
	uint8_t version, level, opcode;
	uint64_t keywords;
	const char *provider_name; /* as the class names it */
	uint32_t act, nact;        /* typed: one action per CTF field */
	uint32_t prog, nprog;      /* fast typed program */
	int32_t len_kid, data_kid; /* packed: children holding length and __data__ */
	/* What ctfr_next's inline path does with its fields (CI_*): a packed
	 * class, or a typed one whose fields are one copy of inl_n bytes. */
	uint8_t inl;
	uint32_t inl_n;
};
enum { CI_NONE, CI_COPY, CI_PACKED };

struct csclass {
	int32_t pctx, ehdr, ectx;  /* root nodes, or -1 */
	uint8_t fast_hdr;          /* LTTng's event_header_large, little-endian */
	uint8_t fast_ctx;          /* event context of fixed size */
	uint32_t ctx_bytes;
	int32_t vpid_at, vtid_at;  /* byte offsets in a fixed context, or -1 */
	struct cclass **by_id;     /* event id -> class (ids < nby_id) */
	size_t nby_id;
};

struct cfile {
	char *name;
	uint64_t base, size;       /* trace offset of its first byte; bytes */
};

/* A stream file being read. */
struct cstream {
	unsigned file;             /* in ctfr_reader.files */
	int fd;                    /* -1 when closed between packets */
	uint8_t *buf;              /* the current packet's content */
	size_t cap;
	uint64_t pkt_off;          /* file offset of the current packet */
	uint64_t next_pkt;         /* file offset of the next one */
	uint64_t pos, end;         /* bits in buf: decoding position, end of content */
	int truncated;             /* the file ended inside this packet */
	int sc;                    /* stream class index, -1 before the first packet */
	uint64_t clock;            /* the stream's clock value */
	uint64_t ts_begin, ts_end;
	int has_begin, has_end;
	uint64_t discarded;        /* the last events_discarded seen */
	uint64_t ts_lo, ts_hi;     /* its events' bounds: ts_begin or 0, ts_end or UINT64_MAX */
	uint8_t fast;              /* this packet's header and context take the inline path */
	int done;
	/* the decoded header of the next event */
	struct cclass *head;
	uint64_t head_ts, head_pos, body_pos;
};

struct ctfr_reader {
	ctfr_report_fn report;
	void *arg;
	struct or_stream_info *info;
	unsigned flags;
	char *dirname;
	struct ctf_meta meta;
	int meta_ok;
	char *text;                /* metadata text */
	size_t tlen;
	uint64_t *tmap;            /* per metadata text chunk: text start, file offset */
	size_t ntmap, captmap;

	struct cfile *files;       /* [0] is metadata */
	size_t nfiles;
	uint64_t total;

	struct cnode *nodes;
	size_t nnodes, capnodes;
	uint32_t *kids;
	size_t nkids, capkids;
	struct cvsel *vsel;
	size_t nvsel, capvsel;
	uint64_t *slots;
	size_t nslots;
	struct cact *acts;
	size_t nacts, capacts;
	struct cfop *prog;
	size_t nprog, capprog;

	int32_t pkt_header;        /* root node, or -1 */
	struct csclass *sclasses;  /* per meta stream class */
	struct cclass *classes;    /* per meta event class */

	struct cstream *streams;
	size_t nstreams;
	/* Streams with a head, by (time, index); each entry carries its
	 * stream's head time, so that keeping the order reads no stream. */
	struct ctfr_hent { uint64_t ts; uint32_t s; } *heap;
	size_t nheap;
	struct ctfr_hent runner;    /* the earlier child of heap[0] (see set_runner) */
	struct cstream *last;      /* returned the previous event: advance it first */
	uint64_t index;
	uint8_t *payload;          /* typed events' payload */
	size_t cap_payload;
	int keep_fds;
	struct ctfr_counts counts;
	char msg[512];
};

/* ctf_compile.c: compile the packet header, every stream class and event
 * class. Returns 0, or -1 after reporting GC-C005. */
int ctfr_compile(struct ctfr_reader *r);
/* Strip one leading '_' (CTF 1.8 section 7.3.2). */
const char *ctfr_field_name(const char *name);

/* ctf_decode.c: decode node at d->pos (bits), within d->end. */
struct cdec {
	const uint8_t *buf;
	uint64_t pos, end;
	uint64_t *slots;
	const struct ctfr_reader *r;
	uint64_t role[R_NROLES];
	uint64_t role_at[R_NROLES];  /* bit position */
	uint32_t roles;            /* bit per role seen */
	uint64_t *clock;           /* the stream's clock, for clock_update ints */
	int err;                   /* 1 overrun, 2 no variant option */
};
int ctfr_decode(struct cdec *d, int32_t node, struct cval *out);
/* Read an integer of size bits at bit position pos. */
uint64_t ctfr_read_bits(const uint8_t *buf, uint64_t pos, unsigned size, int be);
/* Little-endian loads for the fast paths (any alignment). */
static inline uint32_t ctfr_le32(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
#else
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
#endif
}

static inline uint64_t ctfr_le64(const uint8_t *p)
{
	return (uint64_t)ctfr_le32(p) | (uint64_t)ctfr_le32(p + 4) << 32;
}

/* Move a clock to an n-bit value (CTF 1.8 section 8: wrap-around). */
static inline void ctfr_clock_update(uint64_t *clock, uint64_t v, unsigned n)
{
	if (n >= 64) {
		*clock = v;
	} else {
		uint64_t mask = (1ull << n) - 1, c = (*clock & ~mask) | v;

		if (v < (*clock & mask))
			c += 1ull << n;
		*clock = c;
	}
}

/* ctf_class.c: map every event class onto the spec (reporting GC-C006). */
int ctfr_classes(struct ctfr_reader *r);
/* ctf_payload.c: build the payload of the event of class c whose fields start at s->pos;
 * fills ev's payload. Returns 0, or -1 when the event does not decode
 * (reported; the rest of the packet is dropped). */
int ctfr_fields(struct ctfr_reader *r, struct cstream *s, struct cclass *c, struct or_event *ev);

#endif
