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
uint64_t gen_rng_next(struct gen_rng *r);
/* Uniform in [0, n); n == 0 gives 0. */
uint64_t gen_rng_below(struct gen_rng *r, uint64_t n);
/* Uniform in [lo, hi] inclusive. */
uint64_t gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi);
/* 1 with probability num/den. */
int gen_rng_chance(struct gen_rng *r, unsigned num, unsigned den);
/* splitmix64 step: also used to derive independent seeds (shards). */
uint64_t gen_splitmix64(uint64_t *state);

#endif
