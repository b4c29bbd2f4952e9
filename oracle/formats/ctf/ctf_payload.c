/*
 * ctf_payload.c - the ETW-style payload of a CTF event, as the spec's
 * decoder wants it (the classes are mapped in ctf_class.c).
 *
 * Packed events give their __data__ bytes as they are (no copy). Typed
 * events are re-laid: integers at the template's width, little-endian
 * (Pointer: the trace's pointer size), floats as their bits, UTF-8 strings
 * back to NUL-terminated UTF-16LE, AnsiStrings as their bytes and NUL, a
 * GUID's four int32 as its 16 bytes. LTTng's shape (a fixed event context,
 * byte-aligned little-endian fields) takes the compiled program of the
 * class; anything else goes field by field through the interpreter.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_read_i.h"
#include "oracle/formats/ctf/ctf_report.h"

static int room(struct ctfr_reader *r, size_t need)
{
	uint8_t *p;
	size_t cap = r->cap_payload ? r->cap_payload : 4096;

	if (need <= r->cap_payload)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(p = realloc(r->payload, cap)))
		return -1;
	r->payload = p;
	r->cap_payload = cap;
	return 0;
}

static void put_u16(uint8_t *p, unsigned u)
{
	p[0] = (uint8_t)u;
	p[1] = (uint8_t)(u >> 8);
}

/* UTF-8 s[0..n) as UTF-16LE plus NUL at out (room: 2n + 2). Bad
 * sequences become U+FFFD. Returns the bytes written; *bad set when any. */
