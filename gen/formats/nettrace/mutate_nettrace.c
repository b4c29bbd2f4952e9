/*
 * mutate_nettrace.c - container faults for .nettrace. See mutate_nettrace.h.
 *
 * The walker below finds the objects/blocks of a file the writer made; each
 * fault then edits a field in place or inserts exactly 4 bytes (and grows the
 * block size by 4), so that V4/V5 4-byte file alignment after the edit stays
 * as valid as it was: only the intended fault is present.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/formats/nettrace/mutate_nettrace.h"
#include "util/le.h"

enum { K_TRACE = 1, K_EVENT = 2, K_META = 3, K_SP = 4, K_STACK = 5, K_THREAD = 6 };

struct blk {
	int kind;
	size_t start;        /* first byte of the object/block */
	size_t name_len_at;  /* V5: the type-name length field */
	size_t size_at;      /* the BlockSize field (V5) or block header (V6) */
	size_t pad_at, pad;  /* V5 padding */
	size_t content, len; /* content offset and size */
	size_t end;          /* one past the object/block */
};

struct walk {
	int v6;
	struct blk b[4096];
	size_t n;
	size_t end_marker;   /* offset of the end tag / EndOfStream block */
};

static int walk(const uint8_t *d, size_t n, struct walk *w)
{
	size_t i;

	memset(w, 0, sizeof *w);
	if (n < 20 || memcmp(d, "Nettrace", 8))
		return -1;
	w->v6 = le32(d + 8) == 0;
	i = w->v6 ? 20 : 32;
	while (i < n && w->n < sizeof w->b / sizeof w->b[0]) {
		struct blk *b = &w->b[w->n];

		memset(b, 0, sizeof *b);
		b->start = i;
		if (w->v6) {
			uint32_t h;

			if (i + 4 > n)
				return -1;
			h = le32(d + i);
			if (h >> 24 == 0) {
				w->end_marker = i;
				return 0;
			}
			b->kind = (int)(h >> 24);
			b->size_at = i;
			b->content = i + 4;
			b->len = h & 0xffffff;
		} else {
			uint32_t nl;
			static const char *const names[] = { NULL, "Trace", "EventBlock",
				"MetadataBlock", "SPBlock", "StackBlock" };

			if (d[i] == 1) {
				w->end_marker = i;
				return 0;
			}
			if (i + 14 > n)
				return -1;
			b->name_len_at = i + 11;
			nl = le32(d + i + 11);
			if (i + 15 + nl > n)
				return -1;
			for (int k = 1; k <= 5; k++)
				if (strlen(names[k]) == nl && !memcmp(d + i + 15, names[k], nl))
					b->kind = k;
			i += 15 + nl + 1;
			if (b->kind == K_TRACE) {
				b->content = i;
				b->len = 48;
			} else {
				if (i + 4 > n)
					return -1;
				b->size_at = i;
				b->len = le32(d + i);
				i += 4;
				b->pad_at = i;
				b->pad = (4 - (i & 3)) & 3;
				b->content = i + b->pad;
			}
		}
		b->end = b->content + b->len + (w->v6 ? 0 : 1);
		if (b->end > n)
			return -1;
		i = b->end;
		w->n++;
	}
	return -1;
}

static const struct blk *find(const struct walk *w, int kind, uint64_t seed, int last)
{
	size_t count = 0, k;

	for (size_t j = 0; j < w->n; j++)
		count += w->b[j].kind == kind;
	if (!count)
		return NULL;
	k = last ? count - 1 : (size_t)(seed % count);
	for (size_t j = 0; j < w->n; j++)
		if (w->b[j].kind == kind && !k--)
			return &w->b[j];
	return NULL;
}

/* Copy in[0..len) with 4 bytes inserted at 'at' (zeros). */
static uint8_t *insert4(const uint8_t *in, size_t len, size_t at)
{
	uint8_t *o = malloc(len + 4);

	if (!o)
		return NULL;
	memcpy(o, in, at);
	memset(o + at, 0, 4);
	memcpy(o + at + 4, in + at, len - at);
	return o;
}

static void grow_block(uint8_t *o, const struct walk *w, const struct blk *b)
{
	if (w->v6)
		put_le32(o + b->size_at, le32(o + b->size_at) + 4);
	else
		put_le32(o + b->size_at, le32(o + b->size_at) + 4);
}

