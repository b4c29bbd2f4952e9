/*
 * etl_read.c - the ETW .etl reader. See etl_r.h.
 *
 * Shape: the file is a row of BufferSize-byte buffers (in a compressed
 * file, a row of buffers each as long as its header says, expanded into
 * one BufferSize-byte buffer). etr_next() walks the records of the current
 * buffer, from its 0x48-byte header to its end of data (Offset), each
 * record 8-byte aligned; when the buffer is used up it reads the next one. Each record's header type (byte 2) says where its
 * size is and how long its fixed header is: one table lookup per record.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/etl/etl_inflate.h"
#include "oracle/formats/etl/etl_r.h"
#include "spec/gcspec.h"
#include "util/le.h"

#define BUFHDR ETL_BUFHDR
#define MIN_BUFFER 0x200u         /* room for a buffer header and the logfile header */
#define MAX_BUFFER (64u << 20)    /* Windows allows 1 MiB (16 MiB lately); far above */
#define NO_PER_PROCESSOR_BUFFERING 0x10000000u
#define COMPRESSED_MODE 0x04000000u   /* LogFileMode: EVENT_TRACE_COMPRESSED_MODE */
#define BUFFER_COMPRESSED ETL_BUFFER_COMPRESSED /* BufferFlag: the data after the header is LZXPRESS */
#define SLACK ETL_SLACK
#define MAX_NAMES 256             /* distinct GUID names kept; more share one */

enum rkind { R_UNKNOWN = 0, R_SYSTEM, R_COMPACT, R_PERFINFO, R_CLASSIC, R_INSTANCE,
             R_MESSAGE, R_EVENT };

/* Per header type: the kind, where the 16-bit record size is, and the size
 * of the fixed header (the smallest legal record). */
static const struct rtype {
	uint8_t kind, size_at, min;
	uint8_t psize;               /* events: pointer size the type implies */
} rtypes[32] = {
	[0x01] = { R_SYSTEM, 4, 0x20, 4 },   [0x02] = { R_SYSTEM, 4, 0x20, 8 },
	[0x03] = { R_COMPACT, 4, 0x18, 4 },  [0x04] = { R_COMPACT, 4, 0x18, 8 },
	[0x0A] = { R_CLASSIC, 0, 0x30, 4 },  [0x0B] = { R_INSTANCE, 0, 0x48, 4 },
	[0x0F] = { R_MESSAGE, 0, 0x08, 0 },
	[0x10] = { R_PERFINFO, 4, 0x10, 4 }, [0x11] = { R_PERFINFO, 4, 0x10, 8 },
	[0x12] = { R_EVENT, 0, 0x50, 4 },    [0x13] = { R_EVENT, 0, 0x50, 8 },
	[0x14] = { R_CLASSIC, 0, 0x30, 8 },  [0x15] = { R_INSTANCE, 0, 0x48, 8 },
};

static const char *const type_name[32] = {
	[0x01] = "SYSTEM32", [0x02] = "SYSTEM64", [0x03] = "COMPACT32", [0x04] = "COMPACT64",
	[0x0F] = "MESSAGE", [0x10] = "PERFINFO32", [0x11] = "PERFINFO64",
};

struct etr_reader {
	FILE *in;
	etr_report_fn report;
	etr_process_fn on_process;
	void *arg;
	struct or_stream_info *info;
	uint8_t *buf;              /* the buffer being walked: base, or etl_inflate's */
	uint8_t *base;             /* bsize + SLACK bytes: buffer 0, and the others of a plain file */
	uint8_t *cbuf;             /* compressed mode: a buffer's data as stored */
	struct etl_inflate *inflate; /* compressed mode: its buffers, read and expanded */
	uint32_t bsize;            /* the file's buffer size */
	uint64_t boff;             /* file offset of buf[0] */
	uint32_t pos, end;         /* next record; end of data in this buffer */
	/* Offsets of records: boff + (pos & posmask). A decompressed buffer
	 * has no file offset per record: its records are reported at the
	 * buffer's own offset. */
	uint32_t posmask;
	int compressed;            /* LogFileMode says EVENT_TRACE_COMPRESSED_MODE */
	uint32_t session_bsize;    /* the logfile header's BufferSize, when usable */
	int in_buffer;
	int done;
	uint8_t psize;             /* the logfile header's pointer size */
	uint64_t index;
	uint64_t file_end;         /* bytes read so far */
	struct etr_counts counts;
	uint8_t noted[32];         /* W010 said for this header type */
	int last_provider;         /* GUID of the last EVENT_HEADER record, and its provider */
	uint8_t last_guid[16];
	char names[MAX_NAMES][40]; /* GUID texts of other providers */
	unsigned nnames;
	char msg[256];
};

