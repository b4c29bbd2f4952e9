/*
 * nettrace_read.c - the nettrace container reader. See nettrace_r.h.
 *
 * Shape: ntr_next() hands out the events of the current EventBlock one at a
 * time; when the block is used up it reads objects/blocks until the next
 * EventBlock, applying metadata, stack, thread and sequence-point blocks on
 * the way. A problem inside a block costs the rest of that block; a problem
 * with the framing (truncation, a bad object, an impossible size) ends the
 * stream: after it nothing can be found reliably.
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oracle/formats/block.h"
#include "spec/gcspec.h"
#include "oracle/formats/nettrace/nettrace_r.h"
#include "oracle/formats/nettrace/nettrace_rmeta.h"
#include "util/le.h"
#include "util/u64map.h"

/* Rare paths kept out of the function every event goes through. */
#if defined(__GNUC__)
#define NTR_NOINLINE __attribute__((noinline))
#define NTR_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NTR_NOINLINE
#define NTR_ALWAYS_INLINE inline
#endif

#define MAX_V5_BLOCK (1u << 30)  /* no runtime writes blocks near this */
#define MAX_NAME 256             /* FastSerialization type names are short */
#define GROW_STEP (1u << 20)     /* buffers grow as bytes arrive, not as declared */

enum kind { K_EVENT, K_META, K_STACK, K_SP, K_TRACE, K_THREAD, K_REMOVE, K_LABEL, K_OTHER };
static const char *const kind_name[] = { "EventBlock", "MetadataBlock", "StackBlock",
	"SPBlock", "Trace", "ThreadBlock", "RemoveThreadBlock", "LabelListBlock", "block" };

struct meta {
	uint64_t cls;              /* or_event.cls: new at each definition */
	int provider;
	const char *provider_name;
	uint16_t id;
	uint8_t version, level, opcode;
	uint64_t keywords;
};

struct range { uint32_t first, end; };

struct ntr_reader {
	FILE *in;
	ntr_report_fn report;
	void *arg;
	unsigned version;          /* 5 (V4/V5 objects) or 6 */
	unsigned pointer_size;
	uint64_t off;              /* file offset of the next byte to read */
	int done;

	/* The block being read, lent to the events handed out of it (block.h):
	 * buf and cap are blk's. */
	struct or_blockpool *pool;
	struct or_block *blk;
	uint8_t *buf;
	size_t cap, blen, pos;
	uint64_t boff;             /* file offset of buf[0] */
	int in_events, compressed;
	int sync_pending;          /* a sequence point was read: say OR_SYNC */
	int partial;               /* buf holds a truncated block's first bytes */

	/* Delta-coding state, reset at each block. */
	uint32_t p_meta, p_seq, p_proc, p_stack, p_len, p_label;
	uint64_t p_ctid, p_tid, p_ts;
	uint32_t process;          /* the trace's: one process per file */

	struct meta *metas;
	size_t nmetas, capmetas;
	struct u64map *meta_map;   /* metadata id -> metas index (large ids) */
	uint32_t *meta_ix;         /* small metadata ids: metas index + 1, or 0 */
	size_t meta_ixcap;
	uint64_t cls_serial;       /* the last meta.cls given */
	char **names;              /* interned provider names */
	size_t nnames;

	struct range *ranges;      /* stack ids defined since the last sequence point */
	size_t nranges, capranges;
	struct u64map *threads;    /* V6 thread index -> thread_tids index (UINT32_MAX: removed) */
	int tc_ok;                 /* event_thread()'s last answer, while valid */
	uint64_t tc_index, tc_tid;
	uint64_t *thread_tids;
	size_t nthread_tids, capthread_tids;
	struct u64map *seqs;       /* capture thread -> last sequence number */
	uint64_t seq_ctid;         /* the last capture thread looked up ... */
	uint64_t *seq_last;        /* ... and its entry (NULL: none cached) */

	uint64_t index;            /* next event index */
	struct ntr_counts counts;
	char msg[256];
};

/* --- diagnostics ------------------------------------------------------------ */

#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static void say(struct ntr_reader *r, unsigned code, uint64_t event, uint64_t off,
                const char *fmt, ...)
{
	va_list ap;

	/* Inside a truncated block, running out of bytes is the truncation
	 * already reported, not a second fault. */
	if (r->partial && (code == GCSPEC_DIAG_N019 || code == GCSPEC_DIAG_N020 ||
	                   code == GCSPEC_DIAG_N006))
		return;
	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	if (r->report)
		r->report(r->arg, code, event, off, r->msg);
}

/* A framing problem: report it and stop reading the stream. */
static int stop_reading(struct ntr_reader *r)
{
	r->done = 1;
	return -1;
}

#define STOP(r, code, off, ...) (say((r), (code), UINT64_MAX, (off), __VA_ARGS__), stop_reading(r))

/* --- input ---------------------------------------------------------------------- */

/* Make buf a block nobody else holds (the time-order window may still hold
 * the last one, for its events): -1 when memory runs out. */
static int own_block(struct ntr_reader *r)
{
	if (r->blk && r->blk->refs == 1)
		return 0;
	if (r->blk)
		or_block_drop(r->blk);
	r->blk = or_block_new(r->pool);
	r->buf = r->blk ? r->blk->data : NULL;
	r->cap = r->blk ? r->blk->cap : 0;
	return r->blk ? 0 : -1;
}

/* Read exactly n bytes into buf at 'at'. Returns the count read (< n at end
 * of file). The buffer grows only by what has really arrived. */
static size_t fill(struct ntr_reader *r, size_t at, size_t n)
{
	size_t got = 0;

	if (own_block(r))
		return 0;
	while (got < n) {
		size_t step = n - got < GROW_STEP ? n - got : GROW_STEP;
		size_t k;

		if (at + got + step > r->cap) {
			if (or_block_reserve(r->blk, at + got + step, at + got))
				return got;
			r->buf = r->blk->data;
			r->cap = r->blk->cap;
		}
		k = fread(r->buf + at + got, 1, step, r->in);
		got += k;
		r->off += k;
		if (k < step)
			break;
	}
	r->counts.bytes = r->off;
	return got;
}

/* Read a fixed piece of framing into buf[0..n); 0, or -1 after reporting. */
static int need(struct ntr_reader *r, size_t n, const char *what)
{
	uint64_t at = r->off;

	if (fill(r, 0, n) < n)
		return STOP(r, GCSPEC_DIAG_N003, r->off,
		            "file ends inside %s that starts at offset %llu",
		            what, (unsigned long long)at);
	return 0;
}

/* --- cursor over the current block ------------------------------------------------- */

struct cur {
	const uint8_t *p;
	size_t n, i;
};

