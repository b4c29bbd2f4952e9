/*
 * run.h - one gcgen run from checked options (options.h): simulator or
 * exhaustive generator -> (mutator) -> writer, with the --expect and
 * --values files beside the stream, each written to a temporary file (a
 * directory for directory containers) put in place only when the run
 * succeeds.
 */
#ifndef GEN_RUN_H
#define GEN_RUN_H

#include "gen/options.h"

/* Run o; messages go to stderr prefixed with o->progname. Returns the exit
 * status: 0 success, 1 failure (nothing left at the output names), 2 a
 * writer option the format refuses. The -O values in o are cut at their
 * '=' (o is run once). */
int gen_run(const struct gen_options *o);

#endif
