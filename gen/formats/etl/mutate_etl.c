/*
 * mutate_etl.c - container faults for .etl. See mutate_etl.h.
 *
 * The walker finds the buffers (the file's BufferSize apart) and the
 * records of each buffer after buffer 0; each fault edits one field in place
 * or cuts the file, so that only the intended fault is present.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/formats/etl/lzxpress_w.h"
#include "gen/formats/etl/mutate_etl.h"
#include "util/le.h"

#define BUFHDR 0x48u
#define BUFFERS_WRITTEN_AT (0x48u + 0x20u + 0x24u)
#define POINTER_SIZE_AT (0x48u + 0x20u + 0x2Cu)
#define LOG_FILE_MODE_AT (0x48u + 0x20u + 0x20u)
#define COMPRESSED_MODE 0x04000000u
#define BUFFER_COMPRESSED 0x0040u

static const char *const names[GEN_ETLF_COUNT] = {
	"truncate", "truncate-at-buffer", "bad-logfile-header", "buffer-size",
	"buffer-offset", "saved-offset", "record-crosses-buffer", "record-size",
	"unknown-header-type", "buffer-count", "extended-data", "pointer-size",
	"compressed-data", "compressed-length", "compressed-buffer-size", "compressed-truncate",
	"compressed-overflow", "compressed-flag-in-plain-file",
};

const char *gen_etl_fault_name(int fault)
{
	return fault >= 0 && fault < GEN_ETLF_COUNT ? names[fault] : "?";
}

/* The first n bytes of in, in a buffer of their own: the file a fault edits. */
static uint8_t *copy_of(const uint8_t *in, size_t n, const char **why)
{
	uint8_t *o = malloc(n);

	*why = "out of memory";
	if (o)
		memcpy(o, in, n);
	return o;
}

/* Which records a fault may pick. */
enum pick { ANY, LAST_IN_BUFFER, WITH_EXTENDED };

/*
 * The k-th record (k = seed modulo the count) of buffers 1.. that matches
 * `pick`; 0 when there is none. Records are EVENT_HEADER (the writer's
 * kernel records have their size elsewhere and are never picked).
 */
static size_t find_record(const uint8_t *d, size_t len, uint32_t bsize, enum pick pick,
                          uint64_t seed)
{
	uint64_t count = 0, k = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t b = bsize; b + bsize <= len; b += bsize) {
			uint32_t end = le32(d + b + 0x30), pos = BUFHDR;

			while (pos + 4 <= end && end <= bsize) {
				const uint8_t *r = d + b + pos;
				uint32_t size = (r[2] == 0x12 || r[2] == 0x13) ? le16(r) : le16(r + 4);
				uint32_t next = pos + ((size + 7u) & ~7u);
				int ok = r[2] == 0x12 || r[2] == 0x13;

				if (!size)
					break;
				if (pick == LAST_IN_BUFFER)
					ok = ok && next >= end;
				else if (pick == WITH_EXTENDED)
					ok = ok && (le16(r + 4) & 1);
				if (ok) {
					if (pass == 1 && k-- == 0)
						return b + pos;
					count++;
				}
				pos = next;
			}
		}
		if (!count)
			return 0;
		k = seed % count;
	}
	return 0;
}

/* The file offset of the k-th compressed buffer (k = seed modulo their
 * count) of a compressed file, its size in *size; 0 when there is none. */
static size_t find_packed(const uint8_t *d, size_t len, uint64_t seed, uint32_t *size)
{
	uint64_t count = 0, k = 0;

	for (int pass = 0; pass < 2; pass++) {
		size_t b = le32(d);

		while (b + BUFHDR <= len) {
			uint32_t s = le32(d + b);

			if (s < BUFHDR || b + s > len)
				break;
			if (le16(d + b + 0x34) & BUFFER_COMPRESSED) {
				if (pass == 1 && k-- == 0) {
					*size = s;
					return b;
				}
				count++;
			}
			b += s;
		}
		if (!count)
			return 0;
		k = seed % count;
	}
	return 0;
}

/*
 * The file with the compressed buffer at `at` (size bytes) replaced by one
 * whose data expands to the session's buffer size less its header plus 5
 * bytes: zeros (matches, a few bytes of stream) then 8 distinct bytes that
 * match nothing, so the bytes past the bound are literals (libfwnt drops
 * those silently). Offset and SavedOffset say the buffer is full, so only
 * the length of the expansion is wrong. NULL when out of memory.
 */