static int c_get(struct cur *c, size_t k, const uint8_t **out)
{
	if (k > c->n - c->i)
		return -1;
	*out = c->p + c->i;
	c->i += k;
	return 0;
}

static int c_u32(struct cur *c, uint32_t *v)
{
	const uint8_t *p;

	if (c_get(c, 4, &p))
		return -1;
	*v = le32(p);
	return 0;
}

static int c_u64(struct cur *c, uint64_t *v)
{
	const uint8_t *p;

	if (c_get(c, 8, &p))
		return -1;
	*v = le64(p);
	return 0;
}

/* varuint of at most maxbytes bytes (5: 32-bit, 10: 64-bit). */
static int c_var_long(struct cur *c, uint64_t *v, unsigned maxbytes)
{
	*v = 0;
	for (unsigned k = 0; k < maxbytes; k++) {
		if (c->i >= c->n)
			return -1;
		uint8_t b = c->p[c->i++];

		*v |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80))
			return maxbytes == 5 && *v > UINT32_MAX ? -1 : 0;
	}
	return -1;
}

/* Most varuints in an event header are one or two bytes (timestamp
 * deltas): read those inline. */
static inline int c_var(struct cur *c, uint64_t *v, unsigned maxbytes)
{
	if (c->i < c->n && c->p[c->i] < 0x80) {
		*v = c->p[c->i++];
		return 0;
	}
	if (c->n - c->i >= 2 && c->p[c->i + 1] < 0x80) {
		*v = (uint64_t)(c->p[c->i] & 0x7f) | (uint64_t)c->p[c->i + 1] << 7;
		c->i += 2;
		return 0;
	}
	return c_var_long(c, v, maxbytes);
}

