/*
 * registry.c - every stream and payload fault class, family by family,
 * in --list-mutations order: a class's index here is its number in the
 * seeded choices (fault.h), so families and rows only ever get appended.
 */
#include <string.h>

#include "gen/faults/fault.h"

/* Each family file defines one of these; a new family is a file, a line
 * here and a line in gen/Makefile.inc. */
extern const struct gen_fault_family gen_faults_pairing, gen_faults_suspension,
	gen_faults_lifetimes, gen_faults_timeline, gen_faults_payload, gen_faults_unknown,
	gen_faults_reorder, gen_faults_processes;

static const struct gen_fault_family *const families[] = {
	&gen_faults_pairing,
	&gen_faults_suspension,
	&gen_faults_lifetimes,
	&gen_faults_timeline,
	&gen_faults_payload,
	&gen_faults_unknown,
	&gen_faults_reorder,
	&gen_faults_processes,
};

int gen_fault_applies(const struct gen_fault *f, const char *format)
{
	if (!(f->flags & GEN_FAULT_PROCESSES) || !format)
		return 1;
	return strncmp(format, "etl", 3) == 0 || strcmp(format, "ctf") == 0;
}

const struct gen_fault *gen_fault_at(unsigned i)
{
	for (unsigned f = 0; f < sizeof families / sizeof families[0]; f++) {
		if (i < families[f]->n)
			return &families[f]->rows[i];
		i -= families[f]->n;
	}
	return NULL;
}

unsigned gen_nfaults(void)
{
	unsigned n = 0;

	for (unsigned f = 0; f < sizeof families / sizeof families[0]; f++)
		n += families[f]->n;
	return n;
}

int gen_mutation_find(const char *name)
{
	const struct gen_fault *f;

	for (unsigned i = 0; (f = gen_fault_at(i)); i++)
		if (strcmp(f->name, name) == 0)
			return (int)i;
	return -1;
}
