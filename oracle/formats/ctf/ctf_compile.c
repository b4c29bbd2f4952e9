/*
 * ctf_compile.c - turn the metadata's types into the nodes the reader
 * decodes: one node per place a type is used, with sequence lengths and
 * variant tags resolved to value slots (CTF 1.8 section 7.3.2: relative
 * paths look in the enclosing structs, then in the earlier scopes; absolute
 * paths name a scope), the fields the reader needs marked with a role, and
 * each node's static size when it has one (what the fast paths rely on).
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_read_i.h"
#include "oracle/formats/ctf/ctf_report.h"

#define MAX_DEPTH 64

struct entry {
	const char *name;
	int32_t node;
};

struct comp {
	struct ctfr_reader *r;
	enum cn_scope scope;
	int32_t roots[S_NSCOPES];
	struct entry *st;          /* the fields of the structs being compiled */
	size_t nst, capst;
	size_t frame[MAX_DEPTH];   /* where each open struct's fields start in st */
	unsigned nframes;
	uint32_t text_off;
	int failed;
};

const char *ctfr_field_name(const char *name)
{
	return name && name[0] == '_' ? name + 1 : name ? name : "";
}

/* Report GC-C005 once (at the scope or class being compiled). */
#define FAIL(c, ...) do { \
	if (!(c)->failed) { \
		(c)->failed = 1; \
		ctfr_report((c)->r, GCSPEC_DIAG_C005, UINT64_MAX, \
		            ctfr_text_offset((c)->r, (c)->text_off), __VA_ARGS__); \
	} \
} while (0)

static int32_t new_node(struct comp *c)
{
	struct ctfr_reader *r = c->r;
	struct cnode *n;

	if (r->nnodes == r->capnodes) {
		size_t cap = r->capnodes ? 2 * r->capnodes : 256;
		struct cnode *m = realloc(r->nodes, cap * sizeof *m);

		if (!m) {
			FAIL(c, "out of memory");
			return -1;
		}
		r->nodes = m;
		r->capnodes = cap;
	}
	n = &r->nodes[r->nnodes];
	memset(n, 0, sizeof *n);
	n->slot = n->ref = n->elem = -1;
	return (int32_t)r->nnodes++;
}

static int push_entry(struct comp *c, const char *name, int32_t node)
{
	if (c->nst == c->capst) {
		size_t cap = c->capst ? 2 * c->capst : 64;
		struct entry *m = realloc(c->st, cap * sizeof *m);

		if (!m) {
			FAIL(c, "out of memory");
			return -1;
		}
		c->st = m;
		c->capst = cap;
	}
	c->st[c->nst++] = (struct entry){ name, node };
	return 0;
}

/* The child called name of a compiled struct or variant node, or -1. */
static int32_t child(const struct ctfr_reader *r, int32_t node, const char *name, size_t n)
{
	const struct cnode *x = &r->nodes[node];

	if (x->kind != CK_STRUCT && x->kind != CK_VARIANT)
		return -1;
	for (uint32_t i = 0; i < x->nkids; i++) {
		const char *k = r->nodes[r->kids[x->kids + i]].name;

		if (k && strlen(k) == n && strncmp(k, name, n) == 0)
			return (int32_t)r->kids[x->kids + i];
	}
	return -1;
}

/* Follow ".b.c" from node. */
static int32_t descend(const struct ctfr_reader *r, int32_t node, const char *rest)
{
	while (node >= 0 && *rest == '.') {
		size_t n;

		rest++;
		n = strcspn(rest, ".");
		node = child(r, node, rest, n);
		rest += n;
	}
	return *rest ? -1 : node;
}

