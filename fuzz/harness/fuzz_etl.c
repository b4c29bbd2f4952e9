/* fuzz_etl.c - the ETW .etl reader, through the whole oracle. */
#include "fuzz/harness/fuzz_common.h"

FZ_READER_HARNESS("etl", GCM_FORMAT_ETL)
