/*
 * faults.c - every container fault class is detected with its code (and at
 * its offset where the offset is exact); truncation at every byte offset of
 * a small file never crashes, always reports, and still returns every event
 * that lies wholly before the cut.
 */
#include "config.h"

#include "tests/nettrace/ntcommon.h"
#include "tap.h"

static struct test_stream st;

struct readout {
	struct test_diags d;
	unsigned events;
	uint64_t ends[TEST_MAXEV]; /* one past each event's payload */
	int opened;
};

static void read_all(const uint8_t *buf, size_t len, struct readout *o)
{
	struct or_stream_info info;
	struct ntr_reader *r;
	struct or_event ev;
	FILE *f = fmemopen((void *)buf, len ? len : 1, "rb");

	memset(o, 0, sizeof *o);
	o->d.quiet = 1;
	if (!len) { /* fmemopen cannot make an empty stream */
		fclose(f);
		f = tmpfile();
	}
	r = ntr_open(f, test_diags_report, &o->d, &info);
	o->opened = r != NULL;
	if (r) {
		for (enum or_status st_; (st_ = ntr_next(r, &ev)) > OR_END;) {
			if (st_ == OR_SYNC)
				continue;
			if (o->events < TEST_MAXEV)
				o->ends[o->events] = ev.payload_offset + ev.payload_len;
			o->events++;
		}
		ntr_close(r);
	}
	fclose(f);
}

static void faults(const char *label, const uint8_t *base, size_t len, unsigned *applied)
{
	for (int fc = 0; fc < GEN_NTF_COUNT; fc++)
		for (uint64_t seed = 1; seed <= 3; seed++) {
			struct gen_nt_mutation m;
			struct readout o;
			const char *why;

			if (gen_nettrace_mutate(base, len, fc, seed * 7919, &m, &why))
				continue;
			applied[fc]++;
			read_all(m.data, m.len, &o);
			if (!tap_ok(test_diags_has(&o.d, gcspec_diags[m.code].code, m.offset, m.offset_exact),
			            "%s %s seed %llu: %s at %llu%s", label, gen_nettrace_fault_name(fc),
			            (unsigned long long)seed, gcspec_diags[m.code].code, (unsigned long long)m.offset,
			            m.offset_exact ? "" : " (approx)"))
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
		if (!o.d.errors)
			silent++;
		while (need < full.events && full.ends[need] <= cut)
			need++;
		if (o.events < need && bad++ < 3)
			tap_diag("%s cut at %zu: %u events, %u lie before the cut", label, cut,
			         o.events, need);
	}
	tap_ok(!bad && !silent, "%s: truncation at each of %zu offsets reports an error and keeps every whole event before it (%u short, %u silent)",
	       label, len, bad, silent);
}

int main(void)
{
	static const unsigned versions[] = { 5, 6 };
	unsigned applied[GEN_NTF_COUNT] = { 0 };

	nt_make(&st, 400, 11);
	for (unsigned v = 0; v < 2; v++)
		for (unsigned ps = 4; ps <= 8; ps += 4)
			for (int unc = 0; unc < 2; unc++) {
				struct gen_nettrace_opts o = { versions[v], unc, 0, 0, 300, 2, 0 };
				char label[64];
				size_t len;
				uint8_t *buf = nt_write(&st, &o, ps, &len);

				snprintf(label, sizeof label, "v%u ps%u %s", versions[v], ps,
				         unc ? "uncompressed" : "compressed");
				if (!tap_ok(buf != NULL, "%s: base file written", label))
					continue;
				faults(label, buf, len, applied);
				free(buf);
			}
	for (int fc = 0; fc < GEN_NTF_COUNT; fc++)
		tap_ok(applied[fc] > 0, "fault class %s applied to some base file",
		       gen_nettrace_fault_name(fc));
	/* Truncation everywhere, on small files. */
	nt_make(&st, 40, 5);
	for (unsigned v = 0; v < 2; v++) {
		struct gen_nettrace_opts o = { versions[v], 0, 0, 0, 120, 1, 0 };
		size_t len;
		uint8_t *buf = nt_write(&st, &o, 8, &len);

		truncations(versions[v] == 6 ? "v6" : "v5", buf, len);
		free(buf);
	}
	return tap_done();
}
