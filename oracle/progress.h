/*
 * progress.h - a progress line on a terminal for long runs of gcoracle.
 *
 * The caller owns the struct (zeroed: off). Nothing is printed unless the
 * run has lasted `after` seconds, and then at most five times a second,
 * as one line on the given stream (a terminal) that or_progress_clear
 * erases before anything else is written to that terminal. The file name
 * is borrowed and escaped as input text (or_text_put).
 */
#ifndef ORACLE_PROGRESS_H
#define ORACLE_PROGRESS_H

#include <stdint.h>
#include <stdio.h>

struct or_progress {
	FILE *tty;           /* NULL: no progress */
	double after;        /* seconds before the first line */
	double t0, last;
	const char *name;
	uint64_t total;      /* bytes of the input; 0: unknown (a pipe) */
	int shown;           /* a line is on the screen */
};

/* A new input: name and size (0 when unknown). */
void or_progress_start(struct or_progress *p, const char *name, uint64_t total);
/* done bytes of the current input so far: cheap, call it every few
 * thousand events. */
void or_progress_tick(struct or_progress *p, uint64_t done);
/* Erase the line, if one is shown. */
void or_progress_clear(struct or_progress *p);

#endif
