/*
 * payload.c - fault classes of event payloads: cut or grown payloads,
 * strings without their end, counts and lengths past the payload, a
 * pointer width or value the spec does not allow (fault.h: one row and
 * two functions each). A payload class that takes any event-version
 * (truncate-at-field, extend-payload) picks it by the seed (kind_target).
 */
#include <string.h>

#include "gen/faults/mutator.h"
#include "gen/model/encode.h"

/* The target of a class that takes any event-version with fields: the
 * first event of the rank-th distinct event-version the class sees (b set:
 * the next such event, the fallback's). Over seeds the rank, and so the
 * event-version, varies over what the stream writes. */
static int kind_target(struct gen_mutator *m, struct gen_fault_slot *s, const struct gen_event *ev)
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
		if (fault_is(ev, lost_field_codes[k].name))
			fault_may_list(m, lost_field_codes[k].codes);
}

/* truncate-at-field: cut ev's payload where one of its top-level fields
 * begins, a field of at least one byte (zero-length ones share the next
 * field's boundary), chosen by pick. The decoder then stops at that field
 * and says why by its type: a fixed-size field is cut (GC-P001), a string
 * has no terminator (GC-P003), a Struct's count asks for rows that are not
 * there (GC-P006), a Binary's length for bytes that are not (GC-P007). */
static int truncate_at_field(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
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
	fault_own_payload(m, ev);
	ev->payload_len = offs[i];
	fault_expect(m, code, fault_here(m), 0);
	if (has_other_version(ev))
		fault_expect(m, GCSPEC_DIAG_P008, fault_here(m), 1);
	return 1;
}

/* extend-payload: 1 to 8 bytes (by pick) after the template's end. */
static void extend_payload(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t k = 1 + (uint32_t)(s->pick % 8);

	fault_own_payload(m, ev);
	memset(m->buf + ev->payload_len, 0, k);
	ev->payload_len += k;
	fault_expect(m, GCSPEC_DIAG_P002, fault_here(m), 0);
	if (has_other_version(ev))
		fault_expect(m, GCSPEC_DIAG_P008, fault_here(m), 1);
}

static int truncate_field(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (kind_target(m, s, ev)) {
		int r = truncate_at_field(m, s, ev);

		if (r < 0)
			return -1;
		if (r)
			FAULT_DONE(s);
	}
	return 0;
}

static int extend(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (kind_target(m, s, ev)) {
		extend_payload(m, s, ev);
		FAULT_DONE(s);
	}
	return 0;
}

static int any_kind_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	s->b = 1; /* the synthesised event is the target */
	return fault_synth_target(m, s, "GCMarkWithType");
}

static int tick_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	return fault_synth_target(m, s, "GCAllocationTick");
}

/* The target of the GCAllocationTick classes: one with a TypeName (a
 * non-empty one when named). */
static int tick_target(struct gen_fault_slot *s, const struct gen_event *ev, int named)
{
	return fault_target(s, fault_is(ev, "GCAllocationTick") && ev->values &&
			       gen_values_index(ev->values, "TypeName", 0) >= 0 &&
			       (!named ||
				ev->values->field[gen_values_index(ev->values, "TypeName", 0)].len > 0));
}

static int other_version_size(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	const struct gcspec_event *sp, *prev;

	if (!tick_target(s, ev, 0))
		return 0;
	sp = &gcspec_events[ev->spec_event];
	gen_encode_offsets(ev->values, m->psize, offs);
	prev = gcspec_lookup(sp->provider, sp->id, sp->version - 1u);
	if (!prev)
		return 0;
	fault_own_payload(m, ev);
	ev->payload_len = offs[prev->nfields];
	fault_expect(m, GCSPEC_DIAG_P008, fault_here(m), 0);
	fault_expect(m, GCSPEC_DIAG_P001, fault_here(m), 1);
	FAULT_DONE(s);
	return 0;
}

/* GCAllocationKindMap is closed (GCRootKindMap, of GCMarkWithType, is
 * open: new root kinds appear). */
static int closed_enum(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "GCAllocationTick") && ev->values &&
			    gen_values_index(ev->values, "AllocationKind", 0) >= 0)) {
		FAULT_TRY(fault_set(m, ev, "AllocationKind", 200));
		fault_expect(m, GCSPEC_DIAG_V001, fault_here(m), 0);
		FAULT_DONE(s);
	}
	return 0;
}

