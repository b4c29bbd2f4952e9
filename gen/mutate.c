/*
 * mutate.c - the fault classes. Each class waits for its target (the k-th
 * event matching a predicate, k chosen so the trace has shown complete GCs
 * before), changes the stream there, and records the diagnostics this must
 * cause. Consequences that depend on how lenient a reader is are recorded
 * as "may"; a "may" entry without "event" may occur at any event.
 */
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "mutate.h"

enum {
	C_DROP_GCSTART, C_DROP_GCEND, C_DUP_GCSTART, C_DUP_GCEND, C_GCEND_COUNT, C_GCEND_DEPTH,
	C_COUNT_BACKWARDS, C_NESTED_SUSPEND, C_SUSPEND_END_NO_BEGIN, C_RESTART_NO_SUSPEND,
	C_RESTART_END_NO_BEGIN, C_SUSPEND_COUNT, C_HEAPSTATS_OUTSIDE, C_HISTORY_OUTSIDE,
	C_JOIN_END_NO_START, C_JOIN_NESTED, C_SEGMENT_DOUBLE_CREATE, C_SEGMENT_DOUBLE_FREE,
	C_HANDLE_DOUBLE_SET, C_HANDLE_DOUBLE_DESTROY, C_FIN_END_NO_BEGIN, C_FIN_NESTED,
	C_TS_BACKWARDS, C_FG_OUTSIDE_BGC, C_BGC_IN_GC, C_TRACE_STARTS_IN_GC, C_TRACE_ENDS_IN_GC,
	C_TRUNCATE, C_EXTEND, C_OTHER_VERSION_SIZE, C_CLOSED_ENUM, C_BITMAP, C_UNPAIRED_SURROGATE,
	C_UNTERMINATED, C_ODD_LENGTH, C_STRUCT_COUNT, C_BINARY_LENGTH, C_POINTER_WIDTH, C_BOOLEAN,
	C_ALLOC_AMOUNT, C_DEPTH_RANGE, C_BGC_DEPTH, C_HEAP_INDEX, C_UNKNOWN_VERSION, C_UNKNOWN_ID,
	C_COUNT
};

