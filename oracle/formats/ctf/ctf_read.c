/*
 * ctf_read.c - the CTF reader's frame: the trace directory's files, the
 * metadata (plain or packetized), stream packets, and the merge of all
 * streams by time (see ctf_r.h).
 *
 * Each stream file has a cursor holding its current packet's content. The
 * cursors whose next event header is decoded sit in a binary heap ordered
 * by (timestamp, file order); ctfr_next returns the top one's event and,
 * on the next call, decodes that stream's following header and restores the
 * heap. Ties go to the earlier file, so the order is deterministic.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/formats/ctf/ctf_read_i.h"
#include "oracle/formats/ctf/ctf_report.h"

#define META_MAX ((uint64_t)64 << 20)
#define PACKET_MAX ((uint64_t)256 << 20)
#define HEAD_READ 4096u
#define META_MAGIC 0x75D11D57u
#define PACKET_MAGIC 0xC1FC1FC1u

const char *ctfr_locate(const struct ctfr_reader *r, uint64_t offset, uint64_t *file_offset)
{
	size_t lo = 0, hi = r->nfiles;

	if (!r->nfiles || offset > r->total)
		return NULL;
	if (offset == r->total) {
		*file_offset = r->files[r->nfiles - 1].size;
		return r->files[r->nfiles - 1].name;
	}
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (r->files[mid].base <= offset)
			lo = mid;
		else
			hi = mid;
	}
	/* Empty files share their base with the next: an offset there is the
	 * first one's (an empty metadata file is what C001 is about). */
	while (lo > 0 && r->files[lo - 1].base == offset)
		lo--;
	*file_offset = offset - r->files[lo].base;
	return r->files[lo].name;
}

int ctfr_probe_dir(const char *dir)
{
	char p[4096];
	struct stat st;

	snprintf(p, sizeof p, "%s/metadata", dir);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp(((const struct cfile *)a)->name, ((const struct cfile *)b)->name);
}

/* 1 when path is a symbolic link whose target is outside the directory
 * dir (real path rdir): such a file is not the trace's, and reading it
 * would quote any file on the system in a diagnostic. A link inside the
 * directory is read as the file it names. */
static int links_outside(const char *path, const char *rdir)
{
	struct stat st;
	char *target;
	size_t n = strlen(rdir);
	int out;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return 0;
	if (!rdir || !(target = realpath(path, NULL)))
		return 1;
	out = strncmp(target, rdir, n) != 0 || target[n] != '/';
	free(target);
	return out;
}

/* metadata first, then the other regular files by name. */
static int list_files(struct ctfr_reader *r, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 16;
	char p[4096];
	struct stat st;
	char *rdir = realpath(dir, NULL);

	if (!d || !rdir || !(r->files = calloc(cap, sizeof *r->files)))
		goto fail;
	r->nfiles = 1;
	snprintf(p, sizeof p, "%s/metadata", dir);
	if (links_outside(p, rdir)) {
		ctfr_report(r, GCSPEC_DIAG_C019, UINT64_MAX, 0,
			    "metadata is a link to a file outside the trace directory; not read");
		goto fail;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "metadata") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (links_outside(p, rdir)) {
			/* Reported at the trace's start: the file has no place in it. */
			ctfr_report(r, GCSPEC_DIAG_C019, UINT64_MAX, 0,
				    "%s is a link to a file outside the trace directory; not read",
				    e->d_name);
			continue;
		}
		if (r->nfiles == cap) {
			struct cfile *f = realloc(r->files, 2 * cap * sizeof *f);

			if (!f)
				goto fail;
			r->files = f;
			cap *= 2;
		}
		r->files[r->nfiles].size = (uint64_t)st.st_size;
		if (!(r->files[r->nfiles++].name = strdup(e->d_name)))
			goto fail;
	}
	closedir(d);
	d = NULL;
	if (!(r->files[0].name = strdup("metadata")))
		goto fail;
	snprintf(p, sizeof p, "%s/metadata", dir);
	r->files[0].size = stat(p, &st) == 0 ? (uint64_t)st.st_size : 0;
	qsort(r->files + 1, r->nfiles - 1, sizeof *r->files, cmp_files);
	for (size_t i = 0; i < r->nfiles; i++) {
		r->files[i].base = r->total;
		r->total += r->files[i].size;
	}
	free(rdir);
	return 0;
