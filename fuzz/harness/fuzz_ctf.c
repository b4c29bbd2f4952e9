/* fuzz_ctf.c - the CTF reader (a trace directory as its ustar image), through the whole oracle. */
#include "fuzz/harness/fuzz_common.h"

FZ_READER_HARNESS("ctf", GCM_FORMAT_CTF)
