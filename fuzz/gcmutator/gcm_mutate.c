/*
 * gcm_mutate.c - the structure-aware mutator (gcmutator.h).
 *
 * One call: parse the input into a gcm_stream (or generate one when it does
 * not parse), apply one to four operators drawn from the table below, write
 * the stream with a gen writer in an allowed container, and maybe damage the
 * written bytes with one of gen's container faults. Every random choice comes
 * from one gen_rng seeded with the seed and a hash of the input, so the
 * output is a function of (input, seed, formats).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/gcmutator/gcm_model.h"
#include "fuzz/gcmutator/gcm_values.h"
#include "fuzz/gcmutator/gcmutator.h"

#include "gen/model/emit.h"
#include "gen/model/encode.h"
#include "gen/faults/mutate_container.h"
#include "gen/formats/nettrace/nettrace_w.h"
#include "gen/model/rng.h"

/* The containers the mutator writes: mask bit, gcgen --format, the oracle
 * reader that reads it back, and its format_version there. */
static const struct container {
	unsigned bit;
	const char *writer;
	const char *reader;
	unsigned version;
} containers[] = {
	{ GCM_FORMAT_CBOR, "cbor", "cbor-model", 1 },
	{ GCM_FORMAT_NETTRACE_V4, "nettrace-v4", "nettrace", 4 },
	{ GCM_FORMAT_NETTRACE_V5, "nettrace-v5", "nettrace", 5 },
	{ GCM_FORMAT_NETTRACE_V6, "nettrace-v6", "nettrace", 6 },
	{ GCM_FORMAT_CTF, "ctf", "ctf", 0 },
	{ GCM_FORMAT_ETL, "etl", "etl", 0 },
	/* The same reader, the compressed path (LZXPRESS buffers). */
	{ GCM_FORMAT_ETL, "etl-compressed", "etl", 0 },
};
#define NCONTAINERS (sizeof containers / sizeof containers[0])

/* Scratch kept between calls: a call allocates nothing it does not free. */
static struct gen_values vals;
static uint8_t payload_buf[GEN_PAYLOAD_MAX];
static char last[256];

/* What one call is working on. */
struct job {
	struct gen_rng rng;
	struct gcm_stream s;
	const struct container *out;
	struct gen_nettrace_opts nt;
	int use_nt;
	int fault;                   /* apply a gen container fault after writing */
	const struct gen_container_fault *dir_fault; /* the one chosen */
	int out_is_dir;              /* the writer made a directory (CTF) */
	int damage;                  /* overwrite a few written bytes */
};

static void note(const char *what)
{
	size_t n = strlen(last);

	if (n + strlen(what) + 3 < sizeof last)
		snprintf(last + n, sizeof last - n, "%s%s", n ? "; " : "", what);
}

const char *gcm_last_mutation(void)
{
	return last;
}

static uint64_t below(struct job *j, uint64_t n)
{
	return gen_rng_below(&j->rng, n);
}

/* --- values worth trying ------------------------------------------------------ */

static uint64_t width_mask(unsigned w)
{
	return w >= 8 ? ~0ull : (1ull << (8 * w)) - 1;
}

/* A boundary value for an integer of w bytes. */
static uint64_t boundary(struct job *j, unsigned w)
{
	uint64_t max = width_mask(w), half = max >> 1;

	switch (below(j, 9)) {
	case 0: return 0;
	case 1: return 1;
	case 2: return 2;
	case 3: return max;
	case 4: return max - 1;
	case 5: return half;
	case 6: return half + 1;
	case 7: return 0xFFFFFFFFu & max;
	default: return gen_rng_next(&j->rng) & max;
	}
}

