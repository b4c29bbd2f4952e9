/*
 * sim.c - realistic GC event streams.
 *
 * One global simulated QPC clock advances with every event, so timestamps
 * increase on every thread. Threads: user threads trigger GCs and allocate;
 * workstation GC works on the triggering thread, server GC on one GC thread
 * per heap (heap 0's suspends and restarts the runtime) and one background
 * GC thread per heap; finalizers run on the finalizer thread; on .NET 5 and
 * later a tiered-compilation thread suspends the runtime now and then.
 *
 * What real runtimes were seen to do (docs/real-runtime.md) is done here
 * too: every store into a GC handle is a SetGCHandle (live handles are set
 * again, to another object or to null); server GC threads meet at joins
 * where the last to arrive restarts the others under the pseudo-heap 100
 * (a reverse join under 200); another thread's GCSuspendEEBegin may come
 * while a GC holds the runtime, since the runtime fires it before taking
 * the suspension lock; a pinned object's HandleID may be a stack slot.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gen/model/rng.h"
#include "gen/model/sim.h"

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
 * Fields, learnt once per run. Each kind of event maps to one event-version
 * for the whole run (the profile fixes it), and the simulator names fields
 * by string literals, in the same order at every event of a kind. So each
 * kind keeps the names in the order its first event set them, with what
 * setting each takes (its template index and, when payloads are written in
 * place, where its bytes go: emit.h's gen_emit_slot); a later event finds
 * its next field with one pointer comparison. A name out of that order is
 * found by a walk over the list, or learnt. Names must be string literals
 * (or pointers into constant tables of them): the address is the key.
 */
#define MAX_LEARNT 32              /* per kind; then names are looked up each time */

struct learnt {
	const char *name;
	uint8_t member;
	int16_t index;             /* template index, or -1: not in this version */
	struct gen_emit_slot slot;
};

struct kind_fields {
	struct learnt f[MAX_LEARNT];
	unsigned n;
	int first_member;          /* where the Struct's members start (-1: none yet) */
};

struct sim {
	const struct gen_sim_config *cfg;
	struct gen_emit *e;
	struct gen_rng rng;
	int ev[EV_COUNT];
	uint8_t on[EV_COUNT];      /* the profile writes it and the session records it */
	int cur;                   /* kind of the event being built */
	unsigned next;             /* its next field in the learnt order */
	struct kind_fields kf[EV_COUNT];
	uint64_t now;
	uint64_t count;            /* last GC count used */
	unsigned nheaps;           /* heaps the events show (1 for workstation) */
	int server;
	uint16_t clr;
	int bgc_thread_alive;
	uint64_t handles[MAX_HANDLES];
	uint8_t handle_kind[MAX_HANDLES];
	unsigned nhandles;
	uint64_t next_handle;
	uint64_t segments[MAX_SEGMENTS];
	unsigned nsegments;
	uint64_t next_segment;
	uint64_t gen_size[5];
	uint64_t gcs_done;
	int tier_waits;            /* the tiering thread waits to suspend */
	int start2;                /* GCStart_V2 as well (double_gcstart), or -1 */
	uint64_t returned[MAX_SEGMENTS]; /* regions given back unseen (GEN_SEG_REGIONS) */
	unsigned nreturned;
};

static const uint64_t USER_THREAD0 = 0x1000, GC_THREAD0 = 0x2000, BGC_THREAD = 0x3000,
		      FINALIZER_THREAD = 0x4000, TIER_THREAD = 0x5000, SAMPLER_THREAD = 0x6000;

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
/* The slow path of field(): a name out of the learnt order, or new. */
static const struct learnt *learn(struct sim *s, const char *name, int member)
{
	static struct learnt one;
	struct kind_fields *k = &s->kf[s->cur];
	unsigned event = (unsigned)s->ev[s->cur];

	for (unsigned i = 0; i < k->n; i++)
		if (k->f[i].name == name && k->f[i].member == member) {
			s->next = i + 1;
			return &k->f[i];
		}
	one.name = name;
	one.member = (uint8_t)member;
	one.index = (int16_t)gen_field_index(event, name, member);
	one.slot = gen_emit_slot_of(s->e, event, (unsigned)one.index);
	if (k->n == MAX_LEARNT)
		return &one;
	if (member && k->first_member < 0)
		k->first_member = (int)k->n;
	k->f[k->n] = one;
	s->next = k->n + 1;
	return &k->f[k->n++];
}

