/*
 * write_ctf.c - the LTTng CTF trace writer: streams, packets and events (see
 * ctf_w.h for the shape).
 *
 * Each processor's stream keeps one open packet in memory and appends it to
 * its file when the next event does not fit; end() closes the last packets
 * (trimmed to a 4096-byte multiple, as LTTng's final flush does) and writes
 * the metadata, whose event classes are the ones used, in first-use order.
 *
 * Readers merge the per-processor streams by time, so a stream may only hold
 * events in the order they must come back. gcgen's streams are in time
 * order except where a mutator makes an event tie with or precede an
 * earlier one; such an event goes to the stream of the latest event that
 * raised the trace's time (not to its processor's), which makes merging by
 * time give back exactly the order events were written in.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctf_w.h"
#include "emit.h"
#include "rng.h"

#define MAX_CPUS 1024
#define PAGE 4096u
#define PACKET_MAGIC 0xC1FC1FC1u
#define EXTENDED_ID 65535u

struct stream {
	uint32_t cpu;
	uint8_t *buf;              /* the open packet, cap bytes */
	size_t cap, used;
	uint32_t nevents;          /* in the open packet */
	uint64_t ts_min, ts_max, last_ts;
	uint64_t seq;              /* packet_seq_num of the open packet */
};

struct klass {
	uint16_t provider, id;
	uint8_t version, packed;
	int spec;                  /* gcspec_events index or -1 */
};

struct ctf_writer {
	struct gen_writer base;    /* first: writer.h's common part */
	struct gen_stream_info info;
	char *dir;
	uint8_t uuid[16];
	uint64_t clock_offset_ns;
	size_t packet_bytes;
	size_t ctx_end;            /* bytes of packet header + context */
	struct stream *streams[MAX_CPUS];
	struct klass *classes;
	size_t nclasses, capclasses;
	int32_t class_of[GCSPEC_NEVENTS][2]; /* [spec][packed] -> class id, or -1 */
	struct stream *max_stream; /* the stream of the latest event that raised the time */
	uint64_t max_ts;
	uint8_t *fields;           /* typed field bytes of one event */
};

static void put16(uint8_t *p, uint16_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
}

static void put32(uint8_t *p, uint32_t x)
{
	put16(p, (uint16_t)x);
	put16(p + 2, (uint16_t)(x >> 16));
}

static void put64(uint8_t *p, uint64_t x)
{
	put32(p, (uint32_t)x);
	put32(p + 4, (uint32_t)(x >> 32));
}

static uint64_t ticks_to_ns(uint64_t ticks, uint64_t freq)
{
	if (freq == 1000000000u || !freq)
		return ticks;
	return ticks / freq * 1000000000u + ticks % freq * 1000000000u / freq;
}

static struct gen_writer *ctf_create(void)
{
	struct ctf_writer *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	c->fields = malloc(2 * GEN_PAYLOAD_MAX + 64);
	if (!c->fields) {
		free(c);
		return NULL;
	}
	memset(c->class_of, 0xff, sizeof c->class_of);
	return &c->base;
}

static int ctf_begin_dir(struct gen_writer *w, const char *dir, const struct gen_stream_info *info)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	uint64_t st = info->seed ^ 0x6c74746e67637466ull, start_ns;

	if (info->pointer_size != 4 && info->pointer_size != 8)
		return gen_writer_fail(w, "ctf: pointer size %u", info->pointer_size);
	c->info = *info;
	if (!(c->dir = strdup(dir)))
		return gen_writer_fail(w, "out of memory");
	for (int i = 0; i < 16; i += 8)
		put64(c->uuid + i, gen_splitmix64(&st));
	c->uuid[6] = (uint8_t)((c->uuid[6] & 0x0F) | 0x40); /* a version-4 uuid */
	c->uuid[8] = (uint8_t)((c->uuid[8] & 0x3F) | 0x80);
	start_ns = ticks_to_ns(info->start_ticks, info->clock_frequency);
	c->clock_offset_ns = info->start_unix_ns > start_ns ? info->start_unix_ns - start_ns : 0;
	/* Sub-buffers of 128 KiB, smaller on machines with many processors so
	 * the open packets stay a few MiB in all. */
	c->packet_bytes = info->nprocessors > 64 ? 32 * 1024 : 128 * 1024;
	/* header 4+16+4+8, context 5*8 + unsigned long + 4 */
	c->ctx_end = 32 + 40 + info->pointer_size + 4;
	return 0;
}

