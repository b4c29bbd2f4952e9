/*
 * check_stream.c - the stream state machines, per runtime instance (a
 * process and a ClrInstanceID): GC start/end pairing and nesting,
 * suspensions, heap statistics placement, joins, segments, handles,
 * finalizers; per-thread timestamps, per thread of a process.
 *
 * Instances: in one process, the first OR_MAX_INSTANCES ClrInstanceIDs are
 * checked apart; later ones share the process's newest slot, which is said
 * once (GC-S027). The table holds OR_MAX_SLOTS instances of all processes:
 * when a new one finds it full, the state of the one unused longest is
 * dropped (said once, GC-S027), never merged with another's; if that
 * instance comes back it starts afresh, as at the trace's beginning.
 * Diagnostics name the process once the trace has shown two.
 *
 * Trace edges: a trace can begin or end anywhere, so an end whose begin was
 * never seen (before any begin of that kind) is a note, not an error
 * (GC-S002, GC-S026), and what is still open at the end is a note
 * (GC-S003, GC-S025).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/check/check.h"
#include "oracle/decode/decode_plan.h"
#include "util/u64map.h"

#define OR_MAX_INSTANCES 8          /* per process */
#define OR_MAX_SLOTS 64             /* of all processes */
#define OR_MAX_HEAPS 1024
#define OR_OBJ_LIMIT (1u << 20)   /* live segments/handles tracked */
/* Freed objects are remembered (to see a second free) until this many have
 * piled up and they outnumber the live ones: then the oldest knowledge is
 * dropped, so memory follows the live objects, not the file's length. */
#define OR_DEAD_KEEP (1u << 12)
#define OR_THREAD_LIMIT (1u << 16)
#define OR_MAX_WAITERS 8            /* threads waiting to suspend */
#define OR_SEG_PENDING 64           /* re-created segments held back */
#define OR_PROC_PENDING 256         /* process starts and ends not yet due */
#define OR_PROC_LIMIT 4096          /* processes whose start or end is known */

enum { LIVE = 1, DEAD = 2 };
enum { S_IDLE, S_SUSPENDING, S_SUSPENDED, S_RESTARTING };

struct gc {
	uint32_t count, depth, type, reason;
	uint8_t version;            /* of its GCStart */
	uint8_t paired;             /* its GCStart_V2 twin was seen */
	uint64_t thread;
	int has_depth;
	int unseen;                 /* a background GC the trace began inside */
	uint64_t index, offset;     /* of its GCStart, for GC-S003 */
};

struct inst {
	/* inst_key(process, ClrInstanceID); NO_KEY while the slot is free,
	 * so that the one-entry cache's test is one comparison. */
	uint64_t key;
	int used;
	uint64_t clr;
	uint32_t process;
	/* The trace showed its process start (a kernel Process Start), or
	 * its id end before (a later process took the id): the process
	 * began inside the trace, so its first events are no trace edge. */
	int started;
	/* The trace showed a runtime start in its process (CTF: LTTng-UST's
	 * statedump, EEStartupStart) after its GCs: if GC numbering now
	 * starts over, a new process took the id (pid reuse, or a restart in
	 * the same container); if it goes on, it was the same process. */
	int restart_hint;
	uint64_t current_at;        /* when it last became the current one */
	uint64_t born;              /* when it took its slot */
	struct gc gc[2];
	int ngc;
	int any_gc;                 /* a GCStart or GCEnd was seen */
	int any_start;              /* a GCStart was seen */
	/* GCEnds before the first GCStart: the trace began inside them
	 * (at most a background GC and the GC nested in it). */
	unsigned edge_ends;
	uint32_t edge_count;
	int just_ended;             /* a GC ended and no new one began */
	int has_last_count;
	uint32_t last_count;
	/* GC numbers taken by GC suspensions that served no GC since the
	 * last GCStart (a no-GC region's start): a later suspension's Count
	 * may be that much above the latest GCStart's. */
	uint32_t unserved;
	int susp, susp_seen;
	int susp_begun;             /* a GCSuspendEEBegin was seen */
	uint32_t susp_count;
	int susp_served;            /* a GCStart arrived inside it */
	uint64_t susp_index, susp_offset;
	const char *susp_name;
	uint64_t susp_thread;       /* whose suspension is in progress */
	/* The runtime fires GCSuspendEEBegin before it takes the suspension
	 * lock and GCRestartEEEnd after it lets go, so other threads' begins
	 * may arrive inside a suspension: they wait here for their
	 * GCSuspendEEEnd. A waiter that takes over before the previous
	 * owner's GCRestartEEEnd leaves that end owed. */
	struct waiter {
		uint64_t thread, index, offset;
		uint32_t count;
		int backing;            /* between a back-off's two restart events */
		const char *name;
	} wait[OR_MAX_WAITERS];
	int nwait, owed;
	uint64_t owed_thread;
	int fin_running, fin_seen;
	uint32_t heaps;
	/* The largest out-of-range heap index since the heap count was last
	 * shown, reported only once GCGlobalHeapHistory (or the end) says the
	 * count: with DATAS a GC may use a heap its own history adds. */
	int v007_pending;
	uint64_t v007_value, v007_index, v007_offset;
	const char *v007_sym, *v007_field;
	uint8_t join[OR_MAX_HEAPS]; /* 0 never, 1 in join, 2 out */
	/* The thread of each heap's last join event: a heap's GC thread and
	 * its background GC thread join separately under the same number. */
	uint64_t join_thread[OR_MAX_HEAPS];
	struct u64map *segments, *handles;
	size_t dead_segments, dead_handles;  /* DEAD entries in each */
	/* Segments created again while live, held back until the instance
	 * shows a GCFreeSegment: a regions runtime that never fires one
	 * (.NET 8) re-creates regions, and then none is an error. */
	int seg_freed;
	struct seg_dup { uint64_t index, offset, addr; const char *sym; } seg_dup[OR_SEG_PENDING];
	unsigned nseg_dup;
	uint64_t seg_dup_more;      /* beyond those held */
};

