/*
 * out_json.c - JSON lines and the text summary (shapes in output.h).
 */
#include <inttypes.h>
#include <string.h>

#include "oracle/decode/decode_plan.h"
#include "oracle/output/out_fast.h"
#include "oracle/output/output.h"
#include "util/utf.h"

/*
 * Event records are the bulk of --json (one per event, hundreds of millions
 * on a large file): they are formatted by hand into one buffer that goes to
 * stdio 64 KiB at a time. printf's format parsing and a stdio call per field
 * took nine tenths of --json's time before (docs/oracle-performance.md);
 * the bytes are the same. The other records (diagnostics, the summary) are
 * rare and keep fprintf: each of their writers flushes the buffer first, so
 * every record keeps its place.
 */
struct jw {
	FILE *out;
	char *p, *end;
	char buf[64 * 1024];
};

static struct jw jout;

static void jw_flush(struct jw *w)
{
	if (w->out && w->p > w->buf)
		fwrite(w->buf, 1, (size_t)(w->p - w->buf), w->out);
	w->p = w->buf;
	w->end = w->buf + sizeof w->buf;
}

/* Room for n more bytes (n well under the buffer's size). */
static inline char *jw_room(struct jw *w, size_t n)
{
	if ((size_t)(w->end - w->p) < n)
		jw_flush(w);
	return w->p;
}

static void jw_long(struct jw *w, const char *s, size_t n)
{
	while (n) {
		size_t k;
		jw_room(w, 1);
		k = (size_t)(w->end - w->p);
		if (k > n)
			k = n;
		memcpy(w->p, s, k);
		w->p += k;
		s += k;
		n -= k;
	}
}

static inline void jw_bytes(struct jw *w, const char *s, size_t n)
{
	if (n <= 64) {
		char *at = jw_room(w, 64);
		memcpy(at, s, n);
		w->p = at + n;
	} else {
		jw_long(w, s, n);
	}
}

void or_json_flush(FILE *out)
{
	if (jout.out == out)
		jw_flush(&jout);
}

#define JW_LIT(w, lit) jw_bytes((w), (lit), sizeof(lit) - 1)

static inline void jw_char(struct jw *w, char c)
{
	*jw_room(w, 1) = c;
	w->p++;
}

static inline void jw_u64(struct jw *w, uint64_t v)
{
	char *at = jw_room(w, 20);

	w->p = at + or_dec_u64(at, v);
}

static void jw_i64(struct jw *w, int64_t v)
{
	if (v < 0) {
		jw_char(w, '-');
		jw_u64(w, 0 - (uint64_t)v);
	} else {
		jw_u64(w, (uint64_t)v);
	}
}

static const char hex[] = "0123456789abcdef";

/* v as exactly `digits` lowercase hex digits (v fits). */
static void jw_hex(struct jw *w, uint64_t v, unsigned digits)
{
	char *at = jw_room(w, digits);

	for (unsigned i = digits; i-- > 0; v >>= 4)
		at[i] = hex[v & 15];
	w->p = at + digits;
}

/* One code point of a JSON string, escaped (quotes, backslash, controls, NEL, U+2028, U+2029). */
static void jw_cp(struct jw *w, uint32_t cp)
{
	char *at = jw_room(w, 6);

	if (cp == '"' || cp == '\\') {
		at[0] = '\\';
		at[1] = (char)cp;
		w->p = at + 2;
	} else if (cp < 0x20 || cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
		memcpy(at, "\\u", 2);
		w->p = at + 2;
		jw_hex(w, cp, 4);
	} else {
		w->p = at + or_utf8_put(cp, (uint8_t *)at);
	}
}

