/*
 * writer_tee.c - one stream, two writers: the container the user asked for
 * and, beside it, the CBOR model stream of the same events (gcgen
 * --values). The model stream records every event's header and the field
 * values its payload was encoded from, so it is the generator's own
 * statement of what the container holds: the ground truth the corpus
 * compares decoders against. Both writers see exactly the same calls.
 */
#include <stdlib.h>

#include "gen/formats/writer.h"

struct tee_writer {
	struct gen_writer base;
	struct gen_writer *a, *b;  /* owned */
	FILE *b_out;               /* borrowed */
};

#define T(w) ((struct tee_writer *)(void *)(w))

/* The first failure of either side becomes the tee's. */
static int both(struct gen_writer *w, int ra, int rb)
{
	struct tee_writer *t = T(w);

	if (ra < 0)
		return gen_writer_fail(w, "%s", gen_writer_error(t->a));
	if (rb < 0)
		return gen_writer_fail(w, "values: %s", gen_writer_error(t->b));
	return 0;
}

static int tee_begin(struct gen_writer *w, FILE *out, const struct gen_stream_info *info)
{
	struct tee_writer *t = T(w);
	int ra = t->a->ops->begin(t->a, out, info);

	return both(w, ra, ra < 0 ? 0 : t->b->ops->begin(t->b, t->b_out, info));
}

static int tee_begin_dir(struct gen_writer *w, const char *dir, const struct gen_stream_info *info)
{
	struct tee_writer *t = T(w);
	int ra = t->a->ops->begin_dir(t->a, dir, info);

	return both(w, ra, ra < 0 ? 0 : t->b->ops->begin(t->b, t->b_out, info));
}

static int tee_event(struct gen_writer *w, const struct gen_event *ev)
{
	struct tee_writer *t = T(w);
	int ra = t->a->ops->event(t->a, ev);

	return both(w, ra, ra < 0 ? 0 : t->b->ops->event(t->b, ev));
}

static int tee_end(struct gen_writer *w)
{
	struct tee_writer *t = T(w);
	int ra = t->a->ops->end(t->a);

	return both(w, ra, ra < 0 ? 0 : t->b->ops->end(t->b));
}

static int tee_option(struct gen_writer *w, const char *key, const char *value)
{
	struct tee_writer *t = T(w);

	if (!t->a->ops->option)
		return gen_writer_fail(w, "format %s takes no writer options", t->a->ops->format);
	return both(w, t->a->ops->option(t->a, key, value), 0);
}

static void tee_destroy(struct gen_writer *w)
{
	struct tee_writer *t = T(w);

	if (!t)
		return;
	if (t->a)
		t->a->ops->destroy(t->a);
	if (t->b)
		t->b->ops->destroy(t->b);
	free(t);
}

static const struct gen_writer_ops tee_ops = {
	.format = "tee",
	.description = "a container and its model stream",
	.begin = tee_begin,
	.begin_dir = tee_begin_dir,
	.event = tee_event,
	.end = tee_end,
	.destroy = tee_destroy,
	.option = tee_option,
	.needs_values = 1,
};

struct gen_writer *gen_writer_tee(struct gen_writer *a, struct gen_writer *b, FILE *b_out)
{
	struct tee_writer *t = calloc(1, sizeof *t);

	if (!t) {
		a->ops->destroy(a);
		b->ops->destroy(b);
		return NULL;
	}
	t->base.ops = &tee_ops;
	t->a = a;
	t->b = b;
	t->b_out = b_out;
	return &t->base;
}
