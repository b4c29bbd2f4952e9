/*
 * run_report.h - gcoracle run's report files and the escaping of what
 * reaches them (run_corpus.c).
 *
 * What a decoder prints (its standard error above all) is the input of a
 * hostile or broken program: in TAP it only ever appears on "# " lines with
 * control bytes and bytes that are not UTF-8 as \xNN, so it can neither
 * start a line of its own ("ok", "not ok", "1..N", "Bail out!") nor move a
 * terminal's cursor; in JUnit XML it is well-formed UTF-8 whatever the
 * bytes were. A report file is made as PATH.XXXXXX beside PATH before the
 * first case runs (so an unwritable path stops the run before it starts),
 * open close-on-exec, and renamed to PATH once complete.
 */
#ifndef ORACLE_RUN_REPORT_H
#define ORACLE_RUN_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct rr_file {
	const char *path;     /* as given; "-": standard output */
	char *tmp;            /* the file being written, renamed to path at the end */
	FILE *f;
};

/* Create path's temporary file (or take stdout for "-"). 0, or -1 after
 * saying why on stderr. */
int rr_open(struct rr_file *r, const char *path);
/* Flush, close and rename into place. 0, or -1 after saying why on stderr
 * (the temporary file is kept then, and named). */
int rr_commit(struct rr_file *r);
/* Close and remove without renaming (nothing was reported). */
void rr_discard(struct rr_file *r);

/* One escaped line of text (no newline added): bytes below 0x20, DEL and
 * bytes that are not part of valid UTF-8 as \xNN; with hash '#' too (a TAP
 * directive in a test's description). */
void rr_escape(FILE *f, const char *s, size_t n, int hash);
/* text, each of its lines after lead, escaped (a terminal's lines). */
void rr_lines(FILE *f, const char *lead, const char *text);
/* text, each of its lines as a TAP comment line "# ...", escaped. */
void rr_tap_comment(FILE *f, const char *text);
/* XML character data or attribute text: the five entities; valid UTF-8
 * passes except code points XML 1.0 forbids; everything else as \xNN. */
void rr_xml_text(FILE *f, const char *s);

#endif
