/*
 * check.h - the invariant checker: field rules and stream state machines.
 *
 * The checker looks at a few fields of each decoded event by index; the
 * indexes are found once per event-version from the spec's field names
 * (or_evinfo), so the per-event work is a table lookup and a switch on the
 * event's kind. State is kept per runtime instance, a (process,
 * ClrInstanceID) pair: or_event.process says the process; events without a
 * ClrInstanceID belong to the last instance seen in their process. Memory:
 * fixed arrays plus maps bounded by live objects (see u64map.h); a trace of
 * more instances than the table holds drops the state of the one unused
 * longest (GC-S027); nothing is allocated per event.
 *
 * Owned by struct or_ctx: or_ctx_init() creates it, or_ctx_free() frees it.
 */
#ifndef ORACLE_CHECK_H
#define ORACLE_CHECK_H

#include "oracle/decode/decode.h"
#include "oracle/oracle.h"

enum or_kind {
	OR_K_OTHER = 0, OR_K_GCSTART, OR_K_GCEND, OR_K_SUSPEND_BEGIN,
	OR_K_SUSPEND_END, OR_K_RESTART_BEGIN, OR_K_RESTART_END,
	OR_K_HEAPSTATS, OR_K_HEAPHISTORY, OR_K_GLOBALHISTORY, OR_K_JOIN,
	OR_K_SEG_CREATE, OR_K_SEG_FREE, OR_K_HANDLE_SET, OR_K_HANDLE_DESTROY,
	OR_K_FIN_BEGIN, OR_K_FIN_END, OR_K_ALLOC_TICK, OR_K_SETTINGS
};

/* Where the fields the checker reads sit in each event-version (-1: absent;
 * check_evinfo.c). The checker reads a decoded event's fields through these
 * indexes and no other way: the lean decoder (or_decode_lean) fills only
 * the fields or_evinfo_fields() names (handed to it as or_check_keep()'s
 * table in or_ctx.keep), so a rule that needs another field adds its index
 * here and says so there. */
struct or_evinfo {
	uint8_t kind;
	uint8_t values;  /* a rule of or_check_values() applies */
	int8_t count, depth, type, reason, clr, heap, amount, amount64, jointime, jointype,
	       address, handle, hkind, numheaps, servergc;
};

extern struct or_evinfo or_evinfo[GCSPEC_NEVENTS];
/* Fill or_evinfo (once; later calls return at once). */
void or_evinfo_init(void);
/* The fields the checker reads of an event-version, one bit per field
 * index (indexes past 63 cannot be named: int8_t). */
uint64_t or_evinfo_fields(const struct or_evinfo *ei);
/* or_evinfo_fields() of every event-version, indexed like gcspec_events:
 * the keep table the lean decoder is given (or_ctx.keep). */
const uint64_t *or_check_keep(void);

struct or_check *or_check_new(void);
void or_check_free(struct or_check *c);
void or_check_event(struct or_ctx *ctx, const struct or_event *ev,
                    const struct or_decoded *dec);
/* The last thread or_check_timestamp() saw (its or_thread_key()) and its
 * entry in the checker's table of threads' last timestamps (NULL after the
 * table changed): a thread's events come in runs. struct or_check begins
 * with it, so that the common case is answered inline. The first process
 * seen, and whether another followed: only then do S023's messages name
 * the process (file order, on the reading side: see check_stream.c). */
struct or_check_ts {
	uint64_t thread;
	uint64_t *last;
	uint32_t process;
	uint8_t any, multi;
};

void or_check_timestamp_slow(struct or_ctx *ctx, const struct or_event *ev);
/* GC-S023, in file order: or_run_file() calls it for every event as read.
 * Keyed on the writing thread (or_writer_thread()) in its process. */
/* The thread whose events must be in time order: the one that wrote them
 * (a sample-profiler event names the thread it sampled, which the sampler
 * stopped at some earlier time), so per writer, as TraceEvent orders them. */
static inline uint64_t or_writer_thread(const struct or_event *ev)
{
	return ev->writer_thread ? ev->writer_thread : ev->thread_id;
}

/* A thread in its process: ETW and LTTng thread ids are 32 bits, and a
 * nettrace file is one process, so the key is one to one. LTTng's vtid is
 * per PID namespace: two containers' threads may share one. */
static inline uint64_t or_thread_key(uint64_t thread, uint32_t process)
{
	return thread ^ (uint64_t)process << 32;
}

static inline void or_check_timestamp(struct or_ctx *ctx, const struct or_event *ev)
{
	struct or_check_ts *t = (struct or_check_ts *)(void *)ctx->check;
	uint64_t w = or_writer_thread(ev);

	if (w && t->last && t->thread == or_thread_key(w, ev->process) &&
	    ev->timestamp >= *t->last) {
		*t->last = ev->timestamp;
		return;
	}
	or_check_timestamp_slow(ctx, ev);
}
void or_check_end(struct or_ctx *ctx, uint64_t next_index, uint64_t offset);

/* A process's start or end, as the trace shows it (the ETW kernel logger's
 * Process Start and End records): the checker acts on it once the events
 * it checks reach its timestamp (they come in time order, these in file
 * order). After an end the process's state is gone; events of that id
 * later are a new process, as after a start. */
enum { OR_PROC_START = 1, OR_PROC_END = 2 };
void or_check_process(struct or_check *c, unsigned what, uint32_t pid, uint64_t timestamp);
/* A reader saw process pid start or end at timestamp: to the checker, or
 * where ctx->on_process carries it (the thread that checks). Here, not in
 * run.c, so that a reader calls nothing of the oracle's top. */
static inline void or_note_process(struct or_ctx *ctx, unsigned what, uint32_t pid,
                                   uint64_t timestamp)
{
	if (ctx->on_process)
		ctx->on_process(ctx->on_process_arg, what, pid, timestamp);
	else
		or_check_process(ctx->check, what, pid, timestamp);
}
void or_check_reset(struct or_check *c);

/* Field rules that need several fields of one event (V004..V006); ei is
 * the event-version's or_evinfo. */
void or_check_values(struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec, const struct or_evinfo *ei);
/* Can a rule of or_check_values() apply to events with these fields? The
 * checker calls it only for those (or_evinfo.values): a new rule there
 * says here which events it concerns. */
int or_values_apply(const struct or_evinfo *ei);

#endif
