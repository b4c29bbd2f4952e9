/*
 * unknown.c - fault classes of events the spec does not know: a known
 * event labelled with a version or an id the spec has not (fault.h: one
 * row and two functions each).
 */
#include "gen/faults/mutator.h"

/* A GCMarkWithType relabelled: version 5 (version 1) or id 250 (0). */
static int relabel(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev,
		   int version)
{
	if (fault_target(s, fault_is(ev, "GCMarkWithType"))) {
		fault_own_payload(m, ev);
		ev->spec_event = GEN_NO_SPEC;
		if (version) {
			ev->version = 5;
			fault_expect(m, GCSPEC_DIAG_U001, fault_here(m), 0);
		} else {
			ev->id = 250;
			fault_expect(m, GCSPEC_DIAG_U002, fault_here(m), 0);
		}
		FAULT_DONE(s);
	}
	return 0;
}

static int unknown_version(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return relabel(m, s, ev, 1);
}

static int unknown_id(struct gen_mutator *m, struct gen_fault_slot *s, struct gen_event *ev)
{
	return relabel(m, s, ev, 0);
}

static int relabel_fallback(struct gen_mutator *m, struct gen_fault_slot *s)
{
	return fault_synth_target(m, s, "GCMarkWithType");
}

static const struct gen_fault rows[] = {
	{ "unknown-event-version", "stream", GEN_CODES(GCSPEC_DIAG_U001), 0,
	  "GCMarkWithType labelled version 5", unknown_version, relabel_fallback },
	{ "unknown-event-id", "stream", GEN_CODES(GCSPEC_DIAG_U002), 0,
	  "a GCMarkWithType labelled id 250", unknown_id, relabel_fallback },
};

const struct gen_fault_family gen_faults_unknown = GEN_FAULT_FAMILY(rows);
