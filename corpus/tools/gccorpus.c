/*
 * gccorpus.c - the corpus tool's command line (see gccorpus.h).
 * Exit status: 0 done, 1 coverage lost or packing failed, 2 bad usage.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "gccorpus.h"

static int usage(void)
{
	fputs("usage: gccorpus pack MANIFEST OUTDIR\n"
	      "       gccorpus coverage [--verbose] CORPUSDIR CLASSES FORMATS\n"
	      "  pack      write OUTDIR/expect/*.cbor, OUTDIR/events/*.cbor, OUTDIR/index.{cbor,json}\n"
	      "  coverage  print what CORPUSDIR covers; exit 1 when anything is missing\n"
	      "            (CLASSES: gcgen --list-mutations=all; FORMATS: gcgen --list-formats)\n",
	      stderr);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "pack") == 0)
		return gccorpus_pack(argv[2], argv[3]) == 0 ? 0 : 1;
	if (argc >= 5 && strcmp(argv[1], "coverage") == 0) {
		int verbose = strcmp(argv[2], "--verbose") == 0;

		if (argc != 5 + verbose)
			return usage();
		return gccorpus_coverage(argv[2 + verbose], argv[3 + verbose], argv[4 + verbose],
					 verbose);
	}
	return usage();
}
