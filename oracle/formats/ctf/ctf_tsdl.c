/*
 * ctf_tsdl.c - the TSDL parser (see ctf_meta.h): recursive descent over the
 * tokens of ctf_lex.c, building the type and class tables of a ctf_meta.
 *
 * Errors unwind with longjmp to ctf_meta_parse; everything allocated until
 * then is owned by the parser or the ctf_meta, so nothing leaks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_lex.h"
#include "oracle/formats/ctf/ctf_meta.h"
#include "spec/gcspec.h"

#define MAX_DEPTH 64

struct alias {
	const char *name;          /* "unsigned long": words joined by one space */
	int32_t type;
};

struct named {
	uint8_t kind;              /* CK_STRUCT, CK_VARIANT, CK_ENUM */
	const char *name;
	int32_t type;
};

struct parser {
	struct ctf_lex lx;
	struct ctf_meta *m;
	struct ctf_meta_err *err;
	jmp_buf fail;
	unsigned depth;
	struct alias *aliases;
	size_t naliases, capaliases;
	struct named *named;
	size_t nnamed, capnamed;
	struct ctf_field *stk;     /* fields of the structs being parsed */
	size_t nstk, capstk;
	struct ctf_enum_map *mstk; /* mappings of the enums being parsed */
	size_t nmstk, capmstk;
};

struct chunk {
	struct chunk *next;
	char data[];
};

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 4, 5)))
#endif
static void error(struct parser *p, unsigned code, size_t off, const char *fmt, ...)
{
	va_list ap;

	p->err->code = code;
	p->err->text_off = (uint32_t)off;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof p->err->msg, fmt, ap);
	va_end(ap);
	longjmp(p->fail, 1);
}

#define SYNTAX(p, off, ...) error((p), GCSPEC_DIAG_C004, (off), __VA_ARGS__)
#define INVALID(p, off, ...) error((p), GCSPEC_DIAG_C005, (off), __VA_ARGS__)

/* Room for element n of *a. */
static void grow(struct parser *p, void **a, size_t *cap, size_t n, size_t size)
{
	void *b;
	size_t c = *cap ? 2 * *cap : 32;

	if (n < *cap)
		return;
	if (!(b = realloc(*a, c * size)))
		INVALID(p, p->lx.off, "out of memory reading the metadata");
	*a = b;
	*cap = c;
}

static const char *save(struct parser *p, const char *s, size_t n)
{
	struct ctf_meta *m = p->m;
	char *d;

	if (n + 1 > m->chunk_left) {
		size_t size = n + 1 > 16384 ? n + 1 : 16384;
		struct chunk *c = malloc(sizeof *c + size);

		if (!c)
			INVALID(p, p->lx.off, "out of memory reading the metadata");
		c->next = m->chunks;
		m->chunks = c;
		m->chunk_at = c->data;
		m->chunk_left = size;
	}
	d = m->chunk_at;
	memcpy(d, s, n);
	d[n] = 0;
	m->chunk_at += n + 1;
	m->chunk_left -= n + 1;
	return d;
}

static void next(struct parser *p)
{
	if (ctf_lex_next(&p->lx) == CT_ERR)
		SYNTAX(p, p->lx.off, "%s", p->lx.err);
}

static void expect(struct parser *p, const char *punct)
{
	if (!ctf_lex_is(&p->lx, punct))
		SYNTAX(p, p->lx.off, "expected '%s' here", punct);
	next(p);
}

static const char *tok(struct parser *p)
{
	return save(p, p->lx.s + p->lx.off, p->lx.tlen);
}

/* The current string token, quotes and escapes removed. */
static const char *str_tok(struct parser *p)
{
	const char *s = p->lx.s + p->lx.off + 1;
	size_t n = p->lx.tlen - 2, k = 0;
	char buf[1024];

	for (size_t i = 0; i < n && k < sizeof buf - 1; i++) {
		if (s[i] == '\\' && i + 1 < n) {
			i++;
			buf[k++] = s[i] == 'n' ? '\n' : s[i] == 't' ? '\t' : s[i];
		} else {
			buf[k++] = s[i];
		}
	}
	return save(p, buf, k);
}

static int32_t new_type(struct parser *p, uint8_t kind, size_t off)
{
	struct ctf_meta *m = p->m;
	struct ctf_type *t;

	grow(p, (void **)&m->types, &m->captypes, m->ntypes, sizeof *m->types);
	t = &m->types[m->ntypes];
	memset(t, 0, sizeof *t);
	t->kind = kind;
	t->clock = -1;
	t->elem = -1;
	t->align = 8;
	t->text_off = (uint32_t)off;
	return (int32_t)m->ntypes++;
}

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* --- attribute values ------------------------------------------------- */

