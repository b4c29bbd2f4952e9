/*
 * decl.c - a decoder's declaration, checked name by name (decl.h).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "oracle/compare/decl.h"
#include "spec/gcspec.h"

const char *const cd_check_names[5] = { "container", "payload", "value", "stream", "unknown" };

static const char *const keys[] = { "type", "name", "formats", "events", "checks", "codes" };

/* Every format of the corpus, every container, every container-vN
 * (docs/using-the-corpus.md: a "formats" entry may be any of them). A test
 * (tests/corpus/run_decl.sh) holds this list to the corpus index. */
static const char *const formats[] = {
	"nettrace-v4", "nettrace-v5", "nettrace-v5-full", "nettrace-v6", "nettrace-v6-full",
	"ctf", "etl", "etl-compressed", "etl-merged", "cbor",
	"nettrace", "gcconform-model", "ctf-v1", "etl-v1", "gcconform-model-v1",
};
#define N(a) (sizeof a / sizeof a[0])

/* Edit distance, ignoring case, of two short names (longer ones: far). */
static unsigned distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned row[65];

	if (la > 64 || lb > 64)
		return 1000;
	for (size_t j = 0; j <= lb; j++)
		row[j] = (unsigned)j;
	for (size_t i = 1; i <= la; i++) {
		unsigned diag = row[0], up;

		row[0] = (unsigned)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			unsigned best = diag + cost;

			up = row[j];
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* The decoder's text, escaped for a terminal and cut at 60 bytes. */
static void put_safe(char *out, size_t n, const char *s)
{
	size_t k = 0;

	for (; *s && k + 8 < n && k < 60; s++)
		k += (unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f ?
			(size_t)snprintf(out + k, n - k, "\\x%02x", (unsigned char)*s) :
			(size_t)snprintf(out + k, n - k, "%c", *s);
}

typedef const char *(*name_at)(size_t i);

static const char *event_symbol(size_t i) { return gcspec_events[i].symbol; }
static const char *format_name(size_t i) { return formats[i]; }
static const char *check_name(size_t i) { return cd_check_names[i]; }
static const char *key_name(size_t i) { return keys[i]; }

static int known(const char *s, name_at at, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strcmp(at(i), s) == 0)
			return 1;
	return 0;
}

/* "unknown WHAT "x" (valid: a, b, c)" when the list is short, else the
 * three nearest names. */
static int unknown(char *msg, size_t n, const char *what, const char *s, name_at at,
		   size_t count)
{
	char shown[300] = "";
	size_t k;
	int listed = 0;

	put_safe(shown, sizeof shown, s);
	k = (size_t)snprintf(msg, n, "unknown %s \"%s\" (%s: ", what, shown,
			     count <= 16 ? "valid" : "nearest");
	if (count <= 16) {
		for (size_t i = 0; i < count && k < n; i++)
			k += (size_t)snprintf(msg + k, n - k, "%s%s", i ? ", " : "", at(i));
	} else {
		for (unsigned d = 0; d < 64 && listed < 3; d++)
			for (size_t i = 0; i < count && listed < 3 && k < n; i++)
				if (distance(s, at(i)) == d)
					k += (size_t)snprintf(msg + k, n - k, "%s%s", listed++ ? ", " : "",
							      at(i));
	}
	if (k < n)
		snprintf(msg + k, n - k, ")");
	return -1;
}

static int is_event(const char *s)
{
	for (unsigned i = 0; i < GCSPEC_NEVENTS; i++)
		if (strcmp(gcspec_events[i].symbol, s) == 0 || strcmp(gcspec_events[i].name, s) == 0)
			return 1;
	return 0;
}

/* Every item of the array under key: a text that known() accepts. */
static int check_list(const struct cv *line, const char *key, const char *what, name_at at,
		      size_t count, int events, char *msg, size_t n)
{
	const struct cv *a = cv_get(line, key);

	if (!a)
		return 0;
	if (a->kind != CV_ARRAY) {
		snprintf(msg, n, "\"%s\" is not an array of names", key);
		return -1;
	}
	for (size_t i = 0; i < a->n; i++) {
		const char *s = cv_text(&a->item[i], NULL);

		if (!s) {
			snprintf(msg, n, "\"%s\" item %zu is not a name", key, i);
			return -1;
		}
		if (events ? !is_event(s) : !known(s, at, count))
			return unknown(msg, n, what, s, at, count);
	}
	return 0;
}

int cd_check(const struct cv *line, char *msg, size_t n)
{
	const struct cv *v;

	for (size_t i = 0; i < line->n; i++) {
		const char *k = cv_text(&line->item[2 * i], "");

		if (!known(k, key_name, N(keys)))
			return unknown(msg, n, "key", k, key_name, N(keys));
	}
	if ((v = cv_get(line, "name")) && v->kind != CV_TEXT) {
		snprintf(msg, n, "\"name\" is not a text");
		return -1;
	}
	if ((v = cv_get(line, "codes")) && v->kind != CV_BOOL) {
		snprintf(msg, n, "\"codes\" is not true or false");
		return -1;
	}
	if (check_list(line, "formats", "format", format_name, N(formats), 0, msg, n) < 0 ||
	    check_list(line, "checks", "check", check_name, 5, 0, msg, n) < 0 ||
	    check_list(line, "events", "event", event_symbol, GCSPEC_NEVENTS, 1, msg, n) < 0)
		return -1;
	return 0;
}
