/*
 * ctf_lex.h - tokens of TSDL text (CTF 1.8 section 7.2), for ctf_tsdl.c.
 *
 * The lexer walks text[0..len) without copying it: a token is its kind, its
 * offset and length in the text, and for numbers the value. Comments (C and
 * C++ style) and white space are skipped. Errors: ctf_lex_next returns
 * CT_ERR with err set (offset of the bad character, message).
 */
#ifndef ORACLE_CTF_LEX_H
#define ORACLE_CTF_LEX_H

#include <stddef.h>
#include <stdint.h>

enum ctf_tok { CT_EOF, CT_ID, CT_NUM, CT_STR, CT_PUNCT, CT_ERR };

struct ctf_lex {
	const char *s;
	size_t len, pos;
	/* the current token */
	enum ctf_tok t;
	size_t off, tlen;
	uint64_t num;
	char err[128];
};

void ctf_lex_init(struct ctf_lex *l, const char *s, size_t len);
enum ctf_tok ctf_lex_next(struct ctf_lex *l);
/* Is the current token the punctuation p ("{", ":=", "...")? */
int ctf_lex_is(const struct ctf_lex *l, const char *p);
/* Is the current token the identifier w? */
int ctf_lex_word(const struct ctf_lex *l, const char *w);

#endif
