/*
 * write_etl.c - the ETW .etl writer. See etl_w.h for the file's shape.
 *
 * Records are packed into one buffer in memory; a record that does not fit
 * closes the buffer (tail filled with 0xFF, as ETW leaves it) and starts the
 * next. Buffer 0 (the logfile header) is written first with BuffersWritten
 * and EndTime still zero and rewritten at the end.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/formats/etl/etl_w.h"
#include "spec/gcspec.h"
#include "gen/formats/etl/lzxpress_w.h"
#include "util/le.h"

#define BUFHDR 0x48u             /* WMI_BUFFER_HEADER */
#define EVHDR 0x50u              /* EVENT_HEADER record header */
#define SYSHDR 0x20u             /* SYSTEM_TRACE_HEADER */
#define MAX_BUFFER (16u << 20)
#define MAX_RECORD 0xFFFFu       /* EVENT_HEADER.Size is 16 bits */

/* Header types and flags (byte 2 and 3 of every record). */
#define HT_SYSTEM32 0x01
#define HT_SYSTEM64 0x02
#define HT_PERFINFO32 0x10
#define HT_PERFINFO64 0x11
#define HT_EVENT32 0x12
#define HT_EVENT64 0x13
#define MARKER 0xC0              /* TRACE_HEADER_FLAG | TRACE_HEADER_EVENT_TRACE */

#define LOGFILE_MODE 0x10000001u /* SEQUENTIAL | NO_PER_PROCESSOR_BUFFERING */
/* ... | COMPRESSED_MODE | RELOG_MODE, as the relogger's compressed files say */
#define LOGFILE_MODE_COMPRESSED (LOGFILE_MODE | 0x04000000u | 0x00010000u)
#define BUFFER_COMPRESSED 0x0040u /* BufferFlag */
#define HEADER_ALIGN 512u        /* a compressed file's buffer 0: its size rounded up */
#define FILETIME_UNIX_EPOCH 116444736000000000ull
#define STACK_EXT_32 5           /* EVENT_HEADER_EXT_TYPE_STACK_TRACE32 */
#define STACK_EXT_64 6

/* System.Threading.Tasks.TplEventSource: a real provider that is not ours. */
static const uint8_t foreign_guid[16] = {
	0x47, 0xba, 0x5d, 0x2e, 0xd2, 0xa3, 0x16, 0x4d,
	0x8e, 0xe0, 0x66, 0x71, 0xff, 0xdc, 0xd7, 0xb5 };

static const char logger_name[] = "gcgen-DotNETRuntime";
static const char logfile_name[] = "C:\\gcgen\\trace.etl";

struct etl_writer {
	struct gen_writer base;        /* first: writer.h's common part */
	struct gen_etl_opts o;
	struct gen_stream_info info;
	FILE *out;                     /* the caller's stream */
	FILE *f;                       /* where buffers go: out, or a spool file */
	long long start;               /* out's offset of buffer 0 */
	uint8_t *buf;                  /* the buffer being filled */
	uint32_t used;                 /* its bytes in use, header included */
	int open;                      /* buf has been started */
	uint8_t proc;                  /* processor of the buffer's first record */
	uint64_t nbuffers;             /* written, buffer 0 included */
	uint64_t last_ts;
	uint64_t nevents;
	uint32_t hsize;                /* buffer 0's bytes in the file */
	uint8_t *cbuf;                 /* compressed mode: a buffer's LZXPRESS form */
	size_t ccap;
	struct gen_lzx_state *lzx;
};

#define W(w) ((struct etl_writer *)(void *)(w))

static int fail(struct etl_writer *w, const char *msg)
{
	snprintf(w->base.error, sizeof w->base.error, "etl: %s", msg);
	return -1;
}

static uint32_t align8(uint32_t n)
{
	return (n + 7u) & ~7u;
}

/* FILETIME (100 ns since 1601) of a timestamp in ticks. */
static uint64_t filetime_of(const struct etl_writer *w, uint64_t ticks)
{
	uint64_t base = FILETIME_UNIX_EPOCH + w->info.start_unix_ns / 100;
	uint64_t d = ticks > w->info.start_ticks ? ticks - w->info.start_ticks : 0;
	uint64_t f = w->info.clock_frequency ? w->info.clock_frequency : 1;

	/* Whole seconds and the rest apart: no overflow for long traces. */
	return base + d / f * 10000000u + d % f * 10000000u / f;
}

