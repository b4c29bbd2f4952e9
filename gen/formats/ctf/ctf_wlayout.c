/*
 * ctf_wlayout.c - how an event-version looks as an LTTng tracepoint:
 * packed or typed, its class name, and its typed field bytes.
 *
 * The typed bytes are the ETW payload walked field by field with the spec
 * template: fixed-size values are copied as they are (integers, Pointer at
 * the stream's pointer size, Boolean 4 bytes, Float/Double), a GUID gets the
 * size_t element count 4 in front of its 16 bytes (four int32 read little-
 * endian are the GUID's bytes), a UnicodeString becomes NUL-terminated UTF-8
 * and an AnsiString stays its bytes plus NUL. A payload that does not walk
 * exactly (too short, too long, a string without terminator, UTF-16 that is
 * not well-formed) has no typed form: the writer packs it.
 */
#include <stdio.h>
#include <string.h>

#include "gen/formats/ctf/ctf_w.h"

#define MAX_LTTNG_ARGS 9 /* CoreCLR's genLttngProvider.py */

int ctfw_packed(const struct gcspec_event *ev)
{
	const struct gcspec_field *f = gcspec_event_fields(ev);
	unsigned top = 0;

	for (unsigned i = 0; i < ev->nfields; i++) {
		if (f[i].is_member)
			continue;
		top++;
		if (f[i].type == GCSPEC_STRUCT || f[i].size_field >= 0)
			return 1;
	}
	return top > MAX_LTTNG_ARGS;
}

void ctfw_provider_name(unsigned provider, char *out, size_t cap)
{
	const char *n = provider < GCSPEC_NPROVIDERS ? gcspec_providers[provider].name : "Unknown";
	size_t k = 0;

	for (int dropped = 1; dropped;) {
		dropped = 0;
		if (strncmp(n, "Microsoft-", 10) == 0)
			n += 10, dropped = 1;
		if (strncmp(n, "Windows-", 8) == 0)
			n += 8, dropped = 1;
	}
	for (; *n && k + 1 < cap; n++)
		out[k++] = *n == '-' ? '_' : *n;
	if (cap)
		out[k] = 0;
}

void ctfw_class_name(unsigned provider, unsigned id, unsigned version, char *out, size_t cap)
{
	char prov[64];
	const struct gcspec_event *ev = gcspec_lookup(provider, id, version);

	ctfw_provider_name(provider, prov, sizeof prov);
	if (ev) {
		snprintf(out, cap, "%s:%s", prov, ev->symbol);
		return;
	}
	for (unsigned v = 0; v < GCSPEC_MAX_VERSIONS && !ev; v++)
		ev = gcspec_lookup(provider, id, v);
	if (ev && version)
		snprintf(out, cap, "%s:%s_V%u", prov, ev->name, version);
	else if (ev)
		snprintf(out, cap, "%s:%s", prov, ev->name);
	else if (version)
		snprintf(out, cap, "%s:EventID%u_V%u", prov, id, version);
	else
		snprintf(out, cap, "%s:EventID%u", prov, id);
}

unsigned ctfw_field_width(unsigned type, unsigned psize)
{
	switch (type) {
	case GCSPEC_UINT8: case GCSPEC_INT8: return 1;
	case GCSPEC_UINT16: case GCSPEC_INT16: return 2;
	case GCSPEC_UINT32: case GCSPEC_INT32: case GCSPEC_FLOAT: case GCSPEC_BOOLEAN: return 4;
	case GCSPEC_UINT64: case GCSPEC_INT64: case GCSPEC_DOUBLE: return 8;
	case GCSPEC_POINTER: return psize;
	default: return 0;
	}
}

long ctfw_fixed_size(const struct gcspec_event *ev, unsigned psize)
{
	const struct gcspec_field *f = gcspec_event_fields(ev);
	long n = 0;

	for (unsigned i = 0; i < ev->nfields; i++) {
		unsigned w = ctfw_field_width(f[i].type, psize);

		if (!w)
			return -1;
		n += w;
	}
	return n;
}

/* UTF-16LE units s[0..n) (no terminator) as UTF-8 into out; -1 when they
 * are not well-formed UTF-16 or out is too small. */
