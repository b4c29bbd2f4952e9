/*
 * reorder_class.c - the classes of the events the time-order window holds
 * (provider, id, version, level, opcode, keywords, pointer size): kept once per kind in
 * a table and named by index in each record, so a record stays 64 bytes.
 *
 * Found by content with a hash table, not through the reader: any reader
 * can feed the window, and a nettrace file may redefine what a metadata id
 * means at any point. The table is emptied with the window; a window that
 * is never empty (a file without sync points) drops the classes none of
 * its events has once they are many.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/reorder/reorder_i.h"

static uint64_t class_hash(const struct or_event *ev)
{
	uint64_t h = (uint64_t)(uint32_t)ev->provider ^ (uint64_t)ev->id << 16 ^
	             (uint64_t)ev->version << 32 ^ (uint64_t)ev->level << 40 ^
	             (uint64_t)ev->opcode << 48 ^ (uint64_t)ev->pointer_size << 56;

	h ^= ev->keywords * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)ev->provider_name;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	return h ^ h >> 33;
}

static int same(const struct or_rclass *c, const struct or_event *ev)
{
	return c->id == ev->id && c->version == ev->version &&
	       c->provider == ev->provider && c->keywords == ev->keywords &&
	       c->level == ev->level && c->opcode == ev->opcode &&
	       c->provider_name == ev->provider_name && c->pointer_size == ev->pointer_size;
}

/* Put class index c (whose hash is h) in the index table. */
static void index_put(struct or_reorder *q, uint64_t h, uint32_t c)
{
	size_t mask = q->cls_cap - 1, i = h & mask;

	while (q->cls_ix[i])
		i = (i + 1) & mask;
	q->cls_ix[i] = c + 1;
}

static uint64_t class_hash_of(const struct or_rclass *c)
{
	struct or_event e;

	e.provider = c->provider;
	e.provider_name = c->provider_name;
	e.id = c->id;
	e.version = c->version;
	e.level = c->level;
	e.opcode = c->opcode;
	e.keywords = c->keywords;
	e.pointer_size = c->pointer_size;
	return class_hash(&e);
}

/* Index every class again into a table of cap slots. 0, or -1. */
static int reindex(struct or_reorder *q, size_t cap)
{
	uint32_t *ix = calloc(cap, sizeof *ix);

	if (!ix)
		return -1;
	free(q->cls_ix);
	q->cls_ix = ix;
	q->cls_cap = cap;
	for (size_t c = 0; c < q->ncls; c++)
		index_put(q, class_hash_of(&q->cls[c]), (uint32_t)c);
	return 0;
}

/* By content: the class like ev's, or a new one. */
static uint32_t find(struct or_reorder *q, const struct or_event *ev)
{
	uint64_t h = class_hash(ev);
	struct or_rclass *c;

	if (q->cls_cap) {
		size_t mask = q->cls_cap - 1;
		for (size_t i = h & mask; q->cls_ix[i]; i = (i + 1) & mask)
			if (same(&q->cls[q->cls_ix[i] - 1], ev))
				return q->cls_ix[i] - 1;
	}
	if (q->ncls == q->capcls) {
		size_t cap = q->capcls ? q->capcls * 2 : 64;
		if (cap >= NONE || !(c = realloc(q->cls, cap * sizeof *c)))
			return NONE;
		q->cls = c;
		q->capcls = cap;
	}
	if ((q->ncls + 1) * 2 > q->cls_cap && reindex(q, q->cls_cap ? q->cls_cap * 2 : 128))
		return NONE;
	c = &q->cls[q->ncls];
	c->provider = ev->provider;
	c->provider_name = ev->provider_name;
	c->id = ev->id;
	c->version = ev->version;
	c->level = ev->level;
	c->opcode = ev->opcode;
	c->keywords = ev->keywords;
	c->pointer_size = ev->pointer_size;
	index_put(q, h, (uint32_t)q->ncls);
	return (uint32_t)q->ncls++;
}

uint32_t or_rclass_of(struct or_reorder *q, const struct or_event *ev)
{
	uint32_t c;

	/* A reader that numbers its classes spares the comparing. */
	if (ev->cls) {
		size_t k = ev->cls & (sizeof q->ccache / sizeof q->ccache[0] - 1);
		if (q->ccache[k].key == ev->cls)
			return q->ccache[k].cls;
		c = find(q, ev);
		if (c != NONE) {
			q->ccache[k].key = ev->cls;
			q->ccache[k].cls = c;
		}
		return c;
	}
	return find(q, ev);
}

/* Class indexes change: forget what the reader's numbers stood for. */
static void forget_numbers(struct or_reorder *q)
{
	for (size_t k = 0; k < sizeof q->ccache / sizeof q->ccache[0]; k++)
		q->ccache[k].key = 0;
}

void or_rclass_reset(struct or_reorder *q)
{
	if (!q->ncls)
		return;
	if (q->cls_cap)
		memset(q->cls_ix, 0, q->cls_cap * sizeof *q->cls_ix);
	q->ncls = 0;
	forget_numbers(q);
}

void or_rclass_compact(struct or_reorder *q)
{
	uint32_t *map;
	size_t kept = 0;

	if (q->ncls <= 2 * q->n + 1024)
		return;
	map = malloc(q->ncls * sizeof *map);
	if (!map)
		return;
	/* Mark the classes in use, move them down in order, renumber. */
	memset(map, 0xff, q->ncls * sizeof *map);
	for (size_t i = 0; i < q->n; i++)
		map[q->rec[i].cls] = 0;
	for (size_t c = 0; c < q->ncls; c++)
		if (map[c] != NONE) {
			map[c] = (uint32_t)kept;
			q->cls[kept++] = q->cls[c];
		}
	for (size_t i = 0; i < q->n; i++)
		q->rec[i].cls = map[q->rec[i].cls];
	free(map);
	q->ncls = kept;
	forget_numbers(q);
	if (q->cls_cap)
		memset(q->cls_ix, 0, q->cls_cap * sizeof *q->cls_ix);
	for (size_t c = 0; c < q->ncls; c++)
		index_put(q, class_hash_of(&q->cls[c]), (uint32_t)c);
}

void or_rclass_free(struct or_reorder *q)
{
	free(q->cls);
	free(q->cls_ix);
}
