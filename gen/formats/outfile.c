/*
 * outfile.c - gcgen's output files (see outfile.h).
 *
 * The stream is a stdio FILE over our own write function (fopencookie, as
 * oracle/run.c uses for reading): writers keep the FILE interface of
 * writer.h, and every block stdio hands down passes through drop_behind().
 * fopencookie, sync_file_range and posix_fadvise need _GNU_SOURCE, which
 * the build defines (AC_USE_SYSTEM_EXTENSIONS in config.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "gen/formats/outfile.h"

/* stdio's buffer: writers hand over blocks of up to a few MiB, and stdio
 * passes whole multiples of its buffer straight through, so this sets the
 * size of most write(2) calls. 256 KiB holds a whole nettrace EventBlock
 * (100 KB), and for nettrace and .etl took about a quarter less system time
 * than 64 KiB (measured: 1M GCs to a file). */
#define STREAM_BUFFER (256u << 10)
/* Written data is handed to the disk and dropped in windows this size,
 * with this many windows being written back at a time. */
#define DROP_WINDOW (8u << 20)
#define DROP_DEPTH 4

struct gen_outfile {
	FILE *f;
	int fd;
	int own_fd;            /* 1: we opened fd and close it */
	int regular;           /* a regular file: sync, seek */
	int devnull;           /* /dev/null: seeks only move pos */
	int drop;              /* drop written windows from the page cache */
	char *path;            /* the name given (NULL: standard output) */
	char *tmp;             /* temporary name while writing, or NULL */
	char *buf;             /* stdio's buffer (ours: freed after fclose) */
	uint64_t pos;          /* offset of the next write(2) */
	uint64_t written;      /* end of the data written (a seek back leaves it) */
	uint64_t queued;       /* bytes before this offset are being written back */
	uint64_t dropped;      /* bytes before this offset left the page cache */
	int failed;            /* errno of a failed write, or 0 */
};

/* Hand finished windows to the disk and drop them from the page cache:
 * writeback of each full window starts at once (asynchronously), and only
 * the oldest of more than DROP_DEPTH windows in flight is waited for and
 * dropped, so the disk works while the generator does and at most a few
 * windows are cached. */
static void drop_behind(struct gen_outfile *o)
{
#if defined(SYNC_FILE_RANGE_WRITE) && defined(POSIX_FADV_DONTNEED)
	if (!o->drop || o->written < GEN_OUTFILE_KEEP_CACHED)
		return;
	while (o->written - o->queued >= DROP_WINDOW) {
		if (sync_file_range(o->fd, (off_t)o->queued, DROP_WINDOW, SYNC_FILE_RANGE_WRITE) != 0) {
			o->drop = 0; /* not supported here: leave the cache alone */
			return;
		}
		o->queued += DROP_WINDOW;
	}
	while (o->queued - o->dropped > DROP_DEPTH * (uint64_t)DROP_WINDOW) {
		off_t at = (off_t)o->dropped;

		sync_file_range(o->fd, at, DROP_WINDOW, SYNC_FILE_RANGE_WAIT_BEFORE |
				SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
		posix_fadvise(o->fd, at, DROP_WINDOW, POSIX_FADV_DONTNEED);
		o->dropped += DROP_WINDOW;
	}
#else
	(void)o;
#endif
}

/*
 * Temporary files and directories still being written, removed if a signal
 * ends the run (Ctrl-C, kill, or SIGPIPE when a reader of stdout or stderr
 * goes away): an interrupted run leaves nothing behind, not even its
 * temporary file. The handler only makes system calls (unlink; open,
 * getdents64, unlinkat and rmdir for a directory, which holds only files
 * gcgen made) and re-raises: async-signal-safe, unlike opendir/readdir.
 */
#define MAX_PENDING 6
static const char *volatile pending[MAX_PENDING];
static volatile char pending_dir[MAX_PENDING];
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGPIPE, SIGTERM };

