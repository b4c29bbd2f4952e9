/*
 * mutate_model.c - container faults for the CBOR model stream, with ground
 * truth: a truncated item, a header that is not one, a newer version, an
 * event map without a required key, and recorded field values that
 * disagree with the payload. The edits keep every item's length, so only
 * the intended fault is present.
 *
 * The walker below reads CBOR heads itself (gen/ shares no code with the
 * oracle's reader); the model writer writes definite lengths only.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/faults/mutate_container.h"

enum { MF_TRUNCATE, MF_BAD_HEADER, MF_VERSION, MF_BAD_EVENT, MF_FIELDS_DISAGREE };

struct head {
	unsigned major;
	uint64_t arg;
	size_t len;      /* bytes of the head */
};

static int head(const uint8_t *p, size_t n, size_t at, struct head *h)
{
	unsigned minor;
	size_t w;

	if (at >= n)
		return -1;
	h->major = p[at] >> 5;
	minor = p[at] & 31;
	if (minor < 24) {
		h->arg = minor;
		h->len = 1;
		return 0;
	}
	if (minor > 27)
		return -1;  /* indefinite lengths: not written by the model writer */
	w = (size_t)1 << (minor - 24);
	if (n - at - 1 < w)
		return -1;
	h->arg = 0;
	for (size_t k = 0; k < w; k++)
		h->arg = h->arg << 8 | p[at + 1 + k];
	h->len = 1 + w;
	return 0;
}

/* One past the item at `at`, or 0 when it is not well-formed. */
static size_t skip(const uint8_t *p, size_t n, size_t at, int depth)
{
	struct head h;
	uint64_t items;

	if (depth > 32 || head(p, n, at, &h) < 0)
		return 0;
	at += h.len;
	switch (h.major) {
	case 2: case 3:
		return h.arg <= n - at ? at + (size_t)h.arg : 0;
	case 4: case 5:
		items = h.major == 5 ? 2 * h.arg : h.arg;
		for (uint64_t i = 0; i < items; i++)
			if (!(at = skip(p, n, at, depth + 1)))
				return 0;
		return at;
	case 6:
		return skip(p, n, at, depth + 1);
	default:
		return at;
	}
}

/* The value of key in the map at `at`: its offset, or 0. */
static size_t map_value(const uint8_t *p, size_t n, size_t at, const char *key, size_t *key_at)
{
	struct head h, k;
	size_t kl = strlen(key);

	if (head(p, n, at, &h) < 0 || h.major != 5)
		return 0;
	at += h.len;
	for (uint64_t i = 0; i < h.arg; i++) {
		if (head(p, n, at, &k) < 0)
			return 0;
		if (k.major == 3 && k.arg == kl && n - at - k.len >= kl &&
		    memcmp(p + at + k.len, key, kl) == 0) {
			if (key_at)
				*key_at = at + k.len;
			return at + k.len + kl;
		}
		if (!(at = skip(p, n, at, 0)) || !(at = skip(p, n, at, 0)))
			return 0;
	}
	return 0;
}

static uint8_t *copy(const uint8_t *in, size_t len)
{
	uint8_t *o = malloc(len ? len : 1);

	if (o)
		memcpy(o, in, len);
	return o;
}

