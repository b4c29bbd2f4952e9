/*
 * decode_lean.c - decoding for the checker alone (or_decode_lean, see
 * decode.h). A payload that raises no diagnostic is read only where a rule
 * looks (value maps, Booleans, string ends, counts and lengths) or the
 * caller reads a field (the keep table, or_ctx.keep, which the checker
 * fills: or_check_keep); anything else goes to or_decode(), which reports.
 *
 * Why: with no output but the diagnostics, almost every event is clean and
 * the checker reads two or three of its fields; filling every field of
 * every event was most of the decoder's time. The diagnostics are the full
 * decoder's by construction: this path only ever says "nothing to report
 * here", and when it cannot say that, or_decode() decodes the payload from
 * the start and reports in field order.
 *
 * The program of an event-version (built once, for pointer sizes 4 and 8)
 * is a list of steps over the payload, in template order:
 *   RUN     a run of fixed-width fields (decode_plan.h): all of it present,
 *           then the loads of the fields in it that have a rule or that
 *           the checker reads
 *   USTR    a UnicodeString: terminated, no unpaired surrogate
 *   ASTR    an AnsiString: terminated
 *   BINARY  Binary: as many bytes present as its length field says
 *   STRUCT  a struct array of fixed-size elements: count elements present,
 *           the members with rules checked in every element
 * and the payload must end where the template does (longer is GC-P002).
 * An event-version whose struct members are not all of fixed width, or
 * with a type the decoder does not know, gets no program: or_decode() does
 * it all.
 */
#include <string.h>

#include "oracle/decode/decode.h"
#include "oracle/decode/decode_plan.h"
#include "util/utf.h"

enum { L_RUN, L_USTR, L_ASTR, L_BINARY, L_STRUCT };
/* How a value is tested: a bit set of the values allowed (value maps of
 * small values, Booleans), a mask of the flag bits a flag map defines, or
 * the slow way (a large value map). */
enum { T_SET, T_MASK, T_SLOW };

/* One field read at a fixed place: in its run, or in a struct element,
 * whose bytes are all present by then. The value is read as the 8 bytes
 * at `at` that hold the field and lie inside the run or element (the
 * field's own 8 bytes on, or the 8 bytes that end with it), shifted into
 * place, (raw << shl) >> shr, and sign-extended from bit sbit
 * ((u ^ sbit) - sbit; 0 for unsigned types). A run or an element shorter
 * than 8 bytes reads its fields with or_plan_load(). */
struct lload {
	uint64_t bits;             /* T_SET: allowed values; T_MASK: defined flags */
	uint64_t sbit;
	uint16_t at, rel;
	uint8_t shl, shr, small, op;
	uint8_t field, width, test, boolean;
	int16_t map;               /* T_SLOW: the gcspec map, or -1 */
};

struct lstep {
	uint8_t kind;
	int8_t count;              /* BINARY, STRUCT: the length/count field, or -1 */
	uint16_t size;             /* RUN: bytes; STRUCT: element bytes */
	uint16_t rules, nrules;    /* loads whose values have a rule */
	uint16_t keeps, nkeeps;    /* RUN: loads the checker reads */
};

struct lprog {
	uint16_t first, n;         /* steps */
	uint8_t ok;                /* 0: no program, or_decode() decodes */
	uint8_t fixed;             /* one RUN is the whole template: */
	uint16_t size;             /* its bytes and loads, copied here */
	uint16_t rules, nrules, keeps, nkeeps;
};

static struct lprog progs[2][GCSPEC_NEVENTS];
/* At most one step per field; a field is a rule load, a kept load, or
 * both. */
static struct lstep steps[2][GCSPEC_NFIELDS];
static struct lload loads[2][2 * GCSPEC_NFIELDS];

/* The load of field f (plan pf), inside a run or element of unit bytes. */
static struct lload load_of(const struct gcspec_field *f, const struct or_pfield *pf,
                            unsigned field, unsigned unit)
{
	struct lload l;
	unsigned w = pf->width, rel = pf->rel;

	memset(&l, 0, sizeof l);
	l.rel = (uint16_t)rel;
	l.op = pf->op;
	l.field = (uint8_t)field;
	l.width = (uint8_t)w;
	l.map = f->map;
	l.boolean = pf->boolean;
	if (pf->op == OR_OP_I8 || pf->op == OR_OP_I16 || pf->op == OR_OP_I32)
		l.sbit = (uint64_t)1 << (8 * w - 1);
	if (pf->op == OR_OP_GUID || pf->op == OR_OP_NONE || unit < 8) {
		l.small = 1;
	} else if (w == 8) {
		l.at = (uint16_t)rel;
	} else if (rel + w >= 8) {
		l.at = (uint16_t)(rel + w - 8);
		l.shr = (uint8_t)(64 - 8 * w);
	} else {
		l.at = (uint16_t)rel;
		l.shl = l.shr = (uint8_t)(64 - 8 * w);
	}
	/* A Boolean is the set {0, 1}; one with a value map as well is
	 * tested the slow way, which does both. */
	if (pf->boolean && pf->mapq == OR_MAPQ_NONE)
		l.test = T_SET, l.bits = 3;
	else if (pf->boolean || pf->mapq == OR_MAPQ_SLOW)
		l.test = T_SLOW;
	else if (pf->mapq == OR_MAPQ_MASK)
		l.test = T_MASK, l.bits = pf->mapbits;
	else
		l.test = T_SET, l.bits = pf->mapbits;
	return l;
}

