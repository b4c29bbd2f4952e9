/*
 * oracle.h - one oracle run: the context every module reports into.
 *
 * An or_ctx holds the diagnostic sink, the stream header, the invariant
 * checker's state and the statistics of one run over one or more files.
 * or_ctx_init() allocates the checker's state (fixed-size tables plus hash
 * tables bounded by live objects, never by the file); or_ctx_free() releases
 * it. Functions that can fail return 0 on success and -1 after reporting why.
 */
#ifndef ORACLE_ORACLE_H
#define ORACLE_ORACLE_H

#include <stdint.h>
#include <stdio.h>

#include "oracle/diag.h"
#include "oracle/formats/reader.h"
#include "oracle/reorder/reorder.h"

struct or_decoded;
struct or_check;

/* The processes whose GCs the summary counts apart. */
#define OR_STAT_PROCESSES 64

struct or_stats {
	uint64_t events;                   /* all events read */
	uint64_t per_event[GCSPEC_NEVENTS]; /* decoded, per event-version */
	uint64_t unknown_version, unknown_id, other_provider;
	uint64_t gcs, suspensions;
	uint64_t bytes;
	/* GCs by process (or_event.process), in first-GC order: the first
	 * OR_STAT_PROCESSES processes; the GCs of later ones in gcs_later.
	 * Shown when a stream held runtime events of several processes
	 * (several_processes), not for several files of one process each. */
	struct or_proc_gcs { uint32_t process; uint64_t gcs; } proc_gcs[OR_STAT_PROCESSES];
	unsigned nproc_gcs;
	uint64_t gcs_later;
	int several_processes;
};

/* Count n GCs of process into s's per-process counts (not into s->gcs);
 * check_stream.c. */
void or_stats_proc_gcs(struct or_stats *s, uint32_t process, uint64_t n);

struct or_progress;

struct or_ctx {
	struct or_diag_sink diag;
	struct or_stream_info info;
	struct or_stats stats;
	struct or_check *check;
	struct or_reorder reorder;  /* time-order window for unordered containers */
	/* Called for every event after decoding and checking; dec is NULL for
	 * events passed over (unknown or other provider). */
	void (*on_event)(void *arg, struct or_ctx *ctx, const struct or_event *ev,
	                 const struct or_decoded *dec);
	void *on_event_arg;
	/* Where the U00x notes already went: one note per distinct
	 * (provider, id, version), and one per distinct other provider name. */
	struct u64map *unknown_seen;
	/* Read every file with this reader (or_reader_ops.format) instead of
	 * probing; NULL to probe. */
	const char *format;
	/* A progress line on a terminal, or NULL (progress.h). */
	struct or_progress *progress;
	/* Per event-version (gcspec_events index), the fields or_decode_lean
	 * must fill, one bit per field index: the checker's (or_check_keep(),
	 * set by or_ctx_init). NULL: or_decode_lean decodes every field. */
	const uint64_t *keep;
	/* gcoracle --threads: 2 or more reads files on a thread of their own
	 * (pipeline.h); 0 and 1, one thread. */
	unsigned threads;
	/* Where a reader's process start or end goes (or_note_process, check.h):
	 * NULL, straight to the checker; the reading thread of --threads 2
	 * sets it to carry them to the thread that checks. */
	void (*on_process)(void *arg, unsigned what, uint32_t pid, uint64_t timestamp);
	void *on_process_arg;
};

int or_ctx_init(struct or_ctx *ctx);
void or_ctx_free(struct or_ctx *ctx);

/* Report a diagnostic about event `event` (OR_NO_EVENT for the file). */
#define or_report(ctx, code, event, offset, name, ...) \
	or_report_to(&(ctx)->diag, (code), (event), (offset), (name), __VA_ARGS__)

/* Decode, check and hand one event to on_event. */
void or_process_event(struct or_ctx *ctx, const struct or_event *ev);
/* End of stream: trace-edge notes (GC open at end, ...). Resets the
 * per-stream state so the next file starts clean. */
void or_end_stream(struct or_ctx *ctx, uint64_t next_index, uint64_t offset);

/* Read one file with the reader that recognises it (or ctx->format's).
 * `in` need not seek: a pipe is read once, the probed head included.
 * Returns 0 when the file
 * was read to its end (diagnostics may have been reported), -1 when it could
 * not be opened or recognised (reported on stderr or as a diagnostic). */
int or_run_file(struct or_ctx *ctx, const char *path, FILE *in);
/* Read a directory container (a CTF trace) the same way; a directory that
 * holds such traces further down has each of them read as its own stream
 * (an LTTng session directory). Returns 0, or -1 as or_run_file. */
int or_run_dir(struct or_ctx *ctx, const char *path);

#endif