/* Set fields are inlined at each call site: a site always sets the same
 * field, so the branches on its slot and width go the same way each time. */
#if defined(__GNUC__)
#define SETTER static inline __attribute__((always_inline))
#else
#define SETTER static inline
#endif

/* What setting field `name` (member: of the Struct) of the current event takes. */
SETTER const struct learnt *field(struct sim *s, const char *name, int member)
{
	const struct kind_fields *k = &s->kf[s->cur];
	const struct learnt *f = &k->f[s->next];

	if (s->next < k->n && f->name == name && f->member == member) {
		s->next++;
		return f;
	}
	return learn(s, name, member);
}

/* Fields written through values (values mode, floats): out of line. */
static void set_num_slow(struct sim *s, int index, uint64_t x)
{
	if (index >= 0)
		gen_emit_num(s->e, (unsigned)index, x);
}

static void set_member_slow(struct sim *s, unsigned row, int index, uint64_t x)
{
	if (index >= 0)
		gen_emit_member(s->e, row, (unsigned)index, x);
}

SETTER void set_num(struct sim *s, const char *name, uint64_t x)
{
	const struct learnt *f = field(s, name, 0);

	if (f->slot.dst)
		gen_emit_store(f->slot.dst, x, f->slot.width);
	else
		set_num_slow(s, f->index, x);
}

/* Texts are the simulator's constants: their conversions are remembered. */
static inline void set_text(struct sim *s, const char *name, const char *utf8, size_t len)
{
	const struct learnt *f = field(s, name, 0);

	if (f->index >= 0)
		gen_emit_text_const(s->e, (unsigned)f->index, utf8, len);
}

SETTER void set_member(struct sim *s, unsigned row, const char *name, uint64_t x)
{
	const struct learnt *f = field(s, name, 1);

	if (f->slot.dst) {
		if (row < s->e->nrows)
			gen_emit_store(f->slot.dst + (size_t)row * f->slot.elem, x, f->slot.width);
	} else {
		set_member_slow(s, row, f->index, x);
	}
}

