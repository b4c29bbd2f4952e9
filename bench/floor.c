/*
 * floor.c - the floor row of make bench: a minimal walk of a nettrace file
 * (V4/V5 FastSerialization objects and V6 typed blocks, compressed and
 * uncompressed event headers) that parses every container header, maps
 * every event to its event-version through the metadata and checks every
 * payload of a spec event against its template (floor_payload.c). Nothing
 * is kept, sorted, decoded into values or printed per event: it is the
 * least a conforming reader does, so gcoracle's CPU divided by this one's
 * says how far gcoracle is from the limit.
 *
 * Written from ../shared/reference/NetTraceFormat-v5.md and -v6.md and the
 * spec tables, sharing no code with gen/ or oracle/.
 *
 * usage: floor FILE   prints "EVENTS events, CHECKED payloads checked";
 * exit 0, or 1 with a message when the container is malformed or a
 * payload does not fit its template, 2 on a usage or I/O error.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/floor.h"

/* The file through one buffer that holds at least the current block. */
struct in {
	int fd;
	uint8_t *buf;
	size_t cap, beg, end;
	uint64_t off;  /* file offset of buf[beg] */
};

/* The stream's metadata: id -> spec event-version (NULL: not a spec event). */
struct walk {
	struct in in;
	unsigned psize;
	int v6;
	const struct gcspec_event **meta;
	uint32_t nmeta;
	uint64_t events, checked;
	const char *why;
};

static int fail(struct walk *w, const char *why)
{
	if (!w->why)
		w->why = why;
	return -1;
}

/* The next n bytes of the file, or NULL when it ends first. */
static const uint8_t *take(struct walk *w, size_t n)
{
	struct in *in = &w->in;
	const uint8_t *p;

	if (in->end - in->beg < n) {
		if (in->end > in->beg)
			memmove(in->buf, in->buf + in->beg, in->end - in->beg);
		in->end -= in->beg;
		in->beg = 0;
		if (n + (1u << 20) > in->cap) {
			uint8_t *b = realloc(in->buf, n + (1u << 20));
			if (!b)
				return fail(w, "out of memory"), NULL;
			in->buf = b;
			in->cap = n + (1u << 20);
		}
		while (in->end < n) {
			ssize_t r = read(in->fd, in->buf + in->end, in->cap - in->end);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				return fail(w, r ? "read error" : "the file ends inside a block"), NULL;
			in->end += (size_t)r;
		}
	}
	p = in->buf + in->beg;
	in->beg += n;
	in->off += n;
	return p;
}

static uint32_t ld32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t ld16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static int varuint(const uint8_t *p, uint32_t len, uint32_t *pos, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned s = 0; s < 64; s += 7) {
		uint8_t b;
		if (*pos >= len)
			return -1;
		b = p[(*pos)++];
		x |= (uint64_t)(b & 0x7f) << s;
		if (!(b & 0x80)) {
			*v = x;
			return 0;
		}
	}
	return -1;
}

/* The spec provider a metadata row names (ASCII letters of UTF-8, or of
 * UTF-16LE when step is 2), compared without case; -1 for none. */
static int provider(const uint8_t *name, uint32_t nchars, unsigned step)
{
	for (unsigned k = 0; k < GCSPEC_NPROVIDERS; k++) {
		const char *s = gcspec_providers[k].name;
		uint32_t i = 0;
		for (; i < nchars && s[i]; i++) {
			unsigned c = name[i * step], d = (unsigned char)s[i];
			if (step == 2 && name[i * step + 1])
				break;
			if ((c | 0x20) != (d | 0x20))
				break;
		}
		if (i == nchars && !s[i])
			return k;
	}
	return -1;
}

static int define(struct walk *w, uint64_t id, int prov, uint64_t event, uint64_t version)
{
	if (id > (1u << 24))
		return fail(w, "metadata id out of range");
	if (id >= w->nmeta) {
		uint32_t n = (uint32_t)id * 2 + 16;
		const struct gcspec_event **m = realloc(w->meta, n * sizeof *m);
		if (!m)
			return fail(w, "out of memory");
		memset(m + w->nmeta, 0, (n - w->nmeta) * sizeof *m);
		w->meta = m;
		w->nmeta = n;
	}
	w->meta[id] = prov < 0 || event > 0xffff || version > 0xff ? NULL
	            : gcspec_lookup((unsigned)prov, (unsigned)event, (unsigned)version);
	return 0;
}

/* A V4/V5 metadata payload: MetadataId, ProviderName (UTF-16, NUL),
 * EventId, EventName, Keywords, Version, Level, then fields we need not. */