/* A value of the field's map, or one just outside it. */
static uint64_t map_value(struct job *j, const struct gcspec_field *f, unsigned w)
{
	const struct gcspec_map *m = &gcspec_maps[f->map];
	const struct gcspec_map_value *mv = &gcspec_map_values[m->first_value];
	uint64_t all = 0, top = 0;

	for (unsigned k = 0; k < m->nvalues; k++) {
		all |= mv[k].value;
		if (mv[k].value > top)
			top = mv[k].value;
	}
	switch (below(j, 4)) {
	case 0:
		return m->nvalues ? mv[below(j, m->nvalues)].value : 0;
	case 1:
		if (m->bitmap) /* a bit no flag defines */
			for (unsigned b = 0; b < 8 * w; b++)
				if (!(all >> b & 1))
					return (all | 1ull << b) & width_mask(w);
		return (top + 1) & width_mask(w);
	case 2:
		return m->bitmap ? all : top;
	default:
		return boundary(j, w);
	}
}

#define S(x) { x, sizeof x - 1 }
static const struct { const char *s; size_t n; } strings[] = {
	S(""), S("a"), S("System.Object"), S("S\xc3\xbdstem.\xc3\x91" "ame"),
	S("\xe6\xbc\xa2\xe5\xad\x97"), S("\xf0\x9f\x98\x80 non-BMP"), S("a\0b"),
	S("\xff\xfe malformed"), S("%s%n\\\"\n\t"),
	S("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	  "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
};
#undef S

/* Set field i of vals (top level or member of row `row`) to something worth
 * trying. */
static void set_interesting(struct job *j, const struct gcspec_field *f, struct gen_value *x,
                            unsigned psize)
{
	unsigned w = gen_type_width(f->type, psize);

	switch (f->type) {
	case GCSPEC_UNICODE_STRING: case GCSPEC_ANSI_STRING: {
		unsigned k = (unsigned)below(j, sizeof strings / sizeof strings[0]);
		int64_t at = gen_values_store(&vals, strings[k].s, strings[k].n);

		if (at >= 0) {
			x->u = (uint64_t)at;
			x->len = (uint32_t)strings[k].n;
		}
		return;
	}
	case GCSPEC_GUID: case GCSPEC_BINARY: {
		uint8_t b[64];
		uint32_t n = f->type == GCSPEC_GUID ? 16 : (uint32_t)below(j, sizeof b);
		int64_t at;

		for (uint32_t k = 0; k < n; k++)
			b[k] = (uint8_t)gen_rng_next(&j->rng);
		if ((at = gen_values_store(&vals, b, n)) >= 0) {
			x->u = (uint64_t)at;
			x->len = n;
		}
		return;
	}
	case GCSPEC_FLOAT: case GCSPEC_DOUBLE: {
		static const uint64_t bits[] = { 0, 0x8000000000000000ull, 0x7FF0000000000000ull,
			0x7FF8000000000000ull, 0x3FF0000000000000ull, 0x7FEFFFFFFFFFFFFFull, 1 };
		x->u = bits[below(j, sizeof bits / sizeof bits[0])];
		return;
	}
	case GCSPEC_STRUCT:
		return;
	default:
		x->u = f->map >= 0 && below(j, 3) ? map_value(j, f, w ? w : 8) : boundary(j, w ? w : 8);
	}
}

/* --- payload edits -------------------------------------------------------------- */

static const struct gcspec_event *spec_of(const struct gcm_event *e)
{
	return e->provider >= 0 ? gcspec_lookup((unsigned)e->provider, e->id, e->version) : NULL;
}

/* Replace event e's payload with `len` bytes (into the arena: the old bytes
 * stay behind unused; the arena is freed with the stream). */
static int set_payload(struct job *j, size_t i, const uint8_t *p, uint32_t len)
{
	struct gcm_event e = j->s.ev[i];
	size_t n = j->s.n;

	e.payload_len = len;
	if (gcm_push(&j->s, &e, p) != 0)
		return -1;
	j->s.ev[i] = j->s.ev[n];
	j->s.n = n;
	return 0;
}

static int encode_vals(struct job *j, size_t i, unsigned psize)
{
	long n = gen_encode(&vals, psize, payload_buf, sizeof payload_buf);

	return n < 0 ? -1 : set_payload(j, i, payload_buf, (uint32_t)n);
}

/* Change one field (or the rows) of event i through its values. */
static int op_field(struct job *j, size_t i)
{
	struct gcm_event *e = &j->s.ev[i];
	const struct gcspec_event *sp = spec_of(e);
	const struct gcspec_field *f;
	unsigned psize = j->s.pointer_size, k;

	if (!sp || gcm_lift(sp, gcm_payload(&j->s, e), e->payload_len, psize, &vals) != 0)
		return -1;
	f = gcspec_event_fields(sp);
	k = (unsigned)below(j, sp->nfields);
	if (vals.struct_field >= 0 && below(j, 3) == 0) {
		const struct gcspec_field *sf = &f[vals.struct_field];

		switch (below(j, 3)) {
		case 0: { /* one more row, its members worth trying */
			int row = gen_values_add_row(&vals);

			for (unsigned m = 1; row >= 0 && m <= sf->nmembers; m++) {
				unsigned idx = (unsigned)vals.struct_field + m;

				/* an array member: 0 to 3 values, its count with them */
				if (gcspec_field_is_array(&f[idx])) {
					uint64_t a[3];
					unsigned n = (unsigned)below(j, 4);

					for (unsigned q = 0; q < n; q++)
						a[q] = boundary(j, gen_type_width(f[idx].type, psize));
					gen_values_set_member_array(&vals, (unsigned)row, idx, a, n);
					continue;
				}
				set_interesting(j, &f[idx], gen_values_cell(&vals, (unsigned)row, idx),
				                psize);
			}
			note("struct-add-row");
			break;
		}
		case 1: /* one row fewer */
			if (vals.nrows)
				vals.nrows--;
			if (sf->size_field >= 0)
				vals.field[sf->size_field].u = vals.nrows;
			note("struct-drop-row");
			break;
		default: /* a count that disagrees with the rows */
			if (sf->size_field >= 0)
				vals.field[sf->size_field].u = boundary(j, 4);
			note("struct-count");
		}
	} else if (f[k].is_member && gcspec_field_is_array(&f[k])) {
		/* a new array, 0 to 3 boundary values; its count follows it */
		uint64_t a[3];
		unsigned n = (unsigned)below(j, 4);

		if (!vals.nrows)
			return -1;
		for (unsigned q = 0; q < n; q++)
			a[q] = boundary(j, gen_type_width(f[k].type, psize));
		if (gen_values_set_member_array(&vals, (unsigned)below(j, vals.nrows), k, a, n) != 0)
			return -1;
		note("member-array");
	} else if (f[k].is_member) {
		if (!vals.nrows)
			return -1;
		set_interesting(j, &f[k], gen_values_cell(&vals, (unsigned)below(j, vals.nrows), k),
		                psize);
		note("member-value");
	} else if (f[k].type != GCSPEC_STRUCT) {
		set_interesting(j, &f[k], &vals.field[k], psize);
		note(f[k].map >= 0 ? "field-map-value" : "field-boundary");
	}
	return encode_vals(j, i, psize);
}

/* Byte-level payload damage at the places decoders trip over. */
static int op_payload_bytes(struct job *j, size_t i)
{
	struct gcm_event *e = &j->s.ev[i];
	uint32_t len = e->payload_len, at;
	uint8_t *p = payload_buf;

	if (len > sizeof payload_buf - 64)
		return -1;
	if (len)
		memcpy(p, gcm_payload(&j->s, e), len);
	switch (below(j, 5)) {
	case 0: /* truncate */
		len = (uint32_t)below(j, len + 1);
		note("payload-truncate");
		break;
	case 1: { /* extend */
		uint32_t n = 1 + (uint32_t)below(j, 16);

		for (uint32_t k = 0; k < n; k++)
			p[len + k] = (uint8_t)gen_rng_next(&j->rng);
		len += n;
		note("payload-extend");
		break;
	}
	case 2: /* an unpaired UTF-16 surrogate on an even offset */
		if (len < 2)
			return -1;
		at = (uint32_t)below(j, len / 2) * 2;
		p[at] = 0x00;
		p[at + 1] = (uint8_t)(below(j, 2) ? 0xD8 : 0xDC);
		note("payload-surrogate");
		break;
	case 3: { /* a boundary integer at any offset */
		unsigned w = 1u << below(j, 4);
		uint64_t v;

		if (len < w)
			return -1;
		at = (uint32_t)below(j, len - w + 1);
		v = boundary(j, w);
		for (unsigned k = 0; k < w; k++)
			p[at + k] = (uint8_t)(v >> 8 * k);
		note("payload-integer");
		break;
	}
	default: /* empty */
		len = 0;
		note("payload-empty");
	}
	return set_payload(j, i, p, len);
}

/* A new event of any spec event-version, values worth trying. */
static int op_insert_new(struct job *j)
{
	unsigned idx = (unsigned)below(j, GCSPEC_NEVENTS), psize = j->s.pointer_size;
	const struct gcspec_event *sp = &gcspec_events[idx];
	const struct gcspec_field *f = gcspec_event_fields(sp);
	struct gcm_event e;
	size_t at, n;
	long len;

	if (gen_values_reset(&vals, idx) != 0)
		return -1;
	for (unsigned k = 0; k < sp->nfields; k++)
		if (!f[k].is_member && below(j, 2))
			set_interesting(j, &f[k], &vals.field[k], psize);
	for (unsigned r = (unsigned)below(j, 3); vals.struct_field >= 0 && r > 0; r--) {
		int row = gen_values_add_row(&vals);

		for (unsigned m = 1; row >= 0 && m <= f[vals.struct_field].nmembers; m++)
			set_interesting(j, &f[vals.struct_field + m],
			                gen_values_cell(&vals, (unsigned)row,
			                                (unsigned)vals.struct_field + m), psize);
	}
	if ((len = gen_encode(&vals, psize, payload_buf, sizeof payload_buf)) < 0)
		return -1;
	memset(&e, 0, sizeof e);
	at = j->s.n ? (size_t)below(j, j->s.n + 1) : 0;
	e.provider = sp->provider;
	e.id = sp->id;
	e.version = sp->version;
	e.level = sp->level;
	e.opcode = sp->opcode;
	e.keywords = sp->keywords;
	e.timestamp = j->s.n ? j->s.ev[at < j->s.n ? at : j->s.n - 1].timestamp : j->s.start_ticks;
	e.thread_id = j->s.n ? j->s.ev[below(j, j->s.n)].thread_id : 1;
	e.payload_len = (uint32_t)len;
	e.fields = 1;
	if (gcm_push(&j->s, &e, payload_buf) != 0)
		return -1;
	n = j->s.n - 1;
	e = j->s.ev[n];
	memmove(&j->s.ev[at + 1], &j->s.ev[at], (n - at) * sizeof e);
	j->s.ev[at] = e;
	note("insert-event");
	return 0;
}

/* Header fields of event i. */
static int op_header(struct job *j, size_t i)
{
	struct gcm_event *e = &j->s.ev[i];
	const struct gcm_event *o = &j->s.ev[below(j, j->s.n)];

	switch (below(j, 10)) {
	case 0:
		e->version = (uint8_t)(below(j, 4) ? (uint64_t)e->version + (below(j, 2) ? 1 : 255)
		                                   : below(j, 256));
		note("event-version");
		break;
	case 1:
		e->id = (uint16_t)(below(j, 3) ? (uint64_t)e->id + (below(j, 2) ? 1 : 0xFFFF)
		                               : boundary(j, 2));
		note("event-id");
		break;
	case 2:
		e->provider = (int)below(j, GCSPEC_NPROVIDERS + 1) - 1;
		note("event-provider");
		break;
	case 3:
		e->timestamp = below(j, 2) ? o->timestamp - below(j, 3) : boundary(j, 8);
		note("event-timestamp");
		break;
	case 4:
		e->thread_id = below(j, 2) ? o->thread_id : boundary(j, 8);
		note("event-thread");
		break;
	case 5:
		e->level = (uint8_t)boundary(j, 1);
		e->opcode = (uint8_t)boundary(j, 1);
		note("event-level-opcode");
		break;
	case 6:
		e->keywords = below(j, 2) ? e->keywords ^ 1ull << below(j, 64) : boundary(j, 8);
		note("event-keywords");
		break;
	case 7:
		e->stack_id = (uint32_t)below(j, 6);
		e->processor = (uint32_t)boundary(j, 4);
		note("event-stack-processor");
		break;
	case 8:
		e->fields = (uint8_t)below(j, 3);
		note("event-fields");
		break;
	default: { /* another event's header, this payload */
		struct gcm_event keep = *e;

		*e = *o;
		e->payload_off = keep.payload_off;
		e->payload_len = keep.payload_len;
		note("event-header-swap");
	}
	}
	return 0;
}

/* Drop, duplicate, swap, move or reverse events. */
static int op_order(struct job *j)
{
	struct gcm_stream *s = &j->s;
	size_t a = (size_t)below(j, s->n), b = (size_t)below(j, s->n);
	struct gcm_event t;

	switch (below(j, 5)) {
	case 0: { /* drop a run */
		size_t k = 1 + (size_t)below(j, below(j, 4) ? 1 : 8);

		if (k > s->n - a)
			k = s->n - a;
		memmove(&s->ev[a], &s->ev[a + k], (s->n - a - k) * sizeof t);
		s->n -= k;
		note("drop-events");
		return 0;
	}
	case 1: /* duplicate a at b: both share the payload bytes */
		t = s->ev[a];
		t.payload_len = 0;
		if (gcm_push(s, &t, NULL) != 0)
			return -1;
		t = s->ev[a];
		memmove(&s->ev[b + 1], &s->ev[b], (s->n - 1 - b) * sizeof t);
		s->ev[b] = t;
		note("duplicate-event");
		return 0;
	case 2:
		t = s->ev[a];
		s->ev[a] = s->ev[b];
		s->ev[b] = t;
		note("swap-events");
		return 0;
	case 3: /* move a to b */
		t = s->ev[a];
		if (a < b)
			memmove(&s->ev[a], &s->ev[a + 1], (b - a) * sizeof t);
		else
			memmove(&s->ev[b + 1], &s->ev[b], (a - b) * sizeof t);
		s->ev[b] = t;
		note("move-event");
		return 0;
	default: /* reverse a run */
		if (a > b) {
			size_t x = a;

			a = b;
			b = x;
		}
		for (; a < b; a++, b--) {
			t = s->ev[a];
			s->ev[a] = s->ev[b];
			s->ev[b] = t;
		}
		note("reverse-events");
		return 0;
	}
}

/* Stream header: pointer size (payloads converted or not), clock, pid. */
static int op_stream(struct job *j)
{
	struct gcm_stream *s = &j->s;

	switch (below(j, 4)) {
	case 0: { /* the other pointer size, payloads re-encoded where they decode */
		unsigned from = s->pointer_size, to = from == 4 ? 8 : 4;

		if (below(j, 2))
			for (size_t i = 0; i < s->n; i++) {
				const struct gcspec_event *sp = spec_of(&s->ev[i]);

				if (sp && gcm_lift(sp, gcm_payload(s, &s->ev[i]), s->ev[i].payload_len,
				                   from, &vals) == 0)
					encode_vals(j, i, to);
			}
		s->pointer_size = (uint8_t)to;
		note("pointer-size");
		return 0;
	}
	case 1:
		s->clock_frequency = boundary(j, 8);
		note("clock-frequency");
		return 0;
	case 2:
		s->start_ticks = boundary(j, 8);
		s->process_id = (uint32_t)boundary(j, 4);
		note("start-ticks-pid");
		return 0;
	default: { /* every timestamp shifted or scaled */
		uint64_t d = boundary(j, 8);

		for (size_t i = 0; i < s->n; i++)
			s->ev[i].timestamp += d;
		note("timestamps-shift");
		return 0;
	}
	}
}

/* Container: output format, block boundaries, sequence points, compression,
 * metadata placement; or a gen container fault / raw damage afterwards. */
static void op_container(struct job *j, unsigned formats)
{
	const struct container *c = &containers[below(j, NCONTAINERS)];

	switch (below(j, 4)) {
	case 0:
		if (c->bit & formats) {
			j->out = c;
			note("container-format");
		}
		break;
	case 1:
		j->fault = 1;
		note("container-fault");
		break;
	case 2:
		j->damage = 1 + (int)below(j, 4);
		note("container-bytes");
		break;
	default:
		j->use_nt = 1;
		j->nt.uncompressed = (int)below(j, 2);
		j->nt.full_metadata = (int)below(j, 2);
		j->nt.metadata_upfront = below(j, 4) == 0;
		j->nt.block_bytes = below(j, 2) ? 20 + (uint32_t)below(j, 2000) : 0;
		j->nt.sp_every = (uint32_t)below(j, 4);
		note("container-layout");
	}
}

/* --- one call -------------------------------------------------------------------- */

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	return h;
}

