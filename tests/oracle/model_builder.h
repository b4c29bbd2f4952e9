/*
 * model_builder.h - build small gcconform model streams in tests, with
 * libcbor, independently of gcgen. A struct mb collects the serialised
 * items; mb_file() hands them to the oracle as a FILE (tmpfile()).
 */
#ifndef TESTS_ORACLE_MODEL_BUILDER_H
#define TESTS_ORACLE_MODEL_BUILDER_H

#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mb { unsigned char *buf; size_t len, cap; uint64_t ts; };

/* Payload bytes under construction. */
struct pl { unsigned char b[4096]; size_t n; };

static inline void pl_u16(struct pl *p, uint64_t v) { for (int i = 0; i < 2; i++) p->b[p->n++] = (unsigned char)(v >> 8 * i); }
static inline void pl_u32(struct pl *p, uint64_t v) { for (int i = 0; i < 4; i++) p->b[p->n++] = (unsigned char)(v >> 8 * i); }
static inline void pl_u64(struct pl *p, uint64_t v) { for (int i = 0; i < 8; i++) p->b[p->n++] = (unsigned char)(v >> 8 * i); }

static inline void mb_append(struct mb *m, cbor_item_t *it)
{
	unsigned char *out = NULL;
	size_t sz = 0, n = cbor_serialize_alloc(it, &out, &sz);

	if (m->len + n > m->cap) {
		m->cap = (m->len + n) * 2;
		m->buf = realloc(m->buf, m->cap);
	}
	memcpy(m->buf + m->len, out, n);
	m->len += n;
	free(out);
	cbor_decref(&it);
}

static inline void mb_kv(cbor_item_t *map, const char *k, cbor_item_t *v)
{
	cbor_map_add(map, (struct cbor_pair){ cbor_move(cbor_build_string(k)),
	                                      cbor_move(v) });
}

static inline void mb_header_v(struct mb *m, unsigned psize, unsigned version)
{
	cbor_item_t *h = cbor_new_definite_map(12);

	mb_kv(h, "format", cbor_build_string("gcconform-model"));
	mb_kv(h, "version", cbor_build_uint8((uint8_t)version));
	mb_kv(h, "pointer_size", cbor_build_uint8((uint8_t)psize));
	mb_kv(h, "clock_frequency", cbor_build_uint32(10000000));
	mb_kv(h, "start_ticks", cbor_build_uint8(0));
	mb_kv(h, "process_id", cbor_build_uint16(1234));
	mb_kv(h, "profile", cbor_build_string("net8"));
	mb_kv(h, "mode", cbor_build_string("realistic"));
	mb_kv(h, "seed", cbor_build_uint8(1));
	mb_kv(h, "keywords", cbor_build_uint8(1));
	mb_kv(h, "level", cbor_build_uint8(5));
	mb_kv(h, "generator", cbor_build_string("model_builder"));
	mb_append(m, h);
}

static inline void mb_header(struct mb *m) { mb_header_v(m, 8, 1); }

/* One event; fields may be NULL (no "fields" key) and is consumed. */
static inline void mb_event_full(struct mb *m, const char *provider,
                                 unsigned id, unsigned version, uint64_t thread,
                                 const struct pl *p, cbor_item_t *fields)
{
	cbor_item_t *e = cbor_new_definite_map(fields ? 11 : 10);

	m->ts += 10;
	mb_kv(e, "timestamp", cbor_build_uint64(m->ts));
	mb_kv(e, "thread", cbor_build_uint64(thread));
	mb_kv(e, "provider", cbor_build_string(provider));
	mb_kv(e, "id", cbor_build_uint16((uint16_t)id));
	mb_kv(e, "version", cbor_build_uint8((uint8_t)version));
	mb_kv(e, "level", cbor_build_uint8(4));
	mb_kv(e, "opcode", cbor_build_uint8(0));
	mb_kv(e, "keywords", cbor_build_uint8(1));
	mb_kv(e, "name", cbor_build_string(""));
	if (fields)
		mb_kv(e, "fields", fields);
	mb_kv(e, "payload", cbor_build_bytestring(p ? p->b : (const unsigned char *)"",
	                                           p ? p->n : 0));
	mb_append(m, e);
}

#define RT "Microsoft-Windows-DotNETRuntime"
static inline void mb_event(struct mb *m, unsigned id, unsigned version,
                            const struct pl *p)
{
	mb_event_full(m, RT, id, version, 1, p, NULL);
}

static inline FILE *mb_file(const struct mb *m, size_t len)
{
	FILE *f = tmpfile();

	fwrite(m->buf, 1, len, f);
	rewind(f);
	return f;
}

#endif