static int meta_v5(struct walk *w, const uint8_t *p, uint32_t len)
{
	uint32_t pos = 4, name, nlen, id;

	if (len < 4)
		return fail(w, "metadata payload too short");
	for (name = pos; pos + 1 < len && (p[pos] || p[pos + 1]); pos += 2)
		;
	nlen = (pos - name) / 2;
	pos += 2;
	if (pos + 4 > len)
		return fail(w, "metadata payload too short");
	id = ld32(p + pos);
	for (pos += 4; pos + 1 < len && (p[pos] || p[pos + 1]); pos += 2)
		;
	pos += 2;
	if (pos + 16 > len)
		return fail(w, "metadata payload too short");
	return define(w, ld32(p), provider(p + name, nlen, 2), id, ld32(p + pos + 8));
}

/* A V6 metadata row: varuint id, provider, varuint event id, name, field
 * descriptions, optional metadata (the version is one of its kinds). */
static int meta_v6(struct walk *w, const uint8_t *p, uint32_t len)
{
	uint64_t id, plen, ev, nlen, version = 0;
	uint32_t pos = 0, prov, n, end;

	if (varuint(p, len, &pos, &id) || varuint(p, len, &pos, &plen) || plen > len - pos)
		return fail(w, "bad metadata row");
	prov = pos;
	pos += (uint32_t)plen;
	if (varuint(p, len, &pos, &ev) || varuint(p, len, &pos, &nlen) || nlen > len - pos)
		return fail(w, "bad metadata row");
	pos += (uint32_t)nlen;
	if (pos + 2 > len)
		return fail(w, "bad metadata row");
	n = ld16(p + pos);
	for (pos += 2; n--; pos += 2 + ld16(p + pos))
		if (pos + 2 > len || ld16(p + pos) > len - pos - 2)
			return fail(w, "bad field description");
	if (pos + 2 <= len && ld16(p + pos) <= len - pos - 2) {
		static const uint8_t fixed[10] = { 0, 1, 0, 8, 0, 0, 0, 16, 1, 1 };
		for (end = pos + 2 + ld16(p + pos), pos += 2; pos < end;) {
			unsigned kind = p[pos++];
			uint64_t sl;
			if (kind == 9 && pos < end)
				version = p[pos];
			if (kind < 10 && fixed[kind]) {
				pos += fixed[kind];
				continue;
			}
			if (kind < 4 || kind > 6)
				return fail(w, "unknown optional metadata kind");
			for (unsigned s = kind == 6 ? 2 : 1; s--; pos += (uint32_t)sl)
				if (varuint(p, end, &pos, &sl) || sl > end - pos)
					return fail(w, "bad optional metadata");
		}
	}
	return define(w, id, provider(p + prov, (uint32_t)plen, 1), ev, version);
}

/* The event header fields a row needs here; the rest are stepped over. */
struct hdr {
	uint64_t meta, plen;
};

/* One compressed header at *pos (a delta on the previous one). */
static int header_c(struct walk *w, const uint8_t *b, uint32_t len, uint32_t *pos,
                    struct hdr *h)
{
	uint64_t x;
	unsigned f;

	if (*pos >= len)
		return -1;
	f = b[(*pos)++];
	if ((f & 1) && varuint(b, len, pos, &h->meta))
		return -1;
	if (f & 2)
		for (int k = 0; k < 3; k++)
			if (varuint(b, len, pos, &x))
				return -1;
	if ((f & 4) && varuint(b, len, pos, &x))
		return -1;
	if ((f & 8) && varuint(b, len, pos, &x))
		return -1;
	if (varuint(b, len, pos, &x))
		return -1;
	if (w->v6 && (f & 16) && varuint(b, len, pos, &x))
		return -1;
	if (!w->v6)  /* V5: ActivityId, RelatedActivityId */
		*pos += (f & 16 ? 16 : 0) + (f & 32 ? 16 : 0);
	if ((f & 128) && varuint(b, len, pos, &h->plen))
		return -1;
	return *pos > len ? -1 : 0;
}

/* The rows of an EventBlock or a V5 MetadataBlock (same encoding). */
static int rows(struct walk *w, const uint8_t *b, uint32_t len, int meta)
{
	struct hdr h = { 0, 0 };
	uint32_t pos, flags;

	if (len < 4 || ld16(b) > len)
		return fail(w, "bad block header");
	pos = ld16(b);
	flags = ld16(b + 2);
	while (pos < len) {
		if (flags & 1) {
			if (header_c(w, b, len, &pos, &h))
				return fail(w, "bad compressed event header");
		} else {
			unsigned hs = w->v6 ? 52 : 80;
			if (len - pos < hs)
				return fail(w, "event header past the block");
			h.meta = ld32(b + pos + 4) & 0x7fffffff;
			h.plen = ld32(b + pos + hs - 4);
			pos += hs;
		}
		if (h.plen > len - pos)
			return fail(w, "payload past the block");
		if (meta) {
			if (meta_v5(w, b + pos, (uint32_t)h.plen))
				return -1;
		} else {
			const struct gcspec_event *ev = h.meta < w->nmeta ? w->meta[h.meta] : NULL;
			w->events++;
			if (ev) {
				if (!floor_payload_ok(ev, b + pos, (uint32_t)h.plen, w->psize))
					return fail(w, "a payload does not fit its template");
				w->checked++;
			}
		}
		pos += (uint32_t)h.plen;
		if (!(flags & 1) && !w->v6)
			pos = (pos + 3) & ~3u;  /* rows start 4-aligned in the file */
	}
	return 0;
}

