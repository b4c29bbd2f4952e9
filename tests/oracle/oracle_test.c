/*
 * oracle_test.c - gcoracle's decoder, checker and model reader, driven by
 * model streams built here with libcbor and hand-written payload bytes.
 * Ends with the catalogue coverage check: every M/P/V/S/U code must have
 * been triggered by some test above.
 */
#include <stdio.h>
#include <string.h>

#include "oracle/check/check.h"
#include "oracle/decode/decode.h"
#include "model_builder.h"
#include "oracle/oracle.h"
#include "tap.h"

#define MAXREC 4096
static struct { unsigned code; uint64_t event, offset; } rec[MAXREC];
static size_t nrec;
static int covered[GCSPEC_NDIAGS];
static uint64_t nevents;
static uint64_t ctx_gcs;  /* GCs the last run counted */

static void sink(void *arg, const struct or_diag *d)
{
	(void)arg;
	covered[d->code] = 1;
	if (nrec < MAXREC) {
		rec[nrec].code = d->code;
		rec[nrec].event = d->event;
		rec[nrec].offset = d->offset;
		nrec++;
	}
}

static void count_events(void *arg, struct or_ctx *ctx, const struct or_event *ev,
                         const struct or_decoded *dec)
{
	(void)arg; (void)ctx; (void)ev; (void)dec;
	nevents++;
}

/* Run the oracle over the first len bytes of m; returns or_run_file's rc. */
static int run_len(const struct mb *m, size_t len)
{
	struct or_ctx ctx;
	FILE *f = mb_file(m, len);
	int rc;

	nrec = 0;
	nevents = 0;
	or_ctx_init(&ctx);
	ctx.diag.emit = sink;
	ctx.on_event = count_events;
	rc = or_run_file(&ctx, "test", f);
	ctx_gcs = ctx.stats.gcs;
	or_ctx_free(&ctx);
	fclose(f);
	return rc;
}

static int run(const struct mb *m) { return run_len(m, m->len); }

static int has(unsigned code, uint64_t event)
{
	for (size_t i = 0; i < nrec; i++)
		if (rec[i].code == code && rec[i].event == event)
			return 1;
	return 0;
}

static size_t nwith(unsigned code)
{
	size_t n = 0;
	for (size_t i = 0; i < nrec; i++)
		n += rec[i].code == code;
	return n;
}

static size_t nerrors(void)
{
	size_t n = 0;
	for (size_t i = 0; i < nrec; i++)
		n += gcspec_diags[rec[i].code].severity == GCSPEC_ERROR;
	return n;
}

static uint64_t ev_thread = 1;   /* the thread ev() writes events on */
static uint16_t ev_clr;          /* the ClrInstanceID the helpers below write */

static void ev(struct mb *m, unsigned e, const struct pl *p)
{
	const struct gcspec_event *s = &gcspec_events[e];
	mb_event_full(m, gcspec_providers[s->provider].name, s->id, s->version, ev_thread, p, NULL);
}

static void gcstart(struct mb *m, uint32_t count, uint32_t depth, uint32_t type)
{
	struct pl p = { .n = 0 };
	pl_u32(&p, count); pl_u32(&p, depth); pl_u32(&p, 1); pl_u32(&p, type);
	pl_u16(&p, ev_clr); pl_u64(&p, 0);
	ev(m, GCSPEC_EV_GCStart_V2, &p);
}

static void gcend(struct mb *m, uint32_t count, uint32_t depth)
{
	struct pl p = { .n = 0 };
	pl_u32(&p, count); pl_u32(&p, depth); pl_u16(&p, ev_clr);
	ev(m, GCSPEC_EV_GCEnd_V1, &p);
}

static void susp(struct mb *m, uint32_t count)
{
	struct pl p = { .n = 0 };
	pl_u32(&p, 1); pl_u32(&p, count); pl_u16(&p, ev_clr);
	ev(m, GCSPEC_EV_GCSuspendEEBegin_V1, &p);
}

static void clr_only(struct mb *m, unsigned e)
{
	struct pl p = { .n = 0 };
	pl_u16(&p, ev_clr);
	ev(m, e, &p);
}

/* Write the next events as runtime instance clr, on its own thread. */
static void as(uint16_t clr)
{
	ev_clr = clr;
	ev_thread = 1 + clr;
}

