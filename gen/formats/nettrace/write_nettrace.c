/*
 * write_nettrace.c - the EventPipe .nettrace writer: V4/V5 (FastSerialization
 * objects) and V6 (typed blocks). See nettrace_w.h for the interface.
 *
 * Shape: events are encoded into a pending EventBlock; metadata records,
 * stacks and (V6) thread rows an event needs are encoded into pending blocks
 * of their own. When the EventBlock is full, the pending blocks are written
 * first, so that every reference points backwards in the file, as both specs
 * require. Sequence points end a stack region: stacks are re-emitted under
 * new ids after one, as CoreCLR does.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spec/gcspec.h"
#include "gen/formats/nettrace/nettrace_w.h"
#include "gen/formats/nettrace/nettrace_wbuf.h"
#include "gen/formats/nettrace/nettrace_wmeta.h"
#include "gen/formats/nettrace/nettrace_wsp.h"
#include "util/u64map.h"
#include "util/le.h"

#define DEFAULT_BLOCK_BYTES 100000u
/* V6 block sizes are 24 bits; keep every block well below that. */
#define MAX_BLOCK_BYTES (8u << 20)

enum blk { B_TRACE, B_EVENT, B_META, B_STACK, B_SP, B_THREAD };

struct ntw_thread {
	uint64_t tid;
	uint32_t seq;           /* last sequence number given */
	uint64_t index;         /* V6 thread index (1-based) */
	struct ntw_sp_thread sp;
	/* With sampler_every only: the latest time of an event naming this
	 * thread, its stream stack id, and the last time this thread captured. */
	uint64_t named_ts, cap_ts;
	uint32_t named_stack;
};

struct ntw_meta {
	struct ntw_meta_key key;
	uint32_t id;
};

/* The header state compressed headers are delta-coded against. */
struct ntw_prev {
	uint32_t meta_id, seq, proc, stack, payload_len;
	uint64_t ctid, tid, ts;
};

struct nt_writer {
	struct gen_writer base;        /* first: writer.h's common part */
	struct gen_nettrace_opts o;
	struct gen_stream_info info;
	FILE *out;
	uint64_t off;

	struct ntw_buf ev, meta, stk, thr, tmp;
	uint32_t nev, nmeta_pending, nstk_pending;
	uint64_t min_ts, max_ts, last_ts;
	struct ntw_prev prev;
	uint32_t blocks_since_sp;
	struct ntw_sp sp;              /* sp_every 0: where the runtime puts them */

	struct ntw_meta *metas;
	size_t nmetas, capmetas;
	struct u64map *meta_map;       /* key hash -> metas index */
	uint32_t next_meta_id;

	struct ntw_thread *threads;
	size_t nthreads, capthreads;
	struct u64map *thread_map;     /* tid -> threads index */
	size_t last_thread;            /* threads index of the previous event's thread */

	/* Metadata id of each spec event as the spec states it (0: none
	 * yet): almost every event, without hashing its key. */
	uint32_t meta_of_spec[GCSPEC_NEVENTS];
	uint64_t spec_word[GCSPEC_NEVENTS];  /* key_word() of each spec event */

	struct u64map *stack_map;      /* stream stack id -> file stack id, this SP region */
	uint32_t next_stack_id, first_pending_stack;

	uint64_t sp_ts;                /* the last sequence point's time */
	uint64_t first_ts;             /* the first event's (sampler_every only) */
	uint64_t nruntime, nsamples;   /* events given, ThreadSample events written */
	uint32_t sampler_meta;         /* its metadata id (0: none yet) */
};

#define W(w) ((struct nt_writer *)(void *)(w))

/* --- output ----------------------------------------------------------------- */

static int fail(struct nt_writer *w, const char *msg)
{
	snprintf(w->base.error, sizeof w->base.error, "nettrace: %s", msg);
	return -1;
}

static int out_bytes(struct nt_writer *w, const void *p, size_t n)
{
	if (n && fwrite(p, 1, n, w->out) != n)
		return fail(w, "write failed");
	w->off += n;
	return 0;
}

static int out_u32(struct nt_writer *w, uint32_t v)
{
	uint8_t t[4];

	put_le32(t, v);
	return out_bytes(w, t, 4);
}

static const char *const v5_type_name[] = {
	[B_TRACE] = "Trace", [B_EVENT] = "EventBlock", [B_META] = "MetadataBlock",
	[B_STACK] = "StackBlock", [B_SP] = "SPBlock", [B_THREAD] = NULL,
};
static const uint8_t v6_kind[] = {
	[B_TRACE] = 1, [B_EVENT] = 2, [B_META] = 3, [B_STACK] = 5, [B_SP] = 4, [B_THREAD] = 6,
};

/*
 * One object (V4/V5) or block (V6) around content. V4/V5 blocks other than
 * Trace begin with BlockSize and zero padding up to a 4-byte file offset;
 * the content is written so that offsets inside it are file-aligned.
 */
