/*
 * prefix_cuts.c - gcoracle's decoder on every field boundary of every
 * event-version, with payloads gcgen's encoder writes: each proper prefix
 * that ends where a top-level field begins is reported at that field, with
 * the code its type calls for (a fixed-size field cut: GC-P001; a string
 * without its terminator: GC-P003; a Struct count with no rows behind it:
 * GC-P006; a Binary length with no bytes: GC-P007), the field named in the
 * message, at the field's offset; and a payload grown by 1 to 8 bytes is
 * GC-P002 at the template's end. Both of the oracle's decoders (the full
 * one and the checker's lean one) must say the same. GC-P008 (the cut fits
 * another version) may come too, and only for an event with other versions.
 * This is what gcgen's truncate-at-field and extend-payload classes record
 * (gen/faults/payload.c), checked here for every boundary rather than over seeds.
 * Tests may link both gen/ and oracle/: they share nothing else.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/check/check.h"
#include "oracle/decode/decode.h"
#include "gen/model/encode.h"
#include "oracle/oracle.h"
#include "tap.h"
#include "gen/model/values.h"

#define MAXREC 64
#define PAYLOAD_MAX (256 * 1024)
static struct { unsigned code; uint64_t offset; char msg[256]; } rec[MAXREC];
static size_t nrec;

static void sink(void *arg, const struct or_diag *d)
{
	(void)arg;
	if (nrec < MAXREC && d->code != GCSPEC_DIAG_P008 &&
	    strncmp(gcspec_diags[d->code].code, "GC-P", 4) == 0) {
		rec[nrec].code = d->code;
		rec[nrec].offset = d->offset;
		snprintf(rec[nrec].msg, sizeof rec[nrec].msg, "%s", d->message);
		nrec++;
	}
}

static int p008;

static void sink_p008(void *arg, const struct or_diag *d)
{
	if (d->code == GCSPEC_DIAG_P008)
		p008 = 1;
	sink(arg, d);
}

/* Decode len bytes of b as event e; lean selects the checker's decoder. */
static void decode(unsigned e, const uint8_t *b, uint32_t len, unsigned psize, int lean)
{
	struct or_ctx ctx;
	struct or_event ev;
	struct or_decoded dec;

	memset(&ev, 0, sizeof ev);
	ev.payload = b;
	ev.payload_len = len;
	ev.payload_offset = 1000;
	nrec = 0;
	p008 = 0;
	or_ctx_init(&ctx);
	ctx.diag.emit = sink_p008;
	ctx.info.pointer_size = (uint8_t)psize;
	if (lean)
		or_decode_lean(&ctx, &ev, &gcspec_events[e], &dec);
	else
		or_decode(&ctx, &ev, &gcspec_events[e], &dec);
	or_ctx_free(&ctx);
}

static int other_version(unsigned e)
{
	const struct gcspec_event *sp = &gcspec_events[e];

	for (unsigned v = 0; v < GCSPEC_MAX_VERSIONS; v++) {
		const struct gcspec_event *o = gcspec_lookup(sp->provider, sp->id, v);
		if (o && o != sp)
			return 1;
	}
	return 0;
}

/* Values with something in every variable field: a string of two
 * characters, a Binary of three bytes, a Struct of two rows. */
static int fill(struct gen_values *v, unsigned e)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[e]);

	if (gen_values_reset(v, e) < 0)
		return -1;
	for (unsigned i = 0; i < v->nfields; i++) {
		if (f[i].is_member)
			continue;
		switch (f[i].type) {
		case GCSPEC_UNICODE_STRING:
		case GCSPEC_ANSI_STRING:
			if (gen_values_set_text_at(v, i, "ab", 2) < 0)
				return -1;
			break;
		case GCSPEC_BINARY:
			if (gen_values_set_bytes_at(v, i, "\1\2\3", 3) < 0)
				return -1;
			break;
		case GCSPEC_STRUCT:
			if (gen_values_add_row(v) < 0 || gen_values_add_row(v) < 0)
				return -1;
			break;
		default:
			break;
		}
	}
	return 0;
}

static unsigned code_for(unsigned type)
{
	switch (type) {
	case GCSPEC_UNICODE_STRING:
	case GCSPEC_ANSI_STRING: return GCSPEC_DIAG_P003;
	case GCSPEC_STRUCT: return GCSPEC_DIAG_P006;
	case GCSPEC_BINARY: return GCSPEC_DIAG_P007;
	default: return GCSPEC_DIAG_P001;
	}
}

