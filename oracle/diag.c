/*
 * diag.c - counting and forwarding diagnostics (see diag.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "oracle/diag.h"

void or_diag_init(struct or_diag_sink *s)
{
	memset(s, 0, sizeof *s);
}

void or_report_to(struct or_diag_sink *s, unsigned code, uint64_t event,
                  uint64_t offset, const char *name, const char *fmt, ...)
{
	struct or_diag d;
	va_list ap;
	unsigned sev;

	if (code >= GCSPEC_NDIAGS)
		return;
	sev = gcspec_diags[code].severity;
	if (s->strict && sev == GCSPEC_WARNING)
		sev = GCSPEC_ERROR;
	s->counts[code]++;
	s->by_severity[sev]++;
	if (!s->emit)
		return;
	va_start(ap, fmt);
	vsnprintf(s->buf, sizeof s->buf, fmt, ap);
	va_end(ap);
	d.code = code;
	d.severity = sev;
	d.event = event;
	d.offset = offset;
	d.name = name;
	d.message = s->buf;
	d.file = NULL;
	d.file_offset = offset;
	if (s->locate && !(d.file = s->locate(s->locate_arg, offset, &d.file_offset)))
		d.file_offset = offset;
	s->emit(s->emit_arg, &d);
}

void or_report_diag(struct or_diag_sink *s, const struct or_diag *from)
{
	struct or_diag d = *from;
	unsigned sev;

	if (d.code >= GCSPEC_NDIAGS)
		return;
	sev = gcspec_diags[d.code].severity;
	if (s->strict && sev == GCSPEC_WARNING)
		sev = GCSPEC_ERROR;
	s->counts[d.code]++;
	s->by_severity[sev]++;
	if (!s->emit)
		return;
	d.severity = sev;
	d.file = NULL;
	d.file_offset = d.offset;
	if (s->locate && !(d.file = s->locate(s->locate_arg, d.offset, &d.file_offset)))
		d.file_offset = d.offset;
	s->emit(s->emit_arg, &d);
}

const char *or_diag_code(unsigned code)
{
	return code < GCSPEC_NDIAGS ? gcspec_diags[code].code : NULL;
}

int or_diag_lookup(const char *code)
{
	for (unsigned i = 0; i < GCSPEC_NDIAGS; i++)
		if (strcmp(gcspec_diags[i].code, code) == 0)
			return (int)i;
	return -1;
}

const char *or_severity_name(unsigned severity)
{
	static const char *const names[] = { "note", "warning", "error" };
	return severity < 3 ? names[severity] : "?";
}
