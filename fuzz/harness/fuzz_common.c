/*
 * fuzz_common.c - the invariants every harness checks (fuzz_common.h).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz/harness/fuzz_common.h"
#include "fuzz/gcmutator/gcm_model.h"
#include "fuzz/gcmutator/gcm_tar.h"
#include "fuzz/gcmutator/gcm_values.h"

#include "oracle/decode/decode.h"
#include "gen/model/emit.h"
#include "gen/model/encode.h"
#include "oracle/oracle.h"

static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("fuzz: invariant broken: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

#define CHECK(cond, ...) do { if (!(cond)) fail(__VA_ARGS__); } while (0)

/* --- a digest of everything one oracle run reports ----------------------------- */

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

#define MIX(h, x) ((h) = mix((h), &(x), sizeof(x)))

struct digest {
	uint64_t h;            /* events, decoded values and diagnostics */
	uint64_t dh;           /* diagnostics alone */
	uint64_t events, diags;
	struct or_stats stats;
};

static void on_event(void *arg, struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec)
{
	struct digest *d = arg;

	(void)ctx;
	d->events++;
	MIX(d->h, ev->index);
	MIX(d->h, ev->offset);
	MIX(d->h, ev->timestamp);
	MIX(d->h, ev->thread_id);
	MIX(d->h, ev->provider);
	MIX(d->h, ev->id);
	MIX(d->h, ev->version);
	MIX(d->h, ev->level);
	MIX(d->h, ev->opcode);
	MIX(d->h, ev->keywords);
	MIX(d->h, ev->payload_len);
	d->h = mix(d->h, ev->payload, ev->payload_len);
	if (ev->provider_name)
		d->h = mix(d->h, ev->provider_name, strlen(ev->provider_name));
	if (!dec)
		return;
	CHECK(dec->nvalid <= dec->spec->nfields, "nvalid %u beyond %u fields", dec->nvalid,
	      dec->spec->nfields);
	MIX(d->h, dec->complete);
	MIX(d->h, dec->nvalid);
	for (unsigned i = 0; i < dec->nvalid; i++) {
		if (gcspec_event_fields(dec->spec)[i].is_member)
			continue;
		CHECK((uint64_t)dec->v[i].off + dec->v[i].len <= ev->payload_len,
		      "field %u [%u, +%u) outside a %u-byte payload", i, dec->v[i].off,
		      dec->v[i].len, ev->payload_len);
		MIX(d->h, dec->v[i].u);
		MIX(d->h, dec->v[i].off);
		MIX(d->h, dec->v[i].len);
	}
}

static void on_diag(void *arg, const struct or_diag *dg)
{
	struct digest *d = arg;

	uint64_t h = d->dh;

	d->diags++;
	MIX(h, dg->code);
	MIX(h, dg->severity);
	MIX(h, dg->event);
	MIX(h, dg->offset);
	h = mix(h, dg->message, strlen(dg->message));
	d->dh = h;
	MIX(d->h, h);
}

/* The whole gcoracle pipeline (reader, time-order window, decoder, checker)
 * over data, read by `format`. With `events` every event is handed on,
 * which makes the decoder fill every field (gcoracle --json); without, the
 * checker's lean decoding runs (gcoracle --quiet). */
static struct digest run_oracle(const char *format, const uint8_t *data, size_t size,
                                int events)
{
	struct digest d = { 1469598103934665603ull, 1469598103934665603ull, 0, 0, { 0 } };
	struct or_ctx ctx;
	FILE *in;
	int rc;

	if (or_ctx_init(&ctx) != 0)
		fail("out of memory");
	ctx.format = format;
	if (events) {
		ctx.on_event = on_event;
		ctx.on_event_arg = &d;
	}
	ctx.diag.emit = on_diag;
	ctx.diag.emit_arg = &d;
	if (gcm_is_tar(data, size)) {
		/* A directory container (CTF): its ustar image, unpacked. */
		char dir[] = "/tmp/fz-dir.XXXXXX";

		if (!mkdtemp(dir))
			fail("mkdtemp failed");
		rc = gcm_tar_unpack(data, size, dir) > 0 ? or_run_dir(&ctx, dir) : -1;
		gcm_rmdir(dir);
		in = NULL;
	} else {
		in = fmemopen((void *)data, size, "rb");
		if (!in)
			fail("fmemopen failed");
		rc = or_run_file(&ctx, "input", in);
	}
	CHECK(rc == 0 || rc == -1, "or_run_file returned %d", rc);
	CHECK(!events || ctx.stats.events == d.events, "%llu events counted, %llu handed on",
	      (unsigned long long)ctx.stats.events, (unsigned long long)d.events);
	MIX(d.h, rc);
	MIX(d.dh, rc);
	d.stats = ctx.stats;
	if (in)
		fclose(in);
	or_ctx_free(&ctx);
	return d;
}

