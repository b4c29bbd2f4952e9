/* fuzz_nettrace.c - the nettrace reader (V4/V5/V6), through the whole oracle. */
#include "fuzz/harness/fuzz_common.h"

FZ_READER_HARNESS("nettrace", GCM_FORMAT_NETTRACE)
