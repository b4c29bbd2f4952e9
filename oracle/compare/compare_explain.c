/*
 * compare_explain.c - a case's fault in words (compare_explain.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "oracle/compare/compare_explain.h"

/* At most this many required diagnostics are named: the first is the
 * fault's own, the rest are its consequences. */
#define NAMED 3

/* buf[*k..n) += text, never past the end. */
static void add(char *buf, size_t n, size_t *k, const char *fmt, const char *a, const char *b)
{
	if (*k < n)
		*k += (size_t)snprintf(buf + *k, n - *k, fmt, a, b);
	if (*k >= n)
		*k = n - 1;
}

static void add_list(char *buf, size_t n, size_t *k, const struct cv *list)
{
	for (size_t i = 0; list && list->kind == CV_ARRAY && i < list->n; i++)
		add(buf, n, k, "%s%s", i ? "," : "", cv_text(&list->item[i], "?"));
}

static void add_where(char *buf, size_t n, size_t *k, const struct cv *w)
{
	const struct cv *ev = cv_get(w, "event"), *off = cv_get(w, "offset");
	const char *file = cv_text(cv_get(w, "file"), NULL);
	char num[32];

	if (ev) {
		snprintf(num, sizeof num, "%" PRIu64, ev->u);
		add(buf, n, k, " at event %s%s", num, "");
	} else if (off) {
		snprintf(num, sizeof num, "%" PRIu64, off->u);
		add(buf, n, k, " at byte %s%s", num, "");
		if (file)
			add(buf, n, k, " of %s%s", file, "");
	}
}

const char *ce_case(char *buf, size_t n, const struct cv *ecase)
{
	const char *cls = cv_text(cv_get(ecase, "class"), "?");
	const struct cv *faults = cv_get(ecase, "faults"), *diags = cv_get(ecase, "diagnostics");
	size_t k = 0;
	unsigned named = 0, more = 0;

	buf[0] = 0;
	if (*cls == 'y')
		add(buf, n, &k, "y_, valid, must be accepted: %s%s",
		    cv_text(cv_get(ecase, "description"), ""), "");
	else
		add(buf, n, &k, "%s_, %s", cls, *cls == 'n' ? "must be rejected"
		    : "implementation-defined, may be rejected");
	if (*cls == 'i' && *cv_text(cv_get(ecase, "allowed"), ""))
		add(buf, n, &k, " (allowed: %s)%s", cv_text(cv_get(ecase, "allowed"), ""), "");
	if (*cls != 'y') {
		add(buf, n, &k, ": fault %s", "", "");
		add_list(buf, n, &k, faults);
		add(buf, n, &k, " (reach %s", "", "");
		add_list(buf, n, &k, cv_get(ecase, "reaches"));
		add(buf, n, &k, "): %s%s", cv_text(cv_get(ecase, "description"), ""), "");
	}
	for (size_t i = 0; diags && diags->kind == CV_ARRAY && i < diags->n; i++) {
		const struct cv *w = &diags->item[i], *must = cv_get(w, "must");

		if (!must || must->kind != CV_BOOL || !must->u)
			continue;
		if (named == NAMED) {
			more++;
			continue;
		}
		add(buf, n, &k, named ? ", %s (%s)" : "; must raise %s (%s)",
		    cv_text(cv_get(w, "code"), "?"), cv_text(cv_get(w, "severity"), "?"));
		add_where(buf, n, &k, w);
		named++;
	}
	if (more) {
		char num[16];

		snprintf(num, sizeof num, "%u", more);
		add(buf, n, &k, " and %s more%s", num, "");
	}
	return buf;
}
