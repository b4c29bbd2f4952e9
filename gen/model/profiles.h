/*
 * profiles.h - runtime profiles: which version of each GC event a runtime
 * writes, its default pointer size and ClrInstanceID.
 *
 * Profiles are constant data; the returned pointers are static. A profile
 * lists event symbols; the simulator asks for an event by its base name
 * ("GCStart") and gets the version this runtime writes, or -1 when the
 * runtime does not write that event at all.
 */
#ifndef GEN_PROFILES_H
#define GEN_PROFILES_H

struct gen_profile {
	const char *name;          /* "net8" */
	const char *description;
	unsigned pointer_size;     /* default; --pointer-size overrides */
	unsigned clr_instance_id;
	int has_poh;               /* pinned object heap (.NET 5+) */
	/* Tiered compilation suspends the runtime to finish call counting
	 * (.NET 5+: call-counting stubs are deleted with the runtime suspended). */
	int tiering_suspends;
	/* Habits real runtimes were seen to have (docs/real-runtime.md). */
	int double_gcstart;        /* GCStart_V1 then GCStart_V2 per GC (Framework 4.5.2) */
	enum gen_segments { GEN_SEG_FREES, GEN_SEG_NONE, GEN_SEG_REGIONS } segments;
	                           /* GCCreate/FreeSegment as segments; none (3.1);
	                            * regions handed out again, never freed (8.0) */
	int nogc_regions;          /* TryStartNoGCRegion takes GC numbers, no GCStart */
	int sampler;               /* the sample profiler suspends (Count 0xFFFFFFFF): it
	                            * backs off for a GC's suspension, and may begin
	                            * between a background GC's GCEnd and GCHeapStats */
	const char *const *symbols; /* NULL-terminated */
};

extern const struct gen_profile gen_profiles[];
extern const unsigned gen_nprofiles;

const struct gen_profile *gen_profile_find(const char *name);
/* Event index (gcspec_events) of the version of `name` this profile writes,
 * or -1. */
int gen_profile_event(const struct gen_profile *p, const char *name);

#endif
