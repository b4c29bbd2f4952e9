/*
 * gcm_values.c - lift a payload into gen_values with the oracle's decoder.
 * See gcm_values.h.
 */
#include <string.h>

#include "fuzz/gcmutator/gcm_values.h"

#include "oracle/decode/decode.h"
#include "util/utf.h"

/* One decoded value into gen's form; strings and bytes go to v's arena. */
static int put(struct gen_values *v, const struct gcspec_field *f, const uint8_t *p,
               const struct or_val *x, struct gen_value *out)
{
	memset(out, 0, sizeof *out);
	/* An array member keeps its values' wire bytes (gen_values_set_member_array). */
	if (gcspec_field_is_array(f)) {
		int64_t at = gen_values_store(v, p + x->off, x->len);

		if (at < 0)
			return -1;
		out->u = (uint64_t)at;
		out->len = x->len;
		out->kind = GEN_VK_BYTES;
		return 0;
	}
	switch (f->type) {
	case GCSPEC_FLOAT: {
		uint32_t bits = (uint32_t)x->u;
		float fl;
		double d;

		memcpy(&fl, &bits, sizeof fl);
		d = fl;
		memcpy(&out->u, &d, sizeof d);
		out->kind = GEN_VK_DOUBLE;
		return 0;
	}
	case GCSPEC_DOUBLE:
		out->u = x->u;
		out->kind = GEN_VK_DOUBLE;
		return 0;
	case GCSPEC_UNICODE_STRING: {
		uint8_t tmp[4];
		uint32_t k = 0, start = v->arena_used;

		while (k < x->len) {
			uint32_t cp = or_utf16_next(p + x->off, x->len, &k);
			unsigned n = or_utf8_put(cp, tmp);

			if (gen_values_store(v, tmp, n) < 0)
				return -1;
		}
		out->u = start;
		out->len = v->arena_used - start;
		out->kind = GEN_VK_TEXT;
		return 0;
	}
	case GCSPEC_ANSI_STRING: case GCSPEC_GUID: case GCSPEC_BINARY: {
		int64_t at = gen_values_store(v, p + x->off, x->len);

		if (at < 0)
			return -1;
		out->u = (uint64_t)at;
		out->len = x->len;
		out->kind = f->type == GCSPEC_ANSI_STRING ? GEN_VK_TEXT : GEN_VK_BYTES;
		return 0;
	}
	default:
		out->u = x->u;
		out->kind = GEN_VK_NUM;
		return 0;
	}
}

int gcm_lift(const struct gcspec_event *spec, const uint8_t *payload, uint32_t len,
             unsigned pointer_size, struct gen_values *v)
{
	static struct or_ctx ctx; /* the decoder reports into it; nothing listens */
	static struct or_decoded dec;
	const struct gcspec_field *f = gcspec_event_fields(spec);
	struct or_event ev;

	memset(&ctx, 0, sizeof ctx);
	or_diag_init(&ctx.diag);
	ctx.info.pointer_size = (uint8_t)pointer_size;
	memset(&ev, 0, sizeof ev);
	ev.payload = payload;
	ev.payload_len = len;
	if (or_decode(&ctx, &ev, spec, &dec) != 0 || !dec.complete)
		return -1;
	if (gen_values_reset(v, (unsigned)(spec - gcspec_events)) != 0)
		return -1;
	for (unsigned i = 0; i < spec->nfields; i++) {
		if (f[i].is_member)
			continue;
		if (f[i].type != GCSPEC_STRUCT) {
			if (put(v, &f[i], payload, &dec.v[i], &v->field[i]) != 0)
				return -1;
			continue;
		}
		uint32_t pos = dec.v[i].off;
		struct or_val vals[OR_MAX_FIELDS];

		for (uint64_t r = 0; r < dec.v[i].u; r++) {
			int row = gen_values_add_row(v);

			if (row < 0 || or_struct_element(&dec, i, &pos, vals) != 0)
				return -1;
			for (unsigned k = 1; k <= f[i].nmembers; k++) {
				struct gen_value x;

				if (put(v, &f[i + k], payload, &vals[i + k], &x) != 0 ||
				    gen_values_set_member_at(v, (unsigned)row, i + k, &x) != 0)
					return -1;
			}
		}
		/* add_row keeps the count field in step; the decoded count is the
		 * same number, set it once more for templates whose count follows. */
		if (f[i].size_field >= 0)
			v->field[f[i].size_field].u = dec.v[i].u;
	}
	return 0;
}