static int emit(struct nt_writer *w, enum blk kind, const struct ntw_buf *c)
{
	static const uint8_t zeros[4];

	if (w->o.version >= 6) {
		if (c->len >= (1u << 24))
			return fail(w, "block larger than 16 MiB");
		if (out_u32(w, (uint32_t)c->len | (uint32_t)v6_kind[kind] << 24))
			return -1;
		return out_bytes(w, c->data, c->len);
	}
	const char *name = v5_type_name[kind];
	uint8_t head[3] = { 5, 5, 1 };
	uint32_t ver = kind == B_TRACE ? 4 : 2;

	if (out_bytes(w, head, 3) || out_u32(w, ver) || out_u32(w, ver) ||
	    out_u32(w, (uint32_t)strlen(name)) || out_bytes(w, name, strlen(name)) ||
	    out_bytes(w, "\6", 1))
		return -1;
	if (kind != B_TRACE) {
		if (out_u32(w, (uint32_t)c->len) ||
		    out_bytes(w, zeros, (4 - (w->off & 3)) & 3))
			return -1;
	}
	if (out_bytes(w, c->data, c->len) || out_bytes(w, "\6", 1))
		return -1;
	return 0;
}

/* --- blocks -------------------------------------------------------------------- */

/* EventBlock/MetadataBlock header: HeaderSize 20, Flags, min and max time. */
static int block_header(struct ntw_buf *b, int compressed)
{
	return ntw_u16(b, 20) || ntw_u16(b, compressed ? 1 : 0) || ntw_u64(b, 0) ||
	       ntw_u64(b, 0);
}

static int start_event_block(struct nt_writer *w)
{
	w->ev.len = 0;
	memset(&w->prev, 0, sizeof w->prev);
	w->min_ts = UINT64_MAX;
	w->max_ts = 0;
	return block_header(&w->ev, !w->o.uncompressed);
}

static int start_meta_block(struct nt_writer *w)
{
	w->meta.len = 0;
	if (w->o.version >= 6)
		return ntw_u16(&w->meta, 0); /* HeaderSize: no extra header */
	return block_header(&w->meta, !w->o.uncompressed);
}

static int flush_pending(struct nt_writer *w)
{
	if (w->thr.len) {
		if (emit(w, B_THREAD, &w->thr))
			return -1;
		w->thr.len = 0;
	}
	if (w->nmeta_pending) {
		if (emit(w, B_META, &w->meta) || start_meta_block(w))
			return -1;
		w->nmeta_pending = 0;
	}
	if (w->nstk_pending) {
		ntw_put_u32_at(&w->stk, 0, w->first_pending_stack);
		ntw_put_u32_at(&w->stk, 4, w->nstk_pending);
		if (emit(w, B_STACK, &w->stk))
			return -1;
		w->nstk_pending = 0;
		w->stk.len = 0;
	}
	return 0;
}

static int flush_events(struct nt_writer *w)
{
	if (flush_pending(w))
		return -1;
	if (!w->nev)
		return 0;
	ntw_put_u32_at(&w->ev, 4, (uint32_t)w->min_ts);
	ntw_put_u32_at(&w->ev, 8, (uint32_t)(w->min_ts >> 32));
	ntw_put_u32_at(&w->ev, 12, (uint32_t)w->max_ts);
	ntw_put_u32_at(&w->ev, 16, (uint32_t)(w->max_ts >> 32));
	if (emit(w, B_EVENT, &w->ev))
		return -1;
	w->nev = 0;
	w->blocks_since_sp++;
	return start_event_block(w);
}

/* A sequence point: every thread's last sequence number; ends the stack region. */
static int sequence_point(struct nt_writer *w)
{
	struct ntw_buf *b = &w->tmp;

	if (flush_events(w))
		return -1;
	b->len = 0;
	if (ntw_u64(b, w->last_ts))
		return fail(w, "out of memory");
	if (w->o.version >= 6 && ntw_u32(b, 0))
		return fail(w, "out of memory");
	if (ntw_u32(b, (uint32_t)w->nthreads))
		return fail(w, "out of memory");
	for (size_t i = 0; i < w->nthreads; i++) {
		const struct ntw_thread *t = &w->threads[i];
		int e = w->o.version >= 6 ?
			ntw_varuint(b, t->index) || ntw_varuint(b, t->seq) :
			ntw_u64(b, t->tid) || ntw_u32(b, t->seq);
		if (e)
			return fail(w, "out of memory");
	}
	if (emit(w, B_SP, b))
		return -1;
	u64map_clear(w->stack_map);
	w->blocks_since_sp = 0;
	w->sp_ts = w->last_ts;
	return 0;
}

/* --- references: threads, metadata, stacks -------------------------------------- */

static struct ntw_thread *thread_of(struct nt_writer *w, uint64_t tid)
{
	const uint64_t *i;
	struct ntw_thread *t;

