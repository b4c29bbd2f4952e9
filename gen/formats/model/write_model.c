/*
 * write_model.c - the CBOR model stream (docs/model-stream.cddl).
 *
 * Items are built with libcbor's streaming encoders straight into one
 * output buffer: no cbor_item_t trees, no allocation per event, and the
 * bytes depend only on the events (definite lengths, shortest integers,
 * keys in schema order). Every text an item repeats (keys, field names,
 * event and provider names) is encoded once at create(), and the room an
 * event needs is checked once, against an upper bound, before it is
 * written: this is gcgen's hottest path.
 */
#include "config.h"

#include <cbor.h>
#include <stdlib.h>
#include <string.h>

#include "gen/model/encode.h"
#include "gen/model/values.h"
#include "gen/formats/writer.h"

#define MODEL_BUF (1u << 20)

/* A CBOR text string item (head and bytes) encoded once, at create(). */
struct key {
	uint32_t at;       /* into model_writer.keys */
	uint32_t len;
};

enum {
	K_TIMESTAMP, K_THREAD, K_PROVIDER, K_ID, K_VERSION, K_LEVEL, K_OPCODE, K_KEYWORDS,
	K_NAME, K_FIELDS, K_PAYLOAD, K_EMPTY, K_PROCESS, K_COUNT
};
static const char *const key_text[K_COUNT] = {
	"timestamp", "thread", "provider", "id", "version", "level", "opcode", "keywords",
	"name", "fields", "payload", "", "process"
};

struct model_writer {
	struct gen_writer base;
	FILE *out;
	unsigned pointer_size;
	uint8_t *buf;
	size_t cap, used;
	/* Every text an event item repeats, encoded once: the event keys, the
	 * spec's field names, event symbols and provider names. An event is
	 * then mostly copies of these and libcbor's integer encoders. */
	uint8_t *keys;
	size_t nkeys_bytes;
	struct key key[K_COUNT];
	struct key field_key[GCSPEC_NFIELDS];
	struct key event_key[GCSPEC_NEVENTS];
	struct key provider_key[GCSPEC_NPROVIDERS];
	/* Upper bounds on an event's "fields" map, for one room check per
	 * event: the map without its rows, and one row. */
	uint32_t fields_bound[GCSPEC_NEVENTS];
	uint32_t row_bound[GCSPEC_NEVENTS];
	uint32_t event_bound;      /* an event item without payload bytes and fields */
};

/* Largest CBOR head (major type and 8-byte argument), and the largest
 * value item besides its bytes: a head, or a 16-byte zero GUID. */
#define HEAD_MAX 9
#define VALUE_MAX (HEAD_MAX + 16)
/* put_key copies keys this long or shorter as one fixed-size block. */
#define KEY_COPY 32

static int add_key(struct model_writer *m, struct key *k, const char *text, size_t *cap)
{
	size_t len = strlen(text), n;

	if (*cap - m->nkeys_bytes < len + HEAD_MAX) {
		uint8_t *p = realloc(m->keys, *cap * 2 + len + HEAD_MAX);

		if (!p)
			return -1;
		m->keys = p;
		*cap = *cap * 2 + len + HEAD_MAX;
	}
	n = cbor_encode_string_start(len, m->keys + m->nkeys_bytes, HEAD_MAX);
	if (!n)
		return -1;
	memcpy(m->keys + m->nkeys_bytes + n, text, len);
	k->at = (uint32_t)m->nkeys_bytes;
	k->len = (uint32_t)(n + len);
	m->nkeys_bytes += n + len;
	return 0;
}

static int add_slack(struct model_writer *m, size_t *cap)
{
	if (*cap - m->nkeys_bytes < KEY_COPY) {
		uint8_t *p = realloc(m->keys, m->nkeys_bytes + KEY_COPY);

		if (!p)
			return -1;
		m->keys = p;
		*cap = m->nkeys_bytes + KEY_COPY;
	}
	memset(m->keys + m->nkeys_bytes, 0, KEY_COPY);
	return 0;
}

