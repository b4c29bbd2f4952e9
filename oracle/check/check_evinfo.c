/*
 * check_evinfo.c - where the fields the checker reads sit in each
 * event-version (or_evinfo, see check.h), found once from the spec's field
 * names, and the set of them the lean decoder must fill (or_check_keep).
 *
 * A file of its own so that the rules (check_stream.c, check_values.c)
 * and the decoder's keep table all read one table and none of them
 * depends on another rule file.
 */
#include <string.h>

#include "oracle/check/check.h"

struct or_evinfo or_evinfo[GCSPEC_NEVENTS];
/* or_evinfo_fields() of each event-version: the lean decoder's keep table. */
static uint64_t keep[GCSPEC_NEVENTS];

static const struct { const char *name; uint8_t kind; } kinds[] = {
	{ "GCStart", OR_K_GCSTART }, { "GCEnd", OR_K_GCEND },
	{ "GCSuspendEEBegin", OR_K_SUSPEND_BEGIN },
	{ "GCSuspendEEEnd", OR_K_SUSPEND_END },
	{ "GCRestartEEBegin", OR_K_RESTART_BEGIN },
	{ "GCRestartEEEnd", OR_K_RESTART_END },
	{ "GCHeapStats", OR_K_HEAPSTATS },
	{ "GCPerHeapHistory", OR_K_HEAPHISTORY },
	{ "GCGlobalHeapHistory", OR_K_GLOBALHISTORY },
	{ "GCJoin", OR_K_JOIN },
	{ "GCCreateSegment", OR_K_SEG_CREATE }, { "GCFreeSegment", OR_K_SEG_FREE },
	{ "SetGCHandle", OR_K_HANDLE_SET }, { "DestroyGCHandle", OR_K_HANDLE_DESTROY },
	{ "GCFinalizersBegin", OR_K_FIN_BEGIN }, { "GCFinalizersEnd", OR_K_FIN_END },
	{ "GCAllocationTick", OR_K_ALLOC_TICK }, { "GCSettings", OR_K_SETTINGS },
	{ "GCSettingsRundown", OR_K_SETTINGS },
};

static int8_t idx(const struct gcspec_event *e, const char *name)
{
	return (int8_t)or_field_index(e, name);
}

void or_evinfo_init(void)
{
	static int done;

	if (done)
		return;
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *e = &gcspec_events[i];
		struct or_evinfo *ei = &or_evinfo[i];
		memset(ei, 0, sizeof *ei);
		for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
			if (strcmp(e->name, kinds[k].name) == 0)
				ei->kind = kinds[k].kind;
		ei->count = idx(e, "Count");
		ei->depth = idx(e, "Depth");
		ei->type = idx(e, "Type");
		ei->reason = idx(e, "Reason");
		ei->clr = idx(e, "ClrInstanceID");
		ei->heap = idx(e, "HeapIndex");
		if (ei->heap < 0)
			ei->heap = idx(e, "Heap");
		if (ei->heap < 0)
			ei->heap = idx(e, "HeapNum");
		ei->amount = idx(e, "AllocationAmount");
		ei->amount64 = idx(e, "AllocationAmount64");
		ei->jointime = idx(e, "JoinTime");
		ei->jointype = idx(e, "JoinType");
		ei->address = idx(e, "Address");
		ei->handle = idx(e, "HandleID");
		ei->hkind = idx(e, "Kind");
		ei->numheaps = idx(e, "NumHeaps");
		ei->servergc = idx(e, "ServerGC");
		ei->values = (uint8_t)or_values_apply(ei);
		keep[i] = or_evinfo_fields(ei);
	}
	done = 1;
}

uint64_t or_evinfo_fields(const struct or_evinfo *ei)
{
	/* What the rules below read, by the kind of event they concern:
	 * every event's ClrInstanceID (instance()) and heap index
	 * (heap_index()), the allocation amounts (or_check_values()), and
	 * what each kind's rule reads (check_stream.c). A rule that reads
	 * another field adds it here, or the lean decoder leaves it unset. */
	int8_t idx[8] = { ei->clr, ei->heap, ei->amount, ei->amount64, -1, -1, -1, -1 };
	uint64_t m = 0;

	switch (ei->kind) {
	case OR_K_GCSTART:
		idx[4] = ei->count, idx[5] = ei->depth, idx[6] = ei->type;
		idx[7] = ei->reason;
		break;
	case OR_K_GCEND:
		idx[4] = ei->count, idx[5] = ei->depth;
		break;
	case OR_K_SUSPEND_BEGIN:
		idx[4] = ei->count;
		break;
	case OR_K_HEAPHISTORY: case OR_K_GLOBALHISTORY:
		idx[4] = ei->numheaps;
		break;
	case OR_K_SETTINGS:
		idx[4] = ei->servergc;
		break;
	case OR_K_JOIN:
		idx[4] = ei->jointime, idx[5] = ei->jointype;
		break;
	case OR_K_SEG_CREATE: case OR_K_SEG_FREE:
		idx[4] = ei->address;
		break;
	case OR_K_HANDLE_SET:
		idx[4] = ei->handle, idx[5] = ei->hkind;
		break;
	case OR_K_HANDLE_DESTROY:
		idx[4] = ei->handle;
		break;
	default:
		break;
	}
	for (unsigned i = 0; i < sizeof idx / sizeof idx[0]; i++)
		if (idx[i] >= 0 && idx[i] < 64)
			m |= (uint64_t)1 << idx[i];
	return m;
}

const uint64_t *or_check_keep(void)
{
	or_evinfo_init();
	return keep;
}
