/*
 * read_model.c - the gcconform CBOR model stream (docs/model-stream.cddl).
 *
 * Streaming: one buffer holds the unread part of the file; each call to
 * next() finds where the next CBOR item ends (cbor_scan.c), refilling or
 * growing the buffer up to OR_MODEL_MAX_ITEM, and walks the event map in
 * place. Nothing is allocated per event; the buffer's size is bounded by the
 * largest item, not by the file.
 */
#include <stdlib.h>
#include <string.h>

#include "oracle/formats/model/cbor_scan.h"
#include "oracle/formats/model/model_scan.h"
#include "oracle/oracle.h"
#include "oracle/formats/model/read_model.h"

/* Reads this large cost little more than small ones and leave the fast
 * path few items cut by the buffer's end. */
#define OR_MODEL_CHUNK (1024 * 1024)
#define OR_MODEL_MAX_ITEM ((size_t)64 << 20)

struct or_reader {
	FILE *in;
	struct or_ctx *ctx;
	uint8_t *buf;
	size_t cap, start, end;
	uint64_t buf_off;   /* file offset of buf[0] */
	uint64_t index;     /* next event index */
	int eof, done;
	unsigned bad_run;   /* items in a row that were not events */
	uint64_t bad_from;  /* file offset of the first of them */
	struct or_model_provider prov;
	uint32_t process;   /* the header's process_id: every event's */
};

/* Items in a row that are not events before the rest is given up on. */
#define OR_MODEL_MAX_BAD_RUN 64u

static int probe(const uint8_t *head, size_t len)
{
	/* A model stream starts with a map (the header). Other readers'
	 * magic numbers are more specific, so they are asked first. */
	return len > 0 && (head[0] >> 5) == 5;
}

/* Make more bytes available. Returns 1 if some arrived, 0 at EOF, -1 on a
 * read error or when the item would exceed OR_MODEL_MAX_ITEM. */
static int fill(struct or_reader *r)
{
	size_t got;

	if (r->eof)
		return 0;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->buf_off += r->start;
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		uint8_t *nb;
		if (r->cap >= OR_MODEL_MAX_ITEM)
			return -1;
		nb = realloc(r->buf, r->cap * 2);
		if (!nb)
			return -1;
		r->buf = nb;
		r->cap *= 2;
	}
	got = fread(r->buf + r->end, 1, r->cap - r->end, r->in);
	r->end += got;
	if (got == 0) {
		if (ferror(r->in))
			return -1;
		r->eof = 1;
		return 0;
	}
	return 1;
}

/* Find the next whole item. Returns 1 with [*p, *p + *n) at file offset
 * *off, 0 at a clean end, -1 after reporting a problem. */
static int next_item(struct or_reader *r, const uint8_t **p, size_t *n,
                     uint64_t *off)
{
	for (;;) {
		size_t pos = 0;
		int rc;

		if (r->start == r->end && r->eof)
			return 0;
		rc = or_cbor_skip(r->buf + r->start, r->end - r->start, &pos);
		if (rc == 1) {
			*p = r->buf + r->start;
			*n = pos;
			*off = r->buf_off + r->start;
			r->start += pos;
			return 1;
		}
		if (rc < 0) {
			or_report(r->ctx, GCSPEC_DIAG_M003, r->index,
			          r->buf_off + r->start, NULL,
			          "item at byte %llu is not well-formed CBOR (or nests or declares a length beyond this reader's limits); the rest of the file cannot be read",
			          (unsigned long long)(r->buf_off + r->start));
			return -1;
		}
		if (r->start == r->end && r->eof)
			return 0;
		rc = fill(r);
		if (rc == 0 && r->start < r->end) {
			uint64_t at = r->buf_off + r->end;
			or_report(r->ctx, GCSPEC_DIAG_M002, r->index, at, NULL,
			          "the file ends at byte %llu inside the CBOR item that starts at byte %llu",
			          (unsigned long long)at,
			          (unsigned long long)(r->buf_off + r->start));
			return -1;
		}
		if (rc < 0) {
			or_report(r->ctx, GCSPEC_DIAG_M003, r->index,
			          r->buf_off + r->start, NULL,
			          "the item at byte %llu is larger than %zu MiB or the file could not be read",
			          (unsigned long long)(r->buf_off + r->start),
			          OR_MODEL_MAX_ITEM >> 20);
			return -1;
		}
	}
}

static int key_is(const uint8_t *p, const struct or_cbor_head *h, const char *k)
{
	return h->arg == strlen(k) && memcmp(p, k, (size_t)h->arg) == 0;
}

/* One key of an event map: what the value must be and where it goes. */
enum { K_UINT, K_TSTR, K_BSTR, K_ANY };

