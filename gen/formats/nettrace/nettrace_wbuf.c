/*
 * nettrace_wbuf.c - byte buffer for the nettrace writer. See nettrace_wbuf.h.
 */
#include <stdlib.h>
#include <string.h>

#include "gen/formats/nettrace/nettrace_wbuf.h"
#include "util/le.h"

int ntw_reserve_slow(struct ntw_buf *b, size_t more)
{
	size_t cap;
	uint8_t *p;

	if (more <= b->cap - b->len)
		return 0;
	cap = b->cap ? b->cap : 4096;
	while (cap - b->len < more) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(b->data, cap);
	if (!p)
		return -1;
	b->data = p;
	b->cap = cap;
	return 0;
}

int ntw_bytes(struct ntw_buf *b, const void *p, size_t n)
{
	if (ntw_reserve(b, n))
		return -1;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	return 0;
}

int ntw_zeros(struct ntw_buf *b, size_t n)
{
	if (ntw_reserve(b, n))
		return -1;
	memset(b->data + b->len, 0, n);
	b->len += n;
	return 0;
}

int ntw_u8(struct ntw_buf *b, uint8_t v)
{
	return ntw_bytes(b, &v, 1);
}

int ntw_u16(struct ntw_buf *b, uint16_t v)
{
	uint8_t t[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	return ntw_bytes(b, t, 2);
}

int ntw_u32(struct ntw_buf *b, uint32_t v)
{
	uint8_t t[4];

	put_le32(t, v);
	return ntw_bytes(b, t, 4);
}

int ntw_u64(struct ntw_buf *b, uint64_t v)
{
	uint8_t t[8];

	put_le64(t, v);
	return ntw_bytes(b, t, 8);
}

int ntw_varuint(struct ntw_buf *b, uint64_t v)
{
	uint8_t t[10];
	size_t n = 0;

	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		t[n++] = (uint8_t)(c | (v ? 0x80 : 0));
	} while (v);
	return ntw_bytes(b, t, n);
}

int ntw_utf16z(struct ntw_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (ntw_reserve(b, 2 * n + 2))
		return -1;
	for (size_t i = 0; i < n; i++) {
		b->data[b->len++] = (uint8_t)s[i];
		b->data[b->len++] = 0;
	}
	b->data[b->len++] = 0;
	b->data[b->len++] = 0;
	return 0;
}

int ntw_str6(struct ntw_buf *b, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (ntw_varuint(b, n))
		return -1;
	return ntw_bytes(b, s, n);
}

void ntw_put_u32_at(struct ntw_buf *b, size_t at, uint32_t v)
{
	put_le32(b->data + at, v);
}

void ntw_put_u16_at(struct ntw_buf *b, size_t at, uint16_t v)
{
	put_le16(b->data + at, v);
}

void ntw_buf_free(struct ntw_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}
