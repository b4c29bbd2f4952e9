/* encode_test.c - the payload encoder against bytes written out by hand. */
#include <stdlib.h>
#include <string.h>

#include "gen/model/emit.h"
#include "gen/model/encode.h"
#include "tap.h"

static struct gen_values v;
static uint8_t buf[4096];

/* The payload the emitter handed its sink last. */
static uint8_t sunk[GEN_PAYLOAD_MAX];
static long nsunk;

static int capture(struct gen_sink *sk, struct gen_event *ev)
{
	(void)sk;
	memcpy(sunk, ev->payload, ev->payload_len);
	nsunk = ev->payload_len;
	return 0;
}

static int same(const uint8_t *got, long n, const uint8_t *want, size_t wn)
{
	return n == (long)wn && memcmp(got, want, wn) == 0;
}

int main(void)
{
	long n;

	/* GCStart_V2: UInt32 x4, UInt16, UInt64. */
	gen_values_reset(&v, GCSPEC_EV_GCStart_V2);
	gen_values_set_num(&v, "Count", 1);
	gen_values_set_num(&v, "Depth", 2);
	gen_values_set_num(&v, "Reason", 1);
	gen_values_set_num(&v, "Type", 0);
	gen_values_set_num(&v, "ClrInstanceID", 8);
	gen_values_set_num(&v, "ClientSequenceNumber", 0x0102030405060708ull);
	{
		static const uint8_t want[] = { 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 8, 0,
						8, 7, 6, 5, 4, 3, 2, 1 };

		n = gen_encode(&v, 8, buf, sizeof buf);
		tap_ok(same(buf, n, want, sizeof want), "GCStart_V2 encodes as 26 little-endian bytes");
		tap_ok(n == gcspec_events[GCSPEC_EV_GCStart_V2].fixed_size[1], "GCStart_V2 size matches the spec's fixed size");
	}

	/* A struct event: count field set from the rows; pointers 4 vs 8. */
	gen_values_reset(&v, GCSPEC_EV_GCBulkMovedObjectRanges);
	gen_values_set_num(&v, "ClrInstanceID", 8);
	gen_values_add_row(&v);
	gen_values_set_member_num(&v, 0, "OldRangeBase", 0x1000);
	gen_values_set_member_num(&v, 0, "NewRangeBase", 0x2000);
	gen_values_set_member_num(&v, 0, "RangeLength", 0x10);
	{
		static const uint8_t want4[] = { 0, 0, 0, 0, 1, 0, 0, 0, 8, 0,
						 0x00, 0x10, 0, 0, 0x00, 0x20, 0, 0,
						 0x10, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t want8[] = { 0, 0, 0, 0, 1, 0, 0, 0, 8, 0,
						 0x00, 0x10, 0, 0, 0, 0, 0, 0,
						 0x00, 0x20, 0, 0, 0, 0, 0, 0,
						 0x10, 0, 0, 0, 0, 0, 0, 0 };

		n = gen_encode(&v, 4, buf, sizeof buf);
		tap_ok(same(buf, n, want4, sizeof want4), "GCBulkMovedObjectRanges with one row, pointer size 4");
		n = gen_encode(&v, 8, buf, sizeof buf);
		tap_ok(same(buf, n, want8, sizeof want8), "GCBulkMovedObjectRanges with one row, pointer size 8");
	}

	/* UnicodeString with a non-BMP character: a surrogate pair. */
	gen_values_reset(&v, GCSPEC_EV_GCAllocationTick_V2);
	gen_values_set_text(&v, "TypeName", "A\xF0\x9F\x98\x80", 5);
	{
		static const uint8_t want[] = { 'A', 0, 0x3D, 0xD8, 0x00, 0xDE, 0, 0 };
		uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
		int tn = gen_values_index(&v, "TypeName", 0);

		n = gen_encode(&v, 8, buf, sizeof buf);
		gen_encode_offsets(&v, 8, offs);
		tap_ok(offs[tn] == 4 + 4 + 2 + 8 + 8, "TypeName starts after 26 bytes with 8-byte pointers");
		tap_ok(n > 0 && memcmp(buf + offs[tn], want, sizeof want) == 0,
		       "U+1F600 is written as the surrogate pair D83D DE00, then NUL");
		tap_ok(n == (long)(offs[tn] + sizeof want + 4), "HeapIndex follows the terminator");
	}

	/* Empty string: just the terminator; Boolean is 4 bytes. */
	gen_values_reset(&v, GCSPEC_EV_GCSettings_V1);
	gen_values_set_num(&v, "ServerGC", 1);
	n = gen_encode(&v, 8, buf, sizeof buf);
	tap_ok(n == 22 && buf[16] == 1 && buf[17] == 0 && buf[18] == 0 && buf[19] == 0,
	       "Boolean ServerGC is 4 bytes");
	tap_ok(gen_values_set_num(&v, "NoSuchField", 1) == -1, "an unknown field name is an error");

	/* E048: GCLOHCompact elements are C structs (uint32 x3, size_t x2). */
	{
		const struct gcspec_field *sf =
			&gcspec_event_fields(&gcspec_events[GCSPEC_EV_GCLOHCompact])[2];
		uint32_t off[8], size;

		tap_ok(gen_struct_layout(sf, 8, off, &size) == 0 && size == 32 && off[0] == 0 &&
		       off[1] == 4 && off[2] == 8 && off[3] == 16 && off[4] == 24,
		       "GCLOHCompact element, 64-bit: 4 bytes of padding after TimeRelocate, 32 bytes");
		tap_ok(gen_struct_layout(sf, 4, off, &size) == 0 && size == 20 && off[3] == 12 &&
		       off[4] == 16, "GCLOHCompact element, 32-bit: no padding, 20 bytes");
	}
	gen_values_reset(&v, GCSPEC_EV_GCLOHCompact);
	gen_values_set_num(&v, "ClrInstanceID", 8);
	for (unsigned r = 0; r < 2; r++) {
		gen_values_add_row(&v);
		gen_values_set_member_num(&v, r, "TimePlan", 0x11 + r);
		gen_values_set_member_num(&v, r, "TimeCompact", 0x22);
		gen_values_set_member_num(&v, r, "TimeRelocate", 0x33);
		gen_values_set_member_num(&v, r, "TotalRefs", 0x0102030405060708ull);
		gen_values_set_member_num(&v, r, "ZeroRefs", 0x44);
	}
	{
		static const uint8_t row0[] = { 0x11, 0, 0, 0, 0x22, 0, 0, 0, 0x33, 0, 0, 0, 0, 0, 0, 0,
						8, 7, 6, 5, 4, 3, 2, 1, 0x44, 0, 0, 0, 0, 0, 0, 0 };
		static const uint8_t row0_32[] = { 0x11, 0, 0, 0, 0x22, 0, 0, 0, 0x33, 0, 0, 0,
						   8, 7, 6, 5, 0x44, 0, 0, 0 };

		n = gen_encode(&v, 8, buf, sizeof buf);
		tap_ok(n == 4 + 2 * 32 && buf[0] == 8 && buf[2] == 2 && memcmp(buf + 4, row0, 32) == 0 &&
		       buf[4 + 32] == 0x12, "GCLOHCompact with two rows, 64-bit: 4 + 2 x 32 bytes, zero padding");
		n = gen_encode(&v, 4, buf, sizeof buf);
		tap_ok(n == 4 + 2 * 20 && memcmp(buf + 4, row0_32, 20) == 0 && buf[4 + 20] == 0x12,
		       "GCLOHCompact with two rows, 32-bit: 4 + 2 x 20 bytes");
	}

	/* E049: GCFitBucketInfo elements (uint16, uint32, size_t). */
	gen_values_reset(&v, GCSPEC_EV_GCFitBucketInfo);
	gen_values_add_row(&v);
	gen_values_set_member_num(&v, 0, "Index", 0xABCD);
	gen_values_set_member_num(&v, 0, "Count", 5);
	gen_values_set_member_num(&v, 0, "Size", 0x1000);
	{
		static const uint8_t row8[] = { 0xCD, 0xAB, 0, 0, 5, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0 };
		static const uint8_t row4[] = { 0xCD, 0xAB, 0, 0, 5, 0, 0, 0, 0, 0x10, 0, 0 };

		n = gen_encode(&v, 8, buf, sizeof buf);
		tap_ok(n == 14 + 16 && memcmp(buf + 14, row8, 16) == 0,
		       "GCFitBucketInfo element, 64-bit: 2 bytes of padding after Index, 16 bytes");
		n = gen_encode(&v, 4, buf, sizeof buf);
		tap_ok(n == 14 + 12 && memcmp(buf + 14, row4, 12) == 0,
		       "GCFitBucketInfo element, 32-bit: 12 bytes");
	}

	/* The planned encoder (gen_emit's) writes what the spec walk writes,
	 * for every event-version at both pointer sizes, with every field set
	 * (wide values: the 8-byte stores must not leak), also when the
	 * buffer ends exactly at the payload (the planned path's exact tail)
	 * or one byte short (both fail). */
	for (unsigned ps = 4; ps <= 8; ps += 4) {
		unsigned differ = 0, tight = 0, events = 0;

		for (unsigned ev = 0; ev < GCSPEC_NEVENTS; ev++) {
			static uint8_t want[4096], got[4096];
			struct gen_encode_plan plan;
			const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[ev]);
			long nw, ng;

			gen_values_reset(&v, ev);
			for (unsigned i = 0; i < v.nfields; i++) {
				if (f[i].is_member)
					continue;
				if (v.field[i].kind == GEN_VK_TEXT)
					gen_values_set_text_at(&v, i, "T\xC3\xA9xt", 5);
				else if (v.field[i].kind == GEN_VK_BYTES)
					gen_values_set_bytes_at(&v, i, "0123456789abcdef", 16);
				else
					gen_values_set_num_at(&v, i, 0xF1E2D3C4B5A69788ull * (i + 1));
			}
			for (unsigned r = 0; v.struct_field >= 0 && r < 3; r++) {
				int row = gen_values_add_row(&v);

				for (unsigned m = 0; m < v.nmembers; m++) {
					struct gen_value *c = gen_values_cell(&v, (unsigned)row,
									      (unsigned)v.struct_field + 1 + m);

					if (c->kind == GEN_VK_NUM || c->kind == GEN_VK_DOUBLE)
						c->u = 0x8877665544332211ull * (r + m + 1);
				}
			}
			if (gen_encode_plan_build(&plan, ev, ps) < 0)
				continue;
			events++;
			nw = gen_encode(&v, ps, want, sizeof want);
			ng = gen_encode_planned(&plan, &v, got, sizeof got);
			differ += nw < 0 || ng != nw || memcmp(want, got, (size_t)nw) != 0;
			memset(got, 0, sizeof got);
			ng = gen_encode_planned(&plan, &v, got, (size_t)nw);
			tight += ng != nw || memcmp(want, got, (size_t)nw) != 0;
			tight += nw > 0 && gen_encode_planned(&plan, &v, got, (size_t)nw - 1) != -1;
		}
		tap_ok(events == GCSPEC_NEVENTS && differ == 0,
		       "pointer size %u: the planned encoder matches the spec walk for all %u event-versions (%u differ)",
		       ps, events, differ);
		tap_ok(tight == 0, "pointer size %u: and in a buffer of exactly the payload's size, or one byte short (%u wrong)",
		       ps, tight);
	}
	/* Direct mode (payloads written in place, no values kept) writes what
	 * the encoder writes from values, for every event-version at both
	 * pointer sizes, fields set in reverse template order (a store must
	 * not reach its neighbours), numbers, texts and three rows; GUIDs and
	 * Binary are not set in place (their setters take values only). Each
	 * event twice: first with nothing set (zeros, empty strings: what a
	 * previous event left must not show), then with everything. */
	for (unsigned ps = 4; ps <= 8; ps += 4) {
		struct gen_sink sk = { capture, "" };
		struct gen_emit e;
		unsigned differ = 0, inplace = 0;

		if (gen_emit_init(&e, ps, ~0ull, 5, &sk) < 0)
			return 1;
		e.direct = 1;
		for (unsigned pass = 0; pass < 2 * GCSPEC_NEVENTS; pass++) {
			static uint8_t want[4096];
			unsigned ev = pass / 2;
			const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[ev]);
			long nw;

			if (gen_values_reset(&v, ev) < 0 || gen_emit_begin_always(&e, (int)ev) != 1) {
				differ++;
				continue;
			}
			inplace += pass % 2 && e.cur != NULL;
			for (unsigned k = pass % 2 ? v.nfields : 0; k-- > 0;) {
				uint64_t x = 0xF1E2D3C4B5A69788ull * (k + 1);

				if (f[k].is_member || f[k].type == GCSPEC_STRUCT ||
				    v.field[k].kind == GEN_VK_BYTES)
					continue;
				if (v.field[k].kind == GEN_VK_TEXT) {
					static const char text[] = "T\xC3\xA9xt \xF0\x9F\x98\x80 long enough";

					gen_values_set_text_at(&v, k, text, sizeof text - 1);
					gen_emit_text(&e, k, text, sizeof text - 1);
				} else {
					gen_values_set_num_at(&v, k, x);
					gen_emit_num(&e, k, x);
				}
			}
			for (unsigned r = 0; pass % 2 && v.struct_field >= 0 && r < 3; r++) {
				int row = gen_values_add_row(&v), erow = gen_emit_add_row(&e);

				for (unsigned m = v.nmembers; m-- > 0;) {
					unsigned idx = (unsigned)v.struct_field + 1 + m;
					struct gen_value *c = gen_values_cell(&v, (unsigned)row, idx);

					if (c->kind != GEN_VK_NUM && c->kind != GEN_VK_DOUBLE)
						continue;
					c->u = 0x8877665544332211ull * (r + m + 1);
					gen_emit_member(&e, (unsigned)erow, idx, c->u);
				}
			}
			nw = gen_encode(&v, ps, want, sizeof want);
			if (gen_emit_send(&e, 1000, 1, 0) < 0 || nw < 0 || nsunk != nw ||
			    memcmp(sunk, want, (size_t)nw) != 0)
				differ++;
		}
		tap_ok(differ == 0 && inplace > GCSPEC_NEVENTS / 2,
		       "pointer size %u: direct mode writes the encoder's bytes for all %u event-versions "
		       "(%u written in place, %u differ)", ps, GCSPEC_NEVENTS, inplace, differ);
		gen_emit_fini(&e);
	}
	return tap_done();
}