/* The event class for this event and layout, declared on first use. */
static int class_id(struct ctf_writer *c, const struct gen_event *ev, int spec, int packed)
{
	size_t i;

	if (spec >= 0 && c->class_of[spec][packed] >= 0)
		return c->class_of[spec][packed];
	if (spec < 0)
		for (i = 0; i < c->nclasses; i++)
			if (c->classes[i].spec < 0 && c->classes[i].provider == ev->provider &&
			    c->classes[i].id == ev->id && c->classes[i].version == ev->version)
				return (int)i;
	if (c->nclasses == c->capclasses) {
		size_t cap = c->capclasses ? 2 * c->capclasses : 64;
		struct klass *k = realloc(c->classes, cap * sizeof *k);

		if (!k)
			return -1;
		c->classes = k;
		c->capclasses = cap;
	}
	c->classes[c->nclasses] = (struct klass){ ev->provider, ev->id, ev->version, (uint8_t)packed, spec };
	if (spec >= 0)
		c->class_of[spec][packed] = (int32_t)c->nclasses;
	return (int)c->nclasses++;
}

static void stream_path(const struct ctf_writer *c, uint32_t cpu, char *p, size_t cap)
{
	snprintf(p, cap, "%s/channel0_%u", c->dir, cpu);
}

/* Close the open packet: fill in its context, append packet_size bytes. */
static int flush_packet(struct ctf_writer *c, struct stream *s, int last)
{
	char path[4096];
	size_t size = last ? (s->used + PAGE - 1) / PAGE * PAGE : s->cap;
	uint8_t *b = s->buf;
	int fd, ok;

	if (!s->nevents)
		return 0;
	memset(b + s->used, 0, size - s->used);
	put64(b + 32, s->ts_min);               /* timestamp_begin */
	put64(b + 40, s->ts_max);               /* timestamp_end */
	put64(b + 48, (uint64_t)s->used * 8);   /* content_size, bits */
	put64(b + 56, (uint64_t)size * 8);      /* packet_size, bits */
	stream_path(c, s->cpu, path, sizeof path);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (fd < 0)
		return gen_writer_fail(&c->base, "cannot write %s: %s", path, strerror(errno));
	ok = write(fd, b, size) == (ssize_t)size;
	if (close(fd) != 0 || !ok)
		return gen_writer_fail(&c->base, "cannot write %s", path);
	s->seq++;
	s->nevents = 0;
	s->used = 0;
	return 0;
}

/* Start a packet able to hold at least `need` bytes of events. */
static int open_packet(struct ctf_writer *c, struct stream *s, size_t need)
{
	size_t size = c->packet_bytes;
	uint8_t *b;

	if (c->ctx_end + need > size)
		size = (c->ctx_end + need + PAGE - 1) / PAGE * PAGE;
	if (size != s->cap) {
		if (!(b = realloc(s->buf, size)))
			return gen_writer_fail(&c->base, "out of memory");
		s->buf = b;
		s->cap = size;
	}
	b = s->buf;
	memset(b, 0, c->ctx_end);
	put32(b, PACKET_MAGIC);
	memcpy(b + 4, c->uuid, 16);
	put32(b + 20, 0);                       /* stream_id */
	put64(b + 24, s->cpu);                  /* stream_instance_id */
	put64(b + 64, s->seq);                  /* packet_seq_num */
	/* events_discarded stays 0 */
	put32(b + 72 + c->info.pointer_size, s->cpu);
	s->used = c->ctx_end;
	return 0;
}

static struct stream *get_stream(struct ctf_writer *c, uint32_t cpu)
{
	struct stream *s;

	if (cpu >= MAX_CPUS)
		return NULL;
	if ((s = c->streams[cpu]))
		return s;
	if (!(s = calloc(1, sizeof *s)))
		return NULL;
	s->cpu = cpu;
	c->streams[cpu] = s;
	return s;
}