/* A complete, valid GC with its suspension: 6 events. */
static void full_gc(struct mb *m, uint32_t count)
{
	susp(m, count - 1); /* the runtime writes the GC index it had before this GC */
	clr_only(m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(m, count, 0, 0);
	gcend(m, count, 0);
	clr_only(m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(m, GCSPEC_EV_GCRestartEEEnd_V1);
}

static void fresh(struct mb *m) { free(m->buf); memset(m, 0, sizeof *m); mb_header(m); }

/* Decode one payload directly, outside a stream. */
static struct or_decoded dec;
static int decode_bytes(unsigned e, const uint8_t *b, size_t n, unsigned psize)
{
	struct or_ctx ctx;
	struct or_event ev0;
	int rc;

	memset(&ev0, 0, sizeof ev0);
	ev0.payload = b;
	ev0.payload_len = (uint32_t)n;
	ev0.payload_offset = 100;
	nrec = 0;
	or_ctx_init(&ctx);
	ctx.diag.emit = sink;
	ctx.info.pointer_size = (uint8_t)psize;
	rc = or_decode(&ctx, &ev0, &gcspec_events[e], &dec);
	or_ctx_free(&ctx);
	return rc;
}

static void test_decoder(void)
{
	static const uint8_t start[26] = { 7,0,0,0, 2,0,0,0, 1,0,0,0, 0,0,0,0,
		9,0, 0x88,0x77,0x66,0x55,0x44,0x33,0x22,0x11 };
	static const uint8_t handle4[26] = { 0x10,0x20,0x30,0x40, 0x50,0x60,0x70,0x80,
		2,0,0,0, 1,0,0,0, 0,0,0,0,0,0,0,0, 0,0 };
	/* GCAllocationTick_V4: amount, kind, clr, amount64, TypeID(8),
	 * TypeName "A" U+1F600 (surrogate pair), HeapIndex, Address(8), ObjectSize */
	uint8_t at[64] = { 0 }, bad[64];
	size_t n = 0;
	struct pl p = { .n = 0 };

	tap_ok(decode_bytes(GCSPEC_EV_GCStart_V2, start, 26, 8) == 0 && nrec == 0,
	       "GCStart_V2 26 bytes decodes without diagnostics");
	tap_ok(dec.v[0].u == 7 && dec.v[1].u == 2 && dec.v[2].u == 1 &&
	       dec.v[3].u == 0 && dec.v[4].u == 9 &&
	       dec.v[5].u == 0x1122334455667788ULL,
	       "GCStart_V2 fields: Count 7, Depth 2, Reason 1, Type 0, ClrInstanceID 9, ClientSequenceNumber 0x1122334455667788");
	tap_ok(decode_bytes(GCSPEC_EV_SetGCHandle, handle4, 26, 4) == 0 && nrec == 0 &&
	       dec.v[0].u == 0x40302010 && dec.v[1].u == 0x80706050 && dec.v[2].u == 2,
	       "Pointer fields are 4 bytes in a 4-byte stream (SetGCHandle 26 bytes)");
	pl_u32(&p, 100); pl_u32(&p, 0); pl_u16(&p, 0); pl_u64(&p, 100); pl_u64(&p, 0xABC);
	pl_u16(&p, 'A'); pl_u16(&p, 0xD83D); pl_u16(&p, 0xDE00); pl_u16(&p, 0);
	pl_u32(&p, 0); pl_u64(&p, 0xDEAD); pl_u64(&p, 24);
	memcpy(at, p.b, p.n); n = p.n;
	tap_ok(decode_bytes(GCSPEC_EV_GCAllocationTick_V4, at, n, 8) == 0 && nrec == 0 &&
	       dec.v[5].len == 6 && dec.v[5].off == 26 && dec.v[7].u == 0xDEAD,
	       "UnicodeString with a surrogate pair: 6 bytes at offset 26, Address after it");
	/* P001: GCStart_V2 cut to 10 bytes: Reason at offset 8 needs 4. */
	tap_ok(decode_bytes(GCSPEC_EV_GCStart_V2, start, 10, 8) != 0 &&
	       nwith(GCSPEC_DIAG_P001) == 1 && rec[0].offset == 108 && dec.nvalid == 2,
	       "P001 at the Reason field (payload offset 8) when GCStart_V2 has 10 bytes");
	{
		uint8_t longer[12] = { 1,0,0,0, 0,0,0,0, 0,0, 0xEE,0xEE };
		tap_ok(decode_bytes(GCSPEC_EV_GCEnd_V1, longer, 12, 8) == 0 &&
		       nwith(GCSPEC_DIAG_P002) == 1 && rec[0].offset == 110,
		       "P002 at payload offset 10 when GCEnd_V1 has 2 extra bytes");
	}
	tap_ok(decode_bytes(GCSPEC_EV_GCStart_V2, start, 18, 8) != 0 &&
	       nwith(GCSPEC_DIAG_P008) == 1,
	       "P008 when a GCStart_V2 payload has the 18 bytes of GCStart_V1");
	memcpy(bad, at, 30); /* cut inside TypeName: 'A' + high surrogate */
	tap_ok(decode_bytes(GCSPEC_EV_GCAllocationTick_V4, bad, 30, 8) != 0 &&
	       nwith(GCSPEC_DIAG_P003) == 1 && rec[0].offset == 126,
	       "P003 for a TypeName that runs to the end of the payload");
	tap_ok(decode_bytes(GCSPEC_EV_GCAllocationTick_V4, bad, 29, 8) != 0 &&
	       nwith(GCSPEC_DIAG_P005) == 1,
	       "P005 for a TypeName cut after an odd number of bytes");
	memcpy(bad, at, n);
	bad[28] = 0x41; bad[29] = 0; /* high surrogate replaced: low one unpaired */
	tap_ok(decode_bytes(GCSPEC_EV_GCAllocationTick_V4, bad, n, 8) == 0 &&
	       nwith(GCSPEC_DIAG_P004) == 1 && rec[0].offset == 130,
	       "P004 for an unpaired low surrogate at payload offset 30");
	{
		struct pl q = { .n = 0 };
		pl_u32(&q, 0); pl_u32(&q, 0xFFFFFFFF); pl_u16(&q, 0);
		tap_ok(decode_bytes(GCSPEC_EV_GCBulkRootEdge, q.b, q.n, 8) != 0 &&
		       nwith(GCSPEC_DIAG_P006) == 1,
		       "P006 when GCBulkRootEdge Count 0xFFFFFFFF exceeds a 10-byte payload");
	}
	{
		struct pl q = { .n = 0 };
		pl_u16(&q, 'x'); pl_u16(&q, 0); pl_u32(&q, 1000); pl_u32(&q, 1);
		tap_ok(decode_bytes(GCSPEC_EV_GCDynamicEvent, q.b, q.n, 8) != 0 &&
		       nwith(GCSPEC_DIAG_P007) == 1,
		       "P007 when GCDynamicEvent DataSize 1000 exceeds the payload");
	}
	{
		struct pl q = { .n = 0 };
		pl_u64(&q, 1); pl_u64(&q, 2); pl_u32(&q, 2);
		tap_ok(decode_bytes(GCSPEC_EV_GCSettings, q.b, q.n, 8) == 0 &&
		       nwith(GCSPEC_DIAG_P009) == 1,
		       "P009 when GCSettings ServerGC holds 2");
	}
	{
		struct pl q = { .n = 0 };
		pl_u64(&q, 0x1000); pl_u64(&q, 0x100); pl_u32(&q, 99); pl_u16(&q, 0);
		tap_ok(decode_bytes(GCSPEC_EV_GCCreateSegment_V1, q.b, q.n, 8) == 0 &&
		       nwith(GCSPEC_DIAG_V001) == 1,
		       "V001 when GCCreateSegment_V1 Type is 99 (closed map)");
	}
	{
		struct pl q = { .n = 0 };
		pl_u32(&q, 1); pl_u32(&q, 0); pl_u32(&q, 200); pl_u32(&q, 0);
		pl_u16(&q, 0); pl_u64(&q, 0);
		tap_ok(decode_bytes(GCSPEC_EV_GCStart_V2, q.b, q.n, 8) == 0 &&
		       nwith(GCSPEC_DIAG_V002) == 1 && nwith(GCSPEC_DIAG_V001) == 0,
		       "V002 (not V001) when GCStart_V2 Reason is 200 (open map)");
	}
	{
		struct pl q = { .n = 0 };
		pl_u32(&q, 0); pl_u32(&q, 1); pl_u16(&q, 0);
		pl_u64(&q, 0x10); q.b[q.n++] = 0; pl_u32(&q, 0x80000000u); pl_u64(&q, 0);
		tap_ok(decode_bytes(GCSPEC_EV_GCBulkRootEdge, q.b, q.n, 8) == 0 &&
		       nwith(GCSPEC_DIAG_V003) == 1,
		       "V003 when a struct member GCRootFlag sets an undefined bit");
	}
}

/* One BulkType element: TypeID, ModuleID, TypeNameID, Flags, CorElementType,
 * Name (one character, or empty when c is 0), then TypeParameterCount
 * `count` and `given` values 0x100 + k. */
static void bulk_type_elem(struct pl *q, uint64_t id, uint16_t c, uint32_t count,
                           unsigned given)
{
	pl_u64(q, id); pl_u64(q, 0x7ff0); pl_u32(q, 7); pl_u32(q, 0x8);
	q->b[q->n++] = 0x1d;
	if (c)
		pl_u16(q, c);
	pl_u16(q, 0);
	pl_u32(q, count);
	for (unsigned k = 0; k < given; k++)
		pl_u64(q, 0x100 + k);
}

/* BulkType: an array (TypeParameters) inside each struct element, sized by
 * the element's own TypeParameterCount. */
static void test_bulk_type(void)
{
	const int tp = or_field_index(&gcspec_events[GCSPEC_EV_BulkType], "Values") + 8;
	struct or_val mv[OR_MAX_FIELDS];
	struct pl q = { .n = 0 };
	uint32_t at;
	int ok;

	pl_u32(&q, 3); pl_u16(&q, 1);
	bulk_type_elem(&q, 0xA0, 'L', 3, 3);
	bulk_type_elem(&q, 0xB0, 0, 0, 0);
	bulk_type_elem(&q, 0xC0, 'T', 1, 1);
	ok = decode_bytes(GCSPEC_EV_BulkType, q.b, q.n, 8) == 0 && nrec == 0 &&
	     dec.v[2].u == 3 && dec.v[2].len == q.n - 6;
	tap_ok(ok, "BulkType with 3, 0 and 1 type parameters decodes without diagnostics");
	at = dec.v[2].off;
	ok = or_struct_element(&dec, 2, &at, mv) == 0 && mv[3].u == 0xA0 &&
	     mv[tp - 1].u == 3 && mv[tp].u == 3 && mv[tp].len == 24 && mv[tp].off == 6 + 33 &&
	     or_le(q.b + mv[tp].off + 16, 8) == 0x102 &&
	     or_struct_element(&dec, 2, &at, mv) == 0 && mv[3].u == 0xB0 && mv[tp].u == 0 &&
	     or_struct_element(&dec, 2, &at, mv) == 0 && mv[3].u == 0xC0 && mv[tp].u == 1 &&
	     at == q.n;
	tap_ok(ok, "BulkType elements walk: TypeParameters of 3, 0, 1 values, each after its count");
	q.n = 0;
	pl_u32(&q, 1); pl_u16(&q, 1);
	bulk_type_elem(&q, 0xA0, 0, 5, 2);
	ok = decode_bytes(GCSPEC_EV_BulkType, q.b, q.n, 8) != 0 &&
	     nwith(GCSPEC_DIAG_P006) == 1 && rec[0].offset == 100 + 37;
	tap_ok(ok, "P006 at payload offset 37 when TypeParameterCount 5 runs past the payload (2 given)");
}

static void test_fields(void)
{
	struct mb m = { 0 };
	struct pl p = { .n = 0 };

	fresh(&m);
	pl_u32(&p, 5); pl_u32(&p, 0); pl_u16(&p, 0); pl_u64(&p, 0x100000006ULL);
	pl_u64(&p, 0); pl_u16(&p, 0); pl_u32(&p, 0);
	ev(&m, GCSPEC_EV_GCAllocationTick_V2, &p);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_V004, 0), "V004 when AllocationAmount 5 is not low32(0x100000006)");
	fresh(&m);
	gcstart(&m, 1, 3, 0);
	gcend(&m, 1, 3);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_V005, 0), "V005 for GCStart Depth 3");
	fresh(&m);
	gcstart(&m, 1, 1, 1);
	gcend(&m, 1, 1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_V006, 0), "V006 for a background GC with Depth 1");
	fresh(&m);
	p.n = 0;
	pl_u64(&p, 0); pl_u32(&p, 2); pl_u32(&p, 0); pl_u32(&p, 0); pl_u32(&p, 0);
	pl_u32(&p, 0); pl_u16(&p, 0);
	gcstart(&m, 1, 0, 0);
	ev(&m, GCSPEC_EV_GCGlobalHeapHistory_V1, &p);
	gcend(&m, 1, 0);
	p.n = 0;
	pl_u32(&p, 5); pl_u16(&p, 0); pl_u32(&p, 0); pl_u64(&p, 64);
	ev(&m, GCSPEC_EV_GCMarkWithType, &p);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_V007, 3) && nwith(GCSPEC_DIAG_S014) == 0,
	       "V007 for GCMarkWithType HeapNum 5 after GCGlobalHeapHistory NumHeaps 2");
	/* M005: the model records Count 8 where the payload holds 7. */
	fresh(&m);
	{
		cbor_item_t *f = cbor_new_definite_map(1);
		p.n = 0;
		pl_u32(&p, 7); pl_u32(&p, 0); pl_u16(&p, 0);
		mb_kv(f, "Count", cbor_build_uint8(8));
		mb_event_full(&m, RT, 2, 1, 1, &p, f);
	}
	{
		cbor_item_t *f = cbor_new_definite_map(2);
		mb_kv(f, "Count", cbor_build_uint8(7));
		mb_kv(f, "Depth", cbor_build_uint8(0));
		mb_event_full(&m, RT, 2, 1, 1, &p, f);
	}
	run(&m);
	tap_ok(has(GCSPEC_DIAG_M005, 0) && !has(GCSPEC_DIAG_M005, 1),
	       "M005 when the model's Count 8 differs from the payload's 7, none when they agree");
	free(m.buf);
}

