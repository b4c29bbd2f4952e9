/*
 * pack.c - gccorpus pack: turn what gcgen wrote for each case (the model
 * stream of --values, the diagnostics of --expect) into the corpus's
 * expectation files and index (docs/corpus.cddl).
 *
 * The manifest (written by corpus/tools/mkcorpus.py) has one line per
 * record, a kind and then TAB-separated key=value pairs:
 *   case       name class file format container container_version
 *              profile mode seed faults reaches events
 *              values expect allowed description gcgen
 *   uncovered  code reason
 * Event lists are stored once per distinct content (events/NAME.cbor) and
 * shared by the cases that hold the same events in different containers.
 *
 * The expected values come from gcgen's model stream, never from gcoracle:
 * comparing gcoracle's decoding with them is a check of two independent
 * implementations against each other.
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ccbor.h"
#include "gccorpus.h"
#include "spec/gcspec.h"

#define MAX_KV 32

struct kv {
	char *key[MAX_KV], *val[MAX_KV];
	unsigned n;
};

static const char *kv_get(const struct kv *kv, const char *key)
{
	for (unsigned i = 0; i < kv->n; i++)
		if (strcmp(kv->key[i], key) == 0)
			return kv->val[i];
	return NULL;
}

/* Split line (modified in place) into kind and key=value pairs. */
static int kv_parse(char *line, char **kind, struct kv *kv)
{
	char *save = NULL, *t;

	kv->n = 0;
	line[strcspn(line, "\r\n")] = 0;
	*kind = strtok_r(line, "\t", &save);
	if (!*kind)
		return -1;
	while ((t = strtok_r(NULL, "\t", &save))) {
		char *eq = strchr(t, '=');

		if (!eq || kv->n == MAX_KV)
			return -1;
		*eq = 0;
		kv->key[kv->n] = t;
		kv->val[kv->n++] = eq + 1;
	}
	return 0;
}

static const char *need(const struct kv *kv, const char *key, unsigned lineno)
{
	const char *v = kv_get(kv, key);

	if (!v)
		fprintf(stderr, "gccorpus: manifest line %u: no %s\n", lineno, key);
	return v;
}

/* "a,b,c" -> ["a","b","c"]; "" -> []. */
static cbor_item_t *text_list(const char *s)
{
	cbor_item_t *a = cbor_new_definite_array(16);

	while (a && *s) {
		size_t k = strcspn(s, ",");
		char buf[128];

		snprintf(buf, sizeof buf, "%.*s", (int)(k < sizeof buf ? k : sizeof buf - 1), s);
		if (cc_push(a, cc_text(buf)) < 0)
			break;
		s += k + (s[k] == ',');
	}
	return a;
}

static int provider_index(const cbor_item_t *t)
{
	for (int i = 0; i < GCSPEC_NPROVIDERS; i++)
		if (cc_text_is(t, gcspec_providers[i].name))
			return i;
	return -1;
}

/* One expected event from a model-stream event item. The name comes from
 * the spec for the (provider, id, version) the event carries, so an event a
 * fault relabelled is expected as what its header says it is; an
 * event-version the spec lacks is expected without fields (passed over). */
/* A timestamp in gcgen's clock (freq ticks per second) as a container with
 * its own clock records it (hz; 0: the container keeps gcgen's ticks). The
 * arithmetic is the CTF writer's, whose clock is 1 GHz. */
static uint64_t to_clock(uint64_t ticks, uint64_t freq, uint64_t hz)
{
	if (!hz || !freq || freq == hz)
		return ticks;
	return ticks / freq * hz + ticks % freq * hz / freq;
}

