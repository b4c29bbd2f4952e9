/*
 * etldump.c - read an .etl with the oracle/ reader and print one summary
 * line (pointer size, buffers, events, records passed over per header type,
 * GCStart count, diagnostics, MB/s and events/s); or, with
 * `-w N out.etl [4|8]`, write N synthetic events with the gen/ writer and
 * print the write throughput. Used by bench.sh and for looking at real
 * files (ETLDUMP_VERBOSE=1 prints every diagnostic).
 */
#include "config.h"

#include <time.h>

#include "tests/etl/etcommon.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int write_big(unsigned long n, const char *path, unsigned ps)
{
	static struct test_stream st;
	struct gen_writer *w = gen_etl_new(NULL);
	struct gen_stream_info in = et_info(ps);
	FILE *f = fopen(path, "wb");
	double t0;
	uint64_t base = 0;

	if (!w || !f)
		return 2;
	et_make(&st, TEST_MAXEV, 3, 0);
	t0 = now();
	if (gen_write_etl_ops.begin(w, f, &in))
		return 2;
	for (unsigned long i = 0; i < n; i++) {
		struct gen_event e = st.ev[i % TEST_MAXEV];

		if (i % TEST_MAXEV == 0 && i)
			base = st.ev[TEST_MAXEV - 1].timestamp * (i / TEST_MAXEV);
		e.timestamp += base;
		if (gen_write_etl_ops.event(w, &e))
			return 2;
	}
	if (gen_write_etl_ops.end(w))
		return 2;
	{
		double dt = now() - t0;
		long sz = ftell(f);

		printf("etl write: %lu events, %ld bytes in %.3f s: %.1f MB/s, %.1f M events/s\n", n, sz,
		       dt, (double)sz / 1e6 / dt, (double)n / 1e6 / dt);
	}
	gen_write_etl_ops.destroy(w);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct test_diags d = { 0 };
	struct or_stream_info info;
	struct etr_counts c;
	struct etr_reader *r;
	struct or_event ev;
	uint64_t gcstart = 0, bytes = 0;
	double t0;
	FILE *f;

	if (argc >= 4 && !strcmp(argv[1], "-w"))
		return write_big(strtoul(argv[2], NULL, 10), argv[3],
		                 argc > 4 ? (unsigned)atoi(argv[4]) : 8);
	if (argc != 2) {
		fprintf(stderr, "usage: etldump FILE | etldump -w N OUT [POINTER_SIZE]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	d.quiet = getenv("ETLDUMP_VERBOSE") == NULL;
	t0 = now();
	r = etr_open(f, test_diags_report, &d, &info);
	if (!r) {
		printf("open failed diagnostics=%u first=%s\n", d.n, d.n ? d.code[0] : "-");
		return 1;
	}
	for (enum or_status s; (s = etr_next(r, &ev)) > OR_END;)
		if (s == OR_EVENT && ev.provider == 0 && ev.id == 1)
			gcstart++;
	etr_counts(r, &c);
	etr_close(r);
	{
		double dt = now() - t0;
		long pos = ftell(f);

		bytes = pos > 0 ? (uint64_t)pos : 0;
		printf("ps%u buffer=%u buffers=%llu/%llu events=%llu classic=%llu other-provider=%llu passed-over=%llu",
		       info.pointer_size, c.buffer_size, (unsigned long long)c.buffers,
		       (unsigned long long)c.buffers_written, (unsigned long long)c.events,
		       (unsigned long long)c.classic, (unsigned long long)c.other_provider,
		       (unsigned long long)c.passed_over);
		for (unsigned t = 0; t < 32; t++)
			if (c.by_type[t])
				printf(" type0x%02x=%llu", t, (unsigned long long)c.by_type[t]);
		if (c.buffers_decompressed)
			printf(" decompressed=%llu", (unsigned long long)c.buffers_decompressed);
		printf(" gcstart=%llu diagnostics=%u first=%s %s\n", (unsigned long long)gcstart, d.n,
		       d.n ? d.code[0] : "-", info.unordered ? "per-processor" : "time-ordered");
		printf("etl read: %llu bytes in %.3f s: %.1f MB/s, %.1f M events/s",
		       (unsigned long long)bytes, dt, (double)bytes / 1e6 / dt,
		       (double)c.events / 1e6 / dt);
		if (c.buffers_decompressed)
			printf(" (compressed: %llu bytes expanded, %.1f MB/s of buffers)",
			       (unsigned long long)c.bytes_expanded, (double)c.bytes_expanded / 1e6 / dt);
		printf("\n");
	}
	fclose(f);
	return 0;
}
