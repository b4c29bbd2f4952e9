/*
 * ctf_wmeta.c - the trace's TSDL metadata, as LTTng-UST 2.13 writes it for a
 * per-UID session with the vpid and vtid contexts, and its packetized form
 * (CTF 1.8 section 7.1: 37-byte header, then text; LTTng splits the text at
 * arbitrary bytes into 4096-byte packets).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gen/formats/ctf/ctf_w.h"

void ctfw_text_printf(struct ctfw_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			t->oom = 1;
			return;
		}
		if (t->s && t->len + (size_t)n < t->cap) {
			t->len += (size_t)n;
			return;
		}
		size_t cap = t->cap ? t->cap * 2 : 16384;
		while (cap < t->len + (size_t)n + 1)
			cap *= 2;
		char *s = realloc(t->s, cap);
		if (!s) {
			t->oom = 1;
			return;
		}
		t->s = s;
		t->cap = cap;
	}
}

void ctfw_text_free(struct ctfw_text *t)
{
	free(t->s);
	memset(t, 0, sizeof *t);
}

static void uuid_text(char out[37], const uint8_t u[16])
{
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12],
		 u[13], u[14], u[15]);
}

void ctfw_tsdl_header(struct ctfw_text *t, const struct gen_stream_info *info,
		      const uint8_t uuid[16], uint64_t clock_offset_ns)
{
	char u[37], date[32] = "19700101T000000+0000";
	time_t secs = (time_t)(info->start_unix_ns / 1000000000u);
	struct tm tm;
	unsigned bits = info->pointer_size * 8u;
	/* The clock's own uuid, derived from the trace's so it is stable. */
	uint8_t cu[16];

	if (gmtime_r(&secs, &tm))
		strftime(date, sizeof date, "%Y%m%dT%H%M%S+0000", &tm);
	uuid_text(u, uuid);
	ctfw_text_printf(t,
		"/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = %u; align = 8; signed = false; } := unsigned long;\n"
		"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
		"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t  uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t\tuint64_t stream_instance_id;\n\t};\n};\n\n",
		bits, u);
	ctfw_text_printf(t,
		"env {\n\tdomain = \"ust\";\n\ttracer_name = \"lttng-ust\";\n\ttracer_major = 2;\n"
		"\ttracer_minor = 13;\n\ttracer_buffering_scheme = \"uid\";\n\ttracer_buffering_id = 0;\n"
		"\tarchitecture_bit_width = %u;\n\ttrace_name = \"gcgen\";\n"
		"\ttrace_creation_datetime = \"%s\";\n\thostname = \"gcgen\";\n"
		"\tgcgen_profile = \"%s\";\n\tgcgen_mode = \"%s\";\n\tgcgen_seed = \"%llu\";\n};\n\n",
		bits, date, info->profile ? info->profile : "", info->mode ? info->mode : "",
		(unsigned long long)info->seed);
	memcpy(cu, uuid, 16);
	cu[0] ^= 0x5a;
	cu[15] ^= 0xa5;
	uuid_text(u, cu);
	ctfw_text_printf(t,
		"clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n\tdescription = \"Monotonic Clock\";\n"
		"\tfreq = 1000000000; /* Frequency, in Hz */\n"
		"\t/* clock value offset from Epoch is: offset * (1/freq) */\n\toffset = %llu;\n};\n\n",
		u, (unsigned long long)clock_offset_ns);
	ctfw_text_printf(t,
		"typealias integer {\n\tsize = 27; align = 1; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint27_clock_monotonic_t;\n\n"
		"typealias integer {\n\tsize = 32; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint32_clock_monotonic_t;\n\n"
		"typealias integer {\n\tsize = 64; align = 8; signed = false;\n"
		"\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n"
		"struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\tuint64_clock_monotonic_t timestamp_end;\n\tuint64_t content_size;\n"
		"\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
		"\tunsigned long events_discarded;\n\tuint32_t cpu_id;\n};\n\n"
		"struct event_header_compact {\n"
		"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
		"\tvariant <id> {\n\t\tstruct {\n\t\t\tuint27_clock_monotonic_t timestamp;\n\t\t} compact;\n"
		"\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t\t} extended;\n\t} v;\n} align(8);\n\n"
		"struct event_header_large {\n"
		"\tenum : uint16_t { compact = 0 ... 65534, extended = 65535 } id;\n"
		"\tvariant <id> {\n\t\tstruct {\n\t\t\tuint32_clock_monotonic_t timestamp;\n\t\t} compact;\n"
		"\t\tstruct {\n\t\t\tuint32_t id;\n\t\t\tuint64_clock_monotonic_t timestamp;\n"
		"\t\t} extended;\n\t} v;\n} align(8);\n\n"
		"stream {\n\tid = 0;\n\tevent.header := struct event_header_large;\n"
		"\tpacket.context := struct packet_context;\n\tevent.context := struct {\n"
		"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vpid;\n"
		"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vtid;\n"
		"\t};\n};\n\n");
}

static void int_field(struct ctfw_text *t, unsigned bits, int is_signed, const char *name)
{
	ctfw_text_printf(t, "\t\tinteger { size = %u; align = 8; signed = %d; encoding = none; base = 10; } _%s;\n",
			 bits, is_signed, name);
}