/* A new row: its members are set in the order the first row's were. */
static inline int add_row(struct sim *s)
{
	if (s->kf[s->cur].first_member >= 0)
		s->next = (unsigned)s->kf[s->cur].first_member;
	return gen_emit_add_row(s->e);
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
		s->next = 0;
		set_num(s, "ClrInstanceID", s->clr); /* every event has it */
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

/* A server GC has a background GC thread per heap; workstation GC one. */
static uint64_t bgc_thread(const struct sim *s, unsigned heap)
{
	return s->server ? BGC_THREAD + heap : BGC_THREAD;
}

static int suspend_begin(struct sim *s, uint64_t thread, unsigned reason, uint32_t count)
{
	if (begin(s, EV_SUSPEND_BEGIN) == 1) {
		SET("Reason", reason);
		SET("Count", count);
		TRY(send(s, thread));
	}
	return 0;
}

static int one(struct sim *s, int which, uint64_t thread)
{
	if (begin(s, which) == 1)
		TRY(send(s, thread));
	return 0;
}

static int suspend(struct sim *s, uint64_t thread, unsigned reason, uint32_t count)
{
	TRY(suspend_begin(s, thread, reason, count));
	return one(s, EV_SUSPEND_END, thread);
}

static int restart(struct sim *s, uint64_t thread)
{
	TRY(one(s, EV_RESTART_BEGIN, thread));
	return one(s, EV_RESTART_END, thread);
}

/*
 * Tiered compilation (.NET 5 and later) suspends the runtime to finish call
 * counting: Reason 0, Count 0xFFFFFFFF. The runtime fires GCSuspendEEBegin
 * before it takes the suspension lock and GCRestartEEEnd after it lets go,
 * so on a server GC machine the tiering thread's begin can come while a GC
 * holds the runtime, and its GCSuspendEEEnd before or after the GC
 * thread's GCRestartEEEnd (a real .NET 10 server GC trace showed both).
 * tier_waits says whether one is waiting now.
 */
static int tier_may_wait(struct sim *s)
{
	if (s->server && s->cfg->profile->tiering_suspends && !s->tier_waits &&
	    gen_rng_chance(&s->rng, 1, 8)) {
		s->tier_waits = 1;
		return suspend_begin(s, TIER_THREAD, 0, 0xFFFFFFFFu);
	}
	return 0;
}

/* The GC thread restarts the runtime; a waiting tiering thread then gets it. */
static int gc_restart(struct sim *s, uint64_t thread)
{
	int tier_first;

	TRY(one(s, EV_RESTART_BEGIN, thread));
	TRY(tier_may_wait(s));
	if (!s->tier_waits)
		return one(s, EV_RESTART_END, thread);
	tier_first = gen_rng_chance(&s->rng, 1, 2);
	if (!tier_first)
		TRY(one(s, EV_RESTART_END, thread));
	TRY(one(s, EV_SUSPEND_END, TIER_THREAD));
	if (tier_first)
		TRY(one(s, EV_RESTART_END, thread));
	s->tier_waits = 0;
	return restart(s, TIER_THREAD);
}

/* GCJoin's JoinID: the join point (gc_join_stage in the runtime's gc.cpp). */
enum { JOIN_DONE = 1, JOIN_GENERATION_DETERMINED = 2, JOIN_BEGIN_MARK = 3,
       JOIN_DECIDE_ON_COMPACTION = 11, JOIN_BGC_AFTER_EPHEMERAL = 22, JOIN_BGC_SWEEP = 24,
       R_JOIN_UPDATE_CARD_BUNDLE = 28 };
/* The pseudo-heaps of the restart events (E061). */
enum { JOIN_HEAP_RESTART = 100, JOIN_HEAP_R_RESTART = 200 };

static int join_event(struct sim *s, uint64_t thread, unsigned heap, unsigned time, unsigned type,
		      uint32_t id)
{
	if (begin(s, EV_JOIN) == 1) {
		SET("Heap", heap);
		SET("JoinTime", time);
		SET("JoinType", type);
		SET("JoinID", id);
		TRY(send(s, thread));
	}
	return 0;
}

/* What the last thread to arrive at a join does alone. */
enum join_work { JW_NONE, JW_GCSTART, JW_HISTORIES };

struct gc_info {
	uint64_t user;
	uint32_t count;
	unsigned depth, reason, type;
	int background;
};

static int gc_start(struct sim *s, uint64_t th, uint32_t count, unsigned depth, unsigned reason,
		    unsigned type);
static int histories(struct sim *s, uint64_t th, const struct gc_info *g, int sampler_mid);

/*
 * One join of the server GC's threads (gc.cpp t_join::join), heaps
 * arriving in a random order: each but the last fires a Join start and
 * waits; the last fires LastJoin (it has no end), does the work that needs
 * one thread, and restarts the others (Heap 100, JoinID 0xFFFFFFFF); the
 * waiters then fire their ends. reverse: t_join::r_join, where the first to
 * arrive (FirstReverseJoin) works and restarts under Heap 200.
 */
static int join_point(struct sim *s, uint32_t id, const struct gc_info *g, enum join_work work,
		      int reverse)
{
	unsigned n = s->nheaps, first = (unsigned)gen_rng_below(&s->rng, n);
	unsigned lone = reverse ? first : (first + n - 1) % n;
	uint64_t th;

	if (reverse && n == 1)
		return 0; /* r_join and r_restart fire nothing for one thread */
	if (reverse)
		TRY(join_event(s, bgc_thread(s, lone), lone, 0, 3, id));
	for (unsigned k = 0; k < n; k++) {
		unsigned h = (first + k) % n;

		if (h == lone)
			continue;
		th = g->background ? bgc_thread(s, h) : gc_thread(s, h, g->user);
		TRY(join_event(s, th, h, 0, 1, id));
	}
	th = g->background ? bgc_thread(s, lone) : gc_thread(s, lone, g->user);
	if (!reverse)
		TRY(join_event(s, th, lone, 0, 0, id));
	if (work == JW_GCSTART)
		TRY(gc_start(s, th, g->count, g->depth, g->reason, g->type));
	else if (work == JW_HISTORIES)
		TRY(histories(s, th, g, 0));
	TRY(join_event(s, th, reverse ? JOIN_HEAP_R_RESTART : JOIN_HEAP_RESTART, 0, 2, 0xFFFFFFFFu));
	TRY(join_event(s, th, reverse ? JOIN_HEAP_R_RESTART : JOIN_HEAP_RESTART, 1, 2, 0xFFFFFFFFu));
	for (unsigned k = 0; k < n; k++) {
		unsigned h = (first + k) % n;

		if (h == lone)
			continue;
		th = g->background ? bgc_thread(s, h) : gc_thread(s, h, g->user);
		TRY(join_event(s, th, h, 1, 1, id));
	}
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
	/* .NET 8's regions: a region given back is handed out again and
	 * fires GCCreateSegment again, never having fired GCFreeSegment. */
	if (s->nreturned)
		addr = s->returned[--s->nreturned];
	else
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
	/* The first ones stay (a heap's initial segments; regions: 3). */
	unsigned keep = s->cfg->profile->segments == GEN_SEG_REGIONS ? 3 : 4, i;

	if (s->nsegments <= keep)
		return 0;
	i = keep + (unsigned)gen_rng_below(&s->rng, s->nsegments - keep);
	if (s->cfg->profile->segments == GEN_SEG_REGIONS && s->nreturned < MAX_SEGMENTS)
		s->returned[s->nreturned++] = s->segments[i];
	if (begin(s, EV_FREE_SEG) == 1) {
		SET("Address", s->segments[i]);
		TRY(send(s, thread));
	}
	s->segments[i] = s->segments[--s->nsegments];
	return 0;
}

/* A new object's address (the handle table stores and the finalizer see them). */
static uint64_t object_address(struct sim *s)
{
	return ptrmask(s, 0x1f000000000ull + 8 * gen_rng_below(&s->rng, 1u << 24));
}

static int handle_set(struct sim *s, uint64_t thread, uint64_t handle, unsigned kind, uint64_t obj)
{
	if (begin(s, EV_SET_HANDLE) == 1) {
		SET("HandleID", handle);
		SET("ObjectID", obj);
		SET("Kind", kind);
		SET("Generation", gen_rng_below(&s->rng, 3));
		SET("AppDomainID", ptrmask(s, 0x7ff800001000ull));
		TRY(send(s, thread));
	}
	return 0;
}

/*
 * GC handles: the runtime fires SetGCHandle on every store into a handle
 * (E063): when one is made (often empty first, then given its object),
 * and whenever a live one is given another object or cleared (ObjectID
 * 0). A handle keeps its kind while it lives.
 */
static int handles(struct sim *s)
{
	uint64_t thread = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);

	if (s->nhandles < MAX_HANDLES && gen_rng_chance(&s->rng, 1, 2)) {
		uint64_t h = ptrmask(s, 0x1e000001000ull + 8 * s->next_handle++);
		unsigned kind = (unsigned)gen_rng_below(&s->rng, 9);

		s->handle_kind[s->nhandles] = (uint8_t)kind;
		s->handles[s->nhandles++] = h;
		if (gen_rng_chance(&s->rng, 1, 2))
			TRY(handle_set(s, thread, h, kind, 0));
		TRY(handle_set(s, thread, h, kind, object_address(s)));
	}
	if (s->nhandles && gen_rng_chance(&s->rng, 1, 3)) {
		unsigned i = (unsigned)gen_rng_below(&s->rng, s->nhandles);

		TRY(handle_set(s, thread, s->handles[i], s->handle_kind[i],
			       gen_rng_chance(&s->rng, 1, 4) ? 0 : object_address(s)));
	}
	if (s->nhandles && gen_rng_chance(&s->rng, 1, 3)) {
		unsigned i = (unsigned)gen_rng_below(&s->rng, s->nhandles);

		if (begin(s, EV_DESTROY_HANDLE) == 1) {
			SET("HandleID", s->handles[i]);
			TRY(send(s, thread));
		}
		s->nhandles--;
		s->handles[i] = s->handles[s->nhandles];
		s->handle_kind[i] = s->handle_kind[s->nhandles];
	}
	return 0;
}

