/*
 * reader_test.c - the CTF reader on traces built here byte by byte, in the
 * shapes LTTng writes and gcgen does not: the compact event header (5-bit id,
 * 27-bit time, wrap-around), the procname context, a big-endian trace,
 * plain-text and packetized metadata; every metadata diagnostic with its
 * offset; the fast paths against the generic interpreter; and a gcgen trace
 * cut at every byte and corrupted at random, which must never crash or hang.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/formats/ctf/ctf_r.h"
#include "gen/formats/ctf/ctf_w.h"
#include "gen/model/emit.h"
#include "spec/gcspec.h"
#include "gen/model/profiles.h"
#include "gen/model/rng.h"
#include "gen/model/sim.h"
#include "tap.h"

static char dir[64];

static void clear_dir(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char p[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
}

static void put_file(const char *name, const void *data, size_t len)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	f = fopen(p, "wb");
	if (!f || fwrite(data, 1, len, f) != len) {
		perror(p);
		exit(99);
	}
	fclose(f);
}

/* --- bytes ------------------------------------------------------------ */

struct bb {
	uint8_t b[16384];
	size_t n;
};

static void le(struct bb *b, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void be(struct bb *b, uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		b->b[b->n++] = (uint8_t)(v >> (8 * i));
}

static void raw(struct bb *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

/* --- reading -------------------------------------------------------------- */

#define MAXEV 64
#define MAXD 64

struct readout {
	int opened;
	unsigned n, nd;
	struct {
		uint64_t ts, tid, offset;
		int provider;
		unsigned id, version;
		uint8_t payload[512];
		uint32_t len;
	} ev[MAXEV];
	struct {
		unsigned code;
		uint64_t offset;
		char file[32];
		uint64_t file_offset;
	} d[MAXD];
	struct ctfr_counts counts;
};

static struct ctfr_reader *cur;

static void report(void *arg, unsigned code, uint64_t event, uint64_t offset, const char *msg)
{
	struct readout *o = arg;

	(void)event;
	(void)msg;
	if (o->nd < MAXD) {
		const char *f = cur ? ctfr_locate(cur, offset, &o->d[o->nd].file_offset) : NULL;

		o->d[o->nd].code = code;
		o->d[o->nd].offset = offset;
		snprintf(o->d[o->nd].file, sizeof o->d[o->nd].file, "%s", f ? f : "?");
		o->nd++;
	}
}

static void read_trace(unsigned flags, struct readout *o)
{
	struct or_stream_info info;
	struct or_event ev;

	memset(o, 0, sizeof *o);
	memset(&info, 0, sizeof info);
	cur = NULL;
	o->opened = ctfr_open(&cur, dir, report, o, &info, flags) == 0;
	if (!o->opened)
		return;
	while (ctfr_next(cur, &ev) == OR_EVENT) {
		if (o->n < MAXEV) {
			o->ev[o->n].ts = ev.timestamp;
			o->ev[o->n].tid = ev.thread_id;
			o->ev[o->n].offset = ev.offset;
			o->ev[o->n].provider = ev.provider;
			o->ev[o->n].id = ev.id;
			o->ev[o->n].version = ev.version;
			o->ev[o->n].len = ev.payload_len < 512 ? ev.payload_len : 512;
			if (o->ev[o->n].len)
				memcpy(o->ev[o->n].payload, ev.payload, o->ev[o->n].len);
		}
		o->n++;
	}
	ctfr_counts(cur, &o->counts);
	ctfr_close(cur);
	cur = NULL;
}

/* The diagnostic with this code: its index, or -1. */
static int find(const struct readout *o, unsigned code)
{
	for (unsigned i = 0; i < o->nd; i++)
		if (o->d[i].code == code)
			return (int)i;
	return -1;
}

static int same_events(const struct readout *a, const struct readout *b)
{
	if (a->n != b->n || a->nd != b->nd)
		return 0;
	for (unsigned i = 0; i < a->n && i < MAXEV; i++)
		if (a->ev[i].ts != b->ev[i].ts || a->ev[i].tid != b->ev[i].tid || a->ev[i].id != b->ev[i].id ||
		    a->ev[i].len != b->ev[i].len || memcmp(a->ev[i].payload, b->ev[i].payload, a->ev[i].len) != 0)
			return 0;
	for (unsigned i = 0; i < a->nd; i++)
		if (a->d[i].code != b->d[i].code || a->d[i].offset != b->d[i].offset)
			return 0;
	return 1;
}

/* --- an LTTng-shaped trace with the compact header ------------------------ */

static const char *types_le =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n";

static const char *compact_rest =
	"trace { major = 1; minor = 8; uuid = \"7e11ed44-8ceb-40d6-a21e-6095adec5a1a\"; byte_order = le;\n"
	"  packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; }; };\n"
	"env { domain = \"ust\"; architecture_bit_width = 64; };\n"
	"clock { name = \"monotonic\"; freq = 1000000000; offset = 1000; };\n"
	"typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; } := uint27_clock_monotonic_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
	"struct packet_context { uint64_clock_monotonic_t timestamp_begin; uint64_clock_monotonic_t timestamp_end;\n"
	"  uint64_t content_size; uint64_t packet_size; unsigned long events_discarded; uint32_t cpu_id; };\n"
	"struct event_header_compact { enum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"  variant <id> { struct { uint27_clock_monotonic_t timestamp; } compact;\n"
	"                 struct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended; } v; } align(8);\n"
	"stream { id = 0; event.header := struct event_header_compact; packet.context := struct packet_context;\n"
	"  event.context := struct { integer { size = 32; align = 8; signed = 1; } _vpid;\n"
	"    integer { size = 32; align = 8; signed = 1; } _vtid;\n"
	"    integer { size = 8; align = 8; signed = 1; encoding = UTF8; } _procname[17]; }; };\n"
	"event { name = \"DotNETRuntime:GCStart_V2\"; id = 0; stream_id = 0; loglevel = 13;\n"
	"  fields := struct { uint32_t _Count; uint32_t _Depth; uint32_t _Reason; uint32_t _Type;\n"
	"    uint16_t _ClrInstanceID; uint64_t _ClientSequenceNumber; }; };\n"
	"event { name = \"DotNETRuntime:GCEnd_V1\"; id = 1; stream_id = 0;\n"
	"  fields := struct { uint32_t _Count; uint32_t _Depth; uint16_t _ClrInstanceID; }; };\n"
	"event { name = \"DotNETRuntime:GCHeapStats_V2\"; id = 2; stream_id = 0;\n"
	"  fields := struct { integer { size = 32; align = 8; signed = 0; } _length;\n"
	"    integer { size = 32; align = 8; signed = 0; } ____data___length;\n"
	"    integer { size = 8; align = 8; signed = 1; } ___data__[ ____data___length ]; }; };\n"
	"event { name = \"lttng_ust_statedump:start\"; id = 3; stream_id = 0; fields := struct { }; };\n";

static const uint8_t trace_uuid[16] = { 0x7e, 0x11, 0xed, 0x44, 0x8c, 0xeb, 0x40, 0xd6,
					0xa2, 0x1e, 0x60, 0x95, 0xad, 0xec, 0x5a, 0x1a };

#define T0 ((5ull << 27) + (1ull << 27) - 20)

static size_t context_at; /* where content_size goes */

static void packet_start(struct bb *b, uint64_t begin, uint64_t end)
{
	le(b, 0xC1FC1FC1u, 4);
	raw(b, trace_uuid, 16);
	le(b, 0, 4);           /* stream_id */
	le(b, begin, 8);
	le(b, end, 8);
	context_at = b->n;
	le(b, 0, 8);           /* content_size, filled in by packet_end */
	le(b, 0, 8);           /* packet_size */
	le(b, 0, 8);           /* events_discarded */
	le(b, 1, 4);           /* cpu_id */
}

static void packet_end(struct bb *b, size_t start, size_t pad_to)
{
	size_t content = b->n - start;

	while (b->n - start < pad_to)
		b->b[b->n++] = 0;
	for (int i = 0; i < 8; i++) {
		b->b[start + context_at + i] = (uint8_t)((uint64_t)content * 8 >> (8 * i));
		b->b[start + context_at + 8 + i] = (uint8_t)((uint64_t)(b->n - start) * 8 >> (8 * i));
	}
}

static void context(struct bb *b, uint32_t tid)
{
	static const char proc[17] = "app";

	le(b, 4242, 4);
	le(b, tid, 4);
	raw(b, proc, 17);
}

static void gcstart_fields(struct bb *b)
{
	le(b, 1, 4);
	le(b, 2, 4);
	le(b, 3, 4);
	le(b, 0, 4);
	le(b, 7, 2);
	le(b, 42, 8);
}

static void gcend_fields(struct bb *b)
{
	le(b, 1, 4);
	le(b, 2, 4);
	le(b, 7, 2);
}

/* Three events: extended header, compact, compact across a 27-bit wrap;
 * then a packed GCHeapStats_V2 and an event of another provider. */
static void build_compact(struct bb *s)
{
	uint8_t heapstats[110];

	s->n = 0;
	packet_start(s, T0 - 1, T0 + 40);
	/* extended: id 31 in 5 bits, then (byte-aligned) u32 id and u64 time */
	le(s, 31, 1);
	le(s, 0, 4);
	le(s, T0, 8);
	context(s, 4243);
	gcstart_fields(s);
	le(s, 1u | (uint32_t)((T0 + 10) & ((1u << 27) - 1)) << 5, 4);
	context(s, 4244);
	gcend_fields(s);
	le(s, 1u | (uint32_t)((T0 + 30) & ((1u << 27) - 1)) << 5, 4);
	context(s, 4244);
	gcend_fields(s);
	for (unsigned i = 0; i < sizeof heapstats; i++)
		heapstats[i] = (uint8_t)i;
	le(s, 2u | (uint32_t)((T0 + 35) & ((1u << 27) - 1)) << 5, 4);
	context(s, 4245);
	le(s, 110, 4);
	le(s, 110, 4);
	raw(s, heapstats, 110);
	le(s, 3u | (uint32_t)((T0 + 40) & ((1u << 27) - 1)) << 5, 4);
	context(s, 4245);
	packet_end(s, 0, 4096);
}

static void write_compact_trace(void)
{
	char meta[8192];
	struct bb s;

	clear_dir();
	snprintf(meta, sizeof meta, "%s%s", types_le, compact_rest);
	put_file("metadata", meta, strlen(meta));
	build_compact(&s);
	put_file("channel0_1", s.b, s.n);
}

static void test_compact(void)
{
	struct readout fast, gen;
	static const uint8_t start_payload[] = { 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 7, 0,
						 42, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t end_payload[] = { 1, 0, 0, 0, 2, 0, 0, 0, 7, 0 };
	int ok;

	write_compact_trace();
	read_trace(0, &fast);
	read_trace(CTFR_GENERIC, &gen);
	tap_ok(fast.opened && fast.n == 5 && fast.nd == 0, "compact header trace: 5 events, no diagnostic (%u, %u)",
	       fast.n, fast.nd);
	tap_ok(fast.ev[0].ts == T0 && fast.ev[1].ts == T0 + 10 && fast.ev[2].ts == T0 + 30,
	       "extended then compact 27-bit times, across a wrap: %llu %llu %llu",
	       (unsigned long long)fast.ev[0].ts, (unsigned long long)fast.ev[1].ts,
	       (unsigned long long)fast.ev[2].ts);
	tap_ok(fast.ev[0].provider == 0 && fast.ev[0].id == 1 && fast.ev[0].version == 2 &&
	       fast.ev[1].id == 2 && fast.ev[1].version == 1,
	       "classes map to GCStart_V2 (1, v2) and GCEnd_V1 (2, v1)");
	tap_ok(fast.ev[0].tid == 4243 && fast.ev[1].tid == 4244, "vtid from the event context (procname after it)");
	tap_ok(fast.ev[0].len == sizeof start_payload &&
	       memcmp(fast.ev[0].payload, start_payload, sizeof start_payload) == 0 &&
	       fast.ev[1].len == sizeof end_payload && memcmp(fast.ev[1].payload, end_payload, sizeof end_payload) == 0,
	       "typed fields become the ETW payload byte for byte");
	ok = fast.ev[3].id == 4 && fast.ev[3].version == 2 && fast.ev[3].len == 110;
	for (unsigned i = 0; ok && i < 110; i++)
		ok = fast.ev[3].payload[i] == i;
	tap_ok(ok, "packed GCHeapStats_V2: the __data__ bytes are the payload");
	tap_ok(fast.ev[4].provider == -1 && fast.ev[4].len == 0, "a class of another provider is passed on as such");
	tap_ok(same_events(&fast, &gen), "the generic interpreter reads the same events and payloads");
	tap_ok(fast.counts.fast_events == 4 && gen.counts.fast_events == 0,
	       "typed and packed fields took the fast path (%llu), none with CTFR_GENERIC",
	       (unsigned long long)fast.counts.fast_events);
}

/* --- the same trace, big-endian, with an id/timestamp header ---------------- */

static void test_big_endian(void)
{
	static const char *meta =
		"/* CTF 1.8 */\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"trace { major = 1; minor = 8; byte_order = be; packet.header := struct { uint32_t magic; }; };\n"
		"clock { name = c; freq = 1000000000; };\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;\n"
		"stream { event.header := struct { uint16_t id; ts_t timestamp; };\n"
		"  packet.context := struct { uint64_t content_size; uint64_t packet_size; };\n"
		"  event.context := struct { integer { size = 32; align = 32; signed = true; } _vtid; }; };\n"
		"event { name = \"DotNETRuntime:GCEnd_V1\"; id = 0;\n"
		"  fields := struct { uint32_t _Count; uint32_t _Depth; uint16_t _ClrInstanceID; }; };\n"
		"event { name = \"DotNETRuntime:GCHeapStats_V2\"; id = 1;\n"
		"  fields := struct { uint32_t _length; uint32_t ____data___length;\n"
		"    integer { size = 8; align = 8; signed = 1; } ___data__[ ____data___length ]; }; };\n";
	static const uint8_t end_payload[] = { 9, 0, 0, 0, 1, 0, 0, 0, 3, 0 };
	struct bb s = { .n = 0 };
	struct readout fast, gen;

	clear_dir();
	put_file("metadata", meta, strlen(meta));
	be(&s, 0xC1FC1FC1u, 4);
	be(&s, 0, 8);        /* content_size, below */
	be(&s, 0, 8);
	be(&s, 0, 2);        /* GCEnd_V1 */
	be(&s, 500, 8);
	be(&s, 0, 2);        /* padding to the 32-bit aligned vtid */
	be(&s, 77, 4);
	be(&s, 9, 4);
	be(&s, 1, 4);
	be(&s, 3, 2);
	be(&s, 1, 2);        /* GCHeapStats_V2, packed */
	be(&s, 600, 8);
	be(&s, 78, 4);
	be(&s, 3, 4);
	be(&s, 3, 4);
	raw(&s, "\x01\x02\x03", 3);
	/* (the second header ends 32-bit aligned: no padding before vtid) */
	for (int i = 0; i < 8; i++) {
		s.b[4 + i] = (uint8_t)((uint64_t)s.n * 8 >> (8 * (7 - i)));
		s.b[12 + i] = (uint8_t)((uint64_t)s.n * 8 >> (8 * (7 - i)));
	}
	put_file("stream", s.b, s.n);
	read_trace(0, &fast);
	read_trace(CTFR_GENERIC, &gen);
	tap_ok(fast.opened && fast.n == 2 && fast.nd == 0, "big-endian trace: 2 events, no diagnostic (%u, %u)",
	       fast.n, fast.nd);
	tap_ok(fast.ev[0].ts == 500 && fast.ev[0].tid == 77 && fast.ev[1].ts == 600 && fast.ev[1].tid == 78,
	       "big-endian times and a 32-bit aligned vtid");
	tap_ok(fast.ev[0].len == sizeof end_payload && memcmp(fast.ev[0].payload, end_payload, sizeof end_payload) == 0,
	       "big-endian typed fields become the little-endian ETW payload");
	tap_ok(fast.ev[1].len == 3 && memcmp(fast.ev[1].payload, "\x01\x02\x03", 3) == 0,
	       "a big-endian packed event's bytes are its payload");
	tap_ok(same_events(&fast, &gen), "fast and generic agree on the big-endian trace");
}

/* --- packetized metadata ------------------------------------------------- */

/* Cut text into metadata packets of at most `chunk` text bytes. */
static size_t packetize(const char *text, size_t len, size_t chunk, uint8_t *out)
{
	size_t o = 0;

	for (size_t at = 0; at < len; at += chunk) {
		size_t n = len - at < chunk ? len - at : chunk;
		struct bb h = { .n = 0 };

		le(&h, 0x75D11D57u, 4);
		raw(&h, trace_uuid, 16);
		le(&h, 0, 4);
		le(&h, (37 + n) * 8, 4);
		le(&h, (37 + chunk) * 8, 4);
		le(&h, 0, 4);  /* compression, encryption, checksum scheme */
		h.n--;         /* ... they are 3 bytes */
		le(&h, 1, 1);
		le(&h, 8, 1);
		memcpy(out + o, h.b, 37);
		memcpy(out + o + 37, text + at, n);
		memset(out + o + 37 + n, 0, chunk - n);
		o += 37 + chunk;
	}
	return o;
}

static void test_packetized(void)
{
	static uint8_t pk[65536];
	char meta[8192];
	struct readout plain, packed, bad;
	size_t len, n, at;

	snprintf(meta, sizeof meta, "%s%s", types_le, compact_rest);
	len = strlen(meta);
	write_compact_trace();
	read_trace(0, &plain);
	n = packetize(meta, len, 700, pk);
	put_file("metadata", pk, n);
	read_trace(0, &packed);
	tap_ok(packed.opened && same_events(&plain, &packed),
	       "metadata in packets of 700 text bytes (cut mid-token) reads like the plain text");
	/* A bad character in the fourth packet: reported at its file offset. */
	at = strlen(types_le) + 2000;
	while (meta[at] != ';')
		at++;
	meta[at] = '@';
	n = packetize(meta, len, 700, pk);
	put_file("metadata", pk, n);
	read_trace(0, &bad);
	tap_ok(!bad.opened && find(&bad, GCSPEC_DIAG_C004) >= 0 &&
	       bad.d[find(&bad, GCSPEC_DIAG_C004)].file_offset == at / 700 * 737 + 37 + at % 700,
	       "a TSDL syntax error is reported at its metadata file offset across packets (%llu)",
	       (unsigned long long)(at / 700 * 737 + 37 + at % 700));
}

/* --- metadata diagnostics --------------------------------------------------- */

static void meta_case(const char *text, unsigned code, long offset, const char *what)
{
	struct readout o;
	struct bb s;
	int k;

	clear_dir();
	put_file("metadata", text, strlen(text));
	build_compact(&s);
	put_file("channel0_1", s.b, s.n);
	read_trace(0, &o);
	k = find(&o, code);
	tap_ok(!o.opened && k >= 0 && (offset < 0 || o.d[k].file_offset == (uint64_t)offset) &&
	       strcmp(o.d[k].file, "metadata") == 0,
	       "%s: %s%s", what, gcspec_diags[code].code,
	       k >= 0 && offset >= 0 && o.d[k].file_offset != (uint64_t)offset ? " (wrong offset)" : "");
}

static void test_metadata_errors(void)
{
	char t[8192];
	struct readout o;
	const char *hash = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n # ";

	meta_case("typealias integer { size = 8; } := u8;\n", GCSPEC_DIAG_C003, 0,
		  "plain metadata without the /* CTF 1.8 signature");
	meta_case(hash, GCSPEC_DIAG_C004, (long)(strchr(hash, '#') - hash), "a character TSDL does not have");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; }", GCSPEC_DIAG_C004, -1,
		  "a block without its ';'");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n", GCSPEC_DIAG_C005, -1,
		  "a trace block without byte_order");
	meta_case("/* CTF 1.8 */\ntrace { major = 2; minor = 0; byte_order = le; };\n", GCSPEC_DIAG_C003, -1,
		  "CTF 2.0");
	snprintf(t, sizeof t, "%s%s", types_le,
		 "trace { major = 1; minor = 8; byte_order = le; packet.header := struct { uint99_t magic; }; };\n");
	meta_case(t, GCSPEC_DIAG_C005, -1, "an undefined type");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le;\n"
		  "  packet.header := struct { integer { size = 65; } magic; }; };\n", GCSPEC_DIAG_C005, -1,
		  "an integer of 65 bits");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le;\n"
		  "  packet.header := struct { integer { size = 8; align = 3; } magic; }; };\n", GCSPEC_DIAG_C005, -1,
		  "an alignment of 3 bits");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
		  "event { name = a; id = 0; fields := struct { integer { size = 8; } x[ nowhere ]; }; };\n",
		  GCSPEC_DIAG_C005, -1, "a sequence whose length names no field");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
		  "event { name = a; id = 1; }; event { name = b; id = 1; };\n", GCSPEC_DIAG_C005, -1,
		  "two event classes with one id");
	meta_case("/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
		  "event { name = a; stream_id = 4; };\n", GCSPEC_DIAG_C005, -1,
		  "an event class of an undeclared stream");
	/* No metadata at all, or an empty one. */
	clear_dir();
	put_file("channel0_0", "x", 1);
	read_trace(0, &o);
	tap_ok(!o.opened && find(&o, GCSPEC_DIAG_C001) >= 0, "a directory without metadata: GC-C001");
	put_file("metadata", "", 0);
	read_trace(0, &o);
	tap_ok(!o.opened && find(&o, GCSPEC_DIAG_C001) >= 0, "an empty metadata file: GC-C001");
}

