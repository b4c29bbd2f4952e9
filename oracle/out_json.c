/*
 * out_json.c - JSON lines and the text summary (shapes in output.h).
 */
#include <inttypes.h>
#include <string.h>

#include "output.h"
#include "utf.h"

static void put_cp(FILE *out, uint32_t cp)
{
	uint8_t b[4];
	unsigned n;

	if (cp == '"' || cp == '\\') {
		fputc('\\', out);
		fputc((int)cp, out);
	} else if (cp < 0x20 || cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
		/* JSON needs only the controls escaped; NEL and the line and
		 * paragraph separators are too, so that a JSON line is a line
		 * to every line splitter (Python's splitlines, JavaScript). */
		fprintf(out, "\\u%04x", (unsigned)cp);
	} else {
		n = or_utf8_put(cp, b);
		fwrite(b, 1, n, out);
	}
}

/* Bytes that are meant to be UTF-8 or ASCII; other bytes go out as U+00xx
 * (Latin-1), which keeps the output valid UTF-8. */
void or_json_string(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (size_t i = 0; i < n; i++)
		put_cp(out, (uint8_t)s[i]);
	fputc('"', out);
}

/* Text from the input (names, messages): UTF-8 as it is, other bytes as
 * Latin-1 (or_utf8_next). */
static void json_text(FILE *out, const char *s)
{
	size_t n = strlen(s), k = 0;

	fputc('"', out);
	while (k < n)
		put_cp(out, or_utf8_next((const uint8_t *)s, n, &k));
	fputc('"', out);
}

static void json_utf16(FILE *out, const uint8_t *s, uint32_t n)
{
	uint32_t k = 0;

	fputc('"', out);
	while (k + 1 < n)
		put_cp(out, or_utf16_next(s, n, &k));
	fputc('"', out);
}

static void value(FILE *out, const struct or_decoded *dec, unsigned i,
                  const struct or_val *vals)
{
	const struct gcspec_field *f = &gcspec_event_fields(dec->spec)[i];
	const struct or_val *v = &vals[i];
	const uint8_t *raw = dec->payload + v->off;

	switch (f->type) {
	case GCSPEC_INT8: case GCSPEC_INT16: case GCSPEC_INT32: case GCSPEC_INT64:
		fprintf(out, "%" PRId64, (int64_t)v->u);
		break;
	case GCSPEC_BOOLEAN:
		if (v->u <= 1)
			fputs(v->u ? "true" : "false", out);
		else
			fprintf(out, "%" PRIu64, v->u);
		break;
	case GCSPEC_FLOAT: {
		float x;
		uint32_t b = (uint32_t)v->u;
		memcpy(&x, &b, 4);
		fprintf(out, "%.9g", (double)x);
		break;
	}
	case GCSPEC_DOUBLE: {
		double x;
		memcpy(&x, &v->u, 8);
		fprintf(out, "%.17g", x);
		break;
	}
	case GCSPEC_GUID:
		fprintf(out, "\"%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64 "-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
		        or_le(raw, 4), or_le(raw + 4, 2), or_le(raw + 6, 2),
		        raw[8], raw[9], raw[10], raw[11], raw[12], raw[13],
		        raw[14], raw[15]);
		break;
	case GCSPEC_UNICODE_STRING:
		json_utf16(out, raw, v->len);
		break;
	case GCSPEC_ANSI_STRING:
		or_json_string(out, (const char *)raw, v->len);
		break;
	case GCSPEC_BINARY:
		fputc('"', out);
		for (uint32_t k = 0; k < v->len; k++)
			fprintf(out, "%02x", raw[k]);
		fputc('"', out);
		break;
	case GCSPEC_STRUCT: {
		struct or_val mv[OR_MAX_FIELDS];
		uint32_t at = v->off;
		fputc('[', out);
		for (uint64_t e = 0; e < v->u; e++) {
			if (or_struct_element(dec, i, &at, mv))
				break;
			fputs(e ? ",{" : "{", out);
			for (unsigned k = 1; k <= f->nmembers; k++) {
				fprintf(out, "%s\"%s\":", k > 1 ? "," : "", f[k].name);
				value(out, dec, i + k, mv);
			}
			fputc('}', out);
		}
		fputc(']', out);
		break;
	}
	default:
		fprintf(out, "%" PRIu64, v->u);
	}
}

void or_json_event(FILE *out, const struct or_event *ev,
                   const struct or_decoded *dec)
{
	const char *pname = ev->provider >= 0
		? gcspec_providers[ev->provider].name : ev->provider_name;

	fprintf(out, "{\"type\":\"event\",\"index\":%" PRIu64 ",\"offset\":%" PRIu64
	        ",\"name\":\"%s\",\"provider\":", ev->index, ev->offset,
	        dec ? dec->spec->symbol : "");
	json_text(out, pname ? pname : "");
	fprintf(out, ",\"id\":%u,\"version\":%u,\"timestamp\":%" PRIu64
	        ",\"thread\":%" PRIu64, ev->id, ev->version, ev->timestamp,
	        ev->thread_id);
	if (dec) {
		const struct gcspec_field *f = gcspec_event_fields(dec->spec);
		int first = 1;
		fputs(",\"fields\":{", out);
		for (unsigned i = 0; i < dec->nvalid; i++) {
			if (f[i].is_member)
				continue;
			fprintf(out, "%s\"%s\":", first ? "" : ",", f[i].name);
			value(out, dec, i, dec->v);
			first = 0;
		}
		fputc('}', out);
	}
	fputs("}\n", out);
}

void or_json_diag(FILE *out, const struct or_diag *d)
{
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
static void text_put(FILE *out, const char *s)
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
		text_put(out, d->name ? d->name : "-");
		fputs(") at ", out);
	}
	if (d->file) {
		text_put(out, d->file);
		fprintf(out, " byte %" PRIu64 ": ", d->file_offset);
	} else {
		fprintf(out, "byte %" PRIu64 ": ", d->offset);
	}
	text_put(out, d->message);
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