void ctfw_tsdl_event(struct ctfw_text *t, const char *name, unsigned id,
		     const struct gcspec_event *spec, int packed, unsigned psize)
{
	ctfw_text_printf(t, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n\tloglevel = 13;\n"
			 "\tfields := struct {\n", name, id);
	if (packed || !spec) {
		/* ctf_integer(ULONG, length) + ctf_sequence(char, __data__, ULONG
		 * length): lttng-ust names the hidden length _<field>_length and
		 * lttng-tools prefixes every field with '_'. */
		int_field(t, 32, 0, "length");
		int_field(t, 32, 0, "___data___length");
		ctfw_text_printf(t, "\t\tinteger { size = 8; align = 8; signed = 1; encoding = none; base = 10; } "
				 "___data__[ ____data___length ];\n");
	} else {
		const struct gcspec_field *f = gcspec_event_fields(spec);

		for (unsigned i = 0; i < spec->nfields; i++) {
			switch (f[i].type) {
			case GCSPEC_UINT8: int_field(t, 8, 0, f[i].name); break;
			case GCSPEC_UINT16: int_field(t, 16, 0, f[i].name); break;
			case GCSPEC_UINT32: int_field(t, 32, 0, f[i].name); break;
			case GCSPEC_UINT64: int_field(t, 64, 0, f[i].name); break;
			case GCSPEC_INT8: int_field(t, 8, 1, f[i].name); break;
			case GCSPEC_INT16: int_field(t, 16, 1, f[i].name); break;
			case GCSPEC_INT32: int_field(t, 32, 1, f[i].name); break;
			case GCSPEC_INT64: int_field(t, 64, 1, f[i].name); break;
			case GCSPEC_POINTER: int_field(t, psize * 8, 0, f[i].name); break;
			case GCSPEC_BOOLEAN: int_field(t, 32, 1, f[i].name); break;
			case GCSPEC_FLOAT:
				ctfw_text_printf(t, "\t\tfloating_point { exp_dig = 8; mant_dig = 24; align = 8; } _%s;\n",
						 f[i].name);
				break;
			case GCSPEC_DOUBLE:
				ctfw_text_printf(t, "\t\tfloating_point { exp_dig = 11; mant_dig = 53; align = 8; } _%s;\n",
						 f[i].name);
				break;
			case GCSPEC_UNICODE_STRING:
			case GCSPEC_ANSI_STRING:
				ctfw_text_printf(t, "\t\tstring _%s;\n", f[i].name);
				break;
			case GCSPEC_GUID: {
				/* ctf_sequence(int, X, X, size_t, sizeof(GUID)/sizeof(int)) */
				char len_name[96];

				snprintf(len_name, sizeof len_name, "_%s_length", f[i].name);
				int_field(t, psize * 8, 0, len_name);
				ctfw_text_printf(t, "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; "
						 "base = 10; } _%s[ __%s_length ];\n", f[i].name, f[i].name);
				break;
			}
			default:
				break; /* packed templates only */
			}
		}
	}
	ctfw_text_printf(t, "\t};\n};\n\n");
}

void ctfw_tsdl_statedump(struct ctfw_text *t, const char *name, unsigned id, int procname)
{
	ctfw_text_printf(t, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n\tloglevel = 13;\n"
			 "\tfields := struct {\n", name, id);
	if (procname)
		ctfw_text_printf(t, "\t\tinteger { size = 8; align = 8; signed = 1; encoding = UTF8; "
				 "base = 10; } _procname[16];\n");
	ctfw_text_printf(t, "\t};\n};\n\n");
}

static void put_u32(uint8_t *p, uint32_t x)
{
	p[0] = (uint8_t)x;
	p[1] = (uint8_t)(x >> 8);
	p[2] = (uint8_t)(x >> 16);
	p[3] = (uint8_t)(x >> 24);
}

int ctfw_write_metadata(const char *path, const char *text, size_t len, const uint8_t uuid[16])
{
	FILE *f = fopen(path, "wb");
	uint8_t pkt[CTFW_META_PACKET];
	size_t at = 0;
	int ok = f != NULL;

	while (ok && at < len) {
		size_t n = len - at < CTFW_META_PACKET - CTFW_META_HEADER ? len - at
			: CTFW_META_PACKET - CTFW_META_HEADER;

		memset(pkt, 0, sizeof pkt);
		put_u32(pkt, 0x75D11D57u);
		memcpy(pkt + 4, uuid, 16);
		put_u32(pkt + 20, 0);                                   /* checksum */
		put_u32(pkt + 24, (uint32_t)((CTFW_META_HEADER + n) * 8)); /* content_size, bits */
		put_u32(pkt + 28, CTFW_META_PACKET * 8);                /* packet_size, bits */
		pkt[32] = 0;                                            /* compression */
		pkt[33] = 0;                                            /* encryption */
		pkt[34] = 0;                                            /* checksum scheme */
		pkt[35] = 1;                                            /* major */
		pkt[36] = 8;                                            /* minor */
		memcpy(pkt + CTFW_META_HEADER, text + at, n);
		ok = fwrite(pkt, 1, sizeof pkt, f) == sizeof pkt;
		at += n;
	}
	if (f && fclose(f) != 0)
		ok = 0;
	return ok ? 0 : -1;
}