static inline int c_var32(struct cur *c, uint32_t *v)
{
	uint64_t x;

	if (c_var(c, &x, 5))
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* --- one event row ------------------------------------------------------------------ */

struct row {
	uint64_t off, payload_off;
	uint32_t meta, seq, proc, stack;
	uint64_t tid, ctid, ts;
	const uint8_t *payload;
	uint32_t len;
};

static void reset_deltas(struct ntr_reader *r)
{
	r->p_meta = r->p_seq = r->p_proc = r->p_stack = r->p_len = r->p_label = 0;
	r->p_ctid = r->p_tid = r->p_ts = 0;
}

/* A varuint at b[*i..n) (see c_var), for the header loop below, which keeps
 * its cursor in a register. */
static inline int var_at(const uint8_t *b, size_t n, size_t *i, uint64_t *v,
                         unsigned maxbytes)
{
	struct cur c;
	size_t k = *i;
	int rc;

	if (k < n && b[k] < 0x80) {
		*v = b[k];
		*i = k + 1;
		return 0;
	}
	if (n - k >= 2 && b[k + 1] < 0x80) {
		*v = (uint64_t)(b[k] & 0x7f) | (uint64_t)b[k + 1] << 7;
		*i = k + 2;
		return 0;
	}
	c = (struct cur){ b, n, k };
	rc = c_var_long(&c, v, maxbytes);
	*i = c.i;
	return rc;
}

/* A compressed event header and its payload at r->pos (the format's delta
 * coding: each flag bit says a field follows, the others repeat the last
 * row's). 0, or -1 with why set. Every event of a compressed block comes
 * through here: the delta state is kept in locals and stored back once. */
static int parse_compressed(struct ntr_reader *r, struct row *w, const char **why)
{
	const uint8_t *b = r->buf;
	size_t n = r->blen, i = r->pos;
	uint32_t meta = r->p_meta, seq = r->p_seq, len = r->p_len;
	uint64_t v, ts = r->p_ts;
	uint8_t flags;

	w->off = r->boff + i;
	if (i >= n) {
		*why = "event header runs past the block";
		return -1;
	}
	flags = b[i++];
	*why = "compressed event header runs past the block or has an overlong varint";
	if (flags & 1) {
		if (var_at(b, n, &i, &v, 5))
			return -1;
		r->p_meta = meta = (uint32_t)v;
	}
	if (flags & 2) {
		uint64_t d, p;

		if (var_at(b, n, &i, &d, 5) || var_at(b, n, &i, &r->p_ctid, 10) ||
		    var_at(b, n, &i, &p, 5))
			return -1;
		r->p_proc = (uint32_t)p;
		seq += (uint32_t)d;
	}
	/* V5: the number advances for events, not metadata records (id 0);
	 * V6 metadata is not made of events, so it always advances. */
	if (r->version >= 6 || meta != 0)
		seq++;
	r->p_seq = seq;
	if ((flags & 4) && var_at(b, n, &i, &r->p_tid, 10))
		return -1;
	if (flags & 8) {
		if (var_at(b, n, &i, &v, 5))
			return -1;
		r->p_stack = (uint32_t)v;
	}
	if (var_at(b, n, &i, &v, 10))
		return -1;
	r->p_ts = ts += v;
	if (r->version >= 6) {
		if (flags & 16) {
			if (var_at(b, n, &i, &v, 5))
				return -1;
			r->p_label = (uint32_t)v;
		}
	} else {
		/* Activity ids: skipped. */
		unsigned skip = (flags & 16 ? 16u : 0u) + (flags & 32 ? 16u : 0u);
		if (skip > n - i)
			return -1;
		i += skip;
	}
	if (flags & 128) {
		if (var_at(b, n, &i, &v, 5))
			return -1;
		r->p_len = len = (uint32_t)v;
	}
	w->meta = meta;
	w->seq = seq;
	w->ctid = r->p_ctid;
	w->proc = r->p_proc;
	w->tid = r->p_tid;
	w->stack = r->p_stack;
	w->ts = ts;
	w->len = len;
	w->payload_off = r->boff + i;
	if (len > n - i) {
		*why = "event payload runs past the block";
		return -1;
	}
	w->payload = b + i;
	r->pos = i + len;
	return 0;
}

/* Decode the row at r->pos; 0, or -1 with why set (the block is malformed). */
static int parse_row(struct ntr_reader *r, struct row *w, const char **why)
{
	struct cur c = { r->buf, r->blen, r->pos };
	uint32_t size, fixed = r->version >= 6 ? 48 : 76;
	const uint8_t *p;

	if (r->compressed)
		return parse_compressed(r, w, why);
	w->off = r->boff + r->pos;
	if (c_u32(&c, &size) || size < fixed || size > c.n - c.i) {
		*why = "uncompressed EventSize is too small or runs past the block";
		return -1;
	}
	c_u32(&c, &w->meta), c_u32(&c, &w->seq), c_u64(&c, &w->tid);
	c_u64(&c, &w->ctid), c_u32(&c, &w->proc), c_u32(&c, &w->stack);
	c_u64(&c, &w->ts);
	c_get(&c, r->version >= 6 ? 4 : 32, &p); /* label list / activity ids */
	c_u32(&c, &w->len);
	if (w->len != size - fixed) {
		*why = "uncompressed PayloadSize disagrees with EventSize";
		return -1;
	}
	w->meta &= 0x7fffffffu; /* the high bit is IsSorted */
	c_get(&c, w->len, &w->payload);
	if (r->version < 6) {
		/* Zero padding up to the next 4-byte file offset. */
		size_t pad = (size_t)((4 - ((r->boff + c.i) & 3)) & 3);

		if (pad > c.n - c.i && r->partial) {
			pad = c.n - c.i;
		} else if (pad > c.n - c.i) {
			*why = "event padding runs past the block";
			return -1;
		}
		for (size_t k = 0; k < pad; k++)
			if (c.p[c.i + k])
				say(r, GCSPEC_DIAG_N007, UINT64_MAX, r->boff + c.i + k,
				    "nonzero padding byte after an uncompressed event");
		c.i += pad;
	}
	w->payload_off = r->boff + (size_t)(w->payload - r->buf);
	r->pos = c.i;
	return 0;
}

/* --- tables ---------------------------------------------------------------------------- */

static const char *intern(struct ntr_reader *r, const char *name)
{
	char **p;

	for (size_t i = 0; i < r->nnames; i++)
		if (!strcmp(r->names[i], name))
			return r->names[i];
	p = realloc(r->names, (r->nnames + 1) * sizeof *p);
	if (!p)
		return NULL;
	r->names = p;
	p[r->nnames] = strdup(name);
	return p[r->nnames] ? p[r->nnames++] : NULL;
}

/* Metadata ids are small consecutive numbers in practice: those below
 * META_DIRECT index an array; any other id goes through the map. */
#define META_DIRECT 65536u

static inline const struct meta *meta_of(const struct ntr_reader *r, uint32_t id)
{
	if (id < r->meta_ixcap)
		return r->meta_ix[id] ? &r->metas[r->meta_ix[id] - 1] : NULL;
	if (id < META_DIRECT)
		return NULL;
	{
		uint64_t *slot = u64map_get(r->meta_map, id);
		return slot ? &r->metas[*slot] : NULL;
	}
}

static int meta_set(struct ntr_reader *r, uint32_t id, uint32_t slot)
{
	if (id >= META_DIRECT)
		return u64map_put(r->meta_map, id, slot);
	if (id >= r->meta_ixcap) {
		size_t cap = r->meta_ixcap ? r->meta_ixcap : 256;
		uint32_t *p;

		while (cap <= id)
			cap *= 2;
		p = realloc(r->meta_ix, cap * sizeof *p);
		if (!p)
			return -1;
		memset(p + r->meta_ixcap, 0, (cap - r->meta_ixcap) * sizeof *p);
		r->meta_ix = p;
		r->meta_ixcap = cap;
	}
	r->meta_ix[id] = slot + 1;
	return 0;
}

static void meta_reset(struct ntr_reader *r)
{
	u64map_clear(r->meta_map);
	if (r->meta_ixcap)
		memset(r->meta_ix, 0, r->meta_ixcap * sizeof *r->meta_ix);
	r->nmetas = 0;
}

static void add_meta(struct ntr_reader *r, const struct ntr_meta_rec *m, uint64_t off)
{
	const struct meta *old;
	struct meta *e;
	int prov = -1;

	if (m->meta_id == 0) {
		say(r, GCSPEC_DIAG_N020, UINT64_MAX, off, "metadata record defines id 0");
		return;
	}
	for (unsigned i = 0; i < GCSPEC_NPROVIDERS; i++)
		if (!strcmp(gcspec_providers[i].name, m->provider))
			prov = (int)i;
	old = meta_of(r, m->meta_id);
	if (old) {
		e = &r->metas[old - r->metas]; /* redefinition: the latest wins */
	} else {
		if (r->nmetas == r->capmetas) {
			size_t cap = r->capmetas ? r->capmetas * 2 : 64;
			struct meta *p = realloc(r->metas, cap * sizeof *p);

			if (!p)
				return;
			r->metas = p;
			r->capmetas = cap;
		}
		if (meta_set(r, m->meta_id, (uint32_t)r->nmetas))
			return;
		e = &r->metas[r->nmetas++];
	}
	e->cls = ++r->cls_serial;
	e->provider = prov;
	e->provider_name = intern(r, m->provider);
	e->id = (uint16_t)m->event_id;
	e->version = (uint8_t)m->version;
	e->level = (uint8_t)m->level;
	e->opcode = m->opcode;
	e->keywords = m->keywords;
	r->counts.metadata++;
}

static int stack_defined(const struct ntr_reader *r, uint32_t id)
{
	for (size_t i = r->nranges; i-- > 0;)
		if (id >= r->ranges[i].first && id < r->ranges[i].end)
			return 1;
	return 0;
}

static void add_stacks(struct ntr_reader *r, uint32_t first, uint32_t n)
{
	if (!n)
		return;
	if (r->nranges && r->ranges[r->nranges - 1].end == first) {
		r->ranges[r->nranges - 1].end = first + n;
		return;
	}
	if (r->nranges == r->capranges) {
		size_t cap = r->capranges ? r->capranges * 2 : 8;
		struct range *p = realloc(r->ranges, cap * sizeof *p);

		if (!p)
			return;
		r->ranges = p;
		r->capranges = cap;
	}
	r->ranges[r->nranges].first = first;
	r->ranges[r->nranges++].end = first + n;
}

/* Capture-thread sequence check: numbers rise by one; a restart at 1 is a
 * new thread reusing the id (V5 spec). */
static inline void check_seq(struct ntr_reader *r, uint64_t ctid, uint32_t seq, uint64_t off)
{
	uint64_t *last;

	/* Events come in runs from one thread: remember the last entry. */
	if (r->seq_last && r->seq_ctid == ctid)
		last = r->seq_last;
	else
		last = u64map_get(r->seqs, ctid);
	if (last && seq != (uint32_t)(*last + 1) && seq != 1 && seq != *last)
		say(r, GCSPEC_DIAG_N014, r->index, off,
		    "capture thread %llu: sequence number %u follows %u (%u events dropped)",
		    (unsigned long long)ctid, seq, (uint32_t)*last, (uint32_t)(seq - *last - 1));
	if (last) {
		*last = seq;
		r->seq_ctid = ctid;
		r->seq_last = last;
	} else {
		r->seq_last = NULL; /* the map may move */
		u64map_put(r->seqs, ctid, seq);
	}
}

static int thread_os_id(struct ntr_reader *r, uint64_t index, uint64_t *tid)
{
	uint64_t *slot;

	if (index == 0) {
		*tid = 0;
		return 0;
	}
	slot = u64map_get(r->threads, index);
	if (!slot || *slot == UINT32_MAX)
		return -1;
	*tid = r->thread_tids[*slot];
	return 0;
}

/* The same for events: a block's events come in runs from one thread, so
 * the last answer is kept until a block changes the thread table. */
static inline int event_thread(struct ntr_reader *r, uint64_t index, uint64_t *tid)
{
	if (r->tc_ok && r->tc_index == index) {
		*tid = r->tc_tid;
		return 0;
	}
	if (thread_os_id(r, index, tid))
		return -1;
	r->tc_ok = 1;
	r->tc_index = index;
	r->tc_tid = *tid;
	return 0;
}

/* --- events: the common case --------------------------------------------------------- */

/* A varuint of at most maxbytes bytes at p, which has room for it (see
 * c_var_long); the byte after it, or NULL when it is too long. */
static inline const uint8_t *fvar(const uint8_t *p, uint64_t *v, unsigned maxbytes)
{
	uint64_t x = p[0] & 0x7f;
	unsigned k = 1;

	if (p[0] & 0x80) {
		for (;; k++) {
			if (k == maxbytes)
				return NULL;
			x |= (uint64_t)(p[k] & 0x7f) << (7 * k);
			if (!(p[k] & 0x80))
				break;
		}
		k++;
		if (maxbytes == 5 && x > UINT32_MAX)
			return NULL;
	}
	*v = x;
	return p + k;
}

/* The same for a 32-bit field (at most 5 bytes) and a 64-bit one (10). */
static inline const uint8_t *fvar32(const uint8_t *p, uint32_t *v)
{
	uint64_t x;

	if ((p = fvar(p, &x, 5)))
		*v = (uint32_t)x;
	return p;
}

static inline const uint8_t *fvar64(const uint8_t *p, uint64_t *v)
{
	return fvar(p, v, 10);
}

/* A compressed header is at most this long (flags, varints, activity ids). */
#define MAX_HEADER 96

/*
 * The row at r->pos when it is an ordinary event: a compressed header with
 * room after it for the longest header, a defined metadata id, stack and
 * threads defined, the capture thread's sequence number going on. Then ev
 * is filled, the delta state moves on and it returns 1, all without the
 * general path's bookkeeping. Anything else returns 0 having changed
 * nothing, and the general path (parse_row and the checks in ntr_next,
 * which report) reads the row. v6: r->version >= 6, a constant in each
 * of the two copies (ntr_next picks one).
 */
static NTR_ALWAYS_INLINE int fast_event_v(struct ntr_reader *r, struct or_event *ev, const int v6)
{
	const uint8_t *b = r->buf, *p = b + r->pos, *end = b + r->blen;
	uint32_t meta = r->p_meta, seq = r->p_seq, len = r->p_len, stack = r->p_stack;
	uint32_t proc = r->p_proc, label = r->p_label, d;
	uint64_t *last;
	uint64_t ctid = r->p_ctid, tid = r->p_tid, ts = r->p_ts, os, v;
	const struct meta *m;
	uint8_t flags;

	if (!r->compressed || end - p < MAX_HEADER)
		return 0;
	flags = *p++;
	if ((flags & 1) && !(p = fvar32(p, &meta)))
		return 0;
	if (flags & 2) {
		if (!(p = fvar32(p, &d)) || !(p = fvar64(p, &ctid)) || !(p = fvar32(p, &proc)))
			return 0;
		seq += d;
	}
	if (v6 || meta != 0)
		seq++;
	if ((flags & 4) && !(p = fvar64(p, &tid)))
		return 0;
	if ((flags & 8) && !(p = fvar32(p, &stack)))
		return 0;
	if (!(p = fvar64(p, &v)))
		return 0;
	ts += v;
	if (v6) {
		if ((flags & 16) && !(p = fvar32(p, &label)))
			return 0;
	} else {
		p += (flags & 16 ? 16 : 0) + (flags & 32 ? 16 : 0);
	}
	if ((flags & 128) && !(p = fvar32(p, &len)))
		return 0;
	if (len > (size_t)(end - p) || !(m = meta_of(r, meta)) || meta == 0 ||
	    (stack && !stack_defined(r, stack)))
		return 0;
	os = tid;
	if (v6 && (ctid != tid || event_thread(r, tid, &os)))
		return 0;
	last = r->seq_last && r->seq_ctid == ctid ? r->seq_last : u64map_get(r->seqs, ctid);
	if (!last || (seq != (uint32_t)(*last + 1) && seq != 1 && seq != *last))
		return 0;
	/* An ordinary event: move on. */
	*last = seq;
	r->seq_ctid = ctid;
	r->seq_last = last;
	r->p_meta = meta, r->p_seq = seq, r->p_len = len, r->p_stack = stack;
	r->p_proc = proc, r->p_label = label;
	r->p_ctid = ctid, r->p_tid = tid, r->p_ts = ts;
	ev->index = r->index++;
	ev->offset = r->boff + r->pos;
	ev->payload_offset = r->boff + (uint64_t)(p - b);
	ev->timestamp = ts;
	ev->thread_id = os;
	/* V4/V5 name threads by OS id; a V6 fast event has ctid == tid. */
	ev->writer_thread = v6 ? os : ctid;
	ev->provider = m->provider;
	ev->provider_name = m->provider_name;
	ev->id = m->id;
	ev->version = m->version;
	ev->level = m->level;
	ev->opcode = m->opcode;
	ev->keywords = m->keywords;
	ev->payload = p;
	ev->payload_len = len;
	ev->model_fields = NULL;
	ev->model_fields_len = 0;
	ev->block = r->blk;
	ev->cls = m->cls;
	ev->pointer_size = 0; /* one per file: the trace block's */
	ev->process = r->process;
	r->pos = (size_t)(p - b) + len;
	r->counts.events++;
	return 1;
}

/* For the general path's loop; ntr_next has its own copies inline. */
static int fast_event(struct ntr_reader *r, struct or_event *ev)
{
	return r->version >= 6 ? fast_event_v(r, ev, 1) : fast_event_v(r, ev, 0);
}

/* --- non-event blocks -------------------------------------------------------------------- */

static void read_meta_block(struct ntr_reader *r)
{
	struct ntr_meta_rec m;
	const char *why;

	if (r->version >= 6) {
		struct cur c = { r->buf, r->blen, 0 };
		const uint8_t *p;

		if (r->blen < 2 || le16(r->buf) > r->blen - 2) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff, "MetadataBlock header runs past the block");
			return;
		}
		c.i = 2 + le16(r->buf);
		while (c.i < c.n) {
			uint64_t at = r->boff + c.i;
			uint16_t size;

			if (c_get(&c, 2, &p) || (size = le16(p), c_get(&c, size, &p))) {
				say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "metadata row runs past the block");
				return;
			}
			if (ntr_meta_v6(p, size, &m, &why))
				say(r, GCSPEC_DIAG_N020, UINT64_MAX, at, "%s", why);
			else
				add_meta(r, &m, at);
		}
		return;
	}
	/* V4/V5: event blobs whose payloads are metadata records. */
	while (r->pos < r->blen) {
		struct row w;

		if (parse_row(r, &w, &why)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff + r->pos, "MetadataBlock: %s", why);
			return;
		}
		if (ntr_meta_v5(w.payload, w.len, &m, &why))
			say(r, GCSPEC_DIAG_N020, UINT64_MAX, w.payload_off, "%s", why);
		else
			add_meta(r, &m, w.payload_off);
	}
}

