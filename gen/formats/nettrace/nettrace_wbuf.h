/*
 * nettrace_wbuf.h - a growable little-endian byte buffer for the nettrace
 * writer (gen/ only; oracle/ has its own cursor, on purpose).
 *
 * Ownership: the buffer owns data; ntw_buf_free() releases it.
 * Errors: every append returns 0, or -1 when memory runs out; the buffer
 * then stays as it was before the failing call.
 */
#ifndef GEN_NETTRACE_WBUF_H
#define GEN_NETTRACE_WBUF_H

#include <stddef.h>
#include <stdint.h>

struct ntw_buf {
	uint8_t *data;
	size_t len;
	size_t cap;
};

int ntw_reserve_slow(struct ntw_buf *b, size_t more);
/* Room for `more` bytes past len; inline, as the writer asks once an event. */
static inline int ntw_reserve(struct ntw_buf *b, size_t more)
{
	return more <= b->cap - b->len ? 0 : ntw_reserve_slow(b, more);
}
int ntw_bytes(struct ntw_buf *b, const void *p, size_t n);
int ntw_zeros(struct ntw_buf *b, size_t n);
int ntw_u8(struct ntw_buf *b, uint8_t v);
int ntw_u16(struct ntw_buf *b, uint16_t v);
int ntw_u32(struct ntw_buf *b, uint32_t v);
int ntw_u64(struct ntw_buf *b, uint64_t v);
/* 7 bits per byte, low first, high bit = more follows. */
int ntw_varuint(struct ntw_buf *b, uint64_t v);
/* UTF-16LE with a NUL terminator, from ASCII/UTF-8 (names are ASCII here). */
int ntw_utf16z(struct ntw_buf *b, const char *s);
/* V6 string: varuint32 byte count then UTF-8. */
int ntw_str6(struct ntw_buf *b, const char *s);
void ntw_put_u32_at(struct ntw_buf *b, size_t at, uint32_t v);
void ntw_put_u16_at(struct ntw_buf *b, size_t at, uint16_t v);
void ntw_buf_free(struct ntw_buf *b);

#endif
