/*
 * faults.c - every .etl container fault class is detected with its code at
 * its offset, on base files of both pointer sizes and several buffer sizes;
 * truncation at every byte offset of a small file never crashes, always
 * reports an error and still returns every event that lies wholly before
 * the cut.
 */
#include "config.h"

#include "tests/etl/etcommon.h"
#include "tap.h"

static struct test_stream st;
/* Threads that expand a compressed file's buffers (etr_set_workers). */
static unsigned workers;

struct readout {
	struct test_diags d;
	unsigned events;
	uint64_t ends[TEST_MAXEV]; /* one past each event's payload */
	int opened;
};

static void read_all(const uint8_t *buf, size_t len, struct readout *o)
{
	struct or_stream_info info;
	struct etr_reader *r;
	struct or_event ev;
	FILE *f = fmemopen((void *)buf, len ? len : 1, "rb");

	memset(o, 0, sizeof *o);
	o->d.quiet = 1;
	if (!len) { /* fmemopen cannot make an empty stream */
		fclose(f);
		f = tmpfile();
	}
	r = etr_open(f, test_diags_report, &o->d, &info);
	o->opened = r != NULL;
	if (r && workers && etr_set_workers(r, workers))
		o->opened = -1;
	if (r) {
		while (etr_next(r, &ev) == OR_EVENT) {
			if (o->events < TEST_MAXEV)
				o->ends[o->events] = ev.payload_offset + ev.payload_len;
			o->events++;
		}
		etr_close(r);
	}
	fclose(f);
}

static void faults(const char *label, const uint8_t *base, size_t len, unsigned nevents,
                   unsigned *applied)
{
	for (int fc = 0; fc < GEN_ETLF_COUNT; fc++)
		for (uint64_t seed = 1; seed <= 4; seed++) {
			struct gen_etl_mutation m;
			struct readout o;
			const char *why;

			if (gen_etl_mutate(base, len, fc, seed * 7919, &m, &why))
				continue;
			applied[fc]++;
			read_all(m.data, m.len, &o);
			if (!tap_ok(test_diags_has(&o.d, gcspec_diags[m.code].code, m.offset, m.offset_exact) &&
			            (m.loses_events ? o.events < nevents : o.events == nevents),
			            "%s %s seed %llu: %s at %llu, %u of %u events %s",
			            label, gen_etl_fault_name(fc), (unsigned long long)seed, gcspec_diags[m.code].code,
			            (unsigned long long)m.offset, o.events, nevents,
			            m.loses_events ? "(some lost)" : "(none lost)"))
				for (unsigned i = 0; i < o.d.n && i < 64; i++)
					tap_diag("got %s @%llu", o.d.code[i], (unsigned long long)o.d.offset[i]);
			free(m.data);
		}
}

static void truncations(const char *label, const uint8_t *base, size_t len)
{
	struct readout full, o;
	unsigned bad = 0, silent = 0;

	read_all(base, len, &full);
	for (size_t cut = 0; cut < len; cut++) {
		unsigned need = 0;

		read_all(base, cut, &o);
		if (!o.d.errors || !test_diags_has(&o.d, "GC-W002", cut, 1))
			silent++;
		while (need < full.events && full.ends[need] <= cut)
			need++;
		if (o.events != need && bad++ < 3)
			tap_diag("%s cut at %zu: %u events, %u lie before the cut", label, cut,
			         o.events, need);
	}
	tap_ok(!bad && !silent, "%s: truncation at each of %zu offsets reports GC-W002 at the cut and returns exactly the whole events before it (%u wrong, %u silent)",
	       label, len, bad, silent);
}

/* A compressed file cut anywhere: GC-W002 at the cut, and exactly the
 * events of the buffers wholly before it (a cut LZXPRESS stream is not
 * expanded, so the buffer it cuts is lost whole). Records of a compressed
 * buffer are reported at the buffer's offset. */
static void truncations_packed(const char *label, const uint8_t *base, size_t len)
{
	static uint64_t starts[TEST_MAXEV];
	struct readout o;
	unsigned bad = 0, silent = 0, nev = 0;
	FILE *f = fmemopen((void *)base, len, "rb");
	struct or_stream_info info;
	struct test_diags d = { .quiet = 1 };
	struct etr_reader *r = etr_open(f, test_diags_report, &d, &info);
	struct or_event ev;

	while (r && etr_next(r, &ev) == OR_EVENT && nev < TEST_MAXEV)
		starts[nev++] = ev.offset;
	etr_close(r);
	fclose(f);
	for (size_t cut = 0; cut < len; cut++) {
		unsigned need = 0;

		read_all(base, cut, &o);
		if (!o.d.errors || !test_diags_has(&o.d, "GC-W002", cut, 1))
			silent++;
		/* The buffer at starts[i] is whole when the next starts by the cut. */
		while (need < nev) {
			size_t end = starts[need] + le32(base + starts[need]);

			if (end > cut)
				break;
			need++;
		}
		if (o.events != need && bad++ < 3)
			tap_diag("%s cut at %zu: %u events, %u lie in whole buffers before it", label,
			         cut, o.events, need);
	}
	tap_ok(!bad && !silent && nev > 0, "%s: truncation at each of %zu offsets reports GC-W002 at the cut and returns exactly the events of the whole buffers before it (%u wrong, %u silent)",
	       label, len, bad, silent);
}

