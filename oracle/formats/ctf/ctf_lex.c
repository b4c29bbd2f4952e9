/*
 * ctf_lex.c - the TSDL lexer (see ctf_lex.h).
 */
#include <stdio.h>
#include <string.h>

#include "oracle/formats/ctf/ctf_lex.h"

void ctf_lex_init(struct ctf_lex *l, const char *s, size_t len)
{
	memset(l, 0, sizeof *l);
	l->s = s;
	l->len = len;
}

static int is_id(int c, int first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static enum ctf_tok fail(struct ctf_lex *l, size_t at, const char *msg)
{
	l->off = at;
	l->t = CT_ERR;
	snprintf(l->err, sizeof l->err, "%s", msg);
	return CT_ERR;
}

/* Skip white space and comments; CT_ERR for an unterminated comment. */
static int skip(struct ctf_lex *l)
{
	const char *s = l->s;

	while (l->pos < l->len) {
		char c = s[l->pos];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
			l->pos++;
		} else if (c == '/' && l->pos + 1 < l->len && s[l->pos + 1] == '*') {
			size_t start = l->pos;

			l->pos += 2;
			while (l->pos + 1 < l->len && !(s[l->pos] == '*' && s[l->pos + 1] == '/'))
				l->pos++;
			if (l->pos + 1 >= l->len) {
				fail(l, start, "comment without end");
				return -1;
			}
			l->pos += 2;
		} else if (c == '/' && l->pos + 1 < l->len && s[l->pos + 1] == '/') {
			while (l->pos < l->len && s[l->pos] != '\n')
				l->pos++;
		} else {
			break;
		}
	}
	return 0;
}

static enum ctf_tok number(struct ctf_lex *l)
{
	const char *s = l->s;
	size_t p = l->pos;
	unsigned base = 10;
	uint64_t v = 0;

	if (s[p] == '0' && p + 1 < l->len && (s[p + 1] == 'x' || s[p + 1] == 'X')) {
		base = 16;
		p += 2;
	} else if (s[p] == '0') {
		base = 8;
	}
	for (; p < l->len; p++) {
		char c = s[p];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (d >= base)
			return fail(l, p, "bad digit in a number");
		if (v > (UINT64_MAX - d) / base)
			return fail(l, l->pos, "number above 2^64");
		v = v * base + d;
	}
	if (base == 16 && p == l->pos + 2)
		return fail(l, l->pos, "0x without digits");
	while (p < l->len && (s[p] == 'u' || s[p] == 'U' || s[p] == 'l' || s[p] == 'L'))
		p++;
	if (p < l->len && is_id((unsigned char)s[p], 0))
		return fail(l, p, "letters after a number");
	l->num = v;
	l->tlen = p - l->pos;
	l->pos = p;
	return l->t = CT_NUM;
}

enum ctf_tok ctf_lex_next(struct ctf_lex *l)
{
	const char *s = l->s;
	static const char *const multi[] = { ":=", "...", NULL };
	char c;

	if (l->t == CT_ERR)
		return CT_ERR;
	if (skip(l) < 0)
		return CT_ERR;
	l->off = l->pos;
	l->num = 0;
	if (l->pos >= l->len) {
		l->tlen = 0;
		return l->t = CT_EOF;
	}
	c = s[l->pos];
	if (is_id((unsigned char)c, 1)) {
		while (l->pos < l->len && is_id((unsigned char)s[l->pos], 0))
			l->pos++;
		l->tlen = l->pos - l->off;
		return l->t = CT_ID;
	}
	if (c >= '0' && c <= '9')
		return number(l);
	if (c == '"') {
		size_t p = l->pos + 1;

		while (p < l->len && s[p] != '"' && s[p] != '\n')
			p += s[p] == '\\' && p + 1 < l->len ? 2 : 1;
		if (p >= l->len || s[p] != '"')
			return fail(l, l->pos, "string without closing quote");
		l->tlen = p + 1 - l->pos;
		l->pos = p + 1;
		return l->t = CT_STR;
	}
	for (int i = 0; multi[i]; i++) {
		size_t k = strlen(multi[i]);

		if (l->pos + k <= l->len && memcmp(s + l->pos, multi[i], k) == 0) {
			l->pos += k;
			l->tlen = k;
			return l->t = CT_PUNCT;
		}
	}
	if (strchr("{}()[];,=:.<>-+*", c) && c) {
		l->pos++;
		l->tlen = 1;
		return l->t = CT_PUNCT;
	}
	{
		char msg[64];

		if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
			snprintf(msg, sizeof msg, "unexpected character '%c'", c);
		else
			snprintf(msg, sizeof msg, "unexpected byte 0x%02x", (unsigned char)c);
		return fail(l, l->pos, msg);
	}
}

int ctf_lex_is(const struct ctf_lex *l, const char *p)
{
	return l->t == CT_PUNCT && l->tlen == strlen(p) && memcmp(l->s + l->off, p, l->tlen) == 0;
}

int ctf_lex_word(const struct ctf_lex *l, const char *w)
{
	return l->t == CT_ID && l->tlen == strlen(w) && memcmp(l->s + l->off, w, l->tlen) == 0;
}