/* --- helpers ------------------------------------------------------------------- */

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void say(struct etr_reader *r, unsigned code, uint64_t event, uint64_t off,
                const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	if (r->report)
		r->report(r->arg, code, event, off, r->msg);
}

/* Read up to n bytes to dst; returns the count (short at end of file). */
static size_t fill_to(struct etr_reader *r, uint8_t *dst, size_t n)
{
	size_t got = fread(dst, 1, n, r->in);

	r->file_end += got;
	return got;
}

static size_t fill(struct etr_reader *r, size_t n)
{
	return fill_to(r, r->buf, n);
}

/* The file offset a diagnostic or event gives for buffer position pos. */
static inline uint64_t where(const struct etr_reader *r, uint32_t pos)
{
	return r->boff + (pos & r->posmask);
}

/* "{e13c0d23-ccbc-4e12-931b-d9cc2eee27e4}" for a GUID in Windows layout. */
static void guid_text(const uint8_t *g, char out[40])
{
	snprintf(out, 40, "{%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x}",
	         le32(g), le16(g + 4), le16(g + 6), g[8], g[9], g[10], g[11], g[12],
	         g[13], g[14], g[15]);
}

/* The name an event of another provider goes by: its GUID, interned so the
 * pointer stays valid (the runner notes each distinct name once). */
static const char *other_name(struct etr_reader *r, const uint8_t *g)
{
	char t[40];

	guid_text(g, t);
	for (unsigned i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], t))
			return r->names[i];
	if (r->nnames == MAX_NAMES)
		return "(other providers)";
	memcpy(r->names[r->nnames], t, sizeof t);
	return r->names[r->nnames++];
}

static inline int provider_of(struct etr_reader *r, const uint8_t *g)
{
	if (!memcmp(g, r->last_guid, 16))
		return r->last_provider;
	memcpy(r->last_guid, g, 16);
	r->last_provider = -1;
	for (int i = 0; i < GCSPEC_NPROVIDERS; i++)
		if (!memcmp(g, gcspec_providers[i].guid, 16))
			r->last_provider = i;
	return r->last_provider;
}

/* --- buffers ---------------------------------------------------------------------- */

/*
 * Check the end of data of the buffer now in buf (got bytes of it present,
 * its size checked by the caller) and set pos/end. Returns 0 to walk its
 * records, -1 to skip it.
 */
static int start_buffer(struct etr_reader *r, size_t got)
{
	uint32_t saved = le32(r->buf + 4), off = le32(r->buf + 0x30);
	unsigned long long n = (unsigned long long)(r->counts.buffers - 1);

	if (off < BUFHDR || off > r->bsize) {
		say(r, GCSPEC_DIAG_W004, UINT64_MAX, r->boff + 0x30,
		    "buffer %llu: end of data (Offset) %u lies outside the buffer's %u..%u; buffer skipped",
		    n, off, BUFHDR, r->bsize);
		r->counts.buffers_skipped++;
		return -1;
	}
	/* The header buffer of a relogged file keeps the SavedOffset of the
	 * session it came from and one more record past it (measured):
	 * Offset bounds the records there, and is no fault. */
	if (saved != off && r->counts.buffers > 1)
		say(r, GCSPEC_DIAG_W004, UINT64_MAX, r->boff + 4,
		    "buffer %llu: SavedOffset %u disagrees with Offset %u (Offset used)", n, saved, off);
	r->pos = BUFHDR;
	/* A truncated buffer: only the records before the cut are there. */
	r->end = off < got ? off : (uint32_t)got;
	r->in_buffer = 1;
	return 0;
}