/* --- buffers ------------------------------------------------------------------ */

static void buffer_header(struct etl_writer *w, uint16_t flag, uint16_t type)
{
	uint8_t *b = w->buf;

	memset(b, 0, BUFHDR);
	put_le32(b + 0x00, w->o.buffer_size);
	put_le32(b + 0x04, w->used);                 /* SavedOffset: end of data */
	put_le32(b + 0x08, w->used);                 /* CurrentOffset */
	put_le64(b + 0x10, w->last_ts);              /* flush time stamp */
	put_le64(b + 0x18, w->nbuffers);             /* sequence number */
	/* ClockType 1 (QPC) in the low 3 bits, the frequency above. */
	put_le64(b + 0x20, (w->info.clock_frequency << 3) | 1u);
	b[0x28] = w->proc;                        /* ClientContext.ProcessorNumber */
	b[0x29] = 8;                              /* ClientContext.Alignment */
	put_le16(b + 0x2A, 17);                      /* ClientContext.LoggerId */
	put_le32(b + 0x30, w->used);                 /* Offset: end of data */
	put_le16(b + 0x34, flag);
	put_le16(b + 0x36, type);
}

static int write_out(struct etl_writer *w, const void *p, size_t n)
{
	if (fwrite(p, 1, n, w->f) != n)
		return fail(w, "write failed");
	return 0;
}

/* Compressed mode: the buffer's header, BufferSize its bytes in the file,
 * then its records (up to Offset) compressed. Should they not shrink below
 * the buffer, they go as they are, without BufferFlag 0x40. */
static int flush_compressed(struct etl_writer *w, uint16_t flag)
{
	size_t n = gen_lzx_compress(w->lzx, w->buf + BUFHDR, w->used - BUFHDR, w->cbuf, w->ccap);

	if (n && BUFHDR + n <= w->o.buffer_size) {
		buffer_header(w, flag | BUFFER_COMPRESSED, 0);
		put_le32(w->buf + 0x00, (uint32_t)(BUFHDR + n));
		return write_out(w, w->buf, BUFHDR) || write_out(w, w->cbuf, n) ? -1 : 0;
	}
	buffer_header(w, flag, 0);
	put_le32(w->buf + 0x00, w->used);
	return write_out(w, w->buf, w->used);
}

/* Close the buffer being filled: header, 0xFF tail, out. */
static int flush_buffer(struct etl_writer *w, uint16_t flag)
{
	if (!w->open)
		return 0;
	if (w->o.compressed) {
		if (flush_compressed(w, flag))
			return -1;
		w->nbuffers++;
		w->open = 0;
		return 0;
	}
	buffer_header(w, flag, 0);
	memset(w->buf + w->used, 0xFF, w->o.buffer_size - w->used);
	if (write_out(w, w->buf, w->o.buffer_size))
		return -1;
	w->nbuffers++;
	w->open = 0;
	return 0;
}

/* Room for a record of n bytes (unaligned) in the current buffer. */
static uint8_t *reserve(struct etl_writer *w, uint32_t n, uint8_t proc)
{
	uint32_t a = align8(n);

	if (w->open && w->used + a > w->o.buffer_size && flush_buffer(w, 0))
		return NULL;
	if (!w->open) {
		w->open = 1;
		w->used = BUFHDR;
		w->proc = proc;
	}
	uint8_t *p = w->buf + w->used;

	memset(p, 0, a);
	w->used += a;
	return p;
}

/* --- the logfile header --------------------------------------------------------- */

static void put_utf16(uint8_t *p, const char *s)
{
	for (; *s; s++, p += 2)
		put_le16(p, (uint8_t)*s);
	put_le16(p, 0);
}

