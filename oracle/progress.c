/*
 * progress.c - the progress line (progress.h). Time is read only on a
 * tick, and ticks come every 64 Ki events, so a run that prints none pays
 * for a branch per event.
 */
#include <time.h>

#include "oracle/output/output.h"
#include "oracle/progress.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void or_progress_start(struct or_progress *p, const char *name, uint64_t total)
{
	if (!p->tty)
		return;
	if (p->t0 == 0)
		p->t0 = now();
	p->name = name;
	p->total = total;
}

static void mb(FILE *f, uint64_t bytes)
{
	fprintf(f, "%.1f MB", (double)bytes / 1e6);
}

void or_progress_tick(struct or_progress *p, uint64_t done)
{
	double t;

	if (!p->tty)
		return;
	t = now();
	if (t - p->t0 < p->after || t - p->last < 0.2)
		return;
	p->last = t;
	fputs("\r\033[K", p->tty);
	fputs("gcoracle: ", p->tty);
	or_text_put(p->tty, p->name ? p->name : "");
	fputs(": ", p->tty);
	if (p->total && done <= p->total)
		fprintf(p->tty, "%u%% (", (unsigned)(done * 100 / p->total));
	mb(p->tty, done);
	if (p->total && done <= p->total) {
		fputs(" of ", p->tty);
		mb(p->tty, p->total);
		fputc(')', p->tty);
	}
	fflush(p->tty);
	p->shown = 1;
}

void or_progress_clear(struct or_progress *p)
{
	if (!p->tty || !p->shown)
		return;
	fputs("\r\033[K", p->tty);
	fflush(p->tty);
	p->shown = 0;
}
