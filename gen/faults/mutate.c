/*
 * mutate.c - the fault classes. Each class waits for its target (the k-th
 * event matching a predicate, k chosen so the trace has shown complete GCs
 * before), changes the stream there, and records the diagnostics this must
 * cause. Consequences that depend on how lenient a reader is are recorded
 * as "may"; a "may" entry without "event" may occur at any event.
 *
 * A class whose target never came (a short stream, a seed without
 * background GCs or finalizer runs) injects its fault at the end of the
 * stream instead (fallback()): every run records the fault it was asked
 * for, or fails saying why.
 *
 * Several classes act one after another, never at once: a fault changes
 * what a checker knows (a GC it thinks in flight, a suspension, a freed
 * segment), so a second fault inside the first one's aftermath would not
 * have the diagnostics recorded for it alone. Each class starts looking
 * for its target once the class before it has recorded its fault and the
 * input is quiet again (no GC, suspension or finalizer run open). The trace
 * edges go where they can only be: trace-starts-inside-gc first (it drops
 * the stream's beginning), trace-ends-inside-gc last (it drops its end).
 */
#include <stdlib.h>
#include <string.h>

#include "gen/model/encode.h"
#include "gen/faults/codes.h"
#include "gen/faults/mutate.h"

enum {
	C_DROP_GCSTART, C_DROP_GCEND, C_DUP_GCSTART, C_DUP_GCEND, C_GCEND_COUNT, C_GCEND_DEPTH,
	C_COUNT_BACKWARDS, C_NESTED_SUSPEND, C_SUSPEND_END_NO_BEGIN, C_RESTART_NO_SUSPEND,
	C_RESTART_END_NO_BEGIN, C_SUSPEND_COUNT, C_HEAPSTATS_OUTSIDE, C_HISTORY_OUTSIDE,
	C_JOIN_END_NO_START, C_JOIN_NESTED, C_SEGMENT_DOUBLE_CREATE, C_SEGMENT_DOUBLE_FREE,
	C_HANDLE_KIND_CHANGED, C_HANDLE_DOUBLE_DESTROY, C_FIN_END_NO_BEGIN, C_FIN_NESTED,
	C_TS_BACKWARDS, C_FG_OUTSIDE_BGC, C_BGC_IN_GC, C_TRACE_STARTS_IN_GC, C_TRACE_ENDS_IN_GC,
	C_TRUNCATE, C_EXTEND, C_OTHER_VERSION_SIZE, C_CLOSED_ENUM, C_BITMAP, C_UNPAIRED_SURROGATE,
	C_UNTERMINATED, C_ODD_LENGTH, C_STRUCT_COUNT, C_BINARY_LENGTH, C_POINTER_WIDTH, C_BOOLEAN,
	C_ALLOC_AMOUNT, C_DEPTH_RANGE, C_BGC_DEPTH, C_HEAP_INDEX, C_UNKNOWN_VERSION, C_UNKNOWN_ID,
	C_REORDER, C_COUNT
};