/* The slot of the integer a sequence length or variant tag path names. */
static int32_t resolve(struct comp *c, const char *path)
{
	static const struct {
		const char *prefix;
		enum cn_scope scope;
	} abs[] = {
		{ "trace.packet.header", S_PKT_HEADER }, { "stream.packet.context", S_PKT_CONTEXT },
		{ "stream.event.header", S_EV_HEADER }, { "stream.event.context", S_EV_SCONTEXT },
		{ "event.context", S_EV_CONTEXT }, { "event.fields", S_EV_FIELDS },
	};
	struct ctfr_reader *r = c->r;
	int32_t node = -1;
	size_t n;
	const char *rest;

	for (unsigned i = 0; i < sizeof abs / sizeof abs[0]; i++) {
		size_t k = strlen(abs[i].prefix);

		if (strncmp(path, abs[i].prefix, k) != 0 || path[k] != '.')
			continue;
		path += k + 1;
		n = strcspn(path, ".");
		if (abs[i].scope == c->scope) {
			/* The scope being compiled: its root's fields so far. */
			for (size_t e = c->nframes ? c->frame[0] : 0; e < c->nst && node < 0; e++)
				if (c->st[e].name && strlen(c->st[e].name) == n &&
				    strncmp(c->st[e].name, path, n) == 0)
					node = c->st[e].node;
			node = node >= 0 ? descend(r, node, path + n) : -1;
		} else if (c->roots[abs[i].scope] >= 0) {
			node = descend(r, c->roots[abs[i].scope], path - 1);
		}
		goto found;
	}
	n = strcspn(path, ".");
	rest = path + n;
	/* Relative: the enclosing structs, innermost first, latest field first. */
	for (size_t e = c->nst; e-- > 0 && node < 0;)
		if (c->st[e].name && strlen(c->st[e].name) == n && strncmp(c->st[e].name, path, n) == 0)
			node = descend(r, c->st[e].node, rest);
	/* Then the scopes decoded before this one. */
	for (int s = (int)c->scope - 1; s >= 0 && node < 0; s--)
		if (c->roots[s] >= 0) {
			int32_t k = child(r, c->roots[s], path, n);

			node = k >= 0 ? descend(r, k, rest) : -1;
		}
found:
	if (node < 0 || (r->nodes[node].kind != CK_INT && r->nodes[node].kind != CK_ENUM)) {
		FAIL(c, "'%s' names no integer field before it", path);
		return -1;
	}
	if (r->nodes[node].slot < 0)
		r->nodes[node].slot = (int32_t)r->nslots++;
	return r->nodes[node].slot;
}

static uint8_t role_of(const struct comp *c, const char *declared, uint8_t kind)
{
	static const struct {
		enum cn_scope scope;
		const char *name;
		uint8_t role;
	} roles[] = {
		{ S_PKT_HEADER, "magic", R_MAGIC }, { S_PKT_HEADER, "uuid", R_UUID },
		{ S_PKT_HEADER, "stream_id", R_STREAM_ID },
		{ S_PKT_CONTEXT, "timestamp_begin", R_TS_BEGIN }, { S_PKT_CONTEXT, "timestamp_end", R_TS_END },
		{ S_PKT_CONTEXT, "content_size", R_CONTENT_SIZE },
		{ S_PKT_CONTEXT, "packet_size", R_PACKET_SIZE },
		{ S_PKT_CONTEXT, "events_discarded", R_DISCARDED },
		{ S_PKT_CONTEXT, "packet_seq_num", R_SEQ_NUM }, { S_PKT_CONTEXT, "cpu_id", R_CPU_ID },
		{ S_EV_SCONTEXT, "vpid", R_VPID }, { S_EV_SCONTEXT, "vtid", R_VTID },
	};
	const char *name = ctfr_field_name(declared);

	/* The event id may sit anywhere in the header (LTTng: v.extended.id). */
	if (c->scope == S_EV_HEADER)
		return (kind == CK_INT || kind == CK_ENUM) && strcmp(name, "id") == 0 ? R_EVENT_ID : R_NONE;
	if (c->nframes != 1)
		return R_NONE;
	for (unsigned i = 0; i < sizeof roles / sizeof roles[0]; i++)
		if (roles[i].scope == c->scope && strcmp(roles[i].name, name) == 0)
			return (kind == CK_INT || kind == CK_ENUM) || (roles[i].role == R_UUID && kind == CK_ARRAY)
				? roles[i].role : R_NONE;
	return R_NONE;
}

static int32_t compile(struct comp *c, int32_t type, const char *name, unsigned depth);