static int parse_header(struct or_reader *r, const uint8_t *p, size_t n,
                        uint64_t off, struct or_stream_info *info)
{
	struct or_cbor_head h, v;
	size_t pos = 0;
	int format_ok = 0;
	uint64_t version = 0, psize = 0;

	if (or_cbor_head(p, n, &pos, &h) != 1 || h.major != 5 || h.indef)
		goto bad;
	for (uint64_t k = 0; k < h.arg; k++) {
		size_t kp;
		if (or_cbor_head(p, n, &pos, &v) != 1 || v.major != 3 || v.indef)
			goto bad;
		kp = pos;
		pos += (size_t)v.arg;
		{
			struct or_cbor_head key = v;
			size_t vp = pos;
			if (or_cbor_head(p, n, &vp, &v) != 1)
				goto bad;
			if (key_is(p + kp, &key, "format")) {
				format_ok = v.major == 3 && !v.indef &&
				            v.arg == 15 &&
				            memcmp(p + vp, "gcconform-model", 15) == 0;
			} else if (v.major == 0) {
				if (key_is(p + kp, &key, "version"))
					version = v.arg;
				else if (key_is(p + kp, &key, "pointer_size"))
					psize = v.arg;
				else if (key_is(p + kp, &key, "clock_frequency"))
					info->clock_frequency = v.arg;
				else if (key_is(p + kp, &key, "start_ticks"))
					info->start_ticks = v.arg;
				else if (key_is(p + kp, &key, "process_id"))
					info->process_id = (uint32_t)v.arg;
			}
			if (or_cbor_skip(p, n, &pos) != 1)
				goto bad;
		}
	}
	if (!format_ok)
		goto bad;
	if (version != 1) {
		or_report(r->ctx, GCSPEC_DIAG_M004, OR_NO_EVENT, off, NULL,
		          "the model stream header says version %llu; this oracle reads version 1",
		          (unsigned long long)version);
		return -1;
	}
	if (psize != 4 && psize != 8) {
		or_report(r->ctx, GCSPEC_DIAG_M001, OR_NO_EVENT, off, NULL,
		          "the model stream header's pointer_size is %llu; it must be 4 or 8",
		          (unsigned long long)psize);
		return -1;
	}
	info->format = "cbor";
	info->format_version = 1;
	info->pointer_size = (uint8_t)psize;
	return 0;
bad:
	or_report(r->ctx, GCSPEC_DIAG_M001, OR_NO_EVENT, off, NULL,
	          "the first item is not a model-stream header (a map whose \"format\" is \"gcconform-model\")");
	return -1;
}

static void model_close(struct or_reader *r)
{
	if (r) {
		free(r->buf);
		free(r);
	}
}

static int model_open(struct or_reader **rp, FILE *in, struct or_ctx *ctx,
                      struct or_stream_info *info)
{
	struct or_reader *r = calloc(1, sizeof *r);
	const uint8_t *p;
	size_t n;
	uint64_t off;
	int rc;

	*rp = NULL;
	if (!r || !(r->buf = malloc(OR_MODEL_CHUNK))) {
		free(r);
		return -1;
	}
	r->cap = OR_MODEL_CHUNK;
	r->in = in;
	r->ctx = ctx;
	rc = next_item(r, &p, &n, &off);
	if (rc == 0)
		or_report(ctx, GCSPEC_DIAG_M001, OR_NO_EVENT, 0, NULL,
		          "the file is empty: no model-stream header");
	if (rc != 1 || parse_header(r, p, n, off, info) != 0) {
		model_close(r);
		return -1;
	}
	r->process = info->process_id;
	*rp = r;
	return 0;
}

static int provider_index(const uint8_t *s, size_t n)
{
	for (int i = 0; i < GCSPEC_NPROVIDERS; i++)
		if (strlen(gcspec_providers[i].name) == n &&
		    memcmp(gcspec_providers[i].name, s, n) == 0)
			return i;
	return -1;
}

