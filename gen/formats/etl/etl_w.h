/*
 * etl_w.h - the ETW .etl writer: what Windows writes for a file-mode trace
 * session that records Microsoft-Windows-DotNETRuntime (and its Private and
 * Rundown kin).
 *
 * Written from ../shared/reference/formats-notes.md §B and the public
 * descriptions of WMI_BUFFER_HEADER, SYSTEM_TRACE_HEADER,
 * TRACE_LOGFILE_HEADER and EVENT_HEADER; it shares no code with oracle/'s
 * reader (only the spec tables, gcspec.h).
 *
 * Shape of a file: fixed-size buffers, each a WMI_BUFFER_HEADER (0x48
 * bytes) then 8-byte aligned records up to the buffer's Offset, the rest
 * 0xFF. Buffer 0 holds only the logfile header record (a SYSTEM_TRACE_HEADER
 * of group 0 / type 0 followed by TRACE_LOGFILE_HEADER and the logger and
 * file names); events start in buffer 1, one EVENT_HEADER record each
 * (EVENT_HEADER32 for pointer size 4, EVENT_HEADER64 for 8). Events are
 * written in the order given, into one buffer at a time: the session mode
 * is EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING, so file order is time order.
 * The header's BuffersWritten and EndTime are known only at the end: the
 * writer seeks back to fill them in, or, on a pipe, spools the buffers to a
 * temporary file first.
 *
 * Ownership: the writer copies what it keeps; it never closes the FILE.
 * Errors: 0 or -1 with a message in the writer's error buffer.
 */
#ifndef GEN_ETL_W_H
#define GEN_ETL_W_H

#include <stdint.h>

#include "gen/formats/writer.h"

#define GEN_ETL_DEFAULT_BUFFER (64u * 1024)

struct gen_etl_opts {
	uint32_t buffer_size;      /* bytes per buffer: a multiple of 8, 1024..16 MiB (0: 64 KiB) */
	/* A kernel record (a PERFINFO SampledProfile, as merged traces carry)
	 * after every N events; 0: none. Readers pass these over without
	 * giving them an event index. */
	unsigned kernel_every;
	/* An EVENT_HEADER event of another provider (the TPL EventSource)
	 * after every N events; 0: none. Readers see these as events of an
	 * unknown provider, so they take event indexes. */
	unsigned foreign_every;
	/* Compressed mode, as PerfView's merge (the relogger) writes it:
	 * buffer 0 as it is at its own size (a multiple of 512), every later
	 * buffer its header and the LZXPRESS form of its records
	 * (lzxpress_w.h), BufferSize its bytes in the file. */
	int compressed;
	/* The ProcessId every record's header names; 0: the stream's. A
	 * different one per trace lets tests build machine-wide traces. */
	uint32_t process_id;
};

/* "etl": the runtime's events alone. "etl-merged": a kernel record after
 * every GEN_ETL_MERGED_KERNEL_EVERY events, as traces merged with a kernel
 * session have (the reader passes them over; the events and their indexes
 * are those of "etl"). */
#define GEN_ETL_MERGED_KERNEL_EVERY 8
extern const struct gen_writer_ops gen_write_etl_ops;
extern const struct gen_writer_ops gen_write_etl_merged_ops;
/* "etl-compressed": "etl" in compressed mode (opts.compressed). */
extern const struct gen_writer_ops gen_write_etl_compressed_ops;

/* A new writer with these options (NULL: defaults), or NULL when memory
 * runs out. Drive it with gen_write_etl_ops (begin, event..., end,
 * destroy); w->ops is set. */
struct gen_writer *gen_etl_new(const struct gen_etl_opts *opts);

/* The synthetic call stack the writer records for a stream stack id (1..)
 * in an extended data item: frame addresses into ips (at most max);
 * returns the count. Exposed so tests can check the bytes. */
unsigned gen_etl_stack_frames(uint32_t stack_id, uint64_t *ips, unsigned max);

#endif
