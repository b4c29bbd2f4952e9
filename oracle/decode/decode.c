/*
 * decode.c - decode a payload by its event-version's template (see decode.h).
 *
 * One loop over the gcspec fields does every event-version: no per-event
 * code. Sizes and counts come from the payload, so each is checked against
 * the bytes that remain before it is used; reads go through memcpy so that
 * unaligned payloads are safe.
 */
#include <string.h>

#include "oracle/decode/decode.h"
#include "oracle/decode/decode_plan.h"
#include "util/utf.h"

struct dstate {
	struct or_ctx *ctx;            /* NULL: silent */
	const struct or_event *ev;
	const struct gcspec_event *spec;
	const struct gcspec_field *f;
	const struct or_pfield *pf;    /* the plan, indexed like f */
	const uint8_t *p;
	uint32_t len;
	unsigned psize;
	long elem;                     /* struct element being decoded, or -1 */
	int exact;                     /* or_decode_fits: any problem fails */
};

uint64_t or_le(const uint8_t *p, unsigned width)
{
	uint64_t v = 0;

	switch (width) {
	case 1: return p[0];
	case 2: return or_ld16(p);
	case 4: return or_ld32(p);
	case 8: return or_ld64(p);
	}
	for (unsigned i = width < 8 ? width : 8; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

const char *or_type_name(unsigned type)
{
	static const char *const names[] = {
		"?", "UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16",
		"Int32", "Int64", "Float", "Double", "Boolean", "Pointer", "GUID",
		"UnicodeString", "AnsiString", "Binary", "Struct"
	};
	return type < sizeof names / sizeof names[0] ? names[type] : "?";
}

int or_field_index(const struct gcspec_event *spec, const char *name)
{
	const struct gcspec_field *f = gcspec_event_fields(spec);

	for (unsigned i = 0; i < spec->nfields; i++)
		if (!f[i].is_member && strcmp(f[i].name, name) == 0)
			return (int)i;
	return -1;
}

/* "TypeName" or "Values[3].FieldName", for messages. */
static const char *fname(const struct dstate *d, unsigned i, char *buf,
                         size_t n)
{
	const struct gcspec_field *f = &d->f[i];

	if (!f->is_member || d->elem < 0)
		return f->name;
	for (unsigned s = i; s-- > 0;)
		if (d->f[s].type == GCSPEC_STRUCT) {
			snprintf(buf, n, "%s[%ld].%s", d->f[s].name, d->elem,
			         f->name);
			return buf;
		}
	return f->name;
}

#define REPORT(d, code, pos, ...) \
	do { if ((d)->ctx) or_report((d)->ctx, (code), (d)->ev->index, \
	        (d)->ev->payload_offset + (pos), (d)->spec->symbol, __VA_ARGS__); \
	} while (0)

/* The value map of field i (GC-V001..V003, members included): the spec's
 * rule on one value, applied where the value is read, in field order, as
 * the Boolean rule (P009) is; the plan (or_plan_map_ok) and the lean
 * decoder test the same maps to know there is nothing to say. */
OR_COLD static void map_rule(const struct dstate *d, unsigned i, uint64_t value,
                             uint32_t at)
{
	const struct gcspec_field *f = &d->f[i];
	const struct gcspec_map *m = &gcspec_maps[f->map];
	const struct gcspec_map_value *mv = &gcspec_map_values[m->first_value];

	if (m->bitmap) {
		uint64_t all = 0;
		for (unsigned k = 0; k < m->nvalues; k++)
			all |= mv[k].value;
		if (value & ~all)
			REPORT(d, m->open ? GCSPEC_DIAG_V002 : GCSPEC_DIAG_V003, at,
			       "field '%s' = 0x%llx sets bits 0x%llx that flag map %s does not define",
			       f->name, (unsigned long long)value,
			       (unsigned long long)(value & ~all), m->name);
		return;
	}
	for (unsigned k = 0; k < m->nvalues; k++)
		if (mv[k].value == value)
			return;
	REPORT(d, m->open ? GCSPEC_DIAG_V002 : GCSPEC_DIAG_V001, at,
	       "field '%s' = %llu is not a value of %s map %s",
	       f->name, (unsigned long long)value,
	       m->open ? "open" : "closed", m->name);
}

/* An array member (gcspec_field_is_array): its count is the member before
 * it in the same element, so v holds this element's value of it. v[i].u is
 * the count, len its bytes; the values stay in the payload. */
static int dec_array(struct dstate *d, unsigned i, uint32_t *pos,
                     struct or_val *v)
{
	const struct gcspec_field *f = &d->f[i];
	uint32_t at = *pos, rem = d->len - at;
	unsigned w = or_type_width(f->type, d->psize);
	uint64_t count = v[f->size_field].u;
	char nb[96];

	if (count > rem / w) {
		REPORT(d, GCSPEC_DIAG_P006, at,
		       "array '%s' at payload offset %u: count field '%s' asks for %llu values of %u bytes, but only %u bytes remain",
		       fname(d, i, nb, sizeof nb), at, d->f[f->size_field].name,
		       (unsigned long long)count, w, rem);
		return -1;
	}
	v[i].u = count;
	v[i].len = (uint32_t)count * w;
	/* No rule to apply to the values: specgen.py allows an array only of
	 * integers without a value map. */
	*pos = at + v[i].len;
	return 0;
}

/* Decode the non-struct field i at *pos into v[i]. Returns 0 or -1. */
static int dec_field(struct dstate *d, unsigned i, uint32_t *pos,
                     struct or_val *v)
{
	const struct gcspec_field *f = &d->f[i];
	uint32_t at = *pos, rem = d->len - at;
	unsigned w = or_type_width(f->type, d->psize);
	char nb[96];

	v[i].off = at;
	v[i].u = 0;
	if (w && gcspec_field_is_array(f))
		return dec_array(d, i, pos, v);
	if (w) {
		if (rem < w) {
			REPORT(d, GCSPEC_DIAG_P001, at,
			       "payload of %u bytes ends inside field '%s' (%s, %u bytes at payload offset %u): only %u bytes remain",
			       d->len, fname(d, i, nb, sizeof nb),
			       or_type_name(f->type), w, at, rem);
			return -1;
		}
		v[i].len = w;
		if (f->type != GCSPEC_GUID)
			v[i].u = or_le(d->p + at, w);
		switch (f->type) {
		case GCSPEC_INT8: v[i].u = (uint64_t)(int64_t)(int8_t)v[i].u; break;
		case GCSPEC_INT16: v[i].u = (uint64_t)(int64_t)(int16_t)v[i].u; break;
		case GCSPEC_INT32: v[i].u = (uint64_t)(int64_t)(int32_t)v[i].u; break;
		case GCSPEC_BOOLEAN:
			if (v[i].u > 1)
				REPORT(d, GCSPEC_DIAG_P009, at,
				       "Boolean field '%s' holds %llu; a Boolean is 0 or 1",
				       fname(d, i, nb, sizeof nb),
				       (unsigned long long)v[i].u);
			break;
		default: break;
		}
		if (d->ctx && f->map >= 0)
			map_rule(d, i, v[i].u, at);
		*pos = at + w;
		return 0;
	}
	if (f->type == GCSPEC_UNICODE_STRING) {
		uint32_t bad, k = or_utf16_scan(d->p + at, rem, &bad);
		if (k + 1 >= rem) {
			if (rem % 2)
				REPORT(d, GCSPEC_DIAG_P005, at,
				       "UnicodeString '%s' at payload offset %u is cut after %u bytes, an odd number, without its NUL terminator",
				       fname(d, i, nb, sizeof nb), at, rem);
			else
				REPORT(d, GCSPEC_DIAG_P003, at,
				       "UnicodeString '%s' at payload offset %u runs to the end of the payload (%u bytes) without a NUL terminator",
				       fname(d, i, nb, sizeof nb), at, rem);
			return -1;
		}
		v[i].len = k;
		if (bad != UINT32_MAX) {
			REPORT(d, GCSPEC_DIAG_P004, at + bad,
			       "UnicodeString '%s' holds an unpaired surrogate 0x%04x at payload offset %u",
			       fname(d, i, nb, sizeof nb),
			       (unsigned)or_ld16(d->p + at + bad), at + bad);
			/* or_decode carries on past a bad string, so walking the
			 * elements of a struct it accepted must too. */
			if (d->exact)
				return -1;
		}
		*pos = at + k + 2;
		return 0;
	}
	if (f->type == GCSPEC_ANSI_STRING) {
		const uint8_t *z = rem ? memchr(d->p + at, 0, rem) : NULL;
		if (!z) {
			REPORT(d, GCSPEC_DIAG_P003, at,
			       "AnsiString '%s' at payload offset %u runs to the end of the payload (%u bytes) without a NUL terminator",
			       fname(d, i, nb, sizeof nb), at, rem);
			return -1;
		}
		v[i].len = (uint32_t)(z - (d->p + at));
		*pos = at + v[i].len + 1;
		return 0;
	}
	if (f->type == GCSPEC_BINARY) {
		uint64_t n = f->size_field >= 0 ? v[f->size_field].u : 0;
		if (n > rem) {
			REPORT(d, GCSPEC_DIAG_P007, at,
			       "Binary field '%s' at payload offset %u: its length field '%s' says %llu bytes but only %u remain",
			       fname(d, i, nb, sizeof nb), at,
			       f->size_field >= 0 ? d->f[f->size_field].name : "?",
			       (unsigned long long)n, rem);
			return -1;
		}
		v[i].len = (uint32_t)n;
		*pos = at + (uint32_t)n;
		return 0;
	}
	return -1; /* a type this decoder does not know: treat as undecodable */
}

static uint32_t align_up(uint32_t x, unsigned a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

/* The rules on a fixed field's value (Boolean 0/1, value map), in the
 * order dec_field applies them. Kept out of line: most fields have none. */
OR_COLD static void fixed_rules(struct dstate *d, unsigned i, uint32_t at, uint64_t u)
{
	const struct or_pfield *pf = &d->pf[i];

	if (d->f[i].type == GCSPEC_BOOLEAN && u > 1) {
		char nb[96];
		REPORT(d, GCSPEC_DIAG_P009, at,
		       "Boolean field '%s' holds %llu; a Boolean is 0 or 1",
		       fname(d, i, nb, sizeof nb), (unsigned long long)u);
	}
	if (d->ctx && !or_plan_map_ok(pf, u))
		map_rule(d, i, u, at);
}

/* A fixed-width field whose bytes are known to be present (plan path):
 * the same value and diagnostics as dec_field. */
static OR_HOT_INLINE void dec_fixed(struct dstate *d, unsigned i, uint32_t at,
                             struct or_val *v)
{
	const struct or_pfield *pf = &d->pf[i];
	uint64_t u = or_plan_load(pf->op, d->p + at);

	v[i].u = u;
	v[i].off = at;
	v[i].len = pf->width;
	if (pf->rules)
		fixed_rules(d, i, at, u);
}

static int dec_struct(struct dstate *d, unsigned i, uint32_t *pos,
                      struct or_val *v)
{
	const struct gcspec_field *f = &d->f[i];
	const struct or_pfield *pf = &d->pf[i];
	uint64_t count = f->size_field >= 0 ? v[f->size_field].u : 0;
	uint32_t at = *pos, rem = d->len - at;
	int natural = f->natural_layout;
	uint32_t min = pf->esize ? pf->esize
	             : or_member_min_size(f + 1, f->nmembers, d->psize, natural);
	int rc = 0;

	v[i].off = at;
	v[i].u = count;
	/* Bounds first: a count can be anything up to 2^32-1. */
	if (count > rem / min) {
		REPORT(d, GCSPEC_DIAG_P006, at,
		       "struct array '%s' at payload offset %u: count field '%s' asks for %llu elements of at least %u bytes, but only %u bytes remain",
		       f->name, at,
		       f->size_field >= 0 ? d->f[f->size_field].name : "?",
		       (unsigned long long)count, min, rem);
		return -1;
	}
	if (pf->esize) {
		/* Every member has a fixed width: elements are min bytes each
		 * and all of them are present. Members keep the last element's
		 * values; earlier elements are read only when a member has a
		 * rule to check. */
		uint64_t e = (pf->echeck && d->ctx) || count == 0 ? 0 : count - 1;
		for (; e < count; e++) {
			uint32_t es = at + (uint32_t)e * min;
			d->elem = (long)e;
			for (unsigned k = 1; k <= f->nmembers; k++)
				dec_fixed(d, i + k, es + d->pf[i + k].rel, v);
		}
		d->elem = -1;
		*pos = at + (uint32_t)count * min;
		v[i].len = *pos - at;
		return 0;
	}
	for (uint64_t e = 0; e < count && rc == 0; e++) {
		uint32_t es = *pos;
		d->elem = (long)e;
		for (unsigned k = 1; k <= f->nmembers && rc == 0; k++) {
			if (natural)
				*pos = es + align_up(*pos - es,
				                     or_type_width(d->f[i + k].type, d->psize));
			rc = dec_field(d, i + k, pos, v);
		}
		/* The count check above covers whole padded elements. */
		if (natural && rc == 0)
			*pos = es + min;
	}
	d->elem = -1;
	v[i].len = *pos - at;
	return rc;
}

static int dec_all(struct dstate *d, struct or_val *v, unsigned *nvalid,
                   uint32_t *end)
{
	uint32_t pos = 0;
	unsigned i, n = d->spec->nfields;

	for (i = 0; i < n;) {
		const struct gcspec_field *f = &d->f[i];
		const struct or_pfield *pf = &d->pf[i];
		int rc;
		if (f->is_member) {
			i++;
			continue;
		}
		/* A run of fixed-width fields that is wholly present: one
		 * bounds check for all of them. */
		if (pf->run && d->len - pos >= pf->run_size) {
			unsigned last = i + pf->run;
			for (; i < last; i++)
				dec_fixed(d, i, pos + d->pf[i].rel, v);
			pos += pf->run_size;
			continue;
		}
		rc = f->type == GCSPEC_STRUCT ? dec_struct(d, i, &pos, v)
		                              : dec_field(d, i, &pos, v);
		if (rc) {
			*nvalid = i;
			*end = pos;
			return -1;
		}
		i++;
	}
	*nvalid = i;
	*end = pos;
	return 0;
}

static const struct or_pfield *plan_for(const struct gcspec_event *spec,
                                        unsigned psize)
{
	or_plan_init();
	return &or_plans[psize == 4 ? 0 : 1][spec->first_field];
}

int or_decode_fits(const struct gcspec_event *spec, const uint8_t *payload,
                   uint32_t len, unsigned pointer_size)
{
	struct dstate d = { NULL, NULL, spec, gcspec_event_fields(spec),
	                    plan_for(spec, pointer_size), payload, len,
	                    pointer_size, -1, 1 };
	struct or_val v[OR_MAX_FIELDS];
	unsigned n;
	uint32_t end;

	if (spec->nfields > OR_MAX_FIELDS)
		return 0;
	/* An opaque tail (errata.toml) is part of the payload, as or_decode
	 * takes it: no P002. */
	return dec_all(&d, v, &n, &end) == 0 && (end == len || (spec->opaque_tail && end < len));
}

/* The payload does not fit its version: does it fit another one exactly? */
static void check_other_versions(struct dstate *d)
{
	const struct gcspec_event *s = d->spec;

	for (unsigned ver = 0; ver < GCSPEC_MAX_VERSIONS; ver++) {
		const struct gcspec_event *o = gcspec_lookup(s->provider, s->id, ver);
		/* An opaque tail fits any longer payload: it says nothing of a
		 * mislabelled version. */
		if (!o || o == s || o->opaque_tail)
			continue;
		if (or_decode_fits(o, d->p, d->len, d->psize)) {
			REPORT(d, GCSPEC_DIAG_P008, 0,
			       "the %u-byte payload does not fit %s but fits %s exactly: is the version mislabelled?",
			       d->len, s->symbol, o->symbol);
			return;
		}
	}
}

/* The payload is longer than its template (P002), or does not fit it:
 * say so, and whether it fits another version exactly. */
OR_COLD static void misfit(struct dstate *d, int rc, uint32_t end)
{
	const struct gcspec_event *spec = d->spec;

	/* An opaque tail is the runtime's own (errata.toml: GCPerHeapHistory
	 * from .NET Framework is a raw struct after the empty template). */
	if (rc == 0 && end < d->len && !spec->opaque_tail) {
		unsigned last = spec->nfields;
		while (last > 0 && d->f[last - 1].is_member)
			last--;
		REPORT(d, GCSPEC_DIAG_P002, end,
		       "payload has %u bytes after the last field '%s' of %s (template ends at payload offset %u); the known prefix was decoded",
		       d->len - end, last ? d->f[last - 1].name : "(none)",
		       spec->symbol, end);
	}
	check_other_versions(d);
}

/* The rules and the misfit of a whole-run event, with the state the
 * field-by-field path has (kept out of the fast loop). */
OR_COLD static void whole_run_rules(struct or_ctx *ctx, const struct or_event *ev,
                                    const struct gcspec_event *spec,
                                    const struct or_pfield *pf, unsigned psize,
                                    const struct or_val *v, unsigned from)
{
	struct dstate d = { ctx, ev, spec, gcspec_event_fields(spec), pf,
	                    ev->payload, ev->payload_len, psize, -1, 0 };
	unsigned n = spec->nfields;

	for (unsigned i = from; i < n; i++)
		if (pf[i].rules)
			fixed_rules(&d, i, v[i].off, v[i].u);
	if (d.len > pf[0].run_size)
		misfit(&d, 0, pf[0].run_size);
}

int or_decode(struct or_ctx *ctx, const struct or_event *ev,
              const struct gcspec_event *spec, struct or_decoded *out)
{
	unsigned psize = (ev->pointer_size ? ev->pointer_size : ctx->info.pointer_size) == 4 ? 4u : 8u;
	const struct or_pfield *pf = plan_for(spec, psize);
	unsigned n = spec->nfields;
	uint32_t end;
	int rc;

	out->spec = spec;
	out->event = (unsigned)(spec - gcspec_events);
	out->payload = ev->payload;
	out->payload_len = ev->payload_len;
	out->pointer_size = (uint8_t)psize;
	if (n > OR_MAX_FIELDS) { /* guarded by a test on the tables */
		out->nvalid = 0;
		out->complete = 0;
		return -1;
	}
	/* Most GC events: every field fixed, all of them present. Values
	 * first; the rules (value maps, Booleans) and a longer payload go
	 * out of line, in field order. */
	if (n && pf[0].run == n && ev->payload_len >= pf[0].run_size) {
		const uint8_t *p = ev->payload;
		unsigned rules = 0;
		for (unsigned i = 0; i < n; i++) {
			uint64_t u = or_plan_load(pf[i].op, p + pf[i].rel);
			out->v[i].u = u;
			out->v[i].off = pf[i].rel;
			out->v[i].len = pf[i].width;
			if (pf[i].rules && !or_plan_rules_ok(&pf[i], u))
				rules = 1;
		}
		out->nvalid = n;
		out->complete = 1;
		if (rules || ev->payload_len > pf[0].run_size)
			whole_run_rules(ctx, ev, spec, pf, psize, out->v, 0);
		return 0;
	}
	{
		struct dstate d = { ctx, ev, spec, gcspec_event_fields(spec), pf,
		                    ev->payload, ev->payload_len, psize, -1, 0 };
		rc = dec_all(&d, out->v, &out->nvalid, &end);
		out->complete = rc == 0;
		if (rc != 0 || end < d.len)
			misfit(&d, rc, end);
	}
	return rc;
}

int or_struct_element(const struct or_decoded *dec, unsigned sf, uint32_t *pos,
                      struct or_val *vals)
{
	struct dstate d = { NULL, NULL, dec->spec, gcspec_event_fields(dec->spec),
	                    plan_for(dec->spec, dec->pointer_size), dec->payload,
	                    dec->payload_len, dec->pointer_size, -1, 0 };

	uint32_t es = *pos;
	int natural = d.f[sf].natural_layout;

	/* Members of fixed widths: read each at its place in the element. */
	if (d.pf[sf].esize) {
		if (es > d.len || d.len - es < d.pf[sf].esize)
			return -1;
		for (unsigned k = 1; k <= d.f[sf].nmembers; k++) {
			const struct or_pfield *pf = &d.pf[sf + k];
			vals[sf + k].u = or_plan_load(pf->op, d.p + es + pf->rel);
			vals[sf + k].off = es + pf->rel;
			vals[sf + k].len = pf->width;
		}
		*pos = es + d.pf[sf].esize;
		return 0;
	}
	/* The same element layout as dec_struct: aligned members, padded end. */
	for (unsigned k = 1; k <= d.f[sf].nmembers; k++) {
		if (natural)
			*pos = es + align_up(*pos - es, or_type_width(d.f[sf + k].type, d.psize));
		if (dec_field(&d, sf + k, pos, vals))
			return -1;
	}
	if (natural)
		*pos = es + or_member_min_size(&d.f[sf + 1], d.f[sf].nmembers, d.psize, 1);
	return 0;
}