	/* Runs of events on one thread are the common case. */
	if (w->nthreads && w->threads[w->last_thread].tid == tid)
		return &w->threads[w->last_thread];
	if ((i = u64map_get(w->thread_map, tid))) {
		w->last_thread = (size_t)*i;
		return &w->threads[*i];
	}
	if (w->nthreads == w->capthreads) {
		size_t cap = w->capthreads ? w->capthreads * 2 : 16;
		struct ntw_thread *p = realloc(w->threads, cap * sizeof *p);

		if (!p)
			return NULL;
		w->threads = p;
		w->capthreads = cap;
	}
	t = &w->threads[w->nthreads];
	t->tid = tid;
	t->seq = 0;
	t->index = w->nthreads + 1;
	memset(&t->sp, 0, sizeof t->sp);
	t->named_ts = t->cap_ts = 0;
	t->named_stack = 0;
	if (u64map_put(w->thread_map, tid, (uint32_t)w->nthreads))
		return NULL;
	w->last_thread = w->nthreads++;
	if (w->o.version >= 6) {
		/* Thread row: RowSize, Index, OSThreadId (3), OSProcessId (2). */
		size_t at = w->thr.len;

		if (ntw_u16(&w->thr, 0) || ntw_varuint(&w->thr, t->index) ||
		    ntw_u8(&w->thr, 3) || ntw_varuint(&w->thr, tid) ||
		    ntw_u8(&w->thr, 2) || ntw_varuint(&w->thr, w->info.process_id))
			return NULL;
		ntw_put_u16_at(&w->thr, at, (uint16_t)(w->thr.len - at - 2));
	}
	return t;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t meta_hash(const struct ntw_meta_key *k)
{
	uint64_t h = (uint64_t)k->spec_event | (uint64_t)k->provider << 16 |
	             (uint64_t)k->id << 24 | (uint64_t)k->version << 40 |
	             (uint64_t)k->level << 48 | (uint64_t)k->opcode << 56;

	return h ^ mix64(k->keywords);
}

static int meta_equal(const struct ntw_meta_key *a, const struct ntw_meta_key *b)
{
	return a->spec_event == b->spec_event && a->provider == b->provider &&
	       a->id == b->id && a->version == b->version && a->level == b->level &&
	       a->opcode == b->opcode && a->keywords == b->keywords;
}

/* Encode one metadata record into the pending MetadataBlock. */
/* k NULL: the record of plain, a provider outside the spec. */
static int meta_record(struct nt_writer *w, uint32_t id, const struct ntw_meta_key *k,
                       const struct ntw_meta_plain *plain)
{
	struct ntw_buf *m = &w->meta;

	if (w->o.version >= 6)
		return k ? ntw_meta_v6(m, id, k, w->o.full_metadata, w->info.pointer_size)
			 : ntw_meta_v6_plain(m, id, plain);
	w->tmp.len = 0;
	if (k ? ntw_meta_v5(&w->tmp, id, k, w->o.version, w->o.full_metadata,
	                    w->info.pointer_size)
	      : ntw_meta_v5_plain(&w->tmp, id, plain))
		return -1;
	if (w->o.uncompressed) {
		/* Metadata blob: header fields all zero but the sizes. */
		if (ntw_u32(m, 76 + (uint32_t)w->tmp.len) || ntw_zeros(m, 72) ||
		    ntw_u32(m, (uint32_t)w->tmp.len) ||
		    ntw_bytes(m, w->tmp.data, w->tmp.len) ||
		    ntw_zeros(m, (4 - (m->len & 3)) & 3))
			return -1;
		return 0;
	}
	/* Compressed, delta state restarting with every record would be wrong:
	 * it restarts per block. Only the payload size changes here. */
	if (ntw_u8(m, 0x80) || ntw_varuint(m, 0) || ntw_varuint(m, w->tmp.len) ||
	    ntw_bytes(m, w->tmp.data, w->tmp.len))
		return -1;
	return 0;
}

/* A key's provider, id, version, level and opcode in one word. */
static inline uint64_t key_word(unsigned provider, unsigned id, unsigned version, unsigned level,
				unsigned opcode)
{
	return (uint64_t)provider | (uint64_t)id << 8 | (uint64_t)version << 24 |
	       (uint64_t)level << 32 | (uint64_t)opcode << 40;
}

/* Whether k is its spec event's key unchanged (no mutator touched it). */
static int meta_is_spec(const struct ntw_meta_key *k)
{
	const struct gcspec_event *ev;

	if (k->spec_event >= GCSPEC_NEVENTS)
		return 0;
	ev = &gcspec_events[k->spec_event];
	return k->provider == ev->provider && k->id == ev->id && k->version == ev->version &&
	       k->level == ev->level && k->opcode == ev->opcode && k->keywords == ev->keywords;
}

static int meta_id_of(struct nt_writer *w, const struct ntw_meta_key *k, uint32_t *id)
{
	int spec = meta_is_spec(k);
	uint64_t h;
	const uint64_t *i;

	if (spec && w->meta_of_spec[k->spec_event]) {
		*id = w->meta_of_spec[k->spec_event];
		return 0;
	}
	h = meta_hash(k);
	if ((i = u64map_get(w->meta_map, h)) && meta_equal(&w->metas[*i].key, k)) {
		*id = w->metas[*i].id;
		if (spec)
			w->meta_of_spec[k->spec_event] = *id;
		return 0;
	}
	for (size_t j = 0; j < w->nmetas; j++) /* a hash collision: rare */
		if (meta_equal(&w->metas[j].key, k)) {
			*id = w->metas[j].id;
			if (spec)
				w->meta_of_spec[k->spec_event] = *id;
			return 0;
		}
	if (w->nmetas == w->capmetas) {
		size_t cap = w->capmetas ? w->capmetas * 2 : 64;
		struct ntw_meta *p = realloc(w->metas, cap * sizeof *p);

		if (!p)
			return -1;
		w->metas = p;
		w->capmetas = cap;
	}
	w->metas[w->nmetas].key = *k;
	w->metas[w->nmetas].id = w->next_meta_id;
	if (u64map_put(w->meta_map, h, (uint32_t)w->nmetas) ||
	    meta_record(w, w->next_meta_id, k, NULL))
		return -1;
	w->nmetas++;
	w->nmeta_pending++;
	*id = w->next_meta_id++;
	if (spec)
		w->meta_of_spec[k->spec_event] = *id;
	return 0;
}

unsigned gen_nettrace_stack_frames(uint32_t stack_id, uint64_t *ips, unsigned max)
{
	unsigned n = 2 + stack_id % 7;

	if (n > max)
		n = max;
	for (unsigned i = 0; i < n; i++)
		ips[i] = 0x7ff812340000ULL + (uint64_t)stack_id * 0x10000 + i * 0x40;
	return n;
}

/* Size of a stream stack's frames, as a runtime's event buffer holds them. */
static uint32_t stack_bytes(const struct nt_writer *w, uint32_t stream_id)
{
	uint64_t ips[16];

	return gen_nettrace_stack_frames(stream_id, ips, 16) * w->info.pointer_size;
}

static int stack_id_of(struct nt_writer *w, uint32_t stream_id, uint32_t *id)
{
	uint64_t ips[16];
	const uint64_t *known;
	unsigned n, ps = w->info.pointer_size;

	if (!stream_id) {
		*id = 0;
		return 0;
	}
	if ((known = u64map_get(w->stack_map, stream_id))) {
		*id = (uint32_t)*known;
		return 0;
	}
	if (!w->nstk_pending) {
		w->stk.len = 0;
		if (ntw_zeros(&w->stk, 8)) /* FirstId, Count: filled at flush */
			return -1;
		w->first_pending_stack = w->next_stack_id;
	}
	n = gen_nettrace_stack_frames(stream_id, ips, 16);
	if (ntw_u32(&w->stk, n * ps))
		return -1;
	for (unsigned i = 0; i < n; i++)
		if (ps == 4 ? ntw_u32(&w->stk, (uint32_t)ips[i]) : ntw_u64(&w->stk, ips[i]))
			return -1;
	*id = w->next_stack_id++;
	w->nstk_pending++;
	return u64map_put(w->stack_map, stream_id, *id);
}

/* --- events ---------------------------------------------------------------------- */

/* Append v as a varuint at p (room checked by the caller, one byte more
 * than the encoding needs); returns the end. */
static inline uint8_t *put_varuint(uint8_t *p, uint64_t v)
{
	/* One or two bytes without a branch between them: timestamp deltas
	 * are either, at random, and a mispredicted branch per event costs
	 * more than the second store. */
	if (v < (1u << 14)) {
		unsigned two = v >= 0x80;

		p[0] = (uint8_t)(v | two << 7);
		p[1] = (uint8_t)(v >> 7);
		return p + 1 + two;
	}
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* The largest compressed header: flags and seven varuints. */
#define MAX_COMPRESSED_HEADER (1 + 7 * 10)

static int encode_compressed(struct nt_writer *w, const struct gen_event *e,
                             uint32_t meta, uint32_t seq, uint64_t cref, uint64_t tref,
                             uint32_t stack, int sorted)
{
	struct ntw_buf *b = &w->ev;
	struct ntw_prev *p = &w->prev;
	/* Everything read before the first byte is stored: stores through a
	 * byte pointer may alias any of it, so the compiler would reload it. */
	const uint32_t len = e->payload_len, proc = e->processor;
	const uint64_t ts = e->timestamp, dts = ts - p->ts;
	const uint32_t seq_delta = seq - p->seq - 1;
	const uint8_t *payload = e->payload;
	uint8_t flags = 0, *o;

	/* One room check per event; the fields are then stored directly. */
	if (ntw_reserve(b, MAX_COMPRESSED_HEADER + (size_t)len))
		return -1;
	if (meta != p->meta_id)
		flags |= 1;
	if (seq_delta || cref != p->ctid || proc != p->proc)
		flags |= 2;
	if (tref != p->tid)
		flags |= 4;
	if (stack != p->stack)
		flags |= 8;
	if (sorted)
		flags |= 64;
	if (len != p->payload_len)
		flags |= 128;
	p->meta_id = meta;
	p->seq = seq;
	p->ctid = cref;
	p->tid = tref;
	p->proc = proc;
	p->stack = stack;
	p->ts = ts;
	p->payload_len = len;
	o = b->data + b->len;
	*o++ = flags;
	if (flags & 1)
		o = put_varuint(o, meta);
	/* The reader adds one after the delta (the event's metadata id is not 0). */
	if (flags & 2) {
		o = put_varuint(o, seq_delta);
		o = put_varuint(o, cref);
		o = put_varuint(o, proc);
	}
	if (flags & 4)
		o = put_varuint(o, tref);
	if (flags & 8)
		o = put_varuint(o, stack);
	o = put_varuint(o, dts);
	if (flags & 128)
		o = put_varuint(o, len);
	if (len)
		memcpy(o, payload, len);
	b->len = (size_t)(o - b->data) + len;
	return 0;
}

static int encode_uncompressed(struct nt_writer *w, const struct gen_event *e,
                               uint32_t meta, uint32_t seq, uint64_t cref, uint64_t tref,
                               uint32_t stack, int sorted)
{
	struct ntw_buf *b = &w->ev;
	uint32_t m = meta | (sorted ? 0x80000000u : 0);

	if (w->o.version >= 6)
		return ntw_u32(b, 48 + e->payload_len) || ntw_u32(b, m) || ntw_u32(b, seq) ||
		       ntw_u64(b, tref) || ntw_u64(b, cref) || ntw_u32(b, e->processor) ||
		       ntw_u32(b, stack) || ntw_u64(b, e->timestamp) || ntw_u32(b, 0) ||
		       ntw_u32(b, e->payload_len) || ntw_bytes(b, e->payload, e->payload_len);
	/* EventSize counts the header after itself and the payload, not the
	 * padding that follows to the next 4-byte file offset. The block's
	 * content starts file-aligned, so aligning within it is enough. */
	return ntw_u32(b, 76 + e->payload_len) || ntw_u32(b, m) || ntw_u32(b, seq) ||
	       ntw_u64(b, tref) || ntw_u64(b, cref) || ntw_u32(b, e->processor) ||
	       ntw_u32(b, stack) || ntw_u64(b, e->timestamp) || ntw_zeros(b, 32) ||
	       ntw_u32(b, e->payload_len) || ntw_bytes(b, e->payload, e->payload_len) ||
	       ntw_zeros(b, (4 - (b->len & 3)) & 3);
}

/* A new EventBlock (and sequence point) when the pending one is full. */
static int make_room(struct nt_writer *w, uint32_t payload_len)
{
	if (w->ev.len >= w->o.block_bytes ||
	    w->ev.len + payload_len + 96 > MAX_BLOCK_BYTES ||
	    w->meta.len > MAX_BLOCK_BYTES / 2 || w->stk.len > MAX_BLOCK_BYTES / 2) {
		if (flush_events(w))
			return -1;
		if (w->o.sp_every && w->blocks_since_sp >= w->o.sp_every &&
		    sequence_point(w))
			return -1;
	}
	return 0;
}

/* Microsoft-DotNETCore-SampleProfiler's ThreadSample as CoreCLR registers it
 * (sampleprofiler.cpp / ep-sample-profiler.c): event 0, version 0, no
 * keywords, Informational, no metadata of its own (the runtime writes an
 * empty name and no fields), as in ../shared/real-traces/HeartRateMonitor. */
static const struct ntw_meta_plain sampler_meta = {
	"Microsoft-DotNETCore-SampleProfiler", 0, 0, 0, 4
};

static int sampler_metadata(struct nt_writer *w)
{
	if (w->sampler_meta)
		return 0;
	if (meta_record(w, w->next_meta_id, NULL, &sampler_meta))
		return fail(w, "out of memory");
	w->nmeta_pending++;
	w->sampler_meta = w->next_meta_id++;
	return 0;
}

/*
 * One ThreadSample as EventPipe's sampler writes it: the sampler thread
 * captures it (its own sequence numbers, its buffer), but it names a thread
 * it sampled and carries the time that thread was stopped. Here: a thread
 * whose latest event is later than the sampler's last event (taken in turn),
 * and a time between the two (never before the stream's first event or the
 * last sequence point), so that per capture thread the times never go
 * back and per ThreadId they do. Not counted in the sequence-point model: a
 * sample's few bytes. No thread to sample yet: none this turn.
 */
static int sampler_event(struct nt_writer *w, const struct gen_event *like)
{
	uint8_t payload[4];
	struct gen_event e = { 0 };
	struct ntw_thread *s, *t = NULL;
	size_t n, si;
	uint64_t lo, m;
	uint32_t stack;

	if (make_room(w, sizeof payload) || sampler_metadata(w))
		return -1;
	if (!(s = thread_of(w, GEN_NETTRACE_SAMPLER_TID)))
		return fail(w, "out of memory");
	si = (size_t)(s - w->threads);
	lo = s->cap_ts > w->sp_ts ? s->cap_ts : w->sp_ts;
	if (lo < w->first_ts)
		lo = w->first_ts;
	n = w->nthreads;
	for (size_t j = 0; j < n; j++) {
		struct ntw_thread *c = &w->threads[(w->nsamples + j) % n];

		if (c != s && c->tid && c->named_ts > lo) {
			t = c;
			break;
		}
	}
	if (!t)
		return 0;
	m = mix64(w->info.seed ^ (w->nsamples * 0x9e3779b97f4a7c15ULL));
	e.timestamp = lo + m % (t->named_ts - lo);
	e.thread_id = t->tid;
	e.processor = like->processor;
	/* SampleType: External (1) or Managed (2), as SampleProfilerSampleType. */
	put_le32(payload, (m >> 40) & 1 ? 2 : 1);
	e.payload = payload;
	e.payload_len = sizeof payload;
	if (stack_id_of(w, t->named_stack, &stack))
		return fail(w, "out of memory");
	s = &w->threads[si];
	s->seq++;
	{
		uint64_t cref = w->o.version >= 6 ? s->index : s->tid;
		uint64_t tref = w->o.version >= 6 ? t->index : t->tid;
		int sorted = e.timestamp >= w->last_ts;

		if (sorted)
			w->last_ts = e.timestamp;
		if (w->o.uncompressed ?
		    encode_uncompressed(w, &e, w->sampler_meta, s->seq, cref, tref, stack, sorted) :
		    encode_compressed(w, &e, w->sampler_meta, s->seq, cref, tref, stack, sorted))
			return fail(w, "out of memory");
	}
	if (e.timestamp < w->min_ts)
		w->min_ts = e.timestamp;
	if (e.timestamp > w->max_ts)
		w->max_ts = e.timestamp;
	s->cap_ts = e.timestamp;
	w->nev++;
	w->nsamples++;
	return 0;
}

static int nt_event(struct gen_writer *gw, const struct gen_event *e)
{
	struct nt_writer *w = W(gw);
	struct ntw_thread *t;
	uint32_t meta = 0, stack;
	uint64_t tref;
	int sorted;

	if (e->kind != GEN_EV_RUNTIME)
		return 0; /* EventPipe records no process events */
	if (make_room(w, e->payload_len))
		return -1;
	if (e->payload_len > MAX_BLOCK_BYTES - 1024)
		return fail(w, "event payload too large for a block");
	/* The common case first: a spec event as the spec states it, whose
	 * metadata is already written; one word compared, no key built. */
	if (e->spec_event < GCSPEC_NEVENTS && e->keywords == gcspec_events[e->spec_event].keywords &&
	    key_word(e->provider, e->id, e->version, e->level, e->opcode) == w->spec_word[e->spec_event])
		meta = w->meta_of_spec[e->spec_event];
	if (!meta) {
		struct ntw_meta_key k = { e->spec_event, e->provider, e->id, e->version,
		                          e->level, e->opcode, e->keywords };

		if (meta_id_of(w, &k, &meta))
			return fail(w, "out of memory");
	}
	t = thread_of(w, e->thread_id);
	if (!t)
		return fail(w, "out of memory");
	/* Before the stack lookup: a sequence point ends the stack region. */
	if (!w->o.sp_every && ntw_sp_event(&w->sp, &t->sp, e->timestamp, e->payload_len,
					  e->stack_id ? stack_bytes(w, e->stack_id) : 0) &&
	    sequence_point(w))
		return -1;
	if (stack_id_of(w, e->stack_id, &stack))
		return fail(w, "out of memory");
	t->seq++;
	tref = w->o.version >= 6 ? t->index : t->tid;
	sorted = e->timestamp >= w->last_ts;
	if (sorted)
		w->last_ts = e->timestamp;
	if (w->o.uncompressed ?
	    encode_uncompressed(w, e, meta, t->seq, tref, tref, stack, sorted) :
	    encode_compressed(w, e, meta, t->seq, tref, tref, stack, sorted))
		return fail(w, "out of memory");
	if (e->timestamp < w->min_ts)
		w->min_ts = e->timestamp;
	if (e->timestamp > w->max_ts)
		w->max_ts = e->timestamp;
	w->nev++;
	if (w->o.sampler_every) {
		if (!w->nruntime)
			w->first_ts = e->timestamp;
		if (e->timestamp > t->named_ts) {
			t->named_ts = e->timestamp;
			t->named_stack = e->stack_id;
		}
		if (e->timestamp > t->cap_ts)
			t->cap_ts = e->timestamp;
		if (++w->nruntime % w->o.sampler_every == 0)
			return sampler_event(w, e);
	}
	return 0;
}

/* --- stream start and end ------------------------------------------------------------ */

static int sync_time(struct ntw_buf *b, uint64_t unix_ns)
{
	time_t secs = (time_t)(unix_ns / 1000000000u);
	struct tm tm;

	if (!gmtime_r(&secs, &tm))
		memset(&tm, 0, sizeof tm);
	return ntw_u16(b, (uint16_t)(tm.tm_year + 1900)) || ntw_u16(b, (uint16_t)(tm.tm_mon + 1)) ||
	       ntw_u16(b, (uint16_t)tm.tm_wday) || ntw_u16(b, (uint16_t)tm.tm_mday) ||
	       ntw_u16(b, (uint16_t)tm.tm_hour) || ntw_u16(b, (uint16_t)tm.tm_min) ||
	       ntw_u16(b, (uint16_t)tm.tm_sec) ||
	       ntw_u16(b, (uint16_t)(unix_ns / 1000000u % 1000u));
}

static int kv(struct ntw_buf *b, const char *k, unsigned long long v)
{
	char t[32];

	snprintf(t, sizeof t, "%llu", v);
	return ntw_str6(b, k) || ntw_str6(b, t);
}

static int trace_header(struct nt_writer *w)
{
	struct ntw_buf *b = &w->tmp;
	const struct gen_stream_info *in = &w->info;

	b->len = 0;
	if (w->o.version >= 6) {
		uint8_t h[20] = { 'N', 'e', 't', 't', 'r', 'a', 'c', 'e', 0, 0, 0, 0, 6 };

		if (out_bytes(w, h, sizeof h))
			return -1;
		if (sync_time(b, in->start_unix_ns) || ntw_u64(b, in->start_ticks) ||
		    ntw_u64(b, in->clock_frequency) || ntw_u32(b, in->pointer_size) ||
		    ntw_u32(b, 3) || kv(b, "HardwareThreadCount", in->nprocessors) ||
		    kv(b, "ProcessId", in->process_id) ||
		    kv(b, "ExpectedCPUSamplingRate", 1000000))
			return fail(w, "out of memory");
		return emit(w, B_TRACE, b);
	}
	if (out_bytes(w, "Nettrace", 8) || out_u32(w, 20) ||
	    out_bytes(w, "!FastSerialization.1", 20))
		return -1;
	if (sync_time(b, in->start_unix_ns) || ntw_u64(b, in->start_ticks) ||
	    ntw_u64(b, in->clock_frequency) || ntw_u32(b, in->pointer_size) ||
	    ntw_u32(b, in->process_id) || ntw_u32(b, in->nprocessors) ||
	    ntw_u32(b, 1000000))
		return fail(w, "out of memory");
	return emit(w, B_TRACE, b);
}

/* Every spec event's metadata as the spec states it, before any event. */
static int metadata_upfront(struct nt_writer *w)
{
	uint32_t id;

	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *ev = &gcspec_events[i];
		struct ntw_meta_key k = { (uint16_t)i, ev->provider, ev->id, ev->version,
		                          ev->level, ev->opcode, ev->keywords };

		if (meta_id_of(w, &k, &id))
			return fail(w, "out of memory");
	}
	if (w->o.sampler_every && sampler_metadata(w))
		return -1;
	return flush_pending(w);
}

static int nt_begin(struct gen_writer *gw, FILE *out, const struct gen_stream_info *info)
{
	struct nt_writer *w = W(gw);

	if (w->o.version != 4 && w->o.version != 5 && w->o.version != 6)
		return fail(w, "version must be 4, 5 or 6");
	w->out = out;
	w->info = *info;
	w->info.profile = w->info.mode = NULL; /* borrowed: not kept */
	if (info->pointer_size != 4 && info->pointer_size != 8)
		return fail(w, "pointer size must be 4 or 8");
	if (!w->o.block_bytes)
		w->o.block_bytes = DEFAULT_BLOCK_BYTES;
	if (w->o.block_bytes > MAX_BLOCK_BYTES)
		w->o.block_bytes = MAX_BLOCK_BYTES;
	ntw_sp_init(&w->sp, info->pointer_size, info->clock_frequency);
	if (trace_header(w) || start_event_block(w) || start_meta_block(w))
		return -1;
	if (w->o.metadata_upfront)
		return metadata_upfront(w);
	return 0;
}

static int nt_end(struct gen_writer *gw)
{
	struct nt_writer *w = W(gw);

	/* A final sequence point records every thread's last number. */
	if (sequence_point(w) || flush_pending(w))
		return -1;
	if (w->o.version >= 6) {
		if (out_u32(w, 0))
			return -1;
	} else if (out_bytes(w, "\1", 1)) {
		return -1;
	}
	if (fflush(w->out))
		return fail(w, "write failed");
	return 0;
}

static void nt_destroy(struct gen_writer *gw)
{
	struct nt_writer *w = W(gw);

	if (!w)
		return;
	ntw_buf_free(&w->ev), ntw_buf_free(&w->meta), ntw_buf_free(&w->stk);
	ntw_buf_free(&w->thr), ntw_buf_free(&w->tmp);
	u64map_free(w->meta_map), u64map_free(w->thread_map), u64map_free(w->stack_map);
	free(w->metas);
	free(w->threads);
	free(w);
}

/* gcgen --writer-option: the layout choices a runtime does not make but the
 * format allows (small blocks, frequent or no sequence points, uncompressed
 * headers, all metadata first), for files that exercise readers. */
static int nt_option(struct gen_writer *gw, const char *key, const char *value)
{
	struct nt_writer *w = W(gw);
	char *end;
	unsigned long v = strtoul(value, &end, 0);

	/* snprintf, not gen_writer_fail: this module links without the writer table. */
	if (strcmp(key, "block-bytes") && strcmp(key, "sp-every") && strcmp(key, "uncompressed") &&
	    strcmp(key, "metadata-upfront") && strcmp(key, "sampler-every")) {
		snprintf(gw->error, sizeof gw->error, "nettrace: unknown option %s (block-bytes, "
			 "sp-every, uncompressed, metadata-upfront, sampler-every)", key);
		return -1;
	}
	if (strcmp(key, "sp-every") == 0 && strcmp(value, "end") == 0) {
		w->o.sp_every = GEN_NETTRACE_SP_END;
		return 0;
	}
	if (!*value || *end || *value == '-') {
		snprintf(gw->error, sizeof gw->error, "nettrace: option %s wants a number, not '%s'",
			 key, value);
		return -1;
	}
	if (strcmp(key, "block-bytes") == 0 && v >= 1 && v <= MAX_BLOCK_BYTES)
		w->o.block_bytes = (uint32_t)v;
	else if (strcmp(key, "sp-every") == 0 && v < GEN_NETTRACE_SP_END)
		w->o.sp_every = (uint32_t)v;
	else if (strcmp(key, "uncompressed") == 0 && v <= 1)
		w->o.uncompressed = (int)v;
	else if (strcmp(key, "metadata-upfront") == 0 && v <= 1)
		w->o.metadata_upfront = (int)v;
	else if (strcmp(key, "sampler-every") == 0 && v < GEN_NETTRACE_SP_END)
		w->o.sampler_every = (uint32_t)v;
	else {
		snprintf(gw->error, sizeof gw->error, "nettrace: %s=%s is out of range "
			 "(block-bytes=1..%u, sp-every=N|end, uncompressed=0|1, metadata-upfront=0|1, "
			 "sampler-every=N)", key, value, MAX_BLOCK_BYTES);
		return -1;
	}
	return 0;
}

struct gen_writer *gen_nettrace_new(const struct gen_nettrace_opts *opts)
{
	struct nt_writer *w = calloc(1, sizeof *w);

