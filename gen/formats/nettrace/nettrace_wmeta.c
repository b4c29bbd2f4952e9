/*
 * nettrace_wmeta.c - metadata records for the nettrace writer.
 * See nettrace_wmeta.h for what a record holds and why.
 */
#include "spec/gcspec.h"
#include "gen/formats/nettrace/nettrace_wmeta.h"
#include "gen/formats/writer.h"

/* System.TypeCode values EventPipe metadata uses (V5 and V6 agree). */
enum { TC_BOOLEAN = 3, TC_SBYTE = 5, TC_BYTE = 6, TC_INT16 = 7, TC_UINT16 = 8,
       TC_INT32 = 9, TC_UINT32 = 10, TC_INT64 = 11, TC_UINT64 = 12,
       TC_SINGLE = 13, TC_DOUBLE = 14, TC_GUID = 17, TC_STRING = 18 };

/* The type code of a spec field, or 0 when EventPipe cannot describe it. */
static int type_code(unsigned t, unsigned pointer_size)
{
	switch (t) {
	case GCSPEC_UINT8: return TC_BYTE;
	case GCSPEC_UINT16: return TC_UINT16;
	case GCSPEC_UINT32: return TC_UINT32;
	case GCSPEC_UINT64: return TC_UINT64;
	case GCSPEC_INT8: return TC_SBYTE;
	case GCSPEC_INT16: return TC_INT16;
	case GCSPEC_INT32: return TC_INT32;
	case GCSPEC_INT64: return TC_INT64;
	case GCSPEC_FLOAT: return TC_SINGLE;
	case GCSPEC_DOUBLE: return TC_DOUBLE;
	case GCSPEC_BOOLEAN: return TC_BOOLEAN;
	/* EventSource writes IntPtr/UIntPtr with the integer code of its width. */
	case GCSPEC_POINTER: return pointer_size == 4 ? TC_UINT32 : TC_UINT64;
	case GCSPEC_GUID: return TC_GUID;
	case GCSPEC_UNICODE_STRING: return TC_STRING;
	default: return 0;
	}
}

/* The spec event whose fields a full record describes, or NULL. */
static const struct gcspec_event *describable(const struct ntw_meta_key *k,
                                               unsigned pointer_size)
{
	const struct gcspec_event *ev;
	const struct gcspec_field *f;

	if (k->spec_event == GEN_NO_SPEC || k->spec_event >= GCSPEC_NEVENTS)
		return NULL;
	ev = &gcspec_events[k->spec_event];
	f = gcspec_event_fields(ev);
	for (unsigned i = 0; i < ev->nfields; i++)
		if (!type_code(f[i].type, pointer_size))
			return NULL;
	return ev;
}

static const char *event_name(const struct ntw_meta_key *k)
{
	if (k->spec_event == GEN_NO_SPEC || k->spec_event >= GCSPEC_NEVENTS)
		return "";
	return gcspec_events[k->spec_event].name;
}

int ntw_meta_v5(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_key *k,
                unsigned format_version, int full, unsigned pointer_size)
{
	const struct gcspec_event *ev = full ? describable(k, pointer_size) : NULL;
	const char *prov = k->provider < GCSPEC_NPROVIDERS ?
		gcspec_providers[k->provider].name : "";

	if (ntw_u32(b, meta_id) || ntw_utf16z(b, prov) || ntw_u32(b, k->id) ||
	    ntw_utf16z(b, full ? event_name(k) : "") || ntw_u64(b, k->keywords) ||
	    ntw_u32(b, k->version) || ntw_u32(b, k->level))
		return -1;
	if (ntw_u32(b, ev ? ev->nfields : 0))
		return -1;
	if (ev) {
		const struct gcspec_field *f = gcspec_event_fields(ev);

		for (unsigned i = 0; i < ev->nfields; i++)
			if (ntw_u32(b, (uint32_t)type_code(f[i].type, pointer_size)) ||
			    ntw_utf16z(b, f[i].name))
				return -1;
	}
	/* V5 tags: the opcode, for full records only (the runtime's minimal
	 * metadata has none). TagPayloadBytes counts the bytes after the kind. */
	if (full && format_version >= 5)
		if (ntw_u32(b, 1) || ntw_u8(b, 1) || ntw_u8(b, k->opcode))
			return -1;
	return 0;
}

int ntw_meta_v6(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_key *k,
                int full, unsigned pointer_size)
{
	const struct gcspec_event *ev = full ? describable(k, pointer_size) : NULL;
	const char *prov = k->provider < GCSPEC_NPROVIDERS ?
		gcspec_providers[k->provider].name : "";
	size_t row = b->len, opt;

	if (ntw_u16(b, 0) || ntw_varuint(b, meta_id) || ntw_str6(b, prov) ||
	    ntw_varuint(b, k->id) || ntw_str6(b, full ? event_name(k) : ""))
		return -1;
	if (ntw_u16(b, (uint16_t)(ev ? ev->nfields : 0)))
		return -1;
	if (ev) {
		const struct gcspec_field *f = gcspec_event_fields(ev);

		for (unsigned i = 0; i < ev->nfields; i++) {
			size_t at = b->len;

			if (ntw_u16(b, 0) || ntw_str6(b, f[i].name) ||
			    ntw_u8(b, (uint8_t)type_code(f[i].type, pointer_size)))
				return -1;
			ntw_put_u16_at(b, at, (uint16_t)(b->len - at - 2));
		}
	}
	opt = b->len;
	if (ntw_u16(b, 0) || ntw_u8(b, 3) || ntw_u64(b, k->keywords) ||
	    ntw_u8(b, 8) || ntw_u8(b, k->level) || ntw_u8(b, 9) || ntw_u8(b, k->version))
		return -1;
	if (full && (ntw_u8(b, 1) || ntw_u8(b, k->opcode)))
		return -1;
	ntw_put_u16_at(b, opt, (uint16_t)(b->len - opt - 2));
	ntw_put_u16_at(b, row, (uint16_t)(b->len - row - 2));
	return 0;
}

int ntw_meta_v5_plain(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_plain *k)
{
	return ntw_u32(b, meta_id) || ntw_utf16z(b, k->provider) || ntw_u32(b, k->id) ||
	       ntw_utf16z(b, "") || ntw_u64(b, k->keywords) || ntw_u32(b, k->version) ||
	       ntw_u32(b, k->level) || ntw_u32(b, 0);
}

int ntw_meta_v6_plain(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_plain *k)
{
	size_t row = b->len, opt;

	if (ntw_u16(b, 0) || ntw_varuint(b, meta_id) || ntw_str6(b, k->provider) ||
	    ntw_varuint(b, k->id) || ntw_str6(b, "") || ntw_u16(b, 0))
		return -1;
	opt = b->len;
	if (ntw_u16(b, 0) || ntw_u8(b, 3) || ntw_u64(b, k->keywords) ||
	    ntw_u8(b, 8) || ntw_u8(b, k->level) || ntw_u8(b, 9) || ntw_u8(b, k->version))
		return -1;
	ntw_put_u16_at(b, opt, (uint16_t)(b->len - opt - 2));
	ntw_put_u16_at(b, row, (uint16_t)(b->len - row - 2));
	return 0;
}