enum { V_NUM, V_STR, V_ID };

struct value {
	int kind;
	int neg;
	uint64_t u;                /* V_NUM: magnitude */
	const char *s;             /* V_STR, V_ID (dotted words joined by '.') */
	size_t off;
};

/* key = value ; with the current token after '='. */
static void value(struct parser *p, struct value *v)
{
	memset(v, 0, sizeof *v);
	v->off = p->lx.off;
	if (ctf_lex_is(&p->lx, "-") || ctf_lex_is(&p->lx, "+")) {
		v->neg = ctf_lex_is(&p->lx, "-");
		next(p);
		if (p->lx.t != CT_NUM)
			SYNTAX(p, p->lx.off, "expected a number after the sign");
	}
	if (p->lx.t == CT_NUM) {
		v->kind = V_NUM;
		v->u = p->lx.num;
		next(p);
	} else if (p->lx.t == CT_STR) {
		v->kind = V_STR;
		v->s = str_tok(p);
		next(p);
	} else if (p->lx.t == CT_ID) {
		char buf[512];
		size_t k = 0;

		for (;;) {
			size_t n = p->lx.tlen;

			if (k + n + 2 > sizeof buf)
				SYNTAX(p, p->lx.off, "name too long");
			memcpy(buf + k, p->lx.s + p->lx.off, n);
			k += n;
			next(p);
			if (!ctf_lex_is(&p->lx, "."))
				break;
			buf[k++] = '.';
			next(p);
			if (p->lx.t != CT_ID)
				SYNTAX(p, p->lx.off, "expected a name after '.'");
		}
		v->kind = V_ID;
		v->s = save(p, buf, k);
	} else {
		SYNTAX(p, p->lx.off, "expected a value");
	}
}

static int64_t num_value(struct parser *p, const struct value *v, const char *what)
{
	if (v->kind != V_NUM)
		INVALID(p, v->off, "%s must be a number", what);
	if (v->u > (v->neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX))
		INVALID(p, v->off, "%s out of range", what);
	return v->neg ? (int64_t)(0 - v->u) : (int64_t)v->u;
}

static int bool_value(struct parser *p, const struct value *v)
{
	if (v->kind == V_NUM)
		return v->u != 0;
	if (v->kind == V_ID && (strcmp(v->s, "true") == 0 || strcmp(v->s, "TRUE") == 0))
		return 1;
	if (v->kind == V_ID && (strcmp(v->s, "false") == 0 || strcmp(v->s, "FALSE") == 0))
		return 0;
	INVALID(p, v->off, "expected true or false");
}

static uint8_t byte_order_value(struct parser *p, const struct value *v, int allow_native)
{
	if (v->kind == V_ID) {
		if (strcmp(v->s, "le") == 0 || strcmp(v->s, "little_endian") == 0)
			return 1;
		if (strcmp(v->s, "be") == 0 || strcmp(v->s, "big_endian") == 0 ||
		    strcmp(v->s, "network") == 0)
			return 2;
		if (allow_native && strcmp(v->s, "native") == 0)
			return 0;
	}
	INVALID(p, v->off, "byte_order must be le, be%s", allow_native ? ", network or native" : " or network");
}

static uint8_t encoding_value(struct parser *p, const struct value *v)
{
	if (v->kind == V_ID && strcmp(v->s, "none") == 0)
		return 0;
	if (v->kind == V_ID && (strcmp(v->s, "UTF8") == 0 || strcmp(v->s, "utf8") == 0))
		return 1;
	if (v->kind == V_ID && (strcmp(v->s, "ASCII") == 0 || strcmp(v->s, "ascii") == 0))
		return 2;
	INVALID(p, v->off, "encoding must be none, UTF8 or ASCII");
}

static int parse_uuid(const char *s, uint8_t out[16])
{
	unsigned k = 0;

	for (; *s && k < 32; s++) {
		int d;

		if (*s == '-')
			continue;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			return -1;
		if (k % 2 == 0)
			out[k / 2] = (uint8_t)(d << 4);
		else
			out[k / 2] |= (uint8_t)d;
		k++;
	}
	return k == 32 && !*s ? 0 : -1;
}

/* --- types -------------------------------------------------------------- */

static int32_t type_spec(struct parser *p);

static int32_t find_alias(struct parser *p, const char *name, size_t off)
{
	for (size_t i = p->naliases; i-- > 0;)
		if (strcmp(p->aliases[i].name, name) == 0)
			return p->aliases[i].type;
	INVALID(p, off, "undefined type '%s'", name);
}

