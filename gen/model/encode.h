/*
 * encode.h - payload bytes of an event-version from its values, driven by
 * the spec tables (gcspec_fields): one loop over the template, no per-event
 * code.
 *
 * Wire rules: integers little-endian at their width; Pointer 4 or 8 bytes
 * (the stream's pointer size; wider values are truncated); Boolean 4 bytes;
 * GUID 16 bytes as given; UnicodeString NUL-terminated UTF-16LE converted
 * from the UTF-8 value (non-BMP characters as surrogate pairs, malformed
 * UTF-8 as U+FFFD); AnsiString the bytes plus NUL; Binary the bytes (its
 * length field holds the length); Struct: its rows, members in order,
 * packed or, for a Struct marked natural_layout, as the C compiler lays out
 * the runtime's struct (see gen_struct_layout).
 *
 * Errors: returns the payload length, or -1 when buf (cap bytes, owned by
 * the caller) is too small.
 */
#ifndef GEN_ENCODE_H
#define GEN_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "gen/model/values.h"

long gen_encode(const struct gen_values *v, unsigned pointer_size, uint8_t *buf, size_t cap);

/* An event-version's template compiled for one pointer size: the
 * top-level fields in order, plain integers with their width. The encoder
 * then runs one store per plain field instead of a walk over the spec's
 * field records. Built once per event-version by whoever encodes many
 * events (gen_emit); a plain struct the caller owns, no allocation. */
struct gen_encode_plan {
	uint16_t event;
	uint8_t pointer_size;
	uint8_t nops;
	struct {
		uint8_t field;     /* template index */
		uint8_t width;     /* 1, 2, 4 or 8: plain integer; 0: anything else */
	} op[GEN_VALUES_MAX_FIELDS];
};

/* 0, or -1 for an event with more fields than GEN_VALUES_MAX_FIELDS. */
int gen_encode_plan_build(struct gen_encode_plan *p, unsigned event, unsigned pointer_size);
/* As gen_encode, for values of p's event at p's pointer size. */
long gen_encode_planned(const struct gen_encode_plan *p, const struct gen_values *v,
			uint8_t *buf, size_t cap);

/*
 * Where an event-version's fields lie when its payload is written in place
 * (gen_emit's direct mode) instead of encoded from a gen_values: the
 * fixed-size fields in runs at fixed offsets, run 0 from the payload's
 * start to the first variable-length field (a string, Binary, the Struct's
 * rows), run k right after the k-th one; Struct members at fixed offsets in
 * each element. Built once per event-version and pointer size; a plain
 * struct, no allocation.
 */
#define GEN_LAYOUT_MAX_VARS 4
#define GEN_LAYOUT_RUN_MAX 1024
enum gen_layout_kind {
	GEN_LK_PLAIN,    /* little-endian integer of `width` bytes (Boolean, Pointer too) */
	GEN_LK_FLOAT,    /* a double's bits, written as a 4-byte float */
	GEN_LK_GUID,     /* 16 bytes, zero unless given */
	GEN_LK_UTF16,    /* variable: NUL-terminated UTF-16LE */
	GEN_LK_ANSI,     /* variable: NUL-terminated bytes */
	GEN_LK_BINARY,   /* variable: bytes, length in its size field */
	GEN_LK_STRUCT,   /* variable: rows of elem_size bytes */
	GEN_LK_MEMBER    /* a Struct member: `off` within an element */
};

struct gen_layout_field {
	uint16_t off;
	uint8_t run;             /* fixed fields: which run */
	uint8_t width;
	uint8_t kind;            /* enum gen_layout_kind */
	uint8_t var;             /* variable fields: which one (0..nvars-1) */
};

struct gen_layout {
	uint8_t ok;              /* 0: not writable in place (encode from values) */
	uint8_t nvars;
	uint16_t run_size[GEN_LAYOUT_MAX_VARS + 1];
	uint8_t var_field[GEN_LAYOUT_MAX_VARS];   /* template index of each */
	int8_t count_field;      /* the Struct's count field, or -1 */
	int8_t struct_var;       /* which variable field the Struct is, or -1 */
	uint8_t var_init[GEN_LAYOUT_MAX_VARS];   /* bytes an unset one has (its NULs) */
	uint16_t elem_size;      /* a Struct element's size */
	struct gen_layout_field f[GEN_VALUES_MAX_FIELDS];  /* by template index */
};

/* Always succeeds; l->ok says whether the event can be written in place
 * (not: more variable fields or longer runs than the limits above, or a
 * Struct member of no fixed width). */
void gen_layout_build(struct gen_layout *l, unsigned event, unsigned pointer_size);

/* Width on the wire of a fixed-size in-type, or 0 for variable ones. */
unsigned gen_type_width(unsigned type, unsigned pointer_size);

/* Alignment of a member of this in-type in a C struct: its width (Pointer:
 * the pointer size), GUID 4. 8-byte integers align at 8, as on every 64-bit
 * ABI and MSVC x86 (no natural-layout struct has them on 32-bit anyway). */
unsigned gen_type_align(unsigned type, unsigned pointer_size);

/* Element layout of Struct field sf (whose members follow it in the
 * template): member_offset[m] for each of its sf->nmembers members and the
 * element size. Packed unless sf->natural_layout: then each member starts
 * at a multiple of its alignment and the element is padded to a multiple
 * of its largest alignment (E048: GCLOHCompact 32 bytes on 64-bit, 20 on
 * 32-bit; E049: GCFitBucketInfo 16 and 12). Returns 0, or -1 when a member
 * has no fixed width. */
int gen_struct_layout(const struct gcspec_field *sf, unsigned pointer_size,
		      uint32_t member_offset[], uint32_t *element_size);

/* UTF-8 -> UTF-16LE with NUL terminator; returns bytes written or -1. */
long gen_utf8_to_utf16le(const uint8_t *s, size_t len, uint8_t *out, size_t cap);

/* Byte offset where each top-level field of v starts in its payload
 * (offsets[i] for template index i; members get their Struct's offset),
 * and offsets[nfields] = payload length. Returns 0, or -1 on overflow. */
int gen_encode_offsets(const struct gen_values *v, unsigned pointer_size,
		       uint32_t offsets[GEN_VALUES_MAX_FIELDS + 1]);
#endif
