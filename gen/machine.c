/*
 * machine.c - a machine-wide trace: N simulators in threads, merged by
 * time (machine.h). Each thread blocks in its sink until the merger has
 * written its event, so the event's bytes stay valid without a copy and
 * only one thread runs at a time.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gen/faults/mutate.h"
#include "gen/machine.h"
#include "gen/model/emit.h"
#include "gen/model/sim.h"
#include "spec/gcspec.h"

enum role { R_WHOLE, R_ENDS, R_ATTACHED, R_STARTS };

/* A process runs until it has QUEUE events waiting (copies: a thread
 * switch per event cost more than the simulation); with --values the
 * event's values are not copied but read in place, one event at a time. */
#define QUEUE 1024

struct slot {
	struct gen_event ev;
	uint8_t *buf;              /* the payload's copy */
	size_t cap;
};

struct proc;

/* Process 0's events after its mutator, back into the merge. */
struct handoff {
	struct gen_writer base;
	struct proc *p;
};

struct proc {
	struct machine *mc;
	unsigned k;
	enum role role;
	uint32_t pid;
	unsigned psize;
	const struct gen_profile *profile;
	struct gen_sim_config cfg;
	struct gen_sink sink;      /* the simulator's events */
	struct gen_emit e;
	struct gen_mutator *mut;   /* process 0 with --mutate */
	struct handoff ho;
	pthread_t th;
	/* The handoff: events waiting for the merger, or the end. */
	struct slot q[QUEUE];
	unsigned head, count;
	int done, rc, ended;       /* ended: stopped on purpose (R_ENDS) */
	/* --reuse-pid's last process: its thread starts once process 1 has
	 * ended (deferred), under process 1's id; running: its thread is. */
	int deferred, running;
	char err[256];
	/* What the roles look at. */
	uint64_t last_ts;
	unsigned gcstarts;         /* GCs begun (a GCStart twin counted once) */
	int last_was_gcstart, open_gcs, visible, started;
	uint64_t nout;             /* events handed to the merger */
};

struct machine {
	struct gen_machine *m;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int abort;
	struct proc *procs;
	unsigned n;
	int ctf;                   /* a start takes three event indexes (statedump) */
	unsigned qcap;             /* QUEUE, or 1 when values are read in place */
	uint64_t index;            /* the merged stream's next event index */
	/* With --expect and --mutate: process 0's expectations, by its own
	 * event indexes, and where its event i went in the merged stream. */
	FILE *mexpect;
	char *mexpect_buf;
	size_t mexpect_len;
	uint64_t *map0;
	size_t nmap0, capmap0;
	int noted_other;           /* the first other-provider event's note recorded */
};

static const char *base_name(const struct gen_event *ev)
{
	return ev->spec_event < GCSPEC_NEVENTS ? gcspec_events[ev->spec_event].name : "";
}

/* Queue ev for the merger; with the queue full, wait until it has been
 * written out: 0, or -1 (stopped). */
static int hand(struct proc *p, const struct gen_event *ev)
{
	struct machine *mc = p->mc;
	struct slot *sl = &p->q[(p->head + p->count) % QUEUE];
	int rc = 0;

	sl->ev = *ev;
	if (mc->qcap > 1) {
		if (ev->payload_len > sl->cap) {
			uint8_t *b = realloc(sl->buf, ev->payload_len);

			if (!b)
				return -1;
			sl->buf = b;
			sl->cap = ev->payload_len;
		}
		if (ev->payload_len)
			memcpy(sl->buf, ev->payload, ev->payload_len);
		sl->ev.payload = sl->buf;
		sl->ev.values = NULL;
	}
	p->nout++;
	pthread_mutex_lock(&mc->mu);
	if (++p->count < mc->qcap) {
		pthread_mutex_unlock(&mc->mu);
		return 0;
	}
	pthread_cond_broadcast(&mc->cv);
	while (p->count && !mc->abort)
		pthread_cond_wait(&mc->cv, &mc->mu);
	if (mc->abort)
		rc = -1;
	pthread_mutex_unlock(&mc->mu);
	return rc;
}

