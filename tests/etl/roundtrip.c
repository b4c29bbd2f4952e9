/*
 * roundtrip.c - every writer shape read back identically by the reader
 * (pointer size 4 and 8; buffers of 1, 4 and 64 KiB; with and without
 * stacks; with kernel records between the events); the file's structure is
 * what Windows writes (uniform buffers, 0xFF tails, SavedOffset = Offset,
 * BuffersWritten, header types by pointer size); the logfile header's clock
 * fields agree with the events; other providers' events come back as
 * events of an unknown provider; a pipe gets the same bytes as a file.
 */
#include "config.h"

#include <unistd.h>

#include "tests/etl/etcommon.h"
#include "tap.h"

static struct test_stream st;

static int same(const struct gen_event *g, const struct or_event *r)
{
	return r->timestamp == g->timestamp && r->thread_id == g->thread_id &&
	       r->provider == g->provider && r->id == g->id && r->version == g->version &&
	       r->level == g->level && r->opcode == g->opcode && r->keywords == g->keywords &&
	       r->payload_len == g->payload_len && !memcmp(r->payload, g->payload, g->payload_len) &&
	       r->provider_name && !strcmp(r->provider_name, gcspec_providers[g->provider].name);
}

struct readback {
	unsigned events, same, foreign, bad;
	struct test_diags d;
	struct etr_counts c;
	struct or_stream_info info;
	int opened;
};

static void read_back(const uint8_t *buf, size_t len, struct readback *o)
{
	FILE *f = fmemopen((void *)buf, len, "rb");
	struct etr_reader *r;
	struct or_event ev;
	enum or_status s;

	memset(o, 0, sizeof *o);
	o->d.quiet = 1;
	r = etr_open(f, test_diags_report, &o->d, &o->info);
	o->opened = r != NULL;
	if (!r) {
		fclose(f);
		return;
	}
	while ((s = etr_next(r, &ev)) == OR_EVENT) {
		if (ev.provider < 0) {
			o->foreign += ev.provider_name &&
			              !strcmp(ev.provider_name, "{2e5dba47-a3d2-4d16-8ee0-6671ffdcd7b5}") &&
			              ev.id == 7 && ev.payload_len == 8;
			continue;
		}
		if (o->events < st.n && same(&st.ev[o->events], &ev))
			o->same++;
		else if (o->bad++ < 3)
			tap_diag("event %u differs", o->events);
		o->events++;
	}
	etr_counts(r, &o->c);
	etr_close(r);
	fclose(f);
}

/* Structure: buffers, tails, offsets, header types. */
static int structure(const uint8_t *b, size_t len, uint32_t bsize, unsigned ps, const char **why)
{
	size_t n = len / bsize;

	*why = "file length not a multiple of the buffer size";
	if (len % bsize)
		return 0;
	*why = "BuffersWritten differs from the buffers present";
	if (le32(b + 0x48 + 0x20 + 0x24) != n)
		return 0;
	*why = "logfile header record type";
	if (b[0x4A] != (ps == 4 ? 0x01 : 0x02) || b[0x4B] != 0xC0 || b[0x4E] || b[0x4F])
		return 0;
	for (size_t i = 0; i < n; i++) {
		const uint8_t *p = b + i * bsize;
		uint32_t off = le32(p + 0x30), pos = 0x48;

		*why = "buffer header: size, offsets or type";
		if (le32(p) != bsize || le32(p + 4) != off || off % 8 || off < 0x48 || off > bsize ||
		    p[0x36] != (i ? 0 : 4) || p[0x37])
			return 0;
		*why = "buffer tail is not all 0xFF";
		for (uint32_t k = off; k < bsize; k++)
			if (p[k] != 0xFF)
				return 0;
		if (!i)
			continue;
		*why = "event record header type or size";
		while (pos < off) {
			uint32_t size = p[pos + 2] >= 0x12 ? (uint32_t)(p[pos] | p[pos + 1] << 8)
			                                   : (uint32_t)(p[pos + 4] | p[pos + 5] << 8);

			if ((p[pos + 2] != (ps == 4 ? 0x12 : 0x13) && p[pos + 2] != (ps == 4 ? 0x10 : 0x11)) ||
			    p[pos + 3] != 0xC0 || size < 0x10)
				return 0;
			pos += (size + 7u) & ~7u;
		}
		if (pos != off)
			return 0;
	}
	return 1;
}

