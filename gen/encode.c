/* encode.c - table-driven payload encoder. */
#include <string.h>

#include "encode.h"

unsigned gen_type_width(unsigned type, unsigned pointer_size)
{
	switch (type) {
	case GCSPEC_UINT8: case GCSPEC_INT8: return 1;
	case GCSPEC_UINT16: case GCSPEC_INT16: return 2;
	case GCSPEC_UINT32: case GCSPEC_INT32: case GCSPEC_FLOAT: case GCSPEC_BOOLEAN: return 4;
	case GCSPEC_UINT64: case GCSPEC_INT64: case GCSPEC_DOUBLE: return 8;
	case GCSPEC_POINTER: return pointer_size;
	case GCSPEC_GUID: return 16;
	default: return 0;
	}
}

static size_t put_le(uint8_t *p, uint64_t x, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(x >> (8 * i));
	return width;
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
		uint32_t cp = utf8_next(s, len, &i);

		if (cp == 0)
			break; /* an embedded NUL would end the string on the wire anyway */
		if (cp >= 0x10000) {
			if (o + 4 > cap)
				return -1;
			cp -= 0x10000;
			o += put_le(out + o, 0xD800 | (cp >> 10), 2);
			o += put_le(out + o, 0xDC00 | (cp & 0x3FF), 2);
		} else {
			if (o + 2 > cap)
				return -1;
			o += put_le(out + o, cp, 2);
		}
	}
	if (o + 2 > cap)
		return -1;
	o += put_le(out + o, 0, 2);
	return (long)o;
}

/* Encode one value of field f at out; returns bytes or -1. */
static long encode_one(const struct gen_values *v, const struct gcspec_field *f,
		       const struct gen_value *x, unsigned psize, uint8_t *out, size_t cap)
{
	unsigned w = gen_type_width(f->type, psize);
	const uint8_t *data;

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
			return (long)put_le(out, bits, 4);
		}
		return (long)put_le(out, x->u, w);
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

long gen_encode(const struct gen_values *v, unsigned psize, uint8_t *buf, size_t cap)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	size_t o = 0;

	for (unsigned i = 0; i < v->nfields; i++) {
		long n;

		if (f[i].is_member)
			continue;
		if (f[i].type == GCSPEC_STRUCT) {
			for (unsigned r = 0; r < v->nrows; r++) {
				for (unsigned m = 0; m < f[i].nmembers; m++) {
					const struct gcspec_field *mf = &f[i + 1 + m];

					n = encode_one(v, mf, &v->cell[r * v->nmembers + m], psize,
						       buf + o, cap - o);
					if (n < 0)
						return -1;
					o += (size_t)n;
				}
			}
			continue;
		}
		n = encode_one(v, &f[i], &v->field[i], psize, buf + o, cap - o);
		if (n < 0)
			return -1;
		o += (size_t)n;
	}
	return (long)o;
}

int gen_encode_offsets(const struct gen_values *v, unsigned psize,
		       uint32_t offsets[GEN_VALUES_MAX_FIELDS + 1])
{
	static uint8_t scratch[256 * 1024];
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	size_t o = 0;

	for (unsigned i = 0; i < v->nfields; i++) {
		long n;

		offsets[i] = (uint32_t)o;
		if (f[i].is_member)
			continue;
		if (f[i].type == GCSPEC_STRUCT) {
			for (unsigned r = 0; r < v->nrows; r++)
				for (unsigned m = 0; m < f[i].nmembers; m++) {
					n = encode_one(v, &f[i + 1 + m], &v->cell[r * v->nmembers + m],
						       psize, scratch, sizeof scratch);
					if (n < 0)
						return -1;
					o += (size_t)n;
				}
			continue;
		}
		n = encode_one(v, &f[i], &v->field[i], psize, scratch, sizeof scratch);
		if (n < 0)
			return -1;
		o += (size_t)n;
	}
	offsets[v->nfields] = (uint32_t)o;
	return 0;
}
