/*
 * sim.c - realistic GC event streams.
 *
 * One global simulated QPC clock advances with every event, so timestamps
 * increase on every thread. Threads: user threads trigger GCs and allocate;
 * workstation GC works on the triggering thread, server GC on one GC thread
 * per heap; the background GC has its own thread; finalizers run on the
 * finalizer thread.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rng.h"
#include "sim.h"

enum {
	EV_GCSTART, EV_GCEND, EV_RESTART_END, EV_HEAPSTATS, EV_CREATE_SEG, EV_FREE_SEG,
	EV_RESTART_BEGIN, EV_SUSPEND_END, EV_SUSPEND_BEGIN, EV_ALLOC_TICK, EV_CREATE_BGC_THREAD,
	EV_TERM_BGC_THREAD, EV_FIN_END, EV_FIN_BEGIN, EV_SURVIVING, EV_MOVED, EV_GENRANGE,
	EV_SET_HANDLE, EV_DESTROY_HANDLE, EV_PIN, EV_TRIGGERED, EV_PRESSURE_UP, EV_PRESSURE_DOWN,
	EV_MARK, EV_JOIN, EV_PER_HEAP, EV_GLOBAL, EV_FINALIZE_OBJECT, EV_COUNT
};

static const char *const ev_names[EV_COUNT] = {
	"GCStart", "GCEnd", "GCRestartEEEnd", "GCHeapStats", "GCCreateSegment", "GCFreeSegment",
	"GCRestartEEBegin", "GCSuspendEEEnd", "GCSuspendEEBegin", "GCAllocationTick",
	"GCCreateConcurrentThread", "GCTerminateConcurrentThread", "GCFinalizersEnd",
	"GCFinalizersBegin", "GCBulkSurvivingObjectRanges", "GCBulkMovedObjectRanges",
	"GCGenerationRange", "SetGCHandle", "DestroyGCHandle", "PinObjectAtGCTime", "GCTriggered",
	"IncreaseMemoryPressure", "DecreaseMemoryPressure", "GCMarkWithType", "GCJoin",
	"GCPerHeapHistory", "GCGlobalHeapHistory", "FinalizeObject"
};

#define MAX_HANDLES 256
#define MAX_SEGMENTS 64
#define USER_THREADS 4

/*
 * Field indexes, learnt once per run. Each kind of event maps to one
 * event-version for the whole run (the profile fixes it), and the simulator
 * names fields by string literals. So a small per-kind hash table keyed by
 * the name's address finds a field's template index in a few instructions,
 * where a search by name costs a string comparison per field (and a whole
 * scan for the fields an older version lacks). Names must be string
 * literals (or pointers into constant tables of them): the address is the
 * key.
 */
#define LEARNT_SLOTS 64            /* a power of two */
#define MAX_LEARNT 24              /* then names are looked up each time */

struct kind_fields {
	const char *name[LEARNT_SLOTS];
	int16_t index[LEARNT_SLOTS];   /* template index, or -1: not in this version */
	uint8_t member[LEARNT_SLOTS];
	unsigned n;
};

struct sim {
	const struct gen_sim_config *cfg;
	struct gen_emit *e;
	struct gen_rng rng;
	int ev[EV_COUNT];
	uint8_t on[EV_COUNT];      /* the profile writes it and the session records it */
	int16_t clr_at[EV_COUNT];  /* template index of ClrInstanceID */
	int cur;                   /* kind of the event being built */
	struct kind_fields kf[EV_COUNT];
	uint64_t now;
	uint64_t count;            /* last GC count used */
	unsigned nheaps;           /* heaps the events show (1 for workstation) */
	int server;
	uint16_t clr;
	int bgc_thread_alive;
	uint64_t handles[MAX_HANDLES];
	unsigned nhandles;
	uint64_t next_handle;
	uint64_t segments[MAX_SEGMENTS];
	unsigned nsegments;
	uint64_t next_segment;
	uint64_t gen_size[5];
	uint64_t gcs_done;
};

static const uint64_t USER_THREAD0 = 0x1000, GC_THREAD0 = 0x2000, BGC_THREAD = 0x3000,
		      FINALIZER_THREAD = 0x4000;

static uint64_t tick(struct sim *s)
{
	s->now += 1 + gen_rng_below(&s->rng, 200);
	return s->now;
}