/* Bytes of the logfile header record for pointer size ps. */
static uint32_t logfile_record_size(unsigned ps)
{
	uint32_t lf = 0x38 + 2 * ps + 0xAC;     /* up to the end of TimeZone */

	lf = align8(lf) + 32;                    /* BootTime .. BuffersLost */
	return SYSHDR + lf + 2 * (uint32_t)(sizeof logger_name + sizeof logfile_name);
}

/* Buffer 0: the logfile header record alone. */
static void header_buffer(struct etl_writer *w, uint8_t *b)
{
	unsigned ps = w->info.pointer_size;
	uint32_t size = logfile_record_size(ps);
	uint8_t *r = b + BUFHDR, *lf = r + SYSHDR, *tz;
	uint32_t boot;
	uint64_t end_ts = w->last_ts > w->info.start_ticks ? w->last_ts : w->info.start_ticks;

	memset(b, 0xFF, w->o.buffer_size);
	memset(r, 0, align8(size));
	/* SYSTEM_TRACE_HEADER: version 2, group 0 (header), type 0. */
	put_le16(r + 0x00, 2);
	r[0x02] = ps == 4 ? HT_SYSTEM32 : HT_SYSTEM64;
	r[0x03] = MARKER;
	put_le16(r + 0x04, (uint16_t)size);
	put_le32(r + 0x08, 1);                       /* the logger thread, as Windows notes it */
	put_le32(r + 0x0C, w->info.process_id);
	put_le64(r + 0x10, w->info.start_ticks);     /* raw clock: the sync point */
	/* TRACE_LOGFILE_HEADER */
	put_le32(lf + 0x00, w->o.buffer_size);
	put_le32(lf + 0x04, 10);                     /* Windows 10.0 */
	put_le32(lf + 0x08, 19045);                  /* its build */
	put_le32(lf + 0x0C, w->info.nprocessors);
	put_le64(lf + 0x10, filetime_of(w, end_ts)); /* EndTime */
	put_le32(lf + 0x18, 156250);                 /* TimerResolution: 15.625 ms */
	put_le32(lf + 0x1C, 0);                      /* MaximumFileSize */
	put_le32(lf + 0x20, w->o.compressed ? LOGFILE_MODE_COMPRESSED : LOGFILE_MODE);
	put_le32(lf + 0x24, (uint32_t)w->nbuffers);  /* BuffersWritten */
	put_le32(lf + 0x28, 1);                      /* StartBuffers */
	put_le32(lf + 0x2C, ps);
	put_le32(lf + 0x30, 0);                      /* EventsLost */
	put_le32(lf + 0x34, 2995);                   /* CpuSpeedInMHz */
	/* LoggerName, LogFileName: pointers in the logger's process; zero. */
	tz = lf + 0x38 + 2 * ps;
	put_utf16(tz + 4, "Coordinated Universal Time");
	put_utf16(tz + 4 + 64 + 16 + 4, "Coordinated Universal Time");
	boot = align8(0x38 + 2 * ps + 0xAC);
	put_le64(lf + boot, filetime_of(w, w->info.start_ticks) - 36000000000ull); /* booted an hour before */
	put_le64(lf + boot + 8, w->info.clock_frequency);                          /* PerfFreq */
	put_le64(lf + boot + 16, filetime_of(w, w->info.start_ticks));             /* StartTime */
	put_le32(lf + boot + 24, 1);                 /* ReservedFlags: clock is QPC */
	put_le32(lf + boot + 28, 0);                 /* BuffersLost */
	put_utf16(lf + boot + 32, logger_name);
	put_utf16(lf + boot + 32 + 2 * sizeof logger_name, logfile_name);
	{
		uint8_t *save = w->buf, proc = w->proc;
		uint32_t used = w->used;
		uint64_t n = w->nbuffers;

		w->buf = b;
		w->used = BUFHDR + align8(size);
		w->nbuffers = 0;
		w->proc = 0;
		buffer_header(w, 1, 4);           /* flush marker; type HEADER */
		put_le64(b + 0x10, w->info.start_ticks);
		put_le32(b + 0x00, w->hsize);        /* a compressed file's is smaller */
		w->buf = save;
		w->used = used;
		w->nbuffers = n;
		w->proc = proc;
	}
}

/* --- records ----------------------------------------------------------------------- */