static void add_alias(struct parser *p, const char *name, int32_t type)
{
	grow(p, (void **)&p->aliases, &p->capaliases, p->naliases, sizeof *p->aliases);
	p->aliases[p->naliases++] = (struct alias){ name, type };
}

static int32_t find_named(struct parser *p, uint8_t kind, const char *name, size_t off)
{
	for (size_t i = p->nnamed; i-- > 0;)
		if (p->named[i].kind == kind && strcmp(p->named[i].name, name) == 0)
			return p->named[i].type;
	INVALID(p, off, "undefined %s '%s'", kind == CK_STRUCT ? "struct" : kind == CK_ENUM ? "enum" : "variant",
		name);
}

static void add_named(struct parser *p, uint8_t kind, const char *name, int32_t type)
{
	grow(p, (void **)&p->named, &p->capnamed, p->nnamed, sizeof *p->named);
	p->named[p->nnamed++] = (struct named){ kind, name, type };
}

/* Words "unsigned long" up to a non-word token, joined by spaces. */
static const char *words(struct parser *p, size_t *count)
{
	char buf[512];
	size_t k = 0;

	*count = 0;
	while (p->lx.t == CT_ID) {
		if (k + p->lx.tlen + 2 > sizeof buf)
			SYNTAX(p, p->lx.off, "type name too long");
		if (k)
			buf[k++] = ' ';
		memcpy(buf + k, p->lx.s + p->lx.off, p->lx.tlen);
		k += p->lx.tlen;
		(*count)++;
		next(p);
	}
	return save(p, buf, k);
}

static void int_attrs(struct parser *p, int32_t ti)
{
	int has_size = 0, has_align = 0;

	expect(p, "{");
	while (!ctf_lex_is(&p->lx, "}")) {
		struct value v;
		const char *key;
		size_t koff = p->lx.off;

		if (p->lx.t != CT_ID)
			SYNTAX(p, p->lx.off, "expected an integer attribute");
		key = tok(p);
		next(p);
		expect(p, "=");
		value(p, &v);
		expect(p, ";");
		struct ctf_type *t = &p->m->types[ti];
		if (strcmp(key, "size") == 0) {
			int64_t n = num_value(p, &v, "size");

			if (t->kind == CK_FLOAT)
				INVALID(p, koff, "floating_point has exp_dig and mant_dig, not size");
			if (n < 1 || n > 64)
				INVALID(p, v.off, "integer size %lld: must be 1 to 64 bits", (long long)n);
			t->size = (uint16_t)n;
			has_size = 1;
		} else if (strcmp(key, "align") == 0) {
			int64_t n = num_value(p, &v, "align");

			if (n < 1 || !is_pow2((uint64_t)n) || n > 4096)
				INVALID(p, v.off, "align %lld: must be a power of two (bits)", (long long)n);
			t->align = (uint32_t)n;
			has_align = 1;
		} else if (strcmp(key, "signed") == 0) {
			t->is_signed = (uint8_t)bool_value(p, &v);
		} else if (strcmp(key, "byte_order") == 0) {
			t->byte_order = byte_order_value(p, &v, 1);
		} else if (strcmp(key, "encoding") == 0) {
			t->encoding = encoding_value(p, &v);
		} else if (strcmp(key, "exp_dig") == 0) {
			t->exp_dig = (uint16_t)num_value(p, &v, "exp_dig");
		} else if (strcmp(key, "mant_dig") == 0) {
			t->mant_dig = (uint16_t)num_value(p, &v, "mant_dig");
		} else if (strcmp(key, "map") == 0) {
			/* clock.NAME.value */
			size_t n;
			const char *s = v.kind == V_ID ? v.s : "";

			if (strncmp(s, "clock.", 6) != 0 || (n = strlen(s)) < 13 ||
			    strcmp(s + n - 6, ".value") != 0)
				INVALID(p, v.off, "map must be clock.NAME.value");
			for (size_t c = 0; c < p->m->nclocks; c++)
				if (strlen(p->m->clocks[c].name) == n - 12 &&
				    strncmp(p->m->clocks[c].name, s + 6, n - 12) == 0)
					t->clock = (int32_t)c;
			if (t->clock < 0)
				INVALID(p, v.off, "map to an undeclared clock (%s)", s);
		}
		/* base and other attributes do not change the bits */
	}
	next(p);
	struct ctf_type *t = &p->m->types[ti];
	if (t->kind == CK_INT) {
		if (!has_size)
			INVALID(p, t->text_off, "integer without size");
		if (!has_align)
			t->align = t->size % 8 ? 1 : 8;
	} else if (t->kind == CK_FLOAT) {
		if (!((t->exp_dig == 8 && t->mant_dig == 24) || (t->exp_dig == 11 && t->mant_dig == 53)))
			INVALID(p, t->text_off, "floating_point with exp_dig %u, mant_dig %u: only 32 and 64 bits",
				t->exp_dig, t->mant_dig);
		t->size = (uint16_t)(t->exp_dig + t->mant_dig);
		if (!has_align)
			t->align = 8;
	}
}

