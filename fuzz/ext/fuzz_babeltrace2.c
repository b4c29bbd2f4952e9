/*
 * fuzz_babeltrace2.c - babeltrace2's CTF reader in-process, the libFuzzer
 * harness OSS-Fuzz runs (fuzz/oss-fuzz/build.sh builds it as babeltrace2_s).
 * The input is the ustar archive of a trace directory (gcm_tar.h), mutated
 * by gcmutator as CTF; each input is unpacked into a private directory and
 * read by the graph of bt2_graph.h, so an abort, a sanitizer report, a leak,
 * a timeout or an out-of-memory in babeltrace2 stops the fuzzer with the
 * input, as OSS-Fuzz expects. (fuzz/ext/bt2_ctf.c is the other way: each
 * trace in a forked child, findings saved and the run going on.)
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/ext/bt2_graph.h"
#include "fuzz/gcmutator/gcm_tar.h"
#include "fuzz/gcmutator/gcmutator.h"

GCM_LIBFUZZER_HOOKS(GCM_FORMAT_CTF)

int LLVMFuzzerInitialize(int *argc, char ***argv);

static char base[PATH_MAX], trace[PATH_MAX + 8];

static void remove_base(void)
{
	gcm_rmdir(trace);
	rmdir(base);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	(void)argc;
	(void)argv;
	/* Without its plugins every input would look like a rejected trace. */
	if (bt2_graph_init() != 0) {
		fprintf(stderr, "babeltrace2_s: babeltrace2's ctf and utils plugins not found "
		                "(built in, or in the system's plugin directory)\n");
		exit(1);
	}
	snprintf(base, sizeof base, "%s/bt2fuzz.XXXXXX", tmp);
	if (!mkdtemp(base)) {
		perror("babeltrace2_s: mkdtemp");
		exit(1);
	}
	snprintf(trace, sizeof trace, "%s/trace", base);
	atexit(remove_base);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t events = 0;

	if (mkdir(trace, 0700) == 0 && gcm_tar_unpack(data, size, trace) > 0)
		bt2_read_trace(trace, &events);
	gcm_rmdir(trace);
	return 0;
}
