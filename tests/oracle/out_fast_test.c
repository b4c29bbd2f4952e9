/*
 * out_fast_test.c - the output's hand-written formatters (oracle/output/out_fast.h)
 * against the library ways they replace: decimal against snprintf's %llu,
 * CBOR heads against libcbor's cbor_encode_uint, on every power of two and
 * of ten and their neighbours and on a million pseudo-random values of
 * every length.
 */
#include <cbor.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "oracle/output/out_fast.h"
#include "tap.h"

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* 0 when both ways agree on v, else prints the first difference. */
static int differs(uint64_t v)
{
	char mine[24], ref[24];
	unsigned char head[9], lib[9];
	unsigned n = or_dec_u64(mine, v);
	size_t h, l;

	snprintf(ref, sizeof ref, "%" PRIu64, v);
	if (n != strlen(ref) || memcmp(mine, ref, n) != 0) {
		printf("# %s: decimal %.*s\n", ref, (int)n, mine);
		return 1;
	}
	h = or_cbor_uint_head(head, v);
	l = cbor_encode_uint(v, lib, sizeof lib);
	if (h != l || memcmp(head, lib, h) != 0) {
		printf("# %s: CBOR head of %zu bytes, libcbor %zu\n", ref, h, l);
		return 1;
	}
	return 0;
}

int main(void)
{
	unsigned bad = 0;
	uint64_t p = 1;

	for (unsigned i = 0; i < 64; i++)
		bad += differs(1ULL << i) + differs((1ULL << i) - 1) + differs((1ULL << i) + 1);
	tap_ok(bad == 0, "powers of two and their neighbours");
	bad = 0;
	for (unsigned i = 0; i < 20; i++, p *= 10)
		bad += differs(p) + differs(p - 1) + differs(p + 1) + differs(p * 9);
	bad += differs(0) + differs(UINT64_MAX) + differs(23) + differs(24);
	tap_ok(bad == 0, "powers of ten, their neighbours, 0, 23, 24 and UINT64_MAX");
	bad = 0;
	for (unsigned i = 0; i < 1000000 && bad < 5; i++) {
		uint64_t v = next();
		bad += differs(v >> (v & 63));
	}
	tap_ok(bad == 0, "a million pseudo-random values of every length");
	return tap_done();
}
