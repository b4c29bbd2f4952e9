/*
 * compare_val.h - one value tree for both sides of gcoracle compare: the
 * expectation (CBOR, read with cbor_scan) and the decoder's output (JSON
 * lines, read by a small strict parser). Comparing two trees of the same
 * kind keeps the rules in one place whatever the encodings.
 *
 * Ownership: a tree is malloc'd node by node; cv_free releases it and all
 * its children. Parsers return NULL after writing a one-line reason into
 * err (errlen bytes). Nesting is limited to CV_MAX_DEPTH and every length
 * is checked against the bytes present, so hostile input cannot make them
 * recurse or allocate without bound.
 */
#ifndef ORACLE_COMPARE_VAL_H
#define ORACLE_COMPARE_VAL_H

#include <stddef.h>
#include <stdint.h>

#define CV_MAX_DEPTH 32

enum cv_kind {
	CV_NULL, CV_BOOL, CV_UINT, CV_NEG, CV_DOUBLE, CV_TEXT, CV_BYTES, CV_ARRAY, CV_MAP
};

struct cv {
	uint8_t kind;
	uint8_t single;   /* CV_DOUBLE read from a CBOR single-precision float */
	uint64_t u;       /* CV_BOOL 0/1, CV_UINT value, CV_NEG: the value is -1 - u */
	double d;         /* CV_DOUBLE */
	char *s;          /* CV_TEXT / CV_BYTES: n bytes, NUL-terminated too */
	struct cv *item;  /* CV_ARRAY: n items; CV_MAP: 2n (key, value, key, value...) */
	size_t n;
};

void cv_free(struct cv *v);

/* One JSON text (a whole line) into a tree. Numbers without a fraction or
 * exponent that fit 64 bits become CV_UINT / CV_NEG, exactly. */
struct cv *cv_parse_json(const char *text, size_t len, char *err, size_t errlen);
/* One CBOR item from p[*pos..n); *pos moves past it. */
struct cv *cv_parse_cbor(const uint8_t *p, size_t n, size_t *pos, char *err, size_t errlen);

/* The value under key in a map (borrowed), or NULL. */
const struct cv *cv_get(const struct cv *map, const char *key);
/* Text of a CV_TEXT value, or def. */
const char *cv_text(const struct cv *v, const char *def);
/* Unsigned value of a CV_UINT, or def. */
uint64_t cv_uint(const struct cv *v, uint64_t def);
/* Does a CV_ARRAY of texts hold s? */
int cv_array_has(const struct cv *a, const char *s);

#endif