static size_t varlen(const uint8_t *p, size_t max)
{
	size_t k = 0;

	while (k < max && (p[k] & 0x80))
		k++;
	return k + 1;
}

static uint64_t varval(const uint8_t *p, size_t len)
{
	uint64_t v = 0;

	for (size_t k = 0; k < len; k++)
		v |= (uint64_t)(p[k] & 0x7f) << (7 * k);
	return v;
}

/* Write v as exactly len bytes of varuint (overlong when it fits in fewer). */
static void varput(uint8_t *p, uint64_t v, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		p[k] = (uint8_t)((v & 0x7f) | (k + 1 < len ? 0x80 : 0));
		v >>= 7;
	}
}

/*
 * Rewrite one varint field of the first event of an EventBlock. field is the
 * flag bit that guards it (1 metadata, 2 sequence, 4 thread, 8 stack). For
 * uncompressed headers the fixed u32 at fixed_at is set instead. value(old)
 * gives the new value; 5 bytes are used when the old varint had 1.
 */
static int event_field(const uint8_t *in, size_t len, const struct walk *w,
                       const struct blk *b, unsigned field, size_t fixed_at,
                       uint64_t (*value)(uint64_t), struct gen_nt_mutation *out,
                       const char **why)
{
	const uint8_t *e = in + b->content + (in[b->content] | in[b->content + 1] << 8);
	size_t at, vl;
	uint8_t flags;
	uint8_t *o;

	out->offset = (uint64_t)(e - in);
	out->offset_exact = 1;
	if (!(in[b->content + 2] & 1)) { /* uncompressed headers */
		o = malloc(len);
		if (!o)
			return -1;
		memcpy(o, in, len);
		put_le32(o + (e - in) + fixed_at, (uint32_t)value(le32(e + fixed_at)));
		out->data = o;
		out->len = len;
		return 0;
	}
	flags = e[0];
	if (!(flags & field)) {
		*why = "the first event of the block does not carry that field";
		return -1;
	}
	at = (size_t)(e - in) + 1;
	for (unsigned bit = 1; bit < field; bit <<= 1) {
		if (!(flags & bit))
			continue;
		if (bit == 2) { /* sequence delta, capture thread, processor */
			for (int k = 0; k < 3; k++)
				at += varlen(in + at, 10);
		} else {
			at += varlen(in + at, 10);
		}
	}
	vl = varlen(in + at, 10);
	if (vl == 1) {
		uint64_t v = value(varval(in + at, 1));

		o = insert4(in, len, at + 1);
		if (!o)
			return -1;
		varput(o + at, v, 5);
		grow_block(o, w, b);
		out->len = len + 4;
	} else {
		uint64_t v = value(varval(in + at, vl));

		if (vl < 10 && v >> (7 * vl))
			v = (1ULL << (7 * vl)) - 1; /* the largest that fits */
		o = malloc(len);
		if (!o)
			return -1;
		memcpy(o, in, len);
		varput(o + at, v, vl);
		out->len = len;
	}
	out->data = o;
	return 0;
}

/*
 * The first blob of a block with compressed headers: where its PayloadSize
 * varint is (*size_at, 0 when the flags leave it out) and where its payload
 * starts and how long it is. Returns 0, or -1 with why.
 */
static int first_blob(const uint8_t *in, size_t len, const struct walk *w, const struct blk *b,
		      size_t *size_at, size_t *payload_at, uint64_t *payload_len, const char **why)
{
	size_t at = b->content + (in[b->content] | in[b->content + 1] << 8);
	uint8_t flags;

	if (!(in[b->content + 2] & 1))
		return *why = "the block's headers are uncompressed", -1;
	flags = in[at++];
	/* metadata id; sequence delta, capture thread, processor; thread; stack */
	at += flags & 1 ? varlen(in + at, 10) : 0;
	for (int k = 0; k < 3 && (flags & 2); k++)
		at += varlen(in + at, 10);
	at += flags & 4 ? varlen(in + at, 10) : 0;
	at += flags & 8 ? varlen(in + at, 10) : 0;
	at += varlen(in + at, 10); /* timestamp delta */
	if (w->v6)
		at += flags & 16 ? varlen(in + at, 10) : 0;
	else
		at += (flags & 16 ? 16 : 0) + (flags & 32 ? 16 : 0);
	if (!(flags & 128))
		return *why = "the first blob does not carry its payload size", -1;
	*size_at = at;
	*payload_len = varval(in + at, varlen(in + at, 10));
	*payload_at = at + varlen(in + at, 10);
	if (*payload_at + *payload_len > len)
		return *why = "the first blob runs past the file", -1;
	return 0;
}