/* --- stream diagnostics that gcgen's faults do not make ------------------- */

static void test_stream_errors(void)
{
	struct readout o, g;
	struct bb s;
	char meta[8192];
	int k;

	/* A variant tag no option answers. */
	clear_dir();
	{
		const char *m = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
			"typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
			"stream { event.header := struct { enum : u8 { a = 0, b = 1 } id; variant <id> { struct { } a; struct { u8 x; } b; } v; }; };\n"
			"event { name = first; id = 0; }; event { name = second; id = 1; };\n";

		put_file("metadata", m, strlen(m));
	}
	put_file("stream", "\x00\x01\x07\x05\x00", 5);
	read_trace(0, &o);
	k = find(&o, GCSPEC_DIAG_C012);
	tap_ok(o.opened && o.n == 2 && k >= 0 && o.d[k].file_offset == 3 && strcmp(o.d[k].file, "stream") == 0,
	       "a variant tag that selects no option: GC-C012 at the event, the events before it read");
	/* Hostile sequence length: an overrun, at once. */
	write_compact_trace();
	build_compact(&s);
	s.b[68 + 13 + 25 + 26 + 4 + 25 + 10 + 4 + 25 + 10 + 4 + 25 + 4] = 0xFF; /* GCHeapStats count */
	s.b[68 + 13 + 25 + 26 + 4 + 25 + 10 + 4 + 25 + 10 + 4 + 25 + 5] = 0xFF;
	s.b[68 + 13 + 25 + 26 + 4 + 25 + 10 + 4 + 25 + 10 + 4 + 25 + 6] = 0xFF;
	s.b[68 + 13 + 25 + 26 + 4 + 25 + 10 + 4 + 25 + 10 + 4 + 25 + 7] = 0x7F;
	put_file("channel0_1", s.b, s.n);
	read_trace(0, &o);
	read_trace(CTFR_GENERIC, &g);
	tap_ok(o.n == 3 && find(&o, GCSPEC_DIAG_C012) >= 0 && g.n == 3 && find(&g, GCSPEC_DIAG_C012) >= 0,
	       "a sequence count of 2^31 - 1: GC-C012, fast and generic (%u, %u events)", o.n, g.n);
	/* An event id no class has (compact id 9). */
	build_compact(&s);
	s.b[68 + 13 + 25 + 26] = (uint8_t)((s.b[68 + 13 + 25 + 26] & ~31u) | 9u);
	put_file("channel0_1", s.b, s.n);
	read_trace(0, &o);
	k = find(&o, GCSPEC_DIAG_C013);
	tap_ok(o.n == 1 && k >= 0 && o.d[k].file_offset == 68 + 13 + 25 + 26,
	       "an event id without a class: GC-C013 at the event, the rest of the packet dropped");
	/* The file ends inside the packet header. */
	build_compact(&s);
	put_file("channel0_1", s.b, 30);
	read_trace(0, &o);
	k = find(&o, GCSPEC_DIAG_C011);
	tap_ok(o.opened && o.n == 0 && k >= 0 && o.d[k].file_offset == 0, "a file that ends inside a packet header: GC-C011");
	/* Two stream classes, no stream_id in the packet header. */
	clear_dir();
	{
		const char *m = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le; };\n"
			"stream { id = 0; }; stream { id = 1; };\n";

		put_file("metadata", m, strlen(m));
	}
	put_file("s", "\x00", 1);
	read_trace(0, &o);
	tap_ok(o.opened && find(&o, GCSPEC_DIAG_C009) >= 0, "several stream classes and no stream_id: GC-C009");
	/* A typed class whose field is not the template's width. */
	snprintf(meta, sizeof meta, "%s%s", types_le, compact_rest);
	{
		char *f = strstr(meta, "_Count; uint32_t _Depth; uint16_t _ClrInstanceID; }; };");

		memcpy(f - 9, "uint16_t", 8);
	}
	clear_dir();
	put_file("metadata", meta, strlen(meta));
	build_compact(&s);
	put_file("channel0_1", s.b, s.n);
	read_trace(0, &o);
	k = find(&o, GCSPEC_DIAG_C006);
	tap_ok(o.opened && k >= 0 && o.counts.events_skipped > 0,
	       "a GCEnd_V1 class with a 16-bit Count: GC-C006 once, its events passed over (%llu)",
	       (unsigned long long)o.counts.events_skipped);
}