const struct gen_mutation_class gen_mutation_classes[] = {
	{ "drop-gcstart", "stream", "GC-S001", 0, "drop a GCStart: its GCEnd has no GC" },
	{ "drop-gcend", "stream", "GC-S004", 0, "drop a GCEnd: the next GCStart nests" },
	{ "duplicate-gcstart", "stream", "GC-S004,GC-S007", 0, "write a GCStart twice" },
	{ "duplicate-gcend", "stream", "GC-S001", 0, "write a GCEnd twice" },
	{ "gcend-count-mismatch", "stream", "GC-S005", 0, "GCEnd Count one more than its GC's" },
	{ "gcend-depth-mismatch", "stream", "GC-S006", 0, "GCEnd Depth differs from GCStart's" },
	{ "gc-count-backwards", "stream", "GC-S007", 0, "a GC reuses the previous GC's Count" },
	{ "suspend-nested", "stream", "GC-S008", 0, "write a GCSuspendEEBegin twice" },
	{ "suspend-end-without-begin", "stream", "GC-S009", 0, "drop a GCSuspendEEBegin" },
	{ "restart-without-suspend", "stream", "GC-S010", 0, "an extra GCRestartEEBegin/End pair after a restart" },
	{ "restart-end-without-begin", "stream", "GC-S011", 0, "write a GCRestartEEEnd twice" },
	{ "suspend-count-mismatch", "stream", "GC-S012", 0, "a GC suspension's Count differs from the GC's (reported at GCStart)" },
	{ "heapstats-outside-gc", "stream", "GC-S013", 0, "a GCHeapStats before any GC" },
	{ "heap-history-outside-gc", "stream", "GC-S014", 0, "a GCGlobalHeapHistory before any GC" },
	{ "join-end-without-start", "stream", "GC-S015", 1, "drop a GCJoin start" },
	{ "join-start-nested", "stream", "GC-S016", 1, "write a GCJoin start twice" },
	{ "segment-double-create", "stream", "GC-S017", 0, "write a GCCreateSegment twice" },
	{ "segment-double-free", "stream", "GC-S018", 0, "free a segment twice" },
	{ "handle-double-set", "stream", "GC-S019", 0, "write a SetGCHandle twice" },
	{ "handle-double-destroy", "stream", "GC-S020", 0, "write a DestroyGCHandle twice" },
	{ "finalizers-end-without-begin", "stream", "GC-S021", 0, "drop a GCFinalizersBegin" },
	{ "finalizers-nested", "stream", "GC-S022", 0, "write a GCFinalizersBegin twice" },
	{ "timestamp-backwards", "stream", "GC-S023", 0, "an event earlier than its thread's previous one" },
	{ "foreground-outside-bgc", "stream", "GC-S024", 0, "a blocking GC relabelled foreground (Type 2)" },
	{ "bgc-inside-gc", "stream", "GC-S024", 0, "a foreground GC relabelled background (Type 1, depth 2)" },
	{ "trace-starts-inside-gc", "stream", "GC-S002", 0, "drop everything before the first GCEnd" },
	{ "trace-ends-inside-gc", "stream", "GC-S003", 0, "drop everything after a GCStart" },
	{ "truncate-at-field", "payload", "GC-P001", 0, "cut a GCMarkWithType payload at a field boundary" },
	{ "extend-payload", "payload", "GC-P002", 0, "append 4 bytes to a GCMarkWithType payload" },
	{ "size-of-other-version", "payload", "GC-P008", 0, "cut a GCAllocationTick to the size of its previous version" },
	{ "closed-enum-value", "payload", "GC-V001", 0, "GCMarkWithType Type outside its closed map" },
	{ "bitmap-unknown-bits", "payload", "GC-V003", 0, "a GCBulkRootEdge flag bit no map defines" },
	{ "utf16-unpaired-surrogate", "payload", "GC-P004", 0, "a lone low surrogate in a type name" },
	{ "string-unterminated", "payload", "GC-P003", 0, "cut a payload before a string's NUL" },
	{ "string-odd-length", "payload", "GC-P005", 0, "cut a payload inside a UTF-16 code unit" },
	{ "struct-count-exceeds-payload", "payload", "GC-P006", 0, "GCPerHeapHistory Count larger than its rows" },
	{ "binary-length-exceeds-payload", "payload", "GC-P007", 0, "GCDynamicEvent DataSize larger than its data" },
	{ "wrong-pointer-width", "payload", "GC-P001|GC-P002", 0, "FinalizeObject encoded with the other pointer size" },
	{ "boolean-not-0-or-1", "payload", "GC-P009", 0, "GCSettings ServerGC = 2" },
	{ "allocation-amount-mismatch", "payload", "GC-V004", 0, "AllocationAmount not the low half of AllocationAmount64" },
	{ "depth-out-of-range", "payload", "GC-V005", 0, "a GC of depth 3" },
	{ "bgc-depth-not-2", "payload", "GC-V006", 0, "a background GC of depth 1" },
	{ "heap-index-out-of-range", "payload", "GC-V007", 0, "a GCAllocationTick HeapIndex beyond the heaps" },
	{ "unknown-event-version", "stream", "GC-U001", 0, "GCMarkWithType labelled version 5" },
	{ "unknown-event-id", "stream", "GC-U002", 0, "a GCMarkWithType labelled id 250" },
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
	uint64_t a;
};

#define MAX_THREADS 64

struct gen_mutator {
	struct gen_sink sink;
	struct gen_writer *w;
	const struct gen_profile *profile;
	unsigned psize, nheaps;
	FILE *expect;
	struct slot *slots;
	unsigned nslots;
	uint64_t index;            /* events written so far */
	unsigned nexpected;
	int bgc_open;              /* a background GC is in flight */
	int started;               /* first event seen */
	int dropping;              /* drop all further input */
	int drop_until_gcend;
	uint64_t thread[MAX_THREADS], last_ts[MAX_THREADS];
	unsigned nthreads;
	struct gen_values *ivals;  /* injected events and re-encodes */
	uint8_t *buf;
};

static void expect(struct gen_mutator *m, const char *code, int64_t index, int may)
{
	if (!may)
		m->nexpected++;
	if (!m->expect)
		return;
	if (index < 0)
		fprintf(m->expect, "{\"code\":\"%s\",\"may\":true}\n", code);
	else
		fprintf(m->expect, "{\"code\":\"%s\",\"event\":%lld%s}\n", code, (long long)index,
			may ? ",\"may\":true" : "");
}

static void may_any(struct gen_mutator *m, const char *codes)
{
	char buf[128];

	snprintf(buf, sizeof buf, "%s", codes);
	for (char *c = strtok(buf, ","); c; c = strtok(NULL, ","))
		expect(m, c, -1, 1);
}

