/*
 * cbor_bench.c - the model stream's CBOR layer, two ways: gcoracle's
 * in-place scanner (oracle/formats/model/model_scan.c) and libcbor's streaming decoder
 * (cbor_stream_decode with callbacks), doing the same work: find each event
 * map, take its header fields, provider, name and payload, step over its
 * "fields". Payload decoding and checking are left out: only the CBOR
 * layer is compared. Both read the same buffers of the same file.
 *
 * usage: cbor_bench FILE [ours|libcbor|both]
 * Prints, per way: events, CPU seconds, ns per event, MB/s; and a checksum
 * of what was read, which must agree between the two.
 */
#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/formats/model/model_scan.h"

struct sum {
	uint64_t events, check;
};

static void fold(struct sum *s, const struct or_event *ev)
{
	s->events++;
	s->check = s->check * 31 + ev->timestamp + ev->thread_id * 7 + ev->id +
	           ev->version + ev->level + ev->opcode + ev->keywords +
	           ev->payload_len;
}

/* --- ours: model_scan, items in place -------------------------------- */

static int ours(const uint8_t *p, size_t n, struct sum *s)
{
	struct or_model_provider prov;
	struct or_event ev;
	size_t pos = 0, len;

	memset(&prov, 0, sizeof prov);
	/* The header is one map: step over it. */
	if (or_model_scan_skip(p, n, &pos) != 1)
		return -1;
	while (pos < n) {
		if (or_model_scan_event(p + pos, n - pos, &prov, &ev, &len) != 1)
			return -1;
		fold(s, &ev);
		pos += len;
	}
	return 0;
}

/* --- libcbor: one callback per data item --------------------------------- */

enum { K_TIMESTAMP, K_THREAD, K_PROVIDER, K_ID, K_VERSION, K_LEVEL, K_OPCODE,
       K_KEYWORDS, K_NAME, K_FIELDS, K_PAYLOAD, K_OTHER };

struct lc {
	int depth;                 /* 0: top level; 1: in an event map */
	uint64_t left[64], total[64];
	int which;                 /* key whose value comes next (depth 1) */
	int items;                 /* top-level items done */
	struct or_event ev;
	struct sum *s;
	int bad;
};

static int key_of(const unsigned char *k, size_t n)
{
	static const char *const keys[] = { "timestamp", "thread", "provider", "id",
		"version", "level", "opcode", "keywords", "name", "fields", "payload" };

	for (int q = 0; q < K_OTHER; q++)
		if (strlen(keys[q]) == n && memcmp(keys[q], k, n) == 0)
			return q;
	return K_OTHER;
}

/* An item at the current level is complete. */
static void done(struct lc *c)
{
	while (c->depth > 0) {
		if (--c->left[c->depth] > 0)
			return;
		c->depth--; /* the container is complete: an item of its parent */
	}
	if (c->items++ > 0) /* the first is the header */
		fold(c->s, &c->ev);
}

static int is_key(const struct lc *c)
{
	return c->depth == 1 && (c->total[1] - c->left[1]) % 2 == 0;
}

static void uint_item(void *ctx, uint64_t v)
{
	struct lc *c = ctx;

	if (c->depth == 1 && !is_key(c)) {
		switch (c->which) {
		case K_TIMESTAMP: c->ev.timestamp = v; break;
		case K_THREAD: c->ev.thread_id = v; break;
		case K_ID: c->ev.id = (uint16_t)v; break;
		case K_VERSION: c->ev.version = (uint8_t)v; break;
		case K_LEVEL: c->ev.level = (uint8_t)v; break;
		case K_OPCODE: c->ev.opcode = (uint8_t)v; break;
		case K_KEYWORDS: c->ev.keywords = v; break;
		}
	}
	done(c);
}

static void u8(void *c, uint8_t v) { uint_item(c, v); }
static void u16(void *c, uint16_t v) { uint_item(c, v); }
static void u32(void *c, uint32_t v) { uint_item(c, v); }
static void u64(void *c, uint64_t v) { uint_item(c, v); }
static void n8(void *c, uint8_t v) { (void)v; done(c); }
static void n16(void *c, uint16_t v) { (void)v; done(c); }
static void n32(void *c, uint32_t v) { (void)v; done(c); }
static void n64(void *c, uint64_t v) { (void)v; done(c); }
static void simple(void *c) { done(c); }
static void boolean(void *c, bool v) { (void)v; done(c); }
static void f4(void *c, float v) { (void)v; done(c); }
static void f8(void *c, double v) { (void)v; done(c); }

