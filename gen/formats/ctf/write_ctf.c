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

#include "gen/formats/ctf/ctf_w.h"
#include "gen/model/emit.h"
#include "gen/model/rng.h"

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
	int statedump;             /* 1 + an LTTNG_STATEDUMP_* (provider unused), or 0 */
};

/* LTTng-UST's statedump as an application registers with a session:
 * what a machine-wide trace shows of a process that starts (LTTng-UST
 * records no exit). */
enum { STATEDUMP_START, STATEDUMP_PROCNAME, STATEDUMP_END, NSTATEDUMP };
static const char *const statedump_name[NSTATEDUMP] = {
	"lttng_ust_statedump:start", "lttng_ust_statedump:procname", "lttng_ust_statedump:end" };

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
	/* By spec event, learnt at its first event: 1 packed, 0 typed (-1: not
	 * yet), and for a typed template of fixed-size fields alone their total
	 * (its typed bytes are then the payload's), else -1. */
	int8_t packed_of[GCSPEC_NEVENTS];
	int32_t fixed_of[GCSPEC_NEVENTS];
	uint64_t ns_per_tick;      /* when nanoseconds are a whole number of ticks, else 0 */
	int32_t vpid;              /* -O vpid=N: every event's _vpid; 0: the stream's process */
	int32_t statedump_class[NSTATEDUMP]; /* class ids, -1 until used */
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

/* ticks_to_ns once an event: a multiplication when the clock allows (the
 * same value: ticks * (10^9 / freq) is exact then), no divisions. */
static uint64_t event_ns(const struct ctf_writer *c, uint64_t ticks)
{
	if (c->ns_per_tick && ticks <= UINT64_MAX / c->ns_per_tick)
		return ticks * c->ns_per_tick;
	return ticks_to_ns(ticks, c->info.clock_frequency);
}

/* The spec event of ev: its spec_event when the header is that event's,
 * else looked up (a mutator may have relabelled it). */
static const struct gcspec_event *spec_of(const struct gen_event *ev)
{
	const struct gcspec_event *sp;

	if (ev->spec_event < GCSPEC_NEVENTS) {
		sp = &gcspec_events[ev->spec_event];
		if (sp->provider == ev->provider && sp->id == ev->id && sp->version == ev->version)
			return sp;
	}
	return gcspec_lookup(ev->provider, ev->id, ev->version);
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
	memset(c->packed_of, 0xff, sizeof c->packed_of);
	memset(c->statedump_class, 0xff, sizeof c->statedump_class);
	return &c->base;
}

static int ctf_begin_dir(struct gen_writer *w, const char *dir, const struct gen_stream_info *info)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	uint64_t st = info->seed ^ 0x6c74746e67637466ull, start_ns;

	if (info->pointer_size != 4 && info->pointer_size != 8)
		return gen_writer_fail(w, "ctf: pointer size %u", info->pointer_size);
	c->info = *info;
	if (c->vpid)
		c->info.process_id = (uint32_t)c->vpid;
	if (!(c->dir = strdup(dir)))
		return gen_writer_fail(w, "out of memory");
	for (int i = 0; i < 16; i += 8)
		put64(c->uuid + i, gen_splitmix64(&st));
	c->uuid[6] = (uint8_t)((c->uuid[6] & 0x0F) | 0x40); /* a version-4 uuid */
	c->uuid[8] = (uint8_t)((c->uuid[8] & 0x3F) | 0x80);
	start_ns = ticks_to_ns(info->start_ticks, info->clock_frequency);
	c->ns_per_tick = info->clock_frequency && info->clock_frequency <= 1000000000u &&
			 1000000000u % info->clock_frequency == 0 ?
			 1000000000u / info->clock_frequency : 0;
	c->clock_offset_ns = info->start_unix_ns > start_ns ? info->start_unix_ns - start_ns : 0;
	/* Sub-buffers of 128 KiB, smaller on machines with many processors so
	 * the open packets stay a few MiB in all. */
	c->packet_bytes = info->nprocessors > 64 ? 32 * 1024 : 128 * 1024;
	/* header 4+16+4+8, context 5*8 + unsigned long + 4 */
	c->ctx_end = 32 + 40 + info->pointer_size + 4;
	return 0;
}