/* No buffer follows: compare the count with the logfile header's. */
static int end_of_buffers(struct etr_reader *r)
{
	uint64_t have = r->counts.buffers;

	if (r->counts.buffers_written && have < r->counts.buffers_written)
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, r->file_end,
		    "file ends after %llu buffers; the logfile header says %llu were written",
		    (unsigned long long)have, (unsigned long long)r->counts.buffers_written);
	else if (have > r->counts.buffers_written)
		say(r, GCSPEC_DIAG_W008, UINT64_MAX, 0x48 + 0x20 + 0x24,
		    "the file holds %llu buffers, the logfile header's BuffersWritten says %llu",
		    (unsigned long long)have, (unsigned long long)r->counts.buffers_written);
	return -1;
}

/* A buffer of a plain file: BufferSize bytes. 0: ready; 1: skipped; -1: end. */
static int read_plain(struct etr_reader *r)
{
	size_t got = fill(r, r->bsize);
	uint32_t size;

	r->posmask = UINT32_MAX;
	if (got == 0)
		return end_of_buffers(r);
	r->counts.buffers++;
	if (got < r->bsize) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, r->file_end,
		    "file ends inside buffer %llu (%zu of %u bytes present)",
		    (unsigned long long)(r->counts.buffers - 1), got, r->bsize);
		r->done = 1;
		if (got < BUFHDR)
			return -1;
	}
	size = le32(r->buf);
	if (got >= BUFHDR && (le16(r->buf + 0x34) & BUFFER_COMPRESSED)) {
		say(r, GCSPEC_DIAG_W014, UINT64_MAX, r->boff + 0x34,
		    "buffer %llu: BufferFlag 0x%04x says compressed, but the logfile header's LogFileMode 0x%08x lacks EVENT_TRACE_COMPRESSED_MODE; buffer skipped",
		    (unsigned long long)(r->counts.buffers - 1), le16(r->buf + 0x34),
		    r->counts.log_file_mode);
		r->counts.buffers_skipped++;
		return r->done ? -1 : 1;
	}
	if (size != r->bsize) {
		say(r, GCSPEC_DIAG_W003, UINT64_MAX, r->boff,
		    "buffer %llu: BufferSize %u, the file's buffers are %u bytes; buffer skipped",
		    (unsigned long long)(r->counts.buffers - 1), size, r->bsize);
		r->counts.buffers_skipped++;
		return r->done ? -1 : 1;
	}
	if (start_buffer(r, got))
		return r->done ? -1 : 1;
	return 0;
}

/*
 * A buffer of a compressed file: its header, whose BufferSize is the bytes
 * it takes in the file, then (BufferFlag 0x40) LZXPRESS data that expands
 * to exactly Offset - 0x48 bytes, or the buffer as it is. etl_inflate.c
 * reads and expands it (maybe ahead, on other threads); everything said
 * about it is said here, when it is reached. 0: ready; 1: skipped; -1:
 * end (or the next buffer cannot be found).
 */
static int read_packed(struct etr_reader *r)
{
	const struct etl_buffer *b = etl_inflate_next(r->inflate);
	unsigned long long k = (unsigned long long)r->counts.buffers;
	uint32_t size, off;
	size_t n, got;
	int packed;

	r->buf = b->buf;
	r->boff = b->offset;
	r->file_end = b->end_header;
	if (b->got_header == 0)
		return end_of_buffers(r);
	r->counts.buffers++;
	if (b->got_header < BUFHDR) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, r->file_end,
		    "file ends inside buffer %llu's header (%zu of %u bytes present)", k,
		    b->got_header, BUFHDR);
		return -1;
	}
	size = le32(r->buf);
	off = le32(r->buf + 0x30);
	packed = (le16(r->buf + 0x34) & BUFFER_COMPRESSED) != 0;
	if (size < BUFHDR + (packed ? 2u : 0u) || size > r->bsize) {
		/* The next buffer starts where this one's size says: lost. */
		say(r, GCSPEC_DIAG_W003, UINT64_MAX, r->boff,
		    "buffer %llu: BufferSize %u (its size in a compressed file) lies outside %u..%u; the rest of the file is skipped",
		    k, size, BUFHDR + (packed ? 2u : 0u), r->bsize);
		r->counts.buffers_skipped++;
		return -1;
	}
	n = size - BUFHDR;
	got = b->got_data;
	r->file_end = b->end_data;
	if (got < n) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, r->file_end,
		    "file ends inside buffer %llu (%zu of %u bytes present)", k, BUFHDR + got, size);
		r->done = 1;
		if (!packed)
			return start_buffer(r, BUFHDR + got) ? -1 : 0;
		/* A cut LZXPRESS stream is not decoded: its buffer is lost. */
		r->counts.buffers_skipped++;
		return -1;
	}
	if (!packed) {
		r->posmask = UINT32_MAX;
		return start_buffer(r, size) ? 1 : 0;
	}
	if (!b->expanded)
		return start_buffer(r, 0) ? 1 : 0; /* Offset outside the buffer: reports W004 */
	r->counts.buffers_decompressed++;
	if (b->ok)
		r->counts.bytes_expanded += b->out;
	if (!b->ok) {
		say(r, GCSPEC_DIAG_W012, UINT64_MAX, r->boff + BUFHDR,
		    "buffer %llu: its LZXPRESS data (%zu bytes) is corrupt or expands past the %u-byte buffer; buffer skipped",
		    k, n, r->bsize);
		r->counts.buffers_skipped++;
		return 1;
	}
	if (b->out != off - BUFHDR) {
		say(r, GCSPEC_DIAG_W013, UINT64_MAX, r->boff + 0x30,
		    "buffer %llu: its LZXPRESS data expands to %zu bytes, Offset %u says %u; buffer skipped",
		    k, b->out, off, off - BUFHDR);
		r->counts.buffers_skipped++;
		return 1;
	}
	r->posmask = 0;
	return start_buffer(r, off) ? 1 : 0;
}

