/* fuzz_decode.c - the spec-driven payload decoder alone (oracle/decode/decode.h). */
#include "fuzz/harness/fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return fz_decode(data, size);
}