/* Compressed mode as measured on PerfView's merges: buffer 0 as it is at a
 * multiple of 512 bytes, every later buffer its header (BufferFlag 0x40,
 * BufferSize its bytes in the file, Offset its expanded end of data) and
 * its LZXPRESS data, one right after the other; BuffersWritten counts them;
 * LogFileMode says compressed. */
static int packed_structure(const uint8_t *b, size_t len, uint32_t bsize, const char **why)
{
	size_t at = le32(b), n = 1;

	*why = "LogFileMode lacks EVENT_TRACE_COMPRESSED_MODE, or buffer 0 is not a multiple of 512";
	if (!(le32(b + 0x48 + 0x20 + 0x20) & 0x04000000u) || at % 512 || at >= bsize ||
	    le32(b + 0x48 + 0x20) != bsize || b[0x36] != 4)
		return 0;
	while (at < len) {
		const uint8_t *p = b + at;
		uint32_t size = le32(p), off = le32(p + 0x30);

		*why = "a later buffer: not flagged compressed, or its sizes are wrong";
		if (at + 0x48 > len || !(p[0x34] & 0x40) || size <= 0x48 || size > bsize ||
		    at + size > len || off < 0x48 || off > bsize || le32(p + 4) != off || p[0x36])
			return 0;
		at += size;
		n++;
	}
	*why = "BuffersWritten differs from the buffers present";
	return le32(b + 0x48 + 0x20 + 0x24) == n;
}

static void one_packed(unsigned ps, uint32_t bsize, int stacks, unsigned kernel)
{
	struct gen_etl_opts o = { bsize, kernel, 0, 1, 0 };
	struct readback rb;
	const char *why = "";
	size_t len = 0;
	uint8_t *buf;
	int good;

	et_make(&st, 3000, 7, stacks);
	buf = et_write(&st, &o, ps, &len);
	if (!tap_ok(buf != NULL, "compressed ps%u buffer %u%s%s: written", ps, bsize,
	            stacks ? " stacks" : "", kernel ? " kernel records" : ""))
		return;
	read_back(buf, len, &rb);
	tap_ok(rb.opened && rb.events == st.n && rb.same == st.n && rb.d.errors == 0 &&
	       rb.d.n == (kernel ? 1u : 0u) && rb.c.buffers_decompressed + 1 == rb.c.buffers &&
	       rb.c.buffers_skipped == 0 && rb.info.pointer_size == ps,
	       "  read back %u/%u events identically; %u diagnostics (%zu bytes, %llu buffers, %llu decompressed)",
	       rb.same, st.n, rb.d.n, len, (unsigned long long)rb.c.buffers,
	       (unsigned long long)rb.c.buffers_decompressed);
	good = packed_structure(buf, len, bsize, &why);
	tap_ok(good, "  compressed layout as PerfView's merge writes it%s%s", good ? "" : ": ",
	       good ? "" : why);
	free(buf);
}

static void one(unsigned ps, uint32_t bsize, int stacks, unsigned kernel)
{
	struct gen_etl_opts o = { bsize, kernel, 0, 0, 0 };
	struct readback rb;
	const char *why = "";
	size_t len = 0;
	uint8_t *buf;

	et_make(&st, 3000, 7, stacks);
	buf = et_write(&st, &o, ps, &len);
	if (!tap_ok(buf != NULL, "ps%u buffer %u%s%s: written", ps, bsize, stacks ? " stacks" : "",
	            kernel ? " kernel records" : ""))
		return;
	read_back(buf, len, &rb);
	tap_ok(rb.opened && rb.events == st.n && rb.same == st.n && rb.d.errors == 0 &&
	       rb.d.n == (kernel ? 1u : 0u) && rb.c.passed_over == (kernel ? st.n / kernel : 0) &&
	       rb.info.pointer_size == ps && rb.info.clock_frequency == 10000000 &&
	       rb.info.start_ticks == 4000 && rb.info.process_id == 4242 && rb.info.unordered == 0,
	       "  read back %u/%u events identically; %u diagnostics, %llu records passed over (%zu bytes, %llu buffers)",
	       rb.same, st.n, rb.d.n, (unsigned long long)rb.c.passed_over, len,
	       (unsigned long long)rb.c.buffers);
	{
		int good = structure(buf, len, bsize, ps, &why);

		tap_ok(good, "  structure as Windows writes it%s%s", good ? "" : ": ", good ? "" : why);
	}
	free(buf);
}