static void test_stream(void)
{
	struct mb m = { 0 };
	struct pl p = { .n = 0 };

	fresh(&m);
	full_gc(&m, 1);
	full_gc(&m, 2);
	tap_ok(run(&m) == 0 && nrec == 0 && nevents == 12,
	       "two complete GCs with suspensions: 12 events, no diagnostics");
	fresh(&m);
	gcend(&m, 4, 0);
	gcstart(&m, 5, 0, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S002, 0) && has(GCSPEC_DIAG_S003, 1) && nwith(GCSPEC_DIAG_S001) == 0,
	       "S002 for a GCEnd first, S003 at the GCStart left open at the end");
	fresh(&m);
	gcend(&m, 5, 0);    /* the GC nested in a background GC */
	gcend(&m, 4, 2);    /* the background GC */
	gcend(&m, 3, 0);    /* no more: the trace has shown two ends */
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S002, 0) && has(GCSPEC_DIAG_S002, 1) && has(GCSPEC_DIAG_S001, 2),
	       "S002 for the first two GCEnds (a background GC and its nested GC), S001 for a third");
	fresh(&m);
	gcstart(&m, 5, 0, 2); /* a foreground GC first: inside a background GC */
	gcend(&m, 5, 0);
	gcend(&m, 4, 2);
	run(&m);
	tap_ok(nwith(GCSPEC_DIAG_S024) == 0 && has(GCSPEC_DIAG_S002, 2) && nerrors() == 0,
	       "a foreground GC before any GCStart: the trace began inside a background GC (S002 at its end)");
	fresh(&m);
	gcstart(&m, 1, 0, 0);
	gcstart(&m, 2, 0, 0); /* GC 1 lost its GCEnd */
	gcend(&m, 2, 0);
	full_gc(&m, 3);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S004, 1) && nerrors() == 1,
	       "one lost GCEnd is reported once (S004), later GCs are clean");
	fresh(&m);
	full_gc(&m, 1);
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S001, 6), "S001 for a second GCEnd");
	fresh(&m);
	gcstart(&m, 1, 0, 0);
	gcstart(&m, 2, 0, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S004, 1), "S004 for a GC inside a non-concurrent GC");
	fresh(&m);
	gcstart(&m, 1, 0, 0);
	gcend(&m, 2, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S005, 1), "S005 for GCEnd Count 2 after GCStart Count 1");
	fresh(&m);
	gcstart(&m, 1, 1, 0);
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S006, 1), "S006 for GCEnd Depth 0 after GCStart Depth 1");
	fresh(&m);
	full_gc(&m, 3);
	full_gc(&m, 3);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S007, 8) && nwith(GCSPEC_DIAG_S007) == 1,
	       "S007 for a GCStart Count that does not increase");
	fresh(&m);
	gcstart(&m, 1, 2, 1);
	gcstart(&m, 2, 0, 2);
	gcend(&m, 2, 0);
	gcend(&m, 1, 2);
	run(&m);
	tap_ok(nrec == 0, "a foreground GC inside a background GC is fine");
	fresh(&m);
	full_gc(&m, 1);
	gcstart(&m, 2, 0, 2);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S024, 6), "S024 for a foreground GC outside a background GC");
	fresh(&m);
	gcstart(&m, 1, 2, 1);
	gcstart(&m, 2, 2, 1); /* a background GC inside one */
	gcend(&m, 2, 2);
	gcstart(&m, 3, 0, 2); /* still inside the first */
	gcend(&m, 3, 0);
	gcend(&m, 1, 2);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S024, 1) && nerrors() == 1,
	       "S024 for a background GC inside a background GC, which goes on");
	fresh(&m);
	susp(&m, 1);
	susp(&m, 1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S008, 1) && has(GCSPEC_DIAG_S025, 2),
	       "S008 for a nested GCSuspendEEBegin; S025 for the open suspension");
	fresh(&m);
	full_gc(&m, 1);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S009, 6), "S009 for GCSuspendEEEnd without begin");
	tap_ok(has(GCSPEC_DIAG_S011, 7), "S011 for GCRestartEEEnd without GCRestartEEBegin");
	tap_ok(has(GCSPEC_DIAG_S010, 9), "S010 for GCRestartEEBegin while restarting");
	/* The runtime fires GCSuspendEEBegin before it takes the suspension
	 * lock and GCRestartEEEnd after it lets go (seen in real .NET 10
	 * traces), so other threads' suspensions interleave. */
	fresh(&m);
	susp(&m, 0);                                            /* 0: thread 1 */
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(&m, 1, 0, 0);
	gcend(&m, 1, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);            /* 4 */
	ev_thread = 2;
	susp(&m, 0xFFFFFFFFu);                                  /* 5: waits for the lock */
	ev_thread = 1;
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	ev_thread = 2;
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 7: has it */
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	ev_thread = 1;
	susp(&m, 1);                                            /* 9: waits */
	ev_thread = 3;
	susp(&m, 0xFFFFFFFFu);                                  /* 10: waits */
	ev_thread = 2;
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);              /* 11: lets go */
	ev_thread = 3;
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 12: began later, got it first */
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	ev_thread = 1;
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 14: before 3's restart end */
	ev_thread = 3;
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);              /* 15: owed */
	ev_thread = 1;
	gcstart(&m, 2, 0, 0);
	gcend(&m, 2, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(nrec == 0, "other threads' suspensions may begin inside one and take over before its GCRestartEEEnd");
	fresh(&m);
	susp(&m, 0xFFFFFFFFu);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	ev_thread = 2;
	susp(&m, 0xFFFFFFFFu);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 3: thread 1 holds the lock */
	ev_thread = 1;
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S009, 3) && nwith(GCSPEC_DIAG_S008) == 0,
	       "S009 for another thread's GCSuspendEEEnd while a suspension holds the runtime");
	/* A non-GC suspension (the sample profiler's) that meets a GC's backs
	 * off inside SuspendEE and retries (a real .NET Core 3.0 trace). */
	fresh(&m);
	ev_thread = 2;
	susp(&m, 0xFFFFFFFFu);                                  /* 0: the sampler */
	ev_thread = 1;
	susp(&m, 5);                                            /* 1: the GC waits */
	ev_thread = 2;
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);            /* 2: backs off */
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	ev_thread = 1;
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 4: the GC has it */
	gcstart(&m, 6, 0, 0);
	gcend(&m, 6, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	ev_thread = 2;
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);            /* 9: backs off again */
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);              /* 11: has it */
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	ev_thread = 1;
	run(&m);
	tap_ok(nrec == 0,
	       "a non-GC suspension backs off (GCRestartEEBegin/End before its GCSuspendEEEnd, twice) while a GC runs: clean");
	fresh(&m);
	susp(&m, 5);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);            /* 1: a GC's never backs off */
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S010, 1),
	       "S010 for a GC suspension's GCRestartEEBegin before its GCSuspendEEEnd");
	fresh(&m);
	susp(&m, 5);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	ev_thread = 3;
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);            /* 2: neither holds nor attempts */
	ev_thread = 1;
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S010, 2) && nwith(GCSPEC_DIAG_S010) == 1 && nerrors() == 1,
	       "S010 for a GCRestartEEBegin from a thread that neither holds the runtime nor attempts to suspend it");
	fresh(&m);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S026, 0) && nrec == 1,
	       "S026 note (only) when the trace begins inside a suspension");
	fresh(&m);
	susp(&m, 10);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(&m, 10, 0, 0);
	gcend(&m, 10, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	susp(&m, 0xFFFFFFFF);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(&m, 11, 0, 0);
	gcend(&m, 11, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	susp(&m, 11);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(&m, 13, 0, 0);
	gcend(&m, 13, 0);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	susp(&m, 14);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S012, 0) && has(GCSPEC_DIAG_S012, 18) &&
	       nwith(GCSPEC_DIAG_S012) == 2,
	       "S012 at the suspension whose Count 10 is not below its GC's 10 and at the one whose 14 is above the latest GC's 13; Count 0xFFFFFFFF and a lag of 2 (a GC in between) are fine");
	fresh(&m);
	full_gc(&m, 1);
	p.n = 0;
	for (int i = 0; i < 13; i++) pl_u64(&p, 0);
	p.n = 0;
	for (int i = 0; i < 10; i++) pl_u64(&p, 0);
	pl_u32(&p, 0); pl_u32(&p, 0); pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCHeapStats_V1, &p);      /* 6: just ended: fine */
	gcstart(&m, 2, 0, 0);
	gcend(&m, 2, 0);
	susp(&m, 0xFFFFFFFF);                      /* 9: a non-GC suspension begins */
	ev(&m, GCSPEC_EV_GCHeapStats_V1, &p);      /* 10: still just ended */
	ev_thread = 2;
	susp(&m, 2);                               /* 11: the next GC's suspension waits */
	ev_thread = 1;
	ev(&m, GCSPEC_EV_GCHeapStats_V1, &p);      /* 12: outside */
	run(&m);
	tap_ok(!has(GCSPEC_DIAG_S013, 6) && !has(GCSPEC_DIAG_S013, 10) && has(GCSPEC_DIAG_S013, 12) &&
	       nwith(GCSPEC_DIAG_S008) == 0,
	       "S013 for GCHeapStats after a GC suspension began (waiting behind a non-GC one); none right after a GC, nor after a non-GC suspension began (a real .NET 8 server GC trace with the sampler)");
	fresh(&m);
	full_gc(&m, 1);
	susp(&m, 1);
	p.n = 0;
	pl_u64(&p, 0); pl_u32(&p, 1); pl_u32(&p, 0); pl_u32(&p, 0); pl_u32(&p, 0);
	pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCGlobalHeapHistory_V1, &p);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S014, 7), "S014 for GCGlobalHeapHistory outside a GC");
	/* A background GC's thread writes its histories after GCEnd; a
	 * suspension that waited meanwhile gets the runtime in between. A
	 * non-GC one (the sample profiler's) leaves the GC just ended; a GC
	 * one ends that (a real .NET 10 DATAS trace with the sampler). */
	for (int gc_waiter = 0; gc_waiter < 2; gc_waiter++) {
		fresh(&m);
		ev_thread = 1;
		susp(&m, 5);
		clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
		gcstart(&m, 6, 2, 1);                         /* 2: a background GC */
		ev_thread = 2;
		susp(&m, gc_waiter ? 6 : 0xFFFFFFFFu);        /* 3: waits */
		ev_thread = 1;
		clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
		clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
		gcend(&m, 6, 2);                              /* 6 */
		ev_thread = 2;
		clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);    /* 7: the waiter has it */
		ev_thread = 1;
		p.n = 0;
		pl_u64(&p, 0); pl_u32(&p, 1); pl_u32(&p, 0); pl_u32(&p, 0); pl_u32(&p, 0);
		pl_u32(&p, 0); pl_u16(&p, 0);
		ev(&m, GCSPEC_EV_GCGlobalHeapHistory_V1, &p); /* 8 */
		ev_thread = 2;
		clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
		clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
		ev_thread = 1;
		run(&m);
		if (gc_waiter)
			tap_ok(has(GCSPEC_DIAG_S014, 8),
			       "S014 for a heap history after a waiting GC suspension got the runtime");
		else
			tap_ok(nwith(GCSPEC_DIAG_S014) == 0,
			       "a background GC's history after a waiting non-GC suspension got the runtime: no S014");
	}
	fresh(&m);
	for (int k = 0; k < 4; k++) {
		static const uint32_t t[4] = { 1, 0, 0, 1 };
		p.n = 0;
		pl_u32(&p, 0); pl_u32(&p, t[k]); pl_u32(&p, 1); pl_u16(&p, 0); pl_u32(&p, 0);
		ev(&m, GCSPEC_EV_GCJoin_V2, &p);
	}
	p.n = 0;
	pl_u32(&p, 0); pl_u32(&p, 1); pl_u32(&p, 1); pl_u16(&p, 0); pl_u32(&p, 0);
	ev(&m, GCSPEC_EV_GCJoin_V2, &p);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S026, 0) && has(GCSPEC_DIAG_S016, 2) && has(GCSPEC_DIAG_S015, 4),
	       "GCJoin: end first is S026, start in a join S016, end after end S015");
	fresh(&m);
	p.n = 0;
	pl_u64(&p, 0x1000); pl_u64(&p, 0x100); pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	p.n = 0;
	pl_u64(&p, 0x2000); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCFreeSegment_V1, &p);    /* made before the trace: fine */
	ev(&m, GCSPEC_EV_GCFreeSegment_V1, &p);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S017, 1) && !has(GCSPEC_DIAG_S018, 2) && has(GCSPEC_DIAG_S018, 3),
	       "segments: S017 for a second create, S018 for a second free only");
	/* .NET 8's regions GC creates a region again and never frees. */
	fresh(&m);
	p.n = 0;
	pl_u64(&p, 0x1000); pl_u64(&p, 0x100); pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	run(&m);
	tap_ok(nrec == 0, "segments: created again with no GCFreeSegment in the trace (a regions runtime): clean");
	fresh(&m);
	p.n = 0;
	pl_u64(&p, 0x1000); pl_u64(&p, 0x100); pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);  /* 1: held back */
	p.n = 0;
	pl_u64(&p, 0x2000); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCFreeSegment_V1, &p);    /* 2: this runtime frees */
	p.n = 0;
	pl_u64(&p, 0x1000); pl_u64(&p, 0x100); pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCCreateSegment_V1, &p);  /* 3: at once */
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S017, 1) && has(GCSPEC_DIAG_S017, 3) && nwith(GCSPEC_DIAG_S017) == 2,
	       "segments: once the runtime shows a GCFreeSegment, re-creations before and after it are S017");
	/* .NET Framework 4.5.2 fires GCStart_V1 and GCStart_V2 for each GC. */
	fresh(&m);
	for (uint32_t c = 1; c <= 2; c++) {
		susp(&m, c - 1);
		clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
		p.n = 0;
		pl_u32(&p, c); pl_u32(&p, 1); pl_u32(&p, 1); pl_u32(&p, 0); pl_u16(&p, ev_clr);
		ev(&m, GCSPEC_EV_GCStart_V1, &p);
		gcstart(&m, c, 1, 0);
		gcend(&m, c, 1);
		clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
		clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	}
	tap_ok(run(&m) == 0 && nrec == 0 && ctx_gcs == 2,
	       "GCStart_V1 then GCStart_V2 for the same GC (same thread and fields) is one GC: 2 GCs, no diagnostics");
	fresh(&m);
	p.n = 0;
	pl_u32(&p, 1); pl_u32(&p, 1); pl_u32(&p, 1); pl_u32(&p, 0); pl_u16(&p, ev_clr);
	ev(&m, GCSPEC_EV_GCStart_V1, &p);
	gcstart(&m, 1, 0, 0);                      /* 1: another Depth */
	gcend(&m, 1, 0);
	gcstart(&m, 1, 0, 0);                      /* 3: V2 twice */
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S007, 1) && has(GCSPEC_DIAG_S004, 1) && has(GCSPEC_DIAG_S007, 3),
	       "a GCStart_V2 that differs from its GCStart_V1, or comes twice, is another GC (S004, S007)");
	/* TryStartNoGCRegion takes a GC number with no GCStart. */
	fresh(&m);
	full_gc(&m, 1);
	susp(&m, 1);                               /* 6: a GC suspension, no GC */
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	full_gc(&m, 3);                            /* 10: Count 2 above GC 1's */
	susp(&m, 5);                               /* 16: two above */
	run(&m);
	tap_ok(!has(GCSPEC_DIAG_S012, 10) && has(GCSPEC_DIAG_S012, 16) && nwith(GCSPEC_DIAG_S012) == 1,
	       "a GC number taken by a suspension that served no GC (a no-GC region) lets the next suspension's Count be one above; two above is S012");
	fresh(&m);
	p.n = 0;
	pl_u64(&p, 0x50); pl_u64(&p, 0x60); pl_u32(&p, 1); pl_u32(&p, 0);
	pl_u64(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_SetGCHandle, &p);
	ev(&m, GCSPEC_EV_SetGCHandle, &p);         /* a store into a live handle: fine */
	p.n = 0;
	pl_u64(&p, 0x50); pl_u64(&p, 0x60); pl_u32(&p, 2); pl_u32(&p, 0);
	pl_u64(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_SetGCHandle, &p);         /* the same live handle as another kind */
	p.n = 0;
	pl_u64(&p, 0x70); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_DestroyGCHandle, &p);
	ev(&m, GCSPEC_EV_DestroyGCHandle, &p);
	p.n = 0;
	pl_u64(&p, 0x50); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_DestroyGCHandle, &p);
	p.n = 0;
	pl_u64(&p, 0x50); pl_u64(&p, 0x60); pl_u32(&p, 0); pl_u32(&p, 0);
	pl_u64(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_SetGCHandle, &p);         /* freed, then reused as another kind: fine */
	run(&m);
	tap_ok(!has(GCSPEC_DIAG_S019, 1) && has(GCSPEC_DIAG_S019, 2) && nwith(GCSPEC_DIAG_S019) == 1 &&
	       !has(GCSPEC_DIAG_S020, 3) && has(GCSPEC_DIAG_S020, 4) && nwith(GCSPEC_DIAG_S020) == 1 &&
	       nwith(GCSPEC_DIAG_P001) == 0,
	       "handles: S019 for a live handle set as another kind only, S020 for a second destroy only");
	fresh(&m);
	p.n = 0;
	pl_u32(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCFinalizersEnd_V1, &p);  /* 0: S026 */
	clr_only(&m, GCSPEC_EV_GCFinalizersBegin_V1);
	clr_only(&m, GCSPEC_EV_GCFinalizersBegin_V1); /* 2: S022 */
	ev(&m, GCSPEC_EV_GCFinalizersEnd_V1, &p);
	ev(&m, GCSPEC_EV_GCFinalizersEnd_V1, &p);  /* 4: S021 */
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S026, 0) && has(GCSPEC_DIAG_S022, 2) && has(GCSPEC_DIAG_S021, 4),
	       "finalizers: end first S026, nested S022, end without begin S021");
	fresh(&m);
	m.ts = 100;
	gcstart(&m, 1, 0, 0);
	m.ts = 0;
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S023, 1), "S023 for a timestamp going backwards on one thread");
	fresh(&m);
	ev_thread = 0;
	m.ts = 100;
	clr_only(&m, GCSPEC_EV_GCFinalizersBegin_V1);
	m.ts = 0;
	clr_only(&m, GCSPEC_EV_GCFinalizersEnd_V1);
	ev_thread = 1;
	run(&m);
	tap_ok(nwith(GCSPEC_DIAG_S023) == 0,
	       "no S023 on thread id 0: the runtime writes it for several threads it no longer knows");
	/* .NET Framework's private GCPerHeapHistory (id 4, version 2): its
	 * gc_history_per_heap struct raw and a ClrInstanceID (E065). */
	fresh(&m);
	p.n = 0;
	for (int i = 0; i < 233; i++) p.b[p.n++] = (unsigned char)i;
	ev(&m, GCSPEC_EV_GCPerHeapHistory, &p);
	p.n = 0;
	pl_u16(&p, 0); pl_u16(&p, 0);
	ev(&m, GCSPEC_EV_GCPerHeapHistory_V1, &p);
	run(&m);
	tap_ok(nwith(GCSPEC_DIAG_P002) == 1 && has(GCSPEC_DIAG_P002, 1),
	       "GCPerHeapHistory's 233-byte Framework payload is its opaque tail (no P002); GCPerHeapHistory_V1 with 2 bytes over is P002");
	fresh(&m);
	mb_event(&m, 1, 4, NULL);
	mb_event(&m, 1, 4, NULL);
	mb_event(&m, 999, 0, NULL);
	mb_event_full(&m, "Other-Provider", 1, 0, 1, NULL, NULL);
	tap_ok(run(&m) == 0 && has(GCSPEC_DIAG_U001, 0) && nwith(GCSPEC_DIAG_U001) == 1 &&
	       has(GCSPEC_DIAG_U002, 2) && has(GCSPEC_DIAG_U003, 3) && nevents == 4,
	       "U001 once for GCStart version 4, U002 for id 999, U003 for another provider");
	free(m.buf);
}