static long utf16_to_utf8(const uint8_t *s, size_t n, uint8_t *out, size_t cap)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i += 2) {
		uint32_t c = (uint32_t)s[i] | (uint32_t)s[i + 1] << 8;

		if (c >= 0xD800 && c < 0xDC00) {
			uint32_t lo;

			if (i + 3 >= n)
				return -1;
			lo = (uint32_t)s[i + 2] | (uint32_t)s[i + 3] << 8;
			if (lo < 0xDC00 || lo >= 0xE000)
				return -1;
			c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
			i += 2;
		} else if (c >= 0xDC00 && c < 0xE000) {
			return -1;
		}
		if (o + 4 > cap)
			return -1;
		if (c < 0x80) {
			out[o++] = (uint8_t)c;
		} else if (c < 0x800) {
			out[o++] = (uint8_t)(0xC0 | c >> 6);
			out[o++] = (uint8_t)(0x80 | (c & 0x3F));
		} else if (c < 0x10000) {
			out[o++] = (uint8_t)(0xE0 | c >> 12);
			out[o++] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
			out[o++] = (uint8_t)(0x80 | (c & 0x3F));
		} else {
			out[o++] = (uint8_t)(0xF0 | c >> 18);
			out[o++] = (uint8_t)(0x80 | (c >> 12 & 0x3F));
			out[o++] = (uint8_t)(0x80 | (c >> 6 & 0x3F));
			out[o++] = (uint8_t)(0x80 | (c & 0x3F));
		}
	}
	return (long)o;
}

long ctfw_typed_fields(const struct gcspec_event *ev, const uint8_t *p, uint32_t len,
		       unsigned psize, uint8_t *out, size_t cap)
{
	const struct gcspec_field *f = gcspec_event_fields(ev);
	size_t pos = 0, o = 0;

	for (unsigned i = 0; i < ev->nfields; i++) {
		unsigned w = ctfw_field_width(f[i].type, psize);

		if (w) {
			if (pos + w > len || o + w > cap)
				return -1;
			memcpy(out + o, p + pos, w);
			pos += w;
			o += w;
			continue;
		}
		switch (f[i].type) {
		case GCSPEC_GUID:
			if (pos + 16 > len || o + psize + 16 > cap)
				return -1;
			/* The size_t element count of the int32 sequence. */
			memset(out + o, 0, psize);
			out[o] = 4;
			memcpy(out + o + psize, p + pos, 16);
			pos += 16;
			o += psize + 16;
			break;
		case GCSPEC_UNICODE_STRING: {
			size_t end;
			long k;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			/* Four ASCII units at a time (none NUL): their low bytes
			 * are their UTF-8. Type names are mostly ASCII. */
			while (pos + 8 <= len && o + 4 <= cap) {
				uint64_t x;
				uint32_t b;

				memcpy(&x, p + pos, 8);
				if ((x & 0xFF80FF80FF80FF80ull) ||
				    ((x - 0x0001000100010001ull) & ~x & 0x8000800080008000ull))
					break;
				b = (uint32_t)((x & 0xFF) | (x >> 8 & 0xFF00) | (x >> 16 & 0xFF0000) |
					       (x >> 24 & 0xFF000000u));
				memcpy(out + o, &b, 4);
				pos += 8;
				o += 4;
			}
#endif
			end = pos;
			while (end + 1 < len && (p[end] || p[end + 1]))
				end += 2;
			if (end + 1 >= len)
				return -1; /* no terminator (or an odd byte) */
			k = utf16_to_utf8(p + pos, end - pos, out + o, cap - o);
			if (k < 0 || o + (size_t)k + 1 > cap)
				return -1;
			o += (size_t)k;
			out[o++] = 0;
			pos = end + 2;
			break;
		}
		case GCSPEC_ANSI_STRING: {
			const uint8_t *nul = pos < len ? memchr(p + pos, 0, len - pos) : NULL;
			size_t k;

			if (!nul)
				return -1;
			k = (size_t)(nul - (p + pos)) + 1;
			if (o + k > cap)
				return -1;
			memcpy(out + o, p + pos, k);
			pos += k;
			o += k;
			break;
		}
		default:
			return -1; /* Binary, Struct: packed templates only */
		}
	}
	return pos == len ? (long)o : -1;
}
