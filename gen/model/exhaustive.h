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

#include "gen/model/emit.h"
#include "gen/model/profiles.h"

struct gen_coverage {
	uint64_t per_event[GCSPEC_NEVENTS];
	/* Per spec field (index into gcspec_fields) with a map: bit j set when
	 * value j of its map was written in that field (flags: the bit was
	 * set); outside: a value the map does not know was written. */
	uint64_t field_values_seen[GCSPEC_NFIELDS];
	uint8_t field_outside_seen[GCSPEC_NFIELDS];
	/* Per integer field without a map: bit b set when boundary b (0, 1,
	 * max-1, max of its width) was written; per string field: bit j set
	 * when awkward string j was. */
	uint8_t bounds_seen[GCSPEC_NFIELDS];
	uint16_t strings_seen[GCSPEC_NFIELDS];
};

/* expect (may be NULL) receives, as gcgen --expect JSON lines, the
 * warnings the stream must raise: GC-V002 at each event that holds a value
 * outside an open map on purpose. */
int gen_exhaustive_run(struct gen_emit *e, const struct gen_profile *profile, uint64_t seed,
		       uint64_t start_ticks, struct gen_coverage *cov, FILE *expect);
/* Shard shard_i of shard_n: the work items (one variant of an event, one
 * join pair, one whole GC, one suspension, one pair) numbered in stream
 * order, this shard writing those whose number is shard_i modulo shard_n,
 * each shard inside the same framing GC. The shards together write every
 * item once; cov records this shard's part. */
int gen_exhaustive_run_shard(struct gen_emit *e, const struct gen_profile *profile, uint64_t seed,
			     uint64_t start_ticks, struct gen_coverage *cov, uint64_t shard_i,
			     uint64_t shard_n, FILE *expect);
/* Print the report; returns 1 when every event-version, every map value in
 * every field that uses the map, and a value outside the map in every field
 * with an open map were written. */
int gen_coverage_report(const struct gen_coverage *cov, FILE *out);

#endif