static void read_stack_block(struct ntr_reader *r)
{
	struct cur c = { r->buf, r->blen, 0 };
	uint32_t first, count, n = 0;

	if (c_u32(&c, &first) || c_u32(&c, &count)) {
		say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff, "StackBlock header runs past the block");
		return;
	}
	for (; n < count; n++) {
		uint64_t at = r->boff + c.i;
		uint32_t size;
		const uint8_t *p;

		if (c_u32(&c, &size) || c_get(&c, size, &p)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at,
			    "stack %u of %u runs past the StackBlock", n, count);
			break;
		}
		if ((r->pointer_size == 4 || r->pointer_size == 8) && size % r->pointer_size)
			say(r, GCSPEC_DIAG_N015, UINT64_MAX, at,
			    "stack id %u has %u bytes, not a multiple of pointer size %u",
			    first + n, size, r->pointer_size);
	}
	if (n == count && c.i != c.n)
		say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff + c.i, "bytes after the last stack");
	add_stacks(r, first, n);
	r->counts.stacks += n;
}

static void sp_entry(struct ntr_reader *r, uint64_t thread, uint32_t seq, uint64_t at)
{
	uint64_t *last = u64map_get(r->seqs, thread);

	if (last && seq > *last) {
		say(r, GCSPEC_DIAG_N014, UINT64_MAX, at,
		    "sequence point: thread %llu reached %u, last event seen %u (%u dropped)",
		    (unsigned long long)thread, seq, (uint32_t)*last, (uint32_t)(seq - *last));
		*last = seq;
	}
}

