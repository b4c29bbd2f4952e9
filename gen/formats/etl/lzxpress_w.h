/*
 * lzxpress_w.h - gcgen's LZXPRESS compressor (MS-XCA 2.3/2.4 "Plain LZ77"),
 * what Windows uses for the buffers of an ETW session in compressed mode.
 *
 * Written from MS-XCA's description of the format, not from a decoder:
 * gen/ shares no codec code with oracle/, which expands the same data with
 * libfwnt. Greedy matching with one candidate per 3-byte hash: the output
 * is a valid stream, not the smallest one, and depends only on the input
 * (deterministic).
 *
 * Format: a 32-bit little-endian flag word before every 32 tokens, its
 * bits used from the top (0: a literal byte, 1: a match); a match is a
 * 16-bit word (distance - 1) << 3 | min(length - 3, 7), for longer matches
 * followed by a length nibble (two matches share a byte, low nibble
 * first), then a byte, then a 16-bit length; distances up to 8192 bytes.
 * The last flag word's unused bits are 1, as MS-XCA writes them.
 *
 * Ownership: the caller owns every buffer; st is the compressor's work
 * space (any contents; it is reset on each call).
 */
#ifndef GEN_LZXPRESS_W_H
#define GEN_LZXPRESS_W_H

#include <stddef.h>
#include <stdint.h>

#define GEN_LZX_HASH_BITS 14

struct gen_lzx_state {
	uint32_t head[1u << GEN_LZX_HASH_BITS]; /* a position + 1 per hash, 0: none */
};

/* Bytes of output that always suffice for n bytes of input. */
static inline size_t gen_lzx_bound(size_t n)
{
	return n + 4 * (n / 32 + 2) + 8;
}

/* Compress in[0..n) into out (room for cap bytes). Returns the compressed
 * length, or 0 when cap is too small (gen_lzx_bound(n) never is). */
size_t gen_lzx_compress(struct gen_lzx_state *st, const uint8_t *in, size_t n,
                        uint8_t *out, size_t cap);

#endif
