/*
 * model_check.c - reads a gcgen model stream with libcbor (no oracle code)
 * and checks, as TAP: the header; every event item's keys; and with
 * --ordering the GC ordering rules of realistic streams (pairs, counts,
 * depths, suspensions, heap stats after GCEnd, timestamps per thread).
 * With --names it prints "name count" per event symbol instead; with
 * --realism, "behaviour count" for what real runtimes were seen to do
 * (docs/real-runtime.md), so tests can require them of realistic streams.
 */
#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 1 << 20;
			buf = realloc(buf, cap);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

static cbor_item_t *get(cbor_item_t *map, const char *key)
{
	struct cbor_pair *p = cbor_map_handle(map);

	for (size_t i = 0; i < cbor_map_size(map); i++)
		if (cbor_isa_string(p[i].key) && cbor_string_length(p[i].key) == strlen(key) &&
		    memcmp(cbor_string_handle(p[i].key), key, strlen(key)) == 0)
			return p[i].value;
	return NULL;
}

static uint64_t uget(cbor_item_t *map, const char *key)
{
	cbor_item_t *v = get(map, key);

	return v && cbor_isa_uint(v) ? cbor_get_int(v) : (uint64_t)-1;
}

static void sget(cbor_item_t *map, const char *key, char *out, size_t cap)
{
	cbor_item_t *v = get(map, key);
	size_t n = 0;

	if (v && cbor_isa_string(v)) {
		n = cbor_string_length(v) < cap - 1 ? cbor_string_length(v) : cap - 1;
		memcpy(out, cbor_string_handle(v), n);
	}
	out[n] = 0;
}

#define MAXT 512
#define MAXS 16
struct names { char name[64]; unsigned long n; };