static int same_readout(const struct readout *a, const struct readout *b)
{
	unsigned nd = a->d.n < TEST_DIAGS_KEPT ? a->d.n : TEST_DIAGS_KEPT;
	unsigned ne = a->events < TEST_MAXEV ? a->events : TEST_MAXEV;

	if (a->opened != b->opened || a->events != b->events || a->d.n != b->d.n ||
	    a->d.errors != b->d.errors)
		return 0;
	for (unsigned i = 0; i < nd; i++)
		if (strcmp(a->d.code[i], b->d.code[i]) || a->d.offset[i] != b->d.offset[i])
			return 0;
	return !memcmp(a->ends, b->ends, ne * sizeof a->ends[0]);
}

/*
 * A compressed file read with 1, 2 and 3 threads expanding its buffers
 * gives what one thread gives: the same events (count and where each
 * ends) and the same diagnostics in the same order, whole, cut at every
 * seventh offset (each thread count in turn), and with random bytes
 * changed (headers, sizes and LZXPRESS data damaged, so buffers are
 * skipped, lost and cut while others are read ahead). Each read starts
 * and joins its threads, so the offsets are sampled: every offset costs
 * minutes here.
 */
static struct readout one_thread, with_workers;

/* buf read with one thread, then with w workers: the same readout? */
static int read_both(const uint8_t *buf, size_t len, unsigned w)
{
	workers = 0;
	read_all(buf, len, &one_thread);
	workers = w;
	read_all(buf, len, &with_workers);
	workers = 0;
	return same_readout(&one_thread, &with_workers);
}

static void threads_same(const uint8_t *base, size_t len)
{
	const struct readout *one = &one_thread, *many = &with_workers;
	uint8_t *b = malloc(len);
	uint64_t s = 1009;
	unsigned runs = 0, differ = 0;

	for (size_t cut = 0; cut <= len + 6; cut += 7) {
		size_t at = cut < len ? cut : len;
		unsigned w = 1 + (unsigned)(cut / 7 % 3);

		runs++;
		if (!read_both(base, at, w) && differ++ < 3)
			tap_diag("%u workers, cut at %zu: %u events and %u diagnostics, one thread %u and %u",
			         w, at, many->events, many->d.n, one->events, one->d.n);
	}
	for (unsigned w = 1; w <= 3; w++) {
		for (unsigned i = 0; i < 400; i++) {
			unsigned flips = 1 + (unsigned)(test_rng(&s) % 8);

			memcpy(b, base, len);
			for (unsigned k = 0; k < flips; k++)
				b[test_rng(&s) % len] = (uint8_t)test_rng(&s);
			runs++;
			if (!read_both(b, len, w) && differ++ < 3)
				tap_diag("%u workers, damaged file %u: %u events and %u diagnostics, one thread %u and %u",
				         w, i, many->events, many->d.n, one->events, one->d.n);
		}
	}
	tap_ok(!differ && runs > 0, "a compressed file read with 1 to 3 expanding threads gives one thread's events and diagnostics, whole, cut and damaged (%u reads, %u different)",
	       runs, differ);
	free(b);
}

/* Random bytes changed anywhere (headers included): every read ends, and
 * never returns more events than the records the file can hold. Run under
 * --enable-sanitizers this is the memory-safety check. */
static void corruption(const uint8_t *base, size_t len)
{
	uint8_t *b = malloc(len);
	uint64_t s = 77;
	unsigned runs = 3000, bad = 0, reported = 0;

	for (unsigned i = 0; i < runs; i++) {
		struct readout o;
		unsigned flips = 1 + (unsigned)(test_rng(&s) % 8);

		memcpy(b, base, len);
		for (unsigned k = 0; k < flips; k++)
			b[test_rng(&s) % len] = (uint8_t)test_rng(&s);
		read_all(b, len, &o);
		bad += o.events > len / 0x30;
		reported += o.d.errors > 0;
	}
	tap_ok(!bad && reported > 0, "%u randomly corrupted files read to their end (%u with errors reported)",
	       runs, reported);
	free(b);
}

int main(void)
{
	static const uint32_t sizes[] = { 1024, 8192 };  /* plain, then compressed */
	unsigned applied[GEN_ETLF_COUNT] = { 0 };

	et_make(&st, 600, 11, 1);
	for (unsigned s = 0; s < 4; s++)
		for (unsigned ps = 4; ps <= 8; ps += 4) {
			struct gen_etl_opts o = { sizes[s % 2], 0, 0, s >= 2, 0 };
			char label[64];
			size_t len;
			uint8_t *buf = et_write(&st, &o, ps, &len);

			snprintf(label, sizeof label, "%sps%u buffer %u", s >= 2 ? "compressed " : "", ps,
			         sizes[s % 2]);
			if (!tap_ok(buf != NULL, "%s: base file written", label))
				continue;
			faults(label, buf, len, st.n, applied);
			free(buf);
		}
	for (int fc = 0; fc < GEN_ETLF_COUNT; fc++)
		tap_ok(applied[fc] > 0, "fault class %s applied to some base file",
		       gen_etl_fault_name(fc));
	/* Truncation everywhere, on small files of both pointer sizes, and
	 * on a compressed one. */
	{
		struct gen_etl_opts o = { 1024, 4, 0, 1, 0 };
		size_t len;
		uint8_t *buf = et_write(&st, &o, 8, &len);

		truncations_packed("compressed ps8", buf, len);
		corruption(buf, len);
		threads_same(buf, len);
		free(buf);
	}
	et_make(&st, 40, 5, 1);
	for (unsigned ps = 4; ps <= 8; ps += 4) {
		struct gen_etl_opts o = { 1024, 4, 0, 0, 0 };
		char label[16];
		size_t len;
		uint8_t *buf = et_write(&st, &o, ps, &len);

		snprintf(label, sizeof label, "ps%u", ps);
		truncations(label, buf, len);
		if (ps == 8)
			corruption(buf, len);
		free(buf);
	}
	return tap_done();
}
