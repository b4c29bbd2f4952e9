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

#include "gen/formats/ctf/outdir.h"
#include "gen/formats/outfile.h"

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
	gen_outfile_watch_dir(tmp);
	return tmp;
}

/* 1 for a name gcgen's CTF writer gives a file: metadata, channel0_N. */
static int is_our_name(const char *name)
{
	if (strcmp(name, "metadata") == 0)
		return 1;
	if (strncmp(name, "channel0_", 9) != 0 || !name[9])
		return 0;
	for (const char *c = name + 9; *c; c++)
		if (*c < '0' || *c > '9')
			return 0;
	return 1;
}

/* 1 when the metadata file says gcgen wrote it: its env block names the
 * trace "gcgen" and gives gcgen's seed. The env follows the type aliases,
 * some KiB in; the first MiB is read. */
static int metadata_is_ours(const char *path)
{
	static const char mark[] = "trace_name = \"gcgen\";";
	enum { LIMIT = 1 << 20 };
	char *buf = malloc(LIMIT);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ours;
	size_t n = 0;
	ssize_t k = 0;

	while (buf && fd >= 0 && n < LIMIT && (k = read(fd, buf + n, LIMIT - n)) > 0)
		n += (size_t)k;
	if (fd >= 0)
		close(fd);
	ours = buf && k >= 0 && memmem(buf, n, mark, sizeof mark - 1) &&
	       memmem(buf, n, "gcgen_seed = ", 13);
	free(buf);
	return ours;
}

/* 1 when dir is empty, or holds only regular files with the names gcgen
 * gives them and a metadata file gcgen wrote: a trace gcgen wrote, safe to
 * delete. A directory with anything else (a user's file, a subdirectory,
 * a link, an LTTng trace, a metadata file gcgen did not write) is not. */
static int is_our_trace(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0, metadata = 0, other = 0;
	char p[4096];

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		if (!is_our_name(e->d_name) || lstat(p, &st) != 0 || !S_ISREG(st.st_mode)) {
			other = 1;
			break;
		}
		files++;
		if (strcmp(e->d_name, "metadata") == 0)
			metadata = 1;
	}
	closedir(d);
	if (other)
		return 0;
	if (files == 0)
		return 1;
	snprintf(p, sizeof p, "%s/metadata", dir);
	return metadata && metadata_is_ours(p);
}

/* fsync every file of dir and dir itself: the trace is on disk before it is
 * put in place, as a file output is (gcgen(1)). */
static int sync_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0, fd;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fsync(fd) != 0)
			rc = -1;
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || fsync(fd) != 0)
		rc = -1;
	if (fd >= 0)
		close(fd);
	return rc;
}

/* fsync the directory path is in, so that a rename into it is durable. */
static void sync_parent(const char *path)
{
	char *copy = strdup(path), *slash;
	int fd;

	if (!copy)
		return;
	slash = strrchr(copy, '/');
	if (slash == copy)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	fd = open(slash ? copy : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

int gen_outdir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	gen_outfile_unwatch_dir(dir);
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

	if (sync_dir(tmp) != 0) {
		snprintf(err, errlen, "%s: cannot sync: %s", tmp, strerror(errno));
		return -1;
	}
	if (lstat(path, &st) != 0) {
		if (errno != ENOENT || rename(tmp, path) != 0)
			goto fail;
		gen_outfile_unwatch_dir(tmp);
		sync_parent(path);
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		/* A file of another format at the same path: replace it. */
		if (unlink(path) != 0 || rename(tmp, path) != 0)
			goto fail;
		gen_outfile_unwatch_dir(tmp);
		sync_parent(path);
		return 0;
	}
	if (!S_ISDIR(st.st_mode) || !is_our_trace(path)) {
		snprintf(err, errlen, "%s exists and is not a trace gcgen wrote; not replacing it", path);
		return -1;
	}
#ifdef RENAME_EXCHANGE
	/* Swap: readers of path see the old trace or the new one, never none. */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_EXCHANGE) == 0) {
		sync_parent(path);
		/* tmp is now the old trace, still watched: removed either way. */
		return gen_outdir_remove(tmp) == 0 ? 0 :
			(snprintf(err, errlen, "cannot remove the old trace (now %s)", tmp), -1);
	}
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
		gen_outfile_unwatch_dir(tmp);
		sync_parent(path);
		gen_outdir_remove(aside);
		free(aside);
		return 0;
	}
fail:
	snprintf(err, errlen, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
	return -1;
}