static int compile_fields(struct comp *c, const struct ctf_type *t, int32_t node, unsigned depth)
{
	struct ctfr_reader *r = c->r;
	size_t base = c->nst;
	uint32_t first;

	if (c->nframes == MAX_DEPTH) {
		FAIL(c, "structs nested too deep");
		return -1;
	}
	c->frame[c->nframes++] = base;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct ctf_field *f = &r->meta.fields[t->first + i];
		int32_t k = compile(c, f->type, f->name, depth + 1);

		if (k < 0 || push_entry(c, f->name, k) < 0) {
			c->nframes--;
			return -1;
		}
	}
	c->nframes--;
	if (r->nkids + t->n > r->capkids) {
		size_t cap = r->capkids ? 2 * r->capkids : 256;
		uint32_t *m;

		while (cap < r->nkids + t->n)
			cap *= 2;
		if (!(m = realloc(r->kids, cap * sizeof *m))) {
			FAIL(c, "out of memory");
			return -1;
		}
		r->kids = m;
		r->capkids = cap;
	}
	first = (uint32_t)r->nkids;
	for (size_t i = base; i < c->nst; i++)
		r->kids[r->nkids++] = (uint32_t)c->st[i].node;
	c->nst = base;
	r->nodes[node].kids = first;
	r->nodes[node].nkids = t->n;
	return 0;
}

/* Variant: which child each tag value selects, by the tag enum's labels. */
static int compile_vsel(struct comp *c, int32_t node, int32_t tag_slot)
{
	struct ctfr_reader *r = c->r;
	const struct ctf_type *tag = NULL;

	for (size_t i = 0; i < r->nnodes; i++)
		if (r->nodes[i].slot == tag_slot)
			tag = &r->meta.types[r->nodes[i].type];
	if (!tag || tag->kind != CK_ENUM) {
		FAIL(c, "a variant's tag must be an enum");
		return -1;
	}
	r->nodes[node].vsel = (uint32_t)r->nvsel;
	for (uint32_t m = 0; m < tag->n; m++) {
		const struct ctf_enum_map *em = &r->meta.maps[tag->first + m];
		int32_t k = child(r, node, em->name, strlen(em->name));

		if (k < 0)
			continue; /* a label without an option: decoding it fails */
		if (r->nvsel == r->capvsel) {
			size_t cap = r->capvsel ? 2 * r->capvsel : 64;
			struct cvsel *v = realloc(r->vsel, cap * sizeof *v);

			if (!v) {
				FAIL(c, "out of memory");
				return -1;
			}
			r->vsel = v;
			r->capvsel = cap;
		}
		for (uint32_t o = 0; o < r->nodes[node].nkids; o++)
			if ((int32_t)r->kids[r->nodes[node].kids + o] == k)
				r->vsel[r->nvsel++] = (struct cvsel){ em->lo, em->hi, o };
	}
	r->nodes[node].nvsel = (uint32_t)(r->nvsel - r->nodes[node].vsel);
	return 0;
}

static int32_t compile(struct comp *c, int32_t type, const char *name, unsigned depth)
{
	struct ctfr_reader *r = c->r;
	const struct ctf_type *t = &r->meta.types[type];
	int32_t node;
	struct cnode *n;

	if (depth > MAX_DEPTH) {
		FAIL(c, "types nested too deep");
		return -1;
	}
	if ((node = new_node(c)) < 0)
		return -1;
	n = &r->nodes[node];
	n->kind = t->kind;
	n->be = (uint8_t)ctf_type_be(&r->meta, t);
	n->is_signed = t->is_signed;
	n->size = t->size;
	n->align = t->align ? t->align : 1;
	n->name = name;
	n->type = type;
	n->length = t->length;
	n->role = role_of(c, name, t->kind);
	switch (t->kind) {
	case CK_INT:
	case CK_ENUM:
		n->clock_update = (c->scope == S_EV_HEADER && t->clock >= 0) ||
				  (c->scope == S_PKT_CONTEXT && n->role == R_TS_BEGIN);
		if (t->kind == CK_ENUM) {
			const struct ctf_type *ct = &r->meta.types[t->elem];

			n->clock_update = c->scope == S_EV_HEADER && ct->clock >= 0;
		}
		/* fall through */
	case CK_FLOAT:
		n->fixed = n->size % 8 == 0 && n->align <= 8 && (!n->be || n->size == 8);
		n->fixed_bits = n->size;
		break;
	case CK_STRING:
		n->align = 8;
		break;
	case CK_STRUCT:
		if (compile_fields(c, t, node, depth) < 0)
			return -1;
		n = &r->nodes[node];
		n->fixed = n->align <= 8;
		for (uint32_t i = 0; i < n->nkids; i++) {
			const struct cnode *k = &r->nodes[r->kids[n->kids + i]];

			n->fixed &= k->fixed;
			n->fixed_bits += k->fixed_bits;
		}
		break;
	case CK_VARIANT: {
		int32_t tag;

		if (!t->ref) {
			FAIL(c, "a variant without a tag");
			return -1;
		}
		if ((tag = resolve(c, t->ref)) < 0 || compile_fields(c, t, node, depth) < 0 ||
		    compile_vsel(c, node, tag) < 0)
			return -1;
		n = &r->nodes[node];
		n->ref = tag;
		n->align = 1;
		break;
	}
	case CK_ARRAY:
	case CK_SEQUENCE: {
		int32_t len = -1, e;

		if (t->kind == CK_SEQUENCE && (len = resolve(c, t->ref)) < 0)
			return -1;
		if ((e = compile(c, t->elem, name, depth + 1)) < 0)
			return -1;
		n = &r->nodes[node];
		n->elem = e;
		n->ref = len;
		n->align = r->nodes[e].align;
		/* Elements are not fields of their own: no roles. */
		r->nodes[e].role = R_NONE;
		if (t->kind == CK_ARRAY && r->nodes[e].fixed && r->nodes[e].fixed_bits &&
		    t->length <= (UINT64_MAX / 2) / r->nodes[e].fixed_bits) {
			n->fixed = 1;
			n->fixed_bits = t->length * r->nodes[e].fixed_bits;
		}
		break;
	}
	default:
		FAIL(c, "unknown type");
		return -1;
	}
	return node;
}

