/*
 * writer_table.c - the --format names gcgen knows, one line per container
 * module. To add a container: write gen/formats/<name>/write_<name>.c defining a
 * `const struct gen_writer_ops gen_write_<name>_ops`, declare it below and
 * add it to gen_writer_formats.
 */
#include <stddef.h>
#include <string.h>

#include "gen/formats/writer.h"

#include "gen/formats/nettrace/nettrace_w.h" /* gen_write_nettrace_*_ops */
#include "gen/formats/etl/etl_w.h"      /* gen_write_etl_ops */
#include "gen/formats/ctf/ctf_w.h"      /* gen_write_ctf_ops */

const struct gen_writer_ops *const gen_writer_formats[] = {
	&gen_write_model_ops,
	&gen_write_nettrace_v5_ops, &gen_write_nettrace_v6_ops, &gen_write_nettrace_v4_ops, &gen_write_nettrace_v5_full_ops, &gen_write_nettrace_v6_full_ops,
	&gen_write_etl_ops, &gen_write_etl_merged_ops, &gen_write_etl_compressed_ops,
	&gen_write_ctf_ops,
	NULL
};

const struct gen_writer_ops *gen_writer_find(const char *format)
{
	for (unsigned i = 0; gen_writer_formats[i]; i++)
		if (strcmp(gen_writer_formats[i]->format, format) == 0)
			return gen_writer_formats[i];
	return NULL;
}
