/*
 * model_scan.c - the model reader's fast path (see model_scan.h).
 *
 * Why by hand and not libcbor: this loop is the whole cost of reading a
 * model stream, and a callback per data item (libcbor's streaming decoder)
 * costs several times more than reading the heads in place; the figures
 * are in docs/oracle-performance.md. libcbor writes gcoracle's --cbor
 * output, and the tests build their streams with it.
 */
#include <string.h>

#include "oracle/formats/model/cbor_scan.h"
#include "oracle/formats/model/model_scan.h"

#include "spec/gcspec.h"

/* One head: 1 read, 0 need more bytes, -1 not taken here (reserved
 * additional information, indefinite length, a break). */
static inline int head(const uint8_t *p, size_t n, size_t *pos, unsigned *major,
                       uint64_t *arg)
{
	size_t at = *pos;
	unsigned ib, ai;

	if (at >= n)
		return 0;
	ib = p[at++];
	*major = ib >> 5;
	ai = ib & 31;
	if (ai < 24) {
		*arg = ai;
	} else if (ai == 24) {
		if (at >= n)
			return 0;
		*arg = p[at++];
	} else if (ai == 25) {
		if (n - at < 2)
			return 0;
		*arg = (uint64_t)p[at] << 8 | p[at + 1];
		at += 2;
	} else if (ai == 26) {
		if (n - at < 4)
			return 0;
		*arg = (uint64_t)p[at] << 24 | (uint64_t)p[at + 1] << 16 |
		       (uint64_t)p[at + 2] << 8 | p[at + 3];
		at += 4;
	} else if (ai == 27) {
		uint64_t v = 0;
		if (n - at < 8)
			return 0;
		for (unsigned k = 0; k < 8; k++)
			v = v << 8 | p[at + k];
		*arg = v;
		at += 8;
	} else {
		return -1;
	}
	*pos = at;
	return 1;
}

int or_model_scan_skip(const uint8_t *p, size_t n, size_t *pos)
{
	/* Items still to read at each open level (maps count keys and
	 * values); level 0 is the item itself. */
	uint64_t left[OR_CBOR_MAX_DEPTH];
	int depth = 0;
	size_t at = *pos;

	left[0] = 1;
	for (;;) {
		unsigned major;
		uint64_t arg;
		int rc;

		while (left[depth] == 0) {
			if (depth == 0) {
				*pos = at;
				return 1;
			}
			depth--;
		}
		left[depth]--;
		rc = head(p, n, &at, &major, &arg);
		if (rc != 1)
			return rc;
		switch (major) {
		case 0: case 1:
			break;
		case 2: case 3:
			if (arg > OR_CBOR_MAX_LEN)
				return -1;
			if (n - at < arg)
				return 0;
			at += (size_t)arg;
			break;
		case 4: case 5:
			if (arg > OR_CBOR_MAX_LEN || depth + 2 > OR_CBOR_MAX_DEPTH)
				return -1;
			left[++depth] = major == 5 ? arg * 2 : arg;
			break;
		case 6: /* a tag: its content follows one level down */
			if (depth + 2 > OR_CBOR_MAX_DEPTH)
				return -1;
			left[++depth] = 1;
			break;
		default: /* 7: simple values and floats, their bytes read */
			break;
		}
	}
}

static int provider_index(const uint8_t *s, size_t n)
{
	for (int i = 0; i < GCSPEC_NPROVIDERS; i++)
		if (strlen(gcspec_providers[i].name) == n &&
		    memcmp(gcspec_providers[i].name, s, n) == 0)
			return i;
	return -1;
}

static void provider(struct or_model_provider *pv, const uint8_t *s, size_t n)
{
	size_t cut = n < sizeof pv->name ? n : sizeof pv->name - 1;

	if (pv->valid && pv->len == n && n < sizeof pv->name &&
	    memcmp(pv->name, s, n) == 0)
		return;
	pv->index = provider_index(s, n);
	memcpy(pv->name, s, cut);
	pv->name[cut] = 0;
	pv->len = n;
	pv->valid = 1;
}

/* The keys an event has, in the order gcgen writes them. */
enum { K_TIMESTAMP, K_THREAD, K_PROVIDER, K_ID, K_VERSION, K_LEVEL, K_OPCODE,
       K_KEYWORDS, K_NAME, K_FIELDS, K_PAYLOAD, K_COUNT };
static const struct { const char *s; unsigned len; } keys[K_COUNT] = {
	{ "timestamp", 9 }, { "thread", 6 }, { "provider", 8 }, { "id", 2 },
	{ "version", 7 }, { "level", 5 }, { "opcode", 6 }, { "keywords", 8 },
	{ "name", 4 }, { "fields", 6 }, { "payload", 7 },
};
#define ALL_BUT_FIELDS (((1u << K_COUNT) - 1) & ~(1u << K_FIELDS))