static void text(void *ctx, cbor_data s, size_t n)
{
	struct lc *c = ctx;

	if (is_key(c)) {
		c->which = key_of(s, n);
	} else if (c->depth == 1 && c->which == K_PROVIDER) {
		c->ev.provider_name = (const char *)s;
	}
	done(c);
}

static void bytes(void *ctx, cbor_data s, size_t n)
{
	struct lc *c = ctx;

	if (c->depth == 1 && !is_key(c) && c->which == K_PAYLOAD) {
		c->ev.payload = s;
		c->ev.payload_len = (uint32_t)n;
	}
	done(c);
}

static void container(struct lc *c, uint64_t n)
{
	if (c->depth == 0) {
		memset(&c->ev, 0, sizeof c->ev);
	}
	if (n == 0) {
		done(c);
		return;
	}
	if (c->depth + 1 >= 64) {
		c->bad = 1;
		return;
	}
	c->depth++;
	c->left[c->depth] = c->total[c->depth] = n;
}

static void map_start(void *ctx, size_t n) { container(ctx, (uint64_t)n * 2); }
static void array_start(void *ctx, size_t n) { container(ctx, n); }
static void unsupported(void *ctx) { ((struct lc *)ctx)->bad = 1; }

static int with_libcbor(const uint8_t *p, size_t n, struct sum *s)
{
	struct cbor_callbacks cb = cbor_empty_callbacks;
	struct lc c;
	size_t pos = 0;

	memset(&c, 0, sizeof c);
	c.s = s;
	cb.uint8 = u8; cb.uint16 = u16; cb.uint32 = u32; cb.uint64 = u64;
	cb.negint8 = n8; cb.negint16 = n16; cb.negint32 = n32; cb.negint64 = n64;
	cb.string = text; cb.byte_string = bytes;
	cb.map_start = map_start; cb.array_start = array_start;
	cb.null = simple; cb.undefined = simple; cb.boolean = boolean;
	cb.float2 = f4; cb.float4 = f4; cb.float8 = f8;
	cb.indef_map_start = unsupported; cb.indef_array_start = unsupported;
	cb.string_start = unsupported; cb.byte_string_start = unsupported;
	while (pos < n && !c.bad) {
		struct cbor_decoder_result r = cbor_stream_decode(p + pos, n - pos, &cb, &c);
		if (r.status != CBOR_DECODER_FINISHED)
			return -1;
		pos += r.read;
	}
	return c.bad ? -1 : 0;
}

static double cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *way = argc > 2 ? argv[2] : "both";
	FILE *f;
	uint8_t *buf;
	long n;

	if (argc < 2 || !(f = fopen(argv[1], "rb"))) {
		fputs("usage: cbor_bench FILE [ours|libcbor|both]\n", stderr);
		return 2;
	}
	/* The whole file in memory: both ways read the same bytes, and reading
	 * the file is left out of what is compared. */
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fputs("cbor_bench: cannot read the file\n", stderr);
		return 2;
	}
	fclose(f);
	for (int w = 0; w < 2; w++) {
		const char *name = w ? "libcbor" : "ours";
		struct sum s = { 0, 0 };
		double t0, t;
		int rc;

		if (strcmp(way, "both") != 0 && strcmp(way, name) != 0)
			continue;
		t0 = cpu();
		rc = w ? with_libcbor(buf, (size_t)n, &s) : ours(buf, (size_t)n, &s);
		t = cpu() - t0;
		if (rc) {
			fprintf(stderr, "cbor_bench: %s could not read the stream\n", name);
			return 1;
		}
		printf("%-8s %llu events in %.3f s CPU: %.0f ns/event, %.0f MB/s (checksum %016llx)\n",
		       name, (unsigned long long)s.events, t,
		       s.events ? t * 1e9 / (double)s.events : 0.0,
		       t > 0 ? (double)n / t / 1e6 : 0.0, (unsigned long long)s.check);
	}
	free(buf);
	return 0;
}