static int build_keys(struct model_writer *m)
{
	size_t cap = 0;
	uint32_t longest = 0;

	for (unsigned i = 0; i < K_COUNT; i++) {
		if (add_key(m, &m->key[i], key_text[i], &cap) < 0)
			return -1;
		m->event_bound += m->key[i].len + HEAD_MAX;
	}
	for (unsigned i = 0; i < GCSPEC_NFIELDS; i++)
		if (add_key(m, &m->field_key[i], gcspec_fields[i].name, &cap) < 0)
			return -1;
	for (unsigned i = 0; i < GCSPEC_NPROVIDERS; i++) {
		if (add_key(m, &m->provider_key[i], gcspec_providers[i].name, &cap) < 0)
			return -1;
		if (m->provider_key[i].len > longest)
			longest = m->provider_key[i].len;
	}
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *ev = &gcspec_events[i];
		uint32_t top = HEAD_MAX, row = HEAD_MAX;

		if (add_key(m, &m->event_key[i], ev->symbol, &cap) < 0)
			return -1;
		if (m->event_key[i].len > longest)
			longest = m->event_key[i].len;
		for (unsigned f = 0; f < ev->nfields; f++) {
			uint32_t one = m->field_key[ev->first_field + f].len + VALUE_MAX;

			if (gcspec_fields[ev->first_field + f].is_member)
				row += one;
			else
				top += one;
		}
		m->fields_bound[i] = top;
		m->row_bound[i] = row;
	}
	/* The map head, the provider name and the event name (counted as
	 * the longest of either), the payload's head. */
	m->event_bound += HEAD_MAX + 2 * longest + HEAD_MAX;
	/* Slack for put_key's fixed-size copies from the end of the blob. */
	return add_slack(m, &cap);
}

static struct gen_writer *model_create(void)
{
	struct model_writer *m = calloc(1, sizeof *m);

	if (!m)
		return NULL;
	m->buf = malloc(MODEL_BUF);
	if (!m->buf || build_keys(m) < 0) {
		free(m->buf);
		free(m->keys);
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
		free(m->keys);
		free(m);
	}
}
static int flush_out(struct model_writer *m)
{
	if (m->used && fwrite(m->buf, 1, m->used, m->out) != m->used)
		return gen_writer_fail(&m->base, "write failed");
	m->used = 0;
	return 0;
}

/* Make room for an item of at most `bound` bytes (plus KEY_COPY slack for
 * put_key's fixed-size copies): flush, and grow the buffer when even an
 * empty one is too small. Then the put_ functions store without checks. */
static int room(struct model_writer *m, size_t bound)
{
	bound += KEY_COPY;
	if (m->cap - m->used >= bound)
		return 0;
	if (flush_out(m) < 0)
		return -1;
	if (m->cap < bound) {
		uint8_t *nb = realloc(m->buf, bound);

		if (!nb)
			return gen_writer_fail(&m->base, "out of memory");
		m->buf = nb;
		m->cap = bound;
	}
	return 0;
}

static uint8_t *put_uint(uint8_t *o, uint64_t x)
{
	/* Below 24 a CBOR unsigned integer is its own one-byte head: the
	 * most common case here, without a call. */
	if (x < 24) {
		*o = (uint8_t)x;
		return o + 1;
	}
	return o + cbor_encode_uint(x, o, HEAD_MAX);
}

static uint8_t *put_bytes(uint8_t *o, int text, const void *p, size_t len)
{
	o += text ? cbor_encode_string_start(len, o, HEAD_MAX)
		  : cbor_encode_bytestring_start(len, o, HEAD_MAX);
	if (len)
		memcpy(o, p, len);
	return o + len;
}

/* A text encoded at create(). Keys are short: one fixed-size copy (the
 * key blob and the buffer have KEY_COPY bytes of slack) instead of a
 * call to memcpy with a variable length. */
static uint8_t *put_key(const struct model_writer *m, uint8_t *o, const struct key *k)
{
	if (k->len <= KEY_COPY)
		memcpy(o, m->keys + k->at, KEY_COPY);
	else
		memcpy(o, m->keys + k->at, k->len);
	return o + k->len;
}

