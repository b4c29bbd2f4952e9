/*
 * gcm_tar.h - a trace directory as one byte string: the ustar subset the
 * fuzzing side needs to hand directory containers (CTF) to libFuzzer, whose
 * inputs are single buffers.
 *
 * Only regular files directly in the directory are packed, sorted by name,
 * with fixed metadata (mode 0644, uid/gid 0, mtime 0), so the same
 * directory always packs to the same bytes. Unpacking is lenient, because a
 * fuzzer's byte flips should reach the trace, not the archive: checksums are
 * ignored, sizes are cut to the bytes present, directory parts of names are
 * dropped (nothing lands outside the target), other entry types skipped.
 *
 * Ownership: *out is malloc'd. Errors: -1 (I/O or memory); unpack returns
 * the number of files written.
 */
#ifndef FUZZ_GCM_TAR_H
#define FUZZ_GCM_TAR_H

#include <stddef.h>
#include <stdint.h>

int gcm_is_tar(const uint8_t *p, size_t n);
int gcm_tar_pack(const char *dir, uint8_t **out, size_t *len);
int gcm_tar_unpack(const uint8_t *p, size_t n, const char *dir);
/* Remove the regular files of dir, then dir. */
void gcm_rmdir(const char *dir);

#endif