/* Events no realistic stream has, made wrong: a GCBulkRootEdge with a
 * flag bit no map defines, a GCDynamicEvent whose DataSize runs past its
 * data, a GCSettings with ServerGC 2. Written at like's time and thread
 * before the first event the class sees; no GC state depends on them, so
 * they can go anywhere. */
static int bitmap_marker(struct gen_mutator *m, const struct gen_event *like)
{
	FAULT_TRY(fault_inject_begin(m, GCSPEC_EV_GCBulkRootEdge));
	gen_values_add_row(m->ivals);
	gen_values_set_member_num(m->ivals, 0, "GCRootFlag", 0x80);
	fault_expect(m, GCSPEC_DIAG_V003, fault_here(m), 0);
	return fault_inject_send(m, like, -1, 0);
}

static int binary_marker(struct gen_mutator *m, const struct gen_event *like)
{
	int size_field;

	FAULT_TRY(fault_inject_begin(m, GCSPEC_EV_GCDynamicEvent));
	gen_values_set_text(m->ivals, "Name", "Test", 4);
	gen_values_set_bytes(m->ivals, "Data", "\1\2\3\4\5\6\7\10", 8);
	size_field = gen_values_index(m->ivals, "DataSize", 0);
	fault_expect(m, GCSPEC_DIAG_P001, fault_here(m), 1);
	fault_expect(m, GCSPEC_DIAG_P007, fault_here(m), 0);
	return fault_inject_send(m, like, size_field, 100);
}

static int boolean_marker(struct gen_mutator *m, const struct gen_event *like)
{
	FAULT_TRY(fault_inject_begin(m, GCSPEC_EV_GCSettings_V1));
	gen_values_set_num(m->ivals, "ServerGC", 2);
	fault_expect(m, GCSPEC_DIAG_P009, fault_here(m), 0);
	return fault_inject_send(m, like, -1, 0);
}

static int bitmap(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, 1)) {
		FAULT_TRY(bitmap_marker(m, ev));
		FAULT_DONE(s);
	}
	return 0;
}

static int bitmap_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return bitmap_marker(m, &m->last);
}

static int binary_length(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, 1)) {
		FAULT_TRY(binary_marker(m, ev));
		FAULT_DONE(s);
	}
	return 0;
}

static int binary_length_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return binary_marker(m, &m->last);
}

static int boolean(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, 1)) {
		FAULT_TRY(boolean_marker(m, ev));
		FAULT_DONE(s);
	}
	return 0;
}

static int boolean_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return boolean_marker(m, &m->last);
}

static int unpaired_surrogate(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int tn;

	if (!tick_target(s, ev, 1))
		return 0;
	tn = gen_values_index(ev->values, "TypeName", 0);
	gen_encode_offsets(ev->values, m->psize, offs);
	fault_own_payload(m, ev);
	m->buf[offs[tn]] = 0x00;
	m->buf[offs[tn] + 1] = 0xDC;
	fault_expect(m, GCSPEC_DIAG_P004, fault_here(m), 0);
	FAULT_DONE(s);
	return 0;
}

static int unterminated(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int tn;

	if (!tick_target(s, ev, 0))
		return 0;
	tn = gen_values_index(ev->values, "TypeName", 0);
	gen_encode_offsets(ev->values, m->psize, offs);
	fault_own_payload(m, ev);
	ev->payload_len = offs[tn + 1] - 2;
	fault_expect(m, GCSPEC_DIAG_P003, fault_here(m), 0);
	fault_expect(m, GCSPEC_DIAG_P001, fault_here(m), 1);
	FAULT_DONE(s);
	return 0;
}

static int odd_length(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int tn;

	if (!tick_target(s, ev, 0))
		return 0;
	tn = gen_values_index(ev->values, "TypeName", 0);
	gen_encode_offsets(ev->values, m->psize, offs);
	fault_own_payload(m, ev);
	ev->payload_len = offs[tn] + 1;
	fault_expect(m, GCSPEC_DIAG_P005, fault_here(m), 0);
	fault_expect(m, GCSPEC_DIAG_P003, fault_here(m), 1);
	fault_expect(m, GCSPEC_DIAG_P001, fault_here(m), 1);
	FAULT_DONE(s);
	return 0;
}

