/*
 * encode.c - table-driven payload encoder.
 *
 * One loop over the event's template; the width of every fixed-size in-type
 * comes from a small table, so the common case (numbers) is a table lookup
 * and one little-endian store. Struct elements follow the field's layout:
 * packed, or natural (E048/E049: the runtime copies C structs, so members sit
 * at their natural alignment and the element is padded to its largest one).
 */
#include <string.h>

#include "gen/model/encode.h"

/* Width by in-type for pointer size 4 ([0]) and 8 ([1]); 0: variable. */
static const uint8_t type_width[2][GCSPEC_STRUCT + 1] = {
	{ 0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 4, 4, 16, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 8, 1, 2, 4, 8, 4, 8, 4, 8, 16, 0, 0, 0, 0 },
};

/* Width of the in-types stored as a plain little-endian integer (the
 * integers, Boolean, Pointer), else 0: Float converts, GUID is bytes. */
static const uint8_t plain_width[2][GCSPEC_STRUCT + 1] = {
	{ 0, 1, 2, 4, 8, 1, 2, 4, 8, 0, 8, 4, 4, 0, 0, 0, 0, 0 },
	{ 0, 1, 2, 4, 8, 1, 2, 4, 8, 0, 8, 4, 8, 0, 0, 0, 0, 0 },
};

/* Store the low `width` bytes of x at p, where at least 8 bytes are
 * writable: one 8-byte store; the bytes past `width` are overwritten by
 * whatever comes next (or lie past the payload's end). */
static inline void put_plain(uint8_t *p, uint64_t x)
{
	memcpy(p, &x, 8);
}

unsigned gen_type_width(unsigned type, unsigned pointer_size)
{
	return type <= GCSPEC_STRUCT ? type_width[pointer_size == 8][type] : 0;
}

unsigned gen_type_align(unsigned type, unsigned pointer_size)
{
	/* A GUID is a C struct whose largest member is 4 bytes (Data1). */
	if (type == GCSPEC_GUID)
		return 4;
	return gen_type_width(type, pointer_size);
}

int gen_struct_layout(const struct gcspec_field *sf, unsigned psize,
		      uint32_t member_offset[], uint32_t *element_size)
{
	uint32_t o = 0, maxalign = 1;

	for (unsigned m = 0; m < sf->nmembers; m++) {
		const struct gcspec_field *mf = sf + 1 + m;
		unsigned w = gen_type_width(mf->type, psize);
		unsigned a = sf->natural_layout ? gen_type_align(mf->type, psize) : 1;

		if (!w || gcspec_field_is_array(mf))
			return -1;
		if (a > maxalign)
			maxalign = a;
		o = (o + a - 1) / a * a;
		member_offset[m] = o;
		o += w;
	}
	*element_size = (o + maxalign - 1) / maxalign * maxalign;
	return 0;
}

