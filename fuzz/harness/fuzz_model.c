/* fuzz_model.c - the CBOR model-stream reader, through the whole oracle. */
#include "fuzz/harness/fuzz_common.h"

FZ_READER_HARNESS("cbor-model", GCM_FORMAT_CBOR)
