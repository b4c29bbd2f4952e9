/*
 * fuzz_compare.c - `gcoracle compare`'s two inputs, as a hostile decoder or
 * a damaged corpus could hand them over: the input's first byte chooses
 * which one the rest is.
 *   even: ACTUAL, a decoder's JSON lines, against a small case built here
 *         (an n_ case with an events file of two events);
 *   odd:  EXPECTED, a corpus case file (CBOR), against a fixed decoder
 *         output; its events file is looked up under $GCCONFORM_CORPUS
 *         (make fuzz-smoke and the replay test set it to the source tree's
 *         corpus, whose cases are the seeds) or else in the directory
 *         built here, where "events/fuzz.cbor" is.
 * Both run through or_compare_main, the command's own code, on files in a
 * private directory (it reads paths); standard output goes to /dev/null.
 * What must hold: no crash, no sanitizer report, an exit status of 0, 1 or
 * 2, and memory bounded by the command's own limits (libFuzzer's RSS
 * limit catches the rest).
 */
#include "config.h"

#include <cbor.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/compare/compare.h"

static char root[64], expect_path[128], actual_path[128], case_path[128], fixed_actual[128];

static void put_pair(cbor_item_t *map, const char *k, cbor_item_t *v)
{
	cbor_map_add(map, (struct cbor_pair){ cbor_move(cbor_build_string(k)), cbor_move(v) });
}

static int write_item(const char *path, cbor_item_t *item)
{
	unsigned char *buf = NULL;
	size_t cap = 0, n = cbor_serialize_alloc(item, &buf, &cap);
	FILE *f = fopen(path, "wb");
	int ok = f && n && fwrite(buf, 1, n, f) == n;

	if (f && fclose(f) != 0)
		ok = 0;
	free(buf);
	cbor_decref(&item);
	return ok ? 0 : -1;
}

static cbor_item_t *event(unsigned index, const char *name, unsigned id, unsigned version)
{
	cbor_item_t *e = cbor_new_definite_map(7);

	put_pair(e, "index", cbor_build_uint32(index));
	put_pair(e, "name", cbor_build_string(name));
	put_pair(e, "provider", cbor_build_string("Microsoft-Windows-DotNETRuntime"));
	put_pair(e, "id", cbor_build_uint16((uint16_t)id));
	put_pair(e, "version", cbor_build_uint8((uint8_t)version));
	put_pair(e, "timestamp", cbor_build_uint64(1000 + index));
	put_pair(e, "thread", cbor_build_uint32(7));
	return e;
}

static void remove_corpus(void);

/* The private corpus: expect/n_fuzz.cbor, events/fuzz.cbor and a decoder
 * output that reports the case's diagnostic. */
static int build_corpus(void)
{
	char dir[sizeof root + 32];
	cbor_item_t *c = cbor_new_definite_map(8), *diags = cbor_new_definite_array(1);
	cbor_item_t *d = cbor_new_definite_map(2), *ev = cbor_new_definite_map(3);
	cbor_item_t *evs = cbor_new_definite_array(2);
	FILE *f;

	strcpy(root, "/tmp/fuzzcompare.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	atexit(remove_corpus);
	snprintf(dir, sizeof dir, "%s/expect", root);
	mkdir(dir, 0700);
	snprintf(dir, sizeof dir, "%s/events", root);
	mkdir(dir, 0700);
	snprintf(expect_path, sizeof expect_path, "%s/expect/n_fuzz.cbor", root);
	snprintf(case_path, sizeof case_path, "%s/expect/case.cbor", root);
	snprintf(actual_path, sizeof actual_path, "%s/actual.json", root);
	snprintf(fixed_actual, sizeof fixed_actual, "%s/fixed.json", root);

	put_pair(d, "code", cbor_build_string("GC-S005"));
	put_pair(d, "event", cbor_build_uint8(1));
	cbor_array_push(diags, cbor_move(d));
	put_pair(c, "schema", cbor_build_string("gcconform-corpus-case"));
	put_pair(c, "version", cbor_build_uint8(1));
	put_pair(c, "name", cbor_build_string("n_fuzz"));
	put_pair(c, "class", cbor_build_string("n"));
	put_pair(c, "format", cbor_build_string("cbor-model"));
	put_pair(c, "container", cbor_build_string("cbor"));
	put_pair(c, "diagnostics", diags);
	put_pair(c, "events", cbor_build_string("events/fuzz.cbor"));
	cbor_array_push(evs, cbor_move(event(0, "GCStart_V2", 1, 2)));
	cbor_array_push(evs, cbor_move(event(1, "GCEnd_V1", 2, 1)));
	put_pair(ev, "schema", cbor_build_string("gcconform-corpus-events"));
	put_pair(ev, "version", cbor_build_uint8(1));
	put_pair(ev, "events", evs);
	snprintf(dir, sizeof dir, "%s/events/fuzz.cbor", root);
	if (write_item(expect_path, c) < 0 || write_item(dir, ev) < 0)
		return -1;
	if (!(f = fopen(fixed_actual, "w")))
		return -1;
	fputs("{\"type\":\"decoder\",\"name\":\"fuzz\",\"codes\":true}\n"
	      "{\"type\":\"event\",\"index\":0,\"name\":\"GCStart_V2\",\"id\":1,\"version\":2}\n"
	      "{\"type\":\"diag\",\"code\":\"GC-S005\",\"event\":1}\n", f);
	return fclose(f);
}

/* The private directory goes when the process ends. */
static void remove_corpus(void)
{
	char p[sizeof root + 32];
	const char *const names[] = { "expect/n_fuzz.cbor", "expect/case.cbor", "events/fuzz.cbor",
		"actual.json", "fixed.json", "expect", "events", "" };

	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", root, names[i]);
		if (remove(p) != 0) {
			/* not there: nothing to remove */
		}
	}
}

static int write_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	int ok = f && fwrite(p, 1, n, f) == n;

	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int ready;
	char *argv[8];
	int argc = 0, rc;

	if (!ready) {
		int devnull = open("/dev/null", O_WRONLY);

		if (build_corpus() < 0) {
			fprintf(stderr, "fuzz_compare: cannot build the corpus in %s\n", root);
			abort();
		}
		/* compare prints its differences: not wanted here. */
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		ready = 1;
	}
	if (size < 1)
		return 0;
	argv[argc++] = (char *)"compare";
	argv[argc++] = (char *)"--quiet";
	argv[argc++] = (char *)"--corpus";
	argv[argc++] = root;
	if (data[0] & 1) {
		if (write_file(case_path, data + 1, size - 1) < 0)
			return 0;
		if (getenv("GCCONFORM_CORPUS"))
			argv[3] = getenv("GCCONFORM_CORPUS");
		argv[argc++] = case_path;
		argv[argc++] = fixed_actual;
	} else {
		if (write_file(actual_path, data + 1, size - 1) < 0)
			return 0;
		argv[argc++] = expect_path;
		argv[argc++] = actual_path;
	}
	argv[argc] = NULL;
	rc = or_compare_main(argc, argv);
	if (rc < 0 || rc > 2) {
		fprintf(stderr, "fuzz_compare: exit status %d (0, 1 or 2 only)\n", rc);
		abort();
	}
	return 0;
}
