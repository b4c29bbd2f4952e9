/*
 * dirimage.c - directory images (see dirimage.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/formats/ctf/dirimage.h"
#include "util/le.h"

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The regular files of dir, sorted; *names and each name are malloc'd. */
static int list_files(const char *dir, char ***names, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat st;

		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || stat(p, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (*n == cap) {
			char **m = realloc(*names, (cap = cap ? 2 * cap : 16) * sizeof *m);

			if (!m)
				goto fail;
			*names = m;
		}
		if (!((*names)[*n] = strdup(e->d_name)))
			goto fail;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof **names, cmp_names);
	return 0;
fail:
	closedir(d);
	for (size_t i = 0; i < *n; i++)
		free((*names)[i]);
	free(*names);
	*names = NULL;
	return -1;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int gen_dirimage_read(const char *dir, uint8_t **img, size_t *len, char *err, size_t errlen)
{
	char **names;
	size_t n, total = GEN_DIRIMAGE_MAGIC_LEN, at;
	uint8_t *buf = NULL;

	if (list_files(dir, &names, &n) < 0) {
		snprintf(err, errlen, "cannot list %s", dir);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char p[4096];
		struct stat st;

		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		if (stat(p, &st) != 0)
			goto io;
		total += strlen(names[i]) + 1 + 8 + (size_t)st.st_size;
	}
	if (!(buf = malloc(total)))
		goto io;
	memcpy(buf, GEN_DIRIMAGE_MAGIC, GEN_DIRIMAGE_MAGIC_LEN);
	at = GEN_DIRIMAGE_MAGIC_LEN;
	for (size_t i = 0; i < n; i++) {
		char p[4096];
		size_t k = strlen(names[i]) + 1, got;
		FILE *f;
		long sz;

		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		if (!(f = fopen(p, "rb")))
			goto io;
		if (fseek(f, 0, SEEK_END) != 0 || (sz = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
		    at + k + 8 + (size_t)sz > total) {
			fclose(f);
			goto io;
		}
		memcpy(buf + at, names[i], k);
		put_le64(buf + at + k, (uint64_t)sz);
		at += k + 8;
		got = fread(buf + at, 1, (size_t)sz, f);
		fclose(f);
		if (got != (size_t)sz)
			goto io;
		at += got;
	}
	free_names(names, n);
	*img = buf;
	*len = at;
	return 0;
io:
	snprintf(err, errlen, "cannot read %s: %s", dir, errno ? strerror(errno) : "changed while read");
	free(buf);
	free_names(names, n);
	return -1;
}

int gen_dirimage_file(const uint8_t *img, size_t len, unsigned i, const char **name,
		      size_t *off, size_t *size)
{
	size_t at = GEN_DIRIMAGE_MAGIC_LEN;

	if (len < at || memcmp(img, GEN_DIRIMAGE_MAGIC, at) != 0)
		return -1;
	for (unsigned k = 0;; k++) {
		const uint8_t *nul;
		uint64_t sz;

		if (at >= len || !(nul = memchr(img + at, 0, len - at)))
			return -1;
		if ((size_t)(nul - img) + 9 > len)
			return -1;
		sz = le64(nul + 1);
		if (sz > len - (size_t)(nul - img) - 9)
			return -1;
		if (k == i) {
			*name = (const char *)img + at;
			*off = (size_t)(nul - img) + 9;
			*size = (size_t)sz;
			return 0;
		}
		at = (size_t)(nul - img) + 9 + (size_t)sz;
	}
}

int gen_dirimage_find(const uint8_t *img, size_t len, const char *name, size_t *off, size_t *size)
{
	const char *nm;

	for (unsigned i = 0; gen_dirimage_file(img, len, i, &nm, off, size) == 0; i++)
		if (strcmp(nm, name) == 0)
			return 0;
	return -1;
}

uint8_t *gen_dirimage_replace(const uint8_t *img, size_t len, const char *name,
			      const uint8_t *data, size_t size, size_t *out_len)
{
	size_t off, old, head;
	uint8_t *out;

	if (gen_dirimage_find(img, len, name, &off, &old) < 0)
		return NULL;
	head = off - 8; /* the size field */
	if (!(out = malloc(len - old + size)))
		return NULL;
	memcpy(out, img, head);
	put_le64(out + head, size);
	memcpy(out + off, data, size);
	memcpy(out + off + size, img + off + old, len - off - old);
	*out_len = len - old + size;
	return out;
}

int gen_dirimage_write(const char *dir, const uint8_t *img, size_t len, char *err, size_t errlen)
{
	char **names;
	size_t n, off, size;
	const char *nm;
	unsigned i;

	for (i = 0; gen_dirimage_file(img, len, i, &nm, &off, &size) == 0; i++) {
		char p[4096];
		FILE *f;
		int ok;

		if (strchr(nm, '/') || !*nm) {
			snprintf(err, errlen, "bad file name in a directory image");
			return -1;
		}
		snprintf(p, sizeof p, "%s/%s", dir, nm);
		if (!(f = fopen(p, "wb"))) {
			snprintf(err, errlen, "cannot write %s: %s", p, strerror(errno));
			return -1;
		}
		ok = fwrite(img + off, 1, size, f) == size;
		if (fclose(f) != 0 || !ok) {
			snprintf(err, errlen, "cannot write %s", p);
			return -1;
		}
	}
	/* Files the image no longer has go. */
	if (list_files(dir, &names, &n) < 0) {
		snprintf(err, errlen, "cannot list %s", dir);
		return -1;
	}
	for (size_t k = 0; k < n; k++)
		if (gen_dirimage_find(img, len, names[k], &off, &size) < 0) {
			char p[4096];

			snprintf(p, sizeof p, "%s/%s", dir, names[k]);
			unlink(p);
		}
	free_names(names, n);
	return 0;
}
