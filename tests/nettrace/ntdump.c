/*
 * ntdump.c - read a .nettrace with the oracle/ reader and print one summary
 * line (version, events, GCStart count, diagnostics, MB/s); or, with
 * `-w N out.nettrace [v]`, write N synthetic events with the gen/ writer and
 * print the write throughput. Used by tests/real/real_trace.py and `make bench`.
 */
#include "config.h"

#include <time.h>

#include "tests/nettrace/ntcommon.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int write_big(unsigned long n, const char *path, unsigned version)
{
	static struct test_stream st;
	struct gen_nettrace_opts o = { version, 0, 0, 0, 0, 8, 0 };
	struct gen_writer *w = gen_nettrace_new(&o);
	struct gen_stream_info in = nt_info(8);
	FILE *f = fopen(path, "wb");
	double t0;
	uint64_t base = 0;

	if (!w || !f)
		return 2;
	nt_make(&st, TEST_MAXEV, 3);
	t0 = now();
	if (gen_write_nettrace_v5_ops.begin(w, f, &in))
		return 2;
	for (unsigned long i = 0; i < n; i++) {
		struct gen_event e = st.ev[i % TEST_MAXEV];

		if (i % TEST_MAXEV == 0 && i)
			base = st.ev[TEST_MAXEV - 1].timestamp * (i / TEST_MAXEV);
		e.timestamp += base;
		if (gen_write_nettrace_v5_ops.event(w, &e))
			return 2;
	}
	if (gen_write_nettrace_v5_ops.end(w))
		return 2;
	{
		double dt = now() - t0;
		long sz = ftell(f);

		printf("wrote %lu events, %ld bytes in %.3fs: %.1f MB/s\n", n, sz, dt,
		       (double)sz / 1e6 / dt);
	}
	gen_write_nettrace_v5_ops.destroy(w);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct test_diags d = { 0 };
	struct or_stream_info info;
	struct ntr_counts c;
	struct ntr_reader *r;
	struct or_event ev;
	uint64_t gcstart = 0;
	double t0;
	FILE *f;

	if (argc >= 4 && !strcmp(argv[1], "-w"))
		return write_big(strtoul(argv[2], NULL, 10), argv[3],
		                 argc > 4 ? (unsigned)atoi(argv[4]) : 5);
	if (argc != 2) {
		fprintf(stderr, "usage: ntdump FILE | ntdump -w N OUT [VERSION]\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	d.quiet = getenv("NTDUMP_VERBOSE") == NULL;
	t0 = now();
	r = ntr_open(f, test_diags_report, &d, &info);
	if (!r) {
		printf("open failed diagnostics=%u first=%s\n", d.n, d.n ? d.code[0] : "-");
		return 1;
	}
	for (enum or_status s; (s = ntr_next(r, &ev)) > OR_END;)
		if (s == OR_EVENT && ev.provider == 0 && ev.id == 1)
			gcstart++;
	ntr_counts(r, &c);
	ntr_close(r);
	{
		double dt = now() - t0;

		printf("v%u ps%u events=%llu skipped=%llu metadata=%llu stacks=%llu gcstart=%llu diagnostics=%u first=%s %.1f MB/s\n",
		       info.format_version, info.pointer_size, (unsigned long long)c.events,
		       (unsigned long long)c.events_skipped, (unsigned long long)c.metadata,
		       (unsigned long long)c.stacks, (unsigned long long)gcstart, d.n,
		       d.n ? d.code[0] : "-", (double)c.bytes / 1e6 / dt);
	}
	fclose(f);
	return 0;
}
