/*
 * u64map.h - the project's one map from uint64 keys to uint64 values: live
 * objects and per-thread state in the oracle's checks, metadata, thread and
 * sequence tables in the nettrace reader and writer.
 *
 * The map owns its storage (u64map_new/free). It never grows past its limit:
 * when full, u64map_put() returns -1 and the caller decides what to forget,
 * so memory stays bounded whatever the file holds (SIZE_MAX: no limit but
 * memory). Lookup is inline because readers call it once per event.
 */
#ifndef UTIL_U64MAP_H
#define UTIL_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map_slot {
	uint64_t key, value;
	uint8_t used;
};

/* Callers use the functions below; the layout is here for the inline get. */
struct u64map {
	struct u64map_slot *s;
	size_t cap, count, limit;
};

/* limit: most entries ever held. NULL on allocation failure. */
struct u64map *u64map_new(size_t limit);
void u64map_free(struct u64map *m);
/* Insert or overwrite. Returns 0, or -1 when the map is full or memory is. */
int u64map_put(struct u64map *m, uint64_t key, uint64_t value);
void u64map_clear(struct u64map *m);
size_t u64map_count(const struct u64map *m);
/* Drop every entry whose value equals v (to make room). */
void u64map_drop_value(struct u64map *m, uint64_t v);

static inline size_t u64map_slot_of(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

/* Pointer to key's value, or NULL when absent. Valid until the next put. */
static inline uint64_t *u64map_get(struct u64map *m, uint64_t key)
{
	for (size_t i = u64map_slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->s[i].used)
			return NULL;
		if (m->s[i].key == key)
			return &m->s[i].value;
	}
}

#endif
