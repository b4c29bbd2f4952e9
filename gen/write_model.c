/*
 * write_model.c - the CBOR model stream (docs/model-stream.cddl).
 *
 * Items are built with libcbor's streaming encoders straight into one
 * output buffer: no cbor_item_t trees, no allocation per event, and the
 * bytes depend only on the events (definite lengths, shortest integers,
 * keys in schema order).
 */
#include "config.h"

#include <cbor.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "values.h"
#include "writer.h"

#define MODEL_BUF (1u << 20)

struct model_writer {
	struct gen_writer base;
	FILE *out;
	unsigned pointer_size;
	uint8_t *buf;
	size_t cap, used;
	size_t mark;       /* start of the item being written */
	int full;          /* an encoder ran out of room for this item */
};

static struct gen_writer *model_create(void)
{
	struct model_writer *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->buf = malloc(MODEL_BUF);
	if (!m->buf) {
		free(m);
		return NULL;
	}
	m->cap = MODEL_BUF;
	return &m->base;
}

static void model_destroy(struct gen_writer *w)
{
	struct model_writer *m = (struct model_writer *)w;

	if (m) {
		free(m->buf);
		free(m);
	}
}

static int flush_out(struct model_writer *m, size_t upto)
{
	if (upto && fwrite(m->buf, 1, upto, m->out) != upto)
		return gen_writer_fail(&m->base, "write failed");
	memmove(m->buf, m->buf + upto, m->used - upto);
	m->used -= upto;
	return 0;
}

/* One libcbor call: n bytes written, or 0 meaning "no room". */
static void put(struct model_writer *m, size_t n)
{
	if (n == 0)
		m->full = 1;
	m->used += n;
}

#define ROOM(m) ((m)->full ? 0 : (m)->cap - (m)->used)
#define AT(m) ((m)->buf + (m)->used)

static void put_uint(struct model_writer *m, uint64_t x)
{
	put(m, cbor_encode_uint(x, AT(m), ROOM(m)));
}

static void put_bytes(struct model_writer *m, int text, const void *p, size_t len)
{
	if (m->full)
		return;
	put(m, text ? cbor_encode_string_start(len, AT(m), ROOM(m))
		    : cbor_encode_bytestring_start(len, AT(m), ROOM(m)));
	if (m->full || ROOM(m) < len) {
		m->full = 1;
		return;
	}
	if (len)
		memcpy(AT(m), p, len);
	m->used += len;
}

static void put_text(struct model_writer *m, const char *s)
{
	put_bytes(m, 1, s, strlen(s));
}

static void put_kv_uint(struct model_writer *m, const char *k, uint64_t x)
{
	put_text(m, k);
	put_uint(m, x);
}

/* A field value as the payload decodes it: masked to its width, signed
 * types sign-extended, Booleans as bool when 0 or 1. */
static void put_value(struct model_writer *m, const struct gen_values *v,
		      const struct gcspec_field *f, const struct gen_value *x)
{
	unsigned w = gen_type_width(f->type, m->pointer_size);
	uint64_t u = x->u;

	switch (f->type) {
	case GCSPEC_INT8: case GCSPEC_INT16: case GCSPEC_INT32: case GCSPEC_INT64: {
		int64_t s;

		if (w < 8) {
			u &= (1ull << (8 * w)) - 1;
			if (u >> (8 * w - 1))
				u |= ~0ull << (8 * w);
		}
		s = (int64_t)u;
		if (s < 0)
			put(m, cbor_encode_negint((uint64_t)(-1 - s), AT(m), ROOM(m)));
		else
			put_uint(m, u);
		return;
	}
	case GCSPEC_BOOLEAN:
		u &= 0xFFFFFFFFu;
		if (u <= 1)
			put(m, cbor_encode_bool(u == 1, AT(m), ROOM(m)));
		else
			put_uint(m, u);
		return;
	case GCSPEC_FLOAT: case GCSPEC_DOUBLE: {
		double d;

		memcpy(&d, &u, sizeof d);
		if (f->type == GCSPEC_FLOAT)
			put(m, cbor_encode_single((float)d, AT(m), ROOM(m)));
		else
			put(m, cbor_encode_double(d, AT(m), ROOM(m)));
		return;
	}
	case GCSPEC_UNICODE_STRING: case GCSPEC_ANSI_STRING: {
		const uint8_t *p = gen_value_data(v, x);
		const uint8_t *nul = memchr(p, 0, x->len);

		/* The wire string ends at an embedded NUL; so does the model. */
		put_bytes(m, 1, p, nul ? (size_t)(nul - p) : x->len);
		return;
	}
	case GCSPEC_GUID:
		if (x->len == 16) {
			put_bytes(m, 0, gen_value_data(v, x), 16);
		} else {
			static const uint8_t zero[16];

			put_bytes(m, 0, zero, 16);
		}
		return;
	case GCSPEC_BINARY:
		put_bytes(m, 0, gen_value_data(v, x), x->len);
		return;
	default:
		if (w < 8)
			u &= (1ull << (8 * w)) - 1;
		put_uint(m, u);
	}
}