/* Invariants hold per ClrInstanceID: two runtimes in one process interleave
 * their GCs and suspensions freely. */
static void test_instances(void)
{
	struct mb m = { 0 };

	fresh(&m);
	for (uint32_t n = 1; n <= 2; n++) {
		as(1); susp(&m, n - 1);
		as(2); susp(&m, n - 1);
		as(1); clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
		as(2); clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
		as(1); gcstart(&m, n, 0, 0);
		as(2); gcstart(&m, n, 0, 0);
		as(2); gcend(&m, n, 0);
		as(1); gcend(&m, n, 0);
		as(1); clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
		as(2); clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
		as(2); clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
		as(1); clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	}
	tap_ok(run(&m) == 0 && nrec == 0 && nevents == 24,
	       "two ClrInstanceIDs with interleaved suspensions and GCs: 24 events, no diagnostics");
	/* The same events as one instance are wrong: the check above can fail. */
	fresh(&m);
	as(1); susp(&m, 0); susp(&m, 0);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);
	gcstart(&m, 1, 0, 0); gcstart(&m, 1, 0, 0);
	run(&m);
	tap_ok(nerrors() > 0, "the same interleaving on one ClrInstanceID is reported");

	/* Instance 2 has had a GC; instance 1 has GC 2 in flight when a
	 * GCEnd of instance 2 closes nothing: S001 there, on instance 2, and
	 * instance 1's GC ends cleanly. */
	fresh(&m);
	as(2); full_gc(&m, 1);                          /* 0-5 */
	as(1); full_gc(&m, 1);                          /* 6-11 */
	as(1); susp(&m, 1);                             /* 12 */
	clr_only(&m, GCSPEC_EV_GCSuspendEEEnd_V1);      /* 13 */
	gcstart(&m, 2, 0, 0);                           /* 14 */
	as(2); gcend(&m, 5, 0);                         /* 15: S001 */
	as(1); gcend(&m, 2, 0);                         /* 16 */
	clr_only(&m, GCSPEC_EV_GCRestartEEBegin_V1);
	clr_only(&m, GCSPEC_EV_GCRestartEEEnd_V1);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S001, 15) && nwith(GCSPEC_DIAG_S001) == 1 && nerrors() == 1 &&
	       nwith(GCSPEC_DIAG_S005) == 0 && nwith(GCSPEC_DIAG_S003) == 0,
	       "a GCEnd of instance 2 while instance 1 has a GC in flight: S001 on it, only there");

	/* Eight instances are kept apart; a ninth shares the eighth's slot,
	 * said once (S027) at its first event. */
	fresh(&m);
	for (uint16_t k = 1; k <= 8; k++) {
		as(k);
		gcstart(&m, 1, 0, 0);
	}
	for (uint16_t k = 1; k <= 8; k++) {
		as(k);
		gcend(&m, 1, 0);
	}
	run(&m);
	tap_ok(nrec == 0, "eight instances with a GC each in flight at once: no diagnostics");
	fresh(&m);
	for (uint16_t k = 1; k <= 9; k++) {
		as(k);
		gcstart(&m, 1, 0, 0);
	}
	as(10); gcstart(&m, 1, 0, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_S027, 8) && nwith(GCSPEC_DIAG_S027) == 1,
	       "a ninth ClrInstanceID is said once (S027) at its first event");
	as(0);
	free(m.buf);
}

