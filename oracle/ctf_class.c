/*
 * ctf_class.c - event classes as spec event-versions, and their payloads.
 *
 * A class "<Provider>:<Symbol>" (Provider as CoreCLR's tracepoint generator
 * names it: "DotNETRuntime" for Microsoft-Windows-DotNETRuntime) is the spec
 * event-version with that symbol. Its fields are either
 *  - CoreCLR's packed form: `length`, the sequence's length, and
 *    `__data__`, a sequence of bytes holding the ETW payload as it is; or
 *  - typed fields, one per template field in order, with the template's
 *    names: integers of the field's width (Pointer: the trace's pointer
 *    size; Boolean: 32 bits), floats, strings (UnicodeString as UTF-8,
 *    AnsiString as bytes), a GUID as a count and a sequence of four int32.
 * The payload of a typed event is rebuilt as the runtime would have written
 * it for ETW, so the one spec-driven decoder (decode.c) checks every
 * container alike. Anything else under a spec name is GC-C006.
 *
 * Names the spec lacks: "<Name>_V<n>" (a version of a known event) and
 * "EventID<id>[_V<n>]" keep their provider, id and version, so they are
 * passed over like any unknown event-version; other names are reported as
 * providers of their own (their full class name), since LTTng names carry
 * no event id.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_read_i.h"

/* CoreCLR's LTTng provider name of each spec provider. */
static void lttng_provider(unsigned p, char *out, size_t cap)
{
	const char *n = gcspec_providers[p].name;
	size_t k = 0;

	for (;;) {
		if (strncmp(n, "Microsoft-", 10) == 0)
			n += 10;
		else if (strncmp(n, "Windows-", 8) == 0)
			n += 8;
		else
			break;
	}
	for (; *n && k + 1 < cap; n++)
		out[k++] = *n == '-' ? '_' : *n;
	out[k] = 0;
}