/* Fields of a struct or variant body, "{" already current. Returns the
 * index of the first field in m->fields and the count. */
static void field_decls(struct parser *p, uint32_t *first, uint32_t *n);

static int32_t struct_spec(struct parser *p, uint8_t kind)
{
	size_t off = p->lx.off;
	const char *name = NULL, *tag = NULL, *defined = NULL;
	int32_t ti;

	next(p);
	if (p->lx.t == CT_ID) {
		name = tok(p);
		next(p);
	}
	if (kind == CK_VARIANT && ctf_lex_is(&p->lx, "<")) {
		struct value v;

		next(p);
		value(p, &v);
		if (v.kind != V_ID)
			SYNTAX(p, v.off, "expected the tag's name");
		tag = v.s;
		expect(p, ">");
	}
	if (ctf_lex_is(&p->lx, "{")) {
		uint32_t first, n, align = 1;

		field_decls(p, &first, &n);
		ti = new_type(p, kind, off);
		for (uint32_t i = 0; i < n; i++)
			if (p->m->types[p->m->fields[first + i].type].align > align)
				align = p->m->types[p->m->fields[first + i].type].align;
		p->m->types[ti].first = first;
		p->m->types[ti].n = n;
		p->m->types[ti].align = kind == CK_STRUCT ? align : 1;
		p->m->types[ti].ref = tag;
		defined = name;
	} else if (name) {
		ti = find_named(p, kind, name, off);
		if (tag) {
			/* A named variant used with its tag: a copy that has it. */
			int32_t c = new_type(p, kind, off);

			p->m->types[c] = p->m->types[ti];
			p->m->types[c].ref = tag;
			ti = c;
		}
	} else {
		SYNTAX(p, p->lx.off, "expected '{' or a name");
	}
	if (kind == CK_STRUCT && ctf_lex_word(&p->lx, "align")) {
		struct value v;
		int64_t a;

		next(p);
		expect(p, "(");
		value(p, &v);
		a = num_value(p, &v, "align");
		if (a < 1 || !is_pow2((uint64_t)a) || a > 4096)
			INVALID(p, v.off, "align(%lld): must be a power of two (bits)", (long long)a);
		expect(p, ")");
		if ((uint32_t)a > p->m->types[ti].align) {
			/* A reference gets its own copy: the named struct stays as defined. */
			if (!defined) {
				int32_t c = new_type(p, kind, off);

				p->m->types[c] = p->m->types[ti];
				ti = c;
			}
			p->m->types[ti].align = (uint32_t)a;
		}
	}
	if (defined)
		add_named(p, kind, defined, ti);
	return ti;
}

static int32_t enum_spec(struct parser *p)
{
	size_t off = p->lx.off, base;
	const char *name = NULL;
	int32_t container = -1, ti;
	int64_t next_val = 0;

	next(p);
	if (p->lx.t == CT_ID) {
		name = tok(p);
		next(p);
	}
	if (ctf_lex_is(&p->lx, ":")) {
		next(p);
		container = type_spec(p);
	}
	if (!ctf_lex_is(&p->lx, "{")) {
		if (!name)
			SYNTAX(p, p->lx.off, "expected '{'");
		return find_named(p, CK_ENUM, name, off);
	}
	if (container < 0)
		container = find_alias(p, "int", off);
	if (p->m->types[container].kind != CK_INT)
		INVALID(p, off, "an enum's container must be an integer");
	next(p);
	base = p->nmstk;
	while (!ctf_lex_is(&p->lx, "}")) {
		struct ctf_enum_map *e;
		const char *label;

		if (p->lx.t == CT_ID)
			label = tok(p);
		else if (p->lx.t == CT_STR)
			label = str_tok(p);
		else
			SYNTAX(p, p->lx.off, "expected an enum label");
		next(p);
		grow(p, (void **)&p->mstk, &p->capmstk, p->nmstk, sizeof *p->mstk);
		e = &p->mstk[p->nmstk++];
		e->name = label;
		e->lo = e->hi = next_val;
		if (ctf_lex_is(&p->lx, "=")) {
			struct value v;

			next(p);
			value(p, &v);
			e->lo = e->hi = v.kind == V_NUM && !v.neg ? (int64_t)v.u : num_value(p, &v, "enum value");
			if (ctf_lex_is(&p->lx, "...")) {
				next(p);
				value(p, &v);
				e->hi = v.kind == V_NUM && !v.neg ? (int64_t)v.u : num_value(p, &v, "enum value");
			}
		}
		next_val = e->hi + 1;
		if (ctf_lex_is(&p->lx, ","))
			next(p);
		else if (!ctf_lex_is(&p->lx, "}"))
			SYNTAX(p, p->lx.off, "expected ',' or '}'");
	}
	next(p);
	ti = new_type(p, CK_ENUM, off);
	{
		struct ctf_meta *m = p->m;
		size_t k = p->nmstk - base;

		for (size_t i = 0; i < k; i++) {
			grow(p, (void **)&m->maps, &m->capmaps, m->nmaps, sizeof *m->maps);
			m->maps[m->nmaps++] = p->mstk[base + i];
		}
		m->types[ti].first = (uint32_t)(m->nmaps - k);
		m->types[ti].n = (uint32_t)k;
		m->types[ti].elem = container;
		m->types[ti].size = m->types[container].size;
		m->types[ti].align = m->types[container].align;
		m->types[ti].is_signed = m->types[container].is_signed;
		m->types[ti].byte_order = m->types[container].byte_order;
		p->nmstk = base;
	}
	if (name)
		add_named(p, CK_ENUM, name, ti);
	return ti;
}

