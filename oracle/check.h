/*
 * check.h - the invariant checker: field rules and stream state machines.
 *
 * The checker looks at a few fields of each decoded event by index; the
 * indexes are found once per event-version from the spec's field names
 * (or_evinfo), so the per-event work is a table lookup and a switch on the
 * event's kind. State is kept per ClrInstanceID (events without that field
 * belong to the last instance seen). Memory: fixed arrays plus maps bounded
 * by live objects (see u64map.h); nothing is allocated per event.
 *
 * Owned by struct or_ctx: or_ctx_init() creates it, or_ctx_free() frees it.
 */
#ifndef ORACLE_CHECK_H
#define ORACLE_CHECK_H

#include "decode.h"
#include "oracle.h"

enum or_kind {
	OR_K_OTHER = 0, OR_K_GCSTART, OR_K_GCEND, OR_K_SUSPEND_BEGIN,
	OR_K_SUSPEND_END, OR_K_RESTART_BEGIN, OR_K_RESTART_END,
	OR_K_HEAPSTATS, OR_K_HEAPHISTORY, OR_K_GLOBALHISTORY, OR_K_JOIN,
	OR_K_SEG_CREATE, OR_K_SEG_FREE, OR_K_HANDLE_SET, OR_K_HANDLE_DESTROY,
	OR_K_FIN_BEGIN, OR_K_FIN_END, OR_K_ALLOC_TICK, OR_K_SETTINGS
};

/* Where the fields the checker reads sit in each event-version (-1: absent). */
struct or_evinfo {
	uint8_t kind;
	uint8_t values;  /* a rule of or_check_values() applies */
	int8_t count, depth, type, clr, heap, amount, amount64, jointime, jointype,
	       address, handle, hkind, numheaps, servergc;
};

extern struct or_evinfo or_evinfo[GCSPEC_NEVENTS];
void or_evinfo_init(void);

struct or_check *or_check_new(void);
void or_check_free(struct or_check *c);
void or_check_event(struct or_ctx *ctx, const struct or_event *ev,
                    const struct or_decoded *dec);
/* GC-S023, in file order: or_run_file() calls it for every event as read. */
void or_check_timestamp(struct or_ctx *ctx, const struct or_event *ev);
void or_check_end(struct or_ctx *ctx, uint64_t next_index, uint64_t offset);
void or_check_reset(struct or_check *c);

/* Value-map rule for one decoded field (GC-V001..V003); field offset `at`
 * is within the payload. Called by the decoder, members included. */
void or_check_map(struct or_ctx *ctx, const struct or_event *ev,
                  const struct gcspec_event *spec,
                  const struct gcspec_field *f, uint64_t value, uint32_t at);

/* Field rules that need several fields of one event (V004..V006). */
void or_check_values(struct or_ctx *ctx, const struct or_event *ev,
                     const struct or_decoded *dec);
/* Can a rule of or_check_values() apply to events with these fields? The
 * checker calls it only for those (or_evinfo.values): a new rule there
 * says here which events it concerns. */
int or_values_apply(const struct or_evinfo *ei);

#endif
