/*
 * example_parser.h - stands in for "your own parser" in the gcmutator
 * example: a small nettrace walker another project might have. It counts
 * the blocks of a V6 file or the objects of a V4/V5 file. Never reads
 * outside data; allocates nothing. Returns the count, or -1 when the bytes
 * are not nettrace.
 */
#ifndef FUZZ_EXAMPLE_PARSER_H
#define FUZZ_EXAMPLE_PARSER_H

#include <stddef.h>
#include <stdint.h>

long example_count_blocks(const uint8_t *data, size_t size);

#endif