struct or_check {
	/* First: check.h reads it inline (or_check_timestamp). */
	struct or_check_ts ts;
	/* With --threads 2 the reading thread keeps ts (GC-S023) while the
	 * other writes the rest for every event: a cache line apart. */
	char ts_apart[64];
	struct inst inst[OR_MAX_SLOTS];
	int cur;
	uint64_t tick;              /* counts changes of the current instance */
	/* A process's instance beyond OR_MAX_INSTANCES shares its newest
	 * slot; a full table drops the one unused longest: each said once
	 * per trace (GC-S027). 0 fits, 1 to say, 2 said. */
	int overflow, evicted;
	uint64_t overflow_clr, overflow_with, evict_clr, evict_for_clr;
	uint32_t overflow_process, evict_process, evict_for_process;
	/* The first process seen by or_check_event, and whether another
	 * followed: from then on diagnostics name the process. */
	uint32_t process;
	uint8_t any, multi;
	struct u64map *threads;
	/* Process starts and ends not yet due (or_check_process), earliest
	 * first, and what the trace has shown of each process id since:
	 * P_STARTED or P_ENDED. */
	struct proc_note { uint64_t ts; uint32_t pid, what; } pend[OR_PROC_PENDING];
	unsigned npend;
	struct u64map *pids;
	int proc_records;           /* the container records process starts and ends */
};

enum { P_STARTED = 1, P_ENDED = 2 };

#define NO_KEY UINT64_MAX

/* ClrInstanceID is a UInt16: both fit in one word, never NO_KEY. */
static inline uint64_t inst_key(uint32_t process, uint64_t clr)
{
	return (uint64_t)process << 32 | (uint32_t)clr;
}

static void drop_instance(struct inst *in)
{
	u64map_free(in->segments);
	u64map_free(in->handles);
	memset(in, 0, sizeof *in);
	in->key = NO_KEY;
}

struct or_check *or_check_new(void)
{
	struct or_check *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->threads = u64map_new(OR_THREAD_LIMIT);
	c->pids = u64map_new(OR_PROC_LIMIT);
	if (!c->threads || !c->pids) {
		u64map_free(c->threads);
		u64map_free(c->pids);
		free(c);
		return NULL;
	}
	for (int i = 0; i < OR_MAX_SLOTS; i++)
		c->inst[i].key = NO_KEY;
	or_evinfo_init();
	return c;
}

void or_check_reset(struct or_check *c)
{
	for (int i = 0; i < OR_MAX_SLOTS; i++)
		if (c->inst[i].used || c->inst[i].key != NO_KEY)
			drop_instance(&c->inst[i]);
	c->cur = 0;
	c->tick = 0;
	c->overflow = c->evicted = 0;
	c->any = c->multi = 0;
	u64map_clear(c->threads);
	u64map_clear(c->pids);
	c->npend = 0;
	c->proc_records = 0;
	c->ts.last = NULL;
	c->ts.any = c->ts.multi = 0;
}

void or_check_free(struct or_check *c)
{
	if (!c)
		return;
	or_check_reset(c);
	u64map_free(c->threads);
	u64map_free(c->pids);
	free(c);
}

/* Make slot i the current instance. Every change of process comes here. */
static struct inst *take(struct or_check *c, int i)
{
	if (!c->any) {
		c->any = 1;
		c->process = c->inst[i].process;
	} else if (c->inst[i].process != c->process) {
		c->multi = 1;
	}
	c->cur = i;
	c->inst[i].current_at = ++c->tick;
	return &c->inst[i];
}

/* A slot for a new instance of process: a free one, else the one unused
 * longest, whose state is dropped (said once). */
static int new_slot(struct or_check *c, uint32_t process, uint64_t clr)
{
	int lru = -1;

	for (int i = 0; i < OR_MAX_SLOTS; i++) {
		if (!c->inst[i].used)
			return i;
		if (i != c->cur && (lru < 0 || c->inst[i].current_at < c->inst[lru].current_at))
			lru = i;
	}
	if (!c->evicted) {
		c->evicted = 1;
		c->evict_process = c->inst[lru].process;
		c->evict_clr = c->inst[lru].clr;
		c->evict_for_process = process;
		c->evict_for_clr = clr;
	}
	drop_instance(&c->inst[lru]);
	return lru;
}

/* The instance of (process, clr) when it is not the current one. */
static OR_NOINLINE struct inst *find_instance(struct or_check *c, uint32_t process,
                                              uint64_t clr)
{
	uint64_t key = inst_key(process, clr);
	int i, adopt = -1, newest = -1, n = 0;

	for (i = 0; i < OR_MAX_SLOTS; i++) {
		const struct inst *in = &c->inst[i];

		if (in->key == key)
			return take(c, i);
		if (!in->used || in->process != process)
			continue;
		n++;
		if (newest < 0 || in->born > c->inst[newest].born)
			newest = i;
		/* An instance only known from events without ClrInstanceID
		 * adopts the first id seen. */
		if (in->clr == 0 && !in->any_gc && !in->susp_seen && adopt < 0)
			adopt = i;
	}
	if (adopt >= 0) {
		i = adopt;
	} else if (n >= OR_MAX_INSTANCES) {
		i = newest;
		if (!c->overflow) {
			c->overflow = 1;
			c->overflow_clr = clr;
			c->overflow_with = c->inst[i].clr;
			c->overflow_process = process;
		}
	} else {
		i = new_slot(c, process, clr);
		c->inst[i].used = 1;
		c->inst[i].process = process;
		c->inst[i].born = c->tick + 1;
		c->inst[i].started = u64map_get(c->pids, process) != NULL;
	}
	c->inst[i].clr = clr;
	c->inst[i].key = key;
	return take(c, i);
}

/* An event without ClrInstanceID: the last instance seen in its process. */
static OR_NOINLINE struct inst *process_instance(struct or_check *c, uint32_t process)
{
	int last = -1;

	for (int i = 0; i < OR_MAX_SLOTS; i++)
		if (c->inst[i].used && c->inst[i].process == process &&
		    (last < 0 || c->inst[i].current_at > c->inst[last].current_at))
			last = i;
	return last >= 0 ? take(c, last) : find_instance(c, process, 0);
}

static inline struct inst *instance(struct or_check *c, const struct or_evinfo *ei,
                                    const struct or_decoded *dec, uint32_t process)
{
	struct inst *in = &c->inst[c->cur];
	uint64_t clr;

	if (ei->clr < 0 || (unsigned)ei->clr >= dec->nvalid)
		return in->used && in->process == process ? in : process_instance(c, process);
	clr = dec->v[ei->clr].u;
	if (in->key == inst_key(process, clr))
		return in;
	return find_instance(c, process, clr);
}

static uint64_t val(const struct or_decoded *d, int8_t i, uint64_t dflt)
{
	return i >= 0 && (unsigned)i < d->nvalid ? d->v[i].u : dflt;
}

/* Report, naming the process once the trace has shown two (multi): a
 * one-process trace's messages stay as they were. */
OR_COLD static void report_in(struct or_ctx *ctx, int multi, uint32_t process, unsigned code,
                              uint64_t index, uint64_t offset, const char *sym,
                              const char *fmt, ...) OR_PRINTF(8, 9);
