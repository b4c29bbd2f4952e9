/*
 * outdir.h - atomic output for directory containers (a CTF trace is a
 * directory of files, not one file).
 *
 * gcgen writes the trace into a fresh temporary directory beside the output
 * path and only then puts it in place, so an interrupted run never leaves a
 * half-written trace where the output should be. Putting it in place swaps
 * the new directory with an old trace atomically (renameat2 RENAME_EXCHANGE)
 * and then deletes the old one. An existing output is replaced only when it
 * is a regular file, an empty directory, or a trace gcgen wrote: nothing
 * but regular files named metadata and channel0_N, the metadata's env
 * naming the trace "gcgen" with a gcgen_seed. Anything else (a user's
 * files beside a `metadata`, an LTTng trace, a link) is left alone and the
 * run fails, so a mistyped -o never deletes a user's directory. The files
 * and the directory are synced before the directory is put in place, and
 * a fatal signal removes the temporary directory (outfile.h).
 *
 * Ownership: gen_outdir_make returns a malloc'd path the caller frees.
 * Errors: -1 (or NULL) with a one-line message in err.
 */
#ifndef GEN_OUTDIR_H
#define GEN_OUTDIR_H

#include <stddef.h>
#include <stdint.h>

/* Make an empty directory "<path>.tmpXXXXXX" with the mode a plain mkdir
 * would give it. */
char *gen_outdir_make(const char *path, char *err, size_t errlen);
/* Put the finished directory tmp in place at path. */
int gen_outdir_commit(const char *tmp, const char *path, char *err, size_t errlen);
/* Delete a directory of regular files that gcgen made (a failed run's
 * temporary directory). */
int gen_outdir_remove(const char *dir);

#endif
