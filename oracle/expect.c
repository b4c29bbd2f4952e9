/*
 * expect.c - load gcgen expectations and apply the ground-truth rule.
 * The expectation lines are gcgen's own flat JSON objects, so a small key
 * scanner is enough; a line without "code" is an error.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/expect.h"
#include "util/esc.h"

static const char *find_key(const char *line, const char *key)
{
	char pat[32];
	const char *p;

	snprintf(pat, sizeof pat, "\"%s\"", key);
	p = strstr(line, pat);
	if (!p)
		return NULL;
	p += strlen(pat);
	while (*p == ' ' || *p == ':')
		p++;
	return p;
}

int or_expect_load(struct or_expect *x, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, linecap = 0, lineno = 0;

	memset(x, 0, sizeof *x);
	if (!f) {
		fprintf(stderr, "gcoracle: %s: cannot open expectations\n", gc_esc(path));
		return -1;
	}
	/* Lines of any length, read whole: a long one must not be split
	 * into several (and the line numbers thrown off). */
	while (getline(&line, &linecap, f) >= 0) {
		const char *c, *e, *m, *o, *fl;
		char code[16];
		size_t k = 0;
		lineno++;
		if (line[strspn(line, " \t\r\n")] == 0)
			continue;
		c = find_key(line, "code");
		e = find_key(line, "event");
		o = find_key(line, "offset");
		fl = find_key(line, "file");
		if (!c || *c != '"') {
			fprintf(stderr, "gcoracle: %s:%zu: not an expectation line\n",
			        path, lineno);
			fclose(f);
			free(line);
			return -1;
		}
		for (c++; *c && *c != '"' && k < sizeof code - 1; c++)
			code[k++] = *c;
		code[k] = 0;
		if (x->nwant == cap) {
			struct or_expect_item *n;
			cap = cap ? cap * 2 : 16;
			n = realloc(x->want, cap * sizeof *n);
			if (!n) {
				fclose(f);
				free(line);
				return -1;
			}
			x->want = n;
		}
		m = find_key(line, "may");
		memset(&x->want[x->nwant], 0, sizeof x->want[0]);
		x->want[x->nwant].code = or_diag_lookup(code);
		x->want[x->nwant].event = e ? strtoull(e, NULL, 10) : 0;
		x->want[x->nwant].offset = o ? strtoull(o, NULL, 10) : 0;
		x->want[x->nwant].where = (e ? 1 : 0) | (o ? 2 : 0) | (fl && *fl == '"' ? 4 : 0);
		if (fl && *fl == '"') {
			size_t n = strcspn(fl + 1, "\"");

			if (n >= sizeof x->want[0].file)
				n = sizeof x->want[0].file - 1;
			memcpy(x->want[x->nwant].file, fl + 1, n);
			x->want[x->nwant].file[n] = 0;
		}
		x->want[x->nwant].may = m && strncmp(m, "true", 4) == 0;
		x->want[x->nwant].hit = 0;
		/* "GC-S*": any code of that family (only as a "may"). */
		if (k > 1 && code[k - 1] == '*' && k - 1 < sizeof x->want[0].family &&
		    x->want[x->nwant].may) {
			memcpy(x->want[x->nwant].family, code, k - 1);
			x->want[x->nwant].code = -1;
		} else if (x->want[x->nwant].code < 0) {
			fprintf(stderr, "gcoracle: %s:%zu: unknown code %s\n", gc_esc(path),
			        lineno, code);
			fclose(f);
			free(line);
			return -1;
		}
		x->nwant++;
	}
	fclose(f);
	free(line);
	return 0;
}

static int matches(const struct or_expect_item *w, const struct or_diag *d)
{
	if (w->family[0] ? strncmp(gcspec_diags[d->code].code, w->family, strlen(w->family)) != 0
	                 : w->code != (int)d->code)
		return 0;
	if (w->where & 4)
		/* A directory container: the offset is in the named file. */
		return (!(w->where & 1) || w->event == d->event) && d->file &&
		       strcmp(d->file, w->file) == 0 &&
		       (!(w->where & 2) || w->offset == d->file_offset);
	return (!(w->where & 1) || w->event == d->event) &&
	       (!(w->where & 2) || w->offset == d->offset);
}

void or_expect_record(struct or_expect *x, const struct or_diag *d)
{
	int listed = 0;

	for (size_t i = 0; i < x->nwant; i++)
		if (matches(&x->want[i], d)) {
			x->want[i].hit = 1;
			listed = 1;
		}
	/* Unlisted diagnostics matter only when they are errors. */
	if (listed || gcspec_diags[d->code].severity != GCSPEC_ERROR)
		return;
	if (x->ngot == x->capgot) {
		struct or_expect_item *n;
		size_t cap = x->capgot ? x->capgot * 2 : 16;
		if (x->ngot >= 1024) /* the first ones are enough to say why */
			return;
		n = realloc(x->got, cap * sizeof *n);
		if (!n)
			return;
		x->got = n;
		x->capgot = cap;
	}
	x->got[x->ngot].code = (int)d->code;
	x->got[x->ngot].event = d->event;
	x->got[x->ngot].may = 0;
	x->got[x->ngot].hit = 0;
	x->ngot++;
}

int or_expect_verdict(struct or_expect *x, FILE *out, int say_met)
{
	for (size_t i = 0; i < x->nwant; i++)
		if (!x->want[i].may && !x->want[i].hit) {
			fprintf(out, "expectation not met: %s at %s%s%s %llu was not reported\n",
			        or_diag_code((unsigned)x->want[i].code),
			        x->want[i].where & 4 ? x->want[i].file : "",
			        x->want[i].where & 4 ? " " : "",
			        x->want[i].where & 2 ? "offset" : "event",
			        (unsigned long long)(x->want[i].where & 2 ? x->want[i].offset
			                                                   : x->want[i].event));
			return 1;
		}
	if (x->ngot) {
		fprintf(out, "unexpected error: %s at event %llu is not in the expectations\n",
		        or_diag_code((unsigned)x->got[0].code),
		        (unsigned long long)x->got[0].event);
		return 1;
	}
	if (say_met) {
		size_t must = 0;

		for (size_t i = 0; i < x->nwant; i++)
			must += !x->want[i].may;
		fprintf(out, "expectations met: %zu required diagnostic%s reported where recorded, "
		        "no unexpected error\n", must, must == 1 ? "" : "s");
	}
	return 0;
}

void or_expect_free(struct or_expect *x)
{
	free(x->want);
	free(x->got);
	memset(x, 0, sizeof *x);
}
