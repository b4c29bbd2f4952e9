/*
 * nettrace_rmeta.h - parse one nettrace metadata record (reader side).
 *
 * The reader keeps only what it hands on with events: provider, event id,
 * version, level, opcode, keywords. Field descriptions are walked (to reach
 * the V5 tags) but not kept: payloads are decoded from the spec tables.
 *
 * Errors: 0, or -1 with *why set to a static message (GC-N020).
 */
#ifndef ORACLE_NETTRACE_RMETA_H
#define ORACLE_NETTRACE_RMETA_H

#include <stddef.h>
#include <stdint.h>

struct ntr_meta_rec {
	uint32_t meta_id;
	uint32_t event_id;
	uint32_t version;
	uint32_t level;
	uint8_t opcode;
	uint64_t keywords;
	char provider[256];   /* UTF-8 (V6) or UTF-16 narrowed (V5), NUL-ended */
};

/* V4/V5: the payload of a metadata event blob. */
int ntr_meta_v5(const uint8_t *p, size_t n, struct ntr_meta_rec *m, const char **why);
/* V6: one metadata row's content (after its uint16 Size). */
int ntr_meta_v6(const uint8_t *p, size_t n, struct ntr_meta_rec *m, const char **why);

#endif
