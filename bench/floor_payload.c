/*
 * floor_payload.c - the floor walker's payload check: does a payload hold
 * every field of its event-version's template, read from the spec tables
 * alone? Lengths and widths only (no values, no maps): the least any
 * conforming decoder must do, and so the floor gcoracle is measured against.
 * Written from spec/gcspec.h, not from oracle/decode: a longer payload is
 * accepted (a newer runtime may append fields), one that ends inside a field,
 * a string without its NUL or a count that asks for more than is there is
 * not.
 */
#include "config.h"

#include <string.h>

#include "bench/floor.h"

static unsigned width(unsigned type, unsigned psize)
{
	switch (type) {
	case GCSPEC_UINT8: case GCSPEC_INT8: return 1;
	case GCSPEC_UINT16: case GCSPEC_INT16: return 2;
	case GCSPEC_UINT32: case GCSPEC_INT32: case GCSPEC_FLOAT: case GCSPEC_BOOLEAN: return 4;
	case GCSPEC_UINT64: case GCSPEC_INT64: case GCSPEC_DOUBLE: return 8;
	case GCSPEC_POINTER: return psize;
	case GCSPEC_GUID: return 16;
	default: return 0;
	}
}

static uint64_t le(const uint8_t *p, unsigned w)
{
	uint64_t v = 0;

	for (unsigned k = w > 8 ? 8 : w; k-- > 0;)
		v = v << 8 | p[k];
	return v;
}