static cbor_item_t *expected_event(const cbor_item_t *m, uint64_t index, int *spec_event,
				   uint64_t freq, uint64_t hz, uint64_t process)
{
	cbor_item_t *e = cbor_new_definite_map(9), *prov = cc_get(m, "provider");
	cbor_item_t *fields = cc_get(m, "fields");
	int p = provider_index(prov);
	const struct gcspec_event *sp = NULL;

	if (!e || !prov)
		return e;
	if (p >= 0)
		sp = gcspec_lookup((unsigned)p, (unsigned)cc_get_uint(m, "id", 0),
				   (unsigned)cc_get_uint(m, "version", 0));
	*spec_event = sp ? (int)(sp - gcspec_events) : -1;
	cc_put(e, "index", cc_uint(index));
	cc_put(e, "name", cc_text(sp ? sp->symbol : ""));
	cc_put(e, "provider", cbor_incref(prov));
	cc_put(e, "id", cc_uint(cc_get_uint(m, "id", 0)));
	cc_put(e, "version", cc_uint(cc_get_uint(m, "version", 0)));
	cc_put(e, "timestamp", cc_uint(to_clock(cc_get_uint(m, "timestamp", 0), freq, hz)));
	cc_put(e, "thread", cc_uint(cc_get_uint(m, "thread", 0)));
	/* An event of a machine-wide stream names its process; the others
	 * are the stream's. */
	cc_put(e, "process", cc_uint(cc_get_uint(m, "process", process)));
	if (sp && fields)
		cc_put(e, "fields", cbor_incref(fields));
	return e;
}

struct values {
	cbor_item_t *stream;   /* the stream header map */
	cbor_item_t *events;   /* array of expected events */
	cbor_item_t *versions; /* array of the event-version symbols present */
	uint64_t nevents;
};

static void values_free(struct values *v)
{
	if (v->stream)
		cbor_decref(&v->stream);
	if (v->events)
		cbor_decref(&v->events);
	if (v->versions)
		cbor_decref(&v->versions);
	memset(v, 0, sizeof *v);
}

static int load_values(const char *path, uint64_t hz, struct values *v)
{
	uint64_t freq = 0, process = 0;
	size_t len, off = 0;
	uint8_t *buf = cc_read_file(path, &len);
	static uint8_t seen[GCSPEC_NEVENTS];
	int rc = -1;

	memset(v, 0, sizeof *v);
	memset(seen, 0, sizeof seen);
	if (!buf)
		return -1;
	v->events = cbor_new_indefinite_array();
	v->stream = cbor_new_definite_map(4);
	v->versions = cbor_new_indefinite_array();
	if (!v->events || !v->stream || !v->versions)
		goto out;
	while (off < len) {
		struct cbor_load_result res;
		cbor_item_t *it = cbor_load(buf + off, len - off, &res);
		int ev = -1;

		if (!it || res.error.code != CBOR_ERR_NONE) {
			fprintf(stderr, "gccorpus: %s: malformed model stream at byte %zu\n", path, off);
			goto out;
		}
		off += res.read;
		if (off == res.read) {
			if (!cc_text_is(cc_get(it, "format"), "gcconform-model")) {
				fprintf(stderr, "gccorpus: %s: not a gcconform model stream\n", path);
				cbor_decref(&it);
				goto out;
			}
			freq = cc_get_uint(it, "clock_frequency", 0);
			cc_put(v->stream, "pointer_size", cc_uint(cc_get_uint(it, "pointer_size", 0)));
			cc_put(v->stream, "clock_frequency", cc_uint(hz ? hz : freq));
			cc_put(v->stream, "start_ticks",
			       cc_uint(to_clock(cc_get_uint(it, "start_ticks", 0), freq, hz)));
			process = cc_get_uint(it, "process_id", 0);
			cc_put(v->stream, "process_id", cc_uint(process));
		} else if (cc_push(v->events, expected_event(it, v->nevents++, &ev, freq, hz, process)) < 0) {
			cbor_decref(&it);
			goto out;
		} else if (ev >= 0) {
			seen[ev] = 1;
		}
		cbor_decref(&it);
	}
	/* Spec order: the same list for the same events, whatever their order. */
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		if (seen[i] && cc_push(v->versions, cc_text(gcspec_events[i].symbol)) < 0)
			goto out;
	if (cc_definite(&v->events) < 0 || cc_definite(&v->versions) < 0)
		goto out;
	rc = 0;
out:
	free(buf);
	if (rc)
		values_free(v);
	return rc;
}

/* A small flat-JSON reader for gcgen's --expect lines: the value after
 * "key": as text (quoted) or the bare token. */