/* A type specifier: the current token is its first one. */
static int32_t type_spec(struct parser *p)
{
	size_t off = p->lx.off;
	int32_t ti;

	if (++p->depth > MAX_DEPTH)
		INVALID(p, off, "types nested more than %d deep", MAX_DEPTH);
	if (ctf_lex_word(&p->lx, "integer") || ctf_lex_word(&p->lx, "floating_point")) {
		ti = new_type(p, ctf_lex_word(&p->lx, "integer") ? CK_INT : CK_FLOAT, off);
		next(p);
		int_attrs(p, ti);
	} else if (ctf_lex_word(&p->lx, "string")) {
		ti = new_type(p, CK_STRING, off);
		next(p);
		if (ctf_lex_is(&p->lx, "{")) {
			next(p);
			while (!ctf_lex_is(&p->lx, "}")) {
				struct value v;
				int enc;

				if (p->lx.t != CT_ID)
					SYNTAX(p, p->lx.off, "expected a string attribute");
				enc = ctf_lex_word(&p->lx, "encoding");
				next(p);
				expect(p, "=");
				value(p, &v);
				expect(p, ";");
				if (enc)
					p->m->types[ti].encoding = encoding_value(p, &v);
			}
			next(p);
		}
	} else if (ctf_lex_word(&p->lx, "struct")) {
		ti = struct_spec(p, CK_STRUCT);
	} else if (ctf_lex_word(&p->lx, "variant")) {
		ti = struct_spec(p, CK_VARIANT);
	} else if (ctf_lex_word(&p->lx, "enum")) {
		ti = enum_spec(p);
	} else if (p->lx.t == CT_ID) {
		size_t n;
		const char *name = words(p, &n);

		ti = find_alias(p, name, off);
	} else {
		SYNTAX(p, off, "expected a type");
	}
	p->depth--;
	return ti;
}

/* Declarator suffixes [N] and [path] after the name; returns the type. */
static int32_t dims(struct parser *p, int32_t elem)
{
	uint64_t len[8];
	const char *ref[8];
	size_t offs[8];
	unsigned nd = 0;

	while (ctf_lex_is(&p->lx, "[")) {
		struct value v;

		if (nd == 8)
			INVALID(p, p->lx.off, "more than 8 array dimensions");
		offs[nd] = p->lx.off;
		next(p);
		value(p, &v);
		if (v.kind == V_NUM && !v.neg) {
			if (v.u > 0xFFFFFFFFu)
				INVALID(p, v.off, "array length %llu is too large", (unsigned long long)v.u);
			len[nd] = v.u;
			ref[nd] = NULL;
		} else if (v.kind == V_ID) {
			len[nd] = 0;
			ref[nd] = v.s;
		} else {
			SYNTAX(p, v.off, "expected a length");
		}
		expect(p, "]");
		nd++;
	}
	/* x[a][b]: an array of a arrays of b. */
	while (nd-- > 0) {
		int32_t t = new_type(p, ref[nd] ? CK_SEQUENCE : CK_ARRAY, offs[nd]);

		p->m->types[t].elem = elem;
		p->m->types[t].length = len[nd];
		p->m->types[t].ref = ref[nd];
		p->m->types[t].align = p->m->types[elem].align;
		elem = t;
	}
	return elem;
}

static void push_field(struct parser *p, const char *name, int32_t type)
{
	grow(p, (void **)&p->stk, &p->capstk, p->nstk, sizeof *p->stk);
	p->stk[p->nstk++] = (struct ctf_field){ name, type };
}

