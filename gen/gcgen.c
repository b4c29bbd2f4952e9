/*
 * gcgen.c - the command line: options (options.h) handed to a run (run.h).
 * Exit 0 on success, 1 on failure, 2 on bad usage.
 */
#include "config.h"

#include "gen/options.h"
#include "gen/run.h"

int main(int argc, char **argv)
{
	struct gen_options o;
	int rc = gen_options_parse(&o, argc, argv);

	return rc == GEN_OPTIONS_RUN ? gen_run(&o) : rc;
}