unsigned gen_etl_stack_frames(uint32_t stack_id, uint64_t *ips, unsigned max)
{
	unsigned n = 3 + stack_id % 6;

	if (n > max)
		n = max;
	for (unsigned i = 0; i < n; i++)
		ips[i] = 0x7ffa00120000ull + (uint64_t)stack_id * 0x1000 + i * 0x58;
	return n;
}

static uint16_t task_of(const struct gen_event *e)
{
	const struct gcspec_event *sp = NULL;

	if (e->spec_event < GCSPEC_NEVENTS)
		sp = &gcspec_events[e->spec_event];
	else
		sp = gcspec_lookup(e->provider, e->id, e->version);
	return sp ? sp->task : 0;
}

/* One EVENT_HEADER record; guid NULL for e->provider's. */
static int event_record(struct etl_writer *w, const struct gen_event *e, const uint8_t *guid,
                        uint16_t task)
{
	unsigned ps = e->pointer_size ? e->pointer_size : w->info.pointer_size;
	uint64_t ips[16];
	unsigned nframes = 0;
	uint32_t ext = 0, size;
	uint8_t *r;

	if (e->stack_id) {
		nframes = gen_etl_stack_frames(e->stack_id, ips, 16);
		ext = align8(8 + 8 + nframes * ps);
	}
	size = EVHDR + ext + e->payload_len;
	if (size > MAX_RECORD)
		return fail(w, "event larger than an ETW record can be (64 KiB)");
	if (BUFHDR + align8(size) > w->o.buffer_size)
		return fail(w, "event larger than a buffer; use a larger buffer size");
	r = reserve(w, size, (uint8_t)e->processor);
	if (!r)
		return -1;
	put_le16(r + 0x00, (uint16_t)size);
	r[0x02] = ps == 4 ? HT_EVENT32 : HT_EVENT64;
	r[0x03] = MARKER;
	put_le16(r + 0x04, ext ? 1 : 0);             /* EXTENDED_INFO */
	put_le32(r + 0x08, (uint32_t)e->thread_id);
	put_le32(r + 0x0C, e->process_id ? e->process_id : w->info.process_id);
	put_le64(r + 0x10, e->timestamp);
	memcpy(r + 0x18, guid ? guid : gcspec_providers[e->provider].guid, 16);
	put_le16(r + 0x28, e->id);
	r[0x2A] = e->version;
	r[0x2B] = 0;                              /* channel: the manifest gives GC events none */
	r[0x2C] = e->level;
	r[0x2D] = e->opcode;
	put_le16(r + 0x2E, task);
	put_le64(r + 0x30, e->keywords);
	/* ProcessorTime and ActivityId stay zero. */
	if (ext) {
		uint8_t *x = r + EVHDR;

		/* Raw-buffer item: size, type, flags (bit 0: another follows), data size. */
		put_le16(x + 0, (uint16_t)ext);
		put_le16(x + 2, ps == 4 ? STACK_EXT_32 : STACK_EXT_64);
		put_le16(x + 4, 0);
		put_le16(x + 6, (uint16_t)(8 + nframes * ps));
		put_le64(x + 8, e->stack_id);        /* MatchId */
		for (unsigned i = 0; i < nframes; i++) {
			if (ps == 4)
				put_le32(x + 16 + 4 * i, (uint32_t)ips[i]);
			else
				put_le64(x + 16 + 8 * i, ips[i]);
		}
	}
	if (e->payload_len)
		memcpy(r + EVHDR + ext, e->payload, e->payload_len);
	if (e->timestamp > w->last_ts)
		w->last_ts = e->timestamp;
	return 0;
}

/* A PERFINFO SampledProfile record (group 0x0F, type 46): what a kernel
 * session puts between the runtime's events in merged traces. */