/* Logfile header clock fields against the events. */
static void clock_fields(void)
{
	struct gen_etl_opts o = { 4096, 0, 0, 0, 0 };
	size_t len;
	uint8_t *b;
	const uint8_t *lf;
	uint64_t start_ft = 116444736000000000ull + 1763790000ull * 10000000ull, last;

	et_make(&st, 500, 3, 0);
	last = st.ev[st.n - 1].timestamp;
	b = et_write(&st, &o, 8, &len);
	lf = b + 0x48 + 0x20;
	tap_ok(le64(lf + 0x100) == 10000000 && le32(lf + 0x110) == 1 &&
	       le64(lf + 0x108) == start_ft && le64(b + 0x48 + 0x10) == 4000 &&
	       le64(lf + 0x10) == start_ft + (last - 4000) &&
	       le32(lf + 0x2C) == 8 && le32(lf + 0x20) == 0x10000001u &&
	       le32(lf + 0x0C) == 4,
	       "logfile header: PerfFreq 10 MHz, QPC clock, StartTime at the header record's timestamp, EndTime at the last event, pointer size, per-processor buffering off");
	/* 32-bit: the pointers shrink, everything after moves up 8 bytes. */
	free(b);
	b = et_write(&st, &o, 4, &len);
	lf = b + 0x48 + 0x20;
	tap_ok(le64(lf + 0xF8) == 10000000 && le64(lf + 0x100) == start_ft &&
	       le32(lf + 0x2C) == 4 && le32(b + 0x48 + 4) % 65536 == 0x20 + 0x110 + 2 * (20 + 19),
	       "32-bit logfile header: 0x110 bytes, PerfFreq at 0xF8, then the logger and file names");
	free(b);
}

/* Extended data: a STACK_TRACE item of the pointer size with the frames. */
static void stacks(void)
{
	struct gen_etl_opts o = { 65536, 0, 0, 0, 0 };
	unsigned ok = 0, seen = 0;

	et_make(&st, 200, 5, 1);
	for (unsigned ps = 4; ps <= 8; ps += 4) {
		size_t len, pos = 65536 + 0x48;
		uint8_t *b = et_write(&st, &o, ps, &len);

		for (unsigned i = 0; i < st.n && pos < len; i++) {
			const uint8_t *r = b + pos;
			uint32_t size = (uint32_t)(r[0] | r[1] << 8);

			if (st.ev[i].stack_id) {
				uint64_t ips[16];
				unsigned n = gen_etl_stack_frames(st.ev[i].stack_id, ips, 16), good;
				const uint8_t *x = r + 0x50;

				seen++;
				good = (r[4] & 1) && x[2] == (ps == 4 ? 5 : 6) && !(x[4] & 1) &&
				       (uint32_t)(x[6] | x[7] << 8) == 8 + n * ps &&
				       le64(x + 8) == st.ev[i].stack_id;
				for (unsigned k = 0; k < n && good; k++)
					good = ps == 4 ? le32(x + 16 + 4 * k) == (uint32_t)ips[k]
					               : le64(x + 16 + 8 * k) == ips[k];
				ok += good;
			}
			pos += (size + 7u) & ~7u;
		}
		free(b);
	}
	tap_ok(seen > 100 && ok == seen, "stacks: %u of %u events carry a STACK_TRACE32/64 item with their frames",
	       ok, seen);
}

static void foreign(void)
{
	struct gen_etl_opts o = { 8192, 0, 3, 0, 0 };
	struct readback rb;
	size_t len;
	uint8_t *b;

	et_make(&st, 999, 9, 0);
	b = et_write(&st, &o, 8, &len);
	read_back(b, len, &rb);
	tap_ok(rb.same == st.n && rb.foreign == st.n / 3 && rb.c.other_provider == st.n / 3 &&
	       rb.d.n == 0,
	       "another provider's events come back as events of {2e5dba47-...} (%u), the runtime's unchanged (%u)",
	       rb.foreign, rb.same);
	free(b);
}

/* Without NO_PER_PROCESSOR_BUFFERING the reader says the file is grouped by
 * processor, and reads it all the same. */