/* --- a clean read written again reads back the same ------------------------------ */

static void same_stream(const struct gcm_stream *a, const struct gcm_stream *b)
{
	CHECK(b->container_errors == 0, "gen's %s output has %u container errors", a->format,
	      b->container_errors);
	/* CTF records no start time: the reader takes the earliest packet's
	 * timestamp_begin, which gen's writer sets from the events. */
	int start_recorded = strcmp(a->format, "ctf") != 0;

	CHECK(a->pointer_size == b->pointer_size && a->clock_frequency == b->clock_frequency &&
	      (!start_recorded || a->start_ticks == b->start_ticks) &&
	      a->process_id == b->process_id,
	      "stream header changed in the round trip: pointer size %u/%u, clock %llu/%llu, "
	      "start %llu/%llu, pid %u/%u", a->pointer_size, b->pointer_size,
	      (unsigned long long)a->clock_frequency, (unsigned long long)b->clock_frequency,
	      (unsigned long long)a->start_ticks, (unsigned long long)b->start_ticks,
	      a->process_id, b->process_id);
	CHECK(a->n == b->n, "%zu events read, %zu read back", a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct gcm_event *x = &a->ev[i], *y = &b->ev[i];

		CHECK(x->timestamp == y->timestamp && x->thread_id == y->thread_id &&
		      x->provider == y->provider && x->id == y->id && x->version == y->version &&
		      x->level == y->level && x->opcode == y->opcode && x->keywords == y->keywords &&
		      x->payload_len == y->payload_len &&
		      !memcmp(gcm_payload(a, x), gcm_payload(b, y), x->payload_len),
		      "event %zu differs after the round trip", i);
	}
}

static void round_trip(const char *format, const uint8_t *data, size_t size)
{
	static struct gcm_stream a, b;
	const char *wformat;
	uint8_t *out;
	size_t len;

	gcm_stream_init(&a);
	gcm_stream_init(&b);
	if (gcm_parse(&a, data, size, format) != 0 || a.container_errors || a.cut)
		goto done;
	/* gen's CTF writer always writes LTTng's 1 GHz clock, converting ticks:
	 * a trace with another clock round-trips only up to that conversion. */
	if (strcmp(a.format, "ctf") == 0 && a.clock_frequency != 1000000000)
		goto done;
	wformat = gcm_writer_for(a.format, a.format_version);
	/* gen refuses what it never writes (giant payloads); nothing to compare. */
	if (!wformat || gcm_encode(&a, wformat, NULL, &out, &len) != 0)
		goto done;
	CHECK(gcm_parse(&b, out, len, format) == 0, "%s cannot open gen's %s output", format,
	      wformat);
	same_stream(&a, &b);
	free(out);
done:
	gcm_stream_free(&a);
	gcm_stream_free(&b);
}