static void read_sp_block(struct ntr_reader *r)
{
	struct cur c = { r->buf, r->blen, 0 };
	uint64_t ts;
	uint32_t flags = 0, count;

	r->tc_ok = 0; /* the thread table changes */

	if (c_u64(&c, &ts) || (r->version >= 6 && c_u32(&c, &flags)) || c_u32(&c, &count)) {
		say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff, "SPBlock header runs past the block");
		goto out;
	}
	for (uint32_t k = 0; k < count; k++) {
		uint64_t at = r->boff + c.i, th, os;
		uint32_t seq;

		if (r->version >= 6 ? c_var(&c, &th, 10) || c_var32(&c, &seq) :
		                      c_u64(&c, &th) || c_u32(&c, &seq)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "sequence point entry %u of %u runs past the block", k, count);
			break;
		}
		if (r->version >= 6 && thread_os_id(r, th, &os))
			say(r, GCSPEC_DIAG_N013, UINT64_MAX, at, "sequence point names undefined thread index %llu",
			    (unsigned long long)th);
		sp_entry(r, th, seq, at);
	}
out:
	r->sync_pending = 1;
	/* A sequence point ends the region stack ids (and V6 label lists) live in. */
	r->nranges = 0;
	if (flags & 1)
		u64map_clear(r->threads);
	if (flags & 2)
		meta_reset(r);
}

static void read_thread_block(struct ntr_reader *r)
{
	struct cur c = { r->buf, r->blen, 0 };

	r->tc_ok = 0; /* the thread table changes */

	while (c.i < c.n) {
		uint64_t at = r->boff + c.i, index, tid = 0, v;
		const uint8_t *p;
		uint16_t size;
		struct cur row;

		if (c_get(&c, 2, &p) || (size = le16(p), c_get(&c, size, &p))) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "thread row runs past the block");
			return;
		}
		row = (struct cur){ p, size, 0 };
		if (c_var(&row, &index, 10)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "thread row index runs past the row");
			continue;
		}
		while (row.i < row.n) {
			uint8_t kind = row.p[row.i++];
			int bad = 0;

			if (kind == 2 || kind == 3) {
				bad = c_var(&row, &v, 10);
				if (kind == 3)
					tid = v;
			} else if (kind == 1 || kind == 4) {
				for (int s = 0; s < (kind == 4 ? 2 : 1) && !bad; s++)
					bad = c_var(&row, &v, 5) || c_get(&row, (size_t)v, &p);
			} else {
				break; /* unknown kind: size unknown, rest of row skipped */
			}
			if (bad) {
				say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "thread row info runs past the row");
				break;
			}
		}
		if (r->nthread_tids == r->capthread_tids) {
			size_t cap = r->capthread_tids ? r->capthread_tids * 2 : 16;
			uint64_t *q = realloc(r->thread_tids, cap * sizeof *q);

			if (!q)
				return;
			r->thread_tids = q;
			r->capthread_tids = cap;
		}
		r->thread_tids[r->nthread_tids] = tid;
		u64map_put(r->threads, index, (uint32_t)r->nthread_tids++);
	}
}

static void read_remove_block(struct ntr_reader *r)
{
	struct cur c = { r->buf, r->blen, 0 };

	r->tc_ok = 0; /* the thread table changes */

	while (c.i < c.n) {
		uint64_t at = r->boff + c.i, index, tid;
		uint32_t seq;
		uint64_t *slot;

		if (c_var(&c, &index, 10) || c_var32(&c, &seq)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "RemoveThread entry runs past the block");
			return;
		}
		if (thread_os_id(r, index, &tid))
			say(r, GCSPEC_DIAG_N013, UINT64_MAX, at, "RemoveThread names undefined thread index %llu",
			    (unsigned long long)index);
		sp_entry(r, index, seq, at);
		slot = u64map_get(r->threads, index);
		if (slot)
			*slot = UINT32_MAX; /* removed */
	}
}