/* Bytes meant to be ASCII; a run that needs no escaping is copied whole. */
static void jw_latin1(struct jw *w, const uint8_t *s, size_t n)
{
	size_t i = 0;

	jw_char(w, '"');
	while (i < n) {
		size_t j = i;
		while (j < n && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\')
			j++;
		if (j > i)
			jw_bytes(w, (const char *)s + i, j - i);
		if (j < n)
			jw_cp(w, s[j++]);
		i = j;
	}
	jw_char(w, '"');
}

/* Text from the input (names, messages): UTF-8 as it is, other bytes as
 * Latin-1 (or_utf8_next), so valid UTF-8 is never encoded twice. */
static void jw_input(struct jw *w, const char *s)
{
	size_t n = strlen(s), k = 0;

	jw_char(w, '"');
	while (k < n)
		jw_cp(w, or_utf8_next((const uint8_t *)s, n, &k));
	jw_char(w, '"');
}

static void jw_utf16(struct jw *w, const uint8_t *s, uint32_t n)
{
	uint32_t k = 0;

	jw_char(w, '"');
	while (k + 1 < n) {
		unsigned u = (unsigned)(s[k] | s[k + 1] << 8);
		if (u >= 0x20 && u < 0x80 && u != '"' && u != '\\') {
			jw_char(w, (char)u);
			k += 2;
		} else {
			jw_cp(w, or_utf16_next(s, n, &k));
		}
	}
	jw_char(w, '"');
}

/*
 * ,"name": of every spec field (the comma a field's key follows included:
 * the first key's comma is overwritten by the brace that opens its object)
 * and the name of every event, and the last
 * provider name as a JSON string, made once: most of a record is these.
 * A name that does not fit (none does today) takes the general way.
 */
struct jtext {
	uint8_t len;       /* 0: not made */
	char s[63];
};

static struct jtext keys[GCSPEC_NFIELDS], symbols[GCSPEC_NEVENTS];
static int texts_ready;
static const char *last_provider;
static struct jtext provider_text;

static void jtext_set(struct jtext *t, const char *pre, const char *s, const char *post)
{
	size_t a = strlen(pre), n = strlen(s), b = strlen(post);

	t->len = 0;
	if (a + n + b <= sizeof t->s) {
		memcpy(t->s, pre, a);
		memcpy(t->s + a, s, n);
		memcpy(t->s + a + n, post, b);
		t->len = (uint8_t)(a + n + b);
	}
}

/* How a field's value is written: integers inline in the field loop, the
 * rest (Boolean, floats, GUID, strings, binary, structs) by value(). */
enum jkind { JK_OTHER, JK_UNSIGNED, JK_SIGNED };
static uint8_t kinds[GCSPEC_NFIELDS];

static void texts_init(void)
{
	for (unsigned i = 0; i < GCSPEC_NFIELDS; i++) {
		unsigned t = gcspec_fields[i].type;
		jtext_set(&keys[i], ",\"", gcspec_fields[i].name, "\":");
		/* an array member's value is its values, not one number */
		kinds[i] = gcspec_field_is_array(&gcspec_fields[i]) ? JK_OTHER
			: t >= GCSPEC_INT8 && t <= GCSPEC_INT64 ? JK_SIGNED
			: t <= GCSPEC_UINT64 || t == GCSPEC_POINTER ? JK_UNSIGNED : JK_OTHER;
	}
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		jtext_set(&symbols[i], "", gcspec_events[i].symbol, "");
	texts_ready = 1;
}

static inline void jw_text(struct jw *w, const struct jtext *t)
{
	char *at = jw_room(w, sizeof t->s);

	memcpy(at, t->s, sizeof t->s);
	w->p = at + t->len;
}

/* "name": of the spec field f, after open ('{') or a comma (',') */
static inline void jw_key(struct jw *w, const struct gcspec_field *f, char open)
{
	const struct jtext *t = &keys[f - gcspec_fields];

	if (t->len) {
		jw_text(w, t);
		w->p[-t->len] = open;
	} else {
		jw_char(w, open);
		jw_char(w, '"');
		jw_bytes(w, f->name, strlen(f->name));
		JW_LIT(w, "\":");
	}
}

static void value(struct jw *w, const struct or_decoded *dec, unsigned i,
                  const struct or_val *vals);

/* Field i's key and value: the integers, most of a record, written in place. */
static inline __attribute__((always_inline)) void
jw_field(struct jw *w, const struct or_decoded *dec, const struct gcspec_field *f,
         unsigned i, const struct or_val *vals, char open)
{
	unsigned fi = (unsigned)(f - gcspec_fields);
	const struct jtext *t = &keys[fi];

	if (kinds[fi] != JK_OTHER && t->len) {
		uint64_t u = vals[i].u;
		char *at = jw_room(w, sizeof t->s + 21);
		memcpy(at, t->s, sizeof t->s);
		at[0] = open;
		at += t->len;
		if (kinds[fi] == JK_SIGNED && (int64_t)u < 0) {
			*at++ = '-';
			u = 0 - u;
		}
		w->p = at + or_dec_u64(at, u);
		return;
	}
	jw_key(w, f, open);
	value(w, dec, i, vals);
}

/* The provider's name as a JSON string: the same one event after event. */
static void jw_provider(struct jw *w, const char *pname)
{
	size_t n = pname ? strlen(pname) : 0;

	if (pname && pname == last_provider) {
		jw_text(w, &provider_text);
		return;
	}
	last_provider = NULL;
	if (pname && n + 2 <= sizeof provider_text.s) {
		size_t i = 0;
		while (i < n && (uint8_t)pname[i] >= 0x20 && (uint8_t)pname[i] < 0x80 &&
		       pname[i] != '"' && pname[i] != '\\')
			i++;
		if (i == n) {
			jtext_set(&provider_text, "\"", pname, "\"");
			last_provider = pname;
		}
	}
	jw_input(w, pname ? pname : "");
}

static void value(struct jw *w, const struct or_decoded *dec, unsigned i,
                  const struct or_val *vals)
{
	const struct gcspec_field *f = &gcspec_event_fields(dec->spec)[i];
	const struct or_val *v = &vals[i];
	const uint8_t *raw = dec->payload + v->off;

	if (gcspec_field_is_array(f)) {
		unsigned wd = or_type_width(f->type, dec->pointer_size);
		int sign = f->type >= GCSPEC_INT8 && f->type <= GCSPEC_INT64;
		jw_char(w, '[');
		for (uint64_t k = 0; k < v->u; k++) {
			uint64_t x = or_le(raw + k * wd, wd);
			if (k)
				jw_char(w, ',');
			if (sign)
				jw_i64(w, (int64_t)(x << (64 - 8 * wd)) >> (64 - 8 * wd));
			else
				jw_u64(w, x);
		}
		jw_char(w, ']');
		return;
	}
	switch (f->type) {
	case GCSPEC_INT8: case GCSPEC_INT16: case GCSPEC_INT32: case GCSPEC_INT64:
		jw_i64(w, (int64_t)v->u);
		break;
	case GCSPEC_BOOLEAN:
		if (v->u == 0)
			JW_LIT(w, "false");
		else if (v->u == 1)
			JW_LIT(w, "true");
		else
			jw_u64(w, v->u);
		break;
	case GCSPEC_FLOAT: {
		float x;
		uint32_t b = (uint32_t)v->u;
		char *at = jw_room(w, 32);
		memcpy(&x, &b, 4);
		w->p = at + snprintf(at, 32, "%.9g", (double)x);
		break;
	}
	case GCSPEC_DOUBLE: {
		double x;
		char *at = jw_room(w, 32);
		memcpy(&x, &v->u, 8);
		w->p = at + snprintf(at, 32, "%.17g", x);
		break;
	}
	case GCSPEC_GUID:
		jw_char(w, '"');
		jw_hex(w, or_le(raw, 4), 8);
		jw_char(w, '-');
		jw_hex(w, or_le(raw + 4, 2), 4);
		jw_char(w, '-');
		jw_hex(w, or_le(raw + 6, 2), 4);
		jw_char(w, '-');
		jw_hex(w, (uint64_t)raw[8] << 8 | raw[9], 4);
		jw_char(w, '-');
		for (unsigned k = 10; k < 16; k++)
			jw_hex(w, raw[k], 2);
		jw_char(w, '"');
		break;
	case GCSPEC_UNICODE_STRING:
		jw_utf16(w, raw, v->len);
		break;
	case GCSPEC_ANSI_STRING:
		jw_latin1(w, raw, v->len);
		break;
	case GCSPEC_BINARY:
		jw_char(w, '"');
		for (uint32_t k = 0; k < v->len; k++)
			jw_hex(w, raw[k], 2);
		jw_char(w, '"');
		break;
	case GCSPEC_STRUCT: {
		struct or_val mv[OR_MAX_FIELDS];
		uint32_t at = v->off;
		jw_char(w, '[');
		for (uint64_t e = 0; e < v->u; e++) {
			if (or_struct_element(dec, i, &at, mv))
				break;
			if (e)
				jw_char(w, ',');
			if (!f->nmembers)
				jw_char(w, '{');
			for (unsigned k = 1; k <= f->nmembers; k++)
				jw_field(w, dec, &f[k], i + k, mv, k > 1 ? ',' : '{');
			jw_char(w, '}');
		}
		jw_char(w, ']');
		break;
	}
	default:
		jw_u64(w, v->u);
	}
}

/* Bytes that are meant to be UTF-8 or ASCII; other bytes go out as U+00xx
 * (Latin-1), which keeps the output valid UTF-8. */
void or_json_string(FILE *out, const char *s, size_t n)
{
	struct jw *w = &jout;

	if (w->out != out) {
		jw_flush(w);
		w->out = out;
	}
	jw_latin1(w, (const uint8_t *)s, n);
	jw_flush(w);
}

/* Text from the input as a JSON string on out (rare records: flushed at once). */
static void json_text(FILE *out, const char *s)
{
	struct jw *w = &jout;

	if (w->out != out) {
		jw_flush(w);
		w->out = out;
	}
	jw_input(w, s);
	jw_flush(w);
}

void or_json_event(FILE *out, const struct or_event *ev,
                   const struct or_decoded *dec)
{
	const char *pname = ev->provider >= 0
		? gcspec_providers[ev->provider].name : ev->provider_name;
	struct jw *w = &jout;

	if (!texts_ready)
		texts_init();
	if (w->out != out) {
		jw_flush(w);
		w->out = out;
	}
	{
		/* The header's constant text and numbers, within one room check. */
		char *at = jw_room(w, 128);
#define JW_PUT(lit) (memcpy(at, (lit), sizeof(lit) - 1), at += sizeof(lit) - 1)
		JW_PUT("{\"type\":\"event\",\"index\":");
		at += or_dec_u64(at, ev->index);
		JW_PUT(",\"offset\":");
		at += or_dec_u64(at, ev->offset);
		JW_PUT(",\"name\":\"");
		w->p = at;
	}
	if (dec) {
		const struct jtext *t = &symbols[dec->spec - gcspec_events];
		if (t->len)
			jw_text(w, t);
		else
			jw_bytes(w, dec->spec->symbol, strlen(dec->spec->symbol));
	}
	JW_LIT(w, "\",\"provider\":");
	jw_provider(w, pname);
	{
		char *at = jw_room(w, 128);
		JW_PUT(",\"id\":");
		at += or_dec_u64(at, ev->id);
		JW_PUT(",\"version\":");
		at += or_dec_u64(at, ev->version);
		JW_PUT(",\"timestamp\":");
		at += or_dec_u64(at, ev->timestamp);
		JW_PUT(",\"thread\":");
		at += or_dec_u64(at, ev->thread_id);
		JW_PUT(",\"process\":");
		at += or_dec_u64(at, ev->process);
		w->p = at;
#undef JW_PUT
	}
	if (dec) {
		const struct gcspec_field *f = gcspec_event_fields(dec->spec);
		char open = '{';
		JW_LIT(w, ",\"fields\":");
		for (unsigned i = 0; i < dec->nvalid; i++) {
			if (f[i].is_member)
				continue;
			jw_field(w, dec, &f[i], i, dec->v, open);
			open = ',';
		}
		if (open == '{')
			jw_char(w, '{');
		jw_char(w, '}');
	}
	JW_LIT(w, "}\n");
}

void or_json_diag(FILE *out, const struct or_diag *d)
{
	or_json_flush(out);
	fprintf(out, "{\"type\":\"diag\",\"code\":\"%s\",\"severity\":\"%s\",\"event\":",
	        or_diag_code(d->code), or_severity_name(d->severity));
	if (d->event == OR_NO_EVENT)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu64, d->event);
	fprintf(out, ",\"offset\":%" PRIu64, d->offset);
	if (d->file) {
		fputs(",\"file\":", out);
		json_text(out, d->file);
		fprintf(out, ",\"file_offset\":%" PRIu64, d->file_offset);
	}
	fputs(",\"name\":", out);
	json_text(out, d->name ? d->name : "");
	fputs(",\"message\":", out);
	json_text(out, d->message);
	fputs("}\n", out);
}