static void typealias(struct parser *p);
static void typedef_decl(struct parser *p);

static int is_type_keyword(const struct ctf_lex *l)
{
	return ctf_lex_word(l, "integer") || ctf_lex_word(l, "floating_point") ||
	       ctf_lex_word(l, "string") || ctf_lex_word(l, "struct") || ctf_lex_word(l, "variant") ||
	       ctf_lex_word(l, "enum");
}

static void field_decls(struct parser *p, uint32_t *first, uint32_t *n)
{
	size_t base = p->nstk;
	struct ctf_meta *m = p->m;

	expect(p, "{");
	while (!ctf_lex_is(&p->lx, "}")) {
		int32_t type;
		const char *name = NULL;

		if (ctf_lex_word(&p->lx, "typealias")) {
			typealias(p);
			continue;
		}
		if (ctf_lex_word(&p->lx, "typedef")) {
			typedef_decl(p);
			continue;
		}
		if (is_type_keyword(&p->lx)) {
			type = type_spec(p);
		} else if (p->lx.t == CT_ID) {
			/* "unsigned long events_discarded": the last word names the field. */
			char buf[512];
			size_t k = 0, last = 0, off = p->lx.off;

			while (p->lx.t == CT_ID) {
				if (k + p->lx.tlen + 2 > sizeof buf)
					SYNTAX(p, p->lx.off, "declaration too long");
				last = k ? k + 1 : 0;
				if (k)
					buf[k++] = ' ';
				memcpy(buf + k, p->lx.s + p->lx.off, p->lx.tlen);
				k += p->lx.tlen;
				next(p);
			}
			if (!last)
				SYNTAX(p, p->lx.off, "expected a field name after the type");
			name = save(p, buf + last, k - last);
			buf[last - 1] = 0;
			type = find_alias(p, buf, off);
		} else {
			SYNTAX(p, p->lx.off, "expected a field declaration");
		}
		for (;;) {
			if (!name) {
				if (p->lx.t != CT_ID)
					SYNTAX(p, p->lx.off, "expected a field name");
				name = tok(p);
				next(p);
			}
			push_field(p, name, dims(p, type));
			name = NULL;
			if (!ctf_lex_is(&p->lx, ","))
				break;
			next(p);
		}
		expect(p, ";");
	}
	next(p);
	*n = (uint32_t)(p->nstk - base);
	*first = (uint32_t)m->nfields;
	for (size_t i = base; i < p->nstk; i++) {
		grow(p, (void **)&m->fields, &m->capfields, m->nfields, sizeof *m->fields);
		m->fields[m->nfields++] = p->stk[i];
	}
	p->nstk = base;
}

static void typealias(struct parser *p)
{
	int32_t t;
	size_t n, off;
	const char *name;

	next(p);
	t = type_spec(p);
	expect(p, ":=");
	off = p->lx.off;
	name = words(p, &n);
	if (!n)
		SYNTAX(p, off, "expected the alias name");
	add_alias(p, name, dims(p, t));
	expect(p, ";");
}

static void typedef_decl(struct parser *p)
{
	int32_t t;

	next(p);
	t = type_spec(p);
	if (p->lx.t != CT_ID)
		SYNTAX(p, p->lx.off, "expected the type name");
	{
		const char *name = tok(p);

		next(p);
		add_alias(p, name, dims(p, t));
	}
	expect(p, ";");
}

/* --- blocks ------------------------------------------------------------ */

enum block { B_TRACE, B_ENV, B_CLOCK, B_STREAM, B_EVENT, B_CALLSITE };