const struct gen_mutation_class gen_mutation_classes[] = {
	{ "drop-gcstart", "stream", GEN_CODES(GCSPEC_DIAG_S001), 0, 0, "drop a GCStart: its GCEnd has no GC" },
	{ "drop-gcend", "stream", GEN_CODES(GCSPEC_DIAG_S004), 0, 0, "drop a GCEnd: the next GCStart nests" },
	{ "duplicate-gcstart", "stream", GEN_CODES(GCSPEC_DIAG_S004, GCSPEC_DIAG_S007), 0, 0, "write a GCStart twice" },
	{ "duplicate-gcend", "stream", GEN_CODES(GCSPEC_DIAG_S001), 0, 0, "write a GCEnd twice" },
	{ "gcend-count-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S005), 0, 0, "GCEnd Count one more than its GC's" },
	{ "gcend-depth-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S006), 0, 0, "GCEnd Depth differs from GCStart's" },
	{ "gc-count-backwards", "stream", GEN_CODES(GCSPEC_DIAG_S007), 0, 0, "a GC reuses the previous GC's Count" },
	{ "suspend-nested", "stream", GEN_CODES(GCSPEC_DIAG_S008), 0, 0, "write a GCSuspendEEBegin twice" },
	{ "suspend-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S009), 0, 0, "drop a GCSuspendEEBegin" },
	{ "restart-without-suspend", "stream", GEN_CODES(GCSPEC_DIAG_S010), 0, 0, "an extra GCRestartEEBegin/End pair after a restart" },
	{ "restart-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S011), 0, 0, "write a GCRestartEEEnd twice" },
	{ "suspend-count-mismatch", "stream", GEN_CODES(GCSPEC_DIAG_S012), 0, 0, "a GC suspension's Count differs from the GC's (reported at GCStart)" },
	{ "heapstats-outside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S013), 0, 0, "a GCHeapStats between a GC's GCSuspendEEBegin and its GCStart" },
	{ "heap-history-outside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S014), 0, 0, "a GCGlobalHeapHistory between a GC's GCSuspendEEBegin and its GCStart" },
	{ "join-end-without-start", "stream", GEN_CODES(GCSPEC_DIAG_S015), 0, 1, "drop a GCJoin start of a heap whose thread has joined before" },
	{ "join-start-nested", "stream", GEN_CODES(GCSPEC_DIAG_S016), 0, 1, "write a GCJoin start twice" },
	{ "segment-double-create", "stream", GEN_CODES(GCSPEC_DIAG_S017), 0, 0, "write a GCCreateSegment twice" },
	{ "segment-double-free", "stream", GEN_CODES(GCSPEC_DIAG_S018), 0, 0, "free a segment twice" },
	{ "handle-kind-changed", "stream", GEN_CODES(GCSPEC_DIAG_S019), 0, 0, "set a live handle again as another kind" },
	{ "handle-double-destroy", "stream", GEN_CODES(GCSPEC_DIAG_S020), 0, 0, "write a DestroyGCHandle twice" },
	{ "finalizers-end-without-begin", "stream", GEN_CODES(GCSPEC_DIAG_S021), 0, 0, "drop a GCFinalizersBegin" },
	{ "finalizers-nested", "stream", GEN_CODES(GCSPEC_DIAG_S022), 0, 0, "write a GCFinalizersBegin twice" },
	{ "timestamp-backwards", "stream", GEN_CODES(GCSPEC_DIAG_S023), 0, 0, "an event earlier than its thread's previous one" },
	{ "foreground-outside-bgc", "stream", GEN_CODES(GCSPEC_DIAG_S024), 0, 0, "a blocking GC relabelled foreground (Type 2)" },
	{ "bgc-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S024), 0, 0, "a foreground GC relabelled background (Type 1, depth 2)" },
	{ "trace-starts-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S002), 0, 0, "drop everything before the first GCEnd" },
	{ "trace-ends-inside-gc", "stream", GEN_CODES(GCSPEC_DIAG_S003), 0, 0, "drop everything after a GCStart" },
	{ "truncate-at-field", "payload", GEN_CODES(GCSPEC_DIAG_P001, GCSPEC_DIAG_P003, GCSPEC_DIAG_P006, GCSPEC_DIAG_P007), 1, 0, "cut a seed-chosen event-version's payload at a seed-chosen field boundary" },
	{ "extend-payload", "payload", GEN_CODES(GCSPEC_DIAG_P002), 0, 0, "append 1 to 8 bytes to a seed-chosen event-version's payload" },
	{ "size-of-other-version", "payload", GEN_CODES(GCSPEC_DIAG_P008), 0, 0, "cut a GCAllocationTick to the size of its previous version" },
	{ "closed-enum-value", "payload", GEN_CODES(GCSPEC_DIAG_V001), 0, 0, "GCAllocationTick AllocationKind outside its closed map" },
	{ "bitmap-unknown-bits", "payload", GEN_CODES(GCSPEC_DIAG_V003), 0, 0, "a GCBulkRootEdge flag bit no map defines" },
	{ "utf16-unpaired-surrogate", "payload", GEN_CODES(GCSPEC_DIAG_P004), 0, 0, "a lone low surrogate in a type name" },
	{ "string-unterminated", "payload", GEN_CODES(GCSPEC_DIAG_P003), 0, 0, "cut a payload before a string's NUL" },
	{ "string-odd-length", "payload", GEN_CODES(GCSPEC_DIAG_P005), 0, 0, "cut a payload inside a UTF-16 code unit" },
	{ "struct-count-exceeds-payload", "payload", GEN_CODES(GCSPEC_DIAG_P006), 0, 0, "GCPerHeapHistory Count larger than its rows" },
	{ "binary-length-exceeds-payload", "payload", GEN_CODES(GCSPEC_DIAG_P007), 0, 0, "GCDynamicEvent DataSize larger than its data" },
	{ "wrong-pointer-width", "payload", GEN_CODES(GCSPEC_DIAG_P001, GCSPEC_DIAG_P002), 1, 0, "FinalizeObject encoded with the other pointer size" },
	{ "boolean-not-0-or-1", "payload", GEN_CODES(GCSPEC_DIAG_P009), 0, 0, "GCSettings ServerGC = 2" },
	{ "allocation-amount-mismatch", "payload", GEN_CODES(GCSPEC_DIAG_V004), 0, 0, "AllocationAmount not the low half of AllocationAmount64" },
	{ "depth-out-of-range", "payload", GEN_CODES(GCSPEC_DIAG_V005), 0, 0, "a GC of depth 3" },
	{ "bgc-depth-not-2", "payload", GEN_CODES(GCSPEC_DIAG_V006), 0, 0, "a background GC of depth 1" },
	{ "heap-index-out-of-range", "payload", GEN_CODES(GCSPEC_DIAG_V007), 0, 0, "a GCAllocationTick HeapIndex beyond the heaps" },
	{ "unknown-event-version", "stream", GEN_CODES(GCSPEC_DIAG_U001), 0, 0, "GCMarkWithType labelled version 5" },
	{ "unknown-event-id", "stream", GEN_CODES(GCSPEC_DIAG_U002), 0, 0, "a GCMarkWithType labelled id 250" },
	{ "reorder-events", "stream", GEN_CODES(GCSPEC_DIAG_S009, GCSPEC_DIAG_S008, GCSPEC_DIAG_S010), 0, 0, "a GCSuspendEEBegin and its GCSuspendEEEnd swapped (timestamps kept in file order)" },
};
const unsigned gen_nmutation_classes = sizeof gen_mutation_classes / sizeof gen_mutation_classes[0];

_Static_assert(sizeof gen_mutation_classes / sizeof gen_mutation_classes[0] == C_COUNT,
	       "one row per class");

int gen_mutation_find(const char *name)
{
	for (unsigned i = 0; i < gen_nmutation_classes; i++)
		if (strcmp(gen_mutation_classes[i].name, name) == 0)
			return (int)i;
	return -1;
}

struct slot {
	int cls;
	unsigned occ;      /* act at this occurrence of the target */
	unsigned seen;
	int state;         /* 0 waiting, 1 acted and following up, 2 done */
	uint64_t a, b;
	unsigned must;     /* required diagnostics recorded for this class */
	/* Payload classes that take any event-version: the rank-th distinct
	 * one with fields the class sees, and what to pick in it (a field
	 * boundary, a number of bytes), both from the seed. */
	unsigned rank;
	uint64_t pick;
};

#define MAX_THREADS 64
#define MAX_JOIN_HEAPS 256

struct gen_mutator {
	struct gen_sink sink;
	struct gen_writer *w;
	const struct gen_profile *profile;
	unsigned psize, nheaps;
	FILE *expect;
	struct slot *slots;        /* in the order they act */
	unsigned nslots;
	unsigned active;           /* the slot looking at the input now */
	int waiting;               /* it waits for a quiet input to start */
	struct slot *cur;          /* the class acting now, for expect() */
	uint64_t index;            /* events written so far */
	unsigned nexpected;
	int bgc_open;              /* a background GC is in flight */
	/* What is open in the input (GCs, suspensions, finalizer runs):
	 * the next class starts when all are closed. */
	int open_gcs, open_susp, open_fin;
	/* Segments a fault freed: the runtime's own later free of one is
	 * then a second free too. */
	uint64_t freed_segment[4];
	unsigned nfreed_segments;
	unsigned nfresh;           /* fresh addresses given out */
	uint64_t thread[MAX_THREADS], last_ts[MAX_THREADS];
	unsigned nthreads;
	struct gen_event last;     /* time, thread and processor of the last event out */
	uint32_t max_count;        /* the highest GCStart Count in the input or output */
	/* The Counts of the input's latest GCStart and of the one before it
	 * (no-GC regions leave gaps: the previous GC's is not Count - 1). */
	uint32_t last_count, prev_count;
	/* The event is the GCStart_V2 twin of the GCStart_V1 before it (the
	 * Framework 4.5.2 writes both per GC): classes aim at the first. */
	int twin;
	/* Threads whose GCSuspendEEBegin has had no GCSuspendEEEnd yet: a
	 * restart from one is a non-GC suspension backing off, not the end
	 * of a suspension. */
	uint64_t attempting[8];
	unsigned nattempting;
	/* trace-starts-inside-gc, until the first suspension event after its
	 * edge: an end or restart there is the trace beginning inside that
	 * suspension (GC-S026). */
	struct slot *edge;
	/* Per heap, 1 + the thread of its last GCJoin written (0: none yet). */
	uint64_t join_thread[MAX_JOIN_HEAPS];
	struct gen_values *ivals;  /* injected events and re-encodes */
	uint8_t *buf;
	/* The event-versions the slot kinds_owner has seen (kind_target). */
	const struct slot *kinds_owner;
	uint8_t kinds_seen[(GCSPEC_NEVENTS + 7) / 8];
	unsigned nkinds;
	/* reorder-events holds one event back to see whether the next one is
	 * its partner: a copy of it, its payload and its values. */
	int held;
	struct gen_event held_ev;
	struct gen_values *held_vals;
	uint8_t *held_buf;
};

static void expect(struct gen_mutator *m, int code, int64_t index, int may)
{
	if (!may) {
		m->nexpected++;
		if (m->cur)
			m->cur->must++;
	}
	if (!m->expect)
		return;
	if (index < 0)
		fprintf(m->expect, "{\"code\":\"%s\",\"may\":true}\n", gen_diag_code(code));
	else
		fprintf(m->expect, "{\"code\":\"%s\",\"event\":%lld%s}\n", gen_diag_code(code), (long long)index,
			may ? ",\"may\":true" : "");
}

/* Each of codes may occur, at any event. */
static void may_list(struct gen_mutator *m, const int *codes)
{
	for (; *codes != GEN_DIAG_END; codes++)
		expect(m, *codes, -1, 1);
}

#define may_any(m, ...) may_list(m, GEN_CODES(__VA_ARGS__))

static const char *name_of(const struct gen_event *ev)
{
	return ev->spec_event != GEN_NO_SPEC ? gcspec_events[ev->spec_event].name : "";
}

static uint64_t num(const struct gen_event *ev, const char *field)
{
	int i;

	if (!ev->values || (i = gen_values_index(ev->values, field, 0)) < 0)
		return 0;
	return ev->values->field[i].u;
}

static int is(const struct gen_event *ev, const char *name)
{
	return strcmp(name_of(ev), name) == 0;
}

static int64_t here(const struct gen_mutator *m)
{
	return (int64_t)m->index;
}

static int out(struct gen_mutator *m, const struct gen_event *ev)
{
	unsigned i;

	if (m->edge &&
	    (is(ev, "GCSuspendEEBegin") || is(ev, "GCSuspendEEEnd") ||
	     is(ev, "GCRestartEEBegin") || is(ev, "GCRestartEEEnd"))) {
		struct slot *cur = m->cur;

		m->cur = m->edge;
		if (!is(ev, "GCSuspendEEBegin"))
			expect(m, GCSPEC_DIAG_S026, here(m), 0);
		m->cur = cur;
		m->edge = NULL;
	}
	if (m->w->ops->event(m->w, ev) < 0) {
		snprintf(m->sink.error, sizeof m->sink.error, "%s", gen_writer_error(m->w));
		return -1;
	}
	m->index++;
	/* Injected GCs take Counts above every GC so far, injected ones too. */
	if (ev->values && is(ev, "GCStart") && num(ev, "Count") > m->max_count)
		m->max_count = (uint32_t)num(ev, "Count");
	/* What a checker has seen of the joins: the output's. */
	if (is(ev, "GCJoin") && num(ev, "Heap") < MAX_JOIN_HEAPS)
		m->join_thread[num(ev, "Heap")] = ev->thread_id + 1;
	m->last.timestamp = ev->timestamp;
	m->last.thread_id = ev->thread_id;
	m->last.processor = ev->processor;
	for (i = 0; i < m->nthreads && m->thread[i] != ev->thread_id; i++)
		;
	if (i < MAX_THREADS) {
		if (i == m->nthreads) {
			m->nthreads++;
			m->thread[i] = ev->thread_id;
		}
		m->last_ts[i] = ev->timestamp;
	}
	return 0;
}

/* Re-encode ev from its (changed) values, at pointer size psize. */
static int reencode(struct gen_mutator *m, struct gen_event *ev, unsigned psize)
{
	long n = gen_encode(ev->values, psize, m->buf, GEN_PAYLOAD_MAX);

	if (n < 0)
		return -1;
	ev->payload = m->buf;
	ev->payload_len = (uint32_t)n;
	return 0;
}

static int set_and_reencode(struct gen_mutator *m, struct gen_event *ev, const char *field, uint64_t x)
{
	struct gen_values *v = (struct gen_values *)ev->values;

	if (gen_values_set_num(v, field, x) < 0)
		return -1;
	return reencode(m, ev, m->psize);
}

/* Copy the payload so it can be changed; the model then has no fields. */
static void own_payload(struct gen_mutator *m, struct gen_event *ev)
{
	if (ev->payload != m->buf)
		memcpy(m->buf, ev->payload, ev->payload_len);
	ev->payload = m->buf;
	ev->values = NULL;
}

/* Start an injected event of spec index `event` (from the profile when
 * by name); returns 0 or -1 when the spec/profile has no such event. */
#define TRY_INJECT(x) do { if ((x) < 0) return -1; } while (0)

static int inject_begin(struct gen_mutator *m, int event)
{
	if (event < 0 || gen_values_reset(m->ivals, (unsigned)event) < 0)
		return -1;
	gen_values_set_num(m->ivals, "ClrInstanceID", m->profile->clr_instance_id);
	return 0;
}

static int inject_send_ps(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
			  uint32_t add, unsigned psize)
{
	const struct gcspec_event *sp = &gcspec_events[m->ivals->event];
	struct gen_event ev;
	long n = gen_encode(m->ivals, psize, m->buf, GEN_PAYLOAD_MAX);

	if (n < 0)
		return -1;
	memset(&ev, 0, sizeof ev);
	ev.timestamp = like->timestamp;
	ev.thread_id = like->thread_id;
	ev.processor = like->processor;
	ev.spec_event = m->ivals->event;
	ev.provider = sp->provider;
	ev.id = sp->id;
	ev.version = sp->version;
	ev.level = sp->level;
	ev.opcode = sp->opcode;
	ev.keywords = sp->keywords;
	ev.payload = m->buf;
	ev.payload_len = (uint32_t)n;
	ev.values = m->ivals;
	if (patch_u32_field >= 0) {
		uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
		uint32_t at, x;

		gen_encode_offsets(m->ivals, m->psize, offs);
		at = offs[patch_u32_field];
		x = (uint32_t)(m->buf[at] | m->buf[at + 1] << 8 | m->buf[at + 2] << 16 |
			       (uint32_t)m->buf[at + 3] << 24) + add;
		for (int k = 0; k < 4; k++)
			m->buf[at + k] = (uint8_t)(x >> (8 * k));
		ev.values = NULL;
	}
	if (psize != m->psize)
		ev.values = NULL; /* the bytes no longer match the stream's layout */
	return out(m, &ev);
}

static int inject_send(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
		       uint32_t add)
{
	return inject_send_ps(m, like, patch_u32_field, add, m->psize);
}

/* Inject one event of profile event `name` with up to two numeric fields. */
static int inject2(struct gen_mutator *m, const struct gen_event *like, const char *name,
		   const char *f1, uint64_t v1, const char *f2, uint64_t v2)
{
	TRY_INJECT(inject_begin(m, gen_profile_event(m->profile, name)));
	if (f1)
		gen_values_set_num(m->ivals, f1, v1);
	if (f2)
		gen_values_set_num(m->ivals, f2, v2);
	return inject_send(m, like, -1, 0);
}

/* Count this event as a candidate target; 1 when it is the one. */
static int target(struct slot *s, int match)
{
	if (s->state != 0 || !match)
		return 0;
	return ++s->seen == s->occ;
}

#define TRYM(x) do { if ((x) < 0) return -1; } while (0)

/* An event no realistic stream has, made wrong: a GCBulkRootEdge with a
 * flag bit no map defines, a GCDynamicEvent whose DataSize runs past its
 * data, a GCSettings with ServerGC 2. Written at like's time and thread;
 * no GC state depends on them, so they can go anywhere. */
static int inject_marker(struct gen_mutator *m, struct slot *s, const struct gen_event *like)
{
	int code_field = -1;
	uint32_t add = 0;
	int code;

	if (s->cls == C_BITMAP) {
		TRY_INJECT(inject_begin(m, GCSPEC_EV_GCBulkRootEdge));
		gen_values_add_row(m->ivals);
		gen_values_set_member_num(m->ivals, 0, "GCRootFlag", 0x80);
		code = GCSPEC_DIAG_V003;
	} else if (s->cls == C_BINARY_LENGTH) {
		TRY_INJECT(inject_begin(m, GCSPEC_EV_GCDynamicEvent));
		gen_values_set_text(m->ivals, "Name", "Test", 4);
		gen_values_set_bytes(m->ivals, "Data", "\1\2\3\4\5\6\7\10", 8);
		code_field = gen_values_index(m->ivals, "DataSize", 0);
		add = 100;
		code = GCSPEC_DIAG_P007;
		expect(m, GCSPEC_DIAG_P001, here(m), 1);
	} else {
		TRY_INJECT(inject_begin(m, GCSPEC_EV_GCSettings_V1));
		gen_values_set_num(m->ivals, "ServerGC", 2);
		code = GCSPEC_DIAG_P009;
	}
	expect(m, code, here(m), 0);
	return inject_send(m, like, code_field, add);
}

#define DONE(s) ((s)->state = 2)

/* A seed's bits spread over 64 (splitmix64's finaliser). */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The target of a class that takes any event-version with fields: the
 * first event of the rank-th distinct event-version the class sees (b set:
 * the next such event, the fallback's). Over seeds the rank, and so the
 * event-version, varies over what the stream writes. */
static int kind_target(struct gen_mutator *m, struct slot *s, const struct gen_event *ev)
{
	unsigned e = ev->spec_event, bit;

	if (s->state != 0 || e == GEN_NO_SPEC || e >= GCSPEC_NEVENTS || !ev->values ||
	    !gcspec_events[e].nfields)
		return 0;
	if (s->b)
		return 1;
	if (m->kinds_owner != s) {
		memset(m->kinds_seen, 0, sizeof m->kinds_seen);
		m->kinds_owner = s;
		m->nkinds = 0;
	}
	bit = 1u << (e % 8);
	if (m->kinds_seen[e / 8] & bit)
		return 0;
	m->kinds_seen[e / 8] |= (uint8_t)bit;
	return m->nkinds++ == s->rank;
}

/* Another version of ev's event is in the spec: a payload cut or grown to
 * its size decodes as it (GC-P008), which a checker may say. */
static int has_other_version(const struct gen_event *ev)
{
	const struct gcspec_event *sp = &gcspec_events[ev->spec_event];

	for (unsigned v = 0; v < GCSPEC_MAX_VERSIONS; v++) {
		const struct gcspec_event *o = gcspec_lookup(sp->provider, sp->id, v);

		if (o && o != sp)
			return 1;
	}
	return 0;
}

/* The stream codes a checker may raise when a field of these events is
 * lost (truncated_consequences()). */
#define GC_FIELD_CODES GEN_CODES(GCSPEC_DIAG_S001, GCSPEC_DIAG_S004, GCSPEC_DIAG_S005, \
	GCSPEC_DIAG_S006, GCSPEC_DIAG_S007, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014, \
	GCSPEC_DIAG_S024)
static const struct { const char *name; const int *codes; } lost_field_codes[] = {
	{ "GCStart", GC_FIELD_CODES },
	{ "GCEnd", GC_FIELD_CODES },
	{ "GCSuspendEEBegin", GEN_CODES(GCSPEC_DIAG_S012) },
	{ "GCJoin", GEN_CODES(GCSPEC_DIAG_S015, GCSPEC_DIAG_S016) },
	{ "GCCreateSegment", GEN_CODES(GCSPEC_DIAG_S017, GCSPEC_DIAG_S018) },
	{ "GCFreeSegment", GEN_CODES(GCSPEC_DIAG_S017, GCSPEC_DIAG_S018) },
	{ "SetGCHandle", GEN_CODES(GCSPEC_DIAG_S019, GCSPEC_DIAG_S020) },
	{ "DestroyGCHandle", GEN_CODES(GCSPEC_DIAG_S019, GCSPEC_DIAG_S020) },
	{ "GCPerHeapHistory", GEN_CODES(GCSPEC_DIAG_V007) },
	{ "GCGlobalHeapHistory", GEN_CODES(GCSPEC_DIAG_V007) },
	{ "GCSettings", GEN_CODES(GCSPEC_DIAG_V007) },
	{ "GCSettingsRundown", GEN_CODES(GCSPEC_DIAG_V007) },
	{ "GCAllocationTick", GEN_CODES(GCSPEC_DIAG_V007) },
};

/* What a checker may conclude from an event whose fields from `cut` on
 * are missing, when a stream rule reads one of them: it sees it absent or
 * 0 (a GCStart's Count 0 goes backwards, a GCEnd's no longer matches, a
 * join, segment or handle event is not tracked, a heap count is not
 * shown). ClrInstanceID alone is no loss in a stream of one runtime. */
static void truncated_consequences(struct gen_mutator *m, const struct gen_event *ev, unsigned cut)
{
	static const char *const read[] = { "Count", "Depth", "Type", "Reason", "Heap",
		"HeapIndex", "HeapNum", "JoinTime", "JoinType", "Address", "HandleID", "Kind",
		"NumHeaps", "ServerGC", "AllocationAmount", "AllocationAmount64" };
	int lost = 0;

	for (unsigned k = 0; k < sizeof read / sizeof read[0]; k++) {
		int i = gen_values_index(ev->values, read[k], 0);

		if (i >= 0 && (unsigned)i >= cut)
			lost = 1;
	}
	for (unsigned k = 0; lost && k < sizeof lost_field_codes / sizeof lost_field_codes[0]; k++)
		if (is(ev, lost_field_codes[k].name))
			may_list(m, lost_field_codes[k].codes);
}

/* truncate-at-field: cut ev's payload where one of its top-level fields
 * begins, a field of at least one byte (zero-length ones share the next
 * field's boundary), chosen by pick. The decoder then stops at that field
 * and says why by its type: a fixed-size field is cut (GC-P001), a string
 * has no terminator (GC-P003), a Struct's count asks for rows that are not
 * there (GC-P006), a Binary's length for bytes that are not (GC-P007). */
static int truncate_at_field(struct gen_mutator *m, struct slot *s, struct gen_event *ev)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[ev->spec_event]);
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	unsigned cand[GEN_VALUES_MAX_FIELDS], nc = 0, n = ev->values->nfields, i;
	int code;

	if (gen_encode_offsets(ev->values, m->psize, offs) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned next = i + 1 + (f[i].type == GCSPEC_STRUCT ? f[i].nmembers : 0u);

		if (!f[i].is_member && next <= n && offs[next] > offs[i])
			cand[nc++] = i;
	}
	if (!nc)
		return 0;
	i = cand[s->pick % nc];
	switch (f[i].type) {
	case GCSPEC_UNICODE_STRING:
	case GCSPEC_ANSI_STRING: code = GCSPEC_DIAG_P003; break;
	case GCSPEC_STRUCT: code = GCSPEC_DIAG_P006; break;
	case GCSPEC_BINARY: code = GCSPEC_DIAG_P007; break;
	default: code = GCSPEC_DIAG_P001; break;
	}
	truncated_consequences(m, ev, i);
	own_payload(m, ev);
	ev->payload_len = offs[i];
	expect(m, code, here(m), 0);
	if (has_other_version(ev))
		expect(m, GCSPEC_DIAG_P008, here(m), 1);
	return 1;
}

/* extend-payload: 1 to 8 bytes (by pick) after the template's end. */
static void extend_payload(struct gen_mutator *m, struct slot *s, struct gen_event *ev)
{
	uint32_t k = 1 + (uint32_t)(s->pick % 8);

	own_payload(m, ev);
	memset(m->buf + ev->payload_len, 0, k);
	ev->payload_len += k;
	expect(m, GCSPEC_DIAG_P002, here(m), 0);
	if (has_other_version(ev))
		expect(m, GCSPEC_DIAG_P008, here(m), 1);
}

/* -1, saying which class failed unless the failure said why itself. */
static int slot_failed(struct gen_mutator *m, const struct slot *s)
{
	if (!m->sink.error[0])
		snprintf(m->sink.error, sizeof m->sink.error, "mutation %s failed",
			 gen_mutation_classes[s->cls].name);
	return -1;
}

/* Keep a copy of ev (its payload and values too) to write later. */
static int hold(struct gen_mutator *m, const struct gen_event *ev)
{
	if (!m->held_vals) {
		m->held_vals = malloc(sizeof *m->held_vals);
		m->held_buf = malloc(GEN_PAYLOAD_MAX);
		if (!m->held_vals || !m->held_buf)
			return -1;
	}
	if (ev->payload_len > GEN_PAYLOAD_MAX)
		return -1;
	m->held_ev = *ev;
	memcpy(m->held_buf, ev->payload, ev->payload_len);
	m->held_ev.payload = m->held_buf;
	if (ev->values) {
		memcpy(m->held_vals, ev->values, sizeof *m->held_vals);
		m->held_ev.values = m->held_vals;
	}
	m->held = 1;
	return 0;
}

static int release_held(struct gen_mutator *m)
{
	if (!m->held)
		return 0;
	m->held = 0;
	return out(m, &m->held_ev);
}

/* reorder-events: a GCSuspendEEBegin on an idle runtime and its thread's
 * GCSuspendEEEnd right after it change places. The timestamps stay in
 * file order (the end takes the begin's time, the begin the end's), so a
 * reader that orders events by time sees the same swap. A checker then
 * sees an end with no suspension begun (GC-S009), a begin while the runtime
 * is suspended (GC-S008), and the GC's restart while the runtime is still
 * suspending (GC-S010); after the restart's end all is as before. Another
 * thread's suspension events before that restart could take the runtime
 * over in a checker's eyes (a waiter), making the restart legal: GC-S010
 * and what follows from it are then "may". */
static int reorder(struct gen_mutator *m, struct slot *s, struct gen_event *ev)
{
	if (m->held) {
		struct gen_event *b = &m->held_ev;

		if (is(ev, "GCSuspendEEEnd") && ev->thread_id == b->thread_id &&
		    ev->timestamp > b->timestamp) {
			uint64_t t = ev->timestamp;

			m->held = 0;
			ev->timestamp = b->timestamp;
			b->timestamp = t;
			expect(m, GCSPEC_DIAG_S009, here(m), 0);
			TRYM(out(m, ev));
			expect(m, GCSPEC_DIAG_S008, here(m), 0);
			TRYM(out(m, b));
			s->state = 1;
			s->a = 0;
			s->b = b->thread_id;
			return 1;
		}
		/* Not its end right after it: write it, try the next one. */
		TRYM(release_held(m));
		s->seen--;
	}
	/* A GC's suspension: a non-GC one (Count 0xFFFFFFFF) may back off
	 * with a restart before its GCSuspendEEEnd, which a checker allows. */
	if (target(s, is(ev, "GCSuspendEEBegin") && m->open_susp == 1 &&
	           num(ev, "Count") != 0xFFFFFFFFu)) {
		TRYM(hold(m, ev));
		return 1;
	}
	if (s->state == 1) {
		if ((is(ev, "GCSuspendEEBegin") || is(ev, "GCSuspendEEEnd")) && ev->thread_id != s->b)
			s->a = 1;
		if (is(ev, "GCRestartEEBegin") && ev->thread_id == s->b) {
			expect(m, GCSPEC_DIAG_S010, here(m), s->a != 0);
			if (s->a)
				may_any(m, GCSPEC_DIAG_S008, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011);
			DONE(s);
		}
	}
	return 0;
}

/* One class looks at one event. Returns 1 when it wrote (or dropped) the
 * event, 0 to let it pass on, -1 on error. */
static uint64_t fresh_segment(struct gen_mutator *m);

static int apply(struct gen_mutator *m, struct slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int i;

	switch (s->cls) {
	case C_DROP_GCSTART:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open && !m->twin)) {
			s->a = num(ev, "Count");
			s->state = 1;
			may_any(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014, GCSPEC_DIAG_S003, GCSPEC_DIAG_S004);
			return 1;
		}
		/* Framework 4.5.2 writes each GCStart twice (V1, V2): both go. */
		if (s->state == 1 && is(ev, "GCStart") && num(ev, "Count") == s->a)
			return 1;
		if (s->state == 1 && is(ev, "GCEnd") && num(ev, "Count") == s->a) {
			expect(m, GCSPEC_DIAG_S001, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_DROP_GCEND:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			s->state = 1;
			may_any(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S012, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014, GCSPEC_DIAG_S003, GCSPEC_DIAG_S024, GCSPEC_DIAG_S001);
			return 1;
		}
		if (s->state == 1 && is(ev, "GCStart")) {
			/* A background GC cannot nest at all: GC-S024. */
			expect(m, num(ev, "Type") == 1 ? GCSPEC_DIAG_S024 : GCSPEC_DIAG_S004, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_DUP_GCSTART:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S004, here(m), 0);
			expect(m, GCSPEC_DIAG_S007, here(m), 0);
			may_any(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S003, GCSPEC_DIAG_S004, GCSPEC_DIAG_S001, GCSPEC_DIAG_S012);
			DONE(s);
		}
		return 0;
	case C_DUP_GCEND:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S001, here(m), 0);
			may_any(m, GCSPEC_DIAG_S013, GCSPEC_DIAG_S005);
			DONE(s);
		}
		return 0;
	case C_GCEND_COUNT:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			TRYM(set_and_reencode(m, ev, "Count", num(ev, "Count") + 1));
			expect(m, GCSPEC_DIAG_S005, here(m), 0);
			may_any(m, GCSPEC_DIAG_S001, GCSPEC_DIAG_S004, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014, GCSPEC_DIAG_S003);
			DONE(s);
		}
		return 0;
	case C_GCEND_DEPTH:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			uint64_t d = num(ev, "Depth");

			TRYM(set_and_reencode(m, ev, "Depth", d == 0 ? 1 : d - 1));
			expect(m, GCSPEC_DIAG_S006, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_COUNT_BACKWARDS:
		/* Give one non-concurrent GC the Count of the GC before it:
		 * its GCStart goes backwards (S007); its suspension's Count is
		 * then no longer below the GC's (S012 may follow). */
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open &&
			       !m->twin && m->prev_count < num(ev, "Count"))) {
			s->a = num(ev, "Count");
			s->b = m->prev_count;
			s->state = 1;
			may_any(m, GCSPEC_DIAG_S012, GCSPEC_DIAG_S005);
		}
		if (s->state == 1 && num(ev, "Count") == s->a &&
		    (is(ev, "GCStart") || is(ev, "GCEnd"))) {
			TRYM(set_and_reencode(m, ev, "Count", s->b));
			if (is(ev, "GCStart") && !m->twin)
				expect(m, GCSPEC_DIAG_S007, here(m), 0);
			if (is(ev, "GCEnd"))
				DONE(s);
		}
		return 0;
	/* These two take a GCSuspendEEBegin on a runtime no other thread is
	 * suspending (open_susp counts this one): another thread's begin
	 * waits for the suspension lock, and a checker that keeps waiters
	 * would keep a waiter's copy, or miss its lost begin, long after. */
	case C_NESTED_SUSPEND:
		if (target(s, is(ev, "GCSuspendEEBegin") && m->open_susp == 1)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S008, here(m), 0);
			may_any(m, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S012, GCSPEC_DIAG_S025);
			DONE(s);
		}
		return 0;
	case C_SUSPEND_END_NO_BEGIN:
		/* A GC's: a non-GC suspension may back off, and its restarts
		 * would then follow a begin that was never seen. */
		if (target(s, is(ev, "GCSuspendEEBegin") && m->open_susp == 1 &&
			       num(ev, "Count") != 0xFFFFFFFFu)) {
			s->state = 1;
			s->b = ev->thread_id;
			/* A checker that never saw the suspension begin may still
			 * think the previous owner holds the runtime. */
			may_any(m, GCSPEC_DIAG_S008, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S012);
			return 1;
		}
		if (s->state == 1 && is(ev, "GCSuspendEEEnd") && ev->thread_id == s->b) {
			expect(m, GCSPEC_DIAG_S009, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_RESTART_NO_SUSPEND:
		/* Not while another thread's suspension is open: that thread may
		 * hold the runtime, and a restart would then be legal. */
		if (target(s, is(ev, "GCRestartEEEnd") && m->open_susp == 0)) {
			if (out(m, ev) < 0)
				return -1;
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCRestartEEBegin")));
			expect(m, GCSPEC_DIAG_S010, here(m), 0);
			TRYM(inject_send(m, ev, -1, 0));
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCRestartEEEnd")));
			expect(m, GCSPEC_DIAG_S011, here(m), 1);
			TRYM(inject_send(m, ev, -1, 0));
			DONE(s);
			return 1;
		}
		return 0;
	case C_RESTART_END_NO_BEGIN:
		if (target(s, is(ev, "GCRestartEEEnd"))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S011, here(m), 0);
			/* When another thread holds the runtime by then, a checker
			 * that takes the copy for its restart finds the real one
			 * unmatched. */
			if (m->open_susp > 0)
				may_any(m, GCSPEC_DIAG_S010);
			DONE(s);
		}
		return 0;
	case C_SUSPEND_COUNT:
		/* A GC suspension's Count is the GC index before the GC it
		 * serves; 7 more is at or above that GC's Count, which the
		 * oracle reports at the suspension. */
		if (target(s, is(ev, "GCSuspendEEBegin") && num(ev, "Reason") == 1 &&
			       num(ev, "Count") != 0xFFFFFFFFu)) {
			TRYM(set_and_reencode(m, ev, "Count", num(ev, "Count") + 7));
			expect(m, GCSPEC_DIAG_S012, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_HEAPSTATS_OUTSIDE:
	case C_HISTORY_OUTSIDE:
		/* Between a GC's GCSuspendEEBegin and its GCStart no GC is in
		 * flight and none has just ended (a GCHeapStats before the
		 * first GC could belong to a GC the trace began inside). */
		if (target(s, is(ev, "GCSuspendEEBegin") && num(ev, "Reason") == 1 &&
			       num(ev, "Count") != 0xFFFFFFFFu && !m->bgc_open)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, s->cls == C_HEAPSTATS_OUTSIDE ? GCSPEC_DIAG_S013 : GCSPEC_DIAG_S014, here(m), 0);
			if (s->cls == C_HEAPSTATS_OUTSIDE)
				TRYM(inject2(m, ev, "GCHeapStats", NULL, 0, NULL, 0));
			else
				TRYM(inject2(m, ev, "GCGlobalHeapHistory", "NumHeaps", m->nheaps, NULL, 0));
			DONE(s);
			return 1;
		}
		return 0;
	case C_BITMAP:
	case C_BINARY_LENGTH:
	case C_BOOLEAN:
		/* Injected before the first event the class sees. */
		if (target(s, 1)) {
			TRYM(inject_marker(m, s, ev));
			DONE(s);
		}
		return 0;
	case C_JOIN_END_NO_START: {
		/* A checker can only call an end unmatched on a heap whose
		 * thread it has seen join before (else the trace may have
		 * begun inside the join), and only a Join (1) or Restart (2)
		 * start has an end. */
		uint64_t h = num(ev, "Heap");
		int known = is(ev, "GCJoin") && h < MAX_JOIN_HEAPS &&
			    m->join_thread[h] == ev->thread_id + 1;

		if (target(s, known && num(ev, "JoinTime") == 0 &&
			       (num(ev, "JoinType") == 1 || num(ev, "JoinType") == 2))) {
			s->state = 1;
			s->a = h;
			s->b = ev->thread_id;
			return 1;
		}
		if (s->state == 1 && is(ev, "GCJoin") && h == s->a) {
			if (ev->thread_id == s->b && num(ev, "JoinTime") == 1) {
				expect(m, GCSPEC_DIAG_S015, here(m), 0);
				DONE(s);
			} else {
				s->state = 0; /* not the end we dropped the start of: try again */
			}
		}
		return 0;
	}
	case C_JOIN_NESTED:
		/* A start with an end: a Join (1) or a Restart (2); LastJoin and
		 * FirstReverseJoin go on without one, so a second is no nesting. */
		if (target(s, is(ev, "GCJoin") && num(ev, "JoinTime") == 0 &&
			       (num(ev, "JoinType") == 1 || num(ev, "JoinType") == 2))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S016, here(m), 0);
			may_any(m, GCSPEC_DIAG_S015);
			DONE(s);
		}
		return 0;
	case C_HANDLE_KIND_CHANGED:
		/* A second set of a live handle is a store (legal); only its kind
		 * cannot change while it lives. */
		if (target(s, is(ev, "SetGCHandle"))) {
			uint64_t h = num(ev, "HandleID"), k = num(ev, "Kind");

			if (out(m, ev) < 0)
				return -1;
			expect(m, GCSPEC_DIAG_S019, here(m), 0);
			TRYM(inject2(m, ev, "SetGCHandle", "HandleID", h, "Kind", k == 2 ? 1 : 2));
			DONE(s);
			return 1;
		}
		return 0;
	case C_SEGMENT_DOUBLE_CREATE:
		/* A regions runtime that never frees (.NET 8) creates live
		 * segments again legally: a GCFreeSegment first (of a segment
		 * made before the trace) shows this runtime frees. */
		if (target(s, is(ev, "GCCreateSegment"))) {
			TRYM(out(m, ev));
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
			gen_values_set_num(m->ivals, "Address", fresh_segment(m));
			TRYM(inject_send(m, ev, -1, 0));
			may_any(m, GCSPEC_DIAG_S017);
			expect(m, GCSPEC_DIAG_S017, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_HANDLE_DOUBLE_DESTROY:
	case C_FIN_NESTED: {
		static const char *const names[] = { "DestroyGCHandle", "GCFinalizersBegin" };
		static const int codes[] = { GCSPEC_DIAG_S020, GCSPEC_DIAG_S022 };
		unsigned k = s->cls == C_HANDLE_DOUBLE_DESTROY ? 0 : 1;

		if (target(s, is(ev, names[k]))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, codes[k], here(m), 0);
			if (k == 1)
				may_any(m, GCSPEC_DIAG_S021);
			DONE(s);
		}
		return 0;
	}
	case C_SEGMENT_DOUBLE_FREE:
		if (target(s, is(ev, "GCCreateSegment"))) {
			uint64_t addr = num(ev, "Address");

			if (out(m, ev) < 0)
				return -1;
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
			gen_values_set_num(m->ivals, "Address", addr);
			TRYM(inject_send(m, ev, -1, 0));
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCFreeSegment")));
			gen_values_set_num(m->ivals, "Address", addr);
			expect(m, GCSPEC_DIAG_S018, here(m), 0);
			/* The first free of a regions runtime that never frees (.NET
			 * 8) makes its earlier re-creations of live segments wrong. */
			may_any(m, GCSPEC_DIAG_S017);
			TRYM(inject_send(m, ev, -1, 0));
			if (m->nfreed_segments < sizeof m->freed_segment / sizeof m->freed_segment[0])
				m->freed_segment[m->nfreed_segments++] = addr;
			DONE(s);
			return 1;
		}
		return 0;
	case C_FIN_END_NO_BEGIN:
		if (target(s, is(ev, "GCFinalizersBegin"))) {
			s->state = 1;
			return 1;
		}
		if (s->state == 1 && is(ev, "GCFinalizersEnd")) {
			expect(m, GCSPEC_DIAG_S021, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_TS_BACKWARDS:
		if (target(s, is(ev, "GCHeapStats"))) {
			for (unsigned t = 0; t < m->nthreads; t++)
				if (m->thread[t] == ev->thread_id && m->last_ts[t] > 0) {
					ev->timestamp = m->last_ts[t] - 1;
					expect(m, GCSPEC_DIAG_S023, here(m), 0);
					DONE(s);
					return 0;
				}
			s->seen--; /* no earlier event on this thread: try the next one */
		}
		return 0;
	case C_FG_OUTSIDE_BGC:
		/* The GCStart_V2 twin of a GCStart_V1 (Framework 4.5.2) is
		 * changed alike: it is the same GC. */
		if (s->state == 1 && m->twin && num(ev, "Count") == s->a) {
			TRYM(set_and_reencode(m, ev, "Type", 2));
			DONE(s);
		}
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open && !m->twin)) {
			TRYM(set_and_reencode(m, ev, "Type", 2));
			expect(m, GCSPEC_DIAG_S024, here(m), 0);
			s->a = num(ev, "Count");
			if (m->profile->double_gcstart)
				s->state = 1;
			else
				DONE(s);
		}
		return 0;
	case C_BGC_IN_GC:
		if (s->state == 1 && m->twin && num(ev, "Count") == s->a) {
			gen_values_set_num((struct gen_values *)ev->values, "Type", 1);
			TRYM(set_and_reencode(m, ev, "Depth", 2));
			return 0;
		}
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 2 && !m->twin)) {
			s->a = num(ev, "Count");
			gen_values_set_num((struct gen_values *)ev->values, "Type", 1);
			TRYM(set_and_reencode(m, ev, "Depth", 2));
			expect(m, GCSPEC_DIAG_S024, here(m), 0);
			expect(m, GCSPEC_DIAG_S004, here(m), 1);
			may_any(m, GCSPEC_DIAG_S005, GCSPEC_DIAG_S006, GCSPEC_DIAG_S003, GCSPEC_DIAG_S001);
			s->state = 1;
			return 0;
		}
		if (s->state == 1 && is(ev, "GCEnd") && num(ev, "Count") == s->a) {
			TRYM(set_and_reencode(m, ev, "Depth", 2));
			DONE(s);
		}
		return 0;
	case C_TRACE_STARTS_IN_GC:
		if (s->state == 0) {
			if (!is(ev, "GCEnd"))
				return 1;
			expect(m, GCSPEC_DIAG_S002, here(m), 0);
			/* A sampler's suspension that backs off for the GC may
			 * have begun before the cut: its later restarts and its
			 * end then follow a begin the trace does not hold. */
			may_any(m, GCSPEC_DIAG_S009, GCSPEC_DIAG_S010, GCSPEC_DIAG_S011, GCSPEC_DIAG_S013, GCSPEC_DIAG_S014);
			m->edge = s;
			DONE(s);
		}
		return 0;
	case C_TRACE_ENDS_IN_GC:
		if (s->state == 1)
			return 1;
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open && !m->twin)) {
			expect(m, GCSPEC_DIAG_S003, here(m), 0);
			/* Cut inside a suspension (a blocking GC's GCStart is
			 * always in one in a realistic stream): it is still open
			 * where the trace ends, after this event. */
			if (m->open_susp > 0)
				expect(m, GCSPEC_DIAG_S025, here(m) + 1, 0);
			else
				may_any(m, GCSPEC_DIAG_S025);
			if (out(m, ev) < 0)
				return -1;
			s->state = 1;
			return 1;
		}
		return 0;
	case C_CLOSED_ENUM:
		/* GCAllocationKindMap is closed (GCRootKindMap, of
		 * GCMarkWithType, is open: new root kinds appear). */
		if (target(s, is(ev, "GCAllocationTick") && ev->values &&
			       gen_values_index(ev->values, "AllocationKind", 0) >= 0)) {
			TRYM(set_and_reencode(m, ev, "AllocationKind", 200));
			expect(m, GCSPEC_DIAG_V001, here(m), 0);
			DONE(s);
		}
		return 0;
	case C_TRUNCATE:
		if (kind_target(m, s, ev)) {
			int r = truncate_at_field(m, s, ev);

			if (r < 0)
				return -1;
			if (r)
				DONE(s);
		}
		return 0;
	case C_EXTEND:
		if (kind_target(m, s, ev)) {
			extend_payload(m, s, ev);
			DONE(s);
		}
		return 0;
	case C_UNKNOWN_VERSION:
	case C_UNKNOWN_ID:
		if (target(s, is(ev, "GCMarkWithType"))) {
			own_payload(m, ev);
			ev->spec_event = GEN_NO_SPEC;
			if (s->cls == C_UNKNOWN_VERSION) {
				ev->version = 5;
				expect(m, GCSPEC_DIAG_U001, here(m), 0);
			} else {
				ev->id = 250;
				expect(m, GCSPEC_DIAG_U002, here(m), 0);
			}
			DONE(s);
		}
		return 0;
	case C_OTHER_VERSION_SIZE:
	case C_UNPAIRED_SURROGATE:
	case C_UNTERMINATED:
	case C_ODD_LENGTH:
	case C_ALLOC_AMOUNT:
	case C_HEAP_INDEX:
		if (target(s, is(ev, "GCAllocationTick") && ev->values &&
			       gen_values_index(ev->values, "TypeName", 0) >= 0 &&
			       (s->cls != C_UNPAIRED_SURROGATE ||
				ev->values->field[gen_values_index(ev->values, "TypeName", 0)].len > 0))) {
			const struct gcspec_event *sp = &gcspec_events[ev->spec_event];
			int tn = gen_values_index(ev->values, "TypeName", 0);

			gen_encode_offsets(ev->values, m->psize, offs);
			switch (s->cls) {
			case C_OTHER_VERSION_SIZE: {
				const struct gcspec_event *prev = gcspec_lookup(sp->provider, sp->id, sp->version - 1u);

				if (!prev)
					return 0;
				own_payload(m, ev);
				ev->payload_len = offs[prev->nfields];
				expect(m, GCSPEC_DIAG_P008, here(m), 0);
				expect(m, GCSPEC_DIAG_P001, here(m), 1);
				break;
			}
			case C_UNPAIRED_SURROGATE:
				own_payload(m, ev);
				m->buf[offs[tn]] = 0x00;
				m->buf[offs[tn] + 1] = 0xDC;
				expect(m, GCSPEC_DIAG_P004, here(m), 0);
				break;
			case C_UNTERMINATED:
				own_payload(m, ev);
				ev->payload_len = offs[tn + 1] - 2;
				expect(m, GCSPEC_DIAG_P003, here(m), 0);
				expect(m, GCSPEC_DIAG_P001, here(m), 1);
				break;
			case C_ODD_LENGTH:
				own_payload(m, ev);
				ev->payload_len = offs[tn] + 1;
				expect(m, GCSPEC_DIAG_P005, here(m), 0);
				expect(m, GCSPEC_DIAG_P003, here(m), 1);
				expect(m, GCSPEC_DIAG_P001, here(m), 1);
				break;
			case C_ALLOC_AMOUNT:
				TRYM(set_and_reencode(m, ev, "AllocationAmount",
						      (num(ev, "AllocationAmount64") + 1) & 0xFFFFFFFFu));
				expect(m, GCSPEC_DIAG_V004, here(m), 0);
				break;
			default:
				TRYM(set_and_reencode(m, ev, "HeapIndex", m->nheaps + 5));
				expect(m, GCSPEC_DIAG_V007, here(m), 0);
			}
			DONE(s);
		}
		return 0;
	case C_STRUCT_COUNT:
		if (target(s, is(ev, "GCPerHeapHistory") && ev->values &&
			       (i = gen_values_index(ev->values, "Count", 0)) >= 0)) {
			gen_encode_offsets(ev->values, m->psize, offs);
			own_payload(m, ev);
			m->buf[offs[i]] = (uint8_t)(m->buf[offs[i]] + 5);
			expect(m, GCSPEC_DIAG_P006, here(m), 0);
			expect(m, GCSPEC_DIAG_P001, here(m), 1);
			DONE(s);
		}
		return 0;
	case C_POINTER_WIDTH:
		if (target(s, is(ev, "FinalizeObject"))) {
			TRYM(reencode(m, ev, m->psize == 8 ? 4 : 8));
			ev->values = NULL;
			expect(m, m->psize == 8 ? GCSPEC_DIAG_P001 : GCSPEC_DIAG_P002, here(m), 0);
			expect(m, GCSPEC_DIAG_P008, here(m), 1);
			DONE(s);
		}
		return 0;
	case C_REORDER:
		return reorder(m, s, ev);
	case C_DEPTH_RANGE:
	case C_BGC_DEPTH:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == (s->cls == C_BGC_DEPTH ? 1u : 0u) &&
			       (s->cls == C_BGC_DEPTH || !m->bgc_open))) {
			s->a = num(ev, "Count");
			TRYM(set_and_reencode(m, ev, "Depth", s->cls == C_BGC_DEPTH ? 1 : 3));
			expect(m, s->cls == C_BGC_DEPTH ? GCSPEC_DIAG_V006 : GCSPEC_DIAG_V005, here(m), 0);
			s->state = 1;
			return 0;
		}
		if (s->state == 1 && is(ev, "GCEnd") && num(ev, "Count") == s->a) {
			TRYM(set_and_reencode(m, ev, "Depth", s->cls == C_BGC_DEPTH ? 1 : 3));
			expect(m, s->cls == C_BGC_DEPTH ? GCSPEC_DIAG_V006 : GCSPEC_DIAG_V005, here(m), 1);
			DONE(s);
		}
		return 0;
	}
	return 0;
}