OR_COLD static void report_in(struct or_ctx *ctx, int multi, uint32_t process, unsigned code,
                              uint64_t index, uint64_t offset, const char *sym,
                              const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (multi)
		or_report(ctx, code, index, offset, sym, "%s (process %" PRIu32 ")", msg, process);
	else
		or_report(ctx, code, index, offset, sym, "%s", msg);
}

#define REP(code, ...) \
	report_in(ctx, ctx->check->multi, ev->process, (code), ev->index, ev->offset, sym, \
	          __VA_ARGS__)
/* About instance in, at an event other than the one in hand. */
#define IREP(in, code, ...) \
	report_in(ctx, ctx->check->multi, (in)->process, (code), __VA_ARGS__)

/* Here, beside its one counting caller (gc_start), so that the checker
 * calls nothing of the oracle's top (run.c): no import loop. */
void or_stats_proc_gcs(struct or_stats *s, uint32_t process, uint64_t n)
{
	for (unsigned i = 0; i < s->nproc_gcs; i++)
		if (s->proc_gcs[i].process == process) {
			s->proc_gcs[i].gcs += n;
			return;
		}
	if (s->nproc_gcs == OR_STAT_PROCESSES) {
		s->gcs_later += n;
		return;
	}
	s->proc_gcs[s->nproc_gcs].process = process;
	s->proc_gcs[s->nproc_gcs++].gcs = n;
}

/* .NET Framework 4.5.2 fires GCStart twice for every GC, GCStart_V1 and
 * then GCStart_V2, on the same thread with the same Count, Depth, Reason
 * and Type, microseconds apart (a real x86 ETW trace: 264 GCs, each twice).
 * The V2 that follows its V1 so is the same GC, once. */
static int gcstart_twin(const struct gc *top, const struct gc *g)
{
	return !top->paired && !top->unseen && top->version == 1 && g->version == 2 &&
	       top->thread == g->thread && top->count == g->count &&
	       top->depth == g->depth && top->type == g->type && top->reason == g->reason;
}

static void restarted(struct inst *in);

static OR_NOINLINE void gc_start(struct or_ctx *ctx, struct inst *in,
                     const struct or_event *ev, const struct or_decoded *dec,
                     const struct or_evinfo *ei)
{
	const char *sym = dec->spec->symbol;
	struct gc g = { .count = (uint32_t)val(dec, ei->count, 0),
	                .depth = (uint32_t)val(dec, ei->depth, 0),
	                .type = (uint32_t)val(dec, ei->type, 0),
	                .reason = (uint32_t)val(dec, ei->reason, 0),
	                .version = dec->spec->version,
	                .thread = ev->thread_id,
	                .has_depth = ei->depth >= 0 &&
	                             (unsigned)ei->depth < dec->nvalid,
	                .index = ev->index, .offset = ev->offset };

	if (in->ngc > 0 && gcstart_twin(&in->gc[in->ngc - 1], &g)) {
		in->gc[in->ngc - 1].paired = 1;
		return;
	}
	if (in->restart_hint) {
		if (in->has_last_count && g.count <= in->last_count)
			restarted(in);
		in->restart_hint = 0;
	}
	ctx->stats.gcs++;
	or_stats_proc_gcs(&ctx->stats, in->process, 1);
	in->unserved = 0;
	if (in->has_last_count && g.count <= in->last_count)
		REP(GCSPEC_DIAG_S007,
		    "GCStart Count %u is not greater than the previous GCStart's Count %u",
		    g.count, in->last_count);
	in->has_last_count = 1;
	in->last_count = g.count;
	if (in->ngc == 0 && g.type == 2 && !in->any_start) {
		/* Before any GCStart, a foreground GC says the trace began
		 * inside a background GC: stand in for it until its GCEnd. */
		struct gc bg = { .depth = 2, .type = 1, .unseen = 1,
		                 .index = ev->index, .offset = ev->offset };
		in->gc[in->ngc++] = bg;
	} else if (in->ngc == 0) {
		if (g.type == 2)
			REP(GCSPEC_DIAG_S024,
			    "foreground GC %u (Type 2) starts while no background GC is in flight",
			    g.count);
	} else {
		struct gc *top = &in->gc[in->ngc - 1];
		if (g.type == 1)
			REP(GCSPEC_DIAG_S024,
			    "background GC %u starts while GC %u (Type %u) is still in flight",
			    g.count, top->count, top->type);
		/* Inside a background GC the runtime runs ephemeral GCs: its
		 * own opening one (Type 0, seen in real .NET 10 traces) and
		 * foreground GCs (Type 2). Nothing else nests. */
		else if (!(in->ngc == 1 && top->type == 1 &&
		           (!g.has_depth || g.depth < 2)))
			REP(GCSPEC_DIAG_S004,
			    "GC %u (Type %u) starts while GC %u (Type %u) is still in flight; only an ephemeral GC may start inside a background GC",
			    g.count, g.type, top->count, top->type);
		/* Resynchronise, so that one lost GCEnd is reported once and
		 * not at every later GC: a blocking GC runs with the runtime
		 * suspended, so one in flight when another GC starts has
		 * lost its GCEnd; a background GC may still be running. */
		while (in->ngc > 0 && in->gc[in->ngc - 1].type != 1)
			in->ngc--;
	}
	if (in->ngc < 2)
		in->ngc++;
	in->gc[in->ngc - 1] = g;
	in->any_gc = 1;
	in->any_start = 1;
	in->just_ended = 0;
	if ((in->susp == S_SUSPENDING || in->susp == S_SUSPENDED) &&
	    !in->susp_served) {
		in->susp_served = 1;
		/* The runtime writes the GC index it had when it began to
		 * suspend, which is below the Count of the GC that follows
		 * (by one, or more while a background GC is in flight). */
		if (in->susp_count != 0xFFFFFFFFu && in->susp_count >= g.count)
			IREP(in, GCSPEC_DIAG_S012, in->susp_index,
			          in->susp_offset, in->susp_name,
			          "this suspension's Count %u is not below the Count %u of the GC it serves (GCStart at event %llu)",
			          in->susp_count, g.count,
			          (unsigned long long)ev->index);
	}
}

