/*
 * nettrace_r.h - the EventPipe .nettrace reader (V4, V5 and V6).
 *
 * Written from ../shared/reference/NetTraceFormat-v5.md and -v6.md alone; it
 * shares no code with gen/'s writer (only the spec tables), so that a layout
 * mistake cannot hide in both. NetPerf (V1-V3) is recognised and refused.
 *
 * Streaming: the reader holds one block at a time plus the tables the format
 * makes it keep (metadata records, stack-id ranges since the last sequence
 * point, V6 thread rows, each capture thread's last sequence number). A
 * declared size is never trusted: a block buffer grows only as bytes arrive.
 *
 * Diagnostics go to the report callback with a GCSPEC_DIAG_N* code, the event
 * index (UINT64_MAX for the file) and the byte offset; the message is valid
 * only during the call. Ownership: or_event and its payload belong to the
 * reader until the next ntr_next() or ntr_close().
 */
#ifndef ORACLE_NETTRACE_R_H
#define ORACLE_NETTRACE_R_H

#include <stdint.h>
#include <stdio.h>

#include "oracle/formats/reader.h"

typedef void (*ntr_report_fn)(void *arg, unsigned code, uint64_t event,
                              uint64_t offset, const char *msg);

struct ntr_reader;

struct ntr_counts {
	uint64_t events;           /* returned by ntr_next() */
	uint64_t events_skipped;   /* not returned: bad metadata reference */
	uint64_t blocks;           /* objects/blocks read, all kinds */
	uint64_t metadata;         /* metadata records */
	uint64_t stacks;
	uint64_t unknown_blocks;   /* V6 blocks of unknown kinds, skipped */
	uint64_t bytes;            /* file bytes consumed */
};

/* Does head (the file's first bytes) look like a nettrace file? */
int ntr_probe(const uint8_t *head, size_t len);
/* Read the stream header and Trace block. NULL after reporting why (or when
 * memory runs out, reported as truncation-free GC-N005). */
struct ntr_reader *ntr_open(FILE *in, ntr_report_fn report, void *arg,
                            struct or_stream_info *info);
enum or_status ntr_next(struct ntr_reader *r, struct or_event *ev);
void ntr_counts(const struct ntr_reader *r, struct ntr_counts *c);
void ntr_close(struct ntr_reader *r);

#endif
