/*
 * compare_shift.c - finding an index shift (compare_shift.h).
 */
#include "oracle/compare/compare.h"
#include "oracle/compare/compare_shift.h"

/* Equal when the decoder gives the key; a key it leaves out says nothing. */
static int same_key(const struct cv *e, const struct cv *a, const char *key, int required)
{
	const struct cv *ev = cv_get(e, key), *av = cv_get(a, key);

	if (!av)
		return !required;
	return ev && cf_same(NULL, ev, av);
}

int cs_same(const struct cv *e, const struct cv *a)
{
	return same_key(e, a, "id", 1) && same_key(e, a, "version", 1) &&
	       same_key(e, a, "timestamp", 0) && same_key(e, a, "thread", 0);
}

unsigned cs_missing(const struct cv *events, uint64_t pe, const struct cv *p, uint64_t ae,
		    const struct cv *a)
{
	for (unsigned k = 1; k <= CS_WINDOW; k++) {
		if (ae + k >= events->n)
			break;
		if (cs_same(&events->item[pe + k], p) && cs_same(&events->item[ae + k], a))
			return k;
	}
	return 0;
}
