/*
 * gcm_tar.c - pack and unpack trace directories (see gcm_tar.h).
 */
#include "config.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz/gcmutator/gcm_tar.h"

int gcm_is_tar(const uint8_t *p, size_t n)
{
	return n >= 512 && memcmp(p + 257, "ustar", 5) == 0;
}

static uint64_t octal(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (uint64_t)(p[i] - '0');
	return v;
}

int gcm_tar_unpack(const uint8_t *p, size_t n, const char *dir)
{
	size_t pos = 0;
	int files = 0;

	while (pos + 512 <= n && p[pos]) {
		const uint8_t *h = p + pos;
		uint64_t size = octal(h + 124, 12);
		char name[101], path[PATH_MAX];
		const char *base;
		size_t avail;

		memcpy(name, h, 100);
		name[100] = 0;
		base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
		pos += 512;
		avail = pos < n ? n - pos : 0;
		if (size > avail)
			size = avail;
		if ((h[156] == '0' || h[156] == 0) && *base && strcmp(base, ".") && strcmp(base, "..")) {
			FILE *f;

			snprintf(path, sizeof path, "%s/%s", dir, base);
			if (!(f = fopen(path, "wb")))
				return -1;
			if (size && fwrite(p + pos, 1, (size_t)size, f) != size) {
				fclose(f);
				return -1;
			}
			if (fclose(f) != 0)
				return -1;
			files++;
		}
		pos += (size_t)(size + 511) / 512 * 512;
	}
	return files;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int gcm_tar_pack(const char *dir, uint8_t **out, size_t *len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[256];
	size_t n = 0;
	FILE *f;
	char *buf = NULL;
	size_t blen = 0;
	int rc = 0;

	*out = NULL;
	*len = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) && n < 256)
		if (e->d_name[0] != '.' && strlen(e->d_name) < 100)
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, n, sizeof *names, by_name);
	if (!(f = open_memstream(&buf, &blen)))
		rc = -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char path[PATH_MAX], h[512];
		struct stat st;
		FILE *in;
		unsigned sum = 0;
		int c;

		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (!names[i] || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		memset(h, 0, sizeof h);
		memcpy(h, names[i], strlen(names[i]));
		snprintf(h + 100, 8, "%07o", 0644);
		snprintf(h + 108, 8, "%07o", 0);
		snprintf(h + 116, 8, "%07o", 0);
		snprintf(h + 124, 12, "%011llo", (unsigned long long)st.st_size);
		snprintf(h + 136, 12, "%011o", 0);
		memset(h + 148, ' ', 8);
		h[156] = '0';
		memcpy(h + 257, "ustar", 6);
		memcpy(h + 263, "00", 2);
		for (int k = 0; k < 512; k++)
			sum += (unsigned char)h[k];
		snprintf(h + 148, 8, "%06o", sum);
		fwrite(h, 1, 512, f);
		if (!(in = fopen(path, "rb"))) {
			rc = -1;
			break;
		}
		while ((c = getc(in)) != EOF)
			putc(c, f);
		fclose(in);
		for (off_t pad = st.st_size % 512 ? 512 - st.st_size % 512 : 0; pad > 0; pad--)
			putc(0, f);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	if (f) {
		char end[1024] = { 0 };

		fwrite(end, 1, sizeof end, f);
		if (fclose(f) != 0)
			rc = -1;
	}
	if (rc) {
		free(buf);
		return -1;
	}
	*out = (uint8_t *)buf;
	*len = blen;
	return 0;
}

void gcm_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
			unlink(path);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}
