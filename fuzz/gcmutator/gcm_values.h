/*
 * gcm_values.h - from payload bytes to gen's field values: the oracle's
 * decoder reads the payload, the values come out in the form gen's encoder
 * takes, so a payload can be changed field by field and encoded again.
 *
 * Ownership: v is the caller's (large: keep it static or on the heap).
 * Errors: 0 when the whole template decoded and every value fits gen's
 * limits; -1 otherwise (v is then unusable).
 */
#ifndef FUZZ_GCM_VALUES_H
#define FUZZ_GCM_VALUES_H

#include <stdint.h>

#include "spec/gcspec.h"
#include "gen/model/values.h"

int gcm_lift(const struct gcspec_event *spec, const uint8_t *payload, uint32_t len,
             unsigned pointer_size, struct gen_values *v);

#endif