static int ctf_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	const struct gcspec_event *spec = gcspec_lookup(ev->provider, ev->id, ev->version);
	int packed = !spec || ctfw_packed(spec);
	long nfields = 0;
	uint64_t ts = ticks_to_ns(ev->timestamp, c->info.clock_frequency);
	struct stream *s;
	size_t body, need;
	int cid, extended;
	uint8_t *p;

	if (ev->thread_id > 0x7FFFFFFF)
		return gen_writer_fail(w, "ctf: thread id %llu does not fit LTTng's vtid (int32)",
				       (unsigned long long)ev->thread_id);
	if (!packed) {
		nfields = ctfw_typed_fields(spec, ev->payload, ev->payload_len, c->info.pointer_size,
					    c->fields, 2 * GEN_PAYLOAD_MAX + 64);
		packed = nfields < 0;
	}
	cid = class_id(c, ev, spec ? (int)(spec - gcspec_events) : -1, packed);
	if (cid < 0)
		return gen_writer_fail(w, "out of memory");
	if (!c->max_stream || ts > c->max_ts) {
		if (!(s = get_stream(c, ev->processor)))
			return gen_writer_fail(w, "ctf: processor %u: at most %u processors",
					       ev->processor, MAX_CPUS);
		c->max_stream = s;
		c->max_ts = ts;
	} else {
		s = c->max_stream;
	}
	body = 8 + (packed ? 8 + (size_t)ev->payload_len : (size_t)nfields);
	/* A compact header needs the time to move forward by less than 2^32 ns
	 * from the stream's previous event; the first of a packet is extended,
	 * as LTTng's are. */
	extended = !s->nevents || ts < s->last_ts || ts - s->last_ts >= (1ull << 32) ||
		   (unsigned)cid >= EXTENDED_ID;
	need = (extended ? 14 : 6) + body;
	if (s->nevents && s->used + need > s->cap) {
		if (flush_packet(c, s, 0) < 0)
			return -1;
		extended = 1;
		need = 14 + body;
	}
	if (!s->nevents && open_packet(c, s, need) < 0)
		return -1;
	p = s->buf + s->used;
	if (extended) {
		put16(p, EXTENDED_ID);
		put32(p + 2, (uint32_t)cid);
		put64(p + 6, ts);
		p += 14;
	} else {
		put16(p, (uint16_t)cid);
		put32(p + 2, (uint32_t)ts);
		p += 6;
	}
	put32(p, c->info.process_id);           /* _vpid */
	put32(p + 4, (uint32_t)ev->thread_id);  /* _vtid */
	p += 8;
	if (packed) {
		put32(p, ev->payload_len);      /* _length */
		put32(p + 4, ev->payload_len);  /* ____data___length */
		memcpy(p + 8, ev->payload, ev->payload_len);
	} else {
		memcpy(p, c->fields, (size_t)nfields);
	}
	s->used += need;
	if (!s->nevents || ts < s->ts_min)
		s->ts_min = ts;
	if (!s->nevents || ts > s->ts_max)
		s->ts_max = ts;
	s->last_ts = ts;
	s->nevents++;
	return 0;
}

static int ctf_end(struct gen_writer *w)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	struct ctfw_text t;
	char path[4096], name[160];
	int rc;

	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (c->streams[i] && flush_packet(c, c->streams[i], 1) < 0)
			return -1;
	memset(&t, 0, sizeof t);
	ctfw_tsdl_header(&t, &c->info, c->uuid, c->clock_offset_ns);
	for (size_t i = 0; i < c->nclasses; i++) {
		const struct klass *k = &c->classes[i];

		ctfw_class_name(k->provider, k->id, k->version, name, sizeof name);
		ctfw_tsdl_event(&t, name, (unsigned)i, k->spec >= 0 ? &gcspec_events[k->spec] : NULL,
				k->packed, c->info.pointer_size);
	}
	if (t.oom) {
		ctfw_text_free(&t);
		return gen_writer_fail(w, "out of memory");
	}
	snprintf(path, sizeof path, "%s/metadata", c->dir);
	rc = ctfw_write_metadata(path, t.s, t.len, c->uuid);
	ctfw_text_free(&t);
	return rc < 0 ? gen_writer_fail(w, "cannot write %s", path) : 0;
}

static void ctf_destroy(struct gen_writer *w)
{
	struct ctf_writer *c = (struct ctf_writer *)w;

	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (c->streams[i]) {
			free(c->streams[i]->buf);
			free(c->streams[i]);
		}
	free(c->classes);
	free(c->fields);
	free(c->dir);
	free(c);
}

const struct gen_writer_ops gen_write_ctf_ops = {
	.format = "ctf",
	.description = "LTTng CTF 1.8 trace directory, as LTTng-UST 2.13 records CoreCLR",
	.create = ctf_create,
	.begin = NULL,
	.event = ctf_event,
	.end = ctf_end,
	.destroy = ctf_destroy,
	.begin_dir = ctf_begin_dir,
};
