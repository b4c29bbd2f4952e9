/*
 * compare_group.c - differences by kind (compare_group.h). Kinds are few
 * (tens at most in practice); a linear scan per difference is enough.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/compare/compare_group.h"
#include "spec/gcspec.h"

void cg_add(struct cg_list *l, unsigned code, const char *event, const char *field,
	    uint64_t example_event, const char *msg)
{
	struct cg_group *g;

	if (!event)
		event = "";
	if (!field || strcmp(field, "-") == 0)
		field = "";
	for (unsigned i = 0; i < l->n; i++) {
		g = &l->g[i];
		if (g->code == code && strncmp(g->event, event, sizeof g->event - 1) == 0 &&
		    strncmp(g->field, field, sizeof g->field - 1) == 0) {
			g->count++;
			return;
		}
	}
	if (l->n == CG_MAX) {
		l->other++;
		return;
	}
	g = &l->g[l->n++];
	g->code = code;
	snprintf(g->event, sizeof g->event, "%s", event);
	snprintf(g->field, sizeof g->field, "%s", field);
	g->count = 1;
	g->example_event = example_event;
	snprintf(g->example, sizeof g->example, "%s", msg);
	if (strlen(msg) >= sizeof g->example)
		memcpy(g->example + sizeof g->example - 4, "...", 4);
}

static int by_count(const void *a, const void *b)
{
	const struct cg_group *x = *(const struct cg_group *const *)a;
	const struct cg_group *y = *(const struct cg_group *const *)b;

	/* Equal counts: the kind seen first comes first (the array's order). */
	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x < y ? -1 : x > y;
}

void cg_print(FILE *out, const char *lead, const struct cg_list *l, unsigned max)
{
	const struct cg_group *order[CG_MAX];
	unsigned n = l->n;

	for (unsigned i = 0; i < n; i++)
		order[i] = &l->g[i];
	qsort(order, n, sizeof order[0], by_count);
	for (unsigned i = 0; i < n && (!max || i < max); i++) {
		const struct cg_group *g = order[i];

		fprintf(out, "%s%6" PRIu64 " %s%s%s%s%s, e.g. ", lead, g->count,
			gcspec_diags[g->code].code, *g->event ? " " : "", g->event,
			*g->field ? " " : "", g->field);
		if (g->example_event != UINT64_MAX)
			fprintf(out, "event %" PRIu64 ": ", g->example_event);
		fprintf(out, "%s\n", g->example);
	}
	if (max && n > max)
		fprintf(out, "%s       ... and %u more kinds\n", lead, n - max);
	if (l->other)
		fprintf(out, "%s%6" PRIu64 " of other kinds (more than %u kinds)\n", lead, l->other,
			CG_MAX);
}