static int kernel_record(struct etl_writer *w, const struct gen_event *like)
{
	unsigned ps = w->info.pointer_size;
	uint32_t size = 0x10 + ps + 8;
	uint8_t *r = reserve(w, size, (uint8_t)like->processor);

	if (!r)
		return -1;
	put_le16(r + 0x00, 2);
	r[0x02] = ps == 4 ? HT_PERFINFO32 : HT_PERFINFO64;
	r[0x03] = MARKER;
	put_le16(r + 0x04, (uint16_t)size);
	r[0x06] = 46;
	r[0x07] = 0x0F;
	put_le64(r + 0x08, like->timestamp);
	if (ps == 4)
		put_le32(r + 0x10, 0x77001234u);
	else
		put_le64(r + 0x10, 0x7ffa55001234ull);
	put_le32(r + 0x10 + ps, (uint32_t)like->thread_id);
	put_le32(r + 0x14 + ps, 1);
	return 0;
}

/* The kernel logger's Process Start (1) or End (2) of e->process_id: a
 * SYSTEM_TRACE_HEADER record of group 3 (EVENT_TRACE_GROUP_PROCESS, the
 * Process provider 3d6fa8d0-fe05-11d0-9dda-00c04fd7ba7c to consumers),
 * version 4, at the kernel's pointer size (the logfile header's), with the
 * Process_V4 payload: UniqueProcessKey, ProcessId, ParentId, SessionId,
 * ExitStatus, DirectoryTableBase, Flags, UserSID (TOKEN_USER, then
 * S-1-5-18), ImageFileName (ANSI), CommandLine, PackageFullName and
 * ApplicationId (UTF-16). A start is logged in the parent's context, an
 * end in the process's own. */
