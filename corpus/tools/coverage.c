/*
 * coverage.c - gccorpus coverage: what a corpus covers, read off its
 * committed expectation files (not off the generator's intentions).
 *
 *   event-versions x containers x pointer sizes: an event-version is covered
 *     in a format at a pointer size when a y_ case of that format holds an
 *     expected event of it with its field values;
 *   map values: every value of every value map in every field that uses it,
 *     and a value outside each open map, in the y_ cases of each format;
 *   fault classes: every class gcgen lists, container classes in every
 *     format they apply to;
 *   diagnostic codes: every code of the catalogue is required by a case, or
 *     listed in the index as uncovered with a reason, and that list is
 *     exactly the codes no case requires.
 *
 * Anything missing is printed and makes the exit status 1.
 */
#include "config.h"

#include <ftw.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ccbor.h"
#include "gccorpus.h"
#include "spec/gcspec.h"

#define MAX_FORMATS 32
#define MAX_CLASSES 256

struct fmt_cov {
	char name[64];
	int has_cases;
	uint8_t ev[2][GCSPEC_NEVENTS];            /* [ptr8][event] */
	uint64_t values[GCSPEC_NFIELDS];          /* bit j: map value j seen */
	uint8_t outside[GCSPEC_NFIELDS];
};

struct cov {
	struct fmt_cov fmt[MAX_FORMATS];
	unsigned nfmt;
	struct {
		char name[64], reach[16], formats[512];
		uint64_t seen_in;   /* bit f: a case of format f has it */
	} cls[MAX_CLASSES];
	unsigned ncls;
	uint8_t required[GCSPEC_NDIAGS];
	uint8_t listed[GCSPEC_NDIAGS];
	unsigned ncases, nclass[3];
	int missing;
};

static int fmt_index(struct cov *c, const char *name)
{
	for (unsigned i = 0; i < c->nfmt; i++)
		if (strcmp(c->fmt[i].name, name) == 0)
			return (int)i;
	return -1;
}

static int load_lists(struct cov *c, const char *classes, const char *formats)
{
	char line[1024];
	FILE *f = fopen(formats, "r");

	if (!f)
		return fprintf(stderr, "gccorpus: %s: cannot open\n", formats), -1;
	while (fgets(line, sizeof line, f) && c->nfmt < MAX_FORMATS) {
		line[strcspn(line, " \t\r\n")] = 0;
		if (*line && strlen(line) < sizeof c->fmt[0].name)
			memcpy(c->fmt[c->nfmt++].name, line, strlen(line) + 1);
	}
	fclose(f);
	if (!(f = fopen(classes, "r")))
		return fprintf(stderr, "gccorpus: %s: cannot open\n", classes), -1;
	while (fgets(line, sizeof line, f) && c->ncls < MAX_CLASSES) {
		/* name reach codes formats description */
		if (sscanf(line, "%63s %15s %*s %511s", c->cls[c->ncls].name, c->cls[c->ncls].reach,
			   c->cls[c->ncls].formats) == 3)
			c->ncls++;
	}
	fclose(f);
	return 0;
}

static int diag_index(const char *code, size_t n)
{
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (strlen(gcspec_diags[i].code) == n && memcmp(gcspec_diags[i].code, code, n) == 0)
			return (int)i;
	return -1;
}

/* Mark the map values of field fi that x holds (as gcgen counts them). */
static void see_value(struct fmt_cov *fc, unsigned fi, const cbor_item_t *x)
{
	const struct gcspec_map *mp = &gcspec_maps[gcspec_fields[fi].map];
	uint64_t u;
	int known = 0;

	if (cbor_isa_uint(x))
		u = cbor_get_int(x);
	else if (cbor_is_bool(x))
		u = cbor_get_bool(x);
	else
		return;
	for (unsigned j = 0; j < mp->nvalues && j < 64; j++) {
		uint64_t mv = gcspec_map_values[mp->first_value + j].value;
		int hit = mp->bitmap && mv ? (u & mv) == mv : u == mv;

		if (hit)
			fc->values[fi] |= 1ull << j;
		known |= hit;
		if (mp->bitmap)
			u &= ~mv;
	}
	if (mp->bitmap ? u != 0 : !known)
		fc->outside[fi] = 1;
}

