/*
 * run.c - the pipeline for one event: look the event-version up in the
 * spec, decode the payload, check it, hand it to the output; and for one
 * file: probe the readers, open, loop, close.
 *
 * Events passed over (GC-U00x) get one note per distinct (provider, id,
 * version), or per distinct provider name for other providers, at the first
 * such event; every one of them is counted in the statistics.
 *
 * A directory (or_run_dir) is read by the directory container reader that
 * recognises it, or, when none does, each directory below it that one
 * recognises is read as a stream of its own.
 */
/* fopencookie (read a pipe's probed head again) needs _GNU_SOURCE, which
 * the build defines (AC_USE_SYSTEM_EXTENSIONS). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "oracle/check/check.h"
#include "oracle/decode/decode.h"
#include "oracle/pipeline.h"
#include "oracle/progress.h"
#include "oracle/run_loop.h"
#include "util/dirbytes.h"
#include "util/u64map.h"
#include "util/esc.h"

void or_model_compare(struct or_ctx *ctx, const struct or_event *ev,
                      const struct or_decoded *dec);

int or_ctx_init(struct or_ctx *ctx)
{
	memset(ctx, 0, sizeof *ctx);
	or_diag_init(&ctx->diag);
	ctx->check = or_check_new();
	ctx->unknown_seen = u64map_new(4096);
	if (!ctx->check || !ctx->unknown_seen) {
		or_ctx_free(ctx);
		return -1;
	}
	ctx->info.pointer_size = 8;
	/* The lean decoder fills the fields the checker reads. */
	ctx->keep = or_check_keep();
	return 0;
}

void or_ctx_free(struct or_ctx *ctx)
{
	or_check_free(ctx->check);
	u64map_free(ctx->unknown_seen);
	ctx->check = NULL;
	ctx->unknown_seen = NULL;
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; s && *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ULL;
	return h | 1ULL << 63;
}

static int first_time(struct or_ctx *ctx, uint64_t key)
{
	if (u64map_get(ctx->unknown_seen, key))
		return 0;
	u64map_put(ctx->unknown_seen, key, 1); /* full: notes repeat; fine */
	return 1;
}

static void pass_over(struct or_ctx *ctx, const struct or_event *ev)
{
	const char *pname = ev->provider >= 0
		? gcspec_providers[ev->provider].name : ev->provider_name;
	uint64_t key = (uint64_t)(unsigned)ev->provider << 32 |
	               (uint64_t)ev->id << 8 | ev->version;

	if (ev->provider < 0) {
		ctx->stats.other_provider++;
		if (first_time(ctx, name_hash(ev->provider_name)))
			or_report(ctx, GCSPEC_DIAG_U003, ev->index, ev->offset, NULL,
			          "events of provider %s are not GC events; counted and passed over (noted once per provider)",
			          pname ? pname : "(unnamed)");
	} else if (gcspec_lookup((unsigned)ev->provider, ev->id, 0) ||
	           gcspec_lookup((unsigned)ev->provider, ev->id, 1) ||
	           gcspec_lookup((unsigned)ev->provider, ev->id, 2)) {
		ctx->stats.unknown_version++;
		if (first_time(ctx, key))
			or_report(ctx, GCSPEC_DIAG_U001, ev->index, ev->offset, NULL,
			          "%s event id %u has no version %u in the spec; counted and passed over (noted once per id and version)",
			          pname, ev->id, ev->version);
	} else {
		ctx->stats.unknown_id++;
		if (first_time(ctx, key))
			or_report(ctx, GCSPEC_DIAG_U002, ev->index, ev->offset, NULL,
			          "%s event id %u (version %u) is not in the spec; counted and passed over (noted once per id and version)",
			          pname, ev->id, ev->version);
	}
}

void or_process_event(struct or_ctx *ctx, const struct or_event *ev)
{
	const struct gcspec_event *spec = NULL;
	struct or_decoded dec;

	ctx->stats.events++;
	if (ev->provider >= 0)
		spec = gcspec_lookup((unsigned)ev->provider, ev->id, ev->version);
	if (!spec) {
		pass_over(ctx, ev);
		or_check_event(ctx, ev, NULL);
		if (ctx->on_event)
			ctx->on_event(ctx->on_event_arg, ctx, ev, NULL);
		return;
	}
	/* Output and the model's recorded values need every field; the
	 * checker alone needs a few. */
	if (ctx->on_event || ev->model_fields)
		or_decode(ctx, ev, spec, &dec);
	else
		or_decode_lean(ctx, ev, spec, &dec);
	ctx->stats.per_event[dec.event]++;
	if (ev->model_fields)
		or_model_compare(ctx, ev, &dec);
	or_check_event(ctx, ev, &dec);
	if (ctx->on_event)
		ctx->on_event(ctx->on_event_arg, ctx, ev, &dec);
}

