/* values.c - field values by name, stored for the encoder and the model writer. */
#include <string.h>

#include "gen/model/values.h"

/* The kind of value each in-type holds (GEN_VK_NUM = 0 for the rest). */
static const uint8_t kind_of[GCSPEC_STRUCT + 1] = {
	[GCSPEC_FLOAT] = GEN_VK_DOUBLE, [GCSPEC_DOUBLE] = GEN_VK_DOUBLE,
	[GCSPEC_UNICODE_STRING] = GEN_VK_TEXT, [GCSPEC_ANSI_STRING] = GEN_VK_TEXT,
	[GCSPEC_GUID] = GEN_VK_BYTES, [GCSPEC_BINARY] = GEN_VK_BYTES,
};

int gen_values_shape_of(struct gen_values_shape *sh, unsigned event)
{
	const struct gcspec_event *ev;
	const struct gcspec_field *f;

	if (event >= GCSPEC_NEVENTS)
		return -1;
	ev = &gcspec_events[event];
	if (ev->nfields > GEN_VALUES_MAX_FIELDS)
		return -1;
	f = gcspec_event_fields(ev);
	sh->event = (uint16_t)event;
	sh->nfields = ev->nfields;
	sh->struct_field = -1;
	sh->nmembers = 0;
	for (unsigned i = 0; i < ev->nfields; i++) {
		sh->kind[i] = f[i].type <= GCSPEC_STRUCT ? kind_of[f[i].type] : GEN_VK_NUM;
		/* an array member holds its values' wire bytes */
		if (gcspec_field_is_array(&f[i]))
			sh->kind[i] = GEN_VK_BYTES;
		if (f[i].type == GCSPEC_STRUCT && !f[i].is_member) {
			if (sh->struct_field >= 0)
				return -1;
			sh->struct_field = (int16_t)i;
			sh->nmembers = f[i].nmembers;
		}
	}
	return 0;
}

void gen_values_reset_shaped(struct gen_values *v, const struct gen_values_shape *sh)
{
	struct gen_value *x = v->field;
	const unsigned n = sh->nfields;

	v->event = sh->event;
	v->nfields = sh->nfields;
	v->struct_field = sh->struct_field;
	v->nmembers = sh->nmembers;
	v->nrows = 0;
	v->arena_used = 0;
	v->cursor = 0;
	/* A store per member, not memset: events have a handful of fields,
	 * and a call to memset costs more than the loop. */
	for (unsigned i = 0; i < n; i++) {
		x[i].u = 0;
		x[i].len = 0;
		x[i].kind = sh->kind[i];
	}
}

int gen_values_reset(struct gen_values *v, unsigned event)
{
	struct gen_values_shape sh;

	if (gen_values_shape_of(&sh, event) < 0)
		return -1;
	gen_values_reset_shaped(v, &sh);
	return 0;
}

int gen_values_index(const struct gen_values *v, const char *name, int member)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	unsigned n = v->nfields;

	/* Callers mostly set fields in template order: start at the cursor so
	 * a whole event costs about one comparison per field. */
	unsigned i = v->cursor < n ? v->cursor : 0;

	for (unsigned k = 0; k < n; k++) {
		if (f[i].is_member == (member ? 1 : 0) && strcmp(f[i].name, name) == 0) {
			((struct gen_values *)v)->cursor = (uint16_t)(i + 1 < n ? i + 1 : 0);
			return (int)i;
		}
		if (++i == n)
			i = 0;
	}
	return -1;
}

int gen_field_index(unsigned event, const char *name, int member)
{
	const struct gcspec_field *f;

	if (event >= GCSPEC_NEVENTS)
		return -1;
	f = gcspec_event_fields(&gcspec_events[event]);
	for (unsigned i = 0; i < gcspec_events[event].nfields; i++)
		if (f[i].is_member == (member ? 1 : 0) && strcmp(f[i].name, name) == 0)
			return (int)i;
	return -1;
}

int64_t gen_values_store(struct gen_values *v, const void *bytes, size_t len)
{
	uint32_t at = v->arena_used;

	if (len > GEN_VALUES_ARENA - at)
		return -1;
	if (len)
		memcpy(v->arena + at, bytes, len);
	v->arena_used = at + (uint32_t)len;
	return at;
}

int gen_values_set_num(struct gen_values *v, const char *name, uint64_t value)
{
	int i = gen_values_index(v, name, 0);

	return i < 0 ? -1 : gen_values_set_num_at(v, (unsigned)i, value);
}