static uint64_t ptrmask(const struct sim *s, uint64_t x)
{
	return s->e->pointer_size == 4 ? (x & 0xFFFFFFFFu) : x;
}

/* The slow path of field(): look the name up and remember it. */
static int learn(struct sim *s, struct kind_fields *k, unsigned h, const char *name, int member)
{
	int index = gen_values_index(s->e->vals, name, member);

	if (k->n < MAX_LEARNT) {
		k->name[h] = name;
		k->index[h] = (int16_t)index;
		k->member[h] = (uint8_t)member;
		k->n++;
	}
	return index;
}

/* Template index of field `name` (member: of the Struct) of the current
 * event, or -1. */
static inline int field(struct sim *s, const char *name, int member)
{
	struct kind_fields *k = &s->kf[s->cur];
	unsigned h = (unsigned)(((uintptr_t)name * 0x9E3779B97F4A7C15ull) >> 58);

	for (; k->name[h]; h = (h + 1) & (LEARNT_SLOTS - 1))
		if (k->name[h] == name && k->member[h] == member)
			return k->index[h];
	return learn(s, k, h, name, member);
}

static inline void set_num(struct sim *s, const char *name, uint64_t x)
{
	int i = field(s, name, 0);

	if (i >= 0)
		gen_values_set_num_at(s->e->vals, (unsigned)i, x);
}

static inline void set_text(struct sim *s, const char *name, const char *utf8, size_t len)
{
	int i = field(s, name, 0);

	if (i >= 0)
		gen_values_set_text_at(s->e->vals, (unsigned)i, utf8, len);
}

static inline void set_member(struct sim *s, unsigned row, const char *name, uint64_t x)
{
	int i = field(s, name, 1);
	struct gen_value v = { x, 0, GEN_VK_NUM };

	if (i >= 0)
		gen_values_set_member_at(s->e->vals, row, (unsigned)i, &v);
}

/* Start an event of the profile; 1 when it is to be written. */
static int begin(struct sim *s, int which)
{
	int r;

	if (!s->on[which])
		return 0;
	r = gen_emit_begin_always(s->e, s->ev[which]);
	if (r == 1) {
		s->cur = which;
		/* Every event has it: its index is kept per kind (-2: not yet). */
		if (s->clr_at[which] == -2)
			s->clr_at[which] = (int16_t)field(s, "ClrInstanceID", 0);
		if (s->clr_at[which] >= 0)
			gen_values_set_num_at(s->e->vals, (unsigned)s->clr_at[which], s->clr);
	}
	return r;
}

static int send(struct sim *s, uint64_t thread)
{
	return gen_emit_send(s->e, tick(s), thread, (uint32_t)(thread & 0xF));
}

#define SET(name, x) set_num(s, (name), (x))
#define TRY(x) do { if ((x) < 0) return -1; } while (0)

static uint64_t gc_thread(const struct sim *s, unsigned heap, uint64_t user)
{
	return s->server ? GC_THREAD0 + heap : user;
}

static int suspend(struct sim *s, uint64_t thread, unsigned reason, uint32_t count)
{
	if (begin(s, EV_SUSPEND_BEGIN) == 1) {
		SET("Reason", reason);
		SET("Count", count);
		TRY(send(s, thread));
	}
	if (begin(s, EV_SUSPEND_END) == 1)
		TRY(send(s, thread));
	return 0;
}

static int restart(struct sim *s, uint64_t thread)
{
	if (begin(s, EV_RESTART_BEGIN) == 1)
		TRY(send(s, thread));
	if (begin(s, EV_RESTART_END) == 1)
		TRY(send(s, thread));
	return 0;
}

static const char *const type_names[] = {
	"System.String", "System.Byte[]", "System.Object[]", "", "Ünïcödé.Tÿpe",
	"System.Collections.Generic.Dictionary`2[System.String,System.Int32]", "型.名前",
	"Emoji\xF0\x9F\x98\x80Type", "System.Int32[]", "MyApp.Order"
};