/* EventBlock/MetadataBlock header; 0, or -1 when the block must be skipped. */
static int block_header(struct ntr_reader *r, enum kind k)
{
	uint16_t hs, flags;

	reset_deltas(r);
	r->pos = 0;
	if (r->blen < 4) {
		say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff, "%s shorter than its header", kind_name[k]);
		return -1;
	}
	hs = le16(r->buf);
	flags = le16(r->buf + 2);
	if (hs < 20) {
		say(r, GCSPEC_DIAG_N006, UINT64_MAX, r->boff, "%s HeaderSize %u is below 20", kind_name[k], hs);
		return -1;
	}
	if (hs > r->blen) {
		say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff, "%s HeaderSize %u runs past the block (%zu bytes)",
		    kind_name[k], hs, r->blen);
		return -1;
	}
	r->compressed = flags & 1;
	r->pos = hs;
	return 0;
}

/* --- framing: objects (V4/V5) and blocks (V6) ---------------------------------------------- */

static void dispatch(struct ntr_reader *r, enum kind k);

/* Read a block's content of declared size n at the current offset into buf. */
static int content(struct ntr_reader *r, uint64_t n, enum kind k)
{
	uint64_t at = r->off;

	r->boff = at;
	r->blen = fill(r, 0, (size_t)n);
	if (r->blen < n) {
		STOP(r, GCSPEC_DIAG_N003, r->off,
		     "file ends inside a %s: %llu of %llu bytes present (block at offset %llu)",
		     kind_name[k], (unsigned long long)r->blen, (unsigned long long)n,
		     (unsigned long long)at);
		/* Hand out the events that are complete before the cut. */
		if (k == K_EVENT || k == K_META) {
			r->partial = 1;
			dispatch(r, k);
		}
		return -1;
	}
	r->counts.blocks++;
	return 0;
}

static void dispatch(struct ntr_reader *r, enum kind k)
{
	r->in_events = 0;
	switch (k) {
	case K_EVENT:
		if (!block_header(r, k))
			r->in_events = 1;
		break;
	case K_META:
		if (r->version >= 6 || !block_header(r, k))
			read_meta_block(r);
		break;
	case K_STACK: read_stack_block(r); break;
	case K_SP: read_sp_block(r); break;
	case K_THREAD: read_thread_block(r); break;
	case K_REMOVE: read_remove_block(r); break;
	default: break; /* label lists: references to them are not checked */
	}
}

/* One V4/V5 object after the Trace object. 0 to go on, -1 at the end. */
static int next_object(struct ntr_reader *r)
{
	uint64_t at = r->off;
	uint32_t ver, minver, len, size;
	char name[MAX_NAME + 1];
	enum kind k;
	uint8_t tag;

	if (fill(r, 0, 1) < 1)
		return STOP(r, GCSPEC_DIAG_N004, at, "file ends after the last object without the NullReference end tag");
	tag = r->buf[0];
	if (tag == 1) {
		if (fill(r, 0, 1) == 1)
			say(r, GCSPEC_DIAG_N021, UINT64_MAX, at + 1, "bytes follow the NullReference end tag");
		r->done = 1;
		return -1;
	}
	if (tag != 5)
		return STOP(r, GCSPEC_DIAG_N008, at, "expected BeginPrivateObject (5) or NullReference (1), found %u", tag);
	if (need(r, 14, "an object's type header"))
		return -1;
	if (r->buf[0] != 5 || r->buf[1] != 1)
		return STOP(r, GCSPEC_DIAG_N008, at + 1, "type object must begin 5 1 (BeginPrivateObject, NullReference)");
	ver = le32(r->buf + 2);
	minver = le32(r->buf + 6);
	len = le32(r->buf + 10);
	if (len > MAX_NAME)
		return STOP(r, GCSPEC_DIAG_N005, at + 11, "type name length %d is negative or larger than %d",
		            (int32_t)len, MAX_NAME);
	if (need(r, len + 1, "an object's type name"))
		return -1;
	memcpy(name, r->buf, len);
	name[len] = 0;
	if (r->buf[len] != 6)
		return STOP(r, GCSPEC_DIAG_N008, r->off - 1, "type object of %s lacks its EndObject tag", name);
	if (!strcmp(name, "EventBlock"))
		k = K_EVENT;
	else if (!strcmp(name, "MetadataBlock"))
		k = K_META;
	else if (!strcmp(name, "StackBlock"))
		k = K_STACK;
	else if (!strcmp(name, "SPBlock"))
		k = K_SP;
	else
		return STOP(r, GCSPEC_DIAG_N008, at, "unknown object type \"%s\" (its layout is unknown: cannot skip)", name);
	/* Block types are version 2; a higher minimum reader version is a
	 * format we do not know. */
	if ((int32_t)minver > 2 || (int32_t)minver < 0 || (int32_t)ver < 2)
		return STOP(r, GCSPEC_DIAG_N016, at + 3, "%s version %d, minimum reader version %d: this reader reads version 2",
		            name, (int32_t)ver, (int32_t)minver);
	if (need(r, 4, "a BlockSize"))
		return -1;
	size = le32(r->buf);
	if (size > MAX_V5_BLOCK)
		return STOP(r, GCSPEC_DIAG_N005, r->off - 4, "%s BlockSize %d is negative or too large", name, (int32_t)size);
	{
		size_t pad = (size_t)((4 - (r->off & 3)) & 3);
		uint64_t pat = r->off;

		if (pad && need(r, pad, "alignment padding"))
			return -1;
		for (size_t i = 0; i < pad; i++)
			if (r->buf[i]) {
				say(r, GCSPEC_DIAG_N007, UINT64_MAX, pat + i, "nonzero alignment padding before %s content", name);
				break;
			}
	}
	if (content(r, size, k))
		return -1;
	{
		uint64_t end = r->off;
		uint8_t t;

		/* The end tag is read past the content: keep the content intact. */
		if (fread(&t, 1, 1, r->in) != 1) {
			STOP(r, GCSPEC_DIAG_N003, end, "file ends before the EndObject tag of a %s", name);
			r->partial = 1; /* the content is whole: hand its events out */
			dispatch(r, k);
			return -1;
		}
		r->off++;
		if (t != 6)
			return STOP(r, GCSPEC_DIAG_N008, end, "%s content is not followed by EndObject (6) but %u", name, t);
	}
	dispatch(r, k);
	return 0;
}