static int parse_uint(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;

	if (!n || n > 9)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* The spec event whose base name (no _Vn) is name[0..n) in provider p. */
static const struct gcspec_event *by_base(unsigned p, const char *name, size_t n)
{
	for (unsigned e = 0; e < GCSPEC_NEVENTS; e++)
		if (gcspec_events[e].provider == p && strlen(gcspec_events[e].name) == n &&
		    strncmp(gcspec_events[e].name, name, n) == 0)
			return &gcspec_events[e];
	return NULL;
}

/* Provider, id and version from the class name; 0, or -1 for names that
 * are not of a spec provider. */
static int map_name(struct cclass *c, const char *name)
{
	const char *colon = strchr(name, ':'), *rest, *v;
	char prov[64];
	unsigned p, id, ver = 0;
	size_t n;

	if (!colon)
		return -1;
	for (p = 0; p < GCSPEC_NPROVIDERS; p++) {
		lttng_provider(p, prov, sizeof prov);
		if (strlen(prov) == (size_t)(colon - name) && strncmp(prov, name, (size_t)(colon - name)) == 0)
			break;
	}
	if (p == GCSPEC_NPROVIDERS)
		return -1;
	rest = colon + 1;
	c->provider = (int)p;
	for (unsigned e = 0; e < GCSPEC_NEVENTS; e++)
		if (gcspec_events[e].provider == p && strcmp(gcspec_events[e].symbol, rest) == 0) {
			c->id = gcspec_events[e].id;
			c->version = gcspec_events[e].version;
			return 0;
		}
	n = strlen(rest);
	v = strstr(rest, "_V");
	while (v && strstr(v + 2, "_V"))
		v = strstr(v + 2, "_V");
	if (v && parse_uint(v + 2, strlen(v + 2), &ver) == 0 && ver < 256)
		n = (size_t)(v - rest);
	else
		ver = 0;
	if (n > 7 && strncmp(rest, "EventID", 7) == 0 && parse_uint(rest + 7, n - 7, &id) == 0 && id < 65536) {
		c->id = (uint16_t)id;
		c->version = (uint8_t)ver;
		return 0;
	}
	{
		const struct gcspec_event *ev = by_base(p, rest, n);

		if (ev) {
			c->id = ev->id;
			c->version = (uint8_t)ver;
			return 0;
		}
	}
	return -1;
}

static const struct cnode *kid(const struct ctfr_reader *r, int32_t fields, uint32_t i)
{
	return &r->nodes[r->kids[r->nodes[fields].kids + i]];
}

/* CoreCLR's packed form: [length] [count] __data__[count] of bytes. */
static int is_packed(struct ctfr_reader *r, struct cclass *c)
{
	const struct cnode *f, *len, *data;
	uint32_t n;

	if (c->fields < 0)
		return 0;
	f = &r->nodes[c->fields];
	n = f->nkids;
	if (n < 2 || n > 3)
		return 0;
	len = kid(r, c->fields, 0);
	data = kid(r, c->fields, n - 1);
	if (len->kind != CK_INT || strcmp(ctfr_field_name(len->name), "length") != 0 ||
	    data->kind != CK_SEQUENCE || strcmp(ctfr_field_name(data->name), "__data__") != 0 ||
	    r->nodes[data->elem].kind != CK_INT || r->nodes[data->elem].size != 8)
		return 0;
	if (n == 3 && kid(r, c->fields, 1)->kind != CK_INT)
		return 0;
	c->len_kid = 0;
	c->data_kid = (int32_t)n - 1;
	return 1;
}

static int add_act(struct ctfr_reader *r, uint8_t op, uint8_t width)
{
	if (r->nacts == r->capacts) {
		size_t cap = r->capacts ? 2 * r->capacts : 256;
		struct cact *a = realloc(r->acts, cap * sizeof *a);

		if (!a)
			return -1;
		r->acts = a;
		r->capacts = cap;
	}
	r->acts[r->nacts++] = (struct cact){ op, width };
	return 0;
}

/* Append to the program that starts at start (copies merge). */
static int add_op(struct ctfr_reader *r, uint32_t start, uint8_t op, uint32_t n)
{
	if (op == F_COPY && r->nprog > start && r->prog[r->nprog - 1].op == F_COPY) {
		r->prog[r->nprog - 1].n += n;
		return 0;
	}
	if (r->nprog == r->capprog) {
		size_t cap = r->capprog ? 2 * r->capprog : 256;
		struct cfop *a = realloc(r->prog, cap * sizeof *a);

		if (!a)
			return -1;
		r->prog = a;
		r->capprog = cap;
	}
	r->prog[r->nprog++] = (struct cfop){ op, n };
	return 0;
}

/* Typed fields matching the template: one action per CTF field. Returns 0,
 * or -1 with why set. */
static int typed(struct ctfr_reader *r, struct cclass *c, const struct gcspec_event *spec,
		 const char **why, char *buf, size_t cap)
{
	const struct gcspec_field *f = gcspec_event_fields(spec);
	unsigned psize = r->info->pointer_size;
	uint32_t nk = c->fields >= 0 ? r->nodes[c->fields].nkids : 0, j = 0;

	c->act = (uint32_t)r->nacts;
	for (unsigned i = 0; i < spec->nfields; i++) {
		const struct cnode *k = j < nk ? kid(r, c->fields, j) : NULL;
		unsigned w = 0;
		uint8_t op = A_INT;

		if (f[i].is_member || f[i].type == GCSPEC_STRUCT || f[i].type == GCSPEC_BINARY) {
			*why = "the template has a struct or an array, which only the packed form carries";
			return -1;
		}
		if (!k) {
			snprintf(buf, cap, "no field for '%s' (the template has %u fields)", f[i].name,
				 spec->nfields);
			*why = buf;
			return -1;
		}
		if (f[i].type == GCSPEC_GUID) {
			char lname[96];

			snprintf(lname, sizeof lname, "_%s_length", f[i].name);
			if (k->kind == CK_INT && strcmp(ctfr_field_name(k->name), lname) == 0 && j + 1 < nk &&
			    kid(r, c->fields, j + 1)->kind == CK_SEQUENCE &&
			    strcmp(ctfr_field_name(kid(r, c->fields, j + 1)->name), f[i].name) == 0 &&
			    r->nodes[kid(r, c->fields, j + 1)->elem].kind == CK_INT &&
			    r->nodes[kid(r, c->fields, j + 1)->elem].size == 32) {
				if (add_act(r, A_GUID_LEN, (uint8_t)(k->size / 8)) < 0 || add_act(r, A_GUID, 16) < 0)
					goto oom;
				j += 2;
				continue;
			}
			if (k->kind == CK_ARRAY && k->length == 4 && strcmp(ctfr_field_name(k->name), f[i].name) == 0 &&
			    r->nodes[k->elem].kind == CK_INT && r->nodes[k->elem].size == 32) {
				if (add_act(r, A_GUID, 16) < 0)
					goto oom;
				j++;
				continue;
			}
			snprintf(buf, cap, "GUID '%s' is not a count and a sequence of four int32", f[i].name);
			*why = buf;
			return -1;
		}
		if (strcmp(ctfr_field_name(k->name), f[i].name) != 0) {
			snprintf(buf, cap, "field %u is '%s', the template's is '%s'", j, ctfr_field_name(k->name),
				 f[i].name);
			*why = buf;
			return -1;
		}
		switch (f[i].type) {
		case GCSPEC_UINT8: case GCSPEC_INT8: w = 1; break;
		case GCSPEC_UINT16: case GCSPEC_INT16: w = 2; break;
		case GCSPEC_UINT32: case GCSPEC_INT32: case GCSPEC_BOOLEAN: w = 4; break;
		case GCSPEC_UINT64: case GCSPEC_INT64: w = 8; break;
		case GCSPEC_POINTER: w = psize; break;
		case GCSPEC_FLOAT: w = 4; op = A_FLOAT; break;
		case GCSPEC_DOUBLE: w = 8; op = A_FLOAT; break;
		case GCSPEC_UNICODE_STRING: op = A_USTR; break;
		case GCSPEC_ANSI_STRING: op = A_ASTR; break;
		default: break;
		}
		if (op == A_USTR || op == A_ASTR ? k->kind != CK_STRING
		    : op == A_FLOAT ? k->kind != CK_FLOAT || k->size != w * 8
		    : (k->kind != CK_INT && k->kind != CK_ENUM) || k->size != w * 8) {
			if (op == A_USTR || op == A_ASTR)
				snprintf(buf, cap, "field '%s' is not a string", f[i].name);
			else
				snprintf(buf, cap, "field '%s' is not %s of %u bits", f[i].name,
					 op == A_FLOAT ? "a float" : "an integer", w * 8);
			*why = buf;
			return -1;
		}
		if (add_act(r, op, (uint8_t)w) < 0)
			goto oom;
		j++;
	}
	if (j != nk) {
		snprintf(buf, cap, "%u fields, the template has %u", nk, spec->nfields);
		*why = buf;
		return -1;
	}
	c->nact = (uint32_t)r->nacts - c->act;
	return 0;
oom:
	*why = "out of memory";
	return -1;
}

/* The fast program of a typed class: byte-aligned little-endian fields. */
static void fast_program(struct ctfr_reader *r, struct cclass *c)
{
	uint32_t start = (uint32_t)r->nprog;

	if (c->ctx >= 0 || (c->fields >= 0 && r->nodes[c->fields].align > 8))
		return;
	r->nprog = start;
	for (uint32_t a = 0; a < c->nact; a++) {
		const struct cnode *k = kid(r, c->fields, a);
		const struct cact *x = &r->acts[c->act + a];
		int ok;

		switch (x->op) {
		case A_INT:
		case A_FLOAT:
			ok = k->fixed && k->slot < 0 && add_op(r, start, F_COPY, x->width) == 0;
			break;
		case A_USTR:
			ok = add_op(r, start, F_USTR, 0) == 0;
			break;
		case A_ASTR:
			ok = add_op(r, start, F_ASTR, 0) == 0;
			break;
		case A_GUID_LEN:
			/* the count is read by F_GUID; the sequence follows */
			ok = k->fixed && a + 1 < c->nact && r->nodes[kid(r, c->fields, a + 1)->elem].fixed &&
			     add_op(r, start, F_GUID, k->size / 8) == 0;
			a++;
			break;
		case A_GUID:
			ok = r->nodes[k->elem].fixed && add_op(r, start, F_COPY, 16) == 0;
			break;
		default:
			ok = 0;
		}
		if (!ok) {
			r->nprog = start;
			return;
		}
	}
	c->prog = start;
	c->nprog = (uint32_t)r->nprog - start;
	c->fast = 1;
}

int ctfr_classes(struct ctfr_reader *r)
{
	char buf[256];

	for (size_t e = 0; e < r->meta.nevents; e++) {
		struct cclass *c = &r->classes[e];
		const struct gcspec_event *spec = NULL;
		const char *why = NULL;

		c->provider = -1;
		c->provider_name = c->ec->name;
		c->len_kid = c->data_kid = -1;
		if (map_name(c, c->ec->name) == 0)
			spec = gcspec_lookup((unsigned)c->provider, c->id, c->version);
		else
			c->provider = -1;
		if (!spec) {
			c->kind = CC_OTHER;
			is_packed(r, c);
			continue;
		}
		c->level = spec->level;
		c->opcode = spec->opcode;
		c->keywords = spec->keywords;
		if (is_packed(r, c)) {
			c->kind = CC_PACKED;
			const struct cnode *len = kid(r, c->fields, 0), *cnt = kid(r, c->fields, 1);
			const struct cnode *data = kid(r, c->fields, (uint32_t)c->data_kid);

			c->fast = r->nodes[c->fields].nkids == 3 && c->ctx < 0 && len->fixed && len->size == 32 &&
				  cnt->fixed && cnt->size == 32 && r->nodes[data->elem].fixed &&
				  data->ref == cnt->slot && r->nodes[c->fields].align <= 8;
			continue;
		}
		if (typed(r, c, spec, &why, buf, sizeof buf) < 0) {
			c->kind = CC_BAD;
			ctfr_report(r, GCSPEC_DIAG_C006, UINT64_MAX, ctfr_text_offset(r, c->ec->text_off),
				    "event class '%s' is neither the typed fields of %s nor CoreCLR's packed form: %s; its events are passed over",
				    c->ec->name, spec->symbol, why);
			continue;
		}
		c->kind = CC_TYPED;
		fast_program(r, c);
	}
	return 0;
}

/* --- payloads --------------------------------------------------------- */

static int room(struct ctfr_reader *r, size_t need)
{
	uint8_t *p;
	size_t cap = r->cap_payload ? r->cap_payload : 4096;

	if (need <= r->cap_payload)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(p = realloc(r->payload, cap)))
		return -1;
	r->payload = p;
	r->cap_payload = cap;
	return 0;
}