/* --- UTF-8 strings ------------------------------------------------------- */

static void test_strings(void)
{
	char meta[8192];
	struct bb s;
	struct readout f, g;
	static const uint8_t name[] = "A\xF0\x9F\x98\x80" "B\xC3\x28";
	size_t at;

	snprintf(meta, sizeof meta, "%s%s%s", types_le, compact_rest,
		 "event { name = \"DotNETRuntime:GCAllocationTick_V2\"; id = 4; stream_id = 0;\n"
		 "  fields := struct { uint32_t _AllocationAmount; uint32_t _AllocationKind; uint16_t _ClrInstanceID;\n"
		 "  uint64_t _AllocationAmount64; uint64_t _TypeID; string _TypeName; uint32_t _HeapIndex; }; };\n");
	clear_dir();
	put_file("metadata", meta, strlen(meta));
	s.n = 0;
	packet_start(&s, 0, 100);
	le(&s, 31, 1);
	le(&s, 4, 4);
	le(&s, 50, 8);
	context(&s, 1);
	le(&s, 100, 4);
	le(&s, 0, 4);
	le(&s, 7, 2);
	le(&s, 100, 8);
	le(&s, 0x1234, 8);
	at = s.n;
	raw(&s, name, sizeof name);
	le(&s, 0, 4);
	packet_end(&s, 0, 4096);
	put_file("channel0_1", s.b, s.n);
	read_trace(0, &f);
	read_trace(CTFR_GENERIC, &g);
	{
		/* A, U+1F600 as a surrogate pair, B, U+FFFD, '(' and NUL */
		static const uint8_t want[] = { 'A', 0, 0x3D, 0xD8, 0x00, 0xDE, 'B', 0, 0xFD, 0xFF, '(', 0, 0, 0 };
		const uint8_t *p = f.ev[0].payload + 26;

		tap_ok(f.n == 1 && f.ev[0].len == 26 + sizeof want + 4 && memcmp(p, want, sizeof want) == 0,
		       "a UTF-8 string becomes UTF-16LE (surrogate pair for U+1F600, U+FFFD for a bad byte)");
	}
	tap_ok(find(&f, GCSPEC_DIAG_C017) >= 0 && f.d[find(&f, GCSPEC_DIAG_C017)].file_offset == at &&
	       find(&g, GCSPEC_DIAG_C017) >= 0 && same_events(&f, &g),
	       "GC-C017 at the string, fast and generic alike");
}