static uint8_t *overflowing(const uint8_t *in, size_t len, size_t at, uint32_t size,
			    uint32_t session, size_t *newlen)
{
	size_t n = (size_t)session - BUFHDR + 5, cap = gen_lzx_bound(n), clen;
	struct gen_lzx_state *st = malloc(sizeof *st);
	uint8_t *plain = calloc(1, n), *packed = malloc(cap), *o = NULL;

	if (st && plain && packed) {
		for (unsigned i = 0; i < 8; i++)
			plain[n - 8 + i] = (uint8_t)(0xA1 + 7 * i);
		clen = gen_lzx_compress(st, plain, n, packed, cap);
		*newlen = len - size + BUFHDR + clen;
		if (clen && BUFHDR + clen <= session && (o = malloc(*newlen))) {
			memcpy(o, in, at + BUFHDR);
			memcpy(o + at + BUFHDR, packed, clen);
			memcpy(o + at + BUFHDR + clen, in + at + size, len - at - size);
			put_le32(o + at, (uint32_t)(BUFHDR + clen));
			put_le32(o + at + 0x30, session);
			put_le32(o + at + 4, session);
		}
	}
	free(st);
	free(plain);
	free(packed);
	return o;
}

/* The faults of a compressed file: 0, or -1 with *why. */
static int mutate_packed(const uint8_t *in, size_t len, int fault, uint64_t seed,
                         struct gen_etl_mutation *out, const char **why)
{
	uint32_t size = 0, session = le32(in + BUFHDR + 0x20);
	size_t at = find_packed(in, len, seed, &size), newlen = len;
	uint8_t *o;

	*why = "the file has no compressed buffer";
	if (!at)
		return -1;
	out->offset_exact = 1;
	out->loses_events = 1;
	switch (fault) {
	case GEN_ETLF_PACKED_DATA:
		out->code = GCSPEC_DIAG_W012;
		out->offset = at + BUFHDR;
		break;
	case GEN_ETLF_PACKED_LENGTH:
		out->code = GCSPEC_DIAG_W013;
		out->offset = at + 0x30;
		break;
	case GEN_ETLF_PACKED_SIZE:
		out->code = GCSPEC_DIAG_W003;
		out->offset = at;
		break;
	case GEN_ETLF_PACKED_OVERFLOW:
		out->code = GCSPEC_DIAG_W012;
		out->offset = at + BUFHDR;
		*why = "out of memory";
		if (!(out->data = overflowing(in, len, at, size, session, &out->len)))
			return -1;
		return 0;
	case GEN_ETLF_PACKED_TRUNCATE:
		/* Past the header, short of the end: the data is cut. */
		newlen = at + BUFHDR + (size > BUFHDR + 1 ? (size_t)(seed % (size - BUFHDR - 1)) : 0);
		out->code = GCSPEC_DIAG_W002;
		out->offset = newlen;
		break;
	default:
		*why = "this fault is for plain files; the file is compressed";
		return -1;
	}
	if (!(o = copy_of(in, newlen, why)))
		return -1;
	switch (fault) {
	case GEN_ETLF_PACKED_DATA:
		o[at + BUFHDR + 3] |= 0x80;          /* the first token: a match with nothing before it */
		break;
	case GEN_ETLF_PACKED_LENGTH:
		put_le32(o + at + 0x30, le32(o + at + 0x30) - 8);
		put_le32(o + at + 4, le32(o + at + 0x30));
		break;
	case GEN_ETLF_PACKED_SIZE:
		put_le32(o + at, session + 8);
		break;
	default:
		break;
	}
	out->data = o;
	out->len = newlen;
	return 0;
}

int gen_etl_mutate(const uint8_t *in, size_t len, int fault, uint64_t seed,
                   struct gen_etl_mutation *out, const char **why)
{
	uint32_t bsize;
	size_t nbuf, at = 0, newlen = len;
	uint8_t *o;

