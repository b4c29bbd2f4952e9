/*
 * mutate_ctf.c - CTF container faults (see mutate_ctf.h).
 *
 * The walk knows write_ctf.c's shape: metadata in 4096-byte packets whose
 * text fills each one but the last; event classes with dense ids, packed
 * when their block declares ___data__; stream packets with LTTng's header
 * and context (events at 76 + pointer size), the large event header and the
 * vpid/vtid context. Typed fields are walked with the spec template, as the
 * writer laid them out.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/formats/ctf/ctf_w.h"
#include "gen/formats/ctf/dirimage.h"
#include "gen/formats/ctf/mutate_ctf.h"

#define TEXT_PER_PACKET (CTFW_META_PACKET - CTFW_META_HEADER)

struct mc_class {
	int packed;
	const struct gcspec_event *spec;
	size_t text_event;         /* text offset of the class's `event` */
	size_t text_field;         /* text offset of a field name's first letter, or 0 */
};

struct mc_packet {
	unsigned file;
	size_t off, content, size; /* image offset; bytes */
	size_t first_ev, nev;      /* into mc.ev */
};

struct mc_event {
	size_t off, end;           /* image offsets */
	int packed;
	size_t length_field;       /* packed: image offset of `length` */
	size_t ustr;               /* typed: first non-empty UnicodeString, or 0 */
};

struct mc {
	const uint8_t *img;
	size_t len;
	size_t meta_off, meta_size;
	char *text;
	size_t tlen;
	unsigned psize, ctx_end;
	struct mc_class *cls;
	size_t ncls, capcls;
	struct mc_packet *pk;
	size_t npk, cappk;
	struct mc_event *ev;
	size_t nev, capev;
};

static uint64_t get(const uint8_t *p, unsigned n)
{
	uint64_t x = 0;

	while (n--)
		x = x << 8 | p[n];
	return x;
}