/* Addresses no realistic stream uses (gen/model/sim.c allocates segments from
 * 0x1f000000000 or 0x02000000 and handles from 0x1e000001000), a new one
 * each time: two faults never share an object. */
static uint64_t fresh_segment(struct gen_mutator *m)
{
	uint64_t k = m->nfresh++;

	return m->psize == 8 ? 0x7f0000000000ull + (k << 24) : 0xF0000000ull + (k << 24);
}

static uint64_t fresh_handle(struct gen_mutator *m)
{
	uint64_t k = m->nfresh++;

	return m->psize == 8 ? 0x7e0000001000ull + (k << 4) : 0xE0001000ull + (k << 4);
}

/* One whole GC at the end of the stream: GCStart, then GCEnd. */
static int inject_gc(struct gen_mutator *m, uint32_t count, uint64_t depth, uint64_t type,
		     int code)
{
	TRY_INJECT(inject_begin(m, gen_profile_event(m->profile, "GCStart")));
	gen_values_set_num(m->ivals, "Count", count);
	gen_values_set_num(m->ivals, "Depth", depth);
	gen_values_set_num(m->ivals, "Type", type);
	if (code != GEN_DIAG_END)
		expect(m, code, here(m), 0);
	TRY_INJECT(inject_send(m, &m->last, -1, 0));
	return inject2(m, &m->last, "GCEnd", "Count", count, "Depth", depth);
}