static OR_NOINLINE void gc_end(struct or_ctx *ctx, struct inst *in,
                   const struct or_event *ev, const struct or_decoded *dec,
                   const struct or_evinfo *ei)
{
	const char *sym = dec->spec->symbol;
	uint32_t count = (uint32_t)val(dec, ei->count, 0);
	struct gc *top;

	if (in->restart_hint && in->has_last_count && count <= in->last_count) {
		restarted(in);
		in->restart_hint = 0;
	}
	if (in->ngc == 0 && in->started && !in->any_start && !in->edge_ends && count <= 1) {
		/* A process seen starting: its runtime's start-up GC (an
		 * induced gen2 GC at EEStartupStart's heels, LTTng-UST
		 * showing its suspension and GCEnd without a GCStart). */
		in->edge_ends = 1;
		in->edge_count = count;
		in->any_gc = 1;
		in->just_ended = 1;
		return;
	}
	if (in->ngc == 0) {
		/* Before any GCStart the trace may have begun inside a GC, or
		 * inside a background GC and the GC nested in it (whose end
		 * comes first and has the higher Count). */
		if (!in->any_start &&
		    (in->edge_ends == 0 ||
		     (in->edge_ends == 1 && count < in->edge_count))) {
			if (in->started)
				REP(GCSPEC_DIAG_S002,
				    "GCEnd for GC %u without a GCStart in a process the trace saw start",
				    count);
			else
				REP(GCSPEC_DIAG_S002,
				    "the trace begins inside GC %u: GCEnd without a GCStart before it",
				    count);
			in->edge_ends++;
			in->edge_count = count;
		} else
			REP(GCSPEC_DIAG_S001,
			    "GCEnd for GC %u arrives when no GC is in flight", count);
		in->any_gc = 1;
		in->just_ended = 1;
		return;
	}
	top = &in->gc[in->ngc - 1];
	if (top->unseen) {
		REP(GCSPEC_DIAG_S002,
		    "the trace begins inside background GC %u: GCEnd without a GCStart before it",
		    count);
		in->ngc--;
		in->just_ended = 1;
		return;
	}
	if (top->count != count)
		REP(GCSPEC_DIAG_S005,
		    "GCEnd Count %u does not match the Count %u of the GC in flight",
		    count, top->count);
	if (top->has_depth && ei->depth >= 0 && (unsigned)ei->depth < dec->nvalid &&
	    dec->v[ei->depth].u != top->depth)
		REP(GCSPEC_DIAG_S006,
		    "GCEnd Depth %llu differs from its GCStart's Depth %u",
		    (unsigned long long)dec->v[ei->depth].u, top->depth);
	in->ngc--;
	in->just_ended = 1;
}

static const char *const susp_names[] = {
	"not suspended", "suspending (after GCSuspendEEBegin)",
	"suspended (after GCSuspendEEEnd)", "restarting (after GCRestartEEBegin)"
};

/* The slot of thread's waiting GCSuspendEEBegin, or -1. */
static int waiter(const struct inst *in, uint64_t thread)
{
	for (int i = 0; i < in->nwait; i++)
		if (in->wait[i].thread == thread)
			return i;
	return -1;
}

/* A non-GC suspension (Count 0xFFFFFFFF: the sample profiler, tiered
 * compilation) that finds a GC suspension pending backs off inside
 * ThreadSuspend::SuspendEE: it restarts the threads it stopped
 * (GCRestartEEBegin, GCRestartEEEnd, sometimes twice), lets the GC run, and
 * retries; its GCSuspendEEEnd comes once it has the runtime. Seen in real
 * .NET Core 3.0 traces with the sample profiler on. Is this GCRestartEEBegin
 * such a back-off? Then its thread waits again (with its first begin) and
 * its GCRestartEEEnd is the back-off's. A GC's own suspension never backs
 * off: its restart before GCSuspendEEEnd stays an error. */
static int backing_off(struct inst *in, const struct or_event *ev)
{
	int w = waiter(in, ev->thread_id);

	if (w >= 0) {
		if (in->wait[w].count != 0xFFFFFFFFu || in->wait[w].backing)
			return 0;
		in->wait[w].backing = 1;
		return 1;
	}
	if (in->susp != S_SUSPENDING || ev->thread_id != in->susp_thread ||
	    in->susp_count != 0xFFFFFFFFu || in->nwait >= OR_MAX_WAITERS)
		return 0;
	/* The attempt lets go of the runtime and waits like any other. */
	struct waiter *x = &in->wait[in->nwait++];

	x->thread = in->susp_thread;
	x->count = in->susp_count;
	x->index = in->susp_index;
	x->offset = in->susp_offset;
	x->name = in->susp_name;
	x->backing = 1;
	in->susp = S_IDLE;
	return 1;
}