int main(void)
{
	static struct gen_values v;
	static uint8_t buf[PAYLOAD_MAX + 16];
	unsigned events = 0, cuts = 0, bad_cuts = 0, grows = 0, bad_grows = 0, clean_bad = 0;
	unsigned p008_wrong = 0, lean_differs = 0, skipped = 0;
	unsigned per_code[GCSPEC_NDIAGS] = { 0 };
	char first_bad[1024] = "";

	for (unsigned e = 0; e < GCSPEC_NEVENTS; e++) {
		const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[e]);

		if (!gcspec_events[e].nfields)
			continue;
		if (fill(&v, e) < 0) {
			skipped++;
			continue;
		}
		events++;
		for (unsigned psize = 4; psize <= 8; psize += 4) {
			uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
			long len = gen_encode(&v, psize, buf, PAYLOAD_MAX);

			if (len < 0 || gen_encode_offsets(&v, psize, offs) < 0) {
				skipped++;
				continue;
			}
			decode(e, buf, (uint32_t)len, psize, 0);
			if (nrec)
				clean_bad++;
			for (unsigned i = 0; i < v.nfields; i++) {
				unsigned next = i + 1 + (f[i].type == GCSPEC_STRUCT ? f[i].nmembers : 0u);
				unsigned want = code_for(f[i].type);
				char name[80];
				int ok;
				size_t n0;
				unsigned c0;
				uint64_t o0;

				if (f[i].is_member || offs[next] <= offs[i])
					continue;
				cuts++;
				snprintf(name, sizeof name, "'%s'", f[i].name);
				decode(e, buf, offs[i], psize, 0);
				ok = nrec == 1 && rec[0].code == want &&
				     rec[0].offset == 1000 + offs[i] && strstr(rec[0].msg, name);
				if (p008 && !other_version(e))
					p008_wrong++;
				n0 = nrec;
				c0 = nrec ? rec[0].code : 0;
				o0 = nrec ? rec[0].offset : 0;
				if (!ok) {
					bad_cuts++;
					if (!first_bad[0])
						snprintf(first_bad, sizeof first_bad,
							 "%s psize %u cut at %s (offset %u): %zu diagnostics, first %s at %llu: %s",
							 gcspec_events[e].symbol, psize, name, offs[i], nrec,
							 nrec ? gcspec_diags[rec[0].code].code : "-",
							 nrec ? (unsigned long long)rec[0].offset : 0ull,
							 nrec ? rec[0].msg : "");
				} else {
					per_code[want]++;
				}
				decode(e, buf, offs[i], psize, 1);
				if (nrec != n0 || (nrec && (rec[0].code != c0 || rec[0].offset != o0)))
					lean_differs++;
			}
			for (uint32_t k = 1; k <= 8; k++) {
				size_t n0;

				memset(buf + len, 0, k);
				grows++;
				decode(e, buf, (uint32_t)len + k, psize, 0);
				if (!(nrec == 1 && rec[0].code == GCSPEC_DIAG_P002 &&
				      rec[0].offset == 1000 + (uint64_t)len))
					bad_grows++;
				if (p008 && !other_version(e))
					p008_wrong++;
				n0 = nrec;
				decode(e, buf, (uint32_t)len + k, psize, 1);
				if (nrec != n0)
					lean_differs++;
			}
		}
	}
	tap_ok(events > 100 && skipped == 0, "every event-version with fields encoded (%u, %u skipped)",
	       events, skipped);
	tap_ok(clean_bad == 0, "the whole payloads decode without a payload diagnostic (%u did not)",
	       clean_bad);
	tap_ok(bad_cuts == 0,
	       "%u cuts at field boundaries (pointer sizes 4 and 8): each reported once at its field (P001 %u, P003 %u, P006 %u, P007 %u)%s%s",
	       cuts, per_code[GCSPEC_DIAG_P001], per_code[GCSPEC_DIAG_P003],
	       per_code[GCSPEC_DIAG_P006], per_code[GCSPEC_DIAG_P007], bad_cuts ? "; first wrong: " : "",
	       first_bad);
	tap_ok(per_code[GCSPEC_DIAG_P001] && per_code[GCSPEC_DIAG_P003] &&
	       per_code[GCSPEC_DIAG_P006] && per_code[GCSPEC_DIAG_P007],
	       "the cuts reach fixed fields, strings, Structs and Binary fields");
	tap_ok(bad_grows == 0, "%u payloads grown by 1 to 8 bytes: GC-P002 at the template's end (%u not)",
	       grows, bad_grows);
	tap_ok(p008_wrong == 0, "GC-P008 only for events with another version (%u otherwise)", p008_wrong);
	tap_ok(lean_differs == 0, "the checker's lean decoder reports the same (%u differ)", lean_differs);
	return tap_done();
}
