/*
 * reader.h - the small interface every oracle container reader implements.
 *
 * A reader turns a file into a sequence of raw events (header fields plus
 * payload bytes); the payload decoder and the invariant checker never know
 * which container the events came from. One module per container
 * (read_model.c, read_nettrace.c, ...), registered in reader_table.c.
 *
 * Streaming: a reader keeps at most one block of the file in memory; memory
 * does not grow with the file. A directory container keeps at most one
 * block per file of the directory.
 *
 * Ownership: the payload an or_event points to is owned by the reader and
 * stays valid only until the next call to next() or close(), unless the
 * reader lends its block (see below).
 *
 * next() fills every field of *ev (model_fields NULL when there are none)
 * and keeps nothing in it from one call to the next: the caller may hand it
 * a different or_event each time.
 *
 * Lending payloads: for a container with or_stream_info.unordered set, the
 * runner keeps events in the time-order window (reorder.h) until it can
 * hand them on in time order. A reader that reads its blocks into
 * or_blocks of its own pool (block.h) sets or_event.block, and the window
 * keeps the block alive instead of copying the payload; the reader then
 * must not write into a block that someone else still holds (refs > 1),
 * but take a fresh one. A reader that sets block NULL has its payloads
 * copied.
 *
 * Errors: container problems are reported through or_report() with a stable
 * code from docs/diagnostics.toml and the byte offset; next() then returns
 * OR_END if it cannot go on (truncation, bad header) or carries on with the
 * next event it can find. OR_IOERR is for the operating system failing us.
 */
#ifndef ORACLE_READER_H
#define ORACLE_READER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/gcspec.h"

/* OR_SYNC: the reader passed a point before which every event of the file
 * has been returned (a nettrace sequence point); only readers that set
 * or_stream_info.unordered return it. */
#define OR_BY_PROCESSOR 2

enum or_status { OR_SYNC = 2, OR_EVENT = 1, OR_END = 0, OR_IOERR = -1 };

struct or_stream_info {
	const char *format;        /* "cbor-model", "nettrace", ... */
	unsigned format_version;   /* e.g. 5 or 6 for nettrace */
	uint8_t pointer_size;      /* 4 or 8 */
	uint64_t clock_frequency;  /* ticks per second */
	uint64_t start_ticks;
	uint32_t process_id;
	/* 1 when the container groups events by thread rather than by time
	 * (nettrace): the runner then sorts them by timestamp between OR_SYNC
	 * points before checking the stream. OR_BY_PROCESSOR when it groups
	 * them by processor (ETW per-processor buffers): sorted the same way,
	 * and a thread that moved between processors has its events out of
	 * order in the file, so per-thread order (GC-S023) is not checked. */
	uint8_t unordered;
};

struct or_block; /* block.h */

struct or_event {
	uint64_t index;            /* 0-based position in the file */
	uint64_t offset;           /* byte offset of the event's header */
	uint64_t payload_offset;   /* byte offset of the payload's first byte */
	uint64_t timestamp;
	uint64_t thread_id;
	/* The thread that wrote the event, where the container records it
	 * apart from thread_id (nettrace's CaptureThreadId: the sample
	 * profiler writes events that name the thread it sampled); 0 where
	 * the container has one thread id, which is then the writer. */
	uint64_t writer_thread;
	int provider;              /* gcspec provider index, or -1 for others */
	const char *provider_name; /* as the container names it, or NULL */
	uint16_t id;
	uint8_t version;
	uint8_t level;
	uint8_t opcode;
	uint64_t keywords;
	const uint8_t *payload;
	uint32_t payload_len;
	/* Model stream only: the encoded CBOR map of field values recorded by
	 * name (its raw bytes, model_fields_len long), for GC-M005; NULL for
	 * real containers. Owned by the reader like the payload. */
	const void *model_fields;
	size_t model_fields_len;
	/* The block the payload lies in, when the reader lends it (see
	 * above); NULL when it does not. */
	struct or_block *block;
	/* 0, or a number the reader gives the events of one class: every
	 * event it gives this number has the same provider, provider_name,
	 * id, version, level, opcode, keywords and pointer_size, for as long as the reader
	 * is open (a nettrace metadata record's definition). The time-order
	 * window then finds the event's class without comparing them. */
	uint64_t cls;
	/* The pointer size the event was written with (4 or 8), 0 for the
	 * stream's (or_stream_info.pointer_size). A merged .etl holds 32- and
	 * 64-bit processes; the time-order window carries it with the event. */
	uint8_t pointer_size;
	/* The process that wrote the event, where the container says: the
	 * ETW event header's ProcessId, the CTF vpid context (or the trace's
	 * env vpid), and for a one-process container (nettrace, the model
	 * stream) the stream's own (or_stream_info.process_id). 0 where the
	 * container does not say; the checker keeps state per process. */
	uint32_t process;
};

struct or_ctx; /* the checker and diagnostic sink: see check.h / diag.h */

struct or_reader;

struct or_reader_ops {
	const char *format;
	/* Does this look like our container? head holds the file's first bytes. */
	int (*probe)(const uint8_t *head, size_t len);
	/* Read the container header. Returns 0, or -1 after reporting why. */
	int (*open)(struct or_reader **r, FILE *in, struct or_ctx *ctx,
	            struct or_stream_info *info);
	enum or_status (*next)(struct or_reader *r, struct or_event *ev);
	void (*close)(struct or_reader *r);
	/* Directory containers (CTF) set these two and leave probe and open
	 * NULL: does the directory at path hold our container, and open it.
	 * While open, the reader may set ctx->diag.locate so that diagnostics
	 * name the file of the directory their offset is in; close() clears it. */
	int (*probe_dir)(const char *path);
	int (*open_dir)(struct or_reader **r, const char *path, struct or_ctx *ctx,
	                struct or_stream_info *info);
};

/* The registered readers, NULL-terminated (reader_table.c). */
extern const struct or_reader_ops *const or_readers[];

#endif