	memset(out, 0, sizeof *out);
	*why = "not an .etl file as gcgen writes it";
	if (len < BUFHDR + 0x20 + 0x24)
		return -1;
	if (le32(in + LOG_FILE_MODE_AT) & COMPRESSED_MODE)
		return mutate_packed(in, len, fault, seed, out, why);
	bsize = le32(in);
	if (bsize < 1024 || len % bsize)
		return -1;
	nbuf = len / bsize;
	*why = "the file has no buffer after the logfile header";
	if (nbuf < 2)
		return -1;
	out->offset_exact = 1;
	switch (fault) {
	case GEN_ETLF_TRUNCATE:
		newlen = bsize + 1 + (size_t)(seed % (len - bsize - 1));
		if (newlen % bsize == 0)
			newlen++;
		out->code = GCSPEC_DIAG_W002;
		out->offset = newlen;
		out->loses_events = 1;
		break;
	case GEN_ETLF_TRUNCATE_BUFFER:
		newlen = (1 + (size_t)(seed % (nbuf - 1))) * bsize;
		out->code = GCSPEC_DIAG_W002;
		out->offset = newlen;
		out->loses_events = 1;
		break;
	case GEN_ETLF_BAD_LOGFILE_HEADER:
		out->code = GCSPEC_DIAG_W001;
		out->offset = BUFHDR;
		out->loses_events = 1;
		break;
	case GEN_ETLF_PACKED_IN_PLAIN:
		at = (1 + (size_t)(seed % (nbuf - 1))) * bsize;
		out->code = GCSPEC_DIAG_W014;
		out->offset = at + 0x34;
		out->loses_events = 1;
		break;
	case GEN_ETLF_BUFFER_SIZE:
	case GEN_ETLF_BUFFER_OFFSET:
	case GEN_ETLF_SAVED_OFFSET:
		at = (1 + (size_t)(seed % (nbuf - 1))) * bsize;
		out->code = fault == GEN_ETLF_BUFFER_SIZE ? GCSPEC_DIAG_W003 : GCSPEC_DIAG_W004;
		out->offset = at + (fault == GEN_ETLF_BUFFER_SIZE ? 0 : fault == GEN_ETLF_BUFFER_OFFSET ? 0x30 : 4);
		out->loses_events = fault != GEN_ETLF_SAVED_OFFSET;
		break;
	case GEN_ETLF_RECORD_CROSSES:
	case GEN_ETLF_RECORD_SIZE:
	case GEN_ETLF_UNKNOWN_HEADER:
	case GEN_ETLF_EXTENDED_DATA:
		at = find_record(in, len, bsize,
		                 fault == GEN_ETLF_RECORD_CROSSES ? LAST_IN_BUFFER :
		                 fault == GEN_ETLF_EXTENDED_DATA ? WITH_EXTENDED : ANY, seed);
		*why = fault == GEN_ETLF_EXTENDED_DATA ? "no event has extended data (write stacks)" :
		                                         "the file has no event record";
		if (!at)
			return -1;
		out->code = fault == GEN_ETLF_RECORD_CROSSES ? GCSPEC_DIAG_W005 :
		            fault == GEN_ETLF_RECORD_SIZE ? GCSPEC_DIAG_W006 :
		            fault == GEN_ETLF_UNKNOWN_HEADER ? GCSPEC_DIAG_W007 : GCSPEC_DIAG_W009;
		out->offset = at + (fault == GEN_ETLF_EXTENDED_DATA ? 0x50 : 0);
		out->loses_events = 1;
		break;
	case GEN_ETLF_BUFFER_COUNT:
		out->code = GCSPEC_DIAG_W008;
		out->offset = BUFFERS_WRITTEN_AT;
		break;
	case GEN_ETLF_POINTER_SIZE:
		out->code = GCSPEC_DIAG_W011;
		out->offset = POINTER_SIZE_AT;
		break;
	case GEN_ETLF_PACKED_DATA:
	case GEN_ETLF_PACKED_LENGTH:
	case GEN_ETLF_PACKED_SIZE:
	case GEN_ETLF_PACKED_TRUNCATE:
	case GEN_ETLF_PACKED_OVERFLOW:
		*why = "this fault is for compressed files (etl-compressed)";
		return -1;
	default:
		*why = "no such fault";
		return -1;
	}
	if (!(o = copy_of(in, newlen, why)))
		return -1;
	switch (fault) {
	case GEN_ETLF_BAD_LOGFILE_HEADER:
		o[BUFHDR + 7] = 5;               /* group 5: a thread event */
		break;
	case GEN_ETLF_BUFFER_SIZE:
		put_le32(o + at, bsize / 2);
		break;
	case GEN_ETLF_BUFFER_OFFSET:
		put_le32(o + at + 0x30, bsize + 8);
		break;
	case GEN_ETLF_SAVED_OFFSET:
		put_le32(o + at + 4, le32(o + at + 0x30) - 8);
		break;
	case GEN_ETLF_RECORD_CROSSES: {
		size_t b = at - at % bsize;
		uint32_t end = le32(o + b + 0x30);

		put_le16(o + at, (uint32_t)(b + end - at) + 8);
		break;
	}
	case GEN_ETLF_RECORD_SIZE:
		put_le16(o + at, 0x20);
		break;
	case GEN_ETLF_UNKNOWN_HEADER:
		o[at + 2] = 0x30;
		break;
	case GEN_ETLF_EXTENDED_DATA:
		put_le16(o + at + 0x50 + 6, le16(o + at) - 0x50);
		break;
	case GEN_ETLF_BUFFER_COUNT:
		put_le32(o + BUFFERS_WRITTEN_AT, le32(o + BUFFERS_WRITTEN_AT) - 1);
		break;
	case GEN_ETLF_POINTER_SIZE:
		put_le32(o + POINTER_SIZE_AT, 3);
		break;
	case GEN_ETLF_PACKED_IN_PLAIN:
		put_le16(o + at + 0x34, le16(o + at + 0x34) | BUFFER_COMPRESSED);
		break;
	default:
		break;
	}
	out->data = o;
	out->len = newlen;
	return 0;
}