static void see_event(struct fmt_cov *fc, int ptr8, const cbor_item_t *e)
{
	cbor_item_t *name = cc_get(e, "name"), *fields = cc_get(e, "fields");
	const struct gcspec_event *sp = NULL;

	if (!fields || !name)
		return;
	for (unsigned i = 0; i < GCSPEC_NEVENTS && !sp; i++)
		if (cc_text_is(name, gcspec_events[i].symbol))
			sp = &gcspec_events[i];
	if (!sp)
		return;
	fc->ev[ptr8][sp - gcspec_events] = 1;
	for (unsigned i = 0; i < sp->nfields; i++) {
		const struct gcspec_field *f = &gcspec_event_fields(sp)[i];
		unsigned fi = sp->first_field + i;

		if (f->map < 0)
			continue;
		if (!f->is_member) {
			cbor_item_t *x = cc_get(fields, f->name);

			if (x)
				see_value(fc, fi, x);
			continue;
		}
		/* A member: its Struct is the nearest Struct field before it. */
		for (int s = (int)i - 1; s >= 0; s--) {
			const struct gcspec_field *sf = &gcspec_event_fields(sp)[s];
			cbor_item_t *rows;

			if (sf->type != GCSPEC_STRUCT || sf->is_member)
				continue;
			rows = cc_get(fields, sf->name);
			for (size_t r = 0; rows && cbor_isa_array(rows) && r < cbor_array_size(rows); r++) {
				cbor_item_t *x = cc_get(cbor_array_handle(rows)[r], f->name);

				if (x)
					see_value(fc, fi, x);
			}
			break;
		}
	}
}

static int see_case(struct cov *c, const char *corpus, const cbor_item_t *entry)
{
	char *format = cc_get_text(entry, "format"), *cls = cc_get_text(entry, "class");
	char *events = cc_get_text(entry, "events"), *allowed = cc_get_text(entry, "allowed");
	char *name = cc_get_text(entry, "name");
	cbor_item_t *faults = cc_get(entry, "faults"), *diags = cc_get(entry, "diagnostics");
	int f = format ? fmt_index(c, format) : -1, rc = 0;

	c->ncases++;
	if (cls && (*cls == 'y' || *cls == 'n' || *cls == 'i'))
		c->nclass[*cls == 'y' ? 0 : *cls == 'n' ? 1 : 2]++;
	if (cls && *cls == 'i' && (!allowed || !*allowed)) {
		printf("  missing: i_ case %s does not say what is allowed\n", name ? name : "?");
		c->missing = 1;
	}
	if (f >= 0)
		c->fmt[f].has_cases = 1;
	for (size_t i = 0; faults && f >= 0 && i < cbor_array_size(faults); i++)
		for (unsigned k = 0; k < c->ncls; k++)
			if (cc_text_is(cbor_array_handle(faults)[i], c->cls[k].name))
				c->cls[k].seen_in |= 1ull << f;
	for (size_t i = 0; diags && i < cbor_array_size(diags); i++) {
		cbor_item_t *d = cbor_array_handle(diags)[i], *code = cc_get(d, "code");
		cbor_item_t *must = cc_get(d, "must");
		int k = code && cbor_isa_string(code)
			? diag_index((const char *)cbor_string_handle(code), cbor_string_length(code)) : -1;

		if (k >= 0 && must && cbor_is_bool(must) && cbor_get_bool(must))
			c->required[k] = 1;
	}
	if (f >= 0 && cls && *cls == 'y' && events) {
		char path[4096];
		cbor_item_t *doc, *evs;

		snprintf(path, sizeof path, "%s/%s", corpus, events);
		if (!(doc = cc_load_file(path))) {
			rc = -1;
		} else {
			int ptr8 = cc_get_uint(cc_get(doc, "stream"), "pointer_size", 8) == 8;

			evs = cc_get(doc, "events");
			for (size_t i = 0; evs && cbor_isa_array(evs) && i < cbor_array_size(evs); i++)
				see_event(&c->fmt[f], ptr8, cbor_array_handle(evs)[i]);
			cbor_decref(&doc);
		}
	}
	free(format), free(cls), free(events), free(allowed), free(name);
	return rc;
}

