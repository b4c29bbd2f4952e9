/* rng.c - xoshiro256** (Blackman & Vigna), seeded with splitmix64. */
#include "gen/model/rng.h"

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

uint64_t gen_rng_range(struct gen_rng *r, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	if (lo == 0 && hi == UINT64_MAX)
		return gen_rng_next(r);
	return lo + gen_rng_below(r, hi - lo + 1);
}
