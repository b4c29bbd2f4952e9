/*
 * mutator.h - what a fault class sees of the stream (the slot it acts in,
 * the mutator's view of what is open) and the tools it uses to change,
 * inject and record (mutate.c). Included by the family files only.
 */
#ifndef GEN_FAULTS_MUTATOR_H
#define GEN_FAULTS_MUTATOR_H

#include <stdint.h>

#include "gen/faults/fault.h"
#include "gen/model/values.h"

/* A class acting in one stream. */
struct gen_fault_slot {
	const struct gen_fault *fault;
	int cls;           /* its index in the registry */
	unsigned occ;      /* act at this occurrence of the target */
	unsigned seen;
	int state;         /* 0 waiting, 1 acted and following up, 2 done */
	uint64_t a, b;
	unsigned must;     /* required diagnostics recorded for this class */
	/* Payload classes that take any event-version: the rank-th distinct
	 * one with fields the class sees, and what to pick in it (a field
	 * boundary, a number of bytes), both from the seed. */
	unsigned rank;
	uint64_t pick;
};

#define MAX_THREADS 64
#define MAX_JOIN_HEAPS 256

/* What the classes see of the stream so far. */
struct gen_mutator {
	struct gen_sink sink;
	struct gen_writer *w;
	const struct gen_profile *profile;
	unsigned psize, nheaps;
	FILE *expect;
	struct gen_fault_slot *slots; /* in the order they act */
	unsigned nslots;
	unsigned active;           /* the slot looking at the input now */
	int waiting;               /* it waits for a quiet input to start */
	struct gen_fault_slot *cur; /* the class acting now, for fault_expect() */
	uint64_t index;            /* events written so far */
	unsigned nexpected;
	int bgc_open;              /* a background GC is in flight */
	/* What is open in the input (GCs, suspensions, finalizer runs):
	 * the next class starts when all are closed. */
	int open_gcs, open_susp, open_fin;
	/* Segments a fault freed: the runtime's own later free of one is
	 * then a second free too. */
	uint64_t freed_segment[4];
	unsigned nfreed_segments;
	unsigned nfresh;           /* fresh addresses given out */
	uint64_t thread[MAX_THREADS], last_ts[MAX_THREADS];
	unsigned nthreads;
	struct gen_event last;     /* time, thread and processor of the last event out */
	uint32_t max_count;        /* the highest GCStart Count in the input or output */
	/* The Counts of the input's latest GCStart and of the one before it
	 * (no-GC regions leave gaps: the previous GC's is not Count - 1). */
	uint32_t last_count, prev_count;
	/* The event is the GCStart_V2 twin of the GCStart_V1 before it (the
	 * Framework 4.5.2 writes both per GC): classes aim at the first. */
	int twin;
	/* Threads whose GCSuspendEEBegin has had no GCSuspendEEEnd yet: a
	 * restart from one is a non-GC suspension backing off, not the end
	 * of a suspension. */
	uint64_t attempting[8];
	unsigned nattempting;
	/* trace-starts-inside-gc, until the first suspension event after its
	 * edge: an end or restart there is the trace beginning inside that
	 * suspension (GC-S026). */
	struct gen_fault_slot *edge;
	/* Per heap, 1 + the thread of its last GCJoin written (0: none yet). */
	uint64_t join_thread[MAX_JOIN_HEAPS];
	struct gen_values *ivals;  /* injected events and re-encodes */
	uint8_t *buf;
	/* The event-versions the slot kinds_owner has seen (kind_target). */
	const struct gen_fault_slot *kinds_owner;
	uint8_t kinds_seen[(GCSPEC_NEVENTS + 7) / 8];
	unsigned nkinds;
	/* reorder-events holds one event back to see whether the next one is
	 * its partner: a copy of it, its payload and its values. */
	int held;
	struct gen_event held_ev;
	struct gen_values *held_vals;
	uint8_t *held_buf;
};

/* The tools of the classes (mutate.c). */

#define FAULT_TRY(x) do { if ((x) < 0) return -1; } while (0)
#define FAULT_DONE(s) ((s)->state = 2)

/* Record code at event index (-1: any event); may: a possible consequence. */
void fault_expect(struct gen_mutator *m, int code, int64_t index, int may);
/* Each of codes may occur, at any event. */
void fault_may_list(struct gen_mutator *m, const int *codes);
#define FAULT_MAY(m, ...) fault_may_list(m, GEN_CODES(__VA_ARGS__))

const char *fault_name_of(const struct gen_event *ev);
uint64_t fault_num(const struct gen_event *ev, const char *field);
int fault_is(const struct gen_event *ev, const char *name);
/* The index the next event written gets. */
int64_t fault_here(const struct gen_mutator *m);
/* Count this event as a candidate target; 1 when it is the one. */
int fault_target(struct gen_fault_slot *s, int match);

/* Write ev to the output. */
int fault_out(struct gen_mutator *m, const struct gen_event *ev);
/* Re-encode ev from its (changed) values, at pointer size psize. */
int fault_reencode(struct gen_mutator *m, struct gen_event *ev, unsigned psize);
/* Set a numeric field and re-encode. */
int fault_set(struct gen_mutator *m, struct gen_event *ev, const char *field, uint64_t x);
/* Copy the payload so it can be changed; the model then has no fields. */
void fault_own_payload(struct gen_mutator *m, struct gen_event *ev);

/* Start an injected event of spec index event (-1 or unknown: -1). */
int fault_inject_begin(struct gen_mutator *m, int event);
/* Write it at like's time and thread, the u32 field patch_u32_field (or
 * -1) raised by add after encoding, at pointer size psize. */
int fault_inject_send_ps(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
			 uint32_t add, unsigned psize);
int fault_inject_send(struct gen_mutator *m, const struct gen_event *like, int patch_u32_field,
		      uint32_t add);
/* Inject one event of profile event name with up to two numeric fields. */
int fault_inject2(struct gen_mutator *m, const struct gen_event *like, const char *name,
		  const char *f1, uint64_t v1, const char *f2, uint64_t v2);
/* One whole GC at the end of the stream, code (or GEN_DIAG_END) at its GCStart. */
int fault_inject_gc(struct gen_mutator *m, uint32_t count, uint64_t depth, uint64_t type, int code);
/* Write one realistic event of profile event name, made to be the
 * class's target: the class's apply changes it as it would have. */
int fault_synth_target(struct gen_mutator *m, struct gen_fault_slot *s, const char *name);
/* Addresses no realistic stream uses, a new one each time. */
uint64_t fault_fresh_segment(struct gen_mutator *m);
uint64_t fault_fresh_handle(struct gen_mutator *m);
/* Keep a copy of ev to write later; write it. */
int fault_hold(struct gen_mutator *m, const struct gen_event *ev);
int fault_release_held(struct gen_mutator *m);
/* The fallback of a class that has none: -1 saying so. */
int fault_no_place(struct gen_mutator *m, struct gen_fault_slot *s);

#endif
