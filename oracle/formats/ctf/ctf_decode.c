/*
 * ctf_decode.c - the generic CTF interpreter: decode any compiled node from
 * a packet's bytes, bit by bit where it must (CTF 1.8 section 4: integers of
 * any size and alignment, either byte order; strings; arrays, sequences,
 * structs and variants). The fast paths of ctf_class.c and ctf_read.c cover
 * the shapes LTTng writes; this is what they fall back on, and what the
 * tests compare them with.
 *
 * Bounds: every read is checked against d->end before it happens; a count
 * that cannot fit in the bits left is an overrun, so a hostile sequence
 * length never makes the loop run long.
 */
#include <string.h>

#include "oracle/formats/ctf/ctf_read_i.h"

uint64_t ctfr_read_bits(const uint8_t *buf, uint64_t pos, unsigned size, int be)
{
	uint64_t v = 0;

	if (!(pos & 7) && !(size & 7)) {
		const uint8_t *p = buf + pos / 8;
		unsigned n = size / 8;

		if (be)
			for (unsigned i = 0; i < n; i++)
				v = v << 8 | p[i];
		else
			for (unsigned i = n; i-- > 0;)
				v = v << 8 | p[i];
		return v;
	}
	/* Little-endian bit fields start at the least significant bit of a
	 * byte, big-endian ones at the most significant (section 4.1.5). */
	for (unsigned i = 0; i < size; i++) {
		uint64_t b = pos + i;
		unsigned bit = be ? (unsigned)(buf[b / 8] >> (7 - b % 8)) & 1u
				  : (unsigned)(buf[b / 8] >> (b % 8)) & 1u;

		if (be)
			v = v << 1 | bit;
		else
			v |= (uint64_t)bit << i;
	}
	return v;
}

static uint64_t sign_extend(uint64_t v, unsigned size)
{
	if (size < 64 && (v >> (size - 1)) & 1)
		v |= ~0ull << size;
	return v;
}

static int in_range(const struct cvsel *s, uint64_t tag)
{
	if (s->lo >= 0 && s->hi >= 0)
		return tag >= (uint64_t)s->lo && tag <= (uint64_t)s->hi;
	return (int64_t)tag >= s->lo && (int64_t)tag <= s->hi;
}

int ctfr_decode(struct cdec *d, int32_t node, struct cval *out)
{
	const struct cnode *n = &d->r->nodes[node];
	uint64_t pos = (d->pos + n->align - 1) & ~(uint64_t)(n->align - 1), count;

	if (pos > d->end) {
		d->err = 1;
		return -1;
	}
	if (out) {
		out->at = pos;
		out->len = 0;
		out->u = 0;
	}
	switch (n->kind) {
	case CK_INT:
	case CK_ENUM:
	case CK_FLOAT: {
		uint64_t v;

		if (n->size > d->end - pos) {
			d->err = 1;
			return -1;
		}
		v = ctfr_read_bits(d->buf, pos, n->size, n->be);
		if (n->kind != CK_FLOAT && n->is_signed)
			v = sign_extend(v, n->size);
		if (n->slot >= 0)
			d->slots[n->slot] = v;
		if (n->role) {
			d->role[n->role] = v;
			d->role_at[n->role] = pos;
			d->roles |= 1u << n->role;
		}
		if (n->clock_update && d->clock)
			ctfr_clock_update(d->clock, n->is_signed ? v & (n->size < 64 ? (1ull << n->size) - 1 : ~0ull) : v,
					  n->size);
		d->pos = pos + n->size;
		if (out)
			out->u = v;
		return 0;
	}
	case CK_STRING: {
		const uint8_t *s = d->buf + pos / 8, *nul;
		uint64_t left = d->end / 8 > pos / 8 ? d->end / 8 - pos / 8 : 0;

		if (!(nul = memchr(s, 0, left))) {
			d->err = 1;
			return -1;
		}
		d->pos = (uint64_t)(nul - d->buf + 1) * 8;
		if (out)
			out->len = (uint64_t)(nul - s);
		return 0;
	}
	case CK_STRUCT:
		d->pos = pos;
		for (uint32_t i = 0; i < n->nkids; i++)
			if (ctfr_decode(d, (int32_t)d->r->kids[n->kids + i], NULL) < 0)
				return -1;
		return 0;
	case CK_VARIANT: {
		uint64_t tag = d->slots[n->ref];

		d->pos = pos;
		for (uint32_t i = 0; i < n->nvsel; i++)
			if (in_range(&d->r->vsel[n->vsel + i], tag))
				return ctfr_decode(d, (int32_t)d->r->kids[n->kids + d->r->vsel[n->vsel + i].option],
						   NULL);
		d->err = 2;
		return -1;
	}
	case CK_ARRAY:
	case CK_SEQUENCE: {
		const struct cnode *e = &d->r->nodes[n->elem];

		count = n->kind == CK_ARRAY ? n->length : n->ref >= 0 ? d->slots[n->ref] : 0;
		if (out)
			out->u = count;
		if (n->role) {
			/* the packet header's uuid: where its bytes are */
			d->role[n->role] = count;
			d->role_at[n->role] = pos;
			d->roles |= 1u << n->role;
		}
		d->pos = pos;
		if ((e->kind == CK_INT || e->kind == CK_FLOAT) && e->fixed && e->slot < 0 && !e->role &&
		    !e->clock_update && !(pos & 7)) {
			/* Plain numbers: skip them all at once. */
			if (count > (d->end - pos) / e->fixed_bits) {
				d->err = 1;
				return -1;
			}
			d->pos = pos + count * e->fixed_bits;
			return 0;
		}
		/* Each element takes a bit at least, or this is hostile. */
		if (count > d->end - pos + 1) {
			d->err = 1;
			return -1;
		}
		for (uint64_t i = 0; i < count; i++)
			if (ctfr_decode(d, n->elem, NULL) < 0)
				return -1;
		return 0;
	}
	}
	d->err = 1;
	return -1;
}