/* Build the program of event e for pointer size index ps; returns 0 when
 * the event-version gets none. */
static int build(const struct gcspec_event *e, unsigned ps, uint64_t keep,
                 unsigned *nsteps, unsigned *nloads)
{
	const struct gcspec_field *f = gcspec_event_fields(e);
	const struct or_pfield *pf = &or_plans[ps][e->first_field];
	struct lstep *st = steps[ps];
	struct lload *ld = loads[ps];
	unsigned n = e->nfields;

	if (n > OR_MAX_FIELDS)
		return 0;
	/* The lengths and counts that size what follows are read too. */
	for (unsigned i = 0; i < n; i++)
		if ((f[i].type == GCSPEC_BINARY || f[i].type == GCSPEC_STRUCT) &&
		    f[i].size_field >= 0)
			keep |= (uint64_t)1 << f[i].size_field;
	for (unsigned i = 0; i < n;) {
		struct lstep s;

		memset(&s, 0, sizeof s);
		s.count = -1;
		if (f[i].is_member) {
			i++;
			continue;
		}
		if (pf[i].run) {
			unsigned last = i + pf[i].run;
			s.kind = L_RUN;
			s.size = pf[i].run_size;
			s.rules = (uint16_t)*nloads;
			for (unsigned k = i; k < last; k++)
				if (pf[k].rules)
					ld[(*nloads)++] = load_of(&f[k], &pf[k], k, pf[i].run_size);
			s.nrules = (uint16_t)(*nloads - s.rules);
			s.keeps = (uint16_t)*nloads;
			for (unsigned k = i; k < last; k++)
				if (keep >> k & 1)
					ld[(*nloads)++] = load_of(&f[k], &pf[k], k, pf[i].run_size);
			s.nkeeps = (uint16_t)(*nloads - s.keeps);
			i = last;
		} else if (f[i].type == GCSPEC_STRUCT) {
			if (!pf[i].esize)
				return 0;
			s.kind = L_STRUCT;
			s.count = f[i].size_field;
			s.size = pf[i].esize;
			s.rules = (uint16_t)*nloads;
			for (unsigned k = 1; k <= f[i].nmembers; k++)
				if (pf[i + k].rules)
					ld[(*nloads)++] = load_of(&f[i + k], &pf[i + k], i + k,
					                           pf[i].esize);
			s.nrules = (uint16_t)(*nloads - s.rules);
			i += 1 + f[i].nmembers;
		} else {
			switch (f[i].type) {
			case GCSPEC_UNICODE_STRING: s.kind = L_USTR; break;
			case GCSPEC_ANSI_STRING: s.kind = L_ASTR; break;
			case GCSPEC_BINARY: s.kind = L_BINARY; s.count = f[i].size_field; break;
			default: return 0;
			}
			i++;
		}
		st[(*nsteps)++] = s;
	}
	return 1;
}

/* The keep table the programs were built for. */
static const uint64_t *built;

/* Built on first use of a keep table; out of line, so that the hot path
 * stays small. */
static OR_COLD void lean_init(const uint64_t *keep)
{
	or_plan_init();
	for (unsigned ps = 0; ps < 2; ps++) {
		unsigned nsteps = 0, nloads = 0;

		for (unsigned i = 0; i < GCSPEC_NEVENTS; i++) {
			struct lprog *p = &progs[ps][i];
			unsigned s0 = nsteps, l0 = nloads;

			p->first = (uint16_t)nsteps;
			p->ok = (uint8_t)build(&gcspec_events[i], ps, keep[i], &nsteps,
			                       &nloads);
			if (!p->ok)
				nsteps = s0, nloads = l0;
			p->n = (uint16_t)(nsteps - s0);
			p->fixed = p->n == 1 && steps[ps][s0].kind == L_RUN;
			if (p->fixed) {
				const struct lstep *st = &steps[ps][s0];
				p->size = st->size;
				p->rules = st->rules, p->nrules = st->nrules;
				p->keeps = st->keeps, p->nkeeps = st->nkeeps;
			}
		}
	}
	built = keep;
}

/* A Boolean with a value map, or a value map too large for a bit set:
 * would the full decoder pass the value without a word? */
