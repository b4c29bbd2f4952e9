/*
 * outdir.c - temporary output directories and putting them in place (see
 * outdir.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outdir.h"

char *gen_outdir_make(const char *path, char *err, size_t errlen)
{
	size_t n = strlen(path) + 16;
	char *tmp = malloc(n);
	mode_t mask;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	snprintf(tmp, n, "%s.tmpXXXXXX", path);
	if (!mkdtemp(tmp)) {
		snprintf(err, errlen, "cannot create a directory beside %s: %s", path, strerror(errno));
		free(tmp);
		return NULL;
	}
	/* mkdtemp makes 0700; give it the mode a plain mkdir would. */
	mask = umask(0);
	umask(mask);
	chmod(tmp, 0777 & ~mask);
	return tmp;
}

/* 1 when dir holds only regular files, one of them `metadata` (or nothing
 * at all): a trace gcgen wrote, safe to delete. */
static int is_our_trace(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0, metadata = 0, other = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			other = 1;
			break;
		}
		files++;
		if (strcmp(e->d_name, "metadata") == 0)
			metadata = 1;
	}
	closedir(d);
	return !other && (metadata || files == 0);
}

uint64_t gen_outdir_bytes(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t total = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat st;

		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_size;
	}
	closedir(d);
	return total;
}

int gen_outdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char p[4096];

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (unlink(p) != 0)
			rc = -1;
	}
	closedir(d);
	if (rmdir(dir) != 0)
		rc = -1;
	return rc;
}

int gen_outdir_commit(const char *tmp, const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (lstat(path, &st) != 0) {
		if (errno != ENOENT || rename(tmp, path) != 0)
			goto fail;
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		/* A file of another format at the same path: replace it. */
		if (unlink(path) != 0 || rename(tmp, path) != 0)
			goto fail;
		return 0;
	}
	if (!S_ISDIR(st.st_mode) || !is_our_trace(path)) {
		snprintf(err, errlen, "%s exists and is not a trace gcgen wrote; not replacing it", path);
		return -1;
	}
#ifdef RENAME_EXCHANGE
	/* Swap: readers of path see the old trace or the new one, never none. */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0)
		return gen_outdir_remove(tmp) == 0 ? 0 :
			(snprintf(err, errlen, "cannot remove the old trace (now %s)", tmp), -1);
#endif
	{
		/* No exchange here: move the old trace aside, then the new one in. */
		size_t n = strlen(path) + 16;
		char *aside = malloc(n);

		if (!aside) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		snprintf(aside, n, "%s.oldXXXXXX", path);
		if (!mkdtemp(aside) || rename(path, aside) != 0) {
			free(aside);
			goto fail;
		}
		if (rename(tmp, path) != 0) {
			rename(aside, path);
			free(aside);
			goto fail;
		}
		gen_outdir_remove(aside);
		free(aside);
		return 0;
	}
fail:
	snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
	return -1;
}