static int out(struct gen_mutator *m, const struct gen_event *ev)
{
	unsigned i;

	if (m->w->ops->event(m->w, ev) < 0) {
		snprintf(m->sink.error, sizeof m->sink.error, "%s", gen_writer_error(m->w));
		return -1;
	}
	m->index++;
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
static int inject_begin(struct gen_mutator *m, int event)
{
	if (event < 0 || gen_values_reset(m->ivals, (unsigned)event) < 0)
		return -1;
	gen_values_set_num(m->ivals, "ClrInstanceID", m->profile->clr_instance_id);
	return 0;
}

static int inject_send(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
		       uint32_t add)
{
	const struct gcspec_event *sp = &gcspec_events[m->ivals->event];
	struct gen_event ev;
	long n = gen_encode(m->ivals, m->psize, m->buf, GEN_PAYLOAD_MAX);

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
	return out(m, &ev);
}

static int is(const struct gen_event *ev, const char *name)
{
	return strcmp(name_of(ev), name) == 0;
}

/* Count this event as a candidate target; 1 when it is the one. */
static int target(struct slot *s, int match)
{
	if (s->state != 0 || !match)
		return 0;
	return ++s->seen == s->occ;
}

static int64_t here(const struct gen_mutator *m)
{
	return (int64_t)m->index;
}

#define TRYM(x) do { if ((x) < 0) return -1; } while (0)
#define DONE(s) ((s)->state = 2)

/* One class looks at one event. Returns 1 when it wrote (or dropped) the
 * event, 0 to let it pass on, -1 on error. */
static int apply(struct gen_mutator *m, struct slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int i;

	switch (s->cls) {
	case C_DROP_GCSTART:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			s->a = num(ev, "Count");
			s->state = 1;
			may_any(m, "GC-S005,GC-S006,GC-S012,GC-S013,GC-S014,GC-S003,GC-S004");
			return 1;
		}
		if (s->state == 1 && is(ev, "GCEnd") && num(ev, "Count") == s->a) {
			expect(m, "GC-S001", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_DROP_GCEND:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			s->state = 1;
			may_any(m, "GC-S005,GC-S006,GC-S012,GC-S013,GC-S014,GC-S003,GC-S024,GC-S001");
			return 1;
		}
		if (s->state == 1 && is(ev, "GCStart")) {
			expect(m, "GC-S004", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_DUP_GCSTART:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, "GC-S004", here(m), 0);
			expect(m, "GC-S007", here(m), 0);
			may_any(m, "GC-S005,GC-S006,GC-S003,GC-S004,GC-S001,GC-S012");
			DONE(s);
		}
		return 0;
	case C_DUP_GCEND:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, "GC-S001", here(m), 0);
			may_any(m, "GC-S013,GC-S005");
			DONE(s);
		}
		return 0;
	case C_GCEND_COUNT:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			TRYM(set_and_reencode(m, ev, "Count", num(ev, "Count") + 1));
			expect(m, "GC-S005", here(m), 0);
			may_any(m, "GC-S001,GC-S004,GC-S013,GC-S014,GC-S003");
			DONE(s);
		}
		return 0;
	case C_GCEND_DEPTH:
		if (target(s, is(ev, "GCEnd") && !m->bgc_open)) {
			uint64_t d = num(ev, "Depth");

			TRYM(set_and_reencode(m, ev, "Depth", d == 0 ? 1 : d - 1));
			expect(m, "GC-S006", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_COUNT_BACKWARDS:
		/* Give one non-concurrent GC the Count of the GC before it:
		 * its GCStart goes backwards (S007); its suspension's Count is
		 * then no longer below the GC's (S012 may follow). */
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			s->a = num(ev, "Count");
			s->state = 1;
			may_any(m, "GC-S012,GC-S005");
		}
		if (s->state == 1 && num(ev, "Count") == s->a &&
		    (is(ev, "GCStart") || is(ev, "GCEnd"))) {
			TRYM(set_and_reencode(m, ev, "Count", s->a - 1));
			if (is(ev, "GCStart"))
				expect(m, "GC-S007", here(m), 0);
			if (is(ev, "GCEnd"))
				DONE(s);
		}
		return 0;
	case C_NESTED_SUSPEND:
		if (target(s, is(ev, "GCSuspendEEBegin"))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, "GC-S008", here(m), 0);
			may_any(m, "GC-S009,GC-S010,GC-S011,GC-S012,GC-S025");
			DONE(s);
		}
		return 0;
	case C_SUSPEND_END_NO_BEGIN:
		if (target(s, is(ev, "GCSuspendEEBegin"))) {
			s->state = 1;
			may_any(m, "GC-S010,GC-S011,GC-S012");
			return 1;
		}
		if (s->state == 1 && is(ev, "GCSuspendEEEnd")) {
			expect(m, "GC-S009", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_RESTART_NO_SUSPEND:
		if (target(s, is(ev, "GCRestartEEEnd"))) {
			if (out(m, ev) < 0)
				return -1;
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCRestartEEBegin")));
			expect(m, "GC-S010", here(m), 0);
			TRYM(inject_send(m, ev, -1, 0));
			TRYM(inject_begin(m, gen_profile_event(m->profile, "GCRestartEEEnd")));
			expect(m, "GC-S011", here(m), 1);
			TRYM(inject_send(m, ev, -1, 0));
			DONE(s);
			return 1;
		}
		return 0;
	case C_RESTART_END_NO_BEGIN:
		if (target(s, is(ev, "GCRestartEEEnd"))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, "GC-S011", here(m), 0);
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
			expect(m, "GC-S012", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_HEAPSTATS_OUTSIDE:
	case C_HISTORY_OUTSIDE:
	case C_BITMAP:
	case C_BINARY_LENGTH:
	case C_BOOLEAN:
		/* Injected before the first event: no GC has run yet. */
		if (target(s, 1)) {
			int code_field = -1;
			uint32_t add = 0;
			const char *code;

			if (s->cls == C_HEAPSTATS_OUTSIDE) {
				TRYM(inject_begin(m, gen_profile_event(m->profile, "GCHeapStats")));
				code = "GC-S013";
			} else if (s->cls == C_HISTORY_OUTSIDE) {
				TRYM(inject_begin(m, gen_profile_event(m->profile, "GCGlobalHeapHistory")));
				gen_values_set_num(m->ivals, "NumHeaps", m->nheaps);
				code = "GC-S014";
			} else if (s->cls == C_BITMAP) {
				TRYM(inject_begin(m, GCSPEC_EV_GCBulkRootEdge));
				gen_values_add_row(m->ivals);
				gen_values_set_member_num(m->ivals, 0, "GCRootFlag", 0x80);
				code = "GC-V003";
			} else if (s->cls == C_BINARY_LENGTH) {
				TRYM(inject_begin(m, GCSPEC_EV_GCDynamicEvent));
				gen_values_set_text(m->ivals, "Name", "Test", 4);
				gen_values_set_bytes(m->ivals, "Data", "\1\2\3\4\5\6\7\10", 8);
				code_field = gen_values_index(m->ivals, "DataSize", 0);
				add = 100;
				code = "GC-P007";
				expect(m, "GC-P001", here(m), 1);
			} else {
				TRYM(inject_begin(m, GCSPEC_EV_GCSettings_V1));
				gen_values_set_num(m->ivals, "ServerGC", 2);
				code = "GC-P009";
			}
			expect(m, code, here(m), 0);
			TRYM(inject_send(m, ev, code_field, add));
			DONE(s);
		}
		return 0;
	case C_JOIN_END_NO_START:
		if (target(s, is(ev, "GCJoin") && num(ev, "JoinTime") == 0)) {
			s->state = 1;
			s->a = num(ev, "Heap");
			return 1;
		}
		if (s->state == 1 && is(ev, "GCJoin") && num(ev, "Heap") == s->a) {
			expect(m, "GC-S015", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_JOIN_NESTED:
		if (target(s, is(ev, "GCJoin") && num(ev, "JoinTime") == 0)) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, "GC-S016", here(m), 0);
			may_any(m, "GC-S015");
			DONE(s);
		}
		return 0;
	case C_SEGMENT_DOUBLE_CREATE:
	case C_HANDLE_DOUBLE_SET:
	case C_HANDLE_DOUBLE_DESTROY:
	case C_FIN_NESTED: {
		static const char *const names[] = { "GCCreateSegment", "SetGCHandle",
			"DestroyGCHandle", "GCFinalizersBegin" };
		static const char *const codes[] = { "GC-S017", "GC-S019", "GC-S020", "GC-S022" };
		unsigned k = s->cls == C_SEGMENT_DOUBLE_CREATE ? 0 : s->cls == C_HANDLE_DOUBLE_SET ? 1
			   : s->cls == C_HANDLE_DOUBLE_DESTROY ? 2 : 3;

		if (target(s, is(ev, names[k]))) {
			if (out(m, ev) < 0)
				return -1;
			expect(m, codes[k], here(m), 0);
			if (k == 3)
				may_any(m, "GC-S021");
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
			expect(m, "GC-S018", here(m), 0);
			TRYM(inject_send(m, ev, -1, 0));
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
			expect(m, "GC-S021", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_TS_BACKWARDS:
		if (target(s, is(ev, "GCHeapStats"))) {
			for (unsigned t = 0; t < m->nthreads; t++)
				if (m->thread[t] == ev->thread_id && m->last_ts[t] > 0) {
					ev->timestamp = m->last_ts[t] - 1;
					expect(m, "GC-S023", here(m), 0);
					DONE(s);
					return 0;
				}
			s->seen--; /* no earlier event on this thread: try the next one */
		}
		return 0;
	case C_FG_OUTSIDE_BGC:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			TRYM(set_and_reencode(m, ev, "Type", 2));
			expect(m, "GC-S024", here(m), 0);
			DONE(s);
		}
		return 0;
	case C_BGC_IN_GC:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 2)) {
			s->a = num(ev, "Count");
			gen_values_set_num((struct gen_values *)ev->values, "Type", 1);
			TRYM(set_and_reencode(m, ev, "Depth", 2));
			expect(m, "GC-S024", here(m), 0);
			expect(m, "GC-S004", here(m), 1);
			may_any(m, "GC-S005,GC-S006,GC-S003,GC-S001");
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
			expect(m, "GC-S002", here(m), 0);
			may_any(m, "GC-S010,GC-S011,GC-S013,GC-S014");
			DONE(s);
		}
		return 0;
	case C_TRACE_ENDS_IN_GC:
		if (s->state == 1)
			return 1;
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == 0 && !m->bgc_open)) {
			expect(m, "GC-S003", here(m), 0);
			may_any(m, "GC-S025");
			if (out(m, ev) < 0)
				return -1;
			s->state = 1;
			return 1;
		}
		return 0;
	case C_TRUNCATE:
	case C_EXTEND:
	case C_CLOSED_ENUM:
	case C_UNKNOWN_VERSION:
	case C_UNKNOWN_ID:
		if (target(s, is(ev, "GCMarkWithType"))) {
			if (s->cls == C_TRUNCATE) {
				gen_encode_offsets(ev->values, m->psize, offs);
				own_payload(m, ev);
				ev->payload_len = offs[1 + s->occ % (ev->values ? 3 : 3)];
				expect(m, "GC-P001", here(m), 0);
			} else if (s->cls == C_EXTEND) {
				own_payload(m, ev);
				memset(m->buf + ev->payload_len, 0, 4);
				ev->payload_len += 4;
				expect(m, "GC-P002", here(m), 0);
			} else if (s->cls == C_CLOSED_ENUM) {
				TRYM(set_and_reencode(m, ev, "Type", 200));
				expect(m, "GC-V001", here(m), 0);
			} else {
				own_payload(m, ev);
				ev->spec_event = GEN_NO_SPEC;
				if (s->cls == C_UNKNOWN_VERSION) {
					ev->version = 5;
					expect(m, "GC-U001", here(m), 0);
				} else {
					ev->id = 250;
					expect(m, "GC-U002", here(m), 0);
				}
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
				expect(m, "GC-P008", here(m), 0);
				expect(m, "GC-P001", here(m), 1);
				break;
			}
			case C_UNPAIRED_SURROGATE:
				own_payload(m, ev);
				m->buf[offs[tn]] = 0x00;
				m->buf[offs[tn] + 1] = 0xDC;
				expect(m, "GC-P004", here(m), 0);
				break;
			case C_UNTERMINATED:
				own_payload(m, ev);
				ev->payload_len = offs[tn + 1] - 2;
				expect(m, "GC-P003", here(m), 0);
				expect(m, "GC-P001", here(m), 1);
				break;
			case C_ODD_LENGTH:
				own_payload(m, ev);
				ev->payload_len = offs[tn] + 1;
				expect(m, "GC-P005", here(m), 0);
				expect(m, "GC-P003", here(m), 1);
				expect(m, "GC-P001", here(m), 1);
				break;
			case C_ALLOC_AMOUNT:
				TRYM(set_and_reencode(m, ev, "AllocationAmount",
						      (num(ev, "AllocationAmount64") + 1) & 0xFFFFFFFFu));
				expect(m, "GC-V004", here(m), 0);
				break;
			default:
				TRYM(set_and_reencode(m, ev, "HeapIndex", m->nheaps + 5));
				expect(m, "GC-V007", here(m), 0);
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
			expect(m, "GC-P006", here(m), 0);
			expect(m, "GC-P001", here(m), 1);
			DONE(s);
		}
		return 0;
	case C_POINTER_WIDTH:
		if (target(s, is(ev, "FinalizeObject"))) {
			TRYM(reencode(m, ev, m->psize == 8 ? 4 : 8));
			ev->values = NULL;
			expect(m, m->psize == 8 ? "GC-P001" : "GC-P002", here(m), 0);
			expect(m, "GC-P008", here(m), 1);
			DONE(s);
		}
		return 0;
	case C_DEPTH_RANGE:
	case C_BGC_DEPTH:
		if (target(s, is(ev, "GCStart") && num(ev, "Type") == (s->cls == C_BGC_DEPTH ? 1u : 0u) &&
			       (s->cls == C_BGC_DEPTH || !m->bgc_open))) {
			s->a = num(ev, "Count");
			TRYM(set_and_reencode(m, ev, "Depth", s->cls == C_BGC_DEPTH ? 1 : 3));
			expect(m, s->cls == C_BGC_DEPTH ? "GC-V006" : "GC-V005", here(m), 0);
			s->state = 1;
			return 0;
		}
		if (s->state == 1 && is(ev, "GCEnd") && num(ev, "Count") == s->a) {
			TRYM(set_and_reencode(m, ev, "Depth", s->cls == C_BGC_DEPTH ? 1 : 3));
			expect(m, s->cls == C_BGC_DEPTH ? "GC-V006" : "GC-V005", here(m), 1);
			DONE(s);
		}
		return 0;
	}
	return 0;
}

