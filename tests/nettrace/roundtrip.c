/*
 * roundtrip.c - every writer shape read back identically by the reader:
 * V4, V5, V6; pointer size 4 and 8; compressed and uncompressed headers;
 * small and large blocks; sequence points often, sometimes, only at the end;
 * runtime-like and full metadata; metadata on first use and up front.
 * Zero diagnostics are allowed on these valid files.
 */
#include "config.h"

#include "tests/nettrace/ntcommon.h"
#include "tap.h"

static struct test_stream st;

static int same(const struct gen_event *g, const struct or_event *r, unsigned version, int full)
{
	const struct gcspec_event *sp = &gcspec_events[g->spec_event];

	if (r->timestamp != g->timestamp || r->thread_id != g->thread_id ||
	    r->provider != g->provider || r->id != g->id || r->version != g->version ||
	    r->level != g->level || r->keywords != g->keywords ||
	    r->payload_len != g->payload_len ||
	    memcmp(r->payload, g->payload, g->payload_len) ||
	    !r->provider_name || strcmp(r->provider_name, gcspec_providers[sp->provider].name))
		return 0;
	/* The opcode travels only in full metadata (a V5 tag or V6 option). */
	if (full && version >= 5 && r->opcode != g->opcode)
		return 0;
	return 1;
}

static void one(unsigned version, unsigned ps, int unc, uint32_t block, uint32_t sp,
                int full, int upfront)
{
	struct gen_nettrace_opts o = { version, unc, full, upfront, block, sp, 0 };
	struct test_diags d = { 0 };
	struct or_stream_info info;
	struct ntr_reader *r;
	struct or_event ev;
	uint8_t *buf;
	size_t len = 0;
	unsigned i = 0, bad = 0;
	FILE *f;

	buf = nt_write(&st, &o, ps, &len);
	if (!tap_ok(buf != NULL, "v%u ps%u %s block=%u sp=%u %s %s: written", version, ps,
	            unc ? "uncompressed" : "compressed", block, sp, full ? "full" : "runtime",
	            upfront ? "upfront" : "first-use"))
		return;
	f = fmemopen(buf, len, "rb");
	r = ntr_open(f, test_diags_report, &d, &info);
	if (r) {
		for (enum or_status st_; (st_ = ntr_next(r, &ev)) > OR_END;) {
			if (st_ == OR_SYNC)
				continue;
			if (i < st.n && !same(&st.ev[i], &ev, version, full) && bad++ < 3)
				tap_diag("event %u differs", i);
			i++;
		}
		ntr_close(r);
	}
	tap_ok(r && i == st.n && !bad && d.n == 0 && info.pointer_size == ps &&
	       info.clock_frequency == 1000000000 && info.start_ticks == 999 &&
	       info.process_id == 4242 && info.format_version == (version >= 6 ? 6 : 5),
	       "  read back %u/%u events identically, %u diagnostics (%zu bytes)",
	       i, st.n, d.n, len);
	fclose(f);
	free(buf);
}

int main(void)
{
	static const unsigned versions[] = { 4, 5, 6 };
	static const uint32_t blocks[] = { 200, 100000 };
	static const uint32_t sps[] = { 0, 1, 4 };

	nt_make(&st, 3000, 7);
	for (unsigned v = 0; v < 3; v++)
		for (unsigned ps = 4; ps <= 8; ps += 4)
			for (int unc = 0; unc < 2; unc++)
				for (unsigned b = 0; b < 2; b++)
					for (unsigned s = 0; s < 3; s++)
						one(versions[v], ps, unc, blocks[b], sps[s],
						    (int)((v + b + s) & 1), (int)((b + s) % 3 == 2));
	return tap_done();
}