int fz_reader(const char *format, const uint8_t *data, size_t size)
{
	struct digest d1, d2, lean;

	if (size == 0)
		return 0;
	/* A directory container's input is its ustar image; other bytes are
	 * not an input for it (libFuzzer's byte mutations make them). */
	for (int i = 0; or_readers[i]; i++)
		if (strcmp(or_readers[i]->format, format) == 0 && !or_readers[i]->open &&
		    !gcm_is_tar(data, size))
			return 0;
	d1 = run_oracle(format, data, size, 1);
	d2 = run_oracle(format, data, size, 1);
	CHECK(d1.h == d2.h && d1.events == d2.events && d1.diags == d2.diags,
	      "two reads differ (%llu/%llu events, %llu/%llu diagnostics)",
	      (unsigned long long)d1.events, (unsigned long long)d2.events,
	      (unsigned long long)d1.diags, (unsigned long long)d2.diags);
	/* The lean decoding's diagnostics are the full decoder's by
	 * construction (decode_lean.c): same diagnostics, in the same order,
	 * and the same counts. */
	lean = run_oracle(format, data, size, 0);
	CHECK(lean.dh == d1.dh && lean.diags == d1.diags &&
	      !memcmp(&lean.stats, &d1.stats, sizeof lean.stats),
	      "lean and full decoding differ (%llu/%llu diagnostics, %llu/%llu events%s)",
	      (unsigned long long)lean.diags, (unsigned long long)d1.diags,
	      (unsigned long long)lean.stats.events, (unsigned long long)d1.stats.events,
	      lean.dh == d1.dh ? ", other counts" : "");
	round_trip(format, data, size);
	return 0;
}

/* --- the payload decoder alone ------------------------------------------------------ */

struct pcount {
	unsigned p[10];
	uint64_t h;
};

static void count_p(void *arg, const struct or_diag *d)
{
	struct pcount *c = arg;
	const char *code = gcspec_diags[d->code].code;

	if (code[3] == 'P')
		c->p[(code[6] - '0') % 10]++;
	MIX(c->h, d->code);
	MIX(c->h, d->offset);
	c->h = mix(c->h, d->message, strlen(d->message));
}

static void decode_once(const struct gcspec_event *sp, const uint8_t *p, uint32_t len,
                        unsigned psize, struct or_decoded *dec, struct pcount *c)
{
	static struct or_ctx ctx;
	struct or_event ev;

	memset(&ctx, 0, sizeof ctx);
	or_diag_init(&ctx.diag);
	ctx.diag.emit = count_p;
	ctx.diag.emit_arg = c;
	ctx.info.pointer_size = (uint8_t)psize;
	memset(&ev, 0, sizeof ev);
	ev.payload = p;
	ev.payload_len = len;
	memset(c, 0, sizeof *c);
	memset(dec, 0, sizeof *dec);
	or_decode(&ctx, &ev, sp, dec);
}

/* Two fields' values are the same: by number, or by the bytes they cover. */
static int same_value(const struct gcspec_field *f, const struct or_decoded *a, const struct or_val *x,
                      const struct or_decoded *b, const struct or_val *y)
{
	if (gcspec_field_is_array(f)) /* its count and its values' bytes */
		return x->u == y->u && x->len == y->len &&
		       !memcmp(a->payload + x->off, b->payload + y->off, x->len);
	switch (f->type) {
	case GCSPEC_FLOAT: { /* a float passes through a double in gen: NaNs may quieten */
		uint32_t bx = (uint32_t)x->u, by = (uint32_t)y->u;
		float fx, fy;

		memcpy(&fx, &bx, sizeof fx);
		memcpy(&fy, &by, sizeof fy);
		return bx == by || (isnan(fx) && isnan(fy));
	}
	case GCSPEC_UNICODE_STRING: case GCSPEC_ANSI_STRING: case GCSPEC_GUID: case GCSPEC_BINARY:
		return x->len == y->len && !memcmp(a->payload + x->off, b->payload + y->off, x->len);
	default:
		return x->u == y->u;
	}
}

