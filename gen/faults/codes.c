/*
 * codes.c - diagnostic codes of faults as text (codes.h).
 */
#include <stdio.h>

#include "gen/faults/codes.h"

const char *gen_diag_code(int code)
{
	if (code == GEN_DIAG_ANY_STREAM)
		return "GC-S*";
	if (code == GEN_DIAG_ANY)
		return "GC-*";
	if (code < 0 || code >= GCSPEC_NDIAGS)
		return "GC-?";
	return gcspec_diags[code].code;
}

const char *gen_codes_text(const int *codes, char sep, char *buf, size_t n)
{
	size_t at = 0;

	if (n)
		buf[0] = '\0';
	for (unsigned i = 0; codes[i] != GEN_DIAG_END && at < n; i++) {
		int k = snprintf(buf + at, n - at, "%s%s", i ? (char[]){ sep, '\0' } : "",
				 gen_diag_code(codes[i]));

		if (k < 0)
			break;
		at += (size_t)k;
	}
	return buf;
}
