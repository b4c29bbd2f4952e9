/*
 * u64map.h - a small open-addressing map from uint64 keys to uint64 values.
 *
 * Used for live objects (segments, handles) and per-thread state. The map
 * owns its storage (or_u64map_new/free). It never grows past its limit:
 * when full, or_u64map_put() returns -1 and the caller decides what to
 * forget, so memory stays bounded whatever the file holds.
 */
#ifndef ORACLE_U64MAP_H
#define ORACLE_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct or_u64map;

/* limit: most entries ever held (rounded up to a power of two). NULL on
 * allocation failure. */
struct or_u64map *or_u64map_new(size_t limit);
void or_u64map_free(struct or_u64map *m);
/* Pointer to key's value, or NULL when absent. Valid until the next put. */
uint64_t *or_u64map_get(struct or_u64map *m, uint64_t key);
/* Insert or overwrite. Returns 0, or -1 when the map is full. */
int or_u64map_put(struct or_u64map *m, uint64_t key, uint64_t value);
void or_u64map_clear(struct or_u64map *m);
size_t or_u64map_count(const struct or_u64map *m);
/* Drop every entry whose value equals v (to make room). */
void or_u64map_drop_value(struct or_u64map *m, uint64_t v);

#endif
