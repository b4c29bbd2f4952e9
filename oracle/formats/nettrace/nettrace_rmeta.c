/*
 * nettrace_rmeta.c - metadata records, V4/V5 (inside event blobs) and V6
 * (rows). Every read is bounds-checked against the record's own size.
 */
#include <string.h>

#include "oracle/formats/nettrace/nettrace_rmeta.h"

struct cur {
	const uint8_t *p;
	size_t n, i;
};

static int get(struct cur *c, void *out, size_t k)
{
	if (k > c->n - c->i)
		return -1;
	if (out)
		memcpy(out, c->p + c->i, k);
	c->i += k;
	return 0;
}

static int get_u32(struct cur *c, uint32_t *v)
{
	uint8_t t[4];

	if (get(c, t, 4))
		return -1;
	*v = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
	return 0;
}

static int get_u16(struct cur *c, uint16_t *v)
{
	uint8_t t[2];

	if (get(c, t, 2))
		return -1;
	*v = (uint16_t)(t[0] | t[1] << 8);
	return 0;
}

static int get_u64(struct cur *c, uint64_t *v)
{
	uint32_t lo, hi;

	if (get_u32(c, &lo) || get_u32(c, &hi))
		return -1;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static int get_var(struct cur *c, uint64_t *v, unsigned maxbytes)
{
	*v = 0;
	for (unsigned k = 0; k < maxbytes; k++) {
		uint8_t b;

		if (get(c, &b, 1))
			return -1;
		*v |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80))
			return 0;
	}
	return -1;
}

/* UTF-16LE NUL-terminated; narrowed into out (non-ASCII becomes '?'). */
static int get_utf16z(struct cur *c, char *out, size_t outsz)
{
	size_t k = 0;

	for (;;) {
		uint16_t u;

		if (get_u16(c, &u))
			return -1;
		if (!u)
			break;
		if (out && k + 1 < outsz)
			out[k++] = u < 0x80 ? (char)u : '?';
	}
	if (out && outsz)
		out[k] = 0;
	return 0;
}

static int get_str6(struct cur *c, char *out, size_t outsz)
{
	uint64_t len;
	size_t k;

	if (get_var(c, &len, 5) || len > c->n - c->i)
		return -1;
	if (out && outsz) {
		k = len < outsz - 1 ? (size_t)len : outsz - 1;
		memcpy(out, c->p + c->i, k);
		out[k] = 0;
	}
	c->i += (size_t)len;
	return 0;
}

/* A V1 field list: count, {TypeCode, [nested list if Object], name}. */
static int skip_fields_v1(struct cur *c, int depth)
{
	uint32_t count;

	if (depth > 16 || get_u32(c, &count))
		return -1;
	/* Each field takes at least 6 bytes: never loop past the record. */
	if (count > (c->n - c->i) / 6)
		return -1;
	for (uint32_t f = 0; f < count; f++) {
		uint32_t tc;

		if (get_u32(c, &tc))
			return -1;
		if (tc == 1 && skip_fields_v1(c, depth + 1))
			return -1;
		if (get_utf16z(c, NULL, 0))
			return -1;
	}
	return 0;
}

int ntr_meta_v5(const uint8_t *p, size_t n, struct ntr_meta_rec *m, const char **why)
{
	struct cur c = { p, n, 0 };
	uint64_t kw;

	memset(m, 0, sizeof *m);
	if (get_u32(&c, &m->meta_id)) {
		*why = "record shorter than its metadata id";
		return -1;
	}
	if (get_utf16z(&c, m->provider, sizeof m->provider)) {
		*why = "provider name is not NUL-terminated inside the record";
		return -1;
	}
	if (get_u32(&c, &m->event_id) || get_utf16z(&c, NULL, 0)) {
		*why = "event id or event name runs past the record";
		return -1;
	}
	if (get_u64(&c, &kw) || get_u32(&c, &m->version) || get_u32(&c, &m->level)) {
		*why = "keywords, version or level run past the record";
		return -1;
	}
	m->keywords = kw;
	if (c.i == c.n)
		return 0; /* no field list at all: accepted, nothing to skip */
	if (skip_fields_v1(&c, 0)) {
		*why = "field list runs past the record";
		return -1;
	}
	/* V5 tags: {int TagPayloadBytes, byte kind, payload}. */
	while (c.i < c.n) {
		uint32_t size;
		uint8_t kind;

		if (get_u32(&c, &size) || get(&c, &kind, 1) || size > c.n - c.i) {
			*why = "metadata tag runs past the record";
			return -1;
		}
		if (kind == 1 && size >= 1)
			m->opcode = c.p[c.i];
		c.i += size;
	}
	return 0;
}

int ntr_meta_v6(const uint8_t *p, size_t n, struct ntr_meta_rec *m, const char **why)
{
	struct cur c = { p, n, 0 };
	uint64_t v;
	uint16_t count, size;
	size_t end;

	memset(m, 0, sizeof *m);
	if (get_var(&c, &v, 5) || v > UINT32_MAX) {
		*why = "bad metadata id varint";
		return -1;
	}
	m->meta_id = (uint32_t)v;
	if (get_str6(&c, m->provider, sizeof m->provider)) {
		*why = "provider name runs past the row";
		return -1;
	}
	if (get_var(&c, &v, 5) || v > UINT32_MAX || get_str6(&c, NULL, 0)) {
		*why = "event id or event name runs past the row";
		return -1;
	}
	m->event_id = (uint32_t)v;
	if (get_u16(&c, &count)) {
		*why = "field count runs past the row";
		return -1;
	}
	for (unsigned f = 0; f < count; f++)
		if (get_u16(&c, &size) || get(&c, NULL, size)) {
			*why = "a field description runs past the row";
			return -1;
		}
	if (c.i == c.n)
		return 0; /* OptionalMetadata absent: tolerated */
	if (get_u16(&c, &size) || size > c.n - c.i) {
		*why = "optional metadata runs past the row";
		return -1;
	}
	end = c.i + size;
	c.n = end;
	while (c.i < end) {
		uint8_t kind, b = 0;
		int bad = 0;

		if (get(&c, &kind, 1))
			break;
		switch (kind) {
		case 1: bad = get(&c, &m->opcode, 1); break;
		case 3: bad = get_u64(&c, &m->keywords); break;
		case 4: case 5: bad = get_str6(&c, NULL, 0); break;
		case 6: bad = get_str6(&c, NULL, 0) || get_str6(&c, NULL, 0); break;
		case 7: bad = get(&c, NULL, 16); break;
		case 8: bad = get(&c, &b, 1); m->level = b; break;
		case 9: bad = get(&c, &b, 1); m->version = b; break;
		default: c.i = end; break; /* unknown kind: its size is unknown */
		}
		if (bad) {
			*why = "an optional metadata element runs past its area";
			return -1;
		}
	}
	return 0;
}
