/*
 * gcm_standalone.c - links the gcmutator example harness the way another
 * project would (gcmutator.h, libgcmutator.a, libcbor; nothing else of
 * gcconform) and drives its hooks without libFuzzer: mutate, cross over,
 * run the harness, and check what the library promises. TAP output.
 *
 * Usage: gcm_standalone SEED_FILE...
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcmutator.h>

#include "fuzz/gcmutator/example_parser.h"
#include "tap.h"

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size,
                                 uint8_t *out, size_t max_out, unsigned int seed);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

/* libFuzzer's byte-level mutator, as the hooks call it one time in eight. */
static unsigned byte_mutations;
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
	byte_mutations++;
	if (size && max_size)
		data[size / 2] ^= 0x5a;
	return size;
}

#define MAX (1u << 20)
static uint8_t seeds[8][MAX], buf[MAX], buf2[MAX];
static size_t seed_len[8];

static size_t load(const char *path, uint8_t *dst)
{
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(dst, 1, MAX, f) : 0;

	if (f)
		fclose(f);
	return n;
}

int main(int argc, char **argv)
{
	unsigned nseeds = 0, same = 1, bounded = 1, changed = 0, parsed = 0, ops = 0, runs = 400;
	char seen[64][40];
	unsigned nseen = 0;

	for (int i = 1; i < argc && nseeds < 8; i++)
		if ((seed_len[nseeds] = load(argv[i], seeds[nseeds])) > 0)
			nseeds++;
	if (!tap_ok(nseeds > 0, "seed streams loaded (%u)", nseeds))
		return tap_done();

	for (unsigned r = 0; r < runs; r++) {
		unsigned k = r % nseeds, seed = r * 2654435761u;
		size_t max = seed_len[k] * 2, n, n2;
		const char *what;

		memcpy(buf, seeds[k], seed_len[k]);
		n = LLVMFuzzerCustomMutator(buf, seed_len[k], max, seed);
		if (n > max)
			bounded = 0;
		LLVMFuzzerTestOneInput(buf, n);
		if (n != seed_len[k] || memcmp(buf, seeds[k], n))
			changed++;
		if (example_count_blocks(buf, n) > 0)
			parsed++;
		/* Same input and seed: same bytes. */
		memcpy(buf2, seeds[k], seed_len[k]);
		n2 = LLVMFuzzerCustomMutator(buf2, seed_len[k], max, seed);
		if (n2 != n || memcmp(buf, buf2, n))
			same = 0;
		/* Distinct operator names the library reports. */
		what = gcm_last_mutation();
		while (*what && nseen < 64) {
			size_t len = strcspn(what, ";");
			unsigned s;

			for (s = 0; s < nseen; s++)
				if (strlen(seen[s]) == len && !strncmp(seen[s], what, len))
					break;
			if (s == nseen && len < sizeof seen[0]) {
				memcpy(seen[nseen], what, len);
				seen[nseen++][len] = 0;
			}
			what += len;
			while (*what == ';' || *what == ' ')
				what++;
		}
		ops++;
	}
	tap_ok(same, "the mutator is deterministic for a given input and seed (%u runs)", ops);
	tap_ok(bounded, "no mutant is longer than max_size");
	tap_ok(changed > runs * 9 / 10, "mutants differ from their input (%u of %u)", changed, runs);
	tap_ok(parsed > runs / 2, "most mutants are still nettrace the example parser walks (%u of %u)",
	       parsed, runs);
	tap_ok(nseen >= 20, "at least 20 distinct structural operators were applied (%u)", nseen);
	/* Two mutator calls per run (the determinism check makes the second). */
	tap_ok(byte_mutations >= 2 * runs / 16 && byte_mutations <= 2 * runs / 4,
	       "about one call in eight goes to libFuzzer's byte mutator (%u of %u)",
	       byte_mutations, 2 * runs);

	{
		size_t n = LLVMFuzzerCustomCrossOver(seeds[0], seed_len[0], seeds[nseeds - 1],
		                                     seed_len[nseeds - 1], buf, seed_len[0], 7);
		tap_ok(n > 0 && n <= seed_len[0] && example_count_blocks(buf, n) > 0,
		       "crossover splices two streams into a bounded nettrace stream (%zu bytes)", n);
	}
	{
		static const uint8_t junk[] = "not a stream at all";
		size_t n;

		memcpy(buf, junk, sizeof junk);
		n = gcm_mutate(buf, sizeof junk, MAX, 3, GCM_FORMAT_NETTRACE);
		tap_ok(example_count_blocks(buf, n) > 0,
		       "input that does not parse is replaced by a generated nettrace stream (%zu bytes)", n);
		n = gcm_seed_stream(buf, MAX, 5, GCM_FORMAT_NETTRACE_V6);
		tap_ok(n > 20 && !memcmp(buf, "Nettrace", 8) && buf[12] == 6,
		       "gcm_seed_stream writes a V6 stream when asked for V6 only (%zu bytes)", n);
		n = gcm_seed_stream(buf, 16, 5, GCM_FORMAT_NETTRACE);
		tap_ok(n <= 16, "gcm_seed_stream respects a tiny max_out (%zu bytes)", n);
	}
	for (unsigned s = 0; s < nseen; s++)
		tap_diag("operator: %s", seen[s]);
	return tap_done();
}