	if (!w)
		return NULL;
	if (!(w->meta_map = u64map_new(SIZE_MAX)) || !(w->thread_map = u64map_new(SIZE_MAX)) ||
	    !(w->stack_map = u64map_new(SIZE_MAX))) {
		nt_destroy(&w->base);
		return NULL;
	}
	w->o.version = 5;
	if (opts)
		w->o = *opts;
	w->next_meta_id = 1;
	w->next_stack_id = 1;
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
		const struct gcspec_event *ev = &gcspec_events[i];

		w->spec_word[i] = key_word(ev->provider, ev->id, ev->version, ev->level, ev->opcode);
	}
	return &w->base;
}

void gen_nettrace_set_opts(struct gen_writer *gw, const struct gen_nettrace_opts *opts)
{
	W(gw)->o = *opts;
}

static struct gen_writer *made(unsigned version, int full, const struct gen_writer_ops *ops)
{
	struct gen_nettrace_opts o = { 0 };
	struct gen_writer *w;

	o.version = version;
	o.full_metadata = full;
	w = gen_nettrace_new(&o);
	if (w)
		w->ops = ops;
	return w;
}

static struct gen_writer *create_v4(void) { return made(4, 0, &gen_write_nettrace_v4_ops); }
static struct gen_writer *create_v5(void) { return made(5, 0, &gen_write_nettrace_v5_ops); }
static struct gen_writer *create_v6(void) { return made(6, 0, &gen_write_nettrace_v6_ops); }
static struct gen_writer *create_v5f(void) { return made(5, 1, &gen_write_nettrace_v5_full_ops); }
static struct gen_writer *create_v6f(void) { return made(6, 1, &gen_write_nettrace_v6_full_ops); }

