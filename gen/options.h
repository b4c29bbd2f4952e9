/*
 * options.h - gcgen's command line as a struct: gen_options_parse() fills
 * one from argv and checks it, gen_run() (run.h) runs it. Every usage
 * error is found here, before any file is opened.
 *
 * The struct points into argv (names, -O values) and into itself (the
 * nettrace shape flags become writer options held in shape_opts): keep
 * argv alive and do not copy the struct.
 */
#ifndef GEN_OPTIONS_H
#define GEN_OPTIONS_H

#include <stdint.h>

#define GEN_OPTIONS_MAX_WRITER 16
#define GEN_OPTIONS_MAX_CLASSES 64
#define GEN_OPTIONS_MAX_PROFILES 16
#define GEN_OPTIONS_MAX_PROCESSES 64

/* gen_options_parse's result when the options ask for a run. */
#define GEN_OPTIONS_RUN (-1)

struct gen_profile;
struct gen_writer_ops;
struct gen_container_fault;

struct gen_options {
	const char *progname;                /* argv[0]'s last part, for messages */
	uint64_t seed, gcs, events, keywords; /* gcs 100 when neither -g nor -n */
	uint64_t shard_i, shard_n;           /* --shard I/N; 0/1 without it */
	unsigned level, pointer_size, heaps; /* pointer_size: the profile's unless given */
	int exhaustive, quiet, coverage, stacks, stats, drop_cache;
	const struct gen_profile *profile;   /* the first of profiles */
	/* --profile A,B,...: process k of a machine-wide trace runs
	 * profiles[k % nprofiles]; processes is --processes (default
	 * nprofiles); above 1 the trace is machine-wide (machine.h). */
	const struct gen_profile *profiles[GEN_OPTIONS_MAX_PROFILES];
	unsigned nprofiles, processes;
	/* --reuse-pid: the last process of a machine-wide trace starts once
	 * process 1 has ended, under process 1's id (machine.h). */
	int reuse_pid;
	const struct gen_writer_ops *ops;    /* the writer of format */
	const char *format;                  /* with -full appended by --full-metadata */
	const char *output, *expect_path, *values_path; /* NULL: not given */
	char *writer_opts[GEN_OPTIONS_MAX_WRITER]; /* "KEY=VALUE" */
	unsigned nwriter_opts;
	int classes[GEN_OPTIONS_MAX_CLASSES];     /* stream/payload fault classes */
	unsigned nclasses;
	const struct gen_container_fault *container; /* at most one, never with classes */
	char shape_opts[GEN_OPTIONS_MAX_WRITER][48];
	char full_format[32];
};

/* Fill o from argv (getopt: set optind first when called again). Returns
 * GEN_OPTIONS_RUN when o is to be run, else the exit status of what was
 * done instead: --help, --version and the --list-* options print to stdout
 * and return 0, or 1 when stdout could not be written. Bad usage prints the
 * reason and "Try 'gcgen --help'" to stderr and exits 2 (gcgen(1)). */
int gen_options_parse(struct gen_options *o, int argc, char **argv);

#endif