static void block(struct parser *p, enum block b)
{
	struct ctf_meta *m = p->m;
	size_t off = p->lx.off;
	struct ctf_stream_class sc = { 0, -1, -1, -1, (uint32_t)off };
	struct ctf_event_class ec;
	struct ctf_clock ck = { NULL, 1000000000u, 0, 0 };

	memset(&ec, 0, sizeof ec);
	ec.context = ec.fields = -1;
	ec.text_off = (uint32_t)off;
	next(p);
	expect(p, "{");
	while (!ctf_lex_is(&p->lx, "}")) {
		char key[128];
		size_t k = 0, koff = p->lx.off;

		if (ctf_lex_word(&p->lx, "typealias")) {
			typealias(p);
			continue;
		}
		if (p->lx.t != CT_ID)
			SYNTAX(p, p->lx.off, "expected an attribute name");
		for (;;) {
			if (k + p->lx.tlen + 2 > sizeof key)
				SYNTAX(p, p->lx.off, "attribute name too long");
			memcpy(key + k, p->lx.s + p->lx.off, p->lx.tlen);
			k += p->lx.tlen;
			next(p);
			if (!ctf_lex_is(&p->lx, "."))
				break;
			key[k++] = '.';
			next(p);
			if (p->lx.t != CT_ID)
				SYNTAX(p, p->lx.off, "expected a name after '.'");
		}
		key[k] = 0;
		if (ctf_lex_is(&p->lx, ":=")) {
			int32_t t;

			next(p);
			t = type_spec(p);
			expect(p, ";");
			if (m->types[t].kind != CK_STRUCT && b != B_CALLSITE)
				INVALID(p, koff, "%s must be a struct", key);
			if (b == B_TRACE && strcmp(key, "packet.header") == 0)
				m->packet_header = t;
			else if (b == B_STREAM && strcmp(key, "packet.context") == 0)
				sc.packet_context = t;
			else if (b == B_STREAM && strcmp(key, "event.header") == 0)
				sc.event_header = t;
			else if (b == B_STREAM && strcmp(key, "event.context") == 0)
				sc.event_context = t;
			else if (b == B_EVENT && strcmp(key, "context") == 0)
				ec.context = t;
			else if (b == B_EVENT && strcmp(key, "fields") == 0)
				ec.fields = t;
			else if (b != B_CALLSITE)
				INVALID(p, koff, "'%s' is not a scope of this block", key);
			continue;
		}
		struct value v;

		expect(p, "=");
		value(p, &v);
		expect(p, ";");
		switch (b) {
		case B_TRACE:
			if (strcmp(key, "major") == 0)
				m->major = (int)num_value(p, &v, "major");
			else if (strcmp(key, "minor") == 0)
				m->minor = (int)num_value(p, &v, "minor");
			else if (strcmp(key, "byte_order") == 0)
				m->byte_order = byte_order_value(p, &v, 0);
			else if (strcmp(key, "uuid") == 0) {
				if (v.kind != V_STR || parse_uuid(v.s, m->uuid) < 0)
					INVALID(p, v.off, "uuid must be \"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx\"");
				m->has_uuid = 1;
			}
			break;
		case B_ENV:
			if (strcmp(key, "architecture_bit_width") == 0 && v.kind == V_NUM)
				m->arch_bits = (int64_t)v.u;
			else if (strcmp(key, "vpid") == 0 && v.kind == V_NUM)
				m->vpid = (int64_t)v.u;
			else if (strcmp(key, "hostname") == 0 && v.kind == V_STR)
				m->hostname = v.s;
			else if (strcmp(key, "domain") == 0 && v.kind == V_STR)
				m->domain = v.s;
			else if (strcmp(key, "tracer_name") == 0 && v.kind == V_STR)
				m->tracer_name = v.s;
			break;
		case B_CLOCK:
			if (strcmp(key, "name") == 0 && (v.kind == V_ID || v.kind == V_STR))
				ck.name = v.s;
			else if (strcmp(key, "freq") == 0) {
				int64_t f = num_value(p, &v, "freq");

				if (f <= 0)
					INVALID(p, v.off, "clock frequency must be above 0");
				ck.freq = (uint64_t)f;
			} else if (strcmp(key, "offset_s") == 0)
				ck.offset_s = num_value(p, &v, "offset_s");
			else if (strcmp(key, "offset") == 0)
				ck.offset = num_value(p, &v, "offset");
			break;
		case B_STREAM:
			if (strcmp(key, "id") == 0) {
				sc.id = (uint64_t)num_value(p, &v, "id");
			}
			break;
		case B_EVENT:
			if (strcmp(key, "name") == 0 && (v.kind == V_STR || v.kind == V_ID))
				ec.name = v.s;
			else if (strcmp(key, "id") == 0) {
				ec.id = (uint64_t)num_value(p, &v, "id");
				ec.has_id = 1;
			} else if (strcmp(key, "stream_id") == 0) {
				ec.stream_id = (uint64_t)num_value(p, &v, "stream_id");
				ec.has_stream_id = 1;
			}
			break;
		case B_CALLSITE:
			break;
		}
	}
	next(p);
	expect(p, ";");
	if (b == B_CLOCK) {
		if (!ck.name)
			INVALID(p, off, "a clock without a name");
		if (m->nclocks == sizeof m->clocks / sizeof m->clocks[0])
			INVALID(p, off, "more than 8 clocks");
		m->clocks[m->nclocks++] = ck;
	} else if (b == B_STREAM) {
		for (size_t i = 0; i < m->nstreams; i++)
			if (m->streams[i].id == sc.id)
				INVALID(p, off, "a second stream class with id %llu", (unsigned long long)sc.id);
		grow(p, (void **)&m->streams, &m->capstreams, m->nstreams, sizeof *m->streams);
		m->streams[m->nstreams++] = sc;
	} else if (b == B_EVENT) {
		if (!ec.name)
			ec.name = "";
		grow(p, (void **)&m->events, &m->capevents, m->nevents, sizeof *m->events);
		m->events[m->nevents++] = ec;
	}
}

