/*
 * gcm_example.c - the whole of a harness that fuzzes another project's
 * nettrace parser with gcconform's structure-aware mutator. Build it as
 * docs/fuzzing.md shows; replace example_count_blocks with your parser.
 */
#include <gcmutator.h>

#include "fuzz/gcmutator/example_parser.h"

GCM_LIBFUZZER_HOOKS(GCM_FORMAT_NETTRACE)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	example_count_blocks(data, size);
	return 0;
}
