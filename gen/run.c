/*
 * run.c - one gcgen run (run.h): simulator or exhaustive generator ->
 * (mutator) -> writer, write to a temporary file beside the output and
 * rename it into place, so an interrupted run leaves nothing half-written.
 * Directory containers (CTF) get a temporary directory that is put in place
 * the same way (outdir.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "gen/faults/mutate.h"
#include "gen/faults/mutate_container.h"
#include "gen/formats/ctf/outdir.h"
#include "gen/formats/outfile.h"
#include "gen/formats/writer.h"
#include "gen/machine.h"
#include "gen/model/emit.h"
#include "gen/model/exhaustive.h"
#include "gen/model/profiles.h"
#include "gen/model/rng.h"
#include "gen/model/sim.h"
#include "gen/run.h"
#include "util/dirbytes.h"
#include "util/esc.h"

/* The writer as a sink, for streams without mutations. */
struct writer_sink {
	struct gen_sink sink;
	struct gen_writer *w;
};

/* What a run holds, from the open outputs to their close. */
struct run {
	const struct gen_options *o;
	uint64_t seed, gcs, events;   /* this shard's */
	int empty;                    /* a shard without a share */
	struct timespec t0;           /* the outputs opened (--stats) */
	struct gen_outfile *outf, *expectof, *valuesof;
	FILE *out, *expectf, *valuesf;
	char *tmpdir;                 /* a directory container's */
	FILE *valid;                  /* the valid file, for a container fault */
	char *valid_buf;
	size_t valid_len;
	struct gen_writer *w;
	struct writer_sink ws;
	struct gen_mutator *mut;
	struct gen_stream_info info;
	uint64_t nevents;
};

struct progress {
	const char *progname;
	uint64_t total;
	double next;               /* seconds (monotonic) when a line is due */
	int shown;
};

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A line a second, the first after a second: short runs stay quiet. */
static void show_progress(uint64_t done, void *arg)
{
	struct progress *p = arg;
	double now = seconds();

	if (now < p->next)
		return;
	p->next = now + 1;
	p->shown = 1;
	if (p->total)
		fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " GCs (%u%%)", p->progname, done, p->total,
			(unsigned)(100 * done / p->total));
	else
		fprintf(stderr, "\r%s: %" PRIu64 " GCs", p->progname, done);
}

static int writer_sink_event(struct gen_sink *s, struct gen_event *ev)
{
	struct writer_sink *ws = (struct writer_sink *)s;

	if (ws->w->ops->event(ws->w, ev) < 0) {
		snprintf(s->error, sizeof s->error, "%s", gen_writer_error(ws->w));
		return -1;
	}
	return 0;
}

static void fail(const struct run *r, const char *why)
{
	fprintf(stderr, "%s: %s\n", r->o->progname, gc_esc(why));
}

/* --stats: one line for benchmarks (tests/gen/bench.sh parses it). The
 * wall time runs from opening the output to its rename; cpu is user and
 * system time of the whole process. */
