/*
 * compare_val.c - value trees from JSON and CBOR (see compare_val.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/model/cbor_scan.h"
#include "oracle/compare/compare_val.h"
#include "util/utf.h"

/* Free what v owns (children are stored inline in their parent's array;
 * depth is bounded by the parsers). */
static void release(struct cv *v)
{
	if (v->kind == CV_ARRAY || v->kind == CV_MAP) {
		size_t n = v->kind == CV_MAP ? 2 * v->n : v->n;

		for (size_t i = 0; i < n; i++)
			release(&v->item[i]);
		free(v->item);
	} else {
		free(v->s);
	}
	v->item = NULL;
	v->s = NULL;
}

void cv_free(struct cv *v)
{
	if (v) {
		release(v);
		free(v);
	}
}

const struct cv *cv_get(const struct cv *m, const char *key)
{
	size_t kl = strlen(key);

	if (!m || m->kind != CV_MAP)
		return NULL;
	for (size_t i = 0; i < m->n; i++) {
		const struct cv *k = &m->item[2 * i];

		if (k->kind == CV_TEXT && k->n == kl && memcmp(k->s, key, kl) == 0)
			return &m->item[2 * i + 1];
	}
	return NULL;
}

const char *cv_text(const struct cv *v, const char *def)
{
	return v && v->kind == CV_TEXT ? v->s : def;
}

uint64_t cv_uint(const struct cv *v, uint64_t def)
{
	return v && v->kind == CV_UINT ? v->u : def;
}

int cv_array_has(const struct cv *a, const char *s)
{
	for (size_t i = 0; a && a->kind == CV_ARRAY && i < a->n; i++)
		if (a->item[i].kind == CV_TEXT && strcmp(a->item[i].s, s) == 0)
			return 1;
	return 0;
}

/* A growable array of nodes while a container is being parsed. */
struct nodes {
	struct cv *v;
	size_t n, cap;
};

static struct cv *push(struct nodes *ns)
{
	if (ns->n == ns->cap) {
		size_t cap = ns->cap ? ns->cap * 2 : 8;
		struct cv *v = realloc(ns->v, cap * sizeof *v);

		if (!v)
			return NULL;
		ns->v = v;
		ns->cap = cap;
	}
	memset(&ns->v[ns->n], 0, sizeof ns->v[0]);
	return &ns->v[ns->n++];
}

static void drop(struct nodes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		release(&ns->v[i]);
	free(ns->v);
}

/* --- JSON ------------------------------------------------------------------ */

struct jp {
	const char *start, *p, *end;
	char *err;
	size_t errlen;
};

static int jfail(struct jp *j, const char *what)
{
	snprintf(j->err, j->errlen, "%s at column %zu", what, (size_t)(j->p - j->start) + 1);
	return -1;
}

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n'))
		j->p++;
}