static void put_u16(uint8_t *p, unsigned u)
{
	p[0] = (uint8_t)u;
	p[1] = (uint8_t)(u >> 8);
}

/* UTF-8 s[0..n) as UTF-16LE plus NUL at out (room: 2n + 2). Bad
 * sequences become U+FFFD. Returns the bytes written; *bad set when any. */
static size_t utf8_to_utf16(const uint8_t *s, size_t n, uint8_t *out, int *bad)
{
	size_t i = 0, o = 0;

	while (i < n) {
		uint32_t c = s[i], min;
		unsigned k;

		if (c < 0x80) {
			put_u16(out + o, c);
			o += 2;
			i++;
			continue;
		}
		if (c >= 0xC2 && c <= 0xDF)
			k = 1, c &= 0x1F, min = 0x80;
		else if (c >= 0xE0 && c <= 0xEF)
			k = 2, c &= 0x0F, min = 0x800;
		else if (c >= 0xF0 && c <= 0xF4)
			k = 3, c &= 0x07, min = 0x10000;
		else
			goto replace;
		if (i + k >= n)
			goto replace;
		for (unsigned j = 1; j <= k; j++) {
			if ((s[i + j] & 0xC0) != 0x80)
				goto replace;
			c = c << 6 | (s[i + j] & 0x3F);
		}
		if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
			goto replace;
		if (c >= 0x10000) {
			c -= 0x10000;
			put_u16(out + o, 0xD800 + (c >> 10));
			put_u16(out + o + 2, 0xDC00 + (c & 0x3FF));
			o += 4;
		} else {
			put_u16(out + o, c);
			o += 2;
		}
		i += k + 1;
		continue;
replace:
		*bad = 1;
		put_u16(out + o, 0xFFFD);
		o += 2;
		i++;
	}
	put_u16(out + o, 0);
	return o + 2;
}

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The typed fields at s->pos by the fast program; -1 on overrun. */
static int fast_typed(struct ctfr_reader *r, struct cstream *s, const struct cclass *c, struct or_event *ev,
		      uint64_t field_off)
{
	const uint8_t *p = s->buf + s->pos / 8, *end = s->buf + s->end / 8;
	uint8_t *o = r->payload;
	int bad = 0;

	for (uint32_t i = 0; i < c->nprog; i++) {
		const struct cfop *op = &r->prog[c->prog + i];

		switch (op->op) {
		case F_COPY:
			if ((size_t)(end - p) < op->n)
				return -1;
			memcpy(o, p, op->n);
			p += op->n;
			o += op->n;
			break;
		case F_USTR: {
			const uint8_t *q = p;

			/* ASCII, the common case, without the decoder. */
			while (q < end && *q && *q < 0x80) {
				o[0] = *q++;
				o[1] = 0;
				o += 2;
			}
			if (q < end && *q) {
				const uint8_t *nul = memchr(q, 0, (size_t)(end - q));
				int b = 0;

				if (!nul)
					return -1;
				o += utf8_to_utf16(q, (size_t)(nul - q), o, &b) - 2;
				if (b && !bad) {
					bad = 1;
					ctfr_report(r, GCSPEC_DIAG_C017, r->index, field_off + (uint64_t)(p - (s->buf + s->pos / 8)),
						    "a UnicodeString field of %s is not valid UTF-8; bad sequences read as U+FFFD",
						    c->ec->name);
				}
				q = nul;
			}
			if (q >= end)
				return -1;
			o[0] = o[1] = 0;
			o += 2;
			p = q + 1;
			break;
		}
		case F_ASTR: {
			const uint8_t *nul = memchr(p, 0, (size_t)(end - p));

			if (!nul)
				return -1;
			memcpy(o, p, (size_t)(nul - p) + 1);
			o += nul - p + 1;
			p = nul + 1;
			break;
		}
		case F_GUID:
			if ((size_t)(end - p) < op->n + 16)
				return -1;
			if (le(p, op->n) != 4)
				return -2;
			memcpy(o, p + op->n, 16);
			p += op->n + 16;
			o += 16;
			break;
		}
	}
	s->pos = (uint64_t)(p - s->buf) * 8;
	ev->payload = r->payload;
	ev->payload_len = (uint32_t)(o - r->payload);
	return 0;
}

