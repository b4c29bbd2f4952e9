/*
 * check_values.c - rules on field values: value maps, AllocationAmount,
 * depth, heap indexes. Stream rules are in check_stream.c.
 */
#include <string.h>

#include "oracle/check/check.h"

void or_check_map(struct or_ctx *ctx, const struct or_event *ev,
                  const struct gcspec_event *spec,
                  const struct gcspec_field *f, uint64_t value, uint32_t at)
{
	const struct gcspec_map *m = &gcspec_maps[f->map];
	const struct gcspec_map_value *mv = &gcspec_map_values[m->first_value];
	uint64_t off = ev->payload_offset + at;

	if (m->bitmap) {
		uint64_t all = 0;
		for (unsigned k = 0; k < m->nvalues; k++)
			all |= mv[k].value;
		if (value & ~all)
			or_report(ctx, m->open ? GCSPEC_DIAG_V002 : GCSPEC_DIAG_V003,
			          ev->index, off, spec->symbol,
			          "field '%s' = 0x%llx sets bits 0x%llx that flag map %s does not define",
			          f->name, (unsigned long long)value,
			          (unsigned long long)(value & ~all), m->name);
		return;
	}
	for (unsigned k = 0; k < m->nvalues; k++)
		if (mv[k].value == value)
			return;
	or_report(ctx, m->open ? GCSPEC_DIAG_V002 : GCSPEC_DIAG_V001, ev->index,
	          off, spec->symbol,
	          "field '%s' = %llu is not a value of %s map %s",
	          f->name, (unsigned long long)value,
	          m->open ? "open" : "closed", m->name);
}

int or_values_apply(const struct or_evinfo *ei)
{
	return (ei->amount >= 0 && ei->amount64 >= 0) ||
	       ((ei->kind == OR_K_GCSTART || ei->kind == OR_K_GCEND) &&
	        ei->depth >= 0);
}

void or_check_values(struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec)
{
	const struct or_evinfo *ei = &or_evinfo[dec->event];
	const char *sym = dec->spec->symbol;
	const struct or_val *v = dec->v;
	unsigned n = dec->nvalid;

	if (ei->amount >= 0 && ei->amount64 >= 0 && (unsigned)ei->amount64 < n &&
	    v[ei->amount].u != (v[ei->amount64].u & 0xffffffffu))
		or_report(ctx, GCSPEC_DIAG_V004, ev->index,
		          ev->payload_offset + v[ei->amount].off, sym,
		          "AllocationAmount is 0x%llx but the low 32 bits of AllocationAmount64 (0x%llx) are 0x%llx",
		          (unsigned long long)v[ei->amount].u,
		          (unsigned long long)v[ei->amount64].u,
		          (unsigned long long)(v[ei->amount64].u & 0xffffffffu));
	if ((ei->kind == OR_K_GCSTART || ei->kind == OR_K_GCEND) &&
	    ei->depth >= 0 && (unsigned)ei->depth < n && v[ei->depth].u > 2)
		or_report(ctx, GCSPEC_DIAG_V005, ev->index,
		          ev->payload_offset + v[ei->depth].off, sym,
		          "Depth %llu is above the highest generation, 2",
		          (unsigned long long)v[ei->depth].u);
	if (ei->kind == OR_K_GCSTART && ei->type >= 0 && ei->depth >= 0 &&
	    (unsigned)ei->type < n && v[ei->type].u == 1 && v[ei->depth].u != 2)
		or_report(ctx, GCSPEC_DIAG_V006, ev->index,
		          ev->payload_offset + v[ei->depth].off, sym,
		          "background GC (Type 1) with Depth %llu: a background GC always collects generation 2",
		          (unsigned long long)v[ei->depth].u);
}