/* A field value as the payload decodes it: masked to its width, signed
 * types sign-extended, Booleans as bool when 0 or 1. */
static uint8_t *put_value(const struct model_writer *m, uint8_t *o, const struct gen_values *v,
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
			return o + cbor_encode_negint((uint64_t)(-1 - s), o, HEAD_MAX);
		return put_uint(o, u);
	}
	case GCSPEC_BOOLEAN:
		u &= 0xFFFFFFFFu;
		if (u <= 1)
			return o + cbor_encode_bool(u == 1, o, HEAD_MAX);
		return put_uint(o, u);
	case GCSPEC_FLOAT: case GCSPEC_DOUBLE: {
		double d;

		memcpy(&d, &u, sizeof d);
		if (f->type == GCSPEC_FLOAT)
			return o + cbor_encode_single((float)d, o, HEAD_MAX);
		return o + cbor_encode_double(d, o, HEAD_MAX);
	}
	case GCSPEC_UNICODE_STRING: case GCSPEC_ANSI_STRING: {
		const uint8_t *p = gen_value_data(v, x);
		const uint8_t *nul = memchr(p, 0, x->len);

		/* The wire string ends at an embedded NUL; so does the model. */
		return put_bytes(o, 1, p, nul ? (size_t)(nul - p) : x->len);
	}
	case GCSPEC_GUID:
		if (x->len == 16) {
			return put_bytes(o, 0, gen_value_data(v, x), 16);
		} else {
			static const uint8_t zero[16];

			return put_bytes(o, 0, zero, 16);
		}
	case GCSPEC_BINARY:
		return put_bytes(o, 0, gen_value_data(v, x), x->len);
	default:
		/* An array member: its values' wire bytes, as a Binary's
		 * (docs/model-stream.cddl). */
		if (gcspec_field_is_array(f))
			return put_bytes(o, 0, gen_value_data(v, x), x->len);
		if (w < 8)
			u &= (1ull << (8 * w)) - 1;
		return put_uint(o, u);
	}
}

/* Upper bound on the "fields" map of v. */
static size_t fields_bound(const struct model_writer *m, const struct gen_values *v)
{
	return m->fields_bound[v->event] + (size_t)v->nrows * m->row_bound[v->event] +
	       v->arena_used;
}

static uint8_t *put_fields(const struct model_writer *m, uint8_t *o, const struct gen_values *v)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	const struct key *fk = &m->field_key[gcspec_events[v->event].first_field];
	size_t top = v->nfields - (v->struct_field >= 0 ? v->nmembers : 0);

	o += cbor_encode_map_start(top, o, HEAD_MAX);
	for (unsigned i = 0; i < v->nfields; i++) {
		if (f[i].is_member)
			continue;
		o = put_key(m, o, &fk[i]);
		if (f[i].type != GCSPEC_STRUCT) {
			o = put_value(m, o, v, &f[i], &v->field[i]);
			continue;
		}
		o += cbor_encode_array_start(v->nrows, o, HEAD_MAX);
		for (unsigned r = 0; r < v->nrows; r++) {
			o += cbor_encode_map_start(f[i].nmembers, o, HEAD_MAX);
			for (unsigned k = 0; k < f[i].nmembers; k++) {
				o = put_key(m, o, &fk[i + 1 + k]);
				o = put_value(m, o, v, &f[i + 1 + k], &v->cell[r * v->nmembers + k]);
			}
		}
	}
	return o;
}

static uint8_t *put_text(const struct model_writer *m, uint8_t *o, const char *text)
{
	(void)m;
	return put_bytes(o, 1, text, strlen(text));
}

static uint8_t *put_kv_text(const struct model_writer *m, uint8_t *o, const char *k,
			    const char *text)
{
	return put_text(m, put_text(m, o, k), text);
}

static uint8_t *put_kv_uint(const struct model_writer *m, uint8_t *o, const char *k, uint64_t x)
{
	return put_uint(put_text(m, o, k), x);
}