static int mutator_activity(struct sim *s)
{
	uint64_t thread = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	unsigned seg_odds;

	TRY(alloc_ticks(s));
	TRY(handles(s));
	if (gen_rng_chance(&s->rng, 1, 8)) {
		int up = gen_rng_chance(&s->rng, 1, 2);

		if (begin(s, up ? EV_PRESSURE_UP : EV_PRESSURE_DOWN) == 1) {
			SET(up ? "BytesAllocated" : "BytesFreed", 4096 * (1 + gen_rng_below(&s->rng, 4096)));
			TRY(send(s, thread));
		}
	}
	/* Regions come and go much more often than segments. */
	seg_odds = s->cfg->profile->segments == GEN_SEG_REGIONS ? 4 : 16;
	if (gen_rng_chance(&s->rng, 1, seg_odds))
		TRY(segment_create(s, (unsigned)gen_rng_below(&s->rng, s->cfg->profile->has_poh ? 4 : 2), thread));
	if (gen_rng_chance(&s->rng, 1, seg_odds))
		TRY(segment_free(s, thread));
	/* A suspension that serves no GC: the runtime writes Count 0xFFFFFFFF.
	 * Reason 0 is tiered compilation's on .NET 5 and later. */
	if (gen_rng_chance(&s->rng, 1, 20)) {
		static const unsigned reasons[] = { 0, 5, 7, 3 };
		unsigned reason = reasons[gen_rng_below(&s->rng, 4)];

		if (reason == 0 && s->cfg->profile->tiering_suspends)
			thread = TIER_THREAD;
		TRY(suspend(s, thread, reason, 0xFFFFFFFFu));
		TRY(restart(s, thread));
	}
	return 0;
}