/* A record of the operating system's about process p. */
static int hand_process(struct proc *p, int kind, uint64_t ts, uint64_t thread)
{
	struct gen_event e;

	memset(&e, 0, sizeof e);
	e.kind = (uint8_t)kind;
	e.spec_event = GEN_NO_SPEC;
	e.timestamp = ts;
	e.thread_id = thread;
	e.process_id = p->pid;
	return hand(p, &e);
}

/* The event as the machine records it: the process's id, pointer size
 * and machine-wide thread id. */
static int stamp_and_hand(struct proc *p, struct gen_event *ev)
{
	struct gen_event e = *ev;

	/* A fault class may have said it is another process's. */
	e.process_id = ev->process_id ? ev->process_id : p->pid;
	e.pointer_size = (uint8_t)p->psize;
	e.thread_id = ev->thread_id + ((uint64_t)p->k << 16);
	p->last_ts = e.timestamp;
	return hand(p, &e);
}

/* Attached mid-life: visible from the first suspension that begins with
 * two GCs done and none open. */
static void follow_gcs(struct proc *p, const struct gen_event *ev)
{
	const char *name = base_name(ev);
	int gcstart = strcmp(name, "GCStart") == 0;

	if (gcstart && !p->last_was_gcstart) {
		p->gcstarts++;
		p->open_gcs++;
	} else if (strcmp(name, "GCEnd") == 0 && p->open_gcs > 0) {
		p->open_gcs--;
	}
	p->last_was_gcstart = gcstart;
}

static int proc_event(struct gen_sink *s, struct gen_event *ev)
{
	struct proc *p = (struct proc *)((char *)s - offsetof(struct proc, sink));

	if (p->role == R_ATTACHED && !p->visible) {
		if (p->gcstarts >= 2 && p->open_gcs == 0 &&
		    strcmp(base_name(ev), "GCSuspendEEBegin") == 0)
			p->visible = 1;
		else {
			follow_gcs(p, ev);
			return 0;
		}
	}
	follow_gcs(p, ev);
	if (!p->started && (p->role == R_ENDS || p->role == R_STARTS)) {
		p->started = 1;
		if (hand_process(p, GEN_EV_PROCESS_START, ev->timestamp - 1,
				 ev->thread_id + ((uint64_t)p->k << 16)) < 0)
			goto stopped;
	}
	if ((p->mut ? gen_mutator_sink(p->mut)->event(gen_mutator_sink(p->mut), ev)
		    : stamp_and_hand(p, ev)) < 0) {
		if (p->mut)
			snprintf(s->error, sizeof s->error, "%s", gen_mutator_sink(p->mut)->error);
		else
			goto stopped;
		return -1;
	}
	if (p->role == R_ENDS && p->gcstarts == 2 && base_name(ev)[0] &&
	    strcmp(base_name(ev), "GCStart") == 0) {
		/* The process exits inside its second GC. */
		p->ended = 1;
		if (hand_process(p, GEN_EV_PROCESS_END, ev->timestamp + 1,
				 ev->thread_id + ((uint64_t)p->k << 16)) < 0)
			goto stopped;
		snprintf(s->error, sizeof s->error, "process ended");
		return -1;
	}
	return 0;
stopped:
	snprintf(s->error, sizeof s->error, "stopped");
	return -1;
}

static int handoff_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct handoff *h = (struct handoff *)w;
	struct gen_event e = *ev;

	if (stamp_and_hand(h->p, &e) < 0)
		return gen_writer_fail(w, "stopped");
	return 0;
}

static const struct gen_writer_ops handoff_ops = { .format = "machine", .event = handoff_event };

