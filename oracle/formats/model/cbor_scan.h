/*
 * cbor_scan.h - just enough CBOR to walk items in a buffer without
 * allocating: read one head, find where an item ends. Used by the model
 * reader's hot path (one event map per item) and by the GC-M005 comparison.
 *
 * Return convention: 1 done, 0 the buffer ends first (need more bytes),
 * -1 malformed (or nested deeper than OR_CBOR_MAX_DEPTH, or a declared
 * length above OR_CBOR_MAX_LEN).
 */
#ifndef ORACLE_CBOR_SCAN_H
#define ORACLE_CBOR_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define OR_CBOR_MAX_DEPTH 32
#define OR_CBOR_MAX_LEN ((uint64_t)1 << 30)

struct or_cbor_head {
	unsigned major;  /* 0..7 */
	unsigned minor;  /* the low 5 bits of the initial byte */
	uint64_t arg;    /* value, length or count */
	int indef;       /* indefinite length (minor 31) */
};

/* Read the head at p[*pos]; on 1, *pos is past the head. Inline: readers
 * call it for every data item. */
static inline int or_cbor_head(const uint8_t *p, size_t n, size_t *pos,
                               struct or_cbor_head *h)
{
	size_t at = *pos, w;
	uint64_t v = 0;

	if (at >= n)
		return 0;
	h->major = p[at] >> 5;
	h->minor = p[at] & 31;
	h->indef = 0;
	at++;
	if (h->minor < 24) {
		h->arg = h->minor;
		*pos = at;
		return 1;
	}
	if (h->minor == 31) {
		if (h->major == 0 || h->major == 1 || h->major == 6)
			return -1;
		h->indef = 1;
		h->arg = 0;
		*pos = at;
		return 1;
	}
	if (h->minor > 27)
		return -1;
	w = (size_t)1 << (h->minor - 24);
	if (n - at < w)
		return 0;
	for (size_t k = 0; k < w; k++)
		v = v << 8 | p[at + k];
	h->arg = v;
	*pos = at + w;
	return 1;
}
/* Skip the whole item at p[*pos]; on 1, *pos is past it. */
int or_cbor_skip(const uint8_t *p, size_t n, size_t *pos);

#endif