/* What one heap's thread does for a GC: marks by root kind, maybe a
 * pinned object, moved and surviving ranges, generation ranges. */
static int heap_work(struct sim *s, unsigned h, uint64_t th, unsigned depth, int background)
{
	static const unsigned kinds_fg[] = { 0, 1, 2, 3, 6 };

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
		/* The pinning reference's address (E062): a pinned handle's,
		 * or a stack slot of a pinned local, which no handle stands behind. */
		uint64_t ref = ptrmask(s, s->e->pointer_size == 8 ? 0x7ffc00000000ull : 0x00c00000ull) +
			       0x1000 * (th & 0xFF) + 8 * gen_rng_below(&s->rng, 512);

		for (unsigned i = 0; i < s->nhandles; i++)
			if (s->handle_kind[i] == 3 && gen_rng_chance(&s->rng, 1, 2)) {
				ref = s->handles[i];
				break;
			}
		SET("HandleID", ref);
		SET("ObjectID", object_address(s));
		SET("ObjectSize", 64);
		set_text(s, "TypeName", "System.Byte[]", 13);
		TRY(send(s, th));
	}
	if (begin(s, EV_MOVED) == 1) {
		unsigned n = 1 + (unsigned)gen_rng_below(&s->rng, 4);

		for (unsigned r = 0; r < n; r++) {
			add_row(s);
			set_member(s, r, "OldRangeBase", ptrmask(s, 0x1f000000000ull + r * 0x1000));
			set_member(s, r, "NewRangeBase", ptrmask(s, 0x1f000800000ull + r * 0x1000));
			set_member(s, r, "RangeLength", 0x800);
		}
		TRY(send(s, th));
	}
	if (begin(s, EV_SURVIVING) == 1) {
		add_row(s);
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
	return 0;
}

/* GCGlobalHeapHistory, then GCPerHeapHistory for every heap (gc.cpp
 * fire_pevents; the order real traces show). sampler_mid: the sample
 * profiler's suspension, begun after GCEnd, gets the runtime between the two
 * (a real .NET 10 DATAS trace). */