static int struct_count(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	uint32_t offs[GEN_VALUES_MAX_FIELDS + 1];
	int i = -1;

	if (fault_target(s, fault_is(ev, "GCPerHeapHistory") && ev->values &&
			    (i = gen_values_index(ev->values, "Count", 0)) >= 0)) {
		gen_encode_offsets(ev->values, m->psize, offs);
		fault_own_payload(m, ev);
		m->buf[offs[i]] = (uint8_t)(m->buf[offs[i]] + 5);
		fault_expect(m, GCSPEC_DIAG_P006, fault_here(m), 0);
		fault_expect(m, GCSPEC_DIAG_P001, fault_here(m), 1);
		FAULT_DONE(s);
	}
	return 0;
}

/* A GCPerHeapHistory belongs inside a GC: a whole one around it. */
static int struct_count_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	uint32_t n = m->max_count;

	FAULT_TRY(fault_inject2(m, &m->last, "GCStart", "Count", n + 1, "Depth", 0));
	FAULT_TRY(fault_synth_target(m, s, "GCPerHeapHistory"));
	return fault_inject2(m, &m->last, "GCEnd", "Count", n + 1, "Depth", 0);
}

static int pointer_width(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (fault_target(s, fault_is(ev, "FinalizeObject"))) {
		FAULT_TRY(fault_reencode(m, ev, m->psize == 8 ? 4 : 8));
		ev->values = NULL;
		fault_expect(m, m->psize == 8 ? GCSPEC_DIAG_P001 : GCSPEC_DIAG_P002, fault_here(m), 0);
		fault_expect(m, GCSPEC_DIAG_P008, fault_here(m), 1);
		FAULT_DONE(s);
	}
	return 0;
}

static int pointer_width_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	FAULT_TRY(fault_inject_begin(m, gen_profile_event(m->profile, "FinalizeObject")));
	gen_values_set_num(m->ivals, "TypeID", m->psize == 8 ? 0x7ff812340000ull : 0x12340000u);
	gen_values_set_num(m->ivals, "ObjectID", m->psize == 8 ? 0x1f000000100ull : 0x02000100u);
	fault_expect(m, m->psize == 8 ? GCSPEC_DIAG_P001 : GCSPEC_DIAG_P002, fault_here(m), 0);
	fault_expect(m, GCSPEC_DIAG_P008, fault_here(m), 1);
	return fault_inject_send_ps(m, &m->last, -1, 0, m->psize == 8 ? 4 : 8);
}

static int alloc_amount(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (!tick_target(s, ev, 0))
		return 0;
	FAULT_TRY(fault_set(m, ev, "AllocationAmount",
			    (fault_num(ev, "AllocationAmount64") + 1) & 0xFFFFFFFFu));
	fault_expect(m, GCSPEC_DIAG_V004, fault_here(m), 0);
	FAULT_DONE(s);
	return 0;
}

/* A GC of depth 3 (background 0) or a background GC of depth 1 (1),
 * at its GCStart and its GCEnd. */
static int depth(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev, int bgc)
{
	int code = bgc ? GCSPEC_DIAG_V006 : GCSPEC_DIAG_V005;

	if (fault_target(s, fault_is(ev, "GCStart") && fault_num(ev, "Type") == (bgc ? 1u : 0u) &&
			    (bgc || !m->bgc_open))) {
		s->a = fault_num(ev, "Count");
		FAULT_TRY(fault_set(m, ev, "Depth", bgc ? 1 : 3));
		fault_expect(m, code, fault_here(m), 0);
		s->state = 1;
		return 0;
	}
	if (s->state == 1 && fault_is(ev, "GCEnd") && fault_num(ev, "Count") == s->a) {
		FAULT_TRY(fault_set(m, ev, "Depth", bgc ? 1 : 3));
		fault_expect(m, code, fault_here(m), 1);
		FAULT_DONE(s);
	}
	return 0;
}

static int depth_range(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return depth(m, s, ev, 0);
}

static int depth_range_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	fault_expect(m, GCSPEC_DIAG_V005, fault_here(m) + 1, 1); /* at its GCEnd too */
	return fault_inject_gc(m, m->max_count + 1, 3, 0, GCSPEC_DIAG_V005);
}

static int bgc_depth(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return depth(m, s, ev, 1);
}