int gen_values_set_double(struct gen_values *v, const char *name, double value)
{
	int i = gen_values_index(v, name, 0);
	uint64_t bits;

	if (i < 0 || v->field[i].kind != GEN_VK_DOUBLE)
		return -1;
	memcpy(&bits, &value, sizeof bits);
	v->field[i].u = bits;
	return 0;
}

int gen_values_set_text_at(struct gen_values *v, unsigned index, const char *utf8, size_t len)
{
	int64_t at;

	if (index >= v->nfields || v->field[index].kind != GEN_VK_TEXT)
		return -1;
	if ((at = gen_values_store(v, utf8, len)) < 0)
		return -1;
	v->field[index].u = (uint64_t)at;
	v->field[index].len = (uint32_t)len;
	return 0;
}

int gen_values_set_text(struct gen_values *v, const char *name, const char *utf8, size_t len)
{
	int i = gen_values_index(v, name, 0);

	return i < 0 ? -1 : gen_values_set_text_at(v, (unsigned)i, utf8, len);
}

int gen_values_set_bytes_at(struct gen_values *v, unsigned index, const void *bytes, size_t len)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	int64_t at;

	if (index >= v->nfields || v->field[index].kind != GEN_VK_BYTES)
		return -1;
	if (f[index].type == GCSPEC_GUID && len != 16)
		return -1;
	if ((at = gen_values_store(v, bytes, len)) < 0)
		return -1;
	v->field[index].u = (uint64_t)at;
	v->field[index].len = (uint32_t)len;
	if (f[index].type == GCSPEC_BINARY && f[index].size_field >= 0)
		v->field[f[index].size_field].u = len;
	return 0;
}

int gen_values_set_bytes(struct gen_values *v, const char *name, const void *bytes, size_t len)
{
	int i = gen_values_index(v, name, 0);

	return i < 0 ? -1 : gen_values_set_bytes_at(v, (unsigned)i, bytes, len);
}

int gen_values_add_row(struct gen_values *v)
{
	const unsigned nm = v->nmembers, base = v->nrows * nm;
	/* Members' kinds are in their own (otherwise unused) field slots. */
	const struct gen_value *kinds = &v->field[v->struct_field + 1];
	struct gen_value *c = &v->cell[base];
	int size_field;

	if (v->struct_field < 0 || base + nm > GEN_VALUES_MAX_CELLS)
		return -1;
	for (unsigned m = 0; m < nm; m++) {
		c[m].u = 0;
		c[m].len = 0;
		c[m].kind = kinds[m].kind;
	}
	v->nrows++;
	size_field = gcspec_event_fields(&gcspec_events[v->event])[v->struct_field].size_field;
	if (size_field >= 0)
		v->field[size_field].u = v->nrows;
	return (int)(v->nrows - 1);
}

int gen_values_set_member_num(struct gen_values *v, unsigned row, const char *name, uint64_t value)
{
	int i = gen_values_index(v, name, 1);
	struct gen_value x = { value, 0, GEN_VK_NUM };

	return i < 0 ? -1 : gen_values_set_member_at(v, row, (unsigned)i, &x);
}

int gen_values_set_member_array(struct gen_values *v, unsigned row, unsigned member_index,
				const uint64_t *values, unsigned n)
{
	const struct gcspec_field *f = gcspec_event_fields(&gcspec_events[v->event]);
	uint8_t bytes[8 * 64];
	unsigned w;
	int64_t at;
	struct gen_value x;

	if (member_index >= v->nfields || !gcspec_field_is_array(&f[member_index]) ||
	    row >= v->nrows || n > 64)
		return -1;
	w = f[member_index].type == GCSPEC_UINT64 || f[member_index].type == GCSPEC_INT64 ? 8
	  : f[member_index].type == GCSPEC_UINT32 || f[member_index].type == GCSPEC_INT32 ? 4
	  : f[member_index].type == GCSPEC_UINT16 || f[member_index].type == GCSPEC_INT16 ? 2 : 1;
	for (unsigned k = 0; k < n; k++)
		for (unsigned b = 0; b < w; b++)
			bytes[k * w + b] = (uint8_t)(values[k] >> (8 * b));
	if ((at = gen_values_store(v, bytes, (size_t)n * w)) < 0)
		return -1;
	x.u = (uint64_t)at;
	x.len = n * w;
	x.kind = GEN_VK_BYTES;
	if (gen_values_set_member_at(v, row, member_index, &x) < 0)
		return -1;
	x.u = n;
	x.len = 0;
	x.kind = GEN_VK_NUM;
	return gen_values_set_member_at(v, row, (unsigned)f[member_index].size_field, &x);
}
