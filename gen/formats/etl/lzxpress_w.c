/*
 * lzxpress_w.c - gcgen's LZXPRESS (MS-XCA plain LZ77) compressor. See
 * lzxpress_w.h.
 */
#include <string.h>

#include "gen/formats/etl/lzxpress_w.h"

#define MIN_MATCH 3u
#define MAX_DIST 8192u
/* The 16-bit length form holds up to 0xFFFF, but libfwnt adds the 3 in a
 * 16-bit variable and rejects lengths past 32771: stay below both. */
#define MAX_MATCH (0x7FFFu + MIN_MATCH)
#define NO_NIBBLE SIZE_MAX

struct out {
	uint8_t *p;
	size_t n, cap;
	size_t flag_at;            /* where the current flag word goes */
	uint32_t flags;
	unsigned nflags;
	size_t nibble_at;          /* a length byte whose high nibble is free */
	int full;
};

static void put8(struct out *o, uint8_t v)
{
	if (o->n >= o->cap) {
		o->full = 1;
		return;
	}
	o->p[o->n++] = v;
}

static void put16(struct out *o, uint32_t v)
{
	put8(o, (uint8_t)v);
	put8(o, (uint8_t)(v >> 8));
}

static void put_flags(struct out *o, uint32_t v)
{
	if (o->flag_at + 4 > o->cap) {
		o->full = 1;
		return;
	}
	for (int i = 0; i < 4; i++)
		o->p[o->flag_at + i] = (uint8_t)(v >> (8 * i));
}

/* Room for the next flag word: 4 bytes kept at the output's end. */
static void start_flags(struct out *o)
{
	o->flag_at = o->n;
	o->flags = 0;
	o->nflags = 0;
	for (int i = 0; i < 4; i++)
		put8(o, 0);
}

/* One token's flag bit. The word comes before its 32 tokens: when it is
 * full, it is written and the next reserved, before the token's bytes. */
static void flag(struct out *o, uint32_t bit)
{
	if (o->nflags == 32) {
		put_flags(o, o->flags);
		start_flags(o);
	}
	o->flags = o->flags << 1 | bit;
	o->nflags++;
}

static void literal(struct out *o, uint8_t c)
{
	flag(o, 0);
	put8(o, c);
}

static void match(struct out *o, size_t dist, size_t len)
{
	size_t l = len - MIN_MATCH;

	flag(o, 1);
	put16(o, (uint32_t)((dist - 1) << 3 | (l < 7 ? l : 7)));
	if (l < 7)
		return;
	l -= 7;
	/* The extra length's nibble: a new byte, or the free half of the
	 * last one. */
	if (o->nibble_at == NO_NIBBLE) {
		o->nibble_at = o->n;
		put8(o, (uint8_t)(l < 15 ? l : 15));
	} else {
		if (o->nibble_at < o->n)
			o->p[o->nibble_at] |= (uint8_t)((l < 15 ? l : 15) << 4);
		o->nibble_at = NO_NIBBLE;
	}
	if (l < 15)
		return;
	l -= 15;
	if (l < 255) {
		put8(o, (uint8_t)l);
		return;
	}
	put8(o, 255);
	put16(o, (uint32_t)(len - MIN_MATCH));
}

static inline uint32_t hash3(const uint8_t *p)
{
	uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;

	return (v * 2654435761u) >> (32 - GEN_LZX_HASH_BITS);
}

size_t gen_lzx_compress(struct gen_lzx_state *st, const uint8_t *in, size_t n,
                        uint8_t *out, size_t cap)
{
	struct out o = { out, 0, cap, 0, 0, 0, NO_NIBBLE, 0 };
	size_t pos = 0;

	memset(st->head, 0, sizeof st->head);
	start_flags(&o);
	while (pos < n && !o.full) {
		size_t best = 0, dist = 0;

		if (pos + MIN_MATCH <= n) {
			uint32_t h = hash3(in + pos);
			size_t cand = st->head[h];

			st->head[h] = (uint32_t)(pos + 1);
			if (cand && pos - (cand - 1) <= MAX_DIST) {
				size_t from = cand - 1, max = n - pos, len = 0;

				if (max > MAX_MATCH)
					max = MAX_MATCH;
				while (len < max && in[from + len] == in[pos + len])
					len++;
				if (len >= MIN_MATCH) {
					best = len;
					dist = pos - from;
				}
			}
		}
		if (!best) {
			literal(&o, in[pos++]);
			continue;
		}
		match(&o, dist, best);
		/* Index the positions the match covers, for later matches. */
		for (size_t i = pos + 1; i < pos + best && i + MIN_MATCH <= n; i++)
			st->head[hash3(in + i)] = (uint32_t)(i + 1);
		pos += best;
	}
	/* The last word: its unused bits 1 (MS-XCA's padding). */
	put_flags(&o, o.nflags == 32 ? o.flags :
	              o.nflags ? o.flags << (32 - o.nflags) | ((1u << (32 - o.nflags)) - 1u) : 0xFFFFFFFFu);
	return o.full ? 0 : o.n;
}
