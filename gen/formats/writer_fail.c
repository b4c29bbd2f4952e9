/*
 * writer_fail.c - gen_writer_fail, the one helper every writer calls back:
 * apart from writer_table.c, so that a container's writer library links
 * without the table that lists every other writer.
 */
#include <stdarg.h>
#include <stdio.h>
#include "gen/formats/writer.h"

int gen_writer_fail(struct gen_writer *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->error, sizeof w->error, fmt, ap);
	va_end(ap);
	return -1;
}