static const struct container *container_of(const struct gcm_stream *s, struct job *j,
                                            unsigned formats)
{
	const struct container *pick[NCONTAINERS];
	unsigned n = 0;

	for (unsigned i = 0; i < NCONTAINERS; i++)
		if (strcmp(containers[i].reader, s->format) == 0 && (containers[i].bit & formats) &&
		    (!containers[i].version ||
		     (containers[i].version >= 6) == (s->format_version >= 6)))
			pick[n++] = &containers[i];
	if (!n)
		for (unsigned i = 0; i < NCONTAINERS; i++)
			if (containers[i].bit & formats)
				pick[n++] = &containers[i];
	return n ? pick[below(j, n)] : &containers[0];
}

static void start(struct job *j, const uint8_t *data, size_t size, unsigned seed,
                  unsigned formats)
{
	memset(j, 0, sizeof *j);
	last[0] = 0;
	gen_rng_seed(&j->rng, seed ^ hash_bytes(data, size));
	gcm_stream_init(&j->s);
	if (gcm_parse(&j->s, data, size, NULL) != 0 || (!j->s.n && below(j, 2))) {
		gcm_generate(&j->s, gen_rng_next(&j->rng), 1 + (unsigned)below(j, 3));
		note("generated");
	}
	j->out = container_of(&j->s, j, formats);
	j->nt.version = j->out->version;
}

