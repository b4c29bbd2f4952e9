/*
 * spec_user.c - a program of another project using the installed
 * <gcconform/spec.h>: built with `cc $(pkg-config --cflags gcconform)` by
 * tests/spec/installed_spec.sh, which compares what it prints with the
 * installed gcconform-spec.json. Prints every event-version and its fields,
 * then the maps' and errata's counts.
 */
#include <inttypes.h>
#include <stdio.h>

#include <gcconform/spec.h>

int main(void)
{
	for (size_t i = 0; i < GCCONFORM_SPEC_NEVENTS; i++) {
		const struct gcconform_spec_event *e = &gcconform_spec_events[i];

		if (gcconform_spec_lookup(e->provider, e->id, e->version) != e)
			return 1;
		printf("%s %s %u %u 0x%" PRIx64 " %u %u %u %s %s [%s]\n", e->symbol,
		       gcconform_spec_providers[e->provider].name, e->id, e->version, e->keywords,
		       e->level, e->opcode, e->task, e->ctf_name, e->ctf_packed ? "packed" : "typed",
		       e->errata);
		for (unsigned k = 0; k < e->nfields; k++) {
			const struct gcconform_spec_field *f = &gcconform_spec_fields[e->first_field + k];

			printf("  %s %d %d %d %d %s\n", f->name, f->width[0], f->width[1], f->parent,
			       f->size_field, f->map >= 0 ? gcconform_spec_maps[f->map].name : "-");
		}
	}
	printf("%d maps, %d values, %d errata\n", GCCONFORM_SPEC_NMAPS, GCCONFORM_SPEC_NMAP_VALUES,
	       GCCONFORM_SPEC_NERRATA);
	return 0;
}
