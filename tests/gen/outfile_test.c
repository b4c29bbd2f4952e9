/* outfile_test.c - gcgen's output files: temporary name, rename, removal
 * on failure, seeking back, and a file large enough to be dropped from the
 * page cache as it grows. */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gen/formats/outfile.h"
#include "tap.h"

static char dir[] = "/tmp/outfile_test.XXXXXX";

static char *path(const char *name)
{
	static char p[256];

	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

/* Names in dir other than . and .. (ls -A | wc -l). */
static int entries(void)
{
	char cmd[512];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
	if ((p = popen(cmd, "r"))) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static long file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

/* The byte at offset i of the large file. */
static unsigned char pattern(size_t i)
{
	return (unsigned char)(i * 131 + (i >> 20));
}

int main(void)
{
	struct gen_outfile *o;
	char err[256], got[16];
	FILE *f;

	if (!mkdtemp(dir)) {
		printf("Bail out! cannot create a directory\n");
		return 1;
	}

	o = gen_outfile_open(path("a"));
	tap_ok(o != NULL, "a new file opens");
	fputs("hello", gen_outfile_stream(o));
	fflush(gen_outfile_stream(o));
	tap_ok(file_size(path("a")) == -1 && entries() == 1,
	       "while it is written, only a temporary file exists");
	tap_ok(fseeko(gen_outfile_stream(o), 0, SEEK_SET) == 0 &&
	       fputc('J', gen_outfile_stream(o)) == 'J' &&
	       fseeko(gen_outfile_stream(o), 0, SEEK_END) == 0 &&
	       ftello(gen_outfile_stream(o)) == 5, "a regular file's stream seeks back and forth");
	tap_ok(gen_outfile_close(o, 1, err, sizeof err) == 0, "closing it succeeds");
	f = fopen(path("a"), "rb");
	tap_ok(f && fread(got, 1, sizeof got, f) == 5 && memcmp(got, "Jello", 5) == 0,
	       "it is renamed into place with the patched bytes");
	if (f)
		fclose(f);
	tap_ok(entries() == 1, "no temporary file is left");

	o = gen_outfile_open(path("b"));
	fputs("half", gen_outfile_stream(o));
	tap_ok(gen_outfile_close(o, 0, err, sizeof err) == 0 && file_size(path("b")) == -1 &&
	       entries() == 1, "a failed run leaves neither the file nor a temporary one");

	o = gen_outfile_open(path("a"));
	fputs("again", gen_outfile_stream(o));
	tap_ok(file_size(path("a")) == 5 && gen_outfile_close(o, 1, err, sizeof err) == 0 &&
	       file_size(path("a")) == 5, "an existing file stays whole until the new one replaces it");

	/* Asked to, past GEN_OUTFILE_KEEP_CACHED the file is synced and
	 * dropped in windows; the bytes must not notice, nor a seek back to
	 * the start. */
	{
		size_t total = GEN_OUTFILE_KEEP_CACHED + (24u << 20) + 12345, bad = 0, i;
		unsigned char *chunk = malloc(1 << 16);
		int c;

		o = gen_outfile_open(path("big"));
		gen_outfile_drop_cache(o);
		for (i = 0; i < total; i++) {
			chunk[i & 0xFFFF] = pattern(i);
			if ((i & 0xFFFF) == 0xFFFF || i == total - 1)
				fwrite(chunk, 1, (i & 0xFFFF) + 1, gen_outfile_stream(o));
		}
		tap_ok(fseeko(gen_outfile_stream(o), 0, SEEK_SET) == 0 &&
		       fputc(0xAB, gen_outfile_stream(o)) == 0xAB, "seeking back into the dropped part");
		fflush(gen_outfile_stream(o));
		tap_ok(gen_outfile_written(o) == total, "written() is the end of the data (%llu)",
		       (unsigned long long)gen_outfile_written(o));
		tap_ok(gen_outfile_close(o, 1, err, sizeof err) == 0 &&
		       file_size(path("big")) == (long)total, "a %zu-byte file closes whole", total);
		f = fopen(path("big"), "rb");
		for (i = 0; f && (c = getc(f)) != EOF; i++)
			bad += (unsigned char)c != (i ? pattern(i) : 0xAB);
		tap_ok(f && i == total && bad == 0, "every byte reads back as written (%zu differ)", bad);
		if (f)
			fclose(f);
		free(chunk);
		unlink(path("big"));
	}

	/* /dev/null seeks (a writer that patches its header need not spool),
	 * and written() is the stream's size. */
	o = gen_outfile_open("/dev/null");
	tap_ok(o && fputs("0123456789", gen_outfile_stream(o)) >= 0 &&
	       fseeko(gen_outfile_stream(o), 2, SEEK_SET) == 0 &&
	       ftello(gen_outfile_stream(o)) == 2 && fputs("ab", gen_outfile_stream(o)) >= 0 &&
	       fflush(gen_outfile_stream(o)) == 0 && gen_outfile_written(o) == 10 &&
	       fseeko(gen_outfile_stream(o), 0, SEEK_END) == 0 && ftello(gen_outfile_stream(o)) == 10,
	       "/dev/null seeks, and its stream's size is what was written");
	tap_ok(o && gen_outfile_close(o, 1, err, sizeof err) == 0, "/dev/null closes");

	/* A FIFO (as a device) is written in place and cannot seek. */
	{
		int rd = -1;

		if (mkfifo(path("fifo"), 0600) == 0)
			rd = open(path("fifo"), O_RDONLY | O_NONBLOCK);
		o = rd >= 0 ? gen_outfile_open(path("fifo")) : NULL;
		tap_ok(o && fputs("x", gen_outfile_stream(o)) >= 0 &&
		       fseeko(gen_outfile_stream(o), 0, SEEK_SET) != 0,
		       "a FIFO opens in place and its stream does not seek");
		tap_ok(o && gen_outfile_close(o, 1, err, sizeof err) == 0 &&
		       read(rd, got, sizeof got) == 1 && got[0] == 'x', "what was written comes out of it");
		{
			struct stat st;

			tap_ok(stat(path("fifo"), &st) == 0 && S_ISFIFO(st.st_mode) && entries() == 2,
			       "the FIFO is still a FIFO, no temporary file beside it");
		}
		if (rd >= 0)
			close(rd);
		unlink(path("fifo"));
	}

	o = gen_outfile_open(path("no-such-dir/x"));
	tap_ok(o == NULL, "a file in a missing directory does not open");

	unlink(path("a"));
	rmdir(dir);
	return tap_done();
}