/* Read the next buffer. 0: one is ready; -1: end of file. */
static int next_buffer(struct etr_reader *r)
{
	for (;;) {
		int rc;

		r->boff = r->file_end;
		rc = r->compressed ? read_packed(r) : read_plain(r);
		if (rc <= 0)
			return rc;
	}
}

/* --- the logfile header ------------------------------------------------------------- */

static int bad_header(struct etr_reader *r, uint64_t off, const char *why)
{
	say(r, GCSPEC_DIAG_W001, UINT64_MAX, off, "%s", why);
	return -1;
}

/* Parse the logfile header record at buf[BUFHDR] (got bytes in buf). */
static int logfile_header(struct etr_reader *r, size_t got, struct or_stream_info *info)
{
	const uint8_t *h = r->buf + BUFHDR, *lf = h + 0x20;
	uint32_t size, ps, boot, flags;
	uint64_t freq;

	if (got < BUFHDR + 0x20 + 0x38) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, got, "file ends inside the logfile header record");
		return -1;
	}
	if ((h[3] & 0xC0) != 0xC0 || (h[2] != 0x01 && h[2] != 0x02) || h[6] != 0 || h[7] != 0)
		return bad_header(r, BUFHDR,
		                  "the first record is not a logfile header (SYSTEM header, group 0, type 0)");
	size = le16(h + 4);
	ps = le32(lf + 0x2C);
	if (ps != 4 && ps != 8) {
		say(r, GCSPEC_DIAG_W011, UINT64_MAX, BUFHDR + 0x20 + 0x2C,
		    "logfile header PointerSize %u (must be 4 or 8); %u from the header type used",
		    ps, h[2] == 0x01 ? 4u : 8u);
		ps = h[2] == 0x01 ? 4 : 8;
	}
	boot = ((0x38 + 2 * ps + 0xAC) + 7u) & ~7u;
	if (size < 0x20 + boot + 32 || BUFHDR + size > r->bsize)
		return bad_header(r, BUFHDR + 4, "the logfile header record's size does not hold TRACE_LOGFILE_HEADER");
	if (BUFHDR + size > got) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, got, "file ends inside the logfile header record");
		return -1;
	}
	/* A relogger (PerfView's merge, compressed or not) writes the header
	 * buffer at its own size, smaller than the session's buffers. */
	r->session_bsize = r->bsize;
	if (le32(lf) > r->bsize && le32(lf) <= MAX_BUFFER && le32(lf) % 8 == 0)
		r->session_bsize = le32(lf);
	else if (le32(lf) != r->bsize)
		say(r, GCSPEC_DIAG_W003, UINT64_MAX, BUFHDR + 0x20,
		    "logfile header BufferSize %u, the first buffer's is %u", le32(lf), r->bsize);
	r->psize = (uint8_t)ps;
	r->counts.log_file_mode = le32(lf + 0x20);
	r->counts.buffers_written = le32(lf + 0x24);
	r->counts.start_filetime = le64(lf + boot + 16);
	freq = le64(lf + boot + 8);
	flags = le32(lf + boot + 24);
	/* ReservedFlags is the clock: 1 QPC (PerfFreq), 2 system time
	 * (100 ns), 3 CPU cycles (CpuSpeedInMHz). */
	if (flags == 2)
		freq = 10000000u;
	else if (flags == 3)
		freq = (uint64_t)le32(lf + 0x34) * 1000000u;
	if (!freq)
		bad_header(r, BUFHDR + 0x20 + boot + 8, "clock frequency is 0: timestamps cannot be converted");
	info->clock_frequency = freq;
	info->start_ticks = le64(h + 0x10);
	info->process_id = le32(h + 0x0C);
	info->pointer_size = (uint8_t)ps;
	r->pos = BUFHDR + ((size + 7u) & ~7u);
	return 0;
}