/* --- gcgen traces, cut and corrupted ------------------------------------------- */

struct wsink {
	struct gen_sink sink;
	struct gen_writer *w;
};

static int wsink_event(struct gen_sink *s, struct gen_event *ev)
{
	struct wsink *ws = (struct wsink *)s;

	return ws->w->ops->event(ws->w, ev);
}

static int write_gcgen_trace(unsigned gcs)
{
	struct gen_stream_info info;
	struct gen_writer *w = gen_write_ctf_ops.create();
	struct wsink ws;
	struct gen_emit e;
	const struct gen_profile *p = gen_profile_find("net8");
	struct gen_sim_config cfg = { p, 3, gcs, 0, 0, 10000000, 1000000000, NULL, NULL };
	int rc;

	clear_dir();
	memset(&info, 0, sizeof info);
	info.pointer_size = 8;
	info.clock_frequency = 10000000;
	info.start_ticks = 1000000000;
	info.start_unix_ns = 1700000000ull * 1000000000ull;
	info.process_id = 4242;
	info.nprocessors = 8;
	info.profile = "net8";
	info.mode = "realistic";
	w->ops = &gen_write_ctf_ops;
	ws.sink.event = wsink_event;
	ws.w = w;
	rc = w->ops->begin_dir(w, dir, &info) || gen_emit_init(&e, 8, 3, 5, &ws.sink) ||
	     gen_sim_run(&cfg, &e) || w->ops->end(w);
	gen_emit_fini(&e);
	w->ops->destroy(w);
	return rc ? -1 : 0;
}