fail:
	if (d)
		closedir(d);
	free(rdir);
	return -1;
}

static uint32_t get32(const uint8_t *p, int be)
{
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int add_tmap(struct ctfr_reader *r, uint64_t text_start, uint64_t file_off)
{
	if (r->ntmap == r->captmap) {
		size_t cap = r->captmap ? 2 * r->captmap : 64;
		uint64_t *m = realloc(r->tmap, 2 * cap * sizeof *m);

		if (!m)
			return -1;
		r->tmap = m;
		r->captmap = cap;
	}
	r->tmap[2 * r->ntmap] = text_start;
	r->tmap[2 * r->ntmap + 1] = file_off;
	r->ntmap++;
	return 0;
}

/* The metadata text, from a plain file or from metadata packets (CTF 1.8
 * section 7.1). Returns 0, or -1 after reporting. */
static int read_metadata(struct ctfr_reader *r, const char *dir)
{
	char p[4096];
	FILE *f;
	uint8_t *raw;
	uint64_t size = r->files[0].size;
	size_t got;
	int be;

	snprintf(p, sizeof p, "%s/metadata", dir);
	if (!size || !(f = fopen(p, "rbe"))) {
		ctfr_report(r, GCSPEC_DIAG_C001, UINT64_MAX, 0, "the trace has no readable, non-empty metadata file");
		return -1;
	}
	if (size > META_MAX) {
		fclose(f);
		ctfr_report(r, GCSPEC_DIAG_C005, UINT64_MAX, 0, "metadata of %llu bytes: above this reader's 64 MiB",
			    (unsigned long long)size);
		return -1;
	}
	if (!(raw = malloc((size_t)size + 1)) || !(r->text = malloc((size_t)size + 1))) {
		free(raw);
		fclose(f);
		return -1;
	}
	got = fread(raw, 1, (size_t)size, f);
	fclose(f);
	if (got < 4 || (get32(raw, 0) != META_MAGIC && get32(raw, 1) != META_MAGIC)) {
		/* Plain text: it must say what it is. */
		if (got < 10 || memcmp(raw, "/* CTF 1.", 9) != 0) {
			free(raw);
			ctfr_report(r, GCSPEC_DIAG_C003, UINT64_MAX, 0,
				    "the metadata is neither metadata packets nor text starting with the \"/* CTF 1.8\" signature");
			return -1;
		}
		memcpy(r->text, raw, got);
		r->tlen = got;
		free(raw);
		return add_tmap(r, 0, 0);
	}
	be = get32(raw, 0) != META_MAGIC;
	for (size_t at = 0; at < got;) {
		uint32_t content, packet;
		const uint8_t *h = raw + at;

		if (got - at < 37) {
			ctfr_report(r, GCSPEC_DIAG_C002, UINT64_MAX, at, "the metadata ends inside a packet header");
			goto bad;
		}
		if (get32(h, be) != META_MAGIC) {
			ctfr_report(r, GCSPEC_DIAG_C002, UINT64_MAX, at, "metadata packet without its magic 0x75D11D57");
			goto bad;
		}
		if (memcmp(h + 4, raw + 4, 16) != 0) {
			ctfr_report(r, GCSPEC_DIAG_C002, UINT64_MAX, at, "a metadata packet's uuid differs from the first packet's");
			goto bad;
		}
		content = get32(h + 24, be);
		packet = get32(h + 28, be);
		if (content % 8 || packet % 8 || content > packet || content < 37 * 8 ||
		    packet / 8 > got - at) {
			ctfr_report(r, GCSPEC_DIAG_C002, UINT64_MAX, at,
				    "metadata packet of content %u and packet %u bits in %zu bytes left", content,
				    packet, got - at);
			goto bad;
		}
		if (h[32] || h[33] || h[34] || h[35] != 1 || h[36] != 8) {
			ctfr_report(r, GCSPEC_DIAG_C003, UINT64_MAX, at,
				    "metadata packet of CTF %u.%u with compression %u, encryption %u, checksum %u: only plain 1.8 is read",
				    h[35], h[36], h[32], h[33], h[34]);
			goto bad;
		}
		if (add_tmap(r, r->tlen, at + 37) < 0)
			goto bad;
		memcpy(r->text + r->tlen, h + 37, content / 8 - 37);
		r->tlen += content / 8 - 37;
		at += packet / 8;
	}
	free(raw);
	return 0;
bad:
	free(raw);
	return -1;
}

/* --- packets ------------------------------------------------------------ */

static int ensure(struct cstream *s, size_t n)
{
	uint8_t *b;

	if (n <= s->cap)
		return 0;
	if (!(b = realloc(s->buf, n)))
		return -1;
	s->buf = b;
	s->cap = n;
	return 0;
}

static ssize_t read_at(struct ctfr_reader *r, struct cstream *s, const char *dir, uint8_t *buf, size_t n,
		       uint64_t off)
{
	size_t got = 0;
	int fd = s->fd;

	if (fd < 0) {
		char p[4096];

		snprintf(p, sizeof p, "%s/%s", dir, r->files[s->file].name);
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
	}
	while (got < n) {
		ssize_t k = pread(fd, buf + got, n - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	if (s->fd < 0)
		close(fd);
	return (ssize_t)got;
}

/* A stream file that cannot be read where it should be (not opened, an
 * I/O error, shorter than it was listed): its events are missing, which
 * must not pass for a shorter trace. Returns 0 (the stream is done). */
static int read_failed(struct ctfr_reader *r, struct cstream *s, const char *dir, uint64_t off, ssize_t got)
{
	const struct cfile *f = &r->files[s->file];
	char p[4096];
	int fd;
	const char *why = "the file ends before its listed size";

	if (got < 0) {
		snprintf(p, sizeof p, "%s/%s", dir, f->name);
		if ((fd = open(p, O_RDONLY | O_CLOEXEC)) < 0)
			why = strerror(errno);
		else {
			close(fd);
			why = "read error";
		}
	}
	ctfr_report(r, GCSPEC_DIAG_C018, UINT64_MAX, f->base + off,
		    "cannot read stream file %s at byte %llu: %s; its events from here on are missing",
		    f->name, (unsigned long long)off, why);
	return 0;
}

static uint64_t field_at(const struct cstream *s, const struct cdec *d, int role)
{
	return s->pkt_off + d->role_at[role] / 8;
}

/* Load the packet at s->next_pkt: 1, or 0 when the stream file is done
 * (its end, or a packet it cannot go past: reported). */
static int load_packet(struct ctfr_reader *r, struct cstream *s, const char *dir)
{
	const struct cfile *f = &r->files[s->file];
	uint64_t off = s->next_pkt, rest, base = f->base, content, packet, hdr;
	size_t n;
	ssize_t got;
	struct cdec d;
	int sc = -1;

	if (s->done || off >= f->size)
		return 0;
	rest = f->size - off;
	n = rest < HEAD_READ ? (size_t)rest : HEAD_READ;
	if (ensure(s, HEAD_READ) < 0)
		return 0;
	if ((got = read_at(r, s, dir, s->buf, n, off)) != (ssize_t)n)
		return read_failed(r, s, dir, off, got);
	s->pkt_off = off;
	memset(&d, 0, sizeof d);
	d.buf = s->buf;
	d.end = (uint64_t)n * 8;
	d.slots = r->slots;
	d.r = r;
	d.clock = &s->clock;
	if (r->pkt_header >= 0 && ctfr_decode(&d, r->pkt_header, NULL) < 0)
		goto short_head;
	if (d.roles & 1u << R_MAGIC && d.role[R_MAGIC] != PACKET_MAGIC) {
		ctfr_report(r, GCSPEC_DIAG_C007, UINT64_MAX, base + field_at(s, &d, R_MAGIC),
			    "packet magic 0x%08llx, not 0xC1FC1FC1; the rest of %s is not read",
			    (unsigned long long)d.role[R_MAGIC], f->name);
		return 0;
	}
	if (d.roles & 1u << R_UUID && r->meta.has_uuid &&
	    (d.role_at[R_UUID] % 8 || memcmp(s->buf + d.role_at[R_UUID] / 8, r->meta.uuid, 16) != 0))
		ctfr_report(r, GCSPEC_DIAG_C008, UINT64_MAX, base + field_at(s, &d, R_UUID),
			    "a packet of %s has a uuid other than the trace's", f->name);
	if (d.roles & 1u << R_STREAM_ID) {
		for (size_t i = 0; i < r->meta.nstreams && sc < 0; i++)
			if (r->meta.streams[i].id == d.role[R_STREAM_ID])
				sc = (int)i;
		if (sc < 0) {
			ctfr_report(r, GCSPEC_DIAG_C009, UINT64_MAX, base + field_at(s, &d, R_STREAM_ID),
				    "packet of stream id %llu, which the metadata does not declare; the rest of %s is not read",
				    (unsigned long long)d.role[R_STREAM_ID], f->name);
			return 0;
		}
	} else if (r->meta.nstreams == 1) {
		sc = 0;
	} else {
		ctfr_report(r, GCSPEC_DIAG_C009, UINT64_MAX, base + off,
			    "packet without a stream id in a trace of %zu stream classes; %s is not read",
			    r->meta.nstreams, f->name);
		return 0;
	}
	s->sc = sc;
	if (r->sclasses[sc].pctx >= 0 && ctfr_decode(&d, r->sclasses[sc].pctx, NULL) < 0)
		goto short_head;
	hdr = d.pos;
	content = d.roles & 1u << R_CONTENT_SIZE ? d.role[R_CONTENT_SIZE] : 0;
	packet = d.roles & 1u << R_PACKET_SIZE ? d.role[R_PACKET_SIZE] : 0;
	if (!(d.roles & (1u << R_CONTENT_SIZE | 1u << R_PACKET_SIZE)))
		content = packet = rest * 8; /* one packet: the whole file */
	else if (!(d.roles & 1u << R_PACKET_SIZE))
		packet = content;
	else if (!(d.roles & 1u << R_CONTENT_SIZE))
		content = packet;
	if (packet % 8 || packet < hdr || content > packet || content < hdr) {
		int which = d.roles & 1u << R_CONTENT_SIZE && (content > packet || content < hdr)
			? R_CONTENT_SIZE : R_PACKET_SIZE;

		ctfr_report(r, GCSPEC_DIAG_C010, UINT64_MAX,
			    base + (d.roles & 1u << which ? field_at(s, &d, which) : off),
			    "packet of content %llu and packet size %llu bits (header and context: %llu); the rest of %s is not read",
			    (unsigned long long)content, (unsigned long long)packet, (unsigned long long)hdr, f->name);
		return 0;
	}
	s->truncated = packet / 8 > rest;
	if (s->truncated)
		ctfr_report(r, GCSPEC_DIAG_C011, UINT64_MAX, base + off,
			    "%s ends %llu bytes into a packet of %llu bytes; the events before the end are read",
			    f->name, (unsigned long long)rest, (unsigned long long)(packet / 8));
	{
		uint64_t want = (content + 7) / 8, have = want < rest ? want : rest;

		if (have > PACKET_MAX) {
			ctfr_report(r, GCSPEC_DIAG_C010, UINT64_MAX, base + off,
				    "a packet of %llu bytes: above this reader's 256 MiB; the rest of %s is not read",
				    (unsigned long long)have, f->name);
			return 0;
		}
		if (have > n && ensure(s, (size_t)have) < 0)
			return 0;
		if (have > n && (got = read_at(r, s, dir, s->buf + n, (size_t)have - n, off + n)) !=
				(ssize_t)(have - n))
			return read_failed(r, s, dir, off + n, got);
		s->end = content < have * 8 ? content : have * 8;
	}
	if (d.roles & 1u << R_DISCARDED) {
		if (d.role[R_DISCARDED] > s->discarded)
			ctfr_report(r, GCSPEC_DIAG_C015, UINT64_MAX, base + field_at(s, &d, R_DISCARDED),
				    "the tracer discarded %llu events before this packet of %s (%llu in all)",
				    (unsigned long long)(d.role[R_DISCARDED] - s->discarded), f->name,
				    (unsigned long long)d.role[R_DISCARDED]);
		s->discarded = d.role[R_DISCARDED];
	}
	s->has_begin = (d.roles >> R_TS_BEGIN) & 1;
	s->has_end = (d.roles >> R_TS_END) & 1;
	s->ts_begin = d.role[R_TS_BEGIN];
	s->ts_end = d.role[R_TS_END];
	if (s->has_begin && s->has_end && s->ts_end < s->ts_begin)
		ctfr_report(r, GCSPEC_DIAG_C014, UINT64_MAX, base + field_at(s, &d, R_TS_END),
			    "a packet of %s ends (%llu) before it begins (%llu)", f->name,
			    (unsigned long long)s->ts_end, (unsigned long long)s->ts_begin);
	s->ts_lo = s->has_begin ? s->ts_begin : 0;
	s->ts_hi = s->has_end ? s->ts_end : UINT64_MAX;
	s->fast = r->sclasses[sc].fast_hdr && r->sclasses[sc].fast_ctx && !(r->flags & CTFR_GENERIC);
	s->pos = hdr;
	s->next_pkt = s->truncated ? f->size : off + packet / 8;
	r->counts.packets++;
	return 1;
short_head:
	if (rest < HEAD_READ) {
		ctfr_report(r, GCSPEC_DIAG_C011, UINT64_MAX, base + off,
			    "%s ends inside a packet's header or context", f->name);
	} else {
		ctfr_report(r, GCSPEC_DIAG_C010, UINT64_MAX, base + off,
			    "a packet header and context above %u bytes; the rest of %s is not read", HEAD_READ,
			    f->name);
	}
	return 0;
}

/* Decode the next event header of s: 1, or 0 at the end of the stream. */
static int next_head(struct ctfr_reader *r, struct cstream *s, const char *dir)
{
	for (;;) {
		const struct csclass *sc;
		uint64_t start, id = 0;
		int err = 0;

		if (s->done)
			return 0;
		if (s->sc < 0 || s->pos >= s->end) {
			if (s->truncated || !load_packet(r, s, dir)) {
				s->done = 1;
				return 0;
			}
			continue;
		}
		sc = &r->sclasses[s->sc];
		start = s->pos;
		if (sc->fast_hdr && !(r->flags & CTFR_GENERIC) && !(start & 7)) {
			const uint8_t *p = s->buf + start / 8;
			uint64_t left = (s->end - start) / 8;

			if (left < 6) {
				err = 1;
			} else if ((id = (uint64_t)p[0] | (uint64_t)p[1] << 8) == 65535) {
				if (left < 14) {
					err = 1;
				} else {
					id = ctfr_le32(p + 2);
					s->clock = ctfr_le64(p + 6);
					s->pos += 112;
				}
			} else {
				ctfr_clock_update(&s->clock, ctfr_le32(p + 2), 32);
				s->pos += 48;
			}
		} else if (sc->ehdr >= 0) {
			struct cdec d;

			memset(&d, 0, sizeof d);
			d.buf = s->buf;
			d.pos = start;
			d.end = s->end;
			d.slots = r->slots;
			d.r = r;
			d.clock = &s->clock;
			if (ctfr_decode(&d, sc->ehdr, NULL) < 0)
				err = d.err;
			id = d.role[R_EVENT_ID];
			s->pos = d.pos;
		}
		if (err) {
			if (!s->truncated)
				ctfr_report(r, GCSPEC_DIAG_C012, UINT64_MAX, r->files[s->file].base + s->pkt_off + start / 8,
					    err == 2 ? "an event header's variant tag selects no option; the rest of the packet is not read"
						     : "an event header runs past its packet's content; the rest of the packet is not read");
			s->pos = s->end;
			continue;
		}
		if (id >= sc->nby_id || !sc->by_id[id]) {
			ctfr_report(r, GCSPEC_DIAG_C013, UINT64_MAX, r->files[s->file].base + s->pkt_off + start / 8,
				    "event id %llu has no event class in stream %llu; the rest of the packet is not read",
				    (unsigned long long)id, (unsigned long long)r->meta.streams[s->sc].id);
			s->pos = s->end;
			continue;
		}
		s->head = sc->by_id[id];
		s->head_ts = s->clock;
		s->head_pos = start;
		s->body_pos = s->pos;
		return 1;
	}
}

/* next_head's common case, inline: LTTng's event_header_large of a known
 * class, whole in the packet. 0 (nothing changed) for anything else, which
 * next_head then decodes and reports. */
static inline int head_fast(const struct ctfr_reader *r, struct cstream *s)
{
	const struct csclass *sc;
	const uint8_t *p;
	struct cclass *c;
	uint64_t left, id;

	if (!s->fast || s->pos >= s->end || (s->pos & 7))
		return 0;
	sc = &r->sclasses[s->sc];
	p = s->buf + s->pos / 8;
	left = (s->end - s->pos) / 8;
	if (left < 6)
		return 0;
	id = (uint64_t)p[0] | (uint64_t)p[1] << 8;
	if (id == 65535) {
		if (left < 14 || (id = ctfr_le32(p + 2)) >= sc->nby_id || !(c = sc->by_id[id]))
			return 0;
		s->clock = ctfr_le64(p + 6);
		s->head_pos = s->pos;
		s->pos += 112;
	} else {
		if (id >= sc->nby_id || !(c = sc->by_id[id]))
			return 0;
		ctfr_clock_update(&s->clock, ctfr_le32(p + 2), 32);
		s->head_pos = s->pos;
		s->pos += 48;
	}
	s->head = c;
	s->head_ts = s->clock;
	s->body_pos = s->pos;
	return 1;
}

/* ctfr_fields' common case, inline: a fixed context, then a packed payload
 * or typed fields that are one copy, whole in the packet and saying nothing
 * to report. 0 (nothing changed) for anything else. */
static inline int fields_fast(struct ctfr_reader *r, struct cstream *s, const struct cclass *c,
			      struct or_event *ev, uint64_t base)
{
	const struct csclass *sc;
	const uint8_t *p;
	uint64_t left, at;

	if (!c->inl || !s->fast || (s->pos & 7))
		return 0;
	sc = &r->sclasses[s->sc];
	p = s->buf + s->pos / 8;
	left = (s->end - s->pos) / 8;
	if (left < sc->ctx_bytes)
		return 0;
	left -= sc->ctx_bytes;
	at = s->pos / 8 + sc->ctx_bytes;
	if (c->inl == CI_PACKED) {
		const uint8_t *q = p + sc->ctx_bytes;
		uint64_t n;

		if (left < 8 || (n = ctfr_le32(q + 4)) > left - 8 || ctfr_le32(q) != n)
			return 0;
		ev->payload = q + 8;
		ev->payload_len = (uint32_t)n;
		ev->payload_offset = base + at + 8;
		s->pos = (at + 8 + n) * 8;
	} else {
		if (left < c->inl_n)
			return 0;
		ev->payload = p + sc->ctx_bytes;
		ev->payload_len = c->inl_n;
		ev->payload_offset = base + at;
		s->pos = (at + c->inl_n) * 8;
	}
	ev->thread_id = sc->vtid_at >= 0 ? ctfr_le32(p + sc->vtid_at) : 0;
	if (sc->vpid_at >= 0) {
		ev->process = ctfr_le32(p + sc->vpid_at);
		if (!r->info->process_id)
			r->info->process_id = ev->process;
	}
	r->counts.fast_events++;
	return 1;
}

/* --- the merge ------------------------------------------------------------ */

static inline int before(const struct ctfr_hent *x, const struct ctfr_hent *y)
{
	return x->ts < y->ts || (x->ts == y->ts && x->s < y->s);
}

/* Inline: once an event, in ctfr_next. */
static inline void sift_down(struct ctfr_reader *r, size_t i)
{
	struct ctfr_hent *h = r->heap, t = h[i];
	size_t n = r->nheap;

	for (;;) {
		size_t l = 2 * i + 1, m;

		if (l >= n)
			break;
		m = l + 1 < n && before(&h[l + 1], &h[l]) ? l + 1 : l;
		if (!before(&h[m], &t))
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = t;
}

/* The earlier of the top's children: while the top stream's next head is
 * before it, the top stays and the heap is not touched (four events in
 * five of a per-CPU trace). A heap of one has none: no stream at all. */
static inline void set_runner(struct ctfr_reader *r)
{
	const struct ctfr_hent *h = r->heap;

	if (r->nheap >= 3)
		r->runner = before(&h[2], &h[1]) ? h[2] : h[1];
	else if (r->nheap == 2)
		r->runner = h[1];
	else
		r->runner = (struct ctfr_hent){ UINT64_MAX, UINT32_MAX };
}

static void push(struct ctfr_reader *r, uint32_t s)
{
	size_t i = r->nheap++;
	struct ctfr_hent t = { r->streams[s].head_ts, s };

	while (i && before(&t, &r->heap[(i - 1) / 2])) {
		r->heap[i] = r->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	r->heap[i] = t;
}

/* --- the interface ---------------------------------------------------- */

int ctfr_open(struct ctfr_reader **rp, const char *dir, ctfr_report_fn report, void *arg,
              struct or_stream_info *info, unsigned flags)
{
	struct ctfr_reader *r = calloc(1, sizeof *r);
	struct ctf_meta_err err;
	uint64_t start = UINT64_MAX;

	*rp = r;
	if (!r)
		return -1;
	r->report = report;
	r->arg = arg;
	r->info = info;
	r->flags = flags;
	r->pkt_header = -1;
	if (list_files(r, dir) < 0 || !(r->dirname = strdup(dir)))
		goto fail;
	if (read_metadata(r, dir) < 0)
		goto fail;
	if (ctf_meta_parse(&r->meta, r->text, r->tlen, &err) < 0) {
		uint64_t at = ctfr_text_offset(r, err.text_off);

		/* The end of the text is reported at its last byte: still metadata. */
		if (at >= r->files[0].size && r->files[0].size)
			at = r->files[0].size - 1;
		ctfr_report(r, err.code, UINT64_MAX, at, "metadata: %s", err.msg);
		goto fail;
	}
	if (r->meta.major != 1) {
		ctfr_report(r, GCSPEC_DIAG_C003, UINT64_MAX, 0, "the metadata declares CTF %d.%d; only 1.x is read",
			    r->meta.major, r->meta.minor);
		goto fail;
	}
	info->format = "ctf";
	info->format_version = 18;
	info->pointer_size = r->meta.arch_bits == 32 ? 4 : 8;
	info->clock_frequency = r->meta.nclocks ? r->meta.clocks[0].freq : 1000000000u;
	info->process_id = r->meta.vpid > 0 ? (uint32_t)r->meta.vpid : 0;
	if (ctfr_compile(r) < 0 || ctfr_classes(r) < 0)
		goto fail;
	for (size_t e = 0; e < r->meta.nevents; e++) {
		struct cclass *c = &r->classes[e];

		if (!c->fast || c->ctx >= 0)
			continue;
		if (c->kind == CC_PACKED) {
			c->inl = CI_PACKED;
		} else if (c->kind == CC_TYPED && c->nprog == 1 && r->prog[c->prog].op == F_COPY) {
			c->inl = CI_COPY;
			c->inl_n = r->prog[c->prog].n;
		}
	}
	r->nstreams = r->nfiles - 1;
	r->keep_fds = r->nstreams <= 256;
	if (!(r->streams = calloc(r->nstreams ? r->nstreams : 1, sizeof *r->streams)) ||
	    !(r->heap = calloc(r->nstreams ? r->nstreams : 1, sizeof *r->heap)))
		goto fail;
	for (size_t i = 0; i < r->nstreams; i++) {
		struct cstream *s = &r->streams[i];

		s->file = (unsigned)i + 1;
		s->sc = -1;
		s->fd = -1;
		if (r->keep_fds) {
			char p[4096];

			snprintf(p, sizeof p, "%s/%s", dir, r->files[s->file].name);
			s->fd = open(p, O_RDONLY | O_CLOEXEC);
		}
		if (next_head(r, s, dir)) {
			push(r, (uint32_t)i);
			if (s->has_begin && s->ts_begin < start)
				start = s->ts_begin;
		}
	}
	r->counts.streams = r->nstreams;
	r->counts.bytes = r->total;
	set_runner(r);
	info->start_ticks = start == UINT64_MAX ? (r->nheap ? r->heap[0].ts : 0) : start;
	return 0;
fail:
	ctfr_close(r);
	*rp = NULL;
	return -1;
}

enum or_status ctfr_next(struct ctfr_reader *r, struct or_event *ev)
{
	for (;;) {
		struct cstream *s;
		struct cclass *c;
		uint64_t base;
		int rc;

		if (r->last) {
			s = r->last;
			r->last = NULL;
			if (head_fast(r, s) || next_head(r, s, r->dirname)) {
				r->heap[0].ts = s->head_ts;
				if (!before(&r->heap[0], &r->runner)) {
					sift_down(r, 0);
					set_runner(r);
				}
			} else {
				r->heap[0] = r->heap[--r->nheap];
				sift_down(r, 0);
				set_runner(r);
			}
		}
		if (!r->nheap)
			return OR_END;
		s = &r->streams[r->heap[0].s];
		c = s->head;
		r->last = s;
		base = r->files[s->file].base + s->pkt_off;
		ev->model_fields = NULL;
		ev->model_fields_len = 0;
		ev->block = NULL;
		ev->cls = 0;
		ev->pointer_size = 0; /* one per trace: the metadata's */
		ev->writer_thread = 0;
		/* Per-process buffers name their process in the env; the vpid
		 * context, where the stream has one, says it per event. */
		ev->process = r->meta.vpid > 0 ? (uint32_t)r->meta.vpid : 0;
		ev->index = r->index;
		ev->offset = base + s->head_pos / 8;
		ev->timestamp = s->head_ts;
		s->pos = s->body_pos;
		rc = fields_fast(r, s, c, ev, base) ? 0 : ctfr_fields(r, s, c, ev);
		if (rc < 0) {
			if (!s->truncated)
				ctfr_report(r, GCSPEC_DIAG_C012, UINT64_MAX, ev->offset,
					    "a %s event runs past its packet's content; the rest of the packet is not read",
					    c->ec->name);
			s->pos = s->end;
			continue;
		}
		if (rc > 0) {
			r->counts.events_skipped++;
			continue;
		}
		if (ev->timestamp < s->ts_lo || ev->timestamp > s->ts_hi)
			ctfr_report(r, GCSPEC_DIAG_C014, r->index, ev->offset,
				    "event at %llu, outside its packet's [%llu, %llu]",
				    (unsigned long long)ev->timestamp, (unsigned long long)s->ts_begin,
				    (unsigned long long)s->ts_end);
		ev->provider = c->provider;
		ev->provider_name = c->provider_name;
		ev->id = c->id;
		ev->version = c->version;
		ev->level = c->level;
		ev->opcode = c->opcode;
		ev->keywords = c->keywords;
		r->index++;
		r->counts.events++;
		return OR_EVENT;
	}
}

void ctfr_counts(const struct ctfr_reader *r, struct ctfr_counts *c)
{
	*c = r->counts;
}

void ctfr_close(struct ctfr_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nstreams; i++) {
		if (r->streams[i].fd >= 0)
			close(r->streams[i].fd);
		free(r->streams[i].buf);
	}
	for (size_t i = 0; i < r->nfiles; i++)
		free(r->files[i].name);
	for (size_t i = 0; i < r->meta.nstreams && r->sclasses; i++)
		free(r->sclasses[i].by_id);
	ctf_meta_free(&r->meta);
	free(r->streams);
	free(r->heap);
	free(r->files);
	free(r->text);
	free(r->tmap);
	free(r->nodes);
	free(r->kids);
	free(r->vsel);
	free(r->slots);
	free(r->acts);
	free(r->prog);
	free(r->sclasses);
	free(r->classes);
	free(r->payload);
	free(r->dirname);
	free(r);
}