/* One of gen's container faults for the output container, or NULL. */
static const struct gen_container_fault *pick_fault(struct job *j)
{
	const struct gen_container_fault *cf, *pick = NULL;
	unsigned n = 0;

	for (unsigned i = 0; (cf = gen_container_fault_at(i)); i++)
		if (gen_container_fault_applies(cf, j->out->writer) && below(j, ++n) == 0)
			pick = cf;
	return pick;
}

/* A directory container's fault is applied to the written directory. */
static void apply_dir_fault(const char *dir, void *arg)
{
	struct job *j = arg;
	char err[256];

	j->out_is_dir = 1;
	if (j->fault && j->dir_fault)
		gen_container_fault_write_dir(j->dir_fault, dir, gen_rng_next(&j->rng), NULL, err,
		                              sizeof err);
}

/* Write the stream in j->out; shrink it until it fits max. Returns the
 * size written into dst, 0 when nothing could be written. */
static size_t finish(struct job *j, uint8_t *dst, size_t max)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int nettrace = strcmp(j->out->reader, "nettrace") == 0;

	j->nt.version = j->out->version;
	if (j->fault)
		j->dir_fault = pick_fault(j);
	for (int tries = 0; tries < 12; tries++) {
		if (gcm_encode_hook(&j->s, j->out->writer, nettrace && j->use_nt ? &j->nt : NULL,
		                    apply_dir_fault, j, &buf, &len) != 0) {
			j->s.n /= 2; /* a writer refused an event: shed some and retry */
			continue;
		}
		if (len <= max)
			break;
		free(buf);
		buf = NULL;
		j->s.n = j->s.n * max / len * 9 / 10;
	}
	if (!buf)
		return 0;
	if (j->fault && !j->out_is_dir) {
		const struct gen_container_fault *pick = j->dir_fault;

		if (pick) {
			struct gen_container_result r;
			const char *why;

			memset(&r, 0, sizeof r);
			if (pick->apply(pick, buf, len, gen_rng_next(&j->rng), &r, &why) == 0) {
				free(buf);
				buf = r.data;
				len = r.len;
			}
		}
	}
	for (int k = 0; k < j->damage && len; k++) {
		size_t at = (size_t)below(j, len);

		if (below(j, 4) == 0)
			len = at;
		else
			buf[at] = (uint8_t)boundary(j, 1);
	}
	if (len > max)
		len = max;
	if (len)
		memcpy(dst, buf, len);
	free(buf);
	return len;
}

