/*
 * dump_tables - print what the generated C tables hold, one fact per line, so
 * tables_agree.py can compare them with the TOML spec it reads by itself.
 */
#include <inttypes.h>
#include <stdio.h>

#include "spec/gcspec.h"

int main(void)
{
	for (size_t i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *e = &gcspec_events[i];
		const struct gcspec_field *f = gcspec_event_fields(e);
		int top = 0;

		for (unsigned j = 0; j < e->nfields; j++)
			top += !f[j].is_member;
		printf("event %s %s %u %u %u %u %u 0x%" PRIx64 " %u %d %d %d %d\n",
		       gcspec_providers[e->provider].name, e->symbol, e->id,
		       e->version, e->level, e->opcode, e->task, e->keywords,
		       (unsigned)e->nfields, top, e->fixed_size[0],
		       e->fixed_size[1], gcspec_lookup(e->provider, e->id, e->version) == e);
		for (unsigned j = 0; j < e->nfields; j++)
			printf("field %s %u %s %d %s %d\n", e->symbol, j, f[j].name,
			       f[j].type, f[j].map >= 0 ? gcspec_maps[f[j].map].name : "-",
			       f[j].size_field);
	}
	for (size_t i = 0; i < GCSPEC_NMAPS; i++)
		printf("map %s %u %u %u\n", gcspec_maps[i].name, gcspec_maps[i].nvalues,
		       gcspec_maps[i].bitmap, gcspec_maps[i].open);
	for (size_t i = 0; i < GCSPEC_NDIAGS; i++)
		printf("diag %s %u\n", gcspec_diags[i].code, gcspec_diags[i].severity);
	return 0;
}