OR_COLD static int slow_ok(const struct lload *l, uint64_t value)
{
	const struct gcspec_map *m;
	const struct gcspec_map_value *mv;
	uint64_t all = 0;

	if (l->boolean && value > 1)
		return 0;
	if (l->map < 0)
		return 1;
	m = &gcspec_maps[l->map];
	mv = &gcspec_map_values[m->first_value];
	for (unsigned k = 0; k < m->nvalues; k++) {
		if (!m->bitmap && mv[k].value == value)
			return 1;
		all |= mv[k].value;
	}
	return m->bitmap && (value & ~all) == 0;
}

/* The value of load l in the run or element at p. */
static OR_HOT_INLINE uint64_t value(const struct lload *l, const uint8_t *p)
{
	uint64_t raw;

	if (l->small)
		return or_plan_load(l->op, p + l->rel);
	raw = (or_utf_ld64(p + l->at) << l->shl) >> l->shr;
	return (raw ^ l->sbit) - l->sbit;
}

/* The rules of one run or struct element at p: 0 when all pass. */
static OR_HOT_INLINE int rules(const struct lload *l, unsigned n, const uint8_t *p)
{
	for (; n; n--, l++) {
		uint64_t u = value(l, p);
		int ok;

		switch (l->test) {
		case T_SET: ok = u < 64 && (l->bits >> u & 1); break;
		case T_MASK: ok = (u & ~l->bits) == 0; break;
		default: ok = slow_ok(l, u); break;
		}
		if (!ok)
			return -1;
	}
	return 0;
}

/* The fields of one run the checker reads, run at payload offset pos. */
static OR_HOT_INLINE void keeps(const struct lload *l, unsigned n, const uint8_t *p, uint32_t pos,
                         struct or_val *v)
{
	for (; n; n--, l++) {
		struct or_val *x = &v[l->field];

		x->u = value(l, p);
		x->off = pos + l->rel;
	}
}

/* Run a program over the payload. 0: clean, the kept fields are in v;
 * -1: something to report (or_decode() will find it). Out of line: the
 * events with strings or arrays are the fewer. */
static OR_NOINLINE int run(const struct lstep *s, unsigned nsteps, const struct lload *ld,
               const uint8_t *p, uint32_t len, struct or_val *v)
{
	uint32_t pos = 0;

	for (; nsteps; nsteps--, s++) {
		uint32_t rem = len - pos;

		switch (s->kind) {
		case L_RUN:
			if (rem < s->size || rules(ld + s->rules, s->nrules, p + pos))
				return -1;
			keeps(ld + s->keeps, s->nkeeps, p + pos, pos, v);
			pos += s->size;
			break;
		case L_USTR: {
			uint32_t bad, k = or_utf16_scan(p + pos, rem, &bad);
			if (k + 1 >= rem || bad != UINT32_MAX)
				return -1;
			pos += k + 2;
			break;
		}
		case L_ASTR: {
			const uint8_t *z = rem ? memchr(p + pos, 0, rem) : NULL;
			if (!z)
				return -1;
			pos = (uint32_t)(z - p) + 1;
			break;
		}
		case L_BINARY: {
			uint64_t n = s->count >= 0 ? v[s->count].u : 0;
			if (n > rem)
				return -1;
			pos += (uint32_t)n;
			break;
		}
		default: { /* L_STRUCT */
			uint64_t count = s->count >= 0 ? v[s->count].u : 0;
			if (count > rem / s->size)
				return -1;
			for (uint64_t e = 0; s->nrules && e < count; e++) {
				uint32_t es = pos + (uint32_t)e * s->size;
				if (rules(ld + s->rules, s->nrules, p + es))
					return -1;
			}
			pos += (uint32_t)count * s->size;
			break;
		}
		}
	}
	return pos == len ? 0 : -1;
}

int or_decode_lean(struct or_ctx *ctx, const struct or_event *ev,
                   const struct gcspec_event *spec, struct or_decoded *out)
{
	unsigned ps = (ev->pointer_size ? ev->pointer_size : ctx->info.pointer_size) == 4 ? 0 : 1;
	unsigned idx = (unsigned)(spec - gcspec_events);
	const struct lprog *pr;

	if (ctx->keep != built) {
		if (!ctx->keep)
			return or_decode(ctx, ev, spec, out);
		lean_init(ctx->keep);
	}
	pr = &progs[ps][idx];
	if (pr->fixed) {
		/* Most GC events: one run of fixed fields, exactly. */
		const uint8_t *p = ev->payload;

		if (ev->payload_len != pr->size || rules(loads[ps] + pr->rules, pr->nrules, p))
			return or_decode(ctx, ev, spec, out);
		keeps(loads[ps] + pr->keeps, pr->nkeeps, p, 0, out->v);
	} else if (!pr->ok || run(&steps[ps][pr->first], pr->n, loads[ps], ev->payload,
	                          ev->payload_len, out->v)) {
		return or_decode(ctx, ev, spec, out);
	}
	out->spec = spec;
	out->event = idx;
	out->payload = ev->payload;
	out->payload_len = ev->payload_len;
	out->pointer_size = (uint8_t)(ps ? 8 : 4);
	out->nvalid = spec->nfields;
	out->complete = 1;
	return 0;
}