void or_end_stream(struct or_ctx *ctx, uint64_t next_index, uint64_t offset)
{
	or_check_end(ctx, next_index, offset);
}

static void process_cb(void *arg, const struct or_event *ev)
{
	or_process_event(arg, ev);
}

/* A stream that cannot seek back (a pipe) is read through this: first the
 * head the probe consumed, then the rest; it also counts the bytes. */
struct headed {
	FILE *in;
	uint8_t head[64];
	size_t hlen, hpos;
	uint64_t pos;
};

static ssize_t headed_read(void *cookie, char *buf, size_t n)
{
	struct headed *h = cookie;
	size_t got = 0;

	if (h->hpos < h->hlen) {
		got = h->hlen - h->hpos < n ? h->hlen - h->hpos : n;
		memcpy(buf, h->head + h->hpos, got);
		h->hpos += got;
	}
	if (got < n) {
		got += fread(buf + got, 1, n - got, h->in);
		if (!got && ferror(h->in))
			return -1;
	}
	h->pos += got;
	return (ssize_t)got;
}

/* Only "where am I": ftell on the stream then says how far the reader
 * read (bytes handed over less what stdio still holds), as ftell on a file
 * does; the summary's bytes are then the same from a pipe and a file.
 * Any real move fails (a pipe is never sought). */
static int headed_seek(void *cookie, off64_t *offset, int whence)
{
	struct headed *h = cookie;

	if (whence != SEEK_CUR || *offset != 0) {
		errno = ESPIPE;
		return -1;
	}
	*offset = (off64_t)h->pos;
	return 0;
}

static const struct or_reader_ops *find_reader(const char *format)
{
	/* gcgen's name for the model stream is "cbor"; the reader's old name stays. */
	if (strcmp(format, "cbor-model") == 0)
		format = "cbor";
	for (int i = 0; or_readers[i]; i++)
		if (strcmp(or_readers[i]->format, format) == 0)
			return or_readers[i];
	return NULL;
}

static void tick_cb(void *arg, uint64_t done)
{
	or_progress_tick(((struct or_ctx *)arg)->progress, done);
}

/* The event loop (run_loop.h): every event of an open reader through the
 * pipeline. *next and *end_off: index after the last event and the end of
 * its payload. */
static enum or_status run_events(struct or_ctx *ctx, const struct or_reader_ops *ops,
                                 struct or_reader *r, uint64_t *next, uint64_t *end_off)
{
	return or_run_loop(ctx, ctx->info.unordered, ops, r, process_cb,
	                   ctx->progress ? tick_cb : NULL, ctx, NULL, next, end_off);
}