static void remove_dir_now(const char *dir)
{
#ifdef SYS_getdents64
	char buf[4096] __attribute__((aligned(8)));
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	long n;

	if (fd < 0)
		return;
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long at = 0; at < n;) {
			/* struct linux_dirent64: ino 8, off 8, reclen 2, type 1, name */
			unsigned short reclen;
			const char *name = buf + at + 19;

			memcpy(&reclen, buf + at + 16, sizeof reclen);
			if (!(name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))))
				unlinkat(fd, name, 0);
			at += reclen;
		}
	close(fd);
#endif
	rmdir(dir);
}

static void on_fatal_signal(int sig)
{
	for (unsigned i = 0; i < MAX_PENDING; i++)
		if (pending[i]) {
			if (pending_dir[i])
				remove_dir_now(pending[i]);
			else
				unlink(pending[i]);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void watch_kind(const char *tmp, int dir)
{
	static int installed;

	if (!installed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		for (unsigned i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
			struct sigaction old;

			/* A signal the caller ignores (nohup) stays ignored. */
			if (sigaction(fatal_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
				sigaction(fatal_signals[i], &sa, NULL);
		}
		installed = 1;
	}
	for (unsigned i = 0; i < MAX_PENDING; i++)
		if (!pending[i]) {
			pending_dir[i] = (char)dir;
			pending[i] = tmp;
			return;
		}
}

static void watch(const char *tmp)
{
	watch_kind(tmp, 0);
}

static void unwatch(const char *tmp)
{
	for (unsigned i = 0; i < MAX_PENDING; i++)
		if (pending[i] == tmp)
			pending[i] = NULL;
}

void gen_outfile_watch_dir(const char *dir)
{
	watch_kind(dir, 1);
}

void gen_outfile_unwatch_dir(const char *dir)
{
	unwatch(dir);
}

static ssize_t cookie_write(void *cookie, const char *p, size_t n)
{
	struct gen_outfile *o = cookie;
	size_t done = 0;

	while (done < n) {
		ssize_t k = write(o->fd, p + done, n - done);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			o->failed = errno;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)k;
		o->pos += (uint64_t)k;
	}
	if (o->pos > o->written)
		o->written = o->pos;
	drop_behind(o);
	return (ssize_t)n;
}

/* Writers that patch a header at the end seek back (ETL's first buffer):
 * regular files can; pipes and devices say so, and such writers spool. */
static int cookie_seek(void *cookie, off64_t *offset, int whence)
{
	struct gen_outfile *o = cookie;
	off_t at;

	if (o->devnull) {
		int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)o->pos
			: (int64_t)o->written;
		if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END) {
			errno = EINVAL;
			return -1;
		}
		if (*offset < -base) {
			errno = EINVAL;
			return -1;
		}
		o->pos = (uint64_t)(base + *offset);
		*offset = (off64_t)o->pos;
		return 0;
	}
	if (!o->regular) {
		errno = ESPIPE;
		return -1;
	}
	if ((at = lseek(o->fd, (off_t)*offset, whence)) < 0)
		return -1;
	o->pos = (uint64_t)at;
	*offset = at;
	return 0;
}

static int cookie_close(void *cookie)
{
	(void)cookie; /* the fd is closed in gen_outfile_close, after fsync */
	return 0;
}

/* fsync the directory path is in: the rename that put the file there is
 * on disk too (gcgen(1) FILES). */
static void sync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
	int fd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static void release(struct gen_outfile *o)
{
	unwatch(o->tmp);
	if (o->own_fd && o->fd >= 0)
		close(o->fd);
	free(o->buf);
	free(o->path);
	free(o->tmp);
	free(o);
}

/* A temporary file in the directory of path, with the mode a plain create
 * would give (mkstemp makes 0600). */
static int open_temp(struct gen_outfile *o, const char *path)
{
	size_t n = strlen(path);
	mode_t mask;

	if (!(o->tmp = malloc(n + 16)))
		return -1;
	snprintf(o->tmp, n + 16, "%s.tmpXXXXXX", path);
	if ((o->fd = mkstemp(o->tmp)) < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(o->fd, 0666 & ~mask);
	o->own_fd = 1;
	watch(o->tmp);
	return 0;
}

struct gen_outfile *gen_outfile_open(const char *path)
{
	static const cookie_io_functions_t io = { NULL, cookie_write, cookie_seek, cookie_close };
	struct gen_outfile *o = calloc(1, sizeof *o);
	struct stat st;
	int e;

	if (!o)
		return NULL;
	o->fd = -1;
	if (!path || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
	} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* A link names the file to write: a device or FIFO is written in
		 * place, a regular file replaced where it is (the link stays);
		 * a link to nothing is refused (gcgen creates no file where a
		 * link points unless told to write there). */
		if (stat(path, &st) != 0)
			goto fail;
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			if (!(o->path = strdup(path)) || (o->fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
				goto fail;
			o->own_fd = 1;
		} else if (!(o->path = realpath(path, NULL)) || open_temp(o, o->path) < 0) {
			goto fail;
		}
	} else if (!(o->path = strdup(path))) {
		goto fail;
	} else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		if ((o->fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			goto fail;
		o->own_fd = 1;
	} else if (open_temp(o, path) < 0) {
		goto fail;
	}
	if (fstat(o->fd, &st) != 0)
		memset(&st, 0, sizeof st);
	o->regular = S_ISREG(st.st_mode);
	if (S_ISCHR(st.st_mode)) {
		struct stat null;

		o->devnull = stat("/dev/null", &null) == 0 && S_ISCHR(null.st_mode) &&
			null.st_rdev == st.st_rdev;
	}
	if (o->regular && !o->tmp) {
		/* stdout redirected to a file: we append where it stands. */
		off_t at = lseek(o->fd, 0, SEEK_CUR);

		o->pos = o->written = o->queued = o->dropped = at > 0 ? (uint64_t)at : 0;
	}
	if (!(o->buf = malloc(STREAM_BUFFER)) || !(o->f = fopencookie(o, "w", io)))
		goto fail;
	if (setvbuf(o->f, o->buf, _IOFBF, STREAM_BUFFER) != 0)
		goto fail;
	return o;
fail:
	e = errno ? errno : ENOMEM;
	if (o->f)
		fclose(o->f);
	if (o->tmp)
		unlink(o->tmp);
	release(o);
	errno = e;
	return NULL;
}

FILE *gen_outfile_stream(struct gen_outfile *o)
{
	return o->f;
}

void gen_outfile_drop_cache(struct gen_outfile *o)
{
	o->drop = o->regular;
}

uint64_t gen_outfile_written(const struct gen_outfile *o)
{
	return o->written;
}

int gen_outfile_close(struct gen_outfile *o, int ok, char *err, size_t errlen)
{
	const char *what = NULL;
	int e = 0;

	if (!o)
		return 0;
	if (fflush(o->f) != 0 || o->failed) {
		what = "cannot write";
		e = o->failed ? o->failed : errno;
	}
	fclose(o->f);
	if (!what && ok && o->tmp && fsync(o->fd) != 0) {
		what = "cannot sync";
		e = errno;
	}
	if (o->own_fd && close(o->fd) != 0 && !what) {
		what = "cannot close";
		e = errno;
	}
	o->fd = -1;
	if (!what && ok && o->tmp && rename(o->tmp, o->path) != 0) {
		what = "cannot rename into place";
		e = errno;
	} else if (!what && ok && o->tmp) {
		sync_parent(o->path);
	}
	if (o->tmp && (what || !ok))
		unlink(o->tmp);
	unwatch(o->tmp);
	if (what)
		snprintf(err, errlen, "%s: %s: %s", o->path ? o->path : "standard output", what,
			 strerror(e));
	release(o);
	return what ? -1 : 0;
}
