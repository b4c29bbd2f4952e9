/*
 * ctf_report.c - how the CTF reader's parts report (see ctf_report.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "oracle/formats/ctf/ctf_read_i.h"
#include "oracle/formats/ctf/ctf_report.h"

void ctfr_report(struct ctfr_reader *r, unsigned code, uint64_t event, uint64_t offset,
                 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->msg, sizeof r->msg, fmt, ap);
	va_end(ap);
	r->report(r->arg, code, event, offset, r->msg);
}

uint64_t ctfr_text_offset(const struct ctfr_reader *r, size_t t)
{
	uint64_t at = t;

	for (size_t i = 0; i < r->ntmap; i++)
		if (r->tmap[2 * i] <= t)
			at = r->tmap[2 * i + 1] + (t - r->tmap[2 * i]);
	return at;
}
