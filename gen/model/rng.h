/*
 * rng.h - the generator's own seeded PRNG (xoshiro256** seeded by splitmix64).
 *
 * gcgen never calls rand(): its output must be byte-identical for the same
 * seed on every libc. State is a plain struct the caller owns; no errors.
 */
#ifndef GEN_RNG_H
#define GEN_RNG_H

#include <stdint.h>

struct gen_rng {
	uint64_t s[4];
};

/* Seed from one 64-bit number; any seed (including 0) gives a good state. */
void gen_rng_seed(struct gen_rng *r, uint64_t seed);
/* Uniform in [lo, hi] inclusive. */
uint64_t gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi);

/* The simulator draws several numbers per event: inline, so that a
 * constant bound turns the modulo into a multiplication. */
static inline uint64_t gen_rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t gen_rng_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = gen_rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = gen_rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n); n == 0 gives 0. Lemire's multiply-shift would need
 * 128-bit math; modulo bias is irrelevant for simulated workloads,
 * determinism is what matters. */
static inline uint64_t gen_rng_below(struct gen_rng *r, uint64_t n)
{
	return n ? gen_rng_next(r) % n : 0;
}

/* 1 with probability num/den. */
static inline int gen_rng_chance(struct gen_rng *r, unsigned num, unsigned den)
{
	return gen_rng_below(r, den) < num;
}
/* splitmix64 step: also used to derive independent seeds (shards). */
uint64_t gen_splitmix64(uint64_t *state);

#endif