const struct gen_writer_ops gen_write_nettrace_v4_ops = {
	.format = "nettrace-v4",
	.description = "EventPipe nettrace V4 (FastSerialization, no metadata tags)",
	.create = create_v4, .begin = nt_begin, .event = nt_event, .end = nt_end, .destroy = nt_destroy,
	.option = nt_option,
};
const struct gen_writer_ops gen_write_nettrace_v5_ops = {
	.format = "nettrace-v5",
	.description = "EventPipe nettrace V5, as .NET Core 3.0 to .NET 10 write it",
	.create = create_v5, .begin = nt_begin, .event = nt_event, .end = nt_end, .destroy = nt_destroy,
	.option = nt_option,
};
const struct gen_writer_ops gen_write_nettrace_v6_ops = {
	.format = "nettrace-v6",
	.description = "EventPipe nettrace V6 (typed blocks, thread table)",
	.create = create_v6, .begin = nt_begin, .event = nt_event, .end = nt_end, .destroy = nt_destroy,
	.option = nt_option,
};
const struct gen_writer_ops gen_write_nettrace_v5_full_ops = {
	.format = "nettrace-v5-full",
	.description = "nettrace V5 with full metadata (event names, field lists, opcode tag)",
	.create = create_v5f, .begin = nt_begin, .event = nt_event, .end = nt_end, .destroy = nt_destroy,
	.option = nt_option,
};
const struct gen_writer_ops gen_write_nettrace_v6_full_ops = {
	.format = "nettrace-v6-full",
	.description = "nettrace V6 with full metadata (event names, field lists, opcode)",
	.create = create_v6f, .begin = nt_begin, .event = nt_event, .end = nt_end, .destroy = nt_destroy,
	.option = nt_option,
};