static void test_model(void)
{
	struct mb m = { 0 };
	size_t ends[8], nend = 0, hdr;

	fresh(&m);
	hdr = m.len;
	for (uint32_t i = 1; i <= 3; i++) {
		gcstart(&m, i, 0, 0);
		ends[nend++] = m.len;
		gcend(&m, i, 0);
		ends[nend++] = m.len;
	}
	{
		int ok = 1;
		for (size_t cut = hdr + 1; cut < m.len; cut++) {
			size_t whole = 0;
			while (whole < nend && ends[whole] <= cut)
				whole++;
			run_len(&m, cut);
			int at_item_end = whole > 0 && ends[whole - 1] == cut;
			if (nevents != whole ||
			    (!at_item_end && !(has(GCSPEC_DIAG_M002, whole) &&
			                       rec[0].offset == cut && nwith(GCSPEC_DIAG_M002) == 1)) ||
			    (at_item_end && nwith(GCSPEC_DIAG_M002) != 0)) {
				ok = 0;
				tap_diag("cut at %zu: %llu events, %zu diags", cut,
				         (unsigned long long)nevents, nrec);
				break;
			}
		}
		tap_ok(ok, "truncation at every byte: M002 at the cut with every earlier event reported");
	}
	tap_ok(run_len(&m, 5) != 0 && nwith(GCSPEC_DIAG_M002) == 1,
	       "a stream cut inside its header is unreadable, with M002");
	free(m.buf); memset(&m, 0, sizeof m);
	mb_append(&m, cbor_build_string("not a header"));
	tap_ok(run(&m) != 0, "a file that is not a model stream is not read");
	free(m.buf); memset(&m, 0, sizeof m);
	{
		cbor_item_t *h = cbor_new_definite_map(1);
		mb_kv(h, "format", cbor_build_string("something-else"));
		mb_append(&m, h);
	}
	tap_ok(run(&m) != 0 && nwith(GCSPEC_DIAG_M001) == 1, "M001 for a header of another format");
	free(m.buf); memset(&m, 0, sizeof m);
	mb_header_v(&m, 8, 2);
	tap_ok(run(&m) != 0 && nwith(GCSPEC_DIAG_M004) == 1, "M004 for model version 2");
	fresh(&m);
	mb_append(&m, cbor_build_uint8(7));
	gcstart(&m, 1, 0, 0);
	gcend(&m, 1, 0);
	tap_ok(run(&m) == 0 && has(GCSPEC_DIAG_M003, 0) && nevents == 2,
	       "M003 for an event item that is not a map; the next events are still read");
	/* M006: junk (a run of zeros, one CBOR item each) is given up on
	 * after a bounded run, not reported byte by byte to the end. */
	fresh(&m);
	gcstart(&m, 1, 0, 0);
	for (unsigned i = 0; i < 10000; i++)
		mb_append(&m, cbor_build_uint8(0));
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(has(GCSPEC_DIAG_M006, 64) && nwith(GCSPEC_DIAG_M006) == 1 &&
	       nwith(GCSPEC_DIAG_M003) == 64 && nevents == 1,
	       "M006 after 64 items in a row that are not events; the rest is not read (%u M003)",
	       (unsigned)nwith(GCSPEC_DIAG_M003));
	fresh(&m);
	gcstart(&m, 1, 0, 0);
	for (unsigned i = 0; i < 63; i++)
		mb_append(&m, cbor_build_uint8(0));
	gcend(&m, 1, 0);
	run(&m);
	tap_ok(nwith(GCSPEC_DIAG_M006) == 0 && nwith(GCSPEC_DIAG_M003) == 63 && nevents == 2,
	       "63 bad items in a row: each is M003 and the stream goes on");
	free(m.buf);
}

static void test_coverage(void)
{
	int all = 1;

	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++) {
		const char *c = gcspec_diags[i].code;
		if (!strchr("MPVSU", c[3]) || covered[i])
			continue;
		if (i == GCSPEC_DIAG_V002) {
			int open = 0;
			for (unsigned k = 0; k < GCSPEC_NMAPS; k++)
				open |= gcspec_maps[k].open;
			if (!open) {
				tap_diag("%s not triggerable: the spec marks no value map open", c);
				continue;
			}
		}
		tap_diag("%s (%s) is not triggered by any test", c, gcspec_diags[i].name);
		all = 0;
	}
	tap_ok(all, "every catalogue code with prefix M/P/V/S/U is triggered by a test");
}

int main(void)
{
	test_decoder();
	test_bulk_type();
	test_fields();
	test_stream();
	test_instances();
	test_model();
	test_coverage();
	return tap_done();
}
