/*
 * gccorpus.h - the corpus tool: `gccorpus pack` writes the expectation
 * files and the index from what gcgen wrote (pack.c); `gccorpus coverage`
 * reads a corpus and reports what it covers (coverage.c). Build-time and
 * test-time only; never installed. Both return 0, or -1 (pack) / 1
 * (coverage lost) after printing why on stderr.
 */
#ifndef CORPUS_GCCORPUS_H
#define CORPUS_GCCORPUS_H

int gccorpus_pack(const char *manifest, const char *outdir);
int gccorpus_render_json(const char *index_path, const char *outdir);
/* classes: gcgen --list-mutations=all output; formats: gcgen --list-formats. */
int gccorpus_coverage(const char *corpus, const char *classes, const char *formats,
		      int verbose);

#endif
