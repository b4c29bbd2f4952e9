/*
 * diag.h - the oracle's diagnostic sink.
 *
 * Every problem the oracle finds is reported through or_report() with a
 * stable code from docs/diagnostics.toml (GCSPEC_DIAG_*), the index of the
 * event it concerns, the byte offset in the file, the event's symbol
 * ("GCEnd_V1", or NULL when there is none) and a message a person can act on
 * without reading our source.
 *
 * The sink counts diagnostics per code and per effective severity (--strict
 * turns warnings into errors) and hands each one to the emit callback, which
 * the CLI points at its text, JSON or CBOR writer. Nothing is allocated per
 * diagnostic; the message lives in a buffer owned by the sink and is valid
 * only during the callback.
 */
#ifndef ORACLE_DIAG_H
#define ORACLE_DIAG_H

#include <stdint.h>

#include "spec/gcspec.h"

#define OR_NO_EVENT UINT64_MAX /* a diagnostic about the file, not an event */

struct or_diag {
	unsigned code;          /* GCSPEC_DIAG_* */
	unsigned severity;      /* effective: enum gcspec_severity after --strict */
	uint64_t event;         /* event index or OR_NO_EVENT */
	uint64_t offset;        /* byte offset in the file */
	const char *name;       /* event symbol or NULL */
	const char *message;
	/* Directory containers (CTF): the file of the directory the offset is
	 * in and the offset in that file; NULL and `offset` for one-file input. */
	const char *file;
	uint64_t file_offset;
};

struct or_diag_sink {
	int strict;             /* warnings count as errors */
	uint64_t counts[GCSPEC_NDIAGS];
	uint64_t by_severity[3];
	void (*emit)(void *arg, const struct or_diag *d); /* may be NULL */
	void *emit_arg;
	/* Set by a directory container's reader while it is open: the file a
	 * trace offset is in (NULL if none) and the offset in that file. */
	const char *(*locate)(void *arg, uint64_t offset, uint64_t *file_offset);
	void *locate_arg;
	char buf[1024];
};

#if defined(__GNUC__)
#define OR_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define OR_PRINTF(a, b)
#endif

void or_diag_init(struct or_diag_sink *s);

/* Report one diagnostic. code is a GCSPEC_DIAG_* value. */
void or_report_to(struct or_diag_sink *s, unsigned code, uint64_t event,
                  uint64_t offset, const char *name, const char *fmt, ...)
	OR_PRINTF(6, 7);

/* Report a diagnostic another sink formatted (code, event, offset, name
 * and message of *d; severity and file are this sink's): how the reading
 * thread's diagnostics reach the run's sink in order (pipeline.h). */
void or_report_diag(struct or_diag_sink *s, const struct or_diag *d);

/* "GC-S005" for GCSPEC_DIAG_S005; NULL when out of range. */
const char *or_diag_code(unsigned code);
/* GCSPEC_DIAG_* for "GC-S005", or -1. */
int or_diag_lookup(const char *code);
const char *or_severity_name(unsigned severity);

#endif