size_t gcm_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed,
                  unsigned formats)
{
	static struct job j;
	unsigned nops;
	size_t out;

	start(&j, data, size, seed, formats);
	nops = 1 + (unsigned)below(&j, 4);
	for (unsigned k = 0; k < nops; k++) {
		uint64_t r = below(&j, 100);

		if (!j.s.n || r < 8)
			op_insert_new(&j);
		else if (r < 40) {
			if (op_field(&j, (size_t)below(&j, j.s.n)) != 0)
				op_payload_bytes(&j, (size_t)below(&j, j.s.n));
		}
		else if (r < 52)
			op_payload_bytes(&j, (size_t)below(&j, j.s.n));
		else if (r < 70)
			op_header(&j, (size_t)below(&j, j.s.n));
		else if (r < 84)
			op_order(&j);
		else if (r < 90)
			op_stream(&j);
		else
			op_container(&j, formats);
	}
	out = finish(&j, data, max_size);
	gcm_stream_free(&j.s);
	return out ? out : (size <= max_size ? size : max_size);
}

size_t gcm_crossover(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size,
                     uint8_t *out, size_t max_out, unsigned int seed, unsigned formats)
{
	static struct job j;
	static struct gcm_stream other;
	size_t at, from, to, n;

	start(&j, a, a_size, seed ^ (unsigned)hash_bytes(b, b_size), formats);
	gcm_stream_init(&other);
	if (gcm_parse(&other, b, b_size, NULL) != 0 || !other.n)
		gcm_generate(&other, gen_rng_next(&j.rng), 1);
	/* A's events up to `at`, a run of B's, then the rest of A's. */
	at = (size_t)below(&j, j.s.n + 1);
	from = (size_t)below(&j, other.n + 1);
	/* A short run: splicing whole streams would only make inputs grow. */
	to = from + (size_t)below(&j, (other.n - from < 64 ? other.n - from : 64) + 1);
	n = j.s.n;
	for (size_t i = from; i < to; i++)
		if (gcm_push(&j.s, &other.ev[i], gcm_payload(&other, &other.ev[i])) != 0)
			break;
	{
		/* Rotate [at, n) behind the spliced run [n, j.s.n). */
		size_t added = j.s.n - n, tail = n - at;
		struct gcm_event *tmp = malloc((tail ? tail : 1) * sizeof *tmp);

		if (tmp && j.s.ev) {
			memcpy(tmp, &j.s.ev[at], tail * sizeof *tmp);
			memmove(&j.s.ev[at], &j.s.ev[n], added * sizeof *tmp);
			memcpy(&j.s.ev[at + added], tmp, tail * sizeof *tmp);
		}
		free(tmp);
	}
	note("crossover");
	gcm_stream_free(&other);
	n = finish(&j, out, max_out);
	gcm_stream_free(&j.s);
	if (!n) {
		n = a_size < max_out ? a_size : max_out;
		if (n)
			memcpy(out, a, n);
	}
	return n;
}

size_t gcm_seed_stream(uint8_t *out, size_t max_out, unsigned int seed, unsigned formats)
{
	static struct job j;
	size_t n;

	memset(&j, 0, sizeof j);
	last[0] = 0;
	gen_rng_seed(&j.rng, seed);
	gcm_stream_init(&j.s);
	if (gcm_generate(&j.s, gen_rng_next(&j.rng), 1 + (unsigned)below(&j, 3)) != 0)
		return 0;
	note("generated");
	j.out = container_of(&j.s, &j, formats);
	n = finish(&j, out, max_out);
	gcm_stream_free(&j.s);
	return n;
}