/* --- records ------------------------------------------------------------------------- */

/* The rest of the buffer is lost: say so, move to the next buffer. */
static void lose_buffer(struct etr_reader *r, unsigned code, uint32_t at, const char *fmt,
                        unsigned a, unsigned b)
{
	say(r, code, UINT64_MAX, where(r, at), fmt, a, b);
	r->in_buffer = 0;
}

/* Extended data items of the EVENT_HEADER record at p (size bytes): set
 * *payload to the offset of the user data. -1 after reporting. */
static int skip_extended(struct etr_reader *r, const uint8_t *p, uint32_t size, uint32_t *payload)
{
	uint32_t at = 0x50;

	for (;;) {
		uint32_t n;

		if (at + 8 > size) {
			say(r, GCSPEC_DIAG_W009, r->index, where(r, r->pos + at),
			    "extended data item header runs past the record (%u bytes); event skipped", size);
			return -1;
		}
		n = (8u + le16(p + at + 6) + 7u) & ~7u;
		if (at + n > size) {
			say(r, GCSPEC_DIAG_W009, r->index, where(r, r->pos + at),
			    "extended data item of %u bytes runs past the record (%u bytes); event skipped",
			    le16(p + at + 6), size);
			return -1;
		}
		if (!(le16(p + at + 4) & 1)) {
			*payload = at + n;
			return 0;
		}
		at += n;
	}
}

static void pass_over(struct etr_reader *r, uint8_t type)
{
	r->counts.passed_over++;
	r->counts.by_type[type]++;
	if (!r->noted[type]) {
		r->noted[type] = 1;
		say(r, GCSPEC_DIAG_W010, UINT64_MAX, where(r, r->pos),
		    "%s records (kernel or other non-event headers) are passed over and counted (noted once per header type)",
		    type_name[type] ? type_name[type] : "header type");
	}
}

/* A SYSTEM record of the kernel's Process group (3): Start (1) and End (2)
 * go to the callback. Version 0 puts the ProcessId first, as a pointer;
 * later versions put UniqueProcessKey (a pointer) before a 32-bit
 * ProcessId. A record too short to hold it is passed over like the rest. */
static void process_record(struct etr_reader *r, const uint8_t *p, uint32_t size,
                           const struct rtype *t)
{
	uint32_t at = 0x20 + (le16(p) ? t->psize : 0);

	if (p[7] != 3 || (p[6] != 1 && p[6] != 2) || !r->on_process || at + 4 > size)
		return;
	r->counts.process_records++;
	r->on_process(r->arg, p[6] == 1, le32(p + at), le64(p + 0x10));
}

/*
 * The record at r->pos: 1 with ev filled, 0 when passed over (r->pos has
 * moved on or the buffer is finished).
 */