static int apply(struct gen_mutator *m, struct slot *s, struct gen_event *ev);

/* Write one realistic event of profile event `name`, made to be the
 * class's target: the class changes it as it would have in the stream. */
static int synth_target(struct gen_mutator *m, struct slot *s, const char *name)
{
	struct gen_event ev;
	long n;
	int r;

	TRY_INJECT(inject_begin(m, gen_profile_event(m->profile, name)));
	if (strcmp(name, "GCAllocationTick") == 0) {
		gen_values_set_num(m->ivals, "AllocationAmount", 0x19000);
		gen_values_set_num(m->ivals, "AllocationAmount64", 0x19000);
		gen_values_set_num(m->ivals, "TypeID", m->psize == 8 ? 0x7ff812340000ull : 0x12340000u);
		gen_values_set_text(m->ivals, "TypeName", "System.Object", 13);
		gen_values_set_num(m->ivals, "Address", m->psize == 8 ? 0x1f000000100ull : 0x02000100u);
		gen_values_set_num(m->ivals, "ObjectSize", 24);
	} else if (strcmp(name, "GCMarkWithType") == 0) {
		gen_values_set_num(m->ivals, "Type", 1);
		gen_values_set_num(m->ivals, "Bytes", 4096);
	} else if (strcmp(name, "GCPerHeapHistory") == 0) {
		for (unsigned g = 0; g < 5; g++)
			if (gen_values_add_row(m->ivals) >= 0)
				gen_values_set_member_num(m->ivals, g, "SizeBefore", 0x100000);
	}
	n = gen_encode(m->ivals, m->psize, m->buf, GEN_PAYLOAD_MAX);
	if (n < 0)
		return -1;
	ev = m->last;
	ev.spec_event = m->ivals->event;
	ev.provider = gcspec_events[ev.spec_event].provider;
	ev.id = gcspec_events[ev.spec_event].id;
	ev.version = gcspec_events[ev.spec_event].version;
	ev.level = gcspec_events[ev.spec_event].level;
	ev.opcode = gcspec_events[ev.spec_event].opcode;
	ev.keywords = gcspec_events[ev.spec_event].keywords;
	ev.stack_id = 0;
	ev.payload = m->buf;
	ev.payload_len = (uint32_t)n;
	ev.values = m->ivals;
	s->state = 0;
	s->seen = s->occ - 1; /* the next match is the target */
	r = apply(m, s, &ev);
	if (r < 0)
		return -1;
	return r ? 0 : out(m, &ev);
}

