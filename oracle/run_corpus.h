/*
 * run_corpus.h - gcoracle run, the corpus runner (run_corpus.c,
 * docs/gcoracle-run.1).
 */
#ifndef ORACLE_RUN_CORPUS_H
#define ORACLE_RUN_CORPUS_H

/* `gcoracle run ...` (argv[0] is "run"). Exit status: 0 every selected case
 * passed, 1 a case failed, 2 bad usage or the run could not be done. */
int or_run_main(int argc, char **argv);

#endif