static void put_fields(struct model_writer *m, const struct gen_values *v)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	size_t top = 0;

	for (unsigned i = 0; i < v->nfields; i++)
		top += !f[i].is_member;
	put(m, cbor_encode_map_start(top, AT(m), ROOM(m)));
	for (unsigned i = 0; i < v->nfields; i++) {
		if (f[i].is_member)
			continue;
		put_text(m, f[i].name);
		if (f[i].type != GCSPEC_STRUCT) {
			put_value(m, v, &f[i], &v->field[i]);
			continue;
		}
		put(m, cbor_encode_array_start(v->nrows, AT(m), ROOM(m)));
		for (unsigned r = 0; r < v->nrows; r++) {
			put(m, cbor_encode_map_start(f[i].nmembers, AT(m), ROOM(m)));
			for (unsigned k = 0; k < f[i].nmembers; k++) {
				put_text(m, f[i + 1 + k].name);
				put_value(m, v, &f[i + 1 + k], &v->cell[r * v->nmembers + k]);
			}
		}
	}
}

/* Run an item writer; when the buffer is too small, flush and retry, and
 * grow the buffer when even an empty one is too small. */
#define WRITE_ITEM(m, body)                                                   \
	for (;;) {                                                            \
		(m)->mark = (m)->used;                                        \
		(m)->full = 0;                                                \
		body;                                                         \
		if (!(m)->full)                                               \
			break;                                                \
		(m)->used = (m)->mark;                                        \
		if ((m)->used) {                                              \
			if (flush_out((m), (m)->used) < 0)                    \
				return -1;                                    \
		} else {                                                      \
			uint8_t *nb = realloc((m)->buf, (m)->cap * 2);        \
			if (!nb)                                              \
				return gen_writer_fail(&(m)->base, "out of memory"); \
			(m)->buf = nb;                                        \
			(m)->cap *= 2;                                        \
		}                                                             \
	}

static void put_header(struct model_writer *m, const struct gen_stream_info *info)
{
	put(m, cbor_encode_map_start(12, AT(m), ROOM(m)));
	put_text(m, "format");
	put_text(m, "gcconform-model");
	put_kv_uint(m, "version", 1);
	put_kv_uint(m, "pointer_size", info->pointer_size);
	put_kv_uint(m, "clock_frequency", info->clock_frequency);
	put_kv_uint(m, "start_ticks", info->start_ticks);
	put_kv_uint(m, "process_id", info->process_id);
	put_text(m, "profile");
	put_text(m, info->profile ? info->profile : "");
	put_text(m, "mode");
	put_text(m, info->mode ? info->mode : "realistic");
	put_kv_uint(m, "seed", info->seed);
	put_kv_uint(m, "keywords", info->keywords);
	put_kv_uint(m, "level", info->level);
	put_text(m, "generator");
	put_text(m, PACKAGE_NAME " " PACKAGE_VERSION);
}

static int model_begin(struct gen_writer *w, FILE *out, const struct gen_stream_info *info)
{
	struct model_writer *m = (struct model_writer *)w;

	if (info->pointer_size != 4 && info->pointer_size != 8)
		return gen_writer_fail(w, "pointer size %u is not 4 or 8", info->pointer_size);
	m->out = out;
	m->pointer_size = info->pointer_size;
	m->used = 0;
	WRITE_ITEM(m, put_header(m, info));
	return 0;
}

static void put_event(struct model_writer *m, const struct gen_event *ev)
{
	const char *name = ev->spec_event != GEN_NO_SPEC ? gcspec_events[ev->spec_event].symbol : "";
	const char *prov = ev->provider < GCSPEC_NPROVIDERS ? gcspec_providers[ev->provider].name : "";
	int with_fields = ev->values != NULL;

	put(m, cbor_encode_map_start(with_fields ? 11 : 10, AT(m), ROOM(m)));
	put_kv_uint(m, "timestamp", ev->timestamp);
	put_kv_uint(m, "thread", ev->thread_id);
	put_text(m, "provider");
	put_text(m, prov);
	put_kv_uint(m, "id", ev->id);
	put_kv_uint(m, "version", ev->version);
	put_kv_uint(m, "level", ev->level);
	put_kv_uint(m, "opcode", ev->opcode);
	put_kv_uint(m, "keywords", ev->keywords);
	put_text(m, "name");
	put_text(m, name);
	if (with_fields) {
		put_text(m, "fields");
		put_fields(m, ev->values);
	}
	put_text(m, "payload");
	put_bytes(m, 0, ev->payload, ev->payload_len);
}

static int model_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct model_writer *m = (struct model_writer *)w;

	WRITE_ITEM(m, put_event(m, ev));
	if (m->cap - m->used < 64 * 1024)
		return flush_out(m, m->used);
	return 0;
}

static int model_end(struct gen_writer *w)
{
	struct model_writer *m = (struct model_writer *)w;

	if (flush_out(m, m->used) < 0)
		return -1;
	if (fflush(m->out) != 0)
		return gen_writer_fail(w, "write failed");
	return 0;
}

const struct gen_writer_ops gen_write_model_ops = {
	.format = "cbor",
	.description = "the gcconform CBOR model stream (docs/model-stream.cddl)",
	.create = model_create,
	.begin = model_begin,
	.event = model_event,
	.end = model_end,
	.destroy = model_destroy,
};