int or_run_file(struct or_ctx *ctx, const char *path, FILE *in)
{
	static const cookie_io_functions_t headed_io = { .read = headed_read, .seek = headed_seek };
	struct headed hd;
	size_t n;
	const struct or_reader_ops *ops = NULL;
	struct or_reader *r;
	enum or_status st;
	uint64_t next = 0, end_off = 0;
	FILE *src = in, *piped = NULL;
	struct or_pipe *pipe = NULL;
	int rc;

	memset(&hd, 0, sizeof hd);
	hd.in = in;
	if (ctx->format) {
		ops = find_reader(ctx->format);
		if (!ops) {
			fprintf(stderr, "gcoracle: no reader for format %s\n", ctx->format);
			return -1;
		}
		if (!ops->open) {
			fprintf(stderr, "gcoracle: %s: format %s is a directory, not a file\n", gc_esc(path),
			        ctx->format);
			return -1;
		}
	}
	n = hd.hlen = fread(hd.head, 1, sizeof hd.head, in);
	for (int i = 0; !ops && n && or_readers[i]; i++)
		if (or_readers[i]->probe && or_readers[i]->probe(hd.head, n))
			ops = or_readers[i];
	if (!ops) {
		fprintf(stderr, "gcoracle: %s: %s\n", gc_esc(path),
		        n ? "not a format this oracle reads" : "empty file");
		return -1;
	}
	/* Readers read from the start: rewind a file; read a pipe through a
	 * stream that gives the probed head back first. */
	if (fseek(in, 0, SEEK_SET) != 0) {
		piped = fopencookie(&hd, "rb", headed_io);
		if (!piped) {
			fprintf(stderr, "gcoracle: %s: out of memory\n", gc_esc(path));
			return -1;
		}
		src = piped;
	}
	memset(&ctx->info, 0, sizeof ctx->info);
	ctx->info.pointer_size = 8;
	/* --threads 2: the reader on a thread of its own (pipeline.h). */
	if (ctx->threads > 1)
		pipe = or_pipe_new(ctx, or_process_event);
	if (ops->open(&r, src, pipe ? or_pipe_ctx(pipe) : ctx, &ctx->info) != 0) {
		or_pipe_free(pipe);
		if (piped)
			fclose(piped);
		return -1;
	}
	if (ctx->progress) {
		struct stat fst;

		or_progress_start(ctx->progress, path, !piped && fstat(fileno(in), &fst) == 0 &&
		                  S_ISREG(fst.st_mode) ? (uint64_t)fst.st_size : 0);
	}
	if (pipe)
		st = or_pipe_run(pipe, ops, r, &next, &end_off);
	else
		st = run_events(ctx, ops, r, &next, &end_off);
	if (ctx->progress)
		or_progress_clear(ctx->progress);
	ops->close(r);
	or_pipe_free(pipe);
	if (piped) {
		long pos = ftell(piped);

		end_off = pos >= 0 ? (uint64_t)pos : hd.pos;
		fclose(piped);
	} else {
		long pos = ftell(in);
		if (pos >= 0)
			end_off = (uint64_t)pos;
	}
	ctx->stats.bytes += end_off;
	or_end_stream(ctx, next, end_off);
	rc = 0;
	if (st == OR_IOERR) {
		fprintf(stderr, "gcoracle: %s: read error\n", gc_esc(path));
		rc = -1;
	}
	return rc;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directories run_below looks into at most, below one argument: an LTTng
 * session, or a folder of sessions, needs a few dozen; a directory that
 * holds no trace (a home directory, /) must not cost a walk of the tree. */
#define BELOW_BUDGET 512u

/* No reader knows path itself: read every directory below it that one
 * knows (an LTTng session keeps its trace in ust/uid/N/64-bit/), each as
 * a stream of its own, in name order, looking into at most *budget
 * directories. Returns the number found. */
static int run_below(struct or_ctx *ctx, const char *path, unsigned depth, int *failed,
		     unsigned *budget)
{
	DIR *d;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int found = 0;

	if (depth > 8 || !*budget || !(d = opendir(path)))
		return 0;
	--*budget;
	while ((e = readdir(d))) {
		char p[4096];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof p, "%s/%s", path, e->d_name);
		if (lstat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			continue;
		if (n == cap) {
			char **m = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *m);
			if (!m)
				break;
			names = m;
		}
		if (!(names[n] = strdup(p)))
			break;
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmp_names);
	for (size_t i = 0; i < n; i++) {
		const struct or_reader_ops *ops = NULL;

		for (int k = 0; !ops && or_readers[k]; k++)
			if (or_readers[k]->probe_dir && or_readers[k]->probe_dir(names[i]))
				ops = or_readers[k];
		if (ops) {
			found++;
			if (or_run_dir(ctx, names[i]) != 0)
				*failed = 1;
		} else {
			found += run_below(ctx, names[i], depth + 1, failed, budget);
		}
		free(names[i]);
	}
	free(names);
	return found;
}

int or_run_dir(struct or_ctx *ctx, const char *path)
{
	const struct or_reader_ops *ops = NULL;
	struct or_reader *r;
	enum or_status st;
	uint64_t next = 0, end_off = 0;

	if (ctx->format) {
		ops = find_reader(ctx->format);
		if (!ops) {
			fprintf(stderr, "gcoracle: no reader for format %s\n", ctx->format);
			return -1;
		}
		if (!ops->open_dir) {
			fprintf(stderr, "gcoracle: %s: format %s is a file, not a directory\n", gc_esc(path),
			        ctx->format);
			return -1;
		}
	}
	for (int i = 0; !ops && or_readers[i]; i++)
		if (or_readers[i]->probe_dir && or_readers[i]->probe_dir(path))
			ops = or_readers[i];
	if (!ops) {
		int failed = 0;
		unsigned budget = BELOW_BUDGET;

		if (run_below(ctx, path, 1, &failed, &budget) > 0)
			return failed ? -1 : 0;
		if (!budget)
			fprintf(stderr, "gcoracle: %s: no trace this oracle reads in the first %u "
			        "directories below it; name the trace's own directory\n", path,
			        BELOW_BUDGET);
		else
			fprintf(stderr, "gcoracle: %s: no trace this oracle reads in this directory\n",
			        path);
		return -1;
	}
	memset(&ctx->info, 0, sizeof ctx->info);
	ctx->info.pointer_size = 8;
	if (ops->open_dir(&r, path, ctx, &ctx->info) != 0)
		return -1;
	if (ctx->progress)
		or_progress_start(ctx->progress, path, util_dir_bytes(path, 1));
	st = run_events(ctx, ops, r, &next, &end_off);
	if (ctx->progress)
		or_progress_clear(ctx->progress);
	/* The stream's end before close: the reader still locates offsets. */
	end_off = util_dir_bytes(path, 1);
	ctx->stats.bytes += end_off;
	or_end_stream(ctx, next, end_off);
	ops->close(r);
	if (st == OR_IOERR) {
		fprintf(stderr, "gcoracle: %s: read error\n", gc_esc(path));
		return -1;
	}
	return 0;
}