static uint64_t v_huge(uint64_t old) { (void)old; return 0x7ffffff0u; }
static uint64_t v_zero(uint64_t old) { (void)old; return 0; }
static uint64_t v_gap(uint64_t old) { return old + 5; }

static const char *const fault_names[GEN_NTF_COUNT] = {
	"truncate", "bad-magic", "bad-stream-header", "negative-length", "huge-block",
	"header-too-small", "bad-padding", "unknown-object", "undefined-metadata",
	"metadata-id-zero", "undefined-stack", "undefined-thread", "sequence-gap",
	"stack-size", "version-major", "version-minor", "pointer-size", "no-end",
	"truncate-at-boundary", "data-after-end", "payload-past-block", "metadata-unterminated",
};

const char *gen_nettrace_fault_name(int fault)
{
	return fault >= 0 && fault < GEN_NTF_COUNT ? fault_names[fault] : NULL;
}

static uint8_t *copy(const uint8_t *in, size_t len)
{
	uint8_t *o = malloc(len ? len : 1);

	if (o)
		memcpy(o, in, len);
	return o;
}

int gen_nettrace_mutate(const uint8_t *in, size_t len, int fault, uint64_t seed,
                        struct gen_nt_mutation *out, const char **why)
{
	static struct walk w; /* large; the mutator is not reentrant */
	const struct blk *b;
	uint8_t *o = NULL;