static int model_begin(struct gen_writer *w, FILE *out, const struct gen_stream_info *info)
{
	struct model_writer *m = (struct model_writer *)w;
	const char *profile = info->profile ? info->profile : "";
	const char *mode = info->mode ? info->mode : "realistic";
	uint8_t *o;

	if (info->pointer_size != 4 && info->pointer_size != 8)
		return gen_writer_fail(w, "pointer size %u is not 4 or 8", info->pointer_size);
	m->out = out;
	m->pointer_size = info->pointer_size;
	m->used = 0;
	/* Twelve keys and values: 512 bytes and the two free texts. */
	if (room(m, 512 + 2 * HEAD_MAX + strlen(profile) + strlen(mode)) < 0)
		return -1;
	o = m->buf;
	o += cbor_encode_map_start(12, o, HEAD_MAX);
	o = put_kv_text(m, o, "format", "gcconform-model");
	o = put_kv_uint(m, o, "version", 1);
	o = put_kv_uint(m, o, "pointer_size", info->pointer_size);
	o = put_kv_uint(m, o, "clock_frequency", info->clock_frequency);
	o = put_kv_uint(m, o, "start_ticks", info->start_ticks);
	o = put_kv_uint(m, o, "process_id", info->process_id);
	o = put_kv_text(m, o, "profile", profile);
	o = put_kv_text(m, o, "mode", mode);
	o = put_kv_uint(m, o, "seed", info->seed);
	o = put_kv_uint(m, o, "keywords", info->keywords);
	o = put_kv_uint(m, o, "level", info->level);
	o = put_kv_text(m, o, "generator", PACKAGE_NAME " " PACKAGE_VERSION);
	m->used = (size_t)(o - m->buf);
	return 0;
}

static int model_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct model_writer *m = (struct model_writer *)w;
	const struct gen_values *v = ev->values;
	size_t bound = m->event_bound + ev->payload_len;
	uint8_t *o;

	if (ev->kind != GEN_EV_RUNTIME)
		return 0; /* the model stream holds the runtime's events alone */
	if (v)
		bound += m->key[K_FIELDS].len + fields_bound(m, v);
	if (room(m, bound) < 0)
		return -1;
	o = m->buf + m->used;
	/* An event of a machine-wide stream (gcgen --processes, whose --values
	 * file is this writer's) names its process; a one-process stream's
	 * events have the header's. */
	o += cbor_encode_map_start((v ? 11u : 10u) + (ev->process_id != 0), o, HEAD_MAX);
	o = put_uint(put_key(m, o, &m->key[K_TIMESTAMP]), ev->timestamp);
	o = put_uint(put_key(m, o, &m->key[K_THREAD]), ev->thread_id);
	if (ev->process_id)
		o = put_uint(put_key(m, o, &m->key[K_PROCESS]), ev->process_id);
	o = put_key(m, o, &m->key[K_PROVIDER]);
	o = put_key(m, o, ev->provider < GCSPEC_NPROVIDERS ? &m->provider_key[ev->provider]
							   : &m->key[K_EMPTY]);
	o = put_uint(put_key(m, o, &m->key[K_ID]), ev->id);
	o = put_uint(put_key(m, o, &m->key[K_VERSION]), ev->version);
	o = put_uint(put_key(m, o, &m->key[K_LEVEL]), ev->level);
	o = put_uint(put_key(m, o, &m->key[K_OPCODE]), ev->opcode);
	o = put_uint(put_key(m, o, &m->key[K_KEYWORDS]), ev->keywords);
	o = put_key(m, o, &m->key[K_NAME]);
	o = put_key(m, o, ev->spec_event < GCSPEC_NEVENTS ? &m->event_key[ev->spec_event]
							  : &m->key[K_EMPTY]);
	if (v)
		o = put_fields(m, put_key(m, o, &m->key[K_FIELDS]), v);
	o = put_key(m, o, &m->key[K_PAYLOAD]);
	o = put_bytes(o, 0, ev->payload, ev->payload_len);
	m->used = (size_t)(o - m->buf);
	return 0;
}

static int model_end(struct gen_writer *w)
{
	struct model_writer *m = (struct model_writer *)w;

	if (flush_out(m) < 0)
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
	.needs_values = 1,
};