static void per_processor(void)
{
	struct gen_etl_opts o = { 2048, 0, 0, 0, 0 };
	struct readback rb;
	size_t len;
	uint8_t *b;

	et_make(&st, 300, 6, 0);
	b = et_write(&st, &o, 8, &len);
	b[0x48 + 0x20 + 0x23] = 0; /* LogFileMode's top byte */
	read_back(b, len, &rb);
	tap_ok(rb.same == st.n && rb.d.n == 0 && rb.info.unordered == OR_BY_PROCESSOR,
	       "a per-processor buffered file is read as grouped by processor (unordered = %u)",
	       rb.info.unordered);
	free(b);
}

/* A stream that cannot seek gets the same bytes, spooled. */
static void pipe_output(void)
{
	struct gen_etl_opts o = { 4096, 0, 0, 0, 0 };
	char path[] = "/tmp/etl-pipe-XXXXXX", cmd[64];
	size_t len, plen = 0;
	uint8_t *want, *got = NULL;
	FILE *p, *f;
	int fd = mkstemp(path);

	et_make(&st, 700, 2, 1);
	want = et_write(&st, &o, 8, &len);
	snprintf(cmd, sizeof cmd, "cat > %s", path);
	p = popen(cmd, "w");
	et_write_to(&st, &o, 8, &plen, p);
	pclose(p);
	f = fopen(path, "rb");
	if (f) {
		got = malloc(len + 1);
		plen = fread(got, 1, len + 1, f);
		fclose(f);
	}
	tap_ok(fd >= 0 && got && plen == len && !memcmp(want, got, len),
	       "written to a pipe: the same %zu bytes as to a file", len);
	if (fd >= 0)
		close(fd);
	unlink(path);
	free(want);
	free(got);
}

static void deterministic(void)
{
	struct gen_etl_opts o = { 0, 7, 0, 0, 0 };
	size_t l1, l2;
	uint8_t *a, *b;

	et_make(&st, 1000, 4, 1);
	a = et_write(&st, &o, 8, &l1);
	b = et_write(&st, &o, 8, &l2);
	tap_ok(a && b && l1 == l2 && !memcmp(a, b, l1) && l1 % 65536 == 0,
	       "same events, same bytes (default 64 KiB buffers)");
	free(a);
	free(b);
}

static void refusals(void)
{
	struct gen_etl_opts o = { 1000, 0, 0, 0, 0 };
	struct gen_writer *w = gen_etl_new(&o);
	struct gen_stream_info in = et_info(8);
	static uint8_t big[70000];
	struct gen_event e;
	FILE *f = tmpfile();

	tap_ok(gen_write_etl_ops.begin(w, f, &in) == -1 && strstr(w->error, "buffer size"),
	       "a buffer size that is not a multiple of 8 is refused: %s", w->error);
	gen_write_etl_ops.destroy(w);
	o.buffer_size = 0;
	w = gen_etl_new(&o);
	gen_write_etl_ops.begin(w, f, &in);
	et_make(&st, 1, 1, 0);
	e = st.ev[0];
	e.payload = big;
	e.payload_len = sizeof big;
	tap_ok(gen_write_etl_ops.event(w, &e) == -1 && strstr(w->error, "64 KiB"),
	       "an event larger than an ETW record can hold is refused: %s", w->error);
	gen_write_etl_ops.destroy(w);
	in.pointer_size = 2;
	w = gen_etl_new(NULL);
	tap_ok(gen_write_etl_ops.begin(w, f, &in) == -1, "pointer size 2 is refused");
	gen_write_etl_ops.destroy(w);
	fclose(f);
}

int main(void)
{
	static const uint32_t sizes[] = { 1024, 4096, 65536 };

	for (unsigned ps = 4; ps <= 8; ps += 4)
		for (unsigned s = 0; s < 3; s++)
			for (int stk = 0; stk < 2; stk++)
				one(ps, sizes[s], stk, (s + (unsigned)stk) % 2 ? 5 : 0);
	for (unsigned ps = 4; ps <= 8; ps += 4)
		for (unsigned s = 0; s < 3; s++)
			one_packed(ps, sizes[s], s == 1, s == 2 ? 5 : 0);
	clock_fields();
	stacks();
	foreign();
	per_processor();
	pipe_output();
	deterministic();
	refusals();
	return tap_done();
}