/* LTTng's shape, the hot path: a fixed event context and a typed or
 * packed class with a compiled program. 1 when it does not apply. */
static int fast_event(struct ctfr_reader *r, struct cstream *s, const struct csclass *sc,
		      const struct cclass *c, struct or_event *ev, uint64_t base)
{
	const uint8_t *p = s->buf + s->pos / 8;
	uint64_t left = (s->end - s->pos) / 8;

	if (left < sc->ctx_bytes)
		return -1;
	ev->thread_id = sc->vtid_at >= 0 ? ctfr_le32(p + sc->vtid_at) : 0;
	if (sc->vpid_at >= 0 && !r->info->process_id)
		r->info->process_id = ctfr_le32(p + sc->vpid_at);
	p += sc->ctx_bytes;
	left -= sc->ctx_bytes;
	s->pos += (uint64_t)sc->ctx_bytes * 8;
	if (c->kind == CC_PACKED) {
		uint64_t len, n;

		if (left < 8)
			return -1;
		len = ctfr_le32(p);
		n = ctfr_le32(p + 4);
		if (n > left - 8)
			return -1;
		if (len != n)
			ctfr_report(r, GCSPEC_DIAG_C016, r->index, base + s->pos / 8,
				    "packed %s: length %llu, __data__ holds %llu bytes; the bytes are decoded",
				    c->ec->name, (unsigned long long)len, (unsigned long long)n);
		ev->payload = p + 8;
		ev->payload_len = (uint32_t)n;
		ev->payload_offset = base + s->pos / 8 + 8;
		s->pos += (8 + n) * 8;
		r->counts.fast_events++;
		return 0;
	}
	ev->payload_offset = base + s->pos / 8;
	if (left * 2 + 64 > r->cap_payload && room(r, (size_t)left * 2 + 64) < 0)
		return -1;
	{
		int rc = fast_typed(r, s, c, ev, base + s->pos / 8);

		if (rc == 0)
			r->counts.fast_events++;
		return rc;
	}
}