static int histories(struct sim *s, uint64_t th, const struct gc_info *g, int sampler_mid)
{
	if (begin(s, EV_GLOBAL) == 1) {
		SET("FinalYoungestDesired", 0x600000);
		SET("NumHeaps", s->nheaps);
		SET("CondemnedGeneration", g->depth);
		SET("Reason", 0);
		SET("PauseMode", 1);
		SET("MemoryPressure", gen_rng_below(&s->rng, 100));
		if (gen_emit_has_rows(s->e)) {
			for (unsigned p = 0; p < 3; p++) {
				int r = add_row(s);

				set_member(s, (unsigned)r, "Time", gen_rng_below(&s->rng, 5000));
			}
		}
		TRY(send(s, th));
	}
	if (sampler_mid)
		TRY(one(s, EV_SUSPEND_END, SAMPLER_THREAD));
	for (unsigned h = 0; h < s->nheaps; h++) {
		if (begin(s, EV_PER_HEAP) == 1) {
			SET("HeapIndex", h);
			SET("FreeListAllocated", gen_rng_below(&s->rng, 1u << 20));
			SET("EndOfSegAllocated", gen_rng_below(&s->rng, 1u << 22));
			SET("RunningFreeListEfficiency", gen_rng_below(&s->rng, 101));
			SET("CondemnReasons0", gen_rng_below(&s->rng, 1u << 16));
			for (unsigned k = 0; k < 5; k++) {
				int r = add_row(s);

				set_member(s, (unsigned)r, "SizeBefore", s->gen_size[k]);
				set_member(s, (unsigned)r, "SizeAfter", s->gen_size[k] / 2);
				set_member(s, (unsigned)r, "NewAllocation", 0x40000);
			}
			TRY(send(s, th));
		}
	}
	return 0;
}

/*
 * The work of one GC between GCStart and GCEnd. Workstation GC: one thread
 * does it all. Server GC: the heaps' threads mark in parallel between joins,
 * and the last to reach the final join writes the histories; a background
 * GC's threads also meet in a reverse join.
 */
static int gc_body(struct sim *s, const struct gc_info *g)
{
	if (!s->server) {
		uint64_t th = g->background ? BGC_THREAD : g->user;

		TRY(heap_work(s, 0, th, g->depth, g->background));
		return histories(s, th, g, 0);
	}
	TRY(join_point(s, g->background ? JOIN_BGC_AFTER_EPHEMERAL : JOIN_BEGIN_MARK, g, JW_NONE, 0));
	for (unsigned h = 0; h < s->nheaps; h++)
		TRY(heap_work(s, h, g->background ? bgc_thread(s, h) : gc_thread(s, h, g->user),
			      g->depth, g->background));
	if (g->background)
		TRY(join_point(s, R_JOIN_UPDATE_CARD_BUNDLE, g, JW_NONE, 1));
	TRY(join_point(s, g->background ? JOIN_BGC_SWEEP : JOIN_DECIDE_ON_COMPACTION, g, JW_NONE, 0));
	return join_point(s, JOIN_DONE, g, g->background ? JW_NONE : JW_HISTORIES, 0);
}

/* A field of an event-version the profile's kinds do not name (the second
 * GCStart of double_gcstart): looked up each time, as it is rare. */
static void set_other(struct sim *s, unsigned event, const char *name, uint64_t x)
{
	int i = gen_field_index(event, name, 0);

	if (i >= 0)
		gen_emit_num(s->e, (unsigned)i, x);
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
	/* .NET Framework 4.5.2: the same GC again as GCStart_V2. */
	if (s->start2 >= 0 && gen_emit_begin_always(s->e, s->start2) == 1) {
		set_other(s, (unsigned)s->start2, "ClrInstanceID", s->clr);
		set_other(s, (unsigned)s->start2, "Count", count);
		set_other(s, (unsigned)s->start2, "Depth", depth);
		set_other(s, (unsigned)s->start2, "Reason", reason);
		set_other(s, (unsigned)s->start2, "Type", type);
		TRY(send(s, th));
	}
	return 0;
}