static void *proc_main(void *arg)
{
	struct proc *p = arg;
	int rc = gen_sim_run(&p->cfg, &p->e);

	if (rc == 0 && p->mut && gen_mutator_finish(p->mut) < 0) {
		snprintf(p->e.error, sizeof p->e.error, "%s", gen_mutator_sink(p->mut)->error);
		rc = -1;
	}
	pthread_mutex_lock(&p->mc->mu);
	p->rc = p->ended ? 0 : rc;
	snprintf(p->err, sizeof p->err, "%s", p->e.error);
	p->done = 1;
	pthread_cond_broadcast(&p->mc->cv);
	pthread_mutex_unlock(&p->mc->mu);
	return NULL;
}

static enum role role_of(unsigned k)
{
	static const enum role by[3] = { R_STARTS, R_ENDS, R_ATTACHED };

	return k == 0 ? R_WHOLE : by[k % 3];
}

/* Process k's configuration and emitter: 0, or -1. */
static int proc_init(struct machine *mc, struct proc *p, unsigned k)
{
	const struct gen_machine *m = mc->m;
	const struct gen_options *o = m->o;

	p->mc = mc;
	p->k = k;
	p->role = role_of(k);
	p->pid = GEN_MACHINE_PID(k);
	p->profile = o->profiles[k % o->nprofiles];
	p->psize = o->pointer_size;
	if (!mc->ctf && k % 2 == 1)
		p->psize = o->pointer_size == 8 ? 4 : 8;
	if (o->reuse_pid && k == m->o->processes - 1) {
		/* Process 1's runtime again: the same ClrInstanceID, so only
		 * the process says which GC numbering is whose. */
		p->role = R_STARTS;
		p->pid = GEN_MACHINE_PID(1);
		p->profile = o->profiles[1 % o->nprofiles];
		if (!mc->ctf)
			p->psize = o->pointer_size == 8 ? 4 : 8;
		p->deferred = 1;
	}
	p->sink.event = proc_event;
	p->cfg = (struct gen_sim_config){ p->profile, m->seed + k, m->gcs, m->events, o->heaps,
					  m->info->clock_frequency, m->info->start_ticks, NULL, NULL };
	if (p->role == R_ATTACHED && p->cfg.gcs)
		p->cfg.gcs += 2;
	if (p->role == R_ENDS || p->role == R_STARTS)
		p->cfg.start_ticks += 1500u * k;
	if (gen_emit_init(&p->e, p->psize, o->keywords, (uint8_t)o->level, &p->sink) < 0) {
		snprintf(mc->m->error, sizeof mc->m->error, "%s", p->e.error);
		return -1;
	}
	p->e.stacks = o->stacks;
	/* Payloads written in place when nothing reads values (run.c). */
	p->e.direct = !(k == 0 && o->nclasses) && !m->w->ops->needs_values;
	if (k == 0 && o->nclasses) {
		p->ho.base.ops = &handoff_ops;
		p->ho.p = p;
		p->mut = gen_mutator_new(o->classes, o->nclasses, &p->ho.base, p->profile, p->psize,
					 o->heaps, p->cfg.seed, mc->mexpect);
		if (!p->mut) {
			snprintf(mc->m->error, sizeof mc->m->error, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* Let p run until its queue is full or it is done (the caller holds mu). */
static void refill(struct machine *mc, struct proc *p)
{
	pthread_cond_broadcast(&mc->cv);
	while (p->count < mc->qcap && !p->done)
		pthread_cond_wait(&mc->cv, &mc->mu);
}

/* The process whose next event is the earliest (ties: the lower k), every
 * empty queue refilled first; NULL when all are done. */
static struct proc *earliest(struct machine *mc)
{
	struct proc *best = NULL;

	for (unsigned k = 0; k < mc->n; k++) {
		struct proc *p = &mc->procs[k];

		if (p->deferred)
			continue;
		if (!p->count && !p->done)
			refill(mc, p);
		if (p->count && (!best || p->q[p->head].ev.timestamp < best->q[best->head].ev.timestamp))
			best = p;
	}
	return best;
}

/* Where process 0's event went, when its expectations need it. */
static int note_index(struct machine *mc, struct proc *p, const struct gen_event *ev)
{
	if (p->k != 0 || !mc->mexpect || ev->kind != GEN_EV_RUNTIME)
		return 0;
	if (mc->nmap0 == mc->capmap0) {
		size_t cap = mc->capmap0 ? 2 * mc->capmap0 : 4096;
		uint64_t *q = realloc(mc->map0, cap * sizeof *q);

		if (!q)
			return -1;
		mc->map0 = q;
		mc->capmap0 = cap;
	}
	mc->map0[mc->nmap0++] = mc->index;
	return 0;
}

/* Write one event; what a reader notes of the machine's own records
 * goes to the expectations. */
static int write_one(struct machine *mc, struct proc *p)
{
	struct gen_machine *m = mc->m;
	const struct gen_event *ev = &p->q[p->head].ev;

	if (note_index(mc, p, ev) < 0) {
		snprintf(m->error, sizeof m->error, "out of memory");
		return -1;
	}
	if (m->w->ops->event(m->w, ev) < 0) {
		snprintf(m->error, sizeof m->error, "%s", gen_writer_error(m->w));
		return -1;
	}
	if (ev->kind == GEN_EV_RUNTIME) {
		mc->index++;
		m->nevents++;
	} else if (ev->kind == GEN_EV_PROCESS_START && mc->ctf) {
		/* The statedump's events are of another provider: noted once. */
		if (!mc->noted_other && m->expect)
			fprintf(m->expect, "{\"code\":\"GC-U003\",\"event\":%llu}\n",
				(unsigned long long)mc->index);
		mc->noted_other = 1;
		mc->index += 3;
	} else if (!mc->noted_other && m->expect && !mc->ctf) {
		/* The kernel's records are passed over, noted once. */
		fprintf(m->expect, "{\"code\":\"GC-W010\"}\n");
		mc->noted_other = 1;
	}
	return 0;
}

/* Start process k's thread and wait for its first event (the threads
 * never run side by side, not even at their start). */
static int start_one(struct machine *mc, struct proc *p)
{
	if (p->deferred)
		return 0;
	if (pthread_create(&p->th, NULL, proc_main, p) != 0) {
		snprintf(mc->m->error, sizeof mc->m->error, "cannot start a thread");
		return -1;
	}
	p->running = 1;
	pthread_mutex_lock(&mc->mu);
	refill(mc, p);
	pthread_mutex_unlock(&mc->mu);
	return 0;
}

/* --reuse-pid: start the deferred process after time ts, under the id
 * process 1 no longer holds (the caller holds mu; earliest() waits for
 * its first events). 0, or -1 with m->error. */
static int start_deferred(struct machine *mc, uint64_t ts)
{
	struct proc *p = &mc->procs[mc->n - 1];

	if (!p->deferred)
		return 0;
	p->deferred = 0;
	p->cfg.start_ticks = ts + 1000;
	if (pthread_create(&p->th, NULL, proc_main, p) != 0) {
		snprintf(mc->m->error, sizeof mc->m->error, "cannot start a thread");
		return -1;
	}
	p->running = 1;
	return 0;
}

/* Merge until every process is done: 0, or -1 with m->error. */
static int merge(struct machine *mc)
{
	struct proc *p;
	uint64_t last = 0;
	int rc = 0;

	pthread_mutex_lock(&mc->mu);
	for (;;) {
		/* Process 1 never ended (too few GCs): the id is taken after
		 * everything else. */
		if (!(p = earliest(mc)) &&
		    (!mc->procs[mc->n - 1].deferred || start_deferred(mc, last) < 0 ||
		     !(p = earliest(mc)))) {
			rc = mc->procs[mc->n - 1].deferred ? -1 : 0;
			break;
		}
		last = p->q[p->head].ev.timestamp;
		if (write_one(mc, p) < 0 ||
		    (p->k == 1 && p->q[p->head].ev.kind == GEN_EV_PROCESS_END &&
		     start_deferred(mc, last) < 0)) {
			rc = -1;
			break;
		}
		p->head = (p->head + 1) % QUEUE;
		p->count--;
	}
	mc->abort = rc < 0;
	pthread_cond_broadcast(&mc->cv);
	pthread_mutex_unlock(&mc->mu);
	return rc;
}

/* Process 0's expectations with merged event indexes and its process. */
static int remap_expect(struct machine *mc)
{
	struct gen_machine *m = mc->m;
	char *line = mc->mexpect_buf, *end = line + mc->mexpect_len;

	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line)), *ev;
		size_t len = (size_t)((nl ? nl : end) - line);
		unsigned long long i;
		int n;

		if (len < 2)
			break;
		ev = strstr(line, "\"event\":");
		if (ev && ev < line + len && sscanf(ev, "\"event\":%llu%n", &i, &n) == 1) {
			uint64_t at = i < mc->nmap0 ? mc->map0[i] : mc->index + (i - mc->nmap0);

			fprintf(m->expect, "%.*s\"event\":%llu,\"process\":%u%.*s\n", (int)(ev - line),
				line, (unsigned long long)at, mc->procs[0].pid,
				(int)(len - (size_t)(ev + n - line)), ev + n);
		} else {
			fprintf(m->expect, "%.*s\n", (int)len, line);
		}
		line += len + 1;
	}
	return ferror(m->expect) ? -1 : 0;
}

static void cleanup(struct machine *mc, unsigned started)
{
	for (unsigned k = 0; k < started; k++)
		if (mc->procs[k].running)
			pthread_join(mc->procs[k].th, NULL);
	for (unsigned k = 0; k < mc->n; k++) {
		gen_mutator_free(mc->procs[k].mut);
		gen_emit_fini(&mc->procs[k].e);
		for (unsigned i = 0; i < QUEUE; i++)
			free(mc->procs[k].q[i].buf);
	}
	if (mc->mexpect)
		fclose(mc->mexpect);
	free(mc->mexpect_buf);
	free(mc->map0);
	free(mc->procs);
	pthread_mutex_destroy(&mc->mu);
	pthread_cond_destroy(&mc->cv);
}

int gen_machine_run(struct gen_machine *m)
{
	struct machine mc;
	unsigned started = 0;
	int rc = -1;

	memset(&mc, 0, sizeof mc);
	mc.m = m;
	mc.n = m->o->processes;
	mc.ctf = strcmp(m->o->format, "ctf") == 0;
	mc.qcap = m->w->ops->needs_values ? 1 : QUEUE;
	pthread_mutex_init(&mc.mu, NULL);
	pthread_cond_init(&mc.cv, NULL);
	snprintf(m->error, sizeof m->error, "out of memory");
	if (!(mc.procs = calloc(mc.n, sizeof *mc.procs)))
		goto out;
	if (m->expect && m->o->nclasses &&
	    !(mc.mexpect = open_memstream(&mc.mexpect_buf, &mc.mexpect_len)))
		goto out;
	for (unsigned k = 0; k < mc.n; k++)
		if (proc_init(&mc, &mc.procs[k], k) < 0)
			goto out;
	for (; started < mc.n; started++)
		if (start_one(&mc, &mc.procs[started]) < 0)
			goto out;
	if (merge(&mc) < 0)
		goto out;
	for (unsigned k = 0; k < mc.n; k++)
		if (mc.procs[k].rc < 0) {
			snprintf(m->error, sizeof m->error, "%s", mc.procs[k].err);
			goto out;
		}
	if (mc.mexpect && (fclose(mc.mexpect) != 0 || (mc.mexpect = NULL, remap_expect(&mc) < 0))) {
		mc.mexpect = NULL;
		snprintf(m->error, sizeof m->error, "cannot write the expect file");
		goto out;
	}
	rc = 0;
out:
	if (rc < 0) {
		pthread_mutex_lock(&mc.mu);
		mc.abort = 1;
		pthread_cond_broadcast(&mc.cv);
		pthread_mutex_unlock(&mc.mu);
	}
	cleanup(&mc, started);
	return rc;
}