static int json_field(const char *line, const char *key, char *out, size_t cap)
{
	char pat[32];
	const char *p;
	size_t k = 0;

	snprintf(pat, sizeof pat, "\"%s\":", key);
	if (!(p = strstr(line, pat)))
		return 0;
	p += strlen(pat);
	if (*p == '"')
		for (p++; *p && *p != '"' && k + 1 < cap; p++)
			out[k++] = *p;
	else
		for (; *p && *p != ',' && *p != '}' && k + 1 < cap; p++)
			out[k++] = *p;
	out[k] = 0;
	return 1;
}

static int diag_index(const char *code)
{
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (strcmp(gcspec_diags[i].code, code) == 0)
			return (int)i;
	return -1;
}

static const char *const severity_name[] = { "note", "warning", "error" };

/* The expected diagnostics; *must_error set when one must be an error,
 * *may_error when an error (or a family of codes) may be reported. */
static cbor_item_t *load_diags(const char *path, int *must_error, int *may_error)
{
	cbor_item_t *a = cbor_new_indefinite_array();
	FILE *f;
	char line[512];

	*must_error = *may_error = 0;
	if (!a || !*path)
		return a;
	if (!(f = fopen(path, "r"))) {
		fprintf(stderr, "gccorpus: %s: cannot open\n", path);
		cbor_decref(&a);
		return NULL;
	}
	while (fgets(line, sizeof line, f)) {
		char code[32], num[32], may[8], name[64];
		cbor_item_t *d;
		int k, is_may;

		if (!json_field(line, "code", code, sizeof code))
			continue;
		is_may = json_field(line, "may", may, sizeof may) && strcmp(may, "true") == 0;
		k = diag_index(code);
		if (k < 0 && !strchr(code, '*')) {
			fprintf(stderr, "gccorpus: %s: code %s is not in the catalogue\n", path, code);
			fclose(f);
			cbor_decref(&a);
			return NULL;
		}
		d = cbor_new_definite_map(6);
		cc_put(d, "code", cc_text(code));
		cc_put(d, "severity", cc_text(k >= 0 ? severity_name[gcspec_diags[k].severity] : "any"));
		cc_put(d, "must", cbor_build_bool(!is_may));
		if (json_field(line, "event", num, sizeof num))
			cc_put(d, "event", cc_uint(strtoull(num, NULL, 10)));
		if (json_field(line, "offset", num, sizeof num))
			cc_put(d, "offset", cc_uint(strtoull(num, NULL, 10)));
		/* Directory containers: the offset is in this file of the trace. */
		if (json_field(line, "file", name, sizeof name))
			cc_put(d, "file", cc_text(name));
		if (!is_may && k >= 0 && gcspec_diags[k].severity == GCSPEC_ERROR)
			*must_error = 1;
		if (is_may && (k < 0 || gcspec_diags[k].severity == GCSPEC_ERROR))
			*may_error = 1;
		cc_push(a, d);
	}
	fclose(f);
	if (cc_definite(&a) < 0)
		cbor_decref(&a);
	return a;
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* Events files written so far: content hash -> path. */
struct shared {
	uint64_t hash[4096];
	char *path[4096];
	unsigned n;
};

/* Store the events once per content; returns the path relative to the
 * corpus root (owned by sh), or NULL. */
static const char *store_events(struct shared *sh, const char *outdir, const struct kv *kv,
				const struct values *v)
{
	cbor_item_t *doc = cbor_new_definite_map(4);
	unsigned char *buf = NULL;
	size_t size = 0, len;
	uint64_t h;
	char rel[256], full[4096];

	if (!doc)
		return NULL;
	cc_put(doc, "schema", cc_text("gcconform-corpus-events"));
	cc_put(doc, "version", cc_uint(1));
	cc_put(doc, "stream", cbor_incref(v->stream));
	cc_put(doc, "events", cbor_incref(v->events));
	len = cbor_serialize_alloc(doc, &buf, &size);
	cbor_decref(&doc);
	if (!len)
		return NULL;
	h = fnv1a(buf, len);
	for (unsigned i = 0; i < sh->n; i++)
		if (sh->hash[i] == h) {
			free(buf);
			return sh->path[i];
		}
	if (sh->n == sizeof sh->hash / sizeof sh->hash[0]) {
		free(buf);
		return NULL;
	}
	snprintf(rel, sizeof rel, "events/%s_%s_ptr%" PRIu64 "_%016" PRIx64 ".cbor",
		 kv_get(kv, "mode"), kv_get(kv, "profile"),
		 cc_get_uint(v->stream, "pointer_size", 0), h);
	snprintf(full, sizeof full, "%s/%s", outdir, rel);
	if (cc_write_file(full, buf, len) < 0) {
		free(buf);
		return NULL;
	}
	free(buf);
	sh->hash[sh->n] = h;
	sh->path[sh->n] = strdup(rel);
	return sh->path[sh->n++];
}

static cbor_item_t *pack_case(const struct kv *kv, unsigned lineno, const char *outdir,
			      struct shared *sh)
{
	static const char *const keys[] = { "name", "class", "file", "format", "container",
		"container_version", "profile", "mode", "seed", "faults", "reaches",
		"events", "values", "expect", "allowed", "description", "gcgen", "clock_hz", NULL };
	struct values v;
	cbor_item_t *c, *diags;
	const char *cls, *events_path = NULL;
	char path[4096];
	int must_error, may_error;

	for (unsigned i = 0; keys[i]; i++)
		if (!need(kv, keys[i], lineno))
			return NULL;
	if (load_values(kv_get(kv, "values"), strtoull(kv_get(kv, "clock_hz"), NULL, 10), &v) < 0)
		return NULL;
	if (!(diags = load_diags(kv_get(kv, "expect"), &must_error, &may_error))) {
		values_free(&v);
		return NULL;
	}
	cls = kv_get(kv, "class");
	/* The table's class must agree with the ground truth: y_ allows no
	 * error at all, n_ requires one. */
	if ((strcmp(cls, "y") == 0 && (must_error || may_error)) ||
	    (strcmp(cls, "n") == 0 && !must_error) || !strchr("yni", cls[0]) || cls[1]) {
		fprintf(stderr, "gccorpus: %s: class %s but %s diagnostic must be an error%s\n",
			kv_get(kv, "name"), cls, must_error ? "a" : "no",
			may_error ? " (and an error may be)" : "");
		values_free(&v);
		cbor_decref(&diags);
		return NULL;
	}
	if (strcmp(kv_get(kv, "events"), "yes") == 0 &&
	    !(events_path = store_events(sh, outdir, kv, &v))) {
		values_free(&v);
		cbor_decref(&diags);
		return NULL;
	}
	c = cbor_new_definite_map(26);
	cc_put(c, "schema", cc_text("gcconform-corpus-case"));
	cc_put(c, "version", cc_uint(1));
	cc_put(c, "name", cc_text(kv_get(kv, "name")));
	cc_put(c, "class", cc_text(cls));
	cc_put(c, "valid", cbor_build_bool(!must_error));
	cc_put(c, "description", cc_text(kv_get(kv, "description")));
	cc_put(c, "allowed", cc_text(kv_get(kv, "allowed")));
	cc_put(c, "file", cc_text(kv_get(kv, "file")));
	cc_put(c, "format", cc_text(kv_get(kv, "format")));
	cc_put(c, "container", cc_text(kv_get(kv, "container")));
	cc_put(c, "container_version", cc_uint(strtoull(kv_get(kv, "container_version"), NULL, 10)));
	cc_put(c, "pointer_size", cc_uint(cc_get_uint(v.stream, "pointer_size", 0)));
	cc_put(c, "profile", cc_text(kv_get(kv, "profile")));
	cc_put(c, "mode", cc_text(kv_get(kv, "mode")));
	cc_put(c, "seed", cc_uint(strtoull(kv_get(kv, "seed"), NULL, 10)));
	cc_put(c, "faults", text_list(kv_get(kv, "faults")));
	cc_put(c, "reaches", text_list(kv_get(kv, "reaches")));
	cc_put(c, "gcgen", cc_text(kv_get(kv, "gcgen")));
	cc_put(c, "stream", cbor_incref(v.stream));
	cc_put(c, "nevents", events_path ? cc_uint(v.nevents) : cbor_new_null());
	cc_put(c, "events", events_path ? cc_text(events_path) : cbor_new_null());
	cc_put(c, "diagnostics", diags);
	cc_put(c, "event_versions", events_path ? cbor_incref(v.versions)
						: cbor_new_definite_array(0));
	values_free(&v);
	snprintf(path, sizeof path, "%s/expect/%s.cbor", outdir, kv_get(kv, "name"));
	if (cc_write_item(path, c) < 0) {
		cbor_decref(&c);
		return NULL;
	}
	return c;
}

int gccorpus_pack(const char *manifest, const char *outdir)
{
	FILE *f = fopen(manifest, "r");
	static char line[16384];
	static struct shared sh;
	cbor_item_t *index, *cases, *uncovered;
	unsigned lineno = 0;
	char path[4096];
	int rc = -1;

	if (!f) {
		fprintf(stderr, "gccorpus: %s: cannot open\n", manifest);
		return -1;
	}
	cases = cbor_new_indefinite_array();
	uncovered = cbor_new_indefinite_array();
	index = cbor_new_definite_map(6);
	if (!cases || !uncovered || !index)
		goto out;
	while (fgets(line, sizeof line, f)) {
		char *kind;
		struct kv kv;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (kv_parse(line, &kind, &kv) < 0) {
			fprintf(stderr, "gccorpus: manifest line %u: not kind<TAB>key=value...\n", lineno);
			goto out;
		}
		if (strcmp(kind, "case") == 0) {
			cbor_item_t *c = pack_case(&kv, lineno, outdir, &sh);
			char rel[512];

			if (!c)
				goto out;
			/* The index entry: the case without its schema tag and its
			 * list of event-versions (long; in the case file), plus where
			 * its expectation file is. */
			snprintf(rel, sizeof rel, "expect/%s.cbor", kv_get(&kv, "name"));
			cbor_item_t *e = cbor_new_definite_map(cbor_map_size(c) + 1);
			struct cbor_pair *p = cbor_map_handle(c);

			cc_put(e, "expect", cc_text(rel));
			for (size_t i = 2; i < cbor_map_size(c); i++)
				if (!cc_text_is(p[i].key, "event_versions"))
					cbor_map_add(e, p[i]);
			cbor_decref(&c);
			cc_push(cases, e);
		} else if (strcmp(kind, "uncovered") == 0) {
			cbor_item_t *u = cbor_new_definite_map(2);

			if (!need(&kv, "code", lineno) || !need(&kv, "reason", lineno))
				goto out;
			cc_put(u, "code", cc_text(kv_get(&kv, "code")));
			cc_put(u, "reason", cc_text(kv_get(&kv, "reason")));
			cc_push(uncovered, u);
		} else {
			fprintf(stderr, "gccorpus: manifest line %u: unknown kind %s\n", lineno, kind);
			goto out;
		}
	}
	if (cc_definite(&cases) < 0 || cc_definite(&uncovered) < 0)
		goto out;
	cc_put(index, "schema", cc_text("gcconform-corpus-index"));
	cc_put(index, "version", cc_uint(1));
	cc_put(index, "generator", cc_text(PACKAGE_NAME " " PACKAGE_VERSION));
	cc_put(index, "cases", cases);
	cc_put(index, "uncovered_codes", uncovered);
	cases = uncovered = NULL;
	snprintf(path, sizeof path, "%s/index.cbor", outdir);
	if (cc_write_item(path, index) < 0)
		goto out;
	rc = gccorpus_render_json(path, outdir);
out:
	fclose(f);
	if (cases)
		cbor_decref(&cases);
	if (uncovered)
		cbor_decref(&uncovered);
	if (index)
		cbor_decref(&index);
	return rc;
}

/* index.json: the index rendered from the bytes just written, one case per
 * line, for people and for languages without a CBOR library at hand. */
int gccorpus_render_json(const char *index_path, const char *outdir)
{
	cbor_item_t *index = cc_load_file(index_path);
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int rc;

	if (!index)
		return -1;
	if (!(m = open_memstream(&buf, &len))) {
		cbor_decref(&index);
		return -1;
	}
	cc_json(m, index, 2);
	fputc('\n', m);
	fclose(m);
	cbor_decref(&index);
	snprintf(path, sizeof path, "%s/index.json", outdir);
	rc = cc_write_file(path, buf, len);
	free(buf);
	return rc;
}
