/*
 * run_report.c - report files written whole or not at all, and text from a
 * decoder made safe for TAP and XML (run_report.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oracle/run_report.h"
#include "util/utf.h"

int rr_open(struct rr_file *r, const char *path)
{
	int fd;

	r->path = path;
	r->tmp = NULL;
	r->f = NULL;
	if (strcmp(path, "-") == 0) {
		r->f = stdout;
		return 0;
	}
	if (!(r->tmp = malloc(strlen(path) + 8))) {
		fprintf(stderr, "gcoracle run: out of memory\n");
		return -1;
	}
	strcpy(r->tmp, path);
	strcat(r->tmp, ".XXXXXX");
	/* Close-on-exec: the decoder must not inherit the report. */
	if ((fd = mkostemp(r->tmp, O_CLOEXEC)) < 0 || !(r->f = fdopen(fd, "w"))) {
		fputs("gcoracle run: ", stderr);
		rr_escape(stderr, path, strlen(path), 0);
		fprintf(stderr, ": %s\n", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(r->tmp);
		}
		free(r->tmp);
		r->tmp = NULL;
		return -1;
	}
	/* mkostemp makes it 0600; a report is as readable as any file made. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	return 0;
}

int rr_commit(struct rr_file *r)
{
	int bad;

	if (!r->f)
		return 0;
	if (r->f == stdout) {
		r->f = NULL;
		return fflush(stdout) == 0 ? 0 : -1;
	}
	bad = ferror(r->f);
	bad |= fclose(r->f) != 0;
	r->f = NULL;
	if (!bad && rename(r->tmp, r->path) == 0) {
		free(r->tmp);
		r->tmp = NULL;
		return 0;
	}
	fputs("gcoracle run: ", stderr);
	rr_escape(stderr, r->path, strlen(r->path), 0);
	fprintf(stderr, ": %s; the report is kept as ", bad ? "write error" : strerror(errno));
	rr_escape(stderr, r->tmp, strlen(r->tmp), 0);
	fputc('\n', stderr);
	free(r->tmp);
	r->tmp = NULL;
	return -1;
}

void rr_discard(struct rr_file *r)
{
	if (r->f && r->f != stdout) {
		fclose(r->f);
		unlink(r->tmp);
	}
	r->f = NULL;
	free(r->tmp);
	r->tmp = NULL;
}

/* Length of the valid UTF-8 sequence at s[k..n) that is not a control
 * character, or 0. */
static size_t utf8_ok(const uint8_t *s, size_t n, size_t k, uint32_t *cp)
{
	size_t at = k;

	*cp = or_utf8_next(s, n, &at);
	if (s[k] >= 0x80 && at == k + 1)
		return 0;  /* a byte alone: not UTF-8 */
	if (*cp < 0x20 || *cp == 0x7f || (*cp >= 0x80 && *cp < 0xa0) ||
	    *cp == 0xfffe || *cp == 0xffff)
		return 0;
	return at - k;
}

void rr_escape(FILE *f, const char *str, size_t n, int hash)
{
	const uint8_t *s = (const uint8_t *)str;
	uint32_t cp;

	for (size_t k = 0; k < n;) {
		size_t len = utf8_ok(s, n, k, &cp);

		if (!len || (hash && s[k] == '#')) {
			fprintf(f, "\\x%02x", s[k]);
			k++;
		} else {
			fwrite(s + k, 1, len, f);
			k += len;
		}
	}
}

void rr_lines(FILE *f, const char *lead, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		fputs(lead, f);
		rr_escape(f, p, n, 0);
		fputc('\n', f);
		p += n + (p[n] == '\n');
	}
}

void rr_tap_comment(FILE *f, const char *text)
{
	rr_lines(f, "# ", text);
}

void rr_xml_text(FILE *f, const char *str)
{
	const uint8_t *s = (const uint8_t *)str;
	size_t n = strlen(str);
	uint32_t cp;

	for (size_t k = 0; k < n;) {
		size_t len;

		switch (s[k]) {
		case '&': fputs("&amp;", f); k++; continue;
		case '<': fputs("&lt;", f); k++; continue;
		case '>': fputs("&gt;", f); k++; continue;
		case '"': fputs("&quot;", f); k++; continue;
		case '\n': case '\t': fputc(s[k], f); k++; continue;
		}
		if ((len = utf8_ok(s, n, k, &cp))) {
			fwrite(s + k, 1, len, f);
			k += len;
		} else {
			fprintf(f, "\\x%02x", s[k]);
			k++;
		}
	}
}
