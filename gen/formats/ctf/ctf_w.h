/*
 * ctf_w.h - the LTTng CTF 1.8 trace writer (format "ctf").
 *
 * A trace is a directory shaped like the one LTTng-UST 2.13 writes for a
 * CoreCLR process in per-UID buffering: `metadata` (packetized TSDL) and one
 * stream file `channel0_<cpu>` per processor that has events. Packets carry
 * LTTng's packet header and context (timestamp_begin/end, content_size,
 * packet_size, packet_seq_num, events_discarded, cpu_id); events carry
 * LTTng's large event header (compact: 16-bit id + low 32 bits of the time;
 * extended: 32-bit id + 64-bit time) and the vpid/vtid contexts; the clock is
 * the 1 GHz "monotonic" one.
 *
 * Events are mapped as CoreCLR's tracepoint generator (genLttngProvider.py)
 * maps them: event class "DotNETRuntime:<symbol>"; templates with more than
 * nine top-level fields, or with a struct or an array, are packed (a 32-bit
 * length and a byte sequence holding the ETW payload, UTF-16 strings
 * included); the others have typed fields (UTF-8 strings, Pointer as size_t,
 * Boolean as a signed 32-bit int, GUID as a sequence of four int32).
 *
 * Written from the CTF 1.8 specification and facts about LTTng's and
 * CoreCLR's layouts; it shares no code with oracle/'s reader (only the spec
 * tables).
 *
 * The modules: write_ctf.c (the writer ops, streams and packets),
 * ctf_wlayout.c (per event-version: packed or typed, payload -> typed field
 * bytes), ctf_wmeta.c (the TSDL text and its packets).
 *
 * Errors: 0 or -1 (lengths: -1) as stated per function.
 */
#ifndef GEN_CTF_W_H
#define GEN_CTF_W_H

#include <stddef.h>
#include <stdint.h>

#include "spec/gcspec.h"
#include "gen/formats/writer.h"

extern const struct gen_writer_ops gen_write_ctf_ops;

/* 1 when CoreCLR packs this template (more than nine top-level fields, a
 * struct, or a field whose length is another field). */
int ctfw_packed(const struct gcspec_event *ev);

/* The typed field bytes of an event-version from its ETW payload: the
 * payload re-laid as the tracepoint's fields. Returns their length, or -1
 * when the payload does not decode exactly by the template (a mutated
 * payload: it is then written packed) or out[cap] is too small. */
long ctfw_typed_fields(const struct gcspec_event *ev, const uint8_t *payload, uint32_t len,
		       unsigned pointer_size, uint8_t *out, size_t cap);

/* When every field of the template has a fixed size: their total, which is
 * then also the typed bytes' (they are the payload's bytes as they are);
 * else -1. */
long ctfw_fixed_size(const struct gcspec_event *ev, unsigned pointer_size);

/* Bytes of a typed field of a fixed-size in-type (its ETW width; Pointer:
 * pointer_size), or 0 for strings, GUID, Binary and Struct. */
unsigned ctfw_field_width(unsigned type, unsigned pointer_size);

/* The LTTng provider name of a gcspec provider: "DotNETRuntime" for
 * "Microsoft-Windows-DotNETRuntime" (prefixes "Microsoft-" and "Windows-"
 * dropped, '-' -> '_'), written to out (cap bytes). */
void ctfw_provider_name(unsigned provider, char *out, size_t cap);

/* The event class name for (provider, id, version): "<provider>:<symbol>"
 * when the spec has it; "<provider>:<name>_V<version>" for a version the
 * spec lacks of a known id; "<provider>:EventID<id>_V<version>" for an
 * unknown id (no _V suffix for version 0). */
void ctfw_class_name(unsigned provider, unsigned id, unsigned version, char *out, size_t cap);

/* A growable text buffer. */
struct ctfw_text {
	char *s;
	size_t len, cap;
	int oom;
};
void ctfw_text_printf(struct ctfw_text *t, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;
void ctfw_text_free(struct ctfw_text *t);

/* The trace-wide TSDL (types, trace, env, clock, stream). clock_offset_ns:
 * wall-clock nanoseconds since the epoch at clock value 0. */
void ctfw_tsdl_header(struct ctfw_text *t, const struct gen_stream_info *info,
		      const uint8_t uuid[16], uint64_t clock_offset_ns);
/* One event class: spec is NULL for events the spec lacks (always packed). */
void ctfw_tsdl_event(struct ctfw_text *t, const char *name, unsigned id,
		     const struct gcspec_event *spec, int packed, unsigned pointer_size);

/* An LTTng-UST statedump event class (lttng_ust_statedump:start, :end with
 * no fields; :procname with its 16-char array when procname is 1). */
void ctfw_tsdl_statedump(struct ctfw_text *t, const char *name, unsigned id, int procname);

/* Metadata packets: 4096 bytes each, LTTng's 37-byte header then TSDL text. */
#define CTFW_META_PACKET 4096u
#define CTFW_META_HEADER 37u
/* Write text as packetized metadata to path. */
int ctfw_write_metadata(const char *path, const char *text, size_t len, const uint8_t uuid[16]);

#endif