static OR_NOINLINE void suspension(struct or_ctx *ctx, struct inst *in, unsigned kind,
                       const struct or_event *ev, const struct or_decoded *dec,
                       const struct or_evinfo *ei)
{
	const char *sym = dec->spec->symbol;
	/* Before any begin, an end or restart is the trace's edge: the trace
	 * began inside that suspension. Not only its first event: when
	 * threads' suspensions interleave, a trace that begins while one
	 * restarts and another waits shows both ends without their begins. */
	int first = !in->susp_begun;

	in->susp_seen = 1;
	switch (kind) {
	case OR_K_SUSPEND_BEGIN: {
		uint32_t count = (uint32_t)val(dec, ei->count, 0xFFFFFFFFu);

		ctx->stats.suspensions++;
		/* After a start's evidence, a GC suspension numbered below the
		 * latest GC is the new runtime's (it writes the GC index it
		 * has: one below its next GC's). */
		if (in->restart_hint && count != 0xFFFFFFFFu && in->has_last_count &&
		    count < in->last_count) {
			restarted(in);
			in->restart_hint = 0;
		}
		in->susp_begun = 1;
		/* Real runtimes never write a GC suspension Count above the
		 * latest GCStart's Count; Count 0xFFFFFFFF marks a suspension
		 * that serves no GC. */
		if (count != 0xFFFFFFFFu && in->has_last_count &&
		    count - in->last_count > in->unserved && count > in->last_count)
			REP(GCSPEC_DIAG_S012,
			    "this suspension's Count %u is above the Count %u of the latest GC",
			    count, in->last_count);
		/* A GC suspension ends the last GC's aftermath, whether it has
		 * the runtime or waits; a non-GC one (the sample profiler's,
		 * every millisecond) does not: a background GC's thread writes
		 * GCEnd and then its GCHeapStats and histories without the
		 * runtime suspended, and the sampler may begin to suspend in
		 * between (.NET 8, server GC). */
		if (count != 0xFFFFFFFFu)
			in->just_ended = 0;
		if (in->susp != S_IDLE && ev->thread_id != in->susp_thread &&
		    in->nwait < OR_MAX_WAITERS && waiter(in, ev->thread_id) < 0) {
			struct waiter *w = &in->wait[in->nwait++];

			w->thread = ev->thread_id;
			w->count = count;
			w->index = ev->index;
			w->offset = ev->offset;
			w->name = sym;
			w->backing = 0;
			return;
		}
		if (in->susp != S_IDLE)
			REP(GCSPEC_DIAG_S008,
			    "GCSuspendEEBegin while the runtime is %s",
			    susp_names[in->susp]);
		in->susp = S_SUSPENDING;
		in->susp_thread = ev->thread_id;
		in->susp_count = count;
		in->susp_served = 0;
		in->susp_index = ev->index;
		in->susp_offset = ev->offset;
		in->susp_name = sym;
		return;
	}
	case OR_K_SUSPEND_END: {
		int w = waiter(in, ev->thread_id);

		/* A waiter can have the lock unless another thread holds it
		 * (suspended): once the owner has begun to restart, or when it
		 * began to suspend but has not got the lock yet, in which case
		 * the owner waits in its place. */
		if (w >= 0 && in->susp != S_SUSPENDED) {
			struct waiter won = in->wait[w];

			if (in->susp == S_RESTARTING) {
				in->owed = 1;
				in->owed_thread = in->susp_thread;
			}
			if (in->susp == S_SUSPENDING) {
				in->wait[w].thread = in->susp_thread;
				in->wait[w].count = in->susp_count;
				in->wait[w].index = in->susp_index;
				in->wait[w].offset = in->susp_offset;
				in->wait[w].name = in->susp_name;
				in->wait[w].backing = 0;
			} else {
				in->wait[w] = in->wait[--in->nwait];
			}
			in->susp_thread = won.thread;
			in->susp_count = won.count;
			in->susp_index = won.index;
			in->susp_offset = won.offset;
			in->susp_name = won.name;
			in->susp_served = 0;
			in->susp = S_SUSPENDED;
			/* A waiting GC suspension that gets the runtime ends the
			 * last GC's aftermath; a waiting non-GC one (the sample
			 * profiler's) does not: it began before that GC ended, and
			 * a background GC's thread writes its heap histories after
			 * GCEnd while it completes (.NET 10, DATAS). */
			if (won.count != 0xFFFFFFFFu)
				in->just_ended = 0;
			return;
		}
		if (in->susp != S_SUSPENDING) {
			if (first)
				REP(GCSPEC_DIAG_S026,
				    "the trace begins inside a suspension: GCSuspendEEEnd without GCSuspendEEBegin");
			else
				REP(GCSPEC_DIAG_S009,
				    "GCSuspendEEEnd while the runtime is %s",
				    susp_names[in->susp]);
		}
		/* Whoever ends the suspension holds the runtime, even when its
		 * begin was lost: other threads' begins then wait for it. */
		in->susp = S_SUSPENDED;
		in->susp_thread = ev->thread_id;
		return;
	}
	case OR_K_RESTART_BEGIN:
		if (in->susp == S_SUSPENDED && ev->thread_id != in->susp_thread &&
		    !backing_off(in, ev)) {
			REP(GCSPEC_DIAG_S010,
			    "GCRestartEEBegin from a thread that neither holds the runtime (thread %llu suspended it) nor attempts to suspend it",
			    (unsigned long long)in->susp_thread);
			return;
		}
		if (in->susp != S_SUSPENDED && backing_off(in, ev))
			return;
		/* A GC suspension that served no GC took a GC number all the
		 * same: TryStartNoGCRegion suspends, fires GCTriggered (Reason
		 * 1) and counts a GC it never starts (seen on .NET 3.1 to 10). */
		if ((in->susp == S_SUSPENDED || in->susp == S_SUSPENDING) &&
		    in->susp_count != 0xFFFFFFFFu &&
		    !in->susp_served && in->unserved < 0xFFFFu)
			in->unserved++;
		if (in->susp != S_SUSPENDED) {
			if (first)
				REP(GCSPEC_DIAG_S026,
				    "the trace begins inside a suspension: GCRestartEEBegin before any GCSuspendEEBegin");
			else
				REP(GCSPEC_DIAG_S010,
				    "GCRestartEEBegin while the runtime is %s",
				    susp_names[in->susp]);
		}
		in->susp = S_RESTARTING;
		return;
	case OR_K_RESTART_END: {
		int w = waiter(in, ev->thread_id);

		if (in->owed && ev->thread_id == in->owed_thread) {
			in->owed = 0;
			return;
		}
		if (w >= 0 && in->wait[w].backing) {
			in->wait[w].backing = 0;
			return;
		}
		if (in->susp != S_RESTARTING) {
			if (first)
				REP(GCSPEC_DIAG_S026,
				    "the trace begins inside a suspension: GCRestartEEEnd before any GCSuspendEEBegin");
			else
				REP(GCSPEC_DIAG_S011,
				    "GCRestartEEEnd while the runtime is %s",
				    susp_names[in->susp]);
		}
		in->susp = S_IDLE;
		return;
	}
	}
}

/* Track a live object (segment, handle); `create` says which way. */
static OR_NOINLINE void object(struct or_ctx *ctx, struct u64map **mapp, size_t *dead,
                   int create, uint64_t key, const struct or_event *ev,
                   const char *sym, unsigned code_twice, const char *what)
{
	uint64_t *st;

	if (!*mapp && !(*mapp = u64map_new(OR_OBJ_LIMIT)))
		return;
	st = u64map_get(*mapp, key);
	if (create) {
		if (st && *st == LIVE)
			REP(code_twice, "%s 0x%llx is created again while it is live",
			    what, (unsigned long long)key);
		if (st && *st == DEAD)
			(*dead)--;
		if (u64map_put(*mapp, key, LIVE) == 0)
			return;
		/* Full: forget the dead ones; if still full, stop tracking. */
		u64map_drop_value(*mapp, DEAD);
		*dead = 0;
		u64map_put(*mapp, key, LIVE);
		return;
	}
	/* Freed before the trace began is fine: only a second free is wrong. */
	if (st && *st == DEAD)
		REP(code_twice, "%s 0x%llx is freed a second time", what,
		    (unsigned long long)key);
	if (st) {
		if (*st != DEAD)
			(*dead)++;
		*st = DEAD;
	} else if (u64map_put(*mapp, key, DEAD) == 0) {
		(*dead)++;
	} else {
		u64map_drop_value(*mapp, DEAD);
		*dead = 0;
		if (u64map_put(*mapp, key, DEAD) == 0)
			*dead = 1;
	}
	if (*dead > OR_DEAD_KEEP && *dead > u64map_count(*mapp) - *dead) {
		u64map_drop_value(*mapp, DEAD);
		*dead = 0;
	}
}

static void seg_dup_report(struct or_ctx *ctx, const struct inst *in, const struct seg_dup *d)
{
	IREP(in, GCSPEC_DIAG_S017, d->index, d->offset, d->sym,
	          "segment 0x%llx is created again while it is live (this runtime fires GCFreeSegment)",
	          (unsigned long long)d->addr);
}