static int mutator_event(struct gen_sink *sink, struct gen_event *ev)
{
	struct gen_mutator *m = (struct gen_mutator *)sink;
	int type = -1;

	if (m->dropping)
		return 0;
	/* Track background GCs on the input: classes target events relative to them. */
	if (is(ev, "GCStart"))
		type = (int)num(ev, "Type");
	if (type == 1)
		m->bgc_open = 1;
	if (is(ev, "GCEnd") && m->bgc_open && ev->thread_id == 0x3000)
		m->bgc_open = -1; /* cleared after this event */
	for (unsigned k = 0; k < m->nslots; k++) {
		int r = apply(m, &m->slots[k], ev);

		if (r < 0) {
			if (!m->sink.error[0])
				snprintf(m->sink.error, sizeof m->sink.error, "mutation %s failed",
					 gen_mutation_classes[m->slots[k].cls].name);
			return -1;
		}
		if (r > 0)
			goto consumed;
	}
	if (out(m, ev) < 0)
		return -1;
consumed:
	if (m->bgc_open < 0)
		m->bgc_open = 0;
	return 0;
}

struct gen_mutator *gen_mutator_new(const int *classes, unsigned n, struct gen_writer *w,
				    const struct gen_profile *profile, unsigned pointer_size,
				    unsigned nheaps, uint64_t seed, FILE *expectf)
{
	struct gen_mutator *m = calloc(1, sizeof *m);

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
	for (unsigned k = 0; k < n; k++) {
		m->slots[k].cls = classes[k];
		/* Past the first GCs, and apart from each other when several. */
		m->slots[k].occ = 3 + 2 * k + (unsigned)(seed % 2);
		if (classes[k] == C_HEAPSTATS_OUTSIDE || classes[k] == C_HISTORY_OUTSIDE ||
		    classes[k] == C_BITMAP || classes[k] == C_BINARY_LENGTH || classes[k] == C_BOOLEAN ||
		    classes[k] == C_SEGMENT_DOUBLE_FREE)
			m->slots[k].occ = 1;
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

int gen_mutator_finish(struct gen_mutator *m)
{
	for (unsigned k = 0; k < m->nslots; k++)
		if (m->slots[k].state == 1 && m->slots[k].cls == C_TRACE_ENDS_IN_GC)
			m->slots[k].state = 2;
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
	free(m);
}
