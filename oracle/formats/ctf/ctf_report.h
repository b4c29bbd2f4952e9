/*
 * ctf_report.h - a diagnostic from any part of the CTF reader, at a trace
 * offset, through the reader's report callback.
 *
 * A file of its own because every part reports (the frame in ctf_read.c,
 * the compiler, the class mapping, the payload builder) and the frame
 * calls the others: with the reporting in ctf_read.c they would call each
 * other back.
 */
#ifndef ORACLE_CTF_REPORT_H
#define ORACLE_CTF_REPORT_H

#include <stddef.h>
#include <stdint.h>

struct ctfr_reader;

/* Report code (GCSPEC_DIAG_C*) about event `event` (UINT64_MAX: the
 * trace) at trace offset `offset`. */
void ctfr_report(struct ctfr_reader *r, unsigned code, uint64_t event, uint64_t offset,
                 const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 5, 6)))
#endif
	;
/* The trace offset of a metadata text offset. */
uint64_t ctfr_text_offset(const struct ctfr_reader *r, size_t text_off);

#endif