static void same_values(const struct gcspec_event *sp, const struct or_decoded *a,
                        const struct or_decoded *b)
{
	const struct gcspec_field *f = gcspec_event_fields(sp);

	for (unsigned i = 0; i < sp->nfields; i++) {
		if (f[i].is_member)
			continue;
		if (f[i].type != GCSPEC_STRUCT) {
			CHECK(same_value(&f[i], a, &a->v[i], b, &b->v[i]),
			      "%s field %s changed in the round trip", sp->symbol, f[i].name);
			continue;
		}
		CHECK(a->v[i].u == b->v[i].u, "%s struct %s count changed", sp->symbol, f[i].name);
		uint32_t pa = a->v[i].off, pb = b->v[i].off;
		struct or_val va[OR_MAX_FIELDS], vb[OR_MAX_FIELDS];

		for (uint64_t e = 0; e < a->v[i].u; e++) {
			CHECK(or_struct_element(a, i, &pa, va) == 0 &&
			      or_struct_element(b, i, &pb, vb) == 0,
			      "%s struct %s element %llu unreadable", sp->symbol, f[i].name,
			      (unsigned long long)e);
			for (unsigned k = 1; k <= f[i].nmembers; k++)
				CHECK(same_value(&f[i + k], a, &va[i + k], b, &vb[i + k]),
				      "%s member %s of element %llu changed in the round trip",
				      sp->symbol, f[i + k].name, (unsigned long long)e);
		}
	}
}

int fz_decode(const uint8_t *data, size_t size)
{
	static struct or_decoded d1, d2, d3;
	static struct gen_values vals;
	static uint8_t buf[GEN_PAYLOAD_MAX];
	const struct gcspec_event *sp;
	const struct gcspec_field *f;
	struct pcount c1, c2, c3;
	unsigned psize;
	uint32_t len;
	const uint8_t *p;
	int fits;
	long n;

	if (size < 3 || size - 3 > UINT32_MAX)
		return 0;
	sp = &gcspec_events[(data[0] | data[1] << 8) % GCSPEC_NEVENTS];
	f = gcspec_event_fields(sp);
	psize = data[2] & 1 ? 4 : 8;
	p = data + 3;
	len = (uint32_t)(size - 3);

	decode_once(sp, p, len, psize, &d1, &c1);
	decode_once(sp, p, len, psize, &d2, &c2);
	CHECK(c1.h == c2.h && d1.complete == d2.complete && d1.nvalid == d2.nvalid &&
	      !memcmp(d1.v, d2.v, sizeof d1.v[0] * d1.nvalid),
	      "%s: two decodes differ", sp->symbol);
	for (unsigned i = 0; i < d1.nvalid; i++)
		CHECK(f[i].is_member || (uint64_t)d1.v[i].off + d1.v[i].len <= len,
		      "%s field %s outside the payload", sp->symbol, f[i].name);
	fits = or_decode_fits(sp, p, len, psize);
	CHECK(fits == (d1.complete && !c1.p[2] && !c1.p[4]),
	      "%s: or_decode_fits says %d, or_decode complete %d with P002 %u P004 %u",
	      sp->symbol, fits, d1.complete, c1.p[2], c1.p[4]);
	if (!d1.complete)
		return 0;
	for (unsigned i = 0; i < sp->nfields; i++) {
		uint32_t pos = d1.v[i].off;
		struct or_val v[OR_MAX_FIELDS];

		if (f[i].is_member || f[i].type != GCSPEC_STRUCT)
			continue;
		for (uint64_t e = 0; e < d1.v[i].u; e++)
			CHECK(or_struct_element(&d1, i, &pos, v) == 0,
			      "%s: element %llu of %s unreadable", sp->symbol,
			      (unsigned long long)e, f[i].name);
		CHECK(pos == d1.v[i].off + d1.v[i].len, "%s: %s elements end at %u, not %u",
		      sp->symbol, f[i].name, pos, d1.v[i].off + d1.v[i].len);
	}
	/* A clean decode, encoded again by gen, decodes to the same values. */
	if (!fits || gcm_lift(sp, p, len, psize, &vals) != 0)
		return 0;
	n = gen_encode(&vals, psize, buf, sizeof buf);
	if (n < 0)
		return 0;
	decode_once(sp, buf, (uint32_t)n, psize, &d3, &c3);
	CHECK(or_decode_fits(sp, buf, (uint32_t)n, psize),
	      "%s: gen's encoding of clean values does not fit the template", sp->symbol);
	same_values(sp, &d1, &d3);
	return 0;
}
