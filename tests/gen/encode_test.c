/* encode_test.c - the payload encoder against bytes written out by hand. */
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "tap.h"

static struct gen_values v;
static uint8_t buf[4096];

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
	return tap_done();
}