static int bgc_depth_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	(void)s;
	return fault_inject_gc(m, m->max_count + 1, 1, 1, GCSPEC_DIAG_V006);
}

static int heap_index(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	if (!tick_target(s, ev, 0))
		return 0;
	FAULT_TRY(fault_set(m, ev, "HeapIndex", m->nheaps + 5));
	fault_expect(m, GCSPEC_DIAG_V007, fault_here(m), 0);
	FAULT_DONE(s);
	return 0;
}

static const struct gen_fault rows[] = {
	{ "truncate-at-field", "payload",
	  GEN_CODES(GCSPEC_DIAG_P001, GCSPEC_DIAG_P003, GCSPEC_DIAG_P006, GCSPEC_DIAG_P007),
	  GEN_FAULT_ONE_OF,
	  "cut a seed-chosen event-version's payload at a seed-chosen field boundary", truncate_field,
	  any_kind_fallback },
	{ "extend-payload", "payload", GEN_CODES(GCSPEC_DIAG_P002), 0,
	  "append 1 to 8 bytes to a seed-chosen event-version's payload", extend, any_kind_fallback },
	{ "size-of-other-version", "payload", GEN_CODES(GCSPEC_DIAG_P008), 0,
	  "cut a GCAllocationTick to the size of its previous version", other_version_size,
	  tick_fallback },
	{ "closed-enum-value", "payload", GEN_CODES(GCSPEC_DIAG_V001), 0,
	  "GCAllocationTick AllocationKind outside its closed map", closed_enum, tick_fallback },
	{ "bitmap-unknown-bits", "payload", GEN_CODES(GCSPEC_DIAG_V003), GEN_FAULT_FIRST_EVENT,
	  "a GCBulkRootEdge flag bit no map defines", bitmap, bitmap_fallback },
	{ "utf16-unpaired-surrogate", "payload", GEN_CODES(GCSPEC_DIAG_P004), 0,
	  "a lone low surrogate in a type name", unpaired_surrogate, tick_fallback },
	{ "string-unterminated", "payload", GEN_CODES(GCSPEC_DIAG_P003), 0,
	  "cut a payload before a string's NUL", unterminated, tick_fallback },
	{ "string-odd-length", "payload", GEN_CODES(GCSPEC_DIAG_P005), 0,
	  "cut a payload inside a UTF-16 code unit", odd_length, tick_fallback },
	{ "struct-count-exceeds-payload", "payload", GEN_CODES(GCSPEC_DIAG_P006), 0,
	  "GCPerHeapHistory Count larger than its rows", struct_count, struct_count_fallback },
	{ "binary-length-exceeds-payload", "payload", GEN_CODES(GCSPEC_DIAG_P007),
	  GEN_FAULT_FIRST_EVENT,
	  "GCDynamicEvent DataSize larger than its data", binary_length, binary_length_fallback },
	{ "wrong-pointer-width", "payload", GEN_CODES(GCSPEC_DIAG_P001, GCSPEC_DIAG_P002),
	  GEN_FAULT_ONE_OF,
	  "FinalizeObject encoded with the other pointer size", pointer_width, pointer_width_fallback },
	{ "boolean-not-0-or-1", "payload", GEN_CODES(GCSPEC_DIAG_P009), GEN_FAULT_FIRST_EVENT,
	  "GCSettings ServerGC = 2", boolean, boolean_fallback },
	{ "allocation-amount-mismatch", "payload", GEN_CODES(GCSPEC_DIAG_V004), 0,
	  "AllocationAmount not the low half of AllocationAmount64", alloc_amount, tick_fallback },
	{ "depth-out-of-range", "payload", GEN_CODES(GCSPEC_DIAG_V005), 0,
	  "a GC of depth 3", depth_range, depth_range_fallback },
	{ "bgc-depth-not-2", "payload", GEN_CODES(GCSPEC_DIAG_V006), 0,
	  "a background GC of depth 1", bgc_depth, bgc_depth_fallback },
	{ "heap-index-out-of-range", "payload", GEN_CODES(GCSPEC_DIAG_V007), 0,
	  "a GCAllocationTick HeapIndex beyond the heaps", heap_index, tick_fallback },
};

const struct gen_fault_family gen_faults_payload = GEN_FAULT_FAMILY(rows);