/* GCStart: in server GC, the last heap's thread to decide the generation. */
static int gc_begin(struct sim *s, const struct gc_info *g)
{
	if (s->server)
		return join_point(s, JOIN_GENERATION_DETERMINED, g, JW_GCSTART, 0);
	return gc_start(s, g->user, g->count, g->depth, g->reason, g->type);
}

/* GCEnd and GCHeapStats on th, and for a server GC's background GC (bg)
 * then its histories (the others' come before GCEnd, gc_body). sampler: the
 * sample profiler begins to suspend between GCEnd and GCHeapStats (a
 * background GC ends without the runtime suspended; a real .NET 8 server
 * GC trace), and has the runtime before the histories or among them. */
static int gc_end(struct sim *s, uint64_t th, uint32_t count, unsigned depth, int sampler,
		  const struct gc_info *bg)
{
	int mid;

	if (begin(s, EV_GCEND) == 1) {
		SET("Count", count);
		SET("Depth", depth);
		TRY(send(s, th));
	}
	if (sampler)
		TRY(suspend_begin(s, SAMPLER_THREAD, 0, 0xFFFFFFFFu));
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
	mid = sampler && bg && gen_rng_chance(&s->rng, 1, 2);
	if (sampler && !mid)
		TRY(one(s, EV_SUSPEND_END, SAMPLER_THREAD));
	/* A server GC's background GC writes its histories after GCHeapStats
	 * (a workstation one before GCEnd: every runtime's fixture shows
	 * both), the runtime not suspended: the sampler may have it meanwhile,
	 * before them (.NET 8.0) or between the global and the per-heap ones
	 * (.NET 10.0). */
	if (bg)
		TRY(histories(s, th, bg, mid));
	return sampler ? restart(s, SAMPLER_THREAD) : 0;
}

static unsigned pick_reason(struct sim *s)
{
	static const unsigned reasons[] = { 0, 0, 0, 0, 4, 1, 5, 2, 7, 6 };

	return reasons[gen_rng_below(&s->rng, 10)];
}

/* The runtime suspended for a GC: in server GC, by heap 0's GC thread.
 * A tiering thread may begin to suspend meanwhile and wait for the lock. */
static int gc_suspend(struct sim *s, uint64_t th, uint32_t count)
{
	TRY(suspend(s, th, 1, count - 1)); /* the GC index before this GC */
	return gen_rng_chance(&s->rng, 1, 2) ? tier_may_wait(s) : 0;
}

/* A blocking GC: suspend, GCStart, work, GCEnd, GCHeapStats, restart. */
static int blocking_gc(struct sim *s, unsigned type)
{
	struct gc_info g;
	uint64_t th;
	int backoff;

	g.user = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	g.count = (uint32_t)++s->count;
	g.depth = type == 2 ? (unsigned)gen_rng_below(&s->rng, 2)
			    : (unsigned)(gen_rng_chance(&s->rng, 1, 10) ? 2 : gen_rng_below(&s->rng, 2));
	g.reason = pick_reason(s);
	g.type = type;
	g.background = 0;
	th = gc_thread(s, 0, g.user);
	backoff = s->cfg->profile->sampler && gen_rng_chance(&s->rng, 1, 6);
	if (begin(s, EV_TRIGGERED) == 1) {
		SET("Reason", g.reason);
		TRY(send(s, g.user));
	}
	if (backoff) {
		/* The sample profiler began to suspend first; it sees the GC
		 * waiting, restarts what it stopped and waits in turn. */
		TRY(suspend_begin(s, SAMPLER_THREAD, 0, 0xFFFFFFFFu));
		TRY(suspend_begin(s, th, 1, g.count - 1));
		TRY(restart(s, SAMPLER_THREAD));
		TRY(one(s, EV_SUSPEND_END, th));
	} else {
		TRY(gc_suspend(s, th, g.count));
	}
	TRY(gc_begin(s, &g));
	TRY(gc_body(s, &g));
	TRY(gc_end(s, th, g.count, g.depth, 0, NULL));
	TRY(gc_restart(s, th));
	if (!backoff)
		return 0;
	/* Its retry may back off once more before it has the runtime. */
	if (gen_rng_chance(&s->rng, 1, 2))
		TRY(restart(s, SAMPLER_THREAD));
	TRY(one(s, EV_SUSPEND_END, SAMPLER_THREAD));
	return restart(s, SAMPLER_THREAD);
}