/* Stream ids of event classes, and event ids unique per stream. */
static void check_classes(struct parser *p)
{
	struct ctf_meta *m = p->m;

	if (!m->nstreams) {
		/* No stream block: one implicit stream class, id 0. */
		grow(p, (void **)&m->streams, &m->capstreams, 0, sizeof *m->streams);
		m->streams[0] = (struct ctf_stream_class){ 0, -1, -1, -1, 0 };
		m->nstreams = 1;
	}
	for (size_t i = 0; i < m->nevents; i++) {
		struct ctf_event_class *e = &m->events[i];

		if (!e->has_stream_id) {
			if (m->nstreams > 1)
				INVALID(p, e->text_off, "event '%s' has no stream_id and there are several streams",
					e->name);
			e->stream_id = m->streams[0].id;
		} else {
			size_t s;

			for (s = 0; s < m->nstreams && m->streams[s].id != e->stream_id; s++)
				;
			if (s == m->nstreams)
				INVALID(p, e->text_off, "event '%s' belongs to undeclared stream %llu", e->name,
					(unsigned long long)e->stream_id);
		}
	}
	/* An event without id is id 0: alone in its stream, or a duplicate. */
	for (size_t i = 0; i < m->nevents; i++) {
		struct ctf_event_class *e = &m->events[i];

		for (size_t j = 0; j < i; j++)
			if (m->events[j].stream_id == e->stream_id && m->events[j].id == e->id)
				INVALID(p, e->text_off, "event '%s' reuses id %llu of event '%s'", e->name,
					(unsigned long long)e->id, m->events[j].name);
	}
}

static void parse_all(struct parser *p)
{
	struct ctf_meta *m = p->m;

	next(p);
	while (p->lx.t != CT_EOF) {
		if (ctf_lex_word(&p->lx, "typealias")) {
			typealias(p);
		} else if (ctf_lex_word(&p->lx, "typedef")) {
			typedef_decl(p);
		} else if (ctf_lex_word(&p->lx, "trace")) {
			block(p, B_TRACE);
		} else if (ctf_lex_word(&p->lx, "env")) {
			block(p, B_ENV);
		} else if (ctf_lex_word(&p->lx, "clock")) {
			block(p, B_CLOCK);
		} else if (ctf_lex_word(&p->lx, "stream")) {
			block(p, B_STREAM);
		} else if (ctf_lex_word(&p->lx, "event")) {
			block(p, B_EVENT);
		} else if (ctf_lex_word(&p->lx, "callsite")) {
			block(p, B_CALLSITE);
		} else if (is_type_keyword(&p->lx)) {
			type_spec(p);
			expect(p, ";");
		} else {
			SYNTAX(p, p->lx.off, "expected a declaration");
		}
	}
	if (m->major < 0 || m->minor < 0 || !m->byte_order)
		INVALID(p, 0, "the trace block lacks %s", m->major < 0 ? "major" : m->minor < 0 ? "minor"
			: "byte_order");
	check_classes(p);
}

int ctf_meta_parse(struct ctf_meta *m, const char *text, size_t len, struct ctf_meta_err *err)
{
	/* On the heap: what longjmp leaves behind must not be an automatic
	 * object changed since setjmp. */
	struct parser *p = calloc(1, sizeof *p);
	int rc = 0;

	memset(m, 0, sizeof *m);
	m->major = m->minor = -1;
	m->packet_header = -1;
	m->vpid = -1;
	memset(err, 0, sizeof *err);
	if (!p) {
		err->code = GCSPEC_DIAG_C005;
		snprintf(err->msg, sizeof err->msg, "out of memory reading the metadata");
		return -1;
	}
	p->m = m;
	p->err = err;
	ctf_lex_init(&p->lx, text, len);
	if (setjmp(p->fail))
		rc = -1;
	else
		parse_all(p);
	free(p->aliases);
	free(p->named);
	free(p->stk);
	free(p->mstk);
	free(p);
	return rc;
}

void ctf_meta_free(struct ctf_meta *m)
{
	struct chunk *c = m->chunks;

	while (c) {
		struct chunk *n = c->next;

		free(c);
		c = n;
	}
	free(m->types);
	free(m->fields);
	free(m->maps);
	free(m->streams);
	free(m->events);
	memset(m, 0, sizeof *m);
}
