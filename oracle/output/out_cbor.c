/*
 * out_cbor.c - gcoracle --cbor: the records --json writes, as a CBOR
 * sequence (RFC 8742), one item per record; shapes in docs/oracle-output.cddl.
 *
 * Written with libcbor's encoders (cbor_encode_*), which put heads into a
 * buffer without building item trees. Records are assembled in one buffer
 * that goes to stdio 64 KiB at a time; a record that runs out of memory is
 * dropped whole. Maps have definite lengths and keys come in the order of
 * the JSON records, so the bytes are deterministic. The texts every event
 * repeats (keys, field and event names, the provider) are encoded once and
 * copied: they were half of --cbor's time (docs/oracle-performance.md).
 */
#include <cbor.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/decode/decode_plan.h"
#include "oracle/output/out_fast.h"
#include "oracle/output/output.h"
#include "util/utf.h"

struct or_cbor_out {
	FILE *out;
	unsigned char *b;
	size_t len, cap;
	size_t rec;         /* where the record being assembled starts */
	int failed;         /* out of memory: the record is dropped */
};

#define CBOR_OUT_CHUNK (64 * 1024)

struct or_cbor_out *or_cbor_out_new(FILE *out)
{
	struct or_cbor_out *o = calloc(1, sizeof *o);

	if (o)
		o->out = out;
	return o;
}

/* The complete records go to stdio; a record being assembled stays. */
static void write_out(struct or_cbor_out *o)
{
	if (!o->rec)
		return;
	fwrite(o->b, 1, o->rec, o->out);
	memmove(o->b, o->b + o->rec, o->len - o->rec);
	o->len -= o->rec;
	o->rec = 0;
}

void or_cbor_flush(struct or_cbor_out *o)
{
	write_out(o);
}

void or_cbor_out_free(struct or_cbor_out *o)
{
	if (o) {
		write_out(o);
		free(o->b);
		free(o);
	}
}

static unsigned char *grow(struct or_cbor_out *o, size_t n)
{
	if (o->failed)
		return NULL;
	if (o->cap - o->len < n) {
		size_t cap = o->cap ? o->cap : 4096;
		unsigned char *b;
		while (cap - o->len < n)
			cap *= 2;
		b = realloc(o->b, cap);
		if (!b) {
			o->failed = 1;
			return NULL;
		}
		o->b = b;
		o->cap = cap;
	}
	return o->b + o->len;
}

static inline unsigned char *room(struct or_cbor_out *o, size_t n)
{
	if (o->cap - o->len >= n && !o->failed)
		return o->b + o->len;
	return grow(o, n);
}

/* Encoders write at most 9 bytes of head. */
#define PUT(o, call) do { unsigned char *at_ = room((o), 9); \
	if (at_) (o)->len += call; } while (0)

static inline void put_uint(struct or_cbor_out *o, uint64_t v)
{
	unsigned char *at = room(o, 9);

	if (at)
		o->len += or_cbor_uint_head(at, v);
}

static void put_int(struct or_cbor_out *o, int64_t v)
{
	if (v >= 0)
		put_uint(o, (uint64_t)v);
	else
		PUT(o, cbor_encode_negint((uint64_t)(-1 - v), at_, 9));
}

static void put_map(struct or_cbor_out *o, size_t n)
{
	PUT(o, cbor_encode_map_start(n, at_, 9));
}

static void put_array(struct or_cbor_out *o, size_t n)
{
	PUT(o, cbor_encode_array_start(n, at_, 9));
}

static void put_bytes(struct or_cbor_out *o, const void *s, size_t n)
{
	unsigned char *at;

	PUT(o, cbor_encode_bytestring_start(n, at_, 9));
	if ((at = room(o, n)) != NULL) {
		if (n)
			memcpy(at, s, n);
		o->len += n;
	}
}

