/*
 * pipeline.h - reading a file on a thread of its own (gcoracle --threads 2).
 *
 * Two stages: a reading thread runs the container reader, the per-thread
 * timestamp check (GC-S023, in file order) and the time-order window; the
 * calling thread decodes, checks and writes, as one thread does. When
 * every event is written (ctx->on_event set: --json, --cbor), the reading
 * thread also decodes and checks, and the calling thread decodes each
 * event whole, silently, and writes it: writing is the larger part. Between
 * them a bounded queue of a few chunks carries, in the order one thread
 * would have made them, the events the window hands on (copied: the
 * reader's blocks stay the reading thread's), the diagnostics the reading
 * side raised (formatted there, counted and written here) and progress
 * ticks. So the output is the one thread's, byte for byte.
 *
 * Only for files: a directory reader (CTF) locates diagnostics' offsets
 * in its own state (or_diag_sink.locate), which the writing thread would
 * read while the reading thread moves it.
 *
 * Use: p = or_pipe_new(ctx, or_process_event); open the reader with or_pipe_ctx(p) (its
 * diagnostics go straight to ctx's sink until or_pipe_run); st =
 * or_pipe_run(p, ops, r, &next, &end); close the reader; or_pipe_free(p).
 * When a thread cannot be started, or_pipe_run reads on the calling thread.
 */
#ifndef ORACLE_PIPELINE_H
#define ORACLE_PIPELINE_H

#include "oracle/oracle.h"

struct or_pipe;

/* What the writing side does with each event: or_process_event (run.c,
 * which calls this module: handed over, not linked, to keep the modules
 * free of a loop). */
typedef void (*or_pipe_process_fn)(struct or_ctx *ctx, const struct or_event *ev);

/* NULL when out of memory (then read with one thread). */
struct or_pipe *or_pipe_new(struct or_ctx *ctx, or_pipe_process_fn process);
/* The context the reader is opened with: its reports go through the pipe. */
struct or_ctx *or_pipe_ctx(struct or_pipe *p);
/* Every event of the open reader r through the pipeline, as run.c's
 * event loop; *next and *end_off as there. */
enum or_status or_pipe_run(struct or_pipe *p, const struct or_reader_ops *ops,
                           struct or_reader *r, uint64_t *next, uint64_t *end_off);
/* After the reader is closed: counts that went uncounted, and free. */
void or_pipe_free(struct or_pipe *p);

#endif