static int hex4(struct jp *j, uint32_t *u)
{
	*u = 0;
	if (j->end - j->p < 4)
		return -1;
	for (int k = 0; k < 4; k++) {
		char c = *j->p++;

		*u <<= 4;
		if (c >= '0' && c <= '9')
			*u |= (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			*u |= (uint32_t)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			*u |= (uint32_t)(c - 'A' + 10);
		else
			return -1;
	}
	return 0;
}

static int jstring(struct jp *j, struct cv *v)
{
	size_t cap = 16, n = 0;
	char *s = malloc(cap);

	if (!s)
		return jfail(j, "out of memory");
	j->p++; /* the opening quote */
	for (;;) {
		uint8_t b[4];
		unsigned bn;
		uint32_t cp;

		if (j->p >= j->end) {
			free(s);
			return jfail(j, "unterminated string");
		}
		if (*j->p == '"') {
			j->p++;
			break;
		}
		if ((unsigned char)*j->p < 0x20) {
			free(s);
			return jfail(j, "control character in string");
		}
		if (*j->p != '\\') {
			b[0] = (uint8_t)*j->p++;
			bn = 1;
		} else {
			char e;

			j->p++;
			if (j->p >= j->end) {
				free(s);
				return jfail(j, "unterminated escape");
			}
			e = *j->p++;
			switch (e) {
			case '"': case '\\': case '/': cp = (uint32_t)e; break;
			case 'b': cp = 8; break;
			case 'f': cp = 12; break;
			case 'n': cp = 10; break;
			case 'r': cp = 13; break;
			case 't': cp = 9; break;
			case 'u':
				if (hex4(j, &cp)) {
					free(s);
					return jfail(j, "bad \\u escape");
				}
				/* A surrogate pair is one code point; a lone one is U+FFFD. */
				if (cp >= 0xD800 && cp <= 0xDBFF && j->end - j->p >= 6 && j->p[0] == '\\' &&
				    j->p[1] == 'u') {
					const char *save = j->p;
					uint32_t lo;

					j->p += 2;
					if (!hex4(j, &lo) && lo >= 0xDC00 && lo <= 0xDFFF)
						cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
					else
						j->p = save;
				}
				if (cp >= 0xD800 && cp <= 0xDFFF)
					cp = 0xFFFD;
				break;
			default:
				free(s);
				return jfail(j, "bad escape");
			}
			bn = or_utf8_put(cp, b);
		}
		if (n + bn + 1 > cap) {
			char *t = realloc(s, cap *= 2);

			if (!t) {
				free(s);
				return jfail(j, "out of memory");
			}
			s = t;
		}
		memcpy(s + n, b, bn);
		n += bn;
	}
	s[n] = 0;
	v->kind = CV_TEXT;
	v->s = s;
	v->n = n;
	return 0;
}

static int jnumber(struct jp *j, struct cv *v)
{
	const char *start = j->p;
	int neg = 0, integral = 1;
	char buf[64];
	size_t len;

	if (*j->p == '-') {
		neg = 1;
		j->p++;
	}
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return jfail(j, "bad number");
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		integral = 0;
		j->p++;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		integral = 0;
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	len = (size_t)(j->p - start);
	if (len >= sizeof buf)
		return jfail(j, "number too long");
	memcpy(buf, start, len);
	buf[len] = 0;
	if (integral) {
		unsigned long long u;

		errno = 0;
		u = strtoull(buf + neg, NULL, 10);
		if (!errno && (!neg || u != 0)) {
			v->kind = neg ? CV_NEG : CV_UINT;
			v->u = neg ? (uint64_t)u - 1 : (uint64_t)u;
			return 0;
		}
		if (!errno) { /* -0 */
			v->kind = CV_UINT;
			v->u = 0;
			return 0;
		}
	}
	v->kind = CV_DOUBLE;
	v->d = strtod(buf, NULL);
	return 0;
}

static int jvalue(struct jp *j, struct cv *v, int depth);

static int jcontainer(struct jp *j, struct cv *v, int depth, int is_map)
{
	struct nodes ns = { 0 };
	char close = is_map ? '}' : ']';

	j->p++;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		goto done;
	}
	for (;;) {
		struct cv *x;

		ws(j);
		if (is_map) {
			if (j->p >= j->end || *j->p != '"' || !(x = push(&ns)) || jstring(j, x))
				goto bad;
			ws(j);
			if (j->p >= j->end || *j->p != ':')
				goto bad;
			j->p++;
			ws(j);
		}
		if (!(x = push(&ns)) || jvalue(j, x, depth + 1))
			goto bad;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			break;
		}
		goto bad;
	}
done:
	v->kind = is_map ? CV_MAP : CV_ARRAY;
	v->item = ns.v;
	v->n = is_map ? ns.n / 2 : ns.n;
	return 0;
bad:
	drop(&ns);
	if (!j->err[0])
		jfail(j, is_map ? "bad object" : "bad array");
	return -1;
}

static int word(struct jp *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n) != 0)
		return 0;
	j->p += n;
	return 1;
}

static int jvalue(struct jp *j, struct cv *v, int depth)
{
	if (depth > CV_MAX_DEPTH)
		return jfail(j, "nested too deeply");
	ws(j);
	if (j->p >= j->end)
		return jfail(j, "value expected");
	switch (*j->p) {
	case '{': return jcontainer(j, v, depth, 1);
	case '[': return jcontainer(j, v, depth, 0);
	case '"': return jstring(j, v);
	case 't': if (word(j, "true")) { v->kind = CV_BOOL; v->u = 1; return 0; } break;
	case 'f': if (word(j, "false")) { v->kind = CV_BOOL; v->u = 0; return 0; } break;
	case 'n': if (word(j, "null")) { v->kind = CV_NULL; return 0; } break;
	default:
		if (*j->p == '-' || (*j->p >= '0' && *j->p <= '9'))
			return jnumber(j, v);
	}
	return jfail(j, "not a JSON value");
}

