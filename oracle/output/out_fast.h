/*
 * out_fast.h - the two formatters --json and --cbor call most (several
 * times an event): an unsigned integer in decimal and a CBOR unsigned
 * integer's head. Hand-written because printf's format parsing and
 * libcbor's call through its dispatch were most of the output's time
 * (docs/oracle-performance.md); tests/oracle/out_fast_test.c checks them
 * against snprintf and cbor_encode_uint on boundary and random values.
 */
#ifndef ORACLE_OUT_FAST_H
#define ORACLE_OUT_FAST_H

#include <stdint.h>
#include <string.h>

static const uint64_t or_pow10_u64[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
	100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
	1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
	1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
	1000000000000000000ULL, 10000000000000000000ULL
};

static const char or_digits2[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Decimal digits of v: log10 from the bit length (1233/4096 ~ log10 2). */
static inline unsigned or_ndigits(uint64_t v)
{
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;

	return t + (v >= or_pow10_u64[t]) + (v == 0);
}

/* v in decimal at at[0..n) (at most 20 bytes, no terminator); returns n.
 * Two digits at a time from the end, in 32-bit arithmetic once what is
 * left fits (eight digits at once by SWAR measured slower here). */
static inline unsigned or_dec_u64(char *at, uint64_t v)
{
	unsigned n = or_ndigits(v);
	char *q = at + n;
	uint32_t x;

	while (v > UINT32_MAX) {
		unsigned d = (unsigned)(v % 100) * 2;
		v /= 100;
		q -= 2;
		memcpy(q, or_digits2 + d, 2);
	}
	x = (uint32_t)v;
	while (x >= 100) {
		unsigned d = (x % 100) * 2;
		x /= 100;
		q -= 2;
		memcpy(q, or_digits2 + d, 2);
	}
	if (x >= 10) {
		q -= 2;
		memcpy(q, or_digits2 + x * 2, 2);
	} else {
		*--q = (char)('0' + x);
	}
	return n;
}

/* The head of CBOR unsigned integer v (major type 0, shortest form, as
 * cbor_encode_uint writes it) at at[0..n) (at most 9 bytes); returns n. */
static inline unsigned or_cbor_uint_head(unsigned char *at, uint64_t v)
{
	if (v < 24) {
		at[0] = (unsigned char)v;
		return 1;
	}
	if (v <= UINT8_MAX) {
		at[0] = 0x18;
		at[1] = (unsigned char)v;
		return 2;
	}
	if (v <= UINT16_MAX) {
		at[0] = 0x19;
		at[1] = (unsigned char)(v >> 8);
		at[2] = (unsigned char)v;
		return 3;
	}
	if (v <= UINT32_MAX) {
		at[0] = 0x1a;
		for (int k = 0; k < 4; k++)
			at[1 + k] = (unsigned char)(v >> (24 - 8 * k));
		return 5;
	}
	at[0] = 0x1b;
	for (int k = 0; k < 8; k++)
		at[1 + k] = (unsigned char)(v >> (56 - 8 * k));
	return 9;
}

#endif
