/*
 * etl_r.h - the ETW .etl reader.
 *
 * Written from the public descriptions of WMI_BUFFER_HEADER,
 * SYSTEM_TRACE_HEADER, TRACE_LOGFILE_HEADER, EVENT_TRACE_HEADER and
 * EVENT_HEADER (../shared/reference/formats-notes.md §B); it shares no code
 * with gen/'s writer, only the spec tables (gcspec.h).
 *
 * What it returns: every EVENT_HEADER record (EVENT_HEADER32/64) as an
 * event, the provider found by GUID among the spec's providers (others get
 * provider -1 and their GUID as the name), and classic EVENT_TRACE_HEADER /
 * instance records as events of their class GUID. Kernel records (SYSTEM,
 * COMPACT, PERFINFO headers), WPP messages and the logfile header are passed
 * over and counted per header type; they take no event index. Of them, the
 * kernel's Process Start and End records (SYSTEM32/64, group 3, opcodes 1
 * and 2) are also told to the callback etr_on_process() sets: the process
 * id from the payload, after UniqueProcessKey (Process_V1 and later) or
 * first (Process_V0), at the kernel's pointer size, the header type's.
 * DCStart and DCEnd (3, 4: processes running when the session started or
 * stopped) say nothing of a start or an end and are passed over only.
 *
 * Compressed files (LogFileMode EVENT_TRACE_COMPRESSED_MODE, as PerfView's
 * merge writes them): buffer 0 is stored as it is at its own size, every
 * later buffer takes its BufferSize bytes in the file and, with BufferFlag
 * 0x40, holds LZXPRESS (MS-XCA plain LZ77) data that libfwnt expands into
 * one buffer of the logfile header's BufferSize; records in such a buffer
 * are reported at the buffer's file offset.
 *
 * Order: files written with EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING come in
 * time order; other files fill one buffer per processor, so the reader says
 * info->unordered = OR_BY_PROCESSOR and the runner puts events back in time
 * order. The pointer size of each event is its header type's
 * (EVENT_HEADER32: 4), as a 32-bit runtime on 64-bit Windows writes them,
 * in or_event.pointer_size; info->pointer_size is the logfile header's.
 *
 * Streaming: one buffer in memory (the file's BufferSize, at most 64 MiB,
 * allocated once; with workers, etr_set_workers, four more pairs of
 * buffers of at most 4 MiB); memory does not grow with the file. A problem inside a
 * buffer costs the rest of that buffer; truncation ends the stream after
 * the records that lie wholly before the cut.
 *
 * Diagnostics go to the report callback with a GCSPEC_DIAG_W* code, the
 * event index (UINT64_MAX for the file) and the byte offset; the message is
 * valid only during the call. Ownership: or_event and its payload belong to
 * the reader until the next etr_next() or etr_close().
 */
#ifndef ORACLE_ETL_R_H
#define ORACLE_ETL_R_H

#include <stdint.h>
#include <stdio.h>

#include "oracle/formats/reader.h"

typedef void (*etr_report_fn)(void *arg, unsigned code, uint64_t event,
                              uint64_t offset, const char *msg);
/* The kernel logger's Process Start (start 1) or End (start 0) of process
 * pid, at timestamp (the session's clock, as events' timestamps). */
typedef void (*etr_process_fn)(void *arg, int start, uint32_t pid, uint64_t timestamp);

struct etr_reader;

struct etr_counts {
	uint64_t buffers;          /* buffers read, buffer 0 included */
	uint64_t buffers_skipped;  /* bad BufferSize or offsets, corrupt compressed data */
	uint64_t buffers_decompressed; /* compressed buffers expanded (good or not) */
	uint64_t bytes_expanded;   /* what they expanded to */
	uint64_t events;           /* returned by etr_next() */
	uint64_t events_skipped;   /* bad extended data */
	uint64_t classic;          /* classic / instance records returned */
	uint64_t other_provider;   /* EVENT_HEADER events of providers not in the spec */
	uint64_t passed_over;      /* records taking no index (kernel, messages) */
	uint64_t by_type[32];      /* passed-over records per header type */
	uint64_t process_records;  /* kernel Process Start/End told to etr_on_process()'s fn */
	uint64_t buffers_written;  /* the logfile header's claim */
	uint32_t buffer_size;
	uint32_t log_file_mode;
	uint64_t start_filetime;   /* logfile header StartTime */
};

/* Does head (the file's first bytes) look like an .etl file? */
int etr_probe(const uint8_t *head, size_t len);
/* Read buffer 0 and its logfile header. NULL after reporting why. info is
 * kept (see above) and must outlive the reader. */
struct etr_reader *etr_open(FILE *in, etr_report_fn report, void *arg,
                            struct or_stream_info *info);
/* Expand a compressed file's buffers ahead on this many worker threads
 * (etl_inflate.h), before the first etr_next(). What the reader returns and
 * says is the same with any number. 0: done, or nothing to do (a plain
 * file, 0 workers); -1: the threads or their buffers could not be had (the
 * reader goes on without them). */
int etr_set_workers(struct etr_reader *r, unsigned workers);
/* Tell fn (with the reader's report arg) of each kernel Process Start and
 * End record, as it is read (file order, not time order). */
void etr_on_process(struct etr_reader *r, etr_process_fn fn);
enum or_status etr_next(struct etr_reader *r, struct or_event *ev);
void etr_counts(const struct etr_reader *r, struct etr_counts *c);
void etr_close(struct etr_reader *r);

#endif
