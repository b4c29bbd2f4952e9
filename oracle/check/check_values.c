/*
 * check_values.c - rules on several field values of one event:
 * AllocationAmount, depth. Stream rules are in check_stream.c; a value
 * map's rule on one field is the decoder's (decode.c).
 */
#include <string.h>

#include "oracle/check/check.h"

int or_values_apply(const struct or_evinfo *ei)
{
	return (ei->amount >= 0 && ei->amount64 >= 0) ||
	       ((ei->kind == OR_K_GCSTART || ei->kind == OR_K_GCEND) &&
	        ei->depth >= 0);
}

void or_check_values(struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec, const struct or_evinfo *ei)
{
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
