/*
 * model_fields.c - GC-M005: the model stream records each event's field
 * values by name next to the raw payload; they must agree with what the
 * payload decodes to. Walks the recorded CBOR map in place.
 */
#include <stdint.h>
#include <string.h>

#include "oracle/formats/model/cbor_scan.h"
#include "oracle/decode/decode.h"
#include "util/utf.h"

void or_model_compare(struct or_ctx *ctx, const struct or_event *ev,
                      const struct or_decoded *dec);

/* Does the UTF-8 text t[0..tn) equal the UTF-16LE string s[0..sn)? */
static int same_text(const uint8_t *t, size_t tn, const uint8_t *s, uint32_t sn)
{
	size_t at = 0;
	uint32_t k = 0;

	while (k + 1 < sn) {
		uint8_t b[4];
		unsigned m = or_utf8_put(or_utf16_next(s, sn, &k), b);
		if (tn - at < m)
			return 0;
		for (unsigned q = 0; q < m; q++)
			if (t[at + q] != b[q])
				return 0;
		at += m;
	}
	return at == tn;
}

/* The length of every field's name, found once. */
static uint8_t name_len[GCSPEC_NFIELDS];

static void name_lengths(void)
{
	static int done;

	if (done)
		return;
	for (unsigned i = 0; i < GCSPEC_NFIELDS; i++) {
		size_t n = strlen(gcspec_fields[i].name);
		name_len[i] = (uint8_t)(n < 255 ? n : 255);
	}
	done = 1;
}

/* Is field f called k[0..n)? */
static int name_is(const struct gcspec_field *f, const uint8_t *k, size_t n)
{
	return name_len[f - gcspec_fields] == n && n < 255 &&
	       memcmp(f->name, k, n) == 0;
}

/* Does a value with head h end with its head (an integer, a simple value
 * or a float)? */
static int scalar(const struct or_cbor_head *h)
{
	return h->major == 0 || h->major == 1 || (h->major == 7 && !h->indef);
}

/* Compare one recorded value (head h, content at p+pos) with field i. A
 * struct array that compares equal sets *end past itself (walking it is
 * how it was compared). */
static int same_value(const struct or_decoded *dec, unsigned i,
                      const struct or_val *vals, const uint8_t *p, size_t n,
                      size_t pos, const struct or_cbor_head *h, size_t *end)
{
	const struct gcspec_field *f = &gcspec_event_fields(dec->spec)[i];
	const struct or_val *v = &vals[i];
	const uint8_t *raw = dec->payload + v->off;

	switch (h->major) {
	case 0:
		return f->type != GCSPEC_STRUCT && v->u == h->arg;
	case 1:
		return (int64_t)v->u == -1 - (int64_t)h->arg;
	case 2:
		return h->arg == v->len && n - pos >= v->len &&
		       memcmp(p + pos, raw, v->len) == 0;
	case 3:
		if (f->type == GCSPEC_UNICODE_STRING)
			return same_text(p + pos, (size_t)h->arg, raw, v->len);
		return h->arg == v->len && memcmp(p + pos, raw, v->len) == 0;
	case 4: {
		uint32_t at = v->off;
		struct or_val mv[OR_MAX_FIELDS];
		if (f->type != GCSPEC_STRUCT || h->arg != v->u)
			return 0;
		for (uint64_t e = 0; e < h->arg; e++) {
			struct or_cbor_head m, k, x;
			unsigned guess = 1;
			if (or_struct_element(dec, i, &at, mv) ||
			    or_cbor_head(p, n, &pos, &m) != 1 || m.major != 5)
				return 0;
			for (uint64_t q = 0; q < m.arg; q++) {
				unsigned j, found = 0;
				size_t xp;
				if (or_cbor_head(p, n, &pos, &k) != 1 || k.major != 3)
					return 0;
				/* Members come in template order: try the
				 * next one first. */
				if (guess <= f->nmembers && n - pos >= k.arg &&
				    name_is(&f[guess], p + pos, (size_t)k.arg)) {
					j = guess;
					found = 1;
				} else {
					for (j = 1; j <= f->nmembers; j++)
						if (strlen(f[j].name) == k.arg &&
						    memcmp(f[j].name, p + pos, k.arg) == 0) {
							found = 1;
							break;
						}
				}
				guess = j + 1;
				pos += (size_t)k.arg;
				xp = pos;
				if (!found || or_cbor_head(p, n, &xp, &x) != 1 ||
				    !same_value(dec, i + j, mv, p, n, xp, &x, end))
					return 0;
				if (scalar(&x))
					pos = xp;
				else if (or_cbor_skip(p, n, &pos) != 1)
					return 0;
			}
		}
		*end = pos;
		return 1;
	}
	case 7:
		if (h->minor == 20 || h->minor == 21)
			return v->u == (uint64_t)(h->minor == 21);
		if (h->minor == 26 && f->type == GCSPEC_FLOAT)
			return (h->arg & 0xffffffffu) == (v->u & 0xffffffffu);
		if (h->minor == 27 && f->type == GCSPEC_DOUBLE)
			return h->arg == v->u;
		if (h->minor == 27 && f->type == GCSPEC_FLOAT) {
			double d;
			float fl;
			uint32_t b = (uint32_t)v->u;
			memcpy(&d, &h->arg, 8);
			memcpy(&fl, &b, 4);
			return (double)fl == d;
		}
		return 0;
	}
	return 0;
}