static int alloc_ticks(struct sim *s)
{
	unsigned kinds = s->cfg->profile->has_poh ? 3 : 2;

	for (unsigned h = 0; h < s->nheaps; h++) {
		for (unsigned k = 0; k < kinds; k++) {
			/* ~100 KB per tick; SOH allocates much more than LOH/POH.
			 * Bounds stay constants in each branch (k == 0 ? 4 : 2 as
			 * an argument would be a variable): the compiler turns a
			 * modulo by a constant into a multiply. */
			unsigned nticks = (unsigned)(k == 0 ? gen_rng_below(&s->rng, 4)
							    : gen_rng_below(&s->rng, 2));

			for (unsigned t = 0; t < nticks; t++) {
				const char *tn = type_names[gen_rng_below(&s->rng, 10)];
				uint64_t amount = 100 * 1024 + (k ? gen_rng_below(&s->rng, 90000)
								  : gen_rng_below(&s->rng, 8000));
				uint64_t size = k == 0 ? 24 + 8 * gen_rng_below(&s->rng, 100)
						       : 85000 + gen_rng_below(&s->rng, 1 << 20);
				uint64_t thread = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);

				if (begin(s, EV_ALLOC_TICK) != 1)
					return 0;
				SET("AllocationAmount", amount & 0xFFFFFFFFu);
				SET("AllocationKind", k);
				SET("AllocationAmount64", amount);
				SET("TypeID", ptrmask(s, 0x7ff812340000ull + 0x40 * gen_rng_below(&s->rng, 1000)));
				set_text(s, "TypeName", tn, strlen(tn));
				SET("HeapIndex", h);
				SET("Address", ptrmask(s, 0x1f000000000ull + gen_rng_below(&s->rng, 1ull << 30) * 8));
				SET("ObjectSize", size);
				TRY(send(s, thread));
			}
		}
	}
	return 0;
}

static int segment_create(struct sim *s, unsigned type, uint64_t thread)
{
	uint64_t addr;

	if (s->nsegments == MAX_SEGMENTS)
		return 0;
	addr = ptrmask(s, (s->e->pointer_size == 4 ? 0x02000000ull : 0x1f000000000ull) +
			      s->next_segment++ * 0x01000000ull);
	s->segments[s->nsegments++] = addr;
	if (begin(s, EV_CREATE_SEG) == 1) {
		SET("Address", addr);
		SET("Size", 0x01000000ull);
		SET("Type", type);
		TRY(send(s, thread));
	}
	return 0;
}

static int segment_free(struct sim *s, uint64_t thread)
{
	unsigned i;

	if (s->nsegments <= 4)
		return 0;
	i = 4 + (unsigned)gen_rng_below(&s->rng, s->nsegments - 4);
	if (begin(s, EV_FREE_SEG) == 1) {
		SET("Address", s->segments[i]);
		TRY(send(s, thread));
	}
	s->segments[i] = s->segments[--s->nsegments];
	return 0;
}

static int handles(struct sim *s)
{
	uint64_t thread = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);

	if (s->nhandles < MAX_HANDLES && gen_rng_chance(&s->rng, 1, 2)) {
		uint64_t h = ptrmask(s, 0x1e000001000ull + 8 * s->next_handle++);

		s->handles[s->nhandles++] = h;
		if (begin(s, EV_SET_HANDLE) == 1) {
			SET("HandleID", h);
			SET("ObjectID", ptrmask(s, 0x1f000000000ull + 8 * gen_rng_below(&s->rng, 1u << 24)));
			SET("Kind", gen_rng_below(&s->rng, 9));
			SET("Generation", gen_rng_below(&s->rng, 3));
			SET("AppDomainID", ptrmask(s, 0x7ff800001000ull));
			TRY(send(s, thread));
		}
	}
	if (s->nhandles && gen_rng_chance(&s->rng, 1, 3)) {
		unsigned i = (unsigned)gen_rng_below(&s->rng, s->nhandles);

		if (begin(s, EV_DESTROY_HANDLE) == 1) {
			SET("HandleID", s->handles[i]);
			TRY(send(s, thread));
		}
		s->handles[i] = s->handles[--s->nhandles];
	}
	return 0;
}