/*
 * GC.TryStartNoGCRegion when the budget is already there: the runtime
 * fires GCTriggered (Reason 1, induced), suspends for a GC (Reason 1, the
 * GC index it had), counts a GC and restarts without GCStart or GCEnd. The
 * next GC's number skips the one taken (seen on .NET 3.1 to 10).
 */
static int nogc_region(struct sim *s)
{
	uint64_t user = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	uint64_t th = gc_thread(s, 0, user);
	uint32_t before = (uint32_t)s->count++;

	if (begin(s, EV_TRIGGERED) == 1) {
		SET("Reason", 1);
		TRY(send(s, user));
	}
	TRY(suspend(s, th, 1, before));
	return restart(s, th);
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

/* The background GC threads: one per heap in server GC, made at the first
 * background GC and now and then ended when one finishes. */
static int bgc_threads(struct sim *s, int which)
{
	for (unsigned h = 0; h < s->nheaps && (h == 0 || s->server); h++)
		TRY(one(s, which, bgc_thread(s, h)));
	return 0;
}

/* A background GC: Type 1, depth 2, with foreground GCs (Type 2) inside. */
static int background_gc(struct sim *s)
{
	struct gc_info g;
	unsigned nfg;
	uint64_t th;

	g.user = USER_THREAD0 + gen_rng_below(&s->rng, USER_THREADS);
	g.count = (uint32_t)++s->count;
	g.depth = 2;
	g.reason = pick_reason(s);
	g.type = 1;
	g.background = 0;
	th = gc_thread(s, 0, g.user);
	nfg = (unsigned)gen_rng_below(&s->rng, 3);
	if (!s->bgc_thread_alive) {
		TRY(bgc_threads(s, EV_CREATE_BGC_THREAD));
		s->bgc_thread_alive = 1;
	}
	if (begin(s, EV_TRIGGERED) == 1) {
		SET("Reason", g.reason);
		TRY(send(s, g.user));
	}
	TRY(gc_suspend(s, th, g.count));
	TRY(gc_begin(s, &g));
	TRY(gc_restart(s, th));
	for (unsigned i = 0; i < nfg && (!s->cfg->gcs || s->gcs_done + 2 < s->cfg->gcs); i++) {
		TRY(mutator_activity(s));
		TRY(blocking_gc(s, 2));
	}
	g.background = 1;
	TRY(gc_body(s, &g));
	TRY(gc_end(s, BGC_THREAD, g.count, 2,
		   s->cfg->profile->sampler && gen_rng_chance(&s->rng, 1, 3), s->server ? &g : NULL));
	if (gen_rng_chance(&s->rng, 1, 4)) {
		TRY(bgc_threads(s, EV_TERM_BGC_THREAD));
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
		s.kf[i].first_member = -1;
	}
	s.start2 = -1;
	if (cfg->profile->double_gcstart)
		for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
			if (strcmp(gcspec_events[i].symbol, "GCStart_V2") == 0 &&
			    s.on[EV_GCSTART] && gen_event_enabled(i, e->keywords, e->level))
				s.start2 = (int)i;
	if (cfg->profile->segments == GEN_SEG_NONE)
		s.on[EV_CREATE_SEG] = s.on[EV_FREE_SEG] = 0;
	if (cfg->profile->segments == GEN_SEG_REGIONS)
		s.on[EV_FREE_SEG] = 0;
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
		if (cfg->profile->nogc_regions && gen_rng_chance(&s.rng, 1, 24))
			TRY(nogc_region(&s));
		/* Every 256 GCs: a GC can complete several at once (foreground
		 * GCs inside a background one), so compare, not mask. */
		if (cfg->progress && s.gcs_done >= next_progress) {
			next_progress = s.gcs_done + 256;
			cfg->progress(s.gcs_done, cfg->progress_arg);
		}
	}
	if (s.bgc_thread_alive)
		TRY(bgc_threads(&s, EV_TERM_BGC_THREAD));
	return 0;
}
