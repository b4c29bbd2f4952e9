/*
 * codes.h - the diagnostic codes a fault raises, as the spec's
 * GCSPEC_DIAG_* constants (a typo fails to compile), and their text for
 * the expect files and --list-mutations (from the spec's gcspec_diags).
 *
 * A code list is a GEN_CODES(...) array ended by GEN_DIAG_END. Two
 * wildcards stand for "any code" in may lists: GEN_DIAG_ANY_STREAM
 * ("GC-S*": events were lost, their GCs' other events are left unpaired)
 * and GEN_DIAG_ANY ("GC-*").
 */
#ifndef GEN_FAULTS_CODES_H
#define GEN_FAULTS_CODES_H

#include <stddef.h>

#include "spec/gcspec.h"

enum {
	GEN_DIAG_END = -1,
	GEN_DIAG_ANY_STREAM = GCSPEC_NDIAGS,
	GEN_DIAG_ANY
};

/* A static list of codes: GEN_CODES(GCSPEC_DIAG_N003, GCSPEC_DIAG_N004). */
#define GEN_CODES(...) ((const int[]){ __VA_ARGS__, GEN_DIAG_END })
/* The empty list. */
#define GEN_NO_CODES ((const int[]){ GEN_DIAG_END })

/* "GC-S022" for GCSPEC_DIAG_S022, "GC-S*" / "GC-*" for the wildcards. */
const char *gen_diag_code(int code);
/* The list joined by sep ("GC-N003|GC-N004"), cut to fit buf of size n. */
const char *gen_codes_text(const int *codes, char sep, char *buf, size_t n);

#endif
