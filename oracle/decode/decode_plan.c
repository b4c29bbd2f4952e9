/*
 * decode_plan.c - build the decoding plans (see decode_plan.h) from the
 * spec tables, once.
 */
#include "oracle/decode/decode.h"
#include "oracle/decode/decode_plan.h"

struct or_pfield or_plans[2][GCSPEC_NFIELDS];

static uint32_t align_up(uint32_t x, unsigned a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

uint32_t or_member_min_size(const struct gcspec_field *f, unsigned n,
                            unsigned psize, int natural)
{
	uint32_t s = 0;
	unsigned widest = 1;

	for (unsigned k = 0; k < n; k++) {
		unsigned w = or_type_width(f[k].type, psize);
		if (gcspec_field_is_array(&f[k]))
			continue; /* its count may be 0 */
		if (w) {
			if (natural)
				s = align_up(s, w);
			s += w;
			if (w > widest)
				widest = w;
		} else if (f[k].type == GCSPEC_UNICODE_STRING)
			s += 2;
		else if (f[k].type == GCSPEC_ANSI_STRING)
			s += 1;
	}
	if (natural)
		s = align_up(s, widest);
	return s ? s : 1;
}

static void field_plan(const struct gcspec_field *f, unsigned psize,
                       struct or_pfield *pf)
{
	/* An array member has no fixed width: it is its count's values. */
	pf->width = gcspec_field_is_array(f) ? 0 : (uint8_t)or_type_width(f->type, psize);
	switch (f->type) {
	case GCSPEC_INT8: pf->op = OR_OP_I8; break;
	case GCSPEC_INT16: pf->op = OR_OP_I16; break;
	case GCSPEC_INT32: pf->op = OR_OP_I32; break;
	case GCSPEC_GUID: pf->op = OR_OP_GUID; break;
	default:
		pf->op = pf->width == 1 ? OR_OP_U8 : pf->width == 2 ? OR_OP_U16 :
		         pf->width == 4 ? OR_OP_U32 : pf->width == 8 ? OR_OP_U64 :
		         OR_OP_NONE;
		break;
	}
	pf->mapq = OR_MAPQ_NONE;
	if (f->map >= 0) {
		const struct gcspec_map *m = &gcspec_maps[f->map];
		const struct gcspec_map_value *mv = &gcspec_map_values[m->first_value];
		uint64_t bits = 0;
		int small = 1;

		for (unsigned k = 0; k < m->nvalues; k++) {
			if (m->bitmap)
				bits |= mv[k].value;
			else if (mv[k].value < 64)
				bits |= (uint64_t)1 << mv[k].value;
			else
				small = 0;
		}
		pf->mapbits = bits;
		pf->mapq = m->bitmap ? OR_MAPQ_MASK : small ? OR_MAPQ_SET : OR_MAPQ_SLOW;
	}
	pf->boolean = f->type == GCSPEC_BOOLEAN;
	pf->rules = pf->boolean || pf->mapq != OR_MAPQ_NONE;
}

static void event_plan(const struct gcspec_event *e, unsigned psize,
                       struct or_pfield *pf)
{
	const struct gcspec_field *f = gcspec_event_fields(e);
	unsigned start = 0, inrun = 0;
	uint32_t size = 0;

	for (unsigned i = 0; i < e->nfields; i++)
		field_plan(&f[i], psize, &pf[i]);
	/* Runs of top-level fixed-width fields. */
	for (unsigned i = 0; i <= e->nfields; i++) {
		int fixed = i < e->nfields && !f[i].is_member &&
		            f[i].type != GCSPEC_STRUCT && pf[i].width;
		if (i < e->nfields && f[i].is_member)
			continue;
		if (fixed && size + pf[i].width <= UINT16_MAX) {
			if (!inrun)
				start = i, size = 0;
			pf[i].rel = (uint16_t)size;
			size += pf[i].width;
			inrun++;
			continue;
		}
		if (inrun) {
			pf[start].run = (uint8_t)inrun;
			pf[start].run_size = (uint16_t)size;
		}
		inrun = 0;
		size = 0;
		if (fixed) { /* a run too long for 16 bits: start a new one */
			start = i;
			pf[i].rel = 0;
			size = pf[i].width;
			inrun = 1;
		}
	}
	/* Struct elements whose members all have fixed widths. */
	for (unsigned i = 0; i < e->nfields; i++) {
		unsigned n = f[i].nmembers, allfixed = 1, check = 0;
		uint32_t at = 0, es;

		if (f[i].type != GCSPEC_STRUCT)
			continue;
		for (unsigned k = 1; k <= n && i + k < e->nfields; k++) {
			unsigned w = pf[i + k].width;
			if (!w) {
				allfixed = 0;
				break;
			}
			if (f[i].natural_layout)
				at = align_up(at, w);
			pf[i + k].rel = (uint16_t)at;
			at += w;
			if (f[i + k].map >= 0 || f[i + k].type == GCSPEC_BOOLEAN)
				check = 1;
		}
		es = or_member_min_size(f + i + 1, n, psize, f[i].natural_layout);
		if (allfixed && i + n < e->nfields && es <= UINT16_MAX) {
			pf[i].esize = (uint16_t)es;
			pf[i].echeck = (uint8_t)check;
		}
	}
}

void or_plan_init(void)
{
	static int done;

	if (done)
		return;
	for (unsigned ps = 0; ps < 2; ps++)
		for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
			event_plan(&gcspec_events[i], ps ? 8 : 4,
			           &or_plans[ps][gcspec_events[i].first_field]);
	done = 1;
}
