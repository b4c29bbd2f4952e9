/*
 * profiles.c - runtime profiles. Versions follow the manifest history:
 * GCStart_V1/GCHeapStats_V1/GCAllocationTick_V2-V3 on .NET Framework 4.x,
 * GCStart_V2 from .NET Core, GCHeapStats_V2 and GCAllocationTick_V4 (POH)
 * from .NET 5, GCGlobalHeapHistory_V4 from .NET 6. Facts from captured .NET
 * 10 traces override this table as they arrive (see docs/errata.md).
 */
#include <string.h>

#include "spec/gcspec.h"
#include "gen/model/profiles.h"

#define COMMON_V1                                                             \
	"GCEnd_V1", "GCRestartEEBegin_V1", "GCRestartEEEnd_V1",              \
	"GCSuspendEEBegin_V1", "GCSuspendEEEnd_V1", "GCCreateSegment_V1",    \
	"GCFreeSegment_V1", "GCCreateConcurrentThread_V1",                   \
	"GCTerminateConcurrentThread_V1", "GCFinalizersBegin_V1",            \
	"GCFinalizersEnd_V1", "GCTriggered", "GCMarkWithType", "GCJoin_V2", \
	"GCPerHeapHistory_V3", "SetGCHandle", "DestroyGCHandle",            \
	"PinObjectAtGCTime", "FinalizeObject", "GCGenerationRange",          \
	"GCBulkMovedObjectRanges", "GCBulkSurvivingObjectRanges"

static const char *const netfx4[] = {
	"GCStart_V1", "GCHeapStats_V1", "GCAllocationTick_V3", "GCGlobalHeapHistory_V2",
	COMMON_V1, NULL
};
/* 4.5.2 fires GCStart_V1 and GCStart_V2 for each GC (double_gcstart). */
static const char *const netfx45[] = {
	"GCStart_V1", "GCStart_V2", "GCHeapStats_V1", "GCAllocationTick_V2", "GCGlobalHeapHistory_V2",
	COMMON_V1, NULL
};
static const char *const netcore3[] = {
	"GCStart_V2", "GCHeapStats_V1", "GCAllocationTick_V3", "GCGlobalHeapHistory_V3",
	"IncreaseMemoryPressure", "DecreaseMemoryPressure", COMMON_V1, NULL
};
static const char *const net5[] = {
	"GCStart_V2", "GCHeapStats_V2", "GCAllocationTick_V4", "GCGlobalHeapHistory_V3",
	"IncreaseMemoryPressure", "DecreaseMemoryPressure", COMMON_V1, NULL
};
static const char *const net6up[] = {
	"GCStart_V2", "GCHeapStats_V2", "GCAllocationTick_V4", "GCGlobalHeapHistory_V4",
	"IncreaseMemoryPressure", "DecreaseMemoryPressure", COMMON_V1, NULL
};

/* name, description, pointer size, ClrInstanceID, POH, tiering suspends,
 * double GCStart, segment events, no-GC regions, the sample profiler. */
const struct gen_profile gen_profiles[] = {
	{ "netfx4", ".NET Framework 4.6-4.8", 8, 9, 0, 0, 0, GEN_SEG_FREES, 1, 0, netfx4 },
	{ "netfx45", ".NET Framework 4.5", 8, 9, 0, 0, 1, GEN_SEG_FREES, 0, 0, netfx45 },
	{ "netcore3", ".NET Core 3.x", 8, 8, 0, 0, 0, GEN_SEG_NONE, 1, 1, netcore3 },
	{ "net5", ".NET 5", 8, 8, 1, 1, 0, GEN_SEG_FREES, 1, 1, net5 },
	{ "net6", ".NET 6", 8, 8, 1, 1, 0, GEN_SEG_FREES, 1, 1, net6up },
	{ "net7", ".NET 7", 8, 8, 1, 1, 0, GEN_SEG_FREES, 1, 1, net6up },
	{ "net8", ".NET 8", 8, 8, 1, 1, 0, GEN_SEG_REGIONS, 1, 1, net6up },
	{ "net9", ".NET 9", 8, 8, 1, 1, 0, GEN_SEG_FREES, 1, 1, net6up },
	{ "net10", ".NET 10", 8, 8, 1, 1, 0, GEN_SEG_FREES, 1, 1, net6up },
};
const unsigned gen_nprofiles = sizeof gen_profiles / sizeof gen_profiles[0];

const struct gen_profile *gen_profile_find(const char *name)
{
	for (unsigned i = 0; i < gen_nprofiles; i++)
		if (strcmp(gen_profiles[i].name, name) == 0)
			return &gen_profiles[i];
	return NULL;
}

int gen_profile_event(const struct gen_profile *p, const char *name)
{
	for (unsigned i = 0; p->symbols[i]; i++) {
		for (unsigned e = 0; e < GCSPEC_NEVENTS; e++) {
			if (strcmp(gcspec_events[e].symbol, p->symbols[i]) == 0 &&
			    strcmp(gcspec_events[e].name, name) == 0)
				return (int)e;
		}
	}
	return -1;
}