/* Walk one event map into ev. Returns 0, or -1 after reporting GC-M003. */
static int parse_event(struct or_reader *r, const uint8_t *p, size_t n,
                       uint64_t off, struct or_event *ev)
{
	static const char *const need[] = { "timestamp", "thread", "provider",
		"id", "version", "level", "opcode", "keywords", "name", "payload" };
	struct or_cbor_head h, v;
	size_t pos = 0;
	unsigned seen = 0;
	const char *why = "it is not a definite-length map";
	char keybuf[40];

	memset(ev, 0, sizeof *ev);
	ev->index = r->index;
	ev->offset = off;
	ev->process = r->process;
	if (or_cbor_head(p, n, &pos, &h) != 1 || h.major != 5 || h.indef)
		goto bad;
	for (uint64_t k = 0; k < h.arg; k++) {
		struct or_cbor_head key;
		size_t kp, vp;
		unsigned which = 99;
		why = "a key is not a text string";
		if (or_cbor_head(p, n, &pos, &key) != 1 || key.major != 3 || key.indef)
			goto bad;
		kp = pos;
		pos += (size_t)key.arg;
		vp = pos;
		for (unsigned q = 0; q < sizeof need / sizeof need[0]; q++)
			if (key_is(p + kp, &key, need[q]))
				which = q;
		if (key_is(p + kp, &key, "process")) {
			/* A machine-wide values file's event names its own. */
			if (or_cbor_head(p, n, &vp, &v) != 1 || v.major != 0 || v.arg > UINT32_MAX)
				goto badtype;
			ev->process = (uint32_t)v.arg;
			if (or_cbor_skip(p, n, &pos) != 1)
				goto bad;
			continue;
		}
		if (key_is(p + kp, &key, "fields")) {
			if (or_cbor_skip(p, n, &pos) != 1)
				goto bad;
			ev->model_fields = p + vp;
			ev->model_fields_len = pos - vp;
			continue;
		}
		if (or_cbor_head(p, n, &vp, &v) != 1)
			goto bad;
		if (which < 8 && which != 2) {
			if (v.major != 0)
				goto badtype;
			switch (which) {
			case 0: ev->timestamp = v.arg; break;
			case 1: ev->thread_id = v.arg; break;
			case 3: if (v.arg > 0xffff) goto badtype;
				ev->id = (uint16_t)v.arg; break;
			case 4: if (v.arg > 0xff) goto badtype;
				ev->version = (uint8_t)v.arg; break;
			case 5: ev->level = (uint8_t)v.arg; break;
			case 6: ev->opcode = (uint8_t)v.arg; break;
			case 7: ev->keywords = v.arg; break;
			}
		} else if (which == 2 || which == 8) {
			if (v.major != 3 || v.indef)
				goto badtype;
			if (which == 2) {
				size_t len = (size_t)v.arg;
				ev->provider = provider_index(p + vp, len);
				if (len >= sizeof r->prov.name)
					len = sizeof r->prov.name - 1;
				memcpy(r->prov.name, p + vp, len);
				r->prov.name[len] = 0;
				r->prov.valid = 0;
				ev->provider_name = r->prov.name;
			}
		} else if (which == 9) {
			if (v.major != 2 || v.indef || v.arg > UINT32_MAX)
				goto badtype;
			ev->payload = p + vp;
			ev->payload_len = (uint32_t)v.arg;
			ev->payload_offset = off + vp;
		}
		if (which < 10)
			seen |= 1u << which;
		if (or_cbor_skip(p, n, &pos) != 1)
			goto bad;
	}
	for (unsigned q = 0; q < sizeof need / sizeof need[0]; q++)
		if (!(seen & (1u << q))) {
			snprintf(keybuf, sizeof keybuf, "it lacks the key \"%s\"", need[q]);
			why = keybuf;
			goto bad;
		}
	return 0;
badtype:
	why = "a value has the wrong type or range";
bad:
	or_report(r->ctx, GCSPEC_DIAG_M003, r->index, off, NULL,
	          "event item at byte %llu is not a valid model event: %s; passed over",
	          (unsigned long long)off, why);
	return -1;
}

static int fast_path = 1;
static unsigned long fast_items;

void or_model_fast_path(int on)
{
	fast_path = on;
}

unsigned long or_model_fast_items(void)
{
	return fast_items;
}

/* The usual event, read in one pass where it lies in the buffer. 1 with ev
 * filled, 0 when the careful path must read the next item. */
static int fast_next(struct or_reader *r, struct or_event *ev)
{
	for (;;) {
		size_t len;
		int rc = or_model_scan_event(r->buf + r->start, r->end - r->start,
		                             &r->prov, ev, &len);
		if (rc == 1) {
			uint64_t off = r->buf_off + r->start;
			ev->index = r->index++;
			ev->offset = off;
			ev->payload_offset += off;
			ev->process = r->process;
			r->start += len;
			fast_items++;
			return 1;
		}
		if (rc < 0 || r->eof || fill(r) != 1)
			return 0;
	}
}

static enum or_status model_next(struct or_reader *r, struct or_event *ev)
{
	const uint8_t *p;
	size_t n;
	uint64_t off;

	if (!r->done && fast_path && fast_next(r, ev))
		return OR_EVENT;
	while (!r->done) {
		int rc = next_item(r, &p, &n, &off);
		if (rc != 1) {
			r->done = 1;
			break;
		}
		if (r->bad_run == 0)
			r->bad_from = off;
		rc = parse_event(r, p, n, off, ev);
		r->index++;
		if (rc == 0) {
			r->bad_run = 0;
			return OR_EVENT;
		}
		/* Junk (a run of zeros is one CBOR item per byte) would give a
		 * diagnostic per byte and never end: past a run of this many
		 * items that are not events the stream has lost its framing,
		 * and the rest is passed over with one diagnostic. */
		if (++r->bad_run == OR_MODEL_MAX_BAD_RUN) {
			or_report(r->ctx, GCSPEC_DIAG_M006, r->index - 1, off, NULL,
			          "%u items in a row from byte %llu are not events: the stream has lost its framing, the rest of the file is not read",
			          r->bad_run, (unsigned long long)r->bad_from);
			r->done = 1;
		}
	}
	return OR_END;
}

const struct or_reader_ops or_read_model = {
	.format = "cbor",
	.probe = probe, .open = model_open, .next = model_next, .close = model_close,
};

