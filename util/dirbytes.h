/*
 * dirbytes.h - how many bytes the regular files directly in a directory
 * hold: the size a CTF trace directory counts as, for gcgen's --stats and
 * gcoracle's progress. Subdirectories are not entered.
 */
#ifndef UTIL_DIRBYTES_H
#define UTIL_DIRBYTES_H

#include <stdint.h>

/* The sum of the sizes; 0 when dir cannot be opened (a size is only
 * reported, never relied on). follow: 1 counts what a symbolic link
 * names (a user's trace directory, read as the reader opens it); 0
 * counts only files that are themselves regular (our own output). */
uint64_t util_dir_bytes(const char *dir, int follow);

#endif
