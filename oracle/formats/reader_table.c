/*
 * reader_table.c - the registered container readers, asked in order by
 * probe(). Put readers with a specific magic number before read_model,
 * whose probe only looks for a leading CBOR map. Directory containers
 * (read_ctf) are asked only about directories (probe_dir).
 */
#include "oracle/formats/reader.h"

extern const struct or_reader_ops or_read_model;
extern const struct or_reader_ops or_read_nettrace;
extern const struct or_reader_ops or_read_etl;
extern const struct or_reader_ops or_read_ctf;

const struct or_reader_ops *const or_readers[] = {
	&or_read_nettrace,
	&or_read_etl,
	&or_read_model,
	&or_read_ctf,
	NULL
};
