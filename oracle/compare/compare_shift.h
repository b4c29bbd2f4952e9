/*
 * compare_shift.h - an index shift: a decoder that leaves an event out, or
 * prints one the file does not hold, and numbers its events itself (or
 * gives no index) puts every later event one place off. compare notices
 * when an event is not the file's event at its place by identity (id and
 * version, and timestamp and thread where the decoder gives them), looks
 * for the place where it and the event after it both fit, within a small
 * window, and reports the shift as one difference; the rest is compared
 * aligned. Bounded cost: at most CS_WINDOW tries per event that does not fit.
 */
#ifndef ORACLE_COMPARE_SHIFT_H
#define ORACLE_COMPARE_SHIFT_H

#include <stdint.h>

#include "oracle/compare/compare_val.h"

/* How many events a shift may span (missing in a row). */
#define CS_WINDOW 16u

/* Is the decoder's event a the expected event e (identity, not fields)? */
int cs_same(const struct cv *e, const struct cv *a);

/* The decoder printed p where the file's event pe is expected and then a
 * where ae (= pe + distance) is; both do not fit there. The k (1..CS_WINDOW)
 * such that p is the file's event pe + k and a is ae + k: k events missing
 * before p. 0 when there is none. events: the file's events. */
unsigned cs_missing(const struct cv *events, uint64_t pe, const struct cv *p, uint64_t ae,
		    const struct cv *a);

#endif