/* One V6 block after the Trace block. 0 to go on, -1 at the end. */
static int next_block(struct ntr_reader *r)
{
	static const enum kind kinds[] = { K_OTHER, K_TRACE, K_EVENT, K_META, K_SP,
	                                   K_STACK, K_THREAD, K_REMOVE, K_LABEL };
	uint64_t at = r->off;
	uint32_t h, size, kind;

	if (fill(r, 0, 4) < 4) {
		if (r->off == at)
			return STOP(r, GCSPEC_DIAG_N004, at, "file ends after the last block without an EndOfStream block");
		return STOP(r, GCSPEC_DIAG_N003, r->off, "file ends inside a block header at offset %llu", (unsigned long long)at);
	}
	h = le32(r->buf);
	size = h & 0xffffff;
	kind = h >> 24;
	if (kind == 0) {
		uint8_t t;

		if (size && content(r, size, K_OTHER))
			return -1;
		if (fread(&t, 1, 1, r->in) == 1)
			say(r, GCSPEC_DIAG_N021, UINT64_MAX, r->off, "bytes follow the EndOfStream block");
		r->done = 1;
		return -1;
	}
	if (kind >= sizeof kinds / sizeof kinds[0] || kinds[kind] == K_TRACE) {
		if (content(r, size, K_OTHER))
			return -1;
		if (kinds[kind < sizeof kinds / sizeof kinds[0] ? kind : 0] == K_TRACE)
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, at, "a second Trace block, ignored");
		else
			say(r, GCSPEC_DIAG_N009, UINT64_MAX, at, "block kind %u (%u bytes) skipped", kind, size);
		r->counts.unknown_blocks++;
		return 0;
	}
	if (content(r, size, kinds[kind]))
		return -1;
	dispatch(r, kinds[kind]);
	return 0;
}

/* --- public -------------------------------------------------------------------------------- */

int ntr_probe(const uint8_t *head, size_t len)
{
	/* A damaged magic is still a nettrace file when the rest says so (the
	 * V4/V5 serialization signature follows), so ntr_open can say GC-N001
	 * rather than the file being no format at all. */
	return (len >= 8 && !memcmp(head, "Nettrace", 8)) ||
	       (len >= 32 && !memcmp(head + 8, "\x14\0\0\0!FastSerialization.1", 24)) ||
	       (len >= 24 && !memcmp(head, "\x14\0\0\0!FastSerialization.1", 24)) ||
	       (len >= 8 && !strncasecmp((const char *)head, "Nettrace", 8));
}

static void set_pointer_size(struct ntr_reader *r, uint32_t ps, uint64_t at)
{
	r->pointer_size = ps;
	if (ps != 4 && ps != 8)
		say(r, GCSPEC_DIAG_N018, UINT64_MAX, at, "pointer size %u (must be 4 or 8)", ps);
}

/* NetPerf (Trace versions 1-3, .NET Core 2.x) is the same serialization
 * without the "Nettrace" magic in front. Its events are laid out otherwise
 * (no blocks of compressed headers), so it is refused by name, with the
 * Trace version when the header gets that far. buf holds the first 12 bytes. */
static int refuse_netperf(struct ntr_reader *r)
{
	size_t got = fill(r, 12, 19); /* to the Trace version */

	if (got == 19 && !memcmp(r->buf + 12, "ialization.1", 12) && (r->buf[24] | 1) == 5 &&
	    (r->buf[25] | 1) == 5 && r->buf[26] == 1)
		return STOP(r, GCSPEC_DIAG_N016, 0,
		            "a netperf file (serialization header without the \"Nettrace\" magic, Trace version %d): "
		            "this reader reads nettrace 4-6, not netperf 1-3", (int32_t)le32(r->buf + 27));
	return STOP(r, GCSPEC_DIAG_N016, 0,
	            "a netperf file (serialization header without the \"Nettrace\" magic): "
	            "this reader reads nettrace 4-6, not netperf 1-3");
}

static int open_v5(struct ntr_reader *r, struct or_stream_info *info)
{
	uint64_t at;

	if (need(r, 20, "the serialization header"))
		return -1;
	if (memcmp(r->buf, "!FastSerialization.1", 20))
		return STOP(r, GCSPEC_DIAG_N002, 12, "serialization header is not \"!FastSerialization.1\"");
	at = r->off;
	if (need(r, 19, "the Trace object's header"))
		return -1;
	if (r->buf[0] != 5 || r->buf[1] != 5 || r->buf[2] != 1)
		return STOP(r, GCSPEC_DIAG_N008, at, "the Trace object does not begin 5 5 1");
	if (le32(r->buf + 11) != 5 || memcmp(r->buf + 15, "Trac", 4))
		return STOP(r, GCSPEC_DIAG_N008, at + 11, "the first object is not of type \"Trace\"");
	{
		int32_t ver = (int32_t)le32(r->buf + 3), minver = (int32_t)le32(r->buf + 7);

		if (ver < 4 || minver > 5 || minver < 0)
			return STOP(r, GCSPEC_DIAG_N016, at + 3,
			            "Trace version %d, minimum reader version %d: this reader reads nettrace 4 and 5, not netperf 1-3",
			            ver, minver);
	}
	if (need(r, 2 + 48 + 1, "the Trace object"))
		return -1;
	if (r->buf[0] != 'e' || r->buf[1] != 6)
		return STOP(r, GCSPEC_DIAG_N008, at + 19, "the Trace type object lacks its name end or EndObject tag");
	{
		const uint8_t *p = r->buf + 2;

		info->start_ticks = le64(p + 16);
		info->clock_frequency = le64(p + 24);
		set_pointer_size(r, le32(p + 32), at + 21 + 32);
		info->process_id = le32(p + 36);
		if (p[48] != 6)
			return STOP(r, GCSPEC_DIAG_N008, at + 21 + 48, "the Trace object lacks its EndObject tag");
	}
	r->version = 5;
	return 0;
}

static int open_v6(struct ntr_reader *r, struct or_stream_info *info)
{
	uint32_t major = le32(r->buf + 4), minor = le32(r->buf + 8), h, size, kv;
	struct cur c;

	if (major != 6)
		return STOP(r, GCSPEC_DIAG_N016, 12, "major version %u: this reader reads major version 6", major);
	if (minor)
		say(r, GCSPEC_DIAG_N017, UINT64_MAX, 16, "minor version %u: read as 6.0", minor);
	r->version = 6;
	if (need(r, 4, "the Trace block header"))
		return -1;
	h = le32(r->buf);
	size = h & 0xffffff;
	if (h >> 24 != 1)
		return STOP(r, GCSPEC_DIAG_N008, 20, "the first block is kind %u, not Trace (1)", h >> 24);
	if (content(r, size, K_TRACE))
		return -1;
	c = (struct cur){ r->buf, r->blen, 16 };
	{
		uint64_t ticks, freq;
		uint32_t ps;

		if (c_u64(&c, &ticks) || c_u64(&c, &freq) || c_u32(&c, &ps) || c_u32(&c, &kv))
			return STOP(r, GCSPEC_DIAG_N019, r->boff, "Trace block shorter than its fixed fields");
		info->start_ticks = ticks;
		info->clock_frequency = freq;
		set_pointer_size(r, ps, r->boff + 32);
	}
	for (uint32_t i = 0; i < kv; i++) {
		const uint8_t *k, *v;
		uint64_t kl, vl;

		if (c_var(&c, &kl, 5) || c_get(&c, (size_t)kl, &k) ||
		    c_var(&c, &vl, 5) || c_get(&c, (size_t)vl, &v)) {
			say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff + c.i, "Trace key/value %u runs past the block", i);
			break;
		}
		if (kl == 9 && !memcmp(k, "ProcessId", 9)) {
			char t[24];
			size_t n = vl < sizeof t - 1 ? (size_t)vl : sizeof t - 1;

			memcpy(t, v, n);
			t[n] = 0;
			info->process_id = (uint32_t)strtoul(t, NULL, 10);
		}
	}
	return 0;
}