int main(int argc, char **argv)
{
	int ordering = 0, names_mode = 0, realism = 0;
	/* --realism: live handles, open suspensions by thread, and counts. */
	static uint64_t live[4096];
	unsigned nlive = 0, nopen = 0;
	uint64_t open_thr[MAXS];
	unsigned long set_again = 0, set_null = 0, restart100 = 0, restart200 = 0;
	unsigned long interleaved = 0, pin_not_handle = 0;
	size_t len, off = 0;
	unsigned char *buf;
	unsigned long nev = 0, bad_items = 0, bad_order = 0;
	uint64_t thr[MAXT], ts[MAXT];
	unsigned nthr = 0;
	static struct names names[512];
	unsigned nnames = 0;
	/* GC state */
	uint64_t gc_count[2] = { 0, 0 }, gc_depth[2] = { 0, 0 }, last_start = 0;
	int gc_type[2] = { -1, -1 }, ngc = 0, just_ended = 0, bg_ended = 0;
	/* Suspensions per thread (0 none, 1 suspending, 2 suspended, 3
	 * restarting): the runtime fires GCSuspendEEBegin before it takes the
	 * suspension lock and GCRestartEEEnd after it lets go, so threads'
	 * suspensions interleave, but one thread at a time holds the runtime,
	 * from its GCSuspendEEEnd to its GCRestartEEBegin. */
	uint64_t sthr[MAXS], holder = 0;
	int sstate[MAXS], nsthr = 0, held = 0, open_susp = 0;
	/* A non-GC suspension (Count 0xFFFFFFFF) may back off before its
	 * GCSuspendEEEnd (state 4: between its back-off's restart events). */
	int snongc[MAXS];
	/* GC numbers no-GC regions took since the latest GCStart (a Reason 1
	 * suspension restarted with no GCStart), and whether the current GC
	 * suspension has served a GC; the previous GCStart_V1's Count (the
	 * Framework 4.5.2 writes each GC's GCStart_V1 and then _V2). */
	uint64_t taken = 0, v1_count = (uint64_t)-1;
	int gc_susp_open = 0, gc_susp_served = 0;
	char first_err[256] = "";

	if (argc < 2)
		return 2;
	for (int i = 2; i < argc; i++) {
		ordering |= strcmp(argv[i], "--ordering") == 0;
		names_mode |= strcmp(argv[i], "--names") == 0;
		realism |= strcmp(argv[i], "--realism") == 0;
	}
	buf = slurp(argv[1], &len);
	if (!buf) {
		tap_ok(0, "read %s", argv[1]);
		return tap_done();
	}
	while (off < len) {
		struct cbor_load_result res;
		cbor_item_t *it = cbor_load(buf + off, len - off, &res);
		char name[64];

		if (!it || res.error.code != CBOR_ERR_NONE) {
			bad_items++;
			break;
		}
		off += res.read;
		if (nev++ == 0) {
			char fmt[32];

			sget(it, "format", fmt, sizeof fmt);
			if (!names_mode && !realism)
				tap_ok(cbor_isa_map(it) && strcmp(fmt, "gcconform-model") == 0 &&
				       uget(it, "version") == 1, "header is a gcconform-model v1 map");
			cbor_decref(&it);
			continue;
		}
		if (!cbor_isa_map(it) || !get(it, "payload") || !get(it, "timestamp") ||
		    !get(it, "thread") || !get(it, "name")) {
			bad_items++;
			cbor_decref(&it);
			continue;
		}
		sget(it, "name", name, sizeof name);
		{
			unsigned k;

			for (k = 0; k < nnames && strcmp(names[k].name, name); k++)
				;
			if (k == nnames && nnames < 512)
				strcpy(names[nnames++].name, name);
			if (k < 512)
				names[k].n++;
		}
		if (realism && get(it, "fields")) {
			cbor_item_t *f = get(it, "fields");
			uint64_t t = uget(it, "thread");
			unsigned k;

			if (!strcmp(name, "SetGCHandle")) {
				uint64_t h = uget(f, "HandleID");

				for (k = 0; k < nlive && live[k] != h; k++)
					;
				if (k < nlive)
					set_again++;
				else if (nlive < 4096)
					live[nlive++] = h;
				set_null += uget(f, "ObjectID") == 0;
			} else if (!strcmp(name, "DestroyGCHandle")) {
				uint64_t h = uget(f, "HandleID");

				for (k = 0; k < nlive && live[k] != h; k++)
					;
				if (k < nlive)
					live[k] = live[--nlive];
			} else if (!strcmp(name, "PinObjectAtGCTime")) {
				uint64_t h = uget(f, "HandleID");

				for (k = 0; k < nlive && live[k] != h; k++)
					;
				pin_not_handle += k == nlive;
			} else if (!strncmp(name, "GCJoin", 6) && uget(f, "JoinType") == 2 &&
				   uget(f, "JoinID") == 0xFFFFFFFFu) {
				restart100 += uget(f, "Heap") == 100;
				restart200 += uget(f, "Heap") == 200;
			} else if (!strncmp(name, "GCSuspendEEBegin", 16)) {
				for (k = 0; k < nopen && open_thr[k] != t; k++)
					;
				interleaved += k == nopen && nopen > 0;
				if (k == nopen && nopen < MAXS)
					open_thr[nopen++] = t;
			} else if (!strncmp(name, "GCRestartEEEnd", 14)) {
				for (k = 0; k < nopen && open_thr[k] != t; k++)
					;
				if (k < nopen)
					open_thr[k] = open_thr[--nopen];
			}
		}
		if (ordering) {
			uint64_t t = uget(it, "thread"), stamp = uget(it, "timestamp");
			cbor_item_t *f = get(it, "fields");
			unsigned k;
			char base[64];
			char *us;

			for (k = 0; k < nthr && thr[k] != t; k++)
				;
			if (k == nthr && nthr < MAXT)
				thr[nthr++] = t, ts[k] = 0;
			if (k < MAXT) {
				if (stamp < ts[k] && !first_err[0])
					snprintf(first_err, sizeof first_err, "event %lu: timestamp backwards", nev - 1);
				ts[k] = stamp;
			}
			strcpy(base, name);
			if ((us = strstr(base, "_V")))
				*us = 0;
#define ERR(...) do { bad_order++; if (!first_err[0]) snprintf(first_err, sizeof first_err, __VA_ARGS__); } while (0)
			if (!strcmp(name, "GCStart_V2") && f && uget(f, "Count") == v1_count) {
				v1_count = (uint64_t)-1; /* the V1's twin: the same GC */
			} else if (!strcmp(base, "GCStart") && f) {
				uint64_t c = uget(f, "Count"), ty = uget(f, "Type"), d = uget(f, "Depth");

				v1_count = !strcmp(name, "GCStart_V1") ? c : (uint64_t)-1;
				gc_susp_served = 1;
				taken = 0;
				if (c <= last_start)
					ERR("event %lu: GCStart count %llu not increasing", nev - 1, (unsigned long long)c);
				if (ngc == 1 && !(gc_type[0] == 1 && ty == 2))
					ERR("event %lu: bad GC nesting", nev - 1);
				if (ngc == 2)
					ERR("event %lu: bad GC nesting", nev - 1);
				if (ngc == 0 && ty == 2)
					ERR("event %lu: foreground GC outside BGC", nev - 1);
				if (ty == 1 && d != 2)
					ERR("event %lu: BGC depth not 2", nev - 1);
				if (ngc < 2) {
					gc_count[ngc] = c, gc_depth[ngc] = d, gc_type[ngc] = (int)ty;
					ngc++;
				}
				last_start = c;
				just_ended = 0;
				bg_ended = 0;
			} else if (!strcmp(base, "GCEnd") && f) {
				uint64_t c = uget(f, "Count"), d = uget(f, "Depth");

				if (ngc == 0)
					ERR("event %lu: GCEnd without GCStart", nev - 1);
				else if (gc_count[ngc - 1] != c || (gc_depth[ngc - 1] != (uint64_t)-1 && gc_depth[ngc - 1] != d))
					ERR("event %lu: GCEnd count/depth mismatch", nev - 1);
				else
					ngc--;
				just_ended = 1;
				/* A server GC's background GC writes its histories after GCEnd. */
				bg_ended = gc_type[ngc] == 1;
			} else if (!strcmp(base, "GCHeapStats")) {
				if (!just_ended && ngc == 0)
					ERR("event %lu: GCHeapStats outside GC", nev - 1);
			} else if (!strncmp(base, "GCSuspendEE", 11) || !strncmp(base, "GCRestartEE", 11)) {
				int *st = NULL;

				for (k = 0; k < (unsigned)nsthr && sthr[k] != t; k++)
					;
				if (k == (unsigned)nsthr && nsthr < MAXS)
					sthr[nsthr] = t, snongc[nsthr] = 0, sstate[nsthr++] = 0;
				if (k < MAXS)
					st = &sstate[k];
				if (!st) {
					ERR("event %lu: too many suspending threads", nev - 1);
				} else if (!strcmp(base, "GCSuspendEEBegin") && f) {
					if (*st)
						ERR("event %lu: nested suspension", nev - 1);
					*st = 1;
					open_susp++;
					snongc[k] = uget(f, "Count") == 0xFFFFFFFFu;
					/* The runtime writes the GC index it had: the latest
					 * GCStart's, or a no-GC region's after it. */
					if (uget(f, "Reason") == 1 && get(f, "Count") &&
					    uget(f, "Count") != last_start + taken)
						ERR("event %lu: suspension count %llu, latest GC %llu", nev - 1,
						    (unsigned long long)uget(f, "Count"), (unsigned long long)last_start);
					if (uget(f, "Reason") == 1)
						gc_susp_open = 1, gc_susp_served = 0;
				} else if (!strcmp(base, "GCSuspendEEEnd")) {
					if (*st != 1)
						ERR("event %lu: SuspendEEEnd without begin", nev - 1);
					if (held)
						ERR("event %lu: SuspendEEEnd while thread %llu holds the runtime", nev - 1,
						    (unsigned long long)holder);
					*st = 2, held = 1, holder = t;
				} else if (!strcmp(base, "GCRestartEEBegin") && *st == 1 && snongc[k]) {
					*st = 4; /* backs off */
				} else if (!strcmp(base, "GCRestartEEEnd") && *st == 4) {
					*st = 1;
				} else if (!strcmp(base, "GCRestartEEBegin")) {
					if (*st != 2)
						ERR("event %lu: restart without suspension", nev - 1);
					*st = 3, held = 0;
					if (t == holder && gc_susp_open && !gc_susp_served)
						taken++;
					if (t == holder && !snongc[k])
						gc_susp_open = 0;
				} else if (!strcmp(base, "GCRestartEEEnd")) {
					if (*st != 3)
						ERR("event %lu: RestartEEEnd without begin", nev - 1);
					*st = 0;
					open_susp--;
				}
			} else if (!strcmp(base, "GCGlobalHeapHistory") || !strcmp(base, "GCPerHeapHistory")) {
				if (ngc == 0 && !bg_ended)
					ERR("event %lu: heap history outside GC", nev - 1);
			}
		}
		cbor_decref(&it);
	}
	if (realism) {
		printf("handle-set-again %lu\nhandle-set-null %lu\njoin-restart-100 %lu\n"
		       "join-restart-200 %lu\nsuspend-interleaved %lu\npin-not-handle %lu\n",
		       set_again, set_null, restart100, restart200, interleaved, pin_not_handle);
		free(buf);
		return 0;
	}
	if (names_mode) {
		for (unsigned k = 0; k < nnames; k++)
			printf("%s %lu\n", names[k].name, names[k].n);
		free(buf);
		return 0;
	}
	tap_ok(bad_items == 0, "all %lu items are event maps with the required keys", nev - 1);
	tap_ok(nev > 1, "the stream has events");
	if (ordering) {
		tap_ok(bad_order == 0 && !first_err[0], "ordering rules hold (%s)", first_err[0] ? first_err : "ok");
		tap_ok(ngc == 0 && open_susp == 0, "no GC or suspension left open");
	}
	free(buf);
	return tap_done();
}