void or_model_compare(struct or_ctx *ctx, const struct or_event *ev,
                      const struct or_decoded *dec)
{
	const uint8_t *p = ev->model_fields;
	size_t n = ev->model_fields_len, pos = 0;
	struct or_cbor_head h, k, v;
	const char *sym = dec->spec->symbol;
	const struct gcspec_field *f = gcspec_event_fields(dec->spec);
	unsigned nf = dec->spec->nfields, guess = 0;

	name_lengths();
	if (or_cbor_head(p, n, &pos, &h) != 1 || h.major != 5 || h.indef) {
		or_report(ctx, GCSPEC_DIAG_M005, ev->index, ev->offset, sym,
		          "the model's \"fields\" value is not a map of field values");
		return;
	}
	for (uint64_t q = 0; q < h.arg; q++) {
		char name[64];
		int i;
		size_t vp, end = SIZE_MAX;
		if (or_cbor_head(p, n, &pos, &k) != 1 || k.major != 3 ||
		    k.indef || n - pos < k.arg)
			return;
		/* The model records fields in template order: try the next
		 * field first. */
		while (guess < nf && f[guess].is_member)
			guess++;
		if (guess < nf && k.arg < sizeof name &&
		    name_is(&f[guess], p + pos, (size_t)k.arg)) {
			i = (int)guess;
		} else {
			snprintf(name, sizeof name, "%.*s", (int)k.arg,
			         (const char *)p + pos);
			i = or_field_index(dec->spec, name);
		}
		if (i >= 0)
			guess = (unsigned)i + 1;
		pos += (size_t)k.arg;
		vp = pos;
		if (or_cbor_head(p, n, &vp, &v) != 1)
			return;
		if (i < 0) /* name holds the key: only a lookup finds nothing */
			or_report(ctx, GCSPEC_DIAG_M005, ev->index, ev->offset, sym,
			          "the model records a field '%s' that %s does not have",
			          name, sym);
		else if ((unsigned)i < dec->nvalid &&
		         !same_value(dec, (unsigned)i, dec->v, p, n, vp, &v, &end))
			or_report(ctx, GCSPEC_DIAG_M005,
			          ev->index, ev->payload_offset + dec->v[i].off, sym,
			          "field '%s': the model records a different value than the payload holds (decoded %llu)",
			          f[i].name, (unsigned long long)dec->v[i].u);
		/* A scalar ends with its head, a struct array where its
		 * comparison ended; anything else is walked. */
		if (scalar(&v))
			pos = vp;
		else if (end != SIZE_MAX)
			pos = end;
		else if (or_cbor_skip(p, n, &pos) != 1)
			return;
	}
}