void or_json_summary(FILE *out, const struct or_ctx *ctx)
{
	const struct or_stats *s = &ctx->stats;
	int first = 1;

	or_json_flush(out);
	fprintf(out, "{\"type\":\"summary\",\"events\":%" PRIu64 ",\"bytes\":%" PRIu64
	        ",\"gcs\":%" PRIu64 ",\"suspensions\":%" PRIu64
	        ",\"unknown_version\":%" PRIu64 ",\"unknown_id\":%" PRIu64
	        ",\"other_provider\":%" PRIu64 ",\"errors\":%" PRIu64
	        ",\"warnings\":%" PRIu64 ",\"notes\":%" PRIu64 ",\"per_event\":{",
	        s->events, s->bytes, s->gcs, s->suspensions, s->unknown_version,
	        s->unknown_id, s->other_provider, ctx->diag.by_severity[2],
	        ctx->diag.by_severity[1], ctx->diag.by_severity[0]);
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		if (s->per_event[i]) {
			fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",",
			        gcspec_events[i].symbol, s->per_event[i]);
			first = 0;
		}
	fputs("},\"diagnostics\":{", out);
	first = 1;
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (ctx->diag.counts[i]) {
			fprintf(out, "%s\"%s\":%" PRIu64, first ? "" : ",",
			        gcspec_diags[i].code, ctx->diag.counts[i]);
			first = 0;
		}
	fputs("}}\n", out);
}