static int process_record(struct etl_writer *w, const struct gen_event *e)
{
	static const uint8_t sid[12] = { 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
	static const char image[] = "dotnet.exe", cmd[] = "dotnet app.dll";
	unsigned ps = w->info.pointer_size;
	uint32_t pid = e->process_id ? e->process_id : w->info.process_id, parent = 1052;
	uint32_t fixed = ps + 16 + ps + 4, size;
	uint8_t *r, *p;

	size = SYSHDR + fixed + 2 * ps + sizeof sid + sizeof image + 2 * sizeof cmd + 2 + 2;
	if (!(r = reserve(w, size, (uint8_t)e->processor)))
		return -1;
	put_le16(r + 0x00, 4);
	r[0x02] = ps == 4 ? HT_SYSTEM32 : HT_SYSTEM64;
	r[0x03] = MARKER;
	put_le16(r + 0x04, (uint16_t)size);
	r[0x06] = e->kind == GEN_EV_PROCESS_START ? 1 : 2;
	r[0x07] = 3;
	put_le32(r + 0x08, (uint32_t)e->thread_id);
	put_le32(r + 0x0C, e->kind == GEN_EV_PROCESS_START ? parent : pid);
	put_le64(r + 0x10, e->timestamp);
	p = r + SYSHDR;
	if (ps == 4)
		put_le32(p, 0x85000000u | pid);
	else
		put_le64(p, 0xffffd00000000000ull | (uint64_t)pid << 12);
	p += ps;
	put_le32(p, pid);
	put_le32(p + 4, parent);
	put_le32(p + 8, 1);                          /* SessionId */
	put_le32(p + 12, e->kind == GEN_EV_PROCESS_START ? 0x103 : 0); /* STATUS_PENDING while alive */
	p += 16;
	if (ps == 4)
		put_le32(p, 0x1aa000u + pid);
	else
		put_le64(p, 0x1aa000ull + pid);
	p += ps;
	put_le32(p, 0);                              /* Flags */
	p += 4;
	put_le32(p, 0xffffc000u);                    /* TOKEN_USER: the SID's pointer, */
	p += 2 * ps;                                 /* its attributes */
	memcpy(p, sid, sizeof sid);
	p += sizeof sid;
	memcpy(p, image, sizeof image);
	p += sizeof image;
	put_utf16(p, cmd);                           /* PackageFullName, ApplicationId: "" */
	if (e->timestamp > w->last_ts)
		w->last_ts = e->timestamp;
	return 0;
}

static int foreign_event(struct etl_writer *w, const struct gen_event *like)
{
	static const uint8_t payload[8] = { 1, 0, 0, 0, 7, 0, 0, 0 };
	struct gen_event e = *like;

	e.id = 7;                                 /* TaskScheduleSend */
	e.version = 1;
	e.level = 4;
	e.opcode = 0;
	e.keywords = 0x1;
	e.stack_id = 0;
	e.payload = payload;
	e.payload_len = sizeof payload;
	return event_record(w, &e, foreign_guid, 7);
}

static int etl_event(struct gen_writer *gw, const struct gen_event *e)
{
	struct etl_writer *w = W(gw);

	if (e->kind != GEN_EV_RUNTIME)
		return process_record(w, e);
	if (e->provider >= GCSPEC_NPROVIDERS)
		return fail(w, "event of an unknown provider");
	if (event_record(w, e, NULL, task_of(e)))
		return -1;
	w->nevents++;
	if (w->o.kernel_every && w->nevents % w->o.kernel_every == 0 && kernel_record(w, e))
		return -1;
	if (w->o.foreign_every && w->nevents % w->o.foreign_every == 0 && foreign_event(w, e))
		return -1;
	return 0;
}

/* --- stream start and end ------------------------------------------------------------ */

static int etl_begin(struct gen_writer *gw, FILE *out, const struct gen_stream_info *info)
{
	struct etl_writer *w = W(gw);

	w->info = *info;
	w->info.profile = w->info.mode = NULL; /* borrowed: not kept */
	if (w->o.process_id)
		w->info.process_id = w->o.process_id;
	if (info->pointer_size != 4 && info->pointer_size != 8)
		return fail(w, "pointer size must be 4 or 8");
	if (!w->o.buffer_size)
		w->o.buffer_size = GEN_ETL_DEFAULT_BUFFER;
	if (w->o.buffer_size % 8 || w->o.buffer_size < 1024 || w->o.buffer_size > MAX_BUFFER)
		return fail(w, "buffer size must be a multiple of 8 from 1024 to 16 MiB");
	w->buf = malloc(w->o.buffer_size);
	if (!w->buf)
		return fail(w, "out of memory");
	w->hsize = w->o.buffer_size;
	if (w->o.compressed) {
		uint32_t h = BUFHDR + align8(logfile_record_size(info->pointer_size));

		w->hsize = (h + HEADER_ALIGN - 1) / HEADER_ALIGN * HEADER_ALIGN;
		if (w->hsize > w->o.buffer_size)
			w->hsize = w->o.buffer_size;
		w->ccap = gen_lzx_bound(w->o.buffer_size);
		w->cbuf = malloc(w->ccap);
		w->lzx = malloc(sizeof *w->lzx);
		if (!w->cbuf || !w->lzx)
			return fail(w, "out of memory");
	}
	w->out = out;
	w->last_ts = info->start_ticks;
	/* Buffer 0 is rewritten at the end: seek back, or spool when out
	 * cannot seek (a pipe). */
	w->start = ftello(out);
	if (w->start < 0 || fseeko(out, w->start, SEEK_SET) != 0) {
		w->f = tmpfile();
		if (!w->f)
			return fail(w, "cannot create a spool file for a stream that cannot seek");
		w->start = -1;
	} else {
		w->f = out;
	}
	header_buffer(w, w->buf);
	if (write_out(w, w->buf, w->hsize))
		return -1;
	w->nbuffers = 1;
	return 0;
}

static int etl_end(struct gen_writer *gw)
{
	struct etl_writer *w = W(gw);
	long long end;

	if (flush_buffer(w, 1))
		return -1;
	header_buffer(w, w->buf);
	if (w->start >= 0) {
		end = ftello(w->f);
		if (end < 0 || fseeko(w->f, w->start, SEEK_SET) != 0 ||
		    write_out(w, w->buf, w->hsize) || fseeko(w->f, end, SEEK_SET) != 0)
			return fail(w, "cannot rewrite the logfile header");
	} else {
		/* Spooled: the header first, then every buffer after it. */
		size_t n;

		if (fwrite(w->buf, 1, w->hsize, w->out) != w->hsize ||
		    fseeko(w->f, w->hsize, SEEK_SET) != 0)
			return fail(w, "write failed");
		while ((n = fread(w->buf, 1, w->o.buffer_size, w->f)) > 0)
			if (fwrite(w->buf, 1, n, w->out) != n)
				return fail(w, "write failed");
		if (ferror(w->f))
			return fail(w, "spool file read failed");
	}
	if (fflush(w->out))
		return fail(w, "write failed");
	return 0;
}

static void etl_destroy(struct gen_writer *gw)
{
	struct etl_writer *w = W(gw);

	if (!w)
		return;
	if (w->f && w->f != w->out)
		fclose(w->f);
	free(w->buf);
	free(w->cbuf);
	free(w->lzx);
	free(w);
}

struct gen_writer *gen_etl_new(const struct gen_etl_opts *opts)
{
	struct etl_writer *w = calloc(1, sizeof *w);

	if (!w)
		return NULL;
	if (opts)
		w->o = *opts;
	w->base.ops = &gen_write_etl_ops;
	return &w->base;
}

/* gen_writer_fail's job, here because this module links without the writer
 * table (tests/etl take libgcetl_w.a alone). */
static int option_fail(struct gen_writer *gw, const char *key, const char *value)
{
	snprintf(gw->error, sizeof gw->error, "etl: option %s=%s: want buffer-size=N (a multiple "
		 "of 8 in 1024..16777216), kernel-every=N, foreign-every=N, compressed=0|1 or process-id=N "
		 "(1..4294967295)", key, value);
	return -1;
}

/* gcgen -O KEY=VALUE: the library options by name. */
static int etl_option(struct gen_writer *gw, const char *key, const char *value)
{
	struct etl_writer *w = (struct etl_writer *)(void *)gw;
	char *end;
	unsigned long v = strtoul(value, &end, 0);

	if (!*value || *end || *value == '-' || v > 0xFFFFFFFFul)
		return option_fail(gw, key, value);
	if (strcmp(key, "buffer-size") == 0 && v >= 1024 && v <= 16u << 20 && v % 8 == 0)
		w->o.buffer_size = (uint32_t)v;
	else if (strcmp(key, "kernel-every") == 0)
		w->o.kernel_every = (unsigned)v;
	else if (strcmp(key, "foreign-every") == 0)
		w->o.foreign_every = (unsigned)v;
	else if (strcmp(key, "compressed") == 0 && v <= 1)
		w->o.compressed = (int)v;
	else if (strcmp(key, "process-id") == 0 && v > 0)
		w->o.process_id = (uint32_t)v;
	else
		return option_fail(gw, key, value);
	return 0;
}

static struct gen_writer *create(void)
{
	return gen_etl_new(NULL);
}

static struct gen_writer *create_compressed(void)
{
	struct gen_etl_opts o = { 0, 0, 0, 1, 0 };
	struct gen_writer *w = gen_etl_new(&o);

	if (w)
		w->ops = &gen_write_etl_compressed_ops;
	return w;
}

static struct gen_writer *create_merged(void)
{
	struct gen_etl_opts o = { 0, GEN_ETL_MERGED_KERNEL_EVERY, 0, 0, 0 };
	struct gen_writer *w = gen_etl_new(&o);

	if (w)
		w->ops = &gen_write_etl_merged_ops;
	return w;
}

const struct gen_writer_ops gen_write_etl_ops = {
	.format = "etl",
	.description = "ETW .etl as Windows writes it (64 KiB buffers, EVENT_HEADER records)",
	.create = create, .begin = etl_begin, .event = etl_event, .end = etl_end, .destroy = etl_destroy,
	.option = etl_option,
};
const struct gen_writer_ops gen_write_etl_merged_ops = {
	.format = "etl-merged",
	.description = "ETW .etl with kernel records between the runtime's, as merged traces have",
	.create = create_merged, .begin = etl_begin, .event = etl_event, .end = etl_end, .destroy = etl_destroy,
	.option = etl_option,
};
const struct gen_writer_ops gen_write_etl_compressed_ops = {
	.format = "etl-compressed",
	.description = "ETW .etl in compressed mode (LZXPRESS buffers), as PerfView's merge writes it",
	.create = create_compressed, .begin = etl_begin, .event = etl_event, .end = etl_end,
	.destroy = etl_destroy, .option = etl_option,
};