static inline void put_le(uint8_t *p, uint64_t x, unsigned width)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* One store for the common widths (the encoder's hot path). */
	switch (width) {
	case 1: *p = (uint8_t)x; return;
	case 2: { uint16_t t = (uint16_t)x; memcpy(p, &t, 2); return; }
	case 4: { uint32_t t = (uint32_t)x; memcpy(p, &t, 4); return; }
	case 8: memcpy(p, &x, 8); return;
	default: break;
	}
#endif
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

/* Decode one UTF-8 sequence at s[*i]; malformed input yields U+FFFD. */
static uint32_t utf8_next(const uint8_t *s, size_t len, size_t *i)
{
	uint8_t c = s[(*i)++];
	unsigned need;
	uint32_t cp, min;

	if (c < 0x80)
		return c;
	if ((c & 0xE0) == 0xC0) { need = 1; cp = c & 0x1F; min = 0x80; }
	else if ((c & 0xF0) == 0xE0) { need = 2; cp = c & 0x0F; min = 0x800; }
	else if ((c & 0xF8) == 0xF0) { need = 3; cp = c & 0x07; min = 0x10000; }
	else return 0xFFFD;
	for (unsigned k = 0; k < need; k++) {
		if (*i >= len || (s[*i] & 0xC0) != 0x80)
			return 0xFFFD;
		cp = (cp << 6) | (s[(*i)++] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0xFFFD;
	return cp;
}

long gen_utf8_to_utf16le(const uint8_t *s, size_t len, uint8_t *out, size_t cap)
{
	size_t i = 0, o = 0;

	while (i < len) {
		uint32_t cp;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* Eight ASCII characters at once (no NUL, no high bit): each byte
		 * widened to a UTF-16LE unit. */
		if (len - i >= 8 && cap - o >= 16) {
			uint64_t w;

			memcpy(&w, s + i, 8);
			if (!(w & 0x8080808080808080ull) &&
			    !((w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull)) {
				/* Spread each half's bytes into 16-bit lanes. */
				uint64_t lo = w & 0xFFFFFFFFu, hi = w >> 32;

				lo = (lo | lo << 16) & 0x0000FFFF0000FFFFull;
				lo = (lo | lo << 8) & 0x00FF00FF00FF00FFull;
				hi = (hi | hi << 16) & 0x0000FFFF0000FFFFull;
				hi = (hi | hi << 8) & 0x00FF00FF00FF00FFull;
				memcpy(out + o, &lo, 8);
				memcpy(out + o + 8, &hi, 8);
				i += 8;
				o += 16;
				continue;
			}
		}
#endif
		/* ASCII runs: one unit each, no decoding. */
		if (s[i] < 0x80) {
			if (s[i] == 0)
				break; /* an embedded NUL would end the string on the wire anyway */
			if (o + 2 > cap)
				return -1;
			out[o++] = s[i++];
			out[o++] = 0;
			continue;
		}
		cp = utf8_next(s, len, &i);
		if (cp >= 0x10000) {
			if (o + 4 > cap)
				return -1;
			cp -= 0x10000;
			put_le(out + o, 0xD800 | (cp >> 10), 2);
			put_le(out + o + 2, 0xDC00 | (cp & 0x3FF), 2);
			o += 4;
		} else {
			if (o + 2 > cap)
				return -1;
			put_le(out + o, cp, 2);
			o += 2;
		}
	}
	if (o + 2 > cap)
		return -1;
	put_le(out + o, 0, 2);
	return (long)(o + 2);
}

/* Encode one value of field f at out; returns bytes or -1. */
static long encode_one(const struct gen_values *v, const struct gcspec_field *f,
		       const struct gen_value *x, unsigned psize, uint8_t *out, size_t cap)
{
	unsigned w = type_width[psize == 8][f->type];
	const uint8_t *data;

	if (gcspec_field_is_array(f)) {
		/* its values' wire bytes, stored by gen_values_set_member_array */
		if (x->len > cap)
			return -1;
		if (x->len)
			memcpy(out, gen_value_data(v, x), x->len);
		return (long)x->len;
	}
	if (w) {
		if (w > cap)
			return -1;
		if (f->type == GCSPEC_GUID) {
			if (x->len == 16)
				memcpy(out, gen_value_data(v, x), 16);
			else
				memset(out, 0, 16);
			return 16;
		}
		if (f->type == GCSPEC_FLOAT) {
			double d;
			float fl;
			uint32_t bits;

			memcpy(&d, &x->u, sizeof d);
			fl = (float)d;
			memcpy(&bits, &fl, sizeof bits);
			put_le(out, bits, 4);
			return 4;
		}
		put_le(out, x->u, w);
		return w;
	}
	data = gen_value_data(v, x);
	switch (f->type) {
	case GCSPEC_UNICODE_STRING:
		return gen_utf8_to_utf16le(data, x->len, out, cap);
	case GCSPEC_ANSI_STRING:
		if ((size_t)x->len + 1 > cap)
			return -1;
		memcpy(out, data, x->len);
		out[x->len] = 0;
		return (long)x->len + 1;
	case GCSPEC_BINARY:
		if (x->len > cap)
			return -1;
		memcpy(out, data, x->len);
		return (long)x->len;
	default:
		return -1;
	}
}

/* The rows of Struct field sf at out. */
static long encode_rows(const struct gen_values *v, const struct gcspec_field *sf,
			unsigned psize, uint8_t *out, size_t cap)
{
	uint32_t moff[256], esize;
	uint8_t mw[256];
	size_t o = 0, per_row = 0;
	int plain = 1;

	if (sf->natural_layout && gen_struct_layout(sf, psize, moff, &esize) == 0) {
		if (esize && v->nrows > cap / esize)
			return -1;
		/* Padding is zero: the runtime's structs are zero-initialised. */
		memset(out, 0, (size_t)v->nrows * esize);
		for (unsigned r = 0; r < v->nrows; r++, o += esize)
			for (unsigned m = 0; m < sf->nmembers; m++)
				if (encode_one(v, sf + 1 + m, &v->cell[r * v->nmembers + m], psize,
					       out + o + moff[m], esize - moff[m]) < 0)
					return -1;
		return (long)o;
	}
	/* Packed rows of plain integers (every such Struct in the spec): one
	 * store per cell. */
	for (unsigned m = 0; m < sf->nmembers; m++) {
		mw[m] = plain_width[psize == 8][sf[1 + m].type <= GCSPEC_STRUCT ? sf[1 + m].type : 0];
		plain &= mw[m] != 0 && !gcspec_field_is_array(&sf[1 + m]);
		per_row += mw[m];
	}
	if (plain && (size_t)v->nrows * per_row + 8 <= cap) {
		const struct gen_value *c = v->cell;

		for (unsigned r = 0; r < v->nrows; r++, c += v->nmembers)
			for (unsigned m = 0; m < sf->nmembers; m++) {
				put_plain(out + o, c[m].u);
				o += mw[m];
			}
		return (long)o;
	}
	for (unsigned r = 0; r < v->nrows; r++) {
		for (unsigned m = 0; m < sf->nmembers; m++) {
			long n = encode_one(v, sf + 1 + m, &v->cell[r * v->nmembers + m], psize,
					    out + o, cap - o);

			if (n < 0)
				return -1;
			o += (size_t)n;
		}
	}
	return (long)o;
}

/* Encode into buf; when offsets is not NULL, record where each top-level
 * field starts (members get their Struct's offset). */
static long encode(const struct gen_values *v, unsigned psize, uint8_t *buf, size_t cap,
		   uint32_t *offsets)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	const uint8_t *plain = plain_width[psize == 8];
	/* Locals: stores through buf may alias anything, so the compiler
	 * would reload every field of *v after each one. */
	const struct gen_value *val = v->field;
	const unsigned nfields = v->nfields;
	size_t o = 0;

	for (unsigned i = 0; i < nfields; i++) {
		unsigned t = f[i].type, w = t <= GCSPEC_STRUCT ? plain[t] : 0;
		long n;

		if (offsets)
			offsets[i] = (uint32_t)o;
		if (f[i].is_member)
			continue;
		/* Plain numbers: the common case, one store. */
		if (w) {
			uint64_t x = val[i].u;

			if (cap - o >= 8)
				put_plain(buf + o, x);
			else if (w <= cap - o)
				put_le(buf + o, x, w);
			else
				return -1;
			o += w;
			continue;
		}
		if (f[i].type == GCSPEC_STRUCT)
			n = encode_rows(v, &f[i], psize, buf + o, cap - o);
		else
			n = encode_one(v, &f[i], &v->field[i], psize, buf + o, cap - o);
		if (n < 0)
			return -1;
		o += (size_t)n;
	}
	if (offsets)
		offsets[nfields] = (uint32_t)o;
	return (long)o;
}

long gen_encode(const struct gen_values *v, unsigned psize, uint8_t *buf, size_t cap)
{
	return encode(v, psize, buf, cap, NULL);
}

int gen_encode_offsets(const struct gen_values *v, unsigned psize,
		       uint32_t offsets[GEN_VALUES_MAX_FIELDS + 1])
{
	static uint8_t scratch[256 * 1024];

	return encode(v, psize, scratch, sizeof scratch, offsets) < 0 ? -1 : 0;
}

int gen_encode_plan_build(struct gen_encode_plan *p, unsigned event, unsigned psize)
{
	const struct gcspec_event *ev = &gcspec_events[event];
	const struct gcspec_field *f = gcspec_event_fields(ev);

	if (ev->nfields > GEN_VALUES_MAX_FIELDS)
		return -1;
	p->event = (uint16_t)event;
	p->pointer_size = (uint8_t)psize;
	p->nops = 0;
	for (unsigned i = 0; i < ev->nfields; i++) {
		if (f[i].is_member)
			continue;
		p->op[p->nops].field = (uint8_t)i;
		p->op[p->nops].width = f[i].type <= GCSPEC_STRUCT ? plain_width[psize == 8][f[i].type] : 0;
		p->nops++;
	}
	return 0;
}

long gen_encode_planned(const struct gen_encode_plan *p, const struct gen_values *v,
			uint8_t *buf, size_t cap)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[p->event]);
	const struct gen_value *val = v->field;
	const unsigned nops = p->nops, psize = p->pointer_size;
	size_t o = 0;

	for (unsigned k = 0; k < nops; k++) {
		unsigned i = p->op[k].field, w = p->op[k].width;
		long n;

		if (w) {
			if (cap - o < 8)
				return encode(v, psize, buf, cap, NULL); /* near the end: exact */
			put_plain(buf + o, val[i].u);
			o += w;
			continue;
		}
		if (f[i].type == GCSPEC_STRUCT)
			n = encode_rows(v, &f[i], psize, buf + o, cap - o);
		else
			n = encode_one(v, &f[i], &val[i], psize, buf + o, cap - o);
		if (n < 0)
			return -1;
		o += (size_t)n;
	}
	return (long)o;
}

void gen_layout_build(struct gen_layout *l, unsigned event, unsigned psize)
{
	const struct gcspec_event *ev = &gcspec_events[event];
	const struct gcspec_field *f = gcspec_event_fields(ev);
	unsigned run = 0, off = 0;

	memset(l, 0, sizeof *l);
	l->count_field = -1;
	l->struct_var = -1;
	if (ev->nfields > GEN_VALUES_MAX_FIELDS)
		return;
	for (unsigned i = 0; i < ev->nfields; i++) {
		struct gen_layout_field *x = &l->f[i];
		unsigned t = f[i].type;

		if (f[i].is_member)
			continue;
		if (t == GCSPEC_UNICODE_STRING || t == GCSPEC_ANSI_STRING || t == GCSPEC_BINARY ||
		    t == GCSPEC_STRUCT) {
			if (l->nvars == GEN_LAYOUT_MAX_VARS)
				return;
			x->kind = t == GCSPEC_UNICODE_STRING ? GEN_LK_UTF16 : t == GCSPEC_ANSI_STRING ?
				  GEN_LK_ANSI : t == GCSPEC_BINARY ? GEN_LK_BINARY : GEN_LK_STRUCT;
			x->var = l->nvars;
			l->var_init[l->nvars] = x->kind == GEN_LK_UTF16 ? 2 : x->kind == GEN_LK_ANSI ? 1 : 0;
			if (x->kind == GEN_LK_STRUCT)
				l->struct_var = (int8_t)l->nvars;
			l->var_field[l->nvars++] = (uint8_t)i;
			l->run_size[run] = (uint16_t)off;
			run++;
			off = 0;
			if (t == GCSPEC_STRUCT) {
				uint32_t moff[256], esize;

				l->count_field = f[i].size_field;
				if (gen_struct_layout(&f[i], psize, moff, &esize) < 0 || esize > 0xFFFF)
					return;
				l->elem_size = (uint16_t)esize;
				for (unsigned m = 0; m < f[i].nmembers; m++) {
					unsigned mt = f[i + 1 + m].type;

					if (mt > GCSPEC_STRUCT || !plain_width[psize == 8][mt] ||
					    gcspec_field_is_array(&f[i + 1 + m]))
						return; /* a member the encoder converts */
					l->f[i + 1 + m].kind = GEN_LK_MEMBER;
					l->f[i + 1 + m].var = x->var;
					l->f[i + 1 + m].off = (uint16_t)moff[m];
					l->f[i + 1 + m].width = plain_width[psize == 8][mt];
				}
			}
			continue;
		}
		x->run = (uint8_t)run;
		x->off = (uint16_t)off;
		x->width = (uint8_t)gen_type_width(t, psize);
		x->kind = t == GCSPEC_FLOAT ? GEN_LK_FLOAT : t == GCSPEC_GUID ? GEN_LK_GUID : GEN_LK_PLAIN;
		off += x->width;
		if (off > GEN_LAYOUT_RUN_MAX)
			return;
	}
	l->run_size[run] = (uint16_t)off;
	l->ok = 1;
}