static size_t utf8_to_utf16(const uint8_t *s, size_t n, uint8_t *out, int *bad)
{
	size_t i = 0, o = 0;

	while (i < n) {
		uint32_t c = s[i], min;
		unsigned k;

		if (c < 0x80) {
			put_u16(out + o, c);
			o += 2;
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1, c &= 0x1F, min = 0x80;
		else if (c >= 0xE0 && c <= 0xEF)
			k = 2, c &= 0x0F, min = 0x800;
		else if (c >= 0xF0 && c <= 0xF4)
			k = 3, c &= 0x07, min = 0x10000;
		else
			goto replace;
		if (i + k >= n)
			goto replace;
		for (unsigned j = 1; j <= k; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				goto replace;
			c = c << 6 | (s[i + j] & 0x3F);
		}
		if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
			goto replace;
		if (c >= 0x10000) {
			c -= 0x10000;
			put_u16(out + o, 0xD800 + (c >> 10));
			put_u16(out + o + 2, 0xDC00 + (c & 0x3FF));
			o += 4;
		} else {
			put_u16(out + o, c);
			o += 2;
		}
		i += k + 1;
		continue;
replace:
		*bad = 1;
		put_u16(out + o, 0xFFFD);
		o += 2;
		i++;
	}
	put_u16(out + o, 0);
	return o + 2;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The four bytes of x as four little-endian 16-bit units. */
static inline uint64_t widen4(uint64_t x)
{
	x = (x | x << 16) & 0x0000FFFF0000FFFFu;
	return (x | x << 8) & 0x00FF00FF00FF00FFu;
}

static inline void put_le64(uint8_t *p, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, 8);
#else
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* The typed fields at s->pos by the fast program; -1 on overrun. */
static int fast_typed(struct ctfr_reader *r, struct cstream *s, const struct cclass *c, struct or_event *ev,
		      uint64_t field_off)
{
	const uint8_t *p = s->buf + s->pos / 8, *end = s->buf + s->end / 8;
	uint8_t *o = r->payload;
	int bad = 0;

	/* Integers only: the fields already lie as the payload does, so the
	 * payload is the packet's bytes, not a copy. */
	if (c->nprog == 1 && r->prog[c->prog].op == F_COPY) {
		uint32_t n = r->prog[c->prog].n;

		if ((size_t)(end - p) < n)
			return -1;
		ev->payload = p;
		ev->payload_len = n;
		s->pos += (uint64_t)n * 8;
		return 0;
	}
	for (uint32_t i = 0; i < c->nprog; i++) {
		const struct cfop *op = &r->prog[c->prog + i];

		switch (op->op) {
		case F_COPY:
			if ((size_t)(end - p) < op->n)
				return -1;
			memcpy(o, p, op->n);
			p += op->n;
			o += op->n;
			break;
		case F_USTR: {
			const uint8_t *q = p;

			/* ASCII, the common case, without the decoder: eight
			 * bytes at a time while none is NUL or above 0x7F. */
			while (end - q >= 8) {
				uint64_t w = ctfr_le64(q);

				if (((w - 0x0101010101010101u) | w) & 0x8080808080808080u)
					break;
				put_le64(o, widen4(w & 0xFFFFFFFFu));
				put_le64(o + 8, widen4(w >> 32));
				o += 16;
				q += 8;
			}
			while (q < end && *q && *q < 0x80) {
				o[0] = *q++;
				o[1] = 0;
				o += 2;
			}
			if (q < end && *q) {
				const uint8_t *nul = memchr(q, 0, (size_t)(end - q));
				int b = 0;

				if (!nul)
					return -1;
				o += utf8_to_utf16(q, (size_t)(nul - q), o, &b) - 2;
				if (b && !bad) {
					bad = 1;
					ctfr_report(r, GCSPEC_DIAG_C017, r->index, field_off + (uint64_t)(p - (s->buf + s->pos / 8)),
						    "a UnicodeString field of %s is not valid UTF-8; bad sequences read as U+FFFD",
						    c->ec->name);
				}
				q = nul;
			}
			if (q >= end)
				return -1;
			o[0] = o[1] = 0;
			o += 2;
			p = q + 1;
			break;
		}
		case F_ASTR: {
			const uint8_t *nul = memchr(p, 0, (size_t)(end - p));

			if (!nul)
				return -1;
			memcpy(o, p, (size_t)(nul - p) + 1);
			o += nul - p + 1;
			p = nul + 1;
			break;
		}
		case F_GUID:
			if ((size_t)(end - p) < op->n + 16)
				return -1;
			if (le(p, op->n) != 4)
				return -2;
			memcpy(o, p + op->n, 16);
			p += op->n + 16;
			o += 16;
			break;
		}
	}
	s->pos = (uint64_t)(p - s->buf) * 8;
	ev->payload = r->payload;
	ev->payload_len = (uint32_t)(o - r->payload);
	return 0;
}

/* A packed payload at a byte boundary: u32 length, u32 count, count bytes,
 * taken in place. */
static int packed_payload(struct ctfr_reader *r, struct cstream *s, const struct cclass *c,
			  struct or_event *ev, uint64_t base)
{
	const uint8_t *p = s->buf + s->pos / 8;
	uint64_t left = (s->end - s->pos) / 8, len, n;

	if (left < 8)
		return -1;
	len = ctfr_le32(p);
	n = ctfr_le32(p + 4);
	if (n > left - 8)
		return -1;
	if (len != n)
		ctfr_report(r, GCSPEC_DIAG_C016, r->index, base + s->pos / 8,
			    "packed %s: length %llu, __data__ holds %llu bytes; the bytes are decoded",
			    c->ec->name, (unsigned long long)len, (unsigned long long)n);
	ev->payload = p + 8;
	ev->payload_len = (uint32_t)n;
	ev->payload_offset = base + s->pos / 8 + 8;
	s->pos += (8 + n) * 8;
	r->counts.fast_events++;
	return 0;
}

/* LTTng's shape, the hot path: a fixed event context and a typed or
 * packed class with a compiled program. 1 when it does not apply. */
static int fast_event(struct ctfr_reader *r, struct cstream *s, const struct csclass *sc,
		      const struct cclass *c, struct or_event *ev, uint64_t base)
{
	const uint8_t *p = s->buf + s->pos / 8;
	uint64_t left = (s->end - s->pos) / 8;

	if (left < sc->ctx_bytes)
		return -1;
	ev->thread_id = sc->vtid_at >= 0 ? ctfr_le32(p + sc->vtid_at) : 0;
	if (sc->vpid_at >= 0) {
		ev->process = ctfr_le32(p + sc->vpid_at);
		if (!r->info->process_id)
			r->info->process_id = ev->process;
	}
	left -= sc->ctx_bytes;
	s->pos += (uint64_t)sc->ctx_bytes * 8;
	if (c->kind == CC_PACKED)
		return packed_payload(r, s, c, ev, base);
	ev->payload_offset = base + s->pos / 8;
	if (left * 2 + 64 > r->cap_payload && room(r, (size_t)left * 2 + 64) < 0)
		return -1;
	{
		int rc = fast_typed(r, s, c, ev, base + s->pos / 8);

		if (rc == 0)
			r->counts.fast_events++;
		return rc;
	}
}

int ctfr_fields(struct ctfr_reader *r, struct cstream *s, struct cclass *c, struct or_event *ev)
{
	const struct csclass *sc = &r->sclasses[s->sc];
	struct cdec d;
	struct cval v;
	uint64_t base = r->files[s->file].base + s->pkt_off;
	int generic = r->flags & CTFR_GENERIC;

	if (c->fast && sc->fast_ctx && !generic && !(s->pos & 7) && c->ctx < 0) {
		uint64_t at = s->pos;
		int rc = fast_event(r, s, sc, c, ev, base);

		if (rc != -2)
			return rc;
		s->pos = at; /* a GUID count other than 4: the generic path says so */
	}
	memset(&d, 0, sizeof d);
	d.buf = s->buf;
	d.end = s->end;
	d.slots = r->slots;
	d.r = r;
	ev->thread_id = 0;
	/* The stream's event context: vpid, vtid. */
	if (sc->fast_ctx && !generic && !(s->pos & 7)) {
		if (s->end - s->pos < (uint64_t)sc->ctx_bytes * 8)
			return -1;
		if (sc->vtid_at >= 0)
			ev->thread_id = (uint32_t)le(s->buf + s->pos / 8 + sc->vtid_at, 4);
		if (sc->vpid_at >= 0) {
			ev->process = (uint32_t)le(s->buf + s->pos / 8 + sc->vpid_at, 4);
			if (!r->info->process_id)
				r->info->process_id = ev->process;
		}
		s->pos += (uint64_t)sc->ctx_bytes * 8;
	} else if (sc->ectx >= 0) {
		d.pos = s->pos;
		if (ctfr_decode(&d, sc->ectx, NULL) < 0)
			return -1;
		if (d.roles & 1u << R_VTID)
			ev->thread_id = (uint32_t)d.role[R_VTID];
		if (d.roles & 1u << R_VPID) {
			ev->process = (uint32_t)d.role[R_VPID];
			if (!r->info->process_id)
				r->info->process_id = ev->process;
		}
		s->pos = d.pos;
	}
	if (c->ctx >= 0) {
		d.pos = s->pos;
		if (ctfr_decode(&d, c->ctx, NULL) < 0)
			return -1;
		s->pos = d.pos;
	}
	ev->payload = NULL;
	ev->payload_len = 0;
	ev->payload_offset = base + s->pos / 8;
	if (c->fields < 0)
		return c->kind == CC_BAD ? 1 : 0;
	/* Packed, the fast way: u32 length, u32 count, count bytes. */
	if (c->kind == CC_PACKED && c->fast && !generic && !(s->pos & 7))
		return packed_payload(r, s, c, ev, base);
	if (c->kind == CC_TYPED && c->fast && !generic && !(s->pos & 7)) {
		int rc;

		if (room(r, (size_t)((s->end - s->pos) / 8) * 2 + 64) < 0)
			return -1;
		rc = fast_typed(r, s, c, ev, base + s->pos / 8);
		if (rc == 0)
			r->counts.fast_events++;
		if (rc != -2)
			return rc;
		/* a GUID count other than 4: let the generic path say so */
	}
	/* The generic path: every field through the interpreter. */
	{
		const struct cnode *f = &r->nodes[c->fields];
		uint64_t len_value = 0, len_at = 0;
		uint8_t *o;
		int bad = 0, skip = 0;

		if (c->kind == CC_TYPED && room(r, (size_t)((s->end - s->pos) / 8) * 2 + 64) < 0)
			return -1;
		o = r->payload;
		d.pos = s->pos;
		d.pos = (d.pos + f->align - 1) & ~(uint64_t)(f->align - 1);
		for (uint32_t i = 0; i < f->nkids; i++) {
			int32_t k = (int32_t)r->kids[f->kids + i];

			if (ctfr_decode(&d, k, &v) < 0)
				return -1;
			if (c->kind == CC_PACKED || (c->kind == CC_OTHER && c->data_kid >= 0)) {
				if ((int32_t)i == c->len_kid) {
					len_value = v.u;
					len_at = v.at;
				}
				if ((int32_t)i == c->data_kid) {
					if (v.at % 8) {
						/* bytes not on a byte boundary: copy them */
						if (room(r, (size_t)v.u + 1) < 0)
							return -1;
						for (uint64_t b = 0; b < v.u; b++)
							r->payload[b] = (uint8_t)ctfr_read_bits(s->buf, v.at + 8 * b, 8,
												r->nodes[k].be);
						ev->payload = r->payload;
					} else {
						ev->payload = s->buf + v.at / 8;
					}
					ev->payload_len = (uint32_t)v.u;
					ev->payload_offset = base + v.at / 8;
					if (c->kind == CC_PACKED && len_value != v.u)
						ctfr_report(r, GCSPEC_DIAG_C016, r->index, base + len_at / 8,
							    "packed %s: length %llu, __data__ holds %llu bytes; the bytes are decoded",
							    c->ec->name, (unsigned long long)len_value,
							    (unsigned long long)v.u);
				}
				continue;
			}
			if (c->kind != CC_TYPED)
				continue;
			const struct cact *a = &r->acts[c->act + i];
			const struct cnode *kn = &r->nodes[k];

			switch (a->op) {
			case A_INT:
			case A_FLOAT:
				put_le(o, v.u, a->width);
				o += a->width;
				break;
			case A_USTR: {
				int b = 0;

				o += utf8_to_utf16(s->buf + v.at / 8, (size_t)v.len, o, &b);
				if (b && !bad) {
					bad = 1;
					ctfr_report(r, GCSPEC_DIAG_C017, r->index, base + v.at / 8,
						    "a UnicodeString field of %s is not valid UTF-8; bad sequences read as U+FFFD",
						    c->ec->name);
				}
				break;
			}
			case A_ASTR:
				memcpy(o, s->buf + v.at / 8, (size_t)v.len + 1);
				o += v.len + 1;
				break;
			case A_GUID_LEN:
				if (v.u != 4) {
					ctfr_report(r, GCSPEC_DIAG_C006, r->index, base + v.at / 8,
						    "%s: a GUID of %llu int32 (4 expected); the event is passed over",
						    c->ec->name, (unsigned long long)v.u);
					skip = 1;
				}
				break;
			case A_GUID: {
				const struct cnode *e = &r->nodes[kn->elem];

				for (unsigned q = 0; q < 4 && q < v.u; q++) {
					put_le(o, ctfr_read_bits(s->buf, v.at + 32u * q, 32, e->be), 4);
					o += 4;
				}
				break;
			}
			}
		}
		s->pos = d.pos;
		if (c->kind == CC_TYPED) {
			ev->payload = r->payload;
			ev->payload_len = (uint32_t)(o - r->payload);
		}
		if (skip)
			return 1;
	}
	return c->kind == CC_BAD ? 1 : 0;
}
