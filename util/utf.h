/*
 * utf.h - UTF-16LE strings: finding a string's end and checking its
 * surrogates (the payload decoder, both its full and its lean way), and
 * UTF-16LE to UTF-8, one code point at a time, for output and for comparing
 * model strings. Unpaired surrogates become U+FFFD.
 */
#ifndef ORACLE_UTF_H
#define ORACLE_UTF_H

#include <stdint.h>
#include <string.h>

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

/* Decode one code point of UTF-8 text from s[*k..n); advances *k. A byte
 * that does not start a valid shortest-form sequence (overlong, surrogate,
 * above U+10FFFF, cut short) is taken alone as U+00xx, Latin-1, so any
 * bytes decode and valid UTF-8 is never encoded twice. Names and messages
 * from the input (CTF metadata is UTF-8) are written through this. */
static inline uint32_t or_utf8_next(const uint8_t *s, size_t n, size_t *k)
{
	uint32_t c = s[*k], cp, min;
	size_t len, i;

	if (c < 0x80)
		len = 1, cp = c, min = 0;
	else if ((c & 0xE0) == 0xC0)
		len = 2, cp = c & 0x1F, min = 0x80;
	else if ((c & 0xF0) == 0xE0)
		len = 3, cp = c & 0x0F, min = 0x800;
	else if ((c & 0xF8) == 0xF0)
		len = 4, cp = c & 0x07, min = 0x10000;
	else
		len = 0, cp = 0, min = 0;
	if (len > 1 && *k + len <= n) {
		for (i = 1; i < len && (s[*k + i] & 0xC0) == 0x80; i++)
			cp = cp << 6 | (s[*k + i] & 0x3F);
		if (i == len && cp >= min && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
			*k += len;
			return cp;
		}
	} else if (len == 1) {
		*k += 1;
		return cp;
	}
	*k += 1;
	return c;
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

/* Eight bytes, little-endian, any alignment. */
static inline uint64_t or_utf_ld64(const uint8_t *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
#else
	uint64_t v = 0;

	for (int i = 8; i-- > 0;)
		v = v << 8 | p[i];
	return v;
#endif
}

/* Find the NUL terminator of the UTF-16LE string at s[0..n) and check its
 * surrogates on the way. Returns the string's length in bytes (without the
 * terminator) or n when there is none; *bad is the offset of the first
 * unpaired surrogate, or UINT32_MAX. */
static inline uint32_t or_utf16_scan(const uint8_t *s, uint32_t n, uint32_t *bad)
{
	uint32_t k;

	*bad = UINT32_MAX;
	/* Four code units at a time while none is 0 or a surrogate: a lane
	 * is zero exactly when the borrow test below sets its top bit. */
	for (k = 0; k + 8 <= n; k += 8) {
		const uint64_t ones = 0x0001000100010001ULL, tops = 0x8000800080008000ULL;
		uint64_t x = or_utf_ld64(s + k);
		uint64_t y = (x ^ 0xD800D800D800D800ULL) & 0xF800F800F800F800ULL;
		if ((((x - ones) & ~x) | ((y - ones) & ~y)) & tops)
			break;
	}
	for (; k + 1 < n; k += 2) {
		unsigned u = (unsigned)(s[k] | s[k + 1] << 8);
		if (u == 0)
			return k;
		if (u - 0xD800u >= 0x800u)
			continue;
		if (*bad != UINT32_MAX)
			continue;
		if (u <= 0xDBFF) {
			/* A high surrogate needs a low one next; the string's
			 * terminator or end does not count as one. */
			unsigned lo = k + 3 < n ? (unsigned)(s[k + 2] | s[k + 3] << 8) : 0;
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				k += 2;
				continue;
			}
		}
		*bad = k;
	}
	return n;
}

#endif