struct ntr_reader *ntr_open(FILE *in, ntr_report_fn report, void *arg,
                            struct or_stream_info *info)
{
	struct ntr_reader *r = calloc(1, sizeof *r);
	int rc;

	if (!r)
		return NULL;
	r->in = in;
	r->report = report;
	r->arg = arg;
	memset(info, 0, sizeof *info);
	info->format = "nettrace";
	if (!(r->pool = or_blockpool_new())) {
		free(r);
		return NULL;
	}
	/* No entry limit: an entry per thread or metadata id the file defines. */
	if (!(r->meta_map = u64map_new(SIZE_MAX)) || !(r->threads = u64map_new(SIZE_MAX)) ||
	    !(r->seqs = u64map_new(SIZE_MAX)))
		goto fail;
	if (need(r, 12, "the stream header"))
		goto fail;
	if (!memcmp(r->buf, "\x14\0\0\0!FastSer", 12)) {
		refuse_netperf(r);
		goto fail;
	}
	if (memcmp(r->buf, "Nettrace", 8)) {
		STOP(r, GCSPEC_DIAG_N001, 0, "file does not start with \"Nettrace\"");
		goto fail;
	}
	/* V4/V5 follow with the length 20; V6 with Reserved = 0. */
	if (le32(r->buf + 8) == 20) {
		rc = open_v5(r, info);
	} else if (le32(r->buf + 8) == 0) {
		if (need(r, 8, "the V6 version header"))
			goto fail;
		memmove(r->buf + 4, r->buf, 8);
		memset(r->buf, 0, 4);
		rc = open_v6(r, info);
	} else {
		STOP(r, GCSPEC_DIAG_N002, 8, "after the magic: neither the length 20 of \"!FastSerialization.1\" nor V6 Reserved = 0 (found %u)",
		     le32(r->buf + 8));
		goto fail;
	}
	if (rc)
		goto fail;
	info->format_version = r->version;
	info->unordered = 1; /* events come grouped by thread within a block */
	info->pointer_size = (uint8_t)r->pointer_size;
	r->process = info->process_id;
	return r;
fail:
	ntr_close(r);
	return NULL;
}

/* Everything but the ordinary event: other rows, the end of a block, the
 * next block. Out of line, so that the common case stays small. */
static NTR_NOINLINE enum or_status next_slow(struct ntr_reader *r, struct or_event *ev)
{
	for (;;) {
		if (r->in_events && r->pos < r->blen) {
			struct row w;
			const char *why;
			const struct meta *m;
			uint64_t tid = 0, ctid = 0;

			if (fast_event(r, ev))
				return OR_EVENT;
			if (parse_row(r, &w, &why)) {
				say(r, GCSPEC_DIAG_N019, UINT64_MAX, r->boff + r->pos,
				    "EventBlock: %s; rest of the block skipped", why);
				r->in_events = 0;
				continue;
			}
			if (w.meta == 0) {
				say(r, GCSPEC_DIAG_N011, r->index, w.off, "event with metadata id 0 in an EventBlock");
				r->counts.events_skipped++;
				continue;
			}
			m = meta_of(r, w.meta);
			if (!m) {
				say(r, GCSPEC_DIAG_N010, r->index, w.off, "event refers to undefined metadata id %u", w.meta);
				r->counts.events_skipped++;
				continue;
			}
			if (w.stack && !stack_defined(r, w.stack))
				say(r, GCSPEC_DIAG_N012, r->index, w.off, "event refers to stack id %u, not defined since the last sequence point",
				    w.stack);
			if (r->version >= 6) {
				if (event_thread(r, w.tid, &tid))
					say(r, GCSPEC_DIAG_N013, r->index, w.off, "event refers to undefined thread index %llu",
					    (unsigned long long)w.tid);
				if (w.ctid != w.tid && thread_os_id(r, w.ctid, &ctid))
					say(r, GCSPEC_DIAG_N013, r->index, w.off, "event's capture thread index %llu is undefined",
					    (unsigned long long)w.ctid);
				if (w.ctid == w.tid)
					ctid = tid;
			} else {
				tid = w.tid;
				ctid = w.ctid;
			}
			check_seq(r, w.ctid, w.seq, w.off);
			ev->model_fields = NULL;
			ev->model_fields_len = 0;
			ev->index = r->index++;
			ev->offset = w.off;
			ev->payload_offset = w.payload_off;
			ev->timestamp = w.ts;
			ev->thread_id = tid;
			ev->writer_thread = ctid;
			ev->provider = m->provider;
			ev->provider_name = m->provider_name;
			ev->id = m->id;
			ev->version = m->version;
			ev->level = m->level;
			ev->opcode = m->opcode;
			ev->keywords = m->keywords;
			ev->payload = w.payload;
			ev->payload_len = w.len;
			ev->block = r->blk;
			ev->cls = m->cls;
			ev->pointer_size = 0;
			ev->process = r->process;
			r->counts.events++;
			return OR_EVENT;
		}
		r->in_events = 0;
		if (r->sync_pending) {
			r->sync_pending = 0;
			return OR_SYNC;
		}
		if (r->done)
			return OR_END;
		if (r->version >= 6 ? next_block(r) : next_object(r)) {
			if (r->in_events)
				continue; /* a truncated EventBlock: drain what is whole */
			return OR_END;
		}
	}
}

enum or_status ntr_next(struct ntr_reader *r, struct or_event *ev)
{
	if (r->in_events && r->pos < r->blen &&
	    (r->version >= 6 ? fast_event_v(r, ev, 1) : fast_event_v(r, ev, 0)))
		return OR_EVENT;
	return next_slow(r, ev);
}

void ntr_counts(const struct ntr_reader *r, struct ntr_counts *c)
{
	*c = r->counts;
}

void ntr_close(struct ntr_reader *r)
{
	if (!r)
		return;
	if (r->blk)
		or_block_drop(r->blk);
	or_blockpool_close(r->pool);
	free(r->metas);
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	free(r->names);
	free(r->ranges);
	free(r->thread_tids);
	u64map_free(r->meta_map);
	free(r->meta_ix);
	u64map_free(r->threads);
	u64map_free(r->seqs);
	free(r);
}
