/* example_parser.c - see example_parser.h. */
#include <string.h>

#include "fuzz/gcmutator/example_parser.h"

static uint32_t u32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

long example_count_blocks(const uint8_t *data, size_t size)
{
	size_t pos;
	long n = 0;

	if (size < 12 || memcmp(data, "Nettrace", 8) != 0)
		return -1;
	if (u32(data + 8) == 0 && size >= 20) {
		/* V6: a 20-byte header, then blocks: 24-bit size, 8-bit kind. */
		for (pos = 20; pos + 4 <= size; n++) {
			uint32_t h = u32(data + pos);

			if (h == 0)
				return n; /* end of stream */
			pos += 4 + (h & 0xFFFFFF);
		}
		return n;
	}
	/* V4/V5: FastSerialization objects; count the block type names. */
	for (pos = 12; pos + 10 <= size; pos++)
		if (!memcmp(data + pos, "Block", 5) || !memcmp(data + pos, "Trace", 5))
			n++;
	return n;
}