/* Compile a scope's root type (a struct), or -1 when there is none. */
static int compile_root(struct comp *c, enum cn_scope scope, int32_t type, uint32_t text_off,
			int32_t *out)
{
	*out = -1;
	c->scope = scope;
	c->text_off = text_off;
	c->nst = 0;
	c->nframes = 0;
	if (type < 0)
		return 0;
	c->text_off = c->r->meta.types[type].text_off;
	*out = compile(c, type, NULL, 0);
	c->roots[scope] = *out;
	return *out < 0 ? -1 : 0;
}

/* Is this event header LTTng's event_header_large, little-endian? */
static int is_large_header(const struct ctfr_reader *r, int32_t h)
{
	const struct cnode *n = &r->nodes[h], *id, *v, *cp, *ex;
	int32_t oc, oe;

	if (n->kind != CK_STRUCT || n->align > 8 || n->nkids != 2)
		return 0;
	id = &r->nodes[r->kids[n->kids]];
	v = &r->nodes[r->kids[n->kids + 1]];
	if (id->kind != CK_ENUM || id->size != 16 || !id->fixed || id->be || id->role != R_EVENT_ID ||
	    v->kind != CK_VARIANT || v->ref != id->slot || id->clock_update)
		return 0;
	oc = child(r, r->kids[n->kids + 1], "compact", 7);
	oe = child(r, r->kids[n->kids + 1], "extended", 8);
	if (oc < 0 || oe < 0)
		return 0;
	cp = &r->nodes[oc];
	ex = &r->nodes[oe];
	if (cp->kind != CK_STRUCT || cp->nkids != 1 || ex->kind != CK_STRUCT || ex->nkids != 2 ||
	    cp->align > 8 || ex->align > 8)
		return 0;
	{
		const struct cnode *cts = &r->nodes[r->kids[cp->kids]];
		const struct cnode *eid = &r->nodes[r->kids[ex->kids]];
		const struct cnode *ets = &r->nodes[r->kids[ex->kids + 1]];

		if (cts->kind != CK_INT || cts->size != 32 || !cts->fixed || !cts->clock_update ||
		    eid->kind != CK_INT || eid->size != 32 || !eid->fixed || eid->role != R_EVENT_ID ||
		    ets->kind != CK_INT || ets->size != 64 || !ets->fixed || !ets->clock_update)
			return 0;
	}
	/* 65535 selects extended, everything else compact. */
	for (uint32_t i = 0; i < v->nvsel; i++) {
		const struct cvsel *s = &r->vsel[v->vsel + i];
		int32_t opt = (int32_t)r->kids[v->kids + s->option];

		if ((opt == oe) != (s->lo == 65535 && s->hi == 65535))
			return 0;
		if (opt == oc && !(s->lo == 0 && s->hi == 65534))
			return 0;
	}
	return v->nvsel == 2;
}