static int record(struct etr_reader *r, struct or_event *ev)
{
	const uint8_t *p = r->buf + r->pos;
	const struct rtype *t;
	uint32_t room = r->end - r->pos, size, data = 0;
	uint8_t type;

	if (room < 4 || le32(p) == 0xFFFFFFFFu) {
		r->in_buffer = 0; /* the fill after the last record */
		return 0;
	}
	type = p[2];
	t = type < 32 ? &rtypes[type] : &rtypes[0];
	if ((p[3] & 0xC0) != 0xC0 || t->kind == R_UNKNOWN) {
		lose_buffer(r, GCSPEC_DIAG_W007, r->pos,
		            "record of header type 0x%02x (marker byte 0x%02x): its size is unknown; rest of the buffer skipped",
		            type, p[3]);
		return 0;
	}
	if (room < t->size_at + 2u) {
		lose_buffer(r, GCSPEC_DIAG_W005, r->pos,
		            "record header runs past the buffer's end of data (%u of %u bytes)", room, t->min);
		return 0;
	}
	size = le16(p + t->size_at);
	if (size < t->min) {
		lose_buffer(r, GCSPEC_DIAG_W006, r->pos,
		            "record size %u is below the %u bytes of its header; rest of the buffer skipped",
		            size, t->min);
		return 0;
	}
	if (size > room) {
		/* In a truncated buffer the cut was already reported. */
		if (r->done && r->end < le32(r->buf + 0x30))
			r->in_buffer = 0;
		else
			lose_buffer(r, GCSPEC_DIAG_W005, r->pos,
			            "record of %u bytes runs past the buffer's end of data (%u bytes left); rest of the buffer skipped",
			            size, room);
		return 0;
	}
	switch (t->kind) {
	case R_EVENT:
		if ((le16(p + 4) & 1) && skip_extended(r, p, size, &data)) {
			r->counts.events_skipped++;
			break;
		}
		if (!data)
			data = 0x50;
		/* Every field set one by one (a memset of the whole event
		 * cost more than the record's parsing). */
		ev->model_fields = NULL;
		ev->model_fields_len = 0;
		ev->block = NULL;
		ev->cls = 0;
		ev->writer_thread = 0;
		ev->provider = provider_of(r, p + 0x18);
		/* A 32-bit runtime on 64-bit Windows writes EVENT_HEADER32: the
		 * pointer size travels with the event (a merged file holds
		 * 32- and 64-bit processes). */
		ev->pointer_size = t->psize;
		if (ev->provider >= 0) {
			ev->provider_name = gcspec_providers[ev->provider].name;
		} else {
			ev->provider_name = other_name(r, p + 0x18);
			r->counts.other_provider++;
		}
		ev->thread_id = le32(p + 0x08);
		ev->process = le32(p + 0x0C);
		ev->timestamp = le64(p + 0x10);
		ev->id = le16(p + 0x28);
		ev->version = p[0x2A];
		ev->level = p[0x2C];
		ev->opcode = p[0x2D];
		ev->keywords = le64(p + 0x30);
		ev->payload = p + data;
		ev->payload_len = size - data;
		goto out;
	case R_CLASSIC:
	case R_INSTANCE:
		/* Classic events name an event class, not a provider. */
		memset(ev, 0, sizeof *ev);
		ev->provider = -1;
		ev->provider_name = other_name(r, p + 0x18);
		ev->pointer_size = t->psize;
		ev->thread_id = le32(p + 0x08);
		ev->process = le32(p + 0x0C);
		ev->timestamp = le64(p + 0x10);
		ev->opcode = p[4];
		ev->level = p[5];
		ev->version = (uint8_t)le16(p + 6);
		ev->payload = p + t->min;
		ev->payload_len = size - t->min;
		r->counts.classic++;
		goto out;
	case R_SYSTEM:
		process_record(r, p, size, t);
		pass_over(r, type);
		break;
	default:
		pass_over(r, type);
		break;
	}
	r->pos += (size + 7u) & ~7u;
	return 0;
out:
	ev->index = r->index++;
	ev->offset = where(r, r->pos);
	ev->payload_offset = where(r, (uint32_t)(ev->payload - r->buf));
	r->pos += (size + 7u) & ~7u;
	r->counts.events++;
	return 1;
}

/* --- public -------------------------------------------------------------------------------- */

int etr_probe(const uint8_t *head, size_t len)
{
	uint32_t size, off;

	if (len < 0x38)
		return 0;
	size = le32(head);
	off = le32(head + 0x30);
	/* Buffer 0: a plausible size, its end of data inside it, type HEADER. */
	return size >= MIN_BUFFER && size <= MAX_BUFFER && size % 8 == 0 &&
	       off >= BUFHDR && off <= size && le16(head + 0x36) == 4;
}

struct etr_reader *etr_open(FILE *in, etr_report_fn report, void *arg,
                            struct or_stream_info *info)
{
	struct etr_reader *r = calloc(1, sizeof *r);
	uint8_t head[BUFHDR];
	size_t got;