/* The runtime shows it fires GCFreeSegment: what was held back was wrong. */
static void seg_freed(struct or_ctx *ctx, struct inst *in)
{
	in->seg_freed = 1;
	for (unsigned i = 0; i < in->nseg_dup; i++)
		seg_dup_report(ctx, in, &in->seg_dup[i]);
	if (in->seg_dup_more)
		IREP(in, GCSPEC_DIAG_S017, in->seg_dup[in->nseg_dup - 1].index,
		          in->seg_dup[in->nseg_dup - 1].offset, in->seg_dup[in->nseg_dup - 1].sym,
		          "and %llu more segments were created again while live before the first GCFreeSegment",
		          (unsigned long long)in->seg_dup_more);
	in->nseg_dup = 0;
	in->seg_dup_more = 0;
}

/*
 * Segments. .NET 8's regions GC fires GCCreateSegment each time its region
 * allocator hands out a region and never fires GCFreeSegment, so an address
 * is created again with no free (real .NET 8.0.31 traces: 1 to 6 per short
 * run); 9.0 and 10.0 fire GCFreeSegment again, and there a second create
 * of a live segment is wrong (GC-S017). A trace does not name its runtime,
 * so the checker goes by what the runtime shows: until the instance fires
 * a GCFreeSegment, re-creations are held back; the first free reports them,
 * and a trace that ends without any free reports none.
 */
static OR_NOINLINE void segment(struct or_ctx *ctx, struct inst *in, int create,
                                uint64_t addr, const struct or_event *ev, const char *sym)
{
	uint64_t *st;

	if (!create && !in->seg_freed)
		seg_freed(ctx, in);
	if (create && !in->seg_freed && in->segments &&
	    (st = u64map_get(in->segments, addr)) && *st == LIVE) {
		if (in->nseg_dup < OR_SEG_PENDING) {
			struct seg_dup *d = &in->seg_dup[in->nseg_dup++];

			d->index = ev->index;
			d->offset = ev->offset;
			d->addr = addr;
			d->sym = sym;
		} else {
			in->seg_dup_more++;
		}
		return; /* still live */
	}
	object(ctx, &in->segments, &in->dead_segments, create, addr, ev, sym,
	       create ? GCSPEC_DIAG_S017 : GCSPEC_DIAG_S018, "segment");
}

/* SetGCHandle is fired on every store into a handle, not only when it is
 * made (the runtime's HndAssignHandle, HndFirstAssignHandle and interlocked
 * exchange log it too), so a set on a live handle is normal. What cannot
 * change while a handle lives is its kind: the runtime reads it from the
 * handle's block, which keeps one type until all its handles are freed. A
 * live handle's value is LIVE plus its kind shifted past the state bits. */
static OR_NOINLINE void handle_set(struct or_ctx *ctx, struct u64map **mapp, size_t *dead,
                       uint64_t key, uint64_t kind, const struct or_event *ev,
                       const char *sym)
{
	uint64_t *st, live = LIVE | (kind << 2);

	if (!*mapp && !(*mapp = u64map_new(OR_OBJ_LIMIT)))
		return;
	st = u64map_get(*mapp, key);
	if (st && (*st & 3) == LIVE && *st != live)
		REP(GCSPEC_DIAG_S019, "handle 0x%llx is set as kind %llu while it is live as kind %llu",
		    (unsigned long long)key, (unsigned long long)kind,
		    (unsigned long long)(*st >> 2));
	if (st && *st == DEAD)
		(*dead)--;
	if (u64map_put(*mapp, key, live) == 0)
		return;
	/* Full: forget the dead ones; if still full, stop tracking. */
	u64map_drop_value(*mapp, DEAD);
	*dead = 0;
	u64map_put(*mapp, key, live);
}

static OR_NOINLINE void join(struct or_ctx *ctx, struct inst *in, const struct or_event *ev,
                 const struct or_decoded *dec, const struct or_evinfo *ei)
{
	const char *sym = dec->spec->symbol;
	uint64_t heap = val(dec, ei->heap, OR_MAX_HEAPS);
	uint64_t t = val(dec, ei->jointime, 2);
	uint64_t type = val(dec, ei->jointype, 1);

	if (heap >= OR_MAX_HEAPS || t > 1)
		return;
	if (in->join[heap] && in->join_thread[heap] != ev->thread_id)
		in->join[heap] = t == 0 ? 2 : 1; /* another thread's joins */
	in->join_thread[heap] = ev->thread_id;
	if (t == 0) {
		if (in->join[heap] == 1)
			REP(GCSPEC_DIAG_S016,
			    "GCJoin start for heap %llu while its previous join has not ended",
			    (unsigned long long)heap);
		/* Only a thread that waits (Join, 1) or the restart (2) writes
		 * an end; the last thread to arrive (LastJoin, 0) and the
		 * first of a restartable join (FirstRJoin, 3) go on without
		 * one, as the real runtime shows. */
		in->join[heap] = (type == 1 || type == 2) ? 1 : 2;
	} else {
		if (in->join[heap] == 0)
			REP(GCSPEC_DIAG_S026,
			    "the trace begins inside a join: GCJoin end for heap %llu without a start",
			    (unsigned long long)heap);
		else if (in->join[heap] == 2)
			REP(GCSPEC_DIAG_S015,
			    "GCJoin end for heap %llu, which has no join in progress",
			    (unsigned long long)heap);
		in->join[heap] = 2;
	}
}

/* Per-thread order is a property of the file: a thread writes its events in
 * order, so this runs in file order, before a container that groups events by
 * thread (nettrace) has them sorted by time, which would hide the fault. */
OR_COLD static void timestamp_back(struct or_ctx *ctx, const struct or_event *ev,
                                   uint64_t last)
{
	const struct gcspec_event *spec = ev->provider >= 0
		? gcspec_lookup((unsigned)ev->provider, ev->id, ev->version) : NULL;
	const char *sym = spec ? spec->symbol : NULL;

	report_in(ctx, ctx->check->ts.multi, ev->process, GCSPEC_DIAG_S023, ev->index, ev->offset,
	          sym, "timestamp %llu is earlier than the previous event's %llu written by thread %llu",
	          (unsigned long long)ev->timestamp, (unsigned long long)last,
	          (unsigned long long)or_writer_thread(ev));
}

