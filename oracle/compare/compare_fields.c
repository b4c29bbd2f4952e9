/*
 * compare_fields.c - one field value of an expectation against a decoder's,
 * by the field's in-type, and the JSON rendering of expected values in the
 * shape gcoracle --json prints (output.h). The rules (docs/using-the-corpus.md):
 *
 *   integers, Pointer    the same integer (a JSON number, exactly)
 *   Boolean              true/false, or the number; a number other than 0
 *                        or 1 (a Win32 BOOL) also matches true
 *   UnicodeString        the same text
 *   AnsiString           the same bytes, or those bytes read as Latin-1 (the
 *                        code page of an ANSI string is not in the trace)
 *   GUID                 "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", any case,
 *                        braces allowed
 *   Binary               lowercase or uppercase hex
 *   Float/Double         the same number
 *   a field with a map   also the name of its value in the spec's map
 *                        (flags: names joined by "," or "|")
 *   an array member      an array of those integers (BulkType's
 *                        Values[].TypeParameters); expectations hold the
 *                        values' little-endian wire bytes
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "oracle/compare/compare.h"
#include "util/utf.h"

static void guid_text(const struct cv *v, char out[40])
{
	const uint8_t *b = (const uint8_t *)v->s;

	snprintf(out, 40, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[3], b[2], b[1], b[0], b[5], b[4], b[7], b[6], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
}

/* Exact integer value of v as (negative?, magnitude); 0 when not an integer. */
static int int_of(const struct cv *v, int *neg, uint64_t *mag)
{
	if (v->kind == CV_UINT || v->kind == CV_BOOL) {
		*neg = 0;
		*mag = v->u;
		return 1;
	}
	if (v->kind == CV_NEG) {
		*neg = 1;
		*mag = v->u; /* value = -1 - mag */
		return 1;
	}
	if (v->kind == CV_DOUBLE && v->d == floor(v->d) && fabs(v->d) <= 9007199254740992.0) {
		*neg = v->d < 0;
		*mag = *neg ? (uint64_t)(-v->d) - 1 : (uint64_t)v->d;
		return 1;
	}
	return 0;
}

static int same_int(const struct cv *e, const struct cv *a)
{
	int en, an;
	uint64_t em, am;

	if (!int_of(e, &en, &em) || !int_of(a, &an, &am))
		return 0;
	/* A double stands for an integer only where doubles are exact. */
	if (a->kind == CV_DOUBLE && em > 9007199254740992ull)
		return 0;
	return en == an && em == am;
}

