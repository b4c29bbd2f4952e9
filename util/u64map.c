/*
 * u64map.c - linear probing over a power-of-two table kept at most 3/4 full.
 * Entries are never deleted one by one (callers mark them dead by value),
 * which keeps probing simple; or_u64map_drop_value() rebuilds the table.
 */
#include <stdlib.h>
#include <string.h>

#include "util/u64map.h"

struct slot { uint64_t key, value; uint8_t used; };

struct or_u64map {
	struct slot *s;
	size_t cap, count, limit;
};

static size_t hash(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

struct or_u64map *or_u64map_new(size_t limit)
{
	struct or_u64map *m = calloc(1, sizeof *m);

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
static int grow(struct or_u64map *m)
{
	struct slot *old = m->s;
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
			or_u64map_put(m, old[i].key, old[i].value);
	free(old);
	return 0;
}

void or_u64map_free(struct or_u64map *m)
{
	if (m) {
		free(m->s);
		free(m);
	}
}

uint64_t *or_u64map_get(struct or_u64map *m, uint64_t key)
{
	for (size_t i = hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->s[i].used)
			return NULL;
		if (m->s[i].key == key)
			return &m->s[i].value;
	}
}

int or_u64map_put(struct or_u64map *m, uint64_t key, uint64_t value)
{
	size_t i;

	for (i = hash(key, m->cap); m->s[i].used; i = (i + 1) & (m->cap - 1))
		if (m->s[i].key == key) {
			m->s[i].value = value;
			return 0;
		}
	if (m->count >= m->limit)
		return -1;
	if ((m->count + 1) * 4 > m->cap * 3) {
		if (grow(m))
			return -1;
		return or_u64map_put(m, key, value);
	}
	m->s[i].used = 1;
	m->s[i].key = key;
	m->s[i].value = value;
	m->count++;
	return 0;
}

void or_u64map_clear(struct or_u64map *m)
{
	memset(m->s, 0, m->cap * sizeof *m->s);
	m->count = 0;
}

size_t or_u64map_count(const struct or_u64map *m)
{
	return m->count;
}

void or_u64map_drop_value(struct or_u64map *m, uint64_t v)
{
	struct slot *old = malloc(m->cap * sizeof *old);
	size_t n = m->cap;

	if (!old) {
		or_u64map_clear(m);
		return;
	}
	memcpy(old, m->s, n * sizeof *old);
	or_u64map_clear(m);
	for (size_t i = 0; i < n; i++)
		if (old[i].used && old[i].value != v)
			or_u64map_put(m, old[i].key, old[i].value);
	free(old);
}