/* Short keys: a loop the compiler keeps inline beats a call to memcmp. */
static inline int key_eq(const char *s, const uint8_t *k, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		if ((uint8_t)s[i] != k[i])
			return 0;
	return 1;
}

/* Eight bytes as a word in the host's order: only compared for equality
 * with words made the same way, so the order does not matter. */
static inline uint64_t word(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Each key's first 16 bytes as two words, and masks keeping a key's
 * length of bytes: with 16 bytes in the buffer, a key is two compares. */
static uint64_t kw[K_COUNT][2], km[17][2];

static void key_words(void)
{
	static int done;

	if (done)
		return;
	for (unsigned q = 0; q < K_COUNT; q++) {
		uint8_t b[16] = { 0 };
		memcpy(b, keys[q].s, keys[q].len);
		kw[q][0] = word(b);
		kw[q][1] = word(b + 8);
	}
	for (unsigned len = 0; len <= 16; len++) {
		uint8_t b[16] = { 0 };
		memset(b, 0xff, len);
		km[len][0] = word(b);
		km[len][1] = word(b + 8);
	}
	done = 1;
}

static inline int key_is(unsigned q, const uint8_t *k, unsigned len, size_t room)
{
	if (keys[q].len != len)
		return 0;
	if (room < 16)
		return key_eq(keys[q].s, k, len);
	return ((word(k) ^ kw[q][0]) & km[len][0]) == 0 &&
	       ((word(k + 8) ^ kw[q][1]) & km[len][1]) == 0;
}

static int which_key(const uint8_t *k, unsigned len, unsigned guess, size_t room)
{
	if (guess < K_COUNT && key_is(guess, k, len, room))
		return (int)guess;
	for (unsigned q = 0; q < K_COUNT; q++)
		if (key_is(q, k, len, room))
			return (int)q;
	return -1;
}

int or_model_scan_event(const uint8_t *p, size_t n, struct or_model_provider *prov,
                        struct or_event *ev, size_t *len)
{
	size_t pos = 0;
	unsigned major, seen = 0, next_key = 0;
	uint64_t count, v;
	int rc;

	key_words();
	if ((rc = head(p, n, &pos, &major, &count)) != 1)
		return rc;
	if (major != 5 || count > K_COUNT)
		return -1;
	ev->model_fields = NULL;
	ev->model_fields_len = 0;
	ev->block = NULL;
	ev->cls = 0;
	ev->pointer_size = 0; /* one per stream: the header's */
	ev->writer_thread = 0;
	for (uint64_t k = 0; k < count; k++) {
		int which;
		size_t vp;

		if ((rc = head(p, n, &pos, &major, &v)) != 1)
			return rc;
		if (major != 3 || v > 16)
			return -1;
		if (n - pos < v)
			return 0;
		which = which_key(p + pos, (unsigned)v, next_key, n - pos);
		if (which < 0 || (seen & 1u << which))
			return -1;
		seen |= 1u << which;
		next_key = (unsigned)which + 1;
		pos += (size_t)v;
		vp = pos;
		if (which == K_FIELDS) {
			if ((rc = or_model_scan_skip(p, n, &pos)) != 1)
				return rc;
			ev->model_fields = p + vp;
			ev->model_fields_len = pos - vp;
			continue;
		}
		if ((rc = head(p, n, &pos, &major, &v)) != 1)
			return rc;
		switch (which) {
		case K_PROVIDER: case K_NAME: case K_PAYLOAD:
			if (major != (which == K_PAYLOAD ? 2u : 3u) ||
			    v > OR_CBOR_MAX_LEN || v > UINT32_MAX)
				return -1;
			if (n - pos < v)
				return 0;
			if (which == K_PROVIDER) {
				provider(prov, p + pos, (size_t)v);
				ev->provider = prov->index;
				ev->provider_name = prov->name;
			} else if (which == K_PAYLOAD) {
				ev->payload = p + pos;
				ev->payload_len = (uint32_t)v;
				ev->payload_offset = pos; /* the caller adds the item's */
			}
			pos += (size_t)v;
			continue;
		}
		if (major != 0)
			return -1;
		switch (which) {
		case K_TIMESTAMP: ev->timestamp = v; break;
		case K_THREAD: ev->thread_id = v; break;
		case K_ID:
			if (v > 0xffff)
				return -1;
			ev->id = (uint16_t)v;
			break;
		case K_VERSION:
			if (v > 0xff)
				return -1;
			ev->version = (uint8_t)v;
			break;
		case K_LEVEL: ev->level = (uint8_t)v; break;
		case K_OPCODE: ev->opcode = (uint8_t)v; break;
		case K_KEYWORDS: ev->keywords = v; break;
		}
	}
	if ((seen & ALL_BUT_FIELDS) != ALL_BUT_FIELDS)
		return -1;
	*len = pos;
	return 1;
}
