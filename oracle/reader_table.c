/*
 * reader_table.c - the registered container readers, asked in order by
 * probe(). Put readers with a specific magic number before read_model,
 * whose probe only looks for a leading CBOR map.
 */
#include "reader.h"

extern const struct or_reader_ops or_read_model;
extern const struct or_reader_ops or_read_nettrace;

const struct or_reader_ops *const or_readers[] = {
	&or_read_nettrace,
	&or_read_model,
	NULL
};
