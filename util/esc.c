/*
 * esc.c - text escaped for a terminal (esc.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/esc.h"
#include "util/utf.h"

#define ESC_SIZE 1024

const char *gc_esc(const char *str)
{
	static _Thread_local char buf[4][ESC_SIZE];
	static _Thread_local unsigned turn;
	char *out = buf[turn++ % 4];
	const uint8_t *s = (const uint8_t *)str;
	size_t n, k = 0;

	if (!str)
		return "(null)";
	n = strlen(str);
	for (size_t i = 0; i < n;) {
		size_t at = i, len;
		uint32_t cp = or_utf8_next(s, n, &at);

		len = at - i;
		if (k + 8 >= ESC_SIZE) {
			memcpy(out + k, "...", 3);
			k += 3;
			break;
		}
		if ((s[i] >= 0x80 && len == 1) || cp < 0x20 || cp == 0x7f ||
		    (cp >= 0x80 && cp < 0xa0)) {
			k += (size_t)snprintf(out + k, ESC_SIZE - k, "\\x%02x", s[i]);
			i++;
		} else {
			memcpy(out + k, s + i, len);
			k += len;
			i += len;
		}
	}
	out[k] = 0;
	return out;
}
