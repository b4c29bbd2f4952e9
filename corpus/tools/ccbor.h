/*
 * ccbor.h - the few libcbor helpers the corpus tool needs on both sides:
 * build items whose integers take the shortest encoding (libcbor's builders
 * fix the width, so the bytes would depend on the call used), find a key in
 * a map, read a file, write a file atomically, and render an item as JSON.
 *
 * Ownership: functions returning cbor_item_t * give the caller a reference
 * (cbor_decref when done); NULL means no memory. cc_get() borrows. File
 * helpers return 0, or -1 after printing a message on stderr.
 */
#ifndef CORPUS_CCBOR_H
#define CORPUS_CCBOR_H

#include <cbor.h>
#include <stdint.h>
#include <stdio.h>

cbor_item_t *cc_uint(uint64_t v);
cbor_item_t *cc_int(int64_t v);
cbor_item_t *cc_text(const char *s);
/* Add key => value to map m, taking over the reference to value. */
int cc_put(cbor_item_t *m, const char *key, cbor_item_t *value);
/* Append value to array a, taking over the reference. */
int cc_push(cbor_item_t *a, cbor_item_t *value);

/* An indefinite array built by pushing, as a definite one (the corpus
 * writes definite lengths only); *a is replaced. Returns 0 or -1. */
int cc_definite(cbor_item_t **a);

/* The value under key in map m (borrowed), or NULL. */
cbor_item_t *cc_get(const cbor_item_t *m, const char *key);
/* The value as an unsigned integer / text (malloc'd copy, NUL-terminated),
 * with def / NULL when absent or of another type. */
uint64_t cc_get_uint(const cbor_item_t *m, const char *key, uint64_t def);
char *cc_get_text(const cbor_item_t *m, const char *key);
/* Does text item t equal s? */
int cc_text_is(const cbor_item_t *t, const char *s);

/* The whole file, malloc'd; *len its size. NULL after a message. */
uint8_t *cc_read_file(const char *path, size_t *len);
/* Write bytes to path through a temporary file renamed into place. */
int cc_write_file(const char *path, const void *data, size_t len);
/* Serialize item and write it (atomically) to path. */
int cc_write_item(const char *path, const cbor_item_t *item);
/* Decode the single item a file holds; NULL after a message. */
cbor_item_t *cc_load_file(const char *path);

/* Render item as JSON (maps with text keys as objects, byte strings as
 * lowercase hex strings, floats with enough digits to round-trip).
 * indent < 0: on one line; else pretty-printed to that depth, arrays of
 * maps one element per line below it. */
void cc_json(FILE *out, const cbor_item_t *item, int indent);
void cc_json_string(FILE *out, const char *s, size_t n);

#endif
