/*
 * floor.h - the floor walker (bench/floor.c): the least work a reader of a
 * nettrace file must do, to measure gcoracle against in make bench.
 */
#ifndef FLOOR_H
#define FLOOR_H

#include <stdint.h>

#include "spec/gcspec.h"

/* 1 when the payload holds every field of ev's template (psize: the
 * stream's pointer size, 4 or 8); a longer payload fits too. */
int floor_payload_ok(const struct gcspec_event *ev, const uint8_t *p, uint32_t len,
                     unsigned psize);

#endif
