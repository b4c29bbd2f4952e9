/*
 * outfile.h - where gcgen's output goes: a temporary file beside the final
 * name, renamed into place only when the run succeeds (an interrupted or
 * failed run leaves nothing half-written), or stdout.
 *
 * The stream writers get is fully buffered in large blocks. What is
 * written stays in the page cache, so the next reader (gcoracle, a bench)
 * reads it from memory. When asked (gen_outfile_drop_cache, gcgen
 * --drop-cache), a large output does not stay there: once a file passes
 * GEN_OUTFILE_KEEP_CACHED bytes, every written window is handed to the
 * disk and dropped from the cache as the next one fills (the file is
 * synced at the end anyway). Multi-gigabyte streams then cost the same
 * small, recycled set of pages instead of evicting everything else, and on
 * a virtual machine they do not fault in fresh host memory page by page.
 *
 * A signal that ends the run (SIGINT, SIGTERM, SIGHUP, SIGPIPE) removes
 * the temporary files first: the first open installs handlers for them,
 * unless they are ignored.
 *
 * The stream of a regular file can seek (a writer may patch a header at
 * the end), and so can /dev/null's (a seek there only moves the position:
 * a writer need not spool what is thrown away); on a pipe or another
 * device fseeko fails with ESPIPE.
 *
 * A path that exists and is not a regular file (/dev/null, a FIFO, a
 * terminal) is written in place: renaming onto it would replace the
 * device with a file. A symlink is never replaced: the file it names is
 * (written in place when not a regular file, else replaced by a temporary
 * file beside it, so -o /dev/stdout with stdout redirected to a file puts
 * the stream in that file); a link that names nothing is refused.
 *
 * Ownership: gen_outfile_open returns an object the caller releases with
 * gen_outfile_close (which also closes the stream; do not fclose it).
 * Errors: open returns NULL with errno set; close returns 0, or -1 with a
 * one-line message in err.
 */
#ifndef GEN_OUTFILE_H
#define GEN_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GEN_OUTFILE_KEEP_CACHED (64u << 20)

struct gen_outfile;

/* Remove the temporary directory dir (a directory of files gcgen made) if a
 * fatal signal ends the run, as for temporary files; unwatch it before it
 * is renamed or removed. dir must stay valid while watched. */
void gen_outfile_watch_dir(const char *dir);
void gen_outfile_unwatch_dir(const char *dir);

/* path NULL or "-": stdout. A symlink is followed: see above. */
struct gen_outfile *gen_outfile_open(const char *path);
FILE *gen_outfile_stream(struct gen_outfile *o);
/* Drop what is written past GEN_OUTFILE_KEEP_CACHED from the page cache
 * (a regular file; call before writing). */
void gen_outfile_drop_cache(struct gen_outfile *o);
/* The end of the data written through the stream so far (after the last
 * flush): its size, when the output is a file gcgen created. */
uint64_t gen_outfile_written(const struct gen_outfile *o);
/* Flush and finish: with ok, sync and rename the temporary file into
 * place; without (the run failed), remove it. Frees o (NULL: nothing to
 * do). Returns -1 when writing, syncing or renaming failed, else 0. */
int gen_outfile_close(struct gen_outfile *o, int ok, char *err, size_t errlen);

#endif
