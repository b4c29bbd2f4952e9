/*
 * writer.h - how gcgen hands a finished stream to a container writer.
 *
 * The simulator and the payload encoder produce gen_event records; a writer
 * (one module per container: CBOR model, nettrace, CTF, ETL) turns them into
 * bytes. Writers never see the simulator's state and never read files back.
 *
 * Ownership: a writer borrows every pointer it is given for the duration of
 * the call only; it copies what it needs to keep. Errors: functions return 0
 * on success and -1 on failure after storing a one-line message in the
 * writer's error buffer (gen_writer_error()).
 */
#ifndef GEN_WRITER_H
#define GEN_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GEN_NO_SPEC 0xFFFFu

/* What a whole stream shares: everything a container header records. */
struct gen_stream_info {
	uint8_t pointer_size;      /* 4 or 8 */
	uint64_t clock_frequency;  /* timestamp ticks per second (QPC frequency) */
	uint64_t start_ticks;      /* timestamp of the trace start */
	uint64_t start_unix_ns;    /* wall-clock start, for headers that want it */
	uint32_t process_id;
	uint32_t nprocessors;
	const char *profile;       /* runtime profile name, e.g. "net8" */
	const char *mode;          /* "realistic" or "exhaustive" */
	uint64_t seed;
	uint64_t keywords;         /* keywords the session enabled */
	uint8_t level;             /* level the session enabled */
};

/* One event as a container must record it. */
struct gen_event {
	uint64_t timestamp;        /* ticks, clock_frequency per second */
	uint64_t thread_id;
	uint32_t processor;
	uint16_t spec_event;       /* index into gcspec_events, or GEN_NO_SPEC */
	uint8_t provider;          /* gcspec provider index (valid with GEN_NO_SPEC too) */
	uint16_t id;               /* normally the spec's; a mutator may change it */
	uint8_t version;
	uint8_t level;
	uint8_t opcode;
	uint64_t keywords;
	uint32_t stack_id;         /* 0: no stack; else one of the stream's stacks */
	const uint8_t *payload;
	uint32_t payload_len;
	/* The values the payload was encoded from, for the model stream; NULL
	 * when a mutator changed the payload bytes after encoding. */
	const struct gen_values *values;
	/* Machine-wide traces (gcgen --processes): the process that wrote the
	 * event and its pointer size; 0 for the stream's (info). Containers
	 * without a per-event process (nettrace, the model stream) never get
	 * events of more than one process. */
	uint32_t process_id;
	uint8_t pointer_size;
	/* GEN_EV_RUNTIME, or a record of the operating system's about the
	 * process (its start or end: a kernel logger's Process event in .etl,
	 * LTTng-UST's statedump in CTF), which has no spec event and no
	 * payload. Writers without such records pass these over. */
	uint8_t kind;
};

enum { GEN_EV_RUNTIME = 0, GEN_EV_PROCESS_START, GEN_EV_PROCESS_END };

struct gen_values;          /* values.h */

/* Every writer's state starts with this; a module embeds it as its first
 * member and allocates the whole in create(). */
struct gen_writer {
	const struct gen_writer_ops *ops;
	char error[256];           /* the last failure, one line */
};

struct gen_writer_ops {
	const char *format;        /* "cbor", "nettrace-v5", ... */
	const char *description;   /* one line for --help */
	/* A new writer (malloc'd; destroy() frees it), or NULL on no memory. */
	struct gen_writer *(*create)(void);
	/* Start writing to out (already open; the caller renames it into place). */
	int (*begin)(struct gen_writer *w, FILE *out, const struct gen_stream_info *info);
	int (*event)(struct gen_writer *w, const struct gen_event *ev);
	/* Finish the container; the caller closes out. */
	int (*end)(struct gen_writer *w);
	void (*destroy)(struct gen_writer *w);
	/* Set a container-specific option (gcgen --writer-option KEY=VALUE)
	 * between create() and begin(); NULL when the container has none.
	 * Returns 0, or -1 with a message for an unknown key or bad value. */
	int (*option)(struct gen_writer *w, const char *key, const char *value);
	/* Directory containers (CTF) set this and leave begin NULL: the writer
	 * creates its files in dir, an empty directory the caller made beside
	 * the output path and renames into place when the run succeeds. The
	 * writer copies dir if it keeps it. */
	int (*begin_dir)(struct gen_writer *w, const char *dir, const struct gen_stream_info *info);
	/* 1: the writer records field values (ev->values): the model stream.
	 * Writers of bytes alone leave it 0, and gcgen then writes payloads
	 * in place without keeping values (emit.h's direct mode). */
	int needs_values;
};

/* The writer table (gen/formats/writer_table.c): the ops for a --format name, or
 * NULL. gen_writer_formats lists them all, NULL-terminated. */
const struct gen_writer_ops *gen_writer_find(const char *format);
extern const struct gen_writer_ops *const gen_writer_formats[];
/* The CBOR model stream's writer (also gcgen --values). */
extern const struct gen_writer_ops gen_write_model_ops;

/* A writer that hands every call to a and then to b, b writing to b_out
 * (gcgen --values: the container plus its model stream). Takes ownership
 * of a and b (destroying the tee destroys them; on NULL, no memory, both
 * are destroyed already); b_out stays the caller's. Options go to a. */
struct gen_writer *gen_writer_tee(struct gen_writer *a, struct gen_writer *b, FILE *b_out);

/* Record a failure in w->error (printf-style) and return -1. */
int gen_writer_fail(struct gen_writer *w, const char *fmt, ...)
#ifdef __GNUC__
	__attribute__((format(printf, 2, 3)))
#endif
	;

static inline const char *gen_writer_error(const struct gen_writer *w)
{
	return w->error;
}

#endif