/* Text from the input, for a terminal: nothing in it may act on the
 * terminal (escape sequences, a title, a bell), start a line of its own or
 * reorder what is shown. C0 controls, DEL and bytes that are not UTF-8 are
 * written \xNN; C1 controls and the bidirectional overrides \u{XXXX};
 * every other character as it is. */
void or_text_put(FILE *out, const char *s)
{
	size_t n = strlen(s), k = 0;

	while (k < n) {
		size_t at = k;
		uint32_t cp = or_utf8_next((const uint8_t *)s, n, &k);

		if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && k - at == 1))
			fprintf(out, "\\x%02X", (unsigned)(uint8_t)s[at]);
		else if ((cp >= 0x80 && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E) ||
		         (cp >= 0x2066 && cp <= 0x2069))
			fprintf(out, "\\u{%04X}", (unsigned)cp);
		else
			fwrite(s + at, 1, k - at, out);
	}
}

void or_text_diag(FILE *out, const struct or_diag *d)
{
	fprintf(out, "%s %s: ", or_diag_code(d->code), or_severity_name(d->severity));
	if (d->event != OR_NO_EVENT) {
		fprintf(out, "event %" PRIu64 " (", d->event);
		or_text_put(out, d->name ? d->name : "-");
		fputs(") at ", out);
	}
	if (d->file) {
		or_text_put(out, d->file);
		fprintf(out, " byte %" PRIu64 ": ", d->file_offset);
	} else {
		fprintf(out, "byte %" PRIu64 ": ", d->offset);
	}
	or_text_put(out, d->message);
	fputc('\n', out);
}

