/*
 * mutate.h - fault classes with ground truth.
 *
 * A mutator is a gen_sink placed between the emitter and the writer. It
 * passes events through, and at its target events drops, duplicates,
 * injects or rewrites them, recording for each fault the diagnostics the
 * oracle must raise (code, 0-based index of the event in the output) and
 * those it may raise as a consequence. The classes are rows (fault.h);
 * docs/faults.md is the catalogue.
 *
 * Errors: 0/-1 with a message in the sink's error buffer.
 */
#ifndef GEN_MUTATE_H
#define GEN_MUTATE_H

#include <stdint.h>
#include <stdio.h>

#include "gen/model/emit.h"
#include "gen/model/profiles.h"

/* The index of the class called name in the registry (fault.h), or -1. */
int gen_mutation_find(const char *name);

struct gen_mutator;

/* classes: indexes into the registry (gen_fault_at), n of them. expect may be NULL. */
struct gen_mutator *gen_mutator_new(const int *classes, unsigned n, struct gen_writer *w,
				    const struct gen_profile *profile, unsigned pointer_size,
				    unsigned nheaps, uint64_t seed, FILE *expect);
struct gen_sink *gen_mutator_sink(struct gen_mutator *m);
/* Expected diagnostics recorded so far (non-"may" ones). */
unsigned gen_mutator_nexpected(const struct gen_mutator *m);
/* Flush the mutator at end of stream (closing pending faults); 0/-1. */
int gen_mutator_finish(struct gen_mutator *m);
void gen_mutator_free(struct gen_mutator *m);

#endif