/* Room for one more class; -1 on no memory. */
static int room_for_class(struct ctf_writer *c)
{
	if (c->nclasses == c->capclasses) {
		size_t cap = c->capclasses ? 2 * c->capclasses : 64;
		struct klass *k = realloc(c->classes, cap * sizeof *k);

		if (!k)
			return -1;
		c->classes = k;
		c->capclasses = cap;
	}
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
	if (room_for_class(c) < 0)
		return -1;
	c->classes[c->nclasses] = (struct klass){ ev->provider, ev->id, ev->version, (uint8_t)packed,
						  spec, 0 };
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

static int put_event(struct ctf_writer *c, const struct gen_event *ev, int cid,
		     const uint8_t *typed, size_t nfields);

/* A statedump class's id, declared on first use; -1 on no memory. */
static int statedump_class(struct ctf_writer *c, int which)
{
	if (c->statedump_class[which] >= 0)
		return c->statedump_class[which];
	if (room_for_class(c) < 0)
		return -1;
	c->classes[c->nclasses] = (struct klass){ 0, 0, 0, 0, -1, 1 + which };
	c->statedump_class[which] = (int32_t)c->nclasses;
	return (int)c->nclasses++;
}

/* A process registering with the session: statedump start, its procname
 * (16 chars, NUL-padded, as the kernel's comm), end; one event each, all
 * at the record's time (a later one could come after the next event of
 * another process, and a stream's times must not go back). */
static int statedump(struct ctf_writer *c, const struct gen_event *ev)
{
	static const uint8_t none[1];
	uint8_t name[16] = "dotnet";

	for (int k = 0; k < NSTATEDUMP; k++) {
		int cid = statedump_class(c, k);

		if (cid < 0)
			return gen_writer_fail(&c->base, "out of memory");
		if (put_event(c, ev, cid, k == STATEDUMP_PROCNAME ? name : none,
			      k == STATEDUMP_PROCNAME ? sizeof name : 0) < 0)
			return -1;
	}
	return 0;
}

static int ctf_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	const struct gcspec_event *spec = spec_of(ev);
	int si = spec ? (int)(spec - gcspec_events) : -1, packed = 1;
	long nfields = 0;
	const uint8_t *typed = c->fields;
	int cid;

	if (ev->kind != GEN_EV_RUNTIME)
		return ev->kind == GEN_EV_PROCESS_START ? statedump(c, ev) : 0;
	if (ev->thread_id > 0x7FFFFFFF)
		return gen_writer_fail(w, "ctf: thread id %llu does not fit LTTng's vtid (int32)",
				       (unsigned long long)ev->thread_id);
	if (si >= 0 && c->packed_of[si] < 0) {
		long fixed = ctfw_fixed_size(spec, c->info.pointer_size);

		c->packed_of[si] = (int8_t)ctfw_packed(spec);
		c->fixed_of[si] = fixed >= 0 && fixed <= INT32_MAX ? (int32_t)fixed : -1;
	}
	if (si >= 0 && !c->packed_of[si]) {
		if (c->fixed_of[si] >= 0) {
			/* Fixed-size fields: the typed bytes are the payload's,
			 * when it is exactly their size. */
			packed = ev->payload_len != (uint32_t)c->fixed_of[si];
			nfields = ev->payload_len;
			typed = ev->payload;
		} else {
			nfields = ctfw_typed_fields(spec, ev->payload, ev->payload_len,
						    c->info.pointer_size, c->fields, 2 * GEN_PAYLOAD_MAX + 64);
			packed = nfields < 0;
		}
	}
	cid = class_id(c, ev, si, packed);
	if (cid < 0)
		return gen_writer_fail(w, "out of memory");
	if (packed)
		return put_event(c, ev, cid, NULL, 0);
	return put_event(c, ev, cid, typed, (size_t)nfields);
}

/* One event of class cid: its header, context and fields (typed NULL:
 * packed, the payload with its two lengths; else typed[0..nfields)). */
static int put_event(struct ctf_writer *c, const struct gen_event *ev, int cid,
		     const uint8_t *typed, size_t nfields)
{
	struct gen_writer *w = &c->base;
	uint64_t ts = event_ns(c, ev->timestamp);
	struct stream *s;
	size_t body, need;
	int extended;
	uint8_t *p;

	if (!c->max_stream || ts > c->max_ts) {
		if (!(s = get_stream(c, ev->processor)))
			return gen_writer_fail(w, "ctf: processor %u: at most %u processors",
					       ev->processor, MAX_CPUS);
		c->max_stream = s;
		c->max_ts = ts;
	} else {
		s = c->max_stream;
	}
	body = 8 + (!typed ? 8 + (size_t)ev->payload_len : nfields);
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
	put32(p, ev->process_id ? ev->process_id : c->info.process_id); /* _vpid */
	put32(p + 4, (uint32_t)ev->thread_id);  /* _vtid */
	p += 8;
	if (!typed) {
		put32(p, ev->payload_len);      /* _length */
		put32(p + 4, ev->payload_len);  /* ____data___length */
		memcpy(p + 8, ev->payload, ev->payload_len);
	} else {
		memcpy(p, typed, nfields);
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

		if (k->statedump) {
			ctfw_tsdl_statedump(&t, statedump_name[k->statedump - 1], (unsigned)i,
					    k->statedump - 1 == STATEDUMP_PROCNAME);
			continue;
		}
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

/* gcgen -O vpid=N: the process the events say they come from, so that
 * traces of different processes can be merged into one, as an LTTng
 * session of several processes records them. */
static int ctf_option(struct gen_writer *w, const char *key, const char *value)
{
	struct ctf_writer *c = (struct ctf_writer *)w;
	char *end;
	unsigned long v = strtoul(value, &end, 10);

	if (strcmp(key, "vpid") || !*value || *end || *value == '-' || v == 0 || v > INT32_MAX)
		return gen_writer_fail(w, "ctf: option %s=%s: want vpid=N (1 to 2147483647)",
		                       key, value);
	c->vpid = (int32_t)v;
	return 0;
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
	.option = ctf_option,
};
