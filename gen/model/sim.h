/*
 * sim.h - the seeded simulator of a runtime's GC activity (realistic mode).
 *
 * Emits, through a gen_emit, the events a runtime of the chosen profile
 * writes, in the order it writes them: suspensions, GCs (workstation or
 * server with n heaps, background GCs with foreground GCs inside), heap
 * statistics and histories, joins, marks, allocation ticks, segments,
 * handles, finalizers, memory pressure. Same config, same events.
 *
 * Errors: gen_sim_run returns 0, or -1 with the emitter's message.
 */
#ifndef GEN_SIM_H
#define GEN_SIM_H

#include <stdint.h>

#include "gen/model/emit.h"
#include "gen/model/profiles.h"

struct gen_sim_config {
	const struct gen_profile *profile;
	uint64_t seed;
	uint64_t gcs;              /* stop after this many GCs (0: no limit) */
	uint64_t events;           /* or once this many events were emitted (0: no limit) */
	unsigned heaps;            /* 0: workstation GC; n >= 1: server GC with n heaps */
	uint64_t clock_frequency;
	uint64_t start_ticks;
	/* Called now and then with the GCs done so far (progress line); may be NULL. */
	void (*progress)(uint64_t gcs_done, void *arg);
	void *progress_arg;
};

int gen_sim_run(const struct gen_sim_config *cfg, struct gen_emit *e);

#endif