/* The class's target never came: inject its fault at the end of the
 * stream, where no GC, suspension or finalizer run is in flight. Returns
 * 0, or -1 (with the reason in the sink's error) when the class has no
 * such fallback and its fault could not be placed. */
static int fallback(struct gen_mutator *m, struct slot *s)
{
	const struct gen_event *at = &m->last;
	uint32_t n = m->max_count;
	uint64_t a;

	switch (s->cls) {
	case C_HEAPSTATS_OUTSIDE:
	case C_HISTORY_OUTSIDE:
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", n, "Reason", 1));
		expect(m, s->cls == C_HEAPSTATS_OUTSIDE ? GCSPEC_DIAG_S013 : GCSPEC_DIAG_S014, here(m), 0);
		if (s->cls == C_HEAPSTATS_OUTSIDE)
			TRY_INJECT(inject2(m, at, "GCHeapStats", NULL, 0, NULL, 0));
		else
			TRY_INJECT(inject2(m, at, "GCGlobalHeapHistory", "NumHeaps", m->nheaps, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
		return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
	case C_SEGMENT_DOUBLE_CREATE:
	case C_SEGMENT_DOUBLE_FREE:
		a = fresh_segment(m);
		/* A free first: this runtime frees (see apply()). */
		TRY_INJECT(inject2(m, at, "GCFreeSegment", "Address", fresh_segment(m), NULL, 0));
		may_any(m, GCSPEC_DIAG_S017);
		TRY_INJECT(inject2(m, at, "GCCreateSegment", "Address", a, "Size", 0x01000000));
		if (s->cls == C_SEGMENT_DOUBLE_CREATE) {
			expect(m, GCSPEC_DIAG_S017, here(m), 0);
			return inject2(m, at, "GCCreateSegment", "Address", a, "Size", 0x01000000);
		}
		TRY_INJECT(inject2(m, at, "GCFreeSegment", "Address", a, NULL, 0));
		expect(m, GCSPEC_DIAG_S018, here(m), 0);
		return inject2(m, at, "GCFreeSegment", "Address", a, NULL, 0);
	case C_HANDLE_KIND_CHANGED:
		a = fresh_handle(m);
		TRY_INJECT(inject2(m, at, "SetGCHandle", "HandleID", a, "Kind", 2));
		expect(m, GCSPEC_DIAG_S019, here(m), 0);
		return inject2(m, at, "SetGCHandle", "HandleID", a, "Kind", 1);
	case C_HANDLE_DOUBLE_DESTROY:
		/* The first destroy may free a handle set before the trace. */
		a = fresh_handle(m);
		TRY_INJECT(inject2(m, at, "DestroyGCHandle", "HandleID", a, NULL, 0));
		expect(m, GCSPEC_DIAG_S020, here(m), 0);
		return inject2(m, at, "DestroyGCHandle", "HandleID", a, NULL, 0);
	case C_FIN_NESTED:
		TRY_INJECT(inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
		expect(m, GCSPEC_DIAG_S022, here(m), 0);
		TRY_INJECT(inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
		return inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0);
	case C_FIN_END_NO_BEGIN:
		/* A complete run first: an end before any begin is a trace edge. */
		TRY_INJECT(inject2(m, at, "GCFinalizersBegin", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0));
		expect(m, GCSPEC_DIAG_S021, here(m), 0);
		return inject2(m, at, "GCFinalizersEnd", "Count", 0, NULL, 0);
	case C_POINTER_WIDTH:
		TRY_INJECT(inject_begin(m, gen_profile_event(m->profile, "FinalizeObject")));
		gen_values_set_num(m->ivals, "TypeID", m->psize == 8 ? 0x7ff812340000ull : 0x12340000u);
		gen_values_set_num(m->ivals, "ObjectID", m->psize == 8 ? 0x1f000000100ull : 0x02000100u);
		expect(m, m->psize == 8 ? GCSPEC_DIAG_P001 : GCSPEC_DIAG_P002, here(m), 0);
		expect(m, GCSPEC_DIAG_P008, here(m), 1);
		return inject_send_ps(m, at, -1, 0, m->psize == 8 ? 4 : 8);
	case C_DROP_GCSTART:
		expect(m, GCSPEC_DIAG_S001, here(m), 0);
		return inject2(m, at, "GCEnd", "Count", n + 1, "Depth", 0);
	case C_DROP_GCEND:
		/* A GCEnd was dropped, or GC n+1 never ends: n+2 starts inside it. */
		if (s->state == 1)
			return inject_gc(m, n + 1, 0, 0, GCSPEC_DIAG_S004);
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0));
		expect(m, GCSPEC_DIAG_S003, -1, 1);
		return inject_gc(m, n + 2, 0, 0, GCSPEC_DIAG_S004);
	case C_DUP_GCSTART:
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0));
		expect(m, GCSPEC_DIAG_S007, here(m), 0);
		return inject_gc(m, n + 1, 0, 0, GCSPEC_DIAG_S004);
	case C_DUP_GCEND:
		TRY_INJECT(inject_gc(m, n + 1, 0, 0, GEN_DIAG_END));
		expect(m, GCSPEC_DIAG_S001, here(m), 0);
		return inject2(m, at, "GCEnd", "Count", n + 1, "Depth", 0);
	case C_GCEND_COUNT:
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0));
		expect(m, GCSPEC_DIAG_S005, here(m), 0);
		return inject2(m, at, "GCEnd", "Count", n + 2, "Depth", 0);
	case C_GCEND_DEPTH:
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 1));
		expect(m, GCSPEC_DIAG_S006, here(m), 0);
		return inject2(m, at, "GCEnd", "Count", n + 1, "Depth", 0);
	case C_COUNT_BACKWARDS:
		return inject_gc(m, n, 0, 0, GCSPEC_DIAG_S007);
	case C_NESTED_SUSPEND:
	case C_SUSPEND_END_NO_BEGIN:
	case C_RESTART_NO_SUSPEND:
	case C_RESTART_END_NO_BEGIN:
		/* One whole suspension first: the checker has then seen one. */
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
		if (s->cls == C_NESTED_SUSPEND) {
			expect(m, GCSPEC_DIAG_S008, here(m), 0);
			TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
		}
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0));
		if (s->cls == C_SUSPEND_END_NO_BEGIN) {
			expect(m, GCSPEC_DIAG_S009, here(m), 0);
			TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
			TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
			return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
		}
		if (s->cls == C_RESTART_NO_SUSPEND) {
			expect(m, GCSPEC_DIAG_S010, here(m), 0);
			TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
			expect(m, GCSPEC_DIAG_S011, here(m), 1);
			return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
		}
		if (s->cls == C_RESTART_END_NO_BEGIN) {
			expect(m, GCSPEC_DIAG_S011, here(m), 0);
			return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
		}
		return 0;
	case C_REORDER:
		/* One whole suspension first, then the pair swapped. */
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", 0xFFFFFFFFu, "Reason", 0));
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0));
		expect(m, GCSPEC_DIAG_S009, here(m), 0);
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		expect(m, GCSPEC_DIAG_S008, here(m), 0);
		/* A GC's suspension (Reason 1, the latest GC's index), which
		 * never backs off: its restart before its end is wrong. */
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", n, "Reason", 1));
		expect(m, GCSPEC_DIAG_S010, here(m), 0);
		TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
		return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
	case C_SUSPEND_COUNT:
		/* Above the latest GC's Count: no GC suspension writes that. */
		expect(m, GCSPEC_DIAG_S012, here(m), 0);
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", n + 7, "Reason", 1));
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		TRY_INJECT(inject2(m, at, "GCRestartEEBegin", NULL, 0, NULL, 0));
		return inject2(m, at, "GCRestartEEEnd", NULL, 0, NULL, 0);
	case C_JOIN_END_NO_START:
	case C_JOIN_NESTED:
		TRY_INJECT(inject2(m, at, "GCJoin", "JoinTime", 0, "JoinType", 1));
		if (s->cls == C_JOIN_NESTED) {
			expect(m, GCSPEC_DIAG_S016, here(m), 0);
			TRY_INJECT(inject2(m, at, "GCJoin", "JoinTime", 0, "JoinType", 1));
			return inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1);
		}
		TRY_INJECT(inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1));
		expect(m, GCSPEC_DIAG_S015, here(m), 0);
		return inject2(m, at, "GCJoin", "JoinTime", 1, "JoinType", 1);
	case C_TS_BACKWARDS:
		if (!at->timestamp)
			break;
		TRY_INJECT(inject_begin(m, gen_profile_event(m->profile, "GCTriggered")));
		{
			struct gen_event early = *at;

			early.timestamp = at->timestamp - 1;
			expect(m, GCSPEC_DIAG_S023, here(m), 0);
			TRY_INJECT(inject_send(m, &early, -1, 0));
			/* Later injections keep the stream's time: a reader that
			 * orders by time (nettrace) would otherwise move them
			 * before the faults injected earlier. */
			m->last.timestamp = early.timestamp + 1;
			return 0;
		}
	case C_TRACE_ENDS_IN_GC:
		/* A blocking GC as the runtime writes one, inside its
		 * suspension (Count: the GC index before it): the cut leaves
		 * both open. */
		TRY_INJECT(inject2(m, at, "GCSuspendEEBegin", "Count", n, "Reason", 1));
		TRY_INJECT(inject2(m, at, "GCSuspendEEEnd", NULL, 0, NULL, 0));
		expect(m, GCSPEC_DIAG_S003, here(m), 0);
		expect(m, GCSPEC_DIAG_S025, here(m) + 1, 0);
		return inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0);
	case C_TRUNCATE:
	case C_EXTEND:
		s->b = 1; /* the synthesised event is the target */
		return synth_target(m, s, "GCMarkWithType");
	case C_UNKNOWN_VERSION:
	case C_UNKNOWN_ID:
		return synth_target(m, s, "GCMarkWithType");
	case C_CLOSED_ENUM:
	case C_OTHER_VERSION_SIZE:
	case C_UNPAIRED_SURROGATE:
	case C_UNTERMINATED:
	case C_ODD_LENGTH:
	case C_ALLOC_AMOUNT:
	case C_HEAP_INDEX:
		return synth_target(m, s, "GCAllocationTick");
	case C_BITMAP:
	case C_BINARY_LENGTH:
	case C_BOOLEAN:
		return inject_marker(m, s, at);
	case C_STRUCT_COUNT:
		/* A GCPerHeapHistory belongs inside a GC: a whole one around it. */
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0));
		TRY_INJECT(synth_target(m, s, "GCPerHeapHistory"));
		return inject2(m, at, "GCEnd", "Count", n + 1, "Depth", 0);
	case C_DEPTH_RANGE:
		expect(m, GCSPEC_DIAG_V005, here(m) + 1, 1); /* at its GCEnd too */
		return inject_gc(m, n + 1, 3, 0, GCSPEC_DIAG_V005);
	case C_BGC_DEPTH:
		return inject_gc(m, n + 1, 1, 1, GCSPEC_DIAG_V006);
	case C_FG_OUTSIDE_BGC:
		return inject_gc(m, n + 1, 1, 2, GCSPEC_DIAG_S024);
	case C_BGC_IN_GC:
		/* A background GC inside a blocking GC; the blocking GC's end
		 * then finds no GC in flight for a checker that resynchronises. */
		TRY_INJECT(inject2(m, at, "GCStart", "Count", n + 1, "Depth", 0));
		TRY_INJECT(inject_gc(m, n + 2, 2, 1, GCSPEC_DIAG_S024));
		expect(m, GCSPEC_DIAG_S004, here(m) - 2, 1);
		expect(m, GCSPEC_DIAG_S001, here(m), 1);
		expect(m, GCSPEC_DIAG_S005, here(m), 1);
		return inject2(m, at, "GCEnd", "Count", n + 1, "Depth", 0);
	}
	snprintf(m->sink.error, sizeof m->sink.error,
		 "fault class %s found no place in this stream (generate more GCs or events)",
		 gen_mutation_classes[s->cls].name);
	return -1;
}

