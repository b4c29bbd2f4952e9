/*
 * u64map.c - linear probing over a power-of-two table kept at most 3/4 full.
 * Entries are never deleted one by one (callers mark them dead by value),
 * which keeps probing simple; u64map_drop_value() rebuilds the table.
 */
#include <stdlib.h>
#include <string.h>

#include "util/u64map.h"

struct u64map *u64map_new(size_t limit)
{
	struct u64map *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->cap = 64;
	m->s = calloc(m->cap, sizeof *m->s);
	if (!m->s) {
		free(m);
		return NULL;
	}
	m->limit = limit;
	return m;
}

/* Double the table; the map starts small and grows up to its limit. */
static int grow(struct u64map *m)
{
	struct u64map_slot *old = m->s;
	size_t n = m->cap;

	m->s = calloc(n * 2, sizeof *m->s);
	if (!m->s) {
		m->s = old;
		return -1;
	}
	m->cap = n * 2;
	m->count = 0;
	for (size_t i = 0; i < n; i++)
		if (old[i].used)
			u64map_put(m, old[i].key, old[i].value);
	free(old);
	return 0;
}

void u64map_free(struct u64map *m)
{
	if (m) {
		free(m->s);
		free(m);
	}
}

int u64map_put(struct u64map *m, uint64_t key, uint64_t value)
{
	size_t i;

	for (i = u64map_slot_of(key, m->cap); m->s[i].used; i = (i + 1) & (m->cap - 1))
		if (m->s[i].key == key) {
			m->s[i].value = value;
			return 0;
		}
	if (m->count >= m->limit)
		return -1;
	if ((m->count + 1) * 4 > m->cap * 3) {
		if (grow(m))
			return -1;
		return u64map_put(m, key, value);
	}
	m->s[i].used = 1;
	m->s[i].key = key;
	m->s[i].value = value;
	m->count++;
	return 0;
}

void u64map_clear(struct u64map *m)
{
	memset(m->s, 0, m->cap * sizeof *m->s);
	m->count = 0;
}

size_t u64map_count(const struct u64map *m)
{
	return m->count;
}

void u64map_drop_value(struct u64map *m, uint64_t v)
{
	struct u64map_slot *old = malloc(m->cap * sizeof *old);
	size_t n = m->cap;

	if (!old) {
		u64map_clear(m);
		return;
	}
	memcpy(old, m->s, n * sizeof *old);
	u64map_clear(m);
	for (size_t i = 0; i < n; i++)
		if (old[i].used && old[i].value != v)
			u64map_put(m, old[i].key, old[i].value);
	free(old);
}