void or_check_timestamp_slow(struct or_ctx *ctx, const struct or_event *ev)
{
	struct or_check *c = ctx->check;
	uint64_t w = or_writer_thread(ev);
	uint64_t k = or_thread_key(w, ev->process);
	uint64_t *last = c->ts.last && c->ts.thread == k
		? c->ts.last : u64map_get(c->threads, k);

	/* Thread id 0 is no thread: the runtime writes it for threads it no
	 * longer knows by OS id (a terminating thread clearing its handles,
	 * seen in real .NET 10 traces), so several threads' events share it
	 * and their timestamps interleave. */
	if (w == 0)
		return;
	/* Every change of process changes the key, so comes here. */
	if (!c->ts.any) {
		c->ts.any = 1;
		c->ts.process = ev->process;
	} else if (ev->process != c->ts.process) {
		c->ts.multi = 1;
	}
	if (last) {
		if (ev->timestamp < *last)
			timestamp_back(ctx, ev, *last);
		*last = ev->timestamp;
		c->ts.thread = k;
		c->ts.last = last;
		return;
	}
	c->ts.last = NULL; /* the map may move */
	if (u64map_put(c->threads, k, ev->timestamp)) {
		u64map_clear(c->threads); /* too many threads: start over */
		u64map_put(c->threads, k, ev->timestamp);
	}
}

static void heap_index(struct inst *in, const struct or_event *ev,
                       const struct or_decoded *dec, const struct or_evinfo *ei)
{
	uint64_t h;

	/* GCJoin is left out: its restart events name pseudo-heaps 100 and
	 * 200, and idle heaps' threads still join under DATAS. */
	if (ei->heap < 0 || ei->jointime >= 0 || (unsigned)ei->heap >= dec->nvalid)
		return;
	h = dec->v[ei->heap].u;
	/* Before the stream has shown a heap count, any index may turn out
	 * to be too large: keep the largest until the count is shown. */
	if ((in->heaps && h < in->heaps) ||
	    (in->v007_pending && h <= in->v007_value))
		return;
	in->v007_pending = 1;
	in->v007_value = h;
	in->v007_index = ev->index;
	in->v007_offset = ev->payload_offset + dec->v[ei->heap].off;
	in->v007_sym = dec->spec->symbol;
	in->v007_field = gcspec_event_fields(dec->spec)[ei->heap].name;
}

static void heap_count_shown(struct or_ctx *ctx, struct inst *in)
{
	if (!in->heaps)
		return; /* still unknown: keep waiting */
	if (in->v007_pending && in->v007_value >= in->heaps)
		IREP(in, GCSPEC_DIAG_V007, in->v007_index, in->v007_offset,
		          in->v007_sym, "heap index %s = %llu, but the stream has shown %u heap%s",
		          in->v007_field, (unsigned long long)in->v007_value, in->heaps,
		          in->heaps == 1 ? "" : "s");
	in->v007_pending = 0;
}

OR_COLD static void table_full(struct or_ctx *ctx, struct or_check *c,
                               const struct or_event *ev, const char *sym)
{
	if (c->overflow == 1) {
		c->overflow = 2;
		REP(GCSPEC_DIAG_S027,
		    "ClrInstanceID %llu is a runtime instance beyond the %d the checker keeps apart: "
		    "it is checked together with ClrInstanceID %llu from here on",
		    (unsigned long long)c->overflow_clr, OR_MAX_INSTANCES,
		    (unsigned long long)c->overflow_with);
	}
	if (c->evicted == 1) {
		c->evicted = 2;
		REP(GCSPEC_DIAG_S027,
		    "the checker keeps %d runtime instances of all processes apart: process %" PRIu32
		    " ClrInstanceID %llu, unused the longest, has its state dropped for process %"
		    PRIu32 " ClrInstanceID %llu, and starts afresh if it comes back "
		    "(said once; later evictions are silent)",
		    OR_MAX_SLOTS, c->evict_process, (unsigned long long)c->evict_clr,
		    c->evict_for_process, (unsigned long long)c->evict_for_clr);
	}
}

/* A process started or ended: whatever the checker kept of that id is of
 * a process that is gone (at a start, one whose end the trace lost), and
 * is dropped unreported: what it left open was closed by its exit, not by
 * the trace's edge. */
static void process_change(struct or_check *c, const struct proc_note *n)
{
	for (int i = 0; i < OR_MAX_SLOTS; i++)
		if (c->inst[i].used && c->inst[i].process == n->pid)
			drop_instance(&c->inst[i]);
	if (u64map_put(c->pids, n->pid, n->what == OR_PROC_START ? P_STARTED : P_ENDED)) {
		u64map_clear(c->pids); /* too many processes: forget the oldest knowledge */
		u64map_put(c->pids, n->pid, n->what == OR_PROC_START ? P_STARTED : P_ENDED);
	}
}

/* Act on the starts and ends due by time t: a start before or at the
 * first event of its process, an end after the last (t past it). */
static void processes_due(struct or_check *c, uint64_t t, int all)
{
	unsigned k = 0;

	while (k < c->npend && (all || c->pend[k].ts < t ||
	                        (c->pend[k].ts == t && c->pend[k].what == OR_PROC_START)))
		process_change(c, &c->pend[k++]);
	if (k) {
		c->npend -= k;
		memmove(c->pend, c->pend + k, c->npend * sizeof *c->pend);
	}
}

/* Evidence in an LTTng trace that a runtime starts in ev's process: its
 * EEStartupStart (a runtime writes it once, at start-up, so the process
 * started inside the trace) or LTTng-UST's statedump start (also written
 * for every process at the session's start: evidence of a restart only
 * where GC numbering then starts over). */
static void runtime_start(struct or_check *c, const struct or_event *ev)
{
	const char *n = ev->provider_name;
	int startup;

	if ((n[0] != 'l' && n[0] != 'D') ||
	    (!(startup = strstr(n, ":EEStartupStart") != NULL) &&
	     strcmp(n, "lttng_ust_statedump:start") != 0))
		return;
	for (int i = 0; i < OR_MAX_SLOTS; i++)
		if (c->inst[i].used && c->inst[i].process == ev->process && c->inst[i].any_gc)
			c->inst[i].restart_hint = 1;
	if (startup && u64map_put(c->pids, ev->process, P_STARTED)) {
		u64map_clear(c->pids);
		u64map_put(c->pids, ev->process, P_STARTED);
	}
}

/* A new runtime in in's process, its GC numbering started over after the
 * evidence of a start: the old one's state is gone, unreported. */
static void restarted(struct inst *in)
{
	struct inst keep = *in;

	u64map_free(keep.segments);
	u64map_free(keep.handles);
	memset(in, 0, sizeof *in);
	in->key = keep.key;
	in->used = 1;
	in->clr = keep.clr;
	in->process = keep.process;
	in->current_at = keep.current_at;
	in->born = keep.born;
	in->started = 1;
}

