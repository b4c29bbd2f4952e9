/*
 * model_faults.c - the model-stream reader on damaged input.
 *
 * Truncation at every byte of a small stream: a cut inside an item ends
 * with GC-M002 at the cut's offset (the header: the file is refused), a cut
 * between items is a shorter valid stream, and every event wholly before
 * the cut is reported either way. Random byte damage: the reader's fast
 * path and its careful path (or_model_fast_path(0)) report exactly the same
 * events and diagnostics, so the fast path decides nothing on its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_builder.h"
#include "oracle/decode/decode.h"
#include "oracle/oracle.h"
#include "oracle/formats/model/read_model.h"
#include "tap.h"

/* What one run reported, as text lines, to compare runs. */
struct seen {
	char *s;
	size_t len, cap;
	unsigned events, m_codes, m002;
	uint64_t m002_offset;
};

static void add(struct seen *w, const char *line)
{
	size_t n = strlen(line);

	if (w->len + n + 1 > w->cap) {
		w->cap = (w->len + n + 1) * 2;
		w->s = realloc(w->s, w->cap);
	}
	memcpy(w->s + w->len, line, n + 1);
	w->len += n;
}

static void on_diag(void *arg, const struct or_diag *d)
{
	struct seen *w = arg;
	char line[1400];

	snprintf(line, sizeof line, "D %s %llu %llu %s\n", or_diag_code(d->code),
	         (unsigned long long)d->event, (unsigned long long)d->offset, d->message);
	add(w, line);
	if (d->code == GCSPEC_DIAG_M001 || d->code == GCSPEC_DIAG_M002 ||
	    d->code == GCSPEC_DIAG_M003)
		w->m_codes++;
	if (d->code == GCSPEC_DIAG_M002) {
		w->m002++;
		w->m002_offset = d->offset;
	}
}

static void on_event(void *arg, struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec)
{
	struct seen *w = arg;
	char line[256];
	uint64_t h = 1469598103934665603ULL;

	(void)ctx;
	for (uint32_t k = 0; k < ev->payload_len; k++)
		h = (h ^ ev->payload[k]) * 1099511628211ULL;
	snprintf(line, sizeof line, "E %llu %llu %llu %llu %llu %d %u %u %u %u %llx %zu %u\n",
	         (unsigned long long)ev->index, (unsigned long long)ev->offset,
	         (unsigned long long)ev->payload_offset, (unsigned long long)ev->timestamp,
	         (unsigned long long)ev->thread_id, ev->provider, ev->id, ev->version,
	         ev->level, ev->opcode, (unsigned long long)h, ev->model_fields_len,
	         dec ? dec->nvalid : 999u);
	add(w, line);
	w->events++;
}

static int run(const unsigned char *buf, size_t len, int fast, struct seen *w)
{
	struct or_ctx ctx;
	FILE *f;
	int rc;

	memset(w, 0, sizeof *w);
	add(w, "");
	or_model_fast_path(fast);
	if (len) {
		f = fmemopen((void *)buf, len, "rb");
	} else {
		f = tmpfile();
	}
	or_ctx_init(&ctx);
	ctx.diag.emit = on_diag;
	ctx.diag.emit_arg = w;
	ctx.on_event = on_event;
	ctx.on_event_arg = w;
	rc = or_run_file(&ctx, "test", f);
	or_ctx_free(&ctx);
	fclose(f);
	or_model_fast_path(1);
	return rc;
}

/* --- the stream --------------------------------------------------------- */

static void pl_utf16z(struct pl *p, const char *s)
{
	for (; *s; s++)
		pl_u16(p, (unsigned char)*s);
	pl_u16(p, 0);
}

static cbor_item_t *fields2(const char *k1, uint64_t v1, const char *k2, uint64_t v2)
{
	cbor_item_t *m = cbor_new_definite_map(2);

	mb_kv(m, k1, cbor_build_uint64(v1));
	mb_kv(m, k2, cbor_build_uint64(v2));
	return m;
}

#define MAXITEMS 64
static size_t ends[MAXITEMS];   /* one past each item */
static unsigned nitems;

static void mark(const struct mb *m)
{
	ends[nitems++] = m->len;
}

