/*
 * compare_locate.c - the places of events and fields in a case's trace
 * (compare_locate.h), from a run of gcoracle's readers and decoder over it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "oracle/compare/compare_locate.h"
#include "oracle/decode/decode.h"
#include "oracle/oracle.h"

struct cl_event {
	const struct gcspec_event *spec;
	uint64_t offset;
	unsigned nvalid;
	struct { uint32_t off, len; } f[OR_MAX_FIELDS];
};

struct cl_locs {
	const uint8_t *want;
	size_t n;
	struct cl_event **ev;      /* per index; NULL when not wanted or not seen */
	int oom;
};

static void on_event(void *arg, struct or_ctx *ctx, const struct or_event *ev,
		     const struct or_decoded *dec)
{
	struct cl_locs *l = arg;
	struct cl_event *e;

	(void)ctx;
	if (!dec || ev->index >= l->n || !l->want[ev->index] || l->ev[ev->index])
		return;
	if (!(e = calloc(1, sizeof *e))) {
		l->oom = 1;
		return;
	}
	e->spec = dec->spec;
	e->offset = ev->offset;
	e->nvalid = dec->nvalid < OR_MAX_FIELDS ? dec->nvalid : OR_MAX_FIELDS;
	for (unsigned i = 0; i < e->nvalid; i++) {
		e->f[i].off = dec->v[i].off;
		e->f[i].len = dec->v[i].len;
	}
	l->ev[ev->index] = e;
}

struct cl_locs *cl_locate(const char *path, const uint8_t *want, size_t nevents)
{
	struct cl_locs *l = calloc(1, sizeof *l);
	struct or_ctx ctx;
	struct stat st;
	int rc;

	if (!l || !(l->ev = calloc(nevents + 1, sizeof *l->ev)) || or_ctx_init(&ctx) != 0) {
		cl_free(l);
		return NULL;
	}
	l->want = want;
	l->n = nevents;
	ctx.on_event = on_event;
	ctx.on_event_arg = l;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = or_run_dir(&ctx, path);
	} else {
		FILE *in = fopen(path, "rbe");

		rc = in ? or_run_file(&ctx, path, in) : -1;
		if (in)
			fclose(in);
	}
	or_ctx_free(&ctx);
	(void)rc; /* a damaged case still locates the events read before the damage */
	l->want = NULL;
	return l;
}

int cl_field(const struct cl_locs *l, uint64_t event, const char *field, uint64_t *event_off,
	     uint32_t *off, uint32_t *len)
{
	const struct cl_event *e;
	const struct gcspec_field *f;

	if (!l || event >= l->n || !(e = l->ev[event]) || !e->spec)
		return -1;
	*event_off = e->offset;
	f = gcspec_event_fields(e->spec);
	for (unsigned i = 0; i < e->spec->nfields && i < e->nvalid; i++)
		if (!f[i].is_member && strcmp(f[i].name, field) == 0) {
			*off = e->f[i].off;
			*len = e->f[i].len;
			return 0;
		}
	return -1;
}

void cl_free(struct cl_locs *l)
{
	if (!l)
		return;
	for (size_t i = 0; l->ev && i < l->n; i++)
		free(l->ev[i]);
	free(l->ev);
	free(l);
}