static size_t file_size(const char *name)
{
	char p[512];
	struct stat st;

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return stat(p, &st) == 0 ? (size_t)st.st_size : 0;
}

static uint8_t *slurp(const char *name, size_t *len)
{
	char p[512];
	FILE *f;
	uint8_t *b;

	*len = file_size(name);
	snprintf(p, sizeof p, "%s/%s", dir, name);
	if (!(f = fopen(p, "rb")) || !(b = malloc(*len + 1)) || fread(b, 1, *len, f) != *len)
		exit(99);
	fclose(f);
	return b;
}

static void test_truncation(void)
{
	struct readout full, o;
	uint8_t *data;
	size_t len;
	unsigned bad = 0, silent = 0, prev, cuts = 0;
	char p[512];

	if (!tap_ok(write_gcgen_trace(2) == 0 && file_size("channel0_1") > 0,
		    "gcgen's writer makes a 2-GC trace with a stream file channel0_1"))
		return;
	read_trace(0, &full);
	data = slurp("channel0_1", &len);
	snprintf(p, sizeof p, "%s/channel0_1", dir);
	prev = full.n;
	/* From the last byte down: each cut only shortens the file. */
	for (size_t cut = len; cut-- > 0;) {
		if (truncate(p, (off_t)cut) != 0)
			exit(99);
		read_trace(0, &o);
		cuts++;
		/* Fewer events the earlier the cut; C011 unless it is at 0. */
		if (o.n > prev)
			bad++;
		prev = o.n;
		if (cut && find(&o, GCSPEC_DIAG_C011) < 0)
			silent++;
	}
	put_file("channel0_1", data, len);
	free(data);
	tap_ok(full.n > 0 && !bad, "cut at each of %u bytes: never more events than a longer cut gave (%u bad)",
	       cuts, bad);
	tap_ok(!silent, "every cut inside the packet reports GC-C011 (%u silent)", silent);
}