static void build(struct mb *m)
{
	memset(m, 0, sizeof *m);
	mb_header(m);
	mark(m);
	for (unsigned g = 1; g <= 4; g++) {
		struct pl p = { .n = 0 };
		cbor_item_t *f;

		/* GCStart_V2 with its fields recorded (GC-M005 compares them) */
		pl_u32(&p, g); pl_u32(&p, g & 1 ? 0 : 1); pl_u32(&p, 1);
		pl_u32(&p, 0); pl_u16(&p, 0); pl_u64(&p, g * 100);
		f = cbor_new_definite_map(6);
		mb_kv(f, "Count", cbor_build_uint32(g));
		mb_kv(f, "Depth", cbor_build_uint32(g & 1 ? 0 : 1));
		mb_kv(f, "Reason", cbor_build_uint32(1));
		mb_kv(f, "Type", cbor_build_uint32(0));
		mb_kv(f, "ClrInstanceID", cbor_build_uint16(0));
		mb_kv(f, "ClientSequenceNumber", cbor_build_uint64(g * 100));
		mb_event_full(m, RT, 1, 2, 1, &p, f);
		mark(m);
		/* GCAllocationTick_V4: a string in the middle */
		p.n = 0;
		pl_u32(&p, 100000); pl_u32(&p, 0); pl_u16(&p, 0); pl_u64(&p, 100000);
		pl_u64(&p, 0x7f00); pl_utf16z(&p, "System.String"); pl_u32(&p, 0);
		pl_u64(&p, 0x1000 * g); pl_u64(&p, 24);
		mb_event_full(m, RT, 10, 4, 2, &p, fields2("AllocationAmount", 100000,
		                                           "AllocationKind", 0));
		mark(m);
		/* another provider, and an id the spec does not know */
		p.n = 0;
		pl_u32(&p, g);
		mb_event_full(m, "Some-Other-Provider", 7, 0, 3, &p, NULL);
		mark(m);
		mb_event_full(m, RT, 250, 0, 3, &p, NULL);
		mark(m);
		/* GCEnd_V1; the second one records a wrong Depth (GC-M005) */
		p.n = 0;
		pl_u32(&p, g); pl_u32(&p, g & 1 ? 0 : 1); pl_u16(&p, 0);
		mb_event_full(m, RT, 2, 1, 1, &p,
		              fields2("Count", g, "Depth", g == 2 ? 7 : (g & 1 ? 0 : 1)));
		mark(m);
	}
}

static unsigned whole_before(size_t cut)
{
	unsigned k = 0;

	/* ends[0] is the header's end: it is not an event. */
	while (k + 1 < nitems && ends[k + 1] <= cut)
		k++;
	return k;
}