static int attempting(const struct gen_mutator *m, uint64_t thread)
{
	for (unsigned i = 0; i < m->nattempting; i++)
		if (m->attempting[i] == thread)
			return 1;
	return 0;
}

/* Keep count of what is open in the input (a realistic stream: every
 * begin has its end), so that the next class starts where none is. */
static void track_open(struct gen_mutator *m, const struct gen_event *ev)
{
	const char *n = name_of(ev);

	if (strncmp(n, "GC", 2) != 0)
		return;
	if (strcmp(n, "GCStart") == 0)
		m->open_gcs++;
	else if (strcmp(n, "GCEnd") == 0)
		m->open_gcs--;
	else if (strcmp(n, "GCSuspendEEBegin") == 0) {
		m->open_susp++;
		if (m->nattempting < sizeof m->attempting / sizeof m->attempting[0])
			m->attempting[m->nattempting++] = ev->thread_id;
	} else if (strcmp(n, "GCSuspendEEEnd") == 0) {
		for (unsigned i = 0; i < m->nattempting; i++)
			if (m->attempting[i] == ev->thread_id) {
				m->attempting[i] = m->attempting[--m->nattempting];
				break;
			}
	} else if (strcmp(n, "GCRestartEEEnd") == 0 && !attempting(m, ev->thread_id)) {
		m->open_susp--;
	}
	else if (strcmp(n, "GCFinalizersBegin") == 0)
		m->open_fin++;
	else if (strcmp(n, "GCFinalizersEnd") == 0)
		m->open_fin--;
}