static int mutator_activity(struct sim *s)
{
	uint64_t thread = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);

	TRY(alloc_ticks(s));
	TRY(handles(s));
	if (gen_rng_chance(&s->rng, 1, 8)) {
		int up = gen_rng_chance(&s->rng, 1, 2);

		if (begin(s, up ? EV_PRESSURE_UP : EV_PRESSURE_DOWN) == 1) {
			SET(up ? "BytesAllocated" : "BytesFreed", 4096 * (1 + gen_rng_below(&s->rng, 4096)));
			TRY(send(s, thread));
		}
	}
	if (gen_rng_chance(&s->rng, 1, 16))
		TRY(segment_create(s, (unsigned)gen_rng_below(&s->rng, s->cfg->profile->has_poh ? 4 : 2), thread));
	if (gen_rng_chance(&s->rng, 1, 16))
		TRY(segment_free(s, thread));
	/* A suspension that serves no GC: the runtime writes Count 0xFFFFFFFF. */
	if (gen_rng_chance(&s->rng, 1, 20)) {
		static const unsigned reasons[] = { 0, 5, 7, 3 };

		TRY(suspend(s, thread, reasons[gen_rng_below(&s->rng, 4)], 0xFFFFFFFFu));
		TRY(restart(s, thread));
	}
	return 0;
}

/* The work of one GC on each heap, between GCStart and GCEnd. */
static int gc_body(struct sim *s, uint64_t user, unsigned depth, int background)
{
	static const unsigned kinds_fg[] = { 0, 1, 2, 3, 6 };
	unsigned join_id = 0;

	for (unsigned h = 0; h < s->nheaps; h++) {
		uint64_t th = background ? BGC_THREAD : gc_thread(s, h, user);

		if (s->server && begin(s, EV_JOIN) == 1) {
			SET("Heap", h); SET("JoinTime", 0); SET("JoinType", 1); SET("JoinID", join_id);
			TRY(send(s, th));
			if (begin(s, EV_JOIN) == 1) {
				SET("Heap", h); SET("JoinTime", 1); SET("JoinType", 1); SET("JoinID", join_id);
				TRY(send(s, th));
			}
		}
		for (unsigned k = 0; k < 5; k++) {
			if (kinds_fg[k] == 3 && depth == 2)
				continue; /* no older-generation roots in a full GC */
			if (begin(s, EV_MARK) == 1) {
				SET("HeapNum", h);
				SET("Type", background ? 9 : kinds_fg[k]);
				SET("Bytes", gen_rng_below(&s->rng, 1u << 20));
				TRY(send(s, th));
			}
		}
		if (gen_rng_chance(&s->rng, 1, 4) && begin(s, EV_PIN) == 1) {
			SET("HandleID", ptrmask(s, 0x1e000001000ull));
			SET("ObjectID", ptrmask(s, 0x1f000000100ull));
			SET("ObjectSize", 64);
			set_text(s, "TypeName", "System.Byte[]", 13);
			TRY(send(s, th));
		}
		if (begin(s, EV_MOVED) == 1) {
			unsigned n = 1 + (unsigned)gen_rng_below(&s->rng, 4);

			for (unsigned r = 0; r < n; r++) {
				gen_values_add_row(s->e->vals);
				set_member(s, r, "OldRangeBase", ptrmask(s, 0x1f000000000ull + r * 0x1000));
				set_member(s, r, "NewRangeBase", ptrmask(s, 0x1f000800000ull + r * 0x1000));
				set_member(s, r, "RangeLength", 0x800);
			}
			TRY(send(s, th));
		}
		if (begin(s, EV_SURVIVING) == 1) {
			gen_values_add_row(s->e->vals);
			set_member(s, 0, "RangeBase", ptrmask(s, 0x1f000000000ull));
			set_member(s, 0, "RangeLength", 0x4000);
			TRY(send(s, th));
		}
		for (unsigned g = 0; g < 3; g++) {
			if (begin(s, EV_GENRANGE) == 1) {
				SET("Generation", g);
				SET("RangeStart", ptrmask(s, 0x1f000000000ull + g * 0x01000000ull));
				SET("RangeUsedLength", s->gen_size[g]);
				SET("RangeReservedLength", 0x01000000ull);
				TRY(send(s, th));
			}
		}
		join_id++;
	}
	for (unsigned h = 0; h < s->nheaps; h++) {
		if (begin(s, EV_PER_HEAP) == 1) {
			SET("HeapIndex", h);
			SET("FreeListAllocated", gen_rng_below(&s->rng, 1u << 20));
			SET("EndOfSegAllocated", gen_rng_below(&s->rng, 1u << 22));
			SET("RunningFreeListEfficiency", gen_rng_below(&s->rng, 101));
			SET("CondemnReasons0", gen_rng_below(&s->rng, 1u << 16));
			for (unsigned g = 0; g < 5; g++) {
				int r = gen_values_add_row(s->e->vals);

				set_member(s, (unsigned)r, "SizeBefore", s->gen_size[g]);
				set_member(s, (unsigned)r, "SizeAfter", s->gen_size[g] / 2);
				set_member(s, (unsigned)r, "NewAllocation", 0x40000);
			}
			TRY(send(s, background ? BGC_THREAD : gc_thread(s, h, user)));
		}
	}
	if (begin(s, EV_GLOBAL) == 1) {
		SET("FinalYoungestDesired", 0x600000);
		SET("NumHeaps", s->nheaps);
		SET("CondemnedGeneration", depth);
		SET("Reason", 0);
		SET("PauseMode", 1);
		SET("MemoryPressure", gen_rng_below(&s->rng, 100));
		if (s->e->vals->struct_field >= 0) {
			for (unsigned p = 0; p < 3; p++) {
				int r = gen_values_add_row(s->e->vals);

				set_member(s, (unsigned)r, "Time", gen_rng_below(&s->rng, 5000));
			}
		}
		TRY(send(s, background ? BGC_THREAD : gc_thread(s, 0, user)));
	}
	return 0;
}