static uint64_t total_bytes;

static int add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path, (void)ftw;
	if (flag == FTW_F)
		total_bytes += (uint64_t)st->st_size;
	return 0;
}

static void report_events(struct cov *c)
{
	printf("event-versions covered by y_ cases (of %u), per container and pointer size:\n",
	       GCSPEC_NEVENTS);
	for (unsigned f = 0; f < c->nfmt; f++) {
		unsigned n[2] = { 0, 0 };

		for (int p = 0; p < 2; p++)
			for (unsigned e = 0; e < GCSPEC_NEVENTS; e++)
				n[p] += c->fmt[f].ev[p][e];
		printf("  %-18s pointer size 4: %3u/%u   pointer size 8: %3u/%u\n", c->fmt[f].name,
		       n[0], GCSPEC_NEVENTS, n[1], GCSPEC_NEVENTS);
		for (int p = 0; p < 2; p++)
			for (unsigned e = 0; e < GCSPEC_NEVENTS; e++)
				if (!c->fmt[f].ev[p][e]) {
					printf("    missing: %s in %s, pointer size %d\n",
					       gcspec_events[e].symbol, c->fmt[f].name, p ? 8 : 4);
					c->missing = 1;
				}
	}
}

static void report_values(struct cov *c, int verbose)
{
	printf("map values covered by y_ cases (every value in every field that uses the map;\n"
	       "a value outside each open map):\n");
	for (unsigned f = 0; f < c->nfmt; f++) {
		unsigned vals = 0, nvals = 0, out = 0, nopen = 0;

		for (unsigned fi = 0; fi < GCSPEC_NFIELDS; fi++) {
			const struct gcspec_map *mp;

			if (gcspec_fields[fi].map < 0)
				continue;
			mp = &gcspec_maps[gcspec_fields[fi].map];
			for (unsigned j = 0; j < mp->nvalues && j < 64; j++) {
				nvals++;
				if (c->fmt[f].values[fi] >> j & 1) {
					vals++;
				} else if (verbose || c->fmt[f].has_cases) {
					printf("    missing: %s = %s (%s) in %s\n", gcspec_fields[fi].name,
					       gcspec_map_values[mp->first_value + j].name, mp->name,
					       c->fmt[f].name);
					c->missing = 1;
				}
			}
			if (mp->open) {
				nopen++;
				out += c->fmt[f].outside[fi];
			}
		}
		printf("  %-18s %u/%u values, %u/%u open-map fields with a value outside\n",
		       c->fmt[f].name, vals, nvals, out, nopen);
		if (out != nopen)
			c->missing = 1;
	}
}

