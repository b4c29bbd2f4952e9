/*
 * values.h - the field values of one event, by the spec's field names.
 *
 * A gen_values holds everything needed to encode one event-version's payload
 * and to record its fields in the model stream: one value per top-level
 * field of the template and, for the one Struct an event may have, a table
 * of rows. It is self-contained (strings live in its own arena, referred to
 * by offset), so copying it with memcpy gives an independent copy. No
 * function here allocates; the caller owns the struct (it is large: keep it
 * static or on the heap, and reuse it: gen_values_reset is O(fields)).
 *
 * Fields not set are 0, empty strings, all-zero GUIDs. Setting the rows of a
 * Struct or the bytes of a Binary also sets its count/length field, so the
 * payload is consistent unless a caller overrides the count afterwards.
 *
 * Errors: setters return 0, or -1 when the name is not a field of the event,
 * the kind does not fit the field's type, or the arena/rows are full.
 */
#ifndef GEN_VALUES_H
#define GEN_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "spec/gcspec.h"

#define GEN_VALUES_MAX_FIELDS 64
#define GEN_VALUES_MAX_CELLS 8192
#define GEN_VALUES_ARENA (64 * 1024)

enum gen_value_kind {
	GEN_VK_NUM = 0,  /* integer, pointer, boolean (u holds the bits) */
	GEN_VK_DOUBLE,   /* Float/Double: u holds the IEEE bits of a double */
	GEN_VK_TEXT,     /* strings: UTF-8 at arena[u], len bytes */
	GEN_VK_BYTES     /* GUID, Binary: bytes at arena[u], len bytes */
};

struct gen_value {
	uint64_t u;
	uint32_t len;
	uint8_t kind;
};

struct gen_values {
	uint16_t event;          /* index into gcspec_events */
	uint16_t nfields;        /* of the event, members included */
	int16_t struct_field;    /* template index of the Struct field, or -1 */
	uint16_t nmembers;
	uint32_t nrows;
	uint32_t arena_used;
	uint16_t cursor;         /* where the next by-name lookup starts */
	struct gen_value field[GEN_VALUES_MAX_FIELDS];  /* by template index */
	struct gen_value cell[GEN_VALUES_MAX_CELLS];    /* rows x members */
	uint8_t arena[GEN_VALUES_ARENA];
};

/* Start a new event: all fields zero/empty. -1 when the event has more
 * fields than GEN_VALUES_MAX_FIELDS or more than one Struct. */
int gen_values_reset(struct gen_values *v, unsigned event);

/* What gen_values_reset derives from the spec for one event-version, kept
 * by callers that reset many events (gen_emit) so that a reset is a store
 * per field rather than a walk over the spec's field records. */
struct gen_values_shape {
	uint16_t event;
	uint16_t nfields;
	int16_t struct_field;
	uint16_t nmembers;
	uint8_t kind[GEN_VALUES_MAX_FIELDS];
};

/* The shape of an event-version; -1 as for gen_values_reset. */
int gen_values_shape_of(struct gen_values_shape *sh, unsigned event);
/* gen_values_reset with a shape from gen_values_shape_of. */
void gen_values_reset_shaped(struct gen_values *v, const struct gen_values_shape *sh);

/* Template index of a top-level field (member == 0) or of a Struct member
 * (member == 1), or -1. */
int gen_values_index(const struct gen_values *v, const char *name, int member);
/* The same for any event-version, from the spec alone. */
int gen_field_index(unsigned event, const char *name, int member);

int gen_values_set_num(struct gen_values *v, const char *name, uint64_t value);
int gen_values_set_double(struct gen_values *v, const char *name, double value);
/* UTF-8 text for UnicodeString/AnsiString fields; copied into the arena. */
int gen_values_set_text(struct gen_values *v, const char *name, const char *utf8, size_t len);
/* GUID (16 bytes) or Binary (also sets its length field). */
int gen_values_set_bytes(struct gen_values *v, const char *name, const void *bytes, size_t len);
/* By template index: the fast path for table-driven callers. */
static inline int gen_values_set_num_at(struct gen_values *v, unsigned index, uint64_t value);
int gen_values_set_text_at(struct gen_values *v, unsigned index, const char *utf8, size_t len);
int gen_values_set_bytes_at(struct gen_values *v, unsigned index, const void *bytes, size_t len);

/* Append a Struct row (all members zero); returns its index or -1. Also
 * sets the Struct's count field to the new number of rows. */
int gen_values_add_row(struct gen_values *v);
/* Set a member of row `row`; member_index is the template index. */
static inline int gen_values_set_member_at(struct gen_values *v, unsigned row,
					   unsigned member_index, const struct gen_value *value);
int gen_values_set_member_num(struct gen_values *v, unsigned row, const char *name, uint64_t value);
/* An array member (gcspec_field_is_array) of row `row`: its n values (at
 * most 64), kept as their wire bytes; also sets its count member to n. */
int gen_values_set_member_array(struct gen_values *v, unsigned row, unsigned member_index,
				const uint64_t *values, unsigned n);

/* The value of a member cell, or of a top-level field. */
static inline struct gen_value *
gen_values_cell(struct gen_values *v, unsigned row, unsigned member_index)
{
	return &v->cell[row * v->nmembers + (member_index - (unsigned)v->struct_field - 1)];
}

static inline const uint8_t *gen_value_data(const struct gen_values *v, const struct gen_value *x)
{
	return v->arena + x->u;
}

/* A number fits every field but strings, GUIDs, Binary (their kind says
 * so, set by gen_values_reset from the in-type) and the Struct itself. */
static inline int gen_values_set_num_at(struct gen_values *v, unsigned index, uint64_t value)
{
	if (index >= v->nfields || (int)index == v->struct_field ||
	    v->field[index].kind == GEN_VK_TEXT || v->field[index].kind == GEN_VK_BYTES)
		return -1;
	v->field[index].u = value;
	return 0;
}

static inline int gen_values_set_member_at(struct gen_values *v, unsigned row,
					   unsigned member_index, const struct gen_value *value)
{
	if (v->struct_field < 0 || row >= v->nrows || member_index <= (unsigned)v->struct_field ||
	    member_index > (unsigned)v->struct_field + v->nmembers)
		return -1;
	*gen_values_cell(v, row, member_index) = *value;
	return 0;
}

/* Copy bytes into the arena; returns the offset or -1. */
int64_t gen_values_store(struct gen_values *v, const void *bytes, size_t len);

#endif
