/*
 * mutate_container.c - the registry of container faults and the one way
 * gcgen applies them. To add a container's faults: define its table (see
 * mutate_nettrace_table.c) and add one line to `modules` below.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/formats/ctf/dirimage.h"
#include "gen/faults/mutate_container.h"
#include "gen/model/rng.h"

static const struct {
	const struct gen_container_fault *faults;
	const unsigned *n;
} modules[] = {
	{ gen_nettrace_container_faults, &gen_nettrace_ncontainer_faults },
	{ gen_etl_container_faults, &gen_etl_ncontainer_faults },
	{ gen_model_container_faults, &gen_model_ncontainer_faults },
	{ gen_ctf_container_faults, &gen_ctf_ncontainer_faults },
};

const struct gen_container_fault *gen_container_fault_at(unsigned i)
{
	for (unsigned m = 0; m < sizeof modules / sizeof modules[0]; m++) {
		if (i < *modules[m].n)
			return &modules[m].faults[i];
		i -= *modules[m].n;
	}
	return NULL;
}

int gen_container_fault_applies(const struct gen_container_fault *f, const char *format)
{
	size_t n = strlen(format);

	for (const char *p = f->formats; *p;) {
		size_t k = strcspn(p, ",");

		if (k == n && strncmp(p, format, n) == 0)
			return 1;
		p += k + (p[k] == ',');
	}
	return 0;
}

const struct gen_container_fault *gen_container_fault_find(const char *name, const char *format,
							   int *exists)
{
	const struct gen_container_fault *f;

	if (exists)
		*exists = 0;
	for (unsigned i = 0; (f = gen_container_fault_at(i)); i++) {
		if (strcmp(f->name, name) != 0)
			continue;
		if (exists)
			*exists = 1;
		if (gen_container_fault_applies(f, format))
			return f;
	}
	return NULL;
}

/* Run f's edit on in[0..len) with the seed spread out. */
static int apply(const struct gen_container_fault *f, const uint8_t *in, size_t len, uint64_t seed,
		 struct gen_container_result *r, char *err, size_t errlen)
{
	const char *why = "";
	uint64_t st = seed ^ 0x636f6e7461696e72ull;

	/* Spread small seeds (1, 2, 3...) over the whole file. */
	seed = gen_splitmix64(&st);
	memset(r, 0, sizeof *r);
	if (f->apply(f, in, len, seed, r, &why) < 0) {
		snprintf(err, errlen, "fault class '%s' does not apply to this file: %s", f->name, why);
		return -1;
	}
	return 0;
}

/* The expectation lines of result r (docs/faults.md). */
static int write_expect(const struct gen_container_fault *f, const struct gen_container_result *r,
			FILE *expect, char *err, size_t errlen)
{
	fprintf(expect, "{\"code\":\"%s\"", gen_diag_code(r->code));
	if (r->file)
		fprintf(expect, ",\"file\":\"%s\"", r->file);
	if (r->offset_exact)
		fprintf(expect, ",\"offset\":%llu", (unsigned long long)r->offset);
	fputs("}\n", expect);
	for (const int *p = r->may ? r->may : f->may; *p != GEN_DIAG_END; p++)
		fprintf(expect, "{\"code\":\"%s\",\"may\":true}\n", gen_diag_code(*p));
	return ferror(expect) ? (snprintf(err, errlen, "write failed"), -1) : 0;
}

int gen_container_fault_write(const struct gen_container_fault *f, const uint8_t *in, size_t len,
			      uint64_t seed, FILE *out, FILE *expect, char *err, size_t errlen)
{
	struct gen_container_result r;

	if (apply(f, in, len, seed, &r, err, errlen) < 0)
		return -1;
	if (r.len && fwrite(r.data, 1, r.len, out) != r.len) {
		free(r.data);
		snprintf(err, errlen, "write failed");
		return -1;
	}
	free(r.data);
	return expect ? write_expect(f, &r, expect, err, errlen) : 0;
}

int gen_container_fault_write_dir(const struct gen_container_fault *f, const char *dir,
				  uint64_t seed, FILE *expect, char *err, size_t errlen)
{
	struct gen_container_result r;
	uint8_t *img;
	size_t len;
	char file[256] = "";
	int rc;

	if (gen_dirimage_read(dir, &img, &len, err, errlen) < 0)
		return -1;
	if (apply(f, img, len, seed, &r, err, errlen) < 0) {
		free(img);
		return -1;
	}
	/* r.file may point into the input image: keep a copy. */
	if (r.file) {
		snprintf(file, sizeof file, "%s", r.file);
		r.file = file;
	}
	free(img);
	rc = gen_dirimage_write(dir, r.data, r.len, err, errlen);
	free(r.data);
	if (rc == 0 && expect)
		rc = write_expect(f, &r, expect, err, errlen);
	return rc;
}