static void test_corruption(void)
{
	struct gen_rng rng;
	struct readout o;
	uint8_t *meta, *chan;
	size_t mlen, clen;
	unsigned runs = 0, opened = 0;

	if (write_gcgen_trace(3) < 0)
		return;
	meta = slurp("metadata", &mlen);
	chan = slurp("channel0_1", &clen);
	gen_rng_seed(&rng, 7);
	for (int i = 0; i < 1000; i++) {
		uint8_t *m = malloc(mlen), *c = malloc(clen);
		int nflip = 1 + (int)gen_rng_below(&rng, 4);

		memcpy(m, meta, mlen);
		memcpy(c, chan, clen);
		for (int k = 0; k < nflip; k++) {
			if (gen_rng_below(&rng, 3) == 0)
				m[gen_rng_below(&rng, mlen)] ^= (uint8_t)(1u << gen_rng_below(&rng, 8));
			else
				c[gen_rng_below(&rng, clen)] = (uint8_t)gen_rng_next(&rng);
		}
		put_file("metadata", m, mlen);
		put_file("channel0_1", c, clen);
		read_trace(i & 1 ? CTFR_GENERIC : 0, &o);
		opened += o.opened;
		runs++;
		free(m);
		free(c);
	}
	free(meta);
	free(chan);
	tap_ok(runs == 1000 && opened > 0, "1000 randomly corrupted traces read to their end without a crash (%u opened)",
	       opened);
}

int main(void)
{
	snprintf(dir, sizeof dir, "/tmp/ctfr-test.XXXXXX");
	if (!mkdtemp(dir))
		return 99;
	test_compact();
	test_big_endian();
	test_packetized();
	test_metadata_errors();
	test_stream_errors();
	test_strings();
	test_truncation();
	test_corruption();
	clear_dir();
	rmdir(dir);
	return tap_done();
}
