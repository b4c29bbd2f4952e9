/*
 * dirimage.h - a directory's files as one byte image, so container faults
 * (mutate_container.h), which edit the bytes of a complete output, apply to
 * directory containers (CTF) too.
 *
 * Image layout: the 16 bytes "gcgen-dir-image\n", then per regular file of
 * the directory, sorted by name (strcmp): the name, NUL, its size as a
 * little-endian u64, its bytes. Subdirectories are not part of an image.
 *
 * Ownership: images returned here are malloc'd; the caller frees them.
 * Errors: -1 (NULL) with a one-line message in err where there is one;
 * lookups return -1 when the file is not there or the image is malformed.
 */
#ifndef GEN_DIRIMAGE_H
#define GEN_DIRIMAGE_H

#include <stddef.h>
#include <stdint.h>

#define GEN_DIRIMAGE_MAGIC "gcgen-dir-image\n"
#define GEN_DIRIMAGE_MAGIC_LEN 16

/* Read every regular file of dir into one image. */
int gen_dirimage_read(const char *dir, uint8_t **img, size_t *len, char *err, size_t errlen);
/* Make dir hold exactly the image's files: rewrite each, delete the others. */
int gen_dirimage_write(const char *dir, const uint8_t *img, size_t len, char *err, size_t errlen);

/* The i-th file (0-based): its name, and where its bytes are in the image. */
int gen_dirimage_file(const uint8_t *img, size_t len, unsigned i, const char **name,
		      size_t *off, size_t *size);
/* The file called name. */
int gen_dirimage_find(const uint8_t *img, size_t len, const char *name, size_t *off, size_t *size);
/* A copy of the image with file name's bytes replaced by data[0..size), or
 * NULL when the file is not there or memory runs out. */
uint8_t *gen_dirimage_replace(const uint8_t *img, size_t len, const char *name,
			      const uint8_t *data, size_t size, size_t *out_len);

#endif
