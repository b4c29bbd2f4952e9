/*
 * nettrace_wmeta.h - metadata records for the nettrace writer.
 *
 * One record describes one (provider, id, version, keywords, level, opcode)
 * as events carry it. Runtime-like records hold what CoreCLR writes for its
 * native events: provider name, event id, version, keywords, level, an empty
 * event name and no fields. Full records name the event and describe every
 * field when EventPipe's type system can (fixed fields and UTF-16 strings;
 * events with count-driven arrays keep an empty field list, because an
 * EventPipe Array carries its own UInt16 length and the GC payloads do not).
 *
 * Errors: 0, or -1 when memory runs out.
 */
#ifndef GEN_NETTRACE_WMETA_H
#define GEN_NETTRACE_WMETA_H

#include <stdint.h>

#include "gen/formats/nettrace/nettrace_wbuf.h"

struct ntw_meta_key {
	uint16_t spec_event;    /* gcspec_events index or GEN_NO_SPEC */
	uint8_t provider;
	uint16_t id;
	uint8_t version;
	uint8_t level;
	uint8_t opcode;
	uint64_t keywords;
};

/* V4/V5: the payload of a metadata event blob (format_version 4: no tags). */
int ntw_meta_v5(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_key *k,
                unsigned format_version, int full, unsigned pointer_size);
/* V6: one metadata row, including its leading uint16 Size. */
int ntw_meta_v6(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_key *k,
                int full, unsigned pointer_size);

/* A record for an event of a provider outside the spec, as the runtime
 * writes it for its own native providers: the name, id, keywords, version
 * and level, an empty event name and no fields (no V5 tags). */
struct ntw_meta_plain {
	const char *provider;
	uint32_t id;
	uint64_t keywords;
	uint8_t version;
	uint8_t level;
};
int ntw_meta_v5_plain(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_plain *k);
int ntw_meta_v6_plain(struct ntw_buf *b, uint32_t meta_id, const struct ntw_meta_plain *k);

#endif