static int gc_start(struct sim *s, uint64_t th, uint32_t count, unsigned depth, unsigned reason,
		    unsigned type)
{
	if (begin(s, EV_GCSTART) == 1) {
		SET("Count", count);
		SET("Depth", depth);
		SET("Reason", reason);
		SET("Type", type);
		SET("ClientSequenceNumber", 0);
		TRY(send(s, th));
	}
	return 0;
}

static int gc_end(struct sim *s, uint64_t th, uint32_t count, unsigned depth)
{
	if (begin(s, EV_GCEND) == 1) {
		SET("Count", count);
		SET("Depth", depth);
		TRY(send(s, th));
	}
	for (unsigned g = 0; g < 5; g++)
		s->gen_size[g] = 0x10000 + gen_rng_below(&s->rng, 1u << 24);
	if (begin(s, EV_HEAPSTATS) == 1) {
		static const char *const sizes[] = { "GenerationSize0", "GenerationSize1",
			"GenerationSize2", "GenerationSize3", "GenerationSize4" };
		static const char *const proms[] = { "TotalPromotedSize0", "TotalPromotedSize1",
			"TotalPromotedSize2", "TotalPromotedSize3", "TotalPromotedSize4" };

		for (unsigned g = 0; g < 5; g++) {
			SET(sizes[g], s->gen_size[g]);
			SET(proms[g], s->gen_size[g] / 3);
		}
		SET("FinalizationPromotedCount", gen_rng_below(&s->rng, 20));
		SET("PinnedObjectCount", gen_rng_below(&s->rng, 10));
		SET("GCHandleCount", s->nhandles);
		TRY(send(s, th));
	}
	s->gcs_done++;
	return 0;
}

static unsigned pick_reason(struct sim *s)
{
	static const unsigned reasons[] = { 0, 0, 0, 0, 4, 1, 5, 2, 7, 6 };

	return reasons[gen_rng_below(&s->rng, 10)];
}

/* A blocking GC: suspend, GCStart, work, GCEnd, GCHeapStats, restart. */
static int blocking_gc(struct sim *s, unsigned type)
{
	uint64_t user = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	uint32_t count = (uint32_t)++s->count;
	unsigned depth = type == 2 ? (unsigned)gen_rng_below(&s->rng, 2)
				   : (unsigned)(gen_rng_chance(&s->rng, 1, 10) ? 2 : gen_rng_below(&s->rng, 2));
	unsigned reason = pick_reason(s);

	if (begin(s, EV_TRIGGERED) == 1) {
		SET("Reason", reason);
		TRY(send(s, user));
	}
	TRY(suspend(s, user, 1, count - 1)); /* the GC index before this GC */
	TRY(gc_start(s, gc_thread(s, 0, user), count, depth, reason, type));
	TRY(gc_body(s, user, depth, 0));
	TRY(gc_end(s, gc_thread(s, 0, user), count, depth));
	TRY(restart(s, user));
	return 0;
}

