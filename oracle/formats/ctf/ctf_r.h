/*
 * ctf_r.h - the oracle's CTF 1.8 trace reader (LTTng-shaped traces).
 *
 * Written from the CTF 1.8 specification and facts about how LTTng-UST and
 * CoreCLR lay traces out; it shares no code with gen/'s writer (only the
 * spec tables) and is not babeltrace2.
 *
 * A trace is a directory: `metadata` (TSDL text, plain or packetized) and
 * stream files. The reader parses the metadata (ctf_tsdl.c), compiles every
 * scope it will decode (ctf_compile.c), maps event classes named
 * "<Provider>:<Symbol>" onto spec event-versions (ctf_class.c), and returns
 * the events of all streams merged by time, each as an or_event whose
 * payload is the ETW-style payload the spec template decodes: typed fields
 * re-laid as the runtime's payload (UTF-8 strings back to UTF-16LE), packed
 * events' data as it is.
 *
 * Offsets: every byte of the trace has one "trace offset": its position in
 * the concatenation of the trace's files, `metadata` first, then the stream
 * files sorted by name. or_event offsets and reported offsets are trace
 * offsets; ctfr_locate turns one into (file name, offset in that file).
 *
 * Streaming: the reader holds the metadata, one packet per stream file (the
 * packet's content, up to 256 MiB; larger is reported) and the tables the
 * metadata makes it keep; memory does not grow with the trace.
 *
 * Diagnostics go to the report callback with a GCSPEC_DIAG_C* code, the
 * event index (UINT64_MAX for the trace) and the trace offset; the message
 * is valid only during the call. Ownership: or_event and its payload belong
 * to the reader until the next ctfr_next() or ctfr_close().
 */
#ifndef ORACLE_CTF_R_H
#define ORACLE_CTF_R_H

#include <stdint.h>

#include "oracle/formats/reader.h"

typedef void (*ctfr_report_fn)(void *arg, unsigned code, uint64_t event, uint64_t offset,
                               const char *msg);

struct ctfr_reader;

/* Reader flags. */
#define CTFR_GENERIC 1u  /* decode everything with the generic interpreter (tests) */

struct ctfr_counts {
	uint64_t events;           /* returned by ctfr_next() */
	uint64_t events_skipped;   /* read but not returned (GC-C006 classes) */
	uint64_t packets;
	uint64_t streams;          /* stream files */
	uint64_t fast_events;      /* decoded by the compiled fast paths */
	uint64_t bytes;            /* trace bytes: metadata and stream files */
};

/* Does dir hold a CTF trace (a file called `metadata`)? */
int ctfr_probe_dir(const char *dir);
/* Read the metadata and the first packet of every stream. *rp is set as
 * soon as the reader exists, so that ctfr_locate works for the diagnostics
 * open reports. Returns 0, or -1 with *rp NULL after reporting why (the
 * trace cannot be read) or when memory runs out. */
int ctfr_open(struct ctfr_reader **rp, const char *dir, ctfr_report_fn report, void *arg,
              struct or_stream_info *info, unsigned flags);
enum or_status ctfr_next(struct ctfr_reader *r, struct or_event *ev);
/* The file a trace offset is in (NULL past the end) and the offset in it. */
const char *ctfr_locate(const struct ctfr_reader *r, uint64_t offset, uint64_t *file_offset);
void ctfr_counts(const struct ctfr_reader *r, struct ctfr_counts *c);
void ctfr_close(struct ctfr_reader *r);

#endif
