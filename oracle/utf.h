/*
 * utf.h - UTF-16LE to UTF-8, one code point at a time, for output and for
 * comparing model strings. Unpaired surrogates become U+FFFD.
 */
#ifndef ORACLE_UTF_H
#define ORACLE_UTF_H

#include <stdint.h>

/* Decode one code point from s[*k..n) (n even); advances *k. */
static inline uint32_t or_utf16_next(const uint8_t *s, uint32_t n, uint32_t *k)
{
	uint32_t u = (uint32_t)s[*k] | (uint32_t)s[*k + 1] << 8;

	*k += 2;
	if (u >= 0xD800 && u <= 0xDBFF && *k + 1 < n) {
		uint32_t lo = (uint32_t)s[*k] | (uint32_t)s[*k + 1] << 8;
		if (lo >= 0xDC00 && lo <= 0xDFFF) {
			*k += 2;
			return 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
		}
	}
	if (u >= 0xD800 && u <= 0xDFFF)
		return 0xFFFD;
	return u;
}

/* Encode cp as UTF-8 into out (4 bytes room); returns the length. */
static inline unsigned or_utf8_put(uint32_t cp, uint8_t *out)
{
	if (cp < 0x80) { out[0] = (uint8_t)cp; return 1; }
	if (cp < 0x800) {
		out[0] = (uint8_t)(0xC0 | cp >> 6);
		out[1] = (uint8_t)(0x80 | (cp & 63));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (uint8_t)(0xE0 | cp >> 12);
		out[1] = (uint8_t)(0x80 | (cp >> 6 & 63));
		out[2] = (uint8_t)(0x80 | (cp & 63));
		return 3;
	}
	out[0] = (uint8_t)(0xF0 | cp >> 18);
	out[1] = (uint8_t)(0x80 | (cp >> 12 & 63));
	out[2] = (uint8_t)(0x80 | (cp >> 6 & 63));
	out[3] = (uint8_t)(0x80 | (cp & 63));
	return 4;
}

#endif
