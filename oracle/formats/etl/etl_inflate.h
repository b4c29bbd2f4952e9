/*
 * etl_inflate.h - the buffers of a compressed .etl file, read in file
 * order and expanded, for etl_read.c (internal to the .etl reader).
 *
 * Every buffer after buffer 0 is a 0x48-byte header whose BufferSize is
 * the bytes it takes in the file, then its data: LZXPRESS when BufferFlag
 * 0x40 is set, stored as it is otherwise. etl_inflate_next() hands the
 * buffers on one by one, exactly as read, with what each read returned;
 * it judges nothing and says nothing: the reader, which owns the
 * diagnostics, looks at each buffer when it gets it, in file order, so
 * what it says does not depend on how far ahead this module has read.
 *
 * With workers, it reads up to ETL_INFLATE_AHEAD buffers ahead of the one
 * handed on and expands them on worker threads (libfwnt's decoder is 78 %
 * of gcoracle's time on a compressed file, and buffers expand
 * independently); the thread that asks for the next buffer expands one
 * itself rather than wait. Without workers nothing is read ahead and the
 * buffer is expanded in the call, in the buffers the caller gave.
 *
 * Reading stops after a buffer whose header or data the file cuts short,
 * or whose BufferSize cannot be right (the next header's place is then
 * unknown), as the reader stops there.
 *
 * Memory: with workers, ETL_INFLATE_AHEAD pairs of buffers of the file's
 * buffer size plus slack (etl_inflate_new refuses sizes over
 * ETL_INFLATE_MAX_BUFFER; the caller then reads without workers).
 */
#ifndef ORACLE_ETL_INFLATE_H
#define ORACLE_ETL_INFLATE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ETL_INFLATE_AHEAD 4
#define ETL_INFLATE_MAX_BUFFER (4u << 20)
#define ETL_BUFHDR 0x48u
#define ETL_BUFFER_COMPRESSED 0x0040u
/* libfwnt's LZXPRESS decoder (20181227) reads the 4-byte indicator word
 * whole even when fewer bytes are left, and a match that runs past the
 * output bound writes one byte past it (then fails, or at one byte over
 * reports success): both land in this slack. Literals past the bound it
 * drops, and reports success: it is given ETL_GUARD bytes more room than
 * the buffer may hold, and an expansion into them is an overflow. */
#define ETL_SLACK 8u
#define ETL_GUARD 4u

/* One buffer as read. buf holds its header and, stored or expanded, its
 * data (bsize + ETL_SLACK bytes); valid until the next etl_inflate_next(). */
struct etl_buffer {
	uint8_t *buf;
	uint64_t offset;           /* file offset of its header */
	uint64_t end_header;       /* file offset after its header was read */
	uint64_t end_data;         /* after its data was read */
	size_t got_header;         /* header bytes read (0: end of file) */
	size_t want_data, got_data; /* data bytes its BufferSize asks for, read */
	int expanded;              /* LZXPRESS data was expanded: ok and out say how */
	int ok;                    /* it expanded, to at most the buffer size less the header */
	size_t out;                /* bytes it expanded to */
};

struct etl_inflate;

/* Read from in, whose next byte is at file offset pos, buffers of at most
 * bsize bytes. workers 0: none, and buf/cbuf (bsize + ETL_SLACK bytes
 * each, the caller's) are used; otherwise that many threads and buffers of
 * its own. NULL when out of memory, when workers are asked for a bsize
 * over ETL_INFLATE_MAX_BUFFER, or when a thread cannot be started. */
struct etl_inflate *etl_inflate_new(FILE *in, uint64_t pos, uint32_t bsize, unsigned workers,
                                    uint8_t *buf, uint8_t *cbuf);
/* The next buffer. After one that stops reading (see above), every call
 * gives an end-of-file buffer at the offset reading stopped. */
const struct etl_buffer *etl_inflate_next(struct etl_inflate *x);
/* Stops and joins the workers, frees what it allocated. NULL is fine. */
void etl_inflate_free(struct etl_inflate *x);
#endif