static int quiet(const struct gen_mutator *m)
{
	return m->open_gcs <= 0 && m->open_susp <= 0 && m->open_fin <= 0;
}

/* A segment a fault freed, freed again by the runtime: a second free as
 * well, which a checker that still remembers the first one reports. */
static void refreed_segment(struct gen_mutator *m, const struct gen_event *ev)
{
	uint64_t a;

	if (!m->nfreed_segments || !is(ev, "GCFreeSegment"))
		return;
	a = num(ev, "Address");
	for (unsigned k = 0; k < m->nfreed_segments; k++)
		if (m->freed_segment[k] == a)
			expect(m, GCSPEC_DIAG_S018, here(m), 1);
}

static int mutator_event(struct gen_sink *sink, struct gen_event *ev)
{
	struct gen_mutator *m = (struct gen_mutator *)sink;
	struct slot *s;
	int type = -1, r = 0;

	/* Track background GCs on the input: classes target events relative to them. */
	if (is(ev, "GCStart"))
		type = (int)num(ev, "Type");
	if (type == 1)
		m->bgc_open = 1;
	if (is(ev, "GCEnd") && m->bgc_open && ev->thread_id == 0x3000)
		m->bgc_open = -1; /* cleared after this event */
	if (is(ev, "GCStart") && num(ev, "Count") > m->max_count)
		m->max_count = (uint32_t)num(ev, "Count");
	m->twin = is(ev, "GCStart") && num(ev, "Count") == m->last_count && m->last_count;
	if (is(ev, "GCStart") && num(ev, "Count") != m->last_count) {
		m->prev_count = m->last_count;
		m->last_count = (uint32_t)num(ev, "Count");
	}
	if (m->waiting && quiet(m))
		m->waiting = 0;
	track_open(m, ev);
	if (m->active < m->nslots && !m->waiting) {
		s = &m->slots[m->active];
		m->cur = s;
		r = apply(m, s, ev);
		m->cur = NULL;
		if (r < 0)
			return slot_failed(m, s);
		if (s->state == 2) {
			m->active++;
			m->waiting = 1;
		}
	}
	if (r == 0) {
		refreed_segment(m, ev);
		if (out(m, ev) < 0)
			return -1;
	}
	if (m->bgc_open < 0)
		m->bgc_open = 0;
	return 0;
}

