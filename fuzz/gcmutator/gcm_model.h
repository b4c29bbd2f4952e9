/*
 * gcm_model.h - a whole stream held in memory as the fuzzing side sees it:
 * the header fields every container records plus every event with its
 * payload. Parsed with an oracle reader (any container gcoracle reads) and
 * written back with a gen writer (any container gcgen writes). fuzz/ is the
 * one place allowed to link both sides; gen/ and oracle/ never meet here
 * beyond the bytes they exchange.
 *
 * Ownership: a gcm_stream owns its event array and payload arena (malloc'd);
 * gcm_stream_free() releases them and leaves an empty stream. Bounds: a parse
 * keeps at most GCM_MAX_EVENTS events and GCM_MAX_ARENA payload bytes (the
 * rest is cut off), so a hostile input cannot make it allocate without limit.
 * Errors: 0, or -1 when the input could not be opened as any container (or
 * memory ran out); encoding returns 0 or -1 (writer refused or no memory).
 */
#ifndef FUZZ_GCM_MODEL_H
#define FUZZ_GCM_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define GCM_MAX_EVENTS 65536
#define GCM_MAX_ARENA ((size_t)16 << 20)

struct gen_nettrace_opts;

struct gcm_event {
	uint64_t timestamp;
	uint64_t thread_id;
	uint64_t keywords;
	int provider;              /* gcspec provider index, or -1 for others */
	uint16_t id;
	uint8_t version, level, opcode;
	uint32_t processor;        /* not read back; varied by the mutator */
	uint32_t stack_id;         /* 0: none (likewise) */
	/* Model stream: field values recorded by name beside the payload. 0:
	 * none; 1: as the payload decodes; 2: one value differs (GC-M005). */
	uint8_t fields;
	size_t payload_off;        /* into the arena */
	uint32_t payload_len;
};

struct gcm_stream {
	const char *format;        /* the reader's name ("nettrace", "cbor-model") */
	unsigned format_version;
	uint8_t pointer_size;
	uint64_t clock_frequency, start_ticks;
	uint32_t process_id;
	struct gcm_event *ev;
	size_t n, cap;
	uint8_t *arena;
	size_t used, acap;
	/* What the reader reported while reading (the checker never ran). */
	unsigned container_errors; /* error-severity container codes (not P/V/S/U) */
	unsigned diagnostics;      /* every code the reader reported */
	int cut;                   /* 1: GCM_MAX_* cut the stream short */
};

void gcm_stream_init(struct gcm_stream *s);
void gcm_stream_free(struct gcm_stream *s);

/* Read data with the oracle reader called `format` (NULL: probe, as gcoracle
 * does). Events read before a container error are kept. A ustar image
 * (gcm_tar.h) is a directory container: unpacked into a temporary
 * directory and read with the reader's open_dir. */
int gcm_parse(struct gcm_stream *s, const uint8_t *data, size_t size, const char *format);

/* Append an event; its payload is copied into the arena. */
int gcm_push(struct gcm_stream *s, const struct gcm_event *e, const uint8_t *payload);

static inline const uint8_t *gcm_payload(const struct gcm_stream *s, const struct gcm_event *e)
{
	return s->arena + e->payload_off;
}

/* Write the stream with gen's writer for `wformat` (a gcgen --format name).
 * nt (may be NULL) overrides the nettrace options. *out is malloc'd. */
int gcm_encode(const struct gcm_stream *s, const char *wformat,
               const struct gen_nettrace_opts *nt, uint8_t **out, size_t *len);

/* The same; for a directory container (CTF) the result is the ustar image
 * of the directory (gcm_tar.h), and dir_hook (may be NULL) is called on the
 * written directory before it is packed (to apply a container fault). */
int gcm_encode_hook(const struct gcm_stream *s, const char *wformat,
                    const struct gen_nettrace_opts *nt,
                    void (*dir_hook)(const char *dir, void *arg), void *arg,
                    uint8_t **out, size_t *len);

/* The gcgen --format name that writes what reader `format` read back the
 * closest (full metadata for nettrace, so the opcode survives), or NULL. */
const char *gcm_writer_for(const char *format, unsigned format_version);

/* A valid stream from gen's simulator: seed picks profile, pointer size and
 * size; `gcs` GCs. Used when an input cannot be parsed. */
int gcm_generate(struct gcm_stream *s, uint64_t seed, unsigned gcs);

#endif