static int at_boundary(size_t cut)
{
	for (unsigned k = 0; k < nitems; k++)
		if (ends[k] == cut)
			return 1;
	return 0;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int main(void)
{
	struct mb m;
	struct seen a, b;
	size_t cut, short_events = 0, wrong_diag = 0, differ = 0;
	unsigned trials = 3000, damaged_differ = 0, kinds[4] = { 0 };

	build(&m);
	{
		unsigned long before = or_model_fast_items();
		run(m.buf, m.len, 1, &a);
		tap_ok(a.events == nitems - 1 && a.m_codes == 0,
		       "the whole stream: %u events, no reader diagnostic", a.events);
		tap_ok(or_model_fast_items() - before == nitems - 1,
		       "the fast path read every event of the whole stream (%lu)",
		       or_model_fast_items() - before);
		free(a.s);
		before = or_model_fast_items();
		run(m.buf, m.len, 0, &a);
		tap_ok(or_model_fast_items() == before && a.events == nitems - 1,
		       "or_model_fast_path(0): the careful path reads them all");
		free(a.s);
	}

	for (cut = 0; cut < m.len; cut++) {
		unsigned want = whole_before(cut);
		int rc = run(m.buf, cut, 1, &a);
		run(m.buf, cut, 0, &b);
		if (a.events != want && short_events++ < 3)
			tap_diag("cut at %zu: %u events, %u lie before the cut", cut, a.events, want);
		if (cut == 0) {
			if (rc != -1 || a.m_codes)
				wrong_diag++;
		} else if (at_boundary(cut)) {
			if (a.m_codes)
				wrong_diag++;
		} else if (a.m002 != 1 || a.m002_offset != cut || a.m_codes != 1) {
			if (wrong_diag++ < 3)
				tap_diag("cut at %zu: %u M002 at %llu, %u reader diagnostics", cut,
				         a.m002, (unsigned long long)a.m002_offset, a.m_codes);
		}
		if (strcmp(a.s, b.s) != 0)
			differ++;
		free(a.s);
		free(b.s);
	}
	tap_ok(!short_events, "truncation at each of %zu offsets keeps every event wholly before the cut (%zu short)",
	       m.len, short_events);
	tap_ok(!wrong_diag, "a cut inside an item is GC-M002 at the cut's offset; one between items is a valid shorter stream (%zu wrong)",
	       wrong_diag);
	tap_ok(!differ, "truncated: the fast and the careful path report the same (%zu differ)", differ);

	/* Declared lengths are not trusted: a payload that says 1 GiB - 1
	 * bytes in a file that ends 100 bytes later ends with M002 at the end
	 * of the file; one that says 4 GiB is refused at once (M003), and the
	 * events before either are reported. */
	{
		static const unsigned char big[] = { 0xa1, 0x67, 'p', 'a', 'y', 'l', 'o', 'a', 'd',
			0x5a, 0x3f, 0xff, 0xff, 0xff };
		static const unsigned char huge[] = { 0xa1, 0x67, 'p', 'a', 'y', 'l', 'o', 'a', 'd',
			0x5b, 0, 0, 0, 1, 0, 0, 0, 0 };
		unsigned char *d = malloc(m.len + sizeof huge + 100);

		memcpy(d, m.buf, m.len);
		memcpy(d + m.len, big, sizeof big);
		memset(d + m.len + sizeof big, 0x41, 100);
		run(d, m.len + sizeof big + 100, 1, &a);
		tap_ok(a.events == nitems - 1 && a.m002 == 1 &&
		       a.m002_offset == m.len + sizeof big + 100,
		       "a payload declaring 1 GiB in a short file: every event before it, then M002 at the end of the file");
		free(a.s);
		memcpy(d + m.len, huge, sizeof huge);
		run(d, m.len + sizeof huge + 100, 1, &a);
		tap_ok(a.events == nitems - 1 && a.m_codes == 1 && strstr(a.s, "D GC-M003 ") != NULL,
		       "a payload declaring 4 GiB: every event before it, then M003");
		free(a.s);
		free(d);
	}

	/* Random damage: 1 to 4 bytes changed, sometimes cut as well. */
	for (unsigned t = 0; t < trials; t++) {
		unsigned char *d = malloc(m.len);
		size_t len = m.len;
		unsigned k = 1 + (unsigned)(rnd() % 4);

		memcpy(d, m.buf, m.len);
		while (k--) {
			size_t at = (size_t)(rnd() % m.len);
			switch (rnd() % 4) {
			case 0: d[at] ^= (unsigned char)(1u << (rnd() % 8)); break;
			case 1: d[at] = (unsigned char)rnd(); break;
			case 2: d[at] = (unsigned char)(0x18 + rnd() % 8 + 0x20 * (rnd() % 8)); break;
			default: d[at] = 0xff; break;
			}
		}
		if (rnd() % 5 == 0)
			len = (size_t)(rnd() % m.len);
		run(d, len, 1, &a);
		run(d, len, 0, &b);
		kinds[(a.m_codes > 0) + 2 * (a.events != nitems - 1)]++;
		if (strcmp(a.s, b.s) != 0 && damaged_differ++ < 3)
			tap_diag("trial %u: the fast path reports\n%s# the careful path\n%s", t, a.s, b.s);
		free(a.s);
		free(b.s);
		free(d);
	}
	tap_ok(!damaged_differ, "%u damaged streams: the fast and the careful path report the same events and diagnostics (%u differ)",
	       trials, damaged_differ);
	tap_diag("damaged streams: %u untouched, %u reader diagnostics, %u events lost, %u both",
	         kinds[0], kinds[1], kinds[2], kinds[3]);
	free(m.buf);
	return tap_done();
}
