/*
 * exhaustive.h - every event-version of the spec, every value of every value
 * map in every field that uses it, integer boundaries and awkward strings,
 * wrapped so that the stream still passes the oracle's invariants.
 *
 * Errors: 0, or -1 with the emitter's message.
 */
#ifndef GEN_EXHAUSTIVE_H
#define GEN_EXHAUSTIVE_H

#include <stdint.h>
#include <stdio.h>

#include "emit.h"
#include "profiles.h"

struct gen_coverage {
	uint64_t per_event[GCSPEC_NEVENTS];
	/* map value j of map i seen in a field that uses map i */
	uint8_t map_value_seen[GCSPEC_NMAP_VALUES];
};

int gen_exhaustive_run(struct gen_emit *e, const struct gen_profile *profile, uint64_t seed,
		       uint64_t start_ticks, struct gen_coverage *cov);
/* Print the report; returns 1 when every event-version and map value was covered. */
int gen_coverage_report(const struct gen_coverage *cov, FILE *out);

#endif