	memset(out, 0, sizeof *out);
	*why = "out of memory";
	if (walk(in, len, &w) || !w.end_marker) {
		*why = "input is not a complete nettrace file this walker understands";
		return -1;
	}
	out->offset_exact = 1;
	switch (fault) {
	case GEN_NTF_TRUNCATE: {
		size_t cut = 12 + (size_t)(seed % (len - 12));
		int boundary = cut == w.end_marker;

		for (size_t j = 1; j < w.n; j++) /* after the Trace object/block */
			boundary |= cut == w.b[j].start;
		if (!(o = copy(in, cut)))
			return -1;
		out->len = cut;
		out->code = boundary ? GCSPEC_DIAG_N004 : GCSPEC_DIAG_N003;
		out->offset = cut;
		break;
	}
	case GEN_NTF_BAD_MAGIC:
		if (!(o = copy(in, len)))
			return -1;
		o[seed % 8] ^= 0x20;
		out->code = GCSPEC_DIAG_N001;
		out->offset = 0;
		break;
	case GEN_NTF_BAD_STREAM_HEADER:
		if (!(o = copy(in, len)))
			return -1;
		if (w.v6) {
			put_le32(o + 8, 1 + (uint32_t)(seed % 7)); /* Reserved != 0 and != 20 */
			out->offset = 8;
		} else {
			o[12 + seed % 20] ^= 0x01;
			out->offset = 12;
		}
		out->code = GCSPEC_DIAG_N002;
		break;
	case GEN_NTF_NEGATIVE_LENGTH:
		if (w.v6 || !(b = find(&w, K_EVENT, seed, 0))) {
			*why = "V4/V5 only";
			return -1;
		}
		if (!(o = copy(in, len)))
			return -1;
		if (seed & 1) {
			put_le32(o + b->name_len_at, 0xfffffff0u);
			out->offset = b->name_len_at;
		} else {
			put_le32(o + b->size_at, 0xfffffff0u);
			out->offset = b->size_at;
		}
		out->code = GCSPEC_DIAG_N005;
		break;
	case GEN_NTF_HUGE_BLOCK:
		if (!(b = find(&w, K_EVENT, seed, 0)))
			return *why = "no EventBlock", -1;
		if (!(o = copy(in, len)))
			return -1;
		if (w.v6) {
			put_le32(o + b->size_at, 0xffffffu | (uint32_t)K_EVENT << 24);
			out->code = GCSPEC_DIAG_N003;
			out->offset = len;
			out->offset_exact = 0; /* truncation is found where the file ends */
		} else {
			put_le32(o + b->size_at, 0x7ffffff0u);
			out->code = GCSPEC_DIAG_N005;
			out->offset = b->size_at;
		}
		break;
	case GEN_NTF_HEADER_TOO_SMALL:
		if (!(b = find(&w, K_EVENT, seed, 0)))
			return *why = "no EventBlock", -1;
		if (!(o = copy(in, len)))
			return -1;
		o[b->content] = 12;
		o[b->content + 1] = 0;
		out->code = GCSPEC_DIAG_N006;
		out->offset = b->content;
		break;
	case GEN_NTF_BAD_PADDING: {
		const struct blk *pb = NULL;

		for (size_t j = 0; j < w.n && !w.v6; j++)
			if (w.b[j].pad && (!pb || seed % 3 == 0))
				pb = &w.b[j];
		if (!pb)
			return *why = "no padding in this file (V6 has none)", -1;
		if (!(o = copy(in, len)))
			return -1;
		o[pb->pad_at] = 0xaa;
		out->code = GCSPEC_DIAG_N007;
		out->offset = pb->pad_at;
		break;
	}
	case GEN_NTF_UNKNOWN_OBJECT:
		if (!(b = find(&w, K_SP, seed, 0)) && !(b = find(&w, K_STACK, seed, 0)))
			return *why = "no SPBlock or StackBlock", -1;
		if (!(o = copy(in, len)))
			return -1;
		if (w.v6) {
			o[b->size_at + 3] = 42;
			out->code = GCSPEC_DIAG_N009;
		} else {
			o[b->name_len_at + 4] = 'X';
			out->code = GCSPEC_DIAG_N008;
		}
		out->offset = b->start;
		break;
	case GEN_NTF_UNDEFINED_METADATA:
	case GEN_NTF_METADATA_ID_ZERO:
		if (!(b = find(&w, K_EVENT, seed, 0)))
			return *why = "no EventBlock", -1;
		if (event_field(in, len, &w, b, 1, 4,
		                fault == GEN_NTF_METADATA_ID_ZERO ? v_zero : v_huge, out, why))
			return -1;
		out->code = fault == GEN_NTF_METADATA_ID_ZERO ? GCSPEC_DIAG_N011 : GCSPEC_DIAG_N010;
		return 0;
	case GEN_NTF_UNDEFINED_STACK:
		for (size_t j = 0; j < w.n; j++) {
			b = &w.b[j];
			if (b->kind == K_EVENT &&
			    !event_field(in, len, &w, b, 8, w.v6 ? 32 : 32, v_huge, out, why)) {
				out->code = GCSPEC_DIAG_N012;
				return 0;
			}
		}
		return *why = "no event block starts with a stack", -1;
	case GEN_NTF_UNDEFINED_THREAD:
		if (!w.v6 || !(b = find(&w, K_EVENT, seed, 0)))
			return *why = "V6 only", -1;
		if (event_field(in, len, &w, b, 4, 12, v_huge, out, why))
			return -1;
		out->code = GCSPEC_DIAG_N013;
		return 0;
	case GEN_NTF_SEQUENCE_GAP:
		/* The last EventBlock: its first thread has been seen before. */
		if (!(b = find(&w, K_EVENT, seed, 1)) || b == find(&w, K_EVENT, 0, 0))
			return *why = "needs two EventBlocks", -1;
		if (event_field(in, len, &w, b, 2, 8, v_gap, out, why))
			return -1;
		out->code = GCSPEC_DIAG_N014;
		return 0;
	case GEN_NTF_STACK_SIZE: {
		uint32_t first_count, ps;
		size_t at, last = 0;

		if (!(b = find(&w, K_STACK, seed, 0)))
			return *why = "no StackBlock", -1;
		first_count = le32(in + b->content + 4);
		at = b->content + 8;
		for (uint32_t k = 0; k < first_count; k++) {
			last = at;
			at += 4 + le32(in + at);
		}
		ps = w.v6 ? le32(in + w.b[0].content + 24) : le32(in + w.b[0].content + 32);
		if (!(o = insert4(in, len, at)))
			return -1;
		put_le32(o + last, le32(o + last) + (ps == 8 ? 4 : 2));
		grow_block(o, &w, b);
		out->data = o;
		out->len = len + 4;
		out->code = GCSPEC_DIAG_N015;
		out->offset = last;
		return 0;
	}
	case GEN_NTF_VERSION_MAJOR:
	case GEN_NTF_VERSION_MINOR:
		if (!w.v6 && fault == GEN_NTF_VERSION_MINOR)
			return *why = "V6 only", -1;
		if (!(o = copy(in, len)))
			return -1;
		if (w.v6) {
			put_le32(o + (fault == GEN_NTF_VERSION_MAJOR ? 12 : 16),
			     fault == GEN_NTF_VERSION_MAJOR ? 7 : 1);
			out->offset = fault == GEN_NTF_VERSION_MAJOR ? 12 : 16;
		} else {
			put_le32(o + 32 + 7, 6); /* Trace MinimumReaderVersion */
			out->offset = 32 + 3;
			out->offset_exact = 0;
		}
		out->code = fault == GEN_NTF_VERSION_MAJOR ? GCSPEC_DIAG_N016 : GCSPEC_DIAG_N017;
		break;
	case GEN_NTF_POINTER_SIZE:
		if (!(o = copy(in, len)))
			return -1;
		put_le32(o + w.b[0].content + (w.v6 ? 32 : 32), 3);
		out->code = GCSPEC_DIAG_N018;
		out->offset = w.b[0].content + 32;
		out->offset_exact = 0;
		break;
	case GEN_NTF_NO_END:
		if (!(o = copy(in, w.end_marker)))
			return -1;
		out->len = w.end_marker;
		out->code = GCSPEC_DIAG_N004;
		out->offset = w.end_marker;
		break;
	case GEN_NTF_TRUNCATE_BOUNDARY: {
		/* Where a writer killed between two blocks leaves the file. */
		size_t cut;

		if (w.n < 2)
			return *why = "no object or block after the trace header", -1;
		cut = w.b[1 + seed % (w.n - 1)].start;
		if (!(o = copy(in, cut)))
			return -1;
		out->len = cut;
		out->code = GCSPEC_DIAG_N004;
		out->offset = cut;
		break;
	}
	case GEN_NTF_PAYLOAD_PAST_BLOCK: {
		/* The first event of a block says its payload is longer than the
		 * block: the reader skips the rest of the block. */
		size_t size_at = 0, payload_at, nblocks = 0;
		uint64_t plen;

		/* A block whose first payload size is a one-byte varint: it
		 * becomes five bytes (4 inserted, alignment kept) saying more
		 * than the block holds. */
		for (size_t j = 0; j < w.n; j++)
			nblocks += w.b[j].kind == K_EVENT;
		b = NULL;
		for (size_t t = 0; t < nblocks && !b; t++) {
			const struct blk *c = find(&w, K_EVENT, seed + t, 0);

			if (!first_blob(in, len, &w, c, &size_at, &payload_at, &plen, why) &&
			    varlen(in + size_at, 10) == 1)
				b = c;
		}
		if (!b)
			return *why = "no EventBlock starts with a one-byte payload size", -1;
		out->offset = b->content + (in[b->content] | in[b->content + 1] << 8);
		if (!(o = insert4(in, len, size_at + 1)))
			return -1;
		varput(o + size_at, b->len + 0x10000, 5);
		grow_block(o, &w, b);
		out->len = len + 4;
		out->code = GCSPEC_DIAG_N019;
		break;
	}
	case GEN_NTF_METADATA_UNTERMINATED: {
		/* The provider name of the first metadata record runs to the end
		 * of the record: every UTF-16 unit after the id becomes 'A'. */
		size_t size_at, payload_at;
		uint64_t plen;

		if (w.v6)
			return *why = "V4/V5 only (V6 metadata is laid out differently)", -1;
		if (!(b = find(&w, K_META, seed, 0)))
			return *why = "no MetadataBlock", -1;
		if (first_blob(in, len, &w, b, &size_at, &payload_at, &plen, why))
			return -1;
		if (plen < 6)
			return *why = "the first metadata record is too short", -1;
		if (!(o = copy(in, len)))
			return -1;
		for (size_t k = 4; k + 1 < plen; k += 2) {
			o[payload_at + k] = 'A';
			o[payload_at + k + 1] = 0;
		}
		out->code = GCSPEC_DIAG_N020;
		out->offset = payload_at;
		break;
	}
	case GEN_NTF_DATA_AFTER_END:
		if (!(o = malloc(len + 4)))
			return -1;
		memcpy(o, in, len);
		memcpy(o + len, "JUNK", 4);
		out->len = len + 4;
		out->code = GCSPEC_DIAG_N021;
		out->offset = len;
		break;
	default:
		*why = "unknown fault class";
		return -1;
	}
	out->data = o;
	if (!out->len)
		out->len = len;
	return 0;
}
