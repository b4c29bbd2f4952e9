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
 * container alike (the payloads themselves: ctf_payload.c). Anything else
 * under a spec name is GC-C006.
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

#include "oracle/formats/ctf/ctf_read_i.h"
#include "oracle/formats/ctf/ctf_report.h"

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
