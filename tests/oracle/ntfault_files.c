/*
 * ntfault_files.c - write one nettrace file per container fault class, for
 * the catalogue test (tests/oracle/catalogue.sh) to run gcoracle over.
 *
 * Usage: ntfault_files DIR. Base streams are the nettrace tests' own
 * (tests/nettrace/ntcommon.h: spec events with stacks), written as V5 and
 * V6; every class that applies to a base gives DIR/CLASS-vN.nettrace.
 * Two more faults are made here, for codes the mutator has no class for:
 * bytes after the end of the stream (N021) and a V5 metadata record that
 * defines id 0 (N020). Prints one line per file: its name and the code it
 * must raise.
 */
#include "config.h"

#include "tests/nettrace/ntcommon.h"

static struct test_stream st;

static int put(const char *dir, const char *name, unsigned v, const uint8_t *data, size_t len,
               const char *code)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s-v%u.nettrace", dir, name, v);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "ntfault_files: cannot write %s\n", path);
		return -1;
	}
	printf("%s %s\n", path, code);
	return 0;
}

/* The V5 metadata payload begins with its MetaDataId, then the provider
 * name: zero the id in front of the first provider name. */
static int zero_first_metadata_id(uint8_t *buf, size_t len)
{
	static const char name[] = "Microsoft-Windows-DotNETRuntime";
	size_t n = 2 * (sizeof name - 1);

	for (size_t at = 4; at + n <= len; at++) {
		size_t k = 0;
		while (k < sizeof name - 1 && buf[at + 2 * k] == (uint8_t)name[k] &&
		       buf[at + 2 * k + 1] == 0)
			k++;
		if (k == sizeof name - 1) {
			memset(buf + at - 4, 0, 4);
			return 0;
		}
	}
	return -1;
}

int main(int argc, char **argv)
{
	static const unsigned versions[] = { 5, 6 };
	unsigned written = 0;

	if (argc != 2) {
		fputs("usage: ntfault_files DIR\n", stderr);
		return 2;
	}
	nt_make(&st, 400, 11);
	for (unsigned v = 0; v < 2; v++) {
		struct gen_nettrace_opts o = { versions[v], 0, 0, 0, 300, 2, 0 };
		size_t len;
		uint8_t *base = nt_write(&st, &o, 8, &len);

		if (!base)
			return 1;
		for (int fc = 0; fc < GEN_NTF_COUNT; fc++) {
			struct gen_nt_mutation m;
			const char *why;

			if (gen_nettrace_mutate(base, len, fc, 7919, &m, &why))
				continue;
			if (put(argv[1], gen_nettrace_fault_name(fc), versions[v], m.data, m.len,
			        gcspec_diags[m.code].code))
				return 1;
			free(m.data);
			written++;
		}
		{
			uint8_t *more = malloc(len + 4);

			if (!more)
				return 1;
			memcpy(more, base, len);
			memset(more + len, 0x5a, 4);
			if (put(argv[1], "trailing-bytes", versions[v], more, len + 4, "GC-N021"))
				return 1;
			free(more);
		}
		if (versions[v] == 5) {
			if (zero_first_metadata_id(base, len) ||
			    put(argv[1], "metadata-record-id-zero", 5, base, len, "GC-N020"))
				return 1;
		}
		free(base);
	}
	return written ? 0 : 1;
}