struct cv *cv_parse_json(const char *text, size_t len, char *err, size_t errlen)
{
	struct jp j = { text, text, text + len, err, errlen };
	struct cv *v = calloc(1, sizeof *v);

	err[0] = 0;
	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (jvalue(&j, v, 0)) {
		cv_free(v);
		return NULL;
	}
	ws(&j);
	if (j.p != j.end) {
		snprintf(err, errlen, "text after the JSON value");
		cv_free(v);
		return NULL;
	}
	return v;
}

/* --- CBOR ------------------------------------------------------------------ */

static double half_to_double(unsigned h)
{
	int e = (int)(h >> 10 & 31);
	double m = h & 1023, d;

	if (e == 0)
		d = m / (1 << 24);
	else if (e == 31)
		d = m ? NAN : INFINITY;
	else
		d = (1024 + m) / 1024 * (e >= 15 ? (double)(1u << (e - 15)) : 1.0 / (1u << (15 - e)));
	return h & 0x8000 ? -d : d;
}

static int cbor_item(const uint8_t *p, size_t n, size_t *pos, struct cv *v, int depth,
		     char *err, size_t errlen)
{
	struct or_cbor_head h;
	size_t at = *pos;

	if (depth > CV_MAX_DEPTH || or_cbor_head(p, n, pos, &h) != 1 || h.indef) {
		snprintf(err, errlen, "malformed or unsupported CBOR at byte %zu", at);
		return -1;
	}
	switch (h.major) {
	case 0: v->kind = CV_UINT; v->u = h.arg; return 0;
	case 1: v->kind = CV_NEG; v->u = h.arg; return 0;
	case 2: case 3:
		if (h.arg > n - *pos) {
			snprintf(err, errlen, "string past the end at byte %zu", at);
			return -1;
		}
		v->kind = h.major == 2 ? CV_BYTES : CV_TEXT;
		if (!(v->s = malloc((size_t)h.arg + 1))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		memcpy(v->s, p + *pos, (size_t)h.arg);
		v->s[h.arg] = 0;
		v->n = (size_t)h.arg;
		*pos += (size_t)h.arg;
		return 0;
	case 4: case 5: {
		/* Each element takes at least one byte: bound the count first. */
		uint64_t count = h.major == 5 ? 2 * h.arg : h.arg;

		if (h.arg > n || count > n - *pos) {
			snprintf(err, errlen, "count past the end at byte %zu", at);
			return -1;
		}
		v->kind = h.major == 5 ? CV_MAP : CV_ARRAY;
		v->n = (size_t)h.arg;
		if (count && !(v->item = calloc((size_t)count, sizeof *v->item))) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		for (uint64_t i = 0; i < count; i++)
			if (cbor_item(p, n, pos, &v->item[i], depth + 1, err, errlen))
				return -1;
		return 0;
	}
	case 6:
		return cbor_item(p, n, pos, v, depth + 1, err, errlen); /* tags: the content */
	default:
		if (h.minor == 20 || h.minor == 21) {
			v->kind = CV_BOOL;
			v->u = h.minor == 21;
		} else if (h.minor == 22 || h.minor == 23) {
			v->kind = CV_NULL;
		} else if (h.minor == 25) {
			v->kind = CV_DOUBLE;
			v->d = half_to_double((unsigned)h.arg);
			v->single = 1;
		} else if (h.minor == 26) {
			uint32_t b = (uint32_t)h.arg;
			float f;

			memcpy(&f, &b, 4);
			v->kind = CV_DOUBLE;
			v->d = f;
			v->single = 1;
		} else if (h.minor == 27) {
			memcpy(&v->d, &h.arg, 8);
			v->kind = CV_DOUBLE;
		} else {
			snprintf(err, errlen, "unsupported simple value at byte %zu", at);
			return -1;
		}
		return 0;
	}
}

struct cv *cv_parse_cbor(const uint8_t *p, size_t n, size_t *pos, char *err, size_t errlen)
{
	struct cv *v = calloc(1, sizeof *v);

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (cbor_item(p, n, pos, v, 0, err, errlen)) {
		cv_free(v);
		return NULL;
	}
	return v;
}