static int hexval(int c)
{
	return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* Do the hex digits of t (dashes and braces skipped when skip) spell b? */
static int same_hex(const uint8_t *b, size_t n, const char *t, size_t tn, int skip)
{
	size_t k = 0;

	for (size_t i = 0; i < tn; i++) {
		int hi, lo;

		if (skip && (t[i] == '-' || t[i] == '{' || t[i] == '}'))
			continue;
		if (i + 1 >= tn || (hi = hexval((unsigned char)t[i])) < 0 ||
		    (lo = hexval((unsigned char)t[i + 1])) < 0 || k >= n || b[k] != (hi << 4 | lo))
			return 0;
		k++;
		i++;
	}
	return k == n;
}

static int same_guid(const struct cv *e, const struct cv *a)
{
	char g[40];
	const char *t = a->s;
	size_t tn = a->n;

	if (e->kind != CV_BYTES || e->n != 16 || a->kind != CV_TEXT)
		return 0;
	guid_text(e, g);
	if (tn == 38 && t[0] == '{' && t[37] == '}')
		t++, tn -= 2;
	return tn == 36 && strncasecmp(t, g, 36) == 0;
}

static int same_latin1(const struct cv *e, const struct cv *a)
{
	size_t at = 0;

	for (size_t i = 0; i < e->n; i++) {
		uint8_t b[4];
		unsigned n = or_utf8_put((uint8_t)e->s[i], b);

		if (a->n - at < n || memcmp(a->s + at, b, n) != 0)
			return 0;
		at += n;
	}
	return at == a->n;
}

/* A UnicodeString the model recorded as its UTF-16LE bytes (not valid
 * UTF-16): what a decoder shows is its text with U+FFFD for lone halves. */
static int same_utf16(const struct cv *e, const struct cv *a)
{
	size_t at = 0;
	uint32_t k = 0, n = (uint32_t)(e->n & ~(size_t)1);

	while (k + 1 < n) {
		uint8_t b[4];
		unsigned m = or_utf8_put(or_utf16_next((const uint8_t *)e->s, n, &k), b);

		if (a->n - at < m || memcmp(a->s + at, b, m) != 0)
			return 0;
		at += m;
	}
	return at == a->n;
}

/* A mapped field printed by its value's name ("Small"; flags as "A, B" or
 * "A|B", as .NET prints enums): do the names spell the expected value? */
static int same_name(const struct gcspec_field *f, const struct cv *e, const struct cv *a)
{
	const struct gcspec_map *mp = &gcspec_maps[f->map];
	uint64_t want, got = 0;
	unsigned tokens = 0;
	int neg;

	if (!int_of(e, &neg, &want) || neg)
		return 0;
	for (const char *p = a->s; *p;) {
		size_t k;
		unsigned j;

		while (*p == ' ' || *p == ',' || *p == '|')
			p++;
		if (!*p)
			break;
		k = strcspn(p, ",|");
		while (k && p[k - 1] == ' ')
			k--;
		for (j = 0; j < mp->nvalues; j++) {
			const char *name = gcspec_map_values[mp->first_value + j].name;

			if (strlen(name) == k && strncmp(name, p, k) == 0)
				break;
		}
		if (j == mp->nvalues || (++tokens > 1 && !mp->bitmap))
			return 0;
		got |= gcspec_map_values[mp->first_value + j].value;
		p += k;
	}
	return tokens && got == want;
}

/* Width of an array member's integer type. */
static unsigned array_width(const struct gcspec_field *f)
{
	switch (f->type) {
	case GCSPEC_UINT8: case GCSPEC_INT8: return 1;
	case GCSPEC_UINT16: case GCSPEC_INT16: return 2;
	case GCSPEC_UINT32: case GCSPEC_INT32: return 4;
	default: return 8;
	}
}

/* Value k of an expected array member (wire bytes) as a number. */
static struct cv array_item(const struct gcspec_field *f, const struct cv *e, size_t k)
{
	unsigned w = array_width(f);
	struct cv x = { 0 };
	uint64_t u = 0;

	for (unsigned b = 0; b < w; b++)
		u |= (uint64_t)(uint8_t)e->s[k * w + b] << (8 * b);
	x.kind = CV_UINT;
	if (f->type >= GCSPEC_INT8 && f->type <= GCSPEC_INT64 && w < 8 && u >> (8 * w - 1))
		u |= ~0ull << (8 * w);
	if (f->type >= GCSPEC_INT8 && f->type <= GCSPEC_INT64 && (int64_t)u < 0) {
		x.kind = CV_NEG;
		u = (uint64_t)(-1 - (int64_t)u);
	}
	x.u = u;
	return x;
}

static int same_array(const struct gcspec_field *f, const struct cv *e, const struct cv *a)
{
	unsigned w = array_width(f);

	if (a->kind != CV_ARRAY)
		return 0;
	if (e->kind == CV_ARRAY) {
		if (e->n != a->n)
			return 0;
		for (size_t k = 0; k < e->n; k++)
			if (!same_int(&e->item[k], &a->item[k]))
				return 0;
		return 1;
	}
	if (e->kind != CV_BYTES || e->n % w || e->n / w != a->n)
		return 0;
	for (size_t k = 0; k < a->n; k++) {
		struct cv x = array_item(f, e, k);
		if (!same_int(&x, &a->item[k]))
			return 0;
	}
	return 1;
}

int cf_same(const struct gcspec_field *f, const struct cv *e, const struct cv *a)
{
	if (f && gcspec_field_is_array(f))
		return same_array(f, e, a);
	if (f && f->map >= 0 && a->kind == CV_TEXT && f->type != GCSPEC_UNICODE_STRING &&
	    f->type != GCSPEC_ANSI_STRING)
		return same_name(f, e, a);
	switch (f ? f->type : 0) {
	case GCSPEC_BOOLEAN:
		if (a->kind == CV_BOOL && (e->kind == CV_BOOL || e->kind == CV_UINT))
			return a->u == (e->u != 0);
		return same_int(e, a);
	case GCSPEC_GUID:
		return same_guid(e, a);
	case GCSPEC_BINARY:
		return e->kind == CV_BYTES && a->kind == CV_TEXT &&
		       same_hex((const uint8_t *)e->s, e->n, a->s, a->n, 0);
	case GCSPEC_UNICODE_STRING:
		if (e->kind == CV_BYTES)
			return a->kind == CV_TEXT && same_utf16(e, a);
		return e->kind == CV_TEXT && a->kind == CV_TEXT && e->n == a->n &&
		       memcmp(e->s, a->s, e->n) == 0;
	case GCSPEC_ANSI_STRING:
		if (e->kind != CV_TEXT || a->kind != CV_TEXT)
			return 0;
		return (e->n == a->n && memcmp(e->s, a->s, e->n) == 0) || same_latin1(e, a);
	case GCSPEC_FLOAT:
		if (e->kind == CV_DOUBLE && (a->kind == CV_DOUBLE || same_int(e, a)))
			return a->kind != CV_DOUBLE || (float)a->d == (float)e->d ||
			       (isnan(a->d) && isnan(e->d));
		return same_int(e, a);
	case GCSPEC_DOUBLE:
		if (e->kind == CV_DOUBLE && a->kind == CV_DOUBLE)
			return a->d == e->d || (isnan(a->d) && isnan(e->d));
		return same_int(e, a);
	default:
		return same_int(e, a);
	}
}

/* Length of the valid UTF-8 sequence at s[0..n), or 0. */
static size_t utf8_len(const uint8_t *s, size_t n)
{
	size_t k = s[0] < 0x80 ? 1 : (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
		 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;

	if (!k || k > n || (k == 2 && s[0] < 0xC2))
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	return k;
}

void cf_json_string(FILE *out, const char *str, size_t n)
{
	const uint8_t *s = (const uint8_t *)str;

	fputc('"', out);
	for (size_t i = 0; i < n;) {
		size_t k = utf8_len(s + i, n - i);

		if (k == 1 && (s[i] == '"' || s[i] == '\\'))
			fprintf(out, "\\%c", s[i]);
		else if (k == 1 && s[i] < 0x20)
			fprintf(out, "\\u%04x", s[i]);
		else if (k)
			fwrite(s + i, 1, k, out);
		else
			fprintf(out, "\\u%04x", s[i]); /* not UTF-8: the byte as Latin-1 */
		i += k ? k : 1;
	}
	fputc('"', out);
}

void cf_render(FILE *out, const struct gcspec_field *f, const struct cv *v)
{
	switch (v->kind) {
	case CV_NULL: fputs("null", out); break;
	case CV_BOOL: fputs(v->u ? "true" : "false", out); break;
	case CV_UINT: fprintf(out, "%" PRIu64, v->u); break;
	case CV_NEG:
		if (v->u == UINT64_MAX)
			fputs("-18446744073709551616", out);
		else
			fprintf(out, "-%" PRIu64, v->u + 1);
		break;
	case CV_DOUBLE: fprintf(out, v->single ? "%.9g" : "%.17g", v->d); break;
	case CV_TEXT: cf_json_string(out, v->s, v->n); break;
	case CV_BYTES:
		if (f && gcspec_field_is_array(f) && v->n % array_width(f) == 0) {
			fputc('[', out);
			for (size_t k = 0; k < v->n / array_width(f); k++) {
				struct cv x = array_item(f, v, k);
				if (k)
					fputc(',', out);
				cf_render(out, NULL, &x);
			}
			fputc(']', out);
		} else if (f && f->type == GCSPEC_GUID && v->n == 16) {
			char g[40];

			guid_text(v, g);
			fprintf(out, "\"%s\"", g);
		} else if (f && f->type == GCSPEC_UNICODE_STRING) {
			uint32_t k = 0, n = (uint32_t)(v->n & ~(size_t)1);

			fputc('"', out);
			while (k + 1 < n) {
				uint8_t b[4];
				uint32_t cp = or_utf16_next((const uint8_t *)v->s, n, &k);

				if (cp == '"' || cp == '\\' || cp < 0x20)
					fprintf(out, cp < 0x20 ? "\\u%04x" : "\\%c", (unsigned)cp);
				else
					fwrite(b, 1, or_utf8_put(cp, b), out);
			}
			fputc('"', out);
		} else {
			fputc('"', out);
			for (size_t i = 0; i < v->n; i++)
				fprintf(out, "%02x", (uint8_t)v->s[i]);
			fputc('"', out);
		}
		break;
	case CV_ARRAY:
		fputc('[', out);
		for (size_t i = 0; i < v->n; i++) {
			if (i)
				fputc(',', out);
			/* Struct rows: their members have the types of f's members. */
			cf_render_members(out, f, &v->item[i]);
		}
		fputc(']', out);
		break;
	case CV_MAP:
		cf_render_members(out, NULL, v);
		break;
	}
}

void cf_render_members(FILE *out, const struct gcspec_field *sf, const struct cv *m)
{
	if (m->kind != CV_MAP) {
		cf_render(out, NULL, m);
		return;
	}
	fputc('{', out);
	for (size_t i = 0; i < m->n; i++) {
		const struct cv *k = &m->item[2 * i];
		const struct gcspec_field *mf = NULL;

		for (unsigned j = 1; sf && sf->type == GCSPEC_STRUCT && j <= sf->nmembers; j++)
			if (k->kind == CV_TEXT && strcmp(sf[j].name, k->s) == 0)
				mf = &sf[j];
		if (i)
			fputc(',', out);
		cf_render(out, NULL, k);
		fputc(':', out);
		cf_render(out, mf, &m->item[2 * i + 1]);
	}
	fputc('}', out);
}

const char *cf_text(char *buf, size_t n, const struct gcspec_field *f, const struct cv *v)
{
	FILE *m = fmemopen(buf, n, "w");

	if (!m) {
		snprintf(buf, n, "?");
		return buf;
	}
	cf_render(m, f, v);
	fclose(m);
	/* fmemopen leaves the last byte for the NUL; mark a cut value. */
	if (strlen(buf) >= n - 1 && n > 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}