	if (!r)
		return NULL;
	r->in = in;
	r->report = report;
	r->arg = arg;
	r->info = info;
	r->last_provider = -1;
	memset(r->last_guid, 0xFF, sizeof r->last_guid);
	memset(info, 0, sizeof *info);
	info->format = "etl";
	info->pointer_size = 8;
	got = fread(head, 1, sizeof head, in);
	r->file_end = got;
	if (got < sizeof head) {
		say(r, GCSPEC_DIAG_W002, UINT64_MAX, got, "file ends inside the first buffer header");
		goto fail;
	}
	r->bsize = le32(head);
	if (r->bsize < MIN_BUFFER || r->bsize > MAX_BUFFER || r->bsize % 8) {
		say(r, GCSPEC_DIAG_W003, UINT64_MAX, 0,
		    "first buffer's BufferSize %u is impossible (a multiple of 8 from %u to %u)",
		    r->bsize, MIN_BUFFER, MAX_BUFFER);
		goto fail;
	}
	r->base = r->buf = malloc(r->bsize + SLACK);
	if (!r->buf)
		goto fail;
	memcpy(r->buf, head, sizeof head);
	got = sizeof head + fread(r->buf + sizeof head, 1, r->bsize - sizeof head, in);
	r->file_end = got;
	r->boff = 0;
	r->posmask = UINT32_MAX;
	r->counts.buffers = 1;
	if (logfile_header(r, got, info))
		goto fail;
	info->format_version = 1;
	/* Per-processor buffers group events by processor, not by time. */
	info->unordered = r->counts.log_file_mode & NO_PER_PROCESSOR_BUFFERING ? 0 : OR_BY_PROCESSOR;
	r->compressed = (r->counts.log_file_mode & COMPRESSED_MODE) != 0;
	{
		uint32_t pos = r->pos;
		size_t b0 = r->bsize;

		if (got < r->bsize) {
			say(r, GCSPEC_DIAG_W002, UINT64_MAX, got,
			    "file ends inside buffer 0 (%zu of %u bytes present)", got, r->bsize);
			r->done = 1;
		}
		if (r->session_bsize > r->bsize) {
			uint8_t *nb = realloc(r->buf, r->session_bsize + SLACK);

			if (!nb)
				goto fail;
			r->base = r->buf = nb;
			r->bsize = r->session_bsize;
		}
		if (r->compressed &&
		    (!(r->cbuf = malloc(r->bsize + SLACK)) ||
		     !(r->inflate = etl_inflate_new(in, r->file_end, r->bsize, 0, r->base, r->cbuf))))
			goto fail;
		/* Walk the rest of buffer 0 like any other (real files carry more
		 * header-group records there). */
		if (!start_buffer(r, got < b0 ? got : b0))
			r->pos = pos < r->end ? pos : r->end;
	}
	return r;
fail:
	etr_close(r);
	return NULL;
}

enum or_status etr_next(struct etr_reader *r, struct or_event *ev)
{
	for (;;) {
		while (r->in_buffer && r->pos < r->end)
			if (record(r, ev))
				return OR_EVENT;
		r->in_buffer = 0;
		if (r->done || next_buffer(r)) {
			r->done = 1;
			if (ferror(r->in))
				return OR_IOERR;
			if (!r->in_buffer)
				return OR_END;
		}
	}
}

int etr_set_workers(struct etr_reader *r, unsigned workers)
{
	struct etl_inflate *x;

	if (!r->compressed || !workers || r->counts.buffers > 1 || r->done)
		return 0;
	x = etl_inflate_new(r->in, r->file_end, r->bsize, workers, NULL, NULL);
	if (!x)
		return -1;
	etl_inflate_free(r->inflate);
	r->inflate = x;
	return 0;
}

void etr_on_process(struct etr_reader *r, etr_process_fn fn)
{
	r->on_process = fn;
}

void etr_counts(const struct etr_reader *r, struct etr_counts *c)
{
	*c = r->counts;
	c->buffer_size = r->bsize;
}

void etr_close(struct etr_reader *r)
{
	if (!r)
		return;
	etl_inflate_free(r->inflate);
	free(r->base);
	free(r->cbuf);
	free(r);
}