static void put(uint8_t *p, uint64_t x, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

/* Room for element n of *a (capacity *cap elements of size bytes). */
static int grow(void **a, size_t *cap, size_t n, size_t size)
{
	void *b;

	if (n < *cap)
		return 0;
	if (!(b = realloc(*a, (*cap ? 2 * *cap : 64) * size)))
		return -1;
	*a = b;
	*cap = *cap ? 2 * *cap : 64;
	return 0;
}

static const struct gcspec_event *spec_of(const char *name, size_t n)
{
	for (unsigned p = 0; p < GCSPEC_NPROVIDERS; p++) {
		char prov[64];
		size_t k;

		ctfw_provider_name(p, prov, sizeof prov);
		k = strlen(prov);
		if (n <= k + 1 || strncmp(name, prov, k) != 0 || name[k] != ':')
			continue;
		for (unsigned e = 0; e < GCSPEC_NEVENTS; e++)
			if (gcspec_events[e].provider == p && strlen(gcspec_events[e].symbol) == n - k - 1 &&
			    strncmp(gcspec_events[e].symbol, name + k + 1, n - k - 1) == 0)
				return &gcspec_events[e];
	}
	return NULL;
}

static int read_metadata(struct mc *m, const char **why)
{
	const uint8_t *p;

	if (gen_dirimage_find(m->img, m->len, "metadata", &m->meta_off, &m->meta_size) < 0) {
		*why = "no metadata file";
		return -1;
	}
	p = m->img + m->meta_off;
	if (!(m->text = malloc(m->meta_size + 1))) {
		*why = "out of memory";
		return -1;
	}
	for (size_t at = 0; at + CTFW_META_PACKET <= m->meta_size; at += CTFW_META_PACKET) {
		size_t n = get(p + at + 24, 4) / 8 - CTFW_META_HEADER;

		memcpy(m->text + m->tlen, p + at + CTFW_META_HEADER, n);
		m->tlen += n;
	}
	m->text[m->tlen] = 0;
	return 0;
}

static size_t meta_file_off(size_t t)
{
	return t / TEXT_PER_PACKET * CTFW_META_PACKET + CTFW_META_HEADER + t % TEXT_PER_PACKET;
}

static int parse_classes(struct mc *m, const char **why)
{
	const char *a = strstr(m->text, "architecture_bit_width = ");

	m->psize = a && atoi(a + 25) == 32 ? 4 : 8;
	m->ctx_end = 76 + m->psize;
	for (const char *e = strstr(m->text, "event {\n\tname = \""); e;
	     e = strstr(e + 1, "event {\n\tname = \"")) {
		const char *name = e + 17, *q = strchr(name, '"'), *idp = strstr(e, "\tid = ");
		const char *end = strstr(e, "\n};\n"), *f;
		struct mc_class *c;
		long id;

		if (!q || !idp || !end || (id = atol(idp + 6)) != (long)m->ncls) {
			*why = "metadata not as gcgen writes it";
			return -1;
		}
		if (grow((void **)&m->cls, &m->capcls, m->ncls, sizeof *m->cls) < 0) {
			*why = "out of memory";
			return -1;
		}
		c = &m->cls[m->ncls++];
		memset(c, 0, sizeof *c);
		c->text_event = (size_t)(e - m->text);
		c->spec = spec_of(name, (size_t)(q - name));
		f = strstr(e, "___data__");
		c->packed = !c->spec || (f && f < end);
		/* A field whose name starts with a letter: "} _X" or "string _X". */
		for (f = strstr(e, " _"); !c->packed && f && f < end; f = strstr(f + 1, " _"))
			if ((f[2] >= 'A' && f[2] <= 'Z') || (f[2] >= 'a' && f[2] <= 'z')) {
				c->text_field = (size_t)(f + 2 - m->text);
				break;
			}
	}
	return 0;
}

/* Walk one event's typed fields from pos; returns the end, or 0. */
static size_t typed_end(const struct mc *m, const struct gcspec_event *spec, size_t pos, size_t limit,
			size_t *ustr)
{
	const struct gcspec_field *f = gcspec_event_fields(spec);

	for (unsigned i = 0; i < spec->nfields; i++) {
		unsigned w = ctfw_field_width(f[i].type, m->psize);

		if (f[i].type == GCSPEC_GUID)
			w = m->psize + 16;
		if (w) {
			pos += w;
			continue;
		}
		if (f[i].type != GCSPEC_UNICODE_STRING && f[i].type != GCSPEC_ANSI_STRING)
			return 0;
		const uint8_t *nul = pos < limit ? memchr(m->img + pos, 0, limit - pos) : NULL;

		if (!nul)
			return 0;
		if (f[i].type == GCSPEC_UNICODE_STRING && !*ustr && m->img + pos != nul)
			*ustr = pos;
		pos = (size_t)(nul - m->img) + 1;
	}
	return pos <= limit ? pos : 0;
}

static int walk_streams(struct mc *m, const char **why)
{
	const char *name;
	size_t off, size;

	for (unsigned fi = 0; gen_dirimage_file(m->img, m->len, fi, &name, &off, &size) == 0; fi++) {
		if (strncmp(name, "channel", 7) != 0)
			continue;
		for (size_t at = off; at + m->ctx_end <= off + size;) {
			struct mc_packet *pk;
			size_t content = get(m->img + at + 48, 8) / 8, psz = get(m->img + at + 56, 8) / 8;

			if (psz < m->ctx_end || content > psz || at + psz > off + size) {
				*why = "stream packets not as gcgen writes them";
				return -1;
			}
			if (grow((void **)&m->pk, &m->cappk, m->npk, sizeof *m->pk) < 0)
				goto oom;
			pk = &m->pk[m->npk++];
			*pk = (struct mc_packet){ fi, at, content, psz, m->nev, 0 };
			for (size_t pos = at + m->ctx_end; pos < at + content;) {
				struct mc_event *ev;
				unsigned id = (unsigned)get(m->img + pos, 2);
				size_t body;

				if (grow((void **)&m->ev, &m->capev, m->nev, sizeof *m->ev) < 0)
					goto oom;
				ev = &m->ev[m->nev];
				memset(ev, 0, sizeof *ev);
				ev->off = pos;
				if (id == 65535)
					id = (unsigned)get(m->img + pos + 2, 4);
				body = pos + (get(m->img + pos, 2) == 65535 ? 14 : 6) + 8;
				if (id >= m->ncls) {
					*why = "an event of an undeclared class";
					return -1;
				}
				ev->packed = m->cls[id].packed;
				if (ev->packed) {
					ev->length_field = body;
					ev->end = body + 8 + get(m->img + body + 4, 4);
				} else {
					ev->end = typed_end(m, m->cls[id].spec, body, at + content, &ev->ustr);
				}
				if (!ev->end || ev->end > at + content) {
					*why = "an event does not walk";
					return -1;
				}
				pos = ev->end;
				m->nev++;
				pk->nev++;
			}
			at += psz;
		}
	}
	if (!m->npk) {
		*why = "no stream packets";
		return -1;
	}
	return 0;
oom:
	*why = "out of memory";
	return -1;
}

static void mc_free(struct mc *m)
{
	free(m->text);
	free(m->cls);
	free(m->pk);
	free(m->ev);
}

/* The file the image offset `at` is in: its name and its data offset. */
static const char *file_at(const struct mc *m, size_t at, size_t *base)
{
	const char *name;
	size_t off, size;

	for (unsigned i = 0; gen_dirimage_file(m->img, m->len, i, &name, &off, &size) == 0; i++)
		if (at >= off && at < off + size) {
			*base = off;
			return name;
		}
	*base = 0;
	return NULL;
}

/* A copy of the image for the caller to change in place. */
static uint8_t *copy(const struct mc *m)
{
	uint8_t *d = malloc(m->len);

	if (d)
		memcpy(d, m->img, m->len);
	return d;
}

int gen_ctf_mutate(const uint8_t *img, size_t len, int fault, uint64_t seed,
		   struct gen_ctf_mutation *out, const char **why)
{
	struct mc m;
	size_t where = 0, base, k;
	uint8_t *d = NULL;
	const struct mc_packet *pk;

	memset(&m, 0, sizeof m);
	memset(out, 0, sizeof *out);
	m.img = img;
	m.len = len;
	if (read_metadata(&m, why) < 0 || parse_classes(&m, why) < 0 || walk_streams(&m, why) < 0)
		goto fail;
	pk = &m.pk[seed % m.npk];
	if (!pk->nev || !m.nev) {
		*why = "an empty packet";
		goto fail;
	}
	switch (fault) {
	case GEN_CTF_TRUNCATE: {
		/* Cut inside the packet: anywhere from its second byte to its last. */
		const char *name = file_at(&m, pk->off, &base);
		size_t keep = pk->off - base + 1 + (size_t)(seed >> 16) % (pk->size - 1), fsize;

		gen_dirimage_find(img, len, name, &base, &fsize);
		d = gen_dirimage_replace(img, len, name, img + base, keep, &out->len);
		if (!d)
			goto oom;
		out->data = d;
		out->code = GCSPEC_DIAG_C011;
		out->file = name;
		out->offset = pk->off - base;
		mc_free(&m);
		return 0;
	}
	case GEN_CTF_PACKET_MAGIC:
		if (!(d = copy(&m)))
			goto oom;
		d[pk->off + (seed >> 8) % 4] ^= (uint8_t)(1u << (seed >> 12) % 8);
		where = pk->off;
		out->code = GCSPEC_DIAG_C007;
		break;
	case GEN_CTF_PACKET_UUID:
		if (!(d = copy(&m)))
			goto oom;
		d[pk->off + 4 + (seed >> 8) % 16] ^= 0x10;
		where = pk->off + 4;
		out->code = GCSPEC_DIAG_C008;
		break;
	case GEN_CTF_UNKNOWN_STREAM:
		if (!(d = copy(&m)))
			goto oom;
		put(d + pk->off + 20, 7, 4);
		where = pk->off + 20;
		out->code = GCSPEC_DIAG_C009;
		break;
	case GEN_CTF_CONTENT_SIZE:
		if (!(d = copy(&m)))
			goto oom;
		put(d + pk->off + 48, (uint64_t)pk->size * 8 + 8, 8);
		where = pk->off + 48;
		out->code = GCSPEC_DIAG_C010;
		break;
	case GEN_CTF_EVENT_OVERRUN: {
		const struct mc_event *last = &m.ev[pk->first_ev + pk->nev - 1];

		if (!(d = copy(&m)))
			goto oom;
		put(d + pk->off + 48, (uint64_t)(last->off + 1 - pk->off) * 8, 8);
		where = last->off;
		out->code = GCSPEC_DIAG_C012;
		break;
	}
	case GEN_CTF_UNKNOWN_EVENT_ID: {
		const struct mc_event *e = &m.ev[(seed >> 8) % m.nev];

		if (!(d = copy(&m)))
			goto oom;
		if (get(img + e->off, 2) == 65535)
			put(d + e->off + 2, 60000, 4);
		else
			put(d + e->off, 60000, 2);
		where = e->off;
		out->code = GCSPEC_DIAG_C013;
		break;
	}
	case GEN_CTF_TIMESTAMP_RANGE: {
		const struct mc_event *e = &m.ev[pk->first_ev];

		/* The first event of a packet has an extended header: its time is
		 * whole. Its packet now begins 1 ns after it. */
		if (!(d = copy(&m)))
			goto oom;
		put(d + pk->off + 32, get(img + e->off + 6, 8) + 1, 8);
		where = e->off;
		out->code = GCSPEC_DIAG_C014;
		break;
	}
	case GEN_CTF_EVENTS_DISCARDED:
		if (!(d = copy(&m)))
			goto oom;
		put(d + pk->off + 72, 3, m.psize);
		where = pk->off + 72;
		out->code = GCSPEC_DIAG_C015;
		break;
	case GEN_CTF_PACKED_LENGTH:
	case GEN_CTF_STRING_NOT_UTF8: {
		size_t n = 0, pick;

		for (k = 0; k < m.nev; k++)
			n += fault == GEN_CTF_PACKED_LENGTH ? m.ev[k].packed : m.ev[k].ustr != 0;
		if (!n) {
			*why = fault == GEN_CTF_PACKED_LENGTH ? "no packed event" : "no typed UnicodeString";
			goto fail;
		}
		pick = (seed >> 8) % n;
		for (k = 0; k < m.nev; k++)
			if ((fault == GEN_CTF_PACKED_LENGTH ? m.ev[k].packed : m.ev[k].ustr != 0) && !pick--)
				break;
		if (!(d = copy(&m)))
			goto oom;
		if (fault == GEN_CTF_PACKED_LENGTH) {
			where = m.ev[k].length_field;
			put(d + where, get(img + where, 4) + 1, 4);
			out->code = GCSPEC_DIAG_C016;
		} else {
			where = m.ev[k].ustr;
			d[where] = 0xFF;
			out->code = GCSPEC_DIAG_C017;
		}
		break;
	}
	case GEN_CTF_CLASS_LAYOUT: {
		size_t n = 0, pick;

		for (k = 0; k < m.ncls; k++)
			n += m.cls[k].text_field != 0;
		if (!n) {
			*why = "no typed event class";
			goto fail;
		}
		pick = seed % n;
		for (k = 0; k < m.ncls; k++)
			if (m.cls[k].text_field && !pick--)
				break;
		if (!(d = copy(&m)))
			goto oom;
		where = m.meta_off + meta_file_off(m.cls[k].text_field);
		d[where] = d[where] == 'Q' ? 'Z' : 'Q';
		where = m.meta_off + meta_file_off(m.cls[k].text_event);
		out->code = GCSPEC_DIAG_C006;
		break;
	}
	case GEN_CTF_METADATA_SYNTAX: {
		/* A ';' outside comments and strings. */
		size_t n = 0, pick, t;
		int pass;

		for (pass = 0; pass < 2; pass++) {
			int in_comment = 0, in_string = 0;

			if (pass == 1) {
				if (!n) {
					*why = "no ';' in the metadata";
					goto fail;
				}
				pick = (seed >> 8) % n;
			}
			for (t = 0; t < m.tlen; t++) {
				if (in_comment) {
					in_comment = !(m.text[t] == '*' && m.text[t + 1] == '/');
					t += !in_comment;
				} else if (in_string) {
					in_string = m.text[t] != '"';
				} else if (m.text[t] == '/' && m.text[t + 1] == '*') {
					in_comment = 1;
					t++;
				} else if (m.text[t] == '"') {
					in_string = 1;
				} else if (m.text[t] == ';') {
					if (pass == 0)
						n++;
					else if (!pick--)
						break;
				}
			}
		}
		if (!(d = copy(&m)))
			goto oom;
		where = m.meta_off + meta_file_off(t);
		d[where] = '#';
		out->code = GCSPEC_DIAG_C004;
		break;
	}
	case GEN_CTF_METADATA_PACKET:
	case GEN_CTF_METADATA_VERSION: {
		size_t npk = m.meta_size / CTFW_META_PACKET, first = 0;

		/* The first packet's magic is what says the file is packetized:
		 * without it the file is text without the signature (GC-C003). */
		if (fault == GEN_CTF_METADATA_PACKET)
			first = 1;
		if (npk <= first) {
			*why = "too few metadata packets";
			goto fail;
		}
		where = m.meta_off + (first + (seed >> 8) % (npk - first)) * CTFW_META_PACKET;
		if (!(d = copy(&m)))
			goto oom;
		if (fault == GEN_CTF_METADATA_PACKET) {
			d[where + (seed >> 20) % 4] ^= 0x02;
			out->code = GCSPEC_DIAG_C002;
		} else {
			d[where + 35] = 2;
			out->code = GCSPEC_DIAG_C003;
		}
		break;
	}
	case GEN_CTF_NO_METADATA:
		/* A metadata file of no bytes; the image keeps its entry. */
		if (!(d = gen_dirimage_replace(img, len, "metadata", (const uint8_t *)"", 0, &len)))
			goto oom;
		out->data = d;
		out->len = len;
		out->code = GCSPEC_DIAG_C001;
		out->file = "metadata";
		out->offset = 0;
		mc_free(&m);
		return 0;
	case GEN_CTF_METADATA_INVALID: {
		/* A "size = NN;" of an integer type, seed-chosen, made 99 bits. */
		static const char key[] = "size = ";
		size_t n = 0, pick = 0, t, at = 0;
		int pass;

		for (pass = 0; pass < 2; pass++) {
			if (pass == 1) {
				if (!n) {
					*why = "no integer size in the metadata";
					goto fail;
				}
				pick = (seed >> 8) % n;
			}
			for (t = 0; t + sizeof key + 2 <= m.tlen; t++)
				if (memcmp(m.text + t, key, sizeof key - 1) == 0 &&
				    m.text[t + 7] >= '0' && m.text[t + 7] <= '9' &&
				    m.text[t + 8] >= '0' && m.text[t + 8] <= '9' && m.text[t + 9] == ';') {
					if (pass == 0)
						n++;
					else if (!pick--) {
						at = t + 7;
						break;
					}
				}
		}
		if (!(d = copy(&m)))
			goto oom;
		/* Each digit by itself: a metadata packet may end between them. */
		d[m.meta_off + meta_file_off(at + 1)] = '9';
		where = m.meta_off + meta_file_off(at);
		d[where] = '9';
		out->code = GCSPEC_DIAG_C005;
		break;
	}
	default:
		*why = "no such CTF fault";
		goto fail;
	}
	out->data = d;
	out->len = len;
	out->file = file_at(&m, where, &base);
	out->offset = where - base;
	mc_free(&m);
	return 0;
oom:
	*why = "out of memory";
fail:
	free(d);
	mc_free(&m);
	return -1;
}