static void report_classes(struct cov *c)
{
	unsigned classes = 0, pairs = 0, npairs = 0;

	for (unsigned k = 0; k < c->ncls; k++) {
		int container = strcmp(c->cls[k].reach, "container") == 0;

		classes += c->cls[k].seen_in != 0;
		if (!c->cls[k].seen_in) {
			printf("    missing: fault class %s (%s)\n", c->cls[k].name, c->cls[k].reach);
			c->missing = 1;
		}
		if (!container)
			continue;
		for (unsigned f = 0; f < c->nfmt; f++) {
			const char *p = c->cls[k].formats;
			size_t n = strlen(c->fmt[f].name);
			int applies = 0;

			while (*p) {
				size_t l = strcspn(p, ",");

				applies |= l == n && strncmp(p, c->fmt[f].name, n) == 0;
				p += l + (p[l] == ',');
			}
			if (!applies)
				continue;
			npairs++;
			if (c->cls[k].seen_in >> f & 1) {
				pairs++;
			} else {
				printf("    missing: container fault %s in %s\n", c->cls[k].name,
				       c->fmt[f].name);
				c->missing = 1;
			}
		}
	}
	printf("fault classes: %u/%u; container classes x formats they apply to: %u/%u\n",
	       classes, c->ncls, pairs, npairs);
}

static void report_codes(struct cov *c, const cbor_item_t *index)
{
	cbor_item_t *unc = cc_get(index, "uncovered_codes");
	unsigned req = 0, listed = 0;

	for (size_t i = 0; unc && cbor_isa_array(unc) && i < cbor_array_size(unc); i++) {
		cbor_item_t *code = cc_get(cbor_array_handle(unc)[i], "code");
		int k = code && cbor_isa_string(code)
			? diag_index((const char *)cbor_string_handle(code), cbor_string_length(code)) : -1;

		if (k < 0) {
			printf("    wrong: the uncovered list names a code the catalogue lacks\n");
			c->missing = 1;
			continue;
		}
		c->listed[k] = 1;
	}
	for (unsigned k = 0; k < GCSPEC_NDIAGS; k++) {
		req += c->required[k];
		listed += c->listed[k];
		if (c->required[k] && c->listed[k]) {
			printf("    wrong: %s is listed as uncovered but a case requires it\n",
			       gcspec_diags[k].code);
			c->missing = 1;
		} else if (!c->required[k] && !c->listed[k]) {
			printf("    missing: %s (%s): no case requires it and it is not listed as "
			       "uncovered\n", gcspec_diags[k].code, gcspec_diags[k].name);
			c->missing = 1;
		}
	}
	printf("diagnostic codes: %u required by cases, %u listed as uncovered with a reason "
	       "(index.json uncovered_codes), %u in the catalogue\n", req, listed, GCSPEC_NDIAGS);
}

int gccorpus_coverage(const char *corpus, const char *classes, const char *formats, int verbose)
{
	static struct cov c;
	char path[4096];
	cbor_item_t *index, *cases;
	int rc = 0;

	memset(&c, 0, sizeof c);
	if (load_lists(&c, classes, formats) < 0)
		return 2;
	snprintf(path, sizeof path, "%s/index.cbor", corpus);
	if (!(index = cc_load_file(path)))
		return 2;
	cases = cc_get(index, "cases");
	for (size_t i = 0; cases && cbor_isa_array(cases) && i < cbor_array_size(cases); i++)
		if (see_case(&c, corpus, cbor_array_handle(cases)[i]) < 0)
			rc = 2;
	total_bytes = 0;
	nftw(corpus, add_size, 16, FTW_PHYS);
	printf("corpus %s: %u cases (y_ %u, n_ %u, i_ %u), %.2f MB\n", corpus, c.ncases,
	       c.nclass[0], c.nclass[1], c.nclass[2], (double)total_bytes / 1e6);
	for (unsigned f = 0; f < c.nfmt; f++)
		if (!c.fmt[f].has_cases) {
			printf("    missing: format %s (gcgen writes it) has no cases: add its row to "
			       "CONTAINERS in corpus/tools/mkcorpus.py\n", c.fmt[f].name);
			c.missing = 1;
		}
	report_events(&c);
	report_values(&c, verbose);
	report_classes(&c);
	report_codes(&c, index);
	cbor_decref(&index);
	printf("coverage: %s\n", c.missing ? "INCOMPLETE (see the lines marked missing/wrong)"
					  : "complete");
	if (rc)
		return rc;
	return c.missing ? 1 : 0;
}