/* A fixed event context: where vpid and vtid sit. */
static void fast_context(struct ctfr_reader *r, struct csclass *sc)
{
	const struct cnode *n;
	uint64_t at = 0;

	sc->vpid_at = sc->vtid_at = -1;
	if (sc->ectx < 0) {
		sc->fast_ctx = 1;
		sc->ctx_bytes = 0;
		return;
	}
	n = &r->nodes[sc->ectx];
	if (!n->fixed || n->fixed_bits > 8 * 4096)
		return;
	for (uint32_t i = 0; i < n->nkids; i++) {
		const struct cnode *k = &r->nodes[r->kids[n->kids + i]];

		if (k->role == R_VPID || k->role == R_VTID) {
			if (k->kind != CK_INT || k->size != 32)
				return;
			*(k->role == R_VPID ? &sc->vpid_at : &sc->vtid_at) = (int32_t)(at / 8);
		}
		if (k->slot >= 0)
			return; /* something refers to it: the generic path stores it */
		at += k->fixed_bits;
	}
	sc->fast_ctx = 1;
	sc->ctx_bytes = (uint32_t)(n->fixed_bits / 8);
}

int ctfr_compile(struct ctfr_reader *r)
{
	struct ctf_meta *m = &r->meta;
	struct comp c;
	int rc = -1;

	memset(&c, 0, sizeof c);
	c.r = r;
	for (int s = 0; s < S_NSCOPES; s++)
		c.roots[s] = -1;
	r->sclasses = calloc(m->nstreams, sizeof *r->sclasses);
	r->classes = calloc(m->nevents ? m->nevents : 1, sizeof *r->classes);
	if (!r->sclasses || !r->classes) {
		FAIL(&c, "out of memory");
		goto out;
	}
	if (compile_root(&c, S_PKT_HEADER, m->packet_header, 0, &r->pkt_header) < 0)
		goto out;
	for (size_t s = 0; s < m->nstreams; s++) {
		const struct ctf_stream_class *st = &m->streams[s];
		struct csclass *sc = &r->sclasses[s];
		uint64_t max_id = 0;
		int any = 0;

		for (int k = S_PKT_CONTEXT; k < S_NSCOPES; k++)
			c.roots[k] = -1;
		if (compile_root(&c, S_PKT_CONTEXT, st->packet_context, st->text_off, &sc->pctx) < 0 ||
		    compile_root(&c, S_EV_HEADER, st->event_header, st->text_off, &sc->ehdr) < 0 ||
		    compile_root(&c, S_EV_SCONTEXT, st->event_context, st->text_off, &sc->ectx) < 0)
			goto out;
		sc->fast_hdr = sc->ehdr >= 0 && is_large_header(r, sc->ehdr);
		fast_context(r, sc);
		for (size_t e = 0; e < m->nevents; e++) {
			const struct ctf_event_class *ec = &m->events[e];
			struct cclass *cc = &r->classes[e];

			if (ec->stream_id != st->id)
				continue;
			c.roots[S_EV_CONTEXT] = c.roots[S_EV_FIELDS] = -1;
			cc->ec = ec;
			if (compile_root(&c, S_EV_CONTEXT, ec->context, ec->text_off, &cc->ctx) < 0 ||
			    compile_root(&c, S_EV_FIELDS, ec->fields, ec->text_off, &cc->fields) < 0)
				goto out;
			if (!any || ec->id > max_id)
				max_id = ec->id;
			any = 1;
		}
		if (any && max_id >= (1u << 20)) {
			c.text_off = st->text_off;
			FAIL(&c, "event ids above 2^20 are not supported");
			goto out;
		}
		sc->nby_id = any ? (size_t)max_id + 1 : 0;
		if (any && !(sc->by_id = calloc(sc->nby_id, sizeof *sc->by_id))) {
			FAIL(&c, "out of memory");
			goto out;
		}
		for (size_t e = 0; e < m->nevents; e++)
			if (m->events[e].stream_id == st->id)
				sc->by_id[m->events[e].id] = &r->classes[e];
	}
	if (!(r->slots = calloc(r->nslots ? r->nslots : 1, sizeof *r->slots))) {
		FAIL(&c, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(c.st);
	return rc;
}