static void print_stats(const struct run *r, uint64_t nbytes)
{
	struct timespec t1;
	struct rusage ru;
	double wall, cpu = 0;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	wall = (double)(t1.tv_sec - r->t0.tv_sec) + (double)(t1.tv_nsec - r->t0.tv_nsec) / 1e9;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		      (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	fprintf(stderr, "%s: stats: events=%" PRIu64 " bytes=%" PRIu64 " wall=%.3f cpu=%.3f\n",
		r->o->progname, r->nevents, nbytes, wall, cpu);
}

/* Finish an output file (see outfile.h); 0, or -1 after saying why. */
static int finish(const struct run *r, struct gen_outfile *f, int ok)
{
	char err[512];

	if (gen_outfile_close(f, ok, err, sizeof err) < 0) {
		fail(r, err);
		return -1;
	}
	return 0;
}

/* --shard I/N: independent seeds per shard, same for every batch system,
 * and each shard its share of the work, so that the shards together do it
 * once: GCs and events here, exhaustive items in the generator. */
static void shard_share(struct run *r)
{
	const struct gen_options *o = r->o;
	uint64_t n = o->shard_n, i = o->shard_i, st;

	r->seed = o->seed;
	r->gcs = o->gcs;
	r->events = o->events;
	if (n <= 1)
		return;
	st = (o->seed ^ (n << 32)) + i * 0x9E3779B97F4A7C15ull;
	/* The (I+1)-th splitmix64 output, computed directly: splitmix64
	 * adds its constant to the state before each output. */
	r->seed = gen_splitmix64(&st);
	r->gcs = o->gcs / n + (i < o->gcs % n);
	r->events = o->events / n + (i < o->events % n);
	r->empty = r->gcs == 0 && r->events == 0;
}

static void discard_dir(struct run *r)
{
	if (r->tmpdir) {
		gen_outdir_remove(r->tmpdir);
		free(r->tmpdir);
		r->tmpdir = NULL;
	}
}

/* --expect or --values: its file opened, or the outputs so far dropped. */
static int open_beside(struct run *r, const char *path, struct gen_outfile **f)
{
	if (!path || (*f = gen_outfile_open(path)))
		return 0;
	fprintf(stderr, "%s: cannot create a file beside %s: %s\n", r->o->progname, gc_esc(path),
		strerror(errno));
	finish(r, r->outf, 0);
	finish(r, r->expectof, 0);
	discard_dir(r);
	return -1;
}

/* The stream's temporary file or directory, then --expect and --values:
 * 0, or -1 after saying why with nothing left behind. */
static int open_outputs(struct run *r)
{
	const struct gen_options *o = r->o;
	char derr[512];

	if (o->ops->begin_dir) {
		if (!(r->tmpdir = gen_outdir_make(o->output, derr, sizeof derr))) {
			fail(r, derr);
			return -1;
		}
	} else if (!(r->outf = gen_outfile_open(o->output))) {
		fprintf(stderr, "%s: cannot create a file beside %s: %s\n", o->progname, gc_esc(o->output),
			strerror(errno));
		return -1;
	}
	if (r->outf) {
		r->out = gen_outfile_stream(r->outf);
		if (o->drop_cache)
			gen_outfile_drop_cache(r->outf);
	}
	if (open_beside(r, o->expect_path, &r->expectof) < 0 ||
	    open_beside(r, o->values_path, &r->valuesof) < 0)
		return -1;
	if (r->expectof)
		r->expectf = gen_outfile_stream(r->expectof);
	if (r->valuesof)
		r->valuesf = gen_outfile_stream(r->valuesof);
	return 0;
}

static void stream_info(struct run *r)
{
	const struct gen_options *o = r->o;
	struct gen_stream_info *info = &r->info;

	memset(info, 0, sizeof *info);
	info->pointer_size = (uint8_t)o->pointer_size;
	/* A machine-wide .etl: the kernel's records and the logfile header
	 * are a 64-bit machine's; each process's events carry its own size. */
	if (o->processes > 1 && strcmp(o->format, "ctf") != 0)
		info->pointer_size = 8;
	info->clock_frequency = 10000000;
	info->start_ticks = 1000000000ull + 1000 * (r->seed % 1000);
	info->start_unix_ns = 1700000000ull * 1000000000ull;
	info->process_id = 4242;
	info->nprocessors = o->heaps > 1 ? o->heaps : 8;
	info->profile = o->profile->name;
	info->mode = o->exhaustive ? "exhaustive" : "realistic";
	info->seed = r->seed;
	info->keywords = o->keywords;
	info->level = (uint8_t)o->level;
}

/* -O KEY=VALUE, in order: 0, or 2 (bad usage) after saying why. */
static int writer_options(struct run *r)
{
	const struct gen_options *o = r->o;

	for (unsigned i = 0; i < o->nwriter_opts; i++) {
		char *eq = strchr(o->writer_opts[i], '=');

		*eq = 0;
		if (!o->ops->option) {
			fprintf(stderr, "%s: format %s takes no writer options\n", o->progname, o->format);
			return 2;
		}
		if (o->ops->option(r->w, o->writer_opts[i], eq + 1) < 0) {
			fail(r, gen_writer_error(r->w));
			return 2;
		}
	}
	return 0;
}

/* The container's writer with its options, teed to the model stream for
 * --values: 0, or the exit status after saying why. */
static int make_writer(struct run *r)
{
	int rc;

	r->w = r->o->ops->create();
	r->ws.sink.event = writer_sink_event;
	r->ws.w = r->w;
	if (!r->w) {
		fail(r, "out of memory");
		return 1;
	}
	r->w->ops = r->o->ops;
	if ((rc = writer_options(r)) != 0)
		return rc;
	if (r->valuesf) {
		/* The model stream of the same events, beside the container. */
		struct gen_writer *m = gen_write_model_ops.create();

		if (!m) {
			fail(r, "out of memory");
			return 1;
		}
		m->ops = &gen_write_model_ops;
		r->w = gen_writer_tee(r->w, m, r->valuesf);
		r->ws.w = r->w;
		if (!r->w) {
			fail(r, "out of memory");
			return 1;
		}
	}
	return 0;
}

/* The container begun (a container fault needs the whole valid file first:
 * it is kept in memory; a directory container is faulted in its temporary
 * directory), and the mutator in front of it: 0, or 1 after saying why. */
static int begin(struct run *r)
{
	const struct gen_options *o = r->o;
	struct gen_writer *w = r->w;

	if (o->container && !r->tmpdir && !(r->valid = open_memstream(&r->valid_buf, &r->valid_len))) {
		fail(r, "out of memory");
		return 1;
	}
	if ((r->tmpdir ? w->ops->begin_dir(w, r->tmpdir, &r->info)
		       : w->ops->begin(w, r->valid ? r->valid : r->out, &r->info)) < 0) {
		fail(r, gen_writer_error(w));
		return 1;
	}
	if (o->nclasses && o->processes < 2) {
		r->mut = gen_mutator_new(o->classes, o->nclasses, w, o->profile, o->pointer_size,
					 o->heaps, r->seed, r->expectf);
		if (!r->mut) {
			fail(r, "out of memory");
			return 1;
		}
	}
	return 0;
}

/* The simulator, with a progress line on a terminal: 1 when it ran. */
static int simulate(struct run *r, struct gen_emit *e)
{
	const struct gen_options *o = r->o;
	struct progress prog = { o->progname, r->gcs, seconds() + 1, 0 };
	struct gen_sim_config cfg = { o->profile, r->seed, r->gcs, r->events, o->heaps,
				      r->info.clock_frequency, r->info.start_ticks, NULL, NULL };
	int ok;

	if (!o->quiet && isatty(STDERR_FILENO)) {
		cfg.progress = show_progress;
		cfg.progress_arg = &prog;
	}
	ok = gen_sim_run(&cfg, e) == 0;
	if (prog.shown) {
		/* The last line says 100 %, then goes: the terminal is left clean. */
		if (ok) {
			prog.next = 0;
			show_progress(prog.total, &prog);
		}
		fputs("\r\033[K", stderr);
	}
	return ok;
}

/* The events, from the generator the mode names: 1 when they were made. */
static int produce(struct run *r, struct gen_emit *e)
{
	const struct gen_options *o = r->o;
	static struct gen_coverage cov;
	int ok;

	if (o->exhaustive) {
		ok = gen_exhaustive_run_shard(e, o->profile, r->seed, r->info.start_ticks, &cov,
					      o->shard_i, o->shard_n, r->expectf) == 0;
		if (ok && o->coverage)
			gen_coverage_report(&cov, stderr);
		return ok;
	}
	if (r->empty)
		return 1; /* a shard without a share: the container alone */
	return simulate(r, e);
}

/* A machine-wide trace's processes into the writer, and the writer
 * ended: 1, or 0 after saying why. */
static int generate_machine(struct run *r)
{
	struct gen_machine m;

	memset(&m, 0, sizeof m);
	m.o = r->o;
	m.seed = r->seed;
	m.gcs = r->gcs;
	m.events = r->events;
	m.info = &r->info;
	m.w = r->w;
	m.expect = r->expectf;
	if (gen_machine_run(&m) < 0) {
		fail(r, m.error);
		return 0;
	}
	r->nevents = m.nevents;
	if (r->w->ops->end(r->w) < 0) {
		fail(r, gen_writer_error(r->w));
		return 0;
	}
	return 1;
}

/* The events through the mutator into the writer, and the writer ended:
 * 1, or 0 after saying why. */
static int generate(struct run *r)
{
	const struct gen_options *o = r->o;
	struct gen_emit e;
	int ok;

	if (o->processes > 1)
		return generate_machine(r);

	if (gen_emit_init(&e, o->pointer_size, o->keywords, (uint8_t)o->level,
			  r->mut ? gen_mutator_sink(r->mut) : &r->ws.sink) < 0) {
		fail(r, e.error);
		return 0;
	}
	e.stacks = o->stacks;
	/* Payloads written in place when nothing downstream reads values: no
	 * mutator (it re-encodes), no model stream; the exhaustive generator
	 * fills values itself. */
	e.direct = !o->exhaustive && !r->mut && !r->w->ops->needs_values;
	ok = produce(r, &e);
	if (!ok)
		fail(r, e.error);
	if (ok && r->mut && gen_mutator_finish(r->mut) < 0) {
		fail(r, gen_mutator_sink(r->mut)->error);
		ok = 0;
	}
	if (ok && r->w->ops->end(r->w) < 0) {
		fail(r, gen_writer_error(r->w));
		ok = 0;
	}
	r->nevents = e.nevents;
	gen_emit_fini(&e);
	return ok;
}

/* The container fault applied to the finished valid file or directory:
 * 1, or 0 after saying why. */
static int container_fault(struct run *r)
{
	const struct gen_options *o = r->o;
	char err[256];

	if (r->valid) {
		FILE *valid = r->valid;

		r->valid = NULL;
		if (fclose(valid) != 0) {
			fail(r, "out of memory");
			return 0;
		}
		if (gen_container_fault_write(o->container, (const uint8_t *)r->valid_buf, r->valid_len,
					      r->seed, r->out, r->expectf, err, sizeof err) < 0) {
			fail(r, err);
			return 0;
		}
	}
	if (o->container && r->tmpdir &&
	    gen_container_fault_write_dir(o->container, r->tmpdir, r->seed, r->expectf, err,
					  sizeof err) < 0) {
		fail(r, err);
		return 0;
	}
	return 1;
}

/* Everything released, and the outputs put in place when rc is 0 (else
 * dropped): the final status. A failure keeps its status (2: bad usage); a
 * failed close makes it 1. */
static int close_outputs(struct run *r, int rc)
{
	const struct gen_options *o = r->o;
	uint64_t nbytes = 0;
	char derr[512];

	if (r->valid)
		fclose(r->valid);
	free(r->valid_buf);
	gen_mutator_free(r->mut);
	if (r->w)
		r->w->ops->destroy(r->w);
	if (o->stats && rc == 0 && r->outf && fflush(r->out) == 0)
		nbytes = gen_outfile_written(r->outf);
	if (o->stats && rc == 0 && r->tmpdir)
		nbytes = util_dir_bytes(r->tmpdir, 0);
	if (r->tmpdir && rc == 0) {
		if (gen_outdir_commit(r->tmpdir, o->output, derr, sizeof derr) < 0) {
			fail(r, derr);
			rc = 1;
		} else {
			free(r->tmpdir);
			r->tmpdir = NULL;
		}
	}
	discard_dir(r); /* a directory not put in place */
	if (finish(r, r->outf, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (finish(r, r->expectof, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (finish(r, r->valuesof, rc == 0) < 0 && rc == 0)
		rc = 1;
	if (o->stats && rc == 0)
		print_stats(r, nbytes);
	return rc;
}

int gen_run(const struct gen_options *o)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof r);
	r.o = o;
	shard_share(&r);
	clock_gettime(CLOCK_MONOTONIC, &r.t0);
	if (open_outputs(&r) < 0)
		return 1;
	stream_info(&r);
	rc = make_writer(&r);
	if (rc == 0)
		rc = begin(&r);
	if (rc == 0)
		rc = generate(&r) && container_fault(&r) ? 0 : 1;
	return close_outputs(&r, rc);
}