static int finalizers(struct sim *s)
{
	unsigned n = (unsigned)gen_rng_below(&s->rng, 4);

	if (begin(s, EV_FIN_BEGIN) == 1)
		TRY(send(s, FINALIZER_THREAD));
	for (unsigned i = 0; i < n; i++) {
		if (begin(s, EV_FINALIZE_OBJECT) == 1) {
			SET("TypeID", ptrmask(s, 0x7ff812340000ull + 0x40 * i));
			SET("ObjectID", ptrmask(s, 0x1f000000000ull + 0x100 * i));
			TRY(send(s, FINALIZER_THREAD));
		}
	}
	if (begin(s, EV_FIN_END) == 1) {
		SET("Count", n);
		TRY(send(s, FINALIZER_THREAD));
	}
	return 0;
}

/* A background GC: Type 1, depth 2, with foreground GCs (Type 2) inside. */
static int background_gc(struct sim *s)
{
	uint64_t user = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	uint32_t count = (uint32_t)++s->count;
	unsigned reason = pick_reason(s);
	unsigned nfg = (unsigned)gen_rng_below(&s->rng, 3);

	if (!s->bgc_thread_alive) {
		if (begin(s, EV_CREATE_BGC_THREAD) == 1)
			TRY(send(s, BGC_THREAD));
		s->bgc_thread_alive = 1;
	}
	if (begin(s, EV_TRIGGERED) == 1) {
		SET("Reason", reason);
		TRY(send(s, user));
	}
	TRY(suspend(s, user, 1, count - 1)); /* the GC index before this GC */
	TRY(gc_start(s, gc_thread(s, 0, user), count, 2, reason, 1));
	TRY(restart(s, user));
	for (unsigned i = 0; i < nfg && (!s->cfg->gcs || s->gcs_done + 2 < s->cfg->gcs); i++) {
		TRY(mutator_activity(s));
		TRY(blocking_gc(s, 2));
	}
	TRY(gc_body(s, user, 2, 1));
	TRY(gc_end(s, BGC_THREAD, count, 2));
	if (gen_rng_chance(&s->rng, 1, 4)) {
		if (begin(s, EV_TERM_BGC_THREAD) == 1)
			TRY(send(s, BGC_THREAD));
		s->bgc_thread_alive = 0;
	}
	return 0;
}

static int done(const struct sim *s)
{
	return (s->cfg->gcs && s->gcs_done >= s->cfg->gcs) ||
	       (s->cfg->events && s->e->nevents >= s->cfg->events);
}

int gen_sim_run(const struct gen_sim_config *cfg, struct gen_emit *e)
{
	struct sim s;
	unsigned kinds;
	uint64_t next_progress = 256;

	memset(&s, 0, sizeof s);
	s.cfg = cfg;
	s.e = e;
	gen_rng_seed(&s.rng, cfg->seed);
	for (int i = 0; i < EV_COUNT; i++) {
		s.ev[i] = gen_profile_event(cfg->profile, ev_names[i]);
		s.on[i] = s.ev[i] >= 0 && gen_event_enabled((unsigned)s.ev[i], e->keywords, e->level);
		s.clr_at[i] = -2;
	}
	s.now = cfg->start_ticks;
	s.server = cfg->heaps > 0;
	s.nheaps = cfg->heaps ? cfg->heaps : 1;
	s.clr = (uint16_t)cfg->profile->clr_instance_id;
	s.next_handle = 1;
	/* Initial segments: SOH and LOH per heap (and POH on .NET 5+). */
	kinds = cfg->profile->has_poh ? 3 : 2;
	for (unsigned h = 0; h < s.nheaps && h < MAX_SEGMENTS / 4; h++)
		for (unsigned k = 0; k < kinds; k++)
			TRY(segment_create(&s, k == 2 ? 3 : k, gc_thread(&s, h, USER_THREAD0)));
	while (!done(&s)) {
		TRY(mutator_activity(&s));
		if (gen_rng_chance(&s.rng, 1, 8) && (!cfg->gcs || s.gcs_done + 1 < cfg->gcs))
			TRY(background_gc(&s));
		else
			TRY(blocking_gc(&s, 0));
		if (gen_rng_chance(&s.rng, 1, 3))
			TRY(finalizers(&s));
		/* Every 256 GCs: a GC can complete several at once (foreground
		 * GCs inside a background one), so compare, not mask. */
		if (cfg->progress && s.gcs_done >= next_progress) {
			next_progress = s.gcs_done + 256;
			cfg->progress(s.gcs_done, cfg->progress_arg);
		}
	}
	if (s.bgc_thread_alive && begin(&s, EV_TERM_BGC_THREAD) == 1)
		TRY(send(&s, BGC_THREAD));
	return 0;
}
