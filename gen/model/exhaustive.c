/*
 * exhaustive.c - coverage-driven streams.
 *
 * Every event-version is written several times: once per value of each
 * mapped field (bit maps: each bit and all bits together), once per
 * integer boundary (0, 1, max-1, max) and once per awkward string. Fields
 * that stream invariants constrain (GC counts, depths, types, heap indexes,
 * handles, segments, allocation amounts) keep valid values, and all events
 * sit inside one valid GC (after its GCStart) so that no ordering rule is
 * broken; events the invariants pair up are written as their pairs.
 */
#include <inttypes.h>
#include <string.h>

#include "gen/model/encode.h"
#include "gen/model/exhaustive.h"
#include "gen/model/rng.h"

static const char *const strings[] = {
	"", "A", "Ünïcödé", "\xF0\x9F\x98\x80 emoji (non-BMP)", "quote\" backslash\\ tab\t nl\n",
	"\xE2\x80\xA8line-sep\xEF\xBB\xBF bom \xEF\xBF\xBF nonchar",
	"%s%n%x format", "<xml attr='1'>&amp;</xml>",
	"LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName."
	"LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName."
	"LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName.LongTypeName`1[[X]]"
};
#define NSTRINGS (sizeof strings / sizeof strings[0])

/* Fields whose values the stream invariants constrain, by name. */
static int constrained(const char *name)
{
	static const char *const names[] = { "Count", "Depth", "Type", "HeapIndex", "HeapNum",
		"Heap", "HandleID", "Address", "AllocationAmount", "AllocationAmount64", "NumHeaps",
		"JoinTime", "DataSize", "Reason", "ClrInstanceID", "Generation", "CondemnedGeneration",
		"ServerGC", "DoCompact", "IsLarge", "IsAlloc", NULL };

	for (unsigned i = 0; names[i]; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

static uint64_t width_max(unsigned type, unsigned psize)
{
	unsigned w = gen_type_width(type, psize);

	return w >= 8 ? UINT64_MAX : (1ull << (8 * w)) - 1;
}

struct ex {
	struct gen_emit *e;
	const struct gen_profile *p;
	struct gen_coverage *cov;
	uint64_t now;
	uint32_t gc_count;
	uint64_t next_handle, next_segment;
	int join_time;             /* >= 0: the JoinTime of the GCJoin being written */
	FILE *expect;              /* where the warnings the stream must raise go, or NULL */
	uint64_t item;             /* work items met so far */
	uint64_t shard_i, shard_n; /* this run writes items i, i+n, i+2n, ... */
};

/* Whether the next work item (a self-contained, valid group of events:
 * one variant, one join pair, one whole GC, ...) belongs to this shard.
 * The framing GC around the variants is in every shard. */
static int mine(struct ex *x)
{
	return x->item++ % x->shard_n == x->shard_i;
}

#define TRY(x) do { if ((x) < 0) return -1; } while (0)

/* Record which map values field fi (template field f) holds: x is the value.
 * Returns 1 when x is outside the map. */
static int cover_value(struct gen_coverage *cov, unsigned fi, uint64_t x)
{
	const struct gcspec_map *mp = &gcspec_maps[gcspec_fields[fi].map];
	int known = 0;

	for (unsigned j = 0; j < mp->nvalues && j < 64; j++) {
		uint64_t mv = gcspec_map_values[mp->first_value + j].value;
		int hit = mp->bitmap && mv ? (x & mv) == mv : x == mv;

		if (hit)
			cov->field_values_seen[fi] |= 1ull << j;
		known |= hit;
		if (mp->bitmap)
			x &= ~mv;
	}
	if (mp->bitmap ? x != 0 : !known) {
		cov->field_outside_seen[fi] = 1;
		return 1;
	}
	return 0;
}

static int is_integer(unsigned type)
{
	return (type >= GCSPEC_UINT8 && type <= GCSPEC_INT64) || type == GCSPEC_POINTER;
}

/* Which boundary value or awkward string field fi holds. */
static void cover_plain(struct gen_coverage *cov, const struct gen_values *v, unsigned fi,
			const struct gen_value *val, unsigned psize)
{
	const struct gcspec_field *f = &gcspec_fields[fi];

	if (gcspec_field_is_array(f))
		return; /* val->u is where its values lie, not a value */
	if (is_integer(f->type)) {
		uint64_t max = width_max(f->type, psize);
		uint64_t b[4] = { 0, 1, max - 1, max };

		for (unsigned j = 0; j < 4; j++)
			if (val->u == b[j])
				cov->bounds_seen[fi] |= (uint8_t)(1u << j);
	} else if (f->type == GCSPEC_UNICODE_STRING && val->kind == GEN_VK_TEXT &&
		   val->u + val->len <= sizeof v->arena) {
		for (unsigned j = 0; j < NSTRINGS; j++)
			if (strlen(strings[j]) == val->len &&
			    memcmp(v->arena + val->u, strings[j], val->len) == 0)
				cov->strings_seen[fi] |= (uint16_t)(1u << j);
	}
}

/* Coverage is read off the values actually sent, not off intentions. A
 * value outside an open map is deliberate here (a newer runtime's reason or
 * root kind): the stream must raise GC-V002 for it, so it is recorded, as
 * a mutation records its fault, at the index the event gets. */
static void cover(struct gen_coverage *cov, const struct gen_values *v, FILE *expect,
		  uint64_t index, unsigned psize)
{
	const struct gcspec_event *sp = &gcspec_events[v->event];
	int outside = 0;

	for (unsigned i = 0; i < v->nfields; i++) {
		unsigned fi = sp->first_field + i;

		if (gcspec_fields[fi].map < 0) {
			if (!gcspec_fields[fi].is_member)
				cover_plain(cov, v, fi, &v->field[i], psize);
			else
				for (unsigned r = 0; r < v->nrows; r++)
					cover_plain(cov, v, fi, &v->cell[r * v->nmembers +
						    (i - (unsigned)v->struct_field - 1)], psize);
			continue;
		}
		if (!gcspec_fields[fi].is_member) {
			outside |= cover_value(cov, fi, v->field[i].u) &&
				   gcspec_maps[gcspec_fields[fi].map].open;
			continue;
		}
		for (unsigned r = 0; r < v->nrows; r++)
			outside |= cover_value(cov, fi, v->cell[r * v->nmembers +
						     (i - (unsigned)v->struct_field - 1)].u) &&
				   gcspec_maps[gcspec_fields[fi].map].open;
	}
	if (outside && expect)
		fprintf(expect, "{\"code\":\"%s\",\"event\":%" PRIu64 "}\n",
			gcspec_diags[GCSPEC_DIAG_V002].code, index);
}

static int send(struct ex *x)
{
	x->now += 10;
	cover(x->cov, x->e->vals, x->expect, x->e->nevents, x->e->pointer_size);
	return gen_emit_send(x->e, x->now, 0x1000, 0);
}

static int start(struct ex *x, int event)
{
	if (gen_emit_begin_always(x->e, event) < 0)
		return -1;
	gen_values_set_num(x->e->vals, "ClrInstanceID", x->p->clr_instance_id);
	return 0;
}

/* Valid values for the constrained fields of event `ev` (variant k). */
static void constrain(struct ex *x, unsigned k)
{
	struct gen_values *v = x->e->vals;
	const struct gcspec_event *sp = &gcspec_events[v->event];

	gen_values_set_num(v, "HeapIndex", 0);
	gen_values_set_num(v, "HeapNum", 0);
	gen_values_set_num(v, "Heap", 0);
	gen_values_set_num(v, "NumHeaps", 1);
	if (strcmp(sp->name, "SetGCHandle") == 0 || strcmp(sp->name, "PrvSetGCHandle") == 0)
		gen_values_set_num(v, "HandleID", 0x100000 + 8 * x->next_handle++);
	if (strcmp(sp->name, "GCCreateSegment") == 0)
		gen_values_set_num(v, "Address", 0x10000000 + 0x100000 * x->next_segment++);
	if (strcmp(sp->name, "GCAllocationTick") == 0) {
		gen_values_set_num(v, "AllocationAmount", 100000 + k);
		gen_values_set_num(v, "AllocationAmount64", 100000 + k);
	}
	(void)k;
}

/* Variants of one event-version: how many, and set variant k's values. */
static unsigned nvariants(unsigned event)
{
	const struct gcspec_event *sp = &gcspec_events[event];
	const struct gcspec_field *f = gcspec_event_fields(sp);
	unsigned n = 4 > NSTRINGS ? 4 : NSTRINGS;

	for (unsigned i = 0; i < sp->nfields; i++) {
		const struct gcspec_map *mp;
		unsigned need;

		if (f[i].map < 0)
			continue;
		mp = &gcspec_maps[f[i].map];
		need = mp->nvalues + mp->bitmap + mp->open;
		if (need > n)
			n = need;
	}
	/* The Struct's variant without rows comes on top. */
	for (unsigned i = 0; i < sp->nfields; i++)
		if (f[i].type == GCSPEC_STRUCT && !f[i].is_member)
			return n + 1;
	return n;
}

static void fill(struct ex *x, unsigned k, struct gen_value *val, const struct gcspec_field *f)
{
	if (f->type == GCSPEC_UNICODE_STRING || f->type == GCSPEC_ANSI_STRING) {
		/* AnsiStrings stay ASCII: the model records them as text. */
		const char *s = f->type == GCSPEC_ANSI_STRING ? (k % 2 ? "A" : "ansi.name") : strings[k % NSTRINGS];
		int64_t at = gen_values_store(x->e->vals, s, strlen(s));

		if (at >= 0) {
			val->u = (uint64_t)at;
			val->len = (uint32_t)strlen(s);
		}
		return;
	}
	if (f->type == GCSPEC_GUID) {
		uint8_t g[16];
		int64_t at;

		memset(g, k % 2 ? 0xFF : 0x00, 16);
		g[0] = (uint8_t)k;
		if ((at = gen_values_store(x->e->vals, g, 16)) >= 0) {
			val->u = (uint64_t)at;
			val->len = 16;
		}
		return;
	}
	if (f->type == GCSPEC_STRUCT || f->type == GCSPEC_BINARY)
		return;
	if (f->type == GCSPEC_BOOLEAN) {
		val->u = k % 2;
		return;
	}
	if (f->type == GCSPEC_FLOAT || f->type == GCSPEC_DOUBLE) {
		static const double d[] = { 0.0, 1.0, -1.5, 1e30 };
		memcpy(&val->u, &d[k % 4], sizeof val->u);
		val->kind = GEN_VK_DOUBLE;
		return;
	}
	if (f->map >= 0) {
		const struct gcspec_map *mp = &gcspec_maps[f->map];
		unsigned j = k % (mp->nvalues + mp->bitmap + mp->open);
		uint64_t all = 0, top = 0;

		for (unsigned b = 0; b < mp->nvalues; b++) {
			uint64_t mv = gcspec_map_values[mp->first_value + b].value;

			all |= mv;
			top = mv > top ? mv : top;
		}
		if (j >= mp->nvalues && mp->bitmap && j == mp->nvalues) {
			val->u = all; /* bit map: all bits at once */
		} else if (j >= mp->nvalues) {
			/* Open enum: the value just past the known ones (a new
			 * runtime's reason or root kind); the oracle warns. */
			val->u = mp->bitmap ? (top << 1) : top + 1;
		} else {
			val->u = gcspec_map_values[mp->first_value + j].value;
		}
		return;
	}
	{
		uint64_t max = width_max(f->type, x->e->pointer_size);
		uint64_t b[4] = { 0, 1, max - 1, max };

		val->u = b[k % 4];
	}
}

/* An array member (BulkType's TypeParameters) of row `row`: none, one or
 * three values by turns, the last of three the type's largest; this also
 * sets its count member, whatever fill() gave it. */
static void fill_array(struct ex *x, unsigned k, unsigned row, unsigned idx)
{
	static const unsigned counts[] = { 0, 1, 3 };
	const struct gcspec_field *f = &gcspec_event_fields(&gcspec_events[x->e->vals->event])[idx];
	uint64_t vals[3];
	unsigned n = counts[k % 3];

	for (unsigned j = 0; j < n; j++)
		vals[j] = 0x7ff800001000ull + 0x100ull * k + j;
	if (n == 3)
		vals[2] = width_max(f->type, x->e->pointer_size);
	gen_values_set_member_array(x->e->vals, row, idx, vals, n);
}

static int one_variant(struct ex *x, unsigned event, unsigned k)
{
	const struct gcspec_event *sp = &gcspec_events[event];
	const struct gcspec_field *f = gcspec_event_fields(sp);
	struct gen_values *v;

	TRY(start(x, (int)event));
	v = x->e->vals;
	for (unsigned i = 0; i < sp->nfields; i++) {
		if (f[i].is_member || constrained(f[i].name) || f[i].type == GCSPEC_STRUCT)
			continue;
		if (f[i].type == GCSPEC_BINARY) {
			gen_values_set_bytes_at(v, i, "\0\1\2\3\xff", k % 6);
			continue;
		}
		fill(x, k, &v->field[i], &f[i]);
	}
	/* Maps used by constrained fields still get every value: those are
	 * written with the map value when the field is not a GC's own. */
	for (unsigned i = 0; i < sp->nfields; i++) {
		if (!f[i].is_member && f[i].map >= 0 && constrained(f[i].name) &&
		    strcmp(sp->name, "GCStart") != 0)
			fill(x, k, &v->field[i], &f[i]);
		if (!f[i].is_member && strcmp(f[i].name, "Generation") == 0)
			v->field[i].u = k % 3;
	}
	if (v->struct_field >= 0) {
		/* Variant 0 has no rows; then one or two, row r of variant k
		 * taking member values k - 1 + r, so every value appears. */
		unsigned rows = k == 0 ? 0 : 1 + k % 2;

		for (unsigned r = 0; r < rows; r++) {
			int row = gen_values_add_row(v);

			for (unsigned mi = 0; mi < v->nmembers; mi++) {
				unsigned idx = (unsigned)v->struct_field + 1 + mi;

				if (gcspec_field_is_array(&f[idx]))
					fill_array(x, k - 1 + r, (unsigned)row, idx);
				else
					fill(x, k - 1 + r, gen_values_cell(v, (unsigned)row, idx), &f[idx]);
			}
		}
	}
	constrain(x, k);
	if (x->join_time >= 0)
		gen_values_set_num(v, "JoinTime", (uint64_t)x->join_time);
	return send(x);
}

int gen_exhaustive_run(struct gen_emit *e, const struct gen_profile *profile, uint64_t seed,
		       uint64_t start_ticks, struct gen_coverage *cov, FILE *expect)
{
	return gen_exhaustive_run_shard(e, profile, seed, start_ticks, cov, 0, 1, expect);
}

int gen_exhaustive_run_shard(struct gen_emit *e, const struct gen_profile *profile, uint64_t seed,
			     uint64_t start_ticks, struct gen_coverage *cov, uint64_t shard_i,
			     uint64_t shard_n, FILE *expect)
{
	struct ex x = { e, profile, cov, start_ticks, 1, 1, 0, -1, expect, 0, shard_i,
		     shard_n ? shard_n : 1 };
	int ev_start = gen_profile_event(profile, "GCStart");
	int ev_end = gen_profile_event(profile, "GCEnd");
	int ev_stats = gen_profile_event(profile, "GCHeapStats");
	int ev_sb = gen_profile_event(profile, "GCSuspendEEBegin");
	int ev_se = gen_profile_event(profile, "GCSuspendEEEnd");
	int ev_rb = gen_profile_event(profile, "GCRestartEEBegin");
	int ev_re = gen_profile_event(profile, "GCRestartEEEnd");

	(void)seed;
	memset(cov, 0, sizeof *cov);
	e->per_event = cov->per_event;
	/* The GCs of the profile's versions frame everything else. */
	TRY(start(&x, ev_sb));
	gen_values_set_num(e->vals, "Reason", 1);
	/* A GC suspension carries the GC index before the GC it serves. */
	gen_values_set_num(e->vals, "Count", 0);
	TRY(send(&x));
	TRY(start(&x, ev_se));
	TRY(send(&x));
	TRY(start(&x, ev_start));
	gen_values_set_num(e->vals, "Count", 1);
	TRY(send(&x));
	for (unsigned ev = 0; ev < GCSPEC_NEVENTS; ev++) {
		const char *n = gcspec_events[ev].name;

		/* Pairs and GC framing events are written below as valid pairs. */
		if (!strcmp(n, "GCStart") || !strcmp(n, "GCEnd") || !strcmp(n, "GCSuspendEEBegin") ||
		    !strcmp(n, "GCSuspendEEEnd") || !strcmp(n, "GCRestartEEBegin") ||
		    !strcmp(n, "GCRestartEEEnd") || !strcmp(n, "GCFinalizersBegin") ||
		    !strcmp(n, "GCFinalizersEnd") || !strcmp(n, "GCJoin") ||
		    !strcmp(n, "GCFreeSegment") || !strcmp(n, "DestroyGCHandle") ||
		    !strcmp(n, "PrvDestroyGCHandle"))
			continue;
		for (unsigned k = 0, nv = nvariants(ev); k < nv; k++)
			if (mine(&x))
				TRY(one_variant(&x, ev, k));
	}
	/* Joins: start/end pairs per version. */
	for (unsigned ev = 0; ev < GCSPEC_NEVENTS; ev++) {
		if (strcmp(gcspec_events[ev].name, "GCJoin") != 0)
			continue;
		/* Every JoinType (and boundary) value. As in the runtime's
		 * t_join, a thread that waits (Join, 1) and the restart
		 * (Restart, 2) write a start and an end; the last thread to
		 * arrive (LastJoin, 0), the first of a reverse join (3) and
		 * any other type write only a start. */
		for (unsigned k = 0, nv = nvariants(ev); k < nv; k++) {
			int ti;
			uint64_t type;

			if (!mine(&x))
				continue;
			x.join_time = 0;
			TRY(one_variant(&x, ev, k));
			ti = gen_values_index(e->vals, "JoinType", 0);
			type = ti < 0 ? 1 : e->vals->field[ti].u;
			if (type != 1 && type != 2)
				continue;
			x.join_time = 1;
			TRY(one_variant(&x, ev, k));
		}
		x.join_time = -1;
	}
	TRY(start(&x, ev_end));
	gen_values_set_num(e->vals, "Count", 1);
	TRY(send(&x));
	TRY(start(&x, ev_stats));
	TRY(send(&x));
	TRY(start(&x, ev_rb));
	TRY(send(&x));
	TRY(start(&x, ev_re));
	TRY(send(&x));
	/* Every version of the GC framing events, as complete valid GCs. Each
	 * GCStart version with every Reason and every Type it can carry. */
	for (unsigned sv = 0; sv < GCSPEC_NEVENTS; sv++) {
		const struct gcspec_event *sp = &gcspec_events[sv];
		const struct gcspec_map *reasons = &gcspec_maps[GCSPEC_MAP_GCReasonMap];

		if (strcmp(sp->name, "GCStart") != 0)
			continue;
		/* r == nvalues: the reason just past the open map's values. */
		for (unsigned r = 0; r <= reasons->nvalues; r++) {
			uint64_t reason = 0;

			for (unsigned q = 0; q < reasons->nvalues; q++) {
				uint64_t mv = gcspec_map_values[reasons->first_value + q].value;

				if (q == r)
					reason = mv;
				else if (r == reasons->nvalues && mv >= reason)
					reason = mv + 1;
			}
			for (unsigned type = 0; type < 2; type++) {
				/* GCStart V0 cannot say "background": only blocking GCs. */
				if (type == 1 && sp->version == 0)
					break;
				unsigned depth = type ? 2 : r % 3;
				uint32_t c;

				if (!mine(&x))
					continue;
				c = ++x.gc_count;

				TRY(start(&x, (int)GCSPEC_EV_GCSuspendEEBegin_V1 - (r % 2)));
				gen_values_set_num(e->vals, "Reason", 1);
				gen_values_set_num(e->vals, "Count", c - 1);
				TRY(send(&x));
				TRY(start(&x, (int)GCSPEC_EV_GCSuspendEEEnd_V1 - (r % 2)));
				TRY(send(&x));
				TRY(start(&x, (int)sv));
				gen_values_set_num(e->vals, "Count", c);
				gen_values_set_num(e->vals, "Depth", depth);
				gen_values_set_num(e->vals, "Reason", reason);
				gen_values_set_num(e->vals, "Type", type);
				if (gen_values_index(e->vals, "ClientSequenceNumber", 0) >= 0) {
					const uint64_t b[4] = { 0, 1, UINT64_MAX - 1, UINT64_MAX };

					gen_values_set_num(e->vals, "ClientSequenceNumber",
							   b[(2 * r + type) % 4]);
				}
				TRY(send(&x));
				if (type == 1) {
					/* A foreground GC inside the background one. */
					uint32_t fc = ++x.gc_count;

					TRY(start(&x, (int)sv));
					gen_values_set_num(e->vals, "Count", fc);
					gen_values_set_num(e->vals, "Depth", 1);
					gen_values_set_num(e->vals, "Type", 2);
					TRY(send(&x));
					TRY(start(&x, (int)GCSPEC_EV_GCEnd - (int)(r % 2) + 1));
					gen_values_set_num(e->vals, "Count", fc);
					gen_values_set_num(e->vals, "Depth", 1);
					TRY(send(&x));
				}
				TRY(start(&x, (int)GCSPEC_EV_GCEnd + (int)(r % 2)));
				gen_values_set_num(e->vals, "Count", c);
				gen_values_set_num(e->vals, "Depth", depth);
				TRY(send(&x));
				TRY(start(&x, (int)GCSPEC_EV_GCHeapStats + (int)(r % 3)));
				TRY(send(&x));
				TRY(start(&x, (int)GCSPEC_EV_GCRestartEEBegin + (int)(r % 2)));
				TRY(send(&x));
				TRY(start(&x, (int)GCSPEC_EV_GCRestartEEEnd + (int)(r % 2)));
				TRY(send(&x));
			}
		}
	}
	/* Non-GC suspensions with every suspension reason (Count 0xFFFFFFFF), and
	 * r == nvalues: the reason just past the map's values when it is open. */
	for (unsigned r = 0; r < gcspec_maps[GCSPEC_MAP_GCSuspendEEReasonMap].nvalues +
			gcspec_maps[GCSPEC_MAP_GCSuspendEEReasonMap].open; r++) {
		const struct gcspec_map *mp = &gcspec_maps[GCSPEC_MAP_GCSuspendEEReasonMap];
		uint64_t reason = 0;

		for (unsigned q = 0; q < mp->nvalues; q++) {
			uint64_t mv = gcspec_map_values[mp->first_value + q].value;

			if (q == r)
				reason = mv;
			else if (r == mp->nvalues && mv >= reason)
				reason = mv + 1;
		}
		/* SuspendForGC is written by the GCs above, with their counts. */
		if (reason == 1)
			continue;
		for (unsigned ver = 0; ver < 2; ver++) {
			if (!mine(&x))
				continue;
			TRY(start(&x, (int)GCSPEC_EV_GCSuspendEEBegin + (int)ver));
			gen_values_set_num(e->vals, "Reason", reason);
			gen_values_set_num(e->vals, "Count", 0xFFFFFFFFu);
			TRY(send(&x));
			TRY(start(&x, (int)GCSPEC_EV_GCSuspendEEEnd));
			TRY(send(&x));
			TRY(start(&x, (int)GCSPEC_EV_GCRestartEEBegin));
			TRY(send(&x));
			TRY(start(&x, (int)GCSPEC_EV_GCRestartEEEnd));
			TRY(send(&x));
		}
	}
	/* Pairs outside GCs: finalizers, segments, handles, every version. */
	for (unsigned v = 0; v < 2; v++) {
		if (!mine(&x))
			continue;
		TRY(start(&x, (int)GCSPEC_EV_GCFinalizersBegin + (int)v));
		TRY(send(&x));
		TRY(start(&x, (int)GCSPEC_EV_GCFinalizersEnd + (int)v));
		gen_values_set_num(e->vals, "Count", v ? 0xFFFFFFFFu : 0);
		TRY(send(&x));
		TRY(start(&x, (int)GCSPEC_EV_GCFreeSegment + (int)v));
		gen_values_set_num(e->vals, "Address", 0x10000000 + 0x100000 * v);
		TRY(send(&x));
	}
	for (unsigned h = 0; h < 2; h++) {
		if (!mine(&x))
			continue;
		TRY(start(&x, h ? (int)GCSPEC_EV_PrvDestroyGCHandle : (int)GCSPEC_EV_DestroyGCHandle));
		gen_values_set_num(e->vals, "HandleID", 0x100000 + 8 * h);
		TRY(send(&x));
	}
	e->per_event = NULL;
	return 0;
}

/* Is field i of sp the count of an array member? */
static int sizes_array(const struct gcspec_event *sp, unsigned i)
{
	const struct gcspec_field *f = gcspec_event_fields(sp);

	for (unsigned k = 0; k < sp->nfields; k++)
		if (gcspec_field_is_array(&f[k]) && (unsigned)f[k].size_field == i)
			return 1;
	return 0;
}

int gen_coverage_report(const struct gen_coverage *cov, FILE *out)
{
	unsigned evs = 0, vals = 0, nvals = 0, outside = 0, nopen = 0;

	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		evs += cov->per_event[i] > 0;
		if (!cov->per_event[i])
			fprintf(out, "missing event %s\n", gcspec_events[i].symbol);
	}
	/* Every value of every map in every field that uses it. */
	for (unsigned ev = 0; ev < GCSPEC_NEVENTS; ev++) {
		const struct gcspec_event *sp = &gcspec_events[ev];

		for (unsigned fi = sp->first_field; fi < sp->first_field + sp->nfields; fi++) {
			const struct gcspec_field *f = &gcspec_fields[fi];
			const struct gcspec_map *mp;

			if (f->map < 0)
				continue;
			mp = &gcspec_maps[f->map];
			for (unsigned j = 0; j < mp->nvalues; j++) {
				nvals++;
				if (j < 64 && (cov->field_values_seen[fi] >> j & 1))
					vals++;
				else
					fprintf(out, "missing %s.%s = %s\n", sp->symbol, f->name,
						gcspec_map_values[mp->first_value + j].name);
			}
			if (mp->open) {
				nopen++;
				if (cov->field_outside_seen[fi])
					outside++;
				else
					fprintf(out, "missing %s.%s outside open map %s\n", sp->symbol,
						f->name, mp->name);
			}
		}
	}
	/* Boundaries in every integer field the invariants leave free, and
	 * every awkward string in every UnicodeString field. */
	unsigned nint = 0, ints = 0, nstr = 0, strs = 0;

	for (unsigned ev = 0; ev < GCSPEC_NEVENTS; ev++) {
		const struct gcspec_event *sp = &gcspec_events[ev];

		for (unsigned fi = sp->first_field; fi < sp->first_field + sp->nfields; fi++) {
			const struct gcspec_field *f = &gcspec_fields[fi];

			if (f->map >= 0 || (!f->is_member && constrained(f->name)))
				continue;
			/* An array and its count are sized to 0, 1, 3 values,
			 * not boundaries (fill_array). */
			if (gcspec_field_is_array(f) || sizes_array(sp, fi - sp->first_field))
				continue;
			if (is_integer(f->type)) {
				nint++;
				if (cov->bounds_seen[fi] == 0xF)
					ints++;
				else
					fprintf(out, "missing %s.%s: 0, 1, max-1 and max (seen 0x%x)\n",
						sp->symbol, f->name, cov->bounds_seen[fi]);
			} else if (f->type == GCSPEC_UNICODE_STRING) {
				nstr++;
				if (cov->strings_seen[fi] == (1u << NSTRINGS) - 1)
					strs++;
				else
					fprintf(out, "missing %s.%s: every awkward string (seen 0x%x)\n",
						sp->symbol, f->name, cov->strings_seen[fi]);
			}
		}
	}
	fprintf(out, "event-versions: %u/%u\nmap values: %u/%u\n", evs, GCSPEC_NEVENTS, vals, nvals);
	fprintf(out, "open-map fields with a value outside the map: %u/%u\n", outside, nopen);
	fprintf(out, "integer fields with 0, 1, max-1 and max: %u/%u\n", ints, nint);
	fprintf(out, "string fields with each of %u awkward strings: %u/%u\n", (unsigned)NSTRINGS,
		strs, nstr);
	return evs == GCSPEC_NEVENTS && vals == nvals && outside == nopen && ints == nint &&
	       strs == nstr;
}