void or_text_summary(FILE *out, const struct or_ctx *ctx)
{
	const struct or_stats *s = &ctx->stats;

	fprintf(out, "%" PRIu64 " events (%" PRIu64 " bytes): %" PRIu64 " GCs, %" PRIu64
	        " suspensions; passed over: %" PRIu64 " unknown version, %" PRIu64
	        " unknown id, %" PRIu64 " other provider\n",
	        s->events, s->bytes, s->gcs, s->suspensions, s->unknown_version,
	        s->unknown_id, s->other_provider);
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		if (s->per_event[i])
			fprintf(out, "  %-40s %" PRIu64 "\n", gcspec_events[i].symbol,
			        s->per_event[i]);
	/* One process a stream: its count is the line above, as it always was. */
	if (s->several_processes) {
		fputs("GCs by process:\n", out);
		for (unsigned i = 0; i < s->nproc_gcs; i++)
			fprintf(out, "  process %-10" PRIu32 " %" PRIu64 "\n",
			        s->proc_gcs[i].process, s->proc_gcs[i].gcs);
		if (s->gcs_later)
			fprintf(out, "  later processes    %" PRIu64 " (beyond the first %d)\n",
			        s->gcs_later, OR_STAT_PROCESSES);
	}
	fprintf(out, "diagnostics: %" PRIu64 " errors, %" PRIu64 " warnings, %" PRIu64 " notes\n",
	        ctx->diag.by_severity[2], ctx->diag.by_severity[1],
	        ctx->diag.by_severity[0]);
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (ctx->diag.counts[i]) {
			/* The severity it counted as: --strict makes warnings errors. */
			unsigned sev = gcspec_diags[i].severity;

			if (ctx->diag.strict && sev == GCSPEC_WARNING)
				sev = GCSPEC_ERROR;
			fprintf(out, "  %s %-8s %-32s %" PRIu64 "\n", gcspec_diags[i].code,
			        or_severity_name(sev), gcspec_diags[i].name, ctx->diag.counts[i]);
		}
}