void or_check_process(struct or_check *c, unsigned what, uint32_t pid, uint64_t timestamp)
{
	unsigned k;

	c->proc_records = 1;
	if (c->npend == OR_PROC_PENDING) {
		/* Too many ahead of the events: the earliest is taken now. */
		process_change(c, &c->pend[0]);
		memmove(c->pend, c->pend + 1, --c->npend * sizeof *c->pend);
	}
	/* Sorted by time, stable: the reader's file order among equals. */
	for (k = c->npend; k > 0 && c->pend[k - 1].ts > timestamp; k--)
		;
	memmove(c->pend + k + 1, c->pend + k, (c->npend - k) * sizeof *c->pend);
	c->pend[k].ts = timestamp;
	c->pend[k].pid = pid;
	c->pend[k].what = what;
	c->npend++;
}

void or_check_event(struct or_ctx *ctx, const struct or_event *ev,
                    const struct or_decoded *dec)
{
	struct or_check *c = ctx->check;
	const struct or_evinfo *ei;
	const char *sym = dec ? dec->spec->symbol : NULL;
	struct inst *in;

	if (c->npend && c->pend[0].ts <= ev->timestamp)
		processes_due(c, ev->timestamp, 0);
	if (!dec) {
		if (ev->provider < 0 && ev->provider_name)
			runtime_start(c, ev);
		return;
	}
	ei = &or_evinfo[dec->event];
	in = instance(c, ei, dec, ev->process);
	if (c->overflow == 1 || c->evicted == 1)
		table_full(ctx, c, ev, sym);
	if (ei->values)
		or_check_values(ctx, ev, dec, ei);
	heap_index(in, ev, dec, ei);
	switch (ei->kind) {
	case OR_K_GCSTART:
		gc_start(ctx, in, ev, dec, ei);
		break;
	case OR_K_GCEND:
		gc_end(ctx, in, ev, dec, ei);
		break;
	case OR_K_SUSPEND_BEGIN: case OR_K_SUSPEND_END:
	case OR_K_RESTART_BEGIN: case OR_K_RESTART_END:
		suspension(ctx, in, ei->kind, ev, dec, ei);
		break;
	case OR_K_HEAPSTATS:
		if (in->any_gc && in->ngc == 0 && !in->just_ended)
			REP(GCSPEC_DIAG_S013,
			    "GCHeapStats arrives when no GC is in flight and none has just ended");
		break;
	case OR_K_GLOBALHISTORY:
	case OR_K_HEAPHISTORY:
		if (in->any_gc && in->ngc == 0 && !in->just_ended)
			REP(GCSPEC_DIAG_S014,
			    "%s arrives when no GC is in flight and none has just ended",
			    dec->spec->name);
		/* The most heaps seen: with dynamic adaptation (DATAS) the
		 * count moves, and a heap that existed keeps its index. */
		if (ei->numheaps >= 0 && (unsigned)ei->numheaps < dec->nvalid &&
		    (int64_t)dec->v[ei->numheaps].u > 0) {
			if (dec->v[ei->numheaps].u > in->heaps)
				in->heaps = (uint32_t)dec->v[ei->numheaps].u;
			heap_count_shown(ctx, in);
		}
		break;
	case OR_K_SETTINGS:
		if (ei->servergc >= 0 && (unsigned)ei->servergc < dec->nvalid &&
		    dec->v[ei->servergc].u == 0) {
			in->heaps = 1;
			heap_count_shown(ctx, in);
		}
		break;
	case OR_K_JOIN:
		join(ctx, in, ev, dec, ei);
		break;
	case OR_K_SEG_CREATE: case OR_K_SEG_FREE:
		if (ei->address >= 0 && (unsigned)ei->address < dec->nvalid)
			segment(ctx, in, ei->kind == OR_K_SEG_CREATE,
			        dec->v[ei->address].u, ev, sym);
		break;
	case OR_K_HANDLE_SET:
		if (ei->handle >= 0 && (unsigned)ei->handle < dec->nvalid &&
		    ei->hkind >= 0 && (unsigned)ei->hkind < dec->nvalid)
			handle_set(ctx, &in->handles, &in->dead_handles, dec->v[ei->handle].u,
			           dec->v[ei->hkind].u, ev, sym);
		break;
	case OR_K_HANDLE_DESTROY:
		if (ei->handle >= 0 && (unsigned)ei->handle < dec->nvalid)
			object(ctx, &in->handles, &in->dead_handles, 0,
			       dec->v[ei->handle].u, ev, sym, GCSPEC_DIAG_S020, "handle");
		break;
	case OR_K_FIN_BEGIN:
		if (in->fin_running)
			REP(GCSPEC_DIAG_S022,
			    "GCFinalizersBegin while finalizers are already running");
		in->fin_running = 1;
		in->fin_seen = 1;
		break;
	case OR_K_FIN_END:
		if (!in->fin_running) {
			if (!in->fin_seen)
				REP(GCSPEC_DIAG_S026,
				    "the trace begins inside a finalizer run: GCFinalizersEnd without GCFinalizersBegin");
			else
				REP(GCSPEC_DIAG_S021,
				    "GCFinalizersEnd without GCFinalizersBegin");
		}
		in->fin_running = 0;
		in->fin_seen = 1;
		break;
	default:
		break;
	}
}

void or_check_end(struct or_ctx *ctx, uint64_t next_index, uint64_t offset)
{
	struct or_check *c = ctx->check;

	/* Where the trace records no process ends (LTTng-UST writes none),
	 * one of several processes may have exited there: say so. Where it
	 * does (the ETW kernel logger), an exited process's state is gone by
	 * now, and what is left was still running. */
	const char *gone = c->multi && !c->proc_records
		? ", or its process exited then (this trace records no process ends)" : "";

	processes_due(c, 0, 1);
	if (c->multi)
		ctx->stats.several_processes = 1;
	for (int i = 0; i < OR_MAX_SLOTS; i++) {
		struct inst *in = &c->inst[i];
		if (!in->used)
			continue;
		/* Reported at the GCStart that has no end. */
		for (int g = in->ngc; g-- > 0;)
			if (!in->gc[g].unseen)
				IREP(in, GCSPEC_DIAG_S003, in->gc[g].index,
				          in->gc[g].offset, NULL,
				          "the trace ends inside GC %u (ClrInstanceID %llu): its GCStart has no GCEnd%s",
				          in->gc[g].count, (unsigned long long)in->clr, gone);
		heap_count_shown(ctx, in);
		if (in->susp != S_IDLE || in->nwait)
			IREP(in, GCSPEC_DIAG_S025, next_index, offset, NULL,
			          "the trace ends while the runtime is %s (ClrInstanceID %llu)%s",
			          susp_names[in->susp != S_IDLE ? in->susp : S_SUSPENDING],
			          (unsigned long long)in->clr, gone);
	}
	or_check_reset(c);
}
