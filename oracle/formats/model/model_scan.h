/*
 * model_scan.h - the model reader's fast path: one pass over an event item
 * of the shape gcgen writes (a definite map with short text keys, each
 * known key once, values of the right types, nothing nested deeper or
 * longer than cbor_scan.h allows), filling the event as it goes.
 *
 * It decides nothing the careful path (read_model.c: find the item's end,
 * then walk the map) would decide otherwise: anything else, valid or not,
 * is handed back to that path, which reports what is wrong with it.
 *
 * Returns 1 with *len the item's length and ev's header fields, payload and
 * model fields set (pointing into p; index and offsets are the caller's);
 * 0 when the item may run past p[n) (read more and try again); -1 when the
 * item is not of the usual shape.
 */
#ifndef ORACLE_MODEL_SCAN_H
#define ORACLE_MODEL_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "oracle/formats/reader.h"

/* The provider name of the last event, kept across events so that a stream
 * of one provider looks its name up once. */
struct or_model_provider {
	char name[128];     /* NUL-terminated, cut to fit */
	size_t len;         /* the name's length in the stream */
	int index;          /* gcspec provider index, or -1 */
	int valid;
};

int or_model_scan_event(const uint8_t *p, size_t n, struct or_model_provider *prov,
                        struct or_event *ev, size_t *len);

/* Skip one CBOR item at p[*pos] without recursion: 1 (and *pos past it), 0
 * need more bytes, -1 not taken here (malformed, or for the careful path).
 * It takes less than or_cbor_skip(): no indefinite lengths, and nesting one
 * level less deep, since the item it skips sits inside an event map. */
int or_model_scan_skip(const uint8_t *p, size_t n, size_t *pos);

#endif
