/* rng.c - xoshiro256** (Blackman & Vigna), seeded with splitmix64. */
#include "rng.h"

uint64_t gen_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

void gen_rng_seed(struct gen_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = gen_splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t gen_rng_next(struct gen_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t gen_rng_below(struct gen_rng *r, uint64_t n)
{
	/* Lemire's multiply-shift would need 128-bit math; modulo bias is
	 * irrelevant for simulated workloads, determinism is what matters. */
	return n ? gen_rng_next(r) % n : 0;
}

uint64_t gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	if (lo == 0 && hi == UINT64_MAX)
		return gen_rng_next(r);
	return lo + gen_rng_below(r, hi - lo + 1);
}

int gen_rng_chance(struct gen_rng *r, unsigned num, unsigned den)
{
	return gen_rng_below(r, den) < num;
}