/* The order classes act in: as listed, but a trace can only begin inside
 * a GC at its start and end inside one at its end. */
static unsigned edge_rank(int cls)
{
	return cls == C_TRACE_STARTS_IN_GC ? 0 : cls == C_TRACE_ENDS_IN_GC ? 2 : 1;
}

struct gen_mutator *gen_mutator_new(const int *classes, unsigned n, struct gen_writer *w,
				    const struct gen_profile *profile, unsigned pointer_size,
				    unsigned nheaps, uint64_t seed, FILE *expectf)
{
	struct gen_mutator *m = calloc(1, sizeof *m);
	unsigned k = 0;

	if (!m)
		return NULL;
	m->slots = calloc(n ? n : 1, sizeof *m->slots);
	m->ivals = malloc(sizeof *m->ivals);
	m->buf = malloc(GEN_PAYLOAD_MAX + 16);
	if (!m->slots || !m->ivals || !m->buf) {
		gen_mutator_free(m);
		return NULL;
	}
	m->sink.event = mutator_event;
	m->w = w;
	m->profile = profile;
	m->psize = pointer_size;
	m->nheaps = nheaps ? nheaps : 1;
	m->expect = expectf;
	m->nslots = n;
	for (unsigned rank = 0; rank < 3; rank++)
		for (unsigned i = 0; i < n; i++) {
			if (edge_rank(classes[i]) != rank)
				continue;
			m->slots[k].cls = classes[i];
			/* Past the first GCs, counted from where the class starts. */
			m->slots[k].occ = 3 + (unsigned)(seed % 2);
			m->slots[k].rank = (unsigned)(mix(seed * 64 + (unsigned)classes[i]) % 24);
			m->slots[k].pick = mix(mix(seed) + (unsigned)classes[i]);
			if (classes[i] == C_BITMAP || classes[i] == C_BINARY_LENGTH ||
			    classes[i] == C_BOOLEAN || classes[i] == C_SEGMENT_DOUBLE_FREE)
				m->slots[k].occ = 1;
			k++;
		}
	return m;
}

struct gen_sink *gen_mutator_sink(struct gen_mutator *m)
{
	return &m->sink;
}

unsigned gen_mutator_nexpected(const struct gen_mutator *m)
{
	return m->nexpected;
}

static unsigned fallback_pass(int cls)
{
	return cls == C_TS_BACKWARDS ? 1 : cls == C_TRACE_ENDS_IN_GC ? 2 : 0;
}

static int run_fallback(struct gen_mutator *m, struct slot *s)
{
	int r;

	if (!m->index) {
		snprintf(m->sink.error, sizeof m->sink.error,
			 "fault class %s: the stream is empty", gen_mutation_classes[s->cls].name);
		return -1;
	}
	m->cur = s;
	r = fallback(m, s);
	m->cur = NULL;
	if (r < 0)
		return slot_failed(m, s);
	DONE(s);
	return 0;
}

int gen_mutator_finish(struct gen_mutator *m)
{
	if (release_held(m) < 0)
		return -1;
	for (unsigned k = 0; k < m->nslots; k++)
		if (m->slots[k].state == 1 && m->slots[k].cls == C_TRACE_ENDS_IN_GC)
			m->slots[k].state = 2;
	/* Classes whose target never came (or whose fault had no
	 * consequence yet): their fault goes at the end. The event put back
	 * in time goes after the others and before the trace's end, so that
	 * a reader ordering by time moves it past no other fault. */
	for (unsigned pass = 0; pass < 3; pass++)
		for (unsigned k = 0; k < m->nslots; k++)
			if (!m->slots[k].must && fallback_pass(m->slots[k].cls) == pass &&
			    run_fallback(m, &m->slots[k]) < 0)
				return -1;
	if (m->expect && fflush(m->expect) != 0) {
		snprintf(m->sink.error, sizeof m->sink.error, "cannot write the expect file");
		return -1;
	}
	return 0;
}

void gen_mutator_free(struct gen_mutator *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->ivals);
	free(m->buf);
	free(m->held_vals);
	free(m->held_buf);
	free(m);
}
