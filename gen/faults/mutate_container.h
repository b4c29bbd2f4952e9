/*
 * mutate_container.h - container faults: the third reach of gcgen's fault
 * classes, after stream and payload (mutate.h).
 *
 * A container fault edits the bytes of a complete, valid file that a
 * container writer made (sizes, offsets, tags, padding, references,
 * truncation) and says which diagnostic the oracle must report, with the
 * byte offset when it is known exactly. Each container module registers a
 * table of its faults (gen_nettrace_container_faults for nettrace,
 * gen_ctf_container_faults for CTF; ETL adds its own to the module list in
 * mutate_container.c); gcgen looks a class up by name and --format.
 *
 * Ownership: a result's data is malloc'd and belongs to the caller
 * (gen_container_result_free). Errors: 0 or -1 with *why set to a static
 * one-line reason (the fault does not apply to this file, or no memory).
 */
#ifndef GEN_MUTATE_CONTAINER_H
#define GEN_MUTATE_CONTAINER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gen/faults/codes.h"

struct gen_container_result {
	uint8_t *data;             /* the faulty file, malloc'd */
	size_t len;
	int code;                  /* the diagnostic it must raise: GCSPEC_DIAG_N010 */
	uint64_t offset;           /* where, when offset_exact */
	int offset_exact;          /* 0: reported somewhere near (unknown offset) */
	const int *may;            /* NULL: the class's may list; else this one (codes.h) */
	/* Directory containers: the file (a name in the directory) that offset
	 * is in; NULL for single-file containers. Static storage or a name
	 * inside the input image. */
	const char *file;
};

struct gen_container_fault {
	const char *name;          /* --mutate name, e.g. "undefined-metadata" */
	const char *formats;       /* the --format names it applies to, comma-separated */
	const int *codes;          /* the codes it raises, one of them (GEN_CODES(...)) */
	/* Codes that may follow as consequences (GEN_CODES(...) or
	 * GEN_NO_CODES): the must code again elsewhere, or GEN_DIAG_ANY_STREAM
	 * when events are lost and their GCs' other events are left unpaired. */
	const int *may;
	int needs_stacks;          /* the file must have events with stacks */
	const char *description;
	int (*apply)(const struct gen_container_fault *f, const uint8_t *in, size_t len,
		     uint64_t seed, struct gen_container_result *out, const char **why);
	int arg;                   /* the module's own fault number */
};

/* Every registered fault, in listing order; NULL past the end. */
const struct gen_container_fault *gen_container_fault_at(unsigned i);
/* The fault called name for format, or NULL. *exists (may be NULL) is set
 * to 1 when some container fault has that name (for another format). */
const struct gen_container_fault *gen_container_fault_find(const char *name, const char *format,
							   int *exists);
/* Whether f applies to format. */
int gen_container_fault_applies(const struct gen_container_fault *f, const char *format);

/* Apply f to the complete file in[0..len), write the faulty bytes to out
 * and, when expect is not NULL, the expected diagnostics as JSON lines
 * (docs/faults.md): {"code":C,"offset":N} or {"code":C} when the offset is
 * not exact, then {"code":C,"may":true} per possible consequence. Returns 0,
 * or -1 with a message in err. */
int gen_container_fault_write(const struct gen_container_fault *f, const uint8_t *in, size_t len,
			      uint64_t seed, FILE *out, FILE *expect, char *err, size_t errlen);

/* The same for a directory container (CTF): the fault's apply() gets an
 * image of the directory (dirimage.h) and returns the changed image, with
 * result.file naming the file the offset is in; the directory is rewritten
 * from it. Expectation lines carry "file" too: {"code":C,"file":F,"offset":N}. */
int gen_container_fault_write_dir(const struct gen_container_fault *f, const char *dir,
				  uint64_t seed, FILE *expect, char *err, size_t errlen);

/* The modules' tables. */
extern const struct gen_container_fault gen_nettrace_container_faults[];
extern const unsigned gen_nettrace_ncontainer_faults;
extern const struct gen_container_fault gen_etl_container_faults[];
extern const unsigned gen_etl_ncontainer_faults;
extern const struct gen_container_fault gen_model_container_faults[];
extern const unsigned gen_model_ncontainer_faults;
extern const struct gen_container_fault gen_ctf_container_faults[];
extern const unsigned gen_ctf_ncontainer_faults;

#endif