static int apply(const struct gen_container_fault *f, const uint8_t *in, size_t len,
		 uint64_t seed, struct gen_container_result *out, const char **why)
{
	static size_t starts[1 << 16]; /* the mutator is not reentrant */
	size_t nitems = 0, at = 0, v, kat;
	struct head h;

	*why = "out of memory";
	/* Item boundaries: the header, then one item per event (the first
	 * 65535 events are plenty to choose from). */
	while (at < len && nitems < sizeof starts / sizeof starts[0]) {
		starts[nitems++] = at;
		if (!(at = skip(in, len, at, 0)))
			return *why = "not a model stream this walker understands", -1;
	}
	if (at < len)
		nitems--;
	if (nitems < 3)
		return *why = "needs at least two events", -1;
	out->offset_exact = 1;
	switch (f->arg) {
	case MF_TRUNCATE: {
		/* Inside an event item: a cut at an item boundary is a shorter,
		 * valid stream. */
		size_t k = 1 + (size_t)(seed % (nitems - 1));
		size_t end = k + 1 < nitems ? starts[k + 1] : len;
		size_t cut = starts[k] + 1 + (size_t)((seed >> 16) % (end - starts[k] - 1));

		if (!(out->data = copy(in, cut)))
			return -1;
		out->len = cut;
		out->code = GCSPEC_DIAG_M002;
		out->offset = cut;
		return 0;
	}
	case MF_BAD_HEADER:
		if (!(v = map_value(in, len, 0, "format", NULL)) || head(in, len, v, &h) < 0 ||
		    h.major != 3 || !h.arg || !(out->data = copy(in, len)))
			return *why = "no format in the header", -1;
		out->data[v + h.len + h.arg - 1] ^= 0x20;   /* "gcconform-modeL" */
		out->code = GCSPEC_DIAG_M001;
		out->offset = 0;
		break;
	case MF_VERSION:
		if (!(v = map_value(in, len, 0, "version", NULL)) || head(in, len, v, &h) < 0 ||
		    h.major != 0 || h.len != 1 || !(out->data = copy(in, len)))
			return *why = "no one-byte version in the header", -1;
		out->data[v] = 2;
		out->code = GCSPEC_DIAG_M004;
		out->offset = 0;
		break;
	case MF_BAD_EVENT: {
		size_t k = 1 + (size_t)(seed % (nitems - 1));

		if (!map_value(in, len, starts[k], "timestamp", &kat) || !(out->data = copy(in, len)))
			return *why = "an event without a timestamp", -1;
		out->data[kat + 8] = 'q';                    /* "timestamq" */
		out->code = GCSPEC_DIAG_M003;
		out->offset = starts[k];
		break;
	}
	case MF_FIELDS_DISAGREE:
		/* An event whose first field is a small integer: record it one
		 * off. The first field sits at the start of the payload. */
		for (size_t t = 0; t < nitems - 1; t++) {
			size_t k = 1 + (size_t)((seed + t) % (nitems - 1)), fv, pv;
			struct head fh, kh, vh;

			if (!(fv = map_value(in, len, starts[k], "fields", NULL)) ||
			    head(in, len, fv, &fh) < 0 || fh.major != 5 || !fh.arg ||
			    head(in, len, fv + fh.len, &kh) < 0 || kh.major != 3 ||
			    head(in, len, fv + fh.len + kh.len + kh.arg, &vh) < 0 ||
			    vh.major != 0 || vh.len != 1 || vh.arg > 22 ||
			    !(pv = map_value(in, len, starts[k], "payload", NULL)) ||
			    head(in, len, pv, &h) < 0 || h.major != 2 || !h.arg)
				continue;
			if (!(out->data = copy(in, len)))
				return -1;
			out->data[fv + fh.len + kh.len + kh.arg] = (uint8_t)(vh.arg + 1);
			out->code = GCSPEC_DIAG_M005;
			out->offset = pv + h.len;
			out->len = len;
			return 0;
		}
		return *why = "no event whose first field is a small integer", -1;
	default:
		return *why = "unknown fault class", -1;
	}
	out->len = len;
	return 0;
}

/* An event passed over leaves its GC's other events unpaired. */
#define LOST GEN_DIAG_ANY_STREAM

const struct gen_container_fault gen_model_container_faults[] = {
	{ "model-truncate", "cbor", GEN_CODES(GCSPEC_DIAG_M002), GEN_NO_CODES, 0,
	  "cut the model stream inside an event item", apply, MF_TRUNCATE },
	{ "model-bad-header", "cbor", GEN_CODES(GCSPEC_DIAG_M001), GEN_NO_CODES, 0,
	  "the header's format is not gcconform-model", apply, MF_BAD_HEADER },
	{ "model-version", "cbor", GEN_CODES(GCSPEC_DIAG_M004), GEN_NO_CODES, 0,
	  "the header says model stream version 2", apply, MF_VERSION },
	{ "model-bad-event", "cbor", GEN_CODES(GCSPEC_DIAG_M003), GEN_CODES(LOST), 0,
	  "an event map lacks its timestamp key", apply, MF_BAD_EVENT },
	{ "model-fields-disagree", "cbor", GEN_CODES(GCSPEC_DIAG_M005), GEN_NO_CODES, 0,
	  "an event's recorded field value differs from its payload", apply, MF_FIELDS_DISAGREE },
};
const unsigned gen_model_ncontainer_faults =
	sizeof gen_model_container_faults / sizeof gen_model_container_faults[0];