int ctfr_fields(struct ctfr_reader *r, struct cstream *s, struct cclass *c, struct or_event *ev)
{
	const struct csclass *sc = &r->sclasses[s->sc];
	struct cdec d;
	struct cval v;
	uint64_t base = r->files[s->file].base + s->pkt_off;
	int generic = r->flags & CTFR_GENERIC;

	if (c->fast && sc->fast_ctx && !generic && !(s->pos & 7) && c->ctx < 0) {
		uint64_t at = s->pos;
		int rc = fast_event(r, s, sc, c, ev, base);

		if (rc != -2)
			return rc;
		s->pos = at; /* a GUID count other than 4: the generic path says so */
	}
	memset(&d, 0, sizeof d);
	d.buf = s->buf;
	d.end = s->end;
	d.slots = r->slots;
	d.r = r;
	ev->thread_id = 0;
	/* The stream's event context: vpid, vtid. */
	if (sc->fast_ctx && !generic && !(s->pos & 7)) {
		if (s->end - s->pos < (uint64_t)sc->ctx_bytes * 8)
			return -1;
		if (sc->vtid_at >= 0)
			ev->thread_id = (uint32_t)le(s->buf + s->pos / 8 + sc->vtid_at, 4);
		if (sc->vpid_at >= 0 && !r->info->process_id)
			r->info->process_id = (uint32_t)le(s->buf + s->pos / 8 + sc->vpid_at, 4);
		s->pos += (uint64_t)sc->ctx_bytes * 8;
	} else if (sc->ectx >= 0) {
		d.pos = s->pos;
		if (ctfr_decode(&d, sc->ectx, NULL) < 0)
			return -1;
		if (d.roles & 1u << R_VTID)
			ev->thread_id = (uint32_t)d.role[R_VTID];
		if (d.roles & 1u << R_VPID && !r->info->process_id)
			r->info->process_id = (uint32_t)d.role[R_VPID];
		s->pos = d.pos;
	}
	if (c->ctx >= 0) {
		d.pos = s->pos;
		if (ctfr_decode(&d, c->ctx, NULL) < 0)
			return -1;
		s->pos = d.pos;
	}
	ev->payload = NULL;
	ev->payload_len = 0;
	ev->payload_offset = base + s->pos / 8;
	if (c->fields < 0)
		return c->kind == CC_BAD ? 1 : 0;
	/* Packed, the fast way: u32 length, u32 count, count bytes. */
	if (c->kind == CC_PACKED && c->fast && !generic && !(s->pos & 7)) {
		const uint8_t *p = s->buf + s->pos / 8;
		uint64_t left = (s->end - s->pos) / 8, len, n;

		if (left < 8)
			return -1;
		len = le(p, 4);
		n = le(p + 4, 4);
		if (n > left - 8)
			return -1;
		if (len != n)
			ctfr_report(r, GCSPEC_DIAG_C016, r->index, base + s->pos / 8,
				    "packed %s: length %llu, __data__ holds %llu bytes; the bytes are decoded",
				    c->ec->name, (unsigned long long)len, (unsigned long long)n);
		ev->payload = p + 8;
		ev->payload_len = (uint32_t)n;
		ev->payload_offset = base + s->pos / 8 + 8;
		s->pos += (8 + n) * 8;
		r->counts.fast_events++;
		return 0;
	}
	if (c->kind == CC_TYPED && c->fast && !generic && !(s->pos & 7)) {
		int rc;

		if (room(r, (size_t)((s->end - s->pos) / 8) * 2 + 64) < 0)
			return -1;
		rc = fast_typed(r, s, c, ev, base + s->pos / 8);
		if (rc == 0)
			r->counts.fast_events++;
		if (rc != -2)
			return rc;
		/* a GUID count other than 4: let the generic path say so */
	}
	/* The generic path: every field through the interpreter. */
	{
		const struct cnode *f = &r->nodes[c->fields];
		uint64_t len_value = 0, len_at = 0;
		uint8_t *o;
		int bad = 0, skip = 0;

		if (c->kind == CC_TYPED && room(r, (size_t)((s->end - s->pos) / 8) * 2 + 64) < 0)
			return -1;
		o = r->payload;
		d.pos = s->pos;
		d.pos = (d.pos + f->align - 1) & ~(uint64_t)(f->align - 1);
		for (uint32_t i = 0; i < f->nkids; i++) {
			int32_t k = (int32_t)r->kids[f->kids + i];

			if (ctfr_decode(&d, k, &v) < 0)
				return -1;
			if (c->kind == CC_PACKED || (c->kind == CC_OTHER && c->data_kid >= 0)) {
				if ((int32_t)i == c->len_kid) {
					len_value = v.u;
					len_at = v.at;
				}
				if ((int32_t)i == c->data_kid) {
					if (v.at % 8) {
						/* bytes not on a byte boundary: copy them */
						if (room(r, (size_t)v.u + 1) < 0)
							return -1;
						for (uint64_t b = 0; b < v.u; b++)
							r->payload[b] = (uint8_t)ctfr_read_bits(s->buf, v.at + 8 * b, 8,
												r->nodes[k].be);
						ev->payload = r->payload;
					} else {
						ev->payload = s->buf + v.at / 8;
					}
					ev->payload_len = (uint32_t)v.u;
					ev->payload_offset = base + v.at / 8;
					if (c->kind == CC_PACKED && len_value != v.u)
						ctfr_report(r, GCSPEC_DIAG_C016, r->index, base + len_at / 8,
							    "packed %s: length %llu, __data__ holds %llu bytes; the bytes are decoded",
							    c->ec->name, (unsigned long long)len_value,
							    (unsigned long long)v.u);
				}
				continue;
			}
			if (c->kind != CC_TYPED)
				continue;
			const struct cact *a = &r->acts[c->act + i];
			const struct cnode *kn = &r->nodes[k];

			switch (a->op) {
			case A_INT:
			case A_FLOAT:
				put_le(o, v.u, a->width);
				o += a->width;
				break;
			case A_USTR: {
				int b = 0;

				o += utf8_to_utf16(s->buf + v.at / 8, (size_t)v.len, o, &b);
				if (b && !bad) {
					bad = 1;
					ctfr_report(r, GCSPEC_DIAG_C017, r->index, base + v.at / 8,
						    "a UnicodeString field of %s is not valid UTF-8; bad sequences read as U+FFFD",
						    c->ec->name);
				}
				break;
			}
			case A_ASTR:
				memcpy(o, s->buf + v.at / 8, (size_t)v.len + 1);
				o += v.len + 1;
				break;
			case A_GUID_LEN:
				if (v.u != 4) {
					ctfr_report(r, GCSPEC_DIAG_C006, r->index, base + v.at / 8,
						    "%s: a GUID of %llu int32 (4 expected); the event is passed over",
						    c->ec->name, (unsigned long long)v.u);
					skip = 1;
				}
				break;
			case A_GUID: {
				const struct cnode *e = &r->nodes[kn->elem];

				for (unsigned q = 0; q < 4 && q < v.u; q++) {
					put_le(o, ctfr_read_bits(s->buf, v.at + 32u * q, 32, e->be), 4);
					o += 4;
				}
				break;
			}
			}
		}
		s->pos = d.pos;
		if (c->kind == CC_TYPED) {
			ev->payload = r->payload;
			ev->payload_len = (uint32_t)(o - r->payload);
		}
		if (skip)
			return 1;
	}
	return c->kind == CC_BAD ? 1 : 0;
}
