/* values.c - field values by name, stored for the encoder and the model writer. */
#include <string.h>

#include "values.h"

/* The kind of value each in-type holds (GEN_VK_NUM = 0 for the rest). */
static const uint8_t kind_of[GCSPEC_STRUCT + 1] = {
	[GCSPEC_FLOAT] = GEN_VK_DOUBLE, [GCSPEC_DOUBLE] = GEN_VK_DOUBLE,
	[GCSPEC_UNICODE_STRING] = GEN_VK_TEXT, [GCSPEC_ANSI_STRING] = GEN_VK_TEXT,
	[GCSPEC_GUID] = GEN_VK_BYTES, [GCSPEC_BINARY] = GEN_VK_BYTES,
};

int gen_values_reset(struct gen_values *v, unsigned event)
{
	const struct gcspec_event *ev;
	const struct gcspec_field *f;

	if (event >= GCSPEC_NEVENTS)
		return -1;
	ev = &gcspec_events[event];
	if (ev->nfields > GEN_VALUES_MAX_FIELDS)
		return -1;
	f = gcspec_event_fields(ev);
	v->event = (uint16_t)event;
	v->nfields = ev->nfields;
	v->struct_field = -1;
	v->nmembers = 0;
	v->nrows = 0;
	v->arena_used = 0;
	v->cursor = 0;
	/* Once per event: a store per field, no memset call. */
	for (unsigned i = 0; i < ev->nfields; i++) {
		struct gen_value *x = &v->field[i];

		x->u = 0;
		x->len = 0;
		x->kind = f[i].type <= GCSPEC_STRUCT ? kind_of[f[i].type] : GEN_VK_NUM;
		if (f[i].type == GCSPEC_STRUCT && !f[i].is_member) {
			if (v->struct_field >= 0)
				return -1;
			v->struct_field = (int16_t)i;
			v->nmembers = f[i].nmembers;
		}
	}
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

static int field_type(const struct gen_values *v, unsigned index)
{
	return gcspec_event_fields(&gcspec_events[v->event])[index].type;
}

int gen_values_set_num_at(struct gen_values *v, unsigned index, uint64_t value)
{
	int t;

	if (index >= v->nfields)
		return -1;
	t = field_type(v, index);
	if (t == GCSPEC_STRUCT || t == GCSPEC_BINARY || t == GCSPEC_GUID ||
	    t == GCSPEC_UNICODE_STRING || t == GCSPEC_ANSI_STRING)
		return -1;
	v->field[index].kind = (t == GCSPEC_FLOAT || t == GCSPEC_DOUBLE) ? GEN_VK_DOUBLE : GEN_VK_NUM;
	v->field[index].u = value;
	return 0;
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
	const struct gcspec_field *f;
	unsigned base;

	if (v->struct_field < 0)
		return -1;
	base = v->nrows * v->nmembers;
	if (base + v->nmembers > GEN_VALUES_MAX_CELLS)
		return -1;
	f = gcspec_event_fields(&gcspec_events[v->event]);
	for (unsigned m = 0; m < v->nmembers; m++) {
		const struct gcspec_field *mf = &f[v->struct_field + 1 + m];
		struct gen_value *c = &v->cell[base + m];

		c->u = 0;
		c->len = 0;
		c->kind = mf->type <= GCSPEC_STRUCT ? kind_of[mf->type] : GEN_VK_NUM;
	}
	v->nrows++;
	if (f[v->struct_field].size_field >= 0)
		v->field[f[v->struct_field].size_field].u = v->nrows;
	return (int)(v->nrows - 1);
}

int gen_values_set_member_at(struct gen_values *v, unsigned row, unsigned member_index,
			     const struct gen_value *value)
{
	if (v->struct_field < 0 || row >= v->nrows || member_index <= (unsigned)v->struct_field ||
	    member_index > (unsigned)v->struct_field + v->nmembers)
		return -1;
	*gen_values_cell(v, row, member_index) = *value;
	return 0;
}

int gen_values_set_member_num(struct gen_values *v, unsigned row, const char *name, uint64_t value)
{
	int i = gen_values_index(v, name, 1);
	struct gen_value x = { value, 0, GEN_VK_NUM };

	return i < 0 ? -1 : gen_values_set_member_at(v, row, (unsigned)i, &x);
}
