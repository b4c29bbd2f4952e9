/*
 * decode_plan.h - what the decoder can know about a template before it sees
 * a payload: each field's width and sign, where it sits inside the run of
 * fixed-width fields around it, the size of a struct element, and a quick
 * test for its value map. Built once from the spec tables, for pointer
 * size 4 and 8, and read by decode.c (internal to the payload decoder).
 *
 * Why: most GC events are a few fixed-width integers. With the offsets
 * known, the decoder checks the payload's length once per run of fixed
 * fields and reads each field at its place, instead of asking the type of
 * every field for its width and checking the bounds field by field. Any
 * payload too short for a whole run goes the field-by-field way, which
 * reports the exact field it ends in.
 *
 * The tables are static data filled on first use (or_plan_init());
 * nothing is allocated.
 */
#ifndef ORACLE_DECODE_PLAN_H
#define ORACLE_DECODE_PLAN_H

#include <stdint.h>

#include "spec/gcspec.h"

/* How to read a fixed-width field: width and sign in one code. */
enum or_plan_op {
	OR_OP_U8, OR_OP_U16, OR_OP_U32, OR_OP_U64,
	OR_OP_I8, OR_OP_I16, OR_OP_I32, OR_OP_GUID, OR_OP_NONE
};
enum or_plan_map { OR_MAPQ_NONE, OR_MAPQ_MASK, OR_MAPQ_SET, OR_MAPQ_SLOW };

struct or_pfield {
	uint64_t mapbits;   /* MASK: the bits the flag map defines;
	                       SET: bit v set for each value v (< 64) of the map */
	uint16_t rel;       /* offset inside its run (member: inside its element) */
	uint16_t run_size;  /* run start: bytes of the run, else 0 */
	uint16_t esize;     /* struct: element size when every member has a
	                       fixed width, else 0 */
	uint8_t width;      /* bytes; 0 for strings, Binary and structs */
	uint8_t op;         /* enum or_plan_op */
	uint8_t mapq;       /* enum or_plan_map */
	uint8_t run;        /* run start: fields in the run, else 0 */
	uint8_t rules;      /* the value has a rule: Boolean 0/1 or a value map */
	uint8_t boolean;    /* the rule is Boolean 0/1 */
	uint8_t echeck;     /* struct: a member has a rule to check on every
	                       element (value map, Boolean) */
};

/* Indexed like gcspec_fields: or_plans[ps == 4 ? 0 : 1][first_field + i]. */
extern struct or_pfield or_plans[2][GCSPEC_NFIELDS];

void or_plan_init(void);

/* Width of a fixed-size type for the pointer size, or 0 when variable.
 * Inline: the field-by-field path asks it for every field. */
static inline unsigned or_type_width(unsigned type, unsigned pointer_size)
{
	switch (type) {
	case GCSPEC_UINT8: case GCSPEC_INT8: return 1;
	case GCSPEC_UINT16: case GCSPEC_INT16: return 2;
	case GCSPEC_UINT32: case GCSPEC_INT32: case GCSPEC_FLOAT:
	case GCSPEC_BOOLEAN: return 4;
	case GCSPEC_UINT64: case GCSPEC_INT64: case GCSPEC_DOUBLE: return 8;
	case GCSPEC_POINTER: return pointer_size;
	case GCSPEC_GUID: return 16;
	default: return 0;
	}
}

/* Smallest element of a struct array whose members are f[0..n). With
 * natural layout (the runtime copying C structs) every member sits at a
 * multiple of its width and the element is padded to its widest member. */
uint32_t or_member_min_size(const struct gcspec_field *f, unsigned n,
                            unsigned psize, int natural);

/* Is value certainly inside the field's map (no diagnostic to raise)? */
static inline int or_plan_map_ok(const struct or_pfield *pf, uint64_t value)
{
	switch (pf->mapq) {
	case OR_MAPQ_NONE: return 1;
	case OR_MAPQ_MASK: return (value & ~pf->mapbits) == 0;
	case OR_MAPQ_SET: return value < 64 && (pf->mapbits >> value & 1);
	default: return 0;
	}
}

/* For the rare paths of hot loops (diagnostics): keep them out of line. */
#if defined(__GNUC__)
#define OR_COLD __attribute__((noinline, cold))
#define OR_HOT_INLINE inline __attribute__((always_inline))
#define OR_NOINLINE __attribute__((noinline))
#else
#define OR_COLD
#define OR_HOT_INLINE inline
#define OR_NOINLINE
#endif

/* Does value certainly pass the field's rules (no diagnostic to raise)? */
static inline int or_plan_rules_ok(const struct or_pfield *pf, uint64_t value)
{
	return (!pf->boolean || value <= 1) && or_plan_map_ok(pf, value);
}

/* Little-endian reads, alignment-free; compilers turn these into single
 * loads. */
static inline uint64_t or_ld16(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8;
}

static inline uint64_t or_ld32(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24;
}

static inline uint64_t or_ld64(const uint8_t *p)
{
	return or_ld32(p) | or_ld32(p + 4) << 32;
}

/* A fixed-width field's value (GUID: 0; its bytes stay in the payload). */
static inline uint64_t or_plan_load(unsigned op, const uint8_t *p)
{
	switch (op) {
	case OR_OP_U8: return p[0];
	case OR_OP_U16: return or_ld16(p);
	case OR_OP_U32: return or_ld32(p);
	case OR_OP_U64: return or_ld64(p);
	case OR_OP_I8: return (uint64_t)(int64_t)(int8_t)p[0];
	case OR_OP_I16: return (uint64_t)(int64_t)(int16_t)or_ld16(p);
	case OR_OP_I32: return (uint64_t)(int64_t)(int32_t)or_ld32(p);
	default: return 0;
	}
}

#endif
