/*
 * compare_locate.h - where an event and its fields lie in a corpus case's
 * trace, for gcoracle compare's field differences ("event at byte 2209,
 * field at payload +12, 4 bytes"). The case's trace is decoded by gcoracle's
 * own readers; compare does it only when it has field differences to show.
 *
 * Ownership: cl_locate returns a table the caller frees with cl_free. NULL
 * when the trace cannot be read (the differences are then shown without
 * places).
 */
#ifndef ORACLE_COMPARE_LOCATE_H
#define ORACLE_COMPARE_LOCATE_H

#include <stddef.h>
#include <stdint.h>

struct cl_locs;

/* Decode the trace at path (a file, or a CTF directory) and keep the places
 * of the events whose want[index] is set (nevents entries). */
struct cl_locs *cl_locate(const char *path, const uint8_t *want, size_t nevents);
/* The event's byte offset, and the field's payload offset and width in bytes
 * (a Struct field: all its elements). Returns 0, or -1 when not known. */
int cl_field(const struct cl_locs *l, uint64_t event, const char *field, uint64_t *event_off,
	     uint32_t *off, uint32_t *len);
void cl_free(struct cl_locs *l);

#endif