static int trace(struct walk *w, const uint8_t *b, uint32_t len)
{
	if (len < 36)
		return fail(w, "trace block too short");
	w->psize = ld32(b + 32);
	if (w->psize != 4 && w->psize != 8)
		return fail(w, "pointer size neither 4 nor 8");
	return 0;
}

static int walk_v6(struct walk *w)
{
	for (;;) {
		const uint8_t *p = take(w, 4), *b;
		uint32_t size, kind, pos;
		if (!p)
			return -1;
		size = ld32(p) & 0xffffff;
		kind = p[3];
		if (kind == 0)
			return 0;
		if (!(b = take(w, size)))
			return -1;
		if (kind == 1 && trace(w, b, size))
			return -1;
		if (kind == 2 && (!w->psize ? fail(w, "events before the trace block")
		                            : rows(w, b, size, 0)))
			return -1;
		if (kind != 3)
			continue;
		if (size < 2 || ld16(b) > size - 2)
			return fail(w, "bad metadata block header");
		for (pos = 2 + ld16(b); pos < size; pos += 2 + ld16(b + pos))
			if (pos + 2 > size || ld16(b + pos) > size - pos - 2
			    || meta_v6(w, b + pos + 2, ld16(b + pos)))
				return fail(w, "bad metadata row");
	}
}

/* FastSerialization: BeginPrivateObject, its type (an object itself:
 * BeginPrivateObject, NullReference, Version, MinimumReaderVersion, name,
 * EndObject), the body, EndObject; NullReference ends the stream. */
static int walk_v5(struct walk *w)
{
	for (;;) {
		const uint8_t *p = take(w, 1), *b;
		uint32_t nlen, size;
		char name[16] = "";
		if (!p)
			return -1;
		if (*p == 1)
			return 0;
		if (*p != 5 || !(p = take(w, 14)) || p[0] != 5 || p[1] != 1)
			return fail(w, "no object where one begins");
		nlen = ld32(p + 10);
		if (nlen > 64 || !(p = take(w, nlen + 1)) || p[nlen] != 6)
			return fail(w, "bad object type");
		memcpy(name, p, nlen < sizeof name - 1 ? nlen : sizeof name - 1);
		if (!strcmp(name, "Trace")) {
			if (!(b = take(w, 49)) || b[48] != 6 || trace(w, b, 48))
				return fail(w, "bad trace object");
			continue;
		}
		if (!(p = take(w, 4)))
			return -1;
		size = ld32(p);
		if (w->in.off % 4 && !take(w, 4 - w->in.off % 4))
			return -1;
		if (!(b = take(w, (size_t)size + 1)) || b[size] != 6)
			return fail(w, "block without its end tag");
		if (!strcmp(name, "EventBlock") && (!w->psize || rows(w, b, size, 0)))
			return fail(w, "events before the trace object");
		if (!strcmp(name, "MetadataBlock") && rows(w, b, size, 1))
			return -1;
	}
}

int main(int argc, char **argv)
{
	struct walk w;
	const uint8_t *p;
	int rc;

	memset(&w, 0, sizeof w);
	if (argc != 2) {
		fprintf(stderr, "usage: floor FILE.nettrace\n");
		return 2;
	}
	if ((w.in.fd = open(argv[1], O_RDONLY)) < 0) {
		fprintf(stderr, "floor: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	p = take(&w, 12);
	if (!p || memcmp(p, "Nettrace", 8))
		rc = fail(&w, "no Nettrace magic");
	else if (ld32(p + 8) == 0)
		rc = (w.v6 = 1, take(&w, 8)) ? walk_v6(&w) : -1;
	else if (ld32(p + 8) != 20 || !(p = take(&w, 20)) || memcmp(p, "!FastSerialization.1", 20))
		rc = fail(&w, "no FastSerialization header");
	else
		rc = walk_v5(&w);
	close(w.in.fd);
	free(w.in.buf);
	free(w.meta);
	if (rc) {
		fprintf(stderr, "floor: %s: rejected near byte %llu: %s\n", argv[1],
		        (unsigned long long)w.in.off, w.why ? w.why : "malformed");
		return 1;
	}
	printf("%llu events, %llu payloads checked\n", (unsigned long long)w.events,
	       (unsigned long long)w.checked);
	return 0;
}