static uint32_t align_up(uint32_t x, unsigned a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* The least bytes one element of a struct array takes (members with a
 * count may be empty; a natural layout pads the element to its widest
 * member). Never 0, so a count can be bounded by division. */
static uint32_t elem_min(const struct gcspec_field *m, unsigned n, unsigned psize,
                         int natural)
{
	uint32_t s = 0;
	unsigned widest = 1;

	for (unsigned k = 0; k < n; k++) {
		unsigned w = width(m[k].type, psize);
		if (gcspec_field_is_array(&m[k]))
			continue;
		if (natural && w)
			s = align_up(s, w);
		s += w ? w : m[k].type == GCSPEC_UNICODE_STRING ? 2
		       : m[k].type == GCSPEC_ANSI_STRING ? 1 : 0;
		if (w > widest)
			widest = w;
	}
	if (natural)
		s = align_up(s, widest);
	return s ? s : 1;
}

/* Where each field of the event-version starts when every field before it
 * has a fixed width, and how many fields lead so: computed once for each
 * event-version and pointer size, so that a payload's fixed prefix costs
 * one comparison. lead 0: not yet computed. */
static uint16_t rel[2][GCSPEC_NFIELDS];
static struct lead {
	uint16_t nfixed, bytes;
	uint8_t done;
} leads[2][GCSPEC_NEVENTS];

static const struct lead *lead_of(const struct gcspec_event *ev, unsigned psize)
{
	unsigned ps = psize == 4 ? 0 : 1;
	struct lead *l = &leads[ps][ev - gcspec_events];
	const struct gcspec_field *f = gcspec_event_fields(ev);
	uint32_t at = 0;
	unsigned i = 0;

	if (l->done)
		return l;
	for (; i < ev->nfields && !f[i].is_member && width(f[i].type, psize); i++) {
		rel[ps][ev->first_field + i] = (uint16_t)at;
		at += width(f[i].type, psize);
	}
	l->nfixed = (uint16_t)i;
	l->bytes = (uint16_t)at;
	l->done = 1;
	return l;
}

/* Where each field read so far starts: the leading fixed ones from rel,
 * the others from off. */
struct starts {
	const uint16_t *rel;
	unsigned nfixed;
	uint32_t off[256];
};

/* The integer value of field k (a count or a length). */
static uint64_t value(const struct gcspec_field *f, int k, const uint8_t *p,
                      const struct starts *st, unsigned psize)
{
	if (k < 0)
		return 0;
	return le(p + ((unsigned)k < st->nfixed ? st->rel[k] : st->off[k]), width(f[k].type, psize));
}

/* One field that is not a struct at *pos (it starts there: off[i]). */
static int field(const struct gcspec_field *f, unsigned i, const uint8_t *p,
                 uint32_t len, uint32_t *pos, unsigned psize, struct starts *st)
{
	uint32_t rem = len - *pos;
	unsigned w = width(f[i].type, psize);

	st->off[i] = *pos;
	if (w && gcspec_field_is_array(&f[i])) {
		uint64_t n = value(f, f[i].size_field, p, st, psize);
		if (n > rem / w)
			return -1;
		*pos += (uint32_t)n * w;
		return 0;
	}
	if (w) {
		if (rem < w)
			return -1;
		*pos += w;
		return 0;
	}
	if (f[i].type == GCSPEC_UNICODE_STRING) {
		for (uint32_t k = *pos; k + 1 < len; k += 2)
			if (!p[k] && !p[k + 1]) {
				*pos = k + 2;
				return 0;
			}
		return -1;
	}
	if (f[i].type == GCSPEC_ANSI_STRING) {
		const uint8_t *z = rem ? memchr(p + *pos, 0, rem) : NULL;
		if (!z)
			return -1;
		*pos = (uint32_t)(z - p) + 1;
		return 0;
	}
	if (f[i].type == GCSPEC_BINARY) {
		uint64_t n = value(f, f[i].size_field, p, st, psize);
		if (n > rem)
			return -1;
		*pos += (uint32_t)n;
		return 0;
	}
	return -1;
}

/* The struct array at field i: its count from an earlier field, each
 * element's members in turn. */
static int array(const struct gcspec_field *f, unsigned i, const uint8_t *p,
                 uint32_t len, uint32_t *pos, unsigned psize, struct starts *st)
{
	uint64_t count = value(f, f[i].size_field, p, st, psize);
	unsigned n = f[i].nmembers;
	int natural = f[i].natural_layout, fixed = 1;
	uint32_t min = elem_min(f + i + 1, n, psize, natural);

	if (count > (len - *pos) / min)
		return -1;
	for (unsigned k = 1; k <= n; k++)
		if (!width(f[i + k].type, psize) || gcspec_field_is_array(&f[i + k]))
			fixed = 0;
	if (fixed) {
		*pos += (uint32_t)count * min;
		return 0;
	}
	for (uint64_t e = 0; e < count; e++) {
		uint32_t es = *pos;
		for (unsigned k = 1; k <= n; k++) {
			if (natural)
				*pos = es + align_up(*pos - es, width(f[i + k].type, psize));
			if (field(f, i + k, p, len, pos, psize, st))
				return -1;
		}
		if (natural)
			*pos = es + min;
	}
	return 0;
}

int floor_payload_ok(const struct gcspec_event *ev, const uint8_t *p, uint32_t len,
                     unsigned psize)
{
	const struct gcspec_field *f = gcspec_event_fields(ev);
	int32_t fixed = ev->fixed_size[psize == 4 ? 0 : 1];
	const struct lead *l;
	struct starts st;
	uint32_t pos;

	if (fixed >= 0)
		return len >= (uint32_t)fixed;
	if (len < (uint32_t)ev->min_size[psize == 4 ? 0 : 1] || ev->nfields > 256)
		return 0;
	l = lead_of(ev, psize);
	if (l->bytes > len)
		return 0;
	st.rel = rel[psize == 4 ? 0 : 1] + ev->first_field;
	st.nfixed = l->nfixed;
	pos = l->bytes;
	for (unsigned i = l->nfixed; i < ev->nfields; i++) {
		if (f[i].is_member)
			continue;
		if (f[i].type == GCSPEC_STRUCT ? array(f, i, p, len, &pos, psize, &st)
		                               : field(f, i, p, len, &pos, psize, &st))
			return 0;
	}
	return 1;
}