/* Text that is UTF-8 already (names, messages, codes). */
static void put_text(struct or_cbor_out *o, const char *s, size_t n)
{
	unsigned char *at;

	PUT(o, cbor_encode_string_start(n, at_, 9));
	if ((at = room(o, n)) != NULL) {
		if (n)
			memcpy(at, s, n);
		o->len += n;
	}
}

static void put_str(struct or_cbor_out *o, const char *s)
{
	put_text(o, s ? s : "", s ? strlen(s) : 0);
}

/* Bytes that are meant to be ASCII: others become U+0080..U+00FF, as in the
 * JSON output, so the text is valid UTF-8. */
static void put_latin1(struct or_cbor_out *o, const uint8_t *s, size_t n)
{
	size_t len = 0;
	unsigned char *at;

	for (size_t i = 0; i < n; i++)
		len += s[i] < 0x80 ? 1 : 2;
	PUT(o, cbor_encode_string_start(len, at_, 9));
	if ((at = room(o, len)) == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		at += or_utf8_put(s[i], at);
	o->len += len;
}

/* Text from the input (names, messages): UTF-8 as it is, other bytes as
 * Latin-1 (or_utf8_next), as in JSON. */
static void put_input_text(struct or_cbor_out *o, const char *s)
{
	size_t n = strlen(s), len = 0, k = 0;
	uint8_t tmp[4];
	unsigned char *at;

	while (k < n)
		len += or_utf8_put(or_utf8_next((const uint8_t *)s, n, &k), tmp);
	PUT(o, cbor_encode_string_start(len, at_, 9));
	if ((at = room(o, len)) == NULL)
		return;
	for (k = 0; k < n;)
		at += or_utf8_put(or_utf8_next((const uint8_t *)s, n, &k), at);
	o->len += len;
}

/* UTF-16LE as UTF-8, unpaired surrogates as U+FFFD. */
static void put_utf16(struct or_cbor_out *o, const uint8_t *s, uint32_t n)
{
	size_t len = 0;
	uint32_t k = 0;
	unsigned char *at;
	uint8_t b[4];

	while (k + 1 < n)
		len += or_utf8_put(or_utf16_next(s, n, &k), b);
	PUT(o, cbor_encode_string_start(len, at_, 9));
	if ((at = room(o, len)) == NULL)
		return;
	for (k = 0; k + 1 < n;)
		at += or_utf8_put(or_utf16_next(s, n, &k), at);
	o->len += len;
}

/* The record is complete (or dropped, when memory ran out); full chunks
 * go out, and everything when `all`. */
static void end_record(struct or_cbor_out *o, int all)
{
	if (o->failed)
		o->len = o->rec;
	o->failed = 0;
	o->rec = o->len;
	if (all || o->len >= CBOR_OUT_CHUNK)
		write_out(o);
}

/* A text encoded once (head and bytes); len 0: too long, not made. */
struct ctext {
	uint8_t len;
	unsigned char s[63];
};

static void ctext_set(struct ctext *t, const char *s)
{
	size_t n = strlen(s), h;

	t->len = 0;
	if (n + 9 > sizeof t->s)
		return;
	h = cbor_encode_string_start(n, t->s, 9);
	if (!h)
		return;
	memcpy(t->s + h, s, n);
	t->len = (uint8_t)(h + n);
}

static inline void put_ctext(struct or_cbor_out *o, const struct ctext *t, const char *s)
{
	unsigned char *at;

	if (!t->len) {
		put_str(o, s);
		return;
	}
	if ((at = room(o, sizeof t->s)) != NULL) {
		/* A fixed-size copy: most texts fit in 24 bytes. */
		if (t->len <= 24)
			memcpy(at, t->s, 24);
		else
			memcpy(at, t->s, sizeof t->s);
		o->len += t->len;
	}
}

enum { K_TYPE, K_EVENT, K_INDEX, K_OFFSET, K_NAME, K_PROVIDER, K_ID, K_VERSION,
       K_TIMESTAMP, K_THREAD, K_PROCESS, K_FIELDS, K_N };
static const char *const key_names[K_N] = {
	"type", "event", "index", "offset", "name", "provider", "id", "version",
	"timestamp", "thread", "process", "fields"
};
static struct ctext keys[K_N], field_keys[GCSPEC_NFIELDS], symbols[GCSPEC_NEVENTS];
static int texts_ready;

/* How a field's value is written: unsigned and non-negative integers inline
 * in the field loop, the rest by value(). */
enum ckind { CK_OTHER, CK_UNSIGNED, CK_SIGNED };
static uint8_t kinds[GCSPEC_NFIELDS];

static void texts_init(void)
{
	for (unsigned i = 0; i < K_N; i++)
		ctext_set(&keys[i], key_names[i]);
	for (unsigned i = 0; i < GCSPEC_NFIELDS; i++) {
		unsigned t = gcspec_fields[i].type;
		ctext_set(&field_keys[i], gcspec_fields[i].name);
		/* an array member's value is its values, not one number */
		kinds[i] = gcspec_field_is_array(&gcspec_fields[i]) ? CK_OTHER
			: t >= GCSPEC_INT8 && t <= GCSPEC_INT64 ? CK_SIGNED
			: t <= GCSPEC_UINT64 || t == GCSPEC_POINTER ? CK_UNSIGNED : CK_OTHER;
	}
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		ctext_set(&symbols[i], gcspec_events[i].symbol);
	texts_ready = 1;
}

#define PUT_KEY(o, k) put_ctext((o), &keys[k], key_names[k])

/* Text t at `at`, which has room for sizeof t->s bytes; returns its end. */
static inline unsigned char *ctext_at(unsigned char *at, const struct ctext *t)
{
	if (t->len <= 24)
		memcpy(at, t->s, 24);
	else
		memcpy(at, t->s, sizeof t->s);
	return at + t->len;
}

static void value(struct or_cbor_out *o, const struct or_decoded *dec,
                  unsigned i, const struct or_val *vals);

/* Field i's key and value: the integers, most of a record, written in place. */
static inline __attribute__((always_inline)) void
put_field(struct or_cbor_out *o, const struct or_decoded *dec,
          const struct gcspec_field *f, unsigned i, const struct or_val *vals)
{
	unsigned fi = (unsigned)(f - gcspec_fields);
	const struct ctext *t = &field_keys[fi];
	uint64_t u = vals[i].u;

	if (t->len && (kinds[fi] == CK_UNSIGNED ||
	               (kinds[fi] == CK_SIGNED && (int64_t)u >= 0))) {
		unsigned char *at = room(o, sizeof t->s + 9);
		if (at) {
			at = ctext_at(at, t);
			o->len += t->len + or_cbor_uint_head(at, u);
		}
		return;
	}
	put_ctext(o, t, f->name);
	value(o, dec, i, vals);
}

static void value(struct or_cbor_out *o, const struct or_decoded *dec,
                  unsigned i, const struct or_val *vals)
{
	const struct gcspec_field *f = &gcspec_event_fields(dec->spec)[i];
	const struct or_val *v = &vals[i];
	const uint8_t *raw = dec->payload + v->off;

	if (gcspec_field_is_array(f)) {
		unsigned wd = or_type_width(f->type, dec->pointer_size);
		int sign = f->type >= GCSPEC_INT8 && f->type <= GCSPEC_INT64;
		put_array(o, (size_t)v->u);
		for (uint64_t k = 0; k < v->u; k++) {
			uint64_t x = or_le(raw + k * wd, wd);
			if (sign)
				put_int(o, (int64_t)(x << (64 - 8 * wd)) >> (64 - 8 * wd));
			else
				put_uint(o, x);
		}
		return;
	}
	switch (f->type) {
	case GCSPEC_INT8: case GCSPEC_INT16: case GCSPEC_INT32: case GCSPEC_INT64:
		put_int(o, (int64_t)v->u);
		break;
	case GCSPEC_BOOLEAN:
		if (v->u <= 1)
			PUT(o, cbor_encode_bool(v->u != 0, at_, 9));
		else
			put_uint(o, v->u);
		break;
	case GCSPEC_FLOAT: {
		float x;
		uint32_t bits = (uint32_t)v->u;
		memcpy(&x, &bits, 4);
		PUT(o, cbor_encode_single(x, at_, 9));
		break;
	}
	case GCSPEC_DOUBLE: {
		double x;
		memcpy(&x, &v->u, 8);
		PUT(o, cbor_encode_double(x, at_, 9));
		break;
	}
	case GCSPEC_GUID: {
		char g[40];
		snprintf(g, sizeof g, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64
		         "-%02x%02x-%02x%02x%02x%02x%02x%02x",
		         or_le(raw, 4), or_le(raw + 4, 2), or_le(raw + 6, 2),
		         raw[8], raw[9], raw[10], raw[11], raw[12], raw[13],
		         raw[14], raw[15]);
		put_text(o, g, strlen(g));
		break;
	}
	case GCSPEC_UNICODE_STRING:
		put_utf16(o, raw, v->len);
		break;
	case GCSPEC_ANSI_STRING:
		put_latin1(o, raw, v->len);
		break;
	case GCSPEC_BINARY:
		put_bytes(o, raw, v->len);
		break;
	case GCSPEC_STRUCT: {
		struct or_val mv[OR_MAX_FIELDS];
		uint32_t at = v->off;
		uint64_t e, n = 0;
		/* Count the elements that decode, as the JSON output shows. */
		for (e = 0; e < v->u; e++)
			if (or_struct_element(dec, i, &at, mv))
				break;
		n = e;
		put_array(o, (size_t)n);
		at = v->off;
		for (e = 0; e < n; e++) {
			or_struct_element(dec, i, &at, mv);
			put_map(o, f->nmembers);
			for (unsigned k = 1; k <= f->nmembers; k++)
				put_field(o, dec, &f[k], i + k, mv);
		}
		break;
	}
	default:
		put_uint(o, v->u);
	}
}

/* The provider's name as put_input_text writes it, the same one event after
 * event: encoded again only when it changes. */
static void put_provider(struct or_cbor_out *o, const char *pname)
{
	static const char *last;
	static struct ctext text;
	size_t n = pname ? strlen(pname) : 0;

	if (pname && pname == last) {
		put_ctext(o, &text, pname);
		return;
	}
	last = NULL;
	if (pname) {
		size_t i = 0;
		while (i < n && (uint8_t)pname[i] < 0x80)
			i++;
		if (i == n) {
			ctext_set(&text, pname);
			if (text.len)
				last = pname;
		}
	}
	put_input_text(o, pname ? pname : "");
}

void or_cbor_event(struct or_cbor_out *o, const struct or_event *ev,
                   const struct or_decoded *dec)
{
	const char *pname = ev->provider >= 0
		? gcspec_providers[ev->provider].name : ev->provider_name;

	if (!texts_ready)
		texts_init();
	{
		/* The header's keys and numbers within one room check: the keys
		 * are short (ctext_at copies 24 bytes), the heads at most 9. */
		unsigned char *at = room(o, 256), *start = at;
		if (at) {
			*at++ = (unsigned char)(0xa0 | (dec ? 11 : 10)); /* map head, < 24 pairs */
			at = ctext_at(at, &keys[K_TYPE]);
			at = ctext_at(at, &keys[K_EVENT]);
			at = ctext_at(at, &keys[K_INDEX]);
			at += or_cbor_uint_head(at, ev->index);
			at = ctext_at(at, &keys[K_OFFSET]);
			at += or_cbor_uint_head(at, ev->offset);
			at = ctext_at(at, &keys[K_NAME]);
			o->len += (size_t)(at - start);
		}
	}
	if (dec)
		put_ctext(o, &symbols[dec->spec - gcspec_events], dec->spec->symbol);
	else
		put_str(o, "");
	PUT_KEY(o, K_PROVIDER); put_provider(o, pname);
	{
		unsigned char *at = room(o, 256), *start = at;
		if (at) {
			at = ctext_at(at, &keys[K_ID]);
			at += or_cbor_uint_head(at, ev->id);
			at = ctext_at(at, &keys[K_VERSION]);
			at += or_cbor_uint_head(at, ev->version);
			at = ctext_at(at, &keys[K_TIMESTAMP]);
			at += or_cbor_uint_head(at, ev->timestamp);
			at = ctext_at(at, &keys[K_THREAD]);
			at += or_cbor_uint_head(at, ev->thread_id);
			at = ctext_at(at, &keys[K_PROCESS]);
			at += or_cbor_uint_head(at, ev->process);
			o->len += (size_t)(at - start);
		}
	}
	if (dec) {
		const struct gcspec_field *f = gcspec_event_fields(dec->spec);
		size_t n = 0;
		for (unsigned i = 0; i < dec->nvalid; i++)
			n += !f[i].is_member;
		PUT_KEY(o, K_FIELDS);
		put_map(o, n);
		for (unsigned i = 0; i < dec->nvalid; i++)
			if (!f[i].is_member)
				put_field(o, dec, &f[i], i, dec->v);
	}
	end_record(o, 0);
}

void or_cbor_diag(struct or_cbor_out *o, const struct or_diag *d)
{
	put_map(o, 7);
	put_str(o, "type"); put_str(o, "diag");
	put_str(o, "code"); put_str(o, or_diag_code(d->code));
	put_str(o, "severity"); put_str(o, or_severity_name(d->severity));
	put_str(o, "event");
	if (d->event == OR_NO_EVENT)
		PUT(o, cbor_encode_null(at_, 9));
	else
		put_uint(o, d->event);
	put_str(o, "offset"); put_uint(o, d->offset);
	put_str(o, "name"); put_input_text(o, d->name ? d->name : "");
	put_str(o, "message"); put_input_text(o, d->message);
	end_record(o, 0);
}

void or_cbor_summary(struct or_cbor_out *o, const struct or_ctx *ctx)
{
	const struct or_stats *s = &ctx->stats;
	size_t n = 0;

	put_map(o, 13);
	put_str(o, "type"); put_str(o, "summary");
	put_str(o, "events"); put_uint(o, s->events);
	put_str(o, "bytes"); put_uint(o, s->bytes);
	put_str(o, "gcs"); put_uint(o, s->gcs);
	put_str(o, "suspensions"); put_uint(o, s->suspensions);
	put_str(o, "unknown_version"); put_uint(o, s->unknown_version);
	put_str(o, "unknown_id"); put_uint(o, s->unknown_id);
	put_str(o, "other_provider"); put_uint(o, s->other_provider);
	put_str(o, "errors"); put_uint(o, ctx->diag.by_severity[GCSPEC_ERROR]);
	put_str(o, "warnings"); put_uint(o, ctx->diag.by_severity[GCSPEC_WARNING]);
	put_str(o, "notes"); put_uint(o, ctx->diag.by_severity[GCSPEC_NOTE]);
	put_str(o, "per_event");
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		n += s->per_event[i] != 0;
	put_map(o, n);
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		if (s->per_event[i]) {
			put_str(o, gcspec_events[i].symbol);
			put_uint(o, s->per_event[i]);
		}
	put_str(o, "diagnostics");
	n = 0;
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		n += ctx->diag.counts[i] != 0;
	put_map(o, n);
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (ctx->diag.counts[i]) {
			put_str(o, gcspec_diags[i].code);
			put_uint(o, ctx->diag.counts[i]);
		}
	end_record(o, 1);
}
